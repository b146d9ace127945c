"""`Solr.get` (real-time get) sees every write Solr acknowledged before it, while soft commits run: Solr's
/get of several ids reads the ids after its first update-log miss from the realtime searcher it took then, and
a soft commit mid-request empties the update log, so without a fresh searcher (`service.solr.fresh_route`)
recent writes came back missing or old. Real Solr, standalone and SolrCloud."""

from __future__ import annotations

import pytest
from solr_fixture import clear_core, soft_commits

from service.solr import Solr

pytestmark = pytest.mark.solr


@pytest.mark.parametrize("mode", ["standalone", "cloud"])
def test_get_sees_every_acknowledged_write_during_soft_commits(request: pytest.FixtureRequest, mode: str) -> None:
    base = request.getfixturevalue("solr_url" if mode == "standalone" else "solr_cloud_url")
    clear_core(base)
    solr = Solr(f"{base}/postings")
    old = [f"old{i:05d}" for i in range(1500)]  # committed: read from the searcher, ahead of the recent ids
    solr.update([{"id": pid, "dup_group": "g0", "title": "t"} for pid in old], commit=True)
    latest = dict.fromkeys(old, "g0")
    with soft_commits(base) as commits:
        for k in range(1, 26):
            # new postings and old ones moved to another group, acknowledged, then read back at once
            fresh = [f"new{k:03d}_{i:03d}" for i in range(100)]
            moved = old[(k * 50) % len(old):][:50]
            solr.update([{"id": pid, "dup_group": f"g{k}", "title": "t"} for pid in fresh + moved])
            latest.update(dict.fromkeys(fresh + moved, f"g{k}"))
            ids = old + [pid for pid in latest if pid.startswith("new")]
            got = {d["id"]: d["dup_group"] for d in solr.get(ids, fl="id,dup_group")}
            wrong = [pid for pid in ids if got.get(pid) != latest[pid]]
            assert not wrong, f"read {k}: {len(wrong)} acknowledged writes missing or old, e.g. " \
                              f"{[(pid, got.get(pid), latest[pid]) for pid in wrong[:3]]}"
    assert commits[0] > 0
