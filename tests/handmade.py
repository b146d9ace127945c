"""Hand-written posting pairs for the error classes of issue 9, in English, Chinese and Japanese.

Every pair is labeled by the labeling guide (would a job seeker think both are the same offer?): `merge`
for FULL / SEMANTIC / TEMPORAL, apart for PARTIAL / NON. Texts are written for these tests (fictional
employers and sites); surface details (names, cities, roles, lengths, HTML vs plain, HN header vs fields)
vary so a case tests its class, not one string. `cases()` lists them; tests/test_handmade_cases.py checks
them through the verifier, a whole `jobdedup dedup` run and profile_sig.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Error classes of issue 9 (what each case family probes).
CLASSES = (
    "non_ad",          # texts that are not job ads: apart unless identical
    "other_role",      # same employer, same blurb, another single role (nurse vs care worker, iOS vs Android)
    "template",        # one template under two employers with their own sites: apart; same employer: merge
    "blurb_roles",     # a blurb that mentions ML / infra / design is no role added
    "employer_name",   # "Acme (YC F24)" / "Acme, Inc." / the name only in the text / 株式会社 / 有限公司
    "other_city",      # the same ad for another city: apart; the same city written differently: merge
    "multi_role",      # one role added/dropped among 3+: merge; one of two, or half changed: apart
    "metadata",        # company field dropped, site category in the title, platform footer: merge, same profile_sig
)


@dataclass(frozen=True)
class Case:
    """Two postings and what the guide says about them."""

    id: str
    cls: str
    lang: str
    a: dict[str, Any]
    b: dict[str, Any]
    merge: bool
    label: str  # FULL / SEMANTIC / TEMPORAL / PARTIAL / NON
    same_profile: bool | None = None  # profile_sig equality expected (None: not checked)
    note: str = ""
    tags: tuple[str, ...] = field(default=())


# ----------------------------------------------------------------------------- English

@dataclass(frozen=True)
class Co:
    """A fictional employer: name variants, own site, city, what it makes."""

    name: str
    site: str
    city: str
    product: str
    size: str


_EN_NAMES = ("Lanternfish Labs, Kiteline Robotics, Mossbank Software, Halyard Pay, Quarry Street Games, Fieldnote "
             "Analytics, Tidepool Freight, Juniper Ledger, Saltmarsh Bio, Orrery Maps, Bellwether Learning, Gannet "
             "Security, Wrenfield Insurance, Pebblebrook Energy, Stonecrop Dental, Marigold Kitchens, Thistle Legal, "
             "Ashgrove Studio, Cobalt Finch, Driftwood Travel, Emberline Audio, Foxglove Retail, Greyhound Tax, "
             "Heron Clinics, Inkwell Press, Jetty Ferries, Kelp Farms, Lodestar Fleet, Meadowlark HR, Nettle Foods, "
             "Oriel Glass, Puffin Parcel, Quill Contracts, Rookery Homes, Sorrel Pets, Tamarack Bank").split(", ")
_EN_PRODUCTS = (
    "inventory forecasting for independent bookstores; autonomous carts for hospital supply rooms; rota planning for "
    "veterinary practices; payroll for seasonal farm workers; cozy multiplayer farming games; soil carbon "
    "measurement from satellite images; booking software for river barges; bookkeeping for dental clinics; lab "
    "automation for seaweed breeding; offline trail maps for search and rescue teams; tutoring software for rural "
    "high schools; door access control for coworking spaces; flood insurance for small landlords; battery storage "
    "for apartment blocks; scheduling for orthodontists; ordering software for ghost kitchens; contract review for "
    "tenant unions; brand design for museums; fraud checks for used car marketplaces; group travel for school trips; "
    "podcast editing tools; point of sale for garden centers; tax filing for freelance musicians; telehealth for "
    "rural clinics; publishing tools for academic presses; ticketing for island ferries; logistics for oyster "
    "farms; route planning for delivery vans; onboarding for restaurant staff; traceability for organic grocers; "
    "quotes for window installers; parcel lockers for apartment buildings; e-signatures for building permits; "
    "listings for shared housing; pet insurance claims; loans for credit unions").split("; ")
_EN_CITIES = ["Denver, CO", "Austin, TX", "Leeds, UK", "New York, NY", "Montreal, Canada", "Berlin, Germany",
              "Rotterdam, Netherlands", "Chicago, IL", "Boston, MA", "Portland, OR", "Toronto, Canada", "Seattle, WA",
              "Dublin, Ireland", "Atlanta, GA", "Lisbon, Portugal", "Minneapolis, MN", "Edinburgh, UK", "Raleigh, NC"]
_EN_CARE = {0: Co("Copperleaf Care", "copperleafcare.com", "Columbus, OH", "assisted living homes across central Ohio", "300"),
            31: Co("Riverbend Senior Living", "riverbendliving.com", "Tucson, AZ", "memory care homes in southern Arizona",
                   "180")}


def _en_co(i: int) -> Co:
    if i in _EN_CARE:
        return _EN_CARE[i]
    name = _EN_NAMES[i]
    site = name.split()[0].lower() + ("labs" if i % 3 == 0 else "") + (".io", ".com", ".dev", ".co")[i % 4]
    return Co(name, site, _EN_CITIES[i % len(_EN_CITIES)], _EN_PRODUCTS[i], str(12 + 7 * i))


EN_COS = [_en_co(i) for i in range(len(_EN_NAMES))]

EN_ROLES: dict[str, tuple[list[str], list[str]]] = {
    # role: (lines, the same lines reworded for a repost)
    "Backend Engineer": (
        ["You will design the APIs behind {product} and keep them fast when our customers' traffic spikes.",
         "You will own our PostgreSQL schema, the background job system and the deploy pipeline.",
         "We are looking for four or more years of backend work in Python, Go or Java."],
        ["You'll build and run the APIs that power {product}, and keep them quick under peak load.",
         "Our Postgres schema, job queue and deploys will be yours to own.",
         "You have 4+ years building backend services (Python, Go or Java)."]),
    "Frontend Engineer": (
        ["You will build the web app our customers use every day to manage {product}.",
         "You will own our React and TypeScript codebase and the components of our design system.",
         "We are looking for three or more years of frontend work and care for accessible interfaces."],
        ["You'll ship the web app customers open every morning to run {product}.",
         "The React / TypeScript code and our component library are yours.",
         "You have 3+ years of frontend experience and you care about accessibility."]),
    "iOS Engineer": (
        ["You will build our iPhone app for {product} in Swift and SwiftUI.",
         "You will ship offline sync, push notifications and home screen widgets.",
         "We are looking for three or more years of shipping iOS apps to the App Store."],
        ["You'll write our iPhone app for {product} with Swift / SwiftUI.",
         "Offline sync, push notifications and widgets are on the roadmap for you.",
         "You've shipped iOS apps to the App Store for 3+ years."]),
    "Android Engineer": (
        ["You will build our Android app for {product} in Kotlin and Jetpack Compose.",
         "You will ship offline sync, push notifications and home screen widgets.",
         "We are looking for three or more years of shipping Android apps to Google Play."],
        ["You'll write our Android app for {product} with Kotlin / Compose.",
         "Offline sync, push notifications and widgets are on the roadmap for you.",
         "You've shipped Android apps on Google Play for 3+ years."]),
    "Data Scientist": (
        ["You will build the models that forecast demand for {product}.",
         "You will run experiments, explain results to customers and put models into production.",
         "We are looking for strong statistics, Python and SQL, and two years in industry."],
        ["You'll own the demand forecasts behind {product}.",
         "Experiments, customer-facing analysis and shipping models to production are your job.",
         "Strong stats, Python and SQL; 2+ years outside academia."]),
    "Product Designer": (
        ["You will design the flows our customers use to manage {product}, from research to prototypes.",
         "You will run interviews with users and turn what you learn into clear screens in Figma.",
         "We are looking for a portfolio of shipped B2B work."],
        ["You'll take our flows for {product} from user research to polished prototypes.",
         "Interviews, synthesis and Figma screens are all part of the job.",
         "Show us a portfolio of B2B products you shipped."]),
    "Account Executive": (
        ["You will sell {product} to mid-sized customers across North America.",
         "You will run the whole cycle from first call to signed contract and hand over to onboarding.",
         "We are looking for two years of closing SaaS deals and a record against quota."],
        ["You'll close new mid-market customers for {product} across North America.",
         "You own deals end to end, from discovery to signature and handover.",
         "2+ years closing SaaS and a track record against quota."]),
    "DevOps Engineer": (
        ["You will run the Kubernetes clusters and Terraform code behind {product}.",
         "You will own monitoring, incident response and our cloud bill.",
         "We are looking for three years of operating production systems on AWS."],
        ["You'll run our Kubernetes clusters and Terraform for {product}.",
         "Monitoring, on-call and keeping the AWS bill sane are yours.",
         "3+ years operating production on AWS."]),
    "Registered Nurse": (
        ["You will assess residents, give medications and keep care plans up to date.",
         "You will lead the shift team and talk with families and physicians.",
         "A current RN license and two years of clinical experience are required."],
        ["You'll assess our residents, manage medications and update their care plans.",
         "You lead the shift and are the main contact for families and doctors.",
         "Active RN license plus 2 years of clinical practice."]),
    "Care Assistant": (
        ["You will help residents with bathing, dressing, meals and getting around the home.",
         "You will keep residents company and report changes in their health to the nurse on shift.",
         "No license is needed: we pay for your first aid and manual handling training."],
        ["You'll support residents with personal care, meals and moving around.",
         "You spend time with residents and tell the shift nurse about any change in their health.",
         "No license needed; first aid and manual handling training is on us."]),
}

PAY = {"Backend Engineer": "$150k-$180k", "Frontend Engineer": "$140k-$170k", "iOS Engineer": "$145k-$175k",
       "Android Engineer": "$145k-$175k", "Data Scientist": "$140k-$165k", "Product Designer": "$130k-$155k",
       "Account Executive": "$90k base, $180k OTE", "DevOps Engineer": "$150k-$175k",
       "Registered Nurse": "$38-$46 an hour", "Care Assistant": "$18-$22 an hour"}


def _pick(lines: list[str], alt: list[str], v: int) -> list[str]:
    """A role's lines: as first written (v=0), the first one reworded (v=1: a partial rewrite, the usual
    repost), or all reworded (v=2)."""
    return lines if v == 0 else alt if v == 2 else [alt[0], *lines[1:]]


def _blurb(co: Co, v: int = 0) -> str:
    if v == 0:
        return f"{co.name} builds {co.product}. We are a team of {co.size}, profitable, and we ship every week."
    return f"At {co.name} we make {co.product}. {co.size} of us, profitable since last spring, shipping weekly."


def _en_body(co: Co, roles: list[str], v: int = 0, pay: bool = True) -> list[str]:
    out = []
    for r in roles:
        lines = [s.format(product=co.product) for s in _pick(*EN_ROLES[r], v)]
        if len(roles) > 1:
            out.append(f"{r}: " + " ".join(lines))
        else:
            out.extend(lines)
        if pay:
            out.append(f"Pay: {PAY[r]}" + (" plus equity." if v == 0 else ", equity included, and a yearly bonus."))
    return out


def en_hn(pid: str, co: Co, roles: list[str], date: str, *, name: str | None = None, place: str | None = None,
          mode: str = "Onsite", v: int = 0, blurb: str | None = None, html: bool = True, apply: bool = True,
          extra: list[str] | None = None) -> dict[str, Any]:
    """An HN "Who is hiring" comment: `Company | Place | Mode | Roles` header, then paragraphs."""
    header = " | ".join([name if name is not None else co.name, place or co.city, mode, ", ".join(roles)])
    paras = [blurb if blurb is not None else _blurb(co, v), *_en_body(co, roles, v), *(extra or [])]
    if apply:
        paras.append(f"Apply at https://{co.site}/careers or write to jobs@{co.site}")
    sep = "<p>" if html else "\n\n"
    return {"id": pid, "description": sep.join([header, *paras]), "posted_at": f"{date}T15:00:00Z",
            "source": "hn"}


def en_fields(pid: str, co: Co, role: str, date: str, *, company: str | None = None, title: str | None = None,
              location: str | None = None, v: int = 0, footer: str = "", html: bool = False) -> dict[str, Any]:
    """A job-board posting with title / company / location fields."""
    paras = [_blurb(co, v), f"We are hiring a {role}.", *_en_body(co, [role], v),
             f"Apply at https://{co.site}/jobs or write to hiring@{co.site}"]
    if footer:
        paras.append(footer)
    desc = "".join(f"<p>{p}</p>" for p in paras) if html else "\n\n".join(paras)
    return {"id": pid, "title": title or role, "company": co.name if company is None else company,
            "location": location or co.city, "description": desc, "posted_at": f"{date}T09:00:00Z",
            "source": "board"}


def _en_cases() -> list[Case]:
    c = EN_COS
    out: list[Case] = []
    add = out.append
    # non_ad: thread comments, not job ads
    comments = [
        ("Is the Denver role open to people on a TN visa? The post doesn't say.",
         "Does anyone know if these companies reply to applicants at all? I applied to five last month."),
        ("Applied last month and never heard back, is this still active?",
         "Great to see more climate companies hiring here. Good luck everyone!"),
        ("Can you share the salary band for the Berlin office?",
         "Is remote within the EU okay, or only Germany?"),
    ]
    for i, (x, y) in enumerate(comments):
        a = {"id": f"en-nonad{i}-a", "description": x, "posted_at": "2026-02-03T10:00:00Z", "source": "hn"}
        b = {"id": f"en-nonad{i}-b", "description": y, "posted_at": "2026-02-03T11:30:00Z", "source": "hn"}
        add(Case(f"en-nonad{i}", "non_ad", "en", a, b, False, "NON"))
    similar = [("Is this role still open? I applied in March and never heard back.",
                "Is this role still open? I applied last week and never heard back."),
               ("Are you open to remote candidates from Europe for the backend role?",
                "Are you open to remote candidates from Canada for the backend role?")]
    for i, (x, y) in enumerate(similar):
        a = {"id": f"en-nonad-sim{i}-a", "description": x, "posted_at": "2026-02-03T10:00:00Z", "source": "hn"}
        b = {"id": f"en-nonad-sim{i}-b", "description": y, "posted_at": "2026-02-04T09:00:00Z", "source": "hn"}
        add(Case(f"en-nonad-sim{i}", "non_ad", "en", a, b, False, "NON", note="two similar comments"))
    a = {"id": "en-nonad-copy-a", "description": comments[0][1], "posted_at": "2026-02-03T10:00:00Z", "source": "hn"}
    b = {**a, "id": "en-nonad-copy-b", "posted_at": "2026-02-04T10:00:00Z"}
    add(Case("en-nonad-copy", "non_ad", "en", a, b, True, "FULL", note="identical copy"))

    # other_role: same employer and blurb, another single role
    care = c[0]
    add(Case("en-role-nurse", "other_role", "en",
             en_fields("en-role-nurse-a", care, "Registered Nurse", "2026-01-12"),
             en_fields("en-role-nurse-b", care, "Care Assistant", "2026-01-14"), False, "PARTIAL"))
    add(Case("en-role-mobile", "other_role", "en",
             en_hn("en-role-mobile-a", c[1], ["iOS Engineer"], "2026-02-02", mode="Remote (US)"),
             en_hn("en-role-mobile-b", c[1], ["Android Engineer"], "2026-02-02", mode="Remote (US)"),
             False, "PARTIAL"))
    add(Case("en-role-fe", "other_role", "en",
             en_hn("en-role-fe-a", c[2], ["Backend Engineer"], "2026-01-05", html=False),
             en_hn("en-role-fe-b", c[2], ["Frontend Engineer"], "2026-01-05", html=False), False, "PARTIAL"))
    add(Case("en-role-repost", "other_role", "en",
             en_fields("en-role-repost-a", c[3], "Data Scientist", "2026-01-05", html=True),
             en_fields("en-role-repost-b", c[3], "Data Scientist", "2026-02-09", v=1), True, "TEMPORAL",
             note="control: the same role reposted, reworded"))

    # template: one template text under two employers
    tmpl = ["We are hiring a Senior Backend Engineer to join our platform team.",
            "You will build the APIs behind our customer dashboard and own their reliability.",
            "Requirements: five years of backend experience, Go or Python, PostgreSQL, message queues.",
            "Benefits: competitive salary, equity, 30 days of paid leave, remote-friendly."]

    def tpost(pid: str, co: Co, date: str, company: str | None = None, header: bool = False) -> dict[str, Any]:
        paras = [*tmpl, f"Apply at https://{co.site} or jobs@{co.site}"]
        if header:
            return {"id": pid, "description": "<p>".join([f"{co.name} | {co.city} | Remote | Senior Backend Engineer",
                                                           *paras]), "posted_at": f"{date}T12:00:00Z"}
        return {"id": pid, "title": "Senior Backend Engineer", "company": co.name if company is None else company,
                "location": co.city, "description": "\n\n".join(paras), "posted_at": f"{date}T09:00:00Z"}

    add(Case("en-tmpl-fields", "template", "en", tpost("en-tmpl-fields-a", c[4], "2026-01-05"),
             tpost("en-tmpl-fields-b", c[5], "2026-01-09"), False, "NON"))
    add(Case("en-tmpl-hn", "template", "en", tpost("en-tmpl-hn-a", c[6], "2026-02-02", header=True),
             tpost("en-tmpl-hn-b", c[7], "2026-02-03", header=True), False, "NON"))
    tm = dict(tpost("en-tmpl-samecity-b", c[8], "2026-03-01"), location=c[10].city)
    add(Case("en-tmpl-samecity", "template", "en", tpost("en-tmpl-samecity-a", c[10], "2026-03-01"), tm,
             False, "NON", note="two employers, same template, same city"))
    franchise = "\n\n".join(tmpl + ["Send your CV through the apply button on this page."])
    add(Case("en-tmpl-nosite", "template", "en",
             {"id": "en-tmpl-nosite-a", "title": "Senior Backend Engineer", "company": "Northgate Fintech",
              "location": "Berlin, Germany", "description": franchise, "posted_at": "2026-01-05T09:00:00Z"},
             {"id": "en-tmpl-nosite-b", "title": "Senior Backend Engineer", "company": "Ironbridge Health",
              "location": "Berlin, Germany", "description": franchise, "posted_at": "2026-01-06T09:00:00Z"},
             False, "NON", note="one template text word for word under two employers (company fields only)"))
    add(Case("en-tmpl-same", "template", "en", tpost("en-tmpl-same-a", c[11], "2026-01-05"),
             tpost("en-tmpl-same-b", c[11], "2026-02-05", company=c[11].name + " B.V."), True, "TEMPORAL",
             note="control: one employer reposts its template"))

    # blurb_roles: a blurb naming ML / infra / lead / design adds no role
    def blurb_ml(co: Co) -> str:
        return (f"{co.name} builds {co.product}. Our ML team and infra lead just shipped a design system "
                "and a machine learning platform for fraud detection.")
    add(Case("en-blurb-ml", "blurb_roles", "en",
             en_hn("en-blurb-ml-a", c[13], ["Frontend Engineer"], "2026-01-05"),
             en_hn("en-blurb-ml-b", c[13], ["Frontend Engineer"], "2026-02-03", blurb=blurb_ml(c[13]), v=1), True, "TEMPORAL"))
    def blurb_data(co: Co) -> str:
        return (f"{co.name} makes {co.product}. Founded by a data scientist and a former head of design, "
                "we work closely with research leads at three universities.")
    add(Case("en-blurb-data", "blurb_roles", "en",
             en_fields("en-blurb-data-a", c[15], "Backend Engineer", "2026-01-07"),
             dict(en_fields("en-blurb-data-b", c[15], "Backend Engineer", "2026-02-06", v=1),
                  description=blurb_data(c[15]) + "\n\n" + "\n\n".join(_en_body(c[15], ["Backend Engineer"], 1))),
             True, "TEMPORAL"))
    add(Case("en-blurb-other", "blurb_roles", "en",
             en_hn("en-blurb-other-a", c[16], ["Frontend Engineer"], "2026-03-02", blurb=blurb_ml(c[16])),
             en_hn("en-blurb-other-b", c[16], ["Data Scientist"], "2026-03-02", blurb=blurb_ml(c[16])), False, "PARTIAL",
             note="another role behind the same blurb"))
    add(Case("en-blurb-other2", "blurb_roles", "en",
             en_fields("en-blurb-other2-a", c[17], "DevOps Engineer", "2026-01-20", html=True),
             en_fields("en-blurb-other2-b", c[17], "Account Executive", "2026-01-21", html=True), False, "PARTIAL"))

    hv = Co("Harrowgate Systems", "harrowgate.io", "Madison, WI", "clinical trial scheduling", "70")
    long_blurb = [
        "Harrowgate Systems builds clinical trial scheduling software used by 300 research sites in 14 countries.",
        "We started in 2019 when our founders, a trial coordinator and a compiler engineer, got tired of "
        "spreadsheets that decide when patients get their next dose.",
        "We are 70 people, default alive, and we answer every support ticket within an hour.",
        "We work four days a week in summer, meet in person twice a year and publish our salary bands internally.",
        "Our stack is Elixir, Postgres and TypeScript, deployed on Fly.io; we run no on-call rotation at night.",
    ]

    def heavy(pid: str, role: str, line: str) -> dict[str, Any]:
        return {"id": pid, "posted_at": "2026-02-02T16:00:00Z", "source": "hn", "description": "<p>".join(
            [f"{hv.name} | {role} | Madison, WI or Remote (US)", *long_blurb, line,
             f"Apply: https://{hv.site}/jobs/{role.lower().replace(' ', '-')}"])}

    add(Case("en-blurb-heavy", "blurb_roles", "en",
             heavy("en-blurb-heavy-a", "Senior Backend Engineer",
                   "The role: own the scheduling engine and its API, $170k-$200k."),
             heavy("en-blurb-heavy-b", "Customer Success Manager",
                   "The role: onboard new research sites and run their training, $95k-$115k."),
             False, "PARTIAL", note="another role behind a long shared blurb"))

    # employer_name: name variants of one employer, text partly rewritten
    add(Case("en-emp-yc", "employer_name", "en",
             en_hn("en-emp-yc-a", c[18], ["Backend Engineer"], "2026-01-05", name=f"{c[18].name} (YC F24)"),
             en_hn("en-emp-yc-b", c[18], ["Backend Engineer"], "2026-02-02", v=1, apply=False), True, "TEMPORAL"))
    add(Case("en-emp-inc", "employer_name", "en",
             en_fields("en-emp-inc-a", c[19], "Product Designer", "2026-01-05", company=f"{c[19].name}, Inc."),
             en_fields("en-emp-inc-b", c[19], "Product Designer", "2026-01-19", company=c[19].name, v=1),
             True, "SEMANTIC"))
    add(Case("en-emp-text", "employer_name", "en",
             en_fields("en-emp-text-a", c[20], "DevOps Engineer", "2026-01-05", company=""),
             en_fields("en-emp-text-b", c[20], "DevOps Engineer", "2026-02-11", company=f"{c[20].name} Inc", v=1),
             True, "TEMPORAL", note="company named in the text only"))
    add(Case("en-emp-ltd", "employer_name", "en",
             en_hn("en-emp-ltd-a", c[21], ["Frontend Engineer"], "2026-01-05", name=f"{c[21].name} Ltd",
                   html=False),
             en_hn("en-emp-ltd-b", c[21], ["Frontend Engineer"], "2026-03-02", name=c[21].name.split()[0].upper(), v=1), True, "TEMPORAL"))
    add(Case("en-emp-diff", "employer_name", "en",
             en_fields("en-emp-diff-a", c[22], "Backend Engineer", "2026-01-05"),
             dict(en_fields("en-emp-diff-b", c[22], "Backend Engineer", "2026-01-06"), company=c[22].name.split()[0] + " Ventures",
                  description=en_fields("x", c[22], "Backend Engineer", "2026-01-06")["description"]
                  .replace(c[22].site, c[22].name.split()[0].lower() + "ventures.com")
                  .replace(c[22].name, c[22].name.split()[0] + " Ventures")
                  .replace(c[22].product, "fleet telematics for school buses")),
             False, "NON", note="two employers sharing a word and a template"))

    # other_city: the same requisition for another city
    add(Case("en-city-hn", "other_city", "en",
             en_hn("en-city-hn-a", c[23], ["Backend Engineer"], "2026-01-05", place="Montreal, QC"),
             en_hn("en-city-hn-b", c[23], ["Backend Engineer"], "2026-01-05", place="Vancouver, BC"), False, "PARTIAL"))
    add(Case("en-city-fields", "other_city", "en",
             en_fields("en-city-fields-a", c[24], "Account Executive", "2026-01-05", location="Chicago, IL"),
             en_fields("en-city-fields-b", c[24], "Account Executive", "2026-01-05", location="Dallas, TX"),
             False, "PARTIAL", note="location field only"))
    add(Case("en-city-same", "other_city", "en",
             en_hn("en-city-same-a", c[25], ["Data Scientist"], "2026-01-05", place="Berlin, Germany"),
             en_hn("en-city-same-b", c[25], ["Data Scientist"], "2026-02-05", place="Berlin (DE)", v=1),
             True, "TEMPORAL", note="same city written differently"))
    add(Case("en-city-same-fields", "other_city", "en",
             en_fields("en-city-same-fields-a", c[26], "Frontend Engineer", "2026-01-05", location="Toronto, ON"),
             en_fields("en-city-same-fields-b", c[26], "Frontend Engineer", "2026-01-05",
                       location="Toronto, Ontario, Canada"), True, "FULL"))

    def skerry(pid: str, date: str, team: int) -> dict[str, Any]:
        return {"id": pid, "posted_at": f"{date}T15:00:00Z", "source": "hn", "description": "<p>".join([
            "Skerry Cloud | Senior DevOps Engineer, Support Engineer | REMOTE (US)",
            f"Skerry Cloud backs up the documents of small law firms. We are {team} people and profitable.",
            "Senior DevOps Engineer: run our storage clusters on bare metal, Terraform and Ansible; $165k-$190k.",
            "Support Engineer: answer customers by phone and e-mail and fix their restores; $85k-$100k.",
            "Apply: https://skerry.cloud/jobs"])}

    a, b = skerry("en-city-header-a", "2026-01-05", 19), skerry("en-city-header-b", "2026-02-04", 23)
    add(Case("en-city-header", "other_city", "en", a, b, True, "TEMPORAL",
             note="the same header reposted: no place changed ('DevOps' is no place)"))

    gc = Co("Gullwing Dental", "gullwingdental.com", "Phoenix, AZ", "scheduling for dental offices", "35")

    def body_city(pid: str, city: str) -> dict[str, Any]:
        p = en_fields(pid, gc, "Account Executive", "2026-01-05")
        return {"id": pid, "title": "Account Executive", "company": gc.name, "posted_at": p["posted_at"],
                "description": p["description"] + f"\n\nLocation: {city} (in office four days a week)"}

    add(Case("en-city-body", "other_city", "en", body_city("en-city-body-a", "Phoenix, AZ"),
             body_city("en-city-body-b", "Salt Lake City, UT"), False, "PARTIAL",
             note="the city only in a 'Location:' line of the text"))

    # multi_role
    three = ["Backend Engineer", "Frontend Engineer", "Data Scientist"]
    add(Case("en-multi-add", "multi_role", "en",
             en_hn("en-multi-add-a", c[27], three, "2026-01-05"),
             en_hn("en-multi-add-b", c[27], [*three, "Product Designer"], "2026-02-02"), True, "TEMPORAL"))
    four = ["Backend Engineer", "iOS Engineer", "Product Designer", "Account Executive"]
    add(Case("en-multi-drop", "multi_role", "en",
             en_hn("en-multi-drop-a", c[28], four, "2026-01-05", html=False),
             en_hn("en-multi-drop-b", c[28], four[:3], "2026-02-02", html=False, v=1), True, "TEMPORAL"))
    add(Case("en-multi-half", "multi_role", "en",
             en_hn("en-multi-half-a", c[29], ["Backend Engineer", "DevOps Engineer", "Data Scientist",
                                              "Frontend Engineer"], "2026-01-05"),
             en_hn("en-multi-half-b", c[29], ["Backend Engineer", "DevOps Engineer", "Account Executive",
                                              "Product Designer"], "2026-02-02"), False, "PARTIAL"))
    add(Case("en-multi-two", "multi_role", "en",
             en_hn("en-multi-two-a", c[30], ["Backend Engineer", "Data Scientist"], "2026-01-05", mode="Remote (US)"),
             en_hn("en-multi-two-b", c[30], ["Backend Engineer"], "2026-02-02", mode="Remote (US)"), False, "PARTIAL",
             note="one of two roles dropped"))

    # metadata: company field, site category in the title, platform footer
    add(Case("en-meta-company", "metadata", "en",
             en_fields("en-meta-company-a", c[31], "Registered Nurse", "2026-01-05"),
             en_fields("en-meta-company-b", c[31], "Registered Nurse", "2026-01-05", company=""), True, "FULL",
             same_profile=True))
    add(Case("en-meta-category", "metadata", "en",
             en_fields("en-meta-category-a", c[32], "Backend Engineer", "2026-01-05"),
             en_fields("en-meta-category-b", c[32], "Backend Engineer", "2026-01-06",
                       title="Backend Engineer - Software Development"), True, "FULL"))
    add(Case("en-meta-footer", "metadata", "en",
             en_fields("en-meta-footer-a", c[33], "Account Executive", "2026-01-05", html=True),
             en_fields("en-meta-footer-b", c[33], "Account Executive", "2026-01-06", html=True,
                       footer="Found on Jobbly, the job board for startups. Apply with one click: jobbly.example/a/88213"),
             True, "FULL"))

    # smaller updates: the class alone, the text mostly kept (pay or one note changed)
    wr = Co("Gorsemoor Robotics", "gorsemoor.ai", "Pittsburgh, PA", "weeding robots for organic farms", "45")
    a = en_hn("en-emp-yc-small-a", wr, ["Backend Engineer"], "2026-01-05", name="Gorsemoor Robotics (YC W25)",
              extra=["Benefits: health, dental, 401k match, and a farm visit every quarter."])
    b = dict(a, id="en-emp-yc-small-b", posted_at="2026-02-03T15:00:00Z",
             description=a["description"].replace("Gorsemoor Robotics (YC W25)", "Gorsemoor Robotics")
             .replace("$150k-$180k", "$160k-$190k"))
    add(Case("en-emp-yc-small", "employer_name", "en", a, b, True, "TEMPORAL", note="batch tag dropped, pay raised"))
    ps = Co("Pinestraw Health", "pinestraw.health", "Nashville, TN", "prior authorization for physical therapists", "30")
    a = en_fields("en-emp-inc-small-a", ps, "Data Scientist", "2026-01-05", company="Pinestraw Health, Inc.")
    b = dict(en_fields("en-emp-inc-small-b", ps, "Data Scientist", "2026-02-02", company="Pinestraw Health"),
             description=a["description"].replace("$140k-$165k", "$145k-$170k"))
    add(Case("en-emp-inc-small", "employer_name", "en", a, b, True, "TEMPORAL", note="legal form dropped, pay raised"))
    ws = Co("Westerly Ledger", "westerly.finance", "Charlotte, NC", "cash forecasting for credit unions", "26")
    a = dict(en_fields("en-emp-field-small-a", ws, "Frontend Engineer", "2026-01-05", company=""),
             source="aggregator")
    b = en_fields("en-emp-field-small-b", ws, "Frontend Engineer", "2026-01-06", company="Westerly Ledger LLC")
    add(Case("en-emp-field-small", "employer_name", "en", a, b, True, "FULL",
             note="company only in the text on one site, in the field on the other"))

    # multi-role lists: `We're hiring: a, b, c` with one job link per role
    bk = Co("Brackenridge Energy", "brackenridge.energy", "Houston, TX", "demand response for cold storage", "55")

    def listing(pid: str, roles: list[str], date: str) -> dict[str, Any]:
        slugs = {r: r.lower().replace(" ", "-") for r in roles}
        body = [f"{bk.name} builds {bk.product}. Series A, {bk.size} people, offices in Houston and Calgary.",
                "We're hiring: " + ", ".join(roles) + ".",
                *(f"{r}: https://jobs.lever.co/brackenridge/{slugs[r]}" for r in roles),
                "Everyone gets equity, full health cover and a four-day week in August."]
        return {"id": pid, "description": "<p>".join([f"{bk.name} | Houston, TX | Hybrid", *body]),
                "posted_at": f"{date}T14:00:00Z", "source": "hn"}

    add(Case("en-multi-list-add", "multi_role", "en",
             listing("en-multi-list-add-a", ["Backend Engineer", "Data Scientist", "Account Executive"], "2026-01-05"),
             listing("en-multi-list-add-b", ["Backend Engineer", "Data Scientist", "Account Executive",
                                             "DevOps Engineer"], "2026-02-02"), True, "TEMPORAL"))
    add(Case("en-multi-list-swap", "multi_role", "en",
             listing("en-multi-list-swap-a", ["iOS Engineer", "Product Designer"], "2026-03-02"),
             listing("en-multi-list-swap-b", ["iOS Engineer", "Frontend Engineer"], "2026-04-01"), False, "PARTIAL",
             note="one of two roles replaced"))
    a = {"id": "en-nonad-vs-ad-a", "description": "Anyone hiring remote iOS engineers in Canada? Happy to chat.",
         "posted_at": "2026-02-03T10:00:00Z", "source": "hn"}
    add(Case("en-nonad-vs-ad", "non_ad", "en", a,
             en_hn("en-nonad-vs-ad-b", Co("Larkspur Maps", "larkspur.io", "Vancouver, Canada",
                                          "field maps for forestry crews", "20"), ["iOS Engineer"], "2026-02-03"),
             False, "NON", note="a question against a job ad for the same role"))
    return out


# ----------------------------------------------------------------------------- Chinese

@dataclass(frozen=True)
class ZhCo:
    name: str  # short name
    legal: str  # registered name with legal form
    site: str
    city: str
    product: str


_ZH = [  # short name, registered-name pattern ({} = short name), site, city, what it makes
    ("星河数科", "杭州{}技术有限公司", "xinghe-tech.cn", "杭州", "跨境电商的库存与物流系统"),
    ("青禾医疗", "{}科技(上海)有限公司", "qinghemed.com", "上海", "社区医院的电子病历和预约平台"),
    ("北辰链", "深圳市{}网络科技有限公司", "beichenchain.io", "深圳", "面向中小企业的链上支付结算"),
    ("木棉智造", "广州{}科技股份有限公司", "mumian-ai.com", "广州", "工厂质检的视觉检测设备"),
    ("远岫游戏", "成都{}互动娱乐有限公司", "yuanxiu.games", "成都", "多人在线的休闲农场游戏"),
    ("知更教育", "北京{}科技有限公司", "zhigeng.edu.cn", "北京", "县城中学的在线辅导课程"),
    ("潮汐量化", "上海{}投资管理有限公司", "chaoxiquant.com", "上海", "数字资产的量化交易策略"),
    ("云杉数据", "武汉{}服务有限公司", "yunshandata.cn", "武汉", "农业气象数据分析"),
    ("折光科技", "苏州{}有限公司", "zheguang.tech", "苏州", "门店客流统计的智能摄像头"),
    ("青梧物流", "{}(天津)有限公司", "qingwu56.com", "天津", "冷链运输的调度平台"),
    ("鹿鸣音乐", "{}文化传媒有限公司", "luming.fm", "北京", "独立音乐人的发行工具"),
    ("松果出行", "厦门{}科技有限公司", "songguo.ride", "厦门", "景区的共享电动车"),
    ("海葵生物", "青岛{}生物技术有限公司", "haikui.bio", "青岛", "海洋藻类的育种实验自动化"),
    ("长风能源", "西安{}新能源有限公司", "changfeng-energy.cn", "西安", "工商业屋顶光伏的运维系统"),
    ("竹简法务", "{}(深圳)法律科技有限公司", "zhujian.law", "深圳", "中小企业的合同审查工具"),
    ("飞鱼旅行", "三亚{}旅行社有限公司", "feiyu.travel", "三亚", "海岛自由行的定制服务"),
    ("石榴健康", "{}医疗科技(南京)有限公司", "shiliu.health", "南京", "慢病患者的线上复诊"),
    ("白鹭家居", "佛山{}家居有限公司", "bailu-home.com", "佛山", "定制家具的在线设计"),
    ("萤火安全", "{}网络安全技术有限公司", "yinghuo-sec.com", "北京", "企业邮件的反钓鱼检测"),
    ("稻香农业", "长沙{}科技有限公司", "daoxiang-agri.cn", "长沙", "水稻种植的无人机植保"),
    ("望舒传媒", "{}(重庆)文化有限公司", "wangshu.media", "重庆", "短视频内容的版权管理"),
    ("砚台教育", "{}教育咨询(杭州)有限公司", "yantai-edu.com", "杭州", "成人职业资格考试辅导"),
    ("蓝鲸支付", "{}支付技术有限公司", "lanjingpay.com", "上海", "跨境商户的收款结算"),
    ("铁木工业", "沈阳{}装备有限公司", "tiemu-ind.com", "沈阳", "工业机器人的维保服务"),
    ("柚子社区", "{}(成都)网络科技有限公司", "youzi.social", "成都", "城市兴趣社区应用"),
    ("雪松软件", "大连{}软件有限公司", "xuesong.soft", "大连", "面向日本市场的外包开发"),
    ("山茶美业", "昆明{}美容管理有限公司", "shancha-beauty.cn", "昆明", "连锁美发门店"),
    ("锦鲤游戏", "广州{}网络科技有限公司", "jinli.games", "广州", "二次元卡牌手游"),
    ("明湖养老", "南京{}服务有限公司", "minghu-care.cn", "南京", "社区养老院与居家护理服务"),
    ("春晖护理", "济南{}护理院有限公司", "chunhui-care.cn", "济南", "康复护理院与上门护理"),
]


def _zh_co(i: int) -> ZhCo:
    i = {0: 28, 21: 29, 28: 0, 29: 21}.get(i, i)  # care homes where the cases hire nurses
    name, legal, site, city, what = _ZH[i]
    return ZhCo(name, legal.format(name), site, city, what)


ZH_COS = [_zh_co(i) for i in range(len(_ZH))]

ZH_ROLES: dict[str, tuple[list[str], list[str], str]] = {
    "后端工程师": (
        ["负责{product}的后端服务设计与开发，保证高并发下的稳定性；", "参与数据库表结构设计与性能优化；",
         "三年以上 Go 或 Java 开发经验，熟悉 MySQL、Redis、Kafka；"],
        ["负责{product}后端接口的开发和维护，保障服务在流量高峰期稳定运行；", "参与数据库设计以及慢查询优化；",
         "具备 3 年以上 Go/Java 后端经验，熟练使用 MySQL、Redis 和 Kafka；"], "25-40K"),
    "前端工程师": (
        ["负责{product}的 Web 端页面开发，与设计和后端紧密配合；", "维护 React + TypeScript 组件库，提升页面性能；",
         "三年以上前端开发经验，熟悉工程化与性能优化；"],
        ["负责{product} Web 端的功能开发，和设计、后端同学协作交付；", "维护基于 React/TypeScript 的组件库并持续优化性能；",
         "3 年以上前端经验，了解前端工程化；"], "20-35K"),
    "iOS开发工程师": (
        ["负责{product} iOS 客户端的开发与维护；", "使用 Swift 完成离线同步、消息推送等功能；", "两年以上 iOS 开发经验，有上架 App Store 的作品；"],
        ["负责{product}的 iOS App 开发；", "用 Swift 实现离线同步和推送功能；", "2 年以上 iOS 经验，有已上架应用；"], "20-35K"),
    "Android开发工程师": (
        ["负责{product} Android 客户端的开发与维护；", "使用 Kotlin 完成离线同步、消息推送等功能；",
         "两年以上 Android 开发经验，有上架应用市场的作品；"],
        ["负责{product}的 Android App 开发；", "用 Kotlin 实现离线同步和推送功能；", "2 年以上 Android 经验，有已上架应用；"],
        "20-35K"),
    "产品经理": (
        ["负责{product}的需求调研、产品规划与迭代；", "撰写需求文档，推动研发、设计按时交付；", "三年以上 B 端产品经验，逻辑清晰，善于沟通；"],
        ["主导{product}的用户调研和版本规划；", "输出 PRD 并推动研发、设计落地；", "3 年以上 To B 产品经验，沟通能力强；"], "25-40K"),
    "数据分析师": (
        ["负责{product}的业务数据分析与指标体系搭建；", "通过 SQL 与 Python 完成专题分析，输出可落地的建议；",
         "统计学或数学相关专业，两年以上数据分析经验；"],
        ["搭建{product}的指标体系，完成日常业务分析；", "使用 SQL、Python 做专题分析并给出建议；", "统计、数学相关专业，2 年以上分析经验；"],
        "18-30K"),
    "测试工程师": (
        ["负责{product}的功能测试与自动化测试；", "编写测试用例，跟踪缺陷直至关闭；", "两年以上测试经验，熟悉 Python 或 Java 自动化框架；"],
        ["负责{product}的手工与自动化测试；", "设计测试用例并跟进缺陷修复；", "2 年以上测试经验，会用 Python/Java 写自动化脚本；"], "15-25K"),
    "运维工程师": (
        ["负责{product}线上 Kubernetes 集群的部署与监控；", "处理线上故障，持续优化云资源成本；", "三年以上运维经验，熟悉 Linux、Terraform；"],
        ["负责{product}的 K8s 集群运维和监控告警；", "处理线上事故，优化云成本；", "3 年以上运维经验，熟悉 Linux 和 Terraform；"], "20-35K"),
    "护士": (
        ["负责院内老人的日常健康评估、用药管理与护理记录；", "带领护理班组，与家属和医生保持沟通；", "持有护士执业证书，两年以上临床经验；"],
        ["负责老人的健康评估、给药和护理记录；", "带班并与家属、医生沟通；", "有护士执业证，2 年以上临床经验；"], "8-12K"),
    "护工": (
        ["协助老人洗漱、穿衣、用餐和日常活动；", "陪伴老人，发现身体变化及时报告当班护士；", "无需证书，公司提供免费的急救与护理培训；"],
        ["照顾老人起居，协助洗漱、穿衣和吃饭；", "陪伴老人并把身体异常告诉值班护士；", "不要求证书，入职后公司免费培训；"], "5-7K"),
}


def _zh_blurb(co: ZhCo, v: int = 0) -> str:
    if v == 0:
        return f"{co.name}专注于{co.product}，团队四十余人，已完成 A 轮融资。"
    return f"我们是{co.name}，做{co.product}，目前四十多人，A 轮融资已到位。"


def _zh_role_block(co: ZhCo, role: str, v: int, heading: bool) -> list[str]:
    lines, alt, pay = ZH_ROLES[role]
    body = [s.format(product=co.product) for s in _pick(lines, alt, v)]
    head = [f"#### {role}（{pay}）"] if heading else ["### 岗位职责"]
    tail = [] if heading else [f"### 薪资福利\n{pay}，五险一金，年终奖，弹性工作。"]
    return [*head, *(f"{i}. {s}" for i, s in enumerate(body, 1)), *tail]


def zh_post(pid: str, co: ZhCo, roles: list[str], date: str, *, v: int = 0, title: str | None = None,
            city: str | None = None, blurb: str | None = None, company_line: str | None = None,
            footer: str = "", contact: bool = True, company: str | None = None) -> dict[str, Any]:
    """A Chinese hiring-board post: `【城市】公司招聘岗位` title, markdown body."""
    place = city or co.city
    multi = len(roles) > 1
    parts = ["### 关于我们", blurb if blurb is not None else _zh_blurb(co, v)]
    if company_line:
        parts.append(company_line)
    if multi:
        parts.append("### 招聘岗位")
    for r in roles:
        parts.extend(_zh_role_block(co, r, v, multi))
    parts.append(f"### 工作地点\n{place}")
    if contact:
        parts.append(f"### 联系方式\n简历请发送至 hr@{co.site}，官网 https://{co.site}")
    if footer:
        parts.append(footer)
    t = title if title is not None else f"【{place}】{co.name}招聘{'、'.join(roles)}"
    post = {"id": pid, "title": t, "description": "\n".join(parts), "posted_at": f"{date}T08:00:00Z",
            "source": "rebase"}
    if company is not None:
        post["company"] = company
    return post


def _zh_cases() -> list[Case]:
    c = ZH_COS
    out: list[Case] = []
    add = out.append
    comments = [("请问这个岗位还在招吗？投了简历一直没有回复。", "楼主，远程可以吗？我在成都。"),
                ("顶一下，这家公司面试体验很好。", "请问试用期工资怎么算？"),
                ("已投递，希望有机会。", "这个薪资范围包含年终奖吗？")]
    for i, (x, y) in enumerate(comments):
        add(Case(f"zh-nonad{i}", "non_ad", "zh",
                 {"id": f"zh-nonad{i}-a", "title": "回复", "description": x, "posted_at": "2026-02-03T10:00:00Z"},
                 {"id": f"zh-nonad{i}-b", "title": "回复", "description": y, "posted_at": "2026-02-03T12:00:00Z"},
                 False, "NON"))
    add(Case("zh-nonad-sim", "non_ad", "zh",
             {"id": "zh-nonad-sim-a", "title": "回复", "description": "请问这个岗位还在招吗？我上周投了简历还没有回复。"},
             {"id": "zh-nonad-sim-b", "title": "回复", "description": "请问这个岗位还在招吗？我昨天投了简历还没有回复。"},
             False, "NON", note="two similar comments"))
    add(Case("zh-nonad-copy", "non_ad", "zh",
             {"id": "zh-nonad-copy-a", "title": "回复", "description": comments[1][1], "posted_at": "2026-02-03T10:00:00Z"},
             {"id": "zh-nonad-copy-b", "title": "回复", "description": comments[1][1], "posted_at": "2026-02-05T10:00:00Z"},
             True, "FULL", note="identical copy"))

    add(Case("zh-role-nurse", "other_role", "zh", zh_post("zh-role-nurse-a", c[0], ["护士"], "2026-01-12"),
             zh_post("zh-role-nurse-b", c[0], ["护工"], "2026-01-13"), False, "PARTIAL"))
    add(Case("zh-role-mobile", "other_role", "zh", zh_post("zh-role-mobile-a", c[1], ["iOS开发工程师"], "2026-01-05"),
             zh_post("zh-role-mobile-b", c[1], ["Android开发工程师"], "2026-01-05"), False, "PARTIAL"))
    add(Case("zh-role-fe", "other_role", "zh", zh_post("zh-role-fe-a", c[2], ["后端工程师"], "2026-01-05"),
             zh_post("zh-role-fe-b", c[2], ["前端工程师"], "2026-01-06"), False, "PARTIAL"))
    add(Case("zh-role-repost", "other_role", "zh", zh_post("zh-role-repost-a", c[3], ["数据分析师"], "2026-01-05"),
             zh_post("zh-role-repost-b", c[3], ["数据分析师"], "2026-02-20", v=1), True, "TEMPORAL",
             note="control: same role reposted, reworded"))

    tmpl = ["### 岗位职责", "1. 负责公司核心交易系统的后端开发；", "2. 参与系统架构设计，保障服务高可用；",
            "3. 编写技术文档，参与代码评审；", "### 任职要求", "1. 本科及以上学历，三年以上 Java 开发经验；",
            "2. 熟悉 Spring Boot、MySQL、Redis；", "### 福利", "五险一金，带薪年假，节日福利，免费午餐。"]

    def tpost(pid: str, co: ZhCo, date: str, city: str | None = None) -> dict[str, Any]:
        return {"id": pid, "title": f"【{city or co.city}】Java后端开发工程师", "description": "\n".join(
            [f"{co.legal}诚聘", *tmpl, f"简历投递：hr@{co.site}  公司官网：https://{co.site}"]),
            "posted_at": f"{date}T08:00:00Z"}

    add(Case("zh-tmpl-a", "template", "zh", tpost("zh-tmpl-a-a", c[4], "2026-01-05"),
             tpost("zh-tmpl-a-b", c[5], "2026-01-08", city=c[4].city), False, "NON"))
    add(Case("zh-tmpl-b", "template", "zh", tpost("zh-tmpl-b-a", c[6], "2026-02-01"),
             tpost("zh-tmpl-b-b", c[7], "2026-02-03", city=c[6].city), False, "NON"))
    add(Case("zh-tmpl-same", "template", "zh", tpost("zh-tmpl-same-a", c[8], "2026-01-05"),
             tpost("zh-tmpl-same-b", c[8], "2026-02-25"), True, "TEMPORAL", note="control: one employer"))

    def blurb_ai(co: ZhCo) -> str:
        return (f"{co.name}专注于{co.product}。我们的算法团队和运维负责人刚刚上线了新的机器学习平台，"
                "设计团队也完成了全新的设计规范。")
    add(Case("zh-blurb-ml", "blurb_roles", "zh", zh_post("zh-blurb-ml-a", c[10], ["前端工程师"], "2026-01-05"),
             zh_post("zh-blurb-ml-b", c[10], ["前端工程师"], "2026-02-05", blurb=blurb_ai(c[10]), v=1), True, "TEMPORAL"))
    def blurb_b(co: ZhCo) -> str:
        return f"{co.name}由前大厂产品总监和算法专家创立，专注于{co.product}，与多家高校的研究负责人保持合作。"
    add(Case("zh-blurb-founder", "blurb_roles", "zh", zh_post("zh-blurb-founder-a", c[12], ["测试工程师"], "2026-01-10"),
             zh_post("zh-blurb-founder-b", c[12], ["测试工程师"], "2026-03-01", blurb=blurb_b(c[12])), True, "TEMPORAL"))
    add(Case("zh-blurb-other", "blurb_roles", "zh",
             zh_post("zh-blurb-other-a", c[13], ["产品经理"], "2026-03-02", blurb=blurb_ai(c[13])),
             zh_post("zh-blurb-other-b", c[13], ["运维工程师"], "2026-03-02", blurb=blurb_ai(c[13])), False, "PARTIAL"))
    add(Case("zh-blurb-other2", "blurb_roles", "zh",
             zh_post("zh-blurb-other2-a", c[14], ["后端工程师"], "2026-01-15"),
             zh_post("zh-blurb-other2-b", c[14], ["测试工程师"], "2026-01-15"), False, "PARTIAL"))

    bq = ZhCo("碧泉环境", "杭州碧泉环境科技有限公司", "biquan-env.cn", "杭州", "城市污水处理厂的运维系统")
    zh_blurb = ("碧泉环境成立于2018年，专注于城市污水处理厂的数字化运维，目前服务全国40多座水厂。公司核心团队来自知名环保企业"
                "和互联网公司，已获得两轮融资。我们提倡扁平管理，每周五下午是技术分享时间，每年组织两次团建旅行。")
    add(Case("zh-blurb-heavy", "blurb_roles", "zh",
             zh_post("zh-blurb-heavy-a", bq, ["后端工程师"], "2026-02-02", blurb=zh_blurb),
             zh_post("zh-blurb-heavy-b", bq, ["产品经理"], "2026-02-02", blurb=zh_blurb), False, "PARTIAL",
             note="another role behind a long shared blurb"))

    add(Case("zh-emp-legal", "employer_name", "zh",
             zh_post("zh-emp-legal-a", c[15], ["后端工程师"], "2026-01-05", company=c[15].legal, contact=False),
             zh_post("zh-emp-legal-b", c[15], ["后端工程师"], "2026-02-05", company=c[15].name, v=1, contact=False),
             True, "TEMPORAL"))
    add(Case("zh-emp-text", "employer_name", "zh",
             zh_post("zh-emp-text-a", c[16], ["产品经理"], "2026-01-05", company_line=f"公司全称：{c[16].legal}",
                     contact=False),
             zh_post("zh-emp-text-b", c[16], ["产品经理"], "2026-02-06", company=c[16].name, v=1, contact=False),
             True, "TEMPORAL", note="registered name in the text, short name in the field"))
    add(Case("zh-emp-city", "employer_name", "zh",
             zh_post("zh-emp-city-a", c[17], ["运维工程师"], "2026-01-05", company=c[17].legal),
             zh_post("zh-emp-city-b", c[17], ["运维工程师"], "2026-01-20", company=c[17].legal.replace("有限公司", "").lstrip("深圳市"), v=1),
             True, "SEMANTIC"))
    add(Case("zh-emp-diff", "employer_name", "zh",
             zh_post("zh-emp-diff-a", c[18], ["数据分析师"], "2026-01-05", company=c[18].legal),
             dict(zh_post("zh-emp-diff-b", ZhCo(c[18].name[:2] + "资本", f"上海{c[18].name[:2]}资本管理有限公司", "zibenguanli.com",
                                                  "上海", "一级市场的医疗健康投资"), ["数据分析师"], "2026-01-06"),
                  company=f"上海{c[18].name[:2]}资本管理有限公司"), False, "NON", note="two employers sharing a word"))

    add(Case("zh-city-a", "other_city", "zh", zh_post("zh-city-a-a", c[19], ["测试工程师"], "2026-01-05"),
             zh_post("zh-city-a-b", c[19], ["测试工程师"], "2026-01-05", city="佛山"), False, "PARTIAL"))
    add(Case("zh-city-b", "other_city", "zh", zh_post("zh-city-b-a", c[20], ["产品经理"], "2026-01-05", city="成都"),
             zh_post("zh-city-b-b", c[20], ["产品经理"], "2026-01-06", city="重庆"), False, "PARTIAL"))
    lq = ZhCo("链桥", "链桥网络科技(深圳)有限公司", "lianqiao.io", "深圳", "跨链资产桥的风控系统")
    a = zh_post("zh-city-remote-a", lq, ["运维工程师"], "2026-01-05", city="不限，可远程remote",
                title="[地点不限，可远程] 链桥招聘运维工程师")
    b = zh_post("zh-city-remote-b", lq, ["运维工程师"], "2026-03-02", city="深圳，支持远程", title="[深圳/远程] 链桥招聘运维工程师")
    b["description"] = b["description"].replace("20-35K", "25-40K")
    add(Case("zh-city-remote", "other_city", "zh", a, b, True, "TEMPORAL",
             note="'anywhere, remote' names no place: not moved to 深圳 (remote in both)"))
    add(Case("zh-city-same", "other_city", "zh", zh_post("zh-city-same-a", c[21], ["护士"], "2026-01-05", city="南京"),
             zh_post("zh-city-same-b", c[21], ["护士"], "2026-02-05", city="南京市鼓楼区", v=1), True, "TEMPORAL"))

    three = ["后端工程师", "前端工程师", "测试工程师"]
    add(Case("zh-multi-add", "multi_role", "zh", zh_post("zh-multi-add-a", c[22], three, "2026-01-05"),
             zh_post("zh-multi-add-b", c[22], [*three, "产品经理"], "2026-02-05"), True, "TEMPORAL"))
    four = ["后端工程师", "运维工程师", "数据分析师", "产品经理"]
    add(Case("zh-multi-drop", "multi_role", "zh", zh_post("zh-multi-drop-a", c[23], four, "2026-01-05"),
             zh_post("zh-multi-drop-b", c[23], four[:3], "2026-02-05", v=1), True, "TEMPORAL"))
    add(Case("zh-multi-half", "multi_role", "zh", zh_post("zh-multi-half-a", c[24], four, "2026-01-05"),
             zh_post("zh-multi-half-b", c[24], four[:2] + ["iOS开发工程师", "测试工程师"], "2026-02-05"),
             False, "PARTIAL"))
    add(Case("zh-multi-two", "multi_role", "zh",
             zh_post("zh-multi-two-a", c[25], ["前端工程师", "后端工程师"], "2026-01-05"),
             zh_post("zh-multi-two-b", c[25], ["后端工程师"], "2026-02-05"), False, "PARTIAL"))

    base = zh_post("zh-meta-company-a", c[26], ["后端工程师"], "2026-01-05", company=c[26].legal)
    add(Case("zh-meta-company", "metadata", "zh", base,
             {k: v for k, v in base.items() if k != "company"} | {"id": "zh-meta-company-b"}, True, "FULL",
             same_profile=True))
    base = zh_post("zh-meta-category-a", c[27], ["产品经理"], "2026-01-05", title="产品经理（SaaS方向）")
    add(Case("zh-meta-category", "metadata", "zh", base,
             base | {"id": "zh-meta-category-b", "title": "产品经理（SaaS方向） - 产品"}, True, "FULL",
             same_profile=True, note="site category after the title"))
    base = zh_post("zh-meta-footer-a", c[28], ["后端工程师"], "2026-01-05")
    add(Case("zh-meta-footer", "metadata", "zh", base,
             base | {"id": "zh-meta-footer-b", "description": base["description"]
                     + "\n\n本职位信息由「码农招聘网」发布，未经许可请勿转载。投递请注明来自码农招聘网。"},
             True, "FULL", same_profile=True, note="platform footer"))

    # smaller updates: the class alone, the text mostly kept
    yl = ZhCo("云岭智农", "云南云岭智农科技有限公司", "yunling-agri.cn", "昆明", "高原花卉的温室控制系统")
    a = zh_post("zh-emp-legal-small-a", yl, ["后端工程师"], "2026-01-05", company=yl.legal)
    b = dict(a, id="zh-emp-legal-small-b", company=yl.name, posted_at="2026-02-05T08:00:00Z",
             description=a["description"].replace("25-40K", "30-45K"))
    add(Case("zh-emp-legal-small", "employer_name", "zh", a, b, True, "TEMPORAL", note="short name, pay raised"))
    hy = ZhCo("禾苑科技", "苏州禾苑科技有限公司", "heyuan.tech", "苏州", "社区团购的分拣系统")
    a = zh_post("zh-emp-field-small-a", hy, ["测试工程师"], "2026-01-05", company_line=f"公司全称：{hy.legal}")
    b = dict(a, id="zh-emp-field-small-b", company="禾苑科技", posted_at="2026-01-07T08:00:00Z")
    add(Case("zh-emp-field-small", "employer_name", "zh", a, b, True, "FULL",
             note="company in the text on one site, in the field on the other"))
    sy = ZhCo("石羽数据", "成都石羽数据科技有限公司", "shiyu-data.cn", "成都", "连锁药店的会员数据平台")
    add(Case("zh-multi-swap", "multi_role", "zh",
             zh_post("zh-multi-swap-a", sy, ["iOS开发工程师", "产品经理"], "2026-01-05"),
             zh_post("zh-multi-swap-b", sy, ["iOS开发工程师", "测试工程师"], "2026-02-05"), False, "PARTIAL",
             note="one of two roles replaced"))
    base = zh_post("zh-meta-listing-a", c[0], ["护工"], "2026-01-05")
    add(Case("zh-meta-listing", "metadata", "zh", base,
             base | {"id": "zh-meta-listing-b", "description": base["description"]
                     + "\n\n发布时间：2026-01-05 12:30　浏览次数：1024"},
             True, "FULL", same_profile=True, note="the board's listing data at the end"))
    return out


# ----------------------------------------------------------------------------- Japanese

@dataclass(frozen=True)
class JaCo:
    name: str  # name without legal form
    legal: str  # registered name
    site: str
    pref: str
    city: str
    what: str


_JA = [  # short name, registered name ({} = short name), site, prefecture, city, what it does
    ("ミナトケア", "株式会社{}", "minato-care.jp", "神奈川県", "横浜市港北区", "介護付き有料老人ホームを県内に12施設運営"),
    ("ひだまり苑", "社会福祉法人{}", "hidamarien.or.jp", "埼玉県", "川越市", "特別養護老人ホームとデイサービスを運営"),
    ("ヒカリ設備", "{}工業株式会社", "hikari-setsubi.co.jp", "大阪府", "大阪市淀川区", "ビルの空調・給排水設備の施工とメンテナンス"),
    ("あおば会計", "{}事務所有限会社", "aoba-kaikei.jp", "宮城県", "仙台市青葉区", "中小企業向けの税務・会計サービス"),
    ("コトノハ", "株式会社{}", "kotonoha.dev", "東京都", "渋谷区", "飲食店向け予約管理SaaS"),
    ("さくら運輸", "{}株式会社", "sakura-unyu.co.jp", "愛知県", "名古屋市港区", "食品の冷蔵輸送"),
    ("ハルニレ", "合同会社{}", "harunire.jp", "北海道", "札幌市中央区", "自然素材の家具の製造・販売"),
    ("ツバメ美容", "株式会社{}", "tsubame-beauty.jp", "福岡県", "福岡市中央区", "ヘアサロンを九州で18店舗展開"),
    ("ソラマメ", "株式会社{}", "soramame.co.jp", "京都府", "京都市下京区", "子ども向けプログラミング教室"),
    ("オリーブ薬局", "株式会社{}", "olive-ph.jp", "広島県", "広島市中区", "調剤薬局を県内で9店舗運営"),
    ("カモメ物産", "{}株式会社", "kamome-bussan.co.jp", "静岡県", "静岡市清水区", "水産加工品の卸売"),
    ("ユズリハ", "株式会社{}", "yuzuriha.inc", "東京都", "品川区", "中小企業向けの勤怠管理クラウド"),
    ("アサヒ警備", "{}保障株式会社", "asahi-keibi.jp", "千葉県", "千葉市美浜区", "商業施設とイベントの警備"),
    ("ミズナラ工房", "有限会社{}", "mizunara-kobo.jp", "岐阜県", "高山市", "木工家具のオーダーメイド"),
    ("ナギサホテル", "株式会社{}", "nagisa-hotel.jp", "沖縄県", "那覇市", "リゾートホテル3館の運営"),
    ("ホシゾラ", "株式会社{}", "hoshizora.app", "東京都", "目黒区", "天体観測アプリの開発"),
    ("トモシビ電気", "{}工事株式会社", "tomoshibi-denki.co.jp", "兵庫県", "神戸市東灘区", "住宅とビルの電気工事"),
    ("ワカバ保育", "株式会社{}", "wakaba-hoiku.jp", "埼玉県", "さいたま市浦和区", "認可保育園を12園運営"),
    ("イロハ出版", "有限会社{}", "iroha-pub.co.jp", "東京都", "千代田区", "実用書と語学書の出版"),
    ("ウミガメ水産", "{}株式会社", "umigame-suisan.jp", "高知県", "高知市", "カツオの加工と通信販売"),
    ("シラカバ不動産", "株式会社{}", "shirakaba-re.jp", "長野県", "長野市", "賃貸物件の仲介と管理"),
    ("ミツバチ食品", "{}株式会社", "mitsubachi-foods.jp", "熊本県", "熊本市東区", "はちみつ加工品の製造"),
    ("ゆりかご苑", "医療法人{}", "yurikago.or.jp", "神奈川県", "横浜市港北区", "介護老人保健施設と訪問看護を運営"),
    ("クスノキ建設", "株式会社{}", "kusunoki-kensetsu.jp", "鹿児島県", "鹿児島市", "公共施設の建築工事"),
    ("あけぼの会", "社会福祉法人{}", "akebono-kai.or.jp", "茨城県", "水戸市", "介護施設と障がい者支援施設を運営"),
    ("ヤマブキ観光", "{}バス株式会社", "yamabuki-bus.jp", "山梨県", "甲府市", "観光バスと送迎バスの運行"),
    ("モミジ設備", "株式会社{}", "momiji-setsubi.jp", "栃木県", "宇都宮市", "工場の設備保全"),
    ("スズラン歯科", "医療法人社団{}", "suzuran-dc.jp", "北海道", "旭川市", "歯科医院を道内で5院運営"),
    ("アカツキ商事", "株式会社{}", "akatsuki-shoji.co.jp", "大阪府", "大阪市北区", "業務用厨房機器の販売"),
    ("ツムギ", "株式会社{}", "tsumugi.works", "石川県", "金沢市", "伝統工芸品のEC"),
    ("コハク", "株式会社{}", "kohaku.studio", "福岡県", "福岡市博多区", "Web制作とアプリ開発"),
]


def _ja_co(i: int) -> JaCo:
    name, legal, site, pref, city, what = _JA[i]
    return JaCo(name, legal.format(name), site, pref, city, what)


JA_COS = [_ja_co(i) for i in range(len(_JA))]

JA_ROLES: dict[str, tuple[list[str], list[str], str]] = {
    "看護師": (["入居者様の健康管理、服薬管理、バイタルチェックをお任せします。", "協力医療機関やご家族との連絡調整も担当していただきます。",
              "正看護師または准看護師の資格をお持ちの方。"],
             ["ご入居者の健康チェックや服薬の管理が主なお仕事です。", "提携クリニックやご家族との調整もお願いします。",
              "看護師（正・准）の資格必須。"], "月給28万円〜35万円"),
    "介護職員": (["入居者様の食事・入浴・排泄の介助をお任せします。", "レクリエーションの企画や日々の記録もお願いします。",
               "未経験・無資格の方も歓迎。資格取得支援制度あり。"],
              ["ご入居者の食事や入浴などの生活サポートが中心です。", "レクの企画や介護記録の入力もお願いします。",
               "未経験OK、資格がなくても応募できます。"], "月給22万円〜27万円"),
    "施工管理": (["空調・給排水設備工事の工程、品質、安全の管理をお任せします。", "協力会社との打ち合わせや書類作成も担当していただきます。",
               "管工事施工管理技士の資格をお持ちの方歓迎。"],
              ["空調や給排水設備工事の現場管理（工程・品質・安全）がメインです。", "協力会社との調整や書類作成もお願いします。",
               "管工事施工管理技士の有資格者歓迎。"], "月給30万円〜45万円"),
    "営業": (["既存のお客様を中心にメンテナンス契約の提案をお任せします。", "新規開拓は少なめで、ルート営業が中心です。",
            "普通自動車免許をお持ちの方。業界未経験歓迎。"],
           ["既存顧客へのメンテナンス契約のご提案がメインです。", "ルート営業中心で新規開拓はほとんどありません。",
            "要普通免許。未経験の方も歓迎します。"], "月給25万円〜32万円"),
    "経理スタッフ": (["月次決算、請求書の発行、経費精算のチェックをお任せします。", "税理士と連携して年次決算の準備も担当していただきます。",
                 "経理実務の経験が2年以上ある方。"],
                ["月次の締め作業や請求書発行、経費精算の確認をお願いします。", "年次決算では税理士と一緒に準備を進めます。",
                 "経理経験2年以上。"], "月給24万円〜30万円"),
    "バックエンドエンジニア": (["{what}のAPI設計・開発をお任せします。", "Go と PostgreSQL を使った新機能の開発が中心です。",
                       "Webサービスのバックエンド開発経験が3年以上ある方。"],
                      ["{what}のサーバーサイド開発を担当していただきます。", "主に Go と PostgreSQL で新機能を作っています。",
                       "バックエンド開発3年以上の経験。"], "年収600万円〜900万円"),
    "フロントエンドエンジニア": (["{what}の管理画面の開発をお任せします。", "React と TypeScript を使った画面開発が中心です。",
                        "フロントエンド開発の経験が3年以上ある方。"],
                       ["{what}の管理画面づくりを担当していただきます。", "主に React・TypeScript で画面を作っています。",
                        "フロントエンド開発3年以上。"], "年収550万円〜850万円"),
    "ドライバー": (["冷蔵車で食品をスーパーや飲食店へ配送するお仕事です。", "決まったルートを回るので、道はすぐに覚えられます。",
                "中型自動車免許をお持ちの方。"],
               ["冷蔵トラックでスーパーや飲食店に食品を届けます。", "ルート配送なので未経験でもすぐ慣れます。",
                "中型免許必須。"], "月給27万円〜34万円"),
    "スタイリスト": (["カット、カラー、パーマなどの施術をお任せします。", "指名のお客様を大切にしながら、新規のお客様も担当します。",
                 "美容師免許をお持ちの方。"],
                ["カット・カラー・パーマの施術全般をお願いします。", "指名客を中心に、新規のお客様にも対応していただきます。",
                 "美容師免許必須。"], "月給25万円〜40万円"),
    "薬剤師": (["処方箋の調剤、服薬指導、薬歴管理をお任せします。", "在宅訪問にも少しずつ挑戦していただけます。", "薬剤師免許をお持ちの方。"],
            ["調剤と服薬指導、薬歴の管理が主なお仕事です。", "在宅医療にも段階的に関わっていただきます。", "薬剤師免許必須。"], "年収480万円〜650万円"),
}


def _ja_company_block(co: JaCo, v: int = 0) -> str:
    if v == 0:
        return f"【会社概要】\n{co.legal}は{co.what}を行っています。創業以来、地域に根ざした経営を続けています。"
    return f"【会社概要】\n{co.legal}。{co.what}を手がけ、地域密着で成長を続けてきました。"


def ja_post(pid: str, co: JaCo, roles: list[str], date: str, *, v: int = 0, title: str | None = None,
            location: str | None = None, company: str | None = "", footer: str = "", body_intro: str | None = None,
            html: bool = False, source: str = "board", company_block: str | None = None) -> dict[str, Any]:
    """A Japanese job-board posting: 【仕事内容】【応募資格】【給与】【勤務地】 sections, title and location fields."""
    loc = location or f"{co.pref}{co.city}"
    parts = [body_intro or f"{co.name}で一緒に働く仲間を募集しています。"]
    for r in roles:
        lines, alt, pay = JA_ROLES[r]
        body = [s.format(what=co.what) for s in _pick(lines, alt, v)]
        head = f"■{r}\n" if len(roles) > 1 else ""
        parts.append(f"{head}【仕事内容】\n" + "\n".join(body[:2]))
        parts.append(f"【応募資格】\n{body[2]}")
        parts.append(f"【給与】\n{pay}" + ("（経験・能力を考慮）" if v == 0 else "※経験により優遇"))
    parts.append(f"【勤務地】\n{loc}")
    parts.append("【休日休暇】\n週休2日制、年末年始休暇、有給休暇" if v == 0 else "【休日】\n週休2日、年末年始、有休あり")
    parts.append(company_block if company_block is not None else _ja_company_block(co, v))
    if footer:
        parts.append(footer)
    desc = "".join(f"<p>{p.replace(chr(10), '<br>')}</p>" for p in parts) if html else "\n\n".join(parts)
    post = {"id": pid, "title": title or "／".join(roles), "description": desc, "location": loc,
            "posted_at": f"{date}T00:00:00Z", "source": source}
    if company:
        post["company"] = company
    return post


def _ja_cases() -> list[Case]:
    c = JA_COS
    out: list[Case] = []
    add = out.append
    comments = [("応募しましたが、まだ連絡がありません。", "この求人は未経験でも大丈夫でしょうか？"),
                ("面接の雰囲気はどうでしたか？", "寮はありますか。"),
                ("週三日勤務は可能ですか？", "交通費は全額支給ですか？")]
    for i, (x, y) in enumerate(comments):
        add(Case(f"ja-nonad{i}", "non_ad", "ja",
                 {"id": f"ja-nonad{i}-a", "title": "質問", "description": x, "source": "qa"},
                 {"id": f"ja-nonad{i}-b", "title": "質問", "description": y, "source": "qa"}, False, "NON"))
    add(Case("ja-nonad-sim", "non_ad", "ja",
             {"id": "ja-nonad-sim-a", "title": "質問", "description": "この求人はまだ募集していますか？先週応募しましたが返信がありません。"},
             {"id": "ja-nonad-sim-b", "title": "質問", "description": "この求人はまだ募集していますか？昨日応募しましたが返信がありません。"},
             False, "NON", note="two similar comments"))
    add(Case("ja-nonad-copy", "non_ad", "ja",
             {"id": "ja-nonad-copy-a", "title": "質問", "description": comments[2][0], "source": "qa"},
             {"id": "ja-nonad-copy-b", "title": "質問", "description": comments[2][0], "source": "qa"},
             True, "FULL", note="identical copy"))

    add(Case("ja-role-nurse", "other_role", "ja",
             ja_post("ja-role-nurse-a", c[0], ["看護師"], "2026-01-05", company=c[0].legal),
             ja_post("ja-role-nurse-b", c[0], ["介護職員"], "2026-01-05", company=c[0].legal), False, "PARTIAL"))
    add(Case("ja-role-nurse-nofield", "other_role", "ja",
             ja_post("ja-role-nurse-nofield-a", c[1], ["看護師"], "2026-01-05", title="看護師◆日勤のみ◆残業ほぼなし"),
             ja_post("ja-role-nurse-nofield-b", c[1], ["介護職員"], "2026-01-05", title="介護職員◆日勤のみ◆残業ほぼなし"),
             False, "PARTIAL", note="care home: nurse vs care worker, same tagline"))
    co = JaCo("すずかけ苑", "社会福祉法人すずかけ苑", "suzukake-en.or.jp", "愛知県", "豊橋市", "特別養護老人ホームを運営")
    kango = dict(ja_post("ja-role-kango-a", co, ["看護師"], "2026-01-05", company=co.legal, title="看護職員（正社員）"))
    kaigo = dict(ja_post("ja-role-kango-b", co, ["介護職員"], "2026-01-05", company=co.legal, title="介護職員（正社員）"))
    add(Case("ja-role-kango", "other_role", "ja", kango, kaigo, False, "PARTIAL",
             note="看護職員 vs 介護職員: one word apart"))
    add(Case("ja-role-eng", "other_role", "ja",
             ja_post("ja-role-eng-a", c[2], ["バックエンドエンジニア"], "2026-01-05"),
             ja_post("ja-role-eng-b", c[2], ["フロントエンドエンジニア"], "2026-01-05"), False, "PARTIAL"))
    add(Case("ja-role-sales", "other_role", "ja",
             ja_post("ja-role-sales-a", c[3], ["施工管理"], "2026-01-05", html=True),
             ja_post("ja-role-sales-b", c[3], ["営業"], "2026-01-05", html=True), False, "PARTIAL"))
    co = JaCo("ツクシ電設", "ツクシ電設株式会社", "tsukushi-densetsu.jp", "福岡県", "北九州市小倉北区", "工場と商業施設の電気設備工事")
    add(Case("ja-role-tagline", "other_role", "ja",
             ja_post("ja-role-tagline-a", co, ["施工管理"], "2026-01-05", company=co.legal,
                     title="年間休日125日★賞与年2回【施工管理】"),
             ja_post("ja-role-tagline-b", co, ["営業"], "2026-01-05", company=co.legal,
                     title="年間休日125日★賞与年2回【営業】"), False, "PARTIAL",
             note="one tagline, two roles (the role only in brackets and the body)"))
    add(Case("ja-role-repost", "other_role", "ja",
             ja_post("ja-role-repost-a", c[4], ["薬剤師"], "2026-01-05"),
             ja_post("ja-role-repost-b", c[4], ["薬剤師"], "2026-02-16", v=1), True, "TEMPORAL",
             note="control: same role reposted, reworded"))

    tmpl_intro = "当社で一緒に働く仲間を募集しています。未経験の方も丁寧に指導しますので、安心してご応募ください。"

    def tpost(pid: str, co: JaCo, loc_of: JaCo) -> dict[str, Any]:
        return ja_post(pid, co, ["経理スタッフ"], "2026-01-05", company=co.legal, body_intro=tmpl_intro,
                       location=f"{loc_of.pref}{loc_of.city}",
                       company_block=f"【会社概要】\n{co.legal}\nhttps://{co.site}")

    add(Case("ja-tmpl-a", "template", "ja", tpost("ja-tmpl-a-a", c[5], c[5]), tpost("ja-tmpl-a-b", c[6], c[5]),
             False, "NON"))
    add(Case("ja-tmpl-b", "template", "ja", tpost("ja-tmpl-b-a", c[7], c[7]), tpost("ja-tmpl-b-b", c[8], c[7]),
             False, "NON"))
    text = "\n\n".join([tmpl_intro, "【仕事内容】\n請求書の発行と経費精算のチェックをお任せします。",
                         "【応募資格】\n経理経験1年以上。", "【給与】\n月給23万円〜28万円"])
    add(Case("ja-tmpl-nosite", "template", "ja",
             {"id": "ja-tmpl-nosite-a", "title": "経理スタッフ", "company": "株式会社アオイ製作所", "location": "大阪府堺市",
              "description": text, "source": "board"},
             {"id": "ja-tmpl-nosite-b", "title": "経理スタッフ", "company": "株式会社シロガネ商会", "location": "大阪府堺市",
              "description": text, "source": "board"},
             False, "NON", note="one template text word for word under two employers (company fields only)"))
    add(Case("ja-tmpl-same", "template", "ja", tpost("ja-tmpl-same-a", c[9], c[9]),
             dict(tpost("ja-tmpl-same-b", c[9], c[9]), company=c[9].name), True, "FULL",
             note="control: one employer, name with and without its legal form"))

    def blurb(co: JaCo) -> str:
        return (f"{co.name}は{co.what}を開発しています。機械学習チームやインフラ責任者、デザイナーも在籍し、"
                "AIを活用した新機能の研究も進めています。")
    add(Case("ja-blurb-ml", "blurb_roles", "ja",
             ja_post("ja-blurb-ml-a", c[11], ["フロントエンドエンジニア"], "2026-01-05"),
             ja_post("ja-blurb-ml-b", c[11], ["フロントエンドエンジニア"], "2026-02-05", body_intro=blurb(c[11]), v=1),
             True, "TEMPORAL"))
    def blurb2(co: JaCo) -> str:
        return f"{co.name}は元エンジニアの代表と現役講師のリーダーが立ち上げた、{co.what}の会社です。"
    add(Case("ja-blurb-founder", "blurb_roles", "ja",
             ja_post("ja-blurb-founder-a", c[13], ["経理スタッフ"], "2026-01-05"),
             ja_post("ja-blurb-founder-b", c[13], ["経理スタッフ"], "2026-02-05", body_intro=blurb2(c[13])), True, "TEMPORAL"))
    add(Case("ja-blurb-other", "blurb_roles", "ja",
             ja_post("ja-blurb-other-a", c[14], ["バックエンドエンジニア"], "2026-03-02", body_intro=blurb(c[14])),
             ja_post("ja-blurb-other-b", c[14], ["経理スタッフ"], "2026-03-02", body_intro=blurb(c[14])), False, "PARTIAL"))
    add(Case("ja-blurb-other2", "blurb_roles", "ja",
             ja_post("ja-blurb-other2-a", c[15], ["スタイリスト"], "2026-01-05", body_intro=blurb2(c[15])),
             ja_post("ja-blurb-other2-b", c[15], ["経理スタッフ"], "2026-01-05", body_intro=blurb2(c[15])), False, "PARTIAL"))

    co = JaCo("マツバ歯科", "医療法人社団マツバ歯科", "matsuba-dc.jp", "静岡県", "浜松市中央区", "歯科医院を県西部で6院運営")
    ja_intro = ("マツバ歯科は「痛くない・待たせない」をモットーに、浜松市を中心に6つの医院を運営しています。完全予約制で、"
                "スタッフ一人ひとりが患者様と向き合う時間を大切にしています。産休・育休からの復帰率は100％、"
                "子育て中のスタッフも多く活躍しています。")
    add(Case("ja-blurb-heavy", "blurb_roles", "ja",
             ja_post("ja-blurb-heavy-a", co, ["経理スタッフ"], "2026-02-02", body_intro=ja_intro, company=co.legal),
             ja_post("ja-blurb-heavy-b", co, ["ドライバー"], "2026-02-02", body_intro=ja_intro, company=co.legal),
             False, "PARTIAL", note="another role behind a long shared blurb"))

    add(Case("ja-emp-kabu", "employer_name", "ja",
             ja_post("ja-emp-kabu-a", c[16], ["ドライバー"], "2026-01-05", company=c[16].legal),
             ja_post("ja-emp-kabu-b", c[16], ["ドライバー"], "2026-02-05", company=c[16].legal.replace("株式会社", "(株)"), v=1), True, "TEMPORAL"))
    add(Case("ja-emp-text", "employer_name", "ja",
             ja_post("ja-emp-text-a", c[17], ["スタイリスト"], "2026-01-05", company=""),
             ja_post("ja-emp-text-b", c[17], ["スタイリスト"], "2026-02-05", company=c[17].name, v=1), True, "TEMPORAL",
             note="registered name only in the text"))
    add(Case("ja-emp-yugen", "employer_name", "ja",
             ja_post("ja-emp-yugen-a", c[18], ["経理スタッフ"], "2026-01-05", company=c[18].legal),
             ja_post("ja-emp-yugen-b", c[18], ["経理スタッフ"], "2026-01-25", company=f"（有）{c[18].name}", v=1),
             True, "SEMANTIC"))
    add(Case("ja-emp-diff", "employer_name", "ja",
             ja_post("ja-emp-diff-a", c[19], ["営業"], "2026-01-05", company=c[19].legal),
             ja_post("ja-emp-diff-b", JaCo(c[19].name[:-2] + "工務店", f"株式会社{c[19].name[:-2]}工務店", "koumuten.jp",
                                           "長野県", "松本市", "木造住宅の設計・施工"), ["営業"], "2026-01-06",
                     company=f"株式会社{c[19].name[:-2]}工務店"), False, "NON", note="two employers sharing a word"))

    add(Case("ja-city-a", "other_city", "ja",
             ja_post("ja-city-a-a", c[20], ["薬剤師"], "2026-01-05", location="広島県広島市中区"),
             ja_post("ja-city-a-b", c[20], ["薬剤師"], "2026-01-05", location="広島県福山市"), False, "PARTIAL"))
    add(Case("ja-city-b", "other_city", "ja",
             ja_post("ja-city-b-a", c[21], ["ドライバー"], "2026-01-05", location="愛知県名古屋市港区"),
             ja_post("ja-city-b-b", c[21], ["ドライバー"], "2026-01-05", location="静岡県浜松市中央区"), False, "PARTIAL"))
    co = JaCo("ナデシコ介護", "株式会社ナデシコ介護", "nadeshiko-kaigo.jp", "宮城県", "仙台市泉区", "デイサービスを運営")
    a = ja_post("ja-city-heading-a", co, ["介護職員"], "2026-01-05", location="宮城県仙台市泉区", company=co.legal)
    b = ja_post("ja-city-heading-b", co, ["介護職員"], "2026-01-05", location="山形県山形市", company=co.legal)
    for p in (a, b):
        del p["location"]  # the place only under 【勤務地】 in the text
    add(Case("ja-city-heading", "other_city", "ja", a, b, False, "PARTIAL", note="the place only under 【勤務地】"))
    add(Case("ja-city-same", "other_city", "ja",
             ja_post("ja-city-same-a", c[22], ["介護職員"], "2026-01-05", location="神奈川県横浜市港北区"),
             ja_post("ja-city-same-b", c[22], ["介護職員"], "2026-02-05", location="横浜市港北区（新横浜駅 徒歩7分）", v=1),
             True, "TEMPORAL"))

    three = ["施工管理", "営業", "経理スタッフ"]
    add(Case("ja-multi-add", "multi_role", "ja",
             ja_post("ja-multi-add-a", c[23], three, "2026-01-05", title="【急募】施工管理・営業・経理スタッフ"),
             ja_post("ja-multi-add-b", c[23], [*three, "ドライバー"], "2026-02-05",
                     title="【急募】施工管理・営業・経理スタッフ・ドライバー"), True, "TEMPORAL"))
    four = ["看護師", "介護職員", "経理スタッフ", "ドライバー"]
    add(Case("ja-multi-drop", "multi_role", "ja",
             ja_post("ja-multi-drop-a", c[24], four, "2026-01-05", title="看護師・介護職員ほか4職種募集"),
             ja_post("ja-multi-drop-b", c[24], four[:3], "2026-02-05", title="看護師・介護職員ほか3職種募集", v=1),
             True, "TEMPORAL"))
    add(Case("ja-multi-two", "multi_role", "ja",
             ja_post("ja-multi-two-a", c[25], ["バックエンドエンジニア", "フロントエンドエンジニア"], "2026-01-05"),
             ja_post("ja-multi-two-b", c[25], ["バックエンドエンジニア"], "2026-02-05"), False, "PARTIAL"))
    add(Case("ja-multi-half", "multi_role", "ja",
             ja_post("ja-multi-half-a", c[26], ["施工管理", "営業", "経理スタッフ", "ドライバー"], "2026-01-05",
                     title="施工管理ほか4職種"),
             ja_post("ja-multi-half-b", c[26], ["施工管理", "営業", "看護師", "薬剤師"], "2026-02-05",
                     title="施工管理ほか4職種"), False, "PARTIAL"))

    base = ja_post("ja-meta-company-a", c[27], ["営業"], "2026-01-05", company=c[27].legal, title="家具の提案営業◆土日休み")
    add(Case("ja-meta-company", "metadata", "ja", base,
             {k: v for k, v in base.items() if k != "company"} | {"id": "ja-meta-company-b", "source": "other"},
             True, "FULL", same_profile=True))
    base = ja_post("ja-meta-category-a", c[28], ["スタイリスト"], "2026-01-05", title="スタイリスト◆完全週休2日◆駅チカ")
    add(Case("ja-meta-category", "metadata", "ja", base,
             base | {"id": "ja-meta-category-b", "title": "スタイリスト◆完全週休2日◆駅チカ ／ 美容師・理容師", "source": "other"},
             True, "FULL", same_profile=True, note="site category after the title"))
    base = ja_post("ja-meta-category2-a", c[29], ["薬剤師"], "2026-01-05", title="調剤薬局の薬剤師（正社員）")
    add(Case("ja-meta-category2", "metadata", "ja", base,
             base | {"id": "ja-meta-category2-b", "title": "調剤薬局の薬剤師（正社員）【医療・福祉】", "source": "other"},
             True, "FULL", same_profile=True, note="bracketed site category"))
    base = ja_post("ja-meta-footer-a", c[30], ["経理スタッフ"], "2026-01-05")
    add(Case("ja-meta-footer", "metadata", "ja", base,
             base | {"id": "ja-meta-footer-b", "source": "other", "description": base["description"]
                     + "\n\n※この求人情報は「しごとナビ」に掲載されています。掲載期間：2026年1月5日〜2月1日"},
             True, "FULL", same_profile=True, note="platform footer"))

    # smaller updates: the class alone, the text mostly kept
    co = JaCo("ミヤマ精工", "ミヤマ精工株式会社", "miyama-seiko.co.jp", "新潟県", "燕市", "金属部品の精密加工")
    a = ja_post("ja-emp-small-a", co, ["施工管理"], "2026-01-05", company=co.legal)
    b = dict(a, id="ja-emp-small-b", company="ミヤマ精工（株）", posted_at="2026-02-05T00:00:00Z",
             description=a["description"].replace("月給30万円〜45万円", "月給32万円〜47万円"))
    add(Case("ja-emp-small", "employer_name", "ja", a, b, True, "TEMPORAL", note="(株) form, pay raised"))
    co = JaCo("ひまわり園", "社会福祉法人ひまわり園", "himawari-en.or.jp", "岡山県", "倉敷市", "特別養護老人ホームを運営")
    a = ja_post("ja-emp-field-small-a", co, ["介護職員"], "2026-01-05", company="")
    b = dict(a, id="ja-emp-field-small-b", company=co.legal, source="other")
    add(Case("ja-emp-field-small", "employer_name", "ja", a, b, True, "FULL",
             note="employer only in the text on one site, in the field on the other"))
    co = JaCo("カエデ物流", "カエデ物流株式会社", "kaede-logi.co.jp", "埼玉県", "川口市", "通販商品の保管と発送")
    add(Case("ja-multi-title-add", "multi_role", "ja",
             ja_post("ja-multi-title-add-a", co, ["営業", "経理スタッフ", "ドライバー"], "2026-01-05",
                     title="営業・経理スタッフ・ドライバー"),
             ja_post("ja-multi-title-add-b", co, ["営業", "経理スタッフ", "ドライバー", "施工管理"], "2026-02-05",
                     title="営業・経理スタッフ・ドライバー・施工管理"), True, "TEMPORAL"))
    co = JaCo("シオン工業", "シオン工業株式会社", "shion-kogyo.co.jp", "三重県", "四日市市", "化学プラントの保守")
    add(Case("ja-multi-title-swap", "multi_role", "ja",
             ja_post("ja-multi-title-swap-a", co, ["営業", "経理スタッフ"], "2026-03-05", title="営業・経理スタッフ"),
             ja_post("ja-multi-title-swap-b", co, ["営業", "ドライバー"], "2026-04-05", title="営業・ドライバー"),
             False, "PARTIAL", note="one of two roles replaced"))
    base = ja_post("ja-meta-listing-a", c[2], ["施工管理"], "2026-01-05", html=True)
    add(Case("ja-meta-listing", "metadata", "ja", base,
             base | {"id": "ja-meta-listing-b", "source": "other", "description": base["description"]
                     + "<p>求人番号：K-20931</p><p>掲載日：2026/01/05　最終更新日：2026/01/19</p>"},
             True, "FULL", same_profile=True, note="the board's listing data at the end (HTML)"))
    return out


# ----------------------------------------------------------------------------- Chinese hiring-board posts (s5-i9-zh)
# Block of branch s5-i9-zh: board-style Chinese posts (`[远程] X诚聘 Y 薪水 …` titles over the board's markdown
# form), for the title / role-name classes fixed there and the issue's must-stay-apart classes.

_BOARD_DUTIES = {
    "风控": (["负责交易风控规则的制定与日常监控，识别异常账户与可疑交易；", "配合合规团队完成反洗钱调查，输出调查报告；",
             "跟进风控系统需求，推动规则上线并复盘效果。"],
            ["一年以上交易所或支付机构风控经验；", "熟悉常见的洗钱与欺诈手法；", "能熟练使用 SQL 做数据排查。"]),
    "合约": (["负责链上衍生品协议的智能合约开发与升级；", "编写单元测试与形式化验证脚本，配合外部审计；",
             "优化合约 gas 消耗，跟进线上资金安全事件。"],
            ["三年以上 Solidity 开发经验，有上线的 DeFi 项目；", "熟悉 EVM 原理与常见攻击手法；", "英文读写流利。"]),
    "后端": (["负责撮合与清算服务的后端开发，保证低延迟和高可用；", "参与行情推送与账户系统的架构设计；",
             "排查线上性能瓶颈，完善监控告警。"],
            ["三年以上后端开发经验，熟悉 MySQL、Redis、Kafka；", "有交易系统或高并发服务经验优先；", "良好的沟通能力。"]),
    "客服": (["通过在线工单与社群解答海外用户关于充值、提现和账户安全的问题；", "整理常见问题，更新帮助中心文档；",
             "把用户反馈的产品问题同步给产品与技术团队。"],
            ["英语可作为工作语言，书面表达清晰；", "接受轮班，细心耐心；", "应届毕业生可投递。"]),
    "产品": (["负责现货与理财产品的需求规划和版本迭代；", "调研竞品，输出产品方案、原型与需求文档；",
             "推动研发、设计、运营按期交付并跟踪数据。"],
            ["五年以上互联网产品经验，其中两年以上金融或交易产品经验；", "逻辑清晰，能独立负责完整模块；", "有出海产品经验优先。"]),
}


#: The same duties reworded (a repost months later): kind -> duties.
_BOARD_REWORDED = {
    "合约": ["开发和升级链上衍生品协议的合约代码；", "补齐单元测试和形式化验证，对接外部审计机构；", "持续降低 gas 成本，处理线上资金安全事件。"],
    "产品": ["规划现货、理财两条产品线的需求与迭代节奏；", "分析竞品并产出方案、原型和 PRD；", "协调研发、设计和运营按时上线，盯住核心数据。"],
    "后端": ["开发撮合、清算相关的后端服务，确保延迟低、可用性高；", "参与设计行情推送和账户体系；", "定位线上性能问题并补全监控。"],
    "客服": ["在工单系统和社群里回答海外用户的充提币和账户安全问题；", "维护帮助中心的常见问题；", "把用户反馈的问题整理给产品和技术同学。"],
}


def _board_post(pid: str, title: str, kind: str, date: str, *, intro: str, pay: str, place: str, contact: str,
                duties: list[str] | None = None) -> dict[str, Any]:
    """A Chinese hiring-board post in the board's form (公司介绍 / 薪资 / 地点 / 工作性质 / 岗位要求、职责)."""
    d, r = _BOARD_DUTIES[kind]
    body = [f"## 公司/团队介绍\n{intro}", f"## 薪资福利待遇\n{pay}", f"## 地点\n\n- 工作地点：{place}\n- 联系方式：{contact}",
            "## 工作性质\n\n- 是否全职：是\n- 是否远程：" + ("是" if "远程" in place else "否"),
            "## 岗位要求、职责\n岗位职责：\n" + "\n".join(f"- {x}" for x in (duties or d))
            + "\n任职要求：\n" + "\n".join(f"- {x}" for x in r), f"## 工作环境\n{place}"]
    return {"id": pid, "title": title, "description": "\n\n".join(body), "posted_at": f"{date}T09:30:00Z",
            "source": "board"}


def _zh_board_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    ex_intro = "头部 Web3 数字资产交易所，团队分布在新加坡、迪拜和东南亚，全员远程协作，每年两次线下团建。"
    ex_contact = "TG: @linqiao_hr  邮箱 hr@tidepool.exchange"
    add(Case("zh-board-tail-verb", "other_role", "zh",
             _board_post("zh-board-tail-verb-a", "[新加坡/remote] Tidepool智能合約工程師招聘 薪資30K-55K HKD", "合约",
                         "2025-03-10", intro=ex_intro, pay="30K-55K HKD / 月", place="新加坡，可远程", contact=ex_contact),
             _board_post("zh-board-tail-verb-b", "[可远程] Tidepool 诚聘 智能合约工程师，薪资30K-55K", "合约", "2025-08-02",
                         intro=ex_intro, pay="30K-55K / 月，年终奖另计", place="新加坡，可远程", contact=ex_contact, duties=_BOARD_REWORDED["合约"]),
             True, "TEMPORAL", note="the role before the hiring verb, traditional vs simplified characters"))
    add(Case("zh-board-relevel", "other_role", "zh",
             _board_post("zh-board-relevel-a", "Web3交易所诚聘“理财产品经理/专家”5000-8000U/月", "产品", "2025-02-11",
                         intro=ex_intro, pay="5000-8000U/月", place="远程", contact=ex_contact),
             _board_post("zh-board-relevel-b", "Web3交易所招聘“理财产品总监/专家”6000-9000U/月", "产品", "2025-06-20",
                         intro=ex_intro, pay="6000-9000U/月", place="远程", contact=ex_contact, duties=_BOARD_REWORDED["产品"]),
             True, "TEMPORAL", note="the same duties re-posted with the level in the title changed (经理 -> 总监)"))
    add(Case("zh-board-modifier", "other_role", "zh",
             _board_post("zh-board-modifier-a", "【远程】寻找资深Web3后端工程师-Tidepool", "后端", "2025-04-01",
                         intro=ex_intro + "我们的 DeFi 聚合器和交易所共用一套撮合引擎。", pay="面议", place="远程",
                         contact=ex_contact),
             _board_post("zh-board-modifier-b", "【远程】寻找资深DeFi后端工程师-Tidepool", "后端", "2025-05-03",
                         intro=ex_intro + "我们的 DeFi 聚合器和交易所共用一套撮合引擎。", pay="面议", place="远程",
                         contact=ex_contact, duties=_BOARD_REWORDED["后端"]),
             True, "TEMPORAL", note="Web3 / DeFi: a modifier both posts write, employer after a hyphen"))
    add(Case("zh-board-note", "other_role", "zh",
             _board_post("zh-board-note-a", "[远程办公]Tidepool交易所直招  英语客服    校招 26届和27届毕业生", "客服",
                         "2026-03-02", intro=ex_intro, pay="1200 USDT/月", place="远程", contact=ex_contact),
             _board_post("zh-board-note-b", "[远程办公] Tidepool交易所诚聘  英语客服 （26届-27届毕业生） 薪水 1200U /月", "客服",
                         "2026-04-06", intro=ex_intro, pay="1200 USDT/月", place="远程", contact=ex_contact, duties=_BOARD_REWORDED["客服"]),
             True, "TEMPORAL", note="直招 and a graduation-year note around the role"))
    # must stay apart
    tmpl_intro = "公司成立于2019年，专注于数字资产合规服务，总部位于迪拜。"
    add(Case("zh-board-tmpl-emp", "template", "zh",
             _board_post("zh-board-tmpl-emp-a", "[迪拜] 沙丘科技诚聘 风控专员 薪水 3000-4500U", "风控", "2025-09-01",
                         intro=tmpl_intro, pay="3000-4500U/月", place="迪拜", contact="邮箱 jobs@shaqiu-tech.com"),
             _board_post("zh-board-tmpl-emp-b", "[迪拜] 绿洲数科诚聘 风控专员 薪水 3000-4500U", "风控", "2025-09-03",
                         intro=tmpl_intro, pay="3000-4500U/月", place="迪拜", contact="邮箱 hr@lvzhou-data.ae"),
             False, "NON", note="two employers (name and mail domain) under one template"))
    add(Case("zh-board-city", "other_city", "zh",
             _board_post("zh-board-city-a", "[深圳] 青柠支付诚聘 后端开发工程师 薪水 30-45K", "后端", "2025-10-08",
                         intro="青柠支付为跨境电商提供收单与结算服务。", pay="30-45K · 14薪", place="深圳南山区",
                         contact="邮箱 hr@qingning-pay.com"),
             _board_post("zh-board-city-b", "[成都] 青柠支付诚聘 后端开发工程师 薪水 30-45K", "后端", "2025-10-08",
                         intro="青柠支付为跨境电商提供收单与结算服务。", pay="30-45K · 14薪", place="成都高新区",
                         contact="邮箱 hr@qingning-pay.com"),
             False, "PARTIAL", note="the same requisition for another city"))
    add(Case("zh-board-other-role", "other_role", "zh",
             _board_post("zh-board-other-role-a", "[远程] Tidepool交易所诚聘 风控专员 薪水 2500-3500U", "风控", "2025-11-03",
                         intro=ex_intro, pay="2500-3500U/月", place="远程", contact=ex_contact),
             _board_post("zh-board-other-role-b", "[远程] Tidepool交易所诚聘 英语客服 薪水 1200-1500U", "客服", "2025-11-03",
                         intro=ex_intro, pay="1200-1500U/月", place="远程", contact=ex_contact),
             False, "PARTIAL", note="another role behind the same blurb and form"))
    add(Case("zh-board-platform", "other_role", "zh",
             _board_post("zh-board-platform-a", "[远程] Tidepool诚聘 Java后端开发工程师", "后端", "2025-07-01",
                         intro=ex_intro, pay="面议", place="远程", contact=ex_contact,
                         duties=["使用 Java 与 Spring Cloud 开发撮合与清算服务；", "维护账户系统的 JVM 调优与 GC 监控；",
                                 "参与交易链路的压测与容量规划。"]),
             _board_post("zh-board-platform-b", "[远程] Tidepool诚聘 Golang后端开发工程师", "后端", "2025-07-01",
                         intro=ex_intro, pay="面议", place="远程", contact=ex_contact,
                         duties=["使用 Go 开发行情网关与推送服务；", "用 gRPC 拆分钱包与风控微服务；",
                                 "参与交易链路的压测与容量规划。"]),
             False, "PARTIAL", note="Java vs Golang backend: a modifier the other post never writes"))
    tier = "链上数据分析团队，为机构客户提供资金流追踪与风险报告。"
    add(Case("zh-board-tiers", "multi_role", "zh",
             _board_post("zh-board-tiers-a", "[全职远程] 链上数据分析师（2-3年经验）薪水 $1,500-$2,000", "风控", "2026-01-12",
                         intro=tier, pay="$1,500-$2,000 / 月", place="远程", contact=ex_contact),
             dict(_board_post("zh-board-tiers-b", "[全职远程] 链上数据分析师（2-3年经验）薪水 $2,400-$3,200", "风控",
                              "2026-01-12", intro=tier, pay="$2,400-$3,200 / 月", place="远程", contact=ex_contact),
                  posted_at="2026-01-12T09:41:00Z"),
             False, "PARTIAL", note="two pay tiers of one job posted minutes apart: two offers"))
    return out


# ============================================================================ s5-i9-ja block (job boards)
# Multi-posting classes of real job boards that cause false merges in any language: one company's template
# for several stores / branches / facilities (`branch`), one job under other terms - employment type and
# pay unit, day vs night shift, two pay tiers (`terms`), a dispatch / placement agency's template for
# different client jobs (`agency`); each with its duplicate counterparts (a repost with small updates,
# the same ad on a second site with the company field empty, a site category after the title, a footer).

JOB_BOARD_CLASSES = ("branch", "terms", "agency")
#: Languages each job-board class is written in (the agency class is a Japanese job-board pattern).
JOB_BOARD_LANGS = {"branch": ("en", "zh", "ja"), "terms": ("en", "zh", "ja"), "agency": ("zh", "ja")}


@dataclass(frozen=True)
class Store:
    """One store / branch / facility of a chain: its name, street address and how to get there."""

    name: str
    address: str
    access: str


@dataclass(frozen=True)
class JaChain:
    """A fictional Japanese employer running several stores on one job-ad template."""

    name: str
    legal: str
    site: str
    intro: str
    role: str
    duties: tuple[str, str]
    quals: str
    hours: str
    holidays: str


_JA_CAFE = JaChain(
    "コモレビ珈琲", "株式会社コモレビ", "komorebi-coffee.jp",
    "コモレビ珈琲は、自家焙煎のコーヒーと焼き菓子のお店を首都圏で24店舗展開しています。"
    "「街のリビング」をコンセプトに、常連のお客様との会話を大切にしています。",
    "カフェスタッフ",
    ("ドリンクの抽出、フードの仕込み、接客とレジをお任せします。",
     "慣れてきたら発注や在庫管理、アルバイトスタッフの育成にも関わっていただきます。"),
    "学歴・経験不問。飲食店での接客経験がある方は優遇します。",
    "シフト制（7:00〜22:00の間で実働8時間）", "月9日休み（シフト制）、夏季休暇、年末年始休暇、有給休暇")
_JA_DRUG = JaChain(
    "ハナミズキドラッグ", "株式会社ハナミズキ", "hanamizuki-drug.co.jp",
    "ハナミズキドラッグは滋賀県と京都府で38店舗のドラッグストアを運営しています。地域のかかりつけ店として、"
    "医薬品から日用品まで暮らしを支えています。",
    "登録販売者",
    ("一般用医薬品の販売とお客様からのご相談への対応をお任せします。", "品出し、レジ、売場づくりなど店舗業務全般もお願いします。"),
    "登録販売者の資格をお持ちの方（実務経験は問いません）。",
    "9:00〜18:00、13:00〜22:00のシフト制（実働8時間）", "4週8休、年間休日110日、有給休暇、慶弔休暇")
_JA_CARE = JaChain(
    "あさがおケア", "株式会社あさがおケア", "asagao-care.jp",
    "あさがおケアは兵庫県の阪神間でグループホームと小規模多機能ホームを14か所運営しています。"
    "一人ひとりのペースに合わせた、家庭的な介護を大切にしています。",
    "介護職員",
    ("ご入居者9名の食事・入浴・排泄の介助、買い物や散歩の付き添いをお任せします。",
     "調理や掃除などの家事もご入居者と一緒に行います。"),
    "介護職員初任者研修以上をお持ちの方。無資格の方は入社後の取得を支援します。",
    "7:00〜16:00／9:00〜18:00／11:00〜20:00のシフト制", "月9日休み、年間休日110日、有給休暇")
_JA_MART = JaChain(
    "マルヨシ", "株式会社マルヨシストア", "maruyoshi-store.jp",
    "マルヨシは埼玉県内に21店舗を展開する地域密着型のスーパーマーケットです。朝獲れの鮮魚と手作りの惣菜が自慢です。",
    "鮮魚担当",
    ("魚の加工（三枚おろし、刺身の盛り付け）、パック詰め、品出しをお任せします。", "売場づくりや値付け、発注業務もお願いします。"),
    "未経験歓迎。包丁の扱いは入社後に先輩が一から教えます。",
    "6:00〜15:00（実働8時間・休憩1時間）", "週休2日（シフト制）、年末年始を除く連休取得可、有給休暇")

_JA_STORES = {
    "ebisu": Store("コモレビ珈琲 恵比寿店", "東京都渋谷区恵比寿南1-4-2", "JR山手線「恵比寿駅」西口から徒歩2分"),
    "yoyogi": Store("コモレビ珈琲 代々木店", "東京都渋谷区代々木1-30-8", "JR山手線「代々木駅」北口から徒歩4分"),
    "machida": Store("コモレビ珈琲 町田店", "東京都町田市原町田6-12-3", "小田急線「町田駅」東口から徒歩5分"),
    "kusatsu": Store("ハナミズキドラッグ 草津駅前店", "滋賀県草津市大路1-8-15", "JR琵琶湖線「草津駅」から徒歩3分"),
    "moriyama": Store("ハナミズキドラッグ 守山店", "滋賀県守山市勝部3-2-20", "JR琵琶湖線「守山駅」から徒歩10分"),
    "nishinomiya": Store("グループホームあさがお西宮", "兵庫県西宮市甲子園口3-14-6", "JR神戸線「甲子園口駅」から徒歩6分"),
    "ashiya": Store("グループホームあさがお芦屋", "兵庫県芦屋市大原町22-9", "JR神戸線「芦屋駅」から徒歩8分"),
    "omiya": Store("マルヨシ 大宮東口店", "埼玉県さいたま市大宮区宮町4-31", "JR「大宮駅」東口から徒歩7分"),
    "urawa": Store("マルヨシ 浦和本太店", "埼玉県さいたま市浦和区本太2-5-11", "JR「浦和駅」東口からバス5分"),
}


def _given(post: dict[str, Any], **fields: str | None) -> dict[str, Any]:
    """`post` with the optional fields that are given (None: the site leaves the field out)."""
    return post | {k: v for k, v in fields.items() if v is not None}


def ja_store_post(pid: str, ch: JaChain, store: Store, date: str, *, emp: str = "正社員",
                  pay: str = "月給23万円〜30万円", title: str | None = None, location: bool = True,
                  company: str | None = None, v: int = 0, hours: str | None = None, footer: str = "",
                  role: str | None = None, quals: str | None = None, source: str = "board") -> dict[str, Any]:
    """A store's ad on a Japanese job board from its chain's template: 【仕事内容】【雇用形態】【給与】【勤務地】
    【アクセス】 sections; only the store, its address and station (and what the arguments change) differ."""
    role = role or ch.role
    intro = ch.intro if v == 0 else ch.intro.replace("しています。", "しています！", 1) + "オープニング以来の仲間も多数活躍中。"
    duties = ch.duties if v == 0 else (ch.duties[0], ch.duties[1].replace("いただきます", "もらいます"))
    parts = [intro, "【仕事内容】\n" + "\n".join(duties), f"【応募資格】\n{quals or ch.quals}", f"【雇用形態】\n{emp}",
             f"【給与】\n{pay}" + ("（試用期間3か月・同条件）" if emp == "正社員" else "（研修期間あり・同条件）"),
             f"【勤務時間】\n{hours or ch.hours}", f"【勤務地】\n{store.name}\n{store.address}",
             f"【アクセス】\n{store.access}", f"【休日休暇】\n{ch.holidays}",
             "【待遇・福利厚生】\n交通費支給（月3万円まで）、社会保険完備、制服貸与、社員割引",
             f"【会社概要】\n{ch.legal}\nhttps://{ch.site}"]
    if footer:
        parts.append(footer)
    post = {"id": pid, "title": title or f"{role}（{emp}）◆{store.name}", "description": "\n\n".join(parts),
            "posted_at": f"{date}T00:00:00Z", "source": source}
    place = (store.address.split("区")[0] + "区" if "区" in store.address else store.address[:6]) if location else None
    return _given(post, company=company, location=place)


def _ja_job_board_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    s, cafe, drug, care, mart = _JA_STORES, _JA_CAFE, _JA_DRUG, _JA_CARE, _JA_MART
    # -- branch: one template, several stores (apart); one store reposted or cross-posted (merge)
    add(Case("ja-branch-ward", "branch", "ja",
             ja_store_post("ja-branch-ward-a", cafe, s["ebisu"], "2026-01-05", company=cafe.legal),
             ja_store_post("ja-branch-ward-b", cafe, s["yoyogi"], "2026-01-05", company=cafe.legal),
             False, "PARTIAL", same_profile=False, note="two stores in one ward: store, address and station differ"))
    add(Case("ja-branch-ward-notitle", "branch", "ja",
             ja_store_post("ja-branch-ward-notitle-a", cafe, s["ebisu"], "2026-01-05",
                           title="カフェスタッフ（正社員）◆未経験歓迎◆賞与年2回", location=False),
             ja_store_post("ja-branch-ward-notitle-b", cafe, s["yoyogi"], "2026-01-05",
                           title="カフェスタッフ（正社員）◆未経験歓迎◆賞与年2回", location=False),
             False, "PARTIAL", same_profile=False, note="the store only under 【勤務地】/【アクセス】, one title"))
    add(Case("ja-branch-city", "branch", "ja",
             ja_store_post("ja-branch-city-a", drug, s["kusatsu"], "2026-01-05", pay="月給25万円〜31万円",
                           company=drug.legal),
             ja_store_post("ja-branch-city-b", drug, s["moriyama"], "2026-01-05", pay="月給25万円〜31万円",
                           company=drug.legal),
             False, "PARTIAL", same_profile=False, note="two stores in two neighbouring cities"))
    add(Case("ja-branch-care", "branch", "ja",
             ja_store_post("ja-branch-care-a", care, s["nishinomiya"], "2026-01-05", pay="月給22万円〜26万円",
                           title="介護職員（正社員）◆グループホーム◆日勤中心"),
             ja_store_post("ja-branch-care-b", care, s["ashiya"], "2026-01-05", pay="月給22万円〜26万円",
                           title="介護職員（正社員）◆グループホーム◆日勤中心"),
             False, "PARTIAL", same_profile=False, note="two facilities of one care company, one title"))
    add(Case("ja-branch-super", "branch", "ja",
             ja_store_post("ja-branch-super-a", mart, s["omiya"], "2026-01-05", emp="パート", pay="時給1,150円〜",
                           company=mart.legal, title="鮮魚担当パート（マルヨシ大宮東口店）"),
             ja_store_post("ja-branch-super-b", mart, s["urawa"], "2026-01-05", emp="パート", pay="時給1,150円〜",
                           company=mart.legal, title="鮮魚担当パート（マルヨシ浦和本太店）"),
             False, "PARTIAL", same_profile=False, note="two supermarkets in one city (two wards)"))
    add(Case("ja-branch-far", "branch", "ja",
             ja_store_post("ja-branch-far-a", cafe, s["ebisu"], "2026-01-05", location=False),
             ja_store_post("ja-branch-far-b", cafe, s["machida"], "2026-01-05", location=False),
             False, "PARTIAL", same_profile=False, note="two stores in two cities, the place only in the text"))
    base = ja_store_post("ja-branch-repost-a", cafe, s["ebisu"], "2026-01-05", company=cafe.legal)
    add(Case("ja-branch-repost", "branch", "ja", base,
             ja_store_post("ja-branch-repost-b", cafe, s["ebisu"], "2026-02-09", company=cafe.legal,
                           pay="月給24万円〜31万円", v=1),
             True, "TEMPORAL", note="one store reposted a month later, pay raised, intro touched"))
    add(Case("ja-branch-site", "branch", "ja", base | {"id": "ja-branch-site-a"},
             {k: v for k, v in base.items() if k != "company"}
             | {"id": "ja-branch-site-b", "source": "other", "title": base["title"] + "【飲食・フード】"},
             True, "FULL", same_profile=True, note="one store's ad on a second site: no company, a category tag"))
    base = ja_store_post("ja-branch-footer-a", drug, s["kusatsu"], "2026-01-05", pay="月給25万円〜31万円",
                         location=False)
    add(Case("ja-branch-footer", "branch", "ja", base,
             base | {"id": "ja-branch-footer-b", "source": "other", "description": base["description"]
                     + "\n\n※この求人情報は「はたらくタウン」に掲載されています。掲載期間：2026年1月5日〜2月2日"},
             True, "FULL", same_profile=True, note="one store's ad with a platform footer"))
    base = ja_store_post("ja-branch-access-a", care, s["ashiya"], "2026-01-05", pay="月給22万円〜26万円")
    add(Case("ja-branch-access", "branch", "ja", base,
             base | {"id": "ja-branch-access-b", "posted_at": "2026-01-26T00:00:00Z",
                     "description": base["description"].replace(s["ashiya"].access, "JR芦屋駅から徒歩8分（阪急芦屋川駅からも徒歩圏）")},
             True, "TEMPORAL", note="one facility, the access line reworded"))

    # -- terms: one store and role under other terms (apart); the same terms reposted (merge)
    add(Case("ja-terms-emp", "terms", "ja",
             ja_store_post("ja-terms-emp-a", cafe, s["machida"], "2026-01-05", company=cafe.legal),
             ja_store_post("ja-terms-emp-b", cafe, s["machida"], "2026-01-05", company=cafe.legal,
                           emp="アルバイト・パート", pay="時給1,200円〜", hours="7:00〜22:00の間で1日4時間〜、週3日〜OK"),
             False, "PARTIAL", same_profile=False, note="正社員 / 月給 vs アルバイト・パート / 時給, one store"))
    add(Case("ja-terms-emp-title", "terms", "ja",
             ja_store_post("ja-terms-emp-title-a", drug, s["moriyama"], "2026-01-05", pay="月給25万円〜31万円",
                           title="登録販売者◆土日休み相談OK◆残業少なめ"),
             ja_store_post("ja-terms-emp-title-b", drug, s["moriyama"], "2026-01-05", emp="パート",
                           pay="時給1,250円〜1,400円", title="登録販売者◆土日休み相談OK◆残業少なめ"),
             False, "PARTIAL", same_profile=False, note="one title, employment type and pay unit only in the body"))
    add(Case("ja-terms-shift", "terms", "ja",
             ja_store_post("ja-terms-shift-a", care, s["nishinomiya"], "2026-01-05", pay="月給22万円〜26万円",
                           title="介護職員（日勤のみ）◆グループホーム", hours="9:00〜18:00（休憩1時間）"),
             ja_store_post("ja-terms-shift-b", care, s["nishinomiya"], "2026-01-05", emp="パート",
                           pay="夜勤1回 2万2,000円", title="介護職員（夜勤専従）◆グループホーム",
                           hours="16:30〜翌9:30（休憩2時間）月8回〜"),
             False, "PARTIAL", same_profile=False, note="day vs night-only shift of one facility"))
    add(Case("ja-terms-shift-factory", "terms", "ja",
             ja_store_post("ja-terms-shift-factory-a", mart, s["omiya"], "2026-01-05", emp="パート",
                           pay="時給1,150円〜", title="鮮魚担当パート◆扶養内OK", hours="6:00〜11:00"),
             ja_store_post("ja-terms-shift-factory-b", mart, s["omiya"], "2026-01-05", emp="パート",
                           pay="時給1,250円〜", title="鮮魚担当パート◆扶養内OK", hours="15:00〜20:00（夕方勤務）"),
             False, "PARTIAL", same_profile=False, note="morning vs evening shift, one title, pay tier with it"))
    add(Case("ja-terms-tier", "terms", "ja",
             ja_store_post("ja-terms-tier-a", cafe, s["yoyogi"], "2026-01-05", role="店長候補",
                           pay="月給28万円〜35万円", quals="飲食店での店長または副店長の経験が2年以上ある方。"),
             ja_store_post("ja-terms-tier-b", cafe, s["yoyogi"], "2026-01-05", role="カフェスタッフ",
                           pay="月給23万円〜26万円"),
             False, "PARTIAL", same_profile=False, note="two grades of one store: store manager candidate vs staff"))
    base = ja_store_post("ja-terms-repost-a", cafe, s["machida"], "2026-01-05", emp="アルバイト・パート",
                         pay="時給1,200円〜", hours="7:00〜22:00の間で1日4時間〜、週3日〜OK")
    add(Case("ja-terms-repost", "terms", "ja", base,
             ja_store_post("ja-terms-repost-b", cafe, s["machida"], "2026-02-16", emp="アルバイト・パート",
                           pay="時給1,250円〜", hours="7:00〜22:00の間で1日4時間〜、週3日〜OK", v=1),
             True, "TEMPORAL", note="the part-time ad reposted with the hourly pay raised"))
    base = ja_store_post("ja-terms-night-a", care, s["nishinomiya"], "2026-01-05", emp="パート",
                         pay="夜勤1回 2万2,000円", title="介護職員（夜勤専従）◆グループホーム",
                         hours="16:30〜翌9:30（休憩2時間）月8回〜", company=care.legal)
    add(Case("ja-terms-night-site", "terms", "ja", base,
             {k: v for k, v in base.items() if k != "company"} | {"id": "ja-terms-night-site-b", "source": "other"},
             True, "FULL", same_profile=True, note="the night-shift ad on a second site without the company"))

    # -- agency: a dispatch / placement agency's template for different client jobs (apart)
    def haken(pid: str, client: str, work: str, place: str, station: str, pay: str, date: str = "2026-01-05",
              title: str | None = None, company: str | None = "株式会社ワークブリッジ", v: int = 0) -> dict[str, Any]:
        parts = ["＼大手企業でのお仕事多数／ワークブリッジの派遣なら、専任のコーディネーターが就業後までしっかりサポート。"
                 "初めて派遣で働く方も安心してご応募ください。" if v == 0 else
                 "ワークブリッジの派遣は、専任コーディネーターが就業後もサポートします。はじめての派遣でも安心です。",
                 f"【派遣先】\n{client}", f"【仕事内容】\n{work}", "【応募資格】\n基本的なPC操作（Word・Excelの入力）ができる方",
                 "【雇用形態】\n派遣社員（3か月ごとの更新・長期）", f"【給与】\n{pay}（交通費別途支給）",
                 "【勤務時間】\n9:00〜17:30（休憩1時間）残業月10時間程度", f"【勤務地】\n{place}", f"【最寄り駅】\n{station}",
                 "【休日休暇】\n土日祝、年末年始、有給休暇（法定通り）",
                 "【派遣会社】\n株式会社ワークブリッジ 労働者派遣事業 派13-301234\nhttps://workbridge-staff.jp"]
        post = {"id": pid, "title": title or f"【派遣】{work.split('。')[0][:14]}◆{pay.split('（')[0]}",
                "description": "\n\n".join(parts), "posted_at": f"{date}T00:00:00Z", "source": "board"}
        return _given(post, company=company)

    add(Case("ja-agency-office", "agency", "ja",
             haken("ja-agency-office-a", "大手電機メーカーの経理部", "請求書の発行と入金確認、伝票入力をお願いします。",
                   "東京都品川区大崎", "JR山手線「大崎駅」徒歩5分", "時給1,650円"),
             haken("ja-agency-office-b", "物流会社の営業所", "出荷伝票の入力と電話応対、来客対応をお願いします。",
                   "埼玉県さいたま市北区", "JR「宮原駅」徒歩12分", "時給1,400円"),
             False, "PARTIAL", same_profile=False, note="one agency template, two client jobs (office work)"))
    add(Case("ja-agency-same-work", "agency", "ja",
             haken("ja-agency-same-work-a", "外資系製薬会社の総務部", "データ入力と書類の整理、電話の一次対応をお願いします。",
                   "東京都中央区日本橋", "東京メトロ銀座線「三越前駅」徒歩3分", "時給1,700円", title="【派遣】一般事務◆データ入力中心"),
             haken("ja-agency-same-work-b", "建設会社の本社管理部", "データ入力と書類の整理、電話の一次対応をお願いします。",
                   "神奈川県横浜市西区", "みなとみらい線「みなとみらい駅」徒歩4分", "時給1,550円",
                   title="【派遣】一般事務◆データ入力中心"),
             False, "PARTIAL", same_profile=False,
             note="one agency, one job description, two clients in two cities: only client, place, station, pay differ"))
    add(Case("ja-agency-call", "agency", "ja",
             haken("ja-agency-call-a", "通信会社のカスタマーセンター", "料金プランに関するお問い合わせの電話対応をお願いします。",
                   "大阪府大阪市中央区", "大阪メトロ御堂筋線「本町駅」徒歩2分", "時給1,500円"),
             haken("ja-agency-call-b", "大手通販会社の物流センター", "商品のピッキングと検品、梱包をお願いします。",
                   "大阪府大阪市住之江区", "ニュートラム「中ふ頭駅」徒歩6分", "時給1,350円"),
             False, "PARTIAL", same_profile=False, note="one agency template: call center vs warehouse"))
    base = haken("ja-agency-site-a", "大手電機メーカーの経理部", "請求書の発行と入金確認、伝票入力をお願いします。",
                 "東京都品川区大崎", "JR山手線「大崎駅」徒歩5分", "時給1,650円")
    add(Case("ja-agency-site", "agency", "ja", base,
             {k: v for k, v in base.items() if k != "company"} | {"id": "ja-agency-site-b", "source": "other"},
             True, "FULL", same_profile=True, note="one dispatch job on a second site without the company"))
    add(Case("ja-agency-repost", "agency", "ja",
             haken("ja-agency-repost-a", "外資系製薬会社の総務部", "データ入力と書類の整理、電話の一次対応をお願いします。",
                   "東京都中央区日本橋", "東京メトロ銀座線「三越前駅」徒歩3分", "時給1,700円", title="【派遣】一般事務◆データ入力中心"),
             haken("ja-agency-repost-b", "外資系製薬会社の総務部", "データ入力と書類の整理、電話の一次対応をお願いします。",
                   "東京都中央区日本橋", "東京メトロ銀座線「三越前駅」徒歩3分", "時給1,750円", date="2026-01-26",
                   title="【派遣】一般事務◆データ入力中心", v=1),
             True, "TEMPORAL", note="one dispatch job reposted, hourly pay raised, intro reworded"))

    # -- a small company's markdown job pages on one template (crawled versions of each page)
    def page(pid: str, role: str, work: list[str], date: str, *, contract: str = "業務委託", heads: int = 1,
             pay: str = "〜100万円/月", tools: tuple[str, ...] = ("Slack", "Zoom", "GitHub")) -> dict[str, Any]:
        body = [f"# {role}（{contract}{heads}名）", "## 仕事内容", *(f"* {w}" for w in work),
                "## 期間", "* 2026年4月〜（長期）", "## 契約形態", f"* {contract}", "## 報酬", f"* {pay}",
                "## 勤務地", "* 東京都内（一部リモートワーク）", "## 仕事の進め方",
                "* 2週間ごとのスプリントで目標を決めて進めます", "* 週1回の定例でチームの状況を共有します",
                "## 使用ツール", *(f"* {t}" for t in tools), "## 選考方法", "1. 書類選考", "1. オンライン面談（1〜2回）",
                "## ご応募", "* フォームまたはメール（recruit@tsubasa-sys.example）でご連絡ください。"]
        return {"id": pid, "title": f"{role}（{contract}）", "description": "\n\n".join(body),
                "posted_at": f"{date}T00:00:00Z", "source": "site"}

    k8s = ["既存アプリケーションのKubernetesへの移行", "運用作業のGoによる自動化", "監視とアラートの設計"]
    dba = ["PostgreSQLのスロークエリ調査とチューニング", "バックアップとリストア手順の整備", "監視とアラートの設計"]
    add(Case("ja-page-role", "other_role", "ja",
             page("ja-page-role-a", "Kubernetesエンジニア", k8s, "2026-01-05"),
             page("ja-page-role-b", "データベースエンジニア", dba, "2026-01-05"),
             False, "PARTIAL", same_profile=False, note="one company's markdown page template, two roles"))
    add(Case("ja-page-terms", "terms", "ja",
             page("ja-page-terms-a", "Kubernetesエンジニア", k8s, "2026-01-05"),
             page("ja-page-terms-b", "Kubernetesエンジニア", k8s, "2026-01-05", contract="正社員", pay="年収700万円〜900万円"),
             False, "PARTIAL", same_profile=False, note="one role as a contract (業務委託, monthly fee) and as an employee"))
    add(Case("ja-page-repost", "terms", "ja",
             page("ja-page-repost-a", "Kubernetesエンジニア", k8s, "2026-01-05", heads=2),
             page("ja-page-repost-b", "Kubernetesエンジニア", k8s, "2026-02-20", heads=1,
                  tools=("Slack", "Zoom", "GitHub", "Notion")),
             True, "TEMPORAL", note="the page crawled again: one of two openings filled, a tool added"))
    add(Case("ja-terms-grade", "terms", "ja",
             ja_store_post("ja-terms-grade-a", drug, s["kusatsu"], "2026-01-05", pay="月給28万円〜34万円",
                           title="登録販売者（経験者）◆店長候補", quals="登録販売者として3年以上の実務経験がある方。"),
             ja_store_post("ja-terms-grade-b", drug, s["kusatsu"], "2026-01-05", pay="月給22万円〜24万円",
                           title="登録販売者（実務経験なし歓迎）◆研修充実"),
             False, "PARTIAL", same_profile=False, note="two pay grades of one role at one store (seniority)"))

    # -- other_role / other_city variants on the store template
    add(Case("ja-branch-nurse", "other_role", "ja",
             ja_store_post("ja-branch-nurse-a", care, s["ashiya"], "2026-01-05", role="看護職員", pay="月給27万円〜32万円",
                           quals="正看護師または准看護師の資格をお持ちの方。", company=care.legal),
             ja_store_post("ja-branch-nurse-b", care, s["ashiya"], "2026-01-05", role="介護職員", pay="月給22万円〜26万円",
                           company=care.legal),
             False, "PARTIAL", same_profile=False, note="one facility's template: 看護職員 vs 介護職員"))
    add(Case("ja-branch-pref", "other_city", "ja",
             ja_store_post("ja-branch-pref-a", mart, Store("マルヨシ 川口店", "埼玉県川口市栄町2-7-1", "JR京浜東北線「川口駅」徒歩6分"),
                           "2026-01-05", title="鮮魚担当（正社員）◆週休2日", pay="月給24万円〜29万円"),
             ja_store_post("ja-branch-pref-b", mart, Store("マルヨシ 松戸店", "千葉県松戸市本町18-4", "JR常磐線「松戸駅」徒歩5分"),
                           "2026-01-05", title="鮮魚担当（正社員）◆週休2日", pay="月給24万円〜29万円"),
             False, "PARTIAL", same_profile=False, note="the same role in two prefectures, one title"))
    return out


def en_store_post(pid: str, store: Store, date: str, *, kind: str = "Full-time", pay: str = "$21-$24 an hour",
                  shift: str = "Shifts between 6am and 3pm, five days a week", title: str | None = None,
                  company: str | None = "Juniper Coffee Co.", location: str | None = "Denver, CO", v: int = 0,
                  footer: str = "", source: str = "board") -> dict[str, Any]:
    """A coffee chain's store ad (job board, fields): one template, the store's name, address and transit line."""
    intro = ("Juniper Coffee roasts in small batches and runs 17 neighborhood cafes across the Front Range. "
             "We hire for warmth first and teach the coffee." if v == 0 else
             "Juniper Coffee is a small-batch roaster with 17 neighborhood cafes on the Front Range; we hire for "
             "warmth and teach the rest.")
    paras = [intro, "What you'll do: lead the floor during your shift, pull shots and steam milk, coach new "
             "baristas and count the till at close.",
             "What we ask: a year of cafe or restaurant experience and weekend availability.",
             f"Employment: {kind}", f"Pay: {pay} plus tips", f"Schedule: {shift}",
             f"Store: {store.name}, {store.address}", f"Getting there: {store.access}",
             "Benefits: free drinks, a pound of coffee a week, health insurance from 25 hours a week.",
             "Apply at https://junipercoffee.com/careers"]
    if footer:
        paras.append(footer)
    post = {"id": pid, "title": title or f"Shift Supervisor ({kind}) - {store.name}", "description": "\n\n".join(paras),
            "posted_at": f"{date}T09:00:00Z", "source": source}
    return _given(post, company=company, location=location)


_EN_STORES = {
    "pearl": Store("Juniper Coffee Pearl Street", "1420 Pearl St, Denver", "two blocks from the 16th Street Mall shuttle"),
    "tennyson": Store("Juniper Coffee Tennyson", "4018 Tennyson St, Denver", "bus 44 stops at the door"),
    "boulder": Store("Juniper Coffee Boulder Canyon", "2305 Canyon Blvd, Boulder", "a short walk from the Downtown Boulder station"),
}


def _en_job_board_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    s = _EN_STORES
    add(Case("en-branch-store", "branch", "en",
             en_store_post("en-branch-store-a", s["pearl"], "2026-01-05"),
             en_store_post("en-branch-store-b", s["tennyson"], "2026-01-05"),
             False, "PARTIAL", same_profile=False, note="one chain's template, two stores in one city"))
    add(Case("en-branch-store-title", "branch", "en",
             en_store_post("en-branch-store-title-a", s["pearl"], "2026-01-05", title="Cafe Shift Supervisor"),
             en_store_post("en-branch-store-title-b", s["boulder"], "2026-01-05", title="Cafe Shift Supervisor",
                           location="Boulder, CO"),
             False, "PARTIAL", same_profile=False, note="two stores, one title: the store only in the text"))
    base = en_store_post("en-branch-site-a", s["pearl"], "2026-01-05")
    add(Case("en-branch-site", "branch", "en", base,
             {k: v for k, v in base.items() if k != "company"}
             | {"id": "en-branch-site-b", "source": "other", "title": base["title"] + " | Food & Hospitality"},
             True, "FULL", same_profile=True, note="one store's ad on a second site: no company, a category"))
    add(Case("en-branch-repost", "branch", "en", base | {"id": "en-branch-repost-a"},
             en_store_post("en-branch-repost-b", s["pearl"], "2026-02-09", pay="$22-$25 an hour", v=1),
             True, "TEMPORAL", note="one store reposted, pay raised, intro reworded"))
    add(Case("en-terms-emp", "terms", "en",
             en_store_post("en-terms-emp-a", s["tennyson"], "2026-01-05"),
             en_store_post("en-terms-emp-b", s["tennyson"], "2026-01-05", kind="Part-time", pay="$19-$21 an hour",
                           shift="Weekend shifts, 16-24 hours a week"),
             False, "PARTIAL", same_profile=False, note="full-time vs part-time at one store"))
    add(Case("en-terms-shift", "terms", "en",
             en_store_post("en-terms-shift-a", s["boulder"], "2026-01-05", title="Shift Supervisor - Opening shift",
                           location="Boulder, CO"),
             en_store_post("en-terms-shift-b", s["boulder"], "2026-01-05", title="Shift Supervisor - Closing shift",
                           shift="Shifts between 1pm and 10pm, five days a week", pay="$22-$25 an hour",
                           location="Boulder, CO"),
             False, "PARTIAL", same_profile=False, note="opening vs closing shift at one store"))
    base = en_store_post("en-terms-repost-a", s["tennyson"], "2026-01-05", kind="Part-time", pay="$19-$21 an hour",
                         shift="Weekend shifts, 16-24 hours a week")
    add(Case("en-terms-repost", "terms", "en", base,
             en_store_post("en-terms-repost-b", s["tennyson"], "2026-02-02", kind="Part-time", pay="$20-$22 an hour",
                           shift="Weekend shifts, 16-24 hours a week", v=1),
             True, "TEMPORAL", note="the part-time ad reposted, pay raised"))
    return out


def zh_store_post(pid: str, store: Store, date: str, *, kind: str = "全职", pay: str = "月薪8000-10000元",
                  shift: str = "早班 7:00-16:00，做五休二", title: str | None = None, v: int = 0,
                  company: str | None = None, footer: str = "") -> dict[str, Any]:
    """A bakery chain's store ad: one template, the store's name, address and metro line differ."""
    intro = ("麦穗烘焙是一家扎根上海的连锁烘焙品牌，目前在上海有 26 家门店，坚持每天门店现烤。" if v == 0 else
             "麦穗烘焙扎根上海，26 家门店，所有面包当天现烤。")
    parts = ["### 关于我们", intro, "### 岗位职责",
             "1. 负责门店的日常运营，排班、订货和库存盘点；", "2. 带领店员做好出品和服务，处理顾客反馈；",
             "3. 三年以上餐饮或零售门店经验，一年以上带团队经验；",
             f"### 工作性质\n{kind}", f"### 薪资福利\n{pay}，五险一金，员工餐，节日福利。", f"### 工作时间\n{shift}",
             f"### 工作地点\n{store.name}（{store.address}）\n{store.access}", "### 联系方式\n简历请发送至 hr@maisui-bakery.cn"]
    if footer:
        parts.append(footer)
    post = {"id": pid, "title": title or f"【上海】麦穗烘焙招聘门店店长（{store.name}）", "description": "\n".join(parts),
            "posted_at": f"{date}T08:00:00Z", "source": "rebase"}
    return _given(post, company=company)


_ZH_STORES = {
    "xuhui": Store("徐汇店", "上海市徐汇区漕溪北路 88 号", "地铁 1 号线徐家汇站 5 号口步行 3 分钟"),
    "jingan": Store("静安店", "上海市静安区南京西路 1515 号", "地铁 2 号线静安寺站 1 号口步行 2 分钟"),
    "pudong": Store("浦东金桥店", "上海市浦东新区金桥路 1398 号", "地铁 9 号线金桥站步行 6 分钟"),
}


def _zh_job_board_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    s = _ZH_STORES
    add(Case("zh-branch-store", "branch", "zh",
             zh_store_post("zh-branch-store-a", s["xuhui"], "2026-01-05"),
             zh_store_post("zh-branch-store-b", s["jingan"], "2026-01-05"),
             False, "PARTIAL", same_profile=False, note="one chain's template, two stores in one city"))
    add(Case("zh-branch-store-title", "branch", "zh",
             zh_store_post("zh-branch-store-title-a", s["xuhui"], "2026-01-05", title="【上海】麦穗烘焙招聘门店店长"),
             zh_store_post("zh-branch-store-title-b", s["pudong"], "2026-01-05", title="【上海】麦穗烘焙招聘门店店长"),
             False, "PARTIAL", same_profile=False, note="two stores, one title: the store only under 工作地点"))
    base = zh_store_post("zh-branch-repost-a", s["jingan"], "2026-01-05")
    add(Case("zh-branch-repost", "branch", "zh", base,
             zh_store_post("zh-branch-repost-b", s["jingan"], "2026-02-09", pay="月薪8500-10500元", v=1),
             True, "TEMPORAL", note="one store reposted, pay raised, intro reworded"))
    add(Case("zh-branch-site", "branch", "zh", base | {"id": "zh-branch-site-a"}, base | {"id": "zh-branch-site-b", "company": "上海麦穗餐饮管理有限公司",
                                                        "source": "other", "title": base["title"] + " | 餐饮"},
             True, "FULL", same_profile=True, note="one store's ad on a second site: a company field, a category"))
    add(Case("zh-terms-emp", "terms", "zh",
             zh_store_post("zh-terms-emp-a", s["xuhui"], "2026-01-05", title="【上海】麦穗烘焙招聘门店店员（徐汇店）"),
             zh_store_post("zh-terms-emp-b", s["xuhui"], "2026-01-05", title="【上海】麦穗烘焙招聘门店店员（徐汇店）",
                           kind="兼职", pay="时薪 25 元", shift="周末 10:00-18:00，每周至少两天"),
             False, "PARTIAL", same_profile=False, note="全职 / 月薪 vs 兼职 / 时薪 at one store, one title"))
    add(Case("zh-terms-shift", "terms", "zh",
             zh_store_post("zh-terms-shift-a", s["pudong"], "2026-01-05", title="【上海】麦穗烘焙招聘烘焙师（白班）"),
             zh_store_post("zh-terms-shift-b", s["pudong"], "2026-01-05", title="【上海】麦穗烘焙招聘烘焙师（夜班）",
                           pay="月薪9500-11500元", shift="夜班 22:00-次日 6:00，做五休二"),
             False, "PARTIAL", same_profile=False, note="day vs night shift at one store"))
    def hunt(pid: str, client: str, duty: str, city: str, pay: str, date: str = "2026-01-05", v: int = 0) -> dict[str, Any]:
        intro = ("远帆猎头专注互联网与新能源行业中高端职位，以下职位为客户委托招聘，简历仅推荐给该客户，严格保密。" if v == 0 else
                 "远帆猎头（互联网 / 新能源中高端职位），本职位受客户委托，简历只推荐给该客户并严格保密。")
        parts = ["### 关于我们", intro, f"### 客户\n{client}", "### 岗位职责", f"1. {duty}",
                 "2. 参与系统架构设计和技术方案评审；", "3. 五年以上相关经验，本科及以上学历；",
                 f"### 薪资福利\n{pay}，五险一金，年终奖。", f"### 工作地点\n{city}", "### 联系方式\n简历请发送至 cv@yuanfan-hunt.cn"]
        return {"id": pid, "title": f"【{city[:2]}】远帆猎头招聘资深后端工程师（{pay.split('，')[0]}）",
                "description": "\n".join(parts), "posted_at": f"{date}T08:00:00Z", "source": "rebase"}

    add(Case("zh-agency-client", "agency", "zh",
             hunt("zh-agency-client-a", "某头部跨境电商平台（B 轮后）", "负责订单与支付系统的后端开发；", "上海市浦东新区", "月薪40-55K"),
             hunt("zh-agency-client-b", "某新能源车企数字化中心", "负责车联网数据平台的后端开发；", "深圳市南山区", "月薪35-50K"),
             False, "PARTIAL", same_profile=False, note="one headhunter's template, two clients' jobs in two cities"))
    add(Case("zh-agency-repost", "agency", "zh",
             hunt("zh-agency-repost-a", "某头部跨境电商平台（B 轮后）", "负责订单与支付系统的后端开发；", "上海市浦东新区", "月薪40-55K"),
             hunt("zh-agency-repost-b", "某头部跨境电商平台（B 轮后）", "负责订单与支付系统的后端开发；", "上海市浦东新区", "月薪40-60K",
                  date="2026-02-10", v=1),
             True, "TEMPORAL", note="one client's job reposted, the top of the range raised, the intro reworded"))
    base = zh_store_post("zh-terms-repost-a", s["xuhui"], "2026-01-05", kind="兼职", pay="时薪 25 元",
                         shift="周末 10:00-18:00，每周至少两天", title="【上海】麦穗烘焙招聘门店店员（徐汇店）")
    add(Case("zh-terms-repost", "terms", "zh", base,
             zh_store_post("zh-terms-repost-b", s["xuhui"], "2026-02-02", kind="兼职", pay="时薪 27 元",
                           shift="周末 10:00-18:00，每周至少两天", title="【上海】麦穗烘焙招聘门店店员（徐汇店）", v=1),
             True, "TEMPORAL", note="the part-time ad reposted, hourly pay raised"))
    return out


def job_board_cases() -> list[Case]:
    """The s5-i9-ja block: job-board multi-posting classes, en / zh / ja."""
    return [*_en_job_board_cases(), *_zh_job_board_cases(), *_ja_job_board_cases()]
# ============================================================================ end of s5-i9-ja block


# ============================================================================ s6-i9-zh block (role names)
# Block of branch s6-i9-zh: Chinese role names written two ways over the same duties (merge) and another
# specialty behind one head (apart); texts written for these tests.

_S6_FE = ["负责交易终端 Web 页面的开发，和设计、后端一起交付新功能；", "维护 React + TypeScript 组件库与行情图表；",
          "优化首屏加载和 WebSocket 推送的渲染性能。"]
_S6_OPS = ["负责安全运维：服务器加固、漏洞扫描和入侵检测告警的处理；", "维护堡垒机、VPN 与密钥管理系统；",
           "配合审计完成等保测评与应急演练。"]


def _s6_zh_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    intro = "白沙交易所成立于2021年，面向东南亚用户提供现货与合约交易，团队约六十人，全员远程。"
    contact = "TG: @baisha_jobs  邮箱 talent@baisha.exchange"
    add(Case("zh-s6-head", "other_role", "zh",
             _board_post("zh-s6-head-a", "[远端] 招募 资深 前端 开发 ( 交易终端 )", "后端", "2025-09-01", intro=intro,
                         pay="面议", place="远程", contact=contact, duties=_S6_FE),
             _board_post("zh-s6-head-b", "[远程] 白沙交易所诚聘 资深前端工程师(交易终端) 薪水 6000-8000 USD", "后端",
                         "2025-10-20", intro=intro, pay="6000-8000 USD / 月", place="远程", contact=contact, duties=_S6_FE),
             True, "TEMPORAL", note="前端开发 / 前端工程师, a title written with spaces between its words"))
    add(Case("zh-s6-typo", "other_role", "zh",
             _board_post("zh-s6-typo-a", "[马尼拉] 安全维运工程师 薪水:5000-8000 USD", "后端", "2025-06-02", intro=intro,
                         pay="5000-8000 USD", place="马尼拉", contact=contact, duties=_S6_OPS),
             _board_post("zh-s6-typo-b", "[马尼拉]  安全运维工程师 （安全方向）", "后端", "2025-06-23", intro=intro,
                         pay="面议", place="马尼拉", contact=contact, duties=_S6_OPS),
             True, "TEMPORAL", note="two characters of the role transposed (维运 / 运维)"))
    add(Case("zh-s6-label", "other_role", "zh",
             _board_post("zh-s6-label-a", "【远程】白沙交易所测试工程师", "后端", "2025-04-07", intro=intro, pay="面议",
                         place="远程", contact=contact,
                         duties=["职位名称：交易所测试工程师（远程办公）", "负责撮合、资产与充提系统的功能和回归测试；",
                                 "编写接口自动化脚本，参与压测；", "跟踪缺陷并输出测试报告。"]),
             _board_post("zh-s6-label-b", "【远程】- CEX - QA 测试工程师", "后端", "2025-11-11", intro=intro, pay="面议",
                         place="远程", contact=contact,
                         duties=["远程办公 - 交易所 - 测试工程师", "负责撮合、资产与充提系统的功能和回归测试；",
                                 "编写接口自动化脚本，参与压测；", "跟踪缺陷并输出测试报告。"]),
             True, "TEMPORAL", note="a role line's label / place is no role; QA = 测试"))
    add(Case("zh-s6-fe-be", "other_role", "zh",
             _board_post("zh-s6-fe-be-a", "[远程] 白沙交易所诚聘 前端开发工程师 薪水 20K-35K RMB", "后端", "2025-08-04",
                         intro=intro, pay="20K-35K RMB", place="远程", contact=contact, duties=_S6_FE),
             _board_post("zh-s6-fe-be-b", "[远程] 白沙交易所诚聘 后端开发工程师 薪水 25K-40K RMB", "后端", "2025-08-04",
                         intro=intro, pay="25K-40K RMB", place="远程", contact=contact),
             False, "PARTIAL", note="前端 / 后端 before one head (开发工程师): another role behind the same blurb"))
    add(Case("zh-s6-be-ops", "other_role", "zh",
             _board_post("zh-s6-be-ops-a", "【远程】寻找资深后端工程师-白沙", "后端", "2025-05-12", intro=intro, pay="面议",
                         place="远程", contact=contact),
             _board_post("zh-s6-be-ops-b", "【远程】寻找后端运维工程师-白沙", "后端", "2025-05-12", intro=intro, pay="面议",
                         place="远程", contact=contact, duties=_S6_OPS),
             False, "PARTIAL", note="后端 vs 后端运维: a specialty more that names another role family"))
    return out
# ============================================================================ end of s6-i9-zh block


# ============================================================================ s7-zh block (poster identity)
# Block of branch s7-zh: Chinese board posts that name no company field: the poster known only by a WeChat /
# Telegram handle written without a colon, or the company named in the title before its hiring verb; texts
# written for these tests.

_S7_DUTIES = ["负责永续合约撮合引擎的开发与性能优化，单机延迟控制在毫秒以内；", "设计订单簿与风险引擎之间的消息协议；",
              "排查线上撮合异常，完善压测与回放工具；", "和清算、行情团队一起评审新币种上线方案。"]
_S7_DUTIES_REWORDED = ["开发永续合约的撮合引擎，持续优化性能，把单机延迟压到毫秒级；", "设计订单簿与风险引擎之间的消息协议；",
                       "排查线上撮合异常，完善压测与回放工具；", "与清算、行情同学共同评审新币上线方案。"]


def _s7_zh_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    intro = "我们是一家服务亚洲用户的衍生品交易所，核心团队来自头部券商和互联网公司，目前四十余人，全员远程。"
    intro_new = "团队规模四十多人，成员来自券商与大厂，主营永续合约，用户主要在亚洲，全员远程办公。"
    wechat = "简历请添加微信hexi_zhaopin，备注应聘岗位"
    add(Case("zh-s7-wechat-repost", "employer_name", "zh",
             _board_post("zh-s7-wechat-repost-a", "[远程办公] 衍生品交易所诚聘 撮合引擎Java工程师 薪水 35K-60K RMB", "后端",
                         "2025-03-03", intro=intro, pay="35K-60K RMB / 月", place="远程", contact=wechat, duties=_S7_DUTIES),
             _board_post("zh-s7-wechat-repost-b", "【远程】头部衍生品交易所直招 撮合java工程师，35-60K", "后端", "2025-05-19",
                         intro=intro_new, pay="35K-60K / 月，另有年终", place="远程", contact="微信 Hexi_Zhaopin（注明岗位）",
                         duties=_S7_DUTIES_REWORDED),
             True, "TEMPORAL", note="no company named: one WeChat id (written without a colon) posts the same role again"))
    add(Case("zh-s7-wechat-other", "other_role", "zh",
             _board_post("zh-s7-wechat-other-a", "[远程办公] 衍生品交易所诚聘 撮合引擎Java工程师 薪水 35K-60K RMB", "后端",
                         "2025-07-07", intro=intro, pay="35K-60K RMB / 月", place="远程", contact=wechat, duties=_S7_DUTIES),
             _board_post("zh-s7-wechat-other-b", "[远程办公] 衍生品交易所诚聘 风控专员 薪水 15K-25K RMB", "风控", "2025-07-07",
                         intro=intro, pay="15K-25K RMB / 月", place="远程", contact=wechat,
                         duties=["盯住永续合约的强平、穿仓与异常成交，当班处置风险事件；", "维护爆仓与资金费率的监控看板；",
                                 "和撮合、清算团队复盘每一次风险事件。"]),
             False, "PARTIAL", note="one WeChat poster, the same blurb, another role (its own duty lines: the "
             "default 风控 lines of _board_post are other cases' posters' too, and one file holds all cases)"))
    qintro = "青石链科专注链上期权协议，产品已上线三条公链，团队在新加坡和杭州。"
    add(Case("zh-s7-title-name", "employer_name", "zh",
             _board_post("zh-s7-title-name-a", "Qingshi诚聘“智能合约工程师”30K-50K/月", "合约", "2025-02-10", intro=qintro,
                         pay="30K-50K / 月", place="杭州，可远程", contact="TG@qingshi_hr"),
             _board_post("zh-s7-title-name-b", "QINGSHI 招聘“智能合约工程师” 30K-50K/月", "合约", "2025-04-02", intro=qintro,
                         pay="30K-50K / 月", place="杭州，可远程", contact="TG@qingshi_hr", duties=_BOARD_REWORDED["合约"]),
             True, "TEMPORAL", note="the company named only in the title before its hiring verb, two spellings"))
    add(Case("zh-s7-title-two", "template", "zh",
             _board_post("zh-s7-title-two-a", "Qingshi诚聘“智能合约工程师”30K-50K/月", "合约", "2025-02-11",
                         intro="一家链上期权协议团队，产品已上线三条公链。", pay="30K-50K / 月", place="远程", contact="详见官网"),
             _board_post("zh-s7-title-two-b", "Boreal Labs诚聘“智能合约工程师”30K-50K/月", "合约", "2025-02-11",
                         intro="一家链上期权协议团队，产品已上线三条公链。", pay="30K-50K / 月", place="远程", contact="详见官网"),
             False, "NON", note="one template, two companies named only in their titles"))
    fe = ["负责交易所 Web 端与 H5 页面的开发和维护；", "与设计、后端一起完成行情、下单和资产页面的迭代；",
          "持续优化页面加载速度和渲染性能；"]
    add(Case("zh-s7-duty-lines", "blurb_roles", "zh",
             _board_post("zh-s7-duty-lines-a", "[远程办公] 衍生品交易所诚聘 前端开发工程师 薪水 20K-35K RMB", "后端",
                         "2025-08-04", intro=intro, pay="20K-35K RMB / 月", place="远程", contact=wechat,
                         duties=[*fe, "熟练掌握React前端开发", "使用 TypeScript 进行开发", "图表组件设计与开发"]),
             _board_post("zh-s7-duty-lines-b", "[远程办公] 衍生品交易所诚聘 前端开发工程师 薪水 20K-35K RMB", "后端",
                         "2025-09-15", intro=intro, pay="20K-35K RMB / 月", place="远程", contact=wechat,
                         duties=[*fe, "三年以上 React 和 TypeScript 经验；", "做过 K 线图表组件者优先。"]),
             True, "TEMPORAL", note="requirement lines that end in a role word (…进行开发, …设计与开发) are no roles added"))
    return out
# ============================================================================ end of s7-zh block


# ============================================================================ s8-legal block (employer identity)
# Block of branch s8-legal: one employer under its registered and its short name where nothing else (no contact,
# no company field, the text rewritten) joins the two -- blocking must read both as one trade name
# (signatures.employer.employer_core) -- and two employers sharing the trade-name words, kept apart.

def _s8_legal_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    lz = ZhCo("林泽科技", "苏州林泽科技有限公司", "linze.tech", "苏州", "社区药房的处方流转系统")
    add(Case("zh-s8-title-legal", "employer_name", "zh",
             zh_post("zh-s8-title-legal-a", lz, ["测试工程师"], "2026-01-05", contact=False,
                     title=f"【苏州】{lz.legal}招聘测试工程师"),
             zh_post("zh-s8-title-legal-b", lz, ["测试工程师"], "2026-02-09", v=1, contact=False,
                     title=f"【苏州】{lz.name}招聘测试工程师"),
             True, "TEMPORAL", note="registered name in one title, short name in the other; no contact"))
    lc = ZhCo("林泽资本", "上海林泽资本管理有限公司", "linzecap.com", "上海", "早期医疗项目的股权投资")
    add(Case("zh-s8-tradename-two", "employer_name", "zh",
             zh_post("zh-s8-tradename-two-a", lz, ["数据分析师"], "2026-01-05", contact=False,
                     title=f"【苏州】{lz.legal}招聘数据分析师"),
             zh_post("zh-s8-tradename-two-b", lc, ["数据分析师"], "2026-01-12", contact=False,
                     title=f"【上海】{lc.legal}招聘数据分析师"),
             False, "NON", note="two employers sharing the trade name 林泽: one blocking key, two employers"))
    return out
# ============================================================================ end of s8-legal block


# ============================================================================ s9-zhroles block (Chinese role reading)
# Block of branch s9-zhroles: Chinese titles whose roles are written in brackets (诚聘【X】, a platform note 「（iOS）」),
# a hiring verb inside a role name (海外招聘专家), and one employer under two registered names whose business words
# differ (X科技 / X网络科技). Texts written for these tests.

_S9_DUTIES = ["负责钱包后端服务的开发，保证充值提现链路稳定；", "参与多链节点接入与地址管理模块的设计；", "排查线上故障并补齐监控。"]
_S9_DUTIES_REWORDED = ["开发钱包后端服务，保障充提链路的稳定运行；", "参与设计多链节点接入、地址管理模块；", "定位线上问题，完善监控告警。"]


def _s9_zh_cases() -> list[Case]:
    intro = "云桥钱包服务二十多个国家的用户，团队三十人，分布在杭州和新加坡。"
    intro_new = "我们做多链钱包，用户遍布二十多个国家，团队约三十人，杭州、新加坡两地办公。"
    out: list[Case] = []
    add = out.append
    add(Case("zh-s9-title-bracket", "employer_name", "zh",
             _board_post("zh-s9-title-bracket-a", "[杭州] 云桥网络诚聘【区块链Java开发工程师】20K-35K", "后端", "2025-04-07",
                         intro=intro, pay="20K-35K / 月", place="杭州", contact="简历请发送至 jobs@yunqiao.io",
                         duties=_S9_DUTIES),
             _board_post("zh-s9-title-bracket-b", "[杭州] 云桥网络诚聘 区块链Java开发工程师 （薪资20K-35K）", "后端", "2025-06-16",
                         intro=intro_new, pay="20K-35K / 月，年终另计", place="杭州", contact="简历请发送至 jobs@yunqiao.io",
                         duties=_S9_DUTIES_REWORDED),
             True, "TEMPORAL", note="the role written in 【】 after the hiring verb is the title's role"))
    def flutter(native: str, store: str) -> list[str]:
        return ["负责钱包 App 的 Flutter 开发与维护；", f"对接{native}原生模块，完成推送、生物识别登录；",
                f"两年以上 Flutter 经验，有上架{store}的作品。"]

    add(Case("zh-s9-platform-note", "other_role", "zh",
             _board_post("zh-s9-platform-note-a", "云桥钱包诚聘 Flutter工程师（iOS） 薪水 25K-40K", "后端", "2025-05-12",
                         intro=intro, pay="25K-40K / 月", place="杭州", contact="简历请发送至 jobs@yunqiao.io",
                         duties=flutter(" iOS（Swift）", " App Store ")),
             _board_post("zh-s9-platform-note-b", "云桥钱包诚聘 Flutter工程师（安卓） 薪水 25K-40K", "后端", "2025-05-12",
                         intro=intro, pay="25K-40K / 月", place="杭州", contact="简历请发送至 jobs@yunqiao.io",
                         duties=flutter(" Android（Kotlin）", "应用市场")),
             False, "PARTIAL", note="iOS vs Android written as a platform note in the title's brackets: two roles"))
    hr = ["搭建海外招聘渠道，完成技术与运营岗位的招聘；", "维护候选人库，跟进面试与入职；", "熟悉 LinkedIn 等海外招聘平台，英语流利。"]
    add(Case("zh-s9-verb-in-name", "employer_name", "zh",
             _board_post("zh-s9-verb-in-name-a", "Web3公司招聘“海外招聘专家”3000-5000U/月", "客服", "2025-02-03",
                         intro=intro, pay="3000-5000U / 月", place="远程", contact="TG@yunqiao_hr", duties=hr),
             _board_post("zh-s9-verb-in-name-b", "Web3公司诚聘“海外招聘专家”3000-6000U/月", "客服", "2025-03-17",
                         intro=intro_new, pay="3000-6000U / 月", place="远程", contact="TG@yunqiao_hr", duties=hr),
             True, "TEMPORAL", note="招聘 inside the role name (overseas recruiting expert) does not cut it"))
    lead = ["负责钱包系统的整体架构设计与技术选型；", "带领八人后端团队完成核心模块的开发与评审；", "十年以上后端经验，主导过高并发系统。"]
    lead_new = ["主导钱包系统的架构设计和技术选型；", "管理八人后端团队，负责核心模块开发与代码评审；", "十年以上后端开发经验，做过高并发系统的架构。"]
    add(Case("zh-s9-lead-alias", "employer_name", "zh",
             _board_post("zh-s9-lead-alias-a", "[杭州] 云桥钱包诚聘 技术负责人/架构师 薪水 60K-90K", "后端", "2025-03-03",
                         intro=intro, pay="60K-90K / 月", place="杭州", contact="简历请发送至 jobs@yunqiao.io", duties=lead),
             _board_post("zh-s9-lead-alias-b", "[杭州] 云桥钱包诚聘 架构师 薪水 60K-90K", "后端", "2025-05-26",
                         intro=intro_new, pay="60K-90K / 月", place="杭州", contact="简历请发送至 jobs@yunqiao.io",
                         duties=lead_new),
             True, "TEMPORAL", note="技术负责人/架构师: one lead named two ways, reposted under one of the names"))
    mg = ZhCo("牧川科技", "杭州牧川网络科技有限公司", "muchuan.dev", "杭州", "跨境商家的多链收款")
    add(Case("zh-s9-trade-words", "employer_name", "zh",
             zh_post("zh-s9-trade-words-a", mg, ["后端工程师"], "2026-01-05", contact=False, company="牧川科技"),
             zh_post("zh-s9-trade-words-b", mg, ["后端工程师"], "2026-02-09", v=1, contact=False, company=mg.legal),
             True, "TEMPORAL", note="牧川科技 / 杭州牧川网络科技有限公司: one trade name, the short name's business word in the "
             "registered name's (employer_core, the blocking key, read by the verifier too)"))
    return out
# ============================================================================ end of s9-zhroles block


# ============================================================================ s10-zhmiss block (direction notes)
# Block of branch s10-zhmiss: a Chinese title writes a role's specialty as a direction after the name
# (产品经理/专家（结算方向）, 运维-大数据方向): the direction is part of the role, so a re-levelled repost under a name
# that has it (结算产品专家) is the same job, and one product manager post per direction are two jobs. Texts written
# for these tests.

_S10_SETTLE = ["负责跨境收款的结算产品规划，梳理清分、对账、出款流程；", "与财务、风控一起设计结算规则并推动上线；",
               "跟踪结算时效与差错率，持续优化。"]
_S10_RISK = ["负责商户准入与交易风控产品的规划，设计规则引擎与名单管理；", "与风控策略、研发一起迭代拦截策略的配置能力；",
             "跟踪拦截率、误杀率，输出复盘报告。"]


def _s10_zh_cases() -> list[Case]:
    contact = "简历请发送至 talent@songtaopay.example"

    def pm(pid: str, title: str, date: str, duties: list[str], v: int = 0) -> dict[str, Any]:
        """A product post of one payments employer; `v`: its later rewording (intro, pay)."""
        intro = ("我们做东南亚跨境收款，商家覆盖六个国家，团队约四十人，深圳、吉隆坡两地办公。" if v else
                 "松涛支付为东南亚的跨境电商商家提供多币种收款，团队四十人，分布在深圳和吉隆坡。")
        return _board_post(pid, f"[深圳/远程] 松涛支付{title}", "产品", date, intro=intro,
                           pay="5000-8000U / 月" if v else "4000-7000U / 月", place="深圳，可远程", contact=contact,
                           duties=duties)

    settle = "诚聘“支付产品经理/专家（结算方向）”4000-7000U/月"
    return [
        Case("zh-s10-direction-relevel", "other_role", "zh",
             pm("zh-s10-direction-relevel-a", settle, "2025-03-04", _S10_SETTLE),
             pm("zh-s10-direction-relevel-b", "招聘“结算产品专家/总监”5000-8000U/月", "2025-05-19", _S10_SETTLE, v=1),
             True, "TEMPORAL", note="the settlement direction in brackets is the role's specialty: re-levelled as "
             "结算产品专家 over the same duty lines, the same job"),
        Case("zh-s10-direction-other", "other_role", "zh",
             pm("zh-s10-direction-other-a", settle, "2025-03-04", _S10_SETTLE),
             pm("zh-s10-direction-other-b", "诚聘“支付产品经理/专家（风控方向）”4000-7000U/月", "2025-03-04", _S10_RISK),
             False, "PARTIAL", note="one employer's product manager for settlement and for risk control, the same "
             "blurb and terms: two directions, two jobs"),
    ]
# ============================================================================ end of s10-zhmiss block


# ============================================================================ s11-zhread block (Chinese role reading)
# Block of branch s11-zhread: Chinese role lists read as the poster wrote them -- a body list numbered 一、二、 with
# each role's pay in brackets under a title naming one of them, a title list closed by 等, a bare specialty before a
# slash sharing the head after it (做市/量化开发工程师 one role; iOS/Android开发工程师 two), the liquidity desk as
# market making, an employer's other openings listed under their own heading (更多职位), role words written another
# way (Taiwan's 維運 = 运维, Business Development = BD) and an activity's specialist (运营专员 = 运营) -- each with the
# pair that must stay apart. Texts written for these tests.

_S11_LIST = [("钱包开发工程师", "3000-6000U/月", "要求：三年以上钱包或公链开发经验，熟悉多签与 MPC 方案。"),
             ("合约风控策略师", "4000-8000U/月", "要求：有交易所合约风控模型经验，能独立输出风控策略。"),
             ("用户增长产品经理", "4000-7000U/月", "要求：五年以上互联网产品经验，做过拉新与留存体系。"),
             ("Java基础架构师", "5000-8000U/月", "要求：分布式存储、消息队列、RPC 框架的实战经验。"),
             ("Python量化策略开发工程师", "3000-6000U/月", "要求：做过量化交易系统，熟悉行情与下单接口。"),
             ("海外市场BD负责人", "8000-15000U/月", "要求：有交易所商务经验，英语可作为工作语言。")]
_S11_NUMERALS = "一二三四五六七八九十"


def _s11_list_post(pid: str, title: str, date: str, items: list[tuple[str, str, str]], contact: str) -> dict[str, Any]:
    """A recruiter's numbered list of one exchange's openings (一、X（pay），then its requirement line)."""
    body = [f"{_S11_NUMERALS[i]}、{name}（{pay}），\n{req}" for i, (name, pay, req) in enumerate(items)]
    return {"id": pid, "title": title, "description": "\n".join([*body, "联系方式", contact]),
            "posted_at": f"{date}T08:00:00Z", "source": "board"}


#: A market-making developer's duty lines, as first posted (0) and reworded in a repost (1).
_S11_QUANT = (["负责交易所做市系统的策略接入与撮合对接，维护报价与对冲模块；", "监控盘口深度与价差，优化做市参数；",
               "三年以上 C++ 或 Rust 开发经验，熟悉高频交易系统。"],
              ["开发和维护交易所的做市系统，对接撮合与对冲服务；", "盯住盘口深度、价差，持续调整做市参数；",
               "具备三年以上 C++/Rust 开发经验，做过高频交易系统。"])


def _s11_zh_cases() -> list[Case]:
    tg = "TG：@yunhai_recruit"
    intro = "云海交易所服务海外用户，团队全员远程，分布在新加坡、迪拜和东南亚。"
    intro_new = "我们是一家面向海外用户的数字资产交易所，团队全部远程，成员在新加坡、迪拜、东南亚。"
    out: list[Case] = []
    add = out.append
    later = [(n, "4000-9000U/月" if i == 0 else pay, req) for i, (n, pay, req) in enumerate(_S11_LIST[:5])]
    add(Case("zh-s11-numbered-list", "multi_role", "zh",
             _s11_list_post("zh-s11-numbered-list-a", "Web3公司招聘“钱包开发工程师、合约风控策略师、用户增长产品经理”等",
                            "2025-03-03", _S11_LIST, tg),
             _s11_list_post("zh-s11-numbered-list-b", "钱包开发工程师（公链方向）4000-9000U/月", "2025-04-01", later, tg),
             True, "TEMPORAL", note="the same numbered list of six a month later, one dropped: the title names one or "
             "three of them (a list closed by 等), the roles are the body's 一、二、 items"))
    other = [("现货交易产品经理", "4000-8000U/月", "要求：熟悉现货撮合与行情产品。"),
             ("理财产品经理", "4000-8000U/月", "要求：做过理财或借贷产品。"),
             ("客服主管", "2000-3000U/月", "要求：带过海外客服团队。")]
    add(Case("zh-s11-numbered-half", "multi_role", "zh",
             _s11_list_post("zh-s11-numbered-half-a", "Web3公司招聘“钱包开发工程师、合约风控策略师”等", "2025-03-03",
                            _S11_LIST[:4], tg),
             _s11_list_post("zh-s11-numbered-half-b", "Web3公司招聘“钱包开发工程师、现货交易产品经理”等", "2025-03-20",
                            [_S11_LIST[0], *other], tg),
             False, "PARTIAL", note="one recruiter's numbered lists of four: three of the four changed"))

    def quant(pid: str, title: str, date: str, v: int = 0) -> dict[str, Any]:
        return _board_post(pid, title, "后端", date, intro=intro_new if v else intro,
                           pay="50K-90K / 月" if v else "50K-80K / 月", place="远程", contact=tg,
                           duties=_S11_QUANT[v])

    add(Case("zh-s11-slash-head", "other_role", "zh",
             quant("zh-s11-slash-head-a", "[远程办公] 云海交易所诚聘 做市/量化开发工程师 薪水 50K-80K", "2025-02-03"),
             quant("zh-s11-slash-head-b", "[远程办公] 云海交易所诚聘 做市开发工程师 薪水 50K-90K", "2025-04-14", v=1),
             True, "TEMPORAL", note="做市/量化开发工程师: one developer named by two specialties of one family, reposted "
             "under the first"))
    add(Case("zh-s11-liquidity", "other_role", "zh",
             quant("zh-s11-liquidity-a", "[远程] 云海交易所诚聘 流动性开发工程师 薪水 50K-80K", "2025-05-05"),
             quant("zh-s11-liquidity-b", "[远程] 云海交易所直招 做市开发工程师 薪水 50K-90K", "2025-06-30", v=1),
             True, "TEMPORAL", note="an exchange's liquidity desk is its market making: one developer renamed"))

    def app(pid: str, title: str, date: str, platform: str) -> dict[str, Any]:
        duties = {"ios": ["负责交易所 iOS App 的开发与维护，使用 Swift 与 SwiftUI；", "对接行情推送与下单接口，优化启动速度；",
                          "三年以上 iOS 开发经验，有上架 App Store 的作品。"],
                  "android": ["负责交易所 Android App 的开发与维护，使用 Kotlin 与 Jetpack；",
                              "对接行情推送与下单接口，优化启动速度；", "三年以上 Android 开发经验，有上架应用市场的作品。"]}
        body = duties["android"] if platform == "android" else duties["ios"] + duties["android"]
        return _board_post(pid, title, "后端", date, intro=intro, pay="30K-50K / 月", place="远程", contact=tg,
                           duties=body)

    add(Case("zh-s11-slash-two", "other_role", "zh",
             app("zh-s11-slash-two-a", "[远程办公] 云海交易所诚聘 iOS/Android开发工程师 薪水 30K-50K", "2025-03-10", "both"),
             app("zh-s11-slash-two-b", "[远程办公] 云海交易所诚聘 Android开发工程师 薪水 30K-50K", "2025-03-10", "android"),
             False, "PARTIAL", note="iOS/Android开发工程师 names two roles (iOS vs Android), one of them alone is half"))

    def rust(pid: str, title: str, date: str, more: list[str], v: int = 0) -> dict[str, Any]:
        d = {"id": pid, "title": title, "posted_at": f"{date}T10:00:00Z", "source": "board", "description": "\n".join([
            "## 关于澜舟链", "澜舟链是一条面向支付场景的公链，团队远程分布式办公。" if not v else
            "澜舟链做支付方向的公链，全员远程、分布式协作。",
            "## 岗位", "Rust Developer", "- 设计并实现跨链通信模块，对接主流公链；" if not v else "- 负责跨链通信模块的设计与实现；",
            "- 维护节点同步与共识相关的代码；", "- 三年以上 Rust 或 Go 开发经验。",
            "## 联系方式", "简历发送至 join@lanzhou.example", "## 更多职位", *(f"- {m}" for m in more)])}
        return d

    add(Case("zh-s11-other-openings", "blurb_roles", "zh",
             rust("zh-s11-other-openings-a", "【远程】澜舟链诚聘 Rust工程师 30K-50K/月", "2025-01-06",
                  ["Protocol Researcher", "Technical Writer", "Graphic Designer", "密码学工程师"]),
             rust("zh-s11-other-openings-b", "[远程] 澜舟链招聘Rust Developer", "2025-04-21",
                  ["Frontend Engineer", "DevRel 开发者关系", "测试工程师"], v=1),
             True, "TEMPORAL", note="the other openings listed under 更多职位 are other postings' jobs, not this one's"))
    ops = ["负责交易所主机与网络的安全加固，处理入侵告警；", "维护堡垒机、VPN 与密钥管理系统；", "两年以上安全运维经验，熟悉 Linux 与云安全。"]
    ops_new = ["负责交易所主机、网络的安全加固与入侵告警处置；", "维护堡垒机、VPN 以及密钥管理系统；", "两年以上安全运维经验，熟悉 Linux、云安全。"]
    add(Case("zh-s11-taiwan-ops", "other_role", "zh",
             _board_post("zh-s11-taiwan-ops-a", "[马尼拉] 安全维运工程师 薪水:6000-9000 USD", "后端", "2025-02-10",
                         intro=intro, pay="6000-9000 USD / 月", place="马尼拉", contact=tg, duties=ops),
             _board_post("zh-s11-taiwan-ops-b", "[马尼拉]  安全运维工程师 （半远程）", "后端", "2025-03-17",
                         intro=intro_new, pay="6000-9000 USD / 月", place="马尼拉", contact=tg, duties=ops_new),
             True, "TEMPORAL", note="維運 is Taiwan's word for 运维: one security operations engineer, no company named "
             "(found through the poster's contact and the title's role: the blocking key reads both as one)"))
    bd = ["开拓独联体地区的项目方与做市商资源，完成上币与合作谈判；", "维护俄语社群与 KOL 关系，组织线上活动；", "母语或流利俄语，在校生可投递。"]
    add(Case("zh-s11-latin-bd", "other_role", "zh",
             _board_post("zh-s11-latin-bd-a", "[Remote] 云海交易所诚聘 Business Development Intern 薪水 1000 USDT", "客服",
                         "2025-01-13", intro=intro, pay="1000 USDT / 月 + 提成", place="远程", contact=tg, duties=bd),
             _board_post("zh-s11-latin-bd-b", "[远程办公] 云海交易所诚聘 俄语BD实习生 薪水 1,000USDT+提成", "客服",
                         "2025-04-28", intro=intro_new, pay="1000 USDT / 月 + 提成", place="远程", contact=tg,
                         duties=["对接俄罗斯及独联体的项目方、做市商，推进上币合作；", "运营俄语社区，联络当地 KOL，策划线上活动；",
                                 "俄语母语或流利，接受在校学生。"]),
             True, "TEMPORAL", note="Business Development = BD = 商务: one intern written in English, then in Chinese"))
    add(Case("zh-s11-latin-bd-level", "other_role", "zh",
             _board_post("zh-s11-latin-bd-level-a", "[Remote] 云海交易所诚聘 Business Development Manager 薪水 5000 USDT", "客服",
                         "2025-01-13", intro=intro, pay="5000 USDT / 月", place="远程", contact=tg,
                         duties=["负责独联体市场的商务拓展团队，制定季度目标；", "谈判头部项目方的上币合作；", "五年以上交易所商务经验。"]),
             _board_post("zh-s11-latin-bd-level-b", "[远程办公] 云海交易所诚聘 BD实习生 薪水 1,000USDT+提成", "客服",
                         "2025-01-13", intro=intro, pay="1000 USDT / 月 + 提成", place="远程", contact=tg, duties=bd),
             False, "PARTIAL", note="one employer's BD manager and BD intern: the same specialty, another seniority"))
    ops_duties = ["负责海外用户社群的日常运营，策划拉新与促活活动；", "跟踪活动数据，输出周报与复盘；", "英语可作为工作语言，有交易所运营经验优先。"]

    def ops(pid: str, title: str, date: str, pay: str, duties: list[str], v: int = 0) -> dict[str, Any]:
        return _board_post(pid, title, "客服", date, intro=intro_new if v else intro, pay=pay, place="远程", contact=tg,
                           duties=duties)

    specialist = "[远程] 云海交易所诚聘 运营专员，薪水10-20K"
    add(Case("zh-s11-specialist", "other_role", "zh",
             ops("zh-s11-specialist-a", "0k远程办公-头部交易所招聘海外运营类岗位-10-20k/月", "2025-05-06", "10-20K / 月",
                 ops_duties),
             ops("zh-s11-specialist-b", specialist, "2025-06-09", "10-20K / 月",
                 ["负责海外社群的日常运营，策划拉新、促活活动；", "跟踪活动数据并输出周报、复盘；", "英语能作为工作语言，做过交易所运营的优先。"], v=1),
             True, "TEMPORAL", note="运营专员 (operations specialist) is the operations person 海外运营 names"))
    add(Case("zh-s11-specialist-level", "other_role", "zh",
             ops("zh-s11-specialist-level-a", specialist, "2025-06-09", "10-20K / 月", ops_duties),
             ops("zh-s11-specialist-level-b", "[远程] 云海交易所诚聘 运营经理，薪水25-40K", "2025-06-09", "25-40K / 月",
                 ["带领六人海外运营团队，制定季度增长目标；", "统筹拉新、促活与留存策略，对结果负责；", "五年以上运营经验，其中两年以上团队管理经验。"]),
             False, "PARTIAL", note="the operations specialist and the operations manager: another seniority"))
    return out
# ============================================================================ end of s11-zhread block


# ============================================================================ s11-families block
# A Latin role word glued to Chinese / Japanese text (iOS开发, iOSエンジニア) names its role family: another platform
# behind one template stays apart, the same platform reposted merges. Written for these tests by s11-families.

def _s11_families_cases() -> list[Case]:
    intro = "潮汐钱包服务全球用户，团队全员远程，分布在新加坡和吉隆坡。"
    duties = {"iOS": ["负责钱包 iOS 客户端的开发与维护；", "对接行情推送与转账接口，优化启动速度；", "三年以上 iOS 开发经验。"],
              "Android": ["负责钱包 Android 客户端的开发与维护；", "对接行情推送与转账接口，优化启动速度；",
                          "三年以上 Android 开发经验。"]}

    def zh(pid: str, title: str, platform: str, date: str) -> dict[str, Any]:
        return _board_post(pid, title, "后端", date, intro=intro, pay="25K-45K / 月", place="远程",
                           contact="TG：@chaoxi_hr", duties=duties[platform])

    def ja(pid: str, platform: str, date: str) -> dict[str, Any]:
        body = ["株式会社ナギサアプリは家計簿アプリを開発しています。", "【仕事内容】",
                f"自社家計簿アプリの{platform}版の設計と実装をお任せします。", "【応募資格】", f"{platform}アプリ開発の実務経験3年以上",
                "【給与】", "年収600万円〜900万円", "【勤務地】", "東京都渋谷区（リモート可）"]
        return {"id": pid, "title": f"{platform}エンジニア（自社アプリ）", "company": "株式会社ナギサアプリ",
                "location": "東京都渋谷区", "description": "\n".join(body), "posted_at": f"{date}T09:00:00Z", "source": "board"}

    return [
        Case("zh-s11f-ios-android", "other_role", "zh",
             zh("zh-s11f-ios-android-a", "[远程] 潮汐钱包诚聘 iOS开发工程师 薪水 25K-45K", "iOS", "2025-04-01"),
             zh("zh-s11f-ios-android-b", "[远程] 潮汐钱包诚聘 Android开发工程师 薪水 25K-45K", "Android", "2025-04-01"),
             False, "PARTIAL", note="one template, iOS开发 vs Android开发: the GUIDE's iOS vs Android"),
        Case("zh-s11f-ios-repost", "other_role", "zh",
             zh("zh-s11f-ios-repost-a", "[远程] 潮汐钱包诚聘 iOS开发工程师 薪水 25K-45K", "iOS", "2025-04-01"),
             zh("zh-s11f-ios-repost-b", "[远程办公] 潮汐钱包招聘iOS开发工程师，薪水25K-45K", "iOS", "2025-05-20"),
             True, "TEMPORAL", note="control: the same iOS developer reposted, the title rewritten"),
        Case("ja-s11f-ios-android", "other_role", "ja", ja("ja-s11f-ios-android-a", "iOS", "2026-01-05"),
             ja("ja-s11f-ios-android-b", "Android", "2026-01-05"), False, "PARTIAL",
             note="iOSエンジニア vs Androidエンジニア of one template"),
    ]
# ============================================================================ end of s11-families block


def cases() -> list[Case]:
    """All hand-made pairs: English, Chinese, Japanese."""
    return [*_en_cases(), *_zh_cases(), *_ja_cases(), *_zh_board_cases(), *_en_s5_cases(), *job_board_cases(),
            *_s6_zh_cases(), *_en_s6_cases(), *_s7_zh_cases(), *_en_s7_cases(), *_s8_legal_cases(), *_s9_zh_cases(),
            *_s10_zh_cases(), *_s11_zh_cases(), *_s11_families_cases()]


# ----------------------------------------------------------------------------- English, s5-i9-en block
# Hiring-thread reposts as the English errors of issue 9 show them (intro rewritten, role lists written as
# `1. Role - pay - link` or `Role: duties` lines, a company name that reads like a role family) and the
# three classes that must stay apart (one template under two employers, the same ad in another city, another
# role behind the same blurb). Written for these tests by the s5-i9-en helper.

def _hn(pid: str, date: str, paras: list[str]) -> dict[str, Any]:
    """A hiring-thread comment from its paragraphs (first one the header), HTML like the HN API gives."""
    return {"id": pid, "description": "<p>".join(paras), "posted_at": f"{date}T16:00:00Z", "source": "hn"}


def _en_s5_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append

    # intro rewritten, the job kept (TEMPORAL)
    job = ["The role: you will own our billing service end to end, from the Postgres schema to the Go "
           "workers that reconcile invoices every night.",
           "You have shipped payment or ledger code before and you like boring, well-tested systems.",
           "Pay: $165k-$195k plus equity. Apply at https://brindleworks.com/jobs/backend-engineer"]
    add(Case("en-s5-intro", "blurb_roles", "en",
             _hn("en-s5-intro-a", "2026-01-06", [
                 "Brindle Works | Backend Engineer | Remote (US) | Full-time",
                 "Brindle Works makes scheduling and invoicing software for independent plumbers and electricians. "
                 "We are twelve people, bootstrapped and profitable since 2023.", *job]),
             _hn("en-s5-intro-b", "2026-02-03", [
                 "Brindle Works | Backend Engineer | Remote (US) | Full-time",
                 "Independent tradespeople run their whole week on Brindle: quotes, calendars and invoices in one "
                 "app. Still a small team of fourteen, still funded by customers and nobody else.",
                 job[0], "You have written payment or ledger code before and you enjoy systems that stay quiet.",
                 "Salary $165k-$195k with equity on top; the posting is at https://brindleworks.com/jobs/backend-engineer"]),
             True, "TEMPORAL", note="intro rewritten, two of three job lines reworded"))

    # a numbered role list `n. Role - pay - link`, reposted with a rewritten intro (TEMPORAL)
    def rolelist(pid: str, date: str, intro: str, roles: list[tuple[str, str, str]]) -> dict[str, Any]:
        return _hn(pid, date, ["Corvid Health | Lisbon, Portugal | Hybrid | https://corvidhealth.pt", intro,
                               *(f"{i}. {r} - {pay} - https://grnh.se/{slug}" for i, (r, pay, slug) in
                                 enumerate(roles, 1)),
                               "Visa support for non-EU hires. Questions: careers@corvidhealth.pt"])
    three = [("Senior Backend Engineer", "€70k-€90k", "c0rv1d01"), ("QA Engineer Mobile", "€50k-€65k", "c0rv1d02"),
             ("Product Designer", "€55k-€72k", "c0rv1d03")]
    add(Case("en-s5-rolelist", "multi_role", "en",
             rolelist("en-s5-rolelist-a", "2026-03-02", "Corvid Health builds triage software for emergency "
                      "departments in Portugal and Spain; nine hospitals use it every night.", three),
             rolelist("en-s5-rolelist-b", "2026-04-01", "Emergency departments in eleven hospitals now triage with "
                      "Corvid Health, and we are growing the product team in Lisbon.", three),
             True, "TEMPORAL", note="same three listed roles, intro rewritten"))
    add(Case("en-s5-rolelist-swap", "multi_role", "en",
             rolelist("en-s5-rolelist-swap-a", "2026-03-02", "Corvid Health builds triage software for emergency "
                      "departments in Portugal and Spain; nine hospitals use it every night.", three[:2]),
             rolelist("en-s5-rolelist-swap-b", "2026-04-01", "Corvid Health builds triage software for emergency "
                      "departments in Portugal and Spain; nine hospitals use it every night.",
                      [three[0], ("Data Engineer", "€65k-€85k", "c0rv1d04")]),
             False, "PARTIAL", note="one of two listed roles replaced"))

    # `Role: duties` lines and a company name holding a role-family word (Robotics), reposted (TEMPORAL)
    duties = ["Mechanical Engineer: design grippers and fixtures for our pick cells, from CAD to the first "
              "machined part.",
              "Robotics Software Engineer: build the motion planning stack in C++ and ROS 2 and keep it fast.",
              "Computer Vision Engineer: own object detection and pose estimation on the line cameras."]
    add(Case("en-s5-titled", "multi_role", "en",
             _hn("en-s5-titled-a", "2026-01-05", [
                 "Sparrowhawk Robotics | Founding Engineers | Onsite (Leeds, UK) | Full-time",
                 "I'm Ola, CTO at Sparrowhawk Robotics. We build robot cells that pack fresh produce for "
                 "farm cooperatives in the north of England.", *duties,
                 "Write to ola@sparrowhawk.co.uk with something you built."]),
             _hn("en-s5-titled-b", "2026-02-02", [
                 "Sparrowhawk Robotics | Founding Engineers | Full-time | Leeds, UK",
                 "Sparrowhawk Robotics packs fresh produce with robots: our first cells run at two farm "
                 "cooperatives near York and a third goes live in March.", duties[0],
                 "Robotics Software Engineer: build the motion planning stack in C++ and ROS 2, and keep it "
                 "predictable.", duties[2], "Write to ola@sparrowhawk.co.uk with something you built."]),
             True, "TEMPORAL", note="same three roles as 'Role: duties' lines, intro rewritten, header reordered"))

    # must stay apart: one template under two employers with their own sites (NON)
    def template(pid: str, name: str, site: str, date: str) -> dict[str, Any]:
        return _hn(pid, date, [
            f"{name} | Staff Platform Engineer | Remote (EU) | https://{site}",
            f"{name} is a fast-growing software company on a mission to modernize how teams work together.",
            "The role: lead our platform team, own Kubernetes and CI, and mentor four engineers.",
            "Requirements: 8+ years of backend or infrastructure work, Go or Rust, and calm on-call habits.",
            f"Salary: €110k-€130k. Apply at https://{site}/careers/staff-platform-engineer"])
    add(Case("en-s5-tmpl", "template", "en", template("en-s5-tmpl-a", "Quayside Metrics", "quaysidemetrics.eu",
                                                       "2026-02-02"),
             template("en-s5-tmpl-b", "Harbinger Cloud", "harbingercloud.io", "2026-02-04"), False, "NON",
             note="the same template under two employers with their own sites"))

    # must stay apart: the same ad in another city (PARTIAL)
    def city(pid: str, place: str) -> dict[str, Any]:
        return _hn(pid, "2026-03-03", [
            f"Tallow & Wick | Store Operations Manager | {place} | Onsite | Full-time",
            "Tallow & Wick makes candles and soap by hand and sells them in nine shops of its own.",
            f"We are opening a new shop in {place.split(',')[0]} and need someone to run it: hire and train a team "
            "of six, own the rota and the stock counts, and keep the shop floor a calm place to work.",
            "Pay: £38k-£42k plus a share of the shop's profit. Apply at https://tallowandwick.co.uk/jobs"])
    add(Case("en-s5-city", "other_city", "en", city("en-s5-city-a", "Bristol, UK"), city("en-s5-city-b", "York, UK"),
             False, "PARTIAL", note="the same ad for another city, same day"))

    # must stay apart: another role behind the same blurb (PARTIAL)
    blurb = ("Ferngully Analytics helps water utilities find leaks from pressure data. We are 40 people, "
             "Series B, and our models watch 9,000 km of pipe every night.")
    add(Case("en-s5-blurb", "blurb_roles", "en",
             _hn("en-s5-blurb-a", "2026-01-12", [
                 "Ferngully Analytics | Data Scientist | Manchester, UK | Hybrid", blurb,
                 "The role: build and validate leak detection models on pressure and flow time series.",
                 "Pay: £70k-£85k. Apply at https://ferngully.ai/jobs/data-scientist"]),
             _hn("en-s5-blurb-b", "2026-01-12", [
                 "Ferngully Analytics | Account Executive | Manchester, UK | Hybrid", blurb,
                 "The role: sell our leak detection service to water utilities across the UK and Ireland.",
                 "Pay: £60k base, £110k OTE. Apply at https://ferngully.ai/jobs/account-executive"]),
             False, "PARTIAL", note="another role behind the same blurb, same day"))

    # roles named only in a "we're looking for" sentence: one role -> three is another set of jobs (PARTIAL);
    # the same sentence reposted under a rewritten intro is the same job (TEMPORAL)
    def sought(pid: str, date: str, intro: str, wanted: str) -> dict[str, Any]:
        return _hn(pid, date, [
            "Larchmont Grid (energy trading for community solar) | Glasgow, UK | 2 days a week in office", intro,
            f"We're currently looking for {wanted}. Our office is by the river in Finnieston and most of the team "
            "comes in on Tuesdays and Thursdays, but this is flexible.",
            "Our stack: Go services, Postgres and Kafka on AWS, with a small React front end for the traders.",
            "Salary £75k-£95k plus options. Write to hiring@larchmontgrid.co.uk with a few lines about yourself."])
    intro = ("Larchmont Grid buys and sells the power of 400 community solar schemes on the day-ahead market "
             "and pays the surplus back to the villages that own them.")
    add(Case("en-s5-sought-more", "multi_role", "en",
             sought("en-s5-sought-more-a", "2026-02-09", intro, "a Senior Backend Engineer (Go)"),
             sought("en-s5-sought-more-b", "2026-03-03", intro, "two Senior Backend Engineers (Go), a Senior Data "
                    "Engineer and a Senior Platform Engineer"),
             False, "PARTIAL", note="one role named in a sentence, then three (two added)"))
    add(Case("en-s5-sought-same", "multi_role", "en",
             sought("en-s5-sought-same-a", "2026-02-09", intro, "a Senior Backend Engineer (Go)"),
             sought("en-s5-sought-same-b", "2026-03-03", "Community solar schemes earn more when someone trades "
                    "their power well: that is what we do, for 400 of them and counting.",
                    "a Senior Backend Engineer (Go)"),
             True, "TEMPORAL", note="the same sentence, intro rewritten"))
    return out


# ----------------------------------------------------------------------------- English, s6-i9-en block
# Role sets as the GUIDE counts them in hiring-thread reposts: role lists written without role words under a
# `Roles:` heading, role lines told apart only by a specialty in parentheses, the same particular roles under a
# rewritten text (TEMPORAL), one of two roles added to an otherwise kept text (PARTIAL), and one generic
# "Software Engineer" name at a company hiring for many teams (apart). Written for these tests by s6-i9-en.

def _en_s6_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append

    # a role list under `Roles:` without role words ("- Backend: link"), reposted with full role names and
    # one role added among three (TEMPORAL)
    hg = "harrowgate.example"
    add(Case("en-s6-linked-specialties", "multi_role", "en",
             _hn("en-s6-linked-specialties-a", "2026-02-02", [
                 "Harrowgate Freight | Senior Engineers | Remote (US) | Full-time",
                 "Harrowgate Freight plans refrigerated truck loads for regional grocers, 70 people, Series B.",
                 "Roles:",
                 f"- Backend: https://{hg}/careers/backend",
                 f"- Data Platform: https://{hg}/careers/data-platform",
                 f"- Mobile: https://{hg}/careers/mobile",
                 f"Questions? Write to talent@{hg}"]),
             _hn("en-s6-linked-specialties-b", "2026-03-03", [
                 "Harrowgate Freight | Remote (US) | Full-time | Multiple roles",
                 "We plan cold-chain truck loads for regional grocery chains; 75 people, Series B, growing.",
                 "We're hiring for several roles:",
                 f"- Backend Software Engineer: https://{hg}/careers/backend",
                 f"- Data Platform Engineer: https://{hg}/careers/data-platform",
                 f"- Mobile Engineer: https://{hg}/careers/mobile",
                 f"- Product Designer: https://{hg}/careers/product-designer",
                 f"Reach us at talent@{hg}"]),
             True, "TEMPORAL", note="three roles, one added; the first list names them without role words"))

    # two role lines of one name told apart by a team in parentheses: dropping a third role is one of three
    # (TEMPORAL), not one of two
    def specialties(pid: str, date: str, roles: list[str], blurb: str) -> dict[str, Any]:
        return _hn(pid, date, [
            "Quillmere | Software Engineer | Lisbon (Hybrid) | Full-time | https://quillmere.example", blurb,
            *(f"{r} - https://quillmere.example/apply/{i}" for i, r in enumerate(roles)),
            "Stack: Kotlin, Postgres, Kafka, React."])
    three = ["Software Engineer (Payments)", "Software Engineer (Search)", "Product Analyst"]
    add(Case("en-s6-specialty-drop", "multi_role", "en",
             specialties("en-s6-specialty-drop-a", "2026-01-05", three,
                         "Quillmere runs the booking system of 900 surf schools and dive centres on the Atlantic coast."),
             specialties("en-s6-specialty-drop-b", "2026-02-02", three[:2],
                         "Surf schools and dive centres along the Atlantic take their bookings through Quillmere: "
                         "900 of them so far."),
             True, "TEMPORAL", note="Product Analyst dropped among three roles; the intro rewritten"))

    # one of two roles added to a kept text: another job set (PARTIAL)
    def roles_post(pid: str, date: str, extra: bool) -> dict[str, Any]:
        more = ["Mobile Engineer | $140k - $170k + Equity",
                "--> Bring our field app to iOS and Android for the inspectors who use it on site."] if extra else []
        return _hn(pid, date, [
            "Corriebrook Surveys | Leeds & Remote (UK) | Full-Stack Engineering",
            "Corriebrook Surveys turns drone images of bridges into inspection reports for county councils. "
            "We were founded by two structural engineers and have been profitable for three years.",
            "Full-Stack Engineers | $140k - $170k + Equity",
            "--> Build the report editor our inspectors spend their days in, from the Postgres schema to the UI.",
            *more,
            "Learn more: https://corriebrook.example/jobs",
            "Write to our CTO at maya@corriebrook.example"])
    add(Case("en-s6-two-add", "multi_role", "en",
             roles_post("en-s6-two-add-a", "2026-01-05", False), roles_post("en-s6-two-add-b", "2026-02-02", True),
             False, "PARTIAL", note="one role, then two: half the role list changed, the rest of the text kept"))

    # the same two particular roles, the whole text rewritten (TEMPORAL)
    add(Case("en-s6-rewritten-roles", "multi_role", "en",
             _hn("en-s6-rewritten-roles-a", "2026-01-06", [
                 "Tarnwell Labs | Data Platform Engineer, Machine Learning Engineer | Boston, MA | Onsite",
                 "Tarnwell Labs predicts failures in hospital sterilisers from their sensor logs.",
                 "Data Platform Engineer: own the pipelines that pull logs from 300 hospitals every hour.",
                 "Machine Learning Engineer: train and ship the failure models, from notebooks to the device.",
                 "Email jobs@tarnwell.example"]),
             _hn("en-s6-rewritten-roles-b", "2026-03-02", [
                 "Tarnwell Labs | Boston, MA | Onsite | Full-time",
                 "Hospitals lose operating-room hours when a steriliser breaks; our models see it coming weeks ahead.",
                 "We are looking for a Data Platform Engineer and a Machine Learning Engineer.",
                 "You will work next to our two founders and the clinical engineers of our pilot sites.",
                 "Reach us at jobs@tarnwell.example"]),
             True, "TEMPORAL", note="same employer, the same two roles, every sentence rewritten"))

    # a large employer's generic "Senior Software Engineer" for two teams (PARTIAL): the name is no particular job
    add(Case("en-s6-generic-teams", "other_role", "en",
             _hn("en-s6-generic-teams-a", "2026-01-06", [
                 "Brightwater Systems | Senior Software Engineer | Seattle, WA | Hybrid",
                 "Join the storage team that keeps Brightwater's object store fast: Rust, io_uring, NVMe.",
                 "You will profile tail latency on our disk fleet, rewrite the compaction scheduler and carry "
                 "the pager one week in six.",
                 "Apply at https://careers.brightwater.example/jobs/44120"]),
             _hn("en-s6-generic-teams-b", "2026-02-03", [
                 "Brightwater Systems | Senior Software Engineer | Seattle, WA | Hybrid",
                 "Our billing team needs someone to rebuild invoicing for enterprise contracts in Java and Kafka.",
                 "Finance asks for usage-based pricing by summer; you will design the metering events and the "
                 "monthly close with them.",
                 "Apply at https://careers.brightwater.example/jobs/51877"]),
             False, "PARTIAL", note="one employer, one generic role name, two teams' jobs"))
    return out


# ----------------------------------------------------------------------------- English, s7-en block
# Roles a hiring-thread post names only in lowercase sentences ("We need product minded engineers who ...",
# "we are looking for implementation leads that ..."): two such roles then one, the rest of the text kept, is
# half the job set changed (PARTIAL); the same two roles under a rewritten intro are the same jobs (TEMPORAL).
# One role at another seniority ("SRE", then "Senior SRE") is another job (PARTIAL); a role listed at two levels
# and reposted under its plain name is the same job (TEMPORAL). Written for these tests by s7-en.

def _en_s7_cases() -> list[Case]:
    out: list[Case] = []
    add = out.append

    def plain(pid: str, date: str, intro: str, both: bool) -> dict[str, Any]:
        wanted = ["We have 2 roles open:",
                  "1. We need product minded engineers who can move between our Go backend and our React front end.",
                  "2. We need implementation leads that love working with clients. Former consultants welcome."] \
            if both else ["We have one role open:",
                          "We are looking for implementation leads that love working with clients. Former "
                          "consultants welcome."]
        return _hn(pid, date, [
            "Hollin Voice | Utrecht, the Netherlands | Onsite (2 days remote OK) | €70-90k + equity | "
            "https://hollinvoice.example", intro, *wanted,
            "This role is perfect if you want ownership in a small team and enjoy hard problems in real-time audio.",
            "Vacancies: https://hollinvoice.example/careers",
            "EU work authorization required. Apply: e-mail in my profile, mention HN."])
    intro = ("Hi, I'm one of Hollin Voice's founders. We build voice agents for the call centres of Dutch and "
             "Belgian insurers; ten people, bootstrapped and profitable.")
    add(Case("en-s7-plain-halved", "multi_role", "en",
             plain("en-s7-plain-halved-a", "2026-03-02", intro, True),
             plain("en-s7-plain-halved-b", "2026-04-01", intro, False),
             False, "PARTIAL", note="two roles named in lowercase sentences, then one of them; the rest kept"))
    add(Case("en-s7-plain-same", "multi_role", "en",
             plain("en-s7-plain-same-a", "2026-03-02", intro, True),
             plain("en-s7-plain-same-b", "2026-04-01", "Call centres are where insurers still talk to their "
                   "customers, and our voice agents take those calls for a dozen Dutch and Belgian insurers. "
                   "We are ten people and pay our own way.", True),
             True, "TEMPORAL", note="the same two lowercase-named roles, the intro rewritten"))

    # one role at another seniority (labels/GUIDE.md: another seniority is another job; PARTIAL), the text kept
    def levelled(pid: str, date: str, role: str, wanted: str) -> dict[str, Any]:
        return _hn(pid, date, [
            f"Kestrel Racks | Fully Remote AU/NZ | Full-time | {role}",
            "We're a Brisbane consultancy building a multi-region bare-metal Kubernetes cluster for a logistics "
            "client whose traffic doubled this year.",
            "At the base: Talos, Cilium, Rook-Ceph. Workloads: Go services, NATS and Postgres. Observability with "
            "Grafana, Loki and Tempo, all deployed with Flux.",
            "If you like Linux internals and want to go deep on platform engineering, this is the place.",
            wanted,
            "Get in touch via careers at kestrelracks dot example"])
    add(Case("en-s7-seniority", "other_role", "en",
             levelled("en-s7-seniority-a", "2026-02-05", "SRE",
                      "A couple of years behind you is enough: come and help keep it running."),
             levelled("en-s7-seniority-b", "2026-05-04", "Senior SRE",
                      "We're looking for a Senior SRE with deep Kubernetes experience and good security chops."),
             False, "PARTIAL", note="SRE, then Senior SRE: another seniority of the role"))

    # a post naming its role at two levels, reposted with the plain name: the same job (TEMPORAL)
    def two_levels(pid: str, date: str, roles: list[str]) -> dict[str, Any]:
        return _hn(pid, date, [
            "Wrenfield Maps | Lyon, France | Hybrid | Full-time",
            "Wrenfield Maps draws the cycling-route maps that 40 French departments print for tourists.",
            "Open roles:", *(f"- {r}" for r in roles),
            "You will build our tile pipeline in Rust and the editor our cartographers use every day.",
            "Write to emploi@wrenfield.example"])
    add(Case("en-s7-two-levels", "multi_role", "en",
             two_levels("en-s7-two-levels-a", "2026-02-05", ["Backend Engineer", "Senior Backend Engineer"]),
             two_levels("en-s7-two-levels-b", "2026-03-04", ["Backend Engineers"]),
             True, "TEMPORAL", note="the role at two levels, then named plainly; the text kept"))
    return out
# ============================================================================ end of s7-en block
