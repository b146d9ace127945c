"""Options shared by commands: reading postings (dedup, index, sig --jsonl: encoding, bad lines) and talking
to a Solr with BasicAuth (serve, index, recompute: --solr-user, the password only from the environment)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from urllib.parse import quote, urlsplit, urlunsplit

import typer

from service import io
from service.errors import UserError
from service.files import cli_output, refuse_one_file_twice, refuse_same_file

ENCODING = typer.Option(
    None, "--encoding", help="The input's text encoding when it is not UTF-8, e.g. latin-1 or cp1252.")
SKIP_BAD_LINES = typer.Option(
    False, "--skip-bad-lines", help="Skip malformed or invalid lines instead of stopping at the first one; "
    "their count, line numbers and reasons go to stderr. Default: strict (exit 2, nothing written).")
BAD_LINES_REPORT = typer.Option(
    None, "--bad-lines-report", help="Write every skipped line (file, line, reason) as JSON Lines to this "
    "file instead of listing them on stderr (implies --skip-bad-lines).")


@contextmanager
def bad_lines(skip: bool, report: str | None, input_path: str = "-", output: str | None = None
              ) -> Iterator[io.BadLines | None]:
    """The collector of --skip-bad-lines (None: strict). Reports the skipped lines when the command
    succeeds; the report file is opened first, so an unwritable path fails before any work. The report is
    refused when it is the input (`input_path`, "-": standard input) or the command's `output` (-o)."""
    if not skip and not report:
        yield None
        return
    if report:
        refuse_same_file(input_path, report, "--bad-lines-report")
        if output is not None:
            refuse_one_file_twice(output, report, "-o and --bad-lines-report")
    bad = io.BadLines()
    with cli_output(report) if report else nullcontext() as stream:
        yield bad
        bad.report(stream, report)


SOLR_USER = typer.Option(
    None, "--solr-user", envvar="JOBDEDUP_SOLR_USER", help="User for a Solr with BasicAuth (security.json); "
    "the password is read from env JOBDEDUP_SOLR_PASSWORD, never from the command line. Credentials may also "
    "be given in the URL (http://user:password@host:8983/solr/postings).")
PASSWORD_ENV = "JOBDEDUP_SOLR_PASSWORD"


def solr_url(url: str, user: str | None) -> str:
    """The --solr URL carrying the BasicAuth credentials of --solr-user and env JOBDEDUP_SOLR_PASSWORD (the
    Solr client moves them from the URL into its session); the URL as given without --solr-user."""
    if not user:
        return url
    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        raise UserError(f"--solr-user (or JOBDEDUP_SOLR_USER) needs the password in env {PASSWORD_ENV}")
    parts = urlsplit(url)
    if parts.username is not None:
        raise UserError("Solr credentials given twice: in the --solr URL and with --solr-user / JOBDEDUP_SOLR_USER")
    return urlunsplit(parts._replace(netloc=f"{quote(user, safe='')}:{quote(password, safe='')}@{parts.netloc}"))
