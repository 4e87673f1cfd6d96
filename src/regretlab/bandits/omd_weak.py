"""Exact OMD step of Algorithm 2 (paper 001, §4, lines 216–230) and of Algorithms 6 and 7 (App. E).

    p_{t+1} = argmin_{p ∈ Ω} ⟨p, g⟩ + D_ψ(p, p_t),   g = ℓ̂_t + a_t,
    ψ(p) = (1/η) Σ_{i∈S} ln(1/p_i) + (1/η̄) Σ_{i∈S̄} p_i ln p_i            (no c·log-barrier, line 220),
    Ω = {p ∈ Δ(K) : p_i ≥ lower_i ∀i, Σ_{i∈S} p_i ≥ θ}.

Theorem 7 (line 248) is ``lower = 0, θ = √η̄``; Theorem 8 (line 262) is ``lower = δ·1_D, θ = 0``; Algorithm 6
sets some S coordinates to 0 (clipping, lines 1108–1110), which this step keeps at 0.

KKT conditions, with μ the multiplier of Σ p = 1, ν ≥ 0 that of Σ_S p ≥ θ and λ_i ≥ 0 those of the bounds:

    S:  1/p'_i = 1/p_i + η (g_i + μ − ν − λ_i),    S̄:  ln p'_i = ln p_i − η̄ (g_i + μ − λ_i),
    λ_i (p'_i − lower_i) = 0,   ν (Σ_S p' − θ) = 0.

So p' is found by first solving with ν = 0 (one normaliser μ for every coordinate). If that point has
Σ_S p' ≥ θ it is the answer. Otherwise the coupled constraint is active at the optimum (the objective is
strictly convex: an optimum with inactive constraint would be the unconstrained one), and the problem splits
into the S-part with mass θ and normaliser μ_S = μ − ν and the S̄-part with mass 1 − θ and normaliser μ;
ν = μ − μ_S ≥ 0 then holds by the KKT theorem (Slater's condition holds when Ω has an interior point).

Each part is one scalar equation Σ_i max(lower_i, x_i(μ)) = mass with x_i decreasing in μ; ``ln`` of the
sum is convex in μ (each ln x_i is), so Newton's method on it from the left of the root never passes it. It
is safeguarded by a bracket [lo, hi] (at ``lo`` the largest coordinate equals the mass, so no iterate
crosses the log-barrier's pole or overflows the exponential) and bisection, as
:func:`regretlab.bandits.omd._hybrid_solve` does for eqs. (5)–(7). The kernels there cannot be reused as
they are: their normalisation is to total 1 and their bracket assumes Σ p_t ≤ 1 over the coordinates
solved, which fails for the S-part (Σ_S p_t ≥ θ = its target mass); the final exact renormalisation is the
same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from regretlab.core.kernels import kernel

# Stop the iteration for μ once |Σ x(μ) − mass| ≤ _SUM_TOL · mass; the exact renormalisation over the free
# coordinates then removes the remainder (as in regretlab.bandits.omd).
_SUM_TOL = 1e-14
_MAX_ITER = 200
# Which coordinates a part holds.
_ALL, _S_ONLY, _SBAR_ONLY = 0, 1, 2


@njit(cache=True, inline="always")
def _in_part(in_s_i, part):
    """True when a coordinate with self-loop flag ``in_s_i`` belongs to ``part``."""
    if part == _ALL:
        return True
    if part == _S_ONLY:
        return in_s_i
    return not in_s_i


@njit(cache=True, inline="always")
def _coordinate(in_s_i, p_i, excess, rate, mu):
    """``x_i``: the KKT point of coordinate i before clipping (``excess = g_i − min g``, ``mu = μ + min g``).

    Log-barrier (S): ``1/(1/p_i + η(excess + μ))``, ``+inf`` left of its pole; entropy (S̄):
    ``p_i e^{−η̄(excess + μ)}``.
    """
    if in_s_i:
        denominator = 1.0 / p_i + rate * (excess + mu)
        return 1.0 / denominator if denominator > 0.0 else np.inf
    return p_i * np.exp(-rate * (excess + mu))


@njit(cache=True, inline="always")
def _speed(in_s_i, x, rate):
    """``−dx_i/dμ = 1/ψ_i''(x)``: ``η x²`` on S, ``η̄ x`` on S̄."""
    return rate * x * x if in_s_i else rate * x


@njit(cache=True, inline="always")
def _mu_at(in_s_i, p_i, excess, rate, target):
    """The μ at which ``x_i(μ) = target`` (> 0)."""
    if in_s_i:
        return (1.0 / target - 1.0 / p_i) / rate - excess
    return np.log(p_i / target) / rate - excess


@kernel
def _part_total(p, g, in_s, eta, eta_bar, lower, part, g_min, mu, free_weight, shift):
    """``(Σ max(lower_i, x_i), Σ_free −dx_i/dμ)`` over the part's coordinates with p_i > 0, at ``mu``.

    The entropy coordinates without a lower bound are summed in closed form: they are ``w_i · c`` with
    ``w_i = p_i e^{−η̄(g_i − min_S̄ g)}`` (their sum is ``free_weight``) and the common factor
    ``c = e^{−η̄(mu + shift)}``, so each evaluation costs one exponential, not one per coordinate.
    """
    total = free_weight * np.exp(-eta_bar * (mu + shift)) if free_weight > 0.0 else 0.0
    speed = eta_bar * total
    for i in range(p.shape[0]):
        if p[i] > 0.0 and _in_part(in_s[i], part) and (in_s[i] or lower[i] > 0.0):
            rate = eta if in_s[i] else eta_bar
            x = _coordinate(in_s[i], p[i], g[i] - g_min, rate, mu)
            if x > lower[i]:
                total += x
                speed += _speed(in_s[i], x, rate)
            else:
                total += lower[i]
    return total, speed


@kernel
def _solve_part(p, g, in_s, eta, eta_bar, lower, part, mass):
    """``(μ + g_min, g_min)`` for the normaliser μ with Σ_{i ∈ part, p_i > 0} max(lower_i, x_i) = mass.

    The sum is met to ~1e-14 relative. μ is returned measured from ``−g_min`` (``x_i`` depends on
    ``g_i + μ = (g_i − g_min) + (μ + g_min)``), so a large common part of g costs no precision. The entropy
    weights are taken relative to the smallest g on S̄ (see :func:`_part_total`): the largest is then ≥ its
    p_i, and at any μ of the bracket every entropy coordinate is ≤ mass, so neither factor overflows.

    Requires Σ lower < mass over the part's coordinates with p_i > 0 (Ω has an interior point).
    """
    k = p.shape[0]
    g_min = np.inf
    g_min_bar = np.inf
    n_active = 0
    lower_mass = 0.0
    for i in range(k):
        if p[i] > 0.0 and _in_part(in_s[i], part):
            g_min = min(g_min, g[i])
            if not in_s[i]:
                g_min_bar = min(g_min_bar, g[i])
            n_active += 1
            lower_mass += lower[i]
    if n_active == 0:
        return 0.0, 0.0
    if lower_mass >= mass:
        raise ValueError("Ω is empty or has no interior: the lower bounds reach the part's mass")
    shift = g_min_bar - g_min if g_min_bar < np.inf else 0.0
    # Bracket: at lo the largest x_i is `mass` (total ≥ mass); at hi every x_i ≤ (mass − Σ lower)/n, so
    # total ≤ mass. Linearisation x_i ≈ p_i − (excess + μ)·1/ψ_i''(p_i) for the start.
    share = (mass - lower_mass) / n_active
    lo = -np.inf
    hi = -np.inf
    start_num = -mass
    start_den = 0.0
    free_weight = 0.0
    largest_weight = 0.0
    for i in range(k):
        if p[i] > 0.0 and _in_part(in_s[i], part):
            excess = g[i] - g_min
            if in_s[i]:
                lo = max(lo, _mu_at(True, p[i], excess, eta, mass))
                hi = max(hi, _mu_at(True, p[i], excess, eta, share))
                w = eta * p[i] * p[i]
            else:
                weight = p[i] * np.exp(-eta_bar * (g[i] - g_min_bar))
                largest_weight = max(largest_weight, weight)
                if lower[i] == 0.0:
                    free_weight += weight
                w = eta_bar * p[i]
            start_num += p[i] - w * excess
            start_den += w
    if largest_weight > 0.0:
        lo = max(lo, np.log(largest_weight / mass) / eta_bar - shift)
        hi = max(hi, np.log(largest_weight / share) / eta_bar - shift)
    mu = min(max(start_num / start_den, lo), hi)
    for _ in range(_MAX_ITER):
        total, speed = _part_total(p, g, in_s, eta, eta_bar, lower, part, g_min, mu, free_weight, shift)
        if abs(total - mass) <= _SUM_TOL * mass:
            break
        if total > mass:
            lo = mu
        else:
            hi = mu
        nxt = mu + np.log(total / mass) * total / speed if speed > 0.0 else np.nan
        if not lo < nxt < hi:
            nxt = 0.5 * (lo + hi)
        if nxt == mu:  # as close as the spacing of floats at μ allows
            break
        mu = nxt
    return mu, g_min


@kernel
def _write_part(p, g, in_s, eta, eta_bar, lower, part, mass, mu, g_min, out):
    """Write the part's coordinates of p' at normaliser μ, corrected to sum exactly to ``mass``.

    The remainder ``Σ x − mass`` is first removed by the Newton correction δμ = (Σ x − mass)/Σ_free 1/ψ_i''
    applied to each free coordinate, then the free coordinates are rescaled (as in ``omd._hybrid_solve``).
    Coordinates with p_i = 0 get 0. ``out`` may alias ``p``: each p_i is read before out_i is written.
    """
    k = p.shape[0]
    total = 0.0
    speed = 0.0
    for i in range(k):
        if not _in_part(in_s[i], part):
            continue
        if p[i] > 0.0:
            rate = eta if in_s[i] else eta_bar
            x = _coordinate(in_s[i], p[i], g[i] - g_min, rate, mu)
            if x > lower[i]:
                out[i] = x
                speed += _speed(in_s[i], x, rate)
            else:
                out[i] = lower[i]
            total += out[i]
        else:
            out[i] = 0.0
    correction = (total - mass) / speed if speed > 0.0 else 0.0
    free_mass = 0.0
    clamped_mass = 0.0
    for i in range(k):
        if not _in_part(in_s[i], part) or out[i] == 0.0:
            continue
        if out[i] > lower[i]:
            rate = eta if in_s[i] else eta_bar
            out[i] = max(lower[i], out[i] - _speed(in_s[i], out[i], rate) * correction)
        if out[i] > lower[i]:
            free_mass += out[i]
        else:
            clamped_mass += out[i]
    if free_mass > 0.0:
        scale = (mass - clamped_mass) / free_mass
        for i in range(k):
            if _in_part(in_s[i], part) and out[i] > lower[i]:
                out[i] = max(lower[i], out[i] * scale)


@kernel
def weak_hybrid_step(p: np.ndarray, g: np.ndarray, in_s: np.ndarray, eta: float, eta_bar: float,
                     lower: np.ndarray, theta: float, out: np.ndarray) -> float:
    """OMD step of Algorithm 2, line 230: ``argmin_{p∈Ω} ⟨p, g⟩ + D_ψ(p, p_t)`` (see the module docstring).

    Args:
        p: ``(K,)`` current point p_t ∈ Ω, entries ≥ 0; entries equal to 0 stay 0 (Algorithm 6's clipping).
        g: ``(K,)`` ℓ̂_t + a_t (finite; any size, e.g. 1e7).
        in_s: ``(K,)`` bool, True for the nodes with a self-loop (S).
        eta: log-barrier learning rate η > 0 on S.
        eta_bar: entropy learning rate η̄ > 0 on S̄.
        lower: ``(K,)`` lower bounds (0 where none; δ on D in Theorem 8 / Algorithm 7), applied on the
            coordinates with p_i > 0; with Σ lower < 1 and, when θ > 0, Σ_{S̄} lower < 1 − θ.
        theta: minimum mass θ on S (0: no coupled constraint; √η̄ in Theorem 7 / Algorithm 6). Needs a
            coordinate of S with p_i > 0 when θ > 0.
        out: ``(K,)`` receives p_{t+1}; may alias ``p``.

    Returns:
        ν ≥ 0, the multiplier of the coupled constraint Σ_S p ≥ θ (0 when it is inactive).
    """
    mu, g_min = _solve_part(p, g, in_s, eta, eta_bar, lower, _ALL, 1.0)
    if theta > 0.0:
        s_mass = 0.0
        has_s = False
        has_sbar = False
        for i in range(p.shape[0]):
            if p[i] > 0.0:
                if in_s[i]:
                    has_s = True
                    s_mass += max(lower[i], _coordinate(True, p[i], g[i] - g_min, eta, mu))
                else:
                    has_sbar = True
        if not has_s:
            raise ValueError("Ω is empty: θ > 0 but no coordinate of S has p_i > 0")
        if has_sbar and s_mass < theta:
            mu_s, g_min_s = _solve_part(p, g, in_s, eta, eta_bar, lower, _S_ONLY, theta)
            mu_sbar, g_min_sbar = _solve_part(p, g, in_s, eta, eta_bar, lower, _SBAR_ONLY, 1.0 - theta)
            _write_part(p, g, in_s, eta, eta_bar, lower, _S_ONLY, theta, mu_s, g_min_s, out)
            _write_part(p, g, in_s, eta, eta_bar, lower, _SBAR_ONLY, 1.0 - theta, mu_sbar, g_min_sbar, out)
            return max(0.0, (mu_sbar - g_min_sbar) - (mu_s - g_min_s))
    _write_part(p, g, in_s, eta, eta_bar, lower, _ALL, 1.0, mu, g_min, out)
    return 0.0
