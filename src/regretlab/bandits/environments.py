"""Loss environments: an oblivious adversary's loss sequence ℓ_1, …, ℓ_T ∈ [0, 1]^K (paper 001, §2).

An environment hands out its losses in chunks of rounds, drawn from a Generator the caller owns, so a run's
memory does not grow with T. It never sees the learner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StochasticBernoulli:
    """Independent Bernoulli losses, ``ℓ_{t,i} ~ Bernoulli(means[i])`` for every round and arm.

    Attributes:
        means: ``(K,)`` loss means in [0, 1]; the arm with the smallest mean is the best arm in expectation.
    """

    means: tuple[float, ...]

    def __post_init__(self) -> None:
        means = np.asarray(self.means, dtype=float)
        if means.ndim != 1 or means.size < 2 or not np.all((means >= 0) & (means <= 1)):
            raise ValueError(f"means must be at least two numbers in [0, 1], got {self.means}")

    @classmethod
    def with_best_arm(cls, n_arms: int, best_arm: int, best_mean: float, gap: float) -> StochasticBernoulli:
        """Arm ``best_arm`` has mean ``best_mean``; every other arm ``min(1, best_mean + gap)``.

        Sweeping ``best_mean`` from 0 to 1 sweeps the best arm's total loss L* from ~0 to ~T.
        """
        if not 0 <= best_arm < n_arms:
            raise ValueError(f"best_arm must be in [0, {n_arms - 1}], got {best_arm}")
        if not 0.0 <= best_mean <= 1.0:
            raise ValueError(f"best_mean must be in [0, 1], got {best_mean}")
        if gap < 0:
            raise ValueError(f"gap must be non-negative, got {gap}")
        means = np.full(n_arms, min(1.0, best_mean + gap))
        means[best_arm] = best_mean
        return cls(tuple(float(m) for m in means))

    @property
    def n_arms(self) -> int:
        """K."""
        return len(self.means)

    def draw(self, rng: np.random.Generator, n_rounds: int) -> np.ndarray:
        """The losses of the next ``n_rounds`` rounds, shape ``(n_rounds, K)``, values in {0, 1}."""
        return (rng.random((n_rounds, self.n_arms)) < np.asarray(self.means)).astype(np.float64)

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {"kind": "bernoulli", "means": list(self.means)}


def environment_from_dict(data: dict) -> StochasticBernoulli:
    """Rebuild an environment from :meth:`to_dict` output."""
    kinds = {"bernoulli": lambda d: StochasticBernoulli(tuple(d["means"]))}
    if data.get("kind") not in kinds:
        raise ValueError(f"unknown loss environment kind {data.get('kind')!r}; allowed: {sorted(kinds)}")
    return kinds[data["kind"]](data)
