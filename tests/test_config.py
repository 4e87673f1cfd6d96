"""Config validation: defaults filled, every bad input rejected with the field's path and allowed values."""

import copy
from pathlib import Path

import pytest
import yaml

from regretlab.bandits.instance import GRAPH_FAMILIES, LOSS_KINDS
from regretlab.config import ConfigError, batch_seeds, load_schema, run_jobs, seed_batches, validate_config
from regretlab.kinds import KINDS
from regretlab.theory import BOUNDS

REPO = Path(__file__).resolve().parents[1]
SMOKE = yaml.safe_load((REPO / "tests" / "config" / "smoke.yaml").read_text())


def smoke() -> dict:
    return copy.deepcopy(SMOKE)


@pytest.mark.parametrize("path", ["config.yaml", "tests/config/smoke.yaml"])
def test_shipped_configs_are_valid(path, schema_path):
    validate_config(yaml.safe_load((REPO / path).read_text()), schema_path)


def test_defaults_are_filled(schema_path):
    config = smoke()
    del config["scale"], config["seeds_per_job"]
    validate_config(config, schema_path)
    schema = load_schema(schema_path)
    assert config["scale"] == schema["properties"]["scale"]["default"] == "quick"
    assert config["seeds_per_job"] == schema["properties"]["seeds_per_job"]["default"]
    assert config["regimes"]["smoke_exp3g"]["constants"] == ["paper"]


def test_schema_enums_match_the_library(schema_path):
    defs = load_schema(schema_path)["$defs"]
    assert set(defs["regime"]["properties"]["algorithms"]["items"]["enum"]) == {
        name for kind in KINDS.values() for name in kind.presets
    }
    assert set(defs["regime"]["properties"]["bounds"]["additionalProperties"]["items"]["enum"]) == set(BOUNDS)
    presets = {p for kind in KINDS.values() for allowed in kind.presets.values() for p in allowed}
    assert set(defs["regime"]["properties"]["constants"]["items"]["enum"]) == presets
    assert set(defs["graph"]["properties"]["family"]["enum"]) == set(GRAPH_FAMILIES)
    branches = defs["graph"]["allOf"]
    assert {branch["if"]["properties"]["family"]["const"] for branch in branches} == set(GRAPH_FAMILIES)
    assert set(defs["losses"]["properties"]["kind"]["enum"]) == set(LOSS_KINDS)
    branches = defs["losses"]["allOf"]
    assert {branch["if"]["properties"]["kind"]["const"] for branch in branches} == set(LOSS_KINDS)


def regime(config: dict) -> dict:
    return config["regimes"]["smoke_exp3g"]


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


def _bound_missing(c):
    regime(c)["bounds"] = {}


def _bad_constants(c):
    regime(c)["constants"] = ["tuned"]


def _one_horizon(c):
    regime(c)["scales"]["quick"]["horizons"] = [200]


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
        (_bound_missing, "regimes.smoke_exp3g.bounds", "exp3g_rate"),
        (_bad_constants, "regimes.smoke_exp3g.constants", "not a preset of exp3g; allowed: ['paper']"),
        (_one_horizon, "regimes.smoke_exp3g.scales.quick.horizons", "at least 2 horizons"),
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


@pytest.mark.parametrize(("mutate", "field", "message"), [
    (_graph_param_missing, "instances.cliques_2x3.graph", "'n_no_self_loop' is a required property"),
    (_graph_param_foreign, "instances.cliques_2x3.graph", "'k' was unexpected"),
    (_loss_param_missing, "instances.cliques_2x3.losses", "'decoy_mean' is a required property"),
])
def test_family_and_loss_parameters_are_checked_per_kind(mutate, field, message, schema_path):
    config = smoke()
    mutate(config)
    with pytest.raises(ConfigError) as error:
        validate_config(config, schema_path)
    assert field in str(error.value) and message in str(error.value)
