"""Word segmenters for CJK runs behind one small registry.

A segmenter turns the CJK runs of one text (maximal Han/kana runs, see signatures.script) into its
content words, in text order. Adding a tokenizer = one module with a class implementing `Segmenter`
plus one `register(...)` line below. Implementations are imported lazily on first use, so importing
`signatures` never loads a dictionary.
"""

from __future__ import annotations

import importlib
import threading
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Segmenter(Protocol):
    """Turns CJK runs into content words (text order). `version` names tokenizer + dictionary."""

    name: str
    version: str

    def words(self, runs: Sequence[str], min_len: int = 1) -> list[str]:
        """Content words of all `runs` with at least `min_len` characters, concatenated in order
        (punctuation and function words dropped)."""
        ...

    def word_counts(self, runs: Sequence[str], min_len: int = 1) -> Counter[str]:
        """Counts of `words(runs, min_len)` (what a profile needs; may be faster than counting words)."""
        ...


_TARGETS: dict[str, str] = {}
_INSTANCES: dict[str, Segmenter] = {}
_LOCK = threading.Lock()


def register(name: str, target: str) -> None:
    """Register segmenter `name` as "module:Class" (instantiated without arguments on first use)."""
    if ":" not in target:
        raise ValueError(f"segmenter target must look like 'package.module:Class', got {target!r}")
    _TARGETS[name] = target
    _INSTANCES.pop(name, None)


def names() -> list[str]:
    """Names of all registered segmenters."""
    return sorted(_TARGETS)


def get_segmenter(name: str) -> Segmenter:
    """The (shared, lazily built) segmenter registered as `name`."""
    seg = _INSTANCES.get(name)
    if seg is not None:
        return seg
    try:
        target = _TARGETS[name]
    except KeyError:
        raise KeyError(f"no segmenter {name!r}; registered: {', '.join(names())}") from None
    with _LOCK:
        seg = _INSTANCES.get(name)
        if seg is None:
            module, _, cls = target.partition(":")
            seg = getattr(importlib.import_module(module), cls)()
            _INSTANCES[name] = seg
            _warn_on_unpinned_tokenizers()
    return seg


_CHECKED = False


def _warn_on_unpinned_tokenizers() -> None:
    """Warn once when an installed tokenizer differs from the pinned one (signatures would differ)."""
    global _CHECKED
    if _CHECKED:
        return
    _CHECKED = True
    from signatures.version import tokenizer_mismatches

    bad = tokenizer_mismatches()
    if bad:
        warnings.warn(
            "profile signatures depend on pinned tokenizers; installed versions differ: " + "; ".join(bad),
            RuntimeWarning,
            stacklevel=3,
        )


# --- registrations: one line per tokenizer -------------------------------------------------------
register("zh", "signatures.segment_zh:RJiebaSegmenter")  # jieba-rs: same words as jieba 0.42.1
register("zh-jieba", "signatures.segment_zh:JiebaSegmenter")  # pure-Python reference, ~15x slower
register("ja", "signatures.segment_ja:MecabSegmenter")  # fugashi (MeCab) + unidic-lite
