"""Exact OMD steps of paper 001 (eqs. (2), (5), (6), (7), Algorithm 3) in ``regretlab.bandits.omd``.

Every kernel solves ``p' = argmin_{p ∈ Ω} ⟨p, ℓ̂⟩ + D_ψ(p, p_t)`` with a separable
``ψ(p) = Σ_i a_i p_i ln p_i + b_i ln(1/p_i)``. The checks: the output is in Ω and sums to 1; it satisfies the
KKT conditions; it agrees with a generic conic solve (cvxpy + Clarabel) of the same problem; and structural
properties (closed form of entropy OMD, identity at ℓ̂ = 0, no dependence on the warm start).
"""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from scipy.special import wrightomega

from regretlab.bandits.omd import (
    _wright_omega,
    adaptive_hedge_step,
    entropy_step,
    hybrid_step,
    log_barrier_hybrid_step,
    time_varying_hybrid_step,
)

KERNELS = ("entropy", "eq5", "eq6", "eq7")
SUM_TOL = 1e-12
KKT_RTOL = 1e-10  # stationarity residual relative to the size of the terms in it (observed: ≤ 1e-14)
CONIC_TOL = 1e-7
# Tight Clarabel settings; with them and the formulation of conic_step Clarabel reaches ~1e-9 on non-extreme
# inputs.
CLARABEL = dict(tol_gap_abs=1e-13, tol_gap_rel=1e-13, tol_feas=1e-13, tol_ktratio=1e-13, max_iter=2000,
                max_step_fraction=0.9, min_terminate_step_length=1e-8, static_regularization_constant=1e-13,
                iterative_refinement_reltol=1e-16, iterative_refinement_abstol=1e-16,
                iterative_refinement_max_iter=100)


# ------------------------------------------------------------------------------------------------------------
# Problems
# ------------------------------------------------------------------------------------------------------------


class Problem:
    """One OMD step: p_t ∈ Ω, ℓ̂, lower bounds and the regulariser parameters of eqs. (5)–(7)."""

    def __init__(self, p, loss_est, lower, eta, etas, c, in_s):
        self.p, self.loss_est, self.lower = p, loss_est, lower
        self.eta, self.etas, self.c, self.in_s = eta, etas, c, in_s

    def weights(self, kernel):
        """``(a, b)``: per-coordinate entropy and log-barrier weights of the kernel's regulariser."""
        k = self.p.size
        if kernel == "entropy":
            return np.full(k, 1.0 / self.eta), np.zeros(k)
        if kernel == "eq5":
            return np.full(k, 1.0 / self.eta), np.full(k, self.c)
        etas = np.full(k, self.eta) if kernel == "eq6" else self.etas
        return np.where(self.in_s, 0.0, 1.0 / etas), np.where(self.in_s, 1.0 / etas, self.c)

    def step(self, kernel, out=None, mu=np.nan):
        """Run the kernel; returns ``(p', μ)``, μ None for :func:`entropy_step` (which does not give it)."""
        out = np.empty_like(self.p) if out is None else out
        args = (self.p, self.loss_est)
        if kernel == "entropy":
            entropy_step(*args, self.eta, self.lower, out)
            return out, None
        if kernel == "eq5":
            return out, hybrid_step(*args, self.eta, self.c, self.lower, out, mu)
        if kernel == "eq6":
            return out, log_barrier_hybrid_step(*args, self.eta, self.c, self.in_s, self.lower, out, mu)
        return out, time_varying_hybrid_step(*args, self.etas, self.c, self.in_s, self.lower, out, mu)


@st.composite
def problems(draw, losses="importance", p_floor=1e-7):
    """Random problems with K ≤ 20.

    ``losses``: "moderate" (ℓ̂ ≤ 10), "importance" (ℓ̂_i ≤ 1/p_i as in eq. (1)) or "huge" (ℓ̂_i ∈ {0, T/10, T},
    T ∈ {1e6, 1e7}). Lower bounds: 0, 1/T (the paper's Ω), or random with Σ ≤ 0.5. p_t = lower +
    (1 − Σ lower) · w with Dirichlet weights w floored at ``p_floor`` (so p_t − lower ≳ p_floor/2).
    """
    k = draw(st.integers(1, 20))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    horizon = draw(st.sampled_from([1e3, 1e6, 1e7]))
    lower = draw(st.sampled_from(["zero", "one_over_T", "random"]))
    lower = {"zero": np.zeros(k), "one_over_T": np.full(k, 1.0 / horizon),
             "random": rng.dirichlet(np.ones(k)) * rng.uniform(0.0, 0.5)}[lower]
    weights = np.maximum(rng.dirichlet(np.full(k, draw(st.sampled_from([0.2, 1.0, 5.0])))), p_floor)
    p = lower + (1.0 - lower.sum()) * weights / weights.sum()
    observed = rng.random(k) < draw(st.sampled_from([0.2, 0.5, 1.0]))
    if losses == "moderate":
        loss_est = rng.uniform(0.0, 10.0, k)
    elif losses == "importance":
        loss_est = rng.random(k) / p
    else:
        loss_est = draw(st.sampled_from([1e6, 1e7])) * rng.choice([0.1, 1.0], k)
    loss_est = np.where(observed, loss_est, 0.0)
    eta = 10.0 ** draw(st.floats(-4.0, 0.5))
    etas = eta * np.exp(rng.uniform(0.0, 2.0, k))  # Algorithm 1 only ever increases η_{t,j} from η
    c = draw(st.sampled_from([0.0, 10.0 ** draw(st.floats(-2.0, 4.0))]))
    in_s = rng.random(k) < draw(st.sampled_from([0.0, 0.5, 1.0]))
    return Problem(p, loss_est, lower, eta, etas, c, in_s)


# ------------------------------------------------------------------------------------------------------------
# References: KKT conditions, objective, conic solve
# ------------------------------------------------------------------------------------------------------------


def kkt_gradient(x, problem, a, b, mu):
    """``λ_i = ∇ψ_i(x_i) − ∇ψ_i(p_i) + ℓ̂_i + μ`` and the size of the terms it sums (for a relative test)."""
    p, loss = problem.p, problem.loss_est
    with np.errstate(all="ignore"):  # x = 0 or subnormal (only where it underflowed; see assert_kkt)
        entropy = np.where(a > 0, a * np.log(x / p), 0.0)
        barrier = np.where(b > 0, b * (1.0 / p - 1.0 / x), 0.0)
        scale = np.abs(entropy) + a + np.where(b > 0, b / p + b / x, 0.0) + np.abs(loss) + abs(mu)
    return entropy + barrier + loss + mu, scale


def assert_kkt(x, problem, a, b, mu):
    """Stationarity on free coordinates, λ ≥ 0 and p'_i = lower_i on clamped ones (complementary slackness).

    A free coordinate is one with p'_i > lower_i. Without a returned μ (entropy_step) μ is recovered from the
    free coordinates, whose values must then agree. An entropy coordinate with bound 0 may underflow: be 0 or
    subnormal (below 2.2e-308, where floats lose relative precision); then the exponent of
    p_i e^{−(ℓ̂_i + μ)/a_i} is checked to be below −700 instead.
    """
    lower = problem.lower
    underflow = (x < np.finfo(float).tiny) & (b == 0.0)
    free = (x > lower) & ~underflow
    assert free.any()
    if mu is None:
        with np.errstate(divide="ignore"):
            mu_free = -a[free] * np.log(x[free] / problem.p[free]) - problem.loss_est[free]
        mu = float(np.median(mu_free))
    gradient, scale = kkt_gradient(x, problem, a, b, mu)
    assert np.all(np.abs(gradient[free]) <= KKT_RTOL * scale[free])
    clamped = ~free & ~underflow
    assert np.all(x[clamped] == lower[clamped])
    assert np.all(gradient[clamped] >= -KKT_RTOL * scale[clamped])
    with np.errstate(divide="ignore"):
        log_value = np.log(problem.p[underflow]) - (problem.loss_est[underflow] + mu) / a[underflow]
    assert np.all(log_value < -700.0)


def assert_in_omega(x, problem):
    """Finite, every lower bound respected exactly, and Σ x = 1 within 1e-12."""
    assert np.all(np.isfinite(x))
    assert np.all(x >= problem.lower)
    assert abs(x.sum() - 1.0) <= SUM_TOL


def objective(x, problem, a, b):
    """``⟨x − p, ℓ̂ − min ℓ̂⟩ + D_ψ(x, p)`` (eq. (2) up to a constant on Δ) and the scale of its rounding error.

    The scale is the sum of the absolute values of every summand (before the cancellations in
    ``x ln(x/p) − x + p`` and ``x/p − 1 − ln(x/p)``) plus ``max ℓ̂ − min ℓ̂``, which bounds the effect of
    ``|Σ x − 1| ≈ 1e-16`` on the linear term.
    """
    p, loss = problem.p, problem.loss_est - problem.loss_est.min()
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = x / p
        log_ratio = np.where(x > 0, np.log(ratio), 0.0)
        entropy = np.where(a > 0, a * (x * log_ratio - x + p), 0.0)
        barrier = np.where(b > 0, b * (ratio - 1.0 - log_ratio), 0.0)
        size = (loss * (x + p) + np.where(a > 0, a * (x * np.abs(log_ratio) + x + p), 0.0)
                + np.where(b > 0, b * (ratio + 1.0 + np.abs(log_ratio)), 0.0))
    return np.sum(loss * (x - p) + entropy + barrier), size.sum() + loss.max()


def conic_step(problem, a, b, support=None):
    """The same OMD step by cvxpy + Clarabel: ``cp.entr`` (through ``kl_div``) and ``-cp.log`` atoms.

    Posed in ``r = p'/p_t`` on the support of p_t (other coordinates are 0): minimise
    ``Σ (ℓ̂_i − min ℓ̂) p_i r_i + a_i p_i (r_i ln r_i − r_i + 1) + b_i (r_i − 1 − ln r_i)`` (= :func:`objective`
    up to a constant) over ``Σ p_i r_i = 1``, ``r_i ≥ lower_i/p_i``, divided by a positive scale. Whether
    Clarabel reaches its tolerances depends on that scale; when it does (status "optimal") its answer was
    within 2e-9 of the exact step in 1000 random cases, when it does not ("optimal_inaccurate") it can be
    ~1e-4 off.
    So the scales tried in turn are: the largest coefficient, then the mean, smallest and largest curvature
    ``a_i p_i + b_i`` of the terms at r = 1. Returns ``(p', accurate)``: the first answer with status
    "optimal", or, if none is, the one of smallest objective with ``accurate = False``.
    """
    p, lower = problem.p, problem.lower
    support = p > 0 if support is None else support
    ps, a_s, b_s = p[support], a[support], b[support]
    loss = problem.loss_est[support] - problem.loss_est[support].min()
    curvature = a_s * ps + b_s
    has_entropy, has_barrier = a_s > 0, b_s > 0
    best, best_objective = None, np.inf
    largest_coefficient = max(np.max(a_s * ps), np.max(b_s), np.max(loss * ps))
    for scale in (largest_coefficient, np.mean(curvature), np.min(curvature), np.max(curvature)):
        r = cp.Variable(ps.size)
        terms = [(loss * ps / scale) @ r]
        if has_entropy.any():
            kl = cp.kl_div(r[has_entropy], np.ones(has_entropy.sum()))  # = −entr(r) − r + 1
            terms.append((a_s[has_entropy] * ps[has_entropy] / scale) @ kl)
        if has_barrier.any():
            rb = r[has_barrier]
            terms.append((b_s[has_barrier] / scale) @ (rb - cp.log(rb)))
        conic = cp.Problem(cp.Minimize(cp.sum(cp.hstack(terms))), [ps @ r == 1, r >= lower[support] / ps])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Solution may be inaccurate": reported through `accurate`
            conic.solve(solver=cp.CLARABEL, **CLARABEL)
        x = np.zeros_like(p)
        x[support] = r.value * ps
        if conic.status == cp.OPTIMAL:
            return x, True
        value = objective(project_onto_omega(x, lower), problem, a, b)[0]
        if value < best_objective:
            best, best_objective = x, value
    return best, False


def project_onto_omega(x, lower):
    """A nearby point of Ω: clip at the bounds, rescale the excess over them to total 1 − Σ lower."""
    excess = np.maximum(x, lower) - lower
    return lower + excess * (1.0 - lower.sum()) / excess.sum()


# ------------------------------------------------------------------------------------------------------------
# Output in Ω, KKT conditions
# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("losses", ["moderate", "importance", "huge"])
@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_step_is_in_omega_and_satisfies_kkt(kernel, losses, data):
    problem = data.draw(problems(losses))
    a, b = problem.weights(kernel)
    x, mu = problem.step(kernel)
    assert_in_omega(x, problem)
    assert_kkt(x, problem, a, b, mu)


@pytest.mark.parametrize("kernel", KERNELS[1:])
@settings(deadline=None, max_examples=40)
@given(problem=problems("importance"))
def test_entropy_coordinates_may_start_at_zero(kernel, problem):
    """With c = 0 and bound 0 an entropy coordinate may be 0 in p_t; it stays 0 (Ω allows it, ψ is finite)."""
    problem.c = 0.0
    zero = ~problem.in_s & (np.arange(problem.p.size) % 2 == 0)
    assume(zero.any() and not zero.all())
    problem.lower = np.where(zero, 0.0, problem.lower)
    problem.p = np.where(zero, 0.0, problem.p)
    problem.p[~zero] += (1.0 - problem.p.sum()) * problem.p[~zero] / problem.p[~zero].sum()
    x, mu = problem.step(kernel)
    assert_in_omega(x, problem)
    assert np.all(x[zero] == 0.0)
    a, b = problem.weights(kernel)
    assert_kkt(x, problem, a, b, mu)


# ------------------------------------------------------------------------------------------------------------
# Agreement with a generic conic solver
# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("losses", ["moderate", "importance"])
@settings(deadline=None, max_examples=20)
@given(data=st.data())
def test_matches_conic_solver(kernel, losses, data):
    problem = data.draw(problems(losses, p_floor=data.draw(st.sampled_from([1e-3, 1e-7]))))
    a, b = problem.weights(kernel)
    x, _ = problem.step(kernel)
    conic, accurate = conic_step(problem, a, b)
    event(f"conic solver accurate: {accurate}")
    if accurate:
        np.testing.assert_allclose(x, conic, rtol=0.0, atol=CONIC_TOL)
    else:
        assert_objective_not_worse(x, conic, problem, a, b)


@pytest.mark.parametrize("kernel", KERNELS)
@settings(deadline=None, max_examples=15)
@given(problem=problems("huge"))
def test_objective_not_worse_than_conic_solver_on_huge_losses(kernel, problem):
    """With ℓ̂ ~ 1e6–1e7 Clarabel rarely reaches its tolerances and its answer is then off by up to ~1e-4 (the
    objective's coefficients span ~1e15), so only objective values are compared (see
    :func:`assert_objective_not_worse`)."""
    a, b = problem.weights(kernel)
    x, _ = problem.step(kernel)
    assert_objective_not_worse(x, conic_step(problem, a, b)[0], problem, a, b)


def assert_objective_not_worse(x, conic, problem, a, b):
    """The conic answer, moved into Ω, is a feasible point, so the exact step must not have a larger
    objective, up to the rounding of evaluating the objective (see :func:`objective`)."""
    ours, ours_size = objective(x, problem, a, b)
    theirs, theirs_size = objective(project_onto_omega(conic, problem.lower), problem, a, b)
    assert ours <= theirs + 1e-13 * max(ours_size, theirs_size)


# ------------------------------------------------------------------------------------------------------------
# Structural properties
# ------------------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=100)
@given(problem=problems("importance"))
def test_entropy_step_is_the_closed_form_without_active_bounds(problem):
    """Exp3.G's update p' ∝ p e^{−ηℓ̂} (eq. (2) with the entropy) whenever no bound is active."""
    log_weights = np.log(problem.p) - problem.eta * problem.loss_est
    closed_form = np.exp(log_weights - log_weights.max())
    closed_form /= closed_form.sum()
    assume(np.all(closed_form > problem.lower))
    x, _ = problem.step("entropy")
    np.testing.assert_allclose(x, closed_form, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize("kernel", KERNELS)
@settings(deadline=None, max_examples=60)
@given(problem=problems("importance"), shift=st.sampled_from([0.0, 1.0, 1e7]))
def test_step_is_identity_for_constant_loss(kernel, problem, shift):
    """ℓ̂ = 0 (or any ℓ̂ = z·1, since Σ p = 1 makes the shift irrelevant) and p_t ∈ Ω give p_{t+1} = p_t."""
    problem.loss_est = np.full_like(problem.p, shift)
    x, _ = problem.step(kernel)
    np.testing.assert_allclose(x, problem.p, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize("kernel", KERNELS[1:])
@pytest.mark.parametrize("losses", ["importance", "huge"])
@settings(deadline=None, max_examples=40)
@given(data=st.data())
def test_output_does_not_depend_on_warm_start(kernel, losses, data):
    problem = data.draw(problems(losses))
    x, mu = problem.step(kernel)
    starts = [0.0, mu, mu + 1e-9 * (1.0 + abs(mu)), -1e8, 1e8, -np.inf, np.inf,
              data.draw(st.floats(-1e12, 1e12))]
    for start in starts:
        x_warm, mu_warm = problem.step(kernel, mu=start)
        np.testing.assert_allclose(x_warm, x, rtol=0.0, atol=1e-13)
        assert_kkt(x_warm, problem, *problem.weights(kernel), mu_warm)


def test_warm_start_is_optional():
    p, loss_est, lower = np.array([0.2, 0.3, 0.5]), np.array([0.0, 5.0, 1e7]), np.full(3, 1e-7)
    in_s, etas = np.array([True, False, False]), np.array([0.01, 0.02, 0.03])
    for step, args in ((hybrid_step, (0.01, 48.0)), (log_barrier_hybrid_step, (0.01, 48.0, in_s)),
                       (time_varying_hybrid_step, (etas, 48.0, in_s))):
        out, out_nan = np.empty(3), np.empty(3)
        assert step(p, loss_est, *args, lower, out) == step(p, loss_est, *args, lower, out_nan, np.nan)
        np.testing.assert_array_equal(out, out_nan)


@pytest.mark.parametrize("kernel", KERNELS)
@settings(deadline=None, max_examples=30)
@given(problem=problems("huge"))
def test_out_may_alias_p(kernel, problem):
    x, _ = problem.step(kernel)
    in_place = problem.p.copy()
    problem.p = in_place
    problem.step(kernel, out=in_place)
    np.testing.assert_array_equal(in_place, x)


@settings(deadline=None, max_examples=60)
@given(problem=problems("huge"))
def test_eq7_with_a_common_rate_is_eq6_and_eq6_without_s_is_eq5(problem):
    problem.etas = np.full_like(problem.p, problem.eta)
    np.testing.assert_array_equal(problem.step("eq7")[0], problem.step("eq6")[0])
    problem.in_s = np.zeros(problem.p.size, dtype=bool)
    np.testing.assert_array_equal(problem.step("eq6")[0], problem.step("eq5")[0])


@settings(deadline=None, max_examples=60)
@given(problem=problems("importance"))
def test_eq5_without_log_barrier_is_entropy_step(problem):
    problem.c = 0.0
    np.testing.assert_allclose(problem.step("eq5")[0], problem.step("entropy")[0], rtol=1e-11, atol=1e-300)


@pytest.mark.parametrize("kernel", KERNELS)
def test_long_run_with_huge_loss_estimates_stays_in_omega(kernel):
    """A bandit-like run, T = 1e7: each round one arm drawn from p_t gets ℓ̂ = ℓ/p_t (up to 1e7)."""
    rng = np.random.default_rng(0)
    k, horizon = 16, 1e7
    in_s = np.arange(k) < 6
    problem = Problem(np.full(k, 1.0 / k), np.zeros(k), np.full(k, 1.0 / horizon), 1e-3,
                      np.where(in_s, 3e-3, 1e-3), 64.0 * k, in_s)
    for _ in range(3000):
        arm = rng.choice(k, p=problem.p / problem.p.sum())
        problem.loss_est = np.zeros(k)
        problem.loss_est[arm] = (1.0 if arm % 3 else 0.05) / max(problem.p[arm], 1.0 / horizon)
        problem.step(kernel, out=problem.p)
        assert_in_omega(problem.p, problem)


# ------------------------------------------------------------------------------------------------------------
# Algorithm 3: Hedge with adaptive learning rates inside a clique C
# ------------------------------------------------------------------------------------------------------------


@st.composite
def clique_problems(draw):
    """A problem plus a non-empty clique C, with p_t zero outside C and the paper's bound 1/(|C| T) on C."""
    problem = draw(problems(draw(st.sampled_from(["moderate", "importance", "huge"]))))
    k = problem.p.size
    in_clique = np.zeros(k, dtype=bool)
    in_clique[draw(st.lists(st.integers(0, k - 1), min_size=1, unique=True))] = True
    horizon = draw(st.sampled_from([1e3, 1e6, 1e7]))
    problem.lower = np.where(in_clique, 1.0 / (in_clique.sum() * horizon), 0.0)
    weights = np.where(in_clique, problem.p, 0.0)
    problem.p = problem.lower + (1.0 - problem.lower.sum()) * weights / weights.sum()
    return problem, in_clique, draw(st.sampled_from([0.0, 1.0, 1e6]))


@settings(deadline=None, max_examples=80)
@given(case=clique_problems())
def test_adaptive_hedge_step_is_entropy_omd_on_the_clique(case):
    """Algorithm 3: η_t = (1 + Σ_{τ≤t} Σ_i p̃_τ,i ℓ̃_τ,i²)^{-1/2}; p̃_{t+1} = 0 outside C and, on C, the entropy
    step restricted to C (losses outside C are ignored)."""
    problem, in_clique, second_moment = case
    x = np.empty_like(problem.p)
    updated = adaptive_hedge_step(problem.p, problem.loss_est, in_clique, problem.lower, second_moment, x)
    c = in_clique
    expected_sum = second_moment + np.sum(problem.p[c] * problem.loss_est[c] ** 2)
    assert updated == pytest.approx(expected_sum, rel=1e-12)
    assert_in_omega(x, problem)
    assert np.all(x[~c] == 0.0)
    restricted = Problem(problem.p[c], problem.loss_est[c], problem.lower[c], 1.0 / np.sqrt(1.0 + updated),
                         None, 0.0, None)
    np.testing.assert_array_equal(x[c], restricted.step("entropy")[0])
    assert_kkt(x[c], restricted, *restricted.weights("entropy"), None)


@settings(deadline=None, max_examples=20)
@given(case=clique_problems())
def test_adaptive_hedge_step_matches_conic_solver(case):
    problem, in_clique, second_moment = case
    assume(problem.loss_est.max() <= 1e4)  # huge losses: see test_objective_not_worse_than_conic_solver_...
    x = np.empty_like(problem.p)
    updated = adaptive_hedge_step(problem.p, problem.loss_est, in_clique, problem.lower, second_moment, x)
    problem.eta = 1.0 / np.sqrt(1.0 + updated)
    a, b = problem.weights("entropy")
    conic, accurate = conic_step(problem, a, b, support=in_clique)
    event(f"conic solver accurate: {accurate}")
    if accurate:
        np.testing.assert_allclose(x, conic, rtol=0.0, atol=CONIC_TOL)
    else:
        assert_objective_not_worse(x, conic, problem, a, b)


@settings(deadline=None, max_examples=40)
@given(case=clique_problems())
def test_adaptive_hedge_step_is_identity_for_zero_loss(case):
    problem, in_clique, second_moment = case
    x = problem.p.copy()
    updated = adaptive_hedge_step(x, np.zeros_like(x), in_clique, problem.lower, second_moment, x)
    assert updated == second_moment
    np.testing.assert_allclose(x, problem.p, rtol=1e-12, atol=0.0)


# ------------------------------------------------------------------------------------------------------------
# The Wright omega function behind the mixed entropy + log-barrier coordinates
# ------------------------------------------------------------------------------------------------------------


def test_wright_omega_matches_scipy():
    """To rounding: residual of y + ln y = z within 2 ulps of max(1, |z|), and relative error within 4 ulps
    times 1 + |z|/(1 + ω(z)), the relative condition number of ω (an ulp of z moves ω by that many ulps)."""
    z = np.concatenate([np.linspace(-700.0, -5.0, 2000), np.linspace(-5.0, 5.0, 20001),
                        np.linspace(5.0, 1e3, 5000), np.logspace(3.0, 300.0, 2000)])
    expected = wrightomega(z).real
    eps = np.finfo(float).eps
    fresh = np.array([_wright_omega(v, np.nan) for v in z])
    # From a start within 1%, as _move supplies it.
    starts = expected * np.linspace(0.99, 1.01, z.size)
    warm = np.array([_wright_omega(v, start) for v, start in zip(z, starts, strict=True)])
    for y in (fresh, warm):
        assert np.all(np.abs(y + np.log(y) - z) <= 2.0 * eps * np.maximum(1.0, np.abs(z)))
        assert np.all(np.abs(y - expected) <= 4.0 * eps * (1.0 + np.abs(z) / (1.0 + expected)) * expected)
