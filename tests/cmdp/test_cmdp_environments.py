"""Rewards and constraint sequences of §3.1: exact means, the adversarial schedule and the benchmark."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.environments import (
    KINDS,
    CMDPEnvironment,
    PhaseProcess,
    make_environment,
    risky_swing_mask,
)
from regretlab.cmdp.instance import make_binding_cmdp, make_layered_cmdp
from regretlab.cmdp.offline_lp import feasibility_parameter, feasibility_parameter_adversarial, solve_opt


@pytest.fixture(scope="module")
def cmdp():
    return make_layered_cmdp(np.random.default_rng(7), 3, (2, 3), 2, 2, 0.4)


@pytest.mark.parametrize("noise", [0.0, 0.3, 1.0])
def test_stochastic_draws_have_the_instance_means_and_stay_in_range(cmdp, noise):
    environment = make_environment(cmdp, np.random.default_rng(0), noise=noise)
    assert environment.setting == {"rewards": "stochastic", "constraints": "stochastic"}
    r, G = environment.draw(np.random.default_rng(1), 0, 20000)
    assert r.shape == (20000, cmdp.n_states, cmdp.n_actions)
    assert G.shape == (20000, cmdp.m, cmdp.n_states, cmdp.n_actions)
    assert r.min() >= 0 and r.max() <= 1 and G.min() >= -1 and G.max() <= 1
    assert np.all(r[:, -1] == 0) and np.all(G[:, :, -1] == 0)
    # Standard error <= noise / sqrt(20000) < 0.0071 per entry: 5 standard errors.
    np.testing.assert_allclose(r.mean(axis=0), cmdp.r_bar, atol=0.036 * noise + 1e-12)
    np.testing.assert_allclose(G.mean(axis=0), cmdp.G_bar, atol=0.036 * noise + 1e-12)
    if noise == 1.0:
        assert set(np.unique(r)) <= {0.0, 1.0} and set(np.unique(G)) <= {-1.0, 0.0, 1.0}
    # The benchmark of a stochastic setting is the instance's own (expectations, stochastic ρ).
    benchmark = environment.benchmark(cmdp.P, 1000)
    assert benchmark.opt == pytest.approx(cmdp.opt, abs=1e-8)
    assert benchmark.rho == pytest.approx(cmdp.rho, abs=1e-8)
    np.testing.assert_array_equal(benchmark.r_bar, cmdp.r_bar)


def test_draws_do_not_depend_on_the_chunking(cmdp):
    environment = make_environment(cmdp, np.random.default_rng(0), noise=0.5)
    whole = environment.draw(np.random.default_rng(3), 0, 100)
    rng = np.random.default_rng(3)
    parts = [environment.draw(rng, t0, n) for t0, n in ((0, 37), (37, 1), (38, 62))]
    for i in range(2):
        np.testing.assert_array_equal(whole[i], np.concatenate([part[i] for part in parts]))


def numpy_values(process: PhaseProcess, t0: int, n: int, uniforms: np.ndarray) -> np.ndarray:
    """The values as numpy computes them from the module docstring's formula (the compiled
    ``phase_values_into`` replaced this expression: the runs archived before it used these bits)."""
    phase = ((t0 + np.arange(n)) // process.period) % process.phases.shape[0]
    mean = process.phases[phase]
    if process.noise == 0.0:
        return mean
    high = uniforms.reshape(mean.shape) * (1.0 - process.low) < mean - process.low
    value = (1.0 - process.noise) * mean + process.noise * np.where(high, 1.0, process.low)
    np.clip(value, process.low, 1.0, out=value)
    value[..., -1, :] = 0.0
    return value


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**40),
    st.integers(1, 50),
    st.sampled_from([0.0, 1e-3, 0.3, 0.5, 1.0]),
    st.sampled_from(KINDS),
    st.sampled_from(KINDS),
    st.integers(0, 10**6),
)
def test_compiled_draws_are_numpys_bit_for_bit(cmdp, t0, n, noise, rewards, constraints, seed):
    environment = make_environment(
        cmdp,
        np.random.default_rng(seed),
        rewards=rewards,
        constraints=constraints,
        noise=noise,
        period=1 + seed % 7,
    )
    uniforms = np.random.default_rng(seed + 1).random((n, (1 + cmdp.m) * cmdp.n_states * cmdp.n_actions))
    for process, u in zip(
        (environment.rewards, environment.constraints),
        np.split(
            uniforms[:, : environment.rewards.n_uniforms + environment.constraints.n_uniforms],
            [environment.rewards.n_uniforms],
            axis=1,
        ),
        strict=True,
    ):
        expected = numpy_values(process, t0, n, u)
        got = process.values(t0, n, u)
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got.view(np.int64), expected.view(np.int64))  # the same bits, ±0 too


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 60), st.integers(1, 9), st.sampled_from(["stochastic", "adversarial"]))
def test_adversarial_schedule_averages_and_rho_match_brute_force(cmdp, T, period, rewards):
    environment = make_environment(cmdp, np.random.default_rng(5), rewards, "adversarial", period=period)
    r, G = environment.draw(np.random.default_rng(6), 0, T)
    phase = (np.arange(T) // period) % 2
    np.testing.assert_array_equal(G, environment.constraints.phases[phase])
    benchmark = environment.benchmark(cmdp.P, T)
    np.testing.assert_allclose(benchmark.G_bar, G.mean(axis=0), atol=1e-12)
    if rewards == "adversarial":
        np.testing.assert_allclose(benchmark.r_bar, r.mean(axis=0), atol=1e-12)
    else:
        np.testing.assert_array_equal(benchmark.r_bar, cmdp.r_bar)
    opt, _ = solve_opt(cmdp.P, benchmark.r_bar, G.mean(axis=0))
    rho, _ = feasibility_parameter_adversarial(cmdp.P, G)  # one LP row per (t, i)
    assert benchmark.opt == pytest.approx(opt, abs=1e-8)
    assert benchmark.rho == pytest.approx(rho, abs=1e-8)
    # A margin against every G_t is at most the margin against their average.
    assert 0 <= benchmark.rho <= feasibility_parameter(cmdp.P, benchmark.G_bar)[0] + 1e-9


def test_switching_phases_swap_which_actions_pay_and_violate(cmdp):
    environment = make_environment(cmdp, np.random.default_rng(2), "adversarial", "adversarial", period=10)
    assert environment.setting == {"rewards": "adversarial", "constraints": "adversarial"}
    r_swing = environment.rewards.phases[0] - cmdp.r_bar
    g_swing = environment.constraints.phases[0] - cmdp.G_bar
    np.testing.assert_allclose(environment.rewards.phases[1] - cmdp.r_bar, -r_swing, atol=1e-15)
    signs = np.sign(r_swing[:-1])
    for x in range(cmdp.n_states - 1):  # in every state one action is boosted and the other damped
        assert sorted(signs[x][signs[x] != 0]) in ([-1.0, 1.0], [-1.0], [1.0])
    # Paying more goes with violating more: the swings of r and of every g_i have the same sign.
    assert np.all(r_swing * g_swing >= 0)
    # Over a full cycle of 2 * period episodes the averages are the instance's.
    np.testing.assert_allclose(environment.rewards.average(40), cmdp.r_bar, atol=1e-15)
    np.testing.assert_allclose(environment.constraints.average(40), cmdp.G_bar, atol=1e-15)
    np.testing.assert_array_equal(environment.rewards.phase_counts(25), [15, 10])
    assert environment.constraints.occurring(10).shape[0] == 1


def test_invalid_settings_are_rejected(cmdp):
    with pytest.raises(ValueError, match="one of"):
        make_environment(cmdp, np.random.default_rng(0), rewards="bandit")
    with pytest.raises(ValueError, match="deterministic"):
        PhaseProcess(np.zeros((2, 3, 2)), 5, 0.1, 0.0)
    with pytest.raises(ValueError, match="lie in"):
        PhaseProcess(np.full((1, 3, 2), 1.5), 5, 0.1, 0.0)
    tight = make_layered_cmdp(np.random.default_rng(0), 2, 2, 2, 1, 0.05)
    with pytest.raises(ValueError, match="adversarial rho"):
        make_environment(tight, np.random.default_rng(0), constraints="adversarial", constraint_amplitude=1.0)


def test_round_trip_through_a_dict(cmdp):
    environment = make_environment(cmdp, np.random.default_rng(0), "adversarial", "stochastic", noise=0.7)
    again = CMDPEnvironment.from_dict(environment.to_dict())
    for a, b in zip(
        environment.draw(np.random.default_rng(1), 3, 20),
        again.draw(np.random.default_rng(1), 3, 20),
        strict=True,
    ):
        np.testing.assert_array_equal(a, b)
    assert again.setting == environment.setting


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.05, 1.0), st.floats(0.3, 1.0))
def test_risky_swing_moves_only_the_entries_violated_on_average(seed, amplitude, risky):
    cmdp = make_binding_cmdp(np.random.default_rng(seed), 3, 2, 2, 1, 2.5, risky_constraint=risky)
    rng = np.random.default_rng(1)
    environment = make_environment(
        cmdp,
        rng,
        "adversarial",
        "adversarial",
        period=4,
        constraint_amplitude=amplitude,
        adversary="risky_swing",
    )
    assert rng.random() == np.random.default_rng(1).random()  # draws nothing
    G, moving = environment.constraints.phases, risky_swing_mask(cmdp.G_bar)
    assert moving.sum() == cmdp.n_states - 1  # one risky action per state (|A| = 2), terminal row excluded
    swing = amplitude * (1 - cmdp.G_bar)
    np.testing.assert_allclose(G[0], np.where(moving, cmdp.G_bar + swing, cmdp.G_bar), atol=1e-15)
    np.testing.assert_allclose(G[1], np.where(moving, cmdp.G_bar - swing, cmdp.G_bar), atol=1e-15)
    np.testing.assert_allclose(environment.constraints.swing(), np.where(moving, 2 * swing, 0.0), atol=1e-15)
    # Risky actions pay more exactly in the phase where they violate more; safe ones pay less then.
    r_swing = environment.rewards.phases[0] - cmdp.r_bar
    assert np.all(r_swing[moving[0]] >= 0) and np.all(r_swing[:-1][~moving[0, :-1]] <= 0)
    np.testing.assert_allclose(environment.constraints.average(8), cmdp.G_bar, atol=1e-15)
    # The benchmark's worst [G_t^T q*]_i and its share of episodes, by brute force over the schedule.
    T = 13
    _, G_t = environment.draw(np.random.default_rng(2), 0, T)
    benchmark = environment.benchmark(cmdp.P, T)
    per_episode = np.einsum("tixa,xa->ti", G_t, benchmark.q_star).max(axis=1)
    assert benchmark.max_G_q_star == pytest.approx(per_episode.max(), abs=1e-12)
    assert benchmark.share_G_q_star_above_1 == pytest.approx(np.mean(per_episode > 1))
    # The safe side does not move: the adversarial ρ over the phases is the stochastic one.
    assert benchmark.rho == pytest.approx(feasibility_parameter(cmdp.P, cmdp.G_bar)[0], abs=1e-8)


def test_stochastic_benchmarks_have_no_per_episode_worst_case_and_bad_adversaries_are_rejected(cmdp):
    benchmark = make_environment(cmdp, np.random.default_rng(0)).benchmark(cmdp.P, 100)
    assert np.isnan(benchmark.max_G_q_star) and np.isnan(benchmark.share_G_q_star_above_1)
    assert benchmark.lambda_star.shape == (cmdp.m,)
    with pytest.raises(ValueError, match="adversary must be one of"):
        make_environment(cmdp, np.random.default_rng(0), adversary="sneaky")
