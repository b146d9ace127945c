"""Readers: JSON Lines, CSV, TSV with header and column mapping; errors name the line and the field."""

from __future__ import annotations

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
