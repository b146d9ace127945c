"""SolrCloud moves trust the intended group, not `_version_` across shards: each shard leader stamps versions
with its own clock, so when the old group's shard runs ahead, the copy a move leaves there carries the higher
version. The regroup deletes the copies outside the group it wrote, and a read of a posting stored twice (a move
cut before its delete) takes the copy written last by service.solr.REV, whatever their versions. Real SolrCloud
(2 shards, router.field=dup_group); the clock running ahead is made by writing the old copy again right after
the re-add (its shard then stamps it later than the moved copy)."""

from __future__ import annotations

from typing import Any

import pytest
from solr_fixture import clear_core
from test_solr_regroup import groups
from test_solr_regroup_faults import IDS, ONE, POSTINGS, SPLIT

from service.ingest import Ingestor
from service.regroup import newest_copies, write_groups
from service.solr import Solr

pytestmark = pytest.mark.solr


def shard_of_groups(base: str) -> dict[str, str]:
    """Each SPLIT group -> the shard it routes to (written once, read with the [shard] transformer)."""
    clear_core(base)
    solr = Solr(f"{base}/postings")
    Ingestor(solr, commit_within_ms=200).ingest(POSTINGS)
    write_groups(solr, SPLIT, 200)
    solr.commit()
    docs = solr.query({"q": "*:*", "fl": "id,dup_group,[shard]", "rows": 1000})["response"]["docs"]
    return {d["dup_group"]: d["[shard]"] for d in docs}


class AheadOldShard(Solr):
    """A Solr whose old shard's clock runs ahead: right after the re-add of moved postings, the copies left on
    their old group's shard are written again (as they were), so they carry a higher `_version_`. `cut`: the
    move stops before its deletes (the client gone)."""

    def __init__(self, url: str, stale: list[dict[str, Any]], cut: bool = False) -> None:
        super().__init__(url)
        self.stale = stale
        self.cut = cut

    def delete_copies(self, copies: Any, commit_within_ms: int | None = None) -> None:
        if not self.cut:
            super().delete_copies(copies, commit_within_ms=commit_within_ms)

    def update(self, docs: Any, commit_within_ms: int | None = None, commit: bool = False) -> None:
        super().update(docs, commit_within_ms=commit_within_ms, commit=commit)
        if self.stale and any(d.get("dup_group") != "p00" for d in docs):
            stale, self.stale = self.stale, []
            super().update(stale, commit_within_ms=commit_within_ms)


def in_one_group(base: str) -> tuple[Solr, list[str], list[dict[str, Any]]]:
    """The postings stored in p00's group; the ids SPLIT moves to the other shard and their stored copies."""
    shard = shard_of_groups(base)
    moving = sorted(pid for pid, (g, *_r) in SPLIT.items() if shard[g] != shard["p00"])
    assert moving, "no SPLIT group routes to another shard than p00's"
    clear_core(base)
    solr = Solr(f"{base}/postings")
    Ingestor(solr, commit_within_ms=200).ingest(POSTINGS)
    write_groups(solr, ONE, 200)
    derived = {"_version_", "mh_bands"} | set(solr.copy_field_targets())
    stale = [{k: v for k, v in d.items() if k not in derived} for d in solr.get(moving, fl="*")]
    assert sorted(d["id"] for d in stale) == moving and all(d["dup_group"] == "p00" for d in stale)
    return solr, moving, stale


SPLIT_GROUPS = {pid: (g, d or None) for pid, (g, d, *_rest) in SPLIT.items()}


def test_regroup_keeps_the_intended_copy_when_the_old_shard_stamps_later(solr_cloud_url: str) -> None:
    solr, _, stale = in_one_group(solr_cloud_url)
    write_groups(AheadOldShard(f"{solr_cloud_url}/postings", stale), SPLIT, 200)
    assert groups(solr) == SPLIT_GROUPS
    assert sorted(groups(solr)) == IDS


def test_a_move_cut_before_its_delete_reads_as_moved_when_the_old_shard_stamps_later(solr_cloud_url: str) -> None:
    solr, moving, stale = in_one_group(solr_cloud_url)
    write_groups(AheadOldShard(f"{solr_cloud_url}/postings", stale, cut=True), SPLIT, 200)
    copies = solr.copies(moving)
    assert len(copies) == 2 * len(moving)  # the premise: both copies stored, the old one stamped later
    newer = {c["id"]: c["dup_group"] for c in copies if c["_version_"] == max(
        o["_version_"] for o in copies if o["id"] == c["id"])}
    assert set(newer.values()) == {"p00"}
    assert {d["id"]: d["dup_group"] for d in solr.get(moving, fl="id,dup_group")} == \
        {pid: SPLIT[pid][0] for pid in moving}
    solr.commit()
    docs = solr.query({"q": "*:*", "fl": "id,dup_group", "rows": 1000})["response"]["docs"]
    newest_copies(solr, docs, "id,dup_group", 200)  # recompute's read of a page: the old copies go
    assert groups(solr) == SPLIT_GROUPS
