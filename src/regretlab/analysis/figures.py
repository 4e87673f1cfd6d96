"""Figures: each bounded metric's mean (± 95% CI over seeds) against the theorem's bound, log–log axes.

A figure is drawn from a regime's aggregate table and exponent fits alone; nothing is computed here. Rows of
panels are the bounded metrics (one for a bandit regime; regret and violation for a constrained MDP), columns
are the instances (sweep in T) or the horizons (sweep in L*).
"""

from __future__ import annotations

import os
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

from regretlab.io import atomic_path  # noqa: E402

AXIS_LABELS = {
    "T": "horizon T",
    "L_star": "best arm's total loss L*",
    "t": "episode t (within the longest runs)",
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
#: Fixed metadata so that re-drawing the same table gives the same bytes.
_PNG_METADATA = {"Software": None}
_PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}


def _columns(summary: pd.DataFrame) -> list[tuple[object, str]]:
    """Panel columns: the instances when the x-axis is T, the horizons when it is L*."""
    if summary["x_name"].iloc[0] in ("T", "t"):
        labels = summary.drop_duplicates("instance").set_index("instance")["instance_label"]
        return [(name, f"{name}: {labels[name]}") for name in sorted(labels.index)]
    return [(horizon, f"T = {horizon}") for horizon in sorted(summary["T"].unique())]


def _slope_text(exponents: pd.DataFrame, curve: pd.DataFrame) -> str:
    """``, slope 0.48 [0.41, 0.55] (theory 0.5)`` for a curve, or an empty string if it was not fitted."""
    first = curve.iloc[0]
    rows = exponents[
        (exponents["algorithm"] == first["algorithm"])
        & (exponents["constants"] == first["constants"])
        & (exponents["bound_name"] == first["bound_name"])
    ]
    if first["x_name"] in ("T", "t"):
        rows = rows[rows["instance"] == first["instance"]]
    if rows.empty or pd.isna(rows["exponent"].iloc[0]):
        return ""
    r = rows.iloc[0]
    interval = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
    return f", slope {r['exponent']:.2f} {interval} (theory {r['theory_exponent']:g})"


def _bound_footer(summary: pd.DataFrame) -> str:
    """One line per drawn bound: its algorithm and metric, its formula, and whether its constant is the
    paper's or a unit constant on an Õ(·) rate; and how many points a log axis cannot show."""
    lines = []
    for row in (
        summary.drop_duplicates(["algorithm", "bound_name"]).sort_values(["metric", "algorithm"]).itertuples()
    ):
        kind = "paper's constants" if row.bound_explicit else "rate with unit constant (paper gives only Õ/O)"
        lines.append(f"dashed, {row.algorithm} ({row.metric}): {row.bound_label} — {kind}")
    if (summary["ci_low"] <= 0).any():
        lines.append("panels whose values reach 0 or below use a symmetric-log y-axis (linear within ±1)")
    return "\n".join(lines)


def _draw_curve(ax, curve: pd.DataFrame, color, label: str) -> None:
    """Mean with its 95% band, grey markers where the hypotheses fail, and the bound dashed."""
    ax.plot(curve["x"], curve["mean"], marker="o", color=color, label=label)
    ax.fill_between(curve["x"], curve["ci_low"], curve["ci_high"], color=color, alpha=0.25, linewidth=0)
    failing = curve[~curve["hypotheses_hold"]]
    if not failing.empty:
        ax.scatter(
            failing["x"],
            failing["mean"],
            s=60,
            color="lightgrey",
            edgecolor="dimgrey",
            zorder=3,
            label="theorem's hypotheses fail here",
        )
    ax.plot(curve["x"], curve["bound_value"], linestyle="--", color=color)


def plot_regime(
    summary: pd.DataFrame, exponents: pd.DataFrame, png_path: str | os.PathLike, pdf_path: str | os.PathLike
) -> None:
    """Draw a regime's figure and write it atomically as PNG and PDF."""
    sns.set_theme(style="whitegrid", context="paper")
    metrics = sorted(summary["metric"].unique())
    columns = _columns(summary)
    curves = sorted(summary.groupby(["algorithm", "constants"]).groups)
    palette = dict(zip(curves, sns.color_palette("colorblind", len(curves)), strict=True))
    width = max(10.0, 5.4 * len(columns))
    wrap = int(width * 16)  # characters per line of 7-pt text across the figure
    footer = "\n".join(
        textwrap.fill(line, wrap, subsequent_indent="    ") for line in _bound_footer(summary).split("\n")
    )
    footer_height = 0.16 * (footer.count("\n") + 1) + 0.1
    fig, axes = plt.subplots(
        len(metrics),
        len(columns),
        squeeze=False,
        figsize=(width, 4.3 * len(metrics) + footer_height),
    )
    column_key = "instance" if summary["x_name"].iloc[0] in ("T", "t") else "T"
    for row, metric in enumerate(metrics):
        for col, (key, title) in enumerate(columns):
            ax = axes[row, col]
            data = summary[(summary["metric"] == metric) & (summary[column_key] == key)]
            for (algorithm, constants, _), curve in data.groupby(["algorithm", "constants", "bound_name"]):
                label = f"{algorithm} ({constants}){_slope_text(exponents, curve)}"
                _draw_curve(ax, curve.sort_values("x"), palette[(algorithm, constants)], label)
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
            ax.set_xlabel(AXIS_LABELS[summary["x_name"].iloc[0]])
            ax.set_ylabel(f"{METRIC_LABELS.get(metric, metric)}\n(mean, 95% CI)")
            ax.set_title(title, fontsize=9)
            handles, labels = ax.get_legend_handles_labels()
            unique = dict(zip(labels, handles, strict=True))
            ax.legend(unique.values(), unique.keys(), fontsize=7, loc="best")
    first = summary.iloc[0]
    title = (
        f"{first['regime']} — paper {first['paper']}, {first['theorem']} "
        f"(n = {summary['n_seeds'].min()} seeds per point)"
    )
    fig.suptitle(textwrap.fill(title, int(width * 11)), fontsize=10)
    fig.text(0.01, 0.005, footer, fontsize=7, va="bottom", ha="left")
    fig.tight_layout(rect=(0, footer_height / fig.get_figheight(), 1, 1))
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=_PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)
