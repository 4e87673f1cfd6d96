"""`regretlab export` (issue 36, item 6): the per-point tables as CSV and parquet, read back with their types
(the paper "001" stays text), one line for a regime without a summary."""

from __future__ import annotations

import math
import subprocess
import sys

import pandas as pd
import pytest

from regretlab.analysis.export import ExportError, export_points, points, read_points
from regretlab.core.io import write_parquet


def summary(regime: str, paper: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "regime": [regime] * 2, "paper": [paper] * 2, "instance": ["1e3", "007"], "T": [100, 1000],
            "mean": [1.0 / 3.0, math.nan], "bound_value": [2.5e-17, math.inf], "verdict": ["holds", ""],
            "hypotheses_hold": [True, False],
        }
    ).astype({"regime": "str", "paper": "str", "instance": "str", "verdict": "str"})  # fmt: skip


@pytest.fixture
def summaries(tmp_path):
    directory = tmp_path / "results" / "summary"
    write_parquet(directory / "b.parquet", summary("b", "001"))
    write_parquet(directory / "a.parquet", summary("a", "000"))
    write_parquet(directory / "a.exponents.parquet", pd.DataFrame({"x": [1]}))
    return directory


def test_export_round_trips_through_csv_and_parquet(summaries, tmp_path):
    written = export_points(tmp_path / "out", None, ("csv", "parquet"), summaries)
    assert [p.name for p in written] == ["points.types.json", "points.csv", "points.parquet"]
    expected = pd.concat([summary("a", "000"), summary("b", "001")], ignore_index=True)
    for path in (tmp_path / "out" / "points.csv", tmp_path / "out" / "points.parquet"):
        back = read_points(path)
        pd.testing.assert_frame_equal(back, expected, check_exact=True)
        assert back["paper"].tolist() == ["000", "000", "001", "001"] and back["instance"][0] == "1e3"


def test_export_chooses_regimes_and_names_a_missing_one(summaries):
    assert points(["b"], summaries)["regime"].unique().tolist() == ["b"]
    with pytest.raises(ExportError, match=r"no summary for regime 'c' .* \(regimes with one: \['a', 'b'\]\)"):
        points(["b", "c"], summaries)


def test_the_command_writes_the_files_and_fails_in_one_line(summaries, tmp_path):
    command = [sys.executable, "-m", "regretlab.workflow.cli", "export", "--out", "x"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and (tmp_path / "x" / "points.csv").is_file(), done.stderr
    done = subprocess.run([*command, "--regime", "c"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "regime 'c'" in done.stderr
