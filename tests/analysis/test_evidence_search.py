"""The searches for ``T_informative`` and ``T_power`` (regretlab.analysis.evidence.search) on hand-made
curves: a toy bound ``c·√T`` whose hypotheses, trivial bound, ceiling, null and learner domain are set per
test, so every horizon found and every note is known before the search runs."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from regretlab.analysis.evidence import search
from regretlab.analysis.evidence.search import (
    T_MAX,
    T_MIN,
    Found,
    Search,
    _base_row,
    _better,
    _grid,
    _mechanism_at,
    _null_block,
    _point_block,
    explicit_search,
    mechanism_possible,
    rate_search,
    search_horizon,
)
from regretlab.registry.claims import Claim, Construction, Mechanism
from regretlab.specs.bound_spec import BoundSpec


def toy_bound(**extra) -> BoundSpec:
    """``point["c"]·√T`` on the metric ``m`` (no registered trivial bound or ceiling)."""
    fields = {"evaluate": lambda p: p["c"] * math.sqrt(p["T"]), "metric": "m", "explicit": True,
              "label": "c√T", "exponents": {"T": 0.5}, "source": "toy", **extra}  # fmt: skip
    return BoundSpec(**fields)


def claim(**extra) -> Claim:
    return Claim(**{"key": "k", "paper": "001", "name": "K", "text": "t", "source": "line 1",
                    "kind": "explicit bound", "bounds": ("toy",), **extra})  # fmt: skip


#: Exercised where the ceiling ``dual`` reaches 1 (``bounded_by``) and where the point's ``gap`` ≥ 1.
BOUNDED = Mechanism("gap ≥ 1", ("gap",), lambda p: p["gap"], 1.0, metrics=("m",), bounded_by="dual")
#: Exercised from T = 1000 on (it reads the horizon only).
FROM_1000 = Mechanism("T ≥ 1000", ("T",), lambda p: p["T"], 1000.0, metrics=("m",))


@pytest.fixture
def toy(monkeypatch):
    """The search's registries replaced by a toy kind: ``point_at`` gives ``{T, t, c}`` from the row's ``c``
    (raising past the instance's ``max_T``) and records every horizon; the ceiling ``dual`` of learner
    ``a`` is ``T / 10^6``; uniform play's value is the instance's ``null`` × T^{null_exponent} (1/2 unless
    set)."""
    calls = []

    def point_at(row, instance, kind, T):
        calls.append(T)
        if T > instance.get("max_T", math.inf):
            raise ValueError("learner undefined")
        return {"T": T, "t": T, "c": row["c"]}

    def ceiling(metric, algorithm, point):
        return point["T"] / 1e6 if (metric, algorithm) == ("dual", "a") else math.nan

    def uniform_value(instance, metric, point, algorithm):
        return instance["null"][algorithm] * point["T"] ** instance.get("null_exponent", 0.5)

    monkeypatch.setattr(search, "point_at", point_at)
    monkeypatch.setattr(search, "ceiling", ceiling)
    monkeypatch.setattr(search, "algorithm_kind", lambda algorithm: "toy")
    monkeypatch.setattr(search, "KINDS", {"toy": SimpleNamespace(uniform_value=uniform_value)})
    monkeypatch.setattr(search, "BOUNDS", {"toy": toy_bound()})
    return SimpleNamespace(calls=calls, monkeypatch=monkeypatch)


# ------------------------------------------------------------------------------------------------------------
# The grid and the bisection
# ------------------------------------------------------------------------------------------------------------


def test_the_grid_runs_from_ten_to_the_top_at_eight_points_a_decade():
    grid = _grid()
    assert grid[:4] == [10, 13, 18, 24]  # 10^{9/8} = 13.3, 10^{10/8} = 17.8, 10^{11/8} = 23.7
    assert grid[-1] == T_MAX == 10**18 and len(grid) == 8 * 17 + 1


def test_the_search_evaluates_integers_from_the_smallest_to_the_largest_horizon_only():
    seen = []
    found = search_horizon(lambda T: seen.append(T) or ("" if T >= 150 else "vacuous"))
    assert found == Search(150, "vacuous below")  # exact: below 10^4 the bisection ends at integer width
    assert all(type(T) is int for T in seen) and min(seen) == T_MIN and max(seen) == T_MAX
    assert search_horizon(lambda T: "" if T >= 101 else "custom") == Search(101, "custom below")
    for threshold in range(101, 400):  # every midpoint an integer, the arithmetic one included
        found = search_horizon(lambda T, at=threshold: seen.append(T) or ("" if T >= at else "vacuous"))
        assert found.T == threshold and all(type(T) is int for T in seen)


def test_the_bisection_stops_at_a_relative_width_of_1e_4():
    """A bisection to integer width would take ≈ 48 steps at 10^15; to a relative width of 10^{-4}, ≈ 12."""
    seen = []
    found = search_horizon(lambda T: seen.append(T) or ("" if T >= 10**15 + 12345 else "vacuous"))
    assert 10**15 + 12345 <= found.T <= (10**15 + 12345) * 1.0001
    assert len(seen) - len(_grid()) + len([T for T in _grid() if T < T_MIN]) <= 15


def test_beyond_the_top_the_note_is_the_last_grid_points_block_then_the_transient():
    assert search_horizon(lambda T: "" if 1e3 <= T <= 1e4 else "implied") == Search(
        None, "implied; passes the checks briefly near T = 1e3, a transient"
    )
    assert search_horizon(lambda T: "top only" if T == T_MAX else "implied") == Search(None, "top only")
    assert search_horizon(lambda T: "top only" if T == T_MAX else "vacuous").note == "top only"


# ------------------------------------------------------------------------------------------------------------
# One extrapolated point
# ------------------------------------------------------------------------------------------------------------


def test_the_measured_row_a_point_is_extrapolated_from_is_the_largest_horizon_at_or_below_it():
    rows = [{"T": 100, "t": 900}, {"T": 200, "t": 10}, {"T": 1000, "t": 1}]
    assert _base_row(rows, 500) is rows[1]
    assert _base_row(rows, 1000) is rows[2]
    assert _base_row(rows, 50) is rows[0]  # below every horizon: the smallest


def test_a_point_is_blocked_by_hypotheses_then_vacuity_then_the_learners_ceiling(toy):
    def block(direction="upper", **point):
        spec = toy_bound(
            direction=direction, hypotheses=lambda p: p.get("holds", True), trivial=lambda p: 10.0
        )
        return _point_block(spec, "a", {"T": 100, "c": 1.0, **point})

    assert block(holds=False) == "hypotheses"
    assert block(c=math.inf) == "vacuous"
    assert block() == "vacuous"  # 1·√100 = 10 = the trivial bound: vacuous at it
    assert block(c=0.99) == "" and block(T=99) == ""
    assert block("lower") == "vacuous" and block("lower", c=1.01) == ""  # a lower bound's floor
    toy.monkeypatch.setattr(
        search, "ceiling", lambda metric, algorithm, point: 5.0 if point["c"] < 1 else 20.0
    )
    assert block(c=0.5) == "implied" and block(c=0.49) == ""  # 5 = the ceiling: implied at it
    assert block("lower", c=2.0) == "implied" and block("lower", c=1.5) == "implied"  # at or below 20
    assert block("lower", c=2.01) == ""


def test_a_points_power_is_uniform_plays_value_of_the_same_learner(toy):
    instance = {"null": {"a": 2.0, "b": 100.0}}
    point = {"T": 100, "c": 2.0}
    assert _null_block(claim(), toy_bound(), "a", instance, "toy", point) == "powerless"  # 20 ≥ 20
    assert _null_block(claim(), toy_bound(), "a", instance, "toy", {**point, "c": 1.99}) == ""
    assert _null_block(claim(), toy_bound(), "b", instance, "toy", {**point, "c": 3.0}) == ""
    construction = claim(construction=Construction("{factor}", lambda row: 1.0))
    assert _null_block(construction, toy_bound(), "a", instance, "toy", point) == ""
    lower = toy_bound(direction="lower")
    assert _null_block(claim(), lower, "a", instance, "toy", point) == "no null"
    assert _null_block(claim(alternative="exp3"), lower, "a", instance, "toy", point) == ""
    assert _null_block(claim(), toy_bound(), "a", {"null": {"a": math.nan}}, "toy", point) == "no null"


def test_the_mechanism_at_a_horizon_found_reads_that_horizon_and_only_its_metrics(toy):
    on_T = claim(mechanism=FROM_1000)
    rows = [{"regime": "r", "instance": "i", "T": 100, "c": 1.0}]
    instances = {("r", "i"): {"numbers": {}}}
    assert _mechanism_at(on_T, "m", rows, instances, 500) == "mechanism"
    assert _mechanism_at(on_T, "m", rows, instances, 5000) == ""
    assert _mechanism_at(on_T, "other", rows, instances, 500) == ""
    assert _mechanism_at(on_T, "m", rows, instances, None) == ""


def test_a_mechanism_is_impossible_only_for_its_metrics_while_the_ceiling_keeps_it_below_threshold(toy):
    bounded = claim(mechanism=BOUNDED)
    assert not mechanism_possible(bounded, "m", "a", {"T": 10**5})
    assert mechanism_possible(bounded, "m", "a", {"T": 10**6})
    assert mechanism_possible(bounded, "other", "a", {"T": 10**5})  # not a metric it concerns
    assert mechanism_possible(bounded, "m", "b", {"T": 10**5})  # no ceiling for b: open
    assert mechanism_possible(claim(), "m", "a", {"T": 10**5})


def test_curves_where_the_mechanism_is_exercised_rank_first_then_the_smallest_horizon():
    def found(T, mechanism=""):
        return Found(Search(T, ""), {}, mechanism)

    assert _better(found(10**6), found(10**3, "mechanism"))
    assert not _better(found(10**3, "mechanism"), found(10**6))
    assert _better(found(10**3), found(10**4)) and not _better(found(10**4), found(10**3))
    assert _better(found(10**9), found(None)) and not _better(found(None), found(10**9))
    assert not _better(found(None), found(None))
    assert _better(found(None), None)


# ------------------------------------------------------------------------------------------------------------
# explicit_search
# ------------------------------------------------------------------------------------------------------------


def curve_row(instance="i", T=1000, **extra) -> dict:
    return {"regime": "r", "instance": instance, "algorithm": "a", "constants": "paper", "bound_name": "toy",
            "t": T, "T": T, "run_hypotheses_hold": True, "c": 1.0, **extra}  # fmt: skip


def test_explicit_search_finds_where_the_bound_drops_below_the_trivial_one(toy):
    """c√T < T/1000 (the trivial bound) from T = 10^6·c² on: 250 000 for c = 1/2, 10^6 for c = 1 (curve d,
    extrapolated from its row at 10^4, not from its c = 3 at 100). The curves before them are skipped (each
    would speak at T_MIN): failing learner conditions, constants the claim does not cover, identical runs."""
    toy.monkeypatch.setattr(search, "BOUNDS", {"toy": toy_bound(trivial=lambda p: p["T"] / 1000)})
    instances = {("r", name): {"null": {"a": 0.0}} for name in "abcde"}
    rows = pd.DataFrame([
        curve_row("a", c=0.001, run_hypotheses_hold=False),
        curve_row("b", c=0.001, constants="tuned"),
        curve_row("c", c=0.001, identical_to="a"),
        curve_row("d", T=100, c=3.0, identical_to=np.nan),
        curve_row("d", T=10**4, c=1.0),
        curve_row("e", T=10**4, c=0.5),
    ])  # fmt: skip
    found = explicit_search(claim(), rows, instances)
    assert 250_000 < found.search.T <= 250_000 * 1.0001 and found.search.note == "vacuous below"
    assert found.row["instance"] == "e" and found.mechanism == ""
    only_d = explicit_search(claim(), rows[rows["instance"] == "d"], instances)
    assert 10**6 < only_d.search.T <= 1.0001e6 and only_d.row["T"] == 10**4


def test_explicit_power_search_needs_the_bound_below_uniform_play(toy):
    """Informative from T = 1 (no trivial bound); uniform play's value is 3√T, the bound c√T: powerless while
    c ≥ 3, so never for c = 3 (T_power beyond the top), and for a learner undefined past 10^5 never at all."""
    instances = {("r", "i"): {"null": {"a": 3.0}}, ("r", "j"): {"null": {"a": 4.0}, "max_T": 10**5}}
    found = explicit_search(claim(), pd.DataFrame([curve_row(c=3.0)]), instances, power=True)
    assert found.search == Search(None, "uniform play passes too")
    assert explicit_search(claim(), pd.DataFrame([curve_row(c=3.0)]), instances).search.T == T_MIN
    undefined = explicit_search(claim(), pd.DataFrame([curve_row("j", c=1.0)]), instances, power=True)
    assert undefined.search == Search(
        None, "learner undefined at T; passes the checks briefly near T = 1e2, a transient"
    )


def test_explicit_search_waits_for_the_mechanism_the_learners_ceiling_allows(toy):
    """The ceiling ``dual`` = T/10^6 reaches the threshold 1 at T = 10^6, exactly (a grid point); the row's
    ``gap`` below 1 leaves the mechanism unexercised there."""
    instances = {("r", "i"): {"numbers": {}, "null": {"a": 9.0}}}
    found = explicit_search(claim(mechanism=BOUNDED), pd.DataFrame([curve_row(gap=0.5)]), instances)
    assert found.search == Search(10**6, "mechanism impossible by the learner's ceiling below")
    assert found.mechanism == "mechanism"
    # The mechanism is judged at the curve's largest measured horizon only.
    two = pd.DataFrame([curve_row(T=100, gap=0.5), curve_row(T=1000, gap=2.0)])
    assert explicit_search(claim(mechanism=BOUNDED), two, instances).mechanism == ""


# ------------------------------------------------------------------------------------------------------------
# rate_search
# ------------------------------------------------------------------------------------------------------------


def rate_fit(instance="i", **extra) -> dict:
    return {"regime": "r", "instance": instance, "algorithm": "a", "constants": "paper", "bound_name": "toy",
            "x": "T", "identical_to": "", "theory_exponent": 0.5, "hypotheses_hold": False,
            **extra}  # fmt: skip


def rate_rows(instance, holding_from, top=10**5, exponent=0.5, gap=0.0) -> list[dict]:
    """A sweep in T over 10^2 … ``top`` whose hypotheses hold from ``holding_from`` on, drawn as T^exponent,
    with the final rows' ``gap`` (earlier rows: 5, exercising :data:`BOUNDED`)."""
    horizons = [T for T in (10**2, 10**3, 10**4, 10**5, 10**6) if T <= top]
    return [
        curve_row(instance, T=T, x=float(T), bound_value=float(T) ** exponent,
                  hypotheses_hold=T >= holding_from, gap=gap if T == top else 5.0)
        for T in horizons
    ]  # fmt: skip


def test_a_rate_whose_hypotheses_hold_at_two_measured_points_is_fitted_there(toy):
    """Its T_informative is the largest horizon measured where they hold. Curves skipped: identical, a
    trajectory (x = t), uncovered constants, failing learner conditions (each would give 10^3 otherwise);
    a curve off its horizon (t ≠ T) is not one of its points. Of the rest the smallest horizon wins."""
    instances = {("r", name): {"numbers": {}} for name in "abcdefghij"}
    skipped = {"a": {"identical_to": "b"}, "b": {"x": "t"}, "c": {"constants": "tuned"}, "d": {}}
    fits = [rate_fit(name, **extra) for name, extra in skipped.items()]
    fits += [rate_fit("e"), rate_fit("g"), rate_fit("f"), rate_fit("h")]
    rows = [row for name in "abcd" for row in rate_rows(name, 10**2, top=10**3, gap=2.0)]
    rows = [{**row, "run_hypotheses_hold": row["instance"] != "d"} for row in rows]
    rows += rate_rows("e", 10**4)  # holds at 10^4 and 10^5: fitted, T = 10^5
    rows += rate_rows("f", 10**5, top=10**6)  # 10^5 and 10^6: T = 10^6
    rows += rate_rows("g", 10**3, top=10**4, gap=2.0)  # 10^3 and 10^4: T = 10^4, the mechanism exercised
    rows += rate_rows("h", 10**2, top=10**3, exponent=1.0, gap=2.0)  # drawn as T^1: not the theory's
    rows.append(curve_row("e", T=10**6, t=10, x=3e5, bound_value=1e9, hypotheses_hold=True, gap=5.0))
    summary = pd.DataFrame(rows)
    found = rate_search(claim(mechanism=BOUNDED), pd.DataFrame(fits), summary, instances)
    assert found.search == Search(10**4, "fit on the points where the hypotheses hold")
    assert (found.row["instance"], found.row["T"], found.mechanism) == ("g", 10**4, "")
    e_only = rate_search(claim(mechanism=BOUNDED), pd.DataFrame([rate_fit("e")]), summary, instances)
    assert e_only.search.T == 10**5 and e_only.mechanism == "mechanism"  # its final row's gap is 0
    # With power the measured fit does not answer: uniform play was not run at the scaled sweep.
    with_power = rate_search(claim(), pd.DataFrame([rate_fit("e")]), summary, {**instances,
                             ("r", "e"): {"numbers": {}, "null": {"a": 1.0}}}, power=True)  # fmt: skip
    assert with_power.search.note != "fit on the points where the hypotheses hold"


def test_a_rate_search_scales_the_sweep_to_end_at_each_horizon(toy):
    """The sweep 10², 10⁵ scaled to end at T: its first point is T/1000, at least 1 (0.1 at T = 100). The
    ceiling T/10^6 keeps the mechanism impossible at that first point until T = 10^9."""
    instances = {("r", "i"): {"numbers": {}}}
    rows = pd.DataFrame(rate_rows("i", 10**2, top=10**5)[::3])  # 10^2 and 10^5
    found = rate_search(claim(mechanism=BOUNDED), pd.DataFrame([rate_fit("i", hypotheses_hold=True)]), rows,
                        instances)  # fmt: skip
    assert found.search == Search(10**9, "mechanism impossible by the learner's ceiling below")
    assert min(toy.calls) == 1 and found.mechanism == "mechanism"
    unblocked = rate_search(claim(), pd.DataFrame([rate_fit("i", hypotheses_hold=True)]), rows, instances)
    assert unblocked.search.T == T_MIN and unblocked.mechanism == ""


def test_a_rate_search_reports_failing_hypotheses_a_missing_null_and_uniform_plays_slope(toy):
    instances = {("r", "i"): {"numbers": {}, "null": {"a": math.nan}}}
    rows = pd.DataFrame(rate_rows("i", 10**2))
    fits = pd.DataFrame([rate_fit("i", hypotheses_hold=True)])
    toy.monkeypatch.setattr(search, "BOUNDS", {"toy": toy_bound(hypotheses=lambda p: p["T"] < 0)})
    assert rate_search(claim(), fits, rows, instances).search == Search(None, "hypotheses fail")
    toy.monkeypatch.setattr(search, "BOUNDS", {"toy": toy_bound()})
    assert rate_search(claim(), fits, rows, instances, power=True).search == Search(
        None, "no null value (the metric is the learner's own state)"
    )
    # Uniform play's value 1·√T has the rate's own slope: inside the band, powerless at every T.
    instances[("r", "i")]["null"] = {"a": 1.0}
    assert rate_search(claim(), fits, rows, instances, power=True).search.note == "uniform play passes too"
    # Uniform play's value T (slope 1) is beyond the band [−∞, 0.6]: power from the start.
    instances[("r", "i")]["null_exponent"] = 1.0
    assert rate_search(claim(), fits, rows, instances, power=True).search.T == T_MIN
    # A lower rate with an alternative needs no null; an upper one with an alternative does.
    instances[("r", "i")]["null"] = {"a": math.nan}
    lower = claim(rate_sense="lower", alternative="exp3")
    assert rate_search(lower, fits, rows, instances, power=True).search.T == T_MIN
    upper = claim(alternative="exp3")
    assert rate_search(upper, fits, rows, instances, power=True).search.note.startswith("no null value")
    # A learner that cannot run past 10^4: the sweep scaled to end beyond it is undefined.
    instances[("r", "i")]["max_T"] = 10**4
    assert rate_search(claim(), fits, rows, instances).search == Search(
        None, "learner undefined at T; passes the checks briefly near T = 1e2, a transient"
    )
