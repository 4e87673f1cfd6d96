"""Figures: each bounded metric's mean (± 95% CI over seeds) against the theorems' bounds, log–log axes.

A figure is drawn from a regime's aggregate table and exponent fits alone; nothing is computed here.

Layout (small multiples, one figure per regime). With several algorithms, there is one column per algorithm
and one row per (metric, instance) — per (metric, horizon) when the x-axis is a metric such as L*; a cell
whose algorithm does not record the row's metric is blank; the
regime's *reference* learner (Exp3.G, else Theorem 2's minimax learner: the algorithm of highest
``reference`` rank in its registry entry) is repeated in thin grey in every other panel. With a single
algorithm (e.g. a constrained-MDP regime), the columns are the instances and the rows the metrics.

Every name comes from a registry: an algorithm's label and colour from its entry
(:class:`regretlab.specs.algorithm_spec.AlgorithmSpec`; colours from a colour-blind-safe palette readable on
white,
:data:`regretlab.specs.algorithm_spec.PALETTE`), a metric's axis label — words and unit — from its kind
(:data:`regretlab.registry.kinds.KINDS`), a bound's formula and constants from
:data:`regretlab.registry.theory.BOUNDS`. Styles are fixed across every figure: one line style per constants
preset (:data:`~regretlab.analysis.figure_layout.PRESET_STYLES`: ``paper`` solid with filled markers,
``tuned`` dashed with open ones). Bounds: explicit bounds are solid dark lines,
unit-constant rates thin grey lines labelled "rate, unit constant", reference lines (no verdict, e.g. λ*) thin
dash-dotted; a bound whose verdict is ``vacuous`` (past the metric's trivial bound, drawn dotted in the same
panel) or ``implied`` (at or above the ceiling the learner's construction puts on the metric) is faded (an
informative point between faded ones gets a full-strength tick); a baseline without a bound is drawn alone. A
curve family whose runs are bit-identical to another's (``identical_to``) is drawn once, and the panel title
and legend say so. Points where the theorem's hypotheses fail are greyed, points whose verdict is ``violated``
are crossed in red (``beyond hypotheses``, a bound crossed at a greyed point: in grey). The legend sits
outside the axes and lists only what some panel shows (a bound clipped off every axis gets none); the footer
lists each bound with its kind and whose constants it carries, and counts the verdicts.

This module draws and saves; the panels, labels and styles are :mod:`regretlab.analysis.figure_layout`'s, the
legend and footer :mod:`regretlab.analysis.legend`'s.
"""

from __future__ import annotations

import json
import os
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import NullFormatter, ScalarFormatter  # noqa: E402

from regretlab.analysis.exponents import REJECTED, rejection_text  # noqa: E402
from regretlab.analysis.figure_layout import (  # noqa: E402
    RATE_COLOUR,
    REFERENCE_GREY,
    TOLD_APART_LINESTYLES,
    UNIFORM_GREY,
    VACUOUS_ALPHA,
    Panel,
    algorithm_label,
    axis_label,
    bound_style,
    exponent_text,
    family_label,
    figure_colours,
    is_sweep_in_horizon,
    ordered_algorithms,
    panels,
    preset_style,
    reference_algorithm,
    tick_text,
)
from regretlab.analysis.figure_theme import apply_theme  # noqa: E402
from regretlab.analysis.legend import Drawn, footer_lines, legend_handles  # noqa: E402
from regretlab.analysis.verdicts import BEYOND_HYPOTHESES, NO_BOUND  # noqa: E402
from regretlab.core.figure_files import freeze_layout, save_figure  # noqa: E402

PANEL_WIDTH, PANEL_HEIGHT = 4.2, 3.3
#: The linear part of a symlog axis (metrics that cross 0, e.g. a violation met with slack): |y| ≤ 1.
SYMLOG_LINTHRESH = 1.0
#: Characters of a panel title's line (7-pt text over a panel's width), wrapped beyond: a wider title would
#: run into the next panel's.
TITLE_WRAP = int(PANEL_WIDTH * 15)
#: Columns of the aggregate table a figure reads (see :mod:`regretlab.analysis.aggregate`).
REQUIRED_COLUMNS = (
    "regime", "paper", "theorem", "instance", "instance_label", "algorithm", "constants", "T", "n_seeds",
    "x_name", "x", "metric", "mean", "ci_low", "ci_high", "bound_name", "bound_label", "bound_value",
    "bound_explicit", "hypotheses_hold", "verdict", "trivial_bound", "direction",
)  # fmt: skip


def _select(summary: pd.DataFrame, panel: Panel, algorithm: str | None) -> pd.DataFrame:
    group_key = "instance" if is_sweep_in_horizon(summary["x_name"].iloc[0]) else "T"
    data = summary[(summary["metric"] == panel.metric) & (summary[group_key] == panel.group)]
    return data if algorithm is None else data[data["algorithm"] == algorithm]


def _one_bound(curve: pd.DataFrame) -> pd.DataFrame:
    """The rows of a curve once (the table repeats the empirical values for every bound drawn)."""
    return curve[curve["bound_name"] == curve["bound_name"].iloc[0]].sort_values("x")


def _fit_row(exponents: pd.DataFrame, curve: pd.DataFrame) -> pd.Series | None:
    """The exponent fit of one drawn curve (the explicit bound's first), or None if it was not fitted."""
    first = curve.iloc[0]
    rows = exponents[
        (exponents["algorithm"] == first["algorithm"])
        & (exponents["constants"] == first["constants"])
        & (exponents["metric"] == first["metric"])
    ]
    if is_sweep_in_horizon(first["x_name"]):
        rows = rows[rows["instance"] == first["instance"]]
    if rows.empty:
        return None
    if "bound_explicit" in rows:
        rows = rows.sort_values("bound_explicit", ascending=False, kind="stable")
    return rows.iloc[0]


def _slope_text(exponents: pd.DataFrame, curve: pd.DataFrame) -> str:
    """``paper: slope 0.48 [0.41, 0.55], bound 0.36, theory 0.5`` for one curve (``bound``: the local slope of
    the drawn bound over the same points, where the table has it; the explicit bound's first; ``at 3 epoch
    ends`` after the interval for a restarting learner fitted there), ``paper: no slope (reason)`` where the
    fit declined, or '' if the curve was not fitted."""
    first = curve.iloc[0]
    r = _fit_row(exponents, curve)
    if r is None:
        return ""
    if pd.isna(r["exponent"]):
        reason = str(r.get("reason", "") or "").split(";")[0]
        return f"{first['constants']}: no slope ({reason})" if reason else ""
    text = f"{first['constants']}: slope {r['exponent']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
    if r.get("fitted_at") == "epoch ends":  # a restarting learner, fitted where its epochs end
        text += f" at {r['n_points']} epoch ends"
    if pd.notna(r.get("bound_slope", np.nan)):
        text += f", bound {r['bound_slope']:.2f}"
    if pd.notna(r["theory_exponent"]):  # NaN: no bound, or none with an exponent in this x
        text += f", theory {exponent_text(r['theory_exponent'])}"
    if r.get("rate_verdict") != REJECTED:
        return text
    kind = r.get("rejection")
    if isinstance(kind, str) and kind:  # persistent (over how many decades), or pre-asymptotic
        kind = f" ({rejection_text(kind, r.get('rejection_decades', np.nan))})"
    else:
        kind = ""
    return f"{text} — REJECTED over the measured range{kind}"


def _draw_epoch_ends(ax, fit: pd.Series | None, colour: str) -> bool:
    """The points a restarting learner's slope was fitted on (its mean metric at the epoch ends every seed
    reached, :mod:`regretlab.analysis.epoch_ends`), as hollow diamonds; True if drawn."""
    if fit is None or fit.get("fitted_at") != "epoch ends" or not fit.get("epoch_end_points"):
        return False
    points = json.loads(fit["epoch_end_points"])
    ax.plot(points["x"], points["mean"], linestyle="none", marker="D", markersize=5, markerfacecolor="none",
            markeredgecolor=colour, markeredgewidth=1.1, zorder=4)  # fmt: skip
    return True


#: How a line of one point is drawn (a power-scale archive's horizon): a wide tick at its value.
ONE_POINT = {"marker": "_", "markersize": 14, "markeredgewidth": 1.6}


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
        alone = ONE_POINT if len(line) == 1 else {}
        ax.plot(line["x"], line["null_uniform"], color=UNIFORM_GREY, linestyle="--", linewidth=0.8, zorder=1,
                **alone)  # fmt: skip
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


def _draw_bound(ax, rows: pd.DataFrame, linestyle=None) -> None:
    """One bound along the curve's points (sorted by x), faded where its verdict is ``vacuous`` or
    ``implied``; an informative point between faded ones (no informative segment to draw) gets a tick.
    ``linestyle`` replaces its kind's (:data:`TOLD_APART_LINESTYLES`)."""
    style = bound_style(rows["direction"].iloc[0], bool(rows["bound_explicit"].iloc[0]))
    style |= {"linestyle": linestyle} if linestyle is not None else {}
    faded = rows["verdict"].isin(["vacuous", "implied"]).to_numpy()
    x, y = rows["x"].to_numpy(), rows["bound_value"].to_numpy()
    style |= ONE_POINT if len(x) == 1 else {}
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
            styles.append(bound_style(direction, explicit)["linestyle"])
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
                f"{prefix}{constants}: identical runs to {family_label(twin, algorithm)}, drawn there"
            )
            continue
        _draw_curve(ax, one, colours[algorithm], preset_style(constants))
        drawn.epoch_ends |= _draw_epoch_ends(ax, _fit_row(exponents, one), colours[algorithm])
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
        alone = ONE_POINT if len(line) == 1 else {}
        ax.plot(line["x"], line["trivial_bound"], color="black", linestyle=":", linewidth=0.9, zorder=1,
                **alone)  # fmt: skip
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


def _linear_if_small(ax) -> None:
    """A symlog axis whose whole view lies in its linear part (|y| ≤ 1) is drawn linear: symlog's locator puts
    its only ticks at the view's ends there, with six digits."""
    if ax.get_yscale() == "symlog" and max(abs(y) for y in ax.get_ylim()) <= SYMLOG_LINTHRESH:
        ax.set_yscale("linear")
        ax.yaxis.set_major_formatter(ScalarFormatter(useMathText=True))
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-2, 3))


def _axes_scales(ax, data: pd.DataFrame, xlabel: str) -> None:
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels of short ranges overlap
    xs = sorted(data["x"].unique())
    if len(xs) > 1 and xs[-1] / xs[0] < 100:  # under two decades: label the data's own abscissae
        ax.set_xticks(xs, [tick_text(x) for x in xs])
    if (data["ci_low"] <= 0).any():  # e.g. a violation V_T < 0: constraints met with slack
        ax.set_yscale("symlog", linthresh=SYMLOG_LINTHRESH)
        ax.axhline(0.0, color="black", linewidth=0.6)
    else:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel, fontsize=8)


def draw_figure(summary: pd.DataFrame, exponents: pd.DataFrame):
    """A regime's figure (a matplotlib Figure; the caller closes it). KeyError if the table lacks a column."""
    missing = [column for column in REQUIRED_COLUMNS if column not in summary.columns]
    if missing:
        raise KeyError(f"the aggregate table lacks the column(s) {missing} a figure needs")
    apply_theme()
    layout = panels(summary)
    n_rows = 1 + max(p.row for p in layout)
    n_cols = 1 + max(p.col for p in layout)
    # Wide enough for the longest algorithm label (7-pt text, ~0.055 in per character, after its handle).
    labels = [algorithm_label(a) for a in ordered_algorithms(summary)]
    legend_width = max(2.6, 0.5 + 0.055 * (max(map(len, labels)) + len(" (reference)")))
    width = PANEL_WIDTH * n_cols + legend_width
    wrap = int(width * 17)  # characters per line of 7-pt text across the figure
    title_height = 0.55
    # Constrained layout keeps every title, label and the legend (outside, right) clear of the panels.
    size = (width, PANEL_HEIGHT * n_rows + title_height)
    fig, axes = plt.subplots(n_rows, n_cols, squeeze=False, figsize=size, layout="constrained")
    reference = reference_algorithm(summary)
    colours = figure_colours(ordered_algorithms(summary))
    drawn = Drawn()
    used = set()
    for panel in layout:
        ax = axes[panel.row, panel.col]
        used.add((panel.row, panel.col))
        slopes = _draw_panel(ax, summary, exponents, panel, reference, colours, drawn)
        rejected = any("REJECTED" in text for text in slopes)
        lines = [part for line in [*panel.title.split("\n"), *slopes]
                 for part in textwrap.wrap(line, TITLE_WRAP)]
        ax.set_title("\n".join(lines), fontsize=7, color="red" if rejected else "black")
        ax.set_ylabel(f"{axis_label(panel.metric, summary, 45)}\nmean, 95% CI", fontsize=8)
        ax.tick_params(labelsize=7)
        _linear_if_small(ax)
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
    fewest, most = summary["n_seeds"].min(), summary["n_seeds"].max()
    seeds = f"{fewest}" if fewest == most else f"{fewest}–{most}"  # a grid may give its longest runs fewer
    title = f"{first['regime']} — paper {first['paper']}, {first['theorem']} (n = {seeds} seeds per point)"
    title = textwrap.fill(title, int(width * 11))
    fig.suptitle(title, fontsize=10)
    fig.legend(handles=legend_handles(summary, drawn, colours), loc="outside right center", fontsize=7,
               frameon=False)  # fmt: skip
    fig.text(0.01, 0.005, footer, fontsize=7, va="bottom", ha="left")
    footer_share = footer_height / fig.get_figheight()  # the panels, titles and legend above the footer
    fig.get_layout_engine().set(rect=(0, footer_share, 1, 1 - footer_share))
    return freeze_layout(fig)


def plot_regime(
    summary: pd.DataFrame, exponents: pd.DataFrame, png_path: str | os.PathLike, pdf_path: str | os.PathLike
) -> None:
    """Draw a regime's figure and write it atomically as PNG and PDF."""
    save_figure(draw_figure(summary, exponents), png_path, pdf_path)
