"""The registry of the claims of both papers that the workflow draws: one entry per row of the evidence table
(``figures/evidence.md``, built by :mod:`regretlab.analysis.evidence`).

A claim names the bounds of :data:`regretlab.registry.theory.BOUNDS` that check it (optionally restricted to
some regimes), the kind of check, and — where a check means something only on an instance that exercises the
theorem's mechanism — a :class:`Mechanism`: a measured quantity and a threshold, read from the aggregate
table's columns and the instance's numbers. Whether a claim is *tested* is never written here: the evidence
table computes it from the aggregate tables (hypotheses, verdicts, slopes, mechanism, identical runs).

Line numbers refer to ``../shared/papers/000_*.txt`` (paper 000) and ``001_*.txt`` (paper 001).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

#: Kinds of check a claim gets (the ``check`` column of the evidence table). A ``construction`` check holds
#: for every policy sequence (it can catch a bug, not a learner: counted apart); a ``proof-internal`` or
#: ``not recorded`` claim has no check (its reason says why).
KINDS = (
    "explicit bound",
    "lower bound",
    "rate",
    "mechanism",
    "construction",
    "proof-internal",
    "not recorded",
)
#: The kinds of a row without a check: its ``reason`` says why (an inequality inside a proof, or one about
#: quantities the runs do not record).
UNCHECKED = ("proof-internal", "not recorded")
#: Who states a row: ``claim`` (one of the two papers'), ``reference`` (a result the papers cite, e.g. Alon et
#: al.'s Exp3.G, or an inequality inside a proof): shown, never counted among the papers' claims.
ROLES = ("claim", "reference")
#: How a fitted slope is compared with a rate's exponent: ``upper`` (an Õ(·) rate: the slope must not exceed
#: it), ``tight`` (a Θ̃(·) rate: within it on both sides), ``lower`` (an Ω(·) rate: not below it).
RATE_SENSES = ("upper", "tight", "lower")


@dataclass(frozen=True)
class Mechanism:
    """What an instance must exercise for a claim's check to speak about the claim.

    Attributes:
        description: the quantity and its threshold, as the table prints it (e.g. ``L_D / L_{i*_S} ≥ 3``).
        columns: the point fields it reads: aggregate columns (``L_D_mean``), instance numbers
            (``lambda_star``), the instance's loss entry (``losses_kind``) or ``T``. A point lacking one of
            them has the mechanism *not recorded*: the check does not count.
        value: point → the measured quantity (reads only ``columns``).
        threshold: the mechanism is exercised where ``value > threshold`` (``strict``) or ``≥``.
        metrics: the bounded metrics it concerns (None: every metric of the claim); points of other metrics
            do not need it.
        bounded_by: the run metric whose learner ceiling (:data:`regretlab.registry.theory.CEILINGS`) bounds
        the
            measured quantity at every horizon, if any: where that ceiling does not exercise the mechanism, no
            run can, and the search for ``T_informative`` goes on (e.g. App. C's dual cannot clip before
            ηLT ≥ T^{1/4}).
    """

    description: str
    columns: tuple[str, ...]
    value: Callable[[dict], float]
    threshold: float
    strict: bool = False
    metrics: tuple[str, ...] | None = None
    bounded_by: str | None = None

    def concerns(self, metric: str) -> bool:
        """True when points of ``metric`` need the mechanism."""
        return self.metrics is None or metric in self.metrics

    def measure(self, point: dict) -> float:
        """The measured quantity at a point, NaN when a column it reads is missing (not recorded)."""
        if any(_missing(point.get(column)) for column in self.columns):
            return math.nan
        return float(self.value(point))

    def exercised(self, value: float) -> bool | None:
        """Whether a measured value exercises the mechanism; None when it was not recorded (NaN)."""
        if math.isnan(value):
            return None
        return value > self.threshold if self.strict else value >= self.threshold


@dataclass(frozen=True)
class Construction:
    """What a construction check (a property of the algorithm's own construction, true for every sequence of
    policies) would catch: the factor by which the quantity it checks could be wrong before the check fails.

    Attributes:
        error: the error, with ``{factor}`` for the factor (e.g. ``a confidence radius {factor}× too small``).
        factor: aggregate row → the factor (reads the row's columns: ``bound_value``, ``mean``, ``<m>_mean``);
            NaN where it is not recorded.
    """

    error: str
    factor: Callable[[dict], float]

    def describe(self, factors: list[float]) -> str:
        """The error caught at the smallest factor over ``factors`` (the weakest point), or ""."""
        finite = [f for f in factors if math.isfinite(f)]
        return self.error.format(factor=f"{min(finite):.3g}") if finite else ""


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


@dataclass(frozen=True)
class Claim:
    """One claim of a paper (a theorem, lemma or Table 1 entry).

    Attributes:
        key: a short identifier (the evidence table's ``claim`` column).
        paper: ``"000"`` or ``"001"``.
        name: e.g. ``Theorem 8 (i ∈ S)``.
        text: the claim in one line.
        source: where the paper states it.
        kind: the kind of check (:data:`KINDS`).
        bounds: the bounds of :data:`regretlab.registry.theory.BOUNDS` that check it.
        regimes: the regimes whose points count (None: every regime drawing one of ``bounds``).
        rate_sense: how a slope is compared with a rate's exponent (:data:`RATE_SENSES`).
        mechanism: what its instances must exercise (None: nothing beyond the hypotheses).
        presets: the constants presets whose runs test it. A statement proved for the paper's constants is
            tested only by ``paper`` runs; one that holds for any constants (any C, any η, a range of them
            that each run's hypotheses check) also by ``tuned`` runs. Runs of other presets are shown (the
            table says when they alone would speak) but not counted.
        role: :data:`ROLES`: ``reference`` rows are shown and not counted among the papers' claims.
        construction: for a ``construction`` check, what error it would catch (:class:`Construction`).
        alternative: for a lower bound, the learner that would have violated it (a lower bound on regret is
            passed by every learner that does not learn: its power is against this alternative).
        reason: for a ``proof-internal`` claim, why it has no check.
    """

    key: str
    paper: str
    name: str
    text: str
    source: str
    kind: str
    bounds: tuple[str, ...]
    regimes: tuple[str, ...] | None = None
    rate_sense: str = "upper"
    mechanism: Mechanism | None = None
    presets: tuple[str, ...] = ("paper",)
    role: str = "claim"
    construction: Construction | None = None
    alternative: str = ""
    reason: str = ""

    @property
    def citation(self) -> str:
        """Where the paper states it, for a reader: ``source`` when it names a theorem, lemma, equation,
        table, section or appendix first, else the claim's own name before the line numbers (those are of
        the papers' text files, for maintainers)."""
        if NAMED.match(self.source):
            return self.source
        return f"{self.name.split(' (')[0].split(',')[0]}, {self.source}"


#: A citation that names what it cites (a line number alone does not: no reader has the text file's lines).
NAMED = re.compile(
    r"(Theorems?|Lemmas?|Corollary|Table|Algorithms?|Conditions?|Appendix|Section)\b|eq\.|§|App\."
)


#: ``Claim.presets`` of a statement that holds for any constants (paper 000's Theorem 3 for any C, OGD's
#: inequality for any η, Lemmas 2 and 5, which neither enters) ...
ANY_CONSTANTS = ("paper", "tuned")
#: ... and of an explicit bound proved for any constants in a range (paper 001's Theorems 2, 3 and 8), which
#: each run's hypotheses check: a ``tuned`` run outside the range has them fail.
ANY_IN_RANGE = ("paper", "tuned")

#: Exp3.G's Θ̃(√(αT)) is tight only on the lower-bound instance: a slope elsewhere says nothing about it.
MINIMAX_GAP = Mechanism(
    "the minimax gap ε = √(α/T) (where √(αT) is tight)",
    ("losses_kind",),
    lambda p: float(p["losses_kind"] == "minimax"),
    1.0,
)
#: ... and an upper rate Õ(√(αT)) has power only where a non-learner is linear in T: a fixed gap (on the
#: minimax instances every learner's regret is ∝ √T, uniform play's included).
FIXED_GAP = Mechanism(
    "a fixed gap (uniform play linear in T)",
    ("losses_kind",),
    lambda p: float(p["losses_kind"] != "minimax"),
    1.0,
)
#: An adaptive learner that never leaves its first epoch is its first epoch's fixed tuning (issue 15).
RESETS = Mechanism("resets ≥ 1 (leaves its first epoch)", ("resets_mean",), lambda p: p["resets_mean"], 1.0)

CLAIMS: tuple[Claim, ...] = (
    # ---- paper 001 (graph-feedback bandits)
    # Alon et al.'s results, the baselines of Table 1's columns: reference rows, not the papers' claims.
    Claim(
        "exp3g", "001", "Exp3.G (Alon et al., minimax instances)",
        "Exp3.G on strongly observable graphs: Reg = Θ̃(√(αT)), tight on the minimax instances",
        "Table 1 (lines 24–30), §3.1", "rate", ("exp3g_rate",), rate_sense="tight", mechanism=MINIMAX_GAP,
        role="reference",
    ),
    Claim(
        "exp3g_fixed_gap", "001", "Exp3.G (Alon et al., fixed gaps)",
        "Exp3.G on strongly observable graphs: Reg = Õ(√(αT)), where uniform play is linear in T",
        "Table 1 (lines 24–30), §3.1", "rate", ("exp3g_rate",), mechanism=FIXED_GAP, role="reference",
    ),
    Claim(
        "theorem2", "001", "Theorem 2", "OMD with eq. (5): Reg ≤ Õ(√(αT) + K²)",
        "line 120; explicit in the proof, line 414", "explicit bound", ("theorem2_bound", "theorem2_rate"),
        # The proof's bound (line 414) holds for any η once c ≥ 64K (Lemma 1 (c), line 114), which each run's
        # hypotheses check (tuned's c = K fails it).
        presets=ANY_IN_RANGE,
    ),
    Claim(
        "theorem3", "001", "Theorem 3", "OMD with eq. (6), oracle L*: Reg ≤ Õ(√((s+1)L*) + K²)",
        "line 134; explicit in the proof, line 480", "explicit bound", ("theorem3_bound", "theorem3_rate"),
        # For c = 64K and any η ≤ 1/(64K) (line 134), which each run's hypotheses check.
        presets=ANY_IN_RANGE,
    ),
    Claim(
        "theorem4", "001", "Theorem 4 (Table 1)", "Algorithm 1, oracle L*: Reg = Õ(√((κ+1)L*) + β²)",
        "line 186", "rate", ("algorithm1_rate",),
    ),
    Claim(
        "theorem13", "001", "Theorem 13 (Table 1)", "Algorithm 4, no oracle: Reg = Õ(√((κ+1)L*) + β²)",
        "line 687", "rate", ("algorithm4_proof_rate", "algorithm4_rate"), mechanism=RESETS,
    ),
    Claim(
        "theorem14", "001", "Theorem 14 (Table 1)",
        "Algorithm 5, self-aware graphs: Reg = Õ(min{√(αT), √(κL*)} + K²)", "line 799", "rate",
        ("theorem14_rate",),
    ),
    Claim(
        "exp3g_weak", "001", "Exp3.G-weak (Table 1, minimax)",
        "Exp3.G on a weakly dominating set: Reg = Θ̃(d^{1/3}T^{2/3}) (explicit bound derived here)",
        "Table 1 (lines 24–30), line 202", "explicit bound",
        ("exp3g_weak_bound", "exp3g_weak_bound_best_S", "exp3g_weak_bound_best_Sbar"), role="reference",
    ),
    Claim(
        "theorem5", "001", "Theorem 5 (Table 1)",
        "weakly observable: Õ(1) regret at L* = 0 forces Ω(T^{1−ε}) regret elsewhere (no o(L*) bound)",
        "line 206; App. E.1 (lines 953–957)", "lower bound", ("theorem5_proof_lower", "theorem5_lower"),
        rate_sense="lower",
        alternative=(
            "always playing v: regret ≤ 0 on environment 2 once |I| ≥ T^{1−b}, below the bound; the premise "
            "excludes it (it pays T^{1−b} on environment 1)"
        ),
        # The check that can fail is the proof's own inequality (theorem5_proof_lower: with probability ≥ 1/2
        # the learner cannot tell environment 2 from 1 on I and pays for u there), an explicit lower bound at
        # the premise-holding points. The drawn |I| = T^{1−ε̂} (theorem5_lower) is a unit-constant line whose
        # theory exponent is the ε → 0 limit 1, shown beside it.
    ),
    Claim(
        # Two statements with their own displays (lines 248 and 250), split as Theorem 8's are.
        "theorem7_S", "001", "Theorem 7, i ∈ S (Table 1)",
        "Algorithm 2, bipartite, oracle L_{i*_S}: Reg_i ≤ s ln T/η + 2ηL_i + 2s = Õ(√(sL_i) + s)",
        "lines 246–248, 252", "explicit bound", ("theorem7_best_S",),
    ),
    Claim(
        "theorem7_Sbar", "001", "Theorem 7, i ∈ S̄ (Table 1)",
        "Algorithm 2, bipartite: Reg_i ≤ 2s ln T/η + 2 ln K/η̄ + 2√η̄(L_{i*_S} + L_i) + 2s = Õ(L_{i*_S}^{2/3})",
        "lines 250–252", "explicit bound", ("theorem7_best_Sbar",),
    ),
    Claim(
        "theorem8_S", "001", "Theorem 8, i ∈ S (Table 1)",
        "Algorithm 2, oracle L_D: Reg_i ≤ 2s ln T/η + 2ηL_i + 2δdL_D + 2s = Õ(L_D^{1−γ})",
        "lines 260–266", "explicit bound", ("theorem8_best_S_third", "theorem8_best_S_half"),
        # For any δ, η, η̄ in line 262's ranges (each run's hypotheses check them, with Lemma 6's).
        presets=ANY_IN_RANGE,
        # Theorem 8's distinctive claim: small loss in L_D, which an instance must tell from L* = L_{i*_S}.
        mechanism=Mechanism(
            "L_D / L_{i*_S} ≥ 3", ("L_D_mean", "L_best_S_mean"),
            lambda p: p["L_D_mean"] / p["L_best_S_mean"], 3.0,
        ),
    ),
    Claim(
        "theorem8_Sbar", "001", "Theorem 8, i ∈ S̄ (Table 1)",
        "Algorithm 2, oracle L_D: Reg_i ≤ s ln T/η + ln(2s̄)/η̄ + 2η̄L_i/δ + 2δdL_D + 2s = Õ(L_D^{(1+γ)/2})",
        "lines 260–266", "explicit bound", ("theorem8_best_Sbar_third", "theorem8_best_Sbar_half"),
        presets=ANY_IN_RANGE,
    ),
    Claim(
        "lemma9_001", "001", "Lemma 9", "½p_t ≤ p_{t+1} ≤ 2p_t coordinatewise (log-barrier OMD)", "line 280",
        "construction", ("lemma9_step_ratio",),
        # Theorems 2 and 3's runs record max_{i,t} |ln(p_{t+1,i}/p_{t,i})|; a learner with the log-barrier
        # weight far below 64K and a large η moves p by e^5–e^10 in a step (tests/test_construction_checks).
        construction=Construction(
            "an OMD step that moves some p_i by more than a factor 2 (the runs' largest |ln ratio| is "
            "{factor}× below ln 2)",
            lambda r: r["bound_value"] / r["mean"],
        ),
        # For every η (Lemma 10 needs only c = 64K): the tuned presets' c = K fails its hypothesis.
        presets=ANY_IN_RANGE,
    ),
    Claim(
        "theorem17", "001", "Theorem 17 (Table 1)",
        "Algorithm 6, no oracle: Õ(√(sL_{i*_S}) + s²) (i* ∈ S), Õ(L_{i*_S}^{2/3} + √(sL_{i*_S}) + s²) (S̄)",
        "line 1119", "rate", ("theorem17_best_S", "theorem17_best_Sbar"), mechanism=RESETS,
    ),
    Claim(
        "theorem18", "001", "Theorem 18 (Table 1)",
        "Algorithm 7, no oracle: Õ(L_D^{1−γ}) (i* ∈ S), Õ(L_D^{(1+γ)/2}) (i* ∈ S̄)", "line 1331", "rate",
        ("theorem18_best_S_third", "theorem18_best_S_half", "theorem18_best_Sbar_third",
         "theorem18_best_Sbar_half"),
        mechanism=RESETS,
    ),
    # ---- paper 001, corrected: what the proofs support once the term they drop from D_ψ(u, p_1) is put back
    # (docs/findings.md, finding 1, found by the falsification search). Reference rows: derived here, not the
    # paper's claims; each is checked by runs like every other row.
    Claim(
        "theorem7_S_corrected", "001", "Theorem 7, i ∈ S, corrected (finding 1)",
        "Reg_i ≤ s ln T/η + 1/(2η̄) + 2ηL_i + 2s: the 1/(2η̄) the proof drops from D_ψ(u, p_1)",
        "App. E.2, lines 1015–1021, with line 947's Bregman divergence corrected", "explicit bound",
        ("theorem7_best_S_corrected",), role="reference",
    ),
    Claim(
        "theorem8_S_corrected", "001", "Theorem 8, i ∈ S, corrected (finding 1)",
        "Reg_i ≤ 2s ln T/η + 1/(2η̄) + 2ηL_i + 2δdL_D + 2s: the 1/(2η̄) the proof drops from D_ψ(u, p_1)",
        "App. E.4, lines 1255–1259, with line 947's Bregman divergence corrected", "explicit bound",
        ("theorem8_best_S_corrected",), presets=ANY_IN_RANGE, role="reference",
    ),
    Claim(
        "theorem17_S_corrected", "001", "Theorem 17, i* ∈ S, corrected (finding 1)",
        "Algorithm 6, no oracle, i* ∈ S: Õ(L_{i*_S}^{2/3} + √(sL_{i*_S}) + s²) (each epoch's dropped "
        "1/(2η̄_λ), the last ≈ L_{i*_S}^{2/3}), where the theorem says Õ(√(sL_{i*_S}) + s²)",
        "App. E.3, lines 1127–1199, with line 947's Bregman divergence corrected", "rate",
        ("theorem17_best_S_corrected",), mechanism=RESETS, role="reference",
    ),
    Claim(
        "theorem18_S_corrected", "001", "Theorem 18, i* ∈ S, γ = 1/2, corrected (finding 1)",
        "Algorithm 7, no oracle, i* ∈ S: Õ(L_D^{(1+γ)/2}) (each epoch's dropped 1/(2η̄) = δ^{−(1+γ)/(2γ)}/2), "
        "L_D^{3/4} at γ = 1/2 where the theorem says L_D^{1/2}",
        "App. E.5, eq. (26), with line 947's Bregman divergence corrected", "rate",
        ("theorem18_best_S_half_corrected",), mechanism=RESETS, role="reference",
    ),
    # ---- paper 000 (constrained MDPs)
    Claim(
        "lemma2", "000", "Lemma 2", "Σ_t ‖q_t − q̂_t‖₁ ≤ E^q_δ w.p. ≥ 1 − 2δ", "line 233; E^q_δ line 453",
        "construction", ("lemma2_q_error",),
        # The check catches a wrong E^q_δ (the bound's constants), not a learner whose radii are too small:
        # shrinking the radii changes the learner's sets and its measured error with them, which stays far
        # below E^q_δ (tests/test_construction_checks.py; Lemma 5's check is the one that catches radii).
        construction=Construction(
            "an E^q_δ more than {factor}× too small (not radii too small: Lemma 5's check catches those)",
            lambda r: r["bound_value"] / r["mean"],
        ),
        # A property of the confidence sets (10) for any sequence of policies: neither C nor the dual's η
        # enters.
        presets=ANY_CONSTANTS,
    ),
    Claim(
        "lemma5", "000", "Lemma 5", "every epoch's confidence set contains P, w.p. ≥ 1 − δ",
        "line 548", "construction", ("lemma5_all_epochs_covered",),
        # P ∈ every set iff max_j ‖P − P̄_j‖₁ / ε_j ≤ 1: radii smaller by the inverse of that ratio (at the
        # seeds' mean) would leave P outside an epoch's set.
        construction=Construction(
            "confidence radii ε_j more than {factor}× too small (the seeds' mean largest ‖P − P̄_j‖₁/ε_j)",
            lambda r: 1.0 / r["coverage_ratio_max_mean"],
        ),
        # The bound is on the per-seed event itself (the fraction of seeds, a binomial test): no mechanism.
        # Rosenberg and Mansour's concentration for the sets (10): independent of C and of the dual's η.
        presets=ANY_CONSTANTS,
    ),
    Claim(
        "theorem3_000", "000", "Theorem 3",
        "UC-O-GDPS: R^P_{t1,t2} ≤ ℓ̄E^q_δ + ℓ̄LC√T + ℓ̄(|X||A|/2)(t2−t1+1)/(C√T) on every interval",
        "line 301", "explicit bound", ("theorem3_primal_regret", "theorem3_interval_regret"),
        # "when η_t = (ℓ̄_t C √T)^{-1}" (line 303) for any C > 0: both presets' C.
        presets=ANY_CONSTANTS,
    ),
    Claim(
        "theorem4_000", "000", "Theorem 4",
        "under Condition 2, ‖λ_t‖₁ ≤ ζ = 20mL²/ρ² for every t, so λ never touches the box (§6)",
        "line 317", "explicit bound", ("theorem4_zeta", "theorem4_dual_never_clipped"),
    ),
    Claim(
        "lemma14_000", "000", "Lemma 14",
        "λ_{t,i} ≥ ηV̂_{t−1,i} (so V_t ≤ ‖λ_{t+1}‖₁/η + Σ‖q − q̂‖₁) while unclipped",
        "line 1017 (with Lemma 15, line 1037)", "construction", ("lemma14_dual", "lemma14_violation"),
        # The unclipped dual update's algebra: true for every sequence of estimated occupancies.
        presets=ANY_CONSTANTS,
        construction=Construction(
            "a dual multiplier more than {factor}× too small",
            lambda r: r["bound_value"] / r["mean"] if r["mean"] > 0 else math.nan,
        ),
    ),
    Claim(
        "lemma16_000", "000", "Lemma 16", "V̂_{T,i} ≤ (2 + 2L)T^{1/4}/η (Condition 2 off)", "line 1120",
        "explicit bound", ("lemma16_violation",),
    ),
    Claim(
        "dual_regret", "000", "OGD dual regret (App. C.1.1, proof-internal)",
        "R^D_T(0) ≤ ηmL²T/2 for the dual's OGD (Orabona 2019, inside Theorem 5's proof)",
        "App. C.1.1, lines 711–715", "explicit bound", ("dual_regret_paper", "dual_regret_tuned"),
        role="reference",
        # OGD's inequality (lines 705–709, Orabona 2019) holds for any η: each preset against its own η.
        presets=ANY_CONSTANTS,
    ),
    Claim(
        "theorem5_000", "000", "Theorem 5",
        "stochastic constraints, Condition 2: R_T, V_T = Õ(ζ√T) (explicit: lines 365–373)", "line 361",
        "explicit bound",
        ("theorem5_regret", "theorem5_violation", "theorem5_regret_rate", "theorem5_violation_rate"),
        regimes=("cmdp_theorem5", "cmdp_theorem5_small"),
    ),
    Claim(
        "theorem6_000", "000", "Theorem 6",
        "Condition 2 fails: R_T, V_T = Õ(T^{3/4}) (explicit: lines 395–403)", "line 391", "explicit bound",
        ("theorem6_regret", "theorem6_violation", "theorem6_regret_rate", "theorem6_violation_rate"),
        # Its regime differs from Theorem 5's only where the box [0, T^{1/4}]^m clips the dual: measured per
        # run (λ* above T^{1/4} is not enough: App. C's dual cannot reach the box before T ≈ 10^14).
        mechanism=Mechanism(
            "share of episodes with the dual clipped at T^{1/4} > 0", ("dual_clipped_mean",),
            lambda p: p["dual_clipped_mean"], 0.0, strict=True, bounded_by="dual_clipped",
        ),
    ),
    Claim(
        "theorem7_000", "000", "Theorem 7",
        "adversarial constraints: R_T ≤ T·OPT/(1+ρ) + Õ(√T), V_T = Õ(ζ√T), reward ≥ Ω(ρ/(1+ρ)·T·OPT)",
        "line 417", "explicit bound",
        ("theorem7_regret", "theorem7_regret_corrected", "theorem7_violation", "theorem7_reward_ratio",
         "theorem7_reward_ratio_corrected", "theorem5_violation_rate"),
        regimes=("cmdp_theorem7", "cmdp_theorem7_small"),
        # Line 1248's [G_tᵀq*]_i ≤ 1 (and so stated vs corrected ratio) is at stake only where it fails.
        mechanism=Mechanism(
            "max_t [G_tᵀq*]_i > 1 (the step of Theorem 7's proof at line 1248 fails)", ("max_G_q_star",),
            lambda p: p["max_G_q_star"], 1.0, strict=True,
        ),
    ),
)  # fmt: skip
"""Every claim the workflow draws, in the evidence table's order (paper 001, then paper 000)."""


def _unchecked(key: str, paper: str, name: str, text: str, source: str, kind: str, reason: str) -> Claim:
    """A row without a check (:data:`UNCHECKED`)."""
    return Claim(key, paper, name, text, source, kind, (), reason=reason)


#: The lemmas and corollaries of both papers that no run checks, with the reason (the lemmas a run checks —
#: paper 000's Lemmas 2, 5, 11, 14, 16 — are rows of :data:`CLAIMS` with their bounds).
UNCHECKED_CLAIMS: tuple[Claim, ...] = (
    _unchecked("lemma1_001", "001", "Lemma 1",
               "OMD step: ⟨p_t − u, ℓ̂_t⟩ ≤ D_ψ(u,p_t) − D_ψ(u,p_{t+1}) + 8‖ℓ̂_t − z1‖²",
               "line 108", "not recorded",
               "on the estimated losses ℓ̂_t of one realisation; the runs record the true losses' regret only "
               "(its preconditions c ≥ 64K, η ≤ 1/(64K) are each run's hypotheses of Theorems 2 and 3)"),
    _unchecked("lemma6_001", "001", "Lemma 6", "Algorithm 2's OMD step with the a_t correction, any u ∈ Ω",
               "line 236", "not recorded",
               "on ℓ̂_t and a_t, not recorded (its precondition on Ω is the hypotheses of Theorems 7 and 8)"),
    _unchecked("lemma10_001", "001", "Lemma 10", "∃z: ‖ℓ̂_t − z1‖_{∇⁻²ψ(p_t)} ≤ 1/8 when C₁ = 64K",
               "line 308", "proof-internal", "algebra for any p and any ℓ̂ in range (eq. (1) puts ℓ̂ there)"),
    _unchecked("lemma11_001", "001", "Lemma 11",
               "adaptive Hedge: Σ⟨p̃_t − e_i, ℓ̃_t⟩ ≤ 25ρ ln²(KT) + 10 ln(KT)√(ρ Σℓ̃_{t,i})", "line 512",
               "not recorded", "on Algorithm 1's inner losses ℓ̃_t, not recorded"),
    _unchecked("lemma12_001", "001", "Lemma 12", "Algorithm 1's meta-regret to each j, −ρ_{T,j}/(20η ln T)",
               "line 570", "not recorded",
               "on the meta-level ℓ̂_t and ρ_{T,j}, not recorded; its η ≤ 1/(64β) is short of the 1/(320β) "
               "the growth of η_{t,j} to 5η needs (docs/choices-paper001.md)"),
    _unchecked("lemma15_001", "001", "Lemma 15", "Algorithm 5, first stage of an epoch: Õ(1/η + ηκL̂_min + κ)",
               "line 807", "not recorded", "on per-epoch sums of ℓ̂_t, not recorded"),
    _unchecked("lemma16_001", "001", "Lemma 16", "Algorithm 5, meta-epoch: Õ(min{√(αT), √(κL̂_min)} + κ)",
               "line 875", "not recorded", "on per-meta-epoch sums of ℓ̂_t, not recorded (and only an Õ)"),
    _unchecked("corollary1_000", "000", "Corollary 1", "OPT = min_λ max_q 𝓛 = max_q min_λ 𝓛 under Slater",
               "line 127", "proof-internal", "LP strong duality: a fact of the instance, not of a run"),
    _unchecked("lemma3_000", "000", "Lemma 3", "|Σ_t (r_t − r̄)ᵀq*| ≤ (L/√2)√(T ln(2/δ))", "line 337",
               "not recorded", "Σ r_tᵀq* is not recorded; independent of the learner (no power)"),
    _unchecked("lemma4_000", "000", "Lemma 4", "|Σ λ_tᵀ(G_t − Ḡ)ᵀq_t| ≤ λ_{t1,t2} 2L√(2(t2−t1+1) ln(T²/δ))",
               "line 347", "not recorded", "a concentration of the noise along the run, not recorded"),
    _unchecked("lemma6_000", "000", "Lemma 6", "Σ‖q^{P_t,π_t} − q^{P,π_t}‖₁ ≤ two sums (triangle inequality)",
               "line 586", "proof-internal", "holds termwise for any π_t, P_t"),
    _unchecked("lemma7_000", "000", "Lemma 7", "the simulation lemma, layer by layer", "line 596",
               "proof-internal", "algebra, for any π_t, P_t"),
    _unchecked("lemma8_000", "000", "Lemma 8",
               "Σ q^{P,π_t}‖P_t − P‖₁ ≤ 2L|X|√(2T ln(1/δ)) + 3L|X|√(2T|A| ln(T|X||A|/δ))", "line 606",
               "not recorded",
               "its left side is not recorded; Lemma 2's E^q_δ is twice its bound, checked on q_error_l1"),
    _unchecked("lemma9_000", "000", "Lemma 9", "Σ ℓ_tᵀ(q_t − q̂_t) ≤ ℓ̄ E^q_δ", "line 622", "proof-internal",
               "Hölder with Lemma 2, which is checked"),
    _unchecked("lemma10_000", "000", "Lemma 10", "OGD on q̂: Σ ℓ_tᵀ(q̂_t − q) ≤ Lℓ̄C√T + (|X||A|/2)ℓ̄n/(C√T)",
               "line 644", "not recorded",
               "on the estimated occupancy q̂_t; Theorem 3 (= Lemmas 9 + 10, on the true q_t) is checked"),
    _unchecked("lemma11_000", "000", "Lemma 11", "‖λ_{t+1}‖₁ − ‖λ_t‖₁ ≤ mηL", "line 719", "proof-internal",
               "it is the learner's own ceiling on max_τ ‖λ_τ‖₁ (regretlab.registry.theory.CEILINGS): "
               "implied at every point of every run"),
    _unchecked("lemma12_000", "000", "Lemma 12", "an excursion of ‖λ‖₁ in Theorem 4's proof lasts > M/(ρ²mη)",
               "line 857", "proof-internal", "about hypothetical t1, t2 inside a proof by contradiction"),
    _unchecked("lemma13_000", "000", "Lemma 13", "Σ λ_tᵀG_tᵀq_t ≥ −λ_{1,T}E^q_δ − R^D_T(0)", "line 987",
               "proof-internal", "Hölder with Lemma 2 and the definition of R^D_T(0)"),
    _unchecked("lemma15_000", "000", "Lemma 15", "V_T ≤ V̂_{T,i*} + E^q_δ", "line 1037", "proof-internal",
               "Hölder with Lemma 2 (V̂, on the estimated occupancies, is not recorded)"),
)  # fmt: skip

CLAIMS_BY_KEY: dict[str, Claim] = {claim.key: claim for claim in CLAIMS + UNCHECKED_CLAIMS}
