"""Groups never lose their head: when a group's canonical posting is re-sent as another job (or a new
canonical is refused by Solr), the postings left in its group are decided again among themselves and
get a canonical of their own (earliest first_seen, then id). Real Solr, standalone and SolrCloud."""

from __future__ import annotations

import pytest
from solr_fixture import clear_core

from service.ingest import Ingestor, prepare_batch
from service.solr import Solr
from service.synth import generate

pytestmark = pytest.mark.solr

ENGINEER = (
    "Our platform team builds the scheduling software used by forty hospitals. You will design services in "
    "Python and Go, review code, improve reliability and mentor colleagues. We need five years of experience "
    "with PostgreSQL and Kubernetes; German is a plus. We offer a fair salary, thirty days of vacation, a "
    "learning budget and flexible hours in our Berlin office close to the central station."
)
NURSE = (
    "The cardiology ward of our university hospital is looking for a registered nurse for night and weekend "
    "shifts. You care for patients after heart surgery, monitor vital signs, give medication and work "
    "closely with doctors and physiotherapists. A nursing degree and two years on a ward are required. "
    "We pay according to the public tariff with shift bonuses and offer a place in our own kindergarten."
)
PILOT = (
    "A regional airline is hiring first officers for its turboprop fleet based in Hamburg. Applicants hold "
    "a frozen ATPL, a valid class one medical certificate and at least five hundred flight hours. The "
    "airline pays the type rating, offers a seniority based roster with fixed days off and a company pension."
)


def eng(pid: str, day: int, variant: int = 0) -> dict:
    text = [ENGINEER, ENGINEER.upper(), "Apply now! " + ENGINEER][variant % 3]
    return {"id": pid, "title": "Backend Engineer", "company": "Platform Health GmbH", "location": "Berlin",
            "description": text, "first_seen": f"2026-01-{day:02d}"}


def nurse(pid: str, day: int) -> dict:
    return {"id": pid, "title": "Registered Nurse", "company": "University Hospital", "location": "Hamburg",
            "description": NURSE, "first_seen": f"2026-01-{day:02d}"}


def pilot(pid: str, day: int) -> dict:
    return {"id": pid, "title": "First Officer", "company": "Northern Air", "location": "Hamburg",
            "description": PILOT, "first_seen": f"2026-01-{day:02d}"}


def groups(solr: Solr) -> dict[str, tuple[str, str | None]]:
    solr.commit()
    docs = solr.query({"q": "*:*", "fl": "id,dup_group,duplicate_of", "rows": 1000})["response"]["docs"]
    state = {d["id"]: (d["dup_group"], d.get("duplicate_of")) for d in docs}
    assert len(state) == len(docs), "a posting is stored twice (SolrCloud: a copy left on its old group's shard)"
    return state


def assert_every_group_has_its_head(state: dict[str, tuple[str, str | None]]) -> None:
    for pid, (group, dup_of) in state.items():
        assert group in state and state[group] == (group, None), f"{pid}: group {group} has no head"
        assert dup_of == (None if pid == group else group), pid


@pytest.fixture(params=["standalone", "cloud"])
def solr(request: pytest.FixtureRequest) -> Solr:
    base = request.getfixturevalue("solr_url" if request.param == "standalone" else "solr_cloud_url")
    clear_core(base)
    return Solr(f"{base}/postings")


def test_nurse_canonical_of_engineers_resent_as_other_job(solr: Solr) -> None:
    first = Ingestor(solr, commit_within_ms=200).ingest(
        [eng("e1", 1), eng("e2", 2, 1), eng("e3", 3, 2), nurse("n1", 5)])
    assert [(r.dup_group, r.duplicate_of) for r in first] == [("e1", None), ("e1", "e1"), ("e1", "e1"), ("n1", None)]
    solr.commit()
    # another process (fresh window): the engineers are known from Solr only
    ing = Ingestor(solr, commit_within_ms=200)
    (r,) = ing.ingest([{**nurse("e1", 1)}])
    assert (r.status, r.dup_group, r.duplicate_of) == ("updated", "n1", "n1")
    state = groups(solr)
    assert state == {"e1": ("n1", "n1"), "n1": ("n1", None), "e2": ("e2", None), "e3": ("e2", "e2")}
    assert_every_group_has_its_head(state)
    assert ing.stats["regrouped"] == 2
    # the window knows the new groups before Solr makes them searchable: a new copy joins e2's group
    (r,) = ing.ingest([eng("e4", 9)])
    assert (r.dup_group, r.duplicate_of) == ("e2", "e2")


def test_canonical_resent_alone_in_the_same_batch_as_a_new_copy(solr: Solr) -> None:
    ing = Ingestor(solr, commit_within_ms=200)
    ing.ingest([eng("e1", 1), eng("e2", 3, 1), eng("e3", 2, 2)])
    # no commit: the group lives in this process's window; e1 becomes a pilot job of its own, and a new
    # engineer copy arriving with it first joins e1's old group, then moves with the others
    results = ing.ingest([pilot("e1", 1), eng("e4", 4, 1)])
    assert [(r.id, r.dup_group, r.duplicate_of) for r in results] == [("e1", "e1", None), ("e4", "e3", "e3")]
    state = groups(solr)
    assert state == {"e1": ("e1", None), "e3": ("e3", None), "e2": ("e3", "e3"), "e4": ("e3", "e3")}
    assert_every_group_has_its_head(state)


def test_canonical_still_matching_its_group_keeps_it(solr: Solr) -> None:
    ing = Ingestor(solr, commit_within_ms=200)
    ing.ingest([eng("e1", 1), eng("e2", 2, 1), eng("e3", 3, 2)])
    edited = eng("e1", 1)
    edited["description"] += " Relocation support is available."
    (r,) = ing.ingest([edited])
    assert (r.status, r.dup_group, r.duplicate_of) == ("updated", "e1", None)
    assert ing.stats["regrouped"] == 0
    state = groups(solr)
    assert state == {"e1": ("e1", None), "e2": ("e1", "e1"), "e3": ("e1", "e1")}


def test_refused_canonical_leaves_no_headless_group(solr: Solr) -> None:
    # prepared without the schema rules: Solr refuses x1, whose copies in the same batch had joined it
    ing = Ingestor(solr, commit_within_ms=200)
    batch = [{**eng("x1", 1), "salary_i": "abc"}, eng("x2", 2, 1), eng("x3", 3, 2)]
    results = ing.apply(prepare_batch(batch))
    assert results[0].status == "rejected"
    assert [(r.status, r.dup_group, r.duplicate_of) for r in results[1:]] == [("new", "x2", None),
                                                                              ("duplicate", "x2", "x2")]
    state = groups(solr)
    assert state == {"x2": ("x2", None), "x3": ("x2", "x2")}
    assert_every_group_has_its_head(state)


def test_two_heads_leaving_in_one_batch_leave_one_group_with_a_head(clean_solr: str) -> None:
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=200)
    ing.ingest([eng("e1", 1), eng("e2", 2, 1), eng("e3", 3, 2), eng("e5", 5, 1)])
    # e5's text is also the nurse's now: it leaves the group too (same batch), e2 heads the rest
    results = ing.ingest([nurse("e1", 1), nurse("e5", 5)])
    assert [(r.dup_group, r.duplicate_of) for r in results] == [("e1", None), ("e1", "e1")]
    state = groups(solr)
    assert state == {"e1": ("e1", None), "e5": ("e1", "e1"), "e2": ("e2", None), "e3": ("e2", "e2")}
    assert_every_group_has_its_head(state)
    assert ing.stats["regrouped"] == 2


@pytest.mark.parametrize("case", ["window", "solr", "soft-commits"])
def test_every_group_keeps_its_head_when_ids_come_back_as_other_jobs(clean_solr: str, case: str) -> None:
    # a crawl, then another crawl whose ids are the first one's with other jobs behind them: by the same
    # process (its window knows the groups), another one (Solr does), or another one whose writes Solr
    # soft-commits at once, mid-way through its next real-time gets (which must still see every write:
    # service.solr.fresh_route)
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=200)
    first = list(generate(400, seed=3, resight_rate=0.0))
    for s in range(0, len(first), 100):
        ing.ingest(first[s:s + 100])
    if case != "window":
        solr.commit()
        ing = Ingestor(solr, commit_within_ms=20 if case == "soft-commits" else 200)
    second = list(generate(240, seed=4, resight_rate=0.0))
    for s in range(0, len(second), 60):
        ing.ingest(second[s:s + 60])
    state = groups(solr)
    assert len(state) == 400
    assert_every_group_has_its_head(state)
    assert ing.stats["regrouped"] > 0


def test_refused_member_resent_as_the_head_of_a_new_group_leaves_no_headless_group(clean_solr: str) -> None:
    # x1 is stored as a member of e1's group; re-sent as a pilot job it would head a new group that a new
    # pilot copy joins -- but Solr refuses it, so its stored version (still in e1's group) heads nothing
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=200)
    ing.ingest([eng("e1", 1), {**eng("x1", 2, 1)}])
    results = ing.apply(prepare_batch([{**pilot("x1", 2), "salary_i": "abc"}, pilot("p2", 6)]))
    assert results[0].status == "rejected"
    assert (results[1].dup_group, results[1].duplicate_of) == ("p2", None)
    state = groups(solr)
    assert state == {"e1": ("e1", None), "x1": ("e1", "e1"), "p2": ("p2", None)}
    assert_every_group_has_its_head(state)


def test_posting_without_text_follows_when_its_head_leaves(solr: Solr) -> None:
    # e2 has no text (an empty MinHash sketch) and joined e1's group by its URL; another process re-sends e1 as
    # the nurse's job: e2 is one of the postings left in e1's group and is decided again with them
    ing = Ingestor(solr, commit_within_ms=200)
    bare = {"id": "e2", "title": "", "description": "", "url": "https://jobs.example/42", "first_seen": "2026-01-02"}
    first = ing.ingest([{**eng("e1", 1), "url": "https://jobs.example/42"}, bare, eng("e3", 3, 1), nurse("n1", 5)])
    assert [(r.dup_group, r.duplicate_of) for r in first] == [("e1", None), ("e1", "e1"), ("e1", "e1"), ("n1", None)]
    solr.commit()
    (r,) = Ingestor(solr, commit_within_ms=200).ingest([nurse("e1", 1)])
    assert (r.dup_group, r.duplicate_of) == ("n1", "n1")
    state = groups(solr)
    assert_every_group_has_its_head(state)
    assert state["e2"] == ("e2", None) and state["e3"] == ("e3", None)
