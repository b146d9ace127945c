"""Boilerplate suppression learned from the corpus.

A line (paragraph, list item) is boilerplate when it recurs across postings for *different jobs* of
one company, site or platform: company blurbs, benefits, EEO statements, platform intros, application
instructions. Reposts of one job repeat every line too, so a line counts as boilerplate only when the
postings holding it carry at least `min_jobs` distinct job keys (normalized title / role set).
The model is a table of (scope, line hash) -> job keys seen, per company, per site and global; it is
serialized with the index (`to_bytes` / `from_bytes`). Pure computation, no I/O.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import orjson
import xxhash

from signatures.extract import Extracted, extract, line_cache, normalize_line

__all__ = ["ArrayBoilerplate", "BoilerplateModel", "LearningRecord", "StackedBoilerplate", "check_record", "company_key", "job_key",
           "learning_record", "line_hash", "line_hashes", "line_keys", "line_keys_many"]

_FORMAT = 1
_CAP = 8  # job keys remembered per (scope, line): enough to tell "many" from "few"
_MIN_LINE_CHARS = 6
_DIGITS_RE = re.compile(r"\d+")
_CORP_RE = re.compile(
    r"\b(inc|llc|ltd|gmbh|corp|co|company|labs?|technologies|technology|ai|hq|limited|s a|ag|bv|pte)\b"
)


@line_cache
def line_hash(line: str) -> int:
    """Stable 64-bit hash of a line's normalized form (0 when the line is too short to matter)."""
    norm = normalize_line(line)
    if len(norm.replace(" ", "")) < _MIN_LINE_CHARS:
        return 0
    return xxhash.xxh64_intdigest(norm.encode("utf-8"))


@line_cache
def company_key(company: str) -> str:
    """Normalized employer name (legal suffixes dropped) used to scope boilerplate and compare employers."""
    c = normalize_line(company)
    c = _CORP_RE.sub(" ", c)
    return " ".join(c.split())


def job_key(ex: Extracted) -> int:
    """Which job a posting is about, coarsely: its normalized title (digits dropped, so salary edits in a
    title don't count as another job), else its roles, else its first line."""
    basis = ex.title or " ".join(sorted(ex.roles)) or (ex.lines[0] if ex.lines else ex.id)
    norm = _DIGITS_RE.sub("", normalize_line(basis)).replace(" ", "")
    return xxhash.xxh64_intdigest(norm.encode("utf-8")) & 0x7FFFFFFFFFFFFFFF


def _line_hashes(ex: Extracted) -> set[int]:
    return {h for h in (line_hash(ln) for ln in ex.lines) if h}


def _scope_hash(scope: str) -> int:
    return xxhash.xxh64_intdigest(scope.encode("utf-8"), seed=1)


def _scopes(ex: Extracted) -> list[str]:
    scopes = ["*"]
    ck = company_key(ex.company)
    if ck:
        scopes.append("c:" + ck)
    if ex.site:
        scopes.append("s:" + ex.site)
    return scopes


#: What the model counts of one posting: (job key, scopes, distinct line hashes).
LearningRecord = tuple[int, list[str], list[int]]


def learning_record(posting: Mapping[str, Any] | Extracted) -> LearningRecord:
    """What `BoilerplateModel.add` counts of a posting, small enough to journal: (job key, scopes,
    sorted distinct line hashes)."""
    ex = posting if isinstance(posting, Extracted) else extract(posting)
    return job_key(ex), _scopes(ex), sorted(_line_hashes(ex))


def check_record(record: Any) -> LearningRecord:
    """`record` as a LearningRecord; ValueError when it has another shape (e.g. a torn journal line)."""
    if not (isinstance(record, list | tuple) and len(record) == 3 and _is_u64(record[0])
            and isinstance(record[1], list) and all(isinstance(s, str) for s in record[1])
            and isinstance(record[2], list) and all(_is_u64(h) for h in record[2])):
        raise ValueError("not a boilerplate learning record")
    return record[0], record[1], record[2]


def _is_u64(v: Any) -> bool:
    return type(v) is int and 0 <= v < 1 << 64


def _is_int(v: Any, lo: int) -> bool:
    return type(v) is int and v >= lo


class BoilerplateModel:
    """Paragraph-hash frequencies per company / site / globally, learned from postings."""

    def __init__(self, min_jobs: int = 3, global_min_jobs: int = 6, weight: float = 0.1) -> None:
        if min_jobs < 2 or global_min_jobs < 2:
            raise ValueError("min_jobs and global_min_jobs must be >= 2")
        if not 0.0 <= weight <= 1.0:
            raise ValueError("weight must be in [0, 1]")
        self.min_jobs = min_jobs
        self.global_min_jobs = global_min_jobs
        self.weight = weight
        self._table: dict[str, dict[int, set[int]]] = {}
        self.postings = 0

    # ------------------------------------------------------------------ learning
    @classmethod
    def fit(cls, postings: Iterable[Mapping[str, Any] | Extracted], **kwargs: Any) -> BoilerplateModel:
        """Learn line frequencies from postings (raw mappings or `Extracted`)."""
        model = cls(**kwargs)
        for p in postings:
            model.add(p)
        return model

    def add(self, posting: Mapping[str, Any] | Extracted) -> None:
        """Count one more posting (incremental: the service adds postings as they are indexed)."""
        self.add_record(learning_record(posting))

    def add_record(self, record: LearningRecord) -> None:
        """Count one more posting given as its `learning_record` (what a state journal keeps)."""
        jk, scopes, hashes = record
        for scope in scopes:
            table = self._table.setdefault(scope, {})
            for h in hashes:
                keys = table.get(h)
                if keys is None:
                    table[h] = {jk}
                elif len(keys) < _CAP:
                    keys.add(jk)
        self.postings += 1

    # ------------------------------------------------------------------ use
    def jobs_with_line(self, ex: Extracted, line: str) -> int:
        """Most distinct job keys seen with `line` in any of the posting's scopes, scaled so
        global counts compare with the per-company threshold."""
        return self._jobs_in(self._scope_tables(ex), line)

    def _layers(self) -> Sequence[BoilerplateModel]:
        """The models whose counts this one answers with (`StackedBoilerplate`: several)."""
        return (self,)

    def _scope_tables(self, ex: Extracted) -> list[tuple[str, list[dict[int, set[int]]]]]:
        """The posting's scopes that hold any line, with their tables (one per layer that has the scope)."""
        layers = self._layers()
        return [(s, ts) for s in _scopes(ex) if (ts := [t for m in layers if (t := m._table.get(s))])]

    def _jobs_in(self, tables: list[tuple[str, list[dict[int, set[int]]]]], line: str) -> int:
        h = line_hash(line)
        if not h:
            return 0
        best = 0
        for scope, ts in tables:
            if len(ts) == 1:
                keys = ts[0].get(h)
                n = len(keys) if keys else 0
            else:  # the job keys of every layer, capped as one model that counted them all would hold them
                found = [keys for t in ts if (keys := t.get(h))]
                n = 0 if not found else len(found[0]) if len(found) == 1 else min(len(set().union(*found)), _CAP)
            if n:
                if scope == "*" and self.global_min_jobs != self.min_jobs:
                    n = n * self.min_jobs // self.global_min_jobs
                best = max(best, n)
        return best

    def line_weights(self, ex: Extracted, hashes: np.ndarray | None = None) -> np.ndarray:
        """Weight per line of `ex.lines`: `weight` for boilerplate lines, 1.0 for the rest (the posting's
        scopes looked up once, not per line; `hashes`: its `line_hashes`, when already computed)."""
        out = np.ones(len(ex.lines), dtype=np.float32)
        tables = self._scope_tables(ex)
        if not tables:
            return out
        hashes = list(map(line_hash, ex.lines)) if hashes is None else hashes.tolist()
        boiler = [False] * len(hashes)
        for scope, ts in tables:  # `_jobs_in(...) >= min_jobs` per scope, for every line at once
            # a global count n counts as n * min_jobs // global_min_jobs: at least min_jobs when n >= global_min_jobs
            least = self.global_min_jobs if scope == "*" else self.min_jobs
            if len(ts) == 1:
                get = ts[0].get
                got = [(keys := get(h)) is not None and len(keys) >= least for h in hashes]
                boiler = [b or x for b, x in zip(boiler, got, strict=True)]
            else:  # the job keys of every layer united (capped): only counted when the larger layer is not enough
                _stacked_boiler(ts, hashes, least, boiler)
        hit = [i for i, (b, h) in enumerate(zip(boiler, hashes, strict=True)) if b and h]
        if hit:
            out[hit] = self.weight
        return out

    def boilerplate_lines(self, ex: Extracted) -> list[str]:
        """The lines of `ex` this model treats as boilerplate."""
        w = self.line_weights(ex)
        return [ln for ln, x in zip(ex.lines, w, strict=True) if x < 1.0]

    def job_text(self, posting: Mapping[str, Any] | Extracted) -> str:
        """The main text without its boilerplate lines: what profile signatures and shingles of the job
        itself should see (falls back to the full text when every line is boilerplate)."""
        ex = posting if isinstance(posting, Extracted) else extract(posting)
        w = self.line_weights(ex)
        kept = [ln for ln, x in zip(ex.lines, w, strict=True) if x >= 1.0]
        return "\n".join(kept) if kept else ex.text

    def __len__(self) -> int:
        return sum(len(t) for t in self._table.values())

    # ------------------------------------------------------------------ persistence
    def to_bytes(self) -> bytes:
        """Compact serialization (zlib-compressed JSON) to store next to the index."""
        doc = {
            "format": _FORMAT,
            "min_jobs": self.min_jobs,
            "global_min_jobs": self.global_min_jobs,
            "weight": self.weight,
            "postings": self.postings,
            "table": {
                scope: [[h, sorted(keys)] for h, keys in t.items()] for scope, t in self._table.items()
            },
        }
        # level 1: ~5x faster than 6 for ~15% more bytes (the service saves it every 30 s while it indexes)
        return b"JDBP" + zlib.compress(orjson.dumps(doc), 1)

    @classmethod
    def from_bytes(cls, data: bytes) -> BoilerplateModel:
        """Inverse of `to_bytes`; raises ValueError on data that is not a serialized model."""
        if not isinstance(data, bytes | bytearray) or data[:4] != b"JDBP":
            raise ValueError("not a serialized BoilerplateModel")
        try:
            doc = orjson.loads(zlib.decompress(data[4:]))
        except (zlib.error, orjson.JSONDecodeError) as exc:
            raise ValueError(f"corrupt BoilerplateModel data: {exc}") from exc
        if not isinstance(doc, dict) or doc.get("format") != _FORMAT:
            raise ValueError(f"unsupported BoilerplateModel format "
                             f"{doc.get('format') if isinstance(doc, dict) else type(doc).__name__!r}")
        table = doc.get("table")
        weight = doc.get("weight")
        if not (_is_int(doc.get("min_jobs"), 2) and _is_int(doc.get("global_min_jobs"), 2)
                and _is_int(doc.get("postings"), 0) and type(weight) in (int, float) and 0.0 <= weight <= 1.0
                and isinstance(table, dict)):
            raise ValueError("malformed BoilerplateModel: min_jobs, global_min_jobs, postings, weight or table")
        model = cls(doc["min_jobs"], doc["global_min_jobs"], float(weight))
        model.postings = doc["postings"]
        for scope, rows in table.items():
            if not isinstance(rows, list):
                raise ValueError(f"malformed BoilerplateModel table for scope {scope[:40]!r}")
            t = model._table[scope] = {}
            for row in rows:
                if not (isinstance(row, list) and len(row) == 2 and _is_u64(row[0]) and isinstance(row[1], list)
                        and all(_is_u64(k) for k in row[1])):
                    raise ValueError(f"malformed BoilerplateModel row in scope {scope[:40]!r}")
                t[row[0]] = set(row[1])
        return model



def _stacked_boiler(ts: list[dict[int, set[int]]], hashes: list[int], least: int, boiler: list[bool]) -> None:
    """Mark in `boiler` the lines whose hash has at least `least` job keys in one scope's tables of several
    layers, united (capped at _CAP): a layer alone when it is enough, the union only when it is not. Lines
    already marked (another scope) are not looked up again."""
    gets = [t.get for t in ts]
    for i, h in enumerate(hashes):
        if boiler[i] or not h:  # an unmarked line of hash 0 is never boilerplate
            continue
        found = [keys for g in gets if (keys := g(h))]
        if found and (max(map(len, found)) >= least or (
                len(found) > 1 and min(len(set().union(*found)), _CAP) >= least)):
            boiler[i] = True


class StackedBoilerplate(BoilerplateModel):
    """The line weights of a model that counted the postings of every layer (`BoilerplateModel`s with the same
    parameters), without copying them: e.g. the service's collection model plus the postings it is deciding
    now, so a posting is judged with its own and its batch's lines counted, as `jobdedup dedup` judges it."""

    def __init__(self, *layers: BoilerplateModel) -> None:
        if not layers or any(isinstance(m, ArrayBoilerplate) for m in layers):
            raise ValueError("StackedBoilerplate needs one or more dict-table BoilerplateModels")
        first = layers[0]
        super().__init__(first.min_jobs, first.global_min_jobs, first.weight)
        self.layers = layers
        self.postings = sum(m.postings for m in layers)

    def _layers(self) -> Sequence[BoilerplateModel]:
        return self.layers

    def add_record(self, record: LearningRecord) -> None:
        raise TypeError("a StackedBoilerplate is read-only: add to one of its layers (add_to_top)")

    def add_to_top(self, record: LearningRecord) -> list[tuple[str, int]]:
        """Count one more posting into the last layer; returns the (scope, line hash) whose boilerplate status
        changed (a posting's line weights change only where one of its scopes and lines is among them)."""
        jk, scopes, hashes = record
        top, below = self.layers[-1], self.layers[:-1]
        scaled = self.global_min_jobs != self.min_jobs
        changed: list[tuple[str, int]] = []
        for scope in scopes:
            table = top._table.setdefault(scope, {})
            lower = [t for m in below if (t := m._table.get(scope))]
            need = self.global_min_jobs if scope == "*" and scaled else self.min_jobs
            for h in hashes:
                keys = table.get(h)
                if keys is None:
                    keys = table[h] = set()
                elif len(keys) >= _CAP or jk in keys:
                    continue
                found = [k for t in lower if (k := t.get(h))]
                if found:  # united once: adding jk grows the union by one unless a lower layer has it
                    united = keys.union(*found)
                    before, after = min(len(united), _CAP), min(len(united) + (jk not in united), _CAP)
                else:
                    before = len(keys)
                    after = before + 1
                keys.add(jk)
                if before < need <= after:
                    changed.append((scope, h))
        top.postings += 1
        self.postings += 1
        return changed

    def __len__(self) -> int:
        return sum(len(m) for m in self.layers)

    def to_bytes(self) -> bytes:
        raise TypeError("a StackedBoilerplate is a view: save its layers")

def line_hashes(ex: Extracted) -> np.ndarray:
    """`line_hash` of each of the posting's lines, in order (uint64; 0 for lines too short to matter)."""
    return np.array([line_hash(ln) for ln in ex.lines], dtype=np.uint64)


def line_keys(ex: Extracted, hashes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """What `BoilerplateModel.add` counts for one posting, as arrays: (its line hashes (global scope),
    the same hashes mixed with its company / site scopes, its job key); `hashes`: its `line_hashes`."""
    hashes = line_hashes(ex) if hashes is None else hashes
    glob = np.unique(hashes[hashes != 0])
    scoped = [glob ^ np.uint64(_scope_hash(s)) for s in _scopes(ex)[1:]]
    return glob, np.concatenate(scoped) if scoped else np.zeros(0, np.uint64), job_key(ex)


def line_keys_many(exs: Sequence[Extracted], hashes: Sequence[np.ndarray]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`line_keys` of many postings at once, concatenated, each key with its posting's job key: (global keys,
    their job keys, scoped keys, their job keys) -- what `ArrayBoilerplate.add_keys` counts; the same keys
    (per posting in another order, which counting ignores) with a few array operations per batch."""
    lens = np.array([len(h) for h in hashes], np.int64)
    h = np.concatenate(hashes) if len(hashes) else np.zeros(0, np.uint64)
    post = np.repeat(np.arange(len(hashes)), lens)
    keep = h != 0
    h, post = h[keep], post[keep]
    order = np.lexsort((h, post))
    h, post = h[order], post[order]
    first = np.ones(len(h), bool)
    first[1:] = (h[1:] != h[:-1]) | (post[1:] != post[:-1])
    glob, gpost = h[first], post[first]
    jobs = np.array([job_key(ex) for ex in exs], np.uint64)
    scopes = [_scopes(ex)[1:] for ex in exs]
    sk, sp = [], []
    for slot in range(max(map(len, scopes), default=0)):
        has = np.array([len(sc) > slot for sc in scopes], bool)
        mix = np.array([_scope_hash(sc[slot]) if len(sc) > slot else 0 for sc in scopes], np.uint64)
        sel = has[gpost]
        sk.append(glob[sel] ^ mix[gpost[sel]])
        sp.append(gpost[sel])
    scoped = np.concatenate(sk) if sk else np.zeros(0, np.uint64)
    spost = np.concatenate(sp) if sp else np.zeros(0, np.int64)
    return glob, jobs[gpost], scoped, jobs[spost]


class _KeyCounts:
    """(line key, job key) pairs, at most _CAP job keys per line key, reduced in steps (sorted arrays)."""

    _STEP = 4_000_000  # pending pairs before a reduction

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.uint64)
        self.jobs = np.zeros(0, np.uint64)
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._n = 0
        self.counts: np.ndarray | None = None  # per distinct key, after `finish`

    def add(self, keys: np.ndarray, jobs: np.ndarray) -> None:
        self._pending.append((keys, jobs))
        self._n += len(keys)
        if self._n >= self._STEP:
            self._reduce()

    def _reduce(self) -> None:
        k = np.concatenate([self.keys, *(p[0] for p in self._pending)])
        j = np.concatenate([self.jobs, *(p[1] for p in self._pending)])
        self._pending, self._n = [], 0
        order = np.lexsort((j, k))
        k, j = k[order], j[order]
        new_key = np.ones(len(k), bool)
        new_key[1:] = k[1:] != k[:-1]
        keep = new_key.copy()
        keep[1:] |= j[1:] != j[:-1]
        k, j, new_key = k[keep], j[keep], new_key[keep]
        start = np.flatnonzero(new_key)
        rank = np.arange(len(k)) - np.repeat(start, np.diff(np.append(start, len(k))))
        keep = rank < _CAP
        self.keys, self.jobs = k[keep], j[keep]

    def finish(self) -> None:
        self._reduce()
        self.keys, first, self.counts = np.unique(self.keys, return_index=True, return_counts=True)
        self.jobs = np.zeros(0, np.uint64)
        self.counts = self.counts.astype(np.uint8)

    def lookup(self, q: np.ndarray) -> np.ndarray:
        assert self.counts is not None, "finish() first"
        if not len(self.keys):
            return np.zeros(len(q), np.int64)
        idx = np.minimum(np.searchsorted(self.keys, q), len(self.keys) - 1)
        return np.where(self.keys[idx] == q, self.counts[idx], 0).astype(np.int64)


class ArrayBoilerplate(BoilerplateModel):
    """The same model as `BoilerplateModel` (same line weights), held as sorted arrays instead of a dict of
    sets: ~16 bytes per (line, job) instead of ~4 KB per posting, so millions of postings fit. Learn with
    `add` / `add_keys` (e.g. `line_keys` computed in worker processes), then `finish()` before use."""

    def __init__(self, min_jobs: int = 3, global_min_jobs: int = 6, weight: float = 0.1) -> None:
        super().__init__(min_jobs, global_min_jobs, weight)
        self._glob = _KeyCounts()
        self._scoped = _KeyCounts()

    def add(self, posting: Mapping[str, Any] | Extracted) -> None:
        ex = posting if isinstance(posting, Extracted) else extract(posting)
        glob, scoped, jk = line_keys(ex)
        self.add_keys(glob, np.full(len(glob), jk, np.uint64), scoped, np.full(len(scoped), jk, np.uint64), 1)

    def add_record(self, record: LearningRecord) -> None:
        jk, scopes, hashes = record
        glob = np.array(hashes, np.uint64)
        scoped = np.concatenate([glob ^ np.uint64(_scope_hash(s)) for s in scopes if s != "*"] or
                                [np.zeros(0, np.uint64)])
        self.add_keys(glob, np.full(len(glob), jk, np.uint64), scoped, np.full(len(scoped), jk, np.uint64), 1)

    def add_keys(self, glob: np.ndarray, glob_jobs: np.ndarray, scoped: np.ndarray, scoped_jobs: np.ndarray,
                 postings: int) -> None:
        """Count `postings` postings given as their `line_keys`, concatenated, each key with its job key."""
        self._glob.add(glob, glob_jobs)
        self._scoped.add(scoped, scoped_jobs)
        self.postings += postings

    def finish(self) -> ArrayBoilerplate:
        """Reduce what was added to per-line counts (call once, after the last `add`)."""
        self._glob.finish()
        self._scoped.finish()
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The finished model as arrays (np.savez; `from_arrays` reads them back, e.g. memory-mapped)."""
        return {"params": np.array([self.min_jobs, self.global_min_jobs, self.weight, self.postings], np.float64),
                "gk": self._glob.keys, "gn": self._glob.counts, "sk": self._scoped.keys, "sn": self._scoped.counts}

    @classmethod
    def from_arrays(cls, arr: Mapping[str, np.ndarray]) -> ArrayBoilerplate:
        mj, gmj, w, n = arr["params"].tolist()
        model = cls(int(mj), int(gmj), float(w))
        model.postings = int(n)
        model._glob.keys, model._glob.counts = arr["gk"], arr["gn"]
        model._scoped.keys, model._scoped.counts = arr["sk"], arr["sn"]
        return model

    def _jobs(self, ex: Extracted, hashes: np.ndarray) -> np.ndarray:
        n = self._glob.lookup(hashes)
        if self.global_min_jobs != self.min_jobs:
            n = n * self.min_jobs // self.global_min_jobs
        for scope in _scopes(ex)[1:]:
            n = np.maximum(n, self._scoped.lookup(hashes ^ np.uint64(_scope_hash(scope))))
        n[hashes == 0] = 0
        return n

    def jobs_with_line(self, ex: Extracted, line: str) -> int:
        return int(self._jobs(ex, np.array([line_hash(line)], np.uint64))[0])

    def line_weights_many(self, exs: Sequence[Extracted], hashes: Sequence[np.ndarray]) -> list[np.ndarray]:
        """`line_weights` of many postings (`hashes`: their `line_hashes`) with one array lookup per scope
        slot for all of them instead of a few per posting; the same weights."""
        lens = [len(h) for h in hashes]
        h = np.concatenate(hashes) if hashes else np.zeros(0, np.uint64)
        n = self._glob.lookup(h)
        if self.global_min_jobs != self.min_jobs:
            n = n * self.min_jobs // self.global_min_jobs
        scopes = [_scopes(ex)[1:] for ex in exs]
        for slot in range(max(map(len, scopes), default=0)):
            has = np.repeat(np.array([len(s) > slot for s in scopes], bool), lens)
            sc = np.repeat(np.array([_scope_hash(s[slot]) if len(s) > slot else 0 for s in scopes], np.uint64), lens)
            n[has] = np.maximum(n[has], self._scoped.lookup(h[has] ^ sc[has]))
        n[h == 0] = 0
        w = np.where(n >= self.min_jobs, self.weight, 1.0).astype(np.float32)
        return np.split(w, np.cumsum(lens)[:-1]) if lens else []

    def line_weights(self, ex: Extracted, hashes: np.ndarray | None = None) -> np.ndarray:
        """Weight per line of `ex.lines` (`hashes`: its `line_hashes`, when already computed)."""
        hashes = line_hashes(ex) if hashes is None else hashes
        return np.where(self._jobs(ex, hashes) >= self.min_jobs, self.weight, 1.0).astype(np.float32)

    def __len__(self) -> int:
        return len(self._glob.keys) + len(self._scoped.keys)

    def to_bytes(self) -> bytes:
        raise TypeError("ArrayBoilerplate is not serialized with to_bytes; use arrays()")
