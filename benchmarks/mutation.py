"""Mutation score of the modules that decide what regretlab reports, with mutmut 3 (issue 22, item 4).

Copies the repository's files (git-tracked, plus untracked ones that are not ignored, so that a test being
written counts) into a temporary directory (one copy per module) and, for each module of :data:`MODULES` (or
the ``--modules`` subset), configures mutmut there (``[tool.mutmut]`` of the copy's pyproject.toml:
``source_paths = ["src"]``, ``only_mutate`` the module, ``pytest_add_cli_args_test_selection`` the test files
that exercise it) and runs ``mutmut run``. mutmut mutates the copy's ``mutants/src`` and puts it first on
``sys.path`` (its forced-fail run checks that the tests import the mutated copy, not the checkout), then runs,
for each mutant, only the selected tests that reach the mutated function. The working tree is never touched.
``--keep DIR --again`` reruns, in the copies an earlier ``--keep DIR`` run left, only the mutants it did not
catch (after new tests).

Prints one JSON object per module, ``{"name", "metric": "mutation_score", "value", "unit": "%", "killed",
"survived", "timeout", "no_tests", "other", "mutants", "not_checked", "seconds"}`` (value = (killed + timeout)
/ mutants, over the mutants checked), each followed by one line per mutant not killed: ``SURVIVED path:line
mutant_name: <original> => <mutant>`` (or ``NO-TESTS``, ``SUSPICIOUS`` …). mutmut 3 mutates function bodies
only: a module-level table (such as :data:`regretlab.registry.theory.BOUNDS`) is covered through the functions
it calls. Takes minutes per module.

    python benchmarks/mutation.py [--modules bandits.bounds cmdp.bounds registry.theory] [--max-children 2]
                                  [--keep DIR [--again [--sample N]]]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: The new tests written to kill survivors; part of every module's selection.
KILLS = "tests/test_mutation_kills.py"
#: pytest's options in every mutant's run: ``-n 0`` keeps the tests in mutmut's process, off pytest-xdist's
#: workers (pyproject's ``addopts``).
PYTEST_ARGS = ["-q", "-n", "0", "-p", "no:cacheprovider"]

#: Module → (its file, the test files that exercise it: those that import it and pin what it reports).
MODULES: dict[str, tuple[str, list[str]]] = {
    "bandits.bounds": (
        "src/regretlab/bandits/bounds.py",
        ["tests/test_bounds_by_hand.py", "tests/cmdp/test_cmdp_bounds.py"],
    ),
    "cmdp.bounds": (
        "src/regretlab/cmdp/bounds.py",
        ["tests/test_bounds_by_hand.py", "tests/cmdp/test_cmdp_bounds.py"],
    ),
    **{
        name: (
            f"src/regretlab/{name.replace('.', '/')}.py",
            [
                "tests/test_bounds_by_hand.py",
                "tests/cmdp/test_cmdp_bounds.py",
                "tests/analysis/test_verdicts.py",
            ],
        )
        for name in ("registry.theory", "bandits.bound_registry", "cmdp.bound_registry")
    },
    "analysis.verdicts": (
        "src/regretlab/analysis/verdicts.py",
        ["tests/analysis/test_verdicts.py", "tests/analysis/test_evidence.py"],
    ),
    "registry.claims": (
        "src/regretlab/registry/claims.py",
        ["tests/analysis/test_evidence.py", "tests/analysis/test_power.py", "tests/test_evidence_golden.py"],
    ),
    **{
        f"analysis.evidence.{part}": (
            f"src/regretlab/analysis/evidence/{part}.py",
            [
                "tests/analysis/test_evidence.py",
                "tests/analysis/test_evidence_items.py",
                "tests/analysis/test_evidence_rows.py",
                "tests/analysis/test_power.py",
                "tests/analysis/test_verdicts.py",
                "tests/analysis/test_cmdp_aggregate.py",
                "tests/test_evidence_golden.py",
                *(["tests/analysis/test_evidence_search.py"] if part == "search" else []),
                *(["tests/analysis/test_evidence_points.py"] if part == "points" else []),
            ],
        )
        for part in ("points", "items", "search", "table", "markdown")
    },
    "analysis.aggregate": (
        "src/regretlab/analysis/aggregate.py",
        [
            "tests/analysis/test_analysis.py",
            "tests/analysis/test_aggregate_rows.py",
            "tests/analysis/test_cmdp_aggregate.py",
            "tests/analysis/test_epoch_ends.py",
            "tests/analysis/test_evidence.py",
            "tests/analysis/test_verdicts.py",
        ],
    ),
    "analysis.epoch_ends": (
        "src/regretlab/analysis/epoch_ends.py",
        ["tests/analysis/test_epoch_ends.py", "tests/analysis/test_analysis.py"],
    ),
    "bandits.nulls": ("src/regretlab/bandits/nulls.py", ["tests/bandits/test_nulls.py"]),
    "cmdp.nulls": ("src/regretlab/cmdp/nulls.py", ["tests/cmdp/test_cmdp_nulls.py"]),
    "analysis.exponents": (
        "src/regretlab/analysis/exponents.py",
        [
            "tests/analysis/test_exponents.py",
            "tests/analysis/test_analysis.py",
            "tests/analysis/test_epoch_ends.py",
            "tests/analysis/test_cmdp_aggregate.py",
            "tests/analysis/test_power.py",
            "tests/analysis/test_verdicts.py",
        ],
    ),
}

#: Tests left out of every mutation run: each mutant reruns every selected test that reaches the mutated
#: function, and these take 7–65 s each (real runs, the whole fixture's evidence table), so with them a module
#: would take hours. The pytest suite runs them; the fast tests below pin what they pin, on hand-made input.
SLOW = [
    "tests/test_evidence_golden.py::test_the_evidence_table_of_the_fixture_is_the_golden_one",
    "tests/analysis/test_evidence.py::test_every_dual_ceiling_holds_at_every_checkpoint_of_real_runs",
    "tests/analysis/test_evidence.py::test_extrapolated_points_reproduce_the_aggregate_bound_where_they_were_measured",
    "tests/analysis/test_evidence.py::test_identical_runs_are_detected_exactly_on_real_runs",
    "tests/analysis/test_evidence.py::test_algorithm5_presets_coincide_while_stage_2_never_starts",
]

#: mutmut's status of a mutant no run has tested yet (a run stopped early, or left out by ``--sample``).
UNCHECKED = "not checked"

#: mutmut's statuses that count as the tests catching the mutant.
CAUGHT = ("killed", "timeout")


def repository_files(repo: Path) -> list[str]:
    """The files of the checkout: tracked, and untracked but not ignored (deleted ones left out)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted({name for name in listing.split("\0") if name and (repo / name).is_file()})


def copy_repository(repo: Path, destination: Path) -> list[str]:
    """Copy :func:`repository_files` to ``destination``; returns their top-level entries."""
    names = repository_files(repo)
    for name in names:
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, target)
    return sorted({Path(name).parts[0] for name in names})


def configure(copy: Path, pyproject: str, module_file: str, tests: list[str], top: list[str]) -> None:
    """Append ``[tool.mutmut]`` for one module to the copy's pyproject.toml (JSON lists are TOML lists);
    ``top``: the copy's top-level entries, copied beside ``mutants/src`` (the tests read config, schemas)."""
    also_copy = sorted(set(top) - {"src", "tests", "pyproject.toml"})
    section = "\n".join(
        [
            "",
            "[tool.mutmut]",
            'source_paths = ["src"]',
            f"only_mutate = {json.dumps([module_file])}",
            f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
            f"pytest_add_cli_args = {json.dumps([*PYTEST_ARGS, *deselected(tests)])}",
            f"also_copy = {json.dumps(also_copy)}",
            "",
        ]
    )
    (copy / "pyproject.toml").write_text(pyproject + section)


def deselected(tests: list[str]) -> list[str]:
    """``--deselect`` options for the :data:`SLOW` tests among the selected test files."""
    return [arg for node in SLOW if node.split("::")[0] in tests for arg in ("--deselect", node)]


def mutmut(copy: Path, *args: str, log=None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", *args],
        cwd=copy,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if log is not None:
        log.write(done.stdout)
    if done.returncode != 0:
        raise RuntimeError(f"mutmut {' '.join(args)} failed ({done.returncode}):\n{done.stdout[-4000:]}")
    return done.stdout


def statuses(results: str) -> dict[str, str]:
    """``mutmut results --all true``'s ``    name: status`` lines."""
    found = {}
    for line in results.splitlines():
        match = re.fullmatch(r"\s+(\S+__mutmut_\d+): (.+)", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def function_lines(source: str) -> dict[str, int]:
    """The first line of every function and method (decorators included), by mutmut's local name
    (``f``, or ``Class.method`` for methods)."""
    lines = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines[f"{node.name}.{item.name}"] = min(
                        [item.lineno, *(d.lineno for d in item.decorator_list)]
                    )
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines[node.name] = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return lines


#: Run in the copy: the diff of each mutant (names on stdin) against its function, as ``mutmut show`` prints.
_DIFFS = """
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
names = json.loads(sys.stdin.read())
print(json.dumps({name: get_diff_for_mutant(name, path=sys.argv[1]) for name in names}))
"""


def describe(module_file: str, name: str, diff: str, source: str) -> str:
    """``path:line name: <original> => <mutant>``, from the diff of the mutated function."""
    lines = diff.splitlines()
    removed = [line[1:].strip() for line in lines if line.startswith("-") and not line.startswith("---")]
    added = [line[1:].strip() for line in lines if line.startswith("+") and not line.startswith("+++")]
    local = name.split(".")[-1].rsplit("__mutmut_", 1)[0]
    local = local[2:] if local.startswith("x_") else local.replace("xǁ", "").replace("ǁ", ".")
    start = function_lines(source).get(local, 1)
    line = start
    text = source.splitlines()
    if removed:
        line = next((i + 1 for i in range(start - 1, len(text)) if text[i].strip() == removed[0]), start)
    return f"{module_file}:{line} {name}: {' | '.join(removed)} => {' | '.join(added)}"


def run_module(
    work: Path, name: str, max_children: int, again: bool, log, sample: int | None = None
) -> tuple[dict, list[str]]:
    """Mutation-test one module in its own copy ``work/<name>``. With ``again`` and a copy left there by an
    earlier run (``--keep``), refresh the copy's files from the checkout and rerun only the mutants that
    were not caught: a test added since can only kill more (mutmut keeps the other verdicts; it starts over
    when the module's test selection or pyproject.toml changed). With ``sample``, of the mutants an earlier
    run never reached (``not checked``) only that many, drawn with a fixed seed, are run: the score is then
    over the mutants checked, and ``not_checked`` says how many were left out."""
    module_file, tests = MODULES[name]
    copy = work / name
    if (REPO / KILLS).exists():
        tests = [*tests, KILLS]
    fresh = not (again and (copy / "mutants").is_dir())
    if fresh:
        shutil.rmtree(copy, ignore_errors=True)
    top = copy_repository(REPO, copy)
    configure(copy, (REPO / "pyproject.toml").read_text(), module_file, tests, top)
    earlier = {} if fresh else statuses(mutmut(copy, "results", "--all", "true"))
    missed = [m for m, status in earlier.items() if status not in CAUGHT]
    unchecked = sorted(m for m in missed if earlier[m] == UNCHECKED)
    if sample is not None and len(unchecked) > sample:
        drawn = set(random.Random(0).sample(unchecked, sample))
        missed = [m for m in missed if earlier[m] != UNCHECKED or m in drawn]
    start = time.perf_counter()
    if fresh or missed:
        mutmut(copy, "run", "--max-children", str(max_children), *missed, log=log)
    seconds = time.perf_counter() - start
    timing = copy / "seconds.json"  # the module's mutation time over this run and the earlier ones
    seconds += json.loads(timing.read_text()) if timing.exists() and not fresh else 0.0
    timing.write_text(json.dumps(seconds))
    found = statuses(mutmut(copy, "results", "--all", "true"))
    not_checked = sum(1 for status in found.values() if status == UNCHECKED)
    found = {m: status for m, status in found.items() if status != UNCHECKED}
    counts = {status: sum(1 for s in found.values() if s == status) for status in set(found.values())}
    caught = sum(counts.get(status, 0) for status in CAUGHT)
    source = (copy / module_file).read_text()
    alive = sorted(
        (mutant for mutant in found if found[mutant] not in CAUGHT),
        key=lambda m: (m.rsplit("__mutmut_", 1)[0], int(m.rsplit("_", 1)[1])),
    )
    diffs = subprocess.run(
        [sys.executable, "-c", _DIFFS, module_file],
        cwd=copy,
        input=json.dumps(alive),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    diffs = json.loads(diffs)
    survivors = [
        f"{found[mutant].upper().replace(' ', '-')} {describe(module_file, mutant, diffs[mutant], source)}"
        for mutant in alive
    ]
    named = ("killed", "survived", "timeout", "no tests")
    row = {
        "name": name,
        "metric": "mutation_score",
        "value": round(100.0 * caught / len(found), 1) if found else float("nan"),
        "unit": "%",
        "killed": counts.get("killed", 0),
        "survived": counts.get("survived", 0),
        "timeout": counts.get("timeout", 0),
        "no_tests": counts.get("no tests", 0),
        "other": sum(n for status, n in counts.items() if status not in named),
        "mutants": len(found),
        "not_checked": not_checked,
        "seconds": round(seconds, 1),
    }
    return row, survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", nargs="+", choices=list(MODULES), default=list(MODULES))
    parser.add_argument("--max-children", type=int, default=2, help="mutants tested in parallel")
    parser.add_argument("--keep", type=Path, help="work in DIR (kept afterwards) instead of a temporary one")
    parser.add_argument(
        "--again", action="store_true", help="with --keep: rerun only the mutants an earlier run left alive"
    )
    parser.add_argument(
        "--sample", type=int, help="with --again: run only this many (seeded) of the mutants never checked"
    )
    args = parser.parse_args()
    if args.again and args.keep is None:
        parser.error("--again needs --keep DIR (the earlier run's directory)")
    work = args.keep or Path(tempfile.mkdtemp(prefix="regretlab-mutation-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        with open(work / "mutmut.log", "a") as log:
            for name in args.modules:
                row, survivors = run_module(work, name, args.max_children, args.again, log, args.sample)
                print(json.dumps(row), flush=True)
                for line in survivors:
                    print(line, flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
