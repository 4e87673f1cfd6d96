"""Uniform play's value on paper 001's instances, written out by hand (regretlab.bandits.nulls)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.bandits.environments import MinimaxGap, StochasticBernoulli, SwitchingAdversary
from regretlab.bandits.lower_bound import Theorem5Losses
from regretlab.bandits.nulls import expected_totals, uniform_value
from regretlab.graphs.families import directed_complete_bipartite, figure1_graph


def _instance_file(losses: dict, graph=None) -> dict:
    return {"graph": (graph or figure1_graph()).to_dict(), "losses": losses, "numbers": {}}


def test_uniform_pseudo_regret_on_a_bernoulli_instance_is_the_mean_loss_minus_L_star():
    # K = 7 (Figure-1 graph), the best arm 0.01 and six arms 0.99: uniform play loses (0.01 + 6·0.99)/7 per
    # round in expectation; at T = 10⁵ with a measured L* = 1 003, its pseudo-regret is 85 000 − 1 003.
    means = [0.99] * 7
    means[2] = 0.01
    instance = _instance_file({"kind": "bernoulli", "means": means})
    point = {"T": 100_000, "t": 100_000, "L_star": 1003.0}
    assert uniform_value(instance, "pseudo_regret", point) == pytest.approx(85_000.0 - 1003.0, rel=1e-12)
    assert uniform_value(instance, "realized_regret", point) == pytest.approx(85_000.0 - 1003.0, rel=1e-12)


def test_uniform_regret_to_the_best_arm_of_S_subtracts_L_best_S_and_other_metrics_have_none():
    # The bipartite graph s = 4, s̄ = 12: means 0.3 on arm 0, 0.9 elsewhere, so (0.3 + 15·0.9)/16 = 0.8625 per
    # round; at t = 2 000 (of a T = 10⁴ run) with L_{i*_S} = 610, the regret to S's best arm is 1 725 − 610.
    means = [0.9] * 16
    means[0] = 0.3
    instance = _instance_file({"kind": "bernoulli", "means": means}, directed_complete_bipartite(4, 12))
    point = {"T": 10_000, "t": 2_000, "L_best_S": 610.0, "L_star": 600.0}
    assert uniform_value(instance, "regret_best_S", point) == pytest.approx(1725.0 - 610.0, rel=1e-12)
    assert math.isnan(uniform_value(instance, "regret_best_Sbar", point))  # its comparator not in the point
    assert math.isnan(uniform_value(instance, "L_star", point))  # not a regret: no null value


def test_uniform_regret_on_a_minimax_instance_is_taken_at_the_points_horizon():
    # ε(T) = √(α/T) = √(2/10⁴) at T = 10⁴ (α = 2 on the Figure-1 graph): uniform play's mean loss per round is
    # 0.5 + (6/7)·ε.
    instance = _instance_file(
        {"kind": "minimax", "n_arms": 7, "best_arm": 0, "best_mean": 0.5, "gap_constant": 1.0, "alpha": 2}
    )
    point = {"T": 10_000, "t": 10_000, "L_star": 4_990.0}
    expected = 10_000 * (0.5 + 6 / 7 * math.sqrt(2 / 10_000)) - 4_990.0
    assert uniform_value(instance, "pseudo_regret", point) == pytest.approx(expected, rel=1e-12)


def test_uniform_regret_on_a_minimax_instance_before_the_horizon_uses_the_horizons_gap():
    # The gap is ε(T) = √(2/10⁴) of the run's horizon T = 10⁴, not of the checkpoint t = 2 500: uniform play's
    # loss up to t is 2 500 · (0.5 + (6/7)·ε(T)).
    instance = _instance_file(
        {"kind": "minimax", "n_arms": 7, "best_arm": 0, "best_mean": 0.5, "gap_constant": 1.0, "alpha": 2}
    )
    point = {"T": 10_000, "t": 2_500, "L_star": 1_240.0}
    expected = 2_500 * (0.5 + 6 / 7 * math.sqrt(2 / 10_000)) - 1_240.0
    assert uniform_value(instance, "pseudo_regret", point) == pytest.approx(expected, rel=1e-12)


def test_an_instance_file_without_a_loss_model_has_no_uniform_value():
    instance = {"graph": figure1_graph().to_dict(), "numbers": {"K": 7}}
    assert math.isnan(uniform_value(instance, "pseudo_regret", {"T": 100, "t": 100, "L_star": 10.0}))


def test_switching_totals_count_each_decoys_phases_by_hand():
    # K = 4, best arm 1 (mean 0.2), decoys 0, 2, 3 in turn for 5 rounds each (decoy mean 0.1, the others 1).
    # t = 23: phases 0..3 full (decoys 0, 2, 3, 0) and 3 rounds of phase 4 (decoy 2): arm 0 is the decoy
    # for 10 rounds, arm 2 for 8, arm 3 for 5.
    environment = SwitchingAdversary(4, 1, 0.2, 0.1, 5)
    totals = expected_totals(environment, 23)
    assert totals == pytest.approx([23 - 0.9 * 10, 23 * 0.2, 23 - 0.9 * 8, 23 - 0.9 * 5], rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(t=st.integers(1, 400), period=st.integers(1, 9), n_arms=st.integers(3, 6), seed=st.integers(0, 99))
def test_switching_totals_equal_the_mean_of_the_drawn_losses(t, period, n_arms, seed):
    # With decoy and best means in {0, 1} every loss is deterministic: the drawn totals are the expectation.
    environment = SwitchingAdversary(n_arms, 0, 0.0, 1.0 if n_arms > 3 else 0.0, period)
    drawn = environment.draw(np.random.default_rng(seed), 0, t).sum(axis=0)
    assert drawn == pytest.approx(expected_totals(environment, t), abs=1e-12)


def test_bernoulli_and_theorem5_totals_by_hand():
    assert expected_totals(StochasticBernoulli((0.1, 0.5)), 40) == pytest.approx([4.0, 20.0])
    # Environment 2 of App. E.1: u loses 1 on rounds 31..60 only, v loses T^{-1/2} = 0.01, the rest 1.
    losses = Theorem5Losses(n_arms=4, u=2, v=1, b=0.5, horizon=10_000, start=30, stop=60)
    assert expected_totals(losses, 50) == pytest.approx([50.0, 0.5, 20.0, 50.0])
    assert expected_totals(losses, 10_000) == pytest.approx([10_000.0, 100.0, 30.0, 10_000.0])


def test_a_minimax_environment_has_no_totals_without_a_horizon():
    with pytest.raises(ValueError, match="depend on T"):
        expected_totals(MinimaxGap(7, 0, 0.5, 1.0, 2), 100)


@settings(max_examples=10, deadline=None)
@given(means=st.lists(st.floats(0.0, 1.0), min_size=7, max_size=7), l_star=st.floats(0.0, 100.0))
def test_uniform_pseudo_regret_is_the_mean_of_the_means_per_round_minus_L_star(means, l_star):
    # Any seven Bernoulli means on the Figure-1 graph: uniform play loses their mean per round, 1 000 rounds.
    instance = _instance_file({"kind": "bernoulli", "means": means})
    point = {"T": 1000, "t": 1000, "L_star": l_star}
    expected = 1000 * math.fsum(means) / 7 - l_star
    assert uniform_value(instance, "pseudo_regret", point) == pytest.approx(expected, rel=1e-9, abs=1e-9)
