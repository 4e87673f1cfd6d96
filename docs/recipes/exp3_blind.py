"""Exp3 that ignores the graph's side observations: the template of a bandit learner, in plain Python.

Exp3 with loss estimates on the played arm only (ℓ̂_{t,i} = ℓ_{t,i} 1{i_t = i}/p_{t,i}) and exponential
weights p_{t,i} ∝ exp(−η L̂_{t−1,i}), η = √(2 ln K/(KT)). It reads only the played arm's own loss, so it is
valid where every node has a self-loop (self-aware graphs) and learns nothing from the graph's other edges: a
baseline for the graph-feedback learners of paper 001. For every fixed loss sequence in [0, 1] and every arm
k, the exponential-weights inequality for nonnegative estimates gives
Σ_t ⟨p_t, ℓ_t⟩ − L_k ≤ ln K/η + (η/2) Σ_t Σ_i p_{t,i} E ℓ̂²_{t,i} ≤ ln K/η + ηKT/2 = √(2KT ln K) in
expectation over the learner's draws.

It meets the contract of :class:`regretlab.bandits.learner.BanditLearner` with no numba: tens of
thousands of rounds per second (docs/add-an-algorithm.md). Copy it to ``src/regretlab/bandits/`` and
register it to run it.
"""

from __future__ import annotations

import math

import numpy as np

from regretlab.bandits.presets import require_preset
from regretlab.bandits.tracking import Tracker, track_round
from regretlab.graphs.feedback_graph import FeedbackGraph


class Exp3Blind:
    """Exp3 on the played arm's loss alone. ``constants="paper"``: η = √(2 ln K/(KT))."""

    presets = ("paper",)

    def __init__(self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str) -> None:
        require_preset("exp3_blind", self.presets, constants)
        if not graph.is_self_aware:
            raise ValueError("exp3_blind observes only the played arm's loss: every node needs a self-loop")
        k = graph.n_arms
        self.eta = math.sqrt(2.0 * math.log(k) / (k * horizon))
        self._estimates = np.zeros(k)  # L̂_{t,i}, the importance-weighted total losses
        self._rng = rng
        self.params = {"eta": self.eta}
        self.hypotheses = {}  # the bound above holds for every η > 0: no condition to check

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Rounds ``t0 + 1 … t0 + n`` whose losses are ``losses (n, K)``."""
        uniforms = self._rng.random(losses.shape[0])
        last = losses.shape[1] - 1
        for r, loss in enumerate(losses):
            p = np.exp(-self.eta * (self._estimates - self._estimates.min()))
            p /= p.sum()
            arm = min(int(np.searchsorted(np.cumsum(p), uniforms[r], side="right")), last)
            track_round(t0 + r + 1, loss, p, arm, tracker)  # every round, before the update
            self._estimates[arm] += loss[arm] / p[arm]  # the only loss this learner observes
