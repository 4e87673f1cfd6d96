"""Items of the evidence table: a claim's points (explicit bounds, one per aggregate row) and curves (rates,
one per exponent fit), each testable or blocked, with its outcome and its power (the package's docstring says
when an item is testable)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from regretlab.analysis.evidence.points import mechanism_point
from regretlab.analysis.exponents import REJECTED, accepted_band, rejection_text
from regretlab.analysis.tables import records
from regretlab.registry.claims import Claim
from regretlab.registry.theory import BOUNDS

#: Why an item is not testable, in the order it is checked, with the words the table uses.
BLOCKS = {
    "identical": "identical runs",
    "hypotheses": "hypotheses fail",
    "vacuous": "vacuous",
    "implied": "implied",
    "rate only": "rate only",
    "warm-up": "not learning yet (regret ≥ ½ uniform play's)",
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
#: How strongly an upper bound's point separates the learner from uniform play, strongest first: ``strong``
#: when a learner playing the paper's algorithm and uniform play half and half (on oblivious losses its
#: expected regret is the average of the two) would fail the check too, ``nominal`` when only uniform play
#: would, ``none`` when neither would.
GRADES = ("strong", "nominal", "none")


def mechanism_state(claim: Claim, metric: str, point: dict) -> tuple[str, float]:
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
    #: An upper bound's point against uniform play: bound / uniform play's value, and its grade (GRADES);
    #: nan and "" where not graded (rates, lower bounds, construction checks, no null value).
    margin: float = math.nan
    grade: str = ""


def _covered(claim: Claim, block: str, constants: str) -> str:
    """An item's block once the claim's presets are applied: an item that passes every check but was run
    with constants the theorem does not cover (:attr:`Claim.presets`) is shown, not counted (``preset``)."""
    return "preset" if not block and constants not in claim.presets else block


def point_items(claim: Claim, rows: pd.DataFrame, instances: dict) -> list[Item]:
    items = []
    for row in records(rows):
        instance = instances[(row["regime"], row["instance"])]
        mech, value = mechanism_state(claim, row["metric"], mechanism_point(row, instance))
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
            block, power = point_power(claim, row)
        block = _covered(claim, block, row["constants"])
        outcome = row["verdict"] if block in ("", "preset") else ""
        item = Item(row["regime"], block, row, value, outcome, power if block in ("", "preset") else "")
        if block in ("", "powerless") and claim.construction is None and row["direction"] == "upper":
            item.margin, item.grade = point_grade(row)
        items.append(item)
    return items


def point_grade(row: dict) -> tuple[float, str]:
    """``(bound / uniform play's value, grade)`` of an upper bound's point (:data:`GRADES`): ``strong`` when
    the bound is below the average of the learner's measured mean and uniform play's value."""
    null, bound, mean = row.get("null_uniform"), row["bound_value"], row.get("mean", math.nan)
    if not (_finite(null) and null > 0 and _finite(bound)):
        return math.nan, ""
    if bound >= null:
        return bound / null, "none"
    return bound / null, "strong" if _finite(mean) and bound < (mean + null) / 2 else "nominal"


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def point_power(claim: Claim, row: dict) -> tuple[str, str]:
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


def curve_rows(fit: dict, summary: pd.DataFrame) -> pd.DataFrame:
    """The aggregate rows of one exponent fit's curve, from the learner's onset on (where the fit starts)."""
    rows = summary[
        (summary["regime"] == fit["regime"])
        & (summary["algorithm"] == fit["algorithm"])
        & (summary["constants"] == fit["constants"])
        & (summary["bound_name"] == fit["bound_name"])
    ]
    onset = fit.get("onset", math.nan)
    if isinstance(onset, float) and math.isfinite(onset):
        rows = rows[rows["x"] >= onset]
    return rows if fit["instance"] == "all" else rows[rows["instance"] == fit["instance"]]


def _logs(fit: dict) -> tuple[float, float]:
    """The fit's hidden-log slack and power (:func:`regretlab.analysis.exponents.accepted_band`); 0 for a
    fits table written before they were recorded."""
    slack, power = fit.get("log_slack", 0.0), fit.get("log_power", 0.0)
    return (float(slack) if _finite(slack) else 0.0), (float(power) if _finite(power) else 0.0)


def slope_outcome(fit: dict, sense: str) -> str:
    """A fitted slope against the band its rate accepts (:func:`accepted_band`): ``consistent`` where the
    slope's interval reaches the band, :data:`REJECTED` where it lies wholly beyond it (steeper than an upper
    or tight rate, shallower than a lower or tight one); a restarting learner's fit says at how many epoch
    ends it was made."""
    band = accepted_band(fit["theory_exponent"], fit["bound_slope"], sense, *_logs(fit))
    low, high = fit["ci_low"], fit["ci_high"]
    word = "consistent" if band.meets(low, high) else REJECTED
    kind = fit.get("rejection") or ""
    if word == REJECTED and isinstance(kind, str) and kind:  # persistent, or drifting toward the rate
        word += f" ({rejection_text(kind, fit.get('rejection_decades', math.nan))})"
    where = f" at {fit['n_points']} epoch ends" if fit.get("fitted_at") == "epoch ends" else ""
    interval = f"{fit['exponent']:.2f} [{low:.2f}, {high:.2f}]{where}"
    return f"{word}: {interval} vs {band.against}, accepts {band.text()}"


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


def curve_power(claim: Claim, fit: dict, fits: pd.DataFrame) -> tuple[str, str]:
    """``(block, power)`` of a rate curve that passes every other check: power against uniform play where its
    slope over the same points (``null_slope``) is outside the band the check accepts, against the reference
    learner as well where that learner's whole slope interval is; a lower rate with an ``alternative``,
    against it."""
    if claim.rate_sense == "lower" and claim.alternative:
        return "", "alternative"
    band = accepted_band(fit["theory_exponent"], fit["bound_slope"], claim.rate_sense, *_logs(fit))
    null = fit.get("null_slope")
    if not _finite(null):
        return "no null", ""
    if band.contains(null):
        return "powerless", ""
    reference = _reference_fit(fit, fits)
    beyond = reference is not None and not band.meets(reference["ci_low"], reference["ci_high"])
    return "", "reference" if beyond else "uniform"


def _in_warm_up(fit: dict) -> bool:
    """A curve without a slope because its learner has not started to learn: its regret is still at least
    half of uniform play's at its last point, or below it at fewer than two points (its ``onset``)."""
    onset = fit.get("onset", math.nan)
    if not isinstance(onset, float) or math.isnan(onset):
        return False
    return math.isinf(onset) or int(fit["n_points"]) < 2


def curve_items(
    claim: Claim, fits: pd.DataFrame, summary: pd.DataFrame, instances: dict, every_fit: pd.DataFrame
) -> list[Item]:
    items = []
    for fit in records(fits):
        rows = curve_rows(fit, summary)
        states = [
            mechanism_state(
                claim, row["metric"], mechanism_point(row, instances[(row["regime"], row["instance"])])
            )
            for row in records(rows)
        ]
        values = [value for _, value in states]
        mech = next((state for state, _ in states if state), "")
        if isinstance(fit.get("identical_to"), str) and fit["identical_to"]:
            block = "identical"
        elif not fit["hypotheses_hold"]:
            block = "hypotheses"
        elif not (np.isfinite(fit["exponent"]) and np.isfinite(fit["ci_low"])):
            block = "warm-up" if _in_warm_up(fit) else "no slope"
        elif fit["bound_regime"] != "asymptotic":
            block = "pre-asymptotic"
        else:
            block = mech
        power = ""
        if not block:
            block, power = curve_power(claim, fit, every_fit)
        block = _covered(claim, block, fit["constants"])
        value = float(np.nanmin(values)) if not np.isnan(values).all() else math.nan
        shown = block in ("", "preset")
        outcome = slope_outcome(fit, claim.rate_sense) if shown else ""
        items.append(Item(fit["regime"], block, fit, value, outcome, power if shown else ""))
    return items
