"""Shared fixtures: paths of the repository and its schema; hypothesis derandomised so that every run of the
suite (and CI) draws the same examples."""

import compileall
import fcntl
import os
import shutil
from pathlib import Path

import evidence_fixture
import pandas as pd
import pytest
from hypothesis import settings
from kernel_warmup import warm_numba_cache
from workflow_runs import smoke_run

REPO = Path(__file__).resolve().parents[1]

settings.register_profile("regretlab", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("regretlab")

#: The longest modules, longest first (measured in a full run, 2026-12-05): those that spend most of their
#: time waiting (on SLURM's daemons, on Snakemake subprocesses, on signals and snapshots) and those that
#: compute for minutes (every default figure laid out). The suite hands them out first, so that they overlap
#: with the short modules instead of ending the run alone (``--no-loadscope-reorder`` in pyproject.toml keeps
#: this order; a module's tests all run on one worker).
LONG_MODULES = (
    "test_slurm.py",
    "test_recipes.py",
    "test_resume.py",
    "test_figure_layout.py",
    "test_workflow.py",
    "test_reruns.py",
    "test_shipped_files.py",
    "test_integrity.py",
    "test_frontier.py",
    "test_fuzz_inputs.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put :data:`LONG_MODULES` first, in that order (a stable sort: each module's own order is kept)."""
    rank = {name: position for position, name in enumerate(LONG_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_MODULES)))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before the workers start (xdist starts them after this hook), once: the package's bytecode written and
    numba's cache filled when it is empty for these sources (tests/kernel_warmup.py), instead of every early
    process compiling for itself.

    Bytecode: where ``PYTHONDONTWRITEBYTECODE`` is set (this machine, CI's), no import writes ``__pycache__``,
    so each of the suite's few hundred processes (workers, Snakemake and its jobs) compiled the package's
    modules from source, ≈ 0.3-0.4 s each; ``compileall`` writes them regardless, and Python still reads them
    (checked against each source's mtime and size, so an edited module is compiled afresh)."""
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without workers
        compileall.compile_dir(REPO / "src", quiet=1)
        session.config.get_terminal_writer().line(warm_numba_cache())


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than cores, so that a core is not idle while a worker waits."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def schema_path() -> Path:
    """schemas/config.schema.yaml."""
    return REPO / "schemas" / "config.schema.yaml"


def _built_once(tmp_path_factory, name: str, build) -> Path:
    """``name`` in the directory every worker of this run sees, built once for the whole run: the first
    worker that asks calls ``build(partial)`` (``partial`` a path of its own, renamed to ``name`` when
    complete) while the others wait on a lock, so that the workers do not build it each."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the workers' common directory
    target, partial = shared / name, shared / f"{name}.partial"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            shutil.rmtree(partial, ignore_errors=True)  # a directory left by an interrupted build
            partial.unlink(missing_ok=True)  # or a file
            build(partial)
            partial.rename(target)
    return target


def _smoke_run_in(directory: Path) -> None:
    directory.mkdir()
    smoke_run(directory)


@pytest.fixture(scope="session")
def smoke_dir(tmp_path_factory) -> Path:
    """A directory where the smoke workflow has run once, for the whole test run (:func:`_built_once`). Read
    only: a test that runs Snakemake on it for more than a dry run works on a copy
    (:func:`workflow_runs.copy_of_smoke_run`)."""
    return _built_once(tmp_path_factory, "smoke_run", _smoke_run_in)


@pytest.fixture(scope="session")
def fixture_evidence_file(tmp_path_factory) -> Path:
    """The evidence table of the shipped fixture (:func:`evidence_fixture.evidence_of_fixture`, ≈ 20 s),
    built once for the whole test run (:func:`_built_once`), pickled: every value and type as built."""

    def build(path: Path) -> None:
        evidence_fixture.evidence_of_fixture().to_pickle(path)

    return _built_once(tmp_path_factory, "fixture_evidence.pkl", build)


@pytest.fixture
def fixture_evidence(fixture_evidence_file) -> pd.DataFrame:
    """:func:`fixture_evidence_file`'s table, a copy of its own for each test."""
    return pd.read_pickle(fixture_evidence_file)  # noqa: S301 - written by this run
