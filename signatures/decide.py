"""The duplicate decision: a small logistic-regression verifier over explainable pair features, with veto
rules on top where cross-validation showed they help (hard evidence of another job: the role list's job
links changed, the same text moved to another city or store, another employment type, pay unit or shift).

`Verifier.decide(a, b)` says whether two prepared postings are the same job (FULL / SEMANTIC / TEMPORAL
in the label vocabulary) and why: per-feature contributions to the logit `name(+x.x)`, measured from
"unknown" for evidence a posting may not give, so missing evidence never reads as agreement; `veto:...`
reasons name a rule that applied. Coefficients, threshold and veto rules ship with the package as
`signatures/data/verifier-<VERIFIER_VERSION>.json`, trained by `benchmarks/train_verifier.py`.
Pure computation; the only file read is the shipped coefficients (importlib.resources).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

import numpy as np

from signatures.boilerplate import BoilerplateModel
from signatures.extract import Extracted
from signatures.features import (
    FEATURES,
    Prepared,
    families_added,
    feature_matrix,
    links_compared,
    places_moved,
    prepare,
    prepare_many,
    terms_changed,
)
from signatures.version import VERIFIER_VERSION

__all__ = [
    "VETO_CAP",
    "Decision",
    "LogisticModel",
    "Model",
    "TreeModel",
    "Verifier",
    "load_model",
    "pair_language",
]


@dataclass(frozen=True)
class Decision:
    """Whether two postings are the same job, how sure (0..1) and the evidence behind it."""

    duplicate: bool
    score: float
    reasons: tuple[str, ...]


#: A vetoed pair scores at most this: below any sensible threshold, while the ranking still follows the model.
VETO_CAP = 0.25


def pair_language(a: Prepared, b: Prepared) -> str:
    """A pair's language for its threshold: the CJK side's (`Extracted.lang`, zh / ja) when either posting
    is in one, else en (an English post on a Chinese board compared with a Chinese one is a Chinese pair)."""
    la, lb = a.ex.lang, b.ex.lang
    return la if la != "en" else lb


def vetoed_rows(X_all: np.ndarray, vetoes: Sequence[tuple[str, float]]) -> np.ndarray:
    """Which rows of a full feature matrix (columns in `FEATURES` order) one of the (feature, at_least) veto
    rules rejects."""
    out = np.zeros(len(X_all), dtype=bool)
    for name, at_least in vetoes:
        out |= X_all[:, FEATURES.index(name)] >= at_least
    return out


class _Vetoes:
    """Veto rules, final scores and thresholds shared by the model kinds (they define `features`, `vetoes`,
    `threshold`, `thresholds`, `proba`)."""

    features: tuple[str, ...]
    vetoes: tuple[tuple[str, float], ...]
    threshold: float
    thresholds: Mapping[str, float] | None

    @cached_property
    def needs(self) -> frozenset[str]:
        """The features the model and its veto rules read (what `prepare` has to build)."""
        return frozenset(self.features) | {name for name, _ in self.vetoes}

    def thresholds_for(self, langs: Sequence[str]) -> np.ndarray:
        """The threshold of each pair by its language (`pair_language`): the model's per-language
        threshold where it has one, else the global `threshold`."""
        per = self.thresholds or {}
        return np.array([per.get(lang, self.threshold) for lang in langs], dtype=np.float64)

    def proba(self, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def vetoed(self, X_all: np.ndarray) -> np.ndarray:
        """Which rows of a full feature matrix (columns in `FEATURES` order) a veto rule rejects."""
        return vetoed_rows(X_all, self.vetoes)

    def final_scores(self, X_all: np.ndarray) -> np.ndarray:
        """Score per row of a full feature matrix (`FEATURES` order): the probability, capped at VETO_CAP
        where a veto rule applies. Duplicate = score >= threshold."""
        p = self.proba(X_all[:, [FEATURES.index(f) for f in self.features]])
        return np.where(self.vetoed(X_all), np.minimum(p, VETO_CAP), p)


def _check_features(doc: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, float], ...]]:
    """The features and veto rules of a model document, every name checked against FEATURES."""
    feats = tuple(doc["features"])
    unknown = set(feats) - set(FEATURES)
    if unknown:
        raise ValueError(f"verifier coefficients use unknown features: {sorted(unknown)}")
    vetoes = tuple((str(v["feature"]), float(v["at_least"])) for v in doc.get("vetoes") or ())
    unknown = {f for f, _ in vetoes} - set(FEATURES)
    if unknown:
        raise ValueError(f"verifier veto rules use unknown features: {sorted(unknown)}")
    return feats, vetoes


def _thresholds_of(doc: Mapping[str, Any]) -> dict[str, float] | None:
    """A model document's optional per-language thresholds (`{"zh": 0.6}`); None when it has none."""
    per = doc.get("thresholds")
    if not per:
        return None
    if not isinstance(per, Mapping) or not all(0.0 < float(v) < 1.0 for v in per.values()):
        raise ValueError("verifier thresholds: expected {language: threshold between 0 and 1}")
    return {str(k): float(v) for k, v in per.items()}


def _thresholds_json(per: Mapping[str, float] | None) -> dict[str, Any]:
    return {"thresholds": {k: round(float(v), 4) for k, v in per.items()}} if per else {}


@dataclass(frozen=True)
class LogisticModel(_Vetoes):
    """Standardized logistic regression: p = sigmoid(((x - mean) / scale) . coef + intercept), plus veto rules:
    `vetoes` are (feature, at_least) pairs; a pair whose feature reaches `at_least` is not a duplicate whatever
    the regression says (hard evidence of another job: its role links changed, the same text moved to another city).
    `reference`: the value each contribution is measured from (0 = unknown for evidence features, the training
    mean for always-known text similarity); None = the mean."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float = 0.5
    meta: Mapping[str, Any] | None = None
    vetoes: tuple[tuple[str, float], ...] = ()
    reference: np.ndarray | None = None
    thresholds: Mapping[str, float] | None = None

    def logits(self, X: np.ndarray) -> np.ndarray:
        return ((X - self.mean) / self.scale) @ self.coef + self.intercept

    def proba(self, X: np.ndarray) -> np.ndarray:
        """Probability of "same job" for each row of X (columns in `features` order)."""
        return 1.0 / (1.0 + np.exp(-self.logits(X)))

    def contributions_many(self, X: np.ndarray) -> np.ndarray:
        """`contributions` of every row of X (columns in `features` order)."""
        return (X - self._reference()) / self.scale * self.coef

    def _reference(self) -> np.ndarray:
        return self.mean if self.reference is None else self.reference

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Per-feature contribution to one logit, from the reference pair (unknown evidence, average text
        similarity): logit = base_logit + contributions.sum()."""
        return (x - self._reference()) / self.scale * self.coef

    @property
    def base_logit(self) -> float:
        """The logit of the reference pair."""
        return float(self.intercept + ((self._reference() - self.mean) / self.scale * self.coef).sum())

    def to_json(self) -> dict[str, Any]:
        return {
            "verifier_version": VERIFIER_VERSION,
            "kind": "logistic",
            "features": list(self.features),
            "mean": [round(float(v), 6) for v in self.mean],
            "reference": [round(float(v), 6) for v in self._reference()],
            "scale": [round(float(v), 6) for v in self.scale],
            "coef": [round(float(v), 6) for v in self.coef],
            "intercept": round(float(self.intercept), 6),
            "threshold": round(float(self.threshold), 4),
            **_thresholds_json(self.thresholds),
            "vetoes": [{"feature": f, "at_least": v} for f, v in self.vetoes],
            "meta": dict(self.meta or {}),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> LogisticModel:
        feats, vetoes = _check_features(doc)
        keys = ("mean", "scale", "coef", *(("reference",) if "reference" in doc else ()))
        arr = {k: np.asarray(doc[k], dtype=np.float64) for k in keys}
        if any(len(v) != len(feats) for v in arr.values()):
            raise ValueError("verifier coefficients: mean/scale/coef lengths differ from features")
        return cls(feats, arr["mean"], arr["scale"], arr["coef"], float(doc["intercept"]),
                   float(doc.get("threshold", 0.5)), doc.get("meta") or {}, vetoes, arr.get("reference"),
                   _thresholds_of(doc))


#: Trees with more inner nodes than this are walked level by level instead of through a table of 2^nodes outcomes.
_TABULATE_MAX = 8


@dataclass(frozen=True)
class TreeModel(_Vetoes):
    """Gradient-boosted trees (scikit-learn HistGradientBoostingClassifier with monotonic constraints, dumped
    as plain arrays and evaluated with numpy): logit = baseline + the leaf values reached in every tree.
    Nodes of all trees are concatenated: `left`/`right` < 0 marks a leaf; a row goes left when its value is
    <= `split` (NaN: `missing_left`). `expect` is each node's mean leaf value over the training pairs reaching it:
    a feature's contribution is the change of expectation at each of its splits along the path (Saabas)."""

    features: tuple[str, ...]
    feature: np.ndarray
    split: np.ndarray
    left: np.ndarray
    right: np.ndarray
    missing_left: np.ndarray
    value: np.ndarray
    expect: np.ndarray
    roots: np.ndarray
    baseline: float
    depth: int
    threshold: float = 0.5
    meta: Mapping[str, Any] | None = None
    vetoes: tuple[tuple[str, float], ...] = ()
    thresholds: Mapping[str, float] | None = None

    @cached_property
    def _paths(self) -> tuple[np.ndarray, ...] | None:
        """Every tree's walk for every outcome of its split tests, tabulated once: per tree its inner nodes in
        `slots` (-1 pads to the largest tree's count m), and per (tree, outcome bits) the node reached after
        `depth` steps and, per step, the feature tested and the change of expectation (0 once at a leaf);
        None when a tree has more than _TABULATE_MAX inner nodes."""
        inner_of = [self._inner(int(r)) for r in self.roots]
        m = max([1, *map(len, inner_of)])
        if m > _TABULATE_MAX:
            return None
        slots = np.full((len(self.roots), m), -1, np.int64)
        reached = np.zeros((len(self.roots), 1 << m), np.int64)
        feat = np.zeros((len(self.roots), 1 << m, self.depth), np.int64)
        delta = np.zeros((len(self.roots), 1 << m, self.depth))
        for t, (root, inner) in enumerate(zip(self.roots.tolist(), inner_of, strict=True)):
            slots[t, :len(inner)] = inner
            slot = {u: k for k, u in enumerate(inner)}
            for bits in range(1 << m):
                u = root
                for step in range(self.depth):
                    feat[t, bits, step] = self.feature[u]
                    if self.left[u] < 0:
                        continue
                    nxt = int(self.left[u] if bits >> slot[u] & 1 else self.right[u])
                    delta[t, bits, step] = self.expect[nxt] - self.expect[u]
                    u = nxt
                reached[t, bits] = u
        return slots, reached, feat, delta

    @cached_property
    def _tests(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The tabulated walk's split tests, flat in (tree, slot) order: the column each reads, its split point,
        whether a missing value passes it, whether the slot holds a node (padding never passes), and each tree's
        first row in the tabulated walk (tree << m)."""
        slots = self._paths[0]  # type: ignore[index]
        t, m = slots.shape
        node = np.maximum(slots, 0).ravel()
        return (self.feature[node].astype(np.intp), self.split[node], self.missing_left[node], (slots >= 0).ravel(),
                (np.arange(t, dtype=np.int64) << m)[None, :])

    def _inner(self, root: int) -> list[int]:
        """The inner nodes of the tree at `root` within `depth` steps of it."""
        out, level = [], [root]
        for _ in range(self.depth):
            level = [u for u in level if self.left[u] >= 0]
            out += level
            level = [int(c) for u in level for c in (self.left[u], self.right[u])]
        return out

    def _walk(self, X: np.ndarray, explain: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """Node reached per (row, tree) after `depth` steps, and the per-feature contributions per row when
        `explain`: all split tests of a row at once, then the tabulated walk of its outcome (`_paths`)."""
        if self._paths is None:
            return self._walk_levels(X, explain)
        slots, reached, feat, delta = self._paths
        n, d = len(X), len(self.features)
        t, m = slots.shape
        col, split, nan_left, real, offset = self._tests
        xv = X[:, col]  # (n, t * m): every split test of every tree, slot by slot
        test = xv <= split
        if np.isnan(X).any():  # a missing value goes the way its node says
            test |= np.isnan(xv) & nan_left
        test &= real
        # the outcome bits of each tree (padding slots test false), then its row of the tabulated walk
        test = test.reshape(n, t, m)
        bits = offset + test[:, :, 0]
        for k in range(1, m):
            bits += test[:, :, k].astype(np.int64) << k
        idx = reached.ravel()[bits]
        if not explain:
            return idx, None
        contrib = np.zeros(n * d)
        rows = np.arange(n)[:, None]
        for step in range(self.depth):
            f = feat.reshape(-1, self.depth)[bits, step]
            contrib += np.bincount((rows * d + f).ravel(), weights=delta.reshape(-1, self.depth)[bits, step].ravel(),
                                   minlength=n * d)
        return idx, contrib.reshape(n, d)

    def _walk_levels(self, X: np.ndarray, explain: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """`_walk` one level of all trees at a time (for trees too big to tabulate)."""
        n, d = len(X), len(self.features)
        idx = np.broadcast_to(self.roots, (n, len(self.roots))).copy()
        rows = np.arange(n)[:, None]
        contrib = np.zeros(n * d) if explain else None
        for _ in range(self.depth):
            inner = self.left[idx] >= 0
            if not inner.any():
                break
            f = self.feature[idx]
            xv = X[rows, f]
            go_left = (xv <= self.split[idx]) | (np.isnan(xv) & self.missing_left[idx])
            nxt = np.where(inner, np.where(go_left, self.left[idx], self.right[idx]), idx)
            if contrib is not None:
                delta = np.where(inner, self.expect[nxt] - self.expect[idx], 0.0)
                contrib += np.bincount((rows * d + f).ravel(), weights=delta.ravel(), minlength=n * d)
            idx = nxt
        return idx, None if contrib is None else contrib.reshape(n, d)

    def logits(self, X: np.ndarray) -> np.ndarray:
        leaves, _ = self._walk(np.asarray(X, dtype=np.float64), False)
        return self.baseline + self.value[leaves].sum(axis=1)

    def proba(self, X: np.ndarray) -> np.ndarray:
        """Probability of "same job" for each row of X (columns in `features` order)."""
        return 1.0 / (1.0 + np.exp(-self.logits(X)))

    def contributions_many(self, X: np.ndarray) -> np.ndarray:
        """Per-feature contributions to each row's logit: logit = base_logit + contributions.sum()."""
        return self._walk(np.asarray(X, dtype=np.float64), True)[1]

    def contributions(self, x: np.ndarray) -> np.ndarray:
        return self.contributions_many(np.asarray(x, dtype=np.float64)[None])[0]

    @property
    def base_logit(self) -> float:
        """The logit of the average training pair."""
        return float(self.baseline + self.expect[self.roots].sum())

    _ARRAYS = ("feature", "split", "left", "right", "missing_left", "value", "expect", "roots")

    def to_json(self) -> dict[str, Any]:
        arrays = {k: getattr(self, k).tolist() for k in self._ARRAYS}
        for k in ("value", "expect"):  # split points stay exact: a rounded one could send a pair the other way
            arrays[k] = [round(float(v), 9) for v in getattr(self, k)]
        return {"verifier_version": VERIFIER_VERSION, "kind": "trees", "features": list(self.features),
                "baseline": round(self.baseline, 7), "depth": self.depth, **arrays,
                "threshold": round(float(self.threshold), 4), **_thresholds_json(self.thresholds),
                "vetoes": [{"feature": f, "at_least": v} for f, v in self.vetoes], "meta": dict(self.meta or {})}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> TreeModel:
        feats, vetoes = _check_features(doc)
        types = {"feature": np.int32, "left": np.int32, "right": np.int32, "roots": np.int32, "missing_left": bool}
        arr = {k: np.asarray(doc[k], dtype=types.get(k, np.float64)) for k in cls._ARRAYS}
        n = len(arr["feature"])
        if any(len(arr[k]) != n for k in cls._ARRAYS if k != "roots") or (arr["feature"] >= len(feats)).any():
            raise ValueError("verifier trees: node arrays differ in length or name unknown features")
        return cls(feats, *(arr[k] for k in cls._ARRAYS), float(doc["baseline"]), int(doc["depth"]),
                   float(doc.get("threshold", 0.5)), doc.get("meta") or {}, vetoes, _thresholds_of(doc))


Model = LogisticModel | TreeModel


def model_from_json(doc: Mapping[str, Any]) -> Model:
    """A shipped model document of either kind ("logistic", "trees")."""
    kind = doc.get("kind", "logistic")
    if kind == "trees":
        return TreeModel.from_json(doc)
    if kind != "logistic":
        raise ValueError(f"verifier model kind {kind!r} is not supported")
    return LogisticModel.from_json(doc)


def _version_key(v: str) -> tuple[int, ...] | tuple[float]:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (float("inf"),)


@lru_cache(maxsize=4)
def load_model(version: str = VERIFIER_VERSION) -> Model:
    """The shipped verifier coefficients for `version` (package data, read via importlib.resources):
    `verifier-<version>.json`, else the newest shipped file of an earlier version."""
    data = resources.files("signatures").joinpath("data")
    shipped = {
        f.name[len("verifier-") : -len(".json")]: f
        for f in data.iterdir()
        if f.name.startswith("verifier-") and f.name.endswith(".json")
    }
    chosen = version if version in shipped else None
    if chosen is None:
        older = [v for v in shipped if _version_key(v) <= _version_key(version)]
        chosen = max(older, key=_version_key) if older else None
    if chosen is None:
        raise ValueError(f"no shipped verifier coefficients for sig_version {version}")
    model = model_from_json(json.loads(shipped[chosen].read_text(encoding="utf-8")))
    meta = dict(model.meta or {})
    meta["coefficients_version"] = chosen
    return dataclasses.replace(model, meta=meta)


#: Features explained together (one reason per group, contributions summed): one piece of evidence each.
_GROUPS: dict[str, str] = {
    "roles_known": "roles", "role_sim": "roles", "roles_changed": "roles", "roles_novel": "roles",
    "employer_roles": "roles", "employer_jobs": "roles", "links_same": "links", "links_changed": "links",
    "families_known": "families", "families_changed": "families",
    "employer_same": "employer", "employer_differs": "employer", "employer_conflict": "employer",
    "salary_same": "salary", "salary_differs": "salary",
    "spec_jaccard": "spec_jaccard", "spec_near_copy": "spec_jaccard", "text_jaccard": "text", "text_copy": "text",
}
_TEXT_LABELS = {
    "text_jaccard": "text_jaccard",
    "spec_jaccard": "job_text_jaccard",
    "spec_containment": "job_text_containment",
    "title_sim": "title_sim",
}


def _reason(group: str, v: Mapping[str, float], c: float, added: Sequence[str]) -> str:
    """One reason `name(+x.x)` for a feature or group with values `v` and summed contribution `c`."""
    if group == "roles":
        if not v.get("roles_known", 1.0):
            return f"roles_unknown({c:+.1f})"
        return f"role_sim={v.get('role_sim', 0.0):.2f}({c:+.1f})"
    if group == "families":
        if not v.get("families_known", 1.0):
            return f"role_families_unknown({c:+.1f})"
        return (f"roles_added={','.join(added)}" if v.get("families_changed", 0) > 0 else "same_role_families") + f"({c:+.1f})"
    if group == "employer":
        if not (v.get("employer_same", 0) or v.get("employer_differs", 0) or v.get("employer_conflict", 0)):
            return f"employer_unknown({c:+.1f})"
        return ("same_employer" if v.get("employer_same", 0) > 0 else "other_employer") + f"({c:+.1f})"
    if group == "links":
        return ("same_job_links" if v.get("links_same", 0) > 0 else
                f"job_links_changed={v.get('links_changed', 0.0):.2f}") + f"({c:+.1f})"
    if group == "salary":
        return ("same_salary" if v.get("salary_same", 0) > 0 else "salary_differs") + f"({c:+.1f})"
    if group == "text":  # models without text_jaccard (the shipped ones) weigh text_copy alone
        if "text_jaccard" not in v:
            return ("text_copy" if v.get("text_copy", 0) > 0 else "no_text_copy") + f"({c:+.1f})"
        return f"text_jaccard={v['text_jaccard']:.2f}({c:+.1f})"
    if group == "spec_jaccard":
        return f"job_text_jaccard={v.get('spec_jaccard', 0.0):.2f}({c:+.1f})"
    (name, val), = v.items()
    if name == "location_agree":
        return ("same_location" if val > 0 else "other_location") + f"({c:+.1f})"
    if name == "date_gap":
        return f"days_apart={math.expm1(val * math.log(366.0)):.0f}({c:+.1f})"
    return f"{_TEXT_LABELS.get(name, name)}={val:.2f}({c:+.1f})"


def _explain(contrib: np.ndarray, x: np.ndarray, names: Sequence[str], est: float | None,
             added: Sequence[str] = ()) -> tuple[str, ...]:
    """Readable evidence from one pair's per-feature contributions (features of one group summed), the
    strongest first, signed; unknown evidence is named as unknown, never as agreement. `added` names the
    role families only one side hires for."""
    groups: dict[str, tuple[dict[str, float], float]] = {}
    for n, v, c in zip(names, x.tolist(), contrib.tolist(), strict=True):
        g = _GROUPS.get(n, n)
        vals, total = groups.get(g, ({}, 0.0))
        vals[n] = v
        groups[g] = (vals, total + c)
    ranked = sorted(groups.items(), key=lambda kv: -abs(kv[1][1]))
    out = [_reason(g, vals, c, added) for g, (vals, c) in ranked[:4] if abs(c) >= 0.15]
    if est is not None and not math.isnan(est):
        out.append(f"est_jaccard={est:.2f}")
    return tuple(out)


def _veto_reasons(model: Model, x_all: np.ndarray, a: Prepared, b: Prepared) -> tuple[str, ...]:
    """Named reasons for the veto rules that apply to one pair (x_all in `FEATURES` order)."""
    out = []
    for name, at_least in model.vetoes:
        if x_all[FEATURES.index(name)] < at_least:
            continue
        if name == "links_changed":
            shared, only_a, only_b = links_compared(a, b)
            out.append(f"veto:job_links_changed={only_a + only_b}/{shared + only_a + only_b}")
        elif name == "places_moved":
            pa, pb = places_moved(a, b)
            out.append(f"veto:location_moved={','.join(pa)}->{','.join(pb)}")
        elif name == "terms_changed":
            out.append(f"veto:terms_changed={';'.join(terms_changed(a, b))}")
        elif name == "pay_tiers":
            out.append(f"veto:pay_tiers={','.join(f'{x:g}' for x in sorted(a.salaries))}|"
                       f"{','.join(f'{x:g}' for x in sorted(b.salaries))}")
        elif name == "employer_conflict":
            out.append(f"veto:other_employer={','.join(sorted(a.sites))}->{','.join(sorted(b.sites))}")
        else:
            out.append(f"veto:{name}={x_all[FEATURES.index(name)]:.2f}")
    return tuple(out)


class Verifier:
    """Decides whether two candidate postings are the same job (not merely the same employer)."""

    def __init__(
        self,
        boilerplate: BoilerplateModel | None = None,
        model: Model | None = None,
        threshold: float | None = None,
    ) -> None:
        self.boilerplate = boilerplate
        self.model = model if model is not None else load_model()
        self.threshold = self.model.threshold if threshold is None else float(threshold)
        #: per-language thresholds of the model, unless one threshold was given for every pair
        self.per_language = bool(self.model.thresholds) and threshold is None
        self._cols = [FEATURES.index(f) for f in self.model.features]

    def thresholds(self, pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
        """The threshold of each pair: by its language (`pair_language`) when the model has per-language
        thresholds, else `threshold`."""
        if not self.per_language:
            return np.full(len(pairs), self.threshold)
        return self.model.thresholds_for([pair_language(a, b) for a, b in pairs])

    def prepare(self, posting: Mapping[str, Any] | Extracted) -> Prepared:
        """Extract and precompute one posting; cache the result per posting."""
        return prepare(posting, self.boilerplate, self.model.needs)

    def prepare_many(self, exs: Sequence[Extracted], line_weights: Sequence[np.ndarray]) -> list[Prepared]:
        """`prepare` of many extracted postings whose boilerplate line weights are known (computed for the whole
        batch at once), their shingles weighed in one numpy pass (features.prepare_many)."""
        return prepare_many(exs, line_weights, self.model.needs)

    def features(self, pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
        """The model's feature matrix for `pairs` (columns in `self.model.features` order)."""
        return feature_matrix(pairs, self.model.needs)[:, self._cols]

    def scores(self, pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
        """Score of "same job" per pair: the model's probability, capped at VETO_CAP where a veto rule
        applies; duplicate = score >= the pair's threshold (`thresholds`)."""
        if not pairs:
            return np.zeros(0)
        return self.model.final_scores(feature_matrix(pairs, self.model.needs))

    def decide(self, a: Prepared, b: Prepared, est_jaccard: float | None = None) -> Decision:
        """Decision for one pair; `est_jaccard` (MinHash estimate) is reported in the reasons."""
        est = None if est_jaccard is None else np.array([est_jaccard], dtype=np.float64)
        return self.decide_many([(a, b)], est)[0]

    def decide_many(
        self, pairs: Sequence[tuple[Prepared, Prepared]], est: np.ndarray | None = None, explain_all: bool = True
    ) -> list[Decision]:
        """Decisions for many pairs at once (one feature matrix, one model pass, contributions in one pass);
        `explain_all=False`: reasons for the duplicates only (the others get ()), which saves their cost."""
        if est is not None and len(est) != len(pairs):
            raise ValueError("decide_many: est must have one value per pair")
        if not pairs:
            return []
        X_all = feature_matrix(pairs, self.model.needs)
        X = X_all[:, self._cols]
        p = self.model.proba(X)
        vetoed = self.model.vetoed(X_all)
        score = np.where(vetoed, np.minimum(p, VETO_CAP), p)
        dup = score >= self.thresholds(pairs)
        explain = np.ones(len(pairs), bool) if explain_all else dup
        contrib = np.zeros_like(X)
        if explain.any():
            contrib[explain] = self.model.contributions_many(X[explain])
        out = []
        for i in range(len(pairs)):
            if not explain[i]:
                out.append(Decision(bool(dup[i]), float(score[i]), ()))
                continue
            e = None if est is None else float(est[i])
            added = families_added(*pairs[i]) if "families_changed" in self.model.features else ()
            vetoes = _veto_reasons(self.model, X_all[i], *pairs[i]) if vetoed[i] else ()
            reasons = (f"p={p[i]:.2f}", *vetoes) + _explain(contrib[i], X[i], self.model.features, e, added)
            out.append(Decision(bool(dup[i]), float(score[i]), reasons))
        return out
