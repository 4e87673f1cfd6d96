"""The CMDP kind (paper 000: layered constrained MDPs with long-term constraints), everything the workflow
knows of it in one :class:`regretlab.specs.kind_spec.Kind`: its algorithms and bounds, the metrics of its run
tables, how an instance entry is checked and what a run costs, its null learner and how a learner's constants
are recomputed at another horizon. Its runs (:mod:`regretlab.cmdp.runs`) are named, not imported: summaries
never load them.
"""

from __future__ import annotations

import importlib
import json
from functools import cache, partial

import numpy as np

from regretlab.cmdp import nulls
from regretlab.cmdp.algorithms import ALGORITHMS
from regretlab.cmdp.bound_registry import BOUNDS, CEILINGS, TRIVIAL_BOUNDS
from regretlab.cmdp.floors import FLOOR_BOUNDS, floor_horizon
from regretlab.cmdp.instance import FAMILIES
from regretlab.cmdp.instance_builder import build_instance
from regretlab.cmdp.instance_checks import check_instance
from regretlab.cmdp.power_search import search_row
from regretlab.core.seeding import job_seed_sequence
from regretlab.specs.kind_spec import FamilySection, Kind, KindCost, Metric

#: Rewards are in [0, 1] and constraint values in [−1, 1] per step of an episode (paper 000 §2).
_REWARD = "cumulative reward"
_CONSTRAINT = "cumulative constraint value"

METRICS: dict[str, Metric] = {
    "regret": Metric(
        "regret R_T = T·OPT − Σ r_tᵀq_t", _REWARD, "Definition 2 (eq. (7), line 145) of paper 000"
    ),
    "violation": Metric(
        "violation V_T = max_i Σ [G_tᵀq_t]_i", _CONSTRAINT, "Definition 3 (eq. (8), line 159)"
    ),
    "violation_hat": Metric(
        "estimated violation V̂_t = max_i Σ [G_τᵀq̂_τ]_i", _CONSTRAINT,
        "what the dual steps on (Algorithm 2 line 9; Lemma 14, line 1017)",
    ),
    "dual_shortfall": Metric(
        "dual shortfall max_i (ηV̂_{t,i} − λ_{t+1,i})", "per unit of constraint",
        "≤ 0 by Lemma 14 (line 1017) while the dual is unclipped; 0 when it never touched 0",
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
    "dual_regret": Metric("dual regret R^D_t(0) = −Σ λ_τᵀG_τᵀq̂_τ", _REWARD, "App. C.1.1 (line 701) at λ = 0"),
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
    "dual_eta": Metric("dual step η", "per unit of constraint", "the η of eq. (9) the run's dual used"),
    "C": Metric("primal constant C", "dimensionless", "C of η_t = 1/(ℓ̄_t C √T) (App. C.2)"),
}


@cache
def _triples(regime: str, instance: str, spec_json: str) -> int:
    cmdp = build_instance(
        json.loads(spec_json), np.random.default_rng(job_seed_sequence(regime, instance, "instance"))
    )["cmdp"]
    sizes, n_actions = cmdp["layer_sizes"], cmdp["n_actions"]
    return int(sum(a * n_actions * b for a, b in zip(sizes[:-1], sizes[1:], strict=True)))


def instance_triples(regime: str, instance: str, spec: dict) -> int:
    """``Σ_k |X_k| |A| |X_{k+1}|``, the support triples of a CMDP instance entry, from the instance its job
    builds (~10 ms, once per instance), so that every CMDP family
    :func:`regretlab.cmdp.instance_builder.build_instance` builds is sized."""
    return _triples(regime, instance, json.dumps(spec, sort_keys=True))


def learner_params(row: dict, instance: dict, T: int, oracle: dict) -> dict:
    """The constants the row's learner would run with at horizon ``T``: its preset's
    (:func:`regretlab.cmdp.pdgd_ops.pdgd_constants`). The learner's module is imported by name when first
    needed: a summary, which imports this module, runs no learner (the evidence table, which calls this,
    counts every learner's module among its code, :func:`regretlab.workflow.imports.job_modules`)."""
    pdgd_constants = importlib.import_module("regretlab.cmdp.pdgd_ops").pdgd_constants
    cmdp = instance["cmdp"]
    numbers = instance["numbers"]
    constants = pdgd_constants(
        row["constants"], cmdp["layer_sizes"], cmdp["n_actions"], numbers["m"], T, numbers["delta"],
        rho=cmdp["rho"],
    )  # fmt: skip
    return {"eta": constants.eta, "C": constants.C}


KIND = Kind(
    description="paper 000: layered constrained MDPs with long-term constraints (regretlab.cmdp)",
    algorithms=ALGORITHMS,
    bounds=BOUNDS,
    metrics=METRICS,
    time_unit="episode",
    uniform_value=nulls.uniform_value,
    instance_check=check_instance,
    cost=KindCost(unit="episodes", size_name="triples", size=instance_triples),
    learner_params=learner_params,
    pipeline="regretlab.cmdp.runs",
    trivial_bounds=TRIVIAL_BOUNDS,
    ceilings=CEILINGS,
    families=(
        FamilySection("cmdp", "CMDP families (cmdp instances: family: NAME; every CMDP family takes the same "
                      "parameters)", "cmdp_instance", "family", FAMILIES, shared=True),
    ),  # fmt: skip
    valid_on=lambda algorithm: ("-", "layered loop-free CMDPs (paper 000 §3)"),
    speaking_floor=floor_horizon,
    power_searches={name: partial(search_row, name) for name in FLOOR_BOUNDS},
)
