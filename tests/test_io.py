"""Readers: JSON Lines, CSV, TSV with header and column mapping; errors name the line and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service import io
from service.errors import UserError


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_jsonl_reads_postings_and_keeps_unknown_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"id": "a", "title": "T", "extra": [1, 2]}\n\n{"id": 7, "description": "x"}\n')
    rows = list(io.read_postings(path))
    assert [ln for ln, _ in rows] == [1, 3]
    assert rows[0][1] == {"id": "a", "title": "T", "extra": [1, 2]}
    assert rows[1][1]["id"] == "7"  # integer ids become strings


@pytest.mark.parametrize(
    "line,needle",
    [
        ('{"title": "no id"}', "field 'id' is missing"),
        ('{"id": "x", "title": 5}', "field 'title' must be a string"),
        ('{"id": true}', "field 'id' must be a string or integer"),
        ('{"id": "x", "first_seen": 20260101}', "field 'first_seen' must be an ISO-8601 date string"),
        ('["id"]', "expected a JSON object"),
        ('{"id": "x", ', "not valid JSON"),
    ],
)
def test_jsonl_errors_name_line_and_field(tmp_path: Path, line: str, needle: str) -> None:
    path = write(tmp_path, "b.jsonl", '{"id": "ok"}\n' + line + "\n")
    with pytest.raises(UserError) as exc:
        list(io.read_postings(path))
    assert "line 2" in str(exc.value)
    assert needle in str(exc.value)


def test_csv_with_mapping_and_quoted_newlines(tmp_path: Path) -> None:
    path = write(tmp_path, "c.csv", 'job_id,body,title\n1,"line one\nline two",Dev\n2,,QA\n')
    mapping = io.parse_mapping(["id=job_id", "description=body"])
    rows = list(io.read_postings(path, mapping=mapping))
    assert rows[0][1] == {"id": "1", "description": "line one\nline two", "title": "Dev"}
    assert rows[1][1] == {"id": "2", "title": "QA"}  # empty cells are absent fields
    assert rows[1][0] == 4  # physical line number after the quoted newline


@pytest.mark.parametrize("order", ["job_id first", "id first"])
def test_a_mapped_field_wins_over_one_of_the_same_name_in_any_order(tmp_path: Path, order: str) -> None:
    # --map id=job_id on postings that also carry an id of their own (an internal one): the mapped column is the id,
    # whichever comes first in the object or header (the later one used to win, silently)
    mapping = io.parse_mapping(["id=job_id"])
    first, second = ("job_id", "id") if order == "job_id first" else ("id", "job_id")
    value = {"job_id": "J1", "id": "internal-7"}
    path = write(tmp_path, "m.jsonl", json.dumps({first: value[first], second: value[second], "title": "Dev"}) + "\n")
    assert [p for _, p in io.read_postings(path, mapping=mapping)] == [{"id": "J1", "title": "Dev"}]
    path = write(tmp_path, "m.csv", f"{first},{second},title\n{value[first]},{value[second]},Dev\n")
    assert [p for _, p in io.read_postings(path, mapping=mapping)] == [{"id": "J1", "title": "Dev"}]


def test_seen_count_is_read_as_a_number_or_refused(tmp_path: Path) -> None:
    # a crawl log's sighting count: a CSV cell is text ("5" was kept as a string, and index stored 1 instead); a value
    # that is no count stops the run naming it, as a wrong type does, instead of silently counting 1
    path = write(tmp_path, "s.csv", "id,title,seen_count\n1,Dev,5\n2,QA,\n")
    assert [p for _, p in io.read_postings(path)] == [{"id": "1", "title": "Dev", "seen_count": 5}, {"id": "2", "title": "QA"}]
    for bad in ('"abc"', "0", "-2", "1.5", "true", "2147483648", '"٣"'):
        path = write(tmp_path, "s.jsonl", f'{{"id": "1", "title": "Dev", "seen_count": {bad}}}\n')
        with pytest.raises(UserError, match="line 1: field 'seen_count' must be a whole number from 1 to 2147483647"):
            list(io.read_postings(path))


def test_a_csv_header_naming_a_column_twice_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", "id,title,description,title\n1,Dev,text,QA\n")
    with pytest.raises(UserError, match=r"line 1: the header names column 'title' twice \(columns 2, 4\)"):
        list(io.read_postings(path))


def test_tsv_and_missing_id_column(tmp_path: Path) -> None:
    path = write(tmp_path, "d.tsv", "id\ttitle\nx\tA\n")
    assert list(io.read_postings(path))[0][1] == {"id": "x", "title": "A"}
    bad = write(tmp_path, "e.csv", "job,title\n1,A\n")
    with pytest.raises(UserError, match="no 'id' column.*--map id=COLUMN"):
        list(io.read_postings(bad))


def test_csv_too_many_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "f.csv", "id,title\n1,A,extra\n")
    with pytest.raises(UserError, match="line 2: 3 fields but the header has 2"):
        list(io.read_postings(path))


def test_bad_mapping_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="FIELD=COLUMN"):
        io.parse_mapping(["idjob"])
    with pytest.raises(UserError, match="no such file"):
        list(io.read_postings(str(tmp_path / "nope.jsonl")))
    with pytest.raises(UserError, match="unknown input format"):
        io.detect_format("x", "xml")


# -- strict CSV, long fields, BOM and encodings, skipping bad lines -------------------------------------

def test_csv_unterminated_quote_is_an_error_naming_its_line(tmp_path: Path) -> None:
    rows = "".join(f"{i},Dev {i},text {i}\n" for i in range(3, 9))
    path = write(tmp_path, "q.csv", 'id,title,description\n1,A,fine\n2,B,"never closed\n' + rows)
    with pytest.raises(UserError, match=r"line 3: a quoted field is never closed.*end of the file at line 9"):
        list(io.read_postings(path))
    stray = write(tmp_path, "s.csv", 'id,title\n1,"A"x\n2,B\n')
    with pytest.raises(UserError, match=r"s.csv line 2: malformed CSV"):
        list(io.read_postings(stray))


def test_csv_fields_up_to_the_text_cap_and_beyond_are_read(tmp_path: Path) -> None:
    from service.ingest import MAX_TEXT_CHARS

    big = "x" * (MAX_TEXT_CHARS + 10)  # over csv's default 131,072 and over the cap: the service rejects it
    path = write(tmp_path, "big.csv", f'id,description\n1,"{big}"\n2,short\n')
    rows = list(io.read_postings(path))
    assert [p["id"] for _, p in rows] == ["1", "2"] and len(rows[0][1]["description"]) == len(big)
    huge = write(tmp_path, "huge.csv", 'id,description\n1,"' + "y" * (4 * MAX_TEXT_CHARS + 1) + '\n2,z\n')
    with pytest.raises(UserError, match=r"line 2: .*(never closed|field longer than)"):
        list(io.read_postings(huge))


@pytest.mark.parametrize("name", ["bom.jsonl", "bom.csv"])
def test_utf8_bom_is_accepted(tmp_path: Path, name: str) -> None:
    p = tmp_path / name
    body = '{"id": "a", "title": "T"}\n' if name.endswith("jsonl") else "id,title\na,T\n"
    p.write_bytes(b"\xef\xbb\xbf" + body.encode())
    assert [r for _, r in io.read_postings(str(p))] == [{"id": "a", "title": "T"}]


@pytest.mark.parametrize("name", ["latin.jsonl", "latin.csv"])
def test_latin1_input_names_file_line_and_encoding(tmp_path: Path, name: str) -> None:
    p = tmp_path / name
    body = ('{"id": "a"}\n{"id": "b", "title": "Caf\u00e9"}\n' if name.endswith("jsonl")
            else "id,title\na,A\nb,Caf\u00e9\n")
    p.write_bytes(body.encode("latin-1"))
    with pytest.raises(UserError) as exc:
        list(io.read_postings(str(p)))
    msg = str(exc.value)
    assert f"{name} line {2 if name.endswith('jsonl') else 3}: the file is not UTF-8 (byte 0xe9" in msg
    assert "iconv" in msg and "--encoding" in msg and "surrogate" not in msg
    rows = [r for _, r in io.read_postings(str(p), encoding="latin-1")]
    assert rows[-1] == {"id": "b", "title": "Caf\u00e9"}
    with pytest.raises(UserError, match="unknown encoding"):
        list(io.read_postings(str(p), encoding="klingon"))


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_skip_bad_lines_collects_line_and_reason(tmp_path: Path, kind: str) -> None:
    if kind == "jsonl":
        text = b'{"id": "a"}\n{"id": \n{"title": "no id"}\n{"id": "d"}\n' + b'{"id": "\xe9"}\n{"id": "f"}\n'
    else:
        text = b'id,title\na,A\nb,"B"x\n,no id\nd,D,extra\ne,E\n' + b"g,\xe9\nh,H\n"
    p = tmp_path / f"bad.{kind}"
    p.write_bytes(text)
    with pytest.raises(UserError):
        list(io.read_postings(str(p)))
    bad = io.BadLines()
    ids = [r["id"] for _, r in io.read_postings(str(p), bad=bad)]
    assert ids == (["a", "d", "f"] if kind == "jsonl" else ["a", "e", "h"])
    lines = [n for _, n, _ in bad.items]
    assert lines == ([2, 3, 5] if kind == "jsonl" else [3, 4, 5, 7])
    reasons = " | ".join(r for _, _, r in bad.items)
    assert "not UTF-8" in reasons and "'id' is missing" in reasons
    assert all(f == str(p) for f, _, _ in bad.items)
