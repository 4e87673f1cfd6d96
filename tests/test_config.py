"""Config validation: defaults filled, every bad input rejected with the field's path and allowed values."""

import copy
import dataclasses
from pathlib import Path

import numpy as np
import pytest
import yaml

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import GRAPH_FAMILIES, LOSS_KINDS, build_instance
from regretlab.bandits.instance_checks import GRAPH_CLASSES, LOSS_RULES
from regretlab.bandits.simulate import run_seeds
from regretlab.graphs import families
from regretlab.registry.kinds import KINDS
from regretlab.registry.theory import BOUNDS, bounds_for
from regretlab.workflow.checks import X_RULES
from regretlab.workflow.config import (
    ConfigError,
    batch_seeds,
    load_schema,
    presets_of,
    run_config,
    run_jobs,
    seed_batches,
    validate_config,
)

REPO = Path(__file__).resolve().parents[1]
SMOKE = yaml.safe_load((REPO / "tests" / "config" / "smoke.yaml").read_text())


def smoke() -> dict:
    return copy.deepcopy(SMOKE)


@pytest.mark.parametrize("path", ["config.yaml", "tests/config/default.yaml", "tests/config/smoke.yaml"])
def test_shipped_configs_are_valid(path, schema_path):
    """The working config (whatever a user made of it: its own errors name their fields), the shipped one's
    copy and the smoke config validate."""
    validate_config(yaml.safe_load((REPO / path).read_text()), schema_path)


def test_defaults_are_filled(schema_path):
    config = smoke()
    del config["scale"], config["seeds_per_job"]
    validate_config(config, schema_path)
    schema = load_schema(schema_path)
    assert config["scale"] == schema["properties"]["scale"]["default"] == "quick"
    assert config["seeds_per_job"] == schema["properties"]["seeds_per_job"]["default"]
    assert config["regimes"]["smoke_exp3g"]["constants"] == ["paper"]


def test_schema_enums_come_from_the_registries(schema_path):
    raw = yaml.safe_load(schema_path.read_text())["$defs"]["regime"]["properties"]
    # The schema file lists none of the registries' names: there is nothing to keep in sync by hand.
    assert "enum" not in raw["kind"] and "enum" not in raw["algorithms"]["items"]
    assert "enum" not in raw["constants"]["items"]
    assert "enum" not in raw["bounds"]["additionalProperties"]["items"]
    defs = load_schema(schema_path)["$defs"]
    assert defs["regime"]["properties"]["kind"]["enum"] == list(KINDS)
    branches = {b["if"]["properties"]["kind"]["const"]: b["then"] for b in defs["regime"]["allOf"]}
    assert set(branches) == set(KINDS)
    for name, kind in KINDS.items():
        assert set(branches[name]["properties"]["algorithms"]["items"]["enum"]) == set(kind.algorithms)
        assert f"{name}_instance" in defs  # every kind has its instance schema
    assert set(defs["regime"]["properties"]["bounds"]["additionalProperties"]["items"]["enum"]) == set(BOUNDS)
    presets = {p for kind in KINDS.values() for allowed in kind.presets.values() for p in allowed}
    assert set(defs["regime"]["properties"]["constants"]["items"]["enum"]) == presets
    assert set(defs["graph"]["properties"]["family"]["enum"]) == set(GRAPH_FAMILIES)
    branches = defs["graph"]["allOf"]
    assert {branch["if"]["properties"]["family"]["const"] for branch in branches} == set(GRAPH_FAMILIES)
    assert set(defs["losses"]["properties"]["kind"]["enum"]) == set(LOSS_KINDS)
    branches = defs["losses"]["allOf"]
    assert {branch["if"]["properties"]["kind"]["const"] for branch in branches} == set(LOSS_KINDS)


def test_a_new_registry_entry_is_a_valid_name_at_once(schema_path, monkeypatch):
    toy = dataclasses.replace(ALGORITHMS["exp3g"], description="a toy", default_bounds=())
    monkeypatch.setitem(ALGORITHMS, "toy_learner", toy)
    config = smoke()
    regime(config)["algorithms"].append("toy_learner")
    validate_config(config, schema_path)
    assert regime(config)["bounds"]["toy_learner"] == []  # a baseline: drawn without a bound


def test_an_unknown_algorithm_lists_the_algorithms_of_the_regime_kind(schema_path):
    config = smoke()
    regime(config)["algorithms"] = ["exp3g", "ucb"]
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    (line,) = str(error.value).splitlines()
    assert line.startswith("config field regimes.smoke_exp3g.algorithms[1]: 'ucb' is not one of [")
    assert "'exp3g'" in line and "pdgd_ops" not in line  # the bandit algorithms, not the CMDP ones


def test_an_algorithm_the_bounds_do_not_name_gets_its_registry_default_bounds(schema_path):
    config = smoke()
    regime(config)["bounds"] = {"exp3g": []}
    validate_config(config, schema_path)
    assert regime(config)["bounds"] == {"exp3g": [], "theorem2": ["theorem2_bound"]}
    assert ALGORITHMS["theorem2"].default_bounds == ("theorem2_bound",)


def test_a_bound_the_learner_has_no_parameters_for_is_one_line_before_any_job(schema_path):
    """Issue 16: theorem2_bound (at the run's c, η) named for Exp3.G, which reports no c, passed validation
    and crashed the aggregate with KeyError: 'c'."""
    config = smoke()
    regime(config)["bounds"]["exp3g"] = ["theorem2_bound"]
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    (line,) = str(error.value).splitlines()
    assert line.startswith("config field regimes.smoke_exp3g.bounds.exp3g: bound 'theorem2_bound'")
    assert "exp3g does not report ['c']" in line and "bounds it can take here: ['exp3g_rate'" in line
    assert "'theorem2_bound'" not in line.split("can take here:")[1]


def test_every_algorithm_reports_what_its_default_bounds_need(schema_path):
    for kind in KINDS.values():
        for name, spec in kind.algorithms.items():
            for bound in spec.default_bounds:
                assert bound in BOUNDS and BOUNDS[bound].metric in kind.metrics, (name, bound)
                assert set(BOUNDS[bound].params) <= set(spec.params), (name, bound)


def regime(config: dict) -> dict:
    return config["regimes"]["smoke_exp3g"]


def test_what_a_run_job_is_passed_ignores_titles_bounds_and_other_scales(schema_path):
    """A run job's params (run_config, with its runs at the configured scale) stay equal when a regime's
    title, description, bounds or unused scale change — so such an edit reruns no simulation — and change
    with an instance."""
    before = validate_config(smoke(), schema_path)
    edited = smoke()
    regime(edited).update(theorem="another title", description="more words", bounds={"exp3g": ["exp3g_rate"]})
    regime(edited)["bounds"]["theorem2"] = ["theorem2_rate"]
    regime(edited)["scales"]["paper"] = {"horizons": [100, 300, 900], "seeds": 7}
    edited = validate_config(edited, schema_path)
    assert run_config(regime(edited)) == run_config(regime(before))
    assert run_jobs(edited, "smoke_exp3g") == run_jobs(before, "smoke_exp3g")
    regime(edited)["instances"]["cliques_2x3"]["losses"]["gap"] = 0.25
    assert run_config(regime(edited)) != run_config(regime(before))


def test_horizons_must_increase(schema_path):
    config = smoke()
    regime(config)["scales"]["paper"]["horizons"] = [800, 200]
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert str(error.value) == (
        "config field regimes.smoke_exp3g.scales.paper.horizons: "
        "horizons must be increasing, got [800, 200]; "
        "write [200, 800] (and per-horizon seeds in the same order)"
    )


def _unknown_kind(c):
    regime(c)["kind"] = "mdp"


def _unknown_algorithm(c):
    regime(c)["algorithms"] = ["exp3g", "ucb"]


def _nonpositive_horizon(c):
    regime(c)["scales"]["quick"]["horizons"] = [200, 0]


def _zero_seeds(c):
    regime(c)["scales"]["paper"]["seeds"] = 0


def _missing_field(c):
    del regime(c)["theorem"]


def _wrong_type(c):
    regime(c)["scales"]["quick"]["seeds"] = "five"


def _unknown_field(c):
    regime(c)["horizon"] = 10


def _unknown_scale(c):
    c["scale"] = "huge"


def _bound_lacking_params(c):
    regime(c)["bounds"]["exp3g"] = ["theorem2_bound"]


def _bad_constants(c):
    regime(c)["constants"] = ["tuned"]


def _one_horizon(c):
    regime(c)["scales"]["quick"]["horizons"] = [200]


def _unknown_search(c):
    c["searches"] = ["theorem9_bound"]


@pytest.mark.parametrize(
    ("mutate", "field", "allowed"),
    [
        (_unknown_kind, "regimes.smoke_exp3g.kind", "'bandit'"),
        (_unknown_algorithm, "regimes.smoke_exp3g.algorithms[1]", "'exp3g'"),
        (_nonpositive_horizon, "regimes.smoke_exp3g.scales.quick.horizons[1]", "minimum of 1"),
        (_zero_seeds, "regimes.smoke_exp3g.scales.paper.seeds", "minimum of 1"),
        (_missing_field, "regimes.smoke_exp3g", "'theorem' is a required property"),
        (_wrong_type, "regimes.smoke_exp3g.scales.quick.seeds", "expected integer"),
        (_unknown_field, "regimes.smoke_exp3g", "allowed fields"),
        (_unknown_scale, "config field scale", "'quick', 'paper'"),
        (_bound_lacking_params, "regimes.smoke_exp3g.bounds.exp3g", "'exp3g_rate'"),
        (
            _bad_constants,
            "regimes.smoke_exp3g.constants",
            "exp3g has none of the presets ['tuned']; allowed: ['paper']",
        ),
        (_one_horizon, "regimes.smoke_exp3g.scales.quick.horizons", "at least 2 horizons"),
        (_unknown_search, "config field searches[0]", "'theorem2_bound', 'theorem3_bound'"),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_bad_config_names_field_and_allowed_values(mutate, field, allowed, schema_path):
    config = smoke()
    mutate(config)
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert field in str(error.value)
    assert allowed in str(error.value)


@pytest.mark.parametrize(
    ("mapping", "old", "new", "line"),
    [
        (
            lambda c: c["regimes"],
            "smoke_cmdp",
            "smoke-cmdp",
            "config field regimes: regime name 'smoke-cmdp' must be letters, digits and _ only",
        ),
        (
            lambda c: regime(c)["instances"],
            "cliques_2x3",
            "cliques 2x3",
            "config field regimes.smoke_exp3g.instances: instance name 'cliques 2x3' must be letters, digits "
            "and _ only",
        ),
    ],
    ids=["regime", "instance"],
)
def test_a_bad_name_says_letters_digits_and_underscore_only(mapping, old, new, line, schema_path):
    """A regime or instance name becomes a path, a figure's file name and part of a wildcard's regex."""
    config = smoke()
    mapping(config)[new] = mapping(config).pop(old)
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert str(error.value).splitlines() == [line]


def test_seed_batches_cover_every_seed_once():
    assert seed_batches(7, 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert seed_batches(2, 5) == [[0, 1]]


def test_run_jobs_expand_the_grid(schema_path):
    config = validate_config(smoke(), schema_path)
    jobs = run_jobs(config, "smoke_exp3g")
    assert len(jobs) == 1 * 2 * 1 * 2 * 2  # instances × algorithms × constants × horizons × batches
    assert {job.T for job in jobs} == {200, 800}
    assert [batch_seeds(config, "smoke_exp3g", b) for b in (0, 1)] == [[0, 1], [2]]
    with pytest.raises(ConfigError, match="batch 2"):
        batch_seeds(config, "smoke_exp3g", 2)


def _graph_param_missing(c):
    regime(c)["instances"]["cliques_2x3"]["graph"] = {"family": "strongly_observable", "clique_sizes": [2]}


def _graph_param_foreign(c):
    regime(c)["instances"]["cliques_2x3"]["graph"]["k"] = 3


def _loss_param_missing(c):
    regime(c)["instances"]["cliques_2x3"]["losses"] = {"kind": "switching", "best_mean": 0.1, "period": 10}


@pytest.mark.parametrize(
    ("mutate", "field", "message"),
    [
        (_graph_param_missing, "instances.cliques_2x3.graph", "'n_no_self_loop' is a required property"),
        (_graph_param_foreign, "instances.cliques_2x3.graph", "'k' was unexpected"),
        (_loss_param_missing, "instances.cliques_2x3.losses", "'decoy_mean' is a required property"),
    ],
)
def test_family_and_loss_parameters_are_checked_per_kind(mutate, field, message, schema_path):
    config = smoke()
    mutate(config)
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert field in str(error.value) and message in str(error.value)


def test_cross_field_registries_cover_the_library(schema_path):
    assert {spec.graph_class for spec in ALGORITHMS.values()} <= set(GRAPH_CLASSES)
    assert set(GRAPH_CLASSES) == {  # AlgorithmSpec.graph_class's documented values
        "strongly_observable",
        "self_aware",
        "weakly_observable",
        "directed_complete_bipartite",
        "any_observable",
    }
    assert all(callable(kind.instance_check) for kind in KINDS.values())
    assert set(X_RULES) == set(load_schema(schema_path)["$defs"]["regime"]["properties"]["x"]["enum"])
    assert set(LOSS_RULES) <= set(LOSS_KINDS)


def test_graph_classes_follow_section_2():
    graphs = {
        "figure1": families.figure1_graph(),
        "cliques": families.disjoint_cliques([3, 3]),
        "stars": families.weakly_observable_stars([2, 3]),
        "bipartite": families.directed_complete_bipartite(2, 3),
    }
    holds = {name: {c for c, spec in GRAPH_CLASSES.items() if spec.holds(g)} for name, g in graphs.items()}
    assert holds["figure1"] == {"strongly_observable", "any_observable"}
    assert holds["cliques"] == {"strongly_observable", "self_aware", "any_observable"}
    assert holds["stars"] == {"weakly_observable", "any_observable"}
    assert holds["bipartite"] == {"weakly_observable", "directed_complete_bipartite", "any_observable"}


@pytest.mark.parametrize(
    "graph",
    [{"family": "figure1"}, {"family": "disjoint_cliques", "clique_sizes": [3, 3]}],
    ids=["figure1", "cliques"],
)
def test_horizon_rules_accept_exactly_the_horizons_a_run_survives(graph):
    """A horizon rule rejects T exactly when a run of that T fails (checked on every T up to K + 2)."""
    spec = {"graph": graph, "losses": {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2}}
    instance = build_instance(spec, np.random.default_rng(0))
    for algorithm, spec in ALGORITHMS.items():
        rule = spec.horizon_rule
        if rule is None or not GRAPH_CLASSES[spec.graph_class].holds(instance.graph):
            continue
        for horizon in range(1, instance.graph.n_arms + 3):
            accepted = rule(instance.graph, horizon) is None
            try:
                run_seeds("r", "i", instance, algorithm, "paper", horizon, [0])
                survived = True
            except (ValueError, ArithmeticError):
                survived = False
            assert accepted == survived, (algorithm, horizon)


def _rho_out_of_range(c):
    c["regimes"]["smoke_cmdp"]["instances"]["tiny"]["rho"] = 9.0


def _rho_unattainable(c):
    c["regimes"]["smoke_cmdp"]["instances"]["tiny"]["rho"] = 1.99


def _rho_shrinks_out_of_range(c):
    c["regimes"]["smoke_cmdp"]["instances"]["tiny"].update(rho=1.2, rho_exponent=1.0, rho_reference_T=120)


def _gap_too_large(c):
    regime(c)["instances"]["cliques_2x3"]["losses"]["gap"] = 0.8


def _switching_needs_three_arms(c):
    regime(c)["instances"]["cliques_2x3"]["graph"]["clique_sizes"] = [1, 1]
    regime(c)["instances"]["cliques_2x3"]["losses"] = {
        "kind": "switching", "best_mean": 0.1, "decoy_mean": 0.0, "period": 10
    }  # fmt: skip


def _trajectory_with_two_horizons(c):
    regime(c)["x"] = "t"
    regime(c)["bounds"] = {"exp3g": ["exp3g_rate"]}


def _L_star_sweep_of_one_instance(c):
    regime(c)["x"] = "L_star"


@pytest.mark.parametrize(
    ("mutate", "field", "allowed"),
    [
        (_rho_out_of_range, "regimes.smoke_cmdp.instances.tiny.rho:", "rho must lie in (0, L] = (0, 2]"),
        (_rho_unattainable, "regimes.smoke_cmdp.instances.tiny.rho:", "out of reach for this draw"),
        (_rho_shrinks_out_of_range, "regimes.smoke_cmdp.scales.quick.horizons:", "at T = 60 (ρ(T) = 2.4)"),
        (_gap_too_large, "instances.cliques_2x3.losses.gap:", "best_mean + gap must be at most 1"),
        (_switching_needs_three_arms, "instances.cliques_2x3.losses.kind:", "needs n_arms >= 3"),
        (_trajectory_with_two_horizons, "regimes.smoke_exp3g.scales.quick.horizons:", "give exactly one"),
        (_L_star_sweep_of_one_instance, "regimes.smoke_exp3g.instances:", "at least 2 instances"),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_cross_field_rules_name_field_and_allowed_values(mutate, field, allowed, schema_path):
    config = smoke()
    mutate(config)
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert field in str(error.value) and allowed in str(error.value), str(error.value)


def test_per_horizon_seeds_and_per_preset_bounds(schema_path):
    config = smoke()
    cmdp = config["regimes"]["smoke_cmdp"]
    cmdp["constants"] = ["paper", "tuned"]
    cmdp["bounds"] = {"pdgd_ops": {"paper": ["theorem5_regret"], "tuned": ["theorem5_regret_rate"]}}
    horizons = cmdp["scales"]["quick"]["horizons"]
    cmdp["scales"]["quick"]["seeds"] = [3] + [1] * (len(horizons) - 1)
    config = validate_config(config, schema_path)
    assert bounds_for(cmdp, "pdgd_ops", "paper") == ["theorem5_regret"]
    assert bounds_for(cmdp, "pdgd_ops", "tuned") == ["theorem5_regret_rate"]
    assert bounds_for(regime(config), "exp3g", "paper") == ["exp3g_rate"]
    config["seeds_per_job"] = 2
    jobs = run_jobs(config, "smoke_cmdp")
    first = [job.seeds for job in jobs if job.T == horizons[0] and job.constants == "paper"]
    assert first == [(0, 1), (2,)] and all(job.seeds == (0,) for job in jobs if job.T != horizons[0])
    assert batch_seeds(config, "smoke_cmdp", 1, horizons[0]) == [2]
    assert batch_seeds(config, "smoke_cmdp", 0, horizons[-1]) == [0]
    with pytest.raises(ConfigError, match="per-horizon seeds"):
        batch_seeds(config, "smoke_cmdp", 0)
    wrong = smoke()
    wrong["regimes"]["smoke_cmdp"]["scales"]["quick"]["seeds"] = [1] * (len(horizons) + 1)
    with pytest.raises(ConfigError, match="one count per horizon"):
        validate_config(wrong, schema_path)
    only_tuned = smoke()  # a per-preset mapping selects the presets the algorithm runs
    only_tuned["regimes"]["smoke_cmdp"]["constants"] = ["paper", "tuned"]
    only_tuned["regimes"]["smoke_cmdp"]["bounds"] = {"pdgd_ops": {"tuned": ["theorem5_regret_rate"]}}
    only_tuned = validate_config(only_tuned, schema_path)
    assert presets_of(only_tuned["regimes"]["smoke_cmdp"], "pdgd_ops") == ["tuned"]
    wrong = smoke()  # naming a preset the regime does not run
    wrong["regimes"]["smoke_cmdp"]["bounds"] = {"pdgd_ops": {"tuned": ["theorem5_regret_rate"]}}
    with pytest.raises(ConfigError, match=r"not available: \['tuned'\]"):
        validate_config(wrong, schema_path)
