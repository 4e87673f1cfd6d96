"""The empirical Table 1: where each small-loss learner of paper 001 actually beats the minimax learner of its
Table 1 column (Exp3.G for §3's, Exp3.G-weak for §4's: ``BoundSpec.reference``), measured on the same
instances, horizons and loss sequences (the same seeds).

One row per point (regime, instance, T) of a learner whose bound names a reference, at the run's horizon
(``t = T``): the learner's mean regret and 95% interval, the reference's, their ratio, and the outcome —
``beats`` (the learner's interval wholly below the reference's), ``loses`` (wholly above) or ``ties``. The
summary lists, per learner and constants preset, the smallest measured T and L* at which it beats the
reference, or that it never does at the measured points. ``figures/crossover.csv``, ``.md`` and one figure
(the ratio against L*, one panel per column of Table 1).
"""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from regretlab.analysis.tables import to_markdown  # noqa: E402
from regretlab.core.figure_files import freeze_layout, save_figure  # noqa: E402
from regretlab.core.io import write_text  # noqa: E402
from regretlab.registry.theory import BOUNDS  # noqa: E402

COLUMNS = [
    "regime", "instance", "T", "L_star", "L_star_over_T", "algorithm", "constants", "metric", "mean",
    "ci_low", "ci_high", "reference", "reference_mean", "reference_ci_low", "reference_ci_high", "ratio",
    "outcome",
]  # fmt: skip
#: Table 1's columns (paper 001, lines 24–30), by reference learner.
SECTIONS = {
    "exp3g": "§3, strongly observable (against Exp3.G)",
    "exp3g_weak": "§4, weakly observable (against Exp3.G-weak)",
}


def _outcome(low: float, high: float, ref_low: float, ref_high: float) -> str:
    if high < ref_low:
        return "beats"
    if low > ref_high:
        return "loses"
    return "ties"


def crossover_table(summaries: list[pd.DataFrame]) -> pd.DataFrame:
    """The crossover rows (module docstring), from every regime's aggregate table."""
    rows = []
    for summary in summaries:
        finals = summary[(summary["t"] == summary["T"]) & (summary["bound_name"] != "")]
        if "identical_to" in finals:
            finals = finals[finals["identical_to"].fillna("") == ""]
        by_point = {
            (r["algorithm"], r["instance"], r["T"], r["metric"]): r
            for r in summary[summary["t"] == summary["T"]].to_dict("records")
        }
        for row in finals.drop_duplicates(["instance", "algorithm", "constants", "T", "metric"]).to_dict(
            "records"
        ):
            reference = BOUNDS[row["bound_name"]].reference
            ref = by_point.get((reference, row["instance"], row["T"], row["metric"])) if reference else None
            if ref is None or row["algorithm"] == reference:
                continue
            L_star = row.get("L_star_mean", np.nan)
            rows.append(
                {
                    "regime": row["regime"], "instance": row["instance"], "T": int(row["T"]),
                    "L_star": L_star, "L_star_over_T": L_star / row["T"], "algorithm": row["algorithm"],
                    "constants": row["constants"], "metric": row["metric"], "mean": row["mean"],
                    "ci_low": row["ci_low"], "ci_high": row["ci_high"], "reference": reference,
                    "reference_mean": ref["mean"], "reference_ci_low": ref["ci_low"],
                    "reference_ci_high": ref["ci_high"],
                    "ratio": row["mean"] / ref["mean"] if ref["mean"] > 0 else np.nan,
                    "outcome": _outcome(row["ci_low"], row["ci_high"], ref["ci_low"], ref["ci_high"]),
                }
            )  # fmt: skip
    table = pd.DataFrame(rows, columns=COLUMNS)
    return table.sort_values(["reference", "algorithm", "constants", "regime", "T", "L_star"], kind="stable")


def summary_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Per learner and preset: points measured, points where it beats the reference, and the smallest T and
    L* among those (NaN: never at the measured points)."""
    rows = []
    for (reference, algorithm, constants), group in table.groupby(["reference", "algorithm", "constants"]):
        beats = group[group["outcome"] == "beats"]
        rows.append(
            {
                "reference": reference, "algorithm": algorithm, "constants": constants, "points": len(group),
                "beats": len(beats), "loses": int((group["outcome"] == "loses").sum()),
                "smallest_T_beating": beats["T"].min() if len(beats) else np.nan,
                "smallest_L_star_beating": beats["L_star"].min() if len(beats) else np.nan,
            }
        )  # fmt: skip
    return pd.DataFrame(rows)


def _interval(mean: float, low: float, high: float) -> str:
    return f"{mean:.4g} [{low:.4g}, {high:.4g}]"


def markdown(table: pd.DataFrame) -> str:
    """The crossover summary and every point, as Markdown."""
    summary = summary_rows(table)
    lines = [
        "# Crossover: where the small-loss learners beat the minimax learner of their Table 1 column\n",
        "Measured on the same instances, horizons and loss sequences (the same seeds) as the reference "
        "learner: `beats` where the learner's 95% interval of the regret lies wholly below the reference's, "
        "`loses` wholly above, `ties` otherwise. Every column: figures/crossover.csv.\n",
    ]
    if not summary.empty:
        shown = summary.assign(
            smallest_T_beating=[f"{v:.0f}" if np.isfinite(v) else "never (at the measured points)"
                                for v in summary["smallest_T_beating"]],
            smallest_L_star_beating=[f"{v:.4g}" if np.isfinite(v) else ""
                                     for v in summary["smallest_L_star_beating"]],
        )  # fmt: skip
        lines += ["## Per learner\n", to_markdown(shown), ""]
    points = pd.DataFrame(
        {
            "regime / instance": table["regime"] + " / " + table["instance"],
            "T": table["T"],
            "L*": [f"{v:.4g}" for v in table["L_star"]],
            "learner": table["algorithm"] + " (" + table["constants"] + ")",
            "regret": [
                _interval(*v) for v in zip(table["mean"], table["ci_low"], table["ci_high"], strict=True)
            ],
            "reference": [
                f"{r}: {_interval(m, lo, hi)}" for r, m, lo, hi in zip(
                    table["reference"], table["reference_mean"], table["reference_ci_low"],
                    table["reference_ci_high"], strict=True)
            ],
            "ratio": [f"{v:.3g}" for v in table["ratio"]],
            "outcome": table["outcome"],
        }
    )  # fmt: skip
    lines += ["## Every point\n", to_markdown(points)]
    return "\n".join(lines) + "\n"


def draw(table: pd.DataFrame):
    """The ratio of each learner's mean regret to its reference's against L* (log–log), one panel per
    Table 1 column; filled markers where the learner beats the reference, open where it ties or loses."""
    references = [r for r in SECTIONS if r in set(table["reference"])] or list(SECTIONS)[:1]
    fig, axes = plt.subplots(
        1, len(references), figsize=(5.2 * len(references), 5.0), squeeze=False, layout="constrained"
    )
    for ax, reference in zip(axes[0], references, strict=True):
        part = table[table["reference"] == reference]
        for (algorithm, constants), group in part.groupby(["algorithm", "constants"]):
            beats = group["outcome"] == "beats"
            marker = "o" if constants == "paper" else "s"
            line = ax.scatter(group.loc[beats, "L_star"], group.loc[beats, "ratio"], marker=marker, s=22,
                              label=f"{algorithm} ({constants})")  # fmt: skip
            ax.scatter(group.loc[~beats, "L_star"], group.loc[~beats, "ratio"], marker=marker, s=22,
                       facecolors="none", edgecolors=line.get_facecolor())  # fmt: skip
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("L*, the best arm's total loss (cumulative loss)", fontsize=8)
        ax.set_ylabel("mean regret / the reference learner's", fontsize=8)
        ax.set_title(
            f"{SECTIONS[reference]}\nfilled: beats it (95% intervals apart); open: ties or loses", fontsize=8
        )
        ax.tick_params(labelsize=7)
        if len(part):  # below its panel: inside, it would hide points
            ax.legend(fontsize=6, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=3)
    fig.suptitle("Paper 001, Table 1 measured: small-loss learners against the minimax learner", fontsize=10)
    return freeze_layout(fig)


def write_crossover(
    summaries: list[pd.DataFrame],
    csv_path: str | os.PathLike,
    md_path: str | os.PathLike,
    png_path: str | os.PathLike,
    pdf_path: str | os.PathLike,
) -> pd.DataFrame:
    """Write ``figures/crossover.csv``, ``.md`` and the figure (PNG, PDF) atomically; return the table."""
    table = crossover_table(summaries)
    write_text(csv_path, table.to_csv(index=False, float_format="%.6g"))
    write_text(md_path, markdown(table))
    save_figure(draw(table), png_path, pdf_path)
    return table
