"""FeedbackGraph: S/S̄ (paper 001, §2), caching, serialisation, and ``describe``."""

import json

import numpy as np
import pytest

from regretlab.graphs import FeedbackGraph, describe
from regretlab.graphs.families import (
    directed_complete_bipartite,
    disjoint_cliques,
    figure1_graph,
    mycielski_complement,
    random_self_aware,
    weakly_observable_stars,
)

GRAPHS = {
    "figure1": figure1_graph,
    "cliques": lambda: disjoint_cliques([2, 3]),
    "random": lambda: random_self_aware(9, 0.4, np.random.default_rng(1)),
    "mycielski5": lambda: mycielski_complement(5),
    "stars": lambda: weakly_observable_stars([2, 2]),
    "bipartite": lambda: directed_complete_bipartite(2, 3),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_to_dict_round_trip(name: str) -> None:
    graph = GRAPHS[name]()
    data = json.loads(json.dumps(graph.to_dict()))
    again = FeedbackGraph.from_dict(data)
    assert np.array_equal(again.adjacency, graph.adjacency)
    assert describe(again) == describe(graph)


@pytest.mark.parametrize("name", GRAPHS)
def test_s_and_s_bar_partition_the_nodes(name: str) -> None:
    graph = GRAPHS[name]()
    assert sorted([*graph.S, *graph.S_bar]) == list(range(graph.n_arms))
    assert graph.s + graph.s_bar == graph.n_arms
    assert all(graph.adjacency[i, i] for i in graph.S) and not any(graph.adjacency[i, i] for i in graph.S_bar)
    with pytest.raises(ValueError):
        graph.S[...] = 0


def test_numbers_are_cached() -> None:
    graph = figure1_graph()
    assert graph.independence_number is graph.independence_number
    assert graph.clique_partition is graph.clique_partition
    assert graph.weakly_dominating_set is graph.weakly_dominating_set
    assert graph.observability is graph.observability


def test_describe_figure1() -> None:
    summary = describe(figure1_graph())
    assert summary == {
        "K": 7,
        "s": 5,
        "s_bar": 2,
        "alpha": 2,
        "kappa": 2,
        "d": 0,
        "observability": "strongly_observable",
        "alpha_exact": True,
        "kappa_exact": True,
        "d_exact": True,
    }
    json.dumps(summary)


def test_describe_flags_heuristics() -> None:
    summary = describe(mycielski_complement(5))
    assert summary["K"] == 23 and summary["kappa"] >= 5 and summary["alpha"] >= 2
    assert summary["alpha_exact"] is False and summary["kappa_exact"] is False
    assert summary["d"] == 0 and summary["d_exact"] is True  # no weakly observable node: d = 0 trivially
