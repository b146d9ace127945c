"""Employer identity (signatures.employer): a registered name, its short name, batch tags and legal forms are one
employer for the blocking keys (service.candidates, stored by service.ingest) and agree by containment for the
verifier, in en / zh / ja, while two trade names stay two."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.candidates import blocking_keys, employer_of
from signatures.employer import employer_core, employer_key, names_agree

#: One employer written several ways, per language.
SAME = [
    ("Acme (YC F24)", "Acme, Inc.", "ACME GmbH", "Acme Labs", "Acme Corporation", "Acme SAS", "Acme Pvt. Ltd."),
    ("Mantle Network", "Mantle", "Team Mantle", "Mantle Foundation"),
    ("Gate.io", "Gate"),
    ("Nordvik AB", "Nordvik"),
    ("三亚飞鱼旅行旅行社有限公司", "飞鱼旅行", "飞鱼旅行社"),
    ("青禾医疗科技(上海)有限公司", "青禾医疗", "上海青禾医疗科技股份有限公司"),
    ("广东省木棉智造科技股份有限公司", "木棉智造", "广州木棉智造科技有限公司", "木棉智造有限责任公司"),
    ("竹简法务(深圳)法律科技有限公司", "竹简法务"),
    ("株式会社ミナト", "ミナト(株)", "ミナト株式会社", "㈱ミナト", "ミナトホールディングス株式会社"),
    ("有限会社イロハ出版", "(有)イロハ出版", "イロハ出版"),
]
#: One employer whose registered names differ in their business words (one's words all in the other's): one trade
#: name for blocking and for the verifier's names alike (names_agree reads the trade name as employer_core does).
CORE_ONLY = [("北京牧国科技", "牧国科技", "牧国网络科技有限公司")]
#: Two firms sharing a trade name with other business words: one blocking key, two employers for the verifier.
TRADE_TWO = [("苏州林泽科技有限公司", "上海林泽资本管理有限公司"), ("云杉数据", "云杉传媒"), ("Mantle Network", "Mantle Studio")]
#: Two employers whose names share words: apart even as trade names.
APART = [
    ("Greyhound Tax", "Greyhound Ventures"),
    ("ウミガメ水産株式会社", "株式会社ウミガメ工務店"),
    ("星河数科", "星辰数科"),
    ("Acme", "Acmeware"),
]


def test_one_employer_written_several_ways_has_one_core() -> None:
    for names in SAME:
        assert len({employer_core(n) for n in names}) == 1, {n: employer_core(n) for n in names}
        # the verifier's names (containment) agree with the shortest
        short = frozenset({min(map(employer_key, names), key=len)})
        assert all(names_agree(short, frozenset({employer_key(n)})) for n in names), names
    for names in CORE_ONLY:
        assert len({employer_core(n) for n in names}) == 1, {n: employer_core(n) for n in names}
        keys = [frozenset({employer_key(n)}) for n in names]
        assert all(names_agree(x, y) for x in keys for y in keys), names


def test_two_firms_sharing_a_trade_name_are_two_employers_for_the_verifier() -> None:
    for a, b in TRADE_TWO:
        assert employer_core(a) == employer_core(b), (a, b)  # one candidate pair
        assert not names_agree(frozenset({employer_key(a)}), frozenset({employer_key(b)})), (a, b)


def test_two_trade_names_stay_apart() -> None:
    for a, b in APART:
        assert employer_core(a) != employer_core(b), (a, b)


def test_core_never_empties_a_name() -> None:
    assert employer_core("科技有限公司") == "科技"  # nothing but business words: kept, not ""
    assert employer_core("上海") == "上海"  # a place alone is a name
    assert employer_core("Team") == "team" and employer_core("Network Labs") == "network"
    assert employer_core("") == employer_core("(YC W21)") == ""


@given(st.text(alphabet="飞鱼萤火禾苑松果鹿鸣竹简星木棉雪杉砚台柚子鲸", min_size=2, max_size=6),
       st.sampled_from(["", "北京", "深圳市", "广东省", "三亚"]),
       st.sampled_from(["", "科技", "网络科技", "信息技术", "文化传媒", "旅行社", "投资管理"]),
       st.sampled_from(["有限公司", "股份有限公司", "有限责任公司", "集团有限公司", "(上海)有限公司", ""]))
def test_chinese_registered_name_has_the_short_names_core(name: str, place: str, trade: str, legal: str) -> None:
    assert employer_core(place + name + trade + legal) == employer_core(name) != ""


@given(st.from_regex(r"[A-Z][a-z]{3,8}( [A-Z][a-z]{3,8})?", fullmatch=True),
       st.sampled_from(["", ", Inc.", " Inc", " LLC", " Ltd.", " GmbH", " Co., Ltd.", " (YC S21)", " [YC W24]",
                        " Corporation", " Pty Ltd", " AB", " S.A.", " Labs", " Network", " Protocol"]))
def test_latin_name_with_a_legal_form_or_tag_has_the_names_core(name: str, suffix: str) -> None:
    assert employer_core(name + suffix) == employer_core(name) != ""


def test_blocking_and_company_field_keys_use_the_core() -> None:
    """The registered and the short name of one employer share the blocking keys (service.candidates: employer
    and employer + title; stored in Solr by service.ingest)."""
    a = {"id": "a", "company": "三亚飞鱼旅行旅行社有限公司", "title": "后端工程师", "description": "负责后端服务。"}
    b = {"id": "b", "company": "飞鱼旅行", "title": "后端工程师", "description": "负责后端接口。"}
    c = {"id": "c", "company": "上海萤火资本管理有限公司", "title": "后端工程师", "description": "负责后端服务。"}
    keys = blocking_keys([a, b, c])
    assert keys[0, 0] == keys[1, 0] != 0 and keys[0, 2] == keys[1, 2] != 0
    assert keys[0, 0] != keys[2, 0]
    assert employer_of(a) == employer_of(b) == "飞鱼"
    en = [{"id": "x", "company": "Driftwood Travel, Inc.", "title": "Engineer"},
          {"id": "y", "company": "Driftwood Travel (YC W21)", "title": "Engineer"}]
    ek = blocking_keys(en)
    assert ek[0, 0] == ek[1, 0] != 0 and ek[0, 2] == ek[1, 2] != 0


def test_a_name_written_before_its_legal_form_is_read_before_it() -> None:
    """A Japanese text that goes on after `<name>株式会社` (a particle, a figure) names <name>, not what follows."""
    from signatures.employer import names_in_text

    assert names_in_text("医薬品は佐藤製薬株式会社で扱う製品です。") == ["佐藤製薬"]
    assert names_in_text("当社はヤマハ株式会社100％出資のグループ会社です。") == ["ヤマハ"]
    assert names_in_text("ミナト株式会社が運営する施設") == ["ミナト"]
    assert names_in_text("運営：株式会社ミナト。") == ["ミナト"]  # the name after the form, as before
    assert names_in_text("税理士法人と株式会社あおば会計") == ["あおば会計"]  # no name right before it: read after


def test_employer_name_caches_keep_no_long_names() -> None:
    """The trade-name reading (and the company field's key built on it) is cached per name like a line: a name
    over signatures.extract.LINE_CACHE_MAX_CHARS is computed, not kept -- an lru_cache of 65,536 (200,000 field
    keys) kept whatever distinct names a client sent, each up to the text cap (gigabytes)."""
    from service import features as sfeat
    from signatures import employer

    long_name = "飞鱼" + "网络" * 400 + "科技有限公司"
    sizes = (employer._trade_parts.cache_info().currsize, sfeat._field_key.cache_info().currsize)
    core, key = employer.employer_core(long_name), sfeat.field_key(long_name, "company")
    assert (employer._trade_parts.cache_info().currsize, sfeat._field_key.cache_info().currsize) == sizes
    assert core == employer.employer_core("飞鱼网络科技有限公司") == "飞鱼"
    assert key == sfeat.field_key("飞鱼网络科技有限公司", "company") != 0
