"""The same postings give the same groups whichever way they arrive: `jobdedup dedup` of a file, the
service's ingest of it in batches (`jobdedup index` / the API) and `jobdedup recompute` of the collection
run one engine (service.engine) over the same candidates, evidence, Verifier and grouping. Real Solr;
generated postings with reposts, HTML recruitment-agency copies and crawl re-sightings (same id)."""

from __future__ import annotations

import io as _io
from collections import Counter
from pathlib import Path

import orjson
import pytest

from service.embedded import dedup_file
from service.ingest import Ingestor
from service.recompute import recompute
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

N = 400
BATCH = 50


def partition(groups: dict[str, str]) -> set[frozenset[str]]:
    by: dict[str, set[str]] = {}
    for pid, g in groups.items():
        by.setdefault(g, set()).add(pid)
    return {frozenset(s) for s in by.values()}


def stored_groups(solr: Solr) -> dict[str, str]:
    solr.commit()
    docs = solr.query({"q": "*:*", "rows": 10000, "fl": "id,dup_group"})["response"]["docs"]
    return {d["id"]: d["dup_group"] for d in docs}


def dedup_of(path: Path, lang: str = "en") -> tuple[list[dict], dict[str, str], set[frozenset[str]]]:
    """Generated postings (reposts, agency copies, re-sightings) written to `path`, and `jobdedup dedup`'s
    groups of them (id -> group, and as a partition)."""
    postings = list(generate(N, lang=lang, seed=7, agency_rate=0.3, resight_rate=0.05))
    ids = {p["id"] for p in postings}
    assert len(ids) < N  # crawl re-sightings: the same id again
    agency = {p["id"] for p in postings if p["description"].startswith("<p><strong>")}
    assert agency
    path.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in postings))
    out = _io.BytesIO()
    summary = dedup_file(str(path), out, workers=1, quiet=True)
    assert summary.evidence["verifier"] > 0
    dedup = {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}
    want = partition(dedup)
    assert any(len(g) > 1 and g & agency for g in want)  # agency copies are grouped with their jobs
    return postings, dedup, want


@pytest.mark.parametrize("fresh_process", [False, True], ids=["window", "solr"])
def test_dedup_index_and_recompute_group_alike(clean_solr: str, tmp_path: Path, fresh_process: bool) -> None:
    # fresh_process: a new service process per batch, so every candidate comes from Solr's band, exact and
    # blocking-key queries (the recent window is empty)
    postings, dedup, want = dedup_of(tmp_path / "postings.jsonl")

    solr = Solr(f"{clean_solr}/postings")
    runs = [Ingestor(solr, commit_within_ms=300)]
    for s in range(0, N, BATCH):
        if fresh_process and s:
            solr.commit()
            runs.append(Ingestor(solr, commit_within_ms=300))
        runs[-1].ingest(postings[s:s + BATCH])
    stats = sum((ing.stats for ing in runs), Counter())
    assert stats["verifier_pairs"] > 0
    assert stats["candidates_fetched"] > 0 if fresh_process else stats["candidates_fetched"] == 0
    indexed = stored_groups(solr)
    assert indexed.keys() == dedup.keys()
    assert partition(indexed) == want

    ck = recompute(solr.url, str(tmp_path / "ck"), rows=100, quiet=True)
    assert ck.groups == len(want)
    assert partition(stored_groups(solr)) == want


def test_id_resent_as_another_job_groups_alike(clean_solr: str, tmp_path: Path) -> None:
    """An id re-sent with another job's content is that job now: Solr keeps the last version, and dedup (before:
    the first version, so x stayed in its old group) groups it by its last content too -- a generated posting
    re-sent as an exact copy of another job, and one re-sent as a reworded copy (decided by the verifier on the
    last text)."""
    from tests.test_dedup import resent_as_another_job

    postings = list(generate(N, seed=7, agency_rate=0.3, resight_rate=0.05))
    by_job: dict[str, list[dict]] = {}
    for p in postings:
        by_job.setdefault(p["synthetic_job"], []).append(p)
    big = sorted((ps for ps in by_job.values() if len({p["id"] for p in ps}) > 2), key=lambda ps: ps[0]["id"])
    x, other = big[0][0], big[1][0]  # the head of one job's group, re-sent as the other job
    postings += [{**other, "id": x["id"], "first_seen": other.get("first_seen")}, *resent_as_another_job()]
    path = tmp_path / "postings.jsonl"
    path.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in postings))
    out = _io.BytesIO()
    dedup_file(str(path), out, workers=1, quiet=True)
    dedup = {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}
    assert dedup[x["id"]] == dedup[other["id"]] and dedup["x"] == dedup["a"]

    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=300)
    for s in range(0, len(postings), BATCH):
        ing.ingest(postings[s:s + BATCH])
    indexed = stored_groups(solr)
    assert partition(indexed) == partition(dedup)
    recompute(solr.url, str(tmp_path / "ck"), rows=100, quiet=True)
    assert partition(stored_groups(solr)) == partition(dedup)


def test_index_file_with_a_worker_groups_like_dedup(clean_solr: str, tmp_path: Path) -> None:
    """`jobdedup index -j 1` (a worker process extracts the batches ahead of the writer and sends them back
    without the postings, which the writer has) groups like dedup."""
    from service.cli_index import index_file

    path = tmp_path / "postings.jsonl"
    _, dedup, want = dedup_of(path)
    solr = Solr(f"{clean_solr}/postings")
    stats = index_file(str(path), solr.url, batch_size=BATCH, workers=1, commit_within_ms=300)
    assert stats["verifier_pairs"] > 0
    indexed = stored_groups(solr)
    assert indexed.keys() == dedup.keys()
    assert partition(indexed) == want


def test_index_judges_postings_with_their_own_lines_counted(clean_solr: str, tmp_path: Path) -> None:
    """The boilerplate model a batch is decided with counts the batch's own postings and every posting written
    before it, as dedup's model counts every posting it judges -- not only those of the collection's last
    learning step (`learn_every`): Chinese postings, whose company blurbs decide pairs, group like dedup, and
    the learning step changes no decision. (Before, the model lagged up to `learn_every` postings: here it
    stayed empty, and 4 of dedup's groups came out otherwise.) Arrival order included: a 市场专员 posting joins
    the 高级市场专员 reposts (accepted with five of them, rejected with one) before its own repost arrives, which
    the verifier scores apart from all but one of them; dedup, seeing all at once, keeps the two 市场专员 postings
    apart (the engine's chain pairs), and the index, deciding that contested component again from all its members
    (`Ingestor._redecide`), does the same."""
    postings, dedup, want = dedup_of(tmp_path / "postings.jsonl", lang="zh")
    solr = Solr(f"{clean_solr}/postings")
    got = []
    for learn_every in (1000, 1):
        solr.delete_all()
        ing = Ingestor(solr, commit_within_ms=300, learn_every=learn_every)
        for s in range(0, N, BATCH):
            ing.ingest(postings[s:s + BATCH])
        assert ing.stats["verifier_pairs"] > 0
        got.append(partition(stored_groups(solr)))
    assert got[0] == got[1]
    assert got[0] == want


def together(groups: set[frozenset[str]]) -> set[frozenset[str]]:
    """The pairs of postings a partition puts in one group."""
    return {frozenset((a, b)) for g in groups for a in g for b in g if a < b}
