"""`jobdedup recompute` over a real Solr: repairs corrupted signatures and groups, a run killed mid-way
and resumed ends identical to an uninterrupted one, its groups equal the embedded dedup's (default
verifier mode and --fast), and it saves the boilerplate model refitted from the whole collection."""

from __future__ import annotations

import io as _io
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import requests

from service.embedded import dedup_file
from service.features import compute_features
from service.ingest import Ingestor
from service.solr import Solr
from service.state import BoilerplateState, model_path
from service.synth import generate
from signatures.boilerplate import BoilerplateModel
from signatures.profile import PROFILE_FIELDS
from signatures.textprofile import solr_fields_signatures

pytestmark = pytest.mark.solr

N = 700
ROWS = 100


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True, timeout=600)


def snapshot(solr: Solr) -> dict[str, tuple]:
    solr.commit()
    res = solr.query({"q": "*:*", "rows": 10000, "sort": "id asc",
                      "fl": "id,dup_group,duplicate_of,dup_score,profile_sig,sig_version,mh_sketch,signature"})
    return {d["id"]: (d.get("dup_group"), d.get("duplicate_of"), d.get("dup_score"), d.get("profile_sig"),
                      d.get("sig_version"), d.get("mh_sketch"), d.get("signature")) for d in res["response"]["docs"]}


def corrupt(solr: Solr, ids: list[str]) -> None:
    """What racing ingests and an old code version leave behind: split/merged groups, stale signatures."""
    updates = []
    for k, pid in enumerate(ids):
        if k % 3 == 0:
            updates.append({"id": pid, "dup_group": {"set": f"split-{k}"}, "duplicate_of": {"set": None}})
        elif k % 3 == 1:
            updates.append({"id": pid, "dup_group": {"set": "merged"}, "duplicate_of": {"set": "merged"}})
        if k % 5 == 0:  # a stale Solr signature too: signed over other fields (SIG_VERSION 1 signed company)
            updates.append({"id": pid, "profile_sig": {"set": "0" * 32}, "sig_version": {"set": "0"},
                            "signature": {"set": "1" * 32}})
        elif k % 5 == 1:  # a company key of another reading (before the employer's trade name), all else current
            updates.append({"id": pid, "company_key_s": {"set": "00000000deadbeef"}})
    solr.update(updates, commit=True)


@pytest.fixture
def indexed(clean_solr: str, tmp_path: Path) -> tuple[Solr, list[dict]]:
    postings = list(generate(N, seed=8, resight_rate=0.0))
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=500)
    for s in range(0, N, 100):
        ing.ingest(postings[s:s + 100])
    solr.commit()
    return solr, postings


def test_recompute_resumed_equals_uninterrupted_and_repairs(indexed: tuple[Solr, list[dict]], tmp_path: Path) -> None:
    solr, postings = indexed
    ids = sorted(p["id"] for p in postings)[::4]
    corrupt(solr, ids)
    state = tmp_path / "state"
    res = cli("recompute", "--solr", solr.url, "--checkpoint", str(tmp_path / "a"), "--rows", str(ROWS),
              "--state-dir", str(state))
    assert res.returncode == 0, res.stderr
    assert b"postings seen" in res.stderr and b"signatures changed" in res.stderr
    uninterrupted = snapshot(solr)

    # the boilerplate model was refitted from every posting and saved where serve/index load it
    model_file = model_path(state, solr.url)
    model = BoilerplateModel.from_bytes(model_file.read_bytes())
    assert model.postings == N and len(model) > 0
    assert BoilerplateState.for_collection(state, solr.url).model.postings == N

    corrupt(solr, ids)
    killed = cli("recompute", "--solr", solr.url, "--checkpoint", str(tmp_path / "b"), "--rows", str(ROWS),
                 "--stop-after-pages", "3", "-q", "--state-dir", str(state))
    assert killed.returncode == 75, killed.stderr
    assert snapshot(solr) != uninterrupted  # really stopped mid-way
    assert (tmp_path / "b" / "checkpoint.json").exists()
    resumed = cli("recompute", "--solr", solr.url, "--checkpoint", str(tmp_path / "b"), "--rows", str(ROWS),
                  "--resume", "--state-dir", str(state))
    assert resumed.returncode == 0, resumed.stderr
    assert snapshot(solr) == uninterrupted
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()  # removed after a complete run

    # repaired: every stale signature is current again, and the groups are those of the embedded dedup
    assert all(v[4] == uninterrupted[ids[0]][4] and v[3] != "0" * 32 for v in uninterrupted.values())
    by_id = {p["id"]: p for p in postings}
    want = dict(zip(by_id, solr_fields_signatures(list(by_id.values()), PROFILE_FIELDS), strict=True))
    assert {k: v[6] for k, v in uninterrupted.items()} == want  # Solr's signature over the configset's fields
    company = {d["id"]: d.get("company_key_s", "") for d in solr.query(
        {"q": "*:*", "rows": 10000, "fl": "id,company_key_s"})["response"]["docs"]}
    keys = [f"{k:016x}" if k else "" for k in compute_features(list(by_id.values())).company.tolist()]
    assert company == dict(zip(by_id, keys, strict=True))  # every company key of the current reading
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(p) for p in postings))
    out = _io.BytesIO()
    summary = dedup_file(str(path), out, workers=1, quiet=True)  # default: the verifier decides ambiguous pairs
    assert summary.evidence["verifier"] > 0  # the comparison covers verified pairs, not only exact evidence
    rows = list(map(orjson.loads, out.getvalue().splitlines()))
    embedded = {r["id"]: (r["group"], r["duplicate_of"]) for r in rows}
    assert {k: v[:2] for k, v in uninterrupted.items()} == embedded
    # dup_score / why carry the verifier's decision for verified postings, as dedup's output does
    stored = {d["id"]: d for d in solr.query({"q": "*:*", "rows": 10000, "fl": "id,dup_score,dup_why_ss,dup_match_s"})[
        "response"]["docs"]}
    verified = [r for r in rows if r["duplicate_of"] and "verifier" in r["why"]]
    assert verified
    for r in verified:
        assert "verifier" in stored[r["id"]]["dup_why_ss"] and any(w.startswith("p=") for w in stored[r["id"]]["dup_why_ss"])
        assert stored[r["id"]]["dup_score"] == pytest.approx(r["score"], abs=1e-3)

    # --fast regroups like dedup --fast
    res = cli("recompute", "--solr", solr.url, "--checkpoint", str(tmp_path / "f"), "--rows", str(ROWS), "--fast",
              "--state-dir", str(state))
    assert res.returncode == 0, res.stderr
    assert f"{N:,} postings seen, 0 signatures changed".encode() in res.stderr  # all current: nothing rewritten
    out = _io.BytesIO()
    dedup_file(str(path), out, workers=1, quiet=True, verify=False)
    fast = {r["id"]: (r["group"], r["duplicate_of"]) for r in map(orjson.loads, out.getvalue().splitlines())}
    assert {k: v[:2] for k, v in snapshot(solr).items()} == fast

    # atomic updates kept the (unstored) band keys searchable
    some = postings[0]["id"]
    keys = requests.post(f"{solr.base}/postings/get", data={"id": some, "fl": "mh_sketch", "wt": "json"}).json()
    assert keys["doc"]["mh_sketch"]
    from service import sketching
    from signatures import minhash

    band = sketching.band_keys(minhash.decode_sketch(keys["doc"]["mh_sketch"]))[0]
    hits = solr.query({"q": f"mh_bands:{band}", "fl": "id", "rows": 100})["response"]["docs"]
    assert some in {d["id"] for d in hits}


def test_recompute_errors_are_one_line(tmp_path: Path) -> None:
    res = cli("recompute", "--solr", "http://127.0.0.1:9/solr/postings", "--checkpoint", str(tmp_path / "c"),
              "--state-dir", str(tmp_path / "state"))
    assert res.returncode == 2 and b"Traceback" not in res.stderr
    assert b"not reachable" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert b"checkpointed" not in res.stderr and not (tmp_path / "c").exists()
    res = cli("recompute", "--solr", "http://127.0.0.1:9/solr")
    assert res.returncode != 0 and b"collection" in res.stderr and b"Traceback" not in res.stderr


def test_recompute_in_solrcloud_moves_regrouped_postings_to_their_shard(solr_cloud_url: str, tmp_path: Path) -> None:
    """The cloud collection routes by dup_group: regrouped postings are re-added on the right shard."""
    solr = Solr(f"{solr_cloud_url}/postings")
    solr.delete_all()
    postings = list(generate(300, seed=9, resight_rate=0.0))
    ing = Ingestor(solr, commit_within_ms=500)
    for s in range(0, len(postings), 100):
        ing.ingest(postings[s:s + 100])
    solr.commit()
    # corrupt: move every fourth posting into a bogus group (re-add, then delete the old copy, as routing
    # requires); every other move is cut short, its old copy left on the old group's shard
    docs = solr.query({"q": "*:*", "fl": "*", "rows": 1000, "sort": "id asc"})["response"]["docs"][::4]
    derived = solr.copy_field_targets() | {"_version_", "mh_bands"}
    bogus = [{**{k: v for k, v in d.items() if k not in derived}, "dup_group": f"bogus-{k % 5}"}
             for k, d in enumerate(docs)]
    solr.update(bogus)
    solr.delete_copies([c for c in solr.copies([d["id"] for d in bogus[::2]]) if not c["dup_group"].startswith("bogus-")])
    solr.commit()
    assert solr.count() > len(postings)
    res = cli("recompute", "--solr", solr.url, "--checkpoint", str(tmp_path / "cloud"), "--rows", "80",
              "--state-dir", str(tmp_path / "state"))
    assert res.returncode == 0, res.stderr
    solr.commit()
    assert solr.count() == len(postings)  # numFound: every copy on every shard
    shard_groups = []
    for shard in ("shard1", "shard2"):
        r = solr.query({"q": "*:*", "fl": "id,dup_group", "rows": 1000, "shards": shard})["response"]["docs"]
        shard_groups.append({d["dup_group"] for d in r})
    assert not shard_groups[0] & shard_groups[1], "a group is split across shards"
    assert not any(g.startswith("bogus") for g in shard_groups[0] | shard_groups[1])
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(p) for p in postings))
    out = _io.BytesIO()
    dedup_file(str(path), out, workers=1, quiet=True)  # the same decision as recompute: verifier by default
    embedded = {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}
    got = {d["id"]: d["dup_group"] for d in solr.query({"q": "*:*", "fl": "id,dup_group", "rows": 1000})["response"]["docs"]}
    assert got == embedded
    collapsed = solr.query({"q": "*:*", "rows": 0, "fq": "{!collapse field=dup_group}"})["response"]["numFound"]
    assert collapsed == len(set(embedded.values()))


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_recompute_checkpoint_lives_in_the_state_dir_belongs_to_its_collection(clean_solr: str, tmp_path: Path) -> None:
    """Default checkpoint under --state-dir per collection, removed after success; a wrong URL or another
    collection's checkpoint is a one-line error that leaves the checkpoint as it was."""
    solr = Solr(f"{clean_solr}/postings")
    ing = Ingestor(solr, commit_within_ms=500)
    ing.ingest(list(generate(150, seed=5, resight_rate=0.0)))
    solr.commit()
    work = tmp_path / "cwd"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "service.cli", "recompute", *args], capture_output=True,
                              timeout=600, cwd=work, env=env)

    state = work / "state"
    ckpt = model_path(state, solr.url).parent / "recompute.ckpt"
    killed = run("--solr", solr.url, "--state-dir", str(state), "--rows", "50", "--stop-after-pages", "2", "-q")
    assert killed.returncode == 75, killed.stderr
    assert (ckpt / "checkpoint.json").exists()
    before = files_under(ckpt)
    other = work / "other.ckpt"
    other.mkdir()
    (other / "checkpoint.json").write_bytes(orjson.dumps({"solr": "http://elsewhere:8983/solr/jobs",
                                                          "sig_version": "x"}))
    notes = work / "notes"
    notes.mkdir()
    (notes / "keep.txt").write_bytes(b"mine")
    for args in (
        ("--solr", "http://127.0.0.1:9/solr/postings", "--checkpoint", str(ckpt)),  # unreachable Solr
        ("--solr", "http://127.0.0.1:9/solr/postings", "--checkpoint", str(ckpt), "--resume"),
        ("--solr", f"{clean_solr}/nosuch", "--checkpoint", str(ckpt)),  # reachable Solr, no such collection
        ("--solr", solr.url, "--checkpoint", str(other)),  # another collection's checkpoint
        ("--solr", solr.url, "--checkpoint", str(other), "--resume"),
        ("--solr", solr.url, "--checkpoint", str(notes)),  # not a checkpoint at all: never cleared
        ("--solr", solr.url, "--checkpoint", str(notes / "keep.txt")),  # a file
    ):
        res = run(*args, "--state-dir", str(state))
        assert res.returncode == 2, (args, res.stderr)
        assert len(res.stderr.strip().splitlines()) == 1 and b"checkpointed" not in res.stderr, res.stderr
    assert files_under(ckpt) == before
    assert (other / "checkpoint.json").exists() and (notes / "keep.txt").read_bytes() == b"mine"
    resumed = run("--solr", solr.url, "--state-dir", str(state), "--rows", "50", "--resume", "-q")
    assert resumed.returncode == 0, resumed.stderr
    assert not ckpt.exists() and model_path(state, solr.url).exists()
    assert sorted(p.name for p in work.iterdir()) == ["notes", "other.ckpt", "state"]  # nothing left in the cwd
