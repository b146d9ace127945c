"""Which features push the training-side duplicates the verifier's recipe misses out of fold, and by how much:
per-feature contributions (the trees' Saabas paths, as the verifier explains a score) of each pair's fold model,
averaged over several group-to-fold splits, for the duplicates scoring below `--below` in every split next to the
duplicates found and the PARTIAL pairs; then the low duplicates sorted into feature classes (roles read as changed,
same roles, no roles; employer same / unknown). Training side only (the label files' `split: train` rows); prints
ids and labels, never posting text.

    PYTHONPATH=. python benchmarks/diagnose_oof_contributions.py --data-dir ../shared/data --lang zh [--list]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_dedup_pairs import FILES, train_side  # noqa: E402

from service import train as recipe_mod  # noqa: E402
from service.eval import load_label_sets, read_postings, train_rows_of, training_set  # noqa: E402
from signatures.decide import load_model  # noqa: E402
from signatures.features import FEATURES  # noqa: E402

_I = {f: i for i, f in enumerate(FEATURES)}


def oof_contributions(ts: recipe_mod.TrainingSet, recipe: recipe_mod.Recipe, k: int, seeds: list[int | None]
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold final scores (splits x pairs) and per-feature contributions (splits x pairs x FEATURES) of the
    recipe's fold models, one set per group-to-fold split."""
    ts.gen_weight = recipe.gen_weight
    scores = np.zeros((len(seeds), len(ts.labels)))
    contrib = np.zeros((len(seeds), len(ts.labels), len(FEATURES)))
    for s, seed in enumerate(seeds):
        folds = recipe_mod.group_folds(ts.groups, k, seed)
        for f in range(k):
            test = np.flatnonzero(folds == f)
            if not len(test):
                continue
            X, y, w = ts.stacked(np.flatnonzero(folds != f))
            model = recipe_mod.fit_learner(recipe.learner, X, y, recipe.vetoes, w, exclude=recipe.exclude,
                                           unvetoed=recipe.unvetoed)
            scores[s, test] = model.final_scores(ts.X[test])
            cols = [_I[x] for x in model.features]
            contrib[s, test[:, None], np.array(cols)[None, :]] = model.contributions_many(ts.X[test][:, cols])
    return scores, contrib


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--lang", default="zh", choices=sorted(FILES))
    ap.add_argument("--below", type=float, default=0.25, help="a duplicate is low when it scores below this in every split")
    ap.add_argument("--seeds", default=",1,2", help="fold splits: '' = the default split, N = service.train.group_folds seed")
    ap.add_argument("--cv", type=int, default=5)
    ap.add_argument("--list", action="store_true", help="also list each low duplicate: ids, label, scores, largest pushes")
    args = ap.parse_args(argv)
    root = Path(args.data_dir)
    names = [f"{lang}-{kind}.jsonl" for lang in FILES for kind in ("pairs", "dev-pairs")]
    with tempfile.TemporaryDirectory(prefix="oof-contrib-") as tmp:
        paths = train_side([Path(__file__).parent / "labels" / x for x in names], Path(tmp))
        sets = load_label_sets(read_postings([str(root / FILES[x]) for x in FILES]), paths)
    ts = training_set(sets)
    recipe = recipe_mod.model_recipe(ts, load_model(), args.cv)
    seeds = [int(x) if x else None for x in args.seeds.split(",")]
    scores, contrib = oof_contributions(ts, recipe, args.cv, seeds)
    pair_of = {}
    for s, rows in zip(sets, train_rows_of(sets), strict=True):
        for p, r in zip((p for p in s.pairs if p.split == "train"), rows.tolist(), strict=True):
            pair_of[r] = (s.name, p.a, p.b)
    labels = np.asarray(ts.labels)
    dup = recipe_mod.is_dup(ts.labels)
    mine = np.asarray(ts.langs) == args.lang
    low = mine & dup & (scores < args.below).all(0)
    found = mine & dup & (scores >= recipe.threshold).all(0)
    partial = mine & (labels == "PARTIAL")
    print(f"{args.lang}: {int((mine & dup).sum())} duplicates; below {args.below} per split "
          f"{[int((mine & dup & (s < args.below)).sum()) for s in scores]}, in every split {int(low.sum())}; "
          f"found in every split {int(found.sum())}; PARTIAL {int(partial.sum())}")
    c = contrib.mean(0)
    print(f"{'feature':20s} {'low: value':>11s} {'push':>6s} {'found: value':>13s} {'push':>6s} {'PARTIAL: value':>15s} {'push':>6s}")
    for j, f in enumerate(FEATURES):
        if np.abs(c[:, j]).sum():
            print(f"{f:20s} {ts.X[low, j].mean():11.3f} {c[low, j].mean():+6.2f} {ts.X[found, j].mean():13.3f} "
                  f"{c[found, j].mean():+6.2f} {ts.X[partial, j].mean():15.3f} {c[partial, j].mean():+6.2f}")
    x = ts.X
    roles = np.where(x[:, _I["roles_known"]] == 0, "no roles", np.where(x[:, _I["roles_changed"]] > 0, "roles changed",
                                                                        "same roles"))
    emp = np.where(x[:, _I["employer_same"]] == 1, "employer same",
                   np.where(x[:, _I["employer_differs"]] == 1, "employer differs", "employer unknown"))
    print("feature classes (low duplicates / all duplicates / PARTIAL+NON of the language):")
    for r in ("roles changed", "same roles", "no roles"):
        for e in ("employer same", "employer unknown", "employer differs"):
            m = mine & (roles == r) & (emp == e)
            if m.any():
                print(f"  {r:14s} {e:17s} {int((m & low).sum()):3d} / {int((m & dup).sum()):3d} / {int((m & ~dup).sum()):4d}")
    if args.list:
        for i in np.flatnonzero(low):
            top = sorted(((c[i, j], f) for j, f in enumerate(FEATURES) if c[i, j] < -0.25), key=lambda t: t[0])[:5]
            print(f"  {pair_of[i][0]} {pair_of[i][1]} {pair_of[i][2]} {labels[i]} scores {np.round(scores[:, i], 3).tolist()} "
                  + " ".join(f"{f}={x[i, _I[f]]:.2f}({v:+.1f})" for v, f in top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
