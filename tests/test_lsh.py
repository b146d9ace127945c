"""LSH: band parameters from a threshold, band key format and determinism, recall above the
threshold, and the in-memory index against brute force."""

from __future__ import annotations

import importlib.util
import re

import numpy as np
import pytest

from signatures.lsh import (
    DEFAULT_BANDS,
    DEFAULT_ROWS,
    DEFAULT_THRESHOLD,
    LSHIndex,
    band_hashes,
    band_keys,
    band_keys_batch,
    candidate_probability,
    optimal_params,
)
from signatures.minhash import MinHasher
from signatures.version import MINHASH


def brute_force_params(threshold: float, num_perm: int) -> tuple[int, int]:
    """The datasketch definition in plain Python: minimize 0.5*FP area + 0.5*FN area (midpoint rule)."""
    def area(f, a: float, b: float, n: int = 2000) -> float:
        w = (b - a) / n
        return sum(f(a + (i + 0.5) * w) for i in range(n)) * w

    best = None
    for b in range(1, num_perm + 1):
        for r in range(1, num_perm // b + 1):
            fp = area(lambda s, b=b, r=r: 1 - (1 - s**r) ** b, 0.0, threshold)
            fn = area(lambda s, b=b, r=r: (1 - s**r) ** b, threshold, 1.0)
            err = 0.5 * fp + 0.5 * fn
            if best is None or err < best[0] - 1e-7:
                best = (err, b, r)
    assert best is not None
    return best[1], best[2]


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_optimal_params_match_brute_force(threshold: float) -> None:
    assert optimal_params(threshold, 64) == brute_force_params(threshold, 64)


@pytest.mark.skipif(importlib.util.find_spec("datasketch") is None, reason="datasketch not installed")
def test_optimal_params_match_datasketch() -> None:
    from datasketch.lsh import _optimal_param

    for t in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        for m in (32, 128, 256):
            assert optimal_params(t, m) == tuple(_optimal_param(t, m, 0.5, 0.5))


def test_default_params_follow_from_the_threshold() -> None:
    assert (DEFAULT_BANDS, DEFAULT_ROWS) == optimal_params(DEFAULT_THRESHOLD, MINHASH["num_perm"])
    assert MinHasher().version == (f"oph-od/m{MINHASH['num_perm']}/k{MINHASH['shingle_k']}/s{MINHASH['seed']:x}")
    assert DEFAULT_BANDS * DEFAULT_ROWS <= 128
    # The S-curve is steep around the threshold.
    assert candidate_probability(0.05, DEFAULT_BANDS, DEFAULT_ROWS) < 0.01
    assert candidate_probability(0.6, DEFAULT_BANDS, DEFAULT_ROWS) > 0.99


def test_optimal_params_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="threshold"):
        optimal_params(1.5)
    with pytest.raises(ValueError, match="num_perm"):
        optimal_params(0.5, 0)


def test_band_key_format_and_determinism() -> None:
    mh = MinHasher()
    text = "Staff backend engineer, payments platform, Go and Postgres, remote in Europe"
    keys = band_keys(mh.sketch(text))
    assert len(keys) == DEFAULT_BANDS
    for j, key in enumerate(keys):
        assert re.fullmatch(r"b\d{2}_[0-9a-f]{16}", key), key
        assert key.startswith(f"b{j:02d}_")
    assert keys == band_keys(MinHasher().sketch_batch(["x", text])[1])  # same doc, same keys
    assert len(set(keys)) == len(keys)
    other = band_keys(mh.sketch("A completely different posting about nursing jobs in Lyon, France"))
    assert not set(keys) & set(other)
    assert band_keys(mh.sketch("")) == []
    assert band_keys_batch(mh.sketch_batch(["", text])) == [[], keys]
    # Keys are the hex of band_hashes.
    h = band_hashes(mh.sketch(text))
    assert [int(k[4:], 16) for k in keys] == h.tolist()


def test_band_hash_depends_on_every_row_of_its_band_only() -> None:
    sk = MinHasher().sketch("one two three four five six seven eight nine ten eleven")
    base = band_hashes(sk, 8, 4)
    for slot in (0, 5, 31):
        changed = sk.copy()
        changed[slot] ^= np.uint64(1)
        diff = band_hashes(changed, 8, 4) != base
        assert diff.tolist() == [j == slot // 4 for j in range(8)]


def _pairs_at(rng: np.random.Generator, n: int, lo: float, hi: float) -> tuple[list[list[str]], list[list[str]], np.ndarray]:
    a_docs, b_docs, truth = [], [], []
    for i in range(n):
        size = int(rng.integers(100, 600))
        inter = int(round(rng.uniform(lo, hi) * size))
        ids = [f"p{i}_{x}" for x in range(size)]
        half = (size - inter) // 2
        a_docs.append(ids[: inter + half])
        b_docs.append(ids[:inter] + ids[inter + half :])
        truth.append(inter / size)
    return a_docs, b_docs, np.array(truth)


def test_recall_above_threshold_and_few_candidates_far_below() -> None:
    rng = np.random.default_rng(9)
    mh = MinHasher(k=1)
    hi_a, hi_b, hi_t = _pairs_at(rng, 300, DEFAULT_THRESHOLD + 0.15, 1.0)
    lo_a, lo_b, lo_t = _pairs_at(rng, 300, 0.0, 0.05)
    for a_docs, b_docs, t, check in ((hi_a, hi_b, hi_t, "high"), (lo_a, lo_b, lo_t, "low")):
        idx = LSHIndex()
        ids = idx.insert(mh.sketch_batch(a_docs))
        q, found = idx.query(mh.sketch_batch(b_docs))
        hit = np.zeros(len(b_docs), dtype=bool)
        hit[q[found == ids[q]]] = True
        expected = candidate_probability(t, DEFAULT_BANDS, DEFAULT_ROWS).mean()
        if check == "high":
            assert expected > 0.95
            assert hit.mean() >= expected - 0.06  # ~5 sd of a binomial mean over 300 pairs
        else:
            assert expected < 0.01
            assert hit.mean() <= 0.05


def brute_force_candidates(h_query: np.ndarray, h_stored: np.ndarray) -> set[tuple[int, int]]:
    eq = (h_query[:, None, :] == h_stored[None, :, :]).any(axis=2)
    return {(int(i), int(j)) for i, j in zip(*np.nonzero(eq), strict=True)}


def test_index_matches_brute_force() -> None:
    rng = np.random.default_rng(4)
    vocab = [f"w{i}" for i in range(300)]
    base = [list(rng.choice(vocab, size=int(rng.integers(5, 80)))) for _ in range(60)]
    docs = []
    for toks in base:  # each base text plus a lightly and a heavily edited copy
        docs.append(" ".join(toks))
        for frac in (0.05, 0.5):
            t = list(toks)
            for i in rng.choice(len(t), size=int(frac * len(t)), replace=False):
                t[i] = str(rng.choice(vocab))
            docs.append(" ".join(t))
    docs += ["", "   "]
    order = rng.permutation(len(docs))
    docs = [docs[i] for i in order]
    sk = MinHasher().sketch_batch(docs)
    bands, rows = 16, 4
    idx = LSHIndex(bands, rows)
    ids = np.arange(1000, 1000 + len(docs))
    idx.insert(sk[:70], ids[:70])  # two batches, custom ids
    idx.insert(sk[70:], ids[70:])
    assert len(idx) == len(docs)

    h = band_hashes(sk, bands, rows)
    live = np.array([bool(d.strip()) for d in docs])
    want = {(i, j) for i, j in brute_force_candidates(h, h) if live[i] and live[j]}
    q, found = idx.query(sk)
    assert {(int(i), int(f) - 1000) for i, f in zip(q, found, strict=True)} == want
    assert np.all(np.diff(q) >= 0)
    pairs = idx.candidate_pairs()
    assert {(int(a) - 1000, int(b) - 1000) for a, b in pairs} == {(i, j) for i, j in want if i < j}
    assert len(pairs) == len({tuple(p) for p in pairs.tolist()})
    # Most (text, lightly edited copy) twins are candidates (J ~0.4-0.9 with 5-word shingles).
    orig = {int(p) - 1000: int(order[int(p) - 1000]) for p in pairs.ravel()}
    twins = sum(1 for a, b in pairs.tolist() if orig[a - 1000] // 3 == orig[b - 1000] // 3
                and {orig[a - 1000] % 3, orig[b - 1000] % 3} == {0, 1})
    assert twins >= 40, twins


def test_index_edge_cases_and_errors() -> None:
    idx = LSHIndex()
    q, f = idx.query(MinHasher().sketch_batch(["a b c d e f"]))
    assert q.size == 0 and f.size == 0
    assert idx.candidate_pairs().shape == (0, 2)
    with pytest.raises(ValueError, match="one id per sketch"):
        idx.insert(MinHasher().sketch_batch(["a", "b"]), ids=[1])
    with pytest.raises(ValueError, match="2-D"):
        idx.insert(MinHasher().sketch("a"))
    with pytest.raises(ValueError, match="do not fit"):
        band_hashes(MinHasher(num_perm=16).sketch("a b"), 8, 4)
    with pytest.raises(TypeError, match="uint64"):
        band_hashes(np.zeros((2, 128), dtype=np.int64))
