"""The floors of paper 000's bounds (regretlab.cmdp.floors, issue 34 item 2): at its floor the bound on the
smallest CMDP just gets below the trivial L·T; below its floor no admissible CMDP — any sizes, ρ ≤ L,
OPT ≤ L, stochastic or adversarial rewards — has the bound below the trivial bound (which uniform play's value
never exceeds), so no instance search can beat it; the shipped config's instances do not either."""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped_config import shipped_config

from regretlab.cmdp.bound_registry import BOUNDS
from regretlab.cmdp.floors import FLOOR_BOUNDS, LAYERS, floor, floor_horizon, smallest_cmdp, speaks
from regretlab.cmdp.runs import build_instance
from regretlab.core.seeding import job_seed_sequence
from regretlab.registry.theory import speaking_floor

REPO = Path(__file__).resolve().parents[2]
CONFIG = shipped_config()


@pytest.mark.parametrize("name", FLOOR_BOUNDS)
def test_at_its_floor_the_bound_on_the_smallest_cmdp_just_speaks(name):
    found = floor(name)
    assert found.T is not None and found.L < LAYERS[-1]  # the minimum lies inside the scan
    assert speaks(name, smallest_cmdp(found.L, found.T))
    assert not speaks(name, smallest_cmdp(found.L, int(found.T / 1.001)))
    assert speaking_floor(name) == floor_horizon(name) == float(found.T)


def test_the_floors_are_what_the_paper_s_bounds_give():
    """Regret floors at L = 1, violation floors at L = 19 (ζ/η ∝ |X| grows slower than L·T, E^q_δ ∝ L|X|
    faster); Theorem 6's T^{1/4} factor puts its floors orders of magnitude later."""
    T = {name: floor(name).T for name in FLOOR_BOUNDS}
    assert {name: floor(name).L for name in FLOOR_BOUNDS} == {
        "theorem5_regret": 1, "theorem5_violation": 19, "theorem6_regret": 1, "theorem6_violation": 1,
        "theorem7_regret": 1, "theorem7_regret_corrected": 1, "theorem7_violation": 19,
    }  # fmt: skip
    assert 3e7 < T["theorem5_regret"] < 4e7 and 8e8 < T["theorem5_violation"] < 9e8
    assert T["theorem7_violation"] == T["theorem5_violation"]  # the same ζ/η + E^q_δ (lines 367, 423)
    assert T["theorem7_regret"] == T["theorem7_regret_corrected"]  # the two agree at L = 1
    assert 1e10 < T["theorem6_regret"] < 1.2e10 and 4e16 < T["theorem6_violation"] < 4.2e16
    assert math.isnan(speaking_floor("lemma14_violation")) and math.isnan(speaking_floor("exp3g_rate"))


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(FLOOR_BOUNDS),
    L=st.integers(1, 64),
    extra_states=st.integers(0, 20),
    n_actions=st.integers(2, 8),
    m=st.integers(1, 4),
    rho_share=st.floats(0.01, 1.0),
    opt_share=st.floats(0.01, 1.0),
    stochastic=st.booleans(),
    below=st.sampled_from([1.001, 2.0, 100.0]),
)
def test_no_admissible_cmdp_speaks_below_the_floor(
    name, L, extra_states, n_actions, m, rho_share, opt_share, stochastic, below
):
    T = int(floor(name).T / below)
    numbers = {
        **smallest_cmdp(L, T), "n_states": L + 1 + extra_states, "n_actions": n_actions, "m": m,
        "rho": rho_share * L, "opt": opt_share * L, "stochastic_rewards": stochastic,
    }  # fmt: skip
    assert not speaks(name, numbers)


@pytest.mark.parametrize(
    ("regime", "instance"),
    [(r, i) for r, e in CONFIG["regimes"].items() if e["kind"] == "cmdp" for i in e["instances"]],
)
def test_no_instance_of_the_config_speaks_below_the_floors(regime, instance):
    entry = CONFIG["regimes"][regime]
    built = build_instance(entry["instances"][instance], np.random.default_rng(
        job_seed_sequence(regime, instance, "instance")))  # fmt: skip
    for name in FLOOR_BOUNDS:
        T = int(floor(name).T / 1.001)
        numbers = {**built["numbers"], "T": T, "t": T, "rho": built["cmdp"]["rho"], "params": {},
                   "condition2": True}  # fmt: skip
        assert not speaks(name, numbers), (name, regime, instance)
        assert BOUNDS[name].evaluate(numbers) > 0
