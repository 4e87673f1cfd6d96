"""The graph families (paper 001, §2–§4): structure and the graph numbers known by construction."""

import numpy as np
import pytest

from regretlab.graphs import Observability
from regretlab.graphs.families import (
    FIGURE1_EDGES_1_BASED,
    directed_complete_bipartite,
    disjoint_cliques,
    figure1_graph,
    mycielski_complement,
    random_self_aware,
    strongly_observable_family,
    weakly_observable_stars,
)


def test_figure1_matches_the_caption() -> None:
    graph = figure1_graph()
    assert graph.n_arms == 7
    assert [i + 1 for i in graph.S] == [1, 2, 5, 6, 7]
    assert [i + 1 for i in graph.S_bar] == [3, 4]
    partition = graph.clique_partition
    assert partition.exact and partition.value == 2
    assert [[i + 1 for i in c] for c in partition.members] == [[1, 2], [5, 6, 7]]
    assert graph.observability is Observability.STRONG
    for j in graph.S_bar:  # S̄ nodes are observed by every other node
        assert list(graph.in_neighbors(j)) == [i for i in range(7) if i != j]
    assert graph.independence_number.value == 2
    assert len(FIGURE1_EDGES_1_BASED) == int(graph.adjacency.sum())


def test_figure1_is_a_member_of_the_strongly_observable_family() -> None:
    order = [0, 1, 4, 5, 6, 2, 3]  # family order: C_1, C_2, then S̄
    family = strongly_observable_family([2, 3], 2)
    assert np.array_equal(figure1_graph().adjacency[np.ix_(order, order)], family.adjacency)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("cross_edge_prob", [0.0, 0.3, 1.0])
def test_strongly_observable_family(seed: int, cross_edge_prob: float) -> None:
    rng = np.random.default_rng(seed)
    sizes = list(rng.integers(1, 4, size=rng.integers(1, 4)))
    n_no_loop = int(rng.integers(0, 3))
    graph = strongly_observable_family(sizes, n_no_loop, cross_edge_prob, rng=rng)
    s = sum(sizes)
    assert graph.n_arms == s + n_no_loop
    assert list(graph.S) == list(range(s)) and list(graph.S_bar) == list(range(s, s + n_no_loop))
    assert graph.observability is Observability.STRONG
    assert graph.clique_partition.value == len(sizes)
    assert graph.independence_number.value <= len(sizes) + 1  # α <= κ + 1 (§2)


def test_strongly_observable_family_validation() -> None:
    with pytest.raises(ValueError, match="Generator"):
        strongly_observable_family([2, 2], 1, cross_edge_prob=0.5)
    with pytest.raises(ValueError, match="n_no_self_loop ≥ 2 arms"):
        strongly_observable_family([1], 0)
    with pytest.raises(ValueError, match="positive"):
        strongly_observable_family([2, 0], 1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        strongly_observable_family([2], 1, cross_edge_prob=1.5, rng=np.random.default_rng(0))


def test_random_families_use_only_the_given_generator() -> None:
    np.random.seed(123)  # noqa: NPY002 (the legacy global state is what must stay untouched)
    state = np.random.get_state()[1].copy()  # noqa: NPY002
    a = random_self_aware(12, 0.4, np.random.default_rng(5))
    b = random_self_aware(12, 0.4, np.random.default_rng(5))
    c = strongly_observable_family([3, 3], 2, 0.5, rng=np.random.default_rng(5))
    d = strongly_observable_family([3, 3], 2, 0.5, rng=np.random.default_rng(5))
    assert np.array_equal(np.random.get_state()[1], state)  # noqa: NPY002
    assert np.array_equal(a.adjacency, b.adjacency) and np.array_equal(c.adjacency, d.adjacency)


def test_random_self_aware() -> None:
    graph = random_self_aware(15, 0.3, np.random.default_rng(0))
    assert graph.is_self_aware and graph.observability is Observability.STRONG
    assert 0 < graph.adjacency.sum() - 15 < 15 * 14
    bandit = random_self_aware(5, 0.0, np.random.default_rng(0))
    assert bandit.independence_number.value == bandit.clique_partition.value == 5
    full = random_self_aware(5, 1.0, np.random.default_rng(0))
    assert full.independence_number.value == full.clique_partition.value == 1


def test_disjoint_cliques() -> None:
    graph = disjoint_cliques([3, 1, 2])
    assert graph.is_self_aware
    assert graph.independence_number.value == graph.clique_partition.value == 3
    assert graph.clique_partition.members == ((0, 1, 2), (3,), (4, 5))


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_mycielski_complement_structure(k: int) -> None:
    graph = mycielski_complement(k)
    adj = graph.adjacency
    assert graph.is_self_aware and np.array_equal(adj, adj.T)
    off = adj & ~np.eye(graph.n_arms, dtype=bool)
    triangle_free = ~off & ~np.eye(graph.n_arms, dtype=bool)  # the Mycielski graph itself
    assert not np.trace(np.linalg.matrix_power(triangle_free.astype(int), 3))


def test_mycielski_complement_validation() -> None:
    with pytest.raises(ValueError, match="k must be >= 2"):
        mycielski_complement(1)


def test_weakly_observable_stars() -> None:
    graph = weakly_observable_stars([2, 1, 3])
    assert graph.n_arms == 9
    assert list(graph.S) == [0, 1, 2]
    assert graph.observability is Observability.WEAK
    assert list(graph.nodes_of_class(Observability.WEAK)) == list(range(3, 9))
    assert graph.weakly_dominating_set.value == 3 and graph.weakly_dominating_set.members == (0, 1, 2)
    assert graph.clique_partition.value == 3
    assert graph.independence_number.value == 6
    with pytest.raises(ValueError, match="≥ 3 arms"):
        weakly_observable_stars([1])


@pytest.mark.parametrize(("s", "s_bar"), [(1, 2), (3, 2), (2, 5)])
def test_directed_complete_bipartite(s: int, s_bar: int) -> None:
    graph = directed_complete_bipartite(s, s_bar)
    assert graph.s == s and graph.s_bar == s_bar
    assert graph.adjacency[np.ix_(graph.S, graph.S_bar)].all()
    assert graph.observability is Observability.WEAK
    assert graph.weakly_dominating_set.value == 1
    assert graph.clique_partition.value == s
    assert graph.independence_number.value == max(s, s_bar)


def test_directed_complete_bipartite_validation() -> None:
    with pytest.raises(ValueError, match="n_no_self_loop >= 2"):
        directed_complete_bipartite(3, 1)
