"""`jobdedup dedup` default (Verifier) next to `--fast` and plain MinHash-LSH scripts, in one run.

    python benchmarks/bench_default_vs_fast.py -n 20000 100000 --plain      # generated --seed 7 files
    python benchmarks/bench_default_vs_fast.py --input FILE.jsonl
    python benchmarks/bench_default_vs_fast.py -n 20000 --code /tmp/before  # another checkout's code too

Per input: wall seconds and peak memory of the whole process tree (summed RSS and summed PSS, see
bench_dedup.measure) of `dedup` default and `dedup --fast` (and, with --plain, benchmarks/plain_lsh_dedup.py
with rensa and datasketch); the ratios the issue's bars are about (default / --fast, default / rensa);
with --code DIR the same CLI runs from DIR first (PYTHONPATH=DIR: before/after on one machine state).
One JSON line per run, then a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import orjson
from bench_dedup import generated, measure

HERE = Path(__file__).resolve().parent


def _dedup(data: Path, fast: bool, code: str, workers: int | None) -> dict:
    cmd = [sys.executable, "-m", "service.cli", "dedup", str(data), "-o", os.devnull, "--summary-json", "-q"]
    if fast:
        cmd.append("--fast")
    if workers:
        cmd += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": code}
    run = measure(cmd, env=env, cwd=code)
    summary = orjson.loads(run.pop("stderr").strip().splitlines()[-1])
    run.update({"groups": summary["groups"], "postings": summary["postings"], "phases": summary.get("phases")})
    return run


def _plain(data: Path, lib: str) -> dict:
    run = measure([sys.executable, str(HERE / "plain_lsh_dedup.py"), "--lib", lib, str(data), "-o", os.devnull])
    summary = orjson.loads(run.pop("stderr").strip().splitlines()[-1])
    run.update({"groups": summary["groups"], "postings": summary["postings"]})
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, nargs="*", default=[], help="generated inputs of these sizes (--seed 7)")
    ap.add_argument("--input", nargs="*", default=[], help="existing postings files")
    ap.add_argument("--plain", action="store_true", help="also the plain rensa / datasketch MinHash-LSH scripts")
    ap.add_argument("--code", help="also run the CLI of this checkout (before/after)")
    ap.add_argument("--no-fast", action="store_true", help="skip --fast")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    repo = str(HERE.parent)
    inputs = [Path(p) for p in args.input] + [generated(n) for n in args.n]
    rows = []
    for data in inputs:
        runs: dict[str, dict] = {}
        if args.code:
            runs["default (--code)"] = _dedup(data, False, args.code, args.workers)
        runs["default"] = _dedup(data, False, repo, args.workers)
        if not args.no_fast:
            runs["--fast"] = _dedup(data, True, repo, args.workers)
        if args.plain:
            runs["rensa"] = _plain(data, "rensa")
            runs["datasketch"] = _plain(data, "datasketch")
        for name, r in runs.items():
            print(orjson.dumps({"input": str(data), "run": name, **r}).decode(), flush=True)
        d = runs["default"]["seconds"]
        ratios = {f"default/{k}": round(d / v["seconds"], 2) for k, v in runs.items() if k != "default"}
        print(orjson.dumps({"input": str(data), **ratios}).decode(), flush=True)
        rows.append((data.name, runs, ratios))
    print("\n| input | run | seconds | CPU s | peak RSS tree MiB | peak PSS tree MiB | groups |\n|---|---|---|---|---|---|---|")
    for name, runs, ratios in rows:
        for k, r in runs.items():
            print(f"| {name} | {k} | {r['seconds']} | {r['cpu_s']} | {r['peak_rss_process_tree_mib']} | "
                  f"{r['peak_pss_process_tree_mib']} | {r['groups']} |")
        print(f"| {name} | ratios | {', '.join(f'{k} {v}x' for k, v in ratios.items())} | | | | |")


if __name__ == "__main__":
    main()
