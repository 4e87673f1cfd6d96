"""The registry of every bound a figure can draw, by the name regimes use in ``config.yaml``, and of the
trivial bound of every metric, collected from the kinds (:data:`regretlab.registry.kinds.KINDS`: each kind's
``bound_registry``, e.g. :mod:`regretlab.bandits.bound_registry`).

Each bound's value is computed by one function that lives next to its theorem (``bandits/bounds.py``,
``cmdp/bounds.py``); a :class:`~regretlab.specs.bound_spec.BoundSpec` only says, for each, which metric it
bounds and in which direction, how a figure labels it, whether it carries the paper's constants (``explicit``)
or is an Õ(·) rate with unit constant, and the theory's log–log exponent in each swept variable. Bounds and
ceilings are evaluated on a :class:`~regretlab.specs.bound_spec.Point`.
"""

from __future__ import annotations

from collections.abc import Callable

from regretlab.registry.kinds import KINDS
from regretlab.specs.bound_spec import BoundSpec, Ceiling, Point

__all__ = [
    "BOUNDS",
    "CEILINGS",
    "TRIVIAL_BOUNDS",
    "BoundSpec",
    "Ceiling",
    "bounds_for",
    "ceiling",
    "trivial_bound",
]

#: Every kind's bounds, by name (names are unique across kinds).
BOUNDS: dict[str, BoundSpec] = {name: spec for kind in KINDS.values() for name, spec in kind.bounds.items()}

TRIVIAL_BOUNDS: dict[str, Callable[[Point], float]] = {
    metric: evaluate for kind in KINDS.values() for metric, evaluate in kind.trivial_bounds.items()
}
"""The trivial bound of each metric at a point, at the checkpoint ``t``: what the metric cannot exceed (or,
for a lower-bounded metric, fall below) whatever the learner does. A bound past it is vacuous. Metrics absent
here (``lambda_l1_max``, ratios of a bound) have none."""

CEILINGS: dict[str, tuple[Ceiling, ...]] = {
    metric: ceilings for kind in KINDS.values() for metric, ceilings in kind.ceilings.items()
}
"""Per metric, the ceilings (:class:`~regretlab.specs.bound_spec.Ceiling`) some learners' construction puts on
it. Metrics absent here, or algorithms a metric's ceilings do not name, have none (the trivial bound still
applies)."""


def trivial_bound(spec: BoundSpec, point: dict) -> float:
    """The trivial bound a bound is judged against at a point (:attr:`BoundSpec.trivial`, else the metric's
    :data:`TRIVIAL_BOUNDS`), NaN when there is none."""
    evaluate = spec.trivial or TRIVIAL_BOUNDS.get(spec.metric)
    return float(evaluate(point)) if evaluate is not None else float("nan")


def speaking_floor(bound: str) -> float:
    """The horizon below which ``bound`` cannot speak on any admissible instance (its kind's
    :attr:`~regretlab.specs.kind_spec.Kind.speaking_floor`), NaN when its kind declares none."""
    kinds = [kind for kind in KINDS.values() if bound in kind.bounds]
    return kinds[0].speaking_floor(bound) if kinds else float("nan")


def ceiling(metric: str, algorithm: str, point: dict) -> float:
    """The smallest ceiling of ``metric`` for ``algorithm`` at a point, NaN when there is none."""
    values = [c.evaluate(point) for c in CEILINGS.get(metric, ()) if algorithm in c.algorithms]
    return min(values) if values else float("nan")


def bounds_for(regime: dict, algorithm: str, constants: str) -> list[str]:
    """The bounds drawn against ``algorithm`` run with the ``constants`` preset in ``regime``.

    ``regime["bounds"][algorithm]`` is either one list (the same bounds for every preset) or a mapping
    preset → list, e.g. the paper's explicit bounds for ``paper`` and unit-constant rates for ``tuned``,
    whose constants the theorems do not cover; a preset the mapping does not name is not run
    (:func:`regretlab.workflow.config.presets_of`) and has none.
    """
    names = regime["bounds"][algorithm]
    return list(names.get(constants, [])) if isinstance(names, dict) else list(names)


def power_searches(names: tuple[str, ...] | None = None) -> list[dict]:
    """Every kind's search for the smallest ``T_power`` over admissible instances
    (:attr:`~regretlab.specs.kind_spec.Kind.power_searches`), one row per bound (``names``: those only)."""
    return [search() for name, search in POWER_SEARCHES.items() if names is None or name in names]


#: The bounds some kind searches admissible instances for (:func:`power_searches`), with their searches.
POWER_SEARCHES: dict[str, Callable[[], dict]] = {
    name: search for kind in KINDS.values() for name, search in kind.power_searches.items()
}
