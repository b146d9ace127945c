"""Benchmark of the embedded dedup (`jobdedup dedup`): wall time and peak memory for N postings.

    python benchmarks/bench_dedup.py -n 1000000            # generates /tmp/jobdedup-bench-1000000.jsonl once
    python benchmarks/bench_dedup.py --input FILE.jsonl    # any postings file (e.g. ../shared/data/*.jsonl)

Runs the real CLI in a child process. Peak memory: `ru_maxrss` of the children (resource.getrusage,
the largest single process) and the peak of the summed RSS of the whole process tree, sampled every
0.2 s from /proc (what the machine really had to hold). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson


def _tree_rss_kib(root: int) -> int:
    """Summed VmRSS (KiB) of `root` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status") as fh:
                ppid, vm = 0, 0
                for line in fh:
                    if line.startswith("PPid:"):
                        ppid = int(line.split()[1])
                    elif line.startswith("VmRSS:"):
                        vm = int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        pid = int(entry.name)
        rss[pid] = vm
        children.setdefault(ppid, []).append(pid)
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=100_000, help="postings to generate (ignored with --input)")
    ap.add_argument("--input", help="existing postings file instead of generated ones")
    ap.add_argument("--workers", type=int, default=None, help="jobdedup dedup --workers")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--output", default=os.devnull, help="where the groups go (default: discarded)")
    ap.add_argument("--verify", action="store_true", help="run the default Verifier decision instead of "
                    "--fast (~5 ms per posting in an ambiguous pair: too slow for 1M generated postings)")
    args = ap.parse_args()

    if args.input:
        data = Path(args.input)
    else:
        data = Path(f"/tmp/jobdedup-bench-{args.n}-s{args.seed}.jsonl")
        if not data.exists():
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "service.cli", "generate", "-n", str(args.n), "-o", str(data),
                            "--seed", str(args.seed)], check=True)
            print(f"generated {data} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    cmd = [sys.executable, "-m", "service.cli", "dedup", str(data), "-o", args.output, "--summary-json", "-q"]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    if not args.verify:
        cmd.append("--fast")
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kib(proc.pid))
            done.wait(0.2)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - t0
    done.set()
    th.join()
    if proc.returncode != 0:
        sys.exit(f"jobdedup dedup failed ({proc.returncode}): {err.decode()[-2000:]}")
    summary = orjson.loads(err.strip().splitlines()[-1])
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(orjson.dumps({
        "input": str(data), "postings": summary["postings"], "lines": summary["lines"], "groups": summary["groups"],
        "duplicate_share": summary["duplicate_share"], "seconds": round(seconds, 1),
        "postings_per_s": round(summary["lines"] / seconds),
        "peak_rss_largest_process_mib": round(usage.ru_maxrss / 1024),
        "peak_rss_process_tree_mib": round(peak[0] / 1024),
        "cpu_user_s": round(usage.ru_utime, 1), "cpu_sys_s": round(usage.ru_stime, 1),
        "candidate_pairs": summary["candidate_pairs"], "accepted_pairs": summary["accepted_pairs"],
        "evidence": summary["evidence"], "phases": summary.get("phases"),
    }).decode())


if __name__ == "__main__":
    main()
