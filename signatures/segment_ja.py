"""Japanese word segmentation for profile signatures: MeCab via fugashi with unidic-lite.

Each CJK run (Han/kana, see signatures.script) is parsed on its own, so a run's words never depend
on its neighbours; that makes a per-run cache exact. Job postings repeat phrases heavily (platform
boilerplate, reposts), so the cache carries much of the speed. Words whose UniDic part of speech
(first level) is in DROP_POS are not content: particles, auxiliary verbs, symbols, blanks.
"""

from __future__ import annotations

import functools
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
        self._drop = drop_pos
        alternatives = "|".join(re.escape(p) for p in sorted(drop_pos, key=len, reverse=True))
        self._content_re = (
            re.compile(rf"^([^\t\n]+)\t(?!(?:{alternatives})$)", re.M)
            if drop_pos
            else (re.compile(r"^([^\t\n]+)\t", re.M))
        )
        self.version = f"fugashi-{_dist_version('fugashi')}-unidic-lite-{_dist_version('unidic-lite')}"
        self._run_words = functools.lru_cache(maxsize=cache_runs)(self._parse_run)

    def morphemes(self, text: str) -> list[tuple[str, str]]:
        """(surface, UniDic pos1) of every morpheme MeCab finds in `text`."""
        out = []
        for line in self._tagger.parse(text).split("\n"):
            if line:
                surface, _, pos = line.partition("\t")
                out.append((surface, pos))
        return out

    def _parse_run(self, run: str) -> tuple[str, ...]:
        # one C-level regex pass over MeCab's "surface<TAB>pos1" lines keeps the content surfaces
        return tuple(self._content_re.findall(self._tagger.parse(run)))

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """Content words of all CJK runs with at least `min_len` characters, in order."""
        get = self._run_words
        out: list[str] = []
        for run in runs:
            out.extend(get(run))
        return [w for w in out if len(w) >= min_len] if min_len > 1 else out

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of words(runs, min_len)."""
        return Counter(self.words(runs, min_len))


def _dist_version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)
