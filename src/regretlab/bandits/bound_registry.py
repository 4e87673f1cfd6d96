"""Paper 001's bounds, by the name regimes use in ``config.yaml``
(:class:`regretlab.specs.bound_spec.BoundSpec`), and the trivial bound of the bandit metrics. Each bound's
value is computed by one function next to its theorem (:mod:`regretlab.bandits.bounds`); an entry says which
metric it bounds and in which direction, how a figure labels it, whether it carries the paper's constants
(``explicit``) or is an Õ(·) rate with unit constant, and the theory's log–log exponent in each swept
variable.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from regretlab.bandits import bounds as bandit_bounds
from regretlab.specs.bound_spec import BoundSpec, all_of

#: Algorithm 2's theorems: their step-size conditions and T ≥ 2K (Algorithm 2 reports no T_at_least_2K).
_THEOREM7 = all_of(bandit_bounds.theorem7_hypotheses, bandit_bounds.horizon_at_least_2K)
_THEOREM8 = all_of(bandit_bounds.theorem8_hypotheses, bandit_bounds.horizon_at_least_2K)


def _theorem18(gamma: float, best_in_s: bool):
    """Theorem 18's hypotheses for its rate at ``gamma``: that γ, every epoch within Theorem 8's δ range,
    and for an i* ∈ S rate the case it is stated for (the i* ∈ S̄ rate, the larger, holds wherever i* sits)."""
    case = (bandit_bounds.best_arm_in_S,) if best_in_s else ()
    return all_of(*case, bandit_bounds.gamma_is(gamma), bandit_bounds.theorem18_epochs)


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
        log_powers={"T": 1, "L_star": 0},
        log_note=(
            "Alon et al. 2015 Lemma 5, quoted in the proof of Theorem 2 (line 416): ln(4KT/α) on ηαT, so at "
            "η = 1/√(αT) one ln T beyond the drawn √(ln K); no L*"
        ),
        source="paper 001 §3.1 (Alon et al. 2015): Reg = Õ(1/η + ηαT) = Õ(√(αT)) with η = 1/√(αT)",
    ),
    "theorem2_rate": BoundSpec(
        evaluate=bandit_bounds.theorem2_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√(αT) + K²",
        exponents={"T": 0.5, "L_star": 0.0},
        log_powers={"T": 1, "L_star": 0},
        log_note=(
            "proof of Theorem 2 (line 414): √(αT)·32 ln(4KT/α) + 64K² ln T, one ln T on each drawn term; no "
            "L*"
        ),
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
    "lemma9_step_ratio": BoundSpec(
        evaluate=lambda point: math.log(2.0),
        metric="lemma9_log_ratio",
        explicit=True,
        label="max |ln(p_{t+1,i}/p_{t,i})| ≤ ln 2",
        exponents={"T": 0.0, "L_star": 0.0},
        source=(
            "paper 001 Lemma 9 (line 280): ½p_t ≼ p_{t+1} ≼ 2p_t for the OMD steps of Theorems 2 and 3, "
            "whose condition Lemma 10 (line 308) gives at c = 64K (C₁ = 64K ≥ 9)"
        ),
        hypotheses=lambda point: point["params"]["c"] >= 64 * point["K"],
        params=("c",),
    ),
    "theorem3_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.theorem3_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(s ln T + ln K)/η + ηL* + K² ln T, η = min{√((s+1)/L*), 1/(64K)}",
        exponents={"T": 0.5, "L_star": 0.5},
        log_powers={"T": 0, "L_star": 0},
        log_note=(
            "Theorem 3 is O, not Õ (line 136); its proof (lines 480–482) has no log beyond the drawn s ln T "
            "and K² ln T"
        ),
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
        log_powers={"T": 1, "L_star": 0},
        log_note=(
            "proof of Theorem 14 (lines 777, 905, 939–941): up to log₂T meta-epochs of ln K·√(αT), then "
            "Theorem 2's ln(4KT/α); at a fixed T every ln T is a constant and no log of L* multiplies "
            "√(κL*)"
        ),
        source=(
            "paper 001 App. D, Theorem 14: Algorithm 5 with η_init = 1/(4κ), ε = 1/(2κ) has "
            "Reg = Õ(min{√(αT), √(κL*)} + K²); the 1/2 in L* holds while κL* < αT."
        ),
        hypotheses=bandit_bounds.theorem14_learner,
        params=("stage2_started", "stage2"),
        metrics=("L_star",),
    ),
    "algorithm1_rate": BoundSpec(
        reference="exp3g",
        evaluate=bandit_bounds.algorithm1_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(κ ln T + ln K)/η + ηL* + β² ln T at the run's η = min{η_max, √((κ+1)/L*)}",
        exponents={"T": 0.5, "L_star": 0.5},
        log_powers={"T": 2, "L_star": 0},
        log_note=(
            "proof of Theorem 4 (eqs. (13)–(14), lines 656–662): AM–GM leaves 1000η ln T ln²(KT) on the ηL* "
            "term, drawn without logs (κ ln T/η draws one): ln² T beyond the drawn; at a fixed T a constant"
        ),
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
        log_powers={"T": 3, "L_star": 0},
        log_note=(
            "proof of Theorem 13 (lines 727–733, 753–769): the failed reset folds 1000 ln T "
            "ln²(KT)(κ+1)/η_λ into Õ((κ+1)/η_λ), so √((κ+1)L*) carries ln T ln²(KT); at a fixed T a "
            "constant"
        ),
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
        log_powers={"T": 3, "L_star": 0},
        log_note=(
            "proof of Theorem 13 (lines 709, 723, 731): each epoch's (κ+1)/η_λ hides the factor 1000 ln T "
            "ln²(KT); at a fixed T a constant"
        ),
        source=(
            "paper 001 App. C.3, proof of Theorem 13 (Eq. (16), lines 755–765): Õ((κ+1)/η_λ* + β²λ*) with "
            "the constants of Lemma 12's O(·) hidden, so drawn with unit constant; flat in L* while "
            "(κ+1)/η₁ dominates"
        ),
        params=("eta_start",),
        metrics=("L_star",),
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
        exponents={"T": 0.5, "L_star": 0.5, "L_best_S": 0.5},
        source=(
            "paper 001 Theorem 7 (lines 248–250), i ∈ S, at the run's η = min{√(s/L_{i*_S}), 1/5}: "
            "Õ(√(sL_i) + s) (line 252)"
        ),
        hypotheses=_THEOREM7,
        params=("eta", "eta_bar"),
        metrics=("L_best_S",),
    ),
    "theorem7_best_S_corrected": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem7_best_s_corrected,
        metric="regret_best_S",
        explicit=True,
        label="s ln T/η + 1/(2η̄) + 2ηL_{i*_S} + 2s (corrected)",
        exponents={"T": 0.5, "L_star": 0.5, "L_best_S": 0.5},
        constants="constants derived here (docs/findings.md, finding 1), the paper's otherwise",
        source=(
            "paper 001 Theorem 7 (line 250), i ∈ S, with the 1/(2η̄) its proof drops from D_ψ(u, p_1) "
            "(App. E.2, lines 1015–1021; the Bregman divergence of line 947): docs/findings.md, finding 1"
        ),
        hypotheses=_THEOREM7,
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
        hypotheses=_THEOREM7,
        params=("eta", "eta_bar"),
        metrics=("L_best_S", "L_best_Sbar"),
    ),
    "theorem8_best_S_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s,
        metric="regret_best_S",
        explicit=True,
        label="2s ln T/η + 2ηL_i + 2δdL_D + 2s",
        exponents={"T": 2.0 / 3.0, "L_D": 2.0 / 3.0},
        source="paper 001 Theorem 8 (line 264), i ∈ S, γ = 1/3: Õ(L_D^{1−γ}) (line 266)",
        hypotheses=_THEOREM8,
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
        hypotheses=_THEOREM8,
        params=("eta", "eta_bar", "delta"),
        metrics=("L_best_S", "L_D"),
    ),
    "theorem8_best_S_corrected": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem8_best_s_corrected,
        metric="regret_best_S",
        explicit=True,
        label="2s ln T/η + 1/(2η̄) + 2ηL_i + 2δdL_D + 2s (corrected)",
        exponents={"T": 2.0 / 3.0, "L_D": 2.0 / 3.0},
        constants="constants derived here (docs/findings.md, finding 1), the paper's otherwise",
        source=(
            "paper 001 Theorem 8 (line 264), i ∈ S, with the 1/(2η̄) its proof drops from D_ψ(u, p_1) "
            "(App. E.4, lines 1255–1259; the Bregman divergence of line 947): docs/findings.md, finding 1; "
            "the exponent is γ = 1/3's (γ = 1/2's becomes 3/4: 1/η̄ = L_D^{3/4} at its tuning)"
        ),
        hypotheses=_THEOREM8,
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
        hypotheses=_THEOREM8,
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
        hypotheses=_THEOREM8,
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
        log_powers={"L_star": 0, "L_best_S": 0, "T": 1},
        log_note=(
            "proof of Theorem 17 (eq. (21), line 1031; lines 1139–1145, 1195–1199): s ln T/η_λ per epoch "
            "sums to ln T·√(sL_{i*_S}); at a fixed T a constant, and no log of L"
        ),
        source="paper 001 App. E.3, Theorem 17 (line 1123): Algorithm 6, i* ∈ S: Õ(√(sL_{i*_S}) + s²)",
        hypotheses=bandit_bounds.best_arm_in_S,
        metrics=("L_best_S", "L_best_Sbar"),
    ),
    "theorem17_best_S_corrected": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem17_best_s_bar,
        metric="regret_best_S",
        explicit=False,
        label="L_{i*_S}^{2/3} + √(sL_{i*_S}) + s²: i* ∈ S corrected (finding 1)",
        exponents={"L_star": 2.0 / 3.0, "L_best_S": 2.0 / 3.0, "T": 2.0 / 3.0},
        log_powers={"L_star": 0, "L_best_S": 0, "T": 0},
        log_note=(
            "proof of Theorem 17 with finding 1's term (lines 1093, 1127, 1193): the epochs' 1/(2η̄_λ) "
            "grow by 2^{4/3} each, their sum ≈ 2.1·L̂^{2/3} is log-free; ln T rides on √(sL), whose slope "
            "1/2 + 1/ln T stays below 2/3"
        ),
        source=(
            "paper 001 App. E.3, Theorem 17, i* ∈ S, with each epoch's 1/(2η̄_λ) its proof drops from "
            "D_ψ(u, p_1) (docs/findings.md, finding 1): Algorithm 6 restarts from p_1, half of it on S̄ "
            "(lines 1090, 1093), with η̄_λ = s^{−2/3}η_λ^{4/3}; the reset test (line 1193) makes the last "
            "epoch's term ≈ L_{i*_S}^{2/3}, so the i* ∈ S rate becomes the i* ∈ S̄ one "
            "(docs/notes/theorem17-corrected.md)"
        ),
        metrics=("L_best_S",),
    ),
    "theorem17_best_Sbar": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem17_best_s_bar,
        metric="regret_best_Sbar",
        explicit=False,
        label="L_{i*_S}^{2/3} + √(sL_{i*_S}) + s²",
        exponents={"L_best_S": 2.0 / 3.0, "T": 2.0 / 3.0},
        log_powers={"L_best_S": 0, "T": 0},
        log_note=(
            "proof of Theorem 17 (eq. (22), line 1055; lines 1185–1207): the leading L^{2/3} carries only "
            "ln(2s̄); ln T rides on √(sL), whose slope 1/2 + 1/ln T stays below 2/3"
        ),
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
        log_powers={"L_D": 0, "T": 0},
        log_note=(
            "proof of Theorem 18 (lines 1349–1373, 1413–1437): at γ = 1/3 ln T rides on s·δ_λ^{−3/2}, below "
            "the leading δ_λ^{−2}; λ* enters only as an additive d·λ*"
        ),
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/3, i* ∈ S: Õ(L_D^{1−γ}); the "
            "epoch-1 term δ₁^{1−1/γ} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        hypotheses=_theorem18(1.0 / 3.0, best_in_s=True),
        params=("delta_start", "d", "delta_final", "gamma"),
        metrics=("L_D", "L_best_S", "L_best_Sbar"),
    ),
    "theorem18_best_Sbar_third": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(1.0 / 3.0, best_in_s=False),
        metric="regret_best_Sbar",
        explicit=False,
        label="max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}}, γ = 1/3 (first term: no reset yet)",
        exponents={"L_D": 2.0 / 3.0, "T": 2.0 / 3.0},
        log_powers={"L_D": 0, "T": 0},
        log_note=(
            "proof of Theorem 18 (lines 1379–1409): the leading δ_λ^{−2} carries only ln(2s̄); ln T rides "
            "on the lower δ_λ^{−3/2}; λ* only as an additive d·λ*"
        ),
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/3, i* ∈ S̄: Õ(L_D^{(1+γ)/2}); the "
            "epoch-1 term δ₁^{−(1+γ)/(2γ)} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        hypotheses=_theorem18(1.0 / 3.0, best_in_s=False),
        params=("delta_start", "d", "delta_final", "gamma"),
        metrics=("L_D",),
    ),
    "theorem18_best_S_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(0.5, best_in_s=True),
        metric="regret_best_S",
        explicit=False,
        label="max{δ₁^{1−1/γ}, (dL_D)^{1−γ}}, γ = 1/2 (first term: no reset yet)",
        exponents={"L_D": 0.5, "T": 0.5},
        log_powers={"L_D": 0, "T": 1},
        log_note=(
            "proof of Theorem 18 (lines 1357, 1363): at γ = 1/2, η_λ = δ_λ, so 2s ln T/η_λ is ln T times "
            "the leading δ_λ^{−1}; at a fixed T a constant"
        ),
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/2, i* ∈ S: Õ(L_D^{1−γ}); the "
            "epoch-1 term δ₁^{1−1/γ} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        hypotheses=_theorem18(0.5, best_in_s=True),
        params=("delta_start", "d", "delta_final", "gamma"),
        metrics=("L_D", "L_best_S", "L_best_Sbar"),
    ),
    "theorem18_best_S_half_corrected": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(0.5, best_in_s=False),
        metric="regret_best_S",
        explicit=False,
        label="max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}}, γ = 1/2: i* ∈ S corrected (finding 1)",
        exponents={"L_D": 0.75, "T": 0.75},
        log_powers={"L_D": 0, "T": 0},
        log_note=(
            "proof of Theorem 18 with finding 1's term (lines 1317, 1339): 1/(2η̄_λ) = δ_λ^{−3/2}/2 is "
            "log-free; ln T rides on the lower δ_λ^{−1}"
        ),
        source=(
            "paper 001 App. E.5, Theorem 18, i* ∈ S, with each epoch's 1/(2η̄_λ) its proof drops from "
            "D_ψ(u, p_1) (docs/findings.md, finding 1): η̄_λ = δ_λ^{1/2+1/(2γ)} (Algorithm 7, line 1317) "
            "makes it the i* ∈ S̄ epoch cost δ_λ^{−(1+γ)/(2γ)}, so the i* ∈ S rate becomes the S̄ one: "
            "L_D^{3/4}"
        ),
        hypotheses=_theorem18(0.5, best_in_s=False),
        params=("delta_start", "d", "delta_final", "gamma"),
        metrics=("L_D",),
    ),
    "theorem18_best_Sbar_half": BoundSpec(
        reference="exp3g_weak",
        evaluate=bandit_bounds.theorem18_rate(0.5, best_in_s=False),
        metric="regret_best_Sbar",
        explicit=False,
        label="max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}}, γ = 1/2 (first term: no reset yet)",
        exponents={"L_D": 0.75, "T": 0.75},
        log_powers={"L_D": 0, "T": 0},
        log_note=(
            "proof of Theorem 18 (lines 1379–1409): the leading ln(2s̄)·δ_λ^{−3/2} is log-free in T; ln T "
            "rides on the lower δ_λ^{−1}"
        ),
        source=(
            "paper 001 App. E.5, Theorem 18 (line 1335): Algorithm 7, γ = 1/2, i* ∈ S̄: Õ(L_D^{(1+γ)/2}); the "
            "epoch-1 term δ₁^{−(1+γ)/(2γ)} its Õ hides is from the proof (eq. (26), lines 1411–1437)"
        ),
        hypotheses=_theorem18(0.5, best_in_s=False),
        params=("delta_start", "d", "delta_final", "gamma"),
        metrics=("L_D",),
    ),
    "theorem5_lower": BoundSpec(
        evaluate=bandit_bounds.theorem5_lower,
        metric="pseudo_regret",
        explicit=False,
        label="|I| = T^{1−ε̂}: the construction's interval, ≈ T/(2⌈N⌉+1) (N: regret in environment 1)",
        exponents={"T": 1.0},
        log_powers={"T": 0},
        log_note=(
            "Theorem 5 (line 208) is Ω(T^{1−ε}), not Ω̃; its proof (lines 955–957) bounds the regret below "
            "by a constant times the drawn |I|"
        ),
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
        log_powers={"T": 0},
        log_note=(
            "Theorem 5's premise (line 208) says Õ(1) of no stated degree and its proof (line 955) needs "
            "only O(T^ε): the drawn ln T, the exploration leader's regret, is the convention"
        ),
        source=(
            "paper 001 Theorem 5 (line 208): the algorithm 'guarantees Õ(1) regret when L* = 0'; the proof "
            "(App. E.1, line 955) uses it on environment 1 only. Õ(1) hides polylog T: drawn as ln T"
        ),
        applies=bandit_bounds.theorem5_environment(1),
    ),
}


def _checkpoint(n: dict) -> float:
    return float(n["t"])


TRIVIAL_BOUNDS: dict[str, Callable[[dict], float]] = {
    # Paper 001 (losses in [0, 1]): Σ_{τ≤t} (⟨p_τ, ℓ_τ⟩ − ℓ_{τ,i}) ≤ t against any arm i.
    "pseudo_regret": _checkpoint,
    "realized_regret": _checkpoint,
    "regret_best_S": _checkpoint,
    "regret_best_Sbar": _checkpoint,
}
"""The trivial bound of each metric of the bandit run tables at a point, at the checkpoint ``t``: what
the metric cannot exceed whatever the learner does (:data:`regretlab.registry.theory.TRIVIAL_BOUNDS`)."""
