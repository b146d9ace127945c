"""Tokenizer-aware profile signatures (`profile_sig`): TextProfileSignature over real words.

STUB: the API below is the contract; the implementation lands with issue 2.
"""

from __future__ import annotations

from collections.abc import Mapping

PROFILE_FIELDS = ("title", "company", "description")


def profile_signature(text: str) -> str:
    """Profile signature of one text, language detected (Chinese: jieba, Japanese: fugashi)."""
    raise NotImplementedError


def posting_profile_signature(posting: Mapping[str, object]) -> str:
    """The `profile_sig` of a posting, over title, company and description."""
    raise NotImplementedError
