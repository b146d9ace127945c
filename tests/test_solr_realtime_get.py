"""`Solr.get` (real-time get) sees every write Solr acknowledged before it, while soft commits run: Solr's
/get of several ids reads the ids after its first update-log miss from the realtime searcher it took then, and
a soft commit mid-request empties the update log, so without a fresh searcher (`service.solr.fresh_route`)
recent writes came back missing or old. A plain get (`fresh=False`, for reads a stale answer cannot mislead)
still always answers. Real Solr, standalone and SolrCloud."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from cut_proxy import CutProxy
from solr_fixture import clear_core, soft_commits

from service.solr import Solr

pytestmark = pytest.mark.solr


def reads_during_soft_commits(base: str, fresh: bool
                              ) -> Iterator[tuple[int, list[str], dict[str, str], dict[str, str], dict[str, list[str]]]]:
    """Per round while soft commits run: new postings and committed ones moved to another group are written
    (acknowledged), then read back at once: the last of each alone, then all; yields (round, ids read, what was
    read, what was written last, the groups read of the two read alone)."""
    clear_core(base)
    solr = Solr(f"{base}/postings")
    old = [f"old{i:05d}" for i in range(1500)]  # committed: read from the searcher, ahead of the recent ids
    solr.update([{"id": pid, "dup_group": "g0", "title": "t"} for pid in old], commit=True)
    latest = dict.fromkeys(old, "g0")
    with soft_commits(base) as commits:
        for k in range(1, 26):
            fresh_ids = [f"new{k:03d}_{i:03d}" for i in range(100)]
            moved = old[(k * 50) % len(old):][:50]
            solr.update([{"id": pid, "dup_group": f"g{k}", "title": "t"} for pid in fresh_ids + moved])
            latest.update(dict.fromkeys(fresh_ids + moved, f"g{k}"))
            # first one id alone (never a forced reopen): read from the searcher taken at its update-log miss
            alone = {pid: [d["dup_group"] for d in solr.get([pid], fl="dup_group", fresh=fresh)]
                     for pid in (fresh_ids[-1], moved[-1])}
            ids = old + [pid for pid in latest if pid.startswith("new")]
            got = {d["id"]: d["dup_group"] for d in solr.get(ids, fl="id,dup_group", fresh=fresh)}
            yield k, ids, got, latest, alone
    assert commits[0] > 0


@pytest.mark.parametrize("mode", ["standalone", "cloud"])
def test_get_sees_every_acknowledged_write_during_soft_commits(request: pytest.FixtureRequest, mode: str) -> None:
    base = request.getfixturevalue("solr_url" if mode == "standalone" else "solr_cloud_url")
    for k, ids, got, latest, alone in reads_during_soft_commits(base, fresh=True):
        wrong = [pid for pid in ids if got.get(pid) != latest[pid]]
        assert not wrong, f"read {k}: {len(wrong)} acknowledged writes missing or old, e.g. " \
                          f"{[(pid, got.get(pid), latest[pid]) for pid in wrong[:3]]}"
        assert alone == {pid: [latest[pid]] for pid in alone}, k


@pytest.mark.parametrize("mode", ["standalone", "cloud"])
def test_a_plain_get_always_answers_during_soft_commits(request: pytest.FixtureRequest, mode: str) -> None:
    # Solr 9.10 answers a plain /get of several ids with a 500 (ArrayIndexOutOfBoundsException in
    # DocValuesIteratorCache) when a soft commit lands mid-request: asked again from a fresh searcher
    base = request.getfixturevalue("solr_url" if mode == "standalone" else "solr_cloud_url")
    for k, ids, got, _, _ in reads_during_soft_commits(base, fresh=False):
        assert got.keys() <= set(ids), k
        assert all(pid in got for pid in ids if pid.startswith("old")), k  # committed before the reads began


class PlainGet500(CutProxy):
    """Answers every plain /get of several ids (no `_route_`) with Solr's 500 of that race; the rest pass."""

    plain_gets = 0

    def _answer(self, head: bytes, body: bytes) -> bytes | None:
        if b"/get" in head.split(b"\r\n", 1)[0] and b"_route_=" not in body and body.count(b"id=") > 2:
            self.plain_gets += 1
            msg = b'{"error":{"msg":"Index 6 out of bounds for length 6","code":500}}'
            return (b"HTTP/1.1 500 Server Error\r\nContent-Type: application/json\r\nContent-Length: "
                    + str(len(msg)).encode() + b"\r\nConnection: close\r\n\r\n" + msg)
        return None


def test_a_plain_get_that_solr_fails_is_asked_again_fresh(solr_url: str) -> None:
    clear_core(solr_url)
    Solr(f"{solr_url}/postings").update([{"id": f"p{i}", "dup_group": "g", "title": "t"} for i in range(3)])
    with PlainGet500(solr_url) as proxy:
        solr = Solr(proxy.url("/postings"))
        got = solr.get(["p0", "p1", "p2", "p9"], fl="id,dup_group", fresh=False)
        assert proxy.plain_gets == 1 and sorted(d["id"] for d in got) == ["p0", "p1", "p2"]
        assert [d["id"] for d in solr.get(["p1"], fl="id", fresh=False)] == ["p1"]  # one id: no retry needed
        assert proxy.plain_gets == 1


class GetLog(CutProxy):
    """Passes every request on, noting each /get (whether it forces a fresh searcher: `_route_`); `before_get`:
    run just before the /get of that number (0-based) is passed on."""

    def __init__(self, upstream: str, before_get: dict[int, Callable[[], None]] | None = None) -> None:
        super().__init__(upstream)
        self.gets: list[bool] = []  # per /get: routed (a forced fresh realtime searcher)
        self.before_get = before_get or {}

    def _answer(self, head: bytes, body: bytes) -> bytes | None:
        if b"/get" in head.split(b"\r\n", 1)[0]:
            n = len(self.gets)
            self.gets.append(b"_route_=" in body)
            if n in self.before_get:
                self.before_get[n]()
        return None


def test_a_fresh_get_of_several_ids_forces_no_new_searcher_when_two_plain_reads_agree(solr_url: str) -> None:
    # a forced reopen flushes Solr's indexing buffer into a segment of its own (one per `index` batch)
    clear_core(solr_url)
    Solr(f"{solr_url}/postings").update([{"id": f"p{i}", "dup_group": "g", "title": "t"} for i in range(3)])
    with GetLog(solr_url) as proxy:
        got = Solr(proxy.url("/postings")).get(["p0", "p1", "p2", "p9"], fl="dup_group")
    assert proxy.gets == [False, False]
    assert got == [{"dup_group": "g"}] * 3  # uncommitted, from the update log; only the fields asked for


def test_a_fresh_get_whose_plain_reads_differ_is_read_from_a_fresh_searcher(solr_url: str) -> None:
    clear_core(solr_url)
    direct = Solr(f"{solr_url}/postings")
    direct.update([{"id": f"p{i}", "dup_group": "g", "title": "t"} for i in range(3)], commit=True)
    # acknowledged between the two plain reads: they disagree on p1's version
    move = {1: lambda: direct.update([{"id": "p1", "dup_group": "h", "title": "t"}])}
    with GetLog(solr_url, before_get=move) as proxy:
        got = {d["id"]: d["dup_group"] for d in Solr(proxy.url("/postings")).get(["p0", "p1", "p2"], fl="id,dup_group")}
    assert proxy.gets == [False, False, True]
    assert got == {"p0": "g", "p1": "h", "p2": "g"}
