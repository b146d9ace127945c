"""`jobdedup sig`: signatures of texts and postings, one lowercase hex per input."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator

import orjson
import typer

from service import cli_options, io
from service.errors import UserError
from signatures import profile, textprofile

#: The fields of the posting contract (service.io): a --fields name outside it gets a hint.
POSTING_FIELDS = {"id", *io.TEXT_FIELDS}


def _parse_fields(fields: str | None) -> list[str] | None:
    if fields is None:
        return None
    names = [f.strip() for f in fields.split(",") if f.strip()]
    if not names:
        raise UserError("--fields needs at least one field name, e.g. --fields title,description")
    return names


def _stdin_text(encoding: str | None) -> str:
    data = sys.stdin.buffer.read()
    try:
        return data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"stdin is not valid {encoding or 'UTF-8'} (byte 0x{data[exc.start]:02x} at offset "
                        f"{exc.start}); name its encoding with --encoding") from None


def _jsonl_items(bad: io.BadLines | None, encoding: str | None) -> Iterator[tuple[int, object]]:
    """stdin's JSON lines; a line skipped by --skip-bad-lines comes as io.SKIPPED (an empty output line)."""
    return io.iter_json_lines(sys.stdin.buffer, "stdin", encoding, bad)


_JSONL_BATCH = 2048


def _chunks(items: Iterable[tuple[int, object]], size: int) -> Iterator[list[tuple[int, object]]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


#: A TEXT argument ending like this, without spaces, is taken for a file name (see _refuse_file_name).
_FILE_SUFFIXES = (".jsonl", ".json", ".ndjson", ".csv", ".tsv", ".txt")


def _refuse_file_name(text: str) -> None:
    """`jobdedup sig postings.jsonl` would sign the 15 characters of the name: a TEXT that names an
    existing file, or looks like a file name, is an error pointing at stdin (where files and texts that
    really are a file name go)."""
    if "\n" in text or len(text) > 4096:
        return
    if os.path.isfile(text):
        how = (f"`jobdedup dedup {text}` signs and groups a table" if text.lower().endswith((".csv", ".tsv"))
               else f"read it from stdin: jobdedup sig --jsonl < {text} (one signature per JSON line)")
        raise UserError(f"TEXT {text!r} is a file and sig signs texts; {how}, or sig < {text} (the file as one text)")
    if text.lower().endswith(_FILE_SUFFIXES) and not any(c.isspace() for c in text):
        raise UserError(f"no such file {text!r} (sig signs TEXT, files go to stdin: jobdedup sig --jsonl < FILE); "
                        f"to sign this string itself: echo {text!r} | jobdedup sig")


class _FieldPresence:
    """Which of the requested --fields no posting has had so far; one warning at the end names them,
    as they sign as an empty text (Solr does the same, silently)."""

    def __init__(self, names: list[str]) -> None:
        self.missing = set(names)
        self.names = names
        self.seen_fields: set[str] = set()
        self.postings = 0

    def see(self, obj: object) -> None:
        if self.missing and isinstance(obj, dict):
            self.postings += 1
            self.missing -= obj.keys()
            if len(self.seen_fields) < 64:
                self.seen_fields.update(itertools.islice(obj, 64))

    def warn(self, only_if_all: bool = False) -> None:
        """`only_if_all` (one posting): warn only when none of the fields is there (the MD5 of nothing)."""
        if not self.missing or not self.postings or (only_if_all and len(self.missing) < len(self.names)):
            return
        absent = [n for n in self.names if n in self.missing]
        hint = "" if set(absent) <= POSTING_FIELDS else f" (posting fields: {', '.join(sorted(POSTING_FIELDS))})"
        print(f"jobdedup: warning: --fields {', '.join(absent)}: in no posting of the input, so signed as empty; "
              f"the postings have {', '.join(sorted(self.seen_fields)) or 'no fields'}{hint}", file=sys.stderr)


def _posting(obj: object, where: str) -> dict:
    if not isinstance(obj, dict):
        raise UserError(f"{where}: expected a JSON object (a posting) with --fields")
    return obj


def register(app: typer.Typer) -> None:
    @app.command("sig")
    def sig(
        text: str | None = typer.Argument(None, help="Text to sign; read from stdin when omitted."),
        solr_compatible: bool = typer.Option(
            False, "--solr-compatible", help="Exactly Solr's TextProfileSignature of TEXT as one field value."
        ),
        fields: str | None = typer.Option(
            None,
            "--fields",
            help="Comma-separated field names: sign a JSON posting from stdin as "
            "SignatureUpdateProcessorFactory does (implies Solr-compatible).",
        ),
        quant_rate: float = typer.Option(
            textprofile.DEFAULT_QUANT_RATE, "--quant-rate", help="Solr's quantRate (Solr-compatible modes)."
        ),
        min_token_len: int = typer.Option(
            textprofile.DEFAULT_MIN_TOKEN_LEN,
            "--min-token-len",
            help="Solr's minTokenLen: tokens must be longer than this (Solr-compatible modes).",
        ),
        jsonl: bool = typer.Option(
            False, "--jsonl", help="Batch: every stdin line is a JSON string or posting; one hex per line."
        ),
        skip_bad_lines: bool = typer.Option(
            False, "--skip-bad-lines", help="With --jsonl: a line that is not valid JSON or cannot be signed "
            "gets an empty output line (outputs stay aligned with the input lines) and is listed on stderr."),
        bad_lines_report: str | None = cli_options.BAD_LINES_REPORT,
        encoding: str | None = cli_options.ENCODING,
    ) -> None:
        """Print the signature of a text or posting as lowercase hex.

        Default: the tokenizer-aware profile signature (jieba for Chinese, fugashi for Japanese,
        Solr's rules for everything else). For a posting (JSON object) that is the stored profile_sig.
        """
        if min_token_len < 0:
            raise UserError("--min-token-len must be >= 0")
        if not (quant_rate >= 0.0):
            raise UserError("--quant-rate must be >= 0")
        names = _parse_fields(fields)
        encoding = io.encoding_name(encoding)

        def sign(obj: object, where: str) -> str:
            try:
                return _sign(obj, where)
            except (TypeError, ValueError) as exc:  # e.g. a field value that is a JSON object
                raise UserError(f"{where}: {exc}") from None

        def _sign_batch(chunk: list[tuple[int, object]], one: Callable[[object, int], str]) -> list[str]:
            """Solr-compatible signatures of one chunk of stdin lines; the first bad line prints the
            lines before it, then its error (as signing line by line would)."""
            objs = [obj for _, obj in chunk]
            ok = all(isinstance(o, dict) for o in objs) if names is not None else all(isinstance(o, str) for o in objs)
            try:
                if ok and names is not None:
                    return textprofile.solr_fields_signatures(objs, names, quant_rate, min_token_len)  # type: ignore[arg-type]
                if ok:
                    return textprofile.solr_text_signatures(objs, quant_rate, min_token_len)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                pass
            for lineno, obj in chunk:  # a bad line in the chunk: sign one by one up to its error
                out.write(one(obj, lineno) + "\n")
            return []

        def sign_line(obj: object, lineno: int) -> str:
            """One --jsonl line: a bad one is an error, or with --skip-bad-lines an empty line."""
            if obj is io.SKIPPED:
                return ""
            try:
                return sign(obj, f"stdin line {lineno}")
            except UserError as exc:
                if bad is None:
                    raise
                bad.add("stdin", lineno, exc)
                return ""

        def _sign(obj: object, where: str) -> str:
            if names is not None:
                return textprofile.solr_fields_signature(_posting(obj, where), names, quant_rate, min_token_len)
            if isinstance(obj, str):
                if solr_compatible:
                    return textprofile.solr_text_signature(obj, quant_rate, min_token_len)
                return profile.profile_signature(obj)
            if isinstance(obj, dict):
                if solr_compatible:
                    raise UserError(f"{where}: --solr-compatible signs a text; use --fields for postings")
                return profile.posting_profile_signature(obj)
            raise UserError(f"{where}: expected a JSON string or object, got {type(obj).__name__}")

        out = sys.stdout
        presence = _FieldPresence(names) if names is not None else None
        if text is not None:
            _refuse_file_name(text)
        if (skip_bad_lines or bad_lines_report) and not jsonl:
            raise UserError("--skip-bad-lines and --bad-lines-report apply to --jsonl")
        if jsonl:
            if text is not None:
                raise UserError("--jsonl reads stdin; do not pass TEXT as well")
            with cli_options.bad_lines(skip_bad_lines, bad_lines_report) as bad:
                if names is None and not solr_compatible:
                    for lineno, obj in _jsonl_items(bad, encoding):
                        out.write(sign_line(obj, lineno) + "\n")
                else:
                    for chunk in _chunks(_jsonl_items(bad, encoding), _JSONL_BATCH):  # Solr-compatible: the batch kernel
                        if presence is not None:
                            for _, obj in chunk:
                                presence.see(obj)
                        out.write("".join(s + "\n" for s in _sign_batch(chunk, sign_line)))
                out.flush()
            if presence is not None:
                presence.warn()
            return
        if names is not None:
            raw = text if text is not None else _stdin_text(encoding)
            try:
                obj = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise UserError(f"--fields expects a JSON posting: {exc}") from None
            out.write(sign(obj, "posting") + "\n")
            presence.see(obj)  # type: ignore[union-attr]
            presence.warn(only_if_all=True)  # type: ignore[union-attr]
            return
        value = text if text is not None else _stdin_text(encoding)
        if text is None and value.endswith("\n"):
            value = value[:-1]
        out.write(sign(value, "text") + "\n")
