"""The leader with exploration min{1, c/t} on D (regretlab.bandits.leader): its update against a plain-numpy
reference, and the property that makes it the learner of Theorem 5's figure: O(ln T) regret on environment 1
(the premise, as App. E.1 uses it), hence an interval on which environment 2 costs it about |I|."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exp3g_weak import graphs

from regretlab.bandits.leader import ExplorationLeader
from regretlab.bandits.lower_bound import (
    Theorem5Losses,
    epsilon_hat,
    expected_loss_curve,
    find_interval,
    premise_holds,
    theorem5_pair,
)
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import disjoint_cliques, weakly_observable_stars


class Uniforms:
    """Hands the learner the uniforms the reference uses, in order."""

    def __init__(self, uniforms):
        self.uniforms, self.used = uniforms, 0

    def random(self, n):
        self.used += n
        return self.uniforms[self.used - n : self.used]


def reference(graph, losses, uniforms, c, explore):
    """The learner in plain numpy, round by round: returns Σ⟨p_t, ℓ_t⟩, the played p_t and the estimates."""
    k = graph.n_arms
    estimates = np.zeros(k)
    expected, played = 0.0, []
    for t, (loss, u) in enumerate(zip(losses, uniforms, strict=True), start=1):
        gamma = min(1.0, c / t)
        p = gamma * explore
        p[int(np.argmin(estimates))] += 1.0 - gamma  # argmin: lowest index among ties
        arm = min(int(np.searchsorted(np.cumsum(p), u, side="right")), k - 1)
        expected += p @ loss
        played.append(p)
        w = graph.adjacency.T.astype(float) @ p
        estimates += np.where(graph.adjacency[arm], loss / np.where(w > 0, w, 1.0), 0.0)
    return expected, np.array(played), estimates


@given(graph=graphs(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_matches_reference_and_explores_d_with_probability_c_over_t(graph, seed):
    rng = np.random.default_rng(seed)
    horizon, k = 300, graph.n_arms
    losses = rng.random((horizon, k)) * (rng.random(k) < 0.5)  # some arms never lose
    uniforms = np.random.default_rng(seed + 1).random(horizon)
    learner = ExplorationLeader(graph, horizon, Uniforms(uniforms))
    tracker = Tracker.start(k, np.array([horizon]))
    played = []
    for t0 in range(horizon):
        learner.play(losses[t0 : t0 + 1], t0, tracker)
        played.append(learner.p.copy())
    played = np.array(played)
    expected, reference_played, estimates = reference(graph, losses, uniforms, learner.c, learner.explore)
    np.testing.assert_allclose(played, reference_played, rtol=0, atol=1e-15)
    np.testing.assert_allclose(learner.estimates, estimates, rtol=1e-12)
    assert tracker.sums[0] == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(played.sum(axis=1), 1.0, atol=1e-12)
    members = list(graph.weakly_dominating_set.members)
    gamma = np.minimum(1.0, learner.c / np.arange(1, horizon + 1))
    # every D node has at least γ_t/d, and the mass off the leader is exactly the exploration
    assert np.all(played[:, members] >= gamma[:, None] / len(members) - 1e-15)
    assert learner.leader[0] == int(np.argmin(estimates))


def test_rejects_a_strongly_observable_graph_and_unknown_presets():
    with pytest.raises(ValueError, match="weakly observable"):
        ExplorationLeader(disjoint_cliques([2, 2]), 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="constants"):
        ExplorationLeader(weakly_observable_stars([2, 2]), 100, np.random.default_rng(0), "tuned")


def env1_regret(horizon, seeds=4, b=0.5):
    graph = weakly_observable_stars([2, 2])
    u, v = theorem5_pair(graph)
    env1 = Theorem5Losses(graph.n_arms, u, v, b, horizon)
    curves = [expected_loss_curve(ExplorationLeader(graph, horizon, np.random.default_rng(j)), env1)
              for j in range(seeds)]
    return graph, (u, v), np.mean(curves, axis=0)


def test_regret_on_environment_1_is_logarithmic():
    """L* = 0 there: the regret is the exploration's cost, (c/d)·Σ_{i∈D} ℓ_i · H_T, plus the rounds before the
    leader settles on u; D = the two hubs, ℓ = 1 and T^{-1/2}."""
    for horizon in (1_000, 100_000):
        _, _, curve = env1_regret(horizon)
        exploration = 0.5 * (1 + horizon**-0.5) * (math.log(horizon) + 0.5772)
        assert exploration < curve[-1] < exploration + 2.5


def test_premise_holds_at_the_largest_quick_horizon_and_environment_2_costs_half_the_interval():
    """App. E.1 on this learner: at T = 10^5 the measured ε̂ satisfies ε̂ < b < 1 − 2ε̂, and in environment 2 the
    mean regret over fresh seeds is at least |I|/2 − T^{1−b} (the proof: with probability ≥ 1/2 no bad arm is
    pulled in I, so u is played there, and v's total loss is T^{1−b})."""
    horizon, b = 100_000, 0.5
    graph, (u, v), curve = env1_regret(horizon)
    found = find_interval(curve)
    epsilon = epsilon_hat(found["stop"] - found["start"], horizon)
    assert premise_holds(epsilon, b)
    env2 = Theorem5Losses(graph.n_arms, u, v, b, horizon, found["start"], found["stop"])
    regrets = []
    for seed in range(10):
        learner = ExplorationLeader(graph, horizon, np.random.default_rng([99, seed]))
        tracker = Tracker.start(graph.n_arms, np.array([horizon]))
        for t0 in range(0, horizon, 8192):
            learner.play(env2.draw(None, t0, min(8192, horizon - t0)), t0, tracker)
        regrets.append(tracker.records[0, 0])
    length = found["stop"] - found["start"]
    assert np.mean(regrets) >= length / 2 - horizon ** (1 - b)
    assert length == pytest.approx(horizon ** (1 - epsilon), rel=1e-9)  # what the figure draws
    assert length >= horizon / (2 * found["N"] + 3)  # ⌊·⌋ blocks of T/(2⌈N⌉ + 1): the proof's T/(2N_bad + 1)
