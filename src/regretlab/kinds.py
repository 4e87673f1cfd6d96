"""What each kind of regime provides to the workflow: its algorithms (with their constants presets) and the
per-run metrics its run tables carry. A regime's ``kind`` in ``config.yaml`` is a key of :data:`KINDS`."""

from __future__ import annotations

from dataclasses import dataclass

from regretlab.bandits.algorithms import ALGORITHMS as BANDIT_ALGORITHMS
from regretlab.cmdp.pdgd_ops import LEARNERS as CMDP_LEARNERS
from regretlab.cmdp.pdgd_ops import PRESETS as CMDP_PRESETS


@dataclass(frozen=True)
class Kind:
    """A family of regimes sharing one instance/run pipeline.

    Attributes:
        presets: algorithm name → the constants presets it accepts.
        metrics: per-seed metrics of the run tables, summarised by the aggregation.
    """

    presets: dict[str, tuple[str, ...]]
    metrics: tuple[str, ...]


KINDS: dict[str, Kind] = {
    "bandit": Kind(
        presets={name: spec.presets for name, spec in BANDIT_ALGORITHMS.items()},
        # Per-arm regrets and losses (paper 001 §4) and the η, η̄, δ a run used (Theorems 7–8's bounds are
        # evaluated at them); NaN where an instance or learner has none (regretlab.bandits.simulate).
        metrics=(
            "pseudo_regret",
            "realized_regret",
            "L_star",
            "regret_best_S",
            "regret_best_Sbar",
            "L_best_S",
            "L_best_Sbar",
            "L_D",
            "eta",
            "eta_bar",
            "delta",
            # ε̂ = ln(2N + 1)/ln T of Theorem 5's construction (regretlab.bandits.lower_bound)
            "theorem5_epsilon",
        ),
    ),
    "cmdp": Kind(
        presets={name: CMDP_PRESETS for name in CMDP_LEARNERS},
        metrics=(
            "regret",
            "violation",
            "reward",
            "reward_ratio",
            "lambda_l1_max",
            "lambda_l1",
            "dual_regret",
            "coverage",
            "q_error_l1",
            "primal_regret",
            "interval_regret_max",
            "interval_regret_ratio_max",
            "epochs",
            "fallbacks",
            "ell_bar",
            "rho",
            "opt",
            "C",
        ),
    ),
}
