"""Visit counters, doubling epochs and the L1 confidence set of UC-O-GDPS (paper §5.1 eq. (10); Algorithm 3
lines 2-7 = Algorithm 4 lines 5-10).

Counters follow the paper: ``N_i(x, a)`` and ``M_i(x'|x, a)`` are the running counters of epoch ``i``; at the
start of epoch ``i`` they equal the totals of all earlier episodes, which are also the frozen counters
``N_{i-1}`` of the previous epoch. A new epoch starts after an episode in which some visited pair reaches
``N_i(x_k, a_k) >= max{1, 2 N_{i-1}(x_k, a_k)}``, and only then are ``P̄_i`` and ``ε_i`` recomputed from the
new epoch's initial counters.

The per-episode work is three compiled kernels (:func:`count_episode`, :func:`pair_doubled`,
:func:`confidence_set`) on the counters in place, shared by :class:`TransitionConfidence` and the compiled
episode loop of :mod:`regretlab.cmdp.simulate`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from regretlab.cmdp.occupancy import check_layer_sizes, layer_of_state
from regretlab.core.kernels import kernel


@kernel
def count_episode(N: np.ndarray, M: np.ndarray, trajectory: np.ndarray) -> None:
    """Algorithm 3 lines 2-3: add the ``(x_k, a_k, x_{k+1})`` rows of one episode to ``N`` and ``M``."""
    for k in range(trajectory.shape[0]):
        x, a, y = trajectory[k, 0], trajectory[k, 1], trajectory[k, 2]
        N[x, a] += 1
        M[x, a, y] += 1


@kernel
def pair_doubled(N: np.ndarray, N_start: np.ndarray, trajectory: np.ndarray) -> bool:
    """Algorithm 3 line 4: some visited pair has ``N_i(x_k, a_k) >= max{1, 2 N_{i-1}(x_k, a_k)}``."""
    for k in range(trajectory.shape[0]):
        x, a = trajectory[k, 0], trajectory[k, 1]
        if N[x, a] >= max(1, 2 * N_start[x, a]):
            return True
    return False


@kernel
def confidence_set(
    N_start: np.ndarray,
    M_start: np.ndarray,
    eps_numerator: np.ndarray,
    P_bar: np.ndarray,
    epsilon: np.ndarray,
) -> None:
    """Eq. (10) from the epoch's initial counters, into ``P_bar`` and ``epsilon`` (in place):
    ``P̄ = M / max{1, N}`` and ``ε = sqrt(eps_numerator[x] / max{1, N})``."""
    for x in range(N_start.shape[0]):
        for a in range(N_start.shape[1]):
            visits = max(1, N_start[x, a])
            for y in range(M_start.shape[2]):
                P_bar[x, a, y] = M_start[x, a, y] / visits
            epsilon[x, a] = np.sqrt(eps_numerator[x] / visits)


class TransitionConfidence:
    """Counters and confidence set ``𝒫_i`` of eq. (10) for a CMDP with the given layers and actions.

    Attributes (shapes follow :mod:`regretlab.cmdp.occupancy`)
    ----------------------------------------------------------
    epoch : the epoch index ``i``, starting at 1.
    N, M : running counters ``N_i``, shape ``(|X|, |A|)``, and ``M_i``, shape ``(|X|, |A|, |X|)`` with
        ``M[x, a, x'] = M_i(x'|x, a)``.
    N_start, M_start : their values at the start of epoch ``i``, i.e. ``N_{i-1}`` and ``M_{i-1}``.
    P_bar, epsilon below are updated in place at every new epoch (copy them to keep an epoch's set).
    P_bar : ``(|X|, |A|, |X|)``, ``P̄_i(x'|x, a) = M_i(x'|x, a) / max{1, N_i(x, a)}`` from ``N_start``,
        ``M_start``.
    epsilon : ``(|X|, |A|)``, ``ε_i(x, a) = sqrt(2 |X_{k(x)+1}| ln(T|X||A|/δ) / max{1, N_i(x, a)})`` from
        ``N_start``; zero in the terminal row.

    In epoch 1 all counters are 0, so ``P̄_1 = 0`` and ``||P̂(·|x, a) - P̄_1(·|x, a)||_1 = 1 <= ε_1(x, a)`` for
    every transition ``P̂`` (``ε_1 >= sqrt(2 ln 2) > 1`` because ``T|X||A|/δ > |X| >= 2``): eq. (10) then gives
    the set of all transition functions that Algorithm 4 (line 2) prescribes for ``𝒫_1``.
    """

    def __init__(self, layer_sizes: Sequence[int], n_actions: int, T: int, delta: float) -> None:
        if T < 1 or not 0.0 < delta < 1.0:
            raise ValueError(f"need T >= 1 and delta in (0, 1), got T={T}, delta={delta}")
        self.layer_sizes = check_layer_sizes(layer_sizes)
        n_states = sum(self.layer_sizes)
        k = layer_of_state(self.layer_sizes)
        next_layer_size = np.array([*self.layer_sizes[1:], 0], dtype=float)[k]
        self._eps_numerator = 2.0 * next_layer_size * math.log(T * n_states * n_actions / delta)
        self._eps_numerator.setflags(write=False)
        self.epoch = 1
        self.N = np.zeros((n_states, n_actions), dtype=np.int64)
        self.M = np.zeros((n_states, n_actions, n_states), dtype=np.int64)
        self.N_start = self.N.copy()
        self.M_start = self.M.copy()
        self.P_bar = np.zeros(self.M.shape)
        self.epsilon = np.zeros(self.N.shape)
        self._last = np.empty((0, 3), dtype=np.int64)
        confidence_set(self.N_start, self.M_start, self._eps_numerator, self.P_bar, self.epsilon)

    @property
    def eps_numerator(self) -> np.ndarray:
        """``2 |X_{k(x)+1}| ln(T|X||A|/δ)`` per state ``x``, shape ``(|X|,)`` (read-only)."""
        return self._eps_numerator

    def observe(self, trajectory: np.ndarray) -> None:
        """Add one episode's ``(x_k, a_k, x_{k+1})`` rows (shape ``(L, 3)``) to ``N_i`` and ``M_i``."""
        self._last = np.ascontiguousarray(trajectory, dtype=np.int64)
        count_episode(self.N, self.M, self._last)

    def maybe_new_epoch(self) -> bool:
        """Algorithm 3 lines 4-7: start epoch ``i + 1`` if a pair of the last observed episode doubled.

        Returns whether a new epoch started (and ``P_bar``, ``epsilon`` changed, in place).
        """
        if not pair_doubled(self.N, self.N_start, self._last):
            return False
        self.epoch += 1
        self.N_start[...] = self.N
        self.M_start[...] = self.M
        confidence_set(self.N_start, self.M_start, self._eps_numerator, self.P_bar, self.epsilon)
        return True

    def get_state(self) -> dict:
        """Copies of everything that changes in a run (for a snapshot, :mod:`regretlab.core.snapshots`)."""
        arrays = ("N", "M", "N_start", "M_start", "P_bar", "epsilon", "_last")
        return {"epoch": self.epoch, **{name: getattr(self, name).copy() for name in arrays}}

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s values, in place (views of these arrays stay valid)."""
        self.epoch = int(state["epoch"])
        for name in ("N", "M", "N_start", "M_start", "P_bar", "epsilon"):
            np.copyto(getattr(self, name), state[name])
        self._last = np.array(state["_last"], dtype=np.int64)
