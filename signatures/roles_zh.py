"""Chinese role names read and compared as names: a name is a specialty (前端, 智能合约, 数据分析) before a head
(工程师, 经理, 分析师); heads that say the same job (开发 / 工程师 / developer) and seniority (资深, 高级) do not tell
two jobs apart, specialties do (前端 vs 后端 behind one head). Pure computation, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from signatures.extract import _LOC_HINT_RE, _ROLE_WORDS_CJK_ENDS, _families_in, line_cache

__all__ = ["ZhRole", "same_zh_role", "title_role_key", "zh_announced", "zh_role", "zh_title_roles"]


class ZhRole(NamedTuple):
    """A Chinese role name as its head class, the characters of its specialty and its Latin words."""

    head: str  # class of the head: "E" engineer / developer, "L" manager / lead / expert, or the head word itself
    spec: frozenset[str]  # Han characters (and Latin synonyms written in Han) of the specialty
    latin: frozenset[str]  # Latin words of the specialty that have no Han synonym (ios, rust, kyc)
    families: frozenset[str]  # role families the name names, its level left out (see extract._families_in)
    alts: tuple[ZhRole, ...] = ()  # the role's other names when a title writes it "X/Y" (区域负责人/地区经理)


#: Heads of one kind of job, longest first within a kind: 前端开发 = 前端开发工程师 = 前端工程师; 产品经理 = 产品总监
#: (a re-levelled head, as English seniority words). Activity words without a person (测试, 运维) name an
#: engineer of that specialty (测试 = 测试工程师).
_HEADS: tuple[tuple[str, str, str], ...] = (
    *((h, "E", "") for h in ("开发工程师", "研发工程师", "工程师", "开发者", "开发人员", "研发", "开发", "程序员", "工程")),
    *((h, "E", h) for h in ("测试", "运维", "算法")),
    *((h, "L", "") for h in ("总经理", "经理", "总监", "专家", "负责人", "主管", "领导")),
    *((h, "D", "") for h in ("设计师", "设计")),
    *((h, "R", "") for h in ("研究员", "研究")),
    *((h, "A", "") for h in ("分析师",)),
    *((h, "I", "") for h in ("实习生", "实习")),
)
_HAN_ONLY_RE = re.compile(r"[\u4e00-\u9fff]+")
_HEAD_RE = re.compile("(?:" + "|".join(sorted((re.escape(h) for h, _, _ in _HEADS), key=len, reverse=True)) + r")\s*$")
_HEAD_OF = {h: (cls, keep) for h, cls, keep in _HEADS}
#: The other role words of extraction (signatures.extract), longest first.
_OTHER_HEADS = tuple(sorted((w for w in _ROLE_WORDS_CJK_ENDS if _HAN_ONLY_RE.fullmatch(w)),
                            key=len, reverse=True))
#: Seniority and filler: 资深前端工程师 and 前端工程师 are one role re-levelled (the labeling guide's TEMPORAL /
#: SEMANTIC rewording); a name is compared without them.
_LEVEL_RE = re.compile(r"中高级|高级|资深|初级|中级|首席|(?<![a-z])(?:senior|sr|junior|jr|staff|principal|x)(?![a-z])")
#: Latin head words (a role written in English in a Chinese posting: "Rust Developer" = rust工程师).
_LATIN_HEADS = {"engineer": "E", "engineers": "E", "developer": "E", "developers": "E", "dev": "E",
                "engineering": "E", "programmer": "E", "manager": "L", "lead": "L", "leader": "L", "head": "L",
                "director": "L",
                "designer": "D", "researcher": "R", "analyst": "A", "intern": "I"}
#: Latin specialty words with a Han synonym: "QA 测试工程师" = "测试工程师", "Backend Engineer" = "后端工程师".
_LATIN_HAN = {"qa": "测试", "test": "测试", "testing": "测试", "tester": "测试", "frontend": "前端", "backend": "后端",
              "fullstack": "全栈", "devops": "运维", "sre": "运维", "ops": "运维", "blockchain": "区块链",
              "product": "产品", "data": "数据", "quant": "量化", "security": "安全", "contract": "合约",
              "android": "安卓", "algorithm": "算法", "operations": "运营", "marketing": "市场"}
#: Latin words that say what the employer is, not what the job is ("Crypto CEX 测试工程师" = "测试工程师").
_EMPLOYER_WORDS = frozenset("crypto cex dex web3 defi exchange fintech startup remote".split())
#: Families that give a role's level or stage, not its specialty (产品经理 / 产品总监 are one role re-levelled).
_LEVEL_FAMILIES = frozenset({"lead", "founding"})
_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9+#]*|[0-9]+[a-z][a-z0-9]*")
_HAN_RE = re.compile(r"[\u3400-\u9fff]")
#: Specialty words that say the same (general vocabulary, not one employer's): a region is 区域 / 地区 / 大区
#: (区域负责人 = 地区经理: one regional head, the level head re-worded), overseas is 海外 / 国际, customer
#: service is 客服 / 客户服务 / 客户支持, an exchange's liquidity desk is its market making (流动性开发 = 做市开发).
_SPEC_SYNONYMS = {"地区": "区域", "大区": "区域", "国际": "海外", "客户服务": "客服", "客户支持": "客服", "流动性": "做市"}
#: Words a Chinese posting writes for a role word's usual name, rewritten in place: Taiwan's 維運 for 运维
#: (operations), and Latin words with a Han name (BD / Business Development = 商务, Customer Support = 客服, the language
#: a job works in: English 客服 = 英语客服, 俄语BD = Russian BD).
_NAME_SYNONYMS = {"维运": "运维", "bd": "商务", "business development": "商务", "customer support": "客服",
                  "customer service": "客服", "english": "英语", "russian": "俄语", "japanese": "日语", "korean": "韩语",
                  "vietnamese": "越南语", "thai": "泰语", "indonesian": "印尼语", "spanish": "西班牙语",
                  "portuguese": "葡萄牙语", "french": "法语", "german": "德语", "turkish": "土耳其语", "arabic": "阿拉伯语"}
_NAME_SYNONYM_RE = re.compile("维运|(?<![a-z])(?:" + "|".join(sorted(
    (re.escape(w) for w in _NAME_SYNONYMS if w.isascii()), key=len, reverse=True)) + ")(?![a-z])")
_SPEC_SYNONYM_RE = re.compile("|".join(sorted(_SPEC_SYNONYMS, key=len, reverse=True)))


@line_cache
def zh_role(name: str) -> ZhRole:
    """`ZhRole` of one role name (written in simplified characters); "X/Y": the role X also named Y (`alts`)."""
    if "/" in name:
        first, *rest = name.split("/")
        return zh_role(first)._replace(alts=tuple(map(zh_role, rest)))
    low = _LEVEL_RE.sub(" ", unicodedata.normalize("NFKC", name).lower())
    written = _NAME_SYNONYM_RE.sub(lambda m: f" {_NAME_SYNONYMS[m.group()]} ", low)
    # a Latin head after a rewritten word heads the name ("Business Development Intern" = 商务 intern = BD实习生)
    tail = _LATIN_WORD_RE.findall(written[-16:]) if written != low else ()
    low = written
    words = _LATIN_WORD_RE.findall(low)
    han = _SPEC_SYNONYM_RE.sub(lambda m: _SPEC_SYNONYMS[m.group()], "".join(_HAN_RE.findall(low)))
    head = ""
    m = _HEAD_RE.search(han)
    if tail and tail[-1] in _LATIN_HEADS and low.rstrip().endswith(tail[-1]):
        head = _LATIN_HEADS[tail[-1]]
    elif m:
        cls, keep = _HEAD_OF[m.group().strip()]
        head, han = cls, han[: m.start()] + keep
    else:  # another role word is a head of its own kind: 风控专员 / 风控主管, 社媒运营 / 活动运营
        word = next((w for w in _OTHER_HEADS if han.endswith(w)), "")
        head, han = word, han[: len(han) - len(word)]
        if word == "专员":  # the specialist of an activity is its person: 运营专员 = 运营, 客服专员 = 客服
            head = next((w for w in _OTHER_HEADS if han.endswith(w) and w != "专员"), "") or head
            han = han[: len(han) - len(head)] if head != "专员" else han
    spec = set(han)
    latin = set()
    for w in words:
        if w in _LATIN_HEADS and not head:
            head = _LATIN_HEADS[w]
        elif w in _LATIN_HAN:
            spec.update(_LATIN_HAN[w])
        elif w not in _LATIN_HEADS:
            latin.add(w)
    fams = frozenset(_families_in(unicodedata.normalize("NFKC", name))).union(_families_in(low)) - _LEVEL_FAMILIES
    return ZhRole(head, frozenset(spec), frozenset(latin - _EMPLOYER_WORDS), fams)


def same_zh_role(a: ZhRole, b: ZhRole, a_writes: Callable[[str], bool] | None = None,
                 b_writes: Callable[[str], bool] | None = None, exact: bool = False) -> bool:
    """Whether two Chinese roles name one job: some name of each agrees (`_same_name`; `exact`: with the same
    specialty and Latin words too, not one specialty within the other)."""
    return any(_same_name(x, y, a_writes, b_writes) and (not exact or (x.spec == y.spec and x.latin == y.latin))
               for x in (a, *a.alts) for y in (b, *b.alts))


def _same_name(a: ZhRole, b: ZhRole, a_writes: Callable[[str], bool] | None = None,
               b_writes: Callable[[str], bool] | None = None) -> bool:
    """Whether two Chinese role names name one job: the same kind of head (or one name without a head); the
    same specialty characters (安全维运 = 安全运维), or one specialty within the other's naming no other role
    family (测试 in 交易所测试, not 后端 in 后端运维); each Latin word only one name has written in the other
    posting (`a_writes(word)`: posting a writes it; none given, as within one posting: the same Latin words)
    — an iOS posting never names Android."""
    if a.head and b.head and a.head != b.head:
        return False
    if not (a.head or a.spec or a.latin) or not (b.head or b.spec or b.latin):
        return False
    if a.spec != b.spec and not ((a.spec <= b.spec or b.spec <= a.spec) and a.families == b.families):
        return False
    only_a, only_b = a.latin - b.latin, b.latin - a.latin
    if a_writes is None or b_writes is None:
        return not only_a and not only_b
    return all(map(b_writes, only_a)) and all(map(a_writes, only_b))


# --------------------------------------------------------------------------- the roles a posting announces

#: Where a role line's parts meet: `职位名称：X`, `base北京：X`, `远程办公 - web3 交易所 - X`, `X（备注）`.
_PART_CUT_RE = re.compile(r"\s[-–—→|｜]\s|[:：→—|｜]|\s\(|（|\(")
#: A sentence or a duty, not a name: "我们的研究" (our research), "编写性能测试脚本" (write test scripts).
_NOT_NAME_RE = re.compile(r"的|参与|并(?:执行|完成|负责|推动|落地|优化)|^(?:编写|写|如|执行|进行|开展|建立|制定|维护|推动|撰写|搭建|优化|构建|参与|负责|熟悉|具备|协助|完成|"
                          r"配合|根据|掌握|了解|精通|擅长|能够|支持|提供|保障|确保|"
                          # a requirement or an invitation (使用vue框架进行开发, 熟练掌握golang后端开发, 有热情参与…研究,
                          # 对密码学…有研究, 必须掌握自动化测试, 以上职缺…欢迎联络hr)
                          r"使用|熟练|必须|需要|要求|拥有|具有|有(?!限)|对(?!冲)|欢迎|以上|愿意|深入|扎实|良好|至少|实现|主导|跟进)|"
                          # two activities joined: a duty, not a person (应用服务端架构设计和开发, 系统设计与开发)
                          r"(?:和|与|及)(?:开发|研究|测试|设计|维护|实现|优化)$|"
                          # a way of working, not a person: AI 驱动开发 (AI-driven development), 测试驱动开发 (TDD),
                          # AI辅助开发, 架构设计 (the architect's task, 架构师 the person)
                          r"(?:驱动|辅助)\s*(?:开发|设计|测试)$|架构设计$|"
                          # a kind of test is a task, its tester a person (单元测试 / 测试工程师): 写小测试, 规范代码测试, 全流程测试
                          r"(?:小|单元|代码|流程|集成|自动化|性能|压力|功能|回归|接口|端到端)\s*测试$")
#: Where a posting's jobs are, not what they are: 新加坡, 深圳, 海外, 全职远程 alone name no role (`_place_free`).
_PLACE_WORD_RE = re.compile(_LOC_HINT_RE.pattern + r"|海外|国内|全球|全职|兼职|可选|\(|\)|/")
#: One role name run into the next at a seniority word: "跨链专家高级跨链工程师" = 跨链专家 + 高级跨链工程师.
_RUN_ON_RE = re.compile(r"(?<=[家理师员监人管生服])(?=高级|资深|初级|中级|首席)")
#: A role line's label alone ("岗位", "职位名称"), or a count of jobs ("多岗位": several positions): names no role.
_LABEL_RE = re.compile(r"(?:招聘|急招)?(?:多个?|多個|若干|各类?|各類|其他|其它|核心)?(?:岗位|职位|職位|职缺|職缺)(?:名称|名稱)?|positions?|roles?|job|title|"
                       r"联系方式|聯繫方式|全职|全職|兼职|兼職|"
                       # a person of no particular job: 寻找队友 (looking for teammates), 诚邀小伙伴, 招募人才
                       r"(?:小)?(?:队友|伙伴)(?:们)?|人才|同学|成员|你")
#: A role line's category label (职位类型：全栈工程师, 岗位类别：技术): the kind of job the posting's role is, no role of its own.
_CATEGORY_RE = re.compile(r"(?:职位|岗位|職位|崗位|职能|職能)(?:类型|类别|類型|類別)")
#: A role name's trailing "job description" word: "QA/Test JD" names QA / Test, "前端岗位职责" the front end.
_JD_ENDS = ("jd", "职位描述", "岗位描述", "岗位职责", "职位职责", "职位要求", "岗位要求")
_JD_TAIL_RE = re.compile(r"\s*(?:\bjd|" + "|".join(_JD_ENDS[1:]) + ")$")
_HAN_GAP_RE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
_HIRE_VERB_RE = re.compile(r"诚聘|招聘|招募|急招|急聘|诚招|直招|热招|聘请|寻找|招")


def _split_names(name: str) -> list[str]:
    """One role read as several when it is several: names run into one at a seniority word or a hiring verb
    (跨链专家高级跨链工程师, 量化研究员 急招合约开发工程师), or words between spaces that each end in a role word; a
    label word before a name is none of it (核心岗位 CTO技术总监)."""
    from signatures.extract import _looks_like_role

    parts = [p.strip() for x in _RUN_ON_RE.split(name) for p in _HIRE_VERB_RE.split(x)]
    named = [p for p in parts if p and _looks_like_role(p, "zh")]
    if len(parts) >= 2 and named:
        # 我们正在招聘X, 比特鹰招X: who hires is no role; 海外招聘专家 (overseas recruiting expert) is one name
        particular = all(k.spec or k.latin for k in map(zh_role, named))
        parts = named if particular else [name]
    out = []
    for p in filter(None, parts):
        words = p.split(" ")
        if len(words) >= 2 and _LABEL_RE.fullmatch(words[0]):
            p, words = " ".join(words[1:]), words[1:]
        out.extend(words if len(words) >= 2 and all(_looks_like_role(w, "zh") and _HAN_RE.search(w) for w in words)
                   else [p])
    return out


def _part_role(line: str, name: str) -> str:
    """The role a role line names after a leading part that is no role (`职位名称：X`, `base北京：X`): the first
    later part that looks like a role, or ""."""
    from signatures.extract import _clean_role, _looks_like_role, normalize_line

    if not normalize_line(line).startswith(name):
        return ""
    for part in _PART_CUT_RE.split(line)[1:]:
        c = _clean_role(part)
        if c and _looks_like_role(c, "zh"):
            return c
    return ""


#: A mobile platform written in brackets after a title's role name: "Flutter工程师（iOS）" and "Flutter 工程师（安卓）" are
#: two roles (the GUIDE's iOS vs Android), "Flutter工程师（全职）" one.
_PLATFORM_NOTE = r"\s*[（(]\s*(ios|android|安卓|鸿蒙|harmonyos)\s*[)）]"
_PLATFORM_NOTE_RE = re.compile(_PLATFORM_NOTE)


def _with_platform(low_title: str, name: str) -> str:
    """`name` with the platform the title (`low_title`: NFKC, lowercase) writes in brackets right after it, first
    ("ios flutter工程师"), else `name`."""
    m = re.search(re.escape(name).replace(r"\ ", r"\s*") + _PLATFORM_NOTE, low_title)
    return f"{m.group(1)} {name}" if m else name


def _whole_title_role(title: str, name: str) -> str:
    """A bare head read from a title written with spaces between its words ("资深 前端 开发" -> 开发) with the Han
    words before it, after the hiring verb (资深前端开发); `name` when there are none."""
    compact = _HAN_GAP_RE.sub("", title.lower())
    m = re.search(r"([\u4e00-\u9fff]{1,10})" + re.escape(name), compact)
    if not m:
        return name
    before = _HIRE_VERB_RE.split(m.group(1))[-1]
    return before + name if before else name


def zh_announced(roles: tuple[str, ...], title: str, lines: tuple[str, ...], employers: frozenset[str],
                 full: bool = True) -> tuple[str, ...]:
    """The roles of a Chinese posting as names: a role line's label or place read as its role (`职位名称：X`,
    `base北京：X`, `远程办公 - 交易所 - X` name X), sentences and duties dropped (我们的研究, 编写…脚本), two names run
    into one split (跨链专家高级跨链工程师), a bare head completed from a spaced title (资深 前端 开发), the
    employer's name left out (SynFutures智能合约工程师 = 智能合约工程师), a platform in brackets after a title's role
    part of it (Flutter工程师（iOS）), two lead-level names of one job joined (技术负责人/架构师). `full` (off for the
    stored blocking key, `title_role_key`, which stays as SIG_VERSION keeps it): also the specialty a title writes
    as a direction after a role (金融产品总监/专家（交易方向） = 交易金融产品总监), the names a title lists that extraction
    leaves out (`_title_extra`), a shared head given to a bare specialty before a slash (`_slash_names`: 做市/量化开发工程师),
    the names numbered items and requirement headings of the body give (`_body_names`: 三、Java基础架构师（…）), and
    not the employer's other openings listed under their own heading (更多职位)."""
    from signatures.extract import _looks_like_role

    if full:
        roles = _not_other_jobs((*roles, *_title_extra(title, roles), *_body_names(lines)), title, lines)
    low = unicodedata.normalize("NFKC", title).lower() if "(" in title or "（" in title else ""
    platform = low if low and _PLATFORM_NOTE_RE.search(low) else None
    compact = "".join(unicodedata.normalize("NFKC", title).lower().split()) if full and "方向" in title else ""
    slashed = "".join(unicodedata.normalize("NFKC", title).lower().replace("／", "/").split()) \
        if full and ("/" in title or "／" in title) else ""
    out: list[str] = []
    for r in roles:
        names = [r]
        if _CATEGORY_RE.fullmatch(r):
            names = []
        elif not _looks_like_role(r, "zh"):
            found = next((x for ln in (title, *lines[:60]) if (x := _part_role(ln, r))), "")
            if found:
                names = [found]
            elif _looks_like_role(r.split(" ")[-1], "zh") or not _LATIN_WORD_RE.fullmatch(r.replace(" ", "")):
                names = [r]  # a title's one part ("初级财务会计") is a role though no role word ends it
            else:
                names = []  # a Latin word that is no role ("web3", "position")
        for n in (x for name in names for x in _split_names(name)):
            n = _JD_TAIL_RE.sub("", n) if n.endswith(_JD_ENDS) else n
            if not n or _NOT_NAME_RE.search(n) or _LABEL_RE.fullmatch(n) or \
                    len(n) <= 12 and not n.endswith(_ROLE_WORDS_CJK_ENDS) and not _PLACE_WORD_RE.sub("", n).strip():
                continue
            for k in sorted(employers, key=lambda k: (-len(k), k)):  # longest first, whatever the set's order
                if len(k) >= 3 and k in n and len(n) > len(k) + 1:
                    n = " ".join(n.replace(k, " ").split())
            k = zh_role(n)
            if k.head and not k.spec and not k.latin and title:
                n = _whole_title_role(title, n)
            if platform is not None:
                n = _with_platform(platform, n)
            if compact:
                n = _with_direction(compact, n)
            out.extend(_slash_names(slashed, n) if slashed else (n,))
    leads = "/" in title and sum(1 for n in out if _LEAD_HEAD_RE.search(n)) >= 2
    return tuple(dict.fromkeys(_lead_alternatives(out, title) if leads else out))


#: A Chinese title's list closed by 等 ("…、账户产品经理”等", "合约产品经理 等岗位"): "and so on", no part of the last name.
#: A bracketed list in a title, up to MAX_ROLES short names long.
_LIST_BRACKET_RE = re.compile(r"[（(]([^（()）]{1,400})[)）]")
_ETC_RE = re.compile(r"(?<=[”\"」』）)】])\s*等(?![\u4e00-\u9fff])|\s*等(?:多个?|其他|其它)?(?:岗位|职位)")


def _title_extra(title: str, roles: tuple[str, ...]) -> list[str]:
    """Names a Chinese title lists that extraction's title reading leaves out: the last of a list closed by 等
    (“A、B、C”等), and the names in brackets after a label read as a role (招聘岗位（A、B、C）: 岗位 is no role)."""
    from signatures.extract import _looks_like_role, _title_parts, _title_roles

    out: list[str] = []
    if "等" in title and _ETC_RE.search(title):
        out.extend(_title_roles(_ETC_RE.sub("", title), "zh", True))
    if any(_LABEL_RE.fullmatch(r) for r in roles):
        out.extend(r for b in _LIST_BRACKET_RE.findall(title) for r in _title_parts(b, "zh")
                   if _looks_like_role(r, "zh") or _HEAD_RE.search(r))  # 开发人员 as 开发
    return [r for r in dict.fromkeys(out) if r not in roles]


#: A body line that opens with a role name: an item numbered in Chinese numerals (一、 十一、; duty lists number 1、
#: 2、) before its pay, notes or duties ("三、Java基础架构师（5000-8000U/月），要求：…"), or the heading over a role's
#: requirements or duties ("数据工程师职位要求：", "前端工程师岗位职责").
_BODY_NAME_RE = re.compile(r"^\s*[一二三四五六七八九十]{1,3}\s*[、.．]\s*([^（(，,：:；;。、]{2,30}?)\s*(?:[（(，,：:；;。]|$)|"
                           r"^\s*([^（(，,：:；;。、\s]{2,20}?)\s*(?:职位|岗位)(?:要求|职责|描述)\s*[:：]?\s*$")


def _body_names(lines: tuple[str, ...]) -> list[str]:
    """The role names `_BODY_NAME_RE` reads off a posting's body lines (cleaned as extraction's roles)."""
    from signatures.extract import _clean_role, _looks_like_role

    out = []
    for ln in lines:
        m = _BODY_NAME_RE.match(ln) if ("、" in ln or "职" in ln or "岗" in ln) else None
        if m and (c := _clean_role(m.group(1) or m.group(2))) and _looks_like_role(c, "zh"):
            out.append(c)
    return out


#: A heading over an employer's other openings, a line of its own ("更多职位", "其他在招岗位：", "More positions"): the
#: lines under it name jobs of other postings.
_OTHER_JOBS_RE = re.compile(r"(?i)^[#*【\[\s]*(?:(?:更多|其他|其它|其余)(?:在招)?(?:职位|岗位|职缺|机会)|"
                            r"(?:more|other)\s+(?:open\s+)?(?:positions|roles|openings|jobs))[\s*】\]:：]*$")


def _not_other_jobs(roles: tuple[str, ...], title: str, lines: tuple[str, ...]) -> tuple[str, ...]:
    """`roles` without those only written in the list under an other-openings heading (`_OTHER_JOBS_RE`: a list
    item or a short line each, up to the first other line); the title's roles always stay."""
    from signatures.extract import _CJK_PUNCT_RE, _LIST_PREFIX_RE, _title_roles, normalize_line

    listed: list[str] = []
    under = False
    for ln in lines:
        if _OTHER_JOBS_RE.match(ln):
            under = True
        elif under and (_LIST_PREFIX_RE.match(ln.strip()) or len(ln) <= 30 and not _CJK_PUNCT_RE.search(ln)):
            listed.append(normalize_line(ln))
        else:
            under = False
    if not listed:
        return roles
    own = set(_title_roles(title, "zh", True))
    return tuple(r for r in roles if r in own or not any(r in x for x in listed))


#: The word before a slash at the end of a compact title part, after a list separator or a hiring verb ("(ios",
#: "、合约", "诚聘做市").
_BARE_SPEC_RE = re.compile(r"(?:^|[/、，,(“\"\]】|｜]|" + _HIRE_VERB_RE.pattern + r")([\u4e00-\u9fffa-z][\u4e00-\u9fffa-z0-9+#]{0,7})$")


def _slash_names(compact: str, name: str) -> tuple[str, ...]:
    """`name` with the specialty a title (`compact`: NFKC, lowercase, no spaces) writes bare before it and a slash
    given its head when it names a role family: "做市/量化开发工程师" names 量化开发工程师 and 做市开发工程师 — one role
    named two ways ("X/Y", `ZhRole.alts`) when both specialties name one family, else two roles (iOS/Android开发人员:
    the GUIDE's iOS vs Android); a word of no family (golang/python/前端工程师) is none."""
    from signatures.extract import _families_in, _looks_like_role

    key = name.replace(" ", "")
    at = compact.find("/" + key) if key else -1
    m = _BARE_SPEC_RE.search(compact[:at]) if at > 0 else None
    x = _HIRE_VERB_RE.split(m.group(1))[-1] if m else ""
    if len(x) < 2 or _looks_like_role(x, "zh") or _LEVEL_RE.fullmatch(x) or _LABEL_RE.fullmatch(x) or \
            not _PLACE_WORD_RE.sub("", x).strip():
        return (name,)
    head = _HEAD_RE.search(key)
    if not head or not _LEVEL_RE.sub("", key[: head.start()]).strip():  # 资深研究员: a level, no specialty
        return (name,)
    other = x + key[head.start():]
    fx, fy = _families_in(x), _families_in(key[: head.start()])
    if not fx:  # golang/python/前端工程师: a language or tool before the slash names no job of its own
        return (name,)
    return (f"{name}/{other}",) if fx == fy else (name, other)


#: A direction written after a title's role name, past its level-only other names: "金融产品总监/专家（交易方向）",
#: "金融产品经理/专家”交易方向", "运维-大数据方向" (NFKC, lowercase, no spaces): the direction is the role's specialty.
_DIRECTION_RE = re.compile(r"(?:/(?:总经理|经理|总监|专家|负责人|主管|领导|leader|lead))*[(\-–—”\"]"
                           r"([\u4e00-\u9fffa-z0-9&+]{1,8}?)方向")


def _with_direction(compact: str, name: str) -> str:
    """`name` with the direction the title (`compact`: NFKC, lowercase, no spaces) writes right after it put first
    ("交易 金融产品总监"), else `name`: 金融产品总监（交易方向） and 金融产品总监（理财方向） are two jobs, 交易产品专家 and
    金融产品总监（交易方向） one re-levelled."""
    key = name.replace(" ", "")
    if not (zh_role(name).spec or zh_role(name).latin):  # a level alone (专家 of 总监/专家) names no job to direct
        return name
    at = compact.find(key)
    m = _DIRECTION_RE.match(compact, at + len(key)) if at >= 0 and key else None
    if not m or set(m.group(1)) <= set(key):
        return name
    return f"{m.group(1)} {name}"


#: The head of a lead-level name: a level head or an architect.
_LEAD_HEAD_RE = re.compile(r"(?:总经理|经理|总监|专家|负责人|主管|领导|架构师)$")


def _lead_head(name: str) -> str:
    """The lead-level head word of a name of a particular job (区域负责人 -> 负责人, 架构师 -> 架构师), "" for another
    name or a level alone (专家 of 产品经理/专家 names no job)."""
    m = _LEAD_HEAD_RE.search(name)
    return m.group() if m and (m.group() == "架构师" or zh_role(name).spec or zh_role(name).latin) else ""


def _lead_alternatives(names: list[str], title: str) -> list[str]:
    """Lead-level names the title writes as "X/Y" with two head words joined into one role "X/Y" — one lead named
    two ways (区域负责人/地区经理, BD负责人/地区经理, 技术负责人/架构师, 技术负责人/技术主管); the same head word twice
    lists two leads (运营负责人/市场负责人), and so does a longer slash list (法务合规经理/券商负责人/财务实习生); other
    names stay as they are."""
    compact = "".join(unicodedata.normalize("NFKC", title).lower().replace("／", "/").split())
    out: list[str] = []
    for n in names:
        last = out[-1] if out and "/" not in out[-1] else ""
        hl, hn = _lead_head(last), _lead_head(n)
        if hl and hn and hl != hn and (at := compact.find(f"{last}/{n}".replace(" ", ""))) >= 0 and \
                compact[at - 1: at] != "/" and compact[at + len(last) + len(n) + 1: at + len(last) + len(n) + 2] != "/":
            out[-1] += "/" + n
        else:
            out.append(n)
    return out


def title_role_key(title: str, employer: str = "") -> str:
    """The first role a Chinese title announces as a comparable string (head class, role families, Latin
    words; `employer`, the employer's name, left out of it: coarser than `same_zh_role`, a candidate key, not a
    decision), "" when the title names none:
    a blocking key that a repost with a reworded or re-levelled title keeps (智能合約工程師招聘 / 诚聘 高级智能合约工程师).
    A role named two ways ("架构师/技术负责人", `ZhRole.alts`): the least key of its names, whatever their order; a head of
    its own kind (风控 of 风控专员, 运营) is a key without a specialty, a head class (E, L, ...) is not."""
    from signatures.features import _simplified

    for name in zh_title_roles(title, frozenset({employer} - {""}), full=False):
        k = zh_role(_simplified(name))
        keys = [f"{x.head}|{','.join(sorted(x.families))}|{','.join(sorted(x.latin))}"
                for x in (k, *k.alts) if x.head and (x.spec or x.latin or len(x.head) > 1)]
        if keys:
            return min(keys)
    return ""


def zh_title_roles(title: str, employers: frozenset[str] = frozenset(), full: bool = True) -> tuple[str, ...]:
    """The roles a Chinese title announces, as names (`zh_announced` of the title alone): what the poster put up
    front, without the roles the body adds (a team member named in a duty line, "(developer, devops)"); at most
    `MAX_ROLES` of them, as a posting's roles (they are compared pairwise); `full` as `zh_announced` (off for
    the stored blocking key, `title_role_key`, which stays as SIG_VERSION keeps it)."""
    from signatures.extract import MAX_ROLES, _title_roles

    return zh_announced(_title_roles(title, "zh", True)[:MAX_ROLES], title, (), employers, full)[:MAX_ROLES]
