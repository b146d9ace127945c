"""The README's search recipes, run on the real Solr with the postings configset: the original posting heads
its collapsed group with sort='first_seen asc', expand.rows bounds the other copies, pysolr reads them from
raw_response['expanded'], and id wildcards need the lucene parser (edismax's mm makes every clause required)."""

from __future__ import annotations

import pysolr
import pytest
from solr_fixture import post_docs

pytestmark = pytest.mark.solr

TEXT = "Build payment systems in Go and Postgres for our Berlin team; on-call one week in six."
DOCS = [  # one job seen three times (same text: one dup_group from Solr's signature), one other job
    {"id": "acme-1", "title": "Backend Engineer", "company": "Acme", "description": TEXT, "first_seen": "2026-01-01"},
    {"id": "acme-2", "title": "Backend Engineer", "company": "Acme", "description": TEXT, "first_seen": "2026-01-05"},
    {"id": "zeta-1", "title": "Backend Engineer", "company": "Acme", "description": TEXT, "first_seen": "2025-12-20"},
    {"id": "acme-3", "title": "Night Nurse", "company": "Acme Clinic", "description": "Night shifts on the ward.",
     "first_seen": "2026-01-02"},
]


@pytest.fixture
def solr(clean_solr: str) -> pysolr.Solr:
    post_docs(clean_solr, DOCS)
    return pysolr.Solr(f"{clean_solr}/postings", timeout=30)


def test_first_seen_heads_the_group_and_pysolr_reads_expanded(solr: pysolr.Solr) -> None:
    res = solr.search("backend engineer", fq="{!collapse field=dup_group sort='first_seen asc'}", fl="id,dup_group",
                      expand="true", **{"expand.rows": 10, "expand.sort": "first_seen asc"})
    assert [d["id"] for d in res] == ["zeta-1"]  # the earliest sighting, not the best-scoring copy
    assert not hasattr(res, "expanded")  # pysolr has no attribute for it ...
    others = res.raw_response["expanded"][res.docs[0]["dup_group"]]["docs"]  # ... the raw response has it
    assert [d["id"] for d in others] == ["acme-1", "acme-2"]
    res = solr.search("backend engineer", fq="{!collapse field=dup_group}", expand="true", **{"expand.rows": 1})
    assert len(res.docs) == 1 and len(res.raw_response["expanded"][res.docs[0]["dup_group"]]["docs"]) == 1
    solr.add([{**DOCS[0], "id": "undated", "first_seen": None}], commit=True)  # no first_seen: counts as earliest
    res = solr.search("backend engineer", fq="{!collapse field=dup_group sort='first_seen asc'}", fl="id")
    assert [d["id"] for d in res] == ["undated"]


def test_id_wildcards_need_the_lucene_parser(solr: pysolr.Solr) -> None:
    both = "id:acme* id:zeta*"
    assert [d["id"] for d in solr.search(both, fl="id")] == []  # edismax + mm=2<-25%: both clauses required
    assert {d["id"] for d in solr.search(both, defType="lucene", fl="id")} == {"acme-1", "acme-2", "acme-3", "zeta-1"}
    # a filter query is parsed by the lucene parser whatever the handler's defType
    assert {d["id"] for d in solr.search("backend", fq=both, fl="id")} == {"acme-1", "acme-2", "zeta-1"}
