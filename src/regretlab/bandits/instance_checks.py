"""How a bandit instance entry is checked before any job
(:attr:`regretlab.specs.kind_spec.Kind.instance_check`), with the registries its check reads:

* :data:`GRAPH_CLASSES` (by :attr:`regretlab.bandits.algorithms.AlgorithmSpec.graph_class`): which graphs an
  algorithm is valid on; every instance's graph must be of the class of every algorithm of its regime.
* :data:`LOSS_RULES` (by ``losses.kind``): rules a loss environment's constructor does not enforce
  (``bernoulli``: best_mean + gap ≤ 1).
* :attr:`regretlab.bandits.algorithms.AlgorithmSpec.horizon_rule` (on each algorithm's registry entry): the
  smallest horizon an algorithm's decision set allows.

The check builds the graph with :data:`regretlab.bandits.instance.GRAPH_FAMILIES` and the loss environment
with :func:`regretlab.bandits.instance.build_environment`, as the instance job does: a new graph family or
loss kind that its builder validates needs no entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import GRAPH_FAMILIES, build_environment, draw_best_arm
from regretlab.core.seeding import job_seed_sequence
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability
from regretlab.specs.kind_spec import Plan, Problem, at_field


@dataclass(frozen=True)
class GraphClass:
    """A class of feedback graphs an algorithm can be valid on (paper 001, §2)."""

    description: str
    holds: Callable[[FeedbackGraph], bool]


def _is_directed_complete_bipartite(graph: FeedbackGraph) -> bool:
    """§2 "Special cases": S → S̄ edges and the self-loops of S, nothing else, with s ≥ 1 and s̄ ≥ 2."""
    in_s = graph.self_loops
    expected = np.diag(in_s) | np.outer(in_s, ~in_s)
    return graph.s >= 1 and graph.s_bar >= 2 and bool(np.array_equal(graph.adjacency, expected))


#: Graph classes by the name an :class:`~regretlab.bandits.algorithms.AlgorithmSpec` gives as its
#: ``graph_class``. A new class is one entry.
GRAPH_CLASSES: dict[str, GraphClass] = {
    "strongly_observable": GraphClass(
        "strongly observable", lambda graph: graph.observability is Observability.STRONG
    ),
    "self_aware": GraphClass("self-aware (every node has a self-loop)", lambda graph: graph.is_self_aware),
    "weakly_observable": GraphClass(
        "weakly observable", lambda graph: graph.observability is Observability.WEAK
    ),
    "directed_complete_bipartite": GraphClass(
        "directed complete bipartite (S → S̄ only, s ≥ 1, s̄ ≥ 2)", _is_directed_complete_bipartite
    ),
    "any_observable": GraphClass("observable", lambda graph: graph.observability is not Observability.NONE),
}


def _bernoulli_rules(losses: dict) -> list[Problem]:
    if losses["best_mean"] + losses["gap"] > 1:
        return [
            (
                "gap",
                f"best_mean + gap must be at most 1 (the other arms' mean), got "
                f"{losses['best_mean']} + {losses['gap']}",
            )
        ]
    return []


#: Rules on a ``losses`` entry beyond its environment's constructor, by ``losses.kind``: the entry → problems
#: (the field relative to ``losses``). A kind without extra rules needs no entry.
LOSS_RULES: dict[str, Callable[[dict], list[Problem]]] = {"bernoulli": _bernoulli_rules}


_GRAPHS: dict[tuple[int, bytes], FeedbackGraph] = {}


def _shared(graph: FeedbackGraph) -> FeedbackGraph:
    """One graph object per adjacency matrix, so that instances sharing a graph compute α, κ once."""
    return _GRAPHS.setdefault((graph.n_arms, graph.adjacency.tobytes()), graph)


def check_instance(regime_name: str, name: str, spec: dict, plan: Plan) -> list[Problem]:
    """The instance's graph and environment build (as its job builds them), every planned algorithm is valid
    on the graph, and every planned horizon is large enough for it."""
    where = f"regimes.{regime_name}.instances.{name}"
    rng = np.random.default_rng(job_seed_sequence(regime_name, name, "instance"))
    try:
        graph = _shared(GRAPH_FAMILIES[spec["graph"]["family"]](spec["graph"], rng))
    except ValueError as error:
        return [at_field(f"{where}.graph", spec["graph"], error)]
    losses = spec["losses"]
    rules = LOSS_RULES.get(losses["kind"], lambda _: [])
    problems = [(f"{where}.losses.{field}", message) for field, message in rules(losses)]
    try:
        build_environment(losses, graph, draw_best_arm(losses, graph, rng))
    except ValueError as error:
        # An environment that names none of its parameters cannot be of its kind on this graph.
        problems.append(at_field(f"{where}.losses", losses, error, otherwise="kind"))
    for algorithm in plan.algorithms:
        if algorithm not in ALGORITHMS:  # not a bandit algorithm: regretlab.workflow.config reports it
            continue
        graph_class = GRAPH_CLASSES[ALGORITHMS[algorithm].graph_class]
        if not graph_class.holds(graph):
            problems.append(
                (
                    plan.algorithms_field,
                    f"{algorithm} is valid on {graph_class.description} graphs only; instance {name!r} "
                    f"({spec['graph']['family']}) has a {graph.observability.value.replace('_', ' ')} graph "
                    f"with S̄ = {graph.S_bar.tolist()}",
                )
            )
            continue
        rule = ALGORITHMS[algorithm].horizon_rule
        for field, horizon in plan.horizons if rule else []:
            message = rule(graph, horizon)
            if message:
                problems.append((field, f"{algorithm} on instance {name!r}: {message}"))
    return problems
