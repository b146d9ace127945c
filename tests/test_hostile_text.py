"""Every text path is linear-time under hostile input, and the linear-time forms of the patterns find
exactly what the original patterns found (signatures do not change)."""

from __future__ import annotations

import gc
import re
import sys
import time
from collections.abc import Callable
from dataclasses import astuple
from typing import Any

import pytest
from hostile import GENERATORS
from hypothesis import given, settings
from hypothesis import strategies as st

from service import candidates
from service.features import compute_features
from signatures import extract as ex_mod
from signatures import features as sf
from signatures import profile, textprofile
from signatures.extract import extract, html_to_text, markdown_to_text

# --------------------------------------------------------------------------- same outputs

_HOSTILE_ALPHABET = "[](){}<>!#*-_ \t\n\x0c\x0b\u2003\x85:：/@.$1kK（）【】〔〕|｜aAsx工"
_WORDS = ("salary ", "location", "tg", "hiring ", "roles: ", "<p", "<li>", "<h2 a='", "](", "(at)", "[at]", "dot",
          "# ", "## x #", "http://a.b/c", "**", "Engineer", "per year", "1k", "/月", "a@b.co", "岗位", "XX", "<br/>",
          "薪水", "月薪水", "待遇", "SALARY", "ſalary", "hiring", "we are", "is looking for", "招聘")
_hostile_text = st.lists(st.one_of(st.text(alphabet=_HOSTILE_ALPHABET, max_size=12), st.sampled_from(_WORDS)),
                         max_size=30).map("".join)

# the patterns as they were before the linear-time rewrite
_OLD_HEADING_RE = re.compile(r"^\s{0,3}(#{1,6})\s*(.*?)\s*#*\s*$")
_OLD_MD_LINK_RE = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
_OLD_MD_HINT_RE = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d+[.)]\s)|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\)")
_OLD_HTML_HINT_RE = re.compile(r"<\s*(?:p|br|div|a|li|ul|h[1-6]|span|b|i|strong|em|html|body|table)\b[^>]*>|"
                               r"&#x?[0-9a-f]+;|&[a-z]+;", re.IGNORECASE)
_OLD_TAG_RE = re.compile(r"<(?:[A-Za-z/!?][^>]*)>")
_OLD_TITLE_NOISE_RE = re.compile(
    r"(?i)[\[【〔][^\]】〕]*[\]】〕]|(?:薪水|薪资|薪酬|月薪|年薪|salary|待遇).*$|"
    r"诚聘|招聘|急聘|诚招|直招|招募|寻找|徵才|征才|正在|\bis looking for\b|\blooking for\b|\bhiring\b|\bwe are\b"
)


def test_str_strip_is_re_whitespace() -> None:
    """_md_heading strips with str.rstrip where the pattern said \\s: the same characters."""
    ws = re.compile(r"\s")
    assert all(bool(ws.match(chr(c))) == chr(c).isspace() for c in range(sys.maxunicode + 1))


@settings(max_examples=500, deadline=None)
@given(line=st.text(alphabet="# \t\x0c\u2003\x85ab", max_size=20))
def test_md_heading_equals_the_lazy_pattern(line: str) -> None:
    m = _OLD_HEADING_RE.match(line)
    assert ex_mod._md_heading(line) == (m.group(2) if m else None)


@settings(max_examples=400, deadline=None)
@given(text=_hostile_text)
def test_markup_scans_equal_the_original_patterns(text: str) -> None:
    old_md = ex_mod._MD_EMPH_RE.sub("", _OLD_MD_LINK_RE.sub(lambda m: f"{m.group(1)} {m.group(2)}".strip(), text))
    assert markdown_to_text(text) == old_md
    scan = ex_mod._failing_openers(text, "[", "]", ex_mod._md_link_tail(text, text.rfind(")"), False))
    assert ex_mod._md_hint(scan) == bool(_OLD_MD_HINT_RE.search(text))
    assert bool(ex_mod._HTML_HINT_RE.search(ex_mod._unopened(text, "<", ">"))) == bool(_OLD_HTML_HINT_RE.search(text))
    assert profile.strip_markup(text) == _old_strip_markup(text)
    assert sf._title_grams(text) == sf._grams(_OLD_TITLE_NOISE_RE.sub(" ", text))
    assert ex_mod.HEADER_SPLIT_RE.split(text) == re.split(r"\s*[|｜]\s*", text)
    assert [x.strip() for x in ex_mod.HEADER_SPLIT_RE.split(text)] == [
        x.strip() for x in re.split(r"\s[|｜]\s|\s*[|｜]\s*", text)]


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="ab1 é.+#\n", max_size=14), word=st.sampled_from(["a", "ab", "b1", "a+", "1a", "ab.", "c#"]))
def test_names_word_equals_the_occurrence_loop(text: str, word: str) -> None:
    """features._names_word (one C search per word and posting) finds what the Python loop over every occurrence
    found, on the space-padded search text."""
    text = f" {text} "

    def old(text: str, word: str) -> bool:
        i = text.find(word)
        while i >= 0:
            j = i + len(word)
            if not (text[i - 1].isascii() and text[i - 1].isalnum()) and not (
                    j < len(text) and text[j].isascii() and text[j].isalpha()):
                return True
            i = text.find(word, i + 1)
        return False

    assert (sf._word_re(word).search(text) is not None) == old(text, word)


def _old_strip_markup(text: str) -> str:
    import html

    return html.unescape(_OLD_TAG_RE.sub(" ", text)) if "&" in text else _OLD_TAG_RE.sub(" ", text)


@settings(max_examples=300, deadline=None)
@given(text=_hostile_text)
def test_html_to_text_equals_the_original_substitutions(text: str) -> None:
    old_heading = re.compile(r"<\s*h([1-6])\b[^>]*>", re.IGNORECASE)
    old_li = re.compile(r"<\s*li\b[^>]*>", re.IGNORECASE)
    old_block = re.compile(rf"<\s*/?\s*(?:{ex_mod._BLOCK_TAGS})\b[^>]*>", re.IGNORECASE)
    marked = old_heading.sub(lambda m: "\n\n" + "#" * int(m.group(1)) + " ", text)
    marked = old_block.sub("\n", old_li.sub("\n- ", marked))
    k = text.rfind(">") + 1
    new = ex_mod._HEADING_OPEN_RE.sub(lambda m: "\n\n" + "#" * int(m.group(1)) + " ", text[:k])
    new = ex_mod._BLOCK_RE.sub("\n", ex_mod._LI_OPEN_RE.sub("\n- ", new)) + text[k:]
    assert new == marked
    html_to_text(text)  # and the parser takes it


@settings(max_examples=400, deadline=None)
@given(desc=_hostile_text, title=st.one_of(st.none(), _hostile_text),
       lang=st.one_of(st.none(), st.sampled_from(["en", "zh"])))
def test_extract_matches_reference_on_hostile_text(desc: str, title: str | None, lang: str | None) -> None:
    from extract_reference import extract as reference_extract

    p: dict[str, Any] = {"id": "h", "description": desc}
    if title is not None:
        p["title"] = title
    if lang is not None:
        p["lang"] = lang
    assert astuple(extract(p)) == astuple(reference_extract(p))


# --------------------------------------------------------------------------- linear time

_STAGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "extract": extract,
    "prepare": sf.prepare,
    "profile_sig": lambda p: profile.posting_profile_signature(p),
    "textprofile": lambda p: textprofile.solr_fields_signature(p, ["title", "company", "description"]),
    "textprofile_batch": lambda p: textprofile.solr_fields_signatures([p], ["title", "company", "description"],
                                                                      textprofile.DEFAULT_QUANT_RATE,
                                                                      textprofile.DEFAULT_MIN_TOKEN_LEN),
    "features+minhash": lambda p: compute_features([p], with_keys=True),
    "blocking": lambda p: candidates.blocking_keys([p]),
    "pair_features": lambda p: sf.pair_features(*_prepared_pair(p)),
}
_PAIRS: dict[int, tuple[dict[str, Any], sf.Prepared, sf.Prepared]] = {}


def _prepared_pair(p: dict[str, Any]) -> tuple[sf.Prepared, sf.Prepared]:
    """The posting prepared twice (two ids), once per posting: the pair stage times pair_features alone."""
    if id(p) not in _PAIRS or _PAIRS[id(p)][0] is not p:
        _PAIRS[id(p)] = (p, sf.prepare(p), sf.prepare({**p, "id": "hostile-2"}))
    return _PAIRS[id(p)][1:]
N = 25_000
RATIO = 11.0  # t(4n) / t(n): 4 for linear work, 16 for quadratic; generous for a shared machine
FLOOR_S = 0.1  # below this t(4n) is scheduling noise on a shared machine, not growth (quadratic paths took seconds)


def _best(fn: Callable[[dict[str, Any]], object], posting: dict[str, Any], runs: int = 2) -> float:
    best = float("inf")
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            fn(posting)
            best = min(best, time.perf_counter() - t0)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_every_text_path_grows_linearly(name: str) -> None:
    gen = GENERATORS[name]
    small, big = gen(N), gen(4 * N)
    slow = []
    for stage, fn in _STAGES.items():
        fn(small)  # warm caches (dictionaries, tables) outside the timing
        t_small, t_big = _best(fn, small), _best(fn, big)
        if t_big > FLOOR_S and t_big > RATIO * max(t_small, FLOOR_S / RATIO):
            t_small, t_big = _best(fn, small, 5), _best(fn, big, 5)  # confirm: not a scheduling hiccup
            if t_big > FLOOR_S and t_big > RATIO * max(t_small, FLOOR_S / RATIO):
                slow.append(f"{stage}: {t_small:.3f}s at n={N:,} -> {t_big:.3f}s at 4n")
    assert not slow, f"{name}: super-linear {slow}"


_RANGE = st.tuples(st.integers(0, 1440), st.integers(1, 1440)).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=500, deadline=None)
@given(ha=st.lists(_RANGE, min_size=1, max_size=6), hb=st.lists(_RANGE, min_size=1, max_size=6))
def test_hours_overlap_equals_every_pair(ha: list[tuple[int, int]], hb: list[tuple[int, int]]) -> None:
    """jobfacts._overlap (sorted sweep) says what comparing every pair of clock ranges says."""
    from signatures import jobfacts

    assert jobfacts._overlap(ha, hb) == any(s1 < e2 and s2 < e1 for s1, e1 in ha for s2, e2 in hb)


def test_changed_terms_grows_linearly_in_clock_ranges() -> None:
    """Two postings giving thousands of clock ranges that never overlap (one side mornings, the other evenings):
    comparing every pair of ranges was quadratic (seconds at 20,000 ranges)."""
    from signatures import jobfacts

    def terms(n: int, base: int) -> frozenset[str]:
        return frozenset(f"hours:{base + i % 300}-{base + i % 300 + 1 + i // 300}" for i in range(n))

    def run(n: int) -> float:
        a, b = terms(n, 0), terms(n, 2000)
        return _best(lambda _: jobfacts.changed_terms(a, b), {})

    t_small, t_big = run(5_000), run(20_000)
    assert not (t_big > FLOOR_S and t_big > RATIO * max(t_small, FLOOR_S / RATIO)), (t_small, t_big)


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet="都道府県市区町村省州東京々アーa1 ㌖", max_size=16))
def test_admin_names_equal_the_pattern(text: str) -> None:
    """jobfacts.admin_names (one pass over each CJK run) finds the names ADMIN_PLACE's matches capture."""
    from signatures import jobfacts

    assert jobfacts.admin_names(text) == [m.group(1) for m in re.finditer(jobfacts.ADMIN_PLACE, text)]


def test_workplace_units_grow_linearly_in_line_length() -> None:
    """A workplace line NFKC widens (㌖ = キロメートル) into one long CJK run without an administrative suffix:
    ADMIN_PLACE's lazy name scanned to the end of the run from every start (quadratic in the run: 14 s for a
    posting of such lines under the character cap)."""
    from signatures import jobfacts

    def run(m: int) -> float:
        line = "勤務地：東京" + "㌖" * m
        return _best(lambda _: jobfacts.workplace_units([line]), {})

    t_small, t_big = run(1_000), run(4_000)
    assert not (t_big > FLOOR_S / 10 and t_big > RATIO * max(t_small, FLOOR_S / 10 / RATIO)), (t_small, t_big)


@settings(max_examples=300, deadline=None)
@given(names=st.sets(st.text("abcg-", max_size=6), max_size=3),
       labels=st.lists(st.one_of(st.text("abcg", max_size=5), st.text("ab", min_size=41, max_size=44)), max_size=60))
def test_site_labels_kept_unless_inside_a_name(names: set[str], labels: list[str]) -> None:
    """employer._labels_not_inside: the distinct labels inside none of the names, sorted, the first MAX_SITE_NAMES."""
    from signatures.employer import MAX_SITE_NAMES, _labels_not_inside

    want = sorted(x for x in set(labels) if not any(x in n for n in names))[:MAX_SITE_NAMES]
    assert _labels_not_inside(set(names), labels) == want


def test_employer_names_do_not_depend_on_string_hashes() -> None:
    """A posting whose own sites nest (reef.com, reeftechnologies.com) against "Reef Kitchens": the same features
    in processes with other string hashes (the kept site labels followed the set's iteration order, so
    employer_same / employer_differs changed from run to run)."""
    import subprocess
    from pathlib import Path

    code = ("from signatures import features as sf; "
            "a = sf.prepare({'id': 'a', 'description': 'Mail jobs@reef.com or see https://reeftechnologies.com'}); "
            "b = sf.prepare({'id': 'b', 'company': 'Reef Kitchens', 'description': 'Cooks wanted.'}); "
            "print(sorted(a.employers), sf.pair_features(a, b).tolist())")
    repo = str(Path(__file__).resolve().parents[1])
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=repo,
                           env={"PYTHONHASHSEED": str(seed)}).stdout for seed in range(8)}
    assert len(outs) == 1, outs


def test_thousands_of_own_sites_take_little_memory_and_time() -> None:
    """A posting under the service's text cap listing ~4,000 own mail domains of 40 letters: employer_names indexed
    every substring of every kept label (~400 MB and seconds per posting); now a bounded number of labels."""
    import tracemalloc

    from hostile import GENERATORS

    from signatures.employer import MAX_SITE_NAMES, employer_names, employer_sites

    ex = extract(GENERATORS["emails long domains"](200_000))
    sites = employer_sites(ex)
    assert len(sites) > 3000
    tracemalloc.start()
    try:
        names = employer_names(ex, sites)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(names) <= MAX_SITE_NAMES + 1
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB"


def test_a_title_with_a_line_break_reads_its_pay_as_the_reference_does() -> None:
    """A title is one `_line_salaries` text even when it holds a line break: the line-safe context pattern
    stopped there ("1K\\n-" read no pay; hypothesis found it)."""
    from extract_reference import extract as reference_extract

    for title in ("1K\n-", "Engineer 40k\n- 60k", "薪资 20K\n-30K"):
        p = {"id": "h", "description": "", "title": title}
        assert extract(p).salaries == reference_extract(p).salaries, title
