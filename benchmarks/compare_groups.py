"""Compare two `jobdedup dedup` outputs: same postings, same groups? Pairwise agreement and field diffs.

    python benchmarks/compare_groups.py BEFORE.jsonl AFTER.jsonl [--fields duplicate_of,score,why,matched]

Groups are compared as partitions (the group id may differ as long as the same postings are together):
prints postings, groups on each side, pairwise precision / recall / F1 of AFTER's same-group pairs against
BEFORE's, how many postings change group membership, and per other field how many rows differ. Exit
status 1 when the partitions differ.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np
import orjson


def _load(path: str) -> dict[str, dict]:
    with open(path, "rb") as fh:
        return {r["id"]: r for r in map(orjson.loads, fh)}


def _labels(rows: dict[str, dict], ids: list[str]) -> np.ndarray:
    codes: dict[str, int] = {}
    return np.array([codes.setdefault(rows[i]["group"], len(codes)) for i in ids], np.int64)


def same_group_pairs(labels: np.ndarray) -> int:
    """Number of unordered pairs of rows with equal labels."""
    c = np.bincount(labels)
    return int((c * (c - 1) // 2).sum())


def pairwise(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Pairwise precision, recall, F1 of partition `b` against partition `a` (same rows)."""
    both = same_group_pairs(np.unique(np.stack([a, b], 1), axis=0, return_inverse=True)[1].ravel())
    pa, pb = same_group_pairs(a), same_group_pairs(b)
    p = both / pb if pb else 1.0
    r = both / pa if pa else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--fields", default="duplicate_of,score,why,matched,first_seen,last_seen,seen_count")
    args = ap.parse_args()
    a, b = _load(args.before), _load(args.after)
    if a.keys() != b.keys():
        print(f"ids differ: {len(a.keys() - b.keys())} only before, {len(b.keys() - a.keys())} only after")
        sys.exit(1)
    ids = sorted(a)
    la, lb = _labels(a, ids), _labels(b, ids)
    p, r, f1 = pairwise(la, lb)
    joint = np.unique(np.stack([la, lb], 1), axis=0)
    split_a = Counter(joint[:, 0].tolist())
    split_b = Counter(joint[:, 1].tolist())
    changed = sum(1 for x, y in zip(la, lb, strict=True) if split_a[x] > 1 or split_b[y] > 1)
    print(f"postings {len(ids)}; groups before {len(set(la.tolist()))}, after {len(set(lb.tolist()))}; "
          f"pairwise P {p:.4f} R {r:.4f} F1 {f1:.4f}; postings in a changed group {changed}")
    for name in [f for f in args.fields.split(",") if f]:
        diff = sum(1 for i in ids if a[i].get(name) != b[i].get(name))
        print(f"  {name}: {diff} rows differ")
    identical = len(joint) == len(set(la.tolist())) == len(set(lb.tolist()))
    print("IDENTICAL groups" if identical else "GROUPS DIFFER")
    sys.exit(0 if identical else 1)


if __name__ == "__main__":
    main()
