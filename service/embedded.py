"""Embedded dedup (no Solr): stream postings, compute features in worker processes, group with arrays.

Pipeline: read chunks of lines -> workers parse, validate and compute features (exact keys, profile
signature, MinHash sketch, LSH band keys) -> the main process folds crawl-log re-sightings (same id; a
re-sighting with other content replaces the row's features, as Solr keeps the last version) and appends rows to compact arrays -> candidate pairs from equal exact keys and equal band keys
(sorted-neighbourhood per band, so a huge bucket costs linear time) -> vectorized decision -> connected
components -> one canonical posting per group (earliest first_seen, then input order).
"""

from __future__ import annotations

import bisect
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from service import candidates, decision_glue, io
from service.engine import Phases, date_key, find_groups, imap_ordered, iso_date, worker_pool
from service.errors import UserError
from service.features import FeatureBatch, compute_features
from service.gctune import long_lived_heap
from service.settings import settings
from service.verify_stage import LineSpans, PairVerifier, file_postings

CHUNK_LINES = 1000    # lines per worker task
_KEY_COLUMNS = ("content", "url", "profile", "company", "title", "location", "ntok")  # a re-sighting changed if one differs


@dataclass
class _Rows:
    """Per-chunk result of a worker: the postings' bookkeeping fields and their features."""

    ids: list[str]
    first_seen: list[str | None]
    last_seen: list[str | None]
    seen: list[int]
    feats: FeatureBatch
    nbytes: int
    blocks: np.ndarray | None = None  # service.candidates blocking keys, (n, len(KEYS)) uint64
    spans: np.ndarray | None = None  # JSON Lines: byte offset, length and line number per posting, (n, 3)


def _work_lines(args: tuple[str, int, list[bytes], Mapping[str, str] | None, int]) -> _Rows:
    path, start, lines, mapping, at = args
    rows = io.parse_jsonl_chunk(path, start, lines, mapping)
    out = _rows([p for _, p in rows], sum(len(x) for x in lines))
    ends = np.cumsum([len(x) for x in lines]) + at
    k = np.array([n - start for n, _ in rows], np.int64)
    lens = np.array([len(lines[i]) for i in k.tolist()], np.int64)
    out.spans = np.stack([ends[k] - lens, lens, k + start], axis=1) if len(k) else np.zeros((0, 3), np.int64)
    return out


def _work_postings(args: tuple[list[dict[str, Any]], int]) -> _Rows:
    postings, nbytes = args
    return _rows(postings, nbytes)


def _seen_count(p: Mapping[str, Any]) -> int:
    v = p.get("seen_count")
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 1


def _rows(postings: list[dict[str, Any]], nbytes: int) -> _Rows:
    feats = compute_features(postings)
    feats.profile_hex = []  # not needed by the embedded run; keep the pickles small
    return _Rows(
        [p["id"] for p in postings],
        [p.get("first_seen") or iso_date(p.get("posted_at")) or p.get("last_seen") for p in postings],
        [p.get("last_seen") or p.get("first_seen") or iso_date(p.get("posted_at")) for p in postings],
        [_seen_count(p) for p in postings],
        feats,
        nbytes,
        candidates.blocking_keys(postings),
    )


@dataclass
class Summary:
    """What a dedup run found."""

    lines: int = 0
    postings: int = 0
    groups: int = 0
    duplicates: int = 0
    resightings: int = 0
    seconds: float = 0.0
    candidate_pairs: int = 0
    compared_pairs: int = 0
    accepted_pairs: int = 0
    evidence: dict[str, int] = field(default_factory=dict)
    phases: dict[str, float] = field(default_factory=dict)

    @property
    def duplicate_share(self) -> float:
        return self.duplicates / self.postings if self.postings else 0.0

    def line(self) -> str:
        """One human-readable summary line."""
        rate = self.postings / self.seconds if self.seconds else 0.0
        return (f"{self.postings:,} postings ({self.lines:,} lines, {self.resightings:,} re-sightings folded), "
                f"{self.groups:,} groups, {self.duplicates:,} duplicates ({self.duplicate_share:.1%}), "
                f"{self.seconds:.1f} s ({rate:,.0f} postings/s)")


class _Store:
    """Growing column store for unique postings: one row per id, holding its latest content (a re-sighting whose
    content differs takes the row's features, as `index` and `recompute` keep the last version), the earliest
    first_seen, the latest last_seen and the summed seen_count."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.ids: list[str] = []
        self.first: list[str | None] = []
        self.last: list[str | None] = []
        self.seen: list[int] = []
        self.parts: list[FeatureBatch] = []
        self.starts: list[int] = []  # first row of each part
        self.blocks: list[np.ndarray] = []
        self.spans: list[np.ndarray] | None = []
        self.latest: set[int] = set()  # rows whose content came from a later sighting than the first

    def add(self, rows: _Rows) -> int:
        keep: list[int] = []
        resight = 0
        base = len(self.ids)
        for k, pid in enumerate(rows.ids):
            j = self.index.get(pid)
            fs, ls = rows.first_seen[k], rows.last_seen[k]
            if j is None:
                self.index[pid] = len(self.ids)
                self.ids.append(pid)
                self.first.append(fs)
                self.last.append(ls)
                self.seen.append(rows.seen[k])
                keep.append(k)
                continue
            resight += 1
            self.seen[j] += rows.seen[k]
            if fs and (self.first[j] is None or fs < self.first[j]):
                self.first[j] = fs
            if ls and (self.last[j] is None or ls > self.last[j]):
                self.last[j] = ls
            self._take_if_changed(j, rows, k, keep[j - base] if j >= base else -1)
        f = rows.feats
        if len(keep) != len(rows.ids):
            sel = np.asarray(keep, np.intp)
            f = FeatureBatch(f.content[sel], f.url[sel], f.profile[sel], f.company[sel], f.title[sel],
                             f.location[sel], f.ntok[sel], f.sketch[sel], f.bands[sel], [])
        if rows.blocks is not None:
            self.blocks.append(rows.blocks[np.asarray(keep, np.intp)])
        if rows.spans is None or self.spans is None:
            self.spans = None
        else:
            self.spans.append(rows.spans[np.asarray(keep, np.intp)])
        self.starts.append(base)
        self.parts.append(f)
        return resight

    def _take_if_changed(self, j: int, rows: _Rows, k: int, here: int) -> None:
        """Row j re-sighted as posting k of `rows` (`here`: j's place in `rows` when first seen in it, else -1):
        when its content differs, the row takes posting k's features, blocking keys and place in the file. An
        unchanged re-sighting costs a comparison of a few numbers."""
        if here >= 0:
            f, blocks, spans, at = rows.feats, rows.blocks, rows.spans, here
        else:
            p = bisect.bisect_right(self.starts, j) - 1
            f, blocks, at = self.parts[p], self.blocks[p] if self.blocks else None, j - self.starts[p]
            spans = self.spans[p] if self.spans is not None else None
        new = rows.feats
        if (all(getattr(f, name)[at] == getattr(new, name)[k] for name in _KEY_COLUMNS)
                and (blocks is None or rows.blocks is None or np.array_equal(blocks[at], rows.blocks[k]))):
            return
        for name in (*_KEY_COLUMNS, "sketch", "bands"):
            getattr(f, name)[at] = getattr(new, name)[k]
        if blocks is not None and rows.blocks is not None:
            blocks[at] = rows.blocks[k]
        if spans is not None and rows.spans is not None:
            spans[at] = rows.spans[k]
        self.latest.add(j)

    def columns(self) -> FeatureBatch:
        parts, self.parts = self.parts, []
        if not parts:
            from service import sketching
            z = np.zeros(0, np.uint64)
            return FeatureBatch(z, z, z, z, z, z, np.zeros(0, np.int32),
                                np.zeros((0, sketching.NUM_PERM), np.uint32),
                                np.zeros((0, sketching.NUM_BANDS), np.uint64), [])

        def cat(name: str) -> np.ndarray:
            out = np.concatenate([getattr(p, name) for p in parts])
            for p in parts:
                setattr(p, name, None)
            return out

        names = ("content", "url", "profile", "company", "title", "location", "ntok", "sketch", "bands")
        return FeatureBatch(*(cat(n) for n in names), [])

    def block_keys(self) -> np.ndarray:
        """All postings' blocking keys (service.candidates), one row per unique posting."""
        blocks, self.blocks = self.blocks, []
        return np.concatenate(blocks) if blocks else np.zeros((0, len(candidates.KEYS)), np.uint64)


def _tasks(path: str, fmt: str, mapping: Mapping[str, str] | None) -> Iterator[tuple[Callable[..., _Rows], tuple]]:
    if fmt == "jsonl":
        at = 0
        if path != "-":
            with open(path, "rb") as fh:
                at = len(io.BOM) if fh.read(len(io.BOM)) == io.BOM else 0  # iter_jsonl_chunks drops it
        for start, lines in io.iter_jsonl_chunks(path, CHUNK_LINES):
            yield _work_lines, (path, start, lines, mapping, at)
            at += sum(len(x) for x in lines)
    else:
        batch: list[dict[str, Any]] = []
        nbytes = 0
        for _, p in io.iter_delimited(path, "," if fmt == "csv" else "\t", mapping):
            batch.append(p)
            nbytes += sum(len(v) for v in p.values() if isinstance(v, str)) + 8
            if len(batch) >= CHUNK_LINES:
                yield _work_postings, (batch, nbytes)
                batch, nbytes = [], 0
        if batch:
            yield _work_postings, (batch, nbytes)


def _call(task: tuple[Callable[..., _Rows], tuple]) -> _Rows:
    fn, args = task
    return fn(args)


def dedup_file(path: str, output: IO[bytes], fmt: str | None = None, mapping: Mapping[str, str] | None = None,
               workers: int | None = None, quiet: bool = False, verify: bool = True,
               trace: dict[str, Any] | None = None) -> Summary:
    """Deduplicate a postings file and write one JSON line per posting to `output`.

    `verify` (default): ambiguous MinHash pairs (no exact-content/URL evidence, estimated Jaccard >=
    FIELD_JACCARD) are decided by the issue-5 Verifier with a boilerplate model fitted on the postings
    involved; they are read again, so stdin is spooled to a temporary file. `verify=False` is the fast
    placeholder rule (vectorized, for very large inputs). `trace`: see `engine.find_groups` (rows are the
    output's line numbers).
    """
    kind = io.detect_format(path, fmt)
    if verify and path == "-":
        import shutil
        import tempfile

        with tempfile.NamedTemporaryFile("wb", suffix="." + kind, delete=False) as tmp:
            shutil.copyfileobj(sys.stdin.buffer, tmp)
        try:
            return dedup_file(tmp.name, output, kind, mapping, workers, quiet, verify, trace)
        finally:
            os.unlink(tmp.name)
    t0 = time.perf_counter()
    if path != "-" and not os.path.exists(path):
        raise UserError(f"{path}: no such file")
    workers = workers if workers is not None else settings().workers
    store = _Store()
    summary = Summary()
    phases = Phases("dedup", quiet)
    size = os.path.getsize(path) if path != "-" and os.path.isfile(path) else None
    # full gc collections rarer (service.gctune): the workers' per-line caches and this process's columns grow
    # with the input (2-3 % of the CPU went to full collections); the forked workers inherit the thresholds
    with long_lived_heap(), worker_pool(workers) as pool:  # forked now, while this process is small
        with phases("reading", size, "B", True) as bar:
            for rows in imap_ordered(pool, _call, _tasks(path, kind, mapping), workers * 3):
                summary.lines += len(rows.ids)
                summary.resightings += store.add(rows)
                bar.update(rows.nbytes)
        feats = store.columns()
        first_key = date_key(store.first)
        source = (LineSpans(path, mapping, np.concatenate(store.spans), store.ids) if store.spans
                  else file_postings(path, kind, mapping, store.ids, store.latest))
        store.spans = None
        verifier = PairVerifier(source, len(store.ids), pool, workers, phases, phases.timings) if verify else None
        store.index.clear()  # folding re-sightings is done; the id -> row map is not needed any more
        try:
            res = find_groups(feats, first_key, verifier,
                              candidates.extra_pairs(store.block_keys(), first_key) if verify else None, phases,
                              trace=trace)
        finally:
            if verifier is not None:
                verifier.close()
        phases.timings["chain_pairs"] = res["chain_pairs"]
    del feats
    with phases("writing", len(store.ids), " postings") as bar:
        _write(output, store, res, bar)
    summary.phases = phases.timings
    n = len(store.ids)
    summary.postings = n
    summary.groups = int(res["label"].max() + 1) if n else 0
    summary.duplicates = n - summary.groups
    summary.candidate_pairs, summary.compared_pairs, summary.accepted_pairs = (int(x) for x in res["pairs"])
    summary.evidence = res["evidence"]
    summary.seconds = time.perf_counter() - t0
    return summary


def _write(output: IO[bytes], store: _Store, res: dict[str, Any], bar: Any) -> None:
    ids = store.ids
    canonical = res["canonical"].tolist()
    score = res["score"].tolist()
    bits = res["bits"].tolist()
    est = res["est"].tolist()
    match = res["match"].tolist()
    reasons = res.get("reasons") or {}

    def records() -> Iterator[dict[str, Any]]:
        for i, pid in enumerate(ids):
            if i % 5000 == 4999:
                bar.update(5000)
            c = canonical[i]
            s = score[i]
            yield {
                "id": pid,
                "group": ids[c],
                "duplicate_of": None if c == i else ids[c],
                "score": None if s != s else round(s, 3),
                "why": (decision_glue.why_list(bits[i], est[i]) + list(reasons.get(i, ()))) if bits[i] else [],
                "matched": ids[match[i]] if match[i] >= 0 else None,
                "first_seen": store.first[i],
                "last_seen": store.last[i],
                "seen_count": store.seen[i],
            }

    io.write_jsonl(output, records(), chunk=5000)
    bar.update(len(ids) % 5000)
