"""`jobdedup sig --solr-compatible --fields title,company,description` equals, byte for byte, the
`signature` a real Solr 9.10.1 stored through the postings update chain, for generated postings
full of awkward Unicode."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from solr_fixture import generate_postings, post_docs, select

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
         "--fields", "title,company,description", "--jsonl"],
        input=stdin, capture_output=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    computed = out.stdout.decode().split()
    assert len(computed) == len(postings)
    mismatches = [(p["id"], stored[p["id"]], c) for p, c in zip(postings, computed, strict=True)
                  if stored[p["id"]] != c]
    assert not mismatches, f"{len(mismatches)} of {len(postings)} differ, e.g. {mismatches[:3]}"
    assert len(set(computed)) > 300  # the data has many distinct groups, not one degenerate hash
