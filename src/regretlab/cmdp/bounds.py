"""Bounds of paper 000 with the paper's explicit constants (App. A, B, C), one function per statement.

Every function returns a :class:`Bound`: its value, whether it carries the paper's constants
(``explicit=True``) or is an Õ(·) rate with unit constant (``explicit=False``), the theory exponent of ``T``
(logarithmic factors ignored) and the paper lines it comes from. ``|X|`` counts every state (``x_0`` and
``x_L`` included) and ``L`` is the number of decision layers, as in :mod:`regretlab.cmdp.occupancy`.

Readings of the paper (ambiguities):

* Theorems 5-7 leave the primal regret ``R^P_T(q*)`` (or ``R^P_T(q̃)``) as a term of the bound and only say it
  is Õ((1 + λ_{1,T}) √T) (paper lines 1108-1110, 1278-1280). It is made explicit here with Theorem 3 on
  ``[1..T]`` (line 305) and ``ℓ̄_T <= 1 + λ_{1,T}`` (App. C.1.2, line 751), with ``λ_{1,T} <= ζ`` under
  Condition 2 (Theorem 4) and ``λ_{1,T} <= m T^{1/4}`` without it (the box ``[0, T^{1/4}]^m``, line 1140,
  whose ``mV^{1/4}`` is read as ``mT^{1/4}``).
  Likewise ``R^D_T(0) <= η m L² T / 2`` (App. C.1.1 with ``λ_1 = 0``, lines 713-715).
* The theorems are proved for the paper's learning rates, so they use ``C = 5|X||A|/L`` (line 959) and
  ``η = 1/(100 m|X||A| √(T ln(T²/δ)))`` (line 977); only Theorem 3 and the dual regret, which hold for any
  ``C`` or ``η``, take them as arguments.
* Lemma 10 (hence Theorem 3) is stated with ``U_2 = |X||A|`` (line 654); for OGD on triples, as implemented,
  the squared gradient norm sums over support triples (see :mod:`regretlab.cmdp.uc_o_gdps`). The paper's
  constant is kept.
* Theorem 7's reward statement ``Σ r_t^T q_t >= Ω(ρ/(1+ρ) T OPT)`` (line 433) is given both as the explicit
  lower bound ``T·OPT - R_T`` with the explicit ``R_T`` of line 421/427 and as the unit-constant rate.
  Its proof (line 1248) bounds ``[G_t^T q*]_i <= 1``, but ``||q*||_1 = L`` and ``G_t ∈ [-1, 1]`` only give
  ``<= L``; :func:`theorem7_corrected` and :func:`theorem7_corrected_ratio` carry the proof through with
  ``<= L`` (ratio ``ρ/(L+ρ)``, regret term ``L·T·OPT/(L+ρ)``). The stated and corrected forms agree at
  ``L = 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from regretlab.cmdp.dual import dual_learning_rate, paper_K, tuned_dual_learning_rate
from regretlab.cmdp.uc_o_gdps import paper_C


@dataclass(frozen=True)
class Bound:
    """One evaluated bound.

    Attributes
    ----------
    value : the bound's value.
    explicit : True with the paper's constants, False for an Õ(·) rate with unit constant.
    exponent : the theory exponent of ``T`` (log factors ignored).
    source : where the paper states it.
    """

    value: float
    explicit: bool
    exponent: float
    source: str


def lemma2_Eq(
    T: int, delta: float, L: int, n_states: int, n_actions: int, length: int | None = None
) -> Bound:
    """``E^q_δ = 4L|X| √(2T ln(1/δ)) + 6L|X| √(2T|A| ln(T|X||A|/δ))`` (Lemma 2; App. A, paper line 453).

    With probability ``>= 1 - 2δ``, ``Σ_{t<=T} ||q_t - q̂_t||_1 <= E^q_δ``. ``length = t`` bounds the partial
    sum over ``[1..t]`` of a horizon-``T`` run: the ``√T`` factors count the episodes summed (the sum of
    Rosenberg & Mansour's per-episode terms), the ``ln(T|X||A|/δ)`` is that of the run's confidence radii
    (eq. (10)), so it keeps ``T``. ``length=None``: ``t = T``.
    """
    n = T if length is None else length
    value = 4 * L * n_states * math.sqrt(2 * n * math.log(1 / delta)) + 6 * L * n_states * math.sqrt(
        2 * n * n_actions * math.log(T * n_states * n_actions / delta)
    )
    return Bound(value, True, 0.5, "Lemma 2 / App. A event E^q̂, paper line 453")


def lemma3_Er(T: int, delta: float, L: int) -> Bound:
    """``E^r_δ = (L/√2) √(T ln(2/δ))`` (Lemma 3, paper line 343)."""
    return Bound(L / math.sqrt(2) * math.sqrt(T * math.log(2 / delta)), True, 0.5, "Lemma 3, paper line 343")


def lemma4_EG(T: int, delta: float, L: int, length: int | None = None) -> Bound:
    """``E^G_{t1,t2,δ} = 2L √(2 (t2 - t1 + 1) ln(T²/δ))`` (Lemma 4, paper line 353); ``length = t2 - t1 + 1``.

    ``length=None`` gives ``E^G_δ = E^G_{1,T,δ}``.
    """
    n = T if length is None else length
    return Bound(2 * L * math.sqrt(2 * n * math.log(T**2 / delta)), True, 0.5, "Lemma 4, paper line 353")


def theorem4_zeta(m: int, L: int, rho: float) -> Bound:
    """``ζ = 20 m L² / ρ²`` (Theorem 4, paper line 319): ``||λ_t||_1 <= ζ`` under Condition 2.

    ``inf`` when ``ρ <= 0``.
    """
    value = 20 * m * L**2 / rho**2 if rho > 0 else math.inf
    return Bound(value, True, 0.0, "Theorem 4, paper line 319")


def lemma14_violation(lambda_max: float, eta: float, q_error: float) -> Bound:
    """``V_t <= ||λ_{t+1}||_1 / η + Σ_{τ<=t} ||q_τ − q̂_τ||_1`` while the dual has not been clipped at
    ``T^{1/4}``: Lemma 14 (line 1017; its proof is the unclipped update ``λ_{t+1,i} >= λ_{t,i} + η v̂_{t,i}``,
    so ``λ_{t+1,i} >= η V̂_{t,i}``) with Lemma 15's Hölder step (line 1037, ``V_t <= V̂_{t,i*} + Σ||q − q̂||_1``,
    ``|G| <= 1``), written in the recorded ``max_{τ<=t+1} ||λ_τ||_1 >= ||λ_{t+1}||_1`` and the measured
    ``Σ||q − q̂||_1`` in place of ``E^q_δ``. It holds for any sequence of estimated occupancies."""
    value = lambda_max / eta + q_error if eta > 0 else math.inf
    return Bound(value, True, 0.0, "Lemmas 14 and 15, paper lines 1017, 1037")


#: Relative slack of :func:`lemma14_dual`: ``η V̂_t`` and ``λ_{t+1}`` are equal sums in exact arithmetic while
#: the dual never touched 0; the kernel adds ``η·v̂`` step by step and ``V̂`` first, which differ by rounding.
FLOAT_SLACK = 1e-9


def lemma14_dual(lambda_max: float) -> Bound:
    """``max_i (η V̂_{t,i} − λ_{t+1,i}) <= 0`` while the dual has not been clipped at ``T^{1/4}``: Lemma 14
    itself (line 1017: the unclipped projected step ``λ_{t+1,i} >= λ_{t,i} + η v̂_{t,i}`` from ``λ_1 = 0``
    gives ``λ_{t+1,i} >= η V̂_{t,i}``), on the shortfall each run records from its estimated violation
    ``V̂_{t,i} = Σ [G_τ^T q̂_τ]_i``. Equality holds while the dual never touched 0, so the bound is 0 plus
    :data:`FLOAT_SLACK` × ``max ||λ||_1`` for rounding, and it is judged seed by seed through the mean's
    interval (every seed at most the bound). A dual that does not move (held at 0) or moves too little
    fails it wherever ``V̂_t > 0``."""
    return Bound(FLOAT_SLACK * max(lambda_max, 0.0), True, 0.0, "Lemma 14, paper line 1017")


def lemma16_violation(T: int, L: int, eta: float) -> Bound:
    """``V̂_{T,i} <= (2 + 2L) T^{1/4} / η`` (Lemma 16, line 1120), the violation on the estimated occupancies
    where Condition 2 fails; the recorded ``V_t`` adds Lemma 15's measured ``Σ||q − q̂||_1`` (see
    :func:`lemma14_violation`)."""
    return Bound((2 + 2 * L) * T**0.25 / eta, True, 0.75, "Lemma 16, paper line 1120")


def dual_regret(
    T: int, eta: float, m: int, L: int, distance_sq: float = 0.0, length: int | None = None
) -> Bound:
    """``R^D_{t1,t2}(λ) <= ||λ_{t1} - λ||²/(2η) + η m L² (t2 - t1 + 1)/2`` (App. C.1.1, lines 711-715).

    ``distance_sq = ||λ_{t1} - λ||_2^2`` (0 for ``R^D_T(0)``, as ``λ_1 = 0``); ``length = t2 - t1 + 1``
    (default ``T``). The exponent 1/2 is that of the paper's ``η ∝ 1/√(T ln T)``.
    """
    n = T if length is None else length
    return Bound(
        distance_sq / (2 * eta) + eta * m * L**2 * n / 2, True, 0.5, "App. C.1.1, paper lines 711-715"
    )


def theorem3(
    T: int,
    delta: float,
    L: int,
    n_states: int,
    n_actions: int,
    C: float,
    ell_interval: float,
    ell_t2: float,
    length: int,
) -> Bound:
    """Interval regret of UC-O-GDPS (Theorem 3, paper line 305), for any ``C`` of ``η_t = 1/(ℓ̄_t C √T)``:

    ``R^P_{t1,t2}(q) <= ℓ̄_{t1,t2} E^q_δ + ℓ̄_{t2} L C √T + ℓ̄_{t1,t2} (|X||A|/2) (t2 - t1 + 1) / (C √T)``

    with ``ell_interval = ℓ̄_{t1,t2} = max_{t1<=t<=t2} ||ℓ_t||_∞``, ``ell_t2 = ℓ̄_{t2}`` and
    ``length = t2 - t1 + 1``. Exponent 1/2 (on ``[1..T]``).
    """
    Eq = lemma2_Eq(T, delta, L, n_states, n_actions).value
    root = C * math.sqrt(T)
    value = ell_interval * Eq + ell_t2 * L * root + ell_interval * n_states * n_actions / 2 * length / root
    return Bound(value, True, 0.5, "Theorem 3, paper line 305")


def _primal_regret(T: int, delta: float, L: int, n_states: int, n_actions: int, lam_max: float) -> float:
    """``R^P_T`` by Theorem 3 on ``[1..T]`` with the paper's ``C`` and ``ℓ̄_T <= 1 + λ_{1,T}`` (line 751)."""
    C = paper_C(n_states, n_actions, L)
    ell = 1.0 + lam_max
    return theorem3(T, delta, L, n_states, n_actions, C, ell, ell, T).value


def _paper_eta(T: int, delta: float, m: int, n_states: int, n_actions: int) -> float:
    return dual_learning_rate(paper_K(m, n_states, n_actions), T, delta)


def theorem5(
    T: int, delta: float, L: int, n_states: int, n_actions: int, m: int, rho: float, stochastic_rewards: bool
) -> tuple[Bound, Bound]:
    """Regret and violation of PDGD-OPS, stochastic constraints, Condition 2 holds (Theorem 5, lines 361-379).

    ``R_T <= [E^r_δ] + ζ E^G_δ + ζ E^q_δ + R^D_T(0) + R^P_T(q*)`` (``E^r_δ`` only for stochastic rewards, line
    371 versus 365) and ``V_T <= ζ/η + E^q_δ`` (lines 367, 373); ``R^P_T(q*)`` and ``R^D_T(0)`` made explicit
    as in the module docstring. Both exponent 1/2.
    """
    zeta = theorem4_zeta(m, L, rho).value
    Eq = lemma2_Eq(T, delta, L, n_states, n_actions).value
    eta = _paper_eta(T, delta, m, n_states, n_actions)
    regret = zeta * lemma4_EG(T, delta, L).value + zeta * Eq + dual_regret(T, eta, m, L).value
    regret += _primal_regret(T, delta, L, n_states, n_actions, zeta)
    if stochastic_rewards:
        regret += lemma3_Er(T, delta, L).value
    return (
        Bound(regret, True, 0.5, "Theorem 5, paper lines 365/371"),
        Bound(zeta / eta + Eq, True, 0.5, "Theorem 5, paper lines 367/373"),
    )


def theorem6(
    T: int, delta: float, L: int, n_states: int, n_actions: int, m: int, stochastic_rewards: bool
) -> tuple[Bound, Bound]:
    """Regret and violation, stochastic constraints, Condition 2 fails (Theorem 6, lines 391-409).

    ``R_T <= [E^r_δ] + m T^{1/4} E^G_δ + m T^{1/4} E^q_δ + R^D_T(0) + R^P_T(q*)`` (lines 395, 401) and
    ``V_T <= (2 + 2L) T^{1/4}/η + E^q_δ`` (lines 397, 403), with ``λ_{1,T} <= m T^{1/4}`` in ``R^P_T``.
    Both exponent 3/4.
    """
    lam_max = m * T**0.25
    Eq = lemma2_Eq(T, delta, L, n_states, n_actions).value
    eta = _paper_eta(T, delta, m, n_states, n_actions)
    regret = lam_max * lemma4_EG(T, delta, L).value + lam_max * Eq + dual_regret(T, eta, m, L).value
    regret += _primal_regret(T, delta, L, n_states, n_actions, lam_max)
    if stochastic_rewards:
        regret += lemma3_Er(T, delta, L).value
    return (
        Bound(regret, True, 0.75, "Theorem 6, paper lines 395/401"),
        Bound((2 + 2 * L) * T**0.25 / eta + Eq, True, 0.75, "Theorem 6, paper lines 397/403"),
    )


def theorem7(
    T: int,
    delta: float,
    L: int,
    n_states: int,
    n_actions: int,
    m: int,
    rho: float,
    opt: float,
    stochastic_rewards: bool,
) -> tuple[Bound, Bound, Bound]:
    """Regret, violation and reward lower bound, adversarial constraints (Theorem 7, lines 417-435).

    ``R_T <= T·OPT/(1+ρ) + [E^r_δ] + ζ E^q_δ + R^D_T(0) + R^P_T(q̃)`` (lines 421, 427; exponent 1: the
    ``1/(1+ρ)`` share of ``T·OPT`` is not learnt away), ``V_T <= ζ/η + E^q_δ`` (lines 423, 429; exponent 1/2)
    and ``Σ r_t^T q_t >= T·OPT - (that regret bound)`` (the explicit form of line 433; exponent 1, its ratio
    to ``T·OPT`` tends to ``ρ/(1+ρ)``). ``ρ`` and ``OPT`` are the adversarial-setting ones.
    """
    zeta = theorem4_zeta(m, L, rho).value
    Eq = lemma2_Eq(T, delta, L, n_states, n_actions).value
    eta = _paper_eta(T, delta, m, n_states, n_actions)
    regret = T * opt / (1 + rho) + zeta * Eq + dual_regret(T, eta, m, L).value
    regret += _primal_regret(T, delta, L, n_states, n_actions, zeta)
    if stochastic_rewards:
        regret += lemma3_Er(T, delta, L).value
    return (
        Bound(regret, True, 1.0, "Theorem 7, paper lines 421/427"),
        Bound(zeta / eta + Eq, True, 0.5, "Theorem 7, paper lines 423/429"),
        Bound(T * opt - regret, True, 1.0, "Theorem 7, paper lines 421/427/433"),
    )


def theorem7_corrected_ratio(L: int, rho: float) -> float:
    """``ρ/(L+ρ)``: the share of ``T·OPT`` that the proof of Theorem 7 guarantees once line 1248 is corrected.

    The proof of Theorem 7 (App. C.4.1, lines 1244-1262), step by step, with the correction:

    1. ``q*`` attains ``OPT_{r̄,Ḡ}`` with ``Ḡ^T q* <= 0`` for the average ``Ḡ = (1/T) Σ_t G_t``, but a single
       ``G_t`` may be violated by ``q*``: all we know is ``G_t ∈ [-1, 1]^{|X×A|×m}`` and ``||q*||_1 = L``
       (Lemma 1: mass 1 on each of the ``L`` decision layers), so ``[G_t^T q*]_i <= ||q*||_1 = L``. The paper
       writes ``<= 1`` (line 1248), which holds only for ``L = 1``.
    2. ``q°`` (adversarial ``ρ``, §3.5) has ``[G_t^T q°]_i <= -ρ`` for every ``t`` and ``i``.
    3. For ``q̃ = α q* + (1 - α) q° ∈ Δ(M)`` (``Δ(M)`` is convex):
       ``[G_t^T q̃]_i <= α L - (1 - α) ρ``, which is ``<= 0`` iff ``α <= ρ/(L+ρ)``. The largest safe weight
       is ``α = ρ/(L+ρ)`` (the paper's ``α = ρ/(1+ρ)`` gives ``ρ(L-1)/(1+ρ) > 0`` for ``L > 1``: ``q̃`` need
       not be safe for every ``G_t`` and the step ``-Σ_t λ_t^T G_t^T q̃ >= 0`` of line 1254 fails).
    4. ``r_t >= 0`` gives ``r_t^T q̃ >= α r_t^T q*``.
    5. Lines 1252-1258 unchanged: by the primal regret ``R^P_T(q̃) = Σ_t ℓ_t^T (q_t - q̃)`` with
       ``ℓ_t = G_t λ_t - r_t``, ``Σ r_t^T q_t >= Σ r_t^T q̃ - Σ λ_t^T G_t^T q̃ + Σ λ_t^T G_t^T q_t - R^P_T(q̃)``;
       step 3 and ``λ_t >= 0`` drop the second term; Lemma 13 gives
       ``Σ λ_t^T G_t^T q_t >= -λ_{1,T} E^q_δ - R^D_T(0)``; Theorem 4 gives ``λ_{1,T} <= ζ``.
    6. With adversarial rewards ``Σ_t r_t^T q* = T r̄^T q* = T·OPT``; with stochastic ones Lemma 3 costs
       ``α E^r_δ <= E^r_δ``. Hence ``Σ r_t^T q_t >= ρ/(L+ρ) T·OPT - [E^r_δ] - ζ E^q_δ - R^D_T(0) - R^P_T(q̃)``,
       i.e. ``R_T = T·OPT - Σ r_t^T q_t <= L/(L+ρ) T·OPT + [E^r_δ] + ζ E^q_δ + R^D_T(0) + R^P_T(q̃)``.

    Since ``L + ρ <= L(1 + ρ)``, ``ρ/(L+ρ) >= ρ/(L(1+ρ))``: line 433's ``Ω(ρ/(1+ρ) T·OPT)`` survives with a
    constant ``1/L``; the explicit ``T·OPT/(1+ρ)`` of lines 421/427 does not follow from the proof.
    """
    return rho / (L + rho)


def theorem7_corrected(
    T: int,
    delta: float,
    L: int,
    n_states: int,
    n_actions: int,
    m: int,
    rho: float,
    opt: float,
    stochastic_rewards: bool,
) -> tuple[Bound, Bound, Bound]:
    """Theorem 7 with the proof corrected (:func:`theorem7_corrected_ratio`): regret, violation, reward.

    ``R_T <= L·T·OPT/(L+ρ) + [E^r_δ] + ζ E^q_δ + R^D_T(0) + R^P_T(q̃)`` (exponent 1), ``V_T <= ζ/η + E^q_δ``
    (unchanged, lines 423/429; exponent 1/2) and ``Σ r_t^T q_t >= T·OPT - (that regret bound)`` (exponent 1,
    ratio to ``T·OPT`` tending to ``ρ/(L+ρ)``). Same constants and readings as :func:`theorem7`.
    """
    stated_regret, violation, _ = theorem7(T, delta, L, n_states, n_actions, m, rho, opt, stochastic_rewards)
    regret = stated_regret.value - T * opt / (1 + rho) + L * T * opt / (L + rho)
    source = "Theorem 7 (lines 421-433) with line 1248 corrected to [G_t^T q*]_i <= L"
    return (
        Bound(regret, True, 1.0, source),
        violation,
        Bound(T * opt - regret, True, 1.0, source),
    )


def dual_regret_tuned(T: int, m: int, L: int, rho: float | None, length: int | None = None) -> Bound:
    """``R^D_t(0) <= η m L² t / 2`` (App. C.1.1, lines 711-715, any ``η``) at the ``tuned`` preset's ``η``
    for horizon ``T`` (:func:`~regretlab.cmdp.dual.tuned_dual_learning_rate`); ``length = t`` (default
    ``T``)."""
    return dual_regret(T, tuned_dual_learning_rate(L, m, T, rho), m, L, length=length)


def dual_regret_paper(
    T: int, delta: float, m: int, L: int, n_states: int, n_actions: int, length: int | None = None
) -> Bound:
    """``R^D_t(0) <= η m L² t / 2`` at App. C's ``η = 1/(100 m|X||A| √(T ln(T²/δ)))`` for horizon ``T``
    (lines 977, 1266); ``length = t`` (default ``T``)."""
    return dual_regret(T, _paper_eta(T, delta, m, n_states, n_actions), m, L, length=length)


def theorem5_rate(T: int, m: int, L: int, rho: float) -> Bound:
    """``ζ √T``: the Õ(ζ√T) of Theorem 5 for both ``R_T`` and ``V_T`` (lines 377-379), unit constant."""
    return Bound(theorem4_zeta(m, L, rho).value * math.sqrt(T), False, 0.5, "Theorem 5, paper lines 377-379")


def theorem6_rate(T: int) -> Bound:
    """``T^{3/4}``: the Õ(T^{3/4}) of Theorem 6 for ``R_T`` and ``V_T`` (lines 405-409), unit constant."""
    return Bound(T**0.75, False, 0.75, "Theorem 6, paper lines 407-409")
