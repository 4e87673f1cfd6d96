"""PDGD-OPS (Algorithm 2), its OGD dual (eq. (9)) and UC-O-GDPS alone: constants, signs, steps by hand."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.dual import (
    DualOGD,
    dual_learning_rate,
    paper_dual_box_horizon,
    paper_K,
    tuned_dual_learning_rate,
    tuned_dual_radius,
)
from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.instance import constraint_summary, make_cmdp, make_layered_cmdp
from regretlab.cmdp.occupancy import pairs_from_triples, sample_trajectory
from regretlab.cmdp.pdgd_ops import PDGDOPS, UCOGDPSAlone, lagrangian_loss, pdgd_constants
from regretlab.cmdp.projection import ConfidenceSetProjector
from regretlab.cmdp.simulate import simulate
from regretlab.cmdp.uc_o_gdps import uniform_occupancy


def test_paper_constants_are_those_of_appendix_c2():
    sizes, n_actions, m, T, delta = (1, 3, 3, 3, 1), 3, 2, 10_000, 0.05  # |X| = 11, L = 4
    paper = pdgd_constants("paper", sizes, n_actions, m, T, delta)
    assert paper.C == pytest.approx(5 * 11 * 3 / 4)  # C = 5 U_2 / L, line 959
    assert paper.K == 100 * 2 * 11 * 3  # line 977
    assert paper.eta == pytest.approx(1 / (6600 * math.sqrt(T * math.log(T**2 / delta))))
    assert paper.eta == pytest.approx(3.27403e-7, rel=1e-5)  # 1 / (6600 · 100 · sqrt(ln(2e9) = 21.4164))
    assert pdgd_constants("paper", sizes, n_actions, m, T, delta, rho=0.1) == paper  # ρ is not used
    assert paper_K(m, 11, 3) == paper.K
    with pytest.raises(ValueError, match="constants must be one of"):
        pdgd_constants("fast", sizes, n_actions, m, T, delta)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        make_learner("exp3", sizes, n_actions, m, T, delta)


def test_tuned_constants_are_ogd_steps_for_a_radius_that_contains_lambda_star():
    sizes, n_actions, m, T, delta = (1, 3, 3, 3, 1), 3, 2, 10_000, 0.05  # |X| = 11, L = 4, T^{1/4} = 10
    tuned = pdgd_constants("tuned", sizes, n_actions, m, T, delta, rho=2.0)
    assert tuned.C == pytest.approx(math.sqrt(33 / 8))  # argmin_C of L C √T + (|X||A|/2) T / (C √T)
    # D = min(L/ρ, √m T^{1/4}) = 2 and η = D / (L √(m T)) = 2 / (4 · √2 · 100).
    assert tuned_dual_radius(4, m, T, 2.0) == 2.0
    assert tuned.eta == pytest.approx(2 / (400 * math.sqrt(2)))
    assert tuned.eta == pytest.approx(dual_learning_rate(tuned.K, T, delta))  # K is the K of line 187
    # Small ρ: the box's diameter √m T^{1/4} caps the radius; no ρ given: D = 1 (the radius at ρ = L).
    assert tuned_dual_radius(4, m, T, 0.01) == pytest.approx(10 * math.sqrt(2))
    assert tuned_dual_radius(4, m, T, 0.0) == pytest.approx(10 * math.sqrt(2))
    assert tuned_dual_learning_rate(4, m, T) == pytest.approx(1 / (400 * math.sqrt(2)))
    # η minimises D²/(2η) + η m L² T / 2 (App. C.1.1): its value there is D L √(mT), below nearby steps.
    ogd = lambda eta: 4 / (2 * eta) + eta * m * 16 * T / 2  # noqa: E731
    assert ogd(tuned.eta) == pytest.approx(2 * 4 * math.sqrt(m * T))
    assert ogd(tuned.eta) < min(ogd(0.9 * tuned.eta), ogd(1.1 * tuned.eta))
    paper = pdgd_constants("paper", sizes, n_actions, m, T, delta)
    assert tuned.eta > 1000 * paper.eta


def test_tuned_dual_reaches_lambda_star_and_the_paper_dual_does_not_move():
    # A binding instance with ρ = 0.97 L; over the second half of a 3000-episode run the tuned λ_t averages
    # to λ* within 25%, while App. C's step leaves λ_t below a fifth of λ* (||λ_T||_1 <= η m L T).
    cmdp = make_cmdp(np.random.default_rng(1), "binding", 2, 2, 2, 1, 1.94)
    lam_star = constraint_summary(cmdp).lambda_star_l1
    environment = make_environment(cmdp, np.random.default_rng(2))
    T = 3000
    second_half = np.linspace(T // 2, T, 11).astype(np.int64)
    lam = {}
    for preset in ("tuned", "paper"):
        learner = make_learner("pdgd_ops", cmdp.layer_sizes, 2, 1, T, 0.1, preset, rho=cmdp.rho)
        frame, _ = simulate(
            learner, cmdp, environment, T, np.random.default_rng(3), np.random.default_rng(4), second_half
        )
        lam[preset] = frame["lambda_l1"].to_numpy()
    assert lam_star > 0.1
    assert 0.75 * lam_star <= lam["tuned"].mean() <= 1.25 * lam_star
    assert lam["paper"].max() <= 0.2 * lam_star


def test_lagrangian_loss_signs_and_shapes():
    # G stored (m, |X|, |A|): ℓ(x, a) = Σ_i λ_i G[i, x, a] - r(x, a) (Algorithm 2 line 6).
    G = np.array([[[0.5, -1.0], [0.0, 0.0]], [[0.2, 0.4], [0.0, 0.0]]])
    r = np.array([[1.0, 0.25], [0.0, 0.0]])
    lam = np.array([2.0, 0.5])
    np.testing.assert_allclose(lagrangian_loss(lam, r, G), [[1.0 + 0.1 - 1.0, -2.0 + 0.2 - 0.25], [0.0, 0.0]])


def test_dual_ogd_is_the_clipped_step_of_eq_16():
    dual = DualOGD(m=3, T=16, eta=0.5)  # box [0, 2]^3
    np.testing.assert_array_equal(dual.lam, 0.0)
    dual.update(np.array([1.0, -1.0, 3.0]))
    np.testing.assert_allclose(dual.lam, [0.5, 0.0, 1.5])
    dual.update(np.array([-0.4, 0.2, 3.0]))
    np.testing.assert_allclose(dual.lam, [0.3, 0.1, 2.0])  # 1.5 + 1.5 is clipped at T^{1/4} = 2
    with pytest.raises(ValueError):
        DualOGD(m=1, T=16, eta=0.0)


def test_first_episodes_of_pdgd_ops_by_hand():
    rng = np.random.default_rng(3)
    cmdp = make_layered_cmdp(rng, 2, 2, 2, 1, 0.3)
    T, delta = 16, 0.1
    learner = PDGDOPS(cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, delta, constants="tuned")
    q_1 = uniform_occupancy(cmdp.layer_sizes, cmdp.n_actions)
    np.testing.assert_array_equal(learner.q_hat, q_1)
    r_1, G_1 = rng.random((cmdp.n_states, 2)), rng.uniform(-1, 1, (1, cmdp.n_states, 2))
    trajectory = sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy)
    loss = learner.update(trajectory, r_1, G_1)
    np.testing.assert_array_equal(loss, -r_1)  # λ_1 = 0
    eta = learner.constants.eta
    expected_lam = np.clip(eta * (G_1[0] * pairs_from_triples(q_1)).sum(), 0, 2.0)  # eq. (9) with q̂_1
    np.testing.assert_allclose(learner.lam, [expected_lam])
    assert learner.rate.ell_bar == np.abs(r_1).max()
    q_2 = learner.q_hat.copy()
    r_2, G_2 = rng.random((cmdp.n_states, 2)), rng.uniform(-1, 1, (1, cmdp.n_states, 2))
    loss = learner.update(sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy), r_2, G_2)
    np.testing.assert_allclose(loss, expected_lam * G_2[0] - r_2)
    violation = (G_2[0] * pairs_from_triples(q_2)).sum()  # the dual sees q̂_2, the occupancy before line 8
    np.testing.assert_allclose(learner.lam, [np.clip(expected_lam + eta * violation, 0, 2.0)])


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_lambda_stays_in_the_box_and_q_hat_in_the_confidence_set(seed):
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, 3, 2, 2, 1, 0.05)
    T = 81  # T^{1/4} = 3
    learner = PDGDOPS(cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.1, constants="tuned")
    learner.dual.eta = 2.0  # a large dual step, so that both ends of the box are reached
    r, _ = make_environment(cmdp, rng).draw(rng, 0, T)
    sign = np.repeat([1.0, -1.0, 1.0], [10, 10, 20])  # G_t = ±0.5 off x_L: violation ±1.5 (L = 3)
    half = np.zeros((1, cmdp.n_states, cmdp.n_actions))
    half[:, :-1] = 0.5
    seen = []
    for t in range(40):
        learner.update(sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy), r[t], sign[t] * half)
        assert np.all(learner.lam >= 0) and np.all(learner.lam <= 3.0)
        seen.append(float(learner.lam[0]))
        confidence = learner.primal.confidence
        projector = ConfidenceSetProjector(
            cmdp.layer_sizes, cmdp.n_actions, confidence.P_bar, confidence.epsilon
        )
        assert projector.violation(learner.q_hat) <= 1e-7
    assert max(seen) == 3.0 and min(seen) == 0.0


def test_uc_o_gdps_alone_keeps_its_fixed_multiplier():
    rng = np.random.default_rng(4)
    cmdp = make_layered_cmdp(rng, 2, 2, 2, 2, 0.3)
    learner = UCOGDPSAlone(cmdp.layer_sizes, cmdp.n_actions, 2, 50, 0.1, lam=np.array([0.5, 1.5]))
    r, G = rng.random((cmdp.n_states, 2)), rng.uniform(-1, 1, (2, cmdp.n_states, 2))
    for _ in range(3):
        loss = learner.update(sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy), r, G)
        np.testing.assert_allclose(loss, 0.5 * G[0] + 1.5 * G[1] - r)
    np.testing.assert_array_equal(learner.lam, [0.5, 1.5])
    assert learner.params["lam"] == [0.5, 1.5] and learner.params["algorithm"] == "uc_o_gdps"
    with pytest.raises(ValueError, match="non-negative"):
        UCOGDPSAlone(cmdp.layer_sizes, cmdp.n_actions, 2, 50, 0.1, lam=np.array([-1.0, 0.0]))
    default = make_learner("uc_o_gdps", cmdp.layer_sizes, cmdp.n_actions, 2, 50, 0.1)
    np.testing.assert_array_equal(default.lam, 0.0)


def test_the_paper_dual_reaches_its_box_side_only_past_paper_dual_box_horizon():
    T = paper_dual_box_horizon(1, 6, 2, 3, 0.1)
    assert 1e14 < T < 1.3e14  # |X||A| = 12, m = 1, L = 3 (config.yaml's comment: ≈ 1.2·10^14)

    def ceiling(horizon):  # η L T with App. C's η, against the box side T^{1/4}
        return (
            pdgd_constants("paper", (1, 2, 2, 1), 2, 1, int(horizon), 0.1).eta * 3 * horizon / horizon**0.25
        )

    assert ceiling(T * 1.001) >= 1 > ceiling(T / 1.001)
    assert paper_dual_box_horizon(2, 6, 2, 3, 0.1) > T  # a larger K = 100 m|X||A|
