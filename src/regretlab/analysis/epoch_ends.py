"""A restarting learner's curve at its epoch ends: the points a rate is fitted on once the learner resets
inside the fitted range.

A learner that restarts (Algorithms 4, 6 and 7 of paper 001) pays a new warm-up in every epoch, so its regret
is a staircase; a slope through checkpoints that fall anywhere on the steps depends on where they fall. Its
learner reports, per run, the run table's metrics at every reset round (``params["epoch_ends"]``,
:mod:`regretlab.bandits.epochs`), and the curve is refitted there instead (:func:`epoch_end_points`).

Choices (docs/evidence.md, "Rates: consistent or rejected"):

* **Which runs.** Those at the curve's largest horizon: for a curve in T, that horizon's runs, whose epoch
  ends span the range (Algorithms 6 and 7 do not depend on T, so theirs are the resets of every shorter run
  too; Algorithm 4 depends on T only through η₁'s ln T factors); for a curve across instances (L*), each
  instance's runs at the curve's one horizon.
* **Which points.** The k-th epoch end of an instance is one point when every seed reached it: x is its mean
  over the seeds (of t, or of the swept loss L*, L_{i*_S}, L_D at that round), the values are the seeds'
  metrics there; ends reached by some seeds only are left out (their mean would be over the slower seeds).
  A curve across instances runs through rounds that grow along it, so the ln T its rate's Õ hides (ln of
  each point's mean round) widens the band it accepts (:func:`regretlab.analysis.exponents.log_slack`).
  Only the points inside the curve's fitted x-range (from the learner's onset to its last checkpoint) are
  kept, so that the fit covers the same range as the checkpoints it replaces; fewer than two, or two spanning
  less than half a decade, give no slope (:meth:`EpochEndPoints.unfit_reason`), not a fit across a reset.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: The learner parameter that holds a run's epoch ends (a list of records: ``t`` and metrics).
EPOCH_ENDS = "epoch_ends"
#: The epoch ends a slope is fitted through must span at least this many decades of x: two ends close together
#: (e.g. the k-th ends of two instances at about the same L*) leave the slope undetermined.
MIN_SPAN_DECADES = 0.5


@dataclass(frozen=True)
class EpochEndPoints:
    """A curve's points at epoch ends: ``x`` (increasing), the per-seed ``values`` at each, the mean round
    ``t`` of each (the horizon whose logs the rate's Õ hides there) and ``labels`` naming each point
    (``"instance k=3"``)."""

    x: np.ndarray
    values: list[np.ndarray]
    t: np.ndarray
    labels: list[str]

    def __len__(self) -> int:
        return int(self.x.size)

    def to_json(self) -> str:
        """``{"x": […], "mean": […], "labels": […]}``: the points as the figures draw them."""
        means = [float(np.mean(values)) for values in self.values]
        return json.dumps({"x": self.x.tolist(), "mean": means, "labels": self.labels})

    def unfit_reason(self) -> str:
        """Why no slope is fitted through these points ("" when one is): fewer than two, or spanning less
        than :data:`MIN_SPAN_DECADES` decades of x."""
        if len(self) < 2:
            return f"one epoch end reached by every seed inside the fitted range ({self.labels[0]})"
        span = math.log10(self.x.max() / self.x.min())
        if span < MIN_SPAN_DECADES:
            return (
                f"the epoch ends every seed reached inside the fitted range span {span:.2f} decades of x "
                f"(< {MIN_SPAN_DECADES})"
            )
        return ""


def epoch_end_points(
    params: dict[tuple, dict], curve: pd.DataFrame, x_name: str, metric: str
) -> EpochEndPoints | None:
    """The epoch-end points of ``curve`` (summary rows of one fit, sorted by ``x``, restricted to the points
    fitted) for ``metric``, inside the curve's x-range; None when its learner reports no epoch ends or no run
    of it reset inside that range (its checkpoints then lie in one epoch and the ordinary fit stands).

    ``params`` maps (instance, algorithm, constants, T, seed) to a run's learner parameters
    (:func:`regretlab.analysis.aggregate.learner_params`)."""
    if curve.empty:
        return None
    algorithm, constants = curve["algorithm"].iloc[0], curve["constants"].iloc[0]
    horizon = int(curve["T"].max())
    low, high = float(curve["x"].min()), float(curve["x"].max())
    column = "t" if x_name in ("T", "t") else x_name
    points = []
    for instance in sorted(curve["instance"].unique()):
        point = (instance, algorithm, constants, horizon)
        runs = [params[key].get(EPOCH_ENDS) for key in sorted(k for k in params if k[:4] == point)]
        if not runs or any(ends is None for ends in runs):
            return None  # a learner that does not restart
        for k in range(min(len(ends) for ends in runs)):
            records = [ends[k] for ends in runs]
            if any(column not in record or metric not in record for record in records):
                return None
            x = float(np.mean([record[column] for record in records]))
            values = np.array([record[metric] for record in records], dtype=float)
            t = float(np.mean([record["t"] for record in records]))
            points.append((x, values, t, f"{instance} k={k + 1}"))
    inside = sorted((p for p in points if low <= p[0] <= high), key=lambda p: p[0])
    if not inside:
        return None
    return EpochEndPoints(
        x=np.array([p[0] for p in inside]),
        values=[p[1] for p in inside],
        t=np.array([p[2] for p in inside]),
        labels=[p[3] for p in inside],
    )


def growth_between_ends(params: dict, metric: str, start: float, stop: float) -> float | None:
    """A restarting learner's growth per decade between epoch ends: ``10^slope``, the slope of ``metric``
    against t on log–log axes from the first epoch end in [``start``, ``stop``] to the last one there
    (one run, its learner ``params``). None when the learner reports no epoch ends (it does not restart);
    NaN when the window holds no two ends :data:`MIN_SPAN_DECADES` apart, or the metric is not positive at
    them."""
    ends = params.get(EPOCH_ENDS)
    if ends is None:
        return None
    inside = [end for end in ends if start <= end["t"] <= stop and metric in end]
    if len(inside) < 2 or math.log10(inside[-1]["t"] / inside[0]["t"]) < MIN_SPAN_DECADES:
        return math.nan
    first, last = inside[0], inside[-1]
    if first[metric] <= 0 or last[metric] <= 0:
        return math.nan
    return 10 ** (math.log(last[metric] / first[metric]) / math.log(last["t"] / first["t"]))
