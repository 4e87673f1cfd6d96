"""Paper 000's bounds, by the name regimes use in ``config.yaml``
(:class:`regretlab.specs.bound_spec.BoundSpec`), the trivial bound of the CMDP metrics and the ceilings the
learners' construction puts on some of them. Each bound's value is computed by one function next to its
theorem (:mod:`regretlab.cmdp.bounds`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from regretlab.cmdp import bounds as cmdp_bounds
from regretlab.cmdp.dual import dual_learning_rate, paper_K, tuned_dual_learning_rate
from regretlab.cmdp.instance import condition2_holds
from regretlab.cmdp.uc_o_gdps import paper_C
from regretlab.specs.bound_spec import BoundSpec, Ceiling, all_of


def _cmdp_args(n: dict) -> tuple:
    """``(T, δ, L, |X|, |A|)``, the first arguments of every bound of :mod:`regretlab.cmdp.bounds`."""
    return int(n["T"]), n["delta"], n["L"], n["n_states"], n["n_actions"]


def _condition2(n: dict) -> bool:
    """Condition 2 of paper 000 at the point's T and ρ: ρ ≥ T^{-1/8} L √(20m)."""
    return bool(condition2_holds(n["rho"], int(n["T"]), n["L"], n["m"]))


def _condition2_fails(n: dict) -> bool:
    """Theorem 6's hypothesis (line 393: "when Condition 2 does not hold"): past the T at which Condition 2
    holds, the instance is Theorem 5's, not Theorem 6's."""
    return not _condition2(n)


def app_c_constants(n: dict) -> dict[str, float]:
    """App. C's primal ``C = 5|X||A|/L`` (line 959) and dual ``η = [100m|X||A| √(T ln(T²/δ))]^{-1}`` (line
    977) at the point's sizes, horizon and ``δ``: the constants the proofs of Theorems 4–7 and Lemma 16 run
    PDGD-OPS with (reused at lines 1065, 1114, 1164, 1176–1188, 1241, 1284), as ``{"C": …, "eta": …}``."""
    return {"C": _app_c_C(n), "eta": _app_c_eta(n)}


def _app_c_C(n: dict) -> float:
    return paper_C(n["n_states"], n["n_actions"], n["L"])


def _app_c_eta(n: dict) -> float:
    return dual_learning_rate(paper_K(n["m"], n["n_states"], n["n_actions"]), int(n["T"]), n["delta"])


def _app_c_dual_step(n: dict) -> bool:
    """The run's dual step is App. C's η (line 977), as in the proofs of Theorems 4–7 and Lemma 16."""
    return math.isclose(n["params"]["eta"], _app_c_eta(n), rel_tol=1e-9)


def _app_c_primal_constant(n: dict) -> bool:
    """The run's primal constant is App. C's C = 5|X||A|/L (line 959), as in the proofs of Theorems 4–7 and
    Lemma 16."""
    return math.isclose(n["params"]["C"], _app_c_C(n), rel_tol=1e-9)


def _stochastic_constraints(n: dict) -> bool:
    """Stochastic constraints (Theorems 5 and 6, lines 363 and 393): the instance has no adversarial ρ."""
    return "rho_adversarial" not in n


def _tuned_dual_step_at_most(n: dict) -> bool:
    """The run's dual step is at most the tuned η at the point's ρ, where OGD's bound at that η covers it."""
    return n["params"]["eta"] <= tuned_dual_learning_rate(n["L"], n["m"], int(n["T"]), n["rho"]) * (1 + 1e-9)


def _all_epochs_covered(n: dict) -> bool:
    """Every epoch's confidence set so far contains P (Lemma 5's event E^Δ): then the true occupancies Δ(M),
    over which the measured regret maximises, lie in Theorem 3's comparator set ∩_i Δ(𝒫_i) (lines 443–447)."""
    return n["all_epochs_covered"] == 1


#: Theorems 5 and 6 (and Theorem 4 under Condition 2) as stated: PDGD-OPS with App. C's constants.
_APP_C = (_app_c_primal_constant, _app_c_dual_step)
_THEOREM5 = all_of(_condition2, _stochastic_constraints, *_APP_C)
_THEOREM6 = all_of(_condition2_fails, _stochastic_constraints, *_APP_C)
#: Theorem 7 (its ρ the adversarial one, line 165, which the point's ``rho`` is on adversarial instances),
#: Theorem 4 and the violation rate of Theorems 5 and 7: the setting is not a condition at the point (a
#: fixed sequence, as the power search's, is both; the claims name the adversarial regimes).
_UNDER_CONDITION2 = all_of(_condition2, *_APP_C)


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


BOUNDS: dict[str, BoundSpec] = {
    "theorem5_regret": BoundSpec(
        evaluate=lambda n: _theorem5(n)[0].value,
        metric="regret",
        explicit=True,
        label="E^r_δ + ζE^G_δ + ζE^q_δ + R^D_T(0) + R^P_T(q*)",
        exponents={"T": 0.5},
        source="paper 000 Theorem 5 (lines 365/371), constants of App. C; see regretlab.cmdp.bounds",
        hypotheses=_THEOREM5,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem5_violation": BoundSpec(
        evaluate=lambda n: _theorem5(n)[1].value,
        metric="violation",
        explicit=True,
        label="ζ/η + E^q_δ",
        exponents={"T": 0.5},
        source="paper 000 Theorem 5 (lines 367/373)",
        hypotheses=_THEOREM5,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem6_regret": BoundSpec(
        evaluate=lambda n: _theorem6(n)[0].value,
        metric="regret",
        explicit=True,
        label="E^r_δ + mT^{1/4}(E^G_δ + E^q_δ) + R^D_T(0) + R^P_T(q*)",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 395/401)",
        hypotheses=_THEOREM6,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem6_violation": BoundSpec(
        evaluate=lambda n: _theorem6(n)[1].value,
        metric="violation",
        explicit=True,
        label="(2 + 2L)T^{1/4}/η + E^q_δ",
        exponents={"T": 0.75},
        source="paper 000 Theorem 6 (lines 397/403)",
        hypotheses=_THEOREM6,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem7_regret": BoundSpec(
        evaluate=lambda n: _theorem7(n)[0].value,
        metric="regret",
        explicit=True,
        label="T·OPT/(1+ρ) + E^r_δ + ζE^q_δ + R^D_T(0) + R^P_T(q̃)",
        exponents={"T": 1.0},
        source="paper 000 Theorem 7 (lines 421/427): the ρ/(1+ρ) share of T·OPT is all that is guaranteed",
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        metrics=("rho", "opt"),
    ),
    "theorem7_violation": BoundSpec(
        evaluate=lambda n: _theorem7(n)[1].value,
        metric="violation",
        explicit=True,
        label="ζ/η + E^q_δ",
        exponents={"T": 0.5},
        source="paper 000 Theorem 7 (lines 423/429)",
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        metrics=("rho", "opt"),
    ),
    "theorem7_reward_ratio": BoundSpec(
        evaluate=lambda n: n["rho"] / (1 + n["rho"]),
        metric="reward_ratio",
        explicit=False,
        label="ρ/(1+ρ) — Theorem 7 as stated, a lower bound on Σ r_t^T q_t / (T·OPT)",
        exponents={"T": 0.0},
        log_powers={"T": 0},
        log_note=(
            "Theorem 7 (line 433), proof lines 1246–1284: the Ω hides an additive −O(√(ln T/T)) correction, "
            "which only raises the ratio's slope toward 0, no multiplicative log"
        ),
        source="paper 000 Theorem 7 (line 433): Σ r_t^T q_t ≥ Ω(ρ/(1+ρ) T·OPT); drawn with unit constant",
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        direction="lower",
        metrics=("rho",),
    ),
    "theorem7_reward_ratio_corrected": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem7_corrected_ratio(n["L"], n["rho"]),
        metric="reward_ratio",
        explicit=False,
        label="ρ/(L+ρ) — Theorem 7's proof with [G_tᵀq*]_i ≤ L (line 1248 says ≤ 1)",
        exponents={"T": 0.0},
        log_powers={"T": 0},
        log_note=(
            "proof of Theorem 7 (lines 1246–1276, line 1248 corrected): ρ/(L+ρ) minus an additive O(√(ln "
            "T/T)), no multiplicative log"
        ),
        source=(
            "paper 000 Theorem 7, proof lines 1244-1262 corrected: the safe mixture is "
            "ρ/(L+ρ) q* + L/(L+ρ) q°; see regretlab.cmdp.bounds.theorem7_corrected_ratio"
        ),
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
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
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        metrics=("rho", "opt"),
    ),
    "theorem5_regret_rate": BoundSpec(
        evaluate=_zeta_sqrt_T,
        metric="regret",
        explicit=False,
        label="ζ√T",
        exponents={"T": 0.5},
        log_powers={"T": 0.5},
        log_note=(
            "Theorem 5 (lines 365, 371), proof lines 1059–1114: the dominant ζE^q_δ and (1+ζ)E^q_δ carry "
            "√ln(T|X||A|/δ) (Lemma 2, line 453), ζE^G_δ √ln(T²/δ) (line 353); no epoch adds a log (Lemma 8, "
            "line 610)"
        ),
        source="paper 000 Theorem 5 (lines 377-379): R_T = Õ(ζ√T); drawn with unit constant",
        hypotheses=_THEOREM5,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem5_violation_rate": BoundSpec(
        evaluate=_zeta_sqrt_T,
        metric="violation",
        explicit=False,
        label="ζ√T",
        exponents={"T": 0.5},
        log_powers={"T": 0.5},
        log_note=(
            "Theorems 5 and 7 (lines 367, 423), proof lines 1066–1074: ζ/η with 1/η = 100m|X||A|√(T "
            "ln(T²/δ)) (App. C, line 977) carries √ln T; E^q_δ too"
        ),
        source="paper 000 Theorems 5 and 7 (lines 379, 435): V_T = Õ(ζ√T); drawn with unit constant",
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem6_regret_rate": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem6_rate(int(n["T"])).value,
        metric="regret",
        explicit=False,
        label="T^{3/4}",
        exponents={"T": 0.75},
        log_powers={"T": 0.5},
        log_note=(
            "Theorem 6 (lines 395, 401), proof lines 1197–1223: mT^{1/4}E^q_δ carries √ln(T|X||A|/δ) (Lemma "
            "2, line 453), mT^{1/4}E^G_δ √ln(T²/δ)"
        ),
        source="paper 000 Theorem 6 (lines 407-409): R_T = Õ(T^{3/4}); drawn with unit constant",
        hypotheses=_THEOREM6,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem6_violation_rate": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem6_rate(int(n["T"])).value,
        metric="violation",
        explicit=False,
        label="T^{3/4}",
        exponents={"T": 0.75},
        log_powers={"T": 0.5},
        log_note=(
            "Theorem 6 (lines 397, 403) with Lemma 16 (lines 1120–1193): (2 + 2L)T^{1/4}/η with 1/η ∝ √(T "
            "ln(T²/δ)) (App. C, line 977) carries √ln T"
        ),
        source="paper 000 Theorem 6 (lines 407-409): V_T = Õ(T^{3/4}); drawn with unit constant",
        hypotheses=_THEOREM6,
        params=("C", "eta"),
        metrics=("rho",),
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
        hypotheses=_app_c_dual_step,
        params=("eta",),
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
        hypotheses=_tuned_dual_step_at_most,
        params=("eta",),
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
        hypotheses=_all_epochs_covered,
        metrics=("all_epochs_covered",),
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
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
        metrics=("rho",),
    ),
    "theorem4_zeta": BoundSpec(
        evaluate=lambda n: cmdp_bounds.theorem4_zeta(n["m"], n["L"], n["rho"]).value,
        metric="lambda_l1_max",
        explicit=True,
        label="ζ = 20mL²/ρ²",
        exponents={"T": 0.0, "t": 0.0},
        source="paper 000 Theorem 4 (line 319): max_t ||λ_t||_1 ≤ ζ under Condition 2",
        hypotheses=_UNDER_CONDITION2,
        params=("C", "eta"),
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
    "lemma14_dual": BoundSpec(
        evaluate=lambda n: cmdp_bounds.lemma14_dual(n["lambda_l1_max"]).value,
        metric="dual_shortfall",
        explicit=True,
        label="0 (Lemma 14: λ_{t+1} ≥ ηV̂_t while the dual is unclipped; + 10⁻⁹‖λ‖₁ for rounding)",
        exponents={"T": 0.0, "t": 0.0},
        source=(
            "paper 000 Lemma 14 (line 1017: λ_{t+1,i} ≥ ηV̂_{t,i} while the box does not clip), on the "
            "recorded V̂_t and the run's η: a dual held at 0, or one whose step is too short, fails it"
        ),
        hypotheses=lambda n: n["dual_clipped"] == 0,
        metrics=("lambda_l1_max", "dual_clipped"),
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
            "needs only ρ ≥ 0), plus Lemma 15's measured Σ‖q − q̂‖₁ (line 1037), at the run's η, which the "
            "proof needs to be App. C's (lines 1164–1188: LT ≤ √T/η, R^D_T(λ̃) ≤ L√T/η)"
        ),
        hypotheses=all_of(*_APP_C),
        params=("C", "eta"),
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
        metrics=("C", "ell_bar", "all_epochs_covered"),
        constants="paper's constants (Theorem 3 holds for any C), at each run's C and ℓ̄_T",
        hypotheses=_all_epochs_covered,
    ),
}


def _lagrangian_range(n: dict) -> float:
    """2L ℓ̄ t: ℓ_τ^T (q_τ − q) ≤ 2L ℓ̄ per episode, ‖ℓ_τ‖_∞ ≤ ℓ̄ and q_τ, q of mass L (one per layer)."""
    return 2 * n["L"] * n["ell_bar"] * n["t"]


TRIVIAL_BOUNDS: dict[str, Callable[[dict], float]] = {
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
"""The trivial bound of each metric of the CMDP run tables at a point, at the checkpoint ``t``: what the
metric cannot exceed (or, for a lower-bounded metric, fall below) whatever the learner does
(:data:`regretlab.registry.theory.TRIVIAL_BOUNDS`)."""


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
