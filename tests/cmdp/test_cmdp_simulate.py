"""The evaluator: compiled kernels against the reference code, every recorded column against brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp import bounds, projection
from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.evaluator import (
    best_response_values,
    contains,
    layer_starts,
    trajectory_from_uniforms,
    true_occupancy,
)
from regretlab.cmdp.instance import condition2_holds, make_explicit_cmdp, make_layered_cmdp
from regretlab.cmdp.occupancy import occupancy_from_policy, pairs_from_triples, sample_trajectory
from regretlab.cmdp.offline_lp import solve_opt
from regretlab.cmdp.simulate import RECORD_COLUMNS, simulate
from regretlab.core.checkpoints import log_checkpoints

instances = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3))


@settings(max_examples=10, deadline=None)
@given(instances)
def test_compiled_kernels_agree_with_the_reference_code(params):
    seed, n_layers, width, n_actions = params
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, n_layers, width, n_actions, 1, 0.1)
    sizes, P, starts = cmdp.layer_sizes, cmdp.P, layer_starts(cmdp.layer_sizes)
    pi = rng.dirichlet(np.ones(n_actions), size=cmdp.n_states)
    q, q_pairs = np.full_like(P, np.nan), np.full(pi.shape, np.nan)
    true_occupancy(P, pi, starts, q, q_pairs)
    expected = occupancy_from_policy(sizes, P, pi)
    np.testing.assert_allclose(q, expected, atol=1e-15)
    np.testing.assert_allclose(q_pairs, pairs_from_triples(expected), atol=1e-15)
    reference, compiled = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    for _ in range(20):
        np.testing.assert_array_equal(
            trajectory_from_uniforms(P, pi, compiled.random(2 * cmdp.L)),
            sample_trajectory(reference, sizes, P, pi),
        )
    losses = rng.uniform(-1, 1, size=(3, cmdp.n_states, n_actions))
    values = best_response_values(P, starts, losses)
    for loss, value in zip(losses, values, strict=True):  # min ℓ^T q = -OPT_{-ℓ, 0}
        assert value == pytest.approx(-solve_opt(P, -loss, np.zeros((1, *loss.shape)))[0], abs=1e-8)


def brute_force(cmdp, environment, algorithm, constants, T, seeds, dual_eta=None):
    """Replay the run keeping every episode, then compute each column from its definition (LPs, no DP).

    ``dual_eta`` replaces the dual's step (a large one makes the projection of eq. (16) clip at T^{1/4})."""
    delta = 0.1
    env_rng, trajectory_rng = (np.random.default_rng(s) for s in seeds)
    r_all, G_all = environment.draw(env_rng, 0, T)
    learner = make_learner(algorithm, cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, delta, constants)
    if dual_eta is not None:
        learner.dual.eta = dual_eta
    sizes, P = cmdp.layer_sizes, cmdp.P
    episodes = []
    for t in range(T):
        policy, q_hat, lam = learner.policy.copy(), learner.q_hat.copy(), learner.lam.copy()
        loss = learner.update(sample_trajectory(trajectory_rng, sizes, P, policy), r_all[t], G_all[t])
        q = occupancy_from_policy(sizes, P, policy)
        confidence = learner.primal.confidence
        episodes.append(
            (
                q,
                q_hat,
                lam,
                learner.lam.copy(),
                loss,
                learner.primal.epochs,
                learner.primal.fallbacks,
                confidence.P_bar.copy(),
                confidence.epsilon.copy(),
                G_all[t],
            )
        )
    if environment.setting["rewards"] == "adversarial":
        r_bar = r_all.mean(axis=0)
    else:
        r_bar = cmdp.r_bar
    G_bar = G_all.mean(axis=0) if environment.setting["constraints"] == "adversarial" else cmdp.G_bar
    opt = solve_opt(P, r_bar, G_bar)[0]
    zero = np.zeros((1, cmdp.n_states, cmdp.n_actions))

    def played_minus_best(first, last):  # max_q Σ_{first<=τ<=last} ℓ_τ^T (q_τ - q), 1-based, by LP
        losses = [episodes[i][4] for i in range(first - 1, last)]
        played = sum(
            (loss * pairs_from_triples(episodes[i][0])).sum() for i, loss in enumerate(losses, first - 1)
        )
        return played + solve_opt(P, -np.sum(losses, axis=0), zero)[0]

    def distances(P_bar):  # ||P(·|x, a) - P̄(·|x, a)||_1 per non-terminal pair, by plain loops
        return [
            [
                sum(abs(P[x, a, y] - P_bar[x, a, y]) for y in range(cmdp.n_states))
                for a in range(cmdp.n_actions)
            ]
            for x in range(cmdp.n_states - 1)
        ]

    def covers(P_bar, epsilon):  # Lemma 5's event for one epoch
        d = distances(P_bar)
        return all(d[x][a] <= epsilon[x, a] for x in range(cmdp.n_states - 1) for a in range(cmdp.n_actions))

    def ratio(P_bar, epsilon):  # how close that epoch came to failing it
        d = distances(P_bar)
        return max(d[x][a] / epsilon[x, a] for x in range(cmdp.n_states - 1) for a in range(cmdp.n_actions))

    def clipped(e):  # eq. (16) clips a coordinate at T^{1/4}: λ_{t,i} + η [G_t^T q̂_t]_i > T^{1/4}
        step = e[2] + learner.dual.eta * np.einsum("ixa,xa->i", e[9], e[1].sum(axis=2))
        return bool(np.any(step > T**0.25))

    C = learner.constants.C
    rows, intervals = [], []
    opened = [e for i, e in enumerate(episodes) if e[5] != (episodes[i - 1][5] if i else 1)]
    started = [covers(e[7], e[8]) for e in opened]
    ratios = [ratio(e[7], e[8]) for e in opened]
    dual = algorithm == "pdgd_ops"
    for t in range(1, T + 1):
        done = episodes[:t]
        q_pairs = [pairs_from_triples(e[0]) for e in done]
        reward = sum((r_all[i] * q_pairs[i]).sum() for i in range(t))
        violation = max(sum((G_all[i, k] * q_pairs[i]).sum() for i in range(t)) for k in range(cmdp.m))
        ell = [np.abs(e[4]).max() for e in done]
        for s in range(10):  # the dyadic intervals [j 2^s + 1, (j + 1) 2^s] ending at t
            if t % 2**s == 0:
                first = t - 2**s + 1
                regret = played_minus_best(first, t)
                limit = bounds.theorem3(
                    T, delta, cmdp.L, cmdp.n_states, cmdp.n_actions, C, max(ell[first - 1 :]), max(ell), 2**s
                ).value
                intervals.append((regret, limit))
        best = max(range(len(intervals)), key=lambda i: (intervals[i][0], -i))
        rows.append(
            [
                t * opt - reward,
                violation,
                reward,
                reward / (t * opt),
                max(max(np.abs(e[2]).sum(), np.abs(e[3]).sum()) for e in done),
                np.abs(done[-1][2]).sum(),
                -sum(e[2][i] * (e[9][i] * e[1].sum(axis=2)).sum() for e in done for i in range(cmdp.m)),
                np.mean(started[: done[-1][5] - 1]),
                float(all(started[: done[-1][5] - 1])),
                max(ratios[: done[-1][5] - 1], default=np.nan),
                np.mean([clipped(e) for e in done]) if dual else np.nan,
                sum(np.abs(e[0] - e[1]).sum() for e in done),
                max(ell),
                played_minus_best(1, t),
                intervals[best][0],
                intervals[best][1],
                max(reg / lim for reg, lim in intervals),
                done[-1][5],
                done[-1][6],
                # V̂_t = max_i Σ [G_τ^T q̂_τ]_i: what the dual steps on (Lemma 14)
                max(sum((e[9][i] * e[1].sum(axis=2)).sum() for e in done) for i in range(cmdp.m)),
                # max_i (η V̂_{t,i} − λ_{t+1,i}), η = 0 for a dual that does not move
                max(
                    (learner.dual.eta if dual else 0.0)
                    * sum((e[9][i] * e[1].sum(axis=2)).sum() for e in done)
                    - done[-1][3][i]
                    for i in range(cmdp.m)
                ),
            ]
        )
    return np.array(rows), learner


def assert_same_state(learner, reference):
    """The learner after ``simulate`` is where ``T`` calls of ``update`` leave the reference learner."""
    for name in ("q_hat", "policy"):
        np.testing.assert_allclose(getattr(learner, name), getattr(reference, name), rtol=0, atol=1e-12)
    np.testing.assert_allclose(learner.lam, reference.lam, rtol=1e-12, atol=1e-15)
    assert learner.rate.ell_bar == reference.rate.ell_bar
    for name in ("N", "M", "N_start", "M_start", "P_bar", "epsilon", "epoch"):
        np.testing.assert_array_equal(
            getattr(learner.primal.confidence, name), getattr(reference.primal.confidence, name)
        )
    assert learner.primal.projector.stats == reference.primal.projector.stats


@pytest.mark.parametrize(
    ("algorithm", "constants", "rewards", "constraints", "m", "dual_eta"),
    [
        ("pdgd_ops", "tuned", "stochastic", "stochastic", 1, None),
        ("pdgd_ops", "paper", "adversarial", "adversarial", 1, None),
        ("uc_o_gdps", "tuned", "adversarial", "stochastic", 1, None),
        ("pdgd_ops", "tuned", "stochastic", "adversarial", 2, None),
        ("pdgd_ops", "tuned", "stochastic", "stochastic", 2, 3.0),  # the dual reaches the box and clips
    ],
)
def test_every_column_equals_a_brute_force_recomputation(
    algorithm, constants, rewards, constraints, m, dual_eta
):
    cmdp = make_layered_cmdp(np.random.default_rng(11), 3, 2, 2, m, 0.3)
    environment = make_environment(cmdp, np.random.default_rng(12), rewards, constraints, noise=0.8, period=3)
    T, seeds = 20, (13, 14)
    learner = make_learner(algorithm, cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.1, constants)
    if dual_eta is not None:
        learner.dual.eta = dual_eta
    frame, metadata = simulate(
        learner,
        cmdp,
        environment,
        T,
        *(np.random.default_rng(s) for s in seeds),
        checkpoints=np.arange(1, T + 1),
    )
    assert list(frame.columns) == ["t", *RECORD_COLUMNS]
    expected, reference = brute_force(cmdp, environment, algorithm, constants, T, seeds, dual_eta)
    np.testing.assert_allclose(frame[list(RECORD_COLUMNS)].to_numpy(), expected, rtol=1e-9, atol=1e-8)
    assert (
        metadata["episodes"] == T and metadata["algorithm"] == algorithm and metadata["preset"] == constants
    )
    if dual_eta is not None:  # the case is meant to exercise the clipping
        assert 0 < frame["dual_clipped"].iloc[-1] < 1
        assert metadata["dual_clipped"] == frame["dual_clipped"].iloc[-1]
    assert metadata["all_epochs_covered"] == (frame["all_epochs_covered"].iloc[-1] == 1.0)
    assert metadata["setting"] == {"rewards": rewards, "constraints": constraints}
    assert_same_state(learner, reference)
    if algorithm == "uc_o_gdps":  # no dual step, no reassociated sum: the loop is bitwise the reference
        np.testing.assert_array_equal(learner.q_hat, reference.q_hat)


def test_a_one_layer_explicit_cmdp_runs_as_brute_force_recomputes_it():
    """L = 1 (issue 34's smallest instances): every column of the compiled loop as the reference code's."""
    cmdp = make_explicit_cmdp({"reward": [[0, 1, 0]], "constraint": [[[-1, 0.25, 1]]]})
    environment = make_environment(cmdp, np.random.default_rng(12), "stochastic", "adversarial", period=3)
    T, seeds = 20, (13, 14)
    learner = make_learner("pdgd_ops", cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.1, "tuned")
    rngs = (np.random.default_rng(s) for s in seeds)
    frame, _ = simulate(learner, cmdp, environment, T, *rngs, checkpoints=np.arange(1, T + 1))
    expected, reference = brute_force(cmdp, environment, "pdgd_ops", "tuned", T, seeds, None)
    np.testing.assert_allclose(frame[list(RECORD_COLUMNS)].to_numpy(), expected, rtol=1e-9, atol=1e-8)
    assert_same_state(learner, reference)


def test_projections_newton_cannot_certify_go_to_the_fallbacks_and_the_run_goes_on(monkeypatch):
    monkeypatch.setattr(projection, "MAX_NEWTON_STEPS", 0)  # every projection: OSQP, then Clarabel
    cmdp = make_layered_cmdp(np.random.default_rng(51), 2, 2, 2, 1, 0.3)
    environment = make_environment(cmdp, np.random.default_rng(52), noise=0.5)
    T, seeds = 5, (53, 54)
    learner = make_learner("pdgd_ops", cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.1, "tuned")
    frame, metadata = simulate(
        learner,
        cmdp,
        environment,
        T,
        *(np.random.default_rng(s) for s in seeds),
        checkpoints=np.arange(1, T + 1),
    )
    expected, reference = brute_force(cmdp, environment, "pdgd_ops", "tuned", T, seeds)
    np.testing.assert_allclose(frame[list(RECORD_COLUMNS)].to_numpy(), expected, rtol=1e-9, atol=1e-8)
    assert_same_state(learner, reference)
    assert metadata["fallbacks"] == frame["fallbacks"].iloc[-1] > 0


def test_same_seeds_give_identical_runs_and_metadata_follows_the_benchmark():
    cmdp = make_layered_cmdp(np.random.default_rng(21), 3, 2, 2, 1, 0.4)
    environment = make_environment(cmdp, np.random.default_rng(22), "stochastic", "adversarial", period=7)
    T = 64

    def run(trajectory_seed):
        learner = make_learner("pdgd_ops", cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.05, "tuned")
        return simulate(
            learner, cmdp, environment, T, np.random.default_rng(1), np.random.default_rng(trajectory_seed)
        )

    (first, meta), (again, meta_again), (other, _) = run(2), run(2), run(3)
    assert first.equals(again)
    assert not first.equals(other)
    assert list(first["t"]) == list(log_checkpoints(T))
    for key in ("wall_time_s", "us_per_episode"):
        meta.pop(key), meta_again.pop(key)
    assert meta == meta_again
    benchmark = environment.benchmark(cmdp.P, T)
    assert meta["rho"] == benchmark.rho and meta["opt"] == benchmark.opt
    assert meta["zeta"] == pytest.approx(20 * cmdp.m * cmdp.L**2 / benchmark.rho**2)
    assert meta["condition2"] == condition2_holds(benchmark.rho, T, cmdp.L, cmdp.m)
    assert meta["C"] == pytest.approx(np.sqrt(cmdp.n_states * cmdp.n_actions / (2 * cmdp.L)))
    final = first.iloc[-1]
    assert final["interval_regret_ratio_max"] <= 1.0  # Theorem 3 on every dyadic interval
    assert final["epochs"] == meta["epochs"] and 0 <= final["lambda_l1_max"] <= T**0.25


def test_a_run_stops_at_its_last_checkpoint_and_checks_its_inputs():
    cmdp = make_layered_cmdp(np.random.default_rng(31), 2, 2, 2, 1, 0.3)
    environment = make_environment(cmdp, np.random.default_rng(32))
    learner = make_learner("uc_o_gdps", cmdp.layer_sizes, cmdp.n_actions, cmdp.m, 1000, 0.1)
    rngs = np.random.default_rng(1), np.random.default_rng(2)
    frame, metadata = simulate(learner, cmdp, environment, 1000, *rngs, checkpoints=[1, 5, 9])
    assert list(frame["t"]) == [1, 5, 9] and metadata["episodes"] == 9
    assert metadata["epochs"] == frame["epochs"].iloc[-1]
    with pytest.raises(ValueError, match="built for T=1000"):
        simulate(learner, cmdp, environment, 500, *rngs)
    with pytest.raises(ValueError, match="strictly increasing"):
        simulate(
            make_learner("uc_o_gdps", cmdp.layer_sizes, 2, 1, 10, 0.1),
            cmdp,
            environment,
            10,
            *rngs,
            checkpoints=[3, 3],
        )


def test_coverage_check_is_lemma_5s_l1_ball_per_pair():
    cmdp = make_layered_cmdp(np.random.default_rng(41), 3, 2, 2, 1, 0.3)
    P = np.array(cmdp.P)
    radius = np.full((cmdp.n_states, cmdp.n_actions), 0.1)
    assert contains(P, P, radius) and contains(P, P, 0.0 * radius)
    shifted = P.copy()  # move 0.06 of P(·|x_1, a_1) between the next layer's two states: L1 distance 0.12
    source, target = np.flatnonzero(P[1, 1] > 0.06)[0], np.flatnonzero(P[1, 1])
    target = target[target != source][0]
    shifted[1, 1, source] -= 0.06
    shifted[1, 1, target] += 0.06
    assert not contains(P, shifted, radius)
    radius[1, 1] = 0.13
    assert contains(P, shifted, radius)
    radius[-1] = -1.0  # the terminal row takes no action and is never checked
    assert contains(P, shifted, radius)


def test_lemma5s_per_seed_event_records_a_miss_when_the_radii_are_too_small(monkeypatch):
    # Shrinking every radius ε_i(x, a) a thousandfold makes the sets miss P: the check can fail.
    cmdp = make_layered_cmdp(np.random.default_rng(61), 3, 2, 2, 1, 0.3)
    environment = make_environment(cmdp, np.random.default_rng(62))
    T, rngs = 400, (np.random.default_rng(63), np.random.default_rng(64))
    learner = make_learner("pdgd_ops", cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, 0.1, "tuned")
    confidence = learner.primal.confidence
    monkeypatch.setattr(
        confidence, "_eps_numerator", confidence.eps_numerator * 1e-6
    )  # ε a thousandfold less
    frame, metadata = simulate(learner, cmdp, environment, T, *rngs, checkpoints=np.arange(1, T + 1))
    assert frame["all_epochs_covered"].iloc[-1] == 0 and not metadata["all_epochs_covered"]
    assert frame["coverage"].iloc[-1] < 1 and frame["coverage_ratio_max"].iloc[-1] > 1
    started = frame["epochs"] > 1  # the event holds iff every started epoch covered P, ratio <= 1
    np.testing.assert_array_equal(
        frame.loc[started, "all_epochs_covered"] == 1, frame.loc[started, "coverage"] == 1
    )
    np.testing.assert_array_equal(
        frame.loc[started, "all_epochs_covered"] == 1, frame.loc[started, "coverage_ratio_max"] <= 1
    )
    assert (frame.loc[~started, "all_epochs_covered"] == 1).all()
    assert frame.loc[~started, "coverage_ratio_max"].isna().all()
