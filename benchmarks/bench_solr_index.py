"""Warm start time of local-solr and indexing throughput through the postings update chain.

    python benchmarks/bench_solr_index.py [--n 20000] [--batch 1000] [--repeat 3] [--jit quick|full]
    python benchmarks/bench_solr_index.py --solr http://127.0.0.1:8983/solr   # an already running Solr

Without --solr it starts its own local-solr in a temporary home (after one build, so the start is warm),
timing `local-solr start` until Solr answers. Then, per repeat: delete all, POST generated postings
(synthetic en/zh/ja with awkward Unicode, tests/solr_fixture.generate_postings) to /update as JSON in
batches, one client, then commit. Throughput = postings / (time of all batches + the final commit).
Every posting runs the default chain: TextProfileSignature over title, description, dup_group
default, copyFields into the English/Chinese/Japanese analyzers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from solr_fixture import LOCAL_SOLR, free_port, generate_postings  # noqa: E402


def start(home: Path, jit: str) -> tuple[str, float]:
    """Start local-solr under `home`; return (base URL, seconds until it answered)."""
    env = dict(os.environ)
    if jit == "full":
        env["LOCAL_SOLR_JIT_OPTS"] = ""
    t0 = time.perf_counter()
    res = subprocess.run([str(LOCAL_SOLR), "start", "--home", str(home), "--port", str(free_port())],
                         capture_output=True, text=True, env=env, timeout=900)
    took = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"local-solr start failed:\n{res.stderr[-3000:]}")
    return res.stdout.strip().splitlines()[-1], took


def index_run(url: str, bodies: list[bytes], n: int) -> float:
    """Delete all, post every batch, commit; return postings per second."""
    s = requests.Session()
    upd = f"{url}/postings/update"
    hdr = {"Content-Type": "application/json"}
    s.post(upd, data=b'{"delete":{"query":"*:*"},"commit":{}}', headers=hdr, timeout=300).raise_for_status()
    t0 = time.perf_counter()
    for body in bodies:
        r = s.post(upd, data=body, headers=hdr, timeout=300)
        if r.status_code != 200:
            raise SystemExit(f"update failed: {r.text[:1000]}")
    s.post(upd, data=b'{"commit":{}}', headers=hdr, timeout=300).raise_for_status()
    took = time.perf_counter() - t0
    found = s.get(f"{url}/postings/select", params={"q": "*:*", "rows": 0, "wt": "json"}, timeout=60).json()
    assert found["response"]["numFound"] == n, found["response"]["numFound"]
    return n / took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--solr", help="base URL of a running Solr with core postings (default: start local-solr)")
    ap.add_argument("--n", type=int, default=20000, help="postings per run")
    ap.add_argument("--batch", type=int, default=1000, help="postings per /update request")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--starts", type=int, default=3, help="warm starts to time (without --solr)")
    ap.add_argument("--jit", choices=("quick", "full"), default="full",
                    help="quick: C1 only (local-solr's default, fast start); full: C1+C2 (best throughput)")
    args = ap.parse_args()
    if args.n < 1 or args.batch < 1 or args.repeat < 1:
        ap.error("--n, --batch and --repeat must be >= 1")

    postings = generate_postings(args.n, seed=42)
    for p in postings:
        p.pop("_truth", None)
    bodies = [orjson.dumps(postings[i : i + args.batch]) for i in range(0, len(postings), args.batch)]
    mb = sum(map(len, bodies)) / 1e6
    out: dict[str, object] = {"n": args.n, "batch": args.batch, "payload_mb": round(mb, 1), "jit": args.jit}

    with tempfile.TemporaryDirectory(prefix="bench-solr-") as tmp:
        home = Path(tmp)
        url = args.solr
        if url is None:
            starts = []
            for _ in range(args.starts):
                url, took = start(home, args.jit)
                starts.append(took)
                subprocess.run([str(LOCAL_SOLR), "stop", "--home", str(home)], capture_output=True, timeout=120)
            out["warm_start_s"] = {"best": round(min(starts), 2), "median": round(statistics.median(starts), 2),
                                   "all": [round(x, 2) for x in starts]}
            url, _ = start(home, args.jit)
        try:
            rates = [index_run(url, bodies, args.n) for _ in range(args.repeat)]
        finally:
            if args.solr is None:
                subprocess.run([str(LOCAL_SOLR), "stop", "--home", str(home)], capture_output=True, timeout=120)
    out["postings_per_s"] = {"best": round(max(rates)), "median": round(statistics.median(rates)),
                             "all": [round(r) for r in rates]}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
