"""Figures: each bounded metric's mean (± 95% CI over seeds) against the theorems' bounds, log–log axes.

A figure is drawn from a regime's aggregate table and exponent fits alone; nothing is computed here.

Layout (small multiples, one figure per regime). With several algorithms, there is one column per algorithm
and one row per (metric, instance) — per (metric, horizon) when the x-axis is a metric such as L*; the
regime's *reference* learner (Exp3.G, else Theorem 2's minimax learner: the algorithm of highest
``reference`` rank in its registry entry) is repeated in thin grey in every other panel. With a single
algorithm (e.g. a constrained-MDP regime), the columns are the instances and the rows the metrics.

Every name comes from a registry: an algorithm's label and colour from its entry
(:class:`regretlab.algorithm_spec.AlgorithmSpec`; colours from a colour-blind-safe palette readable on white,
:data:`regretlab.algorithm_spec.PALETTE`), a metric's axis label — words and unit — from its kind
(:data:`regretlab.kinds.KINDS`), a bound's formula and constants from :data:`regretlab.theory.BOUNDS`.
Styles are fixed across every figure: one line style per constants preset (:data:`PRESET_STYLES`: ``paper``
solid with filled markers, ``tuned`` dashed with open ones). Bounds: explicit bounds are solid dark lines,
unit-constant rates thin grey lines labelled "rate, unit constant", reference lines (no verdict, e.g. λ*) thin
dash-dotted; a bound whose verdict is ``vacuous`` (past the metric's trivial bound, drawn dotted in the same
panel) or ``implied`` (at or above the ceiling the learner's construction puts on the metric) is faded (an
informative point between faded ones gets a full-strength tick); a baseline without a bound is drawn alone. A
curve family whose runs are bit-identical to another's (``identical_to``) is drawn once, and the panel title
and legend say so. Points where the theorem's hypotheses fail are greyed, points whose verdict is ``violated``
are crossed in red (``beyond hypotheses``, a bound crossed at a greyed point: in grey). The legend sits
outside the axes and lists only what some panel shows (a bound clipped off every axis gets none); the footer
lists each bound with its kind and whose constants it carries, and counts the verdicts.
"""

from __future__ import annotations

import math
import os
import textwrap
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

from regretlab.algorithm_spec import PALETTE  # noqa: E402
from regretlab.analysis.exponents import REJECTED  # noqa: E402
from regretlab.analysis.verdicts import BEYOND_HYPOTHESES, NO_BOUND, VERDICTS  # noqa: E402
from regretlab.io import atomic_path  # noqa: E402
from regretlab.kinds import KINDS, algorithm_spec, metric_kind  # noqa: E402
from regretlab.theory import BOUNDS  # noqa: E402

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
#: one panel, in bound-name order; the first keeps its kind's style. Dotted is the trivial bound's.
TOLD_APART_LINESTYLES = ("--", (0, (6, 1.5, 1, 1.5)), (0, (1, 1.5, 4, 1.5)))
#: How footers write the learner parameters bounds are evaluated at (any other by its name).
PARAMETER_SYMBOLS = {"eta": "η", "eta_bar": "η̄", "delta": "δ", "gamma": "γ", "eta_start": "η₁"}
#: The swept variables that are not metrics, by name: their axis label given the kind's time unit.
TIME_AXES = {
    "T": lambda unit: f"horizon T ({unit}s)",
    "t": lambda unit: f"{unit} t within the longest runs ({unit}s)",
}
#: Fixed metadata so that re-drawing the same table gives the same bytes.
_PNG_METADATA = {"Software": None}
_PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}
PANEL_WIDTH, PANEL_HEIGHT = 4.2, 3.3
#: Columns of the aggregate table a figure reads (see :mod:`regretlab.analysis.aggregate`).
REQUIRED_COLUMNS = (
    "regime", "paper", "theorem", "instance", "instance_label", "algorithm", "constants", "T", "n_seeds",
    "x_name", "x", "metric", "mean", "ci_low", "ci_high", "bound_name", "bound_label", "bound_value",
    "bound_explicit", "hypotheses_hold", "verdict", "trivial_bound", "direction",
)  # fmt: skip


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
    """The axis label of a swept variable or metric, in words with its unit (:data:`regretlab.kinds.KINDS`),
    wrapped at ``width`` characters; the kind is the one whose metrics the figure draws."""
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


def _ordered_algorithms(summary: pd.DataFrame) -> list[str]:
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
    algorithms = _ordered_algorithms(summary)
    if len(algorithms) > 1:
        rows = [(metric, group) for metric in metrics for group in groups]
        return [
            Panel(r, c, metric, algorithm, key, f"{algorithm_label(algorithm)}\n{title}")
            for r, (metric, (key, title)) in enumerate(rows)
            for c, algorithm in enumerate(algorithms)
        ]
    n_cols = len(groups) if len(metrics) > 1 or len(groups) <= 3 else math.ceil(len(groups) / 2)
    result = []
    for m, metric in enumerate(metrics):
        for g, (key, title) in enumerate(groups):
            row, col = (m, g) if len(metrics) > 1 else divmod(g, n_cols)
            result.append(Panel(row, col, metric, None, key, title))
    return result


def _select(summary: pd.DataFrame, panel: Panel, algorithm: str | None) -> pd.DataFrame:
    group_key = "instance" if is_sweep_in_horizon(summary["x_name"].iloc[0]) else "T"
    data = summary[(summary["metric"] == panel.metric) & (summary[group_key] == panel.group)]
    return data if algorithm is None else data[data["algorithm"] == algorithm]


def _one_bound(curve: pd.DataFrame) -> pd.DataFrame:
    """The rows of a curve once (the table repeats the empirical values for every bound drawn)."""
    return curve[curve["bound_name"] == curve["bound_name"].iloc[0]].sort_values("x")


def _slope_text(exponents: pd.DataFrame, curve: pd.DataFrame) -> str:
    """``paper: slope 0.48 [0.41, 0.55], bound 0.36, theory 0.5`` for one curve (``bound``: the local slope of
    the drawn bound over the same points, where the table has it; the explicit bound's first), ``paper: no
    slope (reason)`` where the fit declined, or '' if the curve was not fitted."""
    first = curve.iloc[0]
    rows = exponents[
        (exponents["algorithm"] == first["algorithm"])
        & (exponents["constants"] == first["constants"])
        & (exponents["metric"] == first["metric"])
    ]
    if is_sweep_in_horizon(first["x_name"]):
        rows = rows[rows["instance"] == first["instance"]]
    if rows.empty:
        return ""
    if "bound_explicit" in rows:
        rows = rows.sort_values("bound_explicit", ascending=False, kind="stable")
    r = rows.iloc[0]
    if pd.isna(r["exponent"]):
        reason = str(r.get("reason", "") or "").split(";")[0]
        return f"{first['constants']}: no slope ({reason})" if reason else ""
    text = f"{first['constants']}: slope {r['exponent']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
    if pd.notna(r.get("bound_slope", np.nan)):
        text += f", bound {r['bound_slope']:.2f}"
    if pd.notna(r["theory_exponent"]):  # NaN: no bound, or none with an exponent in this x
        text += f", theory {r['theory_exponent']:g}"
    return text + (" — REJECTED over the measured range" if r.get("rate_verdict") == REJECTED else "")


def _draw_uniform(ax, data: pd.DataFrame) -> bool:
    """Uniform play's value (``null_uniform``) along the panel's points, a thin grey dashed line per
    instance in a sweep in the horizon (one across the instances otherwise); True when something is drawn."""
    if "null_uniform" not in data:
        return False
    points = data.dropna(subset=["null_uniform"]).drop_duplicates(["instance", "T", "t"])
    if points.empty:
        return False
    by = "instance" if is_sweep_in_horizon(points["x_name"].iloc[0]) else "x_name"
    for _, line in points.groupby(by):
        line = line.sort_values("x")
        ax.plot(line["x"], line["null_uniform"], color=UNIFORM_GREY, linestyle="--", linewidth=0.8, zorder=1)
    return True


def _draw_curve(ax, curve: pd.DataFrame, colour: str, style: dict) -> None:
    """Mean with its 95% band and greyed markers where the hypotheses fail. Open markers are see-through
    and larger than filled ones, so a preset whose curve coincides with another's stays visible."""
    face = colour if style["fill"] else "none"
    size = 4.5 if style["fill"] else 6.5
    ax.plot(
        curve["x"],
        curve["mean"],
        color=colour,
        linestyle=style["linestyle"],
        marker=style["marker"],
        markerfacecolor=face,
        markersize=size,
        linewidth=1.6,
        zorder=3,
    )
    ax.fill_between(curve["x"], curve["ci_low"], curve["ci_high"], color=colour, alpha=0.18, linewidth=0)
    failing = curve[~curve["hypotheses_hold"].astype(bool)]
    if not failing.empty:
        ax.plot(
            failing["x"],
            failing["mean"],
            linestyle="",
            marker=style["marker"],
            markersize=size + 1,
            markerfacecolor="lightgrey" if style["fill"] else "none",
            markeredgecolor="dimgrey",
            zorder=4,
        )


def _draw_reference(ax, curve: pd.DataFrame, style: dict) -> None:
    ax.plot(
        curve["x"],
        curve["mean"],
        color=REFERENCE_GREY,
        linestyle=style["linestyle"],
        marker=style["marker"],
        markerfacecolor=REFERENCE_GREY if style["fill"] else "none",
        markersize=3,
        linewidth=1.0,
        zorder=2,
    )


def _bound_style(direction: str, explicit: bool) -> dict:
    if direction == "reference":
        return {"color": "#444444", "linestyle": "-.", "linewidth": 1.0}
    if explicit:
        return {"color": EXPLICIT_BOUND_COLOUR, "linestyle": "-", "linewidth": 1.8}
    return {"color": RATE_COLOUR, "linestyle": "-", "linewidth": 0.9}


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
    told_apart: dict[tuple[str, bool, str, object], str] = field(default_factory=dict)


def _draw_bound(ax, rows: pd.DataFrame, linestyle=None) -> None:
    """One bound along the curve's points (sorted by x), faded where its verdict is ``vacuous`` or
    ``implied``; an informative point between faded ones (no informative segment to draw) gets a tick.
    ``linestyle`` replaces its kind's (:data:`TOLD_APART_LINESTYLES`)."""
    style = _bound_style(rows["direction"].iloc[0], bool(rows["bound_explicit"].iloc[0]))
    style |= {"linestyle": linestyle} if linestyle is not None else {}
    faded = rows["verdict"].isin(["vacuous", "implied"]).to_numpy()
    x, y = rows["x"].to_numpy(), rows["bound_value"].to_numpy()
    ax.plot(x, y, alpha=VACUOUS_ALPHA if faded.any() else 1.0, zorder=1, **style)
    if faded.any() and not faded.all():
        informative = np.where(~faded, y, np.nan)  # full strength only between informative points
        ax.plot(x, informative, zorder=1, **style)
        neighbour = np.zeros_like(faded)
        neighbour[1:] |= ~faded[:-1]
        neighbour[:-1] |= ~faded[1:]
        alone = ~faded & ~neighbour
        ax.plot(x[alone], y[alone], linestyle="none", marker="_", markersize=14,
                markeredgewidth=style["linewidth"], color=style["color"], zorder=1)  # fmt: skip


def _twin(rows: pd.DataFrame) -> str:
    """The ``algorithm/constants`` family whose runs these rows' family's are bit-identical to, or ""."""
    twin = rows["identical_to"].iloc[0] if "identical_to" in rows and len(rows) else ""
    return twin if isinstance(twin, str) else ""


def _family_label(family: str, algorithm: str | None = None) -> str:
    """``tuned`` for a preset of ``algorithm``, else e.g. ``algorithm2_weak (paper)`` (short: titles and the
    legend are narrow)."""
    name, constants = family.split("/")
    return constants if name == algorithm else f"{name} ({constants})"


def _told_apart(bounds: list[pd.DataFrame]) -> list:
    """The line style of each of a panel's bounds where one algorithm draws others of its kind (the first its
    kind's own, the next ones :data:`TOLD_APART_LINESTYLES`), else None."""
    kinds = [
        (r["algorithm"].iloc[0], r["direction"].iloc[0], bool(r["bound_explicit"].iloc[0])) for r in bounds
    ]
    styles = []
    for i, (_, direction, explicit) in enumerate(kinds):
        nth = kinds[:i].count(kinds[i])
        if kinds.count(kinds[i]) == 1:
            styles.append(None)
        elif nth == 0:
            styles.append(_bound_style(direction, explicit)["linestyle"])
        else:
            styles.append(TOLD_APART_LINESTYLES[(nth - 1) % len(TOLD_APART_LINESTYLES)])
    return styles


def _record_visible(ax, bounds: list[pd.DataFrame], drawn: Drawn, linestyles: list) -> None:
    """Add to ``drawn`` the bounds with a point inside the axes' final y-range (``linestyles``: those of
    :func:`_told_apart`)."""
    low, high = ax.get_ylim()
    for rows, linestyle in zip(bounds, linestyles, strict=True):
        y = rows["bound_value"].to_numpy(dtype=float)
        shown = np.isfinite(y) & (y >= low) & (y <= high)
        if not shown.any():
            continue
        first = rows.iloc[0]
        drawn.bound_styles.add((first["direction"], bool(first["bound_explicit"])))
        drawn.visible_bounds.add((first["algorithm"], first["bound_name"]))
        if first["bound_explicit"]:
            drawn.explicit_bounds.add(first["bound_name"])
        if linestyle is not None:
            label = textwrap.fill(f"{first['bound_name']}: {first['bound_label']}", 44)
            kind = (first["direction"], bool(first["bound_explicit"]))
            drawn.told_apart[(*kind, first["bound_name"], linestyle)] = label
        drawn.vacuous |= bool((rows["verdict"].to_numpy()[shown] == "vacuous").any())
        drawn.implied |= bool((rows["verdict"].to_numpy()[shown] == "implied").any())


def _draw_panel(
    ax,
    summary: pd.DataFrame,
    exponents: pd.DataFrame,
    panel: Panel,
    reference: str | None,
    colours: dict[str, str],
    drawn: Drawn,
) -> list[str]:
    """Everything in one axes; returns the slope lines of its curves (for the title) and adds what it shows
    to ``drawn``."""
    slopes = []
    if reference is not None and panel.algorithm not in (None, reference):
        for constants, curve in _select(summary, panel, reference).groupby("constants"):
            _draw_reference(ax, _one_bound(curve), preset_style(constants))
    data = _select(summary, panel, panel.algorithm)
    for (algorithm, constants), curve in data.groupby(["algorithm", "constants"]):
        one = _one_bound(curve)
        prefix = "" if panel.algorithm else f"{algorithm_label(algorithm)}, "
        twin = _twin(one)
        if twin:  # bit-identical runs to another family's: drawn once, there
            slopes.append(
                f"{prefix}{constants}: identical runs to {_family_label(twin, algorithm)}, drawn there"
            )
            continue
        _draw_curve(ax, one, colours[algorithm], preset_style(constants))
        text = _slope_text(exponents, one)
        twins = [
            c
            for (a, c), rows in data.groupby(["algorithm", "constants"])
            if _twin(rows) == f"{algorithm}/{constants}"
        ]
        if text:
            slopes.append(prefix + text + "".join(f" (= {c}, identical runs)" for c in twins))
    bounds = []
    for (_, _), bound_rows in data[data["verdict"] != NO_BOUND].groupby(["algorithm", "bound_name"]):
        # Bounds are drawn once, at the paper preset's points when it ran (a tuned run is not covered).
        presets = list(bound_rows["constants"].unique())
        chosen = "paper" if "paper" in presets else sorted(presets)[0]
        bounds.append(bound_rows[bound_rows["constants"] == chosen].sort_values("x"))
    linestyles = _told_apart(bounds)
    for rows, linestyle in zip(bounds, linestyles, strict=True):
        _draw_bound(ax, rows, linestyle)
    any_vacuous = any((rows["verdict"] == "vacuous").any() for rows in bounds)
    violated = data[data["verdict"] == "violated"]  # of every preset, not only the one whose bound is drawn
    if not violated.empty:
        ax.scatter(violated["x"], violated["mean"], marker="x", s=60, color="red", zorder=5)
    beyond_hypotheses = data[data["verdict"] == BEYOND_HYPOTHESES]  # greyed points: no counterexample
    if not beyond_hypotheses.empty:
        ax.scatter(
            beyond_hypotheses["x"], beyond_hypotheses["mean"], marker="x", s=40, color="dimgrey", zorder=5
        )
    trivial = data.dropna(subset=["trivial_bound"])
    upper = trivial[trivial["direction"] == "upper"]  # a lower bound's trivial bound is a floor
    top = 3 * upper["trivial_bound"].max() if not upper.empty and upper["trivial_bound"].max() > 0 else np.inf
    beyond = pd.concat(bounds) if bounds else data.iloc[:0]
    beyond = beyond[(beyond["direction"] == "upper") & (beyond["bound_value"] > top)]
    if (any_vacuous or not beyond.empty) and not trivial.empty:
        line = trivial.drop_duplicates("x").sort_values("x")
        ax.plot(line["x"], line["trivial_bound"], color="black", linestyle=":", linewidth=0.9, zorder=1)
        drawn.trivial = True
    drawn.uniform |= _draw_uniform(ax, data)
    drawn.rejected |= any("REJECTED" in text for text in slopes)
    _axes_scales(ax, _select(summary, panel, None), axis_label(summary["x_name"].iloc[0], summary, 60))
    if (
        not beyond.empty and ax.get_yscale() == "log"
    ):  # a bound far past the trivial one would flatten the data
        ax.set_ylim(top=top)
        ax.text(
            0.02,
            0.98,
            f"off the axis (> 3× trivial bound): up to {beyond['bound_value'].max():.1e}",
            transform=ax.transAxes,
            fontsize=6,
            va="top",
            color=RATE_COLOUR,
        )
    _record_visible(ax, bounds, drawn, linestyles)
    return slopes


def _axes_scales(ax, data: pd.DataFrame, xlabel: str) -> None:
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels of short ranges overlap
    xs = sorted(data["x"].unique())
    if len(xs) > 1 and xs[-1] / xs[0] < 100:  # under two decades: label the data's own abscissae
        ax.set_xticks(xs, [f"{x:.0f}" if x >= 10 else f"{x:.3g}" for x in xs])
    if (data["ci_low"] <= 0).any():  # e.g. a violation V_T < 0: constraints met with slack
        ax.set_yscale("symlog", linthresh=1.0)
        ax.axhline(0.0, color="black", linewidth=0.6)
    else:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel, fontsize=8)


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
        for a in _ordered_algorithms(summary)
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
        style = _bound_style(row.direction, bool(row.bound_explicit))
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
            presets = f"{_family_label(twin, name)} = {_family_label(family, name)}"
            label = f"{algorithm_label(name)}: {presets}"
        else:
            label = f"{_family_label(twin)} = {_family_label(family)}"
        label += " (identical runs)"
        handles.append(Line2D([], [], linestyle="", label=textwrap.fill(label, 44)))
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


def draw_figure(summary: pd.DataFrame, exponents: pd.DataFrame):
    """A regime's figure (a matplotlib Figure; the caller closes it). KeyError if the table lacks a column."""
    missing = [column for column in REQUIRED_COLUMNS if column not in summary.columns]
    if missing:
        raise KeyError(f"the aggregate table lacks the column(s) {missing} a figure needs")
    sns.set_theme(style="whitegrid", context="paper")
    layout = panels(summary)
    n_rows = 1 + max(p.row for p in layout)
    n_cols = 1 + max(p.col for p in layout)
    # Wide enough for the longest algorithm label (7-pt text, ~0.055 in per character, after its handle).
    labels = [algorithm_label(a) for a in _ordered_algorithms(summary)]
    legend_width = max(2.6, 0.5 + 0.055 * (max(map(len, labels)) + len(" (reference)")))
    width = PANEL_WIDTH * n_cols + legend_width
    wrap = int(width * 17)  # characters per line of 7-pt text across the figure
    title_height = 0.55
    fig, axes = plt.subplots(
        n_rows, n_cols, squeeze=False, figsize=(width, PANEL_HEIGHT * n_rows + title_height)
    )
    reference = reference_algorithm(summary)
    colours = figure_colours(_ordered_algorithms(summary))
    drawn = Drawn()
    used = set()
    for panel in layout:
        ax = axes[panel.row, panel.col]
        used.add((panel.row, panel.col))
        slopes = _draw_panel(ax, summary, exponents, panel, reference, colours, drawn)
        rejected = any("REJECTED" in text for text in slopes)
        ax.set_title("\n".join([panel.title, *slopes]), fontsize=7, color="red" if rejected else "black")
        ax.set_ylabel(f"{axis_label(panel.metric, summary, 45)}\nmean, 95% CI", fontsize=8)
        ax.tick_params(labelsize=7)
    # The footer says what the panels show (a bound off every axis), so it is written once they are drawn.
    footer = "\n".join(
        textwrap.fill(line, wrap, subsequent_indent="    ") for line in footer_lines(summary, drawn)
    )
    footer_height = 0.15 * (footer.count("\n") + 1) + 0.15
    fig.set_figheight(PANEL_HEIGHT * n_rows + footer_height + title_height)
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) not in used:
                axes[r, c].set_axis_off()
    first = summary.iloc[0]
    title = (
        f"{first['regime']} — paper {first['paper']}, {first['theorem']} "
        f"(n = {summary['n_seeds'].min()} seeds per point)"
    )
    title = textwrap.fill(title, int(width * 11))
    fig.suptitle(title, fontsize=10)
    fig.legend(
        handles=legend_handles(summary, drawn, colours),
        loc="center right",
        bbox_to_anchor=(1.0, 0.5),
        fontsize=7,
        frameon=False,
    )
    fig.text(0.01, 0.005, footer, fontsize=7, va="bottom", ha="left")
    height = fig.get_figheight()
    title_lines = title.count("\n") + 1  # room for every line of the title above the panels' own titles
    fig.tight_layout(
        rect=(0, footer_height / height, 1 - legend_width / width, 1 - (0.2 * title_lines - 0.1) / height)
    )
    return fig


def plot_regime(
    summary: pd.DataFrame, exponents: pd.DataFrame, png_path: str | os.PathLike, pdf_path: str | os.PathLike
) -> None:
    """Draw a regime's figure and write it atomically as PNG and PDF."""
    save_figure(draw_figure(summary, exponents), png_path, pdf_path)


def save_figure(fig, png_path: str | os.PathLike, pdf_path: str | os.PathLike) -> None:
    """Write ``fig`` atomically as PNG (150 dpi) and PDF, without timestamps (the same bytes every run), and
    close it."""
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=_PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)
