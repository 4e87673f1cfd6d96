"""The epoch ends of a learner that restarts (Algorithms 4, 6 and 7 of paper 001): the tracker's totals at
each reset round, so that a rate can be fitted at epoch ends (:mod:`regretlab.analysis.epoch_ends`) instead of
at checkpoints that fall anywhere inside an epoch.

A restarting learner's regret is a staircase: each epoch starts again from p_1 and pays its own warm-up
(the proofs bound the regret epoch by epoch and sum: Theorem 13, lines 695–749; Theorem 17, lines 1127–1175;
Theorem 18, lines 1339–1427). A slope through checkpoints
measures where they fall on the steps; the regret at the rounds where epochs end does not.

The kernel (:func:`record_epoch_end`) copies, at the reset test's round t, the totals the tracker holds after
round t — Σ_{s≤t} ⟨p_s, ℓ_s⟩ and L_{t,i} for every arm — into one row of the learner's buffer; the learner's
``params["epoch_ends"]`` turns the rows into the run table's metrics at t (:func:`epoch_end_records`).
"""

from __future__ import annotations

import math

import numpy as np

from regretlab.bandits.tracking import PER_ARM_COLUMNS, per_arm_record
from regretlab.core.kernels import kernel


def arm_sets(graph) -> tuple[np.ndarray, np.ndarray]:
    """``(in_s, in_d)``: the masks of S and of the minimum weakly dominating set D over the graph's arms, the
    sets the per-arm metrics compare with (:func:`~regretlab.bandits.tracking.per_arm_record`)."""
    in_s = np.zeros(graph.n_arms, dtype=bool)
    in_s[graph.S] = True
    in_d = np.zeros(graph.n_arms, dtype=bool)
    in_d[list(graph.weakly_dominating_set.members)] = True
    return in_s, in_d


def epoch_end_buffer(max_resets: int, n_arms: int) -> np.ndarray:
    """``(max_resets, K + 2)`` zeros: per reset, [t, Σ_{s≤t} ⟨p_s, ℓ_s⟩, L_{t,1}, …, L_{t,K}]."""
    return np.zeros((max_resets, n_arms + 2))


@kernel
def record_epoch_end(t, tracker, row):
    """Write round ``t``'s totals (after ``track_round(t, …)``) into ``row`` (one row of
    :func:`epoch_end_buffer`)."""
    row[0] = t
    row[1] = tracker.sums[0]
    for i in range(tracker.cum_loss.shape[0]):
        row[2 + i] = tracker.cum_loss[i]


def epoch_end_records(buffer: np.ndarray, n_resets: int, sets: tuple[np.ndarray, np.ndarray]) -> list[dict]:
    """The run table's metrics at each epoch end recorded in ``buffer`` after ``n_resets`` resets (a learner
    stops recording once its buffer is full), with ``sets`` = :func:`arm_sets`: ``t``, ``pseudo_regret`` and
    ``L_star`` (against the best arm in hindsight of the losses up to t, as at a checkpoint) and the defined
    :data:`~regretlab.bandits.tracking.PER_ARM_COLUMNS` (those NaN on the graph, e.g. S̄ = ∅, are left out)."""
    in_s, in_d = sets
    records = []
    for row in buffer[: min(n_resets, buffer.shape[0])]:
        cum_loss, expected = row[2:], float(row[1])
        per_arm = dict(zip(PER_ARM_COLUMNS, per_arm_record(cum_loss, expected, in_s, in_d), strict=True))
        record = {"t": int(row[0]), "pseudo_regret": expected - float(cum_loss.min()),
                  "L_star": float(cum_loss.min())}  # fmt: skip
        record.update({name: float(value) for name, value in per_arm.items() if not math.isnan(value)})
        records.append(record)
    return records
