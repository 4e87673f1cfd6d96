"""Algorithm 6 of paper 001 (App. E.3, lines 1087–1113): Algorithm 2 for directed complete bipartite graphs
with clipping and a doubling trick on η, no knowledge of L_{i*_S} (Theorem 17, lines 1119–1123).

Each epoch λ (a run of Algorithm 2 from scratch) has η_λ = 2^{1−λ} η_1, η̄_λ = s^{−2/3} η_λ^{4/3}, μ_λ = η_λ
√η̄_λ / s, the decision set Ω = {p ∈ Δ(K) : Σ_{i∈S} p_i ≥ √η̄_λ} and the hybrid regulariser ψ(p) = (1/η) Σ_S
ln(1/p_i) + (1/η̄) Σ_{S̄} p_i ln p_i. A round t of epoch λ:

1. play i_t ~ p_t (the *clipped* distribution) and observe ℓ_{t,i} for i with i_t ∈ N_in(i);
2. ℓ̂_{t,i} = 0 if p_{t,i} = 0, else ℓ_{t,i} 1{i_t ∈ N_in(i)} / W_{t,i}, W_{t,i} = Σ_{j∈N_in(i)} p_{t,j} (lines
   1101–1102);
3. a_{t,i} = 2η p_{t,i} ℓ̂²_{t,i} on S, 2η̄ ℓ̂²_{t,i} on S̄ (line 1104), with the played p_t;
4. p̂_{t+1} = argmin_Ω ⟨p, ℓ̂_t + a_t⟩ + D_ψ(p, p̂_t) (line 1106): OMD runs on the unclipped p̂, which is
   never clipped itself (:func:`regretlab.bandits.omd_weak.weak_hybrid_step`, exact);
5. clipping (lines 1108–1110): on S, p_{t+1,i} = p̂_{t+1,i} 1{p̂_{t+1,i} ≥ μ} · Σ_S p̂_{t+1} / Σ_S p̂_{t+1} 1{p̂ ≥
   μ}; on S̄, p_{t+1,i} = p̂_{t+1,i}. The mass of S is kept, so p_{t+1} ∈ Ω too;
6. reset test (line 1112): if s/η ≤ η · min_{i∈S} Σ_{τ=T_λ+1}^{t} ℓ̂_{τ,i}, then η ← η/2 and epoch λ+1 starts
   at t + 1 with p̂_{t+1} = p_{t+1} = p_1 and empty sums.

p_1 = 1/(2s) on S and 1/(2s̄) on S̄ (line 1090); η_1 = min{1/5, 1/s} (Theorem 17).

Choices where the text is ambiguous or breaks (docs/choices-paper001.md):

* Line 1112's sum is written Σ_{τ=T_λ+1}^{t} ℓ̂_{t,i}; the index t is a typo for τ (the proof, line 1147 and
  its λ* bound, line 1191, sums ℓ̂_{τ,i} over the epoch's rounds). The comparison is non-strict, the test runs
  after every round including round T (a reset there has no effect).
* **η̄ is capped at 1/25**: η̄_λ = min{s^{−2/3} η_λ^{4/3}, 1/25}. Lemma 6 (line 238) needs W_{t,i} ≥ 5η̄ on
  S̄, and W_{t,i} = Σ_S p_{t} ≥ √η̄ on a directed complete bipartite graph, so it needs √η̄ ≥ 5η̄, i.e. η̄ ≤
  1/25 — the condition Theorem 7 states. With η_1 = 1/5 and s ≤ 4 the uncapped η̄_1 = s^{−2/3} 5^{−4/3}
  exceeds 1/25 (s = 5 gives exactly 1/25); the cap binds only for the first epochs (η̄ shrinks by 2^{−4/3} per
  epoch) and only strengthens the exploration constraint. ``params["eta_bar_capped_epochs"]`` reports how many
  epochs it bound.
* ℓ̂_{t,i} = 0 where p_{t,i} = 0 exactly as line 1101 says, even if another S node observes i (not on the
  bipartite family, whose S nodes only observe themselves and S̄).
* S = ∅: not allowed (ValueError). Then Ω = {0 ≥ √η̄} is empty, η_1 = min{1/5, 1/0} and η̄ = 0^{−2/3}η^{4/3}
  are undefined, and Theorem 17's bound is in terms of i*_S; a weakly observable graph with S = ∅ (e.g. a
  3-cycle without self-loops) satisfies the bipartite definition only vacuously.
* There is no ``tuned`` preset: the only numerical constant, η_1 ≤ 1/5, is Lemma 6's condition η ≤ 1/5.
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

#: Lemma 6's condition on a directed complete bipartite graph: √η̄ ≥ 5η̄ ⟺ η̄ ≤ 1/25.
ETA_BAR_CAP = 1.0 / 25.0


@kernel
def set_epoch(eta, s, rates):
    """``rates = [η, η̄, θ = √η̄, μ = η√η̄/s]`` of an epoch with learning rate ``eta``: η̄ = min{s^{−2/3}
    η^{4/3}, :data:`ETA_BAR_CAP`} (line 1093, capped for Lemma 6; see the module docstring)."""
    eta_bar = min(s ** (-2.0 / 3.0) * eta ** (4.0 / 3.0), ETA_BAR_CAP)
    rates[0] = eta
    rates[1] = eta_bar
    rates[2] = math.sqrt(eta_bar)
    rates[3] = eta * math.sqrt(eta_bar) / s


@kernel
def clip_on_s(p_hat, in_s, mu, out):
    """Line 1106: zero the S coordinates of ``p_hat`` below ``mu``, rescale the others to keep Σ_S; copy S̄.

    Returns the number of S coordinates set to 0. The survivors' mass is positive: Σ_S p̂ ≥ √η̄ and
    μ < √η̄/s, so the largest S coordinate (≥ Σ_S p̂ / s) survives.
    """
    total = 0.0
    kept = 0.0
    for i in range(p_hat.shape[0]):
        if in_s[i]:
            total += p_hat[i]
            if p_hat[i] >= mu:
                kept += p_hat[i]
    scale = total / kept
    clipped = 0
    for i in range(p_hat.shape[0]):
        if in_s[i]:
            if p_hat[i] >= mu:
                out[i] = p_hat[i] * scale
            else:
                out[i] = 0.0
                clipped += 1
        else:
            out[i] = p_hat[i]
    return clipped


class Algorithm6Setup(NamedTuple):
    """The constants of a run of Algorithm 6.

    Attributes:
        p_first: ``(K,)`` p_1 = 1/(2s) on S, 1/(2s̄) on S̄ (line 1090), where every epoch starts.
        in_s: ``(K,)`` bool, the self-loop nodes S.
        s: |S| (a float: it enters η̄ = s^{−2/3} η^{4/3} and μ = η√η̄/s).
        lower: ``(K,)`` zeros, the lower bounds of Ω handed to the OMD step (Ω's only constraint is on Σ_S p).
        adjacency: ``(K, K)`` bool, ``adjacency[j, i]`` iff j observes i.
    """

    p_first: np.ndarray
    in_s: np.ndarray
    s: float
    lower: np.ndarray
    adjacency: np.ndarray


class Algorithm6State(NamedTuple):
    """The learner's state, updated in place by :func:`play_rounds` (the last two arrays are per-round
    buffers).

    Attributes:
        p: ``(K,)`` p_t, the clipped distribution played (line 1108).
        p_hat: ``(K,)`` p̂_t, the unclipped OMD iterate (line 1106).
        rates: ``(4,)`` ``[η, η̄, √η̄, μ]`` of the current epoch (:func:`set_epoch`).
        epoch_sum: ``(K,)`` Σ_{τ in epoch} ℓ̂_{τ,i} on S (line 1112; 0 on S̄).
        counters: ``(3,)`` int64, [resets, rounds after which clipping removed at least one arm, arms
            clipped in total].
        reset_rounds: ``(R,)`` int64, the rounds t after which a reset happened (the first ``counters[0]``).
        epoch_ends: ``(R, K + 2)`` the tracker's totals at those rounds
            (:func:`regretlab.bandits.epochs.epoch_end_buffer`).
        loss_est: ``(K,)`` scratch for ℓ̂_t.
        grad: ``(K,)`` scratch for ℓ̂_t + a_t (line 1104).
    """

    p: np.ndarray
    p_hat: np.ndarray
    rates: np.ndarray
    epoch_sum: np.ndarray
    counters: np.ndarray
    reset_rounds: np.ndarray
    epoch_ends: np.ndarray
    loss_est: np.ndarray
    grad: np.ndarray


@kernel
def play_rounds(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n`` of Algorithm 6 (steps 1–6 of the module docstring, lines 1093–1112) with
    losses ``losses (n, K)`` and one uniform per round ``uniforms (n,)``; updates ``state``
    (:class:`Algorithm6State`) and the tracker's arrays in place and allocates nothing."""
    p_first, in_s, s, lower, adjacency = setup.p_first, setup.in_s, setup.s, setup.lower, setup.adjacency
    p, p_hat, rates, epoch_sum = state.p, state.p_hat, state.rates, state.epoch_sum
    counters, reset_rounds, loss_est, grad = state.counters, state.reset_rounds, state.loss_est, state.grad
    k = p.shape[0]
    for r in range(losses.shape[0]):
        t = t0 + r + 1
        arm = sample_arm(p, uniforms[r])
        track_round(t, losses[r], p, arm, tracker)
        importance_weighted_estimate(p, losses[r], arm, adjacency, loss_est)
        eta = rates[0]
        eta_bar = rates[1]
        for i in range(k):
            if p[i] == 0.0:
                loss_est[i] = 0.0
            if in_s[i]:
                epoch_sum[i] += loss_est[i]
        corrected_loss(loss_est, p, in_s, eta, eta_bar, grad)
        weak_hybrid_step(p_hat, grad, in_s, eta, eta_bar, lower, rates[2], p_hat)
        smallest = np.inf
        for i in range(k):
            if in_s[i]:
                smallest = min(smallest, epoch_sum[i])
        if s / eta <= eta * smallest:
            if counters[0] < reset_rounds.shape[0]:
                reset_rounds[counters[0]] = t
                record_epoch_end(t, tracker, state.epoch_ends[counters[0]])
            counters[0] += 1
            set_epoch(0.5 * eta, s, rates)
            for i in range(k):
                p_hat[i] = p_first[i]
                p[i] = p_first[i]
                epoch_sum[i] = 0.0
        else:
            clipped = clip_on_s(p_hat, in_s, rates[3], p)
            if clipped > 0:
                counters[1] += 1
                counters[2] += clipped


def _require_directed_complete_bipartite(graph: FeedbackGraph, name: str) -> None:
    """Raise unless G is weakly observable, S ≠ ∅ and (i, j) ∈ E for every i ∈ S, j ∈ S̄ (§2, line 60)."""
    graph.require_observability(Observability.WEAK, name, exact=True)
    if graph.s == 0:
        raise ValueError(
            f"{name} needs S ≠ ∅: with no self-loop node its decision set Σ_S p ≥ √η̄ is empty "
            "(paper 001, Algorithm 6)"
        )
    missing = [(int(i), int(j)) for i in graph.S for j in graph.S_bar if not graph.adjacency[i, j]]
    if missing:
        raise ValueError(
            f"{name} requires a directed complete bipartite graph ((i, j) ∈ E for all i ∈ S, j ∈ S̄; "
            f"paper 001 §2): missing edges (0-based) {missing[:5]}"
        )


class Algorithm6:
    """Algorithm 6 with Theorem 17's η_1 = min{1/5, 1/s}; never uses L* or L_{i*_S} (adaptive).

    ``params`` (read after the run) reports η_1, the final η and η̄, the resets and the rounds after which
    they happened, how many epochs had η̄ capped at 1/25, and the clipping counts. ``hypotheses``: η_1 ≤ 1/5
    (Algorithm 6's input condition), η̄ ≤ 1/25 in every epoch (Lemma 6's condition, true by the cap) and
    §2's T ≥ 2K.
    Raises ValueError unless the graph is directed complete bipartite with S ≠ ∅.
    """

    name = "algorithm6"
    presets = ("paper",)

    def __init__(
        self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str = "paper"
    ) -> None:
        require_preset(self.name, self.presets, constants)
        _require_directed_complete_bipartite(graph, self.name)
        k, s = graph.n_arms, graph.s
        self.s = s
        self.in_s = graph.self_loops.copy()
        self.p_first = np.where(self.in_s, 1.0 / (2 * s), 1.0 / (2 * graph.s_bar))
        self.eta_start = min(1.0 / 5.0, 1.0 / s)
        rates = np.zeros(4)
        set_epoch(self.eta_start, float(s), rates)
        self.setup = Algorithm6Setup(
            p_first=self.p_first,
            in_s=self.in_s,
            s=float(s),
            lower=np.zeros(k),
            adjacency=np.ascontiguousarray(graph.adjacency),
        )
        # The λ-th reset needs s/η_λ² ≤ min_S Σ ℓ̂ ≤ T/μ_λ (ℓ̂ ≤ 1/μ_λ on the S arms kept), i.e.
        # s^{−1/3}η_λ^{−1/3} ≤ T, so 2^{λ−1} ≤ s η_1 T³ ≤ T³: at most 3 log2(T) + 1 resets.
        max_resets = 3 * int(math.log2(horizon + 1)) + 8
        self.state = Algorithm6State(
            p=self.p_first.copy(),
            p_hat=self.p_first.copy(),
            rates=rates,
            epoch_sum=np.zeros(k),
            counters=np.zeros(3, dtype=np.int64),
            reset_rounds=np.zeros(max_resets, dtype=np.int64),
            epoch_ends=epoch_end_buffer(max_resets, k),
            loss_est=np.zeros(k),
            grad=np.zeros(k),
        )
        self._arm_sets = arm_sets(graph)
        self._rng = rng
        self.hypotheses = {
            "eta_start_at_most_1_5": self.eta_start <= 0.2,
            "eta_bar_at_most_1_25": self.eta_bar <= ETA_BAR_CAP,
            "T_at_least_2K": horizon >= 2 * k,
        }

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the clipped distribution played next."""
        return self.state.p

    @property
    def p_hat(self) -> np.ndarray:
        """``(K,)`` p̂_t, the unclipped OMD iterate."""
        return self.state.p_hat

    @property
    def epoch_sum(self) -> np.ndarray:
        """``(K,)`` Σ_{τ in epoch} ℓ̂_{τ,i} on S (0 on S̄)."""
        return self.state.epoch_sum

    @property
    def eta(self) -> float:
        """The current η (halved at every reset)."""
        return float(self.state.rates[0])

    @property
    def eta_bar(self) -> float:
        """The current η̄ = min{s^{−2/3} η^{4/3}, 1/25}."""
        return float(self.state.rates[1])

    @property
    def mu(self) -> float:
        """The current clipping threshold μ = η√η̄/s."""
        return float(self.state.rates[3])

    @property
    def n_resets(self) -> int:
        """How many resets have happened (the number of epochs is one more)."""
        return int(self.state.counters[0])

    @property
    def params(self) -> dict:
        """Constants, resets and clipping counts so far (read after the run)."""
        n_epochs = self.n_resets + 1
        capped = sum(
            1
            for lam in range(n_epochs)
            # s = 5 gives 1/25 exactly, up to rounding: not counted as capped
            if self.s ** (-2.0 / 3.0) * (self.eta_start * 0.5**lam) ** (4.0 / 3.0) > ETA_BAR_CAP * (1 + 1e-12)
        )
        return {
            "eta_start": self.eta_start,
            "eta_final": self.eta,
            "eta_bar_final": self.eta_bar,
            "n_resets": self.n_resets,
            "n_epochs": n_epochs,
            "reset_rounds": [int(t) for t in self.state.reset_rounds[: self.n_resets]],
            "epoch_ends": epoch_end_records(self.state.epoch_ends, self.n_resets, self._arm_sets),
            "eta_bar_capped_epochs": capped,
            "clipping_rounds": int(self.state.counters[1]),
            "clipped_arms": int(self.state.counters[2]),
        }

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        play_rounds(self.setup, self.state, losses, self._rng.random((losses.shape[0],)), t0, tracker)
