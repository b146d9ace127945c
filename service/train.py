"""How the shipped verifier is trained: scikit-learn logistic regression (standardized, L2, sign-constrained)
or monotonic gradient-boosted trees on labeled pairs plus down-weighted generated pairs; the learner, its
regularization, the generated-pair weight, the decision threshold and each veto rule chosen by grouped
cross-validation on the training side only. Used by benchmarks/train_verifier.py and `jobdedup eval`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from signatures.decide import LogisticModel, Model, TreeModel, vetoed_rows
from signatures.features import ALWAYS_KNOWN, FEATURES

DUP_LABELS = frozenset({"FULL", "SEMANTIC", "TEMPORAL"})

#: Merging two different jobs hides one from search; missing a duplicate only shows a repost twice.
FALSE_MERGE_COST = 3.0
#: Weight of a generated pair next to a labeled one, by grouped CV. Never 0: the labeled pairs hold no cross-site
#: copies or crawl re-sightings of one ad (every labeled source is one board), the generated pairs do.
GENERATED_WEIGHTS = (0.1, 0.25, 0.5)
C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
#: A language gets its own threshold (opt-in, `choose(per_language=True)`) only with at least this many
#: training-side duplicates; the others use the global one (Japanese has 2 on the training side).
MIN_LANGUAGE_DUPLICATES = 20
#: Candidate veto rules (feature, at least): hard evidence of different jobs whatever the text says. Each is
#: dropped when grouped CV on the training side is better without it (the feature then weighed by the model);
#: on a tie it stays, since each encodes a GUIDE rule the labeled pairs rarely exercise (figures logged and
#: shipped in the model's meta).
#: * links_changed >= 0.5: at least half of the job links two role lists give (both >= 2) differ.
#: * places_moved >= 1: each posting names a place the other never mentions (same text, another city).
#: * employer_conflict >= 1: two employers by name and by own site (the GUIDE's same template, other employer).
#: * terms_changed >= 1: both state an employment type, pay unit or shift (clock hours) with nothing in common
#:   (one template for a full-time and a part-time job, a day and a night shift: job boards' multi-postings).
#: * pay_tiers >= 1: the same job at different pay posted within a day (two pay tiers: two offers, PARTIAL).
#: * roles_halved >= 1: half or more of the role list changed (one of two roles added or dropped: PARTIAL).
VETO_CANDIDATES: tuple[tuple[str, float], ...] = (
    ("links_changed", 0.5), ("places_moved", 1.0), ("employer_conflict", 1.0), ("terms_changed", 1.0),
    ("pay_tiers", 1.0), ("roles_halved", 1.0))
#: Computed for reports, not used by the model: parsed locations are too noisy (HN first lines mix places,
#: remote and contract terms) and places_moved says what matters; text_jaccard next to the
#: boilerplate-weighted spec_jaccard is collinear; title_sim repeats the announced roles (titles are role
#: lists or carry tags and places): grouped-CV cost on the 451 dev pairs 0.093 with it, 0.078 without.
#: date_gap is left out too: the GUIDE says dates never make a pair a non-duplicate, but in monthly hiring
#: threads two posts of one employer in the same month are different roles, so a model given the gap learns
#: "same day = other job" and then splits same-day cross-posts of one ad (generated-truth recall fell to 0.05).
REPORT_ONLY = ("location_agree", "text_jaccard", "title_sim")


#: The sign each feature's coefficient must have: more similarity or agreement never lowers the score, more
#: change or disagreement never raises it. A feature whose fitted sign is wrong (collinearity) is left out
#: and the model refitted, so every reason reads the way its name says.
MONOTONE: dict[str, int] = {
    "spec_jaccard": 1, "spec_containment": 1, "spec_near_copy": 1, "title_sim": 1, "role_sim": 1,
    "employer_roles": 1, "employer_same": 1, "salary_same": 1, "roles_changed": -1, "roles_novel": -1,
    "families_changed": -1, "employer_differs": -1, "employer_conflict": -1, "salary_differs": -1,
    "links_changed": -1, "places_moved": -1, "terms_changed": -1, "pay_tiers": -1, "duties_containment": 1,
    "text_jaccard": 1, "text_copy": 1, "date_gap": 1, "employer_jobs": 1, "roles_halved": -1,
    "links_same": 1,
}


def model_features(vetoes: Sequence[tuple[str, float]], exclude: Sequence[str] = ()) -> tuple[str, ...]:
    """The model's inputs: every feature but the report-only ones, those acting as veto rules and `exclude`
    (a feature subset tried by grouped CV, or the inputs a shipped model did not have)."""
    skip = set(REPORT_ONLY) | {f for f, _ in vetoes} | set(exclude)
    return tuple(f for f in FEATURES if f not in skip)


def is_dup(labels: Sequence[str]) -> np.ndarray:
    return np.isin(np.asarray(labels), list(DUP_LABELS))


def fit(X: np.ndarray, y: np.ndarray, C: float, vetoes: Sequence[tuple[str, float]] = (),
        sample_weight: np.ndarray | None = None, threshold: float = 0.5,
        meta: Mapping[str, Any] | None = None, exclude: Sequence[str] = ()) -> LogisticModel:
    """Logistic regression (scikit-learn, lbfgs, L2 with strength 1/C) on standardized model features, with
    the signs of MONOTONE (features fitted against theirs are dropped one by one); X has all FEATURES
    columns. Deterministic for given data."""
    from sklearn.linear_model import LogisticRegression

    feats = model_features(vetoes, exclude)
    while True:
        cols = [FEATURES.index(f) for f in feats]
        Xm = np.asarray(X, dtype=np.float64)[:, cols]
        mean = Xm.mean(axis=0)
        scale = Xm.std(axis=0)
        scale[scale < 1e-9] = 1.0
        clf = LogisticRegression(C=C, max_iter=2000)
        clf.fit((Xm - mean) / scale, np.asarray(y, dtype=int), sample_weight=sample_weight)
        wrong = [(abs(c), f) for f, c in zip(feats, clf.coef_[0], strict=True) if MONOTONE.get(f, 0) * c < 0]
        if not wrong:
            break
        feats = tuple(f for f in feats if f != max(wrong)[1])  # drop the worst offender, refit
    reference = np.where([f in ALWAYS_KNOWN for f in feats], mean, 0.0)
    return LogisticModel(feats, mean, scale, clf.coef_[0].copy(), float(clf.intercept_[0]), threshold, meta,
                         tuple((str(f), float(v)) for f, v in vetoes), reference)


#: Gradient-boosted trees tried next to the logistic regression (scikit-learn HistGradientBoostingClassifier,
#: monotonic constraints from MONOTONE): small, shallow ensembles for ~1,000 labeled pairs.
TREE_PARAMS: tuple[dict[str, Any], ...] = (
    {"max_iter": 100, "learning_rate": 0.1, "max_leaf_nodes": 4, "min_samples_leaf": 20},
    {"max_iter": 200, "learning_rate": 0.05, "max_depth": 3, "min_samples_leaf": 10},
)


def fit_trees(X: np.ndarray, y: np.ndarray, params: Mapping[str, Any], vetoes: Sequence[tuple[str, float]] = (),
              sample_weight: np.ndarray | None = None, threshold: float = 0.5,
              meta: Mapping[str, Any] | None = None, exclude: Sequence[str] = ()) -> TreeModel:
    """HistGradientBoostingClassifier (monotonic in the MONOTONE features, fixed seed) dumped to a TreeModel:
    node arrays of every tree, leaf values with the learning rate applied, and each node's expectation
    (count-weighted mean of its leaves) for the per-feature contributions."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from threadpoolctl import threadpool_limits

    feats = model_features(vetoes, exclude)
    Xm = np.asarray(X, dtype=np.float64)[:, [FEATURES.index(f) for f in feats]]
    clf = HistGradientBoostingClassifier(monotonic_cst=[MONOTONE.get(f, 0) for f in feats], random_state=0,
                                         early_stopping=False, **params)
    with threadpool_limits(1):  # OpenMP threads cost 20x on ~2,000 rows (0.27 s vs 6 s per fit on 2 busy cores)
        clf.fit(Xm, np.asarray(y, dtype=int), sample_weight=sample_weight)
    parts, roots, offset = [], [], 0
    for (pred,) in clf._predictors:  # one tree per iteration (binary classification)
        nodes = pred.nodes
        roots.append(offset)
        parts.append((nodes, offset))
        offset += len(nodes)
    n = offset
    feature = np.zeros(n, np.int32)
    split = np.zeros(n)
    left = np.full(n, -1, np.int32)
    right = np.full(n, -1, np.int32)
    missing_left = np.zeros(n, bool)
    value = np.zeros(n)
    expect = np.zeros(n)
    for nodes, off in parts:
        sl = slice(off, off + len(nodes))
        leaf = nodes["is_leaf"].astype(bool)
        feature[sl] = np.where(leaf, 0, nodes["feature_idx"])
        split[sl] = nodes["num_threshold"]
        left[sl] = np.where(leaf, -1, nodes["left"] + off)
        right[sl] = np.where(leaf, -1, nodes["right"] + off)
        missing_left[sl] = nodes["missing_go_to_left"].astype(bool)
        value[sl] = np.where(leaf, nodes["value"], 0.0)
        count = nodes["count"].astype(np.float64)
        ev = np.where(leaf, nodes["value"], 0.0)
        for i in np.argsort(-nodes["depth"], kind="stable"):  # children before parents
            if not leaf[i]:
                lc, rc = nodes["left"][i], nodes["right"][i]
                ev[i] = (ev[lc] * count[lc] + ev[rc] * count[rc]) / max(count[lc] + count[rc], 1.0)
        expect[sl] = ev
    depth = int(max(p.nodes["depth"].max() for (p,) in clf._predictors)) if clf._predictors else 0
    baseline = float(np.ravel(clf._baseline_prediction)[0])
    return TreeModel(feats, feature, split, left, right, missing_left, value, expect, np.array(roots, np.int32),
                     baseline, depth, threshold, meta, tuple((str(f), float(v)) for f, v in vetoes))


def fit_learner(learner: tuple[str, Any], X: np.ndarray, y: np.ndarray, vetoes: Sequence[tuple[str, float]],
                sample_weight: np.ndarray | None = None, threshold: float = 0.5,
                meta: Mapping[str, Any] | None = None, exclude: Sequence[str] = (),
                unvetoed: bool = False) -> Model:
    """Fit ("logistic", C) or ("trees", params) on the model features but `exclude`; `unvetoed`: only on the
    rows no veto rule rejects (a vetoed pair's score is capped whatever the model says, so it teaches the
    model nothing it uses; left in, a template copied under another employer reads as "a copy is no duplicate")."""
    if unvetoed and vetoes:
        keep = ~vetoed_rows(X, vetoes)
        X, y = X[keep], y[keep]
        sample_weight = None if sample_weight is None else sample_weight[keep]
    kind, arg = learner
    if kind == "trees":
        return fit_trees(X, y, arg, vetoes, sample_weight, threshold, meta, exclude)
    return fit(X, y, arg, vetoes, sample_weight, threshold, meta, exclude)



def learner_name(learner: tuple[str, Any]) -> str:
    kind, arg = learner
    if kind == "trees":
        return "trees(" + ",".join(f"{k}={v}" for k, v in arg.items()) + ")"
    return f"logistic(C={arg:g})"


def parse_learner(name: str) -> tuple[str, Any]:
    """The learner `learner_name` wrote: "logistic(C=0.1)" or "trees(max_iter=100,learning_rate=0.1,...)"."""
    kind, _, args = name.partition("(")
    pairs = dict(a.split("=", 1) for a in args.rstrip(")").split(",") if a)
    if kind == "logistic":
        return "logistic", float(pairs["C"])
    if kind != "trees":
        raise ValueError(f"unknown learner {name!r}")
    return "trees", {k: (float(v) if "." in v else int(v)) for k, v in pairs.items()}


def best_threshold(scores: np.ndarray, truth: np.ndarray, cost: float = FALSE_MERGE_COST) -> float:
    """The score cut minimizing cost * false merges + missed duplicates (ties: the stricter cut), midway
    between neighbouring scores so it does not sit on a training pair."""
    s = np.asarray(scores, dtype=np.float64)
    t = np.asarray(truth, dtype=bool)
    cuts = np.unique(s)
    mids = np.concatenate([[cuts[0] - 1e-6], (cuts[1:] + cuts[:-1]) / 2, [cuts[-1] + 1e-6]]) if len(cuts) else \
        np.array([0.5])
    best_t = float(mids[_last_min(cost_curve(s, t, mids, cost=cost))])
    return min(max(best_t, 0.05), 0.95)


#: How a cut is read off out-of-fold scores (`choose_cut`). The grouped-CV cost is flat over 0.6-0.9, so its
#: exact minimum ("min", `best_threshold`) jumps with any change; the others read the curve's broad shape:
#: * "smooth:W": the minimum of the cost averaged over the cuts within +-W (on CUT_GRID);
#: * "plateau:X": the middle of the run of cuts around the minimum whose cost is within X (a fraction) of it;
#: * "bagged:B": the median of the minima (on CUT_GRID) over B bootstrap resamples of the CV groups (seeded).
CUT_RULES = ("min", "smooth", "plateau", "bagged")
#: The cuts the curve-reading rules consider (best_threshold's clip range).
CUT_GRID = np.round(np.arange(0.05, 0.9501, 0.005), 4)
#: Most bootstrap resamples "bagged:B" takes (each is a cost curve over every pair).
MAX_BAGS = 10_000


def parse_cut_rule(rule: str) -> tuple[str, float]:
    """`min`, `smooth:0.05`, `plateau:0.05`, `bagged:50` as (name, parameter); a clear error otherwise."""
    name, _, arg = rule.partition(":")
    defaults = {"min": 0.0, "smooth": 0.05, "plateau": 0.05, "bagged": 50.0}
    if name not in defaults:
        raise ValueError(f"unknown cut rule {rule!r} (one of {', '.join(CUT_RULES)}, with :PARAMETER)")
    try:
        value = float(arg) if arg else defaults[name]
    except ValueError:
        raise ValueError(f"cut rule {rule!r}: parameter {arg!r} is not a number") from None
    if not 0 <= value < math.inf or (name == "bagged" and not (value == int(value) and 1 <= value <= MAX_BAGS)):
        raise ValueError(f"cut rule {rule!r}: parameter out of range (a number >= 0; bagged: a whole number of "
                         f"resamples, 1 to {MAX_BAGS:,})")
    return name, value


def cost_curve(scores: np.ndarray, truth: np.ndarray, cuts: np.ndarray = CUT_GRID,
               weights: np.ndarray | None = None, cost: float = FALSE_MERGE_COST) -> np.ndarray:
    """cost * false merges + missed duplicates at each cut, each pair counted `weights` times (bootstrap)."""
    s = np.asarray(scores, dtype=np.float64)
    t = np.asarray(truth, dtype=bool)
    w = np.ones(len(s)) if weights is None else np.asarray(weights, dtype=np.float64)
    neg, pos = np.argsort(s[~t]), np.argsort(s[t])
    sn, wn = s[~t][neg], np.concatenate([[0.0], np.cumsum(w[~t][neg])])
    sp, wp = s[t][pos], np.concatenate([[0.0], np.cumsum(w[t][pos])])
    merged = wn[-1] - wn[np.searchsorted(sn, cuts, side="left")]  # negatives scoring >= cut
    missed = wp[np.searchsorted(sp, cuts, side="left")]  # positives scoring < cut
    return cost * merged + missed


def _last_min(loss: np.ndarray) -> int:
    """The index of the lowest value, the last one on a tie (the stricter cut, as best_threshold)."""
    return len(loss) - 1 - int(np.argmin(loss[::-1]))


def choose_cut(scores: np.ndarray, truth: np.ndarray, rule: str = "min", groups: np.ndarray | None = None,
               cost: float = FALSE_MERGE_COST) -> float:
    """The cut `rule` (CUT_RULES) reads off out-of-fold scores; "min" is `best_threshold`. `groups`: the CV
    groups "bagged" resamples (default: each pair its own)."""
    name, arg = parse_cut_rule(rule)
    s = np.asarray(scores, dtype=np.float64)
    t = np.asarray(truth, dtype=bool)
    if name == "min" or not len(s):
        return best_threshold(s, t, cost)
    if name == "bagged":
        gid = np.unique(np.arange(len(s)) if groups is None else np.asarray(groups), return_inverse=True)[1]
        rng = np.random.default_rng(0)
        n = gid.max() + 1
        picks = [_last_min(cost_curve(s, t, CUT_GRID, np.bincount(rng.integers(0, n, n), minlength=n)[gid], cost))
                 for _ in range(int(arg))]
        return float(np.median(CUT_GRID[picks]))
    loss = cost_curve(s, t, CUT_GRID, cost=cost)
    if name == "smooth":
        near = np.abs(CUT_GRID[:, None] - CUT_GRID[None, :]) <= arg + 1e-9
        return float(CUT_GRID[_last_min((near * loss[None, :]).sum(1) / near.sum(1))])
    best = _last_min(loss)
    ok = loss <= loss[best] * (1 + arg) + 1e-9
    lo = best - int(np.argmin(ok[best::-1])) + 1 if not ok[:best + 1].all() else 0
    hi = best + int(np.argmin(ok[best:])) - 1 if not ok[best:].all() else len(ok) - 1
    return float((CUT_GRID[lo] + CUT_GRID[hi]) / 2)


@dataclass
class TrainingSet:
    """Labeled training pairs (all FEATURES columns) with their CV groups, plus generated pairs."""

    X: np.ndarray
    labels: list[str]
    groups: np.ndarray
    X_gen: np.ndarray
    gen_labels: list[str]
    gen_weight: float = 0.25
    langs: np.ndarray | None = None  # each labeled pair's language (decide.pair_language), for thresholds

    def stacked(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(X, y, weight) of the chosen labeled rows (all by default) plus every generated pair (when their
        weight is above 0)."""
        rows = np.arange(len(self.labels)) if rows is None else rows
        y = is_dup([self.labels[i] for i in rows]).astype(int)
        if not len(self.X_gen) or self.gen_weight <= 0:
            return self.X[rows], y, np.ones(len(rows))
        X = np.vstack([self.X[rows], self.X_gen])
        y = np.concatenate([y, is_dup(self.gen_labels).astype(int)])
        w = np.concatenate([np.ones(len(rows)), np.full(len(self.gen_labels), self.gen_weight)])
        return X, y, w


def group_folds(groups: np.ndarray, k: int, seed: int | None = None) -> np.ndarray:
    """Assign whole groups to k folds, largest first, always to the currently smallest fold (deterministic);
    with `seed`, the groups in a seeded random order instead (another split for repeated CV)."""
    ids, sizes = np.unique(groups, return_counts=True)
    load = np.zeros(k)
    fold = {}
    order = sorted(zip(ids.tolist(), sizes.tolist(), strict=True), key=lambda x: (-x[1], x[0]))
    if seed is not None:
        order = [order[i] for i in np.random.default_rng(seed).permutation(len(order))]
    for g, n in order:
        f = int(np.argmin(load))
        fold[g] = f
        load[f] += n
    return np.array([fold[g] for g in groups.tolist()], dtype=int)


def oof_scores(ts: TrainingSet, learner: tuple[str, Any] | float, vetoes: Sequence[tuple[str, float]],
               k: int = 5, seed: int | None = None, exclude: Sequence[str] = (), unvetoed: bool = False) -> np.ndarray:
    """Out-of-fold final scores (vetoes applied) of the labeled pairs: folds by group (`group_folds`, `seed`),
    generated pairs in every training part; `exclude`, `unvetoed` as `fit_learner`."""
    if not isinstance(learner, tuple):
        learner = ("logistic", float(learner))
    folds = group_folds(ts.groups, k, seed)
    out = np.zeros(len(ts.labels))
    for f in range(k):
        test = folds == f
        if not test.any():
            continue
        X, y, w = ts.stacked(np.flatnonzero(~test))
        out[test] = fit_learner(learner, X, y, vetoes, w, exclude=exclude, unvetoed=unvetoed).final_scores(ts.X[test])
    return out


def cv_cost(scores: np.ndarray, truth: np.ndarray, cost: float = FALSE_MERGE_COST, rule: str = "min",
            groups: np.ndarray | None = None) -> tuple[float, float]:
    """(expected cost per pair at the cut, that cut) of out-of-fold scores, the cut read by `rule` (`choose_cut`)."""
    t = choose_cut(scores, truth, rule, groups, cost)
    pred = scores >= t
    loss = cost * float((pred & ~truth).sum()) + float((~pred & truth).sum())
    return loss / max(len(truth), 1), t


@dataclass
class Recipe:
    """What grouped CV chose, and the figures behind each choice."""

    learner: tuple[str, Any]
    gen_weight: float
    vetoes: tuple[tuple[str, float], ...]
    threshold: float
    oof: np.ndarray
    log: list[str]
    thresholds: dict[str, float] | None = None  # per language, when chosen (choose(per_language=True))
    exclude: tuple[str, ...] = ()  # features the model does not use (besides REPORT_ONLY and the vetoes)
    unvetoed: bool = False  # fitted on the pairs no veto rule rejects only (fit_learner)
    cut_rule: str = "min"  # how the threshold is read off the grouped-CV cost (choose_cut) ...
    cut_splits: int = 1  # ... pooled over this many group-to-fold splits (pooled_cut)

    def cuts(self, langs: Sequence[str]) -> np.ndarray:
        """The threshold of each pair by its language (the global one for a language without its own)."""
        per = self.thresholds or {}
        return np.array([per.get(lang, self.threshold) for lang in langs], dtype=np.float64)


def learners(trees: bool = True, logistic: bool = True) -> list[tuple[str, Any]]:
    """The candidates grouped CV picks from: logistic regression over C_GRID, then TREE_PARAMS."""
    return ([("logistic", C) for C in C_GRID] if logistic else []) + ([("trees", p) for p in TREE_PARAMS] if trees else [])


def language_thresholds(scores: np.ndarray, truth: np.ndarray, langs: Sequence[str],
                        cost: float = FALSE_MERGE_COST, rule: str = "min",
                        groups: np.ndarray | None = None) -> dict[str, float]:
    """The CV-best cut (read by `rule`, `choose_cut`) within each language holding at least
    MIN_LANGUAGE_DUPLICATES duplicates."""
    lang = np.asarray(langs)
    return {str(x): choose_cut(scores[lang == x], truth[lang == x], rule,
                               None if groups is None else np.asarray(groups)[lang == x], cost)
            for x in np.unique(lang) if int(truth[lang == x].sum()) >= MIN_LANGUAGE_DUPLICATES}


def choose(ts: TrainingSet, k: int = 5, trees: bool = True, per_language: bool = False, logistic: bool = True,
           exclude: Sequence[str] = (), unvetoed: bool = False,
           veto_candidates: Sequence[tuple[str, float]] = VETO_CANDIDATES,
           candidates: Sequence[tuple[str, Any]] | None = None, gen_weights: Sequence[float] | None = None,
           cut_rule: str = "min", cut_splits: int = 1) -> Recipe:
    """The learner (logistic C or trees; `logistic=False`: trees only) and generated-pair weight by grouped CV
    (lowest cost at its best cut; ties: less generated weight, then the earlier candidate), then each candidate
    veto dropped if dropping it (its feature then weighed by the model) lowers the CV cost, then the threshold
    at the CV-best cut (and, with `per_language`, each language's own CV-best cut, `language_thresholds`).
    `exclude`, `unvetoed`: as `fit_learner`, for every model fitted; `candidates` / `gen_weights`: the learners and
    generated-pair weights to pick from (default: `learners(trees, logistic)`, GENERATED_WEIGHTS). `cut_rule`,
    `cut_splits`: every cost compared (learner, weight, vetoes) and the threshold read by that rule off the cost
    pooled over that many group-to-fold splits (`split_cost`; default: one split's minimum)."""
    truth = is_dup(ts.labels)
    log = []
    all_v = tuple(veto_candidates)
    exclude = tuple(exclude)
    cands = list(candidates) if candidates else learners(trees, logistic)
    if exclude:
        log.append("features left out of the model: " + ", ".join(exclude))
    if unvetoed:
        log.append("fitted on the pairs no veto rule rejects (unvetoed)")
    weights = tuple(gen_weights) if gen_weights else GENERATED_WEIGHTS
    grid = [(i, g) for g in (weights if len(ts.gen_labels) else (0.0,)) for i in range(len(cands))]
    costs = {}
    for i, g in grid:
        ts.gen_weight = g
        costs[i, g] = split_cost(ts, cands[i], all_v, k, exclude, unvetoed, cut_rule, cut_splits)
    best, ts.gen_weight = min(grid, key=lambda ig: (round(costs[ig], 6), ig[1], ig[0]))
    learner = cands[best]
    log.append("learner and generated-pair weight by grouped CV cost: "
               + "; ".join(f"{learner_name(cands[i])}/{g:g}: {v:.4f}" for (i, g), v in costs.items())
               + f" -> {learner_name(learner)}, weight {ts.gen_weight:g}")
    vetoes = list(all_v)
    base = costs[best, ts.gen_weight]
    for v in all_v:
        without = [x for x in vetoes if x != v]
        c_without = split_cost(ts, learner, without, k, exclude, unvetoed, cut_rule, cut_splits)
        keep = base <= c_without + 1e-9
        log.append(f"veto {v[0]}>={v[1]:g}: CV cost {base:.4f} with, {c_without:.4f} without -> "
                   + ("kept" if keep else "dropped"))
        if not keep:
            vetoes, base = without, c_without
    oof = oof_scores(ts, learner, vetoes, k, None, exclude, unvetoed)
    per = language_thresholds(oof, truth, ts.langs) if per_language and ts.langs is not None else None
    recipe = Recipe(learner, ts.gen_weight, tuple(vetoes), 0.5, oof, log, per, exclude, unvetoed, cut_rule, cut_splits)
    recipe.threshold = recipe_cut(ts, recipe, k)
    log.append(f"threshold at the grouped-CV cost optimum (false merge = {FALSE_MERGE_COST:g} misses){_cut_note(recipe)}: "
               f"{recipe.threshold:.3f}")
    if per:
        log.append("per-language thresholds at each language's grouped-CV cost optimum: "
                   + ", ".join(f"{x} {t:.3f}" for x, t in per.items()))
    return recipe


def split_cost(ts: TrainingSet, learner: tuple[str, Any], vetoes: Sequence[tuple[str, float]], k: int,
               exclude: Sequence[str] = (), unvetoed: bool = False, rule: str = "min", splits: int = 1) -> float:
    """The grouped-CV cost per pair of a learner and vetoes at the cut `rule` reads off the out-of-fold scores of
    `splits` group-to-fold splits pooled (the default split, then seeds 1, 2, ...): with one split and "min",
    `cv_cost` of one split's scores at its minimum."""
    truth = is_dup(ts.labels)
    oofs = [oof_scores(ts, learner, vetoes, k, seed, exclude, unvetoed) for seed in [None, *range(1, splits)]]
    return cv_cost(np.concatenate(oofs), np.tile(truth, len(oofs)), rule=rule,
                   groups=np.tile(ts.groups, len(oofs)))[0]


def repeated_cv(ts: TrainingSet, recipe: Recipe, k: int, seeds: Sequence[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The recipe's learner and vetoes under other random group-to-fold splits: per seed, the out-of-fold
    scores and each pair's cut re-chosen on them as the recipe chooses (global, or per language when the
    recipe has per-language thresholds; a recipe whose cut is pooled over several splits keeps its own: the
    same procedure on the same pairs). Figures on ~100 pairs move by one pair per 0.01-0.02; their spread
    over splits tells a real change from a lucky split."""
    truth = is_dup(ts.labels)
    out = []
    for seed in seeds:
        oof = oof_scores(ts, recipe.learner, recipe.vetoes, k, seed, recipe.exclude, recipe.unvetoed)
        per = language_thresholds(oof, truth, ts.langs) if recipe.thresholds and ts.langs is not None else None
        cut = recipe.threshold if recipe.cut_splits > 1 else cv_cost(oof, truth, rule=recipe.cut_rule, groups=ts.groups)[1]
        again = dataclasses.replace(recipe, threshold=cut, thresholds=per)
        out.append((oof, again.cuts(ts.langs if ts.langs is not None else [""] * len(oof))))
    return out


def pooled_cut(ts: TrainingSet, recipe: Recipe, k: int, splits: int | None = None, rule: str | None = None) -> float:
    """The cut `rule` (`choose_cut`) reads off the grouped-CV cost pooled over `splits` group-to-fold splits (the
    recipe's own out-of-fold scores, then seeds 1, 2, ...): one split's curve is flat over 0.6-0.9 and its minimum
    jumps with the split, the pooled curve's broad shape does not. `splits`, `rule`: the recipe's own by default."""
    splits = recipe.cut_splits if splits is None else splits
    rule = recipe.cut_rule if rule is None else rule
    truth = is_dup(ts.labels)
    oofs = [recipe.oof] + [oof_scores(ts, recipe.learner, recipe.vetoes, k, seed, recipe.exclude, recipe.unvetoed)
                           for seed in range(1, splits)]
    return choose_cut(np.concatenate(oofs), np.tile(truth, len(oofs)), rule, np.tile(ts.groups, len(oofs)))


def train(ts: TrainingSet, recipe: Recipe, meta: Mapping[str, Any] | None = None,
          rows: np.ndarray | None = None) -> Model:
    """The final model of `recipe` on the labeled rows chosen (all by default) plus generated pairs."""
    ts.gen_weight = recipe.gen_weight
    X, y, w = ts.stacked(rows)
    model = fit_learner(recipe.learner, X, y, recipe.vetoes, w, recipe.threshold, meta, recipe.exclude, recipe.unvetoed)
    return dataclasses.replace(model, thresholds=recipe.thresholds) if recipe.thresholds else model


def model_recipe(ts: TrainingSet, model: Model, k: int = 5, per_language: bool = False) -> Recipe:
    """The recipe a trained model came from (its meta's learner and generated weight, its veto rules, its
    features: every other one excluded) under grouped CV on `ts`, the threshold re-chosen there as the meta's
    `cut_rule` / `cut_splits` say (default: one split's minimum): the shipped model's CV figures on today's
    features, comparable with a candidate recipe's (`choose`)."""
    meta = model.meta or {}
    vetoes = tuple(model.vetoes)
    exclude = tuple(f for f in model_features(vetoes) if f not in model.features)
    learner = parse_learner(str(meta["learner"]))
    unvetoed = bool(meta.get("unvetoed", False))
    ts.gen_weight = float(meta.get("generated_weight", ts.gen_weight))
    truth = is_dup(ts.labels)
    rule, splits = str(meta.get("cut_rule", "min")), int(meta.get("cut_splits", 1))
    oof = oof_scores(ts, learner, vetoes, k, None, exclude, unvetoed)
    per = language_thresholds(oof, truth, ts.langs) if per_language and ts.langs is not None else None
    recipe = Recipe(learner, ts.gen_weight, vetoes, 0.5, oof, [], per, exclude, unvetoed, rule, splits)
    recipe.threshold = recipe_cut(ts, recipe, k)
    recipe.log.append(f"recipe of the given model: {learner_name(learner)}, weight {ts.gen_weight:g}, vetoes "
                      + ", ".join(f"{f}>={v:g}" for f, v in vetoes) + "; features " + ", ".join(model.features)
                      + f"; CV threshold {recipe.threshold:.3f}" + _cut_note(recipe)
                      + f" (the model's own: {model.threshold:.3f})")
    return recipe


def recipe_cut(ts: TrainingSet, recipe: Recipe, k: int) -> float:
    """The threshold the recipe's own procedure reads off its out-of-fold scores (`recipe.oof`): one split's cost
    by `cut_rule`, or the cost pooled over `cut_splits` splits (`pooled_cut`)."""
    if recipe.cut_splits > 1:
        return pooled_cut(ts, recipe, k)
    return cv_cost(recipe.oof, is_dup(ts.labels), rule=recipe.cut_rule, groups=ts.groups)[1]


def _cut_note(recipe: Recipe) -> str:
    """` (plateau:0.1 over 8 fold splits)`, or nothing for one split's minimum."""
    if recipe.cut_rule == "min" and recipe.cut_splits <= 1:
        return ""
    return f" ({recipe.cut_rule} over {recipe.cut_splits} fold split{'s' if recipe.cut_splits > 1 else ''})"
