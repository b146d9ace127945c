"""Train the shipped duplicate verifier: scikit-learn logistic regression on the training side of the labeled
pairs (never the locked split) plus generated repost pairs (service.synth), with C, the veto rules and the
threshold chosen by grouped cross-validation; written to signatures/data/verifier-<VERIFIER_VERSION>.json.

    python benchmarks/train_verifier.py --data D/en-hn-hiring.jsonl --data D/zh-rebase-hiring.jsonl \\
        --data D/ja-postings.jsonl --labels D/labels/en-dev-pairs.jsonl --labels benchmarks/labels/en-pairs.jsonl ...

Deterministic: same data and code give the same coefficients. Prints the choices and grouped-CV figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from service import train as recipe_mod  # noqa: E402
from service.eval import LabelSet, load_label_sets, read_postings, score, train_rows_of, training_set  # noqa: E402
from service.files import write_atomic  # noqa: E402
from signatures.decide import Model  # noqa: E402
from signatures.features import FEATURES  # noqa: E402
from signatures.version import VERIFIER_VERSION  # noqa: E402


def parse_vetoes(text: str) -> tuple[tuple[str, float], ...]:
    """`links_changed>=0.5,places_moved>=1` as (feature, at_least) pairs; every name a feature."""
    out = []
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, sep, at = item.partition(">=")
        if not sep or name not in FEATURES:
            raise SystemExit(f"--vetoes: {item!r} is not FEATURE>=VALUE with a known feature")
        out.append((name, float(at)))
    return tuple(out)


def dump_oof(path: Path, sets: list[LabelSet], ts: recipe_mod.TrainingSet, recipe: recipe_mod.Recipe) -> None:
    """Each training-side pair's out-of-fold score against its cut, with its non-zero features (ids and labels
    only, no posting text): what grouped CV gets wrong, for sorting the errors into classes."""
    cuts = recipe.cuts(ts.langs)
    truth = recipe_mod.is_dup(ts.labels)
    lines = []
    for s, rows in zip(sets, train_rows_of(sets), strict=True):
        pairs = [p for p in s.pairs if p.split == "train"]
        for p, i in zip(pairs, rows, strict=True):
            pred = bool(recipe.oof[i] >= cuts[i])
            outcome = ("T" if pred == truth[i] else "F") + ("P" if pred else "N")
            feats = {f: round(float(v), 3) for f, v in zip(FEATURES, ts.X[i], strict=True) if v}
            lines.append(json.dumps({"set": s.name, "a": p.a, "b": p.b, "label": p.label, "lang": str(ts.langs[i]),
                                     "group": p.group, "fold_group": int(ts.groups[i]), "oof": round(float(recipe.oof[i]), 4),
                                     "cut": round(float(cuts[i]), 4), "outcome": outcome, "features": feats},
                                    ensure_ascii=False))
    write_atomic(path, ("\n".join(lines) + "\n").encode())
    print(f"wrote {len(lines)} out-of-fold rows to {path}")


def score_on(path: str, postings: dict[str, dict[str, Any]], models: dict[str, Model]) -> None:
    """Pair-level P / R / F1, PARTIAL merged and AUC of each model on a labels file kept out of its training (e.g.
    a new labeling round): a held-out check of the recipe next to the shipped model. Locked rows are refused."""
    from sklearn.metrics import roc_auc_score

    (s,) = load_label_sets(postings, [path])
    if any(p.split == "locked" for p in s.pairs):
        raise SystemExit(f"--score-on {path}: holds locked pairs; give a train-only copy")
    truth = recipe_mod.is_dup(s.labels)
    for name, model in models.items():
        sc = model.final_scores(s.X)
        r = score(name, "", sc >= model.thresholds_for(s.langs), s.labels)
        auc = roc_auc_score(truth, sc) if 0 < truth.sum() < len(truth) else float("nan")
        print(f"held out {os.path.basename(path)} ({len(s.pairs)} pairs): {name:24s} P {r.precision:.3f} "
              f"R {r.recall:.3f} F1 {r.f1:.3f} PARTIAL merged {r.partial_merged:.1%} AUC {auc:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--labels", action="append", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--per-language", action="store_true",
                    help="a threshold per language (each at its grouped-CV cost optimum; service.train)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "signatures", "data",
                                                  f"verifier-{VERIFIER_VERSION}.json"))
    ap.add_argument("--repeat", type=int, default=0, metavar="N",
                    help="also report the mean and range of the CV figures over N random group-to-fold splits")
    ap.add_argument("--dry-run", action="store_true", help="report CV only, do not write coefficients")
    ap.add_argument("--trees-only", action="store_true",
                    help="pick among the monotone gradient-boosted trees only (no logistic regression)")
    ap.add_argument("--exclude", default="", metavar="F1,F2",
                    help="features the model must not use (a feature subset; the recipe still chooses the vetoes)")
    ap.add_argument("--vetoes", default=None, metavar="F>=X,...",
                    help="the candidate veto rules (default: service.train.VETO_CANDIDATES; '' for none)")
    ap.add_argument("--unvetoed", action="store_true",
                    help="fit the model on the pairs no veto rule rejects only (service.train.fit_learner)")
    ap.add_argument("--learner", action="append", default=None, metavar="NAME",
                    help="the learner(s) to pick from, as the model meta writes them "
                         "('trees(max_iter=100,learning_rate=0.1,max_leaf_nodes=6,min_samples_leaf=10)', 'logistic(C=0.1)')")
    ap.add_argument("--generated-weight", type=float, action="append", default=None, metavar="W",
                    help="the generated-pair weight(s) to pick from (default: service.train.GENERATED_WEIGHTS)")
    ap.add_argument("--cut-rule", default="min", metavar="RULE",
                    help="how the threshold is read off the grouped-CV cost curve (service.train.choose_cut: min, "
                         "plateau:X, smooth:W, bagged:B); every cost the recipe compares is read at that cut")
    ap.add_argument("--cut-splits", type=int, default=1, metavar="N",
                    help="read the threshold and every cost the recipe compares (learner, weight, vetoes) off the cost "
                         "pooled over N group-to-fold splits (service.train.split_cost, pooled_cut)")
    ap.add_argument("--why", action="append", default=[], metavar="TEXT",
                    help="a line for the model's meta choices: why this recipe (e.g. a pinned learner)")
    ap.add_argument("--reference", default=None, metavar="MODEL.json",
                    help="instead of choosing a recipe, report the grouped CV of MODEL's recipe (its learner, "
                         "features, vetoes, generated weight; the threshold re-chosen) on today's features; writes nothing")
    ap.add_argument("--score-on", action="append", default=[], metavar="LABELS.jsonl",
                    help="also score the trained model and the shipped one on these pairs (kept out of --labels: a "
                         "held-out check, e.g. a new labeling round)")
    ap.add_argument("--group-by", choices=("component", "employer"), default="component",
                    help="CV folds by posting-graph component (default) or by each pair's employer group "
                         "(service.eval.pair_groups)")
    ap.add_argument("--dump-oof", default=None, metavar="FILE.jsonl",
                    help="write every training-side pair's out-of-fold score, cut, outcome (TP/FP/FN/TN) and "
                         "non-zero features as JSON Lines: the grouped-CV errors to sort into classes")
    args = ap.parse_args()

    postings = read_postings(args.data)
    sets = load_label_sets(postings, args.labels)
    ts = training_set(sets, not args.no_generated, args.group_by)
    locked = sum(p.split == "locked" for s in sets for p in s.pairs)
    print(f"training-side pairs: {len(ts.labels)} in {len(set(ts.groups.tolist()))} groups, "
          f"generated pairs: {len(ts.gen_labels)}, locked pairs left out: {locked}")
    if args.reference:
        from signatures.decide import model_from_json

        args.dry_run = True
        ref = model_from_json(json.loads(Path(args.reference).read_text(encoding="utf-8")))
        recipe = recipe_mod.model_recipe(ts, ref, args.folds, args.per_language)
    else:
        vetoes = recipe_mod.VETO_CANDIDATES if args.vetoes is None else parse_vetoes(args.vetoes)
        recipe = recipe_mod.choose(ts, args.folds, per_language=args.per_language, logistic=not args.trees_only,
                                   exclude=[f for f in args.exclude.split(",") if f], unvetoed=args.unvetoed,
                                   veto_candidates=vetoes,
                                   candidates=[recipe_mod.parse_learner(x) for x in args.learner or ()],
                                   gen_weights=args.generated_weight, cut_rule=args.cut_rule, cut_splits=args.cut_splits)
        recipe.log.extend(args.why)
    for line in recipe.log:
        print(line)
    cv_summary = {}
    for s, rows in zip(sets, train_rows_of(sets), strict=True):
        if not len(rows):
            continue
        labels = [ts.labels[i] for i in rows]
        r = score("cv", "", recipe.oof[rows] >= recipe.cuts(ts.langs[rows]), labels)
        cv_summary[s.name] = {"pairs": len(rows), "precision": round(r.precision, 4), "recall": round(r.recall, 4),
                              "f1": round(r.f1, 4), "partial_merged": round(r.partial_merged, 4)}
        print(f"{s.name:28s} grouped {args.folds}-fold CV: P {r.precision:.3f} R {r.recall:.3f} "
              f"F1 {r.f1:.3f} PARTIAL merged {r.partial_merged:.0%} ({len(rows)} pairs)")
    if args.dump_oof:
        dump_oof(Path(args.dump_oof), sets, ts, recipe)
    if args.repeat:
        runs = recipe_mod.repeated_cv(ts, recipe, args.folds, range(1, args.repeat + 1))
        for s, rows in zip(sets, train_rows_of(sets), strict=True):
            if not len(rows):
                continue
            labels = [ts.labels[i] for i in rows]
            rs = [score("cv", "", oof[rows] >= cut[rows], labels) for oof, cut in runs]
            f1 = [r.f1 for r in rs]
            pm = [r.partial_merged for r in rs]
            print(f"{s.name:28s} {args.repeat} random splits: F1 mean {sum(f1) / len(f1):.3f} ({min(f1):.3f}-{max(f1):.3f}), "
                  f"PARTIAL merged mean {sum(pm) / len(pm):.1%} (max {max(pm):.1%})")
    meta = {
        "verifier_version": VERIFIER_VERSION,
        "learner": recipe_mod.learner_name(recipe.learner),
        "trained_on": [s.name for s in sets],
        "training_pairs": len(ts.labels),
        "locked_pairs_left_out": locked,
        "generated_pairs": len(ts.gen_labels),
        "generated_weight": recipe.gen_weight,
        **({"excluded_features": list(recipe.exclude)} if recipe.exclude else {}),
        **({"unvetoed": True} if recipe.unvetoed else {}),
        # how the threshold was read (the group CV's fold models read theirs the same way: eval_dedup_pairs.py --cv)
        **({"cut_rule": recipe.cut_rule, "cut_splits": recipe.cut_splits}
           if recipe.cut_rule != "min" or recipe.cut_splits > 1 else {}),
        "false_merge_cost": recipe_mod.FALSE_MERGE_COST,
        "choices": recipe.log,
        "cv_folds": args.folds,
        "cv": cv_summary,
    }
    model = recipe_mod.train(ts, recipe, meta)
    if hasattr(model, "coef"):
        print("coefficients (standardized):", ", ".join(f"{f}={c:+.2f}" for f, c in zip(model.features, model.coef, strict=True)),
              f"intercept={model.intercept:+.2f}")
    else:
        print(f"trees: {len(model.roots)}, nodes: {len(model.feature)}, features: {', '.join(model.features)}")
    if args.score_on:
        from signatures.decide import load_model

        for path in args.score_on:
            score_on(path, postings, {"this recipe": model, f"shipped verifier {VERIFIER_VERSION}": load_model()})
    if not args.dry_run:
        doc = model.to_json()  # one key per line, arrays on one line: small, diffable
        write_atomic(Path(args.out), ("{\n" + ",\n".join(  # a failed run leaves the shipped model as it was
            f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items()) + "\n}\n").encode())
        print("wrote", os.path.abspath(args.out))


if __name__ == "__main__":
    main()
