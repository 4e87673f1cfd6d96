"""The null learner of paper 001's regimes: uniform play, ``p_t = (1/K, …, 1/K)`` in every round.

Its expected loss up to round t is ``(1/K) Σ_i E[L_{t,i}]``, from the environment's own means
(:meth:`expected_totals`: exact for the oblivious environments of :mod:`regretlab.bandits.environments`), so
its value on a regret metric is that minus the metric's comparator — ``L*``, ``L_{i*_S}`` or the best total
of S̄ — as the learner's runs measured it on the same loss sequences (the same seeds): the expectation over
those sequences of uniform play's pseudo-regret, with no simulation of uniform play at all. A metric that is
not a regret (L*, η, resets …) has no null value (NaN), and neither has an instance whose losses depend on
the learner (Theorem 5's environment 2) or on T alone (a minimax instance is resolved at the point's T).
"""

from __future__ import annotations

import math
from functools import singledispatch

import numpy as np

from regretlab.bandits.environments import MinimaxGap, StochasticBernoulli, SwitchingAdversary
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.lower_bound import Theorem5Construction, Theorem5Losses
from regretlab.specs.bound_spec import Point

#: Each regret metric's comparator: the total loss it subtracts from Σ_t ⟨p_t, ℓ_t⟩ (paper 001 §2, §4).
COMPARATORS = {
    "pseudo_regret": "L_star",
    "realized_regret": "L_star",
    "regret_best_S": "L_best_S",
    "regret_best_Sbar": "L_best_Sbar",
}


@singledispatch
def expected_totals(environment, t: int) -> np.ndarray:
    """``E[L_{t,i}] = E[Σ_{s≤t} ℓ_{s,i}]`` for every arm, shape ``(K,)``, of an oblivious environment (read
    from its parameters: kept here, beside the null learner, so that the run jobs' code does not change)."""
    raise TypeError(f"no expected totals for {type(environment).__name__}")


@expected_totals.register
def _(environment: StochasticBernoulli, t: int) -> np.ndarray:
    return t * np.asarray(environment.means, dtype=float)


@expected_totals.register
def _(environment: SwitchingAdversary, t: int) -> np.ndarray:
    # t · best_mean for the best arm; for the other arm of cyclic index j, t − (1 − decoy_mean) · n_j with n_j
    # its rounds as the decoy (phase k — rounds k·period+1 … (k+1)·period — has decoy k mod (K−1), as draw()).
    others = environment.n_arms - 1
    full, rest = divmod(t, environment.period)
    index = np.arange(others)
    decoy_rounds = environment.period * (full // others + (index < full % others)) + rest * (
        index == full % others
    )
    totals = np.empty(environment.n_arms)
    rest_of_arms = [i for i in range(environment.n_arms) if i != environment.best_arm]
    totals[rest_of_arms] = t - (1.0 - environment.decoy_mean) * decoy_rounds
    totals[environment.best_arm] = t * environment.best_mean
    return totals


@expected_totals.register
def _(environment: Theorem5Losses, t: int) -> np.ndarray:
    # Deterministic: 1 per round, T^{−b} for v, the rounds of start+1 … stop up to t for u.
    totals = np.full(environment.n_arms, float(t))
    totals[environment.v] = t * environment.v_loss
    totals[environment.u] = float(max(0, min(t, environment.stop) - environment.start))
    return totals


@expected_totals.register
def _(environment: MinimaxGap, t: int) -> np.ndarray:
    raise ValueError("a minimax environment's losses depend on T: take them from at_horizon(T)")


@expected_totals.register
def _(environment: Theorem5Construction, t: int) -> np.ndarray:
    raise TypeError("Theorem 5's construction has no losses before it is materialised with an algorithm")


def uniform_loss(instance: BanditInstance, T: int, t: int) -> float:
    """Uniform play's expected loss over rounds ``1 … t`` of a horizon-``T`` run: ``(1/K) Σ_i E[L_{t,i}]``;
    NaN where the environment has no expectation without a learner (Theorem 5's construction)."""
    try:
        return float(expected_totals(instance.at_horizon(int(T)).environment, int(t)).mean())
    except TypeError:
        return math.nan


def uniform_value(instance: dict, metric: str, point: Point, algorithm: str = "") -> float:
    """Uniform play's expected value of ``metric`` at ``point`` (``T``, ``t`` and the comparator's measured
    value under its metric name, as in a :class:`~regretlab.specs.bound_spec.Point`); NaN where it has none.
    ``instance`` is the instance file's contents; ``algorithm`` is not read (uniform play's regret does not
    depend on which learner's runs measured the comparator)."""
    if "losses" not in instance:
        return math.nan  # an instance with no loss model
    return uniform_regret(rebuilt_instance(instance), metric, point)


def uniform_regret(instance: BanditInstance, metric: str, point: Point) -> float:
    """:func:`uniform_value` of a built instance (the falsification trials have one, not its file)."""
    comparator = COMPARATORS.get(metric)
    value = point.get(comparator) if comparator else None
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan  # not a regret, or its comparator not measured
    return uniform_loss(instance, point["T"], point["t"]) - float(value)


#: Instances rebuilt from their file's contents, by the contents: graph, losses and numbers.
_INSTANCES: dict[str, BanditInstance] = {}


def rebuilt_instance(data: dict) -> BanditInstance:
    """The instance an instance file's contents describe, built once per file contents (its graph, its
    loss model and its numbers, all three of which :meth:`BanditInstance.from_dict` reads)."""
    key = repr((data["graph"], data["losses"], data.get("numbers")))
    if key not in _INSTANCES:
        _INSTANCES[key] = BanditInstance.from_dict(data)
    return _INSTANCES[key]
