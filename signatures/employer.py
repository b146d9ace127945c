"""Who posted a job: employer names normalized so that "Acme (YC F24)", "Acme, Inc." and acme.io agree,
the employer's own sites and mail domains, and the company named in the text when the field is empty.
Pure computation, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from signatures.boilerplate import company_key
from signatures.extract import Extracted, line_cache

__all__ = ["FREE_MAIL", "PLATFORMS", "employer_core", "employer_key", "employer_names", "employer_sites", "names_agree", "names_in_text",
           "names_in_title", "registrable", "site_label"]

#: Batch and funding tags written after a name: "(YC F24)", "[YC W21]", "YC S19", "(Series B)".
_TAG_RE = re.compile(r"(?i)[(\[（【][^)\]）】]{0,30}[)\]）】]|\b(?:yc|y combinator)\s*[swfx]?\d{2}\b")
#: Legal forms in Chinese / Japanese names (Latin ones are dropped by boilerplate.company_key).
_CJK_LEGAL_RE = re.compile(
    r"株式会社|有限会社|合同会社|合資会社|合名会社|一般社団法人|一般財団法人|社会福祉法人|医療法人社団|医療法人|学校法人|"
    r"\(株\)|（株）|\(有\)|（有）|㈱|㈲|股份有限公司|有限责任公司|有限責任公司|有限公司|集团|集團"
)
#: Latin legal forms boilerplate.company_key keeps (it drops inc, ltd, gmbh, corp, co, llc, ...).
_LATIN_LEGAL_RE = re.compile(r"(?i)\b(?:corporation|incorporated|plc|llp|pty|pvt|sarl|s\.?r\.?l|oy|kk|k\.k)\b\.?")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
#: A company named in Chinese / Japanese text: a legal form, then the name after it (株式会社ミナト) or before it
#: (ミナト株式会社, 腾讯科技有限公司); names are katakana, Han or Latin (hiragana is the sentence around them).
_LEGAL_FORM_RE = re.compile(r"株式会社|有限会社|合同会社|(?:医療|社会福祉|学校|一般社団|一般財団)法人(?:社団)?|"
                            r"股份有限公司|有限责任公司|有限公司")
_NAME_CHARS = r"[\u30a0-\u30ff\u4e00-\u9fffA-Za-z0-9&・ー]"
_NAME_AFTER_RE = re.compile(rf"\s?({_NAME_CHARS}{{2,16}})")
_NAME_BEFORE_RE = re.compile(rf"({_NAME_CHARS}{{2,16}})\s?$")
#: A name with hiragana (ゆりかご苑, あおば会計) right after its legal form, up to a space or punctuation.
_KANA_NAME_AFTER_RE = re.compile(r"\s?([\u3040-\u30ff\u4e00-\u9fffA-Za-z0-9&・ー]{2,16})(?=[\s。、，,.:：(（【]|$)")
#: What follows a legal form when the sentence goes on after a name written before it: a hiragana particle or a figure.
_SENTENCE_GOES_ON_RE = re.compile(r"[\u3041-\u30960-9０-９%％]")
_CITY_PREFIX_RE = re.compile(r"^(?:[\u4e00-\u9fff]{2,3}市)")  # 深圳市腾讯... -> 腾讯...

#: Free mail providers: an address there names a person, not an employer (service.candidates keys it whole).
FREE_MAIL = frozenset(
    "gmail.com googlemail.com outlook.com hotmail.com live.com yahoo.com icloud.com me.com proton.me protonmail.com "
    "163.com 126.com qq.com foxmail.com sina.com sohu.com aliyun.com yeah.net aol.com gmx.de gmx.net web.de mail.ru "
    "yandex.ru hey.com yahoo.co.jp".split()
)
_RESERVED = frozenset({"example.com", "example.org", "example.net"})  # RFC 2606
#: Domains that name a host, not an employer (one list for blocking's contact key and the verifier's own sites):
#: code hosts, social sites and big companies, job boards and applicant trackers, link shorteners, documentation
#: domains; registrable domains, and a few whole hosts (mp.weixin.qq.com: qq.com is also a mail provider).
PLATFORMS = frozenset(
    """github.com linkedin.com twitter.com x.com ycombinator.com google.com notion.so notion.site medium.com
youtube.com t.me telegram.me discord.gg discord.com wellfound.com angel.co docs.google.com forms.gle
greenhouse.io grnh.se lever.co ashbyhq.com workable.com lnkd.in github.io gitlab.com goo.gl bit.ly youtu.be
facebook.com instagram.com bamboohr.com personio.com personio.de teamtailor.com smartrecruiters.com recruitee.com
breezy.hr jobvite.com myworkdayjobs.com workday.com calendly.com typeform.com airtable.com techcrunch.com
wikipedia.org apple.com microsoft.com amazon.com boards.greenhouse.io example.com example.org zhipin.com lagou.com
mp.weixin.qq.com weixin.qq.com feishu.cn larksuite.com rikunabi.com indeed.com glassdoor.com""".split()
)
#: Second-level labels kept under a 2-letter top-level domain: acme.co.uk, acme.com.cn, acme.go.jp.
_SECOND_LEVEL = frozenset({"co", "com", "ac", "org", "net", "gov", "edu", "ne", "or", "go"})


#: Latin legal forms written at the end of a name only ("Nordvik AB", "Acme SAS", "Acme Pvt"): as words they are
#: too short or too common to drop anywhere.
_LATIN_LEGAL_END_RE = re.compile(
    r"(?i)(?<=[\s,])(?:ab|as|asa|aps|nv|sas|sa|spa|s\.p\.a|sl|kg|ug|e\.?v|ltda|pbc|lp|pllc|sro|s\.r\.o|kft|bhd|sdn|oü)\.?$")
#: Places a Chinese registered name starts with (北京 / 广东省 / 深圳市 ...): provinces, municipalities, big cities.
_ZH_PLACES = """北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州
云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门 深圳 广州 杭州 南京 苏州 成都 武汉 西安 厦门 青岛 大连 宁波 长沙
郑州 济南 合肥 福州 昆明 沈阳 哈尔滨 长春 石家庄 太原 南昌 南宁 贵阳 兰州 海口 三亚 珠海 佛山 东莞 无锡 常州 温州 绍兴 嘉兴
金华 台州 烟台 泉州 中山 惠州 徐州 扬州 南通 洛阳 呼和浩特 乌鲁木齐 银川 西宁 拉萨""".split()
_ZH_PLACE_RE = re.compile(rf"^(?:{'|'.join(sorted(_ZH_PLACES, key=len, reverse=True))})(?:省|市|自治区)?")
#: What a Chinese / Japanese registered name adds after the trade name (its line of business, 科技 / 网络科技 /
#: 旅行社 / 文化传媒 / ホールディングス): a short name often leaves it out (飞鱼旅行 of 三亚飞鱼旅行旅行社有限公司).
_CJK_TRADE_WORDS = """科技 技术 网络 信息 软件 数据 数字 智能 电子 电子商务 商务 文化 传媒 传播 广告 咨询 管理 投资 资本 资产 基金 金融
服务 实业 贸易 商贸 控股 集团 发展 生物 医药 医疗 健康 教育 培训 能源 新能源 环保 物流 供应链 互动 娱乐 游戏 影视 旅行社 旅行 旅游
酒店 餐饮 家居 装饰 建筑 工程 设计 装备 制造 工业 机械 汽车 美容 护理院 护理 养老 物业 人力资源 安全 支付 工作室 实验室 研究院
研究所 中心 分公司 总公司 事务所 法律 科学 系统 区块链 公司 ホールディングス グループ""".split()
_CJK_TRADE_ENDS = tuple(sorted(_CJK_TRADE_WORDS, key=len, reverse=True))  # longest first: the longest suffix wins
#: The same for Latin names, as whole words: "Mantle Network", "Desyn Protocol", "Gear Foundation", "Gate.io",
#: "Team Taoist" (company_key already drops labs / technologies / ai / co / company).
_LATIN_TRADE_WORDS = frozenset("""network networks protocol foundation dao team tech group holdings studio studios software systems
solutions global io xyz finance exchange ventures capital research app""".split())
_LATIN_LEAD_WORDS = frozenset({"the", "team"})


def _employer_words(name: str) -> str:
    """`name` NFKC-normalized without batch tags, legal forms, city prefixes or punctuation, words space-separated."""
    if not name:
        return ""
    s = unicodedata.normalize("NFKC", name)
    s = _TAG_RE.sub(" ", s)
    if _CJK_RE.search(s):
        s = _CJK_LEGAL_RE.sub(" ", s)
        s = _CITY_PREFIX_RE.sub("", s.strip())
    return company_key(_without_latin_legal_end(_LATIN_LEGAL_RE.sub(" ", s).strip()))


def _without_latin_legal_end(s: str) -> str:
    """`s` without a Latin legal form at its end and the spaces / commas before it ("Nordvik AB" -> "Nordvik");
    linear in `s` (a pattern starting with a run of separators backtracks over every long run of spaces)."""
    m = _LATIN_LEGAL_END_RE.search(s)
    if not m:
        return s
    i = m.start()
    while i and (s[i - 1].isspace() or s[i - 1] == ","):
        i -= 1
    return s[:i]


def employer_key(name: str) -> str:
    """An employer name without batch tags, legal forms, city prefixes or punctuation ("" when nothing is left):
    the verifier's employer names (compared with containment, names_agree)."""
    return _employer_words(name).replace(" ", "")


def employer_core(name: str) -> str:
    """The employer's trade name, compared by equality where containment is too costly (service.candidates'
    blocking keys): employer_key without a leading Chinese place (三亚, 广东省) or trailing line-of-business words (科技,
    旅行社, Network, Protocol), so a registered name and its short name agree: 三亚飞鱼旅行旅行社有限公司 = 飞鱼旅行,
    "Mantle Network" = "Mantle". Coarser than employer_key: two firms sharing a trade name agree here (a candidate
    pair the verifier then decides), never less than 2 CJK characters or 3 letters."""
    return _trade_parts(name)[0]


@line_cache
def _trade_parts(name: str) -> tuple[str, tuple[str, ...]]:
    """(employer_core of `name`, the line-of-business words it dropped, last first); cached per name as per line
    (signatures.extract.line_cache: bounded, a long name computed, not kept)."""
    words = _employer_words(name).split()
    while len(words) > 1 and words[0] in _LATIN_LEAD_WORDS:
        words.pop(0)
    kept = sum(map(len, words))
    dropped: list[str] = []
    while len(words) > 1 and words[-1] in _LATIN_TRADE_WORDS and kept - len(words[-1]) >= 3:
        kept -= len(words[-1])
        dropped.append(words.pop())
    s = "".join(words)
    if _CJK_RE.search(s):
        if len(rest := _ZH_PLACE_RE.sub("", s)) >= 2:
            s = rest
        end = len(s)
        while (w := next((w for w in _CJK_TRADE_ENDS if s.endswith(w, 0, end)), "")) and end - len(w) >= 2:
            end -= len(w)
            dropped.append(w)
        s = s[:end]
    return s, tuple(dropped)


def _same_trade(x: str, y: str) -> bool:
    """Two employer names of one firm by its trade name (employer_core): the same trade name, and the
    line-of-business words of one all in the other's — 牧国科技 = 牧国网络科技, 飞鱼旅行 = 三亚飞鱼旅行旅行社; 林泽科技 is
    not 林泽资本管理 (two firms sharing the trade name, one blocking key)."""
    (cx, wx), (cy, wy) = _trade_parts(x), _trade_parts(y)
    return cx == cy and _long_enough(cx) and (set(wx) <= set(wy) or set(wy) <= set(wx))


def registrable(host: str) -> str:
    """The registrable part of a host name: `jobs.acme.co.uk` -> `acme.co.uk`, `a.b.acme.io` -> `acme.io` (two
    labels, three under a 2-letter top level whose second level is in _SECOND_LEVEL)."""
    parts = host.lower().strip(".").split(".")
    k = 3 if len(parts) >= 3 and len(parts[-1]) == 2 and parts[-2] in _SECOND_LEVEL else 2
    return ".".join(parts[-k:])


def _own_site(host: str) -> str:
    """`registrable`, but on a documentation domain (RFC 2606) the name before it: acme.example.com is acme's own."""
    dom = registrable(host)
    return ".".join(host.lower().strip(".").split(".")[-3:]) if dom in _RESERVED else dom


def employer_sites(ex: Extracted) -> frozenset[str]:
    """The employer's own domains: bare links (`https://acme.io`, a homepage) and company e-mail domains."""
    out = {_own_site(u) for u in ex.urls if "/" not in u and not u.startswith("handle:") and "." in u
           and u not in PLATFORMS}
    out |= {_own_site(e.rsplit("@", 1)[1]) for e in ex.emails if e.rsplit("@", 1)[1] not in FREE_MAIL}
    return frozenset(out - PLATFORMS)


def site_label(site: str) -> str:
    """The name part of a registrable domain: `acme.co.uk` -> `acme` (dashes dropped)."""
    return site.split(".", 1)[0].replace("-", "")


def employer_names(ex: Extracted, sites: frozenset[str] = frozenset()) -> frozenset[str]:
    """Normalized names the posting gives for its employer: the company field (or HN header), else the company its
    title names before a hiring verb and companies named in Chinese / Japanese text with their legal form; plus the
    name part of its own sites."""
    out = {employer_key(ex.company)}
    if not ex.company:
        out.update(names_in_title(ex.title))
        if ex.lang != "en":
            out.update(names_in_text(ex.text))
    out.discard("")
    # a site label inside one of the names (greyhound.dev of "Greyhound Tax") adds no name of its own, yet
    # would agree by containment with another employer sharing the word ("Greyhound Ventures")
    out.update(_labels_not_inside(out, map(site_label, sites)))
    return frozenset(k for k in out if len(k) >= 2)


def _labels_not_inside(names: set[str], labels: Iterable[str]) -> list[str]:
    """The distinct labels, sorted, that lie inside none of `names`, at most MAX_SITE_NAMES of them: an employer has
    a few sites, a posting listing thousands of mail domains names no more employers by them. Sorted and checked
    against the names only, so the result never depends on the order of a set of sites (string hashes differ from
    process to process: checked against the labels kept before it too, reef of reef.com was kept or dropped beside
    reeftechnologies.com by chance, and so was the agreement with "Reef Kitchens")."""
    kept: list[str] = []
    for label in sorted(set(labels)):
        if len(kept) == MAX_SITE_NAMES:
            break
        if not any(label in n for n in names):
            kept.append(label)
    return kept


#: Site labels a posting's employer names take at most (real postings: a handful of own sites).
MAX_SITE_NAMES = 32


def names_in_text(text: str, limit: int = 3, key: Callable[[str], str] = employer_key) -> list[str]:
    """Names (normalized by `key`) of up to `limit` companies a Chinese / Japanese text names with their legal form
    (株式会社ミナト, 腾讯科技有限公司), in order, from its first 3000 characters."""
    head = text[:3000]
    out: list[str] = []
    if "会社" not in head and "公司" not in head and "法人" not in head:
        return out
    for m in _LEGAL_FORM_RE.finditer(head):
        before = _NAME_BEFORE_RE.search(head, max(0, m.start() - 17), m.start())
        # a name right before the form and a particle or figure after it: the name came first (佐藤製薬株式会社で扱う,
        # ヤマハ株式会社100％出資), not "で扱う" / "100" after it
        after = m.group(0).endswith(("会社", "法人", "社団")) and not (before and _SENTENCE_GOES_ON_RE.match(head, m.end()))
        name = (_NAME_AFTER_RE.match(head, m.end()) or _KANA_NAME_AFTER_RE.match(head, m.end())) if after else None
        name = name or before
        k = key(name.group(1)) if name else ""
        if k and k not in out:
            out.append(k)
            if len(out) >= limit:
                break
    return out


#: A company a Chinese post's title names before its hiring verb: `Lbank诚聘`, `Reddio 公司诚聘`, `非凸科技诚聘`,
#: `各一网络科技有限公司诚聘`, `杭州星河数科技术有限公司招聘` (any Han name before its legal form),
#: `Gate.io is looking for` (Latin words, or Han characters ending in a company word such as 科技 / 网络 / 实验室).
_TITLE_NAME_RE = re.compile(
    r"([A-Za-z][A-Za-z0-9.&-]{0,30}(?:\s[A-Za-z][A-Za-z0-9.&-]{0,30}){0,2}|[\u4e00-\u9fff]{2,6}(?:科技|网络|实验室|资本)"
    r"|[\u4e00-\u9fff]{2,16}(?=股份有限公司|有限责任公司|有限公司))"
    r"[ \t]{0,3}(?:股份有限公司|有限责任公司|有限公司|公司|团队|交易所|项目)?[ \t]{0,3}(?:高薪)?(?:诚聘|招聘|直招|急聘|诚招|招募)")
#: The English form, its subject the whole title after bracketed tags: `[Remote] Gate.io is looking for`, `SoftGalaxy is
#: hiring` (not `High-tech blockchain US startup Company is looking for`: a description of four words and more).
_TITLE_NAME_EN_RE = re.compile(
    r"^(?:\s*[\[【(（][^\]】)）]{0,60}[\]】)）])*\s*([A-Za-z][A-Za-z0-9.&-]{0,30}(?:[ \t][A-Za-z][A-Za-z0-9.&-]{0,30}){0,2})"
    r"(?:[ \t]+(?i:company|team))?[ \t]+(?i:is|are)[ \t]+(?i:looking[ \t]+for|hiring)\b")
_HIRING_VERBS = ("诚聘", "招聘", "直招", "急聘", "诚招", "招募")
#: Words that describe a company without naming it (`Web3公司诚聘`, `Top20 CEX诚聘`, `某金融科技诚聘`).
_GENERIC_NAME_WORDS = frozenset("""web web3 web3.0 app saas crypto cex dex defi nft nfts dao dapp dapps rwa zk layer2 l2 ai fintech
exchange exchanges social startup start-up top cmc remote ecosystem developers developer blockchain metaverse gamefi game
games tech company team project global leading xxxx test hiring""".split())
_GENERIC_TOP_RE = re.compile(r"(?i)^(?:top\d*|top\d+\w*|\d+\w*)$")
_GENERIC_HAN_RE = re.compile(r"^(?:某|一家|知名|头部|大型|中型|小型|金融|互联网|区块链|数字|加密)")


def names_in_title(title: str, key: Callable[[str], str] = employer_key) -> list[str]:
    """Name (normalized by `key`) of the company a Chinese post's title names before its hiring verb (`Lbank诚聘`,
    `非凸科技诚聘`, `Gate.io is looking for`), [] for a description instead of a name (`Web3公司诚聘`, `Top20 CEX诚聘`)."""
    head = title[:300] if title else ""
    m = _TITLE_NAME_RE.search(head) if any(v in head for v in _HIRING_VERBS) else None
    m = m or (_TITLE_NAME_EN_RE.match(head) if " is " in head.lower() or " are " in head.lower() else None)
    if m is None:
        return []
    name = m.group(1)
    if _CJK_RE.search(name):
        if _GENERIC_HAN_RE.match(name):
            return []
    else:
        words = name.lower().split()
        if all(w in _GENERIC_NAME_WORDS or _GENERIC_TOP_RE.match(w) for w in words) or len(name.replace(" ", "")) < 3:
            return []
    k = key(name)
    return [k] if len(k) >= 2 else []


def _long_enough(key: str) -> bool:
    return len(key) >= (2 if _CJK_RE.search(key) else 4)


def names_agree(a: frozenset[str], b: frozenset[str]) -> bool:
    """Some name of `a` equals one of `b`, or contains it (the shorter at least 4 letters or 2 CJK characters):
    "acmerobotics" ~ "acme"; or both name one firm by its trade name (`_same_trade`: 牧国科技 ~ 牧国网络科技)."""
    for x in a:
        for y in b:
            if x == y or (_long_enough(min(x, y, key=len)) and (x in y or y in x)) or _same_trade(x, y):
                return True
    return False
