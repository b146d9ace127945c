"""`jobdedup index` against Solr's own /update and against `jobdedup dedup`, on the same postings, one run.

    python benchmarks/bench_index_vs_dedup.py -n 5000                 # starts a local Solr, stops it after
    python benchmarks/bench_index_vs_dedup.py -n 5000 --solr http://127.0.0.1:8983/solr   # a running Solr
    python benchmarks/bench_index_vs_dedup.py -n 5000 --extra real.jsonl   # plus real postings (JSON Lines)
    python benchmarks/bench_index_vs_dedup.py -n 5000 --repeat 3           # medians of 3 alternating runs
    python benchmarks/bench_index_vs_dedup.py -n 5000 --repeat 3 --code /tmp/before   # and another checkout's index

Data: `jobdedup generate -n N --seed 7 --agency-rate 0.1` (reposts, HTML recruitment-agency copies, crawl
re-sightings of the same id), optionally followed by the postings of --extra. Steps, on one Solr core
`postings` (the shipped configset, so both writes run the same update chain):
* `solr_update_s`: delete all, POST the file (dates as Solr instants, done before the clock starts) to
  /update in batches of --batch-size, one client, with the same commitWithin as `index` (--commit-within,
  default `jobdedup index`'s 1000 ms), then commit -- Solr's own indexing time;
* `index_s`: delete all, `jobdedup index` of the same file (service.cli_index.index_file, fresh state dir,
  --workers, --batch-size, --commit-within), including its final commit;
* the two alternate, --repeat times: update, index, update, index, ..., update (the machine's load varies,
  other processes share it); each index run's ratio is against the mean of the update runs on either side,
  and `index_vs_update` is the median of those ratios. CPU seconds of each index run: this process, its
  workers, and Solr's JVM (Solr's metrics API, os.processCpuTime), against Solr's for the update runs;
* `--code DIR`: each repeat also runs DIR's `jobdedup index` (PYTHONPATH=DIR, a subprocess; before/after in
  one run), next to this checkout's, the two in alternating order between the same /update runs: `code_*`
  figures, and whether its groups are this checkout's (`code_groups_same`);
* groups: every posting's dup_group read back from Solr, compared with `jobdedup dedup` of the same file
  (service.embedded.dedup_file, --workers) as partitions: pairwise precision / recall / F1
  (benchmarks/compare_groups.pairwise), and both against the generator's ground truth (synthetic_job).
Prints one JSON object, with the machine's load (`uptime`) before and after.
"""

from __future__ import annotations

import argparse
import io as _io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import orjson
import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from compare_groups import pairwise  # noqa: E402


def _load() -> str:
    """The 1/5/15-minute load averages (as `uptime` shows them)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if os.path.exists("/proc/loadavg") else ""


def make_file(path: Path, n: int, seed: int, agency_rate: float, extra: str | None) -> None:
    """The benchmark's postings: generated (reposts, agency copies, re-sightings), then --extra's."""
    from service.synth import generate

    with open(path, "wb") as fh:
        for p in generate(n, seed=seed, agency_rate=agency_rate):
            fh.write(orjson.dumps(p) + b"\n")
        if extra:
            with open(extra, "rb") as src:
                for line in src:
                    if line.strip():
                        fh.write(line.rstrip(b"\n") + b"\n")


def straight_bodies(path: Path, batch: int) -> list[bytes]:
    """The file as /update request bodies, dates as Solr instants (what Solr's date field accepts)."""
    from service.ingest import iso_instant

    docs = []
    with open(path, "rb") as fh:
        for line in fh:
            p = orjson.loads(line)
            for k in ("first_seen", "last_seen"):
                if p.get(k):
                    p[k] = iso_instant(p[k], k)
            docs.append(p)
    return [orjson.dumps(docs[i:i + batch]) for i in range(0, len(docs), batch)]


def solr_cpu(base: str) -> float:
    """CPU seconds Solr's JVM has used so far (its metrics API; NaN when it does not say)."""
    try:
        r = requests.get(f"{base}/admin/metrics", params={"group": "jvm", "prefix": "os.processCpuTime", "wt": "json"},
                         timeout=30)
        return r.json()["metrics"]["solr.jvm"]["os.processCpuTime"] / 1e9
    except (requests.RequestException, KeyError, ValueError):
        return float("nan")


def solr_update(core: str, bodies: list[bytes], commit_within_ms: int) -> tuple[float, float]:
    """Delete all, post every body (with `commitWithin`, as `index` sends it; 0: none), commit: seconds from
    the first post to the end of the commit, and Solr's CPU seconds meanwhile."""
    s = requests.Session()
    hdr = {"Content-Type": "application/json"}
    params = {"commitWithin": commit_within_ms} if commit_within_ms else None
    s.post(f"{core}/update", data=b'{"delete":{"query":"*:*"},"commit":{}}', headers=hdr, timeout=300).raise_for_status()
    c0 = solr_cpu(core.rsplit("/", 1)[0])
    t0 = time.perf_counter()
    for body in bodies:
        r = s.post(f"{core}/update", data=body, headers=hdr, params=params, timeout=300)
        if r.status_code != 200:
            raise SystemExit(f"update failed: {r.text[:1000]}")
    s.post(f"{core}/update", data=b'{"commit":{}}', headers=hdr, timeout=300).raise_for_status()
    return time.perf_counter() - t0, solr_cpu(core.rsplit("/", 1)[0]) - c0


def run_index(core: str, data: Path, batch_size: int, workers: int, commit_within_ms: int) -> dict[str, object]:
    """Delete all, `jobdedup index` the file (fresh state dir): its stats plus the CPU seconds of this process,
    its workers and Solr meanwhile."""
    from service.cli_index import index_file

    requests.post(f"{core}/update", json={"delete": {"query": "*:*"}}, params={"commit": "true"},
                  timeout=300).raise_for_status()
    base = core.rsplit("/", 1)[0]
    c0, p0, k0 = solr_cpu(base), time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    stats = index_file(str(data), core, batch_size=batch_size, workers=workers, quiet=True,
                       commit_within_ms=commit_within_ms, state_dir=tempfile.mkdtemp(prefix="bench-state-"))
    k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    stats["cpu_s"] = {"main": round(time.process_time() - p0, 2),
                      "workers": round(k1.ru_utime + k1.ru_stime - k0.ru_utime - k0.ru_stime, 2),
                      "solr": round(solr_cpu(base) - c0, 2)}
    return stats


def run_index_code(code: str, core: str, data: Path, batch_size: int, workers: int,
                   commit_within_ms: int) -> dict[str, object]:
    """`run_index` with the code of another checkout (PYTHONPATH=code), in a subprocess."""
    prog = ("import sys, json; from pathlib import Path; sys.path.insert(0, 'benchmarks'); "
            "from bench_index_vs_dedup import run_index; "
            "print(json.dumps(run_index(sys.argv[1], Path(sys.argv[2]), *map(int, sys.argv[3:]))))")
    res = subprocess.run([sys.executable, "-c", prog, core, str(data), str(batch_size), str(workers),
                          str(commit_within_ms)], env={**os.environ, "PYTHONPATH": code}, cwd=code,
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def solr_groups(core: str) -> dict[str, str]:
    """id -> dup_group of every posting in the core."""
    from service.solr import Solr

    out: dict[str, str] = {}
    for docs, _, _ in Solr(core).stream({"q": "*:*", "fl": "id,dup_group"}, rows=2000):
        out.update((d["id"], d.get("dup_group") or d["id"]) for d in docs)
    return out


def dedup_groups(path: Path, workers: int) -> tuple[dict[str, str], float]:
    """id -> group of `jobdedup dedup` of the file, and its seconds."""
    from service.embedded import dedup_file

    buf = _io.BytesIO()
    t0 = time.perf_counter()
    dedup_file(str(path), buf, workers=workers, quiet=True)
    took = time.perf_counter() - t0
    return {r["id"]: r["group"] for r in map(orjson.loads, buf.getvalue().splitlines())}, took


def truth(path: Path) -> dict[str, str]:
    """id -> the generator's job key (postings without one, e.g. --extra: their own id)."""
    out: dict[str, str] = {}
    with open(path, "rb") as fh:
        for line in fh:
            p = orjson.loads(line)
            out[p["id"]] = p.get("synthetic_job") or p["id"]
    return out


def agreement(a: dict[str, str], b: dict[str, str]) -> dict[str, float | int]:
    """Pairwise P / R / F1 of partition b against partition a over their common ids."""
    ids = sorted(a.keys() & b.keys())

    def labels(m: dict[str, str]) -> np.ndarray:
        codes: dict[str, int] = {}
        return np.array([codes.setdefault(m[i], len(codes)) for i in ids], np.int64)

    la, lb = labels(a), labels(b)
    p, r, f1 = pairwise(la, lb)
    return {"ids": len(ids), "only_a": len(a.keys() - b.keys()), "only_b": len(b.keys() - a.keys()),
            "groups_a": len(set(la.tolist())), "groups_b": len(set(lb.tolist())),
            "P": round(p, 4), "R": round(r, 4), "F1": round(f1, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--agency-rate", type=float, default=0.1)
    ap.add_argument("--extra", help="more postings (JSON Lines) appended to the generated ones")
    ap.add_argument("--solr", help="base URL of a running Solr with core postings (default: start local-solr)")
    ap.add_argument("--batch-size", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--commit-within", type=int, default=1000,
                    help="commitWithin (ms) of both index and /update (default: jobdedup index's 1000; 0: none)")
    ap.add_argument("--repeat", type=int, default=1, help="index runs, each between two /update runs")
    ap.add_argument("--keep", help="directory to keep the data file and both group files in")
    ap.add_argument("--code", help="also run the `index` of this checkout (before/after), alternating")
    args = ap.parse_args()

    work = Path(args.keep or tempfile.mkdtemp(prefix="bench-ivd-"))
    work.mkdir(parents=True, exist_ok=True)
    data = work / f"postings-{args.n}-s{args.seed}.jsonl"
    make_file(data, args.n, args.seed, args.agency_rate, args.extra)
    out: dict[str, object] = {"n": args.n, "seed": args.seed, "agency_rate": args.agency_rate, "extra": args.extra,
                              "batch_size": args.batch_size, "workers": args.workers,
                              "commit_within_ms": args.commit_within, "repeat": args.repeat, "load_before": _load()}
    home = None
    base = args.solr
    if base is None:
        sys.path.insert(0, str(REPO / "tests"))
        from solr_fixture import start_local_solr

        home = Path(tempfile.mkdtemp(prefix="bench-solr-"))
        base = start_local_solr(home)
    core = base.rstrip("/") + "/postings"
    try:
        bodies = straight_bodies(data, args.batch_size)
        updates = [solr_update(core, bodies, args.commit_within)]
        runs, index_groups, same = [], None, True
        code_runs, code_same = [], True
        for k in range(max(1, args.repeat)):
            for which in (("code", "this") if k % 2 == 0 else ("this", "code")) if args.code else ("this",):
                if which == "code":
                    code_runs.append(run_index_code(args.code, core, data, args.batch_size, args.workers,
                                                    args.commit_within))
                    code_groups = solr_groups(core)
                    code_same = code_same and (index_groups is None or code_groups == index_groups)
                    continue
                runs.append(run_index_code(str(REPO), core, data, args.batch_size, args.workers, args.commit_within)
                            if args.code else run_index(core, data, args.batch_size, args.workers, args.commit_within))
                got = solr_groups(core)
                same = same and (index_groups is None or got == index_groups)
                code_same = code_same and (not code_runs or got == code_groups)
                index_groups = got
            updates.append(solr_update(core, bodies, args.commit_within))
        ratios = [r["seconds"] / ((updates[k][0] + updates[k + 1][0]) / 2) for k, r in enumerate(runs)]
        if code_runs:
            code_ratios = [r["seconds"] / ((updates[k][0] + updates[k + 1][0]) / 2) for k, r in enumerate(code_runs)]
            out["code"] = args.code
            out["code_index_s"] = [r["seconds"] for r in code_runs]
            out["code_index_vs_update_each"] = [round(x, 2) for x in code_ratios]
            out["code_index_vs_update"] = round(statistics.median(code_ratios), 2)
            out["code_cpu_s"] = {"index_main": statistics.median(r["cpu_s"]["main"] for r in code_runs),
                                 "index_workers": statistics.median(r["cpu_s"]["workers"] for r in code_runs),
                                 "index_solr": statistics.median(r["cpu_s"]["solr"] for r in code_runs)}
            out["code_groups_same"] = code_same
        med = statistics.median
        out["index_s"] = [r["seconds"] for r in runs]
        out["solr_update_s"] = [round(u[0], 2) for u in updates]
        out["index_vs_update_each"] = [round(x, 2) for x in ratios]
        out["index_vs_update"] = round(med(ratios), 2)
        out["cpu_s"] = {"index_main": med(r["cpu_s"]["main"] for r in runs),
                        "index_workers": med(r["cpu_s"]["workers"] for r in runs),
                        "index_solr": med(r["cpu_s"]["solr"] for r in runs),
                        "update_solr": round(med(u[1] for u in updates), 2)}
        out["index_groups_same_each_run"] = same
        out["index_stats"] = {k: v for k, v in runs[-1].items() if k not in ("rejected",)}
        dedup, dedup_s = dedup_groups(data, args.workers)
        out["dedup_s"] = round(dedup_s, 2)
        true = truth(data)
        out["index_vs_dedup"] = agreement(dedup, index_groups)
        out["dedup_vs_truth"] = agreement(true, dedup)
        out["index_vs_truth"] = agreement(true, index_groups)
        if args.keep:
            (work / "index_groups.json").write_bytes(orjson.dumps(index_groups))
            (work / "dedup_groups.json").write_bytes(orjson.dumps(dedup))
    finally:
        if home is not None:
            subprocess.run([str(REPO / "solr-config" / "local-solr"), "stop", "--home", str(home)],
                           capture_output=True, timeout=120)
    out["load_after"] = _load()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
