"""Algorithm 4 of paper 001 (Appendix C.3): Algorithm 1 with a doubling trick on η, no knowledge of L*.

Each round is one round of Algorithm 1 (:func:`regretlab.bandits.algorithm1.play_round`). At the end of
round t the learner checks (κ+1)/η ≤ η Σ_{τ=T_λ+1}^{t} ⟨p_τ, ℓ̂_τ⟩, the sum running over the current epoch;
if it holds, η is halved and everything is reset (:func:`regretlab.bandits.algorithm1.start_epoch`):
η_{t+1,j} = η and ρ_{t+1,j} = 2κ for j ∈ [κ], p_{t+1} = argmin_Ω ψ_{t+1}, fresh Hedge instances, and the
epoch sum restarts.

The pseudocode lost its keywords; it is read as follows (Appendix C.3's prose and the proof of Theorem 13).

1. "λ = 1, 2, … T_λ = t − 1, η_{t,j} = η, ρ_{t,j} = 2κ, p_t = argmin_Ω ψ_t; create A_j" is the body of
   ``for λ = 1, 2, …`` that starts epoch λ at round t = T_λ + 1 (t = 1 for λ = 1).
2. "t ≤ T Execute Line … to Line … of Algorithm 1" is ``while t ≤ T:`` one full round of Algorithm 1, from
   receiving the p̃_t^{(j)} to the learning-rate rule (the missing line numbers are its first and last lines).
3. "(κ+1)/η ≤ η Σ_{τ=T_λ+1}^{t} ⟨p_t, ℓ̂_t⟩ η ← η/2, t ← t + 1. Break t ← t + 1." is ``if … then η ← η/2;
   t ← t + 1; break (to the next epoch) else t ← t + 1``. The summand is read ⟨p_τ, ℓ̂_τ⟩ (the index t
   inside the sum is a typo: the proof sums ⟨p_t, ℓ̂_t⟩ over the epoch's rounds), with p_τ the meta-
   distribution of round τ and ℓ̂_τ Algorithm 1's meta-estimator; the comparison is non-strict.
4. The reset uses the halved η everywhere ψ_t does: the clique rates η_{t,j} and the entropy weight 1/η on
   S̄. c, Ω (p_j ≥ 1/T) and Algorithm 3's bounds 1/(|C_j| T) use the full horizon T in every epoch.
5. The check also runs after round T (a reset there has no effect on the run).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.algorithm1 import MetaGraphLearner, first_horizon, log_factor, play_round, start_epoch
from regretlab.bandits.epochs import arm_sets, epoch_end_buffer, epoch_end_records, record_epoch_end
from regretlab.bandits.tracking import Tracker
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph


def eta_start(horizon: int, n_arms: int, kappa: int, beta: int, constants: str) -> float:
    """η_1 of Algorithm 4: Theorem 13's 1/(2000 ln T ln²(KT) + 80κ ln T) (``paper``, line 689), or 1/β
    (``tuned``: Algorithm 1's tuned cap, :func:`regretlab.bandits.algorithm1.eta_cap`; with only its 2000 and
    80 → 1 it would stay ≈ 4.7·10⁻⁴ at T = 10⁵, K = 7, κ = 2, and the first reset need Σ⟨p, ℓ̂⟩ ≥ 1.3·10⁷,
    more than T)."""
    if constants == "paper":
        return 1.0 / (2000 * log_factor(horizon, n_arms) + 80 * kappa * math.log(horizon))
    return 1.0 / beta


def first_reset_loss(horizon: int, n_arms: int, kappa: int, beta: int, constants: str) -> float:
    """(κ+1)/η_1²: the epoch sum Σ_τ ⟨p_τ, ℓ̂_τ⟩ — in expectation the learner's cumulative loss, at most t by
    round t — at which the first reset (η ← η/2) fires. Before it Algorithm 4 is Algorithm 1 at η_1, flat in
    L*; ``paper`` at T = 10⁵ on the Figure-1 graph needs 5·10¹³."""
    return (kappa + 1) / eta_start(horizon, n_arms, kappa, beta, constants) ** 2


def first_reset_horizon(loss_rate: float, n_arms: int, kappa: int, beta: int, constants: str) -> float:
    """The smallest horizon T ≥ 2K at which a learner losing ``loss_rate`` per round (in (0, 1]; ≥ L*/T; 1
    gives the earliest any instance can) reaches :func:`first_reset_loss` by round T, +inf if none."""
    if loss_rate <= 0:
        return math.inf
    return first_horizon(
        lambda t: loss_rate * t >= first_reset_loss(t, n_arms, kappa, beta, constants),
        max(2 * n_arms, beta + 1),
    )


class Epochs(NamedTuple):
    """Algorithm 4's epochs, updated in place by :func:`_play_chunk`.

    Attributes:
        epoch: ``(2,)`` [η, Σ_{τ=T_λ+1}^{t} ⟨p_τ, ℓ̂_τ⟩], the current epoch's rate and sum.
        resets: ``(1,)`` int64, the number of resets so far.
        reset_rounds: int64, the rounds t after which a reset happened (epoch λ+1 starts at t + 1).
        ends: the tracker's totals at those rounds (:func:`regretlab.bandits.epochs.epoch_end_buffer`).
    """

    epoch: np.ndarray
    resets: np.ndarray
    reset_rounds: np.ndarray
    ends: np.ndarray


@kernel
def _play_chunk(losses, uniforms, t0, meta, setup, state, epochs, tracker):
    """Rounds ``t0+1 … t0+n`` of Algorithm 4: Algorithm 1's round, then the reset test on the epoch sum."""
    epoch, resets, reset_rounds, ends = epochs
    kappa_plus_one = meta.kappa + 1.0
    for r in range(losses.shape[0]):
        t = t0 + r + 1
        epoch[1] += play_round(
            t,
            losses[r],
            uniforms[r, 0],
            uniforms[r, 1],
            meta,
            setup,
            state,
            tracker,
        )
        eta = epoch[0]
        if kappa_plus_one / eta <= eta * epoch[1]:
            eta *= 0.5
            epoch[0] = eta
            epoch[1] = 0.0
            reset_rounds[resets[0]] = t
            record_epoch_end(t, tracker, ends[resets[0]])
            resets[0] += 1
            start_epoch(eta, meta, setup, state)


class Algorithm4(MetaGraphLearner):
    """Algorithm 4 with Theorem 13's constants; never uses L*.

    ``constants="paper"``: c = 64β and η starts at 1/(2000 ln T ln²(KT) + 80κ ln T). ``constants="tuned"``
    (the paper-vs-tuned ablation): 64 → 1 and the polylog start dropped, c = β and η starts at 1/β
    (:func:`eta_start`), so that resets fire once Σ⟨p, ℓ̂⟩ ≥ (κ+1)β².
    Everything else is Algorithm 1's (Ω with p_j ≥ 1/T, Hedge bounds 1/(|C_j| T),
    ρ = 2κ at each (re)start, rate factor e^{1/ln T}).

    ``params`` reports, read after the run, the number of resets and epochs, the rounds after which the
    resets happened and the final η. ``hypotheses`` are Theorem 13's conditions with the paper's constants:
    c = 64β, the starting η, Lemma 12's η ≤ 1/(64β) (each epoch is a run of Algorithm 1) and §2's T ≥ 2K.
    The constructor has Algorithm 1's signature; ``L_star`` must stay None (ValueError otherwise): the
    algorithm never sees L*. Raises ValueError on a graph that is not strongly observable or T ≤ β.
    """

    name = "algorithm4"

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        L_star: float | None = None,
    ) -> None:
        if L_star is not None:
            raise ValueError(f"{self.name} is adaptive (Theorem 13) and does not take L*, got {L_star}")
        super().__init__(graph, horizon, rng, constants)
        paper_start = eta_start(horizon, self.n_arms, self.kappa, self.beta, "paper")
        self.eta_start = eta_start(horizon, self.n_arms, self.kappa, self.beta, constants)
        # The λ-th reset needs (κ+1)/η_λ² ≤ Σ⟨p_τ, ℓ̂_τ⟩ ≤ T(T+1) (⟨p_τ, ℓ̂_τ⟩ ≤ 1 + T since p_j ≥ 1/T), with
        # η_λ = 2^{1−λ} η_1 and η_1 < 1: 2^{λ−1} < T + 1, so there are at most ⌊log2(T+1)⌋ + 1 resets.
        max_resets = int(math.log2(horizon + 1)) + 2
        self.epochs = Epochs(
            epoch=np.zeros(2),
            resets=np.zeros(1, dtype=np.int64),
            reset_rounds=np.zeros(max_resets, dtype=np.int64),
            ends=epoch_end_buffer(max_resets, graph.n_arms),
        )
        self._arm_sets = arm_sets(graph)
        self._begin(self.eta_start)
        self.hypotheses = {
            "c_is_64_beta": self.c == 64 * self.beta,
            "eta_start_is_theorem13": self.eta_start == paper_start,
            "eta_at_most_1_over_64_beta": self.eta_start <= 1.0 / (64 * self.beta),
            "T_at_least_2K": horizon >= 2 * self.n_arms,
        }

    def _begin(self, eta: float) -> None:
        """Start an epoch with learning rate ``eta`` and an empty epoch sum (as the kernel's reset does)."""
        self.epochs.epoch[:] = (eta, 0.0)
        self._start(eta)

    @property
    def eta(self) -> float:
        """The current η (halved at every reset)."""
        return float(self.epochs.epoch[0])

    @property
    def epoch_loss(self) -> float:
        """Σ_{τ=T_λ+1}^{t} ⟨p_τ, ℓ̂_τ⟩ over the current epoch so far."""
        return float(self.epochs.epoch[1])

    @property
    def n_resets(self) -> int:
        """How many resets have happened (the number of epochs is one more)."""
        return int(self.epochs.resets[0])

    @property
    def params(self) -> dict:
        """Constants, and the resets and epochs so far (read after the run)."""
        return {
            "eta_start": self.eta_start,
            "eta_final": self.eta,
            "n_resets": self.n_resets,
            "n_epochs": self.n_resets + 1,
            "reset_rounds": [int(t) for t in self.epochs.reset_rounds[: self.n_resets]],
            "epoch_ends": epoch_end_records(self.epochs.ends, self.n_resets, self._arm_sets),
            **self._common_params(),
        }

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        _play_chunk(
            losses,
            self._uniforms(losses.shape[0]),
            t0,
            self.meta,
            self.setup,
            self.state,
            self.epochs,
            tracker,
        )
