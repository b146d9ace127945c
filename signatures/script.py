"""Script and language detection for profile signatures: which segmenter a text's CJK runs need.

Rules (per text or per posting): any kana, and kana at least a tenth as frequent as Han -> Japanese;
Han otherwise -> Chinese; else Hangul (syllables x3 >= Latin letters) -> Korean; Latin letters ->
Latin; anything else -> other.
Korean, Latin and other texts are tokenized with Solr's rules (they are space-delimited); only CJK
runs (Han, kana) go to a word segmenter. Detection counts characters with compiled regexes, no loops.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final

JA: Final = "ja"
ZH: Final = "zh"
KO: Final = "ko"
LATIN: Final = "latin"
OTHER: Final = "other"
LANGUAGES: Final = (JA, ZH, KO, LATIN, OTHER)

# Han ideographs: CJK Unified (+ Ext. A, B-H), compatibility ideographs, iteration / closing marks.
_HAN = (
    "\u3005\u3006\u3007\u303b"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0002fa1f\U00030000-\U000323af"
)
# Kana: hiragana (incl. iteration marks), katakana (incl. prolonged sound mark, without the
# middle dot U+30FB which is punctuation), small-katakana extension, halfwidth katakana.
_KANA = "\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_HANGUL = "\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uffa0-\uffdc"

HAN_RE: Final = re.compile(f"[{_HAN}]+")
KANA_RE: Final = re.compile(f"[{_KANA}]+")
HANGUL_RE: Final = re.compile(f"[{_HANGUL}]+")
CJK_RE: Final = re.compile(f"[{_HAN}{_KANA}]+")
"""A maximal run of Han and/or kana: the unit handed to a word segmenter."""
_LATIN_RE: Final = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff\uff21-\uff3a\uff41-\uff5a]+")

# Width variants folded where they change words: fullwidth Latin letters/digits, halfwidth katakana (with their
# voiced marks), CJK compatibility ideographs. NFKC of these runs only: NFKC of a whole text costs more than
# segmenting it, and its other changes (punctuation widths, ...) never change a word.
WIDTH_RE: Final = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff66-\uff9f\uf900-\ufaff]+")
_WIDTH_CHAR: Final = re.compile(WIDTH_RE.pattern[:-1])  # one character: a search without "+" scans ~2x faster


def _nfkc(m: re.Match[str]) -> str:
    return unicodedata.normalize("NFKC", m.group())


def has_width_forms(text: str) -> bool:
    """Whether `text` holds a character fold_width changes."""
    return _WIDTH_CHAR.search(text) is not None


#: Line breaks sites write besides "\n" (str.splitlines' usual ones), "\r\n" first: one break, not two.
LINE_BREAKS: Final = ("\r\n", "\r", "\x85", "\u2028", "\u2029")


def unify_line_breaks(text: str) -> str:
    """`text` with each LINE_BREAKS break written "\n": a Windows copy of an ad reads as its Unix copy (str.replace:
    a regex substitution cost ~25 us a text)."""
    for brk in LINE_BREAKS:
        if brk in text:
            text = text.replace(brk, "\n")
    return text


def fold_width(text: str) -> str:
    """`text` with fullwidth Latin letters and digits, halfwidth katakana and compatibility ideographs in their
    usual forms (NFKC of those runs): one site's ｱｸｾｽ / ２０２５ is another's アクセス / 2025."""
    return WIDTH_RE.sub(_nfkc, text) if _WIDTH_CHAR.search(text) is not None else text


# Kana share (of Han + kana) from which a text counts as Japanese. Real Japanese prose runs at
# 30-60 % kana; Chinese text quoting a brand with "の" stays far below 10 %.
JA_KANA_SHARE: Final = 0.1


def _count(rx: re.Pattern[str], text: str) -> int:
    return sum(map(len, rx.findall(text)))


def detect_language(text: str) -> str:
    """Language code of `text` for segmentation: "ja", "zh", "ko", "latin" or "other"."""
    if not isinstance(text, str):
        raise TypeError(f"detect_language expects str, got {type(text).__name__}")
    han = _count(HAN_RE, text)
    kana = _count(KANA_RE, text)
    if kana and kana >= JA_KANA_SHARE * (han + kana):
        return JA
    if han:
        return ZH
    hangul = _count(HANGUL_RE, text)
    if hangul:
        latin = _count(_LATIN_RE, text)
        if 3 * hangul >= latin:  # a Hangul syllable spells about three Latin letters' worth
            return KO
    if _LATIN_RE.search(text):
        return LATIN
    return OTHER


def has_cjk(text: str) -> bool:
    """True when `text` has any Han or kana character (then it is not signed with Solr's plain rules)."""
    return CJK_RE.search(text) is not None


def segmenter_language(lang: str) -> str:
    """The segmenter for the CJK runs of a text in `lang`: Japanese texts use "ja", all others "zh"."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language code {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return JA if lang == JA else ZH


def split_runs(text: str) -> Iterator[tuple[bool, str]]:
    """Split `text` into maximal runs, in order: (True, CJK run) or (False, anything between)."""
    pos = 0
    for m in CJK_RE.finditer(text):
        start = m.start()
        if start > pos:
            yield False, text[pos:start]
        yield True, m.group()
        pos = m.end()
    if pos < len(text):
        yield False, text[pos:]
