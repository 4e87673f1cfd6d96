"""The evidence table in one picture (``figures/evidence.png``, README's first figure): one row per checked
claim, coloured by where it stands; on the left the power margin of an explicit bound (bound / uniform play's
value at its best point, log axis: left of 1 uniform play fails the check), on the right the horizons at
which an untested claim would speak (``T_informative``) and would beat uniform play (``T_power``)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from regretlab.analysis.evidence.search import T_MAX, T_MIN  # noqa: E402
from regretlab.analysis.exponents import REJECTED  # noqa: E402
from regretlab.analysis.tables import records  # noqa: E402
from regretlab.core.figure_files import freeze_layout  # noqa: E402
from regretlab.registry.claims import UNCHECKED  # noqa: E402

#: Where a checked claim stands, in the legend's order, with its colour.
STANDINGS = {
    "tested, strong power": "#1b7837",
    "tested, nominal power": "#e08214",
    "tested (rate, lower bound or construction check)": "#2166ac",
    REJECTED: "#b2182b",
    "not tested": "#8c8c8c",
}


def standing(row: dict) -> str:
    """A checked claim's standing (:data:`STANDINGS`)."""
    if not row["tested"]:
        return "not tested"
    if REJECTED in row["outcome"] and row["power"] in ("uniform", "reference"):
        return REJECTED
    if row["grade"] == "strong":
        return "tested, strong power"
    if row["grade"] == "nominal":
        return "tested, nominal power"
    return "tested (rate, lower bound or construction check)"


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def _horizon_note(value, note: str) -> str:
    """What the right panel writes for a horizon it cannot draw."""
    if _finite(value):
        return ""
    if note.startswith("already") or not note:
        return ""
    return "never" if "never" in note or "implied" in note or "no null" in note else f"> {T_MAX:.0e}"


def draw_evidence(table: pd.DataFrame):
    """The figure of an evidence table (its CSV columns); the caller closes it."""
    rows = records(table[~table["check"].isin(UNCHECKED)])
    n = len(rows)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11, 0.28 * n + 1.6), sharey=True, layout="constrained", width_ratios=(1, 1.3)
    )
    fig.get_layout_engine().set(w_pad=0.25)  # room for the labels' hinting at the saved resolution
    labels = [
        f"{r['name']} ({r['paper']})" + (" — reference" if r["role"] == "reference" else "")
        for r in rows
    ]
    y = list(range(n))[::-1]
    counts = {name: 0 for name in STANDINGS}
    for yi, row in zip(y, rows, strict=True):
        name = standing(row)
        counts[name] += row["role"] == "claim"
        colour = STANDINGS[name]
        if _finite(row["margin"]):
            left.plot([row["margin"]], [yi], "o", color=colour, markersize=6)
        else:
            left.text(0.01, yi, f"no margin ({row['check']})", color=colour, fontsize=7, va="center",
                      transform=left.get_yaxis_transform())  # fmt: skip
        if row["tested"] and row["power"] in ("uniform", "reference"):
            right.text(0.01, yi, "tested with power", color=colour, fontsize=7,
                       va="center", transform=right.get_yaxis_transform())  # fmt: skip
            continue
        for key, marker in (("T_informative", "o"), ("T_power", "s")):
            value = row[key]
            if _finite(value):
                right.plot([max(value, T_MIN)], [yi], marker, color=colour, markersize=6,
                           markerfacecolor="none" if key == "T_informative" else colour)  # fmt: skip
        note = _horizon_note(row["T_power"], row["T_power_note"]) if not row["tested"] else ""
        if note:
            right.text(0.99, yi, f"T_power {note}", color=colour, fontsize=7, va="center", ha="right",
                       transform=right.get_yaxis_transform())  # fmt: skip
    left.set_xscale("log")
    left.set_xlim(1e-2, 1e1)
    left.axvline(1.0, color="black", linewidth=0.8)
    left.set_xlabel("power margin: bound / uniform play's value at the best point\n(< 1: uniform play fails)",
                    fontsize=8)  # fmt: skip
    left.set_yticks(y, labels, fontsize=7)
    right.set_xscale("log")
    right.set_xlim(T_MIN / 2, T_MAX * 2)
    right.set_xlabel("horizon T at which an untested claim would speak (○ T_informative)\n"
                     "and would beat uniform play (■ T_power)", fontsize=8)  # fmt: skip
    for ax in (left, right):
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", linewidth=0.4, alpha=0.5)
        ax.set_ylim(-0.7, n - 0.3)
    handles = [
        Line2D([], [], marker="o", linestyle="", color=colour, label=f"{name} ({counts[name]})")
        for name, colour in STANDINGS.items()
    ]
    title = "the papers' claims, by standing (reference rows not counted)"
    fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=7, frameon=False, title=title,
               title_fontsize=7)  # fmt: skip
    fig.suptitle("Evidence: every checked claim of both papers (figures/evidence.md)", fontsize=10)
    return freeze_layout(fig)


def legend_counts(table: pd.DataFrame) -> dict[str, int]:
    """The counts the figure's legend gives: the papers' checked claims (not reference rows) per standing."""
    rows = table[~table["check"].isin(UNCHECKED) & (table["role"] == "claim")]
    counted = pd.Series([standing(r) for r in records(rows)], dtype=object).value_counts()
    return {name: int(counted.get(name, 0)) for name in STANDINGS}
