"""Fault runs of issue 10 against a real local Solr: is any acknowledged posting lost, any group left headless?

    python benchmarks/fault_runs.py                              # the three scenarios, 3,000 postings each
    python benchmarks/fault_runs.py -n 5000 --only service,recompute --seed 3

Starts `solr-config/local-solr` in a temporary home (stopped at the end); the service and `recompute` run
as subprocesses of this checkout (`python -m service.cli`), on 127.0.0.1 only. Scenarios, each on an
emptied core with generated postings (`service.synth`, unique ids):
* service  -- a client thread posts batches to `serve`; kill -9 of the service at a random moment, restart,
              the client re-sends its in-flight batch and goes on. Also the boilerplate model's learned
              count (/metrics) after the restart vs a run never killed (--no-reference skips that run).
* solr     -- `local-solr stop` at a random moment while the client posts (503 + Retry-After, honoured),
              `local-solr start` on the same home and port after --downtime seconds, go on.
* recompute -- postings loaded straight into Solr; `recompute` uninterrupted, then the same load again,
              `recompute` killed (-9, whole process group) at a random moment and `--resume`d: the groups
              must equal the uninterrupted run's.
Acknowledged = the answer named the posting new, duplicate or updated (recompute: loaded before it ran);
found = in Solr after a commit; headless = a dup_group that is neither the posting's own signature nor a
stored posting heading its own group (or a duplicate_of outside the group). One summary line per
scenario; exit 1 when a posting is lost, a group headless or the resumed recompute differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from prometheus_client.parser import text_string_to_metric_families

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
from solr_fixture import free_port, start_local_solr, stop_local_solr  # noqa: E402

from service.solr import Solr  # noqa: E402
from service.synth import generate  # noqa: E402

WRITTEN = ("new", "duplicate", "updated")
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


# --- processes ----------------------------------------------------------------------------------
def cli(*args: str) -> list[str]:
    """The command line of `jobdedup ARGS` from this checkout."""
    return [sys.executable, "-m", "service.cli", *args]


def kill9(proc: subprocess.Popen) -> None:
    """SIGKILL the process group `proc` leads (started with start_new_session), then reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


class Service:
    """`jobdedup serve` as a subprocess on a free loopback port, its log in `log`."""

    def __init__(self, solr_url: str, state_dir: Path, log: Path) -> None:
        self.solr_url, self.state_dir, self.log = solr_url, state_dir, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> None:
        """Start it and wait until /health answers 200."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cli("serve", "--solr", self.solr_url, "--port", str(self.port),
                                             "--state-dir", str(self.state_dir), "--log-level", "warning"),
                                         env=ENV, cwd=self.state_dir, stdout=out, stderr=out,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited with {self.proc.returncode}; log: {self.log}")
            try:
                if requests.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"serve did not answer /health within {timeout} s; log: {self.log}")

    def kill9(self) -> None:
        assert self.proc is not None
        kill9(self.proc)

    def stop(self) -> None:
        """SIGTERM (a clean shutdown saves the model), SIGKILL after 60 s."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.kill9()

    def metric(self, name: str) -> int | None:
        """A counter or gauge of /metrics since the process started (None: the service does not expose it)."""
        text = requests.get(f"{self.url}/metrics", timeout=30).text
        for fam in text_string_to_metric_families(text):
            if fam.name == name:
                return int(fam.samples[0].value)
        return None

    def learned(self) -> int | None:
        """The boilerplate model's learned postings."""
        return self.metric("jobdedup_boilerplate_postings")


# --- the client ---------------------------------------------------------------------------------
@dataclass
class Ledger:
    """What the client was told: acknowledged postings, refusals, retries."""

    acked: dict[str, str] = field(default_factory=dict)        # id -> status of its acknowledging answer
    rejected: dict[str, str] = field(default_factory=dict)     # id -> reason
    failures: Counter = field(default_factory=Counter)         # HTTP status or "no answer" -> count
    no_retry_after: int = 0                                    # 503s without Retry-After
    written_by_failed: int = 0   # postings of a batch that failed once and came back "updated": the failed
                                 # attempt had written them
    in_flight: bool = False
    error: BaseException | None = None


def post_all(url: str, batches: Sequence[list[dict[str, Any]]], led: Ledger, max_wait: float = 600) -> None:
    """POST every batch to /v1/postings until it is answered 200; retries after 503 (its Retry-After),
    other 5xx and no answer (exponential backoff); stores the error in `led` (thread target)."""
    try:
        with requests.Session() as http:
            for batch in batches:
                failed, attempt, t0 = False, 0, time.monotonic()
                while True:
                    led.in_flight = True
                    try:
                        r = http.post(f"{url}/v1/postings", json={"postings": batch}, timeout=300)
                    except requests.RequestException:
                        r = None
                    finally:
                        led.in_flight = False
                    if r is not None and r.status_code == 200:
                        break
                    failed = True
                    led.failures[r.status_code if r is not None else "no answer"] += 1
                    if r is not None and 400 <= r.status_code < 500:
                        raise RuntimeError(f"batch refused with {r.status_code}: {r.text[:500]}")
                    wait = min(0.25 * 2 ** attempt, 5.0)
                    if r is not None and r.status_code == 503:
                        ra = r.headers.get("Retry-After")
                        led.no_retry_after += ra is None
                        wait = float(ra) if ra else wait
                    if time.monotonic() - t0 > max_wait:
                        raise RuntimeError(f"a batch was not accepted within {max_wait} s")
                    time.sleep(wait)
                    attempt += 1
                results = r.json()["results"]
                if [x["id"] for x in results] != [p["id"] for p in batch]:
                    raise RuntimeError("the answer does not list the batch's postings in order")
                for x in results:
                    if x["status"] in WRITTEN:
                        led.acked[x["id"]] = x["status"]
                        led.written_by_failed += failed and x["status"] == "updated"
                    else:
                        led.rejected[x["id"]] = x.get("reason") or x["status"]
    except BaseException as exc:  # noqa: BLE001 -- handed to the main thread
        led.error = exc


def ingest_with_fault(url: str, batches: Sequence[list[dict[str, Any]]], rng: random.Random,
                      fault: Callable[[Ledger], str] | None) -> tuple[Ledger, str]:
    """Post `batches` from a client thread; once a random 25-60 % of the postings are acknowledged, wait a
    random 0-1.5 s more and run `fault` (its description is returned) while the client goes on."""
    led = Ledger()
    client = threading.Thread(target=post_all, args=(url, batches, led), daemon=True)
    client.start()
    note = ""
    if fault is not None:
        total = sum(len(b) for b in batches)
        at = int(total * rng.uniform(0.25, 0.6))
        while len(led.acked) < at and client.is_alive():
            time.sleep(0.05)
        time.sleep(rng.uniform(0, 1.5))
        note = fault(led) if client.is_alive() else "the client finished before the fault (not a fault run)"
    client.join()
    if led.error is not None:
        raise led.error
    return led, note


# --- checks -------------------------------------------------------------------------------------
@dataclass
class Audit:
    found: int
    lost: list[str]
    unacknowledged: int      # stored but never acknowledged
    groups: int
    headless_groups: int
    bad_duplicate_of: int
    group_of: dict[str, tuple[str, str]]  # id -> (dup_group, duplicate_of)


def audit(solr: Solr, acked: Sequence[str] | set[str] | dict[str, str]) -> Audit:
    """Commit, read every stored posting and check the acknowledged ones and the groups."""
    solr.commit()
    docs: dict[str, dict[str, Any]] = {}
    for page, _, _ in solr.stream({"q": "*:*", "fl": "id,dup_group,duplicate_of,signature"}, rows=2000):
        docs.update((d["id"], d) for d in page)
    headless: set[str] = set()
    bad_dup = 0
    for d in docs.values():
        g = d.get("dup_group") or ""
        head = docs.get(g)
        if g != d.get("signature") and (head is None or head.get("dup_group") != g):
            headless.add(g)
        dup_of = d.get("duplicate_of")
        if dup_of and (dup_of not in docs or docs[dup_of].get("dup_group") != g):
            bad_dup += 1
    ack = set(acked)
    return Audit(found=len(ack & docs.keys()), lost=sorted(ack - docs.keys()),
                 unacknowledged=len(docs.keys() - ack), groups=len({d.get("dup_group") for d in docs.values()}),
                 headless_groups=len(headless), bad_duplicate_of=bad_dup,
                 group_of={k: (d.get("dup_group") or "", d.get("duplicate_of") or "") for k, d in docs.items()})


def summary(name: str, acknowledged: int, a: Audit, seconds: float, extra: str) -> str:
    line = (f"{name}: acknowledged {acknowledged:,}, found {a.found:,}, lost {len(a.lost):,}, "
            f"headless groups {a.headless_groups:,}, {seconds:.1f} s")
    more = [f"{a.groups:,} groups"]
    if a.bad_duplicate_of:
        more.append(f"{a.bad_duplicate_of:,} duplicate_of outside their group")
    if a.unacknowledged:
        more.append(f"{a.unacknowledged:,} stored but never acknowledged")
    if a.lost:
        more.append(f"lost e.g. {a.lost[:5]}")
    return line + " (" + "; ".join(more + [extra]) + ")"


def failures_text(led: Ledger) -> str:
    parts = [f"{n} × {k}" for k, n in sorted(led.failures.items(), key=str)]
    out = "retried answers: " + (", ".join(parts) if parts else "none")
    if led.no_retry_after:
        out += f" ({led.no_retry_after} 503s without Retry-After)"
    if led.rejected:
        out += f"; {len(led.rejected)} rejected"
    return out


# --- scenarios ----------------------------------------------------------------------------------
@dataclass
class Run:
    solr: Solr
    solr_home: Path
    solr_port: int
    work: Path
    postings: list[dict[str, Any]]
    batch_size: int
    rng: random.Random
    reference: bool
    downtime: float
    rows: int

    @property
    def batches(self) -> list[list[dict[str, Any]]]:
        return [self.postings[i:i + self.batch_size] for i in range(0, len(self.postings), self.batch_size)]

    def fresh(self, name: str) -> Path:
        """An empty core and a new state directory for a scenario."""
        self.solr.delete_all()
        d = self.work / name
        d.mkdir()
        return d


def scenario_service(run: Run) -> tuple[str, bool]:
    """kill -9 of `serve` mid-ingest, restart, re-send the in-flight batch, go on."""
    ref_learned = ref_groups = ref_merged = None
    if run.reference:  # the same postings, never killed: the boilerplate count and groups to compare with
        d = run.fresh("service-reference")
        svc = Service(run.solr.url, d, d / "serve.log")
        svc.start()
        try:
            ingest_with_fault(svc.url, run.batches, run.rng, None)
            ref_learned, ref_merged = svc.learned(), svc.metric("jobdedup_merged_groups")
        finally:
            svc.stop()
        ref_groups = audit(run.solr, ()).group_of

    d = run.fresh("service-kill9")
    svc = Service(run.solr.url, d, d / "serve.log")
    t0 = time.perf_counter()
    svc.start()
    after_restart: list[int | None] = []

    def fault(led: Ledger) -> str:
        acked, in_flight = len(led.acked), led.in_flight
        svc.kill9()
        t = time.perf_counter()
        svc.start()
        after_restart.append(svc.learned())
        return (f"killed -9 after {acked:,} acknowledged, a batch {'in flight' if in_flight else 'between batches'}, "
                f"restarted in {time.perf_counter() - t:.1f} s")

    try:
        led, note = ingest_with_fault(svc.url, run.batches, run.rng, fault)
        learned_end, merged_end = svc.learned(), svc.metric("jobdedup_merged_groups")
    finally:
        svc.stop()
    seconds = time.perf_counter() - t0
    a = audit(run.solr, led.acked)
    extra = [note, f"{led.written_by_failed} postings of the killed batch written before the kill", failures_text(led)]
    learned = f"boilerplate learned: {after_restart[0] if after_restart else '?'} right after the restart, " \
              f"{learned_end} at the end"
    if ref_learned is not None:
        learned += f" vs {ref_learned} never killed"
    extra.append(learned)
    extra.append(f"stored groups merged by a new posting: {merged_end} after the restart"
                 + (f", {ref_merged} in the never-killed run" if ref_merged is not None else ""))
    if ref_groups is not None:
        differ = sum(ref_groups.get(k) != v for k, v in a.group_of.items())
        extra.append(f"{differ:,} postings grouped differently from the never-killed run")
    ok = not a.lost and not a.headless_groups and not a.bad_duplicate_of
    return summary("service kill -9", len(led.acked), a, seconds, "; ".join(extra)), ok


def scenario_solr(run: Run) -> tuple[str, bool]:
    """`local-solr stop` mid-ingest, keep posting (503 + Retry-After), start it again, go on."""
    d = run.fresh("solr-restart")
    svc = Service(run.solr.url, d, d / "serve.log")
    t0 = time.perf_counter()
    svc.start()

    def fault(led: Ledger) -> str:
        acked = len(led.acked)
        t = time.perf_counter()
        stop_local_solr(run.solr_home)
        stopped = time.perf_counter() - t
        time.sleep(run.downtime)
        t2 = time.perf_counter()
        start_local_solr(run.solr_home, port=run.solr_port)
        return (f"Solr stopped after {acked:,} acknowledged (stop took {stopped:.1f} s), down {run.downtime:.0f} s more, "
                f"start took {time.perf_counter() - t2:.1f} s; "
                f"{len(led.acked) - acked:,} acknowledged while it was stopping/down/starting")

    try:
        led, note = ingest_with_fault(svc.url, run.batches, run.rng, fault)
        merged = svc.metric("jobdedup_merged_groups")
    finally:
        svc.stop()
    seconds = time.perf_counter() - t0
    a = audit(run.solr, led.acked)
    extra = [note, failures_text(led),
             f"{led.written_by_failed} postings written by an attempt that was answered with an error",
             f"stored groups merged by a new posting: {merged}"]
    ok = not a.lost and not a.headless_groups and not a.bad_duplicate_of and not led.no_retry_after
    return summary("Solr stop/start", len(led.acked), a, seconds, "; ".join(extra)), ok


def _solr_doc(p: dict[str, Any]) -> dict[str, Any]:
    """A generated posting as Solr takes it straight (dates as instants)."""
    return {k: (v + "T00:00:00Z" if k in ("first_seen", "last_seen") and len(v) == 10 else v) for k, v in p.items()}


def checkpoint(directory: Path) -> dict[str, Any]:
    """recompute's checkpoint.json in `directory` ({} before the first one / after a complete run)."""
    try:
        return json.loads((directory / "checkpoint.json").read_text())
    except (OSError, ValueError):
        return {}


def watch(proc: subprocess.Popen, ckpt: Path, kill_when: Callable[[dict[str, Any]], bool] | None) -> dict[str, Any]:
    """Poll a recompute's checkpoint until it ends, or until `kill_when(checkpoint)`: then kill -9 it (its
    process group). Returns the last checkpoint seen, with `killed` (bool)."""
    last: dict[str, Any] = {}
    while proc.poll() is None:
        ck = checkpoint(ckpt) or last
        last = ck
        if kill_when is not None and ck and kill_when(ck):
            kill9(proc)
            return {**checkpoint(ckpt), "killed": True}
        time.sleep(0.02)
    if proc.returncode != 0:
        raise RuntimeError(f"recompute exited with {proc.returncode}")
    return {**last, "killed": False}


def scenario_recompute(run: Run) -> tuple[str, bool]:
    """Uninterrupted recompute vs one killed -9 twice -- after a random page of its scan, then after a
    random batch of its group writes, each time a random 0-0.3 s later -- and resumed, on the same load."""
    ids = [p["id"] for p in run.postings]

    def load(name: str) -> Path:
        d = run.fresh(name)
        for b in run.batches:
            run.solr.update([_solr_doc(p) for p in b])
        run.solr.commit()
        return d

    def start(d: Path, *more: str) -> subprocess.Popen:
        return subprocess.Popen(cli("recompute", "--solr", run.solr.url, "--checkpoint", str(d / "ckpt"),
                                    "--state-dir", str(d), "--rows", str(run.rows), "-q", *more),
                                env=ENV, cwd=d, start_new_session=True)

    d = load("recompute-whole")
    t = time.perf_counter()
    whole = watch(start(d), d / "ckpt", None)  # the last checkpoint: how many pages and group batches
    whole_s = time.perf_counter() - t
    want = audit(run.solr, ids)
    pages, batches = int(whole.get("pages", 0)), int(whole.get("group_batches_done", 0))

    d = load("recompute-killed")
    t0 = time.perf_counter()
    page = run.rng.randint(1, max(1, pages - 1))
    batch = run.rng.randint(1, max(1, batches - 1))
    notes = []
    for target, more in ((lambda ck: ck.get("phase") != "scan" or ck.get("pages", 0) >= page, ()),
                         (lambda ck: ck.get("phase") not in ("scan", "group") or ck.get("group_batches_done", 0) >= batch,
                          ("--resume",))):
        delay = run.rng.uniform(0, 0.3)
        armed: list[float] = []

        def kill_when(ck: dict[str, Any], target: Callable[[dict[str, Any]], bool] = target,
                      delay: float = delay, armed: list[float] = armed) -> bool:
            if not armed and target(ck):
                armed.append(time.monotonic() + delay)
            return bool(armed) and time.monotonic() >= armed[0]

        got = watch(start(d, *more), d / "ckpt", kill_when)
        notes.append(f"killed -9 at checkpoint phase {got.get('phase')}, page {got.get('pages', 0)}/{pages}, "
                     f"group batch {got.get('group_batches_done', 0)}/{batches}" if got["killed"]
                     else "finished before its kill (not a fault run)")
    watch(start(d, "--resume"), d / "ckpt", None)
    seconds = time.perf_counter() - t0
    a = audit(run.solr, ids)
    differ = sum(want.group_of.get(k) != v for k, v in a.group_of.items())
    extra = ["; ".join(notes), f"uninterrupted run {whole_s:.1f} s",
             f"groups vs uninterrupted run: {differ:,} postings differ ({want.groups:,} groups there)"]
    if (d / "ckpt").exists():
        extra.append("checkpoint left behind")
    ok = not a.lost and not a.headless_groups and not a.bad_duplicate_of and not differ and not want.lost
    return summary("recompute kill -9 ×2 + --resume", len(ids), a, seconds, "; ".join(extra)), ok


SCENARIOS = {"service": scenario_service, "solr": scenario_solr, "recompute": scenario_recompute}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=3000, help="postings per scenario")
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="data and fault moments")
    ap.add_argument("--lang", default="en", help="en, zh, ja or mixed")
    ap.add_argument("--dup-rate", type=float, default=0.5)
    ap.add_argument("--only", default=",".join(SCENARIOS), help="comma list of: " + ", ".join(SCENARIOS))
    ap.add_argument("--no-reference", action="store_true", help="skip the never-killed service run")
    ap.add_argument("--downtime", type=float, default=5.0, help="seconds Solr stays stopped")
    ap.add_argument("--rows", type=int, default=250, help="recompute --rows (pages / update batches)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs, state)")
    args = ap.parse_args()
    names = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(names) - SCENARIOS.keys()
    if unknown:
        ap.error(f"unknown scenario(s): {', '.join(sorted(unknown))}")

    work = Path(tempfile.mkdtemp(prefix="jobdedup-faults-"))
    home, port = work / "solr", free_port()
    postings = list(generate(args.n, lang=args.lang, dup_rate=args.dup_rate, seed=args.seed, resight_rate=0))
    base = start_local_solr(home, port=port)
    ok_all = True
    try:
        run = Run(Solr(f"{base}/postings", timeout=30), home, port, work, postings, args.batch_size,
                  random.Random(args.seed), not args.no_reference, args.downtime, args.rows)
        for name in names:
            line, ok = SCENARIOS[name](run)
            ok_all &= ok
            print(("" if ok else "FAILED ") + line, flush=True)
    finally:
        stop_local_solr(home)
        if args.keep:
            print(f"work directory kept: {work}", file=sys.stderr)
        else:
            import shutil
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
