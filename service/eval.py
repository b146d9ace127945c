"""Pairwise evaluation of the duplicate decision against labeled pairs, with the classic baselines
computed on the same pairs: Solr's stock TextProfileSignature equality, MinHash Jaccard at its best
threshold, 64-bit SimHash at Hamming <= 3 and at its best distance.

Labels files may split pairs into a `train` side and a `locked` test split (by employer, field `split`;
`group` names the employer cluster for grouped CV). The locked split is for reporting only: the shipped
model and every choice (C, threshold, vetoes, baseline thresholds) come from the training side.
Also labeled repost pairs generated from service.synth (training and held-out generated checks).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service import io
from service import train as recipe_mod
from service.errors import UserError
from service.train import DUP_LABELS, TrainingSet, group_folds  # noqa: F401  (re-exported)
from signatures.boilerplate import BoilerplateModel
from signatures.decide import Model, load_model, pair_language
from signatures.extract import extract
from signatures.features import FEATURES, Prepared, feature_matrix, prepare
from signatures.simhash import hamming, simhash_many

LABELS = ("FULL", "SEMANTIC", "TEMPORAL", "PARTIAL", "NON")
#: train: training and grouped CV; locked: reported only; excluded: neither (postings on both sides).
SPLITS = ("train", "locked", "excluded")

GENERATED_PER_LANG = 300  # postings generated per language for training pairs
LEARNING_CURVE = (0.25, 0.5, 1.0)  # shares of the training groups for the learning curve
GENERATED_EVAL_SEED = 11  # held-out generated pairs for reporting (training uses seed 7)


@dataclass(frozen=True)
class LabeledPair:
    a: str
    b: str
    label: str
    split: str = "train"  # one of SPLITS
    group: str = ""  # employer cluster: pairs of one group stay in one CV fold

    @property
    def duplicate(self) -> bool:
        return self.label in DUP_LABELS


@dataclass
class MethodResult:
    """Pairwise quality of one method on one set of labeled pairs."""

    method: str
    setting: str
    precision: float
    recall: float
    f1: float
    partial_merged: float
    per_label: dict[str, float]
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method, "setting": self.setting, "precision": round(self.precision, 4),
            "recall": round(self.recall, 4), "f1": round(self.f1, 4),
            "partial_merged": round(self.partial_merged, 4),
            "per_label": {k: round(v, 4) for k, v in self.per_label.items()}, "note": self.note,
        }


@dataclass
class LabelSetReport:
    """All methods on one labels file."""

    name: str
    counts: dict[str, int]
    results: list[MethodResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- reading

def read_postings(paths: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Postings by id from JSON Lines (or CSV/TSV with a header row) files, read by service.io."""
    return {p["id"]: p for path in paths for _, p in io.read_postings(path)}


def read_pairs(path: str, postings: Mapping[str, Any]) -> list[LabeledPair]:
    """Labeled pairs `{"a", "b", "label"}` from JSON Lines; every id must be among `postings`."""
    if not os.path.isfile(path):
        raise UserError(f"{path}: no such file")
    pairs = []
    with open(path, "rb") as fh:
        rows = list(io.iter_json_lines(fh, path))
    for lineno, obj in rows:
        if not isinstance(obj, dict) or not {"a", "b", "label"} <= obj.keys():
            raise UserError(f"{path} line {lineno}: a labeled pair needs 'a', 'b' and 'label'")
        label = str(obj["label"]).upper()
        if label not in LABELS:
            raise UserError(f"{path} line {lineno}: label {obj['label']!r} is not one of {', '.join(LABELS)}")
        split = str(obj.get("split") or "train").lower()
        if split not in SPLITS:
            raise UserError(f"{path} line {lineno}: split {obj['split']!r} is not one of {', '.join(SPLITS)}")
        a, b = str(obj["a"]), str(obj["b"])
        for pid in (a, b):
            if pid not in postings:
                raise UserError(f"{path} line {lineno}: posting {pid!r} is not in the --data files")
        pairs.append(LabeledPair(a, b, label, split, str(obj.get("group") or "")))
    if not pairs:
        raise UserError(f"{path}: no labeled pairs")
    return pairs


# ----------------------------------------------------------------------------- scoring

def score(method: str, setting: str, predicted: np.ndarray, labels: Sequence[str], note: str = "") -> MethodResult:
    """Pairwise precision / recall / F1 (duplicate = FULL, SEMANTIC, TEMPORAL) and per-label merge rates."""
    pred = np.asarray(predicted, dtype=bool)
    lab = np.asarray(labels)
    truth = np.isin(lab, list(DUP_LABELS))
    tp = int((pred & truth).sum())
    fp = int((pred & ~truth).sum())
    fn = int((~pred & truth).sum())
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    per = {lb: float(pred[lab == lb].mean()) for lb in LABELS if (lab == lb).any()}
    return MethodResult(method, setting, p, r, f1, per.get("PARTIAL", 0.0), per, note)


def best_cut(values: np.ndarray, labels: Sequence[str], higher_is_dup: bool = True) -> tuple[float, np.ndarray]:
    """The cut on `values` that maximizes pairwise F1 (ties: the stricter cut) and its predictions."""
    v = np.asarray(values, dtype=np.float64)
    best_f1, best_t = -1.0, float("inf")
    for t in np.unique(v):
        pred = v >= t if higher_is_dup else v <= t
        f1 = score("", "", pred, labels).f1
        if f1 > best_f1 + 1e-12:
            best_f1, best_t = f1, float(t)
    pred = v >= best_t if higher_is_dup else v <= best_t
    return best_t, pred


# ----------------------------------------------------------------------------- baselines

def _plain(posting: Mapping[str, Any]) -> str:
    ex = extract(posting)
    return "\n".join(x for x in (ex.title if "title" not in ex.fields_found else "", ex.text) if x)


def baseline_results(postings: Mapping[str, Mapping[str, Any]], pairs: Sequence[LabeledPair],
                     train_pairs: Sequence[LabeledPair] = ()) -> tuple[list[MethodResult], list[str]]:
    """Baselines on `pairs`; thresholds (MinHash Jaccard, SimHash distance) are chosen on `train_pairs` when
    given, else the best on `pairs` themselves (an upper bound, marked "best"). Returns results and notes
    about baselines that could not run."""
    labels = [p.label for p in pairs]
    train_labels = [p.label for p in train_pairs]
    everything = [*pairs, *train_pairs]
    ids = sorted({i for p in everything for i in (p.a, p.b)})
    index = {pid: n for n, pid in enumerate(ids)}
    ia = np.array([index[p.a] for p in everything])
    ib = np.array([index[p.b] for p in everything])
    n = len(pairs)
    out: list[MethodResult] = []
    skipped: list[str] = []
    try:
        from signatures.profile import PROFILE_FIELDS
        from signatures.textprofile import solr_fields_signatures

        sig = dict(zip(ids, solr_fields_signatures([postings[pid] for pid in ids], PROFILE_FIELDS),
                       strict=True))
        eq = np.array([sig[p.a] == sig[p.b] for p in pairs])
        out.append(score("TextProfileSignature (Solr stock)", "equal", eq, labels))
    except (ImportError, NotImplementedError) as exc:
        skipped.append(f"TextProfileSignature: not available ({type(exc).__name__})")
    except Exception as exc:  # another module's bug must not hide the other results; it is reported
        skipped.append(f"TextProfileSignature: failed ({type(exc).__name__}: {exc})")
    texts = [_plain(postings[pid]) for pid in ids]
    try:
        from signatures.minhash import MinHasher, jaccard_pairs

        sk = MinHasher().sketch_batch(texts)
        jac = jaccard_pairs(sk, sk, ia, ib)
        name = "MinHash Jaccard"
    except ImportError:
        prep = [prepare({"id": pid, "description": t}) for pid, t in zip(ids, texts, strict=True)]
        jac = feature_matrix([(prep[i], prep[j]) for i, j in zip(ia, ib, strict=True)])[:, 0]
        name = "exact shingle Jaccard (MinHash pending)"
    sh = simhash_many(texts)
    dist = np.asarray(hamming(sh[ia], sh[ib]), dtype=np.float64)
    how = "chosen on the training side" if train_labels else "best"
    t = _threshold_on(jac[n:], train_labels) if train_labels else best_cut(jac[:n], labels)[0]
    out.append(score(name, f">= {t:.2f} ({how})", jac[:n] >= t, labels))
    out.append(score("SimHash-64", "d <= 3", dist[:n] <= 3, labels))
    t = _threshold_on(dist[n:], train_labels, False) if train_labels else best_cut(dist[:n], labels, False)[0]
    out.append(score("SimHash-64", f"d <= {int(t)} ({how})", dist[:n] <= t, labels))
    return out, skipped


# ----------------------------------------------------------------------------- verifier, training, CV

def prepare_all(postings: Mapping[str, Mapping[str, Any]], ids: Iterable[str] | None = None,
                boilerplate: BoilerplateModel | None = None) -> dict[str, Prepared]:
    """Prepared postings (boilerplate learned from all `postings` unless given)."""
    bp = boilerplate if boilerplate is not None else BoilerplateModel.fit(postings.values())
    return {pid: prepare(postings[pid], bp) for pid in (ids if ids is not None else postings)}


def pair_groups(pairs: Sequence[LabeledPair], by: str = "component") -> np.ndarray:
    """Connected component of each pair in the graph of postings joined by pairs and by employer groups:
    folds split by component, so no posting and no employer cluster is in both the training and the test part.
    `by="employer"`: each pair's own employer group (`group`; a pair without one: its component), so that the
    employer clusters a labeled pair across two employers chains together (one component holding ~80 % of a
    language's pairs) go to different folds; a posting may then sit in both parts, an employer never."""
    if by == "employer":
        comp = pair_groups(pairs)
        keys = [p.group or f"\0component:{c}" for p, c in zip(pairs, comp.tolist(), strict=True)]
        ids = {k: n for n, k in enumerate(dict.fromkeys(keys))}
        return np.array([ids[k] for k in keys])
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        for x, y in ((p.a, p.b), (p.a, "\0group:" + p.group) if p.group else (p.a, p.a)):
            rx, ry = find(x), find(y)
            if rx != ry:
                parent[rx] = ry
    roots = [find(p.a) for p in pairs]
    ids = {r: n for n, r in enumerate(dict.fromkeys(roots))}
    return np.array([ids[r] for r in roots])


def generated_corpus(lang: str, n: int = GENERATED_PER_LANG, seed: int = 7
                     ) -> tuple[dict[str, dict[str, Any]], list[LabeledPair]]:
    """Postings from service.synth and labeled pairs over them: reposts of one job (TEMPORAL), other jobs
    of the same company (PARTIAL, the hard negatives) and other companies (NON). Empty without synth."""
    try:
        from service.synth import generate
    except ImportError:
        return {}, []
    uniq = {p["id"]: p for p in generate(n, lang=lang, seed=seed) if p.get("synthetic_job")}
    ps = list(uniq.values())
    rng = np.random.default_rng(seed)
    pairs: list[LabeledPair] = []
    by_job: dict[str, list[str]] = {}
    job_domain: dict[str, str] = {}
    for p in ps:  # a job's first posting is on the company's own careers site: its domain names the company
        by_job.setdefault(p["synthetic_job"], []).append(p["id"])
        if str(p.get("source", "")).startswith("careers."):
            job_domain.setdefault(p["synthetic_job"], p["source"])
    by_co: dict[str, list[str]] = {}
    for job, dom in job_domain.items():
        by_co.setdefault(dom, []).append(job)
    for ids in by_job.values():
        for i in range(len(ids) - 1):
            pairs.append(LabeledPair(ids[i], ids[i + 1], "TEMPORAL"))
    for jobs in by_co.values():
        for i in range(len(jobs) - 1):
            a, b = by_job[jobs[i]], by_job[jobs[i + 1]]
            pairs.append(LabeledPair(a[int(rng.integers(len(a)))], b[int(rng.integers(len(b)))], "PARTIAL"))
    for _ in range(max(10, len(pairs) // 4)):
        i, j = rng.choice(len(ps), 2, replace=False)
        if ps[i]["synthetic_job"] != ps[j]["synthetic_job"]:
            pairs.append(LabeledPair(ps[i]["id"], ps[j]["id"], "NON"))
    uniq.update(_other_employer_copies(uniq, job_domain, by_job, pairs))
    return uniq, pairs


def _other_employer_copies(posts: Mapping[str, dict[str, Any]], job_domain: Mapping[str, str],
                           by_job: Mapping[str, list[str]], pairs: list[LabeledPair]) -> dict[str, dict[str, Any]]:
    """The same template under another employer (NON): a careers-site posting of each company copied with
    the next company's name and site. Appends the pairs, returns the copies."""
    firsts = [next(posts[i] for i in by_job[j] if posts[i]["source"] == dom) for j, dom in job_domain.items()]
    firsts = list({p["source"]: p for p in firsts if p.get("company")}.values())
    out = {}
    for p, q in zip(firsts, firsts[1:] + firsts[:1], strict=True):
        if p["company"] == q["company"]:
            continue
        dom_p, dom_q = p["source"].removeprefix("careers."), q["source"].removeprefix("careers.")
        copy = {k: (v.replace(p["company"], q["company"]).replace(dom_p, dom_q) if isinstance(v, str) else v)
                for k, v in p.items()}
        copy["id"] = f"{p['id']}-as-{q['id']}"
        if prepare(p).contacts & prepare(copy).contacts:  # a contact left in the text: one poster, not two
            continue
        out[copy["id"]] = copy
        pairs.append(LabeledPair(p["id"], copy["id"], "NON"))
    return out


def generated_pairs(lang: str, n: int = GENERATED_PER_LANG, seed: int = 7) -> tuple[np.ndarray, list[str]]:
    """Features and labels of the `generated_corpus` pairs (boilerplate learned from that corpus)."""
    postings, pairs = generated_corpus(lang, n, seed)
    if not pairs:
        return np.zeros((0, len(FEATURES))), []
    prep = prepare_all(postings)
    return feature_matrix([(prep[p.a], prep[p.b]) for p in pairs]), [p.label for p in pairs]


@dataclass
class LabelSet:
    """One labels file with its features, ready for scoring and training."""

    name: str
    pairs: list[LabeledPair]
    X: np.ndarray
    langs: list[str] = field(default_factory=list)  # each pair's language (decide.pair_language)

    @property
    def labels(self) -> list[str]:
        return [p.label for p in self.pairs]


def load_label_sets(postings: Mapping[str, Mapping[str, Any]], label_paths: Sequence[str],
                    boilerplate: bool = True) -> list[LabelSet]:
    """Read each labels file and compute the pair features (boilerplate learned from all postings,
    unless `boilerplate` is False: the ablation without suppression)."""
    sets = []
    bp = BoilerplateModel.fit(postings.values()) if boilerplate else None
    prepared: dict[str, Prepared] = {}
    for path in label_paths:
        pairs = read_pairs(path, postings)
        for p in pairs:
            for pid in (p.a, p.b):
                if pid not in prepared:
                    prepared[pid] = prepare(postings[pid], bp)
        X = feature_matrix([(prepared[p.a], prepared[p.b]) for p in pairs])
        langs = [pair_language(prepared[p.a], prepared[p.b]) for p in pairs]
        sets.append(LabelSet(os.path.basename(path), pairs, X, langs))
    return sets


def training_set(sets: Sequence[LabelSet], generated: bool = True, group_by: str = "component") -> TrainingSet:
    """The training side of all label sets (pairs not in the locked split), grouped by posting graph and
    employer cluster across sets, plus generated pairs of every language unless `generated` is False."""
    rows = [(s, i) for s in sets for i, p in enumerate(s.pairs) if p.split == "train"]
    X = np.vstack([s.X[i] for s, i in rows]) if rows else np.zeros((0, len(FEATURES)))
    pairs = [s.pairs[i] for s, i in rows]
    langs = np.array([s.langs[i] if s.langs else "" for s, i in rows], dtype=object)
    X_gen, y_gen = np.zeros((0, len(FEATURES))), []
    for lang in ("en", "zh", "ja") if generated else ():
        Xg, yg = generated_pairs(lang)
        X_gen = np.vstack([X_gen, Xg])
        y_gen += yg
    groups = pair_groups(pairs, group_by) if pairs else np.zeros(0, int)
    return TrainingSet(X, [p.label for p in pairs], groups, X_gen, y_gen,
                       langs=langs)


def train_rows_of(sets: Sequence[LabelSet]) -> list[np.ndarray]:
    """Per label set, the row numbers of its training-side pairs within `training_set(sets)`."""
    out, start = [], 0
    for s in sets:
        n = sum(p.split == "train" for p in s.pairs)
        out.append(np.arange(start, start + n))
        start += n
    return out


def group_subset(groups: np.ndarray, share: float, seed: int = 0) -> np.ndarray:
    """Rows of whole groups, drawn in a seeded random order until they hold `share` of the rows (at least one
    group): a learning-curve training subset with no group split across it."""
    ids, sizes = np.unique(groups, return_counts=True)
    order = np.random.default_rng(seed).permutation(len(ids))
    take = np.cumsum(sizes[order]) <= share * len(groups) + 1e-9
    take[0] = True
    return np.flatnonzero(np.isin(groups, ids[order][take]))


def _threshold_on(values: np.ndarray, labels: Sequence[str], higher_is_dup: bool = True) -> float | None:
    """The best-F1 cut on training-side pairs (None without any)."""
    return best_cut(values, labels, higher_is_dup)[0] if len(labels) else None


def evaluate(data_paths: Sequence[str], label_paths: Sequence[str], cv: int = 0,
             baselines: bool = True, model: Model | None = None,
             generated: bool = True, generated_eval: int = 0,
             boilerplate: bool = True, curve: bool = False) -> list[LabelSetReport]:
    """Everything `jobdedup eval` prints, per labels file: the shipped verifier on the locked split (or on all
    pairs, marked as tuned-on, when a file has no locked split), grouped CV on the training side, the
    learning curve on the locked split, and the baselines on the same pairs as the verifier."""
    postings = read_postings(data_paths)
    sets = load_label_sets(postings, label_paths, boilerplate) if label_paths else []
    held_out: list[tuple[LabelSet, dict[str, dict[str, Any]]]] = []
    for lang in ("en", "zh", "ja") if generated_eval else ():
        gen_posts, gen_pairs = generated_corpus(lang, generated_eval, seed=GENERATED_EVAL_SEED)
        if gen_pairs:
            prep = prepare_all(gen_posts)
            X = feature_matrix([(prep[p.a], prep[p.b]) for p in gen_pairs])
            held_out.append((LabelSet(f"generated-{lang} (seed {GENERATED_EVAL_SEED}, {generated_eval} postings)",
                                      gen_pairs, X, [pair_language(prep[p.a], prep[p.b]) for p in gen_pairs]),
                             gen_posts))
    model = model or load_model()
    veto_note = ", vetoes " + "+".join(f for f, _ in model.vetoes) if model.vetoes else ""
    version = (model.meta or {}).get("coefficients_version", "?")
    ts = training_set(sets, generated) if (cv or curve) and sets else None
    recipe = _shipped_recipe(ts, model, cv or 5) if ts is not None and len(ts.labels) else None
    rows_of = train_rows_of(sets)
    curve_models = []
    if curve and recipe is not None and ts is not None:
        for share in LEARNING_CURVE:
            sub = group_subset(ts.groups, share)
            curve_models.append((share, len(sub), recipe_mod.train(ts, recipe, rows=sub)))
    reports = []
    for i, (s, posts) in enumerate([(s, postings) for s in sets] + held_out):
        locked = np.array([p.split == "locked" for p in s.pairs])
        train_side = np.array([p.split == "train" for p in s.pairs])
        test = locked if locked.any() else train_side
        part = "locked split" if locked.any() else ("generated, held out" if i >= len(sets) else "all pairs, tuned on")
        test_pairs = [p for p, t in zip(s.pairs, test, strict=True) if t]
        labels = [p.label for p in test_pairs]
        rep = LabelSetReport(f"{s.name}: {part}", dict(Counter(labels)))
        test_langs = [x for x, t in zip(s.langs, test, strict=True) if t]
        cut = model.thresholds_for(test_langs)
        rep.results.append(score(f"verifier (verifier-{version}.json)", f"p >= {_cut_text(model)}{veto_note}",
                                 model.final_scores(s.X[test]) >= cut, labels))
        if recipe is not None and i < len(sets) and len(rows_of[i]):
            train_labels = [p.label for p in s.pairs if p.split == "train"]
            rep.results.append(score(f"verifier, grouped {cv or 5}-fold CV on the training side ({len(train_labels)} pairs)",
                                     f"p >= {_cut_text(recipe)}" + "".join(f", veto {f}" for f, _ in recipe.vetoes),
                                     recipe.oof[rows_of[i]] >= recipe.cuts(ts.langs[rows_of[i]]), train_labels))
            rep.notes.extend(recipe.log if i == 0 else ())
        if locked.any():
            for share, n, m in curve_models:
                rep.results.append(score(f"learning curve: trained on whole groups holding <= {share:.0%} of the "
                                         f"training pairs ({n} pairs)",
                                         f"p >= {_cut_text(m)}", m.final_scores(s.X[test]) >= m.thresholds_for(test_langs), labels))
        if baselines:
            train_pairs = [p for p, t in zip(s.pairs, train_side, strict=True) if t and locked.any()]
            res, skipped = baseline_results(posts, test_pairs, train_pairs)
            rep.results.extend(res)
            rep.skipped.extend(skipped)
        reports.append(rep)
    return reports


def _shipped_recipe(ts: recipe_mod.TrainingSet, model: Model, k: int) -> recipe_mod.Recipe:
    """What grouped CV and the learning curve retrain: the scored model's own recipe (its learner, generated-pair
    weight, vetoes and features, the threshold re-chosen inside the folds), so the figures describe what ships;
    the training recipe's own choice (`train.choose`) for a model whose meta does not name its learner."""
    if (model.meta or {}).get("learner"):
        return recipe_mod.model_recipe(ts, model, k, per_language=bool(model.thresholds))
    return recipe_mod.choose(ts, k)


def _cut_text(m: Model | recipe_mod.Recipe) -> str:
    """`0.79` or `0.79 (zh 0.57)`: the global threshold and the per-language ones."""
    return f"{m.threshold:.2f}" + (" (" + ", ".join(f"{x} {t:.2f}" for x, t in m.thresholds.items()) + ")"
                                   if m.thresholds else "")


def format_reports(reports: Sequence[LabelSetReport]) -> str:
    """Plain-text tables (markdown) of the reports."""
    lines = []
    for rep in reports:
        counts = ", ".join(f"{lb} {rep.counts[lb]}" for lb in LABELS if lb in rep.counts)
        lines.append(f"### {rep.name}  ({sum(rep.counts.values())} pairs: {counts})")
        lines.append("")
        present = [lb for lb in LABELS if lb in rep.counts]
        lines.append("| method | setting | P | R | F1 | PARTIAL merged | " + " | ".join(present) + " |")
        lines.append("|---|---|---|---|---|---|" + "---|" * len(present))
        for r in rep.results:
            per = " | ".join(f"{r.per_label.get(lb, math.nan):.2f}" for lb in present)
            lines.append(f"| {r.method} | {r.setting} | {r.precision:.3f} | {r.recall:.3f} | **{r.f1:.3f}** | "
                         f"{r.partial_merged:.0%} | {per} |")
        for s in rep.skipped:
            lines.append(f"\n(skipped: {s})")
        for s in rep.notes:
            lines.append(f"\n- {s}")
        lines.append("")
    lines.append("Per-label columns: share of pairs with that label judged duplicates "
                 "(should be 1 for FULL/SEMANTIC/TEMPORAL, 0 for PARTIAL/NON).")
    return "\n".join(lines)
