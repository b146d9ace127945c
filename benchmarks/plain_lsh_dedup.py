"""The reference point for `jobdedup dedup`: a plain MinHash-LSH near-duplicate script, as a user would write it.

    python benchmarks/plain_lsh_dedup.py --lib rensa FILE.jsonl -o groups.jsonl
    python benchmarks/plain_lsh_dedup.py --lib datasketch FILE.jsonl -o groups.jsonl

Reads JSON Lines postings, text = title, company, location, description (tags dropped), lowercase words,
5-word shingles, 128-permutation MinHash, LSH at threshold 0.5, candidates kept when their estimated
Jaccard is >= 0.5, groups = connected components; writes {"id", "group"} per posting. Single process,
the libraries' plain Python APIs (rensa: RMinHash / RMinHashLSH; datasketch: MinHash / MinHashLSH).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import Any

import numpy as np
import orjson

_TAG_RE = re.compile(r"<[^>]*>")
_WORD_RE = re.compile(r"\w+")
NUM_PERM = 128
THRESHOLD = 0.5
SHINGLE = 5


def shingles(p: dict) -> list[str]:
    """5-word shingles of a posting's text fields (the whole text when it is shorter)."""
    text = " ".join(_TAG_RE.sub(" ", str(p.get(f) or "")) for f in ("title", "company", "location", "description"))
    words = _WORD_RE.findall(text.lower())
    if len(words) <= SHINGLE:
        return [" ".join(words)]
    return [" ".join(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)]


def pairs_rensa(docs: list[list[str]]) -> tuple[list[int], list[int]]:
    from rensa import RMinHash, RMinHashLSH

    lsh = RMinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM, num_bands=16)
    mhs = []
    for k, sh in enumerate(docs):
        m = RMinHash(num_perm=NUM_PERM, seed=42)
        m.update(sh)
        lsh.insert(k, m)
        mhs.append(m)
    return _query_all(lsh, mhs)


def _query_all(lsh: Any, mhs: list[Any]) -> tuple[list[int], list[int]]:
    """Every indexed sketch queried against the index; candidates kept at estimated Jaccard >= THRESHOLD."""
    a, b = [], []
    for k, m in enumerate(mhs):
        for other in lsh.query(m):
            if other > k and m.jaccard(mhs[other]) >= THRESHOLD:
                a.append(k)
                b.append(other)
    return a, b


def pairs_datasketch(docs: list[list[str]]) -> tuple[list[int], list[int]]:
    from datasketch import MinHash, MinHashLSH

    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    mhs = []
    for k, sh in enumerate(docs):
        m = MinHash(num_perm=NUM_PERM, seed=42)
        m.update_batch([s.encode("utf-8") for s in sh])
        lsh.insert(k, m)
        mhs.append(m)
    return _query_all(lsh, mhs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--lib", choices=("rensa", "datasketch"), default="rensa")
    args = ap.parse_args()
    t0 = time.perf_counter()
    ids: list[str] = []
    docs: list[list[str]] = []
    with open(args.input, "rb") as fh:
        for line in fh:
            p = orjson.loads(line)
            ids.append(str(p["id"]))
            docs.append(shingles(p))
    a, b = (pairs_rensa if args.lib == "rensa" else pairs_datasketch)(docs)
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(ids)
    graph = coo_matrix((np.ones(len(a), np.int8), (np.array(a, np.int64), np.array(b, np.int64))), shape=(n, n))
    ncomp, label = connected_components(graph, directed=False)
    first = {}
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")  # noqa: SIM115
    try:
        for pid, lab in zip(ids, label.tolist(), strict=True):
            out.write(orjson.dumps({"id": pid, "group": first.setdefault(lab, pid)}) + b"\n")
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    print(orjson.dumps({"lib": args.lib, "postings": n, "groups": int(ncomp), "pairs": len(a),
                        "seconds": round(time.perf_counter() - t0, 2)}).decode(), file=sys.stderr)


if __name__ == "__main__":
    main()
