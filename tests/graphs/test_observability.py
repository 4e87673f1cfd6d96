"""Observability classes on hand-made graphs and ``require_observability`` (paper 001, §2 "Observability")."""

import numpy as np
import pytest

from regretlab.graphs import FeedbackGraph, Observability
from regretlab.graphs.families import directed_complete_bipartite, figure1_graph

STRONG, WEAK, NONE = Observability.STRONG, Observability.WEAK, Observability.NONE


def mixed_graph() -> FeedbackGraph:
    """0 has a self-loop; 1 (no loop) is seen by all others; 2 (no loop) only by 0; nobody sees 3."""
    return FeedbackGraph.from_edges(4, [(0, 0), (0, 1), (2, 1), (3, 1), (0, 2)])


@pytest.mark.parametrize(
    ("edges", "n_arms", "node_classes", "graph_class"),
    [
        ([(0, 0), (1, 1), (2, 2)], 3, [STRONG] * 3, STRONG),  # multi-armed bandit: self-loops only
        ([(0, 1), (1, 0)], 2, [STRONG, STRONG], STRONG),  # loopless, each seen by the only other node
        ([(0, 0), (0, 1), (1, 1)], 2, [STRONG, STRONG], STRONG),
        ([(0, 1), (0, 2), (1, 0), (2, 0)], 3, [STRONG, WEAK, WEAK], WEAK),  # revealing node 0 is seen by all
        ([(0, 0), (0, 1), (0, 2)], 3, [STRONG, WEAK, WEAK], WEAK),  # directed complete bipartite, s̄ = 2
        ([(0, 0), (0, 1), (0, 2), (1, 2), (2, 1)], 3, [STRONG, STRONG, STRONG], STRONG),
        ([(0, 0), (1, 1)], 3, [STRONG, STRONG, NONE], NONE),
        ([(1, 0), (0, 0)], 2, [STRONG, NONE], NONE),
    ],
)
def test_hand_made_classes(edges, n_arms, node_classes, graph_class) -> None:
    graph = FeedbackGraph.from_edges(n_arms, edges)
    assert graph.node_observability == tuple(node_classes)
    assert graph.observability is graph_class


def test_mixed_graph_classes_and_node_sets() -> None:
    graph = mixed_graph()
    assert graph.node_observability == (STRONG, STRONG, WEAK, NONE)
    assert graph.observability is NONE
    assert list(graph.nodes_of_class(WEAK)) == [2]
    assert list(graph.nodes_of_class("not_observable")) == [3]


def test_observability_values_are_string_constants() -> None:
    assert STRONG == "strongly_observable" and WEAK == "weakly_observable" and NONE == "not_observable"


def test_requirement_met() -> None:
    graph = figure1_graph()
    graph.require_observability(STRONG, "Algorithm 1")
    graph.require_observability("strongly_observable", "Algorithm 1", exact=True)
    graph.require_observability(WEAK, "Exp3.G")  # a strongly observable graph is observable
    directed_complete_bipartite(2, 3).require_observability(WEAK, "Algorithm 2", exact=True)


def test_strong_requirement_names_algorithm_class_and_nodes() -> None:
    graph = directed_complete_bipartite(2, 3)
    with pytest.raises(ValueError) as info:
        graph.require_observability(STRONG, "Algorithm 1 (§3.3)")
    message = str(info.value)
    assert "Algorithm 1 (§3.3)" in message
    assert "requires a strongly observable feedback graph" in message
    assert "this graph is weakly observable" in message
    assert "[2, 3, 4]" in message and "2: weakly_observable" in message


def test_weak_requirement_reports_unobservable_nodes() -> None:
    with pytest.raises(ValueError, match=r"Algorithm 2 requires a weakly .* not observable.*\[3\]"):
        mixed_graph().require_observability(WEAK, "Algorithm 2")


def test_exact_weak_requirement_rejects_strongly_observable_graph() -> None:
    with pytest.raises(ValueError, match="Algorithm 2 requires a weakly observable.*is strongly observable"):
        figure1_graph().require_observability(WEAK, "Algorithm 2", exact=True)


def test_bad_requirement_kinds() -> None:
    graph = FeedbackGraph(np.eye(2, dtype=bool))
    with pytest.raises(ValueError, match="must be strongly or weakly observable"):
        graph.require_observability(NONE, "X")
    with pytest.raises(ValueError):
        graph.require_observability("observable-ish", "X")
