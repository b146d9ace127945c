"""Options shared by the commands that read postings (dedup, index, sig --jsonl): encoding, bad lines."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import typer

from service import io
from service.files import cli_output

ENCODING = typer.Option(
    None, "--encoding", help="The input's text encoding when it is not UTF-8, e.g. latin-1 or cp1252.")
SKIP_BAD_LINES = typer.Option(
    False, "--skip-bad-lines", help="Skip malformed or invalid lines instead of stopping at the first one; "
    "their count, line numbers and reasons go to stderr. Default: strict (exit 2, nothing written).")
BAD_LINES_REPORT = typer.Option(
    None, "--bad-lines-report", help="Write every skipped line (file, line, reason) as JSON Lines to this "
    "file instead of listing them on stderr (implies --skip-bad-lines).")


@contextmanager
def bad_lines(skip: bool, report: str | None) -> Iterator[io.BadLines | None]:
    """The collector of --skip-bad-lines (None: strict). Reports the skipped lines when the command
    succeeds; the report file is opened first, so an unwritable path fails before any work."""
    if not skip and not report:
        yield None
        return
    bad = io.BadLines()
    with cli_output(report) if report else nullcontext() as stream:
        yield bad
        bad.report(stream, report)
