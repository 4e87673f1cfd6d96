"""A bandit instance: a feedback graph, a loss environment, and the graph numbers the theorems use."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from regretlab.bandits.environments import (
    Environment,
    MinimaxGap,
    StochasticBernoulli,
    SwitchingAdversary,
    environment_from_dict,
)
from regretlab.graphs import families
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.summary import describe

#: Graph families an instance spec may name → the builder taking (spec, rng). The schema lists the same names.
GRAPH_FAMILIES = {
    "disjoint_cliques": lambda spec, rng: families.disjoint_cliques(spec["clique_sizes"]),
    "figure1": lambda spec, rng: families.figure1_graph(),
    "strongly_observable": lambda spec, rng: families.strongly_observable_family(
        spec["clique_sizes"], spec["n_no_self_loop"]
    ),
    "random_self_aware": lambda spec, rng: families.random_self_aware(spec["n_arms"], spec["edge_prob"], rng),
    "mycielski_complement": lambda spec, rng: families.mycielski_complement(spec["k"]),
}
#: Loss environments an instance spec may name. The schema lists the same names.
LOSS_KINDS = ("bernoulli", "switching", "minimax")


@dataclass(frozen=True)
class BanditInstance:
    """What a run needs: the graph G, the environment, and G's numbers (:func:`regretlab.graphs.describe`)."""

    graph: FeedbackGraph
    environment: Environment
    numbers: dict

    def to_dict(self) -> dict:
        """JSON-ready representation (the instance file of the workflow)."""
        return {"graph": self.graph.to_dict(), "losses": self.environment.to_dict(), "numbers": self.numbers}

    def at_horizon(self, horizon: int) -> BanditInstance:
        """The instance a run at horizon T plays: the same graph and draw, the environment resolved for T
        (only :class:`~regretlab.bandits.environments.MinimaxGap` changes, through its gap ε(T))."""
        return BanditInstance(self.graph, self.environment.at_horizon(horizon), self.numbers)

    @classmethod
    def from_dict(cls, data: dict) -> BanditInstance:
        """Inverse of :meth:`to_dict`."""
        return cls(
            FeedbackGraph.from_dict(data["graph"]),
            environment_from_dict(data["losses"]),
            dict(data["numbers"]),
        )


def build_environment(spec: dict, n_arms: int, best_arm: int, alpha: int) -> Environment:
    """The loss environment of a validated ``losses`` config entry (``alpha``: the graph's independence
    number, which sets a minimax instance's gap)."""
    if spec["kind"] == "bernoulli":
        return StochasticBernoulli.with_best_arm(n_arms, best_arm, spec["best_mean"], spec["gap"])
    if spec["kind"] == "switching":
        return SwitchingAdversary(n_arms, best_arm, spec["best_mean"], spec["decoy_mean"], spec["period"])
    if spec["kind"] == "minimax":
        return MinimaxGap(n_arms, best_arm, spec["best_mean"], spec["gap_constant"], alpha)
    raise ValueError(f"losses.kind must be one of {list(LOSS_KINDS)}, got {spec['kind']!r}")


def build_instance(spec: dict, rng: np.random.Generator) -> BanditInstance:
    """Build an instance from a validated config entry ``{"graph": {...}, "losses": {...}}``.

    Random graph families draw from ``rng`` (the instance's own SeedSequence); then the best arm is drawn
    uniformly from ``rng``, so that no tie-breaking towards low indices can favour a learner.
    """
    family = spec["graph"]["family"]
    if family not in GRAPH_FAMILIES:
        raise ValueError(f"graph.family must be one of {sorted(GRAPH_FAMILIES)}, got {family!r}")
    graph = GRAPH_FAMILIES[family](spec["graph"], rng)
    best_arm = int(rng.integers(graph.n_arms))
    numbers = describe(graph)
    environment = build_environment(spec["losses"], graph.n_arms, best_arm, int(numbers["alpha"]))
    return BanditInstance(graph, environment, numbers)
