"""Points of the evidence table: an aggregate row as the dict bounds, ceilings and mechanisms read
(:func:`mechanism_point`), and the row's curve extrapolated to another horizon (:func:`point_at`), where
the searches for ``T_informative`` and ``T_power`` evaluate bounds (:mod:`.search`)."""

from __future__ import annotations

import math

import numpy as np

from regretlab.bandits.algorithms import make_learner
from regretlab.bandits.instance import BanditInstance
from regretlab.cmdp.pdgd_ops import pdgd_constants
from regretlab.kinds import KINDS

#: Loss totals of a bandit point, extrapolated in proportion to T (stationary losses).
LOSS_TOTALS = ("L_star", "L_best_S", "L_best_Sbar", "L_D")


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


#: Bandit instances rebuilt from their files, by the id of the file's dict (kept alive beside it).
_BANDIT_INSTANCES: dict[int, tuple[dict, BanditInstance]] = {}


def _bandit_instance(instance: dict) -> BanditInstance:
    key = id(instance)
    if key not in _BANDIT_INSTANCES:
        _BANDIT_INSTANCES[key] = (instance, BanditInstance.from_dict(instance))
    return _BANDIT_INSTANCES[key][1]


def _learner_params(kind: str, row: dict, instance: dict, T: int, oracle: dict) -> dict:
    """The constants the row's learner would run with at horizon ``T``: a bandit learner built for ``T`` with
    the extrapolated oracle totals; a CMDP learner's preset constants (:func:`pdgd_constants`)."""
    if kind == "cmdp":
        cmdp = instance["cmdp"]
        numbers = instance["numbers"]
        constants = pdgd_constants(
            row["constants"], cmdp["layer_sizes"], cmdp["n_actions"], numbers["m"], T, numbers["delta"],
            rho=cmdp["rho"],
        )  # fmt: skip
        return {"eta": constants.eta, "C": constants.C}
    bandit = _bandit_instance(instance)
    rng = np.random.default_rng(0)  # a learner's constants do not depend on its generator
    learner = make_learner(row["algorithm"], bandit.at_horizon(T), T, rng, row["constants"], oracle)
    return dict(learner.params)


def point_at(row: dict, instance: dict, kind: str, T: int) -> dict:
    """The point dict (:mod:`regretlab.theory`) of ``row``'s curve extrapolated to horizon ``T`` (``t = T``).

    From the row (measured at ``row["T"]``): the instance's numbers, every metric's mean over seeds — bandit
    loss totals scaled by ``T / row["T"]`` (stationary losses), the rest as measured (ρ, OPT, ℓ̄, C, ‖λ‖₁, ε̂)
    — and the learner's constants at ``T`` (:func:`_learner_params`; η, η̄, δ copied to the point where a
    bound reads them there). A ValueError means the learner cannot run at ``T``.
    """
    scale = T / float(row["T"])
    point = {"T": int(T), "t": int(T), **instance["numbers"]}
    for metric in KINDS[kind].metrics:
        value = row.get(f"{metric}_mean")
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            point[metric] = value * scale if kind == "bandit" and metric in LOSS_TOTALS else value
    oracle = {name: point[name] for name in LOSS_TOTALS if name in point}
    params = _learner_params(kind, row, instance, int(T), oracle)
    point["params"] = params
    for name in ("eta", "eta_bar", "delta"):
        if kind == "bandit" and name in params and name in point:
            point[name] = params[name]
    return point
