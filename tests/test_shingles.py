"""Shingles: tokenization against an independent per-character reference, XXH3 against the xxhash
library, shingle counts and hashing properties."""

from __future__ import annotations

import random
import unicodedata

import numpy as np
import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from signatures.shingles import Shingler, tokenize, xxh3_spans

CJK_RANGES = [(0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x303B, 0x303C), (0x3040, 0x30FF),
              (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF)]


def reference_tokens(text: str) -> list[str]:
    """The documented rule, written plainly: NFKC + casefold, then word characters (alnum, '_',
    combining marks) form runs; each Han/kana word character is a token of its own."""
    s = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    cur = ""
    for ch in s:
        word = ch.isalnum() or ch == "_" or unicodedata.category(ch).startswith("M")
        cjk = word and any(lo <= ord(ch) <= hi for lo, hi in CJK_RANGES)
        if word and not cjk:
            cur += ch
            continue
        if cur:
            out.append(cur)
            cur = ""
        if cjk:
            out.append(ch)
    if cur:
        out.append(cur)
    return out


# Characters that stress the fast paths: ASCII, accents, ligatures, full/half width, CJK, kana,
# halfwidth voiced marks, combining marks, Hangul syllables and jamo, emoji with variation
# selectors, astral Han, punctuation of many scripts, controls, a lone surrogate.
ALPHABET = ("abcXYZ09_ .,;:-/\n\t\r'\"()" "ÀÉéèçñüßẞſİıΣσςﬁﬂ™℃㎏²½①Ⅻ" "ＡＢｃ１２　、。，：（）！"
            "東京都求人の募集カタカナひらがなー々〆ヽゝ・゠" "ｶｷﾞﾟｰ" "\u0301\u0308\u3099\u309a" "가각한국어각ㄱㅏ"
            "😀👍\ufe0f\u200d𠀀𪚲" "—–…•·«»„“”‘’" "\x00\x1f\x7f\u00a0\u2028\ud800" "अभिषेक्" "ไทย")


@settings(max_examples=600, derandomize=True, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_tokenize_matches_reference_on_mixed_scripts(text: str) -> None:
    assert tokenize(text) == reference_tokens(text)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(max_size=40))
def test_tokenize_matches_reference_on_any_unicode(text: str) -> None:
    assert tokenize(text) == reference_tokens(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Senior Engineer, Berlin (m/w/d)", ["senior", "engineer", "berlin", "m", "w", "d"]),
        ("Ｊａｖａ　Developer", ["java", "developer"]),  # full-width forms fold to ASCII
        ("STRASSE Straße", ["strasse", "strasse"]),  # casefold
        ("cafe\u0301 café", ["café", "café"]),  # NFKC composes
        ("東京都の求人", ["東", "京", "都", "の", "求", "人"]),
        ("ｶﾞｲﾄﾞ", ["ガ", "イ", "ド"]),  # half-width katakana + voiced mark
        ("C++ / C#", ["c", "c"]),
        ("", []),
        ("!!! ... ---", []),
    ],
)
def test_tokenize_examples(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_xxh3_spans_equals_xxhash_library() -> None:
    rng = random.Random(5)
    toks = [bytes(rng.randrange(256) for _ in range(n)) for n in list(range(0, 80)) * 20]
    buf = b"".join(toks)
    lens = np.array([len(t) for t in toks])
    starts = np.cumsum(lens) - lens
    for seed in (0, 1, 0x6A6F6264, 2**63 + 12345, 2**64 - 1):
        got = xxh3_spans(buf, starts, lens, seed)
        want = np.array([xxhash.xxh3_64_intdigest(t, seed) for t in toks], dtype=np.uint64)
        assert np.array_equal(got, want)


def test_token_hashes_are_xxh3_of_utf8_tokens() -> None:
    sh = Shingler(k=3, seed=99)
    docs = ["Hello, wörld! 東京 ｶﾞ", "", "one", "x y z w", "e\u0301 ﬁ ß"]
    flat, lens = sh.token_hashes_batch(docs)
    want = [xxhash.xxh3_64_intdigest(t.encode("utf-8"), 99) for d in docs for t in tokenize(d)]
    assert flat.tolist() == want
    assert lens.tolist() == [len(tokenize(d)) for d in docs]


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET + "\uffff", max_size=30), max_size=8))
def test_batch_tokenization_equals_one_by_one(docs: list[str]) -> None:
    sh = Shingler(seed=5)
    flat, lens = sh.token_hashes_batch(docs)
    want = [xxhash.xxh3_64_intdigest(t.encode("utf-8", "surrogatepass"), 5) for d in docs for t in tokenize(d)]
    assert flat.tolist() == want
    assert lens.tolist() == [len(tokenize(d)) for d in docs]


def test_shingle_counts_and_short_text_fallback() -> None:
    sh = Shingler(k=5)
    docs = ["", "one", "one two three four", "a b c d e", "a b c d e f g", "東京都の求人です"]
    hashes, counts = sh.hashes_batch(docs)
    # n >= k tokens: n-k+1 windows; 1..k-1 tokens: one shorter shingle; none: no shingle.
    assert counts.tolist() == [0, 1, 1, 1, 3, 4]
    assert hashes.shape == (int(counts.sum()),)
    # The fallback shingle of a short text is not the hash of any longer text's shingle.
    assert sh.hashes("one two")[0] != sh.hashes("one two three")[0]


def test_text_and_its_token_list_give_same_shingles() -> None:
    sh = Shingler()
    text = "Backend engineer (Python/Go) — remote, EU time zones; 東京オフィス"
    assert np.array_equal(sh.hashes(text), sh.hashes(tokenize(text)))
    # Token lists keep tokens whole (a segmenter's words), drop punctuation, normalize.
    assert np.array_equal(sh.hashes(["東京", "、", "Ｏｆｆｉｃｅ"]), sh.hashes(["東京", "office"]))
    assert not np.array_equal(sh.hashes(["東京"]), sh.hashes(["東", "京"]))


def test_shingle_hashes_depend_on_order_and_seed_not_on_batch() -> None:
    sh = Shingler(k=3)
    a = sh.hashes("alpha beta gamma")
    assert a.size == 1
    assert a[0] != sh.hashes("gamma beta alpha")[0]
    assert a[0] != Shingler(k=3, seed=1).hashes("alpha beta gamma")[0]
    batch, counts = sh.hashes_batch(["x y", "alpha beta gamma", ["p", "q", "r", "s"], "alpha beta gamma"])
    assert counts.tolist() == [1, 1, 2, 1]
    assert batch[1] == a[0] and batch[4] == a[0]


def test_no_collisions_among_many_distinct_shingles() -> None:
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(5000)]
    text = " ".join(words[i] for i in rng.integers(0, 5000, size=200_000))
    toks = text.split()
    distinct = {tuple(toks[i : i + 5]) for i in range(len(toks) - 4)}
    hashes = Shingler(k=5).hashes(text)
    assert hashes.size == len(toks) - 4
    assert np.unique(hashes).size == len(distinct)


def test_huge_text() -> None:
    text = "lorem ipsum dolor sit amet consectetur " * 400_000  # ~16 MB, 2.4M tokens
    hashes, counts = Shingler(k=5).hashes_batch([text])
    assert counts.tolist() == [2_400_000 - 4]
    assert np.unique(hashes).size == 6  # the text cycles through 6 distinct 5-word windows


def test_bad_input_is_a_clear_error() -> None:
    sh = Shingler()
    with pytest.raises(TypeError, match="str"):
        sh.hashes(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="list of documents"):
        sh.hashes_batch("one text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="token lists must hold str"):
        sh.hashes(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        sh.hashes(12)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Shingler(k=0)
    with pytest.raises(ValueError, match="seed"):
        Shingler(seed=-1)
