"""Reading postings from files: JSON Lines, CSV and TSV with a header row, with column mapping.

Every problem is reported as a `UserError` naming the file, the line and the field, so the CLI can
print one clear line. Readers stream: nothing holds the whole file in memory.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from service.errors import UserError

#: Fields of the posting contract whose value must be a string when present (null is allowed).
TEXT_FIELDS = ("title", "company", "location", "description", "url", "posted_at", "first_seen",
               "last_seen", "lang", "source")

FORMATS = ("jsonl", "csv", "tsv")

#: The fields duplicates are found on: a table without any of them has nothing to compare.
CONTENT_FIELDS = ("title", "company", "description")
_CONTENT_WORDS = "title, company or description"

BOM = b"\xef\xbb\xbf"
_UNDECODED = re.compile("[\udc80-\udcff]")  # bytes the decoder could not read (surrogateescape)
#: Bad lines listed on stderr by `BadLines.report` when no report file is given.
LIST_ON_STDERR = 20


def encoding_name(encoding: str | None) -> str | None:
    """The canonical codec name of `--encoding`, None for UTF-8 (the fast path); unknown: a UserError."""
    if encoding is None:
        return None
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise UserError(f"--encoding: unknown encoding {encoding!r} (e.g. utf-8, latin-1, cp1252)") from None
    return None if name in ("utf-8", "utf-8-sig") else name


def _undecodable(byte: int, column: int | None, encoding: str | None) -> str:
    """Why a line cannot be read: which byte (and where), and how to convert the file or name its encoding."""
    where = f"byte 0x{byte:02x}" + (f" at column {column}" if column is not None else "")
    if encoding is not None:
        return f"not {encoding} text ({where}); check --encoding"
    return (f"the file is not UTF-8 ({where}); convert it, e.g. iconv -f latin1 -t utf-8 IN > OUT, "
            "or name its encoding with --encoding latin-1")


_DECODE_ERRORS = [0]  # bumped by the error handler below: rows are searched for escapes only after a bump


def _escape_and_count(exc: UnicodeError) -> tuple[str, int]:
    """Decode undecodable bytes as surrogate escapes (found per row afterwards) and count them."""
    _DECODE_ERRORS[0] += 1
    return codecs.lookup_error("surrogateescape")(exc)


codecs.register_error("jobdedup-escape", _escape_and_count)


@dataclass
class BadLines:
    """Input lines skipped with --skip-bad-lines: (file, line number, reason), counted and listed at the end."""

    items: list[tuple[str, int, str]] = field(default_factory=list)

    def add(self, path: str, lineno: int, error: UserError) -> None:
        """Record a skipped line; `error` is the message a strict run would have stopped with."""
        self.items.append((path, lineno, str(error).removeprefix(f"{path} line {lineno}: ")))

    def report(self, stream: IO[bytes] | None = None, name: str | None = None) -> None:
        """Count on stderr; every line with its reason as JSON Lines into `stream` (the report file
        `name`), else the first LIST_ON_STDERR on stderr."""
        if not self.items:
            return
        files = sorted({f for f, _, _ in self.items})
        print(f"jobdedup: skipped {len(self.items):,} bad line(s) of {', '.join(files)}"
              + (f"; listed in {name}" if stream is not None else ":"), file=sys.stderr)
        if stream is not None:
            write_jsonl(stream, ({"file": f, "line": n, "reason": r} for f, n, r in self.items))
            return
        for f, n, r in self.items[:LIST_ON_STDERR]:
            print(f"  {f} line {n}: {r}", file=sys.stderr)
        if len(self.items) > LIST_ON_STDERR:
            print(f"  ... {len(self.items) - LIST_ON_STDERR:,} more (all of them with --bad-lines-report FILE)",
                  file=sys.stderr)


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


#: Largest seen_count (Solr int), as the API's model allows.
MAX_SEEN_COUNT = 2**31 - 1


def validate_posting(obj: Any, where: str, mapping: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Check one decoded posting against the contract and return it as a dict (id as a string).

    `where` names the place for error messages (e.g. "postings.jsonl line 12").
    """
    if not isinstance(obj, dict):
        raise UserError(f"{where}: expected a JSON object (a posting), got {type(obj).__name__}")
    if mapping:  # a mapped field wins over one of the same name (id=job_id on {"job_id": .., "id": ..}), in any order
        shadowed = {mapping[k] for k in obj if k in mapping}
        obj = {mapping.get(k, k): v for k, v in obj.items() if k in mapping or k not in shadowed}
    pid = obj.get("id")
    if pid is None or pid == "":
        raise UserError(f"{where}: field 'id' is missing (every posting needs an id; map a column with --map id=COLUMN)")
    if isinstance(pid, bool) or not isinstance(pid, str | int):
        raise UserError(f"{where}: field 'id' must be a string or integer, got {type(pid).__name__}")
    if not isinstance(pid, str):
        obj["id"] = str(pid)
    seen = obj.get("seen_count")
    if seen is not None:  # a crawl log's sighting count; a CSV cell is text
        count = int(seen) if isinstance(seen, str) and seen.strip().isdigit() and seen.strip().isascii() else seen
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SEEN_COUNT:
            raise UserError(f"{where}: field 'seen_count' must be a whole number from 1 to {MAX_SEEN_COUNT}, "
                            f"got {str(seen)[:40]!r}")
        obj["seen_count"] = count
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
    """Raw JSON Lines in chunks: (line number of the first line, lines). For parallel parsing.
    A UTF-8 byte-order mark at the start of the file is dropped."""
    fh = _open_binary(path)
    try:
        chunk: list[bytes] = []
        start = 1
        for lineno, raw in enumerate(fh, start=1):
            if not chunk:
                start = lineno
            chunk.append(raw.removeprefix(BOM) if lineno == 1 else raw)
            if len(chunk) >= chunk_lines:
                yield start, chunk
                chunk = []
        if chunk:
            yield start, chunk
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def parse_json_line(raw: bytes, where: str, encoding: str | None = None) -> Any:
    """One JSON value from a line of bytes (UTF-8, or `encoding`); errors name the place and the cause."""
    try:
        return orjson.loads(raw if encoding is None else raw.decode(encoding))
    except UnicodeDecodeError as exc:
        raise UserError(f"{where}: {_undecodable(raw[exc.start], exc.start + 1, encoding)}") from None
    except orjson.JSONDecodeError as exc:
        if encoding is None:
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as bad:
                raise UserError(f"{where}: {_undecodable(raw[bad.start], bad.start + 1, None)}") from None
        raise UserError(f"{where}: not valid JSON ({exc})") from None


def iter_json_lines(lines: Iterable[bytes], name: str, encoding: str | None = None,
                    bad: BadLines | None = None, start: int = 1,
                    check: Callable[[Any, str], Any] | None = None) -> Iterator[tuple[int, Any]]:
    """(line number, JSON value) of each non-blank line of `lines` (a binary file or stdin; or a chunk of a
    file whose first line is line `start`), a UTF-8 byte-order mark on line 1 dropped, each value passed
    through `check(value, where)` when given; a bad line is a UserError naming `name` and the line, or, when
    `bad` collects them, is counted there and yielded as (line number, SKIPPED)."""
    for lineno, raw in enumerate(lines, start=start):
        if not raw.strip():
            continue
        where = f"{name} line {lineno}"
        try:
            value = parse_json_line(raw.removeprefix(BOM) if lineno == 1 else raw, where, encoding)
            yield lineno, value if check is None else check(value, where)
        except UserError as exc:
            if bad is None:
                raise
            bad.add(name, lineno, exc)
            yield lineno, SKIPPED


#: Stands for a line `iter_json_lines` skipped into its BadLines.
SKIPPED = object()


#: Whether this process (or the one it forked from) warned about postings without text already.
_NO_TEXT_WARNED = [False]


def parse_jsonl_chunk(path: str, start: int, lines: list[bytes], mapping: Mapping[str, str] | None = None,
                      encoding: str | None = None, bad: BadLines | None = None) -> list[tuple[int, dict[str, Any]]]:
    """Decode and validate a chunk of JSON Lines; blank lines are skipped, and so are bad lines when
    `bad` collects them (else the first bad line is a UserError)."""
    out = [(n, p) for n, p in iter_json_lines(lines, path, encoding, bad, start,
                                              lambda obj, where: validate_posting(obj, where, mapping))
           if p is not SKIPPED]
    if start == 1 and out and not _NO_TEXT_WARNED[0] and not any(f in p for _, p in out for f in CONTENT_FIELDS):
        _NO_TEXT_WARNED[0] = True  # once per run (a checked copy of the input is read again; workers fork)
        keys = list(dict.fromkeys(k for _, p in out[:100] for k in p))
        print(f"jobdedup: warning: {path}: none of the first {len(out):,} postings has a "
              f"{_CONTENT_WORDS} field, so there is no text to compare; they have {', '.join(keys)}: "
              f"name yours with {_suggest_map(keys, keys)}", file=sys.stderr)
    return out


def _field_limit() -> int:
    """The CSV field size limit: well above the service's text cap, so an over-long text is rejected
    per posting like in JSON Lines, while an unterminated quote still stops at a bound."""
    from service.ingest import MAX_TEXT_CHARS

    return max(4 * MAX_TEXT_CHARS, 1 << 20)


def iter_delimited(path: str, delimiter: str, mapping: Mapping[str, str] | None = None,
                   encoding: str | None = None, bad: BadLines | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """CSV/TSV rows with a header as (line number, posting); empty cells become absent fields.

    Strict: a malformed row (an unterminated quote, a stray quote, more fields than the header, bytes
    that are not UTF-8 / `encoding`) is a UserError naming its first line, or is skipped into `bad`."""
    kind = ("CSV", "TSV")[delimiter == "\t"]
    limit = _field_limit()
    csv.field_size_limit(max(csv.field_size_limit(), limit))
    fh = _open_binary(path)
    text = io.TextIOWrapper(fh, encoding=encoding or "utf-8", newline="", errors="jobdedup-escape")
    errors_before = _DECODE_ERRORS[0]

    def check(row: list[str], first: int) -> None:
        """A UserError when the row holds bytes the decoder could not read (only searched after one was)."""
        if _DECODE_ERRORS[0] == errors_before:
            return
        joined = delimiter.join(row)
        m = _UNDECODED.search(joined)
        if m:
            raise UserError(f"{path} line {first + joined.count(chr(10), 0, m.start())}: "
                            f"{_undecodable(ord(m.group()) - 0xDC00, None, encoding)}")

    try:
        reader = csv.reader(text, delimiter=delimiter, strict=True)
        try:
            header = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise UserError(f"{path} line 1: malformed {kind} header ({exc})") from None
        check(header, 1)
        header = [h.strip().lstrip("\ufeff") for h in header]
        twice = [h for h in dict.fromkeys(header) if h and header.count(h) > 1]
        if twice:
            raise UserError(f"{path} line 1: the header names column {twice[0]!r} twice (columns "
                            f"{', '.join(str(k + 1) for k, h in enumerate(header) if h == twice[0])}): one of them "
                            "would be dropped; rename one")
        mapped = {(mapping or {}).get(h, h) for h in header if h in (mapping or {})}
        # a mapped column wins over a column of the field's own name (--map id=job_id with an id column too)
        names = [(mapping or {}).get(h) or (None if h in mapped else h) for h in header]
        if "id" not in names:
            raise UserError(f"{path} line 1: no 'id' column in the header {header}; map one with --map id=COLUMN")
        if not set(CONTENT_FIELDS) & set(names):
            raise UserError(f"{path} line 1: no text column: the header has {', '.join(header)}, none of them "
                            f"is {_CONTENT_WORDS}; name yours with {_suggest_map(header, names)}")
        while True:
            first = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                err = UserError(f"{path} line {first}: {_csv_problem(str(exc), kind, first, reader.line_num, limit)}")
                if bad is None:
                    raise err from None
                bad.add(path, first, err)
                continue
            try:
                check(row, first)
                if not row or all(not c.strip() for c in row):
                    continue
                if len(row) > len(names):
                    raise UserError(f"{path} line {first}: {len(row)} fields but the header has {len(names)}")
                obj = {n: v for n, v in zip(names, row, strict=False) if v != "" and n is not None}
                yield first, validate_posting(obj, f"{path} line {first}")
            except UserError as exc:
                if bad is None:
                    raise
                bad.add(path, first, exc)
    finally:
        text.detach()
        if fh is not sys.stdin.buffer:
            fh.close()


#: Words in a column name that suggest the field it holds (for the --map hint).
_FIELD_HINTS = {"title": ("title", "position", "role"), "company": ("company", "employer", "organi"),
                "description": ("desc", "body", "text", "content", "detail")}


def _suggest_map(header: list[str], names: list[str]) -> str:
    """A --map hint for a header without text columns, from its column names."""
    maps = []
    for name, words in _FIELD_HINTS.items():
        column = next((h for h, n in zip(header, names, strict=True)
                       if n == h and n != "id" and any(w in h.lower() for w in words)), None)
        if column:
            maps.append(f"--map {name}={column}")
    return " ".join(maps) or "--map description=COLUMN (and title=, company=)"


def _csv_problem(message: str, kind: str, first: int, last: int, limit: int) -> str:
    """A csv.Error in words: what is wrong with the row starting at line `first`."""
    if "unexpected end of data" in message:
        return (f"a quoted field is never closed (an unterminated quote: it runs to the end of the file at "
                f"line {last}); close or escape the quote (\"\")")
    if "field larger than field limit" in message:
        return (f"a field longer than {limit:,} characters (lines {first}-{last}): an unterminated quote, "
                "or a text far over the cap")
    return f"malformed {kind} ({message}; the row spans lines {first}-{last})" if last > first else \
        f"malformed {kind} ({message})"


def read_postings(path: str, fmt: str | None = None, mapping: Mapping[str, str] | None = None,
                  encoding: str | None = None, bad: BadLines | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream validated postings as (line number, posting) from JSON Lines, CSV or TSV.

    `encoding`: the file's text encoding (None / UTF-8 default); `bad`: skip bad lines into it instead
    of stopping at the first one."""
    kind = detect_format(path, fmt)
    encoding = encoding_name(encoding)
    if kind == "jsonl":
        for start, lines in iter_jsonl_chunks(path):
            yield from parse_jsonl_chunk(path, start, lines, mapping, encoding, bad)
    else:
        yield from iter_delimited(path, "," if kind == "csv" else "\t", mapping, encoding, bad)


@contextmanager
def clean_copy(path: str, fmt: str | None, mapping: Mapping[str, str] | None, encoding: str | None,
               bad: BadLines | None) -> Iterator[str]:
    """A temporary UTF-8 JSON Lines copy of the valid, mapped postings of `path` (bad lines skipped into
    `bad`), for readers that take a plain UTF-8 file (the embedded dedup reads its input twice)."""
    with tempfile.NamedTemporaryFile("wb", prefix="jobdedup-", suffix=".jsonl") as tmp:
        write_jsonl(tmp, (p for _, p in read_postings(path, fmt, mapping, encoding, bad)))
        tmp.flush()
        yield tmp.name


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
