"""Pairwise evaluation of the duplicate decision against labeled pairs, with the classic baselines
computed on the same pairs: Solr's stock TextProfileSignature equality, MinHash Jaccard at its best
threshold, 64-bit SimHash at Hamming <= 3 and at its best distance.

Also the training recipe shared by `benchmarks/train_verifier.py` and `jobdedup eval --cv`
(grouped cross-validation), and labeled repost pairs generated from service.synth.
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
from service.errors import UserError
from signatures.boilerplate import BoilerplateModel
from signatures.decide import LogisticModel, Verifier, fit_logistic, load_model
from signatures.extract import extract
from signatures.features import FEATURES, Prepared, feature_matrix, prepare
from signatures.simhash import hamming, simhash_many

LABELS = ("FULL", "SEMANTIC", "TEMPORAL", "PARTIAL", "NON")
DUP_LABELS = frozenset({"FULL", "SEMANTIC", "TEMPORAL"})

#: Training recipe of the shipped verifier (benchmarks/train_verifier.py and --cv use the same).
L2 = 1.0
GENERATED_WEIGHT = 0.25  # generated pairs count less than real dev pairs
GENERATED_PER_LANG = 300  # postings generated per language for training pairs
#: Merging two different jobs hides one from search; missing a duplicate only shows a repost twice.
#: Counting a false merge as 3 missed duplicates gives the Bayes decision threshold p >= 3 / (3 + 1).
THRESHOLD = 0.75
#: Features the shipped model uses. location_agree is computed and reported but left out: parsed
#: locations are too noisy (HN first lines mix places, remote and contract terms); its coefficient was
#: ~0 and grouped CV F1 on the dev pairs did not drop without it (en 0.83 -> 0.86, zh/ja unchanged).
#: title_sim is left out too: role_sim already falls back to it when no roles are found, and raw titles
#: carry tags, company names and template text (zh); grouped CV F1 without it: en 0.867 (same),
#: zh 0.903 -> 0.915, ja 0.990 (same).
#: text_jaccard (all shingles) is left out as well: next to the boilerplate-weighted spec_jaccard it took a
#: negative coefficient (collinearity), which no reason should read as "more shared text, less alike"; grouped
#: CV without it: en 0.924 (same), zh 0.915 (same), ja 0.990 -> 0.981 (one pair at the threshold).
#: links_changed and places_moved act as veto rules (VETOES), not as weighted evidence.
MODEL_FEATURES = tuple(
    f for f in FEATURES if f not in ("location_agree", "title_sim", "text_jaccard", "links_changed", "places_moved")
)
#: Veto rules shipped with the model (feature, at least): hard evidence that two postings of one employer are
#: different jobs, whatever the text similarity. Not fitted: each threshold is the plain-language rule.
#: * links_changed >= 0.5: at least half of the job links two role lists give (both >= 2) differ: the role
#:   list changed materially (PARTIAL), a monthly repost keeps most links.
#: * places_moved >= 1: each posting names a place the other never mentions: the same text advertised for
#:   another city is another requisition (PARTIAL).
VETOES: tuple[tuple[str, float], ...] = (("links_changed", 0.5), ("places_moved", 1.0))
GENERATED_EVAL_SEED = 11  # held-out generated pairs for reporting (training uses seed 7)


@dataclass(frozen=True)
class LabeledPair:
    a: str
    b: str
    label: str

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


# ----------------------------------------------------------------------------- reading

def read_postings(paths: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Postings by id from JSON Lines (or CSV/TSV with a header row) files, read by service.io."""
    return {p["id"]: p for path in paths for _, p in io.read_postings(path)}


def _jsonl(path: str) -> Iterable[tuple[int, Any]]:
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if raw.strip():
                yield lineno, io.parse_json_line(raw.removeprefix(io.BOM) if lineno == 1 else raw,
                                                 f"{path} line {lineno}")


def read_pairs(path: str, postings: Mapping[str, Any]) -> list[LabeledPair]:
    """Labeled pairs `{"a", "b", "label"}` from JSON Lines; every id must be among `postings`."""
    if not os.path.isfile(path):
        raise UserError(f"{path}: no such file")
    pairs = []
    for lineno, obj in _jsonl(path):
        if not isinstance(obj, dict) or not {"a", "b", "label"} <= obj.keys():
            raise UserError(f"{path} line {lineno}: a labeled pair needs 'a', 'b' and 'label'")
        label = str(obj["label"]).upper()
        if label not in LABELS:
            raise UserError(f"{path} line {lineno}: label {obj['label']!r} is not one of {', '.join(LABELS)}")
        a, b = str(obj["a"]), str(obj["b"])
        for pid in (a, b):
            if pid not in postings:
                raise UserError(f"{path} line {lineno}: posting {pid!r} is not in the --data files")
        pairs.append(LabeledPair(a, b, label))
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


def baseline_results(postings: Mapping[str, Mapping[str, Any]], pairs: Sequence[LabeledPair]) -> tuple[list[MethodResult], list[str]]:
    """Baselines on `pairs`; returns results and notes about baselines that could not run."""
    labels = [p.label for p in pairs]
    ids = sorted({i for p in pairs for i in (p.a, p.b)})
    index = {pid: n for n, pid in enumerate(ids)}
    ia = np.array([index[p.a] for p in pairs])
    ib = np.array([index[p.b] for p in pairs])
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
    t, pred = best_cut(jac, labels)
    out.append(score(name, f">= {t:.2f} (best)", pred, labels))
    sh = simhash_many(texts)
    dist = np.asarray(hamming(sh[ia], sh[ib]), dtype=np.float64)
    out.append(score("SimHash-64", "d <= 3", dist <= 3, labels))
    t, pred = best_cut(dist, labels, higher_is_dup=False)
    out.append(score("SimHash-64", f"d <= {int(t)} (best)", pred, labels))
    return out, skipped


# ----------------------------------------------------------------------------- verifier, training, CV

def prepare_all(postings: Mapping[str, Mapping[str, Any]], ids: Iterable[str] | None = None,
                boilerplate: BoilerplateModel | None = None) -> dict[str, Prepared]:
    """Prepared postings (boilerplate learned from all `postings` unless given)."""
    bp = boilerplate if boilerplate is not None else BoilerplateModel.fit(postings.values())
    return {pid: prepare(postings[pid], bp) for pid in (ids if ids is not None else postings)}


def pair_groups(pairs: Sequence[LabeledPair]) -> np.ndarray:
    """Connected component of each pair in the graph of postings joined by pairs: folds split by
    component, so no posting is in both the training and the test part."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        ra, rb = find(p.a), find(p.b)
        if ra != rb:
            parent[ra] = rb
    roots = [find(p.a) for p in pairs]
    ids = {r: n for n, r in enumerate(dict.fromkeys(roots))}
    return np.array([ids[r] for r in roots])


def group_folds(groups: np.ndarray, k: int) -> np.ndarray:
    """Assign whole groups to k folds, largest first, always to the currently smallest fold."""
    sizes = Counter(groups.tolist())
    load = [0] * k
    fold_of: dict[int, int] = {}
    for g, n in sorted(sizes.items(), key=lambda x: (-x[1], x[0])):
        f = min(range(k), key=lambda i: (load[i], i))
        fold_of[g] = f
        load[f] += n
    return np.array([fold_of[g] for g in groups.tolist()])


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
    return uniq, pairs


def generated_pairs(lang: str, n: int = GENERATED_PER_LANG, seed: int = 7) -> tuple[np.ndarray, list[str]]:
    """Features and labels of the `generated_corpus` pairs (boilerplate learned from that corpus)."""
    postings, pairs = generated_corpus(lang, n, seed)
    if not pairs:
        return np.zeros((0, len(FEATURES))), []
    prep = prepare_all(postings)
    return feature_matrix([(prep[p.a], prep[p.b]) for p in pairs]), [p.label for p in pairs]


def train_model(X: np.ndarray, labels: Sequence[str], X_gen: np.ndarray | None = None,
                gen_labels: Sequence[str] = (), meta: Mapping[str, Any] | None = None) -> LogisticModel:
    """The shipped recipe: L2 logistic regression on dev pairs plus down-weighted generated pairs."""
    y = np.isin(np.asarray(labels), list(DUP_LABELS)).astype(float)
    w = np.ones(len(y))
    if X_gen is not None and len(X_gen):
        X = np.vstack([X, X_gen])
        y = np.concatenate([y, np.isin(np.asarray(gen_labels), list(DUP_LABELS)).astype(float)])
        w = np.concatenate([w, np.full(len(X_gen), GENERATED_WEIGHT)])
    cols = [FEATURES.index(f) for f in MODEL_FEATURES]
    return fit_logistic(X[:, cols], y, MODEL_FEATURES, l2=L2, threshold=THRESHOLD, sample_weight=w, meta=meta,
                        vetoes=VETOES)


@dataclass
class LabelSet:
    """One labels file with its features, ready for scoring and training."""

    name: str
    pairs: list[LabeledPair]
    X: np.ndarray

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
        sets.append(LabelSet(os.path.basename(path), pairs, X))
    return sets


def cross_validated(sets: Sequence[LabelSet], k: int = 5, X_gen: np.ndarray | None = None,
                    gen_labels: Sequence[str] = ()) -> list[np.ndarray]:
    """Out-of-fold scores per label set: pairs split into k folds by pair-graph component within
    each set; every fold is scored by a model trained on all other pairs (all sets) + generated pairs."""
    folds = [group_folds(pair_groups(s.pairs), k) for s in sets]
    out = [np.zeros(len(s.pairs)) for s in sets]
    for f in range(k):
        Xtr = np.vstack([s.X[folds[i] != f] for i, s in enumerate(sets)])
        ytr = [lb for i, s in enumerate(sets) for lb, fo in zip(s.labels, folds[i], strict=True) if fo != f]
        model = train_model(Xtr, ytr, X_gen, gen_labels)
        for i, s in enumerate(sets):
            m = folds[i] == f
            if m.any():
                out[i][m] = model.final_scores(s.X[m])
    return out


def evaluate(data_paths: Sequence[str], label_paths: Sequence[str], cv: int = 0,
             baselines: bool = True, model: LogisticModel | None = None,
             generated: bool = True, generated_eval: int = 0,
             boilerplate: bool = True) -> list[LabelSetReport]:
    """Everything `jobdedup eval` prints, per labels file."""
    postings = read_postings(data_paths)
    sets = load_label_sets(postings, label_paths, boilerplate) if label_paths else []
    held_out: list[tuple[LabelSet, dict[str, dict[str, Any]]]] = []
    for lang in ("en", "zh", "ja") if generated_eval else ():
        gen_posts, gen_pairs = generated_corpus(lang, generated_eval, seed=GENERATED_EVAL_SEED)
        if gen_pairs:
            prep = prepare_all(gen_posts)
            X = feature_matrix([(prep[p.a], prep[p.b]) for p in gen_pairs])
            held_out.append((LabelSet(f"generated-{lang} (seed {GENERATED_EVAL_SEED}, {generated_eval} postings)",
                                      gen_pairs, X), gen_posts))
    model = model or load_model()
    verifier = Verifier(model=model)
    cv_probs: list[np.ndarray] | None = None
    if cv and sets:
        X_gen, y_gen = np.zeros((0, len(FEATURES))), []
        for lang in ("en", "zh", "ja") if generated else ():
            Xg, yg = generated_pairs(lang)
            X_gen = np.vstack([X_gen, Xg])
            y_gen += yg
        cv_probs = cross_validated(sets, cv, X_gen, y_gen)
    reports = []
    veto_note = ", vetoes" if model.vetoes else ""
    sources = [(s, postings) for s in sets] + held_out
    for i, (s, posts) in enumerate(sources):
        labels = s.labels
        rep = LabelSetReport(s.name, dict(Counter(labels)))
        p = model.final_scores(s.X)
        version = (model.meta or {}).get("coefficients_version") or (model.meta or {}).get("sig_version", "?")
        rep.results.append(score(f"verifier (verifier-{version}.json)",
                                 f"p >= {verifier.threshold:.2f}{veto_note}", p >= verifier.threshold, labels))
        if cv_probs is not None and i < len(sets):
            rep.results.append(score(f"verifier, grouped {cv}-fold CV", f"p >= {THRESHOLD:.2f}{veto_note}",
                                     cv_probs[i] >= THRESHOLD, labels))
        if baselines:
            res, skipped = baseline_results(posts, s.pairs)
            rep.results.extend(res)
            rep.skipped.extend(skipped)
        reports.append(rep)
    return reports


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
        lines.append("")
    lines.append("Per-label columns: share of pairs with that label judged duplicates "
                 "(should be 1 for FULL/SEMANTIC/TEMPORAL, 0 for PARTIAL/NON).")
    return "\n".join(lines)
