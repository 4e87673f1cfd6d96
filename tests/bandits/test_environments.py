"""Loss environments draw in [0, 1] from the caller's Generator and validate their parameters."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.bandits.environments import MinimaxGap, StochasticBernoulli, environment_from_dict
from regretlab.bandits.instance import BanditInstance, build_instance


def test_best_arm_construction_and_draws():
    env = StochasticBernoulli.with_best_arm(4, best_arm=2, best_mean=0.1, gap=0.95)
    assert env.means == (1.0, 1.0, 0.1, 1.0)
    draws = env.draw(np.random.default_rng(0), 0, 20000)
    assert draws.shape == (20000, 4) and set(np.unique(draws)) <= {0.0, 1.0}
    np.testing.assert_allclose(draws.mean(axis=0), env.means, atol=0.01)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"best_arm": 4, "best_mean": 0.1, "gap": 0.1}, "best_arm"),
        ({"best_arm": 0, "best_mean": 1.5, "gap": 0.1}, "best_mean"),
        ({"best_arm": 0, "best_mean": 0.1, "gap": -0.1}, "gap"),
    ],
)
def test_bad_parameters_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        StochasticBernoulli.with_best_arm(4, **kwargs)


def test_unknown_environment_kind():
    with pytest.raises(ValueError, match="bernoulli"):
        environment_from_dict({"kind": "gaussian"})


def test_instance_round_trip_and_numbers():
    spec = {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [2, 3]},
        "losses": {"kind": "bernoulli", "best_mean": 0.2, "gap": 0.3},
    }
    instance = build_instance(spec, np.random.default_rng(0))
    assert instance.numbers["alpha"] == 2 and instance.numbers["K"] == 5
    again = BanditInstance.from_dict(instance.to_dict())
    assert np.array_equal(again.graph.adjacency, instance.graph.adjacency)
    assert again.environment == instance.environment and again.numbers == instance.numbers


def minimax_spec(gap_constant: float = 1.0) -> dict:
    return {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3, 3, 3]},
        "losses": {"kind": "minimax", "best_mean": 0.5, "gap_constant": gap_constant},
    }


@settings(max_examples=25, deadline=None)
@given(
    gap_constant=st.floats(0.05, 2.0),
    horizon=st.integers(100, 10**6),
    factor=st.sampled_from([4, 16, 100]),
)
def test_minimax_gap_scales_like_root_alpha_over_T(gap_constant, horizon, factor):
    env = build_instance(minimax_spec(gap_constant), np.random.default_rng(3)).environment
    assert env.alpha == 4
    gap = env.gap(horizon)
    assert gap == pytest.approx(min(gap_constant * np.sqrt(4 / horizon), 0.5))
    if gap < 0.5:  # not capped at 1 − best_mean: quadrupling T halves ε
        assert env.gap(factor * horizon) == pytest.approx(gap / np.sqrt(factor))
    means = np.asarray(env.at_horizon(horizon).means)
    assert means[env.best_arm] == 0.5
    np.testing.assert_allclose(np.delete(means, env.best_arm), 0.5 + gap)


def test_minimax_instances_of_every_T_share_the_draw():
    """Same instance file, same seed: the runs at T and 100·T see the same best arm and the same uniforms,
    so the best arm's losses coincide and every other arm's losses only shrink where ε shrinks."""
    instance = BanditInstance.from_dict(build_instance(minimax_spec(), np.random.default_rng(5)).to_dict())
    small, large = instance.at_horizon(1000), instance.at_horizon(100_000)
    assert small.graph is large.graph and small.numbers == large.numbers
    best = instance.environment.best_arm
    draw_small = small.environment.draw(np.random.default_rng(7), 0, 20_000)
    draw_large = large.environment.draw(np.random.default_rng(7), 0, 20_000)
    np.testing.assert_array_equal(draw_small[:, best], draw_large[:, best])
    assert np.all(draw_small >= draw_large)
    gaps = draw_small.mean(axis=0) - draw_small[:, best].mean()
    assert np.delete(gaps, best).mean() == pytest.approx(instance.environment.gap(1000), abs=0.01)


def test_minimax_environment_needs_a_horizon():
    env = build_instance(minimax_spec(), np.random.default_rng(0)).environment
    with pytest.raises(ValueError, match="at_horizon"):
        env.draw(np.random.default_rng(0), 0, 10)
    with pytest.raises(ValueError, match="gap_constant"):
        MinimaxGap(4, 0, 0.5, 0.0, 2)


def test_runs_resolve_the_minimax_gap_at_their_horizon():
    from regretlab.bandits.simulate import run_seeds

    instance = build_instance(minimax_spec(), np.random.default_rng(1))
    runs, _ = run_seeds("r", "i", instance, "exp3g", "paper", 400, [0, 1])
    final = runs[runs["t"] == 400]
    assert len(final) == 2 and np.all(final["L_star"] <= 0.5 * 400 + 3 * np.sqrt(400))
