"""`jobdedup sig --solr-compatible --fields title,description` (the configset's fields,
profile.PROFILE_FIELDS) equals, byte for byte, the `signature` a real Solr 9.10.1 stored through the
postings update chain, for generated postings full of awkward Unicode; for Latin-script postings so does
profile_sig, with or without a company."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from solr_fixture import generate_postings, post_docs, select

from signatures.profile import PROFILE_FIELDS, posting_profile_signatures
from signatures.script import CJK_RE

pytestmark = [pytest.mark.solr, pytest.mark.java]


def test_cli_signature_equals_solr_stored_signature(clean_solr: str) -> None:
    postings = generate_postings(1500, seed=2024)
    # a few edge cases on top: empty and whitespace-only values, lone fields, huge text
    postings += [
        {"id": "edge-empty", "title": "", "company": "", "description": ""},
        {"id": "edge-title-only", "title": "Only A Title"},
        {"id": "edge-company-only", "company": "株式会社だけ"},
        {"id": "edge-ws", "title": " \t ", "description": "\u3000\u00a0"},
        {"id": "edge-long", "title": "Long", "description": " ".join(f"w{i % 997}" for i in range(30000))},
    ]
    for i in range(0, len(postings), 500):
        post_docs(clean_solr, postings[i : i + 500], commit=False)
    post_docs(clean_solr, {"commit": {}})
    res = select(clean_solr, q="*:*", fl="id,signature", rows=len(postings) + 10)
    stored = {d["id"]: d["signature"] for d in res["response"]["docs"]}
    assert len(stored) == len(postings)

    stdin = b"".join(orjson.dumps(p) + b"\n" for p in postings)
    out = subprocess.run(
        [sys.executable, "-m", "service.cli", "sig", "--solr-compatible",
         "--fields", ",".join(PROFILE_FIELDS), "--jsonl"],
        input=stdin, capture_output=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    computed = out.stdout.decode().split()
    assert len(computed) == len(postings)
    mismatches = [(p["id"], stored[p["id"]], c) for p, c in zip(postings, computed, strict=True)
                  if stored[p["id"]] != c]
    assert not mismatches, f"{len(mismatches)} of {len(postings)} differ, e.g. {mismatches[:3]}"
    assert len(set(computed)) > 300  # the data has many distinct groups, not one degenerate hash


def test_latin_profile_sig_equals_solr_signature_with_or_without_company(clean_solr: str) -> None:
    """profile_sig signs the configset's fields, so for Latin-script postings it is Solr's `signature`
    (also with a few Han characters in a long text); a company filled on one site and missing on
    another changes neither."""
    postings = [p for p in generate_postings(400, seed=77)
                if CJK_RE.search(" ".join(str(p.get(f) or "") for f in PROFILE_FIELDS)) is None]
    assert len(postings) > 50
    postings += [dict(p, id=p["id"] + "-yuan", description=f"{p['description']} 30000 元")
                 for p in postings[:40] if len(str(p.get("description") or "")) > 200]
    variants = []
    for p in postings:
        q = {k: v for k, v in p.items() if k != "company"} if p.get("company") else {**p, "company": "Globex Corp"}
        variants.append({**q, "id": p["id"] + "-v"})
    post_docs(clean_solr, postings + variants)
    res = select(clean_solr, q="*:*", fl="id,signature", rows=2 * len(postings) + 10)
    stored = {d["id"]: d["signature"] for d in res["response"]["docs"]}
    ours = dict(zip([p["id"] for p in postings + variants], posting_profile_signatures(postings + variants),
                    strict=True))
    assert ours == stored
    assert all(stored[p["id"]] == stored[p["id"] + "-v"] for p in postings)
