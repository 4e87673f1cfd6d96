"""Algorithm 7 of paper 001 (App. E.5, lines 1313–1327): Algorithm 2 for general weakly observable graphs with
a doubling trick on δ, no knowledge of L_D (Theorem 18, lines 1331–1335; proof lines 1337–1437).

Each epoch λ is a run of Algorithm 2 from p_1 with δ_λ = 2^{1−λ} δ_1, η_λ = δ_λ^{1/(2γ)}, η̄_λ = δ_λ^{1/2 +
1/(2γ)} and Ω = {p ∈ Δ(K) : p_i ≥ δ_λ, i ∈ D}. A round t of epoch λ ("Execute Line 2 to Line 2 of Algorithm
2", lines 224–230):

1. play i_t ~ p_t, observe ℓ_{t,i} for i with i_t ∈ N_in(i);
2. ℓ̂_{t,i} = ℓ_{t,i} 1{i_t ∈ N_in(i)} / W_{t,i}, W_{t,i} = Σ_{j∈N_in(i)} p_{t,j} (eq. (1));
3. a_{t,i} = 2η p_{t,i} ℓ̂²_{t,i} on S and 2η̄ ℓ̂²_{t,i} on S̄;
4. p_{t+1} = argmin_Ω ⟨p, ℓ̂_t + a_t⟩ + D_ψ(p, p_t), ψ = (1/η) Σ_S ln(1/p_i) + (1/η̄) Σ_{S̄} p_i ln p_i
   (:func:`regretlab.bandits.omd_weak.weak_hybrid_step`, exact);
5. reset test (line 1325): if δ^{−1/γ} ≤ Σ_{τ=T_λ+1}^{t} Σ_{i∈D} ℓ̂_{τ,i}, then δ ← δ/2 and epoch λ+1 starts
   at t + 1 with p_{t+1} = p_1 and an empty sum.

p_1 = 1/(2s) on S and 1/(2s̄) on S̄ (line 1316); δ_1 = min{1/125, 1/(4d), 1/(4s)} (Theorem 18). γ ∈ [1/3, 1/2]
is an input: Theorem 18 gives Õ(L_D^{1−γ}) if i* ∈ S and Õ(L_D^{(1+γ)/2}) if i* ∈ S̄.

Choices where the text is ambiguous or has typos (docs/choices-paper001.md):

* Line 1325's sum is written Σ_τ Σ_{i∈D} ℓ̂_{t,i}; the index t is a typo for τ (the proof, lines 1349–1351,
  sums ℓ̂_{τ,i} over the epoch). The comparison is non-strict; the test also runs after round T (no effect
  there).
* Line 1341's second case of the per-epoch bound reads "if i* ∈ S" twice; the second is i* ∈ S̄ (its terms
  1/η̄ and (η̄/δ) Σ ℓ̂_{t,i*} are those of Theorem 8's S̄ case).
* D must contain a node of S when S ≠ ∅ (line 1329): D is the graph's minimum weakly dominating set, plus the
  lowest-index node of S if D ∩ S = ∅ (still weakly dominating, one larger). d in δ_1 and in Theorem 18 is the
  size of this D, so that dδ ≤ 1/4 keeps Ω non-empty.
* S = ∅: allowed (D ∩ S is then vacuous); p_1 is uniform on S̄ (1/(2s̄) alone would sum to 1/2) and δ_1 drops
  the 1/(4s) term. S̄ = ∅ cannot happen (the graph must be weakly observable).
* ``tuned`` replaces the 1/125 in δ_1 by the largest δ the proof's other conditions allow: η = δ^{1/(2γ)} ≤
  1/25 (Theorem 8) and η̄/δ = δ^{(1−γ)/(2γ)} ≤ 1/5 (Lemma 6, W ≥ δ on S̄), i.e. δ ≤ min{25^{−2γ},
  5^{−2γ/(1−γ)}} (0.117 at γ = 1/3, 1/25 at γ = 1/2). No theorem is lost: Theorem 8's analysis only needs
  those two.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.algorithm2 import corrected_loss
from regretlab.bandits.epochs import arm_sets, epoch_end_buffer, epoch_end_records, record_epoch_end
from regretlab.bandits.exp3g import importance_weighted_estimate
from regretlab.bandits.omd_weak import weak_hybrid_step
from regretlab.bandits.presets import require_preset
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability

#: Theorem 18 allows γ ∈ [1/3, 1/2]; the registry uses its end points, as Theorem 8's discussion does (line
#: 268): ``algorithm7`` (γ = 1/3) and ``algorithm7_half`` (γ = 1/2), like ``algorithm2_weak(_half)``.
GAMMA_RANGE = (1.0 / 3.0, 0.5)


def delta_cap(gamma: float, tuned: bool) -> float:
    """The constant in δ_1 = min{cap, 1/(4d), 1/(4s)}: 1/125 (Theorem 18), or the proof's weakest
    (``tuned``)."""
    if not tuned:
        return 1.0 / 125.0
    return min(25.0 ** (-2.0 * gamma), 5.0 ** (-2.0 * gamma / (1.0 - gamma)))


def first_reset_sum(delta_start: float, gamma: float) -> float:
    """δ_1^{−1/γ}: the epoch sum Σ_τ Σ_{i∈D} ℓ̂_{τ,i} at which the first reset fires (line 1325); until then
    Algorithm 7 is Algorithm 2 at δ_1, η_1, η̄_1 whatever L_D. Theorem 18's δ_1 = 1/125: 1.95·10⁶ at γ = 1/3,
    15625 at γ = 1/2."""
    return delta_start ** (-1.0 / gamma)


def first_reset_horizon(delta_start: float, gamma: float, d: int, loss_rate_d: float) -> float:
    """The smallest horizon at which the first reset fires in expectation: E Σ_{i∈D} ℓ̂_{t,i} =
    Σ_{i∈D} ℓ_{t,i}, so with ``loss_rate_d`` the mean per-round loss over Algorithm 7's D (d nodes; an
    instance file's ``mean_loss_D`` when D is the minimum one), T = ⌈δ_1^{−1/γ}/(d · loss_rate_d)⌉; +inf if
    the rate is 0.
    ``paper``, γ = 1/3, d = 2: at least 9.8·10⁵ rounds even with loss 1 on D."""
    if loss_rate_d <= 0:
        return math.inf
    return float(math.ceil(first_reset_sum(delta_start, gamma) / (d * loss_rate_d)))


def dominating_set_with_s_node(graph: FeedbackGraph) -> np.ndarray:
    """D (line 1329): the graph's minimum weakly dominating set, plus the lowest-index S node if it has
    none."""
    members = set(graph.weakly_dominating_set.members)
    if graph.s > 0 and not members & {int(i) for i in graph.S}:
        members.add(int(graph.S[0]))
    return np.array(sorted(members), dtype=np.int64)


@kernel
def set_epoch(delta, gamma, in_d, lower, rates):
    """``rates = [δ, η = δ^{1/(2γ)}, η̄ = δ^{1/2+1/(2γ)}, δ^{−1/γ}]`` and the lower bounds δ on D of epoch
    δ."""
    rates[0] = delta
    rates[1] = delta ** (1.0 / (2.0 * gamma))
    rates[2] = delta ** (0.5 + 1.0 / (2.0 * gamma))
    rates[3] = delta ** (-1.0 / gamma)
    for i in range(lower.shape[0]):
        lower[i] = delta if in_d[i] else 0.0


class Algorithm7Setup(NamedTuple):
    """The constants of a run of Algorithm 7.

    Attributes:
        p_first: ``(K,)`` p_1 (1/(2s) on S and 1/(2s̄) on S̄, or uniform if S = ∅), where every epoch starts.
        in_s: ``(K,)`` bool, the self-loop nodes S.
        in_d: ``(K,)`` bool, the set D of line 1329 (:func:`dominating_set_with_s_node`).
        gamma: γ ∈ [1/3, 1/2] (Theorem 18).
        adjacency: ``(K, K)`` bool, ``adjacency[j, i]`` iff j observes i.
    """

    p_first: np.ndarray
    in_s: np.ndarray
    in_d: np.ndarray
    gamma: float
    adjacency: np.ndarray


class Algorithm7State(NamedTuple):
    """The learner's state, updated in place by :func:`play_rounds` (the last two arrays are per-round
    buffers).

    Attributes:
        p: ``(K,)`` p_t.
        rates: ``(4,)`` ``[δ, η, η̄, δ^{−1/γ}]`` of the current epoch (:func:`set_epoch`).
        lower: ``(K,)`` the lower bounds of the epoch's Ω: δ on D, 0 elsewhere.
        epoch_sum: ``(1,)`` Σ_{τ in epoch} Σ_{i∈D} ℓ̂_{τ,i} (line 1325).
        counters: ``(1,)`` int64, the number of resets.
        reset_rounds: ``(R,)`` int64, the rounds t after which a reset happened (the first ``counters[0]``).
        epoch_ends: ``(R, K + 2)`` the tracker's totals at those rounds
            (:func:`regretlab.bandits.epochs.epoch_end_buffer`).
        loss_est: ``(K,)`` scratch for ℓ̂_t.
        grad: ``(K,)`` scratch for ℓ̂_t + a_t.
    """

    p: np.ndarray
    rates: np.ndarray
    lower: np.ndarray
    epoch_sum: np.ndarray
    counters: np.ndarray
    reset_rounds: np.ndarray
    epoch_ends: np.ndarray
    loss_est: np.ndarray
    grad: np.ndarray


@kernel
def play_rounds(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n`` of Algorithm 7 (steps 1–5 of the module docstring) with losses
    ``losses (n, K)`` and one uniform per round ``uniforms (n,)``; updates ``state``
    (:class:`Algorithm7State`) and the tracker's arrays in place and allocates nothing."""
    p_first, in_s, in_d = setup.p_first, setup.in_s, setup.in_d
    gamma, adjacency = setup.gamma, setup.adjacency
    p, rates, lower, epoch_sum = state.p, state.rates, state.lower, state.epoch_sum
    counters, reset_rounds, loss_est, grad = state.counters, state.reset_rounds, state.loss_est, state.grad
    k = p.shape[0]
    for r in range(losses.shape[0]):
        t = t0 + r + 1
        arm = sample_arm(p, uniforms[r])
        track_round(t, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        eta = rates[1]
        eta_bar = rates[2]
        corrected_loss(loss_est, p, in_s, eta, eta_bar, grad)
        for i in range(k):
            if in_d[i]:
                epoch_sum[0] += loss_est[i]
        weak_hybrid_step(p, grad, in_s, eta, eta_bar, lower, 0.0, p)
        if rates[3] <= epoch_sum[0]:
            if counters[0] < reset_rounds.shape[0]:
                reset_rounds[counters[0]] = t
                record_epoch_end(t, tracker, state.epoch_ends[counters[0]])
            counters[0] += 1
            set_epoch(0.5 * rates[0], gamma, in_d, lower, rates)
            epoch_sum[0] = 0.0
            for i in range(k):
                p[i] = p_first[i]


class Algorithm7:
    """Algorithm 7 with Theorem 18's δ_1 = min{1/125, 1/(4d), 1/(4s)}; never uses L* or L_D (adaptive).

    ``constants``: ``paper`` (δ_1 with 1/125) or ``tuned`` (see the module docstring); ``gamma`` ∈ [1/3, 1/2].
    ``params`` (read after the run) reports γ,
    D, δ_1, the final δ, η, η̄, the resets and their rounds. ``hypotheses`` are Theorem 8's conditions,
    which every
    epoch must meet (Theorem 18's proof applies Theorem 8 per epoch): δ ≤ min{1/125, 1/(4s), 1/(4d)} and
    δ ≥ 1/T (the final, smallest δ), η ≤ 1/25, η̄ ≤ δ^{4/3}, Lemma 6's η̄ ≤ δ/5, p_1 ∈ Ω, and §2's T ≥ 2K.
    Raises ValueError unless the graph is weakly observable.
    """

    name = "algorithm7"
    presets = ("paper", "tuned")

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        gamma: float = 1.0 / 3.0,
    ) -> None:
        require_preset(self.name, self.presets, constants)
        if not GAMMA_RANGE[0] - 1e-12 <= gamma <= GAMMA_RANGE[1]:
            raise ValueError(f"gamma must be in [1/3, 1/2] (Theorem 18), got {gamma}")
        graph.require_observability(Observability.WEAK, self.name, exact=True)
        tuned = constants == "tuned"
        self.gamma = float(gamma)
        k, s, s_bar = graph.n_arms, graph.s, graph.s_bar
        self.horizon = horizon
        self.members = dominating_set_with_s_node(graph)
        self.d = int(self.members.size)
        self.in_s = graph.self_loops.copy()
        self.in_d = np.zeros(k, dtype=np.bool_)
        self.in_d[self.members] = True
        if s > 0:
            self.p_first = np.where(self.in_s, 1.0 / (2 * s), 1.0 / (2 * s_bar))
        else:
            self.p_first = np.full(k, 1.0 / s_bar)
        caps = [delta_cap(self.gamma, tuned), 1.0 / (4 * self.d)] + ([1.0 / (4 * s)] if s > 0 else [])
        self.delta_start = min(caps)
        self.paper_delta_start = min([1.0 / 125.0, *caps[1:]])
        self.setup = Algorithm7Setup(
            p_first=self.p_first,
            in_s=self.in_s,
            in_d=self.in_d,
            gamma=self.gamma,
            adjacency=np.ascontiguousarray(graph.adjacency),
        )
        # The λ-th reset needs δ_λ^{−1/γ} ≤ Σ_epoch Σ_D ℓ̂ ≤ T d/δ_λ (ℓ̂_i ≤ 1/δ_λ on D, line 1363), so
        # 2^{(λ−1)(1/γ−1)} ≤ T d δ_1^{1−1/γ}: at most log2(T d) / (1/γ − 1) + log2(1/δ_1) + 1 resets.
        max_resets = int(math.log2(horizon * self.d) / (1.0 / self.gamma - 1.0) - math.log2(self.delta_start))
        self.state = Algorithm7State(
            p=np.zeros(k),
            rates=np.zeros(4),
            lower=np.zeros(k),
            epoch_sum=np.zeros(1),
            counters=np.zeros(1, dtype=np.int64),
            reset_rounds=np.zeros(max_resets + 4, dtype=np.int64),
            epoch_ends=epoch_end_buffer(max_resets + 4, k),
            loss_est=np.zeros(k),
            grad=np.zeros(k),
        )
        self._arm_sets = arm_sets(graph)
        self._begin(self.delta_start)
        self._rng = rng
        eta, eta_bar = self.rates[1], self.rates[2]
        self.hypotheses = {
            "delta_start_is_theorem18": self.delta_start == self.paper_delta_start,
            "eta_at_most_1_25": bool(eta <= 1.0 / 25.0),
            "eta_bar_at_most_delta_4_3": bool(eta_bar <= self.delta_start ** (4.0 / 3.0)),
            "lemma6_eta_bar_at_most_delta_over_5": bool(eta_bar <= self.delta_start / 5.0),
            "p1_in_omega": bool(np.all(self.p_first[self.in_d] >= self.delta_start)),
            "T_at_least_2K": horizon >= 2 * k,
        }

    def _begin(self, delta: float) -> None:
        """Start an epoch with ``delta`` from p_1 and an empty sum (what the kernel's reset does)."""
        set_epoch(delta, self.gamma, self.in_d, self.lower, self.rates)
        self.epoch_sum[0] = 0.0
        self.p[:] = self.p_first

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the distribution played next."""
        return self.state.p

    @property
    def rates(self) -> np.ndarray:
        """``(4,)`` ``[δ, η, η̄, δ^{−1/γ}]`` of the current epoch."""
        return self.state.rates

    @property
    def lower(self) -> np.ndarray:
        """``(K,)`` the lower bounds of the current Ω: δ on D, 0 elsewhere."""
        return self.state.lower

    @property
    def epoch_sum(self) -> np.ndarray:
        """``(1,)`` Σ_{τ in epoch} Σ_{i∈D} ℓ̂_{τ,i}."""
        return self.state.epoch_sum

    @property
    def delta(self) -> float:
        """The current δ (halved at every reset)."""
        return float(self.rates[0])

    @property
    def n_resets(self) -> int:
        """How many resets have happened (the number of epochs is one more)."""
        return int(self.state.counters[0])

    @property
    def params(self) -> dict:
        """Constants and resets so far (read after the run); ``delta_final_at_least_1_over_T`` is Theorem 8's
        δ ≥ 1/T for the last epoch's δ."""
        return {
            "gamma": self.gamma,
            "D": [int(i) for i in self.members],
            "d": self.d,
            "delta_start": self.delta_start,
            "delta_final": self.delta,
            "eta_final": float(self.rates[1]),
            "eta_bar_final": float(self.rates[2]),
            "n_resets": self.n_resets,
            "n_epochs": self.n_resets + 1,
            "reset_rounds": [int(t) for t in self.state.reset_rounds[: self.n_resets]],
            "epoch_ends": epoch_end_records(self.state.epoch_ends, self.n_resets, self._arm_sets),
            "delta_final_at_least_1_over_T": self.delta >= 1.0 / self.horizon,
        }

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        play_rounds(self.setup, self.state, losses, self._rng.random((losses.shape[0],)), t0, tracker)
