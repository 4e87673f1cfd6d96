"""Regret bounds of paper 001, one function per theorem, evaluated on a point's numbers.

Each function takes a dict with the horizon ``T``, the run's ``L_star``, the instance's graph numbers
(``K``, ``alpha``, ``kappa``, ``s``, …) and, under ``params``, the constants the learner ran with (η, c …,
as it reports them). Where a proof states its constants (Theorems 2 and 3) the function returns that bound at
the run's η and c; where the paper gives only Õ(·) (Exp3.G, Theorems 4, 13 and 14) it returns the rate with
unit constant; :mod:`regretlab.registry.theory` records which is which.
"""

from __future__ import annotations

import math


def exp3g_rate(numbers: dict) -> float:
    """√(α T ln K): the Õ(√(αT)) rate of Exp3.G (paper 001, §3.1; Alon et al., 2015), unit constant."""
    return math.sqrt(numbers["alpha"] * numbers["T"] * math.log(numbers["K"]))


def theorem2_rate(numbers: dict) -> float:
    """√(αT) + K²: Theorem 2's Õ(1/η + ηαT + K²) at η = 1/√(αT) (paper 001, §3.1), unit constants."""
    return math.sqrt(numbers["alpha"] * numbers["T"]) + numbers["K"] ** 2


def theorem3_eta(numbers: dict) -> float:
    """η = min{√((s+1)/L*), 1/(64K)}: Theorem 3's oracle tuning (the cap alone when L* = 0)."""
    cap = 1.0 / (64 * numbers["K"])
    return min(math.sqrt((numbers["s"] + 1) / numbers["L_star"]), cap) if numbers["L_star"] > 0 else cap


def theorem3_rate(numbers: dict) -> float:
    """(s ln T + ln K)/η + ηL* + K² ln T at Theorem 3's η (paper 001, §3.2), unit constants."""
    eta, log_t = theorem3_eta(numbers), math.log(numbers["T"])
    return (
        (numbers["s"] * log_t + math.log(numbers["K"])) / eta
        + eta * numbers["L_star"]
        + numbers["K"] ** 2 * log_t
    )


def theorem14_rate(numbers: dict) -> float:
    """min{√(αT), √(κL*)} + K²: Theorem 14's bound for Algorithm 5 (paper 001, App. D), unit constants."""
    root_alpha_t = math.sqrt(numbers["alpha"] * numbers["T"])
    return min(root_alpha_t, math.sqrt(numbers["kappa"] * numbers["L_star"])) + numbers["K"] ** 2


def algorithm1_rate(numbers: dict) -> float:
    """(κ ln T + ln K)/η + ηL* + β² ln T, β = κ + s̄ (paper 001, §3.3, Theorem 4), unit constants, at the η the
    run used (``numbers["params"]["eta"]``; ``paper``: Theorem 4's min{η_max, √((κ+1)/L*)}, η_max =
    min{1/(64β), 1/(1000 ln T ln²(KT))}; ``tuned``: η_max = 1/β,
    :func:`regretlab.bandits.algorithm1.eta_cap`)."""
    kappa, n_arms, horizon, l_star = numbers["kappa"], numbers["K"], numbers["T"], numbers["L_star"]
    beta = kappa + numbers["s_bar"]
    log_t = math.log(horizon)
    eta = numbers["params"]["eta"]
    return (kappa * log_t + math.log(n_arms)) / eta + eta * l_star + beta**2 * log_t


def algorithm4_rate(numbers: dict) -> float:
    """√((κ+1)L*) + β², β = κ + s̄: the Õ rate of Algorithm 4 (paper 001, App. C.3, Theorem 13), unit
    constants."""
    beta = numbers["kappa"] + numbers["s_bar"]
    return math.sqrt((numbers["kappa"] + 1) * numbers["L_star"]) + beta**2


def theorem2_bound(numbers: dict) -> float:
    """Theorem 2's explicit bound, from the last display of its proof (paper 001, App. A, line 414):

    Reg ≤ ln K/η + cK ln T + 32ηαT ln(4KT/α) + 16ηT + K,

    at the η and c the run used (``numbers["params"]``: c = 64K and η = 1/√(αT) for the ``paper`` preset).
    The 32 ln(4KT/α) is 8 × Alon et al. (2015, Lemma 5)'s Σ_{i∈S} p_i/W_i ≤ 4α ln(4KT/α); 16ηT is the
    S̄ part of the local norm, K the 1/T uniform exploration. α may be an upper bound on the independence
    number (the bound increases with α while 4KT/α > e, so it stays a bound).
    """
    eta, c = numbers["params"]["eta"], numbers["params"]["c"]
    n_arms, alpha, horizon = numbers["K"], numbers["alpha"], numbers["T"]
    return (
        math.log(n_arms) / eta
        + c * n_arms * math.log(horizon)
        + 32 * eta * alpha * horizon * math.log(4 * n_arms * horizon / alpha)
        + 16 * eta * horizon
        + n_arms
    )


def theorem3_bound(numbers: dict) -> float:
    """Theorem 3's explicit bound, from the last display of its proof (paper 001, App. B, line 480):

    Reg ≤ (1/(1 − 16η)) · ((s ln T + ln K)/η + cK ln T + K + 16ηL*),

    at the run's η and c (``numbers["params"]``; ``paper``: c = 64K, η = min{√((s+1)/L*), 1/(64K)}) and the
    run's L* (``numbers["L_star"]``, the best arm's total loss, which the oracle tuning also used). The proof
    divides by 1 − 16η, positive under the theorem's η ≤ 1/(64K); for η ≥ 1/16 (possible only outside the
    theorem, e.g. the ``tuned`` preset on K < 16 arms) it bounds nothing and this returns +∞.
    """
    eta, c = numbers["params"]["eta"], numbers["params"]["c"]
    if 16 * eta >= 1:
        return math.inf
    n_arms, log_t = numbers["K"], math.log(numbers["T"])
    inner = (
        (numbers["s"] * log_t + math.log(n_arms)) / eta
        + c * n_arms * log_t
        + n_arms
        + 16 * eta * numbers["L_star"]
    )
    return inner / (1 - 16 * eta)


def algorithm4_proof_rate(numbers: dict) -> float:
    """max{(κ+1)/η₁, 2√((κ+1)L*)} + β²: the terms the proof of Theorem 13 carries (paper 001, App. C.3,
    Eq. (16) and lines 755–765), with every constant it hides in O(·)/Õ(·) set to 1.

    Eq. (16) bounds the regret by Õ((κ+1)/η_{λ*} + β²λ*), where either no reset happens (η_{λ*} = η₁) or the
    last reset condition gives (κ+1)/η_{λ*} = 2(κ+1)/η_{λ*−1} ≤ 2√((κ+1)Σ⟨p_t, ℓ̂_t⟩), read with L* as the
    proof's final step does. The proof hides the constants of Lemma 12 (an O(·), line 572) and the per-epoch
    Õ(β² + (κ+1)/η_λ), so this is a rate, not a bound; it shows where the theorem's √((κ+1)L*) can start:
    once 2√((κ+1)L*) exceeds (κ+1)/η₁. η₁ is the run's starting rate (``numbers["params"]["eta_start"]``;
    ``paper``: 1/(2000 ln T ln²(KT) + 80κ ln T)).
    """
    kappa = numbers["kappa"]
    beta = kappa + numbers["s_bar"]
    eta_start = numbers["params"]["eta_start"]
    return max((kappa + 1) / eta_start, 2 * math.sqrt((kappa + 1) * numbers["L_star"])) + beta**2


# ------------------------------------------------------------------------------------------------------------
# Section 4: weakly observable graphs. Theorems 7 and 8 bound Reg_i for every arm i with explicit constants;
# like every bound they are evaluated on each seed's run — at the η, η̄, δ that run used (recorded as run
# columns) and its realised L_i, L_{i*_S}, L_D — and averaged over the point's seeds
# (regretlab.registry.theory: the expectation of a data-dependent bound), at i = the best arm of S (metric
# regret_best_S, L_i = L_best_S) or of S̄ (regret_best_Sbar, L_i = L_best_Sbar).
# ------------------------------------------------------------------------------------------------------------


def exp3g_weak_bound(numbers: dict) -> float:
    """Exp3.G-weak's regret to every arm, derived here (docs/choices-paper001.md; Alon et al. 2015's own
    statement could not be read from this machine): for any γ ≤ 1/2 and η > 0,

        Reg_k ≤ γT + ln K/η + (ηT/2)(d/γ + s/(1 − γ)),

    from the exponential-weights inequality for nonnegative estimates (Σ⟨q_t, ℓ̂_t⟩ − L̂_k ≤ ln K/η +
    (η/2)Σ_t Σ_i q_{t,i} ℓ̂²_{t,i}), the mixture's cost ⟨p_t − q_t, ℓ_t⟩ ≤ γ, E_t ℓ̂²_{t,i} ≤ 1/W_{t,i}, and
    Σ_i q_{t,i}/W_{t,i} ≤ d/γ + s/(1 − γ): W_i ≥ γ/d on weakly observable nodes (D dominates them),
    W_i ≥ p_i ≥ (1 − γ)q_i on the s self-loop nodes, W_i = 1 − p_i ≥ 1/2 on a loopless node observed by all
    others unless it is the one node with p_i > 1/2, where W_i ≥ γ/d if D has a node besides it (hypothesis
    ``exploration_set_H`` of :class:`~regretlab.bandits.exp3g_weak.Exp3GWeak`). Evaluated at the run's γ and
    η; at γ = (d ln K/T)^{1/3}, η = γ²/d it is 2.5(d ln K)^{1/3}T^{2/3} + O(s T^{1/3}), consistent with the
    5(d ln K)^{1/3}T^{2/3} (for T ≥ K³ ln K/d²) that issue 8 reads in Alon et al."""
    gamma, eta = numbers["params"]["gamma"], numbers["params"]["eta"]
    horizon, d, s = numbers["T"], numbers["d"], numbers["s"]
    local_norms = 0.5 * eta * horizon * (d / gamma + s / (1 - gamma))
    return gamma * horizon + math.log(numbers["K"]) / eta + local_norms


def theorem7_best_s(numbers: dict) -> float:
    """Theorem 7 (line 250), i ∈ S: Reg_i ≤ s ln T/η + 2ηL_i + 2s, at i = i*_S."""
    s, eta = numbers["s"], numbers["eta"]
    return s * math.log(numbers["T"]) / eta + 2.0 * eta * numbers["L_best_S"] + 2.0 * s


def missing_entropy_term(numbers: dict) -> float:
    """What Theorems 7 and 8's proofs drop from D_ψ(u, p_1) for a comparator i ∈ S (docs/findings.md,
    finding 1): the entropy part of ψ on S̄ has the Bregman divergence Σ_{S̄} (u_j ln(u_j/p_j) − u_j + p_j)/η̄,
    and App. E writes it without −u_j + p_j (line 947), which cancel only when u and p put the same mass on
    S̄. For i ∈ S the proofs' u puts none there (Theorem 8's: δ on the D nodes of S̄) while p_1 puts 1/2
    (1/(2s̄) per node of S̄, Algorithm 2, line 222): the missing term is
    (Σ_{S̄} p_{1,j} − Σ_{S̄} u_j)/η̄ ≤ 1/(2η̄)."""
    return 0.5 / numbers["eta_bar"]


def theorem7_best_s_corrected(numbers: dict) -> float:
    """Theorem 7, i ∈ S, with the term its proof drops (:func:`missing_entropy_term`):
    s ln T/η + 1/(2η̄) + 2ηL_i + 2s."""
    return theorem7_best_s(numbers) + missing_entropy_term(numbers)


def theorem7_best_s_bar(numbers: dict) -> float:
    """Theorem 7 (line 250), i ∈ S̄: 2s ln T/η + ln(2s̄)/η̄ + 2√η̄ L_{i*_S} + 2√η̄ L_i + 2s, at i = the best arm
    of S̄. The statement has 2 ln K/η̄ where its proof (App. E.2, eq. (22), line 1055) has ln(2s̄)/η̄ and then
    loosens it by ln(2s̄) ≤ 2 ln K (line 1071); the proof's, tighter, term is used."""
    s, eta, eta_bar = numbers["s"], numbers["eta"], numbers["eta_bar"]
    root = math.sqrt(eta_bar)
    return (
        2.0 * s * math.log(numbers["T"]) / eta
        + math.log(2 * numbers["s_bar"]) / eta_bar
        + 2.0 * root * numbers["L_best_S"]
        + 2.0 * root * numbers["L_best_Sbar"]
        + 2.0 * s
    )


def theorem8_best_s(numbers: dict) -> float:
    """Theorem 8 (line 264), i ∈ S: 2s ln T/η + 2ηL_i + 2δ d L_D + 2s, at i = i*_S."""
    s, eta = numbers["s"], numbers["eta"]
    return (
        2.0 * s * math.log(numbers["T"]) / eta
        + 2.0 * eta * numbers["L_best_S"]
        + 2.0 * numbers["delta"] * numbers["d"] * numbers["L_D"]
        + 2.0 * s
    )


def theorem8_best_s_corrected(numbers: dict) -> float:
    """Theorem 8, i ∈ S, with the term its proof drops (:func:`missing_entropy_term`; the u of line 1257
    puts δ on the D nodes of S̄, so (Σ_{S̄} p_{1,j} − δ|S̄ ∩ D|)/η̄ ≤ 1/(2η̄)):
    2s ln T/η + 1/(2η̄) + 2ηL_i + 2δdL_D + 2s."""
    return theorem8_best_s(numbers) + missing_entropy_term(numbers)


def theorem8_best_s_bar(numbers: dict) -> float:
    """Theorem 8 (line 264), i ∈ S̄: s ln T/η + ln(2s̄)/η̄ + 2η̄L_i/δ + 2δdL_D + 2s, at i = the best arm of S̄."""
    s, eta, eta_bar, delta = numbers["s"], numbers["eta"], numbers["eta_bar"], numbers["delta"]
    return (
        s * math.log(numbers["T"]) / eta
        + math.log(2 * numbers["s_bar"]) / eta_bar
        + 2.0 * eta_bar * numbers["L_best_Sbar"] / delta
        + 2.0 * delta * numbers["d"] * numbers["L_D"]
        + 2.0 * s
    )


#: Slack for a run's η, η̄, δ computed at a cap (e.g. δ^{4/3} recomputed from δ) to count as at the cap.
_CAP_RTOL = 1e-9


def _at_most(value: float, cap: float) -> bool:
    return value <= cap * (1.0 + _CAP_RTOL)


def theorem7_hypotheses(numbers: dict) -> bool:
    """Theorem 7's conditions η ≤ 1/5, η̄ ≤ 1/25 (line 248) at the run's η, η̄."""
    return _at_most(numbers["eta"], 0.2) and _at_most(numbers["eta_bar"], 1.0 / 25.0)


def theorem8_hypotheses(numbers: dict) -> bool:
    """Theorem 8's conditions (line 262) at the run's δ, η, η̄: 1/T ≤ δ ≤ min{1/125, 1/(4s), 1/(4d)}, η ≤ 1/25,
    η̄ ≤ δ^{4/3}."""
    s, delta = numbers["s"], numbers["delta"]
    cap = min(1.0 / 125.0, 1.0 / (4 * numbers["d"]), 1.0 / (4 * s) if s else math.inf)
    return (
        _at_most(1.0 / numbers["T"], delta)
        and _at_most(delta, cap)
        and _at_most(numbers["eta"], 1.0 / 25.0)
        and _at_most(numbers["eta_bar"], delta ** (4.0 / 3.0))
    )


def horizon_at_least_2K(numbers: dict) -> bool:
    """T ≥ 2K, paper 001's standing assumption (line 50), used by the proofs of Theorems 7 and 8 (lines 1029,
    1047, 1265, 1289)."""
    return numbers["T"] >= 2 * numbers["K"]


def best_arm_in_S(numbers: dict) -> bool:
    """The case i* ∈ S of Theorems 17 and 18 (lines 1123, 1335): the best arm overall has a self-loop,
    L_{i*_S} ≤ L_{i*_S̄}."""
    return numbers["L_best_S"] <= numbers["L_best_Sbar"]


def theorem18_epochs(numbers: dict) -> bool:
    """Theorem 8's δ ≥ 1/T (line 262) in every epoch of Algorithm 7 (line 1339): its last δ_λ, the smallest,
    is at least 1/T."""
    return _at_most(1.0 / numbers["T"], numbers["params"]["delta_final"])


def gamma_is(gamma: float):
    """The hypothesis that the run's γ is ``gamma``, for a rate whose exponent is γ's (Theorem 18, line
    1335)."""

    def holds(numbers: dict) -> bool:
        return math.isclose(numbers["params"]["gamma"], gamma, rel_tol=1e-9)

    holds.__doc__ = f"The run's γ is {gamma:.3g}, the one whose rate is drawn (Theorem 18, line 1335)."
    return holds


def theorem14_learner(numbers: dict) -> bool:
    """Algorithm 5 as Theorem 14 runs it: its stage 2 is Theorem 2's algorithm with c ≥ 64K (lines 789–791),
    which the ``tuned`` preset's is not, so a tuned run qualifies until its stage 2 starts."""
    params = numbers["params"]
    return not params["stage2_started"] or params["stage2"]["c"] >= 64 * numbers["K"]


# ------------------------------------------------------------------------------------------------------------
# Section 4, adaptive versions (App. E.3, E.5) and the lower bound (App. E.1): Theorems 17, 18 and 5 give Õ/Ω
# only, so these are rates with unit constant.
# ------------------------------------------------------------------------------------------------------------


def theorem17_best_s(numbers: dict) -> float:
    """√(s L_{i*_S}) + s²: Theorem 17 (line 1123) when the arm compared with is in S, unit constants."""
    s = numbers["s"]
    return math.sqrt(s * numbers["L_best_S"]) + s**2


def theorem17_best_s_bar(numbers: dict) -> float:
    """L_{i*_S}^{2/3} + √(s L_{i*_S}) + s²: Theorem 17 (line 1123) for an arm of S̄, unit constants."""
    return numbers["L_best_S"] ** (2.0 / 3.0) + theorem17_best_s(numbers)


def theorem18_rate(gamma: float, best_in_s: bool):
    """The rate of Theorem 18 (lines 1333–1335) as its proof (App. E.5) derives it, unit constants:

        max{δ₁^{1−1/γ}, (d L_D)^{1−γ}}              if i* ∈ S,
        max{δ₁^{−(1+γ)/(2γ)}, (d L_D)^{(1+γ)/2}}     if i* ∈ S̄.

    Epoch λ costs Õ(δ_λ^{1−1/γ}) (resp. Õ(δ_λ^{−1/2−1/(2γ)})) (eq. (26), line 1345), a geometric sum dominated
    by the last epoch λ*; with no reset (λ* = 1) that is the epoch-1 term δ₁^{1−1/γ} (δ₁ = 1/125, γ = 1/3:
    125² ≈ 1.6·10⁴), otherwise the last reset's condition δ_{λ*−1}^{−1/γ} ≤ Σ_t Σ_{i∈D} ℓ̂_{t,i} turns it
    into (Σ_{i∈D} L_i)^{1−γ} = (d L_D)^{1−γ} in expectation (lines 1411–1437). The theorem's Õ(L_D^{1−γ})
    hides the first term (a constant in T and L_D) and d. δ₁ and d are the run's (``params``:
    ``delta_start``, ``d``; Algorithm 7's D is the minimum D, over which L_D is taken, unless that D has no S
    node); the term (1/T) Σ_t Σ_{i∈S} ℓ̂_{t,i} ≈ s of the same display is dropped."""
    exponent = 1.0 - gamma if best_in_s else (1.0 + gamma) / 2.0
    first_epoch = 1.0 - 1.0 / gamma if best_in_s else -(1.0 + gamma) / (2.0 * gamma)

    def rate(numbers: dict) -> float:
        params = numbers["params"]
        return max(params["delta_start"] ** first_epoch, (params["d"] * numbers["L_D"]) ** exponent)

    return rate


def theorem5_lower(numbers: dict) -> float:
    """T^{1−ε̂} = |I|, the length of the interval I the construction used (ε̂ = 1 − ln|I|/ln T,
    :func:`regretlab.bandits.lower_bound.epsilon_hat`; |I| ≈ T/(2⌈N⌉ + 1) with N the regret on environment 1),
    on which the proof's Ω(T^{1−ε}) regret is incurred (App. E.1, line 955). NaN where the point has no ε̂
    (environment 1)."""
    epsilon = numbers.get("theorem5_epsilon", math.nan)
    return numbers["T"] ** (1.0 - epsilon)


def theorem5_proof_lower(numbers: dict) -> float:
    """|I|/2 − T^b ℓ̂_I − min{|I|, T^{1−b}}: the expected regret on environment 2 that App. E.1's argument
    gives with its own constants (lines 955–957), at the interval the construction used (|I| = T^{1−ε̂}) and
    ℓ̂_I = Σ_{t∈I} ⟨p_t, ℓ_t⟩ of the calibration runs on environment 1 (``theorem5_interval_loss``).

    * The expected number of bad pulls in I on environment 1 is at most ℓ̂_I < 1/2 (each costs 1), so by
      Markov's inequality none happens with probability ≥ 1/2 (line 955); on that event the learner cannot
      tell the environments apart (u's loss is revealed only by bad arms, line 957), plays u or v on all of
      I, and pays 1 per pull of u there: expected loss in I ≥ |I|/2 − E[N_v(I)].
    * E[N_v(I)] ≤ T^b ℓ̂_I (a pull of v costs T^{−b} on environment 1): the proof's N_v = O(T^{b+ε}).
    * L* = min{|I|, T^{1−b}} on environment 2 (u's total is |I|, v's T^{1−b}, the bad arms' T).

    ℓ̂_I is an estimate (the mean over the construction's calibration seeds) of the expectation the proof
    uses. NaN where the point has no ε̂ (environment 1)."""
    horizon, b = numbers["T"], numbers["b"]
    interval = horizon ** (1.0 - numbers.get("theorem5_epsilon", math.nan))
    loss = numbers.get("theorem5_interval_loss", math.nan)
    return interval / 2.0 - horizon**b * loss - min(interval, horizon ** (1.0 - b))


def theorem5_floor(numbers: dict) -> float:
    """|I| T^{−b} − min{|I|, T^{1−b}} = Σ_t min_i ℓ_{t,i} − L* on environment 2: the regret every learner has
    at least (the trivial bound of a lower bound on it)."""
    horizon, b = numbers["T"], numbers["b"]
    interval = horizon ** (1.0 - numbers.get("theorem5_epsilon", math.nan))
    return interval * horizon ** (-b) - min(interval, horizon ** (1.0 - b))


def theorem5_proof_hypotheses(numbers: dict) -> bool:
    """Theorem 5's premise at the measured ε̂ (:func:`theorem5_premise`) and the interval's ℓ̂_I < 1/2 that
    Markov's inequality needs (line 955)."""
    return theorem5_premise(numbers) and bool(numbers.get("theorem5_interval_loss", math.nan) < 0.5)


def theorem5_premise_rate(numbers: dict) -> float:
    """ln T: Theorem 5's premise, Õ(1) regret when L* = 0 (line 208), with polylog T drawn as ln T."""
    return math.log(numbers["T"])


def theorem5_environment(environment: int):
    """Whether an instance is environment ``environment`` (1 or 2) of Theorem 5's construction (App. E.1)."""

    def applies(numbers: dict) -> bool:
        return numbers.get("theorem5_environment") == environment

    return applies


def theorem5_premise(numbers: dict) -> bool:
    """Environment 2 and the proof's conditions at the measured ε̂: ε̂ < 1/3 and ε̂ < b < 1 − 2ε̂ (line 953)."""
    epsilon = numbers.get("theorem5_epsilon", math.nan)
    return bool(
        numbers.get("theorem5_environment") == 2
        and epsilon < 1.0 / 3.0
        and epsilon < numbers["b"] < 1.0 - 2.0 * epsilon
    )
