"""Algorithm 7 (paper 001, App. E.5): D with an S node, p_1, δ_1 and the presets, the reset rule, iterates
in Ω,
and agreement with a reference whose every OMD step is a cvxpy + Clarabel solve.

Tests that need several resets within a short run start the learner from a larger δ with ``_begin`` (what the
constructor does with Theorem 18's δ_1): with δ_1 = 1/125 and γ = 1/2 the first reset needs Σ ℓ̂ ≥ 15625.
"""

import numpy as np
import pytest
from test_algorithm1 import FixedRng, instance_of
from test_algorithm6 import inverse_cdf, reference_step

from regretlab.bandits.algorithm7 import Algorithm7, delta_cap
from regretlab.bandits.simulate import simulate
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import directed_complete_bipartite, weakly_observable_stars
from regretlab.graphs.feedback_graph import FeedbackGraph

#: 0 ⇄ 1 and 0 → 2 without self-loops (all three weakly observable), 3 with a self-loop only: the minimum
#: weakly
#: dominating set is {0, 1} ⊂ S̄, so line 1329 adds node 3.
NO_S_IN_D = FeedbackGraph.from_edges(4, [(0, 1), (1, 0), (0, 2), (3, 3)])


def reference_algorithm7(graph, members, losses, uniforms, gamma, delta):
    """Algorithm 7 from the pseudocode (lines 1313–1327 with Algorithm 2's lines 224–230), independently
    written."""
    in_s, adj = graph.self_loops, graph.adjacency
    s, s_bar = graph.s, graph.s_bar
    p1 = np.where(in_s, 1 / (2 * s), 1 / (2 * s_bar)) if s else np.full(graph.n_arms, 1 / s_bar)
    in_d = np.isin(np.arange(graph.n_arms), members)
    p, total = p1.copy(), 0.0
    out = {"p": [], "resets": []}
    for t, (loss, u) in enumerate(zip(losses, uniforms, strict=True), start=1):
        eta, eta_bar = delta ** (1 / (2 * gamma)), delta ** (0.5 + 1 / (2 * gamma))
        out["p"].append(p.copy())
        arm = inverse_cdf(p, u)
        est = np.where(adj[arm], loss / (adj.T.astype(float) @ p), 0.0)
        a = np.where(in_s, 2 * eta * p * est**2, 2 * eta_bar * est**2)
        p = reference_step(p, est + a, in_s, eta, eta_bar, np.where(in_d, delta, 0.0), 0.0)
        total += est[in_d].sum()
        if delta ** (-1 / gamma) <= total:
            out["resets"].append(t)
            delta, p, total = delta / 2, p1.copy(), 0.0
    out["delta"] = delta
    return out


@pytest.mark.parametrize(
    "preset, gamma, delta, min_resets", [("paper", 0.5, 0.24, 2), ("tuned", 1 / 3, 0.24, 1)]
)
def test_resets_fire_exactly_as_the_reference_on_a_handmade_sequence(preset, gamma, delta, min_resets):
    """D's hubs lose 0 for 40 rounds (Σ_D ℓ̂ stays 0: no reset), then everything loses 1 (resets: the first
    once Σ_D ℓ̂ ≥ δ^{−1/γ}, ~ 17 rounds at γ = 1/2 and ~ 36 at γ = 1/3 with both hubs losing 1). δ ≤ 1/(4d)."""
    graph = weakly_observable_stars([2, 2])
    losses = np.ones((160, 6))
    losses[:40, :2] = 0.0
    uniforms = np.random.default_rng(4).random(160)
    learner = Algorithm7(graph, 160, FixedRng(uniforms), preset, gamma)
    learner._begin(delta)
    tracker = Tracker.start(6, np.array([160]))
    played = []
    for t in range(160):
        played.append(learner.p.copy())
        learner.play(losses[t : t + 1], t, tracker)
        assert abs(learner.p.sum() - 1) <= 1e-12
        assert np.all(learner.p[learner.in_d] >= learner.delta * (1 - 1e-12))  # p ∈ Ω
        if t < 40:
            assert learner.n_resets == 0
    ref = reference_algorithm7(graph, learner.members, losses, uniforms, learner.gamma, delta)
    assert len(ref["resets"]) >= min_resets and ref["resets"][0] > 40
    assert learner.params["reset_rounds"] == ref["resets"]
    assert learner.delta == ref["delta"] == delta / 2 ** len(ref["resets"])
    # see test_algorithm6 for the tolerance
    np.testing.assert_allclose(played, np.array(ref["p"]), rtol=0, atol=1e-5)


def test_reset_restores_p1_and_halves_delta_and_the_rates():
    graph = weakly_observable_stars([1, 3])
    learner = Algorithm7(graph, 2000, np.random.default_rng(0), "paper", 0.5)
    learner._begin(0.2)
    tracker = Tracker.start(6, np.array([2000]))
    t = 0
    while learner.n_resets == 0:
        learner.play(np.ones((1, 6)), t, tracker)
        t += 1
    np.testing.assert_array_equal(learner.p, learner.p_first)
    assert learner.delta == 0.1 and learner.epoch_sum[0] == 0.0
    np.testing.assert_allclose(learner.rates[1:], [0.1, 0.1**1.5, 0.1**-2], rtol=1e-14)
    np.testing.assert_array_equal(learner.lower, np.where(learner.in_d, 0.1, 0.0))


def test_dominating_set_gets_an_s_node_and_delta_start_follows_theorem18():
    learner = Algorithm7(NO_S_IN_D, 100, np.random.default_rng(0), "paper", 1 / 3)
    assert learner.params["D"] == [0, 1, 3] and learner.d == 3
    assert learner.delta_start == min(1 / 125, 1 / 12, 1 / 4)
    stars = Algorithm7(weakly_observable_stars([2, 2, 2]), 100, np.random.default_rng(0), "paper", 0.5)
    assert stars.params["D"] == [0, 1, 2]  # the hubs already are in S
    bipartite = Algorithm7(directed_complete_bipartite(40, 3), 100, np.random.default_rng(0), "paper", 0.5)
    assert bipartite.d == 1 and bipartite.delta_start == 1 / 160  # 1/(4s) binds
    assert all(bipartite.hypotheses.values())
    np.testing.assert_allclose(bipartite.p_first, [1 / 80] * 40 + [1 / 6] * 3, rtol=1e-15)


@pytest.mark.parametrize("gamma", [1 / 3, 1 / 2])
def test_presets_set_gamma_and_the_tuned_cap_keeps_theorem8_conditions(gamma):
    graph = weakly_observable_stars([3, 3])
    paper = Algorithm7(graph, 1000, np.random.default_rng(0), "paper", gamma)
    tuned = Algorithm7(graph, 1000, np.random.default_rng(0), "tuned", gamma)
    assert paper.gamma == tuned.gamma == pytest.approx(gamma, rel=1e-15)
    assert paper.delta_start == 1 / 125 and all(paper.hypotheses.values())
    assert tuned.delta_start == min(delta_cap(gamma, True), 1 / 8)
    eta, eta_bar = tuned.rates[1], tuned.rates[2]
    assert eta <= 1 / 25 * (1 + 1e-12) and eta_bar <= tuned.delta_start / 5 * (1 + 1e-12)
    assert not tuned.hypotheses["delta_start_is_theorem18"]
    assert eta == pytest.approx(tuned.delta_start ** (1 / (2 * gamma)), rel=1e-14)
    assert eta_bar == pytest.approx(tuned.delta_start ** (0.5 + 1 / (2 * gamma)), rel=1e-14)


def test_empty_s_uses_a_uniform_p1_and_drops_the_s_term():
    cycle = FeedbackGraph.from_edges(3, [(0, 1), (1, 2), (2, 0)])
    learner = Algorithm7(cycle, 100, np.random.default_rng(0), "paper", 0.5)
    np.testing.assert_allclose(learner.p_first, 1 / 3, rtol=1e-15)
    assert learner.delta_start == min(1 / 125, 1 / (4 * learner.d))
    tracker = Tracker.start(3, np.array([100]))
    learner.play(np.random.default_rng(1).random((100, 3)), 0, tracker)
    assert abs(learner.p.sum() - 1) <= 1e-12


def test_rejects_strongly_observable_graphs_and_unknown_presets():
    with pytest.raises(ValueError, match="weakly observable"):
        Algorithm7(FeedbackGraph.from_edges(2, [(0, 0), (1, 1)]), 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="constants"):
        Algorithm7(weakly_observable_stars([2]), 100, np.random.default_rng(0), "paper_gamma_1_3")
    with pytest.raises(ValueError, match="gamma"):
        Algorithm7(weakly_observable_stars([2]), 100, np.random.default_rng(0), "paper", 0.6)


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(weakly_observable_stars([2, 3]), [0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Algorithm7(instance.graph, 3000, np.random.default_rng(learner_seed), "tuned", 0.5)
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed))

    assert run(1, 2).equals(run(1, 2))
    assert not run(1, 2).equals(run(3, 2))
