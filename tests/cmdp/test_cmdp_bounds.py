"""Bounds of paper 000 (App. A-C): values on a hand-checked example, monotonicity and exponents in T."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from regretlab.cmdp import bounds
from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.instance import make_chain_cmdp, make_layered_cmdp
from regretlab.cmdp.offline_lp import feasibility_parameter_adversarial, solve_opt

# The example: T = 100, δ = 0.1, layers (1, 2, 1) so L = 2 and |X| = 4, |A| = 2, m = 1, ρ = 1.
T, DELTA, L, X, A, M, RHO = 100, 0.1, 2, 4, 2, 1, 1.0
EQ = 686.7091284125911 + 2877.950762247692  # 32 √(200 ln 10) + 48 √(400 ln 8000)
ETA = 1 / 27144.561697660447  # 1 / (800 √(100 ln 10^5))
PRIMAL = 81 * (EQ + 400 + 2)  # Theorem 3 with ℓ̄ = 1 + ζ = 81, C = 20: ℓ̄ (Eq + L C √T + (|X||A|/2) T / (C √T))


def test_error_terms_and_zeta_by_hand():
    assert bounds.lemma2_Eq(T, DELTA, L, X, A).value == pytest.approx(EQ, rel=1e-12)
    assert bounds.lemma3_Er(T, DELTA, L).value == pytest.approx(
        24.47746830680816, rel=1e-12
    )  # √2 √(100 ln 20)
    assert bounds.lemma4_EG(T, DELTA, L).value == pytest.approx(
        191.94103648752323, rel=1e-12
    )  # 4 √(200 ln 1e5)
    assert bounds.lemma4_EG(T, DELTA, L, length=25).value == pytest.approx(191.94103648752323 / 2, rel=1e-12)
    assert bounds.theorem4_zeta(M, L, RHO).value == 80.0
    assert bounds.theorem4_zeta(M, L, 0.0).value == math.inf
    # R^D_T(0) = η m L² T / 2 and one unit of squared distance adds 1/(2η).
    assert bounds.dual_regret(T, ETA, M, L).value == pytest.approx(ETA * 200, rel=1e-12)
    assert bounds.dual_regret(T, ETA, M, L, 1.0, 10).value == pytest.approx(
        1 / (2 * ETA) + ETA * 20, rel=1e-12
    )


def test_theorem3_by_hand():
    # ℓ̄_{t1,t2} = 0.5, ℓ̄_{t2} = 1, C = 2, 8 episodes: 0.5 Eq + 1·2·2·10 + 0.5 · 4 · 8 / 20.
    value = bounds.theorem3(T, DELTA, L, X, A, 2.0, 0.5, 1.0, 8)
    assert value.value == pytest.approx(0.5 * EQ + 40 + 0.8, rel=1e-12)
    assert value.explicit and value.exponent == 0.5 and "line 305" in value.source


def test_theorems_5_6_7_by_hand():
    regret, violation = bounds.theorem5(T, DELTA, L, X, A, M, RHO, stochastic_rewards=True)
    er, eg, dual = 24.47746830680816, 191.94103648752323, ETA * 200
    assert regret.value == pytest.approx(er + 80 * eg + 80 * EQ + dual + PRIMAL, rel=1e-10)
    assert violation.value == pytest.approx(80 / ETA + EQ, rel=1e-10)
    adversarial_rewards, _ = bounds.theorem5(T, DELTA, L, X, A, M, RHO, stochastic_rewards=False)
    assert regret.value - adversarial_rewards.value == pytest.approx(er, rel=1e-10)
    (regret6, violation6) = bounds.theorem6(T, DELTA, L, X, A, M, stochastic_rewards=True)
    lam = math.sqrt(10)  # m T^{1/4}
    assert regret6.value == pytest.approx(er + lam * (eg + EQ) + dual + (1 + lam) * (EQ + 402), rel=1e-10)
    assert violation6.value == pytest.approx(6 * lam / ETA + EQ, rel=1e-10)
    regret7, violation7, reward7 = bounds.theorem7(T, DELTA, L, X, A, M, RHO, 1.5, stochastic_rewards=False)
    assert regret7.value == pytest.approx(75 + 80 * EQ + dual + PRIMAL, rel=1e-10)  # T·OPT/(1+ρ) = 75
    assert violation7.value == pytest.approx(violation.value)
    assert reward7.value == pytest.approx(150 - regret7.value)
    assert [b.exponent for b in (regret, violation, regret6, violation6, regret7, violation7)] == [
        0.5,
        0.5,
        0.75,
        0.75,
        1.0,
        0.5,
    ]
    assert all(b.explicit for b in (regret, violation, regret6, violation6, regret7, violation7, reward7))


def test_unit_constant_rates():
    rate5 = bounds.theorem5_rate(T, M, L, RHO)
    assert rate5.value == 800.0 and not rate5.explicit and rate5.exponent == 0.5
    rate6 = bounds.theorem6_rate(T)
    assert rate6.value == pytest.approx(100**0.75) and not rate6.explicit and rate6.exponent == 0.75


def all_bounds(horizon):
    """Every bound at horizon ``horizon`` on the example instance (Theorem 7 with OPT = 1.5)."""
    values = [
        bounds.lemma2_Eq(horizon, DELTA, L, X, A),
        bounds.lemma3_Er(horizon, DELTA, L),
        bounds.lemma4_EG(horizon, DELTA, L),
        bounds.dual_regret(horizon, 1e-3, M, L),
        bounds.theorem3(horizon, DELTA, L, X, A, 2.0, 1.0, 1.0, horizon),
        *bounds.theorem5(horizon, DELTA, L, X, A, M, RHO, True),
        *bounds.theorem6(horizon, DELTA, L, X, A, M, False),
        *bounds.theorem7(horizon, DELTA, L, X, A, M, RHO, 1.5, True)[:2],
        bounds.theorem5_rate(horizon, M, L, RHO),
        bounds.theorem6_rate(horizon),
    ]
    return values


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 10**7), st.integers(1, 10**7))
def test_every_bound_increases_with_the_horizon(horizon, extra):
    for before, after in zip(all_bounds(horizon), all_bounds(horizon + extra), strict=True):
        assert after.value > before.value


def test_log_log_slopes_approach_the_theory_exponents():
    # Between T = 10^20 and 10^22 lower-order terms are negligible and the log factors add less than 0.03.
    for low, high in zip(all_bounds(10**20), all_bounds(10**22), strict=True):
        slope = math.log(high.value / low.value) / math.log(100)
        if high.source.startswith("App. C.1.1"):  # a fixed η makes R^D linear in T
            assert slope == pytest.approx(1.0)
            continue
        assert abs(slope - low.exponent) <= 0.03, (low.source, slope)


def test_theorem7_corrected_by_hand():
    # L = 2, ρ = 1, OPT = 1.5, T = 100: the proof's safe mixture keeps ρ/(L+ρ) = 1/3 of T·OPT = 150, so the
    # regret term is L·T·OPT/(L+ρ) = 100 (the statement's T·OPT/(1+ρ) is 75).
    assert bounds.theorem7_corrected_ratio(L, RHO) == pytest.approx(1 / 3)
    assert bounds.theorem7_corrected_ratio(3, 2.92) == pytest.approx(2.92 / 5.92)
    regret, violation, reward = bounds.theorem7_corrected(
        T, DELTA, L, X, A, M, RHO, 1.5, stochastic_rewards=False
    )
    dual = ETA * 200
    assert regret.value == pytest.approx(100 + 80 * EQ + dual + PRIMAL, rel=1e-10)
    assert reward.value == pytest.approx(150 - regret.value)
    assert violation.value == pytest.approx(80 / ETA + EQ, rel=1e-10)  # the violation bound is unchanged
    stated = bounds.theorem7(T, DELTA, L, X, A, M, RHO, 1.5, stochastic_rewards=True)
    corrected = bounds.theorem7_corrected(T, DELTA, L, X, A, M, RHO, 1.5, stochastic_rewards=True)
    assert corrected[0].value - stated[0].value == pytest.approx(100 - 75, rel=1e-9)
    assert [b.exponent for b in corrected] == [1.0, 0.5, 1.0] and all(b.explicit for b in corrected)
    # With L = 1 (layers (1, 1): |X| = 2) the statement and the corrected proof coincide.
    one = bounds.theorem7(T, DELTA, 1, 2, A, M, 0.7, 0.8, False)
    one_corrected = bounds.theorem7_corrected(T, DELTA, 1, 2, A, M, 0.7, 0.8, False)
    assert [b.value for b in one] == pytest.approx([b.value for b in one_corrected], rel=1e-12)
    assert bounds.theorem7_corrected_ratio(1, 0.7) == pytest.approx(0.7 / 1.7)


def chain_with_switching_constraints(rho: float, L: int = 3):
    """The library's chain (regretlab.cmdp.instance.make_chain_cmdp) under the risky_swing adversary: one
    state per layer, two actions; action 1 pays 1/2 and violates by +1 in phase 0, -1 in phase 1 (mean 0);
    action 0 pays 0 and has ḡ = -ρ/L in both phases. Adversarial ρ is ``rho``, q* plays action 1."""
    cmdp = make_chain_cmdp(L, rho)
    environment = make_environment(
        cmdp,
        np.random.default_rng(0),
        "stochastic",
        "adversarial",
        constraint_amplitude=1.0,
        adversary="risky_swing",
    )
    G = np.array(environment.constraints.phases)
    expected = np.zeros((2, 1, L + 1, 2))  # the hand-built phases
    expected[:, 0, :L, 0] = -rho / L
    expected[0, 0, :L, 1], expected[1, 0, :L, 1] = 1.0, -1.0
    np.testing.assert_allclose(G, expected, atol=1e-15)
    return cmdp.layer_sizes, np.array(cmdp.P), np.array(cmdp.r_bar), G


@settings(max_examples=20, deadline=None)
@given(st.floats(0.05, 3.0))
def test_the_stated_mixture_violates_a_phase_and_the_corrected_one_does_not(rho):
    sizes, P, r, G = chain_with_switching_constraints(rho)
    L = len(sizes) - 1
    rho_adv, q_circ = feasibility_parameter_adversarial(P, G)
    assert rho_adv == pytest.approx(rho, abs=1e-9)
    opt, q_star = solve_opt(P, r, G.mean(axis=0))
    assert opt == pytest.approx(L / 2)
    worst = lambda q: np.einsum("tixa,xa->ti", G, q).max()  # noqa: E731
    assert worst(q_star) == pytest.approx(L)  # [G_t^T q*]_i reaches L, not 1 (line 1248)
    stated = rho / (1 + rho) * q_star + 1 / (1 + rho) * q_circ
    corrected_alpha = bounds.theorem7_corrected_ratio(L, rho)
    corrected = corrected_alpha * q_star + (1 - corrected_alpha) * q_circ
    assert worst(stated) == pytest.approx(rho * (L - 1) / (1 + rho)) and worst(stated) > 0
    assert worst(corrected) <= 1e-9
    assert float(np.sum(r * corrected)) == pytest.approx(corrected_alpha * opt)  # the guaranteed share


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 4))
def test_the_corrected_mixture_is_safe_for_every_episode_of_a_random_adversarial_instance(seed, L, n_phases):
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, L, 2, 2, 2, 0.5 * L, constraint_spread=0.2)  # ρ = L/2 is in reach
    G = np.zeros((n_phases, *cmdp.G_bar.shape))
    G[:, :, :-1] = np.clip(cmdp.G_bar[None, :, :-1] + rng.uniform(-0.5, 0.5, G[:, :, :-1].shape), -1, 1)
    rho, q_circ = feasibility_parameter_adversarial(cmdp.P, G)
    assume(rho > 0)
    _, q_star = solve_opt(cmdp.P, cmdp.r_bar, G.mean(axis=0))
    alpha = bounds.theorem7_corrected_ratio(L, rho)
    assert np.einsum("tixa,xa->ti", G, alpha * q_star + (1 - alpha) * q_circ).max() <= 1e-9


def test_theory_entries_of_paper_000_directions_and_values():
    from regretlab.registry.theory import BOUNDS

    point = {
        "T": 10_000,
        "t": 10_000,
        "delta": 0.1,
        "L": 3,
        "m": 1,
        "n_states": 6,
        "n_actions": 2,
        "rho": 2.92,
    }
    point |= {"opt": 1.5, "stochastic_rewards": True, "lambda_star_l1": 0.4, "C": 1.0, "ell_bar": 1.0}
    stated, corrected = BOUNDS["theorem7_reward_ratio"], BOUNDS["theorem7_reward_ratio_corrected"]
    assert stated.evaluate(point) == pytest.approx(2.92 / 3.92)
    assert corrected.evaluate(point) == pytest.approx(2.92 / 5.92)
    assert stated.direction == corrected.direction == "lower" and stated.metric == corrected.metric
    assert BOUNDS["lambda_star"].direction == "reference" and BOUNDS["lambda_star"].evaluate(point) == 0.4
    assert BOUNDS["lemma5_all_epochs_covered"].evaluate(point) == pytest.approx(0.9)
    assert BOUNDS["lemma5_all_epochs_covered"].metric == "all_epochs_covered"
    assert BOUNDS["dual_box"].evaluate(point) == pytest.approx(10.0)  # m T^{1/4}
    assert BOUNDS["dual_box"].direction == "reference"
    assert BOUNDS["theorem5_regret"].direction == "upper"
    # The corrected regret bound exceeds the stated one by T·OPT (L/(L+ρ) - 1/(1+ρ)).
    gap = BOUNDS["theorem7_regret_corrected"].evaluate(point) - BOUNDS["theorem7_regret"].evaluate(point)
    assert gap == pytest.approx(10_000 * 1.5 * (3 / 5.92 - 1 / 3.92), rel=1e-9)
    # Unit-constant rates for tuned runs; the dual-regret bounds at each preset's η.
    assert BOUNDS["theorem5_regret_rate"].evaluate(point) == pytest.approx(180 / 2.92**2 * 100)
    assert not BOUNDS["theorem5_regret_rate"].explicit and not BOUNDS["theorem6_violation_rate"].explicit
    tuned_eta = (3 / 2.92) / (3 * 100)  # D = L/ρ, η = D/(L√(mT))
    assert BOUNDS["dual_regret_tuned"].evaluate(point) == pytest.approx(tuned_eta * 9 * 10_000 / 2)
    paper_eta = 1 / (1200 * math.sqrt(10_000 * math.log(10_000**2 / 0.1)))
    assert BOUNDS["dual_regret_paper"].evaluate(point) == pytest.approx(paper_eta * 9 * 10_000 / 2)
