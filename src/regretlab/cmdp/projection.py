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

Modules: this one holds the projector (:class:`ConfidenceSetProjector`) and its compiled entry points;
:mod:`regretlab.cmdp.pair_projection` the pair QP ``Π_{K_{x,a}}``, :mod:`regretlab.cmdp.flow_newton` the
Newton solver on ``ν`` and :mod:`regretlab.cmdp.projection_fallbacks` the OSQP and Clarabel fallbacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from regretlab.cmdp.flow_newton import (
    SUCCESS,
    NewtonScratch,
    Pieces,
    PolytopeArrays,
    copy_into,
    empty_pieces,
    newton,
    newton_scratch,
)
from regretlab.cmdp.occupancy import check_layer_sizes, layer_of_state, support_mask
from regretlab.cmdp.projection_fallbacks import FallbackQP
from regretlab.core.kernels import kernel

#: Certificate: largest flow residual ``|F q - b|`` accepted.
FLOW_TOL = 1e-13
#: Newton steps per attempt (each tries up to ``MAX_RIDGES`` ridges until the step ascends).
MAX_NEWTON_STEPS = 60
MAX_RIDGES = 40
#: Ridge of the plain Newton step, relative to the largest diagonal entry of ``F J F^T``.
RIDGE = 1e-13

#: Slots of a projector's ``state`` array: whether ``ν`` comes from a certified projection of this epoch's
#: set (warm), how many confidence sets have been set (version) and which path solved the last call.
_WARM, _VERSION, _LAST = range(3)
#: Solver paths, in the order they are tried; the slots of the ``counts`` array, then the Newton steps.
PATHS = ("warm", "cold", "osqp", "clarabel")
_STEPS = len(PATHS)


class ProjectorArrays(NamedTuple):
    """The arrays of a :class:`ConfidenceSetProjector` that its compiled paths (:func:`project_newton`,
    :func:`reset_confidence_set`, the episode loop of :mod:`regretlab.cmdp.simulate`) work on, updated in
    place. ``n`` is the number of support triples (in ``(x, a, x')`` order), ``f`` of flow rows (``x_0`` then
    the interior states).

    Attributes:
        triples: ``(x, a, x')``, three ``(n,)`` int64 arrays: the layered support.
        polytope: ``Δ(𝒫_i)`` as flow rows and pair cones
            (:class:`~regretlab.cmdp.flow_newton.PolytopeArrays`).
        nu: ``(f,)`` ``ν``, the flow multipliers of the last certified projection.
        pieces: the pairs' pieces of ``Π_K`` (:class:`~regretlab.cmdp.flow_newton.Pieces`).
        where: ``(n_pairs,)`` int64, the slot of each pair's piece in use.
        state: ``(3,)`` int64, indexed by ``_WARM``, ``_VERSION`` and ``_LAST``.
        counts: ``(len(PATHS) + 1,)`` int64, calls per solver path, then the Newton steps.
        scratch: the Newton work arrays (:class:`~regretlab.cmdp.flow_newton.NewtonScratch`).
    """

    triples: tuple
    polytope: PolytopeArrays
    nu: np.ndarray
    pieces: Pieces
    where: np.ndarray
    state: np.ndarray
    counts: np.ndarray
    scratch: NewtonScratch


@kernel
def reset_confidence_set(P_bar: np.ndarray, epsilon: np.ndarray, arrays: ProjectorArrays) -> None:
    """Point a projector at a new ``𝒫_i`` (in place): ``P̄_i`` on the support ``triples`` ``(x, a, x')``,
    ``ε_i`` per non-terminal pair, no pieces and ``ν = 0`` (the next call starts cold), version + 1.
    ``P_bar``: ``(|X|, |A|, |X|)``; ``epsilon``: ``(|X|, |A|)``; ``arrays``: the projector's
    :class:`ProjectorArrays`."""
    x, a, y = arrays.triples
    P_t, eps_t = arrays.polytope.P_t, arrays.polytope.eps_t
    pieces, where, nu, state = arrays.pieces, arrays.where, arrays.nu, arrays.state
    for k in range(x.shape[0]):
        P_t[k] = P_bar[x[k], a[k], y[k]]
    n_actions = epsilon.shape[1]
    for p in range(eps_t.shape[0]):
        eps_t[p] = epsilon[p // n_actions, p % n_actions]
    N, K, J, W, reusable = pieces.N, pieces.K, pieces.J, pieces.W, pieces.reusable
    N[...] = 0.0
    K[...] = -1
    J[...] = 0.0
    W[...] = 0.0
    reusable[...] = False
    where[:] = 0
    nu[:] = 0.0
    state[_WARM] = 0
    state[_VERSION] += 1


@kernel(inline="always")
def project_newton(
    target: np.ndarray, arrays: ProjectorArrays, q: np.ndarray, max_steps: int, max_ridges: int
) -> bool:
    """The Newton paths of :meth:`ConfidenceSetProjector.project` on the support vector ``target``: from the
    previous ``ν`` when warm, then from ``ν = 0``. On success ``q`` holds the certified projection and ``nu``
    its flow multipliers; on failure the pieces are dropped and the caller goes on to OSQP. ``arrays`` are
    the projector's :class:`ProjectorArrays` and ``q`` ``(n,)`` a solution buffer (nothing is allocated)."""
    nu, pieces, state, counts, scratch = arrays.nu, arrays.pieces, arrays.state, arrays.counts, arrays.scratch
    trial = scratch.start
    for path in range(2):
        if path == 0 and state[_WARM] == 0:
            continue
        for i in range(nu.shape[0]):
            trial[i] = nu[i] if path == 0 else 0.0
        status, steps = newton(
            target,
            trial,
            q,
            arrays.polytope,
            pieces,
            arrays.where,
            scratch,
            max_steps,
            max_ridges,
            FLOW_TOL,
            RIDGE,
        )
        counts[_STEPS] += steps
        if status == SUCCESS:
            copy_into(nu, trial)
            counts[path] += 1
            state[_LAST] = path
            state[_WARM] = 1
            return True
        pieces.K[:] = -1  # a failed pair solve may have left a piece half written
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
        # Pieces of every pair's projection Π_K (flow_newton.Pieces): two slots per pair, the one in use in
        # _where.
        d = int(np.diff(self._starts).max())
        self._pieces = empty_pieces(n_pairs, d)
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
        self._polytope = PolytopeArrays(
            self._flow_rhs, self._starts, self._P_t, self._epsilon, self._out_row, self._in_row
        )
        self._arrays = ProjectorArrays(
            self._triples,
            self._polytope,
            self.flow_multipliers,
            self._pieces,
            self._where,
            self._state,
            self._counts,
            self._scratch,
        )
        self._built_version = -1
        self._qp: FallbackQP | None = None
        self.set_confidence_set(P_bar, epsilon)

    def set_confidence_set(self, P_bar: np.ndarray, epsilon: np.ndarray) -> None:
        """Project onto the set of eq. (10) with centre ``P_bar`` and radii ``epsilon`` from now on."""
        if np.shape(P_bar) != self._shape or np.shape(epsilon) != self._shape[:2]:
            raise ValueError(
                f"P_bar must have shape {self._shape} and epsilon {self._shape[:2]}, "
                f"got {np.shape(P_bar)} and {np.shape(epsilon)}"
            )
        reset_confidence_set(
            np.ascontiguousarray(P_bar, dtype=float), np.ascontiguousarray(epsilon, dtype=float), self._arrays
        )

    @property
    def kernel_arrays(self) -> ProjectorArrays:
        """The arrays :func:`project_newton` and :func:`reset_confidence_set` work on (in place)."""
        return self._arrays

    def get_state(self) -> dict:
        """Copies of every array that changes in a run (the current set, the multipliers, the pair pieces,
        the counters), for a snapshot (:mod:`regretlab.core.snapshots`). The fallback solvers are not part of
        it: they are rebuilt on first use after :meth:`set_state`, and each OSQP call starts from a fresh
        set-up (:meth:`_solve_osqp`), so that a resumed run's projections are those of an uninterrupted
        one."""
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
        """Build the fallbacks' QP, which depends on ``P̄_i``, for a new set (once per set, on first use)."""
        if self._built_version == self._state[_VERSION]:
            return
        self._qp = FallbackQP(self._flow, self._flow_rhs, self._pair_sum, self._P_t, self._epsilon)
        self._built_version = int(self._state[_VERSION])

    def _violation(self, q: np.ndarray) -> float:
        """Largest violation of the constraints of ``Δ(𝒫_i)`` by a vector over the support triples."""
        self._sync()
        budget = self._pair_sum @ np.abs(self._qp.deviation @ q) - self._epsilon * (self._pair_sum @ q)
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
            target, self._arrays, self._solution, MAX_NEWTON_STEPS, MAX_RIDGES
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
        status, steps = newton(
            target,
            nu,
            q,
            self._polytope,
            self._pieces,
            self._where,
            self._scratch,
            MAX_NEWTON_STEPS,
            MAX_RIDGES,
            FLOW_TOL,
            RIDGE,
        )
        self._counts[_STEPS] += steps
        if status != SUCCESS:
            self._pieces.K[:] = -1  # a failed pair solve may have left a piece half written
            return None
        self.flow_multipliers[:] = nu
        self._finish("osqp")
        return q

    def _solve_osqp(self, target: np.ndarray) -> np.ndarray | None:
        """OSQP's flow multipliers for ``target``, or ``None`` (:meth:`FallbackQP.osqp_multipliers`)."""
        self._sync()
        return self._qp.osqp_multipliers(target)

    def _solve_fallback(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``q`` and the flow multipliers for ``target`` by Clarabel (:meth:`FallbackQP.solve_clarabel`)."""
        self._sync()
        return self._qp.solve_clarabel(target)
