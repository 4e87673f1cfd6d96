"""The legend and footer of a figure of :mod:`regretlab.analysis.figures`, from what its panels show.

The panels record what they draw in a :class:`Drawn`; the legend (:func:`legend_handles`) lists only that,
and the footer (:func:`footer_lines`) lists each bound with its kind and whose constants it carries, and
counts the verdicts (:func:`verdict_counts`).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from regretlab.analysis.figure_layout import (
    EXPLICIT_BOUND_COLOUR,
    REFERENCE_GREY,
    UNIFORM_GREY,
    VACUOUS_ALPHA,
    algorithm_label,
    bound_style,
    family_label,
    ordered_algorithms,
    parameter_names,
    preset_style,
    reference_algorithm,
)
from regretlab.analysis.verdicts import BEYOND_HYPOTHESES, NO_BOUND, VERDICTS
from regretlab.registry.theory import BOUNDS


@dataclass
class Drawn:
    """What a figure's panels show, gathered while drawing them, for its legend and footer.

    Attributes:
        bound_styles: ``(direction, explicit)`` of every bound line visible in some panel.
        explicit_bounds: names of the explicit bounds visible in some panel.
        visible_bounds: ``(algorithm, bound_name)`` of every bound visible in some panel (the others are
            clipped off every axis, where only the "off the axis" note is drawn).
        vacuous: some visible bound point is vacuous (drawn faded).
        implied: some visible bound point is implied by the learner's construction (drawn faded).
        trivial: some panel draws the trivial bound.
        uniform: some panel draws uniform play's value (the null learner, ``null_uniform``).
        rejected: some panel has a rate whose fitted slope is rejected over the measured range.
        epoch_ends: some panel draws a restarting learner's points at its epoch ends (the fit's points).
        told_apart: ``(direction, explicit, bound_name, linestyle) → legend label`` of every visible bound
            drawn in a panel next to another of its kind on the same algorithm (the legend lists each, else
            they would share their kind's one entry).
    """

    bound_styles: set[tuple[str, bool]] = field(default_factory=set)
    explicit_bounds: set[str] = field(default_factory=set)
    visible_bounds: set[tuple[str, str]] = field(default_factory=set)
    vacuous: bool = False
    implied: bool = False
    trivial: bool = False
    uniform: bool = False
    rejected: bool = False
    epoch_ends: bool = False
    told_apart: dict[tuple[str, bool, str, object], str] = field(default_factory=dict)


def verdict_counts(summary: pd.DataFrame) -> dict[str, int]:
    """How many (point, bound) rows of the table have each verdict, in :data:`VERDICTS` order (zeros kept);
    rows drawn without a bound are no (point, bound) pair and are not counted."""
    verdicts = summary["verdict"]
    if "identical_to" in summary:  # a twin family's points are counted once, with the family it duplicates
        verdicts = verdicts.where(summary["identical_to"].fillna("") == "", "identical")
    counts = verdicts[summary["verdict"] != NO_BOUND].value_counts()
    extra = sorted(set(counts.index) - set(VERDICTS))
    return {verdict: int(counts.get(verdict, 0)) for verdict in (*VERDICTS, *extra)}


def _constants_text(bound_name: str) -> str:
    """Whose constants an explicit bound carries and at which of the run's parameters it is evaluated."""
    spec = BOUNDS[bound_name]
    at = f", at each run's {parameter_names(spec.params)}" if spec.params else ""
    return f"explicit, {spec.constants}{at}"


def footer_lines(summary: pd.DataFrame, drawn: Drawn) -> list[str]:
    """The footer: verdict counts, then one line per bound (or baseline without one) with its kind, whose
    constants it carries, and whether every panel clips it off the axis."""
    counts = verdict_counts(summary)
    lines = [
        "verdicts over (point, bound) pairs: "
        + " · ".join(f"{name} {n}" for name, n in counts.items())
        + "   (holds: upper CI ≤ explicit bound; vacuous: bound above the trivial one; implied: bound above"
        " the ceiling the learner's construction puts on the metric — both drawn faded; identical: points of"
        " runs bit-identical to another family's, counted there)"
    ]
    for row in (
        summary.drop_duplicates(["algorithm", "bound_name"]).sort_values(["metric", "algorithm"]).itertuples()
    ):
        if row.verdict == NO_BOUND:
            lines.append(f"{algorithm_label(row.algorithm)}: drawn without a bound (a baseline, no theorem)")
            continue
        if row.direction == "reference":
            kind = "reference line, no verdict"
        elif row.bound_explicit:
            kind = _constants_text(row.bound_name) + (" (lower bound)" if row.direction == "lower" else "")
        else:
            kind = "rate, unit constant (the paper gives only Õ/O)"
        if (row.algorithm, row.bound_name) not in drawn.visible_bounds:
            kind += "; off the axis in every panel"
        lines.append(f"{algorithm_label(row.algorithm)} ({row.metric}): {row.bound_label} — {kind}")
    if (summary["ci_low"] <= 0).any():
        lines.append("panels whose values reach 0 or below use a symmetric-log y-axis (linear within ±1)")
    return lines


def _twin_pairs(summary: pd.DataFrame) -> list[tuple[str, str]]:
    """``(family, the family it duplicates)`` for every curve family whose runs are another's."""
    if "identical_to" not in summary:
        return []
    families = summary.drop_duplicates(["algorithm", "constants"])
    return [
        (f"{row.algorithm}/{row.constants}", row.identical_to)
        for row in families.itertuples()
        if isinstance(row.identical_to, str) and row.identical_to
    ]


def legend_handles(summary: pd.DataFrame, drawn: Drawn, colours: dict[str, str]) -> list:
    """The figure's legend: algorithms, presets, the reference, and the bound styles and markers some panel
    shows (``drawn``)."""
    handles = [
        Line2D([], [], color=colours[a], linewidth=2, label=algorithm_label(a))
        for a in ordered_algorithms(summary)
    ]
    for constants in sorted(summary["constants"].unique(), key=lambda c: (c != "paper", c)):
        style = preset_style(constants)
        handles.append(
            Line2D(
                [],
                [],
                color="black",
                linestyle=style["linestyle"],
                marker=style["marker"],
                markerfacecolor="black" if style["fill"] else "none",
                label=style["label"],
            )
        )
    handles.append(Patch(color="black", alpha=0.18, label="95% bootstrap band over seeds"))
    reference = reference_algorithm(summary)
    if reference is not None:
        handles.append(
            Line2D([], [], color=REFERENCE_GREY, label=f"{algorithm_label(reference)} (reference)")
        )
    kinds = summary[summary["verdict"] != NO_BOUND].drop_duplicates(["direction", "bound_explicit"])
    for row in kinds.itertuples():
        if (row.direction, bool(row.bound_explicit)) not in drawn.bound_styles:
            continue
        if row.direction == "reference":
            label = "reference line (no verdict)"
        elif row.bound_explicit:
            sources = {BOUNDS[name].constants for name in drawn.explicit_bounds}
            paper = sources == {"paper's constants"}  # any other source is a sentence: the footer has it
            label = "explicit bound, " + ("paper's constants" if paper else "constants: see footer")
            label += " (lower)" if row.direction == "lower" else ""
        else:
            label = "rate, unit constant" + (" (lower)" if row.direction == "lower" else "")
        style = bound_style(row.direction, bool(row.bound_explicit))
        handles.append(Line2D([], [], label=label, **style))
        for (direction, explicit, _, linestyle), told in drawn.told_apart.items():  # this kind's, told apart
            if (direction, explicit) == (row.direction, bool(row.bound_explicit)):
                handles.append(Line2D([], [], label=told, **(style | {"linestyle": linestyle})))
    if drawn.vacuous:
        handles.append(
            Line2D([], [], color=EXPLICIT_BOUND_COLOUR, alpha=VACUOUS_ALPHA, label="vacuous bound")
        )
    if drawn.trivial:
        handles.append(Line2D([], [], color="black", linestyle=":", label="trivial bound"))
    if drawn.uniform:
        handles.append(
            Line2D([], [], color=UNIFORM_GREY, linestyle="--", linewidth=0.8, label="uniform play (expected)")
        )
    if drawn.implied:
        handles.append(
            Line2D(
                [], [], color=EXPLICIT_BOUND_COLOUR, alpha=VACUOUS_ALPHA, label="bound implied by the learner"
            )
        )
    for family, twin in _twin_pairs(summary):
        name, twin_name = family.split("/")[0], twin.split("/")[0]
        if name == twin_name:  # e.g. "Algorithm 5 (Theorem 14): paper = tuned (identical runs)"
            presets = f"{family_label(twin, name)} = {family_label(family, name)}"
            label = f"{algorithm_label(name)}: {presets}"
        else:
            label = f"{family_label(twin)} = {family_label(family)}"
        label += " (identical runs)"
        handles.append(Line2D([], [], linestyle="", label=textwrap.fill(label, 44)))
    if drawn.epoch_ends:
        handles.append(
            Line2D([], [], linestyle="", marker="D", markerfacecolor="none", color="black",
                   label=textwrap.fill("mean at the epoch ends every seed reached (the slope's points)", 44))
        )  # fmt: skip
    if (~summary["hypotheses_hold"].astype(bool)).any():
        handles.append(
            Line2D(
                [],
                [],
                linestyle="",
                marker="o",
                color="lightgrey",
                markeredgecolor="dimgrey",
                label="theorem's hypotheses fail here",
            )
        )
    if (summary["verdict"] == "violated").any():
        handles.append(Line2D([], [], linestyle="", marker="x", color="red", label="violated"))
    if (summary["verdict"] == BEYOND_HYPOTHESES).any():
        handles.append(
            Line2D(
                [], [], linestyle="", marker="x", color="dimgrey",
                label="bound crossed where the hypotheses fail (no counterexample)",
            )
        )  # fmt: skip
    return handles
