"""Offline linear programs over ``Δ(M)`` (paper §3.3 eq. (5) and §3.5), solved with HiGHS.

All programs work in the pair view ``q(x, a)`` of eq. (2) with the known transition ``P``: the valid
occupancies are ``q >= 0`` with ``Σ_a q(x_0, a) = 1`` and
``Σ_a q(x, a) = Σ_{x'', a''} P(x|x'', a'') q(x'', a'')`` for ``x ∈ X_1, ..., X_{L-1}``. With ``P^q = P``
imposed this way, Lemma 1's layer sums follow. Shapes follow :mod:`regretlab.cmdp.occupancy`: ``r`` is
``(|X|, |A|)``, a constraint matrix ``G`` is ``(m, |X|, |A|)`` (the paper's ``G ∈ [-1, 1]^{|X×A|×m}``
transposed, so ``[G^T q]_i = Σ_{x,a} G[i, x, a] q(x, a)``) and returned occupancies are pair views
``(|X|, |A|)`` with a zero row for ``x_L``.

Constraint convention (§3.1, last bullet; eq. (5)): ``G^T q <= 0`` is satisfaction, positive entries are
violation. The feasibility parameter ``ρ = max_q min_i -[G^T q]_i`` is the margin of the most strictly
feasible occupancy ``q°``; the paper assumes ``ρ ∈ [0, L]`` and a negative value returned here means that
the constraints are infeasible.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csr_matrix, hstack

#: HiGHS feasibility tolerances, tighter than the defaults so that ρ and OPT are accurate to ~1e-10.
_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def _flow_equalities(P: np.ndarray) -> tuple[csr_matrix, np.ndarray]:
    """``(A_eq, b_eq)`` of the valid-occupancy polytope over the decision pairs ``(x, a)``, ``x ≠ x_L``."""
    n_decision, n_actions = P.shape[0] - 1, P.shape[1]
    outflow = np.repeat(np.eye(n_decision), n_actions, axis=1)
    inflow = P[:-1, :, :-1].reshape(n_decision * n_actions, n_decision).T
    b_eq = np.zeros(n_decision)
    b_eq[0] = 1.0
    return csr_matrix(outflow - inflow), b_eq


def _as_pairs(z: np.ndarray, n_actions: int) -> np.ndarray:
    """Decision-pair LP variables to the pair view (HiGHS round-off below 0 clipped), plus the ``x_L`` row."""
    return np.vstack([np.maximum(z.reshape(-1, n_actions), 0.0), np.zeros((1, n_actions))])


def _solve(c: np.ndarray, A_ub, b_ub, A_eq, b_eq, bounds, what: str):
    """``linprog`` with HiGHS; infeasibility is the caller's error (``ValueError``), anything else a bug."""
    result = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs",
                     options=_HIGHS_OPTIONS)
    if result.status == 2:
        raise ValueError(f"{what}: the linear program is infeasible ({result.message})")
    if result.status != 0:
        raise RuntimeError(f"{what}: HiGHS failed with status {result.status} ({result.message})")
    return result


def solve_opt(P: np.ndarray, r: np.ndarray, G: np.ndarray) -> tuple[float, np.ndarray]:
    """``OPT_{r,G}`` and ``q*`` of eq. (5): ``max r^T q`` over ``q ∈ Δ(M)`` subject to ``G^T q <= 0``.

    Raises ``ValueError`` when no valid occupancy satisfies the constraints.
    """
    n_actions = P.shape[1]
    A_eq, b_eq = _flow_equalities(P)
    A_ub = G[:, :-1, :].reshape(G.shape[0], -1)
    result = _solve(-r[:-1].ravel(), A_ub, np.zeros(G.shape[0]), A_eq, b_eq, (0, None), "OPT_{r,G} (eq. 5)")
    return -float(result.fun), _as_pairs(result.x, n_actions)


def lagrange_multiplier(P: np.ndarray, r: np.ndarray, G: np.ndarray) -> np.ndarray:
    """``λ* ∈ R^m_{>=0}``, the Lagrange multiplier of ``G^T q <= 0`` in eq. (5), from the LP dual (HiGHS).

    ``λ*_i = ∂OPT/∂b_i`` for the relaxed constraint ``[G^T q]_i <= b_i`` at ``b = 0``; HiGHS reports the
    marginals of the minimisation of ``-r^T q``, which are ``-λ*``. Strong duality gives
    ``OPT = max_{q∈Δ(M)} r^T q - λ*^T G^T q`` (the Lagrangian of eq. (6) at ``λ*``), and ``λ* = 0`` exactly
    when the constraints do not bind. Raises ``ValueError`` when (5) is infeasible.
    """
    A_eq, b_eq = _flow_equalities(P)
    A_ub = G[:, :-1, :].reshape(G.shape[0], -1)
    result = _solve(-r[:-1].ravel(), A_ub, np.zeros(G.shape[0]), A_eq, b_eq, (0, None), "λ* of eq. (5)")
    return np.maximum(-np.asarray(result.ineqlin.marginals, dtype=float), 0.0)


def solve_unconstrained(P: np.ndarray, r: np.ndarray) -> tuple[float, np.ndarray]:
    """``max_{q∈Δ(M)} r^T q`` and its maximiser (eq. (5) without ``G^T q <= 0``), pair view."""
    A_eq, b_eq = _flow_equalities(P)
    result = _solve(-r[:-1].ravel(), None, None, A_eq, b_eq, (0, None), "unconstrained optimum")
    return -float(result.fun), _as_pairs(result.x, P.shape[1])


def _max_min_margin(P: np.ndarray, rows: np.ndarray, what: str) -> tuple[float, np.ndarray]:
    """``max_{q ∈ Δ(M)} min_j -rows[j]^T q`` as the LP ``max s`` s.t. ``s + rows q <= 0`` in ``(q, s)``."""
    n_actions = P.shape[1]
    A_eq, b_eq = _flow_equalities(P)
    A_eq = hstack([A_eq, csr_matrix((A_eq.shape[0], 1))])
    rows = rows[:, :-1, :].reshape(rows.shape[0], -1)
    A_ub = np.hstack([rows, np.ones((rows.shape[0], 1))])
    c = np.zeros(A_ub.shape[1])
    c[-1] = -1.0
    bounds = [(0, None)] * (A_ub.shape[1] - 1) + [(None, None)]
    result = _solve(c, A_ub, np.zeros(rows.shape[0]), A_eq, b_eq, bounds, what)
    return float(result.x[-1]), _as_pairs(result.x[:-1], n_actions)


def feasibility_parameter(P: np.ndarray, G: np.ndarray) -> tuple[float, np.ndarray]:
    """Stochastic-constraint ``ρ := max_{q∈Δ(M)} min_{i∈[m]} -[Ḡ^T q]_i`` and its maximiser ``q°`` (§3.5).

    ``G`` is the mean constraint matrix ``Ḡ``, shape ``(m, |X|, |A|)``.
    """
    return _max_min_margin(P, G, "rho (stochastic, §3.5)")


def feasibility_parameter_adversarial(
    P: np.ndarray, G_seq: Sequence[np.ndarray] | np.ndarray
) -> tuple[float, np.ndarray]:
    """Adversarial-constraint ``ρ := max_{q∈Δ(M)} min_{t∈[T]} min_{i∈[m]} -[G_t^T q]_i`` and ``q°`` (§3.5).

    ``G_seq`` stacks the per-episode constraint matrices ``G_1, ..., G_T``: shape ``(T, m, |X|, |A|)``, one LP
    row per ``(t, i)``. One ``q°`` has to keep a margin ``ρ`` against every ``G_t`` at once, so this ``ρ`` is
    at most the stochastic one computed from the average ``(1/T) Σ_t G_t``.
    """
    G_seq = np.asarray(G_seq, dtype=float)
    return _max_min_margin(P, G_seq.reshape(-1, *G_seq.shape[2:]), "rho (adversarial, §3.5)")
