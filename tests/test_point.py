"""The typed point every bound, ceiling, hypothesis and null learner is evaluated at
(:class:`regretlab.specs.bound_spec.Point`), and that the aggregate and the evidence table build it."""

from __future__ import annotations

from regretlab.specs.bound_spec import Point


def test_a_point_reads_its_parts_by_name():
    point = Point(T=1000, t=500, numbers={"K": 8}, params={"eta": 0.1}, metrics={"L_star": 42.0})
    assert (point["T"], point["t"], point["K"], point["L_star"]) == (1000, 500, 8, 42.0)
    assert point["params"]["eta"] == 0.1
    assert point.get("opt") is None and "L_star" in point and "opt" not in point


def test_a_measured_metric_shadows_an_instance_number_of_the_same_name():
    point = Point(T=10, t=10, numbers={"opt": 1.0, "K": 3}, metrics={"opt": 0.5})
    assert point["opt"] == 0.5 and point["K"] == 3


def test_a_point_is_the_mapping_of_its_names():
    point = Point(T=10, t=5, numbers={"K": 3}, params={"c": 2.0}, metrics={"L_star": 1.5})
    assert dict(point) == {"T": 10, "t": 5, "K": 3, "params": {"c": 2.0}, "L_star": 1.5}
    assert len(point) == 5 and point == dict(point)
    assert {**point, "T": 20}["T"] == 20 and point["T"] == 10  # a copy changes, the point does not
