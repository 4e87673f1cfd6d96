"""What a config's schema cannot say, checked before any job runs: one registry per axis of a regime.

:func:`regime_problems` returns ``(field, message)`` pairs for one regime whose entry already passed the
schema; :func:`regretlab.config.validate_config` renders each as one line ``config field <field>: <message>``.
Every check is either generic — it builds what the job would build, from the same SeedSequence, and reports
the builder's own ``ValueError`` at the field its message starts with (:func:`named_field`: a builder names
the parameter first, ``"clique_sizes must …"``) — or an entry of a registry below:

* :data:`INSTANCE_CHECKS` (by regime ``kind``): how an instance entry of that kind is checked. The bandit
  check builds the graph with :data:`regretlab.bandits.instance.GRAPH_FAMILIES` and the loss environment with
  :func:`regretlab.bandits.instance.build_environment`; the CMDP check builds the instance with
  :func:`regretlab.cmdp.runs.build_instance` at every ρ(T) the regime's horizons ask for (ρ ∈ [0, L] and
  attainable by the draw). A new graph family, loss kind or CMDP family that its builder validates needs no
  entry here.
* :data:`LOSS_RULES` (by ``losses.kind``): rules a loss environment's constructor does not enforce
  (``bernoulli``: best_mean + gap ≤ 1).
* :data:`GRAPH_CLASSES` (by :attr:`regretlab.bandits.algorithms.AlgorithmSpec.graph_class`): which graphs an
  algorithm is valid on; every instance's graph must be of the class of every algorithm of its regime.
* :attr:`regretlab.bandits.algorithms.AlgorithmSpec.horizon_rule` (on each algorithm's registry entry): the
  smallest horizon an algorithm's decision set allows.
* :data:`X_RULES` (by the regime's ``x``): the horizons and instances a swept variable can use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import GRAPH_FAMILIES, build_environment, draw_best_arm
from regretlab.checkpoints import log_checkpoints
from regretlab.cmdp import runs as cmdp_runs
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability
from regretlab.seeding import job_seed_sequence

#: A problem found in a config: the dotted path of the offending field and one line saying what is allowed.
Problem = tuple[str, str]


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


def _scales_with(regime: dict, bad: Callable[[list[int]], str | None]) -> list[Problem]:
    problems = []
    for scale, grid in regime["scales"].items():
        message = bad(grid["horizons"])
        if message:
            problems.append((f"scales.{scale}.horizons", message))
    return problems


def _x_T(regime: dict) -> list[Problem]:
    return _scales_with(
        regime,
        lambda horizons: None
        if len(horizons) >= 2
        else f"a sweep in T needs at least 2 horizons, got {horizons}",
    )


def _x_across_instances(symbol: str) -> Callable[[dict], list[Problem]]:
    """A sweep whose abscissae are a per-instance mean (L*, L_{i*_S}, L_D) needs at least 2 instances."""

    def rule(regime: dict) -> list[Problem]:
        if len(regime["instances"]) < 2:
            return [
                (
                    "instances",
                    f"a sweep in {symbol} needs at least 2 instances (their means are the abscissae), "
                    f"got {list(regime['instances'])}",
                )
            ]
        return []

    return rule


def _x_t(regime: dict) -> list[Problem]:
    def bad(horizons: list[int]) -> str | None:
        if len(horizons) != 1:
            return f"x: t draws the trajectories of one horizon only: give exactly one, got {horizons}"
        if log_checkpoints(horizons[0]).size < 2:
            return f"a trajectory needs at least 2 checkpoints, i.e. T ≥ 2, got {horizons}"
        return None

    return _scales_with(regime, bad)


#: What each swept variable needs of a regime's horizons and instances, by ``x``: regime → problems (fields
#: relative to the regime).
X_RULES: dict[str, Callable[[dict], list[Problem]]] = {
    "T": _x_T,
    "L_star": _x_across_instances("L*"),
    "L_best_S": _x_across_instances("L_{i*_S}"),
    "L_D": _x_across_instances("L_D"),
    "t": _x_t,
}


_GRAPHS: dict[tuple[int, bytes], FeedbackGraph] = {}


def _shared(graph: FeedbackGraph) -> FeedbackGraph:
    """One graph object per adjacency matrix, so that instances sharing a graph compute α, κ once."""
    return _GRAPHS.setdefault((graph.n_arms, graph.adjacency.tobytes()), graph)


@dataclass(frozen=True)
class Plan:
    """The runs an instance is checked for: algorithms and horizons, each with the field that names it."""

    algorithms: list[str]
    horizons: list[tuple[str, int]]
    algorithms_field: str


def named_field(message: str, entry: dict) -> str | None:
    """The field of ``entry`` a builder's error is about: builders start their messages with the parameter's
    config name (``"clique_sizes must …"``, ``"rho=2.5 is out of reach …"``); None when the first word is not
    a key of ``entry``."""
    first = re.match(r"[A-Za-z_]\w*", message)
    return first.group() if first and first.group() in entry else None


def _at_field(where: str, entry: dict, error: Exception, otherwise: str | None = None) -> Problem:
    """A builder's error as a problem of the field it names (:func:`named_field`), else of ``otherwise`` (a
    field of ``entry``), else of ``entry`` itself."""
    message = str(error)
    field = named_field(message, entry) or otherwise
    return (f"{where}.{field}" if field else where, message)


def _bandit_instance(regime_name: str, name: str, spec: dict, plan: Plan) -> list[Problem]:
    """The instance's graph and environment build (as its job builds them), every planned algorithm is valid
    on the graph, and every planned horizon is large enough for it."""
    where = f"regimes.{regime_name}.instances.{name}"
    rng = np.random.default_rng(job_seed_sequence(regime_name, name, "instance"))
    try:
        graph = _shared(GRAPH_FAMILIES[spec["graph"]["family"]](spec["graph"], rng))
    except ValueError as error:
        return [_at_field(f"{where}.graph", spec["graph"], error)]
    losses = spec["losses"]
    rules = LOSS_RULES.get(losses["kind"], lambda _: [])
    problems = [(f"{where}.losses.{field}", message) for field, message in rules(losses)]
    try:
        build_environment(losses, graph, draw_best_arm(losses, graph, rng))
    except ValueError as error:
        # An environment that names none of its parameters cannot be of its kind on this graph.
        problems.append(_at_field(f"{where}.losses", losses, error, otherwise="kind"))
    for algorithm in plan.algorithms:
        if algorithm not in ALGORITHMS:  # not a bandit algorithm: regretlab.config reports it
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


def _cmdp_instance(regime_name: str, name: str, spec: dict, plan: Plan) -> list[Problem]:
    """The instance builds (as its job builds it, same draw) at the ρ of every planned horizon: ρ(T) is
    monotone in T and the ρ a draw attains form an interval, so the smallest and largest horizon suffice."""
    horizons = sorted(plan.horizons, key=lambda field_and_T: field_and_T[1])
    at = [("", None)] if spec["rho_exponent"] == 0 else [horizons[0], horizons[-1]]
    for field, horizon in at:
        rng = np.random.default_rng(job_seed_sequence(regime_name, name, "instance"))
        try:
            cmdp_runs.build_instance(spec, rng, horizon)
        except (ValueError, ArithmeticError) as error:
            where = f"regimes.{regime_name}.instances.{name}"
            if horizon is None or named_field(str(error), spec) not in (None, "rho"):
                return [_at_field(where, spec, error)]
            rho = cmdp_runs.rho_at(spec, horizon)  # ρ(T) from rho, rho_exponent and the horizon
            return [(field, f"instance {name!r} at T = {horizon} (ρ(T) = {rho:.6g}): {error}")]
    return []


#: How one instance entry is checked, by regime ``kind``: ``(regime name, instance name, entry, plan) →
#: problems`` (fields relative to the regime). A new kind of regime is one entry.
INSTANCE_CHECKS: dict[str, Callable[[str, dict, str, dict], list[Problem]]] = {
    "bandit": _bandit_instance,
    "cmdp": _cmdp_instance,
}


def regime_problems(regime_name: str, regime: dict) -> list[Problem]:
    """Every cross-field problem of one schema-valid regime, as ``(full field path, one-line message)``."""
    where = f"regimes.{regime_name}"
    problems = [(f"{where}.{field}", message) for field, message in X_RULES[regime["x"]](regime)]
    plan = Plan(
        algorithms=regime["algorithms"],
        horizons=[
            (f"{where}.scales.{scale}.horizons", int(T))
            for scale, grid in regime["scales"].items()
            for T in grid["horizons"]
        ],
        algorithms_field=f"{where}.algorithms",
    )
    for name, spec in regime["instances"].items():
        problems += INSTANCE_CHECKS[regime["kind"]](regime_name, name, spec, plan)
    return _one_line_each(problems)


def run_problems(
    regime_name: str, regime: dict, instance: str, algorithm: str, horizon: int
) -> list[Problem]:
    """The problems of one run outside the workflow (``regretlab run``): its instance, its algorithm on the
    instance's graph and its horizon, with the CLI's option names as fields."""
    plan = Plan(algorithms=[algorithm], horizons=[("-T", horizon)], algorithms_field="--algorithm")
    spec = regime["instances"][instance]
    return _one_line_each(INSTANCE_CHECKS[regime["kind"]](regime_name, instance, spec, plan))


def _one_line_each(problems: list[Problem]) -> list[Problem]:
    """Distinct problems in order, each message on one line."""
    seen = {}
    for field, message in problems:
        seen.setdefault((field, " ".join(message.split())), None)
    return list(seen)
