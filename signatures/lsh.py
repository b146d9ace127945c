"""Locality-sensitive hashing over MinHash sketches: band parameters, band keys, an in-memory index.

A sketch of num_perm slots is cut into `bands` bands of `rows` slots; two documents become candidates
when all rows of at least one band agree, which happens with probability 1 - (1 - J**rows)**bands for
Jaccard similarity J. `optimal_params` picks (bands, rows) for a similarity threshold by minimizing the
weighted area of false positives (below the threshold) and false negatives (above it), as datasketch
does. Band keys are short ASCII strings, one per band ("b07_1f0c9a3b5e6d7a80"), stored in Solr's
multi-valued `mh_bands` field so candidates are one OR query; `LSHIndex` is the same thing in memory
for the embedded mode, built on numpy arrays (sorted band hashes + binary search).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from signatures.minhash import DEFAULT_NUM_PERM, is_empty
from signatures.shingles import _constants, fmix64
from signatures.version import MINHASH

__all__ = [
    "DEFAULT_BANDS",
    "DEFAULT_ROWS",
    "DEFAULT_THRESHOLD",
    "LSHIndex",
    "band_hashes",
    "band_keys",
    "band_keys_batch",
    "candidate_probability",
    "optimal_params",
]

# Candidate threshold on estimated Jaccard (5-token shingles). Chosen low on purpose: on the labeled
# real pairs, reposts (TEMPORAL) have a median 5-shingle Jaccard of 0.53 (en), 0.69 (zh), 0.77 (ja)
# with a long tail below, and every candidate is verified afterwards; LSH is only the recall stage.
DEFAULT_THRESHOLD: float = MINHASH["lsh_threshold"]  # type: ignore[assignment]


def candidate_probability(s: np.ndarray | float, bands: int, rows: int) -> np.ndarray | float:
    """Probability that two documents with Jaccard s share at least one band: 1-(1-s^r)^b."""
    return 1.0 - (1.0 - np.power(s, rows)) ** bands


@lru_cache(maxsize=256)
def optimal_params(
    threshold: float,
    num_perm: int = DEFAULT_NUM_PERM,
    false_positive_weight: float = 0.5,
    false_negative_weight: float = 0.5,
) -> tuple[int, int]:
    """(bands, rows) with bands*rows <= num_perm minimizing
    fp_weight * integral_0^t P(s) ds + fn_weight * integral_t^1 (1 - P(s)) ds.

    Integrals are trapezoid sums on a fixed grid; errors are rounded to 1e-9 and ties go to fewer
    bands, so the choice is the same on every machine.
    """
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must be in (0, 1), got {threshold!r}")
    if not isinstance(num_perm, int) or num_perm < 1:
        raise ValueError(f"num_perm must be a positive integer, got {num_perm!r}")
    if false_positive_weight < 0 or false_negative_weight < 0 or false_positive_weight + false_negative_weight <= 0:
        raise ValueError("weights must be non-negative and not both zero")
    pairs = np.array([(b, r) for b in range(1, num_perm + 1) for r in range(1, num_perm // b + 1)])
    b = pairs[:, 0:1].astype(np.float64)
    r = pairs[:, 1:2].astype(np.float64)
    lo = np.linspace(0.0, threshold, 1001)[None, :]
    hi = np.linspace(threshold, 1.0, 1001)[None, :]
    fp = np.trapezoid(1.0 - (1.0 - lo**r) ** b, lo, axis=1)
    fn = np.trapezoid((1.0 - hi**r) ** b, hi, axis=1)
    err = np.round(false_positive_weight * fp + false_negative_weight * fn, 9)
    best = np.lexsort((pairs[:, 1], pairs[:, 0], err))[0]
    return int(pairs[best, 0]), int(pairs[best, 1])


# Recorded in signatures/version.py (a change there is a SIG_VERSION change); tests check that they
# are optimal_params(DEFAULT_THRESHOLD, DEFAULT_NUM_PERM).
DEFAULT_BANDS: int = MINHASH["lsh_bands"]  # type: ignore[assignment]
DEFAULT_ROWS: int = MINHASH["lsh_rows"]  # type: ignore[assignment]

_BAND_MUL = _constants(0x42414E44, 64)  # per-row multipliers ("BAND")
_BAND_TAG = _constants(0x42544147, 1024, odd=False)  # per-band tags


def band_hashes(sketches: np.ndarray, bands: int = DEFAULT_BANDS, rows: int = DEFAULT_ROWS) -> np.ndarray:
    """64-bit hash of every band of every sketch: uint64 array (n, bands) (or (bands,) for one sketch).

    Band j covers slots [j*rows, (j+1)*rows); its hash is fmix64(sum_i slot_i * M_i xor T_j) in
    wrapping uint64 arithmetic with fixed constants, so it is the same on every machine.
    """
    s = np.asarray(sketches)
    if s.dtype != np.uint64:
        raise TypeError(f"sketches must be uint64, got {s.dtype}")
    one = s.ndim == 1
    s = s[None, :] if one else s
    if s.ndim != 2:
        raise ValueError(f"sketches must be 1-D or 2-D, got shape {s.shape}")
    if bands < 1 or rows < 1 or bands * rows > s.shape[1]:
        raise ValueError(f"{bands} bands x {rows} rows do not fit sketches of {s.shape[1]} slots")
    if rows > _BAND_MUL.shape[0] or bands > _BAND_TAG.shape[0]:
        raise ValueError("at most 64 rows per band and 1024 bands")
    x = s[:, : bands * rows].reshape(s.shape[0], bands, rows)
    acc = x[:, :, 0] * _BAND_MUL[0]
    for i in range(1, rows):
        acc += x[:, :, i] * _BAND_MUL[i]
    acc ^= _BAND_TAG[:bands][None, :]
    out = fmix64(acc)
    return out[0] if one else out


def band_keys(sketch: np.ndarray, bands: int = DEFAULT_BANDS, rows: int = DEFAULT_ROWS) -> list[str]:
    """Band keys of one sketch for Solr's `mh_bands`: ["b00_<16 hex>", "b01_…", …].

    An EMPTY sketch (no shingles) has no keys: empty documents are not candidates of each other.
    """
    s = np.asarray(sketch)
    if s.ndim != 1:
        raise ValueError("band_keys takes one sketch (1-D); use band_keys_batch for many")
    return band_keys_batch(s[None, :], bands, rows)[0]


def band_keys_batch(sketches: np.ndarray, bands: int = DEFAULT_BANDS, rows: int = DEFAULT_ROWS) -> list[list[str]]:
    """Band keys of many sketches (one list per sketch; [] for EMPTY sketches)."""
    h = band_hashes(np.asarray(sketches), bands, rows)
    empty = np.atleast_1d(is_empty(sketches))
    names = [f"b{j:02d}_" for j in range(bands)]
    return [
        [] if e else [f"{n}{v:016x}" for n, v in zip(names, row, strict=True)]
        for e, row in zip(empty.tolist(), h.tolist(), strict=True)
    ]


def _expand(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated ranges [starts[i], starts[i] + counts[i]), vectorized."""
    total = int(counts.sum())
    return np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(starts, counts)


class LSHIndex:
    """In-memory LSH index over numpy arrays: `insert` sketches in batches, `query` candidates for a
    batch, or list all `candidate_pairs` among the inserted documents.

    Storage is one (n, bands) uint64 array of band hashes plus, per band, a sorted copy and its order
    (rebuilt lazily after inserts), so memory is ~24 bytes per document and band.
    """

    def __init__(self, bands: int = DEFAULT_BANDS, rows: int = DEFAULT_ROWS) -> None:
        if bands < 1 or rows < 1:
            raise ValueError("bands and rows must be positive")
        self.bands = bands
        self.rows = rows
        self._chunks: list[np.ndarray] = []  # band hashes per insert batch
        self._ids: list[np.ndarray] = []
        self._live: list[np.ndarray] = []  # False for EMPTY sketches (never candidates)
        self._n = 0
        self._sorted: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return self._n

    def insert(self, sketches: np.ndarray, ids: np.ndarray | None = None) -> np.ndarray:
        """Add sketches (n, num_perm); ids default to insertion positions. Returns the ids used."""
        s = np.asarray(sketches)
        if s.ndim != 2:
            raise ValueError(f"insert takes a 2-D array of sketches, got shape {s.shape}")
        h = band_hashes(s, self.bands, self.rows)
        if ids is None:
            ids_arr = np.arange(self._n, self._n + s.shape[0], dtype=np.int64)
        else:
            ids_arr = np.asarray(ids, dtype=np.int64)
            if ids_arr.shape != (s.shape[0],):
                raise ValueError(f"need one id per sketch: {ids_arr.shape} ids for {s.shape[0]} sketches")
        self._chunks.append(h)
        self._ids.append(ids_arr)
        self._live.append(~np.atleast_1d(is_empty(s)))
        self._n += s.shape[0]
        self._sorted = None
        return ids_arr

    def _build(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if self._sorted is None:
            if self._chunks:
                h = np.concatenate(self._chunks)
                ids = np.concatenate(self._ids)
                live = np.concatenate(self._live)
                self._chunks, self._ids, self._live = [h], [ids], [live]
            else:
                h = np.empty((0, self.bands), dtype=np.uint64)
                ids = np.empty(0, dtype=np.int64)
                live = np.empty(0, dtype=bool)
            pos = np.flatnonzero(live)
            order = pos[np.argsort(h[pos], axis=0, kind="stable")]  # (live, bands): positions sorted per band
            keys = np.take_along_axis(h, order, axis=0) if order.size else np.empty((0, self.bands), np.uint64)
            self._sorted = (h, ids, order, keys)
        return self._sorted

    def _matches(self, qh: np.ndarray, qlive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(query row, stored position) for every band collision, deduplicated."""
        _, _, order, keys = self._build()
        out_q, out_p = [], []
        qrows = np.flatnonzero(qlive)
        for j in range(self.bands):
            col = keys[:, j]
            lo = np.searchsorted(col, qh[qrows, j], side="left")
            hi = np.searchsorted(col, qh[qrows, j], side="right")
            cnt = hi - lo
            if not cnt.any():
                continue
            out_q.append(np.repeat(qrows, cnt))
            out_p.append(order[_expand(lo, cnt), j])
        if not out_q:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        key = (np.concatenate(out_q).astype(np.int64) << 32) | np.concatenate(out_p).astype(np.int64)
        key = np.unique(key)
        return key >> 32, key & 0xFFFFFFFF

    def query(self, sketches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Candidates for a batch of sketches: (query_row, id) arrays, one entry per distinct pair,
        sorted by query row. EMPTY query sketches get no candidates."""
        s = np.asarray(sketches)
        if s.ndim != 2:
            raise ValueError(f"query takes a 2-D array of sketches, got shape {s.shape}")
        if s.shape[0] >= 1 << 31:
            raise ValueError("query at most 2**31 sketches at a time")
        qh = band_hashes(s, self.bands, self.rows)
        q, p = self._matches(qh, ~np.atleast_1d(is_empty(s)))
        _, ids, _, _ = self._build()
        return q, ids[p]

    def candidate_pairs(self) -> np.ndarray:
        """All candidate pairs among the inserted documents: int64 array (m, 2) of ids, first
        column from the earlier-inserted document, each pair once."""
        _, ids, order, keys = self._build()
        if self._n >= 1 << 31:
            raise ValueError("candidate_pairs supports up to 2**31 documents")
        found = []
        for j in range(self.bands):
            col = keys[:, j]
            same = np.flatnonzero(col[1:] == col[:-1])  # i and i+1 share the bucket
            if not same.size:
                continue
            # Buckets with >= 2 members, as runs [start, end) of the sorted column.
            brk = np.flatnonzero(np.diff(same) != 1)
            run_start = np.concatenate([same[:1], same[brk + 1]])
            run_end = np.concatenate([same[brk], same[-1:]]) + 2
            size = run_end - run_start
            members = _expand(run_start, size)
            run_of = np.repeat(np.arange(run_start.size), size)
            later = run_end[run_of] - members - 1  # members after this one in its bucket
            first = np.repeat(members, later)
            second = _expand(members + 1, later)
            a, b = order[first, j], order[second, j]
            found.append((np.minimum(a, b).astype(np.int64) << 32) | np.maximum(a, b).astype(np.int64))
        if not found:
            return np.empty((0, 2), dtype=np.int64)
        key = np.unique(np.concatenate(found))
        return np.stack([ids[key >> 32], ids[key & 0xFFFFFFFF]], axis=1)
