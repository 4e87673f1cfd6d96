"""PDGD-OPS (paper Algorithm 2, lines 189-207) and UC-O-GDPS run alone on a fixed Lagrangian loss sequence.

Both learners have the same two verbs: read ``policy`` (``π_t = π^{q̂_t}``, shape ``(|X|, |A|)``) before
an episode, then ``update(trajectory, r_t, G_t)`` with the episode's ``(L, 3)`` trajectory, ``r_t``
``(|X|, |A|)`` and ``G_t`` ``(m, |X|, |A|)`` (Algorithm 2 line 5: they are revealed after the episode);
``update`` returns the loss ``ℓ_t`` it fed to the primal player. A learner knows ``X``, ``A``, ``m``, ``T``
and ``δ``, never ``P``.

Sign and shape conventions, checked against the paper and :mod:`regretlab.cmdp.offline_lp`: the paper's
``G_t ∈ [-1, 1]^{|X×A|×m}`` is stored transposed as ``(m, |X|, |A|)``, so the loss of line 6,
``ℓ_t = G_t λ_t - r_t``, is ``ℓ_t(x, a) = Σ_i λ_{t,i} G_t[i, x, a] - r_t(x, a)`` (the negated Lagrangian
``r^T q - λ^T G^T q`` of eq. (6), minimised by the primal), and the dual's input of line 9 is
``G_t^T q̂_t = (Σ_{x,a} G_t[i, x, a] q̂_t(x, a))_i``, positive when ``q̂_t`` violates (``G^T q <= 0`` is
satisfaction), which raises ``λ``.

Constants (``constants=``):

* ``"paper"``: exactly App. C.2, ``C = 5|X||A|/L`` (line 959) and ``η = [K √(T ln(T²/δ))]^{-1}`` with
  ``K = 100 m|X||A|`` (line 977). These make Theorem 4's contradiction argument go through; they are very
  conservative (for ``|X||A| = 24``, ``m = 1``, ``T = 10^4`` the dual step is ``η ≈ 10^{-6}``, so ``λ`` can
  grow by at most ``ηL`` per episode).
* ``"tuned"``: constants chosen so that the primal–dual mechanism works within the horizons one can run,
  keeping the paper's ``η ∝ 1/√T``. Primal: ``C = √(|X||A| / (2L))``, the minimiser of
  ``LC√T + (|X||A|/2) T / (C√T)`` (Theorem 3 on ``[1..T]``, line 305). Dual:
  ``η = D / (L √(m T))`` with ``D = min{L/ρ, √m T^{1/4}}``
  (:func:`~regretlab.cmdp.dual.tuned_dual_learning_rate`), OGD's optimal step for comparators within ``D``
  of ``λ_1 = 0``, ``D`` bounding ``||λ*||`` by Slater's argument; it needs the instance's ``ρ`` (``rho=``;
  ``None`` takes ``D = 1``). ``K`` is reported as the ``K`` of line 187 that gives this ``η``. None of
  Theorems 4-7 is proved for these constants.

UC-O-GDPS alone (for Theorem 3 and Lemma 2): :class:`UCOGDPSAlone` feeds Algorithm 4 the losses
``ℓ_t = G_t λ - r_t`` at a fixed multiplier ``λ`` (default ``0``, i.e. ``ℓ_t = -r_t``), a loss sequence fixed
by the environment alone (oblivious), with the same ``η_t`` rule and the preset's ``C``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from regretlab.cmdp.dual import DualOGD, dual_learning_rate, paper_K, tuned_dual_learning_rate
from regretlab.cmdp.occupancy import check_layer_sizes
from regretlab.cmdp.uc_o_gdps import UCOGDPS, AdaptiveRate, paper_C

#: Names accepted by ``constants=``.
PRESETS = ("paper", "tuned")


@dataclass(frozen=True)
class PDGDConstants:
    """The learning-rate constants of one run.

    Attributes
    ----------
    preset : ``"paper"`` or ``"tuned"`` (module docstring).
    C : primal constant of ``η_t = 1 / (ℓ̄_t C √T)``.
    K : dual constant of ``η = [K √(T ln(T²/δ))]^{-1}``; eta : that dual step.
    delta : confidence ``δ``; T : horizon.
    """

    preset: str
    C: float
    K: float
    eta: float
    delta: float
    T: int


def pdgd_constants(
    preset: str,
    layer_sizes: Sequence[int],
    n_actions: int,
    m: int,
    T: int,
    delta: float,
    rho: float | None = None,
) -> PDGDConstants:
    """The ``C``, ``K`` and dual ``η`` of a preset for the given sizes, horizon and ``δ``.

    ``rho`` (the instance's feasibility parameter) is used by ``"tuned"`` only, for the dual radius of
    :func:`~regretlab.cmdp.dual.tuned_dual_radius`; ``"paper"`` ignores it.
    """
    sizes = check_layer_sizes(layer_sizes)
    n_states, L = sum(sizes), len(sizes) - 1
    if preset == "paper":
        C, K = paper_C(n_states, n_actions, L), paper_K(m, n_states, n_actions)
        eta = dual_learning_rate(K, T, delta)
    elif preset == "tuned":
        C = math.sqrt(n_states * n_actions / (2.0 * L))
        eta = tuned_dual_learning_rate(L, m, T, rho)
        K = 1.0 / (eta * math.sqrt(T * math.log(T**2 / delta)))  # the K of line 187 giving this η
    else:
        raise ValueError(f"constants must be one of {PRESETS}, got {preset!r}")
    return PDGDConstants(preset, C, K, eta, float(delta), int(T))


def lagrangian_loss(lam: np.ndarray, r: np.ndarray, G: np.ndarray) -> np.ndarray:
    """``ℓ = G λ - r`` (Algorithm 2 line 6): ``(m,)``, ``(|X|, |A|)``, ``(m, |X|, |A|)`` -> ``(|X|, |A|)``."""
    return (lam @ G.reshape(lam.shape[0], -1)).reshape(r.shape) - r


class UCOGDPSAlone:
    """UC-O-GDPS (Algorithm 4) on the losses ``ℓ_t = G_t λ - r_t`` at a fixed multiplier ``λ``.

    Attributes
    ----------
    primal : the :class:`~regretlab.cmdp.uc_o_gdps.UCOGDPS` state; rate : its :class:`AdaptiveRate`.
    lam : ``(m,)``, the fixed ``λ`` (read-only).
    constants : the preset's :class:`PDGDConstants` (only ``C`` is used).
    """

    algorithm = "uc_o_gdps"

    def __init__(
        self,
        layer_sizes: Sequence[int],
        n_actions: int,
        m: int,
        T: int,
        delta: float,
        constants: str = "paper",
        lam: np.ndarray | None = None,
        rho: float | None = None,
    ) -> None:
        self.constants = pdgd_constants(constants, layer_sizes, n_actions, m, T, delta, rho)
        self.primal = UCOGDPS(layer_sizes, n_actions, T, delta)
        self.rate = AdaptiveRate(self.constants.C, T)
        self.lam = np.zeros(m) if lam is None else np.array(lam, dtype=float)
        if self.lam.shape != (m,) or np.any(self.lam < 0):
            raise ValueError(f"lam must be a non-negative vector of shape ({m},), got {self.lam}")
        self.lam.setflags(write=False)

    @property
    def policy(self) -> np.ndarray:
        """``π_t = π^{q̂_t}``, shape ``(|X|, |A|)``."""
        return self.primal.policy

    @property
    def q_hat(self) -> np.ndarray:
        """``q̂_t``, shape ``(|X|, |A|, |X|)``."""
        return self.primal.q_hat

    @property
    def params(self) -> dict:
        """The run's constants, JSON-ready."""
        return {"algorithm": self.algorithm, **asdict(self.constants), "lam": self.lam.tolist()}

    def update(self, trajectory: np.ndarray, r: np.ndarray, G: np.ndarray) -> np.ndarray:
        """One episode of Algorithm 4 (lines 4-13) on ``ℓ_t = G_t λ - r_t``; returns ``ℓ_t``."""
        loss = lagrangian_loss(self.lam, r, G)
        self.primal.update(loss, self.rate(loss), trajectory)
        return loss

    def get_state(self) -> dict:
        """Everything that changes in a run, as plain arrays and numbers (for a snapshot,
        :mod:`regretlab.core.snapshots`; the projector's solver objects are not part of it)."""
        return {"primal": self.primal.get_state(), "rate": self.rate.get_state()}

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s values into this learner (built with the same arguments), in place."""
        self.primal.set_state(state["primal"])
        self.rate.set_state(state["rate"])


class PDGDOPS(UCOGDPSAlone):
    """PDGD-OPS (Algorithm 2): UC-O-GDPS on ``ℓ_t = G_t λ_t - r_t`` with ``λ_t`` from :class:`DualOGD`.

    ``lam`` is ``λ_t``, the dual's current multiplier (``λ_1 = 0``, Algorithm 2 line 3).
    """

    algorithm = "pdgd_ops"

    def __init__(
        self,
        layer_sizes: Sequence[int],
        n_actions: int,
        m: int,
        T: int,
        delta: float,
        constants: str = "paper",
        rho: float | None = None,
    ) -> None:
        super().__init__(layer_sizes, n_actions, m, T, delta, constants, rho=rho)
        self.dual = DualOGD(m, T, self.constants.eta)  # line 3
        self.lam = self.dual.lam

    @property
    def params(self) -> dict:
        """The run's constants, JSON-ready."""
        return {"algorithm": self.algorithm, **asdict(self.constants)}

    def update(self, trajectory: np.ndarray, r: np.ndarray, G: np.ndarray) -> np.ndarray:
        """Algorithm 2 lines 6-9 after the episode of line 5; returns ``ℓ_t``."""
        loss = lagrangian_loss(self.lam, r, G)  # line 6
        eta_t = self.rate(loss)  # line 7
        # G_t^T q̂_t with the q̂_t of this episode, before line 8 replaces it.
        violation = G.reshape(G.shape[0], -1) @ self.primal.q_hat.sum(axis=2).ravel()
        self.primal.update(loss, eta_t, trajectory)  # line 8
        self.dual.update(violation)  # line 9
        return loss

    def get_state(self) -> dict:
        """The primal's state and the dual's ``λ_t`` (:meth:`UCOGDPSAlone.get_state`)."""
        return {**super().get_state(), "dual": self.dual.get_state()}

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s values, in place."""
        super().set_state(state)
        self.dual.set_state(state["dual"])
