"""Figures: empirical regret (mean ± 95% CI over seeds) against the theorem's bound, log–log axes.

A figure is drawn from a regime's aggregate table and exponent fits alone; nothing is computed here.
"""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from regretlab.io import atomic_path  # noqa: E402

AXIS_LABELS = {"T": "horizon T", "L_star": "best arm's total loss L*"}
#: Fixed metadata so that re-drawing the same table gives the same bytes.
_PNG_METADATA = {"Software": None}
_PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}


def _panels(summary: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """One panel per instance when the x-axis is T, one per horizon when it is L*."""
    if summary["x_name"].iloc[0] == "T":
        return [
            (f"{name}: {data['instance_label'].iloc[0]}", data) for name, data in summary.groupby("instance")
        ]
    return [(f"T = {horizon}", data) for horizon, data in summary.groupby("T")]


def _slope_text(exponents: pd.DataFrame, algorithm: str, constants: str, panel_data: pd.DataFrame) -> str:
    """``slope 0.48 [0.41, 0.55] (theory 0.5)`` for the curve, or an empty string if it was not fitted."""
    rows = exponents[(exponents["algorithm"] == algorithm) & (exponents["constants"] == constants)]
    if "instance" in rows and panel_data["x_name"].iloc[0] == "T":
        rows = rows[rows["instance"] == panel_data["instance"].iloc[0]]
    if rows.empty or pd.isna(rows["exponent"].iloc[0]):
        return ""
    r = rows.iloc[0]
    interval = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
    return f", slope {r['exponent']:.2f} {interval} (theory {r['theory_exponent']:g})"


def _bound_footer(summary: pd.DataFrame) -> str:
    """One line per drawn bound: which algorithm it belongs to, its formula, and whether its constant is the
    paper's or a unit constant on an Õ(·) rate."""
    lines = []
    bounds = summary.drop_duplicates(["algorithm", "bound_name"]).sort_values("algorithm")
    for row in bounds.itertuples():
        kind = "paper's constants" if row.bound_explicit else "rate with unit constant (paper gives only Õ/O)"
        lines.append(f"dashed, {row.algorithm}: {row.bound_label} — {kind}")
    hidden = int((summary["pseudo_regret_mean"] <= 0).sum())
    if hidden:
        lines.append(f"{hidden} point(s) with non-positive mean regret cannot be shown on log axes")
    return "\n".join(lines)


def _draw_curve(ax, curve: pd.DataFrame, color, label: str) -> None:
    """Mean with its 95% band, grey markers where the hypotheses fail, and the bound dashed."""
    ax.plot(curve["x"], curve["pseudo_regret_mean"], marker="o", color=color, label=label)
    ax.fill_between(
        curve["x"],
        curve["pseudo_regret_ci_low"],
        curve["pseudo_regret_ci_high"],
        color=color,
        alpha=0.25,
        linewidth=0,
    )
    failing = curve[~curve["hypotheses_hold"]]
    if not failing.empty:
        ax.scatter(
            failing["x"],
            failing["pseudo_regret_mean"],
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
    panels = _panels(summary)
    curves = sorted(summary.groupby(["algorithm", "constants"]).groups)
    palette = dict(zip(curves, sns.color_palette("colorblind", len(curves)), strict=True))
    n_cols = min(3, len(panels))
    n_rows = -(-len(panels) // n_cols)
    footer = _bound_footer(summary)
    footer_height = 0.22 * (footer.count("\n") + 1)
    fig, axes = plt.subplots(
        n_rows, n_cols, figsize=(5.4 * n_cols, 4.3 * n_rows + footer_height), squeeze=False
    )
    for ax, (title, data) in zip(axes.flat, panels, strict=False):
        for (algorithm, constants), curve in data.groupby(["algorithm", "constants"], sort=True):
            label = f"{algorithm} ({constants}){_slope_text(exponents, algorithm, constants, data)}"
            _draw_curve(ax, curve.sort_values("x"), palette[(algorithm, constants)], label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(AXIS_LABELS[data["x_name"].iloc[0]])
        ax.set_ylabel("pseudo-regret Σ⟨p_t,ℓ_t⟩ − L*  (mean, 95% CI)")
        ax.set_title(title, fontsize=9)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles, strict=True))
        ax.legend(unique.values(), unique.keys(), fontsize=7, loc="best")
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    first = summary.iloc[0]
    fig.suptitle(
        f"{first['regime']} — paper {first['paper']}, {first['theorem']} "
        f"(n = {summary['n_seeds'].min()} seeds per point)",
        fontsize=10,
    )
    fig.text(0.01, 0.005, footer, fontsize=7, va="bottom", ha="left")
    fig.tight_layout(rect=(0, footer_height / fig.get_figheight(), 1, 1))
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=_PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)
