"""What each kind of regime provides to the workflow: its algorithm registry and the per-run metrics its run
tables carry, each with the words and unit figures label it with. A regime's ``kind`` in ``config.yaml`` is a
key of :data:`KINDS` (the schema's ``kind`` names are filled from it, :func:`regretlab.config.load_schema`).

A new kind is one entry here plus its pipeline: an instance check (:data:`regretlab.checks.INSTANCE_CHECKS`),
a cost model (:data:`regretlab.cost.KIND_COSTS`), an instance schema (``$defs.<kind>_instance``), one rule
file and its scripts (docs/add-a-kind.md); tests/test_registries.py checks that every kind
has each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from regretlab.algorithm_spec import AlgorithmSpec
from regretlab.bandits import nulls as bandit_nulls
from regretlab.bandits.algorithms import ALGORITHMS as BANDIT_ALGORITHMS
from regretlab.cmdp import nulls as cmdp_nulls
from regretlab.cmdp.algorithms import ALGORITHMS as CMDP_ALGORITHMS


@dataclass(frozen=True)
class Metric:
    """One per-run metric, as figures label it.

    Attributes:
        label: what it is, in words (and the paper's symbol), for axis labels.
        unit: its unit, in words (the axis label adds it in parentheses).
        description: one line for listings: its definition and where the paper defines it.
        proportion: the metric is a 0/1 event per run (e.g. Lemma 5's "every epoch covered"): the aggregate
            summarises it by the fraction of seeds with a Clopper–Pearson interval instead of the bootstrap
            one, and a bound on it is a binomial test (:mod:`regretlab.analysis.aggregate`).
    """

    label: str
    unit: str
    description: str
    proportion: bool = False

    @property
    def axis_label(self) -> str:
        """``label (unit)``, the figures' axis label."""
        return f"{self.label} ({self.unit})"


@dataclass(frozen=True)
class Kind:
    """A family of regimes sharing one instance/run pipeline.

    Attributes:
        description: one line for listings.
        algorithms: its algorithm registry, name → :class:`regretlab.algorithm_spec.AlgorithmSpec`.
        metrics: per-run metrics of the run tables, summarised by the aggregation, name → :class:`Metric`;
            the first is the one a regime with no bound at all draws.
        time_unit: what one step of a run is (``round``, ``episode``), for the horizon's axis label.
        uniform_value: the null learner's value, ``(instance file, metric, point, algorithm) → float``: what
            uniform play (bandits: p = 1/K; CMDPs: the uniform policy) scores on ``metric`` at a point of the
            instance (:mod:`regretlab.theory`'s point dict), exact in expectation; NaN where it has none.
    """

    description: str
    algorithms: Mapping[str, AlgorithmSpec]
    metrics: dict[str, Metric]
    time_unit: str
    uniform_value: Callable[[dict, str, dict, str], float]

    @property
    def presets(self) -> dict[str, tuple[str, ...]]:
        """Algorithm name → the constants presets it accepts."""
        return {name: spec.presets for name, spec in self.algorithms.items()}


#: Units of the cumulative metrics: paper 001's losses are in [0, 1] per round, paper 000's rewards in [0, 1]
#: and constraint values in [−1, 1] per step of an episode.
_LOSS = "cumulative loss"
_REWARD = "cumulative reward"
_CONSTRAINT = "cumulative constraint value"

KINDS: dict[str, Kind] = {
    "bandit": Kind(
        description="paper 001: K-armed bandits with graph feedback (regretlab.bandits)",
        algorithms=BANDIT_ALGORITHMS,
        # Per-arm regrets and losses (paper 001 §4) and the η, η̄, δ a run used (Theorems 7–8's bounds are
        # evaluated at them); NaN where an instance or learner has none (regretlab.bandits.simulate).
        metrics={
            "pseudo_regret": Metric(
                "pseudo-regret Σ⟨p_t, ℓ_t⟩ − L*", _LOSS, "expected loss of the plays minus the best arm's"
            ),
            "realized_regret": Metric(
                "realised regret Σ ℓ_{t,i_t} − L*", _LOSS, "loss of the arms played minus the best arm's"
            ),
            "L_star": Metric("L*, the best arm's total loss", _LOSS, "min_i Σ_t ℓ_{t,i} (§2)"),
            "regret_best_S": Metric(
                "regret to the best arm of S", _LOSS, "Σ⟨p_t, ℓ_t⟩ − L_{i*_S}, S the self-loop nodes (§4)"
            ),
            "regret_best_Sbar": Metric(
                "regret to the best arm of S̄", _LOSS, "Σ⟨p_t, ℓ_t⟩ − min_{i∈S̄} L_i, S̄ the loopless nodes (§4)"
            ),
            "L_best_S": Metric(
                "L_{i*_S}, total loss of the best arm of S", _LOSS, "min_{i∈S} Σ_t ℓ_{t,i} (§4, line 242)"
            ),
            "L_best_Sbar": Metric("total loss of the best arm of S̄", _LOSS, "min_{i∈S̄} Σ_t ℓ_{t,i} (§4)"),
            "L_D": Metric(
                "L_D, mean total loss of the nodes of D (weakly dominating set)",
                _LOSS,
                "(1/d) Σ_{i∈D} L_i over a minimum weakly dominating set D (§4, line 240)",
            ),
            "eta": Metric("learning rate η", "per unit of loss", "the η the learner ran with (its params)"),
            "eta_bar": Metric(
                "second learning rate η̄", "per unit of loss", "Algorithm 2's η̄ on S̄ (its params)"
            ),
            "delta": Metric(
                "exploration floor δ on D", "probability", "Algorithm 2's δ of Ω = {p ≥ δ on D} (Theorem 8)"
            ),
            # ε̂ of Theorem 5's construction, |I| = T^{1−ε̂} (regretlab.bandits.lower_bound.epsilon_hat)
            "theorem5_epsilon": Metric(
                "ε̂ of Theorem 5's construction",
                "exponent of T",
                "|I| = T^{1−ε̂}, I the interval the construction used (App. E.1)",
            ),
            # ℓ̂_I: the calibration runs' mean Σ_{t∈I} ⟨p_t, ℓ_t⟩ on environment 1 (lower_bound.find_interval),
            # which bounds the expected bad pulls in I and T^{−b} × the expected pulls of v there
            "theorem5_interval_loss": Metric(
                "expected loss in I on environment 1",
                _LOSS,
                "Σ_{t∈I} ⟨p_t, ℓ_t⟩ of the calibration runs on environment 1 (< 1/2 by the choice of I)",
            ),
            # An adaptive learner's counter at each checkpoint (regretlab.bandits.simulate.COUNTER_COLUMNS)
            "resets": Metric(
                "resets so far",
                "count",
                "epochs − 1 of an adaptive learner's doubling trick (Algorithms 4, 6, 7: their n_resets)",
            ),
        },
        time_unit="round",
        uniform_value=bandit_nulls.uniform_value,
    ),
    "cmdp": Kind(
        description="paper 000: layered constrained MDPs with long-term constraints (regretlab.cmdp)",
        algorithms=CMDP_ALGORITHMS,
        metrics={
            "regret": Metric(
                "regret R_T = T·OPT − Σ r_tᵀq_t", _REWARD, "Definition 2 (eq. (7), line 145) of paper 000"
            ),
            "violation": Metric(
                "violation V_T = max_i Σ [G_tᵀq_t]_i", _CONSTRAINT, "Definition 3 (eq. (8), line 159)"
            ),
            "reward": Metric("reward Σ r_tᵀq_t", _REWARD, "total expected reward of the played policies"),
            "reward_ratio": Metric(
                "reward ratio Σ r_tᵀq_t / (T·OPT)",
                "fraction of T·OPT",
                "the share of the offline optimum earned; Theorem 7 (line 433) bounds it from below",
            ),
            "lambda_l1_max": Metric(
                "largest dual multiplier max_τ ‖λ_τ‖₁",
                "reward per unit of constraint",
                "Theorem 4 (line 319) bounds it by ζ under Condition 2",
            ),
            "lambda_l1": Metric(
                "dual multiplier ‖λ_t‖₁", "reward per unit of constraint", "the multiplier of episode t"
            ),
            "dual_regret": Metric(
                "dual regret R^D_t(0) = −Σ λ_τᵀG_τᵀq̂_τ", _REWARD, "App. C.1.1 (line 701) at λ = 0"
            ),
            "coverage": Metric(
                "share of epochs whose confidence set holds P",
                "fraction of epochs",
                "the event E^Δ of Lemma 5 (line 548), checked per epoch",
            ),
            "all_epochs_covered": Metric(
                "share of seeds with every epoch's set ∋ P",
                "fraction of seeds",
                "the event E^Δ of Lemma 5 (line 548) on [1..t], 0 or 1 per run",
                proportion=True,
            ),
            "coverage_ratio_max": Metric(
                "largest ‖P − P̄_j‖₁ / ε_j",
                "ratio",
                "over the started epochs and pairs: at most 1 iff every set contains P (eq. (10))",
            ),
            "dual_clipped": Metric(
                "share of episodes whose dual step is clipped at T^{1/4}",
                "fraction of episodes",
                "eq. (16) clips a coordinate at the box side (Theorem 6's mechanism)",
            ),
            "q_error_l1": Metric(
                "occupancy error Σ_τ ‖q_τ − q̂_τ‖₁",
                "expected state-action visits",
                "Lemma 2 (line 237) on triples",
            ),
            "primal_regret": Metric(
                "primal regret R^P_T of UC-O-GDPS",
                "cumulative Lagrangian loss",
                "max_q Σ ℓ_τᵀ(q_τ − q), Definition 4",
            ),
            "interval_regret_max": Metric(
                "largest regret over dyadic intervals",
                "cumulative Lagrangian loss",
                "max over the ended dyadic intervals of R_{t1,t2} (Definition 4)",
            ),
            "interval_regret_ratio_max": Metric(
                "largest interval regret / Theorem 3's bound",
                "ratio",
                "Theorem 3 (line 305) says at most 1 on every interval",
            ),
            "epochs": Metric("epochs of the confidence sets", "count", "the epoch index i of UC-O-GDPS"),
            "fallbacks": Metric(
                "projections solved by the fallback solver", "count", "projections Newton could not certify"
            ),
            "ell_bar": Metric(
                "ℓ̄_t, largest loss entry fed to the primal",
                "Lagrangian loss per step",
                "max_τ ‖ℓ_τ‖_∞ (Algorithm 2 line 7)",
            ),
            "rho": Metric(
                "feasibility parameter ρ",
                "constraint value per episode",
                "the Slater margin of the run's benchmark (§3.5)",
            ),
            "opt": Metric("OPT, the offline optimum", "reward per episode", "the benchmark of Definition 2"),
            "lambda_star_l1": Metric(
                "‖λ*‖₁ of the run's horizon",
                "reward per unit of constraint",
                "the multiplier of eq. (5) with the r̄, Ḡ of Definition 2 for this T",
            ),
            "dual_eta": Metric(
                "dual step η", "per unit of constraint", "the η of eq. (9) the run's dual used"
            ),
            "C": Metric("primal constant C", "dimensionless", "C of η_t = 1/(ℓ̄_t C √T) (App. C.2)"),
        },
        time_unit="episode",
        uniform_value=cmdp_nulls.uniform_value,
    ),
}


def algorithm_spec(name: str) -> AlgorithmSpec | None:
    """The registry entry of ``name`` in whichever kind has it (algorithm names are unique across kinds),
    or None."""
    return next((kind.algorithms[name] for kind in KINDS.values() if name in kind.algorithms), None)


def metric_kind(metric: str) -> str | None:
    """The kind whose run tables carry ``metric`` (the first, for a name two kinds share), or None."""
    return next((name for name, kind in KINDS.items() if metric in kind.metrics), None)
