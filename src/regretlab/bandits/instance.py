"""A bandit instance: a feedback graph, a loss environment, and the graph numbers the theorems use."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from regretlab.bandits.environments import StochasticBernoulli, environment_from_dict
from regretlab.graphs.families import disjoint_cliques
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.summary import describe

#: Graph families an instance spec may name.
GRAPH_FAMILIES = ("disjoint_cliques",)
#: Loss environments an instance spec may name.
LOSS_KINDS = ("bernoulli",)


@dataclass(frozen=True)
class BanditInstance:
    """What a run needs: the graph G, the environment, and G's numbers (:func:`regretlab.graphs.describe`)."""

    graph: FeedbackGraph
    environment: StochasticBernoulli
    numbers: dict

    def to_dict(self) -> dict:
        """JSON-ready representation (the instance file of the workflow)."""
        return {"graph": self.graph.to_dict(), "losses": self.environment.to_dict(), "numbers": self.numbers}

    @classmethod
    def from_dict(cls, data: dict) -> BanditInstance:
        """Inverse of :meth:`to_dict`."""
        return cls(
            FeedbackGraph.from_dict(data["graph"]),
            environment_from_dict(data["losses"]),
            dict(data["numbers"]),
        )


def build_instance(spec: dict, rng: np.random.Generator) -> BanditInstance:
    """Build an instance from a validated config entry ``{"graph": {...}, "losses": {...}}``.

    The best arm is drawn uniformly from ``rng`` (the instance's own SeedSequence), so that nothing about the
    learner's tie-breaking towards low indices can favour it.
    """
    graph_spec, loss_spec = spec["graph"], spec["losses"]
    if graph_spec["family"] != "disjoint_cliques":
        raise ValueError(f"graph.family must be one of {list(GRAPH_FAMILIES)}, got {graph_spec['family']!r}")
    graph = disjoint_cliques(graph_spec["clique_sizes"])
    numbers = describe(graph)
    if loss_spec["kind"] != "bernoulli":
        raise ValueError(f"losses.kind must be one of {list(LOSS_KINDS)}, got {loss_spec['kind']!r}")
    best_arm = int(rng.integers(graph.n_arms))
    env = StochasticBernoulli.with_best_arm(graph.n_arms, best_arm, loss_spec["best_mean"], loss_spec["gap"])
    return BanditInstance(graph, env, numbers)
