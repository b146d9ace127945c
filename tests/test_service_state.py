"""The service's boilerplate model: learned while ingesting, persisted per collection, reloaded after a
restart and used by the verifier; a corrupt file means an empty model and a warning; postings re-sent
unchanged keep their group without the verifier; the API says why a posting was grouped."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import requests
from fastapi.testclient import TestClient

from service.app import create_app
from service.solr import Solr
from service.state import BoilerplateState, collection_slug, load_model, model_path, write_atomic
from signatures.boilerplate import BoilerplateModel

# A company blurb shared by all of Acme's jobs (nine paragraphs), and one short paragraph per job.
BLURB = [
    "Acme Robotics builds autonomous warehouse robots that move millions of parcels every day for retailers "
    "across Europe.",
    "Founded in 2015 in Berlin, we are a team of 400 engineers, designers and operators from 40 countries.",
    "We offer thirty days of vacation, a learning budget, a modern office near the river and flexible remote work.",
    "Acme Robotics is an equal opportunity employer and values diversity of every kind in its teams.",
    "To apply, send your CV and a short note about a robot you admire through our careers page.",
    "Our robots run in 120 warehouses in 14 countries and are maintained by our own field service team.",
    "Every new colleague gets a mentor, a robot kit to build at home and a week in a customer warehouse.",
    "We publish our safety research and contribute to open source motion planning libraries.",
    "Our investors include long-term funds that care about sustainable logistics.",
]
JOBS = [
    ("Backend Engineer", "You will build Go services for fleet telemetry and route planning."),
    ("Sales Manager", "You will win new retail customers in the Nordics and grow existing accounts."),
    ("Data Scientist", "You will model parcel flows and forecast demand with Python and SQL."),
    ("Mechanical Engineer", "You will design grippers and chassis parts in SolidWorks."),
    ("Recruiter", "You will hire engineers and operators across three sites."),
    ("Product Designer", "You will design the operator dashboards and mobile apps."),
]
# Two different jobs with the same generic title: only the job paragraphs tell them apart.
FRONTEND = ("You will build the React dashboards operators use on the warehouse floor.\n\n"
            "You know TypeScript, accessibility and design systems well.")
FIRMWARE = ("You will write embedded C for motor controllers and safety sensors.\n\n"
            "You know real-time operating systems, CAN bus and oscilloscopes well.")


def acme(pid: str, title: str, job_text: str) -> dict:
    return {"id": pid, "title": title, "company": "Acme Robotics", "location": "Berlin",
            "description": "\n\n".join([job_text, *BLURB])}


def corpus() -> list[dict]:
    return [acme(f"acme-{k}", title, text) for k, (title, text) in enumerate(JOBS)]


def metric(client: TestClient, name: str) -> float:
    text = client.get("/metrics").text
    m = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
    assert m, f"{name} not in /metrics"
    return float(m.group(1))


# ---------------------------------------------------------------------------------------- no Solr needed
def test_slug_names_the_collection() -> None:
    assert collection_slug("http://127.0.0.1:8983/solr/postings/") == "127.0.0.1_8983_solr_postings"
    assert collection_slug("https://user:pw@solr.example/solr/jobs") == "solr.example_solr_jobs"
    assert model_path("st", "http://h:1/solr/a") != model_path("st", "http://h:1/solr/b")


def test_model_round_trips_atomically(tmp_path: Path) -> None:
    path = model_path(tmp_path, "http://127.0.0.1:8983/solr/postings")
    state = BoilerplateState(path, save_interval_s=0)
    assert state.model.postings == 0 and not path.exists()  # missing file: empty model, no warning needed
    state.add(corpus())
    assert state.due() and state.dirty
    assert state.write(state.snapshot())
    assert not state.dirty and state.snapshot() is None  # nothing new to write
    state.close()  # its (empty) learning journal goes
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind
    again = load_model(path)
    assert again.postings == len(JOBS)
    from signatures.extract import extract

    ex = extract(acme("x", "Software Engineer", FRONTEND))
    assert again.boilerplate_lines(ex) == state.model.boilerplate_lines(ex) != []


def test_a_model_replaced_by_recompute_is_adopted_not_overwritten(tmp_path: Path) -> None:
    url = "http://127.0.0.1:9/solr/postings"
    path = model_path(tmp_path, url)
    service = BoilerplateState(path, save_interval_s=0)
    service.add(corpus()[:1])
    service.write(service.snapshot())
    # recompute refits from the whole collection and saves, while the service keeps learning
    BoilerplateState.for_collection(tmp_path, url).replace(BoilerplateModel.fit(corpus()))
    service.add([acme("acme-new", "Software Engineer", FRONTEND)])
    assert service.sync()
    assert service.model.postings == len(JOBS) + 1  # recompute's model plus what the service learned since
    service.write(service.snapshot())
    assert load_model(path).postings == len(JOBS) + 1
    assert not service.sync()  # its own write is not "another process"

    # the Ingestor's verifier switches to the adopted model
    from service.ingest import Ingestor

    ing = Ingestor(Solr(url, timeout=1.0), state=BoilerplateState(path))
    BoilerplateState.for_collection(tmp_path, url).replace(BoilerplateModel.fit(corpus()[:4]))
    ing.save()
    assert ing.boilerplate.postings == 4 and ing.verifier.boilerplate.model is ing.boilerplate


def test_corrupt_model_file_warns_and_starts_empty(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = model_path(tmp_path, "http://127.0.0.1:8983/solr/postings")
    write_atomic(path, b"JDBP this is not zlib")
    with caplog.at_level(logging.WARNING, logger="jobdedup.state"):
        state = BoilerplateState(path)
    assert state.model.postings == 0 and len(state.model) == 0
    assert any("unreadable" in r.getMessage() for r in caplog.records)
    assert path.with_name(path.name + ".corrupt").read_bytes() == b"JDBP this is not zlib"  # kept for a look
    # truncated real model: same
    good = BoilerplateModel.fit(corpus()).to_bytes()
    write_atomic(path, good[: len(good) // 2])
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="jobdedup.state"):
        assert load_model(path).postings == 0
    assert caplog.records


def test_service_starts_with_a_corrupt_model(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url = "http://127.0.0.1:9/solr/postings"
    write_atomic(model_path(tmp_path, url), b"garbage")
    with caplog.at_level(logging.WARNING, logger="jobdedup.state"):
        app = create_app(url, timeout=1.0, state_dir=str(tmp_path))
    assert caplog.records and app.state.ingestor.boilerplate.postings == 0
    client = TestClient(app)
    assert client.get("/metrics").status_code == 200
    assert metric(client, "jobdedup_boilerplate_postings") == 0


# ------------------------------------------------------------------------------------------- real Solr
@pytest.mark.solr
def test_model_persists_across_restart_and_changes_the_decision(clean_solr: str, tmp_path: Path) -> None:
    url = f"{clean_solr}/postings"
    state = tmp_path / "state"
    frontend = acme("acme-frontend", "Software Engineer", FRONTEND)
    firmware = acme("acme-firmware", "Software Engineer", FIRMWARE)

    # service 1 indexes Acme's jobs (and learns their shared blurb), then stops: the model is saved
    with TestClient(create_app(url, commit_within_ms=200, state_dir=str(state))) as c1:
        res = c1.post("/v1/postings", json={"postings": [*corpus(), frontend]}).json()["results"]
        assert [r["status"] for r in res] == ["new"] * (len(JOBS) + 1)  # other roles at one company: apart
        assert metric(c1, "jobdedup_verifier_pairs_total") > 0
        assert metric(c1, "jobdedup_boilerplate_postings") == len(JOBS) + 1
    saved = model_path(state, url)
    assert saved.exists() and BoilerplateModel.from_bytes(saved.read_bytes()).postings == len(JOBS) + 1
    Solr(url).commit()

    learned = load_model(saved)  # what a restarted service loads

    from signatures.decide import Verifier
    from signatures.extract import extract

    def verdict(model: BoilerplateModel | None) -> tuple[float, bool]:
        v = Verifier(model)
        d = v.decide(v.prepare(extract(firmware)), v.prepare(extract(frontend)))
        return d.score, d.duplicate

    (p_blind, dup_blind), (p_seen, dup_seen) = verdict(None), verdict(learned)
    # the blurb counts little once it is known as Acme's boilerplate: the two jobs look less alike
    assert p_seen < p_blind - 0.05
    assert dup_blind  # without that knowledge the shared blurb makes them one job

    # control: a service with no boilerplate knowledge decides exactly like Verifier(None)
    with TestClient(create_app(url, commit_within_ms=200, state_dir=str(tmp_path / "empty"))) as c0:
        (blind,) = c0.post("/v1/postings", json={"postings": [firmware]}).json()["results"]
    assert blind["status"] == "duplicate" and blind["duplicate_of"] == "acme-frontend", blind
    assert "verifier" in blind["why"] and blind["score"] == pytest.approx(p_blind, abs=1e-3)
    requests.post(f"{url}/update", json={"delete": {"id": firmware["id"]}}, params={"commit": "true"}).raise_for_status()

    # service 2 (a restart on the same state directory) reloads the model and decides with it
    app2 = create_app(url, commit_within_ms=200, state_dir=str(state))
    assert app2.state.ingestor.boilerplate.postings == len(JOBS) + 1
    with TestClient(app2) as c2:
        (seeing,) = c2.post("/v1/postings", json={"postings": [firmware]}).json()["results"]
    if dup_seen:
        assert seeing["status"] == "duplicate" and seeing["score"] == pytest.approx(p_seen, abs=1e-3), seeing
        assert seeing["why"] != blind["why"]
    else:
        assert seeing["status"] == "new" and seeing["duplicate_of"] is None, seeing


@pytest.mark.solr
def test_resent_postings_keep_their_group_without_the_verifier(clean_solr: str, tmp_path: Path) -> None:
    url = f"{clean_solr}/postings"
    frontend = acme("acme-frontend", "Software Engineer", FRONTEND)
    repost = {**frontend, "id": "acme-frontend-board", "description": frontend["description"] + "\n\nApply today!",
              "url": "https://jobs.example/acme/frontend"}
    batch = [*corpus(), frontend, repost]
    with TestClient(create_app(url, commit_within_ms=200, state_dir=str(tmp_path))) as client:
        first = client.post("/v1/postings", json={"postings": batch}).json()["results"]
        pairs = metric(client, "jobdedup_verifier_pairs_total")
        assert pairs > 0
        dup = first[-1]
        assert dup["status"] == "duplicate" and dup["dup_group"] == "acme-frontend"
        # the why and score of the verifier's decision, in the response and stored with the posting
        assert dup["matched"] == "acme-frontend" and dup["score"] is not None
        Solr(url).commit()
        got = client.get("/v1/postings/acme-frontend-board/duplicates").json()
        assert got["dup_group"] == "acme-frontend" and got["why"] == dup["why"] and got["matched"] == "acme-frontend"
        assert got["score"] == pytest.approx(dup["score"])
        assert [m["id"] for m in got["duplicates"]] == ["acme-frontend"]
        if "verifier" in dup["why"]:
            assert any(w.startswith("p=") for w in dup["why"])

        again = client.post("/v1/postings", json={"postings": batch}).json()["results"]
        assert [r["status"] for r in again] == ["updated"] * len(batch)
        assert [(r["dup_group"], r["duplicate_of"], r["score"]) for r in again] == \
            [(r["dup_group"], r["duplicate_of"], r["score"]) for r in first]
        assert again[-1]["why"] == dup["why"]
        assert metric(client, "jobdedup_verifier_pairs_total") == pairs  # nothing re-verified
        assert metric(client, "jobdedup_resent_unchanged_total") == len(batch)
        learned = metric(client, "jobdedup_boilerplate_learned_total")

        # a re-send with changed content is decided again
        changed = {**repost, "description": repost["description"] + "\n\nVisa sponsorship available."}
        (r,) = client.post("/v1/postings", json={"postings": [changed]}).json()["results"]
        assert r["status"] == "updated" and metric(client, "jobdedup_verifier_pairs_total") > pairs
        assert metric(client, "jobdedup_boilerplate_learned_total") == learned + 1

    # after a restart (empty window) the unchanged check reads Solr
    with TestClient(create_app(url, commit_within_ms=200, state_dir=str(tmp_path))) as client:
        again = client.post("/v1/postings", json={"postings": batch[:-1]}).json()["results"]
        assert all(r["status"] == "updated" for r in again)
        assert metric(client, "jobdedup_verifier_pairs_total") == 0
        assert metric(client, "jobdedup_resent_unchanged_total") == len(batch) - 1


def test_solr_down_writes_nothing_and_learns_nothing(tmp_path: Path) -> None:
    dead = "http://127.0.0.1:9/solr/postings"
    state = BoilerplateState.for_collection(tmp_path, dead)
    state.add(corpus()[:2])
    state.write(state.snapshot())
    before = model_path(tmp_path, dead).read_bytes()
    app = create_app(dead, timeout=1.0, state_dir=str(tmp_path))
    with TestClient(app) as client:
        res = client.post("/v1/postings", json={"postings": corpus()})
        assert res.status_code == 503 and "Retry-After" in res.headers
        assert app.state.ingestor.boilerplate.postings == 2  # nothing learned from postings never written
    assert model_path(tmp_path, dead).read_bytes() == before  # and the saved model is untouched


@pytest.mark.solr
def test_index_cli_loads_learns_and_saves_the_model(clean_solr: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    import orjson

    url = f"{clean_solr}/postings"
    data = tmp_path / "acme.jsonl"
    data.write_bytes(b"\n".join(orjson.dumps(p) for p in corpus()))

    def index() -> dict:
        res = subprocess.run([sys.executable, "-m", "service.cli", "index", str(data), "--solr", url,
                              "--state-dir", str(tmp_path / "state"), "-j", "0", "--summary-json"],
                             capture_output=True, timeout=300)
        assert res.returncode == 0, res.stderr
        return orjson.loads(res.stderr.strip().splitlines()[-1])

    first = index()
    assert first["by_status"] == {"new": len(JOBS)} and first["boilerplate_added"] == len(JOBS)
    saved = model_path(tmp_path / "state", url)
    assert load_model(saved).postings == len(JOBS)
    again = index()  # the same file again: nothing new to learn, nothing re-verified
    assert again["by_status"] == {"updated": len(JOBS)} and again["resent_unchanged"] == len(JOBS)
    assert "verifier_pairs" not in again and again.get("boilerplate_added", 0) == 0
    assert load_model(saved).postings == len(JOBS)


def test_a_periodic_save_on_a_full_disk_does_not_fail_a_written_batch(clean_solr: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    # the state directory's disk is full when a periodic save of the model is due: the batch is in Solr and its
    # postings journaled, so it is answered 200 (a 500 would report written postings as failed); a warning says so
    import errno

    import service.state

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(service.state, "write_atomic", full)
    app = create_app(f"{clean_solr}/postings", commit_within_ms=200, state_dir=str(tmp_path), cpu_workers=0)
    with TestClient(app) as client, caplog.at_level(logging.WARNING, logger="jobdedup.ingest"):
        app.state.ingestor.state.save_interval_s = 0  # a save is due after every batch
        app.state.ingestor.learn_every = 1  # ... and has a changed model to write
        for k, (title, duty) in enumerate(JOBS[:2]):
            res = client.post("/v1/postings", json={"postings": [{"id": f"j{k}", "title": title, "description": duty}]})
            assert res.status_code == 200 and res.json()["results"][0]["status"] == "new", res.text
        monkeypatch.undo()  # the shutdown save may write again
    assert "No space left on device" in caplog.text and "learning journal keeps" in caplog.text
    solr = Solr(f"{clean_solr}/postings")
    solr.commit()
    assert {d["id"] for d in solr.get(["j0", "j1"], fl="id")} == {"j0", "j1"}
