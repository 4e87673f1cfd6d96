"""The uniform policy's value on paper 000's instances, written out by hand (regretlab.cmdp.nulls)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.instance import make_chain_cmdp, make_cmdp
from regretlab.cmdp.nulls import best_occupancy_value, uniform_occupancy, uniform_value
from regretlab.cmdp.offline_lp import solve_opt


def _instance_file(cmdp, environment) -> dict:
    return {"cmdp": cmdp.to_dict(), "environment": environment.to_dict(), "numbers": {}}


def test_uniform_occupancy_of_the_chain_splits_every_layer_in_half():
    # One state per layer, two actions, P(x_{k+1}|x_k, a) = 1: q(x_k, a) = 1/2 in each of the L = 3 layers.
    q = uniform_occupancy(make_chain_cmdp(3, 1.5))
    assert q == pytest.approx(np.array([[0.5, 0.5]] * 3 + [[0.0, 0.0]]))


def test_uniform_values_on_the_stochastic_chain_by_hand():
    # Action 1 pays 1/2 with ḡ = 0, action 0 pays 0 with ḡ = −ρ/L = −1/2 (ρ = 1.5, L = 3): the uniform policy
    # earns 3 · (0 + 1/2)/2 = 0.75 per episode and has Ḡᵀq = 3 · (−1/2 + 0)/2 = −0.75; OPT = L/2 = 1.5. At
    # t = 100: regret 150 − 75, violation −75, ratio 1/2; UC-O-GDPS alone on ℓ = −r (λ = 0): the best
    # occupancy earns 1.5, so its primal regret is 100 · (1.5 − 0.75).
    cmdp = make_chain_cmdp(3, 1.5)
    environment = make_environment(cmdp, np.random.default_rng(0), "stochastic", "stochastic")
    instance = _instance_file(cmdp, environment)
    point = {"T": 1000, "t": 100, "opt": 1.5}
    assert uniform_value(instance, "regret", point) == pytest.approx(75.0, rel=1e-12)
    assert uniform_value(instance, "violation", point) == pytest.approx(-75.0, rel=1e-12)
    assert uniform_value(instance, "reward", point) == pytest.approx(75.0, rel=1e-12)
    assert uniform_value(instance, "reward_ratio", point) == pytest.approx(0.5, rel=1e-12)
    primal = uniform_value(instance, "primal_regret", {**point, "params": {"lam": [0.0]}}, "uc_o_gdps")
    assert primal == pytest.approx(75.0, rel=1e-12)
    # PDGD-OPS's primal losses follow its dual: no null; the dual's own metrics have none either.
    assert math.isnan(uniform_value(instance, "primal_regret", point, "pdgd_ops"))
    assert math.isnan(uniform_value(instance, "lambda_l1_max", point))


def test_uc_o_gdps_primal_regret_of_the_uniform_policy_at_a_positive_multiplier_by_hand():
    # On the stochastic chain at λ = 3 the losses ℓ = 3ḡ − r̄ are −3/2 (action 0) and −1/2 (action 1) in each
    # of the L = 3 layers: the uniform policy's Σℓᵀq_u = 3 · (−1) = −3, the best occupancy's −ℓ is 3 · 3/2, so
    # its primal regret over t = 100 episodes is 100 · (−3 + 4.5). Without λ in the point, λ = 0: 100 · 0.75.
    cmdp = make_chain_cmdp(3, 1.5)
    environment = make_environment(cmdp, np.random.default_rng(0), "stochastic", "stochastic")
    instance = _instance_file(cmdp, environment)
    point = {"T": 1000, "t": 100, "opt": 1.5}
    at_three = uniform_value(instance, "primal_regret", {**point, "params": {"lam": [3.0]}}, "uc_o_gdps")
    assert at_three == pytest.approx(150.0, rel=1e-12)
    assert uniform_value(instance, "primal_regret", point, "uc_o_gdps") == pytest.approx(75.0, rel=1e-12)


def test_uniform_regret_and_ratio_need_the_runs_opt():
    cmdp = make_chain_cmdp(3, 1.5)
    environment = make_environment(cmdp, np.random.default_rng(0), "stochastic", "stochastic")
    instance = _instance_file(cmdp, environment)
    for opt in ({}, {"opt": math.inf}, {"opt": math.nan}):
        point = {"T": 1000, "t": 100, **opt}
        assert math.isnan(uniform_value(instance, "regret", point)), opt
        assert math.isnan(uniform_value(instance, "reward_ratio", point)), opt


def test_uniform_violation_under_adversarial_constraints_counts_the_phases():
    # risky_swing at amplitude 1 on the chain: action 1's g is +1 in phase 0 (episodes 1..100) and −1 in
    # phase 1; at t = 150, Ḡ_t(action 1) = (100 − 50)/150 = 1/3, so Ḡ_tᵀq_u = 3 · (−1/2 + 1/3)/2 = −1/4.
    cmdp = make_chain_cmdp(3, 1.5)
    environment = make_environment(
        cmdp, np.random.default_rng(0), "stochastic", "adversarial", period=100, constraint_amplitude=1.0,
        adversary="risky_swing",
    )  # fmt: skip
    point = {"T": 1000, "t": 150, "opt": 1.5}
    value = uniform_value(_instance_file(cmdp, environment), "violation", point)
    assert value == pytest.approx(-37.5, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_best_occupancy_value_equals_the_unconstrained_lp(seed):
    # Backward induction against the offline LP (5) with a constraint that never binds.
    cmdp = make_cmdp(np.random.default_rng(seed), "binding", 3, 2, 3, 1, 0.5)
    reward = np.random.default_rng(100 + seed).random(cmdp.r_bar.shape)
    reward[-1] = 0.0
    loose = np.full_like(cmdp.G_bar, -1.0)
    loose[:, -1] = 0.0
    opt, _ = solve_opt(cmdp.P, reward, loose)
    assert best_occupancy_value(cmdp, reward) == pytest.approx(opt, rel=1e-7)


def test_without_a_multiplier_uc_o_gdps_null_primal_regret_takes_lambda_zero_for_every_constraint():
    # Two constraints on a random layered CMDP: λ missing from the point is λ = (0, 0), not an error.
    cmdp = make_cmdp(np.random.default_rng(3), "binding", 3, 2, 3, 2, 0.5)
    environment = make_environment(cmdp, np.random.default_rng(4), "stochastic", "stochastic")
    instance = _instance_file(cmdp, environment)
    point = {"T": 1000, "t": 100, "opt": 1.0}
    at_zero = uniform_value(instance, "primal_regret", {**point, "params": {"lam": [0.0, 0.0]}}, "uc_o_gdps")
    assert uniform_value(instance, "primal_regret", point, "uc_o_gdps") == at_zero
    assert at_zero > 0  # the best occupancy earns more than the uniform policy
