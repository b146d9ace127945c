"""Benchmark of the embedded dedup (`jobdedup dedup`): wall time and peak memory for N postings.

    python benchmarks/bench_dedup.py -n 1000000            # generates /tmp/jobdedup-bench-1000000.jsonl once
    python benchmarks/bench_dedup.py --input FILE.jsonl    # any postings file (e.g. ../shared/data/*.jsonl)

Runs the real CLI in a child process. Peak memory: `ru_maxrss` of the children (resource.getrusage,
the largest single process) and the peaks of the summed RSS and of the summed PSS of the whole process
tree, sampled every second from /proc (PSS: what the machine really had to hold; the RSS sum counts pages
forked workers share with the main process once per process). Prints one JSON line.
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


def _tree(root: int) -> list[int]:
    """`root` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, []))
    return out


def _tree_memory_kib(root: int) -> tuple[int, int]:
    """(summed VmRSS, summed Pss) in KiB of `root` and its descendants. RSS counts pages a forked worker
    shares with its parent once per process; PSS splits them, so the PSS sum is what the machine holds."""
    rss = pss = 0
    for pid in _tree(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return rss, pss


def measure(cmd: list[str], env: dict[str, str] | None = None, cwd: str | None = None, interval: float = 1.0) -> dict:
    """Run `cmd`; wall seconds, CPU seconds (user + system, the process and its waited-for descendants),
    peak summed RSS / PSS of its process tree and its
    stderr (the last line is jobdedup's --summary-json); memory sampled every `interval` seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, env=env, cwd=cwd)
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            rss, pss = _tree_memory_kib(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            done.wait(interval)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - t0
    done.set()
    th.join()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"seconds": round(seconds, 1), "cpu_s": round(cpu, 1), "peak_rss_process_tree_mib": round(peak[0] / 1024),
            "peak_pss_process_tree_mib": round(peak[1] / 1024), "stderr": err.decode()}


def generated(n: int, seed: int = 7) -> Path:
    """/tmp/jobdedup-bench-N-sSEED.jsonl, generated once with `jobdedup generate`."""
    data = Path(f"/tmp/jobdedup-bench-{n}-s{seed}.jsonl")
    if not data.exists():
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "service.cli", "generate", "-n", str(n), "-o", str(data),
                        "--seed", str(seed)], check=True)
        print(f"generated {data} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return data


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

    data = Path(args.input) if args.input else generated(args.n, args.seed)
    cmd = [sys.executable, "-m", "service.cli", "dedup", str(data), "-o", args.output, "--summary-json", "-q"]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    if not args.verify:
        cmd.append("--fast")
    run = measure(cmd)
    seconds = run["seconds"]
    summary = orjson.loads(run["stderr"].strip().splitlines()[-1])
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(orjson.dumps({
        "input": str(data), "postings": summary["postings"], "lines": summary["lines"], "groups": summary["groups"],
        "duplicate_share": summary["duplicate_share"], "seconds": round(seconds, 1),
        "postings_per_s": round(summary["lines"] / seconds),
        "peak_rss_largest_process_mib": round(usage.ru_maxrss / 1024),
        "peak_rss_process_tree_mib": run["peak_rss_process_tree_mib"],
        "peak_pss_process_tree_mib": run["peak_pss_process_tree_mib"],
        "cpu_user_s": round(usage.ru_utime, 1), "cpu_sys_s": round(usage.ru_stime, 1),
        "candidate_pairs": summary["candidate_pairs"], "accepted_pairs": summary["accepted_pairs"],
        "evidence": summary["evidence"], "phases": summary.get("phases"),
    }).decode())


if __name__ == "__main__":
    main()
