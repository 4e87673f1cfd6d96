"""The evaluator's compiled kernels for :mod:`regretlab.cmdp.simulate`: what only the evaluator knows.

The true occupancy of the played policy (:func:`true_occupancy`, :func:`occupancy_into`), the trajectory drawn
from uniforms (:func:`trajectory_into`), twins of :func:`~regretlab.cmdp.occupancy.occupancy_from_policy` and
:func:`~regretlab.cmdp.occupancy.sample_trajectory` tested equal; best responses under the true ``P`` by
dynamic programming (:func:`best_response_values`); the check that a confidence set of eq. (10) contains ``P``
(:func:`coverage_check`, Lemma 5); and the running sums of one episode (:func:`track_episode`,
:func:`episode_sums`), whose slots are the record's columns (:mod:`regretlab.cmdp.simulate`'s docstring).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from regretlab.core.kernels import kernel


def layer_starts(layer_sizes: Sequence[int]) -> np.ndarray:
    """First flat index of every layer ``X_0, ..., X_L``, then ``|X|``: an int array of length ``L + 2``."""
    return np.concatenate([[0], np.cumsum(layer_sizes)]).astype(np.int64)


@njit(cache=True)
def true_occupancy(
    P: np.ndarray, pi: np.ndarray, starts: np.ndarray, q: np.ndarray, q_pairs: np.ndarray
) -> None:
    """Compiled :func:`~regretlab.cmdp.occupancy.occupancy_from_policy`: ``q^{P,π}`` into the preallocated
    ``q`` ``(|X|, |A|, |X|)`` (triples, eq. (1)) and ``q_pairs`` ``(|X|, |A|)`` (eq. (2)).
    """
    occupancy_into(P, pi, starts, q, q_pairs, np.empty(P.shape[0]))


@kernel
def occupancy_into(
    P: np.ndarray, pi: np.ndarray, starts: np.ndarray, q: np.ndarray, q_pairs: np.ndarray, state: np.ndarray
) -> None:
    """:func:`true_occupancy` with the state occupancies ``q(x)`` in the caller's buffer ``state`` ``(|X|,)``
    (left as ``q(x)`` on return)."""
    q[:] = 0.0
    state[:] = 0.0
    state[0] = 1.0
    for k in range(starts.shape[0] - 2):
        for x in range(starts[k], starts[k + 1]):
            for a in range(P.shape[1]):
                pair = state[x] * pi[x, a]
                q_pairs[x, a] = pair
                for y in range(starts[k + 1], starts[k + 2]):
                    q[x, a, y] = pair * P[x, a, y]
                    state[y] += q[x, a, y]
    q_pairs[starts[-2] :] = 0.0


@kernel
def _inverse_cdf(weights: np.ndarray, u: float) -> int:
    """The index :func:`~regretlab.cmdp.occupancy._draw` returns for the uniform ``u`` (same arithmetic)."""
    total = 0.0
    for w in weights:
        total += w
    target = u * total
    acc = 0.0
    for i in range(weights.shape[0]):
        acc += weights[i]
        if acc > target:
            return i
    return weights.shape[0] - 1


@njit(cache=True)
def trajectory_from_uniforms(P: np.ndarray, pi: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Compiled :func:`~regretlab.cmdp.occupancy.sample_trajectory` from its ``2L`` uniforms, in the order it
    draws them (``a_k`` then ``x_{k+1}``), so ``rng.random(2 * L)`` gives the rows it would give with ``rng``.
    """
    trajectory = np.empty((uniforms.shape[0] // 2, 3), dtype=np.int64)
    trajectory_into(P, pi, uniforms, trajectory)
    return trajectory


@kernel
def trajectory_into(P: np.ndarray, pi: np.ndarray, uniforms: np.ndarray, trajectory: np.ndarray) -> None:
    """:func:`trajectory_from_uniforms` into the preallocated ``(L, 3)`` int array ``trajectory``."""
    n_steps = uniforms.shape[0] // 2
    x = 0
    for k in range(n_steps):
        a = _inverse_cdf(pi[x], uniforms[2 * k])
        x_next = _inverse_cdf(P[x, a], uniforms[2 * k + 1])
        trajectory[k, 0] = x
        trajectory[k, 1] = a
        trajectory[k, 2] = x_next
        x = x_next


@njit(cache=True)
def best_response_values(P: np.ndarray, starts: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """``min_{q ∈ Δ(M)} ℓ^T q`` for every loss of the batch ``losses`` ``(B, |X|, |A|)``; returns ``(B,)``.

    Backward induction under the true ``P``: ``V(x_L) = 0``, ``V(x) = min_a [ℓ(x, a) + Σ_{x'} P(x'|x, a)
    V(x')]``; the minimum is ``V(x_0)`` (every valid occupancy is ``q^{P,π}`` of some policy, Lemma 1).
    """
    out = np.empty(losses.shape[0])
    best_responses_into(P, starts, losses, losses.shape[0], np.zeros(P.shape[0]), out)
    return out


@kernel
def best_responses_into(
    P: np.ndarray, starts: np.ndarray, losses: np.ndarray, count: int, values: np.ndarray, out: np.ndarray
) -> None:
    """:func:`best_response_values` of the first ``count`` losses into ``out``; ``values`` ``(|X|,)`` is the
    value function's buffer (its terminal entry must be 0)."""
    for b in range(count):
        for k in range(starts.shape[0] - 3, -1, -1):
            for x in range(starts[k], starts[k + 1]):
                best = np.inf
                for a in range(P.shape[1]):
                    value = losses[b, x, a]
                    for y in range(starts[k + 1], starts[k + 2]):
                        value += P[x, a, y] * values[y]
                    best = min(best, value)
                values[x] = best
        out[b] = values[0]


@kernel
def coverage_check(P: np.ndarray, P_bar: np.ndarray, epsilon: np.ndarray) -> tuple[bool, float]:
    """Whether the confidence set of eq. (10) with centre ``P̄`` and radii ``ε`` contains ``P``
    (``||P(·|x, a) - P̄(·|x, a)||_1 <= ε(x, a)`` for every non-terminal pair, Lemma 5), and the largest
    ratio ``||P(·|x, a) - P̄(·|x, a)||_1 / ε(x, a)`` (``0/0 = 0``, ``d/0 = inf``)."""
    covered = True
    ratio = 0.0
    for x in range(P.shape[0] - 1):
        for a in range(P.shape[1]):
            distance = 0.0
            for y in range(P.shape[2]):
                distance += abs(P[x, a, y] - P_bar[x, a, y])
            if distance > epsilon[x, a]:
                covered = False
            if distance > 0.0:
                ratio = max(ratio, distance / epsilon[x, a] if epsilon[x, a] > 0.0 else np.inf)
    return covered, ratio


@njit(cache=True)
def contains(P: np.ndarray, P_bar: np.ndarray, epsilon: np.ndarray) -> bool:
    """Whether the confidence set of eq. (10) with centre ``P̄`` and radii ``ε`` contains ``P`` (Lemma 5)."""
    return coverage_check(P, P_bar, epsilon)[0]


#: Slots of :attr:`RunningSums.sums`.
(_REWARD, _PLAYED, _Q_ERROR, _ELL_BAR, _INTERVAL_MAX, _INTERVAL_BOUND, _RATIO_MAX, _DUAL_REGRET, _CLIPPED) = (
    range(9)
)


class EvaluatorSetup(NamedTuple):
    """The evaluator's constants: the true transitions, which the learner never sees, and Theorem 3's bound.

    Attributes:
        P: ``(|X|, |A|, |X|)`` the true transition function.
        starts: ``(L + 2,)`` int64, :func:`layer_starts` of the layered state space.
        per_ell_interval: ``(number of levels,)`` Theorem 3's right-hand side (line 305) on a dyadic interval
            of level ``s`` (``2^s`` episodes) per unit of ``ℓ̄_{t1,t2}``: ``E^q_δ + (|X||A|/2) 2^s / (C√T)``.
        regret_offset: ``L C √T``, the factor of ``ℓ̄_{t2}`` in that bound.
    """

    P: np.ndarray
    starts: np.ndarray
    per_ell_interval: np.ndarray
    regret_offset: float


class RunningSums(NamedTuple):
    """The running sums over the episodes so far, updated in place by :func:`episode_sums` (the record's
    columns are read from them, :mod:`regretlab.cmdp.simulate`).

    Attributes:
        sums: ``(9,)`` reward ``Σ r_τ^T q_τ``, played loss ``Σ ℓ_τ^T q_τ``, ``Σ ||q_τ - q̂_τ||_1`` (triples,
            Lemma 2), ``ℓ̄_t``, the largest dyadic-interval regret, its bound, the largest ratio of the two,
            ``R^D_t(0)`` and the clipped dual steps (slots ``_REWARD`` ... ``_CLIPPED``; the last two are
            written by the episode loop).
        violation: ``(m,)`` ``Σ G_τ^T q_τ`` (Definition 3, eq. (8)).
        cum_loss: ``(|X|, |A|)`` ``Σ ℓ_τ``.
        level_loss: ``(number of levels, |X|, |A|)`` ``Σ ℓ_τ`` over the open dyadic interval of each level.
        level_played: ``(number of levels,)`` ``Σ ℓ_τ^T q_τ`` over it.
        level_ell: ``(number of levels,)`` ``ℓ̄_{t1,t}`` over it.
        violation_hat: ``(m,)`` ``V̂_t = Σ G_τ^T q̂_τ``, the estimated violation the dual steps on (Lemma 14,
            line 1017; written by the episode loop).
    """

    sums: np.ndarray
    violation: np.ndarray
    cum_loss: np.ndarray
    level_loss: np.ndarray
    level_played: np.ndarray
    level_ell: np.ndarray
    violation_hat: np.ndarray


class EvaluatorScratch(NamedTuple):
    """Per-episode buffers of the evaluator (nothing is allocated per episode).

    Attributes:
        q: ``(|X|, |A|, |X|)`` the true occupancy ``q^{P,π_t}`` of the played policy (triples, eq. (1)).
        q_pairs: ``(|X|, |A|)`` its pair view (eq. (2)).
        occupancy: ``(|X|,)`` the state occupancies ``q(x)`` (:func:`occupancy_into`'s ``state``).
        values: ``(|X|,)`` the best responses' value function (its terminal entry must be 0).
        regrets: ``(number of levels,)`` the regrets of the dyadic intervals that end.
    """

    q: np.ndarray
    q_pairs: np.ndarray
    occupancy: np.ndarray
    values: np.ndarray
    regrets: np.ndarray


@njit(cache=True)
def track_episode(t, r, G, loss, q, q_pairs, q_hat, setup, running):
    """Account episode ``t`` (1-based) in the running sums ``running`` (:class:`RunningSums`), in place.

    ``r`` ``(|X|, |A|)``, ``G`` ``(m, |X|, |A|)``, the loss ``ℓ_t`` fed to the primal, the true occupancy
    ``q`` (triples) and ``q_pairs``, and ``q̂_t`` (triples); ``setup`` is the :class:`EvaluatorSetup`. The
    dyadic levels ``s`` with ``2^s | t`` end here, get their regret (against the dynamic-programming best
    response) and Theorem 3's bound ``level_ell · per_ell_interval + ℓ̄_t · regret_offset`` (line 305), and
    restart. (:func:`episode_sums` with buffers of its own.)
    """
    n_states, n_levels = setup.P.shape[0], running.level_played.shape[0]
    scratch = EvaluatorScratch(q, q_pairs, np.empty(n_states), np.zeros(n_states), np.empty(n_levels))
    episode_sums(t, r, G, loss, q_hat, setup, running, scratch)


@kernel(inline="always")
def episode_sums(t, r, G, loss, q_hat, setup, running, scratch):
    """:func:`track_episode` with the true occupancy in ``scratch.q`` and ``scratch.q_pairs`` and the
    caller's buffers ``scratch`` (:class:`EvaluatorScratch`). Allocates nothing."""
    P, starts = setup.P, setup.starts
    per_ell_interval, regret_offset = setup.per_ell_interval, setup.regret_offset
    sums, violation, cum_loss = running.sums, running.violation, running.cum_loss
    level_loss, level_played, level_ell = running.level_loss, running.level_played, running.level_ell
    q, q_pairs, values, regrets = scratch.q, scratch.q_pairs, scratch.values, scratch.regrets
    error = 0.0
    for i in range(q.size):
        error += abs(q.flat[i] - q_hat.flat[i])
    sums[_Q_ERROR] += error
    reward = 0.0
    played = 0.0
    ell = 0.0
    for x in range(q_pairs.shape[0]):
        for a in range(q_pairs.shape[1]):
            reward += r[x, a] * q_pairs[x, a]
            played += loss[x, a] * q_pairs[x, a]
            ell = max(ell, abs(loss[x, a]))
            cum_loss[x, a] += loss[x, a]
            for i in range(violation.shape[0]):
                violation[i] += G[i, x, a] * q_pairs[x, a]
    sums[_REWARD] += reward
    sums[_PLAYED] += played
    sums[_ELL_BAR] = max(sums[_ELL_BAR], ell)
    closing = 0
    while closing < level_played.shape[0] and t % (1 << closing) == 0:
        closing += 1
    for s in range(level_played.shape[0]):
        for x in range(loss.shape[0]):
            for a in range(loss.shape[1]):
                level_loss[s, x, a] += loss[x, a]
        level_played[s] += played
        level_ell[s] = max(level_ell[s], ell)
    best_responses_into(P, starts, level_loss, closing, values, regrets)
    for s in range(closing):
        regrets[s] = level_played[s] - regrets[s]
    for s in range(closing):
        limit = level_ell[s] * per_ell_interval[s] + sums[_ELL_BAR] * regret_offset
        if regrets[s] > sums[_INTERVAL_MAX]:
            sums[_INTERVAL_MAX] = regrets[s]
            sums[_INTERVAL_BOUND] = limit
        if limit > 0:
            sums[_RATIO_MAX] = max(sums[_RATIO_MAX], regrets[s] / limit)
        level_loss[s, :, :] = 0.0
        level_played[s] = 0.0
        level_ell[s] = 0.0
