"""Script detection and CJK segmenters: jieba-rs gives jieba 0.42.1's words, MeCab drops function
words, the registry is one line per tokenizer. All text is generated here."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signatures import script, segment
from signatures.segment_ja import DROP_POS, MecabSegmenter, alternation, left_id_pos1
from signatures.segment_zh import JiebaSegmenter, RJiebaSegmenter
from signatures.version import TOKENIZERS, tokenizer_mismatches

# Small vocabularies for generated text (common words; the dictionaries know them).
ZH_WORDS = (
    "我们 正在 招聘 智能 合约 开发 工程师 区块链 远程 薪资 经验 负责 熟悉 团队 产品 设计 测试 运维 后端 "
    "前端 数据 分析 市场 运营 社区 公司 项目 技术 要求 优先 能力 交易所 钱包 协议 安全 审计 架构 "
    "系统 维护 沟通 英语 流利 上海 北京 深圳 香港 全职 兼职 福利 期权 年终奖 面试 简历 发送 邮箱 "
    "的 了 和 在 是 有 与 及 或 等 并 对 将 从 为"
).split()
ZH_PUNCT = ("，", "。", "、", "；", "：", "！", "（", "）", " ", "\n", "-", "·")
LATIN_WORDS = "Rust Go Solidity EVM DeFi NFT Web3 API AWS Kubernetes React TypeScript 3-5 20k".split()
JA_NOUNS = (
    "営業 企画 開発 経験 募集 東京 大阪 勤務 給与 休日 研修 社員 顧客 提案 事務 管理 エンジニア "
    "システム サービス デザイン スタッフ 店舗 接客 美容 資格 応募 面接 会社 仕事 業務 技術 製品"
).split()
JA_PARTICLES = ("の", "を", "に", "が", "は", "で", "と", "も", "から", "まで")
JA_ENDINGS = ("します", "しています", "できます", "です", "でした", "ません")
JA_PUNCT = ("、", "。", "！", "・", "（", "）", "\n", "◆", "★", "【", "】")


def zh_text(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(n):
        r = rng.random()
        if r < 0.7:
            parts.append(rng.choice(ZH_WORDS))
        elif r < 0.85:
            parts.append(rng.choice(ZH_PUNCT))
        elif r < 0.93:
            parts.append(rng.choice(LATIN_WORDS))
        else:  # random Han characters: unknown words, odd DAG ties, HMM work
            parts.append("".join(chr(rng.randint(0x4E00, 0x9FD5)) for _ in range(rng.randint(1, 4))))
    return "".join(parts)


def ja_text(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(n):
        parts.append(rng.choice(JA_NOUNS))
        parts.append(rng.choice(JA_PARTICLES))
        parts.append(rng.choice(JA_NOUNS))
        parts.append(rng.choice(JA_ENDINGS) if rng.random() < 0.4 else "")
        parts.append(rng.choice(JA_PUNCT))
    return "".join(parts)


# --- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,lang",
    [
        ("東京で営業スタッフを募集します", script.JA),
        ("ｽﾀｯﾌ募集", script.JA),  # halfwidth katakana
        ("ひらがなだけ", script.JA),
        ("我们正在招聘智能合约开发工程师", script.ZH),
        ("招聘 Rust engineer, remote", script.ZH),  # Han without kana
        ("東京都港区 営業部長", script.ZH),  # kanji only: indistinguishable from Chinese by script
        (
            "我们招聘工程师，欢迎来自日本の朋友加入我们的团队一起开发区块链产品和钱包协议",
            script.ZH,
        ),  # stray の
        ("서울에서 백엔드 개발자를 모집합니다", script.KO),
        ("백엔드 개발자 모집 Rust AWS", script.KO),
        ("Rust Kubernetes engineer, 백엔드", script.LATIN),
        ("Senior Rust engineer, remote (EU)", script.LATIN),
        ("Développeur · Zürich", script.LATIN),
        ("Разработчик", script.OTHER),
        ("12345 !!", script.OTHER),
        ("", script.OTHER),
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert script.detect_language(text) == lang


def test_detect_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        script.detect_language(b"bytes")  # type: ignore[arg-type]


def test_segmenter_language() -> None:
    assert script.segmenter_language(script.JA) == "ja"
    for lang in (script.ZH, script.KO, script.LATIN, script.OTHER):
        assert script.segmenter_language(lang) == "zh"
    with pytest.raises(ValueError, match="unknown language"):
        script.segmenter_language("xx")


@given(st.text(alphabet=st.sampled_from("我们招聘ひらカタｶﾀabc 1，。\n한국어"), max_size=60))
def test_split_runs_partitions_text(text: str) -> None:
    runs = list(script.split_runs(text))
    assert "".join(part for _, part in runs) == text
    for is_cjk, part in runs:
        assert part
        assert (script.CJK_RE.fullmatch(part) is not None) == is_cjk
    for (a, _), (b, _) in zip(runs, runs[1:], strict=False):
        assert a != b  # maximal runs alternate


# --- Chinese: jieba-rs == jieba ------------------------------------------------------------------


@pytest.fixture(scope="module")
def zh_pairs() -> dict[bool, tuple[RJiebaSegmenter, JiebaSegmenter]]:
    return {hmm: (RJiebaSegmenter(hmm=hmm), JiebaSegmenter(hmm=hmm)) for hmm in (False, True)}


@pytest.mark.parametrize("hmm", [False, True])
def test_rjieba_equals_jieba_on_generated_text(zh_pairs: dict, hmm: bool) -> None:
    fast, ref = zh_pairs[hmm]
    rng = random.Random(20260421 + hmm)
    for _ in range(300):
        text = zh_text(rng, rng.randint(1, 80))
        runs = script.CJK_RE.findall(text)
        assert fast.words(runs) == ref.words(runs), text
        for run in script.HAN_RE.findall(text):  # and run by run, through the raw cut
            assert fast.cut(run) == ref.cut(run), run


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FD5), min_size=1, max_size=40))
def test_rjieba_equals_jieba_on_random_han(zh_pairs: dict, text: str) -> None:
    for hmm in (False, True):
        fast, ref = zh_pairs[hmm]
        assert fast.cut(text) == ref.cut(text)


def test_zh_words_cover_the_runs(zh_pairs: dict) -> None:
    fast, _ = zh_pairs[False]
    rng = random.Random(7)
    for _ in range(100):
        runs = script.CJK_RE.findall(zh_text(rng, 40))
        assert "".join(fast.words(runs)) == "".join(runs)  # precise mode loses no character


def test_zh_chars_outside_jiebas_range_are_single_words(zh_pairs: dict) -> None:
    fast, ref = zh_pairs[False]
    runs = ["招聘の工程师", "使用㐀技术", "カタカナ"]
    words = fast.words(runs)
    assert words == ref.words(runs)
    assert "の" in words and "㐀" in words and "カ" in words
    assert "工程师" in words and "技术" in words


# --- Japanese --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ja_seg() -> MecabSegmenter:
    return MecabSegmenter()


def test_ja_morphemes_cover_the_text(ja_seg: MecabSegmenter) -> None:
    rng = random.Random(11)
    for _ in range(100):
        for run in script.CJK_RE.findall(ja_text(rng, 6)):
            assert "".join(s for s, _ in ja_seg.morphemes(run)) == run


def test_ja_drops_particles_and_auxiliaries(ja_seg: MecabSegmenter) -> None:
    words = ja_seg.words(["東京の会社で営業スタッフを募集しています"])
    for noun in ("東京", "会社", "営業", "スタッフ", "募集"):
        assert noun in words
    for function_word in ("の", "で", "を", "て", "ます"):
        assert function_word not in words
    pos = dict(ja_seg.morphemes("会社で営業を募集します"))
    assert pos["で"] == "助詞" and pos["ます"] == "助動詞"


def test_ja_content_words_are_the_morphemes_minus_dropped_pos(ja_seg: MecabSegmenter) -> None:
    rng = random.Random(13)
    for _ in range(50):
        for run in script.CJK_RE.findall(ja_text(rng, 8)):
            expected = [s for s, pos in ja_seg.morphemes(run) if pos not in DROP_POS]
            assert ja_seg.words([run]) == expected
    keep_all = MecabSegmenter(drop_pos=frozenset())
    run = "会社で営業を募集します"
    assert keep_all.words([run]) == [s for s, _ in keep_all.morphemes(run)]


def test_ja_pos_from_left_context_ids_equals_unidic_features(ja_seg: MecabSegmenter) -> None:
    """The segmenter reads pos1 from MeCab's left context id (left-id.def); fugashi's Tagger parses the
    full UniDic feature of every node: they must agree on every morpheme, known or unknown."""
    import shlex

    import fugashi
    import unidic_lite

    d = unidic_lite.DICDIR
    tagger = fugashi.Tagger(f"-d {shlex.quote(d)} -r {shlex.quote(d + '/mecabrc')}")
    rng = random.Random(17)
    runs = [r for _ in range(60) for r in script.CJK_RE.findall(ja_text(rng, 8))]
    runs += ["ｶﾞｲﾄﾞ", "㐀技术", "〇々", "\U00020000の", "ヴァ", "ゝゞ", "ぁ", "カタカナ語です"]  # unknown words too
    for run in runs:
        assert ja_seg.morphemes(run) == [(n.surface, n.feature.pos1) for n in tagger(run)], run
    pos1 = left_id_pos1(d)
    assert pos1[0] == "BOS/EOS" and DROP_POS <= set(pos1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text("0123456789ab", max_size=4), max_size=12), st.text("0123456789abc", max_size=5))
def test_alternation_matches_exactly_the_words(words: list[str], probe: str) -> None:
    import re

    rx = re.compile(f"(?:{alternation(words)})\\Z")
    for w in [*words, probe]:
        assert (rx.match(w) is not None) == (w in words)


def test_ja_runs_are_independent_and_cached(ja_seg: MecabSegmenter) -> None:
    rng = random.Random(5)
    runs = script.CJK_RE.findall(ja_text(rng, 30))
    joined = ja_seg.words(runs)
    assert joined == [w for r in runs for w in ja_seg.words([r])]
    assert ja_seg.words(runs) == joined
    fresh = MecabSegmenter(cache_runs=0)  # no cache: the same words
    assert fresh.words(runs) == joined


def test_ja_min_len_filter_and_bounded_cache_keep_the_words(ja_seg: MecabSegmenter) -> None:
    rng = random.Random(8)
    runs = script.CJK_RE.findall(ja_text(rng, 40)) + ["を", "東", "ｶﾞ"]  # 1-char runs are skipped
    everything = MecabSegmenter(cache_runs=0).words(runs)
    for min_len in (1, 2, 3):
        expected = [w for w in everything if len(w) >= min_len]
        assert ja_seg.words(runs, min_len) == expected
        assert MecabSegmenter(cache_runs=3).words(runs + runs, min_len) == expected + expected
    ja_seg.cache_clear()
    assert ja_seg.words(runs, 2) == [w for w in everything if len(w) >= 2]


# --- registry and versions ------------------------------------------------------------------------


class CharSegmenter:
    """A toy tokenizer for the registry test: every character is a word."""

    name = "chars"
    version = "chars-1"

    def words(self, runs: list[str]) -> list[str]:
        return [c for r in runs for c in r]


def test_registry_one_line_per_tokenizer() -> None:
    assert {"zh", "zh-jieba", "ja"} <= set(segment.names())
    assert segment.get_segmenter("zh") is segment.get_segmenter("zh")
    assert isinstance(segment.get_segmenter("ja"), segment.Segmenter)
    segment.register("test-chars", f"{__name__}:CharSegmenter")
    try:
        seg = segment.get_segmenter("test-chars")
        assert seg.words(["招聘", "ab"]) == ["招", "聘", "a", "b"]
    finally:
        segment._TARGETS.pop("test-chars", None)
        segment._INSTANCES.pop("test-chars", None)
    with pytest.raises(KeyError, match="no segmenter 'nope'"):
        segment.get_segmenter("nope")
    with pytest.raises(ValueError, match="module:Class"):
        segment.register("bad", "no_colon_here")


def test_tokenizer_versions_are_the_pinned_ones() -> None:
    assert tokenizer_mismatches() == []
    assert TOKENIZERS["jieba"] in segment.get_segmenter("zh-jieba").version
    assert TOKENIZERS["rjieba"] in segment.get_segmenter("zh").version
    assert TOKENIZERS["unidic-lite"] in segment.get_segmenter("ja").version


def test_unpinned_tokenizer_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TOKENIZERS, "jieba", "0.0.0-not-installed")
    monkeypatch.setattr(segment, "_CHECKED", False)
    with pytest.warns(RuntimeWarning, match="jieba: pinned 0.0.0-not-installed"):
        segment._warn_on_unpinned_tokenizers()
