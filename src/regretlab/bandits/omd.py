"""Exact OMD steps  p' = argmin_{p ∈ Ω} ⟨p, ℓ̂⟩ + D_ψ(p, p_t)  (paper 001, eq. (2)).

Every solver here is a numba-compiled function that writes into a caller-owned output array, so the
per-round hot loop allocates nothing; ``out`` may alias ``p`` (in-place update). Ω is always
``{p ∈ Δ(K) : p_i ≥ lower_i}`` (with ``Σ lower < 1``), and for Algorithm 3 also ``p_i = 0`` outside the
clique C.

All regularisers are separable, ``ψ(p) = Σ_i ψ_i(p_i)``, so the KKT conditions of eq. (2) read

    ∇ψ_i(p'_i) = ∇ψ_i(p_t,i) − ℓ̂_i − μ + λ_i,   λ_i ≥ 0,   λ_i (p'_i − lower_i) = 0,   Σ_i p'_i = 1.

For a fixed normaliser μ each coordinate solves a monotone scalar equation, clipped at ``lower_i``, and
``Σ_i p'_i(μ)`` decreases in μ. For the Shannon entropy p'_i(μ) ∝ p_t,i e^{−ηℓ̂_i} and μ is found exactly
(:func:`entropy_step`, :func:`adaptive_hedge_step`); for the hybrid regularisers of eqs. (5)–(7) μ is found
by Halley/Newton steps safeguarded by a bracket and bisection (:func:`_hybrid_solve`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

from regretlab.core.kernels import kernel

# Stop the iteration for μ once |Σ_i p'_i(μ) − 1| is at this level (a few ulps of a K ≤ 100 term sum); the
# exact renormalisation over the free coordinates then removes the remainder.
_SUM_TOL = 1e-14
# Safety cap on the iterations for μ: they typically take 2–3, and 200 bisection steps alone would shrink any
# finite bracket by 2^-200.
_MAX_ITER = 200


def _entry(values, i):
    """``values[i]`` for a ``(K,)`` array, else the scalar ``values`` (shared by all coordinates)."""
    return values[i] if np.ndim(values) else values


@overload(_entry, inline="always")
def _entry_compiled(values, i):
    """Compiled :func:`_entry`: the branch is resolved from the argument type, at compile time."""
    if isinstance(values, types.Array):
        return lambda values, i: values[i]
    return lambda values, i: values


# ------------------------------------------------------------------------------------------------------------
# Shannon entropy: Exp3.G (eq. (1)–(2)) and Hedge with adaptive learning rates (Algorithm 3)
# ------------------------------------------------------------------------------------------------------------


@kernel
def _entropy_solve(p, loss_est, eta, lower, in_clique, out):
    """Entropy OMD step over the coordinates with ``in_clique`` (array or ``True`` for all); others get 0.

    KKT: ``p'_i = max(lower_i, s · w_i)`` with ``w_i = p_i exp(−η ℓ̂_i)`` and ``s > 0`` such that
    ``Σ_i p'_i = 1``. ``s ↦ Σ_i max(lower_i, s w_i)`` is increasing and piecewise linear, so ``s`` is found
    exactly by shrinking the free set: all coordinates start free, solve the linear equation for ``s``, clamp
    the free coordinates that fall below their lower bound, repeat. Clamping only lowers ``s``, so a clamped
    coordinate never needs to be released and there are at most ``K`` passes. Weights are formed in the log
    domain relative to the largest, so ``ηℓ̂`` of any size neither overflows nor leaves every weight at 0, and
    from ``ℓ̂ − min ℓ̂``, so a common part of the losses (which cannot change p') does not cost precision.
    """
    k = p.shape[0]
    loss_min = np.inf
    for i in range(k):
        if _entry(in_clique, i):
            loss_min = min(loss_min, loss_est[i])
    log_max = -np.inf
    for i in range(k):
        if _entry(in_clique, i):
            v = np.log(p[i]) - eta * (loss_est[i] - loss_min)
            out[i] = v
            log_max = max(log_max, v)
    # From here out[i] >= 0 is the weight w_i / max_j w_j of a free coordinate and out[i] = -1 marks a clamped
    # one; coordinates outside the clique carry weight 0, so they stay at s · 0 = 0.
    for i in range(k):
        out[i] = np.exp(out[i] - log_max) if _entry(in_clique, i) else 0.0
    clamped_mass = 0.0
    s = 0.0
    changed = True
    while changed:
        free_weight = 0.0
        for i in range(k):
            if out[i] >= 0.0:
                free_weight += out[i]
        s = (1.0 - clamped_mass) / free_weight
        changed = False
        for i in range(k):
            if out[i] >= 0.0 and _entry(in_clique, i) and s * out[i] < lower[i]:
                clamped_mass += lower[i]
                out[i] = -1.0
                changed = True
    for i in range(k):
        out[i] = s * out[i] if out[i] >= 0.0 else lower[i]


@njit(cache=True, inline="always")
def entropy_step(p: np.ndarray, loss_est: np.ndarray, eta: float, lower: np.ndarray, out: np.ndarray) -> None:
    """OMD step with the Shannon entropy ψ(p) = (1/η) Σ_i p_i ln p_i over the clipped simplex Ω.

    Used by Exp3.G (paper 001, §3.1, eqs. (1)–(2), Ω = {p : p_i ≥ 2η/K}). The result is
    ``p'_i = max(lower_i, s · p_i e^{−η ℓ̂_i})`` with the normaliser ``s`` found exactly (see
    :func:`_entropy_solve`); without active bounds it is the closed form ``p' ∝ p e^{−η ℓ̂}``.

    Args:
        p: ``(K,)`` current distribution p_t ∈ Ω.
        loss_est: ``(K,)`` loss estimate ℓ̂_t (finite; any size).
        eta: learning rate η > 0.
        lower: ``(K,)`` lower bounds with ``Σ lower < 1``.
        out: ``(K,)`` receives p_{t+1}; may alias ``p``.
    """
    _entropy_solve(p, loss_est, eta, lower, True, out)


@kernel
def adaptive_hedge_step(p: np.ndarray, loss_est: np.ndarray, in_clique: np.ndarray, lower: np.ndarray,
                        second_moment: float, out: np.ndarray) -> float:
    """One round of Hedge with adaptive learning rates (paper 001, Appendix C.1, Algorithm 3).

    ``p̃_{t+1} = argmin_{p ∈ Ω} ⟨p, ℓ̃_t⟩ + D_{ψ_t}(p, p̃_t)`` with ``ψ_t(p) = (1/η_t) Σ_i p_i ln p_i``,
    ``η_t = (1 + Σ_{τ≤t} Σ_i p̃_{τ,i} ℓ̃_{τ,i}²)^{-1/2}`` and
    ``Ω = {p ∈ Δ(K) : p_i ≥ lower_i ∀ i ∈ C, p_i = 0 ∀ i ∉ C}`` (the paper takes ``lower_i = 1/(|C| T)``).
    Losses outside C are ignored, as the paper's Hedge instance ignores them.

    Args:
        p: ``(K,)`` current distribution p̃_t ∈ Ω (zero outside C).
        loss_est: ``(K,)`` loss vector ℓ̃_t ≥ 0 fed to the instance (Algorithm 1).
        in_clique: ``(K,)`` bool mask of the clique C (non-empty).
        lower: ``(K,)`` lower bounds; only entries in C are used, with ``Σ_{i∈C} lower_i < 1``.
        second_moment: ``Σ_{τ<t} Σ_i p̃_{τ,i} ℓ̃_{τ,i}²`` accumulated over the previous rounds (0 at t = 1).
        out: ``(K,)`` receives p̃_{t+1}; may alias ``p``.

    Returns:
        The accumulated sum including round t, to pass as ``second_moment`` next round.
    """
    k = p.shape[0]
    for i in range(k):
        if in_clique[i]:
            second_moment += p[i] * loss_est[i] * loss_est[i]
    eta = 1.0 / np.sqrt(1.0 + second_moment)
    _entropy_solve(p, loss_est, eta, lower, in_clique, out)
    return second_moment


# ------------------------------------------------------------------------------------------------------------
# Hybrid regularisers: entropy + c·log-barrier (eq. (5)), log-barrier on S (eq. (6)), time-varying η (eq. (7))
# ------------------------------------------------------------------------------------------------------------
#
# Per coordinate ψ_i(x) = a_i x ln x + b_i ln(1/x), with entropy weight a_i ≥ 0 and log-barrier weight
# b_i ≥ 0: a_i = 0, b_i = 1/η_i for i ∈ S and a_i = 1/η_i, b_i = c for i ∈ S̄ (eq. (7) with per-coordinate
# rates). At the normaliser μ a free coordinate solves ∇ψ_i(x) = ∇ψ_i(p_i) − (ℓ̂_i + μ), and changing μ by δ
# moves it along ∇ψ_i(x') = ∇ψ_i(x) − δ. The solver tracks each coordinate in a variable s in which that move
# is explicit:
#   log-barrier (a_i = 0):  s = 1/x,           ∇ψ_i = −b_i s,                move s' = s + δ/b_i;
#   entropy (b_i = 0):      s = ln x,          ∇ψ_i = a_i (s + 1),           move s' = s − δ/a_i;
#   both:                   s = b_i/(a_i x),   ∇ψ_i = const − a_i (s + ln s), move s' = ω(s + ln s + δ/a_i),
# where ω is the Wright omega function (y + ln y = z). In the mixed case s is the ratio of the barrier to the
# entropy curvature at x. The pure cases are the closed forms x = 1/(1/p_i + η_i(ℓ̂_i + μ)) and
# x = p_i e^{−η_i(ℓ̂_i + μ)}.


@njit(cache=True, error_model="numpy", inline="always")
def _weights(eta, c, in_s, i):
    """``(a_i, b_i)``: entropy and log-barrier weights of coordinate i in eq. (7) (η, S: array or scalar)."""
    inverse_rate = 1.0 / _entry(eta, i)
    if _entry(in_s, i):
        return 0.0, inverse_rate
    return inverse_rate, c


@njit(cache=True, error_model="numpy", inline="always")
def _inverse_curvature(a, b, x):
    """``1/ψ_i''(x) = x² / (a x + b)`` (``= −dx/dμ`` along the KKT path); 0 at x = 0 for pure entropy."""
    if b == 0.0:
        return x / a
    return x * x / (a * x + b)


@njit(cache=True, error_model="numpy", inline="always")
def _path_curvature(a, b, x):
    """``d²x/dμ² = x³ (a x + 2b) / (a x + b)³`` along the KKT path (``x/a²`` for pure entropy)."""
    if b == 0.0:
        return x / (a * a)
    ax_b = a * x + b
    return x * x * x * (ax_b + b) / (ax_b * ax_b * ax_b)


@kernel(error_model="numpy")
def _wright_omega(z, start):
    """The y > 0 with ``y + ln y = z`` (Wright omega function), by Halley's method; z ≥ −700.

    Starts from ``start`` (the caller guarantees it is within ~1% of the root) or, if it is nan, from: the
    Padé approximant ``x (1 + x/2) / (1 + 3x/2)``, x = e^z, of the Lambert W(e^z) for z ≤ −0.8; the Taylor
    series of ω at z = 1 to order 4 for −0.8 < z ≤ 2.5; the asymptotic series
    ``z − L + L/z + L(L − 2)/(2z²)``, L = ln z, for z > 2.5 (largest relative error of these: 1.3e-2).
    Halley's method on ``y + ln y − z`` maps a relative error e to about C e³ with C ≤ 1/9 for every y > 0,
    so from within 1.3% two steps reach the rounding level, and after a step of relative size ≤ 1e-5 the
    error left is ≤ 1e-16: the loop stops there. From such starts the iteration cannot leave y > 0, so no
    bracket is needed; it plays the role of a closed form (the tests compare it with SciPy's ``wrightomega``).
    """
    y = start
    if np.isnan(y):
        if z > 2.5:
            log_z = np.log(z)
            y = z - log_z + log_z / z + log_z * (log_z - 2.0) / (2.0 * z * z)
        elif z > -0.8:
            t = z - 1.0
            y = 1.0 + t * (0.5 + t * (1.0 / 16.0 - t * (1.0 / 192.0 + t / 3072.0)))
        else:
            x = np.exp(z)
            y = x * (1.0 + 0.5 * x) / (1.0 + 1.5 * x)
    for _ in range(2):
        g = y + np.log(y) - z
        u = y + 1.0
        step = 2.0 * g * (y / u) / (2.0 + g / (u * u))  # = 2 g y u / (2u² + g), without overflow for huge y
        y -= step
        if abs(step) <= 1e-5 * y:
            break
    return y


@njit(cache=True, error_model="numpy", inline="always")
def _mass(a, b, s):
    """The coordinate x at tracking variable s."""
    if a == 0.0:
        return 1.0 / s
    if b == 0.0:
        return np.exp(s)
    return b / (a * s)


#: Rows of the workspace of :func:`_hybrid_solve`, an array of shape ``(HYBRID_WORK_ROWS, K)``: p_t (``out``
#: may alias ``p``), the weights a_i and b_i, the excess ℓ̂_i − min ℓ̂, ln s_i (or ln y_i for a second Halley
#: step of ω), ω's argument z_i, its Halley iterate y_i, the coordinates x_i at the current μ and each
#: coordinate's state.
_P, _A, _B, _EXCESS, _LOG, _Z, _Y, _X, _STATE = range(9)
HYBRID_WORK_ROWS = 9
# Coordinate states: the kind of ψ_i (log-barrier, entropy, both) and, within an iteration, a mixed one that
# needs a second Halley step of ω or a cold start of ω.
_BARRIER, _ENTROPY, _MIXED, _SECOND, _COLD = 0.0, 1.0, 2.0, 3.0, 4.0


def hybrid_workspace(n_arms: int) -> np.ndarray:
    """A workspace for the hybrid steps (their ``work`` argument), allocated once per learner."""
    return np.empty((HYBRID_WORK_ROWS, n_arms))


def _workspace(work, k):
    """``work``, or a fresh workspace for K = ``k`` when it is None (one-off calls, tests)."""
    return hybrid_workspace(k) if work is None else work


@overload(_workspace, inline="always")
def _workspace_compiled(work, k):
    """Compiled :func:`_workspace`, resolved from the type of ``work`` (no allocation when it is given)."""
    if isinstance(work, types.Array):
        return lambda work, k: work
    return lambda work, k: np.empty((HYBRID_WORK_ROWS, k))


def _start(mu):
    """The warm start ``mu`` of a hybrid step, nan for none (``mu`` None)."""
    return np.nan if mu is None else mu


@overload(_start, inline="always")
def _start_compiled(mu):
    """Compiled :func:`_start`. The wrappers' default is None, not nan: numba keys its cache by the argument
    types, an omitted argument's type holds its default, and ``nan != nan`` made every process miss the cache
    and compile a wrapper called with the default again."""
    if isinstance(mu, types.Number):
        return lambda mu: mu
    return lambda mu: np.nan


@kernel(error_model="numpy")
def _exact_lo(work, k, eta, c, in_s):
    """``lo = max_i (−excess_i − to_one_i)`` of :func:`_hybrid_solve` from the p_i and ℓ̂_i − min ℓ̂ in
    ``work``, evaluated term by term as the definition reads (the solver first works with an upper bound of
    it that needs no logarithm)."""
    lo = -np.inf
    for i in range(k):
        a, b = _weights(eta, c, in_s, i)
        x = work[_P, i]
        excess = work[_EXCESS, i]
        if a == 0.0:
            to_one = b * (1.0 / x - 1.0)
        else:
            log_x = np.log(x)
            to_one = -a * log_x + (b * (1.0 / x - 1.0) if b > 0.0 else 0.0)
        lo = max(lo, -excess - to_one)
    return lo


@kernel(error_model="numpy")
def _hybrid_solve(p, loss_est, eta, c, in_s, lower, out, mu, work):
    """Exact OMD step for ``ψ(p) = Σ_i a_i p_i ln p_i + b_i ln(1/p_i)`` (weights from :func:`_weights`).

    Finds μ with ``Σ_i p'_i(μ) = 1``, ``p'_i(μ) = max(lower_i, x_i(μ))``, by Halley's method on
    ``φ(μ) = ln Σ_i p'_i(μ)`` (cubic convergence; the derivatives of x_i follow from
    ``dx/dμ = −x²/(ax + b)``), falling back to Newton's step when Halley's would be more than twice as long,
    and to bisection when a step leaves the bracket [lo, hi] with ``Σ p'(lo) ≥ 1 ≥ Σ p'(hi)``. φ is convex
    and decreasing (each ``ln x_i(μ)`` is convex, clipping takes a max, and sums of log-convex functions are
    log-convex), so Newton's step from the left of the root never passes it. The bracket: ``hi = −min_i ℓ̂_i``
    (there every x_i ≤ p_i) and ``lo = max_i μ_i`` where μ_i makes ``x_i = 1`` (at ``lo`` one coordinate is 1
    and none exceeds 1, so no iterate can overflow or cross the pole of the log-barrier). The start is the
    warm start ``mu`` if it lies in the bracket, else the linearisation ``x_i ≈ p_i − (ℓ̂_i + μ)/ψ_i''(p_i)``
    with every coordinate whose predicted decrease exceeds ``p_i − lower_i`` set to its bound. Moves between
    iterates are incremental (see the comment above), so later iterations warm-start ω. The result is
    corrected to sum exactly to 1 over the free coordinates (see the end).

    Internally μ is measured from ``hi = −min_i ℓ̂_i`` (the losses are taken as ``ℓ̂ − min ℓ̂``, which gives the
    same step): a large common part of the losses then costs no precision in μ.

    How the arithmetic is organised (each value is the one the formulas above give, operation for operation):
    ``lo`` enters only through comparisons until a bisection needs its value, so it is first held as an upper
    bound without the ``−a_i ln p_i ≥ 0`` terms of the mixed coordinates and computed exactly
    (:func:`_exact_lo`) only when a comparison with the bound does not decide; each iteration takes ln s_i
    once per mixed coordinate (for ω's argument and for the first Halley step of ω from the warm start s_i),
    and the logarithms, the Halley steps and the sums run in separate passes over the coordinates, so that
    the independent divisions and logarithms of different coordinates overlap; the slope and curvature are
    summed only when a further iterate is needed. ``work`` is a ``(HYBRID_WORK_ROWS, K)`` scratch array.
    """
    k = p.shape[0]
    loss_min = np.inf
    for i in range(k):
        loss_min = min(loss_min, loss_est[i])
    lo = -np.inf  # the bracket's lower end once lo_exact; until then an upper bound of it
    lo_exact = True
    weighted_loss = 0.0
    weight = 0.0
    dropped = 0.0
    for i in range(k):
        a, b = _weights(eta, c, in_s, i)
        work[_A, i] = a
        work[_B, i] = b
        x = p[i]
        work[_P, i] = x
        excess = loss_est[i] - loss_min
        work[_EXCESS, i] = excess
        # to_one = ∇ψ_i(1) − ∇ψ_i(p_i); +∞ for an entropy coordinate at 0, which never reaches 1.
        if a == 0.0:
            to_one = b * (1.0 / x - 1.0)
            out[i] = 1.0 / x
            work[_STATE, i] = _BARRIER
        elif b == 0.0:
            log_x = np.log(x)
            to_one = -a * log_x + 0.0
            out[i] = log_x
            work[_STATE, i] = _ENTROPY
        else:
            # to_one = −a ln x + b (1/x − 1): for x ≤ 1 the first term is ≥ 0, so the second alone bounds
            # to_one from below and −excess − to_one from above, in floating point too (rounding is monotone).
            to_one = b * (1.0 / x - 1.0)
            if x > 1.0:
                to_one = -a * np.log(x) + to_one
            else:
                lo_exact = False
            out[i] = b / (a * x)
            work[_STATE, i] = _MIXED
        lo = max(lo, -excess - to_one)
        w = _inverse_curvature(a, b, x)
        if excess * w > x - lower[i]:
            dropped += x - lower[i]
        else:
            weighted_loss += w * excess
            weight += w
    hi = 0.0
    mu += loss_min
    if not lo_exact and not lo <= mu:  # (false for mu = nan)
        lo = _exact_lo(work, k, eta, c, in_s)
        lo_exact = True
    if not lo <= mu <= hi:
        if weight == 0.0:
            mu = 0.0
        else:
            start = -(weighted_loss + dropped) / weight
            if not lo_exact and not lo < start:
                lo = _exact_lo(work, k, eta, c, in_s)
                lo_exact = True
            mu = max(lo, start)
    at = np.nan  # the μ at which the tracking variables in ``out`` are; nan: at p (shift ℓ̂_i + μ to reach μ)
    for _ in range(_MAX_ITER):
        first = np.isnan(at)
        common = mu - at
        for i in range(k):
            if work[_STATE, i] == _MIXED:
                work[_LOG, i] = np.log(out[i])
        for i in range(k):
            shift = work[_EXCESS, i] + mu if first else common
            s = out[i]
            kind = work[_STATE, i]
            if kind == _BARRIER:
                out[i] = s + shift / work[_B, i]
            elif kind == _ENTROPY:
                out[i] = s - shift / work[_A, i]
            else:
                # ω(z) with z = s + ln s + dz (see the comment above), by Halley's method from s when it is
                # within 1% (dy/dz = y/(1+y): when |dz| ≤ 0.01 (1 + y)), as _wright_omega does.
                dz = shift / work[_A, i]
                log_s = work[_LOG, i]
                z = s + log_s + dz
                if abs(dz) <= 0.01 * (1.0 + s):
                    g = s + log_s - z
                    u = s + 1.0
                    step = 2.0 * g * (s / u) / (2.0 + g / (u * u))
                    y = s - step
                    if abs(step) <= 1e-5 * y:
                        out[i] = y
                    else:
                        work[_Y, i] = y
                        work[_Z, i] = z
                        work[_STATE, i] = _SECOND
                else:
                    work[_Z, i] = z
                    work[_STATE, i] = _COLD
        for i in range(k):
            if work[_STATE, i] == _SECOND:
                work[_LOG, i] = np.log(work[_Y, i])
        for i in range(k):
            kind = work[_STATE, i]
            if kind == _SECOND:
                y = work[_Y, i]
                g = y + work[_LOG, i] - work[_Z, i]
                u = y + 1.0
                out[i] = y - 2.0 * g * (y / u) / (2.0 + g / (u * u))
                work[_STATE, i] = _MIXED
            elif kind == _COLD:
                out[i] = _wright_omega(work[_Z, i], np.nan)
                work[_STATE, i] = _MIXED
        total = 0.0
        for i in range(k):
            x = _mass(work[_A, i], work[_B, i], out[i])
            work[_X, i] = x
            if x > lower[i]:
                total += x
            else:
                total += lower[i]
        at = mu
        if abs(total - 1.0) <= _SUM_TOL:
            break
        slope = 0.0
        curvature = 0.0
        for i in range(k):
            x = work[_X, i]
            if x > lower[i]:
                slope -= _inverse_curvature(work[_A, i], work[_B, i], x)
                curvature += _path_curvature(work[_A, i], work[_B, i], x)
        if total > 1.0:
            lo = mu
            lo_exact = True
        else:
            hi = mu
        nxt = np.nan
        if slope < 0.0:
            f = np.log(total)
            f1 = slope / total
            f2 = curvature / total - f1 * f1
            denominator = 2.0 * f1 * f1 - f * f2
            nxt = mu - (2.0 * f * f1 / denominator if denominator > f1 * f1 else f / f1)
        if nxt == mu:  # the step is below the spacing of floats at μ: as close as μ can get
            break
        if not lo_exact and not lo < nxt:
            lo = _exact_lo(work, k, eta, c, in_s)
            lo_exact = True
        if not lo < nxt < hi:
            if not lo_exact:
                lo = _exact_lo(work, k, eta, c, in_s)
                lo_exact = True
            nxt = 0.5 * (lo + hi)
            if nxt == mu:
                break
        mu = nxt
    # Finish: the sum is 1 up to the tolerance, or to what the spacing of floats near μ allows. Remove the
    # rest by the Newton correction δμ = (Σ p' − 1)/Σ_free 1/ψ_i''(x_i) applied to each free coordinate (so
    # that coordinates with a steep ∇ψ_i, near 0 under a log-barrier, barely move), then renormalise exactly.
    total = 0.0
    inverse_curvature = 0.0
    for i in range(k):
        x = work[_X, i]
        if x > lower[i]:
            out[i] = x
            total += x
            inverse_curvature += _inverse_curvature(work[_A, i], work[_B, i], x)
        else:
            out[i] = lower[i]
            total += lower[i]
    correction = (total - 1.0) / inverse_curvature
    free_mass = 0.0
    clamped_mass = 0.0
    for i in range(k):
        if out[i] > lower[i]:
            out[i] = max(lower[i], out[i] - _inverse_curvature(work[_A, i], work[_B, i], out[i]) * correction)
        if out[i] > lower[i]:
            free_mass += out[i]
        else:
            clamped_mass += lower[i]
    scale = (1.0 - clamped_mass) / free_mass
    for i in range(k):
        if out[i] > lower[i]:
            out[i] = max(lower[i], out[i] * scale)
    return at + correction - loss_min


@njit(cache=True, inline="always")
def hybrid_step(p: np.ndarray, loss_est: np.ndarray, eta: float, c: float, lower: np.ndarray, out: np.ndarray,
                mu: float | None = None, work: np.ndarray | None = None) -> float:
    """OMD step with the hybrid regulariser of eq. (5): ψ(p) = (1/η) Σ_i p_i ln p_i + c Σ_i ln(1/p_i).

    Paper 001, §3.1, Theorem 2 (there c = 64K and lower_i = 1/T). See :func:`_hybrid_solve` for the method.

    Args:
        p: ``(K,)`` current distribution p_t ∈ Ω, all entries > 0 (entries 0 are allowed where c = 0).
        loss_est: ``(K,)`` loss estimate ℓ̂_t (finite; any size).
        eta: learning rate η > 0.
        c: log-barrier weight c ≥ 0 (c = 0 is plain entropy; otherwise c·η ≥ 1e-300, so that ω's argument
            stays above −700).
        lower: ``(K,)`` lower bounds with ``Σ lower < 1`` (0 allowed).
        out: ``(K,)`` receives p_{t+1}; may alias ``p``.
        mu: optional starting point for the normaliser μ (None or nan: none). It changes only the iterations
            taken, not the result; the default start is usually the better one.
        work: optional ``(HYBRID_WORK_ROWS, K)`` scratch array (:func:`hybrid_workspace`), so that a hot loop
            allocates nothing; None allocates one.

    Returns:
        The normaliser μ of the KKT conditions ``∇ψ(p_{t+1}) = ∇ψ(p_t) − ℓ̂_t − μ·1 + λ``.
    """
    return _hybrid_solve(p, loss_est, eta, c, False, lower, out, _start(mu), _workspace(work, p.shape[0]))


@njit(cache=True, inline="always")
def log_barrier_hybrid_step(p: np.ndarray, loss_est: np.ndarray, eta: float, c: float, in_s: np.ndarray,
                            lower: np.ndarray, out: np.ndarray, mu: float | None = None,
                            work: np.ndarray | None = None) -> float:
    """OMD step with the regulariser of eq. (6): log-barrier on S, the hybrid of eq. (5) on S̄.

    ψ(p) = (1/η) Σ_{i∈S} ln(1/p_i) + (1/η) Σ_{i∈S̄} p_i ln p_i + c Σ_{i∈S̄} ln(1/p_i) (paper 001, §3.2,
    Theorem 3; there c = 64K, η ≤ 1/(64K) and lower_i = 1/T). Arguments and result as in :func:`hybrid_step`;
    ``in_s`` is the ``(K,)`` bool mask of S, the nodes with a self-loop.
    """
    return _hybrid_solve(p, loss_est, eta, c, in_s, lower, out, _start(mu), _workspace(work, p.shape[0]))


@njit(cache=True, inline="always")
def time_varying_hybrid_step(p: np.ndarray, loss_est: np.ndarray, eta: np.ndarray, c: float, in_s: np.ndarray,
                             lower: np.ndarray, out: np.ndarray, mu: float | None = None,
                             work: np.ndarray | None = None) -> float:
    """OMD step with eq. (7) and a learning rate per coordinate (paper 001, §3.3, Algorithms 1 and 4).

    ψ_t(p) = Σ_{i∈S} (1/η_i) ln(1/p_i) + Σ_{i∈S̄} (1/η_i) p_i ln p_i + c Σ_{i∈S̄} ln(1/p_i). Eq. (7) is the case
    η_j = η_{t,j} on the meta-nodes j ∈ [κ] (= S) and η_j = η on S̄; eq. (6) is η_i ≡ η and eq. (5) is S = ∅,
    η_i ≡ η. Arguments and result as in :func:`log_barrier_hybrid_step`, except that ``eta`` is the ``(K,)``
    array of learning rates η_i > 0.
    """
    return _hybrid_solve(p, loss_est, eta, c, in_s, lower, out, _start(mu), _workspace(work, p.shape[0]))


@kernel
def keep(p: np.ndarray, previous: np.ndarray) -> None:
    """Copy p_t into ``previous`` before a step overwrites it (without allocating)."""
    for i in range(p.size):
        previous[i] = p[i]


@kernel
def record_step_ratio(previous: np.ndarray, p: np.ndarray, extremes: np.ndarray) -> None:
    """Fold one OMD step into ``extremes = [min_i p_{t+1,i}/p_{t,i}, max_i …]`` over the rounds so far:
    Lemma 9 (paper 001, line 280) says ½p_t ≼ p_{t+1} ≼ 2p_t for the log-barrier steps of Theorems 2 and 3
    (C₁ = 64K, Lemma 10). ``previous`` is p_t, ``p`` is p_{t+1}."""
    for i in range(p.size):
        ratio = p[i] / previous[i]
        if ratio < extremes[0]:
            extremes[0] = ratio
        if ratio > extremes[1]:
            extremes[1] = ratio


def step_log_ratio(extremes: np.ndarray) -> float:
    """max_i,t |ln(p_{t+1,i}/p_{t,i})| from :func:`record_step_ratio`'s extremes (0 before the first step);
    Lemma 9 puts it at most ln 2. By the C library's ``log`` (``math.log``, as in the compiled kernels), not
    numpy's, whose AVX-512 ``log`` differs from it in the last bit for some inputs
    (tests/test_machine_independent.py)."""
    return max(math.log(extremes[1]), -math.log(extremes[0]))
