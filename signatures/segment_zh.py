"""Chinese word segmentation for profile signatures: jieba 0.42.1 words, computed by jieba-rs.

Only runs of jieba's own Han range (U+4E00..U+9FD5) are segmented; any other CJK character of a run
(kana, rarer ideographs) is its own one-character word, exactly as jieba yields characters outside
that range. Restricting the segmenter to pure Han runs is what makes jieba-rs (`rjieba`) and jieba
give identical words: they differ only in how they split non-Han text (URLs, "35k-50k"), which
never reaches them here. Non-CJK text is tokenized with Solr's rules elsewhere.
"""

from __future__ import annotations

import re
from collections import (
    Counter,
    _count_elements,  # type: ignore[attr-defined]  # Counter.update's C loop
)
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import ge

# jieba's HMM (new-word discovery for out-of-dictionary strings): off. Evidence in
# benchmarks/eval_profile.py: same precision, and dictionary-only words are more stable.
HMM = False

_JIEBA_HAN = re.compile("([\u4e00-\u9fd5]+)")
_OUTSIDE = re.compile("[^\u4e00-\u9fd5 ]")


def _word_counts(cut: Callable[[str], list[str]], runs: Sequence[str], min_len: int = 1) -> Counter[str]:
    """Counter of _split_words(cut, runs, min_len). Short words are filtered out before counting,
    with C-level iterators: hashing jieba's many 1-character words cost as much as segmenting."""
    joined = " ".join(runs)
    if _OUTSIDE.search(joined) is not None:  # some run holds characters outside jieba's Han range
        return Counter(_split_words(cut, runs, min_len))
    words = cut(joined)
    counts: Counter[str] = Counter()
    if min_len >= 2:  # length filter in C before counting (also drops the " " between runs)
        _count_elements(counts, compress(words, map(ge, map(len, words), repeat(min_len))))
    else:
        _count_elements(counts, words)
        counts.pop(" ", None)
    return counts


def _split_words(cut: Callable[[str], list[str]], runs: Sequence[str], min_len: int = 1) -> list[str]:
    """Segment the jieba-Han pieces of `runs` with one `cut` call; other characters are single words.
    Words shorter than `min_len` are left out."""
    joined = " ".join(runs)
    if _OUTSIDE.search(joined) is None:  # the common case: every run is pure jieba-range Han
        if min_len >= 2:  # the length test drops the " " separators too
            return [w for w in cut(joined) if len(w) >= min_len]
        return [w for w in cut(joined) if w != " "]
    han: list[str] = []
    layout: list[str | None] = []  # None = next Han piece, else a one-character word
    for run in runs:
        for i, part in enumerate(_JIEBA_HAN.split(run)):
            if not part:
                continue
            if i % 2:
                han.append(part)
                layout.append(None)
            else:
                layout.extend(part)
    if not han:
        return [c for c in layout if c is not None and min_len <= 1]
    # Pieces joined by a space are cut independently (a space is its own block for jieba).
    words = cut(" ".join(han))
    out: list[str] = []
    it = iter(words)
    for item in layout:
        if item is not None:
            out.append(item)
            continue
        for w in it:
            if w == " ":
                break
            out.append(w)
    return [w for w in out if len(w) >= min_len] if min_len > 1 else out


class RJiebaSegmenter:
    """jieba-rs (rjieba) with its bundled dictionary = jieba 0.42.1's dict.txt; precise mode."""

    name = "rjieba"

    def __init__(self, hmm: bool = HMM) -> None:
        import rjieba

        self._jieba = rjieba.Jieba()  # a private instance: nobody's add_word can change our words
        self._hmm = hmm
        self.version = f"rjieba-{_dist_version('rjieba')}-hmm{int(hmm)}"

    def cut(self, text: str) -> list[str]:
        """jieba precise-mode words of `text` (any text)."""
        return self._jieba.cut(text, self._hmm)

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """All words of the CJK runs with at least `min_len` characters, in order."""
        return _split_words(self.cut, runs, min_len)

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of words(runs, min_len)."""
        return _word_counts(self.cut, runs, min_len)


class JiebaSegmenter:
    """Pure-Python jieba 0.42.1, precise mode: the reference RJiebaSegmenter must equal."""

    name = "jieba"

    def __init__(self, hmm: bool = HMM) -> None:
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)
        self._tok = jieba.Tokenizer()  # private instance with the default dictionary
        self._hmm = hmm
        self.version = f"jieba-{_dist_version('jieba')}-hmm{int(hmm)}"

    def cut(self, text: str) -> list[str]:
        """jieba precise-mode words of `text` (any text)."""
        return list(self._tok.cut(text, HMM=self._hmm))

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """All words of the CJK runs with at least `min_len` characters, in order."""
        return _split_words(self.cut, runs, min_len)

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of words(runs, min_len)."""
        return _word_counts(self.cut, runs, min_len)


def _dist_version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)
