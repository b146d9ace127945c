"""Byte-exact port of Solr's TextProfileSignature (Nutch's fuzzy profile hash) and of the digest
SignatureUpdateProcessorFactory builds over several fields.

STUB: the API below is the contract; the implementation lands with issue 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

DEFAULT_QUANT_RATE = 0.01
DEFAULT_MIN_TOKEN_LEN = 2


def solr_text_signature(
    text: str, quant_rate: float = DEFAULT_QUANT_RATE, min_token_len: int = DEFAULT_MIN_TOKEN_LEN
) -> str:
    """What Solr's TextProfileSignature gives for `text` added as one value: lowercase hex MD5."""
    raise NotImplementedError


def solr_text_signatures(
    texts: Iterable[str], quant_rate: float = DEFAULT_QUANT_RATE, min_token_len: int = DEFAULT_MIN_TOKEN_LEN
) -> list[str]:
    """Batch form of solr_text_signature."""
    return [solr_text_signature(t, quant_rate, min_token_len) for t in texts]


def solr_fields_signature(
    posting: Mapping[str, object],
    fields: Sequence[str],
    quant_rate: float = DEFAULT_QUANT_RATE,
    min_token_len: int = DEFAULT_MIN_TOKEN_LEN,
) -> str:
    """What SignatureUpdateProcessorFactory(fields=...) with TextProfileSignature writes into `signature`."""
    raise NotImplementedError
