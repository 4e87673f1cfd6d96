"""The projection of one pair's block onto its cone, ``Π_{K_{x,a}}`` (the pair QP of
:mod:`regretlab.cmdp.projection`, whose docstring describes the whole method).

``K_{x,a} = {v >= 0 : Σ_j |v_j - P̄_i(j|x, a) Σ v| <= ε_i(x, a) Σ v}`` (the last two conditions of
``Δ(𝒫_i)``, eq. (10) multiplied by ``q(x, a)``) is a polyhedral cone of dimension ``d = |X_{k(x)+1}|``.
:func:`solve_pair` projects onto it by the dual active-set method of Goldfarb & Idnani (1983), certifies its
KKT conditions and forms the piece ``(N, k, J, W)`` of ``Π_K`` at the answer, which the Newton solver of
:mod:`regretlab.cmdp.flow_newton` reuses while the point stays on it; :func:`zero_is_projection` decides the
piece ``x = 0`` (``z`` in the polar cone) without the active-set method. Every function is compiled and
allocates nothing, except :func:`_take_sorted` (blocks of more than ``_SMALL_SORT`` triples).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from regretlab.core.kernels import allocating, kernel

#: Certificate of a pair projection: constraint violation and stationarity residual, relative to
#: ``max(1, ||z||_∞)`` of the projected block.
PAIR_TOL = 1e-13
#: A pair's piece is reused with the feasibility check alone when it is well conditioned to this accuracy
#: (see ``_pair_piece``: ``x = J z`` and ``u = -W z`` are then stationary and complementary to round-off).
PIECE_TOL = 1e-13


@kernel(error_model="numpy")
def cholesky_solve(A: np.ndarray, rhs: np.ndarray, k: int, L: np.ndarray, out: np.ndarray) -> bool:
    """Solve ``A[:k, :k] out[:k] = rhs[:k]`` for a symmetric positive definite block (``False`` if not PD)."""
    for i in range(k):
        for j in range(i + 1):
            s = A[i, j]
            for m in range(j):
                s -= L[i, m] * L[j, m]
            if i == j:
                if s <= 0.0:
                    return False
                L[i, i] = math.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    for i in range(k):
        s = rhs[i]
        for m in range(i):
            s -= L[i, m] * out[m]
        out[i] = s / L[i, i]
    for i in range(k - 1, -1, -1):
        s = out[i]
        for m in range(i + 1, k):
            s -= L[m, i] * out[m]
        out[i] = s / L[i, i]
    return True


@njit(cache=True, error_model="numpy", inline="always")
def budget_excess(x: np.ndarray, pbar: np.ndarray, eps: float) -> float:
    """``Σ_j |x_j - p̄_j Σ x| - ε Σ x`` (positive when the budget is violated)."""
    total = 0.0
    for j in range(x.shape[0]):
        total += x[j]
    value = -eps * total
    for j in range(x.shape[0]):
        value += abs(x[j] - pbar[j] * total)
    return value


@kernel(error_model="numpy")
def _pair_active_set(
    z: np.ndarray,
    pbar: np.ndarray,
    eps: float,
    x: np.ndarray,
    N: np.ndarray,
    u: np.ndarray,
    work: np.ndarray,
    threshold: float,
) -> int:
    """``x = Π_K(z)`` onto ``K = {v >= 0 : Σ_j |v_j - p̄_j Σ v| <= ε Σ v}`` by the dual active-set method of
    Goldfarb and Idnani with ``G = I``; returns the number ``k`` of active constraints (``-1`` on failure).

    Constraints read ``c^T v >= 0`` with ``c = e_j`` or, for a sign vector ``σ``, ``c = (σ·p̄ + ε) 1 - σ``
    (then ``c^T v = ε Σ v - Σ_j σ_j (v_j - p̄_j Σ v)``). On return the first ``k`` columns of ``N`` are the
    active normals (linearly independent) and ``u[:k] >= 0`` their multipliers, with ``x = z + N u``.
    ``work`` is scratch with at least ``2d + 4`` rows and ``d`` columns.
    """
    d = z.shape[0]
    gram = work[:d, :d]
    chol = work[d : 2 * d, :d]
    c = work[2 * d, :d]
    r = work[2 * d + 1, :d]
    zdir = work[2 * d + 2, :d]
    rhs = work[2 * d + 3, :d]
    for j in range(d):
        x[j] = z[j]
    k = 0
    for _ in range(8 * d + 16):
        # Constraints violated by more than the threshold (the test of _certify); the most violated one, by
        # violation per unit normal, enters.
        worst = 0.0
        kind = -1
        total = 0.0
        for j in range(d):
            total += x[j]
            if -x[j] > max(worst, threshold):
                worst = -x[j]
                kind = j
        budget = budget_excess(x, pbar, eps)
        if budget > threshold:
            sigma_p = 0.0
            for j in range(d):
                sigma_p += pbar[j] if x[j] - pbar[j] * total >= 0.0 else -pbar[j]
            norm = 0.0
            for j in range(d):
                c[j] = sigma_p + eps - (1.0 if x[j] - pbar[j] * total >= 0.0 else -1.0)
                norm += c[j] * c[j]
            if budget > worst * math.sqrt(norm):
                kind = d
        if kind < 0:
            return k
        if kind < d:
            for j in range(d):
                c[j] = 0.0
            c[kind] = 1.0
        cc = 0.0
        for j in range(d):
            cc += c[j] * c[j]
        added = False
        u_new = 0.0
        for _inner in range(d + 2):
            # Step direction: the part of c orthogonal to the active normals, r = (N^T N)^{-1} N^T c.
            if k > 0:
                for a in range(k):
                    s = 0.0
                    for j in range(d):
                        s += N[j, a] * c[j]
                    rhs[a] = s
                    for b in range(a + 1):
                        s = 0.0
                        for j in range(d):
                            s += N[j, a] * N[j, b]
                        gram[a, b] = s
                        gram[b, a] = s
                if not cholesky_solve(gram, rhs, k, chol, r):
                    return -1
            zz = 0.0
            cx = 0.0
            for j in range(d):
                s = c[j]
                for a in range(k):
                    s -= N[j, a] * r[a]
                zdir[j] = s
                zz += s * s
                cx += c[j] * x[j]
            full = -cx / zz if zz > 1e-13 * cc else np.inf
            partial = np.inf
            drop = -1
            for a in range(k):
                if r[a] > 1e-14 and u[a] / r[a] < partial:
                    partial = u[a] / r[a]
                    drop = a
            step = min(full, partial)
            if step == np.inf:
                return -1  # cannot happen for a cone that contains 0
            if full < np.inf:
                for j in range(d):
                    x[j] += step * zdir[j]
            for a in range(k):
                u[a] -= step * r[a]
            u_new += step
            if full <= partial:
                for j in range(d):
                    N[j, k] = c[j]
                u[k] = u_new
                k += 1
                added = True
                break
            for a in range(drop, k - 1):
                u[a] = u[a + 1]
                for j in range(d):
                    N[j, a] = N[j, a + 1]
            k -= 1
        if not added:
            return -1
    return -1


@kernel(error_model="numpy")
def _pair_piece(
    N: np.ndarray, k: int, d: int, J: np.ndarray, W: np.ndarray, work: np.ndarray, tol: float
) -> bool:
    """``W = (N^T N)^{-1} N^T`` and ``J = I - N W``, the projector onto the null space of the first ``k``
    columns of ``N``: on this piece ``Π_K(z) = J z`` with multipliers ``u = -W z``. Returns whether the
    piece is well conditioned: ``|N^T J| <= tol`` and ``d k ε_mach |N| |W| <= tol`` (largest entries), which
    bound the residuals of complementary slackness ``N^T (J z)`` and stationarity ``J z - z - N (-W z)`` by
    about ``d tol ||z||_∞``, so that only feasibility needs checking when the piece is reused."""
    gram = work[:d, :d]
    chol = work[d : 2 * d, :d]
    r = work[2 * d + 1, :d]
    rhs = work[2 * d + 3, :d]
    for a in range(k):
        for b in range(a + 1):
            s = 0.0
            for j in range(d):
                s += N[j, a] * N[j, b]
            gram[a, b] = s
            gram[b, a] = s
    largest = 0.0
    for i in range(d):
        for a in range(k):
            rhs[a] = N[i, a]
        if k > 0 and not cholesky_solve(gram, rhs, k, chol, r):
            return False
        for a in range(k):
            W[a, i] = r[a]
            largest = max(largest, abs(r[a]))
    for i in range(d):
        for j in range(d):
            s = 1.0 if i == j else 0.0
            for a in range(k):
                s -= N[i, a] * W[a, j]
            J[i, j] = s
    normal = 0.0
    for a in range(k):
        for j in range(d):
            normal = max(normal, abs(N[j, a]))
            s = 0.0
            for i in range(d):
                s += N[i, a] * J[i, j]
            if abs(s) > tol:
                return False
    return d * k * 2.3e-16 * normal * largest <= tol


@kernel(error_model="numpy")
def _certify(
    z: np.ndarray,
    pbar: np.ndarray,
    eps: float,
    x: np.ndarray,
    N: np.ndarray,
    k: int,
    u: np.ndarray,
    threshold: float,
) -> bool:
    """KKT of ``x = Π_K(z)``: ``x`` feasible, active constraints tight, ``u >= 0`` and ``x = z + N u``."""
    d = z.shape[0]
    for a in range(k):
        if u[a] < -threshold:
            return False
        s = 0.0
        for j in range(d):
            s += N[j, a] * x[j]
        if abs(s) > threshold:
            return False
    for j in range(d):
        if x[j] < -threshold:
            return False
        s = z[j] - x[j]
        for a in range(k):
            s += N[j, a] * u[a]
        if abs(s) > threshold:
            return False
    return budget_excess(x, pbar, eps) <= threshold


@kernel(error_model="numpy")
def solve_pair(
    z: np.ndarray,
    pbar: np.ndarray,
    eps: float,
    x: np.ndarray,
    N: np.ndarray,
    J: np.ndarray,
    W: np.ndarray,
    u: np.ndarray,
    work: np.ndarray,
    threshold: float,
) -> tuple[int, bool]:
    """Certified ``x = Π_K(z)`` by the active-set method, and its piece ``(N, k, J, W)``. Returns ``k``
    (``-1`` on failure) and whether the piece may be reused with the feasibility check alone."""
    k = _pair_active_set(z, pbar, eps, x, N, u, work, threshold)
    if k < 0 or not _certify(z, pbar, eps, x, N, k, u, threshold):
        return -1, False
    return k, _pair_piece(N, k, z.shape[0], J, W, work, PIECE_TOL)


#: Blocks up to this size are sorted by insertion in numba's ``np.argsort`` (``numba.misc.quicksort``).
_SMALL_SORT = 15


@njit(cache=True, inline="always")
def _before(a: float, b: float) -> bool:
    """numba's order of floats in ``np.argsort``: ``a < b``, NaN after every number."""
    return a < b or (np.isnan(b) and not np.isnan(a))


@njit(cache=True, inline="always")
def _next_in_order(z: np.ndarray, last: int) -> int:
    """The index after ``last`` (``-1``: the first) in the order of numba's ``np.argsort(z)`` on at most
    ``_SMALL_SORT`` entries: an insertion sort by :func:`_before`, so ties (and NaNs) stay in index order."""
    j = -1
    for i in range(z.shape[0]):
        after = last < 0 or _before(z[last], z[i]) or (i > last and not _before(z[i], z[last]))
        if after and (j < 0 or _before(z[i], z[j])):
            j = i
    return j


@allocating(error_model="numpy")
def _take_sorted(z: np.ndarray, pbar: np.ndarray, best: int, moved: float, value: float) -> float:
    """:func:`zero_is_projection`'s last loop on a block of more than ``_SMALL_SORT`` triples, in the order
    of ``np.argsort(z)`` (which allocates)."""
    for j in np.argsort(z):
        if moved <= 0.0:
            break
        if j != best:
            taken = min(moved, pbar[j])
            value -= taken * z[j]
            moved -= taken
    return value


@kernel(error_model="numpy", inline="always")
def zero_is_projection(z: np.ndarray, pbar: np.ndarray, eps: float, threshold: float) -> bool:
    """Whether ``Π_K(z) = 0``, i.e. ``max z^T v <= threshold`` over ``v ∈ K`` with ``Σ v = 1`` (``z`` in the
    polar cone of ``K``). Exact when ``p̄`` sums to 1 (a fractional knapsack: move up to ``ε/2`` of mass from
    ``p̄`` to the best triple, taking it from the worst ones first) or to 0; ``False`` (undecided) otherwise.
    """
    d = z.shape[0]
    best = 0
    total = 0.0
    for j in range(d):
        total += pbar[j]
        if z[j] > z[best]:
            best = j
    if z[best] <= threshold:
        return True  # z <= 0: in the polar cone of the non-negative orthant, which contains K
    if total == 0.0:
        return eps < 1.0  # ||v||_1 <= ε ||v||_1: K is the orthant if ε >= 1 and {0} otherwise
    if abs(total - 1.0) > 1e-12:
        return False
    value = 0.0
    for j in range(d):
        value += z[j] * pbar[j]
    moved = min(0.5 * eps, 1.0 - pbar[best])
    value += moved * z[best]
    if d > _SMALL_SORT:
        return _take_sorted(z, pbar, best, moved, value) <= threshold
    j = -1
    for _ in range(d):  # from the smallest z_j, in np.argsort(z)'s order, found by selection (no allocation)
        if moved <= 0.0:
            break
        j = _next_in_order(z, j)
        if j != best:
            taken = min(moved, pbar[j])
            value -= taken * z[j]
            moved -= taken
    return value <= threshold
