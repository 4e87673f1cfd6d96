"""Every explicit bound of :data:`regretlab.registry.theory.BOUNDS`, evaluated at written-out points and
compared with the value computed here, by hand, from the paper's display (``pytest.approx(rel=1e-12)``).

Paper 000 is ``/work/shared/papers/000_b51ceb31b9dd4f44.txt`` (constrained MDPs, PDGD-OPS), paper 001 is
``/work/shared/papers/001_f1c162a2b996ae63.txt`` (small-loss bounds with graph feedback); "line N" is a line
of that file. The expected values are written out with ``math`` from the displays, never with the library's
bound functions. Where the code's formula is a documented choice rather than the display (e.g. Exp3.G-weak's
bound, derived here; Theorems 5–7's R^P_T made explicit with Theorem 3), the documented formula is written out
and the place it is documented is cited.

Each point is chosen so that every term of the display moves the total by far more than the tolerance
(:func:`assert_by_hand` checks it), so that dropping a log factor or halving a constant of any term fails.
:func:`test_every_explicit_bound_has_a_hand_case` fails, naming the bound, when an explicit bound of the
registry has no case here.
"""

import math

import pytest

from regretlab.cmdp import bounds as cmdp_bounds
from regretlab.registry.theory import BOUNDS

REL = 1e-12

#: The smallest share of the total a term may have: a thousand times the tolerance, so that halving it (or
#: dropping its log factor) moves the total by far more than ``REL``.
MIN_SHARE = 1e3 * REL

#: Bound name → the test that pins it by hand (filled by :func:`by_hand`).
HAND_CASES: dict[str, str] = {}


def by_hand(*names: str):
    """Registers ``names`` as pinned by the decorated test and runs the test once per name (argument
    ``name``): bounds that share one function (e.g. Theorem 8 at γ = 1/3 and 1/2) share one hand case."""

    def decorate(test):
        for name in names:
            assert name not in HAND_CASES, f"{name} has two hand cases"
            HAND_CASES[name] = test.__name__
        return pytest.mark.parametrize("name", names)(test)

    return decorate


def assert_by_hand(name: str, point: dict, terms: list[float]) -> None:
    """``BOUNDS[name]`` at ``point`` is the sum of the hand-computed ``terms`` (the display's summands), and
    each summand is at least :data:`MIN_SHARE` of the total."""
    total = math.fsum(terms)
    for index, term in enumerate(terms):
        assert abs(term) >= MIN_SHARE * abs(total), f"{name}: term {index} ({term}) is negligible at {point}"
    assert BOUNDS[name].evaluate(point) == pytest.approx(total, rel=REL), name


def test_every_explicit_bound_has_a_hand_case():
    """A bound added to the registry with the paper's (or derived) constants, of either kind (bandit or
    CMDP), must come with a case here; so must an explicit reference line (λ*, the dual box)."""
    missing = [name for name, spec in BOUNDS.items() if spec.explicit and name not in HAND_CASES]
    assert not missing, f"explicit bounds without a hand case in {__name__}: {missing}"
    stale = sorted(set(HAND_CASES) - set(BOUNDS))
    assert not stale, f"hand cases for bounds no longer registered: {stale}"


# ------------------------------------------------------------------------------------------------------------
# Paper 001, Section 3: strongly observable graphs (Theorems 2 and 3, explicit in their proofs).
# ------------------------------------------------------------------------------------------------------------


@by_hand("theorem2_bound")
def test_theorem2_bound_equals_line_414_display(name):
    """Paper 001 line 414 (last display of the proof of Theorem 2):
    ln K/η + cK ln T + 32ηαT ln(4KT/α) + 16ηT + K, at K = 4, α = 2, T = 1000, η = 0.01, c = 64K = 256."""
    K, alpha, T, eta, c = 4, 2, 1000, 0.01, 256.0
    point = {"K": K, "alpha": alpha, "T": T, "params": {"eta": eta, "c": c}}
    terms = [
        math.log(K) / eta,  # 138.63
        c * K * math.log(T),  # 7073.54
        32 * eta * alpha * T * math.log(4 * K * T / alpha),  # 5751.81
        16 * eta * T,  # 160
        K,
    ]
    assert_by_hand(name, point, terms)
    assert math.fsum(terms) == pytest.approx(13127.98, abs=0.01)


@by_hand("theorem3_bound")
def test_theorem3_bound_equals_line_480_display(name):
    """Paper 001 line 480 (proof of Theorem 3): (1/(1 − 16η))((s ln T + ln K)/η + cK ln T + K + 16ηL*), at
    K = 4, s = 3, T = 1000, L* = 50, c = 256, η = 1/(64K) = 1/256 (1 − 16η = 15/16); +∞ where η ≥ 1/16, where
    the proof's division by 1 − 16η bounds nothing (documented in ``theorem3_bound``'s docstring)."""
    K, s, T, l_star, c, eta = 4, 3, 1000, 50.0, 256.0, 1 / 256
    point = {"K": K, "s": s, "T": T, "L_star": l_star, "params": {"eta": eta, "c": c}}
    scale = 1 / (1 - 16 * eta)
    terms = [
        scale * s * math.log(T) / eta,
        scale * math.log(K) / eta,
        scale * c * K * math.log(T),
        scale * K,
        scale * 16 * eta * l_star,
    ]
    assert_by_hand(name, point, terms)
    assert math.isinf(BOUNDS[name].evaluate({**point, "params": {"eta": 1 / 16, "c": 4.0}}))


# ------------------------------------------------------------------------------------------------------------
# Paper 001, Section 4: weakly observable graphs (Exp3.G-weak, Theorems 7 and 8) and Theorem 5's lower bound.
# ------------------------------------------------------------------------------------------------------------


@by_hand("exp3g_weak_bound", "exp3g_weak_bound_best_S", "exp3g_weak_bound_best_Sbar")
def test_exp3g_weak_bound_equals_the_bound_derived_in_choices_paper001(name):
    """Exp3.G-weak (paper 001 line 204 cites only its Θ̃(d^{1/3}T^{2/3})): the bound derived here,
    docs/choices-paper001.md ("Exp3.G on weakly observable graphs"), Reg_k ≤ γT + ln K/η + (ηT/2)(d/γ +
    s/(1 − γ)), at T = 1000, K = 6, d = 2, s = 3, γ = 0.2, η = 0.02; it bounds the regret to every arm, so the
    same value for all three."""
    T, K, d, s, gamma, eta = 1000, 6, 2, 3, 0.2, 0.02
    point = {"T": T, "K": K, "d": d, "s": s, "params": {"gamma": gamma, "eta": eta}}
    terms = [
        gamma * T,  # 200
        math.log(K) / eta,  # 89.6
        eta * T / 2 * d / gamma,  # 100
        eta * T / 2 * s / (1 - gamma),  # 37.5
    ]
    assert_by_hand(name, point, terms)
    assert "derived here" in BOUNDS[name].constants


@by_hand("theorem7_best_S")
def test_theorem7_best_S_bound_equals_line_250_display(name):
    """Paper 001 line 250 (Theorem 7), i ∈ S: s ln T/η + 2ηL_i + 2s at i = i*_S, with s = 3, T = 5000,
    η = 0.1, η̄ = 0.01 (Theorem 7's η ≤ 1/5, η̄ ≤ 1/25 hold), L_{i*_S} = 400."""
    s, T, eta, l_best = 3, 5000, 0.1, 400.0
    point = {"s": s, "K": 7, "T": T, "eta": eta, "eta_bar": 0.01, "L_best_S": l_best}
    terms = [s * math.log(T) / eta, 2 * eta * l_best, 2 * s]  # 255.5, 80, 6
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


@by_hand("theorem7_best_S_corrected")
def test_theorem7_best_S_corrected_adds_one_half_over_eta_bar(name):
    """docs/findings.md, finding 1: line 250's display plus the (1/η̄)·Σ_{S̄} p_{1,j} = 1/(2η̄) its proof drops,
    at the point of the case above (η̄ = 0.01: + 50)."""
    s, T, eta, eta_bar, l_best = 3, 5000, 0.1, 0.01, 400.0
    point = {"s": s, "K": 7, "T": T, "eta": eta, "eta_bar": eta_bar, "L_best_S": l_best}
    terms = [s * math.log(T) / eta, 1 / (2 * eta_bar), 2 * eta * l_best, 2 * s]  # 255.5, 50, 80, 6
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


@by_hand("lemma9_step_ratio")
def test_lemma9_bounds_the_log_step_ratio_by_ln_2_where_c_is_64K(name):
    """Paper 001 line 280 (Lemma 9): ½p_t ≼ p_{t+1} ≼ 2p_t, i.e. |ln(p_{t+1,i}/p_{t,i})| ≤ ln 2, under Lemma
    10's C₁ = 64K (line 308): the hypothesis holds at c = 64K = 448 (K = 7), fails at the tuned c = K."""
    assert_by_hand(name, {"K": 7, "params": {"c": 448.0}}, [math.log(2)])
    assert BOUNDS[name].hypotheses({"K": 7, "params": {"c": 448.0}})
    assert not BOUNDS[name].hypotheses({"K": 7, "params": {"c": 7.0}})


@by_hand("theorem7_best_Sbar")
def test_theorem7_best_Sbar_bound_equals_line_250_display_with_the_proofs_line_1055_term(name):
    """Paper 001 line 250 (Theorem 7), i ∈ S̄: 2s ln T/η + 2 ln K/η̄ + 2√η̄ L_{i*_S} + 2√η̄ L_i + 2s, with the
    statement's 2 ln K/η̄ replaced by the proof's ln(2s̄)/η̄ (eq. (22), line 1055; line 1071 loosens it by
    ln(2s̄) ≤ 2 ln K): the choice documented in docs/choices-paper001.md ("Theorem 7's S̄ bound"). At s = 3,
    s̄ = 4, T = 5000, η = 0.1, η̄ = 0.01, L_{i*_S} = 400 and L_i = 300 for the best arm i of S̄."""
    s, s_bar, T, eta, eta_bar, l_best_s, l_best_sbar = 3, 4, 5000, 0.1, 0.01, 400.0, 300.0
    point = {
        "s": s,
        "s_bar": s_bar,
        "K": s + s_bar,
        "T": T,
        "eta": eta,
        "eta_bar": eta_bar,
        "L_best_S": l_best_s,
        "L_best_Sbar": l_best_sbar,
    }
    terms = [
        2 * s * math.log(T) / eta,  # 511.0
        math.log(2 * s_bar) / eta_bar,  # 207.9
        2 * math.sqrt(eta_bar) * l_best_s,  # 80
        2 * math.sqrt(eta_bar) * l_best_sbar,  # 60
        2 * s,
    ]
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


@by_hand("theorem8_best_S_third", "theorem8_best_S_half")
def test_theorem8_best_S_bound_equals_line_264_display(name):
    """Paper 001 line 264 (Theorem 8), i ∈ S: 2s ln T/η + 2ηL_i + 2δdL_D + 2s at i = i*_S, with s = 2, d = 3,
    T = 10⁴, η = 1/25, δ = 0.005, η̄ = 0.0008 ≤ δ^{4/3} (line 262's conditions hold), L_{i*_S} = 300,
    L_D = 2000. γ only sets the run's δ, η, η̄, so both γ share the case."""
    s, d, T, eta, delta, l_best, l_d = 2, 3, 10_000, 0.04, 0.005, 300.0, 2000.0
    point = {"s": s, "K": 7, "d": d, "T": T, "eta": eta, "eta_bar": 0.0008, "delta": delta}
    point |= {"L_best_S": l_best, "L_D": l_d}
    terms = [2 * s * math.log(T) / eta, 2 * eta * l_best, 2 * delta * d * l_d, 2 * s]  # 921, 24, 60, 4
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


@by_hand("theorem8_best_S_corrected")
def test_theorem8_best_S_corrected_adds_one_half_over_eta_bar(name):
    """docs/findings.md, finding 1: line 264's display plus the 1/(2η̄) its proof drops, at the point of the
    case above (η̄ = 0.0008: + 625)."""
    s, d, T, eta, delta, eta_bar, l_best, l_d = 2, 3, 10_000, 0.04, 0.005, 0.0008, 300.0, 2000.0
    point = {"s": s, "K": 7, "d": d, "T": T, "eta": eta, "eta_bar": eta_bar, "delta": delta}
    point |= {"L_best_S": l_best, "L_D": l_d}
    terms = [2 * s * math.log(T) / eta, 1 / (2 * eta_bar), 2 * eta * l_best, 2 * delta * d * l_d, 2 * s]
    assert_by_hand(name, point, terms)  # 921, 625, 24, 60, 4
    assert BOUNDS[name].hypotheses(point)


@by_hand("theorem8_best_Sbar_third", "theorem8_best_Sbar_half")
def test_theorem8_best_Sbar_bound_equals_line_264_display(name):
    """Paper 001 line 264 (Theorem 8), i ∈ S̄: s ln T/η + ln(2s̄)/η̄ + 2η̄L_i/δ + 2δdL_D + 2s at the best arm i of
    S̄ (the proof's last display, line 1307, is the same), with s = 2, s̄ = 5, d = 3, T = 10⁴, η = 1/25,
    δ = 0.005, η̄ = 0.0008 ≤ δ^{4/3}, L_i = 500, L_D = 2000."""
    s, s_bar, d, T, eta, eta_bar, delta = 2, 5, 3, 10_000, 0.04, 0.0008, 0.005
    l_best_sbar, l_d = 500.0, 2000.0
    point = {"s": s, "s_bar": s_bar, "K": s + s_bar, "d": d, "T": T, "eta": eta, "eta_bar": eta_bar}
    point["delta"] = delta
    point |= {"L_best_Sbar": l_best_sbar, "L_D": l_d}
    terms = [
        s * math.log(T) / eta,  # 460.5
        math.log(2 * s_bar) / eta_bar,  # 2878.2
        2 * eta_bar * l_best_sbar / delta,  # 160
        2 * delta * d * l_d,  # 60
        2 * s,
    ]
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


@by_hand("theorem5_proof_lower")
def test_theorem5_proof_lower_bound_equals_the_proofs_lines_955_957_argument(name):
    """Paper 001 Theorem 5 (line 208), proof App. E.1 (lines 955–957), whose Ω(T^{1−ε} − N_v) − L* carries no
    explicit constant: the constants of its own steps as written out in docs/choices-paper001.md
    ("Theorem 5") — |I|/2 (no bad pull in I w.p. ≥ 1/2, Markov) − T^b ℓ̂_I (pulls of v, each costing T^{−b} on
    environment 1) − min{|I|, T^{1−b}} (L* on environment 2), |I| = T^{1−ε̂}. At T = 10⁶, b = 1/2, ε̂ = 0.2,
    ℓ̂_I = 0.3, where the premise ε̂ < b < 1 − 2ε̂ (line 953) and ℓ̂_I < 1/2 (line 955) hold."""
    T, b, epsilon, loss = 1_000_000, 0.5, 0.2, 0.3
    point = {"T": T, "b": b, "theorem5_environment": 2}
    point |= {"theorem5_epsilon": epsilon, "theorem5_interval_loss": loss}
    interval = T ** (1 - epsilon)  # 63095.7
    terms = [interval / 2, -(T**b) * loss, -min(interval, T ** (1 - b))]  # 31547.9, −300, −1000
    assert_by_hand(name, point, terms)
    assert BOUNDS[name].hypotheses(point)


# ------------------------------------------------------------------------------------------------------------
# Paper 000: the error terms, ζ and App. C's η and C, written out from the paper's displays.
# ------------------------------------------------------------------------------------------------------------


def E_r(T: int, delta: float, L: int) -> float:
    """Paper 000 line 343 (Lemma 3): E^r_δ = (L/√2) √(T ln(2/δ))."""
    return L / math.sqrt(2) * math.sqrt(T * math.log(2 / delta))


def E_G(T: int, delta: float, L: int) -> float:
    """Paper 000 line 353 (Lemma 4): E^G_δ = E^G_{1,T,δ} = 2L √(2T ln(T²/δ))."""
    return 2 * L * math.sqrt(2 * T * math.log(T**2 / delta))


def E_q_terms(T: int, delta: float, L: int, X: int, A: int, t: int | None = None) -> list[float]:
    """Paper 000 line 453 (Lemma 2): E^q_δ = 4L|X|√(2T ln(1/δ)) + 6L|X|√(2T|A| ln(T|X||A|/δ)), its two terms.
    ``t``: the partial sum over [1..t] of a horizon-T run, √(2t …) with the log kept at T, that of the run's
    confidence radii (line 229): the reading of ``cmdp.bounds.lemma2_Eq``'s docstring and of
    ``BoundSpec.at_checkpoint`` ("``t`` for the length and ``T`` for the horizon's constants")."""
    n = T if t is None else t
    return [
        4 * L * X * math.sqrt(2 * n * math.log(1 / delta)),
        6 * L * X * math.sqrt(2 * n * A * math.log(T * X * A / delta)),
    ]


def zeta(m: int, L: int, rho: float) -> float:
    """Paper 000 line 319 (Theorem 4): ζ = 20mL²/ρ²."""
    return 20 * m * L**2 / rho**2


def eta_paper(T: int, delta: float, m: int, X: int, A: int) -> float:
    """Paper 000 line 977 (App. C.2): η = 1/(100m|X||A| √(T ln(T²/δ)))."""
    return 1 / (100 * m * X * A * math.sqrt(T * math.log(T**2 / delta)))


def theorem3_terms(T, delta, L, X, A, C, ell_interval, ell_t2, length) -> list[float]:
    """Paper 000 line 305 (Theorem 3): R^P_{t1,t2}(q) ≤ ℓ̄_{t1,t2}E^q_δ + ℓ̄_{t2}LC√T + ℓ̄_{t1,t2}(|X||A|/2)
    (t2 − t1 + 1)/(C√T), its summands (E^q_δ's two)."""
    return [
        *(ell_interval * term for term in E_q_terms(T, delta, L, X, A)),
        ell_t2 * L * C * math.sqrt(T),
        ell_interval * X * A / 2 * length / (C * math.sqrt(T)),
    ]


def primal_regret_terms(T, delta, L, X, A, lam_max) -> list[float]:
    """R^P_T of Theorems 5–7 made explicit (docs/choices-paper000.md, "R^P_T made explicit"): Theorem 3 (line
    305) on [1..T] at App. C's C = 5|X||A|/L (line 959, U_2 = |X||A| of line 949) with ℓ̄_T ≤ 1 + λ_{1,T} (line
    751), λ_{1,T} ≤ ``lam_max``."""
    C = 5 * X * A / L
    return theorem3_terms(T, delta, L, X, A, C, 1 + lam_max, 1 + lam_max, T)


def dual_regret_at_zero(eta: float, m: int, L: int, t: int) -> float:
    """Paper 000 lines 705–715 (App. C.1.1) with λ_1 = 0 and λ = 0: R^D_{1,t}(0) ≤ 0/(2η) + (η/2) t mL²."""
    return eta * m * L**2 * t / 2


# Two CMDP points: (a) stochastic rewards, L = 2, |X| = 5, |A| = 3, m = 2, ρ = 4 (ζ = 10); (b) adversarial
# rewards, L = 3, |X| = 7, |A| = 2, m = 1, ρ = 2.5 (ζ = 28.8). The bounds do not check that |X| fits L layers.
POINT_A = {"T": 400, "t": 400, "delta": 0.05, "L": 2, "n_states": 5, "n_actions": 3, "m": 2, "rho": 4.0}
POINT_A |= {"opt": 1.2, "stochastic_rewards": True}
POINT_B = {"T": 900, "t": 900, "delta": 0.2, "L": 3, "n_states": 7, "n_actions": 2, "m": 1, "rho": 2.5}
POINT_B |= {"opt": 2.1, "stochastic_rewards": False}


def cmdp_numbers(point: dict) -> tuple:
    return point["T"], point["delta"], point["L"], point["n_states"], point["n_actions"], point["m"]


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem5_regret")
def test_theorem5_regret_bound_equals_lines_365_371_displays(name, point):
    """Paper 000 lines 365 (adversarial rewards) and 371 (stochastic): R_T ≤ [E^r_δ] + ζE^G_δ + ζE^q_δ +
    R^D_T(0) + R^P_T(q*), with R^D_T(0) and R^P_T made explicit at App. C's η and C, λ ≤ ζ (Theorem 4)."""
    T, delta, L, X, A, m = cmdp_numbers(point)
    z = zeta(m, L, point["rho"])
    terms = [
        z * E_G(T, delta, L),
        *(z * term for term in E_q_terms(T, delta, L, X, A)),
        dual_regret_at_zero(eta_paper(T, delta, m, X, A), m, L, T),
        *primal_regret_terms(T, delta, L, X, A, z),
    ]
    if point["stochastic_rewards"]:
        terms.append(E_r(T, delta, L))
    assert_by_hand(name, point, terms)


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem5_violation", "theorem7_violation")
def test_theorem5_and_7_violation_bounds_equal_lines_367_373_423_429_displays(name, point):
    """Paper 000 lines 367/373 (Theorem 5) and 423/429 (Theorem 7), the same display: V_T ≤ ζ/η + E^q_δ at
    App. C's η (line 977)."""
    T, delta, L, X, A, m = cmdp_numbers(point)
    terms = [zeta(m, L, point["rho"]) / eta_paper(T, delta, m, X, A), *E_q_terms(T, delta, L, X, A)]
    assert_by_hand(name, point, terms)


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem6_regret")
def test_theorem6_regret_bound_equals_lines_395_401_displays(name, point):
    """Paper 000 lines 395 (adversarial rewards) and 401 (stochastic): R_T ≤ [E^r_δ] + mT^{1/4}E^G_δ +
    mT^{1/4}E^q_δ + R^D_T(0) + R^P_T(q*), R^P_T with λ ≤ mT^{1/4} (the box, line 1140's mV^{1/4} read as
    mT^{1/4}: docs/choices-paper000.md, "R^P_T made explicit")."""
    T, delta, L, X, A, m = cmdp_numbers(point)
    lam = m * T**0.25
    terms = [
        lam * E_G(T, delta, L),
        *(lam * term for term in E_q_terms(T, delta, L, X, A)),
        dual_regret_at_zero(eta_paper(T, delta, m, X, A), m, L, T),
        *primal_regret_terms(T, delta, L, X, A, lam),
    ]
    if point["stochastic_rewards"]:
        terms.append(E_r(T, delta, L))
    assert_by_hand(name, point, terms)


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem6_violation")
def test_theorem6_violation_bound_equals_lines_397_403_display(name, point):
    """Paper 000 lines 397/403 (Theorem 6): V_T ≤ (2 + 2L)(1/η)T^{1/4} + E^q_δ at App. C's η (line 977)."""
    T, delta, L, X, A, m = cmdp_numbers(point)
    terms = [(2 + 2 * L) * T**0.25 / eta_paper(T, delta, m, X, A), *E_q_terms(T, delta, L, X, A)]
    assert_by_hand(name, point, terms)


def theorem7_regret_terms(point: dict, share: float) -> list[float]:
    """Paper 000 lines 421/427 (Theorem 7) with ``share`` of T·OPT: [E^r_δ] + ζE^q_δ + R^D_T(0) + R^P_T(q̃)
    (explicit as in Theorem 5, λ ≤ ζ)."""
    T, delta, L, X, A, m = cmdp_numbers(point)
    z = zeta(m, L, point["rho"])
    terms = [
        share * T * point["opt"],
        *(z * term for term in E_q_terms(T, delta, L, X, A)),
        dual_regret_at_zero(eta_paper(T, delta, m, X, A), m, L, T),
        *primal_regret_terms(T, delta, L, X, A, z),
    ]
    if point["stochastic_rewards"]:
        terms.append(E_r(T, delta, L))
    return terms


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem7_regret")
def test_theorem7_regret_bound_equals_lines_421_427_displays(name, point):
    """Paper 000 lines 421 (adversarial rewards) and 427 (stochastic): R_T ≤ T·OPT/(1+ρ) + [E^r_δ] + ζE^q_δ +
    R^D_T(0) + R^P_T(q̃)."""
    assert_by_hand(name, point, theorem7_regret_terms(point, 1 / (1 + point["rho"])))


@pytest.mark.parametrize("point", [POINT_A, POINT_B], ids=["stochastic_rewards", "adversarial_rewards"])
@by_hand("theorem7_regret_corrected")
def test_theorem7_corrected_regret_bound_equals_lines_421_427_with_line_1248_corrected(name, point):
    """Paper 000 lines 421/427 with the proof's line 1248 corrected to [G_tᵀq*]_i ≤ L: the T·OPT/(1+ρ) term
    becomes L·T·OPT/(L+ρ), the rest unchanged (docs/choices-paper000.md, "Theorem 7's reward ratio")."""
    assert_by_hand(name, point, theorem7_regret_terms(point, point["L"] / (point["L"] + point["rho"])))


@by_hand("theorem4_zeta")
def test_theorem4_zeta_equals_line_319(name):
    """Paper 000 line 319 (Theorem 4): ζ = 20mL²/ρ² (m = 2, L = 2, ρ = 4: 10; m = 1, L = 3, ρ = 2.5: 28.8)."""
    for point, expected in ((POINT_A, 20 * 2 * 2**2 / 4.0**2), (POINT_B, 20 * 1 * 3**2 / 2.5**2)):
        assert BOUNDS[name].evaluate(point) == pytest.approx(expected, rel=REL)


@pytest.mark.parametrize("t", [150, 400], ids=["checkpoint", "horizon"])
@by_hand("lemma2_q_error")
def test_lemma2_q_error_bound_equals_line_453_display(name, t):
    """Paper 000 line 453 (Lemma 2): E^q_δ = 4L|X|√(2T ln(1/δ)) + 6L|X|√(2T|A| ln(T|X||A|/δ)) at t = T; at a
    checkpoint t < T the √ counts the t episodes summed and the log keeps the radii's T (line 229;
    docs/choices-paper000.md, "Trajectory bounds at t")."""
    point = {**POINT_A, "t": t}
    T, delta, L, X, A, _ = cmdp_numbers(point)
    assert_by_hand(name, point, E_q_terms(T, delta, L, X, A, t=t))


@pytest.mark.parametrize("t", [150, 400], ids=["checkpoint", "horizon"])
@by_hand("dual_regret_paper")
def test_dual_regret_paper_bound_equals_lines_705_715_at_line_977s_eta(name, t):
    """Paper 000 lines 705–715 (App. C.1.1, OGD, λ_1 = 0): R^D_{1,t}(0) ≤ (η/2) Σ_τ ||G_τᵀq̂_τ||² ≤ ηmL²t/2, at
    App. C's η of the horizon T (line 977: 1/(100m|X||A|√(T ln(T²/δ))))."""
    point = {**POINT_A, "t": t}
    T, delta, L, X, A, m = cmdp_numbers(point)
    eta = 1 / (100 * m * X * A * math.sqrt(T * math.log(T**2 / delta)))
    assert_by_hand(name, point, [eta * m * L**2 * t / 2])


@pytest.mark.parametrize(
    ("rho", "radius"),
    [(4.0, 2 / 4.0), (0.01, math.sqrt(2) * 400**0.25)],
    ids=["slater_radius_L_over_rho", "box_diameter"],
)
@by_hand("dual_regret_tuned")
def test_dual_regret_tuned_bound_equals_lines_705_715_at_the_tuned_eta(name, rho, radius):
    """Paper 000 lines 705–715 (App. C.1.1; any η): R^D_{1,t}(0) ≤ ηmL²t/2 at the ``tuned`` preset's
    η = D/(L√(mT)), D = min{L/ρ, √m T^{1/4}} (docs/choices-paper000.md, "`tuned`"; the bound's
    ``constants``). m = 2, L = 2, T = 400, t = 150: D = L/ρ = 1/2 at ρ = 4, the box's √2·400^{1/4} at
    ρ = 0.01."""
    point = {**POINT_A, "t": 150, "rho": rho}
    m, L, T, t = 2, 2, 400, 150
    eta = radius / (L * math.sqrt(m * T))
    assert_by_hand(name, point, [eta * m * L**2 * t / 2])
    assert "tuned" in BOUNDS[name].constants


@by_hand("theorem3_primal_regret")
def test_theorem3_primal_regret_bound_equals_line_305_display_on_the_whole_horizon(name):
    """Paper 000 line 305 (Theorem 3) with t1 = 1, t2 = T: ℓ̄_T E^q_δ + ℓ̄_T LC√T + ℓ̄_T (|X||A|/2) T/(C√T), at
    the run's C = 1.7 and ℓ̄_T = 3.5 (Theorem 3 holds for any C)."""
    point = {**POINT_A, "C": 1.7, "ell_bar": 3.5}
    T, delta, L, X, A, _ = cmdp_numbers(point)
    assert_by_hand(name, point, theorem3_terms(T, delta, L, X, A, 1.7, 3.5, 3.5, T))


@by_hand("theorem3_interval_regret")
def test_theorem3_interval_regret_ratio_bound_is_one_over_line_305s_interval_display(name):
    """Paper 000 line 305 (Theorem 3) on a sub-interval: the registered bound is 1 on the metric
    R^P_{t1,t2}/(Theorem 3's right-hand side), which the runs divide by ``cmdp.bounds.theorem3`` (pinned to
    the simulator's in tests/cmdp/test_cmdp_simulate.py); here that right-hand side by hand on an interval
    of 64 episodes with ℓ̄_{t1,t2} = 2 ≠ ℓ̄_{t2} = 3.5, C = 1.7."""
    assert BOUNDS[name].evaluate(POINT_A) == 1.0
    T, delta, L, X, A, _ = cmdp_numbers(POINT_A)
    terms = theorem3_terms(T, delta, L, X, A, 1.7, 2.0, 3.5, 64)
    assert all(abs(term) >= MIN_SHARE * math.fsum(terms) for term in terms)
    value = cmdp_bounds.theorem3(T, delta, L, X, A, 1.7, 2.0, 3.5, 64).value
    assert value == pytest.approx(math.fsum(terms), rel=REL)


@by_hand("lemma5_all_epochs_covered")
def test_lemma5_coverage_bound_is_one_minus_delta_of_line_447(name):
    """Paper 000 line 447 (Lemma 5, line 548): the event E^Δ(δ) holds with probability at least 1 − δ."""
    assert BOUNDS[name].evaluate(POINT_A) == pytest.approx(1 - 0.05, rel=REL)
    assert BOUNDS[name].evaluate(POINT_B) == pytest.approx(1 - 0.2, rel=REL)


@by_hand("theorem4_dual_never_clipped")
def test_theorem4_dual_never_clipped_bound_is_zero_by_line_315(name):
    """Paper 000 line 315 (§6) with Theorem 4 (line 319): under Condition 2 ||λ_t||₁ ≤ ζ ≤ T^{1/4}, the dual
    never touches the boundary of [0, T^{1/4}]^m, so the share of clipped episodes is at most 0."""
    assert BOUNDS[name].evaluate(POINT_A) == 0.0


@by_hand("lemma14_violation")
def test_lemma14_violation_bound_is_the_multiplier_over_eta_plus_the_occupancy_error(name):
    """Paper 000 Lemma 14 (line 1017): λ_{t+1,i} ≥ η V̂_{t,i} while the box does not clip, with Lemma 15's
    Hölder step (line 1037): V_t ≤ V̂_{t,i*} + Σ‖q_τ − q̂_τ‖₁ ≤ max_τ ‖λ_τ‖₁ / η + Σ‖q_τ − q̂_τ‖₁, at the run's
    η = 2·10⁻⁴, max ‖λ‖₁ = 0.05 and Σ‖q − q̂‖₁ = 120."""
    point = {"lambda_l1_max": 0.05, "dual_eta": 2e-4, "q_error_l1": 120.0, "dual_clipped": 0.0}
    assert_by_hand(name, point, [0.05 / 2e-4, 120.0])
    assert BOUNDS[name].hypotheses(point) and not BOUNDS[name].hypotheses({**point, "dual_clipped": 0.01})


@by_hand("lemma14_dual")
def test_lemma14_dual_bound_is_the_multiplier_over_eta(name):
    """Paper 000 Lemma 14 (line 1017): λ_{t+1,i} ≥ η V̂_{t,i} while the box does not clip, so the recorded
    shortfall max_i (ηV̂_{t,i} − λ_{t+1,i}) is at most 0, plus 10⁻⁹ max ‖λ‖₁ = 5·10⁻¹¹ for rounding."""
    point = {"lambda_l1_max": 0.05, "dual_clipped": 0.0}
    assert BOUNDS[name].evaluate(point) == pytest.approx(5e-11, rel=1e-12)
    assert BOUNDS[name].hypotheses(point) and not BOUNDS[name].hypotheses({**point, "dual_clipped": 0.01})


@by_hand("lemma16_violation")
def test_lemma16_violation_bound_equals_line_1120_plus_the_occupancy_error(name):
    """Paper 000 Lemma 16 (line 1120): V̂_{T,i} ≤ (2 + 2L) T^{1/4} / η, plus Lemma 15's measured Σ‖q − q̂‖₁
    (line 1037), at L = 3, T = 10⁴ (T^{1/4} = 10), η = 10⁻³ and Σ‖q − q̂‖₁ = 500."""
    point = {"T": 10_000, "t": 10_000, "L": 3, "dual_eta": 1e-3, "q_error_l1": 500.0}
    assert_by_hand(name, point, [(2 + 2 * 3) * 10 / 1e-3, 500.0])


# ------------------------------------------------------------------------------------------------------------
# Paper 000: the reference lines drawn with the dual's multiplier (explicit, compared with nothing).
# ------------------------------------------------------------------------------------------------------------


@by_hand("dual_box")
def test_dual_box_line_is_m_times_the_fourth_root_of_T_by_algorithm2_line_3(name):
    """Paper 000 Algorithm 2 line 3: 𝒟 = [0, T^{1/4}]^m, whose corner has ‖λ‖₁ = m T^{1/4}: 2 · 10 at
    T = 10⁴, m = 2; 3 · 3 at T = 81, m = 3."""
    assert BOUNDS[name].evaluate({"T": 10_000, "t": 500, "m": 2}) == pytest.approx(20.0, rel=REL)
    assert BOUNDS[name].evaluate({"T": 81, "t": 81, "m": 3}) == pytest.approx(9.0, rel=REL)


@by_hand("lambda_star")
def test_lambda_star_line_is_the_instances_offline_multiplier(name):
    """The dual of the LP (5) (paper 000 line 109) is solved once per instance and horizon and recorded as
    ``lambda_star_l1``: the line draws that number as it is."""
    assert BOUNDS[name].evaluate({"T": 10_000, "t": 10_000, "lambda_star_l1": 0.375}) == 0.375
