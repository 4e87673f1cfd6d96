"""The layout and fixed styles of :mod:`regretlab.analysis.figures`: panels, labels, colours, line styles.

Which panels a figure has (:func:`panels`: one column per algorithm, else per instance) and how every name and
line looks in them: an algorithm's label and colour from its registry entry, a metric's axis label from its
kind, one line style per constants preset (:data:`PRESET_STYLES`), one per bound kind (:func:`bound_style`).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from regretlab.registry.kinds import KINDS, algorithm_spec, metric_kind
from regretlab.specs.algorithm_spec import PALETTE

#: Line style, marker and marker fill per constants preset, the same in every figure.
PRESET_STYLES = {
    "paper": {"linestyle": "-", "marker": "o", "fill": True, "label": "paper's constants"},
    "tuned": {"linestyle": "--", "marker": "s", "fill": False, "label": "tuned (large constants → 1)"},
}
REFERENCE_GREY = "#9a9a9a"
#: Uniform play, the null learner (thin, dashed: a value no learner should need to reach).
UNIFORM_GREY = "#7a7a7a"
EXPLICIT_BOUND_COLOUR = "#1a1a1a"
RATE_COLOUR = "#8c8c8c"
VACUOUS_ALPHA = 0.3
#: Line styles telling apart the bounds of one kind (direction, explicit or not) that one algorithm draws in
#: one panel, in bound-name order; the first keeps its kind's style. Dotted is the trivial bound's and dashed
#: uniform play's (a corrected rate drawn dashed and grey read as uniform play), so neither is among them.
TOLD_APART_LINESTYLES = ((0, (6, 1.5, 1, 1.5)), (0, (1, 1.5, 4, 1.5)), (0, (5, 1.5, 1, 1.5, 1, 1.5)))
#: How footers write the learner parameters bounds are evaluated at (any other by its name).
PARAMETER_SYMBOLS = {"eta": "η", "eta_bar": "η̄", "delta": "δ", "gamma": "γ", "eta_start": "η₁"}
#: The swept variables that are not metrics, by name: their axis label given the kind's time unit.
TIME_AXES = {
    "T": lambda unit: f"horizon T ({unit}s)",
    "t": lambda unit: f"{unit} t within the longest runs ({unit}s)",
}


def exponent_text(value: float) -> str:
    """A rate's exponent as the papers write it: a fraction with a denominator up to 12 where it is one
    (``2/3``, ``1/4``, ``1``), else three significant digits."""
    fraction = Fraction(value).limit_denominator(12)
    if math.isclose(float(fraction), value, rel_tol=0, abs_tol=1e-9):
        return str(fraction)
    return f"{value:.3g}"


def tick_text(value: float) -> str:
    """A tick label with at most three significant digits: ``2950`` for 2949, ``316000`` for 316228,
    ``0.0316``, ``1.5e+07`` beyond a million."""
    if value == 0:
        return "0"
    rounded = float(f"{value:.3g}")
    if 1 <= abs(rounded) < 1e6:
        return f"{rounded:.0f}" if rounded == int(rounded) else f"{rounded:g}"
    return f"{rounded:.3g}"


def algorithm_label(algorithm: str) -> str:
    """How figures name the algorithm: its registry entry's ``label`` (the name itself if none has it)."""
    spec = algorithm_spec(algorithm)
    return spec.label if spec else algorithm


def figure_colours(algorithms: list[str]) -> dict[str, str]:
    """Each algorithm's colour in one figure: its registry entry's ``colour``, the same in every figure,
    except where an earlier algorithm of the figure has it already (or it has none): then the first palette
    colour the figure does not use yet, so that no two curves of a figure share a colour."""
    colours: dict[str, str] = {}
    for algorithm in algorithms:
        spec = algorithm_spec(algorithm)
        wanted = spec.colour if spec else None
        if wanted is None or wanted in colours.values():
            free = [c for c in PALETTE.values() if c not in colours.values()] or list(PALETTE.values())
            wanted = free[0]
        colours[algorithm] = wanted
    return colours


def axis_label(name: str, summary: pd.DataFrame, width: int = 1000) -> str:
    """The axis label of a swept variable or metric, in words with its unit
    (:data:`regretlab.registry.kinds.KINDS`), wrapped at ``width`` characters; the kind is the one whose
    metrics the figure draws."""
    kind = KINDS.get(metric_kind(summary["metric"].iloc[0]) or "")
    if name in TIME_AXES:
        return TIME_AXES[name](kind.time_unit if kind else "step")
    metric = kind.metrics.get(name) if kind else None
    return "\n".join(textwrap.wrap(metric.axis_label, width)) if metric else name


def parameter_names(names: tuple[str, ...]) -> str:
    """Learner parameters as the paper writes them (``eta`` → η), for footers."""
    return ", ".join(PARAMETER_SYMBOLS.get(name, name) for name in names)


def preset_style(constants: str) -> dict:
    """Line style, marker and fill of a constants preset (unknown presets: dotted, triangles)."""
    return PRESET_STYLES.get(
        constants, {"linestyle": ":", "marker": "^", "fill": False, "label": f"{constants} constants"}
    )


def reference_algorithm(summary: pd.DataFrame) -> str | None:
    """The learner repeated in grey in every panel of a multi-algorithm figure — the one of highest
    ``reference`` rank above 0 in its registry entry — or None."""
    algorithms = sorted(set(summary["algorithm"]))
    if len(algorithms) < 2:
        return None
    ranks = {name: spec.reference for name in algorithms if (spec := algorithm_spec(name)) and spec.reference}
    return max(ranks, key=ranks.get) if ranks else None


def ordered_algorithms(summary: pd.DataFrame) -> list[str]:
    """The reference first, then the registries' order (kind by kind), then any other algorithm by name."""
    present = set(summary["algorithm"])
    reference = reference_algorithm(summary)
    registered = [name for kind in KINDS.values() for name in kind.algorithms]
    known = [a for a in registered if a in present and a != reference]
    return ([reference] if reference else []) + known + sorted(present - set(known) - {reference})


def is_sweep_in_horizon(x_name: str) -> bool:
    """True when a curve runs across horizons (x = T or t); else across instances at a fixed horizon."""
    return x_name in ("T", "t")


@dataclass(frozen=True)
class Panel:
    """One axes of a figure: where it sits and which rows of the aggregate table it draws."""

    row: int
    col: int
    metric: str
    algorithm: str | None  # None: every algorithm (single-algorithm figures)
    group: object  # an instance (x = T, t) or a horizon (x = a metric)
    title: str


def panels(summary: pd.DataFrame) -> list[Panel]:
    """The figure's panels (see the module docstring for the layout)."""
    x_name = summary["x_name"].iloc[0]
    metrics = sorted(summary["metric"].unique())
    if is_sweep_in_horizon(x_name):
        labels = summary.drop_duplicates("instance").set_index("instance")["instance_label"]
        groups = [(name, f"{name} ({labels[name]})") for name in sorted(labels.index)]
    else:
        groups = [(horizon, f"T = {horizon}") for horizon in sorted(summary["T"].unique())]
    algorithms = ordered_algorithms(summary)
    if len(algorithms) > 1:
        rows = [(metric, group) for metric in metrics for group in groups]
        # A cell whose algorithm does not record the row's metric (or ran no point there) is left blank.
        group_key = "instance" if is_sweep_in_horizon(x_name) else "T"
        recorded = set(zip(summary["metric"], summary[group_key], summary["algorithm"], strict=True))
        return [
            Panel(r, c, metric, algorithm, key, f"{algorithm_label(algorithm)}\n{title}")
            for r, (metric, (key, title)) in enumerate(rows)
            for c, algorithm in enumerate(algorithms)
            if (metric, key, algorithm) in recorded
        ]
    n_cols = len(groups) if len(metrics) > 1 or len(groups) <= 3 else math.ceil(len(groups) / 2)
    result = []
    for m, metric in enumerate(metrics):
        for g, (key, title) in enumerate(groups):
            row, col = (m, g) if len(metrics) > 1 else divmod(g, n_cols)
            result.append(Panel(row, col, metric, None, key, title))
    return result


def bound_style(direction: str, explicit: bool) -> dict:
    if direction == "reference":
        return {"color": "#444444", "linestyle": "-.", "linewidth": 1.0}
    if explicit:
        return {"color": EXPLICIT_BOUND_COLOUR, "linestyle": "-", "linewidth": 1.8}
    return {"color": RATE_COLOUR, "linestyle": "-", "linewidth": 0.9}


def family_label(family: str, algorithm: str | None = None) -> str:
    """``tuned`` for a preset of ``algorithm``, else e.g. ``algorithm2_weak (paper)`` (short: titles and the
    legend are narrow)."""
    name, constants = family.split("/")
    return constants if name == algorithm else f"{name} ({constants})"
