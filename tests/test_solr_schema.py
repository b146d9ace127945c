"""A batch is all-or-nothing per posting: what Solr's schema refuses is rejected before writing (the rules
of service.solr_schema agree with a real Solr, value by value), and when Solr still refuses a posting the
others of its batch are written and learned, the refused one is reported with Solr's reason."""

from __future__ import annotations

import random

import pytest
import requests
from fastapi.testclient import TestClient

from service.app import create_app
from service.ingest import Ingestor, prepare_batch
from service.solr import Solr
from service.solr_schema import Schema

pytestmark = pytest.mark.solr

# (field, value): values the rules and Solr 9 must judge alike
AGREE = [
    ("x_i", 5), ("x_i", -5), ("x_i", 1.5), ("x_i", "12"), ("x_i", "+3"), ("x_i", "١٢"), ("x_i", " 12"),
    ("x_i", "1.5"), ("x_i", "1e3"), ("x_i", "abc"), ("x_i", ""), ("x_i", True), ("x_i", "true"), ("x_i", [1, 2]),
    ("x_i", "0x10"), ("x_i", "2147483648"), ("x_i", "1_000"), ("x_i", 2 ** 63),
    ("x_is", [1, 2]), ("x_is", ["1", "abc"]), ("x_is", []), ("x_is", [True]),
    ("x_l", 2 ** 40), ("x_l", 2 ** 63), ("x_l", "9223372036854775808"), ("x_l", "1.5"), ("x_l", "abc"),
    ("x_f", "NaN"), ("x_f", "1e999"), ("x_f", "abc"), ("x_f", True), ("x_f", "1,5"), ("x_f", 1e300),
    ("x_f", "Infinity"), ("x_f", "-inf"), ("x_f", "0x1p3"), ("x_f", " 2.5 "), ("x_f", "2.5f"), ("x_d", "abc"),
    ("x_b", 1), ("x_b", [True]), ("x_b", "TRUE"), ("x_b", "f"), ("x_b", "0"), ("x_b", False),
    ("x_dt", "2024-01-01"), ("x_dt", "2024-01-01T00:00:00Z"), ("x_dt", "NOW"), ("x_dt", "NOW/DAY+1DAY"), ("x_dt", "NOWabc"), ("x_dt", "2024-01-01T00:00:00.123Z"),
    ("x_dt", "2024-01-01T00:00:00+02:00"), ("x_dt", "abc"), ("x_dt", 5), ("x_dt", "2024-01-01T00:00Z"),
    ("x_dt", "2024-02-30T00:00:00Z"), ("x_dt", "2024-01-01t00:00:00z"), ("x_dt", "2024-01-01T00:00:60Z"),
    ("x_s", "a" * 32766), ("x_s", "a" * 32767), ("x_s", "é" * 16383), ("x_s", "é" * 16384), ("x_s", ["a", "b"]),
    ("x_s", 5), ("x_s", True), ("x_ss", ["a" * 32767]), ("x_ss", ["a", "b"]),
    ("url", "https://a.example/" + "a" * 40000), ("url", ["a", "b"]), ("posted_at", "p" * 33000),
    ("x_t", "a" * 40000), ("x_t", ["a", "b"]), ("description", "<p>" + "a" * 40000), ("other", "a" * 100000),
    ("other", ["a", "b"]), ("seen_count", "abc"),
]
# values Solr takes but silently changes: refused on purpose
STRICTER = [("x_i", 2 ** 31, -(2 ** 31)), ("x_i", 2 ** 40, 0), ("x_i", -(2 ** 31) - 1, 2 ** 31 - 1),
            ("seen_count", 2 ** 31, -(2 ** 31))]
# booleans Solr stores by their first character without a word: a crawler's "yes" would be kept as false
STRICTER_BOOL = [("x_b", "yes", False), ("x_b", "abc", False), ("x_b", "", False), ("x_b", " true", False),
                 ("x_b", "tomato", True), ("x_b", 5, False), ("x_b", "1.5", True)]


def schema_of(base: str) -> Schema:
    return Schema.from_api(Solr(f"{base}/postings").schema())


def solr_takes(base: str, doc: dict) -> bool:
    r = requests.post(f"{base}/postings/update", json=[doc], timeout=60)
    assert r.status_code in (200, 400), r.text
    return r.status_code == 200


def test_rules_agree_with_solr(clean_solr: str) -> None:
    schema = schema_of(clean_solr)
    disagree = []
    for field, value in AGREE:
        doc = {"id": "probe", field: value}
        ours = schema.reject_reason(doc) is None
        if ours != solr_takes(clean_solr, doc):
            disagree.append((field, repr(value)[:40], "we accept" if ours else "we reject"))
    assert not disagree
    for field, value, stored in STRICTER + STRICTER_BOOL:
        doc = {"id": "wrap", field: value}
        assert any(w in (schema.reject_reason(doc) or "") for w in ("out of the range", "must be true or false")), value
        assert solr_takes(clean_solr, {**doc, "dup_group": "g"})
        got = requests.get(f"{clean_solr}/postings/get", params={"id": "wrap", "fl": field}, timeout=30).json()
        assert got["doc"][field] == stored  # what Solr would have kept instead


def test_derived_fields_are_dropped_not_sent(clean_solr: str) -> None:
    schema = schema_of(clean_solr)
    assert {"company_exact", "title_en", "description_ja", "mh_bands"} <= schema.derived
    assert not {"company", "title", "url", "id", "salary_i"} & schema.derived


def text(seed: int) -> str:
    rng = random.Random(seed)
    words = ("nurse engineer pilot chef teacher welder baker driver clerk analyst painter plumber berlin "
             "munich hamburg night shift weekend team senior junior python care kitchen").split()
    return " ".join(rng.choice(words) for _ in range(60))


def batch_of_11(poison: dict) -> list[dict]:
    out = [{"id": f"b{k}", "title": f"Job {k}", "company": f"Company {k}", "description": text(k)} for k in range(11)]
    out[5] = {**out[5], **poison}
    return out


POISONS = [{"salary_i": "abc"}, {"url": "https://jobs.example/" + "x" * 40000}, {"tags_s": ["a", "b"]},
           {"start_dt": "next monday"}, {"remote_b": "yes"}]


@pytest.mark.parametrize("poison", POISONS, ids=["salary_i", "url_40kb", "two_values", "date", "boolean"])
def test_poison_posting_is_rejected_and_the_rest_written(clean_solr: str, poison: dict) -> None:
    app = create_app(f"{clean_solr}/postings", commit_within_ms=200)
    res = TestClient(app).post("/v1/postings", json={"postings": batch_of_11(poison)})
    assert res.status_code == 200, res.text
    results = res.json()["results"]
    assert [r["status"] for r in results] == ["new"] * 5 + ["rejected"] + ["new"] * 5
    assert list(poison)[0] in results[5]["reason"]
    solr = Solr(f"{clean_solr}/postings")
    solr.commit()
    assert sorted(d["id"] for d in solr.query({"q": "*:*", "fl": "id", "rows": 50})["response"]["docs"]) == \
        sorted(f"b{k}" for k in range(11) if k != 5)
    ing = app.state.ingestor
    assert sorted(ing.window.recs) == sorted(f"b{k}" for k in range(11) if k != 5)
    assert ing.learned_postings == 10


def test_company_exact_from_a_client_is_ignored(clean_solr: str) -> None:
    ing = Ingestor(Solr(f"{clean_solr}/postings"), commit_within_ms=200)
    results = ing.ingest(batch_of_11({"company_exact": "Forged Inc", "title_en": "forged"}))
    assert [r.status for r in results] == ["new"] * 11
    solr = Solr(f"{clean_solr}/postings")
    solr.commit()
    assert solr.count('company_exact:"Company 5"') == 1 and solr.count('company_exact:"Forged Inc"') == 0
    assert solr.count("title_en:forged") == 0


def test_safety_net_finds_what_the_rules_miss(clean_solr: str) -> None:
    # prepared without the schema rules (as a caller of Ingestor.apply might): Solr itself refuses
    # b3 and b8; every other posting is written once, the window and the model learn exactly those
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=200)
    batch = batch_of_11({})
    batch[3] = {**batch[3], "salary_i": "abc"}
    batch[8] = {**batch[8], "url": "u" * 33000}
    results = ing.apply(prepare_batch(batch))
    assert [r.status for r in results] == ["new"] * 3 + ["rejected"] + ["new"] * 4 + ["rejected"] + ["new"] * 2
    assert "salary_i" in results[3].reason and "immense term" in results[8].reason
    assert ing.stats["write_bisections"] >= 1
    solr.commit()
    written = sorted(f"b{k}" for k in range(11) if k not in (3, 8))
    assert sorted(d["id"] for d in solr.query({"q": "*:*", "fl": "id", "rows": 50})["response"]["docs"]) == written
    assert sorted(ing.window.recs) == written and ing.learned_postings == 9
    # a retry of the refused postings, fixed, is written as new
    fixed = [{**batch[3], "salary_i": "42"}, {**batch[8], "url": "https://ok.example/8"}]
    assert [r.status for r in ing.ingest(fixed)] == ["new", "new"]


def test_same_id_twice_reports_the_refusal_for_both(clean_solr: str) -> None:
    # the last posting of an id wins; when Solr refuses it, the earlier one (not written either) says so too
    ing = Ingestor(Solr(f"{clean_solr}/postings"), commit_within_ms=200)
    batch = batch_of_11({})[:2]
    batch.append({**batch[0], "salary_i": "abc"})
    results = ing.apply(prepare_batch(batch))
    assert [r.status for r in results] == ["rejected", "new", "rejected"]
    assert results[0].reason == results[2].reason and "salary_i" in results[0].reason
