"""Content extraction: the main text of a posting (HTML, markdown or plain) with its section structure,
and the fields a duplicate decision needs (title, company, location, contacts, roles, salary) when the
posting does not carry them. Pure: no I/O; HTML is parsed with selectolax (lexbor).
"""

from __future__ import annotations

import inspect
import re
import threading
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial, update_wrapper
from itertools import accumulate, chain, compress, islice
from operator import itemgetter
from typing import Any, NamedTuple

from selectolax.lexbor import LexborHTMLParser

__all__ = [
    "Extracted",
    "Section",
    "contact_handles",
    "detect_lang",
    "extract",
    "html_to_text",
    "markdown_to_text",
    "normalize_line",
    "posting_lang",
    "role_families",
]


@dataclass(frozen=True)
class Section:
    """One section of the main text: its heading ('' before the first heading) and its lines."""

    heading: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Extracted:
    """What extraction found in one posting. `lines` are the main text's non-empty lines in order
    (headings included); fields given in the posting win over fields found in the text."""

    id: str
    lang: str
    text: str
    lines: tuple[str, ...]
    sections: tuple[Section, ...]
    title: str = ""
    company: str = ""
    location: str = ""
    emails: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()
    salaries: tuple[float, ...] = ()
    families: tuple[str, ...] = ()  # role families announced (see role_families)
    posted_at: str | None = None
    site: str = ""
    fields_found: tuple[str, ...] = field(default=())


# --------------------------------------------------------------------------- fast matching
#
# Python's regex engine is slow on case-insensitive alternations (no prefix scan). Extraction folds the
# text once (`_fold`: per character, length-preserving) and runs case-sensitive twins of its (?i)
# patterns on the folded text (`_cs`): the same spans, several times faster, because under re's
# IGNORECASE an ASCII letter matches exactly the characters `_fold` maps onto it (tests check every
# code point). `_Pre` adds a literal prefilter: a pattern runs only when one of the literals every match
# must contain occurs in the folded text (`str.__contains__` is a memchr-speed scan).

_FOLD_TABLE = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})  # İ ı ſ (re matches them as i/s)


def _fold(s: str) -> str:
    """Lowercase with re's IGNORECASE equivalences for ASCII letters; one character per character."""
    if "\u0130" in s or "\u0131" in s or "\u017f" in s:  # rare; str.translate is slow on non-ASCII text
        s = s.translate(_FOLD_TABLE)
    return s.lower()


def _branches(p: str) -> list[str]:
    """Top-level alternatives of a pattern string."""
    out, cur, depth, in_class, i = [], "", 0, False, 0
    while i < len(p):
        ch = p[i]
        if ch == "\\":
            cur += p[i : i + 2]
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            out.append(cur)
            cur, i = "", i + 1
            continue
        cur += ch
        i += 1
    return [*out, cur]


_LEAD_RE = re.compile(r"\\b([a-z0-9])(?![?*+{])")


def _lead_boundary(p: str) -> str:
    """`\\bx...` alternatives rewritten as `x(?<!\\w.)...` (the same matches: x is a word character, so a
    boundary before it means no word character before it): alternatives then start with a literal and the
    engine skips positions by their first character instead of trying every alternative everywhere.
    A leading `\\b(...)` group whose alternatives all start with a word character gets a lookahead for
    those first characters instead (faster there than rewriting every alternative)."""
    out = []
    for b in _branches(p):
        m = _LEAD_RE.match(b)
        if m:
            b = m.group(1) + r"(?<!\w.)" + b[m.end() :]
        elif b.startswith(("\\b(", "\\b(?:")):
            head = "(?:" if b.startswith("\\b(?:") else "("
            inner, depth = 0, 0
            for k in range(2 + len(head), len(b)):  # find the group's closing parenthesis
                if b[k] == "(" and b[k - 1] != "\\":
                    depth += 1
                elif b[k] == ")" and b[k - 1] != "\\":
                    if depth == 0:
                        inner = k
                        break
                    depth -= 1
            alts = _branches(b[2 + len(head) : inner]) if inner else []
            quantified = b[inner + 1 : inner + 2] in ("?", "*", "+", "{")
            if alts and not quantified and all(_LEAD_RE.match("\\b" + a) for a in alts):
                b = "(?=[" + "".join(sorted({a[0] for a in alts})) + "])" + b  # a cheap first-character test
        out.append(b)
    return "|".join(out)


def _first_set(seq: Any) -> list[str] | None:
    """Class items (as pattern text) of which the first character every match consumes is one; None
    when unknown (a nullable start, a negated class, ...)."""
    from re import _constants as c  # type: ignore[attr-defined]

    cats = {c.CATEGORY_DIGIT: r"\d", c.CATEGORY_WORD: r"\w", c.CATEGORY_SPACE: r"\s"}
    for op, av in seq:
        if op is c.AT or op in (c.ASSERT, c.ASSERT_NOT):
            continue  # zero-width
        if op is c.LITERAL:
            return [re.escape(chr(av))]
        if op is c.IN:
            out = []
            for iop, iav in av:
                if iop is c.LITERAL:
                    out.append(re.escape(chr(iav)))
                elif iop is c.RANGE:
                    out.append(re.escape(chr(iav[0])) + "-" + re.escape(chr(iav[1])))
                elif iop is c.CATEGORY and iav in cats:
                    out.append(cats[iav])
                else:
                    return None
            return out
        if op is c.SUBPATTERN:
            return _first_set(av[-1])
        if op is c.BRANCH:
            sets = [_first_set(b) for b in av[1]]
            return None if any(x is None for x in sets) else [i for x in sets for i in x]  # type: ignore[union-attr]
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            return _first_set(av[2])
        return None
    return None


def _first_char_lookahead(rx: re.Pattern[str]) -> re.Pattern[str]:
    """The pattern behind a lookahead for the characters its matches can start with (the same matches),
    unless the engine finds that set itself (a literal or alternatives of literals first): positions
    that cannot start a match are then rejected in one step instead of trying every alternative."""
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        tree = _parser.parse(rx.pattern, rx.flags)
        first = list(tree)[0] if len(tree) else None
        if first is None or first[0] in (c.LITERAL, c.ASSERT) or (
            first[0] is c.BRANCH and all(b and list(b)[0][0] is c.LITERAL for b in first[1][1])
        ):
            return rx
        items = _first_set(tree)
    except Exception:  # noqa: BLE001 - a private module; without it there is no shortcut
        return rx
    if not items:
        return rx
    return re.compile("(?=[" + "".join(dict.fromkeys(items)) + "])(?:" + rx.pattern + ")", rx.flags)


def _cs(rx: re.Pattern[str]) -> re.Pattern[str]:
    """Case-sensitive twin of an all-lowercase (?i) pattern, to run on `_fold`ed text (same spans)."""
    pattern = rx.pattern.replace("(?i)", "")
    if _fold(re.sub(r"\\.", "", pattern)) != re.sub(r"\\.", "", pattern):
        raise ValueError(f"_cs needs an all-lowercase pattern: {rx.pattern!r}")
    return _first_char_lookahead(re.compile(_lead_boundary(pattern), rx.flags & ~re.IGNORECASE))


def _line_safe(rx: re.Pattern[str]) -> re.Pattern[str]:
    """The pattern with `\\s` unable to match a line break: on a '\\n'-joined text its matches stay within
    lines, and each line's first match is what a search of the line alone finds."""
    p = rx.pattern
    bare = re.sub(r"\\[^\\swWdDsSbB]", "", p)  # escaped literals cannot match a line break
    if rx.flags & (re.DOTALL | re.MULTILINE) or re.search(r"\[[^\]]*\\s|\[\^|\\[WD\\]|\(\?[a-z]*[sm]|\(\?<?[=!]|[\^$]", bare):
        raise ValueError(f"_line_safe cannot prove this pattern stays within a line: {p!r}")
    return re.compile(p.replace("\\s", "[^\\S\\n]"), rx.flags)


def _line_starts(lines: list[str]) -> list[int]:
    """Offsets of each line in '\\n'.join(lines)."""
    return [0, *accumulate(len(ln) + 1 for ln in lines)][: len(lines)]


def _required(seq: Any) -> frozenset[str] | None:
    """Literals (folded) of which every match of a parsed regex sequence contains one; None if unknown."""
    from re import _constants as c  # type: ignore[attr-defined]

    options: list[frozenset[str]] = []
    run = ""
    for op, av in seq:
        if op is c.LITERAL:
            run += chr(av)
            continue
        if run:
            options.append(frozenset([run]))
            run = ""
        sub: frozenset[str] | None = None
        if op is c.SUBPATTERN:
            sub = _required(av[-1])
        elif op is c.BRANCH:
            subs = [_required(b) for b in av[1]]
            sub = None if any(x is None for x in subs) else frozenset().union(*subs)  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            sub = _required(av[2])
        if sub:
            options.append(sub)
    if run:
        options.append(frozenset([run]))
    if not options:
        return None
    return frozenset(_fold(x) for x in max(options, key=lambda o: (min(map(len, o)), -len(o))))


def _literals(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """`_required` of a whole compiled pattern (None when the parser is unavailable or nothing is required)."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        req = _required(_parser.parse(rx.pattern, rx.flags))
    except Exception:  # noqa: BLE001 - a private module; without it there is simply no prefilter
        return None
    return tuple(sorted(req)) if req and all(req) else None


class _Pre:
    """A (?i) pattern with its case-sensitive twin and literal prefilter, both for folded text.
    `short`: the texts are short (one line), where one regex over the literals beats many `in` scans;
    `lines`: also a line-safe twin for `line_matches`."""

    __slots__ = ("cs", "lines", "lit_rx", "lits", "rx")

    def __init__(self, rx: re.Pattern[str], lines: bool = False, short: bool = False) -> None:
        self.rx = rx
        self.cs = _cs(rx) if rx.flags & re.IGNORECASE else rx
        self.lits = _literals(rx)
        alternation = "|".join(re.escape(x) for x in sorted(self.lits or (), key=len, reverse=True))
        self.lit_rx = re.compile(alternation) if self.lits and len(self.lits) > 2 and short else None
        plain = re.compile(rx.pattern.replace("(?i)", ""), rx.flags & ~re.IGNORECASE)
        self.lines = _first_char_lookahead(_line_safe(plain)) if lines else None

    def may(self, folded: str) -> bool:
        """False only when the pattern cannot match the text whose fold is `folded`."""
        if self.lits is None:
            return True
        if self.lit_rx is not None:
            return self.lit_rx.search(folded) is not None
        for x in self.lits:
            if x in folded:
                return True
        return False

    def line_matches(self, folded_text: str, starts: list[int]) -> dict[int, re.Match[str]]:
        """Per line of a folded '\\n'-joined text (`starts`: each line's offset), the first match a
        per-line search would find, from one pass over the whole text (needs `lines=True`)."""
        if self.lines is None or not self.may(folded_text):
            return {}
        out: dict[int, re.Match[str]] = {}
        for m in self.lines.finditer(folded_text):
            out.setdefault(bisect_right(starts, m.start()) - 1, m)
        return out

    def search(self, folded: str) -> re.Match[str] | None:
        """Match in the folded text (spans equal the original text's)."""
        return self.cs.search(folded) if self.may(folded) else None


# --------------------------------------------------------------------------- text formats

_BLOCK_TAGS = (
    "p|div|br|li|ul|ol|tr|table|section|article|header|footer|blockquote|pre|h[1-6]|dd|dt|hr"
)
# Linear time on hostile text. Possessive `*+` where backtracking cannot change the outcome (what
# follows a run never matches the run's characters). A pattern `O[^C]*C` searched from every O rescans
# to the end of the text from each O that has no C after it (quadratic: "[" x 200,000 took a minute):
# such openers are blanked first (`_unopened`, `_failing_openers`: replaced by NUL in a same-length
# copy that is scanned, while the output is cut from the original), or the text after the last C is
# left out of the scan (no match can reach into it).
_BLOCK_RE = re.compile(rf"<\s*+/?\s*+(?:{_BLOCK_TAGS})\b[^>]*+>", re.IGNORECASE)
_HEADING_OPEN_RE = re.compile(r"<\s*+h([1-6])\b[^>]*+>", re.IGNORECASE)
_LI_OPEN_RE = re.compile(r"<\s*+li\b[^>]*+>", re.IGNORECASE)
_HTML_HINT_RE = re.compile(r"<\s*+(?:p|br|div|a|li|ul|h[1-6]|span|b|i|strong|em|html|body|table)\b[^>]*+>|&#x?[0-9a-f]+;|&[a-z]+;", re.IGNORECASE)
#: Markdown hints: a heading or list line, bold text, a link -- searched apart (an alternation of the three tried
#: all of them at every character), bold text and links only when their literal occurs (see _md_hint).
_MD_LINE_HINT_RE = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d+[.)]\s)")
_MD_BOLD_HINT_RE = re.compile(r"\*\*[^*]+\*\*")
_MD_LINK_HINT_RE = re.compile(r"\[[^\]]++\]\([^)]++\)")
_NUL = "\x00"  # stands in for an opener that cannot open a match: matched by no pattern here but [^...]
_SPACE_RE = re.compile(r"\s")


def _unopened(text: str, openers: str, closers: str) -> str:
    """`text` with each of `openers` that has none of `closers` after it replaced by NUL (same length):
    `O[^C]*C` patterns find the same matches in it without rescanning the text from those openers."""
    last = max(map(text.rfind, closers))
    tail = text[last + 1 :]
    if not any(o in tail for o in openers):
        return text
    for o in openers:
        tail = tail.replace(o, _NUL)
    return text[: last + 1] + tail


def _failing_openers(text: str, opener: str, closer: str, tail_ok: Callable[[int], bool]) -> str:
    """`text` with each `opener` replaced by NUL (same length) whose first following `closer` is missing
    or at an index r where `tail_ok(r)` is false: for `O[^C]*C<tail>` patterns, every opener before the
    same closer fails or succeeds together, so the pattern is tried once per closer, not once per opener."""
    if opener not in text:
        return text
    parts = text.split(closer)
    at = -1
    last = len(parts) - 1
    for i, seg in enumerate(parts):
        end = at + 1 + len(seg)  # index of the closer after this part
        if opener in seg and (i == last or not tail_ok(end)):
            parts[i] = seg.replace(opener, _NUL)
        at = end
    return closer.join(parts)


def _sub_spans(rx: re.Pattern[str], scan: str, text: str, repl: Callable[[re.Match[str]], str]) -> str:
    """`rx.sub` with matches found in `scan` (a same-length stand-in for `text`) and everything else,
    including what `repl` reads through the match's spans, taken from `text`."""
    out: list[str] = []
    last = 0
    for m in rx.finditer(scan):
        out.append(text[last : m.start()])
        out.append(repl(m))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _md_link_tail(text: str, last_paren: int, nonspace: bool) -> Callable[[int], bool]:
    """Whether `](` + one character ([^)], or [^)\\s] when `nonspace`) + a later `)` follows index r."""

    def ok(r: int) -> bool:
        if text[r + 1 : r + 2] != "(" or last_paren <= r + 2 or text[r + 2] == ")":
            return False
        return not (nonspace and _SPACE_RE.match(text, r + 2))

    return ok


def html_to_text(html: str) -> str:
    """Main text of an HTML fragment or page: block elements become line breaks, headings become
    markdown-style `#` lines, list items `- ` lines; scripts, styles and page chrome are dropped."""
    k = html.rfind(">") + 1  # no tag match reaches past the last '>'; the substitutes add none
    marked = _HEADING_OPEN_RE.sub(lambda m: "\n\n" + "#" * int(m.group(1)) + " ", html[:k])
    marked = _LI_OPEN_RE.sub("\n- ", marked)
    marked = _BLOCK_RE.sub("\n", marked) + html[k:]
    tree = LexborHTMLParser(marked)
    for sel in ("script", "style", "noscript", "nav", "aside", "template", "form"):
        for node in tree.css(sel):
            node.decompose()
    root = None
    for sel in ("main", "article"):
        found = tree.css_first(sel)
        if found is not None and len(found.text(strip=True)) > 200:
            root = found
            break
    if root is None:
        root = tree.body if tree.body is not None else tree.root
    if root is None:
        return ""
    return root.text(separator="")


_MD_LINK_RE = re.compile(r"!?\[([^\]]*+)\]\(([^)\s]++)[^)]*+\)")
_MD_EMPH_RE = re.compile(r"(\*\*|__|~~|`)")


def markdown_to_text(md: str) -> str:
    """Plain text of markdown: links become `text url`, emphasis marks go, headings keep their `#`."""
    if "[" in md:
        scan = _failing_openers(md, "[", "]", _md_link_tail(md, md.rfind(")"), True))
        md = _sub_spans(_MD_LINK_RE, scan, md, lambda m: f"{md[m.start(1) : m.end(1)]} {md[m.start(2) : m.end(2)]}".strip())
    text = _MD_EMPH_RE.sub("", md)
    return text


def _md_hint(scan: str) -> bool:
    """Whether a text looks like markdown: one of the _MD_*_HINT_RE patterns matches somewhere in it."""
    return _MD_LINE_HINT_RE.search(scan) is not None or "**" in scan and _MD_BOLD_HINT_RE.search(scan) is not None \
        or "](" in scan and _MD_LINK_HINT_RE.search(scan) is not None


def _raw_text(description: str) -> str:
    """Description in any format -> plain text with line structure."""
    if ("<" in description or "&" in description) and _HTML_HINT_RE.search(_unopened(description, "<", ">")):
        description = html_to_text(description)
    scan = description
    if "[" in description:
        scan = _failing_openers(description, "[", "]", _md_link_tail(description, description.rfind(")"), False))
    if _md_hint(scan):
        description = markdown_to_text(description)
    return description


# --------------------------------------------------------------------------- language

_HIRA_KATA_RE = re.compile(r"[\u3040-\u30ff]")
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")
#: A kana or Han character (CJK unified, extension A, compatibility ideographs).
CJK_CHAR_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def posting_lang(posting: Mapping[str, Any], raw: str | None = None) -> str:
    """A posting's language as every step reads it: its `lang` field (en / zh / ja), else detect_lang over its
    title and plain text (`raw`: the description converted from HTML / markdown; computed when not given)."""
    lang = _str(posting.get("lang")).strip().lower()[:2]
    if lang in ("en", "zh", "ja"):
        return lang
    if raw is None:
        raw = _raw_text(_str(posting.get("description"))).replace("\r\n", "\n").replace("\r", "\n")
    return detect_lang(_str(posting.get("title")).strip() + "\n" + raw)


def detect_lang(text: str) -> str:
    """'ja' when kana occur, 'zh' when Han characters dominate, else 'en' (Latin scripts)."""
    sample = text[:4000]
    kana = _HIRA_KATA_RE.subn("", sample)[1]
    han = _HAN_RE.subn("", sample)[1]
    if kana >= 10 or (kana and kana * 5 >= han):
        return "ja"
    if han >= 10 or (han and han * 3 >= len(sample)):
        return "zh"
    return "en"


# --------------------------------------------------------------------------- normalization

#: Entries of the per-line caches (pure functions of one line): postings repeat lines (company blurbs,
#: benefits, EEO statements, reposts), so a line seen before costs a dictionary lookup. Full, all of them
#: together hold ~2.5 KB per entry: ~80 MB per process.
LINE_CACHE = 1 << 15
#: Arguments longer than this (characters, summed over the strings passed) are computed, never cached: a
#: description written as one line would otherwise keep its whole text, tokens and shingles in a slot of
#: every cache (~60 KB each for 500 words), so memory would follow the input instead of the entry count.
LINE_CACHE_MAX_CHARS = 600


def _arg_chars(args: tuple[Any, ...]) -> int:
    """Characters of a cached call's arguments: its strings, and the strings in its tuples / frozensets."""
    n = 0
    for a in args:
        if isinstance(a, str):
            n += len(a)
        elif isinstance(a, tuple | frozenset):
            n += sum(len(x) for x in a if isinstance(x, str))
    return n


_EVICTING = threading.Lock()  # one eviction at a time in a process (rare: every LINE_CACHE / 4 misses of a cache)


class _LineCache(dict):
    """The entries of one `line_cache`d function, keyed by its argument (one-argument functions) or its
    argument tuple; a missing key is computed by `__missing__`, kept when its arguments are short enough."""

    def __init__(self, fn: Callable[..., Any], unary: bool) -> None:
        super().__init__()
        self.fn = fn
        self.unary = unary
        self.misses = 0

    def __missing__(self, key: Any) -> Any:
        args = (key,) if self.unary else key
        value = self.fn(*args)
        self.misses += 1
        if (len(key) if key.__class__ is str else _arg_chars(args)) <= LINE_CACHE_MAX_CHARS:
            if len(self) >= LINE_CACHE:
                self._evict()
            self[key] = value
        return value

    def _evict(self) -> None:
        """Drop the oldest quarter (bounded, amortized O(1) per entry). The threads of a process share the
        cache: one evicts at a time, a key another thread dropped first is passed over, and a listing cut short
        by another thread's insert is left to the next miss."""
        if not _EVICTING.acquire(blocking=False):
            return
        try:
            try:
                old = list(islice(self, len(self) - LINE_CACHE * 3 // 4))
            except RuntimeError:  # another thread added an entry meanwhile
                return
            for k in old:
                self.pop(k, None)
        finally:
            _EVICTING.release()

    def info(self) -> CacheInfo:
        return CacheInfo(self.misses, LINE_CACHE, len(self))


class CacheInfo(NamedTuple):
    """What a `line_cache`d function holds: computed calls, the most entries it keeps, entries now."""

    misses: int
    maxsize: int
    currsize: int


def line_cache(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A cache of LINE_CACHE entries for a pure per-line function, bypassed for arguments over
    LINE_CACHE_MAX_CHARS characters: bounded memory per process whatever the lines are like. A hit costs a
    dictionary lookup in C (`functools.partial` of `dict.__getitem__`; a one-line Python wrapper for
    functions of several arguments): these functions run ~300 times per posting."""
    code = fn.__code__
    unary = code.co_argcount == 1 and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
    cache = _LineCache(fn, unary)
    if unary:
        call: Any = partial(dict.__getitem__, cache)
    else:
        get = cache.__getitem__

        def call(*args: Any) -> Any:
            return get(args)

    update_wrapper(call, fn)
    call.cache_clear = cache.clear
    call.cache_info = cache.info
    return call


def lang_line_cache(fn: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
    """`line_cache` for a pure function of (line, lang): one cache per language, so that `fn.of(lang)` is a
    one-argument function whose hits are a dictionary lookup in C (no Python wrapper call: a posting's lines
    are looked up with `map(fn.of(lang), lines)`). `fn(line, lang)` reads the same caches."""
    caches: dict[str, Callable[[str], Any]] = {}

    def of(lang: str) -> Callable[[str], Any]:
        got = caches.get(lang)
        if got is None:
            def one(line: str) -> Any:
                return fn(line, lang)

            got = caches[lang] = line_cache(one)
        return got

    def call(line: str, lang: str) -> Any:
        return (caches.get(lang) or of(lang))(line)

    def info() -> CacheInfo:
        got = [c.cache_info() for c in caches.values()]  # type: ignore[attr-defined]
        return CacheInfo(sum(i.misses for i in got), LINE_CACHE, sum(i.currsize for i in got))

    update_wrapper(call, fn)
    call.of = of  # type: ignore[attr-defined]
    call.cache_clear = caches.clear  # type: ignore[attr-defined]
    call.cache_info = info  # type: ignore[attr-defined]
    return call


_WS_RE = re.compile(r"[ \t\u3000\xa0]+")


def _single_spaced(text: str) -> str:
    """`_WS_RE.sub(" ", text)` (never touches a line break): each run of spaces, tabs, ideographic and no-break
    spaces as one space. Text whose only such runs are single spaces is returned as it is, without a regex pass
    that replaces every space by itself (~40 us for a 2 KB description)."""
    if "  " in text or "\t" in text or "\u3000" in text or "\xa0" in text:
        return _WS_RE.sub(" ", text)
    return text
_NORM_DROP_RE = re.compile(r"[^\w]+", re.UNICODE)


#: ASCII byte -> itself for word characters (re's \\w), space otherwise
_ASCII_WORD_OR_SPACE = bytes(c if re.match(r"\w", chr(c)) else 32 for c in range(256))


@line_cache
def normalize_line(line: str) -> str:
    """Canonical form of a line for hashing: NFKC, lowercase, only letters/digits (spaces squeezed)."""
    if line.isascii():  # NFKC is the identity; bytes.translate + split is ~5x faster than the regex
        squeezed = b" ".join(line.lower().encode("ascii").translate(_ASCII_WORD_OR_SPACE).split())
        return squeezed.decode("ascii").replace("_", " ").strip()
    line = unicodedata.normalize("NFKC", line).lower()
    return _NORM_DROP_RE.sub(" ", line).replace("_", " ").strip()


# --------------------------------------------------------------------------- contacts / salary

_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_OBF_EMAIL_RE = re.compile(
    r"(?<![\w.+-])([\w.+-]+)\s*[\[(]\s*at\s*[\])]\s*([\w-]+(?:\s*(?:[\[(]\s*dot\s*[\])]|\.)\s*[\w-]+)+)", re.IGNORECASE
)
_OBF_HINT_RE = re.compile(r"[\[(]\s*at\s*[\])]", re.IGNORECASE)
_URL_RE = re.compile(r"https?://[^\s<>\"'）)\]】,，。]+", re.IGNORECASE)
_PHONE_RE = re.compile(r"(?<![\w+])\+?\d[\d \t().-]{6,18}\d(?!\w)")
_PHONE_FAST_RE = re.compile(r"(?=[+\d])" + _PHONE_RE.pattern)  # same matches; the lookahead skips fast
_HANDLE_RE = re.compile(r"(?i)(?:telegram|tg|wechat|微信|vx|skype|discord|line)\s*+(?:id)?\s*+[:：]\s*+(@?[\w.:-]{3,})")
#: A WeChat / Telegram handle written without a colon, as Chinese posts do: `添加微信happierenee`, `微信请加【freeface】`,
#: `微信 Doris_hire`, `[TG@someone]`, `Telegram（@someone）`: a Latin id (a letter, then 4-31 letters, digits, _ . -)
#: right after a Chinese keyword and its verb or bracket, or after a Latin keyword and `@` or a bracket (never
#: a plain English word after "Telegram"); never across a line break.
_HANDLE_LOOSE_RE = re.compile(
    r"(?i)(?:(?:微信|v信)(?:号|id)?[^\S\n]*+(?:请加|请添加|添加|加|联系|搜索)?[^\S\n]*+[【\[(（「]?[^\S\n]*+@?"
    r"|(?:wechat|vx|tg|telegram)(?:[^\S\n]*+id)?[^\S\n]*+(?:[【\[(（「][^\S\n]*+@?|@|(?:请加|请添加|添加|加|联系|号)[^\S\n]*+@?))"
    r"([a-z][a-z0-9_.-]{4,31})(?![a-z0-9_])"
)
_SAL_RE = re.compile(
    # (?!(?<=\s)\s): a match never starts inside a whitespace run (it would have started at the run's
    # first character), so starts there are skipped instead of each scanning the rest of the run
    r"(?i)(?!(?<=\s)\s)(?P<cur>[$€£¥])?\s*(?P<a>\d+(?:[.,]\d+)?)\s*(?P<ka>[kKwW千万萬]|万円)?"
    r"(?:\s*(?:-|–|—|~|～|〜|to|至)\s*(?P<cur2>[$€£¥])?\s*(?P<b>\d+(?:[.,]\d+)?)\s*(?P<kb>[kKwW千万萬]|万円)?)?"
    r"\s*(?P<unit>usd|usdt|u\b|rmb|元|円|美金|美元|/\s*(?:mo|month|yr|year|月|年)|per\s+(?:year|month)|k\b)?"
)
_MULT = {"k": 1e3, "K": 1e3, "千": 1e3, "w": 1e4, "W": 1e4, "万": 1e4, "萬": 1e4, "万円": 1e4}
_SAL_CONTEXT_RE = re.compile(
    r"(?i)salary|compensation|comp\b|pay|\$|€|£|usd|薪|月薪|年薪|待遇|报酬|给与|給与|月給|年収|年俸|时薪|時給|万円|k\s*+[-–~]|"
    r"\d\s*+(?:u|rmb|元|k|w|万)?\s*+/\s*+(?:月|年|mo(?:nth)?\b|yr\b|year\b)|per (?:month|year|annum)"
)


_SAL_CONTEXT = _Pre(_SAL_CONTEXT_RE, lines=True)


def _salaries(lines: tuple[str, ...], folded: list[str] | None = None) -> tuple[float, ...]:
    """Salary-like amounts (normalized to plain numbers) on lines that talk about pay, line by line from a
    per-line cache (`folded`, the lines' `_fold`, is no longer needed: each line folds its own)."""
    return tuple(sorted(set(chain.from_iterable(map(_line_salaries, lines)))))


@line_cache
def _line_salaries(line: str) -> tuple[float, ...]:
    """The salary amounts of one line, () unless it talks about pay (`_SAL_CONTEXT` finds a match in it)."""
    fl = _fold(line)
    # the line-safe twin (faster: a first-character look-ahead) stops at a line break, which a title may hold
    ctx = _SAL_CONTEXT.lines if _SAL_CONTEXT.lines is not None and "\n" not in line else _SAL_CONTEXT.cs
    if not _SAL_CONTEXT.may(fl) or ctx.search(fl) is None:
        return ()
    out: list[float] = []
    for m in _SAL_RE.finditer(line):
        ka, kb = m.group("ka"), m.group("kb")
        has_money = m.group("cur") or m.group("cur2") or ka or kb or m.group("unit")
        if not has_money:
            continue
        for num, mult in ((m.group("a"), ka or kb), (m.group("b"), kb or ka)):
            if not num:
                continue
            try:
                v = float(num.replace(",", ""))
            except ValueError:
                continue
            v *= _MULT.get(mult or "", 1.0)
            if v >= 100:
                out.append(v)
    return tuple(out)


_HANDLE = _Pre(_HANDLE_RE)
_HANDLE_LOOSE = _Pre(_HANDLE_LOOSE_RE)
#: The keywords each handle pattern needs (a text without them has no handle): `_HANDLE_LOOSE_RE`'s, and the
#: ones only `_HANDLE_RE` adds.
_LOOSE_WORDS = ("微信", "v信", "wechat", "vx", "tg", "telegram")
_COLON_ONLY_WORDS = ("skype", "discord", "line")
if set(_HANDLE.lits or ()) - {*_LOOSE_WORDS, *_COLON_ONLY_WORDS} or set(_HANDLE_LOOSE.lits or ()) - set(_LOOSE_WORDS):
    raise ValueError("_LOOSE_WORDS / _COLON_ONLY_WORDS must hold every keyword of the handle patterns")
_OBF_HINT_CS = _cs(_OBF_HINT_RE)
_URL_PREFIX_RE = re.compile(r"^https?://(www\.)?")
_TG_LINK_RE = re.compile(r"(?:t\.me|telegram\.me)/([\w]{3,})$")
_DIGIT_RE = re.compile(r"\d")
_NON_DIGIT_RE = re.compile(r"\D")


_LOCAL_TAIL_RE = re.compile(r"[\w.+-]+\Z")


def _emails(text: str) -> list[str]:
    """`_EMAIL_RE.findall(text)`, found from the '@' signs: a match's local part is the maximal run of
    [\\w.+-] right before its '@', so each '@' names the one place a match can start."""
    out: list[str] = []
    last_end = 0
    at = text.find("@")
    while at >= 0:
        lo = max(0, at - 128)
        run = _LOCAL_TAIL_RE.search(text, lo, at)
        if run is not None:
            if run.start() == lo and lo > 0:  # the run may go on further left: no shortcut
                return _EMAIL_RE.findall(text)
            if run.start() >= last_end:
                m = _EMAIL_RE.match(text, run.start())
                if m is not None:
                    out.append(m.group(0))
                    last_end = m.end()
        at = text.find("@", at + 1)
    return out


_ASCII_LOCAL_RE = re.compile(r"[A-Za-z0-9._%+-]+$")
_ASCII_DOMAIN_RE = re.compile(r"[A-Za-z0-9.-]+")


def _ascii_address(email: str) -> str:
    """An address run into CJK text ("简历发至hr@acme.cn，谢谢") cut to its ASCII part (hr@acme.cn); "" if none."""
    if email.isascii():
        return email
    local, _, domain = email.rpartition("@")
    m, d = _ASCII_LOCAL_RE.search(local), _ASCII_DOMAIN_RE.match(domain)
    return f"{m.group(0)}@{d.group(0).rstrip('.')}" if m and d and "." in d.group(0).strip(".") else ""


def _handles(text: str, folded: str) -> list[str]:
    """Messenger handles (Telegram, WeChat, ...) in `text` (`folded` is `_fold(text)`), lowercased, without `@`
    and trailing punctuation, in the order written, each once."""
    found: list[tuple[int, str]] = []
    loose = any(w in folded for w in _LOOSE_WORDS)  # one scan per keyword for both patterns (hot: every posting)
    if (":" in text or "\uff1a" in text) and (loose or any(w in folded for w in _COLON_ONLY_WORDS)):
        for m in _HANDLE.cs.finditer(folded):
            h = text[m.start(1) : m.end(1)]
            if not h.lower().startswith(("http:", "https:")):  # "Telegram: https://t.me/x" is read by _contacts
                found.append((m.start(1), h))
    for m in _HANDLE_LOOSE.cs.finditer(folded) if loose else ():
        found.append((m.start(1), text[m.start(1) : m.end(1)]))
    out = (h.lower().lstrip("@").rstrip(".:-") for _, h in sorted(found))
    return list(dict.fromkeys(h for h in out if len(h) >= 3))


def contact_handles(text: str) -> list[str]:
    """Messenger handles a text gives as contact (`TG: @x`, `微信：x`, `添加微信x`, `[TG@x]`), in order, each once:
    who to write to, an identity of the poster when no company, site or mail domain is named."""
    return _handles(text, _fold(text))


def _contacts(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Emails (also `name (at) domain` forms), phone numbers (digits only) and URLs in the text."""
    folded = _fold(text)
    emails = {_ascii_address(e.lower().rstrip(".")) for e in _emails(text)} if "@" in text else set()
    emails.discard("")
    has_paren = "[" in text or "(" in text
    for m in _OBF_EMAIL_RE.finditer(text) if has_paren and _OBF_HINT_CS.search(folded) else ():
        dom = re.sub(r"\s*(?:[\[(]\s*dot\s*[\])]|\.)\s*", ".", m.group(2), flags=re.IGNORECASE)
        emails.add(f"{m.group(1)}@{dom}".lower())
    urls = set()
    for u in _URL_RE.findall(text) if "://" in text else ():
        u = u.rstrip(".;:!?").lower()
        u = _URL_PREFIX_RE.sub("", u).rstrip("/")
        if u:
            urls.add(u)
    urls.update("handle:" + h for h in _handles(text, folded))
    for u in list(urls):  # a Telegram link names the same account as a "TG: @x" handle
        m = _TG_LINK_RE.match(u)
        if m:
            urls.add("handle:" + m.group(1))
    # a phone number never spans a line break: found line by line, cached
    phones = set(chain.from_iterable(map(_line_phones, text.split("\n"))))
    return tuple(sorted(emails)), tuple(sorted(phones)), tuple(sorted(urls))


#: Characters a contact pattern can continue across whitespace (a line break) with: obfuscated mail brackets and
#: dots, a handle's colon (see _contact_text).
_JOIN_EDGES = frozenset("[(.)]:\uff1a")
_ID_START_RE = re.compile(r"(?i)id")


def _contact_text(desc: str, raw: str) -> str:
    """What contacts are read from: the description as given and as plain text (an HTML link's address and its
    text), joined by a line break. Plain text (`raw == desc`) is read once: only `_OBF_EMAIL_RE` and `_HANDLE_RE`
    match across whitespace, so a match spanning the join needs the text to start or end with a character they
    continue with (`_JOIN_EDGES`, or a start "id" of `telegram id:`; a final full stop only after an obfuscated
    address's "(at)"); then both copies are read, as always."""
    if raw != desc:
        return desc + "\n" + raw
    head, tail = desc.lstrip()[:2], desc.rstrip()[-1:]
    if head[:1] in _JOIN_EDGES or _ID_START_RE.match(head) or \
            tail in _JOIN_EDGES and (tail != "." or ("[" in desc or "(" in desc) and _OBF_HINT_RE.search(desc) is not None):
        return desc + "\n" + raw
    return desc


@line_cache
def _line_phones(line: str) -> tuple[str, ...]:
    """Phone numbers of one line (digits only, the last 10): `_PHONE_RE` matches no line break, and its
    lookarounds read a line break like the start or end of a line."""
    out = []
    for p in _PHONE_FAST_RE.findall(line):
        digits = _NON_DIGIT_RE.sub("", p)
        if 9 <= len(digits) <= 15:
            out.append(digits[-10:])
    return tuple(out)


# --------------------------------------------------------------------------- roles

_ROLE_WORDS_EN = re.compile(
    r"(?i)\b(engineers?|developers?|devs?|scientists?|researchers?|designers?|managers?|leads?|head|"
    r"directors?|analysts?|architects?|interns?|internship|sre|devops|cto|cpto|ceo|cfo|coo|vp|recruiters?|"
    r"marketers?|account executives?|exec|executives?|ae|bdr|sdr|writers?|editors?|specialists?|"
    r"consultants?|administrators?|admin|operators?|technicians?|founding|co-?founder|associates?|"
    r"coordinators?|representatives?|pm|swe|sde|mle|strategists?|officers?|counsel|accountants?|nurses?|"
    r"teachers?|instructors?|hacker|generalist|advocate|devrel|partner|tester|qa|principal|staff)\b"
)
_ROLE_WORDS_CJK = re.compile(
    r"(?:工程师|工程師|开发|開發|開発|经理|經理|运营|運營|运维|運維|设计师|設計師|设计|产品|產品|测试|測試|实习生|實習生|实习|"
    r"专家|專家|总监|總監|负责人|研究员|研究員|分析师|分析師|架构师|架構師|主管|助理|客服|专员|專員|市场|商务|销售|"
    r"HR|BD|hr|bd|合伙人|CTO|cto|COO|CFO|顾问|顧問|讲师|编辑|翻译|风控|交易员|研究|开发者|"
    r"エンジニア|デザイナー|マネージャー|ディレクター|スタッフ|営業|事務|保守|担当|リーダー|職|士|師|員|"
    r"スタイリスト|ドライバー|プランナー|介護|販売|技術者|コンサルタント|警備|施工管理|店長|候補|"
    r"护工|護工|普工|电工|電工|焊工|司机|司機|保安|保洁|保潔|月嫂|育儿嫂)$"
)
#: _ROLE_WORDS_CJK is `(?:w1|w2|...)$` over plain words: a string matches iff it ends with one (or with one + '\n')
_ROLE_WORDS_CJK_ENDS = tuple(_ROLE_WORDS_CJK.pattern[3:-2].split("|"))
if not _ROLE_WORDS_CJK.pattern.startswith("(?:") or any(re.escape(w) != w for w in _ROLE_WORDS_CJK_ENDS):
    raise ValueError("_ROLE_WORDS_CJK must stay `(?:word|word|...)$` over plain words")
_CJK_ROLE_TAIL_RE = re.compile(rf"(.*(?:{_ROLE_WORDS_CJK.pattern[3:-2]}))")
_ROLE_HEADING_RE = re.compile(r"(?i)^(?:#+\s*)?(?:招聘)?(?:岗位|職種|职位|職位|职缺|職缺|募集職種|open roles|positions?|roles?)\s*[:：]?\s*$")
_HIRING_LIST_RE = re.compile(
    r"(?i)(?:(?:\bhiring(?:\s+for)?|openings?\s+for|open\s+roles?|open\s+positions?)\s*[:：]?|(?:positions?|roles?)\s*[:：])"
    r"\s+(?:an?\s+|the\s+|multiple\s+|several\s+)?(.+)"
)
_TITLE_HIRE_RE = re.compile(
    r"(?:诚聘|招聘|招募|急招|急聘|诚招|直招|热招|徵才|征才|寻找|招(?=\s)|hiring|\blooking\s+for|\bseek(?:s|ing))\s*[:：]?\s*"
    r"(?:an?\s+)?(.+)",
    re.IGNORECASE)
_TITLE_HIRE_TAIL_RE = re.compile(r"(?:诚聘|招聘|招募|急招|急聘|诚招|直招|徵才|征才)\s*$")  # "SynFutures智能合约工程师招聘"
_BRACKET_RE = re.compile(r"[\[【〔(（]([^\]】〕)）]{1,40})[\]】〕)）]")
_LIST_PREFIX_RE = re.compile(r"^(?:->|=>|[-*+•·◆■□●○▶►→>]|\d+[.)、．]|[（(]\d+[)）]|#+)\s*")
_URL_ONLY_RE = re.compile(r"https?://\S+")


_PAY_CUT_RE = re.compile(
    r"(?i)薪水|薪资|薪酬|月薪|年薪|salary|\$\d|\d+\s*[kK万w]|\d{3,}|"
    r"\d+\s*[-~～–]\s*\d+(?!\s*[a-z])|\d+\s*(?:年|名|人|个|位|届)")  # pay, ranges, "3-5年", "2名": not the role
_HIRING_PREFIX_RE = re.compile(r"(?i)^(?:we'?re |we are |now )?hiring(?:\s+for)?\s*[:：]?\s*(?:an?\s+)?")
_ROLE_CUT_RE = re.compile(r"\s[-–—→:：]\s|[:：→—]|\s\(|（")
#: Where the role name of a role line ends: `Role - pay - link`, `Role | pay`, `Role: duties`.
_ROLE_HEAD_CUT_RE = re.compile(r"\s+[-–—|]\s+|:\s")
def _has_head_cut(core: str) -> bool:
    """Whether `_ROLE_HEAD_CUT_RE` can cut `core` (single-spaced, stripped): literal checks, no regex."""
    return ": " in core or " - " in core or " | " in core or " – " in core or " — " in core


#: A name in title case ("Machine Learning Infra Engineer", "VP of Sales"): a role line's head, not a sentence.
_TITLED_RE = re.compile(r"(?:[A-Z0-9][\w+#./-]*|of|and|for|&)(?: (?:[A-Z0-9][\w+#./-]*|of|and|for|&))*")
_TRAILING_PAREN_RE = re.compile(r"\s*[（(][^）)]*[）)]\s*$")
_CJK_PUNCT_RE = re.compile(r"[，。；、]")
_ROLE_WORDS_EN_CS = _cs(_ROLE_WORDS_EN)


@line_cache
def _clean_role(s: str) -> str:
    if "http" in s:
        s = _URL_ONLY_RE.sub(" ", s)
    s = _PAY_CUT_RE.split(s, maxsplit=1)[0]
    s = _LIST_PREFIX_RE.sub("", s.strip())
    s = _HIRING_PREFIX_RE.sub("", s)
    s = _ROLE_CUT_RE.split(s, maxsplit=1)[0]
    return normalize_line(s)[:60]


@lang_line_cache
def _looks_like_role(s: str, lang: str) -> bool:
    if not s or len(s) > 80:
        return False
    if lang == "en":
        return len(s.split()) <= 9 and _ROLE_WORDS_EN_CS.search(_fold(s)) is not None
    core = s.strip(" 。.!！")
    if ")" in core or "）" in core:
        core = _TRAILING_PAREN_RE.sub("", core)
    if _CJK_PUNCT_RE.search(core):
        return False
    if not CJK_CHAR_RE.search(core):  # a Latin role name in a CJK posting ("Senior Smart Contract Developer")
        return len(core) <= 40 and _ROLE_WORDS_EN_CS.search(_fold(core)) is not None
    return len(core) <= 24 and (core.endswith(_ROLE_WORDS_CJK_ENDS) or (
        core.endswith("\n") and core[:-1].endswith(_ROLE_WORDS_CJK_ENDS)))


_LOC_HINT_RE = re.compile(
    r"(?i)\b(remote|onsite|on-site|hybrid|usa|us|uk|eu|europe|emea|apac|nyc|sf|london|berlin|paris|"
    r"toronto|new york|san francisco|singapore|tokyo|india|canada|germany|australia|[a-z]+,\s*[A-Z]{2})\b|"
    r"上海|北京|深圳|杭州|广州|香港|新加坡|远程|遠程|东京|東京|大阪|迪拜|台北|成都|武汉|全国|都道府県"
)
_EMPLOYMENT_RE = re.compile(r"(?i)^(full[- ]?time|part[- ]?time|contract|intern(ship)?|ft|pt|visa|onsite|remote|hybrid)\b")


#: The ` | ` between an HN header's segments, with the spaces around it. It never starts inside a whitespace
#: run (`\s*[|｜]` tried at each space of a long run not followed by a bar is quadratic).
HEADER_SPLIT_RE = re.compile(r"(?!(?<=\s)\s)\s*[|｜]\s*")


def _first_line_fields(first: str, lang: str) -> dict[str, Any]:
    """Fields of an HN-style first line `Company | Location | Remote | Roles | URL`."""
    parts = [p.strip() for p in HEADER_SPLIT_RE.split(first) if p.strip()]
    if len(parts) < 2:
        return {}
    out: dict[str, Any] = {"company": re.sub(r"\s*\(.*?\)\s*", " ", parts[0]).strip()}
    roles, locs = [], []
    for p in parts[1:]:
        if _URL_ONLY_RE.fullmatch(p) or re.fullmatch(r"[\w.-]+\.[a-z]{2,}(/\S*)?", p, re.IGNORECASE):
            continue
        pieces = [r for r in re.split(r"\s*(?:,|/|;|&|\band\b)\s*", p) if r]
        # a segment naming a role, or a list of 3+ roles too long to read as one ("Java Engineer, UX Designer, AE")
        if not _EMPLOYMENT_RE.match(p) and (
            _looks_like_role(p, lang) or len(pieces) >= 3 and all(_looks_like_role(r, lang) for r in pieces)
        ):
            roles.extend(pieces)
        elif _LOC_HINT_RE.search(p) or _EMPLOYMENT_RE.match(p):
            locs.append(p)
    out["roles"] = roles
    out["location"] = " | ".join(locs)
    out["title"] = " | ".join(roles)
    return out


_ROLE_NOISE_RE = re.compile(
    r"(?i)^\s*(?:\d+\+?\s*(?:yrs?|years?)\s*[-–:]?\s*)|\[[^\]]*\]|\([^)]*\)|（[^）]*）|\b(?:remote|onsite|hybrid|full[- ]?time)\b"
)


_ROLE_NOISE = _Pre(_ROLE_NOISE_RE, short=True)


def _sub_folded(pre: _Pre, text: str, repl: str, blank: Callable[[str], str] | None = None) -> str:
    """`pre.rx.sub(repl, text)` computed on the folded text (the pattern never matches empty); `blank`
    maps the folded text to the same-length copy that is scanned (see `_unopened`)."""
    folded = _fold(text)
    if not pre.may(folded):
        return text
    return _sub_spans(pre.cs, blank(folded) if blank else folded, text, lambda m: repl)


@line_cache
def _role_core(line: str) -> str:
    """A line minus URLs, e-mail addresses, list markers, tags like `[Leadership]`, parentheses and `8+ yrs -`
    prefixes (an address at acme.dev or a link names no role)."""
    core = _URL_ONLY_RE.sub(" ", line) if "http" in line else line
    if "@" in core:
        core = _EMAIL_RE.sub(" ", core)
    core = _LIST_PREFIX_RE.sub("", core.strip())
    if "[" in core or "(" in core or "（" in core:
        core = _sub_folded(_ROLE_NOISE, core, " ", lambda f: _unopened(_unopened(_unopened(f, "[", "]"), "(", ")"), "（", "）"))
    else:
        core = _sub_folded(_ROLE_NOISE, core, " ")
    core = " ".join(core.split()).strip(" :：-–—→|*")  # str.split's whitespace is re's \s: runs squeezed
    return "" if core[:1] in _NOT_ROLE_FIRST and _NOT_ROLE_LEAD_RE.match(core) else core


#: A line telling how to apply or whom to write ("Contact our CTO directly at …"), or a duty or requirement
#: ("负责dapp应用开发", "熟悉 iOS 开发": responsible for / familiar with) names no role.
_NOT_ROLE_LEAD_RE = re.compile(
    r"(?i)(?:contact|e-?mail(?!\s+market)|apply|reach\s+out|send|write\s+to|ping|dm|questions?|interested|please|visit|"
    r"see|check\s+out)\b|"
    r"(?:负责|負責|参与|參與|熟悉|具备|具備|协助|協助|完成|配合|根据|根據|掌握|了解|精通|擅长|擅長|能够|能夠)(?!人)")
_NOT_ROLE_FIRST = frozenset("cCeEaArRsSwWpPdDqQiIvV负負参參熟具协協完配根掌了精擅能")


_HIRING_LIST = _Pre(_HIRING_LIST_RE, lines=True)
_TITLE_TAG_RE = re.compile(r"[\[【(（][^\]】)）]*[\]】)）]")
_HAN_SPACE_RE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s*-\s*")
_TITLE_SPLIT_RE = re.compile(r"(?!(?<=\s)\s)\s*(?:[,，、/|｜&+◇◆★☆■□／—–]|\s-\s|\band\b|及|和)\s*")
_LIST_SPLIT_RE = re.compile(r"\s*(?:[,，、;；&]|\band\b|\bor\b)\s*")
_BRACKET_OPEN_RE = re.compile(r"[\[【〔(（]")


_TAGLINE_RE = re.compile(r"(?:月給|年収|時給|日給|年俸|年間休日|年休|賞与|完全?週休|土日|残業|未経験|応募者全員|面接|手当|"
                         r"月薪|年薪|薪资|薪水|五险一金|双休|周末双休)")
_JOB_COUNT_RE = re.compile(r"(?:ほか|他)\s*\d*\s*職種.*$|募集$")


_NAME_CHAR_RE = re.compile(r"[\u4e00-\u9fffA-Za-z0-9]")


def _glued(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] (a bracketed note) sits inside a name: a letter or Han character on both sides."""
    return 0 < start and end < len(text) and bool(_NAME_CHAR_RE.match(text[start - 1])) and \
        bool(_NAME_CHAR_RE.match(text[end]))


def _middot_roles(part: str, lang: str) -> list[str]:
    """A CJK title segment `看護師・介護職員ほか4職種募集` as its roles (看護師, 介護職員) when every piece
    between the dots is one; else the segment as it is (`プロダクト・マネージャー` is one role)."""
    pieces = [x for x in (_JOB_COUNT_RE.sub("", p).strip() for p in part.split("・")) if x]
    return pieces if len(pieces) >= 2 and all(_looks_like_role(x, lang) for x in pieces) else [part]


def _title_parts(t: str, lang: str) -> list[str]:
    """A title (or the part of it after / before the hiring verb) cut into cleaned role candidates; Chinese: a
    note in brackets inside a name dropped (全栈（偏前端）开发工程师 = 全栈开发工程师)."""
    t = _sub_spans(_TITLE_TAG_RE, _unopened(t, "[【(（", "]】)）"), t,
                   (lambda m: "" if _glued(t, m.start(), m.end()) else " ") if lang == "zh" else (lambda m: " "))
    pieces = _TITLE_SPLIT_RE.split(t)
    if lang != "en":  # "英语客服  校招": a space between two Han words parts a role from a note
        pieces = [q for p in pieces for q in _HAN_SPACE_RE.split(p)]
    if lang != "en" and "・" in t:
        pieces = [q for p in pieces for q in _middot_roles(p, lang)]
    parts = [c for c in (_clean_role(r) for r in pieces) if c]
    if lang != "en":  # pay and holiday taglines ("月給40万円以上◎…", "年間休日127日！…") are no roles
        parts = [c for c in parts if not _TAGLINE_RE.match(c)]
    return parts


#: The most roles one posting names (and a Chinese title's bracket fallback reads): a longer list is a keyword
#: flood, and roles are compared pairwise (features._merge_named, pair_features).
MAX_ROLES = 40


@line_cache
def _title_roles(title: str, lang: str, title_given: bool) -> tuple[str, ...]:
    """`_title_role_list`, cached (near-duplicates and reposts share their titles)."""
    return tuple(_title_role_list(title, lang, title_given))


def _title_role_list(title: str, lang: str, title_given: bool) -> list[str]:
    """Roles a title announces: after the hiring verb ("X公司诚聘 前端工程师"), else before it
    ("SynFutures智能合约工程师招聘 薪资…"); a title given as a field that names no role word gives its
    parts, except in Chinese: parts naming a role word give it up to that word, else a title of one part is
    the role ("初级财务会计") and one of several is a tagline ("国内领先的 AI 公司，技术前沿，氛围好")."""
    m = _TITLE_HIRE_RE.search(title)
    parts = _title_parts(m.group(1) if m else _TITLE_HIRE_TAIL_RE.sub("", title), lang)
    good = [r for r in parts if _looks_like_role(r, lang)]
    if not good and m and lang != "en":
        before = [r for r in _title_parts(title[: m.start()], lang) if _looks_like_role(r, lang)]
        if before:
            return before
    if good or not title_given:
        return good
    if lang != "zh":
        bar = max(title.rfind("|"), title.rfind("｜"))  # a site's category after the last bar ("... | Food & Hospitality")
        return _title_parts(title[:bar], lang) if lang == "en" and bar > 0 and not m else parts
    cut = [m.group(1) for m in map(_CJK_ROLE_TAIL_RE.match, parts) if m]  # "寻找资深前端工程师 synfutures"
    # one part is a role ("初级财务会计"), a list of them a tagline; else the roles written in brackets
    # (诚聘【区块链合约开发工程师】20K起, 招聘（后端工程师/前端工程师）, "[广州/AI开发] 国内领先的 AI 公司，氛围好")
    return cut or (parts if len(parts) == 1 else []) or list(islice(
        (r for b in _BRACKET_RE.findall(title) for r in _title_parts(b, lang) if _looks_like_role(r, lang)), MAX_ROLES))


@lang_line_cache
def _hiring_roles(line: str, lang: str) -> tuple[str, ...]:
    """The roles of a line's `We're hiring: a, b` list (its first `_HIRING_LIST` match; a list of 240
    characters or more is prose)."""
    fl = _fold(line)
    m = _HIRING_LIST.lines.search(fl) if _HIRING_LIST.lines is not None and _HIRING_LIST.may(fl) else None
    if m is None or m.end(1) - m.start(1) >= 240:
        return ()
    items = _LIST_SPLIT_RE.split(line[m.start(1) : m.end(1)].rstrip(". "))
    return tuple(r for r in items if _looks_like_role(r, lang))


class _RoleLine(NamedTuple):
    """What one line of main text tells `_roles` on its own (cached per line; `_roles` adds the state)."""

    link_only: bool  # a link and no other words: it applies to the role line before it
    role: str  # the role the line names (its core, or the head before `Role - pay` / `Role: duties`), or ""
    qualifier: str  # English: the specialty in parentheses (`_specialty_qualifier`) of a line with a "("
    next_prev: str  # the role a following link-only line applies to: the line's core when it is a role, or ""
    brackets: tuple[str, ...]  # other languages: the bracketed role names (【前端工程师】)


@lang_line_cache
def _role_line(line: str, lang: str) -> _RoleLine:
    """`_RoleLine` of one line: a line carrying an application link, a list item or a short line naming a
    role is a role line; else a role head it starts with (`2. QA Engineer - €60k - link`, `Role: duties`)."""
    stripped = line.strip()
    has_url = "http" in stripped and _URL_ONLY_RE.search(stripped) is not None
    core = _role_core(stripped)
    n = len(core)
    link_only = has_url and not core
    listed = _LIST_PREFIX_RE.match(stripped) is not None or stripped.endswith((":", "："))
    is_role: bool | None = None  # _looks_like_role(core, lang), computed at most once
    role = ""
    if not link_only and (has_url or listed or n <= 60) and 2 <= n <= 70:
        is_role = _looks_like_role(core, lang)
        if is_role and not core.endswith(("。", ".", "!", "?", "！")) and (
            has_url or listed or len(core.split()) <= 6
        ):
            role = core
    if not role and n > 2 and _has_head_cut(core):
        head = _ROLE_HEAD_CUT_RE.split(core, maxsplit=1)[0].rstrip()
        if head != core and 2 <= len(head) <= 60 and len(head.split()) <= 6 and (
            has_url or listed or " | " in stripped or _TITLED_RE.fullmatch(head)
        ) and _looks_like_role(head, lang) and not _ROLE_HEADING_RE.match(head):  # "Open roles: a, b"
            role = head
    en = lang == "en"
    qualifier = _specialty_qualifier(stripped) if en and "(" in stripped else ""
    next_prev = ""
    if core and n <= 70:
        if is_role is None:
            is_role = _looks_like_role(core, lang)
        next_prev = core if is_role else ""
    brackets: tuple[str, ...] = ()
    if not en and _BRACKET_OPEN_RE.search(stripped):
        brackets = tuple(b for b in _BRACKET_RE.findall(stripped) if _looks_like_role(b, lang) and len(b) <= 20)
    return _RoleLine(link_only, role, qualifier, next_prev, brackets)


def _roles(
    lines: tuple[str, ...], sections: tuple[Section, ...], title: str, lang: str, title_given: bool = True,
    header: bool = False, named: bool = False,
) -> list[str]:
    """Role names: from the title, from `We're hiring: a, b` lists, from lines under role headings,
    from lines carrying an application link, and from short list-item / bracketed job-title lines; English
    roles named in lowercase in a sentence (`_plain_sought`) only when nothing else names one.
    `header`: the first line is a header already read (`Company | Place | Roles` fields or the title): not a
    role line itself (it names the company). `named`: the caller read roles elsewhere (the header's fields)."""
    roles: list[str] = []
    if title:
        roles.extend(_title_roles(title, lang, title_given))
    roles.extend(chain.from_iterable(map(_hiring_roles.of(lang), lines)))
    plain: list[str] = []
    if lang == "en":
        sought = list(map(_line_sought, lines))
        roles.extend(chain.from_iterable(titled for titled, _ in sought))
        plain.extend(chain.from_iterable(lower for _, lower in sought))
    for sec in sections:
        if _ROLE_HEADING_RE.match(sec.heading):
            roles.extend(ln for ln in sec.lines[:12] if _looks_like_role(_role_core(ln), lang)
                         or lang == "en" and _linked_specialty(ln))
    prev_role = ""
    specialties: dict[str, dict[str, None]] = {}  # English role name -> the specialties its role lines give
    for link_only, own, qual, next_prev, brackets in map(_role_line.of(lang), lines[1:] if header else lines):
        got = prev_role if link_only else own  # a line with only a link links the role line before it
        if got:
            roles.append(got)
            if qual:
                specialties.setdefault(_clean_role(_ALT_SLASH_RE.sub(" or ", got)), {})[qual] = None
        prev_role = next_prev
        roles.extend(brackets)
    en = lang == "en"
    seen: dict[str, None] = {}
    for r in roles or ([] if named else plain):
        c = _clean_role(_ALT_SLASH_RE.sub(" or ", r) if en and "/" in r else r)
        if c and len(c) >= 2:
            quals = specialties.get(c, ())
            for name in [f"{c} {q}" for q in quals] if len(quals) >= 2 else [c]:
                seen.setdefault(name, None)
    return list(seen)[:MAX_ROLES]


#: A slash between Latin words of an English role name: alternatives ("Cloud Infrastructure/Data/MLOps Engineer",
#: "Systems Architect / Full Stack Dev"), kept as " or " (features.role_alternatives reads them).
_ALT_SLASH_RE = re.compile(r"(?<=[A-Za-z])\s*/\s*(?=[A-Za-z])")
_QUALIFIER_RE = re.compile(r"\(([A-Za-z][A-Za-z &/+#.-]{1,30})\)")


def _specialty_qualifier(line: str) -> str:
    """The team or specialty an English role line gives in parentheses ("Software Engineer (Platform)"), ""
    when it gives none or only a place, work mode or employment type. Role lines of one posting that differ
    only in it are different roles (`_roles` keeps it when a role name comes with two or more)."""
    m = _QUALIFIER_RE.search(line)
    if not m or _LOC_HINT_RE.search(m.group(1)) or _EMPLOYMENT_RE.match(m.group(1)):
        return ""
    return normalize_line(m.group(1))


def _linked_specialty(line: str) -> bool:
    """An English list item under a role heading naming a specialty and its job link ("- Backend: <link>",
    "* ML Infra - <link>", in title case, up to four words): a role even without a role word (the heading
    says what the items are)."""
    return "http" in line and _LIST_PREFIX_RE.match(line.strip()) is not None and \
        len(core := _role_core(line).split()) <= 4 and _TITLED_RE.fullmatch(" ".join(core)) is not None


_SOUGHT_RE = re.compile(r"(?i)\b(?:looking\s+for|seeking|we\s+need|need\s+is\s+for|is\s+hiring(?:\s+for)?)\s")
_SOUGHT_END_RE = re.compile(r"\s(?:who|to|that|with|for|in|at|on|based|from|across|but)\s|[.!?;:]")
_SOUGHT_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|as\s+well\s+as|plus)\s+")
_LOWER_LEAD_RE = re.compile(r"^(?:[a-z][\w'-]*\s+)+")


_NO_SOUGHT: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


@line_cache
def _line_sought(line: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The roles a line of an English posting names in sentences saying whom it seeks (looking for, seeking,
    need, hiring): those in title case (`_titled_sought`) and those in lowercase with a specialty
    (`_plain_sought`); ((), ()) for a line that seeks no one. Its items are read once for both."""
    fl = _fold(line)
    if not ("looking for" in fl or "seeking" in fl or "need" in fl or "hiring" in fl):
        return _NO_SOUGHT
    items = _sought_items(line)
    return _titled_sought(items), _plain_sought(items)


def _sought_items(line: str) -> list[str]:
    """The items of the sentences of `line` saying whom the employer seeks ("We're looking for two Rust
    Developers, a QA Lead and a Product Designer"), each up to its first clause or note ("who ...", "(Go)")."""
    out = []
    for m in _SOUGHT_RE.finditer(line):
        rest = line[m.end() : m.end() + 240]
        rest = _sub_spans(_ROLE_NOISE_RE, _unopened(rest, "[(（", "])）"), rest, lambda _: " ")
        out.extend(" ".join(item.split()) for item in
                   _SOUGHT_SPLIT_RE.split(_SOUGHT_END_RE.split(rest, maxsplit=1)[0]))
    return out


def _titled_sought(items: list[str]) -> tuple[str, ...]:
    """Job titles named in title case among the items of a sentence saying whom the employer seeks
    (`_sought_items`): each item without its leading lowercase words (a few, experienced)."""
    out = []
    for item in items:
        item = _LOWER_LEAD_RE.sub("", item).strip()
        if item[:1].isupper() and len(item.split()) <= 5 and _TITLED_RE.fullmatch(item) and \
                _looks_like_role(item, "en"):
            out.append(item)
    return tuple(out)


#: Leading words of a sought item that name no specialty: articles, counts, praise, levels ("two exceptional
#: senior engineers" is still "engineers", which names no particular job).
_SOUGHT_FILLER = frozenset(
    "a an the one two three four five several few some more additional other another new our your "
    "exceptional talented strong great experienced skilled smart motivated passionate curious driven amazing "
    "awesome excellent brilliant world-class top best ambitious hungry humble kind thoughtful pragmatic "
    "versatile seasoned solid good capable exceptionally really very highly senior sr junior jr mid-level "
    "mid staff principal founding software".split())
_PLAIN_WORD_RE = re.compile(r"[A-Za-z][\w+#./-]*")


def _plain_sought(items: list[str]) -> tuple[str, ...]:
    """Roles named in lowercase in a sentence saying whom the employer seeks, with a specialty before the role
    noun ("We need product minded engineers who ...", "looking for implementation leads that ..."): a
    posting's roles when nothing else names one (`_roles`); a bare or only praised noun ("exceptional
    engineers") names no particular job and is left out."""
    out = []
    for item in items:
        words = item.split()
        while words and words[0].lower() in _SOUGHT_FILLER:
            words.pop(0)
        if 2 <= len(words) <= 5 and _MENTION_CS.fullmatch(_fold(words[-1])) and \
                all(_PLAIN_WORD_RE.fullmatch(w) for w in words):
            out.append(" ".join(words))
    return tuple(out)


#: English role nouns: the words that say what kind of worker a role is (the head of a role name: "backend
#: engineer"), singular, lowercase. One list for role mentions here and signatures.features' role names.
ROLE_NOUNS = tuple((
    "engineer developer designer manager scientist lead architect analyst recruiter researcher director intern sre "
    "devops administrator specialist consultant writer marketer executive representative strategist advocate "
    "generalist technician coordinator officer accountant counsel associate swe pm operator partner tester head"
).split())
_MENTION_HEAD = "|".join(ROLE_NOUNS)
_MENTION_RE = re.compile(rf"(?i)\b({_MENTION_HEAD})(?:e?s)?\b")
_MENTION_CS = _cs(_MENTION_RE)
#: A modifier word right before a phrase: its match starts where a run of word characters starts (the lookbehind
#: only skips starts inside a run, which never come first: the same matches, without a try at every character).
_MODS_BEFORE_RE = re.compile(r"(?<![\w+#.-])([\w+#.-]+)[ \t/]+$")
_MOD_WORD_RE = re.compile(r"[a-z][a-z+#.-]*")
_MENTION_STOP = frozenset(
    "a an the our of for few several and or with as to is are we you be hiring looking seeking need needs "
    "multiple experienced talented great strong this that who will in on at from by your their us team "
    "also hire currently new more many some other all any one two three four five six seven eight nine ten "
    "role roles position positions job jobs join open is am was were has have had it its".split()
)
_MENTION_MODS = frozenset(
    "senior sr junior jr staff principal lead head chief founding mid level entry graduate grad intern "
    "software backend back-end frontend front-end fullstack full-stack full stack web mobile ios android "
    "data ml ai machine learning deep research applied platform infrastructure infra cloud devops site "
    "reliability security embedded firmware hardware systems distributed product design ux ui qa test "
    "automation solutions sales account customer success support growth marketing content technical "
    "engineering program project operations ops finance legal people talent recruiting python go golang "
    "rust java typescript javascript react node c++ kotlin swift ruby rails elixir scala php .net "
    "forward deployed developer analytics database network robotics mechanical electrical quant "
    "blockchain smart contract".split()
)
_MENTION_CJK_RE = re.compile(
    r"工程师|工程師|經理|经理|设计师|研究员|分析师|架构师|主管|专家|总监|实习生|专员|"
    r"エンジニア|デザイナー|マネージャー|ディレクター|スタッフ"
)
_CJK_MOD_RE = re.compile(r"[A-Za-z0-9+#]*[\u4e00-\u9fff\u30a0-\u30ffA-Za-z]{0,6}\s?$")
_CJK_CUT_RE = re.compile(r"[的和及与或、，。：:；;招聘需求寻找急缺少位名是为做有在对从向请]")


_HIRING_WORDS_RE = re.compile(
    r"(?i)hiring|looking for|seeking|openings?|open roles?|positions?|roles?\b|join us as|we need|招聘|诚聘|急聘|"
    r"岗位|职位|職種|募集|寻找|招募"
)


_HIRING_WORDS = _Pre(_HIRING_WORDS_RE, short=True)


def _role_context(line: str, lang: str, folded: str | None = None) -> bool:
    """Lines where job titles are announced rather than merely mentioned: short lines, list items,
    lines with an application link and sentences about hiring (`folded`: the line's `_fold`)."""
    if len(line.split()) <= 12 if lang == "en" else len(line) <= 30:
        return True
    if _LIST_PREFIX_RE.match(line) or ("http" in line and _URL_ONLY_RE.search(line)):
        return True
    return _HIRING_WORDS.search(_fold(line) if folded is None else folded) is not None


@lang_line_cache
def _context_line(line: str, lang: str) -> bool:
    """`_role_context` of one line of main text, cached (its fold is the line's part of the text's fold)."""
    return _role_context(line, lang)


def _singular(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _latin_mentions(text: str) -> list[str]:
    """The Latin job-title phrases of `_mentions`, in text order (repeats included)."""
    out: list[str] = []
    clean = _URL_ONLY_RE.sub(" \n ", text) if "http" in text else text
    for m in _MENTION_CS.finditer(_fold(clean)):
        before = clean[max(0, m.start() - 80) : m.start()]
        keep: list[str] = []
        while len(keep) < 3:
            mm = _MODS_BEFORE_RE.search(before)
            if mm is None:
                break
            w = mm.group(1)
            lw = w.lower().strip(".-")
            titled = w[:1].isupper() and lw not in _MENTION_STOP
            if not lw or not _MOD_WORD_RE.fullmatch(lw) or not (lw in _MENTION_MODS or titled):
                break
            keep.append(_singular(lw))
            before = before[: mm.start()]
        head = clean[m.start(1) : m.end(1)].lower()
        if keep or head in ("sre", "swe", "pm", "devops", "cto"):
            out.append(" ".join([*reversed(keep), head]))
    return out


_MOD_CHAR_RE = re.compile(r"[\w+#.-]")


@line_cache
def _line_mentions(line: str) -> tuple[tuple[str, ...], bool]:
    """`_latin_mentions` of one line (no line break in it), and whether a phrase on the next line may take
    modifiers from this one (`_MODS_BEFORE_RE`'s `$` matches before a final line break: the line, URLs
    blanked, ends with a word and spaces or slashes)."""
    clean = _URL_ONLY_RE.sub(" \n ", line) if "http" in line else line
    body = clean.rstrip(" \t/")
    return tuple(_latin_mentions(line)), len(body) < len(clean) and _MOD_CHAR_RE.match(body[-1:]) is not None


def _mentions(text: str, lang: str) -> tuple[str, ...]:
    """Job-title phrases mentioned anywhere in the text ("a Senior Data Engineer", "前端开发工程师"),
    normalized (lowercase, singular, at most three modifiers, no leading function words). The Latin
    phrases line by line from a per-line cache (a phrase's modifiers never reach past a line break unless
    the line before ends with a word and a slash or space: then the whole text is read at once)."""
    out: dict[str, None] = {}
    per_line = list(map(_line_mentions, text.split("\n")))  # Latin titles occur in every language
    if any(map(itemgetter(1), per_line[:-1])):
        out.update(dict.fromkeys(_latin_mentions(text)))
    else:
        out.update(dict.fromkeys(chain.from_iterable(map(itemgetter(0), per_line))))
    if lang != "en":
        for m in _MENTION_CJK_RE.finditer(text):
            mod = _CJK_MOD_RE.search(text[max(0, m.start() - 24) : m.start()])
            phrase = _CJK_CUT_RE.split((mod.group(0) if mod else "") + m.group(0))[-1]
            out.setdefault(phrase.lower().replace(" ", ""), None)
    return tuple(list(out)[:60])


# --------------------------------------------------------------------------- role families

#: Canonical role families and the words that announce them (en / zh / ja). Role titles are reworded
#: between reposts ("Senior Backend Engineer" -> "Staff SWE, backend"), but the families a posting
#: hires for stay; a repost that adds or drops a family is another set of jobs.
_FAMILIES: dict[str, str] = {
    "frontend": r"front[- ]?end|前端|フロントエンド",
    "backend": r"back[- ]?end|server[- ]side|后端|後端|服务端|服務端|バックエンド|サーバーサイド",
    "fullstack": r"full[- ]?stack|全栈|全端|フルスタック",
    "ios": r"\bios\b|\bswift\b",
    "android": r"android|安卓|\bkotlin\b",
    "mobile": r"\bmobile\b|react native|flutter|移动端|客户端|アプリ",
    "infra": r"devops|dev ops|\bsre\b|site reliability|\binfra(?:structure)?\b|platform engineer|cloud engineer|运维|運維|インフラ",
    "data": r"data engineer|analytics engineer|data platform|数据开发|数据工程|データエンジニア",
    "analyst": r"data scien|\banalyst|数据分析|分析师|データサイエンティスト|アナリスト",
    "ml": r"machine learning|\bml\b|\bai engineer|applied ai|\bllm\b|\bai/ml|算法|机器学习|大模型|機械学習",
    "research": r"research(?:er| scientist| engineer)|研究员|研究員|研究者",
    "security": r"security|安全|审计|セキュリティ",
    "qa": r"\bqa\b|quality assurance|test engineer|\bsdet\b|测试|測試|テスト",
    "embedded": r"embedded|firmware|hardware|robotics|electrical|mechanical|嵌入式|硬件|組込|ハードウェア",
    "product": r"product manager|\bpm\b|program manager|project manager|\btpm\b|产品经理|產品經理|"
    r"产品(?:总监|專家|专家|负责人|主管)|產品(?:總監|專家|負責人|主管)|プロダクトマネージャー",
    "design": r"designer|design engineer|\bux\b|\bui\b|设计|設計|デザイナー",
    "sales": r"\bsales\b|account executive|\bae\b|\bbdr\b|\bsdr\b|business development|\bgtm\b|go-to-market|"
    r"partnership|\bbd\b|商务|销售|上币|営業",
    "marketing": r"marketing|\bgrowth\b|\bcontent\b|community|devrel|developer relations|advocate|市场|營銷|营销|"
    r"增长|社区|社媒|运营|運營|マーケ",
    "solutions": r"customer success|solutions|forward deployed|\bfde\b|implementation|customer delivery|"
    r"support engineer|客服|技术支持|カスタマー",
    "lead": r"head of|director|\bvp\b|\bcto\b|\bcpto\b|chief|engineering manager|\bem\b|team lead|tech lead|"
    r"总监|總監|负责人|主管|leader|リーダー|マネージャー",
    "founding": r"founding|co-?founder|合伙人",
    "business": r"finance|accountant|legal|counsel|recruiter|talent acquisition|people ops|\bhr\b|财务|會計|会计|法务|合规|人事|経理",
    "contract": r"smart contract|solidity|合约|合約|智能合约",
    "quant": r"quant|market mak|trader|量化|做市|交易员|流动性",
    "chain": r"blockchain engineer|protocol engineer|区块链|公链|底层|\bzk\b|零知识|cryptograph|密码学",
}
_FAMILY_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _FAMILIES.items())
_FAMILY_PRES = tuple((name, _Pre(rx)) for name, rx in _FAMILY_RES)


_FAMILY_SCAN = tuple((name, pre.lits or ("",), pre.cs) for name, pre in _FAMILY_PRES)


def _families_in(text: str) -> tuple[str, ...]:
    """Families whose pattern occurs in `text` (a literal prefilter, then the case-sensitive twin)."""
    folded = _fold(text)
    out = []
    for name, lits, cs in _FAMILY_SCAN:
        for x in lits:
            if x in folded:
                if cs.search(folded) is not None:
                    out.append(name)
                break
    return tuple(out)


def role_families(title: str, lines: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """Role families (frontend, backend, sales, smart contract, ...) named in the title or in lines that
    announce jobs (short lines, list items, hiring sentences, lines with a link); sorted."""
    return _families_in("\n".join([title, *(ln for ln in lines if _role_context(ln, lang))]))


# --------------------------------------------------------------------------- main entry

_HEADING_HEAD_RE = re.compile(r"\s{0,3}#{1,6}\s*")
_CJK_HEADING_RE = re.compile(r"^\s*[【■◆●□◇〈《\[]([^】\]〉》]{1,24})[】\]〉》]\s*$|^\s*([^\s：:]{1,12})\s*[：:]\s*$")
_PLACEHOLDER_RE = re.compile(r"(?<![A-Za-z])(?:XX+|xx+)(?![A-Za-z])|城市名|公司名|AAA-ZZZ")
_SITE_RE = re.compile(r"^https?://(?:www\.)?([^/]+)", re.IGNORECASE)
_CJK_HEADING_HINT_RE = re.compile(r"[【■◆●□◇〈《\[:：]")  # one of these is in every _CJK_HEADING_RE match
_LOCATION_LINE = _Pre(
    # the lookahead (implied by the match) fails at once where the rest is too long, instead of after
    # trying every split of a long whitespace run between the two \s*
    re.compile(r"^(?:[-*•]\s*)?(?:工作地点|工作地點|地点|勤務地|location|based in)(?=\s*+[:：]?\s*+.{0,60}$)\s*[:：]?\s*(.{2,60})$",
               re.IGNORECASE)
)

_LOCATION_HEADING_RE = re.compile(r"(?i)^(?:工作地点|工作地點|办公地点|辦公地點|工作城市|地点|勤務地|勤務場所|location|office)\s*[:：]?$")

_PAREN_NOTE_RE = re.compile(r"[(（][^()（）]{0,40}[)）]")


#: Work-mode notes in a Chinese / Japanese location ("不限，可远程remote", "フルリモート可"): no place.
_ANYWHERE_RE = re.compile(r"(?i)(?:可|支持|接受|フル)?(?:远程|遠程|remote|リモート|在宅)(?:办公|辦公|工作|勤務)?(?:可)?|"
                          r"地点不限|不限|均可|全国|anywhere")
_PLACE_CHAR_RE = re.compile(r"[^\W\d_]")


def _location_core(location: str) -> str:
    """A Chinese / Japanese location without notes in parentheses ("横浜市港北区（新横浜駅 徒歩7分）" names
    the place 横浜市港北区, the station is how to get there; kept when nothing else is left), and "" when it
    only says the work is remote or anywhere ("不限，可远程remote")."""
    core = _PAREN_NOTE_RE.sub(" ", location).strip() if "(" in location or "（" in location else location
    core = core if len(core) >= 2 else location
    return core if _PLACE_CHAR_RE.search(_ANYWHERE_RE.sub(" ", core)) else ""


def _md_heading(line: str) -> str | None:
    """Group 2 of `^\\s{0,3}(#{1,6})\\s*(.*?)\\s*#*\\s*$` on a line without line breaks (the heading's
    text), found in linear time: the lazy group ends where the longest `\\s*#*\\s*` suffix starts."""
    m = _HEADING_HEAD_RE.match(line)
    if m is None:
        return None
    tail = len(line.rstrip().rstrip("#").rstrip())  # str.isspace is re's \s for str patterns
    return line[m.end() : max(m.end(), tail)]


@line_cache
def _heading_line(ln: str) -> tuple[str, str] | None:
    """(heading, the line as kept) when a stripped line is a heading (markdown `## x`, kept as its text; a CJK
    `【x】` or `x：` line, kept as it is), else None."""
    m = _md_heading(ln) if "#" in ln[:4] else None
    if m is not None:
        return m.strip(), m.strip()
    cm = _CJK_HEADING_RE.match(ln) if _CJK_HEADING_HINT_RE.search(ln) else None
    return ((cm.group(1) or cm.group(2)).strip(), ln) if cm else None


def _str(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, list | tuple):
        return " ".join(_str(x) for x in v)
    return str(v)


def iso_datetime(value: object) -> datetime | None:
    """`value` read as an ISO-8601 date or date-time ("Z" for UTC), else None: the one parse of a posting's date
    (`posting_date`, the pair features' day)."""
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def posting_date(posting: Mapping[str, Any]) -> str | None:
    """The date a posting's pair features read: `posted_at` when it is ISO-8601, else `first_seen` (sources write
    posted_at in any format and it is kept as written; a "3 days ago" must not hide the crawl date), else whatever
    posted_at holds."""
    posted, first = posting.get("posted_at"), posting.get("first_seen")
    value = posted if posted and iso_datetime(posted) is not None else first or posted or None
    return str(value) if value else None


def extract(posting: Mapping[str, Any], families: bool = True) -> Extracted:
    """Main text, sections and job fields of one posting (JSON object per DESIGN.md). `families=False`
    leaves `families` empty: the Verifier's features never read it (they use `role_families` of the
    announced roles), so its extraction skips that work.

    Raises ValueError when `posting` is not a mapping with an `id`."""
    if not isinstance(posting, Mapping):
        raise ValueError(f"a posting must be a JSON object, got {type(posting).__name__}")
    if "id" not in posting or posting["id"] in (None, ""):
        raise ValueError("a posting needs an 'id'")
    desc = _str(posting.get("description"))
    raw = _raw_text(desc).replace("\r\n", "\n").replace("\r", "\n")
    lines: list[str] = []
    sections: list[Section] = []
    heading, cur = "", []
    stripped = list(filter(None, map(str.strip, _single_spaced(raw).split("\n"))))
    for ln, h in zip(stripped, map(_heading_line, stripped), strict=True):
        if h is not None:
            if cur or heading:
                sections.append(Section(heading, tuple(cur)))
            heading, cur = h[0], []
            lines.append(h[1])
            continue
        lines.append(ln)
        cur.append(ln)
    if cur or heading:
        sections.append(Section(heading, tuple(cur)))
    tup_lines = tuple(lines)
    text = "\n".join(tup_lines)

    title = _str(posting.get("title")).strip()
    company = _str(posting.get("company")).strip()
    location = _str(posting.get("location")).strip()
    lang = posting_lang(posting, raw)
    found: list[str] = []
    first_roles: list[str] = []
    if tup_lines and ("|" in tup_lines[0] or "｜" in tup_lines[0]):
        f = _first_line_fields(tup_lines[0], lang)
        if f:
            first_roles = f.get("roles", [])
            if not company and f.get("company"):
                company = f["company"]
                found.append("company")
            if not location and f.get("location"):
                location = f["location"]
                found.append("location")
            if not title and f.get("title"):
                title = f["title"]
                found.append("title")
    pipe_line = bool(tup_lines) and ("|" in tup_lines[0] or "｜" in tup_lines[0])
    if not title and tup_lines and len(tup_lines[0]) <= 80 and not pipe_line:
        title = tup_lines[0]
        found.append("title")
    head = _fold("\n".join(tup_lines[:40])) if not location and tup_lines else ""  # folded where a place may be
    if head and _LOCATION_LINE.may(head):
        for ln, fl in zip(tup_lines[:40], head.split("\n"), strict=False):
            m = _LOCATION_LINE.cs.match(fl) if _LOCATION_LINE.may(fl) else None
            if m:
                location = ln[m.start(1) : m.end(1)].strip()
                found.append("location")
                break
    if not location:  # a location heading with the place on the next line ("### 工作地点" / "【勤務地】")
        for sec in sections:  # (an English "Office" section tells about the office: perks, not a place)
            if sec.lines and len(sec.lines[0]) <= 60 and _LOCATION_HEADING_RE.match(sec.heading) and \
                    (lang != "en" or not sec.heading.lower().startswith("office")):
                location = sec.lines[0]
                found.append("location")
                break
    if location and lang != "en":
        location = _location_core(location)
    if _PLACEHOLDER_RE.search(title):  # an unfilled issue template ("XXXX 公司诚聘 XX工程师") names no job
        title = ""
    emails, phones, urls = _contacts(_contact_text(desc, raw))
    header = pipe_line or (bool(tup_lines) and title == tup_lines[0])
    roles = first_roles + _roles(tup_lines, tuple(sections), title, lang, "title" not in found, header,
                                 bool(first_roles))
    cleaned: dict[str, None] = {}
    for r in roles:
        c = _clean_role(r)
        if c and not _PLACEHOLDER_RE.search(r):
            cleaned.setdefault(c, None)
    roles = list(cleaned)
    context = list(compress(tup_lines, map(_context_line.of(lang), tup_lines)))
    site = _str(posting.get("source")).strip().lower()
    if not site:
        m = _SITE_RE.match(_str(posting.get("url")))
        site = m.group(1).lower() if m else ""
    posted = posting_date(posting)
    return Extracted(
        id=str(posting["id"]),
        lang=lang,
        text=text,
        lines=tup_lines,
        sections=tuple(sections),
        title=title,
        company=company,
        location=location,
        emails=emails,
        phones=phones,
        urls=urls,
        roles=tuple(roles[:MAX_ROLES]),
        mentions=_mentions(title + "\n" + "\n".join(context), lang),
        salaries=_salaries(tup_lines + ((title,) if title else ())),
        families=_families_in("\n".join([title, *context])) if families else (),
        posted_at=posted,
        site=site,
        fields_found=tuple(found),
    )
