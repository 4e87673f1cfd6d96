"""Points of the evidence table: an aggregate row as the dict bounds, ceilings and mechanisms read
(:func:`mechanism_point`), and the row's curve extrapolated to another horizon (:func:`point_at`), where
the searches for ``T_informative`` and ``T_power`` evaluate bounds (:mod:`.search`)."""

from __future__ import annotations

import math

from regretlab.registry.kinds import KINDS
from regretlab.specs.bound_spec import Point


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


def point_at(row: dict, instance: dict, kind: str, T: int) -> Point:
    """The :class:`~regretlab.specs.bound_spec.Point` of ``row``'s curve extrapolated to horizon ``T``
    (``t = T``).

    From the row (measured at ``row["T"]``): the instance's numbers, every metric's mean over seeds — the
    kind's :attr:`~regretlab.specs.kind_spec.Kind.horizon_scaled` totals (bandit loss totals) scaled by
    ``T / row["T"]``, the rest as measured (ρ, OPT, ℓ̄, C, ‖λ‖₁, ε̂) — and the learner's constants at ``T``
    (:attr:`~regretlab.specs.kind_spec.Kind.learner_params`; those the run tables carry as columns, η, η̄, δ,
    copied to the point where a bound reads them there). A ValueError means the learner cannot run at ``T``.
    """
    spec = KINDS[kind]
    scale = T / float(row["T"])
    numbers = instance["numbers"]
    metrics = {}
    for metric in spec.metrics:
        value = row.get(f"{metric}_mean")
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            metrics[metric] = value * scale if metric in spec.horizon_scaled else value
    oracle = {name: metrics[name] for name in spec.horizon_scaled if name in metrics}
    params = spec.learner_params(row, instance, int(T), oracle)
    for name in spec.param_columns:
        if name in params and (name in metrics or name in numbers):  # the column read in place of η …
            metrics[name] = params[name]
    return Point(int(T), int(T), numbers, params, metrics)
