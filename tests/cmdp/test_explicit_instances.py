"""CMDPs given by hand (``family: explicit``, issue 34 item 1): the shipped one-layer and two-layer instances
have the numbers their config descriptions state (ρ, OPT, λ*, the adversary's swing, Condition 2's
threshold), worked out by hand below; an L = 1 run is deterministic and learns (test_cmdp_simulate.py checks
one column by column against brute force); every inconsistent entry is one line naming its field, before any
job."""

import copy
import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from shipped_config import shipped_config

from regretlab.cmdp.instance import condition2_holds, make_explicit_cmdp
from regretlab.cmdp.runs import build_instance, run_seeds
from regretlab.core.seeding import job_seed_sequence
from regretlab.workflow.config import ConfigError, validate_config

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "schemas" / "config.schema.yaml"
CONFIG = shipped_config()


def shipped(regime: str, name: str) -> dict:
    spec = CONFIG["regimes"][regime]["instances"][name]
    return build_instance(spec, np.random.default_rng(job_seed_sequence(regime, name, "instance")))


@pytest.mark.parametrize(
    ("regime", "name", "rho", "opt", "lambda_star"),
    [
        # a₀ pays 1 at ḡ = −1: safe and optimal, so OPT = 1, λ* = 0, ρ = 1 (all mass on a₀).
        ("cmdp_theorem5_small", "one_layer", 1.0, 1.0, 0.0),
        # max q₁ s.t. −q₀ + q₁/4 + q₂ ≤ 0: q = (0.2, 0.8, 0), OPT = 0.8; a₀ and a₁ tie in r − λg:
        # 0 + λ = 1 − λ/4, λ* = 0.8.
        ("cmdp_theorem5_small", "one_layer_binding", 1.0, 0.8, 0.8),
        # a₁ at both layers: OPT = 2, ḡ = 0 on average (active, free: λ* = 0); all a₀: ρ = 2.
        ("cmdp_theorem7_small", "two_layer_chain", 2.0, 2.0, 0.0),
    ],
)
def test_the_shipped_explicit_instances_have_the_numbers_worked_out_by_hand(
    regime, name, rho, opt, lambda_star
):
    built = shipped(regime, name)
    numbers = {**built["numbers"], "rho": built["cmdp"]["rho"]}
    assert numbers["L"] == (1 if regime == "cmdp_theorem5_small" else 2)
    assert numbers["rho"] == pytest.approx(rho, abs=1e-7)
    assert numbers["opt"] == pytest.approx(opt, abs=1e-7)
    assert numbers["lambda_star_l1"] == pytest.approx(lambda_star, abs=1e-6)
    assert numbers["binds"] == (lambda_star > 0)
    # Condition 2 (ρ ≥ T^{-1/8} L √(20m)) from T = (L√20/ρ)^8 = 20^4 = 1.6·10^5: between the last two quick
    # horizons.
    horizons = sorted(CONFIG["regimes"][regime]["scales"]["quick"]["horizons"])
    assert [condition2_holds(numbers["rho"], T, numbers["L"], 1) for T in horizons[-2:]] == [False, True]
    assert math.isclose((numbers["L"] * math.sqrt(20) / numbers["rho"]) ** 8, 1.6e5)


def test_the_two_layer_chain_swings_a1_by_two_and_violates_q_star_by_L_in_half_the_phases():
    numbers = shipped("cmdp_theorem7_small", "two_layer_chain")["numbers"]
    assert numbers["constraint_swing_max"] == pytest.approx(2.0)  # ḡ = 0 → +1 and −1
    assert numbers["rho_adversarial"] == pytest.approx(2.0, abs=1e-7)  # a₀ is safe in every phase
    assert numbers["max_G_q_star"] == pytest.approx(2.0) and numbers["share_G_q_star_above_1"] == 0.5


def test_a_one_layer_run_is_deterministic_and_learns():
    instance = shipped("cmdp_theorem5_small", "one_layer")
    first, _ = run_seeds("r", "one_layer", instance, "pdgd_ops", "tuned", 20000, [0, 1])
    second, _ = run_seeds("r", "one_layer", instance, "pdgd_ops", "tuned", 20000, [0, 1])
    assert first.equals(second)
    final = first[first["t"] == 20000]
    # Uniform play's expected regret is (1 − 1/3)·T: the learner's is a small fraction of it.
    assert (final["regret"] < 0.1 * (2 / 3) * 20000).all()
    assert (final["violation"] < 0).all()  # a₀ is safe: the learner ends far on the safe side


BASE = {"family": "explicit", "mdp": {"reward": [[1, 0, 0]], "constraint": [[[-1, 1, 1]]]},
        "rewards": "stochastic", "constraints": "stochastic"}  # fmt: skip


def _entry(edit):
    entry = copy.deepcopy(BASE)
    edit(entry)
    return entry


#: A two-layer entry with two states in the middle layer (for the transitions' checks).
WIDE = {"reward": [[1, 0], [0, 1], [0, 0]], "constraint": [[[-1, 1], [-1, 1], [-1, -1]]],
        "layer_sizes": [1, 2, 1]}  # fmt: skip


@pytest.mark.parametrize(
    ("edit", "field", "says"),
    [
        (lambda e: e.update(n_layers=2), "one_layer.n_layers", "is not allowed with family explicit"),
        (lambda e: e.update(rho=0.5), "one_layer.rho", "ρ is computed"),
        (lambda e: e.pop("mdp"), "one_layer", "mdp is required with family explicit"),
        (lambda e: e.update(family="binding"), "one_layer.mdp", "mdp is allowed with family explicit only"),
        (lambda e: e["mdp"].update(reward=[[1, 0, 0], [0, 1, 0]]), "one_layer.mdp", "must be m tables"),
        (lambda e: e["mdp"].update(reward=[[2, 0, 0]]), "one_layer.mdp.reward[0][0]", "maximum of 1"),
        (lambda e: e["mdp"].update(constraint=[[[0.5, 1, 1]]]), "one_layer.mdp", "no occupancy satisfies"),
        (lambda e: e["mdp"].update(layer_sizes=[1, 2, 1]), "one_layer.mdp", "mdp.reward has 1 rows"),
        (lambda e: e.update(mdp=WIDE), "one_layer.mdp", "mdp.transitions is needed"),
        (
            lambda e: e.update(mdp={**WIDE, "transitions": [[[0.5, 0.4], [1, 0]], [[1], [1]], [[1], [1]]]}),
            "one_layer.mdp",
            "mdp.transitions: every P(.|x, a)",
        ),
    ],
)
def test_an_inconsistent_explicit_entry_is_one_line_naming_its_field(edit, field, says):
    config = yaml.safe_load((REPO / "tests/config/smoke.yaml").read_text())
    config["regimes"]["smoke_cmdp"]["instances"]["one_layer"] = _entry(edit)
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA)
    lines = str(error.value).splitlines()
    assert len(lines) == 1, lines
    assert f"regimes.smoke_cmdp.instances.{field}:" in lines[0] and says in lines[0], lines


def test_transitions_between_wider_layers_are_read_per_state_and_action():
    cmdp = make_explicit_cmdp({**WIDE, "transitions": [[[0.5, 0.5], [1, 0]], [[1], [1]], [[1], [1]]]})
    assert cmdp.L == 2 and cmdp.layer_sizes == (1, 2, 1)
    np.testing.assert_array_equal(cmdp.P[0, 0, 1:3], [0.5, 0.5])
    np.testing.assert_array_equal(cmdp.P[0, 1, 1:3], [1.0, 0.0])
    # By hand: a₀ at x₀ (reward 1, ḡ = −1) reaches x₁ half the time, where a₁ pays 1 at ḡ = +1; x₂ is safe
    # (ḡ = −1): reward 1.5 at total ḡ = −1 + 1/2 − 1/2 ≤ 0, and a₁ at x₀ (reward 0) can only lower it.
    # The all-safe policy has ḡ = −2: ρ = 2.
    assert cmdp.opt == pytest.approx(1.5, abs=1e-7) and cmdp.rho == pytest.approx(2.0, abs=1e-7)
