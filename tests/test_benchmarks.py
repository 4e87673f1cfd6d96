"""The benchmark scripts run and print one well-formed JSON object per line (their numbers are not tested)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
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
            "--power-episodes",
            "2000",
            "--power-baseline-episodes",
            "5",
        ],
    ],
    ids=["bandits", "cmdp"],
)
def test_benchmark_prints_json_lines(args):
    done = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines and all(KEYS <= set(line) and line["value"] > 0 for line in lines)
    if "bench_cmdp" in args[0]:  # issue 34's row, named as the issue names it
        (power,) = [line for line in lines if line["name"] == "cmdp_power_scale"]
        assert power["unit"] == "h" and power["baseline_value"] > power["value"]


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


def test_compare_learners_reports_medians_and_ratios_row_by_row(monkeypatch):
    """benchmarks/compare_learners.py alternates the two trees and reports, per row the other commit also
    has, the median of each side and their ratio (the benchmark runs themselves are stubbed here)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import compare_learners
    finally:
        sys.path.pop(0)
    calls = []
    values = {"reference": iter([10.0, 30.0, 20.0]), "here": iter([12.0, 18.0, 15.0])}

    def fake_rows(tree, script, args, cache):
        side = "here" if tree == compare_learners.REPO else "reference"
        calls.append(side)
        unit = {"metric": "rounds_per_s", "unit": "rounds/s"}
        row = {"name": "exp3g", "K": 8, "value": next(values[side]), **unit}
        new = {"name": "brand_new", "K": 8, "value": 1.0, **unit}
        return {"exp3g 8": row} | ({"brand_new 8": new} if side == "here" else {})

    monkeypatch.setattr(compare_learners, "rows", fake_rows)
    out = compare_learners.compare("HEAD", "bench_bandits.py", [], repeats=3)
    assert calls == ["reference", "here"] * 3
    assert out == [
        {
            "name": "exp3g 8",
            "metric": "rounds_per_s",
            "value": 15.0,
            "unit": "rounds/s",
            "baseline": "HEAD",
            "baseline_value": 20.0,
            "ratio": 0.75,
        }
    ]


def test_compare_learners_best_is_the_highest_rate_or_the_shortest_time():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import compare_learners
    finally:
        sys.path.pop(0)
    summary = compare_learners.summary
    assert summary([3.0, 1.0, 2.0], "rounds_per_s", "best") == 3.0
    assert summary([3.0, 1.0, 2.0], "us_per_episode", "best") == 1.0
    assert summary([3.0, 1.0, 2.0, 10.0], "rounds_per_s", "median") == 2.5


def _machine_code():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import machine_code
    finally:
        sys.path.pop(0)
    return machine_code


def test_machine_code_ignores_symbol_names_module_paths_and_pickled_tracebacks_only():
    """Two kernels' assembly that differ only where a moved module or a renamed type shows (its symbols, its
    dotted path, the source path inside a pickled exception and that constant's length, the length of a string
    naming a symbol) normalise to the same text; one instruction apart, they do not."""
    normalise = _machine_code().normalise
    asm = (
        "\tmovabsq\t$.const.picklebuf.{h}, %rax\n\tcallq\t_ZN9regretlab{m}7kernels4stepB2v1E\n"
        "\taddsd\t%xmm1, %xmm0\n.const.pickledata.{h}:\n\t.ascii\t\"{path}/src/regretlab/omd.py\"\n"
        "\t.long\t{n}\n\t.text\n\t# regretlab.{dotted}.step\n"
        "\t.size\t\".const.missing Environment: _ZN08NumbaEnv9regretlab{m}{name}E\", {size}\n"
    )  # fmt: skip
    old = asm.format(h="a" * 40, m="", path="/tmp/ref", n=178, dotted="kernels", name="5State", size=669)
    new = asm.format(
        h="b" * 40, m="4core", path="/work/main", n=180, dotted="core.kernels", name="8T3State", size=685
    )
    assert normalise(old) == normalise(new)
    assert normalise(old) != normalise(old.replace("addsd", "mulsd"))
    assert "addsd" in normalise(old) and "\t.text" in normalise(old)


def test_machine_code_counts_the_reference_kernels_whose_code_is_unchanged():
    compare = _machine_code().compare
    assert compare({"a": "x", "b": "y", "c": "z"}, {"a": "x", "b": "Y", "d": "w"}) == (1, ["b", "c"])
    key = _machine_code().kernel_key
    assert key("regretlab.core.kernels", "step", "(f8,)") == key("regretlab.kernels", "step", "(f8,)")


def test_machine_code_keys_a_named_tuple_argument_by_its_fields_not_its_class_name():
    from collections import namedtuple

    from numba import typeof

    key = _machine_code().kernel_key
    state, renamed = namedtuple("State", "p work"), namedtuple("Theorem3State", "p work")
    other = namedtuple("State", "p scratch")
    p = np.zeros(3)

    def signature(value):
        return (typeof(value), typeof(1.0))

    assert key("m", "step", signature(state(p, p))) == key("m", "step", signature(renamed(p, p)))
    assert key("m", "step", signature(state(p, p))) != key("m", "step", signature(other(p, p)))
    assert key("m", "step", signature(state(p, p))) != key("m", "step", signature(state(p, np.zeros((2, 3)))))
