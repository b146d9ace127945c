"""Tokenizer-aware profile signatures (`profile_sig`): TextProfileSignature over real words.

A posting is signed over its job text, PROFILE_FIELDS = title + description: the fields the configset
gives Solr's SignatureUpdateProcessorFactory. Not company (SIG_VERSION 2): one site fills it, another
leaves it empty, for the same ad (3 of the 5 held-out Japanese duplicates whose v1 profile_sig differed).
Texts and postings without Han or kana, or whose Han/kana make less than CJK_MIN_SHARE (1/10) of their
letters and digits (SIG_VERSION 2: an English posting with a salary in 元), are signed exactly as Solr's
TextProfileSignature / SignatureUpdateProcessorFactory would (signatures.textprofile), so for
Latin-script (and Korean, Cyrillic, ...) postings `profile_sig` equals Solr's `signature`; that
equality forbids touching their text, so the title rule below applies to CJK postings only.

Postings with Han or kana ("CJK postings") keep the same structure (field names sorted; per present
field the profile of its name, then of each value; all profiles into one MD5) but a value's profile is
built from real words, with rules chosen on labeled pairs (benchmarks/eval_profile.py):

* The title without trailing site tags (title_core, SIG_VERSION 2): bracketed segments ("…【急募】",
  "… [Engineering]", "…（4名）") and segments without digits after a separator ("… ／ 営業職",
  "…｜正社員", "… - 研发"; "30K - 50K" stays), each up to TITLE_TAG_MAX characters, removed one after another while two word characters remain:
  a site's category appended to an ad's title does not change the ad (the other 2 of those 5). A role
  after a separator goes too ("后端 | 前端" signs "后端"): the description tells such jobs apart
  (no stress collision). Leading tags stay: in Chinese titles they name the city ("[上海] …"); only promotional
  ones go (SIG_VERSION 5: "【急募】…", "★未経験歓迎★…", "[急聘]…", TITLE_PROMO_WORDS), which a board adds and removes.

* The description without the parts one ad changes between its versions (volatile_core, SIG_VERSION 5): the
  sections under a benefits / selling-points / how-to-apply / headcount heading, up to the next heading
  (【待遇・福利厚生】, ■ここがポイント, ## 応募方法, **联系方式**, <h3>福利</h3>; VOLATILE_SECTIONS), and listing-data
  lines anywhere (情報更新日：…, 応募締切：…, 募集人数：…, 更新时间：…; VOLATILE_LINES). The labeling guide counts
  such changes as small updates of the same ad (TEMPORAL); a long description's quantization absorbed them only
  when no word crossed a multiple of quant. The dropped words still count towards quant (_quant_max): without
  them a short ad's rest would be signed word for word, a typo fixed included. Generated revisions keep their
  signature on 75 % ja / 95 % zh of pairs in SIG_VERSION 4, 94.5 % / 99.4 % now (benchmarks/eval_profile.py
  --synthetic 200). Pay amounts stay: two pay tiers of one job are PARTIAL.

* The description's job facts (facts_profile, SIG_VERSION 4): store / station / address units and the
  employment type, pay unit, shift and hours of its workplace and terms lines (signatures.jobfacts),
  one profile line each, unquantized, after the fields; none, no extra profile. Job boards carry one
  company's template for several stores or for a full-time and a part-time job: the texts differ only
  there, in words written once, which a long description's quantization drops.

* HTML tags dropped and character references decoded (descriptions may be HTML or plain text).
* Width folding (NFKC of fullwidth Latin/digits, halfwidth katakana, compatibility
  ideographs: variants are the same word); URLs and e-mail addresses removed
  (contact details change between reposts of one job and say nothing about the job).
* CJK runs (signatures.script) are segmented: jieba 0.42.1 words (via jieba-rs, precise mode,
  HMM off) for Chinese, MeCab + unidic-lite for Japanese without particles, auxiliaries and symbols.
  CJK words count from CJK_MIN_WORD_LEN characters. Text between CJK runs uses Solr's tokenizer and
  its length rule (tokens longer than 2).
* Quantization: quant = max(1, round(maxFreq * CJK_QUANT_RATE)), rate 0.4. Stock Solr forces
  quant >= 2 as soon as any token repeats, which drops every single-occurrence token; a segmented
  title that repeats one word (17 % of the Chinese, 13 % of the Japanese titles at hand) then keeps
  only that word. Here short fields keep all words and long descriptions keep their frequent words,
  counts rounded down to multiples of quant.
* Profile lines "word count" sorted by quantized count (descending), then word (code point order).

Evidence (eval_profile.py --ablations): on the dev pairs every variant has precision 1.0; stock
collides on 5/114 (zh) and 6/68 (ja) "stress" pairs (different jobs given one title and company),
profile_sig on none up to rate 0.5 (zh: 1 at 0.6). Rate 0.4 has the best recall in both languages
(zh 0.36, ja 0.42 vs stock 0.30 / 0.34). Counting 1-character CJK words costs zh a stress collision
(ja would gain recall: kept at 2 for both); keeping contacts groups fewer zh reposts; jieba's HMM
changes nothing. (Those figures: SIG_VERSION 1, all dev pairs.)

SIG_VERSION 2 (eval_profile.py, train split: dev pairs of train clusters + blind-labeled train pairs):
precision 1.0 before and after in zh, ja, en; recall on those pairs unchanged (zh 0.224; ja has 2
duplicate train pairs, both reworded); no stress collision added (zh 1/465, ja 0/419). Over all
postings, a company filled in or dropped keeps profile_sig for 100 % (v1 0 %), a site category appended
to the title for 100 % ja / 97 % zh (v1 0 % / 1 %; the rest are mostly-Latin postings, signed as Solr
does). The CJK share rule: P/R equal for shares 0.05-0.2, zh colliding postings 61 -> 60; without it
tests/test_dedup.py's generated English postings (a salary in 元) fall to precision 0.79. Rejected (--ablations): dropping leading title tags too (two templates told apart only by
their leading tag merge; in Chinese titles it is mostly the city), and dropping numbers from titles (two
salary tiers of one job, labeled PARTIAL, merge): each one false merge, one or no duplicate gained.

Speed (benchmarks/bench_profile.py): most Chinese postings are "plain" (jieba-range Han, ASCII,
punctuation, emoji): one numpy pass over the UTF-16 code units of all their values (two lookup tables)
gives each value's Han runs joined by single spaces and its ASCII tokens, and refuses any value that
needs width folding, kana or Solr's full tokenizer; the batch API shares that pass among 256
postings. One jieba-rs call per value (pieces separated by a space are cut independently, so the
words equal per-run cutting); words and tokens are length-filtered and counted in C (hashing jieba's
1-character words cost as much as segmenting); profile lines are joined per count. Other CJK values
take the general path: regex split into CJK runs and the text between them; Japanese runs are parsed
by MeCab one at a time (a run's words must not depend on its neighbours) through a per-run cache.
posting_profile_signatures(postings, workers=N) spreads a large batch over N processes.
tests/test_profile.py checks all of it against a plain reference implementation.
"""

from __future__ import annotations

import functools
import hashlib
import html
import multiprocessing
import multiprocessing.context
import re
import threading
from collections import (
    Counter,
    _count_elements,  # type: ignore[attr-defined]  # Counter.update's C loop
)
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import compress, groupby, repeat
from operator import gt, le
from typing import NamedTuple

import numpy as np

from signatures import jobfacts, script
from signatures.segment import get_segmenter
from signatures.textprofile import (
    java_profile,
    java_string_value,
    profile_digest,
    solr_fields_signature,
    solr_text_signature,
    solr_tokens,
    tokenless_signatures,
)

PROFILE_FIELDS = ("title", "description")
"""The fields profile_sig signs, and the configset's signature `fields` (tests/test_solr_configset.py
checks they agree): the job text. Not company: one site fills it, another leaves it empty, same ad."""
_SORTED_FIELDS = tuple(sorted(PROFILE_FIELDS))
TITLE_FIELD = "title"

CJK_QUANT_RATE = Fraction(2, 5)
"""quant = max(1, round-half-up(maxFreq * rate)) for CJK values; exact rational arithmetic."""
_RATE = (CJK_QUANT_RATE, CJK_QUANT_RATE.numerator, CJK_QUANT_RATE.denominator)  # Fraction attrs are slow
CJK_MIN_WORD_LEN = 2
"""CJK words are kept from this many characters (most Chinese/Japanese content words have 2+)."""
NON_CJK_MIN_TOKEN_LEN = 2
"""Solr's minTokenLen for the text between CJK runs: tokens must be longer than this."""

# Contact details: "http(s)://..." and "www...." ASCII runs, e-mail addresses (ASCII only: after width
# folding an address never legitimately contains CJK text next to it). Literal-prefix patterns and an
# '@'-anchored e-mail scan: one general regex over the whole text cost as much as segmentation.
_URL_RE = re.compile(r"https?://[!-~]+")
_WWW_RE = re.compile(r"www\.[!-~]+")
_EMAIL_LEFT = re.compile(r"[A-Za-z0-9._%+-]+\Z")
_EMAIL_RIGHT = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def strip_contacts(text: str) -> str:
    """`text` with URLs and e-mail addresses replaced by a space (they change between reposts)."""
    if "http" in text:
        text = _URL_RE.sub(" ", text)
    if "www." in text:
        text = _WWW_RE.sub(" ", text)
    at = text.find("@")
    if at < 0:
        return text
    out: list[str] = []
    pos = 0
    while at >= 0:
        right = _EMAIL_RIGHT.match(text, at + 1)
        left = _EMAIL_LEFT.search(text, max(pos, at - 64), at) if right else None
        if right and left:
            out.append(text[pos : left.start()])
            out.append(" ")
            pos = right.end()
            at = text.find("@", pos)
        else:
            at = text.find("@", at + 1)
    out.append(text[pos:])
    return "".join(out)


_TAG_RE = re.compile(r"<(?:[A-Za-z/!?][^>]*)>")
# CJK runs as a capturing split: even items are the text between runs, odd items the runs.
_CJK_SPLIT = re.compile(f"({script.CJK_RE.pattern})")


def strip_markup(text: str) -> str:
    """`text` without HTML tags (each becomes a space) and with character references decoded, so an
    HTML and a plain-text copy of one posting give the same words."""
    if "<" in text:  # no tag reaches past the last '>' (scanning there from every '<' is quadratic)
        k = text.rfind(">") + 1
        text = _TAG_RE.sub(" ", text[:k]) + text[k:]
    if "&" in text:
        text = html.unescape(text)
    return text


# Site boilerplate around a title: a trailing bracketed tag ("… [Engineering]", "…【急募】", "…（4名）")
# or a trailing segment without digits after a separator ("… ／ 営業職", "…｜正社員", "… - Tokyo"; with
# digits it is a salary range or a date, "30K - 50K", and stays), each at most TITLE_TAG_MAX characters.
# A tag spans at most _TAG_SPAN characters and the title is right-stripped, so each search scans only
# the title's last _TAG_SPAN characters: constant time per tag, whatever the title.
TITLE_TAG_MAX = 20
"""Longest trailing title segment (inside brackets, or after a separator) read as a site's tag."""
TITLE_TAGS_MAX = 8
"""At most this many tags are removed from one title (bounds the work on a pathological title)."""
_BRACKETS = "[]［］【】〔〕〈〉《》＜＞()（）〖〗"
_NOT_BRACKET = "[^" + re.escape(_BRACKETS) + "]"
_TITLE_TAG = re.compile(
    f"(?:[\\[［【〔〈《＜(（〖]{_NOT_BRACKET}{{1,{TITLE_TAG_MAX}}}[\\]］】〕〉》＞)）〗]"
    f"|(?:[／｜|]|\\s[/\\-–—]\\s)[^／｜|{re.escape(_BRACKETS)}\\d]{{1,{TITLE_TAG_MAX}}})\\s*\\Z"
)
_WORD_CHAR = re.compile(r"[^\W_]")
_TAG_SPAN = TITLE_TAG_MAX + 3  # a separator " - " (3) or two brackets (2) around the tag


#: Words of the promotional tags a board puts before a title and takes away again ("【急募】", "【未経験歓迎・高時給】",
#: "★急募★", "[急招]"): SIG_VERSION 5 drops such a leading tag when it holds nothing else.
TITLE_PROMO_WORDS = (
    "急募", "大募集", "積極採用", "未経験歓迎", "未経験者歓迎", "未経験OK", "経験者優遇", "高時給", "高収入", "高月給",
    "日払い", "週払い", "日払いOK", "新着", "NEW", "注目", "PR", "急招", "急聘", "热招", "高薪", "诚聘", "直招",
)
_PROMO_WORDS = "(?:" + "|".join(map(re.escape, sorted(TITLE_PROMO_WORDS, key=len, reverse=True))) + ")"
_PROMO_TAG = re.compile(
    rf"\s*[\[［【〔〈《＜(（〖★☆◆]\s*{_PROMO_WORDS}(?:[・/／、,，!！\s]{{0,3}}{_PROMO_WORDS}){{0,5}}[!！]?\s*"
    rf"[\]］】〕〉》＞)）〗★☆◆]"
)


def title_core(title: str) -> str:
    """`title` without trailing site tags (_TITLE_TAG: bracketed segments, segments after a separator),
    removed one after another while at least two word characters remain before them: a site category
    appended to the title of an ad does not change the ad. Leading tags stay (often a city: "[上海] …"),
    unless they are promotional tags (TITLE_PROMO_WORDS: "【急募】…", SIG_VERSION 5)."""
    core = title.rstrip()
    for _ in range(TITLE_TAGS_MAX):
        m = _PROMO_TAG.match(core)
        if m is None or len(_WORD_CHAR.findall(core, m.end(), m.end() + 8)) < 2:  # < 2 word characters left
            break
        core = core[m.end() :].lstrip()
    for _ in range(TITLE_TAGS_MAX):
        m = _TITLE_TAG.search(core, max(0, len(core) - _TAG_SPAN))
        if m is None:
            break
        head = core[: m.start()].rstrip()
        first = _WORD_CHAR.search(head)
        if first is None or _WORD_CHAR.search(head, first.end()) is None:  # < 2 word characters left
            break
        core = head
    return core


DESCRIPTION_FIELD = "description"
FOOTER_LINES_MAX = 3
"""At most this many trailing platform-footer lines are dropped from a CJK description (footer_core)."""
_FOOTER_TAIL = 400  # footer_core looks at this many trailing characters
# A short last line (plain or <p>/<br> separated) naming where the ad is listed or the listing's own data:
# "※この求人情報は「…」に掲載されています", "掲載期間：…", "求人番号：…", "本职位信息由…发布，未经许可请勿转载",
# "来源：…", "发布时间：…".
_FOOTER_RE = re.compile(
    r"(?:\n|<p[^<>]{0,40}>|<br\s*/?>)\s*[^\n<>]{0,80}"
    r"(?:この求人(?:情報)?は|求人情報は|掲載期間|掲載開始|掲載終了|掲載日|に掲載|最終更新|更新日|求人番号|求人ID|"
    r"本(?:职位|岗位|招聘)信息|信息(?:由|来自)|转载|來源[:：]|来源[:：]|发布(?:时间|日期)|更新时间|浏览(?:次数|量))"
    r"[^\n<>]{0,80}(?:</p>)?\s*$"
)


def footer_core(description: str) -> str:
    """A CJK description without up to FOOTER_LINES_MAX trailing platform footers (SIG_VERSION 3): the job
    board that carried the ad names itself, its listing dates or a reprint notice; the ad is the same."""
    core = description
    for _ in range(FOOTER_LINES_MAX):
        m = _FOOTER_RE.search(core, max(0, len(core) - _FOOTER_TAIL))
        if m is None or not core[: m.start()].strip():
            break
        core = core[: m.start()]
    return core


#: Headings of the parts of a job-board ad that change between versions of one ad (SIG_VERSION 5): benefits, the
#: ad's selling points, how to apply and the selection steps, the headcount, the listing period. The labeling
#: guide counts such changes as small updates of the same job (TEMPORAL: "benefits changed, a note added").
#: A heading starts with one of these words.
VOLATILE_SECTIONS = (
    "福利厚生", "待遇・福利", "待遇/福利", "待遇／福利", "ここがポイント", "アピールポイント", "この仕事の魅力", "仕事の魅力", "応募方法", "応募について",
    "応募する", "応募の流れ", "選考", "お問い合わせ", "問い合わせ", "お気軽に", "ご連絡", "連絡先", "募集人数", "採用人数", "掲載期間",
    "福利", "职位亮点", "岗位亮点", "职位福利", "联系方式", "如何申请", "应聘方式", "投递方式", "简历投递",
    "招聘人数", "Benefits", "Perks", "Contact", "How to apply",
)
#: One-line listing data anywhere in a CJK description ("情報更新日：…", "応募締切：…", "招聘人数：3人"): dropped.
VOLATILE_LINES = (
    "情報更新日", "更新日", "最終更新", "掲載開始日", "掲載開始", "掲載終了日", "掲載日", "掲載期間", "応募締切", "応募期限",
    "募集期間", "募集人数", "採用人数", "更新时间", "更新日期", "发布时间", "发布日期", "截止日期", "截止时间", "招聘人数",
)
VOLATILE_SECTION_LINES = 15
"""At most this many lines after a volatile heading are dropped (an unrecognized next heading costs no more)."""
# Headings that end a volatile section: a marked line ("【給与】", "■勤務地", "## 薪资", "<h3>" / "<dt>" in HTML), a
# short line ending with a colon, or a bare known heading word (jobfacts' workplace and terms headings, ...).
_KNOWN_HEADINGS = (*VOLATILE_SECTIONS, *jobfacts.WORKPLACE_WORDS, *jobfacts.TERMS_WORDS,
                   "仕事内容", "業務内容", "応募資格", "対象となる方", "必須条件", "歓迎条件", "休日", "休暇", "会社情報",
                   "会社概要", "企業情報", "岗位职责", "工作职责", "工作内容", "职位描述", "任职要求", "岗位要求", "职位要求",
                   "公司介绍", "公司简介", "团队介绍", "地点", "工作环境", "加分项", "PS")
_MARKS = "#■◆●□◇〈《\\[【＜<▼▽★☆◎▶"
_HEADING_NAME = r"[^\s:：。、，,.!！?？；;]{1,20}?"
_SECTION_HEADING_RE = re.compile(
    rf"(?:#{{1,6}}|[{_MARKS}])[ \t\u3000]*{_HEADING_NAME}[ \t\u3000]*[】\]〉》＞>]?[ \t\u3000]*[:：]?"
    rf"|#{{1,6}}[^\n。]{{1,40}}"  # a markdown heading may hold spaces: "## 招聘哲学 & 薪酬谈判"
    rf"|{_HEADING_NAME}[ \t\u3000]*[:：]"
    rf"|(?:{'|'.join(map(re.escape, _KNOWN_HEADINGS))})"
)
_BARE_HEADING_RE = re.compile(r"[^\W_]{1,10}")
_EMOJI_OR_MARK = rf"(?:#{{1,6}}|[{_MARKS}]|[^\w\s]){{0,3}}[ \t\u3000]*"
_VOLATILE_HEADING_RE = re.compile(
    rf"{_EMOJI_OR_MARK}(?:{'|'.join(map(re.escape, VOLATILE_SECTIONS))})"
    rf"[^\s:：。、，,.!！?？/／&＆]{{0,8}}?[ \t\u3000]*[】\]〉》＞>]?[ \t\u3000]*[:：]?"  # one section: "問い合わせ対応/来客対応" lists duties
)
_VOLATILE_LINE_RE = re.compile(
    rf"{_EMOJI_OR_MARK}(?:{'|'.join(map(re.escape, VOLATILE_LINES))})[^\n:：】]{{0,6}}[:：】]")


def _words_pattern(words: Iterable[str]) -> str:
    """A regex for any of `words`, grouped by first character ("福(?:利待遇|利厚生|利)|..."): the engine tries one
    group per position instead of every word (2x faster than a flat alternation); longest words first."""
    groups: dict[str, list[str]] = {}
    for w in sorted(set(words), key=len, reverse=True):
        groups.setdefault(w[0], []).append(re.escape(w[1:]))
    return "|".join(f"{re.escape(c)}(?:{'|'.join(rest)})" for c, rest in groups.items())


_VOLATILE_WORDS = (*VOLATILE_SECTIONS, *VOLATILE_LINES)
#: A line break, up to 8 marks or spaces (【, ■, ##, **, an emoji), a volatile word: the lines volatile_split reads.
#: The literal line break, a look-ahead for the words' first characters and the words grouped by first character
#: make it faster than a search for the words alone (which then had to look back for each one's line start).
_VOLATILE_START_RE = re.compile(
    rf"\n[^\w\n]{{0,8}}(?=[{re.escape(''.join(sorted({w[0] for w in _VOLATILE_WORDS})))}])"
    rf"(?:{_words_pattern(_VOLATILE_WORDS)})")
# HTML headings and definition-list terms become marked lines; other block tags end a line.
_HTML_HEADING_RE = re.compile(r"(?i)<(?:h[1-6]|dt|th)\b[^<>]{0,200}>")
_BLANK_LINES_RE = re.compile(r"\n(?:[ \t\u3000]*\n)+")
_HTML_BLOCK_RE = re.compile(r"(?i)</?(?:br|p|li|div|h[1-6]|tr|ul|ol|dl|dt|dd|th|td|table)\b[^<>]{0,200}>")


def volatile_core(description: str) -> str:
    """A CJK description without the parts one ad changes between versions (SIG_VERSION 5): the sections under a
    VOLATILE_SECTIONS heading (benefits, selling points, how to apply, headcount) up to the next heading, and
    VOLATILE_LINES listing data (update date, deadline, headcount). Unchanged when nothing else would remain."""
    return volatile_split(description)[0]


def volatile_split(description: str) -> tuple[str, str]:
    """(volatile_core(description), the lines it dropped); (description, "") when it drops nothing. Both are split
    at line ends, so the words of the two are the words of the description. Only the lines that start with a
    volatile word are read one by one."""
    # one site's ﾎﾟｲﾝﾄ heading is another's ポイント; a Windows copy's "\r\n" is one line break, not a blank line
    text = script.unify_line_breaks(script.fold_width(description))
    if "<" in text:  # one line per block, no blank lines (a blank line is no paragraph break in HTML)
        text = _BLANK_LINES_RE.sub("\n", _HTML_BLOCK_RE.sub("\n", _HTML_HEADING_RE.sub("\n## ", text)))
    text = "\n" + text  # every line starts after a line break
    parts: list[str] = []
    gone: list[str] = []
    pos = 1
    for m in _VOLATILE_START_RE.finditer(text):  # a volatile word at the start of a line (after marks)
        start = m.start() + 1
        if start < pos:  # in a section dropped already
            continue
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = _heading_text(text[start:end])
        if _VOLATILE_HEADING_RE.fullmatch(line) is not None:
            stop = _section_end(text, end)
        elif _VOLATILE_LINE_RE.match(line) is not None:
            stop = end
        else:
            continue
        parts.append(text[pos:start])
        gone.append(text[start:stop])
        pos = stop
    if not parts:
        return description, ""
    parts.append(text[pos:])
    core = "".join(parts)
    return (core, "\n".join(gone)) if core.strip() else (description, "")


def _heading_text(line: str) -> str:
    """A line as its heading is matched: stripped, without markdown bold ("**联系方式：**")."""
    return line.replace("**", "").strip()


def _section_end(text: str, pos: int) -> int:
    """Where the section whose heading line ends at `pos` ends: the start of the next heading line (a marked or
    known heading, or a short bare line after a blank line: "地点"), at most VOLATILE_SECTION_LINES non-blank lines
    on."""
    left, blank = VOLATILE_SECTION_LINES, False
    while pos < len(text) and left:
        start = pos + 1
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = _heading_text(text[start:end])
        if not line:
            blank = True
        elif _SECTION_HEADING_RE.fullmatch(line) is not None or blank and _BARE_HEADING_RE.fullmatch(line):
            return start
        else:
            left -= 1
            blank = False
        pos = end
    return pos


def _clean(text: str) -> str:
    """Drop markup, width-fold, drop contacts: the text whose CJK runs and between-text are signed."""
    return strip_contacts(script.fold_width(strip_markup(text)))


def _prepare(text: str) -> tuple[list[str], str]:
    """Drop markup, width-fold, drop contacts, split: (CJK runs, the text between them, spaced)."""
    parts = _CJK_SPLIT.split(_clean(text))
    return parts[1::2], " ".join(parts[0::2])


_KANA_CHAR = re.compile(script.KANA_RE.pattern[:-1])


def _runs_language(runs: Sequence[str]) -> str:
    """script.detect_language's rule on CJK runs (all Han or kana): "ja" or "zh"."""
    joined = "".join(runs)
    if _KANA_CHAR.search(joined) is None:
        return script.ZH
    kana = sum(map(len, script.KANA_RE.findall(joined)))
    return script.JA if kana and kana >= script.JA_KANA_SHARE * len(joined) else script.ZH


_NON_ASCII_WORD_CHAR = re.compile(r"[^\x00-\x7f\W]")
# ASCII letters/digits -> themselves, lowercased; every other byte -> space (a separator)
_ASCII_WORD_TABLE = (
    bytes((c | 0x20 if chr(c).isalpha() else c) if chr(c).isalnum() else 0x20 for c in range(128))
    + b" " * 128
)


def between_tokens(text: str) -> list[str]:
    """solr_tokens(text, NON_CJK_MIN_TOKEN_LEN), with a fast path when no non-ASCII character is a
    word character: then Java's letters/digits are exactly [A-Za-z0-9] and every other character
    separates tokens (Python's \\w covers all Java letters and digits, so the test is safe); the
    fast path maps bytes with one table (lowercase letters, separators to spaces) and splits."""
    if _NON_ASCII_WORD_CHAR.search(text) is None:
        words = text.encode("ascii", "replace").translate(_ASCII_WORD_TABLE).decode("ascii").split()
        return [w for w in words if len(w) > NON_CJK_MIN_TOKEN_LEN]
    return solr_tokens(text, NON_CJK_MIN_TOKEN_LEN)


# --- one-pass preparation of plain Chinese values --------------------------------------------------
# Most Chinese values hold only jieba-range Han, ASCII and non-word characters (punctuation, symbols,
# emoji). For those a numpy pass over the UTF-16 code units does what the general path does with
# several regex passes: no width folding applies (no fullwidth/halfwidth/compatibility characters),
# no kana (the value says nothing for Japanese), the CJK runs are exactly the maximal jieba-range Han
# runs, and the Solr tokens between them are the ASCII letter/digit runs (no other character is a
# Java letter/digit; CJK runs separate tokens like any other non-letter). Two lookup tables map every
# code unit: _HAN_MAP keeps jieba-range Han, marks "not plain" characters (_NOT_PLAIN: any other word
# or CJK character) and surrogates (_SURROGATE: astral characters, checked one by one), turns the rest
# into spaces; _ASCII_MAP keeps ASCII letters/digits, lowercased, and turns the rest into spaces. Both
# keep NUL, which separates the values of a posting processed in one pass (NUL inside a value is
# replaced by a space first: it separates words and tokens either way).
_NOT_PLAIN, _SURROGATE = 0xFFFF, 0xFFFE
_ASTRAL = re.compile("[\U00010000-\U0010ffff\ud800-\udfff]")


@functools.cache
def _maps() -> tuple[np.ndarray, np.ndarray]:
    """(_HAN_MAP, _ASCII_MAP) over all UTF-16 code units, built on first use (~20 ms)."""
    units = "".join(map(chr, range(0x10000)))
    han = np.where(np.fromiter(map(str.isalnum, units), bool, 0x10000), _NOT_PLAIN, 0x20).astype(np.uint16)
    for m in script.CJK_RE.finditer(units):
        han[m.start() : m.end()] = _NOT_PLAIN
    han[0x4E00:0x9FD6] = np.arange(0x4E00, 0x9FD6, dtype=np.uint16)
    han[0xD800:0xE000] = _SURROGATE
    han[:0x80] = 0x20  # ASCII: never Han, never "not plain"
    asc = np.full(0x10000, 0x20, np.uint8)
    for c in range(0x80):
        if chr(c).isalnum():
            asc[c] = ord(chr(c).lower())
    han[0] = asc[0] = 0
    return han, asc


def _astral_needs_general_path(text: str) -> bool:
    """Whether an astral character (or lone surrogate) of `text` is a word or CJK character."""
    return any(
        ch.isalnum() or ch <= "\udfff" or script.CJK_RE.match(ch) is not None for ch in _ASTRAL.findall(text)
    )


def _plain_split(texts: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """Per text (markup and contacts already stripped, no NUL): its jieba-range Han runs joined by
    single spaces (maybe with a leading/trailing space) and its ASCII letter/digit runs, lowercased,
    joined by spaces. None when any text is not plain."""
    joined = "\0".join(texts)
    han_map, ascii_map = _maps()
    a = np.frombuffer(joined.encode("utf-16-le", "surrogatepass"), np.uint16)
    h = han_map.take(a)
    top = h.max() if h.size else 0
    if top >= _SURROGATE:
        if top == _NOT_PLAIN or _astral_needs_general_path(joined):
            return None
        h[h == _SURROGATE] = 0x20
    keep = h != 0x20
    keep[1:] |= keep[:-1]  # a space is kept only right after a non-space: runs of spaces collapse
    hans = h[keep].tobytes().decode("utf-16-le").split("\0")
    return hans, ascii_map.take(a).tobytes().decode("ascii").split("\0")


def _plain_split_many(groups: Sequence[Sequence[str]]) -> list[tuple[list[str], list[str]] | bool]:
    """_plain_split of each group of texts in one numpy pass; False for a group with a character
    that is not plain, True for one with astral characters (_plain_split decides those alone)."""
    if not groups:
        return []
    han_map, ascii_map = _maps()
    a = np.frombuffer(
        "\0".join(["\0".join(g) for g in groups]).encode("utf-16-le", "surrogatepass"), np.uint16
    )
    h = han_map.take(a)
    keep = h != 0x20
    keep[1:] |= keep[:-1]
    hans = h[keep].tobytes().decode("utf-16-le").split("\0")
    asciis = ascii_map.take(a).tobytes().decode("ascii").split("\0")
    out: list[tuple[list[str], list[str]] | bool] = []
    i = 0
    for g in groups:
        j = i + len(g)
        han = hans[i:j]
        joined = "".join(han)
        if "\uffff" in joined:
            out.append(False)
        elif "\ufffe" in joined:
            out.append(True)
        else:
            out.append((han, asciis[i:j]))
        i = j
    return out


def _stripped(text: str) -> str:
    text = strip_contacts(strip_markup(text))
    return text.replace("\0", " ") if "\0" in text else text


class _Value(NamedTuple):
    """A CJK posting's value, ready for counting: its CJK runs, the Solr tokens between them, and its
    kana count (language detection)."""

    runs: list[str]
    tokens: list[str]
    kana: int


def _value(text: str, stripped: str | None = None) -> _Value:
    """Drop markup, width-fold, drop contacts, split into CJK runs and Solr tokens between them.
    `stripped` = _stripped(text) when the caller has it and the one-pass path refused it."""
    if stripped is None:
        stripped = _stripped(text)
        plain = _plain_split([stripped])
        if plain is not None:
            tokens = [t for t in plain[1][0].split() if len(t) > NON_CJK_MIN_TOKEN_LEN]
            return _Value(plain[0][0].split(), tokens, 0)
    # without width forms, folding changes nothing and _clean(text) is the stripped text (NUL and
    # space separate words and tokens alike)
    cleaned = _clean(text) if script.has_width_forms(stripped) else stripped
    parts = _CJK_SPLIT.split(cleaned)
    runs = parts[1::2]
    kana = _kana_count(cleaned) if _KANA_CHAR.search(cleaned) else 0
    return _Value(runs, between_tokens(" ".join(parts[0::2])), kana)


CJK_MIN_SHARE = Fraction(1, 10)
"""A posting (or text) is signed over CJK words when Han/kana make at least this share of its word
characters (markup and contacts stripped); below, it is mostly Latin text with a name or a currency
sign in Han ("薪水 5000 元") and is signed as Solr does: the CJK path's quantization, meant for
segmented words, would keep only a long English text's most frequent words ("and", "the")."""


@functools.cache
def _script_units() -> np.ndarray:
    """Per UTF-16 code unit: 2 for Han/kana (script.CJK_RE), 1 for any other letter or digit, else 0
    (surrogates: 0; astral characters are not counted)."""
    units = "".join(map(chr, range(0x10000)))
    table = np.fromiter(map(str.isalnum, units), np.uint8, 0x10000)
    for m in script.CJK_RE.finditer(units):
        table[m.start() : m.end()] = 2
    table[0xD800:0xE000] = 0
    return table


def mostly_cjk(text: str) -> bool:
    """Whether Han/kana make at least CJK_MIN_SHARE of the letters and digits of `text` (BMP)."""
    kinds = _script_units().take(np.frombuffer(text.encode("utf-16-le", "surrogatepass"), np.uint16))
    cjk, words = np.count_nonzero(kinds == 2), np.count_nonzero(kinds)  # 2x faster than a bincount
    return cjk > 0 and cjk * CJK_MIN_SHARE.denominator >= words * CJK_MIN_SHARE.numerator


@functools.cache
def _kana_units() -> np.ndarray:
    """Per UTF-16 code unit: 1 for kana (script.KANA_RE; all kana are in the BMP), else 0."""
    units = "".join(map(chr, range(0x10000)))
    table = np.zeros(0x10000, np.uint8)
    for m in script.KANA_RE.finditer(units):
        table[m.start() : m.end()] = 1
    return table


def _kana_count(text: str) -> int:
    """Number of kana characters in `text` (one table lookup per code unit; a findall over Japanese
    text builds a string per kana run)."""
    units = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), np.uint16)
    return int(np.count_nonzero(_kana_units().take(units)))


def _language(values: Sequence[_Value]) -> str:
    """_runs_language over all runs of `values`: "ja" when kana make JA_KANA_SHARE of their characters."""
    kana = sum(v.kana for v in values)
    if not kana:
        return script.ZH
    total = sum([sum(map(len, v.runs)) for v in values])
    return script.JA if kana >= script.JA_KANA_SHARE * total else script.ZH


def _value_counts(value: _Value, lang: str) -> Counter[str]:
    """Token counts of one prepared value: segmenter words of >= CJK_MIN_WORD_LEN characters plus
    the Solr tokens between runs."""
    runs, tokens = value.runs, value.tokens
    if not runs:
        return Counter(tokens)
    counts = get_segmenter(lang).word_counts(runs, CJK_MIN_WORD_LEN)
    if tokens:
        counts.update(tokens)
    return counts


_LINE = "{} {}".format


@functools.lru_cache(maxsize=256)
def _name_profile(name: str) -> str:
    """Profile of a field name, as SignatureUpdateProcessorFactory feeds it (memoized: names repeat)."""
    return java_profile(solr_tokens(name))


def cjk_counts(text: str, lang: str | None = None) -> Counter[str]:
    """Token counts of a CJK text: words of its CJK runs with at least CJK_MIN_WORD_LEN characters
    (segmenter "ja" or "zh": `lang`, else detected), plus Solr tokens of the text between runs, after
    width folding and without URLs / e-mail addresses."""
    value = _value(text)
    lang = _language([value]) if lang is None else script.segmenter_language(lang)
    return _value_counts(value, lang)


def cjk_tokens(text: str, lang: str | None = None) -> list[str]:
    """The tokens a CJK text contributes to its profile, as a list (order not significant)."""
    return list(cjk_counts(text, lang).elements())


def cjk_profile(tokens: Iterable[str] | Mapping[str, int], quant_rate: Fraction | None = None,
                max_freq: int | None = None) -> str:
    """Profile string of CJK-value tokens (or their counts, a Counter or dict): "word count" lines, counts quantized
    (quant >= 1); `quant_rate` defaults to CJK_QUANT_RATE, `max_freq` (what quant is computed from) to the
    largest count."""
    counts = tokens if type(tokens) is dict or isinstance(tokens, Counter) else Counter(tokens)
    if not counts:
        return ""
    if max_freq is None:
        max_freq = max(counts.values())
    if quant_rate is None:
        quant_rate = CJK_QUANT_RATE  # read at call time: evaluations patch it
    if quant_rate is _RATE[0]:
        num, den = _RATE[1], _RATE[2]
    else:
        num, den = quant_rate.numerator, quant_rate.denominator
    quant = max(1, (2 * max_freq * num + den) // (2 * den))  # floor(maxFreq * rate + 1/2)
    if quant == 1:
        q = counts
        kept = sorted(counts)
    else:  # words counted >= quant, picked in C (no bytecode per word); few are left to quantize
        kept = sorted(compress(counts, map(le, repeat(quant), counts.values())))
        q = {k: counts[k] // quant * quant for k in kept}
    kept.sort(key=q.__getitem__, reverse=True)  # by quantized count; stable: ties in code point order
    # the lines of one count in one C-level join: "w1 c\nw2 c ... wn c" (a handful of counts per value)
    return "\n".join([f" {c}\n".join(words) + f" {c}" for c, words in groupby(kept, q.__getitem__)])


def profile_signature(text: str) -> str:
    """Profile signature of one text, language detected (Chinese: jieba, Japanese: fugashi); for a
    text without Han/kana exactly Solr's TextProfileSignature (quantRate 0.01, minTokenLen 2)."""
    if not isinstance(text, str):
        raise TypeError(f"profile_signature expects str, got {type(text).__name__}")
    if script.CJK_RE.search(text) is None or not mostly_cjk(_stripped(text)):
        return solr_text_signature(text)
    value = _value(text)
    return profile_digest([cjk_profile(_value_counts(value, _language([value])))])


def profile_evidence(sig: str) -> bool:
    """Whether postings sharing profile signature `sig` share job text: not when it is "" (not signed) or the
    signature of a posting whose title and description yield no token ("-", "!!", "C"): that of the field
    names alone (textprofile.tokenless_signatures), the same for every such posting."""
    return bool(sig) and sig not in tokenless_signatures(PROFILE_FIELDS)


def _field_values(posting: Mapping[str, object], name: str) -> list[str]:
    value = posting[name]
    if type(value) is str:
        return [value]
    values: Sequence[object] = value if isinstance(value, list | tuple) else [value]
    return [java_string_value(v) for v in values]


def posting_profile_signature(posting: Mapping[str, object]) -> str:
    """The `profile_sig` of a posting, over PROFILE_FIELDS (title, description): Solr's `signature` for
    postings without Han/kana, else the same structure over segmented words and the title_core of the
    title. The segmenter (Japanese or Chinese) is chosen once per posting, from the kana share of all
    its CJK runs."""
    prep = _prepare_posting(posting)
    if type(prep) is str:
        return prep
    plain = _plain_split(prep.stripped) if CJK_MIN_WORD_LEN == 2 else None
    return _cjk_posting_signature(prep, plain)


_Fields = list[tuple[str, list[str]]]


def description_core(description: str) -> str:
    """What a CJK posting signs of its description: without trailing platform footers (footer_core), then without
    volatile parts (volatile_core). Footers first: a last volatile section would take a footer in with it, and
    the volatile text still counts towards the quantization (_quant_max)."""
    return _description_split(description)[0]


def _description_split(description: str) -> tuple[str, str]:
    """(description_core(description), the volatile text it dropped); line breaks read alike first ("\r", "\u2028":
    a footer is found after any of them, as after "\n")."""
    return volatile_split(footer_core(script.unify_line_breaks(description)))


class _Prepared(NamedTuple):
    """A CJK posting ready to sign: its (field name, values) in signing order, title_core / description_core
    applied; those values markup- and contact-stripped (_stripped), flat; per flat value the text its core
    dropped as volatile ("" for most), which still counts towards its quantization (_quant_max)."""

    fields: _Fields
    stripped: list[str]
    volatile: list[str]


def _cores(name: str, values: list[str], volatile: list[str]) -> list[str]:
    """What a CJK posting signs of a field's values; the volatile text of each appended to `volatile`."""
    if name == DESCRIPTION_FIELD:
        out = []
        for v in values:
            core, gone = _description_split(v)
            out.append(core)
            volatile.append(gone)
        return out
    volatile.extend([""] * len(values))
    return [title_core(v) for v in values] if name == TITLE_FIELD else values


def _prepare_posting(posting: Mapping[str, object]) -> str | _Prepared:
    """Solr's signature of a posting without Han/kana; else the posting _Prepared to sign."""
    if type(posting) is not dict and not isinstance(posting, Mapping):  # exact dict: skip the ABC check
        raise TypeError(
            f"posting_profile_signature expects a mapping (a posting), got {type(posting).__name__}"
        )
    # plain ASCII names: code point order == Java's UTF-16 order, as SignatureUpdateProcessorFactory sorts
    fields = [(name, _field_values(posting, name)) for name in _SORTED_FIELDS if name in posting]
    texts = [v for _, values in fields for v in values]
    if script.CJK_RE.search("\0".join(texts)) is None:
        return solr_fields_signature(posting, PROFILE_FIELDS)
    volatile: list[str] = []
    fields = [(name, _cores(name, values, volatile)) for name, values in fields]
    stripped = [_stripped(v) for _, values in fields for v in values]
    if not mostly_cjk("\0".join(stripped)):
        return solr_fields_signature(posting, PROFILE_FIELDS)
    return _Prepared(fields, stripped, volatile)


def facts_profile(fields: _Fields) -> str:
    """The profile of a CJK posting's job facts (SIG_VERSION 4): the workplace units and terms of its
    description (signatures.jobfacts.description_facts: store, station, address; employment type, pay unit,
    shift, hours), each counted once and never quantized away; "" when it states none. One company's
    template for two stores or for a full-time and a part-time job differs only there, and a long
    description's quantization keeps only its frequent words."""
    facts: set[str] = set()
    for name, values in fields:
        if name == DESCRIPTION_FIELD:
            for v in values:
                facts |= jobfacts.description_facts(v)
    return "\n".join(f"{f} 1" for f in sorted(facts))


def _quant_max(counts: Mapping[str, int], volatile: str, lang: str) -> int | None:
    """The maxFreq a value's quantization uses: over its words and those of the volatile text its core dropped
    (None: its own, when nothing was dropped). Dropping the volatile parts must not make the rest of a short ad
    finer-grained (more sensitive to a typo) than before."""
    if not volatile:
        return None
    gone = _value_counts(_value(volatile, _stripped(volatile)), lang)  # the general path: no numpy pass for a line
    if not gone:
        return None
    return max(max(counts.values(), default=0), max(counts.get(w, 0) + c for w, c in gone.items()))


def _cjk_posting_signature(prep: _Prepared, plain: tuple[list[str], list[str]] | None) -> str:
    """Signature of a CJK posting: the one-pass Chinese path when `plain` (its _plain_split), else
    every value through the general path (kana, width forms, other letters...); the job facts'
    profile (facts_profile) last, when there are any."""
    fields, stripped, volatile = prep
    facts = facts_profile(fields)
    if plain is not None:
        return _plain_zh_digest(fields, *plain, facts, volatile)
    it = iter(stripped)
    prepared = [(name, [_value(v, next(it)) for v in values]) for name, values in fields]
    lang = _language([v for _, values in prepared for v in values])
    profiles: list[str] = []
    gone = iter(volatile)
    for name, values in prepared:
        profiles.append(_name_profile(name))
        for v in values:
            counts = _value_counts(v, lang)
            profiles.append(cjk_profile(counts, max_freq=_quant_max(counts, next(gone), lang)))
    if facts:
        profiles.append(facts)
    return profile_digest(profiles)


def _plain_zh_digest(fields: Sequence[tuple[str, list[str]]], hans: list[str], asciis: list[str], facts: str = "",
                     volatile: Sequence[str] = ()) -> str:
    """posting_profile_signature of a posting whose values are all plain (_plain_split): Chinese, one
    jieba-rs call per value over its Han runs. Words and tokens are length-filtered before counting,
    in C (compress/map): hashing the ~2/3 of jieba's output that is 1-character words and separators
    cost as much as segmenting."""
    cut = get_segmenter(script.ZH).cut  # type: ignore[attr-defined]
    profiles: list[str] = []
    i = 0
    for name, values in fields:
        profiles.append(_name_profile(name))
        for _ in values:
            han, tokens = hans[i], asciis[i].split()
            i += 1
            counts: dict[str, int] = {}
            if len(han) > 1:
                words = cut(han)
                _count_elements(counts, compress(words, map(gt, map(len, words), _ONES)))
            if tokens:
                _count_elements(counts, compress(tokens, map(gt, map(len, tokens), _TWOS)))
            gone = volatile[i - 1] if volatile else ""
            profiles.append(cjk_profile(counts, max_freq=_quant_max(counts, gone, script.ZH) if gone else None))
    if facts:
        profiles.append(facts)
    try:  # MD5 over each profile's UTF-8 in turn = over the UTF-8 of their concatenation
        return hashlib.md5("".join(profiles).encode("utf-8")).hexdigest()
    except UnicodeEncodeError:  # a lone surrogate: Java's encoder rules
        return profile_digest(profiles)


# compare-to constants for the C-level length filters: Han words longer than 1 (CJK_MIN_WORD_LEN 2),
# tokens longer than NON_CJK_MIN_TOKEN_LEN
_ONES, _TWOS = repeat(1), repeat(NON_CJK_MIN_TOKEN_LEN)


_BATCH = 256
"""Postings whose values share one numpy pass in _sign_chunk."""


def _sign_chunk(postings: Sequence[Mapping[str, object]]) -> list[str]:
    """posting_profile_signature of each posting; the one-pass split of plain Chinese values runs
    once per _BATCH postings (numpy's per-call cost dominates it on single postings)."""
    out: list[str] = []
    for start in range(0, len(postings), _BATCH):
        preps = [_prepare_posting(p) for p in postings[start : start + _BATCH]]
        cjk = [prep for prep in preps if type(prep) is not str]
        plains = iter(_plain_split_many([prep.stripped for prep in cjk]) if CJK_MIN_WORD_LEN == 2 else [])
        for prep in preps:
            if type(prep) is str:
                out.append(prep)
                continue
            split = next(plains, False)
            if split is True:  # astral characters: _plain_split checks them
                split = _plain_split(prep.stripped)
            out.append(_cjk_posting_signature(prep, split or None))
    return out


POOL_MIN_CHUNK = 64
"""Postings per worker task; batches smaller than workers * POOL_MIN_CHUNK are signed in-process."""


def _pool_context() -> multiprocessing.context.BaseContext:
    """fork when this process runs a single thread (children inherit the loaded dictionaries);
    otherwise forkserver (forking a multi-threaded process can deadlock on locks held elsewhere)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def posting_profile_signatures(postings: Iterable[Mapping[str, object]], workers: int = 1) -> list[str]:
    """Batch form of posting_profile_signature, in input order. `workers` > 1 signs a large batch in
    that many processes (one per core: segmentation is CPU-bound and holds the GIL); small batches
    stay in-process, where a pool's start-up would cost more than it saves."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    items = postings if isinstance(postings, list) else list(postings)
    if workers == 1 or len(items) < workers * POOL_MIN_CHUNK:
        return _sign_chunk(items)
    ctx = _pool_context()
    if ctx.get_start_method() == "fork":  # load both tokenizers once, before the children are forked
        get_segmenter(script.ZH)
        get_segmenter(script.JA)
    size = max(POOL_MIN_CHUNK, -(-len(items) // (workers * 8)))  # ~8 tasks per worker balance load
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    with ctx.Pool(min(workers, len(chunks))) as pool:
        return [sig for part in pool.map(_sign_chunk, chunks, chunksize=1) for sig in part]
