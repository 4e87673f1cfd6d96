"""The evidence table: one row per claim of :data:`regretlab.claims.CLAIMS` (and a row with its reason for
each claim of :data:`regretlab.claims.UNCHECKED_CLAIMS`), computed from the aggregate tables.

For each claim (docs/evidence.md explains every column):

* its *items*: the aggregate rows (points) of its explicit bounds and the exponent fits (curves) of its
  rates. An item is **testable** when its runs are not bit-identical to another curve family's
  (``identical_to``), the theorem's hypotheses hold there, the check could have failed — an explicit bound's
  verdict is ``holds`` or ``violated`` (not ``vacuous``, ``implied`` or ``rate only``); a rate's curve has a
  fitted slope with an interval and its drawn rate grows at the theory's exponent over the curve
  (``bound_regime`` ``asymptotic``) —, the claim's mechanism is exercised (:class:`regretlab.claims.
  Mechanism`), and it has **power**: a learner that does not learn would have failed it (:func:`_point_power`,
  :func:`_curve_power`: uniform play's value ``null_uniform`` above an upper bound, uniform play's slope
  ``null_slope`` outside the band a rate accepts; a lower bound's named alternative; a construction check's
  own verdict);
* ``tested``: at least one testable item; ``power``: the strongest among them (:data:`POWERS`);
  ``outcome``: the verdicts of the testable points, or the slopes of the testable curves against the band
  their rate accepts (``consistent`` or :data:`~regretlab.analysis.exponents.REJECTED`); ``why``: what blocks
  the other items, counted;
* ``T_informative``: the smallest horizon at which one of the claim's curves would pass every check but
  power, and ``T_power``: at which it would also have power, found by evaluating the bound functions and
  uniform play's value (:attr:`regretlab.kinds.Kind.uniform_value`) on the point extrapolated to T
  (:func:`point_at`) on a log grid of T up to :data:`T_MAX` and bisecting the first step; with the predicted
  CPU-hours of one run there (and of the curve's seeds) by the cost model
  (:func:`regretlab.cost.run_seconds`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from regretlab.analysis.exponents import REJECTED, accepted_band, bound_regime, bound_slope
from regretlab.analysis.tables import to_markdown
from regretlab.claims import CLAIMS, UNCHECKED, UNCHECKED_CLAIMS, Claim
from regretlab.cost import run_seconds
from regretlab.io import write_text
from regretlab.kinds import KINDS, algorithm_kind
from regretlab.theory import BOUNDS, ceiling, trivial_bound

#: The search for ``T_informative`` stops here ("beyond 10^18"; every learner is built for horizons up to
#: int64's 9.2·10^18).
T_MAX = 10**18
#: ... and starts here: below, a horizon is a transient, not a regime.
T_MIN = 100
#: Grid points per decade of the search (then a bisection between the last two).
GRID_PER_DECADE = 8
#: Why an item is not testable, in the order it is checked, with the words the table uses.
BLOCKS = {
    "identical": "identical runs",
    "hypotheses": "hypotheses fail",
    "vacuous": "vacuous",
    "implied": "implied",
    "rate only": "rate only",
    "no slope": "no slope",
    "pre-asymptotic": "rate pre-asymptotic",
    "mechanism not recorded": "mechanism not recorded",
    "mechanism": "mechanism not exercised",
    "mechanism impossible": "mechanism impossible by the learner's ceiling",
    "learner undefined": "learner undefined at T",
    "preset": "speaks only at constants the theorem does not cover",
    "no null": "no null value (the metric is the learner's own state)",
    "powerless": "uniform play passes too",
}
#: The strength of a tested item, strongest first: the check separates the learner from the reference
#: learner of its Table 1 column as well as from uniform play; from uniform play; from the alternative a lower
#: bound names; a construction check (true for every policy sequence: it catches bugs, not learners).
POWERS = ("reference", "uniform", "alternative", "construction")
CSV_COLUMNS = [
    "claim", "paper", "role", "name", "text", "source", "check", "bounds", "regimes", "points",
    "testable_items", "tested", "power", "outcome", "why", "mechanism", "mechanism_values", "identical",
    "T_informative", "T_informative_curve", "T_informative_note", "cpu_hours_run", "cpu_hours_seeds", "seeds",
    "T_power", "T_power_curve", "T_power_note", "cpu_hours_power_run", "cpu_hours_power_seeds",
]  # fmt: skip


# ------------------------------------------------------------------------------------------------------------
# Points: the aggregate's rows as the dicts bounds, ceilings and mechanisms read.
# ------------------------------------------------------------------------------------------------------------


def _scalar(value) -> bool:
    return isinstance(value, (bool, int, float, str))


def mechanism_point(row: dict, instance: dict) -> dict:
    """What a mechanism reads at an aggregate row: the instance's numbers, its loss entry's scalar fields as
    ``losses_<field>`` (bandit instances) and the row's columns (``T``, ``<metric>_mean`` …)."""
    losses = instance.get("losses", {})
    return {
        **instance.get("numbers", {}),
        **{f"losses_{key}": value for key, value in losses.items() if _scalar(value)},
        **row,
    }


def point_at(row: dict, instance: dict, kind: str, T: int) -> dict:
    """The point dict (:mod:`regretlab.bound_spec`) of ``row``'s curve extrapolated to horizon ``T``
    (``t = T``).

    From the row (measured at ``row["T"]``): the instance's numbers, every metric's mean over seeds — the
    kind's :attr:`~regretlab.kind_spec.Kind.horizon_scaled` totals (bandit loss totals) scaled by
    ``T / row["T"]``, the rest as measured (ρ, OPT, ℓ̄, C, ‖λ‖₁, ε̂) — and the learner's constants at ``T``
    (:attr:`~regretlab.kind_spec.Kind.learner_params`; those the run tables carry as columns, η, η̄, δ,
    copied to the point where a bound reads them there). A ValueError means the learner cannot run at ``T``.
    """
    spec = KINDS[kind]
    scale = T / float(row["T"])
    point = {"T": int(T), "t": int(T), **instance["numbers"]}
    for metric in spec.metrics:
        value = row.get(f"{metric}_mean")
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            point[metric] = value * scale if metric in spec.horizon_scaled else value
    oracle = {name: point[name] for name in spec.horizon_scaled if name in point}
    params = spec.learner_params(row, instance, int(T), oracle)
    point["params"] = params
    for name in spec.param_columns:
        if name in params and name in point:
            point[name] = params[name]
    return point


# ------------------------------------------------------------------------------------------------------------
# Items: points of explicit bounds and curves of rates, each testable or blocked.
# ------------------------------------------------------------------------------------------------------------


def _mechanism_state(claim: Claim, metric: str, point: dict) -> tuple[str, float]:
    """``("", value)`` when the mechanism is exercised or not needed, else its block and the value."""
    mechanism = claim.mechanism
    if mechanism is None or not mechanism.concerns(metric):
        return "", math.nan
    value = mechanism.measure(point)
    state = mechanism.exercised(value)
    if state is None:
        return "mechanism not recorded", value
    return ("" if state else "mechanism"), value


@dataclass
class Item:
    """One point (explicit bound) or curve (rate) of a claim: ``block`` "" when testable."""

    regime: str
    block: str
    row: dict
    mechanism_value: float = math.nan
    outcome: str = ""
    power: str = ""  # one of POWERS when testable


def _covered(claim: Claim, block: str, constants: str) -> str:
    """An item's block once the claim's presets are applied: an item that passes every check but was run
    with constants the theorem does not cover (:attr:`Claim.presets`) is shown, not counted (``preset``)."""
    return "preset" if not block and constants not in claim.presets else block


def _point_items(claim: Claim, rows: pd.DataFrame, instances: dict) -> list[Item]:
    items = []
    for row in rows.to_dict("records"):
        instance = instances[(row["regime"], row["instance"])]
        mech, value = _mechanism_state(claim, row["metric"], mechanism_point(row, instance))
        if row.get("identical_to"):
            block = "identical"
        elif not row["hypotheses_hold"]:
            block = "hypotheses"
        elif row["verdict"] in ("vacuous", "implied"):
            block = row["verdict"]
        else:
            block = mech
        power = ""
        if not block:
            block, power = _point_power(claim, row)
        block = _covered(claim, block, row["constants"])
        outcome = row["verdict"] if block in ("", "preset") else ""
        items.append(
            Item(row["regime"], block, row, value, outcome, power if block in ("", "preset") else "")
        )
    return items


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def _point_power(claim: Claim, row: dict) -> tuple[str, str]:
    """``(block, power)`` of an explicit bound's point that passes every other check: a construction check's
    power is ``construction``; a lower bound's, the claim's ``alternative`` (uniform play passes every lower
    bound on regret); an upper bound has power only below uniform play's value at the point
    (``null_uniform``), and against the reference learner too when below its measured value
    (``null_reference``)."""
    if claim.construction is not None:
        return "", "construction"
    if row["direction"] == "lower":
        return ("", "alternative") if claim.alternative else ("no null", "")
    null, bound = row.get("null_uniform"), row["bound_value"]
    if not _finite(null):
        return "no null", ""
    if bound >= null:
        return "powerless", ""
    reference = row.get("null_reference")
    return "", "reference" if _finite(reference) and bound < reference else "uniform"


def _curve_rows(fit: dict, summary: pd.DataFrame) -> pd.DataFrame:
    """The aggregate rows of one exponent fit's curve."""
    rows = summary[
        (summary["regime"] == fit["regime"])
        & (summary["algorithm"] == fit["algorithm"])
        & (summary["constants"] == fit["constants"])
        & (summary["bound_name"] == fit["bound_name"])
    ]
    return rows if fit["instance"] == "all" else rows[rows["instance"] == fit["instance"]]


def _slope_outcome(fit: dict, sense: str) -> str:
    """A fitted slope against the band its rate accepts (:func:`accepted_band`): ``consistent`` where the
    slope's interval reaches the band, :data:`REJECTED` where it lies wholly beyond it (steeper than an upper
    or tight rate, shallower than a lower or tight one)."""
    band = accepted_band(fit["theory_exponent"], fit["bound_slope"], sense)
    low, high = fit["ci_low"], fit["ci_high"]
    word = "consistent" if band.meets(low, high) else REJECTED
    return f"{word}: {fit['exponent']:.2f} [{low:.2f}, {high:.2f}] vs {band.against}, accepts {band.text()}"


def _reference_fit(fit: dict, fits: pd.DataFrame) -> dict | None:
    """The fit of the curve's reference learner (``BoundSpec.reference``) on the same metric and instance
    (or horizon set, for a curve across instances) of the same regime, or None."""
    reference = BOUNDS[fit["bound_name"]].reference
    if not reference or fits.empty:
        return None
    same = fits[
        (fits["regime"] == fit["regime"])
        & (fits["algorithm"] == reference)
        & (fits["metric"] == fit["metric"])
        & (fits["instance"] == fit["instance"])
    ]
    same = same[np.isfinite(same["ci_low"].to_numpy(dtype=float))]
    return same.iloc[0].to_dict() if len(same) else None


def _curve_power(claim: Claim, fit: dict, fits: pd.DataFrame) -> tuple[str, str]:
    """``(block, power)`` of a rate curve that passes every other check: power against uniform play where its
    slope over the same points (``null_slope``) is outside the band the check accepts, against the reference
    learner as well where that learner's whole slope interval is; a lower rate with an ``alternative``,
    against it."""
    if claim.rate_sense == "lower" and claim.alternative:
        return "", "alternative"
    band = accepted_band(fit["theory_exponent"], fit["bound_slope"], claim.rate_sense)
    null = fit.get("null_slope")
    if not _finite(null):
        return "no null", ""
    if band.contains(null):
        return "powerless", ""
    reference = _reference_fit(fit, fits)
    beyond = reference is not None and not band.meets(reference["ci_low"], reference["ci_high"])
    return "", "reference" if beyond else "uniform"


def _curve_items(
    claim: Claim, fits: pd.DataFrame, summary: pd.DataFrame, instances: dict, every_fit: pd.DataFrame
) -> list[Item]:
    items = []
    for fit in fits.to_dict("records"):
        rows = _curve_rows(fit, summary)
        states = [
            _mechanism_state(
                claim, row["metric"], mechanism_point(row, instances[(row["regime"], row["instance"])])
            )
            for row in rows.to_dict("records")
        ]
        values = [value for _, value in states]
        mech = next((state for state, _ in states if state), "")
        if isinstance(fit.get("identical_to"), str) and fit["identical_to"]:
            block = "identical"
        elif not fit["hypotheses_hold"]:
            block = "hypotheses"
        elif not (np.isfinite(fit["exponent"]) and np.isfinite(fit["ci_low"])):
            block = "no slope"
        elif fit["bound_regime"] != "asymptotic":
            block = "pre-asymptotic"
        else:
            block = mech
        power = ""
        if not block:
            block, power = _curve_power(claim, fit, every_fit)
        block = _covered(claim, block, fit["constants"])
        value = float(np.nanmin(values)) if not np.isnan(values).all() else math.nan
        shown = block in ("", "preset")
        outcome = _slope_outcome(fit, claim.rate_sense) if shown else ""
        items.append(Item(fit["regime"], block, fit, value, outcome, power if shown else ""))
    return items


# ------------------------------------------------------------------------------------------------------------
# T_informative: where a blocked curve would speak.
# ------------------------------------------------------------------------------------------------------------


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


def _search(block_at) -> Search:
    """The smallest T in [:data:`T_MIN`, :data:`T_MAX`] from which ``block_at(T) == ""`` at every larger grid
    point: a log grid, then a bisection between the last blocked grid point and the next (assuming
    monotonicity there). Blocks are not always monotone in T (a rate's local slope can cross the theory's
    exponent on its way elsewhere): an earlier informative stretch is noted, not reported. The note starts
    with what blocks the last horizon before the one found (``vacuous below``)."""
    grid = [T for T in _grid() if T >= T_MIN]
    blocks = [block_at(T) for T in grid]
    last = max((i for i, block in enumerate(blocks) if block), default=None)
    transient = [grid[i] for i in range(len(grid)) if not blocks[i] and (last is None or i < last)]
    note = f"passes the checks briefly near T = {_number(transient[0])}, a transient" if transient else ""
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
    learner's ceiling makes impossible at ``T`` blocks the search itself, :func:`_mechanism_possible`)."""
    if T is None:
        return ""
    blocks = [
        _mechanism_state(
            claim, metric, {**mechanism_point(row, instances[(row["regime"], row["instance"])]), "T": T}
        )[0]
        for row in rows
    ]
    return next((block for block in blocks if block), "")


def _mechanism_possible(claim: Claim, metric: str, algorithm: str, point: dict) -> bool:
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
    there ("" when it would): uniform play's value at the point (:attr:`regretlab.kinds.Kind.uniform_value`)
    is not above it. A construction check's power and a lower bound's alternative do not depend on T."""
    if claim.construction is not None:
        return ""
    if spec.direction == "lower":
        return "" if claim.alternative else "no null"
    null = KINDS[kind].uniform_value(instance, spec.metric, point, algorithm)
    if not math.isfinite(null):
        return "no null"
    return "powerless" if spec.evaluate(point) >= null else ""


def _explicit_search(claim: Claim, rows: pd.DataFrame, instances: dict, power: bool = False) -> Found | None:
    """The smallest informative horizon over the claim's explicit curves (instance, algorithm, constants,
    bound) whose learner's own conditions hold at their largest measured horizon; with ``power``, the
    smallest at which the bound would also be below uniform play's value (``T_power``)."""
    finals = rows[rows["t"] == rows["T"]]
    if "identical_to" in finals:
        finals = finals[finals["identical_to"].fillna("") == ""]
    best = None
    for _, curve in finals.groupby(["regime", "instance", "algorithm", "constants", "bound_name"]):
        measured = sorted(curve.to_dict("records"), key=lambda r: r["T"])
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
            if not block and not _mechanism_possible(claim, spec.metric, row["algorithm"], point):
                return "mechanism impossible"
            if not block and power:
                return _null_block(claim, spec, row["algorithm"], instance, kind, point)
            return block

        search = _search(block_at)
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


def _rate_search(
    claim: Claim, fits: pd.DataFrame, summary: pd.DataFrame, instances: dict, power: bool = False
) -> Found | None:
    """The smallest largest-horizon T at which one of the claim's rate curves, its sweep scaled to end at T,
    would have the theorem's hypotheses at every point and a drawn rate whose local slope is within 0.1 of
    the theory's exponent. ``x = T``: the regime's horizons × T/T_max; ``x`` a loss total: every instance at
    horizon T. With ``power``, also uniform play's slope over the same points outside the band the check
    accepts (:func:`accepted_band`): ``T_power``."""
    best = None
    for fit in fits.to_dict("records"):
        if (isinstance(fit.get("identical_to"), str) and fit["identical_to"]) or fit["x"] == "t":
            continue
        if fit["constants"] not in claim.presets:  # the theorem says nothing about these constants
            continue
        rows = _curve_rows(fit, summary)
        rows = rows[rows["t"] == rows["T"]]
        if rows.empty or not rows["run_hypotheses_hold"].all():
            continue
        spec = BOUNDS[fit["bound_name"]]
        ordered = rows.sort_values("T").to_dict("records")
        last = ordered[-1]
        finals = [row for row in ordered if row["T"] == last["T"]]  # every instance of an x = L* curve
        holding = _holding_fit(rows, fit)
        if holding is not None and not power:  # measured already: a fit on the points where they hold
            found = Found(Search(holding, "fit on the points where the hypotheses hold"), last)
            found.mechanism = _mechanism_at(claim, spec.metric, finals, instances, holding)
            best = found if _better(found, best) else best
            continue
        by_instance = {name: group.to_dict("records") for name, group in rows.groupby("instance")}
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
                    if not _mechanism_possible(claim, spec.metric, row["algorithm"], point):
                        return "mechanism impossible"
                    xs.append(point["T"] if fit["x"] == "T" else point[fit["x"]])
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
            band = accepted_band(fit["theory_exponent"], slope, claim.rate_sense)
            return "powerless" if band.contains(null_slope) else ""

        search = _search(block_at)
        found = Found(search, last, _mechanism_at(claim, spec.metric, finals, instances, search.T))
        if _better(found, best):
            best = found
    return best


# ------------------------------------------------------------------------------------------------------------
# The table.
# ------------------------------------------------------------------------------------------------------------


def _count_blocks(items: list[Item]) -> str:
    counts = pd.Series([item.block for item in items if item.block]).value_counts()
    order = [block for block in BLOCKS if block in counts.index]
    return " · ".join(f"{BLOCKS[block]} {counts[block]}" for block in order)


def _outcome(items: list[Item]) -> str:
    """The outcome of the testable items; where there are none but items that pass every check at constants
    the theorem does not cover, theirs, marked as not counted."""
    counted = [item for item in items if not item.block]
    if counted:
        return _describe(counted)
    shown = [item for item in items if item.block == "preset"]
    if not shown:
        return ""
    presets = ", ".join(sorted({item.row["constants"] for item in shown}))
    return f"not counted ({presets} constants, not the theorem's): {_describe(shown)}"


def _describe(items: list[Item]) -> str:
    """Verdict counts of the points and slopes of the curves among ``items``."""
    points = [item for item in items if "verdict" in item.row]
    curves = [item for item in items if "verdict" not in item.row]
    parts = []
    if points:
        violated = sum(item.outcome == "violated" for item in points)
        # A probability's binomial test that neither certifies nor refutes it (Lemma 5 at a few seeds).
        inconclusive = sum(item.outcome == "inconclusive" for item in points)
        word = "violated" if violated else "holds"
        count = violated or len(points) - inconclusive
        parts.append(f"{word} at {count}/{len(points)} pts")
        if inconclusive:
            parts[-1] += f", inconclusive at {inconclusive}/{len(points)}"
    if curves:
        by_word: dict[str, list[str]] = {}
        for item in curves:
            word, slope = item.outcome.split(": ", 1)
            by_word.setdefault(word, []).append(slope)
        for word, slopes in sorted(by_word.items(), key=lambda pair: pair[0] != REJECTED):
            more = f" (+{len(slopes) - 3})" if len(slopes) > 3 else ""
            parts.append(f"{word}: {'; '.join(slopes[:3])}{more}")
    return "; ".join(parts)


def _mechanism_values(items: list[Item]) -> str:
    values = [item.mechanism_value for item in items if not math.isnan(item.mechanism_value)]
    if not values:
        return ""
    low, high = min(values), max(values)
    return f"{low:.3g}" if math.isclose(low, high) else f"{low:.3g}–{high:.3g}"


def _regimes_cell(items: list[Item]) -> str:
    counts = pd.Series([item.regime for item in items]).value_counts(sort=False)
    return ", ".join(f"{regime} ({n})" for regime, n in sorted(counts.items()))


def _short_regimes(cell: str) -> str:
    """At most two regimes of a ``regimes`` cell, then how many more."""
    parts = cell.split(", ")
    return cell if len(parts) <= 2 else ", ".join(parts[:2]) + f" +{len(parts) - 2} more"


def _cost(config: dict, row: dict, T: int) -> tuple[float, float, int]:
    """CPU-hours of one run and of the curve's seeds at ``T`` (the seeds of the row's point)."""
    regime = config["regimes"][row["regime"]]
    seeds = int(row.get("n_seeds", 1))
    one = run_seconds(row["regime"], regime, row["instance"], row["algorithm"], T, 1) / 3600
    every = run_seconds(row["regime"], regime, row["instance"], row["algorithm"], T, seeds) / 3600
    return one, every, seeds


def _strongest(items: list[Item]) -> str:
    """The strongest power among the testable items (:data:`POWERS`), or ""."""
    powers = {item.power for item in items if not item.block}
    return next((power for power in POWERS if power in powers), "")


def _found_columns(found: Found | None, config: dict, prefix: str, suffix: str) -> dict:
    """The ``T_<prefix>`` columns (horizon, curve, note) and the CPU-hours of a run there of a search."""
    columns = {
        f"T_{prefix}": math.nan,
        f"T_{prefix}_curve": "",
        f"T_{prefix}_note": "",
        f"cpu_hours{suffix}_run": math.nan,
        f"cpu_hours{suffix}_seeds": math.nan,
    }
    if found is None:
        return columns
    row = found.row
    notes = [found.search.note]
    if found.mechanism:
        notes.append(f"{BLOCKS[found.mechanism]} where measured (not extrapolated)")
    columns[f"T_{prefix}_note"] = "; ".join(note for note in notes if note)
    columns[f"T_{prefix}_curve"] = "/".join(
        str(row[key]) for key in ("regime", "instance", "algorithm", "constants", "bound_name")
    )
    if found.search.T is not None:
        one, every, seeds = _cost(config, row, found.search.T)
        columns.update({f"T_{prefix}": float(found.search.T), f"cpu_hours{suffix}_run": one,
                        f"cpu_hours{suffix}_seeds": every})  # fmt: skip
        if prefix == "informative":
            columns["seeds"] = seeds
    return columns


def claim_row(
    claim: Claim, summary: pd.DataFrame, exponents: pd.DataFrame, instances: dict, config: dict
) -> dict:
    """One row of the evidence table (module docstring)."""
    rows = summary[summary["bound_name"].isin(claim.bounds)]
    fits = exponents[exponents["bound_name"].isin(claim.bounds) & ~exponents["bound_explicit"].astype(bool)]
    if claim.regimes is not None:
        rows, fits = rows[rows["regime"].isin(claim.regimes)], fits[fits["regime"].isin(claim.regimes)]
    explicit = rows[rows["bound_explicit"].astype(bool) & (rows["direction"] != "reference")]
    items = _point_items(claim, explicit, instances) + _curve_items(
        claim, fits, summary, instances, exponents
    )
    tested = any(not item.block for item in items)
    power = _strongest(items)
    twins = rows.drop_duplicates(["regime", "algorithm", "constants"])
    twins = twins[twins["identical_to"].fillna("") != ""] if "identical_to" in twins else twins.iloc[:0]
    if not explicit.empty:  # the explicit bounds say where the claim speaks; rates only for rate claims
        found = _explicit_search(claim, explicit, instances)
        found_power = None if power else _explicit_search(claim, explicit, instances, power=True)
    else:
        found = _rate_search(claim, fits, summary, instances)
        found_power = None if power else _rate_search(claim, fits, summary, instances, power=True)
    outcome = _outcome(items)
    if claim.construction is not None and tested:
        caught = claim.construction.describe(
            [claim.construction.factor(item.row) for item in items if not item.block]
        )
        outcome = f"{outcome}; would catch {caught}" if caught else outcome
    result = {
        "claim": claim.key,
        "paper": claim.paper,
        "role": claim.role,
        "name": claim.name,
        "text": claim.text,
        "source": claim.source,
        "check": claim.kind,
        "bounds": ", ".join(claim.bounds),
        "regimes": _regimes_cell(items),
        "points": len(items),
        "testable_items": sum(not item.block for item in items),
        "tested": tested,
        "power": power,
        "outcome": outcome,
        "why": claim.reason if claim.kind in UNCHECKED else ("" if tested else _count_blocks(items)),
        "mechanism": claim.mechanism.description if claim.mechanism else "",
        "mechanism_values": _mechanism_values(items),
        "identical": "; ".join(
            f"{r['regime']}: {r['algorithm']}/{r['constants']} = {r['identical_to']}"
            for r in twins.to_dict("records")
        ),
        "seeds": 0,
        **_found_columns(found, config, "informative", ""),
        **_found_columns(found_power, config, "power", "_power"),
    }
    return result


def evidence_table(
    summaries: list[pd.DataFrame], exponents: list[pd.DataFrame], instances: dict, config: dict
) -> pd.DataFrame:
    """The evidence table (module docstring), one row per claim the config draws (a claim none of whose
    bounds any regime draws has no row): ``instances`` maps ``(regime, instance)`` to its instance file's
    contents, ``config`` is the validated config (for the cost model)."""
    summary = pd.concat(summaries, ignore_index=True)
    fits = pd.concat(exponents, ignore_index=True)
    rows = [claim_row(claim, summary, fits, instances, config) for claim in CLAIMS + UNCHECKED_CLAIMS]
    kept = [row for row in rows if row["points"] or row["check"] in UNCHECKED]
    return pd.DataFrame(kept, columns=CSV_COLUMNS)


def _number(value: float) -> str:
    """Two significant digits, exponents without ``+`` and leading zeros: ``6.2e4``, ``0.00024``, ``33``."""
    text = f"{value:.2g}"
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else text


def _horizon(value: float, note: str, power: bool = False) -> str:
    """A ``T_informative`` (or ``T_power``) cell: the horizon (``≤ 1e2`` at the bottom of the search,
    ``> 1e18`` beyond its top, ``never`` for a bound implied by the learner's construction, or with no null
    value, at every horizon searched) and the note."""
    top = _number(T_MAX)
    if math.isnan(value) and note.startswith(BLOCKS["implied"]):
        return f"never: implied at every T searched (1e2–{top}; the learner's construction)"
    if math.isnan(value) and note.startswith(BLOCKS["no null"]):
        return f"never: {BLOCKS['no null']}"
    if math.isnan(value) and note.startswith(BLOCKS["powerless"]) and power:
        return f"never: {BLOCKS['powerless']} at every T searched (1e2–{top})"
    if math.isnan(value):
        return f"> {top} ({note})" if note else "—"
    text = _number(value)
    if note.startswith("already"):
        text, note = f"≤ {_number(T_MIN)}", note.partition("; ")[2]
    return f"{text} ({note})" if note else text


def _hours(one: float, every: float, seeds: int) -> str:
    if math.isnan(one):
        return ""
    return f"{_number(one)} / {_number(every)} ({seeds})"


def counts(table: pd.DataFrame) -> dict[str, int]:
    """The headline's numbers: the papers' claims (``claims``), those tested with power against uniform play
    (``powered``; ``against_reference`` also against the reference learner), the tested ones rejected over the
    measured range (``rejected``), the construction checks that were tested (``construction``), the
    proof-internal claims and the reference rows."""
    claims = table[table["role"] == "claim"]
    tested = claims[claims["tested"].astype(bool)]
    powered = tested[tested["power"].isin(["uniform", "reference"])]
    return {
        "claims": len(claims),
        "powered": len(powered),
        "against_reference": int((powered["power"] == "reference").sum()),
        "rejected": int(powered["outcome"].str.contains(REJECTED, regex=False).sum()),
        "construction": int((tested["power"] == "construction").sum()),
        "alternative": int((tested["power"] == "alternative").sum()),
        "proof_internal": int((claims["check"] == "proof-internal").sum()),
        "references": int((table["role"] == "reference").sum()),
    }


def headline(table: pd.DataFrame) -> str:
    """The evidence table's one-sentence count (README and docs quote it)."""
    n = counts(table)
    rejected = f", {n['rejected']} of them rejected over the measured range" if n["rejected"] else ""
    return (
        f"{n['powered']} of {n['claims']} claims of the two papers are tested with power against uniform "
        f"play ({n['against_reference']} also against the reference learner){rejected}"
    )


def markdown(table: pd.DataFrame) -> str:
    """The compact Markdown of the evidence table (one row per claim, short cells) and its legend."""
    n, title = counts(table), headline(table)
    unchecked = table[table["check"].isin(UNCHECKED)]
    table = table[~table["check"].isin(UNCHECKED)]
    lines = pd.DataFrame(
        {
            "claim": [
                f"{r.name} ({r.paper})" + (" — *reference*" if r.role == "reference" else "")
                for r in table.itertuples()
            ],
            "check": table["check"],
            "regimes (items)": [_short_regimes(cell) for cell in table["regimes"]],
            "tested": ["**yes**" if t else "no" for t in table["tested"]],
            "power": table["power"].replace("", "—"),
            "outcome": table["outcome"].replace("", "—"),
            "why not": table["why"]
            + [f"; {m}: measured {v}" if m and v and not t else "" for m, v, t in
               zip(table["mechanism"], table["mechanism_values"], table["tested"], strict=True)],
            "T_informative": [
                _horizon(t, note)
                for t, note in zip(table["T_informative"], table["T_informative_note"], strict=True)
            ],
            "T_power": [
                "" if p in ("uniform", "reference") else _horizon(t, note, power=True)
                for t, note, p in zip(table["T_power"], table["T_power_note"], table["power"], strict=True)
            ],
            "CPU-h at T_power: run / seeds": [
                _hours(a, b, s) for a, b, s in
                zip(table["cpu_hours_power_run"], table["cpu_hours_power_seeds"], table["seeds"], strict=True)
            ],
        }
    )  # fmt: skip
    legend = " ".join(
        [
            f"**{title}.** {n['construction']} construction checks (true for every policy",
            f"sequence: they catch bugs, not learners) and {n['alternative']} lower bound (power against the",
            f"alternative it names) are counted apart; {n['proof_internal']} claims have no check",
            "(proof-internal, or about quantities the runs do not record: the reason given);",
            f"{n['references']} reference rows (prior work's results, an inequality inside a proof) are",
            "shown and not counted. A claim is *tested* when at ≥ 1 point (or fitted curve) the theorem's",
            "hypotheses hold, the check could have failed (an explicit bound below the trivial bound and",
            "the learner's own ceiling; a rate whose drawn curve already has its exponent), the claim's",
            "mechanism is exercised, the runs are not a copy of another curve's, they use constants the",
            "theorem covers, and a learner that does not learn would have failed it: `power` `uniform`",
            "(uniform play's value on the same instance and horizon is above the bound; for a rate, uniform",
            "play's slope over the same points is outside the band the check accepts), `reference` (the",
            "reference learner of its Table 1 column too), `alternative` (a lower bound: the learner it",
            "names would violate it), `construction`. A rate's slope is `consistent` when its interval",
            "reaches the accepted band (within 0.1 of the exponent or of the drawn rate's local slope, on",
            f"the side the rate allows), `{REJECTED}` otherwise. `T_informative`: the smallest horizon at",
            "which one curve would pass every check but power; `T_power`: at which it would also have power",
            "against uniform play (bound functions and uniform play's value on the extrapolated point; what",
            f"blocks it below; `> {_number(T_MAX)}` past the search, `never` where no horizon searched",
            "could), with the cost model's CPU-hours of one run there and of its seeds. How each column is",
            "computed: docs/evidence.md; every column: figures/evidence.csv.",
        ]
    ) + "\n\n"
    rest = pd.DataFrame(
        {
            "claim": [f"{r.name} ({r.paper})" for r in unchecked.itertuples()],
            "statement": unchecked["text"],
            "source": unchecked["source"],
            "no check": unchecked["check"],
            "why": unchecked["why"],
        }
    )
    text = "# Evidence: every claim, tested where it speaks\n\n" + legend + to_markdown(lines)
    return text + ("\n\n## Claims without a check\n\n" + to_markdown(rest) if len(rest) else "")


def write_evidence_table(
    summaries: list[pd.DataFrame],
    exponents: list[pd.DataFrame],
    instances: dict,
    config: dict,
    csv_path: str | os.PathLike,
    md_path: str | os.PathLike,
) -> pd.DataFrame:
    """Write ``figures/evidence.csv`` and ``figures/evidence.md`` atomically; return the table."""
    table = evidence_table(summaries, exponents, instances, config)
    write_text(csv_path, table.to_csv(index=False, float_format="%.6g"))
    write_text(md_path, markdown(table))
    return table
