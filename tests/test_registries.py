"""The registries are the one place per extension point: each entry says what the rest of the code reads.

An algorithm entry's ``params`` are what its learner reports, a bound's ``params`` and ``metrics`` what its
functions read, each kind has its pipeline; every bandit learner meets the typed protocol, the plain-Python
template included, and a learner that does not record its rounds is named in the error.
"""

import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

from regretlab.analysis.tables import TABLE1
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.instance import build_instance
from regretlab.bandits.instance_checks import GRAPH_CLASSES
from regretlab.bandits.learner import BanditLearner
from regretlab.bandits.simulate import TUNING_COLUMNS, simulate
from regretlab.cmdp.algorithms import make_learner as make_cmdp_learner
from regretlab.registry.kinds import KINDS, metric_kind
from regretlab.registry.theory import BOUNDS, TRIVIAL_BOUNDS
from regretlab.registry.unit_costs import UNIT_COSTS

REPO = Path(__file__).resolve().parents[1]
TEMPLATE = REPO / "docs" / "recipes" / "exp3_blind.py"

#: One instance of each graph class the registered algorithms need.
INSTANCES = {
    "cliques": {"graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3]}},
    "figure1": {"graph": {"family": "figure1"}},
    "bipartite": {"graph": {"family": "directed_complete_bipartite", "n_self_loop": 2, "n_no_self_loop": 3}},
    "stars": {"graph": {"family": "weakly_observable_stars", "leaf_counts": [2, 3]}},
}
LOSSES = {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2}
ORACLE = {"L_star": 100.0, "L_best_S": 100.0, "L_D": 150.0}


def instance_for(graph_class: str):
    for spec in INSTANCES.values():
        instance = build_instance({**spec, "losses": LOSSES}, np.random.default_rng(0))
        if GRAPH_CLASSES[graph_class].holds(instance.graph):
            return instance
    raise AssertionError(f"no test instance of class {graph_class}")


def load_template():
    spec = importlib.util.spec_from_file_location("exp3_blind", TEMPLATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Exp3Blind


# ---- algorithms --------------------------------------------------------------------------------------------


def test_algorithm_names_are_unique_across_kinds_and_every_entry_is_complete():
    names = [name for kind in KINDS.values() for name in kind.algorithms]
    assert len(names) == len(set(names))
    for kind in KINDS.values():
        for name, spec in kind.algorithms.items():
            assert spec.description and spec.label and spec.colour.startswith("#"), name
            assert spec.presets and "paper" in spec.presets, name
            assert spec.table1 is None or spec.table1 in TABLE1, name
    assert all(spec.graph_class in GRAPH_CLASSES for spec in ALGORITHMS.values())
    # The cost model's per-algorithm table is the entries' unit costs.
    entries = {name: spec for kind in KINDS.values() for name, spec in kind.algorithms.items()}
    assert UNIT_COSTS == {name: spec.unit_cost for name, spec in entries.items() if spec.unit_cost}


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_bandit_learner_meets_the_protocol_and_reports_its_declared_params(name):
    spec = ALGORITHMS[name]
    instance = instance_for(spec.graph_class)
    for constants in spec.presets:
        learner = make_learner(name, instance, 200, np.random.default_rng(1), constants, ORACLE)
        assert isinstance(learner, BanditLearner), name
        assert tuple(inspect.signature(type(learner).__init__).parameters)[1:5] == (
            "graph",
            "horizon",
            "rng",
            "constants",
        )
        frame = simulate(learner, instance.at_horizon(200), 200, np.random.default_rng(2))
        assert set(learner.params) == set(spec.params), (name, constants)
        assert all(isinstance(value, bool) for value in learner.hypotheses.values())
        for column in TUNING_COLUMNS:  # the η, η̄, δ a learner reports become run columns
            assert np.isnan(frame[column]).all() != (column in spec.params), (name, column)


@pytest.mark.parametrize("name", sorted(KINDS["cmdp"].algorithms))
def test_every_cmdp_learner_reports_its_declared_params(name):
    for constants in KINDS["cmdp"].algorithms[name].presets:
        learner = make_cmdp_learner(name, [1, 2, 2, 1], 2, 1, 100, 0.1, constants, rho=0.5)
        assert set(learner.params) == set(KINDS["cmdp"].algorithms[name].params), (name, constants)


# ---- the learner protocol and its template -----------------------------------------------------------------


def test_the_plain_python_template_meets_the_protocol_and_its_bound():
    """docs/recipes/exp3_blind.py: records every checkpoint, same seed ⇒ same run, and its mean regret over
    seeds is below ln K/η + ηKT/2 = √(2KT ln K)."""
    exp3_blind = load_template()
    instance = build_instance({**INSTANCES["cliques"], "losses": LOSSES}, np.random.default_rng(0))
    horizon, k = 2000, instance.graph.n_arms

    def run(seed: int):
        learner = exp3_blind(instance.graph, horizon, np.random.default_rng(seed), "paper")
        assert isinstance(learner, BanditLearner)
        return simulate(learner, instance, horizon, np.random.default_rng(100 + seed))

    first = run(0)
    assert first.equals(run(0)) and not first.equals(run(1))
    assert first["t"].iloc[-1] == horizon and not first["pseudo_regret"].isna().any()
    final = [run(seed)["pseudo_regret"].iloc[-1] for seed in range(5)]
    assert np.mean(final) <= np.sqrt(2 * k * horizon * np.log(k))
    with pytest.raises(ValueError, match="every node needs a self-loop"):
        exp3_blind(instance_for("weakly_observable").graph, horizon, np.random.default_rng(0), "paper")
    with pytest.raises(ValueError, match="constants for exp3_blind"):
        exp3_blind(instance.graph, horizon, np.random.default_rng(0), "tuned")


class Silent:
    """A learner that plays but never calls track_round."""

    presets = ("paper",)

    def __init__(self, graph, horizon, rng, constants):
        self.params, self.hypotheses = {}, {}

    def play(self, losses, t0, tracker):
        pass


class OffByOne(Silent):
    """A learner that records round t as t + 1."""

    def play(self, losses, t0, tracker):
        from regretlab.bandits.tracking import track_round

        p = np.full(losses.shape[1], 1.0 / losses.shape[1])
        for r, loss in enumerate(losses):
            track_round(t0 + r + 2, loss, p, 0, tracker)


@pytest.mark.parametrize("learner", [Silent, OffByOne])
def test_a_learner_that_does_not_record_its_rounds_is_named(learner):
    instance = build_instance({**INSTANCES["cliques"], "losses": LOSSES}, np.random.default_rng(0))
    with pytest.raises(RuntimeError) as error:
        simulate(learner(instance.graph, 100, None, "paper"), instance, 100, np.random.default_rng(0))
    message = str(error.value)
    assert f"learner {__name__}.{learner.__qualname__} played rounds 1..1" in message
    assert "must call track_round(t, losses[r], p, arm, tracker) once per round" in message


# ---- bounds ------------------------------------------------------------------------------------------------


class Recording(dict):
    """A point (as :class:`regretlab.specs.bound_spec.Point` reads) that records the keys read."""

    def __init__(self, values: dict, read: set) -> None:
        super().__init__(values)
        self.read = read

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)


#: Values for every number a bound may read (instance numbers, run metrics), in the theorems' ranges.
POINT = {
    "T": 10_000, "t": 10_000, "K": 8, "alpha": 2, "kappa": 2, "s": 4, "s_bar": 4, "d": 1, "L": 2, "m": 1,
    "n_states": 6, "n_actions": 2, "delta": 0.005, "rho": 0.5, "opt": 1.0, "stochastic_rewards": True,
    "C": 1.0, "ell_bar": 1.0, "lambda_star_l1": 0.4, "L_star": 100.0, "L_best_S": 100.0, "L_best_Sbar": 200.0,
    "L_D": 150.0, "eta": 0.01, "eta_bar": 0.0005, "theorem5_epsilon": 0.1, "b": 0.5,
    "theorem5_environment": 2, "lambda_l1_max": 0.2, "dual_eta": 0.001, "q_error_l1": 50.0,
    "dual_clipped": 0.0, "all_epochs_covered": 1.0,
}  # fmt: skip
PARAMS = {
    "eta": 0.01, "c": 64.0, "gamma": 0.1, "eta_start": 0.001, "delta_start": 0.008, "d": 2, "C": 1.0,
    "delta_final": 0.004, "stage2_started": True, "stage2": {"c": 512.0},
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_every_bound_declares_exactly_the_params_and_metrics_it_reads(name):
    """A bound declares what it reads, so that the config check can refuse an algorithm that lacks it."""
    spec = BOUNDS[name]
    kind = metric_kind(spec.metric)
    assert kind is not None, (name, spec.metric)
    assert set(spec.metrics) <= set(KINDS[kind].metrics), name
    top, params = set(), set()
    point = Recording({**POINT, "params": Recording(PARAMS, params)}, top)
    spec.evaluate(point)
    for predicate in (spec.hypotheses, spec.applies):
        if predicate is not None:
            predicate(point)
    metrics_read = {key for key in top if key in KINDS[kind].metrics} - {spec.metric}
    # η, η̄, δ are learner parameters that bandit run tables also carry as columns.
    copied = set(KINDS[kind].param_columns)
    assert params | (metrics_read & copied) == set(spec.params), name
    assert metrics_read - copied == set(spec.metrics), name


def test_metric_names_are_unique_across_kinds_and_trivial_bounds_name_metrics():
    metrics = [name for kind in KINDS.values() for name in kind.metrics]
    assert len(metrics) == len(set(metrics))
    assert set(TRIVIAL_BOUNDS) <= set(metrics)


# ---- kinds -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_its_pipeline(kind):
    """docs/add-a-kind.md: each step leaves a trace this test finds."""
    spec = KINDS[kind]
    assert callable(spec.instance_check) and spec.cost.unit and spec.bounds and spec.metrics
    pipeline = spec.run_pipeline()
    for name in ("build_instance", "load_instance", "instance_at_horizon", "run_seeds", "summary_info"):
        assert callable(getattr(pipeline, name)), (kind, name)
    assert set(pipeline.SUMMARY_METRICS) <= set(spec.metrics)
    rules = "\n".join(path.read_text() for path in (REPO / "rules").glob("*.smk"))
    assert f'name:\n            f"{kind}_instances_{{regime}}"' in rules and f"rule {kind}_run:" in rules
    assert f'regimes_of_kind(config, "{kind}")' in rules
    assert (REPO / "scripts" / f"make_{kind}_instance.py").is_file()
    assert (REPO / "scripts" / f"run_{kind}.py").is_file()
    assert KINDS[kind].description and KINDS[kind].time_unit
