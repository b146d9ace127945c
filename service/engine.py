"""The dedup engine: candidates, evidence, verification, grouping and the canonical choice, once.

`jobdedup dedup` (service.embedded), `jobdedup recompute` (service.recompute) only gather the
postings' compact feature arrays (service.features.FeatureBatch, blocking keys, first-seen keys) and
call `find_groups`; ambiguous pairs go to a `verify` callback (service.verify_stage.PairVerifier: the
Verifier in bounded memory). Candidate sources: equal exact keys (content, canonical URL, profile
signature), equal LSH band keys (sorted neighbourhood per band, so a huge bucket costs linear time)
and, with the Verifier, the blocking keys of service.candidates. Groups are the connected components
of the accepted pairs, except that verified pairs do not join two groups whose pairs the Verifier scored
average below decision_glue.link_cut() (service.graph.constrained_labels: a chain A~B~C does not merge A and C
the Verifier scored clearly apart); a group's canonical posting is its earliest first_seen, then input order.
`Phases` names and times each step and shows a progress bar with ETA for it.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from service import candidates, decision_glue
from service.features import FeatureBatch
from service.graph import constrained_labels, unscored_chain_pairs

WINDOW = 3            # sorted-neighbourhood width per band: pairs (k, k+1..k+WINDOW-1) of equal keys
PREFIX_SLOTS = 16     # sketch slots compared first ...
PREFIX_MIN = 2        # ... and at least this many must agree (P(miss) ~3 % at Jaccard 0.3, ~0 at 0.5)
PAIR_CHUNK = 1_000_000  # candidate pairs compared per step (bounds the temporary sketch copies)
PAIR_BUDGET = 8_000_000  # raw band-key pairs generated per block (bounds the candidate arrays)
CHAIN_NODES = 40      # components of verified pairs up to this many postings get their unscored pairs scored ...
CHAIN_SHARE = 0.25    # ... at most this share of the pairs verified first ...
CHAIN_MIN = 2000      # ... or this many


#: A concurrent.futures.ProcessPoolExecutor, or None: work runs in this process.
Pool = Any


@contextmanager
def worker_pool(workers: int, inline: int = 1) -> Iterator[Pool]:
    """A pool of `workers` forked processes for the whole run (None for `inline` workers or fewer: the work
    runs in this process; `index` passes 0, its one worker prepares ahead of the writer): fork it early, while
    the main process is small, so the workers do not carry copies of its arrays. A ProcessPoolExecutor, not a
    multiprocessing.Pool: a worker killed while it waits for work (SIGTERM to the process group) leaves
    Pool.terminate waiting for ever on the queue lock it held; the executor sees a dead worker and ends."""
    if workers <= inline:
        yield None
        return
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_ignore_ctrl_c)
    try:
        pool.submit(int).result()  # forks the workers now
        yield pool
    except BaseException:
        procs = list((getattr(pool, "_processes", None) or {}).values())
        results = getattr(pool, "_result_queue", None)  # shutdown forgets it
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:  # the tasks in flight are not waited for either
            proc.kill()
        # A worker killed while sending its result (SIGTERM to the group, or the kill above) leaves part of a message
        # in the result pipe, and the executor's reader thread, which exit joins, waits for the rest for ever (index
        # hung on ~1 in 10 Ctrl-C): with this process's copy of the pipe's write end closed -- the workers' copies
        # close as they die -- it reads end-of-file instead and gives up.
        writer = getattr(results, "_writer", None)
        if writer is not None:
            writer.close()
        raise
    pool.shutdown()


def _ignore_ctrl_c() -> None:
    """A pool worker ignores Ctrl-C (the terminal sends it to every process of the group): the main process
    stops the run and ends the pool, without a traceback from each worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def imap_ordered(pool: Pool, fn: Callable[[Any], Any], tasks: Iterable[Any], ahead: int) -> Iterator[Any]:
    """fn over tasks, results in task order: in `pool` with at most `ahead` tasks in flight (so a long input
    streams through bounded memory), or in this process."""
    if pool is None:
        yield from map(fn, tasks)
        return
    pending: deque = deque()
    for t in tasks:
        pending.append(pool.submit(fn, t))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


class Phases:
    """Named, timed phases of a run, each with a progress bar (tqdm: rate and ETA) on stderr when it is a
    terminal and `quiet` is off; `timings` holds the seconds per phase (`<name>_s`)."""

    def __init__(self, prefix: str, quiet: bool = False) -> None:
        self.prefix = prefix
        self.enabled = not quiet and sys.stderr.isatty()
        self.timings: dict[str, float] = {}

    @contextmanager
    def __call__(self, name: str, total: float | None = None, unit: str = "it", unit_scale: bool = False
                 ) -> Iterator[Any]:
        from tqdm import tqdm

        t0 = time.perf_counter()
        bar = tqdm(total=total, unit=unit, unit_scale=unit_scale, desc=f"{self.prefix}: {name}",
                   disable=not self.enabled, file=sys.stderr, mininterval=0.5)
        try:
            yield bar
        finally:
            bar.close()
            key = name.replace(": ", "_").replace(" ", "_") + "_s"
            self.timings[key] = round(self.timings.get(key, 0.0) + time.perf_counter() - t0, 1)


def _no_phases(name: str, total: float | None = None, unit: str = "it", unit_scale: bool = False) -> Any:
    return Phases("", quiet=True)(name, total, unit, unit_scale)


def _neighbours(keys: np.ndarray, order: np.ndarray, window: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Rows (a, b) with equal non-zero keys at distance 1..window-1 in `order` (rows sorted by key)."""
    ks = keys[order]
    for d in range(1, window):
        if d >= len(ks):
            break
        m = (ks[:-d] == ks[d:]) & (ks[d:] != 0)
        if not m.any():
            break
        yield order[:-d][m].astype(np.int64), order[d:][m].astype(np.int64)


def _equal_key_pairs(keys: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of rows with equal non-zero keys, sorted-neighbourhood within `window`."""
    found = list(_neighbours(keys, np.argsort(keys, kind="stable"), window))
    if not found:
        e = np.zeros(0, np.int64)
        return e, e
    return np.concatenate([a for a, _ in found]), np.concatenate([b for _, b in found])


def _codes(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return lo * n + hi


def _unique_multi(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique values of an int64 array (sorted in place, radix) and whether each occurred twice or more."""
    if not len(codes):
        return codes, np.zeros(0, bool)
    codes.sort(kind="stable")
    first = np.empty(len(codes), bool)
    first[0] = True
    np.not_equal(codes[1:], codes[:-1], out=first[1:])
    nxt_same = np.zeros(len(codes), bool)
    nxt_same[:-1] = ~first[1:]
    return codes[first], nxt_same[first]


def _matches(sketch: np.ndarray, prefix: np.ndarray, ii: np.ndarray, jj: np.ndarray) -> np.ndarray:
    """Estimated Jaccard of row pairs; a cheap prefix comparison first skips clearly unrelated pairs."""
    est = np.zeros(len(ii), np.float32)
    m = np.count_nonzero(prefix[ii] == prefix[jj], axis=1) >= PREFIX_MIN
    x, y = ii[m], jj[m]
    est[m] = np.count_nonzero(sketch[x] == sketch[y], axis=1) / sketch.shape[1]
    return est


#: rows i, rows j, estimates -> accept, score, reasons per pair (empty for rejected pairs)
Verify = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, list[tuple[str, ...]]]]


class _BandPairs:
    """Band-key candidate pairs, produced block by block instead of all at once: per band the rows sorted by
    key (kept as int32 orders, 4 bytes per row and band); `blocks()` yields the pairs whose lower row lies in
    successive row ranges, each about `budget` raw pairs, as sorted unique codes lo * nn + hi and whether
    the pair collided in two bands or more. The blocks concatenated are exactly `_unique_multi` of all
    bands' sorted-neighbourhood pairs."""

    def __init__(self, bands: np.ndarray, nn: int, budget: int) -> None:
        self.bands = bands
        self.nn = nn
        n = len(bands)
        dtype = np.int32 if n < 2**31 else np.int64
        self.orders = [np.argsort(bands[:, b], kind="stable").astype(dtype) for b in range(bands.shape[1])]
        per_row = np.zeros(n + 1, np.int64)
        for lo, _ in self._pairs(0, n):
            per_row += np.bincount(lo, minlength=n + 1)
        self.total = int(per_row.sum())
        cum = np.cumsum(per_row)
        cuts = np.searchsorted(cum, np.arange(budget, self.total, budget), side="right")
        self.bounds = [0, *sorted(set(cuts.tolist()) - {0, n}), n] if n else [0, 0]

    def _pairs(self, r0: int, r1: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(lower row, higher row) of the sorted-neighbourhood pairs with lower row in [r0, r1), per band."""
        n = len(self.bands)
        for b, order in enumerate(self.orders):
            for x, y in _neighbours(self.bands[:, b], order, WINDOW):
                lo, hi = np.minimum(x, y), np.maximum(x, y)
                if r0 > 0 or r1 < n:
                    sel = (lo >= r0) & (lo < r1)
                    lo, hi = lo[sel], hi[sel]
                yield lo, hi

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
        """(sorted unique codes, collided in 2+ bands, raw pairs) per block of lower rows."""
        for r0, r1 in zip(self.bounds[:-1], self.bounds[1:], strict=True):
            parts = [lo * self.nn + hi for lo, hi in self._pairs(r0, r1)]
            raw = np.concatenate(parts) if parts else np.zeros(0, np.int64)
            del parts
            codes, multi = _unique_multi(raw)
            yield codes, multi, len(raw)


class CandidateSource(Protocol):
    """Proposes candidate pairs of rows block by block, so no run holds all of them at once. `blocks()`
    yields (sorted unique codes lo * nn + hi, `multi` or None, `exact_codes`, raw pairs): None marks pairs
    with exact evidence (same content / URL / profile key); otherwise `multi` says per pair whether it
    collided in two LSH bands or more, and pairs also in `exact_codes` are left to the exact block. `total`
    is the sum of the raw pair counts (the progress bar's length). The file and recompute source is `ArrayIndex`; the service's
    Solr band / term queries and recent window are to plug in here."""

    total: int

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray | None, np.ndarray, int]]: ...


class ArrayIndex:
    """Candidates from the postings' own arrays: equal exact keys (content, canonical URL, profile
    signature; neighbours in key order) and equal LSH band keys (`_BandPairs`, in blocks of rows)."""

    def __init__(self, f: FeatureBatch, nn: int, budget: int | None = None) -> None:
        exact = [_codes(*_equal_key_pairs(keys, 2), nn) for keys in (f.content, f.url, f.profile)]
        self.exact_codes, _ = _unique_multi(np.concatenate(exact))
        self.bands = _BandPairs(f.bands, nn, budget or PAIR_BUDGET)
        self.total = len(self.exact_codes) + self.bands.total

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray | None, np.ndarray, int]]:
        yield self.exact_codes, None, self.exact_codes, len(self.exact_codes)
        for codes, multi, raw in self.bands.blocks():
            yield codes, multi, self.exact_codes, raw


def _evidence(f: FeatureBatch, nn: int, source: CandidateSource, verifying: bool, phases: Callable[..., Any]
              ) -> tuple[list[tuple[np.ndarray, ...]], list[tuple[np.ndarray, ...]], int, int]:
    """Decide the source's candidate pairs in blocks of PAIR_CHUNK: (accepted parts (i, j, score, bits,
    est), pending parts (i, j, est) for the Verifier, candidate pairs, pairs compared)."""
    prefix = np.ascontiguousarray(f.sketch[:, :PREFIX_SLOTS])
    cols = {k: getattr(f, k) for k in ("content", "url", "profile", "company", "title", "location")}
    parts: list[tuple[np.ndarray, ...]] = []
    pending: list[tuple[np.ndarray, ...]] = []
    n_pairs = n_candidates = 0
    with phases("candidates", source.total, " pairs", True) as bar:
        for src, src_multi, exact_codes, raw in source.blocks():
            n_pairs += len(src)
            for s in range(0, len(src), PAIR_CHUNK):
                c = src[s:s + PAIR_CHUNK]
                ii, jj = c // nn, c % nn
                if src_multi is not None:
                    keep = ~np.isin(c, exact_codes, assume_unique=True)
                    same_ct = (f.company[ii] == f.company[jj]) & (f.title[ii] == f.title[jj]) & (f.title[ii] != 0)
                    keep &= src_multi[s:s + PAIR_CHUNK] | same_ct
                    ii, jj = ii[keep], jj[keep]
                n_candidates += len(ii)
                est = _matches(f.sketch, prefix, ii, jj)
                accept, score, bits, company_conflict = decision_glue.pair_evidence(cols, f.ntok, ii, jj, est)
                if verifying:
                    amb = decision_glue.ambiguous(bits, est, company_conflict)
                    pending.append((ii[amb], jj[amb], est[amb]))
                    accept &= ~amb
                parts.append((ii[accept], jj[accept], score[accept], bits[accept], est[accept]))
            bar.update(raw)
    return parts, pending, n_pairs, n_candidates


def _blocking_pending(f: FeatureBatch, extra: tuple[np.ndarray, ...], parts: list[tuple[np.ndarray, ...]],
                      pending: list[tuple[np.ndarray, ...]], nn: int) -> tuple[np.ndarray, ...]:
    """The blocking pairs worth the Verifier's time: not pending anyway, rows not yet connected, no two
    different explicit companies -- unless the rows share their employer key (`extra`'s third array, per row:
    the blocking employer key, signatures.employer.employer_core: 三亚飞鱼旅行旅行社有限公司 = 飞鱼旅行);
    (i, j, estimated Jaccard)."""
    n = len(f.content)
    xc, _ = _unique_multi(_codes(extra[0], extra[1], nn))
    if pending:  # pairs the verifier gets anyway
        xc = xc[~np.isin(xc, np.concatenate([_codes(p[0], p[1], nn) for p in pending]))]
    xi, xj = xc // nn, xc % nn
    done = [np.concatenate([p[k] for p in parts]) for k in range(2)] if parts else [np.zeros(0, np.int64)] * 2
    keep = candidates.unconnected(xi, xj, done[0].astype(np.int64), done[1].astype(np.int64), n)
    named = (f.company[xi] == f.company[xj]) | (f.company[xi] == 0) | (f.company[xj] == 0)
    if len(extra) > 2:
        emp = extra[2]
        named |= (emp[xi] == emp[xj]) & (emp[xi] != 0)
    keep &= named
    xi, xj = xi[keep], xj[keep]
    return xi, xj, (np.count_nonzero(f.sketch[xi] == f.sketch[xj], axis=1)
                    / max(f.sketch.shape[1], 1)).astype(np.float32)


def _verified(verify: Verify, vi: np.ndarray, vj: np.ndarray, ve: np.ndarray, parts: list[tuple[np.ndarray, ...]],
              scored: tuple[np.ndarray, ...], verified_why: dict[int, tuple[str, ...]], nn: int,
              trace: dict[str, Any] | None) -> tuple[np.ndarray, ...]:
    """Ask `verify` about pairs (vi, vj): the accepted ones join `parts` (reasons in `verified_why`, by pair
    code), the scored ones (NaN: not decided, as the index answers for rows already together) are appended to
    `scored`, which is returned; `trace["verified"]` grows by (i, j, accepted, score)."""
    ok, vscore, why = verify(vi, vj, ve)
    ok = np.asarray(ok, bool)
    vscore = np.asarray(vscore, np.float64)
    if trace is not None:
        got = (vi, vj, ok, vscore.astype(np.float32))
        old = trace.get("verified")
        trace["verified"] = got if old is None else tuple(np.concatenate([o, g]) for o, g in zip(old, got, strict=True))
    known = ~np.isnan(vscore)
    vbits = np.full(int(ok.sum()), decision_glue.VERIFIED, np.int32)
    parts.append((vi[ok], vj[ok], vscore.astype(np.float32)[ok], vbits, ve[ok]))
    for k in np.flatnonzero(ok).tolist():
        verified_why[int(_codes(vi[k], vj[k], nn))] = why[k]
    return tuple(np.concatenate([s, x]) for s, x in zip(scored, (vi[known], vj[known], vscore[known]), strict=True))


def _chain_pairs(n: int, parts: list[tuple[np.ndarray, ...]], links: tuple[np.ndarray, np.ndarray] | None,
                 scored: tuple[np.ndarray, ...], verified: int, first_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs the accepted pairs would chain into one group unscored (service.graph.unscored_chain_pairs:
    components of up to CHAIN_NODES postings joined by verified pairs or `links`, a stored group's members
    each a posting of their own), at most CHAIN_SHARE of the `verified` pairs (and CHAIN_MIN at least) -- so
    the average-linkage guard has something to read. Rows ranked by `first_key` (earliest first_seen, then
    input order, as the canonical rule): dedup's file order and the index's rows pick the same postings."""
    ai, aj, bits = (np.concatenate([p[k] for p in parts]) for k in (0, 1, 3))
    hard = (bits & decision_glue.VERIFIED) == 0
    fixed = np.zeros(len(ai), bool)
    if links is not None and len(links[0]):
        ai, aj = np.concatenate([ai, links[0]]), np.concatenate([aj, links[1]])
        hard = np.concatenate([hard, np.zeros(len(links[0]), bool)])
        fixed = np.concatenate([fixed, np.ones(len(links[0]), bool)])
    rank = np.empty(n, np.int64)
    rank[np.lexsort((np.arange(n), first_key))] = np.arange(n)
    return unscored_chain_pairs(ai.astype(np.int64), aj.astype(np.int64), hard, scored[0], scored[1], n,
                                CHAIN_NODES, max(CHAIN_MIN, int(CHAIN_SHARE * verified)), fixed, rank)


def _groups(n: int, first_key: np.ndarray, parts: list[tuple[np.ndarray, ...]],
            verified_why: dict[int, tuple[str, ...]], nn: int, scored: tuple[np.ndarray, ...],
            links: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
    """The groups of the accepted pairs (service.graph.constrained_labels: exact / URL / placeholder pairs and
    `links` always join, verified pairs strongest first while the `scored` pairs (i, j, score) across the two
    groups average at least decision_glue.link_cut()), the canonical row
    per group (earliest first_seen, then input order) and each row's best accepted edge inside its group
    (score, evidence bits, estimate, matched row, reasons)."""
    cat = [np.concatenate([p[k] for p in parts]) if parts else np.zeros(0) for k in range(5)]
    ai, aj = cat[0].astype(np.int64), cat[1].astype(np.int64)
    ascore, abits, aest = cat[2].astype(np.float32), cat[3].astype(np.int32), cat[4].astype(np.float32)
    accepted = len(ai)
    li, lj = (np.asarray(x, np.int64) for x in links)
    label = constrained_labels(np.concatenate([ai, li]), np.concatenate([aj, lj]),
                               np.concatenate([(abits & decision_glue.VERIFIED) == 0, np.ones(len(li), bool)]),
                               np.concatenate([ascore, np.zeros(len(li), np.float32)]),
                               np.asarray(scored[0], np.int64), np.asarray(scored[1], np.int64), scored[2], n,
                               decision_glue.link_cut() if len(scored[0]) else 0.0)
    joined = label[ai] == label[aj]  # an accepted pair whose groups stayed apart is no row's match
    if not joined.all():
        ai, aj, ascore, abits, aest = ai[joined], aj[joined], ascore[joined], abits[joined], aest[joined]
    order = np.lexsort((np.arange(n), first_key, label))
    first_of = np.ones(n, bool)
    first_of[1:] = label[order][1:] != label[order][:-1]
    canon_of_label = np.empty(label.max() + 1 if n else 0, np.int64)
    canon_of_label[label[order][first_of]] = order[first_of]
    canonical = canon_of_label[label] if n else np.zeros(0, np.int64)
    node = np.concatenate([ai, aj])
    other = np.concatenate([aj, ai])
    sc = np.concatenate([ascore, ascore])
    best_score = np.full(n, np.nan, np.float32)
    best_bits = np.zeros(n, np.int32)
    best_est = np.zeros(n, np.float32)
    match = np.full(n, -1, np.int64)
    if len(node):
        o = np.lexsort((-sc, node))
        firsts = np.ones(len(o), bool)
        firsts[1:] = node[o][1:] != node[o][:-1]
        sel = o[firsts]
        edge = sel % max(len(ai), 1)
        best_score[node[sel]] = sc[sel]
        best_bits[node[sel]] = abits[edge]
        best_est[node[sel]] = aest[edge]
        match[node[sel]] = other[sel]
    reasons: dict[int, tuple[str, ...]] = {}
    if verified_why:
        for r in np.flatnonzero(best_bits & decision_glue.VERIFIED).tolist():
            reasons[r] = verified_why.get(int(_codes(np.int64(r), match[r], nn)), ())
    evidence = {name: int(((abits & bit) != 0).sum()) for bit, name in decision_glue.WHY_NAMES}
    return {"label": label, "canonical": canonical, "score": best_score, "bits": best_bits, "est": best_est,
            "match": match, "accepted": accepted, "evidence": evidence, "reasons": reasons}


def find_groups(f: FeatureBatch, first_key: np.ndarray, verify: Verify | None = None,
                extra: tuple[np.ndarray, ...] | None = None,
                phases: Callable[..., Any] = _no_phases, source: CandidateSource | None = None,
                trace: dict[str, Any] | None = None, links: tuple[np.ndarray, np.ndarray] | None = None
                ) -> dict[str, Any]:
    """Group postings: returns per row `label`, `canonical`, `score`, `bits`, `est`, `match` arrays.

    Candidates: equal exact keys (content, canonical URL, profile signature) and equal LSH band keys
    (sorted neighbourhood of width WINDOW per band). A pair whose band keys collide in one band only
    (estimated Jaccard around the LSH threshold) is compared further only when company and title agree;
    the rest get a 16-slot prefix test, then the full estimate, then the decision. With `verify`
    (rows i, rows j, estimates -> accept, score, reasons), pairs without exact evidence whose estimate is
    at least FIELD_JACCARD are decided by it instead (the issue-5 Verifier); `reasons` maps a row whose
    best edge was verified to the verifier's reasons. `extra` (rows i, rows j[, per-row employer key]; with
    `verify` only): more candidate pairs (service.candidates blocking), sent to the verifier whatever their
    estimate unless it gets them anyway, their rows are already connected or they name two companies (not one
    employer key). `phases` (a `Phases`) shows and times
    the steps; `source` proposes the candidates (default: `ArrayIndex` over `f`). Consumes `f`: its sketch
    and band columns are released once the candidates are decided, before the verifier runs. `trace` (a dict,
    for evaluation): filled with the pairs the Verifier scored, `verified` (i, j, accepted, score), and every
    accepted pair, `accepted` (i, j). Groups: `_groups` -- verified pairs join two groups only while the pairs
    the Verifier scored across them average at least decision_glue.link_cut(); `links` (rows i, rows j) join
    rows known to be together beforehand (the index's stored groups) like exact evidence.
    """
    n = len(f.content)
    nn = max(n, 1)
    if source is None:
        with phases("indexing", 1, " steps") as bar:
            source = ArrayIndex(f, nn)
            bar.update(1)
    parts, pending, n_pairs, n_candidates = _evidence(f, nn, source, verify is not None, phases)
    del source
    verified_why: dict[int, tuple[str, ...]] = {}
    e = np.zeros(0, np.int64)
    scored: tuple[np.ndarray, ...] = (e, e, np.zeros(0))
    ci = e
    if verify is not None and extra is not None and len(extra[0]):
        xi, xj, xe = _blocking_pending(f, extra, parts, pending, nn)
        n_pairs += len(xi)
        n_candidates += len(xi)
        pending.append((xi, xj, xe))
    del extra
    f.sketch = f.bands = f.sketch_full = None  # the bulk of the memory, not needed from here on
    if verify is not None and pending:
        vi, vj, ve = (np.concatenate([p[k] for p in pending]) for k in range(3))
        del pending
        scored = _verified(verify, vi, vj, ve, parts, scored, verified_why, nn, trace)
        ci, cj = _chain_pairs(n, parts, links, scored, len(vi), first_key)
        if len(ci):  # chains the first answers would make: ask about their unscored pairs too
            with phases("chains", len(ci), " pairs") as bar:
                scored = _verified(verify, ci, cj, np.zeros(len(ci), np.float32), parts, scored, verified_why, nn,
                                   trace)
                bar.update(len(ci))
    if trace is not None:
        trace["accepted"] = tuple(np.concatenate([p[k] for p in parts]).astype(np.int64) if parts
                                  else np.zeros(0, np.int64) for k in range(2))
    with phases("grouping", 1, " steps") as bar:
        res = _groups(n, first_key, parts, verified_why, nn, scored, links if links is not None else (e, e))
        bar.update(1)
    res["pairs"] = np.array([n_pairs, n_candidates, res.pop("accepted")])
    res["chain_pairs"] = len(ci)
    return res


def iso_instant(value: str | None, where: str) -> str | None:
    """Normalize a date or date-time to Solr's instant form (UTC, seconds): 2026-01-02T00:00:00Z."""
    if value is None:
        return None
    v = value.strip()
    try:
        d = dt.datetime.fromisoformat(v.replace("Z", "+00:00") if v.endswith("Z") else v)
        if d.tzinfo is not None:
            d = d.astimezone(dt.UTC).replace(tzinfo=None)
    except ValueError:
        raise ValueError(f"field {where!r} must be an ISO-8601 date or date-time, got {value[:40]!r}") from None
    except OverflowError:  # 0001-01-01T00:00+01:00, 9999-12-31T23:00-05:00: the UTC instant leaves years 1..9999
        raise ValueError(f"field {where!r} is outside years 1..9999 in UTC, got {value[:40]!r}") from None
    return d.isoformat(timespec="seconds") + "Z"  # four-digit years (strftime gives "1-01-01" for year 1)


def iso_date(value: str | None) -> str | None:
    """`value` when it reads as an ISO-8601 date or date-time within years 1..9999 in UTC (`iso_instant`), else None:
    sources write `posted_at` in any format (it is kept as written), and only such a one stands in for a missing
    first_seen."""
    if not isinstance(value, str):
        return None
    try:
        iso_instant(value, "posted_at")
    except ValueError:
        return None
    return value


def date_key(values: list[str | None]) -> np.ndarray:
    """Sortable integer from an ISO date/time string's digits (missing -> after everything)."""
    missing = int(np.iinfo(np.int64).max)
    known: dict[str | None, int] = {}  # each distinct value once (a batch's candidates share few dates)
    for v in values:
        if v not in known:
            digits = "".join(ch for ch in v[:19] if ch.isdigit()) if v else ""
            known[v] = int(digits.ljust(14, "0")[:14]) if digits else missing
    return np.fromiter((known[v] for v in values), np.int64, len(values))


