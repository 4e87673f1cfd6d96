"""Each learner's speed at this checkout against another commit's, measured in the same run (issue 21's "no
learner slower by more than 5 %").

Runs a benchmark script (``bench_bandits.py`` or ``bench_cmdp.py``, with the arguments after ``--``) on a
temporary ``git worktree`` of ``--against`` and on this checkout, alternately ``--repeats`` times, each
tree's own copy in a fresh process with that tree's sources on ``PYTHONPATH`` and its own numba cache (so
compiling is done by the script's warm-up, not timed), and prints one JSON object per benchmark row:
``{"name", "metric", "value", "unit", "baseline", "baseline_value", "ratio"}``, the medians over the
repeats (``--statistic best``: the best, the highest rate or the shortest time, which interference on a shared
machine can only worsen), ``baseline`` naming the other commit, ``ratio`` = value / baseline_value (above 1:
this checkout is faster for a rate such as ``rounds_per_s``, slower for a time such as ``us_per_episode``).
Alternating spreads a machine's drift over both.

    python benchmarks/compare_learners.py --against 944ffa0 [--repeats 3] [--script bench_bandits.py] \\
        [--statistic median|best] [-- --horizon 100000 --arms 8]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import median as statistic_median

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = ("bench_bandits.py", "bench_cmdp.py")


def rows(tree: Path, script: str, args: list[str], cache: Path) -> dict[str, dict]:
    """One run of ``tree``'s own ``benchmarks/<script>`` on ``tree``'s sources, by row name."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, str(tree / "benchmarks" / script), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} failed on {tree}:\n{done.stderr[-3000:]}")
    found = {}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        found[" ".join(str(row[key]) for key in ("name", "K", "instance") if key in row)] = row
    return found


def summary(values: list[float], metric: str, statistic: str) -> float:
    """The ``statistic`` of one row's values over the repeats: their median, or their best (the largest of a
    rate, a metric ending in ``per_s``; the smallest of a time)."""
    if statistic == "median":
        return statistic_median(values)
    return max(values) if metric.endswith("per_s") else min(values)


@contextmanager
def worktree(against: str, where: Path) -> Iterator[Path]:
    """A detached ``git worktree`` of ``against`` at ``where``, removed on exit whatever happens."""
    git = ["git", "worktree", "add", "--detach", "--quiet", str(where), against]
    subprocess.run(git, cwd=REPO, check=True)
    try:
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=REPO, check=False)


def compare(
    against: str, script: str, args: list[str], repeats: int, statistic: str = "median"
) -> list[dict]:
    """The medians (or bests) of ``repeats`` alternating runs on ``against`` and on this checkout, row by
    row."""
    with tempfile.TemporaryDirectory(prefix="regretlab-compare-") as work:
        work = Path(work)
        runs: dict[str, list[dict]] = {"reference": [], "here": []}
        with worktree(against, work / "reference") as reference:
            for _ in range(repeats):
                runs["reference"].append(rows(reference, script, args, work / "cache-reference"))
                runs["here"].append(rows(REPO, script, args, work / "cache-here"))
    out = []
    for name, first in runs["here"][0].items():
        if not all(name in run for run in runs["reference"]):
            continue  # a row the other commit does not have (a new learner)
        value = summary([run[name]["value"] for run in runs["here"]], first["metric"], statistic)
        baseline = summary([run[name]["value"] for run in runs["reference"]], first["metric"], statistic)
        out.append(
            {
                "name": name,
                "metric": first["metric"],
                "value": value,
                "unit": first["unit"],
                "baseline": against,
                "baseline_value": baseline,
                "ratio": value / baseline,
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the commit to compare with (a hash, branch or tag)")
    parser.add_argument("--script", choices=SCRIPTS, default="bench_bandits.py")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--statistic", choices=("median", "best"), default="median")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="after --: the benchmark script's arguments")
    options = parser.parse_args()
    args = options.args[1:] if options.args[:1] == ["--"] else options.args
    for row in compare(options.against, options.script, args, options.repeats, options.statistic):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
