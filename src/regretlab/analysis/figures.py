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


def plot_regime(
    summary: pd.DataFrame, exponents: pd.DataFrame, png_path: str | os.PathLike, pdf_path: str | os.PathLike
) -> None:
    """Draw a regime's figure and write it atomically as PNG and PDF."""
    sns.set_theme(style="whitegrid", context="paper")
    panels = _panels(summary)
    curves = sorted(summary.groupby(["algorithm", "constants"]).groups)
    palette = dict(zip(curves, sns.color_palette("colorblind", len(curves)), strict=True))
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.2), squeeze=False)
    for ax, (title, data) in zip(axes[0], panels, strict=True):
        for (algorithm, constants), curve in data.groupby(["algorithm", "constants"], sort=True):
            curve = curve.sort_values("x")
            color = palette[(algorithm, constants)]
            label = f"{algorithm} ({constants}){_slope_text(exponents, algorithm, constants, data)}"
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
            bound_kind = "paper's constants" if curve["bound_explicit"].iloc[0] else "rate"
            ax.plot(
                curve["x"],
                curve["bound_value"],
                linestyle="--",
                color=color,
                label=f"bound ({bound_kind}): {curve['bound_label'].iloc[0]}",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(AXIS_LABELS[data["x_name"].iloc[0]])
        ax.set_ylabel("pseudo-regret Σ⟨p_t,ℓ_t⟩ − L*  (mean, 95% CI)")
        ax.set_title(title, fontsize=9)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles, strict=True))
        ax.legend(unique.values(), unique.keys(), fontsize=7, loc="upper left")
    first = summary.iloc[0]
    fig.suptitle(
        f"{first['regime']} — paper {first['paper']}, {first['theorem']} "
        f"(n = {summary['n_seeds'].min()} seeds per point)",
        fontsize=10,
    )
    fig.tight_layout()
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=_PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)
