"""How a verifier cut is read off out-of-fold scores (service.train.choose_cut) and the group CV's options for it
(benchmarks/eval_dedup_pairs.py --cut-rule / --per-language)."""

from __future__ import annotations

import numpy as np
import pytest

from service.train import (
    CUT_GRID,
    TREE_PARAMS,
    Recipe,
    TrainingSet,
    best_threshold,
    choose_cut,
    cost_curve,
    language_thresholds,
    parse_cut_rule,
)
from signatures.decide import load_model
from signatures.features import FEATURES


def _scores(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < 0.3
    return np.clip(np.where(truth, rng.normal(0.8, 0.15, n), rng.normal(0.3, 0.2, n)), 0, 1), truth


def test_cost_curve_counts_weighted_false_merges_and_misses_at_each_cut() -> None:
    s, t = _scores(1)
    w = np.random.default_rng(2).integers(0, 3, len(s)).astype(float)
    cuts = np.array([0.0, 0.31, 0.5, float(s[0]), 0.97, 1.5])  # one cut exactly on a score: that pair is merged
    got = cost_curve(s, t, cuts, w, cost=3.0)
    want = [3.0 * w[(s >= c) & ~t].sum() + w[(s < c) & t].sum() for c in cuts]
    assert got.tolist() == pytest.approx(want)
    assert cost_curve(s, t, cuts).tolist() == pytest.approx([3.0 * ((s >= c) & ~t).sum() + ((s < c) & t).sum()
                                                            for c in cuts])


def test_each_rule_reads_the_cost_curve_as_documented() -> None:
    s, t = _scores(3)
    assert choose_cut(s, t) == choose_cut(s, t, "min") == best_threshold(s, t)
    loss = cost_curve(s, t)
    # smooth: the lowest cost averaged over +-W, on the grid
    near = np.abs(CUT_GRID[:, None] - CUT_GRID[None, :]) <= 0.05 + 1e-9
    avg = (near * loss).sum(1) / near.sum(1)
    c = choose_cut(s, t, "smooth:0.05")
    assert c in CUT_GRID and avg[CUT_GRID == c][0] == pytest.approx(avg.min())
    # plateau: the middle of the run around the minimum within X of it; every cut of that run is that good
    c = choose_cut(s, t, "plateau:0.1")
    best = len(loss) - 1 - int(np.argmin(loss[::-1]))
    lo = hi = best
    while lo > 0 and loss[lo - 1] <= loss.min() * 1.1:
        lo -= 1
    while hi < len(loss) - 1 and loss[hi + 1] <= loss.min() * 1.1:
        hi += 1
    assert lo < best < hi and c == pytest.approx((CUT_GRID[lo] + CUT_GRID[hi]) / 2)
    ties = np.flatnonzero(loss == loss.min())
    assert CUT_GRID[ties.min()] <= choose_cut(s, t, "plateau:0") <= CUT_GRID[ties.max()]  # among the minima
    # bagged: deterministic, the median of bootstrap minima, within the range the minima span
    groups = np.arange(len(s)) // 4
    b = choose_cut(s, t, "bagged:30", groups)
    assert b == choose_cut(s, t, "bagged:30", groups) and 0.05 <= b <= 0.95


def test_smoothing_prefers_a_wide_basin_to_a_narrow_dip() -> None:
    """Cost 9 for every cut in 0.45-0.80, 15 above but for one narrow dip to 6 at 0.86-0.88 (three non-duplicates
    just below nine duplicates): "min" takes the dip, "smooth" the broad basin; "plateau" centres the run around
    the minimum, so it stays in the dip."""
    s = np.concatenate([np.full(40, 0.1), np.full(40, 0.97), np.full(2, 0.45), np.full(6, 0.80), np.full(3, 0.86),
                        np.full(9, 0.88)])
    t = np.concatenate([np.zeros(40, bool), np.ones(40, bool), np.zeros(2, bool), np.ones(6, bool),
                        np.zeros(3, bool), np.ones(9, bool)])
    loss = cost_curve(s, t, np.array([0.6, 0.83, 0.87, 0.9]))
    assert loss.tolist() == [9, 15, 6, 15]
    assert 0.86 < best_threshold(s, t) <= 0.88 and 0.86 < choose_cut(s, t, "plateau:0.1") <= 0.88
    assert 0.55 <= choose_cut(s, t, "smooth:0.1") <= 0.70


def test_language_thresholds_read_each_language_by_the_rule() -> None:
    s, t = _scores(4, 600)
    langs = np.array(["en", "zh", "ja"] * 200)
    per = language_thresholds(s, t, langs, rule="smooth:0.05")
    assert set(per) == {"en", "zh", "ja"}
    assert per["zh"] == choose_cut(s[langs == "zh"], t[langs == "zh"], "smooth:0.05")
    assert language_thresholds(s, t, langs) == {x: best_threshold(s[langs == x], t[langs == x]) for x in per}


@pytest.mark.parametrize("rule", ["median", "smooth:x", "bagged:0", "plateau:-1", "smooth:nan", "plateau:inf", "bagged:inf",
                                  "bagged:1e12", "bagged:2.5"])
def test_bad_cut_rules_are_refused_clearly(rule: str) -> None:
    with pytest.raises(ValueError, match="cut rule"):
        parse_cut_rule(rule)


@pytest.mark.parametrize(("option", "value", "says"), [("--cut-rule", "smooth:wide", "cut rule"),
                                                        ("--cut", "zh=1.2", "--cut"), ("--cut", "xx=0.5", "--cut"),
                                                        ("--cut", "0.7;zh=0.6", "--cut")])
def test_group_cv_refuses_bad_cut_options_before_reading_anything(tmp_path, capsys, option, value, says) -> None:
    from benchmarks.eval_dedup_pairs import main

    with pytest.raises(SystemExit) as e:
        main(["--data-dir", str(tmp_path / "missing"), "--cv", "5", option, value])
    assert e.value.code == 2 and says in capsys.readouterr().err


def test_fixed_cuts_parse_as_a_default_and_languages() -> None:
    from benchmarks.eval_dedup_pairs import parse_cuts

    assert parse_cuts("0.7166, zh=0.6") == {"": 0.7166, "zh": 0.6}
    assert parse_cuts("ja=0.5") == {"ja": 0.5} and parse_cuts("") == {}
    shipped = load_model()
    own = parse_cuts("model", shipped)
    assert own[""] == shipped.threshold and {x: v for x, v in own.items() if x} == dict(shipped.thresholds or {})
    assert parse_cuts("model,zh=0.6", shipped) == {**own, "zh": 0.6}
    with pytest.raises(ValueError, match="--cut"):
        parse_cuts("model")  # no model given: not a number


def test_fold_model_cuts_by_rule_and_per_language() -> None:
    """The group CV's fold model: one cut by the rule, or also one per language with enough duplicates; the
    recipe's own per-language choice is the default."""
    from benchmarks.eval_dedup_pairs import fold_model

    rng = np.random.default_rng(7)
    n = 360
    X = rng.uniform(0, 1, (n, len(FEATURES)))
    i = FEATURES.index("spec_jaccard")
    labels = ["TEMPORAL" if x > 0.6 else "NON" for x in X[:, i]]
    langs = np.array(["en", "zh"] * (n // 2))
    ts = TrainingSet(X, labels, np.arange(n) % 60, np.zeros((0, len(FEATURES))), [], langs=langs)
    recipe = Recipe(("trees", TREE_PARAMS[0]), 0.1, (), 0.5, np.zeros(n), [])
    rows = np.flatnonzero(np.arange(n) % 5 != 0)
    plain = fold_model(ts, recipe, rows, 3)
    assert not plain.thresholds and 0.05 <= plain.threshold <= 0.95
    per = fold_model(ts, recipe, rows, 3, "plateau:0.05", per_language=True)
    assert set(per.thresholds) == {"en", "zh"} and all(0.05 <= v <= 0.95 for v in per.thresholds.values())
    assert per.threshold in CUT_GRID or per.threshold == pytest.approx(round(per.threshold, 4))
    fixed = fold_model(ts, recipe, rows, 3, fixed={"": 0.7, "zh": 0.4})
    assert fixed.threshold == 0.7 and fixed.thresholds == {"zh": 0.4}
    both = fold_model(ts, recipe, rows, 3, per_language=True, fixed={"zh": 0.4})  # en still chosen, zh fixed
    assert both.thresholds == {"en": fold_model(ts, recipe, rows, 3, per_language=True).thresholds["en"], "zh": 0.4}
    with_per = Recipe(("trees", TREE_PARAMS[0]), 0.1, (), 0.5, np.zeros(n), [], {"en": 0.5})
    assert set(fold_model(ts, with_per, rows, 3).thresholds) == {"en", "zh"}


def test_pooled_cut_reads_the_cost_summed_over_fold_splits() -> None:
    """The recipe's cut off the grouped-CV cost pooled over several group-to-fold splits (train_verifier.py
    --cut-splits): one split is the recipe's own out-of-fold scores; more add the seeded splits' scores."""
    from service.train import oof_scores, pooled_cut

    rng = np.random.default_rng(11)
    n = 300
    X = rng.uniform(0, 1, (n, len(FEATURES)))
    i = FEATURES.index("spec_jaccard")
    labels = ["TEMPORAL" if x + rng.normal(0, 0.15) > 0.6 else "NON" for x in X[:, i]]
    ts = TrainingSet(X, labels, np.arange(n) % 50, np.zeros((0, len(FEATURES))), [])
    learner = ("trees", TREE_PARAMS[0])
    oof = oof_scores(ts, learner, (), 3)
    recipe = Recipe(learner, 0.0, (), 0.5, oof, [])
    truth = np.array([x == "TEMPORAL" for x in labels])
    assert pooled_cut(ts, recipe, 3, 1) == best_threshold(oof, truth)
    both = np.concatenate([oof, oof_scores(ts, learner, (), 3, seed=1)])
    assert pooled_cut(ts, recipe, 3, 2, "plateau:0.1") == choose_cut(both, np.tile(truth, 2), "plateau:0.1")


def test_oof_contributions_add_up_to_each_fold_models_score() -> None:
    """benchmarks/diagnose_oof_contributions.py: per split and fold, logit(out-of-fold score) minus the pair's summed
    contributions is the fold model's base (one value per fold); the feature the labels follow pushes most, and a
    feature the model does not read pushes nothing."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from diagnose_oof_contributions import oof_contributions

    from service.train import group_folds

    rng = np.random.default_rng(5)
    n = 240
    X = rng.uniform(0, 1, (n, len(FEATURES)))
    i = FEATURES.index("spec_containment")
    labels = ["TEMPORAL" if x > 0.5 else "NON" for x in X[:, i]]
    ts = TrainingSet(X, labels, np.arange(n) % 40, np.zeros((0, len(FEATURES))), [])
    recipe = Recipe(("trees", TREE_PARAMS[0]), 0.0, (), 0.5, np.zeros(n), [], exclude=("salary_same",))
    scores, contrib = oof_contributions(ts, recipe, 3, [None, 2])
    assert scores.shape == (2, n) and contrib.shape == (2, n, len(FEATURES))
    for s, seed in enumerate([None, 2]):
        base = np.log(scores[s] / (1 - scores[s])) - contrib[s].sum(1)
        folds = group_folds(ts.groups, 3, seed)
        for f in range(3):
            assert np.ptp(base[folds == f]) < 1e-6
    push = np.abs(contrib).mean((0, 1))
    assert push.argmax() == i and not push[FEATURES.index("salary_same")]


def _noisy_set(seed: int, n: int = 300) -> TrainingSet:
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 1, (n, len(FEATURES)))
    i, v = FEATURES.index("spec_jaccard"), FEATURES.index("places_moved")
    X[:, v] = (rng.random(n) < 0.15).astype(float)
    labels = ["TEMPORAL" if x + rng.normal(0, 0.15) > 0.6 else "NON" for x in X[:, i]]
    return TrainingSet(X, labels, np.arange(n) % 50, np.zeros((0, len(FEATURES))), [], langs=np.array(["en"] * n))


def test_the_recipe_compares_vetoes_at_the_cut_it_ships_with() -> None:
    """choose(cut_rule, cut_splits): every cost it compares (each veto kept or dropped) and the threshold are read
    by the rule off the cost pooled over that many fold splits (split_cost), not one split's minimum; with one
    split and "min" split_cost is cv_cost of the default split, as before."""
    from service.train import choose, cv_cost, is_dup, oof_scores, pooled_cut, split_cost

    ts = _noisy_set(12)
    learner, veto = ("trees", TREE_PARAMS[0]), ("places_moved", 1.0)
    truth = is_dup(ts.labels)
    assert split_cost(ts, learner, (veto,), 3) == cv_cost(oof_scores(ts, learner, (veto,), 3), truth)[0]
    both = np.concatenate([oof_scores(ts, learner, (), 3, seed) for seed in (None, 1)])
    assert split_cost(ts, learner, (), 3, rule="plateau:0.1", splits=2) == \
        cv_cost(both, np.tile(truth, 2), rule="plateau:0.1")[0]
    recipe = choose(ts, k=3, candidates=[learner], gen_weights=[0.1], veto_candidates=(veto,),
                    cut_rule="plateau:0.1", cut_splits=2)
    with_v, without = split_cost(ts, learner, (veto,), 3, rule="plateau:0.1", splits=2), \
        split_cost(ts, learner, (), 3, rule="plateau:0.1", splits=2)
    assert any(f"{with_v:.4f} with, {without:.4f} without" in line for line in recipe.log)
    assert (recipe.cut_rule, recipe.cut_splits) == ("plateau:0.1", 2)
    assert recipe.threshold == pooled_cut(ts, recipe, 3, 2, "plateau:0.1")


def test_a_models_recipe_and_the_group_cv_read_the_cut_as_the_model_was_cut() -> None:
    """A model whose meta says how its cut was read (cut_rule, cut_splits: train_verifier.py --cut-rule / --cut-splits)
    is re-run with that reading (model_recipe), and each group-CV fold model reads its cut the same way off its own
    rows (eval_dedup_pairs.fold_model), unless told otherwise; a meta without them is one split's minimum."""
    import dataclasses

    from benchmarks.eval_dedup_pairs import fold_model
    from service.train import fit_learner, is_dup, learner_name, model_recipe, oof_scores, pooled_cut

    ts = _noisy_set(13)
    learner = ("trees", TREE_PARAMS[0])
    y = is_dup(ts.labels).astype(int)
    meta = {"learner": learner_name(learner), "generated_weight": 0.1}
    plain = model_recipe(ts, fit_learner(learner, ts.X, y, (), meta=meta), k=3)
    assert (plain.cut_rule, plain.cut_splits) == ("min", 1) and plain.threshold == best_threshold(plain.oof, y > 0)
    model = fit_learner(learner, ts.X, y, (), meta={**meta, "cut_rule": "plateau:0.1", "cut_splits": 3})
    recipe = model_recipe(ts, model, k=3)
    assert (recipe.cut_rule, recipe.cut_splits) == ("plateau:0.1", 3)
    assert recipe.threshold == pooled_cut(ts, recipe, 3, 3, "plateau:0.1")
    rows = np.flatnonzero(np.arange(len(ts.labels)) % 5 != 0)
    sub = TrainingSet(ts.X[rows], [ts.labels[i] for i in rows], ts.groups[rows], ts.X_gen, ts.gen_labels, 0.1,
                      ts.langs[rows])
    own = dataclasses.replace(recipe, oof=oof_scores(sub, learner, (), 3))
    assert fold_model(ts, recipe, rows, 3).threshold == pooled_cut(sub, own, 3, 3, "plateau:0.1")
    assert fold_model(ts, recipe, rows, 3, "min", splits=1).threshold == best_threshold(own.oof, is_dup(sub.labels))
