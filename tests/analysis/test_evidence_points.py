"""Points of the evidence table on a toy kind (regretlab.analysis.evidence.points): what a mechanism reads at
an aggregate row, and a row's curve extrapolated to another horizon (totals scaled, the rest as measured,
the learner's constants at the new T, missing means left out)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from regretlab.analysis.evidence import points
from regretlab.analysis.evidence.points import mechanism_point, point_at
from regretlab.specs.bound_spec import Point


def test_a_mechanism_reads_the_instances_numbers_its_scalar_loss_fields_and_the_rows_columns():
    losses = {"kind": "bernoulli", "means": [0.1, 0.2], "gap": 0.3}
    instance = {"numbers": {"K": 4, "L_D": 1.0}, "losses": losses}
    point = mechanism_point({"T": 100, "L_D": 2.0}, instance)
    assert point == {"K": 4, "L_D": 2.0, "losses_kind": "bernoulli", "losses_gap": 0.3, "T": 100}
    assert mechanism_point({"T": 5}, {}) == {"T": 5}  # a CMDP instance: no numbers needed, no losses


@pytest.fixture
def toy(monkeypatch):
    """A kind with a horizon-scaled total ``L`` and a measured ratio ``rho``; its learner's ``eta`` is 1/√T
    (copied to the point, a run-table column) and ``c`` is the oracle's L (not a column); ``rho`` and
    ``delta`` are columns its learner does not have."""
    asked = []

    def learner_params(row, instance, T, oracle):
        asked.append(oracle)
        return {"eta": T**-0.5, "c": oracle.get("L", -1.0)}

    kind = SimpleNamespace(metrics={"L": None, "rho": None, "eta": None}, horizon_scaled=("L",),
                           learner_params=learner_params, param_columns=("eta", "rho", "delta"))  # fmt: skip
    monkeypatch.setattr(points, "KINDS", {"toy": kind})
    return asked


def test_a_point_at_another_horizon_scales_the_totals_and_keeps_the_rest(toy):
    row = {"T": 100, "t": 50, "L_mean": 30.0, "rho_mean": 0.25, "eta_mean": 0.1}
    point = point_at(row, {"numbers": {"K": 3}}, "toy", 400)
    assert isinstance(point, Point) and point.metrics["eta"] == 400**-0.5  # the learner's η at T
    assert point == {"T": 400, "t": 400, "K": 3, "L": 120.0, "rho": 0.25, "eta": 400**-0.5,
                     "params": {"eta": 400**-0.5, "c": 120.0}}  # fmt: skip
    assert toy == [{"L": 120.0}]


def test_a_metric_the_row_has_no_mean_of_is_left_out_and_so_is_a_column_it_lacks(toy):
    row = {"T": 100, "L_mean": math.nan, "rho_mean": None}
    point = point_at(row, {"numbers": {}}, "toy", 400)
    assert point == {"T": 400, "t": 400, "params": {"eta": 0.05, "c": -1.0}}  # no L, rho, eta or delta
    assert toy == [{}]
