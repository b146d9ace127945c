"""Content extraction: HTML / markdown / plain text -> lines, sections and job fields."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from signatures.extract import detect_lang, extract, html_to_text, normalize_line


def test_html_blocks_become_lines_and_entities_decode() -> None:
    text = html_to_text("Acme &amp; Co<p>First para<br>second line<ul><li>one</li><li>two</li></ul>")
    lines = [x.strip() for x in text.split("\n") if x.strip()]
    assert lines == ["Acme & Co", "First para", "second line", "- one", "- two"]


def test_html_drops_scripts_and_nav_and_keeps_main() -> None:
    page = (
        "<html><body><nav>Home | Jobs | About</nav><script>var x=1;</script>"
        "<main><h2>Backend Engineer</h2><p>" + "We build payment rails for small shops. " * 8 + "</p></main>"
        "<footer>(c) 2026</footer></body></html>"
    )
    ex = extract({"id": "p1", "description": page})
    assert "Home | Jobs" not in ex.text and "var x" not in ex.text and "(c) 2026" not in ex.text
    assert [s.heading for s in ex.sections] == ["Backend Engineer"]


def test_hn_first_line_gives_company_location_roles() -> None:
    desc = (
        "Quillbyte | Senior Backend Engineer, Staff SRE | Remote (EU) | Full-time | https://quillbyte.example"
        "<p>We make ledgers.<p>Email jobs&#x40;quillbyte.example or call +1 415 555 0134."
    )
    ex = extract({"id": "hn-1", "description": desc})
    assert ex.company == "Quillbyte"
    assert "Remote (EU)" in ex.location
    assert "senior backend engineer" in ex.roles and "staff sre" in ex.roles
    assert set(ex.fields_found) >= {"company", "title", "location"}
    assert "jobs@quillbyte.example" in ex.emails
    assert "4155550134" in ex.phones
    assert "quillbyte.example" in ex.urls


def test_given_fields_win_over_found_ones() -> None:
    ex = extract({"id": "x", "title": "Data Engineer", "company": "Given Inc", "description": "Other | Berlin | x"})
    assert ex.title == "Data Engineer" and ex.company == "Given Inc"


def test_hiring_list_and_link_lines_become_roles() -> None:
    desc = (
        "We're hiring: Product Designer, Android Engineer and Data Analyst.\n\n"
        "Open roles\n"
        "[Leadership] Engineering Manager (SF) https://jobs.example/1\n"
        "Platform Engineer\n(NYC) https://jobs.example/2\n"
    )
    ex = extract({"id": "r", "description": desc, "lang": "en"})
    for role in ("product designer", "android engineer", "data analyst", "engineering manager", "platform engineer"):
        assert role in ex.roles, (role, ex.roles)


def test_obfuscated_email() -> None:
    ex = extract({"id": "o", "description": "Contact: dana [at] example (dot) org"})
    assert ex.emails == ("dana@example.org",)


def test_markdown_sections_and_chinese_role_heading() -> None:
    md = (
        "### 关于我们\r\n我们是一家做链上支付的团队。\r\n\r\n### 岗位\r\n- 前端开发工程师\r\n- 产品经理\r\n\r\n"
        "### 工作地点\r\n上海\r\n\r\n### 联系方式\r\n[邮箱](mailto:hr@chain.example) 微信: wx_hr_2024\r\n"
        "### 薪酬范围\r\n月薪 20k-40k\r\n"
    )
    ex = extract({"id": "z", "title": "[上海] 某团队诚聘 前端开发工程师", "description": md})
    assert ex.lang == "zh"
    assert [s.heading for s in ex.sections][:3] == ["关于我们", "岗位", "工作地点"]
    assert "前端开发工程师" in ex.roles and "产品经理" in ex.roles
    assert "hr@chain.example" in ex.emails
    assert "handle:wx_hr_2024" in ex.urls
    assert 20000.0 in ex.salaries and 40000.0 in ex.salaries


def test_japanese_shokushu_heading() -> None:
    desc = "【職種】\nインフラエンジニア\n【給与】\n月給30万円〜\n【勤務地】\n東京都渋谷区"
    ex = extract({"id": "j", "description": desc})
    assert ex.lang == "ja"
    assert "インフラエンジニア" in ex.roles
    assert 300000.0 in ex.salaries
    assert ex.location.startswith("東京都") or any(s.heading == "勤務地" for s in ex.sections)


def test_email_marketing_is_a_role_not_a_contact_line() -> None:
    """Contact lines ("Email us at …") name no role, but a role that starts with the word e-mail does."""
    desc = "We are hiring:\n- Email Marketing Manager\n- Backend Engineer\n\nEmail jobs@acme.dev with questions"
    ex = extract({"id": "m", "title": "Jobs at Acme", "description": desc})
    assert "email marketing manager" in ex.roles and "backend engineer" in ex.roles
    assert not any("jobs@" in r or "question" in r for r in ex.roles)


def test_location_heading_gives_the_place_but_an_office_section_does_not() -> None:
    """A location heading gives the place on the next line; an English 'Office' section starts with prose
    about the office (perks), whose capitalized words are no places."""
    zh = extract({"id": "z", "title": "后端工程师", "description": "负责后端开发。\n\n### 工作地点\n上海市浦东新区"})
    assert zh.location == "上海市浦东新区"
    desc = "We build payment software.\n\n## Office\nModern Kitchen, Standing Desks\n\n## Team\nFive engineers."
    en = extract({"id": "e", "title": "Backend Engineer", "description": desc})
    assert en.lang == "en" and en.location == ""
    en = extract({"id": "e", "title": "Backend Engineer", "description": desc + "\n\n## Location\nBerlin, Germany"})
    assert en.location == "Berlin, Germany"


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Senior engineer wanted", "en"), ("诚聘区块链开发工程师，薪资面议", "zh"), ("エンジニアを募集しています", "ja")],
)
def test_detect_lang(text: str, lang: str) -> None:
    assert detect_lang(text) == lang


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="id"):
        extract({"title": "no id"})
    with pytest.raises(ValueError, match="JSON object"):
        extract(["not", "a", "mapping"])  # type: ignore[arg-type]


def test_normalize_line_is_width_and_case_insensitive() -> None:
    assert normalize_line("ＡＢＣ  Engineer!!") == normalize_line("abc engineer")


def test_role_families_survive_rewording_and_show_added_roles() -> None:
    a = extract({"id": "a", "description": "Acme | Senior Backend Engineer, Staff SRE | Remote\nWe make ledgers."})
    b = extract({"id": "b", "description": "Acme | Staff Back-end SWE, DevOps | Remote\nLedgers, rewritten."})
    c = extract({"id": "c", "description": "Acme | Backend Engineer, SRE, Account Executive, Product Designer | "
                 "Remote\nWe make ledgers."})
    assert a.families == b.families == ("backend", "infra")
    assert set(c.families) - set(a.families) == {"sales", "design"}
    zh = extract({"id": "z", "title": "[远程] 某交易所诚聘 前端开发工程师 / 智能合约工程师", "description": "### 公司介绍\n交易所"})
    assert {"frontend", "contract"} <= set(zh.families)


def test_chinese_title_roles_come_from_the_role_part() -> None:
    """A Chinese title names its role after the hiring verb, or before it; company names, slogans, pay,
    years and head counts around it are no roles (texts written for this test)."""

    def roles(title: str) -> tuple[str, ...]:
        return extract({"id": "t", "title": title, "description": "岗位职责：负责后台系统的开发。"}).roles

    assert roles("[远程] 青柳科技直招  数据标注专员   校招 25届") == ("数据标注专员",)
    assert roles("[杭州] 山雀网络智能合約工程師招聘 薪资20K-40K") == ("山雀网络智能合約工程師",)
    assert roles("【上海线下】寻找资深后端工程师-山雀网络") == ("资深后端工程师",)
    assert roles("【北京】白桦数据 招 大模型应用开发工程师 | 和我们一起做点难事") == ("大模型应用开发工程师",)
    assert roles("[深圳/AI] 业内领先的 AI 公司，团队年轻，成长快") == ()  # a tagline names no role
    assert roles("[上海] 初级财务会计") == ("初级财务会计",)  # one part without a role word is the role
    assert roles("[北京] 白桦数据诚聘 前端工程师【全职】3-5年 50K以上") == ("前端工程师",)
    assert roles("[Remote] 山雀网络诚聘 Senior Smart Contract Developer") == ("senior smart contract developer",)


def test_email_run_into_chinese_text_keeps_its_address() -> None:
    ex = extract({"id": "m", "description": "请将简历发至jobs@qingshan.cn，谢谢\n或者發到hr@qingshan.cn"})
    assert ex.emails == ("hr@qingshan.cn", "jobs@qingshan.cn")


def test_unfilled_template_title_names_no_job() -> None:
    ex = extract({"id": "t", "title": "[城市名] XXXX 公司诚聘 XX工程师", "description": "### 公司介绍\n### 薪资福利待遇"})
    assert ex.title == "" and not any("xx" in r for r in ex.roles)
    real = extract({"id": "r", "title": "Xxxholic Labs is hiring a Backend Engineer", "description": "Join us."})
    assert real.title.startswith("Xxxholic")


def test_telegram_link_and_handle_are_one_contact() -> None:
    a = extract({"id": "a", "description": "联系 Telegram: https://t.me/Evelyn_f9"})
    b = extract({"id": "b", "description": "TG: @evelyn_f9"})
    assert "handle:evelyn_f9" in a.urls and "handle:evelyn_f9" in b.urls
    assert not any(u.startswith("handle:http") for u in a.urls)


def test_wechat_and_telegram_handles_without_a_colon_are_contacts() -> None:
    """Chinese board posts write a WeChat id after 微信 and a verb or bracket, a Telegram handle as `TG@x`, and end a
    handle with a full stop; all are the poster's contact. A plain English word after "Telegram" is none."""
    from signatures.extract import contact_handles

    assert contact_handles("简历请添加微信qiaolin_hr咨询，备注岗位") == ["qiaolin_hr"]
    assert contact_handles("联系方式：请添加微信 Qiaolin_HR 发送简历") == ["qiaolin_hr"]
    assert contact_handles("- 微信请加【hexi2025】，注明来意") == ["hexi2025"]
    assert contact_handles("[TG@Hexi_Jobs] 交易所诚聘") == ["hexi_jobs"]
    assert contact_handles("联系人 Telegram：@hexi_jobs.") == ["hexi_jobs"]
    assert contact_handles("Join our Telegram channel or use WeChat pay.") == []
    assert contact_handles("关注微信公众号获取更多岗位") == []
    ex = extract({"id": "w", "description": "岗位职责：负责合约开发。\n添加微信hexi2025投递简历"})
    assert "handle:hexi2025" in ex.urls


def test_monthly_pay_without_the_word_salary_is_a_salary() -> None:
    ex = extract({"id": "s", "title": "区块链公司招聘“区域负责人”10000-30000U/月", "description": "负责区域业务。"})
    assert ex.salaries == (10000.0, 30000.0)
    assert extract({"id": "n", "description": "A team of 5 / 10 engineers across 3 offices."}).salaries == ()


# --------------------------------------------------------------------------- fast path == reference

_FRAGMENTS = (
    "Senior Backend Engineer", "Staff SRE", " | ", " ｜ ", "\n", "\n\n", "\r\n", " ", ", ", " and ", ": ", "：",
    "<p>", "</p>", "<br>", "<li>", "<ul>", "</ul>", "<h2>", "</h2>", "<b>", "<a href='https://x.example/a'>",
    "</a>", "&amp;", "&#x40;", "<script>var a=1;</script>", "<nav>Home | Jobs</nav>", "<main>", "</main>",
    "@", "jobs@acme.example", "dana [at] example (dot) org", "x (at) y.z", "https://t.me/abc_def",
    "http://www.Acme.example/jobs/1.", "TG: @xyz_1", "微信: wx_hr", "+1 415 555 0134", "(030) 1234-5678",
    "$120k-160k", "EUR 60,000-80,000", "月薪 20k-40k", "30万円", "10000-30000U/月", "per year", "salary",
    "岗位：", "### ", "# ", "【職種】", "■勤務地", "エンジニア", "前端开发工程师", "产品经理", "诚聘", "招聘",
    "We're hiring: ", "Open roles", "Positions:", "- ", "* ", "• ", "1. ", "(2) ", "[Leadership] ",
    "İstanbul", "ſ", "ıos", "\u212a", "\u3000", "\xa0", "\t", "**bold**", "[link](https://l.example/x)",
    "Data Platform Engineer", "iOS", "Front-end", "Head of Sales", "co-founder", "智能合约", "XX工程师", "城市名",
    "Remote (EU)", "Full-time", "Berlin, DE", "上海", "東京都", "Location: Paris", "工作地点：深圳",
    "we are looking for a talented Machine Learning Engineer", "ML", "AI/ML", "QA", "ae", "Quant trader",
)


def _html(p: dict) -> dict:
    """The posting with its description as HTML (paragraphs, lists, headings, a nav and a script)."""
    blocks = []
    for para in str(p.get("description") or "").split("\n\n"):
        lines = [ln for ln in para.split("\n") if ln.strip()]
        if lines and all(ln[:2] in ("- ", "* ", "• ") for ln in lines):
            blocks.append("<ul>" + "".join(f"<li>{ln[2:].replace('&', '&amp;')}</li>" for ln in lines) + "</ul>")
        elif len(lines) == 1 and lines[0].endswith((":", "：")):
            blocks.append(f"<h3>{lines[0]}</h3>")
        elif lines:
            blocks.append("<p>" + "<br>".join(ln.replace("&", "&amp;") for ln in lines) + "</p>")
    return {**p, "description": "<nav>Jobs | About</nav><script>x=1</script>" + "\n".join(blocks)}


def _same(p: dict) -> None:
    from dataclasses import astuple

    from extract_reference import extract as reference_extract

    assert astuple(extract(p)) == astuple(reference_extract(p)), p.get("id")


@pytest.mark.parametrize("lang", ["en", "zh", "ja", "mixed"])
def test_extract_matches_reference_on_generated_postings(lang: str) -> None:
    from service.synth import generate

    for k, p in enumerate(generate(150, lang=lang, seed=5)):
        _same(p)
        if k % 3 == 0:
            _same(_html(p))
        if k % 5 == 0:
            _same({k: v for k, v in p.items() if k not in ("lang", "title", "company", "location")})


_piece = st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=12))


@settings(max_examples=400, deadline=None)
@given(
    desc=st.lists(_piece, max_size=40).map("".join),
    title=st.one_of(st.none(), st.lists(_piece, max_size=6).map("".join)),
    company=st.one_of(st.none(), st.sampled_from(["", "Acme", "某团队"])),
    lang=st.one_of(st.none(), st.sampled_from(["en", "zh", "ja", "de", ""])),
)
def test_extract_matches_reference_on_random_text(desc: str, title: str | None, company: str | None,
                                                  lang: str | None) -> None:
    p = {"id": "h", "description": desc, "title": title, "company": company, "lang": lang}
    _same({k: v for k, v in p.items() if v is not None})


_CONTACT_PIECES = ("john", "(at)", "[at]", " at ", "(", ")", "[", "]", "example", ".", "(dot)", "[dot]", "com", "telegram",
                   "tg", "line", "id", "ID", "\u0130d", ":", "\uff1a", "@h_1", " ", "\n", "\t", "\u3000", "x@y.z",
                   "https://t.me/abc", "-", "+", "415 555 0134", "x (at) y", "a.b", "z.")


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_CONTACT_PIECES), max_size=14).map("".join))
@example("com\nmail: dana (at) example.")
@example("(at) example.org\nwrite to dana")
@example(": @someone\nask on telegram")
@example("id: someone\nTG")
def test_plain_text_contacts_read_once_are_those_of_both_copies(text: str) -> None:
    """A plain-text description's contacts are read from one copy: the same as from the description and its
    plain text joined by a line break, whatever the text starts or ends with."""
    from signatures.extract import _contact_text, _contacts

    assert _contacts(_contact_text(text, text)) == _contacts(text + "\n" + text)


# --------------------------------------------------------------------------- the folding the fast path relies on


def _pattern_pairs() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """(original (?i) pattern, case-sensitive twin run on folded text) for every twin in the module."""
    import signatures.extract as x

    pres = [v for v in vars(x).values() if isinstance(v, x._Pre)] + [pre for _, pre in x._FAMILY_PRES]
    return [(p.rx, p.cs) for p in pres] + [(x._OBF_HINT_RE, x._OBF_HINT_CS), (x._ROLE_WORDS_EN, x._ROLE_WORDS_EN_CS),
                                           (x._MENTION_RE, x._MENTION_CS)]


def _atoms(rx: re.Pattern[str]) -> tuple[set[str], set[tuple[int, int]]]:
    """Literal characters and character ranges anywhere in a pattern."""
    from re import _constants as c
    from re import _parser

    chars: set[str] = set()
    ranges: set[tuple[int, int]] = set()

    def walk(node: object) -> None:
        if isinstance(node, tuple) and len(node) == 2 and node[0] is c.LITERAL:
            chars.add(chr(node[1]))
        elif isinstance(node, tuple) and len(node) == 2 and node[0] is c.RANGE:
            ranges.add(node[1])
        elif isinstance(node, (list, tuple, _parser.SubPattern)):
            for item in node:
                walk(item)

    walk(_parser.parse(rx.pattern, rx.flags))
    return chars, ranges


def test_fold_matches_re_ignorecase_on_every_code_point() -> None:
    from signatures.extract import _fold

    every = "".join(chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000)
    folded = _fold(every)
    assert len(folded) == len(every)  # one character per character: spans carry over

    def at(rx: str, s: str) -> list[int]:
        return [m.start() for m in re.finditer(rx, s)]

    for cls in (r"\w", r"\d", r"\s", r"\b"):
        assert at(cls, every) == at(cls, folded), cls
    chars: set[str] = set()
    ranges: set[tuple[int, int]] = set()
    for rx, _ in _pattern_pairs():
        ch, rg = _atoms(rx)
        chars |= ch
        ranges |= rg
    cased = sorted(ch for ch in chars if ch.lower() != ch.upper() or ch.casefold() != ch)
    uncased = "".join(sorted(set(chars) - set(cased)))
    for ch in cased:  # (?i)ch matches exactly the code points whose fold is ch
        assert at("(?i)" + re.escape(ch), every) == at(re.escape(_fold(ch)), folded), ch
    cls = "[" + "".join(re.escape(ch) for ch in uncased) + "]"
    hits = at("(?i)" + cls, every)
    assert hits == at(cls, folded) and all(every[i] == folded[i] for i in hits)
    for lo, hi in ranges:
        rng = f"[{re.escape(chr(lo))}-{re.escape(chr(hi))}]"
        assert at("(?i)" + rng, every) == at(rng, folded), rng


_TRICKY = st.text(alphabet=st.sampled_from("aeiklnorstIKS İıſ\u212a-:/()[]\n\t$€k0123456789工程师岗位：")
                  , max_size=30)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(_FRAGMENTS), _TRICKY), max_size=12))
def test_case_sensitive_twins_find_the_same_spans(parts: list[str]) -> None:
    from signatures.extract import _fold

    s = "".join(parts)
    f = _fold(s)
    for rx, cs in _pattern_pairs():
        assert [m.span() for m in rx.finditer(s)] == [m.span() for m in cs.finditer(f)], rx.pattern
        assert [m.regs for m in rx.finditer(s)] == [m.regs for m in cs.finditer(f)], rx.pattern


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(_FRAGMENTS), _TRICKY), max_size=12))
def test_literal_prefilters_never_reject_a_match(parts: list[str]) -> None:
    import signatures.extract as x

    s = "".join(parts)
    for pre in [v for v in vars(x).values() if isinstance(v, x._Pre)] + [p for _, p in x._FAMILY_PRES]:
        if pre.rx.search(s):
            assert pre.may(x._fold(s)), (pre.rx.pattern, pre.lits)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), _TRICKY), max_size=6).map("".join)
                      .map(lambda s: s.replace("\n", " ")), max_size=8))
def test_whole_text_line_scan_equals_searching_each_line(lines: list[str]) -> None:
    import signatures.extract as x

    folded = [x._fold(ln) for ln in lines]
    starts = x._line_starts(folded)
    for pre in [v for v in vars(x).values() if isinstance(v, x._Pre) and v.lines is not None]:
        got = {i: (m.start() - starts[i], m.end() - starts[i], m.groups())
               for i, m in pre.line_matches("\n".join(folded), starts).items()}
        want = {}
        for i, ln in enumerate(lines):
            m = pre.rx.search(ln)
            if m:
                want[i] = (m.start(), m.end(), tuple(None if g is None else x._fold(g) for g in m.groups()))
        assert got == want, pre.rx.pattern


_CONTACTISH = st.text(alphabet=st.sampled_from("ab_Zé1 .+-@\n\t()例x"), max_size=60)


@settings(max_examples=500, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from(_FRAGMENTS), _CONTACTISH, st.text(max_size=8)), max_size=10))
def test_fast_email_and_phone_scans_equal_the_plain_regexes(parts: list[str]) -> None:
    import signatures.extract as x

    s = "".join(parts)
    assert x._emails(s) == x._EMAIL_RE.findall(s)
    assert x._emails("a" * 300 + s) == x._EMAIL_RE.findall("a" * 300 + s)  # a local part longer than the window
    assert x._PHONE_FAST_RE.findall(s) == x._PHONE_RE.findall(s)


@settings(max_examples=500, deadline=None)
@given(line=st.one_of(st.text(alphabet=st.characters(max_codepoint=127), max_size=60),
                      st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=10)), max_size=6).map("".join)))
def test_normalize_line_matches_reference(line: str) -> None:
    from extract_reference import normalize_line as reference_normalize_line

    assert normalize_line(line) == reference_normalize_line(line)


def test_line_caches_skip_long_lines() -> None:
    """A description written as one long line is computed, not kept in the per-line caches (memory stays
    bounded by entries x LINE_CACHE_MAX_CHARS), and gives the same result as a cached call would."""
    from signatures import extract as ex

    long_line = "Senior Data Engineer " * (ex.LINE_CACHE_MAX_CHARS // 10)
    before = ex.normalize_line.cache_info().currsize
    first = ex.normalize_line(long_line)
    assert ex.normalize_line.cache_info().currsize == before
    assert ex.normalize_line(long_line) == first == ex.normalize_line.__wrapped__(long_line)
    short = "Senior Data Engineer (cache test)"
    ex.normalize_line(short)
    assert ex.normalize_line.cache_info().currsize == before + 1


def test_role_lines_heads_and_sought_titles_become_roles_the_header_line_does_not() -> None:
    desc = "<p>".join([
        "Wrenhollow Robotics | Founding Engineers | Onsite (Leeds, UK)",
        "Wrenhollow Robotics builds robot arms that prune apple trees for small orchards in Kent.",
        "1. QA Engineer Mobile - €60k-€80k - https://grnh.se/wren0001",
        "Motion Planning Engineer: build the arm's planner in C++ and keep it predictable.",
        "We're also looking for a Senior Data Engineer and a Product Designer. We are looking for "
        "exceptional engineers who like orchards.",
    ])
    roles = extract({"id": "w", "description": desc}).roles
    for role in ("founding engineers", "qa engineer mobile", "motion planning engineer", "senior data engineer",
                 "product designer"):
        assert role in roles, (role, roles)
    assert not any("wrenhollow" in r or "exceptional" in r for r in roles), roles


def test_a_header_segment_listing_many_roles_gives_each_role() -> None:
    first = "Ledgerline | Senior Go Engineer, Customer Support Engineer, Staff Product Designer, Account Executive | Remote"
    roles = extract({"id": "l", "description": first + "<p>We build billing for gyms."}).roles
    assert roles[:4] == ("senior go engineer", "customer support engineer", "staff product designer", "account executive")


def test_a_sentence_about_the_role_names_no_role() -> None:
    """'The role reports to our VP Growth and …' is a sentence, not a hiring list ('Roles: a, b' is one): it
    made a junk role that kept generated reposts of one job apart in dedup but not in index (near-threshold)."""
    def roles(text: str) -> tuple[str, ...]:
        return extract({"id": "x", "title": "Principal Frontend Developer", "description": "Acme\n\n" + text}).roles

    assert roles("The role reports to our VP Growth and has a probation period of 2 months.") == (
        "principal frontend developer",)
    assert set(roles("Roles: Backend Engineer and Designer")) >= {"backend engineer", "designer"}


def test_line_caches_stay_bounded(monkeypatch) -> None:
    """A full per-line cache drops its oldest entries (it never holds more than LINE_CACHE), and every
    call, cached or dropped, gives the function's own result; functions of several arguments too."""
    from signatures import extract as ex
    from signatures import features

    monkeypatch.setattr(ex, "LINE_CACHE", 8)
    ex.normalize_line.cache_clear()
    lines = [f"Backend engineer number {i}, Berlin" for i in range(30)]
    for ln in lines * 2:
        assert ex.normalize_line(ln) == ex.normalize_line.__wrapped__(ln)
        assert features._line_shingles(ln) == features._line_shingles.__wrapped__(ln)
        assert features._families_of((ln,), "en") == features._families_of.__wrapped__((ln,), "en")
        assert ex.normalize_line.cache_info().currsize <= 8
        assert features._line_shingles.cache_info().currsize <= 8
        assert features._families_of.cache_info().currsize <= 8


# --- issue 9, English role sets (helper s6-i9-en) ------------------------------------------------------------

def test_linked_items_under_a_roles_heading_are_roles_without_a_role_word() -> None:
    """`Roles:` then `- Backend: <link>`: the heading says the items are roles, so a repost listing the same
    jobs this way keeps its role set (it read as one generic "Senior Engineers" and lost every role); an item
    that is a sentence ("Read our blog") is no role (texts written for this test)."""
    desc = "<p>".join([
        "Fernwick | Senior Engineers | Remote (EU)",
        "Fernwick builds scheduling software for veterinary clinics.",
        "Roles:",
        "- Backend: https://fernwick.example/careers/backend",
        "- Data Platform - https://fernwick.example/careers/data-platform",
        "- Read our blog: https://fernwick.example/blog",
    ])
    roles = extract({"id": "f", "description": desc}).roles
    assert "backend" in roles and "data platform" in roles, roles
    assert not any("blog" in r for r in roles), roles


def test_role_lines_told_apart_only_by_their_specialty_stay_two_roles() -> None:
    """"Software Engineer (Payments)" and "Software Engineer (Search)" are two jobs: dropping the parentheses
    made them one, so a repost dropping a third role read as one of two roles dropped (PARTIAL) instead of one
    of three (TEMPORAL). A place or work mode in parentheses still names no other role."""
    from signatures.features import role_word_sets

    def role_sets(*lines: str) -> set[frozenset[str]]:
        desc = "<p>".join(["Quillmoor | Lisbon | Full-time", "Quillmoor makes tools for tax advisers.", *lines])
        return set(role_word_sets(extract({"id": "q", "description": desc})))

    three = role_sets("Software Engineer (Payments) - https://quillmoor.example/jobs/11",
                      "Software Engineer (Search) - https://quillmoor.example/jobs/12",
                      "Product Analyst - https://quillmoor.example/jobs/13")
    assert len(three) == 3 and frozenset({"software", "engineer", "payment"}) in three, three
    places = role_sets("Software Engineer (Remote) - https://quillmoor.example/jobs/21",
                       "Software Engineer (Lisbon) - https://quillmoor.example/jobs/22")
    assert places == {frozenset({"software", "engineer"})}, places


def test_a_slash_in_an_english_role_name_reads_as_alternatives() -> None:
    """"Cloud Infrastructure/Data/MLOps Engineer" keeps its alternatives as " or " (they were run together into
    one name of five words)."""
    ex = extract({"id": "s", "description": "Tollgate Audio | Vancouver<p>Open roles:<p>- Cloud Infrastructure/Data/"
                  "MLOps Engineer<p>- Systems Architect / Full Stack Dev"})
    assert "cloud infrastructure or data or mlops engineer" in ex.roles, ex.roles
    assert "systems architect or full stack dev" in ex.roles, ex.roles


_MENTION_PIECES = ("Senior", "senior", "Frontend", "Data", "ML", "the", "a", "Lead", "/", " / ", " ", "\t", "\n", "Engineer",
                   "engineers", "PM", "sre", "https://x.example/a", "Developer", "Staff.", "-", "Berlin", "工程师")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_MENTION_PIECES), max_size=16).map("".join), st.sampled_from(["en", "zh"]))
@example("Senior Frontend/\nEngineer", "en")
@example("Data /\n/ Engineer", "en")
@example("Senior https://x.example/a\nEngineer", "en")
def test_mentions_line_by_line_match_the_whole_text(text: str, lang: str) -> None:
    """_mentions reads Latin phrases line by line from a cache; a phrase whose modifiers sit on the line before
    (that line ends with a word and a slash) falls back to the whole text: the same phrases as the reference."""
    from extract_reference import _mentions as reference_mentions

    from signatures.extract import _mentions

    assert _mentions(text, lang) == reference_mentions(text, lang)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "-", ":", " ", "\t", "\n", "\x1c", "\x85", "\xa0", "\u2003", "\u3000",
                                         "\u200b", "\ufeff", "*", "|"]), max_size=20))
def test_split_join_squeezes_the_whitespace_re_does(text: str) -> None:
    """_role_core and _sought_items squeeze whitespace with str.split (its whitespace is re's \\s)."""
    assert " ".join(text.split()) == re.sub(r"\s+", " ", text).strip()
    assert " ".join(text.split()).strip(" :：-–—→|*") == re.sub(r"\s+", " ", text).strip(" :：-–—→|*")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["a", "B", "-", ".", "+", "#", " ", "\t", "/", "\n", "é", "_", "1", "@", "Data/"]),
                max_size=14).map("".join))
def test_modifier_pattern_finds_what_the_plain_one_does(text: str) -> None:
    """_MODS_BEFORE_RE's lookbehind only skips starts inside a word run: the same match as without it."""
    from signatures.extract import _MODS_BEFORE_RE

    a, b = re.search(r"([\w+#.-]+)[ \t/]+$", text), _MODS_BEFORE_RE.search(text)
    assert (a is None) == (b is None) and (a is None or (a.span(), a.group(1)) == (b.span(), b.group(1)))


def test_a_site_category_after_the_last_bar_of_an_english_title_is_no_role() -> None:
    # one store's ad on a second site, whose title appends its category: the roles stay the first site's
    base = {"id": "a", "title": "Shift Supervisor (Full-time) - Juniper Coffee Pearl Street",
            "description": "Lead the floor during your shift and coach new baristas."}
    other = base | {"id": "b", "title": base["title"] + " | Food & Hospitality"}
    assert extract(other).roles == extract(base).roles
    assert "food" not in extract(other).roles


def test_line_caches_are_safe_across_threads(monkeypatch) -> None:
    """The per-line caches are shared by the threads of one process (`serve` with --cpu-workers 0 prepares
    batches in request threads while the ingest thread extracts stored postings): threads that fill a full
    cache at once each get the function's result, never a KeyError or 'dictionary changed size' from two
    evictions crossing, and the cache stays bounded."""
    import sys
    import threading

    from signatures import extract as ex

    monkeypatch.setattr(ex, "LINE_CACHE", 16)

    @ex.line_cache
    def one(x: str) -> int:
        return len(x)

    @ex.line_cache
    def two(x: str, y: str) -> int:
        return len(x) + len(y)

    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            for i in range(20000):
                assert one(f"{k}-{i}") == len(f"{k}-{i}")
                assert two(f"{k}-{i}", "ab") == len(f"{k}-{i}") + 2
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch all the time: the evictions cross
    try:
        threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[:3]
    assert one.cache_info().currsize <= 16 + 4 and two.cache_info().currsize <= 16 + 4


@pytest.mark.parametrize(("posted_at", "first_seen", "expected"), [
    ("2024-03-01", "2024-05-01T10:00:00Z", "2024-03-01"),  # an ISO posted_at is the posting's date
    ("3 days ago", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"),  # kept as written, but no date: the crawl's
    ("01/03/2024", None, "01/03/2024"),  # nothing better: kept (the features read it as no date)
    (None, "2024-05-01", "2024-05-01"),
    (None, None, None),
])
def test_the_posting_date_is_an_iso_posted_at_else_first_seen(posted_at: str | None, first_seen: str | None,
                                                               expected: str | None) -> None:
    """posted_at is stored as the source wrote it; a non-ISO one must not hide the crawl date from the verifier's
    date features."""
    from signatures.features import prepare

    posting = {"id": "p", "title": "Backend engineer", "description": "Build APIs in Go.",
               "posted_at": posted_at, "first_seen": first_seen}
    ex = extract(posting)
    assert ex.posted_at == expected
    day = prepare(ex).day
    assert (day == day) is (expected is not None and expected[:1].isdigit() and "/" not in expected)
