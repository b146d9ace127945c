"""Per labeled English pair (train split only): employer agreement, the role sets read, the role comparison
and the verifier's score, to see where "same employer and the same role set" (labels/GUIDE.md) and the
decision part ways.

    PYTHONPATH=. python benchmarks/diagnose_roles_en.py --data-dir /work/shared/data \
        --labels benchmarks/labels/en-pairs.jsonl [--only wrong] [--grouped]

One line per pair: label, grouped (when --grouped: both postings in one group of a whole-file dedup run),
verifier score, employer (same / differs / unknown), roles of A and B, matched / only-A / only-B counts,
text and job-text Jaccard; then how the GUIDE's rule read off the features predicts the label.
Never run on the locked split: pairs whose `split` is not `train` are skipped.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import orjson

from service.eval import read_postings
from signatures.boilerplate import BoilerplateModel
from signatures.decide import Verifier
from signatures.features import FEATURES, _alike, pair_features, prepare

DUP = {"FULL", "SEMANTIC", "TEMPORAL"}


def guide_rule(emp_same: float, emp_differs: float, ra: tuple, rb: tuple, matched: int) -> bool | None:
    """The GUIDE's decision read off the features: same employer and at most one role changed among three or
    more (none among one or two); None when the roles are unknown on a side."""
    if emp_differs:
        return False
    if not (ra and rb):
        return None
    changed = max(len(ra), len(rb)) - matched + min(len(ra), len(rb)) - matched
    big = max(len(ra), len(rb))
    return bool(emp_same) and (changed == 0 or (big >= 3 and changed <= 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--labels", default="benchmarks/labels/en-pairs.jsonl")
    ap.add_argument("--only", choices=("all", "wrong"), default="all",
                    help="wrong: only pairs the groups (--grouped) or the verifier get wrong")
    ap.add_argument("--grouped", action="store_true", help="also run a whole-file dedup and show the groups")
    args = ap.parse_args(argv)
    data = Path(args.data_dir) / "en-hn-hiring.jsonl"
    posts = read_postings([str(data)])
    pairs = [p for p in map(orjson.loads, Path(args.labels).read_bytes().splitlines())
             if p.get("split") == "train"]
    group: dict[str, str] = {}
    if args.grouped:
        from service.embedded import dedup_file

        out = io.BytesIO()
        dedup_file(str(data), out, quiet=True)
        group = {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}
    ver = Verifier(boilerplate=BoilerplateModel.fit(posts.values()))
    prep = {pid: prepare(posts[pid], ver.boilerplate) for pid in {x for p in pairs for x in (p["a"], p["b"])}}
    counts: dict[tuple, int] = {}
    for p in pairs:
        a, b = prep[p["a"]], prep[p["b"]]
        f = dict(zip(FEATURES, pair_features(a, b).tolist(), strict=True))
        d = ver.decide(a, b)
        ra, rb = a.role_words, b.role_words
        matched = _alike(a, b) if ra and rb else 0
        dup = p["label"] in DUP
        pred = group[p["a"]] == group[p["b"]] if group else d.duplicate
        rule = guide_rule(f["employer_same"], f["employer_differs"], ra, rb, matched)
        counts[(rule, dup)] = counts.get((rule, dup), 0) + 1
        if args.only == "wrong" and pred == dup:
            continue
        emp = "same" if f["employer_same"] else "DIFF" if f["employer_differs"] else "unk "
        show = lambda rs: "; ".join(" ".join(sorted(r)) for r in rs) or "-"  # noqa: E731
        print(f"{p['label']:8s} {'G' if pred else '.'} p={d.score:.2f} emp={emp} "
              f"m/a/b={matched}/{len(ra) - matched}/{len(rb) - matched} tj={f['text_jaccard']:.2f} "
              f"sj={f['spec_jaccard']:.2f} {p['a']} {p['b']}\n    A: {show(ra)}\n    B: {show(rb)}\n"
              f"    {' '.join(d.reasons)}")
    print("\nGUIDE rule off the features (same employer, role set unchanged or 1 of 3+ changed) vs label:")
    for rule in (True, False, None):
        print(f"  rule={rule!s:5s}  duplicate {counts.get((rule, True), 0):3d}  not {counts.get((rule, False), 0):3d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
