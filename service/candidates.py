"""Blocking candidates: pairs of postings that share an employer, not text.

MinHash LSH only proposes pairs whose texts overlap (estimated Jaccard around 0.3 and up). A monthly
repost with rewritten prose ("Company | Location | Remote | Roles" first line, new paragraphs) can share
much less, so LSH never proposes it. These keys are what such reposts keep:

* `employer`: the `company` field, else the first segment of an HN-style first line
  (`Company | …` / `Company - …`), else the company a Chinese title names before its hiring verb (`Lbank诚聘`),
  else a company a Chinese / Japanese text names with its legal form,
  normalized with signatures.employer.employer_core ("Acme (YC F24)" = "Acme, Inc."; 株式会社 / 有限公司, leading
  places and trailing line-of-business words dropped: 三亚飞鱼旅行旅行社有限公司 = 飞鱼旅行);
* `contact`: the first contact e-mail's domain (the whole address at a free-mail provider), else the
  first linked domain that is not a job platform, social site or link shortener;
* `employer_title`: employer plus the normalized title (or the first line's role segment); a Chinese posting
  that names no employer: the name of its contact domain (not a free-mail address: one person may recruit
  for several projects) plus the first role its title announces, read as a name
  (signatures.roles_zh.title_role_key: 智能合約工程師 = 高级智能合约工程师), so a year-later repost with another title
  wording still meets its first posting.

Blocks are bounded: postings are sorted by (key, first seen) and each is paired with its next
WINDOW - 1 neighbours only (sorted neighbourhood, so a block costs linear time; blocks of up to
SMALL_BLOCK postings are paired completely), and the employer and
contact blocks are used only up to MAX_BLOCK postings (a big employer's monthly reposts are then found
through employer_title). The pairs go to the Verifier; nothing is grouped on a shared key alone.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import xxhash

from service.graph import component_labels
from signatures.employer import (
    FREE_MAIL,
    PLATFORMS,
    employer_core,
    employer_key,
    names_in_text,
    names_in_title,
    registrable,
    site_label,
)
from signatures.extract import _sub_spans, _unopened, contact_handles, posting_lang
from signatures.roles_zh import title_role_key

WINDOW = 3        # each posting is paired with its next WINDOW - 1 neighbours in (key, date) order
SMALL_BLOCK = 6   # blocks up to this size are paired completely
MAX_BLOCK = 64    # employer / contact blocks larger than this are skipped (employer_title still applies)
KEYS = ("employer", "contact", "employer_title")
_CAPPED = (True, True, False)
CAPPED_COLUMNS = tuple(c for c, capped in enumerate(_CAPPED) if capped)  # key columns capped at MAX_BLOCK

_FIRST_LINE_RE = re.compile(r"(?is)^\s*(.*?)(?:<p>|<br\s*/?>|\n|</p>|$)")
_TAG_RE = re.compile(r"<[^>]{0,2000}>")
_SPLIT_RE = re.compile(r"\s+[|｜]\s+|\s*[|｜]\s*|\s+[-–—]\s+")
_PAREN_RE = re.compile(r"(?!(?<=\s)\s)\s*[(（\[【][^)）\]】]*[)）\]】]\s*")  # no start inside a whitespace run
_MD_RE = re.compile(r"^[#>*\s]+")
_LOCAL_RE = re.compile(r"[\w.+-]+$")                       # an address's local part, right before '@'
_DOMAIN_RE = re.compile(r"@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")
_URL_RE = re.compile(r"(?i)https?://(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)")
_TITLE_NOISE_RE = re.compile(r"[\W\d_]+", re.UNICODE)
_ENTITIES = (("&#x2F;", "/"), ("&#x2f;", "/"), ("&#47;", "/"), ("&#x40;", "@"), ("&#64;", "@"), ("&amp;", "&"))
HANDLE = "handle:"  # contact_of's prefix for a messenger handle


def _h(s: str) -> int:
    return xxhash.xxh64_intdigest(s.encode("utf-8")) | 1 if s else 0  # never 0 for a real key


def _first_line(description: str) -> str:
    m = _FIRST_LINE_RE.match(description[:600])
    line = m.group(1) if m else ""
    if "<" in line:
        line = _TAG_RE.sub(" ", line)
    if "&" in line:
        line = html.unescape(line)
    return _MD_RE.sub("", line).strip()


def _first_line_parts(description: str) -> list[str]:
    """Segments of an HN-style first line `Company | Location | Roles` (empty unless it has 2+)."""
    parts = [p.strip() for p in _SPLIT_RE.split(_first_line(description)) if p.strip()]
    return parts if len(parts) >= 2 else []


def _parts_of(posting: Mapping[str, Any]) -> list[str]:
    """The HN-style header of an untitled posting (a thread comment); a titled posting's first line is its text
    (a Chinese board post's `远程 - 大数据工程师 - Data Engineer` names a work mode and roles, no company)."""
    desc, title = posting.get("description"), posting.get("title")
    if isinstance(title, str) and title.strip():
        return []
    return _first_line_parts(desc) if isinstance(desc, str) and desc else []


def employer_of(posting: Mapping[str, Any], parts: list[str] | None = None,
                key: Callable[[str], str] = employer_core) -> str:
    """Normalized employer (`key`; signatures.employer.employer_core: batch tags, legal forms, places and
    line-of-business words dropped, so 三亚飞鱼旅行旅行社有限公司 = 飞鱼旅行 and "Acme, Inc." = "Acme (YC F24)"): the
    company field, else the first segment of an HN-style first line, else the company a Chinese title names
    before its hiring verb, else the first company a Chinese / Japanese text names with its legal form."""
    company = posting.get("company")
    if isinstance(company, str) and company.strip():
        return key(company)
    parts = _parts_of(posting) if parts is None else parts
    if not parts:
        title, desc = posting.get("title"), posting.get("description")
        named = names_in_title(title, key) if isinstance(title, str) else []
        named = named or (names_in_text(desc, 1, key) if isinstance(desc, str) and not desc.isascii() else [])
        return named[0] if named else ""
    name = _PAREN_RE.sub(" ", parts[0]).strip()
    if not name or len(name) > 40 or len(name.split()) > 5 or "://" in name:
        return ""
    return key(name)


def contact_of(posting: Mapping[str, Any]) -> str:
    """Employer contact: the first e-mail's domain (whole address at free mail), else the first linked
    domain that is not a platform, else the first messenger handle (`TG: @x`, `添加微信x`; HANDLE + handle):
    Chinese board posts often give nothing but the poster's Telegram or WeChat."""
    desc = posting.get("description")
    if not isinstance(desc, str) or not desc:
        return ""
    text = desc
    if "&" in text:  # entity-escaped links and addresses (HN): only the characters that matter here
        for ent, ch in _ENTITIES:
            if ent in text:
                text = text.replace(ent, ch)
    at = text.find("@")
    while at > 0:  # look around each '@' sign: one regex over the whole text is ~50x slower
        local = _LOCAL_RE.search(text, max(0, at - 64), at)
        dom_m = _DOMAIN_RE.match(text, at)
        if local and dom_m:
            dom = registrable(dom_m.group(1))
            if dom in FREE_MAIL:
                return (local.group(0) + dom_m.group(0)).lower()
            if dom not in PLATFORMS:
                return dom
        at = text.find("@", at + 1)
    if "://" in text:
        for m in _URL_RE.finditer(text):
            host = m.group(1).lower()
            dom = registrable(host)
            if dom not in PLATFORMS and host not in PLATFORMS:
                return dom
    handles = contact_handles(text)
    return HANDLE + handles[0] if handles else ""


def _title_of(posting: Mapping[str, Any], parts: list[str] | None = None) -> str:
    title = posting.get("title")
    if not (isinstance(title, str) and title.strip()):
        parts = _parts_of(posting) if parts is None else parts
        title = parts[1] if len(parts) > 1 else ""
    scan = _unopened(title, "(（[【", ")）]】")  # the same matches without rescanning from unclosed brackets
    return _TITLE_NOISE_RE.sub("", _sub_spans(_PAREN_RE, scan, title, lambda m: " ").casefold())


def blocking_keys(postings: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """(n, len(KEYS)) uint64 blocking keys per posting (0: none), computed cheaply from the raw fields."""
    out = np.zeros((len(postings), len(KEYS)), np.uint64)
    for i, p in enumerate(postings):
        company, title = p.get("company"), p.get("title")
        parts = [] if isinstance(company, str) and company.strip() and isinstance(title, str) and title.strip() \
            else _parts_of(p)
        emp = employer_of(p, parts)
        title = _title_of(p, parts)
        out[i, 0] = _h(emp)
        contact = contact_of(p)
        out[i, 1] = _h(contact)
        fielded = bool(parts) or isinstance(company, str) and bool(company.strip())  # named by a field or header
        if emp and fielded:
            out[i, 2] = _h(emp + "\x00" + title) if title else 0
        elif (emp or contact and "@" not in contact) and isinstance(t := p.get("title"), str) and posting_lang(p) == "zh":
            # a name from the title or text; else synfutures.com and synfutures.xyz: one employer's two domains;
            # a handle stays whole
            label = emp or (contact if contact.startswith(HANDLE) else site_label(contact))
            named = employer_of(p, parts, employer_key) if emp else label.removeprefix(HANDLE)  # the name as written
            role = title_role_key(t, named)
            out[i, 2] = _h(label + "\x00role\x00" + role) if role else 0
        elif emp:
            out[i, 2] = _h(emp + "\x00" + title) if title else 0
    return out


def block_pairs(keys: np.ndarray, first_key: np.ndarray, window: int = WINDOW, small: int = SMALL_BLOCK,
                max_block: int = MAX_BLOCK) -> tuple[np.ndarray, np.ndarray]:
    """Candidate row pairs (i, j) from equal blocking keys: per key column, rows sorted by (key, date)
    and paired with their next `window - 1` neighbours (every pair in blocks of up to `small` rows);
    capped columns skip blocks over `max_block`. At most n * max(window, small) pairs per column."""
    n = keys.shape[0]
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for c in range(keys.shape[1]):
        col = keys[:, c]
        _, inv, counts = np.unique(col, return_inverse=True, return_counts=True)
        size = counts[inv]
        if _CAPPED[c] if c < len(_CAPPED) else True:
            col = np.where(size <= max_block, col, np.uint64(0))
        order = np.lexsort((np.arange(n), first_key, col))
        ks, small_block = col[order], size[order] <= small
        for d in range(1, max(window, small)):
            if d >= n:
                break
            m = (ks[:-d] == ks[d:]) & (ks[d:] != 0)
            if d >= window:
                m &= small_block[d:]
            found.append((order[:-d][m], order[d:][m]))
    ii = np.concatenate([f[0] for f in found] or [np.zeros(0, np.int64)]).astype(np.int64)
    jj = np.concatenate([f[1] for f in found] or [np.zeros(0, np.int64)]).astype(np.int64)
    return ii, jj


def employer_column(keys: np.ndarray) -> np.ndarray:
    """Per row the employer blocking key (column 0 of `keys`; 0: none): the third part of the engine's `extra`,
    so a blocking pair of one employer key is verified whatever its company fields' exact keys say."""
    return keys[:, 0].copy() if keys.ndim == 2 and keys.shape[1] else np.zeros(len(keys), np.uint64)


def extra_pairs(keys: np.ndarray, first_key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The engine's `extra` candidates (service.engine.find_groups): `block_pairs` and `employer_column`."""
    return (*block_pairs(keys, first_key), employer_column(keys))


def unconnected(ii: np.ndarray, jj: np.ndarray, ai: np.ndarray, aj: np.ndarray, n: int) -> np.ndarray:
    """Mask of the pairs (ii, jj) whose rows are not yet connected by the accepted edges (ai, aj):
    only those can change a grouping, so only those are worth the Verifier's time."""
    if not len(ii):
        return np.zeros(0, bool)
    if not len(ai):
        return np.ones(len(ii), bool)
    label = component_labels(ai, aj, n)
    return label[ii] != label[jj]
