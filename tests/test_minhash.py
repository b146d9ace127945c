"""MinHash: agreement with a plain-Python statement of the algorithm, estimate accuracy against true
Jaccard on generated sets, determinism, edge cases, estimate helpers and storage encoding."""

from __future__ import annotations

import numpy as np
import pytest
import xxhash

from signatures.minhash import (
    EMPTY_VALUE,
    MinHasher,
    decode_sketch,
    encode_sketch,
    is_empty,
    jaccard,
    jaccard_matrix,
    jaccard_one_vs_many,
    jaccard_pairs,
)
from signatures.shingles import tokenize

M64 = (1 << 64) - 1


# -- the algorithm in plain Python integers (no numpy), from the module documentation -----------------
def splitmix_constants(seed: int, n: int, odd: bool = True) -> list[int]:
    out, state = [], seed & M64
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        out.append(z | 1 if odd else z)
    return out


def fmix(x: int) -> int:
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & M64
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & M64
    return x ^ (x >> 33)


def reference_sketch(text: str, num_perm: int, k: int, seed: int) -> list[int]:
    toks = [xxhash.xxh3_64_intdigest(t.encode("utf-8"), seed) for t in tokenize(text)]
    mul = splitmix_constants(seed ^ 0x5348494E474C45, k)
    tag = splitmix_constants(seed ^ 0x5749445448, k + 1, odd=False)
    if not toks:
        return [M64] * num_perm
    windows = [toks[i : i + k] for i in range(len(toks) - k + 1)] if len(toks) >= k else [toks]
    shingles = [fmix((sum(h * m for h, m in zip(w, mul, strict=False)) & M64) ^ tag[len(w)]) for w in windows]
    bins = [M64] * num_perm
    for h in shingles:
        b = ((h >> 32) * num_perm) >> 32
        bins[b] = min(bins[b], h)
    filled = [v != M64 for v in bins]
    c1, c2, c3 = splitmix_constants(seed ^ 0x44454E5345, 3)
    out = list(bins)
    for i in range(num_perm):
        t = 1
        while not filled[i]:
            cand = ((fmix((i * c1 + t * c2 + c3) & M64) >> 32) * num_perm) >> 32
            if filled[cand]:
                out[i] = bins[cand]
                break
            t += 1
    return out


@pytest.mark.parametrize(("num_perm", "k", "seed"), [(128, 5, 0x6A6F6264), (64, 3, 7), (100, 1, 2**64 - 1)])
def test_sketch_equals_plain_python_reference(num_perm: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(num_perm)
    words = ["job", "Engineer", "remote", "Python", "東京", "募集", "ｶﾞｲﾄﾞ", "café", "ß", "a", "b"]
    texts = ["", "one", "two words", "東京都の求人"]
    texts += [" ".join(rng.choice(words, size=int(rng.integers(1, 60)))) for _ in range(40)]
    mh = MinHasher(num_perm=num_perm, seed=seed, k=k)
    got = mh.sketch_batch(texts)
    for text, row in zip(texts, got, strict=True):
        assert row.tolist() == reference_sketch(text, num_perm, k, seed), text


# -- accuracy -------------------------------------------------------------------------------------------
def pair_with_jaccard(rng: np.random.Generator, size: int, j: float, base: int) -> tuple[list[str], list[str], float]:
    """Two token sets (k=1 shingles) with a chosen Jaccard similarity; returns the exact value."""
    inter = round(j * size)  # |A & B| = inter, |A | B| = size
    only = size - inter
    ids = base + np.arange(size)
    a = ids[: inter + only // 2]
    b = np.concatenate([ids[:inter], ids[inter + only // 2 :]])
    rng.shuffle(a)
    rng.shuffle(b)
    return [f"t{x}" for x in a], [f"t{x}" for x in b], inter / size


def test_estimates_are_accurate_over_the_similarity_range() -> None:
    rng = np.random.default_rng(2024)
    mh = MinHasher(num_perm=128, k=1, seed=11)
    a_docs, b_docs, truth = [], [], []
    for i in range(400):
        size = int(rng.integers(20, 3000))
        a, b, j = pair_with_jaccard(rng, size, float(rng.uniform(0, 1)), base=i * 10_000)
        a_docs.append(a)
        b_docs.append(b)
        truth.append(j)
    t = np.array(truth)
    sa, sb = mh.sketch_batch(a_docs), mh.sketch_batch(b_docs)
    est = jaccard_pairs(sa, sb, np.arange(400), np.arange(400))
    err = est - t
    # MinHash with M slots: sd <= sqrt(J(1-J)/M) (~0.044 at J=0.5). 6 sd + slack per pair, tight
    # bounds on the averages (their sd is ~0.002): wide enough never to flake, tight enough to catch
    # a biased or broken sketch.
    assert np.all(np.abs(err) <= 6 * np.sqrt(t * (1 - t) / 128) + 0.02)
    assert np.mean(np.abs(err)) < 0.045
    assert abs(np.mean(err)) < 0.01


def test_estimates_on_word_shingles_of_generated_texts() -> None:
    rng = np.random.default_rng(7)
    vocab = [f"w{i}" for i in range(800)]
    mh = MinHasher()  # 128 slots, 5-word shingles
    a_docs, b_docs, truth = [], [], []
    for _ in range(150):
        toks = list(rng.choice(vocab, size=int(rng.integers(30, 500))))
        other = list(toks)
        for i in rng.choice(len(other), size=int(rng.uniform(0, 0.3) * len(other)), replace=False):
            other[i] = str(rng.choice(vocab))
        sa = {tuple(toks[i : i + 5]) for i in range(len(toks) - 4)}
        sb = {tuple(other[i : i + 5]) for i in range(len(other) - 4)}
        a_docs.append(" ".join(toks))
        b_docs.append(" ".join(other))
        truth.append(len(sa & sb) / len(sa | sb))
    t = np.array(truth)
    est = jaccard_pairs(mh.sketch_batch(a_docs), mh.sketch_batch(b_docs), np.arange(150), np.arange(150))
    assert np.all(np.abs(est - t) <= 6 * np.sqrt(t * (1 - t) / 128) + 0.02)
    assert np.mean(np.abs(est - t)) < 0.045


# -- determinism and invariances --------------------------------------------------------------------------
def test_same_input_same_sketch_across_instances_and_batches() -> None:
    text = "Senior Data Engineer — Berlin or remote. Python, Spark, Kafka. 東京オフィスもあります。"
    a = MinHasher().sketch(text)
    b = MinHasher().sketch_batch(["other text entirely", text, ""])[1]
    assert a.dtype == np.uint64 and a.shape == (128,)
    assert np.array_equal(a, b)
    assert jaccard(a, b) == 1.0
    assert not np.array_equal(a, MinHasher(seed=1).sketch(text))


def test_sketch_is_a_set_function_of_shingles() -> None:
    mh = MinHasher(k=1)
    assert np.array_equal(mh.sketch(["a", "b", "c"]), mh.sketch(["c", "a", "b", "a", "c"]))
    mh2 = MinHasher(k=2)  # {"a b", "b a"} both times
    assert np.array_equal(mh2.sketch("a b a b a b"), mh2.sketch("B, A. B; A!"))
    assert not np.array_equal(mh2.sketch("a b a b a b"), mh2.sketch("a b"))


def test_empty_and_short_texts() -> None:
    mh = MinHasher()
    empty = mh.sketch("")
    assert bool(is_empty(empty)) and np.all(empty == EMPTY_VALUE)
    assert bool(is_empty(mh.sketch(" ... !!! ")))
    short = mh.sketch("hello world")  # fewer than k words: one shingle of both words
    assert not bool(is_empty(short))
    assert np.unique(short).size == 1  # one shingle, densified into every slot
    assert jaccard(short, mh.sketch("Hello, World!")) == 1.0
    assert jaccard(short, mh.sketch("hello world again")) == 0.0
    assert jaccard(empty, empty) == 0.0 and jaccard(empty, short) == 0.0
    assert is_empty(mh.sketch_batch(["", "x", ""])).tolist() == [True, False, True]


def test_densified_slots_hold_real_shingle_values() -> None:
    mh = MinHasher()
    for text in ["a b c d e f", "a b c d e f g h i j k l m n o p", " ".join(f"w{i}" for i in range(60))]:
        sk = mh.sketch(text)
        hashes = set(mh.shingler.hashes(text).tolist())
        assert not np.any(sk == EMPTY_VALUE)
        assert set(sk.tolist()) <= hashes


def test_huge_text() -> None:
    rng = np.random.default_rng(1)
    words = np.array([f"w{i}" for i in range(20_000)])
    text = " ".join(words[rng.integers(0, 20_000, size=1_000_000)])  # ~6 MB
    mh = MinHasher()
    a = mh.sketch(text)
    b = mh.sketch(text[: len(text) // 2])
    assert not np.any(a == EMPTY_VALUE)
    assert 0.35 < jaccard(a, b) < 0.65  # the half shares ~half of the shingles


# -- estimate helpers ---------------------------------------------------------------------------------
def test_vectorized_estimates_agree_with_pairwise() -> None:
    mh = MinHasher(num_perm=64)
    texts = ["a b c d e f g h", "a b c d e f g x", "", "q r s t u v", "a b c d e f g h"]
    sk = mh.sketch_batch(texts)
    mat = jaccard_matrix(sk)
    for i in range(len(texts)):
        for j in range(len(texts)):
            assert mat[i, j] == jaccard(sk[i], sk[j])
        assert np.array_equal(jaccard_one_vs_many(sk[i], sk), mat[i])
    ii, jj = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
    assert np.array_equal(jaccard_pairs(sk, sk, ii.ravel(), jj.ravel()), mat.ravel())
    assert mat[0, 4] == 1.0 and mat[2, 2] == 0.0
    assert jaccard_matrix(sk[:2], sk[3:]).shape == (2, 2)


def test_encode_decode_roundtrip_and_errors() -> None:
    sk = MinHasher().sketch("some text for the roundtrip of a sketch")
    text = encode_sketch(sk)
    assert text.isascii() and len(text) == 1368
    assert np.array_equal(decode_sketch(text, 128), sk)
    with pytest.raises(ValueError, match="expected 64"):
        decode_sketch(text, 64)
    with pytest.raises(ValueError, match="not an encoded sketch"):
        decode_sketch("not base64 ***")
    with pytest.raises(ValueError, match="multiple of 8"):
        decode_sketch("AAAA")


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="num_perm"):
        MinHasher(num_perm=1)
    with pytest.raises(TypeError, match="list of documents"):
        MinHasher().sketch_batch("a text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="uint64"):
        jaccard(np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError, match="equal length"):
        jaccard(np.zeros(4, dtype=np.uint64), np.zeros(5, dtype=np.uint64))
