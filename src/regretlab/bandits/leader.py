"""Follow the leader with exploration γ_t = min{1, c/t} on a weakly dominating set: the learner that makes
Theorem 5 of paper 001 (lines 206–210, App. E.1) bite.

Theorem 5 speaks about an algorithm with Õ(1) regret when L* = 0; its proof uses that premise on one loss
sequence only, environment 1 of App. E.1 (ℓ_u = 0, ℓ_v = T^{−b}, every other arm 1), to bound the number of
bad-arm pulls there by T^ε. The algorithms of Section 4 do not have the premise (their Ω keeps a polynomial
share of exploration on D, :mod:`regretlab.bandits.lower_bound`), so on them the construction shows nothing.
This learner has it on environment 1 — O(ln T) regret — and is otherwise a plain bandit learner that knows
neither L*, nor the pair (u, v), nor the interval I:

    p_t = (1 − γ_t) e_{j_t} + γ_t u_D,   γ_t = min{1, c/t},   u_D uniform on D (size d),
    j_t = argmin_i L̂_{t−1,i}  (lowest index among ties),   L̂_{t,i} = Σ_{s≤t} ℓ̂_{s,i},

with ℓ̂ the importance-weighted estimator of eq. (1) (ℓ̂_{s,i} = ℓ_{s,i}/W_{s,i} when i_s ∈ N_in(i), else 0;
W_{s,i} = Σ_{j∈N_in(i)} p_{s,j}). It is Exp3.G's mixture (:mod:`regretlab.bandits.exp3g_weak`) with η = ∞
(the exponential weights collapse on the leader) and an exploration rate that decays like 1/t, so that the
expected number of exploration rounds is c ln T + O(1).

Choices (not from the paper, which names no such algorithm): c = 1 (the ``paper`` preset is this learner's
only setting; the name is kept so that every regime runs it with its default preset); ties are broken towards
the lowest index; D is the graph's minimum weakly dominating set, as for Exp3.G-weak.

What it does and does not guarantee. On environment 1 the leader is u (its estimate stays 0, every other arm's
becomes positive once observed), so the regret is the cost of the explorations, ≈ (c/d) Σ_{i∈D} ℓ_i · ln T,
plus O(K) rounds before every other arm is observed: the O(ln T) that the proof needs. It does not have Õ(1)
regret on every sequence with L* = 0: an arm without a self-loop that has become the leader may start to lose
at some t₀, and each later round observes it with probability about c/(d t) only, so it stays unnoticed
through (t₀, t] with probability ≈ (t₀/t)^{c/d}, a polynomial number of lossy rounds. The premise holds where
the proof uses it (environment 1, measured by ``lower_bound.premise_holds``), not in general.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from regretlab.bandits.exp3g import importance_weighted_estimate
from regretlab.bandits.exp3g_weak import uniform_on_dominating_set
from regretlab.bandits.presets import require_preset
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability


class ExplorationLeaderSetup(NamedTuple):
    """The constants of a run.

    Attributes:
        c: c of γ_t = min{1, c/t}.
        explore: ``(K,)`` u_D, the uniform distribution on the minimum weakly dominating set D.
        adjacency: ``(K, K)`` bool, the feedback graph (``adjacency[i, j]``: playing i reveals ℓ_j).
    """

    c: float
    explore: np.ndarray
    adjacency: np.ndarray


class ExplorationLeaderState(NamedTuple):
    """The learner's state, updated in place by :func:`_play_chunk`.

    Attributes:
        estimates: ``(K,)`` Σ_{s≤t} ℓ̂_s, eq. (1)'s estimated total losses.
        p: ``(K,)`` the distribution of the last round played.
        leader: ``(1,)`` int64, the arm with the smallest estimate.
        loss_est: ``(K,)`` scratch for ℓ̂_t.
    """

    estimates: np.ndarray
    p: np.ndarray
    leader: np.ndarray
    loss_est: np.ndarray


@kernel
def _play_chunk(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n``: mix the leader with γ_t u_D, sample, account, add eq. (1)'s ℓ̂, new leader."""
    c, explore, adjacency = setup
    estimates, p, leader, loss_est = state
    k = estimates.shape[0]
    for r in range(losses.shape[0]):
        t = t0 + r + 1
        gamma = min(1.0, c / t)
        for i in range(k):
            p[i] = gamma * explore[i]
        p[leader[0]] += 1.0 - gamma
        arm = sample_arm(p, uniforms[r])
        track_round(t, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        best = 0
        for i in range(k):
            estimates[i] += loss_est[i]
            if estimates[i] < estimates[best]:
                best = i
        leader[0] = best


class ExplorationLeader:
    """Follow the leader on eq. (1)'s estimates, exploring D with probability min{1, c/t}, c = 1.

    Raises ValueError unless the graph is weakly (and not strongly) observable, as :class:`Exp3GWeak`.
    """

    name = "exploration_leader"
    presets = ("paper",)
    #: c of γ_t = min{1, c/t}.
    EXPLORATION = 1.0

    def __init__(
        self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str = "paper"
    ) -> None:
        require_preset(self.name, self.presets, constants)
        graph.require_observability(Observability.WEAK, "follow the leader with exploration on D", exact=True)
        k = graph.n_arms
        explore, members = uniform_on_dominating_set(graph)
        self.setup = ExplorationLeaderSetup(self.EXPLORATION, explore, np.ascontiguousarray(graph.adjacency))
        self.state = ExplorationLeaderState(
            estimates=np.zeros(k), p=np.zeros(k), leader=np.zeros(1, dtype=np.int64), loss_est=np.zeros(k)
        )
        self._rng = rng
        self.params = {"c": self.EXPLORATION, "d": len(members), "D": members, "constants": constants}
        # The premise of Theorem 5 is measured on the construction's environment 1 (lower_bound), not here.
        self.hypotheses = {}

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` the distribution of the last round played."""
        return self.state.p

    @property
    def estimates(self) -> np.ndarray:
        """``(K,)`` eq. (1)'s estimated total losses so far."""
        return self.state.estimates

    @property
    def leader(self) -> np.ndarray:
        """``(1,)`` the arm with the smallest estimate, played with probability ≥ 1 − γ_t next."""
        return self.state.leader

    @property
    def c(self) -> float:
        """c of γ_t = min{1, c/t}."""
        return self.setup.c

    @property
    def explore(self) -> np.ndarray:
        """``(K,)`` u_D."""
        return self.setup.explore

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        uniforms = self._rng.random(losses.shape[0])
        _play_chunk(self.setup, self.state, losses, uniforms, t0, tracker)
