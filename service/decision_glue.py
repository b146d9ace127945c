"""The one place where the service decides "duplicate or not" for a candidate pair.

Exact evidence (same normalized content, same canonical URL, same profile signature on a non-trivial
text) always counts. Near-duplicates by estimated Jaccard of MinHash sketches: accepted above
`NEAR_JACCARD`; between `FIELD_JACCARD` and `NEAR_JACCARD` only when company and title agree and the
location does not contradict (`decide_arrays`, the `--fast` rule). The `ambiguous` pairs (no exact or
URL evidence, estimate >= FIELD_JACCARD) are decided by the trained `signatures.decide.Verifier`
(`make_verifier`) in `jobdedup dedup` and `jobdedup recompute` (default; boilerplate model fitted on the
postings involved) and in the service's ingest (the collection's boilerplate model, service.state).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


class PresetWeights:
    """A boilerplate model as the Verifier's `prepare` asks for it (`line_weights(ex)`), read through `current()`:
    the model now in use (the service's collection model changes as it learns). Batches whose weights are known
    beforehand (computed for a whole unit from the line hashes extraction already has) go to
    `Verifier.prepare_many` with them instead, so a posting's weights are computed once."""

    def __init__(self, current: Callable[[], Any]) -> None:
        self.current = current

    @property
    def model(self) -> Any:
        return self.current()

    def line_weights(self, ex: Any) -> np.ndarray:
        return self.model.line_weights(ex)


NEAR_JACCARD = 0.55
FIELD_JACCARD = 0.30
TITLE_CONFLICT_JACCARD = 0.80  # two different titles: only near-identical texts count as one job
MIN_TOKENS_FOR_PROFILE = 25

# Evidence bits, in the order they are reported.
EXACT, URL, PROFILE, NEAR, FIELDS, VERIFIED = 1, 2, 4, 8, 16, 32
WHY_NAMES = ((EXACT, "exact_content"), (URL, "same_url"), (PROFILE, "profile_sig"),
             (NEAR, "minhash"), (FIELDS, "same_company_title"), (VERIFIED, "verifier"))


def why_list(bits: int, est: float | None = None) -> list[str]:
    """Human-readable evidence names for an evidence bit set."""
    out = [name for bit, name in WHY_NAMES if bits & bit]
    if est is not None and bits & (NEAR | FIELDS | VERIFIED):
        out.append(f"jaccard~{est:.2f}")
    return out


def decide_arrays(est: np.ndarray, same_content: np.ndarray, same_url: np.ndarray, same_profile: np.ndarray,
                  same_company: np.ndarray, same_title: np.ndarray, loc_conflict: np.ndarray,
                  min_tokens: np.ndarray, title_conflict: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorized placeholder decision over candidate pairs: (accept, score, evidence bits).

    `title_conflict`: both postings have a title and the titles differ.
    """
    bits = np.zeros(est.shape, np.int32)
    bits |= np.where(same_content, EXACT, 0).astype(np.int32)
    bits |= np.where(same_url, URL, 0).astype(np.int32)
    bits |= np.where(same_profile & (min_tokens >= MIN_TOKENS_FOR_PROFILE), PROFILE, 0).astype(np.int32)
    near = est >= NEAR_JACCARD
    if title_conflict is not None:
        near &= ~title_conflict | (est >= TITLE_CONFLICT_JACCARD)
    bits |= np.where(near, NEAR, 0).astype(np.int32)
    fields_ok = same_company & same_title & ~loc_conflict & (est >= FIELD_JACCARD)
    bits |= np.where(fields_ok, FIELDS, 0).astype(np.int32)
    accept = bits != 0
    score = np.where(bits & (EXACT | URL | PROFILE), 1.0, np.minimum(1.0, est + np.where(fields_ok, 0.25, 0.0)))
    return accept, score.astype(np.float32), bits


def pair_evidence(cols: Mapping[str, np.ndarray], ntok: np.ndarray, ii: np.ndarray, jj: np.ndarray,
                  est: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The placeholder decision for row pairs (ii, jj) of per-posting 64-bit key columns `content`, `url`,
    `profile`, `company`, `title`, `location` (0 = missing) and token counts `ntok`: (accept, score, evidence
    bits, company conflict: both name a company and they differ). One place for the same-field and
    conflict masks of dedup, recompute and ingest."""

    def same(k: str) -> np.ndarray:
        a, b = cols[k][ii], cols[k][jj]
        return (a == b) & (a != 0)

    def conflict(k: str) -> np.ndarray:
        a, b = cols[k][ii], cols[k][jj]
        return (a != b) & (a != 0) & (b != 0)

    accept, score, bits = decide_arrays(est, same("content"), same("url"), same("profile"), same("company"),
                                        same("title"), conflict("location"), np.minimum(ntok[ii], ntok[jj]),
                                        conflict("title"))
    return accept, score, bits, conflict("company")


#: Verified pairs join two groups only while the pairs the Verifier scored across them (accepted and rejected)
#: average at least `link_cut()`: this -- more likely one job than two; vetoed pairs are capped below it -- or
#: the model's lowest threshold when that is lower (service.graph.constrained_labels: average linkage).
#: Grouped CV off the groups (benchmarks/eval_dedup_pairs.py --cv 5, README): the chains that merged PARTIAL
#: pairs went through pairs scored 0.09 and 0.23, the chains that joined true duplicates through 0.90-0.94.
CANNOT_LINK = 0.5


def link_cut() -> float:
    """The average score of the pairs across two groups below which verified pairs do not join them:
    CANNOT_LINK, or the verifier model's lowest threshold (global or per language) when lower, so a lone
    accepted pair always joins."""
    try:
        from signatures.decide import load_model
    except ImportError:
        return CANNOT_LINK
    model = load_model()
    return min([CANNOT_LINK, model.threshold, *(model.thresholds or {}).values()])


def make_verifier(boilerplate: Any | None = None) -> Any | None:
    """A Verifier using `boilerplate` (a signatures.boilerplate.BoilerplateModel), or None when
    signatures.decide is not available."""
    try:
        from signatures.decide import Verifier
    except ImportError:
        return None
    return Verifier(boilerplate=boilerplate)


def ambiguous(bits: np.ndarray, est: np.ndarray, company_conflict: np.ndarray | None = None) -> np.ndarray:
    """Pairs the Verifier decides: no exact-content / same-URL evidence and an estimated Jaccard of at
    least FIELD_JACCARD (below it the pair is neither a near-duplicate nor worth the verifier's time).
    Two different explicit `company` fields go to the Verifier only from NEAR_JACCARD on: templated
    postings of different employers otherwise look alike to it; the placeholder rule keeps them apart."""
    out = ((bits & (EXACT | URL)) == 0) & (est >= FIELD_JACCARD)
    if company_conflict is not None:
        out &= ~company_conflict | (est >= NEAR_JACCARD)
    return out
