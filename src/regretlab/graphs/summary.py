"""One-line-per-number summary of a feedback graph for instance files (paper 001, §2 notation)."""

from __future__ import annotations

from regretlab.graphs.feedback_graph import FeedbackGraph


def describe(graph: FeedbackGraph) -> dict:
    """JSON-ready summary: K, s, s̄, α, κ, d, the observability class, and whether each number is exact.

    A number with ``*_exact = False`` is an upper bound from a heuristic (see
    :mod:`regretlab.graphs.graph_numbers`).
    """
    alpha, kappa, d = graph.independence_number, graph.clique_partition, graph.weakly_dominating_set
    return {
        "K": graph.n_arms,
        "s": graph.s,
        "s_bar": graph.s_bar,
        "alpha": alpha.value,
        "kappa": kappa.value,
        "d": d.value,
        "observability": graph.observability.value,
        "alpha_exact": alpha.exact,
        "kappa_exact": kappa.exact,
        "d_exact": d.exact,
    }
