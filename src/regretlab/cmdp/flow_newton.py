"""Semismooth Newton on the flow multipliers ``ν`` of the projection onto ``Δ(𝒫_i)`` (the hot path of
:mod:`regretlab.cmdp.projection`, whose docstring describes the method).

``θ(ν) = min_{q ∈ K} ½||q - y||² + ν^T (F q - b)`` is evaluated pair by pair (:func:`_evaluate`, with the
pair projections of :mod:`regretlab.cmdp.pair_projection`) and maximised by :func:`newton`, a Newton
iteration on ``F J F^T Δ = F q(ν) - b`` safeguarded by a growing ridge. The set (:class:`PolytopeArrays`),
the pieces of every pair's ``Π_K`` (:class:`Pieces`) and the work arrays (:class:`NewtonScratch`) are
allocated once per projector; nothing is allocated per call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from regretlab.cmdp.pair_projection import (
    PAIR_TOL,
    budget_excess,
    cholesky_solve,
    solve_pair,
    zero_is_projection,
)
from regretlab.core.kernels import kernel

#: Status of a certified :func:`newton` solve.
SUCCESS = 0


class PolytopeArrays(NamedTuple):
    """``Δ(𝒫_i)`` as the Newton solver sees it: the flow rows ``F q = b`` and the pairs' cones ``K_{x,a}``
    (:mod:`regretlab.cmdp.projection`'s docstring). ``n`` is the number of support triples (in
    ``(x, a, x')`` order), ``f`` of flow rows (``x_0`` then the interior states). A new epoch rewrites
    ``P_t`` and ``eps_t`` in place (:func:`~regretlab.cmdp.projection.reset_confidence_set`).

    Attributes:
        flow_rhs: ``(f,)`` ``b = e_0``.
        starts: ``(n_pairs + 1,)`` int64, pair ``p``'s triples are ``starts[p] : starts[p + 1]``.
        P_t: ``(n,)`` ``P̄_i(x'|x, a)`` on the support (eq. (10)).
        eps_t: ``(n_pairs,)`` ``ε_i(x, a)`` per non-terminal pair (eq. (10)).
        out_row: ``(n,)`` int64, the flow row of each triple's state ``x`` (its entry +1 of ``F``).
        in_row: ``(n,)`` int64, the flow row of each triple's next state ``x'`` (its entry −1 of ``F``; −1
            for the last layer, which has no row).
    """

    flow_rhs: np.ndarray
    starts: np.ndarray
    P_t: np.ndarray
    eps_t: np.ndarray
    out_row: np.ndarray
    in_row: np.ndarray


class Pieces(NamedTuple):
    """The pieces of every pair's projection ``Π_{K_{x,a}}``, two slots per pair (the one in use is in the
    projector's ``where``; a new piece is written into the other). ``d`` is the largest block
    ``|X_{k(x)+1}|``; on piece ``(N, k, J, W)``, ``Π_K(z) = J z`` with multipliers ``u = -W z``.

    Attributes:
        N: ``(2, n_pairs, d, d)`` the active constraints' normals, in the first ``k`` columns.
        K: ``(2, n_pairs)`` int64, ``k``, the number of active constraints (−1: no piece; ``d``: ``x = 0``).
        J: ``(2, n_pairs, d, d)`` ``I - N W``, the projector onto the null space of the active normals.
        W: ``(2, n_pairs, d, d)`` ``(N^T N)^{-1} N^T``.
        reusable: ``(2, n_pairs)`` bool, whether the piece is reused with the feasibility check alone.
    """

    N: np.ndarray
    K: np.ndarray
    J: np.ndarray
    W: np.ndarray
    reusable: np.ndarray


def empty_pieces(n_pairs: int, dmax: int) -> Pieces:
    """No piece for any of ``n_pairs`` pairs of at most ``dmax`` triples (every ``k = -1``)."""
    return Pieces(
        np.zeros((2, n_pairs, dmax, dmax)),
        np.full((2, n_pairs), -1, dtype=np.int64),
        np.zeros((2, n_pairs, dmax, dmax)),
        np.zeros((2, n_pairs, dmax, dmax)),
        np.zeros((2, n_pairs), bool),
    )


class NewtonScratch(NamedTuple):
    """The work arrays of :func:`newton` and of the projector's Newton paths (``d`` the largest block,
    ``n`` the triples, ``f`` the flow rows). Every entry is written before it is read in a call.

    Attributes:
        u: ``(d + 1,)`` a pair projection's multipliers.
        work: ``(2d + 4, d)`` a pair projection's matrix work.
        zbuf: ``(d,)`` the block ``z`` being projected.
        where_trial: ``(n_pairs,)`` int64, the pieces' slots at the trial point.
        q_trial: ``(n,)`` the trial projection.
        residual: ``(f,)`` ``F q - b``.
        residual_trial: ``(f,)`` ``F q - b`` at the trial point.
        nu_trial: ``(f,)`` the trial ``ν + Δ``.
        M: ``(f, f)`` ``F J F^T``.
        M_reg: ``(f, f)`` its regularised copy.
        L: ``(f, f)`` the Cholesky factor of ``M_reg``.
        direction: ``(f,)`` the Newton direction ``Δ``.
        start: ``(f,)`` the starting ``ν`` of a Newton path (the previous one, or 0).
    """

    u: np.ndarray
    work: np.ndarray
    zbuf: np.ndarray
    where_trial: np.ndarray
    q_trial: np.ndarray
    residual: np.ndarray
    residual_trial: np.ndarray
    nu_trial: np.ndarray
    M: np.ndarray
    M_reg: np.ndarray
    L: np.ndarray
    direction: np.ndarray
    start: np.ndarray


def newton_scratch(n_pairs: int, dmax: int, n_triples: int, n_flow: int) -> NewtonScratch:
    """The :class:`NewtonScratch` of a support with ``n_pairs`` pairs of at most ``dmax`` triples each,
    ``n_triples`` triples and ``n_flow`` flow rows, allocated once per projector (they were allocated per
    call before)."""
    return NewtonScratch(
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


@kernel(error_model="numpy", inline="always")
def _evaluate(
    y: np.ndarray,
    nu: np.ndarray,
    polytope: PolytopeArrays,
    q: np.ndarray,
    residual: np.ndarray,
    pieces: Pieces,
    where: np.ndarray,
    where_out: np.ndarray,
    scratch: NewtonScratch,
) -> tuple[bool, float]:
    """``q = Π_K(y - F^T ν)`` pair by pair, ``F q - b`` into ``residual`` and ``θ(ν)`` (up to a constant), on
    the set ``polytope``.

    Pair ``p`` first tries its piece in slot ``where[p]`` of ``pieces`` ``(N, k, J, W, reusable)`` (arrays
    with a leading axis of 2): ``x = J z`` is accepted when ``x`` is feasible and ``u = -W z >= 0``.
    Otherwise the active-set method writes a new piece into the other slot. ``where_out[p]`` receives the
    slot used (``where_out`` may be ``where``). Of ``scratch`` only ``u``, ``work`` and ``zbuf`` are used.
    """
    b, starts, pbar, eps = polytope.flow_rhs, polytope.starts, polytope.P_t, polytope.eps_t
    out_row, in_row = polytope.out_row, polytope.in_row
    u, work, zbuf = scratch.u, scratch.work, scratch.zbuf
    N, K, J, W, reusable = pieces.N, pieces.K, pieces.J, pieces.W, pieces.reusable
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
            certified = zero_is_projection(z, pbar[lo:hi], eps[p], threshold)
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
                certified = certified and budget_excess(x, pbar[lo:hi], eps[p]) <= threshold
        if not certified:
            slot = 1 - slot
            k, fast = solve_pair(
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
def copy_into(target: np.ndarray, source: np.ndarray) -> None:
    """``target[:] = source`` for 1-D arrays, by a loop (the slice assignment needs numba's runtime)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@kernel(error_model="numpy", inline="always")
def newton(
    y: np.ndarray,
    nu: np.ndarray,
    q: np.ndarray,
    polytope: PolytopeArrays,
    pieces: Pieces,
    where: np.ndarray,
    scratch: NewtonScratch,
    max_steps: int,
    max_ridges: int,
    flow_tol: float,
    ridge: float,
) -> tuple[int, int]:
    """Semismooth Newton on ``θ`` from ``nu`` (updated in place), safeguarded by a growing ridge, for the
    projection of ``y`` onto the set ``polytope`` (:class:`PolytopeArrays`).

    ``q`` receives the projection; ``pieces`` and ``where`` (see :func:`_evaluate`) hold the pieces of the
    previous call (``k = -1`` for none) and receive those at the solution. Returns ``(status, steps)``:
    status 0 is certified, 1 a failed pair projection, 2 no ascent after ``max_ridges`` ridges, 3 too many
    steps. ``scratch`` holds the work arrays (:func:`newton_scratch`).
    """
    starts, out_row, in_row = polytope.starts, polytope.out_row, polytope.in_row
    n_pairs = starts.shape[0] - 1
    n_flow = polytope.flow_rhs.shape[0]
    J = pieces.J
    where_trial = scratch.where_trial
    q_trial, residual = scratch.q_trial, scratch.residual
    residual_trial, nu_trial = scratch.residual_trial, scratch.nu_trial
    M, M_reg, L, direction = scratch.M, scratch.M_reg, scratch.L, scratch.direction
    ok, theta = _evaluate(y, nu, polytope, q, residual, pieces, where, where, scratch)
    if not ok:
        return 1, 0
    for step in range(max_steps + 1):
        largest = 0.0
        for i in range(n_flow):
            largest = max(largest, abs(residual[i]))
        if largest <= flow_tol:
            return SUCCESS, step
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
            if not cholesky_solve(M_reg, residual, n_flow, L, direction):
                continue
            slope = 0.0
            for i in range(n_flow):
                slope += residual[i] * direction[i]
                nu_trial[i] = nu[i] + direction[i]
            ok, theta_trial = _evaluate(
                y, nu_trial, polytope, q_trial, residual_trial, pieces, where, where_trial, scratch
            )
            if not ok:
                return 1, step
            if theta_trial >= theta + 1e-4 * slope - 1e-15 * (1.0 + abs(theta)):
                accepted = True
                break
        if not accepted:
            return 2, step
        copy_into(nu, nu_trial)
        copy_into(q, q_trial)
        copy_into(where, where_trial)
        copy_into(residual, residual_trial)
        theta = theta_trial
    return 3, max_steps
