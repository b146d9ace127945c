"""Generated Japanese and Chinese job-board ads and their revisions, for profile_sig (issue 9).

An ad is a company's template filled for one occupation, one store and one set of terms, rendered the way
a job board shows it (sections under 【…】 / ■ / ### headings, plain text or HTML). `revision(ad, cls)`
makes what a board shows between two versions of that one ad (same job by the labeling guide: FULL or
TEMPORAL "small updates"); `sibling(ad, cls)` makes another ad of the same company from the same template
that must stay apart (PARTIAL: another store, another employment type, another occupation, another shift).
All texts are written here (fictional companies, places and boards); nothing comes from real postings.
"""

from __future__ import annotations

import dataclasses
import random
import unicodedata
from dataclasses import dataclass
from typing import Any

#: Revision classes: the same ad (FULL / TEMPORAL by the guide); profile_sig should stay equal.
SAME_CLASSES = (
    "date_line",      # the posting / update date line at the top changed
    "headcount",      # 募集人数 / 招聘人数 changed
    "deadline",       # application deadline moved
    "sentence_add",   # a sentence added to the duties or the appeal
    "sentence_drop",  # a sentence dropped
    "typo",           # one character of the duties mistyped (or a typo fixed)
    "bullet_add",     # a benefit bullet added
    "bullet_drop",    # a benefit bullet dropped
    "reorder",        # two sections swapped
    "width",          # full-width / half-width forms and punctuation normalised
    "whitespace",     # blank lines, indentation, trailing spaces
    "html",           # the same text as HTML
    "company",        # the company field filled on one site, empty on the other
    "category",       # a site category appended to the title
    "promo_tag",      # a promotional tag put before the title (【急募】)
    "footer",         # a platform footer appended
    "pay_small",      # pay raised a little (TEMPORAL: small update)
    "mixed",          # a later version: date line, headcount and deadline changed, a bullet added
)
#: Classes of another ad from the same template: PARTIAL by the guide; profile_sig must differ.
APART_CLASSES = ("store", "employment", "occupation", "occupation_same_title", "shift")


@dataclass(frozen=True)
class Company:
    legal: str
    brand: str
    blurb: tuple[str, ...]
    occupations: tuple[str, ...]
    benefits: tuple[str, ...]
    holidays: str


@dataclass(frozen=True)
class Occupation:
    title: str
    duties: tuple[str, ...]
    quals: tuple[str, ...]


@dataclass(frozen=True)
class Store:
    place: str  # the name a store is called by
    address: str
    access: str


@dataclass(frozen=True)
class Terms:
    emp: str
    pay_unit: str  # 時給 / 月給 / 月薪 / 时薪
    pay_low: int
    pay_high: int
    hours: str


@dataclass(frozen=True)
class Ad:
    """One ad: what the text says, and how the board renders it."""

    lang: str
    company: Company
    occupation: Occupation
    store: Store
    terms: Terms
    headcount: int
    deadline: tuple[int, int, int]
    updated: tuple[int, int, int]
    appeal: tuple[str, ...]
    duties: tuple[str, ...]
    quals: tuple[str, ...]
    benefits: tuple[str, ...]
    order: tuple[str, ...]
    style: int  # heading style (per board)
    ad_id: str
    company_field: bool = True
    category: str = ""
    footer: str = ""
    html: bool = False
    width: bool = False
    spacing: bool = False
    title_store: bool = True  # the title names the store
    title_emp: bool = True  # the title names the employment type
    promo: str = ""  # a promotional tag before the title
    title: str = ""  # the title, when it does not name the occupation (default: the occupation's title)


# --------------------------------------------------------------------------------------------- Japanese
_JA_OCC = {
    "hall": Occupation("ホールスタッフ", (
        "お客様のご案内、オーダー受け、料理の配膳をお願いします。",
        "レジ対応やテーブルの片付け、開店前の清掃もお任せします。",
        "慣れてきたら新人スタッフの教育にも関わっていただきます。"),
        ("未経験の方、歓迎します。", "土日祝に勤務できる方は優遇します。", "笑顔で接客ができる方。")),
    "kitchen": Occupation("キッチンスタッフ", (
        "仕込み、調理、盛り付けを担当していただきます。",
        "食材の発注や在庫の管理、衛生管理もお願いします。",
        "季節メニューの開発に参加するチャンスもあります。"),
        ("調理経験は問いません。", "包丁の扱いは先輩が丁寧に教えます。", "体力に自信のある方。")),
    "sales": Occupation("販売スタッフ", (
        "店頭での接客販売、商品の品出しと陳列をお願いします。",
        "レジ業務やお客様からのお問い合わせ対応も担当します。",
        "売場づくりや販促ポップの作成もお任せします。"),
        ("販売経験がある方は優遇します。", "ブランクのある方も歓迎です。", "人と話すのが好きな方。")),
    "pharma": Occupation("登録販売者", (
        "医薬品の販売とお客様からのご相談への対応をお願いします。",
        "商品の発注、品出し、売場のメンテナンスも担当していただきます。",
        "健康相談会などの店舗イベントの企画にも関わります。"),
        ("登録販売者の資格をお持ちの方。", "ドラッグストアでの勤務経験がある方は優遇します。", "学歴は問いません。")),
    "care": Occupation("介護職員", (
        "ご利用者様の食事、入浴、排泄の介助をお願いします。",
        "レクリエーションの企画や送迎の付き添いもお任せします。",
        "介護記録の入力はタブレットで簡単に行えます。"),
        ("介護職員初任者研修以上の資格をお持ちの方。", "無資格の方は資格取得を支援します。", "夜勤ができる方は優遇します。")),
    "warehouse": Occupation("倉庫内スタッフ", (
        "ハンディ端末を使った商品のピッキングと検品をお願いします。",
        "出荷する商品の梱包と仕分けも担当していただきます。",
        "フォークリフトの資格がある方には荷役作業もお任せします。"),
        ("未経験の方も歓迎します。", "フォークリフト免許をお持ちの方は優遇します。", "長期で働ける方。")),
    "office": Occupation("一般事務", (
        "書類の作成、データの入力、電話とメールの対応をお願いします。",
        "備品の管理や来客の対応も担当していただきます。",
        "経理担当者のサポートとして伝票の整理もお任せします。"),
        ("基本的なパソコン操作ができる方。", "事務経験は問いません。", "丁寧に仕事を進められる方。")),
}

_JA_COMPANIES = (
    Company("株式会社ひので食堂", "ひので食堂", (
        "ひので食堂は首都圏に40店舗を展開する定食チェーンです。",
        "国産のお米と手作りの惣菜にこだわり、毎日通いたくなるお店を目指しています。"),
        ("hall", "kitchen"),
        ("交通費支給（月3万円まで）", "社会保険完備", "まかない無料", "制服貸与", "社員割引あり"),
        "シフト制（月8日以上）、年末年始休暇、有給休暇"),
    Company("株式会社ミドリ薬局", "ミドリ薬局", (
        "ミドリ薬局は関東と東海に120店舗を持つドラッグストアです。",
        "地域の健康を支える身近なお店として、調剤と相談販売に力を入れています。"),
        ("sales", "pharma"),
        ("交通費全額支給", "社会保険完備", "資格手当あり", "従業員割引", "研修制度あり"),
        "週休2日制（シフト制）、夏季休暇、有給休暇"),
    Company("社会福祉法人あおば会", "あおばの家", (
        "あおば会は地域に根ざした介護施設を8か所運営しています。",
        "ご利用者様一人ひとりの暮らしに寄り添う介護を大切にしています。"),
        ("care", "office"),
        ("交通費支給", "社会保険完備", "資格取得支援制度", "退職金制度", "賞与年2回"),
        "4週8休、年間休日110日、有給休暇"),
    Company("株式会社アオイ物流", "アオイ物流センター", (
        "アオイ物流は通販商品の保管から出荷までを担う物流会社です。",
        "空調の効いた明るい倉庫で、多くの仲間が活躍しています。"),
        ("warehouse", "office"),
        ("交通費規定支給", "社会保険完備", "無料送迎バスあり", "休憩室完備", "日払い制度あり"),
        "土日休み、年末年始休暇、有給休暇"),
)

_JA_STORES = (
    Store("渋谷", "東京都渋谷区道玄坂2-10-7", "JR山手線「渋谷駅」ハチ公口から徒歩3分"),
    Store("池袋東口", "東京都豊島区南池袋1-21-5", "JR「池袋駅」東口から徒歩2分"),
    Store("吉祥寺", "東京都武蔵野市吉祥寺本町1-15-9", "JR中央線「吉祥寺駅」北口から徒歩4分"),
    Store("川崎", "神奈川県川崎市川崎区駅前本町11-2", "JR「川崎駅」東口から徒歩5分"),
    Store("大宮西口", "埼玉県さいたま市大宮区桜木町2-3-1", "JR「大宮駅」西口から徒歩6分"),
    Store("船橋", "千葉県船橋市本町4-2-10", "JR総武線「船橋駅」南口から徒歩3分"),
    Store("町田", "東京都町田市原町田4-8-3", "小田急線「町田駅」東口から徒歩5分"),
    Store("藤沢", "神奈川県藤沢市南藤沢2-1-4", "JR東海道線「藤沢駅」南口から徒歩4分"),
)

_JA_TERMS = {
    "full": Terms("正社員", "月給", 23, 30, "9:00〜18:00（休憩60分・実働8時間）"),
    "contract": Terms("契約社員", "月給", 21, 25, "9:00〜18:00（休憩60分）"),
    "part": Terms("アルバイト・パート", "時給", 1150, 1400, "10:00〜15:00の間で4時間以上、週3日からOK"),
}
_JA_NIGHT_HOURS = "22:00〜翌7:00（休憩90分・夜勤のみ）"

_JA_APPEAL = (
    "オープニング以来の仲間も多数活躍中です。",
    "研修制度が充実しているので、初めての方も安心してスタートできます。",
    "シフトは2週間ごとの提出で、プライベートとの両立もしやすい職場です。",
    "正社員登用の実績も多数あります。",
)
_JA_FLOW = (
    "出勤後、朝礼でその日の予定と注意点を確認します。",
    "開始前の準備として、売場や作業場の清掃と備品の確認を行います。",
    "忙しい時間帯はチーム全員で声をかけ合って対応します。",
    "終業前に翌日の準備と引き継ぎの記入をして退勤です。",
)
_JA_ADDED = (
    "未経験からスタートした先輩がたくさんいます。",
    "職場見学も随時受け付けていますので、お気軽にご相談ください。",
    "最初の1か月は先輩スタッフがマンツーマンでサポートします。",
)
_JA_BENEFIT_ADDED = ("健康診断（年1回）", "慶弔見舞金制度")
_JA_CATEGORIES = ("／飲食・フード", "【販売・接客】", "｜医療・介護・福祉", " - 軽作業・物流", "（事務・オフィス）")
_JA_PROMOS = ("【急募】", "【未経験歓迎】", "★急募★", "【高時給・日払いOK】")
_JA_FOOTERS = (
    "※この求人情報は「しごとタウン」に掲載されています。",
    "掲載期間：{y}年{m}月{d}日〜{y}年{m2}月{d}日",
    "求人番号：{n}",
)

# ---------------------------------------------------------------------------------------------- Chinese
_ZH_OCC = {
    "waiter": Occupation("餐厅服务员", (
        "负责顾客的引座、点餐和上菜工作。",
        "负责收银、餐桌整理以及营业前的清洁工作。",
        "熟悉工作后协助培训新员工。"),
        ("无经验可培训。", "能在周末和节假日上班者优先。", "服务意识强，待人热情。")),
    "cook": Occupation("厨师助理", (
        "负责食材的准备、烹饪和装盘工作。",
        "负责食材的订货、库存管理和厨房卫生。",
        "有机会参与季节菜单的研发。"),
        ("有厨房工作经验者优先。", "能吃苦耐劳，有团队合作精神。", "持有健康证。")),
    "sales": Occupation("门店销售", (
        "负责门店的接待和商品销售，完成门店业绩目标。",
        "负责商品的上架、陈列和库存盘点。",
        "维护老客户关系，开发新客户。"),
        ("有零售行业销售经验者优先。", "沟通能力强，形象气质佳。", "学历不限。")),
    "driver": Occupation("配送司机", (
        "负责城区内的货物配送，保证货物安全准时送达。",
        "负责车辆的日常检查和保养。",
        "协助仓库完成装卸货工作。"),
        ("持有C1及以上驾驶证，驾龄两年以上。", "熟悉本地道路者优先。", "无不良驾驶记录。")),
    "clerk": Occupation("行政文员", (
        "负责文件的整理归档、数据录入和电话接听。",
        "负责办公用品的采购和管理，接待来访客户。",
        "协助财务整理报销单据。"),
        ("熟练使用办公软件。", "大专及以上学历。", "工作细致认真，有责任心。")),
}

_ZH_COMPANIES = (
    Company("上海禾丰餐饮管理有限公司", "禾丰小馆", (
        "禾丰小馆是一家专注家常菜的连锁餐厅，在华东地区拥有60多家门店。",
        "我们坚持新鲜食材、现点现做，致力于为顾客提供放心的一日三餐。"),
        ("waiter", "cook"),
        ("五险一金", "包工作餐", "提供员工宿舍", "节日福利", "带薪年假"),
        "做六休一，月休4天，带薪年假"),
    Company("深圳优品生活零售有限公司", "优品生活", (
        "优品生活是一家经营生活家居用品的连锁零售企业，全国门店超过300家。",
        "公司为员工提供完善的培训和清晰的晋升通道。"),
        ("sales", "clerk"),
        ("五险一金", "员工折扣", "季度奖金", "岗前带薪培训", "晋升空间大"),
        "排班制，月休6天，法定节假日"),
    Company("杭州顺达供应链有限公司", "顺达配送", (
        "顺达供应链为电商平台提供仓储和城市配送服务。",
        "公司业务稳定，车辆和设备齐全。"),
        ("driver", "clerk"),
        ("五险一金", "交通补贴", "餐补", "全勤奖", "年终奖"),
        "做五休二，法定节假日"),
)

_ZH_STORES = (
    Store("徐汇", "上海市徐汇区漕溪北路88号", "地铁1号线徐家汇站步行5分钟"),
    Store("静安", "上海市静安区南京西路1266号", "地铁2号线南京西路站步行3分钟"),
    Store("浦东", "上海市浦东新区张杨路500号", "地铁2号线世纪大道站步行6分钟"),
    Store("南山", "深圳市南山区科技园南路18号", "地铁1号线深大站步行8分钟"),
    Store("福田", "深圳市福田区华强北路1019号", "地铁1号线华强路站步行4分钟"),
    Store("西湖", "杭州市西湖区文三路259号", "地铁2号线学院路站步行5分钟"),
    Store("余杭", "杭州市余杭区文一西路998号", "地铁5号线五常站步行10分钟"),
)

_ZH_TERMS = {
    "full": Terms("全职", "月薪", 5500, 7500, "9:00-18:00，午休1小时"),
    "contract": Terms("劳务派遣", "月薪", 5000, 6500, "9:00-18:00，午休1小时"),
    "part": Terms("兼职", "时薪", 22, 28, "11:00-14:00或17:00-21:00，每周至少3天"),
}
_ZH_NIGHT_HOURS = "22:00-次日6:00，夜班"

_ZH_APPEAL = (
    "门店氛围轻松，同事之间相处融洽。",
    "公司提供系统的岗前培训，新人也能快速上手。",
    "排班灵活，可兼顾学习和家庭。",
    "表现优秀者可晋升为店长。",
)
_ZH_FLOW = ("上班后参加早会，确认当天的工作安排和注意事项。", "营业前做好清洁和物品准备工作。",
            "高峰时段团队互相配合，做好顾客服务。", "下班前完成交接记录和第二天的准备工作。")
_ZH_ADDED = ("欢迎应届毕业生投递简历。", "入职后由老员工一对一带教。", "面试通过后一周内即可入职。")
_ZH_BENEFIT_ADDED = ("每年一次免费体检", "生日福利")
_ZH_CATEGORIES = ("｜餐饮服务", "【零售】", " - 物流运输", " / 行政后勤", "（全职）")
_ZH_PROMOS = ("【急招】", "[急聘]", "【高薪直招】")
_ZH_FOOTERS = ("本职位信息由好工作招聘网发布，未经许可请勿转载。", "发布时间：{y}-{m:02d}-{d:02d}", "浏览次数：{n}")

_VOCAB: dict[str, dict[str, Any]] = {
    "ja": dict(occ=_JA_OCC, companies=_JA_COMPANIES, stores=_JA_STORES, terms=_JA_TERMS, night=_JA_NIGHT_HOURS,
               appeal=_JA_APPEAL, added=_JA_ADDED, benefit_added=_JA_BENEFIT_ADDED, categories=_JA_CATEGORIES,
               footers=_JA_FOOTERS, promos=_JA_PROMOS, flow=_JA_FLOW),
    "zh": dict(occ=_ZH_OCC, companies=_ZH_COMPANIES, stores=_ZH_STORES, terms=_ZH_TERMS, night=_ZH_NIGHT_HOURS,
               appeal=_ZH_APPEAL, added=_ZH_ADDED, benefit_added=_ZH_BENEFIT_ADDED, categories=_ZH_CATEGORIES,
               footers=_ZH_FOOTERS, promos=_ZH_PROMOS, flow=_ZH_FLOW),
}

SECTIONS = ("appeal", "duties", "flow", "quals", "emp", "pay", "hours", "place", "access", "holidays", "benefits",
            "headcount", "apply", "company")
_HEADINGS = {
    "ja": dict(appeal="ここがポイント", duties="仕事内容", flow="1日の流れ", quals="応募資格", emp="雇用形態", pay="給与", hours="勤務時間",
               place="勤務地", access="アクセス", holidays="休日・休暇", benefits="待遇・福利厚生", headcount="募集人数",
               apply="応募方法", company="会社情報"),
    "zh": dict(appeal="职位亮点", duties="岗位职责", flow="工作流程", quals="任职要求", emp="工作性质", pay="薪资待遇", hours="工作时间",
               place="工作地点", access="交通", holidays="休息休假", benefits="福利待遇", headcount="招聘人数",
               apply="应聘方式", company="公司介绍"),
}
#: Heading styles of three boards: 【…】, ■…, ### … (markdown).
_STYLES = ("【{}】", "■{}", "### {}")


def make_ad(rng: random.Random, lang: str, ad_id: str) -> Ad:
    """A random ad of a random company: one of its occupations, one store, one set of terms."""
    v = _VOCAB[lang]
    company = rng.choice(v["companies"])
    occ = v["occ"][rng.choice(company.occupations)]
    terms = v["terms"][rng.choice(sorted(v["terms"]))]
    year = rng.choice((2024, 2025))
    month = rng.randint(1, 10)
    order = list(SECTIONS)
    return Ad(lang=lang, company=company, occupation=occ, store=rng.choice(v["stores"]), terms=terms,
              headcount=rng.randint(1, 5), deadline=(year, month + 1, rng.randint(1, 28)),
              updated=(year, month, rng.randint(1, 28)), appeal=tuple(rng.sample(v["appeal"], 3)),
              duties=occ.duties, quals=occ.quals, benefits=tuple(rng.sample(company.benefits, 4)),
              order=tuple(order), style=rng.randrange(len(_STYLES)), ad_id=ad_id,
              company_field=rng.random() < 0.5, title_store=rng.random() < 0.5, title_emp=rng.random() < 0.5)


def _pay(ad: Ad) -> str:
    t = ad.terms
    if ad.lang == "ja":
        if t.pay_unit == "時給":
            return f"時給{t.pay_low:,}円〜{t.pay_high:,}円（研修期間3か月は同条件）"
        return f"月給{t.pay_low}万円〜{t.pay_high}万円（経験・能力を考慮して決定）\n賞与年2回、昇給年1回"
    if t.pay_unit == "时薪":
        return f"时薪{t.pay_low}-{t.pay_high}元，每月10日发薪"
    return f"月薪{t.pay_low}-{t.pay_high}元，绩效奖金另计\n每年调薪一次"


def _section_body(ad: Ad, name: str) -> list[str]:
    """The lines of one section (bullets for lists)."""
    ja = ad.lang == "ja"
    store = f"{ad.company.brand} {ad.store.place}{'店' if ja else '店'}"
    bullet = "・" if ja else "- "
    if name == "appeal":
        return list(ad.appeal)
    if name == "duties":
        return [ad.occupation.title + ("として、次の業務をお任せします。" if ja else "，主要负责以下工作："),
                *ad.duties]
    if name == "flow":
        return list(_VOCAB[ad.lang]["flow"])
    if name == "quals":
        return [bullet + q for q in ad.quals]
    if name == "emp":
        return [ad.terms.emp]
    if name == "pay":
        return _pay(ad).split("\n")
    if name == "hours":
        return [ad.terms.hours]
    if name == "place":
        return [store, ad.store.address]
    if name == "access":
        return [ad.store.access]
    if name == "holidays":
        return [ad.company.holidays]
    if name == "benefits":
        return [bullet + b for b in ad.benefits]
    if name == "headcount":
        return [f"{ad.headcount}名" if ja else f"{ad.headcount}人"]
    if name == "apply":
        y, m, d = ad.deadline
        if ja:
            return ["「応募する」ボタンからご応募ください。書類選考の後、面接日をご連絡します。",
                    f"応募締切：{y}年{m}月{d}日"]
        return ["请点击“申请职位”投递简历，我们将在三个工作日内与您联系。", f"截止日期：{y}年{m}月{d}日"]
    if name == "company":
        return [ad.company.legal, *ad.company.blurb]
    raise ValueError(name)


def render(ad: Ad) -> dict[str, Any]:
    """The posting a board shows for `ad` (id, title, description, optional company)."""
    ja = ad.lang == "ja"
    y, m, d = ad.updated
    head = f"情報更新日：{y}年{m}月{d}日" if ja else f"更新时间：{y}-{m:02d}-{d:02d}"
    blocks = [[head]]
    for name in ad.order:
        heading = _HEADINGS[ad.lang][name] if ad.html else _STYLES[ad.style].format(_HEADINGS[ad.lang][name])
        blocks.append([heading, *_section_body(ad, name)])
    if ad.footer:
        blocks.append([ad.footer])
    if ad.html:
        desc = "".join(
            f"<h3>{b[0]}</h3>" + "".join(f"<p>{line}</p>" for line in b[1:]) if len(b) > 1 else f"<p>{b[0]}</p>"
            for b in blocks)
    elif ad.spacing:
        desc = "\n\n\n".join("\n".join("  " + line + " " for line in b) for b in blocks) + "\n"
    else:
        desc = "\n\n".join("\n".join(b) for b in blocks)
    title = ad.promo + (ad.title or ad.occupation.title) + (f"（{ad.terms.emp}）" if ad.title_emp else "")
    if ad.title_store:
        title += f"◆{ad.company.brand} {ad.store.place}店" if ja else f" - {ad.company.brand}{ad.store.place}店"
    title += ad.category
    if ad.width:
        title, desc = _width_variant(title), _width_variant(desc)
    post = {"id": ad.ad_id, "title": title, "description": desc}
    if ad.company_field:
        post["company"] = ad.company.legal
    return post


# What another site or a later version writes differently: digits and Latin in full width, katakana in half
# width (Japanese), ASCII punctuation for full-width punctuation and wave dashes.
_PUNCT = str.maketrans({"：": ":", "（": "(", "）": ")", "〜": "～", "！": "!", "「": "『", "」": "』"})


def _width_variant(text: str) -> str:
    out = []
    for ch in text:
        if "0" <= ch <= "9" or "A" <= ch <= "Z" or "a" <= ch <= "z":
            out.append(chr(ord(ch) + 0xFEE0))  # full width
        elif "\u30a1" <= ch <= "\u30f6" or ch == "ー":
            half = unicodedata.normalize("NFKC", ch)  # katakana stays; half-width forms below
            out.append(_HALF_KATA.get(half, half))
        else:
            out.append(ch)
    return "".join(out).translate(_PUNCT)


def _half_katakana() -> dict[str, str]:
    table: dict[str, str] = {}
    for code in range(0xFF66, 0xFF9E):
        full = unicodedata.normalize("NFKC", chr(code))
        table.setdefault(full, chr(code))
    # voiced katakana: base + half-width voiced mark
    for ch in "ガギグゲゴザジズゼゾダヂヅデドバビブベボ":
        base = unicodedata.normalize("NFD", ch)[0]
        table[ch] = table[base] + "\uff9e"
    for ch in "パピプペポ":
        base = unicodedata.normalize("NFD", ch)[0]
        table[ch] = table[base] + "\uff9f"
    return table


_HALF_KATA = _half_katakana()


def revision(rng: random.Random, ad: Ad, cls: str) -> Ad:
    """`ad` as a later version or another board shows it: the same job (FULL / TEMPORAL), one edit of class `cls`."""
    v = _VOCAB[ad.lang]
    rid = ad.ad_id + "~" + cls
    if cls == "date_line":
        y, m, d = ad.updated
        return dataclasses.replace(ad, ad_id=rid, updated=(y, m, d % 28 + 1))
    if cls == "headcount":
        return dataclasses.replace(ad, ad_id=rid, headcount=ad.headcount + rng.randint(1, 3))
    if cls == "deadline":
        y, m, d = ad.deadline
        return dataclasses.replace(ad, ad_id=rid, deadline=(y, m + 1, d))
    if cls == "sentence_add":
        where = rng.choice(("appeal", "duties"))
        added = rng.choice(v["added"])
        if where == "appeal":
            return dataclasses.replace(ad, ad_id=rid, appeal=(*ad.appeal, added))
        return dataclasses.replace(ad, ad_id=rid, duties=(*ad.duties, added))
    if cls == "typo":
        i = rng.randrange(len(ad.duties))
        duty = ad.duties[i]
        k = rng.choice([j for j, ch in enumerate(duty) if "\u4e00" <= ch <= "\u9fff"])
        typo = duty[:k] + rng.choice([c for c in "案務品客係時" if c != duty[k]]) + duty[k + 1 :]
        return dataclasses.replace(ad, ad_id=rid, duties=ad.duties[:i] + (typo,) + ad.duties[i + 1 :])
    if cls == "sentence_drop":
        if rng.random() < 0.5:
            i = rng.randrange(len(ad.appeal))
            return dataclasses.replace(ad, ad_id=rid, appeal=ad.appeal[:i] + ad.appeal[i + 1 :])
        i = rng.randrange(1, len(ad.duties))
        return dataclasses.replace(ad, ad_id=rid, duties=ad.duties[:i] + ad.duties[i + 1 :])
    if cls == "bullet_add":
        return dataclasses.replace(ad, ad_id=rid, benefits=(*ad.benefits, rng.choice(v["benefit_added"])))
    if cls == "bullet_drop":
        i = rng.randrange(len(ad.benefits))
        return dataclasses.replace(ad, ad_id=rid, benefits=ad.benefits[:i] + ad.benefits[i + 1 :])
    if cls == "reorder":
        order = list(ad.order)
        i, j = rng.sample(range(len(order)), 2)
        order[i], order[j] = order[j], order[i]
        return dataclasses.replace(ad, ad_id=rid, order=tuple(order))
    if cls == "width":
        return dataclasses.replace(ad, ad_id=rid, width=not ad.width)
    if cls == "whitespace":
        return dataclasses.replace(ad, ad_id=rid, spacing=not ad.spacing)
    if cls == "html":
        return dataclasses.replace(ad, ad_id=rid, html=not ad.html)
    if cls == "company":
        return dataclasses.replace(ad, ad_id=rid, company_field=not ad.company_field)
    if cls == "category":
        return dataclasses.replace(ad, ad_id=rid, category=rng.choice(v["categories"]))
    if cls == "promo_tag":
        return dataclasses.replace(ad, ad_id=rid, promo=rng.choice(v["promos"]))
    if cls == "footer":
        y, m, d = ad.updated
        lines = [f.format(y=y, m=m, m2=m + 1, d=d, n=rng.randint(10000, 99999)) for f in v["footers"]]
        return dataclasses.replace(ad, ad_id=rid, footer="\n".join(rng.sample(lines, rng.randint(1, 3))))
    if cls == "pay_small":
        t = ad.terms
        step = 50 if t.pay_unit in ("時給",) else 1 if t.pay_unit == "月給" else 2 if t.pay_unit == "时薪" else 500
        terms = dataclasses.replace(t, pay_low=t.pay_low + step, pay_high=t.pay_high + step)
        return dataclasses.replace(ad, ad_id=rid, terms=terms)
    if cls == "mixed":
        for part in ("date_line", "headcount", "deadline", "bullet_add"):
            ad = revision(rng, ad, part)
        return dataclasses.replace(ad, ad_id=rid)
    raise ValueError(f"unknown revision class {cls!r}")


def sibling(rng: random.Random, ad: Ad, cls: str) -> Ad:
    """Another ad of `ad`'s company from the same template (PARTIAL by the guide): class `cls`."""
    v = _VOCAB[ad.lang]
    sid = ad.ad_id + "^" + cls
    if cls == "store":
        store = rng.choice([s for s in v["stores"] if s != ad.store])
        return dataclasses.replace(ad, ad_id=sid, store=store)
    if cls == "employment":
        terms = rng.choice([t for t in v["terms"].values() if t.emp != ad.terms.emp])
        return dataclasses.replace(ad, ad_id=sid, terms=terms)
    if cls in ("occupation", "occupation_same_title"):
        name = next(o for o in ad.company.occupations if v["occ"][o] != ad.occupation)
        occ = v["occ"][name]
        title = ad.title or ad.occupation.title if cls == "occupation_same_title" else ""
        return dataclasses.replace(ad, ad_id=sid, occupation=occ, duties=occ.duties, quals=occ.quals, title=title)
    if cls == "shift":
        return dataclasses.replace(ad, ad_id=sid, terms=dataclasses.replace(ad.terms, hours=v["night"]))
    raise ValueError(f"unknown sibling class {cls!r}")


def class_pairs(lang: str, n: int, seed: int = 0) -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    """`n` posting pairs per class (SAME_CLASSES, then APART_CLASSES), each from its own random ad."""
    rng = random.Random(f"{lang}-{seed}")
    out: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for cls in SAME_CLASSES + APART_CLASSES:
        pairs = []
        for i in range(n):
            ad = make_ad(rng, lang, f"{lang}-{cls}-{i}")
            other = revision(rng, ad, cls) if cls in SAME_CLASSES else sibling(rng, ad, cls)
            pairs.append((render(ad), render(other)))
        out[cls] = pairs
    return out

