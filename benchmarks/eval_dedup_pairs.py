"""Score the labeled dev pairs off the groups of a whole-file `jobdedup dedup` run (embedded mode).

`jobdedup eval` scores the Verifier pair by pair; this harness checks what the grouping makes of it:
a labeled pair counts as "predicted duplicate" when both postings end up in one group, so it measures
candidate generation (a pair never proposed is never grouped) and transitive merges together.

    python benchmarks/eval_dedup_pairs.py                       # en, zh, ja; default and --fast
    python benchmarks/eval_dedup_pairs.py --lang en --mode default --data-dir ../shared/data
    python benchmarks/eval_dedup_pairs.py --labels 'benchmarks/labels/{lang}-pairs.jsonl' --split train
    python benchmarks/eval_dedup_pairs.py --cv 5                # group-level grouped CV, training side only

Prints one line per language and mode: P, R, F1 (duplicate = FULL/SEMANTIC/TEMPORAL), PARTIAL merged
k/n, groups, candidate/compared pairs and the run time (best of --repeat runs).

`--cv K` is the honest estimate of what a held-out run measures: the training-side pairs of
benchmarks/labels/{lang}-pairs.jsonl and {lang}-dev-pairs.jsonl (split `train` only; nothing of the locked
split is read) in K employer-grouped folds (service.train.group_folds); per fold the shipped model's recipe
(service.train.model_recipe: learner, features, vetoes, generated-pair weight, how its cut is read) is trained on
the other folds (threshold by grouped CV inside them, read as the recipe reads it), each language file is
deduplicated with that model in the default mode, and the fold's pairs are read off the groups (`--cut-rule`,
`--cut-splits`, `--per-language`: how each fold model's cut is chosen otherwise; the cuts are printed). Per language and label file: F1 / P / R and PARTIAL
merged off the out-of-fold groups, the same fold models pair by pair, and every out-of-fold false merge by
how it came about: `direct` (the pair itself accepted), `chain-rejected` (the verifier scored it below the
threshold; joined through other postings) or `chain-unscored` (never scored; joined through others).
"""

from __future__ import annotations

import argparse
import dataclasses
import io as _io
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from service.embedded import dedup_file

FILES = {"en": "en-hn-hiring.jsonl", "zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl"}
DUP = {"FULL", "SEMANTIC", "TEMPORAL"}


def run(data: Path, labels_path: Path, verify: bool, workers: int | None, repeat: int, split: str | None = None) -> dict:
    """Dedup `data`, then score the labeled pairs of `labels` off the groups."""
    best = None
    for _ in range(repeat):
        out = _io.BytesIO()
        t0 = time.perf_counter()
        summary = dedup_file(str(data), out, workers=workers, quiet=True, verify=verify)
        seconds = time.perf_counter() - t0
        if best is None or seconds < best[0]:
            best = (seconds, out.getvalue(), summary)
    seconds, raw, summary = best
    group = {}
    for line in raw.splitlines():
        rec = orjson.loads(line)
        group[rec["id"]] = rec["group"]
    merged, labels, missed, wrong = [], [], [], []
    for line in labels_path.read_bytes().splitlines():
        if not line.strip():
            continue
        p = orjson.loads(line)
        if split is not None and p.get("split") != split:
            continue
        same = group[p["a"]] == group[p["b"]]
        label = p["label"].upper()
        merged.append(same)
        labels.append(label)
        if label in DUP and not same:
            missed.append((p["a"], p["b"], label))
        elif label not in DUP and same:
            wrong.append((p["a"], p["b"], label))
    return {**_figures(np.array(merged, bool), labels), "groups": summary.groups,
            "postings": summary.postings, "candidate_pairs": summary.candidate_pairs,
            "compared_pairs": summary.compared_pairs, "seconds": round(seconds, 2),
            "missed": missed, "wrong": wrong}


@contextmanager
def verifier_model(model: Any) -> Iterator[None]:
    """Every Verifier built inside (this process and the workers forked by the runs inside) uses `model`
    instead of the shipped one."""
    from service import verify_stage
    from signatures import decide

    saved = decide.load_model
    decide.load_model = lambda *a, **k: model
    verify_stage._CACHE.clear()
    try:
        yield
    finally:
        decide.load_model = saved
        verify_stage._CACHE.clear()


def train_side(paths: Sequence[Path], out_dir: Path) -> list[str]:
    """Copies of the label files holding only their `split: train` rows (the locked split is never read
    further than its split field); returns their paths, same file names."""
    out = []
    for path in paths:
        keep = [line for line in path.read_bytes().splitlines()
                if line.strip() and orjson.loads(line).get("split") == "train"]
        dest = out_dir / path.name
        dest.write_bytes(b"\n".join(keep) + b"\n")
        out.append(str(dest))
    return out


def parse_cuts(text: str, model: Any = None) -> dict[str, float]:
    """`0.7166,zh=0.6` as {"": 0.7166, "zh": 0.6} (the empty key: every other language); each cut in (0, 1).
    `model` stands for `model`'s own cuts (its threshold and per-language thresholds)."""
    out: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        if item == "model" and model is not None:
            out.update({"": float(model.threshold), **{x: float(v) for x, v in (model.thresholds or {}).items()}})
            continue
        lang, sep, value = item.rpartition("=")
        try:
            cut = float(value)
        except ValueError:
            raise ValueError(f"--cut: {item!r} is not CUT or LANG=CUT") from None
        if not 0 < cut < 1 or (sep and lang not in FILES):
            raise ValueError(f"--cut: {item!r}: a cut in (0, 1), a language among {', '.join(FILES)}")
        out[lang] = cut
    return out


def fold_model(ts: Any, recipe: Any, rows: np.ndarray, k: int, rule: str | None = None,
               per_language: bool | None = None, fixed: Mapping[str, float] | None = None,
               splits: int | None = None) -> Any:
    """The recipe's model trained on the labeled `rows` (plus the generated pairs), its threshold chosen by
    grouped k-fold CV inside those rows, read off the cost curve by `rule` (service.train.choose_cut) pooled over
    `splits` group-to-fold splits (service.train.pooled_cut; both default to the recipe's own); per language
    when `per_language` (default: when the recipe has per-language thresholds; one split). `fixed` (parse_cuts)
    overrides the chosen cuts: a shipped model's cut measured out of fold. Nothing of the other rows is seen."""
    from service import train as recipe_mod

    rule = recipe.cut_rule if rule is None else rule
    splits = recipe.cut_splits if splits is None else splits
    sub = recipe_mod.TrainingSet(ts.X[rows], [ts.labels[i] for i in rows], ts.groups[rows], ts.X_gen,
                                 ts.gen_labels, recipe.gen_weight,
                                 None if ts.langs is None else ts.langs[rows])
    oof = recipe_mod.oof_scores(sub, recipe.learner, recipe.vetoes, k, None, recipe.exclude, recipe.unvetoed)
    truth = recipe_mod.is_dup(sub.labels)
    if per_language is None:
        per_language = bool(recipe.thresholds)
    per = recipe_mod.language_thresholds(oof, truth, sub.langs, rule=rule, groups=sub.groups) \
        if per_language and sub.langs is not None else None
    threshold = recipe_mod.recipe_cut(sub, dataclasses.replace(recipe, oof=oof, cut_rule=rule, cut_splits=splits), k)
    if fixed:
        threshold = fixed.get("", threshold)
        per = {**(per or {}), **{x: v for x, v in fixed.items() if x}}
    chosen = dataclasses.replace(recipe, threshold=threshold, thresholds=per or None)
    return recipe_mod.train(sub, chosen, meta={"learner": recipe_mod.learner_name(recipe.learner)})


def _pair_codes(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    return np.minimum(a, b).astype(np.int64) * max(n, 1) + np.maximum(a, b)


def traced_groups(data: Path, workers: int | None) -> tuple[dict[str, int], np.ndarray, dict[str, np.ndarray]]:
    """A default-mode dedup of `data`: row per id, group label per row, and the engine's trace."""
    out = _io.BytesIO()
    trace: dict[str, Any] = {}
    dedup_file(str(data), out, workers=workers, quiet=True, verify=True, trace=trace)
    ids, groups = [], []
    for line in out.getvalue().splitlines():
        rec = orjson.loads(line)
        ids.append(rec["id"])
        groups.append(rec["group"])
    row = {pid: i for i, pid in enumerate(ids)}
    label = np.array([row[g] for g in groups], np.int64)
    return row, label, trace


HOW = ("direct", "chain-rejected", "chain-unscored")


def how_joined(pairs: Sequence[tuple[int, int]], n: int, trace: Mapping[str, Any]) -> list[tuple[str, float | None]]:
    """Per row pair: `direct` (an accepted pair), `chain-rejected` (scored by the verifier, not accepted) or
    `chain-unscored` (never scored), and the verifier's score (None if not scored)."""
    acc = set(_pair_codes(*trace["accepted"], n).tolist())
    vi, vj, _, vs = trace.get("verified", (np.zeros(0, np.int64),) * 2 + (np.zeros(0, bool), np.zeros(0)))
    scored = dict(zip(_pair_codes(vi, vj, n).tolist(), np.asarray(vs, float).tolist(), strict=True))
    out = []
    for a, b in pairs:
        c = int(_pair_codes(np.int64(a), np.int64(b), n))
        out.append(("direct" if c in acc else "chain-rejected" if c in scored else "chain-unscored", scored.get(c)))
    return out


def grouped_cv(root: Path, langs: Sequence[str], k: int, workers: int | None, seed: int | None = None,
               rule: str | None = None, per_language: bool = False, fixed: Mapping[str, float] | None = None,
               splits: int | None = None) -> list[dict[str, Any]]:
    """Group-level grouped CV (see the module docstring): one result per language and label file, each with
    the fold models' cuts (`rule`, `per_language`, `fixed`, `splits`: as `fold_model`)."""
    from service import train as recipe_mod
    from service.eval import load_label_sets, read_postings, train_rows_of, training_set
    from signatures.decide import load_model

    label_dir = Path(__file__).parent / "labels"
    names = [f"{lang}-{kind}.jsonl" for lang in ("en", "zh", "ja") for kind in ("pairs", "dev-pairs")]
    with tempfile.TemporaryDirectory(prefix="eval-cv-") as tmp:
        paths = train_side([label_dir / x for x in names], Path(tmp))
        postings = read_postings([str(root / FILES[lang]) for lang in ("en", "zh", "ja")])
        sets = load_label_sets(postings, paths)
    ts = training_set(sets)
    recipe = recipe_mod.model_recipe(ts, load_model(), k)
    folds = recipe_mod.group_folds(ts.groups, k, seed)
    rows_of = train_rows_of(sets)
    same = np.zeros(len(ts.labels), bool)
    pairwise = np.zeros(len(ts.labels), bool)
    how = [""] * len(ts.labels)
    detail: list[tuple[str, str, str, str, str, float | None, float]] = []
    cuts: list[dict[str, float]] = []
    for f in range(k):
        model = fold_model(ts, recipe, np.flatnonzero(folds != f), k, rule, per_language, fixed, splits)
        cuts.append({"all": round(model.threshold, 3), **{x: round(v, 3) for x, v in (model.thresholds or {}).items()}})
        test = np.flatnonzero(folds == f)
        pairwise[test] = model.final_scores(ts.X[test]) >= model.thresholds_for(
            list(ts.langs[test]) if ts.langs is not None else [""] * len(test))
        for lang in langs:
            mine = [(s, rows) for s, rows in zip(sets, rows_of, strict=True) if s.name.startswith(lang + "-")]
            if not any(np.isin(rows, test).any() for _, rows in mine):
                continue
            with verifier_model(model):
                row, label, trace = traced_groups(root / FILES[lang], workers)
            for s, rows in mine:
                for p, r in zip(s.pairs, rows.tolist(), strict=True):
                    if folds[r] != f:
                        continue
                    a, b = row[p.a], row[p.b]
                    same[r] = label[a] == label[b]
                    if same[r]:
                        how[r], sc = how_joined([(a, b)], len(label), trace)[0]
                        if how[r] != "direct":
                            detail.append((lang, how[r], p.label, p.a, p.b, sc,
                                           float(model.thresholds_for([str(ts.langs[r])])[0])
                                           if ts.langs is not None else model.threshold))
    results = []
    for lang in langs:
        for s, rows in zip(sets, rows_of, strict=True):
            if not s.name.startswith(lang + "-") or not len(rows):
                continue
            labels = [ts.labels[i] for i in rows]
            dup = recipe_mod.is_dup(labels)
            wrong = [how[i] for i, d in zip(rows.tolist(), dup, strict=True) if same[i] and not d]
            right = [how[i] for i, d in zip(rows.tolist(), dup, strict=True) if same[i] and d]
            results.append({"lang": lang, "labels": s.name, "pairs": len(rows),
                            "groups": _figures(same[rows], labels), "pairwise": _figures(pairwise[rows], labels),
                            "false_merges": {x: wrong.count(x) for x in HOW},
                            "true_merges": {x: right.count(x) for x in HOW},
                            "false_merged_labels": {x: sum(1 for i, d in zip(rows.tolist(), dup, strict=True)
                                                           if same[i] and not d and ts.labels[i] == x)
                                                    for x in ("PARTIAL", "NON")},
                            "fold_cuts": cuts})
    for d in detail:
        print("    {} {:14s} {:9s} {} {} pair score {} (threshold {:.3f})".format(
            *d[:5], "-" if d[5] is None else f"{d[5]:.3f}", d[6]), file=sys.stderr)
    return results


def _figures(pred: np.ndarray, labels: Sequence[str]) -> dict[str, Any]:
    """P, R, F1 (duplicate = FULL/SEMANTIC/TEMPORAL) and PARTIAL merged k/n of predictions."""
    lab = np.asarray(labels)
    truth = np.isin(lab, list(DUP))
    tp, fp, fn = int((pred & truth).sum()), int((pred & ~truth).sum()), int((~pred & truth).sum())
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    partial = lab == "PARTIAL"
    return {"P": round(prec, 3), "R": round(rec, 3), "F1": round(f1, 3), "tp": tp, "fp": fp, "fn": fn,
            "partial_merged": f"{int((pred & partial).sum())}/{int(partial.sum())}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default="../shared/data", help="folder with the postings and labels/")
    ap.add_argument("--lang", action="append", choices=sorted(FILES), help="language(s) (default: all)")
    ap.add_argument("--mode", action="append", choices=("default", "fast"), help="mode(s) (default: both)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1, help="runs per setting; the fastest is reported")
    ap.add_argument("--details", action="store_true", help="also list missed and wrongly merged pairs")
    ap.add_argument("--labels", default=None,
                    help="label file pattern with {lang} (default: DATA_DIR/labels/{lang}-dev-pairs.jsonl)")
    ap.add_argument("--split", default=None, help="only pairs whose `split` is this (e.g. locked)")
    ap.add_argument("--json", action="store_true", help="one JSON line per setting")
    ap.add_argument("--cv", type=int, default=0, metavar="K",
                    help="group-level grouped K-fold CV of the shipped recipe on the training side (default mode)")
    ap.add_argument("--cv-seed", type=int, default=None, metavar="S",
                    help="with --cv: groups to folds in a seeded random order (service.train.group_folds)")
    ap.add_argument("--cut-rule", default=None, metavar="RULE",
                    help="with --cv: how each fold model's cut is read off its inner CV cost curve "
                         "(service.train.choose_cut: min, smooth:W, plateau:X, bagged:B; default: the shipped "
                         "model's recipe's, meta cut_rule, else min)")
    ap.add_argument("--cut-splits", type=int, default=None, metavar="N",
                    help="with --cv: each fold model's cut read off its inner CV cost pooled over N group-to-fold "
                         "splits (service.train.pooled_cut; default: the recipe's, meta cut_splits, else 1)")
    ap.add_argument("--per-language", action="store_true",
                    help="with --cv: each fold model also gets a cut per language with enough duplicates "
                         "(service.train.language_thresholds, read by --cut-rule)")
    ap.add_argument("--cut", default="", metavar="CUTS",
                    help="with --cv: fixed cuts instead of chosen ones, CUT (every language) and/or LANG=CUT, "
                         "e.g. '0.7166,zh=0.6', 'model' for the shipped model's own, 'model,zh=0.6' (a cut not "
                         "given is chosen as --cut-rule / --per-language say)")
    args = ap.parse_args(argv)
    root = Path(args.data_dir)
    if args.cv:
        try:
            from service.train import parse_cut_rule

            if args.cut_rule is not None:
                parse_cut_rule(args.cut_rule)
            if args.cut_splits is not None and args.cut_splits < 1:
                raise ValueError("--cut-splits: at least 1")
            from signatures.decide import load_model

            fixed = parse_cuts(args.cut, load_model())
        except ValueError as e:
            ap.error(str(e))
        results = grouped_cv(root, args.lang or ["en", "zh", "ja"], args.cv, args.workers, args.cv_seed,
                             args.cut_rule, args.per_language, fixed, args.cut_splits)
        if results and not args.json:
            print("fold cuts: " + "; ".join(", ".join(f"{x} {v:.3f}" for x, v in c.items())
                                            for c in results[0]["fold_cuts"]))
        for r in results:
            if args.json:
                print(orjson.dumps(r).decode())
                continue
            g, pw, fm = r["groups"], r["pairwise"], r["false_merges"]
            print(f"{r['lang']} {r['labels']:20s} groups   P {g['P']:.3f} R {g['R']:.3f} F1 {g['F1']:.3f} "
                  f"PARTIAL merged {g['partial_merged']:>7s}  tp/fp/fn {g['tp']}/{g['fp']}/{g['fn']}  "
                  f"false merges: " + ", ".join(f"{x} {v}" for x, v in fm.items())
                  + f" (PARTIAL {r['false_merged_labels']['PARTIAL']}, NON {r['false_merged_labels']['NON']}); true merges: "
                  + ", ".join(f"{x} {v}" for x, v in r["true_merges"].items()))
            print(f"{r['lang']} {r['labels']:20s} pairwise P {pw['P']:.3f} R {pw['R']:.3f} F1 {pw['F1']:.3f} "
                  f"PARTIAL merged {pw['partial_merged']:>7s}  tp/fp/fn {pw['tp']}/{pw['fp']}/{pw['fn']}  ({r['pairs']} pairs)")
        return 0
    for lang in args.lang or ["en", "zh", "ja"]:
        for mode in args.mode or ["default", "fast"]:
            labels = Path(args.labels.format(lang=lang)) if args.labels else root / "labels" / f"{lang}-dev-pairs.jsonl"
            r = run(root / FILES[lang], labels, mode == "default", args.workers, args.repeat, args.split)
            if args.json:
                print(orjson.dumps({"lang": lang, "mode": mode, **r}).decode())
            else:
                print(f"{lang} {mode:7s} P {r['P']:.3f} R {r['R']:.3f} F1 {r['F1']:.3f} "
                      f"PARTIAL merged {r['partial_merged']:>5s}  tp/fp/fn {r['tp']}/{r['fp']}/{r['fn']}  "
                      f"groups {r['groups']}/{r['postings']}  pairs {r['candidate_pairs']}/{r['compared_pairs']}  "
                      f"{r['seconds']:.2f} s")
                if args.details:
                    for a, b, lab in r["missed"]:
                        print(f"    missed {lab:9s} {a} {b}")
                    for a, b, lab in r["wrong"]:
                        print(f"    merged {lab:9s} {a} {b}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
