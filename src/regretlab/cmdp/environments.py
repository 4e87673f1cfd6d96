"""Per-episode rewards ``r_t`` and constraint matrices ``G_t`` of a CMDP (paper §3.1; Algorithm 1 line 2).

Shapes follow :mod:`regretlab.cmdp.occupancy`: ``r_t`` is ``(|X|, |A|)`` in ``[0, 1]``, ``G_t`` is
``(m, |X|, |A|)`` in ``[-1, 1]`` (``G_t[i]`` is column ``i`` of the paper's ``G_t``, so
``[G_t^T q]_i = Σ_{x,a} G_t[i, x, a] q(x, a)`` and ``G_t^T q <= 0`` is satisfaction). The terminal row ``x_L``
is zero throughout: no action is taken there.

One model covers both settings of the paper. Each of the two sequences is a :class:`PhaseProcess`: a
periodic schedule of ``K`` phase means ``μ_0, ..., μ_{K-1}`` (episode ``t`` is in phase
``((t - 1) // period) mod K``) around which a value is drawn with two-point noise,
``value = (1 - noise) μ + noise B`` with ``B ∈ {low, high}`` and ``P(B = high) = (μ - low) / (high - low)``
(``low = 0`` for rewards, ``-1`` for constraints, ``high = 1``). ``E[value] = μ`` exactly and the value stays
in ``[low, high]`` as a convex combination of ``μ`` and ``B``; ``noise = 1`` is plain Bernoulli (``{0, 1}``
rewards, ``{-1, 1}`` constraints), ``noise = 0`` the mean itself.

* stochastic (``K = 1``): i.i.d. draws from a fixed distribution with mean ``μ_0``; the ``r̄``, ``Ḡ`` of
  Definition 2 (paper lines 147-153) are the expectation ``μ_0``.
* adversarial (``K >= 2``, ``noise = 0``): an oblivious, deterministic sequence; ``r̄``, ``Ḡ`` of Definition 2
  are the averages ``(1/T) Σ_{t<=T} r_t``, ``(1/T) Σ_{t<=T} G_t`` over the whole horizon, counted in closed
  form from how many episodes of ``[1..T]`` fall in each phase (O(K), whatever ``T``), and the adversarial
  ``ρ`` of §3.5 (line 165) is an LP over the distinct ``G_t`` of ``[1..T]``, i.e. the phases that occur.

Readings of the paper (ambiguities):

* §3.1 lets ``r_t`` and ``G_t`` be stochastic or adversarial independently; the four combinations are built
  by :func:`make_environment`. A noisy schedule with ``K >= 2`` (non-stationary stochastic) is neither of the
  paper's settings and is rejected, and so are adversarial constraints whose ``ρ`` is negative (§3.5 assumes
  ``ρ ∈ [0, L]``).
* Two adversarial designs (``adversary``), both with two phases whose average over every full cycle of
  ``2 · period`` episodes is the instance's ``r̄``, ``Ḡ`` (over a horizon that ends mid-cycle it is whatever
  the closed-form count gives):

  - ``switching``: two phases that swap which actions pay and violate. In every non-terminal state a random
    half of the actions (drawn once from the Generator given to :func:`make_environment`) is boosted in
    phase 0 and damped in phase 1, and the other half the opposite way: ``μ_k = mean ± amplitude · h · s``
    with ``s(x, a) = ±1`` and the largest half-width ``h`` that keeps the range (``min(r̄, 1 - r̄)`` for
    rewards, ``1 - |ḡ|`` for constraints). The same actions that pay more also violate more, so following
    the recent phase chases reward into violation. On instances whose ``ḡ`` are near ``±1`` the swing
    ``1 - |ḡ|`` is small and the sequence is nearly stochastic.
  - ``risky_swing``: only the entries that are not satisfied on average swing. Where ``ḡ_i(x, a) >= 0``
    (the binding family's risky actions, the chain's action 1) the constraint is ``ḡ + a (1 - ḡ)`` in
    phase 0 and ``ḡ - a (1 - ḡ)`` in phase 1 (``a = constraint_amplitude``: ``+1`` and ``2ḡ - 1`` at
    ``a = 1``, a swing of ``2a(1 - ḡ)``); entries with ``ḡ < 0`` keep ``ḡ`` in both phases. The safe
    side, hence the all-safe ``q°`` and the adversarial ``ρ``, does not move, while ``q*`` — safe only on
    average — is violated in phase 0 by up to about ``L`` (Theorem 7's proof assumes ``<= 1``, line 1248).
    Adversarial rewards swing with ``s(x, a) = +1`` on the pairs where some constraint swings and ``-1``
    elsewhere, by ``reward_amplitude · min(r̄, 1 - r̄)``: risky actions pay more exactly when they violate.

The environment never sees the learner: :meth:`CMDPEnvironment.draw` depends only on the Generator it is
given and on the episode index (Algorithm 1 line 2: ``r_t`` and ``G_t`` are fixed before the policy is).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from regretlab.cmdp.instance import CMDP
from regretlab.cmdp.offline_lp import (
    feasibility_parameter,
    feasibility_parameter_adversarial,
    lagrange_multiplier,
    solve_opt,
)
from regretlab.core.kernels import kernel

#: Names of the two settings of each sequence (paper §3.1, Definition 2).
KINDS = ("stochastic", "adversarial")

#: Designs of the adversarial sequences (module docstring, :func:`make_environment`).
ADVERSARIES = ("switching", "risky_swing")


@dataclass(frozen=True, eq=False)
class PhaseProcess:
    """A periodic schedule of phase means with two-point noise: the sequence ``r_t`` or ``G_t``.

    Attributes
    ----------
    phases : ``(K, *shape)`` phase means in ``[low, 1]``, ``shape`` ending in ``(|X|, |A|)`` with a zero
        terminal row; ``K = 1`` is stochastic, ``K >= 2`` adversarial. The terminal row is never drawn.
    period : episodes per phase.
    noise : ``[0, 1]``, weight of the two-point draw (must be 0 when ``K >= 2``).
    low : lower end of the value range, 0 for rewards and -1 for constraints (the upper end is 1).
    """

    phases: np.ndarray
    period: int
    noise: float
    low: float

    def __post_init__(self) -> None:
        phases = np.array(self.phases, dtype=float)
        phases.setflags(write=False)
        object.__setattr__(self, "phases", phases)
        object.__setattr__(self, "period", int(self.period))
        object.__setattr__(self, "noise", float(self.noise))
        object.__setattr__(self, "low", float(self.low))
        if phases.ndim < 2 or phases.shape[0] < 1:
            raise ValueError(f"phases must have shape (K, *shape) with K >= 1, got {phases.shape}")
        if phases.min() < self.low or phases.max() > 1.0:
            raise ValueError(f"phase means must lie in [{self.low}, 1]")
        if np.any(phases[..., -1, :] != 0.0):
            raise ValueError("the terminal row x_L (last state) must be 0 in every phase: no action there")
        if self.period < 1 or not 0.0 <= self.noise <= 1.0:
            raise ValueError(f"need period >= 1 and noise in [0, 1], got {self.period}, {self.noise}")
        if phases.shape[0] > 1 and self.noise > 0.0:
            raise ValueError("an adversarial (K >= 2 phases) sequence must be deterministic: set noise = 0")

    @property
    def kind(self) -> str:
        """``"stochastic"`` (one phase) or ``"adversarial"`` (a deterministic schedule of several)."""
        return KINDS[int(self.phases.shape[0] > 1)]

    @property
    def n_uniforms(self) -> int:
        """Uniforms consumed per episode: one per entry when noisy, none otherwise."""
        return self.phases[0].size if self.noise > 0.0 else 0

    def phase_counts(self, T: int) -> np.ndarray:
        """How many of the episodes ``1..T`` fall in each phase, shape ``(K,)``, in closed form."""
        K = self.phases.shape[0]
        cycle = self.period * K
        rest = T % cycle - self.period * np.arange(K)
        return (T // cycle) * self.period + np.clip(rest, 0, self.period)

    def values(self, t0: int, n: int, uniforms: np.ndarray) -> np.ndarray:
        """Values of episodes ``t0 + 1 .. t0 + n``, ``(n, *shape)``, from ``(n, n_uniforms)`` uniforms
        (:func:`phase_values_into`)."""
        K, shape = self.phases.shape[0], self.phases.shape[1:]
        terminal = np.zeros(shape, dtype=bool)
        terminal[..., -1, :] = True
        out = np.empty((n, *shape))
        phase_values_into(
            self.phases.reshape(K, -1),
            self.period,
            self.noise,
            self.low,
            t0,
            uniforms,
            terminal.ravel(),
            out.reshape(n, -1),
        )
        return out

    def average(self, T: int) -> np.ndarray:
        """``r̄`` or ``Ḡ`` of Definition 2 for horizon ``T``: expectation (``K = 1``) or ``(1/T) Σ_{t<=T}``."""
        return np.tensordot(self.phase_counts(T) / T, self.phases, axes=1)

    def swing(self) -> np.ndarray:
        """Per entry, the largest minus the smallest phase mean, ``shape`` (0 everywhere when ``K = 1``)."""
        return self.phases.max(axis=0) - self.phases.min(axis=0)

    def occurring(self, T: int) -> np.ndarray:
        """The distinct values of the episodes ``1..T`` of a deterministic schedule, ``(K', *shape)``."""
        return self.phases[self.phase_counts(T) > 0]

    def to_dict(self) -> dict[str, Any]:
        """Plain fields, ready for ``json.dump``."""
        return {"phases": self.phases.tolist(), "period": self.period, "noise": self.noise, "low": self.low}


@kernel
def phase_values_into(phases, period, noise, low, t0, uniforms, terminal, out):
    """The values of episodes ``t0 + 1 .. t0 + n`` of a :class:`PhaseProcess` into ``out`` ``(n, size)``.

    ``phases`` is ``(K, size)`` (the phase means, flattened), ``uniforms`` ``(n, size)`` when ``noise > 0``
    (unread otherwise) and ``terminal`` ``(size,)`` marks the terminal row's entries. Episode ``t0 + 1 + j``
    is in phase ``((t0 + j) // period) mod K``; with noise its value is ``(1 - noise) μ + noise B``, ``B = 1``
    when ``u (1 - low) < μ - low`` and ``low`` otherwise, clipped to ``[low, 1]`` (round-off of the convex
    combination), and 0 on the terminal row (a zero-mean constraint would draw ±1 there). Elementwise, in
    the order numpy's ``(1 - noise) * mean + noise * np.where(high, 1, low)`` evaluates it, so the values
    are the same bits (tests/test_cmdp_environments.py compares them with that expression).
    """
    n_phases = phases.shape[0]
    for j in range(out.shape[0]):
        mean = phases[((t0 + j) // period) % n_phases]
        if noise == 0.0:
            for f in range(out.shape[1]):
                out[j, f] = mean[f]
            continue
        for f in range(out.shape[1]):
            if terminal[f]:
                out[j, f] = 0.0
                continue
            high = uniforms[j, f] * (1.0 - low) < mean[f] - low
            value = (1.0 - noise) * mean[f] + noise * (1.0 if high else low)
            out[j, f] = min(max(value, low), 1.0)


@dataclass(frozen=True)
class Benchmark:
    """What the evaluator compares a run of horizon ``T`` against (Definition 2 and §3.5, per setting).

    Attributes
    ----------
    r_bar : ``(|X|, |A|)`` and G_bar : ``(m, |X|, |A|)``, the ``r̄``, ``Ḡ`` of Definition 2 (lines 147-153).
    opt : ``OPT_{r̄,Ḡ}`` of eq. (5); q_star : its pair-view maximiser ``q*``.
    rho : ``ρ`` of §3.5 (line 165), stochastic definition from ``Ḡ`` or adversarial over every ``G_t``.
    q_circ : the pair-view occupancy ``q°`` attaining ``rho``.
    lambda_star : ``(m,)``, the Lagrange multiplier of eq. (5) with ``r̄``, ``Ḡ``
        (:func:`~regretlab.cmdp.offline_lp.lagrange_multiplier`).
    max_G_q_star : ``max_{t<=T} max_i [G_t^T q*]_i`` over a deterministic (adversarial) schedule, the
        quantity line 1248 bounds by 1 (at most ``L``); NaN for stochastic constraints.
    share_G_q_star_above_1 : the fraction of the episodes ``1..T`` with ``max_i [G_t^T q*]_i > 1``; NaN for
        stochastic constraints.
    """

    r_bar: np.ndarray
    G_bar: np.ndarray
    opt: float
    q_star: np.ndarray
    rho: float
    q_circ: np.ndarray
    lambda_star: np.ndarray
    max_G_q_star: float
    share_G_q_star_above_1: float


@dataclass(frozen=True, eq=False)
class CMDPEnvironment:
    """The sequences ``r_1, ..., r_T`` and ``G_1, ..., G_T`` of a CMDP (Algorithm 1 lines 2 and 9).

    Attributes
    ----------
    rewards : the :class:`PhaseProcess` of ``r_t``, shape ``(|X|, |A|)``, ``low = 0``.
    constraints : the :class:`PhaseProcess` of ``G_t``, shape ``(m, |X|, |A|)``, ``low = -1``.
    """

    rewards: PhaseProcess
    constraints: PhaseProcess

    def __post_init__(self) -> None:
        r_shape, g_shape = self.rewards.phases.shape[1:], self.constraints.phases.shape[1:]
        if len(r_shape) != 2 or len(g_shape) != 3 or g_shape[1:] != r_shape:
            raise ValueError(
                f"reward phases must be (K, |X|, |A|) and constraint phases (K, m, |X|, |A|), "
                f"got {self.rewards.phases.shape} and {self.constraints.phases.shape}"
            )
        if self.rewards.low != 0.0 or self.constraints.low != -1.0:
            raise ValueError("rewards take values in [0, 1] (low = 0) and constraints in [-1, 1] (low = -1)")

    @property
    def setting(self) -> dict[str, str]:
        """``{"rewards": kind, "constraints": kind}`` with kinds from :data:`KINDS`."""
        return {"rewards": self.rewards.kind, "constraints": self.constraints.kind}

    def draw(self, rng: np.random.Generator, t0: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``r_t``, ``G_t`` of episodes ``t0 + 1 .. t0 + n``: shapes ``(n, |X|, |A|)``, ``(n, m, |X|, |A|)``.

        All uniforms of a chunk come from one call, row ``j`` belonging to episode ``t0 + j + 1``, so the
        sequence does not depend on how a horizon is cut into chunks.
        """
        n_r = self.rewards.n_uniforms
        uniforms = rng.random((n, n_r + self.constraints.n_uniforms))
        return (
            self.rewards.values(t0, n, uniforms[:, :n_r]),
            self.constraints.values(t0, n, uniforms[:, n_r:]),
        )

    def benchmark(self, P: np.ndarray, T: int) -> Benchmark:
        """``r̄``, ``Ḡ``, ``OPT_{r̄,Ḡ}``, ``q*``, ``ρ`` and ``q°`` for horizon ``T`` under transition ``P``.

        ``ρ`` is the adversarial one (§3.5, one ``q°`` against every ``G_t`` of ``[1..T]``) when the
        constraints are adversarial and the stochastic one (from ``Ḡ``) otherwise.
        """
        r_bar, G_bar = self.rewards.average(T), self.constraints.average(T)
        opt, q_star = solve_opt(P, r_bar, G_bar)
        lam = lagrange_multiplier(P, r_bar, G_bar)
        worst, share = float("nan"), float("nan")
        if self.constraints.kind == "adversarial":
            rho, q_circ = feasibility_parameter_adversarial(P, self.constraints.occurring(T))
            per_phase = np.einsum("kixa,xa->ki", self.constraints.phases, q_star).max(axis=1)
            counts = self.constraints.phase_counts(T)
            worst = float(per_phase[counts > 0].max())
            share = float(counts[per_phase > 1.0].sum() / T)
        else:
            rho, q_circ = feasibility_parameter(P, G_bar)
        return Benchmark(r_bar, G_bar, opt, q_star, rho, q_circ, lam, worst, share)

    def to_dict(self) -> dict[str, Any]:
        """Plain fields, ready for ``json.dump``; :meth:`from_dict` inverts it."""
        return {"rewards": self.rewards.to_dict(), "constraints": self.constraints.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CMDPEnvironment:
        """Inverse of :meth:`to_dict`."""
        return cls(PhaseProcess(**data["rewards"]), PhaseProcess(**data["constraints"]))


def switching_signs(rng: np.random.Generator, n_states: int, n_actions: int) -> np.ndarray:
    """``s(x, a) = ±1``: in every non-terminal state a random half of the actions (rounded up) gets ``+1``.

    Shape ``(|X|, |A|)``, terminal row 0. Drawn once per environment, before any episode.
    """
    signs = np.zeros((n_states, n_actions))
    for x in range(n_states - 1):
        signs[x] = np.where(rng.permutation(n_actions) < (n_actions + 1) // 2, 1.0, -1.0)
    return signs


def risky_swing_mask(G_bar: np.ndarray) -> np.ndarray:
    """The entries the ``risky_swing`` adversary moves: ``ḡ_i(x, a) >= 0`` off the terminal row.

    ``G_bar`` ``(m, |X|, |A|)`` -> bool of the same shape.
    """
    moving = np.asarray(G_bar) >= 0.0
    moving[:, -1] = False
    return moving


def _phases(mean: np.ndarray, swing: np.ndarray, low: float) -> np.ndarray:
    """``(mean + swing, mean - swing)`` stacked, clipped to ``[low, 1]`` against round-off."""
    return np.clip(np.stack([mean + swing, mean - swing]), low, 1.0)


def make_environment(
    cmdp: CMDP,
    rng: np.random.Generator,
    rewards: str = "stochastic",
    constraints: str = "stochastic",
    noise: float = 1.0,
    period: int = 100,
    reward_amplitude: float = 1.0,
    constraint_amplitude: float = 0.5,
    adversary: str = "switching",
) -> CMDPEnvironment:
    """An environment around the instance's means ``r̄``, ``Ḡ`` in one of the four settings of §3.1.

    A ``"stochastic"`` sequence draws with two-point ``noise`` around the instance's mean every episode; an
    ``"adversarial"`` one switches between two deterministic phases every ``period`` episodes, with half-width
    ``reward_amplitude`` / ``constraint_amplitude`` (in ``[0, 1]``, a fraction of the largest half-width that
    keeps the range) and the ``adversary``'s sign pattern (module docstring): ``switching`` draws it from
    ``rng`` with :func:`switching_signs` (in every setting, so the draw does not depend on the setting),
    ``risky_swing`` reads it off ``Ḡ`` (:func:`risky_swing_mask`) and draws nothing. Raises ``ValueError``
    when adversarial constraints leave no occupancy that satisfies every phase (adversarial ``ρ < 0``): lower
    ``constraint_amplitude``.
    """
    for name, kind in (("rewards", rewards), ("constraints", constraints)):
        if kind not in KINDS:
            raise ValueError(f"{name} must be one of {KINDS}, got {kind!r}")
    if adversary not in ADVERSARIES:
        raise ValueError(f"adversary must be one of {ADVERSARIES}, got {adversary!r}")
    for name, amplitude in (
        ("reward_amplitude", reward_amplitude),
        ("constraint_amplitude", constraint_amplitude),
    ):
        if not 0.0 <= amplitude <= 1.0:
            raise ValueError(f"{name} must lie in [0, 1], got {amplitude}")
    r_bar, G_bar = cmdp.r_bar, cmdp.G_bar
    if adversary == "switching":
        signs = switching_signs(rng, cmdp.n_states, cmdp.n_actions)
        reward_signs, constraint_swing = signs, (1.0 - np.abs(G_bar)) * signs
    else:
        moving = risky_swing_mask(G_bar)
        reward_signs = np.where(moving.any(axis=0), 1.0, -1.0)
        reward_signs[-1] = 0.0
        constraint_swing = np.where(moving, 1.0 - G_bar, 0.0)
    if rewards == "adversarial":
        swing = reward_amplitude * np.minimum(r_bar, 1.0 - r_bar) * reward_signs
        reward_process = PhaseProcess(_phases(r_bar, swing, 0.0), period, 0.0, 0.0)
    else:
        reward_process = PhaseProcess(r_bar[None], period, noise, 0.0)
    if constraints == "adversarial":
        swing = constraint_amplitude * constraint_swing
        constraint_process = PhaseProcess(_phases(G_bar, swing, -1.0), period, 0.0, -1.0)
        rho, _ = feasibility_parameter_adversarial(cmdp.P, constraint_process.phases)
        if rho < 0.0:
            raise ValueError(
                f"constraint_amplitude={constraint_amplitude} leaves no occupancy feasible in both "
                f"phases (adversarial rho = {rho:.4g} < 0); lower it"
            )
    else:
        constraint_process = PhaseProcess(G_bar[None], period, noise, -1.0)
    return CMDPEnvironment(reward_process, constraint_process)
