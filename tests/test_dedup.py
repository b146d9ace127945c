"""Embedded dedup (`jobdedup dedup`): grouping quality against the generator's ground truth, exact and
URL evidence, crawl-log folding, determinism across worker counts, and the CLI surface."""

from __future__ import annotations

import io as _io
import itertools
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import orjson
import pytest

from service.embedded import dedup_file
from service.synth import generate

LONG = (
    "We build software for hospitals and need a careful engineer to help us run our scheduling platform. "
    "You will design services, review code, improve reliability and mentor colleagues across the team. "
    "Experience with Python, PostgreSQL and Kubernetes is expected; German is a plus. We offer a fair salary, "
    "thirty days of vacation, a learning budget and flexible hours in our Berlin office near the station."
)


def run_dedup(tmp_path: Path, postings: list[dict], workers: int = 1) -> dict[str, dict]:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(p) for p in postings) + b"\n")
    out = _io.BytesIO()
    dedup_file(str(path), out, workers=workers, quiet=True)
    return {r["id"]: r for r in map(orjson.loads, out.getvalue().splitlines())}


def same_group_pairs(assign: dict[str, str]) -> set[tuple[str, str]]:
    inv: dict[str, list[str]] = defaultdict(list)
    for k, v in assign.items():
        inv[v].append(k)
    return {pair for m in inv.values() for pair in itertools.combinations(sorted(m), 2)}


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_groups_match_generator_truth(tmp_path: Path, lang: str) -> None:
    postings = list(generate(1500, lang=lang, seed=11))
    truth = {p["id"]: p["synthetic_job"] for p in postings}
    out = run_dedup(tmp_path, postings)
    assert set(out) == set(truth)
    truth_pairs = same_group_pairs(truth)
    pred_pairs = same_group_pairs({k: r["group"] for k, r in out.items()})
    tp = len(truth_pairs & pred_pairs)
    precision, recall = tp / len(pred_pairs), tp / len(truth_pairs)
    assert precision >= 0.85, (precision, recall)
    assert recall >= 0.80, (precision, recall)
    for r in out.values():  # canonical postings point nowhere, members point at their group's canonical
        assert (r["duplicate_of"] is None) == (r["group"] == r["id"])
        if r["duplicate_of"]:
            assert out[r["group"]]["duplicate_of"] is None
            assert r["why"] and 0.0 < r["score"] <= 1.0


def test_exact_content_and_canonical_url(tmp_path: Path) -> None:
    postings = [
        {"id": "a", "title": "Nurse", "company": "Clinic", "description": LONG, "first_seen": "2026-02-01"},
        {"id": "b", "title": "NURSE", "company": "clinic", "description": LONG.upper().replace(",", " ;"),
         "first_seen": "2026-01-15"},
        {"id": "c", "title": "Cook", "description": "short text one", "url": "https://www.x.example/job/9/?utm_source=a"},
        {"id": "d", "title": "Baker", "description": "other words here", "url": "http://x.example/job/9#apply"},
        {"id": "e", "title": "Pilot", "description": "flying planes over the sea all day long"},
    ]
    out = run_dedup(tmp_path, postings)
    # earliest first_seen is the canonical posting
    assert out["a"]["group"] == "b" and out["b"]["duplicate_of"] is None and out["a"]["duplicate_of"] == "b"
    assert "exact_content" in out["a"]["why"]
    assert out["c"]["group"] == out["d"]["group"] == "c" and "same_url" in out["d"]["why"]
    assert out["e"] == {**out["e"], "group": "e", "duplicate_of": None, "why": [], "score": None}


def test_profiles_without_tokens_are_no_evidence(tmp_path: Path) -> None:
    # title and description of two-letter words only (Solr's TextProfileSignature keeps tokens longer than 2): every
    # such posting has the profile_sig of the field names alone, which must not group unrelated postings
    pairs = ["".join(p) for p in itertools.product("abcdefghijklmnopqrstuvwxyz", repeat=2)]
    postings = [{"id": f"p{i}", "title": "-", "company": f"Firm {i}",
                 "description": " ".join(pairs[i * 40:(i + 1) * 40])} for i in range(3)]
    out = run_dedup(tmp_path, postings)
    assert {pid: r["group"] for pid, r in out.items()} == {"p0": "p0", "p1": "p1", "p2": "p2"}


def test_crawl_log_folds_into_one_posting(tmp_path: Path) -> None:
    base = {"id": "j1", "title": "Driver", "description": LONG}
    postings = [
        {**base, "first_seen": "2026-03-05", "last_seen": "2026-03-05"},
        {"id": "other", "title": "Chef", "description": "cooking in a busy kitchen every evening"},
        {**base, "first_seen": "2026-03-01", "last_seen": "2026-03-02"},
        {**base, "first_seen": "2026-03-09", "last_seen": "2026-03-10"},
    ]
    out = run_dedup(tmp_path, postings)
    assert list(out) == ["j1", "other"]
    assert (out["j1"]["first_seen"], out["j1"]["last_seen"], out["j1"]["seen_count"]) == ("2026-03-01", "2026-03-10", 3)


OTHER = (
    "Our restaurant in the harbour district is looking for a chef de partie who loves seasonal cooking. "
    "You prepare fish and vegetable dishes, order produce from local farms and train two apprentices. "
    "Shifts are Tuesday to Saturday evenings; we close in January. Pay above the collective agreement, "
    "meals on duty and a yearly trip to a wine region for the whole kitchen brigade are part of the deal."
)


def resent_as_another_job() -> list[dict]:
    """Id x first sent as a copy of b (a chef), then re-sent as a reworded copy of a (an engineer): the latest
    sighting is the posting as it is now, so x groups with a (through the verifier, which must read x's last
    text) and b stands alone -- as `jobdedup index` and `recompute` keep it (Solr overwrites the document)."""
    return [
        {"id": "a", "title": "Software engineer", "company": "Clinic Soft", "description": LONG},
        {"id": "b", "title": "Chef de partie", "company": "Harbour Kitchen", "description": OTHER},
        {"id": "x", "title": "Chef de partie", "company": "Harbour Kitchen", "description": OTHER,
         "first_seen": "2026-03-01"},
        {"id": "c", "title": "Gardener", "description": "mowing lawns and trimming hedges in the city parks all summer"},
        {"id": "x", "title": "Software engineer", "company": "Clinic Soft", "first_seen": "2026-03-04",
         "description": LONG.replace("German is a plus", "French is welcome").replace("thirty", "twenty-eight")},
        {"id": "c", "title": "Gardener", "description": "mowing lawns and trimming hedges in the city parks all summer"},
    ]


@pytest.mark.parametrize("chunk", [2, 1000], ids=["resent-in-a-later-chunk", "same-chunk"])
@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_resighting_with_other_content_keeps_the_latest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        chunk: int, kind: str) -> None:
    """A re-sighted id whose content changed is grouped by its last content (before: by its first, so x
    joined b by exact content while `index` put it with a); first_seen / seen_count still fold."""
    import csv

    from service import embedded

    monkeypatch.setattr(embedded, "CHUNK_LINES", chunk)
    postings = resent_as_another_job()
    path = tmp_path / f"in.{kind}"
    if kind == "csv":
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, ["id", "title", "company", "description", "first_seen"])
            w.writeheader()
            w.writerows(postings)
    else:
        path.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in postings))
    buf = _io.BytesIO()
    summary = dedup_file(str(path), buf, workers=1, quiet=True)
    out = {r["id"]: r for r in map(orjson.loads, buf.getvalue().splitlines())}
    assert summary.resightings == 2
    assert out["x"]["group"] == out["a"]["group"] and "verifier" in out["x"]["why"]
    assert out["b"]["group"] == "b" and out["c"]["group"] == "c"
    assert (out["x"]["first_seen"], out["x"]["seen_count"]) == ("2026-03-01", 2)


def test_posted_at_in_any_format_is_kept_and_dated_only_when_iso(tmp_path: Path) -> None:
    """posted_at is kept as the source wrote it; only an ISO-8601 one stands in for a missing first_seen, as in
    `index` (before, dedup reported the text as first_seen and sorted by its digit, while `index` refused it)."""
    from service.ingest import reject_reason

    words = {"id": "w", "title": "Nurse", "description": LONG, "posted_at": "posted 3 days ago"}
    dated = {"id": "d", "title": "Nurse", "description": LONG, "posted_at": "2026-01-05"}
    out = run_dedup(tmp_path, [words, dated])
    assert out["w"]["group"] == "d" and out["w"]["first_seen"] is None and out["d"]["first_seen"] == "2026-01-05"
    assert reject_reason(words) is None
    assert "first_seen" in (reject_reason({**words, "first_seen": "yesterday"}) or "")


def test_workers_give_identical_output(tmp_path: Path) -> None:
    postings = list(generate(2500, seed=5))
    one = run_dedup(tmp_path, postings, workers=1)
    two = run_dedup(tmp_path, postings, workers=2)
    assert one == two


def cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], input=stdin, capture_output=True, timeout=300)


def test_cli_generate_then_dedup(tmp_path: Path) -> None:
    data, groups = tmp_path / "postings.jsonl", tmp_path / "groups.jsonl"
    res = cli("generate", "-n", "800", "-o", str(data), "--seed", "3")
    assert res.returncode == 0, res.stderr
    res = cli("dedup", str(data), "-o", str(groups))
    assert res.returncode == 0, res.stderr
    assert b"postings" in res.stderr and b"groups" in res.stderr and b"duplicates" in res.stderr
    rows = [orjson.loads(x) for x in groups.read_bytes().splitlines()]
    ids = {orjson.loads(x)["id"] for x in data.read_bytes().splitlines()}
    assert {r["id"] for r in rows} == ids
    assert all({"id", "group", "duplicate_of", "score", "why"} <= set(r) for r in rows)


def test_cli_csv_with_mapping(tmp_path: Path) -> None:
    data = tmp_path / "p.csv"
    data.write_text(f'job,text\n1,"{LONG}"\n2,"{LONG}"\n3,hello there\n', encoding="utf-8")
    res = cli("dedup", str(data), "--map", "id=job", "--map", "description=text", "-q")
    assert res.returncode == 0, res.stderr
    rows = {r["id"]: r for r in map(orjson.loads, res.stdout.splitlines())}
    assert rows["2"]["duplicate_of"] == "1" and rows["3"]["group"] == "3"


@pytest.mark.parametrize(
    "args,stdin,needle",
    [
        (("dedup", "/nonexistent/x.jsonl"), b"", b"no such file"),
        (("dedup", "-"), b'{"id": "a"}\n{"title": 1}\n', b"line 2: field 'id' is missing"),
        (("dedup", "-", "--format", "xml"), b"", b"unknown input format"),
        (("dedup", "-", "--map", "oops"), b"", b"FIELD=COLUMN"),
        (("generate", "-n", "5", "--lang", "fr"), b"", b"--lang must be"),
    ],
)
def test_cli_errors_are_one_line(args: tuple[str, ...], stdin: bytes, needle: bytes) -> None:
    res = cli(*args, stdin=stdin)
    assert res.returncode != 0
    assert needle in res.stderr, res.stderr
    assert b"Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_verify_uses_the_trained_verifier(tmp_path: Path) -> None:
    postings = list(generate(300, seed=12))
    path = tmp_path / "v.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(p) for p in postings) + b"\n")
    out = _io.BytesIO()
    summary = dedup_file(str(path), out, workers=1, quiet=True, verify=True)
    assert summary.evidence["verifier"] > 0
    rows = {r["id"]: r for r in map(orjson.loads, out.getvalue().splitlines())}
    truth = {p["id"]: p["synthetic_job"] for p in postings}
    truth_pairs = same_group_pairs(truth)
    pred_pairs = same_group_pairs({k: r["group"] for k, r in rows.items()})
    tp = len(truth_pairs & pred_pairs)
    assert tp / len(pred_pairs) >= 0.85 and tp / len(truth_pairs) >= 0.85
    verified = [r for r in rows.values() if "verifier" in r["why"]]
    assert verified and all(any(w.startswith("p=") for w in r["why"]) for r in verified)


def test_default_verifies_and_fast_does_not(tmp_path: Path) -> None:
    postings = list(generate(400, seed=21))
    data = b"\n".join(orjson.dumps(p) for p in postings) + b"\n"
    (tmp_path / "in.jsonl").write_bytes(data)
    fast = cli("dedup", str(tmp_path / "in.jsonl"), "--fast", "--summary-json", "-q")
    assert fast.returncode == 0, fast.stderr
    assert orjson.loads(fast.stderr.splitlines()[-1])["evidence"]["verifier"] == 0
    slow = cli("dedup", "-", "--summary-json", "-q", stdin=data)  # stdin is spooled for the re-read
    assert slow.returncode == 0, slow.stderr
    summary = orjson.loads(slow.stderr.splitlines()[-1])
    assert summary["evidence"]["verifier"] > 0 and summary["phases"]["verify_postings"] > 0
    rows = [orjson.loads(x) for x in slow.stdout.splitlines()]
    assert {r["id"] for r in rows} == {p["id"] for p in postings}


def test_different_explicit_employers_need_near_identical_text(tmp_path: Path) -> None:
    # same template, same title, two employers: estimated Jaccard ~0.5 (between FIELD and NEAR)
    a = ("Our alpha team runs the night shift dispatch system, pager rotations and the clinical data warehouse "
         "for twelve sites. It also maintains radiology archives, lab result feeds and nurse rostering tools.")
    b = ("The beta group owns billing integrations, insurer claims exports and the patient portal used by three "
         "regional partners. Members also build pharmacy stock forecasts, ward dashboards and donor records.")
    postings = [
        {"id": "x", "title": "Engineer", "company": "Alpha Clinics", "description": LONG + " " + a},
        {"id": "y", "title": "Engineer", "company": "Beta Hospitals", "description": LONG + " " + b},
    ]
    out = run_dedup(tmp_path, postings)
    assert out["x"]["group"] == "x" and out["y"]["group"] == "y"


# ----------------------------------------------------------------------------- blocking candidates
# (service.candidates): reposts with rewritten prose share too few shingles for LSH, but keep the
# employer, the roles and the contact; those pairs go to the Verifier.

_ROLE_TEXT = [
    "You will design and operate the order routing services that move parcels between our warehouses",
    "You will own the message queues, the billing exports and the nightly reconciliation jobs",
    "We expect solid experience with Go or Rust, PostgreSQL, Kafka and running services on Kubernetes",
    "You will mentor two junior engineers and take part in the on-call rotation once a month",
    "The team works from our Berlin office three days a week and remotely the rest of the time",
    "We offer a yearly learning budget, thirty vacation days and a company pension plan",
]
_SYNONYMS = {"design": "build", "operate": "run", "services": "systems", "move": "route", "own": "maintain",
             "expect": "require", "solid": "strong", "experience": "practice", "mentor": "coach",
             "take": "share", "works": "operates", "office": "site", "offer": "provide", "yearly": "annual",
             "budget": "allowance", "between": "across", "nightly": "daily", "running": "operating",
             "week": "weekly", "company": "employer"}


def _rewritten_reposts(style: str) -> list[dict]:
    """a: an ad; b: the same job two months later, every sentence reworded and the order reversed
    (6-word shingle Jaccard ~0.2); c: another role at the same employer, same month range."""
    def reword(s: str) -> str:
        return " ".join(_SYNONYMS.get(w, w) for w in s.split())

    def post(pid: str, role: str, body: list[str], date: str) -> dict:
        if style == "hn":
            return {"id": pid, "posted_at": date,
                    "description": f"Acme Parcel Robotics | Berlin, Germany | Hybrid | {role}<p>" + "<p>".join(body)}
        return {"id": pid, "posted_at": date, "company": "Acme Parcel Robotics GmbH", "title": role,
                "location": "Berlin, Germany", "description": "\n\n".join(body)}

    designer = ["You will design the screens our dispatchers use all day, from research to prototypes.",
                "We expect a portfolio of shipped work, Figma fluency and comfort with user interviews.",
                _ROLE_TEXT[4] + ".", _ROLE_TEXT[5] + "."]
    return [post("a", "Senior Backend Engineer", [s + "." for s in _ROLE_TEXT], "2026-01-02"),
            post("b", "Senior Backend Engineer", [reword(s) + "." for s in reversed(_ROLE_TEXT)], "2026-03-02"),
            post("c", "Product Designer", designer, "2026-02-02")]


@pytest.mark.parametrize("style", ["hn", "fields"])
def test_rewritten_repost_found_through_employer_block(tmp_path: Path, style: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    postings = _rewritten_reposts(style)
    out = run_dedup(tmp_path, postings)
    assert out["a"]["group"] == out["b"]["group"]                       # same job, rewritten prose
    assert "verifier" in out["b"]["why"] or "verifier" in out["a"]["why"]
    assert out["c"]["group"] not in (out["a"]["group"], out["b"]["group"])  # same employer, other role
    # without the blocking candidates the pair is never proposed (LSH alone misses it)
    from service import candidates

    monkeypatch.setattr(candidates, "block_pairs", lambda *a, **k: (np.zeros(0, np.int64), np.zeros(0, np.int64)))
    out = run_dedup(tmp_path, postings)
    assert out["a"]["group"] != out["b"]["group"]


def test_fast_mode_does_not_use_blocking_candidates(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(p) for p in _rewritten_reposts("hn")) + b"\n")
    out = _io.BytesIO()
    dedup_file(str(path), out, workers=1, quiet=True, verify=False)  # no verifier: nothing on a key alone
    assert {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())} == {"a": "a", "b": "b", "c": "c"}


def test_big_single_company_block_stays_linear() -> None:
    from service import candidates

    n = 2000
    postings = [{"id": f"p{i}", "company": "Globex Corporation", "title": "Software Engineer" if i % 2 else "Lead " + "".join(chr(97 + int(d)) for d in f"{i:04d}"),
                 "description": f"Globex Corporation | Springfield | apply at jobs@globex.example.net | req {i}"}
                for i in range(n)]
    keys = candidates.blocking_keys(postings)
    assert keys.shape == (n, len(candidates.KEYS)) and (keys != 0).all(axis=0)[:2].all()
    ii, jj = candidates.block_pairs(keys, np.arange(n, dtype=np.int64))
    # employer and contact blocks (2,000 postings) are over the cap; 1,000 share a title: neighbours only
    assert 0 < len(ii) <= n * (candidates.WINDOW - 1)
    assert (ii != jj).all() and len({(min(a, b), max(a, b)) for a, b in zip(ii.tolist(), jj.tolist(), strict=True)}) == len(ii)
    assert set((ii % 2).tolist()) == {1} and set((jj % 2).tolist()) == {1}  # only the same-title block


def test_blocking_keys_from_raw_fields() -> None:
    from service import candidates

    hn = {"id": "1", "description": "Acme Labs (YC W24) | NYC | ONSITE | Backend Engineer<p>Mail bob@gmail.com or see "
                                    "<a href=\"https:&#x2F;&#x2F;jobs.ashbyhq.com&#x2F;acme\">jobs</a>"}
    assert candidates.employer_of(hn) == candidates.employer_of({"id": "2", "company": "Acme Labs, Inc."}) != ""
    assert candidates.contact_of(hn) == "bob@gmail.com"              # free mail: the whole address
    assert candidates.contact_of({"id": "3", "description": "write to Jobs@Careers.Acme.co.uk"}) == "acme.co.uk"
    assert candidates.contact_of({"id": "4", "description": "https://boards.greenhouse.io/acme and https://acme.io/x"}) == "acme.io"
    assert candidates.employer_of({"id": "5", "description": "We are a small team building tools for farmers."}) == ""
    board = {"id": "6", "title": "[远程] 大数据工程师", "description": "远程 - 大数据工程师 - Data Engineer\n负责数仓建设。"}
    assert candidates.employer_of(board) == ""  # a titled post's first line is text: 远程 is a work mode, no company


def test_chinese_reposts_without_employer_meet_by_contact_domain_and_title_role() -> None:
    """A Chinese posting that names no employer: its contact domain's name plus its title's first role, read as a name,
    is its employer_title key (a repost a year later, the title reworded and written in traditional characters,
    meets its first posting); another role, a free-mail contact or a Japanese posting get none of it."""
    from service import candidates

    body = "岗位职责：负责链上合约的开发与审计。\n简历请发送至 {}"

    def key(title: str, mail: str = "hr@qingshi.io", lang: str | None = None) -> int:
        p = {"id": "x", "title": title, "description": body.format(mail)} | ({"lang": lang} if lang else {})
        return int(candidates.blocking_keys([p])[0, candidates.KEYS.index("employer_title")])

    first = key("Qingshi智能合約工程師招聘")
    assert first != 0
    assert key("[远程] Qingshi 诚聘 高级智能合约工程师 薪资 30K-50K") == first
    assert key("[远程] Qingshi 诚聘 智能合约工程师", mail="jobs@qingshi.xyz") == first  # the employer's other domain
    assert key("[远程] Qingshi 诚聘 前端工程师") not in (0, first)
    assert key("【广州】Qingshi招 AI 应用开发工程师") == key("【广州线下】AI开发工程师")  # role families and Latin words
    assert key("[远程] 交易所诚聘 高级智能合约工程师", mail="qingshi.hr@gmail.com") == 0  # a person recruits for many
    assert key("[远程] Qingshi 诚聘 高级智能合约工程师", mail="qingshi.hr@gmail.com") == first  # the title names it
    assert key("スマートコントラクト開発者", lang="ja") == 0


def test_chinese_posts_with_only_a_messenger_handle_meet_by_that_handle() -> None:
    """A Chinese board post that gives no company, site or mail domain, only the poster's Telegram / WeChat handle:
    the handle is its contact key, and handle + title role its employer_title key, so a repost whose text was
    rewritten (no shared shingles for LSH) still reaches the verifier; another role or handle does not."""
    from service import candidates

    def keys(title: str, contact: str, duties: str = "负责撮合引擎的开发与维护。") -> tuple[int, int]:
        p = {"id": "x", "title": title, "description": f"岗位职责：{duties}\n联系方式：{contact}"}
        k = candidates.blocking_keys([p])[0]
        return int(k[candidates.KEYS.index("contact")]), int(k[candidates.KEYS.index("employer_title")])

    first = keys("[远程] 交易所诚聘 撮合Java工程师 薪水 30K", "TG: @hexi_jobs")
    assert first[0] != 0 and first[1] != 0
    assert keys("【远程办公】Crypto交易所直招 撮合java工程师", "[TG@Hexi_Jobs]", "熟悉低延迟系统，参与撮合重构。") == first
    assert keys("[远程] 交易所诚聘 撮合Java工程师", "添加微信hexi_jobs")[0] == first[0]  # one id on two messengers
    other_role = keys("[远程] 交易所诚聘 风控专员", "TG: @hexi_jobs")
    assert other_role[0] == first[0] and other_role[1] not in (0, first[1])
    assert keys("[远程] 交易所诚聘 撮合Java工程师", "TG: @other_recruiter")[0] not in (0, first[0])
    assert candidates.contact_of({"id": "m", "description": "简历发送至 hr@hexi.io 或 TG: @hexi_jobs"}) == "hexi.io"


def test_chinese_html_posting_gets_the_chinese_role_key_as_extraction_reads_its_language() -> None:
    """Blocking reads a posting's language as extraction does (signatures.extract.posting_lang, over the text
    converted from HTML): page markup before the Chinese text no longer makes a Chinese HTML posting English and
    so loses it its contact-plus-title-role key."""
    from service import candidates
    from signatures.extract import extract

    style = "<style>" + "body { margin: 0; padding: 0; font-family: sans-serif; }\n" * 80 + "</style>"
    desc = (f"<html><head>{style}</head><body><h2>岗位职责</h2><p>负责链上合约的开发与审计。</p>"
            "<p>简历请发送至 hr@qingshi.io</p></body></html>")
    p = {"id": "x", "title": "Qingshi智能合約工程師招聘", "description": desc}
    assert extract(p).lang == "zh"
    col = candidates.KEYS.index("employer_title")
    got = int(candidates.blocking_keys([p])[0, col])
    assert got != 0
    assert got == int(candidates.blocking_keys([p | {"lang": "zh"}])[0, col])
