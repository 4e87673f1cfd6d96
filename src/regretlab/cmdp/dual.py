"""The dual player of PDGD-OPS: projected OGD on ``𝒟 = [0, T^{1/4}]^m`` (§4 eq. (9); App. C.1.1 eq. (16)).

``λ_1 = 0`` (OGD.INIT, Algorithm 2 line 3) and ``λ_{t+1} = Π_𝒟(λ_t + η G_t^T q̂_t)`` (Algorithm 2 line 9: the
dual's loss is ``-G_t^T q̂_t``, its gradient step therefore adds ``η G_t^T q̂_t``). ``Π_𝒟`` is the Euclidean
projection onto a box, i.e. the coordinate-wise clip of eq. (16) (line 696).

Reading of the paper: §4 (line 187) leaves ``η = [K √(T ln(T²/δ))]^{-1}`` with an unspecified
instance-dependent ``K``; App. C.2 (lines 971-977) fixes it from the proof of Theorem 4 as
``K = 50 m max{U_1 U_2 / L, L} = 100 m |X||A|`` with ``U_1 = 2L`` and ``U_2 = |X||A|``. ``|X|`` counts every
state, ``x_0`` and ``x_L`` included. The violation ``G_t^T q̂_t`` uses the estimated occupancy ``q̂_t`` (pair
view), as eq. (9) says, not the true ``q_t``.
"""

from __future__ import annotations

import math

import numpy as np


def dual_learning_rate(K: float, T: int, delta: float) -> float:
    """``η = [K √(T ln(T²/δ))]^{-1}`` (§4, paper line 187; App. C.1.1, line 698)."""
    return 1.0 / (K * math.sqrt(T * math.log(T**2 / delta)))


def paper_K(m: int, n_states: int, n_actions: int) -> float:
    """``K = 100 m |X||A|`` of App. C.2 (paper line 977): :func:`dual_learning_rate` is then the paper's η."""
    return 100.0 * m * n_states * n_actions


def tuned_dual_radius(L: int, m: int, T: int, rho: float | None = None) -> float:
    """``D = min{L/ρ, √m T^{1/4}}``: a radius that contains ``λ*`` and fits in the box ``𝒟``.

    Slater's bound: strong duality for eq. (5) gives ``OPT = max_q r̄^T q - λ*^T Ḡ^T q >= r̄^T q° + ρ||λ*||_1``
    (``-[Ḡ^T q°]_i >= ρ`` and ``λ* >= 0``), so ``||λ*||_2 <= ||λ*||_1 <= (OPT - r̄^T q°)/ρ <= L/ρ``
    (``OPT <= L`` as ``r̄ <= 1``). ``√m T^{1/4}`` is the Euclidean diameter of ``𝒟 = [0, T^{1/4}]^m``, which
    caps the radius when ``ρ`` is small. ``rho=None`` (``ρ`` not given) takes ``ρ = L``, i.e. ``D = 1``.
    """
    box = math.sqrt(m) * T**0.25
    if rho is None:
        return min(1.0, box)
    return box if rho <= 0 else min(L / rho, box)


def tuned_dual_learning_rate(L: int, m: int, T: int, rho: float | None = None) -> float:
    """``η = D / (L √(m T))`` with ``D`` of :func:`tuned_dual_radius`: the step that minimises OGD's bound
    ``D²/(2η) + η m L² T / 2`` on ``R^D_T(λ)`` for every comparator ``||λ - λ_1||_2 <= D`` (App. C.1.1,
    lines 711-715, with ``||G_t^T q̂_t||_2² <= m L²``), in particular for ``λ = λ*``.

    Its point: λ_t needs about ``||λ*||_1 / (η v)`` episodes to climb to ``λ*`` while the iterates violate by
    ``v`` per episode, i.e. ``O(√T)`` episodes here (a few hundred on the binding instances of the config),
    against ``||λ*||_1 K √(T ln(T²/δ)) / v`` with App. C's ``K = 100m|X||A|`` (line 977): there λ_T reaches
    ``λ* ≈ 0.4`` only when ``T ≈ 10^6``. The step is ``∝ 1/√T`` like the paper's, without its
    ``√(ln(T²/δ))`` (a union-bound artefact of the proof of Theorem 4, not part of OGD's bound).
    """
    return tuned_dual_radius(L, m, T, rho) / (L * math.sqrt(m * T))


def paper_dual_box_horizon(m: int, n_states: int, n_actions: int, L: int, delta: float) -> float:
    """The smallest ``T`` at which App. C's dual can reach its box side: ``η L T >= T^{1/4}``.

    From ``λ_1 = 0`` a coordinate grows by at most ``η L`` per episode (Lemma 11, ``|[G_t^T q̂_t]_i| <= L``),
    so with the paper's ``η = [K √(T ln(T²/δ))]^{-1}``, ``K = 100 m |X||A|`` (line 977), no projection of
    eq. (16) can clip at the upper side before this horizon, whatever the instance:
    ``L T^{1/4} >= K √(ln(T²/δ))``. Found by bisection on ``ln T`` (the left side over the right one
    increases in ``T`` from ``T = 1``); about ``1.2·10^14`` for ``|X||A| = 12``, ``m = 1``, ``L = 3``.
    """
    K = paper_K(m, n_states, n_actions)

    def reaches(log_T: float) -> bool:
        return L * math.exp(log_T / 4) >= K * math.sqrt(2 * log_T - math.log(delta))

    low, high = 0.0, 200.0
    if not reaches(high):
        return math.inf
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return math.exp(high)


class DualOGD:
    """Projected OGD on ``[0, T^{1/4}]^m`` with a constant step ``eta`` (eq. (9)).

    Attributes
    ----------
    lam : ``(m,)``, the current multiplier ``λ_t`` (updated in place).
    eta : the step size ``η``; upper : ``T^{1/4}``, the side of the box ``𝒟``.
    """

    def __init__(self, m: int, T: int, eta: float) -> None:
        if m < 1 or T < 1 or eta <= 0:
            raise ValueError(f"need m >= 1, T >= 1 and eta > 0, got m={m}, T={T}, eta={eta}")
        self.eta = float(eta)
        self.upper = T**0.25
        self.lam = np.zeros(m)

    def update(self, violation: np.ndarray) -> None:
        """Eq. (9)/(16) with ``violation = G_t^T q̂_t``, shape ``(m,)``."""
        np.clip(self.lam + self.eta * violation, 0.0, self.upper, out=self.lam)

    def get_state(self) -> dict:
        """A copy of ``λ_t`` (for a snapshot, :mod:`regretlab.core.snapshots`)."""
        return {"lam": self.lam.copy()}

    def set_state(self, state: dict) -> None:
        """Restore ``λ_t`` in place."""
        np.copyto(self.lam, state["lam"])
