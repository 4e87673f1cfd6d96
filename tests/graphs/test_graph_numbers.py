"""α, κ, d (paper 001, §2) against brute force, witness validity, and the heuristics above 20 nodes."""

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.graphs import EXACT_MAX_NODES, FeedbackGraph, Observability
from regretlab.graphs import graph_numbers as gn
from regretlab.graphs.families import (
    mycielski_complement,
    random_self_aware,
    strongly_observable_family,
    weakly_observable_stars,
)

# Brute-force references: the §2 definitions verbatim, for K <= 8.


def in_neighbours(adj: np.ndarray, i: int) -> set[int]:
    return {j for j in range(adj.shape[0]) if adj[j, i]}


def node_class(adj: np.ndarray, i: int) -> str:
    n_in = in_neighbours(adj, i)
    if not n_in:
        return "not_observable"
    if i in n_in or n_in == set(range(adj.shape[0])) - {i}:
        return "strongly_observable"
    return "weakly_observable"


def alpha(adj: np.ndarray) -> int:
    k = adj.shape[0]
    for size in range(k, 0, -1):
        for subset in itertools.combinations(range(k), size):
            if not any(adj[i, j] for i in subset for j in subset if i != j):
                return size
    return 0


def is_clique(adj: np.ndarray, nodes: tuple[int, ...] | list[int]) -> bool:
    return all(adj[i, j] for i in nodes for j in nodes if i != j)


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for b in range(len(partition)):
            yield [*partition[:b], [first, *partition[b]], *partition[b + 1 :]]


def kappa(adj: np.ndarray) -> int:
    s_nodes = [i for i in range(adj.shape[0]) if adj[i, i]]
    return min(len(p) for p in set_partitions(s_nodes) if all(is_clique(adj, block) for block in p))


def weak_domination(adj: np.ndarray) -> int:
    k = adj.shape[0]
    weak = [i for i in range(k) if node_class(adj, i) == "weakly_observable"]
    for size in range(k + 1):
        for subset in itertools.combinations(range(k), size):
            if all(in_neighbours(adj, i) & set(subset) for i in weak):
                return size
    raise AssertionError("the whole node set always dominates the weakly observable nodes")


@st.composite
def small_graphs(draw) -> FeedbackGraph:
    """Random directed graphs, K in 2..8, with any edge density and random self-loops."""
    k = draw(st.integers(2, 8))
    density = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]))
    seed = draw(st.integers(0, 2**32 - 1))
    return FeedbackGraph(np.random.default_rng(seed).random((k, k)) < density)


def assert_valid_independent_set(graph: FeedbackGraph, members: tuple) -> None:
    assert len(set(members)) == len(members)
    assert not any(graph.adjacency[i, j] for i in members for j in members if i != j)


def assert_valid_clique_partition(graph: FeedbackGraph, cliques: tuple) -> None:
    assert sorted(i for c in cliques for i in c) == list(graph.S)
    assert all(is_clique(graph.adjacency, c) for c in cliques)


def assert_valid_weakly_dominating_set(graph: FeedbackGraph, members: tuple) -> None:
    for j in graph.nodes_of_class(Observability.WEAK):
        assert in_neighbours(graph.adjacency, int(j)) & set(members)


@settings(max_examples=150, deadline=None)
@given(small_graphs())
def test_numbers_match_brute_force(graph: FeedbackGraph) -> None:
    adj = graph.adjacency
    assert [c.value for c in graph.node_observability] == [node_class(adj, i) for i in range(graph.n_arms)]
    a, c, d = graph.independence_number, graph.clique_partition, graph.weakly_dominating_set
    assert a.exact and c.exact and d.exact
    assert a.value == alpha(adj) == len(a.members)
    assert c.value == kappa(adj) == len(c.members)
    assert d.value == weak_domination(adj) == len(d.members)
    assert_valid_independent_set(graph, a.members)
    assert_valid_clique_partition(graph, c.members)
    assert_valid_weakly_dominating_set(graph, d.members)


def test_one_way_edges_are_not_cliques_but_break_independence() -> None:
    # 0 -> 1 only: {0, 1} is neither independent (an edge exists) nor a clique (the reverse edge is missing).
    graph = FeedbackGraph.from_edges(2, [(0, 0), (1, 1), (0, 1)])
    assert graph.independence_number.value == 1
    assert graph.clique_partition.members == ((0,), (1,))


def test_empty_s_and_no_weak_nodes_give_zero() -> None:
    loopless_clique = FeedbackGraph(~np.eye(3, dtype=bool))
    assert loopless_clique.observability is Observability.STRONG
    assert loopless_clique.clique_partition == gn.GraphNumber(0, (), exact=True)
    assert loopless_clique.weakly_dominating_set == gn.GraphNumber(0, (), exact=True)
    assert loopless_clique.independence_number.value == 1


def test_weakly_dominating_set_rejects_unobservable_targets() -> None:
    adj = np.zeros((3, 3), dtype=bool)
    with pytest.raises(ValueError, match=r"nodes \[1\]"):
        gn.weakly_dominating_set(adj, np.array([1]))


def test_heuristics_above_the_limit_are_flagged_upper_bounds() -> None:
    rng = np.random.default_rng(2024)
    graphs = [
        random_self_aware(24, 0.3, rng),
        random_self_aware(26, 0.6, rng),
        strongly_observable_family([5, 4, 6, 3, 4], 2, cross_edge_prob=0.5, rng=rng),
    ]
    for graph in graphs:
        assert graph.n_arms > EXACT_MAX_NODES
        for heuristic, exact in [
            (graph.independence_number, gn.independence_number(graph.adjacency, exact_limit=64)),
            (graph.clique_partition, gn.clique_partition(graph.adjacency, graph.S, exact_limit=64)),
        ]:
            assert not heuristic.exact and exact.exact
            assert heuristic.value >= exact.value
        assert_valid_independent_set(graph, graph.independence_number.members)
        assert len(graph.independence_number.members) <= graph.independence_number.value
        assert_valid_clique_partition(graph, graph.clique_partition.members)
        assert len(graph.clique_partition.members) == graph.clique_partition.value


def test_weak_domination_heuristic_above_the_limit() -> None:
    rng = np.random.default_rng(11)
    adj = rng.random((24, 24)) < 0.1
    np.fill_diagonal(adj, rng.random(24) < 0.3)
    for j in np.flatnonzero(~adj.any(axis=0)):  # make every node observable
        adj[(j + 1) % 24, j] = True
    graph = FeedbackGraph(adj)
    assert graph.observability is Observability.WEAK
    heuristic = graph.weakly_dominating_set
    exact = gn.weakly_dominating_set(adj, graph.nodes_of_class(Observability.WEAK), exact_limit=64)
    assert not heuristic.exact and exact.exact
    assert heuristic.value >= exact.value
    assert_valid_weakly_dominating_set(graph, heuristic.members)


def test_stars_have_known_weak_domination_above_the_limit() -> None:
    graph = weakly_observable_stars([3] * 6)
    assert graph.n_arms == 24
    assert graph.weakly_dominating_set == gn.GraphNumber(6, tuple(range(6)), exact=False)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_mycielski_complement_exact(k: int) -> None:
    graph = mycielski_complement(k)
    assert graph.n_arms == 3 * 2 ** (k - 2) - 1
    assert graph.is_self_aware
    assert graph.independence_number.exact and graph.clique_partition.exact
    assert graph.independence_number.value <= 2
    assert graph.clique_partition.value == k
    assert_valid_clique_partition(graph, graph.clique_partition.members)


def test_mycielski_complement_above_the_limit() -> None:
    graph = mycielski_complement(5)  # 23 nodes: heuristics by default, exact when asked
    assert not graph.independence_number.exact and not graph.clique_partition.exact
    assert graph.independence_number.value == 2  # the split clique-cover bound is tight here
    assert graph.clique_partition.value >= 5
    assert gn.clique_partition(graph.adjacency, graph.S, exact_limit=23).value == 5
    assert gn.independence_number(graph.adjacency, exact_limit=23).value == 2
