"""Occupancy measures: forward recursion, Lemma 1, eq. (4) and trajectory sampling."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.occupancy import (
    POLICY_ZERO_MASS,
    check_layer_sizes,
    induced_policy,
    induced_transition,
    is_valid_occupancy,
    layer_slices,
    occupancy_from_policy,
    occupancy_violation,
    pairs_from_triples,
    sample_trajectory,
    support_mask,
    triples_from_pairs,
)


def random_transition(rng, layer_sizes, n_actions):
    slices = layer_slices(layer_sizes)
    n_states = sum(layer_sizes)
    P = np.zeros((n_states, n_actions, n_states))
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        P[cur, :, nxt] = rng.dirichlet(np.ones(nxt.stop - nxt.start), size=(cur.stop - cur.start, n_actions))
    return P


def random_policy(rng, n_states, n_actions, sparse):
    """A Dirichlet policy; with ``sparse`` some actions get probability 0 (unreachable states appear)."""
    pi = rng.dirichlet(np.ones(n_actions), size=n_states)
    if sparse:
        pi[rng.random(pi.shape) < 0.5] = 0.0
        pi[np.arange(n_states), rng.integers(n_actions, size=n_states)] += 0.1
        pi /= pi.sum(axis=1, keepdims=True)
    return pi


instances = st.tuples(
    st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.booleans()
)


def draw(params):
    seed, n_layers, width, n_actions, sparse = params
    rng = np.random.default_rng(seed)
    layer_sizes = (1, *rng.integers(1, width + 1, size=n_layers - 1), 1)
    P = random_transition(rng, layer_sizes, n_actions)
    return layer_sizes, P, random_policy(rng, sum(layer_sizes), n_actions, sparse)


@settings(max_examples=40, deadline=None)
@given(instances)
def test_forward_recursion_gives_a_valid_occupancy(params):
    layer_sizes, P, pi = draw(params)
    q = occupancy_from_policy(layer_sizes, P, pi)
    valid, violation = is_valid_occupancy(layer_sizes, q, P, tol=1e-12)
    assert valid, violation
    assert np.all(q[~support_mask(layer_sizes, P.shape[1])] == 0)


@settings(max_examples=40, deadline=None)
@given(instances)
def test_induced_policy_and_transition_recover_pi_and_P_where_reachable(params):
    layer_sizes, P, pi = draw(params)
    q = occupancy_from_policy(layer_sizes, P, pi)
    q_pairs = pairs_from_triples(q)
    reached_states = q_pairs.sum(axis=1) > POLICY_ZERO_MASS
    reached_pairs = q_pairs > 0
    induced = induced_transition(layer_sizes, q)
    np.testing.assert_allclose(induced_policy(q)[reached_states], pi[reached_states], atol=1e-12)
    np.testing.assert_allclose(induced[reached_pairs], P[reached_pairs], atol=1e-12)
    # Where eq. (4) is undefined the documented defaults are uniform distributions.
    np.testing.assert_allclose(induced_policy(q)[~reached_states], 1.0 / P.shape[1])
    np.testing.assert_allclose(induced[:-1].sum(axis=2), 1.0)
    # An induced policy played in the true P reproduces q (Lemma 1: P^q = P).
    np.testing.assert_allclose(occupancy_from_policy(layer_sizes, P, induced_policy(q)), q, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(instances)
def test_pair_and_triple_views_convert_both_ways(params):
    layer_sizes, P, pi = draw(params)
    q = occupancy_from_policy(layer_sizes, P, pi)
    np.testing.assert_allclose(triples_from_pairs(pairs_from_triples(q), P), q, atol=1e-15)


def test_validity_check_reports_each_kind_of_violation():
    rng = np.random.default_rng(0)
    layer_sizes = (1, 2, 3, 1)
    P = random_transition(rng, layer_sizes, 2)
    q = occupancy_from_policy(layer_sizes, P, random_policy(rng, 7, 2, sparse=False))
    assert is_valid_occupancy(layer_sizes, q, P)[0]

    broken_flow = q.copy()
    broken_flow[1, 0, 3] += 0.1
    broken_flow[2, 0, 3] -= 0.1  # layer sum kept, flow out of states 1 and 2 changed
    valid, violation = is_valid_occupancy(layer_sizes, broken_flow)
    assert not valid and violation == pytest.approx(0.1)

    scaled = 1.5 * q
    assert occupancy_violation(layer_sizes, scaled) == pytest.approx(0.5)

    outside = q.copy()
    outside[0, 0, 4] = 0.2
    assert occupancy_violation(layer_sizes, outside) >= 0.2

    other_P = random_transition(rng, layer_sizes, 2)
    assert is_valid_occupancy(layer_sizes, q)[0]
    assert not is_valid_occupancy(layer_sizes, q, other_P)[0]


def test_sampled_trajectories_follow_the_occupancy_measure():
    rng = np.random.default_rng(1)
    layer_sizes = (1, 2, 2, 1)
    P = random_transition(rng, layer_sizes, 2)
    pi = random_policy(rng, 6, 2, sparse=False)
    q = occupancy_from_policy(layer_sizes, P, pi)
    n_episodes = 20_000
    counts = np.zeros_like(q)
    for _ in range(n_episodes):
        trajectory = sample_trajectory(rng, layer_sizes, P, pi)
        assert trajectory.shape == (3, 3)
        assert trajectory[0, 0] == 0 and trajectory[-1, 2] == 5
        np.testing.assert_array_equal(trajectory[1:, 0], trajectory[:-1, 2])
        np.add.at(counts, tuple(trajectory.T), 1)
    frequencies = counts / n_episodes
    standard_error = np.sqrt(q * (1 - q) / n_episodes)
    assert np.all(np.abs(frequencies - q) <= 5 * standard_error + 1e-12)


def test_sampling_is_reproducible_from_the_generator_and_never_takes_impossible_actions():
    layer_sizes = (1, 3, 1)
    P = random_transition(np.random.default_rng(2), layer_sizes, 3)
    pi = np.tile([0.0, 1.0, 0.0], (5, 1))
    first = [sample_trajectory(np.random.default_rng(7), layer_sizes, P, pi) for _ in range(2)]
    np.testing.assert_array_equal(first[0], first[1])
    trajectories = [sample_trajectory(np.random.default_rng(s), layer_sizes, P, pi) for s in range(200)]
    assert all(np.all(t[:, 1] == 1) for t in trajectories)


@pytest.mark.parametrize("layer_sizes", [(1,), (2, 1), (1, 2), (1, 0, 1), ()])
def test_bad_layer_sizes_are_rejected(layer_sizes):
    with pytest.raises(ValueError, match="layer_sizes"):
        check_layer_sizes(layer_sizes)


def test_round_off_occupancy_reads_as_an_unreached_state():
    """q(x) at round-off level (≤ 1e-12) gives the uniform policy, whatever the ratios of its entries; just
    above it, eq. (4)'s ratios."""
    q = np.zeros((3, 2, 3))
    q[0, 0, 1], q[0, 1, 1] = 0.25, 0.75
    q[1, 0, 2], q[1, 1, 2] = 3e-14, -1e-13  # a projection's round-off
    np.testing.assert_allclose(induced_policy(q)[1], [0.5, 0.5])
    q[1, 0, 2], q[1, 1, 2] = 3e-12, 1e-12
    np.testing.assert_allclose(induced_policy(q)[1], [0.75, 0.25])
    np.testing.assert_allclose(induced_policy(q)[0], [0.25, 0.75])
