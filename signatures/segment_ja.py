"""Japanese word segmentation for profile signatures: MeCab via fugashi with unidic-lite.

Each CJK run (Han/kana, see signatures.script) is parsed on its own, so a run's words never depend
on its neighbours; that makes a per-run cache exact. Job postings repeat phrases heavily (platform
boilerplate, reposts), so the cache carries much of the speed. Words whose UniDic part of speech
(first level) is in DROP_POS are not content: particles, auxiliary verbs, symbols, blanks.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Sequence

# UniDic pos1 values that never decide a signature: particles, auxiliaries, symbols, whitespace.
DROP_POS = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白"})
CACHE_RUNS = 1 << 17


class MecabSegmenter:
    """fugashi (MeCab) + unidic-lite; content words of each CJK run, cached per run."""

    name = "fugashi-unidic-lite"

    def __init__(self, drop_pos: frozenset[str] = DROP_POS, cache_runs: int = CACHE_RUNS) -> None:
        import fugashi
        import unidic_lite

        fmt = r"%m\t%f[0]\n"
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
        self._drop = drop_pos
        self._alternatives = "|".join(re.escape(p) for p in sorted(drop_pos, key=len, reverse=True))
        self.version = f"fugashi-{_dist_version('fugashi')}-unidic-lite-{_dist_version('unidic-lite')}"
        self._cache_runs = cache_runs
        # per min_len: (regex keeping content surfaces of >= min_len characters, run -> words cache)
        self._by_min_len: dict[int, tuple[re.Pattern[str], dict[str, tuple[str, ...]]]] = {}

    def _content(self, min_len: int) -> tuple[re.Pattern[str], dict[str, tuple[str, ...]]]:
        """The surface filter and word cache for `min_len`: one C-level regex pass over MeCab's
        "surface<TAB>pos1" lines keeps the surfaces of >= min_len characters whose pos1 is kept."""
        entry = self._by_min_len.get(min_len)
        if entry is None:
            surface = rf"([^\t\n]{{{max(1, min_len)},}})"
            pos = rf"(?!(?:{self._alternatives})$)" if self._alternatives else ""
            entry = (re.compile(rf"^{surface}\t{pos}", re.M), {})
            self._by_min_len[min_len] = entry
        return entry

    def morphemes(self, text: str) -> list[tuple[str, str]]:
        """(surface, UniDic pos1) of every morpheme MeCab finds in `text`."""
        out = []
        for line in self._parse(text).split("\n"):
            if line:
                surface, _, pos = line.partition("\t")
                out.append((surface, pos))
        return out

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """Content words of all CJK runs with at least `min_len` characters, in order. Each run is
        parsed on its own (cached per run); runs shorter than `min_len` cannot hold such a word."""
        content, cache = self._content(min_len)
        get = cache.get
        out: list[str] = []
        for run in runs:
            words = get(run)
            if words is None:
                if len(run) < min_len:
                    continue
                words = tuple(content.findall(self._parse(run)))
                if self._cache_runs > 0:
                    if len(cache) >= self._cache_runs:
                        cache.clear()  # bounded; cheaper than LRU bookkeeping on every hit
                    cache[run] = words
            out += words
        return out

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of words(runs, min_len)."""
        return Counter(self.words(runs, min_len))

    def cache_clear(self) -> None:
        """Forget all cached runs (benchmarks: measure parsing new text)."""
        for _, cache in self._by_min_len.values():
            cache.clear()


def _dist_version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)
