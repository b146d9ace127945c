"""Pair features do not depend on the order of the pair: generated postings (role lines with typos, generic and
CJK roles, workplace and terms lines, pay, dates) compared both ways give the same features."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signatures.features import FEATURES, pair_features, prepare

_EN_LINES = (
    "Senior Backend Engineer", "Senior Backend Enginer", "Softare Engineering Manager", "Software Engineering Manager",
    "Staff Data Scientist", "Founding Engineers", "Senior | Staff Engineers", "Product Designer", "Engineering Lead",
    "2. QA Engineer - €60k - https://jobs.example/qa", "Machine Learning Infra Engineer: own our GPU serving stack",
    "We're currently looking for a Senior Data Engineer and a Product Designer.", "Salary: $120k - $150k", "Salary: $90k - $110k",
    "Pay: $40 per hour", "Employment: Full-time", "Employment: Part-time", "Schedule: night shift",
    "Location: Berlin", "Remote (US)", "Apply at https://acme.example/careers/42", "We build robots for farms.",
)
_CJK_LINES = (
    "后端工程师", "後端工程師", "ios后端工程师", "web3后端工程师", "金融产品经理", "金融产品总监", "产品专家", "前端开发",
    "【勤務地】", "東京都渋谷区恵比寿南1-4-2", "恵比寿駅から徒歩3分", "大宮東口店", "横浜支店", "工作地点：上海市徐汇区",
    "【雇用形態】", "正社員", "アルバイト", "【勤務時間】", "9:00〜18:00", "22:00〜翌6:00", "工作性质：全职", "工作性质：兼职",
    "月薪 15k-25k", "月薪 30k-40k", "時給1200円", "時給1500円", "职位", "- 测试工程师", "岗位职责：负责后端开发", "任职要求：3年以上经验",
)


@st.composite
def _posting(draw: st.DrawFn, pid: str) -> dict[str, object]:
    lang = draw(st.sampled_from(["en", "zh", "ja"]))
    pool = _EN_LINES if lang == "en" else _CJK_LINES + _EN_LINES[:4]
    lines = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=10))
    out: dict[str, object] = {"id": pid, "lang": lang, "description": "\n".join(lines),
                              "title": draw(st.sampled_from(("", *pool[:8])))}
    if draw(st.booleans()):
        out["posted_at"] = draw(st.sampled_from(["2026-01-05T09:00:00Z", "2026-01-05T20:00:00Z", "2026-01-06T09:00:00Z",
                                                 "2026-02-01T09:00:00Z"]))
    if draw(st.booleans()):
        out["company"] = draw(st.sampled_from(["Acme", "Acme Inc.", "Globex", "株式会社アクメ"]))
    if draw(st.booleans()):
        out["location"] = draw(st.sampled_from(["Berlin", "東京都渋谷区", "上海", "成都/深圳"]))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=_posting("a"), b=_posting("b"))
def test_pair_features_are_symmetric(a: dict[str, object], b: dict[str, object]) -> None:
    pa, pb = prepare(a), prepare(b)
    ab, ba = pair_features(pa, pb), pair_features(pb, pa)
    differ = [f"{FEATURES[i]}: {ab[i]} vs {ba[i]}" for i in np.flatnonzero(~np.isclose(ab, ba))]
    assert not differ, differ


_WORDS = st.sets(st.sampled_from(["abcde", "abcdf", "abcdx", "zzzzz", "softare", "software", "manager", "data", "lead"]),
                 min_size=1, max_size=3)


@settings(max_examples=500, deadline=None)
@given(a=_WORDS, b=_WORDS)
def test_same_role_words_is_symmetric(a: set[str], b: set[str]) -> None:
    """Two English roles agree whichever is given first (a typo match used to be tried from the first role only
    when both have as many words: {abcde, abcdf} ~ {abcdx, zzzzz} but not the other way)."""
    from signatures.features import _same_role_words

    assert _same_role_words(frozenset(a), frozenset(b)) == _same_role_words(frozenset(b), frozenset(a))
