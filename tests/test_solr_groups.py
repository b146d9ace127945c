"""One naming of groups: postings sent straight to Solr (its chain signs them) and postings sent through the
service end in one group when Solr signs them alike, whichever came first, without `recompute`. Real Solr,
standalone and SolrCloud (2 shards routed by dup_group)."""

from __future__ import annotations

import pytest
from cut_proxy import CutProxy
from solr_fixture import clear_core, post_docs
from test_solr_regroup import NURSE, PILOT, eng, groups, nurse, pilot

from service.ingest import Ingestor, prepare_batch
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


def assert_duplicate_of_names_a_member(state: dict[str, tuple[str, str | None]]) -> None:
    """Every `duplicate_of` is a stored posting of the same group (DESIGN.md: the group's canonical posting)."""
    bad = {pid: (g, d) for pid, (g, d) in state.items() if d is not None and state.get(d, ("", None))[0] != g}
    assert not bad, bad


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
    assert_duplicate_of_names_a_member(groups(solr))


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
    assert_duplicate_of_names_a_member(groups(solr))


def test_postings_without_text_are_not_joined(solr: Solr) -> None:
    straight(solr, {"id": "e1", "url": "https://a.example/1"})
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([{"id": "e2", "url": "https://b.example/2", "location": "x"}])
    assert r.dup_group == "e2"
    assert stored(solr) == {"e1": "e1", "e2": "e2"}


def test_postings_without_tokens_are_not_joined(solr: Solr) -> None:
    # punctuation or tokens TextProfileSignature drops (minTokenLen 2) sign like no text: one signature for all of
    # them, the field names', which neither the chain's plugin nor the service takes for a duplicate
    straight(solr, {"id": "t1", "title": "-", "description": "!!"}, {"id": "t2", "title": "C", "description": "*"})
    assert stored(solr) == {"t1": "t1", "t2": "t2"}
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([{"id": "t3", "title": "QA", "description": "...",
                                                          "company": "Firm"}])
    assert r.dup_group == "t3"
    assert stored(solr) == {"t1": "t1", "t2": "t2", "t3": "t3"}
    assert len({d["signature"] for d in solr.get(["t1", "t2", "t3"], fl="signature")}) == 1  # Solr's, unchanged
    assert len(rows(solr)) == 3


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


def test_straight_copy_follows_its_group_when_the_head_leaves(solr: Solr) -> None:
    # c1, sent straight to Solr, joined s1's group by its signature; another process re-sends s1 as a pilot job:
    # the postings left in s1's group are decided again, and c1 (which the engine cannot judge: no sketch)
    # follows s2, the service's posting it shares its signature with, instead of keeping the pilot's name
    Ingestor(solr, commit_within_ms=200).ingest([nurse("s1", 1), {**nurse("s2", 2), "description": NURSE.upper()}])
    solr.commit()
    straight(solr, {**nurse("c1", 3), "title": "registered nurse"})
    assert stored(solr)["c1"] == "s1"
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([pilot("s1", 1)])
    assert (r.dup_group, r.duplicate_of) == ("s1", None)
    assert groups(solr) == {"s1": ("s1", None), "s2": ("s2", None), "c1": ("s2", "s2")}
    c1 = solr.get(["c1"], fl="dup_why_ss,dup_match_s")[0]
    assert (c1.get("dup_why_ss"), c1.get("dup_match_s")) == (["solr_signature"], "s2")
    assert_duplicate_of_names_a_member(groups(solr))


def test_straight_copy_left_alone_takes_the_chains_group_when_the_head_leaves(solr: Solr) -> None:
    # nothing left in s1's group shares c1's signature: c1 is named as the chain names a posting sent alone (its
    # signature), not by the id of the job s1 now is; a later straight copy of it still joins it
    Ingestor(solr, commit_within_ms=200).ingest([nurse("s1", 1)])
    solr.commit()
    straight(solr, {**nurse("c1", 3), "description": NURSE.upper()})
    assert stored(solr)["c1"] == "s1"
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([pilot("s1", 1)])
    assert r.dup_group == "s1"
    sig = solr.get(["c1"], fl="signature")[0]["signature"]
    assert groups(solr) == {"s1": ("s1", None), "c1": (sig, None)}
    straight(solr, {**nurse("c2", 4), "title": "registered nurse"})
    assert stored(solr) == {"s1": "s1", "c1": sig, "c2": sig}
    assert_duplicate_of_names_a_member(groups(solr))


def test_a_merge_moves_the_straight_postings_of_the_group_it_empties(solr: Solr) -> None:
    # s2's group, which holds c2 sent straight to Solr, is merged into s1's (Ingestor._merge, as a new posting
    # duplicating both would): c2 moves with s2 (standalone, the atomic write skipped a posting without a sketch)
    ing = Ingestor(solr, commit_within_ms=200)
    ing.ingest([nurse("s1", 1), pilot("s2", 2)])
    solr.commit()
    straight(solr, {**pilot("c2", 3), "description": PILOT.upper()})
    assert stored(solr)["c2"] == "s2"
    ing._merge({"s2": "s1"}, {"s2": "s2"})
    assert groups(solr) == {"s1": ("s1", None), "s2": ("s1", "s1"), "c2": ("s1", "s1")}
    assert_duplicate_of_names_a_member(groups(solr))


def test_a_copy_of_a_straight_posting_that_just_followed_joins_its_new_group(solr: Solr) -> None:
    # c1 (straight) followed its signature when s1, its group's head, came back as a pilot job; Solr's search still
    # shows c1 under s1 until its next soft commit: a service copy of c1 sent meanwhile joins c1's group as it is
    # now (real-time), not the pilot's
    Ingestor(solr, commit_within_ms=200).ingest([nurse("s1", 1)])
    solr.commit()
    straight(solr, {**nurse("c1", 3), "description": NURSE.upper()})
    assert stored(solr)["c1"] == "s1"
    ing = Ingestor(solr, commit_within_ms=600_000)  # nothing it writes becomes searchable by itself
    ing.ingest([pilot("s1", 1)])
    sig = solr.get(["c1"], fl="signature")[0]["signature"]
    assert solr.get(["c1"], fl="dup_group")[0]["dup_group"] == sig
    (r,) = ing.ingest([nurse("n1", 4)])
    assert (r.dup_group, r.matched) == (sig, "c1")
    assert groups(solr) == {"s1": ("s1", None), "c1": (sig, None), "n1": (sig, "c1")}
    assert_duplicate_of_names_a_member(groups(solr))


@pytest.mark.parametrize("sketch", ["junk", ""])
def test_a_member_with_an_unreadable_sketch_follows_and_merges(solr: Solr, sketch: str) -> None:
    # c1, written straight into Solr by another client, carries an mh_sketch the service cannot decode (junk, an
    # empty string; or another version's): it has no band keys, it does not fail the group's regroup or merge
    # (a ValueError: every re-send of the batch failed again)
    Ingestor(solr, commit_within_ms=200).ingest([nurse("s1", 1), eng("s2", 2)])
    solr.commit()
    straight(solr, {**nurse("c1", 3), "description": NURSE.upper(), "mh_sketch": sketch})
    assert stored(solr)["c1"] == "s1"
    ing = Ingestor(solr, commit_within_ms=200)
    (r,) = ing.ingest([pilot("s1", 1)])  # s1's group decided again without its head: c1 follows its signature
    sig = solr.get(["c1"], fl="signature")[0]["signature"]
    assert (r.dup_group, groups(solr)["c1"]) == ("s1", (sig, None))
    ing._merge({sig: "s2"}, {sig: "s2"})  # and a merge moves it
    assert groups(solr)["c1"] == ("s2", "s2")
    assert_duplicate_of_names_a_member(groups(solr))


def test_duplicate_of_names_a_posting_in_a_group_named_by_a_signature(solr: Solr) -> None:
    # x1, indexed straight into Solr, heads no group the service chose: its group is named by its signature.
    # Service postings that join that group -- through a copy Solr signs alike, through the stored members, or
    # by a merge into it -- point at a posting of the group (x1), never at the signature, which is no posting
    straight(solr, nurse("x1", 1))
    sig = stored(solr)["x1"]
    ing = Ingestor(solr, commit_within_ms=200)
    copy = {"description": "Apply now! " + NURSE, "url": "https://jobs.example/nurse?utm_source=board"}
    got = ing.ingest([{**nurse("y1", 2), "description": NURSE.upper()}, {**nurse("y2", 3), **copy}])
    assert [(r.dup_group, r.duplicate_of) for r in got] == [(sig, "x1"), (sig, "x1")]
    solr.commit()
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([{**nurse("y3", 4), **copy}])  # joins the stored group
    assert (r.dup_group, r.duplicate_of) == (sig, "x1")
    Ingestor(solr, commit_within_ms=200).ingest([pilot("p1", 5), {**pilot("p2", 6), "description": PILOT.upper()}])
    solr.commit()
    Ingestor(solr, commit_within_ms=200)._merge({"p1": sig}, {"p1": "p1"})
    state = groups(solr)
    assert {pid: state[pid] for pid in ("p1", "p2", "y3")} == dict.fromkeys(("p1", "p2", "y3"), (sig, "x1"))
    assert_duplicate_of_names_a_member(state)


def test_a_straight_canonical_re_sent_as_another_job_leaves_its_group_a_head(solr: Solr) -> None:
    # x1, indexed straight into Solr, is the canonical posting of its group (named by its signature): y1, a service
    # copy, points at it. x1 re-sent through the service as a pilot job leaves the group: the postings left in it
    # are decided again (as when a head the service chose leaves), so none points at a posting of another group
    straight(solr, nurse("x1", 1))
    sig = stored(solr)["x1"]
    ing = Ingestor(solr, commit_within_ms=200)
    (r,) = ing.ingest([{**nurse("y1", 2), "description": NURSE.upper()}])
    assert (r.dup_group, r.duplicate_of) == (sig, "x1")
    (r,) = ing.ingest([pilot("x1", 1)])
    assert (r.dup_group, r.duplicate_of) == ("x1", None)
    assert groups(solr) == {"x1": ("x1", None), "y1": ("y1", None)}
    # re-sent with its text unchanged it keeps its group: nothing is decided again
    straight(solr, nurse("x2", 3))
    sig2 = stored(solr)["x2"]
    (r,) = ing.ingest([nurse("x2", 3)])
    assert r.dup_group == sig2 and ing.stats["regrouped"] == 1
    assert_duplicate_of_names_a_member(groups(solr))


def test_a_copy_decided_while_the_straight_canonical_leaves_in_flight_points_inside_its_group(solr_url: str) -> None:
    # x1 and x2, indexed straight into Solr, share a group named by their signature, x1 its canonical. Batch 1 re-sends
    # x1 as a pilot job; batch 2, a straight copy's twin n1, is decided while Solr still writes batch 1 (a slow write):
    # it must not take x1's stored version (still straight, still in the group) for the group's canonical posting
    clear_core(solr_url)
    solr = Solr(f"{solr_url}/postings")
    straight(solr, nurse("x1", 1), {**nurse("x2", 2), "description": NURSE.upper()})
    sig = stored(solr)["x1"]
    assert stored(solr)["x2"] == sig
    with CutProxy(solr_url) as proxy:
        proxy.update_delay = 1.0
        ing = Ingestor(Solr(proxy.url("/postings")), commit_within_ms=200)
        first = ing.submit(prepare_batch([pilot("x1", 1)]))
        second = ing.submit(prepare_batch([{**nurse("n1", 3), "title": "registered nurse"}]))
        assert first is not None and second is not None
        (x1,), (n1,) = first.result(), second.result()
    assert ing.stats["writes_overlapped"] == 1
    assert (x1.dup_group, n1.dup_group, n1.duplicate_of) == ("x1", sig, "x2")
    assert_duplicate_of_names_a_member(groups(solr))


@pytest.mark.parametrize("straight_day", [1, 9])
def test_a_group_named_by_a_signature_wins_a_merge_when_its_canonical_came_first(solr: Solr, straight_day: int) -> None:
    # x1, indexed straight into Solr, is the canonical posting of its group (named by its signature; y1, a service
    # copy, joined it); s1, another service process's copy signed otherwise, opened a group of its own meanwhile. b1,
    # a copy of both, merges them (a group holding a straight posting is not decided again) into the group whose
    # canonical posting came first -- by x1's first_seen, not losing for having no head the service chose -- and the
    # loser's canonical posting becomes a duplicate with why `group_merged`
    straight(solr, eng("x1", straight_day))
    sig = stored(solr)["x1"]
    (y1,) = Ingestor(solr, commit_within_ms=60_000).ingest([eng("y1", 2, 1)])
    assert (y1.dup_group, y1.duplicate_of) == (sig, "x1")
    (s1,) = Ingestor(solr, commit_within_ms=60_000).ingest([{**eng("s1", 5), "description": "Apply now! Apply now! "
                                                             + eng("s1", 5)["description"]}])
    assert s1.dup_group == "s1"  # it never saw y1 (not searchable yet), and Solr signs it otherwise than x1
    solr.commit()
    (b1,) = Ingestor(solr, commit_within_ms=200).ingest([eng("b1", 7, 2)])
    state = groups(solr)
    if straight_day < 5:
        assert (b1.dup_group, b1.duplicate_of) == (sig, "x1")
        assert state == {"x1": (sig, None), "y1": (sig, "x1"), "s1": (sig, "x1"), "b1": (sig, "x1")}
        loser, head = "s1", "x1"
    else:
        assert (b1.dup_group, b1.duplicate_of) == ("s1", "s1")
        assert state == {"x1": ("s1", "s1"), "y1": ("s1", "s1"), "s1": ("s1", None), "b1": ("s1", "s1")}
        loser, head = "x1", "s1"
    why = solr.get([loser], fl="dup_why_ss,dup_match_s")[0]
    assert (why.get("dup_why_ss"), why.get("dup_match_s")) == (["group_merged"], "b1"), head
    assert_duplicate_of_names_a_member(state)


def test_a_straight_copy_left_alone_joins_the_group_the_chain_gives_its_signature(solr: Solr) -> None:
    # 0-a1 and 0-b1, the same text at two employers, are two service groups that Solr signs alike; c1, a copy sent
    # straight to Solr, joined the smaller, 0-a1. 0-a1 re-sent as a pilot job leaves c1 alone in its group: c1 takes
    # the group the chain gives a copy sent alone -- 0-b1's, the smallest group of the postings Solr signs alike --
    # not a group named by its signature that the next straight copy (c2) would not join
    Ingestor(solr, commit_within_ms=200).ingest([nurse("0-a1", 1)])
    solr.commit()
    (b,) = Ingestor(solr, commit_within_ms=200).ingest([{**nurse("0-b1", 2), "company": "Northern Air",
                                                          "location": "Munich"}])
    assert b.dup_group == "0-b1"
    solr.commit()
    straight(solr, {**nurse("c1", 3), "title": "registered nurse"})
    assert stored(solr)["c1"] == "0-a1"
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([pilot("0-a1", 1)])
    assert r.dup_group == "0-a1"
    assert groups(solr) == {"0-a1": ("0-a1", None), "0-b1": ("0-b1", None), "c1": ("0-b1", "0-b1")}
    c1 = solr.get(["c1"], fl="dup_why_ss,dup_match_s")[0]
    assert (c1.get("dup_why_ss"), c1.get("dup_match_s")) == (["solr_signature"], "0-b1")
    straight(solr, {**nurse("c2", 4), "title": "registered nurse"})
    assert stored(solr)["c2"] == "0-b1"
    assert_duplicate_of_names_a_member(groups(solr))


class CountingSolr(Solr):
    """A real Solr client that counts the ids its real-time gets ask for."""

    asked = 0

    def get(self, ids: list[str], fl: str = "*", fresh: bool = True) -> list[dict]:
        self.asked += len(ids)
        return super().get(ids, fl, fresh)


def test_the_canonical_posting_of_a_big_straight_group_is_read_without_its_members(solr_url: str) -> None:
    # 300 copies sent straight to Solr share one group named by their signature; a service copy joining it through a
    # member names the group's earliest straight posting as duplicate_of (undated copies count last), found without
    # a real-time read of every member
    clear_core(solr_url)
    copies = [{**nurse(f"c{i:03d}", 2 + i % 20), "title": "registered nurse"} for i in range(300)]
    copies[7] = {k: v for k, v in copies[7].items() if k != "first_seen"}
    copies[150]["first_seen"] = "2026-01-01"  # c150, not the smallest id, is the earliest
    post_docs(solr_url, copies)
    solr = CountingSolr(f"{solr_url}/postings")
    sig = stored(solr)["c000"]
    ing = Ingestor(solr, commit_within_ms=200)
    assert ing._canonical({sig}, [], True) == {sig: "c150"}
    assert solr.asked <= 40, solr.asked
    solr.asked = 0
    (y1,) = ing.ingest([{**nurse("y1", 5), "description": NURSE.upper()}])
    assert (y1.dup_group, y1.duplicate_of, y1.why) == (sig, "c000", ["solr_signature"])  # the copy it matched
    assert solr.asked <= 40, solr.asked  # the straight copy it joins: one per signature read, not all 300
    (y2,) = ing.ingest([{**nurse("y2", 6), "description": "Apply now! Apply now! " + NURSE}])  # signed otherwise
    assert (y2.dup_group, y2.duplicate_of, y2.matched) == (sig, "c150", "y1")
