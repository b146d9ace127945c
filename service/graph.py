"""Connected components of accepted duplicate pairs: the groups of embedded dedup and recompute."""

from __future__ import annotations

import numpy as np


def component_labels(ai: np.ndarray, aj: np.ndarray, n: int) -> np.ndarray:
    """Component label per row 0..n-1 of the undirected graph with edges (ai[k], aj[k])."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(ai), np.int8), (ai, aj)), shape=(n, n))
    return connected_components(graph, directed=False)[1]
