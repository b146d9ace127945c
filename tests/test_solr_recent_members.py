"""A group's members as the ingest reads them (`Ingestor._group_members` for the chain pairs, `Ingestor._members`
for a re-decision or a regroup) include what this process wrote or moved in the last seconds, which Solr's search
view shows only after the soft-commit delay: the recent window stands in for them, so the groups do not depend
on when Solr commits. Real Solr, standalone and SolrCloud."""

from __future__ import annotations

from collections import Counter

import pytest
from test_solr_regroup import assert_every_group_has_its_head, groups, solr  # noqa: F401  (fixture)

import service.ingest
from service.engine import CHAIN_NODES
from service.ingest import MAX_REDECIDE, Ingestor, Result
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

LATE = 600_000  # a commitWithin no test waits for: only the test's own commits make postings searchable


def postings(n: int = 120) -> list[dict]:
    """Generated Chinese postings with agency copies, each id once."""
    seen: set[str] = set()
    return [p for p in generate(n, lang="zh", seed=4, agency_rate=0.5, resight_rate=0.0)
            if not (p["id"] in seen or seen.add(p["id"]))]


def by_group(results: list[Result]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in results:
        out.setdefault(r.dup_group, set()).add(r.id)
    return out


def test_chain_members_of_a_group_solr_does_not_show_yet(solr: Solr,  # noqa: F811
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # the group was written by this process, not committed: Solr's search does not see it, the window does
    ing = Ingestor(solr, commit_within_ms=LATE)
    members = by_group(ing.ingest(postings()))
    g = next(g for g, ids in sorted(members.items(), key=lambda x: -len(x[1])) if 3 <= len(ids) <= CHAIN_NODES)
    one = ing.window.recs[g]
    assert solr.is_cloud() or solr.count(f"dup_group:{g}") == 0  # (SolrCloud's moves commit: drop_old_copies)
    got = {r.id for r in ing._group_members({g: one}, set())}
    assert got == members[g] - {g}
    # a group over engine.CHAIN_NODES is not fetched, counting the window's members too
    monkeypatch.setattr(service.ingest, "CHAIN_NODES", len(members[g]) - 1)
    assert ing._group_members({g: one}, set()) == []
    monkeypatch.undo()
    solr.commit()
    assert {r.id for r in ing._group_members({g: one}, set())} == members[g] - {g}


def test_members_right_after_a_merge(solr: Solr) -> None:  # noqa: F811
    # two stored, searchable groups; another process merges one into the other: its reads of the merged
    # group see all of it at once, before Solr's search does
    res = Ingestor(solr, commit_within_ms=300).ingest(postings())
    solr.commit()
    members = by_group(res)
    (ga, na), (gb, nb) = Counter({g: len(ids) for g, ids in members.items()}).most_common(2)
    assert nb >= 2
    both = members[ga] | members[gb]
    ing = Ingestor(solr, commit_within_ms=LATE)
    ing._merge({gb: ga}, {gb: gb})
    assert solr.is_cloud() or solr.count(f"dup_group:{ga}") == na  # Solr's search still shows them apart
    got = ing._members({ga}, MAX_REDECIDE)
    assert got is not None and set(got) == both
    assert all(r.dup_group == ga for r in got.values())
    assert ing._members({gb}, MAX_REDECIDE) == {}
    # the cap counts both: the group is over a cap of one less than its size, and under its size
    assert ing._members({ga}, na + nb - 1) is None
    assert set(ing._members({ga}, na + nb) or {}) == both
    assert set(ing._members({ga}) or {}) == both
    # ... and so do the chain pairs' members
    one = got[ga]
    assert {r.id for r in ing._group_members({ga: one}, set())} == both - {ga}
    solr.commit()
    assert set(ing._members({ga}, MAX_REDECIDE) or {}) == both
    assert_every_group_has_its_head(groups(solr))



def test_chain_members_of_a_group_solr_shows_over_the_cap(solr: Solr,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # Solr's view holds the whole group, the window only its last members (the older ones left it, FIFO):
    # a group over engine.CHAIN_NODES in Solr's view is too big, whatever few members the window holds
    ing = Ingestor(solr, commit_within_ms=LATE)
    members = by_group(ing.ingest(postings()))
    solr.commit()
    g = next(g for g, ids in sorted(members.items(), key=lambda x: -len(x[1])) if len(ids) >= 4)
    one = ing.window.recs[g]
    ing.window.remove(sorted(members[g] - {g})[0])  # the window holds all but one of them
    monkeypatch.setattr(service.ingest, "CHAIN_NODES", len(members[g]) - 1)
    assert ing._group_members({g: one}, set()) == []
    monkeypatch.setattr(service.ingest, "CHAIN_NODES", len(members[g]))  # at the cap: all of them
    assert {r.id for r in ing._group_members({g: one}, set())} == members[g] - {g}


def test_a_merge_bigger_than_the_window_keeps_the_window(clean_solr: str) -> None:
    # the window stands for what Solr's search does not show yet; a merge moving more stored postings than the
    # window holds must not push this process's last writes out of it (a copy of one would find no candidate)
    from test_solr_regroup import nurse

    core = Solr(f"{clean_solr}/postings")
    members = by_group(Ingestor(core, commit_within_ms=300).ingest(postings()))
    core.commit()
    (ga, _), (gb, nb) = Counter({g: len(ids) for g, ids in members.items()}).most_common(2)
    ing = Ingestor(core, commit_within_ms=LATE, window_size=nb)
    (x,) = ing.ingest([nurse("x", 1)])  # written, not searchable
    ing._merge({gb: ga}, {gb: gb})
    assert set(ing._members({ga}) or {}) == members[ga] | members[gb]  # the merge is seen at once
    (y,) = ing.ingest([{**nurse("y", 2), "description": "Apply now! " + nurse("y", 2)["description"]}])
    assert (y.dup_group, y.duplicate_of) == ("x", "x")


def test_a_merge_right_after_a_merge(solr: Solr) -> None:  # noqa: F811
    # gb merged into ga, then ga into gc, before Solr's search shows the first move: the second finds gb's
    # postings too (the search still shows them under gb), and so do the membership reads
    res = Ingestor(solr, commit_within_ms=300).ingest(postings())
    solr.commit()
    members = by_group(res)
    (ga, _), (gb, _), (gc, _) = Counter({g: len(ids) for g, ids in members.items()}).most_common(3)
    every = members[ga] | members[gb] | members[gc]
    ing = Ingestor(solr, commit_within_ms=LATE)
    ing._merge({gb: ga}, {gb: gb})
    ing._merge({ga: gc}, {ga: ga})
    assert set(ing._members({gc}) or {}) == every
    assert {r.id for r in ing._group_members({gc: ing._members({gc})[gc]}, set())} == \
        (every - {gc} if len(every) <= CHAIN_NODES else set())
    state = groups(solr)
    assert {pid for pid, (g, _) in state.items() if g == gc} == every
    assert_every_group_has_its_head(state)


def test_the_window_keeps_writes_solr_does_not_show_yet(solr: Solr) -> None:  # noqa: F811
    # more postings written within the commit delay than the window holds by count: the first is not pushed out
    # of it (Solr's search does not show it yet), so a copy of it still finds it
    from test_solr_regroup import nurse

    ing = Ingestor(solr, commit_within_ms=LATE, window_size=10)
    (x,) = ing.ingest([nurse("x", 1)])
    ing.ingest(postings(40)[:15])
    assert solr.is_cloud() or solr.count("id:x") == 0
    (y,) = ing.ingest([{**nurse("y", 2), "description": "Apply now! " + nurse("y", 2)["description"]}])
    assert (y.dup_group, y.duplicate_of) == ("x", "x")
