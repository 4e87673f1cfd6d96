"""Algorithm 5 (paper 001, Appendix D): the reconstructed control flow, a conic reference, and the iterates.

The hand-made loss sequences use graphs on which the estimates are deterministic whatever arm is played (a
complete graph: every arm observes every arm, ``ℓ̂ = ℓ``) or fix the arms with chosen uniforms.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_theorem2 import FixedRng, conic_omd_step, instance_of, reference_estimate, reference_sample

from regretlab.bandits.algorithm5 import Algorithm5, clipped_estimate
from regretlab.bandits.simulate import simulate
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import disjoint_cliques, figure1_graph, mycielski_complement, random_self_aware
from regretlab.graphs.feedback_graph import FeedbackGraph


def play_round_by_round(learner, losses):
    """Play one round per call; return the learner's (η, ε, meta-epoch, epochs, stage-2 start) after each."""
    tracker = Tracker.start(losses.shape[1], np.array([losses.shape[0]]))
    trace = []
    for t0 in range(losses.shape[0]):
        learner.play(losses[t0 : t0 + 1], t0, tracker)
        params = learner.params
        trace.append(
            (learner.eta, learner.epsilon, params["meta_epochs"], params["epochs"], learner.stage2_start)
        )
    return trace, tracker


# ------------------------------------------------------------------------------------------------------------
# Control flow on hand-made loss sequences
# ------------------------------------------------------------------------------------------------------------


def test_epochs_halve_eta_and_meta_epochs_reset_eta_and_epsilon():
    """Complete graph on 2 arms (κ = α = 1), all losses 1: ℓ̂ = 1, so the epoch's min sum is its length n and
    the test 1/η ≤ 4ηκn fires at n = 1/(4η²): 4, 16, 64 rounds at η = 1/4, 1/8, 1/16. With T = 1024 the floor
    is √(1/(αT)) = 1/32, so the third halving ends the meta-epoch: 84 rounds per meta-epoch, 3 epochs each."""
    learner = Algorithm5(disjoint_cliques([2]), 1024, np.random.default_rng(0))
    trace, _ = play_round_by_round(learner, np.ones((200, 2)))
    eta, eps = [row[0] for row in trace], [row[1] for row in trace]
    assert eta[:3] == [1 / 4] * 3 and eps[:3] == [1 / 2] * 3  # η_init = 1/(4κ), ε = 1/(2κ)
    assert eta[3] == 1 / 8 and eps[3] == 1 / 4  # halved after round 4; ε = max{2η, 1/T}
    assert eta[4:19] == [1 / 8] * 15 and eta[19] == 1 / 16 and eps[19] == 1 / 8  # after round 4 + 16 = 20
    assert eta[82] == 1 / 16 and eps[82] == 1 / 8
    assert eta[83] == 1 / 4 and eps[83] == 1 / 2  # round 84: η = 1/32 ≤ floor → new meta-epoch, both reset
    assert [row[2] for row in trace[82:85]] == [1, 2, 2]
    assert [row[3] for row in trace[:5]] == [1, 1, 1, 2, 2] and trace[83][3] == 4
    assert trace[167][2:4] == (3, 7)  # round 168 = 2 · 84 ends meta-epoch 2
    assert learner.p_hat.tolist() == [0.5, 0.5]  # reset at the epoch's start (R2)


def test_stage_two_starts_after_log2_T_meta_epochs():
    """Same sequence, T = 64: floor √(1/64) = 1/8, so one halving ends a meta-epoch (4 rounds); after
    log₂ 64 = 6 meta-epochs, stage 2 (Theorem 2's algorithm, from scratch) starts at round 25."""
    horizon = 64
    learner = Algorithm5(disjoint_cliques([2]), horizon, np.random.default_rng(0))
    trace, tracker = play_round_by_round(learner, np.ones((horizon, 2)))
    assert [row[4] for row in trace[22:25]] == [None, 25, 25]  # the halving in round 24 ends meta-epoch 6
    assert learner.params["meta_epochs"] == 6 and learner.params["epochs"] == 6
    assert learner.params["stage2_started"] is True and learner.params["stage2_start_round"] == 25
    np.testing.assert_array_equal(learner.stage2.p, [0.5, 0.5])  # equal losses: stays at argmin_Ω ψ
    assert tracker.sums[0] == pytest.approx(horizon)


def test_game_can_end_in_stage_one_when_log2_T_is_not_an_integer():
    """T = 100: ⌊log₂ T⌋ = 6 meta-epochs, floor 1/10 < 1/8, so a meta-epoch is 4 + 16 = 20 rounds (2 epochs):
    meta-epoch 5 ends with the game at round 100, and the halving there begins nothing (R4)."""
    learner = Algorithm5(disjoint_cliques([2]), 100, np.random.default_rng(0))
    trace, _ = play_round_by_round(learner, np.ones((100, 2)))
    assert trace[-1][:2] == (1 / 16, 1 / 8)  # halved in round 100, not reset
    assert learner.params["max_meta_epochs"] == 6
    assert (learner.params["meta_epochs"], learner.params["epochs"]) == (5, 10)
    assert learner.params["stage2_started"] is False and learner.params["stage2_start_round"] is None


def test_clipping_zeroes_a_clique_renormalises_and_the_clique_can_come_back():
    """Cliques {0, 1} and {2} (κ = 2: η = 1/8, ε = 1/4). Arm 2 has loss 1 and is played in rounds 1–2; arms
    0, 1 have loss 0 in rounds 1–3, then 1."""
    graph = disjoint_cliques([2, 1])
    losses = np.array([[0.0, 0.0, 1.0]] * 3 + [[1.0, 1.0, 1.0]] * 6)
    learner = Algorithm5(graph, 1000, FixedRng(np.r_[0.99, 0.99, np.full(7, 0.1)]))
    tracker = Tracker.start(3, np.array([9]))

    def p_hat_2(sum_2, sum_01):  # p̂_{t+1} ∝ exp(−η Σ_τ ℓ̂_τ) over the epoch (R6)
        return math.exp(-sum_2 / 8) / (math.exp(-sum_2 / 8) + 2 * math.exp(-sum_01 / 8))

    learner.play(losses[:1], 0, tracker)  # ℓ̂_2 = 1/(1/3) = 3: p̂_2 ≈ 0.256 > 1/4, nothing clipped
    assert learner.p_hat[2] == pytest.approx(p_hat_2(3, 0), rel=1e-14) and learner.p_hat[2] > 0.25
    np.testing.assert_array_equal(learner.p, learner.p_hat)
    sum_2 = 3 + 1 / learner.p[2]
    learner.play(losses[1:2], 1, tracker)  # arm 2 again: p̂_2 ≈ 0.174 ≤ 1/4 → clique {2} clipped
    assert learner.p_hat[2] == pytest.approx(p_hat_2(sum_2, 0), rel=1e-14) and learner.p_hat[2] <= 0.25
    np.testing.assert_allclose(learner.p, [0.5, 0.5, 0.0], rtol=1e-15)  # renormalised over {0, 1}
    learner.play(losses[2:3], 2, tracker)  # ℓ̂ = 0: nothing moves
    np.testing.assert_allclose(learner.p, [0.5, 0.5, 0.0], rtol=1e-15)
    # Now arms 0, 1 lose 1 each round and observe each other (ℓ̂ = 1/(p_0 + p_1) = 1); arm 2 is not played, so
    # ℓ̂_2 = 0 and p̂_2 grows back: the clique returns once p̂_2 > 1/4, i.e. after 4 such rounds (R1).
    for n in range(1, 5):
        learner.play(losses[2 + n : 3 + n], 2 + n, tracker)
        assert learner.p_hat[2] == pytest.approx(p_hat_2(sum_2, n), rel=1e-13)
        assert (learner.p[2] > 0) == (n == 4)
    np.testing.assert_array_equal(learner.p, learner.p_hat)
    assert learner.params["epochs"] == 1  # min_i Σ ℓ̂ = 4 < 1/(4κη²) = 8: no halving


def test_estimate_is_zero_on_arms_with_zero_probability():
    """(R5): arm 0 observes arm 2 (not in its clique); with p_2 = 0 the estimate of ℓ_2 is 0, not ℓ_2/p_0."""
    graph = FeedbackGraph.from_edges(3, [(0, 0), (1, 1), (2, 2), (0, 1), (1, 0), (0, 2)])
    p, loss, out = np.array([0.5, 0.5, 0.0]), np.array([0.3, 0.6, 0.9]), np.empty(3)
    clipped_estimate(p, loss, 0, graph.adjacency, out)
    np.testing.assert_allclose(out, [0.3, 0.6, 0.0])
    p = np.array([0.4, 0.4, 0.2])
    clipped_estimate(p, loss, 0, graph.adjacency, out)
    np.testing.assert_allclose(out, [0.3 / 0.8, 0.6 / 0.8, 0.9 / 0.6])  # eq. (1): W_2 = p_0 + p_2


# ------------------------------------------------------------------------------------------------------------
# A conic-solver reference of the reconstructed pseudocode
# ------------------------------------------------------------------------------------------------------------


def reference_algorithm5(graph, losses, uniforms, horizon):
    """The module docstring's pseudocode, written with loops and flags; p̂'s OMD step over Δ(K) (entropy) and
    stage 2's steps (eq. (5), c = 64K) are solved by cvxpy + Clarabel. Returns Σ_t ⟨p_t, ℓ_t⟩, the final
    distribution and (meta-epochs, epochs, stage-2 start)."""
    k = graph.n_arms
    cliques = [list(c) for c in graph.clique_partition.members]
    kappa, alpha = len(cliques), graph.independence_number.value
    uniform = np.full(k, 1.0 / k)
    t, expected, epochs, stage2_start = 1, 0.0, 0, None

    def observe(p):
        nonlocal expected
        loss, arm = losses[t - 1], reference_sample(p, uniforms[t - 1])
        expected += p @ loss
        return np.where(p > 0, reference_estimate(graph, p, loss, arm), 0.0)

    for m in range(1, int(math.floor(math.log2(horizon))) + 1):
        eta, eps, next_meta_epoch = 1 / (4 * kappa), 1 / (2 * kappa), False
        while not next_meta_epoch and t <= horizon:
            p, p_hat, epoch_estimates, epochs = uniform, uniform, [], epochs + 1
            while t <= horizon:
                epoch_estimates.append(observe(p))
                p_hat = conic_omd_step(p_hat, epoch_estimates[-1], 1 / eta, 0.0, np.zeros(k))
                p = p_hat.copy()
                for clique in cliques:
                    if p[clique].sum() <= eps:
                        p[clique] = 0.0
                p = p / p.sum()
                if 1 / eta <= 4 * eta * kappa * np.sum(epoch_estimates, axis=0).min():
                    eta, t = eta / 2, t + 1
                    eps = max(2 * eta, 1 / horizon)
                    next_meta_epoch = eta <= math.sqrt(1 / (alpha * horizon))
                    break
                t += 1
        if t > horizon:
            return expected, p, (m, epochs, stage2_start)
    stage2_start, p = t, uniform
    eta, c, lower = 1 / math.sqrt(alpha * horizon), 64 * k, np.full(k, 1 / horizon)
    while t <= horizon:
        p = conic_omd_step(p, observe(p), 1 / eta, c, lower)
        t += 1
    return expected, p, (m, epochs, stage2_start)


@pytest.mark.parametrize(
    ("graph", "horizon", "low"),
    [(disjoint_cliques([2, 1, 1]), 60, 0.0), (FeedbackGraph(np.ones((3, 3), dtype=bool)), 40, 0.5)],
    ids=["clipping_and_halving", "reaches_stage_two"],
)
def test_matches_a_generic_solver_reference(graph, horizon, low):
    k = graph.n_arms
    rng = np.random.default_rng(3)
    losses = rng.uniform(low, 1.0, (horizon, k))
    losses[:, 0] *= 0.5 if low == 0.0 else 1.0  # a better arm in the first instance: its rivals get clipped
    uniforms = rng.random(horizon)
    learner = Algorithm5(graph, horizon, FixedRng(uniforms))
    tracker = Tracker.start(k, np.array([horizon]))
    clipped = False
    for t0 in range(horizon):
        learner.play(losses[t0 : t0 + 1], t0, tracker)
        clipped |= learner.stage2_start is None and bool(np.any(learner.p == 0.0))
    expected, p, (meta_epochs, epochs, stage2_start) = reference_algorithm5(graph, losses, uniforms, horizon)
    params = learner.params
    assert (params["meta_epochs"], params["epochs"], params["stage2_start_round"]) == (
        meta_epochs,
        epochs,
        stage2_start,
    )
    np.testing.assert_allclose(learner.stage2.p if stage2_start else learner.p, p, atol=1e-6)
    assert tracker.sums[0] == pytest.approx(expected, abs=1e-6)
    if low == 0.0:
        assert epochs >= 2 and clipped
    else:
        assert stage2_start is not None and stage2_start < horizon - 5


# ------------------------------------------------------------------------------------------------------------
# Iterates, chunking, seeds, constructor
# ------------------------------------------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 10), horizon=st.integers(24, 300))
@settings(max_examples=25, deadline=None)
def test_iterates_are_distributions_with_whole_cliques_clipped(seed, k, horizon):
    rng = np.random.default_rng(seed)
    graph = random_self_aware(k, rng.uniform(0.1, 0.8), rng)
    horizon = max(horizon, k + 1)
    learner = Algorithm5(graph, horizon, np.random.default_rng(seed + 1))
    tracker = Tracker.start(k, np.array([horizon]))
    losses = np.clip(rng.random(k) + 0.3 * rng.standard_normal((horizon, k)), 0.0, 1.0)
    for t0 in range(0, horizon, 5):
        learner.play(losses[t0 : t0 + 5], t0, tracker)
        if learner.stage2_start is None:
            assert abs(learner.p.sum() - 1.0) <= 1e-12 and abs(learner.p_hat.sum() - 1.0) <= 1e-12
            assert np.all(learner.p >= 0.0)
            for clique in graph.clique_partition.members:
                kept = learner.p[list(clique)]
                assert np.all(kept == 0.0) or np.all(kept > 0.0)
        else:
            assert abs(learner.stage2.p.sum() - 1.0) <= 1e-12 and np.all(learner.stage2.p >= 1.0 / horizon)


@given(seed=st.integers(0, 2**32 - 1), chunk=st.integers(1, 50))
@settings(max_examples=15, deadline=None)
def test_run_does_not_depend_on_the_chunking(seed, chunk):
    graph, horizon = FeedbackGraph(np.ones((3, 3), dtype=bool)), 64  # stage 2 starts inside the run
    losses = np.random.default_rng(seed).uniform(0.5, 1.0, (horizon, 3))

    def run(size):
        learner = Algorithm5(graph, horizon, np.random.default_rng(seed))
        tracker = Tracker.start(3, np.array([horizon]))
        for t0 in range(0, horizon, size):
            learner.play(losses[t0 : t0 + size], t0, tracker)
        return tracker.sums.tolist(), learner.stage2.p.tolist(), learner.params

    assert run(chunk) == run(horizon)


def test_constructor_sets_the_paper_constants():
    graph = mycielski_complement(4)  # K = 11, α = 2, κ = 4
    learner = Algorithm5(graph, 5000, np.random.default_rng(0))
    assert learner.kappa == 4 and learner.params["alpha"] == 2
    assert learner.eta == learner.eta_init == 1 / 16 and learner.epsilon == learner.eps_init == 1 / 8
    assert learner.eta_floor == pytest.approx(math.sqrt(1 / (2 * 5000)))
    assert learner.n_meta_epochs == 12  # ⌊log₂ 5000⌋
    assert learner.stage2.c == 64 * 11 and learner.stage2.eta == pytest.approx(1 / math.sqrt(2 * 5000))
    np.testing.assert_array_equal(learner.stage2.lower, np.full(11, 1 / 5000))
    np.testing.assert_array_equal(learner.p, np.full(11, 1 / 11))
    assert learner.hypotheses == {"T_at_least_2K": True}
    assert Algorithm5(graph, 5000, np.random.default_rng(0), constants="tuned").stage2.c == 11


def test_rejects_bad_inputs():
    with pytest.raises(ValueError, match="self-aware"):
        Algorithm5(figure1_graph(), 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="T > K"):
        Algorithm5(disjoint_cliques([2, 2]), 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match="constants"):
        Algorithm5(disjoint_cliques([2, 2]), 100, np.random.default_rng(0), constants="fast")


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(disjoint_cliques([2, 2, 1]), [0.2, 0.5, 0.5, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Algorithm5(instance.graph, 3000, np.random.default_rng(learner_seed))
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed)), learner.params

    (rows, params), (again, params_again) = run(1, 2), run(1, 2)
    assert rows.equals(again) and params == params_again
    assert params["epochs"] >= 2
    assert not rows.equals(run(3, 2)[0])
    assert not rows.equals(run(1, 4)[0])
