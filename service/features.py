"""Per-posting features the dedup pipelines compare, computed in batches (worker processes).

Exact keys (normalized content hash, canonical URL), the profile signature, the MinHash sketch and
LSH band keys, and field keys (company / title / location) for the placeholder decision. Everything
is returned as numpy arrays so a million postings stay compact.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import numpy as np
import xxhash

from service import sketching
from signatures.employer import employer_core
from signatures.extract import line_cache
from signatures.profile import posting_profile_signatures, profile_evidence

_TAG_RE = re.compile(r"<[^>]{0,2000}>")
_NONWORD_RE = re.compile(r"[\W_]+", re.UNICODE)
_SIMPLE_URL_RE = re.compile(r"(?i)^https?://([a-z0-9.\-]+)(/[^?#]*)?$")
_TRACKING = ("utm_", "ref", "source", "src", "fbclid", "gclid", "trk", "campaign")


def plain_text(text: str | None) -> str:
    """Cheap HTML-to-text for hashing: tags become spaces, entities are decoded."""
    if not text:
        return ""
    if "<" in text:  # no tag reaches past the last '>': no 2,000-character scan from each '<' after it
        k = text.rfind(">") + 1
        text = _TAG_RE.sub(" ", text[:k]) + text[k:]
    if "&" in text:
        text = html.unescape(text)
    return text


def field_key(value: Any, kind: str = "") -> int:
    """64-bit key of a normalized metadata field (0 when empty); a company's key is its employer's trade name
    (signatures.employer.employer_core, the blocking keys' reading: legal forms, places, business words dropped)."""
    if not value or not isinstance(value, str):
        return 0
    return _field_key(value, kind)


@line_cache  # bounded: a long field is computed, not kept (a cache of 200,000 such held their whole text)
def _field_key(value: str, kind: str) -> int:
    if kind == "company":
        v = employer_core(value).casefold()
    else:
        v = _NONWORD_RE.sub("", value.casefold())
    return xxhash.xxh64_intdigest(v.encode("utf-8")) if v else 0


def canonical_url(url: str | None) -> str:
    """A URL without scheme, `www.`, fragment, tracking parameters or trailing slash ('' if none)."""
    if not url or not isinstance(url, str):
        return ""
    url = url.strip()
    m = _SIMPLE_URL_RE.match(url)
    if m:  # fast path: no query, fragment, port or user info
        host = m.group(1).lower()
        return f"{host[4:] if host.startswith('www.') else host}{(m.group(2) or '').rstrip('/')}"
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    if not host:
        return ""
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith(_TRACKING)]
    path = parts.path.rstrip("/")
    q = urlencode(sorted(query))
    return f"{host}{path}" + (f"?{q}" if q else "")


def content_text(posting: Mapping[str, Any]) -> str:
    """The text that identifies a posting's content: title, company, location and description."""
    return "\n".join(plain_text(posting.get(f)) for f in ("title", "company", "location", "description"))


@dataclass
class FeatureBatch:
    """Features of a batch of postings, one row per posting."""

    content: np.ndarray      # uint64 xxh64 of the normalized content (0: empty)
    url: np.ndarray          # uint64 xxh64 of the canonical URL (0: none)
    profile: np.ndarray      # uint64 first 64 bits of profile_sig (0: none)
    company: np.ndarray      # uint64 field keys
    title: np.ndarray
    location: np.ndarray
    ntok: np.ndarray         # int32 words in the content (guards signature matches on tiny texts)
    sketch: np.ndarray       # (n, K) uint32 low bits of the MinHash sketch
    bands: np.ndarray        # (n, B) uint64 LSH band keys
    profile_hex: list[str]   # full profile signatures (for output / Solr)
    band_keys: list[list[str]] | None = None  # band keys as strings (Solr mh_bands), when asked for
    sketch_full: np.ndarray | None = None     # (n, K) uint64 sketches, when asked for


def profile_key(sig: str) -> int:
    """The engine's key of a profile signature: its first 64 bits; 0 (no key) when equal signatures say
    nothing (signatures.profile.profile_evidence: unsigned, or no token in title and description)."""
    return int(sig[:16], 16) if profile_evidence(sig) else 0


def compute_features(postings: Sequence[Mapping[str, Any]], with_keys: bool = False) -> FeatureBatch:
    """Compute every dedup feature of a batch of postings (`with_keys`: also band keys as strings)."""
    n = len(postings)
    url = np.zeros(n, np.uint64)
    profile = np.zeros(n, np.uint64)
    company = np.zeros(n, np.uint64)
    title = np.zeros(n, np.uint64)
    location = np.zeros(n, np.uint64)
    ntok = np.zeros(n, np.int32)
    prof_hex: list[str] = []
    texts: list[str] = []
    for i, p in enumerate(postings):
        texts.append(content_text(p))
        cu = canonical_url(p.get("url"))
        if cu:
            url[i] = xxhash.xxh64_intdigest(cu.encode("utf-8"))
        company[i] = field_key(p.get("company"), "company")
        title[i] = field_key(p.get("title"))
        location[i] = field_key(p.get("location"))
    if n:
        full, content, ntok = sketching.sketch_with_content_keys(texts)
    else:
        full, content = np.zeros((0, sketching.NUM_PERM), np.uint64), np.zeros(0, np.uint64)
    nonempty = [i for i in range(n) if ntok[i]]
    sigs = dict(zip(nonempty, posting_profile_signatures([postings[i] for i in nonempty]), strict=True))
    for i in range(n):
        ph = sigs.get(i, "")
        prof_hex.append(ph)
        profile[i] = profile_key(ph)
    bands = sketching.band_hashes_batch(full)
    empty = sketching.is_empty(full)
    ntok[empty] = 0          # no shingles: never a MinHash match (see decision_glue)
    bands[empty] = 0         # and never a band-key candidate
    keys = sketching.band_keys_batch(full) if with_keys else None
    if keys is not None:
        for i in np.flatnonzero(empty):
            keys[i] = []
    sketch = full.astype(np.uint32)  # low 32 bits: enough to estimate Jaccard, half the memory
    return FeatureBatch(content, url, profile, company, title, location, ntok, sketch, bands, prof_hex, keys,
                        full if with_keys else None)
