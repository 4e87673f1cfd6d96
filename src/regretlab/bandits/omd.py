"""Exact OMD steps  p' = argmin_{p ∈ Ω} ⟨p, ℓ̂⟩ + D_ψ(p, p_t)  (paper 001, eq. (2)).

Every solver here is a numba-compiled function that writes into a caller-owned output array, so the
per-round hot loop allocates nothing. Ω is always ``{p ∈ Δ(K) : p_i ≥ lower_i}``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def entropy_step(
    p: np.ndarray, loss_est: np.ndarray, eta: float, lower: np.ndarray, out: np.ndarray
) -> None:
    """OMD step with the Shannon entropy ψ(p) = (1/η) Σ_i p_i ln p_i over the clipped simplex Ω.

    Used by Exp3.G (paper 001, §3.1, eqs. (1)–(2), Ω = {p : p_i ≥ 2η/K}).

    KKT conditions: ``p'_i = max(lower_i, s · w_i)`` with ``w_i = p_i exp(-η ℓ̂_i)`` and a normaliser
    ``s > 0`` such that ``Σ_i p'_i = 1``. The map ``s ↦ Σ_i max(lower_i, s w_i)`` is increasing and
    piecewise linear, so ``s`` is found exactly by shrinking the free set: start with every coordinate free,
    solve the linear equation for ``s``, clamp the coordinates that fall below their lower bound, repeat
    (at most ``K`` passes; the free set only shrinks). ``w`` is formed in the log domain relative to its
    largest entry, so loss estimates as large as ``1/p`` never overflow.

    Args:
        p: ``(K,)`` current distribution p_t ∈ Ω.
        loss_est: ``(K,)`` non-negative loss estimate ℓ̂_t.
        eta: learning rate η > 0.
        lower: ``(K,)`` lower bounds with ``Σ lower < 1``.
        out: ``(K,)`` receives p_{t+1}; may alias ``p``.
    """
    k = p.shape[0]
    log_max = -np.inf
    for i in range(k):
        v = np.log(p[i]) - eta * loss_est[i]
        out[i] = v
        if v > log_max:
            log_max = v
    for i in range(k):
        out[i] = np.exp(out[i] - log_max)  # w_i / max_j w_j, in (0, 1]
    clamped_mass = 0.0
    free_weight = 0.0
    for i in range(k):
        free_weight += out[i]
    # While iterating, out[i] >= 0 is the weight of a free coordinate and out[i] = -1 marks a clamped one.
    s = (1.0 - clamped_mass) / free_weight
    changed = True
    while changed:
        changed = False
        for i in range(k):
            if out[i] >= 0.0 and s * out[i] < lower[i]:
                clamped_mass += lower[i]
                free_weight -= out[i]
                out[i] = -1.0
                changed = True
        if changed:
            s = (1.0 - clamped_mass) / free_weight
    for i in range(k):
        out[i] = s * out[i] if out[i] >= 0.0 else lower[i]
