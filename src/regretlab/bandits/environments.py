"""Loss environments: an oblivious adversary's loss sequence ℓ_1, …, ℓ_T ∈ [0, 1]^K (paper 001, §2).

An environment hands out its losses in chunks of rounds, drawn from a Generator the caller owns, so a run's
memory does not grow with T. The sequence depends only on that Generator and the round index, never on the
learner (oblivious adversary); an environment never sees the learner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from regretlab.bandits.lower_bound import Theorem5Construction, Theorem5Losses


def _check_arm(best_arm: int, n_arms: int) -> None:
    if not 0 <= best_arm < n_arms:
        raise ValueError(f"best_arm must be in [0, {n_arms - 1}], got {best_arm}")


def _check_mean(value: float, name: str) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")


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
        _check_arm(best_arm, n_arms)
        _check_mean(best_mean, "best_mean")
        if gap < 0:
            raise ValueError(f"gap must be non-negative, got {gap}")
        means = np.full(n_arms, min(1.0, best_mean + gap))
        means[best_arm] = best_mean
        return cls(tuple(float(m) for m in means))

    @property
    def n_arms(self) -> int:
        """K."""
        return len(self.means)

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Losses of rounds ``t0+1 … t0+n_rounds``, shape ``(n_rounds, K)``, values in {0, 1}."""
        return (rng.random((n_rounds, self.n_arms)) < np.asarray(self.means)).astype(np.float64)

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {"kind": "bernoulli", "means": list(self.means)}


@dataclass(frozen=True)
class SwitchingAdversary:
    """An oblivious adversary whose recent past misleads: a decoy arm looks best, and it keeps changing.

    The best arm ``best_arm`` has Bernoulli(``best_mean``) losses throughout. Time is cut into phases of
    ``period`` rounds; in phase k the decoy is the k-th of the other arms in cyclic order and has
    Bernoulli(``decoy_mean``) losses, while every other arm has loss 1. With ``decoy_mean < best_mean`` the
    decoy is the best arm within its phase, but over the whole game each other arm is the decoy for only a
    1/(K−1) share of the rounds, so ``best_arm`` stays best in hindsight (checked on construction) and L* can
    be swept through ``best_mean`` as in the stochastic case.
    """

    n_arms: int
    best_arm: int
    best_mean: float
    decoy_mean: float
    period: int

    def __post_init__(self) -> None:
        if self.n_arms < 3:
            raise ValueError(
                f"a switching adversary needs n_arms >= 3 (a best arm and two decoys), got {self.n_arms}"
            )
        _check_arm(self.best_arm, self.n_arms)
        _check_mean(self.best_mean, "best_mean")
        _check_mean(self.decoy_mean, "decoy_mean")
        if self.period < 1:
            raise ValueError(f"period must be a positive integer, got {self.period}")
        decoy_average = (self.decoy_mean + (self.n_arms - 2)) / (self.n_arms - 1)
        if decoy_average <= self.best_mean:
            raise ValueError(
                f"best_mean must be below the decoys' long-run average {decoy_average:.3f} "
                f"for the best arm to be best in hindsight, got {self.best_mean}"
            )

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Losses of rounds ``t0+1 … t0+n_rounds``, shape ``(n_rounds, K)``."""
        others = np.array([i for i in range(self.n_arms) if i != self.best_arm])
        uniforms = rng.random((n_rounds, 2))
        phase = (t0 + np.arange(n_rounds)) // self.period
        decoy = others[phase % others.size]
        losses = np.ones((n_rounds, self.n_arms))
        rows = np.arange(n_rounds)
        losses[rows, decoy] = (uniforms[:, 0] < self.decoy_mean).astype(np.float64)
        losses[:, self.best_arm] = (uniforms[:, 1] < self.best_mean).astype(np.float64)
        return losses

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {
            "kind": "switching",
            "n_arms": self.n_arms,
            "best_arm": self.best_arm,
            "best_mean": self.best_mean,
            "decoy_mean": self.decoy_mean,
            "period": self.period,
        }


Environment = StochasticBernoulli | SwitchingAdversary | Theorem5Losses | Theorem5Construction


def environment_from_dict(data: dict) -> Environment:
    """Rebuild an environment from its ``to_dict`` output."""
    kind = data.get("kind")
    fields = {k: v for k, v in data.items() if k != "kind"}
    if kind == "bernoulli":
        return StochasticBernoulli(tuple(data["means"]))
    if kind == "switching":
        return SwitchingAdversary(**fields)
    if kind == "theorem5":
        return Theorem5Construction(**fields)
    if kind == "theorem5_losses":
        return Theorem5Losses(**fields)
    raise ValueError(
        f"unknown loss environment kind {kind!r}; allowed: ['bernoulli', 'switching', 'theorem5', "
        "'theorem5_losses']"
    )
