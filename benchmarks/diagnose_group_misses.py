"""Where a missed duplicate of the training side is lost in a whole-file `jobdedup dedup` run: never a candidate,
or sent to the verifier and rejected (its score and reasons).

Runs the embedded dedup on one file with the verifier wrapped, so every pair it decides is recorded, then for
each train-split duplicate (never a locked or excluded pair) that the groups miss, and each non-duplicate they
merge, prints: the blocking keys both postings share (service.candidates.KEYS), whether the verifier saw the
pair (its score and reasons), and the direct verifier decision with its reasons.

    python benchmarks/diagnose_group_misses.py --data-dir ../shared/data --lang zh
"""

from __future__ import annotations

import argparse
import io as _io
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from service import candidates, embedded
from service.eval import prepare_all, read_postings
from signatures.decide import Verifier

FILES = {"en": "en-hn-hiring.jsonl", "zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl"}
DUP = {"FULL", "SEMANTIC", "TEMPORAL"}


def recorded_run(path: Path) -> tuple[dict[str, int], dict[tuple[int, int], tuple[float, tuple[str, ...]]]]:
    """Dedup `path` in this process; the groups (id -> group id) and every verified pair (rows -> score, why)."""
    seen: dict[tuple[int, int], tuple[float, tuple[str, ...]]] = {}
    real = embedded.find_groups

    def find_groups(f: Any, first_key: Any, verify: Any, extra: Any, phases: Any) -> dict[str, Any]:
        def wrapped(vi: np.ndarray, vj: np.ndarray, ve: np.ndarray) -> Any:
            ok, score, why = verify(vi, vj, ve)
            for i, j, s, w in zip(vi.tolist(), vj.tolist(), np.asarray(score).tolist(), why, strict=True):
                seen[(min(i, j), max(i, j))] = (s, tuple(w))
            return ok, score, why
        return real(f, first_key, wrapped if verify is not None else None, extra, phases)

    embedded.find_groups = find_groups
    try:
        out = _io.BytesIO()
        embedded.dedup_file(str(path), out, workers=1, quiet=True)
    finally:
        embedded.find_groups = real
    group = {}
    for line in out.getvalue().splitlines():
        rec = orjson.loads(line)
        group[rec["id"]] = rec["group"]
    return group, seen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--lang", default="zh", choices=sorted(FILES))
    ap.add_argument("--labels", action="append",
                    help="label files (default: benchmarks/labels/LANG-pairs.jsonl and LANG-dev-pairs.jsonl)")
    args = ap.parse_args(argv)
    path = Path(args.data_dir) / FILES[args.lang]
    labels = [Path(x) for x in args.labels] if args.labels else [
        Path(f"benchmarks/labels/{args.lang}-pairs.jsonl"), Path(f"benchmarks/labels/{args.lang}-dev-pairs.jsonl")]
    pairs = [p for f in labels for line in f.read_bytes().splitlines() if line.strip()
             for p in [orjson.loads(line)] if p.get("split") == "train"]
    group, seen = recorded_run(path)
    by_id = read_postings([str(path)])
    row = {pid: k for k, pid in enumerate(by_id)}  # the run's rows: first occurrence of each id, in file order
    wrong = [p for p in pairs if (p["label"].upper() in DUP) != (group[p["a"]] == group[p["b"]])]
    ids = sorted({x for p in wrong for x in (p["a"], p["b"])})
    prep = prepare_all(by_id, ids)
    ver = Verifier()
    where: dict[str, int] = {}
    for p in wrong:
        a, b = p["a"], p["b"]
        keys = candidates.blocking_keys([by_id[a], by_id[b]])
        shared = [k for c, k in enumerate(candidates.KEYS) if keys[0, c] and keys[0, c] == keys[1, c]]
        rec = seen.get((min(row[a], row[b]), max(row[a], row[b])))
        dec = ver.decide(prep[a], prep[b])
        missed = p["label"].upper() in DUP
        cls = ("rejected" if rec else "no candidate") if missed else "merged"
        where[cls] = where.get(cls, 0) + 1
        print(f"{cls:12s} {p.get('pair', '?')} {a} {b} {p['label']}{' (amb)' if p.get('ambiguous') else ''}"
              f"  blocks={','.join(shared) or '-'}  run={f'{rec[0]:.2f}' if rec else '-'}  direct p={dec.score:.2f}")
        print(f"    title A: {by_id[a].get('title', '')[:70]!r}")
        print(f"    title B: {by_id[b].get('title', '')[:70]!r}")
        print(f"    why: {'; '.join(dec.reasons)[:300]}")
    print(where)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
