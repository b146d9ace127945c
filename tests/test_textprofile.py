"""signatures.textprofile without Java: the issue's orientation vector, Java facts that are public
knowledge (String.hashCode values, simple case mapping), the fast path against the exact reference
path, and the CLI. Parity with Solr itself: tests/test_textprofile_java.py."""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signatures import javachars
from signatures import textprofile as tp


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


def test_cli_fields_jsonl() -> None:
    post = '{"id": "1", "title": "Senior Engineer", "company": "Acme"}\n'
    res = subprocess.run(
        [sys.executable, "-m", "service.cli", "sig", "--fields", "title,company", "--jsonl"],
        input=(post * 2).encode(), capture_output=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    want = tp.solr_fields_signature({"title": "Senior Engineer", "company": "Acme"}, ["title", "company"])
    assert res.stdout.decode().split() == [want, want]
