"""The duplicate decision: a small logistic-regression verifier over explainable pair features.

`Verifier.decide(a, b)` says whether two prepared postings are the same job (FULL / SEMANTIC / TEMPORAL
in the label vocabulary) and why. Coefficients ship with the package as
`signatures/data/verifier-<SIG_VERSION>.json`, trained by `benchmarks/train_verifier.py`.
Pure computation; the only file read is the shipped coefficients (importlib.resources).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from signatures.boilerplate import BoilerplateModel
from signatures.extract import Extracted
from signatures.features import FEATURES, Prepared, families_added, feature_matrix, prepare
from signatures.version import SIG_VERSION

__all__ = [
    "Decision",
    "LogisticModel",
    "Verifier",
    "fit_logistic",
    "load_model",
]


@dataclass(frozen=True)
class Decision:
    """Whether two postings are the same job, how sure (0..1) and the evidence behind it."""

    duplicate: bool
    score: float
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class LogisticModel:
    """Standardized logistic regression: p = sigmoid(((x - mean) / scale) . coef + intercept)."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float = 0.5
    meta: Mapping[str, Any] | None = None

    def logits(self, X: np.ndarray) -> np.ndarray:
        return ((X - self.mean) / self.scale) @ self.coef + self.intercept

    def proba(self, X: np.ndarray) -> np.ndarray:
        """Probability of "same job" for each row of X (columns in `features` order)."""
        return 1.0 / (1.0 + np.exp(-self.logits(X)))

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Per-feature contribution to one logit, relative to the average training pair."""
        return (x - self.mean) / self.scale * self.coef

    def to_json(self) -> dict[str, Any]:
        return {
            "sig_version": SIG_VERSION,
            "features": list(self.features),
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "coef": [round(float(v), 6) for v in self.coef],
            "intercept": round(float(self.intercept), 6),
            "threshold": round(float(self.threshold), 4),
            "meta": dict(self.meta or {}),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> LogisticModel:
        feats = tuple(doc["features"])
        unknown = set(feats) - set(FEATURES)
        if unknown:
            raise ValueError(f"verifier coefficients use unknown features: {sorted(unknown)}")
        arr = {k: np.asarray(doc[k], dtype=np.float64) for k in ("mean", "scale", "coef")}
        if any(len(v) != len(feats) for v in arr.values()):
            raise ValueError("verifier coefficients: mean/scale/coef lengths differ from features")
        return cls(feats, arr["mean"], arr["scale"], arr["coef"], float(doc["intercept"]),
                   float(doc.get("threshold", 0.5)), doc.get("meta") or {})


def fit_logistic(
    X: np.ndarray,
    y: np.ndarray,
    features: Sequence[str] = FEATURES,
    l2: float = 1.0,
    threshold: float = 0.5,
    sample_weight: np.ndarray | None = None,
    meta: Mapping[str, Any] | None = None,
) -> LogisticModel:
    """L2-regularized logistic regression by Newton's method (IRLS) on standardized features; numpy only.
    Deterministic for given data, so training is reproducible."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or len(X) != len(y) or len(X) == 0:
        raise ValueError("fit_logistic: X must be (n, d) with n == len(y) > 0")
    sw = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    Z = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = np.eye(Z.shape[1]) * l2
    reg[-1, -1] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -30, 30)))
        grad = Z.T @ (sw * (p - y)) + reg @ w
        hess = (Z.T * (sw * p * (1 - p))) @ Z + reg + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return LogisticModel(tuple(features), mean, scale, w[:-1].copy(), float(w[-1]), threshold, meta)


def _version_key(v: str) -> tuple[int, ...] | tuple[float]:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (float("inf"),)


@lru_cache(maxsize=4)
def load_model(version: str = SIG_VERSION) -> LogisticModel:
    """The shipped verifier coefficients for `version` (package data, read via importlib.resources):
    `verifier-<version>.json`, else the newest shipped file of an earlier version (a SIG_VERSION bump
    for sketch parameters does not invalidate the verifier; retraining writes the new file)."""
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
    model = LogisticModel.from_json(json.loads(shipped[chosen].read_text(encoding="utf-8")))
    meta = dict(model.meta or {})
    meta["coefficients_version"] = chosen
    return LogisticModel(model.features, model.mean, model.scale, model.coef, model.intercept,
                         model.threshold, meta)


_LABELS = {
    "text_jaccard": "text_jaccard",
    "spec_jaccard": "job_text_jaccard",
    "spec_containment": "job_text_containment",
    "title_sim": "title_sim",
    "role_sim": "role_sim",
}


def _explain(model: LogisticModel, x: np.ndarray, names: Sequence[str], est: float | None,
             added: Sequence[str] = ()) -> tuple[str, ...]:
    """Readable evidence: the strongest feature contributions, signed, plus field agreements;
    `added` names the role families only one side hires for."""
    contrib = model.contributions(x)
    order = np.argsort(-np.abs(contrib))
    out: list[str] = []
    for i in order[:4]:
        n, v, c = names[i], float(x[i]), float(contrib[i])
        if abs(c) < 0.15:
            continue
        if n in _LABELS:
            out.append(f"{_LABELS[n]}={v:.2f}({c:+.1f})")
        elif n == "employer_agree":
            out.append(("same_employer" if v > 0 else "other_employer") + f"({c:+.1f})")
        elif n == "salary_agree":
            out.append(("same_salary" if v > 0 else "salary_differs") + f"({c:+.1f})")
        elif n == "location_agree":
            out.append(("same_location" if v > 0 else "other_location") + f"({c:+.1f})")
        elif n == "families_added":
            out.append((f"roles_added={','.join(added)}" if added else "same_role_families") + f"({c:+.1f})")
        elif n == "date_gap":
            days = math.expm1(v * math.log(366.0))
            out.append(f"days_apart={days:.0f}({c:+.1f})")
        else:
            out.append(f"{n}={v:.2f}({c:+.1f})")
    if est is not None and not math.isnan(est):
        out.append(f"est_jaccard={est:.2f}")
    return tuple(out)


class Verifier:
    """Decides whether two candidate postings are the same job (not merely the same employer)."""

    def __init__(
        self,
        boilerplate: BoilerplateModel | None = None,
        model: LogisticModel | None = None,
        threshold: float | None = None,
    ) -> None:
        self.boilerplate = boilerplate
        self.model = model if model is not None else load_model()
        self.threshold = self.model.threshold if threshold is None else float(threshold)
        self._cols = [FEATURES.index(f) for f in self.model.features]

    def prepare(self, posting: Mapping[str, Any] | Extracted) -> Prepared:
        """Extract and precompute one posting; cache the result per posting."""
        return prepare(posting, self.boilerplate)

    def features(self, pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
        """The model's feature matrix for `pairs` (columns in `self.model.features` order)."""
        return feature_matrix(pairs)[:, self._cols]

    def scores(self, pairs: Sequence[tuple[Prepared, Prepared]]) -> np.ndarray:
        """Probability of "same job" per pair."""
        if not pairs:
            return np.zeros(0)
        return self.model.proba(self.features(pairs))

    def decide(self, a: Prepared, b: Prepared, est_jaccard: float | None = None) -> Decision:
        """Decision for one pair; `est_jaccard` (MinHash estimate) is reported in the reasons."""
        est = None if est_jaccard is None else np.array([est_jaccard], dtype=np.float64)
        return self.decide_many([(a, b)], est)[0]

    def decide_many(
        self, pairs: Sequence[tuple[Prepared, Prepared]], est: np.ndarray | None = None
    ) -> list[Decision]:
        """Decisions for many pairs at once (one feature matrix, one matrix product)."""
        if est is not None and len(est) != len(pairs):
            raise ValueError("decide_many: est must have one value per pair")
        if not pairs:
            return []
        X = self.features(pairs)
        p = self.model.proba(X)
        out = []
        for i in range(len(pairs)):
            dup = bool(p[i] >= self.threshold)
            e = None if est is None else float(est[i])
            added = families_added(*pairs[i]) if "families_added" in self.model.features else ()
            reasons = (f"p={p[i]:.2f}",) + _explain(self.model, X[i], self.model.features, e, added)
            out.append(Decision(dup, float(p[i]), reasons))
        return out
