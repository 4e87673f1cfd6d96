"""The registry of every bound a figure can draw, by the name regimes use in ``config.yaml``, and of the
trivial bound of every metric.

Each bound's value is computed by one function that lives next to its theorem (``bandits/bounds.py``,
``cmdp/bounds.py``); this module only says, for each, which metric it bounds and in which direction, how a
figure labels it, whether it carries the paper's constants (``explicit``) or is an Õ(·) rate with unit
constant, and the theory's log–log exponent in each swept variable.

A bound is evaluated on a *point dict*: ``T`` the run's horizon, ``t`` the checkpoint (``t = T`` except in
trajectory regimes, ``x: t``), the instance's numbers, one run's metrics at ``t`` and, under ``params``, the
constants that run's learner used (η, c …). The aggregation evaluates it once per seed and averages: the
theorems bound an expectation, and the expectation of a data-dependent bound (through L*, ℓ̄, C …) is the
mean of its per-run values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from regretlab.bandits import bounds as bandit_bounds
from regretlab.cmdp import bounds as cmdp_bounds
from regretlab.cmdp.instance import condition2_holds


@dataclass(frozen=True)
class BoundSpec:
    """A theorem's bound on one metric.

    Attributes:
        evaluate: maps the point's numbers (``T``, ``L_star``, the instance's numbers …) to the bound's value.
        metric: the per-run metric it bounds (a column of the run tables, e.g. ``pseudo_regret``).
        explicit: True when ``evaluate`` uses the paper's constants, False for a unit-constant rate.
        label: the formula as figures print it (they add whether the constant is the paper's or 1).
        exponents: the theory's log–log slope of the bound in each swept variable (``"T"``, ``"L_star"``).
        source: where the paper states it.
        hypotheses: the theorem's conditions on the point's numbers (e.g. Condition 2 at this T), if any;
            figures grey out the points where they fail.
        direction: ``"upper"`` (the metric is at most the bound), ``"lower"`` (at least the bound, e.g.
            Theorem 7's reward ratio) or ``"reference"`` (a line drawn for comparison, which gets no verdict).
        constants: whose constants an explicit bound has: ``"paper's constants"`` (the proof's), or e.g.
            ``"constants derived here"`` for a bound regretlab proves where the source could not be read.
        applies: the instances it speaks about, a predicate on the instance's numbers (e.g. Theorem 5's lower
            bound: environment 2 only); on the others it is neither drawn, nor judged, nor fitted. None: all.
        params: the learner parameters ``evaluate`` and ``hypotheses`` read (``point["params"][name]``, or
            for the η, η̄, δ that bandit run tables copy into columns, the column of that name). An algorithm
            whose registry entry does not list them all in its ``params`` cannot take the bound: the config
            check says so before any job (a test checks each declaration against what the functions read).
        metrics: the run metrics they read besides ``metric`` (e.g. ``L_star``); every one is a metric of
            the kind whose regimes draw the bound (:data:`regretlab.kinds.KINDS`).
        at_checkpoint: the bound is on a running sum over ``[1..t]`` and grows with ``t`` (Lemma 2's
            ``E^q_δ``, OGD's ``η m L² t / 2``): in a trajectory regime (``x: t``) it is evaluated at each
            checkpoint ``t`` (``evaluate`` reads ``t`` for the length and ``T`` for the horizon's constants).
            False: at the run's horizon ``T`` (e.g. ``ζ``, whose metric is a running maximum). In a sweep in
            ``T`` the two are the same point.
        trivial: the metric's trivial bound on this bound's side, where :data:`TRIVIAL_BOUNDS`' does not
            apply: the floor a lower bound on a regret must exceed to say anything (Theorem 5's proof bound:
            every learner has at least Σ_t min_i ℓ_{t,i} − L*). None: ``TRIVIAL_BOUNDS[metric]``.
        reference: the minimax learner of the bound's Table 1 column (paper 001, lines 24–30) that the
            theorem improves on — ``exp3g`` for §3's small-loss bounds, ``exp3g_weak`` for §4's — whose
            measured value at the same point the aggregate stores beside the bound (``null_reference``); ""
            for a bound that claims no improvement over a baseline.
    """

    evaluate: Callable[[dict], float]
    metric: str
    explicit: bool
    label: str
    exponents: dict[str, float]
    source: str
    hypotheses: Callable[[dict], bool] | None = None
    direction: str = "upper"
    applies: Callable[[dict], bool] | None = None
    constants: str = "paper's constants"
    params: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    at_checkpoint: bool = False
    trivial: Callable[[dict], float] | None = None
    reference: str = ""


def _cmdp_args(n: dict) -> tuple:
    """``(T, δ, L, |X|, |A|)``, the first arguments of every bound of :mod:`regretlab.cmdp.bounds`."""
    return int(n["T"]), n["delta"], n["L"], n["n_states"], n["n_actions"]


def _condition2(n: dict) -> bool:
    """Condition 2 of paper 000 at the point's T and ρ: ρ ≥ T^{-1/8} L √(20m)."""
    return bool(condition2_holds(n["rho"], int(n["T"]), n["L"], n["m"]))


def _theorem5(n: dict):
    return cmdp_bounds.theorem5(*_cmdp_args(n), n["m"], n["rho"], n["stochastic_rewards"])


def _theorem6(n: dict):
    return cmdp_bounds.theorem6(*_cmdp_args(n), n["m"], n["stochastic_rewards"])


def _theorem7(n: dict):
    return cmdp_bounds.theorem7(*_cmdp_args(n), n["m"], n["rho"], n["opt"], n["stochastic_rewards"])


def _theorem7_corrected(n: dict):
    return cmdp_bounds.theorem7_corrected(*_cmdp_args(n), n["m"], n["rho"], n["opt"], n["stochastic_rewards"])


def _zeta_sqrt_T(n: dict) -> float:
    return cmdp_bounds.theorem5_rate(int(n["T"]), n["m"], n["L"], n["rho"]).value


def _exp3g_weak_bound(metric: str, against: str) -> BoundSpec:
    """Exp3.G-weak's explicit bound (derived here) on ``metric``: the regret to the best arm overall, or to
    the best arm of S or of S̄ (the per-arm metric the Section 4 algorithm it is the baseline of is drawn on);
    it bounds the regret to every arm, so all three."""
    return BoundSpec(
        evaluate=bandit_bounds.exp3g_weak_bound,
        metric=metric,
        explicit=True,
        label="γT + ln K/η + ηT(d/γ + s/(1−γ))/2" + against,
        constants="constants derived here (docs/choices-paper001.md), not Alon et al.'s statement",
        exponents={"T": 2.0 / 3.0, "L_star": 0.0, "L_best_S": 0.0, "L_D": 0.0},
        params=("gamma", "eta"),
        source=(
            "Exp3.G of Alon et al. 2015 with γ = min{(d ln K/T)^{1/3}, 1/2}, η = γ²/d (paper 001 §4, "
            "line 204: minimax Θ̃(d^{1/3}T^{2/3})); the bound is derived in "
            "regretlab.bandits.bounds.exp3g_weak_bound, since Alon et al.'s statement could not be read here"
        ),
    )


BOUNDS: dict[str, BoundSpec] = {
    "exp3g_rate": BoundSpec(
        evaluate=bandit_bounds.exp3g_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√(αT ln K)",
        exponents={"T": 0.5, "L_star": 0.0},
        source="paper 001 §3.1 (Alon et al. 2015): Reg = Õ(1/η + ηαT) = Õ(√(αT)) with η = 1/√(αT)",
    ),
    "theorem2_rate": BoundSpec(
        evaluate=bandit_bounds.theorem2_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√(αT) + K²",
        exponents={"T": 0.5, "L_star": 0.0},
        source=(
            "paper 001 §3.1, Theorem 2: Reg ≤ Õ(1/η + ηαT + K²) = Õ(√(αT) + K²) with η = 1/√(αT); the "
            "proof's explicit bound is theorem2_bound"
        ),
    ),
    "theorem2_bound": BoundSpec(
        evaluate=bandit_bounds.theorem2_bound,
        metric="pseudo_regret",
        explicit=True,
        label="ln K/η + cK ln T + 32ηαT ln(4KT/α) + 16ηT + K",
        exponents={"T": 0.5, "L_star": 0.0},
        source=(
            "paper 001 App. A, proof of Theorem 2 (line 414), at the run's c (64K) and η (1/√(αT)); the 1/2 "
            "is asymptotic: cK ln T = 64K² ln T dominates until √(αT) ≫ K² ln T"
        ),
        params=("eta", "c"),
    ),
    "theorem3_bound": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.theorem3_bound,
        metric="pseudo_regret",
        explicit=True,
        label="((s ln T + ln K)/η + cK ln T + K + 16ηL*)/(1 − 16η)",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. B, proof of Theorem 3 (line 480), at the run's c (64K), η (min{√((s+1)/L*), "
            "1/(64K)}) and L*; the 1/2 is asymptotic: the cap 1/(64K) binds until L* > (s+1)(64K)²"
        ),
        params=("eta", "c"),
        metrics=("L_star",),
    ),
    "theorem3_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.theorem3_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(s ln T + ln K)/η + ηL* + K² ln T, η = min{√((s+1)/L*), 1/(64K)}",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 §3.2, Theorem 3: Reg = O((s ln T + ln K)/η + ηL* + K² ln T) for η ≤ 1/(64K); "
            "η = min{√((s+1)/L*), 1/(64K)} gives Õ(√((s+1)L*) + K²). The 1/2 is asymptotic: the cap binds "
            "until L* > (s+1)(64K)². The proof's explicit bound is theorem3_bound."
        ),
        metrics=("L_star",),
    ),
    "theorem14_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.theorem14_rate,
        metric="pseudo_regret",
        explicit=False,
        label="min{√(αT), √(κL*)} + K²",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. D, Theorem 14: Algorithm 5 with η_init = 1/(4κ), ε = 1/(2κ) has "
            "Reg = Õ(min{√(αT), √(κL*)} + K²); the 1/2 in L* holds while κL* < αT."
        ),
        metrics=("L_star",),
    ),
    "algorithm1_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.algorithm1_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(κ ln T + ln K)/η + ηL* + β² ln T at the run's η = min{η_max, √((κ+1)/L*)}",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 §3.3, Theorem 4 (line 188, proof App. C.2): c = 64β, η ≤ η_max = min{1/(64β), "
            "1/(1000 ln T ln²(KT))}: Reg ≤ Õ((κ ln T + ln K)/η + ηL* + β² ln T); η = min{η_max, "
            "√((κ+1)/L*)} gives Õ(√((κ+1)L*) + β²). The 1/2 is asymptotic: η_max binds until "
            "L* ≈ (κ+1)/η_max²."
        ),
        params=("eta",),
        metrics=("L_star",),
    ),
    "algorithm4_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.algorithm4_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√((κ+1)L*) + β²",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. C.3, Theorem 13: Algorithm 4 with c = 64β, "
            "η_1 = 1/(2000 ln T ln²(KT) + 80κ ln T) has Reg = Õ(√((κ+1)L*) + β²)"
        ),
        metrics=("L_star",),
    ),
    "algorithm4_proof_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.algorithm4_proof_rate,
        metric="pseudo_regret",
        explicit=False,
        label="max{(κ+1)/η₁, 2√((κ+1)L*)} + β²",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. C.3, proof of Theorem 13 (Eq. (16), lines 755–765): Õ((κ+1)/η_λ* + β²λ*) with "
            "the constants of Lemma 12's O(·) hidden, so drawn with unit constant; flat in L* while "
            "(κ+1)/η₁ dominates"
        ),
        params=("eta_start",),
        metrics=("L_star",),
    ),
    "theorem5_regret": BoundSpec(
        evaluate=lambda n: _theorem5(n)[0].value,
        metric="regret",
        explicit=True,
        label="E^r_δ + ζE^G_δ + ζE^q_δ + R^D_T(0) + R^P_T(q*)",
        exponents={"T": 0.5},
        source="paper 000 Theorem 5 (lines 365/371), constants of App. C; see regretlab.cmdp.bounds",
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "theorem5_violation": BoundSpec(
        evaluate=lambda n: _theorem5(n)[1].value,
        metric="violation",
        explicit=True,
        label="ζ/η + E^q_δ",
        exponents={"T": 0.5},
        source="paper 000 Theorem 5 (lines 367/373)",
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "theorem6_regret": BoundSpec(
        evaluate=lambda n: _theorem6(n)[0].value,
        metric="regret",
        explicit=True,
        label="E^r_δ + mT^{1/4}(E^G_δ + E^q_δ) + R^D_T(0) + R^P_T(q*)",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 395/401)",
    ),
    "theorem6_violation": BoundSpec(
        evaluate=lambda n: _theorem6(n)[1].value,
        metric="violation",
        explicit=True,
        label="(2 + 2L)T^{1/4}/η + E^q_δ",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 397/403)",
    ),
    "theorem7_regret": BoundSpec(
        evaluate=lambda n: _theorem7(n)[0].value,
        metric="regret",
        explicit=True,
        label="T·OPT/(1+ρ) + E^r_δ + ζE^q_δ + R^D_T(0) + R^P_T(q̃)",
        exponents={"T": 1.0},
        source="paper 000 Theorem 7 (lines 421/427): the ρ/(1+ρ) share of T·OPT is all that is guaranteed",
        hypotheses=_condition2,
        metrics=("rho", "opt"),
    ),
    "theorem7_violation": BoundSpec(
        evaluate=lambda n: _theorem7(n)[1].value,
        metric="violation",
        explicit=True,
        label="ζ/η + E^q_δ",
        exponents={"T": 0.5},
        source="paper 000 Theorem 7 (lines 423/429)",
        hypotheses=_condition2,
        metrics=("rho", "opt"),
    ),
    "theorem7_reward_ratio": BoundSpec(
        evaluate=lambda n: n["rho"] / (1 + n["rho"]),
        metric="reward_ratio",
        explicit=False,
        label="ρ/(1+ρ) — Theorem 7 as stated, a lower bound on Σ r_t^T q_t / (T·OPT)",
        exponents={"T": 0.0},
        source="paper 000 Theorem 7 (line 433): Σ r_t^T q_t ≥ Ω(ρ/(1+ρ) T·OPT); drawn with unit constant",
        hypotheses=_condition2,
        direction="lower",
        metrics=("rho",),
    ),
    "theorem7_reward_ratio_corrected": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem7_corrected_ratio(n["L"], n["rho"]),
        metric="reward_ratio",
        explicit=False,
        label="ρ/(L+ρ) — Theorem 7's proof with [G_tᵀq*]_i ≤ L (line 1248 says ≤ 1)",
        exponents={"T": 0.0},
        source=(
            "paper 000 Theorem 7, proof lines 1244-1262 corrected: the safe mixture is "
            "ρ/(L+ρ) q* + L/(L+ρ) q°; see regretlab.cmdp.bounds.theorem7_corrected_ratio"
        ),
        hypotheses=_condition2,
        direction="lower",
        metrics=("rho",),
    ),
    "theorem7_regret_corrected": BoundSpec(
        evaluate=lambda n: _theorem7_corrected(n)[0].value,
        metric="regret",
        explicit=True,
        label="L·T·OPT/(L+ρ) + E^r_δ + ζE^q_δ + R^D_T(0) + R^P_T(q̃)",
        exponents={"T": 1.0},
        source="paper 000 Theorem 7 (lines 421/427) with line 1248 corrected to [G_tᵀq*]_i ≤ L",
        hypotheses=_condition2,
        metrics=("rho", "opt"),
    ),
    "theorem5_regret_rate": BoundSpec(
        evaluate=_zeta_sqrt_T,
        metric="regret",
        explicit=False,
        label="ζ√T",
        exponents={"T": 0.5},
        source="paper 000 Theorem 5 (lines 377-379): R_T = Õ(ζ√T); drawn with unit constant",
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "theorem5_violation_rate": BoundSpec(
        evaluate=_zeta_sqrt_T,
        metric="violation",
        explicit=False,
        label="ζ√T",
        exponents={"T": 0.5},
        source="paper 000 Theorems 5 and 7 (lines 379, 435): V_T = Õ(ζ√T); drawn with unit constant",
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "theorem6_regret_rate": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem6_rate(int(n["T"])).value,
        metric="regret",
        explicit=False,
        label="T^{3/4}",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 407-409): R_T = Õ(T^{3/4}); drawn with unit constant",
    ),
    "theorem6_violation_rate": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem6_rate(int(n["T"])).value,
        metric="violation",
        explicit=False,
        label="T^{3/4}",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 407-409): V_T = Õ(T^{3/4}); drawn with unit constant",
    ),
    "dual_regret_paper": BoundSpec(
        evaluate=lambda n: (
            cmdp_bounds.dual_regret_paper(
                int(n["T"]), n["delta"], n["m"], n["L"], n["n_states"], n["n_actions"], int(n["t"])
            ).value
        ),
        metric="dual_regret",
        explicit=True,
        label="R^D_t(0) ≤ ηmL²t/2, η of App. C",
        exponents={"T": 0.5, "t": 1.0},
        source="paper 000 App. C.1.1 (lines 711-715) with λ_1 = 0 and η of line 977 (for horizon T)",
        at_checkpoint=True,
    ),
    "dual_regret_tuned": BoundSpec(
        evaluate=lambda n: (
            cmdp_bounds.dual_regret_tuned(int(n["T"]), n["m"], n["L"], n["rho"], int(n["t"])).value
        ),
        metric="dual_regret",
        explicit=True,
        label="R^D_t(0) ≤ ηmL²t/2, tuned η = D/(L√(mT))",
        exponents={"T": 0.5, "t": 1.0},
        at_checkpoint=True,
        source=(
            "paper 000 App. C.1.1 (lines 711-715; OGD's bound holds for any η) at the tuned preset's η "
            "(regretlab.cmdp.dual.tuned_dual_learning_rate). With adversarial constraints the point's ρ "
            "(adversarial) is at most the instance's ρ the learner used, so this η is at least the run's: "
            "still a bound"
        ),
        metrics=("rho",),
        constants="the paper's inequality (App. C.1.1, any η) at the tuned preset's η, not the paper's η",
    ),
    "theorem3_interval_regret": BoundSpec(
        evaluate=lambda n: 1.0,
        metric="interval_regret_ratio_max",
        explicit=True,
        label=(
            "max over dyadic [t1..t2] of R^P_{t1,t2} / "
            "(ℓ̄_{t1,t2}E^q_δ + ℓ̄_{t2}LC√T + ℓ̄_{t1,t2}(|X||A|/2)(t2−t1+1)/(C√T)) ≤ 1"
        ),
        exponents={"T": 0.0, "t": 0.0},
        source=(
            "paper 000 Theorem 3 (line 305) on every dyadic sub-interval (Definitions 4-5), any C; the ratio "
            "is computed per interval by regretlab.cmdp.simulate"
        ),
        constants="paper's constants (Theorem 3 holds for any C), at each run's C and ℓ̄",
    ),
    "lemma5_all_epochs_covered": BoundSpec(
        evaluate=lambda n: 1.0 - n["delta"],
        metric="all_epochs_covered",
        explicit=True,
        label="P(E^Δ) ≥ 1 − δ: fraction of seeds whose every epoch's set contains P (Clopper–Pearson 95%)",
        exponents={"T": 0.0, "t": 0.0},
        source=(
            "paper 000 Lemma 5 (App. A, lines 443-447, 548): E^Δ(δ), every epoch's confidence set contains "
            "P, holds with probability ≥ 1 − δ; tested on the fraction of seeds where it held"
        ),
        direction="lower",
    ),
    "lambda_star": BoundSpec(
        evaluate=lambda n: n["lambda_star_l1"],
        metric="lambda_l1",
        explicit=True,
        label="‖λ*‖₁, the Lagrange multiplier of the offline LP (5) at this horizon",
        exponents={"T": 0.0, "t": 0.0},
        source=(
            "LP dual of eq. (5) with the r̄, Ḡ, ρ of the run's horizon (regretlab.cmdp.offline_lp."
            "lagrange_multiplier); a reference, not a bound"
        ),
        direction="reference",
        metrics=("lambda_star_l1",),
    ),
    "dual_box": BoundSpec(
        evaluate=lambda n: n["m"] * int(n["T"]) ** 0.25,
        metric="lambda_l1",
        explicit=True,
        label="mT^{1/4}: ‖λ‖₁ at the corner of the dual box [0, T^{1/4}]^m",
        exponents={"T": 0.25, "t": 0.0},
        source="paper 000 Algorithm 2 line 3 (𝒟 = [0, T^{1/4}]^m); a reference: λ* above it is clipped",
        direction="reference",
    ),
    "theorem4_dual_never_clipped": BoundSpec(
        evaluate=lambda n: 0.0,
        metric="dual_clipped",
        explicit=True,
        label="share of episodes whose dual step is clipped at T^{1/4} = 0 (never touches the box)",
        exponents={"T": 0.0, "t": 0.0},
        source=(
            "paper 000 §6 (line 315) and Theorem 4: under Condition 2 ‖λ_t‖₁ ≤ ζ ≤ T^{1/4}, so the "
            "Lagrangian vector never touches the boundary of 𝒟; where Condition 2 fails (Theorem 6) it may"
        ),
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "theorem4_zeta": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem4_zeta(n["m"], n["L"], n["rho"]).value,
        metric="lambda_l1_max",
        explicit=True,
        label="ζ = 20mL²/ρ²",
        exponents={"T": 0.0, "t": 0.0},
        source="paper 000 Theorem 4 (line 319): max_t ||λ_t||_1 ≤ ζ under Condition 2",
        hypotheses=_condition2,
        metrics=("rho",),
    ),
    "lemma2_q_error": BoundSpec(
        evaluate=lambda n: cmdp_bounds.lemma2_Eq(*_cmdp_args(n), length=int(n["t"])).value,
        metric="q_error_l1",
        explicit=True,
        label="E^q_δ(t) = 4L|X|√(2t ln(1/δ)) + 6L|X|√(2t|A| ln(T|X||A|/δ))",
        exponents={"T": 0.5, "t": 0.5},
        source=(
            "paper 000 Lemma 2 (App. A, line 453): Σ_{τ≤t} ||q_τ − q̂_τ||_1 ≤ E^q_δ w.p. ≥ 1 − 2δ, "
            "the √T of the sum at t (regretlab.cmdp.bounds.lemma2_Eq)"
        ),
        at_checkpoint=True,
    ),
    "lemma14_violation": BoundSpec(
        evaluate=lambda n: (
            cmdp_bounds.lemma14_violation(n["lambda_l1_max"], n["dual_eta"], n["q_error_l1"]).value
        ),
        metric="violation",
        explicit=True,
        label="max_τ≤t+1 ‖λ_τ‖₁/η + Σ‖q_τ − q̂_τ‖₁ (Lemma 14, while the dual is unclipped)",
        exponents={"T": 0.5, "t": 0.5},
        source=(
            "paper 000 Lemma 14 (line 1017: λ_{t+1,i} ≥ ηV̂_{t,i} while the box does not clip) with Lemma "
            "15's Hölder step (line 1037), at the run's η and measured Σ‖q − q̂‖₁: true for any q̂_t"
        ),
        hypotheses=lambda n: n["dual_clipped"] == 0,
        metrics=("lambda_l1_max", "dual_eta", "q_error_l1", "dual_clipped"),
        at_checkpoint=True,
        constants="the run's own η and measured quantities (a construction check)",
    ),
    "lemma16_violation": BoundSpec(
        evaluate=lambda n: (
            cmdp_bounds.lemma16_violation(int(n["T"]), n["L"], n["dual_eta"]).value + n["q_error_l1"]
        ),
        metric="violation",
        explicit=True,
        label="(2 + 2L) T^{1/4}/η + Σ‖q_τ − q̂_τ‖₁ (Lemma 16 with Lemma 15's step)",
        exponents={"T": 0.75, "t": 0.0},
        source=(
            "paper 000 Lemma 16 (line 1120): V̂_{T,i} ≤ (2 + 2L)T^{1/4}/η where Condition 2 fails (its proof "
            "needs only ρ ≥ 0), plus Lemma 15's measured Σ‖q − q̂‖₁ (line 1037), at the run's η"
        ),
        metrics=("dual_eta", "q_error_l1"),
        at_checkpoint=True,
    ),
    "theorem3_primal_regret": BoundSpec(
        evaluate=lambda n: (
            cmdp_bounds.theorem3(*_cmdp_args(n), n["C"], n["ell_bar"], n["ell_bar"], int(n["T"])).value
        ),
        metric="primal_regret",
        explicit=True,
        label="ℓ̄ E^q_δ + ℓ̄ L C√T + ℓ̄ (|X||A|/2) T/(C√T)",
        exponents={"T": 0.5},
        source="paper 000 Theorem 3 (line 305) on [1..T], with the run's C and ℓ̄_T",
        metrics=("C", "ell_bar"),
        constants="paper's constants (Theorem 3 holds for any C), at each run's C and ℓ̄_T",
    ),
    "exp3g_weak_bound": _exp3g_weak_bound("pseudo_regret", ""),
    "exp3g_weak_bound_best_S": _exp3g_weak_bound("regret_best_S", " (regret to the best arm of S)"),
    "exp3g_weak_bound_best_Sbar": _exp3g_weak_bound("regret_best_Sbar", " (regret to the best arm of S̄)"),
    "theorem7_best_S": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem7_best_s,
        metric="regret_best_S",
        explicit=True,
        label="s ln T/η + 2ηL_{i*_S} + 2s",
        exponents={"L_star": 0.5, "L_best_S": 0.5},
        source=(
            "paper 001 Theorem 7 (lines 248–250), i ∈ S, at the run's η = min{√(s/L_{i*_S}), 1/5}: "
            "Õ(√(sL_i) + s) (line 252)"
        ),
        hypotheses=bandit_bounds.theorem7_hypotheses,
        params=("eta", "eta_bar"),
        metrics=("L_best_S",),
    ),
    "theorem7_best_Sbar": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem7_best_s_bar,
        metric="regret_best_Sbar",
        explicit=True,
        label="2s ln T/η + ln(2s̄)/η̄ + 2√η̄ (L_{i*_S} + L_i) + 2s",
        exponents={"L_best_S": 2.0 / 3.0},
        source=(
            "paper 001 Theorem 7 (line 250) with the proof's ln(2s̄)/η̄ (line 1055) for the statement's "
            "2 ln K/η̄, at the run's η, η̄ = min{L_{i*_S}^{-2/3}, 1/25}: Õ(L_{i*_S}^{2/3} + √(sL_{i*_S}) + s)"
        ),
        hypotheses=bandit_bounds.theorem7_hypotheses,
        params=("eta", "eta_bar"),
        metrics=("L_best_S", "L_best_Sbar"),
    ),
    "theorem8_best_S_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s,
        metric="regret_best_S",
        explicit=True,
        label="2s ln T/η + 2ηL_i + 2δdL_D + 2s",
        exponents={"L_D": 2.0 / 3.0},
        source="paper 001 Theorem 8 (line 264), i ∈ S, γ = 1/3: Õ(L_D^{1−γ}) (line 266)",
        hypotheses=bandit_bounds.theorem8_hypotheses,
        params=("eta", "eta_bar", "delta"),
        metrics=("L_best_S", "L_D"),
    ),
    "theorem8_best_S_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s,
        metric="regret_best_S",
        explicit=True,
        label="2s ln T/η + 2ηL_i + 2δdL_D + 2s",
        exponents={"L_D": 0.5},
        source="paper 001 Theorem 8 (line 264), i ∈ S, γ = 1/2: Õ(L_D^{1−γ}) (line 266)",
        hypotheses=bandit_bounds.theorem8_hypotheses,
        params=("eta", "eta_bar", "delta"),
        metrics=("L_best_S", "L_D"),
    ),
    "theorem8_best_Sbar_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s_bar,
        metric="regret_best_Sbar",
        explicit=True,
        label="s ln T/η + ln(2s̄)/η̄ + 2η̄L_i/δ + 2δdL_D + 2s",
        exponents={"L_D": 2.0 / 3.0},
        source="paper 001 Theorem 8 (line 264), i ∈ S̄, γ = 1/3: Õ(L_D^{(1+γ)/2}) (line 266)",
        hypotheses=bandit_bounds.theorem8_hypotheses,
        params=("eta", "eta_bar", "delta"),
        metrics=("L_best_Sbar", "L_D"),
    ),
    "theorem8_best_Sbar_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s_bar,
        metric="regret_best_Sbar",
        explicit=True,
        label="s ln T/η + ln(2s̄)/η̄ + 2η̄L_i/δ + 2δdL_D + 2s",
        exponents={"L_D": 0.75},
        source="paper 001 Theorem 8 (line 264), i ∈ S̄, γ = 1/2: Õ(L_D^{(1+γ)/2}) (line 266)",
        hypotheses=bandit_bounds.theorem8_hypotheses,
        params=("eta", "eta_bar", "delta"),
        metrics=("L_best_Sbar", "L_D"),
    ),
    "theorem17_best_S": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem17_best_s,
        metric="regret_best_S",
        explicit=False,
        label="√(sL_{i*_S}) + s²",
        exponents={"L_star": 0.5, "L_best_S": 0.5, "T": 0.5},
        source="paper 001 App. E.3, Theorem 17 (line 1123): Algorithm 6, i* ∈ S: Õ(√(sL_{i*_S}) + s²)",
        metrics=("L_best_S",),
    ),
    "theorem17_best_Sbar": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem17_best_s_bar,
        metric="regret_best_Sbar",
        explicit=False,
        label="L_{i*_S}^{2/3} + √(sL_{i*_S}) + s²",
        exponents={"L_best_S": 2.0 / 3.0, "T": 2.0 / 3.0},
        source="paper 001 App. E.3, Theorem 17 (line 1123): Algorithm 6, i* ∈ S̄",
        metrics=("L_best_S",),
    ),
    "theorem18_best_S_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(1.0 / 3.0, best_in_s=True),
        metric="regret_best_S",
        explicit=False,
        label="max{δ₁^{1−1/γ}, (dL_D)^{1−γ}}, γ = 1/3 (first term: no reset yet)",
        exponents={"L_D": 2.0 / 3.0, "T": 2.0 / 3.0},
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/3, i* ∈ S: Õ(L_D^{1−γ}); the "
            "epoch-1 term δ₁^{1−1/γ} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        params=("delta_start", "d"),
        metrics=("L_D",),
    ),
    "theorem18_best_Sbar_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(1.0 / 3.0, best_in_s=False),
        metric="regret_best_Sbar",
        explicit=False,
        label="max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}}, γ = 1/3 (first term: no reset yet)",
        exponents={"L_D": 2.0 / 3.0, "T": 2.0 / 3.0},
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/3, i* ∈ S̄: Õ(L_D^{(1+γ)/2}); the "
            "epoch-1 term δ₁^{−(1+γ)/(2γ)} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        params=("delta_start", "d"),
        metrics=("L_D",),
    ),
    "theorem18_best_S_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(0.5, best_in_s=True),
        metric="regret_best_S",
        explicit=False,
        label="max{δ₁^{1−1/γ}, (dL_D)^{1−γ}}, γ = 1/2 (first term: no reset yet)",
        exponents={"L_D": 0.5, "T": 0.5},
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/2, i* ∈ S: Õ(L_D^{1−γ}); the "
            "epoch-1 term δ₁^{1−1/γ} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        params=("delta_start", "d"),
        metrics=("L_D",),
    ),
    "theorem18_best_Sbar_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(0.5, best_in_s=False),
        metric="regret_best_Sbar",
        explicit=False,
        label="max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}}, γ = 1/2 (first term: no reset yet)",
        exponents={"L_D": 0.75, "T": 0.75},
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/2, i* ∈ S̄: Õ(L_D^{(1+γ)/2}); the "
            "epoch-1 term δ₁^{−(1+γ)/(2γ)} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        params=("delta_start", "d"),
        metrics=("L_D",),
    ),
    "theorem5_lower": BoundSpec(
        evaluate=bandit_bounds.theorem5_lower,
        metric="pseudo_regret",
        explicit=False,
        label="|I| = T^{1−ε̂}: the construction's interval, ≈ T/(2⌈N⌉+1) (N: regret in environment 1)",
        exponents={"T": 1.0},
        source=(
            "paper 001 Theorem 5 (line 208), proof App. E.1: Ω(T^{1−ε}) for every ε ∈ (0, 1/3) if the "
            "algorithm has Õ(1) regret at L* = 0; the exponent 1 is the limit ε → 0. Drawn as the length "
            "|I| = T^{1−ε̂} of the interval the construction used, greyed where ε̂ < b < 1 − 2ε̂ fails (the "
            "premise)"
        ),
        hypotheses=bandit_bounds.theorem5_premise,
        direction="lower",
        applies=bandit_bounds.theorem5_environment(2),
        metrics=("theorem5_epsilon",),
    ),
    "theorem5_proof_lower": BoundSpec(
        evaluate=bandit_bounds.theorem5_proof_lower,
        metric="pseudo_regret",
        explicit=True,
        label="|I|/2 − T^b ℓ̂_I − min{|I|, T^{1−b}}: App. E.1's argument with its constants",
        exponents={"T": 1.0},
        source=(
            "paper 001 Theorem 5, proof App. E.1 (lines 955–957) with its own constants: no bad pull in I "
            "with probability ≥ 1/2 (Markov, expected bad pulls ≤ ℓ̂_I < 1/2), pulls of v in I ≤ T^b ℓ̂_I, "
            "L* = min{|I|, T^{1−b}}; ℓ̂_I from the construction's calibration runs on environment 1 "
            "(regretlab.bandits.bounds.theorem5_proof_lower)"
        ),
        hypotheses=bandit_bounds.theorem5_proof_hypotheses,
        direction="lower",
        applies=bandit_bounds.theorem5_environment(2),
        metrics=("theorem5_epsilon", "theorem5_interval_loss"),
        trivial=bandit_bounds.theorem5_floor,
    ),
    "theorem5_premise_rate": BoundSpec(
        evaluate=bandit_bounds.theorem5_premise_rate,
        metric="pseudo_regret",
        explicit=False,
        label="ln T: Õ(1) regret at L* = 0, Theorem 5's premise",
        exponents={"T": 0.0},
        source=(
            "paper 001 Theorem 5 (line 208): the algorithm 'guarantees Õ(1) regret when L* = 0'; the proof "
            "(App. E.1, line 955) uses it on environment 1 only. Õ(1) hides polylog T: drawn as ln T"
        ),
        applies=bandit_bounds.theorem5_environment(1),
    ),
}


def _checkpoint(n: dict) -> float:
    return float(n["t"])


def _lagrangian_range(n: dict) -> float:
    """2L ℓ̄ t: ℓ_τ^T (q_τ − q) ≤ 2L ℓ̄ per episode, ‖ℓ_τ‖_∞ ≤ ℓ̄ and q_τ, q of mass L (one per layer)."""
    return 2 * n["L"] * n["ell_bar"] * n["t"]


TRIVIAL_BOUNDS: dict[str, Callable[[dict], float]] = {
    # Paper 001 (losses in [0, 1]): Σ_{τ≤t} (⟨p_τ, ℓ_τ⟩ − ℓ_{τ,i}) ≤ t against any arm i.
    "pseudo_regret": _checkpoint,
    "realized_regret": _checkpoint,
    "regret_best_S": _checkpoint,
    "regret_best_Sbar": _checkpoint,
    # Paper 000 (r_t ∈ [0,1], G_t ∈ [−1,1], occupancies of mass L, line 49–51): r_τ^T q_τ ≥ 0, so
    # R_t = t·OPT − Σ r_τ^T q_τ ≤ t·OPT (≤ L t); V_t = max_i Σ [G_τ^T q_τ]_i ≤ L t (each entry of G_τ^T q_τ
    # is ≤ L); Σ ||q_τ − q̂_τ||_1 ≤ 2L t (both have mass L on triples).
    "regret": lambda n: n["opt"] * n["t"],
    "violation": lambda n: n["L"] * n["t"],
    "q_error_l1": lambda n: 2 * n["L"] * n["t"],
    "primal_regret": _lagrangian_range,
    "interval_regret_max": _lagrangian_range,
    # The dual lives in [0, T^{1/4}]^m (App. C), so ||λ_t||_1 ≤ m T^{1/4} and, with |[G_τ^T q̂_τ]_i| ≤ L,
    # |R^D_t(0)| = |Σ_{τ≤t} λ_τ^T G_τ^T q̂_τ| ≤ m T^{1/4} L t.
    "lambda_l1": lambda n: n["m"] * int(n["T"]) ** 0.25,
    "dual_regret": lambda n: n["m"] * int(n["T"]) ** 0.25 * n["L"] * n["t"],
    # A lower bound on Σ r_τ^T q_τ / (t·OPT) ≥ 0, or on the fraction of epochs whose confidence set holds P,
    # says something only above 0.
    "reward_ratio": lambda n: 0.0,
    "coverage": lambda n: 0.0,
    "all_epochs_covered": lambda n: 0.0,
    # A share of episodes is at most 1.
    "dual_clipped": lambda n: 1.0,
}
"""The trivial bound of each metric at a point (see the point dict above), at the checkpoint ``t``: what
the metric cannot exceed (or, for a lower-bounded metric, fall below) whatever the learner does. A bound
past it is vacuous. Metrics absent here (``lambda_l1_max``, ratios of a bound) have none."""


def _dual_box_and_steps(n: dict) -> float:
    """``min{m T^{1/4}, η m L t}``: ``λ_1 = 0`` and each OGD step moves ``‖λ‖₁`` by at most ``η m L``
    (Lemma 11, paper 000 line 719), inside the box ``[0, T^{1/4}]^m`` (App. C, eq. (16)); ``t`` steps have
    been taken by the checkpoint ``t`` (``lambda_l1_max`` runs over ``λ_1 … λ_{t+1}``, ``lambda_l1`` is
    ``λ_t``)."""
    return min(n["m"] * int(n["T"]) ** 0.25, n["params"]["eta"] * n["m"] * n["L"] * n["t"])


def _dual_regret_identity(n: dict) -> float:
    """``η m L² t/2 − max{0, ‖λ_t‖₁/√m − η√m L}²/(2η)``: OGD on the box from ``λ_1 = 0`` satisfies, for every
    sequence, ``R^D_t(0) = −Σ_{τ≤t} λ_τᵀ g_τ ≤ (η/2) Σ_{τ≤t} ‖g_τ‖₂² − ‖λ_{t+1}‖₂²/(2η)`` (expand
    ``‖λ_{τ+1}‖² ≤ ‖λ_τ + η g_τ‖²``; the projection onto a box containing 0 does not increase it), with
    ``‖g_τ‖₂² = ‖G_τᵀq̂_τ‖₂² ≤ m L²`` (App. C.1.1, lines 705-709) and ``‖λ_{t+1}‖₂ ≥ ‖λ_t‖₁/√m − η√m L``. It
    is at most App. C.1.1's ``η m L² t/2`` at every ``t``: that bound is a deterministic property of the
    update, which a run checks only for bugs (in particular ``R^D_t(0) ≤ 0`` while ``q̂`` violates)."""
    eta, m = n["params"]["eta"], n["m"]
    drift = max(0.0, n["lambda_l1"] / math.sqrt(m) - eta * math.sqrt(m) * n["L"])
    return eta * m * n["L"] ** 2 * n["t"] / 2 - drift**2 / (2 * eta)


def _dual_clipped_share(n: dict) -> float:
    """``max{0, t − ⌊T^{1/4}/(ηL)⌋}/t``: from ``λ_1 = 0`` a coordinate is at most ``ηL(τ − 1)`` before the
    step of episode ``τ`` (Lemma 11, ``|[G_τᵀq̂_τ]_i| <= L``), so eq. (16) cannot clip it at ``T^{1/4}`` before
    ``ηLτ > T^{1/4}``: App. C's dual, whose ``ηLT < T^{1/4}`` until ``T ≈ 10^14``, never clips
    (:func:`~regretlab.cmdp.dual.paper_dual_box_horizon`)."""
    t = n["t"]
    return max(0.0, t - math.floor(int(n["T"]) ** 0.25 / (n["params"]["eta"] * n["L"]))) / t


@dataclass(frozen=True)
class Ceiling:
    """A ceiling the learner's own construction puts on a metric, on every run, whatever the environment.

    A bound at or above it cannot fail on a correct implementation: its verdict is ``implied``, not
    ``holds`` (:mod:`regretlab.analysis.verdicts`). Evaluated on the point dicts of the bounds (module
    docstring) at the checkpoint ``t``, with the run's learner parameters under ``params``.

    Attributes:
        evaluate: point dict → the ceiling on the metric at ``t``.
        algorithms: the learners whose construction gives it (every preset: the presets differ through the
            ``params`` the ceiling reads).
        label: the formula, as tables print it.
        source: where the construction comes from.
    """

    evaluate: Callable[[dict], float]
    algorithms: tuple[str, ...]
    label: str
    source: str


CEILINGS: dict[str, tuple[Ceiling, ...]] = {
    "lambda_l1_max": (
        Ceiling(
            _dual_box_and_steps,
            ("pdgd_ops",),
            "min{mT^{1/4}, ηmLt}",
            "paper 000 Lemma 11 (line 719) and the box of App. C: ‖λ_{τ+1}‖₁ − ‖λ_τ‖₁ ≤ ηmL, λ_1 = 0",
        ),
    ),
    "lambda_l1": (
        Ceiling(
            _dual_box_and_steps,
            ("pdgd_ops",),
            "min{mT^{1/4}, ηmLt}",
            "paper 000 Lemma 11 (line 719) and the box of App. C: ‖λ_{τ+1}‖₁ − ‖λ_τ‖₁ ≤ ηmL, λ_1 = 0",
        ),
    ),
    "dual_clipped": (
        Ceiling(
            _dual_clipped_share,
            ("pdgd_ops",),
            "max{0, t − ⌊T^{1/4}/(ηL)⌋}/t",
            "paper 000 Lemma 11 (line 719): a coordinate grows by at most ηL per episode from λ_1 = 0",
        ),
    ),
    "dual_regret": (
        Ceiling(
            _dual_regret_identity,
            ("pdgd_ops",),
            "ηmL²t/2 − ‖λ_{t+1}‖₂²/(2η)",
            "OGD's own inequality on [0, T^{1/4}]^m from λ_1 = 0 (paper 000 App. C.1.1, lines 701-715)",
        ),
    ),
}
"""Per metric, the ceilings (:class:`Ceiling`) some learners' construction puts on it. Metrics absent here, or
algorithms a metric's ceilings do not name, have none (the trivial bound still applies)."""


def trivial_bound(spec: BoundSpec, point: dict) -> float:
    """The trivial bound a bound is judged against at a point (:attr:`BoundSpec.trivial`, else the metric's
    :data:`TRIVIAL_BOUNDS`), NaN when there is none."""
    evaluate = spec.trivial or TRIVIAL_BOUNDS.get(spec.metric)
    return float(evaluate(point)) if evaluate is not None else float("nan")


def ceiling(metric: str, algorithm: str, point: dict) -> float:
    """The smallest ceiling of ``metric`` for ``algorithm`` at a point dict, NaN when there is none."""
    values = [c.evaluate(point) for c in CEILINGS.get(metric, ()) if algorithm in c.algorithms]
    return min(values) if values else float("nan")


def bounds_for(regime: dict, algorithm: str, constants: str) -> list[str]:
    """The bounds drawn against ``algorithm`` run with the ``constants`` preset in ``regime``.

    ``regime["bounds"][algorithm]`` is either one list (the same bounds for every preset) or a mapping
    preset → list, e.g. the paper's explicit bounds for ``paper`` and unit-constant rates for ``tuned``,
    whose constants the theorems do not cover; a preset the mapping does not name is not run
    (:func:`regretlab.config.presets_of`) and has none.
    """
    names = regime["bounds"][algorithm]
    return list(names.get(constants, [])) if isinstance(names, dict) else list(names)
