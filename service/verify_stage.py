"""The Verifier over many candidate pairs in bounded memory: each posting extracted and prepared once.

Pass 1 (extract): the postings taking part in a pair are read again and extracted in worker processes;
the workers return each posting's `Extracted` pickled (spooled to a temporary file in TMPDIR, ~4 KB per
posting, not kept in memory)
and its boilerplate line keys (signatures.boilerplate.line_keys), which the main process counts into an
`ArrayBoilerplate` -- the same model `BoilerplateModel.fit` learns, as sorted arrays.
Pass 2 (decide): the pairs are cut into units of whole components of the pair graph (a component larger
than UNIT_ROWS is cut into blocks of rows; a pair goes to the later block of its rows), so a worker
loads and prepares a unit's postings once and decides all of its pairs with `Verifier.decide_many`;
only one unit's prepared postings per worker are alive at a time.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import tempfile
import weakref
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from service.engine import Pool, imap_ordered
from service.graph import component_labels

UNIT_ROWS = 500        # postings prepared together by one worker task (small: the workers finish together)
EXTRACT_CHUNK = 200    # postings per extraction task
DECIDE_BATCH = 5000    # pairs per decide_many call

def file_postings(path: str, kind: str, mapping: Mapping[str, str] | None, ids: Sequence[str],
                  latest: Collection[int] = ()) -> Callable[[set[int]], Iterator[tuple[int, dict[str, Any]]]]:
    """A postings source for `PairVerifier`: reads the file again and yields (row, posting) for the wanted
    rows, row = position of the posting's id in `ids` (a re-sighted id: its first occurrence; for the rows in
    `latest`, whose content a later sighting replaced, its last one)."""

    def wanted(rows: set[int]) -> Iterator[tuple[int, dict[str, Any]]]:
        from service import io

        want = {ids[r]: r for r in rows if r not in latest}
        last = {ids[r]: r for r in rows if r in latest}
        found: dict[str, dict[str, Any]] = {}
        for _, p in io.read_postings(path, kind, mapping):
            if p["id"] in last:
                found[p["id"]] = p
                continue
            r = want.pop(p["id"], None)
            if r is not None:
                yield r, p
        for pid, p in found.items():
            yield last[pid], p

    return wanted


@dataclass(frozen=True)
class LineSpans:
    """A postings source for `PairVerifier` that the workers read themselves: where each row's posting lies
    in a JSON Lines file (its first occurrence, or the one whose content the row holds): byte offset, length and line number per row (`spans`,
    (n, 3)), and the id it must have. The main process then parses nothing, and postings can be extracted
    in any order -- unit by unit, so the lines near-duplicates share are still in the per-line caches."""

    path: str
    mapping: Mapping[str, str] | None
    spans: np.ndarray
    ids: Sequence[str]


def _read_spans(path: str, mapping: Mapping[str, str] | None, spans: np.ndarray, ids: list[str]
                ) -> list[dict[str, Any]]:
    """The postings at `spans` (offset, length, line number) of a JSON Lines file, checked against `ids`."""
    from service import io
    from service.errors import UserError

    out = []
    with open(path, "rb") as fh:
        for (at, n, line), pid in zip(spans.tolist(), ids, strict=True):
            fh.seek(at)
            try:
                got = io.parse_jsonl_chunk(path, line, [fh.read(n)], mapping)
            except UserError:
                got = []
            if len(got) != 1 or got[0][1]["id"] != pid:
                raise UserError(f"{path} line {line}: the posting {pid!r} could not be read again "
                                "(did the input change?)")
            out.append(got[0][1])
    return out


def extract_chunk(postings: list[dict[str, Any]], families: bool = True) -> list[Any]:
    """`signatures.extract.extract` of each posting (a worker task; `families`: see `extract`)."""
    from signatures.extract import extract

    return [extract(p, families) for p in postings]


def _spooled(ex: Any, hashes: np.ndarray) -> bytes:
    """One posting's `Extracted` and line hashes as spool bytes: the fields as a plain tuple (sections as
    (heading, lines) tuples; `text`, the lines joined, left out when it is that), pickled -- a third cheaper
    both ways than pickling the dataclasses."""
    from signatures.extract import Extracted

    values = [getattr(ex, f) for f in _fields(Extracted)]
    values[_SECTIONS] = tuple((sec.heading, sec.lines) for sec in ex.sections)
    if ex.text == "\n".join(ex.lines):
        values[_TEXT] = None
    return pickle.dumps((values, hashes.tobytes()), protocol=pickle.HIGHEST_PROTOCOL)


def _unspooled(blob: bytes) -> tuple[Any, np.ndarray]:
    """`_spooled` read back: (`Extracted`, line hashes), equal to what was spooled (built as pickle builds
    dataclasses: a new object and its fields, no __init__)."""
    from signatures.extract import Extracted, Section

    values, hashes = pickle.loads(blob)
    sections = []
    for heading, lines in values[_SECTIONS]:
        sec = object.__new__(Section)
        sec.__dict__.update(heading=heading, lines=lines)
        sections.append(sec)
    values[_SECTIONS] = tuple(sections)
    if values[_TEXT] is None:
        values[_TEXT] = "\n".join(values[_LINES])
    ex = object.__new__(Extracted)
    ex.__dict__.update(zip(_fields(Extracted), values, strict=True))
    return ex, np.frombuffer(hashes, np.uint64)


@lru_cache(maxsize=4)
def _fields(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_TEXT, _LINES, _SECTIONS = 2, 3, 4  # positions of Extracted.text, lines, sections (checked in tests/test_engine.py)


def _extract_task(postings: list[dict[str, Any]] | tuple[str, Mapping[str, str] | None, np.ndarray, list[str]]
                  ) -> tuple[list[bytes], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Extract postings (given, or read at `LineSpans`: path, mapping, spans, ids): their spooled `Extracted`
    and boilerplate line keys (global, scoped; job key per key)."""
    from signatures.boilerplate import line_hashes, line_keys_many

    if isinstance(postings, tuple):
        postings = _read_spans(*postings)
    exs = extract_chunk(postings, families=False)  # the Verifier's features never read ex.families
    hashes = [line_hashes(ex) for ex in exs]
    return ([_spooled(ex, h) for ex, h in zip(exs, hashes, strict=True)], *line_keys_many(exs, hashes))


_CACHE: dict[str, tuple[Any, Any]] = {}


def _verifier_for(model_dir: str) -> tuple[Any, Any]:
    """The Verifier with the boilerplate model saved in `model_dir` (memory-mapped; cached per process), and
    that model as a `decision_glue.PresetWeights` (the weights of a unit's postings are computed at once)."""
    got = _CACHE.get(model_dir)
    if got is None:
        from service import decision_glue
        from signatures.boilerplate import ArrayBoilerplate

        arrays = {k: np.load(os.path.join(model_dir, k + ".npy"), mmap_mode="r")
                  for k in ("params", "gk", "gn", "sk", "sn")}
        model = ArrayBoilerplate.from_arrays(arrays)
        weights = decision_glue.PresetWeights(lambda: model)
        got = (decision_glue.make_verifier(weights), weights)
        _CACHE.clear()
        _CACHE[model_dir] = got
    return got


def _decide_task(args: tuple[str, str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray, list[tuple[str, ...]]]:
    """Prepare one unit's postings once and decide its pairs: scores, duplicate flags (each pair by its
    language's threshold), reasons (() unless duplicate)."""
    model_dir, spool, offs, lens, a, b = args
    v, weights = _verifier_for(model_dir)
    with open(spool, "rb") as fh:
        loaded = []
        for o, n in zip(offs.tolist(), lens.tolist(), strict=True):
            fh.seek(o)
            loaded.append(_unspooled(fh.read(n)))
    exs = [ex for ex, _ in loaded]
    prepared = v.prepare_many(exs, weights.model.line_weights_many(exs, [h for _, h in loaded]))
    del loaded, exs
    scores: list[float] = []
    dup: list[bool] = []
    why: list[tuple[str, ...]] = []
    al, bl = a.tolist(), b.tolist()
    for s in range(0, len(al), DECIDE_BATCH):
        pairs = [(prepared[x], prepared[y]) for x, y in zip(al[s:s + DECIDE_BATCH], bl[s:s + DECIDE_BATCH],
                                                             strict=True)]
        for d in v.decide_many(pairs, explain_all=False):
            scores.append(d.score)
            dup.append(d.duplicate)
            why.append(d.reasons if d.duplicate else ())
    return np.asarray(scores, np.float64), np.asarray(dup, bool), why


def units(vi: np.ndarray, vj: np.ndarray, n: int, unit_rows: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(unit per pair, unit per row; -1 for rows in no pair): whole components of the pair graph packed
    into units of about `unit_rows` rows; a bigger component is cut into blocks of rows and each pair
    goes to the later block of its two rows (the earlier row is then prepared once more there);
    `unit_rows` defaults to UNIT_ROWS."""
    unit_rows = unit_rows or UNIT_ROWS
    label = component_labels(vi, vj, n)
    used = np.zeros(n, bool)
    used[vi] = True
    used[vj] = True
    rows = np.flatnonzero(used)
    order = rows[np.argsort(label[rows], kind="stable")]
    pos = np.empty(n, np.int64)
    pos[order] = np.arange(len(order))
    lab = label[order]
    start = np.ones(len(order), bool)
    start[1:] = lab[1:] != lab[:-1]
    first = np.flatnonzero(start)
    size = np.diff(np.append(first, len(order)))
    comp_start = np.repeat(first, size)
    comp_size = np.repeat(size, size)
    block = np.where(comp_size <= unit_rows, comp_start // unit_rows, np.arange(len(order)) // unit_rows)
    unit_of_row = np.full(n, -1, np.int64)
    unit_of_row[order] = block
    return np.maximum(unit_of_row[vi], unit_of_row[vj]), unit_of_row


class PairVerifier:
    """Decides candidate pairs with the Verifier: `__call__(vi, vj, est) -> accept, score, reasons`.

    `postings(rows)` yields (row, posting) for the wanted rows (any order, each once), or `postings` is a
    `LineSpans` the workers read from; `pool` runs the work (None: in this process); `progress(name, total, unit)` makes a progress bar (tqdm-like).
    The first call fits the boilerplate model on the postings of its pairs; later calls (the engine's chain
    pairs) reuse it and the spooled postings, extracting only postings not seen yet, so a pair gets the same
    score whichever call asks. `close()` (or leaving a `with` block) removes the spool."""

    def __init__(self, postings: Callable[[set[int]], Iterator[tuple[int, dict[str, Any]]]] | LineSpans, n: int,
                 pool: Pool, workers: int, progress: Callable[..., Any], timings: dict[str, float]) -> None:
        self.postings = postings
        self.n = n
        self.pool = pool
        self.ahead = max(1, workers) * 3
        self.progress = progress
        self.timings = timings
        self.work: str | None = None
        self.offs = np.zeros(n, np.int64)
        self.lens = np.zeros(n, np.int64)
        self._cleanup: Any = None

    def __enter__(self) -> PairVerifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the spooled postings and the boilerplate model."""
        if self._cleanup is not None:
            self._cleanup()
        self.work = self._cleanup = None

    def _extract(self, rows: np.ndarray, unit_of_row: np.ndarray, model: Any) -> None:
        """Extract `rows` (unit by unit) and append them to the spool; their line keys go into `model`
        (None: the model is fitted already)."""
        from service.errors import UserError

        wanted = set(rows.tolist())

        def chunks() -> Iterator[tuple[list[int], Any]]:
            src = self.postings
            if isinstance(src, LineSpans):  # the workers read them, unit by unit
                by_unit = rows[np.argsort(unit_of_row[rows], kind="stable")]
                for k in range(0, len(by_unit), EXTRACT_CHUNK):
                    part = by_unit[k:k + EXTRACT_CHUNK]
                    yield part.tolist(), (src.path, src.mapping, src.spans[part], [src.ids[r] for r in part])
                return
            got: list[int] = []
            batch: list[dict[str, Any]] = []
            for r, p in src(wanted):
                got.append(r)
                batch.append(p)
                if len(batch) >= EXTRACT_CHUNK:
                    yield got, batch
                    got, batch = [], []
            if batch:
                yield got, batch

        order: deque = deque()

        def tasks() -> Iterator[Any]:
            for got, batch in chunks():
                order.append(got)
                yield batch

        spool = os.path.join(self.work, "extracted.bin")
        with open(spool, "ab") as fh, self.progress("verify: extract", len(wanted), " postings") as bar:
            at = fh.tell()
            got = 0
            for blobs, g, gj, s, sj in imap_ordered(self.pool, _extract_task, tasks(), self.ahead):
                done = order.popleft()
                for r, blob in zip(done, blobs, strict=True):
                    fh.write(blob)
                    self.offs[r], self.lens[r] = at, len(blob)
                    at += len(blob)
                if model is not None:
                    model.add_keys(g, gj, s, sj, len(done))
                got += len(done)
                bar.update(len(done))
        if got != len(wanted):
            raise UserError(f"{len(wanted) - got} postings could not be read again (did the input change?)")

    def __call__(self, vi: np.ndarray, vj: np.ndarray, ve: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, list[tuple[str, ...]]]:
        from service import decision_glue
        from service.errors import UserError
        from signatures.boilerplate import ArrayBoilerplate

        main_verifier = decision_glue.make_verifier()
        if main_verifier is None:
            raise UserError("the verifier needs signatures.decide, which is not installed; use --fast")
        first = self.work is None
        if first:
            self.work = tempfile.mkdtemp(prefix="jobdedup-verify-")
            self._cleanup = weakref.finalize(self, shutil.rmtree, self.work, True)
        try:
            unit, unit_of_row = units(vi, vj, self.n)
            rows = np.unique(np.concatenate([vi, vj]))
            rows = rows[self.lens[rows] == 0]
            model_dir = os.path.join(self.work, "boilerplate")
            model = ArrayBoilerplate() if first else None
            if len(rows):
                self._extract(rows, unit_of_row, model)
            if model is not None:
                model.finish()
                os.mkdir(model_dir)
                for k, arr in model.arrays().items():
                    np.save(os.path.join(model_dir, k + ".npy"), arr)
                del model
            spool = os.path.join(self.work, "extracted.bin")
            scores = np.zeros(len(vi), np.float64)
            dup = np.zeros(len(vi), bool)
            why: list[tuple[str, ...]] = [()] * len(vi)
            by_unit = np.argsort(unit, kind="stable")
            cuts = np.flatnonzero(np.diff(unit[by_unit])) + 1
            groups = np.split(by_unit, cuts) if len(by_unit) else []

            def decide_tasks() -> Iterator[tuple[str, str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
                for sel in groups:
                    rows, inv = np.unique(np.concatenate([vi[sel], vj[sel]]), return_inverse=True)
                    yield model_dir, spool, self.offs[rows], self.lens[rows], inv[:len(sel)], inv[len(sel):]

            with self.progress("verify: decide", len(vi), " pairs") as bar:
                for sel, (sc, d, w) in zip(groups, imap_ordered(self.pool, _decide_task, decide_tasks(), self.ahead),
                                        strict=True):
                    scores[sel] = sc
                    dup[sel] = d
                    for k, reasons in zip(sel.tolist(), w, strict=True):
                        if reasons:
                            why[k] = reasons
                    bar.update(len(sel))
            self.timings.update({"verify_postings": int((self.lens > 0).sum()),
                                 "verify_pairs": int(self.timings.get("verify_pairs", 0)) + len(vi)})
            return dup, scores, why
        except BaseException:
            self.close()
            raise
