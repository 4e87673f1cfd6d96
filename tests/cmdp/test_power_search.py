"""The search over admissible CMDPs for the smallest T_power of paper 000's bounds
(regretlab.cmdp.power_search, issue 34 item 2): T_power is where the hypotheses hold and the bound first drops
below uniform play's value; no CMDP of the search space beats the analytic floor; the search finds issue 34's
hand-made instances (or better); and the table and the evidence table say what it found."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.analysis.evidence.markdown import _floor_note
from regretlab.analysis.evidence.table import _searched
from regretlab.analysis.power_search import COLUMNS, markdown, write_power_search
from regretlab.analysis.tables import read_typed_csv
from regretlab.cmdp import power_search
from regretlab.cmdp.floors import FLOOR_BOUNDS, floor
from regretlab.cmdp.instance import condition2_holds, make_explicit_cmdp
from regretlab.cmdp.power_search import SPACE, has_power, mdp_block, numbers, search, t_power, uniform_rate
from regretlab.registry.claims import CLAIMS_BY_KEY
from regretlab.workflow.config import ConfigError, validate_config

REPO = Path(__file__).resolve().parents[2]

ONE_LAYER = make_explicit_cmdp({"reward": [[1, 0, 0]], "constraint": [[[-1, 1, 1]]]})
#: The two-layer chain of cmdp_theorem7_small with its constraint averaged (ḡ(a₁) = 0).
CHAIN = make_explicit_cmdp({"reward": [[0, 1, 0, 0, 0]] * 2, "constraint": [[[-1, 0, 1, 1, 1]] * 2]})


def test_uniform_play_s_value_per_episode_by_hand():
    # One layer, three actions: OPT = 1 (a₀, safe); uniform play earns 1/3 and charges (−1 + 1 + 1)/3.
    assert uniform_rate(ONE_LAYER, "regret") == pytest.approx(2 / 3)
    assert uniform_rate(ONE_LAYER, "violation") == pytest.approx(1 / 3)
    # The chain: OPT = 2 (a₁ in both layers, ḡ = 0), uniform earns 2/5.
    assert uniform_rate(CHAIN, "regret") == pytest.approx(2 - 2 / 5)
    with pytest.raises(ValueError, match="not 'reward_ratio'"):
        uniform_rate(ONE_LAYER, "reward_ratio")


def test_issue_34_s_hand_made_instances_speak_where_the_issue_says():
    """Theorem 5's regret on one_layer at T ≈ 1.25·10⁸ and Theorem 7's on the chain at ≈ 8.6·10⁸ (issue 34,
    measured by hand): the first horizon with power, and not one episode earlier."""
    cases = (("theorem5_regret", ONE_LAYER, 1.2e8, 1.3e8), ("theorem7_regret", CHAIN, 8e8, 9e8))
    for name, cmdp, low, high in cases:
        T = t_power(name, cmdp)
        assert low < T < high
        assert has_power(name, cmdp, T) and not has_power(name, cmdp, T - 1)


def test_a_horizon_outside_the_hypotheses_has_no_power():
    # Theorem 6 needs Condition 2 to fail: with ρ = 1 on one layer it holds from T = √20⁸ = 1.6·10⁵ on, before
    # Theorem 6's bound could ever be below uniform play's regret.
    assert condition2_holds(1.0, 200_000, 1, 1)
    assert t_power("theorem6_regret", ONE_LAYER) is None
    # Theorem 5 at a horizon where Condition 2 fails (ρ small): no power however small the bound.
    weak = make_explicit_cmdp({"reward": [[1, 0, 0]], "constraint": [[[-0.01, 1, 1]]]})
    assert not condition2_holds(weak.rho, 10**9, 1, 1)
    assert not has_power("theorem5_regret", weak, 10**9)
    assert numbers(weak, 10**9)["condition2"] is False


def test_a_point_of_the_space_is_a_config_entry_the_builder_accepts():
    x = {"L": 3, "states": 2, "actions": 3, "m": 2, "safe_reward": 0.0, "safe_constraint": -1.0,
         "good_reward": 1.0, "good_constraint": 0.5, "other_reward": 0.2,
         "other_constraint": 1.0}  # fmt: skip
    block = mdp_block(x)
    assert block["layer_sizes"] == [1, 2, 2, 1]
    assert block["transitions"][0] == [[0.5, 0.5]] * 3 and block["transitions"][-1] == [[1.0]] * 3
    cmdp = make_explicit_cmdp(block)
    assert (cmdp.L, cmdp.n_states, cmdp.n_actions, cmdp.m) == (3, 6, 3, 2)
    assert cmdp.rho == pytest.approx(3.0)  # a₀ everywhere: ḡ = −1 in each of the 3 layers
    assert mdp_block({**x, "L": 1})["layer_sizes"] == [1, 1]  # one layer: no states past the first
    assert "transitions" not in mdp_block({**x, "L": 1})


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.tuples(st.integers(1, 6), st.integers(1, 3), st.integers(2, 8), st.integers(1, 2)),
    tables=st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6),
)
def test_the_searchs_closed_form_is_the_builders_linear_programs(sizes, tables):
    """What the search reads of a point (ρ, OPT, uniform play's values, the sizes) in closed form equals what
    the config's builder computes with HiGHS, and both reject the same points (ρ < 0)."""
    x = dict(zip(("L", "states", "actions", "m"), sizes, strict=True))
    for (key, low, high, _), share in zip(SPACE[4:], tables, strict=True):
        x[key] = low + share * (high - low)
    block = mdp_block(x)
    seen = power_search._seen(x)
    try:
        cmdp = make_explicit_cmdp(block)
    except ValueError:
        assert seen is None or seen.rho < 1e-9  # HiGHS may call a margin of 0 slightly negative
        return
    assert seen is not None
    assert (seen.L, seen.n_states, seen.n_actions, seen.m) == (cmdp.L, cmdp.n_states, cmdp.n_actions, cmdp.m)
    assert seen.rho == pytest.approx(cmdp.rho, abs=1e-9) and seen.opt == pytest.approx(cmdp.opt, abs=1e-9)
    for metric in ("regret", "violation"):
        assert seen.rates[metric] == pytest.approx(uniform_rate(cmdp, metric), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(FLOOR_BOUNDS),
    sizes=st.tuples(st.integers(1, 6), st.integers(1, 3), st.integers(2, 8), st.integers(1, 2)),
    tables=st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6),
)
def test_no_cmdp_of_the_space_has_power_below_the_floor(name, sizes, tables):
    """The search cannot beat the floor: uniform play's value is at most L·T (docs/findings.md, finding 2)."""
    x = dict(zip(("L", "states", "actions", "m"), sizes, strict=True))
    for (key, low, high, _), share in zip(SPACE[4:], tables, strict=True):
        x[key] = low + share * (high - low)
    try:
        cmdp = make_explicit_cmdp(mdp_block(x))
    except ValueError:
        return  # ρ < 0: not admissible
    found = t_power(name, cmdp)
    assert found is None or found >= floor(name).T


def test_the_search_finds_the_hand_made_chain_or_better_and_never_beats_the_floor():
    found = search("theorem7_regret")
    assert floor("theorem7_regret").T <= found.T <= t_power("theorem7_regret", CHAIN)
    cmdp = make_explicit_cmdp(found.mdp)
    assert t_power("theorem7_regret", cmdp) == found.T
    assert (found.rho, found.opt, found.uniform_rate) == (cmdp.rho, cmdp.opt, uniform_rate(cmdp, "regret"))
    assert found.sizes == f"L = {cmdp.L}, |X| = {cmdp.n_states}, |A| = {cmdp.n_actions}, m = {cmdp.m}"
    assert found.evaluations > power_search.POPULATION * len(SPACE) * power_search.GENERATIONS
    with pytest.raises(ValueError, match="not 'lemma14_violation'"):
        search("lemma14_violation")


def _frame(T_search: float, mdp: dict | None) -> pd.DataFrame:
    row = {"bound": "theorem5_regret", "metric": "regret", "T_search": T_search, "T_floor": 3.6e7,
           "floor_L": 1, "sizes": "L = 1, |X| = 2, |A| = 3, m = 1", "rho": 1.0, "opt": 1.0,
           "uniform_rate": 2 / 3, "evaluations": 900, "mdp": json.dumps(mdp) if mdp else ""}  # fmt: skip
    return pd.DataFrame([row], columns=COLUMNS)


def test_the_table_says_what_the_search_found():
    block = {"reward": [[1, 0, 0]], "constraint": [[[-1, 1, 1]]], "layer_sizes": [1, 1]}
    text = markdown(_frame(1.25e8, block))
    sizes = "L = 1, \\|X\\| = 2, \\|A\\| = 3, m = 1"
    assert f"| theorem5_regret | 1.2e8 | 3.6e7 (L = 1) | 3.47 | {sizes} | 1, 1 | 0.667 | 900 |" in text
    rows = "rewards [1, 0, 0], constraints [-1, 1, 1]"
    assert f"- `theorem5_regret`: a chain of 1 layer(s); in every non-terminal state {rows}" in text
    assert "never (up to 1e24)" in markdown(_frame(math.inf, None))
    # A block whose states differ is printed whole (a config entry to copy).
    odd = {"reward": [[1, 0], [0, 1]], "constraint": [[[-1, 1], [1, -1]]], "layer_sizes": [1, 1, 1]}
    assert f"`mdp: {json.dumps(odd)}`" in markdown(_frame(1e9, odd))


def test_the_evidence_table_names_the_search_beside_the_floor():
    claim = CLAIMS_BY_KEY["theorem5_000"]
    assert _searched(claim, _frame(1.25e8, None)) == 1.25e8
    assert math.isnan(_searched(claim, None))
    assert math.isnan(_searched(CLAIMS_BY_KEY["lemma9_001"], _frame(1.0, None)))  # no bound of it searched
    assert _floor_note(3.6e7, 1.25e8) == (
        "; on any admissible instance: not below T ≈ 3.6e7 (docs/findings.md); instance search: T ≈ 1.2e8 "
        "(figures/power_search.md)"
    )
    assert _floor_note(3.6e7, math.inf).endswith("instance search: none up to 1e24 (figures/power_search.md)")
    assert _floor_note(math.nan, 1e8) == "" and "instance search" not in _floor_note(3.6e7, math.nan)


def test_the_search_is_deterministic():
    assert np.array_equal(
        power_search._objective("theorem5_regret", np.array([1, 1, 3, 1, 1.0, -1.0, 0.0, 1.0, 0.0, 1.0])),
        np.log10(t_power("theorem5_regret", ONE_LAYER)),
    )


def test_the_config_chooses_the_bounds_searched(tmp_path):
    """`power_searches: []` (the smoke config) writes an empty table the evidence table reads; a list runs
    those bounds only; a name no kind searches is one line naming the field before any job."""
    csv, md = tmp_path / "power_search.csv", tmp_path / "power_search.md"
    assert write_power_search(csv, md, ()).empty
    empty = read_typed_csv(csv)
    assert list(empty.columns) == COLUMNS and math.isnan(_searched(CLAIMS_BY_KEY["theorem5_000"], empty))
    one = write_power_search(csv, md, ("theorem7_regret",))
    assert list(one["bound"]) == ["theorem7_regret"]
    assert read_typed_csv(csv)["T_search"].iloc[0] == pytest.approx(one["T_search"][0], rel=1e-5)  # %.6g
    config = yaml.safe_load((REPO / "tests/config/smoke.yaml").read_text())
    with pytest.raises(ConfigError, match="power_searches"):
        validate_config({**config, "power_searches": ["theorem2_bound"]}, REPO / "schemas/config.schema.yaml")
