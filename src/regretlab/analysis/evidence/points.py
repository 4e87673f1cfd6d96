"""Points of the evidence table: an aggregate row as the dict bounds, ceilings and mechanisms read
(:func:`mechanism_point`), and the row's curve extrapolated to another horizon (:func:`point_at`), where
the searches for ``T_informative`` and ``T_power`` evaluate bounds (:mod:`.search`)."""

from __future__ import annotations

import math

from regretlab.kinds import KINDS


def _scalar(value) -> bool:
    return isinstance(value, (bool, int, float, str))


def mechanism_point(row: dict, instance: dict) -> dict:
    """What a mechanism reads at an aggregate row: the instance's numbers, its loss entry's scalar fields as
    ``losses_<field>`` (bandit instances) and the row's columns (``T``, ``<metric>_mean`` …)."""
    losses = instance.get("losses", {})
    return {
        **instance.get("numbers", {}),
        **{f"losses_{key}": value for key, value in losses.items() if _scalar(value)},
        **row,
    }


def point_at(row: dict, instance: dict, kind: str, T: int) -> dict:
    """The point dict (:mod:`regretlab.bound_spec`) of ``row``'s curve extrapolated to horizon ``T``
    (``t = T``).

    From the row (measured at ``row["T"]``): the instance's numbers, every metric's mean over seeds — the
    kind's :attr:`~regretlab.kind_spec.Kind.horizon_scaled` totals (bandit loss totals) scaled by
    ``T / row["T"]``, the rest as measured (ρ, OPT, ℓ̄, C, ‖λ‖₁, ε̂) — and the learner's constants at ``T``
    (:attr:`~regretlab.kind_spec.Kind.learner_params`; those the run tables carry as columns, η, η̄, δ,
    copied to the point where a bound reads them there). A ValueError means the learner cannot run at ``T``.
    """
    spec = KINDS[kind]
    scale = T / float(row["T"])
    point = {"T": int(T), "t": int(T), **instance["numbers"]}
    for metric in spec.metrics:
        value = row.get(f"{metric}_mean")
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            point[metric] = value * scale if metric in spec.horizon_scaled else value
    oracle = {name: point[name] for name in spec.horizon_scaled if name in point}
    params = spec.learner_params(row, instance, int(T), oracle)
    point["params"] = params
    for name in spec.param_columns:
        if name in params and name in point:
            point[name] = params[name]
    return point
