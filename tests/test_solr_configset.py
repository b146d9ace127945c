"""The postings configset on a real standalone Solr (local-solr, the pinned release): schema, the
default update chain and its traps, multilingual search, collapse/expand."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
import requests
from solr_fixture import generate_postings, post_docs, select

pytestmark = [pytest.mark.solr, pytest.mark.java]


def _docs(url: str, q: str = "*:*", **params: str) -> dict[str, dict]:
    res = select(url, q=q, rows=10000, fl=params.pop("fl", "*"), **params)
    return {d["id"]: d for d in res["response"]["docs"]}


def test_schema_has_the_design_fields(solr_url: str) -> None:
    r = requests.get(f"{solr_url}/postings/schema/fields", params={"showDefaults": "true"}, timeout=30)
    r.raise_for_status()
    fields = {f["name"]: f for f in r.json()["fields"]}
    single_dv = ["signature", "profile_sig", "dup_group", "duplicate_of", "dup_score", "sig_version",
                 "first_seen", "last_seen", "seen_count"]
    for name in single_dv:
        assert not fields[name].get("multiValued", False), name
        assert fields[name]["docValues"] is True, name
        assert fields[name]["stored"] is True, name
    assert fields["mh_bands"]["multiValued"] is True
    assert fields["mh_bands"]["indexed"] is True and fields["mh_bands"]["stored"] is False
    assert fields["mh_sketch"]["stored"] is True and fields["mh_sketch"]["indexed"] is False
    for name in ["id", "title", "company", "location", "description", "url", "posted_at", "lang", "source"]:
        assert fields[name]["stored"] is True, name
    assert fields["dup_group"]["type"] == "string"  # collapse needs a single-valued string with docValues


def test_chain_signs_and_defaults_group(clean_solr: str) -> None:
    post_docs(clean_solr, [
        {"id": "a", "title": "Senior Python Engineer", "company": "Acme", "description": "Pipelines in Python."},
        {"id": "b", "title": "SENIOR PYTHON ENGINEER!", "company": "acme", "description": "pipelines in python"},
        {"id": "c", "title": "Chef", "company": "Bistro", "description": "Cook food"},
    ])
    docs = _docs(clean_solr)
    assert len(docs["a"]["signature"]) == 32 and isinstance(docs["a"]["signature"], str)
    assert docs["a"]["signature"] == docs["b"]["signature"] != docs["c"]["signature"]
    for d in docs.values():
        assert d["dup_group"] == d["signature"]


def test_supplied_group_and_profile_sig_win_signature_stays_single(clean_solr: str) -> None:
    text = {"title": "Data Engineer", "company": "Initech", "description": "Spark and Kafka"}
    post_docs(clean_solr, [
        {"id": "a", **text},
        {"id": "b", **text, "dup_group": "svc-group-1", "profile_sig": "abc123", "signature": "stale-value"},
        {"id": "c", **text, "dup_group": ""},  # blank means "not decided": Solr's default applies
    ])
    docs = _docs(clean_solr)
    assert docs["b"]["signature"] == docs["a"]["signature"]  # one value, Solr's own
    assert docs["b"]["dup_group"] == "svc-group-1"
    assert docs["b"]["profile_sig"] == "abc123"
    assert docs["c"]["dup_group"] == docs["a"]["signature"]
    # re-indexing a posting exported with all its stored fields (signature included) works and is stable
    exported = {k: v for k, v in docs["b"].items() if k not in ("_version_", "company_exact")}
    post_docs(clean_solr, [exported])
    again = _docs(clean_solr, q="id:b")["b"]
    assert again["signature"] == docs["b"]["signature"] and again["dup_group"] == "svc-group-1"


def test_atomic_update_never_changes_signature_or_group(clean_solr: str) -> None:
    post_docs(clean_solr, [
        {"id": "a", "title": "Backend Developer", "company": "Hooli", "description": "Go, Postgres",
         "seen_count": 1, "first_seen": "2024-01-02", "last_seen": "2024-01-02T00:00:00Z",
         "mh_bands": ["b0-aa11", "b1-bb22"], "mh_sketch": "c2tldGNo", "profile_sig": "p-a"},
        {"id": "b", "title": "Backend Developer", "company": "Hooli", "description": "Go, Postgres",
         "dup_group": "g-b", "seen_count": 1},
    ])
    before = _docs(clean_solr)
    bumps = [{"id": i, "last_seen": {"set": "2024-06-01T12:00:00Z"}, "seen_count": {"inc": 1}} for i in "ab"]
    post_docs(clean_solr, bumps)
    post_docs(clean_solr, bumps)
    after = _docs(clean_solr)
    for i in "ab":
        assert after[i]["signature"] == before[i]["signature"]
        assert after[i]["dup_group"] == before[i]["dup_group"]
        assert after[i]["seen_count"] == 3
        assert after[i]["last_seen"] == "2024-06-01T12:00:00Z"
        assert after[i]["title"] == "Backend Developer"  # the rest of the posting survives
    assert after["a"]["first_seen"] == "2024-01-02T00:00:00Z"
    assert after["b"]["dup_group"] == "g-b"
    # the service's fields survive too: stored ones, and the unstored band keys (docValues)
    assert after["a"]["profile_sig"] == "p-a" and after["a"]["mh_sketch"] == "c2tldGNo"
    assert sorted(after["a"]["mh_bands"]) == ["b0-aa11", "b1-bb22"]
    assert select(clean_solr, q="mh_bands:b1-bb22", fl="id")["response"]["docs"] == [{"id": "a"}]


def test_unknown_fields_are_kept_never_an_error(clean_solr: str) -> None:
    post_docs(clean_solr, [{
        "id": "u1", "title": "Nurse", "salary_text": "40k–50k €", "tags": ["a", "b"], "remote": True,
        "score_hint": 3.5, "headcount": 2, "x-crawler.meta": "v", "很长的字段": "值",
        "big_blob": "z" * 40000,  # longer than Lucene's 32766-byte term limit: stored only, so fine
    }])
    d = _docs(clean_solr)["u1"]
    assert d["salary_text"] == ["40k–50k €"]
    assert d["tags"] == ["a", "b"] and d["remote"] == ["true"] and d["headcount"] == ["2"]
    assert d["x-crawler.meta"] == ["v"] and d["很长的字段"] == ["值"]
    assert len(d["big_blob"][0]) == 40000


def test_nested_object_is_a_clear_400_not_a_silent_child_document(clean_solr: str) -> None:
    # postings must be flat: without nested-document support a JSON object is an atomic operation
    r = requests.post(f"{clean_solr}/postings/update", json=[{"id": "n", "meta": {"a": 1}}],
                      params={"commit": "true"}, timeout=60)
    assert r.status_code == 400 and "Unknown operation" in r.text
    assert select(clean_solr, q="*:*")["response"]["numFound"] == 0


def test_posting_without_text_is_its_own_group(clean_solr: str) -> None:
    post_docs(clean_solr, [{"id": "e1", "url": "https://x/1"}, {"id": "e2", "url": "https://x/2", "title": " "}])
    docs = _docs(clean_solr)
    assert docs["e1"]["dup_group"] == "e1" and docs["e2"]["dup_group"] == "e2"


@pytest.mark.parametrize(
    ("query", "field", "text"),
    [
        ("engineers", "title", "Software Engineer"),  # English stemming (title_en)
        ("ENGİNEER", "title", "software engineer"),  # ICU folding
        ("工程师", "title", "高级软件工程师招聘"),  # Chinese words inside an unspaced clause
        ("软件", "description", "我们正在寻找软件工程师，负责后端开发。"),
        ("エンジニア", "title", "東京都のソフトウェアエンジニア募集"),  # Japanese (Kuromoji, ICU)
        ("東京", "description", "勤務地は東京都渋谷区です。"),
        ("ｐｙｔｈｏｎ", "description", "Python developer"),  # full-width query
    ],
)
def test_multilingual_search(clean_solr: str, query: str, field: str, text: str) -> None:
    post_docs(clean_solr, [{"id": "hit", field: text}, {"id": "miss", field: "Gärtner im Stadtpark"}])
    res = select(clean_solr, q=query, fl="id")
    assert [d["id"] for d in res["response"]["docs"]] == ["hit"]


def test_collapse_one_per_group_and_expand_lists_the_rest(clean_solr: str) -> None:
    postings = generate_postings(600, seed=11)
    for p in postings[::5]:  # the service decided these: its dup_group wins over the signature
        p["dup_group"] = "svc-" + p["_truth"]
    post_docs(clean_solr, postings)
    stored = _docs(clean_solr, fl="id,dup_group")
    assert len(stored) == len(postings)
    members: dict[str, set[str]] = defaultdict(set)
    for d in stored.values():
        members[d["dup_group"]].add(d["id"])
    assert max(len(m) for m in members.values()) > 1  # the test data really has groups

    res = select(clean_solr, q="*:*", fq="{!collapse field=dup_group}", expand="true",
                 **{"expand.rows": "100"}, rows=10000, fl="id,dup_group")
    heads = res["response"]["docs"]
    assert res["response"]["numFound"] == len(members) == len(heads)
    assert Counter(h["dup_group"] for h in heads).most_common(1)[0][1] == 1
    expanded = res["expanded"]
    for h in heads:
        rest = {d["id"] for d in expanded.get(h["dup_group"], {"docs": []})["docs"]}
        assert rest | {h["id"]} == members[h["dup_group"]] and h["id"] not in rest
