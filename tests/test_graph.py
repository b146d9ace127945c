"""The grouping rule (service.graph.constrained_labels, used by dedup, recompute and index through
service.engine): accepted pairs join groups, but verified pairs do not join two groups whose pairs the
verifier scored average below the cut (average linkage); exact evidence always joins."""

from __future__ import annotations

import io as _io
from collections import defaultdict
from pathlib import Path

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service import decision_glue, embedded
from service.graph import component_labels, constrained_labels, unscored_chain_pairs
from service.synth import generate

CUT = 0.5


def partition(label: np.ndarray) -> set[frozenset[int]]:
    by: dict[int, set[int]] = defaultdict(set)
    for r, g in enumerate(label.tolist()):
        by[g].add(r)
    return {frozenset(s) for s in by.values()}


def group(edges: list[tuple[int, int, float, bool]], rejected: list[tuple[int, int, float]], n: int) -> np.ndarray:
    """constrained_labels of accepted (i, j, score, hard) edges; scored = the verified edges plus `rejected`."""
    ai = np.array([e[0] for e in edges], np.int64)
    aj = np.array([e[1] for e in edges], np.int64)
    sc = np.array([e[2] for e in edges])
    hard = np.array([e[3] for e in edges], bool)
    scored = [(i, j, s) for i, j, s, h in edges if not h] + rejected
    si = np.array([v[0] for v in scored], np.int64)
    sj = np.array([v[1] for v in scored], np.int64)
    ss = np.array([v[2] for v in scored])
    return constrained_labels(ai, aj, hard, sc, si, sj, ss, n, CUT)


def test_a_chain_through_a_pair_scored_apart_is_cut_at_its_weaker_link() -> None:
    """A~B (0.8), B~C (0.99), A-C scored 0.1: B goes with C (the stronger pair), A stays apart (0.8 and 0.1
    average 0.45); with A~B at 0.95 the two pairs average 0.525 and all three merge."""
    label = group([(0, 1, 0.8, False), (1, 2, 0.99, False)], [(0, 2, 0.1)], 3)
    assert partition(label) == {frozenset({0}), frozenset({1, 2})}
    label = group([(0, 1, 0.99, False), (1, 2, 0.8, False)], [(0, 2, 0.1)], 3)
    assert partition(label) == {frozenset({0, 1}), frozenset({2})}
    assert partition(group([(0, 1, 0.95, False), (1, 2, 0.99, False)], [(0, 2, 0.1)], 3)) == {frozenset({0, 1, 2})}


def test_one_doubtful_pair_among_agreeing_ones_does_not_split_a_group() -> None:
    """D accepted with A and B (0.99), scored 0.27 with C: the three pairs average 0.75."""
    edges = [(0, 1, 0.99, False), (0, 2, 0.99, False), (1, 2, 0.98, False), (3, 0, 0.99, False), (3, 1, 0.99, False)]
    assert partition(group(edges, [(3, 2, 0.27)], 4)) == {frozenset({0, 1, 2, 3})}
    # ... but two pairs clearly apart against one accepted pair keep D out (0.43: a repost of a sibling role)
    edges = [(0, 1, 0.99, False), (0, 2, 0.99, False), (3, 0, 0.99, False)]
    assert partition(group(edges, [(3, 1, 0.2), (3, 2, 0.1)], 4)) == {frozenset({0, 1, 2}), frozenset({3})}


def test_exact_evidence_always_joins() -> None:
    """Same content / URL (hard pairs) join whatever the verifier said about a pair across."""
    label = group([(0, 1, 1.0, True), (1, 2, 1.0, True)], [(0, 2, 0.01)], 3)
    assert partition(label) == {frozenset({0, 1, 2})}
    # a hard pair is applied before any verified one, so it decides which side a verified pair may join
    label = group([(1, 2, 0.8, False), (0, 1, 1.0, True)], [(0, 2, 0.05)], 3)
    assert partition(label) == {frozenset({0, 1}), frozenset({2})}


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, float, bool]], list[tuple[int, int, float]]]:
    n = draw(st.integers(2, 14))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    edges = draw(st.lists(st.tuples(pair, st.floats(0.5, 1.0), st.booleans()), max_size=30))
    rejected = draw(st.lists(st.tuples(pair, st.floats(0.0, 0.7)), max_size=10))
    return (n, [(a, b, s, h) for (a, b), s, h in edges], [(a, b, s) for (a, b), s in rejected])


@settings(max_examples=300, deadline=None)
@given(graphs(), st.randoms(use_true_random=False))
def test_groups_refine_the_components_and_ignore_input_order(g, rnd) -> None:
    """Each group lies inside one connected component of the accepted pairs; rows joined by hard pairs are
    together; without a scored pair below the cut the groups are the components; labels are 0..G-1; the
    order the pairs come in changes nothing."""
    n, edges, rejected = g
    label = group(edges, rejected, n)
    comp = component_labels(np.array([e[0] for e in edges], np.int64), np.array([e[1] for e in edges], np.int64), n)
    assert all(len({int(comp[r]) for r in s}) == 1 for s in partition(label))
    assert sorted(set(label.tolist())) == list(range(len(set(label.tolist()))))
    for a, b, _, h in edges:
        if h:
            assert label[a] == label[b]
    if not any(s < CUT for *_, s in rejected):
        assert partition(label) == partition(comp)
    shuffled_edges, shuffled_rejected = edges[:], rejected[:]
    rnd.shuffle(shuffled_edges)
    rnd.shuffle(shuffled_rejected)
    swapped = [(b, a, s, h) for a, b, s, h in shuffled_edges]
    assert partition(group(swapped, shuffled_rejected, n)) == partition(label)


class _TableVerifier:
    """Stands in for service.verify_stage.PairVerifier in a dedup run: scores pairs of posting ids from a table
    (0.99 for any other pair), duplicate from 0.7 on, and records the pairs it was asked about."""

    table: dict[frozenset[str], float] = {}
    asked: set[frozenset[str]] = set()
    calls: list[set[frozenset[str]]] = []

    def __init__(self, source, n, *args) -> None:
        self.ids = list(source.ids)

    def __call__(self, vi, vj, est):
        keys = [frozenset((self.ids[a], self.ids[b])) for a, b in zip(vi.tolist(), vj.tolist(), strict=True)]
        type(self).asked |= set(keys)
        type(self).calls.append(set(keys))
        score = np.array([self.table.get(k, 0.99) for k in keys])
        ok = score >= 0.7
        return ok, score, [("table",) if o else () for o in ok.tolist()]

    def close(self) -> None:
        pass


def test_dedup_keeps_a_posting_out_of_a_chain_the_verifier_scored_it_apart_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three reposts of one generated job, A~B 0.8, B~C 0.99 but A-C 0.1 (say, another role of the same
    employer): dedup groups B with C and leaves A alone; with A-C at 0.6 (rejected, not clearly) all three merge."""
    postings = [p for p in generate(12, seed=3, dup_rate=0.9, resight_rate=0.0) if p["synthetic_job"] == "job-0"][:3]
    assert len(postings) == 3
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(orjson.dumps({k: v for k, v in p.items() if k != "synthetic_job"}) + b"\n"
                              for p in postings))
    a, b, c = (p["id"] for p in postings)
    monkeypatch.setattr(embedded, "PairVerifier", _TableVerifier)
    monkeypatch.setattr(decision_glue, "link_cut", lambda: CUT)

    def groups(ac: float) -> dict[str, str]:
        _TableVerifier.table = {frozenset((a, b)): 0.8, frozenset((b, c)): 0.99, frozenset((a, c)): ac}
        _TableVerifier.asked = set()
        out = _io.BytesIO()
        embedded.dedup_file(str(path), out, workers=1, quiet=True)
        assert _TableVerifier.asked == set(_TableVerifier.table)  # all three pairs were candidates
        return {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}

    got = groups(0.1)
    assert got[b] == got[c] != got[a]
    assert len(set(groups(0.6).values())) == 1


def test_dedup_asks_the_verifier_about_the_pair_a_chain_would_join_unscored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A = one generated job, C = another employer's job, B = both texts in one post: A~B (0.8) and B~C (0.99)
    are candidates, A-C is not (the texts share nothing). The engine asks the verifier about A-C once the
    chain is there; said apart (0.1), A stays out (0.8 and 0.1 average 0.45); said the same (0.9), all join."""
    xs = list(generate(40, seed=5, dup_rate=0.0, resight_rate=0.0))
    x = xs[0]
    y = next(p for p in xs if p["company"] != x["company"])
    texts = {"a": (x["title"], x["description"]), "b": (x["title"], x["description"] + "\n\n" + y["description"]),
             "c": (y["title"], y["description"])}
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(orjson.dumps({"id": k, "title": t, "description": d, "lang": "en"}) + b"\n"
                              for k, (t, d) in texts.items()))
    monkeypatch.setattr(embedded, "PairVerifier", _TableVerifier)
    monkeypatch.setattr(decision_glue, "link_cut", lambda: CUT)
    ab, bc, ac = frozenset("ab"), frozenset("bc"), frozenset("ac")

    def groups(score: float) -> dict[str, str]:
        _TableVerifier.table = {ab: 0.8, bc: 0.99, ac: score}
        _TableVerifier.calls = []
        out = _io.BytesIO()
        embedded.dedup_file(str(path), out, workers=1, quiet=True)
        assert _TableVerifier.calls == [{ab, bc}, {ac}]  # A-C: not a candidate, asked about afterwards
        return {r["id"]: r["group"] for r in map(orjson.loads, out.getvalue().splitlines())}

    got = groups(0.1)
    assert got["b"] == got["c"] != got["a"]
    assert len(set(groups(0.9).values())) == 1


def test_unscored_chain_pairs_one_per_two_postings_of_small_chains_within_budget() -> None:
    """Chain 0~1~2 and 3~4~5~6 (verified, scored), 6=7 exact (one posting to the verifier), 8~9 alone: the
    unscored pairs of the chains, 7 standing in for nothing (6 is its node's row in a verified pair); a cap
    of 3 postings leaves the longer chain alone; a budget of 4 pairs takes the smaller chain only."""
    ai = np.array([0, 1, 3, 4, 5, 6, 8])
    aj = np.array([1, 2, 4, 5, 6, 7, 9])
    hard = np.array([0, 0, 0, 0, 0, 1, 0], bool)

    def pairs(max_nodes: int, budget: int) -> set[frozenset[int]]:
        a, b = unscored_chain_pairs(ai, aj, hard, ai[~hard], aj[~hard], 10, max_nodes, budget)
        return {frozenset(p) for p in zip(a.tolist(), b.tolist(), strict=True)}

    small = {frozenset({0, 2})}
    assert pairs(40, 100) == small | {frozenset(p) for p in ((3, 5), (3, 6), (4, 6))}
    assert pairs(3, 100) == small
    assert pairs(40, 2) == small
    # a pair scored (rejected) between two postings counts as scored
    a, _ = unscored_chain_pairs(ai, aj, hard, np.r_[ai[~hard], 0], np.r_[aj[~hard], 2], 10, 3, 100)
    assert len(a) == 0


def test_a_stored_group_is_no_single_posting_to_the_chain_pairs() -> None:
    """The index's stored group {0, 1, 2} (fixed pairs) and a new posting 3 verified with 1: 3 is asked about
    0 and 2, and no pair inside the stored group is asked (it stays together anyway)."""
    ai, aj = np.array([0, 1, 3]), np.array([1, 2, 1])
    fixed = np.array([1, 1, 0], bool)
    a, b = unscored_chain_pairs(ai, aj, np.zeros(3, bool), np.array([3]), np.array([1]), 4, 40, 100, fixed)
    assert {frozenset(p) for p in zip(a.tolist(), b.tolist(), strict=True)} == {frozenset({0, 3}), frozenset({2, 3})}


def test_unscored_chain_pairs_built_block_by_block_are_the_same_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain pairs are built a block of components at a time (memory bounded under a flood of small
    chains): the tiniest blocks give exactly the pairs of one block, budget cut included."""
    from service import graph

    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(3, 50))
        ai, aj = rng.integers(0, n, 60), rng.integers(0, n, 60)
        ai, aj = ai[ai != aj], aj[ai != aj]
        hard, fixed, scored = (rng.random(len(ai)) < x for x in (0.2, 0.1, 0.5))
        args = (ai, aj, hard, ai[scored], aj[scored], n, int(rng.integers(3, 15)), int(rng.integers(0, 40)), fixed)
        monkeypatch.setattr(graph, "CHAIN_BLOCK", 1_000_000)
        whole = sorted(zip(*(x.tolist() for x in graph.unscored_chain_pairs(*args)), strict=True))
        monkeypatch.setattr(graph, "CHAIN_BLOCK", 1)
        assert sorted(zip(*(x.tolist() for x in graph.unscored_chain_pairs(*args)), strict=True)) == whole


def _chain_pairs_of_postings(rows: np.ndarray, ai: np.ndarray, aj: np.ndarray, hard: np.ndarray, scored: np.ndarray,
                             max_nodes: int, budget: int, rank: np.ndarray | None) -> set[frozenset[int]]:
    """unscored_chain_pairs of postings 0..n-1 that come in as rows `rows` (posting r is row rows[r]), as postings."""
    a, b = unscored_chain_pairs(rows[ai], rows[aj], hard, rows[ai[scored]], rows[aj[scored]], len(rows), max_nodes,
                                budget, rank=rank)
    back = np.argsort(rows)  # row -> posting
    return {frozenset((int(back[x]), int(back[y]))) for x, y in zip(a.tolist(), b.tolist(), strict=True)}


def test_unscored_chain_pairs_ask_about_the_same_postings_whatever_their_rows() -> None:
    """Which row of a node (postings joined by exact evidence) stands for it, and which components a budget
    takes first, follow `rank` (the engine: earliest first_seen), not the row numbers: the same postings in
    other rows (dedup's file order vs the index's rows) give the same pairs."""
    rng = np.random.default_rng(9)
    differed = 0
    for _ in range(300):
        n = int(rng.integers(3, 40))
        ai, aj = rng.integers(0, n, 50), rng.integers(0, n, 50)
        ai, aj = ai[ai != aj], aj[ai != aj]
        hard, scored = rng.random(len(ai)) < 0.3, rng.random(len(ai)) < 0.4
        rank = rng.permutation(n)  # the postings' order (first_seen)
        perm = rng.permutation(n)  # posting r comes in as row perm[r]
        args = (ai, aj, hard, scored, int(rng.integers(3, 15)), int(rng.integers(0, 40)))
        ident = np.arange(n)
        assert _chain_pairs_of_postings(perm, *args, rank[np.argsort(perm)]) == \
            _chain_pairs_of_postings(ident, *args, rank)
        differed += _chain_pairs_of_postings(perm, *args, None) != _chain_pairs_of_postings(ident, *args, None)
    assert differed  # by row numbers alone, the rows chose
