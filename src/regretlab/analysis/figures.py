"""Figures: each bounded metric's mean (± 95% CI over seeds) against the theorems' bounds, log–log axes.

A figure is drawn from a regime's aggregate table and exponent fits alone; nothing is computed here.

Layout (small multiples, one figure per regime). With several algorithms, there is one column per algorithm
and one row per (metric, instance) — per (metric, horizon) when the x-axis is a metric such as L*; the
regime's *reference* learner (Exp3.G, else Theorem 2's minimax learner: the first of
:data:`REFERENCE_ALGORITHMS` the regime runs) is repeated in thin grey in every other panel. With a single
algorithm (e.g. a constrained-MDP regime), the columns are the instances and the rows the metrics.

Styles are fixed across every figure: one colour per algorithm (:data:`ALGORITHM_COLOURS`, a hashed fallback
for algorithms it does not list), one line style per constants preset (:data:`PRESET_STYLES`: ``paper`` solid
with filled markers, ``tuned`` dashed with open ones). Bounds: explicit bounds (the paper's constants) are
solid dark lines, unit-constant rates thin grey lines labelled "rate, unit constant", reference lines (no
verdict, e.g. λ*) thin dash-dotted; a bound whose verdict is ``vacuous`` (past the metric's trivial bound,
drawn dotted in the same panel) or ``implied`` (at or above the ceiling the learner's construction puts on
the metric) is faded. A curve family whose runs are bit-identical to another's (``identical_to``) is drawn
once, and the panel title and legend say so. Points where the theorem's hypotheses fail are greyed, points
whose verdict is ``violated`` are crossed in red. The legend sits outside the axes; the footer lists each
bound with its kind and counts the verdicts.
"""

from __future__ import annotations

import hashlib
import math
import os
import textwrap
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

from regretlab.analysis.verdicts import VERDICTS  # noqa: E402
from regretlab.io import atomic_path  # noqa: E402
from regretlab.theory import BOUNDS  # noqa: E402

#: How an abscissa is labelled; any other recorded metric name is shown as itself.
AXIS_LABELS = {
    "T": "horizon T",
    "L_star": "L*, the best arm's total loss",
    "t": "episode t (within the longest runs)",
    "L_best_S": "L_{i*_S}, total loss of the best arm of S",
    "L_D": "L_D, mean total loss of the nodes of D (weakly dominating set)",
}
METRIC_LABELS = {
    "pseudo_regret": "pseudo-regret Σ⟨p_t,ℓ_t⟩ − L*",
    "regret": "regret R_T (Def. 2)",
    "violation": "violation V_T (Def. 3)",
    "reward_ratio": "reward ratio Σ r_t^T q_t / (T·OPT)",
    "lambda_l1_max": "max_τ ‖λ_τ‖₁",
    "q_error_l1": "Σ_τ ‖q_τ − q̂_τ‖₁",
    "primal_regret": "primal regret R^P_T",
}
ALGORITHM_LABELS = {
    "exp3g": "Exp3.G",
    "theorem2": "Theorem 2 (OMD, eq. (5))",
    "theorem3": "Theorem 3 (OMD, eq. (6), oracle L*)",
    "algorithm1": "Algorithm 1 (Theorem 4, oracle L*)",
    "algorithm4": "Algorithm 4 (Theorem 13)",
    "algorithm5": "Algorithm 5 (Theorem 14)",
    "pdgd_ops": "PDGD-OPS",
    "uc_o_gdps": "UC-O-GDPS",
    "exp3g_weak": "Exp3.G on a weakly dominating set",
    "algorithm2_bipartite": "Algorithm 2 (Theorem 7, oracle L_{i*_S})",
    "algorithm2_weak": "Algorithm 2 (Theorem 8, γ = 1/3, oracle L_D)",
    "algorithm2_weak_half": "Algorithm 2 (Theorem 8, γ = 1/2, oracle L_D)",
    "algorithm6": "Algorithm 6 (Theorem 17)",
    "algorithm7": "Algorithm 7 (Theorem 18, γ = 1/3)",
    "algorithm7_half": "Algorithm 7 (Theorem 18, γ = 1/2)",
    "exploration_leader": "Leader + exploration 1/t on D (not in the paper)",
}
#: One colour per algorithm, the same in every figure (seaborn's colour-blind palette).
_CB = sns.color_palette("colorblind", 10).as_hex()
_DARK = sns.color_palette("dark", 10).as_hex()
ALGORITHM_COLOURS = {
    "exp3g": _CB[0],
    "theorem2": _CB[1],
    "theorem3": _CB[2],
    "algorithm1": _CB[3],
    "algorithm4": _CB[4],
    "algorithm5": _CB[5],
    "pdgd_ops": _CB[6],
    "uc_o_gdps": _CB[9],
    "exp3g_weak": _CB[7],
    "algorithm2_bipartite": _CB[8],
    "algorithm2_weak": _DARK[2],
    "algorithm2_weak_half": _DARK[3],
    "algorithm6": _DARK[4],
    "algorithm7": _DARK[5],
    "algorithm7_half": _DARK[6],
    "exploration_leader": _DARK[7],
}
#: Colours for algorithms not listed above, picked by a hash of the name (stable across figures and runs).
_FALLBACK_COLOURS = _DARK
#: Line style, marker and marker fill per constants preset, the same in every figure.
PRESET_STYLES = {
    "paper": {"linestyle": "-", "marker": "o", "fill": True, "label": "paper's constants"},
    "tuned": {"linestyle": "--", "marker": "s", "fill": False, "label": "tuned (large constants → 1)"},
}
#: Learners drawn in grey in every panel of a multi-algorithm figure: the first one the regime runs.
REFERENCE_ALGORITHMS = ("exp3g", "exp3g_weak", "theorem2")
REFERENCE_GREY = "#9a9a9a"
EXPLICIT_BOUND_COLOUR = "#1a1a1a"
RATE_COLOUR = "#8c8c8c"
VACUOUS_ALPHA = 0.3
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


def algorithm_colour(algorithm: str) -> str:
    """The algorithm's colour in every figure."""
    if algorithm in ALGORITHM_COLOURS:
        return ALGORITHM_COLOURS[algorithm]
    digest = int(hashlib.sha256(algorithm.encode()).hexdigest(), 16)
    return _FALLBACK_COLOURS[digest % len(_FALLBACK_COLOURS)]


def preset_style(constants: str) -> dict:
    """Line style, marker and fill of a constants preset (unknown presets: dotted, triangles)."""
    return PRESET_STYLES.get(
        constants, {"linestyle": ":", "marker": "^", "fill": False, "label": f"{constants} constants"}
    )


def reference_algorithm(summary: pd.DataFrame) -> str | None:
    """The learner repeated in grey in every panel of a multi-algorithm figure, or None."""
    algorithms = set(summary["algorithm"])
    if len(algorithms) < 2:
        return None
    return next((name for name in REFERENCE_ALGORITHMS if name in algorithms), None)


def _ordered_algorithms(summary: pd.DataFrame) -> list[str]:
    """The reference first, then the registry's order, then any other algorithm by name."""
    present = set(summary["algorithm"])
    reference = reference_algorithm(summary)
    known = [a for a in ALGORITHM_COLOURS if a in present and a != reference]
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
            Panel(r, c, metric, algorithm, key, f"{ALGORITHM_LABELS.get(algorithm, algorithm)}\n{title}")
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
    return text + f", theory {r['theory_exponent']:g}"


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


def _draw_bound(ax, rows: pd.DataFrame) -> bool:
    """One bound along the curve's points, faded where its verdict is ``vacuous`` or ``implied``; True if any
    point is vacuous (the trivial bound is then drawn)."""
    rows = rows.sort_values("x")
    style = _bound_style(rows["direction"].iloc[0], bool(rows["bound_explicit"].iloc[0]))
    vacuous = (rows["verdict"] == "vacuous").to_numpy()
    faded = rows["verdict"].isin(["vacuous", "implied"]).to_numpy()
    x, y = rows["x"].to_numpy(), rows["bound_value"].to_numpy()
    ax.plot(x, y, alpha=VACUOUS_ALPHA if faded.any() else 1.0, zorder=1, **style)
    if faded.any() and not faded.all():
        informative = np.where(~faded, y, np.nan)  # full strength only between informative points
        ax.plot(x, informative, zorder=1, **style)
    return bool(vacuous.any())


def _twin(rows: pd.DataFrame) -> str:
    """The ``algorithm/constants`` family whose runs these rows' family's are bit-identical to, or ""."""
    twin = rows["identical_to"].iloc[0] if "identical_to" in rows and len(rows) else ""
    return twin if isinstance(twin, str) else ""


def _family_label(family: str, algorithm: str | None = None) -> str:
    """``tuned`` for a preset of ``algorithm``, else e.g. ``algorithm2_weak (paper)`` (short: titles and the
    legend are narrow)."""
    name, constants = family.split("/")
    return constants if name == algorithm else f"{name} ({constants})"


def _draw_panel(ax, summary: pd.DataFrame, exponents: pd.DataFrame, panel: Panel, reference: str | None):
    """Everything in one axes; returns the slope lines of its curves (for the title)."""
    slopes = []
    if reference is not None and panel.algorithm not in (None, reference):
        for constants, curve in _select(summary, panel, reference).groupby("constants"):
            _draw_reference(ax, _one_bound(curve), preset_style(constants))
    data = _select(summary, panel, panel.algorithm)
    any_vacuous = False
    for (algorithm, constants), curve in data.groupby(["algorithm", "constants"]):
        one = _one_bound(curve)
        prefix = "" if panel.algorithm else f"{ALGORITHM_LABELS.get(algorithm, algorithm)}, "
        twin = _twin(one)
        if twin:  # bit-identical runs to another family's: drawn once, there
            slopes.append(
                f"{prefix}{constants}: identical runs to {_family_label(twin, algorithm)}, drawn there"
            )
            continue
        _draw_curve(ax, one, algorithm_colour(algorithm), preset_style(constants))
        text = _slope_text(exponents, one)
        twins = [
            c
            for (a, c), rows in data.groupby(["algorithm", "constants"])
            if _twin(rows) == f"{algorithm}/{constants}"
        ]
        if text:
            slopes.append(prefix + text + "".join(f" (= {c}, identical runs)" for c in twins))
    drawn = []
    for (_, _), bound_rows in data.groupby(["algorithm", "bound_name"]):
        # Bounds are drawn once, at the paper preset's points when it ran (a tuned run is not covered).
        presets = list(bound_rows["constants"].unique())
        chosen = "paper" if "paper" in presets else sorted(presets)[0]
        drawn.append(bound_rows[bound_rows["constants"] == chosen])
        any_vacuous |= _draw_bound(ax, drawn[-1])
    violated = data[data["verdict"] == "violated"]  # of every preset, not only the one whose bound is drawn
    if not violated.empty:
        ax.scatter(violated["x"], violated["mean"], marker="x", s=60, color="red", zorder=5)
    trivial = data.dropna(subset=["trivial_bound"])
    upper = trivial[trivial["direction"] == "upper"]  # a lower bound's trivial bound is a floor
    top = 3 * upper["trivial_bound"].max() if not upper.empty and upper["trivial_bound"].max() > 0 else np.inf
    beyond = pd.concat(drawn) if drawn else data.iloc[:0]
    beyond = beyond[(beyond["direction"] == "upper") & (beyond["bound_value"] > top)]
    if (any_vacuous or not beyond.empty) and not trivial.empty:
        line = trivial.drop_duplicates("x").sort_values("x")
        ax.plot(line["x"], line["trivial_bound"], color="black", linestyle=":", linewidth=0.9, zorder=1)
    _axes_scales(ax, summary["x_name"].iloc[0], _select(summary, panel, None))
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
    return slopes


def _axes_scales(ax, x_name: str, data: pd.DataFrame) -> None:
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
    ax.set_xlabel(AXIS_LABELS.get(x_name, x_name), fontsize=8)


def verdict_counts(summary: pd.DataFrame) -> dict[str, int]:
    """How many (point, bound) rows of the table have each verdict, in :data:`VERDICTS` order (zeros kept)."""
    verdicts = summary["verdict"]
    if "identical_to" in summary:  # a twin family's points are counted once, with the family it duplicates
        verdicts = verdicts.where(summary["identical_to"].fillna("") == "", "identical")
    counts = verdicts.value_counts()
    extra = sorted(set(counts.index) - set(VERDICTS))
    return {verdict: int(counts.get(verdict, 0)) for verdict in (*VERDICTS, *extra)}


def footer_lines(summary: pd.DataFrame) -> list[str]:
    """The footer: verdict counts, then one line per drawn bound with its kind."""
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
        if row.direction == "reference":
            kind = "reference line, no verdict"
        elif row.bound_explicit:
            kind = f"explicit, {BOUNDS[row.bound_name].constants}" + (
                " (lower bound)" if row.direction == "lower" else ""
            )
        else:
            kind = "rate, unit constant (the paper gives only Õ/O)"
        lines.append(
            f"{ALGORITHM_LABELS.get(row.algorithm, row.algorithm)} ({row.metric}): {row.bound_label} — {kind}"
        )
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


def legend_handles(summary: pd.DataFrame) -> list:
    """The figure's legend: algorithms, presets, the reference, bound styles and markers present."""
    handles = [
        Line2D([], [], color=algorithm_colour(a), linewidth=2, label=ALGORITHM_LABELS.get(a, a))
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
            Line2D(
                [],
                [],
                color=REFERENCE_GREY,
                label=f"{ALGORITHM_LABELS.get(reference, reference)} (reference)",
            )
        )
    kinds = summary.drop_duplicates(["direction", "bound_explicit"])
    explicit_names = summary.loc[summary["bound_explicit"].astype(bool), "bound_name"].unique()
    for row in kinds.itertuples():
        if row.direction == "reference":
            label = "reference line (no verdict)"
        elif row.bound_explicit:
            sources = {BOUNDS[name].constants for name in explicit_names}
            label = "explicit bound, " + (sources.pop() if len(sources) == 1 else "constants: see footer")
            label += " (lower)" if row.direction == "lower" else ""
        else:
            label = "rate, unit constant" + (" (lower)" if row.direction == "lower" else "")
        handles.append(Line2D([], [], label=label, **_bound_style(row.direction, bool(row.bound_explicit))))
    if (summary["verdict"] == "vacuous").any():
        handles.append(
            Line2D([], [], color=EXPLICIT_BOUND_COLOUR, alpha=VACUOUS_ALPHA, label="vacuous bound")
        )
        handles.append(Line2D([], [], color="black", linestyle=":", label="trivial bound"))
    if (summary["verdict"] == "implied").any():
        handles.append(
            Line2D(
                [], [], color=EXPLICIT_BOUND_COLOUR, alpha=VACUOUS_ALPHA, label="bound implied by the learner"
            )
        )
    for family, twin in _twin_pairs(summary):
        name, twin_name = family.split("/")[0], twin.split("/")[0]
        if name == twin_name:  # e.g. "Algorithm 5 (Theorem 14): paper = tuned (identical runs)"
            presets = f"{_family_label(twin, name)} = {_family_label(family, name)}"
            label = f"{ALGORITHM_LABELS.get(name, name)}: {presets}"
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
    legend_width = 2.6
    width = PANEL_WIDTH * n_cols + legend_width
    wrap = int(width * 17)  # characters per line of 7-pt text across the figure
    footer = "\n".join(textwrap.fill(line, wrap, subsequent_indent="    ") for line in footer_lines(summary))
    footer_height = 0.15 * (footer.count("\n") + 1) + 0.15
    title_height = 0.55
    fig, axes = plt.subplots(
        n_rows,
        n_cols,
        squeeze=False,
        figsize=(width, PANEL_HEIGHT * n_rows + footer_height + title_height),
    )
    reference = reference_algorithm(summary)
    used = set()
    for panel in layout:
        ax = axes[panel.row, panel.col]
        used.add((panel.row, panel.col))
        slopes = _draw_panel(ax, summary, exponents, panel, reference)
        ax.set_title("\n".join([panel.title, *slopes]), fontsize=7)
        ax.set_ylabel(f"{METRIC_LABELS.get(panel.metric, panel.metric)}\n(mean, 95% CI)", fontsize=8)
        ax.tick_params(labelsize=7)
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) not in used:
                axes[r, c].set_axis_off()
    first = summary.iloc[0]
    title = (
        f"{first['regime']} — paper {first['paper']}, {first['theorem']} "
        f"(n = {summary['n_seeds'].min()} seeds per point)"
    )
    fig.suptitle(textwrap.fill(title, int(width * 11)), fontsize=10)
    fig.legend(
        handles=legend_handles(summary),
        loc="center right",
        bbox_to_anchor=(1.0, 0.5),
        fontsize=7,
        frameon=False,
    )
    fig.text(0.01, 0.005, footer, fontsize=7, va="bottom", ha="left")
    height = fig.get_figheight()
    fig.tight_layout(rect=(0, footer_height / height, 1 - legend_width / width, 1 - 0.1 / height))
    return fig


def plot_regime(
    summary: pd.DataFrame, exponents: pd.DataFrame, png_path: str | os.PathLike, pdf_path: str | os.PathLike
) -> None:
    """Draw a regime's figure and write it atomically as PNG and PDF."""
    fig = draw_figure(summary, exponents)
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=_PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)
