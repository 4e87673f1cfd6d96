"""``T_informative`` and ``T_power``: the smallest horizon at which one of a claim's blocked curves would
speak (pass every check but power), and at which it would also have power, found on the points of
:func:`regretlab.analysis.evidence.points.point_at` on a log grid of T (:func:`search_horizon`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from regretlab.analysis.evidence.items import BLOCKS, curve_rows, mechanism_state
from regretlab.analysis.evidence.points import mechanism_point, point_at
from regretlab.analysis.exponents import accepted_band, bound_regime, bound_slope, log_slack
from regretlab.analysis.tables import records, short_number
from regretlab.registry.claims import Claim
from regretlab.registry.kinds import KINDS, algorithm_kind
from regretlab.registry.theory import BOUNDS, ceiling, trivial_bound

#: The search for ``T_informative`` stops here ("beyond 10^18"; every learner is built for horizons up to
#: int64's 9.2·10^18).
T_MAX = 10**18
#: ... and starts here: below, a horizon is a transient, not a regime.
T_MIN = 100
#: Grid points per decade of the search (then a bisection between the last two).
GRID_PER_DECADE = 8


def _grid() -> list[int]:
    top = round(GRID_PER_DECADE * math.log10(T_MAX))
    return sorted({int(round(10 ** (k / GRID_PER_DECADE))) for k in range(GRID_PER_DECADE, top + 1)})


def _base_row(rows: list[dict], T: int) -> dict:
    """The measured row a horizon-``T`` point is extrapolated from: the largest horizon ≤ T, else the
    smallest."""
    below = [row for row in rows if row["T"] <= T]
    return max(below, key=lambda r: r["T"]) if below else min(rows, key=lambda r: r["T"])


def _point_block(spec, algorithm: str, point: dict) -> str:
    """Why an explicit bound at an extrapolated point would not be testable ("" when it would be): the
    theorem's hypotheses, the trivial bound and the learner's ceiling (the mechanism is judged apart)."""
    if spec.hypotheses is not None and not spec.hypotheses(point):
        return "hypotheses"
    bound = spec.evaluate(point)
    upper = spec.direction != "lower"
    if not math.isfinite(bound):
        return "vacuous"
    trivial = trivial_bound(spec, point)
    if not math.isnan(trivial) and ((bound >= trivial) if upper else (bound <= trivial)):
        return "vacuous"
    cap = ceiling(spec.metric, algorithm, point)
    if not math.isnan(cap) and ((bound >= cap) if upper else (bound <= cap)):
        return "implied"
    return ""


@dataclass
class Search:
    """The result of a search for the smallest informative horizon of one curve."""

    T: int | None  # None: beyond T_MAX
    note: str  # the block at T_MAX when beyond, or a non-monotone pattern


def search_horizon(block_at) -> Search:
    """The smallest T in [:data:`T_MIN`, :data:`T_MAX`] from which ``block_at(T) == ""`` at every larger grid
    point: a log grid, then a bisection between the last blocked grid point and the next (assuming
    monotonicity there). Blocks are not always monotone in T (a rate's local slope can cross the theory's
    exponent on its way elsewhere): an earlier informative stretch is noted, not reported. The note starts
    with what blocks the last horizon before the one found (``vacuous below``)."""
    grid = [T for T in _grid() if T >= T_MIN]
    blocks = [block_at(T) for T in grid]
    last = max((i for i, block in enumerate(blocks) if block), default=None)
    transient = [grid[i] for i in range(len(grid)) if not blocks[i] and (last is None or i < last)]
    note = ""
    if transient:
        note = f"passes the checks briefly near T = {short_number(transient[0])}, a transient"
    if last is None:
        return Search(grid[0], "already at the smallest horizon searched")
    if last == len(grid) - 1:
        return Search(None, "; ".join(n for n in (BLOCKS.get(blocks[-1], blocks[-1]), note) if n))
    low, high, below = grid[last], grid[last + 1], blocks[last]
    while high - low > 1 and high > 1.0001 * low:
        middle = int(math.sqrt(low * high))
        middle = middle if low < middle < high else (low + high) // 2
        block = block_at(middle)
        low, high, below = (low, middle, below) if not block else (middle, high, block)
    return Search(high, "; ".join(n for n in (f"{BLOCKS.get(below, below)} below", note) if n))


@dataclass
class Found:
    """The smallest informative horizon of a claim's curves, the curve that attains it, and the mechanism
    there."""

    search: Search
    row: dict  # the curve's row at its largest measured horizon
    mechanism: str = ""  # "" or the mechanism's block at that horizon


def _rank(found: Found) -> tuple:
    """Curves whose mechanism is exercised where they speak first, then the smallest horizon."""
    T = found.search.T
    return (T is None, bool(found.mechanism), T if T is not None else math.inf)


def _better(found: Found, best: Found | None) -> bool:
    return best is None or _rank(found) < _rank(best)


def _mechanism_at(claim: Claim, metric: str, rows: list[dict], instances: dict, T: int | None) -> str:
    """The mechanism's block ("" when exercised) at every measured point of a curve (its rows at its largest
    horizon), with ``T`` set to the horizon found: measured values are not extrapolated (a mechanism a
    learner's ceiling makes impossible at ``T`` blocks the search itself, :func:`mechanism_possible`)."""
    if T is None:
        return ""
    blocks = [
        mechanism_state(
            claim, metric, {**mechanism_point(row, instances[(row["regime"], row["instance"])]), "T": T}
        )[0]
        for row in rows
    ]
    return next((block for block in blocks if block), "")


def mechanism_possible(claim: Claim, metric: str, algorithm: str, point: dict) -> bool:
    """False where the learner's own ceiling on the metric the mechanism measures (``Mechanism.bounded_by``)
    keeps it from being exercised at the extrapolated point (App. C's dual cannot clip before
    ηLT ≥ T^{1/4})."""
    mechanism = claim.mechanism
    if mechanism is None or mechanism.bounded_by is None or not mechanism.concerns(metric):
        return True
    cap = ceiling(mechanism.bounded_by, algorithm, point)
    return math.isnan(cap) or bool(mechanism.exercised(cap))


def _null_block(claim: Claim, spec, algorithm: str, instance: dict, kind: str, point: dict) -> str:
    """Why an explicit bound that would be informative at an extrapolated point would still have no power
    there ("" when it would): uniform play's value at the point
    (:attr:`regretlab.registry.kinds.Kind.uniform_value`) is not above it. A construction check's power and a
    lower bound's alternative do not depend on T."""
    if claim.construction is not None:
        return ""
    if spec.direction == "lower":
        return "" if claim.alternative else "no null"
    null = KINDS[kind].uniform_value(instance, spec.metric, point, algorithm)
    if not math.isfinite(null):
        return "no null"
    return "powerless" if spec.evaluate(point) >= null else ""


def explicit_search(claim: Claim, rows: pd.DataFrame, instances: dict, power: bool = False) -> Found | None:
    """The smallest informative horizon over the claim's explicit curves (instance, algorithm, constants,
    bound) whose learner's own conditions hold at their largest measured horizon; with ``power``, the
    smallest at which the bound would also be below uniform play's value (``T_power``)."""
    finals = rows[rows["t"] == rows["T"]]
    if "identical_to" in finals:
        finals = finals[finals["identical_to"].fillna("") == ""]
    best = None
    curves: dict[tuple, list[dict]] = {}  # records made once, grouped by curve (to_dict per group is slow)
    for record in records(finals):
        key = tuple(record[k] for k in ("regime", "instance", "algorithm", "constants", "bound_name"))
        curves.setdefault(key, []).append(record)
    for _, curve in sorted(curves.items()):
        measured = sorted(curve, key=lambda r: r["T"])
        if not measured[-1]["run_hypotheses_hold"] or measured[-1]["constants"] not in claim.presets:
            continue
        instance = instances[(measured[0]["regime"], measured[0]["instance"])]
        kind = algorithm_kind(measured[0]["algorithm"])
        spec = BOUNDS[measured[0]["bound_name"]]

        def block_at(T, measured=measured, instance=instance, kind=kind, spec=spec):
            row = _base_row(measured, T)
            try:
                point = point_at(row, instance, kind, T)
            except ValueError:
                return "learner undefined"
            block = _point_block(spec, row["algorithm"], point)
            if not block and not mechanism_possible(claim, spec.metric, row["algorithm"], point):
                return "mechanism impossible"
            if not block and power:
                return _null_block(claim, spec, row["algorithm"], instance, kind, point)
            return block

        search = search_horizon(block_at)
        mechanism = _mechanism_at(claim, spec.metric, measured[-1:], instances, search.T)
        found = Found(search, measured[-1], mechanism)
        if _better(found, best):
            best = found
    return best


def _holding_fit(rows: pd.DataFrame, fit: dict) -> int | None:
    """For a curve fitted across points where the hypotheses fail at some: the largest horizon of its points
    where they hold, when they are ≥ 2 distinct x on which the drawn rate has the theory's exponent (a fit
    restricted to them would test the claim at horizons already run); None otherwise."""
    if fit["hypotheses_hold"]:
        return None
    holding = rows[rows["hypotheses_hold"].astype(bool)].sort_values("x")
    if holding["x"].nunique() < 2:
        return None
    slope, _ = bound_slope(holding["x"].to_numpy(dtype=float), holding["bound_value"].to_numpy(dtype=float))
    return int(holding["T"].max()) if bound_regime(slope, fit["theory_exponent"]) == "asymptotic" else None


def rate_search(
    claim: Claim, fits: pd.DataFrame, summary: pd.DataFrame, instances: dict, power: bool = False
) -> Found | None:
    """The smallest largest-horizon T at which one of the claim's rate curves, its sweep scaled to end at T,
    would have the theorem's hypotheses at every point and a drawn rate whose local slope is within 0.1 of
    the theory's exponent. ``x = T``: the regime's horizons × T/T_max; ``x`` a loss total: every instance at
    horizon T. With ``power``, also uniform play's slope over the same points outside the band the check
    accepts (:func:`accepted_band`): ``T_power``."""
    best = None
    for fit in records(fits):
        if (isinstance(fit.get("identical_to"), str) and fit["identical_to"]) or fit["x"] == "t":
            continue
        if fit["constants"] not in claim.presets:  # the theorem says nothing about these constants
            continue
        rows = curve_rows(fit, summary)
        rows = rows[rows["t"] == rows["T"]]
        if rows.empty or not rows["run_hypotheses_hold"].all():
            continue
        spec = BOUNDS[fit["bound_name"]]
        ordered = records(rows.sort_values("T"))
        last = ordered[-1]
        finals = [row for row in ordered if row["T"] == last["T"]]  # every instance of an x = L* curve
        holding = _holding_fit(rows, fit)
        if holding is not None and not power:  # measured already: a fit on the points where they hold
            found = Found(Search(holding, "fit on the points where the hypotheses hold"), last)
            found.mechanism = _mechanism_at(claim, spec.metric, finals, instances, holding)
            best = found if _better(found, best) else best
            continue
        by_instance = {name: records(group) for name, group in rows.groupby("instance")}
        horizons = sorted(set(rows["T"]))

        def block_at(T, fit=fit, spec=spec, by_instance=by_instance, horizons=horizons):
            xs, values, nulls = [], [], []
            for name, measured in by_instance.items():
                for horizon in horizons:
                    horizon = max(1, round(horizon * T / horizons[-1]))
                    row = _base_row(measured, horizon)
                    instance = instances[(row["regime"], name)]
                    kind = algorithm_kind(row["algorithm"])
                    try:
                        point = point_at(row, instance, kind, horizon)
                    except ValueError:
                        return "learner undefined"
                    if spec.hypotheses is not None and not spec.hypotheses(point):
                        return "hypotheses"
                    if not mechanism_possible(claim, spec.metric, row["algorithm"], point):
                        return "mechanism impossible"
                    xs.append(point[fit["x"]])  # T, or a loss total
                    values.append(spec.evaluate(point))
                    if power:
                        nulls.append(
                            KINDS[kind].uniform_value(instance, spec.metric, point, row["algorithm"])
                        )
            x = np.array(xs, dtype=float)
            slope, _ = bound_slope(x, np.array(values, dtype=float))
            if bound_regime(slope, fit["theory_exponent"]) != "asymptotic":
                return "pre-asymptotic"
            if not power or (claim.rate_sense == "lower" and claim.alternative):
                return ""
            null_slope, _ = bound_slope(x, np.array(nulls, dtype=float))
            if not math.isfinite(null_slope):
                return "no null"
            hidden = spec.log_powers.get(fit["x"], 0.0)
            slack = log_slack(x, hidden)
            band = accepted_band(fit["theory_exponent"], slope, claim.rate_sense, slack, hidden)
            return "powerless" if band.contains(null_slope) else ""

        search = search_horizon(block_at)
        found = Found(search, last, _mechanism_at(claim, spec.metric, finals, instances, search.T))
        if _better(found, best):
            best = found
    return best
