"""Benchmark of ingest with dedup into Solr (`jobdedup index` pipeline): postings/s and batch latency.

    python benchmarks/bench_ingest.py -n 5000                       # starts a local Solr, stops it after
    python benchmarks/bench_ingest.py -n 5000 --solr http://127.0.0.1:8983/solr/postings --clear

Data: `jobdedup generate` postings with --dup-rate (default 0.5: about half the postings re-post an
earlier job, reworded/reformatted), so the verifier sees real ambiguous pairs. Two passes over the same
file into the same collection:
* `index`  -- every posting is new: candidates, verifier, write, boilerplate learning;
* `resend` -- the same file again (a crawler re-sending what it saw): every posting is unchanged.
Batch latency is the time of `Ingestor.apply` for one batch (the pre-check, extraction of new postings
unless --workers computed it ahead, candidate query, decision, Solr update); signatures are computed in
worker processes (--workers). Prints one JSON line per pass: postings/s over the pass (incl. signature
computation and the final commit), p50/p99 batch latency and the ingest counters (verifier pairs,
resent_unchanged, extracted). Runs with an older checkout too (PYTHONPATH=OLD_TREE): counters it does
not have are left out, which is how the before/after figures in the README were measured.
"""

from __future__ import annotations

import argparse
import inspect
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--solr", help="collection URL (default: start solr-config/local-solr in a temp dir)")
    ap.add_argument("--clear", action="store_true", help="delete every document first")
    ap.add_argument("--batch-size", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--dup-rate", type=float, default=0.5, help="share of postings re-posting an earlier job")
    ap.add_argument("--passes", default="index,resend", help="comma list of passes: index, resend")
    ap.add_argument("--port", type=int, default=18990)
    args = ap.parse_args()

    from service.cli_index import index_file
    from service.solr import Solr

    data = Path(tempfile.gettempdir()) / f"jobdedup-ingest-{args.n}-s{args.seed}-d{args.dup_rate}.jsonl"
    if not data.exists():
        subprocess.run([sys.executable, "-m", "service.cli", "generate", "-n", str(args.n), "-o", str(data),
                        "--seed", str(args.seed), "--dup-rate", str(args.dup_rate), "--resight-rate", "0"],
                       check=True)
    home = None
    url = args.solr
    if url is None:
        home = tempfile.mkdtemp(prefix="bench-solr-")
        out = subprocess.run([str(REPO / "solr-config" / "local-solr"), "start", "--home", home, "--port",
                              str(args.port)], check=True, capture_output=True, text=True)
        url = out.stdout.strip().splitlines()[-1] + "/postings"
    kwargs = {}
    if "state_dir" in inspect.signature(index_file).parameters:
        kwargs["state_dir"] = tempfile.mkdtemp(prefix="bench-state-")
    try:
        if args.clear or home:
            Solr(url).delete_all()
        for name in args.passes.split(","):
            t0 = time.perf_counter()
            stats = index_file(str(data), url, batch_size=args.batch_size, workers=args.workers, quiet=True, **kwargs)
            stats = {"pass": name, "n": args.n, "dup_rate": args.dup_rate, "workers": args.workers, **stats,
                     "wall_s": round(time.perf_counter() - t0, 1)}
            stats["collapsed"] = Solr(url).query({"q": "*:*", "rows": 0, "fq": "{!collapse field=dup_group}"})[
                "response"]["numFound"]
            print(orjson.dumps(stats).decode(), flush=True)
    finally:
        if home:
            subprocess.run([str(REPO / "solr-config" / "local-solr"), "stop", "--home", home], capture_output=True)


if __name__ == "__main__":
    main()
