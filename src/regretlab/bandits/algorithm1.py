"""Algorithm 1 of paper 001 (§3.3): OMD on a meta-graph of cliques, with adaptive Hedge inside each clique.

Let C_1, …, C_κ be a clique partition of G_S (``graph.clique_partition``). The meta-graph has β = κ + s̄ nodes:
meta-node j ∈ [κ] is the clique C_j (it has a self-loop), the others are the nodes of S̄. The learner keeps

* p_t ∈ Ω = {p ∈ Δ(β) : p_j ≥ 1/T}, updated by OMD (eq. (2)) with the time-varying regulariser of eq. (7),
  ψ_t(p) = Σ_{j∈[κ]} (1/η_{t,j}) ln(1/p_j) + (1/η) Σ_{j∈S̄} p_j ln p_j + c Σ_{j∈S̄} ln(1/p_j);
* κ instances A_j of Hedge with adaptive learning rates (Algorithm 3, Appendix C.1), A_j over
  Ω_j = {p ∈ Δ(K) : p_i ≥ 1/(|C_j| T) on C_j, p_i = 0 off C_j}, with learning rate
  η_t = (1 + Σ_{τ≤t} Σ_i p̃_{τ,i} ℓ̃_{τ,i}²)^{-1/2};
* thresholds ρ_{t,j} and rates η_{t,j} for the increasing-learning-rate rule (Agarwal et al., 2017).

The probability of playing arm i at round t — the distribution the pseudo-regret is accounted with — is
p_{t,j} p̃^{(j)}_{t,i} for i ∈ C_j and p_{t,i} for i ∈ S̄ (proof of Theorem 4: E⟨p_t, ℓ̂_t⟩ = E ℓ_{t,i_t}).

The text of Algorithm 1 lost its keywords and line numbers. The pseudocode is read as follows; every reading
is backed by the prose of §3.3 or the proofs of Appendix C.

1. "t = 1, 2, …, T For each j ∈ [κ], receive p̃_t^{(j)}…" is the loop ``for t = 1, …, T`` and its first line;
   the set written ``{p ∈ Δ(K) : p_{t,i} = 0 ∀ i ∉ C_j}`` is Ω_j's support condition p_i = 0 off C_j.
2. "j_t ∈ [κ] draw i_t ∼ p̃_t^{(j_t)}; else let i_t = j_t" is ``if j_t ∈ [κ] then i_t ∼ p̃_t^{(j_t)} else
   i_t = j_t`` (prose: "If j_t happens to be a node in S̄, we play i_t = j_t; otherwise, we sample i_t from the
   distribution received from A_{j_t}"). j_t and i_t use two independent uniforms of the learner's rng.
3. ℓ̃_{t,i} = ℓ_{t,i}/p_{t,j_t} · 1{j_t ∈ [κ], i ∈ C_{j_t}} for i ∈ S and ℓ̃_{t,i} = ℓ_{t,i}/(1 − p_{t,i}) ·
   1{i ≠ i_t} for i ∈ S̄, where p_{t,i} is the meta-probability of the S̄ node i (= its probability of being
   played). Both use only losses that i_t reveals: C_{j_t} is a clique of nodes with self-loops, and a node
   of S̄ is observed by every other node (strong observability).
4. "For each j ∈ [κ], feed ℓ̃_t to A_j" is one round of Algorithm 3 for every instance, whose η_t includes
   round t's term Σ_i p̃_{t,i} ℓ̃_{t,i}² (the sum runs to τ = t as printed). An instance whose
   clique carries ℓ̃_t = 0 (every j ≠ j_t) has Σ_i p̃_{t,i} ℓ̃_{t,i}² = 0, so η_t is unchanged, and
   argmin_{p∈Ω_j} D_{ψ_t}(p, p̃_t) = p̃_t: its update is the identity and is skipped (only A_{j_t} moves).
5. ℓ̂_{t,j} = ⟨p̃_t^{(j)}, ℓ̃_t⟩ for j ∈ [κ] uses p̃_t^{(j)}, the distribution A_j proposed at round t, i.e.
   before it is fed ℓ̃_t (the subscript t; Theorem 4's decomposition needs ⟨p_t, ℓ̂_t⟩ = Σ_j p_{t,j}
   ⟨p̃_t^{(j)}, ℓ̃_t⟩ + …). It is 0 for every clique but C_{j_t}. ℓ̂_{t,j} = ℓ̃_{t,j} for j ∈ S̄.
6. Eq. (7): the clique meta-nodes carry η_{t,j}, the S̄ nodes the fixed η (the text says only η_{t,j},
   j ∈ [κ], is time-varying).
7. "j ∈ [κ] 1/p_{t+1,j} > ρ_{t,j} set ρ_{t+1,j} = 2/p_{t+1,j}, η_{t+1,j} = η_{t,j} e^{1/ln T}. set
   ρ_{t+1,j} = ρ_{t,j}, η_{t+1,j} = η_{t,j}" is ``for j ∈ [κ]: if 1/p_{t+1,j} > ρ_{t,j} then … else …``,
   run after the OMD step (prose: "Every time after the OMD update, if … 1/p_{t+1,j} exceeds the threshold
   ρ_{t,j}, we increase the learning rate"); the comparison is strict, ρ_{1,j} = 2κ.
8. p_1 = argmin_{p∈Ω} ψ_1(p) (eq. (7) with η_{1,j} = η) is computed with the exact OMD solver: for any
   q ∈ Ω, ⟨p, ∇ψ_1(q)⟩ + D_{ψ_1}(p, q) = ψ_1(p) + const, so the OMD step from the uniform q with the loss
   vector ∇ψ_1(q) is argmin_Ω ψ_1. By symmetry p_1 is constant on the cliques and constant on S̄.
9. The meta-nodes are numbered 0-based: 0, …, κ−1 are the cliques in the order of ``graph.clique_partition``
   (by smallest node), κ, …, β−1 the nodes of S̄ in increasing order (the paper's w.l.o.g. relabelling).
   That partition is a minimum one for s ≤ 20 and a heuristic one above; as §2 notes, the algorithm works
   with any clique partition, κ then being its size (``params["clique_partition_exact"]`` says which).
10. T in Ω, in Algorithm 3's Ω_j and in e^{1/ln T} is the horizon, which the learner knows (as in every
    algorithm of the paper); this needs T > β (Ω non-empty with an interior).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from regretlab.bandits.omd import adaptive_hedge_step, hybrid_workspace, time_varying_hybrid_step
from regretlab.bandits.presets import require_preset
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import allocating, kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability

PRESETS = ("paper", "tuned")


class MetaGraph(NamedTuple):
    """The meta-graph of §3.3 as arrays (see reading 9 of the module docstring for the numbering).

    Attributes:
        kappa: κ, the number of cliques (meta-nodes 0 … κ−1).
        in_s: ``(β,)`` bool, the meta-nodes with a self-loop (the cliques).
        arm_of_meta: ``(β,)`` the arm of an S̄ meta-node, −1 for a clique.
        meta_of_arm: ``(K,)`` the meta-node of each arm (its clique, or itself for S̄).
        members: ``(κ, max |C_j|)`` the arms of each clique, in increasing order, padded with −1.
        sizes: ``(κ,)`` |C_j|.
        in_clique: ``(κ, K)`` bool mask of each clique.
    """

    kappa: int
    in_s: np.ndarray
    arm_of_meta: np.ndarray
    meta_of_arm: np.ndarray
    members: np.ndarray
    sizes: np.ndarray
    in_clique: np.ndarray


class MetaGraphSetup(NamedTuple):
    """The constants of a run.

    Attributes:
        c: log-barrier weight of eq. (7) on S̄.
        growth: e^{1/ln T}, the factor of the learning-rate increase.
        rho_start: ρ_{1,j} = 2κ.
        lower: ``(β,)`` the bounds 1/T of Ω.
        hedge_lower: ``(κ, K)`` the bounds 1/(|C_j| T) of Algorithm 3's Ω_j on C_j, 0 elsewhere.
    """

    c: float
    growth: float
    rho_start: float
    lower: np.ndarray
    hedge_lower: np.ndarray


class MetaGraphState(NamedTuple):
    """The learner's state, updated in place by the kernels (the last three arrays are per-round buffers).

    Attributes:
        p: ``(β,)`` p_t.
        eta_meta: ``(β,)`` the learning rates of eq. (7): η_{t,j} on the cliques, η on S̄.
        rho: ``(κ,)`` the thresholds ρ_{t,j}.
        hedge: ``(κ, K)`` the Hedge distributions p̃_t^{(j)}.
        second_moment: ``(κ,)`` Σ_{τ<t} Σ_i p̃_{τ,i} ℓ̃_{τ,i}² of each A_j (Algorithm 3, line 3).
        rate_increases: ``(κ,)`` how often the learning-rate rule fired for each clique (diagnostic).
        loss_tilde: ``(K,)`` scratch for ℓ̃_t.
        loss_hat: ``(β,)`` scratch for ℓ̂_t.
        arm_p: ``(K,)`` scratch for the distribution of i_t.
        work: ``(HYBRID_WORK_ROWS, β)`` scratch of the OMD step
            (:func:`~regretlab.bandits.omd.hybrid_workspace`).
    """

    p: np.ndarray
    eta_meta: np.ndarray
    rho: np.ndarray
    hedge: np.ndarray
    second_moment: np.ndarray
    rate_increases: np.ndarray
    loss_tilde: np.ndarray
    loss_hat: np.ndarray
    arm_p: np.ndarray
    work: np.ndarray


def meta_graph(graph: FeedbackGraph) -> MetaGraph:
    """The meta-graph of ``graph`` from its clique partition of G_S (§3.3, Figure 1)."""
    cliques = graph.clique_partition.members
    kappa = len(cliques)
    k = graph.n_arms
    beta = kappa + graph.s_bar
    meta_of_arm = np.empty(k, dtype=np.int64)
    arm_of_meta = np.full(beta, -1, dtype=np.int64)
    members = np.full((kappa, max((len(c) for c in cliques), default=0)), -1, dtype=np.int64)
    in_clique = np.zeros((kappa, k), dtype=bool)
    for j, clique in enumerate(cliques):
        meta_of_arm[list(clique)] = j
        members[j, : len(clique)] = clique
        in_clique[j, list(clique)] = True
    for offset, arm in enumerate(graph.S_bar):
        meta_of_arm[arm] = kappa + offset
        arm_of_meta[kappa + offset] = arm
    return MetaGraph(
        kappa=kappa,
        in_s=np.arange(beta) < kappa,
        arm_of_meta=arm_of_meta,
        meta_of_arm=meta_of_arm,
        members=members,
        sizes=np.array([len(c) for c in cliques], dtype=np.int64),
        in_clique=in_clique,
    )


# ------------------------------------------------------------------------------------------------------------
# Kernel pieces (shared with Algorithm 4)
# ------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def sample_meta_and_arm(p, hedge, meta, u_meta, u_arm):
    """Algorithm 1, lines "Sample j_t ∼ p_t" and "if j_t ∈ [κ] draw i_t ∼ p̃^{(j_t)} else i_t = j_t".

    Returns ``(j_t, i_t)``. The clique draw runs over the members of C_{j_t} only, so a sum of p̃ that falls
    short of 1 by rounding can never yield an arm outside the clique.
    """
    j = sample_arm(p, u_meta)
    if j >= meta.kappa:
        return j, meta.arm_of_meta[j]
    members = meta.members
    acc = 0.0
    last = meta.sizes[j] - 1
    for m in range(last):
        acc += hedge[j, members[j, m]]
        if u_arm < acc:
            return j, members[j, m]
    return j, members[j, last]


@njit(cache=True, inline="always")
def arm_distribution(p, hedge, meta, out):
    """The law of i_t: ``p_j p̃^{(j)}_i`` for i ∈ C_j, ``p_i`` for i ∈ S̄; writes ``out (K,)``."""
    meta_of_arm = meta.meta_of_arm
    kappa = meta.kappa
    for i in range(out.shape[0]):
        j = meta_of_arm[i]
        out[i] = p[j] * hedge[j, i] if j < kappa else p[j]


@njit(cache=True, inline="always")
def loss_estimates(loss, j_t, i_t, p, hedge, meta, loss_tilde, loss_hat):
    """Algorithm 1's two estimators (readings 3 and 5); writes ``loss_tilde (K,)`` and ``loss_hat (β,)``.

    ``ℓ̃_i = ℓ_i / p_{j_t} · 1{j_t ∈ [κ], i ∈ C_{j_t}}`` for i ∈ S, ``ℓ̃_i = ℓ_i / (1 − p_i) · 1{i ≠ i_t}`` for
    i ∈ S̄; ``ℓ̂_j = ⟨p̃^{(j)}, ℓ̃⟩`` for cliques (0 unless j = j_t, as ℓ̃ vanishes on the other cliques) and
    ``ℓ̂_j = ℓ̃_j`` for S̄. ``p`` and ``hedge`` are p_t and the p̃_t^{(j)} of the round.
    """
    kappa = meta.kappa
    meta_of_arm = meta.meta_of_arm
    members = meta.members
    arm_of_meta = meta.arm_of_meta
    for i in range(loss.shape[0]):
        j = meta_of_arm[i]
        if j < kappa:
            loss_tilde[i] = loss[i] / p[j_t] if j == j_t else 0.0
        else:
            loss_tilde[i] = loss[i] / (1.0 - p[j]) if i != i_t else 0.0
    for j in range(kappa):
        loss_hat[j] = 0.0
    if j_t < kappa:
        inner = 0.0
        for m in range(meta.sizes[j_t]):
            i = members[j_t, m]
            inner += hedge[j_t, i] * loss_tilde[i]
        loss_hat[j_t] = inner
    for j in range(kappa, loss_hat.shape[0]):
        loss_hat[j] = loss_tilde[arm_of_meta[j]]


@njit(cache=True, inline="always")
def update_learning_rates(p_next, eta_meta, rho, kappa, growth, rate_increases):
    """Algorithm 1, last line (reading 7): for j ∈ [κ], if 1/p_{t+1,j} > ρ_{t,j} then
    ρ_{t+1,j} = 2/p_{t+1,j} and η_{t+1,j} = η_{t,j} · growth (growth = e^{1/ln T}); else both are kept."""
    for j in range(kappa):
        inverse = 1.0 / p_next[j]
        if inverse > rho[j]:
            rho[j] = 2.0 * inverse
            eta_meta[j] *= growth
            rate_increases[j] += 1


@allocating
def initial_distribution(eta_meta, c, in_s, lower, out, work):
    """``argmin_{p∈Ω} ψ(p)`` for eq. (7)'s regulariser with rates ``eta_meta``; writes ``out`` (reading 8).

    One OMD step from the uniform q with the loss ∇ψ(q): −β/η_j on the cliques (∇ of (1/η_j) ln(1/p) at 1/β)
    and (1 − ln β)/η_j − cβ on S̄; ``work`` is the OMD step's scratch. Allocates two (β,) arrays (so it is
    :func:`~regretlab.core.kernels.allocating`, for Algorithm 4's restarts): it runs once per (re)start, not
    per round.
    """
    beta = out.shape[0]
    q = np.full(beta, 1.0 / beta)
    gradient = np.empty(beta)
    for j in range(beta):
        if in_s[j]:
            gradient[j] = -beta / eta_meta[j]
        else:
            gradient[j] = (1.0 - np.log(beta)) / eta_meta[j] - c * beta
    time_varying_hybrid_step(q, gradient, eta_meta, c, in_s, lower, out, np.nan, work)


@kernel
def start_epoch(eta, meta, setup, state):
    """Algorithm 1's initialisation with learning rate ``eta`` (also Algorithm 4's reset):
    η_{t,j} = η and ρ_{t,j} = 2κ for j ∈ [κ], η on S̄, p_t = argmin_Ω ψ_t, fresh Hedge instances (p̃ uniform
    on C_j, no accumulated second moment). ``state.rate_increases`` is a run-long count and is kept."""
    state.eta_meta[:] = eta
    state.rho[:] = setup.rho_start
    state.second_moment[:] = 0.0
    state.hedge[:, :] = 0.0
    for j in range(meta.kappa):
        for m in range(meta.sizes[j]):
            state.hedge[j, meta.members[j, m]] = 1.0 / meta.sizes[j]
    initial_distribution(state.eta_meta, setup.c, meta.in_s, setup.lower, state.p, state.work)


@njit(cache=True, inline="always")
def play_round(t, loss, u_meta, u_arm, meta, setup, state, tracker):
    """One round t (1-based) of Algorithm 1 with losses ``loss (K,)``; returns ⟨p_t, ℓ̂_t⟩ (Algorithm 4).

    Sample j_t and i_t, account the round with the law of i_t, build ℓ̃_t and ℓ̂_t, feed ℓ̃_t to A_{j_t}
    (Algorithm 3; the other instances do not move, reading 4), OMD step with eq. (7), learning-rate rule.
    """
    p = state.p
    hedge = state.hedge
    arm_p = state.arm_p
    loss_tilde = state.loss_tilde
    loss_hat = state.loss_hat
    j_t, i_t = sample_meta_and_arm(p, hedge, meta, u_meta, u_arm)
    arm_distribution(p, hedge, meta, arm_p)
    track_round(t, loss, arm_p, i_t, tracker)
    loss_estimates(loss, j_t, i_t, p, hedge, meta, loss_tilde, loss_hat)
    meta_loss = 0.0
    for j in range(p.shape[0]):
        meta_loss += p[j] * loss_hat[j]
    if j_t < meta.kappa:
        state.second_moment[j_t] = adaptive_hedge_step(
            hedge[j_t],
            loss_tilde,
            meta.in_clique[j_t],
            setup.hedge_lower[j_t],
            state.second_moment[j_t],
            hedge[j_t],
        )
    time_varying_hybrid_step(
        p, loss_hat, state.eta_meta, setup.c, meta.in_s, setup.lower, p, np.nan, state.work
    )
    update_learning_rates(p, state.eta_meta, state.rho, meta.kappa, setup.growth, state.rate_increases)
    return meta_loss


@kernel
def _play_chunk(losses, uniforms, t0, meta, setup, state, tracker):
    """Rounds ``t0+1 … t0+n`` of Algorithm 1."""
    for r in range(losses.shape[0]):
        play_round(
            t0 + r + 1,
            losses[r],
            uniforms[r, 0],
            uniforms[r, 1],
            meta,
            setup,
            state,
            tracker,
        )


# ------------------------------------------------------------------------------------------------------------
# Learners
# ------------------------------------------------------------------------------------------------------------


def log_factor(horizon: int, n_arms: int) -> float:
    """ln T · ln²(KT), the logarithmic factor in η_max (Theorem 4) and in Theorem 13's starting η."""
    return math.log(horizon) * math.log(n_arms * horizon) ** 2


def eta_cap(horizon: int, n_arms: int, beta: int, constants: str) -> float:
    """η_max of Algorithm 1: Theorem 4's min{1/(64β), 1/(1000 ln T ln²(KT))} (``paper``, line 188), or 1/β
    (``tuned``: 64 → 1 and the polylog cap dropped; with its 1000 → 1 alone it would still be
    1/(ln T ln²(KT)) ≈ 4.8·10⁻⁴ at T = 10⁵, K = 7, and η could leave it only for L* > 1.3·10⁷ > T)."""
    if constants == "paper":
        return min(1.0 / (64 * beta), 1.0 / (1000 * log_factor(horizon, n_arms)))
    return 1.0 / beta


def first_horizon(holds, start: int, limit: float = 1e30) -> float:
    """The smallest integer T ≥ ``start`` with ``holds(T)``, for a condition that stays true once it holds
    (from where a geometric scan first finds it, bisected back), or +inf if it fails up to ``limit``."""
    low, high = start, start
    while not holds(high):
        if high > limit:
            return math.inf
        low, high = high, 2 * high
    if high == start:
        return start
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if holds(middle) else (middle, high)
    return high


def uncapped_L_star(horizon: int, n_arms: int, kappa: int, beta: int, constants: str) -> float:
    """(κ+1)/η_max²: the L* above which Theorem 4's η = min{η_max, √((κ+1)/L*)} leaves its cap, i.e. from
    which Algorithm 1's η (and so its regret) depends on L* at all. With ``paper`` at T = 10⁵ on the Figure-1
    graph (K = 7, κ = 2, β = 4) it is 1.3·10¹³ ≫ T ≥ L*: the learner runs at η_max ≈ 4.8·10⁻⁷ and hardly
    moves."""
    return (kappa + 1) / eta_cap(horizon, n_arms, beta, constants) ** 2


def uncapped_horizon(loss_rate: float, n_arms: int, kappa: int, beta: int, constants: str) -> float:
    """The smallest horizon T ≥ 2K at which L* = ``loss_rate``·T exceeds :func:`uncapped_L_star`
    (``loss_rate`` ∈ (0, 1]: the best arm's mean loss; 1 gives the smallest T at which any instance could),
    +inf if none."""
    if loss_rate <= 0:
        return math.inf
    return first_horizon(
        lambda t: loss_rate * t > uncapped_L_star(t, n_arms, kappa, beta, constants),
        max(2 * n_arms, beta + 1),
    )


class MetaGraphLearner:
    """What Algorithms 1 and 4 share: checks, the meta-graph, c, the state arrays, sampling and the kernel.

    Subclasses set ``name`` and implement ``play``; they call :meth:`_start` once their η is known.
    """

    name = "meta_graph_learner"
    presets = PRESETS

    def __init__(
        self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str = "paper"
    ) -> None:
        require_preset(self.name, self.presets, constants)
        graph.require_observability(Observability.STRONG, self.name)
        self.meta = meta_graph(graph)
        self.kappa = self.meta.kappa
        self.beta = self.meta.in_s.size
        self.n_arms = graph.n_arms
        if horizon <= self.beta:
            raise ValueError(f"{self.name} needs T > β = {self.beta} (Ω = {{p_j ≥ 1/T}}), got T = {horizon}")
        self.horizon = horizon
        self.constants = constants
        self.cliques = [list(c) for c in graph.clique_partition.members]
        self.clique_partition_exact = graph.clique_partition.exact
        self.c = float(64 * self.beta if constants == "paper" else self.beta)
        sizes = self.meta.sizes
        self.setup = MetaGraphSetup(
            c=self.c,
            growth=math.exp(1.0 / math.log(horizon)),
            rho_start=2.0 * self.kappa,
            lower=np.full(self.beta, 1.0 / horizon),
            hedge_lower=np.where(self.meta.in_clique, 1.0 / (sizes[:, None] * horizon), 0.0),
        )
        k = graph.n_arms
        self.state = MetaGraphState(
            p=np.empty(self.beta),
            eta_meta=np.empty(self.beta),
            rho=np.empty(self.kappa),
            hedge=np.zeros((self.kappa, k)),
            second_moment=np.zeros(self.kappa),
            rate_increases=np.zeros(self.kappa, dtype=np.int64),
            loss_tilde=np.zeros(k),
            loss_hat=np.zeros(self.beta),
            arm_p=np.zeros(k),
            work=hybrid_workspace(self.beta),
        )
        self._rng = rng

    def _start(self, eta: float) -> None:
        """Initialise (or reset) the state with learning rate ``eta`` (:func:`start_epoch`)."""
        start_epoch(eta, self.meta, self.setup, self.state)

    def _uniforms(self, n: int) -> np.ndarray:
        """Two uniforms per round from the learner's own rng: one for j_t, one for i_t."""
        return self._rng.random((n, 2))

    @property
    def p(self) -> np.ndarray:
        """p_t, the current meta-distribution."""
        return self.state.p

    @property
    def arm_p(self) -> np.ndarray:
        """The current law of i_t over the K arms (reading 2, fresh copy)."""
        out = np.empty(self.n_arms)
        arm_distribution(self.state.p, self.state.hedge, self.meta, out)
        return out

    def _common_params(self) -> dict:
        """The ``params`` entries both algorithms report: the meta-graph, c, ρ_1, the rate factor, counts."""
        return {
            "c": self.c,
            "kappa": self.kappa,
            "beta": self.beta,
            "s_bar": self.beta - self.kappa,
            "cliques": self.cliques,
            "clique_partition_exact": self.clique_partition_exact,
            "rho_1": self.setup.rho_start,
            "rate_growth": self.setup.growth,
            "rate_increases": [int(n) for n in self.state.rate_increases],
            "constants": self.constants,
        }


class Algorithm1(MetaGraphLearner):
    """Algorithm 1 with Theorem 4's tuning and the true L* (oracle tuning).

    ``constants="paper"``: c = 64β, η_max = min{1/(64β), 1/(1000 ln T ln²(KT))}, η = min{η_max, √((κ+1)/L*)}
    (η = η_max when L* = 0). ``constants="tuned"`` (the paper-vs-tuned ablation): the same algorithm with the
    constants 64 replaced by 1 and the polylog cap dropped, c = β and η_max = 1/β (:func:`eta_cap`), so that
    η = √((κ+1)/L*) follows L* from L* > (κ+1)β² (48 on the Figure-1 graph). In both, Ω has p_j ≥ 1/T, the
    Hedge instances p_i ≥ 1/(|C_j| T), ρ_1 = 2κ and the rate factor is e^{1/ln T}.

    ``hypotheses`` are Theorem 4's conditions with the paper's constants (so a ``tuned`` run records that the
    theorem does not cover it): c = 64β, η ≤ η_max, and §2's T ≥ 2K. Raises ValueError on a graph that is
    not strongly observable, a missing or negative L*, or T ≤ β.
    """

    name = "algorithm1"

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str = "paper",
        L_star: float | None = None,
    ) -> None:
        if L_star is None or not L_star >= 0:
            raise ValueError(
                f"{self.name} is tuned with the true L* (Theorem 4): need L_star >= 0, got {L_star}"
            )
        super().__init__(graph, horizon, rng, constants)
        paper_eta_max = eta_cap(horizon, self.n_arms, self.beta, "paper")
        self.eta_max = eta_cap(horizon, self.n_arms, self.beta, constants)
        self.L_star = float(L_star)
        self.eta = self.eta_max if L_star == 0 else min(self.eta_max, math.sqrt((self.kappa + 1) / L_star))
        self._start(self.eta)
        self.hypotheses = {
            "c_is_64_beta": self.c == 64 * self.beta,
            "eta_at_most_eta_max": self.eta <= paper_eta_max,
            "T_at_least_2K": horizon >= 2 * self.n_arms,
        }

    @property
    def params(self) -> dict:
        """Tuned constants, and the learning-rate increases so far (read after the run)."""
        return {"eta": self.eta, "eta_max": self.eta_max, "L_star": self.L_star, **self._common_params()}

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        _play_chunk(losses, self._uniforms(losses.shape[0]), t0, self.meta, self.setup, self.state, tracker)
