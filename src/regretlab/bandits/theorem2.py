"""The algorithm of Theorem 2 (paper 001, §3.1): less uniform exploration, a constant amount of log-barrier.

OMD (eq. (2)) ``p_{t+1} = argmin_{p ∈ Ω} ⟨p, ℓ̂_t⟩ + D_ψ(p, p_t)``, ``p_1 = argmin_Ω ψ``, with

* the hybrid regulariser of eq. (5), ``ψ(p) = (1/η) Σ_i p_i ln p_i + c Σ_i ln(1/p_i)``, ``c = 64K``;
* the clipped simplex ``Ω = {p ∈ Δ(K) : p_i ≥ 1/T ∀ i}`` (a 1/T amount of uniform exploration instead of
  Exp3.G's 2η/K);
* the importance-weighted estimator of eq. (1);
* ``η = 1/√(αT)``, which turns the theorem's ``Reg ≤ Õ(1/η + ηαT + K²)`` into ``Õ(√(αT) + K²)``.

ψ is symmetric in the coordinates and the uniform distribution lies in Ω (1/K ≥ 1/T), so
``p_1 = argmin_Ω ψ`` is uniform. Every OMD step is solved exactly by
:func:`regretlab.bandits.omd.hybrid_step`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.exp3g import importance_weighted_estimate
from regretlab.bandits.omd import hybrid_step, hybrid_workspace, keep, record_step_ratio, step_log_ratio
from regretlab.bandits.presets import require_preset, with_step
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability


class Theorem2Setup(NamedTuple):
    """The constants of a run of Theorem 2's algorithm.

    Attributes:
        eta: η of eq. (5).
        c: the log-barrier weight c of eq. (5).
        lower: ``(K,)`` the bounds 1/T of Ω.
        adjacency: ``(K, K)`` bool, the feedback graph (``adjacency[i, j]``: playing i reveals ℓ_j).
    """

    eta: float
    c: float
    lower: np.ndarray
    adjacency: np.ndarray


class Theorem2State(NamedTuple):
    """The learner's state, updated in place by :func:`play_rounds`.

    Attributes:
        p: ``(K,)`` p_t.
        loss_est: ``(K,)`` scratch for ℓ̂_t (eq. (1)).
        work: the OMD step's scratch (:func:`~regretlab.bandits.omd.hybrid_workspace`).
        previous: ``(K,)`` p_t while the step computes p_{t+1} (for Lemma 9's record).
        extremes: ``(2,)`` min and max over i and the rounds so far of p_{t+1,i}/p_{t,i}
            (:func:`~regretlab.bandits.omd.record_step_ratio`).
    """

    p: np.ndarray
    loss_est: np.ndarray
    work: np.ndarray
    previous: np.ndarray
    extremes: np.ndarray


@kernel
def play_rounds(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n`` of Theorem 2's algorithm: sample ``i_t ~ p_t``, account, estimate (eq. (1)),
    OMD step with eq. (5) over Ω (eq. (2)); ``state.p`` is updated in place. Allocates nothing."""
    eta, c, lower, adjacency = setup
    p, loss_est, work, previous, extremes = state
    for r in range(losses.shape[0]):
        arm = sample_arm(p, uniforms[r])
        track_round(t0 + r + 1, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        keep(p, previous)
        hybrid_step(p, loss_est, eta, c, lower, p, np.nan, work)
        record_step_ratio(previous, p, extremes)


def clipped_simplex_bounds(n_arms: int, horizon: int) -> np.ndarray:
    """The lower bounds ``1/T`` of Ω = {p ∈ Δ(K) : p_i ≥ 1/T} (Theorems 2 and 3); Ω needs ``T > K``."""
    if horizon <= n_arms:
        raise ValueError(
            f"Ω = {{p ∈ Δ(K) : p_i ≥ 1/T}} needs T > K to have interior points, "
            f"got T = {horizon}, K = {n_arms}"
        )
    return np.full(n_arms, 1.0 / horizon)


class Theorem2:
    """OMD with eq. (5) over Ω = {p_i ≥ 1/T} (paper 001, Theorem 2), for strongly observable graphs.

    Presets:
        ``paper``: c = 64K (Lemma 1, condition (c)), η = 1/√(αT), Ω = {p_i ≥ 1/T}.
        ``tuned``: the same algorithm with the log-barrier weight c = K (the 64 of Lemma 1 replaced by 1).

    α is the graph's independence number (an upper bound from a heuristic when K > 20, which only makes η
    smaller). Raises ValueError on a graph that is not strongly observable, or if T ≤ K (Ω is then empty or
    a point).
    """

    name = "theorem2"
    presets = ("paper", "tuned")
    #: The proof's display (line 414) holds for every η > 0 at c = 64K: ``step={"eta": …}`` sets it by hand.
    free = ("eta",)

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        step: dict | None = None,
    ) -> None:
        require_preset(self.name, self.presets, constants)
        graph.require_observability(Observability.STRONG, "The algorithm of Theorem 2")
        k = graph.n_arms
        alpha = graph.independence_number.value
        eta = with_step(self.name, {"eta": 1.0 / math.sqrt(alpha * horizon)}, step, self.free)["eta"]
        self.setup = Theorem2Setup(
            eta=eta,
            c=float(64 * k if constants == "paper" else k),
            lower=clipped_simplex_bounds(k, horizon),
            adjacency=np.ascontiguousarray(graph.adjacency),
        )
        # p_1 = argmin_Ω ψ: ψ is symmetric and strictly convex, so its minimiser over the simplex is the
        # uniform distribution, which lies in Ω (1/K ≥ 1/T)
        self.state = Theorem2State(
            p=np.full(k, 1.0 / k),
            loss_est=np.zeros(k),
            work=hybrid_workspace(k),
            previous=np.zeros(k),
            extremes=np.ones(2),
        )
        self._rng = rng
        self.params = {
            "eta": self.eta,
            "c": self.c,
            "lower": 1.0 / horizon,
            "alpha": alpha,
            "constants": constants,
            "lemma9_log_ratio": 0.0,
        }
        self.hypotheses = {
            "T_at_least_2K": horizon >= 2 * k,  # §2's standing assumption
            "c_at_least_64K": self.c >= 64 * k,  # Lemma 1, condition (c)
        }

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the distribution played next."""
        return self.state.p

    @property
    def eta(self) -> float:
        """η = 1/√(αT), or the one set by hand (``step``)."""
        return self.setup.eta

    @property
    def c(self) -> float:
        """The log-barrier weight c (64K with the paper's constants, K tuned)."""
        return self.setup.c

    @property
    def lower(self) -> np.ndarray:
        """``(K,)`` the bounds 1/T of Ω."""
        return self.setup.lower

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        self.play_with_uniforms(losses, self._rng.random(losses.shape[0]), t0, tracker)

    def play_with_uniforms(self, losses: np.ndarray, uniforms: np.ndarray, t0: int, tracker: Tracker) -> None:
        """As :meth:`play`, but round ``t0 + r + 1``'s arm is sampled with ``uniforms[r]``, not this rng's.

        For a learner that runs this algorithm as one of its stages (Algorithm 5) on its own stream of
        uniforms, so that a run does not depend on where the chunks of rounds are cut.
        """
        play_rounds(self.setup, self.state, losses, uniforms, t0, tracker)
        self.params["lemma9_log_ratio"] = step_log_ratio(self.state.extremes)
