"""What a config's schema cannot say, checked before any job runs: one registry per axis of a regime.

:func:`regime_problems` returns ``(field, message)`` pairs for one regime whose entry already passed the
schema; :func:`regretlab.workflow.config.validate_config` renders each as one line ``config field <field>:
<message>``. Every check is either generic — it builds what the job would build, from the same SeedSequence,
and reports the builder's own ``ValueError`` at the field its message starts with
(:func:`regretlab.specs.kind_spec.named_field`: a builder names the parameter first, ``"clique_sizes must
…"``) — or an entry of a registry:

* the regime's kind's :attr:`~regretlab.specs.kind_spec.Kind.instance_check`: how an instance entry of that
  kind is checked (:mod:`regretlab.bandits.instance_checks`, :mod:`regretlab.cmdp.instance_checks`);
* :data:`X_RULES` (by the regime's ``x``): the horizons and instances a swept variable can use.
"""

from __future__ import annotations

from collections.abc import Callable

from regretlab.core.checkpoints import log_checkpoints
from regretlab.registry.kinds import KINDS
from regretlab.specs.kind_spec import Plan, Problem


def _scales_with(regime: dict, bad: Callable[[list[int]], str | None]) -> list[Problem]:
    problems = []
    for scale, grid in regime["scales"].items():
        message = bad(grid["horizons"])
        if message:
            problems.append((f"scales.{scale}.horizons", message))
    return problems


def _x_T(regime: dict) -> list[Problem]:
    """Every scale's grid sweeps T (two horizons at least), but the power scale's: its runs check explicit
    bounds where they beat uniform play, one horizon is enough (its points join the other scales' in the
    evidence table)."""
    sweeps = {**regime, "scales": {k: v for k, v in regime["scales"].items() if k != "power"}}
    return _scales_with(
        sweeps,
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
        problems += KINDS[regime["kind"]].instance_check(regime_name, name, spec, plan)
    return _one_line_each(problems)


def run_problems(
    regime_name: str, regime: dict, instance: str, algorithm: str, horizon: int
) -> list[Problem]:
    """The problems of one run outside the workflow (``regretlab run``): its instance, its algorithm on the
    instance's graph and its horizon, with the CLI's option names as fields."""
    plan = Plan(algorithms=[algorithm], horizons=[("-T", horizon)], algorithms_field="--algorithm")
    spec = regime["instances"][instance]
    return _one_line_each(KINDS[regime["kind"]].instance_check(regime_name, instance, spec, plan))


def _one_line_each(problems: list[Problem]) -> list[Problem]:
    """Distinct problems in order, each message on one line."""
    seen = {}
    for field, message in problems:
        seen.setdefault((field, " ".join(message.split())), None)
    return list(seen)
