"""Reading postings from files: JSON Lines, CSV and TSV with a header row, with column mapping.

Every problem is reported as a `UserError` naming the file, the line and the field, so the CLI can
print one clear line. Readers stream: nothing holds the whole file in memory.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import orjson

from service.errors import UserError

#: Fields of the posting contract whose value must be a string when present (null is allowed).
TEXT_FIELDS = ("title", "company", "location", "description", "url", "posted_at", "first_seen",
               "last_seen", "lang", "source")

FORMATS = ("jsonl", "csv", "tsv")


def detect_format(path: str, fmt: str | None = None) -> str:
    """The input format: explicit `fmt`, else from the file extension (default JSON Lines)."""
    if fmt:
        fmt = fmt.lower()
        if fmt in ("json", "ndjson"):
            fmt = "jsonl"
        if fmt not in FORMATS:
            raise UserError(f"unknown input format {fmt!r}; use one of {', '.join(FORMATS)}")
        return fmt
    name = path.lower()
    for suffix in (".gz", ".bz2", ".xz"):
        if name.endswith(suffix):
            raise UserError(f"{path}: compressed input is not supported; decompress it or pipe it via '-'")
    if name.endswith(".csv"):
        return "csv"
    if name.endswith((".tsv", ".tab")):
        return "tsv"
    return "jsonl"


def parse_mapping(specs: list[str] | None) -> dict[str, str]:
    """Parse column-mapping flags `FIELD=COLUMN` (or comma-separated) into {column: field}."""
    mapping: dict[str, str] = {}
    for spec in specs or []:
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise UserError(f"--map expects FIELD=COLUMN (e.g. id=job_id), got {part!r}")
            field, column = (s.strip() for s in part.split("=", 1))
            if not field or not column:
                raise UserError(f"--map expects FIELD=COLUMN (e.g. id=job_id), got {part!r}")
            mapping[column] = field
    return mapping


def validate_posting(obj: Any, where: str, mapping: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Check one decoded posting against the contract and return it as a dict (id as a string).

    `where` names the place for error messages (e.g. "postings.jsonl line 12").
    """
    if not isinstance(obj, dict):
        raise UserError(f"{where}: expected a JSON object (a posting), got {type(obj).__name__}")
    if mapping:
        obj = {mapping.get(k, k): v for k, v in obj.items()}
    pid = obj.get("id")
    if pid is None or pid == "":
        raise UserError(f"{where}: field 'id' is missing (every posting needs an id; map a column with --map id=COLUMN)")
    if isinstance(pid, bool) or not isinstance(pid, str | int):
        raise UserError(f"{where}: field 'id' must be a string or integer, got {type(pid).__name__}")
    if not isinstance(pid, str):
        obj["id"] = str(pid)
    for name in TEXT_FIELDS:
        value = obj.get(name)
        if value is not None and not isinstance(value, str):
            if isinstance(value, int | float) and not isinstance(value, bool) and name in ("posted_at", "first_seen", "last_seen"):
                raise UserError(f"{where}: field {name!r} must be an ISO-8601 date string, got a number")
            raise UserError(f"{where}: field {name!r} must be a string, got {type(value).__name__}")
    return obj


def _open_binary(path: str) -> io.BufferedReader:
    if path == "-":
        return sys.stdin.buffer
    p = Path(path)
    if not p.exists():
        raise UserError(f"{path}: no such file")
    if p.is_dir():
        raise UserError(f"{path}: is a directory, expected a file of postings")
    try:
        return open(p, "rb")  # noqa: SIM115 - closed by the caller's generator
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None


def iter_jsonl_chunks(path: str, chunk_lines: int = 2000) -> Iterator[tuple[int, list[bytes]]]:
    """Raw JSON Lines in chunks: (line number of the first line, lines). For parallel parsing."""
    fh = _open_binary(path)
    try:
        chunk: list[bytes] = []
        start = 1
        for lineno, raw in enumerate(fh, start=1):
            if not chunk:
                start = lineno
            chunk.append(raw)
            if len(chunk) >= chunk_lines:
                yield start, chunk
                chunk = []
        if chunk:
            yield start, chunk
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def parse_jsonl_chunk(path: str, start: int, lines: list[bytes],
                      mapping: Mapping[str, str] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """Decode and validate a chunk of JSON Lines; blank lines are skipped."""
    out: list[tuple[int, dict[str, Any]]] = []
    for offset, raw in enumerate(lines):
        lineno = start + offset
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise UserError(f"{path} line {lineno}: not valid JSON ({exc})") from None
        out.append((lineno, validate_posting(obj, f"{path} line {lineno}", mapping)))
    return out


def iter_delimited(path: str, delimiter: str, mapping: Mapping[str, str] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """CSV/TSV rows with a header as (line number, posting); empty cells become absent fields."""
    fh = _open_binary(path)
    text = io.TextIOWrapper(fh, encoding="utf-8", newline="", errors="strict")
    try:
        reader = csv.reader(text, delimiter=delimiter)
        try:
            header = next(reader)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            raise UserError(f"{path}: not valid UTF-8 ({exc.reason})") from None
        header = [h.strip().lstrip("\ufeff") for h in header]
        names = [(mapping or {}).get(h, h) for h in header]
        if "id" not in names:
            raise UserError(f"{path} line 1: no 'id' column in the header {header}; map one with --map id=COLUMN")
        try:
            for row in reader:
                lineno = reader.line_num
                if not row or all(not c.strip() for c in row):
                    continue
                if len(row) > len(names):
                    raise UserError(f"{path} line {lineno}: {len(row)} fields but the header has {len(names)}")
                obj = {n: v for n, v in zip(names, row, strict=False) if v != ""}
                yield lineno, validate_posting(obj, f"{path} line {lineno}")
        except UnicodeDecodeError as exc:
            raise UserError(f"{path}: not valid UTF-8 ({exc.reason})") from None
        except csv.Error as exc:
            raise UserError(f"{path} line {reader.line_num}: malformed {('CSV', 'TSV')[delimiter == chr(9)]} ({exc})") from None
    finally:
        text.detach()
        if fh is not sys.stdin.buffer:
            fh.close()


def read_postings(path: str, fmt: str | None = None,
                  mapping: Mapping[str, str] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream validated postings as (line number, posting) from JSON Lines, CSV or TSV."""
    kind = detect_format(path, fmt)
    if kind == "jsonl":
        for start, lines in iter_jsonl_chunks(path):
            yield from parse_jsonl_chunk(path, start, lines, mapping)
    else:
        yield from iter_delimited(path, "," if kind == "csv" else "\t", mapping)


def write_jsonl(output: IO[bytes], records: Iterable[Any], chunk: int = 2000) -> None:
    """Write records as JSON Lines, serialized with orjson and flushed in chunks of `chunk` lines."""
    buf: list[bytes] = []
    for rec in records:
        buf.append(orjson.dumps(rec))
        if len(buf) >= chunk:
            output.write(b"\n".join(buf) + b"\n")
            buf = []
    if buf:
        output.write(b"\n".join(buf) + b"\n")
