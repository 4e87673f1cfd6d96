"""Power on the shipped fixture (tests/data/evidence_quick, a default run's aggregates): every claim the
evidence table counts as tested with power against uniform play is one that uniform play fails on that very
instance and horizon — recomputed here from the instance files by the kinds' null learners, not read from the
aggregate's column — and at least nine claims of the two papers are (issue 20).

Refresh the fixture after changing a regime (tests/evidence_fixture.py says how).
"""

from __future__ import annotations

import math

import evidence_fixture
import numpy as np
import pandas as pd
import pytest

from regretlab.analysis import evidence
from regretlab.analysis.aggregate import with_archives
from regretlab.analysis.evidence.items import curve_items, curve_rows, point_items
from regretlab.analysis.exponents import accepted_band, bound_slope
from regretlab.registry.claims import CLAIMS
from regretlab.registry.kinds import KINDS

CLAIM_BY_KEY = {claim.key: claim for claim in CLAIMS}


@pytest.fixture(scope="module")
def fixture(fixture_evidence_file):
    summary, exponents, instances, keys = evidence_fixture.load()
    config = evidence_fixture.shipped_config()
    stale = [
        name
        for name, regime in config["regimes"].items()
        if keys.get(name) != evidence_fixture.regime_key(regime)
    ]
    if stale:
        pytest.fail(f"the evidence fixture is stale for {stale}: refresh it with {evidence_fixture.REFRESH}")
    return summary, exponents, instances, pd.read_pickle(fixture_evidence_file)  # noqa: S301 - this run's


def _kind(instance: dict) -> str:
    """An instance file's kind: a CMDP's holds its ``cmdp``, a bandit's its ``graph``."""
    return "cmdp" if "cmdp" in instance else "bandit"


def _null(row: dict, instances: dict) -> float:
    """Uniform play's value at an aggregate row, recomputed from the instance file."""
    instance = instances[(row["regime"], row["instance"])]
    point = {"T": int(row["T"]), "t": int(row["t"]), **instance["numbers"]}
    point.update({key[: -len("_mean")]: value for key, value in row.items() if key.endswith("_mean")})
    return KINDS[_kind(instance)].uniform_value(instance, row["metric"], point, row["algorithm"])


def test_at_least_nine_claims_of_the_two_papers_are_tested_with_power(fixture):
    *_, table = fixture
    counts = evidence.counts(table)
    powered = table[(table["role"] == "claim") & table["power"].isin(["uniform", "reference"])]
    assert counts["powered"] >= 9, f"tested with power against uniform play: {list(powered['claim'])}"


def test_uniform_play_fails_every_check_counted_as_tested_with_power(fixture):
    """For each claim with power uniform or reference: at its testable points uniform play's value,
    recomputed, is above the bound; on its testable curves uniform play's slope, recomputed over the same
    points, is outside the band the check accepts."""
    summary, exponents, instances, table = fixture
    for row in table[table["power"].isin(["uniform", "reference"])].to_dict("records"):
        claim = CLAIM_BY_KEY[row["claim"]]
        rows = summary[summary["bound_name"].isin(claim.bounds)]
        if claim.regimes is not None:
            rows = rows[rows["regime"].isin(with_archives(claim.regimes))]
        explicit = rows[rows["bound_explicit"].astype(bool) & (rows["direction"] != "reference")]
        fits = exponents[
            exponents["bound_name"].isin(claim.bounds) & ~exponents["bound_explicit"].astype(bool)
        ]
        items = point_items(claim, explicit, instances) + curve_items(
            claim, fits, summary, instances, exponents
        )
        powered = [item for item in items if not item.block and item.power in ("uniform", "reference")]
        assert powered, row["claim"]
        for item in powered:
            if "verdict" in item.row:  # a point
                null = _null(item.row, instances)
                assert null > item.row["bound_value"], (row["claim"], item.row["instance"], item.row["T"])
            else:  # a curve: uniform play's slope over its points
                curve = curve_rows(item.row, summary)  # from the learner's onset on
                if item.row.get("fitted_on") == "hypotheses hold":
                    curve = curve[curve["hypotheses_hold"].astype(bool)]
                nulls = np.array([_null(point, instances) for point in curve.to_dict("records")])
                slope, _ = bound_slope(curve["x"].to_numpy(dtype=float), nulls)
                band = accepted_band(item.row["theory_exponent"], item.row["bound_slope"], claim.rate_sense)
                assert math.isfinite(slope) and not band.contains(slope), (row["claim"], slope, band)
