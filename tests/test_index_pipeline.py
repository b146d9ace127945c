"""The ingest pipeline: a batch is decided while Solr writes the one before it (`Ingestor.submit`), counting
that batch's postings as written; when Solr refuses one of them or the write fails, the batch decided after
it is decided again, and nothing accepted is lost. Real Solr."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from cut_proxy import CutProxy
from solr_fixture import clear_core
from test_solr_regroup import assert_every_group_has_its_head, eng, groups, nurse, pilot
from test_solr_same_groups import BATCH, dedup_of, partition, stored_groups

from service.cli_index import index_file
from service.errors import SolrUnavailable, UserError
from service.ingest import Ingestor, prepare_batch
from service.solr import Solr

pytestmark = pytest.mark.solr


def test_a_refused_posting_is_not_joined_by_the_batch_decided_while_it_was_written(solr_url: str) -> None:
    # p1 reaches Solr (prepared without the schema rules) and is refused; q1, its copy, was decided while
    # p1's write was in flight, with p1 counted as written: q1 is decided again, and heads its own group
    clear_core(solr_url)
    solr = Solr(f"{solr_url}/postings")
    ing = Ingestor(solr, commit_within_ms=200)
    first = ing.submit(prepare_batch([{**eng("p1", 1), "salary_i": "abc"}, nurse("n1", 1)]))
    assert first is not None
    copy = prepare_batch([eng("q1", 2, 1)])
    assert ing.submit(copy) is None  # decided counting p1, which Solr refused: not sent
    assert [r.status for r in first.result()] == ["rejected", "new"]
    assert "p1" not in ing.window.recs
    again = ing.submit(copy)
    assert again is not None
    (q1,) = again.result()
    assert (q1.status, q1.dup_group, q1.duplicate_of) == ("new", "q1", None)
    state = groups(solr)
    assert sorted(state) == ["n1", "q1"]
    assert_every_group_has_its_head(state)
    assert ing.learned_postings == 2  # n1 and q1; p1 was never learned


def test_batches_decided_during_writes_group_as_one_at_a_time(clean_solr: str, tmp_path: Path) -> None:
    # each batch submitted before the one before it is answered: the same groups as waiting for each write
    postings, _, want = dedup_of(tmp_path / "postings.jsonl")
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=300)
    tickets = [ing.submit(prepare_batch(postings[s:s + BATCH])) for s in range(0, len(postings), BATCH)]
    assert all(t is not None for t in tickets)
    results = [r for t in tickets for r in t.result()]  # type: ignore[union-attr]
    assert len(results) == len(postings) and {r.status for r in results} <= {"new", "duplicate", "updated"}
    assert ing.stats["writes_overlapped"] == len(tickets) - 1
    assert partition(stored_groups(solr)) == want


def test_a_batch_re_sending_postings_of_the_write_in_flight_decides_as_after_it(solr_url: str) -> None:
    # batch 2 re-sends three postings batch 1 is still writing: one seen again unchanged, one as another job, and
    # the head of batch 1's engineer group as a nurse (its group decided again): decided without waiting for
    # batch 1's write (its documents are their stored versions), the same results and postings as one at a time
    first = [eng("e1", 1), eng("e2", 2, 1), nurse("n1", 3), pilot("p1", 4), eng("e3", 6, 2)]
    second = [{**nurse("n1", 3), "last_seen": "2026-02-01"}, eng("p1", 7, 1), nurse("e1", 8), nurse("n2", 9)]
    fl = "id,dup_group,duplicate_of,dup_score,dup_why_ss,dup_match_s,first_seen,last_seen,seen_count"
    got = []
    for pipelined in (False, True):
        clear_core(solr_url)
        solr = Solr(f"{solr_url}/postings")
        ing = Ingestor(solr, commit_within_ms=200)
        if pipelined:
            tickets = [ing.submit(prepare_batch(first)), ing.submit(prepare_batch(second))]
            assert all(t is not None for t in tickets)
            results = [r.as_dict() for t in tickets for r in t.result()]  # type: ignore[union-attr]
            assert ing.stats["resent_in_flight"] == 3
        else:
            results = [r.as_dict() for batch in (first, second) for r in ing.ingest(batch)]
            assert ing.stats["resent_in_flight"] == 0
        solr.commit()
        stored = sorted(solr.query({"q": "*:*", "fl": fl, "rows": 100})["response"]["docs"], key=lambda d: d["id"])
        assert_every_group_has_its_head(groups(solr))
        got.append((results, stored))
    assert got[1] == got[0]
    results, stored = got[0]
    assert [r["status"] for r in results[len(first):]] == ["updated"] * 3 + ["duplicate"]
    assert {d["id"]: d["seen_count"] for d in stored}["n1"] == 2


def test_a_posting_re_sent_while_solr_refuses_its_write_in_flight_is_new(solr_url: str) -> None:
    # batch 2 re-sends p1 while batch 1's write of it is in flight and Solr refuses it: batch 2 took p1's stored
    # version from that write, so it is decided again once the refusal is known, and p1 is new
    clear_core(solr_url)
    ing = Ingestor(Solr(f"{solr_url}/postings"), commit_within_ms=200)
    first = ing.submit(prepare_batch([{**eng("p1", 1), "salary_i": "abc"}, nurse("n1", 1)]))
    assert first is not None
    second = prepare_batch([eng("p1", 1), nurse("n2", 2)])
    assert ing.submit(second) is None and ing.stats["resent_in_flight"] == 1
    assert [r.status for r in first.result()] == ["rejected", "new"]
    again = ing.submit(second)
    assert again is not None
    assert [(r.status, r.dup_group) for r in again.result()] == [("new", "p1"), ("duplicate", "n1")]


class GoneProxy(CutProxy):
    """Cuts update request `cut_request`, then Solr is gone: every later connection closes unanswered."""

    def _handle(self, conn: socket.socket) -> None:
        if self.cut is not None:
            conn.close()
            return
        super()._handle(conn)


@pytest.mark.parametrize("gone", [False, True], ids=["cut-once", "gone"])
def test_index_with_a_write_cut_mid_run_loses_nothing(clean_solr: str, tmp_path: Path, gone: bool) -> None:
    # the write of batch 3 is cut while batch 4 is decided: batch 3 is retried before batch 4 is decided again
    # (same groups as dedup); Solr gone for good: the run fails, saying how many postings were indexed, and
    # every one of those is in Solr with its group's head; re-running the command completes the groups
    path = tmp_path / "postings.jsonl"
    postings, _, want = dedup_of(path)
    solr = Solr(f"{clean_solr}/postings")
    with (GoneProxy if gone else CutProxy)(clean_solr, cut_request=3, cut_at=0.5) as proxy:
        url = proxy.url("/postings")
        if gone:
            with pytest.raises(UserError, match="re-running the same command is safe") as err:
                index_file(str(path), url, batch_size=BATCH, workers=0, commit_within_ms=300, retries=1)
            said = re.search(r"([\d,]+) postings were indexed before it", str(err.value))
            assert said is not None
            state = groups(solr)
            assert 0 < int(said.group(1).replace(",", "")) <= len(state)
            assert_every_group_has_its_head(state)
            index_file(str(path), solr.url, batch_size=BATCH, workers=0, commit_within_ms=300)
        else:
            stats = index_file(str(path), url, batch_size=BATCH, workers=0, commit_within_ms=300)
            assert sum(stats["by_status"].values()) == len(postings) and "rejected" not in stats["by_status"]
            assert stats["writes_overlapped"] > 0
    assert proxy.cut is not None  # a write was cut
    indexed_groups = stored_groups(solr)
    assert indexed_groups.keys() == {p["id"] for p in postings}
    assert partition(indexed_groups) == want


def test_index_whose_closing_commit_fails_says_what_was_written(clean_solr: str, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # every batch written and acknowledged, then Solr goes away before the run's closing commit: one clear error
    # (no traceback) saying the postings were written
    path = tmp_path / "postings.jsonl"
    postings, _, _ = dedup_of(path)

    def gone(self: Solr, soft: bool = False) -> None:
        raise SolrUnavailable("Solr is not reachable at the test's URL")

    monkeypatch.setattr(Solr, "commit", gone)
    with pytest.raises(UserError, match=f"all {len(postings):,} postings were written"):
        index_file(str(path), f"{clean_solr}/postings", batch_size=BATCH, workers=0, commit_within_ms=300)
    monkeypatch.undo()
    assert stored_groups(Solr(f"{clean_solr}/postings")).keys() == {p["id"] for p in postings}
