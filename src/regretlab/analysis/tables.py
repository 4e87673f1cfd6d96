"""The exponent table: every regime's fitted log–log slopes next to the theory's (cf. paper 001, Table 1)."""

from __future__ import annotations

import os

import pandas as pd

from regretlab.io import write_text

#: Column order of ``figures/exponents.csv`` and ``.md``.
EXPONENT_COLUMNS = [
    "regime",
    "algorithm",
    "x",
    "exponent",
    "ci_low",
    "ci_high",
    "theory_exponent",
    "hypotheses_hold",
    "instance",
    "constants",
    "metric",
    "n_points",
]


def exponent_table(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate per-regime exponent fits in a stable order."""
    table = pd.concat(frames, ignore_index=True)[EXPONENT_COLUMNS]
    return table.sort_values(["regime", "metric", "instance", "algorithm", "constants"], ignore_index=True)


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table, numbers to three decimals."""

    def cell(value: object) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def write_exponent_table(
    frames: list[pd.DataFrame], csv_path: str | os.PathLike, md_path: str | os.PathLike
) -> None:
    """Write ``figures/exponents.csv`` and ``figures/exponents.md`` atomically."""
    table = exponent_table(frames)
    write_text(csv_path, table.to_csv(index=False, float_format="%.6g"))
    header = (
        "Fitted log–log slope of each bounded metric's mean (pseudo-regret, or the constrained-MDP regret "
        "and violation) in the swept variable x, with a 95% bootstrap interval over seeds, next to the "
        "exponent of the theorem's bound.\n\n"
    )
    write_text(md_path, header + to_markdown(table))
