"""Benchmark the postings readers (service.io): JSON Lines and CSV, postings per second.

    python benchmarks/bench_read.py -n 100000          # generates the postings (service.synth), times both

Writes the generated postings as JSON Lines and as CSV in a temporary directory, then reads each with
`service.io.read_postings` (one process; best of --repeat runs of process CPU time). One JSON line.
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import io  # noqa: E402
from service.synth import generate  # noqa: E402

COLUMNS = ("id", "title", "company", "location", "description", "url", "first_seen")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    postings = list(generate(args.n, seed=1, resight_rate=0.0))
    with tempfile.TemporaryDirectory() as d:
        jl, cs = Path(d) / "p.jsonl", Path(d) / "p.csv"
        jl.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in postings))
        with open(cs, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            w.writerows([p.get(c, "") for c in COLUMNS] for p in postings)
        out = {"postings": args.n}
        for name, path in (("jsonl", jl), ("csv", cs)):
            best = float("inf")
            for _ in range(args.repeat):
                t = time.process_time()
                n = sum(1 for _ in io.read_postings(str(path)))
                best = min(best, time.process_time() - t)
            assert n == args.n
            out[f"{name}_postings_per_s"] = round(n / best)
            out[f"{name}_mb"] = round(path.stat().st_size / 1e6, 1)
    print(orjson.dumps(out).decode())


if __name__ == "__main__":
    main()
