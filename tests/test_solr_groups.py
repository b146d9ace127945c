"""One naming of groups: postings sent straight to Solr (its chain signs them) and postings sent through the
service end in one group when Solr signs them alike, whichever came first, without `recompute`. Real Solr,
standalone and SolrCloud (2 shards routed by dup_group)."""

from __future__ import annotations

import pytest
from solr_fixture import clear_core, post_docs
from test_solr_regroup import NURSE, nurse, pilot

from service.ingest import Ingestor
from service.solr import Solr

pytestmark = pytest.mark.solr


@pytest.fixture(params=["standalone", "cloud"])
def solr(request: pytest.FixtureRequest) -> Solr:
    base = request.getfixturevalue("solr_url" if request.param == "standalone" else "solr_cloud_url")
    clear_core(base)
    return Solr(f"{base}/postings")


def stored(solr: Solr) -> dict[str, str]:
    """id -> dup_group of every searchable posting (each stored once: no copy left on another shard)."""
    solr.commit()
    docs = solr.query({"q": "*:*", "fl": "id,dup_group", "rows": 1000})["response"]["docs"]
    state = {d["id"]: d["dup_group"] for d in docs}
    assert len(state) == len(docs), "a posting is stored twice"
    return state


def rows(solr: Solr) -> list[str]:
    """What a search client sees: one row per group (collapse; in SolrCloud only if a group shares a shard)."""
    res = solr.query({"q": "*:*", "fq": "{!collapse field=dup_group}", "fl": "id", "rows": 1000})
    return [d["id"] for d in res["response"]["docs"]]


def straight(solr: Solr, *postings: dict) -> None:
    """Index postings straight into Solr (no service): the configset's chain signs and groups them. In SolrCloud
    through another node than the service's, so the chain's core never saw the service's postings and must find
    their group by a distributed search."""
    base = solr.base
    if solr.is_cloud():
        live = solr._json(solr._node, "get", "admin/collections", {"action": "CLUSTERSTATUS"})["cluster"]["live_nodes"]
        others = [n for n in live if f"//{n.split('_')[0]}/" not in base + "/"]
        assert others, live
        base = "http://" + others[0].replace("_solr", "/solr")
    post_docs(base, list(postings))


def test_service_first_then_straight_copy(solr: Solr) -> None:
    ing = Ingestor(solr, commit_within_ms=200)
    assert [r.dup_group for r in ing.ingest([nurse("s1", 1), pilot("s2", 1)])] == ["s1", "s2"]
    if solr.is_cloud():  # SolrCloud: the chain finds a group across shards once it is searchable
        solr.commit()
    # a copy of the nurse job sent straight to Solr (standalone: possibly before the service's commit)
    straight(solr, {**nurse("c1", 2), "description": NURSE.upper()}, {**pilot("c2", 3), "title": "first officer"})
    assert stored(solr) == {"s1": "s1", "s2": "s2", "c1": "s1", "c2": "s2"}
    assert len(rows(solr)) == 2
    # later service copies agree with the chain too
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([{**nurse("s3", 4), "description": "Apply now! " + NURSE}])
    assert r.dup_group == "s1" and r.status == "duplicate"


def test_straight_first_then_service_copy(solr: Solr) -> None:
    straight(solr, nurse("x1", 1), pilot("x2", 1))
    first = stored(solr)
    group = first["x1"]
    assert group == solr.get(["x1"], fl="signature")[0]["signature"]  # a straight posting's group: its signature
    ing = Ingestor(solr, commit_within_ms=200)
    (r,) = ing.ingest([{**nurse("y1", 2), "description": NURSE.upper()}])
    assert (r.status, r.dup_group, r.duplicate_of, r.matched, r.why) == \
        ("duplicate", group, "x1", "x1", ["solr_signature"])
    # a copy of the service's copy, before Solr makes it searchable: found in the service's window
    (r2,) = ing.ingest([{**nurse("y2", 3), "description": "Apply now! " + NURSE,
                         "url": "https://jobs.example/nurse?utm_source=board"}])
    assert r2.dup_group == group
    # another straight copy: the chain finds the group (now holding service postings too)
    straight(solr, {**nurse("x3", 4), "title": "registered nurse"})
    state = stored(solr)
    assert {pid: state[pid] for pid in ("x1", "y1", "y2", "x3")} == dict.fromkeys(("x1", "y1", "y2", "x3"), group)
    assert state["x2"] == first["x2"] != group
    assert len(rows(solr)) == 2
    # a re-send of the straight posting itself through the service keeps its group
    (r3,) = Ingestor(solr, commit_within_ms=200).ingest([nurse("x1", 1)])
    assert r3.dup_group == group


def test_postings_without_text_are_not_joined(solr: Solr) -> None:
    straight(solr, {"id": "e1", "url": "https://a.example/1"})
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([{"id": "e2", "url": "https://b.example/2", "location": "x"}])
    assert r.dup_group == "e2"
    assert stored(solr) == {"e1": "e1", "e2": "e2"}


def test_a_group_holding_straight_postings_is_not_decided_again(solr: Solr) -> None:
    # the engine cannot judge a posting indexed straight into Solr (no sketch, no sig_version): a contested
    # component's re-decision (Ingestor._redecide) would read the group without it and move the service's
    # postings out of the group they share with it; such a component keeps the arrival-order decision
    straight(solr, nurse("x1", 1))
    group = stored(solr)["x1"]
    ing = Ingestor(solr, commit_within_ms=200)
    (r,) = ing.ingest([{**nurse("y1", 2), "description": NURSE.upper()}])
    assert r.dup_group == group
    state = stored(solr)
    assert ing._redecide({group}, [], set(), frozenset()) is None
    assert ing.stats["redecide_skipped"] == 1
    assert stored(solr) == state == {"x1": group, "y1": group}
