"""Exp3.G (Alon et al., 2015) as paper 001 describes it in §3.1.

OMD (eq. (2)) with the Shannon entropy ψ(p) = (1/η) Σ p_i ln p_i over the clipped simplex
Ω = {p ∈ Δ(K) : p_i ≥ 2η/K}, the importance-weighted estimator of eq. (1), p_1 = argmin_Ω ψ (uniform) and
η = 1/√(αT). Its guarantee is Reg = Õ(√(αT)) on strongly observable graphs.

Reading chosen: paper 001 presents Exp3.G as OMD over the clipped simplex rather than as Alon et al.'s
mixture (1−γ)·q_t + γ·uniform; we implement paper 001's description, since it is the one whose analysis
the paper builds on. With α·T ≥ 4 the paper's requirement η ≤ 1/2 holds.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.omd import entropy_step
from regretlab.bandits.presets import require_preset
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability


@kernel
def importance_weighted_estimate(p, loss, arm, adjacency, out):
    """Eq. (1): ``ℓ̂_i = ℓ_i / W_i · 1{arm ∈ N_in(i)}`` with ``W_i = Σ_{j ∈ N_in(i)} p_j``; writes ``out``."""
    k = p.shape[0]
    for i in range(k):
        if adjacency[arm, i]:
            w = 0.0
            for j in range(k):
                if adjacency[j, i]:
                    w += p[j]
            out[i] = loss[i] / w
        else:
            out[i] = 0.0


class Exp3GSetup(NamedTuple):
    """The constants of a run of Exp3.G.

    Attributes:
        eta: η = 1/√(αT).
        lower: ``(K,)`` the exploration floor 2η/K of Ω.
        adjacency: ``(K, K)`` bool, the feedback graph (``adjacency[i, j]``: playing i reveals ℓ_j).
    """

    eta: float
    lower: np.ndarray
    adjacency: np.ndarray


class Exp3GState(NamedTuple):
    """The learner's state, updated in place by :func:`_play_chunk`.

    Attributes:
        p: ``(K,)`` p_t.
        loss_est: ``(K,)`` scratch for ℓ̂_t (eq. (1)).
    """

    p: np.ndarray
    loss_est: np.ndarray


@kernel
def _play_chunk(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n`` of Exp3.G: sample, account, estimate (eq. (1)), OMD step (eq. (2))."""
    eta, lower, adjacency = setup
    p, loss_est = state
    for r in range(losses.shape[0]):
        arm = sample_arm(p, uniforms[r])
        track_round(t0 + r + 1, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        entropy_step(p, loss_est, eta, lower, p)


class Exp3G:
    """Exp3.G learner. ``constants="paper"``: η = 1/√(αT), exploration floor 2η/K (paper 001, §3.1).

    α is the graph's independence number (an upper bound from a heuristic when K > 20, which only makes η
    smaller). Raises ValueError on a graph that is not strongly observable.
    """

    name = "exp3g"
    presets = ("paper",)

    def __init__(
        self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str = "paper"
    ) -> None:
        require_preset(self.name, self.presets, constants)
        graph.require_observability(Observability.STRONG, "Exp3.G")
        k = graph.n_arms
        alpha = graph.independence_number.value
        eta = 1.0 / math.sqrt(alpha * horizon)
        self.setup = Exp3GSetup(eta, np.full(k, 2.0 * eta / k), np.ascontiguousarray(graph.adjacency))
        # p_1 = argmin_Ω ψ: the uniform distribution
        self.state = Exp3GState(p=np.full(k, 1.0 / k), loss_est=np.zeros(k))
        self._rng = rng
        self.params = {
            "eta": eta,
            "exploration_floor": 2.0 * eta / k,
            "alpha": alpha,
            "constants": constants,
        }
        self.hypotheses = {
            "eta_at_most_half": eta <= 0.5,
            "T_at_least_2K": horizon >= 2 * k,
        }

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the distribution played next."""
        return self.state.p

    @property
    def eta(self) -> float:
        """η = 1/√(αT)."""
        return self.setup.eta

    @property
    def lower(self) -> np.ndarray:
        """``(K,)`` the exploration floor 2η/K of Ω."""
        return self.setup.lower

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        uniforms = self._rng.random(losses.shape[0])
        _play_chunk(self.setup, self.state, losses, uniforms, t0, tracker)
