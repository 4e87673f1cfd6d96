"""Euclidean projection onto ``Δ(𝒫_i)``, the occupancy measures compatible with the confidence set (10).

This is ``Π_{Δ(𝒫_i)}`` of Algorithm 3 line 8 / Algorithm 4 line 12. The paper defines ``Δ(𝒫_i)`` only through
``𝒫_i`` (eq. (10)); following Rosenberg & Mansour (2019a) it is the set of triple-view ``q`` that satisfy the
first two conditions of Lemma 1 and whose induced ``P^q`` (eq. (4)) lies in ``𝒫_i``. Multiplying
``||P^q(·|x, a) - P̄_i(·|x, a)||_1 <= ε_i(x, a)`` by ``q(x, a)`` makes the set a polyhedron:

* ``q(x, a, x') >= 0`` on the layered support ``X_k × A × X_{k+1}`` (and 0 elsewhere);
* ``Σ_{a, x'} q(x_0, a, x') = 1`` and flow conservation ``Σ_{a, x'} q(x, a, x') = Σ_{x'', a} q(x'', a, x)``
  for ``x ∈ X_1, ..., X_{L-1}`` (the other layer sums of Lemma 1 then equal 1 too, so they are not repeated);
* ``Σ_{x'} |q(x, a, x') - P̄_i(x'|x, a) q(x, a)| <= ε_i(x, a) q(x, a)`` with ``q(x, a) = Σ_y q(x, a, y)``.

Write ``F q = b`` for the flow rows (``b = e_0``) and ``K = Π_{(x,a)} K_{x,a}`` for the rest: the last two
bullets constrain each pair's block ``q(x, a, ·)`` separately, and each ``K_{x,a}`` is a polyhedral *cone*
``{v >= 0 : Σ_j |v_j - P̄_i(j|x, a) Σ v| <= ε_i(x, a) Σ v}`` of dimension ``|X_{k(x)+1}|``.

Algorithm: semismooth Newton on the flow multipliers (the hot path)
-------------------------------------------------------------------
Dualising only the flow rows, ``θ(ν) = min_{q ∈ K} ½||q - y||² + ν^T (F q - b)`` is concave and
differentiable, its minimiser is ``q(ν) = Π_K(y - F^T ν)`` (one tiny projection per pair) and
``∇θ(ν) = F q(ν) - b``. ``Π_K`` is piecewise linear (``K`` is a polyhedral cone): on the piece of the current
point, ``Π_{K_{x,a}}`` is the orthogonal projector ``J_{x,a}`` onto the null space of the pair's active
constraints. A Newton step solves ``(F J F^T) Δ = F q(ν) - b``, a system with one unknown per flow row
(``1 + |X_1| + ... + |X_{L-1}|``: 10 and 26 in the benchmark instances, whatever the number of triples).
The step is exact when no pair changes its piece; otherwise the next step uses the new pieces, and the
iteration converges in a few steps (from the previous episode's ``ν``, where the point has moved by
``η_t ℓ_t``: about 2 steps on the small and 3 on the medium benchmark instance, because ``ℓ_t`` has random
signs and some pair always sits near a kink of its piece). ``F J F^T`` is singular when a cut of the layered
graph carries no free triple, so the step is safeguarded Levenberg-Marquardt style: the plain Newton step is
tried first, and while ``θ`` does not increase by ``1e-4`` of the predicted amount the ridge grows from
``|F q - b|_∞`` by factors of 10 (the step tends to a short gradient step, which ``θ``'s Lipschitz gradient
accepts).

Each pair projection first tries its piece from the previous evaluation (``x = J z`` with multipliers
``u = -W z``, accepted when ``x`` is feasible and ``u >= 0``; stationarity and complementary slackness hold
by construction, up to round-off that is bounded when the piece is formed, see ``PIECE_TOL``), and otherwise
runs the dual active-set method of Goldfarb & Idnani (1983) for ``min ½||v - z||²`` over the constraints
``v_j >= 0`` and ``ε Σ v - Σ_j σ_j (v_j - P̄_j Σ v) >= 0`` for sign vectors ``σ`` (the L1 budget as the
maximum of its ``2^d`` linear pieces; the most violated piece at ``v`` is ``σ = sign(v - P̄ Σ v)``, so the
pieces are never enumerated). It is exact and finite and returns multipliers ``u >= 0`` with
``v = z + Σ u_i c_i``, which are checked explicitly. Changes of active constraints (a triple reaching 0, a
budget becoming tight, a sign of ``q - P̄_i q(x, a)`` flipping) thus stay local to one pair; a global
active-set method on the faces of ``Δ(𝒫_i)`` was tried first and refactorised a large face nearly every
episode.

Certificate. The answer is accepted when every pair projection certifies its own KKT conditions (feasible up
to ``PAIR_TOL`` times ``max(1, ||z||_∞)``, ``u >= 0``, stationarity, complementary slackness) and the flow
residual ``|F q - b|`` is at most ``FLOW_TOL``: then ``q`` with multipliers ``ν`` (flow, exposed as
``flow_multipliers``) and ``u`` (pairs) satisfies the KKT conditions of the projection, so it is the
projection of ``y`` onto ``Δ(𝒫_i)`` with the flow rows perturbed by at most ``FLOW_TOL``.

Fallbacks. If Newton from the previous ``ν`` fails (no ascent after ``MAX_RIDGES`` ridges, or
``MAX_NEWTON_STEPS`` steps), it is restarted from ``ν = 0``; then the QP in ``z = (q, u)`` with ``u(x, a, x')
>= |q(x, a, x') - P̄_i q(x, a)|`` is solved by OSQP (set up afresh at each call, so that a call depends on its
inputs only; its own polishing fails on this QP because ``u`` has a zero Hessian and is not unique) and Newton
is restarted from OSQP's flow multipliers; if that fails too, Clarabel (interior point, through cvxpy) solves
the same QP, the call is counted in ``fallbacks`` and its flow multipliers start the next call.

One projector serves a whole run: a new epoch points it at the new set in place
(:meth:`ConfidenceSetProjector.set_confidence_set`, or :func:`reset_confidence_set` from compiled code), which
leaves it exactly as a fresh projector of that set (no pieces, ``ν = 0``, the next call cold); the sparse
forms the fallbacks need are rebuilt lazily, only when a fallback runs. :func:`project_newton` holds the two
Newton paths so that the compiled episode loop of :mod:`regretlab.cmdp.simulate` calls them directly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from numba import njit

from regretlab.cmdp.occupancy import check_layer_sizes, layer_of_state, support_mask
from regretlab.kernels import allocating, kernel

if TYPE_CHECKING:
    import cvxpy as cp

#: OSQP settings of the first fallback (polishing off, see the module docstring).
OSQP_SETTINGS = {
    "eps_abs": 1e-10,
    "eps_rel": 1e-10,
    "max_iter": 4000,
    "polishing": False,
    "warm_starting": True,
    "verbose": False,
}
#: Clarabel settings of the robust fallback.
CLARABEL_SETTINGS = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "max_iter": 500}
#: Certificate: largest flow residual ``|F q - b|`` accepted.
FLOW_TOL = 1e-13
#: Certificate of a pair projection: constraint violation and stationarity residual, relative to
#: ``max(1, ||z||_∞)`` of the projected block.
PAIR_TOL = 1e-13
#: A pair's piece is reused with the feasibility check alone when it is well conditioned to this accuracy
#: (see ``_pair_piece``: ``x = J z`` and ``u = -W z`` are then stationary and complementary to round-off).
PIECE_TOL = 1e-13
#: Newton steps per attempt (each tries up to ``MAX_RIDGES`` ridges until the step ascends).
MAX_NEWTON_STEPS = 60
MAX_RIDGES = 40
#: Ridge of the plain Newton step, relative to the largest diagonal entry of ``F J F^T``.
RIDGE = 1e-13

_SUCCESS = 0


@kernel(error_model="numpy")
def _cholesky_solve(A: np.ndarray, rhs: np.ndarray, k: int, L: np.ndarray, out: np.ndarray) -> bool:
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
def _budget(x: np.ndarray, pbar: np.ndarray, eps: float) -> float:
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
        budget = _budget(x, pbar, eps)
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
                if not _cholesky_solve(gram, rhs, k, chol, r):
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
        if k > 0 and not _cholesky_solve(gram, rhs, k, chol, r):
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
    return _budget(x, pbar, eps) <= threshold


@kernel(error_model="numpy")
def _solve_pair(
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
    """:func:`_zero_is_projection`'s last loop on a block of more than ``_SMALL_SORT`` triples, in the order
    of ``np.argsort(z)`` (which allocates)."""
    for j in np.argsort(z):
        if moved <= 0.0:
            break
        if j != best:
            taken = min(moved, pbar[j])
            value -= taken * z[j]
            moved -= taken
    return value


@kernel(error_model="numpy")
def _zero_is_projection(z: np.ndarray, pbar: np.ndarray, eps: float, threshold: float) -> bool:
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


@kernel(error_model="numpy")
def _evaluate(
    y: np.ndarray,
    nu: np.ndarray,
    b: np.ndarray,
    starts: np.ndarray,
    pbar: np.ndarray,
    eps: np.ndarray,
    out_row: np.ndarray,
    in_row: np.ndarray,
    q: np.ndarray,
    residual: np.ndarray,
    pieces: tuple,
    where: np.ndarray,
    where_out: np.ndarray,
    u: np.ndarray,
    work: np.ndarray,
    zbuf: np.ndarray,
) -> tuple[bool, float]:
    """``q = Π_K(y - F^T ν)`` pair by pair, ``F q - b`` and ``θ(ν)`` (up to a constant).

    Pair ``p`` first tries its piece in slot ``where[p]`` of ``pieces`` ``(N, k, J, W, reusable)`` (arrays
    with a leading axis of 2): ``x = J z`` is accepted when ``x`` is feasible and ``u = -W z >= 0``.
    Otherwise the active-set method writes a new piece into the other slot. ``where_out[p]`` receives the
    slot used (``where_out`` may be ``where``).
    """
    N, K, J, W, reusable = pieces
    theta = 0.0
    for i in range(b.shape[0]):
        residual[i] = -b[i]
        theta -= nu[i] * b[i]
    for p in range(starts.shape[0] - 1):
        lo, hi = starts[p], starts[p + 1]
        d = hi - lo
        z = zbuf[:d]
        x = q[lo:hi]
        scale = 1.0
        for j in range(d):
            t = lo + j
            z[j] = y[t] - nu[out_row[t]] + (nu[in_row[t]] if in_row[t] >= 0 else 0.0)
            scale = max(scale, abs(z[j]))
        threshold = PAIR_TOL * scale
        slot = where[p]
        k = K[slot, p]
        certified = False
        if k == d:  # the piece x = 0 (J = 0): keep it while z stays in the polar cone of K
            certified = _zero_is_projection(z, pbar[lo:hi], eps[p], threshold)
            if certified:
                for i in range(d):
                    x[i] = 0.0
        elif k >= 0 and reusable[slot, p]:
            certified = True
            for a in range(k):
                s = 0.0
                for j in range(d):
                    s -= W[slot, p, a, j] * z[j]
                if s < -threshold:
                    certified = False
                    break
            if certified:
                for i in range(d):
                    s = 0.0
                    for j in range(d):
                        s += J[slot, p, i, j] * z[j]
                    x[i] = s
                    if s < -threshold:
                        certified = False
                certified = certified and _budget(x, pbar[lo:hi], eps[p]) <= threshold
        if not certified:
            slot = 1 - slot
            k, fast = _solve_pair(
                z, pbar[lo:hi], eps[p], x, N[slot, p], J[slot, p], W[slot, p], u, work, threshold
            )
            if k < 0:
                return False, 0.0
            K[slot, p] = k
            reusable[slot, p] = fast
        where_out[p] = slot
        o = out_row[lo]
        for j in range(d):
            theta += x[j] * (0.5 * x[j] - z[j])
            residual[o] += x[j]
            if in_row[lo + j] >= 0:
                residual[in_row[lo + j]] -= x[j]
    return True, theta


@njit(cache=True, inline="always")
def _copy(target: np.ndarray, source: np.ndarray) -> None:
    """``target[:] = source`` for 1-D arrays, by a loop (the slice assignment needs numba's runtime)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@kernel(error_model="numpy")
def _newton(
    y: np.ndarray,
    nu: np.ndarray,
    b: np.ndarray,
    starts: np.ndarray,
    pbar: np.ndarray,
    eps: np.ndarray,
    out_row: np.ndarray,
    in_row: np.ndarray,
    q: np.ndarray,
    pieces: tuple,
    where: np.ndarray,
    max_steps: int,
    max_ridges: int,
    flow_tol: float,
    ridge: float,
    scratch: tuple,
) -> tuple[int, int]:
    """Semismooth Newton on ``θ`` from ``nu`` (updated in place), safeguarded by a growing ridge.

    ``q`` receives the projection; ``pieces`` and ``where`` (see :func:`_evaluate`) hold the pieces of the
    previous call (``k = -1`` for none) and receive those at the solution. Returns ``(status, steps)``:
    status 0 is certified, 1 a failed pair projection, 2 no ascent after ``max_ridges`` ridges, 3 too many
    steps. ``scratch`` holds the work arrays (:func:`newton_scratch`).
    """
    n_pairs = starts.shape[0] - 1
    n_flow = b.shape[0]
    J = pieces[2]
    u, work, zbuf, where_trial, q_trial, residual, residual_trial, nu_trial = scratch[:8]
    M, M_reg, L, direction = scratch[8:12]
    ok, theta = _evaluate(
        y, nu, b, starts, pbar, eps, out_row, in_row, q, residual, pieces, where, where, u, work, zbuf
    )
    if not ok:
        return 1, 0
    for step in range(max_steps + 1):
        largest = 0.0
        for i in range(n_flow):
            largest = max(largest, abs(residual[i]))
        if largest <= flow_tol:
            return _SUCCESS, step
        if step == max_steps:
            break
        # M = F J F^T: every triple of a pair leaves the same state (row o) and enters in_row (or x_L).
        M[:, :] = 0.0
        for p in range(n_pairs):
            lo, hi = starts[p], starts[p + 1]
            o = out_row[lo]
            slot = where[p]
            for i in range(hi - lo):
                a_i = in_row[lo + i]
                for j in range(hi - lo):
                    v = J[slot, p, i, j]
                    if v == 0.0:
                        continue
                    a_j = in_row[lo + j]
                    M[o, o] += v
                    if a_j >= 0:
                        M[o, a_j] -= v
                    if a_i >= 0:
                        M[a_i, o] -= v
                        if a_j >= 0:
                            M[a_i, a_j] += v
        diagonal = 1.0
        for i in range(n_flow):
            diagonal = max(diagonal, M[i, i])
        # The plain Newton step first (a tiny ridge); while the ascent condition fails, a ridge from |r|
        # upwards (Levenberg-Marquardt), which tends to a short gradient step that is always accepted.
        mu = ridge * diagonal
        accepted = False
        for _ in range(max_ridges):
            for i in range(n_flow):
                for j in range(n_flow):
                    M_reg[i, j] = M[i, j]
                M_reg[i, i] += mu
            mu = max(10.0 * mu, largest)
            if not _cholesky_solve(M_reg, residual, n_flow, L, direction):
                continue
            slope = 0.0
            for i in range(n_flow):
                slope += residual[i] * direction[i]
                nu_trial[i] = nu[i] + direction[i]
            ok, theta_trial = _evaluate(
                y,
                nu_trial,
                b,
                starts,
                pbar,
                eps,
                out_row,
                in_row,
                q_trial,
                residual_trial,
                pieces,
                where,
                where_trial,
                u,
                work,
                zbuf,
            )
            if not ok:
                return 1, step
            if theta_trial >= theta + 1e-4 * slope - 1e-15 * (1.0 + abs(theta)):
                accepted = True
                break
        if not accepted:
            return 2, step
        _copy(nu, nu_trial)
        _copy(q, q_trial)
        _copy(where, where_trial)
        _copy(residual, residual_trial)
        theta = theta_trial
    return 3, max_steps


#: Slots of a projector's ``state`` array: whether ``ν`` comes from a certified projection of this epoch's
#: set (warm), how many confidence sets have been set (version) and which path solved the last call.
_WARM, _VERSION, _LAST = range(3)
#: Solver paths, in the order they are tried; the slots of the ``counts`` array, then the Newton steps.
PATHS = ("warm", "cold", "osqp", "clarabel")
_STEPS = len(PATHS)


@kernel
def reset_confidence_set(
    P_bar: np.ndarray,
    epsilon: np.ndarray,
    triples: tuple,
    P_t: np.ndarray,
    eps_t: np.ndarray,
    pieces: tuple,
    where: np.ndarray,
    nu: np.ndarray,
    state: np.ndarray,
) -> None:
    """Point a projector at a new ``𝒫_i`` (in place): ``P̄_i`` on the support ``triples`` ``(x, a, x')``,
    ``ε_i`` per non-terminal pair, no pieces and ``ν = 0`` (the next call starts cold), version + 1."""
    x, a, y = triples
    for k in range(x.shape[0]):
        P_t[k] = P_bar[x[k], a[k], y[k]]
    n_actions = epsilon.shape[1]
    for p in range(eps_t.shape[0]):
        eps_t[p] = epsilon[p // n_actions, p % n_actions]
    N, K, J, W, reusable = pieces
    N[...] = 0.0
    K[...] = -1
    J[...] = 0.0
    W[...] = 0.0
    reusable[...] = False
    where[:] = 0
    nu[:] = 0.0
    state[_WARM] = 0
    state[_VERSION] += 1


def newton_scratch(n_pairs: int, dmax: int, n_triples: int, n_flow: int) -> tuple:
    """The work arrays of :func:`_newton` and :func:`project_newton` for a support with ``n_pairs`` pairs of
    at most ``dmax`` triples each, ``n_triples`` triples and ``n_flow`` flow rows, allocated once per
    projector: the pair solver's multipliers, matrix work and block; the trial pieces, point and residual;
    ``F J F^T``, its regularised copy and Cholesky factor; the Newton direction; the trial ``ν`` of a Newton
    path. Every entry is written before it is read in a call (they were allocated per call before)."""
    return (
        np.empty(dmax + 1),
        np.empty((2 * dmax + 4, dmax)),
        np.empty(dmax),
        np.empty(n_pairs, dtype=np.int64),
        np.empty(n_triples),
        np.empty(n_flow),
        np.empty(n_flow),
        np.empty(n_flow),
        np.empty((n_flow, n_flow)),
        np.empty((n_flow, n_flow)),
        np.empty((n_flow, n_flow)),
        np.empty(n_flow),
        np.empty(n_flow),
    )


@kernel
def project_newton(
    target: np.ndarray,
    flow_rhs: np.ndarray,
    starts: np.ndarray,
    P_t: np.ndarray,
    eps_t: np.ndarray,
    out_row: np.ndarray,
    in_row: np.ndarray,
    nu: np.ndarray,
    pieces: tuple,
    where: np.ndarray,
    state: np.ndarray,
    counts: np.ndarray,
    q: np.ndarray,
    max_steps: int,
    max_ridges: int,
    scratch: tuple,
) -> bool:
    """The Newton paths of :meth:`ConfidenceSetProjector.project` on the support vector ``target``: from the
    previous ``ν`` when warm, then from ``ν = 0``. On success ``q`` holds the certified projection and ``nu``
    its flow multipliers; on failure the pieces are dropped and the caller goes on to OSQP. ``scratch`` is
    the projector's :func:`newton_scratch` (nothing is allocated)."""
    trial = scratch[-1]
    for path in range(2):
        if path == 0 and state[_WARM] == 0:
            continue
        for i in range(nu.shape[0]):
            trial[i] = nu[i] if path == 0 else 0.0
        status, steps = _newton(
            target,
            trial,
            flow_rhs,
            starts,
            P_t,
            eps_t,
            out_row,
            in_row,
            q,
            pieces,
            where,
            max_steps,
            max_ridges,
            FLOW_TOL,
            RIDGE,
            scratch,
        )
        counts[_STEPS] += steps
        if status == _SUCCESS:
            _copy(nu, trial)
            counts[path] += 1
            state[_LAST] = path
            state[_WARM] = 1
            return True
        pieces[1][:] = -1  # a failed pair solve may have left a piece half written
    return False


class ConfidenceSetProjector:
    """``Π_{Δ(𝒫_i)}`` for the confidence set of the current epoch ``i`` (``P̄_i`` and ``ε_i``).

    One projector serves a whole run: :meth:`set_confidence_set` (or the compiled
    :func:`reset_confidence_set` on its arrays, which the episode loop of :mod:`regretlab.cmdp.simulate`
    calls) points it at a new epoch's set in place; the sparse data of the fallbacks follow lazily.

    Parameters
    ----------
    layer_sizes, n_actions : the layered state space and ``|A|``.
    P_bar : ``(|X|, |A|, |X|)`` empirical transition ``P̄_i`` of eq. (10).
    epsilon : ``(|X|, |A|)`` radii ``ε_i(x, a)`` of eq. (10) (the terminal row is ignored).

    Attributes
    ----------
    fallbacks : number of :meth:`project` calls that needed the Clarabel fallback (all epochs).
    stats : calls solved by Newton from the previous multipliers (``"warm"``), from zero (``"cold"``), after
        OSQP (``"osqp"``) and by Clarabel (``"clarabel"``, the same count as ``fallbacks``);
        ``"newton_steps"`` adds up the Newton steps.
    last_path : which of these solved the last call.
    flow_multipliers : ``ν`` of the last certified projection (flow rows: ``x_0`` then the interior states).
    """

    def __init__(
        self, layer_sizes: Sequence[int], n_actions: int, P_bar: np.ndarray, epsilon: np.ndarray
    ) -> None:
        self.layer_sizes = check_layer_sizes(layer_sizes)
        mask = support_mask(self.layer_sizes, n_actions)
        self._shape = mask.shape
        self._triples = tuple(np.ascontiguousarray(v, dtype=np.int64) for v in np.nonzero(mask))
        self._flat = np.flatnonzero(mask)
        x, a, x_next = self._triples
        n = self._n = x.size
        n_pairs = (mask.shape[0] - 1) * n_actions
        # Triples come in (x, a, x') order: every pair's triples are contiguous, and no pair is empty.
        self._pair_of = x * n_actions + a
        self._starts = np.append(np.searchsorted(self._pair_of, np.arange(n_pairs)), n).astype(np.int64)
        layer = layer_of_state(self.layer_sizes)
        interior = np.flatnonzero((layer > 0) & (layer < layer.max()))
        row_of_state = np.full(layer.size, -1, dtype=np.int64)
        row_of_state[0] = 0
        row_of_state[interior] = np.arange(1, interior.size + 1)
        self._out_row = row_of_state[x]
        self._in_row = row_of_state[x_next]
        self._flow_rhs = np.zeros(interior.size + 1)
        self._flow_rhs[0] = 1.0
        self.flow_multipliers = np.zeros(self._flow_rhs.size)
        self._P_t = np.zeros(n)
        self._epsilon = np.zeros(n_pairs)
        # Pieces of every pair's projection Π_K (see _evaluate): two slots per pair, the one in use in _where.
        d = int(np.diff(self._starts).max())
        self._pieces = (
            np.zeros((2, n_pairs, d, d)),
            np.full((2, n_pairs), -1, dtype=np.int64),
            np.zeros((2, n_pairs, d, d)),
            np.zeros((2, n_pairs, d, d)),
            np.zeros((2, n_pairs), bool),
        )
        self._where = np.zeros(n_pairs, dtype=np.int64)
        self._state = np.zeros(3, dtype=np.int64)
        self._counts = np.zeros(len(PATHS) + 1, dtype=np.int64)
        self._solution = np.empty(n)
        self._scratch = newton_scratch(n_pairs, d, n, self._flow_rhs.size)
        # Structural sparse forms; those that depend on P̄_i are built on first use for each version.
        self._pair_sum = sp.csr_matrix((np.ones(n), (self._pair_of, np.arange(n))), shape=(n_pairs, n))
        columns = np.arange(n)
        inflow = self._in_row >= 0
        self._flow = sp.csr_matrix(
            (
                np.concatenate([np.ones(n), -np.ones(int(inflow.sum()))]),
                (
                    np.concatenate([self._out_row, self._in_row[inflow]]),
                    np.concatenate([columns, columns[inflow]]),
                ),
            ),
            shape=(self._flow_rhs.size, n),
        )
        self._built_version = -1
        self.set_confidence_set(P_bar, epsilon)

    def set_confidence_set(self, P_bar: np.ndarray, epsilon: np.ndarray) -> None:
        """Project onto the set of eq. (10) with centre ``P_bar`` and radii ``epsilon`` from now on."""
        if np.shape(P_bar) != self._shape or np.shape(epsilon) != self._shape[:2]:
            raise ValueError(
                f"P_bar must have shape {self._shape} and epsilon {self._shape[:2]}, "
                f"got {np.shape(P_bar)} and {np.shape(epsilon)}"
            )
        reset_confidence_set(
            np.ascontiguousarray(P_bar, dtype=float),
            np.ascontiguousarray(epsilon, dtype=float),
            self._triples,
            self._P_t,
            self._epsilon,
            self._pieces,
            self._where,
            self.flow_multipliers,
            self._state,
        )

    @property
    def kernel_arrays(self) -> tuple:
        """The arrays :func:`project_newton` and :func:`reset_confidence_set` work on, in the order
        ``(triples, flow_rhs, starts, P_t, eps_t, out_row, in_row, nu, pieces, where, state, counts,
        scratch)`` (``scratch``: :func:`newton_scratch`)."""
        return (
            self._triples,
            self._flow_rhs,
            self._starts,
            self._P_t,
            self._epsilon,
            self._out_row,
            self._in_row,
            self.flow_multipliers,
            self._pieces,
            self._where,
            self._state,
            self._counts,
            self._scratch,
        )

    def get_state(self) -> dict:
        """Copies of every array that changes in a run (the current set, the multipliers, the pair pieces,
        the counters), for a snapshot (:mod:`regretlab.snapshots`). The fallback solvers are not part of it:
        they are rebuilt on first use after :meth:`set_state`, and each OSQP call starts from a fresh set-up
        (:meth:`_solve_osqp`), so that a resumed run's projections are those of an uninterrupted one."""
        arrays = (self._P_t, self._epsilon, self.flow_multipliers, self._where, self._state, self._counts)
        return {"arrays": [a.copy() for a in arrays], "pieces": [a.copy() for a in self._pieces]}

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s arrays in place; the fallbacks' data are rebuilt when next needed."""
        arrays = (self._P_t, self._epsilon, self.flow_multipliers, self._where, self._state, self._counts)
        for array, saved in zip((*arrays, *self._pieces), (*state["arrays"], *state["pieces"]), strict=True):
            np.copyto(array, saved)
        self._built_version = -1

    @property
    def fallbacks(self) -> int:
        """Calls solved by Clarabel."""
        return int(self._counts[PATHS.index("clarabel")])

    @property
    def stats(self) -> dict[str, int]:
        """Calls per solver path and the total of Newton steps."""
        counts = self._counts.tolist()
        return {**dict(zip(PATHS, counts[: len(PATHS)], strict=True)), "newton_steps": counts[_STEPS]}

    @property
    def last_path(self) -> str:
        """The path that solved the last call (``""`` before the first)."""
        return PATHS[self._state[_LAST]] if self._counts[: len(PATHS)].any() else ""

    def _sync(self) -> None:
        """Build the sparse forms that depend on ``P̄_i`` (and drop the fallback solvers) for a new set."""
        if self._built_version == self._state[_VERSION]:
            return
        same_pair = self._pair_sum.T @ self._pair_sum
        self._deviation = (sp.identity(self._n, format="csr") - sp.diags(self._P_t) @ same_pair).tocsr()
        self._osqp: tuple[sp.csc_matrix, sp.csc_matrix, np.ndarray, np.ndarray] | None = None
        self._fallback: tuple[cp.Problem, cp.Parameter, cp.Variable, cp.Constraint] | None = None
        self._built_version = int(self._state[_VERSION])

    def _violation(self, q: np.ndarray) -> float:
        """Largest violation of the constraints of ``Δ(𝒫_i)`` by a vector over the support triples."""
        self._sync()
        budget = self._pair_sum @ np.abs(self._deviation @ q) - self._epsilon * (self._pair_sum @ q)
        flow = self._flow @ q - self._flow_rhs
        return max(0.0, -float(q.min()), float(np.abs(flow).max()), float(budget.max()))

    def violation(self, q: np.ndarray) -> float:
        """Largest violation of ``Δ(𝒫_i)`` by a triple view ``q`` (mass outside the support included)."""
        q = np.asarray(q, dtype=float)
        outside = np.ones(self._shape, dtype=bool)
        outside[self._triples] = False
        return max(self._violation(q[self._triples]), float(np.abs(q[outside]).max(initial=0.0)))

    def project(self, y: np.ndarray) -> np.ndarray:
        """``argmin_{q ∈ Δ(𝒫_i)} ||q - y||_2`` for a triple-view point ``y`` of shape ``(|X|, |A|, |X|)``.

        Entries of ``y`` outside the layered support only add a constant to the distance and are ignored.
        Returns the projection as a triple view (zero outside the support).
        """
        target = np.ascontiguousarray(np.asarray(y, dtype=float).ravel()[self._flat])
        q = np.zeros(self._shape)
        q.ravel()[self._flat] = self.solve(target)
        return q

    def solve(self, target: np.ndarray, newton_failed: bool = False) -> np.ndarray:
        """The projection of the support vector ``target`` (triples in ``(x, a, x')`` order): Newton (warm,
        then cold), OSQP then Newton, Clarabel. ``newton_failed`` skips the first two, which the compiled
        episode loop has already tried (:func:`project_newton`)."""
        if not newton_failed and project_newton(
            target,
            self._flow_rhs,
            self._starts,
            self._P_t,
            self._epsilon,
            self._out_row,
            self._in_row,
            self.flow_multipliers,
            self._pieces,
            self._where,
            self._state,
            self._counts,
            self._solution,
            MAX_NEWTON_STEPS,
            MAX_RIDGES,
            self._scratch,
        ):
            return self._solution.copy()
        solution = None
        start = self._solve_osqp(target)
        if start is not None:
            solution = self._solve_newton(target, start)
        if solution is None:
            solution, nu = self._solve_fallback(target)
            self.flow_multipliers[:] = nu
            self._finish("clarabel")
        return solution

    def _finish(self, path: str) -> None:
        """Count a call solved by ``path``; the next call is warm."""
        self._counts[PATHS.index(path)] += 1
        self._state[_LAST] = PATHS.index(path)
        self._state[_WARM] = 1

    def _solve_newton(self, target: np.ndarray, nu: np.ndarray) -> np.ndarray | None:
        """Certified Newton solve from OSQP's flow multipliers ``nu`` (``None`` when it fails)."""
        nu = np.array(nu, dtype=float)
        q = np.empty(self._n)
        status, steps = _newton(
            target,
            nu,
            self._flow_rhs,
            self._starts,
            self._P_t,
            self._epsilon,
            self._out_row,
            self._in_row,
            q,
            self._pieces,
            self._where,
            MAX_NEWTON_STEPS,
            MAX_RIDGES,
            FLOW_TOL,
            RIDGE,
            self._scratch,
        )
        self._counts[_STEPS] += steps
        if status != _SUCCESS:
            self._pieces[1][:] = -1  # a failed pair solve may have left a piece half written
            return None
        self.flow_multipliers[:] = nu
        self._finish("osqp")
        return q

    def _qp_data(self) -> tuple[sp.csc_matrix, np.ndarray, np.ndarray]:
        """The linearised QP in ``z = (q, u)``: constraint matrix and bounds (flow rows first)."""
        n, n_pairs = self._n, self._epsilon.size
        identity = sp.identity(n, format="csr")
        zeros = sp.csr_matrix((n, n))
        A = sp.vstack(
            [
                sp.hstack([self._flow, sp.csr_matrix((self._flow.shape[0], n))]),
                sp.hstack([identity, zeros]),
                sp.hstack([-self._deviation, identity]),
                sp.hstack([self._deviation, identity]),
                sp.hstack([-sp.diags(self._epsilon) @ self._pair_sum, self._pair_sum]),
            ]
        ).tocsc()
        lower = np.concatenate([self._flow_rhs, np.zeros(3 * n), np.full(n_pairs, -np.inf)])
        upper = np.concatenate([self._flow_rhs, np.full(3 * n, np.inf), np.zeros(n_pairs)])
        return A, lower, upper

    def _solve_osqp(self, target: np.ndarray) -> np.ndarray | None:
        """OSQP on the linearised QP; returns its flow multipliers, or ``None``.

        Set up afresh at every call (the constraint data are kept per set): a workspace kept across calls
        would warm-start from its last iterate and adapted step, state that no snapshot can restore, so a
        resumed run could differ from an uninterrupted one in round-off. The path is rare (Newton from warm
        and cold multipliers must both have failed), so the set-up costs nothing that matters. osqp is
        imported here, on first use, like cvxpy in :meth:`_solve_fallback`: most runs never get here, and the
        two (with what cvxpy imports of scipy) took most of a CMDP run job's import time."""
        import osqp

        n = self._n
        self._sync()
        if self._osqp is None:
            A, lower, upper = self._qp_data()
            hessian = sp.block_diag([sp.identity(n), sp.csr_matrix((n, n))], format="csc")
            self._osqp = (sp.triu(hessian, format="csc"), A, lower, upper)
        hessian, A, lower, upper = self._osqp
        solver = osqp.OSQP()
        solver.setup(hessian, np.concatenate([-target, np.zeros(n)]), A, lower, upper, **OSQP_SETTINGS)
        result = solver.solve(raise_error=False)
        if result.info.status_val != osqp.SolverStatus.OSQP_SOLVED:
            return None
        # OSQP's KKT reads P z + c + A^T y = 0, so the flow rows' y is ν of q - y + F^T ν + ... = 0.
        return np.array(result.y[: self._flow_rhs.size])

    def _solve_fallback(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The same QP with Clarabel through cvxpy (built on first use, then re-solved with a new ``y``);
        returns ``q`` and the flow multipliers (cvxpy's duals of the flow rows have the sign of ``ν``)."""
        import cvxpy as cp

        self._sync()
        if self._fallback is None:
            A, lower, upper = self._qp_data()
            z = cp.Variable(2 * self._n)
            y = cp.Parameter(self._n)
            equal = lower == upper
            below = np.isfinite(lower) & ~equal
            above = np.isfinite(upper) & ~equal
            flow = A[equal] @ z == lower[equal]
            constraints = [flow, A[below] @ z >= lower[below], A[above] @ z <= upper[above]]
            problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(z[: self._n] - y)), constraints)
            self._fallback = (problem, y, z, flow)
        problem, y, z, flow = self._fallback
        y.value = target
        problem.solve(solver=cp.CLARABEL, **CLARABEL_SETTINGS)
        if z.value is None:
            raise RuntimeError(f"projection onto Δ(P_i) failed in both OSQP and Clarabel ({problem.status})")
        nu = (
            np.zeros(self._flow_rhs.size)
            if flow.dual_value is None
            else np.array(flow.dual_value, dtype=float)
        )
        return np.array(z.value[: self._n]), nu
