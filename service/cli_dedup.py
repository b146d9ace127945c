"""`jobdedup dedup`: embedded duplicate detection over a file of postings, no Solr needed."""

from __future__ import annotations

import sys

import orjson
import typer

from service import cli_options
from service.errors import UserError
from service.files import cli_output, refuse_same_file


def register(app: typer.Typer) -> None:
    @app.command("dedup")
    def dedup(
        input: str = typer.Argument(..., help="Postings: JSON Lines, CSV or TSV with a header ('-' = stdin)."),
        output: str = typer.Option("-", "-o", "--output", help="Where to write one JSON line per posting."),
        fmt: str | None = typer.Option(None, "--format", help="jsonl, csv or tsv (default: from the extension)."),
        map_: list[str] | None = typer.Option(  # noqa: B008
            None, "--map", help="Column mapping FIELD=COLUMN, e.g. --map id=job_id --map description=body."
        ),
        encoding: str | None = cli_options.ENCODING,
        skip_bad_lines: bool = cli_options.SKIP_BAD_LINES,
        bad_lines_report: str | None = cli_options.BAD_LINES_REPORT,
        workers: int | None = typer.Option(
            None, "--workers", "-j", help="Worker processes (default: env JOBDEDUP_WORKERS, else the cores, at most 8)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar, no summary."),
        summary_json: bool = typer.Option(False, "--summary-json", help="Print the summary as JSON on stderr."),
        verify: bool = typer.Option(
            True, "--verify/--fast", help="--verify (default): ambiguous MinHash pairs (no exact/URL evidence, "
            "est. Jaccard >= 0.30) are decided by the trained Verifier with a boilerplate model fitted on the "
            "postings involved (extracted once, spooled to a temporary file, prepared once; ~1 ms of CPU per such "
            "posting, in the worker processes). --fast: the vectorized placeholder rule only (~5x less CPU)."),
    ) -> None:
        """Group duplicate postings: one output line per posting with id, group, duplicate_of, score, why.

        Evidence: same normalized content, same canonical URL, same profile signature, or a MinHash
        near-duplicate confirmed by the Verifier (its reasons appear in `why`; --fast: by the placeholder rule). Re-sightings of one id (crawl logs) fold into one
        posting with the earliest first_seen, latest last_seen and seen_count; one whose content changed is
        grouped by its latest content, as `index` keeps it.
        """
        from service import io
        from service.embedded import dedup_file

        if workers is not None and workers < 1:
            raise UserError("--workers must be >= 1")
        mapping = io.parse_mapping(map_)
        refuse_same_file(input, output)
        encoding = io.encoding_name(encoding)
        with cli_options.bad_lines(skip_bad_lines, bad_lines_report, input, output) as bad, cli_output(output) as out:
            # the output replaces an existing file only when the run succeeded
            if bad is None and encoding is None and not (verify and input == "-"):
                summary = dedup_file(input, out, fmt=fmt, mapping=mapping, workers=workers, quiet=quiet,
                                     verify=verify)
            else:  # dedup reads a plain UTF-8 file (twice with the verifier): a checked copy, bad lines left out
                with io.clean_copy(input, fmt, mapping, encoding, bad) as clean:
                    summary = dedup_file(clean, out, fmt="jsonl", workers=workers, quiet=quiet, verify=verify)
        if summary_json:
            doc = {"postings": summary.postings, "lines": summary.lines, "groups": summary.groups,
                   "duplicates": summary.duplicates, "duplicate_share": round(summary.duplicate_share, 4),
                   "resightings": summary.resightings, "seconds": round(summary.seconds, 3),
                   "candidate_pairs": summary.candidate_pairs,
                   "compared_pairs": summary.compared_pairs, "accepted_pairs": summary.accepted_pairs,
                   "evidence": summary.evidence, "phases": summary.phases,
                   "skipped_lines": len(bad.items) if bad is not None else 0}
            print(orjson.dumps(doc).decode(), file=sys.stderr)
        elif not quiet:
            print(summary.line(), file=sys.stderr)
