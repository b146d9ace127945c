"""Train the shipped duplicate verifier: logistic regression (numpy) on the labeled development pairs
plus generated repost pairs (service.synth), written to signatures/data/verifier-<SIG_VERSION>.json.

    python benchmarks/train_verifier.py --data D/en-hn-hiring.jsonl --data D/zh-rebase-hiring.jsonl \
        --data D/ja-postings.jsonl --labels D/labels/en-dev-pairs.jsonl --labels D/labels/zh-dev-pairs.jsonl \
        --labels D/labels/ja-dev-pairs.jsonl

Deterministic: same data and code give the same coefficients. Prints grouped-CV F1 per labels file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from service.eval import (  # noqa: E402
    GENERATED_PER_LANG,
    GENERATED_WEIGHT,
    L2,
    THRESHOLD,
    VETOES,
    cross_validated,
    generated_pairs,
    load_label_sets,
    read_postings,
    score,
    train_model,
)
from signatures.features import FEATURES  # noqa: E402
from signatures.version import SIG_VERSION  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--labels", action="append", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "signatures", "data",
                                                  f"verifier-{SIG_VERSION}.json"))
    ap.add_argument("--dry-run", action="store_true", help="report CV only, do not write coefficients")
    args = ap.parse_args()

    postings = read_postings(args.data)
    sets = load_label_sets(postings, args.labels)
    X_gen, y_gen = np.zeros((0, len(FEATURES))), []
    if not args.no_generated:
        for lang in ("en", "zh", "ja"):
            Xg, yg = generated_pairs(lang)
            X_gen = np.vstack([X_gen, Xg])
            y_gen += yg
    print(f"dev pairs: {sum(len(s.pairs) for s in sets)}, generated pairs: {len(y_gen)}")
    oof = cross_validated(sets, args.folds, X_gen, y_gen)
    cv_summary = {}
    for s, p in zip(sets, oof, strict=True):
        r = score("cv", "", p >= THRESHOLD, s.labels)
        cv_summary[s.name] = {"f1": round(r.f1, 4), "partial_merged": round(r.partial_merged, 4)}
        print(f"{s.name:28s} grouped {args.folds}-fold CV: P {r.precision:.3f} R {r.recall:.3f} "
              f"F1 {r.f1:.3f} PARTIAL merged {r.partial_merged:.0%}")
    X = np.vstack([s.X for s in sets])
    labels = [lb for s in sets for lb in s.labels]
    meta = {
        "sig_version": SIG_VERSION,
        "trained_on": [s.name for s in sets],
        "dev_pairs": len(labels),
        "generated_pairs": len(y_gen),
        "generated_per_lang": GENERATED_PER_LANG,
        "generated_weight": GENERATED_WEIGHT,
        "l2": L2,
        "threshold": THRESHOLD,
        "vetoes": [list(v) for v in VETOES],
        "cv_folds": args.folds,
        "cv": cv_summary,
    }
    model = train_model(X, labels, X_gen, y_gen, meta=meta)
    for s in sets:
        r = score("fit", "", model.final_scores(s.X) >= THRESHOLD, s.labels)
        print(f"{s.name:28s} training fit:       F1 {r.f1:.3f} PARTIAL merged {r.partial_merged:.0%}")
    print("coefficients (standardized):", ", ".join(f"{f}={c:+.2f}" for f, c in zip(model.features, model.coef, strict=True)),
          f"intercept={model.intercept:+.2f}")
    if not args.dry_run:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(model.to_json(), fh, indent=1)
            fh.write("\n")
        print("wrote", os.path.abspath(args.out))


if __name__ == "__main__":
    main()
