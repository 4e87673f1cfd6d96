"""Theorem 5's construction (paper 001, App. E.1): the pair (u, v), the two environments, the interval, the
two-phase runs, and the property that makes it a lower bound: the environments cannot be told apart on I
without pulling an in-neighbour of u."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_algorithm1 import FixedRng

from regretlab.bandits.algorithm7 import Algorithm7
from regretlab.bandits.instance import build_instance
from regretlab.bandits.lower_bound import (
    Theorem5Construction,
    Theorem5Losses,
    epsilon_hat,
    find_interval,
    materialise,
    premise_holds,
    theorem5_pair,
)
from regretlab.bandits.simulate import run_seeds
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import directed_complete_bipartite, figure1_graph, weakly_observable_stars
from regretlab.registry.theory import BOUNDS

LOSSES = {"kind": "theorem5", "b": 0.5, "calibration_seeds": 2}


@pytest.mark.parametrize(
    "graph, pair",
    [(weakly_observable_stars([2, 2]), (2, 1)), (directed_complete_bipartite(2, 3), (2, 3))],
)
def test_pair_is_a_weakly_observable_node_and_a_node_that_cannot_observe_it(graph, pair):
    u, v = theorem5_pair(graph)
    assert (u, v) == pair
    assert not graph.adjacency[u, u] and graph.node_observability[u] == "weakly_observable"
    assert v != u and not graph.adjacency[v, u]
    with pytest.raises(ValueError, match="weakly observable"):
        theorem5_pair(figure1_graph())


def test_environments_are_deterministic_and_differ_only_on_u_in_the_interval():
    env1 = Theorem5Losses(6, 2, 1, 0.5, 400)
    env2 = Theorem5Losses(6, 2, 1, 0.5, 400, start=100, stop=150)
    first, second = env1.draw(None, 0, 400), env2.draw(np.random.default_rng(0), 0, 400)
    np.testing.assert_array_equal(first[:, 1], 400**-0.5)
    np.testing.assert_array_equal(np.delete(first, [1, 2], axis=1), 1.0)
    np.testing.assert_array_equal(first[:, 2], 0.0)
    assert first.sum(axis=0).min() == 0.0  # L* = 0 in environment 1
    np.testing.assert_array_equal(np.delete(second, 2, axis=1), np.delete(first, 2, axis=1))
    np.testing.assert_array_equal(np.flatnonzero(second[:, 2]), np.arange(100, 150))  # rounds 101 … 150
    np.testing.assert_array_equal(env2.draw(None, 120, 10), second[120:130])  # chunking does not matter


@given(st.lists(st.floats(0.0, 3.0), min_size=5, max_size=300))
def test_interval_has_the_least_expected_loss_and_less_than_one_half(increments):
    curve = np.cumsum(increments)
    found = find_interval(curve)
    horizon, total = curve.size, curve[-1]
    assert found["m"] == min(2 * math.ceil(total) + 1, horizon) and found["N"] == total
    edges = (np.arange(found["m"] + 1) * horizon) // found["m"]
    padded = np.concatenate([[0.0], curve])
    blocks = padded[edges[1:]] - padded[edges[:-1]]
    assert (found["start"], found["stop"]) in set(zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True))
    assert found["expected_loss_in_interval"] == pytest.approx(blocks.min(), abs=1e-9)
    if found["m"] == 2 * math.ceil(total) + 1:  # the proof's pigeonhole: below 1/2
        assert found["expected_loss_in_interval"] < 0.5


def test_premise_and_epsilon():
    """ε̂ is the exponent of the interval's length: |I| = T^{1−ε̂}."""
    assert epsilon_hat(1000, 1000) == 0.0
    assert epsilon_hat(10**4, 10**5) == pytest.approx(0.2, rel=1e-12)
    assert (10**5) ** (1 - epsilon_hat(6357, 10**5)) == pytest.approx(6357, rel=1e-12)
    assert premise_holds(0.2, 0.5) and not premise_holds(0.2, 0.1) and not premise_holds(0.2, 0.7)
    assert not premise_holds(0.4, 0.5)


def test_environment_2_cannot_be_told_apart_before_u_is_observed_in_the_interval():
    """Same learner coins on both environments: the played distributions agree until the first round of I at
    which an in-neighbour of u is pulled (u's loss is revealed only then), hence on all of I when none is."""
    graph = weakly_observable_stars([2, 2])
    u, v = theorem5_pair(graph)
    horizon = 600
    uniforms = np.random.default_rng(7).random(horizon)
    env1 = Theorem5Losses(6, u, v, 0.5, horizon)
    env2 = Theorem5Losses(6, u, v, 0.5, horizon, start=200, stop=400)
    runs = []
    for env in (env1, env2):
        learner = Algorithm7(graph, horizon, FixedRng(uniforms), "tuned", 0.5)
        tracker = Tracker.start(6, np.array([horizon]))
        played = []
        for t in range(horizon):
            played.append(learner.p.copy())
            learner.play(env.draw(None, t, 1), t, tracker)
        runs.append(np.array(played))
    cdf = np.cumsum(runs[0], axis=1)
    arms = np.minimum((cdf <= uniforms[:, None]).sum(axis=1), 5)
    observers = graph.adjacency[arms, u]
    reveal = 200 + int(np.argmax(observers[200:400])) if observers[200:400].any() else 400
    np.testing.assert_array_equal(runs[0][: reveal + 1], runs[1][: reveal + 1])
    assert reveal < 400 and not np.array_equal(runs[0], runs[1])  # this run does observe u in I


def test_two_phase_runs_build_environment_2_from_calibration_seeds_only():
    stars = {"family": "weakly_observable_stars", "leaf_counts": [2, 2]}
    rng = np.random.default_rng(0)  # unused: the construction draws nothing (App. E.1 fixes u and v)
    first = build_instance({"graph": stars, "losses": {**LOSSES, "environment": 1}}, rng)
    second = build_instance({"graph": stars, "losses": {**LOSSES, "environment": 2}}, rng)
    assert isinstance(second.environment, Theorem5Construction)
    assert (second.numbers["u"], second.numbers["v"], second.numbers["theorem5_environment"]) == (2, 1, 2)
    runs1, info1 = run_seeds("t5", "env1", first, "algorithm7_half", "tuned", 2000, [0, 1])
    runs2, info2 = run_seeds("t5", "env2", second, "algorithm7_half", "tuned", 2000, [0, 1])
    _, info2_other = run_seeds("t5", "env2", second, "algorithm7_half", "tuned", 2000, [5])
    assert info1["theorem5"] == {"u": 2, "v": 1, "b": 0.5, "environment": 1}
    found = info2["theorem5"]
    assert found == info2_other["theorem5"]  # independent of the evaluation seeds
    assert found["stop"] > found["start"] and found["m"] == 2 * math.ceil(found["N"]) + 1
    assert found["expected_loss_in_interval"] < 0.5
    assert found["epsilon_hat"] == pytest.approx(epsilon_hat(found["stop"] - found["start"], 2000), rel=1e-15)
    # the drawn line is the interval the construction used, not T/(2N + 1)
    point = {"T": 2000, "theorem5_epsilon": found["epsilon_hat"]}
    length = found["stop"] - found["start"]
    assert BOUNDS["theorem5_lower"].evaluate(point) == pytest.approx(length, rel=1e-12)
    np.testing.assert_array_equal(runs2["theorem5_epsilon"], found["epsilon_hat"])
    assert runs1["theorem5_epsilon"].isna().all()  # environment 1: no construction
    again, _ = run_seeds("t5", "env2", second, "algorithm7_half", "tuned", 2000, [0, 1])
    assert again.equals(runs2)
    materialised, _ = materialise(first, 50, lambda instance, j: None)
    assert materialised.environment == Theorem5Losses(6, 2, 1, 0.5, 50)


def test_config_entry_builds_the_construction():
    graph = {"family": "weakly_observable_stars", "leaf_counts": [2, 2]}
    spec = {"graph": graph, "losses": {**LOSSES, "environment": 2}}
    instance = build_instance(spec, np.random.default_rng(0))
    assert instance.environment == Theorem5Construction(6, 2, 1, 0.5, 2, 2)
    assert type(instance).from_dict(instance.to_dict()).to_dict() == instance.to_dict()


def test_theorem5_17_18_bounds_in_the_registry():
    point = {"T": 10_000, "b": 0.5, "theorem5_environment": 2, "theorem5_epsilon": 0.2}
    assert BOUNDS["theorem5_lower"].evaluate(point) == pytest.approx(10_000**0.8, rel=1e-12)  # |I| = T^{0.8}
    assert BOUNDS["theorem5_lower"].direction == "lower" and BOUNDS["theorem17_best_S"].direction == "upper"
    assert BOUNDS["theorem5_lower"].hypotheses(point)
    assert not BOUNDS["theorem5_lower"].hypotheses({**point, "theorem5_epsilon": 0.4})  # ε̂ ≥ 1/3
    assert not BOUNDS["theorem5_lower"].hypotheses({**point, "b": 0.2})  # b ≤ ε̂
    environment_1 = {"T": 10_000, "b": 0.5, "theorem5_environment": 1}
    assert math.isnan(BOUNDS["theorem5_lower"].evaluate(environment_1))
    assert not BOUNDS["theorem5_lower"].hypotheses(environment_1)
    numbers = {"s": 4, "L_best_S": 900.0, "L_D": 4096.0}
    assert BOUNDS["theorem17_best_S"].evaluate(numbers) == pytest.approx(60 + 16, rel=1e-12)
    assert BOUNDS["theorem17_best_Sbar"].evaluate(numbers) == pytest.approx(900 ** (2 / 3) + 76, rel=1e-12)


def test_theorem18_rate_carries_the_first_epoch_term():
    """max{δ₁^{1−1/γ}, (dL_D)^{1−γ}} (i* ∈ S) and max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}} (i* ∈ S̄), App. E.5:
    with the paper's δ₁ = 1/125 the first epoch dominates at γ = 1/3 (125² = 15625 for both cases), the L_D
    term once the run's δ₁ is large enough (tuned)."""
    paper = {"L_D": 2048.0, "params": {"delta_start": 1 / 125, "d": 2}}  # d L_D = 4096
    assert BOUNDS["theorem18_best_S_third"].evaluate(paper) == pytest.approx(125**2, rel=1e-12)
    assert BOUNDS["theorem18_best_Sbar_third"].evaluate(paper) == pytest.approx(125**2, rel=1e-12)
    assert BOUNDS["theorem18_best_S_half"].evaluate(paper) == pytest.approx(125, rel=1e-12)  # > √4096 = 64
    assert BOUNDS["theorem18_best_Sbar_half"].evaluate(paper) == pytest.approx(125**1.5, rel=1e-12)
    large = {"L_D": 2048.0, "params": {"delta_start": 0.5, "d": 2}}
    assert BOUNDS["theorem18_best_S_third"].evaluate(large) == pytest.approx(256, rel=1e-12)
    assert BOUNDS["theorem18_best_S_half"].evaluate(large) == pytest.approx(64, rel=1e-12)
    assert BOUNDS["theorem18_best_Sbar_half"].evaluate(large) == pytest.approx(512, rel=1e-12)
    assert BOUNDS["theorem18_best_Sbar_third"].evaluate(large) == pytest.approx(256, rel=1e-12)


def test_theorem5_bounds_speak_about_their_own_environment():
    """The lower bound applies to environment 2 only, the premise's Õ(1) (as ln T) to environment 1 only."""
    lower, premise = BOUNDS["theorem5_lower"], BOUNDS["theorem5_premise_rate"]
    env1, env2, other = {"theorem5_environment": 1}, {"theorem5_environment": 2}, {"K": 6}
    assert lower.applies(env2) and not lower.applies(env1) and not lower.applies(other)
    assert premise.applies(env1) and not premise.applies(env2) and not premise.applies(other)
    assert premise.evaluate({"T": 1000}) == pytest.approx(math.log(1000), rel=1e-15)
    assert premise.exponents == {"T": 0.0} and not premise.explicit


def test_theorem5_proof_bound_is_app_e1s_inequality():
    """|I|/2 − T^b ℓ̂_I − min{|I|, T^{1−b}}: Markov's 1/2, the pulls of v in I (each costs T^{−b} on
    environment 1), L* on environment 2; its floor is the regret of a learner that knows I (u outside I, v
    inside)."""
    spec = BOUNDS["theorem5_proof_lower"]
    point = {"T": 10_000, "b": 0.5, "theorem5_environment": 2, "theorem5_epsilon": 0.2,
             "theorem5_interval_loss": 0.1}  # fmt: skip
    interval = 10_000**0.8  # ≈ 1585 > T^{1−b} = 100
    assert spec.evaluate(point) == pytest.approx(interval / 2 - 100 * 0.1 - 100, rel=1e-12)
    assert spec.trivial(point) == pytest.approx(interval / 100 - 100, rel=1e-12)
    assert spec.explicit and spec.direction == "lower" and spec.hypotheses(point)
    assert not spec.hypotheses({**point, "theorem5_interval_loss": 0.5})  # Markov needs E[bad pulls] < 1/2
    assert not spec.hypotheses({**point, "theorem5_epsilon": 0.4})  # the premise at ε̂
    assert not spec.applies({"theorem5_environment": 1})


def theorem5_summary(runs, instance, params):
    from regretlab.analysis.aggregate import summarise

    regime = {"kind": "bandit", "paper": "001", "theorem": "t", "x": "T",
              "bounds": {"exploration_leader": ["theorem5_proof_lower"]}}  # fmt: skip
    return summarise("t5", regime, {"env2": instance.to_dict()}, runs, 200, params)


def test_theorem5_proof_bound_holds_on_the_leader_and_fails_for_a_learner_that_sees_the_change():
    """The check can fail: the leader with exploration 1/t on D (Õ(1) regret at L* = 0) has the premise at
    T = 31623 and its regret on environment 2 is above the bound; the same runs with the regret of a learner
    that knows I (the floor: u outside I, v inside) are ``violated``, and where the premise fails a crossed
    bound is ``beyond hypotheses``."""
    stars = {"family": "weakly_observable_stars", "leaf_counts": [2, 2]}
    spec = {"graph": stars, "losses": {**LOSSES, "environment": 2}}
    second = build_instance(spec, np.random.default_rng(0))
    horizon = 31_623
    runs, info = run_seeds("t5", "env2", second, "exploration_leader", "paper", horizon, [0, 1, 2])
    found = info["theorem5"]
    assert found["premise_holds"] and found["expected_loss_in_interval"] < 0.5
    np.testing.assert_array_equal(runs["theorem5_interval_loss"], found["expected_loss_in_interval"])
    key = ("env2", "exploration_leader", "paper", horizon)
    params = {(*key, learner["seed"]): learner["params"] for learner in info["learners"]}
    row = theorem5_summary(runs, second, params).iloc[0]
    assert row["hypotheses_hold"] and row["verdict"] == "holds" and row["ci_low"] > row["bound_value"] > 0
    final = runs["t"] == horizon
    knows_interval = runs.copy()
    knows_interval.loc[final, "pseudo_regret"] = row["trivial_bound"] + np.array([0.0, 1.0, 2.0])
    assert theorem5_summary(knows_interval, second, params).iloc[0]["verdict"] == "violated"
    no_premise = knows_interval.assign(theorem5_epsilon=0.5)  # ε̂ ≥ 1/3: the theorem claims nothing
    assert theorem5_summary(no_premise, second, params).iloc[0]["verdict"] == "beyond hypotheses"
