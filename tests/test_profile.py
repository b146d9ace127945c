"""profile_sig: equals Solr's signature for text without Han/kana; over real words for Chinese and
Japanese (robust to formatting, contact details and order; sensitive to what the job is).
All postings are generated here from small vocabularies."""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signatures import profile, script, segment
from signatures import textprofile as tp
from signatures.jobfacts import description_facts
from signatures.profile import PROFILE_FIELDS, posting_profile_signature, profile_signature
from signatures.textprofile import solr_fields_signature, solr_text_signature, solr_tokens

EMPTY_MD5 = hashlib.md5(b"").hexdigest()

# Chinese: employer boilerplate and role-specific words (separated, so every word is its own run).
ZH_COMPANY = (
    "我们 是 一家 区块链 公司 团队 来自 全球 产品 用户 社区 生态 融资 投资 机构 支持 办公 福利 期权".split()
)
ZH_ROLES = {
    "前端": "前端 页面 交互 组件 浏览器 样式 性能 框架 移动 适配".split(),
    "后端": "后端 服务 数据库 接口 缓存 并发 分布式 部署 存储 架构".split(),
    "合约": "合约 审计 安全 漏洞 协议 代币 链上 部署 测试 升级".split(),
}
ZH_PUNCT = ("，", "。", "；", "、", "！")
JA_COMPANY = "当社 東証 上場 全国 店舗 展開 安定 基盤 社員 研修 制度 福利 厚生 充実 休日 休暇".split()
JA_ROLES = {
    "営業": "営業 顧客 提案 法人 新規 開拓 契約 目標 訪問 商談".split(),
    "事務": "事務 書類 作成 入力 電話 対応 管理 整理 経理 伝票".split(),
    "美容": "美容 接客 施術 カット カラー 技術 指名 予約 店長 資格".split(),
}
JA_PARTICLES = ("の", "を", "に", "で", "と")


def zh_posting(rng: random.Random, role: str, title: str, contact: str = "hr@example.com") -> dict:
    """A Chinese posting: boilerplate paragraph(s), role duties (repeated words), contact line."""
    lines = []
    for _ in range(4):
        words = rng.sample(ZH_COMPANY, 8)
        lines.append(" ".join(words) + rng.choice(ZH_PUNCT))
    for _ in range(6):
        words = rng.sample(ZH_ROLES[role], 5) + [ZH_ROLES[role][0]]
        lines.append(" ".join(words) + rng.choice(ZH_PUNCT))
    lines.append(f"简历 发送 {contact} 或 https://jobs.example.com/{rng.randint(1, 999)}")
    return {"id": f"zh-{rng.random()}", "title": title, "description": "\n".join(lines)}


def ja_posting(rng: random.Random, role: str, title: str, contact: str = "saiyo@example.jp") -> dict:
    """A Japanese posting built from nouns joined by particles."""
    lines = []
    for vocab, n in ((JA_COMPANY, 4), (JA_ROLES[role], 6)):
        for _ in range(n):
            words = rng.sample(vocab, 5) + [vocab[0]]
            lines.append("".join(w + rng.choice(JA_PARTICLES) for w in words) + "募集します。")
    lines.append(f"応募は{contact}まで")
    return {
        "id": f"ja-{rng.random()}",
        "title": title,
        "company": "株式会社テスト",
        "description": "\n".join(lines),
    }


# --- Solr equality without Han/kana -----------------------------------------------------------------


def test_orientation_vector_from_the_issue() -> None:
    # quantRate 1.0 in the issue; with no repeated token the quant is 1 for any rate.
    assert profile_signature("I have an apple") == "8b821c9e763bb2fc567d473996cfde4a"


def test_empty_inputs_sign_nothing() -> None:
    assert profile_signature("") == EMPTY_MD5
    assert posting_profile_signature({}) == EMPTY_MD5
    assert posting_profile_signature({"id": "x", "url": "u"}) == EMPTY_MD5
    assert posting_profile_signature({"title": ""}) == solr_fields_signature({"title": ""}, PROFILE_FIELDS)


NON_CJK = st.lists(
    st.sampled_from(
        list("abcXYZ éÉßİσΣ 0123 .,;!?-_\n\t") + ["Rust", "서울", "개발", "Москва", "ﬁ", "Ⅻ", "ａｂ"]
    ),
    max_size=80,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(NON_CJK)
def test_text_without_han_or_kana_equals_solr(text: str) -> None:
    assert profile_signature(text) == solr_text_signature(text)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["title", "company", "description", "location", "url"]),
        st.one_of(NON_CJK, st.lists(NON_CJK, max_size=3), st.none(), st.integers()),
        max_size=5,
    )
)
def test_posting_without_han_or_kana_equals_solr_signature(posting: dict) -> None:
    assert posting_profile_signature(posting) == solr_fields_signature(posting, PROFILE_FIELDS)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            list("abcXYZ019 .,;!?-_\n\t?")
            + [
                "éÉ",
                "ß",
                "İ",
                "Σ",
                "²",
                "Ⅻ",
                "①",
                "ａＢ",
                "，",
                "。",
                "●",
                "서울",
                "\u0301",
                "ﬁ",
                "\U0001d400",
            ]
        ),
        max_size=60,
    ).map("".join)
)
def test_between_tokens_equal_solr_tokens(text: str) -> None:
    assert profile.between_tokens(text) == solr_tokens(text, profile.NON_CJK_MIN_TOKEN_LEN)


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="expects str"):
        profile_signature(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expects a mapping"):
        posting_profile_signature("a text")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        posting_profile_signature({"title": "招聘", "description": {"nested": 1}})


# --- CJK: what counts --------------------------------------------------------------------------------


def test_chinese_tokens_are_words_and_solr_tokens() -> None:
    counts = profile.cjk_counts("我们招聘智能合约工程师，使用Rust和Go开发智能合约。联系 a@b.com")
    assert counts["智能"] == 2 and counts["合约"] == 2 and counts["工程师"] == 1
    assert counts["rust"] == 1  # Solr rule between CJK runs: lowercase, longer than 2
    assert "go" not in counts and "和" not in counts  # too short (Solr rule / single CJK character)
    assert not any("@" in k or k in ("com", "b") for k in counts)  # e-mail removed


def test_japanese_tokens_drop_particles_and_fold_width() -> None:
    counts = profile.cjk_counts("東京の会社でｽﾀｯﾌを募集します。ＡＷＳ経験")
    assert counts["スタッフ"] == 1  # halfwidth katakana folded
    assert counts["aws"] == 1  # fullwidth Latin folded, then Solr-lowercased
    assert counts["東京"] == 1 and counts["募集"] == 1
    for particle in ("の", "で", "を", "ます"):
        assert particle not in counts


def test_quant_keeps_every_word_of_a_title_that_repeats_one() -> None:
    # Stock TextProfileSignature drops every single-occurrence token once any token repeats, so
    # these two titles (different cities) would both reduce to their repeated word.
    a = profile.cjk_profile(profile.cjk_counts("前端 工程师 前端 上海"))
    b = profile.cjk_profile(profile.cjk_counts("前端 工程师 前端 北京"))
    assert a != b
    assert a.splitlines()[0] == "前端 2"
    assert "上海 1" in a.splitlines()


def test_cjk_profile_quantizes_long_values() -> None:
    rate = Fraction(3, 10)
    tokens = ["合约"] * 20 + ["审计"] * 7 + ["安全"] * 5 + ["测试"] * 1
    lines = profile.cjk_profile(tokens, rate).splitlines()  # quant = round(20 * 0.3) = 6
    assert lines == ["合约 18", "审计 6"]
    # ordered by the quantized count, then by the word: raw counts 7 and 6 both quantize to 6
    tokens = ["合约"] * 20 + ["审计"] * 6 + ["安全"] * 7
    assert profile.cjk_profile(tokens, rate).splitlines() == ["合约 18", "安全 6", "审计 6"]
    tokens = ["合约"] * 20 + ["审计"] * 7 + ["安全"] * 6
    assert profile.cjk_profile(tokens, rate).splitlines() == ["合约 18", "安全 6", "审计 6"]
    # round half up: 5 * 0.3 = 1.5 -> quant 2
    assert profile.cjk_profile(["合约"] * 5 + ["审计"], rate) == "合约 4"
    # the default rate is CJK_QUANT_RATE
    tokens = ["合约"] * 20 + ["审计"] * 9 + ["安全"] * 3
    assert profile.cjk_profile(tokens) == profile.cjk_profile(tokens, profile.CJK_QUANT_RATE)
    assert profile.cjk_profile([]) == ""


# --- CJK: same job -> same signature; different job -> different signature ---------------------------


@pytest.mark.parametrize("make,roles", [(zh_posting, ZH_ROLES), (ja_posting, JA_ROLES)])
def test_repost_with_shuffled_lines_and_new_contact_keeps_signature(make, roles) -> None:  # noqa: ANN001
    for seed in range(20):
        rng = random.Random(seed)
        role = rng.choice(sorted(roles))
        post = make(rng, role, f"{role} 招聘")
        repost = dict(post)
        lines = post["description"].split("\n")
        body, contact = lines[:-1], lines[-1]
        rng.shuffle(body)
        contact = contact.replace("example", "other-site")
        repost["description"] = "\n\n".join(body + [contact]).replace("。", "！")
        assert posting_profile_signature(repost) == posting_profile_signature(post), seed


@pytest.mark.parametrize("make,roles", [(zh_posting, ZH_ROLES), (ja_posting, JA_ROLES)])
def test_different_jobs_sharing_boilerplate_and_title_differ(make, roles) -> None:  # noqa: ANN001
    names = sorted(roles)
    for seed in range(20):
        rng = random.Random(1000 + seed)
        a_role, b_role = rng.sample(names, 2)
        a = make(random.Random(seed), a_role, "工程师 招聘")
        b = make(random.Random(seed), b_role, "工程师 招聘")  # same boilerplate draws, same title
        assert posting_profile_signature(a) != posting_profile_signature(b), seed


def test_html_and_plain_copies_of_a_cjk_posting_agree() -> None:
    rng = random.Random(21)
    post = zh_posting(rng, "合约", "合约 工程师")
    lines = post["description"].split("\n")
    body = "".join(f'<p class="x">{line.replace(" ", "&nbsp;")}</p>\n<div><br/></div>' for line in lines)
    html_post = dict(post, description=f"<div><strong>职位</strong></div>{body}")
    plain_post = dict(post, description="职位\n" + post["description"])
    assert posting_profile_signature(html_post) == posting_profile_signature(plain_post)


def test_cjk_title_is_part_of_the_signature() -> None:
    rng = random.Random(3)
    post = zh_posting(rng, "后端", "后端 工程师 上海")
    other = dict(post, title="后端 工程师 北京")
    assert posting_profile_signature(post) != posting_profile_signature(other)


# --- site metadata: company and title tags (issue 9) --------------------------------------------------


def test_configset_signs_the_profile_fields() -> None:
    """Solr's `signature` and profile_sig sign the same fields (the configset's `fields` parameter)."""
    import xml.etree.ElementTree as ET
    from pathlib import Path

    conf = Path(__file__).resolve().parents[1] / "solr-config" / "postings" / "conf" / "solrconfig.xml"
    procs = [p for p in ET.parse(conf).iter("processor") if p.get("class", "").endswith("SignatureUpdateProcessorFactory")]
    assert len(procs) == 1
    (fields,) = [s.text for s in procs[0].iter("str") if s.get("name") == "fields"]
    assert tuple(f.strip() for f in fields.split(",")) == PROFILE_FIELDS


def _latin_posting(rng: random.Random, role: str) -> dict:
    words = "build ship review design test deploy scale monitor mentor plan".split()
    body = ". ".join(" ".join(rng.sample(words, 6) + [role]) for _ in range(8))
    return {"id": "en", "title": f"{role.title()} Engineer", "company": "Acme Robotics", "description": body}


@pytest.mark.parametrize("lang", ["zh", "ja", "en"])
def test_company_filled_or_missing_keeps_signature(lang: str) -> None:
    """One site fills `company`, another leaves it empty or spells it otherwise: one ad, one profile_sig."""
    for seed in range(10):
        rng = random.Random(seed)
        if lang == "zh":
            post = zh_posting(rng, rng.choice(sorted(ZH_ROLES)), "后端 工程师", ) | {"company": "某某 科技"}
        elif lang == "ja":
            post = ja_posting(rng, rng.choice(sorted(JA_ROLES)), "営業スタッフ募集")
        else:
            post = _latin_posting(rng, rng.choice(["backend", "frontend", "data"]))
        sig = posting_profile_signature(post)
        variants = [{k: v for k, v in post.items() if k != "company"}, dict(post, company=""),
                    dict(post, company=None), dict(post, company=["Other Name Inc.", "株式会社 別名"])]
        assert [posting_profile_signature(v) for v in variants] == [sig] * len(variants), seed
        if lang == "en":  # Latin script: still Solr's signature over the configset's fields
            assert sig == solr_fields_signature(post, PROFILE_FIELDS)


TITLE_TAGS = (" ／ 営業職", "／事務", "｜正社員", " | 全职", " [Engineering]", "［営業］", "【急募】", "（4名）",
              " (Remote)", " - 技术类", " — 研发", "〔アルバイト〕", "《兼职》")


@pytest.mark.parametrize("make,roles,title", [(zh_posting, ZH_ROLES, "后端 开发 工程师"),
                                              (ja_posting, JA_ROLES, "法人営業スタッフ"),
                                              (ja_posting, JA_ROLES, "【法人営業】未経験歓迎")])
def test_site_category_appended_to_the_title_keeps_signature(make, roles, title) -> None:  # noqa: ANN001
    for seed in range(6):
        rng = random.Random(seed)
        post = make(rng, rng.choice(sorted(roles)), title)
        sig = posting_profile_signature(post)
        for i, tag in enumerate(TITLE_TAGS):
            tagged = dict(post, title=title + tag)
            twice = dict(post, title=title + tag + TITLE_TAGS[(i + seed + 1) % len(TITLE_TAGS)] + "  ")
            assert posting_profile_signature(tagged) == sig, (seed, tag)
            assert posting_profile_signature(twice) == sig, (seed, twice["title"])


def test_title_tags_never_merge_different_titles() -> None:
    """Only trailing tags go: a different title before them, a leading tag (often a city) and a title
    that is nothing but a tag still count."""
    rng = random.Random(5)
    post = zh_posting(rng, "后端", "x")
    pairs = [("后端 工程师 ／ 技术类", "前端 工程师 ／ 技术类"), ("[上海] 后端 工程师", "[北京] 后端 工程师"),
             ("【上海】后端 工程师 | 全职", "【北京】后端 工程师 | 全职"), ("【后端】", "【前端】")]
    for a, b in pairs:
        assert posting_profile_signature(dict(post, title=a)) != posting_profile_signature(dict(post, title=b)), a


@pytest.mark.parametrize("make,roles", [(zh_posting, ZH_ROLES), (ja_posting, JA_ROLES)])
def test_different_jobs_of_one_company_still_differ(make, roles) -> None:  # noqa: ANN001
    """Same company, boilerplate and title core; one posting carries a site category: other job, other sig."""
    names = sorted(roles)
    for seed in range(20):
        a_role, b_role = random.Random(2000 + seed).sample(names, 2)
        a = make(random.Random(seed), a_role, "スタッフ募集 ／ 営業職") | {"company": "株式会社テスト"}
        b = make(random.Random(seed), b_role, "スタッフ募集") | {"company": "株式会社テスト"}
        assert posting_profile_signature(a) != posting_profile_signature(b), seed


def test_mostly_latin_posting_with_a_few_han_is_signed_as_solr_does() -> None:
    """A salary in 元 or a name in Han does not put a long English posting on the CJK path, whose
    quantization (meant for segmented words) would keep only its most frequent words: two different
    jobs of one title would share a signature once company is no longer signed."""
    rng = random.Random(8)
    a, b = (_latin_posting(rng, role) | {"title": "Backend Engineer 后端"} for role in ("payments", "search"))
    a["description"] += " Salary 30000 元."
    b["description"] += " Salary 30000 元."
    assert posting_profile_signature(a) == solr_fields_signature(a, PROFILE_FIELDS)
    assert posting_profile_signature(a) != posting_profile_signature(b)
    assert profile_signature(a["description"]) == solr_text_signature(a["description"])
    assert profile.mostly_cjk("招聘 Go") and profile.mostly_cjk("a" * 9 + "招")
    assert not profile.mostly_cjk("a" * 10 + "招") and not profile.mostly_cjk("abc")
    # markup is not text: a Chinese value wrapped in HTML stays on the CJK path
    html = {"title": "后端", "description": '<div class="job-description-container">' + "招聘后端工程师" * 3 + "</div>"}
    assert posting_profile_signature(html) != solr_fields_signature(html, PROFILE_FIELDS)


def test_title_core_rules() -> None:
    tc = profile.title_core
    assert tc("営業企画 ／ 営業職") == tc("営業企画｜正社員【急募】 ") == "営業企画"
    assert tc("Backend Engineer [Engineering]") == "Backend Engineer"
    assert tc("【医療事務】") == "【医療事務】"  # nothing but a tag: kept
    assert tc("[上海] 后端 工程师") == "[上海] 后端 工程师"  # leading tags stay
    assert tc("施設警備/池袋") == "施設警備/池袋"  # an ASCII slash without spaces is part of the title
    assert tc("后端 工程师 薪水 30K - 50K") == "后端 工程师 薪水 30K - 50K"  # digits after a separator: a range
    assert tc("后端 工程师 | 30K-50K | 全职") == "后端 工程师 | 30K-50K"
    assert tc("后端 工程师 ／ " + "很长的类别" * 5) == "后端 工程师 ／ " + "很长的类别" * 5  # longer than TITLE_TAG_MAX
    assert tc("ab" + " | x" * 50) == "ab" + " | x" * (50 - profile.TITLE_TAGS_MAX)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["営業", "ab", "1", " ", "  ", "\u3000", "／", "|", " - ", "-", "[", "]", "【", "】",
                                 "（", "）", "x" * 19, "类别", "30K"]), max_size=30).map("".join))
def test_title_core_scans_only_the_tail_yet_equals_a_whole_title_search(title: str) -> None:
    whole = re.compile(profile._TITLE_TAG.pattern)
    core = title.rstrip()
    for _ in range(profile.TITLE_TAGS_MAX):
        m = whole.search(core)
        if m is None or len(re.findall(r"[^\W_]", core[: m.start()].rstrip())[:2]) < 2:
            break
        core = core[: m.start()].rstrip()
    assert profile.title_core(title) == core


def test_title_core_is_fast_on_pathological_titles() -> None:
    import time

    for title in ("［" * 200_000, "a|" * 100_000, "ab" + " - " * 100_000 + "x", "【" + "a" * 200_000 + "】"):
        t0 = time.perf_counter()
        profile.title_core(title)
        assert time.perf_counter() - t0 < 1.0, title[:10]


def test_rjieba_and_jieba_give_the_same_signatures() -> None:
    rng = random.Random(17)
    posts = [zh_posting(rng, rng.choice(sorted(ZH_ROLES)), "招聘") for _ in range(30)]
    # unspaced text as well: jieba decides the word boundaries itself
    posts += [dict(p, description=p["description"].replace(" ", "")) for p in posts]
    fast = profile.posting_profile_signatures(posts)
    saved = segment.get_segmenter("zh")
    segment._INSTANCES["zh"] = segment.get_segmenter("zh-jieba")
    try:
        ref = profile.posting_profile_signatures(posts)
    finally:
        segment._INSTANCES["zh"] = saved
    assert fast == ref


def test_posting_language_decides_the_segmenter() -> None:
    assert profile._runs_language(["東京", "営業", "を", "募集"]) == "ja"
    assert profile._runs_language(["东京", "营业", "招聘"]) == "zh"
    # a Japanese posting whose title is all kanji: the title is segmented as Japanese too
    post = {"title": "営業部長", "description": "東京の本社で営業部長を募集しています。"}
    title_ja = profile.cjk_profile(profile.cjk_counts("営業部長", "ja"))
    title_zh = profile.cjk_profile(profile.cjk_counts("営業部長", "zh"))
    assert title_ja != title_zh
    desc = profile.cjk_profile(profile.cjk_counts(post["description"], "ja"))
    name = profile._name_profile
    expected = profile.profile_digest([name("description"), desc, name("title"), title_ja])
    assert posting_profile_signature(post) == expected


# --- determinism and CLI -------------------------------------------------------------------------------

_SCRIPT = """
import random, sys
sys.path.insert(0, {tests!r})
from test_profile import zh_posting, ja_posting, ZH_ROLES, JA_ROLES
from signatures.profile import posting_profile_signature
rng = random.Random(99)
posts = [zh_posting(rng, r, "招聘") for r in sorted(ZH_ROLES)] + [ja_posting(rng, r, "募集") for r in sorted(JA_ROLES)]
print(" ".join(posting_profile_signature(p) for p in posts))
"""


def test_signatures_are_deterministic_across_processes() -> None:
    code = _SCRIPT.format(tests=os.path.dirname(__file__))
    outs = set()
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, env=env, timeout=300, check=True
        )
        outs.add(res.stdout)
    assert len(outs) == 1
    assert len(outs.pop().split()) == len(ZH_ROLES) + len(JA_ROLES)


def _cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "sig", *args], input=stdin, capture_output=True, timeout=300
    )


def test_cli_sig_prints_profile_signature() -> None:
    text = "我们招聘智能合约工程师，智能合约审计"
    res = _cli(text)
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().strip() == profile_signature(text)
    rng = random.Random(8)
    posts = [zh_posting(rng, "合约", "合约 工程师"), ja_posting(rng, "営業", "営業"), {"title": "Rust dev"}]
    stdin = b"\n".join(orjson.dumps(p) for p in posts) + b"\n" + orjson.dumps("東京の会社") + b"\n"
    res = _cli("--jsonl", stdin=stdin)
    assert res.returncode == 0, res.stderr
    expected = [posting_profile_signature(p) for p in posts] + [profile_signature("東京の会社")]
    assert res.stdout.decode().split() == expected


# --- the fast paths equal a straightforward reference implementation ----------------------------------
# The reference below is the signature's definition written plainly: no shared caches, no joined
# segmenter calls, every jieba piece cut on its own, every MeCab run parsed on its own with its
# morphemes filtered in Python, Solr's exact tokenizer between runs, quant with Fractions.

# width folding: NFKC of each maximal run of fullwidth Latin/digits, halfwidth kana, compat ideographs
_REF_WIDTH = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff66-\uff9f\uf900-\ufaff]+")
# jieba's own Han range: other characters of a run are 1-character words, never kept
_REF_JIEBA_PIECE = re.compile("[\u4e00-\u9fd5]+")


@pytest.fixture(scope="module")
def reference() -> Callable[[dict], str]:
    """The reference posting signature; its `.text` attribute signs one text (profile_signature)."""
    import shlex

    import fugashi
    import rjieba
    import unidic_lite

    from signatures.segment_ja import DROP_POS

    jieba = rjieba.Jieba()
    # fugashi's own node objects and UniDic feature parsing: independent of the segmenter's output format
    d = unidic_lite.DICDIR
    tagger = fugashi.Tagger(f"-d {shlex.quote(d)} -r {shlex.quote(d + '/mecabrc')}")

    def clean(text: str) -> str:
        text = profile.strip_markup(text)
        text = _REF_WIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
        return profile.strip_contacts(text)

    def counts(text: str, lang: str) -> Counter[str]:
        runs = script.CJK_RE.findall(text)
        words: list[str] = []
        for run in runs:
            if lang == "zh":
                for piece in _REF_JIEBA_PIECE.findall(run):
                    words += jieba.cut(piece, False)
            else:
                words += [n.surface for n in tagger(run) if n.feature.pos1 not in DROP_POS]
        c = Counter(w for w in words if len(w) >= 2)
        c.update(solr_tokens(script.CJK_RE.sub(" ", text), 2))
        return c

    def mostly_cjk(texts: list[str]) -> bool:
        """Han/kana >= 1/10 of the BMP letters and digits after markup and contacts are stripped."""
        chars = [c for t in texts for c in profile.strip_contacts(profile.strip_markup(t)) if c <= "\uffff"]
        cjk = sum(1 for c in chars if script.CJK_RE.match(c) and not "\ud800" <= c <= "\udfff")
        words = sum(1 for c in chars if c.isalnum() or script.CJK_RE.match(c) and not "\ud800" <= c <= "\udfff")
        return cjk > 0 and 10 * cjk >= words

    def cjk_profile(c: Counter[str], whole: Counter[str] | None = None) -> str:
        """`whole`: the counts quant is computed from (the value's and its dropped volatile text's words)."""
        if not c:
            return ""
        quant = max(1, math.floor(max((whole or c).values()) * Fraction(2, 5) + Fraction(1, 2)))
        q = {w: n // quant * quant for w, n in c.items() if n >= quant}
        return "\n".join(f"{w} {n}" for w, n in sorted(q.items(), key=lambda kv: (-kv[1], kv[0])))

    def sign(posting: dict) -> str:
        fields = []
        for name in sorted(PROFILE_FIELDS):
            if name in posting:
                v = posting[name]
                fields.append((name, [tp.java_string_value(x) for x in (v if isinstance(v, list) else [v])]))
        if not any(script.CJK_RE.search(v) for _, vs in fields for v in vs):
            return solr_fields_signature(posting, PROFILE_FIELDS)
        # title_core and description_core have their own tests (also test_profile_jobboard.py); the reference
        # applies them as posting_profile_signature must, and quantizes a description over all its words but the
        # footer's: the core's and the volatile text's
        cores = {"title": profile.title_core, "description": profile.description_core}
        gone_of = [profile.volatile_split(profile.footer_core(v))[1] if name == "description" else ""
                   for name, vs in fields for v in vs]
        fields = [(name, [cores[name](v) if name in cores else v for v in vs]) for name, vs in fields]
        if not mostly_cjk([v for _, vs in fields for v in vs]):
            return solr_fields_signature(posting, PROFILE_FIELDS)
        cleaned = [(name, [clean(v) for v in vs]) for name, vs in fields]
        lang = language([v for _, vs in cleaned for v in vs])
        profiles = []
        extra = iter(gone_of)
        for name, vs in cleaned:
            profiles.append(tp.java_profile(solr_tokens(name)))
            for v in vs:
                own, dropped = counts(v, lang), next(extra)
                profiles.append(cjk_profile(own, own + counts(clean(dropped), lang) if dropped else None))
        # the job facts (jobfacts has its own tests), as posting_profile_signature must add them: last, once each
        facts = sorted({f for name, vs in fields if name == "description" for v in vs for f in description_facts(v)})
        if facts:
            profiles.append("\n".join(f"{f} 1" for f in facts))
        return tp.profile_digest(profiles)

    def language(texts: list[str]) -> str:
        cjk = "".join(r for v in texts for r in script.CJK_RE.findall(v))
        kana = len("".join(script.KANA_RE.findall(cjk)))
        return "ja" if kana and kana >= 0.1 * len(cjk) else "zh"

    def sign_text(text: str) -> str:
        if not script.CJK_RE.search(text) or not mostly_cjk([text]):
            return solr_text_signature(text)
        cleaned = clean(text)
        return tp.profile_digest([cjk_profile(counts(cleaned, language([cleaned])))])

    sign.text = sign_text  # type: ignore[attr-defined]
    return sign


# Fragments that stress every step: markup, entities, width folding (fullwidth Latin, halfwidth kana,
# compatibility ideographs), contacts, Han outside jieba's range, astral Han, kana share near 10 %,
# non-ASCII word characters between runs (Solr's exact tokenizer), repeated words (quant > 1).
FRAGMENTS = (
    list(ZH_COMPANY)
    + [w for ws in ZH_ROLES.values() for w in ws]
    + list(JA_COMPANY)
    + [w for ws in JA_ROLES.values() for w in ws]
    + list(JA_PARTICLES)
    + list(ZH_PUNCT)
    + [
        "募集します",
        "しています",
        "ｽﾀｯﾌ",
        "ｶﾞｲﾄﾞ",
        "ＡＷＳ",
        "１２３",
        "\uf900\uf901",
        "\u3400\u4db5",
        "〇",
        "々",
        "\n【勤務地】\n",
        "\n【待遇・福利厚生】\n",
        "\n**联系方式：**\n",
        "\n応募締切：",
        "\n",
        "\n\n",
        "\n勤務地：",
        "\n### 工作地点\n",
        "\n【雇用形態】\n",
        "正社員",
        "アルバイト",
        "兼职",
        "時給1,200円",
        "9:00〜18:00",
        "恵比寿駅",
        "渋谷区恵比寿南1-4-2",
        "徐汇店",
    ]
    + ["\U00020000\U0002a6d6", "<p>", "</li>", "<br/>", "&amp;", "&#x4e2d;", "&lt;b&gt;", "\n", " ", "  "]
    + ["https://jobs.example.com/1?a=b", "www.example.cn/x", "hr@example.com", "a@b", "Rust", "Go"]
    + ["Kubernetes", "café", "Zürich", "서울", "Москва", "①", "Ⅻ", "ﬁ", "²", "İ", "2024年", "35k-50k", "の"]
)


@st.composite
def cjk_postings(draw: st.DrawFn) -> dict:
    def text(max_size: int) -> str:
        return "".join(draw(st.lists(st.sampled_from(FRAGMENTS), max_size=max_size)))

    posting: dict = {"id": "x"}
    for name, size in (("title", 8), ("company", 6), ("description", 120)):
        kind = draw(st.sampled_from(["text", "text", "list", "absent", "none", "int"]))
        if kind == "text":
            posting[name] = text(size)
        elif kind == "list":
            posting[name] = [text(size) for _ in range(draw(st.integers(0, 3)))]
        elif kind == "none":
            posting[name] = None
        elif kind == "int":
            posting[name] = draw(st.integers(-5, 10**6))
    return posting


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cjk_postings())
def test_fast_path_equals_reference_on_generated_postings(
    reference: Callable[[dict], str], posting: dict
) -> None:
    assert posting_profile_signature(posting) == reference(posting)
    for value in posting.values():
        if isinstance(value, str):
            assert profile_signature(value) == reference.text(value)  # type: ignore[attr-defined]


# Plain Chinese values (jieba-range Han, ASCII, punctuation, emoji, NUL, markup, contacts) take the
# one-pass numpy path; a few fragments flip a value to the general path (kana, width forms, other Han).
PLAIN_FRAGMENTS = (
    list(ZH_COMPANY)
    + [w for ws in ZH_ROLES.values() for w in ws]
    + list(ZH_PUNCT)
    + ["Python开发", "Go语言", "a1", "ab", "abc", "Rust", "35k-50k", "2024年", "\n", " ", "  ", "\x00", "\t"]
    + ["🔥", "\U0001f680招聘", "✅", "©", "·", "—", "「", "」", "<p>", "</li>", "&amp;", "&#x4e2d;", "R&D"]
    + ["https://jobs.example.com/1?a=b", "www.example.cn/x", "hr@example.com", "@handle", "a@b"]
)
RARE_FRAGMENTS = ("の", "ＡＷＳ", "〇", "㐀", "\U00020000", "café", "\U0001d400", "\ud800")


@st.composite
def plain_postings(draw: st.DrawFn) -> dict:
    def text(max_size: int) -> str:
        parts = draw(st.lists(st.sampled_from(PLAIN_FRAGMENTS), max_size=max_size))
        if draw(st.integers(0, 9)) == 0:
            parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(RARE_FRAGMENTS)))
        return "".join(parts)

    posting: dict = {"title": text(8), "description": text(150)}
    if draw(st.booleans()):
        posting["company"] = [text(4) for _ in range(draw(st.integers(0, 2)))]
    return posting


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(plain_postings(), min_size=1, max_size=4))
def test_plain_chinese_path_equals_reference(reference: Callable[[dict], str], postings: list[dict]) -> None:
    expected = [reference(p) for p in postings]
    assert [posting_profile_signature(p) for p in postings] == expected
    assert profile.posting_profile_signatures(postings) == expected  # values of a batch share one pass
    text = postings[0]["description"]
    assert profile_signature(text) == reference.text(text)  # type: ignore[attr-defined]


def test_plain_chinese_path_is_taken_and_left_on_rare_characters() -> None:
    """The one-pass path handles Han/ASCII/punctuation/emoji values and refuses any value holding kana,
    width forms, Han outside jieba's range or non-ASCII letters (they need the general path)."""
    assert profile._plain_split(["招聘Python开发，🔥 abc", "", "工程师"]) is not None
    hans, asciis = profile._plain_split(["招聘Python开发，🔥 abc", "工程师"])
    assert hans == ["招聘 开发 ", "工程师"] and asciis[0].split() == ["python", "abc"]
    for rare in RARE_FRAGMENTS:
        assert profile._plain_split(["招聘" + rare]) is None, rare


def test_fast_path_equals_reference_on_generated_postings_batch(reference: Callable[[dict], str]) -> None:
    rng = random.Random(2026)
    posts = []
    for i in range(3 * profile.POOL_MIN_CHUNK):
        if i % 3 == 0:
            posts.append(zh_posting(rng, rng.choice(sorted(ZH_ROLES)), rng.choice(["招聘", "后端 工程师"])))
        elif i % 3 == 1:
            posts.append(ja_posting(rng, rng.choice(sorted(JA_ROLES)), rng.choice(["募集", "営業部長"])))
        else:  # unspaced: the segmenters decide every boundary
            p = zh_posting(rng, rng.choice(sorted(ZH_ROLES)), "招聘")
            posts.append(dict(p, description=p["description"].replace(" ", "")))
    expected = [reference(p) for p in posts]
    assert profile.posting_profile_signatures(posts) == expected
    assert profile.posting_profile_signatures(iter(posts), workers=2) == expected  # process pool


def test_batch_rejects_bad_worker_counts() -> None:
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="workers must be a positive int"):
            profile.posting_profile_signatures([], workers=bad)  # type: ignore[arg-type]


def test_platform_footer_is_not_part_of_a_cjk_signature() -> None:
    fc = profile.footer_core
    body = "【仕事内容】\n月次決算と請求書の発行をお任せします。\n【応募資格】\n経理経験2年以上。"
    footer = "\n\n※この求人情報は「しごとナビ」に掲載されています。\n掲載期間：2026年1月5日〜2月1日"
    assert fc(body + footer) == body and fc(body) == body
    html_body = "<p>负责后端服务开发。</p><p>三年以上 Go 经验。</p>"
    assert fc(html_body + "<p>本职位信息由码农招聘网发布，未经许可请勿转载。</p>") == html_body
    assert fc("本职位信息由码农招聘网发布") == "本职位信息由码农招聘网发布"  # nothing but a footer: kept
    assert fc(body + "\n求人番号：A-88213\n掲載日：2026/01/05") == body
    assert fc(html_body + "<p>发布时间：2026-01-05 浏览次数：320</p>") == html_body
    assert fc(body + "\n" + "负责" * 60 + "转载" + "。" * 50) == body + "\n" + "负责" * 60 + "转载" + "。" * 50
    post = {"id": "f", "title": "経理スタッフ", "description": body}
    assert profile.posting_profile_signature(post) == profile.posting_profile_signature(
        dict(post, description=body + footer))


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_one_template_for_two_stores_or_two_terms_signs_apart(lang: str) -> None:
    """SIG_VERSION 4: a long CJK description's quantization drops words written once, so one company's template
    for two stores, or for a full-time and a part-time job, signed alike; the job facts (store, station,
    address, employment type, pay unit, hours) are signed unquantized. The same ad on two sites still agrees."""
    rng = random.Random(7)
    make, roles = (ja_posting, JA_ROLES) if lang == "ja" else (zh_posting, ZH_ROLES)
    base = make(rng, next(iter(roles)), "店舗スタッフ" if lang == "ja" else "门店店员")
    where, how, emp = (("【勤務地】", "【雇用形態】", "正社員"), ("### 工作地点", "### 工作性质", "全职"))[lang == "zh"]

    def at(store: str, terms: str) -> dict:
        return base | {"description": f"{base['description']}\n{where}\n{store}\n{how}\n{terms}"}

    one, two = ("恵比寿店", "代々木店") if lang == "ja" else ("徐汇店", "静安店")
    part = "アルバイト" if lang == "ja" else "兼职"
    sig = posting_profile_signature
    assert sig(at(one, emp)) != sig(at(two, emp))
    assert sig(at(one, emp)) != sig(at(one, part))
    assert sig(at(one, emp)) == sig(at(one, emp) | {"company": "x", "title": base["title"] + "【正社員】"})
    assert profile.facts_profile([("description", [at(one, emp)["description"]])])
    assert profile.facts_profile([("description", [base["description"]])]) == ""
