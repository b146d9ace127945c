"""signatures.textprofile without Java: the issue's orientation vector, Java facts that are public
knowledge (String.hashCode values, simple case mapping), the fast path against the exact reference
path, and the CLI. Parity with Solr itself: tests/test_textprofile_java.py."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signatures import javachars
from signatures import textprofile as tp
from signatures import textprofile_batch as tb


def test_orientation_vector_from_issue() -> None:
    assert tp.solr_text_signature("I have an apple", 1.0, 2) == "8b821c9e763bb2fc567d473996cfde4a"


def test_empty_text_is_md5_of_nothing() -> None:
    assert tp.solr_text_signature("") == hashlib.md5(b"").hexdigest()
    assert tp.solr_text_signature("a, bc! 12") == hashlib.md5(b"").hexdigest()  # every token too short


def test_java_string_hash_known_values() -> None:
    assert tp.java_string_hash("") == 0
    assert tp.java_string_hash("hello") == 99162322
    assert tp.java_string_hash("Aa") == tp.java_string_hash("BB") == 2112
    assert tp.java_string_hash("polygenelubricants") == -2147483648  # the famous Integer.MIN_VALUE hash
    assert tp.java_string_hash("😀") == 0xD83D * 31 + 0xDE00  # two UTF-16 units


def test_java_simple_case_mapping_and_separators() -> None:
    assert tp.solr_tokens("İSTANBUL") == ["istanbul"]  # U+0130 -> i (no combining dot)
    assert tp.solr_tokens("ΟΔΥΣΣΕΥΣ") == ["οδυσσευσ"]  # capital sigma -> σ, never final ς
    assert tp.solr_tokens("abc😀def") == ["abc", "def"]  # astral = two surrogate units = separators
    assert tp.solr_tokens("abc\ud800def") == ["abc", "def"]  # lone surrogate is a separator
    assert tp.solr_tokens("x²y³z", 0) == ["x", "y", "z"]  # superscripts are No, not digits
    assert tp.solr_tokens("ab cd efg", 2) == ["efg"]
    assert tp.solr_tokens("ab cd efg", 1) == ["ab", "cd", "efg"]


def test_table_letters_never_fold_to_whitespace() -> None:
    t = javachars.java_table()
    assert not any(chr(v).isspace() for v in t if v)
    assert javachars.fold_table()[0x1F600] == " "
    assert len(javachars.fold_table()) == 0x110000


def test_counts_quantize_and_sort_by_count() -> None:
    text = "alpha " * 5 + "beta " * 3 + "gamma " * 2 + "delta"
    # maxFreq 5, quantRate 0.01 -> quant 2: alpha 4, beta 2, gamma 2, delta dropped
    prof = tp.java_profile(tp.solr_tokens(text))
    lines = prof.split("\n")
    assert lines[0] == "alpha 4"
    assert sorted(lines[1:]) == ["beta 2", "gamma 2"]
    assert tp.solr_text_signature(text) == hashlib.md5(prof.encode()).hexdigest()


def test_profile_digest_feeds_profiles_in_order() -> None:
    assert tp.profile_digest(["ab", "cd"]) == hashlib.md5(b"abcd").hexdigest()
    assert tp.profile_digest([]) == hashlib.md5(b"").hexdigest()


def test_hashmap_order_colliding_keys_keep_insertion_order_in_list_bins() -> None:
    keys = ["AaAa", "BBBB", "AaBB", "BBAa"]  # one hash, one bucket, list bin
    assert tp.hashmap_order(keys) == keys


def test_hashmap_order_tree_bins_differ_from_insertion_order() -> None:
    filler = [f"f{i:03d}" for i in range(60)]  # table reaches capacity >= 64 first
    colliding = ["".join(p) for p in itertools.product(["Aa", "BB"], repeat=4)]
    order = tp.hashmap_order(filler + colliding)
    assert sorted(order) == sorted(filler + colliding)
    got = [k for k in order if k in set(colliding)]
    assert got != colliding  # treeified: root first, new nodes after their tree parent


def test_java_double_to_string() -> None:
    cases = {1.0: "1.0", 0.001: "0.001", 1e7: "1.0E7", 1.5e10: "1.5E10", 123.456: "123.456",
             1e-5: "1.0E-5", 9999999.0: "9999999.0", -2.25: "-2.25", 0.0: "0.0", 1e21: "1.0E21"}
    for x, s in cases.items():
        assert tp.java_double_to_string(x) == s


def test_fields_signature_sorts_names_and_skips_absent() -> None:
    post = {"title": "Senior Engineer", "company": "Acme Corp", "other": "x"}
    a = tp.solr_fields_signature(post, ["title", "company", "missing"])
    profiles = []
    for name in ["company", "title"]:
        profiles.append(tp.java_profile(tp.solr_tokens(name)))
        profiles.append(tp.java_profile(tp.solr_tokens(str(post[name]))))
    assert a == tp.profile_digest(profiles)
    with pytest.raises(TypeError):
        tp.solr_fields_signature({"title": {"nested": 1}}, ["title"])


# ---------------------------------------------------------------------------------------------
# the fast path must equal the straightforward exact path on everything

_alphabet = st.sampled_from(list("abcxyzABCXYZ0129 ,.-'\n") + ["İ", "Σ", "é", "É", "😀", "中", "ǅ", "²", "’", "\ud800"])
_text = st.lists(st.one_of(st.sampled_from(["the", "and", "job", "Job", "python", "AaBB", "BBAa"]), _alphabet,
                           st.text(max_size=5)), max_size=80).map(" ".join)


@settings(max_examples=1500, deadline=None)
@given(_text, st.sampled_from([0.01, 0.5, 1.0, 0.0]), st.sampled_from([2, 0, 1, 3, -1]))
def test_fast_path_equals_reference(text: str, q: float, m: int) -> None:
    ref = tp.profile_digest([tp.reference_profile(tp.solr_tokens(text, m), q)])
    assert tp.solr_text_signature(text, q, m) == ref
    assert tp.solr_text_signatures([text, text], q, m) == [ref, ref]


def test_cli_solr_compatible() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "service.cli", "sig", "--solr-compatible", "--quant-rate", "1.0", "I have an apple"],
        capture_output=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().strip() == "8b821c9e763bb2fc567d473996cfde4a"


def test_cli_solr_compatible_jsonl_batch_and_bad_line() -> None:
    rng = random.Random(2)
    texts = [_english_like(rng, rng.randint(0, 300)) for _ in range(50)]
    payload = "".join(json.dumps(t) + "\n" for t in texts)
    res = subprocess.run([sys.executable, "-m", "service.cli", "sig", "--solr-compatible", "--jsonl"],
                         input=payload.encode(), capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().split() == _per_text(texts)
    bad = payload + '{"title": "a posting"}\n' + json.dumps("after") + "\n"
    res = subprocess.run([sys.executable, "-m", "service.cli", "sig", "--solr-compatible", "--jsonl"],
                         input=bad.encode(), capture_output=True, timeout=120)
    assert res.returncode != 0
    assert res.stdout.decode().split() == _per_text(texts)  # the lines before the bad one
    assert b"stdin line 51" in res.stderr and b"Traceback" not in res.stderr


def test_cli_fields_jsonl() -> None:
    post = '{"id": "1", "title": "Senior Engineer", "company": "Acme"}\n'
    res = subprocess.run(
        [sys.executable, "-m", "service.cli", "sig", "--fields", "title,company", "--jsonl"],
        input=(post * 2).encode(), capture_output=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    want = tp.solr_fields_signature({"title": "Senior Engineer", "company": "Acme"}, ["title", "company"])
    assert res.stdout.decode().split() == [want, want]


# ---------------------------------------------------------------------------------------------
# the batched numpy kernel (signatures.textprofile_batch) must equal the per-text exact path


def _per_text(texts: list[str], q: float = 0.01, m: int = 2) -> list[str]:
    return tp.solr_text_signatures_reference(texts, q, m)


def _kernel_hex(texts: list[str], q: float = 0.01, m: int = 2, max_units: int = tb.MAX_BATCH_UNITS,
                exact_calls: list[str] | None = None) -> list[str]:
    def exact(t: str, qq: float, mm: int) -> bytes:
        if exact_calls is not None:
            exact_calls.append(t)
        return tp._profile_bytes(t, qq, mm)

    return [hashlib.md5(p).hexdigest() for p in tb.profile_bytes_batch(texts, q, m, exact, tp._quant, max_units)]


def _thue_morse(n: int, a: str = "a", b: str = "b") -> str:
    return "".join(b if bin(i).count("1") % 2 else a for i in range(n))


def _lower_colliding(repeat: int) -> list[str]:
    """Lowercase ASCII tokens with one Java hash: 'c0' and 'an' hash alike (99*31+48 == 97*31+110)."""
    return ["".join(p) for p in itertools.product(["c0", "an"], repeat=repeat)]


def _bucket_mates_ascii(n: int = 30, mask: int = 255, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    groups: dict[int, list[str]] = {}
    while True:
        w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))
        g = groups.setdefault(tp._spread(tp.java_string_hash(w)) & mask, [])
        if w not in g:
            g.append(w)
        if len(g) >= n:
            return g


def _english_like(rng: random.Random, n_words: int) -> str:
    vocab = ["the", "and", "Senior", "engineer", "python", "remote", "team", "build", "data", "we", "are",
             "looking", "for", "experience", "with", "Kubernetes", "salary", "2024", "x86", "C++", "naïve",
             "café", "résumé", "’s", "“quoted”", "•", "İstanbul", "ΣΟΦΙΑ", "Straße", "中文", "😀emoji", "ǅemal"]
    words = [rng.choice(vocab) if rng.random() < 0.8 else "".join(rng.choice("abcdefghijklmnopqrstuvwxyz")
             for _ in range(rng.randint(1, 14))) for _ in range(n_words)]
    return " ".join(w + rng.choice(["", "", ",", ".", ";", " -", "\n"]) for w in words)


def test_batch_equals_per_text_on_generated_postings() -> None:
    rng = random.Random(11)
    texts = [_english_like(rng, rng.randint(0, 600)) for _ in range(400)]
    texts += ["", " ", "ab", "a b c", "😀", "\ud800abc\udfff", "x" * 5000, ("long" * 300 + " ") * 3]
    calls: list[str] = []
    for q, m in [(0.01, 2), (0.5, 2), (1.0, 0), (0.0, 3), (0.2, 1), (1e-7, 6)]:
        assert _kernel_hex(texts, q, m, exact_calls=calls) == _per_text(texts, q, m), (q, m)
    assert len(calls) < len(texts)  # the kernel computed (nearly) all of them itself
    assert tp.solr_text_signatures(texts) == _per_text(texts)


def test_batch_boundaries_and_chunking() -> None:
    rng = random.Random(5)
    texts = [_english_like(rng, rng.randint(0, 40)) for _ in range(60)] + ["", "", "abc abc abc"]
    want = _per_text(texts)
    for max_units in (1, 7, 50, 300, 10**6):
        assert _kernel_hex(texts, max_units=max_units) == want, max_units
    assert _kernel_hex([]) == []
    assert _kernel_hex([""]) == [hashlib.md5(b"").hexdigest()]
    # a token at the very end / start of a text, texts that are one token, adjacent one-token texts
    edge = ["abc", "abc", "abcabc", "abc1 abc1", " abc1", "abc1 ", "ÀBC", "àbc", "àbc àbc"]
    assert _kernel_hex(edge, 1.0, 2) == _per_text(edge, 1.0, 2)


def test_batch_negative_min_token_len_and_bad_input() -> None:
    texts = ["", "ab cd ", "x"]
    assert tp.solr_text_signatures(texts, 0.01, -1) == _per_text(texts, 0.01, -1)
    with pytest.raises(TypeError):
        tp.solr_text_signatures(["ok", 3])  # type: ignore[list-item]


def test_batch_hashmap_tree_bins_and_early_resizes() -> None:
    rng = random.Random(7)
    coll4, coll5 = _lower_colliding(4), _lower_colliding(5)
    mates = _bucket_mates_ascii()
    uni = ["".join(p) for p in itertools.product(["aþ", "bß"], repeat=4)]  # non-ASCII equal hashes
    texts = []
    for trial in range(240):
        grp = [coll4, coll5, mates, uni][trial % 4]
        special = rng.sample(grp, rng.randint(6, min(len(grp), 20)))
        filler = [f"w{i:03d}x" for i in rng.sample(range(600), rng.choice([0, 5, 12, 30, 60, 150, 400]))]
        words = special + filler
        if trial % 2:
            rng.shuffle(words)
        seq = [w for w in words for _ in range(rng.choice([1, 2, 2, 3]))]
        if trial % 3 == 0:
            rng.shuffle(seq)
        texts.append(" ".join(seq))
    for q in (0.01, 0.0, 1.0):
        assert _kernel_hex(texts, q) == _per_text(texts, q)
    # these texts really exercise tree bins: the exact HashMap order differs from bucket+insertion order
    differs = 0
    for t in texts[:40]:
        keys = list(dict.fromkeys(tp.solr_tokens(t)))
        cap = tp._capacity(len(keys))
        plain = sorted(keys, key=lambda k: tp._spread(tp.java_string_hash(k)) & (cap - 1))
        differs += tp.hashmap_order(keys) != plain
    assert differs > 0


def test_batch_long_tokens_that_collide_under_polynomial_hashes() -> None:
    # Thue-Morse words of length 2048 collide for every odd base mod 2**64; here they must stay distinct
    a, b = _thue_morse(2048, "a", "b"), _thue_morse(2048, "b", "a")
    c, d = _thue_morse(4096, "x", "y"), _thue_morse(4096, "y", "x")
    texts = [f"{a} {b} {a}", f"{a} {a} {b} {b} {b}", f"{c} {d} {d} {c} {c}", f"{a} {c} {a} {c} {b}",
             " ".join([a] * 3 + [b] * 2 + ["filler"] * 4), f"{a}1 {a}2 {a}1",
             # tokens longer than the 65,536-entry power tables
             " ".join(["q" + "x" * 70_000] * 3 + ["q" + "x" * 69_999 + "y"] * 2 + ["é" + "z" * 66_000] * 2)]
    for q in (0.01, 1.0, 0.0):
        assert _kernel_hex(texts, q) == _per_text(texts, q)


def test_batch_verification_catches_identity_hash_collisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force every long token to one identity key: grouping by key alone would merge different tokens,
    the occurrence-by-occurrence check must send those texts to the exact path."""
    real = tb._identity_keys

    def degenerate(u, starts, lengths):  # type: ignore[no-untyped-def]
        keys, first = real(u, starts, lengths)
        keys[lengths > u.per_word] = 12345
        return keys, first

    monkeypatch.setattr(tb, "_identity_keys", degenerate)
    rng = random.Random(3)
    texts = [_english_like(rng, 200) for _ in range(30)]
    texts += ["abcdefghij abcdefghik abcdefghij", "Ωmegaaaaaaa Ωmegaaaaaab Ωmegaaaaaaa"]
    calls: list[str] = []
    assert _kernel_hex(texts, exact_calls=calls) == _per_text(texts)
    assert texts[-1] in calls and texts[-2] in calls


def test_batch_verification_catches_long_token_keyed_like_a_short_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long token whose hash equals a short token's packed key, the long one first in the text."""
    real = tb._identity_keys
    abc = int.from_bytes(b"abc", "little")

    def clash(u, starts, lengths):  # type: ignore[no-untyped-def]
        keys, first = real(u, starts, lengths)
        keys[lengths > u.per_word] = abc
        return keys, first

    monkeypatch.setattr(tb, "_identity_keys", clash)
    texts = ["abcdefghijklm abc abc xyz xyz", "abc abcdefghijklm abcdefghijklm", "plain words words"]
    calls: list[str] = []
    assert _kernel_hex(texts, 1.0, exact_calls=calls) == _per_text(texts, 1.0)
    assert texts[0] in calls and texts[1] in calls and texts[2] not in calls


def test_batch_verification_catches_sort_key_collisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a multiplier that maps every key to hash bits 0, all tokens of a text share one sort group."""
    monkeypatch.setattr(tb, "_GOLDEN", np.uint64(0))
    rng = random.Random(4)
    texts = [_english_like(rng, 50) for _ in range(20)] + ["", "abc", "abc abc"]
    calls: list[str] = []
    assert _kernel_hex(texts, exact_calls=calls) == _per_text(texts)
    assert len(calls) >= 20


_batch_texts = st.lists(_text, max_size=12)


@settings(max_examples=400, deadline=None)
@given(_batch_texts, st.sampled_from([0.01, 0.5, 1.0, 0.0]), st.sampled_from([2, 0, 1, 3]))
def test_batch_equals_reference_hypothesis(texts: list[str], q: float, m: int) -> None:
    want = [tp.profile_digest([tp.reference_profile(tp.solr_tokens(t, m), q)]) for t in texts]
    assert _kernel_hex(texts, q, m) == want
    assert _kernel_hex(texts, q, m, max_units=16) == want


def test_fields_batch_equals_single() -> None:
    rng = random.Random(9)
    docs: list[dict] = []
    for i in range(200):
        d: dict = {"id": str(i)}
        for f in ("title", "company", "description", "location"):
            if rng.random() < 0.8:
                d[f] = _english_like(rng, rng.randint(0, 80)) if rng.random() < 0.9 else rng.choice(
                    [12, 1.5, None, True, ["a list", "of values values"], 1e21])
        docs.append(d)
    fields = ["title", "company", "description", "missing"]
    assert tp.solr_fields_signatures(docs, fields) == [tp.solr_fields_signature(d, fields) for d in docs]
    assert tp.solr_fields_signatures([], fields) == []
    with pytest.raises(TypeError):
        tp.solr_fields_signatures([{"title": {"nested": 1}}], ["title"])
