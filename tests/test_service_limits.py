"""Service limits without Solr: bodies over the size limit are 413, bad JSON of every kind is 422 without
echoing the body, numbers Solr would wrap and dates outside its years are rejected with a reason, the
text cap holds on /v1/signatures, and CPU work runs in workers within a budget while /health answers."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from fastapi.testclient import TestClient

from service.app import create_app

DEAD_SOLR = "http://127.0.0.1:9/solr/postings"  # discard port: connection refused


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(DEAD_SOLR, timeout=2.0, max_text_chars=1000, max_body_bytes=200_000))


def _raw(client: TestClient, body: bytes, path: str = "/v1/postings"):
    return client.post(path, content=body, headers={"Content-Type": "application/json"})


def test_body_over_the_limit_is_413_with_the_limit(client: TestClient) -> None:
    res = _raw(client, b'{"postings": [{"id": "a", "description": "' + b"x" * 300_000 + b'"}]}')
    assert res.status_code == 413
    assert "200,000 bytes" in res.json()["detail"] and "--max-body-bytes" in res.json()["detail"]

    def chunks():  # no Content-Length: counted while streamed
        yield b'{"postings": [{"id": "a", "description": "'
        for _ in range(40):
            yield b"x" * 10_000
        yield b'"}]}'

    res = client.post("/v1/postings", content=chunks(), headers={"Content-Type": "application/json"})
    assert res.status_code == 413


@pytest.mark.parametrize("body", [
    b'{"postings": [{"id": "a", "seen_count": NaN}]}',
    b'{"postings": [{"id": "a", "x_d": Infinity}]}',
    b'{"postings": [{"id": "a", "x_d": -Infinity}]}',
    b'{"postings": [{"id": "a", "x": 1e999}]}',
    b'{"postings": [{"id": "\\ud800"}]}',
    b'{"postings": [{"id": "a", "title": "\\udfff x"}]}',
    b'{"postings": [{"id": "a", "deep": ' + b"[" * 300 + b"]" * 300 + b"}]}",
    b'{"postings": [{"id": "a", "x": "\xff\xfe"}]}',
    b'{"postings": [',
    b"\x00\x01\x02",
])
@pytest.mark.parametrize("path", ["/v1/postings", "/v1/signatures"])
def test_unreadable_json_is_422(client: TestClient, body: bytes, path: str) -> None:
    res = _raw(client, body, path)
    assert res.status_code == 422, res.text
    assert res.json()["detail"][0]["loc"][0] == "body"


@pytest.mark.parametrize(("body", "byte"), [('{"postings": [{"id": "é"}]}'.encode("latin-1"), "0xe9"),
                                            ('{"postings": [{"id": "a"}]}'.encode("utf-16"), "0xff")])
def test_a_body_in_another_encoding_is_422_saying_so(client: TestClient, body: bytes, byte: str) -> None:
    res = _raw(client, body)
    assert res.status_code == 422, res.text
    assert f"not UTF-8 (byte {byte}" in res.json()["detail"][0]["ctx"]["error"], res.text


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded"])
def test_json_sent_as_another_media_type_is_422_naming_the_content_type(client: TestClient, ctype: str) -> None:
    res = client.post("/v1/postings", content=b'{"postings": [{"id": "a"}]}', headers={"Content-Type": ctype})
    assert res.status_code == 422, res.text
    assert f"Content-Type: application/json (got '{ctype}')" in res.json()["detail"][0]["msg"], res.text


def test_422_never_echoes_the_body(client: TestClient) -> None:
    marker = "ECHO" * 10_000
    for body in ({"postings": [{"id": 5, "title": marker}]}, {"postings": [{"id": marker}]},
                 {"postings": [{"id": "a", "seen_count": marker}]}, {"postings": marker}):
        res = client.post("/v1/postings", json=body)
        assert res.status_code == 422
        assert len(res.content) < 2_000 and "ECHOECHOECHO" not in res.text
        assert all("input" not in e for e in res.json()["detail"])


@pytest.mark.parametrize("field,value", [("seen_count", 2**31), ("seen_count", 2**64), ("seen_count", 0)])
def test_seen_count_beyond_solr_int_is_422(client: TestClient, field: str, value: int) -> None:
    res = _raw(client, json.dumps({"postings": [{"id": "a", field: value}]}).encode())
    assert res.status_code == 422
    assert ["body", "postings", 0, field] in [e["loc"] for e in res.json()["detail"]]


@pytest.mark.parametrize("field,value,kind", [
    ("salary_i", 2**31, "int"), ("salary_i", -(2**31) - 1, "int"), ("size_i", 2**40, "int"),
    ("counts_is", [1, 2**33], "int"), ("big_l", 2**63, "long"), ("ratio_f", 1e39, "float"),
])
def test_numbers_solr_would_wrap_are_rejected_with_a_reason(client: TestClient, field: str, value: object,
                                                             kind: str) -> None:
    res = _raw(client, json.dumps({"postings": [{"id": "a", field: value}]}).encode())
    assert res.status_code == 200
    (r,) = res.json()["results"]
    assert r["status"] == "rejected" and field in r["reason"] and f"Solr's {kind} range" in r["reason"]


@pytest.mark.parametrize("date", ["0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-05:00", "10000-01-01"])
def test_dates_outside_solr_years_are_rejected_with_a_reason(client: TestClient, date: str) -> None:
    res = client.post("/v1/postings", json={"postings": [{"id": "a", "first_seen": date}]})
    assert res.status_code == 200
    assert "first_seen" in res.json()["results"][0]["reason"]


def test_early_years_are_written_with_four_digits() -> None:
    from service.ingest import iso_instant

    assert iso_instant("0001-01-01T05:00:00+01:00", "first_seen") == "0001-01-01T04:00:00Z"
    assert iso_instant("2026-01-02", "first_seen") == "2026-01-02T00:00:00Z"


def test_text_cap_holds_on_signatures(client: TestClient) -> None:
    res = client.post("/v1/signatures", json={"postings": [{"id": "ok", "description": "fine"},
                                                           {"id": "big", "description": "x" * 1001}]})
    assert res.status_code == 422
    (err,) = res.json()["detail"]
    assert err["loc"] == ["body", "postings", 1] and "1,001 characters" in err["msg"]


def _heavy_batch(n: int, chars: int) -> dict:
    rnd = random.Random(7)
    words = ["engineer", "[team", "(remote", "salary", "tg", "<p", "**", "data", "platform", "Berlin", "a@b.co"]
    return {"postings": [{"id": f"h{i}", "title": "Engineer", "description": " ".join(
        rnd.choice(words) + str(rnd.randint(0, 10**6)) for _ in range(chars // 12))} for i in range(n)]}


@pytest.mark.solr
def test_cpu_work_over_budget_is_422_and_health_keeps_answering(clean_solr: str) -> None:
    # a live Solr: the batch's schema is read first (a dead Solr answers 503 before any CPU work)
    app = create_app(f"{clean_solr}/postings", timeout=2.0, cpu_workers=1, cpu_budget_s=2.0,
                     max_body_bytes=50_000_000)
    with TestClient(app) as c:
        assert c.post("/v1/signatures", json={"postings": [{"id": "warm", "description": "x"}]}).status_code == 200
        body = _heavy_batch(60, 150_000)  # features and extraction: ~10 s of CPU
        out: dict = {}
        t = threading.Thread(target=lambda: out.setdefault("res", c.post("/v1/postings", json=body)))
        t0 = time.perf_counter()
        t.start()
        waits = []
        while t.is_alive() and time.perf_counter() - t0 < 60:
            s = time.perf_counter()
            assert c.get("/health").status_code == 200  # the service keeps answering meanwhile
            waits.append(time.perf_counter() - s)
            time.sleep(0.1)
        t.join()
        assert len(waits) >= 5 and max(waits) < 1.0, waits
        res = out["res"]
        assert res.status_code == 422 and "budget of 2 s" in res.json()["detail"]
        # the ended worker is replaced: the next request is served
        ok = c.post("/v1/signatures", json={"postings": [{"id": "after", "description": "fine"}]})
        assert ok.status_code == 200 and ok.json()["results"][0]["id"] == "after"


@pytest.mark.solr
def test_other_clients_are_served_while_a_hostile_batch_runs(clean_solr: str) -> None:
    # near-copies of a posting whose workplace lines NFKC widens 6x (seconds of CPU each, in extraction and in
    # the verifier's pair features, and seconds of Solr indexing): meanwhile /health answers at once and another
    # client's small batches are all written (after the hostile batch's decisions and write, which hold the
    # ingest lock: decisions are made one batch at a time)
    from hostile import GENERATORS

    app = create_app(f"{clean_solr}/postings", timeout=30.0, cpu_workers=2, cpu_budget_s=120.0,
                     max_body_bytes=50_000_000)
    base = GENERATORS["nfkc wide workplace lines"](150_000)
    hostile = {"postings": [{**base, "id": f"x{i}", "description": base["description"] + f"\n勤務地：第{i}店"}
                            for i in range(4)]}
    with TestClient(app) as c:
        for i in range(2):  # both workers warm, and the Solr client
            assert c.post("/v1/signatures", json={"postings": [{"id": f"w{i}", "description": "x"}]}).status_code == 200
        assert c.get("/health").status_code == 200
        out: dict = {}
        t = threading.Thread(target=lambda: out.setdefault("res", c.post("/v1/postings", json=hostile)))
        small: list[threading.Thread] = []
        t0 = time.perf_counter()
        t.start()
        health = []
        while t.is_alive() and time.perf_counter() - t0 < 300:
            k = len(small)
            batch = {"postings": [{"id": f"s{k}", "title": "Nurse", "description": f"Night shifts on ward {k}."}]}
            small.append(threading.Thread(target=lambda k=k, b=batch: out.setdefault(f"s{k}", c.post("/v1/postings", json=b))))
            small[-1].start()
            s = time.perf_counter()
            assert c.get("/health").status_code == 200
            health.append(time.perf_counter() - s)
            time.sleep(0.5)
        t.join()
        for th in small:
            th.join(120)
        assert out["res"].status_code == 200, out["res"].text[:300]
        assert [r["id"] for r in out["res"].json()["results"]] == [f"x{i}" for i in range(4)]
        assert len(small) >= 5 and max(health) < 1.0, health
        for k in range(len(small)):
            res = out[f"s{k}"]
            assert res.status_code == 200 and res.json()["results"][0]["id"] == f"s{k}", res.text[:300]


@pytest.mark.solr
def test_other_clients_are_served_while_many_writers_wait_on_a_slow_solr(clean_solr: str) -> None:
    """Solr answers every request a second late and 50 clients post batches at once (they queue for the ingest
    lock): /metrics and /health still answer in about Solr's time, not after the queued batches (the writers
    held every thread of the shared pool, 40: /metrics waited ~60 s)."""
    from cut_proxy import CutProxy

    with CutProxy(clean_solr) as proxy:
        app = create_app(proxy.url("/postings"), timeout=30.0, cpu_workers=0)
        with TestClient(app) as c:
            assert c.post("/v1/postings", json={"postings": [{"id": "warm", "description": "warm up"}]}).status_code == 200
            proxy.delay = 1.0
            out: dict = {}
            writers = [threading.Thread(target=lambda k=k: out.setdefault(k, c.post("/v1/postings", json={
                "postings": [{"id": f"s{k}", "title": "Nurse", "description": f"Night shifts on ward {k}."}]})))
                for k in range(50)]
            for t in writers:
                t.start()
            time.sleep(3)  # the writers are queued
            t0 = time.perf_counter()
            assert c.get("/metrics").status_code == 200
            metrics_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            assert c.get("/health").status_code == 200
            health_s = time.perf_counter() - t0
            proxy.delay = 0.0
            for t in writers:
                t.join(timeout=300)
            assert sorted(out) == list(range(50)) and {r.status_code for r in out.values()} == {200}
        assert metrics_s < 5.0 and health_s < 10.0, (metrics_s, health_s)
