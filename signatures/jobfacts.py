"""Where and on what terms a job is offered, read from a posting's workplace and terms lines: the store,
branch, station and address units (勤務地 / アクセス / 最寄り駅 / 店舗 / 工作地点 ...) and the employment type, pay
unit, shift and clock hours (雇用形態 / 給与 / 勤務時間 / 工作性质 / Employment / Pay / Schedule ...).

Job boards carry one company's template for several stores, for a full-time and a part-time job, for a
day and a night shift: the texts differ only in these lines. The verifier reads them as places
(signatures.features.places_moved) and terms (terms_changed); profile_sig signs them unquantized
(signatures.profile, SIG_VERSION 4). Pure functions over lines of text.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from signatures import script
from signatures.extract import line_cache

_MARK = r"[-*•・■◆●□◇〈《\[【＜<]"
#: Headings of the sections that say where the job is: the workplace, the store or branch, its address, the
#: nearest station (a heading starts with one of these words).
WORKPLACE_WORDS = ("勤務地", "勤務場所", "勤務先", "就業場所", "勤務店舗", "店舗", "配属先", "アクセス", "最寄駅", "最寄り駅",
                   "交通", "工作地点", "工作地點", "工作地址", "办公地点", "办公地點", "办公地址", "上班地点", "上班地址",
                   "门店", "門市", "地址")
#: Headings of the sections that state a job's terms: employment type, pay, hours (English ones: whole words,
#: any case).
TERMS_WORDS = ("雇用形態", "雇用区分", "就業形態", "契約形態", "募集形態", "給与", "給料", "賃金", "報酬", "勤務時間", "就業時間",
               "工作性质", "工作類型", "用工性质", "薪资", "薪資", "薪酬", "工作时间", "工作時間", "上班时间", "班次")
TERMS_WORDS_EN = ("employment", "job type", "pay", "salary", "compensation", "wage", "schedule", "shift", "hours")
WORKPLACE_HEADING = "|".join(WORKPLACE_WORDS)
TERMS_HEADING = "|".join(TERMS_WORDS) + "|(?i:" + "|".join(TERMS_WORDS_EN) + ")(?:s)?(?![A-Za-z])"
#: A line starting with a heading word (after an optional marker): group `w` workplace, `t` terms.
_HEADING_LINE_RE = re.compile(rf"\s*(?:#{{1,6}}\s*|{_MARK}\s*)?(?:(?P<w>{WORKPLACE_HEADING})|(?P<t>{TERMS_HEADING}))")
#: A heading line alone: an optional marker (##, 【, ■ ...), a short name, an optional closing bracket and colon.
_HEADING_ALONE_RE = re.compile(r"^\s*(?:#{1,6}\s*|[■◆●□◇〈《\[【＜<]\s*)?([^\s】\]〉》＞>:：]{1,16})\s*[】\]〉》＞>]?\s*[:：]?\s*$")
#: A line that opens another section (a marked heading): ends the lines read after a heading.
_NEXT_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s|[■◆●□◇〈《\[【＜])")
_INLINE_RE = re.compile(r"^[^:：]{1,20}[:：]\s*(\S.*)$")
_SECTION_LINES = 4  # lines read after a heading (a long list of branches is a multi-place ad)
_MAX_LINE = 160

CJK_RUN = "[\u3005\u3040-\u30ff\u3400-\u9fff]"  # 々 (U+3005) inside names: 代々木
#: A place unit with its administrative suffix (県, 市, 区, 省, ...): the name of 2+ characters before it (group 1).
ADMIN_PLACE = f"({CJK_RUN}{{2,}}?)(?:都|道|府|県|市|区|町|村|省|州)"
_CJK_RUN_RE = re.compile(f"{CJK_RUN}+")
_ADMIN_SUFFIX_RE = re.compile("[都道府県市区町村省州]")
#: A station (恵比寿駅, 徐家汇站): its name without the railway line before it (山手線「恵比寿駅」, 1号线徐家汇站).
_STATION_RE = re.compile(f"({CJK_RUN}{{2,10}}?)(?:駅|站)")
_LINE_NAME_RE = re.compile(r".*[線线]")
#: A store, branch or office named by its suffix (恵比寿店, 大宮東口店, 横浜支店, 新宿営業所, 徐汇店), a whole chunk.
_STORE_RE = re.compile(f"{CJK_RUN}{{1,12}}(?:支店|支社|営業所|事業所|店|分店|分公司)$")
_GENERIC_STORES = frozenset(
    "当店 本店 各店 全店 他店 支店 本支店 各支店 各営業所 各事業所 直営店 分店 门店 各门店 新店 本社 実店".split())
_CHUNK_SPLIT_RE = re.compile(r"[\s、，,。・/／|｜:：()（）「」『』【】\[\]〈〉《》<>＜＞※*＊◆■●◎★☆~〜～→]+")
#: An address's town: the name after an administrative unit, right before the block number (恵比寿南1-4-2).
_TOWN_RE = re.compile(f"(?:都|道|府|県|市|区|町|村)((?:(?![都道府県市区]){CJK_RUN}){{2,8}}?)(?:[0-9]|丁目)")
#: Work-mode and filler words that are no place.
NOT_PLACE = frozenset(
    "远程 遠程 远程办公 线上 线下 办公 全国 不限 待定 国内 海外 境外 リモート 在宅 フルリモート 全国各地 "
    "remote onsite hybrid office full time part wfh anywhere global worldwide".split()
)

#: Employment types, pay units (hourly vs salaried: 月給 and 年収 are one job's two ways of saying it) and shifts.
_TERM_WORDS: tuple[tuple[str, str], ...] = (
    ("emp:full", r"正社員(?!登用|へ|に|を|として登用)|正職員(?!登用)|全职|全職|full[- ]?time|permanent"),
    ("emp:part", r"アルバイト|パート(?!ナー)|(?<!ア)バイト|兼职|兼職|part[- ]?time"),
    ("emp:contract", r"契約社員|契約職員|嘱託|\bcontract(?:or)?\b|\bfreelance"),
    ("emp:dispatch", r"派遣社員|紹介予定派遣|劳务派遣|外包"),
    ("emp:outsource", r"業務委託"),
    ("emp:intern", r"インターン|实习|實習|\bintern(?:ship)?\b"),
    ("pay:hourly", r"時給|日給|时薪|時薪|日薪|元/(?:小时|时|天)|/\s*(?:hr|hour)\b|an hour|per hour|hourly"),
    ("pay:salaried", r"月給|月収|年収|年俸|月薪|年薪|per year|/\s*(?:yr|year)\b|annual|\$\d+k"),
    ("shift:day", r"日勤|白班|day shift"),
    ("shift:night", r"夜勤|深夜勤務|夜班|晚班|night shift|overnight|graveyard"),
    ("shift:open", r"早番|早班|opening shift"),
    ("shift:close", r"遅番|closing shift"),
)
#: All of _TERM_WORDS in one pattern: group i+1 is term i (one scan of a line instead of one per term).
_TERMS_RE = re.compile("|".join(f"({rx})" for _, rx in _TERM_WORDS))
_TERM_OF_GROUP = {i + 1: k for i, (k, _) in enumerate(_TERM_WORDS)}
#: A clock range: 9:00〜18:00, 16:30〜翌9:30, 22:00-次日6:00 (hours of a shift).
_HOURS_RE = re.compile(r"(\d{1,2})[:：時](\d{2})?[^\S\n]{0,3}[〜～~\-－–至到][^\S\n]{0,3}(?:(翌|次日)[^\S\n]{0,3})?"
                       r"(\d{1,2})[:：時](\d{2})?")  # bounded spaces: linear on any text
TERM_DIMENSIONS = ("emp", "pay", "shift")


def fact_lines(lines: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(workplace lines, terms lines) of a text's lines, in one pass: the lines under each heading line (a marked or
    bare heading alone on its line: "【勤務地】", "## 勤務地", "勤務地：") up to the next marked heading, at most
    _SECTION_LINES each, and the content of `heading：content` lines. Workplace headings: WORKPLACE_WORDS; terms
    headings: TERMS_WORDS / TERMS_WORDS_EN. Remembered for the last few postings: a posting's places and its
    terms (signatures.features) both read it."""
    return _fact_lines(tuple(lines))


@lru_cache(maxsize=8)
def _fact_lines(lines: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    out: tuple[list[str], list[str]] = ([], [])
    take, into = 0, out[0]
    for line in lines:
        kind, terms, content = _fact_kind(line)
        if kind == _LONG:
            take = 0
        elif kind == _ALONE:
            take, into = _SECTION_LINES, out[terms]
        elif kind == _INLINE:
            out[terms].append(content)
            take = 0
        elif take:
            if kind == _STOP:
                take = 0
            else:
                into.append(line)
                take -= 1
    return tuple(out[0]), tuple(out[1])


_PLAIN, _LONG, _ALONE, _INLINE, _STOP = range(5)


@line_cache
def _fact_kind(line: str) -> tuple[int, bool, str]:
    """What one line is to `fact_lines`, cached (postings share their heading lines): (kind, a terms heading
    rather than a workplace one, an inline heading's content). Kinds: _LONG (over _MAX_LINE: ends a section),
    _ALONE (a heading alone on its line), _INLINE (`heading：content`), _STOP (another marked heading: ends the
    lines read), _PLAIN."""
    if len(line) > _MAX_LINE:
        return _LONG, False, ""
    m = _HEADING_LINE_RE.match(line)
    if m is not None:
        if _HEADING_ALONE_RE.match(line):
            return _ALONE, m.lastgroup == "t", ""
        inline = _INLINE_RE.match(line)
        if inline is not None:
            return _INLINE, m.lastgroup == "t", inline.group(1)
    if (_NEXT_HEADING_RE.match(line) is not None and len(line) <= 30
            or line.endswith((":", "：")) and _HEADING_ALONE_RE.match(line) is not None):
        return _STOP, False, ""
    return _PLAIN, False, ""


def workplace_units(lines: Sequence[str]) -> frozenset[str]:
    """Place units of workplace lines: stores and branches by suffix (恵比寿店), stations (恵比寿駅 -> 恵比寿, the
    railway line dropped), administrative units (渋谷区 -> 渋谷) and an address's town (恵比寿南1-4-2 -> 恵比寿南)."""
    return frozenset().union(*map(_line_units, lines))


@line_cache
def _line_units(line: str) -> frozenset[str]:
    text = unicodedata.normalize("NFKC", line).lower()
    out = {_LINE_NAME_RE.sub("", m.group(1)) for m in _STATION_RE.finditer(text)}
    out.update(c for c in _CHUNK_SPLIT_RE.split(text) if _STORE_RE.search(c) and c not in _GENERIC_STORES)
    out.update(m.group(1) for m in _TOWN_RE.finditer(text))
    out.update(admin_names(text))
    return frozenset(u for u in out if len(u) >= 2 and u not in NOT_PLACE)


def admin_names(text: str) -> list[str]:
    """The names ADMIN_PLACE's matches capture, in order (`m.group(1) for m in finditer`), in linear time: the
    pattern's lazy name scans to the end of a CJK run at every start that has no suffix after it (quadratic in a
    run; NFKC makes a 160-character line of ㌖ a run of 960, 14 s a posting of such lines). A match lies in one CJK
    run (the suffixes are CJK characters): from its start, up to the first suffix two or more characters on."""
    out = []
    for m in _CJK_RUN_RE.finditer(text):
        run, start = m.group(), 0
        for k in (x.start() for x in _ADMIN_SUFFIX_RE.finditer(run)):
            if k >= start + 2:
                out.append(run[start:k])
                start = k + 1
    return out


def terms_of(lines: Sequence[str]) -> frozenset[str]:
    """Terms stated in `lines` as "dimension:value": employment type (emp:full / part / contract / dispatch /
    outsource / intern), pay unit (pay:hourly / salaried), shift words (shift:day / night / open / close) and
    clock ranges ("hours:540-1080", minutes from midnight; a range past midnight ends after 1440)."""
    return frozenset().union(*map(_line_terms, lines))


@line_cache
def _line_terms(line: str) -> frozenset[str]:
    text = unicodedata.normalize("NFKC", line).lower()  # _TERM_WORDS' English words are lowercase
    out = {_TERM_OF_GROUP[m.lastindex] for m in _TERMS_RE.finditer(text) if m.lastindex}
    for m in _HOURS_RE.finditer(text):
        start = int(m.group(1)) * 60 + int(m.group(2) or 0)
        end = int(m.group(4)) * 60 + int(m.group(5) or 0)
        if start <= 24 * 60 and end <= 24 * 60:
            end += 24 * 60 if m.group(3) or end <= start else 0
            out.add(f"hours:{start}-{end}")
    return frozenset(out)


def _hours(terms: frozenset[str]) -> list[tuple[int, int]]:
    return [(int(s), int(e)) for t in terms if t.startswith("hours:") for s, e in [t[6:].split("-")]]


def changed_terms(a: frozenset[str], b: frozenset[str]) -> tuple[str, ...]:
    """The term dimensions both sides state with nothing in common ("emp:full->emp:part"; "hours" when both give
    clock ranges and none overlaps): empty when the terms agree or one side does not state them."""
    out = []
    for dim in TERM_DIMENSIONS:
        ta = sorted(t for t in a if t.startswith(dim + ":"))
        tb = sorted(t for t in b if t.startswith(dim + ":"))
        if ta and tb and not set(ta) & set(tb):
            out.append(f"{','.join(ta)}->{','.join(tb)}")
    ha, hb = _hours(a), _hours(b)
    if ha and hb and not _overlap(ha, hb):
        out.append("hours")
    return tuple(out)


def _overlap(ha: list[tuple[int, int]], hb: list[tuple[int, int]]) -> bool:
    """Whether a range of `ha` overlaps one of `hb` (s1 < e2 and s2 < e1): by start order and the furthest end so
    far, O((m + n) log m) (a posting may give thousands of ranges; all pairs would be quadratic)."""
    ha = sorted(ha)
    starts = [s for s, _ in ha]
    reach = list(accumulate((e for _, e in ha), max))
    for s2, e2 in hb:
        k = bisect_left(starts, e2)  # the ranges of ha that start before e2
        if k and reach[k - 1] > s2:
            return True
    return False


# What a description's facts are read from, for profile_sig: block-level tags end a line, other tags go.
def _by_prefix(words: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Words (lowercase) by their first two characters, as written lower, upper and capitalized."""
    out: dict[str, dict[str, None]] = {}
    for w in words:
        for case in (str.lower, str.upper, str.capitalize):
            out.setdefault(case(w[:2]), {})[w] = None
    return {k: tuple(v) for k, v in out.items()}


#: Heading words by their first two characters, and what may come before them on a heading line: a line starts a
#: heading only if its first characters after these are one of the words (a dict lookup per line instead of a
#: regex scan of the whole text).
_HEADING_PREFIXES = _by_prefix((*WORKPLACE_WORDS, *TERMS_WORDS, *TERMS_WORDS_EN))
_MARK_CHARS = "#-*•・■◆●□◇〈《[【＜< \t\u3000"
#: A line break, the marks, then a heading word's first character: the lines worth a closer look, found by one
#: scan in C (a pattern that starts with a literal "\n" is searched for like a string).
_HEADING_START_RE = re.compile(
    "\n[" + re.escape(_MARK_CHARS) + "]*[" + re.escape("".join(sorted({k[0] for k in _HEADING_PREFIXES}))) + "]")
_BLOCK_TAG_RE = re.compile(r"(?i)<(?:br|/?p|/?li|/?div|/?h[1-6]|/?tr|/?ul|/?ol)\b[^<>]{0,200}>")
_TAG_RE = re.compile(r"<[A-Za-z/!?][^<>]{0,500}>")


def description_facts(description: str) -> frozenset[str]:
    """Workplace units and terms of a description (plain text, markdown or HTML): what tells one store's, one
    shift's or one employment type's ad from another's written on the same template."""
    text = script.fold_width(description)  # one site's ｱｸｾｽ heading is another's アクセス
    if "<" in text:
        text = _TAG_RE.sub(" ", _BLOCK_TAG_RE.sub("\n", text))
    if "&" in text:
        text = html.unescape(text)
    text = "\n" + script.unify_line_breaks(text)
    lines: list[str] = []
    end = 0
    for m in _HEADING_START_RE.finditer(text):  # each heading's line and the lines fact_lines may read after it
        word = text[m.end() - 1 : m.end() + 11]
        ws = _HEADING_PREFIXES.get(word[:2])
        if not ws or not word.lower().startswith(ws):
            continue
        start = max(m.start(), end)
        end = m.start()
        for _ in range(_SECTION_LINES + 3):
            end = text.find("\n", end + 1)
            if end < 0:
                end = len(text)
                break
        lines += [s for ln in text[start:end].split("\n") if (s := ln.strip())]
    if not lines:
        return frozenset()
    where, terms = fact_lines(lines)
    return workplace_units(where) | terms_of(terms)
