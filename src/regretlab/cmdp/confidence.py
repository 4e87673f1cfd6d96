"""Visit counters, doubling epochs and the L1 confidence set of UC-O-GDPS (paper §5.1 eq. (10); Algorithm 3
lines 2-7 = Algorithm 4 lines 5-10).

Counters follow the paper: ``N_i(x, a)`` and ``M_i(x'|x, a)`` are the running counters of epoch ``i``; at the
start of epoch ``i`` they equal the totals of all earlier episodes, which are also the frozen counters
``N_{i-1}`` of the previous epoch. A new epoch starts after an episode in which some visited pair reaches
``N_i(x_k, a_k) >= max{1, 2 N_{i-1}(x_k, a_k)}``, and only then are ``P̄_i`` and ``ε_i`` recomputed from the
new epoch's initial counters.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from regretlab.cmdp.occupancy import check_layer_sizes, layer_of_state


class TransitionConfidence:
    """Counters and confidence set ``𝒫_i`` of eq. (10) for a CMDP with the given layers and actions.

    Attributes (shapes follow :mod:`regretlab.cmdp.occupancy`)
    ----------------------------------------------------------
    epoch : the epoch index ``i``, starting at 1.
    N, M : running counters ``N_i``, shape ``(|X|, |A|)``, and ``M_i``, shape ``(|X|, |A|, |X|)`` with
        ``M[x, a, x'] = M_i(x'|x, a)``.
    N_start, M_start : their values at the start of epoch ``i``, i.e. ``N_{i-1}`` and ``M_{i-1}``.
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
        self._eps_numerator = 2.0 * next_layer_size * np.log(T * n_states * n_actions / delta)
        self.epoch = 1
        self.N = np.zeros((n_states, n_actions), dtype=np.int64)
        self.M = np.zeros((n_states, n_actions, n_states), dtype=np.int64)
        self.N_start = self.N.copy()
        self.M_start = self.M.copy()
        self._last_pairs = np.empty((0, 2), dtype=np.int64)
        self._update_confidence_set()

    def _update_confidence_set(self) -> None:
        """Eq. (10) from the epoch's initial counters."""
        visits = np.maximum(1, self.N_start)
        self.P_bar = self.M_start / visits[:, :, None]
        self.epsilon = np.sqrt(self._eps_numerator[:, None] / visits)

    def observe(self, trajectory: np.ndarray) -> None:
        """Add one episode's ``(x_k, a_k, x_{k+1})`` rows (shape ``(L, 3)``) to ``N_i`` and ``M_i``."""
        trajectory = np.asarray(trajectory, dtype=np.int64)
        x, a, x_next = trajectory.T
        np.add.at(self.N, (x, a), 1)
        np.add.at(self.M, (x, a, x_next), 1)
        self._last_pairs = trajectory[:, :2]

    def maybe_new_epoch(self) -> bool:
        """Algorithm 3 lines 4-7: start epoch ``i + 1`` if a pair of the last observed episode doubled.

        Returns whether a new epoch started (and ``P_bar``, ``epsilon`` changed).
        """
        x, a = self._last_pairs.T
        if not np.any(self.N[x, a] >= np.maximum(1, 2 * self.N_start[x, a])):
            return False
        self.epoch += 1
        self.N_start = self.N.copy()
        self.M_start = self.M.copy()
        self._update_confidence_set()
        return True
