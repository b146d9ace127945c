"""The boilerplate model survives kill -9: a real `jobdedup serve` process indexing into a real Solr is killed
after some acknowledged batches; restarted, its model counts every one of them, exactly like a service that
was never killed (the learning journal, service.journal). Wrong-shaped state files never stop a start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from service_process import Service
from solr_fixture import CORE, clear_core

from service.state import BoilerplateState, model_path
from service.synth import generate
from signatures.boilerplate import BoilerplateModel

REPO = Path(__file__).resolve().parents[1]
NO_TIMER = {"JOBDEDUP_STATE_SAVE_INTERVAL": "3600"}  # the model is saved at shutdown only


def postings(n: int) -> list[dict[str, Any]]:
    """`n` synthetic postings with distinct ids (company blurbs repeat across jobs: boilerplate to learn)."""
    out: dict[str, dict[str, Any]] = {}
    for p in generate(3 * n, seed=11, resight_rate=0.0):
        out.setdefault(p["id"], p)
    return list(out.values())[:n]


def records_in(journal: Path) -> int:
    """Learning records in a journal file (its other lines are write intents and their oks)."""
    return sum(line.startswith(b"[") for line in journal.read_bytes().splitlines())


def line_counts(model: BoilerplateModel) -> dict[str, dict[int, int]]:
    """What the model decides with: distinct job keys per (scope, line) (which ones are kept under the cap
    depends on the learning order, their number does not)."""
    return {scope: {h: len(keys) for h, keys in t.items()} for scope, t in model._table.items()}


@pytest.fixture
def core(solr_url: str) -> Iterator[str]:
    clear_core(solr_url)
    yield f"{solr_url}/{CORE}"
    clear_core(solr_url)


def test_kill_9_loses_no_learning(core: str, solr_url: str, tmp_path: Path) -> None:
    batches = [postings(120)[i:i + 30] for i in range(0, 120, 30)]
    killed_dir, kept_dir = tmp_path / "killed", tmp_path / "kept"

    svc = Service(core, killed_dir, env=NO_TIMER)
    acknowledged = sum(len(svc.post(b)) for b in batches[:3])
    assert svc.learned() == acknowledged == 90
    svc.stop(signal.SIGKILL)
    path = model_path(killed_dir, core)
    assert not path.exists()  # never saved: before the journal, all of this was lost
    journals = list(path.parent.glob("*.journal"))
    assert len(journals) == 1 and records_in(journals[0]) == acknowledged

    svc = Service(core, killed_dir, env=NO_TIMER)
    assert svc.learned() == acknowledged  # replayed from the dead process's journal
    assert all(r["status"] == "updated" for r in svc.post(batches[0]))  # re-sent unchanged: not learned twice
    svc.post(batches[3])
    assert svc.learned() == 120
    svc.stop()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # saved at shutdown; journals gone
    recovered = BoilerplateModel.from_bytes(path.read_bytes())

    # the same batches through a service that is never killed
    clear_core(solr_url)
    svc = Service(core, kept_dir, env=NO_TIMER)
    for b in batches:
        svc.post(b)
    svc.stop()
    kept = BoilerplateModel.from_bytes(model_path(kept_dir, core).read_bytes())
    assert recovered.postings == kept.postings == 120
    assert line_counts(recovered) == line_counts(kept) != {}


# -- wrong-shaped state files -------------------------------------------------------------------------

def jdbp(doc: Any) -> bytes:
    return b"JDBP" + zlib.compress(json.dumps(doc).encode())  # json: any int, NaN


GOOD = orjson.loads(zlib.decompress(BoilerplateModel.fit(postings(5)).to_bytes()[4:]))
WRONG_SHAPES = [
    jdbp(None), jdbp([]), jdbp([1, 2]), jdbp("JDBP"), jdbp(1), jdbp({}),
    jdbp({**GOOD, "min_jobs": "3"}), jdbp({**GOOD, "weight": None}), jdbp({**GOOD, "weight": 7}),
    jdbp({**GOOD, "postings": -1}), jdbp({**GOOD, "postings": 1.5}), jdbp({**GOOD, "table": []}),
    jdbp({**GOOD, "table": {"*": {"1": [2]}}}), jdbp({**GOOD, "table": {"*": [[1]]}}),
    jdbp({**GOOD, "table": {"*": [["1", [2]]]}}), jdbp({**GOOD, "table": {"*": [[-1, [2]]]}}),
    jdbp({**GOOD, "table": {"*": [[1, [2 ** 64]]]}}), jdbp({**GOOD, "min_jobs": True}),
    jdbp({**GOOD, "weight": float("nan")}), jdbp({**GOOD, "postings": 2 ** 70}),
    b"JDBP", b"JDBP" + zlib.compress(b"{\"format\": 1"), b"JDBP\x78\x9c", b"\x00" * 10,
]


@pytest.mark.parametrize("data", WRONG_SHAPES, ids=range(len(WRONG_SHAPES)))
def test_a_wrong_shaped_state_file_is_a_warning_and_an_empty_model(data: bytes, tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    url = "http://127.0.0.1:9/solr/postings"
    path = model_path(tmp_path, url)
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    from service.app import create_app

    with caplog.at_level("WARNING", logger="jobdedup.state"):
        app = create_app(url, state_dir=str(tmp_path))  # what `serve` does at start
    assert app.state.ingestor.boilerplate.postings == 0
    assert "unreadable" in caplog.text
    assert (path.parent / (path.name + ".corrupt")).read_bytes() == data and not path.exists()
    app.state.ingestor.state.close()


def test_a_journal_cut_mid_line_replays_its_whole_records(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    path = model_path(tmp_path, "http://127.0.0.1:9/solr/postings")
    ps = postings(8)
    code = (f"from pathlib import Path; import os, signal\n"
            f"from service.state import BoilerplateState\n"
            f"import orjson\n"
            f"ps = orjson.loads(Path({str(tmp_path / 'p.json')!r}).read_bytes())\n"
            f"st = BoilerplateState(Path({str(path)!r}))\n"
            f"st.add(st.journal(ps[:3])); st.write(st.snapshot())\n"   # saved: dropped from the journal
            f"st.add(st.journal(ps[3:6])); st.journal(ps[6:])\n"      # learned / written, not saved
            f"os.kill(os.getpid(), signal.SIGKILL)\n")
    (tmp_path / "p.json").write_bytes(orjson.dumps(ps))
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                         capture_output=True, timeout=60)
    assert res.returncode == -signal.SIGKILL, res.stderr.decode()
    (journal,) = path.parent.glob("*.journal")
    assert len(journal.read_bytes().splitlines()) == 5
    with journal.open("ab") as fh:
        fh.write(b'[123,["*"],[4')  # a write torn by the kill
    with caplog.at_level("WARNING", logger="jobdedup.state"):
        st = BoilerplateState(path)
    assert "1 unreadable line" in caplog.text
    assert st.model.postings == 8
    assert line_counts(st.model) == line_counts(BoilerplateModel.fit(ps))
    assert not journal.exists()  # taken over by the new process's journal ...
    (mine,) = path.parent.glob("*.journal")
    assert len(mine.read_bytes().splitlines()) == 5
    st.write(st.snapshot())  # ... until its next save
    assert mine.read_bytes() == b""
    st.close()
    assert BoilerplateState(path).model.postings == 8  # nothing replayed twice


def test_a_live_process_journal_is_not_taken(tmp_path: Path) -> None:
    path = model_path(tmp_path, "http://127.0.0.1:9/solr/postings")
    ps = postings(3)
    serving = BoilerplateState(path)
    serving.journal(ps)  # written, not yet learned nor saved
    assert BoilerplateState(path).model.postings == 0  # e.g. `index` beside `serve`: its journal is serve's
    assert len(list(path.parent.glob("*.journal"))) == 1
    serving.close()  # gone without a save (as after kill -9: the lock is released)
    recovered = BoilerplateState(path)
    assert recovered.model.postings == 3
    recovered.write(recovered.snapshot())
    recovered.close()
    assert not list(path.parent.glob("*.journal"))  # saved: nothing left to replay
    quiet = BoilerplateState(path)
    assert quiet.model.postings == 3
    quiet.close()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # journaled nothing: no file


KILL_AT = """
import os, signal, sys
from pathlib import Path
import orjson
from service.ingest import Ingestor
from service.solr import Solr
from service.state import BoilerplateState
url, state_dir, data, where = sys.argv[1:5]
ingestor = Ingestor(Solr(url), state=BoilerplateState.for_collection(state_dir, url))
die = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
if where == "after-write":   # Solr stored the batch, the service died before it could answer
    ingestor.state.journal = die
else:                        # died before the batch reached Solr
    ingestor._write = die
ingestor.ingest(orjson.loads(Path(data).read_bytes()))
"""


@pytest.mark.parametrize("where", ["after-write", "before-write"])
def test_the_batch_in_flight_at_kill_9_is_learned_once_when_re_sent(where: str, core: str, tmp_path: Path) -> None:
    batch = postings(20)
    (tmp_path / "p.json").write_bytes(orjson.dumps(batch))
    res = subprocess.run([sys.executable, "-c", KILL_AT, core, str(tmp_path / "state"), str(tmp_path / "p.json"),
                          where], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                         timeout=120)
    assert res.returncode == -signal.SIGKILL, res.stderr.decode()[-2000:]
    svc = Service(core, tmp_path / "state", env=NO_TIMER)
    try:
        assert svc.learned() == 0  # nothing acknowledged, nothing learned yet
        statuses = {r["status"] for r in svc.post(batch)}  # the client retries the unanswered batch
        assert (statuses == {"updated"}) if where == "after-write" else ("updated" not in statuses)
        assert svc.learned() == len(batch)  # after-write: re-sent unchanged, learned because Solr holds it
    finally:
        svc.stop()


def test_an_unsettled_write_survives_saves_and_restarts_until_confirmed(tmp_path: Path) -> None:
    path = model_path(tmp_path, "http://127.0.0.1:9/solr/postings")
    a, b = postings(6)[:3], postings(6)[3:]
    st = BoilerplateState(path)
    st.intend((p["id"], "k" + p["id"], p) for p in a)  # the write of `a` raises: outcome unknown
    st.intend((p["id"], "k" + p["id"], p) for p in b)
    st.add(st.journal(b))                               # `b` written and learned
    st.write(st.snapshot())                             # saved: b's records dropped, a's intent kept
    assert [pid for pid, _, _ in st.unconfirmed()] == [p["id"] for p in a]
    st.close()                                          # dies before the next batch could check Solr
    again = BoilerplateState(path)
    assert again.model.postings == 3                    # b, from the saved model; a not learned blindly
    pending = again.unconfirmed()
    assert [(pid, key) for pid, key, _ in pending] == [(p["id"], "k" + p["id"]) for p in a]
    again.add(again.confirm(rec for pid, _, rec in pending if pid != a[0]["id"]))  # Solr holds 2 of them
    again.write(again.snapshot())
    again.close()
    assert not list(path.parent.glob("*.journal"))
    last = BoilerplateState(path)
    assert last.model.postings == 5 and last.unconfirmed() == []
