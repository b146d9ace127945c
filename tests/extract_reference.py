"""Frozen reference for tests: signatures/extract.py as of commit ef662b2 (before the speed work),
kept verbatim below this docstring so tests can prove the fast extract() returns exactly the same
Extracted for the same posting. Do not edit; do not import outside tests.

Semantic changes made to extract() since, mirrored here in their plain form (issue 9, hand-made cases):
e-mail addresses leave role lines (`_role_core`); a location under a location heading (not an English 'Office' one); parenthesized
notes leave a CJK location, and one that only says remote / anywhere is none; a CJK title segment split at ・ when every piece is a role; contact and duty lines (负责… / 熟悉…) are no role lines;
'looking for' / 'seeking' titles and a trailing 招聘 read like 'hiring'; pay / holiday taglines of a CJK title are no roles; 护工 司机 保安 … are role words.
Chinese titles (issue 9, zh recall): 直招 急聘 热招 寻找 and `招 ` are hiring verbs too, the role before the verb when none after it,
ranges / years / head counts cut from a role, a title part split at a space or hyphen after a Han character, a Latin role name in a
CJK posting up to 40 characters, no tagline parts as roles in Chinese (a title of one part is a role); 产品总监 / 产品专家 are the product family;
an e-mail address run into CJK text keeps only its ASCII part (简历发至hr@acme.cn -> hr@acme.cn).
Chinese titles (session 9): a bracketed note glued inside a name is dropped without a space (全栈（偏后端）开发工程师 ->
全栈开发工程师); a title whose parts name no role gives the roles written in its brackets, at most 40.
the first line, when it is a header read (pipe fields or the title), is no role line; a role line's
head before ` - ` / ` | ` / `: ` is a role (a list item, a link line, a pipe line, or a head in title case); a header segment listing 3+ roles is read as roles; English title-case job titles after "looking for" / "seeking" / "we need" are roles; a bare 'role' / 'position'
opens a hiring list only with a colon ('The role reports to our VP Growth' names no role), and a head that is a
role heading ('Open roles: …') is none.
English role sets (issue 9, s6-i9-en): a linked list item under a role heading in title case of up to four words is a
role without a role word ("- Backend: <link>"); role lines of one name with two or more specialties in parentheses
(not a place, work mode or employment type) are one role per specialty; an English title field without role words
gives its part before the first ` - ` / ` | ` / `: `.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from selectolax.lexbor import LexborHTMLParser

__all__ = [
    "Extracted",
    "Section",
    "detect_lang",
    "extract",
    "html_to_text",
    "markdown_to_text",
    "normalize_line",
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


# --------------------------------------------------------------------------- text formats

_BLOCK_TAGS = (
    "p|div|br|li|ul|ol|tr|table|section|article|header|footer|blockquote|pre|h[1-6]|dd|dt|hr"
)
_BLOCK_RE = re.compile(rf"<\s*/?\s*(?:{_BLOCK_TAGS})\b[^>]*>", re.IGNORECASE)
_HEADING_OPEN_RE = re.compile(r"<\s*h([1-6])\b[^>]*>", re.IGNORECASE)
_LI_OPEN_RE = re.compile(r"<\s*li\b[^>]*>", re.IGNORECASE)
_HTML_HINT_RE = re.compile(r"<\s*(?:p|br|div|a|li|ul|h[1-6]|span|b|i|strong|em|html|body|table)\b[^>]*>|&#x?[0-9a-f]+;|&[a-z]+;", re.IGNORECASE)
_MD_HINT_RE = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d+[.)]\s)|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\)")


def html_to_text(html: str) -> str:
    """Main text of an HTML fragment or page: block elements become line breaks, headings become
    markdown-style `#` lines, list items `- ` lines; scripts, styles and page chrome are dropped."""
    marked = _HEADING_OPEN_RE.sub(lambda m: "\n\n" + "#" * int(m.group(1)) + " ", html)
    marked = _LI_OPEN_RE.sub("\n- ", marked)
    marked = _BLOCK_RE.sub("\n", marked)
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


_MD_LINK_RE = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
_MD_EMPH_RE = re.compile(r"(\*\*|__|~~|`)")


def markdown_to_text(md: str) -> str:
    """Plain text of markdown: links become `text url`, emphasis marks go, headings keep their `#`."""
    text = _MD_LINK_RE.sub(lambda m: f"{m.group(1)} {m.group(2)}".strip(), md)
    text = _MD_EMPH_RE.sub("", text)
    return text


def _raw_text(description: str) -> str:
    """Description in any format -> plain text with line structure."""
    if _HTML_HINT_RE.search(description):
        description = html_to_text(description)
    if _MD_HINT_RE.search(description):
        description = markdown_to_text(description)
    return description


# --------------------------------------------------------------------------- language

_HIRA_KATA_RE = re.compile(r"[\u3040-\u30ff]")
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")


def detect_lang(text: str) -> str:
    """'ja' when kana occur, 'zh' when Han characters dominate, else 'en' (Latin scripts)."""
    sample = text[:4000]
    kana = len(_HIRA_KATA_RE.findall(sample))
    han = len(_HAN_RE.findall(sample))
    if kana >= 10 or (kana and kana * 5 >= han):
        return "ja"
    if han >= 10 or (han and han * 3 >= len(sample)):
        return "zh"
    return "en"


# --------------------------------------------------------------------------- normalization

_WS_RE = re.compile(r"[ \t\u3000\xa0]+")
_NORM_DROP_RE = re.compile(r"[^\w]+", re.UNICODE)


def normalize_line(line: str) -> str:
    """Canonical form of a line for hashing: NFKC, lowercase, only letters/digits (spaces squeezed)."""
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
_HANDLE_RE = re.compile(r"(?i)(?:telegram|tg|wechat|微信|vx|skype|discord|line)\s*(?:id)?\s*[:：]\s*(@?[\w.:-]{3,})")
_HANDLE_LOOSE_RE = re.compile(
    r"(?i)(?:(?:微信|v信)(?:号|id)?[^\S\n]*(?:请加|请添加|添加|加|联系|搜索)?[^\S\n]*[【\[(（「]?[^\S\n]*@?"
    r"|(?:wechat|vx|tg|telegram)(?:[^\S\n]*id)?[^\S\n]*(?:[【\[(（「][^\S\n]*@?|@|(?:请加|请添加|添加|加|联系|号)[^\S\n]*@?))"
    r"([a-z][a-z0-9_.-]{4,31})(?![a-z0-9_])"
)
_SAL_RE = re.compile(
    r"(?i)(?P<cur>[$€£¥])?\s*(?P<a>\d+(?:[.,]\d+)?)\s*(?P<ka>[kKwW千万萬]|万円)?"
    r"(?:\s*(?:-|–|—|~|～|〜|to|至)\s*(?P<cur2>[$€£¥])?\s*(?P<b>\d+(?:[.,]\d+)?)\s*(?P<kb>[kKwW千万萬]|万円)?)?"
    r"\s*(?P<unit>usd|usdt|u\b|rmb|元|円|美金|美元|/\s*(?:mo|month|yr|year|月|年)|per\s+(?:year|month)|k\b)?"
)
_MULT = {"k": 1e3, "K": 1e3, "千": 1e3, "w": 1e4, "W": 1e4, "万": 1e4, "萬": 1e4, "万円": 1e4}
_SAL_CONTEXT_RE = re.compile(
    r"(?i)salary|compensation|comp\b|pay|\$|€|£|usd|薪|月薪|年薪|待遇|报酬|给与|給与|月給|年収|年俸|时薪|時給|万円|k\s*[-–~]|"
    r"\d\s*(?:u|rmb|元|k|w|万)?\s*/\s*(?:月|年|mo(?:nth)?\b|yr\b|year\b)|per (?:month|year|annum)"
)


def _salaries(lines: tuple[str, ...]) -> tuple[float, ...]:
    """Salary-like amounts (normalized to plain numbers) on lines that talk about pay."""
    out: list[float] = []
    for line in lines:
        if not _SAL_CONTEXT_RE.search(line):
            continue
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
    return tuple(sorted(set(out)))


def _contacts(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Emails (also `name (at) domain` forms), phone numbers (digits only) and URLs in the text."""
    emails = set()
    for e in (e.lower().rstrip(".") for e in _EMAIL_RE.findall(text)):
        if not e.isascii():  # run into CJK text: the ASCII tail of the local part, the ASCII head of the domain
            local, _, domain = e.rpartition("@")
            m, d = re.search(r"[a-z0-9._%+-]+$", local), re.match(r"[a-z0-9.-]+", domain)
            e = f"{m.group(0)}@{d.group(0).rstrip('.')}" if m and d and "." in d.group(0).strip(".") else ""
        if e:
            emails.add(e)
    for m in _OBF_EMAIL_RE.finditer(text) if _OBF_HINT_RE.search(text) else ():
        dom = re.sub(r"\s*(?:[\[(]\s*dot\s*[\])]|\.)\s*", ".", m.group(2), flags=re.IGNORECASE)
        emails.add(f"{m.group(1)}@{dom}".lower())
    urls = set()
    for u in _URL_RE.findall(text):
        u = u.rstrip(".;:!?").lower()
        u = re.sub(r"^https?://(www\.)?", "", u).rstrip("/")
        if u:
            urls.add(u)
    handles = [h for h in _HANDLE_RE.findall(text) if not h.lower().startswith(("http:", "https:"))]
    for h in handles + _HANDLE_LOOSE_RE.findall(text):
        h = h.lower().lstrip("@").rstrip(".:-")
        if len(h) >= 3:
            urls.add("handle:" + h)
    for u in list(urls):  # a Telegram link names the same account as a "TG: @x" handle
        m = re.match(r"(?:t\.me|telegram\.me)/([\w]{3,})$", u)
        if m:
            urls.add("handle:" + m.group(1))
    phones = set()
    for p in _PHONE_RE.findall(text):
        digits = re.sub(r"\D", "", p)
        if 9 <= len(digits) <= 15:
            phones.add(digits[-10:])
    return tuple(sorted(emails)), tuple(sorted(phones)), tuple(sorted(urls))


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
    r"(?:工程师|工程師|开发|開發|開発|经理|經理|运营|運營|设计师|設計師|设计|产品|產品|测试|測試|实习生|實習生|实习|"
    r"专家|專家|总监|總監|负责人|研究员|研究員|分析师|分析師|架构师|架構師|主管|助理|客服|专员|專員|市场|商务|销售|"
    r"HR|BD|hr|bd|合伙人|CTO|cto|COO|CFO|顾问|顧問|讲师|编辑|翻译|风控|交易员|研究|开发者|"
    r"エンジニア|デザイナー|マネージャー|ディレクター|スタッフ|営業|事務|保守|担当|リーダー|職|士|師|員|"
    r"スタイリスト|ドライバー|プランナー|介護|販売|技術者|コンサルタント|警備|施工管理|店長|候補|"
    r"护工|護工|普工|电工|電工|焊工|司机|司機|保安|保洁|保潔|月嫂|育儿嫂)$"
)
_ROLE_HEADING_RE = re.compile(r"(?i)^(?:#+\s*)?(?:招聘)?(?:岗位|職種|职位|職位|职缺|職缺|募集職種|open roles|positions?|roles?)\s*[:：]?\s*$")
_HIRING_LIST_RE = re.compile(
    r"(?i)(?:(?:\bhiring(?:\s+for)?|openings?\s+for|open\s+roles?|open\s+positions?)\s*[:：]?|(?:positions?|roles?)\s*[:：])"
    r"\s+(?:an?\s+|the\s+|multiple\s+|several\s+)?(.+)"
)
_TITLE_HIRE_RE = re.compile(
    r"(?:诚聘|招聘|招募|急招|急聘|诚招|直招|热招|徵才|征才|寻找|招(?=\s)|hiring|\blooking\s+for|\bseek(?:s|ing))\s*[:：]?\s*"
    r"(?:an?\s+)?(.+)",
    re.IGNORECASE)
_BRACKET_RE = re.compile(r"[\[【〔(（]([^\]】〕)）]{1,40})[\]】〕)）]")
_LIST_PREFIX_RE = re.compile(r"^(?:->|=>|[-*+•·◆■□●○▶►→>]|\d+[.)、．]|[（(]\d+[)）]|#+)\s*")
_URL_ONLY_RE = re.compile(r"https?://\S+")


def _clean_role(s: str) -> str:
    s = _URL_ONLY_RE.sub(" ", s)
    s = re.split(r"(?i)薪水|薪资|薪酬|月薪|年薪|salary|\$\d|\d+\s*[kK万w]|\d{3,}|"
                 r"\d+\s*[-~～–]\s*\d+(?!\s*[a-z])|\d+\s*(?:年|名|人|个|位|届)", s)[0]
    s = _LIST_PREFIX_RE.sub("", s.strip())
    s = re.sub(r"(?i)^(?:we'?re |we are |now )?hiring(?:\s+for)?\s*[:：]?\s*(?:an?\s+)?", "", s)
    s = re.split(r"\s[-–—→:：]\s|[:：→—]|\s\(|（", s)[0]
    return normalize_line(s)[:60]


def _looks_like_role(s: str, lang: str) -> bool:
    if not s or len(s) > 80:
        return False
    if lang == "en":
        return bool(_ROLE_WORDS_EN.search(s)) and len(s.split()) <= 9
    core = re.sub(r"\s*[（(][^）)]*[）)]\s*$", "", s.strip(" 。.!！"))
    if re.search(r"[，。；、]", core):
        return False
    if not re.search(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]", core):
        return len(core) <= 40 and bool(_ROLE_WORDS_EN.search(core))
    return len(core) <= 24 and bool(_ROLE_WORDS_CJK.search(core))


_LOC_HINT_RE = re.compile(
    r"(?i)\b(remote|onsite|on-site|hybrid|usa|us|uk|eu|europe|emea|apac|nyc|sf|london|berlin|paris|"
    r"toronto|new york|san francisco|singapore|tokyo|india|canada|germany|australia|[a-z]+,\s*[A-Z]{2})\b|"
    r"上海|北京|深圳|杭州|广州|香港|新加坡|远程|遠程|东京|東京|大阪|迪拜|台北|成都|武汉|全国|都道府県"
)
_EMPLOYMENT_RE = re.compile(r"(?i)^(full[- ]?time|part[- ]?time|contract|intern(ship)?|ft|pt|visa|onsite|remote|hybrid)\b")


def _first_line_fields(first: str, lang: str) -> dict[str, Any]:
    """Fields of an HN-style first line `Company | Location | Remote | Roles | URL`."""
    parts = [p.strip() for p in re.split(r"\s[|｜]\s|\s*[|｜]\s*", first) if p.strip()]
    if len(parts) < 2:
        return {}
    out: dict[str, Any] = {"company": re.sub(r"\s*\(.*?\)\s*", " ", parts[0]).strip()}
    roles, locs = [], []
    for p in parts[1:]:
        if _URL_ONLY_RE.fullmatch(p) or re.fullmatch(r"[\w.-]+\.[a-z]{2,}(/\S*)?", p, re.IGNORECASE):
            continue
        pieces = [r for r in re.split(r"\s*(?:,|/|;|&|\band\b)\s*", p) if r]
        if not _EMPLOYMENT_RE.match(p) and (
                _looks_like_role(p, lang) or len(pieces) >= 3 and all(_looks_like_role(r, lang) for r in pieces)):
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


def _role_core(line: str) -> str:
    """A line minus URLs, list markers, tags like `[Leadership]`, parentheses and `8+ yrs -` prefixes."""
    core = _URL_ONLY_RE.sub(" ", line)
    core = _EMAIL_RE.sub(" ", core)
    core = _LIST_PREFIX_RE.sub("", core.strip())
    core = _ROLE_NOISE_RE.sub(" ", core)
    core = re.sub(r"\s+", " ", core).strip(" :：-–—→|*")
    contact = (r"(?i)(?:contact|e-?mail(?!\s+market)|apply|reach\s+out|send|write\s+to|ping|dm|questions?|interested|please|"
               r"visit|see|check\s+out)\b|(?:负责|負責|参与|參與|熟悉|具备|具備|协助|協助|完成|配合|根据|根據|掌握|"
               r"了解|精通|擅长|擅長|能够|能夠)(?!人)")
    return "" if re.match(contact, core) else core


def _roles(
    lines: tuple[str, ...], sections: tuple[Section, ...], title: str, lang: str, title_given: bool = True,
    header: bool = False
) -> list[str]:
    """Role names: from the title, from `We're hiring: a, b` lists, from lines under role headings,
    from lines carrying an application link, and from short list-item / bracketed job-title lines."""
    roles: list[str] = []
    def title_parts(t: str) -> list[str]:
        def tag(m: re.Match[str]) -> str:  # Chinese: a note glued inside a name goes without a trace
            glued = 0 < m.start() and m.end() < len(t) and bool(re.match(r"[\u4e00-\u9fffA-Za-z0-9]", t[m.start() - 1])) \
                and bool(re.match(r"[\u4e00-\u9fffA-Za-z0-9]", t[m.end()]))
            return "" if lang == "zh" and glued else " "
        t = re.sub(r"[\[【(（][^\]】)）]*[\]】)）]", tag, t)
        pieces = re.split(r"\s*(?:[,，、/|｜&+◇◆★☆■□／—–]|\s-\s|\band\b|及|和)\s*", t)
        if lang != "en":  # "英语客服  校招", "前端工程师-SynFutures": parted after a Han character
            pieces = [q for p in pieces
                      for q in re.split(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s*-\s*", p)]
        if lang != "en":  # `看護師・介護職員ほか4職種募集`: the pieces between the dots when each is a role
            split = []
            for p in pieces:
                qs = [x for x in (re.sub(r"(?:ほか|他)\s*\d*\s*職種.*$|募集$", "", q).strip() for q in p.split("・")) if x]
                split.extend(qs if len(qs) >= 2 and all(_looks_like_role(x, lang) for x in qs) else [p])
            pieces = split
        parts = [c for c in (_clean_role(r) for r in pieces) if c]
        if lang != "en":
            tagline = (r"(?:月給|年収|時給|日給|年俸|年間休日|年休|賞与|完全?週休|土日|残業|未経験|応募者全員|面接|手当|"
                       r"月薪|年薪|薪资|薪水|五险一金|双休|周末双休)")
            parts = [c for c in parts if not re.match(tagline, c)]
        return parts

    if title:
        m = _TITLE_HIRE_RE.search(title)
        parts = title_parts(m.group(1) if m else re.sub(r"(?:诚聘|招聘|招募|急招|急聘|诚招|直招|徵才|征才)\s*$", "", title))
        good = [r for r in parts if _looks_like_role(r, lang)]
        before = [r for r in title_parts(title[: m.start()]) if _looks_like_role(r, lang)] if m and lang != "en" else []
        if not good and before:  # "SynFutures智能合约工程师招聘 薪资…": the role before the hiring verb
            roles.extend(before)
        elif good or not title_given:
            roles.extend(good)
        elif lang != "zh":
            bar = max(title.rfind("|"), title.rfind("｜"))  # a site category after the last bar is no role
            roles.extend(title_parts(title[:bar]) if lang == "en" and bar > 0 and not m else parts)
        else:  # Chinese parts without a role word are company names and slogans; else up to the role word
            role_tail = "(.*(?:" + _ROLE_WORDS_CJK.pattern[3:-2] + "))"
            cut = [m2.group(1) for m2 in (re.match(role_tail, r) for r in parts) if m2]
            roles.extend(cut or (parts if len(parts) == 1 else []) or [
                r for b in _BRACKET_RE.findall(title) for r in title_parts(b) if _looks_like_role(r, lang)][:40])
    for line in lines:
        m = _HIRING_LIST_RE.search(line)
        if m and len(m.group(1)) < 240:
            items = re.split(r"\s*(?:[,，、;；&]|\band\b|\bor\b)\s*", m.group(1).rstrip(". "))
            roles.extend(r for r in items if _looks_like_role(r, lang))
    for line in lines if lang == "en" else ():
        for m in re.finditer(r"(?i)\b(?:looking\s+for|seeking|we\s+need|need\s+is\s+for)\s", line):
            rest = re.sub(_ROLE_NOISE_RE, " ", line[m.end() : m.end() + 240])
            rest = re.split(r"\s(?:who|to|that|with|for|in|at|on|based|from|across|but)\s|[.!?;:]", rest, maxsplit=1)[0]
            for item in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|as\s+well\s+as|plus)\s+", rest):
                item = re.sub(r"\s+", " ", re.sub(r"^(?:[a-z][\w'-]*\s+)+", "", item.strip())).strip()
                titled = re.fullmatch(
                    r"(?:[A-Z0-9][\w+#./-]*|of|and|for|&)(?: (?:[A-Z0-9][\w+#./-]*|of|and|for|&))*", item)
                if item[:1].isupper() and len(item.split()) <= 5 and titled and _looks_like_role(item, "en"):
                    roles.append(item)
    for sec in sections:
        if _ROLE_HEADING_RE.match(sec.heading):
            for ln in sec.lines[:12]:
                words = _role_core(ln).split()
                specialty = lang == "en" and "http" in ln and bool(_LIST_PREFIX_RE.match(ln.strip())) and \
                    len(words) <= 4 and bool(re.fullmatch(
                        r"(?:[A-Z0-9][\w+#./-]*|of|and|for|&)(?: (?:[A-Z0-9][\w+#./-]*|of|and|for|&))*", " ".join(words)))
                if _looks_like_role(_role_core(ln), lang) or specialty:
                    roles.append(ln)
    prev_role = ""
    specialties: dict[str, list[str]] = {}  # English: a role name -> the specialties in parentheses of its lines
    for line in lines[1:] if header else lines:
        stripped = line.strip()
        has_url = bool(_URL_ONLY_RE.search(stripped))
        core = _role_core(stripped)
        listed = bool(_LIST_PREFIX_RE.match(stripped)) or stripped.endswith((":", "："))
        took = len(roles)
        if has_url and not core and prev_role:
            roles.append(prev_role)
        elif (has_url or listed or len(core) <= 60) and 2 <= len(core) <= 70 and _looks_like_role(core, lang):
            if not core.endswith(("。", ".", "!", "?", "！")) and (has_url or listed or len(core.split()) <= 6):
                roles.append(core)
        head = re.split(r"\s+[-–—|]\s+|:\s", core, maxsplit=1)[0].rstrip()
        titled = re.fullmatch(r"(?:[A-Z0-9][\w+#./-]*|of|and|for|&)(?: (?:[A-Z0-9][\w+#./-]*|of|and|for|&))*", head)
        if len(roles) == took and len(core) > 2 and (has_url or listed or " | " in stripped or titled):
            if head != core and 2 <= len(head) <= 60 and len(head.split()) <= 6 and _looks_like_role(head, lang) \
                    and not _ROLE_HEADING_RE.match(head):
                roles.append(head)
        m = re.search(r"\(([A-Za-z][A-Za-z &/+#.-]{1,30})\)", stripped)
        if lang == "en" and len(roles) > took and m and not _LOC_HINT_RE.search(m.group(1)) \
                and not _EMPLOYMENT_RE.match(m.group(1)):
            quals = specialties.setdefault(_clean_role(re.sub(r"(?<=[A-Za-z])\s*/\s*(?=[A-Za-z])", " or ", roles[-1])), [])
            if normalize_line(m.group(1)) not in quals:
                quals.append(normalize_line(m.group(1)))
        prev_role = core if (core and len(core) <= 70 and _looks_like_role(core, lang)) else ""
        for b in _BRACKET_RE.findall(stripped):
            if lang != "en" and _looks_like_role(b, lang) and len(b) <= 20:
                roles.append(b)
    seen: dict[str, None] = {}
    for r in roles:
        c = _clean_role(re.sub(r"(?<=[A-Za-z])\s*/\s*(?=[A-Za-z])", " or ", r) if lang == "en" else r)
        if c and len(c) >= 2:
            quals = specialties.get(c, [])
            for name in [f"{c} {q}" for q in quals] if len(quals) >= 2 else [c]:
                seen.setdefault(name, None)
    return list(seen)[:40]


_MENTION_HEAD = (
    r"engineer|developer|designer|manager|scientist|lead|architect|analyst|recruiter|researcher|director|"
    r"intern|sre|devops|administrator|specialist|consultant|writer|marketer|executive|representative|"
    r"strategist|advocate|generalist|technician|coordinator|officer|accountant|counsel|associate|swe|pm|"
    r"operator|partner|tester|head"  # one list with the verifier's role nouns (extract.ROLE_NOUNS)
)
_MENTION_RE = re.compile(rf"(?i)\b({_MENTION_HEAD})(?:e?s)?\b")
_MODS_BEFORE_RE = re.compile(r"([\w+#.-]+)[ \t/]+$")
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


def _role_context(line: str, lang: str) -> bool:
    """Lines where job titles are announced rather than merely mentioned: short lines, list items,
    lines with an application link and sentences about hiring."""
    if _HIRING_WORDS_RE.search(line) or _LIST_PREFIX_RE.match(line) or _URL_ONLY_RE.search(line):
        return True
    return len(line.split()) <= 12 if lang == "en" else len(line) <= 30


def _singular(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _mentions(text: str, lang: str) -> tuple[str, ...]:
    """Job-title phrases mentioned anywhere in the text ("a Senior Data Engineer", "前端开发工程师"),
    normalized (lowercase, singular, at most three modifiers, no leading function words)."""
    out: dict[str, None] = {}
    clean = _URL_ONLY_RE.sub(" \n ", text)  # Latin job titles occur in every language's postings
    if True:
        for m in _MENTION_RE.finditer(clean):
            before = clean[max(0, m.start() - 80) : m.start()]
            keep: list[str] = []
            while len(keep) < 3:
                mm = _MODS_BEFORE_RE.search(before)
                if mm is None:
                    break
                w = mm.group(1)
                lw = w.lower().strip(".-")
                titled = w[:1].isupper() and lw not in _MENTION_STOP
                if not lw or not re.fullmatch(r"[a-z][a-z+#.-]*", lw) or not (lw in _MENTION_MODS or titled):
                    break
                keep.append(_singular(lw))
                before = before[: mm.start()]
            head = m.group(1).lower()
            if keep or head in ("sre", "swe", "pm", "devops", "cto"):
                out.setdefault(" ".join([*reversed(keep), head]), None)
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


def role_families(title: str, lines: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """Role families (frontend, backend, sales, smart contract, ...) named in the title or in lines that
    announce jobs (short lines, list items, hiring sentences, lines with a link); sorted."""
    text = "\n".join([title, *(ln for ln in lines if _role_context(ln, lang))])
    return tuple(name for name, rx in _FAMILY_RES if rx.search(text))


# --------------------------------------------------------------------------- main entry

_HEADING_RE = re.compile(r"^\s{0,3}(#{1,6})\s*(.*?)\s*#*\s*$")
_CJK_HEADING_RE = re.compile(r"^\s*[【■◆●□◇〈《\[]([^】\]〉》]{1,24})[】\]〉》]\s*$|^\s*([^\s：:]{1,12})\s*[：:]\s*$")
_PLACEHOLDER_RE = re.compile(r"(?<![A-Za-z])(?:XX+|xx+)(?![A-Za-z])|城市名|公司名|AAA-ZZZ")
_SITE_RE = re.compile(r"^https?://(?:www\.)?([^/]+)", re.IGNORECASE)


def _str(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, list | tuple):
        return " ".join(_str(x) for x in v)
    return str(v)


def extract(posting: Mapping[str, Any]) -> Extracted:
    """Main text, sections and job fields of one posting (JSON object per DESIGN.md).

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
    for ln in raw.split("\n"):
        ln = _WS_RE.sub(" ", ln).strip()
        if not ln:
            continue
        m = _HEADING_RE.match(ln)
        cm = None if m else _CJK_HEADING_RE.match(ln)
        if m or cm:
            h = m.group(2) if m else (cm.group(1) or cm.group(2))
            if cur or heading:
                sections.append(Section(heading, tuple(cur)))
            heading, cur = h.strip(), []
            lines.append(ln if m is None else h.strip())
            continue
        lines.append(ln)
        cur.append(ln)
    if cur or heading:
        sections.append(Section(heading, tuple(cur)))
    tup_lines = tuple(lines)

    title = _str(posting.get("title")).strip()
    company = _str(posting.get("company")).strip()
    location = _str(posting.get("location")).strip()
    lang = _str(posting.get("lang")).strip().lower()[:2]
    if lang not in ("en", "zh", "ja"):
        lang = detect_lang(title + "\n" + raw)
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
    if not location:
        for ln in tup_lines[:40]:
            m = re.match(r"^(?:[-*•]\s*)?(?:工作地点|工作地點|地点|勤務地|location|based in)\s*[:：]?\s*(.{2,60})$", ln, re.IGNORECASE)
            if m:
                location = m.group(1).strip()
                found.append("location")
                break
    if not location:
        for sec in sections:
            if sec.lines and len(sec.lines[0]) <= 60 and re.match(
                    r"(?i)^(?:工作地点|工作地點|办公地点|辦公地點|工作城市|地点|勤務地|勤務場所|location|office)\s*[:：]?$", sec.heading) \
                    and not (lang == "en" and sec.heading.lower().startswith("office")):
                location = sec.lines[0]
                found.append("location")
                break
    if location and lang != "en":
        core = re.sub(r"[(（][^()（）]{0,40}[)）]", " ", location).strip()
        location = core if len(core) >= 2 else location
        anywhere = (r"(?i)(?:可|支持|接受|フル)?(?:远程|遠程|remote|リモート|在宅)(?:办公|辦公|工作|勤務)?(?:可)?|"
                    r"地点不限|不限|均可|全国|anywhere")
        location = location if re.search(r"[^\W\d_]", re.sub(anywhere, " ", location)) else ""
    if _PLACEHOLDER_RE.search(title):  # an unfilled issue template ("XXXX 公司诚聘 XX工程师") names no job
        title = ""
    emails, phones, urls = _contacts(desc + "\n" + raw)
    header = pipe_line or (bool(tup_lines) and title == tup_lines[0])
    roles = first_roles + _roles(tup_lines, tuple(sections), title, lang, "title" not in found, header)
    roles = list(dict.fromkeys(_clean_role(r) for r in roles if _clean_role(r) and not _PLACEHOLDER_RE.search(r)))
    site = _str(posting.get("source")).strip().lower()
    if not site:
        m = _SITE_RE.match(_str(posting.get("url")))
        site = m.group(1).lower() if m else ""
    posted = posting.get("posted_at")
    try:  # an ISO posted_at, else first_seen (posted_at is kept as the source wrote it)
        datetime.fromisoformat(str(posted).replace("Z", "+00:00"))
    except ValueError:
        posted = posting.get("first_seen") or posted
    posted = posted or posting.get("first_seen") or None
    return Extracted(
        id=str(posting["id"]),
        lang=lang,
        text="\n".join(tup_lines),
        lines=tup_lines,
        sections=tuple(sections),
        title=title,
        company=company,
        location=location,
        emails=emails,
        phones=phones,
        urls=urls,
        roles=tuple(roles[:40]),
        mentions=_mentions(title + "\n" + "\n".join(ln for ln in tup_lines if _role_context(ln, lang)), lang),
        salaries=_salaries(tup_lines + ((title,) if title else ())),
        families=role_families(title, tup_lines, lang),
        posted_at=str(posted) if posted else None,
        site=site,
        fields_found=tuple(found),
    )
