"""MinHash sketches by one-permutation hashing with optimal densification, vectorized over batches.

Why one permutation: classic MinHash applies M hash functions to every shingle (M x S work per
document); one-permutation hashing (OPH) hashes each shingle once, splits the 64-bit hash space into
M bins and keeps the minimum per bin (S + M work). Bins that no shingle fell into are filled by
*optimal densification* (Shrivastava, ICML 2017): empty bin i probes bins h(i, 1), h(i, 2), ... with
a fixed, document-independent hash sequence and copies the first non-empty bin's value. Two sketches
agree on a slot with probability equal to the Jaccard similarity, and the estimate error is at least
as good as M independent permutations (measured in benchmarks/bench_minhash.py).

A sketch is `np.ndarray[uint64]` of length num_perm; a batch is shape (n, num_perm). A document with
no shingles (empty text) gets the EMPTY sketch (every slot 2**64-1); its estimated similarity to
anything, including another empty document, is 0.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np

from signatures.shingles import DEFAULT_K, DEFAULT_SEED, Shingler, _constants, fmix64
from signatures.version import MINHASH

__all__ = [
    "DEFAULT_NUM_PERM",
    "EMPTY_VALUE",
    "MinHasher",
    "decode_sketch",
    "encode_sketch",
    "is_empty",
    "jaccard",
    "jaccard_matrix",
    "jaccard_one_vs_many",
    "jaccard_pairs",
]

DEFAULT_NUM_PERM: int = MINHASH["num_perm"]  # type: ignore[assignment]
EMPTY_VALUE = np.uint64(0xFFFFFFFFFFFFFFFF)
_U64 = np.uint64
_FIRST_PROBES = 8  # probes tried at once first (enough for nearly every empty bin of a normal text)
_PROBE_BLOCK = 32  # probes per vectorized step after that (short texts with few filled bins)
_PROBE_LIMIT = 1 << 14  # probes per empty bin before the deterministic fallback (never reached in practice)
_BATCH = 256  # documents per internal chunk: keeps temporaries in cache (measured fastest)


def _bins(h: np.ndarray, m: int) -> np.ndarray:
    """Bin of each 64-bit hash: floor(top32(h) * m / 2**32), uniform for any m < 2**32."""
    return ((h >> _U64(32)) * _U64(m)) >> _U64(32)


class MinHasher:
    """Sketches texts or token lists: `sketch(doc)` -> (num_perm,), `sketch_batch(docs)` -> (n, num_perm).

    Parameters (num_perm, k, seed) fully determine the output on every machine; they belong in
    SIG_VERSION (see signatures/version.py).
    """

    def __init__(self, num_perm: int = DEFAULT_NUM_PERM, seed: int = DEFAULT_SEED, k: int = DEFAULT_K) -> None:
        if not isinstance(num_perm, int) or not 2 <= num_perm < 1 << 31:
            raise ValueError(f"num_perm must be an integer in [2, 2**31), got {num_perm!r}")
        self.num_perm = num_perm
        self.seed = seed
        self.k = k
        self.shingler = Shingler(k=k, seed=seed)
        c1, c2, c3 = (int(x) for x in _constants(seed ^ 0x44454E5345, 3))
        self._probe_c1 = _U64(c1)
        self._probe_c2, self._probe_c3 = c2, c3
        self._probe_table = self._probe_block(1, _FIRST_PROBES)
        self._probe_cache: dict[int, np.ndarray] = {}  # later blocks, by first attempt

    def __repr__(self) -> str:
        return f"MinHasher(num_perm={self.num_perm}, seed={self.seed}, k={self.k})"

    @property
    def version(self) -> str:
        """Short parameter string; any change of it changes sketches."""
        return f"oph-od/m{self.num_perm}/k{self.k}/s{self.seed:x}"

    # -- public API ------------------------------------------------------------------------------
    def sketch(self, doc: str | Sequence[str]) -> np.ndarray:
        """MinHash sketch of one text or token list: uint64 array of length num_perm."""
        return self.sketch_batch([doc])[0]

    def sketch_batch(self, docs: Sequence[str | Sequence[str]]) -> np.ndarray:
        """Sketches of many texts/token lists: uint64 array of shape (len(docs), num_perm)."""
        if isinstance(docs, str):
            raise TypeError("sketch_batch expects a list of documents; use sketch() for one text")
        if not isinstance(docs, Sequence):
            docs = list(docs)
        out = np.empty((len(docs), self.num_perm), dtype=np.uint64)
        for lo in range(0, len(docs), _BATCH):
            chunk = docs[lo : lo + _BATCH]
            hashes, counts = self.shingler.hashes_batch(chunk)
            out[lo : lo + len(chunk)] = self.sketch_shingle_hashes(hashes, counts)
        return out

    def sketch_shingle_hashes(self, hashes: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Sketches from concatenated 64-bit shingle hashes and per-document counts."""
        m = self.num_perm
        hashes = np.asarray(hashes, dtype=np.uint64)
        counts = np.asarray(counts, dtype=np.int64)
        n = counts.shape[0]
        if int(counts.sum()) != hashes.shape[0]:
            raise ValueError("shingle counts do not add up to the number of hashes")
        flat = np.full(n * m, EMPTY_VALUE, dtype=np.uint64)
        if hashes.size:
            doc = np.repeat(np.arange(n, dtype=np.int64) * m, counts)
            idx = doc + _bins(hashes, m).astype(np.int64)
            np.minimum.at(flat, idx, hashes)
        sk = flat.reshape(n, m)
        self._densify(sk, counts > 0)
        return sk

    # -- densification ---------------------------------------------------------------------------
    def _probe_block(self, first_attempt: int, size: int = _PROBE_BLOCK) -> np.ndarray:
        """Probes first_attempt .. first_attempt+size-1 of every bin, shape (num_perm, size):
        probe t of empty bin i is a fixed pseudo-random bin, the same for every document."""
        bins = np.arange(self.num_perm, dtype=np.uint64)[:, None] * self._probe_c1
        att = [(t * self._probe_c2 + self._probe_c3) & 0xFFFFFFFFFFFFFFFF
               for t in range(first_attempt, first_attempt + size)]
        x = bins + np.array(att, dtype=np.uint64)[None, :]
        return _bins(fmix64(x), self.num_perm).astype(np.int64)

    def _densify(self, sk: np.ndarray, nonempty: np.ndarray) -> None:
        """Fill empty bins in place by optimal densification (rows of empty documents stay EMPTY)."""
        filled = sk != EMPTY_VALUE
        filled_count = filled.sum(axis=1)
        todo = nonempty & (filled_count < self.num_perm)
        if not todo.any():
            return
        # One filled bin: every probe sequence ends there.
        single = np.flatnonzero(todo & (filled_count == 1))
        if single.size:
            sk[single] = sk[single].min(axis=1, keepdims=True)
            todo[single] = False
        m = self.num_perm
        empty_flat = np.flatnonzero(~filled & todo[:, None])  # row * m + col of every empty bin
        if empty_flat.size == 0:
            return
        filled_flat = filled.ravel()
        cols = empty_flat % m
        base = empty_flat - cols  # row * m
        src = np.empty(empty_flat.size, dtype=np.int64)  # row * m + source col
        pending = np.arange(empty_flat.size)
        attempt = 1
        while pending.size and attempt <= _PROBE_LIMIT:
            # A block of probes at once: the first probe that lands on a filled bin wins.
            if attempt == 1:
                block = self._probe_table
            else:
                block = self._probe_cache.get(attempt)
                if block is None:
                    block = self._probe_cache.setdefault(attempt, self._probe_block(attempt))
            cand = block[cols[pending]]  # (pending, probes in this block)
            cand += base[pending, None]
            ok = filled_flat[cand]
            hit = ok.any(axis=1)
            done = pending[hit]
            src[done] = cand[hit, ok[hit].argmax(axis=1)]
            pending = pending[~hit]
            attempt += block.shape[1]
        for p in pending.tolist():  # deterministic fallback (never seen): next filled bin to the right
            r, c = divmod(int(empty_flat[p]), m)
            order = np.roll(np.arange(m), -c - 1)
            src[p] = r * m + int(order[np.argmax(filled[r, order])])
        flat = sk.reshape(-1)
        flat[empty_flat] = flat[src]


# -- estimates -------------------------------------------------------------------------------------
def _as_sketch(a: np.ndarray, name: str) -> np.ndarray:
    a = np.asarray(a)
    if a.dtype != np.uint64:
        raise TypeError(f"{name}: sketches must be uint64 arrays, got {a.dtype}")
    return a


def is_empty(sketches: np.ndarray) -> np.ndarray | bool:
    """True where a sketch is EMPTY (its document had no shingles)."""
    s = np.asarray(sketches)
    res = (s == EMPTY_VALUE).all(axis=-1)
    return bool(res) if res.ndim == 0 else res


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Estimated Jaccard similarity of two sketches: the share of equal slots (0 if either is empty)."""
    a, b = _as_sketch(a, "a"), _as_sketch(b, "b")
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"need two sketches of equal length, got shapes {a.shape} and {b.shape}")
    if is_empty(a) or is_empty(b):
        return 0.0
    return float(np.count_nonzero(a == b)) / a.shape[0]


def jaccard_one_vs_many(a: np.ndarray, many: np.ndarray) -> np.ndarray:
    """Estimated Jaccard of one sketch against each row of `many`: float64 array of len(many)."""
    a, many = _as_sketch(a, "a"), _as_sketch(many, "many")
    if many.ndim != 2 or a.shape != many.shape[1:]:
        raise ValueError(f"shape mismatch: {a.shape} vs {many.shape}")
    if is_empty(a):
        return np.zeros(many.shape[0])
    est = np.count_nonzero(many == a, axis=1) / a.shape[0]
    est[is_empty(many)] = 0.0
    return est


def jaccard_pairs(a: np.ndarray, b: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Estimated Jaccard of pairs (a[i[t]], b[j[t]]) for every t, chunked to bound memory."""
    a, b = _as_sketch(a, "a"), _as_sketch(b, "b")
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    if i.shape != j.shape:
        raise ValueError("index arrays i and j must have the same shape")
    m = a.shape[1]
    out = np.empty(i.shape[0])
    ea, eb = is_empty(a), is_empty(b)
    step = max(1, (1 << 24) // m)
    for lo in range(0, i.shape[0], step):
        ii, jj = i[lo : lo + step], j[lo : lo + step]
        out[lo : lo + step] = np.count_nonzero(a[ii] == b[jj], axis=1) / m
    out[ea[i] | eb[j]] = 0.0
    return out


def jaccard_matrix(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """All-pairs estimated Jaccard: shape (len(a), len(b)); b defaults to a."""
    a = _as_sketch(a, "a")
    b = a if b is None else _as_sketch(b, "b")
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"need two (n, num_perm) arrays with equal num_perm, got {a.shape}, {b.shape}")
    m = a.shape[1]
    out = np.empty((a.shape[0], b.shape[0]))
    step = max(1, (1 << 24) // max(1, b.shape[0] * m))
    for lo in range(0, a.shape[0], step):
        out[lo : lo + step] = np.count_nonzero(a[lo : lo + step, None, :] == b[None, :, :], axis=2) / m
    out[is_empty(a)] = 0.0
    out[:, is_empty(b)] = 0.0
    return out


# -- storage -----------------------------------------------------------------------------------------
def encode_sketch(sketch: np.ndarray) -> str:
    """Sketch -> ASCII string (base64 of little-endian uint64s), e.g. for Solr's stored `mh_sketch`."""
    s = _as_sketch(sketch, "sketch")
    if s.ndim != 1:
        raise ValueError("encode_sketch takes one sketch (1-D)")
    return base64.b64encode(s.astype("<u8").tobytes()).decode("ascii")


def decode_sketch(text: str, num_perm: int | None = None) -> np.ndarray:
    """Inverse of encode_sketch; checks the length when num_perm is given."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise ValueError(f"not an encoded sketch: {exc}") from exc
    if len(raw) % 8:
        raise ValueError("not an encoded sketch: length is not a multiple of 8 bytes")
    out = np.frombuffer(raw, dtype="<u8").astype(np.uint64)
    if num_perm is not None and out.shape[0] != num_perm:
        raise ValueError(f"sketch has {out.shape[0]} slots, expected {num_perm}")
    return out
