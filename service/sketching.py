"""Adapter from the service to the MinHash / LSH modules in `signatures` (one place to adapt).

The service needs, per posting: the MinHash sketch of its text (numpy uint64 array), the LSH band keys
as short strings (stored in Solr's `mh_bands`) and as 64-bit integers (the embedded array index), and
a content key from the same tokenization.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import xxhash

from signatures import lsh, minhash

_HASHER = minhash.MinHasher()
NUM_PERM: int = _HASHER.num_perm
NUM_BANDS: int = lsh.DEFAULT_BANDS


def sketch_texts(texts: Sequence[str]) -> np.ndarray:
    """MinHash sketches of many texts: (n, NUM_PERM) uint64."""
    return _HASHER.sketch_batch(list(texts))


def sketch_with_content_keys(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sketches plus, from the same tokenization, a 64-bit content key and the token count per text.

    The content key hashes the normalized token sequence (NFKC, casefold, punctuation dropped), so
    texts that differ only in case, spacing or punctuation get the same key (0 for an empty text).
    """
    sh = _HASHER.shingler
    flat, lens = sh.token_hashes_batch(list(texts))
    shingles, counts = sh.shingles_from_token_hashes(flat, lens)
    full = _HASHER.sketch_shingle_hashes(shingles, counts)
    content = np.zeros(len(lens), np.uint64)
    raw = np.ascontiguousarray(flat, dtype="<u8").tobytes()
    start = 0
    for i, end in enumerate(np.cumsum(lens).tolist()):
        if end > start:
            content[i] = xxhash.xxh64_intdigest(raw[start * 8:end * 8])
        start = end
    return full, content, np.asarray(lens, dtype=np.int32)


def is_empty(sketches: np.ndarray) -> np.ndarray:
    """Rows that are the EMPTY sketch (no shingles)."""
    return np.atleast_1d(np.asarray(minhash.is_empty(sketches), bool)).reshape(len(sketches))


def band_keys(sketch: np.ndarray) -> list[str]:
    """LSH band keys of one sketch as short strings (Solr `mh_bands` values)."""
    return lsh.band_keys(sketch)


def band_keys_batch(sketches: np.ndarray) -> list[list[str]]:
    """LSH band keys of many sketches as strings ([] for an empty text)."""
    return lsh.band_keys_batch(np.ascontiguousarray(sketches, dtype=np.uint64))


def band_hashes_batch(sketches: np.ndarray) -> np.ndarray:
    """LSH band keys of many sketches as uint64 (the same bands as the strings): (n, NUM_BANDS)."""
    if len(sketches) == 0:
        return np.zeros((0, NUM_BANDS), np.uint64)
    out = lsh.band_hashes(np.ascontiguousarray(sketches, dtype=np.uint64))
    out[out == 0] = 1  # 0 means "no key" in the embedded index
    return out
