"""The algorithm of Theorem 3 (paper 001, §3.2): eq. (6) over Ω = {p_i ≥ 1/T}, against a conic reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_theorem2 import (
    FixedRng,
    conic_omd_step,
    instance_of,
    random_strongly_observable,
    reference_estimate,
    reference_sample,
)

from regretlab.bandits.simulate import simulate
from regretlab.bandits.theorem3 import Theorem3
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import (
    disjoint_cliques,
    figure1_graph,
    strongly_observable_family,
    weakly_observable_stars,
)


def eq6_weights(graph, eta, c):
    """Per-coordinate (entropy, log-barrier) weights of eq. (6): (0, 1/η) on S, (1/η, c) on S̄."""
    in_s = graph.self_loops
    return np.where(in_s, 0.0, 1.0 / eta), np.where(in_s, 1.0 / eta, c)


def assert_argmin_psi(p, graph, eta, c, lower):
    """KKT conditions of ``argmin_Ω ψ`` for ψ of eq. (6) (sufficient: ψ is strictly convex): ``∇ψ_i(p_i) = ν``
    on the free coordinates, ``∇ψ_i(p_i) ≥ ν`` where ``p_i = 1/T``, with ∇ψ_i = −1/(η p_i) on S and
    ``(ln p_i + 1)/η − c/p_i`` on S̄."""
    in_s = graph.self_loops
    gradient = np.where(in_s, -1.0 / (eta * p), (np.log(p) + 1.0) / eta - c / p)
    scale = np.where(in_s, 1.0 / (eta * p), (np.abs(np.log(p)) + 1.0) / eta + c / p)
    free = p > lower
    nu = np.median(gradient[free])
    assert abs(p.sum() - 1.0) <= 1e-12 and np.all(p >= lower)
    np.testing.assert_array_less(np.abs(gradient[free] - nu), 1e-12 * scale[free])
    assert np.all(gradient[~free] >= nu - 1e-12 * scale[~free])


def reference_theorem3(graph, losses, uniforms, eta, c, horizon, p_1):
    """Theorem 3's algorithm from ``p_1``, every OMD step (eqs. (2), (6)) solved by the conic reference."""
    lower = np.full(graph.n_arms, 1.0 / horizon)
    a, b = eq6_weights(graph, eta, c)
    p = p_1
    expected = 0.0
    for loss, u in zip(losses, uniforms, strict=True):
        arm = reference_sample(p, u)
        expected += p @ loss
        p = conic_omd_step(p, reference_estimate(graph, p, loss, arm), a, b, lower)
    return expected, p


@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(2, 10),
    factor=st.integers(2, 40),
    l_star_fraction=st.sampled_from([0.0, 1e-3, 0.3, 1.0]),
)
@settings(max_examples=25, deadline=None)
def test_iterates_stay_in_omega(seed, k, factor, l_star_fraction):
    rng = np.random.default_rng(seed)
    graph = random_strongly_observable(rng, k)
    horizon = factor * k
    learner = Theorem3(graph, horizon, np.random.default_rng(seed + 1), L_star=l_star_fraction * horizon)
    tracker = Tracker.start(k, np.array([horizon]))
    losses = rng.random((horizon, k)) * (rng.random((horizon, k)) < 0.7)
    assert abs(learner.p.sum() - 1.0) <= 1e-12 and np.all(learner.p >= 1.0 / horizon)
    for t0 in range(0, horizon, 7):  # small chunks: check p after each
        learner.play(losses[t0 : t0 + 7], t0, tracker)
        assert abs(learner.p.sum() - 1.0) <= 1e-12
        assert np.all(learner.p >= 1.0 / horizon)


@pytest.mark.parametrize(
    "graph",
    [figure1_graph(), strongly_observable_family([1, 2], 3), disjoint_cliques([2, 3])],
    ids=["figure1", "three_without_self_loops", "self_aware"],
)
@pytest.mark.parametrize("l_star", [2e6, 0.0], ids=["sqrt", "cap"])
def test_matches_a_generic_solver_reference(graph, l_star):
    k, horizon = graph.n_arms, 40
    rng = np.random.default_rng(5)
    losses, uniforms = rng.random((horizon, k)), rng.random(horizon)
    learner = Theorem3(graph, horizon, FixedRng(uniforms), L_star=l_star)
    p_1 = learner.p.copy()
    assert_argmin_psi(p_1, graph, learner.eta, learner.c, np.full(k, 1.0 / horizon))
    tracker = Tracker.start(k, np.array([horizon]))
    learner.play(losses, 0, tracker)
    expected, p = reference_theorem3(graph, losses, uniforms, learner.eta, learner.c, horizon, p_1)
    np.testing.assert_allclose(learner.p, p, atol=1e-6)
    assert tracker.sums[0] == pytest.approx(expected, abs=1e-6)


@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 12), log_l_star=st.floats(0.0, 8.0))
@settings(max_examples=40, deadline=None)
def test_first_iterate_is_argmin_of_psi(seed, k, log_l_star):
    rng = np.random.default_rng(seed)
    graph = random_strongly_observable(rng, k)
    horizon = int(rng.integers(k + 1, 10**6))
    learner = Theorem3(
        graph, horizon, rng, constants=str(rng.choice(["paper", "tuned"])), L_star=10.0**log_l_star
    )
    assert_argmin_psi(learner.p, graph, learner.eta, learner.c, np.full(k, 1.0 / horizon))


def test_first_iterate_is_uniform_when_every_node_is_alike():
    for graph in (disjoint_cliques([2, 3]), strongly_observable_family([], 4)):
        learner = Theorem3(graph, 100, np.random.default_rng(0), L_star=10.0)
        np.testing.assert_allclose(learner.p, np.full(graph.n_arms, 1 / graph.n_arms), rtol=1e-14)


def test_constructor_sets_the_paper_constants():
    graph = figure1_graph()  # K = 7, s = 5
    small = Theorem3(graph, 10**6, np.random.default_rng(0), L_star=1e7)
    assert small.c == 64 * 7
    assert small.eta == pytest.approx(np.sqrt(6 / 1e7))  # below the cap 1/448
    np.testing.assert_array_equal(small.lower, np.full(7, 1e-6))
    capped = Theorem3(graph, 10**6, np.random.default_rng(0), L_star=1e3)
    assert capped.eta == 1 / (64 * 7) and capped.params["eta_cap"] == 1 / 448
    assert Theorem3(graph, 10**6, np.random.default_rng(0), L_star=0.0).eta == 1 / 448
    assert small.params["L_star"] == 1e7 and small.params["s"] == 5
    assert small.hypotheses == {"T_at_least_2K": True, "c_at_least_64K": True, "eta_at_most_1_over_64K": True}


def test_tuned_preset_replaces_64_by_1():
    graph = figure1_graph()
    tuned = Theorem3(graph, 10**6, np.random.default_rng(0), constants="tuned", L_star=1e3)
    assert tuned.c == 7 and tuned.eta == pytest.approx(min(np.sqrt(6 / 1e3), 1 / 7))
    assert tuned.hypotheses == {
        "T_at_least_2K": True,
        "c_at_least_64K": False,
        "eta_at_most_1_over_64K": False,
    }


@pytest.mark.parametrize("l_star", [None, -1.0, float("nan"), float("inf")])
def test_requires_a_valid_L_star(l_star):
    with pytest.raises(ValueError, match="L_star"):
        Theorem3(figure1_graph(), 100, np.random.default_rng(0), L_star=l_star)


def test_rejects_bad_inputs():
    with pytest.raises(ValueError, match="Theorem 3"):
        Theorem3(weakly_observable_stars([2]), 100, np.random.default_rng(0), L_star=1.0)
    with pytest.raises(ValueError, match="T > K"):
        Theorem3(figure1_graph(), 7, np.random.default_rng(0), L_star=1.0)
    with pytest.raises(ValueError, match="constants"):
        Theorem3(figure1_graph(), 100, np.random.default_rng(0), constants="fast", L_star=1.0)


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(figure1_graph(), [0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Theorem3(instance.graph, 3000, np.random.default_rng(learner_seed), L_star=600.0)
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed))

    assert run(1, 2).equals(run(1, 2))
    assert not run(1, 2).equals(run(3, 2))
    assert not run(1, 2).equals(run(1, 4))


def test_learns_the_best_arm_on_an_easy_instance():
    instance = instance_of(disjoint_cliques([1, 1, 1, 1]), [0.1, 0.9, 0.9, 0.9])
    learner = Theorem3(instance.graph, 20000, np.random.default_rng(0), L_star=0.1 * 20000)
    rows = simulate(learner, instance, 20000, np.random.default_rng(1))
    assert learner.p.argmax() == 0
    assert rows.iloc[-1]["pseudo_regret"] < 0.25 * 0.8 * 20000  # uniform play: 0.75 · 0.8 · T
