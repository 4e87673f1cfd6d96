"""One Markdown page per claim (``figures/claims/<claim>.md``), readable on the forge without building the
site: the statement and where the paper states it, the check, its regimes and figures, and every item (point
or curve) with why it did or did not count. The evidence table links each row to its page."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd

from regretlab.analysis.evidence.items import BLOCKS, Item
from regretlab.analysis.tables import records, short_number, to_markdown
from regretlab.core.io import write_text
from regretlab.registry.claims import UNCHECKED

#: The folder of the claim pages, relative to ``figures/`` (the evidence table's links).
PAGES = "claims"


def page_link(claim: str) -> str:
    """The relative link from ``figures/evidence.md`` to a claim's page."""
    return f"{PAGES}/{claim}.md"


def _number(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else short_number(value)


def _counts(item: Item) -> str:
    if not item.block:
        return "**yes**"
    if item.block == "preset":
        return f"no: {BLOCKS['preset']} ({item.row['constants']})"
    return f"no: {BLOCKS[item.block]}"


def _where(items: list[Item]) -> dict[str, list]:
    """The columns that say where an item is: regime, instance, learner and metric."""
    return {
        "regime": [i.regime for i in items],
        "instance": [i.row["instance"] for i in items],
        "algorithm / constants": [f"{i.row['algorithm']} / {i.row['constants']}" for i in items],
        "metric": [i.row["metric"] for i in items],
    }


def _point_rows(items: list[Item]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            **_where(items),
            "T": [_number(i.row["T"]) for i in items],
            "t": [_number(i.row["t"]) for i in items],
            "measured (mean)": [_number(i.row["mean"]) for i in items],
            "bound": [_number(i.row["bound_value"]) for i in items],
            "uniform play": [_number(i.row.get("null_uniform")) for i in items],
            "verdict": [i.row["verdict"] for i in items],
            "counts": [_counts(i) for i in items],
            "power (grade, margin)": [
                (i.power or "—") + (f", {i.grade} ({i.margin:.2g})" if i.grade else "") for i in items
            ],
        }
    )


def _curve_rows(items: list[Item]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            **_where(items),
            "points": [int(i.row["n_points"]) for i in items],
            "slope [95% CI]": [
                f"{i.row['exponent']:.2f} [{i.row['ci_low']:.2f}, {i.row['ci_high']:.2f}]"
                if math.isfinite(i.row["exponent"]) and math.isfinite(i.row["ci_low"]) else "—"
                for i in items
            ],
            "theory": [f"{i.row['theory_exponent']:.3g}" for i in items],
            "uniform play's slope": [_number(i.row.get("null_slope")) for i in items],
            "counts": [_counts(i) for i in items],
            "outcome": [i.outcome or "—" for i in items],
        }
    )  # fmt: skip


def claim_page(row: dict, items: list[Item], figures: dict[str, str]) -> str:
    """The page of one evidence-table row (``row``, its CSV columns) with its ``items``; ``figures`` maps a
    regime to its figure's path relative to ``figures/``."""
    paper = f"paper {row['paper']}"
    lines = [f"# {row['name']} ({paper})", "", f"> {row['text']}", ""]
    lines.append(f"- **Where the paper states it:** {row['source']}")
    if row["role"] == "reference":
        lines.append("- **Role:** reference (a prior result or an inequality inside a proof: not counted)")
    if row["check"] in UNCHECKED:
        lines += [f"- **No check** ({row['check']}): {row['why']}", ""]
        return "\n".join(lines) + "\n"
    power = row["power"] or "—"
    if row["grade"]:
        power += f", {row['grade']} (bound / uniform play = {row['margin']:.2g})"
    lines += [
        f"- **Check:** {row['check']} (bounds: {row['bounds']})",
        f"- **Tested:** {'yes' if row['tested'] else 'no'}; power: {power}",
        f"- **Outcome:** {row['outcome'] or '—'}",
    ]
    if not row["tested"]:
        lines.append(f"- **Why not tested:** {row['why']}")
    if row["mechanism"]:
        measured = f" (measured {row['mechanism_values']})" if row["mechanism_values"] else ""
        lines.append(f"- **Mechanism it needs:** {row['mechanism']}{measured}")
    for key, label in (("informative", "T_informative"), ("power", "T_power")):
        value, note = row[f"T_{key}"], row[f"T_{key}_note"]
        if not (isinstance(value, float) and math.isnan(value)) or note:
            lines.append(f"- **{label}:** {_number(value) or '—'}" + (f" ({note})" if note else ""))
    regimes = sorted({item.regime for item in items})
    lines += ["", "## Regimes", ""]
    for regime in regimes:
        n = sum(item.regime == regime for item in items)
        figure = figures.get(regime)
        shown = f" — figure: [{figure}](../{figure})" if figure else ""
        lines.append(f"- `{regime}`: {n} item{'s' * (n != 1)}{shown}")
    points = [item for item in items if "verdict" in item.row]
    curves = [item for item in items if "verdict" not in item.row]
    if points:
        lines += ["", f"## Points ({len(points)}): why each did or did not count", ""]
        lines.append(to_markdown(_point_rows(points)))
    if curves:
        lines += ["", f"## Fitted curves ({len(curves)}): why each did or did not count", ""]
        lines.append(to_markdown(_curve_rows(curves)))
    lines += ["", "[The evidence table](../evidence.md) · every column: docs/evidence.md"]
    return "\n".join(lines) + "\n"


def write_claim_pages(
    table: pd.DataFrame, items: dict[str, list[Item]], figures: dict[str, str], directory: str | os.PathLike
) -> None:
    """Write one page per row of the evidence table into ``directory`` (``figures/claims``)."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    for row in records(table):
        page = claim_page(row, items.get(row["claim"], []), figures)
        write_text(Path(directory) / f"{row['claim']}.md", page)
