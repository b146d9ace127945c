"""Ids are data, never query syntax: real-time get, {!terms} filters, versioned deletes and the duplicates
endpoint on ids holding , \\ " : * spaces / % and non-ASCII, against a real standalone Solr and SolrCloud."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from urllib.parse import quote

import pytest
import requests
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solr_fixture import clear_core, free_port

from service.app import create_app
from service.ingest import Ingestor
from service.solr import Solr, terms_query

pytestmark = pytest.mark.solr

IDS = ["a,b", "q\\1", 'say "hi"', "x:y", "st*r", " sp ace ", "sl/ash", "pc%2C", "ünï 😀 中文", "a\\,b",
       "{!term f=id}victim", "'quoted'", "sh!ard", "sep\u241fsep", "\ue000pua", "victim", "victim2", "a"]


def text(seed: int) -> str:
    rng = random.Random(seed)
    words = ("nurse engineer pilot chef teacher welder baker driver clerk analyst painter plumber "
             "berlin munich hamburg night shift weekend team senior junior python care kitchen").split()
    return " ".join(rng.choice(words) for _ in range(60))


def postings(ids: list[str]) -> list[dict]:
    return [{"id": pid, "title": f"Job {k}", "company": f"Company {k}", "description": text(k),
             "first_seen": "2020-01-0" + str(1 + k % 9)} for k, pid in enumerate(ids)]


@pytest.fixture(params=["standalone", "cloud"])
def collection(request: pytest.FixtureRequest) -> str:
    base = request.getfixturevalue("solr_url" if request.param == "standalone" else "solr_cloud_url")
    clear_core(base)
    return f"{base}/postings"


def test_get_and_resend_keep_every_id(collection: str) -> None:
    solr = Solr(collection)
    first = Ingestor(solr, commit_within_ms=200).ingest(postings(IDS))
    assert [r.status for r in first] == ["new"] * len(IDS)
    solr.commit()  # SolrCloud's get reads committed postings
    assert sorted(d["id"] for d in solr.get(IDS, fl="id")) == sorted(IDS)
    for pid in IDS:
        assert [d["id"] for d in solr.get([pid], fl="id")] == [pid]
    assert solr.get(["nosuch,victim"]) == [] and solr.get(["q1"]) == [] and solr.get(["a\\"]) == []
    # a fresh Ingestor (no window): only Solr knows these ids; a re-send without dates is no new sighting
    again = Ingestor(solr, commit_within_ms=200).ingest([{k: v for k, v in p.items() if k != "first_seen"}
                                                         for p in postings(IDS)])
    assert [r.status for r in again] == ["updated"] * len(IDS)
    assert [r.dup_group for r in again] == [r.dup_group for r in first]
    solr.commit()
    stored = {d["id"]: d for d in solr.get(IDS, fl="id,first_seen,seen_count")}
    assert {pid: (d["first_seen"], d["seen_count"]) for pid, d in stored.items()} == {
        p["id"]: (p["first_seen"] + "T00:00:00Z", 1) for p in postings(IDS)}


def test_terms_filter_matches_exactly_the_given_ids(collection: str) -> None:
    solr = Solr(collection)
    solr.update([{"id": pid} for pid in IDS], commit=True)

    def found(values: list[str]) -> list[str]:
        res = solr.query({"q": "*:*", "fq": terms_query("id", values), "fl": "id", "rows": 100})
        return sorted(d["id"] for d in res["response"]["docs"])

    assert found(IDS) == sorted(IDS)
    assert found(["a,victim2"]) == [] and found(["nosuch,victim"]) == [] and found(["a\\,b"]) == ["a\\,b"]
    assert found(["a,b", "q\\1"]) == ["a,b", "q\\1"]


def test_delete_copies_deletes_only_the_named_copies(collection: str) -> None:
    solr = Solr(collection)
    solr.update([{"id": pid, "dup_group": pid} for pid in IDS + ["a,victim2"]], commit=True)
    named = solr.copies(["a,victim2", "a\\,b", "q\\1"])
    assert sorted(c["id"] for c in named) == ["a,victim2", "a\\,b", "q\\1"]
    solr.update([{"id": "q\\1", "dup_group": "q\\1", "title": "re-added"}])  # q\1 changed meanwhile: kept
    solr.delete_copies(named)
    solr.commit()
    left = {d["id"]: d for d in solr.query({"q": "*:*", "fl": "id,title", "rows": 100})["response"]["docs"]}
    assert sorted(left) == sorted(set(IDS) - {"a\\,b"})
    assert left["q\\1"]["title"] == "re-added"


@contextlib.contextmanager
def served(collection: str) -> Iterator[str]:
    """The app on a real uvicorn server (the TestClient decodes %25 twice, a real server does not)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(collection, commit_within_ms=200), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def test_duplicates_endpoint_for_every_id(collection: str) -> None:
    with served(collection) as url:
        _check_duplicates_endpoint(collection, url)


def _check_duplicates_endpoint(collection: str, url: str) -> None:
    client = requests.Session()
    batch = postings(IDS) + [{**postings(IDS)[IDS.index("victim")], "id": "copy,of/victim"}]
    res = client.post(f"{url}/v1/postings", json={"postings": batch})
    assert res.status_code == 200, res.text
    assert res.json()["results"][-1]["dup_group"] == "victim"
    Solr(collection).commit()
    for pid in IDS:
        got = client.get(f"{url}/v1/postings/{quote(pid, safe='')}/duplicates")
        assert got.status_code == 200, (pid, got.text)
        body = got.json()
        assert body["id"] == pid
        assert [d["id"] for d in body["duplicates"]] == (["copy,of/victim"] if pid == "victim" else [])
    got = client.get(f"{url}/v1/postings/{quote('copy,of/victim', safe='')}/duplicates").json()
    assert got["dup_group"] == "victim" and [d["id"] for d in got["duplicates"]] == ["victim"]
    for missing in ("nosuch,victim", "victim,victim2", "q1", "a\\"):
        assert client.get(f"{url}/v1/postings/{quote(missing, safe='')}/duplicates").status_code == 404


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12), min_size=1,
                    max_size=8, unique=True))
def test_any_ids_are_found_exactly(solr_url: str, ids: list[str]) -> None:
    solr = Solr(f"{solr_url}/postings")
    solr.delete_all()
    solr.update([{"id": pid} for pid in ids], commit=True)
    assert sorted(d["id"] for d in solr.get(ids, fl="id")) == sorted(ids)
    for pid in ids:
        assert [d["id"] for d in solr.get([pid], fl="id")] == [pid]
    res = solr.query({"q": "*:*", "fq": terms_query("id", ids[:1]), "fl": "id", "rows": 20})
    assert [d["id"] for d in res["response"]["docs"]] == ids[:1]
    solr.delete_copies(solr.copies(ids[:1]))
    solr.commit()
    assert sorted(d["id"] for d in solr.query({"q": "*:*", "fl": "id", "rows": 20})["response"]["docs"]) == sorted(ids[1:])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", "1", ",", "\\", "é", "中", "\u241f", "\ue000", "\ue001", "😀"]),
                        max_size=6), max_size=8))
def test_terms_separator_is_the_first_candidate_no_value_holds(values: list[str]) -> None:
    """terms_query's separator: the first of its candidates (U+241F, then private use) that occurs in no value,
    found by substring tests (instant on ASCII keys), the same one a set of the values' characters gives."""
    import itertools

    from service.solr import _separator

    used = set("".join(values))
    want = next(chr(cp) for cp in itertools.chain((0x241F,), range(0xE000, 0xF900)) if chr(cp) not in used)
    assert _separator(values) == want


def test_terms_separator_is_linear_in_hostile_values() -> None:
    """Group names are client ids (up to Solr's 32 KB a term): values that hold U+241F and every private-use
    candidate, behind long other values, cost one pass over the values, not one per candidate tried (each
    substring test scanned the filler first: 9,400 scans of 2 MB, seconds under the ingest lock)."""
    import time

    from service.solr import _separator

    hostile = "z\u241f" + "".join(map(chr, range(0xE000, 0xF900))) + "".join(map(chr, range(0xF0000, 0xF0000 + 3000)))
    values = [f"{k:04d}" + "a" * 10_000 for k in range(200)] + [hostile]
    start = time.perf_counter()
    assert _separator(values) == chr(0xF0000 + 3000)
    assert time.perf_counter() - start < 0.5
