"""Algorithm 2 of paper 001 (§4, lines 216–232) with Theorems 7 and 8's tunings; per-arm metrics; oracle."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped_config import shipped_config

from regretlab.bandits.algorithm2 import Algorithm2, theorem7_tuning, theorem8_tuning
from regretlab.bandits.algorithms import make_learner
from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.omd_weak import weak_hybrid_step
from regretlab.bandits.simulate import realised_totals, run_seeds, simulate
from regretlab.bandits.tracking import Tracker
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.graphs.families import directed_complete_bipartite, disjoint_cliques, weakly_observable_stars
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.summary import describe


def instance_of(graph, means):
    return BanditInstance(graph, StochasticBernoulli(tuple(means)), describe(graph))


# ------------------------------------------------------------------------------------------------------------
# Tunings (lines 250 and 266)
# ------------------------------------------------------------------------------------------------------------


def test_theorem7_tuning():
    paper = theorem7_tuning(4, 1e4)
    assert paper["eta"] == pytest.approx(math.sqrt(4 / 1e4))
    assert paper["eta_bar"] == pytest.approx(1e4 ** (-2 / 3))
    assert paper["theta"] == pytest.approx(math.sqrt(paper["eta_bar"]))
    small = theorem7_tuning(4, 10.0)  # both caps bind: √(4/10) > 1/5, 10^{-2/3} > 1/25
    assert (small["eta"], small["eta_bar"]) == (0.2, 1 / 25)
    assert theorem7_tuning(4, 0.0) == {"eta": 0.2, "eta_bar": 0.04, "delta": 0.0, "theta": 0.2}


def test_theorem7_has_no_tuned_preset():
    """Its caps are Lemma 6's conditions, not slack constants (module docstring): asking for ``tuned`` is an
    error naming the presets it has."""
    with pytest.raises(ValueError, match=r"\['paper'\]"):
        Algorithm2(directed_complete_bipartite(2, 4), 100, np.random.default_rng(0), "tuned", "bipartite", 0)


def test_theorem8_tuning():
    s, d, l_d = 2, 3, 1e9
    for gamma in (1 / 3, 1 / 2):
        paper = theorem8_tuning(s, d, l_d, gamma, "paper")
        delta = min(1 / 125, 1 / (4 * s), 1 / (4 * d), l_d**-gamma)
        assert paper["delta"] == pytest.approx(delta)
        assert paper["eta"] == pytest.approx(min(l_d**-0.5, 1 / 25))
        assert paper["eta_bar"] == pytest.approx(min(math.sqrt(delta / l_d), delta ** (4 / 3)))
        tuned = theorem8_tuning(s, d, 100.0, gamma, "tuned")
        assert tuned["delta"] == pytest.approx(min(1 / (2 * d), 1 / s, 100.0**-gamma))
        assert tuned["eta"] == pytest.approx(0.1)
    assert theorem8_tuning(0, 1, 0.0, 0.5, "paper")["delta"] == 1 / 125  # S = ∅: no 1/(4s) cap


# ------------------------------------------------------------------------------------------------------------
# Iterates, and a plain reimplementation of lines 221–229
# ------------------------------------------------------------------------------------------------------------


def reference(learner, graph, losses, uniforms, p):
    """Lines 221–229 in numpy, the OMD step by the (separately tested) kernel."""
    in_s = learner.in_s
    expected = 0.0
    for loss, u in zip(losses, uniforms, strict=True):
        arm = min(int(np.searchsorted(np.cumsum(p), u, side="right")), graph.n_arms - 1)
        expected += p @ loss
        w = graph.adjacency.T.astype(float) @ p
        estimate = np.where(graph.adjacency[arm], loss / w, 0.0)
        correction = np.where(in_s, 2 * learner.eta * p * estimate**2, 2 * learner.eta_bar * estimate**2)
        nxt = np.empty_like(p)
        weak_hybrid_step(p, estimate + correction, in_s, learner.eta, learner.eta_bar, learner.lower,
                         learner.theta, nxt)
        p = nxt
    return expected, p


def cases():
    bipartite = st.tuples(st.builds(directed_complete_bipartite, st.integers(1, 4), st.integers(2, 6)),
                          st.just("bipartite"), st.just(None), st.just("paper"))
    weak = st.tuples(st.builds(weakly_observable_stars, st.lists(st.integers(2, 4), min_size=1, max_size=3)),
                     st.just("weak"), st.sampled_from([1 / 3, 1 / 2]), st.sampled_from(["paper", "tuned"]))
    return st.tuples(st.one_of(bipartite, weak), st.sampled_from([0.0, 30.0, 3e3]), st.integers(0, 2**32 - 1))


@given(case=cases())
@settings(max_examples=30, deadline=None)
def test_iterates_in_omega_and_match_reference(case):
    (graph, variant, gamma, constants), oracle_loss, seed = case
    rng = np.random.default_rng(seed)
    horizon, k = 200, graph.n_arms
    losses = (rng.random((horizon, k)) < rng.random(k)).astype(float)
    learner = Algorithm2(graph, horizon, np.random.default_rng(seed), constants, variant, oracle_loss, gamma)
    p1 = learner.p.copy()
    uniforms = np.random.default_rng(seed).random(horizon)
    tracker = Tracker.start(k, np.array([horizon]))
    for t0 in range(0, horizon, 40):
        learner.play(losses[t0 : t0 + 40], t0, tracker)
        p = learner.p
        assert abs(p.sum() - 1.0) <= 1e-12
        assert np.all(p >= learner.lower)
        assert p[learner.in_s].sum() >= learner.theta - 1e-12
    expected, p_ref = reference(learner, graph, losses, uniforms, p1)
    np.testing.assert_allclose(learner.p, p_ref, rtol=1e-10, atol=1e-15)
    assert tracker.sums[0] == pytest.approx(expected, rel=1e-10)


def test_initial_point():
    """p_1 = 1/(2s) on S and 1/(2s̄) on S̄ (line 220) when it is in Ω; uniform on S̄ when S = ∅; its Bregman
    projection onto Ω otherwise (S̄ nodes of D below δ)."""
    graph = directed_complete_bipartite(2, 5)
    learner = Algorithm2(graph, 100, np.random.default_rng(0), "paper", "bipartite", 1e4)
    np.testing.assert_allclose(learner.p, [1 / 4] * 2 + [1 / 10] * 5, rtol=1e-14)
    # No self-loops at all; nodes 1, 2 only observed by 0: S = ∅, D = {0}.
    no_loops = FeedbackGraph.from_edges(3, [(0, 1), (0, 2), (1, 0), (2, 0)])
    learner = Algorithm2(no_loops, 100, np.random.default_rng(0), "paper", "weak", 1e4, 0.5)
    np.testing.assert_allclose(learner.p, [1 / 3] * 3, rtol=1e-14)
    # S̄ node 0 in D with 1/(2s̄) = 1/(2·300) < δ = 1/125: moved up to δ exactly.
    wide = FeedbackGraph.from_edges(302, [(0, j) for j in range(1, 301)] + [(301, 0), (301, 301), (300, 300)])
    learner = Algorithm2(wide, 100, np.random.default_rng(0), "paper", "weak", 1.0, 0.5)
    d_nodes = learner.params["D"]
    assert np.all(learner.p[d_nodes] >= 1 / 125) and abs(learner.p.sum() - 1) <= 1e-12


def test_lemma6_condition_is_checked_every_round():
    """Theorem 7's Ω gives W_i ≥ √η̄ ≥ 5η̄ for i ∈ S̄ iff η̄ ≤ 1/25: the paper preset keeps Lemma 6's condition
    at every round (tight when S carries all the loss); Theorem 8's tuned preset with L_D = 0 (δ = 1/4,
    η̄ = δ^{4/3}: 5η̄ ≈ 0.79 above the W_i ≥ δ its Ω guarantees) breaks it."""
    bipartite, stars = directed_complete_bipartite(2, 4), weakly_observable_stars([2, 2])
    for graph, constants, variant, gamma, holds in (
        (bipartite, "paper", "bipartite", None, True),
        (stars, "paper", "weak", 0.5, True),
        (stars, "tuned", "weak", 0.5, False),
    ):
        losses = np.ones((50, graph.n_arms))
        learner = Algorithm2(graph, 50, np.random.default_rng(1), constants, variant, 0.0, gamma)
        assert learner.lemma6_min_ratio == math.inf
        learner.play(losses, 0, Tracker.start(graph.n_arms, np.array([50])))
        assert learner.hypotheses["lemma6_every_round"] is holds
        if variant == "bipartite":  # Σ_S p ≥ √η̄ = 1/5 = 5η̄, tight when S carries all the loss
            assert learner.lemma6_min_ratio >= 1 - 1e-9


def test_rejects_graphs_outside_the_theorems():
    with pytest.raises(ValueError):
        Algorithm2(disjoint_cliques([2, 2]), 10, np.random.default_rng(0), "paper", "weak", 1.0, 0.5)
    with pytest.raises(ValueError, match="observe every node"):
        Algorithm2(weakly_observable_stars([2, 2]), 10, np.random.default_rng(0), "paper", "bipartite", 1.0)
    with pytest.raises(ValueError, match="γ"):
        Algorithm2(weakly_observable_stars([2]), 10, np.random.default_rng(0), "paper", "weak", 1.0, 0.9)


# ------------------------------------------------------------------------------------------------------------
# Per-arm metrics and the oracle (simulate)
# ------------------------------------------------------------------------------------------------------------


def test_per_arm_metrics_and_oracle():
    """At every checkpoint the per-arm columns are the pseudo-regret against the best arm of S / S̄ so far;
    the paper preset receives the realised L_{i*_S} of its own loss sequence."""
    graph = directed_complete_bipartite(3, 5)
    means = [0.4, 0.1, 0.4, 0.2, 0.6, 0.6, 0.6, 0.6]  # i* = 1 ∈ S, best of S̄ = 3
    instance = instance_of(graph, means)
    runs, info = run_seeds("r", "i", instance, "algorithm2_bipartite", "paper", 3000, [0, 1])
    assert info["oracle_L_best_S"] and not info["oracle_L_star"] and not info["oracle_L_D"]
    for seed, learner in zip([0, 1], info["learners"], strict=True):
        totals = np.asarray(learner["L_per_arm"])
        env_rng = environment_and_learner_rngs(job_seed_sequence("r", "i", seed))[0]
        np.testing.assert_array_equal(realised_totals(instance, 3000, env_rng), totals)
        assert learner["params"]["oracle_loss"] == totals[:3].min()
        final = runs[(runs.seed == seed) & (runs.t == 3000)].iloc[0]
        expected_loss = final.pseudo_regret + final.L_star
        assert final.L_best_S == totals[:3].min() and final.L_best_Sbar == totals[3:].min()
        assert final.regret_best_S == pytest.approx(expected_loss - totals[:3].min(), rel=1e-12)
        assert final.regret_best_Sbar == pytest.approx(expected_loss - totals[3:].min(), rel=1e-12)
        assert final.L_D == totals[list(graph.weakly_dominating_set.members)].mean()
        assert final.eta == learner["params"]["eta"]
    # i* is the best arm of S or of S̄ at every checkpoint: Reg = max(Reg_{i*_S}, Reg_{i*_S̄}).
    np.testing.assert_allclose(np.maximum(runs.regret_best_S, runs.regret_best_Sbar), runs.pseudo_regret,
                               rtol=1e-12, atol=1e-9)


def test_checkpoints_do_not_change_a_run():
    """simulate() ends chunks at every checkpoint; the kernels draw randomness per round, so the final state
    is the same with one checkpoint or many (here for a Section 3 learner and for Algorithm 2)."""
    pairs = ((disjoint_cliques([2, 3]), "exp3g"), (directed_complete_bipartite(2, 3), "algorithm2_bipartite"))
    for graph, name in pairs:
        instance = instance_of(graph, np.linspace(0.1, 0.9, graph.n_arms))
        finals = []
        for checkpoints in (np.array([20000]), None):
            oracle = {"L_best_S": 500.0}
            learner = make_learner(name, instance, 20000, np.random.default_rng(3), "paper", oracle)
            frame = simulate(learner, instance, 20000, np.random.default_rng(4), checkpoints)
            finals.append((frame.iloc[-1].pseudo_regret, learner.p.copy()))
        assert finals[0][0] == finals[1][0]
        np.testing.assert_array_equal(finals[0][1], finals[1][1])


def test_same_seed_same_output():
    graph = weakly_observable_stars([3, 2])
    instance = instance_of(graph, [0.2, 0.3, 0.5, 0.5, 0.5, 0.1, 0.5])
    first, _ = run_seeds("r", "i", instance, "algorithm2_weak", "paper", 2000, [5])
    second, _ = run_seeds("r", "i", instance, "algorithm2_weak", "paper", 2000, [5])
    assert first.equals(second)


# ------------------------------------------------------------------------------------------------------------
# Instances of the Section 4 regimes and their jobs
# ------------------------------------------------------------------------------------------------------------


@given(
    graph_spec=st.sampled_from(
        [
            {"family": "weakly_observable_stars", "leaf_counts": [3, 2]},
            {"family": "directed_complete_bipartite", "n_self_loop": 3, "n_no_self_loop": 4},
        ]
    ),
    best_in=st.sampled_from(["S", "S_bar"]),
    best_in_D=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=40, deadline=None)
def test_bernoulli_parts_puts_the_best_arm_in_its_part_and_where_asked_relative_to_D(
    graph_spec, best_in, best_in_D, seed
):
    """The best arm is in the part best_in, in D exactly when best_in_D, and recorded as such; a request no
    node meets (D ⊂ S on both families, D = S on the stars) is rejected with a line naming the field."""
    from regretlab.bandits.instance import GRAPH_FAMILIES, build_instance

    spec = {
        "graph": graph_spec,
        "losses": {"kind": "bernoulli_parts", "best_in": best_in, "best_in_D": best_in_D, "best_mean": 0.05,
                   "S_mean": 0.3, "S_bar_mean": 0.6},
    }
    graph = GRAPH_FAMILIES[graph_spec["family"]](graph_spec, None)
    part = graph.S if best_in == "S" else graph.S_bar
    if not (np.isin(part, list(graph.weakly_dominating_set.members)) == best_in_D).any():
        with pytest.raises(ValueError, match=f"best_in_D = {best_in_D}"):
            build_instance(spec, np.random.default_rng(seed))
        return
    instance = build_instance(spec, np.random.default_rng(seed))
    numbers, graph = instance.numbers, instance.graph
    best = numbers["best_arm"]
    assert (best in graph.S) == (best_in == "S") and numbers["best_in"] == best_in
    assert numbers["D"] == sorted(graph.weakly_dominating_set.members)
    assert numbers["best_in_D"] == (best in numbers["D"]) == best_in_D
    means = np.asarray(instance.environment.means)
    assert means[best] == 0.05 and np.argmin(means) == best
    assert numbers["mean_loss_best"] == 0.05
    assert numbers["mean_loss_D"] == pytest.approx(means[numbers["D"]].mean())
    others = np.delete(np.arange(graph.n_arms), best)
    np.testing.assert_array_equal(means[others], np.where(np.isin(others, graph.S), 0.3, 0.6))


def test_regimes_run_each_algorithm_with_the_presets_it_has():
    """Exp3.G-weak and Theorem 7's Algorithm 2 (``paper`` only) run once per point, Theorem 8's Algorithm 2
    with ``paper`` and, at γ = 1/3, ``tuned``; a regime's own seeds_per_job sets its batches."""
    from regretlab.workflow.config import batch_seeds, run_jobs

    config = shipped_config()  # the shipped config (tests/test_shipped_files.py)
    jobs = run_jobs(config, "weak_bipartite_best_in_S")
    pairs = {(job.algorithm, job.constants) for job in jobs}
    assert pairs == {("exp3g_weak", "paper"), ("algorithm2_bipartite", "paper")}
    general = {(job.algorithm, job.constants) for job in run_jobs(config, "weak_general_best_in_S")}
    # γ = 1/2's tuned is left out by its per-preset bounds (its runs would repeat paper's where L_D > 125²)
    assert general == {
        ("exp3g_weak", "paper"),
        ("algorithm2_weak", "paper"),
        ("algorithm2_weak", "tuned"),
        ("algorithm2_weak_half", "paper"),
    }
    grid = config["regimes"]["weak_bipartite_best_in_S"]["scales"]["quick"]
    assert batch_seeds(config, "weak_bipartite_best_in_S", 0) == list(range(grid["seeds"]))
    assert len(jobs) == len(pairs) * len(config["regimes"]["weak_bipartite_best_in_S"]["instances"])


# ------------------------------------------------------------------------------------------------------------
# The theorems' per-arm bounds hold on runs of the paper preset (theory.BOUNDS, evaluated like the aggregate)
# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "graph, algorithm, best_in, bounds",
    [
        (directed_complete_bipartite(2, 4), "algorithm2_bipartite", "S", ["theorem7_best_S"]),
        (directed_complete_bipartite(2, 4), "algorithm2_bipartite", "S_bar", ["theorem7_best_Sbar"]),
        (weakly_observable_stars([2, 2]), "algorithm2_weak", "S", ["theorem8_best_S_third"]),
        (weakly_observable_stars([2, 2]), "algorithm2_weak_half", "S_bar", ["theorem8_best_Sbar_half"]),
    ],
)
def test_per_arm_bounds_hold_with_the_paper_constants(graph, algorithm, best_in, bounds):
    from regretlab.bandits.instance import parts_means
    from regretlab.registry.theory import BOUNDS

    in_s = np.isin(np.arange(graph.n_arms), graph.S)
    best = int(graph.S[0] if best_in == "S" else graph.S_bar[0])
    spec = {"best_mean": 0.05, "S_mean": 0.4, "S_bar_mean": 0.6}
    instance = instance_of(graph, parts_means(spec, in_s, best))
    horizon = 4000
    runs, info = run_seeds("r", "i", instance, algorithm, "paper", horizon, [0, 1, 2, 3])
    final = runs[runs.t == horizon]
    assert all(all(learner["hypotheses"].values()) for learner in info["learners"])
    point = {"T": horizon, **instance.numbers, **final.mean(numeric_only=True).to_dict()}
    for name in bounds:
        spec = BOUNDS[name]
        assert spec.hypotheses(point)
        assert final[spec.metric].mean() <= spec.evaluate(point)
