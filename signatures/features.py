"""Pair features for the duplicate verifier: each one a number with a plain meaning, so a decision can be
explained. Postings are prepared once (`prepare`), pairs are compared cheaply (`pair_features`).
Pure computation, no I/O.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import accumulate, chain
from typing import Any

import numpy as np
import xxhash

from signatures import jobfacts
from signatures.boilerplate import BoilerplateModel
from signatures.employer import employer_names, employer_sites, names_agree
from signatures.extract import (
    _ASCII_WORD_OR_SPACE,
    _MENTION_RE,
    CJK_CHAR_RE,
    HEADER_SPLIT_RE,
    ROLE_NOUNS,
    Extracted,
    _families_in,
    _looks_like_role,
    _sub_spans,
    _unopened,
    extract,
    iso_datetime,
    line_cache,
    normalize_line,
    role_families,
)
from signatures.roles_zh import ZhRole, same_zh_role, zh_announced, zh_role, zh_title_roles

__all__ = [
    "ALWAYS_KNOWN",
    "FEATURES",
    "announced_families",
    "announced_roles",
    "Prepared",
    "families_added",
    "feature_matrix",
    "employer_sites",
    "job_links",
    "links_compared",
    "pair_features",
    "place_names",
    "places_moved",
    "prepare",
    "job_terms",
    "terms_changed",
    "role_word_sets",
    "shingle_hashes",
]

#: Names of the verifier's features, in model order. 0 always means "unknown" for evidence that a posting may
#: not give (roles, role families, employer, salary, place, date, links): unknown is never agreement; the
#: `*_known` indicators say when both postings gave it.
FEATURES: tuple[str, ...] = (
    "text_jaccard",  # Jaccard of all shingles
    "text_copy",  # 1 when the whole texts are copies (text_jaccard >= 0.95): the same ad, whatever its title says
    "spec_jaccard",  # boilerplate-weighted Jaccard (job-specific text)
    "spec_containment",  # boilerplate-weighted containment of the smaller posting in the larger
    "spec_near_copy",  # how far spec_jaccard is into its top band: (spec_jaccard - 0.7) / 0.3, 0 below 0.7
    "title_sim",  # title similarity (character bigrams), 0 when a title is missing
    "roles_known",  # 1 when both postings announce roles (header, title, role lists and sections)
    "role_sim",  # soft Jaccard of the announced roles (en: word by word; CJK: as names, see _cjk_alike), 0 unknown
    "roles_changed",  # fraction of roles changed: unmatched roles of the side with more / the larger role count
    "roles_novel",  # share of announced roles one side names that the other side's text never mentions
    "families_known",  # 1 when both postings announce role families (frontend, sales, ...)
    "families_changed",  # role families only one side announces / families either announces, 0 unknown
    "employer_same",  # 1 same employer name (tags, legal forms dropped), own site, mail domain or contact
    "employer_differs",  # 1 both name an employer (name or own site) and none agrees, no shared contact
    "employer_conflict",  # 1 the names differ and both give their own sites, none shared: two employers
    "employer_roles",  # role_sim when the employer is the same (same employer and the same roles), else 0
    "salary_same",  # 1 same salary figures
    "salary_differs",  # 1 both give pay and no figure agrees
    "location_agree",  # +1 same location, -1 different, 0 unknown
    "date_gap",  # log(1 + days between postings) / log(366), 0 when a date is missing
    "links_changed",  # share of job links (ATS / careers pages) listed by one side only; 0 unless both list >= 2
    "places_moved",  # 1 when each side names a place (header / location field) the other posting never mentions
    "pay_tiers",  # 1 when both give pay, no figure agrees and they were posted within a day: two pay tiers, two offers
    "duties_known",  # 1 when both postings have duty / requirement sections and no evidence of two employers
    "duties_containment",  # containment of the smaller posting's duty-section shingles in the other's; 0 unknown or
    # two employers (one template's duties under two employers are no evidence of one job)
    "terms_changed",  # 1 when both state an employment type, pay unit or shift (hours) and they differ (job_terms)
    "employer_jobs",  # English: 1 same employer and the same particular job set by the GUIDE: every role kept, or one of
    # three or more added, dropped or swapped (roles_changed < 0.5, at most one role each way), whatever the
    # rewording; roles naming no particular job
    # ("Software Engineer" at a company hiring for many teams) give 0. Chinese: the same, read strictly (_zh_same_jobs)
    "roles_halved",  # English: 1 when both announce roles, each with a role word, no evidence of two employers, and
    # half or more of the larger role list changed (one of two roles added or dropped, another single role):
    # another job set (PARTIAL). Japanese: the same for a multi-role post with a role kept, when the role families
    # changed too (_ja_halved); not Chinese (body-inflated role lists: it fires on misread TEMPORAL reposts)
    "links_same",  # English: 1 when both list job links (ATS job pages, careers/<job> pages) and the very same ones:
    # the same requisition(s) whatever the rewording
)
_I = {name: i for i, name in enumerate(FEATURES)}
#: Features that are always known (text similarity): explanations measure them against the average pair;
#: every other feature is measured against 0 = unknown.
ALWAYS_KNOWN: frozenset[str] = frozenset(
    {"text_jaccard", "text_copy", "spec_jaccard", "spec_containment", "spec_near_copy"})

_TOKEN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+", re.UNICODE)
_DIGITS_RE = re.compile(r"\d+")
_URL_RE = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)


def _tokens(line: str) -> list[str]:
    """Words for Latin text, single characters for CJK (robust without a dictionary)."""
    if line.isascii():  # NFKC is the identity, the tokens are the [a-z0-9] runs: a byte table splits them
        return line.lower().encode("ascii").translate(_ALNUM_ONLY).decode("ascii").split()
    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", line).lower())


@line_cache
def _line_tokens(line: str) -> tuple[str, ...]:
    """`_tokens` of one line of main text with its URLs left out (tracking and requisition links change
    between reposts; contacts are compared separately); cached per line, the tokens interned (lines share
    their words, so a cache entry holds pointers, not copies)."""
    if "://" in line or "www." in line.lower():  # every _URL_RE match holds one of them
        line = _URL_RE.sub(" ", line)
    return tuple(map(sys.intern, _tokens(line)))


def shingle_hashes(tokens: Sequence[str], k: int) -> list[int]:
    """64-bit xxhash of every k-token shingle (the whole line when it is shorter than k)."""
    if not tokens:
        return []
    if len(tokens) <= k:
        return [xxhash.xxh64_intdigest("\x1f".join(tokens).encode())]
    t, h = tokens, xxhash.xxh64_intdigest
    if k == 3:  # the job-text shingles (SHINGLE_K)
        joined = "\x1f".join(t)
        data = joined.encode()
        if len(data) == len(joined):  # ASCII: each shingle is a slice of the joined bytes (a token's bytes are
            # its characters), from its first token's start to before the separator after its last token
            start = [0, *accumulate(len(x) + 1 for x in t)]
            return [h(data[a : e - 1]) for a, e in zip(start[:-3], start[3:], strict=True)]
        return [h(f"{t[i]}\x1f{t[i + 1]}\x1f{t[i + 2]}".encode()) for i in range(len(t) - 2)]
    return [h("\x1f".join(t[i : i + k]).encode()) for i in range(len(t) - k + 1)]


#: Tokens per shingle of the job-text similarity (every language).
SHINGLE_K = 3


@line_cache
def _line_shingles(line: str) -> bytes:
    """`shingle_hashes` of the SHINGLE_K-token shingles lying within one line (none when it has fewer tokens),
    as uint64 bytes (pieces of a posting are joined without a Python int per shingle)."""
    toks = _line_tokens(line)
    return array("Q", shingle_hashes(toks, SHINGLE_K) if len(toks) >= SHINGLE_K else ()).tobytes()


@line_cache
def _line_edges(line: str) -> tuple[tuple[bytes, ...], tuple[tuple[int, bytes], ...]]:
    """What the shingles crossing a line break need of one line: its first r tokens joined ("\\x1f", UTF-8) for r
    in 1..SHINGLE_K-1 (heads, while it has them), and for each shingle starting in its last SHINGLE_K-1 tokens
    how many tokens it takes from the next line and its own tokens joined with a trailing "\\x1f" (tails). A
    crossing shingle's bytes are a tail + the next line's head: `shingle_hashes` of the joined tokens, from per-line
    pieces (pairs of adjacent lines rarely repeat, lines do)."""
    toks = _line_tokens(line)
    k, m = SHINGLE_K, len(toks)
    heads = tuple("\x1f".join(toks[:r]).encode() for r in range(1, min(m, k - 1) + 1))
    tails = tuple((k - (m - j), ("\x1f".join(toks[j:]) + "\x1f").encode()) for j in range(max(0, m - k + 1), m))
    return heads, tails


def text_shingles(lines: Sequence[str], lw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every shingle of the lines' one token stream (`shingle_hashes(all tokens, SHINGLE_K)`: re-flowed lines keep
    their shingles), in no particular order, and its weight: the least line weight `lw` of the tokens it spans
    (`shingle_spans`, `span_weights`)."""
    sh, first, last, tok = shingle_spans(lines)
    return sh, span_weights(lw, first, last, tok)


def shingle_spans(lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`text_shingles` without the weights: the shingle hashes, the first and last line of the tokens each spans
    (int32) and which lines hold tokens (`_shingle_parts` as arrays)."""
    pieces, counts, more_h, more_first, more_last = _shingle_parts(lines)
    sh = np.frombuffer(b"".join(pieces), np.uint64)
    first = np.repeat(np.arange(len(lines), dtype=np.int32), [len(x) >> 3 for x in pieces])
    last = first.copy()
    if more_h:
        sh = np.concatenate([sh, np.array(more_h, np.uint64)])
        first = np.concatenate([first, np.array(more_first, np.int32)])
        last = np.concatenate([last, np.array(more_last, np.int32)])
    return sh, first, last, np.array(counts, np.int64) > 0


def _shingle_parts(lines: Sequence[str]) -> tuple[list[bytes], list[int], list[int], list[int], list[int]]:
    """`shingle_spans` before it becomes arrays (so a batch of postings becomes arrays at once): per line the
    shingles within it (uint64 bytes) and its token count, then the other shingles' hashes with their first and
    last line. The shingles within a line and those crossing into a next line of SHINGLE_K-1 tokens or more come
    from per-line caches; those running past a shorter next line (a one-word heading) are hashed here."""
    k = SHINGLE_K
    per_line = list(map(_line_tokens, lines))
    counts = list(map(len, per_line))
    n = sum(counts)
    if n <= k:
        if not n:
            return [b""] * len(lines), counts, [], [], []
        sh = shingle_hashes(list(chain.from_iterable(per_line)), k)
        on = [i for i, c in enumerate(counts) if c]
        return [b""] * len(lines), counts, sh, [on[0]] * len(sh), [on[-1]] * len(sh)
    pieces = list(map(_line_shingles, lines))
    edges = list(map(_line_edges, lines))
    cross: list[bytes] = []  # the bytes of the shingles crossing into a next line of k-1 tokens or more
    cross_first: list[int] = []
    more_h: list[int] = []
    more_last: list[int] = []
    more_first: list[int] = []
    for i in range(len(lines) - 1):
        if not counts[i]:
            continue
        if counts[i + 1] >= k - 1:
            heads = edges[i + 1][0]
            for need, tail in edges[i][1]:
                cross.append(tail + heads[need - 1])
                cross_first.append(i)
            continue
        # the next line is shorter: the shingles starting in this line's last k-1 tokens run on past it
        nxt: list[str] = []
        nxt_line: list[int] = []
        j = i + 1
        while len(nxt) < k - 1 and j < len(lines):
            got = per_line[j][: k - 1 - len(nxt)]
            nxt += got
            nxt_line += [j] * len(got)
            j += 1
        a = per_line[i]
        for s in range(max(0, len(a) - k + 1), len(a)):
            need = k - (len(a) - s)
            if need > len(nxt):
                break
            more_h.append(xxhash.xxh64_intdigest("\x1f".join((*a[s:], *nxt[:need])).encode()))
            more_first.append(i)
            more_last.append(nxt_line[need - 1])
    if cross:
        more_h[:0] = map(xxhash.xxh64_intdigest, cross)
        more_first[:0] = cross_first
        more_last[:0] = [i + 1 for i in cross_first]
    return pieces, counts, more_h, more_first, more_last


def span_weights(lw: np.ndarray, first: np.ndarray, last: np.ndarray, tok: np.ndarray) -> np.ndarray:
    """Each shingle's weight: the least line weight `lw` over the lines from `first` to `last` that hold tokens."""
    eff = np.where(tok, np.asarray(lw, np.float32), np.float32(np.inf))
    w = eff[first]
    span = last - first
    at = np.flatnonzero(span)  # the shingles spanning d lines or more: each one's work is its span, whatever
    d = 1                      # the others in the batch span
    while len(at):
        w[at] = np.minimum(w[at], eff[first[at] + d])
        d += 1
        at = at[span[at] >= d]
    return w


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


_PAY_WORD_RE = re.compile(r"(?i)薪水|薪资|薪酬|月薪|年薪|salary|待遇")  # _TITLE_NOISE_RE's `.*$` words


@line_cache
def _title_grams(title: str) -> frozenset[str]:
    """Bigrams of a title without bracketed tags (locations, remote), pay and hiring phrases."""
    scan = _unopened(title, "[【〔", "]】〕")  # same matches, without rescanning from unclosed brackets
    end = len(title) - 1 if title.endswith("\n") else len(title)
    cut = title.rfind("\n", 0, end)
    if cut > 0:  # `pay word.*$` fails before the last line: such words blanked to word characters, not rescanned
        scan = _PAY_WORD_RE.sub(lambda m: "0" * len(m.group()), scan[:cut]) + scan[cut:]
    return _grams(_sub_spans(_TITLE_NOISE_RE, scan, title, lambda m: " "))


def _jac(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def _parse_date(v: str | None) -> float:
    """Days since the epoch, NaN when missing or unparsable."""
    d = iso_datetime(v) if v else None
    try:
        return d.timestamp() / 86400.0 if d is not None else math.nan
    except ValueError:  # year 1 in local time: "year 0 is out of range"
        return math.nan


@dataclass(frozen=True, eq=False)
class Prepared:
    """A posting ready for pairwise comparison; build with `prepare` once per posting."""

    ex: Extracted
    sh: np.ndarray  # sorted unique uint64 shingle hashes
    w: np.ndarray  # boilerplate weight per shingle (max over the lines holding it)
    w_sum: float
    title: frozenset[str]
    roles: tuple[frozenset[str], ...]  # distinct announced roles as bigram sets (see announced_roles)
    role_keys: tuple[str, ...]  # announced roles in searchable form (see _search_form)
    employers: frozenset[str]  # normalized employer names (see signatures.employer.employer_names)
    named: bool  # the employer's name comes from the company field / header, not only from the text or a site
    contacts: frozenset[str]
    salaries: frozenset[float]
    location: frozenset[str]
    day: float
    families: frozenset[str] = frozenset()  # role families of the announced roles (see announced_families)
    links: frozenset[str] = frozenset()  # job links (see job_links)
    sites: frozenset[str] = frozenset()  # the employer's own domains (see employer_sites)
    places: frozenset[str] = frozenset()  # place names of the header / location field (see place_names)
    role_words: tuple[frozenset[str], ...] = ()  # English roles as normalized word sets (see role_word_sets)
    role_alts: tuple[tuple[frozenset[str], ...], ...] = ()  # per role of `role_words`, its _alternatives
    role_levels: tuple[frozenset[str], ...] = ()  # per role of `role_words`, its seniority (see _role_levels)
    role_names: tuple[str, ...] = ()  # the name of each of `roles`
    role_parts: tuple[tuple[frozenset[str], frozenset[str], frozenset[str]], ...] = ()  # _cjk_role_parts of each
    zh_roles: tuple[ZhRole, ...] = ()  # Chinese postings: each of `role_names` read as a name (see roles_zh)
    zh_title: tuple[ZhRole, ...] = ()  # Chinese postings: the distinct roles the title announces (zh_title_roles)
    duties: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint64))  # see duty_shingles
    terms: frozenset[str] = frozenset()  # employment type, pay unit, shift as "dimension:value" (see job_terms)
    worded: bool = False  # English: every announced role has a role word (see _worded)

    @property
    def id(self) -> str:
        return self.ex.id

    @cached_property
    def place_words(self) -> str:
        """Every word of an English posting, in order, space-separated and padded (built on first use: only
        pairs that both name places need it); see _place_words_text."""
        return _place_words_text(self.ex) if self.ex.lang == "en" else ""

    @cached_property
    def place_text(self) -> str:
        """The posting as one lowercase NFKC string without spaces: place checks for unspaced scripts."""
        text = " ".join((self.ex.title, self.ex.location, self.ex.company, self.ex.text))
        return unicodedata.normalize("NFKC", text).lower().replace(" ", "")

    def mentions_place(self, place: str) -> bool:
        """Whether the posting names `place` anywhere (a word in English, a substring otherwise)."""
        if self.ex.lang != "en":
            return place in self.place_text
        text = self.place_words
        padded = _SPELLINGS.get(place) or (f" {place} ",)
        return any(map(text.__contains__, padded))

    @cached_property
    def search_text(self) -> str:
        """Title and text in searchable form (`_search_text`; built on first use: only pairs comparing roles
        or looking for an employer's name in the text read it)."""
        return _search_text(self.ex)

    @cached_property
    def words_written(self) -> dict[str, bool]:
        """Latin words asked about by _names_word, and whether the posting writes them (filled on use)."""
        return {}

    @cached_property
    def simplified_text(self) -> str:
        """`compact_text` written in simplified characters (Chinese role names are compared simplified)."""
        return _simplified(self.compact_text)

    @cached_property
    def compact_text(self) -> str:
        """Title and text in `_search_form` without spaces: is an employer's name written anywhere."""
        return self.search_text.replace(" ", "")


#: Headings of the sections that say what the job is: duties and requirements (not the company, pay or contact).
_DUTY_HEADING_RE = re.compile(
    r"(?i)职责|職責|要求|任职|任職|资格|資格|条件|工作内容|工作內容|职位描述|職位描述|岗位描述|職務|业务内容|"
    r"responsibilit|requirement|qualification|what you|you will|must.have|nice.to.have|"
    r"仕事内容|業務内容|具体的には|必須|歓迎|対象となる方|応募資格")


_NO_SHINGLES = np.zeros(0, np.uint64)


def duty_shingles(ex: Extracted) -> np.ndarray:
    """Sorted unique shingle hashes of the lines in duty / requirement sections (empty when there are none):
    the job itself, without the blurb, pay and contact a repost changes or another role shares."""
    hashes = b"".join([_line_shingles(ln) for sec in ex.sections if sec.heading and _DUTY_HEADING_RE.search(sec.heading)
                       for ln in sec.lines])
    return np.unique(np.frombuffer(hashes, np.uint64)) if hashes else np.zeros(0, np.uint64)


#: Parts of `Prepared` that only some features read (field: those features); the rest serve most features,
#: the reasons or the vetoes and are always built.
FIELDS_FOR: Mapping[str, tuple[str, ...]] = {
    "title": ("title_sim",),
    "location": ("location_agree",),
    "duties": ("duties_known", "duties_containment"),
}


def prepare(posting: Mapping[str, Any] | Extracted, boilerplate: BoilerplateModel | None = None,
            needs: frozenset[str] | None = None) -> Prepared:
    """Extract a posting (unless given `Extracted`) and precompute what the pair features need: all of them,
    or only `needs` (feature names; a part of FIELDS_FOR none of them reads stays empty, so it reads as unknown)."""
    ex = posting if isinstance(posting, Extracted) else extract(posting)
    lw = boilerplate.line_weights(ex) if boilerplate is not None else None
    return prepare_unweighted(ex, needs, lw).prepared  # weighed once (reweighted would weigh it a second time)


@dataclass(frozen=True, eq=False)
class Unweighted:
    """`prepare` of a posting without a boilerplate model (`prepared`: every line weighs 1, the intro
    INTRO_WEIGHT), and what `reweighted` needs to weigh its shingles by a model's line weights without preparing
    it again: per shingle occurrence in hash order its first and last line, the start of each distinct hash's
    run, and which lines hold tokens. Computed where the model is unknown (the service's worker processes)."""

    prepared: Prepared
    first: np.ndarray
    last: np.ndarray
    at: np.ndarray
    tok: np.ndarray
    intro: tuple[int, int] | None


def reweighted(u: Unweighted, lw: np.ndarray | None) -> Prepared:
    """The prepared posting with its shingles weighed by line weights `lw` (a boilerplate model's; None: all
    1): each distinct shingle's weight is the highest over its occurrences, each occurrence's the least over
    the lines it spans, the intro's lines at most INTRO_WEIGHT. Equal to `prepare(ex, model)`."""
    if lw is None or not len(u.at) or bool((np.asarray(lw) == 1).all()):
        return u.prepared
    w = np.maximum.reduceat(span_weights(_text_weights(len(u.tok), lw, u.intro), u.first, u.last, u.tok), u.at)
    return replace(u.prepared, w=w, w_sum=float(w.sum()))


def _text_weights(n: int, lw: np.ndarray | None, intro: tuple[int, int] | None) -> np.ndarray:
    """The weights of a posting's `n` lines in the job-text similarity: the model's `lw` (None: all 1), the
    intro's lines at most INTRO_WEIGHT."""
    w = np.ones(n, np.float32) if lw is None else np.array(lw, np.float32)
    if intro:
        w[intro[0] : intro[1]] = np.minimum(w[intro[0] : intro[1]], INTRO_WEIGHT)
    return w


def _skipped(needs: frozenset[str] | None) -> frozenset[str]:
    """The parts of FIELDS_FOR that none of `needs` reads (None: every feature is needed)."""
    return frozenset() if needs is None else frozenset(f for f, by in FIELDS_FOR.items() if needs.isdisjoint(by))


def _prepared(ex: Extracted, skip: frozenset[str], arr: np.ndarray, warr: np.ndarray) -> Prepared:
    """The `Prepared` of `ex` with its distinct shingles `arr` weighed `warr`; every other part computed here
    (`skip`: parts of FIELDS_FOR left empty)."""
    contacts = frozenset(
        [*ex.emails, *ex.phones, *(u for u in ex.urls if "/" in u or u.startswith("handle:"))]
    )
    sites = employer_sites(ex)
    employers = employer_names(ex, sites)
    announced = announced_roles(ex, employers)
    entries = _role_entries(announced) if ex.lang == "en" else ()
    merged = _merge_named(tuple(announced), ex.lang == "zh")
    return Prepared(
        ex=ex,
        sh=arr,
        w=warr,
        w_sum=float(warr.sum()),
        title=frozenset() if "title" in skip else _title_grams(ex.title),
        roles=merged[0],
        role_names=merged[1],
        role_parts=tuple(map(_cjk_role_parts, merged[1])),
        zh_roles=tuple(map(zh_role, merged[1])) if ex.lang == "zh" else (),
        zh_title=tuple(map(zh_role, _merge_named(zh_title_roles(ex.title, employers), True)[1]))
        if ex.lang == "zh" else (),
        duties=_NO_SHINGLES if "duties" in skip else duty_shingles(ex),
        role_keys=tuple(k for k in dict.fromkeys(_search_form(r) for r in announced) if len(k) >= 4),
        employers=employers,
        named=bool(ex.company),
        contacts=contacts,
        salaries=frozenset(round(s, -2) for s in ex.salaries),
        location=frozenset() if "location" in skip else _grams(ex.location),
        day=_parse_date(ex.posted_at),
        families=announced_families(ex, announced),
        links=job_links(ex),
        sites=sites,
        places=place_names(ex),
        role_words=tuple(e[0] for e in entries),
        role_alts=tuple(e[1] for e in entries),
        role_levels=tuple(e[2] for e in entries),
        worded=ex.lang == "en" and _worded(announced),
        terms=job_terms(ex),
    )


def prepare_many(exs: Sequence[Extracted], lws: Sequence[np.ndarray | None], needs: frozenset[str] | None = None
                 ) -> list[Prepared]:
    """`prepare(ex, needs=needs)` of many postings, each weighed by its boilerplate line weights `lws[i]` (None:
    all 1): the same values, with the shingles of all postings sorted and weighed in one numpy pass instead of
    a dozen numpy calls per posting."""
    skip = _skipped(needs)
    pieces: list[bytes] = []
    counts: list[int] = []
    more_h: list[int] = []
    more_first: list[int] = []
    more_last: list[int] = []
    weights: list[np.ndarray] = []
    off = 0
    for ex, lw in zip(exs, lws, strict=True):
        got = _shingle_parts(ex.lines)
        pieces += got[0]
        counts += got[1]
        if got[2]:
            more_h += got[2]
            more_first += [off + i for i in got[3]]
            more_last += [off + i for i in got[4]]
        weights.append(_text_weights(len(ex.lines), lw, intro_lines(ex)))
        off += len(ex.lines)
    lines_of = [len(ex.lines) for ex in exs]
    lw_all = np.concatenate(weights) if weights else np.zeros(0, np.float32)
    line_of_posting = np.repeat(np.arange(len(exs), dtype=np.int64), lines_of)
    first = np.repeat(np.arange(off, dtype=np.int32), [len(x) >> 3 for x in pieces])
    sh = np.concatenate([np.frombuffer(b"".join(pieces), np.uint64), np.array(more_h, np.uint64)])
    last = np.concatenate([first, np.array(more_last, np.int32)])
    first = np.concatenate([first, np.array(more_first, np.int32)])
    of = line_of_posting[first]
    w = span_weights(lw_all, first, last, np.array(counts, np.int64) > 0)
    # by posting, then hash (the order of equal hashes of a posting does not matter: their highest weight is
    # taken): a sort of the hashes, then a stable radix sort of the small posting numbers -- 5x faster than lexsort
    order = np.argsort(sh)
    order = order[np.argsort(of[order].astype(np.min_scalar_type(len(exs))), kind="stable")]
    sh, w, of = sh[order], w[order], of[order]
    new = np.ones(len(sh), bool)
    new[1:] = (sh[1:] != sh[:-1]) | (of[1:] != of[:-1])
    at = np.flatnonzero(new)
    uniq = sh[at]
    wmax = np.maximum.reduceat(w, at) if len(at) else np.zeros(0, np.float32)
    ends = np.cumsum(np.bincount(of[at], minlength=len(exs))).tolist()
    out = []
    start = 0
    for ex, end in zip(exs, ends, strict=True):
        out.append(_prepared(ex, skip, uniq[start:end], wmax[start:end]))
        start = end
    return out


def prepare_unweighted(ex: Extracted, needs: frozenset[str] | None = None,
                       lw: np.ndarray | None = None) -> Unweighted:
    """`prepare(ex, needs=needs)` with what `reweighted` needs to weigh it by a boilerplate model later;
    `lw`: the model's line weights when they are known now (`prepare`: its shingles weighed once, as
    `reweighted` would weigh them)."""
    skip = _skipped(needs)
    intro = intro_lines(ex)
    lw = _text_weights(len(ex.lines), lw, intro)
    arr, first_line, last_line, tok = shingle_spans(ex.lines)
    if len(arr):  # each distinct shingle once, by hash, with its highest weight
        order = arr.argsort(kind="stable")
        arr, first_line, last_line = arr[order], first_line[order], last_line[order]
        first = np.ones(len(arr), dtype=bool)
        first[1:] = arr[1:] != arr[:-1]
        at = first.nonzero()[0].astype(np.int32)  # int32 like first / last: a smaller cached Unweighted
        arr, warr = arr[at], np.maximum.reduceat(span_weights(lw, first_line, last_line, tok), at)
    else:
        arr, warr, at = np.zeros(0, np.uint64), np.zeros(0, np.float32), np.zeros(0, np.int32)
    prepared = _prepared(ex, skip, arr, warr)
    return Unweighted(prepared, first_line, last_line, at, tok, intro)


#: Weight of the intro's shingles in the job-text similarity (boilerplate lines weigh 0.1).
INTRO_WEIGHT = 0.1
_INTRO_STOP_RE = re.compile(
    r"(?i)hiring|looking for|seeking|openings?|open roles?|positions?|\broles?\b|join us|we need|apply|"
    r"responsibilit|requirement|you will|you'll|salary|compensation|\bpay\b|https?://|@|\$\d|€\d|£\d")


def intro_lines(ex: Extracted) -> tuple[int, int] | None:
    """(start, end) of an English posting's intro: the company paragraphs after the header (or at the
    top) before the first line that announces, describes or pays a job — rewritten freely between
    reposts and shared by an employer's other jobs, so it weighs like boilerplate in the job-text
    similarity. None when there is none or it would leave under two lines of job text."""
    if ex.lang != "en" or len(ex.lines) < 3:
        return None
    first = ex.lines[0]
    start = 1 if ("|" in first or first == ex.title) else 0
    end = start
    while end < len(ex.lines) and end - start < 3:
        ln = ex.lines[end]
        if len(ln) < 40 or _LIST_LINE_RE.match(ln) or _INTRO_STOP_RE.search(ln):
            break
        end += 1
    if end == start or len(ex.lines) - end < 2:
        return None
    return start, end


_LIST_LINE_RE = re.compile(r"^\s*(?:[-*+•·>]|\d+[.)])\s")


def announced_roles(ex: Extracted, employers: frozenset[str] | None = None) -> tuple[str, ...]:
    """The roles a posting announces: header, title, `hiring: a, b` lists, role sections and role lines
    (extract's `roles`); never job titles merely mentioned in the company blurb. English: a role's
    trailing clause ("… who loves Go", "… for our platform team") and leading "our"/"a" dropped, sentences
    ("our CTO is the founder", "we're looking for engineers") left out. `employers`: employer_names of `ex` when
    the caller has them (Chinese roles drop the employer's name)."""
    if ex.lang == "zh":
        if employers is None:
            employers = employer_names(ex, employer_sites(ex))
        return zh_announced(ex.roles, ex.title, ex.lines, employers)
    return _english_roles(ex.roles) if ex.lang == "en" else ex.roles


_ROLE_CLAUSE_RE = re.compile(r" (?:who|that|to|with|where|which|for (?:our|the|a|an|us)) .*$")
_ROLE_ARTICLE_RE = re.compile(r"^(?:we re |we are )?(?:also |always |currently |now )?(?:hiring|looking for|seeking)"
                              r"(?: for)? |^(?:our|a|an|the) ")
_SENTENCE_RE = re.compile(r"^(?:we|you|i|they|there|this|these)\b|\b(?:is|are|was|were|has|have|writes|ll|will)\b")


@line_cache
def _english_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    out = (_ROLE_ARTICLE_RE.sub("", _ROLE_ARTICLE_RE.sub("", _ROLE_CLAUSE_RE.sub("", r))) for r in roles)
    return tuple(dict.fromkeys(r for r in out if r and not _SENTENCE_RE.search(r)))


def announced_families(ex: Extracted, announced: tuple[str, ...] | None = None) -> frozenset[str]:
    """Role families (frontend, ml, sales, ...) of the announced roles (`announced`: announced_roles(ex) when the
    caller has them) and of a title given as a field: a blurb saying "our ML platform" or "led by" adds none."""
    given_title = (ex.title,) if ex.title and "title" not in ex.fields_found else ()
    return _families_of((*given_title, *(announced_roles(ex) if announced is None else announced)), ex.lang)


@line_cache
def _families_of(names: tuple[str, ...], lang: str) -> frozenset[str]:
    return frozenset(role_families("", names, lang))


def _same_role(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two role names agree: one is (nearly) contained in the other, or, for Latin names, bigram Jaccard
    >= 0.5. CJK names put the distinguishing characters before a shared head (前端/后端工程师, 看護/介護職員):
    their Jaccard through the head says nothing, so only containment counts."""
    inter = len(a & b)
    if inter >= 0.8 * min(len(a), len(b)):
        return True
    return inter >= 0.5 * (len(a) + len(b) - inter) and not (_cjk_grams(a) and _cjk_grams(b))


def _cjk_grams(g: frozenset[str]) -> bool:
    """Whether a role's bigrams hold CJK characters."""
    return any(CJK_CHAR_RE.search(x) for x in g)


def _merge_roles(names: Sequence[str]) -> tuple[frozenset[str], ...]:
    """Distinct roles of one posting: names that agree with an earlier one are dropped; a Latin name of one
    bigram is too short to tell, a CJK one (护工, 保安) is a role."""
    return _merge_named(tuple(names))[0]


@line_cache
def _merge_named(names: tuple[str, ...], zh: bool = False) -> tuple[tuple[frozenset[str], ...], tuple[str, ...]]:
    """`_merge_roles` with the name kept for each distinct role; `zh`: Chinese names agree as names
    (`roles_zh.same_zh_role`: 前端工程师 / 后端工程师 are two roles, 资深前端工程师 / 前端开发 one)."""
    out: list[frozenset[str]] = []
    kept: list[str] = []
    keys: list[ZhRole] = []
    for n in map(_simplified, names):
        if _CJK_LEVEL_HEAD_RE.fullmatch(n.strip()):  # "金融产品经理/专家": a level alone names no job
            continue
        g = _grams(n)
        if not (len(g) >= 2 or _cjk_grams(g)):
            continue
        if zh:
            k = zh_role(n)
            if any(same_zh_role(k, h) for h in keys):
                continue
            keys.append(k)
        elif any(_same_role(g, h) for h in out):
            continue
        out.append(g)
        kept.append(n)
    return tuple(out), tuple(kept)


@line_cache
def _simplified(name: str) -> str:
    """A role name with traditional Han characters written simplified (智能合約工程師 = 智能合约工程师)."""
    if not _HAN_RE.search(name):
        return name
    from opencc import OpenCC  # imported on first use: English postings never need it

    return _t2s(OpenCC).convert(name)


@lru_cache(maxsize=1)
def _t2s(cls: Any) -> Any:
    return cls("t2s")


_HAN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9+#.]*|[0-9]+[a-z][a-z0-9]*")
#: Heads of CJK role names that give the level, not the job: 金融产品经理 / 金融产品总监 are one role re-levelled.
_CJK_LEVEL_HEAD_RE = re.compile(r"(?:总经理|经理|總經理|經理|总监|總監|专家|專家|负责人|負責人|主管|领导|領導|leader|lead)$")


_RoleParts = tuple[frozenset[str], frozenset[str], frozenset[str]]


@line_cache
def _cjk_role_parts(name: str) -> _RoleParts:
    """A CJK role name as (bigrams of its Han part, its Latin words, bigrams of its Han part without a level
    head — empty when it has none)."""
    low = unicodedata.normalize("NFKC", name).lower()
    latin = frozenset(_LATIN_WORD_RE.findall(low))
    han = _LATIN_WORD_RE.sub(" ", low)
    stem = _CJK_LEVEL_HEAD_RE.sub("", han.strip()) if _CJK_LEVEL_HEAD_RE.search(han.strip()) else ""
    return _grams(han), latin, (_grams(stem) if len(stem.replace(" ", "")) >= 2 else frozenset())


def _contained(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) >= 0.8 * min(len(a), len(b))


def _names_word(p: Prepared, word: str) -> bool:
    """Whether a posting writes the Latin `word` (not inside a longer Latin word: ios is not in studios);
    remembered per posting (a pair of postings with many roles asks for the same word once per role pair)."""
    seen = p.words_written
    if word not in seen:
        seen[word] = _word_re(word).search(p.search_text) is not None
    return seen[word]


@lru_cache(maxsize=4096)
def _word_re(word: str) -> re.Pattern[str]:
    """`word` not preceded by a Latin letter or digit nor followed by a letter (ios2 names ios), searched in C from
    its literal start (a Python loop over every occurrence cost ~0.2 s a pair in a text repeating the word)."""
    w = re.escape(word)
    return re.compile(rf"{w}(?<![A-Za-z0-9]{w})(?![A-Za-z])")


def _cjk_alike(pa: _RoleParts, pb: _RoleParts, a: Prepared, b: Prepared) -> bool:
    """CJK roles that `_same_role` tells apart yet agree: the names differ only in the level head
    (产品经理 / 产品总监), or the Han parts agree and each Latin modifier only one name has (web3 / DeFi
    后端工程师) is written in the other posting too (an iOS-only posting never names Android)."""
    ha, la, sa = pa
    hb, lb, sb = pb
    if sa and sb and _contained(sa, sb):
        return True
    return la != lb and _contained(ha, hb) and all(_names_word(b, w) for w in la - lb) and \
        all(_names_word(a, w) for w in lb - la)


def _zh_same(a: Prepared, b: Prepared) -> Callable[[int, int], bool]:
    """Whether role i of Chinese posting `a` and role j of `b` agree (`roles_zh.same_zh_role`, names as names)."""
    za, zb = a.zh_roles, b.zh_roles
    a_writes, b_writes = (lambda w: _names_word(a, w)), (lambda w: _names_word(b, w))
    return lambda i, j: same_zh_role(za[i], zb[j], a_writes, b_writes)


def _zh_novel(a: Prepared, b: Prepared) -> tuple[int, int]:
    """`_novel_roles` of two Chinese postings: a role is novel when no role of the other side agrees with it
    and the other posting never writes its name (traditional characters read as simplified)."""
    same = _zh_same(a, b)
    novel = 0
    for x, y, agree in ((a, b, same), (b, a, lambda j, i: same(i, j))):
        for i, name in enumerate(x.role_names):
            keys = name.replace(" ", "").split("/")  # a role named "X/Y" is written when either name is
            if not any(agree(i, j) for j in range(len(y.zh_roles))) and not any(k in y.simplified_text for k in keys):
                novel += 1
    return novel, len(a.role_names) + len(b.role_names)


def _cjk_matched(a: Prepared, b: Prepared) -> int:
    """`_role_match` of two CJK postings' roles, agreement by `_same_role` or `_cjk_alike`; two Chinese
    postings' by `roles_zh.same_zh_role` (names as names)."""
    ra, rb, pa, pb = a.roles, b.roles, a.role_parts, b.role_parts
    if a.zh_roles and b.zh_roles:
        return _role_match(range(len(ra)), range(len(rb)), _zh_same(a, b), lambda i, j: _jac(ra[i], rb[j]))
    return _role_match(range(len(ra)), range(len(rb)),
                       lambda i, j: _same_role(ra[i], rb[j]) or _cjk_alike(pa[i], pb[j], a, b),
                       lambda i, j: _jac(ra[i], rb[j]))


def _role_match(a: Sequence[Any], b: Sequence[Any], same: Callable[[Any, Any], bool] = _same_role,
                sim: Callable[[Any, Any], float] = _jac) -> int:
    """How many roles of `a` match a distinct role of `b` (greedy, most similar first by `sim`; `same` says
    which roles agree: bigram sets by default)."""
    used: set[int] = set()
    matched = 0
    for ra in a:
        best, bj = -1.0, -1
        for j, rb in enumerate(b):
            if j in used or not same(ra, rb):
                continue
            s = sim(ra, rb)
            if s > best:
                best, bj = s, j
        if bj >= 0:
            used.add(bj)
            matched += 1
    return matched


_SEARCH_RE = re.compile(r"[^\w]+")


@line_cache
def _search_form(text: str) -> str:
    """Lowercase NFKC words with plural -s dropped, single spaces; CJK characters kept as they are."""
    if text.isascii():  # NFKC is the identity, the words are the \w runs: a byte table splits them
        words = text.lower().encode("ascii").translate(_ASCII_WORD_OR_SPACE).decode("ascii").split()
        return " ".join([w[:-1] if len(w) > 3 and w[-1] == "s" else w for w in words])
    words = _SEARCH_RE.sub(" ", unicodedata.normalize("NFKC", text).lower()).split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and w.isascii() else w for w in words)


def _search_text(ex: Extracted) -> str:
    """`_search_form` of title and text, padded with spaces: built line by line (words never span the
    space and line breaks between them, so it is the same string) from the per-line cache."""
    return " " + " ".join(filter(None, map(_search_form, (ex.title, *ex.lines)))) + " "


def _novel_roles(a: Prepared, b: Prepared) -> tuple[int, int]:
    """(roles named by one side that the other side's text never mentions, all roles named)."""
    novel = sum(1 for k in a.role_keys if f" {k} " not in b.search_text and k not in b.compact_text)
    novel += sum(1 for k in b.role_keys if f" {k} " not in a.search_text and k not in a.compact_text)
    return novel, len(a.role_keys) + len(b.role_keys)


#: Abbreviations in English role names, spelled out (so "Staff ML" and "Staff ML Engineer" share "machine learning").
_ROLE_ABBREV = {
    "swe": "software engineer", "swes": "software engineer", "sde": "software engineer",
    "sre": "site reliability engineer", "ml": "machine learning", "mle": "machine learning engineer",
    "fde": "forward deployed engineer", "pm": "product manager", "pms": "product manager",
    "tpm": "technical program manager", "em": "engineering manager", "eng": "engineer", "engineering": "engineer",
    "dev": "developer", "fe": "frontend", "be": "backend", "infra": "infrastructure", "ae": "account executive",
    "fullstack": "full stack", "sdet": "qa", "cto": "chief technology officer", "ceo": "chief executive officer",
    "cpto": "chief product technology officer",
}
#: Seniority and filler words, left out of a role's words ("Senior Backend Engineer" and "Staff Backend Engineer" have
#: the same words); the seniority is compared on its own (`_role_levels`, `_same_level`).
_ROLE_LEVEL_WORDS = frozenset(
    "senior sr staff principal junior jr mid level levels founding i ii iii iv v the a an of and or for to in at our "
    "we re with all".split()
)
_ROLE_WORD_RE = re.compile(r"[a-z0-9+#]+")
#: A role of only these words ("Senior | Staff Engineers", "Developers") names no particular job: left out.
_GENERIC_ROLE_WORDS = frozenset("engineer developer programmer hacker generalist people role position".split())


def _role_words(name: str) -> frozenset[str]:
    out: set[str] = set()
    for w in _ROLE_WORD_RE.findall(name.lower()):
        w = w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        out.update(x for x in _ROLE_ABBREV.get(w, w).split() if x not in _ROLE_LEVEL_WORDS)
    return frozenset(out)


def _same_role_words(a: frozenset[str], b: frozenset[str]) -> bool:
    """One role's words contain the other's: "machine learning" ~ "machine learning engineer"; a word of
    five letters or more may differ by one typo ("softare engineering manager" ~ "software ...")."""
    if a <= b or b <= a:
        return True
    if len(a) == len(b):  # each side's words in the other's (either order alone would make it asymmetric)
        return _typo_covered(a, b) and _typo_covered(b, a)
    return _typo_covered(a, b) if len(a) < len(b) else _typo_covered(b, a)


def _typo_covered(small: frozenset[str], big: frozenset[str]) -> bool:
    """Every word of `small` is in `big` or, with five letters or more, one typo from a word of `big`."""
    return all(w in big or len(w) >= 5 and any(_one_edit(w, x) for x in big) for w in small)


def _one_edit(x: str, y: str) -> bool:
    """Whether two words are at most one insertion, deletion or substitution apart."""
    if abs(len(x) - len(y)) > 1:
        return False
    if len(x) > len(y):
        x, y = y, x
    i = 0
    while i < len(x) and x[i] == y[i]:
        i += 1
    return x[i + (len(x) == len(y)) :] == y[i + 1 :]


def role_word_sets(ex: Extracted) -> tuple[frozenset[str], ...]:
    """Distinct announced roles of an English posting as word sets: lowercase, singular, abbreviations spelled
    out, seniority dropped; of roles that contain one another the most specific is kept. Empty for other
    languages (no word boundaries to go by)."""
    return _role_word_sets(announced_roles(ex)) if ex.lang == "en" else ()


def _generic(role_words: tuple[frozenset[str], ...]) -> bool:
    """Whether a posting names only generic roles ("Founding Engineers", "Senior | Staff Engineers")."""
    return all(w <= _GENERIC_ROLE_WORDS for w in role_words)


#: Words that name no particular job at a company hiring for many teams ("Senior Software Engineer").
_UNSPECIFIC_ROLE_WORDS = _GENERIC_ROLE_WORDS | {"software"}


def _unspecific(role_words: Sequence[frozenset[str]]) -> bool:
    """Whether an English posting's roles are all unspecific ("Software Engineer", "Engineers"): the same
    name at one employer may be another team's job (`employer_jobs` does not count it)."""
    return all(w <= _UNSPECIFIC_ROLE_WORDS for w in role_words)


def _zh_same_jobs(a: Prepared, b: Prepared) -> bool:
    """`employer_jobs` of two Chinese postings of one employer: the GUIDE's same job set read strictly, as their
    role lists are read less reliably than English ones. The employer named alike (a recruiter's shared contact
    posts several projects' jobs); not two pay tiers posted within a day (two offers); particular roles (not a
    head alone: 工程师, 开发, 实习生); at most one role added and one dropped, fewer than half changed, each kept
    role the same specialty (区块链开发 is not 区块链协议与架构工程师) — in the role lists and, when both titles name
    roles, in the titles too (the body adds roles named in passing). `roles_halved` stays English-only: on
    Chinese training pairs it lowered duplicates whose lists the body had inflated and kept out no PARTIAL."""
    if not (names_agree(a.employers, b.employers) or a.sites & b.sites):
        return False
    if _pay_tiers(a, b):
        return False
    if any(all(not (k.spec or k.latin) for k in p.zh_roles) for p in (a, b)):
        return False
    return _zh_kept(a.zh_roles, b.zh_roles) and (not (a.zh_title and b.zh_title) or _zh_kept(a.zh_title, b.zh_title))


def _ja_halved(ra: Sequence[Any], rb: Sequence[Any], matched: int, changed: float) -> bool:
    """`roles_halved` of two Japanese postings whose role families changed too: a multi-role post (two roles or
    more) with a role kept and half or more changed (`changed`, the pair's `roles_changed`; one of two dropped:
    PARTIAL by the GUIDE). Japanese role lists also hold taglines (`完休2日`), so the families read from the role
    names must agree that a job changed; a single role replaced is role_sim 0 already."""
    return max(len(ra), len(rb)) >= 2 and matched > 0 and changed >= 0.5


def _pay_tiers(a: Prepared, b: Prepared) -> bool:
    """Both give pay, no figure agrees and they were posted within a day (NaN, a date missing, compares False):
    two pay tiers of one job, two offers (the `pay_tiers` feature; no Chinese `employer_jobs`)."""
    return bool(a.salaries and b.salaries and not a.salaries & b.salaries and abs(a.day - b.day) < 1.0)


def _zh_kept(a: tuple[ZhRole, ...], b: tuple[ZhRole, ...]) -> bool:
    """Whether two Chinese role lists are one job set by the GUIDE: at most one role added and one dropped and
    fewer than half changed, roles matched only as the same specialty and Latin words (`same_zh_role` otherwise
    lets one specialty within another agree)."""
    m = _role_match(a, b, lambda x, y: same_zh_role(x, y, exact=True), lambda x, y: 0.0)
    return len(a) + len(b) - 2 * m <= 2 and _roles_changed(a, b, m) < 0.5


def _worded(announced: tuple[str, ...]) -> bool:
    """Whether every role an English posting announces has a role word (engineer, designer, ...): parts of a
    title without one (a store, a site category: "Shift Supervisor - Pearl Street | Food") are no job list
    to count changes in (`roles_halved`)."""
    return all(_looks_like_role(r, "en") for r in announced)


def _role_word_sets(roles: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    return tuple(e[0] for e in _role_entries(roles))


_Alternatives = tuple[frozenset[str], ...]


@line_cache
def _role_entries(roles: tuple[str, ...]) -> tuple[tuple[frozenset[str], _Alternatives, frozenset[str]], ...]:
    """`_role_word_sets` with each kept role's `_alternatives` and seniority (`_role_levels`, of every name it
    stands for: "Senior Backend Engineer" and "Staff Backend Engineer" in one post are one role at two levels)."""
    out: list[tuple[frozenset[str], _Alternatives, frozenset[str]]] = []
    named = [(w, r) for w, r in zip(map(_role_words, roles), roles, strict=True) if w]
    words = [e for e in named if not e[0] <= _GENERIC_ROLE_WORDS] or named  # only generic ones: still a role
    for g, name in sorted(words, key=lambda e: len(e[0]), reverse=True):
        i = next((i for i, e in enumerate(out) if _same_role_words(g, e[0])), -1)
        if i < 0:
            out.append((g, _alternatives(name), _role_levels(name)))
        else:
            out[i] = (*out[i][:2], out[i][2] | _role_levels(name))
    return tuple(out)


#: Seniority words of an English role name, as `_role_levels` gives them ("founding" is a stage, not a level).
_LEVELS = {"senior": "senior", "sr": "senior", "junior": "junior", "jr": "junior", "staff": "staff",
           "principal": "principal", "mid": "mid", "intern": "intern", "interns": "intern", "internship": "intern",
           "i": "i", "ii": "ii", "iii": "iii", "iv": "iv", "v": "v"}


def _role_levels(name: str) -> frozenset[str]:
    """The seniority an English role name states ("senior or staff backend engineer": senior, staff; "software
    engineer ii": ii); "" when it states none (a post listing "Software Engineer" and "Senior Software Engineer"
    has the role at both: "" and senior)."""
    return frozenset(_LEVELS[w] for w in _ROLE_WORD_RE.findall(name.lower()) if w in _LEVELS) or _NO_LEVEL


_NO_LEVEL = frozenset({""})


def _same_level(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two roles' seniorities agree (labels/GUIDE.md: another seniority is another job): the same levels, or
    one name gives a range ("Senior/Staff") that holds the other's."""
    return a == b or len(a) >= 2 and b <= a or len(b) >= 2 and a <= b


def _alternatives(name: str) -> _Alternatives:
    """The alternatives an English role name written with a slash gives ("cloud infrastructure or data or mlops
    engineer": cloud infrastructure / data / mlops engineer), each as words with the name's role noun when it
    has none of its own; () unless two or more name a specialty (a level alone, "senior or staff engineer", or
    a bare noun, "team lead or manager", names none)."""
    if " or " not in name:
        return ()
    groups = [_role_words(g) for g in name.split(" or ")]
    nouns = frozenset(w for g in groups for w in g if _ROLE_NOUN_RE.fullmatch(w))
    out = []
    for i, g in enumerate(groups):
        own = g - frozenset().union(*(h for j, h in enumerate(groups) if j != i))
        if any(w not in nouns and w not in _GENERIC_ROLE_WORDS for w in own):
            out.append(own if own & nouns else own | nouns)
    return tuple(out) if len(out) >= 2 else ()


#: Words that say what kind of worker a role is, singular as _role_words gives them (signatures.extract.ROLE_NOUNS).
_ROLE_NOUN_RE = re.compile("|".join(ROLE_NOUNS))


def _alike(a: Prepared, b: Prepared) -> int:
    """How many English roles of `a` match a distinct role of `b`: by `_same_role_words`, or (a name written
    with alternatives) by any alternative of one matching any of the other."""
    ra, rb = a.role_words, b.role_words
    la = a.role_levels if len(a.role_levels) == len(ra) else (_NO_LEVEL,) * len(ra)
    lb = b.role_levels if len(b.role_levels) == len(rb) else (_NO_LEVEL,) * len(rb)
    xa = [alts or (w,) for w, alts in zip(ra, a.role_alts or ((),) * len(ra), strict=True)]
    xb = [alts or (w,) for w, alts in zip(rb, b.role_alts or ((),) * len(rb), strict=True)]
    return _role_match(range(len(ra)), range(len(rb)),
                       lambda i, j: _same_level(la[i], lb[j]) and (_same_role_words(ra[i], rb[j]) or any(
                           _same_role_words(x, y) for x in xa[i] for y in xb[j])),
                       lambda i, j: _jac(ra[i], rb[j]))


def families_added(a: Prepared, b: Prepared) -> tuple[str, ...]:
    """Role families one posting hires for that the other does not (the side with more of them)."""
    only_a, only_b = a.families - b.families, b.families - a.families
    return tuple(sorted(only_a if len(only_a) >= len(only_b) else only_b))


# ----------------------------------------------------------------------------- job links

#: Applicant-tracking hosts: `host/<company>/<job id>` is one job, `host/<company>` only the company's board.
_ATS_HOST_RE = re.compile(
    r"(?:^|\.)(?:greenhouse\.io|lever\.co|ashbyhq\.com|workable\.com|personio\.(?:com|de)|teamtailor\.com|"
    r"recruitee\.com|smartrecruiters\.com|bamboohr\.com|breezy\.hr|wellfound\.com|workatastartup\.com|"
    r"jobvite\.com|myworkdayjobs\.com|rippling-ats\.com|avature\.net)$"
)
_SHORT_JOB_HOSTS = frozenset({"grnh.se"})  # Greenhouse short links: every path is one job
_JOB_SEG_RE = re.compile(r"^(?:jobs?|careers?|apply|positions?|openings?|roles?|vacanc(?:y|ies)|join(?:us)?|o|public|jobdetail)$")
_JOB_ID_PARAM_RE = re.compile(r"(?:^|&)((?:gh_jid|ashby_jid|jobid|job_id|jid|id|posting_id|req_?id)=[\w-]+)")


def job_links(ex: Extracted) -> frozenset[str]:
    """Links to single job ads: ATS job pages (`jobs.lever.co/acme/<id>`), Greenhouse short links and
    `<site>/careers|jobs|apply/<slug>` pages, tracking parameters dropped. A posting listing several roles
    usually links each one, so the link set is a robust view of its role list."""
    out: set[str] = set()
    for u in ex.urls:
        if u.startswith("handle:"):
            continue
        base, _, query = u.partition("?")
        base = base.split("#")[0].rstrip("/")
        host, _, path = base.partition("/")
        segs = [x for x in path.split("/") if x]
        m = _JOB_ID_PARAM_RE.search(query)
        job_id = m.group(1) if m else ""
        if host in _SHORT_JOB_HOSTS:
            if segs:
                out.add(f"{host}/{segs[0]}")
            continue
        if _ATS_HOST_RE.search(host):
            rest = [x for x in segs[1:] if not _JOB_SEG_RE.match(x)]
            if rest or job_id:
                out.add("/".join([host, *segs[:1], *(rest[-1:] or [job_id])]))
            continue
        for i, x in enumerate(segs):
            if _JOB_SEG_RE.match(x):
                tail = [t for t in segs[i + 1 :] if not _JOB_SEG_RE.match(t)]
                if tail or job_id:
                    out.add("/".join([host, *segs[: i + 1], *(tail[-1:] or [job_id])]))
                break
    return frozenset(out)


def links_compared(a: Prepared, b: Prepared) -> tuple[int, int, int]:
    """(job links both list, only `a` lists, only `b` lists), over the hosts both link to."""
    hosts = {u.split("/", 1)[0] for u in a.links} & {u.split("/", 1)[0] for u in b.links}
    la = {u for u in a.links if u.split("/", 1)[0] in hosts}
    lb = {u for u in b.links if u.split("/", 1)[0] in hosts}
    return len(la & lb), len(la - lb), len(lb - la)


# ----------------------------------------------------------------------------- places

#: Spellings of one place folded to one token (lowercase words; two-word names first).
_PLACE_BIGRAMS = {
    "new york": "nyc", "san francisco": "sf", "bay area": "sf", "los angeles": "la", "united states": "us",
    "u s": "us", "united kingdom": "uk", "washington dc": "dc", "d c": "dc", "new zealand": "nz",
}
_PLACE_WORDS = {
    "ny": "nyc", "manhattan": "nyc", "brooklyn": "nyc", "sfba": "sf", "usa": "us", "england": "uk", "europe": "eu",
    "european": "eu", "australia": "aus", "au": "aus",
}
_SHORT_PLACES = frozenset({"sf", "la", "dc", "nyc", "uk", "us", "eu", "nz"})  # other 2-letter codes are ambiguous
#: The folded spellings: places whatever segment of a header names them.
_KNOWN_PLACES = frozenset({*_PLACE_BIGRAMS.values(), *_PLACE_WORDS.values(), *_SHORT_PLACES})
#: Capitalized header words that are not places: work mode, contract, role and filler words.
_NOT_PLACE = frozenset(
    """remote onsite on site hybrid full time tim fulltime part contract contractor freelance visa sponsorship sponsor
    relocation relocate assistance package equity salary in office days day week per only or and the of a an preferred
    required must zone zones hours timezone tz utc est pst cet gmt based ft pt permanent fte international anywhere
    worldwide global flexible support optional quarterly meet ups meetups offsite person area greater metro city office
    offices hq with from within some bit flexibility location locations mostly primarily ok available north south east
    west coast central americas emea apac latam multiple roles positions openings various eng engineering engineer
    engineers product hiring competitive senior staff we our no offered member technical sales gtm ai ml design
    designer developer developers manager work home""".split()
)
#: Capitalized words, a following capitalized word only whole (not "Dev" out of "DevOps").
_CAP_RE = re.compile(r"\b[A-Z][A-Za-z\u00C0-\u017F]+(?:\s+[A-Z][a-z\u00C0-\u017F]+(?![A-Za-z\u00C0-\u017F]))*")


def _place_words(text: str) -> list[str]:
    """Lowercase words of `text` with place spellings folded (New York / NY / Brooklyn -> nyc)."""
    words = _alnum_words(text.lower())
    out: list[str] = []
    i = 0
    while i < len(words):
        pair = _PLACE_BIGRAMS.get(" ".join(words[i : i + 2])) if i + 1 < len(words) else None
        if pair:
            out.append(pair)
            i += 2
        else:
            out.append(_PLACE_WORDS.get(words[i], words[i]))
            i += 1
    return out


#: At most this many CJK place units a posting (real postings name up to 13): places_moved looks for each in the
#: other posting's whole text, so a pair of hostile postings naming thousands of stores would be quadratic.
MAX_PLACES = 64


def place_names(ex: Extracted) -> frozenset[str]:
    """Place names a posting gives. English: capitalized words of its location field and of the header
    segments (`Company | Place | Remote | Roles`) without digits or links, minus work-mode and role words and
    segments naming a job or skill, spellings folded (New York / NY -> nyc). Other languages: the place units
    of the location field (東京都渋谷区 -> 東京, 渋谷; 成都; 深圳/香港 -> 深圳, 香港), work-mode words (远程,
    リモート) left out, and the store, station and address units of the workplace sections (workplace_places)."""
    if ex.lang != "en":
        places = _cjk_places(ex.location) | workplace_places(ex)
        return places if len(places) <= MAX_PLACES else frozenset(sorted(places)[:MAX_PLACES])
    found = _english_places(ex.location, ex.lines[0] if ex.lines else None)
    if not found:
        return frozenset()
    role_words = {w for r in (*ex.roles, *ex.mentions) for w in r.split()}
    return frozenset(w for w in found if w not in role_words)


@line_cache
def _english_places(location: str, first_line: str | None) -> tuple[str, ...]:
    """The place words of an English location field and header (see place_names) before the words of the
    posting's roles and mentioned job titles are taken out (cached per location and header)."""
    parts = [x for x in HEADER_SPLIT_RE.split(first_line) if x] if first_line is not None else []
    segs = [location, *(parts[1:] if len(parts) >= 2 else ())]
    out: dict[str, None] = {}
    for i, seg in enumerate(segs):
        if "http" in seg or any(c.isdigit() for c in seg):
            continue
        # a header segment naming a job or a skill ("Lead Engineer (First Hire)", "iOS & Python") is a role
        # segment: only the folded place spellings (NYC, SF, US) count in it
        role_seg = i > 0 and (_MENTION_RE.search(seg) is not None or bool(_families_in(seg)))
        for m in _CAP_RE.findall(seg):
            for w in _place_words(m):
                if role_seg and w not in _KNOWN_PLACES:
                    continue
                if w not in _NOT_PLACE and (len(w) >= 3 or w in _SHORT_PLACES):
                    out[w] = None
    return tuple(out)


#: A place unit: a name of 2+ characters before an administrative suffix (県, 市, 区, 省, ...), a run of CJK
#: (成都, 杭州, 中区: a 1-character name keeps its suffix), or a Latin word.
_CJK_PLACE_RE = re.compile(f"{jobfacts.ADMIN_PLACE}|({jobfacts.CJK_RUN}+)|([a-z]+)")
_CJK_NOT_PLACE = jobfacts.NOT_PLACE


def _cjk_places(location: str) -> frozenset[str]:
    out = set()
    for m in _CJK_PLACE_RE.finditer(unicodedata.normalize("NFKC", location).lower()):
        unit = m.group(1) or m.group(2) or m.group(3)
        if len(unit) >= 2 and unit not in _CJK_NOT_PLACE:
            out.add(unit)
    return frozenset(out)


def workplace_places(ex: Extracted) -> frozenset[str]:
    """Place units of a CJK posting's workplace lines (signatures.jobfacts: stores, stations, address units
    under 勤務地 / アクセス / 最寄り駅 / 店舗 / 工作地点 ...). One company's template for several stores or offices
    differs only there."""
    return jobfacts.workplace_units(jobfacts.fact_lines(ex.lines)[0])


def job_terms(ex: Extracted) -> frozenset[str]:
    """A posting's stated terms (signatures.jobfacts.terms_of: employment type, pay unit, shift, clock hours)
    from its title, an HN header's segments and its 雇用形態 / 給与 / 勤務時間 / 工作性质 / Employment / Pay /
    Schedule lines. The same template for a full-time and a part-time job, or a day and a night shift,
    differs only there."""
    lines = jobfacts.fact_lines(ex.lines)[1]
    if ex.lines and ("|" in ex.lines[0] or "｜" in ex.lines[0]):
        lines += (ex.lines[0][:300],)  # an HN header: Company | Place | Full-time | Roles
    return jobfacts.terms_of((ex.title[:300], *lines))


def terms_changed(a: Prepared, b: Prepared) -> tuple[str, ...]:
    """The term dimensions both postings state with nothing in common (jobfacts.changed_terms)."""
    return jobfacts.changed_terms(a.terms, b.terms)


_ALNUM_ONLY = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789" else 32 for c in range(256))


def _alnum_words(text: str) -> list[str]:
    """The maximal runs of [a-z0-9] in `text`: every other character, non-ASCII ones included, separates
    words, so a byte table does the work of a regex (`re.sub("[^a-z0-9]+", " ", text).split()`)."""
    return text.encode("ascii", "replace").translate(_ALNUM_ONLY).decode("ascii").split()


def _place_words_text(ex: Extracted) -> str:
    """The posting's words ([a-z0-9] runs of title, location, company and lines, in that order) joined by
    single spaces and padded with one: a place spelling of one or two words is mentioned when " spelling "
    occurs in it (a C substring search instead of a set of every word). Built part by part from a per-part
    cache; words never span parts, two-word places may."""
    return " " + " ".join(filter(None, map(_part_words, (ex.title, ex.location, ex.company, *ex.lines)))) + " "


@line_cache
def _part_words(part: str) -> str:
    """One part's words, space-separated."""
    return " ".join(_alnum_words(part.lower()))


#: Every spelling of a folded place (nyc: nyc, ny, manhattan, brooklyn, new york), padded with a space each side:
#: a posting mentions the place when it writes any of them (the words _place_words folds to it).
_SPELLINGS: dict[str, tuple[str, ...]] = {
    p: tuple(f" {w} " for w in (p, *(w for w, f in _PLACE_WORDS.items() if f == p),
                                *(b for b, f in _PLACE_BIGRAMS.items() if f == p)))
    for p in {*_PLACE_WORDS.values(), *_PLACE_BIGRAMS.values()}
}


def places_moved(a: Prepared, b: Prepared) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Places each side names that the other posting never mentions; both non-empty = the job moved
    (same text advertised for another city), one-sided = a place added or dropped."""
    return (tuple(sorted(p for p in a.places if not b.mentions_place(p))),
            tuple(sorted(p for p in b.places if not a.mentions_place(p))))


def _roles_changed(a: Sequence[frozenset[str]], b: Sequence[frozenset[str]], matched: int) -> float:
    """Fraction of roles changed: the side with more unmatched roles, over the larger role list. One role added
    to three is 0.25 (an update), one of two dropped 0.5, a single role replaced 1.0."""
    return max(len(a) - matched, len(b) - matched) / max(len(a), len(b))


def _employer(a: Prepared, b: Prepared) -> tuple[float, float]:
    """(same employer, different employers) evidence: names (tags and legal forms dropped), own sites, mail
    domains, a shared contact, or one side's name written in the text of a posting that names none."""
    if names_agree(a.employers, b.employers) or a.contacts & b.contacts or a.sites & b.sites:
        return 1.0, 0.0
    if a.employers and b.employers:
        return 0.0, 1.0
    for x, y in ((a, b), (b, a)):  # only one side names its employer: is the name written in the other's text?
        if x.named and not y.employers and any(len(k) >= 4 and k in y.compact_text for k in x.employers):
            return 1.0, 0.0
    return 0.0, 0.0


def _common(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions in `x` and in `y` of the values both hold (sorted unique arrays), ascending: what
    np.intersect1d(..., return_indices=True) gives, by binary search instead of a merge sort."""
    if not len(y):
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    pos = y.searchsorted(x)
    np.minimum(pos, len(y) - 1, out=pos)  # past the end: y's last value, smaller than x, so no match
    ia = (y[pos] == x).nonzero()[0]
    return ia, pos[ia]


#: Features computed per pair only when a model reads them (`pair_features`' `needs`): the others are cheap or
#: feed the features every model reads.
_SKIPPABLE = (frozenset({"employer_jobs", "roles_halved"}), frozenset({"links_same"}), frozenset({"pay_tiers"}))


def pair_features(a: Prepared, b: Prepared, needs: frozenset[str] | None = None) -> np.ndarray:
    """The FEATURES vector of one pair (float64); 0 where either posting does not give the evidence, and for
    features of _SKIPPABLE that `needs` (the features a model reads; None: all) leaves out."""
    jobs, links_same, pay_tiers = (True, True, True) if needs is None else (not needs.isdisjoint(x) for x in _SKIPPABLE)
    f = np.zeros(len(FEATURES), dtype=np.float64)
    if len(a.sh) and len(b.sh):
        ia, ib = _common(a.sh, b.sh)
        n = len(ia)
        f[_I["text_jaccard"]] = n / (len(a.sh) + len(b.sh) - n)
        f[_I["text_copy"]] = 1.0 if f[_I["text_jaccard"]] >= 0.95 else 0.0
        wmin = np.minimum(a.w[ia], b.w[ib]).sum()
        union = a.w_sum + b.w_sum - wmin  # sum over the union of each shingle's larger weight
        f[_I["spec_jaccard"]] = wmin / union if union > 0 else 0.0
        small = min(a.w_sum, b.w_sum)
        f[_I["spec_containment"]] = wmin / small if small > 0 else 0.0
        f[_I["spec_near_copy"]] = max(0.0, (f[_I["spec_jaccard"]] - 0.7) / 0.3)
    if a.title and b.title:
        f[_I["title_sim"]] = _jac(a.title, b.title)
    english = a.ex.lang == "en" and b.ex.lang == "en"
    if english and a.role_words and b.role_words and _generic(a.role_words) == _generic(b.role_words):
        # roles compared word by word (abbreviations) and by seniority; "Founding Engineers" only against its like
        matched = _alike(a, b)
        ra, rb = a.role_words, b.role_words
    elif not english and a.roles and b.roles:
        matched = _cjk_matched(a, b)
        ra, rb = a.roles, b.roles
    else:
        ra = rb = ()
    if ra:
        f[_I["roles_known"]] = 1.0
        f[_I["role_sim"]] = matched / (len(ra) + len(rb) - matched)
        f[_I["roles_changed"]] = _roles_changed(ra, rb, matched)
        novel, total = _zh_novel(a, b) if a.zh_roles and b.zh_roles else _novel_roles(a, b)
        f[_I["roles_novel"]] = novel / total if total else 0.0
    if a.families and b.families:
        f[_I["families_known"]] = 1.0
        f[_I["families_changed"]] = len(a.families ^ b.families) / len(a.families | b.families)
    f[_I["employer_same"]], f[_I["employer_differs"]] = _employer(a, b)
    f[_I["employer_roles"]] = f[_I["employer_same"]] * f[_I["role_sim"]]
    if jobs and english and ra and not f[_I["employer_differs"]]:  # English role word sets: read reliably enough
        halved = f[_I["roles_changed"]] >= 0.5
        f[_I["roles_halved"]] = float(halved and a.worded and b.worded)
        if f[_I["employer_same"]] and not halved and len(ra) + len(rb) - 2 * matched <= 2 and \
                not (_unspecific(ra) or _unspecific(rb)):  # at most one role added and one dropped
            f[_I["employer_jobs"]] = 1.0
    elif jobs and f[_I["employer_same"]] and a.zh_roles and b.zh_roles and _zh_same_jobs(a, b):
        f[_I["employer_jobs"]] = 1.0
    if jobs and a.ex.lang == b.ex.lang == "ja" and ra and f[_I["families_changed"]] and not f[_I["employer_differs"]]:
        f[_I["roles_halved"]] = float(_ja_halved(ra, rb, matched, f[_I["roles_changed"]]))
    if f[_I["employer_differs"]] and a.sites and b.sites and a.named and b.named:
        f[_I["employer_conflict"]] = 1.0
    if a.salaries and b.salaries:
        if a.salaries == b.salaries:
            f[_I["salary_same"]] = 1.0
        elif not (a.salaries & b.salaries):
            f[_I["salary_differs"]] = 1.0
    if a.location and b.location:
        f[_I["location_agree"]] = 1.0 if _jac(a.location, b.location) >= 0.5 else -1.0
    if not (math.isnan(a.day) or math.isnan(b.day)):
        f[_I["date_gap"]] = math.log1p(abs(a.day - b.day)) / math.log(366.0)
    if links_same and english and a.links and a.links == b.links:
        f[_I["links_same"]] = 1.0
    if len(a.links) >= 2 and len(b.links) >= 2:
        shared, only_a, only_b = links_compared(a, b)
        if shared + only_a + only_b and min(shared + only_a, shared + only_b) >= 2:
            f[_I["links_changed"]] = (only_a + only_b) / (shared + only_a + only_b)
    if len(a.duties) >= 5 and len(b.duties) >= 5 and not f[_I["employer_differs"]]:
        f[_I["duties_known"]] = 1.0
        f[_I["duties_containment"]] = len(_common(a.duties, b.duties)[0]) / min(len(a.duties), len(b.duties))
    if pay_tiers and _pay_tiers(a, b):
        f[_I["pay_tiers"]] = 1.0
    if a.places and b.places:  # places_moved(a, b) both non-empty; the second side only read when the first is
        f[_I["places_moved"]] = 1.0 if any(not b.mentions_place(p) for p in a.places) and \
            any(not a.mentions_place(p) for p in b.places) else 0.0
    if a.terms and b.terms and terms_changed(a, b):
        f[_I["terms_changed"]] = 1.0
    return f


def feature_matrix(pairs: Sequence[tuple[Prepared, Prepared]], needs: frozenset[str] | None = None) -> np.ndarray:
    """FEATURES for many pairs: shape (len(pairs), len(FEATURES)); `needs`: see pair_features."""
    out = np.zeros((len(pairs), len(FEATURES)), dtype=np.float64)
    for i, (a, b) in enumerate(pairs):
        out[i] = pair_features(a, b, needs)
    return out
