"""64-bit SimHash (Charikar) over token shingles: the classic near-duplicate baseline, used by
`jobdedup eval` for comparison. Pure computation.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

import numpy as np
import xxhash

__all__ = ["hamming", "simhash", "simhash_many"]

_TOKEN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+", re.UNICODE)
_BITS = np.uint64(1) << np.arange(64, dtype=np.uint64)


def simhash(text: str, k: int = 3) -> int:
    """SimHash of `text`: words (single characters for CJK), k-token shingles weighted by count,
    xxh64 per shingle, sign of the weighted bit sums. Empty text gives 0."""
    if k < 1:
        raise ValueError("k must be >= 1")
    toks = _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).lower())
    if not toks:
        return 0
    grams = ["\x1f".join(toks[i : i + k]) for i in range(max(1, len(toks) - k + 1))]
    counts = Counter(grams)
    h = np.fromiter((xxhash.xxh64_intdigest(g.encode()) for g in counts), dtype=np.uint64, count=len(counts))
    w = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    bits = (h[:, None] & _BITS[None, :]) != 0
    v = (np.where(bits, 1.0, -1.0) * w[:, None]).sum(axis=0)
    return int((_BITS[v > 0]).sum()) if (v > 0).any() else 0


def simhash_many(texts: Sequence[str], k: int = 3) -> np.ndarray:
    """SimHash of each text as a uint64 array."""
    return np.array([simhash(t, k) for t in texts], dtype=np.uint64)


def hamming(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray | int:
    """Bitwise Hamming distance between 64-bit fingerprints (element-wise for arrays)."""
    if isinstance(a, int) and isinstance(b, int):
        return (a ^ b).bit_count()
    x = np.bitwise_xor(np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64))
    return np.unpackbits(x.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)
