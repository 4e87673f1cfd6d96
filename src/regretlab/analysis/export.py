"""``regretlab export``: the per-point tables of the figures as files to use elsewhere (a spreadsheet, R, a
paper's own plot), without parquet.

One row per point the regime's figure draws (:mod:`regretlab.analysis.aggregate`'s summary table): the
regime, instance, algorithm, preset, T or t, the metric's mean and 95% interval over seeds, the bound (its
name, value and whether its constants are explicit), the trivial bound and the learner's ceiling, uniform
play's value (``null_uniform``), the verdict and whether the hypotheses hold. A CSV loses types: read it back
with :func:`read_points`, which keeps every identifier a string (paper ``"001"`` is not the number 1); a
parquet file keeps them by itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from regretlab.analysis.tables import read_typed_csv, write_typed_csv
from regretlab.core.io import write_parquet

#: Where the workflow writes the summaries (relative to the working directory).
SUMMARY_DIR = Path("results") / "summary"
FORMATS = ("csv", "parquet")


class ExportError(ValueError):
    """What cannot be exported, in one line naming the regime and how to build it."""


def summary_regimes(summary_dir: str | os.PathLike = SUMMARY_DIR) -> list[str]:
    """The regimes with a summary table, sorted."""
    return sorted(p.stem for p in Path(summary_dir).glob("*.parquet") if not p.stem.endswith(".exponents"))


def points(regimes: list[str] | None = None, summary_dir: str | os.PathLike = SUMMARY_DIR) -> pd.DataFrame:
    """The per-point rows of ``regimes`` (default: every regime with a summary), in that order."""
    available = summary_regimes(summary_dir)
    chosen = available if not regimes else list(dict.fromkeys(regimes))
    missing = [name for name in chosen if name not in available]
    if missing:
        raise ExportError(
            f"no summary for regime {missing[0]!r} under {summary_dir}: build it with `snakemake "
            f"{Path(summary_dir) / missing[0]}.parquet` (regimes with one: {available})"
        )
    if not chosen:
        raise ExportError(f"no summary under {summary_dir}: run `snakemake` first")
    tables = [pd.read_parquet(Path(summary_dir) / f"{name}.parquet") for name in chosen]
    return pd.concat(tables, ignore_index=True)


def export_points(
    out_dir: str | os.PathLike,
    regimes: list[str] | None = None,
    formats: tuple[str, ...] = ("csv",),
    summary_dir: str | os.PathLike = SUMMARY_DIR,
) -> list[Path]:
    """Write :func:`points` to ``out_dir/points.csv`` (with its column types in ``points.types.json``, for
    :func:`read_points`) and/or ``points.parquet``, atomically; return the paths written."""
    table = points(regimes, summary_dir)
    written = []
    for fmt in formats:
        path = Path(out_dir) / f"points.{fmt}"
        if fmt == "csv":
            written.append(write_typed_csv(table, path))
        else:
            write_parquet(path, table, {"regimes": sorted(set(table["regime"]))})
        written.append(path)
    return written


def read_points(path: str | os.PathLike) -> pd.DataFrame:
    """An exported table read back with its types: a CSV with the column types written beside it
    (:func:`regretlab.analysis.tables.read_typed_csv`), a parquet file as it is."""
    return pd.read_parquet(path) if Path(path).suffix == ".parquet" else read_typed_csv(path)
