"""Regrouping loses no posting when a request is cut in the middle: in SolrCloud (routed by dup_group) a
posting changing group moves shards, and whatever request of that move is cut at whatever point -- the
client gone, the network dropped -- every posting stays stored with its fields, and running the regroup
again (recompute resumes its batch; a client re-sends its batch) ends as an uncut run, each posting stored
once. Real Solr (SolrCloud and standalone); the cut is made on the wire by tests/cut_proxy.py."""

from __future__ import annotations

import pytest
from cut_proxy import CutProxy
from solr_fixture import clear_core
from test_solr_regroup import assert_every_group_has_its_head, eng, groups, nurse

from service.errors import SolrUnavailable
from service.ingest import Ingestor
from service.regroup import write_groups
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

N = 24
IDS = [f"p{i:02d}" for i in range(N)]
# one stored group of N postings, split into groups of three (heads p00, p03, ...): most move shards
SPLIT = {pid: (IDS[i - i % 3], "" if i % 3 == 0 else IDS[i - i % 3], None if i % 3 == 0 else 0.9,
               [] if i % 3 == 0 else ["near"], "") for i, pid in enumerate(IDS)}


@pytest.fixture(params=["cloud", "standalone"])
def base(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("solr_cloud_url" if request.param == "cloud" else "solr_url")


POSTINGS = [{**p, "id": pid, "title": f"Job {pid}"} for pid, p in zip(IDS, generate(N, seed=11), strict=True)]
ONE = {pid: ("p00", "" if pid == "p00" else "p00", None if pid == "p00" else 0.8, [], "") for pid in IDS}


def one_group(base: str) -> None:
    """The N postings, stored by the service, all in one group (p00's)."""
    clear_core(base)
    solr = Solr(f"{base}/postings")
    Ingestor(solr, commit_within_ms=200).ingest(POSTINGS)
    write_groups(solr, ONE, 200)


def stored(solr: Solr) -> dict[str, list[tuple[str, str]]]:
    """Every stored copy of each posting, searchable after a commit: id -> [(dup_group, title)]."""
    solr.commit()
    out: dict[str, list[tuple[str, str]]] = {}
    for d in solr.query({"q": "*:*", "fl": "id,dup_group,title", "rows": 10 * N})["response"]["docs"]:
        out.setdefault(d["id"], []).append((d["dup_group"], d["title"]))
    return out


def test_regroup_cut_anywhere_keeps_every_posting(base: str) -> None:
    one_group(base)
    with CutProxy(base) as proxy:
        assert write_groups(Solr(proxy.url("/postings")), SPLIT, 200) == N
    expected = groups(Solr(f"{base}/postings"))
    assert expected == {pid: (g, d or None) for pid, (g, d, *_rest) in SPLIT.items()}
    requests = proxy.updates
    assert requests >= 1
    for k in range(requests):
        for at in (0.1, 0.5, 0.9):
            one_group(base)
            with CutProxy(base, cut_request=k, cut_at=at) as proxy, pytest.raises(SolrUnavailable):
                write_groups(Solr(proxy.url("/postings")), SPLIT, 200)
            solr = Solr(f"{base}/postings")
            state = stored(solr)
            assert sorted(state) == IDS, f"update request {k} cut at {at:.0%}: postings lost"
            assert all(title == f"Job {pid}" for pid, copies in state.items() for _, title in copies)
            write_groups(solr, SPLIT, 200)  # run again: as an uncut run, every posting stored once
            assert groups(solr) == expected, f"update request {k} cut at {at:.0%}"


def test_ingest_regroup_cut_anywhere_keeps_every_posting(base: str) -> None:
    # e1 heads e1..e3; re-sent as a nurse job, the other two are regrouped (moving shards in SolrCloud)
    def setup() -> None:
        clear_core(base)
        Ingestor(Solr(f"{base}/postings"), commit_within_ms=200).ingest(
            [eng("e1", 1), eng("e2", 2, 1), eng("e3", 3, 2), nurse("n1", 5)])
        Solr(f"{base}/postings").commit()

    setup()
    with CutProxy(base) as proxy:
        Ingestor(Solr(proxy.url("/postings")), commit_within_ms=200).ingest([nurse("e1", 1)])
    assert groups(Solr(f"{base}/postings")) == {"e1": ("n1", "n1"), "n1": ("n1", None), "e2": ("e2", None),
                                                "e3": ("e2", "e2")}
    for k in range(proxy.updates):
        setup()
        with CutProxy(base, cut_request=k, cut_at=0.5) as proxy, pytest.raises(SolrUnavailable):
            Ingestor(Solr(proxy.url("/postings")), commit_within_ms=200).ingest([nurse("e1", 1)])
        solr = Solr(f"{base}/postings")
        assert sorted(stored(solr)) == ["e1", "e2", "e3", "n1"], f"update request {k} cut: postings lost"
        Ingestor(solr, commit_within_ms=200).ingest([nurse("e1", 1)])  # the client re-sends its batch
        state = groups(solr)  # each posting stored once
        assert_every_group_has_its_head(state)
        # e1 and the nurse as in an uncut run; a regroup cut after e2 became a head and before e3 followed
        # it leaves e3 heading a group of its own (e2 is no longer in the group decided again)
        assert {pid: state[pid] for pid in ("e1", "n1")} == {"e1": ("n1", "n1"), "n1": ("n1", None)}, k
        assert state["e3"] in (("e2", "e2"), ("e3", None)), k
