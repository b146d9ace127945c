"""CPU per posting and per pair of the default mode's verifier step (`jobdedup dedup` without --fast).

    PYTHONPATH=. python benchmarks/bench_verify_stage.py /tmp/jobdedup-bench-20000-s7.jsonl
    PYTHONPATH=/other/checkout python benchmarks/bench_verify_stage.py FILE     # the same on another version

Runs the whole dedup in this one process (workers=1, so CPU time is all here) and measures with
time.process_time: the run, the verifier's extraction pass (extract, line hashes, spooling) and its
decide pass (load, prepare, pair features, model), per verified posting and per verified pair. One JSON line.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import orjson

from service import embedded, verify_stage


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    args = ap.parse_args()
    spent = {"extract": 0.0, "decide": 0.0}

    def timed(name: str, fn: Any) -> Any:
        def run(task: Any) -> Any:
            t = time.process_time()
            try:
                return fn(task)
            finally:
                spent[name] += time.process_time() - t
        return run

    verify_stage._extract_task = timed("extract", verify_stage._extract_task)
    verify_stage._decide_task = timed("decide", verify_stage._decide_task)
    t0, w0 = time.process_time(), time.perf_counter()
    with open(os.devnull, "wb") as out:
        summary = embedded.dedup_file(args.input, out, workers=1, quiet=True)
    cpu = time.process_time() - t0
    posts, pairs = summary.phases.get("verify_postings", 0), summary.phases.get("verify_pairs", 0)
    print(orjson.dumps({
        "input": args.input, "postings": summary.postings, "groups": summary.groups,
        "verified_postings": posts, "verified_pairs": pairs, "cpu_s": round(cpu, 2),
        "wall_s": round(time.perf_counter() - w0, 2),
        "cpu_ms_per_posting": round(cpu / max(summary.postings, 1) * 1e3, 3),
        "extract_ms_per_verified_posting": round(spent["extract"] / max(posts, 1) * 1e3, 3),
        "decide_ms_per_verified_posting": round(spent["decide"] / max(posts, 1) * 1e3, 3),
        "decide_ms_per_pair": round(spent["decide"] / max(pairs, 1) * 1e3, 3),
        "load": os.getloadavg()[0],
    }).decode())


if __name__ == "__main__":
    main()
