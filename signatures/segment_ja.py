"""Japanese word segmentation for profile signatures: MeCab via fugashi with unidic-lite.

Each CJK run (Han/kana, see signatures.script) is parsed on its own, so a run's words never depend
on its neighbours; that makes a per-run cache exact. Job postings repeat phrases heavily (platform
boilerplate, reposts), so the cache carries much of the speed. Words whose UniDic part of speech
(first level) is in DROP_POS are not content: particles, auxiliary verbs, symbols, blanks.

Speed: MeCab prints each morpheme as "surface<TAB>left context id" (`%phl`), not its part of speech
(`%f[0]`): formatting a feature column makes MeCab split the ~20-field feature CSV of every
morpheme, which cost a quarter of the parse. unidic-lite's left-id.def maps every id to its feature
prefix, whose first field is the morpheme's pos1 (every [left rewrite] rule of rewrite.def starts with
$1), so the dropped parts of speech are a set of ids; one regex pass over MeCab's output keeps the
surfaces of the other ids.
"""

from __future__ import annotations

import re
import shlex
from collections import (
    Counter,
    _count_elements,  # type: ignore[attr-defined]  # Counter.update's C loop
)
from collections.abc import Iterable, Sequence
from itertools import chain
from pathlib import Path

# UniDic pos1 values that never decide a signature: particles, auxiliaries, symbols, whitespace.
DROP_POS = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白"})
CACHE_RUNS = 1 << 17


def left_id_pos1(dicdir: str | Path) -> list[str]:
    """pos1 of every left context id of a MeCab UniDic dictionary (index = id), from left-id.def."""
    out: list[str] = []
    with open(Path(dicdir) / "left-id.def", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            ident, _, feature = line.rstrip("\n").partition(" ")
            if int(ident) != n:
                raise ValueError(f"{dicdir}/left-id.def: line {n + 1} has id {ident}, expected {n}")
            out.append(feature.split(",", 1)[0])
    return out


def alternation(words: Iterable[str]) -> str:
    """A regex matching exactly the given literal words (a trie: shared prefixes and identical
    suffix sets merged, so matching a number takes a few steps however many ids the set has)."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        groups: dict[str, list[str]] = {}
        for ch, child in node.items():
            if ch:
                groups.setdefault(build(child), []).append(re.escape(ch))
        alts = [
            (chars[0] if len(chars) == 1 else "[" + "".join(sorted(chars)) + "]") + rest
            for rest, chars in sorted(groups.items())
        ]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 and len(alts[0]) == 1 else "(?:" + "|".join(alts) + ")"
        return body + "?" if "" in node else body

    return build(trie) if trie else "(?!)"


class MecabSegmenter:
    """fugashi (MeCab) + unidic-lite; content words of each CJK run, cached per run."""

    name = "fugashi-unidic-lite"

    def __init__(self, drop_pos: frozenset[str] = DROP_POS, cache_runs: int = CACHE_RUNS) -> None:
        import fugashi
        import unidic_lite

        fmt = r"%m\t%phl\n"  # surface, left context id (-> pos1 via left-id.def)
        args = " ".join(
            [
                "-d", shlex.quote(unidic_lite.DICDIR),
                "-r", shlex.quote(f"{unidic_lite.DICDIR}/mecabrc"),
                "-O", "''",  # drop the dictionary's "unidic" output type so the formats below apply
                f"-F'{fmt}'", f"-U'{fmt}'", r"-E'\n'",
            ]
        )  # fmt: skip
        self._tagger = fugashi.GenericTagger(args)
        self._parse = self._tagger.parse
        self._pos1 = left_id_pos1(unidic_lite.DICDIR)
        self._drop = drop_pos
        self._drop_ids = alternation(str(i) for i, pos in enumerate(self._pos1) if pos in drop_pos)
        self.version = f"fugashi-{_dist_version('fugashi')}-unidic-lite-{_dist_version('unidic-lite')}"
        self.cache_runs = cache_runs
        """Most runs kept in the word cache (0: no cache; benchmarks time parsing new text)."""
        # per min_len: (regex keeping content surfaces of >= min_len characters, run -> words cache)
        self._by_min_len: dict[int, tuple[re.Pattern[str], dict[str, tuple[str, ...]]]] = {}

    def _content(self, min_len: int) -> tuple[re.Pattern[str], dict[str, tuple[str, ...]]]:
        """The surface filter and word cache for `min_len`: one C-level regex pass over MeCab's
        "surface<TAB>id" lines keeps the surfaces of >= min_len characters whose id is kept."""
        entry = self._by_min_len.get(min_len)
        if entry is None:
            surface = rf"([^\t\n]{{{max(1, min_len)},}})"
            entry = (re.compile(rf"^{surface}\t(?!(?:{self._drop_ids})$)", re.M), {})
            self._by_min_len[min_len] = entry
        return entry

    def morphemes(self, text: str) -> list[tuple[str, str]]:
        """(surface, UniDic pos1) of every morpheme MeCab finds in `text`."""
        pos1 = self._pos1
        out = []
        for line in self._parse(text).split("\n"):
            if line:
                surface, _, ident = line.partition("\t")
                out.append((surface, pos1[int(ident)]))
        return out

    def _run_words(self, runs: Sequence[str], min_len: int) -> list[tuple[str, ...]]:
        """Per run, its content words of >= min_len characters: cache hits looked up in C (one map
        over the runs), misses parsed one run at a time (runs shorter than min_len hold none)."""
        content, cache = self._content(min_len)
        found = list(map(cache.get, runs))
        if None in found:
            parse, findall, limit = self._parse, content.findall, self.cache_runs
            for i, words in enumerate(found):
                if words is None:
                    run = runs[i]
                    words = found[i] = tuple(findall(parse(run))) if len(run) >= min_len else ()
                    if limit > 0:
                        if len(cache) >= limit:
                            cache.clear()  # bounded; cheaper than LRU bookkeeping on every hit
                        cache[run] = words
        return found  # type: ignore[return-value]

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """Content words of all CJK runs with at least `min_len` characters, in order. Each run is
        parsed on its own (cached per run); runs shorter than `min_len` cannot hold such a word."""
        return list(chain.from_iterable(self._run_words(runs, min_len)))

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of words(runs, min_len), counted straight from the per-run tuples."""
        counts: Counter[str] = Counter()
        _count_elements(counts, chain.from_iterable(self._run_words(runs, min_len)))
        return counts

    def cache_clear(self) -> None:
        """Forget all cached runs (benchmarks: measure parsing new text)."""
        for _, cache in self._by_min_len.values():
            cache.clear()


def _dist_version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)
