"""Hand-made cases for the error classes of issue 9 (tests/handmade.py), en / zh / ja: each pair checked
through the verifier (`Verifier.decide`, boilerplate fitted on the language's postings), through the groups
of one whole `jobdedup dedup` run per language (embedded, default mode) and, where the guide's FULL pair
differs only by metadata (or a job-board PARTIAL pair only by its store / terms), through profile_sig equality.

Cases the shipped verifier gets wrong for a reason only the model can fix are `xfail(strict=True)` with
the reason (MODEL_GAPS): they pass, and must be unmarked, once the model learns them.
"""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import orjson
import pytest

from service.embedded import dedup_file
from signatures.boilerplate import BoilerplateModel
from signatures.decide import Verifier
from signatures.profile import posting_profile_signature
from tests.handmade import CLASSES, JOB_BOARD_CLASSES, JOB_BOARD_LANGS, Case, cases

CASES = cases()
BY_LANG: dict[str, list[Case]] = defaultdict(list)
for _c in CASES:
    BY_LANG[_c.lang].append(_c)

#: Verifier misses only the model can fix (features.py / decide.py / the shipped coefficients), by case id.
#: Verifier 3 (the retrain on the merged issue-9 features) passes what verifier 2 missed here: zh-emp-text
#: (duties_containment), zh-board-tiers (pay_tiers weighed by the model, no veto) and the two s6-i9-en cases
#: (employer_jobs: the same employer and the same particular roles under a rewritten text); since employer_jobs is read
#: for Chinese too (features._zh_same_jobs), zh-emp-legal and zh-multi-drop.
MODEL_GAPS: dict[str, str] = {
    "ja-city-same": "verifier 3 p=0.08: veto:location_moved=神奈川->新横浜 (each side names a place the other never "
                    "mentions) although role, title and place (横浜市港北区) agree; the place reading, not the model",
    "ja-multi-drop": "one role dropped among four (TEMPORAL): role_sim 0.75, roles_changed 0.25, p=0.34 < 0.72 "
                     "(no employer field, the text names it mid-sentence; job_text_containment 0.66)",
}
#: s5-i9-ja block: profile_sig gaps.
PROFILE_GAPS: dict[str, str] = {
    "en-branch-site": "Latin-script postings are signed exactly as Solr's TextProfileSignature (parity): a category "
                      "appended to the title changes it",
    "en-terms-shift": "Latin-script (Solr parity): quantization keeps only frequent words, the shift words drop out",
}
#: Dedup-group misses: the verifier misses above (the pairs are proposed; the verifier decides them).
#: (zh-emp-legal -- 三亚飞鱼旅行旅行社有限公司 vs 飞鱼旅行, never proposed -- is proposed since blocking keys use
#: signatures.employer.employer_core: places and line-of-business words dropped with the legal form.)
GROUP_GAPS: dict[str, str] = {**MODEL_GAPS}


def _mark(case: Case, gaps: dict[str, str]) -> object:
    reason = gaps.get(case.id)
    return pytest.param(case, id=case.id, marks=pytest.mark.xfail(strict=True, reason=reason) if reason else ())


@pytest.fixture(scope="module")
def verifiers() -> dict[str, Verifier]:
    return {lang: Verifier(BoilerplateModel.fit([p for c in cs for p in (c.a, c.b)])) for lang, cs in BY_LANG.items()}


@pytest.fixture(scope="module")
def groups(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """posting id -> group id, from one `jobdedup dedup` run per language over all its cases' postings."""
    out: dict[str, str] = {}
    for lang, cs in BY_LANG.items():
        path: Path = tmp_path_factory.mktemp(f"handmade-{lang}") / "in.jsonl"
        path.write_bytes(b"\n".join(orjson.dumps(p) for c in cs for p in (c.a, c.b)) + b"\n")
        buf = io.BytesIO()
        dedup_file(str(path), buf, workers=1, quiet=True)
        out.update((r["id"], r["group"]) for r in map(orjson.loads, buf.getvalue().splitlines()))
    return out


def test_cases_cover_every_class_in_every_language() -> None:
    seen = {(c.cls, c.lang, c.merge) for c in CASES}
    for cls in CLASSES:
        for lang in ("en", "zh", "ja"):
            assert (cls, lang, True) in seen and (cls, lang, False) in seen or cls == "metadata", (cls, lang)
    for cls in JOB_BOARD_CLASSES:  # the s5-i9-ja block: job-board multi-posting classes
        for lang in JOB_BOARD_LANGS[cls]:
            assert (cls, lang, True) in seen and (cls, lang, False) in seen, (cls, lang)
    ids = [p["id"] for c in CASES for p in (c.a, c.b)]
    assert len(ids) == len(set(ids)) and 60 <= len(CASES) <= 240
    assert all(c.label in ("FULL", "SEMANTIC", "TEMPORAL") if c.merge else c.label in ("PARTIAL", "NON") for c in CASES)


@pytest.mark.parametrize("case", [_mark(c, MODEL_GAPS) for c in CASES])
def test_verifier_decides_as_the_guide(case: Case, verifiers: dict[str, Verifier]) -> None:
    v = verifiers[case.lang]
    d = v.decide(v.prepare(case.a), v.prepare(case.b))
    assert d.duplicate == case.merge, (case.label, case.note, d.reasons)


@pytest.mark.parametrize("case", [_mark(c, GROUP_GAPS) for c in CASES])
def test_dedup_groups_as_the_guide(case: Case, groups: dict[str, str]) -> None:
    same = groups[case.a["id"]] == groups[case.b["id"]]
    assert same == case.merge, (case.label, case.note)


@pytest.mark.parametrize("case", [_mark(c, PROFILE_GAPS) for c in CASES if c.same_profile is not None])
def test_profile_sig_ignores_metadata(case: Case) -> None:
    same = posting_profile_signature(case.a) == posting_profile_signature(case.b)
    assert same == case.same_profile, case.note
