"""Counters, doubling epochs and eq. (10) of UC-O-GDPS (Algorithm 3 lines 2-7, Algorithm 4 lines 5-10)."""

from collections import Counter

import numpy as np
import pytest

from regretlab.cmdp.confidence import TransitionConfidence
from regretlab.cmdp.instance import make_layered_cmdp
from regretlab.cmdp.occupancy import layer_of_state, sample_trajectory


def run_episodes(seed, n_episodes, T=1000, delta=0.1):
    """Sample episodes of a random CMDP under a random policy, keeping every trajectory and epoch switch."""
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, 3, (2, 3), 2, 1, 0.3)
    pi = rng.dirichlet(np.ones(2), size=cmdp.n_states)
    confidence = TransitionConfidence(cmdp.layer_sizes, cmdp.n_actions, T, delta)
    trajectories, switches = [], []
    for _ in range(n_episodes):
        trajectories.append(sample_trajectory(rng, cmdp.layer_sizes, cmdp.P, pi))
        confidence.observe(trajectories[-1])
        switches.append(confidence.maybe_new_epoch())
    return cmdp, confidence, trajectories, switches


def brute_force_counts(trajectories, n_states, n_actions):
    pairs = Counter((int(x), int(a)) for t in trajectories for x, a, _ in t)
    triples = Counter(tuple(int(v) for v in row) for t in trajectories for row in t)
    N = np.zeros((n_states, n_actions), dtype=np.int64)
    M = np.zeros((n_states, n_actions, n_states), dtype=np.int64)
    for (x, a), count in pairs.items():
        N[x, a] = count
    for (x, a, x_next), count in triples.items():
        M[x, a, x_next] = count
    return N, M


def test_counters_match_a_brute_force_count():
    cmdp, confidence, trajectories, switches = run_episodes(seed=0, n_episodes=300)
    N, M = brute_force_counts(trajectories, cmdp.n_states, cmdp.n_actions)
    np.testing.assert_array_equal(confidence.N, N)
    np.testing.assert_array_equal(confidence.M, M)
    np.testing.assert_array_equal(confidence.N, confidence.M.sum(axis=2))
    # The epoch's initial counters are the counts of all episodes before it.
    last_switch = max(i for i, switched in enumerate(switches) if switched)
    N_start, M_start = brute_force_counts(trajectories[: last_switch + 1], cmdp.n_states, cmdp.n_actions)
    np.testing.assert_array_equal(confidence.N_start, N_start)
    np.testing.assert_array_equal(confidence.M_start, M_start)


def test_confidence_set_follows_equation_10_from_the_epoch_start_counters():
    T, delta = 1000, 0.1
    cmdp, confidence, *_ = run_episodes(seed=1, n_episodes=200, T=T, delta=delta)
    visits = np.maximum(1, confidence.N_start)
    np.testing.assert_allclose(confidence.P_bar, confidence.M_start / visits[:, :, None])
    next_layer = np.array(cmdp.layer_sizes[1:] + (0,))[layer_of_state(cmdp.layer_sizes)]
    log_term = np.log(T * cmdp.n_states * cmdp.n_actions / delta)
    expected = np.sqrt(2 * next_layer[:, None] * log_term / visits)
    np.testing.assert_allclose(confidence.epsilon[:-1], expected[:-1])
    np.testing.assert_array_equal(confidence.epsilon[-1], 0.0)
    visited = confidence.N_start[:-1] > 0
    np.testing.assert_allclose(confidence.P_bar[:-1][visited].sum(axis=1), 1.0)


def test_epochs_switch_exactly_when_a_visited_pair_doubles():
    cmdp, _, trajectories, switches = run_episodes(seed=2, n_episodes=400)
    N = np.zeros((cmdp.n_states, cmdp.n_actions), dtype=np.int64)
    N_start = N.copy()
    for trajectory, switched in zip(trajectories, switches, strict=True):
        x, a = trajectory[:, 0], trajectory[:, 1]
        N[x, a] += 1
        doubled = bool(np.any(N[x, a] >= np.maximum(1, 2 * N_start[x, a])))
        assert switched == doubled
        if doubled:
            N_start = N.copy()
    # Each pair can trigger at most 1 + log2(T) switches.
    n_pairs = (cmdp.n_states - 1) * cmdp.n_actions
    assert sum(switches) <= n_pairs * (1 + np.log2(len(trajectories)))


def test_a_single_pair_chain_starts_epochs_at_powers_of_two():
    layer_sizes, trajectory = (1, 1), np.array([[0, 0, 1]])
    confidence = TransitionConfidence(layer_sizes, 1, T=100, delta=0.5)
    started_after = []
    for episode in range(1, 70):
        confidence.observe(trajectory)
        if confidence.maybe_new_epoch():
            started_after.append(episode)
            assert confidence.N_start[0, 0] == episode
    assert started_after == [1, 2, 4, 8, 16, 32, 64]
    assert confidence.epoch == 8
    assert not confidence.maybe_new_epoch()  # asking twice after one episode starts no extra epoch


def test_the_first_epoch_allows_every_transition():
    confidence = TransitionConfidence((1, 3, 1), 2, T=1, delta=0.99)
    np.testing.assert_array_equal(confidence.P_bar, 0.0)
    # ||P(.|x, a) - 0||_1 = 1 for any distribution, so eps_1 >= 1 admits every transition function.
    assert np.all(confidence.epsilon[:-1] >= 1.0)


@pytest.mark.parametrize(("T", "delta"), [(0, 0.1), (10, 0.0), (10, 1.0)])
def test_bad_horizon_or_confidence_is_rejected(T, delta):
    with pytest.raises(ValueError, match="delta"):
        TransitionConfidence((1, 2, 1), 2, T, delta)
