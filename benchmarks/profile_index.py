"""Where `jobdedup index`'s wall time goes: one run of the bench's file, with the main process's time in
named steps (wall seconds, summed over batches; the Verifier's `prepare` runs inside `decide`).

    python benchmarks/profile_index.py --solr http://127.0.0.1:8983/solr -n 5000 --extra real.jsonl

Steps: `decide` (Ingestor._group_rows: candidates filter, Verifier, grouping; `prepare` inside it),
`candidates` (the Solr band / exact / blocking-key queries), `big_blocks` (the facet request), `solr_get`
(real-time gets), `write_wait` (the main thread waiting for a batch's /update: the request itself when the
write is synchronous, the rest of it when it overlaps the next batch's decisions) and `solr_update` (the
/update requests, in whichever thread). Prints one JSON object, with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_index_vs_dedup import _load, make_file  # noqa: E402

spent: Counter[str] = Counter()


def timed(owner: Any, name: str, step: str, main_only: bool = False) -> None:
    """Wrap owner.name so its wall time adds to `spent[step]` (`main_only`: calls in the main thread only)."""
    fn = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if main_only and threading.current_thread() is not threading.main_thread():
            return fn(*args, **kwargs)
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[step] += time.perf_counter() - t

    setattr(owner, name, wrapper)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--solr", required=True, help="base URL of a running Solr with core postings")
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--extra", help="more postings (JSON Lines) appended to the generated ones")
    ap.add_argument("--batch-size", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()

    from service import ingest
    from service.cli_index import index_file
    from service.solr import Solr

    data = Path(tempfile.mkdtemp(prefix="profile-index-")) / "postings.jsonl"
    make_file(data, args.n, args.seed, 0.1, args.extra)
    core = args.solr.rstrip("/") + "/postings"
    requests.post(f"{core}/update", json={"delete": {"query": "*:*"}}, params={"commit": "true"},
                  timeout=300).raise_for_status()
    timed(ingest.Ingestor, "_group_rows", "decide")
    timed(ingest.Ingestor, "_prepare", "prepare")
    timed(ingest.Ingestor, "_solr_candidates", "candidates")
    timed(ingest.Ingestor, "_big_blocks", "big_blocks")
    timed(Solr, "get", "solr_get", main_only=True)
    timed(Solr, "update", "solr_update")
    timed(Solr, "update", "write_wait", main_only=True)  # synchronous writes: the request is the wait
    if hasattr(ingest.Ingestor, "_wait_write"):  # overlapped writes: what is left of the request
        timed(ingest.Ingestor, "_wait_write", "write_wait")
    load = _load()
    t0, c0 = time.perf_counter(), time.process_time()
    stats = index_file(str(data), core, batch_size=args.batch_size, workers=args.workers, quiet=True,
                       state_dir=tempfile.mkdtemp(prefix="profile-state-"))
    out = {"postings": stats["postings"], "seconds": round(time.perf_counter() - t0, 2),
           "main_cpu_s": round(time.process_time() - c0, 2),
           "steps_s": {k: round(v, 2) for k, v in sorted(spent.items())}, "load_before": load, "load_after": _load()}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
