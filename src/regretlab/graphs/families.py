"""Families of feedback graphs used by the regimes (paper 001, §2–§4).

Every constructor takes explicit parameters; the random ones also take a ``numpy.random.Generator`` and never
touch global random state. Nodes are 0-based. Where a family's graph numbers are known by construction the
docstring states them (the tests check them against the solvers of :mod:`regretlab.graphs.graph_numbers`).
"""

from __future__ import annotations

import numpy as np

from regretlab.graphs.feedback_graph import FeedbackGraph

#: Directed edges of :func:`figure1_graph` in the paper's 1-based labels (see its docstring).
FIGURE1_EDGES_1_BASED: tuple[tuple[int, int], ...] = (
    # self-loops on S = {1, 2, 5, 6, 7}
    (1, 1), (2, 2), (5, 5), (6, 6), (7, 7),
    # clique C_1 = {1, 2}: both directions
    (1, 2), (2, 1),
    # clique C_2 = {5, 6, 7}: both directions
    (5, 6), (6, 5), (5, 7), (7, 5), (6, 7), (7, 6),
    # S̄ = {3, 4}: each observed by all six other nodes
    (1, 3), (2, 3), (4, 3), (5, 3), (6, 3), (7, 3),
    (1, 4), (2, 4), (3, 4), (5, 4), (6, 4), (7, 4),
)  # fmt: skip


def disjoint_cliques(clique_sizes: list[int]) -> FeedbackGraph:
    """Disjoint union of cliques, every node with a self-loop (a self-aware graph).

    Inside a clique every arm observes every other arm and itself; across cliques nothing is observed.
    Its independence number is ``len(clique_sizes)`` (one arm per clique).
    """
    if not clique_sizes or min(clique_sizes) < 1 or sum(clique_sizes) < 2:
        raise ValueError(
            f"clique_sizes must be a non-empty list of positive integers giving K = sum ≥ 2 arms, "
            f"got {clique_sizes}"
        )
    n_arms = int(sum(clique_sizes))
    adj = np.zeros((n_arms, n_arms), dtype=bool)
    start = 0
    for size in clique_sizes:
        adj[start : start + size, start : start + size] = True
        start += size
    return FeedbackGraph(adj)


def random_self_aware(n_arms: int, edge_prob: float, rng: np.random.Generator) -> FeedbackGraph:
    """Erdős–Rényi-style self-aware graph (§2 "Special cases": S = [K]).

    Every ordered pair ``(i, j)``, ``i != j``, is an edge independently with probability ``edge_prob``; every
    node has a self-loop, so the graph is strongly observable.
    """
    if n_arms < 2:
        raise ValueError(f"n_arms must be at least 2, got {n_arms}")
    _check_probability(edge_prob, "edge_prob")
    adj = rng.random((n_arms, n_arms)) < edge_prob
    np.fill_diagonal(adj, True)
    return FeedbackGraph(adj)


def figure1_graph() -> FeedbackGraph:
    """The 7-node graph of Figure 1 (§3.3), relabelled 0-based (paper node ``i`` is node ``i - 1``).

    The paper states only S = {1, 2, 5, 6, 7}, S̄ = {3, 4} and that C_1 = {1, 2}, C_2 = {5, 6, 7} is a minimum
    clique partition of G_S (κ = 2); Algorithm 1, which it illustrates, needs a strongly observable graph.
    The edge set is reconstructed as the smallest one forced by these facts (:data:`FIGURE1_EDGES_1_BASED`):

    * self-loops on S (definition of S) and none on S̄;
    * both directions inside C_1 and inside C_2 (they are cliques);
    * every other node observes 3 and 4 (S̄ nodes are strongly observable only if N_in(i) = [K] \\ {i}),
      which includes the edges 3 -> 4 and 4 -> 3;
    * nothing else — in particular no edge between C_1 and C_2, so C_1 ∪ C_2 is not a clique and κ = 2.

    Hence α = 2 (one node of each clique; 3 and 4 are adjacent to every node). Any extra edges the drawing may
    have cannot change S, S̄, strong observability, or κ unless they make C_1 ∪ C_2 a clique.
    """
    return FeedbackGraph.from_edges(7, [(i - 1, j - 1) for i, j in FIGURE1_EDGES_1_BASED])


def strongly_observable_family(
    clique_sizes: list[int],
    n_no_self_loop: int,
    cross_edge_prob: float = 0.0,
    rng: np.random.Generator | None = None,
) -> FeedbackGraph:
    """General strongly observable graph with self-loop-free nodes (§2, §3.3; Figure 1 is ``([2, 3], 2)``
    up to relabelling).

    Nodes ``0 .. s-1`` form the cliques of ``clique_sizes`` in order (self-loops, both directions inside a
    clique); the last ``n_no_self_loop`` nodes form S̄ and each is observed by every other node, so the graph
    is strongly observable. With ``cross_edge_prob > 0`` (then ``rng`` is required) extra edges are drawn
    independently: for every pair of S nodes in different cliques, one edge in a uniformly random direction;
    for every S̄ node ``j`` and S node ``i``, the edge ``j -> i``. Cross edges are never reciprocated, so the
    cliques stay a *minimum* clique partition of G_S: κ = ``len(clique_sizes)``, and α <= κ + 1.
    """
    if any(size < 1 for size in clique_sizes) or n_no_self_loop < 0:
        raise ValueError(
            f"clique_sizes must be positive and n_no_self_loop ≥ 0, got {clique_sizes}, {n_no_self_loop}"
        )
    _check_probability(cross_edge_prob, "cross_edge_prob")
    if cross_edge_prob > 0 and rng is None:
        raise ValueError("cross_edge_prob > 0 needs a numpy.random.Generator `rng`")
    s = int(sum(clique_sizes))
    n_arms = s + n_no_self_loop
    if n_arms < 2:
        raise ValueError(
            f"clique_sizes and n_no_self_loop must give K = sum(clique_sizes) + n_no_self_loop ≥ 2 arms, got "
            f"{clique_sizes} and {n_no_self_loop}"
        )
    clique_of = np.repeat(np.arange(len(clique_sizes)), clique_sizes)
    adj = np.zeros((n_arms, n_arms), dtype=bool)
    adj[:s, :s] = clique_of[:, None] == clique_of[None, :]
    adj[:, s:] = True
    adj[s:, s:] &= ~np.eye(n_no_self_loop, dtype=bool)
    if cross_edge_prob > 0:
        across = np.triu(clique_of[:, None] != clique_of[None, :])
        drawn = across & (rng.random((s, s)) < cross_edge_prob)
        forward = rng.random((s, s)) < 0.5
        adj[:s, :s] |= drawn & forward
        adj[:s, :s] |= (drawn & ~forward).T
        adj[s:, :s] |= rng.random((n_no_self_loop, s)) < cross_edge_prob
    return FeedbackGraph(adj)


def mycielski_complement(k: int) -> FeedbackGraph:
    """Self-aware graph with α = 2 but κ = k: the complement of the Mycielski graph M_k (§3.4, α ≤ κ).

    M_k (``networkx.mycielski_graph(k)``, ``3·2^(k-2) - 1`` nodes for ``k >= 2``) is triangle-free with
    chromatic number k. Here ``i -> j`` and ``j -> i`` whenever ``{i, j}`` is *not* an edge of M_k, plus all
    self-loops. Cliques of this graph are independent sets of M_k, so κ = χ(M_k) = k; independent sets are
    cliques of M_k, so α = ω(M_k) = 2. This separates √(αT) from √(κL*) as k grows.
    """
    if k < 2:
        raise ValueError(f"k must be >= 2 (M_1 has a single node), got {k}")
    import networkx as nx  # here, not at the top: a run job imports this module and never builds a graph

    mycielski = nx.to_numpy_array(nx.mycielski_graph(k), dtype=bool)
    return FeedbackGraph(~mycielski)


def weakly_observable_stars(leaf_counts: list[int]) -> FeedbackGraph:
    """Weakly observable graph with d = ``len(leaf_counts)`` (§2 "Weakly dominating sets", §4).

    One star per entry: a hub with a self-loop (nodes ``0 .. m-1``) observing its ``leaf_counts[g]`` leaves,
    which have no self-loop and no other in-neighbour (they follow the hubs, star by star). Every leaf is
    weakly observable and is observed only by its hub, so the hubs are the unique minimum weakly dominating
    set: d = m. Also κ = m (hubs are not adjacent) and α = ``sum(leaf_counts)``. Needs K >= 3 (with two nodes
    the single leaf would be observed by all others, hence strongly observable).
    """
    if not leaf_counts or min(leaf_counts) < 1:
        raise ValueError(f"leaf_counts must be a non-empty list of positive integers, got {leaf_counts}")
    m = len(leaf_counts)
    n_arms = m + int(sum(leaf_counts))
    if n_arms < 3:
        raise ValueError(
            f"leaf_counts must give K = len(leaf_counts) + sum(leaf_counts) ≥ 3 arms (hubs and leaves; with "
            f"2 the leaf is strongly observable), got {leaf_counts}"
        )
    adj = np.zeros((n_arms, n_arms), dtype=bool)
    adj[np.arange(m), np.arange(m)] = True
    adj[np.repeat(np.arange(m), leaf_counts), np.arange(m, n_arms)] = True
    return FeedbackGraph(adj)


def directed_complete_bipartite(n_self_loop: int, n_no_self_loop: int) -> FeedbackGraph:
    """Directed complete bipartite graph (§2 "Special cases", §4 Theorem 7), with no further edges.

    Nodes ``0 .. s-1`` have a self-loop (S), nodes ``s .. K-1`` do not (S̄), and ``(i, j) ∈ E`` for every
    ``i ∈ S``, ``j ∈ S̄``. The paper treats it as a weakly observable graph, which holds iff ``s >= 1`` and
    ``s̄ >= 2`` (with ``s̄ = 1`` the S̄ node is observed by all others, hence strongly observable); other
    values are rejected. Graph numbers: d = 1 (any S node), κ = s, α = max(s, s̄).
    """
    if n_self_loop < 1 or n_no_self_loop < 2:
        raise ValueError(
            "a (weakly observable) directed complete bipartite graph needs n_self_loop >= 1 and "
            f"n_no_self_loop >= 2, got {n_self_loop}, {n_no_self_loop}"
        )
    n_arms = n_self_loop + n_no_self_loop
    adj = np.zeros((n_arms, n_arms), dtype=bool)
    adj[np.arange(n_self_loop), np.arange(n_self_loop)] = True
    adj[:n_self_loop, n_self_loop:] = True
    return FeedbackGraph(adj)


def _check_probability(p: float, name: str) -> None:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {p}")
