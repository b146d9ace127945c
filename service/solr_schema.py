"""What the collection's schema refuses, checked before a posting is written.

Solr applies an update request document by document and stops at the first one it refuses, keeping the
ones before it: one bad posting would leave its batch half-written. So the service checks each posting
against the schema first (`Schema.reject_reason`), with the rules Solr 9 applies to the field types
of the postings configset (measured against a real Solr in tests/test_solr_schema.py):

* int / long fields: a JSON integer in range, a float, or a string of an optional sign and digits in
  range (no spaces, no exponent); float / double: a number, or a string Java's parseFloat reads;
  date fields: an instant such as 2026-01-02T03:04:05Z (or Solr date math, NOW...); never a boolean;
* boolean fields: true / false, a string Solr reads as one (true, false, t, f, 1, 0 in any case) or the number 0
  or 1. Solr takes any other value without a word and stores it by its first character ("yes", " true" and
  5 as false, "tomato" as true), so those are refused here;
* string fields that are indexed or have docValues: each value is one term of at most 32,766 UTF-8 bytes;
* a single-valued field gets at most one value.

Fields Solr fills itself (copyField targets, index-only fields such as company_exact and the language
copies title_en ...) are not the client's to set: `derived` names them and the ingest path drops them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Lucene's limit on one indexed term (IndexWriter.MAX_TERM_LENGTH) and on a sorted docValues value.
MAX_TERM_BYTES = 32766

_KINDS = {"solr.StrField": "str", "solr.TextField": "text", "solr.IntPointField": "int",
          "solr.LongPointField": "long", "solr.FloatPointField": "float", "solr.DoublePointField": "double",
          "solr.BoolField": "bool", "solr.DatePointField": "date"}
_RANGE = {"int": 2 ** 31, "long": 2 ** 63}
_INTEGER = re.compile(r"[+-]?\d+")  # Java's parseInt/parseLong: Unicode digits, no spaces or underscores
# Java's Double.parseDouble (FloatingDecimal): surrounding control/space characters trimmed, ASCII digits
_FLOAT = re.compile(r"[\x00-\x20]*[+-]?(?:NaN|Infinity|(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?)[\x00-\x20]*",
                    re.ASCII)
_INSTANT = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{1,9})?Z", re.ASCII)
_BOOL_WORDS = frozenset({"true", "false", "t", "f", "1", "0"})  # what Solr's BoolField reads as what they say
_NOW_MATH = re.compile(r"NOW(?:[+-][0-9]+[A-Z]+|/[A-Z]+)*")  # Solr date math: NOW/DAY+1DAY


@dataclass(frozen=True)
class FieldRule:
    """What Solr accepts in one field."""

    kind: str          # str | text | int | long | float | double | bool | date | other
    multi: bool
    one_term: bool     # a string field indexed or with docValues: each value is one term


@dataclass(frozen=True)
class Schema:
    """The collection's fields as rules: declared fields, dynamic patterns (Solr's order: longest
    first) and the fields Solr derives itself."""

    fields: Mapping[str, FieldRule]
    dynamic: tuple[tuple[str, FieldRule], ...]
    derived: frozenset[str]

    @classmethod
    def from_api(cls, schema: Mapping[str, Any]) -> Schema:
        """Build from `service.solr.Solr.schema()` (the Schema API's fields, dynamicFields, fieldTypes,
        copyFields)."""
        kinds = {t["name"]: _KINDS.get(t["class"], "other") for t in schema["fieldTypes"]}

        def rule(f: Mapping[str, Any]) -> FieldRule:
            kind = kinds.get(f["type"], "other")
            return FieldRule(kind, bool(f.get("multiValued")),
                             kind == "str" and bool(f.get("indexed") or f.get("docValues")))

        fields = {f["name"]: rule(f) for f in schema["fields"]}
        dynamic = sorted(((f["name"], rule(f)) for f in schema["dynamicFields"]), key=lambda x: -len(x[0]))
        derived = {c["dest"] for c in schema["copyFields"]}
        derived |= {f["name"] for f in schema["fields"] if not f.get("stored") and not f["name"].startswith("_")}
        return cls(fields, tuple(dynamic), frozenset(derived))

    def rule(self, name: str) -> FieldRule | None:
        """The rule of a field name: declared, else the first matching dynamic pattern, else None."""
        got = self.fields.get(name)
        if got is not None:
            return got
        for pattern, r in self.dynamic:
            if pattern == "*" or (pattern.startswith("*") and name.endswith(pattern[1:])) or (
                    pattern.endswith("*") and name.startswith(pattern[:-1])):
                return r
        return None

    def reject_reason(self, doc: Mapping[str, Any]) -> str | None:
        """Why Solr would refuse this document (as the ingest path sends it: flat, nested values as JSON
        text, derived fields dropped), or None."""
        for name, value in doc.items():
            r = self.rule(name)
            if r is None or name in self.derived:
                continue
            values = value if isinstance(value, list) else [value]
            if len(values) > 1 and not r.multi:
                return f"field {name!r} takes one value, got {len(values)}"
            for v in values:
                why = _value_problem(r, v)
                if why:
                    return f"field {name!r} {why}"
        return None


def _value_problem(r: FieldRule, v: Any) -> str | None:
    """Why one value does not fit the field's type, or None."""
    if v is None:
        return None
    if r.kind in _RANGE:
        if isinstance(v, bool) or not isinstance(v, int | float | str):
            return f"must be an integer, got {_show(v)}"
        if isinstance(v, str):
            if not _INTEGER.fullmatch(v):
                return f"must be an integer, got {_show(v)}"
            v = int(v)
        if isinstance(v, int) and not -_RANGE[r.kind] <= v < _RANGE[r.kind]:
            return f"is out of the range of a {'32' if r.kind == 'int' else '64'}-bit integer: {_show(v)}"
        return None
    if r.kind in ("float", "double"):
        if isinstance(v, bool) or not isinstance(v, int | float | str) or (
                isinstance(v, str) and not _FLOAT.fullmatch(v)):
            return f"must be a number, got {_show(v)}"
        return None
    if r.kind == "bool":
        if isinstance(v, bool) or (isinstance(v, int | float) and v in (0, 1)) or (
                isinstance(v, str) and v.lower() in _BOOL_WORDS):
            return None
        solr_reads = str(v)[:1] in ("1", "t", "T")  # BoolField: the first character decides, silently
        return f"must be true or false, got {_show(v)} (Solr would store {str(solr_reads).lower()})"
    if r.kind == "date":
        if not isinstance(v, str) or not (_NOW_MATH.fullmatch(v) or _valid_instant(v)):
            return f"must be a UTC date-time such as 2026-01-02T03:04:05Z, got {_show(v)}"
        return None
    if r.one_term:
        size = len(_text(v).encode("utf-8", "surrogatepass"))
        if size > MAX_TERM_BYTES:
            return f"has {size:,} bytes (UTF-8), over Solr's limit of {MAX_TERM_BYTES:,} for one exact value"
    return None


def _valid_instant(v: str) -> bool:
    m = _INSTANT.fullmatch(v)
    if not m:
        return False
    try:
        dt.datetime(*(int(x) for x in m.groups()))
    except ValueError:
        return False
    return True


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _show(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."
