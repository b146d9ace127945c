"""The service against a real local Solr: ingest -> collapse shows one posting per job, idempotent
re-sends, duplicates in one batch / concurrent clients end in one group, Solr down writes nothing,
fuzzed bodies never give a 5xx."""

from __future__ import annotations

import threading
from collections import defaultdict

import pytest
import requests
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.ingest import Ingestor
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

BODY = (
    "Our {team} team builds the scheduling platform used by {n} hospitals. You will design services in Python "
    "and Go, review code, improve reliability and mentor colleagues. We need {y} years of experience with "
    "PostgreSQL and Kubernetes; German is a plus. We offer a fair salary, thirty days of vacation, a learning "
    "budget and flexible hours in our {city} office close to the central station."
)


def job(key: str, team: str, city: str, n: int, y: int) -> dict:
    return {"title": f"{team} Engineer", "company": f"{team} Health GmbH", "location": city,
            "description": BODY.format(team=team, n=n, y=y, city=city)}


def reposts() -> list[dict]:
    """Three jobs, each posted three times: exact copy with other case, same URL with tracking, reworded."""
    out = []
    for k, (team, city, n, y) in enumerate([("Platform", "Berlin", 40, 5), ("Payments", "Munich", 12, 3),
                                            ("Data", "Hamburg", 75, 7)]):
        base = job(f"j{k}", team, city, n, y)
        out.append({"id": f"j{k}-a", **base, "url": f"https://careers.example/{k}", "truth": f"j{k}"})
        out.append({"id": f"j{k}-b", **{**base, "description": base["description"].upper()}, "truth": f"j{k}"})
        out.append({"id": f"j{k}-c", **{**base, "description": "Apply now! " + base["description"]},
                    "url": f"https://www.careers.example/{k}/?utm_source=board", "truth": f"j{k}"})
    return out


def docs(url: str) -> list[dict]:
    r = requests.get(f"{url}/postings/select", params={"q": "*:*", "rows": 10000, "wt": "json",
                                                       "fl": "id,dup_group,duplicate_of,truth,synthetic_job,seen_count"})
    return r.json()["response"]["docs"]


def collapsed(url: str) -> list[dict]:
    r = requests.get(f"{url}/postings/select", params={"q": "*:*", "rows": 10000, "wt": "json",
                                                       "fq": "{!collapse field=dup_group}", "fl": "id,truth,synthetic_job"})
    return r.json()["response"]["docs"]


def first(v):
    return v[0] if isinstance(v, list) else v


def test_ingest_then_collapse_shows_one_posting_per_job(clean_solr: str) -> None:
    client = TestClient(create_app(f"{clean_solr}/postings", commit_within_ms=200))
    batch = reposts()
    res = client.post("/v1/postings", json={"postings": batch})
    assert res.status_code == 200, res.text
    results = res.json()["results"]
    assert [r["status"] for r in results] == ["new", "duplicate", "duplicate"] * 3
    Solr(f"{clean_solr}/postings").commit()
    top = collapsed(clean_solr)
    assert sorted(first(d["truth"]) for d in top) == ["j0", "j1", "j2"]
    groups = defaultdict(set)
    for d in docs(clean_solr):
        groups[first(d["truth"])].add(d["dup_group"])
    assert all(len(g) == 1 for g in groups.values())
    # duplicates endpoint lists the other two postings of the job
    dup = client.get("/v1/postings/j1-c/duplicates").json()
    assert dup["dup_group"] == "j1-a" and sorted(d["id"] for d in dup["duplicates"]) == ["j1-a", "j1-b"]
    assert client.get("/v1/postings/nope/duplicates").status_code == 404
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["solr_version"].startswith("9.")
    assert health["schema"] == "jobdedup-postings"


def test_duplicates_says_when_it_cut_the_list(clean_solr: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """GET .../duplicates lists at most `MAX_MEMBERS` other postings (the first by id) and says how many there are
    and whether it cut the list (before: the first 1,000, silently)."""
    from service import app as app_module

    client = TestClient(create_app(f"{clean_solr}/postings", commit_within_ms=200))
    assert client.post("/v1/postings", json={"postings": reposts()}).status_code == 200
    Solr(f"{clean_solr}/postings").commit()
    whole = client.get("/v1/postings/j1-c/duplicates").json()
    assert (whole["duplicates_total"], whole["truncated"], len(whole["duplicates"])) == (2, False, 2)
    monkeypatch.setattr(app_module, "MAX_MEMBERS", 1)
    for pid, listed in (("j1-c", ["j1-a"]), ("j1-a", ["j1-b"])):  # itself on the page or not
        cut = client.get(f"/v1/postings/{pid}/duplicates").json()
        assert (cut["duplicates_total"], cut["truncated"]) == (2, True)
        assert [d["id"] for d in cut["duplicates"]] == listed


def test_posted_at_is_kept_as_the_source_wrote_it(clean_solr: str) -> None:
    """A posted_at in the source's own format is stored as written (the schema's string field) and the posting
    indexed, first_seen taken from the clock; an ISO-8601 posted_at still stands in for a missing first_seen
    (before: any other posted_at was rejected)."""
    ing = Ingestor(Solr(f"{clean_solr}/postings"), commit_within_ms=200)
    base = reposts()[0]
    words, iso = ({**base, "id": "w", "posted_at": "vor 3 Tagen"},
                  {**base, "id": "i", "url": None, "posted_at": "2026-01-05T08:00:00+01:00"})
    res = ing.ingest([words, iso])  # the dated copy is the earlier sighting: it heads the group
    assert [(r.status, r.dup_group) for r in res] == [("duplicate", "i"), ("new", "i")]
    got = {d["id"]: d for d in Solr(f"{clean_solr}/postings").get(["w", "i"])}
    assert got["w"]["posted_at"] == "vor 3 Tagen" and got["w"]["first_seen"] > "2026-01-06"
    assert got["i"]["posted_at"] == iso["posted_at"] and got["i"]["first_seen"] == "2026-01-05T07:00:00Z"


def test_resend_is_idempotent_and_bumps_last_seen_once(clean_solr: str) -> None:
    ing = Ingestor(Solr(f"{clean_solr}/postings"), commit_within_ms=200)
    batch = reposts()
    first_run = ing.ingest(batch)
    again = ing.ingest(batch)
    assert all(r.status == "updated" for r in again)
    assert [(r.dup_group, r.duplicate_of) for r in again] == [(r.dup_group, r.duplicate_of) for r in first_run]
    later = [{**batch[0], "last_seen": "2030-01-01"}]
    (r,) = ing.ingest(later)
    assert r.status == "updated" and r.dup_group == first_run[0].dup_group
    got = Solr(f"{clean_solr}/postings").get([batch[0]["id"]])[0]
    assert got["seen_count"] == 2 and got["last_seen"] == "2030-01-01T00:00:00Z"


def test_generated_postings_collapse_to_jobs(clean_solr: str) -> None:
    postings = list(generate(600, seed=21, resight_rate=0.0))
    ing = Ingestor(Solr(f"{clean_solr}/postings"), commit_within_ms=200)
    for s in range(0, len(postings), 100):
        ing.ingest(postings[s:s + 100])
    Solr(f"{clean_solr}/postings").commit()
    jobs = {p["synthetic_job"] for p in postings}
    top = [first(d["synthetic_job"]) for d in collapsed(clean_solr)]
    once = sum(1 for j in jobs if top.count(j) == 1)
    assert once / len(jobs) >= 0.85  # most jobs show exactly once after collapse
    by_group = defaultdict(set)
    for d in docs(clean_solr):
        by_group[d["dup_group"]].add(first(d["synthetic_job"]))
    pure = sum(1 for s in by_group.values() if len(s) == 1)
    assert pure / len(by_group) >= 0.95  # groups rarely mix jobs


def test_ambiguous_candidates_from_solr_are_verified(clean_solr: str) -> None:
    # a fresh Ingestor per batch (empty window) and a commit in between: candidates come from Solr, and the
    # Verifier reads their stored title/company/description/url/posted_at
    postings = list(generate(400, seed=33, resight_rate=0.0))
    solr = Solr(f"{clean_solr}/postings")
    fetched: list[str] = []
    real_get = solr.get

    def get(ids: list[str], fl: str = "*", fresh: bool = True) -> list[dict]:  # spy: which fields were read
        if "description" in fl:
            fetched.extend(ids)
        return real_get(ids, fl=fl, fresh=fresh)

    solr.get = get  # type: ignore[method-assign]
    results = []
    for s in range(0, len(postings), 100):
        results += Ingestor(solr, commit_within_ms=200).ingest(postings[s:s + 100])
        solr.commit()
    verified = [r for r in results if "verifier" in r.why]
    assert fetched and set(fetched) <= {p["id"] for p in postings[:300]}
    assert verified and all(any(w.startswith("p=") for w in r.why) for r in verified)
    truth = {p["id"]: p["synthetic_job"] for p in postings}
    assert any(truth[r.id] == truth[r.dup_group] for r in verified if r.dup_group != r.id)
    by_group = defaultdict(set)
    for d in docs(clean_solr):
        by_group[d["dup_group"]].add(first(d["synthetic_job"]))
    pure = sum(1 for s in by_group.values() if len(s) == 1)
    assert pure / len(by_group) >= 0.95  # groups rarely mix jobs
    jobs = set(truth.values())
    top = [first(d["synthetic_job"]) for d in collapsed(clean_solr)]
    assert sum(1 for j in jobs if top.count(j) == 1) / len(jobs) >= 0.85


def test_concurrent_clients_with_overlapping_duplicates_end_in_one_group(clean_solr: str) -> None:
    client = TestClient(create_app(f"{clean_solr}/postings", commit_within_ms=5000))
    batch = reposts()
    # each client sends every job once, in a different order and with its own ids (reposts of the same jobs)
    bodies = [[{**p, "id": f"c{c}-{p['id']}"} for p in (batch[c::2] + batch[(c + 1) % 2::2])] for c in range(4)]
    errors: list[str] = []

    def send(body: list[dict]) -> None:
        for s in range(0, len(body), 3):
            res = client.post("/v1/postings", json={"postings": body[s:s + 3]})
            if res.status_code != 200:
                errors.append(res.text)

    threads = [threading.Thread(target=send, args=(b,)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    Solr(f"{clean_solr}/postings").commit()
    groups = defaultdict(set)
    for d in docs(clean_solr):
        groups[first(d["truth"])].add(d["dup_group"])
    assert {k: len(v) for k, v in groups.items()} == {"j0": 1, "j1": 1, "j2": 1}
    assert len(collapsed(clean_solr)) == 3


def test_solr_down_writes_nothing_and_retry_gives_same_result(clean_solr: str) -> None:
    good = Solr(f"{clean_solr}/postings")
    reference = Ingestor(good).ingest(reposts()[:3])
    good.delete_all()
    down = TestClient(create_app("http://127.0.0.1:9/solr/postings", timeout=1.0))
    res = down.post("/v1/postings", json={"postings": reposts()[:3]})
    assert res.status_code == 503 and "Retry-After" in res.headers
    assert good.count() == 0 and good.get(["j0-a"]) == []
    retry = Ingestor(good).ingest(reposts()[:3])
    assert [(r.status, r.dup_group) for r in retry] == [(r.status, r.dup_group) for r in reference]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)
posting_like = st.fixed_dictionaries(
    {}, optional={"id": json_values | st.text(min_size=1, max_size=20), "title": json_values,
                  "description": json_values | st.text(max_size=200), "first_seen": json_values,
                  "seen_count": json_values, "url": json_values},
).flatmap(lambda d: st.dictionaries(st.text(max_size=10), json_values, max_size=3).map(lambda extra: {**extra, **d}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(body=st.one_of(json_values, st.fixed_dictionaries({"postings": st.lists(posting_like, max_size=4)})))
def test_fuzzed_bodies_never_5xx(solr_url: str, body: object) -> None:
    client = _fuzz_client(solr_url)
    res = client.post("/v1/postings", json=body)
    assert res.status_code < 500, res.text
    res = client.post("/v1/signatures", json=body)
    assert res.status_code < 500, res.text


_CLIENTS: dict[str, TestClient] = {}


def _fuzz_client(solr_url: str) -> TestClient:
    if solr_url not in _CLIENTS:
        _CLIENTS[solr_url] = TestClient(create_app(f"{solr_url}/postings", commit_within_ms=1000))
    return _CLIENTS[solr_url]
