"""The verifier: same job -> duplicate, same employer but another job -> not, with reasons."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from signatures.boilerplate import BoilerplateModel
from signatures.decide import Decision, LogisticModel, Verifier, fit_logistic, load_model
from signatures.features import FEATURES, pair_features, prepare
from signatures.simhash import hamming, simhash
from signatures.version import SIG_VERSION

BLURB = (
    "Tidewater Analytics helps regional hospitals forecast bed occupancy. "
    "We are a team of forty people in Leeds and Lisbon, funded by healthcare investors."
)
EEO = "Tidewater is an equal opportunity employer. We welcome applicants of every background."
JOBS = {
    "Senior Backend Engineer": [
        "You will design the ingestion service that reads admission feeds from hospital systems.",
        "You will own our PostgreSQL schema and the forecasting API used by ward managers.",
        "Five years of Python or Go, experience with message queues, and care for data quality.",
        "Salary GBP 70,000 - 85,000, hybrid two days a week in Leeds.",
    ],
    "Product Designer": [
        "You will shape the dashboards nurses use at the start of every shift.",
        "You will run usability sessions on wards and turn findings into prototypes in Figma.",
        "A portfolio showing complex data made simple, and three years designing B2B products.",
        "Salary GBP 50,000 - 60,000, hybrid two days a week in Leeds.",
    ],
    "Sales Manager": [
        "You will own relationships with NHS trusts in the north of England.",
        "You will run procurement processes and negotiate multi-year contracts.",
        "Experience selling software to the public sector and a track record against quota.",
        "OTE GBP 90,000, based in Leeds with travel.",
    ],
}


def _posting(pid: str, title: str, lines: list[str], eeo: bool = True, date: str = "2026-01-05") -> dict:
    body = [BLURB, f"We are hiring a {title}."] + lines + ([EEO] if eeo else [])
    return {"id": pid, "title": title, "company": "Tidewater Analytics Ltd", "location": "Leeds, UK",
            "description": "\n\n".join(body), "posted_at": date + "T09:00:00Z", "source": "board"}


@pytest.fixture(scope="module")
def corpus() -> dict[str, dict]:
    posts = {}
    for n, (title, lines) in enumerate(JOBS.items()):
        posts[f"j{n}"] = _posting(f"j{n}", title, lines)
    # a repost of the backend job a month later: reordered, one line dropped, EEO gone, company reformatted
    lines = JOBS["Senior Backend Engineer"]
    repost = _posting("j0r", "Senior Backend Engineer", [lines[1], lines[0], lines[3]], eeo=False, date="2026-02-07")
    repost["company"] = "TIDEWATER ANALYTICS"
    posts["j0r"] = repost
    posts["other"] = {"id": "other", "title": "Line Cook", "company": "Harbour Bistro", "location": "Porto",
                      "description": "Prepare seafood dishes for a busy dinner service. Weekend shifts.",
                      "posted_at": "2026-01-06T10:00:00Z"}
    return posts


@pytest.fixture(scope="module")
def verifier(corpus: dict[str, dict]) -> Verifier:
    return Verifier(BoilerplateModel.fit(corpus.values()))


def test_shipped_coefficients_load_for_current_and_later_sig_versions() -> None:
    model = load_model()
    name = f"verifier-{model.meta['coefficients_version']}.json"
    doc = json.loads(resources.files("signatures").joinpath("data", name).read_text())
    assert doc["sig_version"] == model.meta["coefficients_version"]
    assert int(model.meta["coefficients_version"]) <= int(SIG_VERSION)
    assert model.features == tuple(doc["features"]) and set(model.features) <= set(FEATURES)
    assert 0.0 < model.threshold < 1.0
    later = load_model(str(int(SIG_VERSION) + 1))
    assert later.meta["coefficients_version"] == model.meta["coefficients_version"]
    with pytest.raises(ValueError, match="no shipped verifier"):
        load_model("0")


def test_repost_is_duplicate_with_reasons(corpus: dict[str, dict], verifier: Verifier) -> None:
    d = verifier.decide(verifier.prepare(corpus["j0"]), verifier.prepare(corpus["j0r"]), est_jaccard=0.41)
    assert isinstance(d, Decision)
    assert d.duplicate and 0.5 <= d.score <= 1.0
    assert d.reasons[0].startswith("p=") and "est_jaccard=0.41" in d.reasons
    assert any(r.startswith(("role_sim", "title_sim", "job_text")) for r in d.reasons)


def test_other_job_same_employer_is_not_duplicate(corpus: dict[str, dict], verifier: Verifier) -> None:
    prep = {k: verifier.prepare(v) for k, v in corpus.items()}
    for a, b in [("j0", "j1"), ("j0", "j2"), ("j1", "j2"), ("j0r", "j1")]:
        d = verifier.decide(prep[a], prep[b])
        assert not d.duplicate, (a, b, d)
    assert not verifier.decide(prep["j0"], prep["other"]).duplicate


def test_boilerplate_lowers_job_text_similarity(corpus: dict[str, dict]) -> None:
    bp = BoilerplateModel.fit(corpus.values())
    a, b = corpus["j0"], corpus["j1"]
    plain = pair_features(prepare(a), prepare(b))
    weighted = pair_features(prepare(a, bp), prepare(b, bp))
    i = FEATURES.index("spec_jaccard")
    assert weighted[i] < plain[i]


def test_decide_many_matches_decide(corpus: dict[str, dict], verifier: Verifier) -> None:
    prep = [verifier.prepare(p) for p in corpus.values()]
    pairs = [(prep[i], prep[j]) for i in range(len(prep)) for j in range(i + 1, len(prep))]
    many = verifier.decide_many(pairs, np.linspace(0, 1, len(pairs)))
    for (a, b), d, e in zip(pairs, many, np.linspace(0, 1, len(pairs)), strict=True):
        one = verifier.decide(a, b, float(e))
        assert d.duplicate == one.duplicate and d.reasons == one.reasons
        assert d.score == pytest.approx(one.score, abs=1e-12)
    with pytest.raises(ValueError):
        verifier.decide_many(pairs, np.zeros(1))
    assert verifier.decide_many([]) == []


def test_fit_logistic_learns_a_separable_rule_and_roundtrips() -> None:
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 1, (400, len(FEATURES)))
    y = (X[:, 1] + X[:, 4] > 1.0).astype(float)
    model = fit_logistic(X, y, l2=0.01)
    assert ((model.proba(X) >= 0.5) == (y == 1)).mean() > 0.95
    assert model.coef[1] > 0 and model.coef[4] > 0 and abs(model.coef[0]) < model.coef[1]
    again = LogisticModel.from_json(json.loads(json.dumps(model.to_json())))
    assert np.allclose(again.proba(X), model.proba(X), atol=1e-4)
    with pytest.raises(ValueError):
        fit_logistic(X[:0], y[:0])


def test_simhash_distances() -> None:
    a = "We are hiring a backend engineer to build the payments ledger in Go and Postgres. " * 3
    b = a.replace("Postgres", "PostgreSQL")
    c = "Line cook wanted for a seafood restaurant, weekend shifts, good tips and staff meals."
    assert hamming(simhash(a), simhash(a)) == 0
    assert hamming(simhash(a), simhash(b)) < hamming(simhash(a), simhash(c))
    assert simhash("") == 0
    arr = np.array([simhash(a), simhash(c)], dtype=np.uint64)
    assert list(hamming(arr, arr[::-1])) == [hamming(simhash(a), simhash(c))] * 2


def test_added_role_families_push_apart_and_are_named(verifier: Verifier) -> None:
    base = "Quillbyte | {roles} | Remote (EU) | Full-time\nWe build ledgers for small shops. " + "Apply at jobs@quillbyte.example."
    one = verifier.prepare({"id": "q1", "description": base.format(roles="Senior Backend Engineer"),
                            "posted_at": "2026-01-02T00:00:00Z"})
    same = verifier.prepare({"id": "q2", "description": base.format(roles="Backend Engineer (Senior)"),
                             "posted_at": "2026-02-02T00:00:00Z"})
    more = verifier.prepare({"id": "q3", "description": base.format(
        roles="Senior Backend Engineer, Account Executive, Product Designer, Data Scientist"),
        "posted_at": "2026-02-02T00:00:00Z"})
    i = FEATURES.index("families_added")
    assert pair_features(one, same)[i] == 0.0 and pair_features(one, more)[i] > 0.0
    d_same, d_more = verifier.decide(one, same), verifier.decide(one, more)
    assert d_more.score < d_same.score
    assert any(r.startswith("roles_added=") and "sales" in r for r in d_more.reasons), d_more.reasons
