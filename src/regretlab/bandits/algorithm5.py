"""Algorithm 5 of paper 001 (Appendix D, §3.4): Õ(min{√(αT), √(κL*)} + K²) regret on self-aware graphs.

Stage 1 runs Hedge (OMD with the entropy over Δ(K)) with clipping of low-probability cliques and a doubling
trick on η, in meta-epochs; after ⌊log₂ T⌋ meta-epochs, stage 2 runs the algorithm of Theorem 2 from scratch
(:class:`regretlab.bandits.theorem2.Theorem2`) for the rest of the game. Theorem 14: η_init = 1/(4κ),
ε = 1/(2κ), where κ is the size of the clique partition {C_1, …, C_κ} of G_S = G used.

The pseudocode lost its keywords (and every line reference became "Line 5") in the text conversion. The
reconstruction implemented here, with the reading chosen at each ambiguity:

.. code-block:: text

    Ω = {p ∈ Δ(K) : p_i ≥ 1/T};  t = 1                         # Ω: used by stage 2 only (R7)
    for m = 1, 2, …, ⌊log₂ T⌋:                                  # meta-epochs
        η = η_init;  ε = 1/(2κ)                                  # (R3)
        for λ = 1, 2, …:                                         # epochs
            p_t = p̂_t = (1/K)·1;  T_λ = t − 1                   # (R2)
            while t ≤ T:
                pull i_t ~ p_t, observe ℓ_{t,i} for all i with i_t ∈ N_in(i)
                ℓ̂_{t,i} = ℓ_{t,i} 1{i_t ∈ N_in(i)} / Σ_{j∈N_in(i)} p_{t,j}  if p_{t,i} > 0,  else 0   # (R5)
                p̂_{t+1} = argmin_{p∈Δ(K)} ⟨p, ℓ̂_t⟩ + D_ψ(p, p̂_t),  ψ(p) = (1/η) Σ_i p_i ln p_i     # (R6)
                p_{t+1} = p̂_{t+1}                                                                  # (R1)
                for j = 1, …, κ:  if Σ_{i∈C_j} p_{t+1,i} ≤ ε:  p_{t+1,i} = 0 for all i ∈ C_j
                renormalise p_{t+1} to Δ(K)
                if 1/η ≤ 4ηκ min_i Σ_{τ=T_λ+1}^{t} ℓ̂_{τ,i}:
                    η ← η/2;  ε = max{2η, 1/T};  t ← t + 1
                    if η ≤ √(1/(αT)):  jump to the next meta-epoch   # (R4) "Jump to Line 5", first
                    else:              jump to the next epoch        # (R4) "Jump to Line 5", second
                t ← t + 1                                            # (R4) implicit end of the loop body
            break                                                    # t > T: the game is over
    run the algorithm of Theorem 2 (from scratch) for rounds t, …, T # (R7)

Readings:

(R1) The text has "p_t = p̂_t." right after the OMD line, then clips p_{t+1}: read as ``p_{t+1} = p̂_{t+1}``
     before clipping. The OMD state p̂ is never clipped: the next step starts from the unclipped p̂_{t+1}, not
     from the clipped p_{t+1}. This is what Lemma 15's proof uses (``p̂_{t,i} ∝ exp(−η Σ_τ ℓ̂_{τ,i})``, and
     ``p_{t,i}/Σ_{i'∈C_j} p_{t,i'} = p̂_{t,i}/Σ_{i'∈C_j} p̂_{t,i'}`` on a clique that is not clipped), and it
     lets a clipped clique come back once its p̂-mass exceeds ε again. The clipping test uses p̂_{t+1}'s clique
     masses; a clique with mass ≤ ε (not < ε) is clipped; renormalising divides by the remaining mass. At
     least one clique always survives, since ε < 1/κ (2η ≤ 1/(2κ) and 1/T < 1/K ≤ 1/κ).
(R2) At the start of an epoch both the played distribution p_t and the OMD state p̂_t are reset to uniform
     (Lemma 15's proof writes p̂ as exponential weights over the epoch's rounds only). The uniform p_t of an
     epoch's first round is not clipped: the pseudocode clips only after an OMD step (so Lemma 15's
     ``ℓ̂_{t,i} ≤ 1/ε`` may fail in that one round).
(R3) ε at the beginning of a meta-epoch is reset to its input value 1/(2κ), together with η = η_init. Lemma 15
     assumes ``ε = max{2η, 1/T}`` in every epoch, and max{2η_init, 1/T} = 1/(2κ) whenever T ≥ 2κ; leaving ε at
     the last halved value would break that premise for the whole next meta-epoch.
(R4) Both "Jump to Line 5" are lost line references. Following the prose ("once the learning rate is smaller
     than √(1/(αT)) (Line 5), we jump to Line 5 and reset it to the initial learning rate η = η_init") and
     Theorem 14's proof (the η of a meta-epoch's last round is ≤ √(4/(αT)) *before* being halved): the
     halved η is compared with √(1/(αT)); if it is at most that, the next meta-epoch starts (η = η_init),
     else the next epoch starts with the halved η. ``t ← t+1`` in the halving branch means the round's OMD
     result is discarded and the new epoch starts at round t+1 with uniform p (R2); when the condition fails,
     ``t ← t+1`` closes the loop body. The doubling test is evaluated after the round's update, with the
     epoch's sums up to and including round t. "break" is the exit when t > T: the game ended in stage 1. A
     halving in round T itself begins nothing (no epoch, meta-epoch or stage 2 without rounds is counted).
(R5) The estimator with ``p_{t,i} = 0`` is 0 even when i is observed (i_t ∈ N_in(i) with i_t outside i's
     clipped clique). For ``p_{t,i} > 0`` the denominator is at least ``p_{t,i}`` (self-loop): never 0.
(R6) OMD over the full simplex with the entropy has the closed form ``p̂_{t+1,i} ∝ p̂_{t,i} e^{−η ℓ̂_{t,i}}``;
     since p̂ is uniform at the epoch's start and η is constant within an epoch,
     ``p̂_{t+1,i} ∝ exp(−η Σ_{τ=T_λ+1}^{t} ℓ̂_{τ,i})`` exactly (the form used in Lemma 15's proof). It is
     computed from these sums, which the doubling test needs anyway; unlike the multiplicative update, a
     weight that falls below the float range is not stuck at 0 when the other arms catch up.
(R7) "for m = 1, 2, …, log₂ T" runs ⌊log₂ T⌋ meta-epochs (the integers m ≤ log₂ T). Stage 2 starts in the
     round after the halving that ends meta-epoch ⌊log₂ T⌋; it is Theorem 2's algorithm "from scratch":
     p uniform, η = 1/√(αT) and Ω = {p_i ≥ 1/T} with the game's horizon T (not the T − t remaining rounds,
     for which Ω could be empty), c = 64K. It samples with the same stream of uniforms as stage 1. The Ω of
     the pseudocode's "Define" line is used by stage 2 only: stage 1's OMD is over Δ(K), p_t may have zeros.
     The learner's ``params`` record the numbers of meta-epochs and epochs, whether stage 2 started and its
     first round.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.presets import require_preset
from regretlab.bandits.theorem2 import Theorem2
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph

# Indices into stage 1's progress array (an array, so the compiled kernel can update it in place).
_META_EPOCH = 0  # m, the current meta-epoch (1-based)
_EPOCHS = 1  # epochs begun so far in stage 1, over all meta-epochs
_STAGE2_START = 2  # first round of stage 2; 0 while stage 1 runs


@kernel
def clipped_estimate(p, loss, arm, adjacency, out):
    """Algorithm 5's estimator (R5), written into ``out``.

    ``ℓ̂_i = ℓ_i 1{arm ∈ N_in(i)} / Σ_{j∈N_in(i)} p_j`` if ``p_i > 0``, else 0."""
    k = p.shape[0]
    for i in range(k):
        if p[i] > 0.0 and adjacency[arm, i]:
            w = 0.0
            for j in range(k):
                if adjacency[j, i]:
                    w += p[j]
            out[i] = loss[i] / w
        else:
            out[i] = 0.0


@kernel
def _reset_epoch(p, p_hat, epoch_sums):
    """Start of an epoch (R2): p_t = p̂_t = uniform, the epoch's sums of ℓ̂ at 0."""
    k = p.shape[0]
    for i in range(k):
        p[i] = 1.0 / k
        p_hat[i] = 1.0 / k
        epoch_sums[i] = 0.0


class Stage1Setup(NamedTuple):
    """The constants of stage 1 (Theorem 14's tuning).

    Attributes:
        clique_of: ``(K,)`` int64, the clique of the partition {C_1, …, C_κ} each arm belongs to.
        eta_init: η_init = 1/(4κ), the η of a meta-epoch's first epoch (R3).
        eps_init: ε = 1/(2κ), the clipping threshold of a meta-epoch's first epoch (R3).
        eta_floor: √(1/(αT)): a halved η at most this ends the meta-epoch (R4).
        n_meta_epochs: ⌊log₂ T⌋, the meta-epochs before stage 2 (R7).
        horizon: T.
        adjacency: ``(K, K)`` bool, ``adjacency[j, i]`` iff j observes i.
    """

    clique_of: np.ndarray
    eta_init: float
    eps_init: float
    eta_floor: float
    n_meta_epochs: int
    horizon: int
    adjacency: np.ndarray


class Stage1State(NamedTuple):
    """Stage 1's state, updated in place by :func:`play_stage1` (the last two arrays are per-round buffers).

    Attributes:
        p: ``(K,)`` p_t, the clipped distribution played (R1).
        p_hat: ``(K,)`` p̂_t, the unclipped OMD state (R6).
        epoch_sums: ``(K,)`` Σ_{τ=T_λ+1}^{t} ℓ̂_{τ,i} of the current epoch (R6, the doubling test).
        rates: ``(2,)`` ``[η, ε]`` of the current epoch.
        progress: ``(3,)`` int64, indexed by ``_META_EPOCH``, ``_EPOCHS`` and ``_STAGE2_START``.
        clique_mass: ``(κ,)`` scratch for the cliques' p̂-masses (R1).
        loss_est: ``(K,)`` scratch for ℓ̂_t (R5).
    """

    p: np.ndarray
    p_hat: np.ndarray
    epoch_sums: np.ndarray
    rates: np.ndarray
    progress: np.ndarray
    clique_mass: np.ndarray
    loss_est: np.ndarray


@kernel
def play_stage1(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 …`` of Algorithm 5's first stage (see the module docstring) with losses
    ``losses (n, K)`` and one uniform per round ``uniforms (n,)``, until the chunk ends or stage 2 starts.
    Updates ``state`` (:class:`Stage1State`) and the tracker's arrays in place; allocates nothing. Returns the
    number of rounds played (fewer than the chunk's if stage 2 starts)."""
    clique_of, adjacency = setup.clique_of, setup.adjacency
    horizon, n_meta_epochs = setup.horizon, setup.n_meta_epochs
    eta_init, eps_init, eta_floor = setup.eta_init, setup.eps_init, setup.eta_floor
    p, p_hat, epoch_sums, rates = state.p, state.p_hat, state.epoch_sums, state.rates
    progress, clique_mass, loss_est = state.progress, state.clique_mass, state.loss_est
    k = p.shape[0]
    kappa = clique_mass.shape[0]
    eta = rates[0]
    eps = rates[1]
    for r in range(losses.shape[0]):
        t = t0 + r + 1
        arm = sample_arm(p, uniforms[r])
        track_round(t, losses[r], p, arm, tracker)
        clipped_estimate(p, losses[r], arm, adjacency, loss_est)
        smallest = np.inf
        for i in range(k):
            epoch_sums[i] += loss_est[i]
            smallest = min(smallest, epoch_sums[i])
        # p̂_{t+1} ∝ exp(−η Σ_{τ=T_λ+1}^{t} ℓ̂_τ) (R6), weights relative to the largest one
        total = 0.0
        for i in range(k):
            p_hat[i] = np.exp(-eta * (epoch_sums[i] - smallest))
            total += p_hat[i]
        for j in range(kappa):
            clique_mass[j] = 0.0
        for i in range(k):
            p_hat[i] /= total
            clique_mass[clique_of[i]] += p_hat[i]
        # p_{t+1} = p̂_{t+1}, cliques of mass ≤ ε clipped to 0, renormalised (R1)
        kept = 0.0
        for i in range(k):
            p[i] = p_hat[i] if clique_mass[clique_of[i]] > eps else 0.0
            kept += p[i]
        for i in range(k):
            p[i] /= kept
        # doubling trick (R4)
        if 1.0 / eta <= 4.0 * eta * kappa * smallest:
            eta /= 2.0
            eps = max(2.0 * eta, 1.0 / horizon)
            if t == horizon:  # the game is over: nothing begins after round T
                break
            if eta <= eta_floor:
                if progress[_META_EPOCH] == n_meta_epochs:
                    progress[_STAGE2_START] = t + 1
                    rates[0] = eta
                    rates[1] = eps
                    return r + 1
                progress[_META_EPOCH] += 1
                eta = eta_init
                eps = eps_init
            progress[_EPOCHS] += 1
            _reset_epoch(p, p_hat, epoch_sums)
    rates[0] = eta
    rates[1] = eps
    return losses.shape[0]


class Algorithm5:
    """Algorithm 5 (paper 001, Appendix D), Theorem 14's η_init = 1/(4κ) and ε = 1/(2κ); self-aware graphs.

    κ is the size of the graph's clique partition (exact for K ≤ 20, else a heuristic's; the theorem holds for
    any partition with κ its size) and α its independence number (an upper bound when K > 20).

    Presets:
        ``paper``: the theorem's constants; stage 2 is Theorem 2's algorithm with c = 64K.
        ``tuned``: stage 2 uses Theorem 2's ``tuned`` preset (c = K). Stage 1 has no large numerical constant
            (η_init, ε and the doubling test come from Lemma 15's proof) and is unchanged.

    ``L_star`` is accepted for a uniform constructor signature and ignored: Algorithm 5 is parameter-free.
    Raises ValueError on a graph that is not self-aware, or if T ≤ K (Ω of stage 2 empty or a point).

    After a run, ``params`` holds ``meta_epochs`` (meta-epochs begun), ``epochs`` (epochs begun in stage 1,
    over all meta-epochs), ``stage2_started`` and ``stage2_start_round`` (None if stage 2 never started), and
    the final ``eta`` and ``epsilon`` of stage 1. ``p`` and ``p_hat`` are stage 1's played distribution and
    OMD state; in stage 2 the played distribution is ``stage2.p``.
    """

    name = "algorithm5"
    presets = ("paper", "tuned")

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        L_star: float | None = None,
    ) -> None:
        require_preset(self.name, self.presets, constants)
        if not graph.is_self_aware:
            raise ValueError(
                "Algorithm 5 requires a self-aware feedback graph (paper 001, §3.4 and Appendix D), but "
                f"nodes (0-based) {graph.S_bar.tolist()} have no self-loop"
            )
        k = graph.n_arms
        partition = graph.clique_partition
        alpha = graph.independence_number.value
        self.kappa = partition.value
        self.clique_of = np.empty(k, dtype=np.int64)
        for j, clique in enumerate(partition.members):
            self.clique_of[list(clique)] = j
        self.eta_init = 1.0 / (4.0 * self.kappa)
        self.eps_init = 1.0 / (2.0 * self.kappa)
        self.eta_floor = math.sqrt(1.0 / (alpha * horizon))
        self.n_meta_epochs = horizon.bit_length() - 1  # ⌊log₂ T⌋ (R7)
        self.horizon = horizon
        # stage 2, from scratch: untouched until it starts, then fed this learner's uniforms (see play)
        self.stage2 = Theorem2(graph, horizon, rng, constants)
        self.setup = Stage1Setup(
            clique_of=self.clique_of,
            eta_init=self.eta_init,
            eps_init=self.eps_init,
            eta_floor=self.eta_floor,
            n_meta_epochs=self.n_meta_epochs,
            horizon=horizon,
            adjacency=np.ascontiguousarray(graph.adjacency),
        )
        self.state = Stage1State(
            p=np.full(k, 1.0 / k),
            p_hat=np.full(k, 1.0 / k),
            epoch_sums=np.zeros(k),
            rates=np.array([self.eta_init, self.eps_init]),
            progress=np.array([1, 1, 0], dtype=np.int64),  # see the _META_EPOCH … constants
            clique_mass=np.zeros(self.kappa),
            loss_est=np.zeros(k),
        )
        self._rng = rng
        self.params: dict = {
            "eta_init": self.eta_init,
            "epsilon_init": self.eps_init,
            "eta_floor": self.eta_floor,
            "max_meta_epochs": self.n_meta_epochs,
            "kappa": self.kappa,
            "alpha": alpha,
            "constants": constants,
            "stage2": self.stage2.params,
        }
        self._record_progress()
        self.hypotheses = {"T_at_least_2K": horizon >= 2 * k}  # §2; Lemma 15 uses it for κε ≤ 1/2

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` stage 1's played distribution p_t."""
        return self.state.p

    @property
    def p_hat(self) -> np.ndarray:
        """``(K,)`` stage 1's OMD state p̂_t."""
        return self.state.p_hat

    @property
    def eta(self) -> float:
        """The current η of stage 1."""
        return float(self.state.rates[0])

    @property
    def epsilon(self) -> float:
        """The current clipping threshold ε of stage 1."""
        return float(self.state.rates[1])

    @property
    def stage2_start(self) -> int | None:
        """The first round of stage 2, or None while stage 1 runs."""
        start = int(self.state.progress[_STAGE2_START])
        return start if start > 0 else None

    def _record_progress(self) -> None:
        self.params.update(
            {
                "meta_epochs": int(self.state.progress[_META_EPOCH]),
                "epochs": int(self.state.progress[_EPOCHS]),
                "stage2_started": self.stage2_start is not None,
                "stage2_start_round": self.stage2_start,
                "eta": self.eta,
                "epsilon": self.epsilon,
            }
        )

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``.

        One uniform per round is drawn from this learner's rng, in both stages, so a run does not depend on
        where the chunks are cut (stage 2 may start inside a chunk).
        """
        uniforms = self._rng.random(losses.shape[0])
        played = 0
        if self.stage2_start is None:
            played = play_stage1(self.setup, self.state, losses, uniforms, t0, tracker)
            self._record_progress()
        if played < losses.shape[0]:
            self.stage2.play_with_uniforms(losses[played:], uniforms[played:], t0 + played, tracker)
