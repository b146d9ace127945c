"""Parity of signatures.textprofile with Solr's own TextProfileSignature (solr-core of the pinned
release, run on this machine's Java 17): >= 10,000 hypothesis-generated texts stressing Java's
Unicode/case tables, HashMap order (incl. tree bins) and float rounding; crafted HashMap edge cases;
field mode; real postings from ../shared/data when present. One Java process, batched requests."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signatures import javachars
from signatures.textprofile import (
    _spread,
    hashmap_order,
    java_profile,
    java_string_hash,
    solr_fields_signature,
    solr_fields_signatures,
    solr_text_signature,
    solr_text_signatures,
)
from tests.java_harness import JavaSigner, build_harness, generate_tables, require_java_toolchain

pytestmark = pytest.mark.java

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def harness_cp() -> str:
    require_java_toolchain()
    return build_harness()


@pytest.fixture(scope="session")
def java_text(harness_cp: str):
    signer = JavaSigner(harness_cp, "text")
    yield signer
    signer.close()


@pytest.fixture(scope="session")
def java_order(harness_cp: str):
    signer = JavaSigner(harness_cp, "order")
    yield signer
    signer.close()


@pytest.fixture(scope="session")
def java_fields(harness_cp: str):
    signer = JavaSigner(harness_cp, "fields")
    yield signer
    signer.close()


def _req(text: str, q: float, m: int) -> dict:
    return {"q": repr(q), "m": str(m), "t": text}


def _compare(java: JavaSigner, cases: list[tuple[str, float, int]]) -> None:
    expected = java.sign([_req(t, q, m) for t, q, m in cases])
    mismatches = []
    for (t, q, m), exp in zip(cases, expected, strict=True):
        assert not exp.startswith("ERROR"), exp
        got = solr_text_signature(t, q, m)
        if got != exp:
            mismatches.append((t, q, m, exp, got))
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ from Solr; first: {mismatches[:3]!r}"
    # the batch API must agree with the single-text API
    by_params: dict[tuple[float, int], list[int]] = {}
    for i, (_, q, m) in enumerate(cases):
        by_params.setdefault((q, m), []).append(i)
    for (q, m), idx in by_params.items():
        assert solr_text_signatures([cases[i][0] for i in idx], q, m) == [expected[i] for i in idx]


# ---------------------------------------------------------------------------------------------
# Java's tables themselves


def test_shipped_char_table_is_what_this_java_generates(harness_cp: str, tmp_path: Path) -> None:
    out = tmp_path / "raw.bin"
    meta = generate_tables(harness_cp, out)
    assert meta["java.version"].startswith("17"), f"tables must come from Java 17, this JVM is {meta}"
    regenerated = javachars.decode_table(javachars.encode_raw_table(out.read_bytes()))
    assert regenerated == javachars.java_table()


# ---------------------------------------------------------------------------------------------
# hypothesis: >= 10,000 generated texts

SPECIAL = [
    "İ", "ı", "I", "Σ", "σ", "ς", "ΣΑΣ", "ὈΔΥΣΣΕΎΣ", "²", "³", "¹", "x²", "①", "⑳", "Ⓐ", "ⓐ", "Ⅻ", "ⅻ", "Ⅰ",
    "e\u0301", "\u0301", "\u0308", "\u0345", "Ａ", "ａ", "１２３", "ＡＢＣ", "ǅ", "ǈ", "ǋ", "ǲ", "Ǆ", "ǆ",
    "中文", "日本語", "あいう", "カタカナ", "한국어", "😀", "👍🏽", "𝐀𝐁", "𐐀𐐨", "\ud800", "\udc00", "\udbff\udfff",
    "ß", "ẞ", "K", "Ω", "Å", "ſ", "ﬁ", "Ꭰ", "ꭰ", "Ა", "ა", "\u0870", "\u08be", "\u1dfa", "\u2e2f", "ª", "º",
    "٣", "߀", "०", "\u00ad", "\u200b", "\u200d", "\ufeff", "\u0300\u0300", "ǰ", "ŉ", "ΐ", "Ϊ", "ϴ", "ϑ",
    "Ⰰ", "ⰰ", "Ꙁ", "ꙁ", "\uffff", "\ue000", "\uf8ff", "ｶ", "ﾞ", "〇", "々", "ー", "\u3000", "\xa0",
]
SEPARATORS = [" ", "  ", "\n", "\t", ",", ".", "-", "_", "'", "’", "•", "—", "/", "|", "(", ")", "😀", "\u3000"]
COLLIDE = ["".join(p) for p in __import__("itertools").product(["Aa", "BB"], repeat=4)]  # 16 equal hashes


def _bucket_mates(seed: int = 7, n: int = 40, mask: int = 127) -> list[str]:
    """Distinct-hash words sharing one HashMap bucket at capacities up to mask + 1."""
    rng = random.Random(seed)
    groups: dict[int, list[str]] = {}
    while True:
        w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5))
        g = groups.setdefault(_spread(java_string_hash(w)) & mask, [])
        if w not in g:
            g.append(w)
        if len(g) >= n:
            return g


MATES = _bucket_mates()
VOCAB = ["the", "and", "job", "Job", "JOB", "python", "Python", "remote", "12", "123", "2024", "ab", "abc",
         "engineer", "senior", "team", "work", "a1b2", "x", "yy", "zzz"]

word = st.one_of(
    st.sampled_from(VOCAB),
    st.sampled_from(SPECIAL),
    st.sampled_from(COLLIDE),
    st.sampled_from(MATES),
    st.text(min_size=1, max_size=8),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=6),
    st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0xFFFF), min_size=1, max_size=5),
)
piece = st.tuples(word, st.sampled_from(SEPARATORS), st.integers(1, 4)).map(lambda t: (t[0] + t[1]) * t[2])
texts = st.lists(piece, max_size=60).map("".join)
quant_rates = st.one_of(
    st.sampled_from([0.01, 0.01, 0.0, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 1.5, 0.3333, 1e-7, 3.0, 0.075]),
    st.floats(min_value=0.0, max_value=2.0, allow_nan=False),
)
min_lens = st.sampled_from([2, 2, 2, 0, 1, 3, 4, 6, -1])


def test_hypothesis_texts_match_solr(java_text: JavaSigner) -> None:
    cases: list[tuple[str, float, int]] = []

    @settings(max_examples=10_500, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(texts, quant_rates, min_lens)
    def collect(text: str, q: float, m: int) -> None:
        cases.append((text, q, m))

    collect()
    assert len(cases) >= 10_000
    _compare(java_text, cases)


def test_batch_kernel_hypothesis_texts_match_solr(java_text: JavaSigner) -> None:
    """>= 10,000 hypothesis texts through the batch kernel in large batches (one per parameter pair)."""
    params = [(0.01, 2), (1.0, 0), (0.5, 3), (0.0, 1)]
    cases: list[tuple[str, float, int]] = []

    @settings(max_examples=10_200, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(texts, st.sampled_from(params))
    def collect(text: str, qm: tuple[float, int]) -> None:
        cases.append((text, *qm))

    collect()
    assert len(cases) >= 10_000
    expected = java_text.sign([_req(t, q, m) for t, q, m in cases])
    bad = []
    for q, m in params:
        idx = [i for i, c in enumerate(cases) if c[1:] == (q, m)]
        got = solr_text_signatures([cases[i][0] for i in idx], q, m)
        bad += [(cases[i], expected[i], g) for i, g in zip(idx, got, strict=True) if g != expected[i]]
    assert not bad, f"{len(bad)} of {len(cases)} differ from Solr; first: {bad[:3]!r}"


# ---------------------------------------------------------------------------------------------
# crafted HashMap cases: treeified bins (equal hashes, same bucket), capacity jumps from treeifyBin


def _crafted_cases() -> list[tuple[str, float, int]]:
    rng = random.Random(1234)
    filler = [f"w{i:03d}x" for i in range(400)]
    cases: list[tuple[str, float, int]] = []
    for trial in range(300):
        groups = [COLLIDE, MATES, ["".join(p) for p in __import__("itertools").product(["Aa", "BB"], repeat=5)]]
        grp = groups[trial % 3]
        k = rng.randint(6, len(grp))
        special = rng.sample(grp, k)
        nfill = rng.choice([0, 3, 10, 40, 60, 100, 200, 400])
        words = special + rng.sample(filler, nfill)
        rng.shuffle(words) if trial % 2 else None
        # repeat some so that they survive quantization, many ties
        seq: list[str] = []
        for w in words:
            seq.extend([w] * rng.choice([1, 2, 2, 3, 4]))
        if trial % 4 == 0:
            rng.shuffle(seq)
        q = rng.choice([0.01, 0.0, 0.5, 1.0])
        cases.append((" ".join(seq), q, 2))
    return cases


def test_crafted_hashmap_tree_bins_match_solr(java_text: JavaSigner) -> None:
    _compare(java_text, _crafted_cases())


def test_orientation_vector_from_issue(java_text: JavaSigner) -> None:
    assert java_text.sign([_req("I have an apple", 1.0, 2)]) == ["8b821c9e763bb2fc567d473996cfde4a"]


# ---------------------------------------------------------------------------------------------
# java_profile over given tokens (the API the Chinese/Japanese profile signatures use) and HashMap order

# Java letters/digits that toLowerCase leaves alone: a text of such tokens joined by spaces makes Solr
# count exactly these tokens, so java_profile(tokens) can be checked against Solr's own class.
_FIXED = [chr(c) for c, v in enumerate(javachars.java_table()) if v == c and v != 0]
_LOWER_COLLIDE = ["".join(p) for p in __import__("itertools").product(["aþ", "bß"], repeat=4)]  # equal hashes
_fixed_token = st.one_of(
    st.text(alphabet=st.sampled_from(_FIXED), min_size=1, max_size=4),
    st.text(alphabet=st.sampled_from("abcdefghij0123中文字ßþ"), min_size=1, max_size=3),
    st.sampled_from(_LOWER_COLLIDE),
)


def test_java_profile_over_tokens_matches_solr(java_text: JavaSigner) -> None:
    cases: list[tuple[list[str], float]] = []

    @settings(max_examples=3_000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(_fixed_token, max_size=250), quant_rates)
    def collect(tokens: list[str], q: float) -> None:
        cases.append((tokens, q))

    collect()
    expected = java_text.sign([_req(" ".join(toks), q, 0) for toks, q in cases])
    bad = [(c, e) for c, e in zip(cases, expected, strict=True)
           if hashlib.md5(java_profile(c[0], c[1]).encode("utf-8")).hexdigest() != e]
    assert not bad, f"{len(bad)} of {len(cases)} differ from Solr; first: {bad[:2]!r}"


def test_hashmap_order_matches_java(java_order: JavaSigner) -> None:
    cases: list[list[str]] = []

    @settings(max_examples=2_000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.one_of(st.text(max_size=4), st.sampled_from(COLLIDE + MATES + _LOWER_COLLIDE)), max_size=200))
    def collect(keys: list[str]) -> None:
        cases.append(keys)

    collect()
    rng = random.Random(5)
    for _ in range(200):  # tree bins for sure: > 48 keys, then >= 9 equal hashes (some astral)
        keys = [f"f{i}" for i in range(rng.randint(40, 120))]
        keys += rng.sample(COLLIDE, rng.randint(5, 16)) + ["😀" + k for k in rng.sample(_LOWER_COLLIDE, 12)]
        keys += rng.sample(MATES, rng.randint(0, 30))
        if rng.random() < 0.5:
            rng.shuffle(keys)
        cases.append(keys)
    expected = java_order.sign([{"keys": k} for k in cases])
    for keys, exp in zip(cases, expected, strict=True):
        first = {}
        for i, k in enumerate(keys):
            first.setdefault(k, i)
        got = ",".join(str(first[k]) for k in hashmap_order(list(first)))
        assert got == exp, keys


# ---------------------------------------------------------------------------------------------
# field mode: SignatureUpdateProcessorFactory's loop

scalar = st.one_of(
    texts,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0.5, 1.0, 1e7, 1.5e10, 123.456, 1e-5, 0.001, -2.25, 100.0, 12345678.9]),
    st.booleans(),
    st.none(),
)
field_value = st.one_of(scalar, st.lists(scalar, max_size=4))
field_names = st.sampled_from(["title", "company", "description", "id", "location", "ab", "Title", "ñame", "z_f"])
postings = st.dictionaries(field_names, field_value, max_size=6)


def test_hypothesis_fields_match_solr(java_fields: JavaSigner) -> None:
    cases: list[tuple[dict, list[str], float, int]] = []

    @settings(max_examples=2_000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(postings, st.lists(field_names, min_size=1, max_size=5), quant_rates, min_lens)
    def collect(doc: dict, fields: list[str], q: float, m: int) -> None:
        cases.append((doc, fields, q, m))

    collect()
    reqs = [{"q": repr(q), "m": str(m), "fields": ",".join(f), "doc": d} for d, f, q, m in cases]
    expected = java_fields.sign(reqs)
    bad = [(c, e) for c, e in zip(cases, expected, strict=True) if solr_fields_signature(c[0], c[1], c[2], c[3]) != e]
    assert not bad, f"{len(bad)} of {len(cases)} postings differ from Solr; first: {bad[:3]!r}"


def test_hypothesis_fields_batch_match_solr(java_fields: JavaSigner) -> None:
    docs: list[dict] = []

    @settings(max_examples=2_000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(postings)
    def collect(doc: dict) -> None:
        docs.append(doc)

    collect()
    fields = ["title", "company", "description", "id", "ñame"]
    for q, m in [(0.01, 2), (1.0, 0)]:
        reqs = [{"q": repr(q), "m": str(m), "fields": ",".join(fields), "doc": d} for d in docs]
        assert solr_fields_signatures(docs, fields, q, m) == java_fields.sign(reqs)


# ---------------------------------------------------------------------------------------------
# real postings (only when ../shared/data is present; never required)


def _shared_postings() -> list[dict]:
    out = []
    for name in ("en-hn-hiring.jsonl", "zh-rebase-hiring.jsonl", "ja-postings.jsonl"):
        p = SHARED_DATA / name
        if p.is_file():
            out.extend(json.loads(line) for line in p.read_text(encoding="utf-8").split("\n") if line.strip())
    return out


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="no ../shared/data here (optional real postings)")
def test_real_postings_match_solr(java_text: JavaSigner, java_fields: JavaSigner) -> None:
    postings = _shared_postings()
    if not postings:
        pytest.skip("../shared/data has no postings files")
    cases = []
    for p in postings:
        for f in ("title", "company", "description"):
            if isinstance(p.get(f), str):
                cases.append((p[f], 0.01, 2))
    cases += [(c[0], 0.1, 3) for c in cases[::7]]
    _compare(java_text, cases)
    fields = ["title", "company", "description", "location"]
    reqs = [{"q": "0.01", "m": "2", "fields": ",".join(fields), "doc": p} for p in postings]
    expected = java_fields.sign(reqs)
    got = [solr_fields_signature(p, fields) for p in postings]
    assert got == expected
    assert solr_fields_signatures(postings, fields) == expected


if os.environ.get("CI") == "true":  # in CI the real-data test must not hide a missing toolchain
    pass
