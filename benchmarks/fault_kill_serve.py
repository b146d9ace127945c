"""Fault run: kill -9 of `jobdedup serve` while a client ingests, then a restart. Counts what was acknowledged,
what Solr holds and what the restarted service's boilerplate model has learned.

    python benchmarks/fault_kill_serve.py [--solr URL/postings] [-n 1500] [--batch 50] [--rounds 3]

Without --solr it starts its own local-solr in a temporary home. Per round: a fresh collection (delete
all) and state dir; a client posts batches of generated postings (distinct ids) and records the
acknowledged ones; serve is killed with SIGKILL at a random moment; restarted on the same state dir, it
reports the model's posting count (/metrics). Then the client re-sends every batch (what a client whose
batch was not acknowledged does) and the count is read again. One JSON line per round: acknowledged,
found in Solr, learned after the restart (>= acknowledged: the learning journal) and after the re-send
(= all postings, what a never-killed service learns: the batch in flight at the kill, stored by Solr but never
acknowledged, is learned when re-sent unchanged because its write intent was journaled).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from service_process import Service  # noqa: E402
from solr_fixture import CORE, clear_core, start_local_solr, stop_local_solr  # noqa: E402

from service.solr import Solr  # noqa: E402
from service.synth import generate  # noqa: E402

NO_TIMER = {"JOBDEDUP_STATE_SAVE_INTERVAL": "3600"}  # no periodic save: everything rides on the journal


def one_round(base: str, n: int, batch: int, seed: int) -> dict:
    rng = random.Random(seed)
    clear_core(base)
    url = f"{base}/{CORE}"
    posts = list({p["id"]: p for p in generate(3 * n, seed=seed, resight_rate=0.0)}.values())[:n]
    batches = [posts[i:i + batch] for i in range(0, len(posts), batch)]
    acked: list[str] = []
    with tempfile.TemporaryDirectory() as state:
        svc = Service(url, Path(state), env=NO_TIMER)

        def client() -> None:
            for b in batches:
                try:
                    r = requests.post(f"{svc.url}/v1/postings", json={"postings": b}, timeout=300)
                except requests.ConnectionError:
                    return
                if r.status_code == 200:
                    acked.extend(x["id"] for x in r.json()["results"] if x["status"] != "rejected")

        t = threading.Thread(target=client)
        t.start()
        time.sleep(rng.uniform(3.0, 12.0))
        svc.stop(signal.SIGKILL)
        t.join()
        Solr(url).commit()
        found = len(Solr(url).get(acked, fl="id")) if acked else 0
        svc = Service(url, Path(state), env=NO_TIMER)
        learned_restart = svc.learned()
        for b in batches:
            svc.post(b)
        learned_resend = svc.learned()
        svc.stop()
    return {"acknowledged": len(acked), "found_in_solr": found, "learned_after_restart": int(learned_restart),
            "learned_after_resend": int(learned_resend), "postings": len(posts)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solr", help="A collection URL (default: start a local-solr)")
    ap.add_argument("-n", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    home = None
    if args.solr:
        base = args.solr.rstrip("/").rsplit("/", 1)[0]
    else:
        home = Path(tempfile.mkdtemp(prefix="fault-solr-"))
        base = start_local_solr(home)
    try:
        for k in range(args.rounds):
            print(orjson.dumps({"round": k, **one_round(base, args.n, args.batch, seed=100 + k)}).decode(), flush=True)
    finally:
        if home is not None:
            stop_local_solr(home)


if __name__ == "__main__":
    main()
