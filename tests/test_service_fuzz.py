"""Zero 5xx for any body: schemathesis over the OpenAPI schema and hypothesis over raw bodies (arbitrary
bytes, JSON with NaN / huge numbers / lone surrogates / deep nesting / odd dates), against the app in front
of a real local Solr. Every answer must be below 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service.app import create_app

pytestmark = pytest.mark.solr

_SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def fuzz_app(solr_url: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(f"{solr_url}/postings", commit_within_ms=1000, max_text_chars=5000,
                      max_body_bytes=2_000_000, state_dir=str(tmp_path_factory.mktemp("fuzz-state")), cpu_workers=1)


def test_no_5xx_over_the_openapi_schema(fuzz_app: Any) -> None:
    """Every operation of /openapi.json with schemathesis-generated parameters and bodies (valid and
    invalid per the schema)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)
    operations = [op.ok() for op in schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/v1/postings", "/v1/signatures", "/health"}
    for op in operations:

        @_SETTINGS
        @given(case=op.as_strategy())
        def call(case: Any) -> None:
            res = case.call()
            assert res.status_code < 500, (case.method, case.path, res.status_code, res.text[:500])

        call()


# --------------------------------------------------------------------------- raw bodies

_KEYS = st.one_of(st.sampled_from(["id", "title", "company", "location", "description", "url", "posted_at",
                                   "first_seen", "last_seen", "seen_count", "lang", "source", "salary_i",
                                   "tags_is", "big_l", "ratio_f", "score_d", "ok_b", "when_dt", "note_s",
                                   "company_exact", "_version_", "signature", "dup_group"]),
                  st.text(max_size=12))
_DATES = st.sampled_from(["2026-01-02", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00",
                          "0001-01-01", "9999-12-31T23:59:59Z", "2026-13-01", "yesterday", "", "2026-01-02T25:00"])
_NUMBERS = st.one_of(st.integers(), st.integers(min_value=2**31 - 2, max_value=2**64 + 2),
                     st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e39, -1e308, 2**63]))
_SCALARS = st.one_of(st.none(), st.booleans(), _NUMBERS, st.text(max_size=40), _DATES)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                       max_leaves=12)
_POSTINGS = st.lists(st.dictionaries(_KEYS, _VALUES, max_size=8).map(lambda d: d if "id" not in d or d["id"] else {}
                                                                     ) | st.fixed_dictionaries(
    {"id": st.text(min_size=1, max_size=20)}, optional={"description": st.text(max_size=200),
                                                        "seen_count": _NUMBERS, "first_seen": _DATES}),
    max_size=4)


def _encode(doc: Any, surrogate: bool, deep: int) -> bytes:
    text = json.dumps(doc, allow_nan=True)  # NaN, Infinity and huge ints as Python writes them
    if surrogate:
        text = text.replace('"', '"\\ud83d', 1)  # a lone high surrogate in the first string
    if deep:
        text = text.replace("{", '{"deep": ' + "[" * deep + "]" * deep + ", ", 1)
    return text.encode()


_REPRODUCTIONS = (  # issue 10's 500s and what Solr refuses
    [{"id": "a", "seen_count": float("nan")}], [{"id": "a", "x": float("inf")}], [{"id": "a", "seen_count": 2**64}],
    [{"id": "a", "seen_count": 2**31}], [{"id": "a", "size_i": 2**40}], [{"id": "a", "first_seen": "0001-01-01T00:00:00+01:00"}],
    [{"id": "a", "last_seen": "9999-12-31T23:00:00-05:00"}], [{"id": "a", "when_dt": "yesterday"}],
    [{"id": "a", "salary_i": "abc"}], [{"id": "a", "url": "u" * 40_000}], [{"id": "a", "x_f": "nan"}],
)


@_SETTINGS
@given(postings=_POSTINGS, surrogate=st.booleans(), deep=st.sampled_from([0, 0, 40, 300]),
       path=st.sampled_from(["/v1/postings", "/v1/signatures"]))
def test_no_5xx_for_json_bodies(fuzz_app: Any, postings: list, surrogate: bool, deep: int, path: str) -> None:
    client = TestClient(fuzz_app)
    res = client.post(path, content=_encode({"postings": postings}, surrogate, deep),
                      headers={"Content-Type": "application/json"})
    assert res.status_code < 500, (postings, res.status_code, res.text[:500])


for _postings in _REPRODUCTIONS:
    for _path in ("/v1/postings", "/v1/signatures"):
        test_no_5xx_for_json_bodies = example(postings=_postings, surrogate=False, deep=0, path=_path)(
            test_no_5xx_for_json_bodies)
test_no_5xx_for_json_bodies = example(postings=[{"id": "a"}], surrogate=True, deep=0, path="/v1/postings")(
    example(postings=[{"id": "a"}], surrogate=False, deep=300, path="/v1/postings")(test_no_5xx_for_json_bodies))


@_SETTINGS
@given(body=st.binary(max_size=400), ctype=st.sampled_from(["application/json", "text/plain", None]),
       path=st.sampled_from(["/v1/postings", "/v1/signatures"]))
def test_no_5xx_for_raw_bytes(fuzz_app: Any, body: bytes, ctype: str | None, path: str) -> None:
    client = TestClient(fuzz_app)
    res = client.post(path, content=body, headers={"Content-Type": ctype} if ctype else {})
    assert res.status_code < 500, (body, res.status_code, res.text[:500])


@_SETTINGS
@given(pid=st.text(min_size=1, max_size=30))
def test_no_5xx_for_any_posting_id(fuzz_app: Any, pid: str) -> None:
    from urllib.parse import quote

    res = TestClient(fuzz_app).get(f"/v1/postings/{quote(pid, safe='')}/duplicates")
    assert res.status_code < 500, (pid, res.status_code, res.text[:500])
