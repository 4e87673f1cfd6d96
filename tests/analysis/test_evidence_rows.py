"""One row of the evidence table from hand-made items (regretlab.analysis.evidence.table): what each column
says, with the items and the searches stubbed, so that every cell is pinned by a fast test."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
import yaml

from regretlab.analysis.evidence import table as table_module
from regretlab.analysis.evidence.items import Item
from regretlab.analysis.evidence.table import (
    CSV_COLUMNS,
    _cost,
    _describe,
    _mechanism_values,
    _outcome,
    claim_row,
)
from regretlab.registry.claims import CLAIMS_BY_KEY, UNCHECKED_CLAIMS, Claim, Construction
from regretlab.registry.unit_costs import run_seconds
from regretlab.workflow.config import validate_config

REPO = Path(__file__).resolve().parents[2]
COLUMNS = ["bound_name", "regime", "bound_explicit", "direction", "algorithm", "constants", "identical_to"]


def _point(block: str = "", outcome: str = "holds", **row) -> Item:
    return Item(
        "r", block, {"verdict": outcome, "constants": "paper", **row}, outcome=outcome if not block else ""
    )


def _curve(outcome: str, block: str = "", constants: str = "paper") -> Item:
    return Item("r", block, {"constants": constants}, outcome=outcome)


@pytest.fixture
def stubbed(monkeypatch):
    """claim_row with its items set by the test and the searches returning nothing; records the explicit
    rows it passed on to its point items."""
    seen = {}

    def point_items(claim, rows, instances):
        seen["explicit"] = rows
        return seen.get("items", [])

    monkeypatch.setattr(table_module, "point_items", point_items)
    monkeypatch.setattr(table_module, "curve_items", lambda *args: [])
    monkeypatch.setattr(table_module, "explicit_search", lambda *args, **kwargs: None)
    monkeypatch.setattr(table_module, "rate_search", lambda *args, **kwargs: None)
    return seen


def _row(claim: Claim, rows: list[dict]) -> dict:
    frame = pd.DataFrame(rows, columns=COLUMNS)
    fits = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit"])
    return claim_row(claim, frame, fits, {}, {"regimes": {}})


def test_a_row_names_its_claim_in_its_columns(stubbed):
    claim = CLAIMS_BY_KEY["theorem3"]
    stubbed["items"] = [_point("vacuous"), _point("vacuous")]
    row = _row(claim, [])
    assert set(row) == set(CSV_COLUMNS)
    assert (row["claim"], row["paper"], row["role"], row["name"]) == (
        claim.key,
        claim.paper,
        "claim",
        claim.name,
    )
    assert (row["text"], row["source"], row["check"]) == (claim.text, claim.citation, claim.kind)
    assert row["bounds"] == ", ".join(claim.bounds)
    assert (row["tested"], row["power"], row["why"], row["points"]) == (False, "", "vacuous 2", 2)
    assert row["mechanism"] == (claim.mechanism.description if claim.mechanism else "")
    assert row["identical"] == "" and row["regimes"] == "r (2)"


def test_the_bounds_cell_lists_every_bound_and_an_absent_mechanism_is_empty(stubbed):
    claim = Claim("k", "001", "K", "text", "line 1", "explicit bound", ("bound_a", "bound_b"))
    row = _row(claim, [])
    assert row["bounds"] == "bound_a, bound_b" and row["mechanism"] == ""


def test_a_claim_without_a_check_gives_its_reason(stubbed):
    claim = UNCHECKED_CLAIMS[0]
    stubbed["items"] = [_point("vacuous")]
    assert _row(claim, [])["why"] == claim.reason != ""


def test_reference_rows_are_not_items_of_a_claim(stubbed):
    claim = CLAIMS_BY_KEY["theorem3"]
    bound = claim.bounds[0]
    rows = [
        {"bound_name": bound, "regime": "r", "bound_explicit": True, "direction": "reference",
         "algorithm": "a", "constants": "paper", "identical_to": ""},
        {"bound_name": bound, "regime": "r", "bound_explicit": True, "direction": "upper",
         "algorithm": "a", "constants": "paper", "identical_to": ""},
    ]  # fmt: skip
    _row(claim, rows)
    assert stubbed["explicit"]["direction"].tolist() == ["upper"]


def test_the_identical_cell_names_each_copied_run_once(stubbed):
    claim = CLAIMS_BY_KEY["theorem3"]
    bound = claim.bounds[0]
    base = {"bound_name": bound, "regime": "r", "bound_explicit": True, "direction": "upper"}
    rows = [
        {**base, "algorithm": "a", "constants": "tuned", "identical_to": "a/paper"},
        {**base, "direction": "reference", "algorithm": "a", "constants": "tuned", "identical_to": "a/paper"},
        {**base, "algorithm": "a", "constants": "paper", "identical_to": math.nan},
        {**base, "algorithm": "b", "constants": "paper", "identical_to": ""},
        {**base, "algorithm": "b", "constants": "tuned", "identical_to": "b/paper"},
    ]
    assert _row(claim, rows)["identical"] == "r: a/tuned = a/paper; r: b/tuned = b/paper"
    no_column = pd.DataFrame([{k: v for k, v in rows[3].items() if k != "identical_to"}])
    fits = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit"])
    assert claim_row(claim, no_column, fits, {}, {"regimes": {}})["identical"] == ""


def test_a_construction_check_says_what_it_would_catch_only_where_it_knows(stubbed):
    construction = Construction("a radius {factor}× too small", lambda row: row.get("factor", math.nan))
    claim = replace(CLAIMS_BY_KEY["theorem3"], construction=construction)
    stubbed["items"] = [_point(factor=13.0, power="construction"), _point(factor=4.0)]
    assert _row(claim, [])["outcome"] == "holds at 2/2 pts; would catch a radius 4× too small"
    stubbed["items"] = [_point()]  # no factor recorded
    assert _row(claim, [])["outcome"] == "holds at 1/1 pts"


def test_slopes_of_one_word_are_cut_at_three_rejected_first():
    consistent = [_curve(f"consistent: 0.{n} [0.1, 0.9] vs ½: band {n}") for n in range(5)]
    rejected = [_curve("rejected over the measured range: 1.0 [0.9, 1.1] vs ½: band r")]
    assert _describe(consistent + rejected) == (
        "rejected over the measured range: 1.0 [0.9, 1.1] vs ½: band r; "
        "consistent: 0.0 [0.1, 0.9] vs ½: band 0; 0.1 [0.1, 0.9] vs ½: band 1; "
        "0.2 [0.1, 0.9] vs ½: band 2 (+2)"
    )
    assert _describe(consistent[:4]).endswith("band 2 (+1)")
    assert _describe(consistent[:3]).endswith("band 2")  # three: no count of the rest


def test_the_outcome_of_items_at_uncovered_constants_names_every_preset():
    shown = [_curve("consistent: 0.5", "preset", "tuned"), _curve("consistent: 0.6", "preset", "paper")]
    assert _outcome(shown) == "not counted (paper, tuned constants, not the theorem's): consistent: 0.5; 0.6"


def test_mechanism_values_are_one_number_or_a_range():
    def item(value):
        return Item("r", "", {}, mechanism_value=value)

    assert _mechanism_values([item(1.5), item(1.5), item(math.nan)]) == "1.5"
    assert _mechanism_values([item(2.25), item(1.5)]) == "1.5–2.25"
    assert _mechanism_values([item(math.nan)]) == ""


def test_cost_is_the_cost_models_hours_of_one_run_and_of_the_points_seeds():
    config = validate_config(
        yaml.safe_load((REPO / "config.yaml").read_text()), REPO / "schemas" / "config.schema.yaml"
    )
    regime = "theorem2_explicit_bound"
    spec = config["regimes"][regime]
    instance, algorithm = next(iter(spec["instances"])), spec["algorithms"][0]
    algorithm = algorithm if isinstance(algorithm, str) else algorithm["name"]
    row = {"regime": regime, "instance": instance, "algorithm": algorithm, "n_seeds": 7}
    one, every, seeds = _cost(config, row, 10**6)
    assert seeds == 7
    assert one == run_seconds(regime, spec, instance, algorithm, 10**6, 1) / 3600 > 0
    assert every == run_seconds(regime, spec, instance, algorithm, 10**6, 7) / 3600 > one
    assert _cost(config, {k: v for k, v in row.items() if k != "n_seeds"}, 10**6) == (one, one, 1)
