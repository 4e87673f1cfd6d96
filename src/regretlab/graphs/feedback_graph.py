"""The directed feedback graph G = ([K], E) of paper 001, §2.

An edge ``i -> j`` (``adjacency[i, j] is True``) means that playing arm ``i`` reveals the loss of arm ``j``;
self-loops are allowed. ``N_in(j) = {i : (i, j) in E}`` is the set of arms that observe ``j``.

Everything derived from the graph — S and S̄ (§2 "Special cases"), the observability classes (§2
"Observability"), α, κ and d with their witnesses (§2, computed by :mod:`regretlab.graphs.graph_numbers`) — is
computed on first use and cached: the graph is immutable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from regretlab.graphs import graph_numbers
from regretlab.graphs.graph_numbers import GraphNumber
from regretlab.graphs.observability import Observability, classify_graph, classify_nodes

_RANK = {Observability.NONE: 0, Observability.WEAK: 1, Observability.STRONG: 2}


@dataclass(frozen=True, eq=False)
class FeedbackGraph:
    """A fixed, known feedback graph over ``K`` arms.

    Attributes:
        adjacency: ``(K, K)`` boolean matrix, ``adjacency[i, j]`` iff playing ``i`` reveals ``ℓ_j``.
    """

    adjacency: np.ndarray

    def __post_init__(self) -> None:
        adj = np.asarray(self.adjacency, dtype=bool)
        if adj.ndim != 2 or adj.shape[0] != adj.shape[1] or adj.shape[0] < 2:
            raise ValueError(f"adjacency must be a square (K, K) matrix with K >= 2, got shape {adj.shape}")
        adj = adj.copy()
        adj.setflags(write=False)
        object.__setattr__(self, "adjacency", adj)

    @classmethod
    def from_edges(cls, n_arms: int, edges: list[tuple[int, int]]) -> FeedbackGraph:
        """Build from 0-based directed edges ``(i, j)``: playing ``i`` reveals ``j``."""
        adj = np.zeros((n_arms, n_arms), dtype=bool)
        for i, j in edges:
            adj[i, j] = True
        return cls(adj)

    @property
    def n_arms(self) -> int:
        """K, the number of arms (nodes)."""
        return self.adjacency.shape[0]

    @cached_property
    def self_loops(self) -> np.ndarray:
        """S as a ``(K,)`` boolean mask: arms that observe themselves."""
        return np.diag(self.adjacency).copy()

    def in_neighbors(self, j: int) -> np.ndarray:
        """N_in(j): sorted indices of the arms whose play reveals ``ℓ_j``."""
        return np.flatnonzero(self.adjacency[:, j])

    @property
    def is_self_aware(self) -> bool:
        """True when every node has a self-loop (S = [K])."""
        return bool(self.self_loops.all())

    @cached_property
    def S(self) -> np.ndarray:
        """S: sorted indices of the arms with a self-loop (§2)."""
        return _read_only(np.flatnonzero(self.self_loops))

    @cached_property
    def S_bar(self) -> np.ndarray:
        """S̄ = [K] \\ S: sorted indices of the arms without a self-loop (§2)."""
        return _read_only(np.flatnonzero(~self.self_loops))

    @property
    def s(self) -> int:
        """s = |S|."""
        return int(self.S.size)

    @property
    def s_bar(self) -> int:
        """s̄ = |S̄|."""
        return int(self.S_bar.size)

    @cached_property
    def node_observability(self) -> tuple[Observability, ...]:
        """The §2 observability class of every node, indexed by node."""
        return classify_nodes(self.adjacency)

    @cached_property
    def observability(self) -> Observability:
        """The §2 class of the graph: strongly / weakly / not observable (mutually exclusive)."""
        return classify_graph(self.node_observability)

    def nodes_of_class(self, kind: Observability | str) -> np.ndarray:
        """Sorted indices of the nodes whose observability class is ``kind``."""
        kind = Observability(kind)
        return np.array([i for i, c in enumerate(self.node_observability) if c is kind], dtype=int)

    def require_observability(
        self, kind: Observability | str, algorithm_name: str, *, exact: bool = False
    ) -> None:
        """Raise ``ValueError`` unless the graph meets an algorithm's observability requirement (§2).

        ``kind`` is :attr:`Observability.STRONG` or :attr:`Observability.WEAK` (or their string values). By
        default it is a minimum: a strongly observable graph satisfies a ``WEAK`` requirement, since it is
        observable. With ``exact=True`` the graph's class must equal ``kind`` (e.g. for the §4 algorithms,
        whose decision set needs a non-empty weakly dominating set). The message names the algorithm, the
        required class and the offending nodes (0-based) with their classes.
        """
        kind = Observability(kind)
        if kind is Observability.NONE:
            raise ValueError("an observability requirement must be strongly or weakly observable")
        if self.observability is kind or (not exact and _RANK[self.observability] > _RANK[kind]):
            return
        required = f"a {kind.value.replace('_', ' ')} feedback graph"
        actual = self.observability.value.replace("_", " ")
        if _RANK[self.observability] > _RANK[kind]:
            reason = "every node is strongly observable, none is weakly observable"
        else:
            offending = [i for i, c in enumerate(self.node_observability) if _RANK[c] < _RANK[kind]]
            classes = ", ".join(f"{i}: {self.node_observability[i].value}" for i in offending)
            reason = f"offending nodes (0-based) {offending} — {classes}"
        raise ValueError(
            f"{algorithm_name} requires {required} (paper 001, §2), but this graph is {actual}: {reason}"
        )

    @cached_property
    def independence_number(self) -> GraphNumber:
        """α: largest independent set of G (§2); exact for K <= 20, else an upper bound (``exact=False``)."""
        return graph_numbers.independence_number(self.adjacency)

    @cached_property
    def clique_partition(self) -> GraphNumber:
        """A smallest clique partition of G_S, value κ (§2, §3.3); exact for s <= 20, else an upper bound."""
        return graph_numbers.clique_partition(self.adjacency, self.S)

    @cached_property
    def weakly_dominating_set(self) -> GraphNumber:
        """A smallest weakly dominating set, value d (§2): it observes every weakly observable node.

        Empty (d = 0) when no node is weakly observable. Exact for K <= 20, else an upper bound.
        """
        return graph_numbers.weakly_dominating_set(self.adjacency, self.nodes_of_class(Observability.WEAK))

    def to_dict(self) -> dict:
        """JSON-ready representation (the adjacency as nested lists of 0/1)."""
        return {"adjacency": self.adjacency.astype(int).tolist()}

    @classmethod
    def from_dict(cls, data: dict) -> FeedbackGraph:
        """Inverse of :meth:`to_dict`."""
        return cls(np.asarray(data["adjacency"], dtype=bool))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array
