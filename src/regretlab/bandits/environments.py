"""Loss environments: an oblivious adversary's loss sequence ℓ_1, …, ℓ_T ∈ [0, 1]^K (paper 001, §2).

An environment hands out its losses in chunks of rounds, drawn from a Generator the caller owns, so a run's
memory does not grow with T. The sequence depends only on that Generator and the round index, never on the
learner (oblivious adversary); an environment never sees the learner.

An environment whose losses depend on the horizon (:class:`MinimaxGap`) is resolved for a run's T by
``at_horizon(T)``; every other environment returns itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from regretlab.bandits.lower_bound import Theorem5Construction, Theorem5Losses

#: Rounds of losses drawn (and simulated per call into a compiled kernel) at once: bounds a run's memory at
#: ``CHUNK_ROUNDS × K`` floats.
CHUNK_ROUNDS = 8192


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

    def at_horizon(self, horizon: int) -> StochasticBernoulli:
        """The same environment: its losses do not depend on the horizon."""
        return self

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Losses of rounds ``t0+1 … t0+n_rounds``, shape ``(n_rounds, K)``, values in {0, 1}."""
        return (rng.random((n_rounds, self.n_arms)) < np.asarray(self.means)).astype(np.float64)

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {"kind": "bernoulli", "means": list(self.means)}


@dataclass(frozen=True)
class MinimaxGap:
    """Bernoulli losses whose gap shrinks with the horizon, so that Exp3.G's regret is Θ(√(αT)) at every T.

    At horizon T the best arm ``best_arm`` has mean ``best_mean`` and every other arm
    ``best_mean + ε(T)`` with ``ε(T) = min{gap_constant · √(α/T), 1 − best_mean}``: the gap of the classical
    √(αT) lower-bound construction (an α-armed bandit hidden in the graph's independent sets, e.g. Alon et
    al. 2017), at which telling the best arm apart costs ~α/ε² rounds and ignoring it costs εT — both
    ~√(αT). A fixed gap instead gives a regret that flattens to O(α ln T / gap) once T ≫ α/gap², so its
    fitted slope over any finite range says nothing about the √T rate (it is pre-asymptotic).

    The environment of a run at horizon T is :meth:`at_horizon` (a :class:`StochasticBernoulli`); for a
    given seed, the runs at every T draw the same uniforms, so only ε changes between them (each arm's
    loss at T is ``1{u < mean(T)}`` with the same u).
    """

    n_arms: int
    best_arm: int
    best_mean: float
    gap_constant: float
    alpha: int

    def __post_init__(self) -> None:
        _check_arm(self.best_arm, self.n_arms)
        _check_mean(self.best_mean, "best_mean")
        if not self.best_mean < 1.0:
            raise ValueError(f"best_mean must be below 1 to leave room for a gap, got {self.best_mean}")
        if not self.gap_constant > 0:
            raise ValueError(f"gap_constant must be positive, got {self.gap_constant}")
        if self.alpha < 1:
            raise ValueError(f"alpha must be a positive integer, got {self.alpha}")

    def gap(self, horizon: int) -> float:
        """ε(T) = min{gap_constant · √(α/T), 1 − best_mean}."""
        if horizon < 1:
            raise ValueError(f"horizon must be a positive integer, got {horizon}")
        return min(self.gap_constant * math.sqrt(self.alpha / horizon), 1.0 - self.best_mean)

    def at_horizon(self, horizon: int) -> StochasticBernoulli:
        """The environment of a run at horizon T: Bernoulli means ``best_mean`` and ``best_mean + ε(T)``."""
        return StochasticBernoulli.with_best_arm(
            self.n_arms, self.best_arm, self.best_mean, self.gap(horizon)
        )

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Not defined without a horizon: call ``at_horizon(T)`` first."""
        raise ValueError("a minimax environment's losses depend on T: draw from at_horizon(T)")

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {
            "kind": "minimax",
            "n_arms": self.n_arms,
            "best_arm": self.best_arm,
            "best_mean": self.best_mean,
            "gap_constant": self.gap_constant,
            "alpha": self.alpha,
        }


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

    def at_horizon(self, horizon: int) -> SwitchingAdversary:
        """The same environment: its losses do not depend on the horizon."""
        return self

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


Environment = StochasticBernoulli | SwitchingAdversary | MinimaxGap | Theorem5Losses | Theorem5Construction


def environment_from_dict(data: dict) -> Environment:
    """Rebuild an environment from its ``to_dict`` output."""
    kind = data.get("kind")
    fields = {k: v for k, v in data.items() if k != "kind"}
    if kind == "bernoulli":
        return StochasticBernoulli(tuple(data["means"]))
    if kind == "switching":
        return SwitchingAdversary(**fields)
    if kind == "minimax":
        return MinimaxGap(**fields)
    if kind == "theorem5":
        return Theorem5Construction(**fields)
    if kind == "theorem5_losses":
        return Theorem5Losses(**fields)
    raise ValueError(
        f"unknown loss environment kind {kind!r}; allowed: ['bernoulli', 'minimax', 'switching', 'theorem5', "
        "'theorem5_losses']"
    )
