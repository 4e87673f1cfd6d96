"""The fallbacks of the projection onto ``Δ(𝒫_i)`` when its Newton paths fail
(:mod:`regretlab.cmdp.projection`, "Fallbacks"): the same projection as a QP, solved by OSQP (whose flow
multipliers restart Newton) and, if that fails too, by Clarabel through cvxpy.

The QP is linearised in ``z = (q, u)``: ``min ½||q - y||²`` subject to the flow rows ``F q = b``, ``q >= 0``,
``u >= |q - P̄_i q(x, a)|`` triple by triple (``u - D q >= 0`` and ``u + D q >= 0`` with the deviation
matrix ``D = I - diag(P̄_i) S^T S``, ``S`` the pairs' sums) and ``Σ_{x'} u(x, a, x') <= ε_i(x, a) q(x, a)``
(Algorithm 3 line 8 with the set of eq. (10)).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    import cvxpy as cp

#: OSQP settings of the first fallback (polishing off, see :mod:`regretlab.cmdp.projection`).
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


class FallbackQP:
    """The linearised QP of one confidence set ``𝒫_i`` (see the module docstring), built on first use.

    Parameters
    ----------
    flow : ``(f, n)`` sparse ``F``, the flow rows over the ``n`` support triples.
    flow_rhs : ``(f,)`` ``b = e_0``.
    pair_sum : ``(n_pairs, n)`` sparse ``S``, the sum of each pair's triples.
    P_t : ``(n,)`` ``P̄_i(x'|x, a)`` on the support triples (read now, for ``D``).
    epsilon : ``(n_pairs,)`` ``ε_i(x, a)`` per non-terminal pair (read when the QP is first built).

    Attributes
    ----------
    deviation : ``(n, n)`` sparse ``D``: ``(D q)(x, a, x') = q(x, a, x') - P̄_i(x'|x, a) q(x, a)``.
    """

    def __init__(
        self, flow: sp.csr_matrix, flow_rhs: np.ndarray, pair_sum: sp.csr_matrix, P_t: np.ndarray, epsilon
    ) -> None:
        self._n = n = P_t.size
        self._flow, self._flow_rhs, self._pair_sum, self._epsilon = flow, flow_rhs, pair_sum, epsilon
        same_pair = pair_sum.T @ pair_sum
        self.deviation = (sp.identity(n, format="csr") - sp.diags(P_t) @ same_pair).tocsr()
        self._osqp: tuple[sp.csc_matrix, sp.csc_matrix, np.ndarray, np.ndarray] | None = None
        self._clarabel: tuple[cp.Problem, cp.Parameter, cp.Variable, cp.Constraint] | None = None

    def constraints(self) -> tuple[sp.csc_matrix, np.ndarray, np.ndarray]:
        """The constraint matrix of ``z = (q, u)`` and its lower and upper bounds (flow rows first)."""
        n, n_pairs = self._n, self._epsilon.size
        identity = sp.identity(n, format="csr")
        zeros = sp.csr_matrix((n, n))
        A = sp.vstack(
            [
                sp.hstack([self._flow, sp.csr_matrix((self._flow.shape[0], n))]),
                sp.hstack([identity, zeros]),
                sp.hstack([-self.deviation, identity]),
                sp.hstack([self.deviation, identity]),
                sp.hstack([-sp.diags(self._epsilon) @ self._pair_sum, self._pair_sum]),
            ]
        ).tocsc()
        lower = np.concatenate([self._flow_rhs, np.zeros(3 * n), np.full(n_pairs, -np.inf)])
        upper = np.concatenate([self._flow_rhs, np.full(3 * n, np.inf), np.zeros(n_pairs)])
        return A, lower, upper

    def osqp_multipliers(self, target: np.ndarray) -> np.ndarray | None:
        """OSQP on the QP with ``y = target`` ``(n,)``; returns its flow multipliers ``(f,)``, or ``None``.

        Set up afresh at every call (the constraint data are kept per set): a workspace kept across calls
        would warm-start from its last iterate and adapted step, state that no snapshot can restore, so a
        resumed run could differ from an uninterrupted one in round-off. The path is rare (Newton from warm
        and cold multipliers must both have failed), so the set-up costs nothing that matters. osqp is
        imported here, on first use, like cvxpy in :meth:`solve_clarabel`: most runs never get here, and the
        two (with what cvxpy imports of scipy) took most of a CMDP run job's import time."""
        import osqp

        n = self._n
        if self._osqp is None:
            A, lower, upper = self.constraints()
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

    def solve_clarabel(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The QP with ``y = target`` by Clarabel through cvxpy (built on first use, then re-solved with a new
        ``y``); returns ``q`` ``(n,)`` and the flow multipliers ``(f,)`` (cvxpy's duals of the flow rows have
        the sign of ``ν``)."""
        import cvxpy as cp

        if self._clarabel is None:
            A, lower, upper = self.constraints()
            z = cp.Variable(2 * self._n)
            y = cp.Parameter(self._n)
            equal = lower == upper
            below = np.isfinite(lower) & ~equal
            above = np.isfinite(upper) & ~equal
            flow = A[equal] @ z == lower[equal]
            constraints = [flow, A[below] @ z >= lower[below], A[above] @ z <= upper[above]]
            problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(z[: self._n] - y)), constraints)
            self._clarabel = (problem, y, z, flow)
        problem, y, z, flow = self._clarabel
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
