"""The algorithm of Theorem 2 (paper 001, §3.1): eq. (5) over Ω = {p_i ≥ 1/T}, against a conic reference.

Also home of :func:`conic_omd_step`, the generic-solver OMD step that the Theorem 3 and Algorithm 5 tests
reuse.
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import simulate
from regretlab.bandits.theorem2 import Theorem2
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import (
    disjoint_cliques,
    figure1_graph,
    random_self_aware,
    strongly_observable_family,
    weakly_observable_stars,
)
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.summary import describe

CLARABEL = dict(
    tol_gap_abs=1e-13,
    tol_gap_rel=1e-13,
    tol_feas=1e-13,
    tol_ktratio=1e-13,
    max_iter=2000,
    max_step_fraction=0.9,
    static_regularization_constant=1e-13,
    iterative_refinement_reltol=1e-16,
    iterative_refinement_abstol=1e-16,
    iterative_refinement_max_iter=100,
)


def instance_of(graph: FeedbackGraph, means) -> BanditInstance:
    return BanditInstance(graph, StochasticBernoulli(tuple(means)), describe(graph))


def random_strongly_observable(rng: np.random.Generator, k: int) -> FeedbackGraph:
    """A self-aware graph or a general strongly observable one with self-loop-free nodes (S̄ ≠ ∅)."""
    if rng.random() < 0.5:
        return random_self_aware(k, rng.uniform(0.1, 0.6), rng)
    n_bar = int(rng.integers(1, k))
    sizes = np.bincount(rng.integers(0, k - n_bar, k - n_bar))
    return strongly_observable_family([int(x) for x in sizes if x > 0], n_bar, rng.uniform(0.0, 0.5), rng)


def conic_omd_step(p, loss_est, entropy_weight, barrier_weight, lower):
    """``argmin_{x ∈ Ω} ⟨x, ℓ̂⟩ + D_ψ(x, p)`` by cvxpy + Clarabel, ``ψ(x) = Σ a_i x_i ln x_i + b_i ln(1/x_i)``.

    Posed in ``r = x/p`` (variables of order 1, which is what lets Clarabel resolve ~1e-9): up to constants
    the objective is ``Σ_i ℓ̂_i p_i r_i + a_i p_i (r_i ln r_i − r_i) + b_i (r_i − ln r_i)``, with
    ``r ln r = −entr(r)`` and the ``−log`` atom, over ``Σ p_i r_i = 1``, ``r_i ≥ lower_i / p_i``.
    """
    a, b = np.broadcast_to(entropy_weight, p.shape), np.broadcast_to(barrier_weight, p.shape)
    shifted = loss_est - loss_est.min()
    scale = max(np.max(a * p), np.max(b), np.max(shifted * p), 1e-300)
    r = cp.Variable(p.size)
    terms = [(shifted * p / scale) @ r]
    entropy, barrier = a > 0, b > 0
    if entropy.any():
        terms.append((a[entropy] * p[entropy] / scale) @ (-cp.entr(r[entropy]) - r[entropy]))
    if barrier.any():
        terms.append((b[barrier] / scale) @ (r[barrier] - cp.log(r[barrier])))
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # "Solution may be inaccurate" at these tolerances: the callers compare
        cp.Problem(cp.Minimize(cp.sum(cp.hstack(terms))), [p @ r == 1, r >= lower / p]).solve(
            solver=cp.CLARABEL, **CLARABEL
        )
    x = np.maximum(r.value * p, lower)
    return x / x.sum()


def reference_sample(p, u):
    """The arm ``sample_arm`` draws: the first index whose cumulative probability exceeds u."""
    return min(int(np.searchsorted(np.cumsum(p), u, side="right")), p.size - 1)


def reference_estimate(graph, p, loss, arm):
    """Eq. (1) with matrix products (W_i = 0 can occur only where p_i = 0, which Algorithm 5 masks)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(graph.adjacency[arm], loss / (graph.adjacency.T.astype(float) @ p), 0.0)


class FixedRng:
    """Hands a learner the uniforms a reference uses, in order."""

    def __init__(self, uniforms):
        self.uniforms, self.used = uniforms, 0

    def random(self, n):
        self.used += n
        return self.uniforms[self.used - n : self.used]


def reference_theorem2(graph, losses, uniforms, eta, c, horizon):
    """Theorem 2's algorithm with every OMD step (eqs. (2), (5)) solved by the conic reference."""
    k = graph.n_arms
    lower = np.full(k, 1.0 / horizon)
    p = np.full(k, 1.0 / k)
    expected = 0.0
    for loss, u in zip(losses, uniforms, strict=True):
        arm = reference_sample(p, u)
        expected += p @ loss
        p = conic_omd_step(p, reference_estimate(graph, p, loss, arm), 1.0 / eta, c, lower)
    return expected, p


@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 10), factor=st.integers(2, 40))
@settings(max_examples=25, deadline=None)
def test_iterates_stay_in_omega(seed, k, factor):
    rng = np.random.default_rng(seed)
    graph = random_strongly_observable(rng, k)
    horizon = factor * k
    learner = Theorem2(graph, horizon, np.random.default_rng(seed + 1))
    tracker = Tracker.start(k, np.array([horizon]))
    losses = rng.random((horizon, k)) * (rng.random((horizon, k)) < 0.7)
    for t0 in range(0, horizon, 7):  # small chunks: check p after each
        learner.play(losses[t0 : t0 + 7], t0, tracker)
        assert abs(learner.p.sum() - 1.0) <= 1e-12
        assert np.all(learner.p >= 1.0 / horizon)


@pytest.mark.parametrize("graph", [disjoint_cliques([2, 3]), figure1_graph()], ids=["cliques", "figure1"])
def test_matches_a_generic_solver_reference(graph):
    k, horizon = graph.n_arms, 40
    rng = np.random.default_rng(11)
    losses, uniforms = rng.random((horizon, k)), rng.random(horizon)
    learner = Theorem2(graph, horizon, FixedRng(uniforms))
    tracker = Tracker.start(k, np.array([horizon]))
    learner.play(losses, 0, tracker)
    expected, p = reference_theorem2(graph, losses, uniforms, learner.eta, learner.c, horizon)
    np.testing.assert_allclose(learner.p, p, atol=1e-6)
    assert tracker.sums[0] == pytest.approx(expected, abs=1e-6)


def test_constructor_sets_the_paper_constants():
    graph = disjoint_cliques([3, 3, 2])  # K = 8, α = 3
    learner = Theorem2(graph, 1200, np.random.default_rng(0))
    assert learner.c == 64 * 8
    assert learner.eta == pytest.approx(1 / np.sqrt(3 * 1200))
    np.testing.assert_array_equal(learner.lower, np.full(8, 1 / 1200))
    np.testing.assert_array_equal(learner.p, np.full(8, 1 / 8))  # p_1 = argmin_Ω ψ
    assert learner.params == {
        "eta": learner.eta,
        "c": 512.0,
        "lower": 1 / 1200,
        "alpha": 3,
        "constants": "paper",
        "lemma9_log_ratio": 0.0,  # no step yet (Lemma 9's record, updated as it plays)
    }
    assert learner.hypotheses == {"T_at_least_2K": True, "c_at_least_64K": True}


def test_tuned_preset_only_drops_the_64():
    graph = disjoint_cliques([3, 3, 2])
    paper = Theorem2(graph, 1200, np.random.default_rng(0))
    tuned = Theorem2(graph, 1200, np.random.default_rng(0), constants="tuned")
    assert tuned.c == 8 and tuned.eta == paper.eta
    np.testing.assert_array_equal(tuned.lower, paper.lower)
    assert tuned.hypotheses == {"T_at_least_2K": True, "c_at_least_64K": False}


def test_short_horizon_flags_the_hypothesis_and_empty_omega_raises():
    graph = disjoint_cliques([2, 2])
    assert Theorem2(graph, 7, np.random.default_rng(0)).hypotheses["T_at_least_2K"] is False
    with pytest.raises(ValueError, match="T > K"):
        Theorem2(graph, 4, np.random.default_rng(0))


def test_rejects_bad_inputs():
    with pytest.raises(ValueError, match="Theorem 2"):
        Theorem2(weakly_observable_stars([2]), 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="constants"):
        Theorem2(disjoint_cliques([2]), 100, np.random.default_rng(0), constants="fast")


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(figure1_graph(), [0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Theorem2(instance.graph, 3000, np.random.default_rng(learner_seed))
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed))

    assert run(1, 2).equals(run(1, 2))
    assert not run(1, 2).equals(run(3, 2))
    assert not run(1, 2).equals(run(1, 4))


def test_learns_the_best_arm_on_an_easy_instance():
    instance = instance_of(disjoint_cliques([1, 1, 1, 1]), [0.1, 0.9, 0.9, 0.9])
    learner = Theorem2(instance.graph, 20000, np.random.default_rng(0))
    rows = simulate(learner, instance, 20000, np.random.default_rng(1))
    assert learner.p.argmax() == 0
    # a uniform player's regret is 0.75 · 0.8 · T; the c = 64K log-barrier slows learning, hence the margin
    assert rows.iloc[-1]["pseudo_regret"] < 0.25 * 0.8 * 20000
