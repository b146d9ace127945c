"""Benchmark of ingest with dedup into Solr (`jobdedup index` pipeline): postings/s and batch latency.

    python benchmarks/bench_ingest.py -n 5000                       # starts a local Solr, stops it after
    python benchmarks/bench_ingest.py -n 5000 --solr http://127.0.0.1:8983/solr/postings --clear

Batch latency is the time of the locked part of a batch (candidate query, decision, Solr update), the
part that bounds throughput; signatures are computed ahead in worker processes (--workers). Prints one
JSON line: postings/s over the whole run (incl. signature computation and the final commit), p50/p99.
"""

from __future__ import annotations

import argparse
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
    args = ap.parse_args()

    from service.cli_index import index_file
    from service.solr import Solr

    data = Path(tempfile.gettempdir()) / f"jobdedup-ingest-{args.n}-s{args.seed}.jsonl"
    if not data.exists():
        subprocess.run([sys.executable, "-m", "service.cli", "generate", "-n", str(args.n), "-o", str(data),
                        "--seed", str(args.seed)], check=True)
    home = None
    url = args.solr
    if url is None:
        home = tempfile.mkdtemp(prefix="bench-solr-")
        out = subprocess.run([str(REPO / "solr-config" / "local-solr"), "start", "--home", home, "--port", "18990"],
                             check=True, capture_output=True, text=True)
        url = out.stdout.strip().splitlines()[-1] + "/postings"
    try:
        if args.clear or home:
            Solr(url).delete_all()
        t0 = time.perf_counter()
        stats = index_file(str(data), url, batch_size=args.batch_size, workers=args.workers, quiet=True)
        stats["wall_s"] = round(time.perf_counter() - t0, 1)
        stats["collapsed"] = Solr(url).query({"q": "*:*", "rows": 0, "fq": "{!collapse field=dup_group}"})[
            "response"]["numFound"]
        print(orjson.dumps(stats).decode())
    finally:
        if home:
            subprocess.run([str(REPO / "solr-config" / "local-solr"), "stop", "--home", home], capture_output=True)


if __name__ == "__main__":
    main()
