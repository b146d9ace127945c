"""The same postings give the same groups whichever order they arrive in: a new posting whose accepted pairs
touch stored groups where the grouping's guard decides (two stored groups, or a scored pair below the cut) has
its component decided again from all its members' pairs, as `jobdedup dedup` decides it
(`Ingestor._redecide`). Real Solr, standalone and SolrCloud (where a posting changing group moves shards)."""

from __future__ import annotations

import pytest
from test_solr_regroup import assert_every_group_has_its_head, groups, solr  # noqa: F401  (fixture)

from service.ingest import Ingestor
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

BATCH = 20


def postings() -> list[dict]:
    """Generated Chinese postings with agency copies, each id once (before the re-decision, forward and
    reversed arrival gave 125 and 126 groups)."""
    seen: set[str] = set()
    return [p for p in generate(300, lang="zh", seed=4, agency_rate=0.3, resight_rate=0.0)
            if not (p["id"] in seen or seen.add(p["id"]))]


def partition(state: dict[str, tuple[str, str | None]]) -> set[frozenset[str]]:
    by: dict[str, set[str]] = {}
    for pid, (group, _) in state.items():
        by.setdefault(group, set()).add(pid)
    return {frozenset(s) for s in by.values()}


def test_two_arrival_orders_give_the_same_groups(solr: Solr) -> None:  # noqa: F811
    data = postings()
    got, stats = [], []
    for order in (data, data[::-1]):
        solr.delete_all()
        ing = Ingestor(solr, commit_within_ms=300)
        for s in range(0, len(order), BATCH):
            ing.ingest(order[s:s + BATCH])
        state = groups(solr)  # each posting stored once (SolrCloud: no copy left on an old shard)
        assert state.keys() == {p["id"] for p in data}  # no posting lost
        assert_every_group_has_its_head(state)
        got.append(partition(state))
        stats.append(ing.stats)
    assert all(s["redecided"] > 0 for s in stats)  # both orders met contested components
    assert any(s["redecide_moved"] > 0 for s in stats)  # ... and re-decided stored postings into other groups
    assert got[0] == got[1]


def test_a_component_over_the_cap_keeps_the_arrival_order_decision(clean_solr: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # bounded: a contested component of more than MAX_REDECIDE postings is not read nor decided again; its
    # batch is decided as before (merges), every posting stored, every group with its head
    import service.ingest

    monkeypatch.setattr(service.ingest, "MAX_REDECIDE", 2)
    data = postings()[::-1]
    core = Solr(f"{clean_solr}/postings")
    ing = Ingestor(core, commit_within_ms=300)
    for s in range(0, len(data), BATCH):
        ing.ingest(data[s:s + BATCH])
    assert ing.stats["redecide_skipped"] > 0 and ing.stats["merged_groups"] > 0
    state = groups(core)
    assert state.keys() == {p["id"] for p in data}
    assert_every_group_has_its_head(state)


def test_a_group_decided_again_as_it_was_keeps_its_name(solr: Solr) -> None:  # noqa: F811
    # two copies of one job in one batch, undated: both first seen now, the batch's first heads the group (as
    # dedup's input order does); decided again unchanged, the group keeps its head and no posting is written
    from test_solr_regroup import eng

    undated = [{k: v for k, v in eng(pid, 1, variant).items() if k != "first_seen"}
               for pid, variant in (("z1", 0), ("a1", 1))]
    ing = Ingestor(solr, commit_within_ms=300)
    assert [r.dup_group for r in ing.ingest(undated)] == ["z1", "z1"]
    state = groups(solr)
    assert ing._redecide({"z1"}, [], set(), frozenset()) == {}
    assert ing.stats["redecide_moved"] == 0
    assert groups(solr) == state
