"""The benchmark scripts run and print one well-formed JSON object per line (their numbers are not tested)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
KEYS = {"name", "metric", "value", "unit", "baseline", "baseline_value", "ratio"}


@pytest.mark.parametrize(
    "args",
    [
        ["benchmarks/bench_bandits.py", "--arms", "8", "--horizon", "2000", "--baseline-rounds", "3"],
        [
            "benchmarks/bench_cmdp.py",
            "--instances",
            "small",
            "--episodes",
            "30",
            "--warmup",
            "5",
            "--baseline-episodes",
            "2",
        ],
    ],
    ids=["bandits", "cmdp"],
)
def test_benchmark_prints_json_lines(args):
    done = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines and all(KEYS <= set(line) and line["value"] > 0 for line in lines)


def test_mutation_script_help():
    """benchmarks/mutation.py (minutes per module: not run here) parses its arguments, lists its modules."""
    done = subprocess.run(
        [sys.executable, "benchmarks/mutation.py", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "--modules" in done.stdout and "bandits.bounds" in done.stdout
