"""One function that runs PDGD-OPS or UC-O-GDPS alone on a CMDP and records its curves at checkpoints.

The evaluator (this module) knows ``P``, the environment's sequences and the offline benchmark; the learner
sees only its trajectories, ``r_t`` and ``G_t`` (Algorithm 1). Nothing is stored per episode: running sums are
kept and copied into one row per checkpoint (:func:`~regretlab.core.checkpoints.log_checkpoints`), so memory
is O(number of checkpoints + log T) whatever ``T``; the environment is drawn in chunks of ``CHUNK_EPISODES``.
Every episode runs compiled (:func:`play_episodes`, called once per stretch of episodes up to the next
checkpoint or chunk end, so no Python runs per episode): the true occupancy of the played policy and the
trajectory (:mod:`regretlab.cmdp.evaluator`, twins of :func:`~regretlab.cmdp.occupancy.occupancy_from_policy`
and :func:`~regretlab.cmdp.occupancy.sample_trajectory` tested equal); the learner's episode (Algorithm 2
lines 6-9 or Algorithm 4) on the learner's own arrays, with the kernels its ``update`` uses for the counters,
the epoch test, the confidence set, the projection and the policy; and the running sums
(:func:`~regretlab.cmdp.evaluator.track_episode`). Python only handles the checkpoint rows and the rare
projection that Newton cannot certify (OSQP, Clarabel). The loop reproduces ``learner.update`` exactly for
UC-O-GDPS alone and up to round-off in ``λ`` for PDGD-OPS (its ``G_t^T q̂_t`` is summed in another order
than numpy's ``@``); tests compare both with the reference learner and every column with brute force.

Columns of the record (one row per checkpoint ``t``, sums over episodes ``τ <= t``, ``q_τ = q^{P,π_τ}`` the
true occupancy of the played policy ``π_τ = π^{q̂_τ}``, pair view unless said otherwise):

* ``regret``: ``R_t = t·OPT_{r̄,Ḡ} - Σ r_τ^T q_τ`` (Definition 2, eq. (7), line 145) with the per-setting
  ``r̄``, ``Ḡ`` of :meth:`~regretlab.cmdp.environments.CMDPEnvironment.benchmark` for horizon ``T``.
* ``violation``: ``V_t = max_i Σ [G_τ^T q_τ]_i`` (Definition 3, eq. (8), line 159).
* ``reward``: ``Σ r_τ^T q_τ``; ``reward_ratio``: ``reward / (t·OPT)``, to compare with Theorem 7's
  ``ρ/(1+ρ)`` (line 433); NaN when ``OPT = 0``.
* ``lambda_l1_max``: ``max ||λ_τ||_1`` over ``λ_1, ..., λ_{t+1}`` (Theorem 4 bounds it by ``ζ`` for all
  ``τ ∈ [T+1]``, line 319, so at ``t = T`` this is exactly Theorem 4's range).
* ``lambda_l1``: ``||λ_t||_1``, the multiplier of episode ``t`` (the one in ``ℓ_t = G_t λ_t - r_t``), to draw
  ``λ_t`` against ``λ*``. For UC-O-GDPS alone the fixed ``λ``.
* ``dual_regret``: ``R^D_t(0) = R^D_{1,t}(0) = Σ_{τ<=t} (0 - λ_τ)^T G_τ^T q̂_τ`` (App. C.1.1, line 701, at
  ``λ = 0``), the term of Theorem 5's regret bound (line 365) that App. C.1.1 bounds by
  ``||λ_1||²/(2η) + η m L² t / 2`` (lines 711-715, ``λ_1 = 0``). Sign: the dual's loss is
  ``-λ^T G_τ^T q̂_τ``, so a dual that raises ``λ`` where ``q̂_τ`` violates (``G_τ^T q̂_τ > 0``) has negative
  regret against ``0``. ``q̂_τ`` is the estimated occupancy (pair view), as in the dual's update (eq. (16)).
  For UC-O-GDPS alone (no dual player) the same sum at its fixed ``λ`` (0 at ``λ = 0``).
* ``coverage``: the fraction of the epochs ``2, ..., i`` started so far whose confidence set ``𝒫_j``
  (eq. (10)) contains the true ``P``, i.e. ``||P(·|x, a) - P̄_j(·|x, a)||_1 <= ε_j(x, a)`` for every
  non-terminal pair (Lemma 5, line 548; the event ``E^Δ`` holds on ``[1..t]`` iff this is 1). Checked once
  per epoch, when it starts. Epoch 1 is left out: ``𝒫_1`` is every transition function (it contains ``P``
  by construction) and is never projected onto (:mod:`regretlab.cmdp.uc_o_gdps`).
* ``all_epochs_covered``: 1 if every epoch ``2, ..., i`` started so far has ``P`` in its confidence set,
  else 0: the event ``E^Δ`` of Lemma 5 on ``[1..t]`` for this run (1 before any new epoch: ``𝒫_1`` holds
  every ``P``). Lemma 5 says ``P(E^Δ) >= 1 - δ``; its test is the fraction of seeds where this is 1.
* ``coverage_ratio_max``: ``max ||P(·|x, a) - P̄_j(·|x, a)||_1 / ε_j(x, a)`` over the epochs ``j >= 2``
  started so far and the non-terminal pairs: ``<= 1`` iff covered, and how close the check came to failing
  (NaN before any new epoch).
* ``dual_clipped``: the fraction of the episodes ``τ <= t`` in which the projection of eq. (16) clipped some
  coordinate at the box side ``T^{1/4}`` (``λ_{τ,i} + η [G_τ^T q̂_τ]_i > T^{1/4}``): Theorem 6's mechanism,
  which Theorem 4 rules out under Condition 2 (§6, line 315). NaN for UC-O-GDPS alone (no dual).
* ``q_error_l1``: ``Σ ||q_τ - q̂_τ||_1`` on triples (Lemma 2, line 237).
* ``ell_bar``: ``ℓ̄_t = max ||ℓ_τ||_∞`` of the losses fed to the primal (Algorithm 2 line 7).
* ``primal_regret``: ``max_{q ∈ Δ(M)} Σ ℓ_τ^T (q_τ - q)``, the primal's regret on ``[1..t]`` (Definition 4)
  against the best occupancy in hindsight, found by dynamic programming under the true ``P``.
* ``interval_regret_max``: the largest ``max_{q ∈ Δ(M)} R_{t1,t2}(q)`` (Definition 4) over the dyadic
  intervals ``[j 2^s + 1, (j + 1) 2^s]`` that have ended by ``t``; ``interval_regret_bound``: Theorem 3's
  right-hand side (line 305, with the run's ``C``, its ``ℓ̄_{t1,t2}`` and ``ℓ̄_{t2}``) on that interval;
  ``interval_regret_ratio_max``: the largest ratio of the two over those intervals (every level ``s``,
  single episodes included; on ties the interval that ended first is kept).
* ``epochs``: the epoch index ``i``; ``fallbacks``: projections that needed the fallback solver so far.

Readings (ambiguities):

* Adversarial ``r̄``, ``Ḡ`` are averages over the whole horizon ``T`` (Definition 2), so ``R_t`` at ``t < T``
  compares with ``t·OPT`` of the horizon-``T`` benchmark, not with a benchmark of the first ``t`` episodes.
* Theorem 3 holds for every ``q ∈ ∩_i Δ(𝒫_i)``; the evaluator takes the maximum over ``Δ(M)``, the true
  occupancies (a subset under the event ``E^Δ``), where it is a best response by dynamic programming.
"""

from __future__ import annotations

import time
from functools import partial
from typing import NamedTuple

import numpy as np
import pandas as pd

from regretlab.cmdp import bounds, projection
from regretlab.cmdp.confidence import confidence_set, count_episode, pair_doubled
from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.evaluator import (
    _CLIPPED,
    _DUAL_REGRET,
    _ELL_BAR,
    _INTERVAL_BOUND,
    _INTERVAL_MAX,
    _PLAYED,
    _Q_ERROR,
    _RATIO_MAX,
    _REWARD,
    EvaluatorScratch,
    EvaluatorSetup,
    RunningSums,
    best_response_values,
    coverage_check,
    episode_sums,
    layer_starts,
    occupancy_into,
    trajectory_into,
)
from regretlab.cmdp.instance import CMDP, condition2_holds
from regretlab.cmdp.occupancy import induced_policy_into
from regretlab.cmdp.pdgd_ops import PDGDOPS, UCOGDPSAlone
from regretlab.cmdp.projection import ProjectorArrays, project_newton, reset_confidence_set
from regretlab.core.checkpoints import log_checkpoints
from regretlab.core.kernels import kernel
from regretlab.core.snapshots import SeedProgress

#: Episodes of ``r_t``, ``G_t`` drawn per call to the environment.
CHUNK_EPISODES = 1024

#: Columns of the checkpoint record, after ``t`` (module docstring).
RECORD_COLUMNS = (
    "regret",
    "violation",
    "reward",
    "reward_ratio",
    "lambda_l1_max",
    "lambda_l1",
    "dual_regret",
    "coverage",
    "all_epochs_covered",
    "coverage_ratio_max",
    "dual_clipped",
    "q_error_l1",
    "ell_bar",
    "primal_regret",
    "interval_regret_max",
    "interval_regret_bound",
    "interval_regret_ratio_max",
    "epochs",
    "fallbacks",
    "violation_hat",
    "dual_shortfall",
)

#: Slots of :attr:`LearnerArrays.reals`: ``ℓ̄_t``, ``C√T``, the dual step ``η``, ``T^{1/4}``,
#: ``max ||λ_τ||_1``, ``||λ_t||_1``, the largest coverage ratio; and of :attr:`LearnerArrays.ints`: the
#: epoch ``i``, the epochs ``2..i`` whose set contains ``P``, whether the dual moves (PDGD-OPS) and Newton's
#: step and ridge limits.
_ELL, _SCALE, _ETA, _UPPER, _LAM_MAX, _LAM_T, _COVER_RATIO = range(7)
_EPOCH, _COVERED, _DUAL, _MAX_STEPS, _MAX_RIDGES = range(5)


class Chunk(NamedTuple):
    """The draws of the episodes ``t0 + 1 .. t0 + n`` (one chunk of the environment).

    Attributes:
        t0: the episodes before the chunk (row ``j`` is episode ``t0 + 1 + j``).
        uniforms: ``(n, 2L)`` the trajectories' uniforms (:func:`~regretlab.cmdp.evaluator.trajectory_into`).
        r: ``(n, |X|, |A|)`` the rewards ``r_t``.
        G: ``(n, m, |X|, |A|)`` the constraints ``G_t``.
    """

    t0: int
    uniforms: np.ndarray
    r: np.ndarray
    G: np.ndarray


class ConfidenceArrays(NamedTuple):
    """The learner's counters and confidence set, updated in place (Algorithm 3 lines 2-7): the arrays of
    its :class:`~regretlab.cmdp.confidence.TransitionConfidence`.

    Attributes:
        N: ``(|X|, |A|)`` int64, the counters ``N_i``.
        M: ``(|X|, |A|, |X|)`` int64, the counters ``M_i``.
        N_start: ``(|X|, |A|)`` int64, ``N`` at the start of the epoch.
        M_start: ``(|X|, |A|, |X|)`` int64, ``M`` at the start of the epoch.
        eps_numerator: ``(|X|,)`` ``2 |X_{k(x)+1}| ln(T|X||A|/δ)``, the numerator of ``ε_i(x, a)²``.
        P_bar: ``(|X|, |A|, |X|)`` ``P̄_i`` of eq. (10).
        epsilon: ``(|X|, |A|)`` ``ε_i`` of eq. (10).
    """

    N: np.ndarray
    M: np.ndarray
    N_start: np.ndarray
    M_start: np.ndarray
    eps_numerator: np.ndarray
    P_bar: np.ndarray
    epsilon: np.ndarray


class LearnerArrays(NamedTuple):
    """The learner's arrays that :func:`play_episodes` works on in place: its own (``q̂``, ``π``, the
    confidence set, the projector), the loop's copy of ``λ`` and constants, and per-episode buffers.

    Attributes:
        q_hat: ``(|X|, |A|, |X|)`` ``q̂_t`` (triples), the primal's iterate.
        policy: ``(|X|, |A|)`` ``π_t = π^{q̂_t}`` (Algorithm 4 line 13).
        lam: ``(m,)`` ``λ_t``, the dual's iterate (fixed for UC-O-GDPS alone).
        loss: ``(|X|, |A|)`` buffer for ``ℓ_t = G_t λ_t - r_t`` (Algorithm 2 line 6).
        trajectory: ``(L, 3)`` int64 buffer for the episode's ``(x_k, a_k, x_{k+1})``.
        q_hat_pairs: ``(|X|, |A|)`` buffer for ``q̂_t``'s pair view.
        target: ``(n,)`` buffer for ``q̂_t - η_t ℓ_t`` on the support, the point Algorithm 3 line 8 projects.
        reals: ``(7,)`` indexed by ``_ELL`` ... ``_COVER_RATIO``.
        ints: ``(5,)`` int64, indexed by ``_EPOCH`` ... ``_MAX_RIDGES``.
        confidence: the counters and confidence set (:class:`ConfidenceArrays`).
        projector: the projector's :attr:`~regretlab.cmdp.projection.ConfidenceSetProjector.kernel_arrays`.
        solution: ``(n,)`` buffer for the projection.
    """

    q_hat: np.ndarray
    policy: np.ndarray
    lam: np.ndarray
    loss: np.ndarray
    trajectory: np.ndarray
    q_hat_pairs: np.ndarray
    target: np.ndarray
    reals: np.ndarray
    ints: np.ndarray
    confidence: ConfidenceArrays
    projector: ProjectorArrays
    solution: np.ndarray


@kernel
def finish_update(q_hat: np.ndarray, triples: tuple, solution: np.ndarray, policy: np.ndarray) -> None:
    """Algorithm 3 line 8's result into ``q̂`` (support triples, in place), then ``π_{t+1} = π^{q̂_{t+1}}``
    (Algorithm 4 line 13)."""
    x, a, y = triples
    for k in range(x.shape[0]):
        q_hat[x[k], a[k], y[k]] = solution[k]
    induced_policy_into(q_hat, policy)


@kernel
def play_episodes(t, t_stop, chunk, learner, setup, running, scratch):
    """Episodes ``t .. t_stop`` (1-based; rows ``t - 1 - chunk.t0`` of the :class:`Chunk`) of Algorithm 2
    (PDGD-OPS) or Algorithm 4 alone, with every recorded sum, in place; returns ``(last, failed)``.

    ``learner`` is the :class:`LearnerArrays`; ``setup``, ``running`` and ``scratch`` are the evaluator's
    :class:`~regretlab.cmdp.evaluator.EvaluatorSetup`, :class:`~regretlab.cmdp.evaluator.RunningSums` and
    :class:`~regretlab.cmdp.evaluator.EvaluatorScratch` (nothing is allocated per episode). Per episode: the
    true occupancy of ``π_t``, the trajectory, ``ℓ_t = G_t λ_t - r_t`` (Algorithm 2 line 6), ``η_t`` (line 7),
    the dual step on ``G_t^T q̂_t`` (line 9, eq. (16); PDGD-OPS only) and ``R^D``, the evaluator's sums, the
    counters and epoch test (Algorithm 3 lines 2-7, with the coverage check and the projector's new set at a
    new epoch) and the projection (line 8) by :func:`~regretlab.cmdp.projection.project_newton`. When Newton
    fails, the episode stops before line 8 with ``target`` holding ``q̂_t - η_t ℓ_t`` and ``failed`` is true:
    the caller finishes it with the projector's fallbacks and :func:`finish_update`.
    """
    t0, uniforms, r_chunk, G_chunk = chunk.t0, chunk.uniforms, chunk.r, chunk.G
    q_hat, policy, lam, loss = learner.q_hat, learner.policy, learner.lam, learner.loss
    trajectory, q_hat_pairs, target = learner.trajectory, learner.q_hat_pairs, learner.target
    reals, ints, arrays, solution = learner.reals, learner.ints, learner.projector, learner.solution
    confidence = learner.confidence
    N, M, N_start, M_start = confidence.N, confidence.M, confidence.N_start, confidence.M_start
    eps_numerator, P_bar, epsilon = confidence.eps_numerator, confidence.P_bar, confidence.epsilon
    P, starts = setup.P, setup.starts
    q, q_pairs, occupancy = scratch.q, scratch.q_pairs, scratch.occupancy
    sums = running.sums
    triples = arrays.triples
    xs, as_ = triples[0], triples[1]
    m = lam.shape[0]
    for episode in range(t, t_stop + 1):
        j = episode - 1 - t0
        r, G = r_chunk[j], G_chunk[j]
        occupancy_into(P, policy, starts, q, q_pairs, occupancy)
        trajectory_into(P, policy, uniforms[j], trajectory)
        lam_t = 0.0
        for i in range(m):
            lam_t += lam[i]
        reals[_LAM_T] = lam_t
        ell = 0.0
        for x in range(loss.shape[0]):
            for a in range(loss.shape[1]):
                value = 0.0
                for i in range(m):
                    value += lam[i] * G[i, x, a]
                loss[x, a] = value - r[x, a]
                ell = max(ell, abs(loss[x, a]))
                pair = 0.0
                for y in range(q_hat.shape[2]):
                    pair += q_hat[x, a, y]
                q_hat_pairs[x, a] = pair
        reals[_ELL] = max(reals[_ELL], ell)
        eta = 1.0 / (reals[_ELL] * reals[_SCALE]) if reals[_ELL] > 0.0 else 0.0
        clipped = False
        for i in range(m):  # G_t^T q̂_t: R^D_t(0) and the dual step
            estimated = 0.0
            for x in range(loss.shape[0]):
                for a in range(loss.shape[1]):
                    estimated += G[i, x, a] * q_hat_pairs[x, a]
            sums[_DUAL_REGRET] -= lam[i] * estimated
            running.violation_hat[i] += estimated  # V̂_t (Lemma 14), with or without a moving dual
            if ints[_DUAL]:
                step = lam[i] + reals[_ETA] * estimated
                clipped = clipped or step > reals[_UPPER]
                lam[i] = min(max(step, 0.0), reals[_UPPER])
        sums[_CLIPPED] += clipped
        lam_next = 0.0
        for i in range(m):
            lam_next += lam[i]
        reals[_LAM_MAX] = max(reals[_LAM_MAX], lam_next)
        episode_sums(episode, r, G, loss, q_hat, setup, running, scratch)
        count_episode(N, M, trajectory)
        if pair_doubled(N, N_start, trajectory):
            ints[_EPOCH] += 1
            for x in range(N.shape[0]):  # N_start[...] = N, M_start[...] = M (slice copies need the runtime)
                for a in range(N.shape[1]):
                    N_start[x, a] = N[x, a]
                    for y in range(M.shape[2]):
                        M_start[x, a, y] = M[x, a, y]
            confidence_set(N_start, M_start, eps_numerator, P_bar, epsilon)
            covered, ratio = coverage_check(P, P_bar, epsilon)
            ints[_COVERED] += covered
            reals[_COVER_RATIO] = max(reals[_COVER_RATIO], ratio)
            reset_confidence_set(P_bar, epsilon, arrays)
        for k in range(target.shape[0]):
            target[k] = q_hat[xs[k], as_[k], triples[2][k]] - eta * loss[xs[k], as_[k]]
        if not project_newton(target, arrays, solution, ints[_MAX_STEPS], ints[_MAX_RIDGES]):
            return episode, True
        finish_update(q_hat, triples, solution, policy)
    return t_stop, False


def _measures_so_far(episodes: int, opt: float, sums: np.ndarray, violation: np.ndarray) -> dict[str, float]:
    """The regret and violation the figures draw, after ``episodes`` episodes (a snapshot's log line)."""
    return {"regret": float(episodes * opt - sums[_REWARD]), "violation": float(violation.max())}


def simulate(
    learner: UCOGDPSAlone,
    cmdp: CMDP,
    environment: CMDPEnvironment,
    T: int,
    env_rng: np.random.Generator,
    trajectory_rng: np.random.Generator,
    checkpoints: np.ndarray | None = None,
    progress: SeedProgress | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Play ``T`` episodes of Algorithm 1; return one row per checkpoint and the run's metadata.

    ``learner`` is a fresh :class:`~regretlab.cmdp.pdgd_ops.PDGDOPS` or
    :class:`~regretlab.cmdp.pdgd_ops.UCOGDPSAlone` built for the same ``T``; ``env_rng`` draws ``r_t``,
    ``G_t`` (so every algorithm of a seed faces the same sequences) and ``trajectory_rng`` the actions and
    transitions. The run stops at the last checkpoint (``T`` by default). The frame has ``t`` and
    :data:`RECORD_COLUMNS`; the metadata holds the learner's constants (``C``, the dual's ``η``, its box
    side ``dual_box = T^{1/4}``), the setting, ``OPT``, ``ρ``, ``ζ``, ``ρ/(1+ρ)``, whether Condition 2 holds
    at this ``T``, ``λ*`` of this horizon's benchmark, ``max_G_q_star`` and ``share_G_q_star_above_1``
    (:class:`~regretlab.cmdp.environments.Benchmark`), the final ``dual_clipped``, ``all_epochs_covered`` and
    ``coverage_ratio_max``, the final epoch and fallback counts and the wall time per episode.

    The episodes run in :func:`play_episodes` on the learner's own state (its ``q̂``, policy, counters,
    confidence set and projector, updated in place, with the kernels its ``update`` uses), reading its
    constants (``C``, the dual's ``η`` and box); ``λ``, ``ℓ̄_t`` and the epoch are written back at the end, so
    the learner is left as ``T`` calls of ``update`` would leave it (up to round-off in ``λ``).

    With ``progress`` (:mod:`regretlab.core.snapshots`) the loop offers a snapshot at every chunk end: the
    learner's state (:meth:`~regretlab.cmdp.pdgd_ops.UCOGDPSAlone.get_state`), the loop's own arrays (``λ``,
    the evaluator's sums, the rows so far), both generators and the next chunk. If ``progress.resumed`` holds
    one, ``learner`` (freshly built, as for the first episode) is set to it and the run goes on from there.
    """
    if learner.constants.T != T:
        raise ValueError(f"the learner was built for T={learner.constants.T}, not T={T}")
    checkpoints = log_checkpoints(T) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)
    if (
        checkpoints.size == 0
        or np.any(np.diff(checkpoints) <= 0)
        or checkpoints[0] < 1
        or checkpoints[-1] > T
    ):
        raise ValueError("checkpoints must be strictly increasing episodes in [1, T]")
    sizes, P = cmdp.layer_sizes, np.array(cmdp.P)
    n_states, n_actions, m, L = cmdp.n_states, cmdp.n_actions, cmdp.m, cmdp.L
    if environment.rewards.phases.shape[1:] != (n_states, n_actions) or environment.constraints.phases.shape[
        1:
    ] != (m, n_states, n_actions):
        raise ValueError("the environment's shapes do not match the CMDP's (|X|, |A|) and m")
    benchmark = environment.benchmark(P, T)
    starts = layer_starts(sizes)

    # Theorem 3 on a dyadic interval of length n: ℓ̄_I (Eq + (|X||A|/2) n / (C√T)) + ℓ̄_{t2} L C√T.
    n_levels = int(checkpoints[-1]).bit_length()  # levels s = 0 .. floor(log2 t_last)
    root = learner.constants.C * np.sqrt(T)
    Eq = bounds.lemma2_Eq(T, learner.constants.delta, L, n_states, n_actions).value
    per_ell_interval = Eq + n_states * n_actions / 2 * 2.0 ** np.arange(n_levels) / root
    sums = np.zeros(9)
    sums[[_INTERVAL_MAX, _RATIO_MAX]] = -np.inf
    setup = EvaluatorSetup(P, starts, per_ell_interval, float(L * root))
    running = RunningSums(
        sums,
        np.zeros(m),
        np.zeros((n_states, n_actions)),
        np.zeros((n_levels, n_states, n_actions)),
        np.zeros(n_levels),
        np.zeros(n_levels),
        np.zeros(m),
    )
    scratch = EvaluatorScratch(
        np.zeros_like(P),
        np.zeros((n_states, n_actions)),
        np.zeros(n_states),
        np.zeros(n_states),
        np.zeros(n_levels),
    )

    primal, confidence = learner.primal, learner.primal.confidence
    dual = isinstance(learner, PDGDOPS)
    lam = np.array(learner.lam, dtype=float)
    reals = np.array(
        [
            learner.rate.ell_bar,
            learner.rate.scale,
            learner.dual.eta if dual else 0.0,
            learner.dual.upper if dual else 0.0,
            lam.sum(),  # ||λ_1||_1 (λ >= 0)
            lam.sum(),
            0.0,
        ]
    )
    limits = projection.MAX_NEWTON_STEPS, projection.MAX_RIDGES
    ints = np.array([confidence.epoch, 0, dual, *limits], dtype=np.int64)
    projector = primal.projector
    n_triples = projector.kernel_arrays.triples[0].size
    arrays = LearnerArrays(
        q_hat=primal.q_hat,
        policy=primal.policy,
        lam=lam,
        loss=np.zeros((n_states, n_actions)),
        trajectory=np.zeros((L, 3), dtype=np.int64),
        q_hat_pairs=np.zeros((n_states, n_actions)),
        target=np.zeros(n_triples),
        reals=reals,
        ints=ints,
        confidence=ConfidenceArrays(
            confidence.N,
            confidence.M,
            confidence.N_start,
            confidence.M_start,
            np.array(confidence.eps_numerator),
            confidence.P_bar,
            confidence.epsilon,
        ),
        projector=projector.kernel_arrays,
        solution=np.zeros(n_triples),
    )

    records = np.full((checkpoints.size, len(RECORD_COLUMNS)), np.nan)
    last = int(checkpoints[-1])
    position = 0
    # Every array the loop changes besides the learner's own (which get_state / set_state cover).
    loop_arrays = {"lam": lam, "reals": reals, "ints": ints, "records": records}
    loop_arrays |= {f"running_{name}": a for name, a in running._asdict().items()}
    loop_arrays |= {f"scratch_{name}": a for name, a in scratch._asdict().items()}
    buffers = ("loss", "trajectory", "q_hat_pairs", "target", "solution")
    loop_arrays |= {name: getattr(arrays, name) for name in buffers}
    first = 0
    elapsed = 0.0
    resumed = progress.resumed if progress is not None else None
    if resumed is not None:
        learner.set_state(resumed["learner"])
        for name, array in loop_arrays.items():
            np.copyto(array, resumed["loop"][name])
        env_rng.bit_generator.state = resumed["env_rng"]
        trajectory_rng.bit_generator.state = resumed["trajectory_rng"]
        first, position, elapsed = resumed["t0"], resumed["position"], resumed["elapsed"]
    start = time.perf_counter() - elapsed

    def loop_state(next_t0: int, position: int) -> dict:
        """The snapshot of the loop before chunk ``next_t0`` (copies: the loop goes on)."""
        return {
            "learner": learner.get_state(),
            "loop": {name: array.copy() for name, array in loop_arrays.items()},
            "env_rng": env_rng.bit_generator.state,
            "trajectory_rng": trajectory_rng.bit_generator.state,
            "t0": next_t0,
            "position": position,
            "elapsed": time.perf_counter() - start,
        }

    for t0 in range(first, last, CHUNK_EPISODES):
        n = min(CHUNK_EPISODES, last - t0)
        r_chunk, G_chunk = environment.draw(env_rng, t0, n)
        uniforms = trajectory_rng.random((n, 2 * L))  # the stream of per-episode rng.random(2 * L) calls
        chunk = Chunk(t0, uniforms, r_chunk, G_chunk)
        t = t0 + 1
        while t <= t0 + n:
            t_stop = min(t0 + n, int(checkpoints[position]))
            t, failed = play_episodes(t, t_stop, chunk, arrays, setup, running, scratch)
            if failed:  # Newton failed: OSQP, Clarabel, then the rest of the episode
                solution = projector.solve(arrays.target, True)
                finish_update(primal.q_hat, arrays.projector.triples, solution, primal.policy)
            if t == checkpoints[position]:
                optimum = t * benchmark.opt
                started = int(ints[_EPOCH]) - 1  # epochs 2..i, whose sets Lemma 5 is about
                reward = sums[_REWARD]
                records[position] = (
                    optimum - reward,
                    running.violation.max(),
                    reward,
                    reward / optimum if optimum != 0 else np.nan,
                    reals[_LAM_MAX],
                    reals[_LAM_T],
                    sums[_DUAL_REGRET],
                    ints[_COVERED] / started if started else np.nan,
                    float(ints[_COVERED] == started),
                    reals[_COVER_RATIO] if started else np.nan,
                    sums[_CLIPPED] / t if dual else np.nan,
                    sums[_Q_ERROR],
                    sums[_ELL_BAR],
                    sums[_PLAYED] - best_response_values(P, starts, running.cum_loss[None])[0],
                    sums[_INTERVAL_MAX],
                    sums[_INTERVAL_BOUND],
                    sums[_RATIO_MAX],
                    ints[_EPOCH],
                    projector.fallbacks,
                    running.violation_hat.max(),
                    # Lemma 14: max_i (η V̂_{t,i} − λ_{t+1,i}) ≤ 0 while unclipped (0 for a dual that
                    # does not move: UC-O-GDPS alone has η = 0 and λ = 0).
                    float(np.max(reals[_ETA] * running.violation_hat - lam)),
                )
                position += 1
            t += 1
        if progress is not None:
            done = min(t0 + CHUNK_EPISODES, last)
            so_far = partial(_measures_so_far, done, benchmark.opt, sums, running.violation)  # read if due
            progress.maybe_save(partial(loop_state, t0 + CHUNK_EPISODES, position), so_far)
    wall_time = time.perf_counter() - start
    learner.rate.ell_bar = float(reals[_ELL])
    confidence.epoch = int(ints[_EPOCH])
    if dual:
        learner.dual.lam[:] = lam

    frame = pd.DataFrame(records, columns=list(RECORD_COLUMNS))
    frame.insert(0, "t", checkpoints)
    frame[["epochs", "fallbacks"]] = frame[["epochs", "fallbacks"]].astype(np.int64)
    rho = benchmark.rho
    metadata = {
        **learner.params,
        "setting": environment.setting,
        "layer_sizes": list(sizes),
        "n_actions": n_actions,
        "m": m,
        "L": L,
        "opt": benchmark.opt,
        "rho": rho,
        "zeta": bounds.theorem4_zeta(m, L, rho).value,
        "alpha": rho / (1 + rho),
        "condition2": bool(condition2_holds(rho, T, L, m)),
        "lambda_star": benchmark.lambda_star.tolist(),
        "lambda_star_l1": float(benchmark.lambda_star.sum()),
        "dual_box": learner.dual.upper if dual else None,
        "max_G_q_star": benchmark.max_G_q_star,
        "share_G_q_star_above_1": benchmark.share_G_q_star_above_1,
        "dual_clipped": float(frame["dual_clipped"].iloc[-1]),
        "all_epochs_covered": bool(frame["all_epochs_covered"].iloc[-1] == 1.0),
        "coverage_ratio_max": float(frame["coverage_ratio_max"].iloc[-1]),
        "episodes": last,
        "epochs": learner.primal.epochs,
        "fallbacks": learner.primal.fallbacks,
        "wall_time_s": wall_time,
        "us_per_episode": 1e6 * wall_time / last,
    }
    return frame, metadata
