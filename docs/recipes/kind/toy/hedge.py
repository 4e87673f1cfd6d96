"""Hedge (exponential weights) on full-information losses in [0, 1]: with η = √(8 ln K / T) its regret to the
best arm is at most √(T ln K / 2) on every loss sequence (Cesa-Bianchi & Lugosi 2006, Theorem 2.2)."""

from __future__ import annotations

import math

import numpy as np


def learning_rate(n_arms: int, horizon: int) -> float:
    """η = √(8 ln K / T)."""
    return math.sqrt(8 * math.log(n_arms) / horizon)


class Hedge:
    """The learner: ``act()`` returns p_t (K,) on the simplex, ``update(losses)`` takes ℓ_t (K,)."""

    def __init__(self, n_arms: int, horizon: int) -> None:
        self.eta = learning_rate(n_arms, horizon)
        self.totals = np.zeros(n_arms)
        self.params = {"eta": self.eta}
        self.hypotheses = {"losses in [0, 1]": True}

    def act(self) -> np.ndarray:
        weights = np.exp(-self.eta * (self.totals - self.totals.min()))
        return weights / weights.sum()

    def update(self, losses: np.ndarray) -> None:
        self.totals += losses
