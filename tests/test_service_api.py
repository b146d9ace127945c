"""The HTTP API without Solr: validation errors are 422 naming the field, over-size postings are rejected
with a reason, Solr down is 503 + Retry-After, /v1/signatures works offline, /metrics is Prometheus text."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from signatures import SIG_VERSION, textprofile
from signatures.profile import PROFILE_FIELDS

DEAD_SOLR = "http://127.0.0.1:9/solr/postings"  # discard port: connection refused


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(DEAD_SOLR, timeout=2.0, max_text_chars=1000))


def field_locs(res) -> list[list]:
    return [e["loc"] for e in res.json()["detail"]]


def test_malformed_json_is_422(client: TestClient) -> None:
    res = client.post("/v1/postings", content=b'{"postings": [', headers={"Content-Type": "application/json"})
    assert res.status_code == 422


@pytest.mark.parametrize(
    "body,loc",
    [
        ({"postings": [{"title": "x"}]}, ["body", "postings", 0, "id"]),
        ({"postings": [{"id": "a"}, {"id": "b", "title": 5}]}, ["body", "postings", 1, "title"]),
        ({"postings": [{"id": 17}]}, ["body", "postings", 0, "id"]),
        ({"postings": [{"id": "a", "seen_count": "many"}]}, ["body", "postings", 0, "seen_count"]),
        ({"postings": []}, ["body", "postings"]),
        ({"items": []}, ["body", "postings"]),
    ],
)
def test_bad_postings_are_422_naming_the_field(client: TestClient, body: dict, loc: list) -> None:
    res = client.post("/v1/postings", json=body)
    assert res.status_code == 422
    assert loc in field_locs(res)


def test_oversize_posting_rejected_with_reason_without_touching_solr(client: TestClient) -> None:
    res = client.post("/v1/postings", json={"postings": [{"id": "big", "description": "x" * 1001}]})
    assert res.status_code == 200
    (r,) = res.json()["results"]
    assert r["status"] == "rejected" and "1,001 characters" in r["reason"] and "JOBDEDUP_MAX_TEXT_CHARS" in r["reason"]


def test_bad_date_rejected_with_reason(client: TestClient) -> None:
    res = client.post("/v1/postings", json={"postings": [{"id": "d", "first_seen": "yesterday"}]})
    assert res.status_code == 200
    assert "first_seen" in res.json()["results"][0]["reason"]


def test_solr_down_is_503_with_retry_after(client: TestClient) -> None:
    res = client.post("/v1/postings", json={"postings": [{"id": "a", "title": "Dev", "description": "hello"}]})
    assert res.status_code == 503
    assert int(res.headers["Retry-After"]) > 0
    assert "nothing was written" in res.json()["detail"]
    assert client.get("/health").status_code == 503
    assert client.get("/v1/postings/a/duplicates").status_code == 503


def test_signatures_without_solr(client: TestClient) -> None:
    posting = {"id": "s1", "title": "Backend Engineer", "company": "Acme", "description": "Build APIs in Go and Python."}
    res = client.post("/v1/signatures", json={"postings": [posting]})
    assert res.status_code == 200
    (r,) = res.json()["results"]
    # the Solr-chain signature equals the independent Python port of Solr's TextProfileSignature
    # and, for Latin-script text, the profile_sig: both sign the job text (PROFILE_FIELDS), not company
    assert r["signature"] == textprofile.solr_fields_signature(posting, PROFILE_FIELDS) == r["profile_sig"]
    assert r["sig_version"] == SIG_VERSION
    assert len(r["profile_sig"]) == 32 and r["mh_bands"] and r["mh_sketch"]


def test_metrics_and_openapi(client: TestClient) -> None:
    client.post("/v1/postings", json={"postings": [{"id": "big", "description": "x" * 2000}]})
    text = client.get("/metrics").text
    assert 'jobdedup_postings_total{status="rejected"} 1.0' in text
    schema = client.get("/openapi.json").json()
    assert "/v1/postings" in schema["paths"] and "/v1/signatures" in schema["paths"]


def test_openapi_documents_the_error_answers(client: TestClient) -> None:
    """The answers a client must handle are in the OpenAPI document, as the service gives them."""
    paths = client.get("/openapi.json").json()["paths"]
    post = paths["/v1/postings"]["post"]["responses"]
    assert {"200", "422", "502", "503"} <= set(post)
    assert "Retry-After" in post["503"]["description"]
    dups = paths["/v1/postings/{posting_id}/duplicates"]["get"]["responses"]
    assert {"200", "404", "422", "503"} <= set(dups)
    group = client.get("/openapi.json").json()["components"]["schemas"]["DuplicatesOut"]
    assert {"duplicates", "duplicates_total", "truncated"} <= set(group["required"])  # a cut list says so
    assert "503" in paths["/health"]["get"]["responses"]
    assert "rejected" in paths["/v1/postings"]["post"]["description"]  # a posting over the cap: 200 + rejected
    res = client.post("/v1/postings", json={"postings": [{"id": "a"}]})
    assert res.status_code == 503 and set(res.json()) == {"detail"}  # the ErrorOut shape
