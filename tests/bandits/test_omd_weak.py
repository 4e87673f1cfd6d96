"""The exact OMD step of Algorithm 2 (paper 001, §4, lines 216–232) in ``regretlab.bandits.omd_weak``.

``p' = argmin_{p ∈ Ω} ⟨p, g⟩ + D_ψ(p, p_t)``, ψ = (1/η) Σ_S ln(1/p_i) + (1/η̄) Σ_S̄ p_i ln p_i,
Ω = Δ ∩ {p ≥ lower} ∩ {Σ_S p ≥ θ}. Checks: output in Ω summing to 1 within 1e-12; the KKT conditions (one
normaliser per part, ν ≥ 0 with complementary slackness, λ ≥ 0 on clamped coordinates); agreement with
cvxpy + Clarabel (solution and objective); zeros stay zero; in-place use; identity at constant g.
"""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from regretlab.bandits.omd_weak import weak_hybrid_step

SUM_TOL = 1e-12
KKT_RTOL = 1e-10
CONIC_TOL = 1e-7
CLARABEL = dict(tol_gap_abs=1e-13, tol_gap_rel=1e-13, tol_feas=1e-13, tol_ktratio=1e-13, max_iter=2000,
                max_step_fraction=0.9, min_terminate_step_length=1e-8, static_regularization_constant=1e-13,
                iterative_refinement_reltol=1e-16, iterative_refinement_abstol=1e-16,
                iterative_refinement_max_iter=100)


class Problem:
    """One step: p_t ∈ Ω, g, S, η, η̄, lower bounds, θ."""

    def __init__(self, p, g, in_s, eta, eta_bar, lower, theta):
        self.p, self.g, self.in_s = p, g, in_s
        self.eta, self.eta_bar, self.lower, self.theta = eta, eta_bar, lower, theta

    def step(self, out=None):
        out = np.empty_like(self.p) if out is None else out
        nu = weak_hybrid_step(self.p, self.g, self.in_s, self.eta, self.eta_bar, self.lower, self.theta, out)
        return out, nu


@st.composite
def problems(draw, losses="importance", zeros=False):
    """Random steps with K ≤ 16: S = ∅, S̄ = ∅ or mixed; lower bounds none or on a random subset D (Σ ≤ 0.4);
    θ = u·Σ_S p_t with u ∈ {0, 0.5, 0.95, 1} (θ = Σ_S p_t: p_t on the boundary of Ω); losses on S scaled by 1
    or 20 (the latter pushes mass off S and makes the coupled constraint active). ``losses``: "moderate"
    (≤ 10), "importance" (g_i ≤ 1/p_i, as eq. (1)), "huge" (g_i ∈ {0, T/10, T}, T ∈ {1e6, 1e7}).
    ``zeros``: some S coordinates of p_t are 0 (Algorithm 6's clipping). Half the draws are "coupled": S and
    S̄ both non-empty, θ ≥ 0.95 Σ_S p_t and g = 0 on S̄, so that the coupled constraint is mostly active."""
    k = draw(st.integers(1, 16))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    coupled = draw(st.booleans())
    in_s = rng.random(k) < (0.5 if coupled else draw(st.sampled_from([0.0, 0.5, 1.0])))
    assume(not coupled or (in_s.any() and not in_s.all()))
    in_d = rng.random(k) < draw(st.sampled_from([0.0, 0.3, 1.0]))
    lower = np.where(in_d, rng.dirichlet(np.ones(k)) * rng.uniform(0.0, 0.4), 0.0)
    weights = np.maximum(rng.dirichlet(np.full(k, draw(st.sampled_from([0.2, 1.0, 5.0])))), 1e-7)
    if zeros:
        zero = in_s & (rng.random(k) < 0.5)
        assume(zero.any() and not zero.all())
        weights, lower = np.where(zero, 0.0, weights), np.where(zero, 0.0, lower)
    p = lower + (1.0 - lower.sum()) * weights / weights.sum()
    fraction = draw(st.sampled_from([0.95, 1.0] if coupled else [0.0, 0.5, 0.95, 1.0]))
    theta = fraction * p[in_s].sum() if in_s.any() else 0.0
    observed = rng.random(k) < draw(st.sampled_from([0.3, 1.0]))
    if losses == "moderate":
        g = rng.uniform(0.0, 10.0, k)
    elif losses == "importance":
        g = rng.random(k) / np.maximum(p, 1e-300)
    else:
        g = draw(st.sampled_from([1e6, 1e7])) * rng.choice([0.1, 1.0], k)
    g = np.where(observed, g * np.where(in_s, draw(st.sampled_from([1.0, 20.0])), 1.0), 0.0)
    if coupled:
        g = np.where(in_s, g, 0.0)
    eta = 10.0 ** draw(st.floats(-4.0, np.log10(0.2)))
    eta_bar = 10.0 ** draw(st.floats(-6.0, np.log10(0.04)))
    return Problem(p, g, in_s, eta, eta_bar, lower, theta)


def implied_mu(x, problem):
    """Per coordinate, the normaliser μ_i at which its KKT equation holds without a bound multiplier, and the
    size of the terms (for a relative tolerance)."""
    p, g, in_s = problem.p, problem.g, problem.in_s
    with np.errstate(all="ignore"):
        barrier = (1.0 / x - 1.0 / p) / problem.eta
        entropy = -np.log(x / p) / problem.eta_bar
        mu = np.where(in_s, barrier, entropy) - g
        size = np.where(in_s, (1.0 / x + 1.0 / p) / problem.eta, np.abs(entropy) + 1.0 / problem.eta_bar)
        size += np.abs(g)
    return mu, size


def assert_in_omega(x, problem):
    assert np.all(np.isfinite(x))
    support = problem.p > 0
    assert np.all(x[support] >= problem.lower[support])
    assert np.all(x[~support] == 0.0)
    assert abs(x.sum() - 1.0) <= SUM_TOL
    assert x[problem.in_s].sum() >= problem.theta - SUM_TOL


def assert_kkt(x, problem, nu):
    """Stationarity on each part with one normaliser (μ on S̄, μ − ν on S), ν ≥ 0 and ν = 0 unless Σ_S x = θ,
    and on clamped coordinates x_i = lower_i with λ_i ≥ 0 (implied μ_i ≤ the part's μ). Entropy coordinates
    that underflowed (x < 2.2e-308, bound 0) are checked to have exponent below −700 instead."""
    in_s, support = problem.in_s, problem.p > 0
    assert nu >= 0.0
    if nu > 0.0:
        assert abs(x[in_s].sum() - problem.theta) <= SUM_TOL
    mu_i, size = implied_mu(x, problem)
    underflow = support & ~in_s & (x < np.finfo(float).tiny) & (problem.lower == 0.0)
    free = support & (x > problem.lower) & ~underflow
    clamped = support & ~free & ~underflow
    assert np.all(x[clamped] == problem.lower[clamped])
    part_mu = {}
    for name, part in (("S", in_s), ("Sbar", ~in_s)):
        members = free & part
        if members.any():
            centre = float(np.median(mu_i[members]))
            assert np.all(np.abs(mu_i[members] - centre) <= KKT_RTOL * (size[members] + abs(centre)))
            part_mu[name] = centre
            on_bound = clamped & part
            assert np.all(mu_i[on_bound] <= centre + KKT_RTOL * (size[on_bound] + abs(centre)))
    if len(part_mu) == 2:
        scale = max(abs(part_mu["S"]), abs(part_mu["Sbar"])) + 1.0 / problem.eta
        assert abs(part_mu["Sbar"] - part_mu["S"] - nu) <= 1e-8 * scale
    if underflow.any():
        mu_sbar = part_mu.get("Sbar", np.inf)
        with np.errstate(divide="ignore"):
            exponent = np.log(problem.p[underflow]) - problem.eta_bar * (problem.g[underflow] + mu_sbar)
        assert np.all(exponent < -700.0)


def objective(x, problem):
    """``⟨x, g − min g⟩ + D_ψ(x, p)`` on the support and the size of its summands (rounding scale)."""
    s = problem.p > 0
    p, x, in_s = problem.p[s], x[s], problem.in_s[s]
    g = problem.g[s] - problem.g[s].min()
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = x / p
        log_ratio = np.where(x > 0, np.log(ratio), 0.0)
        barrier = (ratio - 1.0 - log_ratio) / problem.eta
        entropy = (x * log_ratio - x + p) / problem.eta_bar
        terms = g * x + np.where(in_s, barrier, entropy)
        size = g * x + np.where(in_s, (ratio + 1.0 + np.abs(log_ratio)) / problem.eta,
                                (x * np.abs(log_ratio) + x + p) / problem.eta_bar)
    return terms.sum(), size.sum() + g.max()


def conic_step(problem):
    """The same step by cvxpy + Clarabel in ``r = p'/p_t`` on the support; returns ``(p', accurate)``.

    Several objective scales are tried (Clarabel's accuracy depends on it, see tests/bandits/test_omd.py); the
    first "optimal" answer is returned, else the best feasible-ish one with ``accurate = False``."""
    support = problem.p > 0
    p, in_s = problem.p[support], problem.in_s[support]
    g = problem.g[support] - problem.g[support].min()
    curvature = np.where(in_s, 1.0 / problem.eta, p / problem.eta_bar)
    best = None
    for scale in (max(curvature.max(), (g * p).max()), curvature.mean(), curvature.min(), curvature.max()):
        r = cp.Variable(p.size)
        terms = [(g * p / scale) @ r]
        if (~in_s).any():
            terms.append((p[~in_s] / (problem.eta_bar * scale)) @ cp.kl_div(r[~in_s], np.ones((~in_s).sum())))
        if in_s.any():
            terms.append(cp.sum(r[in_s] - cp.log(r[in_s])) / (problem.eta * scale))
        constraints = [p @ r == 1, r >= problem.lower[support] / p]
        if problem.theta > 0:
            constraints.append(p[in_s] @ r[in_s] >= problem.theta)
        conic = cp.Problem(cp.Minimize(cp.sum(cp.hstack(terms))), constraints)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                conic.solve(solver=cp.CLARABEL, **CLARABEL)
            except cp.SolverError:
                continue
        if r.value is None:
            continue
        x = np.zeros_like(problem.p)
        x[support] = r.value * p
        if conic.status == cp.OPTIMAL:
            return x, True
        best = x
    return best, False


# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("losses", ["moderate", "importance", "huge"])
@settings(deadline=None, max_examples=80)
@given(data=st.data())
def test_step_is_in_omega_and_satisfies_kkt(losses, data):
    problem = data.draw(problems(losses))
    x, nu = problem.step()
    event(f"coupled constraint active: {nu > 0}")
    assert_in_omega(x, problem)
    assert_kkt(x, problem, nu)


@settings(deadline=None, max_examples=60)
@given(problem=problems("importance", zeros=True))
def test_zero_coordinates_stay_zero(problem):
    x, nu = problem.step()
    assert np.all(x[problem.p == 0] == 0.0)
    assert_in_omega(x, problem)
    assert_kkt(x, problem, nu)


@pytest.mark.parametrize("losses", ["moderate", "importance"])
@settings(deadline=None, max_examples=25)
@given(data=st.data())
def test_matches_conic_solver(losses, data):
    problem = data.draw(problems(losses, zeros=data.draw(st.booleans())))
    x, nu = problem.step()
    conic, accurate = conic_step(problem)
    event(f"conic solver accurate: {accurate}; coupled constraint active: {nu > 0}")
    assume(conic is not None)
    ours, ours_size = objective(x, problem)
    if accurate:
        np.testing.assert_allclose(x, conic, rtol=0.0, atol=CONIC_TOL)
    theirs, theirs_size = objective(np.clip(conic, 0.0, None), problem)
    assert ours <= theirs + 1e-9 * max(ours_size, theirs_size)


def test_coupled_constraint_case_matches_conic_solver():
    """A hand-made step where the coupled constraint is active (large loss on S) and one with it inactive."""
    k = 6
    in_s = np.array([True, True, True, False, False, False])
    p = np.array([0.2, 0.15, 0.15, 0.2, 0.2, 0.1])
    for g_s, active in ((30.0, True), (0.0, False)):
        g = np.where(in_s, g_s, 0.0) + np.linspace(0.0, 1.0, k)
        problem = Problem(p, g, in_s, 0.2, 0.04, np.zeros(k), 0.45)
        x, nu = problem.step()
        assert (nu > 0) == active
        conic, accurate = conic_step(problem)
        assert accurate
        np.testing.assert_allclose(x, conic, rtol=0.0, atol=CONIC_TOL)
        assert_kkt(x, problem, nu)


@settings(deadline=None, max_examples=40)
@given(problem=problems("importance"), shift=st.sampled_from([0.0, 1.0, 1e7]))
def test_constant_loss_is_identity(problem, shift):
    """g = z·1 and p_t ∈ Ω give p_{t+1} = p_t (Σ p = 1 makes a common shift irrelevant)."""
    problem.g = np.full_like(problem.p, shift)
    x, _ = problem.step()
    np.testing.assert_allclose(x, problem.p, rtol=1e-12, atol=0.0)


@settings(deadline=None, max_examples=30)
@given(problem=problems("huge"))
def test_out_may_alias_p(problem):
    x, _ = problem.step()
    in_place = problem.p.copy()
    problem.p = in_place
    problem.step(out=in_place)
    np.testing.assert_array_equal(in_place, x)


@pytest.mark.parametrize("theta, lower_on", [(0.2, None), (0.0, "D")])
def test_long_run_with_huge_loss_estimates_stays_in_omega(theta, lower_on):
    """A bandit-like run (Theorem 7's Ω, θ = √η̄ = 0.2, and Theorem 8's, δ = 1e-3 on D): each round one arm
    drawn from p_t gets ℓ̂ = ℓ/p_t, up to 1e7, plus Algorithm 2's correction."""
    rng = np.random.default_rng(0)
    k = 16
    in_s = np.arange(k) < 6
    lower = np.where(np.arange(k) % 5 == 0, 1e-3, 0.0) if lower_on else np.zeros(k)
    problem = Problem(np.full(k, 1.0 / k), np.zeros(k), in_s, 0.05, 0.04, lower, theta)
    for _ in range(3000):
        arm = rng.choice(k, p=problem.p / problem.p.sum())
        loss_est = np.zeros(k)
        loss_est[arm] = (1.0 if arm % 3 else 0.05) / max(problem.p[arm], 1e-7)
        correction = 2.0 * loss_est**2 * np.where(in_s, problem.eta * problem.p, problem.eta_bar)
        problem.g = loss_est + correction
        x, nu = problem.step()
        assert_kkt(x, problem, nu)
        problem.p = x
        assert_in_omega(problem.p, problem)


def test_empty_omega_is_an_error():
    p = np.array([0.0, 0.5, 0.5])
    with pytest.raises(ValueError):
        weak_hybrid_step(p, np.zeros(3), np.array([True, False, False]), 0.1, 0.01, np.zeros(3), 0.1,
                         np.empty(3))
