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
from regretlab.bandits.lower_bound import Theorem5Construction, theorem5_pair
from regretlab.core.io import write_json
from regretlab.core.seeding import job_seed_sequence
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
    "directed_complete_bipartite": lambda spec, rng: families.directed_complete_bipartite(
        spec["n_self_loop"], spec["n_no_self_loop"]
    ),
    "weakly_observable_stars": lambda spec, rng: families.weakly_observable_stars(spec["leaf_counts"]),
}
#: Loss environments an instance spec may name. The schema lists the same names.
LOSS_KINDS = ("bernoulli", "switching", "minimax", "bernoulli_parts", "theorem5")


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


def parts_means(spec: dict, in_s: np.ndarray, best_arm: int) -> tuple[float, ...]:
    """Bernoulli means of a ``bernoulli_parts`` entry (paper 001 §4): ``best_mean`` on ``best_arm``,
    ``S_mean`` on the other nodes with a self-loop, ``S_bar_mean`` on the other nodes without one."""
    means = np.where(in_s, spec["S_mean"], spec["S_bar_mean"]).astype(float)
    means[best_arm] = spec["best_mean"]
    return tuple(float(m) for m in means)


def best_arm_candidates(spec: dict, graph: FeedbackGraph) -> np.ndarray:
    """The nodes a ``bernoulli_parts`` entry draws its best arm from: those of the part ``best_in`` (S: nodes
    with a self-loop; S_bar: without) that are (``best_in_D``) or are not in the graph's minimum weakly
    dominating set D — where the best arm sits relative to D changes what exploring D costs (Exp3.G-weak,
    paper 001 §4); all of the part when ``best_in_D`` is omitted. Raises ValueError naming the field when
    there is none."""
    part = graph.S if spec["best_in"] == "S" else graph.S_bar
    if part.size == 0:
        other = "S_bar" if spec["best_in"] == "S" else "S"
        raise ValueError(
            f"best_in = {spec['best_in']!r} names an empty part of this graph; allowed: {other!r}"
        )
    if "best_in_D" not in spec:
        return part
    in_d = np.isin(part, list(graph.weakly_dominating_set.members))
    candidates = part[in_d] if spec["best_in_D"] else part[~in_d]
    if candidates.size == 0:
        where = "in" if spec["best_in_D"] else "outside"
        raise ValueError(
            f"best_in_D = {spec['best_in_D']} but no node of {spec['best_in']} is {where} "
            f"D = {sorted(graph.weakly_dominating_set.members)}; allowed here: {not spec['best_in_D']}"
        )
    return candidates


def draw_best_arm(spec: dict, graph: FeedbackGraph, rng: np.random.Generator) -> int | None:
    """The best arm of a ``losses`` entry, uniform over the arms so that no tie-breaking towards low
    indices can favour a learner — for ``bernoulli_parts`` uniform over :func:`best_arm_candidates`; None for
    Theorem 5's construction, which fixes its arms (App. E.1)."""
    if spec["kind"] == "theorem5":
        return None
    if spec["kind"] != "bernoulli_parts":
        return int(rng.integers(graph.n_arms))
    return int(rng.choice(best_arm_candidates(spec, graph)))


def build_environment(spec: dict, graph: FeedbackGraph, best_arm: int | None) -> Environment:
    """The loss environment of a validated ``losses`` config entry on ``graph`` (whose independence number
    sets a minimax instance's gap, and whose S/S̄ split a ``bernoulli_parts`` instance's means)."""
    n_arms = graph.n_arms
    if spec["kind"] == "bernoulli":
        return StochasticBernoulli.with_best_arm(n_arms, best_arm, spec["best_mean"], spec["gap"])
    if spec["kind"] == "switching":
        return SwitchingAdversary(n_arms, best_arm, spec["best_mean"], spec["decoy_mean"], spec["period"])
    if spec["kind"] == "minimax":
        alpha = graph.independence_number.value
        return MinimaxGap(n_arms, best_arm, spec["best_mean"], spec["gap_constant"], alpha)
    if spec["kind"] == "bernoulli_parts":
        in_s = np.zeros(n_arms, dtype=bool)
        in_s[graph.S] = True
        return StochasticBernoulli(parts_means(spec, in_s, best_arm))
    if spec["kind"] == "theorem5":
        u, v = theorem5_pair(graph)
        return Theorem5Construction(n_arms, u, v, spec["b"], spec["environment"], spec["calibration_seeds"])
    raise ValueError(f"losses.kind must be one of {list(LOSS_KINDS)}, got {spec['kind']!r}")


def build_instance(spec: dict, rng: np.random.Generator) -> BanditInstance:
    """Build an instance from a validated config entry ``{"graph": {...}, "losses": {...}}``.

    Random graph families draw from ``rng`` (the instance's own SeedSequence); then the best arm
    (:func:`draw_best_arm`). A ``bernoulli_parts`` instance's numbers also record the best arm, its part, the
    weakly dominating set D used by the Section 4 algorithms and metrics, whether the best arm is in D, and
    the per-round means ``mean_loss_best`` (L*/T in expectation) and ``mean_loss_D`` (L_D/T in expectation,
    L_D = (1/d) Σ_{i∈D} L_i, line 212), whose ratio is the L_D/L* an instance is built to have.
    """
    family = spec["graph"]["family"]
    if family not in GRAPH_FAMILIES:
        raise ValueError(f"graph.family must be one of {sorted(GRAPH_FAMILIES)}, got {family!r}")
    graph = GRAPH_FAMILIES[family](spec["graph"], rng)
    losses = spec["losses"]
    best_arm = draw_best_arm(losses, graph, rng)
    numbers = describe(graph)
    environment = build_environment(losses, graph, best_arm)
    if losses["kind"] == "bernoulli_parts":
        members = [int(i) for i in graph.weakly_dominating_set.members]
        numbers |= {
            "D": members,
            "best_arm": best_arm,
            "best_in": losses["best_in"],
            "best_in_D": best_arm in members,
            "mean_loss_best": float(environment.means[best_arm]),
            "mean_loss_D": float(np.mean([environment.means[i] for i in members])),
        }
    if losses["kind"] == "theorem5":
        u, v = theorem5_pair(graph)
        numbers |= {"u": u, "v": v, "b": losses["b"], "theorem5_environment": losses["environment"]}
    return BanditInstance(graph, environment, numbers)


def write_instance_file(regime: str, name: str, spec: dict, path: str, draws: str | None = None) -> dict:
    """Build instance ``name`` of ``regime`` from its config entry, with the instance's own SeedSequence —
    keyed by ``draws``, the regime whose draws ``regime`` shares (:func:`regretlab.core.seeding.draws_of`;
    None:
    ``regime`` itself) — and write it as JSON at ``path`` (the workflow's instance job); returns its
    numbers."""
    key = regime if draws is None else draws
    instance = build_instance(spec, np.random.default_rng(job_seed_sequence(key, name, "instance")))
    write_json(path, instance.to_dict())
    return instance.numbers
