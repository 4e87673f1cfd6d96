"""The algorithm of Theorem 3 (paper 001, §3.2): log-barrier on S, entropy plus log-barrier on S̄.

OMD (eq. (2)) ``p_{t+1} = argmin_{p ∈ Ω} ⟨p, ℓ̂_t⟩ + D_ψ(p, p_t)``, ``p_1 = argmin_Ω ψ``, with

* the regulariser of eq. (6),
  ``ψ(p) = (1/η) Σ_{i∈S} ln(1/p_i) + (1/η) Σ_{i∈S̄} p_i ln p_i + c Σ_{i∈S̄} ln(1/p_i)``, ``c = 64K``;
* ``Ω = {p ∈ Δ(K) : p_i ≥ 1/T ∀ i}`` and the importance-weighted estimator of eq. (1);
* ``η = min{√((s+1)/L*), 1/(64K)}`` with the true L* (the theorem's oracle tuning), which turns
  ``Reg = O((s ln T + ln K)/η + ηL* + K² ln T)`` into ``Õ(√((s+1)L*) + K²)``.

ψ treats S and S̄ differently, so ``p_1 = argmin_Ω ψ`` is uniform only when S = [K] or S = ∅. It is computed
with the OMD solver itself: for any q in the interior of Ω, ``argmin_Ω ⟨p, ∇ψ(q)⟩ + D_ψ(p, q) = argmin_Ω ψ``
(the linear terms cancel), so p_1 is one exact step from the uniform q with ``ℓ̂ = ∇ψ(q)``. Every OMD step
is solved exactly by :func:`regretlab.bandits.omd.log_barrier_hybrid_step`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.exp3g import importance_weighted_estimate
from regretlab.bandits.omd import (
    hybrid_workspace,
    keep,
    log_barrier_hybrid_step,
    record_step_ratio,
    step_log_ratio,
)
from regretlab.bandits.presets import require_preset, with_step
from regretlab.bandits.theorem2 import clipped_simplex_bounds
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability


class Theorem3Setup(NamedTuple):
    """The constants of a run of Theorem 3's algorithm.

    Attributes:
        eta: η of eq. (6).
        c: the log-barrier weight c of eq. (6) on S̄.
        in_s: ``(K,)`` bool, the arms with a self-loop (S).
        lower: ``(K,)`` the bounds 1/T of Ω.
        adjacency: ``(K, K)`` bool, the feedback graph (``adjacency[i, j]``: playing i reveals ℓ_j).
    """

    eta: float
    c: float
    in_s: np.ndarray
    lower: np.ndarray
    adjacency: np.ndarray


class Theorem3State(NamedTuple):
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
    """Rounds ``t0+1 … t0+n`` of Theorem 3's algorithm: sample ``i_t ~ p_t``, account, estimate (eq. (1)),
    OMD step with eq. (6) over Ω (eq. (2)); ``state.p`` is updated in place. Allocates nothing."""
    eta, c, in_s, lower, adjacency = setup
    p, loss_est, work, previous, extremes = state
    for r in range(losses.shape[0]):
        arm = sample_arm(p, uniforms[r])
        track_round(t0 + r + 1, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        keep(p, previous)
        log_barrier_hybrid_step(p, loss_est, eta, c, in_s, lower, p, np.nan, work)
        record_step_ratio(previous, p, extremes)


def first_iterate(eta: float, c: float, in_s: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """``p_1 = argmin_Ω ψ`` for ψ of eq. (6): one exact OMD step from the uniform q with ``ℓ̂ = ∇ψ(q)``.

    ``∇ψ(q)_i = −1/(η q_i)`` on S and ``(ln q_i + 1)/η − c/q_i`` on S̄.
    """
    k = in_s.size
    q = np.full(k, 1.0 / k)
    gradient = np.where(in_s, -1.0 / (eta * q), (math.log(1.0 / k) + 1.0) / eta - c / q)  # libm's log
    p = np.empty(k)
    log_barrier_hybrid_step(q, gradient, eta, c, in_s, lower, p)
    return p


class Theorem3:
    """OMD with eq. (6) over Ω = {p_i ≥ 1/T} (paper 001, Theorem 3), for strongly observable graphs.

    Presets:
        ``paper``: c = 64K, η = min{√((s+1)/L*), 1/(64K)} (the theorem's constants), Ω = {p_i ≥ 1/T}.
        ``tuned``: the same algorithm with the paper's 64 replaced by 1: c = K and η = min{√((s+1)/L*), 1/K}.

    ``L_star`` is the true total loss of the best arm, required: the theorem tunes η with it (oracle tuning).
    L* = 0 gives the cap. Raises ValueError on a missing or negative L*, on a graph that is not strongly
    observable, or if T ≤ K (Ω empty or a point).
    """

    name = "theorem3"
    presets = ("paper", "tuned")
    #: Theorem 3 holds for every η ≤ 1/(64K): ``step={"eta": …}`` sets it by hand (its hypothesis is checked).
    free = ("eta",)

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        L_star: float | None = None,
        step: dict | None = None,
    ) -> None:
        require_preset(self.name, self.presets, constants)
        if L_star is None or not L_star >= 0.0 or math.isinf(L_star):
            raise ValueError(
                f"{self.name} tunes η with the true L* (paper 001, Theorem 3): pass a finite L_star >= 0, "
                f"got {L_star!r}"
            )
        graph.require_observability(Observability.STRONG, "The algorithm of Theorem 3")
        k, s = graph.n_arms, graph.s
        scale = 64 if constants == "paper" else 1
        lower = clipped_simplex_bounds(k, horizon)
        c = float(scale * k)
        self.eta_cap = 1.0 / (scale * k)
        eta = min(math.sqrt((s + 1) / L_star), self.eta_cap) if L_star > 0 else self.eta_cap
        eta = with_step(self.name, {"eta": eta}, step, self.free)["eta"]
        in_s = graph.self_loops.copy()
        self.setup = Theorem3Setup(eta, c, in_s, lower, np.ascontiguousarray(graph.adjacency))
        self.state = Theorem3State(
            p=first_iterate(eta, c, in_s, lower),
            loss_est=np.zeros(k),
            work=hybrid_workspace(k),
            previous=np.zeros(k),
            extremes=np.ones(2),
        )
        self._rng = rng
        self.params = {
            "eta": self.eta,
            "eta_cap": self.eta_cap,
            "c": self.c,
            "lower": 1.0 / horizon,
            "s": s,
            "L_star": float(L_star),
            "constants": constants,
            "lemma9_log_ratio": 0.0,
        }
        self.hypotheses = {
            "T_at_least_2K": horizon >= 2 * k,  # §2's standing assumption
            "c_at_least_64K": self.c >= 64 * k,  # Lemma 1, condition (c)
            "eta_at_most_1_over_64K": self.eta <= 1.0 / (64 * k),  # Theorem 3
        }

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the distribution played next."""
        return self.state.p

    @property
    def eta(self) -> float:
        """η = min{√((s+1)/L*), the cap}."""
        return self.setup.eta

    @property
    def c(self) -> float:
        """The log-barrier weight c on S̄ (64K with the paper's constants, K tuned)."""
        return self.setup.c

    @property
    def lower(self) -> np.ndarray:
        """``(K,)`` the bounds 1/T of Ω."""
        return self.setup.lower

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        uniforms = self._rng.random(losses.shape[0])
        play_rounds(self.setup, self.state, losses, uniforms, t0, tracker)
        self.params["lemma9_log_ratio"] = step_log_ratio(self.state.extremes)
