"""Chinese role names read and compared as names (signatures.roles_zh, through signatures.features): texts
written for these tests."""

from __future__ import annotations

import pytest

from signatures.extract import extract
from signatures.features import FEATURES, announced_roles, pair_features, prepare

BODY = "岗位职责：负责交易系统的设计与开发。\n任职要求：三年以上相关经验。"


def _f(t1: str, t2: str, d1: str = BODY, d2: str = BODY, name: str = "role_sim") -> float:
    a = prepare({"id": "a", "title": t1, "description": d1, "lang": "zh"})
    b = prepare({"id": "b", "title": t2, "description": d2, "lang": "zh"})
    return float(pair_features(a, b)[FEATURES.index(name)])


def _roles(title: str, desc: str) -> tuple[str, ...]:
    return announced_roles(extract({"id": "x", "title": title, "description": desc, "lang": "zh"}))


@pytest.mark.parametrize(("t1", "t2"), [
    ("青石诚聘 前端开发工程师", "青石诚聘 后端开发工程师"),  # one head, another specialty
    ("青石诚聘 资深DeFi前端工程师", "青石诚聘 资深DeFi后端工程师"),
    ("青石诚聘 后端工程师", "青石诚聘 后端运维工程师"),  # a specialty more that names another role family
    ("青石诚聘 数据分析师", "青石诚聘 数据分析实习生"),  # another head: analyst vs intern
    ("青石诚聘 风控专员", "青石诚聘 风控主管"),  # another seniority: specialist vs supervisor
])
def test_another_specialty_or_head_is_another_role(t1: str, t2: str) -> None:
    assert _f(t1, t2) == 0.0


@pytest.mark.parametrize(("t1", "t2"), [
    ("青石诚聘 安全维运工程师", "青石诚聘 安全运维工程师"),  # two characters transposed
    ("青石招募 资深 前端开发", "青石诚聘 资深前端工程师"),  # 开发 / 工程师 heads, a title written with spaces
    ("青石诚聘 Rust工程师", "青石诚聘 Rust Developer"),  # the head in English
    ("青石诚聘 QA 测试工程师", "青石诚聘 交易所测试工程师"),  # QA = 测试; 交易所 says who employs, not the job
    ("青石诚聘 高级智能合约工程师", "青石诚聘 智能合约开发"),  # seniority and head dropped
    ("青石诚聘 SRE运维工程师", "青石诚聘 运维工程师"),  # SRE = 运维 (and no 'sr' seniority inside it)
])
def test_one_role_written_two_ways_agrees(t1: str, t2: str) -> None:
    assert _f(t1, t2) == 1.0


def test_a_traditional_role_name_is_not_novel_against_its_simplified_text() -> None:
    assert _f("青石诚聘 智能合約工程師", "青石诚聘 智能合约工程师", name="roles_novel") == 0.0


def test_a_role_line_label_or_place_gives_the_role_after_it() -> None:
    assert _roles("青石诚聘 测试工程师", "职位名称：区块链测试工程师（远程）\n" + BODY) == ("测试工程师", "区块链测试工程师")
    assert _roles("青石诚聘 风控专员", "base上海：风控主管\n" + BODY) == ("风控专员", "风控主管")
    roles = _roles("【远程】测试工程师", "远程办公 - web3 交易所 - 测试工程师\n" + BODY)
    assert "测试工程师" in roles and not any("远程" in r for r in roles)


def test_labels_sentences_and_duties_are_no_roles() -> None:
    roles = _roles("青石诚聘 前端工程师", "## 岗位\n我们的研究\n编写性能测试脚本和执行负载测试\n" + BODY)
    assert roles == ("前端工程师",)


def test_requirement_lines_contact_labels_and_joined_activities_are_no_roles() -> None:
    """Requirement and invitation lines (使用…进行开发, 熟练掌握…开发, 必须掌握…测试, 以上职缺…欢迎联络), two activities joined
    (设计与开发) and field labels (联系方式, 全职) read like role names ending in a role word; none is a role."""
    body = ("## 岗位要求\n- 使用 Vue 框架进行开发\n- 熟练掌握Golang后端开发\n- 必须掌握自动化测试\n- 系统设计与开发\n"
            "- 以上职缺有兴趣者欢迎联络HR\n## 联系方式\n联系方式\n全职\n" + BODY)
    assert _roles("青石诚聘 前端工程师", body) == ("前端工程师",)
    assert _roles("青石诚聘 对冲基金经理", BODY) == ("对冲基金经理",)  # 对冲 (hedge) is a specialty, not 对 (towards)


def test_two_names_run_into_one_are_two_roles() -> None:
    assert _roles("青石诚聘 跨链专家高级跨链工程师", BODY) == ("跨链专家", "高级跨链工程师")
    assert set(_roles("青石诚聘 量化研究员 急招合约开发工程师", BODY)) == {"量化研究员", "合约开发工程师"}


def test_the_employers_name_is_no_part_of_the_role() -> None:
    desc = BODY + "\n简历发送至 hiring@qingshi.io"
    assert _roles("Qingshi智能合约工程师招聘", desc) == ("智能合约工程师",)
    assert _f("Qingshi智能合約工程師招聘", "[远程] Qingshi 诚聘 智能合约工程师", desc, desc) == 1.0


def test_a_bare_head_takes_its_specialty_from_a_spaced_title() -> None:
    assert _roles("[远程] 资深 前端 开发 ( IM 项目 )", BODY) == ("资深前端开发",)


def test_ios_and_android_stay_two_roles_in_one_posting() -> None:
    a = prepare({"id": "a", "title": "青石诚聘 iOS开发工程师 & 全栈工程师 & 后端工程师", "description": BODY, "lang": "zh"})
    assert len(a.roles) == 3


def test_employer_names_left_out_longest_first_whatever_the_string_hashes() -> None:
    """A role name holding two employer names, one inside the other (reef, reeftechnologies): the longer is left
    out first in every process (the names came in a frozenset's order, which string hashing changes per process:
    the role read 后端工程师 in some runs and technologies后端工程师 in others)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("from signatures import features as sf; "
            "p = sf.prepare({'id': 'a', 'title': 'ReefTechnologies后端工程师', 'company': 'Reef', 'lang': 'zh', "
            "'description': '负责后端开发 https://reeftechnologies.com'}); print(p.role_names)")
    repo = str(Path(__file__).resolve().parents[1])
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=repo,
                           env={"PYTHONHASHSEED": str(seed)}).stdout.strip() for seed in range(8)}
    assert outs == {"('后端工程师',)"}


# --------------------------------------------------------------------------- s8-zhroles: synonyms, ways of working, job counts

@pytest.mark.parametrize(("t1", "t2"), [
    ("青石诚聘 区域负责人", "青石诚聘 地区经理"),  # a regional head: 区域 = 地区, 负责人 / 经理 one level head re-worded
    ("青石诚聘 大区经理", "青石诚聘 区域主管"),
    ("青石诚聘 国际市场经理", "青石诚聘 海外市场经理"),  # 国际 = 海外
    ("青石诚聘 客户服务专员", "青石诚聘 客服专员"),  # 客户服务 = 客服
])
def test_general_synonyms_of_a_specialty_name_one_role(t1: str, t2: str) -> None:
    assert _f(t1, t2) == 1.0


def test_a_synonym_does_not_join_two_specialties() -> None:
    """Synonyms only map words that say the same: a regional head is still not a product head or a BD head."""
    assert _f("青石诚聘 区域负责人", "青石诚聘 产品负责人") == 0.0
    assert _f("青石诚聘 地区经理", "青石诚聘 BD经理") == 0.0


def test_a_way_of_working_is_no_role() -> None:
    """A requirement's heading naming a way of working (AI 驱动开发 = AI-driven development, 测试驱动开发 = TDD) or an
    architect's task (架构设计) ends in a role word but names no person: it adds no role to the posting."""
    body = ("## 岗位要求、职责\nAI 驱动开发 (AI-Driven Workflow)：\n- 有用 AI 编码工具的经验\n测试驱动开发：\n- 有单元测试的习惯\n"
            "- 分片架构设计\n" + BODY)
    assert _roles("青石诚聘 前端开发工程师", body) == ("前端开发工程师",)
    assert _roles("青石诚聘 前端开发工程师", "## 岗位\n- 前端开发\n- 系统架构师\n" + BODY) == (
        "前端开发工程师", "前端开发", "系统架构师")  # a role list's own names stay roles


def test_a_count_of_jobs_is_no_role() -> None:
    """"高薪诚聘多岗位" (hiring for several positions) counts jobs, it names none: the roles listed below are the roles."""
    desc = "岗位 1:\n- 智能合约工程师\n岗位 2:\n- 区块链应用后端工程师\n" + BODY
    assert _roles("[杭州] 青石高薪诚聘多岗位！", desc) == ("智能合约工程师", "区块链应用后端工程师")
    assert _roles("青石诚聘若干职位", desc) == ("智能合约工程师", "区块链应用后端工程师")


# ----------------------------------------------------------------------------- s9-zhroles: title reading
def _title(title: str) -> tuple[str, ...]:
    from signatures.roles_zh import zh_title_roles

    return zh_title_roles(title)


@pytest.mark.parametrize(("title", "roles"), [
    ("[杭州] 青石网络诚聘【区块链Java开发工程师】15K-30K", ("区块链java开发工程师",)),  # the role in 【】 after the verb
    ("青石科技招聘（后端工程师/前端工程师）", ("后端工程师", "前端工程师")),  # a list in parentheses
    ("[成都/AI开发] 国内领先的链上数据公司，氛围好", ("ai开发",)),  # no hiring verb: the role in the leading tag
])
def test_roles_written_in_title_brackets_are_read(title: str, roles: tuple[str, ...]) -> None:
    assert _title(title) == roles


def test_a_title_reads_at_most_max_roles_from_its_brackets() -> None:
    """A title of many bracketed roles and a tagline is a keyword flood: its roles are compared pairwise, so it
    gives at most MAX_ROLES of them (it gave one per bracket: quadratic time; tests/hostile.py has the big one)."""
    from signatures.extract import MAX_ROLES

    names = [f"{a}{b}工程师" for a in "前后全测运" for b in "甲乙丙丁戊己庚辛壬癸"]
    roles = _title("青石诚聘" + "".join(f"【{n}】" for n in names) + " 国内领先，氛围好")
    assert roles == tuple(names[:MAX_ROLES])


def test_a_note_in_brackets_inside_a_name_is_dropped() -> None:
    assert _title("[远程] 青石诚聘 全栈（偏后端）开发工程师 薪水 20K") == ("全栈开发工程师",)
    assert _title("[远程] 青石诚聘 前端（React）开发工程师 薪水 20K") == ("前端开发工程师",)


def test_ops_is_a_role_word() -> None:
    assert _title("青石诚聘 区块链开发/前端/运维/测试") == ("区块链开发", "运维", "测试")
    assert _f("青石诚聘 运维", "青石诚聘 运维工程师") == 1.0


@pytest.mark.parametrize(("title", "roles"), [
    ("青石诚聘 Flutter工程师（iOS）", ("ios flutter工程师",)),
    ("青石诚聘 Flutter 工程师（安卓） 薪水面议", ("安卓 flutter 工程师",)),
    ("青石诚聘 Flutter工程师（全职）", ("flutter工程师",)),  # a note, not a platform
])
def test_a_platform_in_brackets_after_the_role_is_part_of_it(title: str, roles: tuple[str, ...]) -> None:
    assert _title(title) == roles


def test_ios_and_android_in_title_brackets_are_two_roles() -> None:
    assert _f("青石诚聘 Flutter工程师（iOS）", "青石诚聘 Flutter工程师（安卓）") == 0.0
    assert _f("青石诚聘 Flutter工程师（iOS）", "青石招聘 Flutter 工程师 (IOS)") == 1.0


def test_a_hiring_verb_inside_a_role_name_does_not_cut_it() -> None:
    """海外招聘专家 (overseas recruiting expert): 招聘 is part of the name when what follows it is a bare head."""
    assert _title("Web3公司招聘“海外招聘专家”2000-5000U/月") == ("海外招聘专家",)


@pytest.mark.parametrize("line", ["- 写单元测试", "5. 规范代码测试", "- 小测试", "2. 设计并执行 A/B 测试", "- 深度参与核心协议开发",
                                  "- 全流程测试", "- 新加坡", "- 海外", "- 全职远程"])
def test_kinds_of_tests_duties_and_places_are_no_roles(line: str) -> None:
    assert _roles("青石诚聘 测试工程师", f"### 岗位\n{line}\n{BODY}") == ("测试工程师",)


def test_who_hires_is_no_role() -> None:
    assert _roles("青石诚聘 测试工程师", f"我们正在招聘区块链工程师\n{BODY}") == ("测试工程师", "区块链工程师")


@pytest.mark.parametrize(("title", "roles"), [
    ("青石诚聘BD负责人/地区经理(东南亚)", ("bd负责人/地区经理",)),  # one lead named two ways
    ("青石诚聘 技术负责人/架构师", ("技术负责人/架构师",)),
    ("青石诚聘 运营负责人/市场负责人", ("运营负责人", "市场负责人")),  # one head word twice: two leads
    ("青石诚聘 产品经理/专家", ("产品经理", "专家")),  # a level alone names no job (dropped when roles merge)
    ("青石诚聘 法务合规经理/券商负责人/财务实习生", ("法务合规经理", "券商负责人", "财务实习生")),  # a longer list
])
def test_two_lead_names_of_one_job_are_one_role(title: str, roles: tuple[str, ...]) -> None:
    assert _title(title) == roles


def test_a_role_named_two_ways_agrees_with_either_name() -> None:
    assert _f("青石诚聘 技术负责人/架构师", "青石诚聘 架构师") == 1.0
    assert _f("青石诚聘 技术负责人/架构师", "青石诚聘 技术负责人") == 1.0
    assert _f("青石诚聘BD负责人/地区经理", "青石诚聘 区域负责人") == 1.0  # 地区 = 区域
    assert _f("青石诚聘 技术负责人/架构师", "青石诚聘 产品负责人") == 0.0
    assert _f("青石诚聘 技术负责人/架构师", "青石诚聘 架构师", name="roles_novel") == 0.0


@pytest.mark.parametrize(("x", "y"), [("架构师", "技术负责人"), ("架构师", "区域负责人"), ("BD负责人", "地区经理"),
                                      ("区块链架构师", "Rust负责人")])
@pytest.mark.parametrize("verb", ["", "招聘"])
def test_a_role_named_two_ways_keeps_its_title_key_in_either_order(x: str, y: str, verb: str) -> None:
    """The title blocking key of a lead named "X/Y" is one key whatever the order (a repost writing "Y/X" still meets
    its first posting): not "" when only the second name has a specialty (架构师/技术负责人)."""
    from signatures.roles_zh import title_role_key

    key = title_role_key(f"{verb}{x}/{y}", "青石")
    assert key and key == title_role_key(f"{verb}{y}/{x}", "青石")


@pytest.mark.parametrize(("t1", "t2", "same"), [
    ("青石诚聘“支付产品经理/专家（清算方向）”", "青石诚聘“清算产品专家/总监”", 1.0),  # the direction is the specialty
    ("青石诚聘 运维-链上数据方向", "青石诚聘 链上数据运维工程师", 1.0),
    ("青石诚聘“支付产品经理（清算方向）”", "青石诚聘“支付产品经理（风控方向）”", 0.0),  # two directions, two jobs
    ("青石诚聘 安全运维工程师（安全方向）", "青石诚聘 安全运维工程师", 1.0),  # a direction the name already says
])
def test_a_direction_after_a_title_role_is_its_specialty(t1: str, t2: str, same: float) -> None:
    assert _f(t1, t2) == same


def test_a_direction_after_a_level_alone_names_no_role() -> None:
    a = prepare({"id": "a", "title": "青石诚聘“清算产品经理/专家（跨境方向）”", "description": BODY, "lang": "zh"})
    assert a.role_names == ("跨境 清算产品经理",)


def test_the_blocking_key_keeps_the_title_role_without_its_direction() -> None:
    from signatures.roles_zh import title_role_key

    assert title_role_key("青石诚聘 支付产品经理（清算方向）") == title_role_key("青石诚聘 支付产品经理")


# s11-zhread: role lists read as the poster wrote them, and role words written another way.

def test_a_body_list_numbered_in_chinese_numerals_names_its_roles() -> None:
    desc = ("一、钱包开发工程师（3000-6000U/月），\n要求：三年以上钱包开发经验。\n二、合约风控专员（4000-8000U/月）\n"
            "三、社区运营（2000-5000U/月）\n1、负责钱包模块的开发；\n数据工程师职位要求：\n- 熟悉 SQL。")
    assert set(_roles("青石诚聘 钱包开发工程师", desc)) == {"钱包开发工程师", "合约风控专员", "社区运营", "数据工程师"}


@pytest.mark.parametrize(("title", "roles"), [
    ("青石招聘“钱包开发工程师、账户产品经理”等", ("钱包开发工程师", "账户产品经理")),  # a list closed by 等
    ("青石最新招聘岗位（iOS/Android开发人员、产品经理）", ("android开发人员", "ios开发人员", "产品经理")),
    ("青石诚聘 做市/量化开发工程师", ("量化开发工程师/做市开发工程师",)),  # one family: one role named two ways
    ("青石诚聘 合约/撮合Java工程师", ("撮合java工程师", "合约工程师")),  # two families: two roles
    ("青石诚聘 高级golang/python/前端工程师", ("前端工程师",)),  # a language names no job of its own
    ("青石高薪聘请核心岗位！CTO技术总监", ("cto技术总监",)),
])
def test_title_lists_are_read_as_written(title: str, roles: tuple[str, ...]) -> None:
    from signatures.roles_zh import zh_title_roles

    assert zh_title_roles(title) == roles


def test_other_openings_under_their_own_heading_are_not_the_postings_roles() -> None:
    desc = "Rust Developer\n- 设计跨链通信模块。\n更多职位\n- Graphic Designer\n- 密码学工程师"
    assert _roles("青石诚聘 Rust工程师", desc) == ("rust工程师", "rust developer")
    assert "graphic designer" in _roles("青石诚聘 Rust工程师", desc.replace("更多职位", "在招岗位"))


@pytest.mark.parametrize("title", ["黑客松寻找队友", "青石招募小伙伴", "青石招募人才"])
def test_a_person_of_no_particular_job_is_no_role(title: str) -> None:
    assert _roles(title, "我们是一个黑客松团队。") == ()


@pytest.mark.parametrize(("t1", "t2"), [
    ("青石诚聘 流动性开发工程师", "青石诚聘 做市开发工程师"),  # the liquidity desk is market making
    ("青石诚聘 Business Development Intern", "青石诚聘 俄语BD实习生"),  # BD = 商务; a language is a specialty more
    ("青石诚聘 BD经理", "青石诚聘 商务经理"),
])
def test_role_words_written_another_way_name_one_role(t1: str, t2: str) -> None:
    assert _f(t1, t2) == 1.0


@pytest.mark.parametrize(("t1", "t2"), [
    ("[马尼拉] 安全维运工程师 薪水 6000 USD", "[马尼拉] 安全运维工程师（安全方向）"),  # Taiwan's 維運 = 运维
    ("交易所诚聘 Business Development Intern", "交易所诚聘 俄语BD实习生"),
])
def test_the_blocking_key_reads_role_words_written_another_way(t1: str, t2: str) -> None:
    from signatures.roles_zh import title_role_key

    assert title_role_key(t1) and title_role_key(t1) == title_role_key(t2)


def test_bd_intern_and_bd_manager_stay_two_roles() -> None:
    assert _f("青石诚聘 Business Development Manager", "青石诚聘 BD实习生") == 0.0


def test_a_category_label_names_the_kind_of_job_not_another_role() -> None:
    desc = "岗位职责：\n1、负责智能合约的开发。\n职位类型：全栈工程师\n工作地址：杭州"
    assert _roles("青石诚聘【区块链合约开发工程师】20K起", desc) == ("区块链合约开发工程师",)


@pytest.mark.parametrize(("t1", "t2", "same"), [
    ("青石诚聘 运营专员", "青石招聘海外运营类岗位", 1.0),  # the specialist of an activity is its person
    ("青石诚聘 客服专员", "青石诚聘 英语客服", 1.0),
    ("青石诚聘 运营专员", "青石诚聘 运营经理", 0.0),  # another seniority
    ("青石诚聘 品牌运营专员", "青石诚聘 社媒运营", 0.0),  # another specialty
])
def test_a_specialist_of_an_activity_is_its_person(t1: str, t2: str, same: float) -> None:
    assert _f(t1, t2) == same
