"""The bandit kind (paper 001: K-armed bandits with graph feedback), everything the workflow knows of it in
one :class:`regretlab.specs.kind_spec.Kind`: its algorithms and bounds, the metrics of its run tables, how an
instance entry is checked and what a run costs, its null learner and how a learner is rebuilt at another
horizon. Its runs (:mod:`regretlab.bandits.simulate`) are named, not imported: summaries never load them.
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np

from regretlab.bandits import nulls
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.bound_registry import BOUNDS, TRIVIAL_BOUNDS
from regretlab.bandits.environments import CHUNK_ROUNDS
from regretlab.bandits.instance import GRAPH_FAMILIES, LOSS_KINDS
from regretlab.bandits.instance_checks import GRAPH_CLASSES, check_instance
from regretlab.bandits.learner import TUNING_COLUMNS
from regretlab.bandits.searches import SEARCHES
from regretlab.specs.kind_spec import FamilySection, Kind, KindCost, Metric

#: Losses are in [0, 1] per round (paper 001 §2).
_LOSS = "cumulative loss"
#: Loss totals of a bandit point: they grow in proportion to T (stationary losses), and are the oracle totals
#: a learner's tuning takes (:attr:`regretlab.bandits.algorithms.AlgorithmSpec.oracle`).
LOSS_TOTALS = ("L_star", "L_best_S", "L_best_Sbar", "L_D")
#: Copies of the per-chunk loss matrix a bandit run may hold at once (the draw, its conversions, the view).
CHUNK_COPIES = 4

# Per-arm regrets and losses (paper 001 §4) and the η, η̄, δ a run used (Theorems 7–8's bounds are evaluated at
# them); NaN where an instance or learner has none (regretlab.bandits.simulate).
METRICS: dict[str, Metric] = {
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
    "eta_bar": Metric("second learning rate η̄", "per unit of loss", "Algorithm 2's η̄ on S̄ (its params)"),
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
    "lemma9_log_ratio": Metric(
        "largest |ln(p_{t+1,i}/p_{t,i})| so far",
        "log ratio",
        "max over i and the rounds so far of |ln(p_{t+1,i}/p_{t,i})| of Theorems 2 and 3's OMD steps "
        "(Lemma 9, line 280: at most ln 2)",
    ),
    "resets": Metric(
        "resets so far",
        "count",
        "epochs − 1 of an adaptive learner's doubling trick (Algorithms 4, 6, 7: their n_resets)",
    ),
}


@cache
def _arms(graph_json: str) -> int:
    """K of a graph entry (a random family draws from a throwaway generator: K does not depend on it)."""
    graph = json.loads(graph_json)
    return GRAPH_FAMILIES[graph["family"]](graph, np.random.default_rng(0)).n_arms


def instance_arms(regime: str, instance: str, spec: dict) -> int:
    """K, the number of arms of a bandit instance entry."""
    return _arms(json.dumps(spec["graph"], sort_keys=True))


def loss_chunks_mb(regime: str, instance: str, spec: dict) -> float:
    """A run's loss chunks (CHUNK_COPIES × CHUNK_ROUNDS × K float64), in MB."""
    return CHUNK_COPIES * CHUNK_ROUNDS * instance_arms(regime, instance, spec) * 8 / 2**20


def calibration_runs(spec: dict) -> int:
    """Runs on environment 1 that a job on Theorem 5's environment 2 plays first to find its interval."""
    losses = spec.get("losses", {})
    if losses.get("kind") == "theorem5" and losses.get("environment") == 2:
        return int(losses["calibration_seeds"])
    return 0


def learner_params(row: dict, instance: dict, T: int, oracle: dict) -> dict:
    """The constants the row's learner would run with at horizon ``T``: the learner built for ``T`` with the
    extrapolated oracle totals (a ValueError when it cannot run there). The evidence table's searches ask
    for the same learner at the same horizon about twice on average: each is built once per process
    (:data:`_PARAMS`); callers get a copy."""
    bandit = nulls.rebuilt_instance(instance)  # one object per instance contents, kept for the process
    step = row.get("step") or ""  # set by hand in the config (JSON): kept at T
    key = (id(bandit), row["algorithm"], row["constants"], step, int(T), tuple(sorted(oracle.items())))
    if key not in _PARAMS:
        if len(_PARAMS) >= _PARAMS_KEPT:
            _PARAMS.clear()
        rng = np.random.default_rng(0)  # a learner's constants do not depend on its generator
        steps = json.loads(step) if step else None
        learner = make_learner(
            row["algorithm"], bandit.at_horizon(T), T, rng, row["constants"], oracle, steps
        )
        _PARAMS[key] = dict(learner.params)
    return dict(_PARAMS[key])


#: :func:`learner_params` already built, by (instance object's id — :func:`nulls.rebuilt_instance` keeps
#: every instance it builds, so an id is never reused —, algorithm, constants, step, T, oracle totals).
_PARAMS: dict[tuple, dict] = {}
#: At most this many are kept (then the cache starts again): a default evidence table asks for ≈ 26 000.
_PARAMS_KEPT = 2**17


def valid_on(algorithm: str) -> tuple[str, str]:
    """The feedback graphs ``algorithm`` is valid on: its graph class and the class in words."""
    graph_class = ALGORITHMS[algorithm].graph_class
    return graph_class, GRAPH_CLASSES[graph_class].description


#: What ``regretlab list families`` lists: the graph families and the loss kinds, each with its parameters.
FAMILIES = (
    FamilySection("graph", "graph families (bandit instances: graph: {family: NAME, ...})", "graph", "family",
                  tuple(GRAPH_FAMILIES)),
    FamilySection("losses", "loss kinds (bandit instances: losses: {kind: NAME, ...})", "losses", "kind",
                  tuple(LOSS_KINDS)),
)  # fmt: skip


KIND = Kind(
    description="paper 001: K-armed bandits with graph feedback (regretlab.bandits)",
    algorithms=ALGORITHMS,
    bounds=BOUNDS,
    metrics=METRICS,
    time_unit="round",
    uniform_value=nulls.uniform_value,
    instance_check=check_instance,
    cost=KindCost(
        unit="rounds", size_name="K", size=instance_arms, data_mb=loss_chunks_mb, extra_runs=calibration_runs
    ),
    learner_params=learner_params,
    pipeline="regretlab.bandits.simulate",
    trivial_bounds=TRIVIAL_BOUNDS,
    horizon_scaled=LOSS_TOTALS,
    param_columns=TUNING_COLUMNS,
    shared_draws=True,
    families=FAMILIES,
    valid_on=valid_on,
    searches=SEARCHES,
    trials="regretlab.bandits.trials",
)
