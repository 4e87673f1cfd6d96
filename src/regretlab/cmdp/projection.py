"""Euclidean projection onto ``Δ(𝒫_i)``, the occupancy measures compatible with the confidence set (10).

This is ``Π_{Δ(𝒫_i)}`` of Algorithm 3 line 8 / Algorithm 4 line 12. The paper defines ``Δ(𝒫_i)`` only through
``𝒫_i`` (eq. (10)); following Rosenberg & Mansour (2019a) it is the set of triple-view ``q`` that satisfy the
first two conditions of Lemma 1 and whose induced ``P^q`` (eq. (4)) lies in ``𝒫_i``. Multiplying
``||P^q(·|x, a) - P̄_i(·|x, a)||_1 <= ε_i(x, a)`` by ``q(x, a)`` makes the set a polyhedron:

* ``q(x, a, x') >= 0`` on the layered support ``X_k × A × X_{k+1}`` (and 0 elsewhere);
* ``Σ_{a, x'} q(x_0, a, x') = 1`` and flow conservation ``Σ_{a, x'} q(x, a, x') = Σ_{x'', a} q(x'', a, x)``
  for ``x ∈ X_1, ..., X_{L-1}`` (the other layer sums of Lemma 1 then equal 1 too, so they are not repeated);
* ``Σ_{x'} |q(x, a, x') - P̄_i(x'|x, a) q(x, a)| <= ε_i(x, a) q(x, a)`` with ``q(x, a) = Σ_y q(x, a, y)``.

The absolute values are linearised with one auxiliary ``u(x, a, x') >= |q(x, a, x') - P̄_i(x'|x, a) q(x, a)|``
per triple, which turns the projection into the QP ``min ½||q - y||²`` over ``z = (q, u)``.

Only the linear term of the QP depends on the point ``y``, so :class:`ConfidenceSetProjector` sets the
problem up once per epoch and re-solves it every episode with a warm-started OSQP (ADMM, tolerances 1e-10).

Polishing. OSQP's own polishing reports failure on about half of small random instances, essentially
whenever a confidence constraint is active: ``u`` has a zero Hessian and is not unique (it is free between
``|q(x, a, x') - P̄_i q(x, a)|`` and the budget when a pair's constraint is slack), so the reduced KKT system
of the guessed active set is singular (with a small Hessian on ``u`` most polishes succeed, which points at
this cause). The projector therefore turns OSQP polishing off and polishes in ``q`` alone: from the ADMM
iterate ``q̃`` it reads off the face of ``Δ(𝒫_i)`` active at ``q̃`` (zero triples; for every pair whose
confidence constraint is tight, the sign of each entry of ``q - P̄_i q(x, a)``, zero entries becoming
equalities) and projects ``y`` onto that face's affine hull by a minimum-norm least-squares solve, which is
well defined even when the face's equations are redundant. If the face is right this is the exact
projection; it is accepted when it lies in ``Δ(𝒫_i)`` up to ``FEASIBILITY_TOL`` and within ``MATCH_TOL`` of
``q̃``, and the activity threshold is retried with the values of ``ACTIVE_TOLS`` otherwise. When no guess is
accepted, or OSQP does not report ``solved``, the projector solves the same QP with Clarabel (interior
point, through cvxpy) and counts the call in ``fallbacks``.
"""

from __future__ import annotations

from collections.abc import Sequence

import cvxpy as cp
import numpy as np
import osqp
import scipy.sparse as sp

from regretlab.cmdp.occupancy import check_layer_sizes, layer_of_state, support_mask

#: OSQP settings (its own polishing is replaced by :meth:`ConfidenceSetProjector._polish`, see above).
OSQP_SETTINGS = {"eps_abs": 1e-10, "eps_rel": 1e-10, "max_iter": 4000, "polishing": False,
                 "warm_starting": True, "verbose": False}
#: Clarabel settings of the robust fallback.
CLARABEL_SETTINGS = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "max_iter": 500}
#: A constraint within ``tol`` of being tight at the ADMM iterate is taken as active; the tolerances are
#: tried in this order until the polished point is accepted (near-degenerate faces need a second guess).
ACTIVE_TOLS = (1e-9, 1e-11, 1e-7)
#: Acceptance of the polished point: largest constraint violation and largest move away from the iterate.
FEASIBILITY_TOL = 1e-10
MATCH_TOL = 1e-7


class ConfidenceSetProjector:
    """``Π_{Δ(𝒫_i)}`` for one epoch ``i`` (fixed ``P̄_i`` and ``ε_i``).

    Parameters
    ----------
    layer_sizes, n_actions : the layered state space and ``|A|``.
    P_bar : ``(|X|, |A|, |X|)`` empirical transition ``P̄_i`` of eq. (10).
    epsilon : ``(|X|, |A|)`` radii ``ε_i(x, a)`` of eq. (10) (the terminal row is ignored).

    Attributes
    ----------
    fallbacks : number of :meth:`project` calls that needed the Clarabel fallback.
    """

    def __init__(
        self, layer_sizes: Sequence[int], n_actions: int, P_bar: np.ndarray, epsilon: np.ndarray
    ) -> None:
        self.layer_sizes = check_layer_sizes(layer_sizes)
        self.fallbacks = 0
        mask = support_mask(self.layer_sizes, n_actions)
        if P_bar.shape != mask.shape or np.shape(epsilon) != mask.shape[:2]:
            raise ValueError(f"P_bar must have shape {mask.shape} and epsilon {mask.shape[:2]}, "
                             f"got {P_bar.shape} and {np.shape(epsilon)}")
        self._shape = mask.shape
        self._triples = np.nonzero(mask)
        x, a, x_next = self._triples
        n = self._n = x.size
        n_pairs = (mask.shape[0] - 1) * n_actions
        self._pair_of = x * n_actions + a
        # S sums the triples of each decision pair (x, a): (S q)(x, a) = q(x, a).
        self._pair_sum = sp.csr_matrix((np.ones(n), (self._pair_of, np.arange(n))), shape=(n_pairs, n))
        # D q = (q(x, a, x') - P̄_i(x'|x, a) q(x, a)) for every triple: D = I - diag(P̄_t) S^T S.
        identity = sp.identity(n, format="csr")
        same_pair = self._pair_sum.T @ self._pair_sum
        self._deviation = (identity - sp.diags(P_bar[self._triples]) @ same_pair).tocsr()
        self._epsilon = np.asarray(epsilon, dtype=float)[:-1].ravel()
        self._flow = self._flow_rows(layer_of_state(self.layer_sizes), x, x_next)
        self._flow_rhs = np.zeros(self._flow.shape[0])
        self._flow_rhs[0] = 1.0
        zeros = sp.csr_matrix((n, n))
        self._A = sp.vstack([
            sp.hstack([self._flow, sp.csr_matrix((self._flow.shape[0], n))]),
            sp.hstack([identity, zeros]),
            sp.hstack([-self._deviation, identity]),
            sp.hstack([self._deviation, identity]),
            sp.hstack([-sp.diags(self._epsilon) @ self._pair_sum, self._pair_sum]),
        ]).tocsc()
        self._lower = np.concatenate([self._flow_rhs, np.zeros(3 * n), np.full(n_pairs, -np.inf)])
        self._upper = np.concatenate([self._flow_rhs, np.full(3 * n, np.inf), np.zeros(n_pairs)])
        hessian = sp.block_diag([identity, zeros], format="csc")
        self._osqp = osqp.OSQP()
        self._osqp.setup(sp.triu(hessian, format="csc"), np.zeros(2 * n), self._A, self._lower, self._upper,
                         **OSQP_SETTINGS)
        self._fallback: tuple[cp.Problem, cp.Parameter, cp.Variable] | None = None

    @staticmethod
    def _flow_rows(layer: np.ndarray, x: np.ndarray, x_next: np.ndarray) -> sp.csr_matrix:
        """Rows ``Σ_{a,x'} q(x_0, a, x')`` and outflow minus inflow of every interior state."""
        interior = np.flatnonzero((layer > 0) & (layer < layer.max()))
        row_of_state = np.full(layer.size, -1)
        row_of_state[0] = 0
        row_of_state[interior] = np.arange(1, interior.size + 1)
        columns = np.arange(x.size)
        inflow = row_of_state[x_next] > 0
        rows = np.concatenate([row_of_state[x], row_of_state[x_next[inflow]]])
        values = np.concatenate([np.ones(x.size), -np.ones(int(inflow.sum()))])
        return sp.csr_matrix((values, (rows, np.concatenate([columns, columns[inflow]]))),
                             shape=(interior.size + 1, x.size))

    def _violation(self, q: np.ndarray) -> float:
        """Largest violation of the constraints of ``Δ(𝒫_i)`` by a vector over the support triples."""
        budget = self._pair_sum @ np.abs(self._deviation @ q) - self._epsilon * (self._pair_sum @ q)
        flow = self._flow @ q - self._flow_rhs
        return max(0.0, -float(q.min()), float(np.abs(flow).max()), float(budget.max()))

    def violation(self, q: np.ndarray) -> float:
        """Largest violation of ``Δ(𝒫_i)`` by a triple view ``q`` (mass outside the support included)."""
        q = np.asarray(q, dtype=float)
        outside = np.ones(self._shape, dtype=bool)
        outside[self._triples] = False
        return max(self._violation(q[self._triples]), float(np.abs(q[outside]).max()))

    def project(self, y: np.ndarray) -> np.ndarray:
        """``argmin_{q ∈ Δ(𝒫_i)} ||q - y||_2`` for a triple-view point ``y`` of shape ``(|X|, |A|, |X|)``.

        Entries of ``y`` outside the layered support only add a constant to the distance and are ignored.
        Returns the projection as a triple view (zero outside the support).
        """
        target = np.asarray(y, dtype=float)[self._triples]
        self._osqp.update(q=np.concatenate([-target, np.zeros(self._n)]))
        result = self._osqp.solve(raise_error=False)
        solution = None
        if result.info.status_val == osqp.SolverStatus.OSQP_SOLVED:
            iterate = np.array(result.x[: self._n])
            for tol in ACTIVE_TOLS:
                solution = self._polish(target, iterate, tol)
                if solution is not None:
                    break
        if solution is None:
            self.fallbacks += 1
            solution = self._solve_fallback(target)
        q = np.zeros(self._shape)
        q[self._triples] = solution
        return q

    def _polish(self, target: np.ndarray, iterate: np.ndarray, tol: float) -> np.ndarray | None:
        """Project ``target`` onto the affine hull of the face of ``Δ(𝒫_i)`` ``tol``-active at ``iterate``.

        Returns ``None`` when the result is not a feasible point close to ``iterate`` (wrong face).
        """
        deviation = self._deviation @ iterate
        mass = self._pair_sum @ iterate
        slack = self._epsilon * mass - self._pair_sum @ np.abs(deviation)
        tight_pairs = (mass > tol) & (slack <= tol)
        in_tight_pair = tight_pairs[self._pair_of]
        kink = in_tight_pair & (np.abs(deviation) <= tol)
        signs = np.where(kink, 0.0, np.sign(deviation))
        tight_rows = self._pair_sum[tight_pairs]
        # Tight budget: Σ_{x'} sign · (q - P̄_i q(x, a)) = ε_i q(x, a), with kinks held at zero deviation.
        budget = tight_rows @ sp.diags(signs) @ self._deviation
        budget -= sp.diags(self._epsilon[tight_pairs]) @ tight_rows
        # The zero triples of the face are fixed at 0; the other equations act on the free triples only.
        free = iterate > tol
        face = sp.vstack([self._flow, self._deviation[kink], budget]).tocsc()[:, free].toarray()
        rhs = np.zeros(face.shape[0])
        rhs[: self._flow_rhs.size] = self._flow_rhs
        polished = np.zeros(self._n)
        polished[free] = target[free] - np.linalg.lstsq(face, face @ target[free] - rhs, rcond=None)[0]
        if self._violation(polished) > FEASIBILITY_TOL or np.abs(polished - iterate).max() > MATCH_TOL:
            return None
        return polished

    def _solve_fallback(self, target: np.ndarray) -> np.ndarray:
        """The same QP with Clarabel through cvxpy (built on first use, then re-solved with a new ``y``)."""
        if self._fallback is None:
            z = cp.Variable(2 * self._n)
            y = cp.Parameter(self._n)
            equal = self._lower == self._upper
            below = np.isfinite(self._lower) & ~equal
            above = np.isfinite(self._upper) & ~equal
            constraints = [self._A[equal] @ z == self._lower[equal], self._A[below] @ z >= self._lower[below],
                           self._A[above] @ z <= self._upper[above]]
            problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(z[: self._n] - y)), constraints)
            self._fallback = (problem, y, z)
        problem, y, z = self._fallback
        y.value = target
        problem.solve(solver=cp.CLARABEL, **CLARABEL_SETTINGS)
        if z.value is None:
            raise RuntimeError(f"projection onto Δ(P_i) failed in both OSQP and Clarabel ({problem.status})")
        return np.array(z.value[: self._n])
