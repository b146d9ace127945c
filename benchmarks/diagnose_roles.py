"""Role-set diagnostic of the training-side labeled pairs: does "same employer and the same role set" (the
labeling guide's decision) agree with the label, and where does our role reading go wrong?

For each train-split pair of `--labels` (never a locked or excluded one) it prints the employer evidence, the
roles extraction announces for A and B, how many matched, role_sim / roles_changed, text similarity, the
verifier's p and the label; then a confusion table of "same employer ∧ same role set" (roles changed < 0.5,
the guide's "about half or more changed" = PARTIAL) against the duplicate label.

    python benchmarks/diagnose_roles.py --lang zh                       # pairs + dev pairs, train split
    python benchmarks/diagnose_roles.py --lang zh --only disagree       # the pairs the rule gets wrong
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import orjson

from service.eval import prepare_all, read_postings
from signatures.decide import Verifier
from signatures.features import FEATURES, pair_features

FILES = {"en": "en-hn-hiring.jsonl", "zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl"}
DUP = {"FULL", "SEMANTIC", "TEMPORAL"}
_I = {n: i for i, n in enumerate(FEATURES)}


def train_pairs(paths: list[Path]) -> list[dict]:
    """Labeled pairs of the train split only (locked and excluded pairs are never read further)."""
    out = []
    for path in paths:
        for line in path.read_bytes().splitlines():
            if line.strip():
                p = orjson.loads(line)
                if p.get("split") == "train":
                    out.append(p)
    return out


def rule_cell(f) -> str:
    """The guide's decision read off the features: same / other employer (or unknown), same / changed roles."""
    emp = "emp=" if f[_I["employer_same"]] else ("emp≠" if f[_I["employer_differs"]] else "emp?")
    if not f[_I["roles_known"]]:
        return emp + " roles?"
    return emp + (" roles=" if f[_I["roles_changed"]] < 0.5 else " roles≠")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--lang", default="zh", choices=sorted(FILES))
    ap.add_argument("--only", choices=["all", "disagree", "dup", "missed"], default="all",
                    help="disagree: rule vs label differ; dup: duplicate-labeled; missed: duplicates p < threshold")
    ap.add_argument("--quiet", action="store_true", help="the table only")
    args = ap.parse_args(argv)
    labels = [Path(f"benchmarks/labels/{args.lang}-pairs.jsonl"), Path(f"benchmarks/labels/{args.lang}-dev-pairs.jsonl")]
    pairs = train_pairs(labels)
    postings = read_postings([str(Path(args.data_dir) / FILES[args.lang])])
    ids = {x for p in pairs for x in (p["a"], p["b"])}
    prep = prepare_all(postings, sorted(ids))
    ver = Verifier()  # postings prepared with the boilerplate model of the whole file, as a dedup run does
    table: Counter[tuple[str, bool]] = Counter()
    for p in pairs:
        a, b = prep[p["a"]], prep[p["b"]]
        f = pair_features(a, b)
        dec = ver.decide(a, b)
        dup = p["label"].upper() in DUP
        cell = rule_cell(f)
        table[(cell, dup)] += 1
        rule_dup = cell == "emp= roles="
        show = {"all": True, "disagree": rule_dup != dup, "dup": dup, "missed": dup and not dec.duplicate}[args.only]
        if args.quiet or not show:
            continue
        print(f"{p.get('pair', '?')} {p['a']} {p['b']} {p['label']}{' (amb)' if p.get('ambiguous') else ''}"
              f"  p={dec.score:.2f}{' DUP' if dec.duplicate else ''}  {cell}"
              f"  emp A={sorted(a.employers)} B={sorted(b.employers)}")
        print(f"   text_j={f[_I['text_jaccard']]:.2f} spec_j={f[_I['spec_jaccard']]:.2f} "
              f"spec_c={f[_I['spec_containment']]:.2f} role_sim={f[_I['role_sim']]:.2f} "
              f"changed={f[_I['roles_changed']]:.2f} novel={f[_I['roles_novel']]:.2f} fam_ch={f[_I['families_changed']]:.2f}")
        print(f"   title A: {a.ex.title[:70]!r}\n   title B: {b.ex.title[:70]!r}")
        print(f"   roles A: {list(a.role_names)}\n   roles B: {list(b.role_names)}")
        print(f"   why: {p.get('why', '')}")
    print(f"\n{args.lang}: {len(pairs)} train-side pairs; rule 'same employer and same role set' vs label")
    print(f"{'cell':<16} {'dup':>5} {'not':>5}")
    for cell in sorted({c for c, _ in table}):
        print(f"{cell:<16} {table[(cell, True)]:>5} {table[(cell, False)]:>5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
