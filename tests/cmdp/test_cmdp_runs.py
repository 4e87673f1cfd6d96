"""The workflow's CMDP entry points: instances from config entries, ρ shrinking with T, a batch's rows."""

import numpy as np
import pytest

from regretlab.cmdp.runs import build_instance, instance_at_horizon, rho_at, run_seeds
from regretlab.core.seeding import job_seed_sequence

SPEC = {
    "family": "vacuous",
    "n_layers": 2,
    "states_per_layer": 2,
    "n_actions": 2,
    "m": 1,
    "rho": 0.4,
    "constraint_spread": 0.1,
    "rewards": "stochastic",
    "constraints": "stochastic",
    "noise": 1.0,
    "period": 100,
    "reward_amplitude": 1.0,
    "constraint_amplitude": 0.5,
    "adversary": "switching",
    "risky_constraint": 1.0,
    "delta": 0.1,
    "rho_exponent": 0.25,
    "rho_reference_T": 100,
}


def instance_rng():
    return np.random.default_rng(job_seed_sequence("r", "i", "instance"))


def test_rho_shrinks_like_t_to_the_minus_quarter():
    assert rho_at(SPEC, None) == 0.4 and rho_at(SPEC, 100) == pytest.approx(0.4)
    assert rho_at(SPEC, 1600) == pytest.approx(0.4 / 2)
    assert rho_at({**SPEC, "rho_exponent": 0}, 1600) == 0.4


def test_instance_at_horizon_keeps_the_draw_and_moves_rho():
    base = build_instance(SPEC, instance_rng())
    later = instance_at_horizon(base, SPEC, "r", "i", 1600)
    assert later["cmdp"]["rho"] == pytest.approx(0.2, abs=1e-9)
    np.testing.assert_array_equal(np.asarray(later["cmdp"]["P"]), np.asarray(base["cmdp"]["P"]))
    fixed = {**SPEC, "rho_exponent": 0}
    assert instance_at_horizon(base, fixed, "r", "i", 1600) is base


def test_run_seeds_rows_and_determinism():
    instance = build_instance({**SPEC, "rho": 1.0, "rho_exponent": 0}, instance_rng())
    runs, info = run_seeds("r", "i", instance, "pdgd_ops", "paper", 50, [0, 1])
    again, _ = run_seeds("r", "i", instance, "pdgd_ops", "paper", 50, [0, 1])
    assert runs.equals(again)
    final = runs[runs["t"] == 50]
    assert (
        list(final["seed"]) == [0, 1]
        and not final[["regret", "violation", "rho", "opt", "C"]].isna().any().any()
    )
    assert [run["seed"] for run in info["runs"]] == [0, 1]
