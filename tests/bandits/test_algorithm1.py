"""Algorithm 1 (paper 001, §3.3, Appendix C): meta-graph, estimators, learning-rate rule, iterates, reference.

The reference implementation :func:`reference_run` (also used by ``test_algorithm4.py``) re-implements the
pseudocode with plain numpy and solves every OMD step — p_1 = argmin_Ω ψ_1, eq. (7), and every Hedge
instance's Algorithm 3 step, including the instances whose clique sees a zero loss — with cvxpy + Clarabel.
"""

import math
import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.bandits.algorithm1 import (
    Algorithm1,
    arm_distribution,
    eta_cap,
    first_horizon,
    log_factor,
    loss_estimates,
    meta_graph,
    sample_meta_and_arm,
    uncapped_horizon,
    uncapped_L_star,
    update_learning_rates,
)
from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import simulate
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import figure1_graph, strongly_observable_family, weakly_observable_stars
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.summary import describe

SUM_TOL = 1e-12


@st.composite
def graphs(draw):
    """Strongly observable graphs with 0–3 cliques, 0–3 nodes without a self-loop, optional cross edges."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=0, max_size=3))
    n_bar = draw(st.integers(0 if sizes else 2, 3))
    if sum(sizes) + n_bar < 2:
        n_bar = 2 - sum(sizes)
    cross = draw(st.sampled_from([0.0, 0.5]))
    seed = draw(st.integers(0, 2**32 - 1))
    return strongly_observable_family(sizes, n_bar, cross, np.random.default_rng(seed))


class FixedRng:
    """Hands the learner the uniforms a reference uses, in order."""

    def __init__(self, uniforms):
        self.uniforms, self.used = uniforms, 0

    def random(self, shape):
        n = shape[0]
        block = self.uniforms[self.used : self.used + n]
        self.used += n
        return block


# ------------------------------------------------------------------------------------------------------------
# Meta-graph and estimators
# ------------------------------------------------------------------------------------------------------------


def test_figure1_meta_graph():
    """Figure 1 (0-based): C_1 = {0, 1}, C_2 = {4, 5, 6}, S̄ = {2, 3}: β = 4 meta-nodes [C_1, C_2, 2, 3]."""
    meta = meta_graph(figure1_graph())
    assert meta.kappa == 2 and meta.in_s.size == 4
    np.testing.assert_array_equal(meta.in_s, [True, True, False, False])
    np.testing.assert_array_equal(meta.arm_of_meta, [-1, -1, 2, 3])
    np.testing.assert_array_equal(meta.meta_of_arm, [0, 0, 2, 3, 1, 1, 1])
    np.testing.assert_array_equal(meta.members, [[0, 1, -1], [4, 5, 6]])
    np.testing.assert_array_equal(meta.sizes, [2, 3])
    np.testing.assert_array_equal(np.flatnonzero(meta.in_clique[1]), [4, 5, 6])
    learner = Algorithm1(figure1_graph(), 100, np.random.default_rng(0), L_star=10.0)
    assert (learner.kappa, learner.beta) == (2, 4)
    assert learner.params["cliques"] == [[0, 1], [4, 5, 6]]


def random_state(meta, k, rng):
    """A random p_t ∈ Δ(β) and random Hedge distributions, each supported on its clique."""
    beta = meta.in_s.size
    p = rng.dirichlet(np.ones(beta)) * 0.98 + 0.02 / beta
    hedge = np.zeros((meta.kappa, k))
    for j in range(meta.kappa):
        hedge[j, meta.in_clique[j]] = rng.dirichlet(np.ones(meta.sizes[j]))
    return p, hedge


def outcomes(meta, p, hedge):
    """Every (j_t, i_t) with its probability p_j p̃^{(j)}_i (cliques) or p_j (S̄)."""
    for j in range(meta.in_s.size):
        if j < meta.kappa:
            for i in meta.members[j, : meta.sizes[j]]:
                yield j, int(i), p[j] * hedge[j, i]
        else:
            yield j, int(meta.arm_of_meta[j]), p[j]


@given(graph=graphs(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_estimators_are_unbiased_and_use_only_observed_losses(graph, seed):
    """E[ℓ̃_i] = ℓ_i for every arm; E[ℓ̂_j] = ⟨p̃^{(j)}, ℓ⟩ (cliques) or ℓ_j (S̄); E⟨p, ℓ̂⟩ = E ℓ_{i_t}.

    Exact expectations over (j_t, i_t). Also: ℓ̃_i ≠ 0 only if playing i_t reveals ℓ_i.
    """
    rng = np.random.default_rng(seed)
    meta, k = meta_graph(graph), graph.n_arms
    beta = meta.in_s.size
    p, hedge = random_state(meta, k, rng)
    loss = rng.random(k)
    arm_p = np.empty(k)
    arm_distribution(p, hedge, meta, arm_p)
    assert abs(arm_p.sum() - 1.0) <= SUM_TOL
    mean_tilde, mean_hat, mean_inner = np.zeros(k), np.zeros(beta), 0.0
    tilde, hat = np.empty(k), np.empty(beta)
    for j, i, prob in outcomes(meta, p, hedge):
        assert prob == arm_p[i]
        loss_estimates(loss, j, i, p, hedge, meta, tilde, hat)
        assert np.all(graph.adjacency[i, tilde != 0.0])
        mean_tilde += prob * tilde
        mean_hat += prob * hat
        mean_inner += prob * (p @ hat)
    np.testing.assert_allclose(mean_tilde, loss, rtol=1e-12, atol=1e-15)
    expected_hat = np.concatenate([hedge @ loss, loss[meta.arm_of_meta[meta.kappa :]]])
    np.testing.assert_allclose(mean_hat, expected_hat, rtol=1e-12, atol=1e-15)
    assert mean_inner == pytest.approx(arm_p @ loss, rel=1e-12)


@given(graph=graphs(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_sampling_follows_p_and_the_hedge_of_the_chosen_clique(graph, seed):
    """Inverse-CDF sampling: a uniform inside the interval of (j, i) yields exactly (j, i)."""
    meta = meta_graph(graph)
    p, hedge = random_state(meta, graph.n_arms, np.random.default_rng(seed))
    meta_cdf = np.concatenate([[0.0], np.cumsum(p)])
    for j in range(p.size):
        u_meta = 0.5 * (meta_cdf[j] + meta_cdf[j + 1])
        if j < meta.kappa:
            members = meta.members[j, : meta.sizes[j]]
            cdf = np.concatenate([[0.0], np.cumsum(hedge[j, members])])
            for m, i in enumerate(members):
                assert sample_meta_and_arm(p, hedge, meta, u_meta, 0.5 * (cdf[m] + cdf[m + 1])) == (j, i)
            # u beyond a sum that rounding left short of 1 still yields a member of the clique
            assert sample_meta_and_arm(p, hedge, meta, u_meta, np.nextafter(1.0, 0.0))[1] in members
        else:
            assert sample_meta_and_arm(p, hedge, meta, u_meta, 0.3) == (j, meta.arm_of_meta[j])


# ------------------------------------------------------------------------------------------------------------
# Learning-rate rule
# ------------------------------------------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), kappa=st.integers(1, 5), s_bar=st.integers(0, 3))
@settings(max_examples=40, deadline=None)
def test_learning_rate_rule_fires_exactly_when_the_threshold_is_exceeded(seed, kappa, s_bar):
    """For j ∈ [κ]: if 1/p_{t+1,j} > ρ_{t,j} then ρ ← 2/p_{t+1,j}, η_j ← η_j e^{1/ln T}; else nothing changes.
    S̄ rates never change. Ties (1/p = ρ exactly) do not fire."""
    rng = np.random.default_rng(seed)
    p = rng.choice([0.5, 0.25, 0.125, 0.0625], size=kappa + s_bar)  # 1/p exact, so ties can be built
    rho = np.where(rng.random(kappa) < 0.5, 1.0 / p[:kappa], rng.uniform(1.0, 20.0, kappa))
    eta = rng.uniform(0.01, 0.1, kappa + s_bar)
    counts = rng.integers(0, 3, kappa)
    growth = math.exp(1.0 / math.log(1000))
    new_rho, new_eta, new_counts = rho.copy(), eta.copy(), counts.copy()
    update_learning_rates(p, new_eta, new_rho, kappa, growth, new_counts)
    fires = 1.0 / p[:kappa] > rho
    np.testing.assert_array_equal(new_rho, np.where(fires, 2.0 / p[:kappa], rho))
    np.testing.assert_array_equal(new_eta[:kappa], np.where(fires, eta[:kappa] * growth, eta[:kappa]))
    np.testing.assert_array_equal(new_eta[kappa:], eta[kappa:])
    np.testing.assert_array_equal(new_counts, counts + fires)


@pytest.mark.parametrize("constants", ["paper", "tuned"])
def test_learning_rate_rule_in_a_run(constants):
    """Round by round: the rule fires at round t exactly when 1/p_{t+1,j} > ρ_{t,j}, and it does fire."""
    graph = strongly_observable_family([1], 10)  # κ = 1, β = 11: p_1 on the clique is below 1/(2κ)
    horizon = 300
    losses = np.random.default_rng(3).random((horizon, graph.n_arms))
    losses[:, 0] = 1.0  # the clique is bad: its probability falls
    learner = Algorithm1(graph, horizon, np.random.default_rng(4), constants, L_star=0.0)
    tracker = Tracker.start(graph.n_arms, np.array([horizon]))
    for t in range(horizon):
        rho, eta = learner.state.rho.copy(), learner.state.eta_meta.copy()
        learner.play(losses[t : t + 1], t, tracker)
        fires = 1.0 / learner.p[0] > rho[0]
        assert learner.state.rho[0] == (2.0 / learner.p[0] if fires else rho[0])
        assert learner.state.eta_meta[0] == (eta[0] * learner.setup.growth if fires else eta[0])
        np.testing.assert_array_equal(learner.state.eta_meta[1:], eta[1:])
    assert learner.state.rate_increases[0] >= 1
    assert learner.params["rate_increases"] == list(learner.state.rate_increases)


# ------------------------------------------------------------------------------------------------------------
# Iterates
# ------------------------------------------------------------------------------------------------------------


@given(
    graph=graphs(),
    seed=st.integers(0, 2**32 - 1),
    horizon=st.integers(20, 300),
    constants=st.sampled_from(["paper", "tuned"]),
    binary=st.booleans(),
)
@settings(max_examples=30, deadline=None)
def test_iterates_stay_in_their_decision_sets(graph, seed, horizon, constants, binary):
    """p_t ∈ Ω (p_j ≥ 1/T, Σ = 1 ± 1e-12); p̃^{(j)} ∈ Ω_j (≥ 1/(|C_j|T) on C_j, exactly 0 off it); the law of
    i_t sums to 1; the clique rates are η·e^{n/ln T} after n increases, the S̄ rates stay η."""
    k = graph.n_arms
    horizon = max(horizon, 2 * k)
    rng = np.random.default_rng(seed)
    losses = rng.random((horizon, k))
    if binary:
        losses = (losses < rng.random(k)).astype(float)
    learner = Algorithm1(graph, horizon, np.random.default_rng(seed + 1), constants, L_star=horizon / 3)
    meta, state = learner.meta, learner.state
    tracker = Tracker.start(k, np.array([horizon]))
    for t0 in range(0, horizon, 7):
        learner.play(losses[t0 : t0 + 7], t0, tracker)
        assert abs(state.p.sum() - 1.0) <= SUM_TOL
        assert np.all(state.p >= 1.0 / horizon)
        for j in range(meta.kappa):
            row, clique = state.hedge[j], meta.in_clique[j]
            assert np.all(row[~clique] == 0.0)
            assert np.all(row[clique] >= 1.0 / (clique.sum() * horizon))
            assert abs(row.sum() - 1.0) <= SUM_TOL
        assert abs(learner.arm_p.sum() - 1.0) <= SUM_TOL
        np.testing.assert_allclose(
            state.eta_meta[: meta.kappa], learner.eta * learner.setup.growth**state.rate_increases, rtol=1e-12
        )
        assert np.all(state.eta_meta[meta.kappa :] == learner.eta)


def test_first_iterate_is_constant_on_cliques_and_on_s_bar():
    """p_1 = argmin_Ω ψ_1 is symmetric: equal on the cliques and equal on S̄ (reading 8)."""
    graph = strongly_observable_family([1, 3, 2], 4)
    learner = Algorithm1(graph, 1000, np.random.default_rng(0), L_star=50.0)
    p = learner.p
    assert abs(p.sum() - 1.0) <= SUM_TOL
    np.testing.assert_allclose(p[:3], p[0], rtol=1e-12)
    np.testing.assert_allclose(p[3:], p[3], rtol=1e-12)
    np.testing.assert_array_equal(learner.state.hedge[1], [0, 1 / 3, 1 / 3, 1 / 3, 0, 0, 0, 0, 0, 0])


# ------------------------------------------------------------------------------------------------------------
# Reference implementation: every OMD step by cvxpy + Clarabel
# ------------------------------------------------------------------------------------------------------------

# Tight tolerances; damped steps and extra refinement keep Clarabel from stalling short of them.
CLARABEL = dict(
    tol_gap_abs=1e-13,
    tol_gap_rel=1e-13,
    tol_feas=1e-13,
    tol_ktratio=1e-13,
    max_iter=2000,
    max_step_fraction=0.9,
    min_terminate_step_length=1e-8,
    static_regularization_constant=1e-13,
    iterative_refinement_reltol=1e-16,
    iterative_refinement_abstol=1e-16,
    iterative_refinement_max_iter=100,
)


def solve(objective, constraints):
    with warnings.catch_warnings():
        # "Solution may be inaccurate" at these tolerances: the agreement with the learner is the check
        warnings.simplefilter("ignore")
        cp.Problem(cp.Minimize(objective), constraints).solve(solver=cp.CLARABEL, **CLARABEL)


def argmin_psi(etas, eta, c, kappa, lower):
    """argmin_{p ∈ Ω} ψ(p) of eq. (7) (clique rates ``etas``, S̄ rate ``eta``), objective scaled by η."""
    beta = etas.size
    x = cp.Variable(beta)
    terms = [cp.sum(cp.multiply(eta / etas[:kappa], -cp.log(x[:kappa])))] if kappa else []
    if beta > kappa:
        terms.append(cp.sum(-cp.entr(x[kappa:]) - c * eta * cp.log(x[kappa:])))
    solve(cp.sum(cp.hstack(terms)), [cp.sum(x) == 1, x >= lower])
    return np.maximum(x.value, lower)


def omd_step(p, loss_hat, etas, eta, c, kappa, lower):
    """Eq. (2) with ψ_t of eq. (7), posed in r = p'/p_t: Σ_j p_j ℓ̂_j r_j + Bregman terms, scaled by η."""
    beta = p.size
    r = cp.Variable(beta)
    terms = [(eta * p * (loss_hat - loss_hat.min())) @ r]
    if kappa:
        terms.append(cp.sum(cp.multiply(eta / etas[:kappa], r[:kappa] - 1 - cp.log(r[:kappa]))))
    if beta > kappa:
        rb = r[kappa:]
        terms.append(p[kappa:] @ cp.kl_div(rb, np.ones(beta - kappa)))
        terms.append(c * eta * cp.sum(rb - 1 - cp.log(rb)))
    solve(cp.sum(cp.hstack(terms)), [p @ r == 1, r >= lower / p])
    return np.maximum(r.value * p, lower)


def hedge_step(q, loss_tilde, members, rate, lower):
    """Algorithm 3's step on the clique ``members`` (posed in r = p'/p̃_t), zero elsewhere."""
    qs, loss = q[members], loss_tilde[members] - loss_tilde[members].min()
    r = cp.Variable(members.size)
    solve(rate * (qs * loss) @ r + qs @ cp.kl_div(r, np.ones(members.size)), [qs @ r == 1, r >= lower / qs])
    out = np.zeros_like(q)
    out[members] = np.maximum(r.value * qs, lower)
    return out


def reference_run(graph, horizon, losses, uniforms, eta, c, adaptive=False):
    """Algorithm 1 (``adaptive=True``: Algorithm 4 started from ``eta``) transcribed from the pseudocode."""
    cliques = [np.array(cl) for cl in graph.clique_partition.members]
    s_bar = list(graph.S_bar)
    kappa, k = len(cliques), graph.n_arms
    beta = kappa + len(s_bar)
    lower, growth = 1.0 / horizon, math.exp(1.0 / math.log(horizon))
    run = {"expected": 0.0, "resets": []}

    def start(eta):
        run["etas"] = np.full(beta, eta)
        run["rho"] = np.full(kappa, 2.0 * kappa)
        run["p"] = argmin_psi(run["etas"], eta, c, kappa, lower)
        run["hedges"] = np.zeros((kappa, k))
        for j, cl in enumerate(cliques):
            run["hedges"][j, cl] = 1.0 / cl.size
        run["moments"] = np.zeros(kappa)
        run["epoch"] = 0.0

    start(eta)
    for t, (loss, (u_meta, u_arm)) in enumerate(zip(losses, uniforms, strict=True)):
        p, hedges = run["p"], run["hedges"]
        j_t = min(int(np.searchsorted(np.cumsum(p), u_meta, side="right")), beta - 1)
        if j_t < kappa:
            cl = cliques[j_t]
            i_t = cl[min(int(np.searchsorted(np.cumsum(hedges[j_t, cl]), u_arm, side="right")), cl.size - 1)]
        else:
            i_t = s_bar[j_t - kappa]
        arm_p = np.zeros(k)
        for j, cl in enumerate(cliques):
            arm_p[cl] = p[j] * hedges[j, cl]
        arm_p[s_bar] = p[kappa:]
        run["expected"] += arm_p @ loss
        loss_tilde = np.zeros(k)
        if j_t < kappa:
            loss_tilde[cliques[j_t]] = loss[cliques[j_t]] / p[j_t]
        for m, i in enumerate(s_bar):
            loss_tilde[i] = loss[i] / (1 - p[kappa + m]) if i != i_t else 0.0
        loss_hat = np.concatenate([hedges @ loss_tilde, loss_tilde[s_bar]])
        run["epoch"] += p @ loss_hat
        for j, cl in enumerate(cliques):  # every instance is fed ℓ̃_t
            run["moments"][j] += hedges[j, cl] @ loss_tilde[cl] ** 2
            rate = 1.0 / math.sqrt(1.0 + run["moments"][j])
            hedges[j] = hedge_step(hedges[j], loss_tilde, cl, rate, 1.0 / (cl.size * horizon))
        run["p"] = p = omd_step(p, loss_hat, run["etas"], eta, c, kappa, lower)
        for j in range(kappa):
            if 1.0 / p[j] > run["rho"][j]:
                run["rho"][j] = 2.0 / p[j]
                run["etas"][j] *= growth
        if adaptive and (kappa + 1) / eta <= eta * run["epoch"]:
            eta /= 2
            run["resets"].append(t + 1)
            start(eta)
    run["eta"] = eta
    return run


def assert_agrees(learner, tracker, ref):
    """The learner's state agrees with the reference run's. Clarabel's exponential-cone solves of
    Algorithm 3's entropy steps are accurate to ~1e-7 (observed: ≤ 5e-7 on p̃ after 40 rounds), those of
    p_t to ~1e-9 at the small η of these cases (η ≈ 0.01; through ℓ̂_t = ⟨p̃_t, ℓ̃_t⟩ the p̃ errors reach p_t
    at η times theirs: 1.2e-8 observed at η = 0.25)."""
    np.testing.assert_allclose(learner.p, ref["p"], rtol=0, atol=1e-8)
    np.testing.assert_allclose(learner.state.hedge, ref["hedges"], rtol=0, atol=2e-6)
    np.testing.assert_allclose(learner.state.second_moment, ref["moments"], rtol=1e-5)
    np.testing.assert_array_equal(learner.state.eta_meta, ref["etas"])
    np.testing.assert_allclose(learner.state.rho, ref["rho"], rtol=1e-9)
    assert tracker.sums[0] == pytest.approx(ref["expected"], abs=2e-6)


@pytest.mark.parametrize(
    ("graph", "constants", "horizon", "l_star"),
    [(figure1_graph(), "tuned", 40, 4e4), (strongly_observable_family([2], 10), "paper", 30, 5.0)],
    ids=["figure1-tuned", "one-clique-paper"],
)
def test_matches_a_generic_solver_reference(graph, constants, horizon, l_star):
    """tuned: η = √(3/L*) ≈ 0.009 (below its cap 1/β); paper: η at its cap."""
    k = graph.n_arms
    rng = np.random.default_rng(11)
    losses, uniforms = rng.random((horizon, k)), rng.random((horizon, 2))
    learner = Algorithm1(graph, horizon, FixedRng(uniforms), constants, L_star=l_star)
    tracker = Tracker.start(k, np.array([horizon]))
    learner.play(losses, 0, tracker)
    ref = reference_run(graph, horizon, losses, uniforms, learner.eta, learner.c)
    assert_agrees(learner, tracker, ref)
    if constants == "paper":
        assert learner.state.rate_increases.sum() >= 1  # the rule is exercised: p_1 on the clique is < 1/2


# ------------------------------------------------------------------------------------------------------------
# Constants, errors, seeds
# ------------------------------------------------------------------------------------------------------------


def test_paper_constants():
    graph = figure1_graph()  # κ = 2, s̄ = 2, β = 4, K = 7
    horizon = 5000
    learner = Algorithm1(graph, horizon, np.random.default_rng(0), "paper", L_star=400.0)
    logs = math.log(horizon) * math.log(7 * horizon) ** 2
    eta_max = min(1 / (64 * 4), 1 / (1000 * logs))
    assert learner.c == 64 * 4
    assert learner.eta_max == pytest.approx(eta_max, rel=1e-15)
    assert learner.eta == learner.eta_max  # √(3/400) ≫ η_max
    assert log_factor(horizon, 7) == pytest.approx(logs, rel=1e-15)
    assert learner.setup.rho_start == 4.0
    assert learner.setup.growth == pytest.approx(math.exp(1 / math.log(horizon)), rel=1e-15)
    np.testing.assert_array_equal(learner.setup.lower, 1 / horizon)
    np.testing.assert_array_equal(learner.setup.hedge_lower[1, 4:], 1 / (3 * horizon))
    np.testing.assert_array_equal(learner.setup.hedge_lower[1, :4], 0.0)
    np.testing.assert_array_equal(learner.state.eta_meta, learner.eta)
    np.testing.assert_array_equal(learner.state.rho, 4.0)
    assert all(learner.hypotheses.values())
    assert set(learner.hypotheses) == {"c_is_64_beta", "eta_at_most_eta_max", "T_at_least_2K"}
    huge = Algorithm1(graph, horizon, np.random.default_rng(0), "paper", L_star=1e20)
    assert huge.eta == pytest.approx(math.sqrt(3 / 1e20), rel=1e-15)
    assert Algorithm1(graph, horizon, np.random.default_rng(0), "paper", L_star=0.0).eta == eta_max


def test_tuned_constants_replace_64_by_one_and_drop_the_polylog_cap():
    graph = figure1_graph()
    horizon = 5000
    learner = Algorithm1(graph, horizon, np.random.default_rng(0), "tuned", L_star=1e9)
    assert learner.c == 4
    assert learner.eta_max == 1 / 4
    assert learner.eta == pytest.approx(math.sqrt(3 / 1e9), rel=1e-15)
    # η follows L* from L* > (κ+1)β² = 48 (tuned), never below T for the paper's cap at this T.
    assert Algorithm1(graph, horizon, np.random.default_rng(0), "tuned", L_star=47.0).eta == 1 / 4
    assert Algorithm1(graph, horizon, np.random.default_rng(0), "tuned", L_star=49.0).eta < 1 / 4
    assert uncapped_L_star(horizon, 7, 2, 4, "tuned") == 48.0
    assert learner.params["constants"] == "tuned"
    assert learner.hypotheses == {"c_is_64_beta": False, "eta_at_most_eta_max": False, "T_at_least_2K": True}


def test_rejects_bad_graphs_and_arguments():
    with pytest.raises(ValueError, match="algorithm1 requires a strongly observable"):
        Algorithm1(weakly_observable_stars([2]), 100, np.random.default_rng(0), L_star=1.0)
    with pytest.raises(ValueError, match="algorithm1 requires"):  # node 2 is observed by nobody
        Algorithm1(
            FeedbackGraph.from_edges(3, [(0, 0), (0, 1), (1, 1)]), 100, np.random.default_rng(0), L_star=1.0
        )
    for bad in (None, -1.0, float("nan")):
        with pytest.raises(ValueError, match="L_star"):
            Algorithm1(figure1_graph(), 100, np.random.default_rng(0), L_star=bad)
    with pytest.raises(ValueError, match="constants"):
        Algorithm1(figure1_graph(), 100, np.random.default_rng(0), "fast", L_star=1.0)
    with pytest.raises(ValueError, match="T > β"):
        Algorithm1(figure1_graph(), 4, np.random.default_rng(0), L_star=1.0)


def instance_of(graph, means):
    return BanditInstance(graph, StochasticBernoulli(tuple(means)), describe(graph))


def test_same_seed_same_run_different_seed_different_run():
    instance = instance_of(figure1_graph(), [0.5, 0.5, 0.5, 0.5, 0.2, 0.5, 0.5])

    def run(learner_seed, env_seed):
        learner = Algorithm1(instance.graph, 3000, np.random.default_rng(learner_seed), "tuned", L_star=600.0)
        return simulate(learner, instance, 3000, np.random.default_rng(env_seed))

    assert run(1, 2).equals(run(1, 2))
    assert not run(1, 2).equals(run(3, 2))
    assert not run(1, 2).equals(run(1, 4))


def test_chunking_does_not_change_the_run():
    graph = figure1_graph()
    losses = np.random.default_rng(0).random((500, 7))
    runs = []
    for chunk in (500, 37):
        learner = Algorithm1(graph, 500, np.random.default_rng(5), "tuned", L_star=100.0)
        tracker = Tracker.start(7, np.array([100, 500]))
        for t0 in range(0, 500, chunk):
            learner.play(losses[t0 : t0 + chunk], t0, tracker)
        runs.append((learner.p.copy(), learner.state.hedge.copy(), tracker.records.copy()))
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_learns_the_best_arm_inside_a_clique():
    """Tuned constants, best arm in the second clique: far less pseudo-regret than the uniform player's."""
    means = np.array([0.6, 0.6, 0.6, 0.6, 0.6, 0.1, 0.6])
    instance = instance_of(figure1_graph(), means)
    horizon = 20000
    learner = Algorithm1(instance.graph, horizon, np.random.default_rng(0), "tuned", L_star=0.1 * horizon)
    rows = simulate(learner, instance, horizon, np.random.default_rng(1))
    assert learner.state.hedge[1].argmax() == 5
    assert rows.iloc[-1]["pseudo_regret"] < 0.5 * (means.mean() - means.min()) * horizon


# ------------------------------------------------------------------------------------------------------------
# Where η leaves its cap: the L* and horizon from which Algorithm 1 depends on L* at all
# ------------------------------------------------------------------------------------------------------------


@given(start=st.integers(1, 10**6), threshold=st.integers(1, 10**9))
@settings(max_examples=50, deadline=None)
def test_first_horizon_is_the_smallest_horizon_where_a_monotone_condition_holds(start, threshold):
    found = first_horizon(lambda t: t >= threshold, start)
    assert found == max(start, threshold)


@pytest.mark.parametrize("constants", ["paper", "tuned"])
def test_uncapped_horizon_is_where_eta_starts_to_follow_L_star(constants):
    """At the returned T (with L* = rate·T) Theorem 4's η is below its cap; one round earlier it is at it."""
    graph = figure1_graph()  # K = 7, κ = 2, β = 4
    rate = 0.3
    horizon = uncapped_horizon(rate, 7, 2, 4, constants)
    if constants == "paper":  # far beyond any run: η_max ≈ 1/(1000 ln T ln²(KT))
        assert horizon > 1e15
        assert uncapped_L_star(10**5, 7, 2, 4, "paper") > 1e13
        return
    assert horizon == 161  # 0.3·T > 48
    for t, capped in ((horizon - 1, True), (horizon, False)):
        eta = Algorithm1(graph, int(t), np.random.default_rng(0), constants, L_star=rate * t).eta
        assert (eta == eta_cap(int(t), 7, 4, constants)) is capped
