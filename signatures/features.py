"""Pair features for the duplicate verifier: each one a number with a plain meaning, so a decision can be
explained. Postings are prepared once (`prepare`), pairs are compared cheaply (`pair_features`).
Pure computation, no I/O.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import xxhash

from signatures.boilerplate import BoilerplateModel, company_key
from signatures.extract import Extracted, extract, normalize_line

__all__ = ["FEATURES", "Prepared", "families_added", "feature_matrix", "pair_features", "prepare", "shingle_hashes"]

#: Names of the verifier's features, in model order.
FEATURES: tuple[str, ...] = (
    "text_jaccard",  # Jaccard of all shingles
    "spec_jaccard",  # boilerplate-weighted Jaccard (job-specific text)
    "spec_containment",  # boilerplate-weighted containment of the smaller posting in the larger
    "title_sim",  # title similarity (character bigrams), 0.5 when a title is missing
    "role_sim",  # role-set similarity, title_sim when roles are missing
    "mention_sim",  # soft Jaccard of all job titles (roles + phrases mentioned anywhere), role_sim when none
    "roles_changed",  # share of job titles one side names that the other side's text never mentions
    "employer_agree",  # +1 same company / shared contact, -1 different company, 0 unknown
    "salary_agree",  # +1 same salary figures, -1 both give pay and it differs, 0 unknown
    "location_agree",  # +1 same location, -1 different, 0 unknown
    "date_gap",  # log(1 + days between postings) / log(366), 0 when a date is missing
    "families_added",  # log(1 + role families (frontend, sales, ...) one side hires for and the other not), max side
)

_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_TOKEN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+", re.UNICODE)
_DIGITS_RE = re.compile(r"\d+")
_URL_RE = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)
_SHINGLE = {"en": 3, "zh": 3, "ja": 3}


def _tokens(line: str) -> list[str]:
    """Words for Latin text, single characters for CJK (robust without a dictionary)."""
    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", line).lower())


def shingle_hashes(tokens: Sequence[str], k: int) -> list[int]:
    """64-bit xxhash of every k-token shingle (the whole line when it is shorter than k)."""
    if not tokens:
        return []
    if len(tokens) <= k:
        return [xxhash.xxh64_intdigest("\x1f".join(tokens).encode())]
    return [xxhash.xxh64_intdigest("\x1f".join(tokens[i : i + k]).encode()) for i in range(len(tokens) - k + 1)]


def _grams(s: str) -> frozenset[str]:
    """Character bigrams of a short normalized string (titles, roles, locations); digits dropped."""
    s = _DIGITS_RE.sub("", normalize_line(s)).replace(" ", "")
    if len(s) < 2:
        return frozenset([s]) if s else frozenset()
    return frozenset(s[i : i + 2] for i in range(len(s) - 1))


_TITLE_NOISE_RE = re.compile(
    r"(?i)[\[【〔][^\]】〕]*[\]】〕]|(?:薪水|薪资|薪酬|月薪|年薪|salary|待遇).*$|"
    r"诚聘|招聘|急聘|诚招|直招|招募|寻找|徵才|征才|正在|\bis looking for\b|\blooking for\b|\bhiring\b|\bwe are\b"
)


def _title_grams(title: str) -> frozenset[str]:
    """Bigrams of a title without bracketed tags (locations, remote), pay and hiring phrases."""
    return _grams(_TITLE_NOISE_RE.sub(" ", title))


def _jac(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def _parse_date(v: str | None) -> float:
    """Days since the epoch, NaN when missing or unparsable."""
    if not v:
        return math.nan
    try:
        return datetime.fromisoformat(str(v).replace("Z", "+00:00")).timestamp() / 86400.0
    except ValueError:
        return math.nan


@dataclass(frozen=True, eq=False)
class Prepared:
    """A posting ready for pairwise comparison; build with `prepare` once per posting."""

    ex: Extracted
    sh: np.ndarray  # sorted unique uint64 shingle hashes
    w: np.ndarray  # boilerplate weight per shingle (max over the lines holding it)
    w_sum: float
    title: frozenset[str]
    roles: tuple[frozenset[str], ...]
    mentions: frozenset[str]
    all_roles: tuple[frozenset[str], ...]
    role_keys: tuple[str, ...]  # role phrases in searchable form (see _search_form)
    search_text: str  # the whole text in searchable form
    company: str
    contacts: frozenset[str]
    salaries: frozenset[float]
    location: frozenset[str]
    day: float
    families: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.ex.id


def prepare(posting: Mapping[str, Any] | Extracted, boilerplate: BoilerplateModel | None = None) -> Prepared:
    """Extract a posting (unless given `Extracted`) and precompute everything the pair features need."""
    ex = posting if isinstance(posting, Extracted) else extract(posting)
    k = _SHINGLE.get(ex.lang, 3)
    lw = boilerplate.line_weights(ex) if boilerplate is not None else np.ones(len(ex.lines), np.float32)
    # one token stream over all lines (so re-flowed lines keep their shingles), URLs left out (tracking
    # and requisition links change between reposts; contacts are compared separately)
    toks: list[str] = []
    tw: list[float] = []
    for line, wt in zip(ex.lines, lw, strict=True):
        t = _tokens(_URL_RE.sub(" ", line))
        toks.extend(t)
        tw.extend([float(wt)] * len(t))
    hs = shingle_hashes(toks, k)
    if len(toks) <= k:
        ws = [min(tw)] if toks else []
    else:
        twa = np.array(tw, dtype=np.float32)
        ws = np.minimum.reduce([twa[i : len(twa) - k + 1 + i] for i in range(k)]).tolist()
    if hs:
        arr = np.array(hs, dtype=np.uint64)
        warr = np.array(ws, dtype=np.float32)
        order = np.lexsort((-warr, arr))  # by hash, highest weight first
        arr, warr = arr[order], warr[order]
        keep = np.ones(len(arr), dtype=bool)
        keep[1:] = arr[1:] != arr[:-1]
        arr, warr = arr[keep], warr[keep]
    else:
        arr, warr = np.zeros(0, np.uint64), np.zeros(0, np.float32)
    contacts = frozenset(
        [*ex.emails, *ex.phones, *(u for u in ex.urls if "/" in u or u.startswith("handle:"))]
    )
    return Prepared(
        ex=ex,
        sh=arr,
        w=warr,
        w_sum=float(warr.sum()),
        title=_title_grams(ex.title),
        roles=tuple(g for g in (_grams(r) for r in ex.roles) if g),
        mentions=frozenset(ex.mentions),
        all_roles=_merge_roles([*ex.roles, *ex.mentions]),
        role_keys=tuple(k for k in dict.fromkeys(_search_form(r) for r in (*ex.mentions, *ex.roles)) if len(k) >= 4),
        search_text=" " + _search_form(ex.title + " " + ex.text) + " ",
        company=company_key(ex.company),
        contacts=contacts,
        salaries=frozenset(round(s, -2) for s in ex.salaries),
        location=_grams(ex.location),
        day=_parse_date(ex.posted_at),
        families=frozenset(ex.families),
    )


def _same_role(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two role names agree: bigram Jaccard >= 0.5, or one is (nearly) contained in the other."""
    inter = len(a & b)
    return inter >= 0.5 * (len(a) + len(b) - inter) or inter >= 0.8 * min(len(a), len(b))


def _merge_roles(names: Sequence[str]) -> tuple[frozenset[str], ...]:
    """Distinct roles of one posting: names that agree with an earlier one are dropped."""
    out: list[frozenset[str]] = []
    for n in names:
        g = _grams(n)
        if len(g) >= 2 and not any(_same_role(g, h) for h in out):
            out.append(g)
    return tuple(out)


def _role_match(a: tuple[frozenset[str], ...], b: tuple[frozenset[str], ...]) -> int:
    """How many roles of `a` match a distinct role of `b` (greedy, bigram Jaccard >= 0.5)."""
    used: set[int] = set()
    matched = 0
    for ra in a:
        best, bj = -1.0, -1
        for j, rb in enumerate(b):
            if j in used or not _same_role(ra, rb):
                continue
            s = _jac(ra, rb)
            if s > best:
                best, bj = s, j
        if bj >= 0:
            used.add(bj)
            matched += 1
    return matched


_SEARCH_RE = re.compile(r"[^\w]+")


def _search_form(text: str) -> str:
    """Lowercase NFKC words with plural -s dropped, single spaces; CJK characters kept as they are."""
    words = _SEARCH_RE.sub(" ", unicodedata.normalize("NFKC", text).lower()).split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and w.isascii() else w for w in words)


def _novel_roles(a: Prepared, b: Prepared) -> tuple[int, int]:
    """(roles named by one side that the other side's text never mentions, all roles named)."""
    novel = sum(1 for k in a.role_keys if f" {k} " not in b.search_text and k not in b.search_text.replace(" ", ""))
    novel += sum(1 for k in b.role_keys if f" {k} " not in a.search_text and k not in a.search_text.replace(" ", ""))
    return novel, len(a.role_keys) + len(b.role_keys)


def _role_sim(a: tuple[frozenset[str], ...], b: tuple[frozenset[str], ...]) -> float:
    """Soft Jaccard of two role sets; NaN when either is empty."""
    if not a or not b:
        return math.nan
    matched = _role_match(a, b)
    return matched / (len(a) + len(b) - matched)


def families_added(a: Prepared, b: Prepared) -> tuple[str, ...]:
    """Role families one posting hires for that the other does not (the side with more of them)."""
    only_a, only_b = a.families - b.families, b.families - a.families
    return tuple(sorted(only_a if len(only_a) >= len(only_b) else only_b))


def pair_features(a: Prepared, b: Prepared) -> np.ndarray:
    """The FEATURES vector of one pair (float64)."""
    f = np.zeros(len(FEATURES), dtype=np.float64)
    if len(a.sh) and len(b.sh):
        _, ia, ib = np.intersect1d(a.sh, b.sh, assume_unique=True, return_indices=True)
        n = len(ia)
        f[0] = n / (len(a.sh) + len(b.sh) - n)
        wmin = np.minimum(a.w[ia], b.w[ib]).sum()
        union = a.w_sum + b.w_sum - wmin  # sum over the union of each shingle's larger weight
        f[1] = wmin / union if union > 0 else 0.0
        small = min(a.w_sum, b.w_sum)
        f[2] = wmin / small if small > 0 else 0.0
    title = _jac(a.title, b.title) if a.title and b.title else 0.5
    f[3] = title
    roles = _role_sim(a.roles, b.roles)
    f[4] = title if math.isnan(roles) else roles
    both = _role_sim(a.all_roles, b.all_roles)
    f[5] = f[4] if math.isnan(both) else both
    novel, total = _novel_roles(a, b)
    f[6] = novel / total if total else 0.0
    if a.company and b.company:
        f[7] = 1.0 if (a.company == b.company or a.company in b.company or b.company in a.company) else -1.0
    if f[7] <= 0 and a.contacts and b.contacts and (a.contacts & b.contacts):
        f[7] = 1.0
    if a.salaries and b.salaries:
        f[8] = 1.0 if a.salaries == b.salaries else (-1.0 if not (a.salaries & b.salaries) else 0.0)
    if a.location and b.location:
        f[9] = 1.0 if _jac(a.location, b.location) >= 0.5 else -1.0
    if not (math.isnan(a.day) or math.isnan(b.day)):
        f[10] = math.log1p(abs(a.day - b.day)) / math.log(366.0)
    f[11] = math.log1p(len(families_added(a, b)))
    return f


def feature_matrix(pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
    """FEATURES for many pairs: shape (len(pairs), len(FEATURES))."""
    out = np.zeros((len(pairs), len(FEATURES)), dtype=np.float64)
    for i, (a, b) in enumerate(pairs):
        out[i] = pair_features(a, b)
    return out
