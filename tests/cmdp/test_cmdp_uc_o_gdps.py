"""UC-O-GDPS (INIT of §5.1, Algorithm 3, Algorithm 4): the initial occupancy, the OGD step and the epochs."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.instance import make_layered_cmdp
from regretlab.cmdp.occupancy import (
    induced_transition,
    layer_slices,
    occupancy_from_policy,
    occupancy_violation,
    pairs_from_triples,
    sample_trajectory,
    support_mask,
)
from regretlab.cmdp.offline_lp import solve_opt
from regretlab.cmdp.projection import ConfidenceSetProjector
from regretlab.cmdp.uc_o_gdps import UCOGDPS, AdaptiveRate, uniform_occupancy

layouts = st.tuples(st.lists(st.integers(1, 3), min_size=0, max_size=3), st.integers(1, 3))


@settings(max_examples=10, deadline=None)
@given(layouts)
def test_init_is_the_uniform_occupancy_of_section_5_1(layout):
    interior, n_actions = layout
    sizes = (1, *interior, 1)
    q = uniform_occupancy(sizes, n_actions)
    assert occupancy_violation(sizes, q) <= 1e-12
    for k, (cur, nxt) in enumerate(zip(layer_slices(sizes)[:-1], layer_slices(sizes)[1:], strict=True)):
        np.testing.assert_allclose(q[cur, :, nxt], 1.0 / (sizes[k] * n_actions * sizes[k + 1]), rtol=1e-14)
    learner = UCOGDPS(sizes, n_actions, T=100, delta=0.1)
    np.testing.assert_array_equal(learner.q_hat, q)  # q̂_1, played in the first episode
    np.testing.assert_allclose(learner.policy, 1.0 / n_actions)  # π_1 = π^{q̂_1} is uniform
    mask = support_mask(sizes, n_actions)
    P_uniform = mask / np.maximum(1, mask.sum(axis=2, keepdims=True))
    np.testing.assert_allclose(induced_transition(sizes, q), P_uniform)
    assert learner.epochs == 1 and learner.fallbacks == 0


def test_adaptive_rate_follows_the_running_max_of_the_loss():
    rate = AdaptiveRate(C=2.0, T=100)  # η_t = 1 / (ℓ̄_t · 2 · 10)
    assert rate(np.zeros((3, 2))) == 0.0  # ℓ̄_1 = 0: the step η ℓ is 0 anyway
    assert rate(np.array([[0.5, -0.1]])) == pytest.approx(0.1)
    assert rate(np.array([[0.25, 0.0]])) == pytest.approx(0.1)  # ℓ̄ does not decrease
    assert rate(np.array([[-2.0, 1.0]])) == pytest.approx(0.025)
    assert rate.ell_bar == 2.0


def test_ogd_steps_by_hand_on_a_single_decision_layer():
    # Layers (1, 1): Δ(P_i) is the simplex over the triples (x_0, a, x_L) for every P_i.
    learner = UCOGDPS((1, 1), 3, T=50, delta=0.1)
    np.testing.assert_allclose(learner.q_hat[0, :, 1], [1 / 3, 1 / 3, 1 / 3])
    loss = np.array([[0.2, -0.1, 0.4], [0.0, 0.0, 0.0]])
    learner.update(loss, 0.5, np.array([[0, 1, 1]]))
    # y = 1/3 - 0.5 ℓ = (0.2333, 0.3833, 0.1333) sums to 0.75: the projection adds 0.25/3 to each entry.
    np.testing.assert_allclose(learner.q_hat[0, :, 1], [19 / 60, 28 / 60, 13 / 60], atol=1e-9)
    learner.update(np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), 1.0, np.array([[0, 2, 1]]))
    # y = (-41/60, 28/60, 13/60): the first entry leaves the support, the other two shift by (1 - 41/60) / 2.
    np.testing.assert_allclose(learner.q_hat[0, :, 1], [0.0, 0.625, 0.375], atol=1e-9)
    np.testing.assert_allclose(learner.policy[0], [0.0, 0.625, 0.375], atol=1e-9)
    assert learner.epochs == 3  # N(x_0, a) went 0 -> 1 for a = 1, then for a = 2


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 3), st.integers(1, 3), st.integers(2, 3))
def test_each_update_projects_the_step_onto_the_current_confidence_set(seed, n_layers, width, n_actions):
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, n_layers, width, n_actions, 1, 0.2)
    T, delta = 200, 0.1
    learner = UCOGDPS(cmdp.layer_sizes, n_actions, T, delta)
    for _ in range(25):
        q_before = learner.q_hat.copy()
        trajectory = sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy)
        loss, eta = rng.uniform(-1, 1, size=(cmdp.n_states, n_actions)), rng.uniform(0.01, 0.5)
        learner.update(loss, eta, trajectory)
        # An independent projector on this epoch's P̄_i, ε_i: the step of Algorithm 3 line 8.
        fresh = ConfidenceSetProjector(
            cmdp.layer_sizes, n_actions, learner.confidence.P_bar, learner.confidence.epsilon
        )
        expected = fresh.project(q_before - eta * loss[:, :, None])
        np.testing.assert_allclose(learner.q_hat, expected, atol=1e-7)
        assert fresh.violation(learner.q_hat) <= 1e-7
        assert occupancy_violation(cmdp.layer_sizes, learner.q_hat) <= 1e-7
    assert learner.epochs == learner.confidence.epoch >= 2
    assert isinstance(learner.fallbacks, int) and learner.fallbacks >= 0


def test_with_many_episodes_p_bar_tends_to_p_and_the_primal_to_the_best_occupancy():
    rng = np.random.default_rng(0)
    cmdp = make_layered_cmdp(rng, 3, 2, 2, 1, 0.3)
    T, delta = 1200, 0.05
    learner = UCOGDPS(cmdp.layer_sizes, cmdp.n_actions, T, delta)
    rate = AdaptiveRate(math.sqrt(cmdp.n_states * cmdp.n_actions / (2 * cmdp.L)), T)
    loss = -cmdp.r_bar  # deterministic rewards: UC-O-GDPS alone maximises r̄^T q over Δ(M)
    for _ in range(T):
        trajectory = sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy)
        learner.update(loss, rate(loss), trajectory)
    confidence = learner.confidence
    errors = np.abs(confidence.P_bar - cmdp.P).sum(axis=2)[:-1]
    visited = confidence.N_start[:-1] >= 200
    assert visited.sum() >= 4
    assert np.all(errors[visited] <= confidence.epsilon[:-1][visited])  # Lemma 5's event
    assert np.all(errors[visited] <= 0.3)
    best, _ = solve_opt(cmdp.P, cmdp.r_bar, np.zeros_like(cmdp.G_bar))  # no constraint binds
    played = pairs_from_triples(occupancy_from_policy(cmdp.layer_sizes, cmdp.P, learner.policy))
    assert (cmdp.r_bar * played).sum() >= best - 0.01


def test_epochs_and_fallbacks_are_counted_across_confidence_sets(monkeypatch):
    sets = []

    class CountingProjector:  # every projection "falls back"; the set changes once per epoch
        def __init__(self, layer_sizes, n_actions, P_bar, epsilon):
            self.fallbacks = 0
            self.set_confidence_set(P_bar, epsilon)

        def set_confidence_set(self, P_bar, epsilon):
            sets.append((P_bar.copy(), epsilon.copy()))

        def project(self, y):
            self.fallbacks += 1
            return y

    monkeypatch.setattr("regretlab.cmdp.uc_o_gdps.ConfidenceSetProjector", CountingProjector)
    rng = np.random.default_rng(5)
    cmdp = make_layered_cmdp(rng, 2, 2, 2, 1, 0.2)
    learner = UCOGDPS(cmdp.layer_sizes, cmdp.n_actions, T=100, delta=0.1)
    for t in range(30):
        learner.update(
            np.zeros((cmdp.n_states, 2)),
            0.0,
            sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, learner.policy),
        )
        assert learner.fallbacks == t + 1
        assert len(sets) == learner.epochs  # 𝒫_1 at INIT, then one set per new epoch
        np.testing.assert_array_equal(sets[-1][0], learner.confidence.P_bar)
        np.testing.assert_array_equal(sets[-1][1], learner.confidence.epsilon)
    assert learner.epochs > 3
