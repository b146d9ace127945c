"""Groups of accepted duplicate pairs, one implementation for dedup, recompute and index: the connected
components of the accepted pairs, except that verified pairs do not join two groups whose pairs the verifier
scored (accepted and rejected) average below a cut: average linkage over the scored pairs."""

from __future__ import annotations

import numpy as np

CHAIN_BLOCK = 1_000_000  # candidate chain pairs built at a time (unscored_chain_pairs)


def component_labels(ai: np.ndarray, aj: np.ndarray, n: int) -> np.ndarray:
    """Component label per row 0..n-1 of the undirected graph with edges (ai[k], aj[k])."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(ai), np.int8), (ai, aj)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def constrained_labels(ai: np.ndarray, aj: np.ndarray, hard: np.ndarray, strength: np.ndarray,
                       si: np.ndarray, sj: np.ndarray, sscore: np.ndarray, n: int, cut: float) -> np.ndarray:
    """Group label (0..G-1) per row. Accepted pairs (ai, aj) join their rows' groups: `hard` ones (exact
    content, URL, a stored group) always, the others strongest first, and only when the pairs the verifier
    scored across the two groups (si, sj, sscore: accepted and rejected) average at least `cut` -- so a chain
    A~B~C does not merge A and C when the verifier said A and C are clearly different jobs, yet one doubtful
    pair among several agreeing ones does not split a group. Without a scored pair below `cut` inside a
    component these are exactly its connected components; only components holding one are decided pair by
    pair (in Python, over their rows only: the cost follows the conflicts, not the input)."""
    label = component_labels(ai, aj, n)
    sscore = np.asarray(sscore, np.float64)
    inside = label[si] == label[sj]
    low = inside & (sscore < cut)
    if not low.any():
        return label
    hot = np.zeros(int(label.max()) + 1, bool)
    hot[label[si[low]]] = True
    hard = np.asarray(hard, bool)
    e = np.flatnonzero(hot[label[ai]])
    lo, hi = np.minimum(ai[e], aj[e]), np.maximum(ai[e], aj[e])
    e = e[np.lexsort((hi, lo, -np.asarray(strength, np.float64)[e], ~hard[e]))]
    parent: dict[int, int] = {}
    across: dict[int, dict[int, list[float]]] = {}  # root -> other root -> [score sum, pairs] of the pairs across
    c = np.flatnonzero(inside & hot[label[si]])
    for x, y, v in zip(si[c].tolist(), sj[c].tolist(), sscore[c].tolist(), strict=True):
        for p, q in ((x, y), (y, x)):
            acc = across.setdefault(p, {}).setdefault(q, [0.0, 0])
            acc[0] += v
            acc[1] += 1

    def find(x: int) -> int:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent[x]
        return root

    for a, b, h in zip(ai[e].tolist(), aj[e].tolist(), hard[e].tolist(), strict=True):
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        total, count = across.get(ra, {}).get(rb, (0.0, 0))
        if not h and count and total < cut * count:
            continue
        if len(across.get(ra, ())) < len(across.get(rb, ())):
            ra, rb = rb, ra
        parent[rb] = ra
        mine = across.setdefault(ra, {})
        mine.pop(rb, None)
        for z, (total, count) in across.pop(rb, {}).items():  # rb's pairs across are ra's now
            if z == ra:
                continue
            theirs = across[z]
            del theirs[rb]
            acc = mine.setdefault(z, [0.0, 0])
            acc[0] += total
            acc[1] += count
            theirs[ra] = list(acc)
    rows = np.flatnonzero(hot[label])
    key = label.astype(np.int64)
    key[rows] = len(hot) + np.fromiter((find(r) for r in rows.tolist()), np.int64, len(rows))
    return np.unique(key, return_inverse=True)[1].reshape(-1)


def unscored_chain_pairs(ai: np.ndarray, aj: np.ndarray, hard: np.ndarray, si: np.ndarray, sj: np.ndarray, n: int,
                         max_nodes: int, budget: int, fixed: np.ndarray | None = None, rank: np.ndarray | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (rows i, rows j) a chain of accepted pairs would put in one group although nobody scored them:
    the `hard` pairs' components are the nodes (their rows are one posting to the verifier), and in each
    component of the accepted pairs that joins 3 to `max_nodes` nodes, every two nodes with no scored pair
    (si, sj) between them give one pair of their first rows in a pair across nodes -- first by `rank` (per row,
    a total order the input order does not choose: the engine's earliest first_seen; default the row), so the
    same postings are asked about whichever rows they came in as (dedup's file order, the index's). `fixed` pairs (rows known
    to be together beforehand: the index's stored groups) join components but not nodes, and two nodes they
    hold together need no pair: a posting joining a stored group is asked about the members it was never
    scored with. Smallest components first, whole components while the pairs fit in `budget`: bounded work
    (at most max_nodes/2 pairs per node), and the floods (bigger components) stay as they are."""
    empty = np.zeros(0, np.int64)
    hard = np.asarray(hard, bool)
    fixed = np.zeros(len(ai), bool) if fixed is None else np.asarray(fixed, bool)
    hard = hard & ~fixed
    node = component_labels(ai[hard], aj[hard], n)
    vi, vj = ai[~hard], aj[~hard]
    keep = node[vi] != node[vj]
    vi, vj = vi[keep], vj[keep]
    if len(vi) < 2 or budget <= 0:
        return empty, empty
    rank = np.arange(n, dtype=np.int64) if rank is None else np.asarray(rank, np.int64)
    rows = np.unique(np.concatenate([vi, vj]))
    rows = rows[np.lexsort((rank[rows], node[rows]))]
    first = np.ones(len(rows), bool)
    first[1:] = node[rows][1:] != node[rows][:-1]
    rep = rows[first]  # one row per node: its first row (by rank) in a pair across nodes
    comp = component_labels(ai, aj, n)[rep]
    by = np.lexsort((rank[rep], comp))
    rep, comp = rep[by], comp[by]
    start = np.flatnonzero(np.r_[True, comp[1:] != comp[:-1]])
    size = np.diff(np.r_[start, len(comp)])
    small = (size >= 3) & (size <= max_nodes)
    if not small.any():
        return empty, empty
    start, size = start[small], size[small]
    order = np.lexsort((rank[rep[start]], size))  # fewest nodes first, then by the component's first row
    start, size = start[order], size[order]
    sa, sb = node[np.asarray(si, np.int64)], node[np.asarray(sj, np.int64)]
    seen = np.unique(np.minimum(sa, sb).astype(np.int64)[sa != sb] * n + np.maximum(sa, sb)[sa != sb])
    held = component_labels(ai[hard | fixed], aj[hard | fixed], n) if fixed.any() else None
    # whole components while their fresh pairs fit in the budget, built a block of components at a time so the
    # candidate pairs never exceed ~CHAIN_BLOCK (a flood of small chains costs no more memory than one block)
    bound = np.cumsum(size * (size - 1) // 2)
    out_a, out_b, total, c0 = [], [], 0, 0
    while c0 < len(size):
        c1 = max(c0 + 1, int(np.searchsorted(bound, (bound[c0 - 1] if c0 else 0) + max(CHAIN_BLOCK, budget),
                                             side="right")))
        st, sz = start[c0:c1], size[c0:c1]
        pos = np.repeat(st, sz) + np.arange(sz.sum()) - np.repeat(np.cumsum(sz) - sz, sz)
        later = np.repeat(st + sz, sz) - pos - 1
        p = np.repeat(pos, later)  # every pair of positions (p, q), p < q, inside each component
        q = p + np.arange(len(p)) - np.repeat(np.cumsum(later) - later, later) + 1
        a, b = rep[p], rep[q]
        na, nb = node[a], node[b]
        fresh = ~np.isin(np.minimum(na, nb).astype(np.int64) * n + np.maximum(na, nb), seen)
        if held is not None:
            fresh &= held[a] != held[b]
        per = np.bincount(np.repeat(np.arange(len(sz)), sz * (sz - 1) // 2)[fresh], minlength=len(sz))
        fits = total + np.cumsum(per) <= budget
        k = int(np.argmin(fits)) if not fits.all() else len(sz)  # components of this block that still fit
        keep = np.flatnonzero(fresh)[: int(per[:k].sum())]
        out_a.append(a[keep])
        out_b.append(b[keep])
        total += len(keep)
        if k < len(sz):
            break
        c0 = c1
    return (np.concatenate(out_a), np.concatenate(out_b)) if out_a else (empty, empty)
