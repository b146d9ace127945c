"""Synthetic job postings with realistic reposts, for tests, benchmarks and demos.

Jobs are drawn from built-in vocabularies (titles, companies, locations, paragraphs; English, Chinese,
Japanese). A job is re-posted the way real ones are: paragraphs restructured, shortened or extended,
metadata reformatted (company suffix, location style, phone format), the equal-opportunity paragraph
dropped or added, and crawl logs re-sight the same posting (same id) on later days. Companies post
several different jobs that share the company blurb and benefits: hard negatives. With `agency_rate`, a
share of the reposts are recruitment-agency copies: the text as HTML (paragraphs, lists), the agency as
`company`, the employer named in the first line and an agency footer.

Every posting carries `synthetic_job` (the ground-truth job key) so tests can score a dedup run.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

LANGS = ("en", "zh", "ja")

_EN = {
    "roles": ["Software Engineer", "Backend Engineer", "Frontend Developer", "Data Scientist", "Data Engineer",
              "DevOps Engineer", "Site Reliability Engineer", "Product Manager", "Product Designer",
              "QA Engineer", "Mobile Developer", "Machine Learning Engineer", "Security Engineer",
              "Sales Manager", "Account Executive", "Customer Success Manager", "Marketing Specialist",
              "Financial Analyst", "HR Generalist", "Technical Writer", "Solutions Architect",
              "Database Administrator", "Nurse", "Warehouse Associate", "Truck Driver", "Electrician",
              "Accountant", "Project Manager", "Operations Coordinator", "Recruiter"],
    "levels": ["", "", "Senior ", "Junior ", "Lead ", "Staff ", "Principal "],
    "cities": [("Berlin", "Germany", "DE"), ("Munich", "Germany", "DE"), ("London", "United Kingdom", "UK"),
               ("Paris", "France", "FR"), ("Amsterdam", "Netherlands", "NL"), ("New York", "NY", "US"),
               ("San Francisco", "CA", "US"), ("Austin", "TX", "US"), ("Seattle", "WA", "US"),
               ("Toronto", "Ontario", "CA"), ("Dublin", "Ireland", "IE"), ("Madrid", "Spain", "ES"),
               ("Stockholm", "Sweden", "SE"), ("Warsaw", "Poland", "PL"), ("Zurich", "Switzerland", "CH"),
               ("Chicago", "IL", "US"), ("Boston", "MA", "US"), ("Denver", "CO", "US"), ("Lisbon", "Portugal", "PT"),
               ("Vienna", "Austria", "AT")],
    "syll": ["ac", "me", "zen", "tri", "no", "va", "lu", "mi", "nex", "or", "bit", "quan", "ta", "sol", "ra",
             "vel", "io", "ko", "par", "dex", "lo", "gen", "sy", "flux", "ver", "ti", "cor", "al", "ex", "on"],
    "suffixes": [("Inc.", "Inc", ""), ("GmbH", "GmbH", ""), ("Ltd.", "Limited", "Ltd"), ("LLC", "L.L.C.", ""),
                 ("Technologies", "Technologies Inc.", "Tech"), ("Labs", "Labs Inc.", ""), ("AG", "AG", ""),
                 ("Systems", "Systems Ltd.", "")],
    "industries": ["logistics", "healthcare", "fintech", "e-commerce", "energy", "education", "insurance",
                   "travel", "gaming", "cybersecurity", "real estate", "food delivery", "biotech", "media"],
    "products": ["a data platform", "a payments API", "a scheduling app", "a marketplace", "a fleet tracker",
                 "an analytics suite", "a learning platform", "a claims engine", "a booking system",
                 "an observability tool", "a supply chain planner", "a patient portal"],
    "skills": ["Python", "Java", "Go", "Rust", "TypeScript", "React", "Kubernetes", "Terraform", "AWS", "GCP",
               "PostgreSQL", "Kafka", "Spark", "SQL", "Docker", "Linux", "GraphQL", "Swift", "Kotlin",
               "Excel", "Salesforce", "Figma", "Tableau", "C++", "Scala", "Airflow", "Redis", "Elasticsearch"],
    "blurb": ["{c} is a {ind} company building {prod} used by {n} customers in {k} countries.",
              "Founded in {y}, {c} has grown to {m} people across {k} offices.",
              "We are backed by leading investors and have been profitable since {y2}.",
              "Our mission is to make {ind} simpler, faster and fairer for everyone.",
              "At {c} we value ownership, curiosity and clear written communication.",
              "Our teams work in small, autonomous squads with a strong culture of code review and mentoring."],
    "intro": ["We are looking for a {t} to join our {team} team in {city}.",
              "As a {t} you will help us scale {prod} to the next million users.",
              "This is a great opportunity for a {t} who wants real impact from day one.",
              "You will report to the Head of {team} and work closely with product and design."],
    "teams": ["Platform", "Payments", "Growth", "Infrastructure", "Data", "Mobile", "Core", "Sales", "Operations"],
    "resp": ["Design, build and maintain services written in {s1} and {s2}.",
             "Own features end to end, from discovery to production monitoring.",
             "Collaborate with {team} stakeholders to define requirements and priorities.",
             "Improve reliability, latency and cost of our {s1} systems.",
             "Mentor junior colleagues and take part in hiring.",
             "Write clear documentation and contribute to architecture decisions.",
             "Analyse data to find opportunities and measure the impact of changes.",
             "Participate in an on-call rotation shared fairly across the team.",
             "Work with customers to understand their needs and translate them into solutions.",
             "Prepare monthly reports and present results to leadership."],
    "req": ["{yrs}+ years of professional experience with {s1}.",
            "Solid knowledge of {s2} and {s3}.",
            "Experience running production workloads on {s3}.",
            "Fluent English; {lang2} is a plus.",
            "A degree in computer science or equivalent practical experience.",
            "Strong communication skills and a pragmatic attitude.",
            "Familiarity with agile practices and continuous delivery.",
            "Experience in the {ind} industry is a plus."],
    "langs2": ["German", "French", "Spanish", "Dutch", "Polish", "Swedish", "Portuguese"],
    "benefits": ["Competitive salary of {sal} plus equity.", "{vac} days of paid vacation.",
                 "Flexible working hours and up to {rem} remote days per week.",
                 "A yearly learning budget of {bud}.", "Private health insurance for you and your family.",
                 "A new laptop and home office setup of your choice.", "Public transport ticket and gym membership."],
    "eeo": ["{c} is an equal opportunity employer. We celebrate diversity and are committed to creating an "
            "inclusive environment for all employees. All qualified applicants will receive consideration for "
            "employment without regard to race, color, religion, gender, gender identity or expression, sexual "
            "orientation, national origin, genetics, disability, age, or veteran status."],
    "apply": ["Apply via our careers page or send your CV to {mail}.", "Questions? Call us at {phone}.",
              "Send your application including salary expectations and earliest start date to {mail}."],
    "detail": ["The {team} team has {k} members and runs {prod} on {s1}, serving {n} customers.",
               "You will join in {city}; the first project is a rewrite of our {s2} stack on {s3}.",
               "The role reports to our VP {team} and has a probation period of {yrs} months."],
    "h_resp": ["Your responsibilities", "What you will do", "Responsibilities", "Your tasks"],
    "h_req": ["Your profile", "What we are looking for", "Requirements", "Qualifications"],
    "h_ben": ["What we offer", "Benefits", "Why join us", "Perks"],
    "h_about": ["About us", "Who we are", "About the company"],
    "extra": ["We are growing quickly and this role will shape how the team works for years to come.",
              "The interview process has three steps: a call, a practical exercise and a team conversation.",
              "Relocation support and visa sponsorship are available for the right candidate.",
              "Our office is five minutes from the central station and pets are welcome.",
              "Please mention where you found this posting when you apply."],
}

_ZH = {
    "roles": ["后端开发工程师", "前端开发工程师", "数据分析师", "算法工程师", "产品经理", "测试工程师", "运维工程师",
              "智能合约开发工程师", "UI设计师", "销售经理", "客户经理", "人力资源专员", "财务会计", "市场专员",
              "Java开发工程师", "Go开发工程师", "安卓开发工程师", "iOS开发工程师", "项目经理", "技术支持工程师"],
    "levels": ["", "", "高级", "资深", "初级"],
    "cities": [("北京", "朝阳区", "北京市"), ("上海", "浦东新区", "上海市"), ("深圳", "南山区", "深圳市"),
               ("杭州", "西湖区", "杭州市"), ("广州", "天河区", "广州市"), ("成都", "高新区", "成都市"),
               ("南京", "鼓楼区", "南京市"), ("武汉", "洪山区", "武汉市"), ("西安", "雁塔区", "西安市"),
               ("苏州", "工业园区", "苏州市")],
    "syll": ["华", "信", "达", "创", "科", "智", "联", "云", "链", "数", "星", "海", "新", "瑞", "博", "安",
             "源", "启", "宏", "鼎"],
    "suffixes": [("科技有限公司", "科技", "科技公司"), ("网络技术有限公司", "网络", "网络科技"),
                 ("信息技术有限公司", "信息", "信息技术"), ("集团", "集团有限公司", "集团公司")],
    "industries": ["区块链", "电商", "金融科技", "在线教育", "医疗健康", "物流", "游戏", "新能源", "人工智能"],
    "products": ["去中心化交易平台", "移动支付系统", "智能推荐引擎", "供应链管理平台", "在线学习平台", "数据中台"],
    "skills": ["Java", "Go", "Python", "Rust", "Solidity", "MySQL", "Redis", "Kafka", "Kubernetes", "React",
               "Vue", "Spring Boot", "Linux", "Docker", "TensorFlow", "Hadoop"],
    "blurb": ["{c}成立于{y}年，是一家专注于{ind}领域的创新型企业，核心产品为{prod}。",
              "公司目前拥有员工{m}人，业务覆盖{k}个国家和地区，已完成多轮融资。",
              "我们崇尚开放、透明、高效的团队文化，鼓励每一位成员持续学习和成长。",
              "公司总部位于{city}，在多个城市设有研发中心。"],
    "intro": ["因业务快速发展，现诚聘{t}一名，加入我们的{team}团队。", "我们正在寻找优秀的{t}，共同打造{prod}。"],
    "teams": ["平台", "支付", "增长", "基础架构", "数据", "移动端", "核心业务"],
    "resp": ["负责基于{s1}和{s2}的核心服务设计、开发与维护；", "参与系统架构设计，持续优化系统性能与稳定性；",
             "与产品、设计团队紧密合作，推动需求落地；", "编写技术文档，参与代码评审；",
             "负责线上问题排查与处理，保障服务高可用；", "分析业务数据，为产品决策提供支持；",
             "指导初级工程师，参与团队招聘与培养；"],
    "req": ["本科及以上学历，计算机相关专业，{yrs}年以上相关工作经验；", "精通{s1}，熟悉{s2}和{s3}；",
            "具备良好的沟通能力和团队合作精神；", "有{ind}行业经验者优先；", "熟悉分布式系统设计，有高并发项目经验者优先；",
            "英语读写流利者优先；"],
    "benefits": ["薪资范围：{sal}，另有年终奖和期权激励；", "五险一金，补充商业医疗保险；", "带薪年假{vac}天，弹性工作制；",
                 "每年{bud}学习培训预算；", "免费午餐、下午茶及定期团建活动；"],
    "eeo": ["{c}坚持平等雇佣原则，不因性别、年龄、民族、宗教信仰、婚育状况等因素歧视任何候选人。"],
    "apply": ["有意者请将简历发送至{mail}，邮件标题注明应聘职位。", "联系电话：{phone}。"],
    "detail": ["{team}团队目前有{k}名成员，负责{prod}的{s1}服务，日均处理{n}笔业务。",
               "该岗位汇报给{team}负责人，试用期{yrs}个月，入职后将参与{prod}二期项目。",
               "工作地点位于{city}，团队使用{s2}和{s3}构建新一代{ind}产品。"],
    "h_resp": ["岗位职责", "工作内容", "职位描述"], "h_req": ["任职要求", "岗位要求", "我们希望你"],
    "h_ben": ["福利待遇", "我们提供", "薪酬福利"], "h_about": ["关于我们", "公司介绍"],
    "extra": ["面试流程：电话沟通、技术面试、终面，整个流程一般不超过两周。", "可提供远程办公机会，优秀者可面议薪资。",
              "欢迎推荐身边优秀的朋友，推荐成功有奖励。"],
    "langs2": ["英语", "日语"],
}

_JA = {
    "roles": ["バックエンドエンジニア", "フロントエンドエンジニア", "データサイエンティスト", "インフラエンジニア",
              "プロダクトマネージャー", "UIデザイナー", "営業職", "カスタマーサポート", "経理スタッフ", "人事担当",
              "看護師", "美容師", "販売スタッフ", "施工管理", "介護職員", "ドライバー", "事務職", "マーケティング担当"],
    "levels": ["", "", "シニア", "リード", "未経験歓迎・"],
    "cities": [("東京都", "渋谷区", "東京"), ("大阪府", "大阪市北区", "大阪"), ("愛知県", "名古屋市中区", "名古屋"),
               ("福岡県", "福岡市博多区", "福岡"), ("北海道", "札幌市中央区", "札幌"), ("神奈川県", "横浜市西区", "横浜"),
               ("京都府", "京都市下京区", "京都"), ("宮城県", "仙台市青葉区", "仙台")],
    "syll": ["ア", "ル", "テ", "ク", "ノ", "サ", "イ", "エ", "ス", "ミ", "ラ", "ト", "カ", "ネ", "リ", "オ"],
    "suffixes": [("株式会社", "(株)", "株式会社"), ("合同会社", "合同会社", "(同)")],
    "industries": ["IT", "医療", "物流", "小売", "不動産", "人材", "教育", "美容", "建設"],
    "products": ["クラウド型業務管理システム", "予約プラットフォーム", "ECサイト", "学習アプリ", "決済サービス"],
    "skills": ["Java", "Go", "Python", "Ruby", "TypeScript", "React", "AWS", "MySQL", "Docker", "Excel", "Kubernetes"],
    "blurb": ["{c}は{y}年に設立され、{ind}業界で{prod}を提供しています。",
              "現在、従業員数は{m}名、全国{k}拠点で事業を展開しています。",
              "社員一人ひとりの挑戦を応援する風土があり、若手の活躍も目立ちます。",
              "安定した経営基盤のもと、さらなる事業拡大を目指しています。"],
    "intro": ["事業拡大に伴い、{t}を募集いたします。", "{prod}の開発を担う{t}として活躍していただきます。"],
    "teams": ["開発", "営業", "基盤", "データ", "カスタマーサクセス"],
    "resp": ["{s1}や{s2}を用いたシステムの設計・開発・運用をお任せします。", "お客様へのヒアリングから提案まで一貫して担当していただきます。",
             "チームメンバーと協力しながら業務改善を進めていただきます。", "新人スタッフの教育やサポートもお願いします。",
             "日々の業務を通じてサービス品質の向上に取り組んでいただきます。", "データを分析し、施策の立案と効果検証を行っていただきます。"],
    "req": ["{s1}での実務経験{yrs}年以上の方", "{s2}や{s3}の知識をお持ちの方", "コミュニケーション能力に自信のある方",
            "{ind}業界での経験がある方歓迎", "普通自動車免許をお持ちの方歓迎", "学歴不問・未経験者歓迎"],
    "benefits": ["月給{sal}以上（経験・能力を考慮）", "完全週休2日制（土日祝）、年間休日{vac}日", "社会保険完備、交通費全額支給",
                 "資格取得支援制度あり（年間{bud}まで）", "産休・育休取得実績あり、リモートワーク可"],
    "eeo": ["{c}は性別・年齢・国籍などに関わらず、多様な人材が活躍できる職場づくりに取り組んでいます。"],
    "apply": ["応募はWebエントリーフォームまたはメール（{mail}）にて受け付けております。", "お問い合わせ：{phone}（採用担当）"],
    "detail": ["{team}チームでは現在{k}名のメンバーが{prod}の{s1}基盤を担当し、月間{n}件の取引を支えています。",
               "配属先は{city}の{team}部門で、試用期間は{yrs}か月です。{s2}と{s3}を使った新規開発に携わります。",
               "入社後は{prod}のリニューアルプロジェクトに参加し、{ind}業界の知見を深めていただきます。"],
    "h_resp": ["仕事内容", "業務内容", "お任せする仕事"], "h_req": ["応募資格", "求める人材", "必須条件"],
    "h_ben": ["待遇・福利厚生", "給与・待遇", "福利厚生"], "h_about": ["会社概要", "私たちについて"],
    "extra": ["選考は書類選考、面接2回を予定しています。", "入社時期はご相談に応じます。", "見学・面談のみのご応募も歓迎します。"],
    "langs2": ["英語"],
}

_VOCAB = {"en": _EN, "zh": _ZH, "ja": _JA}
_AGENCIES = ["Talent Bridge Recruiting", "Peak Staffing Partners", "Northstar Search", "Hire Harbor Agency"]
_BOARDS = ["jobs.example.com", "careers.example.org", "work.example.net", "hire.example.io", "talent.example.dev"]


@dataclass
class _Company:
    name: str
    variants: tuple[str, ...]
    blurb: list[str]
    benefits: list[str]
    domain: str
    phone: str
    eeo: str


@dataclass
class _Job:
    key: str
    lang: str
    company: _Company
    title: str
    city: tuple[str, str, str]
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    has_eeo: bool = True
    posted: _dt.date = _dt.date(2026, 1, 1)
    n_posts: int = 0


class Generator:
    """Deterministic (per seed) stream of synthetic postings with reposts and crawl re-sightings."""

    def __init__(self, lang: str = "en", dup_rate: float = 0.6, seed: int = 0, resight_rate: float = 0.05,
                 agency_rate: float = 0.0) -> None:
        if lang not in _VOCAB and lang != "mixed":
            raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGS)} or mixed")
        if not 0.0 <= dup_rate < 1.0:
            raise ValueError("dup_rate must be in [0, 1)")
        self.lang = lang
        self.dup_rate = dup_rate
        self.resight_rate = resight_rate
        self.agency_rate = agency_rate
        self.rng = random.Random(seed)
        self.companies: dict[str, list[_Company]] = {k: [] for k in _VOCAB}
        self.recent: list[_Job] = []
        self.n_jobs = 0
        self.day = _dt.date(2026, 1, 1)
        self.last_emitted: list[dict[str, Any]] = []

    # -- building blocks -------------------------------------------------------------------------
    def _fill(self, v: dict, tpl: str, job: _Job | None = None, company: _Company | None = None) -> str:
        r = self.rng
        sk = r.sample(v["skills"], 3)
        company = company or (job.company if job else None)
        return tpl.format(
            c=company.name if company else "", ind=r.choice(v["industries"]), prod=r.choice(v["products"]),
            n=r.choice(["2,000", "15,000", "300", "1.2 million", "40,000"]), k=r.randint(2, 40),
            y=r.randint(1985, 2022), y2=r.randint(2010, 2024), m=r.choice([40, 120, 350, 900, 2500, 12000]),
            t=job.title if job else "", team=r.choice(v["teams"]), city=(job.city[0] if job else r.choice(v["cities"])[0]),
            s1=sk[0], s2=sk[1], s3=sk[2], yrs=r.randint(1, 8), lang2=r.choice(v["langs2"]),
            sal=r.choice(["EUR 60,000-80,000", "USD 120k-160k", "GBP 55,000", "25-40k/月", "30万円", "20～35k"]),
            vac=r.choice([25, 28, 30, 120, 125]), rem=r.randint(1, 5), bud=r.choice(["EUR 1,500", "USD 2,000", "5000元", "10万円"]),
            mail=f"jobs@{company.domain}" if company else "jobs@example.com",
            phone=company.phone if company else "+1 555 0100",
        )

    def _company(self, lang: str) -> _Company:
        v, r, pool = _VOCAB[lang], self.rng, self.companies[lang]
        if pool and r.random() < 0.75:
            return r.choice(pool)
        n_syll = r.randint(2, 3) if lang == "en" else r.randint(3, 4)
        sep = "" if lang != "en" else ""
        stem = sep.join(r.choice(v["syll"]) for _ in range(n_syll))
        stem = stem.capitalize() if lang == "en" else stem
        suffix = r.choice(v["suffixes"])
        if lang == "ja":
            variants = (f"{suffix[0]}{stem}", f"{stem}{suffix[1]}", f"{stem}")
        else:
            variants = (f"{stem} {suffix[0]}".strip() if lang == "en" else f"{stem}{suffix[0]}",
                        f"{stem} {suffix[1]}".strip() if lang == "en" else f"{stem}{suffix[1]}",
                        (f"{stem.upper()} {suffix[2]}".strip() if lang == "en" else f"{stem}{suffix[2]}"))
        domain = f"{''.join(ch for ch in stem.lower() if ch.isascii() and ch.isalnum()) or 'corp'}{r.randint(1, 999)}.example.com"
        phone = f"+{r.choice([1, 44, 49, 86, 81])} {r.randint(100, 999)} {r.randint(1000000, 9999999)}"
        c = _Company(variants[0], variants, [], [], domain, phone, "")
        c.blurb = [self._fill(v, t, company=c) for t in r.sample(v["blurb"], min(len(v["blurb"]), r.randint(2, 4)))]
        c.benefits = [self._fill(v, t, company=c) for t in r.sample(v["benefits"], r.randint(3, len(v["benefits"])))]
        c.eeo = self._fill(v, v["eeo"][0], company=c)
        pool.append(c)
        if len(pool) > 2000:
            pool.pop(0)
        return c

    def _new_job(self) -> _Job:
        r = self.rng
        lang = self.lang if self.lang != "mixed" else r.choice(LANGS)
        v = _VOCAB[lang]
        company = self._company(lang)
        taken = {j.title for j in self.recent if j.company is company}
        title = f"{r.choice(v['levels'])}{r.choice(v['roles'])}"
        for _ in range(10):
            if title not in taken:
                break
            title = f"{r.choice(v['levels'])}{r.choice(v['roles'])}"
        job = _Job(f"job-{self.n_jobs}", lang, company, title, r.choice(v["cities"]), posted=self.day)
        self.n_jobs += 1
        intro = [self._fill(v, t, job) for t in r.sample(v["intro"], r.randint(1, 2))]
        intro += [self._fill(v, t, job) for t in r.sample(v["detail"], 2)]
        resp = [self._fill(v, t, job) for t in r.sample(v["resp"], r.randint(4, min(7, len(v["resp"]))))]
        req = [self._fill(v, t, job) for t in r.sample(v["req"], r.randint(3, min(6, len(v["req"]))))]
        job.sections = [
            ("about", list(company.blurb)), ("intro", intro), ("resp", resp), ("req", req),
            ("ben", list(company.benefits)), ("apply", [self._fill(v, r.choice(v["apply"]), job)]),
        ]
        job.has_eeo = r.random() < 0.6
        return job

    def _render(self, job: _Job, repost: bool) -> dict[str, Any]:
        r, v = self.rng, _VOCAB[job.lang]
        sections = [(k, list(lines)) for k, lines in job.sections]
        company = job.company.name
        city, region, alt = job.city
        location = f"{city}, {region}" if job.lang == "en" else f"{city}{region}"
        has_eeo = job.has_eeo
        phone_fmt = 0
        if repost:
            ops = r.sample(["restructure", "shorten", "extend", "metadata", "eeo", "drop_about"], r.randint(1, 3))
            if "restructure" in ops:  # move sections around, reorder bullets
                head, tail = sections[:1], sections[1:]
                r.shuffle(tail)
                sections = tail + head if r.random() < 0.5 else head + tail
                for _, lines in sections:
                    if len(lines) > 2 and r.random() < 0.5:
                        r.shuffle(lines)
            if "shorten" in ops:
                for _, lines in sections:
                    while len(lines) > 2 and r.random() < 0.35:
                        lines.pop(r.randrange(len(lines)))
            if "extend" in ops:
                sections.append(("extra", r.sample(v["extra"], r.randint(1, min(2, len(v["extra"]))))))
            if "metadata" in ops:
                company = r.choice(job.company.variants)
                location = r.choice([city, f"{city} ({alt})", f"{alt} - {city}", f"{city}/{region}"])
                phone_fmt = 1
            if "eeo" in ops:
                has_eeo = not has_eeo
            if "drop_about" in ops:
                sections = [s for s in sections if s[0] != "about"] or sections
        paras: list[str] = []
        heads = {"about": "h_about", "resp": "h_resp", "req": "h_req", "ben": "h_ben"}
        bullet = r.choice(["- ", "* ", "• "]) if job.lang == "en" else r.choice(["- ", "・", ""])
        for key, lines in sections:
            if key in heads:
                paras.append(r.choice(v[heads[key]]) + (":" if job.lang == "en" else "："))
                paras.append("\n".join(bullet + ln for ln in lines) if key in ("resp", "req", "ben") else " ".join(lines))
            else:
                paras.append(" ".join(lines) if job.lang == "en" else "".join(lines))
        if has_eeo:
            paras.append(job.company.eeo)
        text = "\n\n".join(paras)
        if phone_fmt:
            text = text.replace(job.company.phone, job.company.phone.replace(" ", "-"))
        return {"title": job.title, "company": company, "location": location, "description": text, "lang": job.lang}

    def _agency_copy(self, body: dict[str, Any]) -> dict[str, Any]:
        """A recruitment agency's copy of a rendered posting: HTML text, the agency as company, the
        employer in the first line and the agency's footer (its own contact)."""
        agency = self.rng.choice(_AGENCIES)
        paras = []
        for para in body["description"].split("\n\n"):
            lines = para.split("\n")
            if all(ln[:2] in ("- ", "* ", "• ") for ln in lines):
                paras.append("<ul>" + "".join(f"<li>{ln[2:]}</li>" for ln in lines) + "</ul>")
            else:
                paras.append(f"<p>{'<br>'.join(lines)}</p>")
        slug = "".join(ch for ch in agency.lower() if ch.isalnum())
        head = f"<p><strong>{body['company']}</strong> | {body['location']} | {body['title']}</p>"
        foot = f"<p><em>Posted by {agency} on behalf of our client. Apply via jobs@{slug}.example.com.</em></p>"
        return {**body, "company": agency, "description": head + "".join(paras) + foot}

    # -- the stream ------------------------------------------------------------------------------
    def postings(self, n: int) -> Iterator[dict[str, Any]]:
        """Yield n postings (lines); reposts follow their job within a few hundred postings."""
        r = self.rng
        emitted = 0
        serial = 0
        recent_posts: list[dict[str, Any]] = []
        while emitted < n:
            if emitted % 3000 == 2999:
                self.day += _dt.timedelta(days=1)
            if recent_posts and r.random() < self.resight_rate:
                # crawl log: the same posting (same id, same content) seen again on a later day
                old = dict(r.choice(recent_posts))
                old["last_seen"] = (self.day + _dt.timedelta(days=r.randint(0, 3))).isoformat()
                old["first_seen"] = old["last_seen"]
                yield old
                emitted += 1
                continue
            if self.recent and r.random() < self.dup_rate:
                job = r.choice(self.recent)
                repost = True
            else:
                job = self._new_job()
                self.recent.append(job)
                if len(self.recent) > 400:
                    self.recent.pop(0)
                repost = False
            body = self._render(job, repost)
            if repost and self.agency_rate and r.random() < self.agency_rate:
                body = self._agency_copy(body)
            job.n_posts += 1
            board = r.choice(_BOARDS) if repost else f"careers.{job.company.domain}"
            serial += 1
            posting = {
                "id": f"p{serial:08d}",
                **body,
                "url": f"https://{board}/jobs/{serial}?utm_source=feed" if repost else f"https://{board}/{job.key}",
                "posted_at": self.day.isoformat(),
                "first_seen": self.day.isoformat(),
                "last_seen": self.day.isoformat(),
                "source": board,
                "synthetic_job": job.key,
            }
            recent_posts.append(posting)
            if len(recent_posts) > 200:
                recent_posts.pop(0)
            yield posting
            emitted += 1


def generate(n: int, lang: str = "en", dup_rate: float = 0.6, seed: int = 0,
             resight_rate: float = 0.05, agency_rate: float = 0.0) -> Iterator[dict[str, Any]]:
    """Convenience: a stream of n synthetic postings."""
    return Generator(lang=lang, dup_rate=dup_rate, seed=seed, resight_rate=resight_rate,
                     agency_rate=agency_rate).postings(n)
