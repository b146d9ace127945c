"""`jobdedup index`: deduplicate a file of postings into a Solr collection (same pipeline as the API)."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter, deque
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

import numpy as np
import orjson
import typer

from service import cli_options, io
from service.errors import SolrUnavailable, UserError
from service.gctune import long_lived_heap


def _batches(path: str, fmt: str | None, mapping: Mapping[str, str], size: int, encoding: str | None = None,
             bad: io.BadLines | None = None) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for _, p in io.read_postings(path, fmt, mapping, encoding, bad):
        batch.append(p)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


#: Rejected postings kept (id + reason) for the summary; the count by status covers all of them.
MAX_REJECTED_LISTED = 1000
#: ... of which the prose summary lists the first ones.
REJECTED_SHOWN = 20


def summary_text(stats: Mapping[str, Any], solr_url: str) -> str:
    """The prose summary of an index run (like dedup's): counts by status, speed, and the rejected
    postings with their reasons (the first REJECTED_SHOWN)."""
    by = stats["by_status"]
    parts = ", ".join(f"{by[k]:,} {k}" for k in ("new", "duplicate", "updated", "rejected") if by.get(k))
    lines = [f"{stats['postings']:,} postings into {solr_url}" + (f": {parts}" if parts else "")
             + f"; {stats['seconds']:.1f} s ({stats['postings_per_s']:,.0f} postings/s, batch p50 "
             f"{stats['batch_p50_ms']:,.0f} ms, p99 {stats['batch_p99_ms']:,.0f} ms)"]
    total = by.get("rejected", 0)
    if total:
        shown = stats["rejected"][:REJECTED_SHOWN]
        lines.append(f"rejected (not written; {len(shown)} of {total:,} shown, all ids with --summary-json):"
                     if total > len(shown) else "rejected (not written):")
        lines += [f"  {r['id']}: {r['reason']}" for r in shown]
    return "\n".join(lines)


def index_file(path: str, solr_url: str, fmt: str | None = None, mapping: Mapping[str, str] | None = None,
               batch_size: int = 200, workers: int = 1, commit_within_ms: int = 1000, quiet: bool = True,
               retries: int = 4, state_dir: str | None = None, encoding: str | None = None,
               bad: io.BadLines | None = None) -> dict[str, Any]:
    """Index a postings file with dedup; returns counts by status, the rejected postings (id, reason; the
    first MAX_REJECTED_LISTED), throughput and batch latencies.
    `state_dir`: where the collection's boilerplate model is loaded from and saved to (None: in memory);
    `encoding`: the file's text encoding (None: UTF-8); `bad`: skip bad lines into it (None: strict)."""
    from service.engine import imap_ordered, worker_pool
    from service.ingest import Ingestor, prepare_batch, prepare_shipped, with_batch
    from service.solr import Solr, SolrError
    from service.state import BoilerplateState

    solr = Solr(solr_url)
    try:
        solr.health()
    except SolrUnavailable as exc:
        raise UserError(f"{exc}; start Solr or check --solr") from None
    except SolrError as exc:
        raise UserError(str(exc)) from None
    ingestor = Ingestor(solr, commit_within_ms=commit_within_ms,
                        state=BoilerplateState.for_collection(state_dir, solr.url))
    try:
        ingestor.schema  # noqa: B018  (read once here, so a refusal is one line, not a traceback mid-run)
    except SolrUnavailable as exc:
        raise UserError(f"{exc}; start Solr or check --solr") from None
    except SolrError as exc:
        raise UserError(str(exc)) from None
    counts: Counter[str] = Counter()
    rejected: list[dict[str, str]] = []  # the first MAX_REJECTED_LISTED, with their reasons
    latencies: list[float] = []
    from tqdm import tqdm

    bar = tqdm(unit=" postings", desc="index", disable=quiet or not sys.stderr.isatty(), file=sys.stderr)
    t0 = time.perf_counter()

    def apply(prep: Any, failed: SolrUnavailable | None = None) -> list[Any]:
        """Decide and write a batch, waiting for its write; retried while Solr is unavailable (`failed`: how
        its first try failed, when it was submitted before)."""
        for attempt in range(retries + 1):
            if failed is None:
                try:
                    t = time.perf_counter()
                    results = ingestor.apply(prep)
                    latencies.append(time.perf_counter() - t)
                    return results
                except SolrUnavailable as exc:
                    failed = exc
                except SolrError as exc:
                    raise UserError(str(exc)) from None
            if attempt == retries:
                raise UserError(f"{failed}; {sum(counts.values()):,} postings were indexed before it; "
                                "re-running the same command is safe (indexing is idempotent)") from None
            time.sleep(min(2 ** attempt, 10))
            failed = None
        raise AssertionError("unreachable")

    def submit(prep: Any) -> Any | None:
        """Decide a batch and send its write without waiting (Ingestor.submit); None: not sent (Solr
        unavailable, or the write before it failed), to be applied once the batch before it is done."""
        try:
            return ingestor.submit(prep)
        except SolrUnavailable:
            return None
        except SolrError as exc:
            raise UserError(str(exc)) from None

    def finish(prep: Any, ticket: Any, t: float) -> None:
        """Count a submitted batch once its write is answered (Solr unavailable: the batch is retried)."""
        try:
            results = ticket.result()
            latencies.append(time.perf_counter() - t)
        except SolrUnavailable as exc:
            results = apply(prep, exc)
        except SolrError as exc:
            raise UserError(str(exc)) from None
        count(results)

    def count(results: list[Any]) -> None:
        for r in results:
            counts[r.status] += 1
            if r.status == "rejected" and len(rejected) < MAX_REJECTED_LISTED:
                rejected.append({"id": r.id, "reason": r.reason or ""})
        bar.update(len(results))

    def batches() -> Iterator[list[dict[str, Any]]]:
        try:
            yield from _batches(path, fmt, mapping or {}, batch_size, encoding, bad)
        except UserError as exc:  # a bad line: say what was indexed before it
            done = sum(counts.values())
            raise UserError(f"{exc} ({done:,} postings before it were indexed; re-running after a fix is safe, "
                            "or leave bad lines out with --skip-bad-lines)" if done else str(exc)) from None

    def run(preps: Iterator[Any]) -> None:
        """Each batch decided while Solr writes the one before it (one write in flight)."""
        prev = None  # (prep, ticket, start) of the batch whose write is in flight
        for prep in preps:
            t = time.perf_counter()
            ticket = submit(prep)
            if prev is not None:
                finish(*prev)
                prev = None
            if ticket is None:
                count(apply(prep))
            else:
                prev = (prep, ticket, t)
        if prev is not None:
            finish(*prev)

    with long_lived_heap():  # the window, caches and boilerplate model: a large, growing heap
        try:
            if workers <= 0:
                run(prepare_batch(b, ingestor.max_text_chars, schema=ingestor.schema) for b in batches())
            else:
                sent: deque[list[dict[str, Any]]] = deque()  # the batches in flight, in order

                def tasks() -> Iterator[list[dict[str, Any]]]:
                    for b in batches():
                        sent.append(b)
                        yield b

                with worker_pool(workers, inline=0) as pool:  # a ProcessPoolExecutor: ends on SIGTERM / Ctrl-C
                    # workers extract; they do not send the postings back (this process has them)
                    prep = partial(prepare_shipped, max_text_chars=ingestor.max_text_chars, extract=True,
                                   schema=ingestor.schema)
                    run(with_batch(got, sent.popleft()) for got in imap_ordered(pool, prep, tasks(),
                                                                                 ahead=workers * 2 + 1))
        finally:
            bar.close()
            ingestor.save()  # what was learned from the postings indexed so far, even after an error
            ingestor.state.close()
    total = sum(counts.values())
    try:
        solr.commit()  # searchable now, not only within --commit-within
    except (SolrUnavailable, SolrError) as exc:  # every batch was acknowledged: only the closing commit is missing
        raise UserError(f"{exc}; all {total:,} postings were written (Solr's commitWithin makes them searchable), "
                        "only the closing commit failed; re-running the same command is safe") from None
    seconds = time.perf_counter() - t0
    lat = np.array(latencies) if latencies else np.zeros(1)
    return {"postings": total, "by_status": dict(counts), "seconds": round(seconds, 3),
            "postings_per_s": round(total / seconds, 1) if seconds else 0.0, "batches": len(latencies),
            "batch_p50_ms": round(float(np.percentile(lat, 50)) * 1000, 1),
            "batch_p99_ms": round(float(np.percentile(lat, 99)) * 1000, 1),
            **({"skipped_lines": len(bad.items)} if bad is not None else {}),
            "rejected": rejected,
            **{k: int(v) for k, v in sorted(ingestor.stats.items())}}


def register(app: typer.Typer) -> None:
    @app.command("index")
    def index(
        input: str = typer.Argument(..., help="Postings: JSON Lines, CSV or TSV with a header ('-' = stdin)."),
        solr: str = typer.Option(..., "--solr", help="Collection URL, e.g. http://127.0.0.1:8983/solr/postings."),
        fmt: str | None = typer.Option(None, "--format", help="jsonl, csv or tsv (default: from the extension)."),
        map_: list[str] | None = typer.Option(None, "--map", help="Column mapping FIELD=COLUMN (repeatable)."),  # noqa: B008
        batch_size: int = typer.Option(200, "--batch-size", help="Postings per Solr update."),
        workers: int = typer.Option(
            max(1, min(os.cpu_count() or 1, 4)) - 1, "--workers", "-j",
            help="Processes computing signatures ahead of the writer (0 = inline)."),
        commit_within: int = typer.Option(1000, "--commit-within", help="Solr commitWithin, ms."),
        encoding: str | None = cli_options.ENCODING,
        skip_bad_lines: bool = cli_options.SKIP_BAD_LINES,
        bad_lines_report: str | None = cli_options.BAD_LINES_REPORT,
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar, no summary."),
        summary_json: bool = typer.Option(
            False, "--summary-json", help="Print the summary as JSON on stderr (counts by status, rejected ids "
            "with reasons, timings) instead of prose."),
        state_dir: str | None = typer.Option(
            None, "--state-dir", help="Directory of per-collection state (the boilerplate model); default "
            "env JOBDEDUP_STATE_DIR or ./jobdedup-state."),
        solr_user: str | None = cli_options.SOLR_USER,
    ) -> None:
        """Index postings into Solr with dedup: each gets dup_group, duplicate_of, dup_score (the verifier's
        probability for verified pairs), dup_why_ss (why), sig_version. The collection's boilerplate model
        is loaded from --state-dir, learned from the new postings and saved there.

        Re-running on the same file is safe: known ids are updated in place, groups stay.
        """
        from service.state import default_state_dir

        if batch_size < 1 or batch_size > 5000:
            raise UserError("--batch-size must be in 1..5000")
        if workers < 0:
            raise UserError("--workers must be >= 0")
        mapping, encoding = io.parse_mapping(map_), io.encoding_name(encoding)
        solr = cli_options.solr_url(solr, solr_user)
        with cli_options.bad_lines(skip_bad_lines, bad_lines_report, input) as bad:
            stats = index_file(input, solr, fmt=fmt, mapping=mapping, batch_size=batch_size, workers=workers,
                               commit_within_ms=commit_within, quiet=quiet, state_dir=state_dir or default_state_dir(),
                               encoding=encoding, bad=bad)
        if summary_json:
            print(orjson.dumps(stats).decode(), file=sys.stderr)
        elif not quiet:
            print(summary_text(stats, solr), file=sys.stderr)
