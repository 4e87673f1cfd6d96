"""Algorithm 4 (paper 001, Appendix C.3): the reset rule, the reset itself, constants, and a reference run.

Tests that need resets at a chosen η start the learner from it with ``_begin`` (what the constructor does
with Theorem 13's η, with which the first reset would need ~10¹³ rounds).
"""

import math

import numpy as np
import pytest
from test_algorithm1 import FixedRng, assert_agrees, instance_of, reference_run

from regretlab.bandits.algorithm4 import Algorithm4, first_reset_horizon, first_reset_loss
from regretlab.bandits.simulate import simulate
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import disjoint_cliques, figure1_graph, strongly_observable_family
from regretlab.graphs.feedback_graph import FeedbackGraph


def test_resets_exactly_when_the_condition_holds_on_all_ones_losses():
    """Self-aware graph, ℓ_t ≡ 1: ⟨p_t, ℓ̂_t⟩ = p_{j_t} · ⟨p̃^{(j_t)}, 1⟩ / p_{j_t} = 1 every round, so epoch λ
    lasts exactly ⌈(κ+1)/η_λ²⌉ rounds ((κ+1)/η ≤ η·n ⟺ n ≥ (κ+1)/η²) and η halves at each reset."""
    graph = disjoint_cliques([2, 2, 1])  # κ = 3
    horizon = 1000
    learner = Algorithm4(graph, horizon, np.random.default_rng(0), "tuned")
    learner._begin(0.3)
    expected, t, eta = [], 0, 0.3
    while True:
        length = 4 / eta**2
        assert abs(length - round(length)) > 1e-6  # no tie: rounding in Σ⟨p, ℓ̂⟩ cannot matter
        t += math.ceil(length)
        if t > horizon:
            break
        expected.append(t)
        eta /= 2
    assert expected == [45, 223, 935]
    tracker = Tracker.start(5, np.array([horizon]))
    for t in range(horizon):  # round by round: the epoch sum grows by 1 until the reset empties it
        before = learner.epoch_loss
        learner.play(np.ones((1, 5)), t, tracker)
        if t + 1 in expected:
            assert learner.epoch_loss == 0.0
        else:
            assert learner.epoch_loss == pytest.approx(before + 1.0, rel=1e-12)
    assert learner.params["reset_rounds"] == expected
    assert learner.params["n_resets"] == 3 and learner.params["n_epochs"] == 4
    assert learner.params["eta_final"] == learner.eta == 0.3 / 8


def meta_loss(learner, loss, u_meta, u_arm):
    """⟨p_t, ℓ̂_t⟩ of the coming round, from the learner's p_t and p̃_t, by the pseudocode's formulas."""
    p, hedge, meta = learner.p, learner.state.hedge, learner.meta
    kappa = meta.kappa
    j_t = min(int(np.searchsorted(np.cumsum(p), u_meta, side="right")), p.size - 1)
    if j_t < kappa:
        members = meta.members[j_t, : meta.sizes[j_t]]
        i_t = members[
            min(int(np.searchsorted(np.cumsum(hedge[j_t, members]), u_arm, side="right")), members.size - 1)
        ]
        clique_part = p[j_t] * (hedge[j_t, members] @ loss[members]) / p[j_t]
    else:
        i_t, clique_part = meta.arm_of_meta[j_t], 0.0
    s_bar_part = sum(
        p[kappa + m] * loss[i] / (1 - p[kappa + m])
        for m, i in enumerate(meta.arm_of_meta[kappa:])
        if i != i_t
    )
    return clique_part + s_bar_part


def test_resets_when_and_only_when_the_condition_holds_on_random_losses():
    """Round by round, with ⟨p_t, ℓ̂_t⟩ recomputed from the state before the round: the learner resets exactly
    when (κ+1)/η ≤ η (Σ_{τ=T_λ+1}^{t−1} ⟨p_τ, ℓ̂_τ⟩ + ⟨p_t, ℓ̂_t⟩), and then halves η. The iterates stay in
    their decision sets across the resets."""
    graph = figure1_graph()
    horizon = 400
    rng = np.random.default_rng(5)
    losses, uniforms = rng.random((horizon, 7)), rng.random((horizon, 2))
    learner = Algorithm4(graph, horizon, FixedRng(uniforms), "tuned")
    learner._begin(0.5)
    tracker = Tracker.start(7, np.array([horizon]))
    resets = 0
    for t in range(horizon):
        eta, total = learner.eta, learner.epoch_loss + meta_loss(learner, losses[t], *uniforms[t])
        learner.play(losses[t : t + 1], t, tracker)
        if 3 / eta <= eta * total:
            resets += 1
            assert (learner.eta, learner.epoch_loss) == (eta / 2, 0.0)
        else:
            assert learner.eta == eta
            assert learner.epoch_loss == pytest.approx(total, rel=1e-12)
        assert abs(learner.p.sum() - 1.0) <= 1e-12 and np.all(learner.p >= 1.0 / horizon)
        assert np.all(np.abs(learner.state.hedge.sum(axis=1) - 1.0) <= 1e-12)
        assert np.all(learner.state.hedge[~learner.meta.in_clique] == 0.0)
    assert resets == learner.n_resets >= 2


def test_a_reset_restores_the_initial_state_at_half_the_rate():
    graph = strongly_observable_family([2, 3], 2)
    horizon = 500
    losses = np.random.default_rng(1).random((horizon, 7))
    learner = Algorithm4(graph, horizon, np.random.default_rng(2), "tuned")
    learner._begin(0.5)
    tracker = Tracker.start(7, np.array([horizon]))
    t = 0
    while learner.n_resets == 0:
        learner.play(losses[t : t + 1], t, tracker)
        t += 1
    assert learner.params["reset_rounds"] == [t]
    fresh = Algorithm4(graph, horizon, np.random.default_rng(3), "tuned")
    fresh._begin(0.25)
    for name in ("p", "eta_meta", "rho", "hedge", "second_moment"):
        np.testing.assert_array_equal(getattr(learner.state, name), getattr(fresh.state, name), err_msg=name)
    assert (learner.eta, learner.epoch_loss) == (0.25, 0.0)


def test_matches_a_generic_solver_reference_across_resets():
    graph = strongly_observable_family([2, 1], 1)  # κ = 2, β = 3
    horizon = 90
    rng = np.random.default_rng(8)
    losses, uniforms = rng.uniform(0.5, 1.0, (horizon, 4)), rng.random((horizon, 2))
    learner = Algorithm4(graph, horizon, FixedRng(uniforms), "tuned")
    learner._begin(0.5)
    tracker = Tracker.start(4, np.array([horizon]))
    learner.play(losses, 0, tracker)
    ref = reference_run(graph, horizon, losses, uniforms, 0.5, learner.c, adaptive=True)
    assert learner.params["reset_rounds"] == ref["resets"]
    assert len(ref["resets"]) >= 2
    assert learner.eta == ref["eta"]
    assert_agrees(learner, tracker, ref)


def test_paper_and_tuned_constants():
    graph = figure1_graph()  # κ = 2, β = 4, K = 7
    horizon = 5000
    log_t = math.log(horizon)
    logs = log_t * math.log(7 * horizon) ** 2
    paper = Algorithm4(graph, horizon, np.random.default_rng(0), "paper")
    assert paper.c == 64 * 4
    assert paper.eta_start == pytest.approx(1 / (2000 * logs + 80 * 2 * log_t), rel=1e-15)
    assert paper.eta == paper.eta_start
    np.testing.assert_array_equal(paper.state.eta_meta, paper.eta_start)
    np.testing.assert_array_equal(paper.state.rho, 4.0)
    assert paper.hypotheses == {
        "c_is_64_beta": True,
        "eta_start_is_theorem13": True,
        "eta_at_most_1_over_64_beta": True,
        "T_at_least_2K": True,
    }
    assert paper.params["n_resets"] == 0 and paper.params["n_epochs"] == 1
    tuned = Algorithm4(graph, horizon, np.random.default_rng(0), "tuned")
    assert tuned.c == 4
    assert tuned.eta_start == 1 / 4  # 1/β: 64 → 1 and the polylog start dropped
    assert not tuned.hypotheses["c_is_64_beta"] and not tuned.hypotheses["eta_start_is_theorem13"]


def test_first_reset_loss_and_horizon():
    """(κ+1)/η_1² on the Figure-1 graph (K = 7, κ = 2, β = 4): Theorem 13's η_1 puts the first reset beyond
    any run; the tuned η_1 = 1/4 at Σ⟨p, ℓ̂⟩ = 48, i.e. after 48 rounds at loss 1 per round, 480 at 0.1."""
    assert first_reset_loss(10**5, 7, 2, 4, "paper") > 1e13
    assert first_reset_horizon(1.0, 7, 2, 4, "paper") > 1e13
    assert first_reset_loss(10**5, 7, 2, 4, "tuned") == 48.0
    assert first_reset_horizon(1.0, 7, 2, 4, "tuned") == 48
    assert first_reset_horizon(0.1, 7, 2, 4, "tuned") == 480
    assert first_reset_horizon(0.0, 7, 2, 4, "tuned") == math.inf


def test_tuned_preset_resets_at_quick_horizons_and_paper_does_not():
    """The property that makes the tuned curve informative: its η moves (resets fire) within 2·10⁴ rounds."""
    instance = instance_of(figure1_graph(), [0.4, 0.4, 0.4, 0.4, 0.1, 0.4, 0.4])
    runs = {}
    for constants in ("paper", "tuned"):
        learner = Algorithm4(instance.graph, 20_000, np.random.default_rng(0), constants)
        simulate(learner, instance, 20_000, np.random.default_rng(1))
        runs[constants] = learner
    assert runs["paper"].n_resets == 0 and runs["paper"].eta == runs["paper"].eta_start
    assert runs["tuned"].n_resets >= 3 and runs["tuned"].eta <= runs["tuned"].eta_start / 8


def test_rejects_bad_graphs_and_arguments():
    with pytest.raises(ValueError, match="algorithm4 requires a strongly observable"):
        Algorithm4(FeedbackGraph.from_edges(3, [(0, 0), (0, 1), (1, 1)]), 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="does not take L"):
        Algorithm4(figure1_graph(), 100, np.random.default_rng(0), L_star=10.0)
    with pytest.raises(ValueError, match="constants"):
        Algorithm4(figure1_graph(), 100, np.random.default_rng(0), "fast")
    with pytest.raises(ValueError, match="T > β"):
        Algorithm4(figure1_graph(), 3, np.random.default_rng(0))


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(figure1_graph(), [0.5, 0.5, 0.5, 0.5, 0.2, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Algorithm4(instance.graph, 3000, np.random.default_rng(learner_seed), "tuned")
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed))

    assert run(1, 2).equals(run(1, 2))
    assert not run(1, 2).equals(run(3, 2))
    assert not run(1, 2).equals(run(1, 4))
