"""The registry of bandit algorithms: config name → everything the workflow needs to run, check and draw it.

An algorithm is one module (a learner meeting :class:`regretlab.bandits.learner.BanditLearner`) plus one
entry of :data:`ALGORITHMS` (docs/add-an-algorithm.md). ``build`` receives
``(instance, horizon, rng, constants, oracle)``; ``oracle`` carries what a theorem's tuning assumes known —
``{"L_star": …}``, the realised total loss of the best arm, and for Section 4 ``{"L_best_S": …}`` (L_{i*_S},
the best self-loop arm's) or ``{"L_D": …}`` (the mean over a minimum weakly dominating set D) — and is filled
only with the keys of the entry's ``oracle``; adaptive algorithms never receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from regretlab.bandits.algorithm1 import Algorithm1, meta_graph
from regretlab.bandits.algorithm2 import FREE as ALGORITHM2_FREE
from regretlab.bandits.algorithm2 import PRESETS as ALGORITHM2_PRESETS
from regretlab.bandits.algorithm2 import Algorithm2
from regretlab.bandits.algorithm4 import Algorithm4
from regretlab.bandits.algorithm5 import Algorithm5
from regretlab.bandits.algorithm6 import Algorithm6
from regretlab.bandits.algorithm7 import Algorithm7
from regretlab.bandits.exp3g import Exp3G
from regretlab.bandits.exp3g_weak import Exp3GWeak
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.leader import ExplorationLeader
from regretlab.bandits.presets import require_preset
from regretlab.bandits.theorem2 import Theorem2, clipped_simplex_bounds
from regretlab.bandits.theorem3 import Theorem3
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.specs.algorithm_spec import PALETTE, UnitCost
from regretlab.specs.algorithm_spec import AlgorithmSpec as BaseAlgorithmSpec


@dataclass(frozen=True, kw_only=True)
class AlgorithmSpec(BaseAlgorithmSpec):
    """A bandit algorithm: the fields of :class:`regretlab.specs.algorithm_spec.AlgorithmSpec` and

    Attributes:
        build: ``(instance, horizon, rng, constants, oracle) -> learner``.
        graph_class: the feedback graphs it is valid on, a key of
            :data:`~regretlab.bandits.instance_checks.GRAPH_CLASSES` (``"strongly_observable"``,
            ``"self_aware"``, ``"weakly_observable"``, ``"directed_complete_bipartite"`` or
            ``"any_observable"``); the config check rejects an algorithm on an instance whose graph is not of
            its class before any job runs.
        oracle: the realised totals its tuning takes (``L_star``, ``L_best_S``, ``L_D``), computed by a dry
            pass over the run's own loss sequence (:func:`regretlab.bandits.simulate.run_seeds`).
        horizon_rule: ``(graph, T) → problem or None``, the smallest horizon its decision set allows on a
            graph, checked for every configured horizon before any job (None: not checked; its constructor
            still is, when its job runs).
    """

    graph_class: str
    oracle: tuple[str, ...] = ()
    horizon_rule: Callable[[FeedbackGraph, int], str | None] | None = None


def _exp3g_horizon(graph: FeedbackGraph, horizon: int) -> str | None:
    """Exp3.G's Ω = {p_i ≥ 2η/K} with η = 1/√(αT) (paper 001 §3.1) is empty unless 2η ≤ 1, i.e. αT ≥ 4."""
    alpha = graph.independence_number.value
    if alpha * horizon < 4:
        return (
            f"Exp3.G's Ω = {{p_i ≥ 2η/K}}, η = 1/√(αT), is empty unless αT ≥ 4 (α = {alpha}), "
            f"got T = {horizon}"
        )
    return None


def _clipped_simplex_horizon(graph: FeedbackGraph, horizon: int) -> str | None:
    """Ω = {p_i ≥ 1/T} of Theorems 2 and 3 (and Algorithm 5's stage 2) needs T > K."""
    try:
        clipped_simplex_bounds(graph.n_arms, horizon)
    except ValueError as error:
        return str(error)
    return None


def _meta_graph_horizon(graph: FeedbackGraph, horizon: int) -> str | None:
    """Algorithms 1 and 4 play over Ω = {p_j ≥ 1/T} on the β = κ + s̄ meta-nodes: they need T > β."""
    beta = meta_graph(graph).in_s.size
    if horizon <= beta:
        return f"Ω = {{p_j ≥ 1/T}} on the β = κ + s̄ = {beta} meta-nodes needs T > β, got T = {horizon}"
    return None


#: The keys every learner built on a meta-graph reports (Algorithms 1 and 4, regretlab.bandits.algorithm1).
_META_GRAPH_PARAMS = ("c", "kappa", "beta", "s_bar", "cliques", "clique_partition_exact", "rho_1",
                      "rate_growth", "rate_increases", "constants")  # fmt: skip
#: The keys Algorithm 2 reports, in both variants, after its run (regretlab.bandits.algorithm2).
_ALGORITHM2_PARAMS = ("eta", "eta_bar", "delta", "theta", "variant", "gamma", "oracle_loss", "s", "s_bar",
                      "D", "constants", "lemma6_min_ratio")  # fmt: skip
#: The keys Algorithm 7 reports, for either γ (regretlab.bandits.algorithm7).
_ALGORITHM7_PARAMS = ("gamma", "D", "d", "delta_start", "delta_final", "eta_final", "eta_bar_final",
                      "n_resets", "n_epochs", "reset_rounds", "epoch_ends",
                      "delta_final_at_least_1_over_T")  # fmt: skip

# Unit costs (``unit_cost``, µs; the size is K): measured by regretlab.workflow.calibration on the shipped
# config's instances, where the cost model (regretlab.registry.unit_costs) documents how and how to refresh
# them.
ALGORITHMS: dict[str, AlgorithmSpec] = {
    "exp3g": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Exp3G(
            instance.graph, horizon, rng, constants
        ),
        description="Exp3.G (Alon et al. 2015; paper 001 §3.1)",
        label="Exp3.G",
        colour=PALETTE["indigo"],
        presets=Exp3G.presets,
        params=("eta", "exploration_floor", "alpha", "constants"),
        default_bounds=("exp3g_rate",),
        table1="strong_minimax",
        reference=3,
        unit_cost=UnitCost(run_us=2200, round_us=0.059, size_us=0.018),
        graph_class="strongly_observable",
        horizon_rule=_exp3g_horizon,
    ),
    "theorem2": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Theorem2(
            instance.graph, horizon, rng, constants, step
        ),
        free=Theorem2.free,
        description="OMD with eq. (5), Ω = {p_i ≥ 1/T} (paper 001 Theorem 2)",
        label="Theorem 2 (OMD, eq. (5))",
        colour=PALETTE["rose"],
        presets=Theorem2.presets,
        params=("eta", "c", "lower", "alpha", "constants", "lemma9_log_ratio"),
        default_bounds=("theorem2_bound",),
        table1="theorem2",
        reference=1,
        unit_cost=UnitCost(run_us=2300, round_us=0.046, size_us=0.033),
        graph_class="strongly_observable",
        horizon_rule=_clipped_simplex_horizon,
    ),
    "theorem3": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Theorem3(
            instance.graph, horizon, rng, constants, L_star=oracle["L_star"], step=step
        ),
        free=Theorem3.free,
        description="OMD with eq. (6), η tuned with the true L* (paper 001 Theorem 3)",
        label="Theorem 3 (OMD, eq. (6), oracle L*)",
        colour=PALETTE["green"],
        presets=Theorem3.presets,
        params=("eta", "eta_cap", "c", "lower", "s", "L_star", "constants", "lemma9_log_ratio"),
        default_bounds=("theorem3_bound",),
        table1="theorem3",
        unit_cost=UnitCost(run_us=2300, round_us=0.054, size_us=0.028),
        graph_class="strongly_observable",
        oracle=("L_star",),
        horizon_rule=_clipped_simplex_horizon,
    ),
    "algorithm1": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm1(
            instance.graph, horizon, rng, constants, L_star=oracle["L_star"]
        ),
        description="Algorithm 1: cliques as meta-nodes, adaptive Hedge inside (paper 001 Theorem 4)",
        label="Algorithm 1 (Theorem 4, oracle L*)",
        colour=PALETTE["purple"],
        presets=Algorithm1.presets,
        params=("eta", "eta_max", "L_star", *_META_GRAPH_PARAMS),
        default_bounds=("algorithm1_rate",),
        table1="strong_ours",
        unit_cost=UnitCost(run_us=2400, round_us=0.20, size_us=0.0082),
        graph_class="strongly_observable",
        oracle=("L_star",),
        horizon_rule=_meta_graph_horizon,
    ),
    "algorithm4": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm4(
            instance.graph, horizon, rng, constants
        ),
        description="Algorithm 4: Algorithm 1 with resets, no knowledge of L* (paper 001 Theorem 13)",
        label="Algorithm 4 (Theorem 13)",
        colour=PALETTE["olive"],
        presets=Algorithm4.presets,
        params=("eta_start", "eta_final", "n_resets", "n_epochs", "reset_rounds", "epoch_ends",
                *_META_GRAPH_PARAMS),  # fmt: skip
        default_bounds=("algorithm4_proof_rate",),
        table1="strong_ours",
        unit_cost=UnitCost(run_us=2500, round_us=0.25, size_us=0.010),
        graph_class="strongly_observable",
        horizon_rule=_meta_graph_horizon,
    ),
    "algorithm5": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm5(
            instance.graph, horizon, rng, constants
        ),
        description="Algorithm 5 for self-aware graphs (paper 001 Theorem 14)",
        label="Algorithm 5 (Theorem 14)",
        colour=PALETTE["teal"],
        presets=Algorithm5.presets,
        params=(
            "eta_init",
            "epsilon_init",
            "eta_floor",
            "max_meta_epochs",
            "kappa",
            "alpha",
            "constants",
            "stage2",
            "meta_epochs",
            "epochs",
            "stage2_started",
            "stage2_start_round",
            "eta",
            "epsilon",
        ),
        default_bounds=("theorem14_rate",),
        table1="self_aware_ours",
        unit_cost=UnitCost(run_us=2200, round_us=0.16, size_us=0.0040),
        graph_class="self_aware",
        horizon_rule=_clipped_simplex_horizon,
    ),
    "exp3g_weak": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Exp3GWeak(
            instance.graph, horizon, rng, constants, step
        ),
        free=Exp3GWeak.free,
        description="Exp3.G with exploration on a weakly dominating set (Alon et al. 2015; paper 001 §4)",
        label="Exp3.G on a weakly dominating set",
        colour=PALETTE["indigo"],
        presets=Exp3GWeak.presets,
        params=("gamma", "eta", "d", "D", "constants"),
        default_bounds=("exp3g_weak_bound",),
        # Exp3.G-weak runs on stars and on bipartite graphs alike (a bipartite graph is weakly observable
        # with d = 1), so its fits are listed once, under the general row.
        table1="weak_minimax",
        reference=2,
        unit_cost=UnitCost(run_us=2400, round_us=0.011, size_us=0.013),
        graph_class="weakly_observable",
    ),
    "algorithm2_bipartite": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Algorithm2(
            instance.graph, horizon, rng, constants, "bipartite", oracle["L_best_S"], step=step
        ),
        free=ALGORITHM2_FREE["bipartite"],
        description="Algorithm 2, Ω = {Σ_S p ≥ √η̄}, η, η̄ tuned with the true L_{i*_S} (paper 001 Theorem 7)",
        label="Algorithm 2 (Theorem 7, oracle L_{i*_S})",
        colour=PALETTE["rose"],
        presets=ALGORITHM2_PRESETS["bipartite"],
        params=_ALGORITHM2_PARAMS,
        default_bounds=("theorem7_best_S", "theorem7_best_Sbar"),
        table1="bipartite_ours",
        unit_cost=UnitCost(run_us=2300, round_us=0.23, size_us=0.034),
        graph_class="directed_complete_bipartite",
        oracle=("L_best_S",),
    ),
    "algorithm2_weak": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Algorithm2(
            instance.graph, horizon, rng, constants, "weak", oracle["L_D"], gamma=1.0 / 3.0, step=step
        ),
        free=ALGORITHM2_FREE["weak"],
        description="Algorithm 2, Ω = {p ≥ δ on D}, γ = 1/3, tuned with the true L_D (paper 001 Theorem 8)",
        label="Algorithm 2 (Theorem 8, γ = 1/3, oracle L_D)",
        colour=PALETTE["rose"],
        presets=ALGORITHM2_PRESETS["weak"],
        params=_ALGORITHM2_PARAMS,
        default_bounds=("theorem8_best_S_third", "theorem8_best_Sbar_third"),
        table1="weak_ours",
        unit_cost=UnitCost(run_us=2600, round_us=0.019, size_us=0.036),
        graph_class="weakly_observable",
        oracle=("L_D",),
    ),
    "algorithm2_weak_half": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle, step=None: Algorithm2(
            instance.graph, horizon, rng, constants, "weak", oracle["L_D"], gamma=0.5, step=step
        ),
        free=ALGORITHM2_FREE["weak"],
        description="Algorithm 2, Ω = {p ≥ δ on D}, γ = 1/2, tuned with the true L_D (paper 001 Theorem 8)",
        label="Algorithm 2 (Theorem 8, γ = 1/2, oracle L_D)",
        colour=PALETTE["wine"],
        presets=ALGORITHM2_PRESETS["weak"],
        params=_ALGORITHM2_PARAMS,
        default_bounds=("theorem8_best_S_half", "theorem8_best_Sbar_half"),
        table1="weak_ours",
        unit_cost=UnitCost(run_us=2400, round_us=0.14, size_us=0.021),
        graph_class="weakly_observable",
        oracle=("L_D",),
    ),
    "algorithm6": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm6(
            instance.graph, horizon, rng, constants
        ),
        description="Algorithm 6: Algorithm 2 with clipping and resets, no oracle (paper 001 Theorem 17)",
        label="Algorithm 6 (Theorem 17)",
        colour=PALETTE["green"],
        presets=Algorithm6.presets,
        params=(
            "eta_start",
            "eta_final",
            "eta_bar_final",
            "n_resets",
            "n_epochs",
            "reset_rounds",
            "epoch_ends",
            "eta_bar_capped_epochs",
            "clipping_rounds",
            "clipped_arms",
        ),
        default_bounds=("theorem17_best_S", "theorem17_best_Sbar"),
        table1="bipartite_ours",
        unit_cost=UnitCost(run_us=2500, round_us=0.21, size_us=0.021),
        graph_class="directed_complete_bipartite",
    ),
    "algorithm7": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm7(
            instance.graph, horizon, rng, constants, gamma=1.0 / 3.0
        ),
        description="Algorithm 7: Algorithm 2 with resets on δ, γ = 1/3, no oracle (paper 001 Theorem 18)",
        label="Algorithm 7 (Theorem 18, γ = 1/3)",
        colour=PALETTE["green"],
        presets=Algorithm7.presets,
        params=_ALGORITHM7_PARAMS,
        default_bounds=("theorem18_best_S_third", "theorem18_best_Sbar_third"),
        table1="weak_ours",
        unit_cost=UnitCost(run_us=2600, round_us=0.024, size_us=0.022),
        graph_class="weakly_observable",
    ),
    "algorithm7_half": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm7(
            instance.graph, horizon, rng, constants, gamma=0.5
        ),
        description="Algorithm 7: Algorithm 2 with resets on δ, γ = 1/2, no oracle (paper 001 Theorem 18)",
        label="Algorithm 7 (Theorem 18, γ = 1/2)",
        colour=PALETTE["teal"],
        presets=Algorithm7.presets,
        params=_ALGORITHM7_PARAMS,
        default_bounds=("theorem18_best_S_half", "theorem18_best_Sbar_half"),
        table1="weak_ours",
        unit_cost=UnitCost(run_us=2500, round_us=0.11, size_us=0.011),
        graph_class="weakly_observable",
    ),
    "exploration_leader": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: ExplorationLeader(
            instance.graph, horizon, rng, constants
        ),
        description="Follow the leader, exploration min{1, 1/t} on D: O(ln T) regret at L* = 0 (Theorem 5)",
        label="Leader + exploration 1/t on D (not in the paper)",
        colour=PALETTE["olive"],
        presets=ExplorationLeader.presets,
        params=("c", "d", "D", "constants"),
        default_bounds=("theorem5_premise_rate", "theorem5_lower"),
        # Theorem 5's learner tests the row's "no o(L*) bound": O(ln T) at L* = 0, ≈ T^{1−ε} beside it.
        table1="weak_ours",
        unit_cost=UnitCost(run_us=2500, round_us=0.024, size_us=0.00097),
        graph_class="weakly_observable",
    ),
}


def make_learner(
    name: str,
    instance: BanditInstance,
    horizon: int,
    rng: np.random.Generator,
    constants: str = "paper",
    oracle: dict | None = None,
    step: dict | None = None,
):
    """Build the learner ``name`` for one run; ``step`` sets step sizes of its entry's ``free`` by hand."""
    if name not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {name!r}")
    spec = ALGORITHMS[name]
    require_preset(name, spec.presets, constants)
    missing = [key for key in spec.oracle if oracle is None or key not in oracle]
    if missing:
        raise ValueError(
            f"{name} is tuned with the realised {missing} (the theorem's oracle tuning): pass "
            + ", ".join(f"oracle[{key!r}]" for key in missing)
        )
    if step:
        if not spec.free:
            raise ValueError(f"{name} takes no step sizes by hand (its registry entry's free is empty)")
        return spec.build(instance, horizon, rng, constants, oracle or {}, step=step)
    return spec.build(instance, horizon, rng, constants, oracle or {})
