"""Per-round bookkeeping shared by every bandit kernel (the checkpoint grid is
:mod:`regretlab.core.checkpoints`).

A run records, at each checkpoint t, the pseudo-regret Σ_{s≤t} ⟨p_s, ℓ_s⟩ − min_i L_{t,i}, the realised
regret Σ_{s≤t} ℓ_{s,i_s} − min_i L_{t,i}, L* = min_i L_{t,i} and i* (paper 001, §2: Reg = Reg_{i*} against
the best arm in hindsight of the losses so far). Memory is O(K + number of checkpoints), whatever T.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from regretlab.core.kernels import kernel

#: Columns of the checkpoint record array, in order.
RECORD_COLUMNS = ("pseudo_regret", "realized_regret", "L_star", "best_arm")
#: Per-arm columns (paper 001 §4: Theorems 7, 8, 17, 18 bound Reg_i for every arm i): the pseudo-regret
#: Σ_{s≤t} ⟨p_s, ℓ_s⟩ − L_{t,i} against the best arm of S and of S̄ at t, their total losses, and
#: L_D = (1/d) Σ_{i∈D} L_{t,i} over the graph's minimum weakly dominating set D. NaN where S, S̄ or D is empty.
PER_ARM_COLUMNS = ("regret_best_S", "regret_best_Sbar", "L_best_S", "L_best_Sbar", "L_D")


def per_arm_record(cum_loss: np.ndarray, expected_loss: float, in_s: np.ndarray, in_d: np.ndarray) -> tuple:
    """The :data:`PER_ARM_COLUMNS` at one checkpoint from L_{t,·} and Σ_{s≤t} ⟨p_s, ℓ_s⟩.

    The best arm of S (of S̄) is the best in hindsight of the losses so far, as for ``pseudo_regret``.
    """
    best_s = cum_loss[in_s].min() if in_s.any() else np.nan
    best_s_bar = cum_loss[~in_s].min() if (~in_s).any() else np.nan
    l_d = cum_loss[in_d].mean() if in_d.any() else np.nan
    return expected_loss - best_s, expected_loss - best_s_bar, best_s, best_s_bar, l_d


class Tracker(NamedTuple):
    """A run's bookkeeping: the arrays :func:`track_round` updates in place, handed to every kernel as one
    argument. :meth:`start` makes an empty one.

    Attributes:
        cum_loss: ``(K,)`` L_{t,i}, each arm's total loss so far.
        sums: ``(2,)`` Σ_{s≤t} ⟨p_s, ℓ_s⟩ and Σ_{s≤t} ℓ_{s,i_s}.
        checkpoints: ``(n,)`` int64, the rounds to record, increasing.
        position: ``(1,)`` int64, the index of the next checkpoint to fill.
        records: ``(n, len(RECORD_COLUMNS))`` the :data:`RECORD_COLUMNS` at each checkpoint (NaN until then).
    """

    cum_loss: np.ndarray
    sums: np.ndarray
    checkpoints: np.ndarray
    position: np.ndarray
    records: np.ndarray

    @classmethod
    def start(cls, n_arms: int, checkpoints: np.ndarray) -> Tracker:
        """Nothing played yet, ``checkpoints`` to record."""
        checkpoints = np.ascontiguousarray(checkpoints, dtype=np.int64)
        return cls(
            cum_loss=np.zeros(n_arms),
            sums=np.zeros(2),
            checkpoints=checkpoints,
            position=np.zeros(1, dtype=np.int64),
            records=np.full((checkpoints.size, len(RECORD_COLUMNS)), np.nan),
        )

    @property
    def complete(self) -> bool:
        """True once every checkpoint has been recorded."""
        return bool(self.position[0] == self.checkpoints.size)


@kernel
def sample_arm(p: np.ndarray, u: float) -> int:
    """Inverse-CDF sample of an arm from distribution ``p`` with a uniform ``u`` in [0, 1)."""
    acc = 0.0
    last = p.shape[0] - 1
    for i in range(last):
        acc += p[i]
        if u < acc:
            return i
    return last


@kernel
def track_round(t, loss, p, arm, tracker):
    """Account round ``t`` (1-based) in ``tracker`` (:class:`Tracker`): losses ``loss (K,)``, distribution
    ``p (K,)``, played ``arm``."""
    cum_loss, sums, checkpoints, position, records = tracker
    expected = 0.0
    for i in range(loss.shape[0]):
        expected += p[i] * loss[i]
        cum_loss[i] += loss[i]
    sums[0] += expected
    sums[1] += loss[arm]
    k = position[0]
    if k < checkpoints.shape[0] and checkpoints[k] == t:
        best = 0
        for i in range(1, cum_loss.shape[0]):
            if cum_loss[i] < cum_loss[best]:
                best = i
        l_star = cum_loss[best]
        records[k, 0] = sums[0] - l_star
        records[k, 1] = sums[1] - l_star
        records[k, 2] = l_star
        records[k, 3] = best
        position[0] = k + 1
