"""What the workflow tests share: the repository's paths, its test configs, and Snakemake run on them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMOKE = REPO / "tests" / "config" / "smoke.yaml"
#: One long run (a few seconds) and a short one, snapshotted every 0.3 s (also the SLURM kill test's).
LONG_RUN_CONFIG = (REPO / "tests" / "config" / "long_run.yaml").read_text()
#: The smoke config's aggregate tables and what is drawn from them, bitwise equal whatever the job split or
#: executor: every run job of both kinds and the jobs that read them (not the searches, crossover and
#: evidence table, which read no run table). Targets for Snakemake: before any ``--configfile`` (nargs).
AGGREGATES = (
    "results/summary/smoke_exp3g.parquet",
    "results/summary/smoke_exp3g.exponents.parquet",
    "results/summary/smoke_cmdp.parquet",
    "results/summary/smoke_cmdp.exponents.parquet",
    "figures/exponents.csv",
    "figures/verdicts.csv",
)


def snakemake(
    *args: str, cwd: Path, check: bool = True, timeout: float = 600, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run Snakemake on the repository's Snakefile with the default profile's settings (``env``: extra
    environment variables)."""
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--profile",
        str(REPO / "profiles" / "default"),
        *args,
    ]
    environment = {**os.environ, **(env or {})}
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=environment)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}")
    return done


#: Where :func:`smoke_run` keeps what Snakemake printed (stdout, then stderr), inside the run's directory.
SMOKE_OUTPUT = "smoke_output.txt"


def smoke_run(directory: Path) -> None:
    done = snakemake("--configfile", str(SMOKE), cwd=directory)
    (directory / SMOKE_OUTPUT).write_text(done.stdout + done.stderr, encoding="utf-8")


def copy_of_smoke_run(smoke_dir: Path, target: Path) -> Path:
    """A copy of the shared smoke run (conftest's ``smoke_dir``) at ``target``, modification times kept, so
    that a test may run Snakemake on it; Snakemake's logs are left out (a dry run in the original may remove
    its own while the copy is made)."""
    shutil.copytree(smoke_dir, target, symlinks=True, ignore=shutil.ignore_patterns("log"))
    return target


def planned_jobs(output: str) -> list[tuple[str, str]]:
    """(rule, wildcards) of every job a dry run lists, the target rule ``all`` left out."""
    jobs = []
    for line in output.splitlines():
        if match := re.match(r"^\s*(?:local)?rule (\w+):$", line):
            jobs.append([match.group(1), ""])
        elif (match := re.match(r"^\s*wildcards: (.*)$", line)) and jobs:
            jobs[-1][1] = match.group(1)
    return sorted((rule, wildcards) for rule, wildcards in jobs if rule != "all")
