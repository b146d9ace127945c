"""CPU-heavy request work (features, extraction, signatures) in worker processes, within a time budget per
request, so the event loop keeps answering (/health, other clients) while a big or hostile batch is
processed: a regex or parser in the service process would hold the GIL for its whole run, and a worker
that runs over its budget is ended (pebble) instead of stalling the service. Workers start from a fork
server (spawn where there is none), so a script that builds the app needs `if __name__ == "__main__":`
like any multiprocessing program (`jobdedup serve` and pytest have it).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessPool
from starlette.concurrency import run_in_threadpool

from service.settings import settings

T = TypeVar("T")

#: Worker processes for CPU work (env JOBDEDUP_CPU_WORKERS); 0 runs it in the service's own threads.
DEFAULT_WORKERS = settings().cpu_workers
#: Seconds of work one request may take in a worker (env JOBDEDUP_CPU_BUDGET_S).
DEFAULT_BUDGET_S = settings().cpu_budget_s
#: Requests that may wait for a worker beyond those running; more are answered 503 at once.
MAX_WAITING = 32
#: Modules the fork server imports once, so a (re)started worker is ready at once.
_PRELOAD = ["service.ingest", "signatures.extract", "signatures.profile", "signatures.textprofile"]


def _warm() -> None:
    """Worker start-up: load what request work needs (modules, tokenizer dictionaries), so the first
    request a fresh worker takes is not charged for it."""
    from service.ingest import prepare_batch

    prepare_batch([{"id": "warm", "title": "Engineer", "description": "招聘工程师 エンジニア募集 engineer"}], extract=True)


class OverBudget(Exception):
    """The request's work took longer than the budget; its worker was ended."""


class Busy(Exception):
    """Every worker is taken and too many requests are waiting."""


class CpuPool:
    """Runs functions (picklable, module-level) in worker processes, one request at most `budget_s`."""

    def __init__(self, workers: int = DEFAULT_WORKERS, budget_s: float = DEFAULT_BUDGET_S,
                 max_waiting: int = MAX_WAITING) -> None:
        if workers < 0 or budget_s <= 0:
            raise ValueError("workers must be >= 0 and budget_s > 0")
        self.workers = workers
        self.budget_s = budget_s
        self.max_waiting = max_waiting
        self._pool: ProcessPool | None = None
        self._lock = threading.Lock()
        self._inflight = 0

    def _get(self) -> ProcessPool:
        with self._lock:
            if self._pool is None:
                methods = multiprocessing.get_all_start_methods()
                ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
                if ctx.get_start_method() == "forkserver":
                    ctx.set_forkserver_preload(_PRELOAD)
                self._pool = ProcessPool(max_workers=self.workers, context=ctx, initializer=_warm)
            return self._pool

    def start(self) -> None:
        """Start the workers now (they warm up in the background) instead of at the first request."""
        if self.workers:
            self._get()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker. Raises Busy when the queue is full, OverBudget past the budget."""
        if self.workers == 0:
            return await run_in_threadpool(fn, *args)
        if self._inflight >= self.workers + self.max_waiting:
            raise Busy(f"{self._inflight} requests are being processed")
        self._inflight += 1
        try:
            return await asyncio.wrap_future(self._get().submit(fn, self.budget_s, *args))
        except FutureTimeout:
            raise OverBudget(f"processing took longer than the budget of {self.budget_s:g} s "
                             "(JOBDEDUP_CPU_BUDGET_S / --cpu-budget); send fewer or shorter postings") from None
        except ProcessExpired as exc:
            raise OverBudget(f"processing ended its worker (exit code {exc.exitcode}); nothing was written") from None
        finally:
            self._inflight -= 1

    def close(self) -> None:
        """Stop the workers (running work is abandoned)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()
            pool.join(timeout=10)
