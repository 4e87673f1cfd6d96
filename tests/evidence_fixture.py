"""The quick-scale aggregates that tests/test_frontier.py computes each claim's T_informative from.

T_informative (regretlab.analysis.evidence) extrapolates each claim's curves from their measured points, so it
needs a default run's aggregate tables; the test recomputes it from these with today's claims, bounds and
learners (a changed bound or claim is seen at once, without rerunning the workflow). Kept in
``tests/data/evidence_quick/``: the aggregate rows at ``t = T`` (all the search reads), the exponent fits,
the instance files, and per regime a hash of what its quick-scale aggregate depends on in the config, so
that a changed regime says the fixture is stale instead of passing on old data.

Refresh after changing a regime of the shipped config (a default run's ``results/`` on that config), then
regenerate the golden evidence table (``tests/data/evidence_golden.csv``) and read its diff::

    .venv/bin/snakemake && .venv/bin/python tests/evidence_fixture.py results
    .venv/bin/python tests/evidence_fixture.py --golden && git diff tests/data/evidence_golden.csv
"""

from __future__ import annotations

import functools
import gzip
import json
import sys
from pathlib import Path

import pandas as pd
from shipped_config import shipped_config

from regretlab.core.io import config_hash

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "data" / "evidence_quick"
SHIPPED = REPO / "tests" / "config" / "default.yaml"
REFRESH = ".venv/bin/snakemake && .venv/bin/python tests/evidence_fixture.py results"
#: Aggregate columns the evidence table does not read, left out of the fixture.
UNREAD_COLUMNS = ("paper", "theorem", "instance_label", "bound_label", "runs_hash")
UNREAD_SUFFIXES = ("_ci_low", "_ci_high")


def regime_key(regime: dict) -> str:
    """A hash of what a regime's quick-scale aggregate depends on in its config entry (not its title, its
    description or its other scales)."""
    entry = {k: v for k, v in regime.items() if k not in ("theorem", "description", "paper", "scales")}
    return config_hash({**entry, "quick": regime["scales"]["quick"]})


#: The default run's whole aggregate table (every row and column), from which the figures are drawn.
FIGURES_FIXTURE = REPO / "tests" / "data" / "figures_quick" / "summary.parquet"


def figure_inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The default run's whole aggregate table and its exponent fits (what the figures are drawn from)."""
    return pd.read_parquet(FIGURES_FIXTURE), pd.read_parquet(FIXTURE / "exponents.parquet")


def load() -> tuple[pd.DataFrame, pd.DataFrame, dict, dict]:
    """The fixture: aggregate rows, exponent fits, instances by (regime, instance), and regime keys."""
    summary = pd.read_parquet(FIXTURE / "summary.parquet")
    exponents = pd.read_parquet(FIXTURE / "exponents.parquet")
    with gzip.open(FIXTURE / "instances.json.gz", "rt", encoding="utf-8") as stream:
        instances = {tuple(key.split("/")): value for key, value in json.load(stream).items()}
    keys = json.loads((FIXTURE / "regimes.json").read_text(encoding="utf-8"))
    return summary, exponents, instances, keys


def refresh(results: Path) -> None:
    """Write the fixture from a default run's ``results/`` on the shipped config."""
    config = shipped_config()
    # The regimes' tables and, as the evidence table reads them, those of each fresh power-scale archive
    # (regretlab.workflow.archive), under <regime>~power.
    archived = [
        f"{name}~power" for name in config["regimes"]
        if (results / "summary" / f"{name}~power.status.json").exists()
        and json.loads((results / "summary" / f"{name}~power.status.json").read_text())["fresh"]
    ]  # fmt: skip
    names = [*config["regimes"], *archived]
    summaries = [pd.read_parquet(results / "summary" / f"{name}.parquet") for name in names]
    summary = pd.concat(summaries, ignore_index=True)
    exponents = pd.concat(
        [pd.read_parquet(results / "summary" / f"{name}.exponents.parquet") for name in names],
        ignore_index=True,
    )
    instances = {
        f"{name}/{instance}": json.loads(
            (results / "instances" / name.removesuffix("~power") / f"{instance}.json").read_text()
        )
        for name in names
        for instance in config["regimes"][name.removesuffix("~power")]["instances"]
    }
    FIXTURE.mkdir(parents=True, exist_ok=True)
    # The rows the search reads (t = T), without the columns it never reads (labels, run hashes, intervals of
    # the metrics: it reads their means).
    dropped = [c for c in summary if c.endswith(UNREAD_SUFFIXES) or c in UNREAD_COLUMNS]
    final = summary[summary["t"] == summary["T"]].drop(columns=dropped)
    final.to_parquet(FIXTURE / "summary.parquet", index=False)
    # Every row and column, for the figures (tests/test_figure_layout.py renders each regime's figure).
    FIGURES_FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    summary.to_parquet(FIGURES_FIXTURE, index=False)
    exponents.to_parquet(FIXTURE / "exponents.parquet", index=False)
    with gzip.GzipFile(FIXTURE / "instances.json.gz", "wb", mtime=0) as stream:
        stream.write(json.dumps(instances, sort_keys=True).encode("utf-8"))
    keys = {name: regime_key(regime) for name, regime in config["regimes"].items()}
    (FIXTURE / "regimes.json").write_text(json.dumps(keys, indent=2, sort_keys=True) + "\n", encoding="utf-8")


#: The golden evidence table: what the table says of each claim on the fixture
#: (tests/test_evidence_golden.py).
GOLDEN = REPO / "tests" / "data" / "evidence_golden.csv"
GOLDEN_COLUMNS = [
    "claim", "role", "check", "tested", "power", "grade", "margin", "outcome", "why", "T_informative",
    "T_power", "regimes", "points", "testable_items", "mechanism_values", "identical", "T_informative_curve",
    "T_informative_note", "seeds", "cpu_hours_run", "T_power_curve", "T_power_note", "cpu_hours_power_run",
]  # fmt: skip
#: The golden columns written with two significant digits (the margin, the cost model's hours, the horizons
#: searched).
ROUNDED = ("margin", "T_informative", "T_power", "cpu_hours_run", "cpu_hours_power_run")
REGENERATE = ".venv/bin/python tests/evidence_fixture.py --golden"


def golden_table(table: pd.DataFrame) -> str:
    """The golden columns of an evidence table as CSV text: per claim its role, check, whether it is tested,
    its power, its outcome and blocks, its items, and the two horizons with their curves, notes and costs
    (two significant digits)."""
    shown = table[GOLDEN_COLUMNS].copy()
    for column in ROUNDED:
        shown[column] = [f"{value:.2g}" if value == value else "" for value in shown[column]]
    return shown.to_csv(index=False)


@functools.cache
def inputs() -> tuple[pd.DataFrame, pd.DataFrame, dict, dict]:
    """The fixture's aggregate rows, exponent fits and instances, and the shipped config, read once per
    process (the evidence table only reads them)."""
    summary, exponents, instances, _ = load()
    return summary, exponents, instances, shipped_config()


def golden_rows() -> pd.DataFrame:
    """The golden table (:data:`GOLDEN`) as written, one row per claim, indexed by claim."""
    return pd.read_csv(GOLDEN, dtype=str, keep_default_na=False).set_index("claim")  # cells as written


def evidence_of_fixture() -> pd.DataFrame:
    """The evidence table of the fixture, on the shipped config."""
    from regretlab.analysis.evidence import evidence_table

    summary, exponents, instances, _ = load()
    return evidence_table([summary], [exponents], instances, shipped_config())


if __name__ == "__main__":
    if sys.argv[1:] == ["--golden"]:
        GOLDEN.write_text(golden_table(evidence_of_fixture()), encoding="utf-8")
    else:
        refresh(Path(sys.argv[1]))
