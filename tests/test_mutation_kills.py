"""Values and decisions the product reports, pinned where ``benchmarks/mutation.py`` found mutants that no
test caught (docs/verification.md, "Mutation score"): the unit-constant rates figures draw, the hypotheses
that grey a point out, Theorem 5's premise and its floor, at their boundaries. Every expected value is written
out from the paper's display (paper 001 unless said otherwise), never with the library's bound functions.
"""

import math

import pytest

from regretlab.bandits import bounds as bandit_bounds
from regretlab.cmdp import bounds as cmdp_bounds
from regretlab.registry import theory
from regretlab.registry.theory import BOUNDS

REL = 1e-12


def value(name: str, point: dict) -> float:
    return BOUNDS[name].evaluate(point)


# ---- Section 3 rates (unit constants; drawn in the figures, ``rate only`` verdict) -------------------------


def test_exp3g_and_theorem2_rates():
    """√(αT ln K) (§3.1) and √(αT) + K² (Theorem 2), at α = 2, T = 50, K = 4."""
    point = {"alpha": 2, "T": 50, "K": 4}
    assert value("exp3g_rate", point) == pytest.approx(math.sqrt(100 * math.log(4)), rel=REL)
    assert value("theorem2_rate", point) == pytest.approx(10 + 16, rel=REL)


@pytest.mark.parametrize(
    ("l_star", "eta"),
    [(1e6, 0.002), (0.0, 1 / 128), (100.0, 1 / 128)],
    ids=["root_binds", "no_loss_cap", "cap_binds"],
)
def test_theorem3_rate_at_each_branch_of_its_eta(l_star, eta):
    """(s ln T + ln K)/η + ηL* + K² ln T at η = min{√((s+1)/L*), 1/(64K)} (§3.2): K = 2, s = 3, T = 100, so
    √(4/L*) = 0.002 below the cap 1/128 at L* = 10⁶, the cap alone at L* = 0 and the cap at L* = 100."""
    point = {"K": 2, "s": 3, "T": 100, "L_star": l_star}
    expected = (3 * math.log(100) + math.log(2)) / eta + eta * l_star + 4 * math.log(100)
    assert value("theorem3_rate", point) == pytest.approx(expected, rel=REL)


@pytest.mark.parametrize(("l_star", "expected"), [(16.0, 8 + 9), (100.0, 10 + 9)])
def test_theorem14_rate_takes_the_smaller_root(l_star, expected):
    """min{√(αT), √(κL*)} + K² (Theorem 14): √(αT) = 10, √(κL*) = 8 or 20, K² = 9."""
    point = {"alpha": 2, "T": 50, "kappa": 4, "L_star": l_star, "K": 3}
    assert value("theorem14_rate", point) == pytest.approx(expected, rel=REL)


def test_algorithm1_and_algorithm4_rates():
    """Theorem 4: (κ ln T + ln K)/η + ηL* + β² ln T; Theorem 13: √((κ+1)L*) + β²; β = κ + s̄ = 5."""
    point = {"kappa": 2, "s_bar": 3, "T": 100, "K": 4, "L_star": 12.0, "params": {"eta": 0.01}}
    theorem4 = (2 * math.log(100) + math.log(4)) / 0.01 + 0.01 * 12 + 25 * math.log(100)
    assert value("algorithm1_rate", point) == pytest.approx(theorem4, rel=REL)
    assert value("algorithm4_rate", point) == pytest.approx(6 + 25, rel=REL)


@pytest.mark.parametrize(("l_star", "expected"), [(12.0, 300 + 25), (30000.0, 600 + 25)])
def test_algorithm4_proof_rate_takes_the_larger_term(l_star, expected):
    """max{(κ+1)/η₁, 2√((κ+1)L*)} + β² (App. C.3): (κ+1)/η₁ = 300, 2√(3L*) = 12 or 600, β² = 25."""
    point = {"kappa": 2, "s_bar": 3, "L_star": l_star, "params": {"eta_start": 0.01}}
    assert value("algorithm4_proof_rate", point) == pytest.approx(expected, rel=REL)


def test_theorem3_bound_is_finite_just_below_eta_one_sixteenth():
    """At η = 0.06 < 1/16 the proof's 1 − 16η = 0.04 is positive: a finite bound."""
    point = {"K": 4, "s": 1, "T": 100, "L_star": 10.0, "params": {"eta": 0.06, "c": 256.0}}
    assert math.isfinite(value("theorem3_bound", point))


def test_theorem3_rate_squares_K():
    """(s ln T + ln K)/η + ηL* + K² ln T at K = 4, s = 1, T = 100, L* = 0: η is the cap 1/(64K) = 1/256."""
    point = {"K": 4, "s": 1, "T": 100, "L_star": 0.0}
    expected = (math.log(100) + math.log(4)) * 256 + 16 * math.log(100)
    assert value("theorem3_rate", point) == pytest.approx(expected, rel=REL)


def test_theorem3_bound_is_infinite_from_eta_one_sixteenth():
    """The proof divides by 1 − 16η (App. B, line 480): at η = 1/16 it bounds nothing (+∞, not an error)."""
    point = {"K": 4, "s": 1, "T": 100, "L_star": 10.0, "params": {"eta": 1 / 16, "c": 256.0}}
    assert value("theorem3_bound", point) == math.inf


# ---- Section 4: hypotheses (grey a point out) and the adaptive rates ---------------------------------------


@pytest.mark.parametrize(
    ("eta", "eta_bar", "holds"),
    [
        (0.2, 0.04, True),
        (0.2 * (1 + 1e-10), 0.04 * (1 + 1e-10), True),  # within the cap's slack
        (0.2 * (1 + 1e-6), 0.04, False),
        (0.2, 0.04 * (1 + 1e-6), False),
    ],
)
def test_theorem7_hypotheses_at_the_caps(eta, eta_bar, holds):
    """η ≤ 1/5 and η̄ ≤ 1/25 (line 248), a run's rate at the cap counting as at it (relative slack 1e-9)."""
    for name in ("theorem7_best_S", "theorem7_best_Sbar"):
        assert BOUNDS[name].hypotheses({"eta": eta, "eta_bar": eta_bar, "T": 14, "K": 7}) is holds


@pytest.mark.parametrize(("T", "holds"), [(14, True), (13, False)])
def test_algorithm2_theorems_need_T_at_least_2K(T, holds):
    """T ≥ 2K (line 50; the proofs use u = (1 − K/T)e_i + …, lines 1029, 1265): at K = 7 the edge is
    T = 14."""
    for name in ("theorem7_best_S", "theorem7_best_S_corrected", "theorem7_best_Sbar"):
        assert BOUNDS[name].hypotheses({"eta": 0.2, "eta_bar": 0.04, "T": T, "K": 7}) is holds
    # Theorem 8 needs T ≥ 1/δ ≥ 125 besides: at K = 70 the edge is T = 140 (δ = 1/125 ≥ 1/139 either way).
    for name in ("theorem8_best_S_third", "theorem8_best_S_corrected", "theorem8_best_Sbar_half"):
        assert BOUNDS[name].hypotheses(theorem8_point(K=70, T=T + 126)) is holds


def theorem8_point(**change) -> dict:
    """δ = 1/125 at the caps: 1/T = δ (T = 125), min{1/125, 1/(4s), 1/(4d)} = δ (s = d = 1), η = 1/25,
    η̄ = δ^{4/3}."""
    point = {"T": 125, "K": 8, "s": 1, "d": 1, "delta": 0.008, "eta": 0.04, "eta_bar": 0.008 ** (4 / 3)}
    return point | change


@pytest.mark.parametrize(
    ("change", "holds"),
    [
        ({}, True),
        ({"s": 0}, True),  # no self-aware node: 1/(4s) is no cap
        ({"T": 124}, False),  # δ < 1/T
        ({"delta": 0.00801, "eta_bar": 0.00801 ** (4 / 3)}, False),  # δ > 1/125
        ({"s": 50, "delta": 0.005, "eta_bar": 0.005 ** (4 / 3), "T": 1000}, True),  # 1/(4s) binds, at it
        ({"s": 50, "delta": 0.0051, "eta_bar": 0.0051 ** (4 / 3), "T": 1000}, False),
        ({"d": 50, "delta": 0.005, "eta_bar": 0.005 ** (4 / 3), "T": 1000}, True),  # 1/(4d) binds, at it
        ({"d": 50, "delta": 0.0051, "eta_bar": 0.0051 ** (4 / 3), "T": 1000}, False),
        ({"eta": 0.0401}, False),
        ({"eta_bar": 0.008 ** (4 / 3) * 1.001}, False),
    ],
)
def test_theorem8_hypotheses_at_each_cap(change, holds):
    """Theorem 8's conditions (line 262): 1/T ≤ δ ≤ min{1/125, 1/(4s), 1/(4d)}, η ≤ 1/25, η̄ ≤ δ^{4/3}."""
    for name in ("theorem8_best_S_third", "theorem8_best_Sbar_half"):
        assert BOUNDS[name].hypotheses(theorem8_point(**change)) is holds


def theorem18_point(gamma: float, **change) -> dict:
    """Algorithm 7 at T = 10⁴ with its last δ_λ = 1/T (Theorem 8's floor, line 262, in the last epoch) and the
    best arm in S by one unit of loss."""
    params = {"gamma": gamma, "delta_start": 0.008, "d": 2, "delta_final": 1e-4}
    point = {"T": 10_000, "s": 2, "L_D": 500.0, "L_best_S": 299.0, "L_best_Sbar": 300.0, "params": params}
    return point | change


@pytest.mark.parametrize(
    ("names", "gamma"),
    [
        (("theorem18_best_S_third", "theorem18_best_Sbar_third"), 1 / 3),
        (("theorem18_best_S_half", "theorem18_best_S_half_corrected", "theorem18_best_Sbar_half"), 0.5),
    ],
)
def test_theorem18_hypotheses(names, gamma):
    """Theorem 18 (line 1335): every epoch within Theorem 8's δ ≥ 1/T (line 1339), the rate's own γ, and for
    the i* ∈ S rates the case they state (the best arm overall has a self-loop; ties count as in S)."""
    other = 0.5 if gamma < 0.5 else 1 / 3
    for name in names:
        hypotheses = BOUNDS[name].hypotheses
        point = theorem18_point(gamma)
        assert hypotheses(point), name
        assert hypotheses(point | {"L_best_S": 300.0}), name
        assert not hypotheses(theorem18_point(other)), name
        assert not hypotheses(point | {"params": point["params"] | {"delta_final": 0.99e-4}}), name
        in_s = name.startswith("theorem18_best_S_") and "corrected" not in name
        assert hypotheses(point | {"L_best_S": 301.0}) is not in_s, name


def test_theorem17_best_S_needs_the_best_arm_in_S():
    """Theorem 17's i* ∈ S rate (line 1123) speaks of runs whose best arm overall has a self-loop; its S̄ rate,
    the larger, holds wherever i* sits (no hypothesis)."""
    hypotheses = BOUNDS["theorem17_best_S"].hypotheses
    assert hypotheses({"L_best_S": 300.0, "L_best_Sbar": 300.0})
    assert not hypotheses({"L_best_S": 300.5, "L_best_Sbar": 300.0})
    assert BOUNDS["theorem17_best_Sbar"].hypotheses is None


@pytest.mark.parametrize(
    ("started", "c", "holds"),
    [(False, 7.0, True), (True, 448.0, True), (True, 7.0, False), (True, 447.9, False)],
)
def test_theorem14_needs_stage_2_at_c_64K(started, c, holds):
    """Theorem 14's Algorithm 5 runs Theorem 2's algorithm in stage 2 with c = 64K (lines 789–791): at K = 7
    a stage 2 at c = 448 qualifies, the `tuned` c = K does not once it has started."""
    point = {"K": 7, "params": {"stage2_started": started, "stage2": {"c": c}}}
    assert BOUNDS["theorem14_rate"].hypotheses(point) is holds


def test_theorem17_rates():
    """√(s L_{i*_S}) + s² and L_{i*_S}^{2/3} + √(s L_{i*_S}) + s² (line 1123) at s = 3, L_{i*_S} = 27."""
    point = {"s": 3, "L_best_S": 27.0}
    assert value("theorem17_best_S", point) == pytest.approx(9 + 9, rel=REL)
    assert value("theorem17_best_Sbar", point) == pytest.approx(9 + 9 + 9, rel=REL)
    # Finding 1's correction of the i* ∈ S case: the last epoch's dropped 1/(2η̄_λ) ≈ L_{i*_S}^{2/3}, the S̄
    # rate on the S metric, with its exponent 2/3 and no hidden log.
    spec = BOUNDS["theorem17_best_S_corrected"]
    assert value("theorem17_best_S_corrected", point) == pytest.approx(9 + 9 + 9, rel=REL)
    assert spec.metric == "regret_best_S" and spec.exponents["L_star"] == spec.exponents["T"] == 2 / 3
    assert set(spec.log_powers.values()) == {0} and spec.hypotheses is None


#: The registry's Theorem 18 entries by (γ, whether the arm compared with is in S).
THEOREM18 = {
    (1 / 3, True): "theorem18_best_S_third",
    (1 / 3, False): "theorem18_best_Sbar_third",
    (0.5, True): "theorem18_best_S_half",
    (0.5, False): "theorem18_best_Sbar_half",
}


@pytest.mark.parametrize(
    ("gamma", "best_in_s", "d_l_d", "expected"),
    [
        (1 / 3, True, 8.0, 125.0**2),  # δ₁^{1−1/γ} = 125²
        (1 / 3, True, 1e9, 1e6),  # (d L_D)^{2/3}
        (1 / 3, False, 1e9, 1e6),  # (d L_D)^{(1+γ)/2} = (d L_D)^{2/3}
        (0.5, True, 100.0, 125.0),  # δ₁^{−1}
        (0.5, True, 1e6, 1e3),  # (d L_D)^{1/2}
        (0.5, False, 100.0, 125.0**1.5),  # δ₁^{−(1+γ)/(2γ)} = δ₁^{−3/2}
        (0.5, False, 1e8, 1e6),  # (d L_D)^{3/4}
        (0.25, True, 1.0, 125.0**3),  # δ₁^{1−4}
        (0.25, True, 2.0**40, 2.0**30),  # (d L_D)^{3/4}
        (0.25, False, 1.0, 125.0**2.5),  # δ₁^{−5/2}
        (0.25, False, 2.0**40, 2.0**25),  # (d L_D)^{5/8}
    ],
)
def test_theorem18_rate_by_case(gamma, best_in_s, d_l_d, expected):
    """max{δ₁^{1−1/γ}, (dL_D)^{1−γ}} (i* ∈ S), max{δ₁^{−(1+γ)/(2γ)}, (dL_D)^{(1+γ)/2}} (i* ∈ S̄): Theorem 18's
    proof (lines 1345, 1411–1437), at δ₁ = 1/125, d = 2."""
    point = {"L_D": d_l_d / 2, "params": {"delta_start": 1 / 125, "d": 2}}
    assert bandit_bounds.theorem18_rate(gamma, best_in_s)(point) == pytest.approx(expected, rel=1e-9)
    name = THEOREM18.get((gamma, best_in_s))
    if name:
        assert value(name, point) == pytest.approx(expected, rel=1e-9)


# ---- Theorem 5 (App. E.1): which instances it speaks of, its premise, its rate and floor -----------------


def test_theorem5_environment_tells_the_two_environments():
    for environment in (1, 2):
        applies = bandit_bounds.theorem5_environment(environment)
        assert applies({"theorem5_environment": environment}) is True
        assert applies({"theorem5_environment": 3 - environment}) is False
        assert applies({}) is False
    assert BOUNDS["theorem5_lower"].applies({"theorem5_environment": 2})
    assert not BOUNDS["theorem5_lower"].applies({"theorem5_environment": 1})
    assert BOUNDS["theorem5_premise_rate"].applies({"theorem5_environment": 1})


@pytest.mark.parametrize(
    ("change", "holds"),
    [
        ({}, True),
        ({"theorem5_environment": 1}, False),
        ({"theorem5_epsilon": 1 / 3, "b": 0.3}, False),  # ε̂ < 1/3 fails
        ({"b": 0.2}, False),  # b = ε̂
        ({"b": 0.6}, False),  # b = 1 − 2ε̂
        ({"b": 0.59}, True),
        ({"b": 0.21}, True),
        ({"theorem5_epsilon": 0.3, "b": 0.35}, True),  # 1/4 ≤ ε̂ < 1/3: 0.3 < b < 0.4
        ({"theorem5_epsilon": math.nan}, False),
    ],
)
def test_theorem5_premise_at_its_boundaries(change, holds):
    """Environment 2, ε̂ < 1/3 and ε̂ < b < 1 − 2ε̂ (line 953), at ε̂ = 0.2."""
    point = {"theorem5_environment": 2, "theorem5_epsilon": 0.2, "b": 0.5, "T": 10_000} | change
    assert BOUNDS["theorem5_lower"].hypotheses(point) is holds
    proof = BOUNDS["theorem5_proof_lower"].hypotheses
    assert proof(point | {"theorem5_interval_loss": 0.4}) is holds


@pytest.mark.parametrize(("loss", "holds"), [(0.4999, True), (0.5, False), (None, False)])
def test_theorem5_proof_needs_an_interval_loss_below_one_half(loss, holds):
    """Markov's inequality needs ℓ̂_I < 1/2 (line 955); a point without ℓ̂_I is outside the proof."""
    point = {"theorem5_environment": 2, "theorem5_epsilon": 0.2, "b": 0.5, "T": 10_000}
    if loss is not None:
        point["theorem5_interval_loss"] = loss
    assert BOUNDS["theorem5_proof_lower"].hypotheses(point) is holds


def test_theorem5_rates_and_floor():
    """|I| = T^{1−ε̂} = 1000 at T = 10⁴, ε̂ = 1/4; ln T; the floor |I| T^{−b} − min{|I|, T^{1−b}}."""
    point = {"T": 10_000, "theorem5_epsilon": 0.25, "b": 0.5, "theorem5_environment": 2}
    assert value("theorem5_lower", point) == pytest.approx(1000.0, rel=REL)
    assert value("theorem5_premise_rate", point) == pytest.approx(math.log(10_000), rel=REL)
    floor = BOUNDS["theorem5_proof_lower"].trivial
    assert floor(point) == pytest.approx(1000 / 100 - 100, rel=REL)  # T^{1−b} = 100 < |I|
    assert floor(point | {"b": 0.1}) == pytest.approx(1000 * 10**-0.4 - 1000, rel=REL)  # |I| < T^{0.9}


def test_theorem5_values_are_nan_without_a_measured_epsilon():
    """Environment 1 has no ε̂ (nor ℓ̂_I): no lower bound, no proof bound, no floor there."""
    point = {"T": 10_000, "b": 0.5, "theorem5_environment": 1}
    assert math.isnan(value("theorem5_lower", point))
    assert math.isnan(value("theorem5_proof_lower", point))
    assert math.isnan(BOUNDS["theorem5_proof_lower"].trivial(point))
    assert math.isnan(value("theorem5_proof_lower", point | {"theorem5_epsilon": 0.25}))


# ---- Paper 000: Condition 2, ceilings (``implied``), trivial bounds (``vacuous``), the presets' bounds ----


def app_c(point: dict) -> dict:
    """App. C's constants written out: C = 5|X||A|/L (paper 000 line 959) and η = 1/(100m|X||A|√(T ln(T²/δ)))
    (line 977)."""
    sizes, T = point["n_states"] * point["n_actions"], point["T"]
    eta = 1 / (100 * point["m"] * sizes * math.sqrt(T * math.log(T**2 / point["delta"])))
    return {"C": 5 * sizes / point["L"], "eta": eta}


def paper000_point(**change) -> dict:
    """m = 5, L = 1, |X| = 2, |A| = 2, δ = 0.1, T = 2⁸, ρ = 5 (Condition 2 at its threshold, below), with the
    run's constants App. C's (``params``)."""
    point = {"rho": 5.0, "T": 256, "L": 1, "m": 5, "n_states": 2, "n_actions": 2, "delta": 0.1} | change
    return point | {"params": app_c(point)}


@pytest.mark.parametrize(("rho", "T", "holds"), [(5.0, 256, True), (4.99, 256, False), (5.0, 255, False)])
def test_condition2_at_its_threshold(rho, T, holds):
    """ρ ≥ T^{−1/8} L √(20m) (paper 000 §3.5): at m = 5, L = 1, T = 2⁸ the threshold is 0.5 · 10 = 5."""
    point = paper000_point(rho=rho, T=T)
    for name in ("theorem5_regret", "theorem5_violation", "theorem7_regret", "theorem4_zeta"):
        assert BOUNDS[name].hypotheses(point) is holds
    for name in ("theorem6_regret", "theorem6_violation_rate"):
        assert BOUNDS[name].hypotheses(point) is not holds


#: The specs whose theorem's proof runs PDGD-OPS with App. C's constants (lines 959, 977), by the side of
#: Condition 2 they are stated on (Lemma 16: either; its proof does not use it).
APP_C_SPECS = {
    True: ("theorem4_dual_never_clipped", "theorem4_zeta", "theorem5_regret", "theorem5_violation",
           "theorem5_regret_rate", "theorem5_violation_rate", "theorem7_regret", "theorem7_violation",
           "theorem7_reward_ratio", "theorem7_reward_ratio_corrected", "theorem7_regret_corrected",
           "lemma16_violation"),
    False: ("theorem6_regret", "theorem6_violation", "theorem6_regret_rate", "theorem6_violation_rate",
            "lemma16_violation"),
}  # fmt: skip


@pytest.mark.parametrize("condition2", [True, False])
def test_paper000_theorems_hold_for_app_c_constants_only(condition2):
    """A `tuned` run (C = √(|X||A|/(2L)) = √2, η = D/(L√(mT)) = 0.2/√1280) is not the learner of Theorems 4–7
    or Lemma 16: its points are greyed; App. C's hold, and a relative 10⁻⁶ off either constant does not."""
    point = paper000_point(rho=5.0 if condition2 else 4.99)
    paper = point["params"]
    tuned = {"C": math.sqrt(2), "eta": 0.2 / math.sqrt(1280)}
    for name in APP_C_SPECS[condition2]:
        hypotheses = BOUNDS[name].hypotheses
        assert hypotheses(point), name
        assert not hypotheses(point | {"params": tuned}), name
        for key in ("C", "eta"):
            assert not hypotheses(point | {"params": paper | {key: paper[key] * (1 + 1e-6)}}), (name, key)


def test_theorems_5_and_6_need_stochastic_constraints():
    """Theorems 5 and 6 are stated for stochastic constraints (lines 363, 393): an instance with an
    adversarial ρ is out of them; Theorem 7 and the violation rate it shares with Theorem 5 are not (the
    setting is no condition at their points: the claims name the adversarial regimes)."""
    adversarial = paper000_point() | {"rho_adversarial": 5.0}
    for name in ("theorem5_regret", "theorem5_violation", "theorem5_regret_rate"):
        assert BOUNDS[name].hypotheses(paper000_point()) and not BOUNDS[name].hypotheses(adversarial)
    for name in ("theorem7_regret", "theorem7_violation", "theorem5_violation_rate"):
        assert BOUNDS[name].hypotheses(adversarial)
    adversarial = paper000_point(rho=4.99) | {"rho_adversarial": 4.99}
    assert not BOUNDS["theorem6_regret"].hypotheses(adversarial)


@pytest.mark.parametrize(("covered", "holds"), [(1.0, True), (0.75, False), (0.0, False)])
def test_theorem3_speaks_where_every_epoch_covers_P(covered, holds):
    """Theorem 3 (line 305) bounds the regret against ∩_i Δ(𝒫_i), which holds the true occupancies Δ(M) the
    measured regret maximises over only where every epoch's set contains P (Lemma 5's E^Δ, lines 443–447): a
    seed without it (or a mean over seeds below 1, at an extrapolated point) is out."""
    for name in ("theorem3_primal_regret", "theorem3_interval_regret"):
        assert BOUNDS[name].hypotheses({"all_epochs_covered": covered}) is holds


def test_dual_regret_bounds_hold_at_their_own_step():
    """OGD's R^D_t(0) ≤ ηmL²t/2 (App. C.1.1) at App. C's η for `dual_regret_paper`, and at most the tuned
    η = D/(L√(mT)), D = min{L/ρ, √m T^{1/4}} = 0.2, for `dual_regret_tuned` (a smaller step has a smaller
    bound)."""
    point = paper000_point()
    eta = point["params"]["eta"]
    assert BOUNDS["dual_regret_paper"].hypotheses(point)
    assert not BOUNDS["dual_regret_paper"].hypotheses(point | {"params": {"eta": eta * 1.01}})
    tuned = 0.2 / math.sqrt(1280)
    for step, holds in ((tuned, True), (tuned / 2, True), (tuned * 1.01, False)):
        assert BOUNDS["dual_regret_tuned"].hypotheses(point | {"params": {"eta": step}}) is holds


def test_zeta_root_t_rate_is_at_the_horizon():
    """ζ√T (Theorem 5, lines 377–379) with ζ = 20mL²/ρ² = 80 at m = L = 1, ρ = 1/2: 800 at T = 100, whatever
    the checkpoint."""
    point = {"T": 100, "t": 25, "m": 1, "L": 1, "rho": 0.5}
    assert value("theorem5_regret_rate", point) == pytest.approx(800.0, rel=REL)


@pytest.mark.parametrize(("t", "expected"), [(100, 4.0), (1000, 20.0)])
def test_dual_ceiling_is_the_smaller_of_box_and_steps(t, expected):
    """min{mT^{1/4}, ηmLt} (Lemma 11 and App. C's box): m T^{1/4} = 20, ηmL t = 0.04 t."""
    point = {"m": 2, "T": 10_000, "L": 2, "t": t, "params": {"eta": 0.01}}
    for metric in ("lambda_l1_max", "lambda_l1"):
        assert theory.ceiling(metric, "pdgd_ops", point) == pytest.approx(expected, rel=REL)
    assert math.isnan(theory.ceiling("lambda_l1_max", "uc_o_gdps", point))
    assert math.isnan(theory.ceiling("violation", "pdgd_ops", point))


@pytest.mark.parametrize(("t", "expected"), [(1000, 0.5), (500, 0.0), (400, 0.0)])
def test_dual_clipped_ceiling(t, expected):
    """max{0, t − ⌊T^{1/4}/(ηL)⌋}/t: no clipping before episode T^{1/4}/(ηL) = 10/0.02 = 500."""
    point = {"T": 10_000, "L": 2, "t": t, "params": {"eta": 0.01}}
    assert theory.ceiling("dual_clipped", "pdgd_ops", point) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(
    ("L", "lambda_l1", "expected"), [(2, 0.0, 8.0), (2, 4.0, 8.0 - 1.96**2 / 0.02), (3, 0.0, 18.0)]
)
def test_dual_regret_ceiling(L, lambda_l1, expected):
    """ηmL²t/2 − max{0, ‖λ_t‖₁/√m − η√m L}²/(2η) (App. C.1.1): η = 0.01, m = 4, L = 2, t = 100 give 8 and,
    at ‖λ_t‖₁ = 4, a drift 2 − 0.04 = 1.96; L = 3 gives 18."""
    point = {"m": 4, "L": L, "t": 100, "T": 10_000, "lambda_l1": lambda_l1, "params": {"eta": 0.01}}
    assert theory.ceiling("dual_regret", "pdgd_ops", point) == pytest.approx(expected, rel=REL)


def test_trivial_bounds():
    """t for a bandit regret; 2Lℓ̄t for a primal regret; none (NaN) for ‖λ‖₁'s running maximum."""
    assert theory.trivial_bound(BOUNDS["theorem2_bound"], {"t": 50}) == 50.0
    assert math.isnan(theory.trivial_bound(BOUNDS["theorem4_zeta"], {"t": 50}))


def test_bounds_for_a_preset():
    """One list for every preset, or a mapping preset → list (a preset it does not name has none)."""
    regime = {"bounds": {"a": ["x", "y"], "b": {"paper": ["x"], "tuned": ["r"]}}}
    assert theory.bounds_for(regime, "a", "tuned") == ["x", "y"]
    assert theory.bounds_for(regime, "b", "tuned") == ["r"]
    assert theory.bounds_for(regime, "b", "other") == []


# ---- Paper 000's bounds (regretlab.cmdp.bounds): the η = 0 guard, the dual regret at each preset's η -----


def test_lemma14_violation_without_a_step_is_infinite():
    """‖λ_{t+1}‖₁/η + Σ‖q − q̂‖₁ bounds nothing at η = 0 (+∞, not an error)."""
    point = {"lambda_l1_max": 1.0, "dual_eta": 0.0, "q_error_l1": 2.0}
    assert value("lemma14_violation", point) == math.inf


def test_dual_regret_at_each_presets_eta_over_the_whole_run():
    """η m L² T/2 (lines 711–715) at T = 100, m = 1, L = 2: ``tuned`` η = D/(L√(mT)) with D = min{L/ρ,
    √m T^{1/4}} = √10 gives 10√10; the paper's η = 1/(100 m|X||A|√(T ln(T²/δ))) at |X||A| = 2, δ = 0.01
    gives 1/(10 √(ln 10⁶))."""
    tuned = cmdp_bounds.dual_regret_tuned(100, 1, 2, 0.5)
    assert tuned.value == pytest.approx(10 * math.sqrt(10), rel=REL)
    paper = cmdp_bounds.dual_regret_paper(100, 0.01, 1, 2, 2, 1)
    assert paper.value == pytest.approx(1 / (10 * math.sqrt(math.log(1e6))), rel=REL)


def test_every_cmdp_bound_says_whether_it_is_explicit_and_its_exponent():
    """Each :class:`~regretlab.cmdp.bounds.Bound` carries the paper's constants or not, and the theory
    exponent of T the module docstring lists (1/2 for the √T terms, 3/4 without Condition 2, 1 for
    Theorem 7's regret and reward, 0 for ζ and Lemma 14)."""
    T, delta, L, X, A, m, rho = 100, 0.01, 2, 6, 2, 1, 0.5
    b = cmdp_bounds
    cases = [
        (b.lemma2_Eq(T, delta, L, X, A), True, 0.5),
        (b.lemma3_Er(T, delta, L), True, 0.5),
        (b.lemma4_EG(T, delta, L), True, 0.5),
        (b.theorem4_zeta(m, L, rho), True, 0.0),
        (b.lemma14_violation(1.0, 0.1, 2.0), True, 0.0),
        (b.lemma16_violation(T, L, 0.1), True, 0.75),
        (b.dual_regret(T, 0.1, m, L), True, 0.5),
        (b.theorem3(T, delta, L, X, A, 1.0, 1.0, 1.0, T), True, 0.5),
        *((bound, True, 0.5) for bound in b.theorem5(T, delta, L, X, A, m, rho, True)),
        *((bound, True, 0.75) for bound in b.theorem6(T, delta, L, X, A, m, True)),
        *zip(b.theorem7(T, delta, L, X, A, m, rho, 1.0, True), [True] * 3, [1.0, 0.5, 1.0], strict=True),
        *zip(
            b.theorem7_corrected(T, delta, L, X, A, m, rho, 1.0, True),
            [True] * 3,
            [1.0, 0.5, 1.0],
            strict=True,
        ),
        (b.theorem5_rate(T, m, L, rho), False, 0.5),
        (b.theorem6_rate(T), False, 0.75),
    ]
    for index, (bound, explicit, exponent) in enumerate(cases):
        assert bound.explicit is explicit and bound.exponent == exponent, (index, bound)


def test_combined_hypotheses_read_every_condition_and_join_their_first_sentences():
    """`all_of` evaluates each condition (so the registry test sees every key read) and its docstring, which
    the bounds reference page prints, is theirs joined."""
    from regretlab.specs.bound_spec import all_of

    read = []

    def first(point):
        """First condition.

        More."""
        read.append("first")
        return False

    def second(point):
        """Second condition."""
        read.append("second")
        return True

    combined = all_of(first, second)
    assert combined({}) is False and read == ["first", "second"]
    assert combined.__doc__ == "First condition; Second condition."
