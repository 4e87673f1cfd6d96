"""Observability classes of nodes and graphs (paper 001, §2, "Observability").

A node ``i`` is *observable* if ``N_in(i) != ∅``. An observable node is *strongly observable* if
``i ∈ N_in(i)`` or ``N_in(i) = [K] \\ {i}``, and *weakly observable* otherwise. A graph is observable if all
its nodes are; an observable graph is strongly observable if all its nodes are, and weakly observable
otherwise. The classes of a graph are therefore mutually exclusive.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np


class Observability(StrEnum):
    """Observability class of a node or of a whole graph (§2); the values double as string constants."""

    STRONG = "strongly_observable"
    WEAK = "weakly_observable"
    NONE = "not_observable"


def classify_nodes(adjacency: np.ndarray) -> tuple[Observability, ...]:
    """The §2 class of every node of the graph with boolean ``adjacency`` (``[i, j]``: i observes j)."""
    adj = np.asarray(adjacency, dtype=bool)
    n = adj.shape[0]
    observed_by_all_others = (adj | np.eye(n, dtype=bool)).all(axis=0)
    classes = []
    for j in range(n):
        if not adj[:, j].any():
            classes.append(Observability.NONE)
        elif adj[j, j] or observed_by_all_others[j]:
            classes.append(Observability.STRONG)
        else:
            classes.append(Observability.WEAK)
    return tuple(classes)


def classify_graph(node_classes: tuple[Observability, ...]) -> Observability:
    """The §2 class of a graph from the classes of its nodes."""
    if Observability.NONE in node_classes:
        return Observability.NONE
    if Observability.WEAK in node_classes:
        return Observability.WEAK
    return Observability.STRONG
