"""Interrupted and split runs of the smoke workflow: what they leave is what an uninterrupted run writes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_runs import AGGREGATES, LONG_RUN_CONFIG, REPO, SMOKE, snakemake

from regretlab.workflow.config import validate_config

pytestmark = pytest.mark.workflow


def _run_files(directory: Path) -> set[Path]:
    """The run tables under ``results/runs``, read while Snakemake works there: ``os.walk`` skips a folder
    that vanishes mid-walk (a rerun removes an interrupted job's ``part~k`` output first), where
    ``Path.glob`` raised FileNotFoundError."""
    return {
        Path(folder) / name
        for folder, _, names in os.walk(directory / "results" / "runs")
        for name in names
        if name.endswith(".parquet")
    }


#: job_minutes tiny: every (instance, T, seed) of the smoke config is its own run job (16 instead of 3), its
#: own run table (seed batches cut to single seeds), as a run of hours is cut at the paper scale.
SPLIT = ("--config", "job_minutes=1e-6")


def _interrupt(directory: Path, sig: signal.Signals) -> None:
    """Start the split smoke run (:data:`SPLIT`) of :data:`AGGREGATES` (every run job of both kinds and the
    jobs that read them; not the searches, crossover and evidence table, which read no run) on one core, and
    send ``sig`` to it once a run file exists that was not there before it started."""
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--profile",
        str(REPO / "profiles" / "default"),
        "--cores",
        "1",
        *AGGREGATES,
        "--configfile",
        str(SMOKE),
        *SPLIT,
    ]
    before = _run_files(directory)
    process = subprocess.Popen(
        cmd,
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C as in a terminal
    )
    deadline = time.monotonic() + 120
    try:
        while not _run_files(directory) - before:
            assert process.poll() is None, f"the run finished before it could be sent {sig.name}"
            assert time.monotonic() < deadline, "no new run file appeared within 120 s"
            time.sleep(0.05)
        os.killpg(process.pid, sig)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _complete_files(directory: Path) -> None:
    assert not [p for p in directory.rglob("*.tmp")], "a temporary file was left behind"
    for run in (directory / "results" / "runs").rglob("*.parquet"):
        pq.read_table(run)  # every run file is complete and readable


def test_an_interrupted_split_run_resumes_with_complete_files_and_the_unsplit_tables(smoke_dir, tmp_path):
    """The smoke run split into one run job per (instance, T, seed) (:data:`SPLIT`), interrupted twice: Ctrl-C
    (SIGINT) once the first run file exists, and what is left is complete; then the same command again,
    killed hard (SIGKILL) once it has written another run file. After ``--unlock`` (docs/getting-started.md)
    the command finishes the run: every file complete, 16 run jobs with a single-seed table each, and the
    aggregates are those of the suite's uninterrupted, unsplit run (the aggregates read every table). One run
    for the three properties."""
    _interrupt(tmp_path, signal.SIGINT)
    _complete_files(tmp_path)
    _interrupt(tmp_path, signal.SIGKILL)
    snakemake("--configfile", str(SMOKE), "--unlock", cwd=tmp_path)
    snakemake(*AGGREGATES, "--configfile", str(SMOKE), *SPLIT, cwd=tmp_path)
    _complete_files(tmp_path)
    parts = sorted(
        p.relative_to(tmp_path / "results/runs") for p in (tmp_path / "results/runs").glob("*/*/*")
    )
    assert len(parts) == 16 and {p.name for p in parts} >= {"part~0", "part~5"}, parts
    tables = list((tmp_path / "results/runs").rglob("*.parquet"))
    assert len(tables) == 16 and all(re.fullmatch(r"seeds~(\d+)-\1\.parquet", t.name) for t in tables)
    for name in AGGREGATES:
        assert (tmp_path / name).read_bytes() == (smoke_dir / name).read_bytes(), name


def test_a_run_killed_mid_way_resumes_from_its_snapshot(tmp_path):
    """SIGKILL to the run job (and Snakemake) once the long run has snapshotted; after `--unlock`, the rerun
    restores the job's first run (T = 1000, finished before the kill: the same file, not run again), resumes
    the long run from its snapshot and writes the rows of an uninterrupted run; no snapshot or kept table is
    left."""
    from regretlab.bandits import instance as bandit_instance
    from regretlab.bandits.simulate import run_seeds
    from regretlab.core.seeding import job_seed_sequence

    config_path = tmp_path / "long.yaml"
    config_path.write_text(LONG_RUN_CONFIG)
    target = "results/runs/long/exp3g/part~0"
    profile = str(REPO / "profiles" / "default")
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--profile", profile,
           "--configfile", str(config_path), "--cores", "1", target]  # fmt: skip
    process = subprocess.Popen(
        cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    snapshots = tmp_path / "results" / "snapshots"
    deadline = time.monotonic() + 300
    try:
        while not list(snapshots.rglob("T~20000000/*.snapshot.npz")):
            assert process.poll() is None, "the run finished before it was snapshotted"
            assert time.monotonic() < deadline, "no snapshot appeared within 300 s"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert not (tmp_path / target / "paper/cliques_2x3/T~20000000").exists()
    short = "paper/cliques_2x3/T~1000/seeds~0-0.parquet"
    written = (tmp_path / target / short).read_bytes()  # finished before the kill, and kept
    assert list(snapshots.rglob("T~1000/*.parquet")), "the finished run's table was not kept"
    snakemake("--configfile", str(config_path), "--unlock", cwd=tmp_path)
    snakemake(target, "--configfile", str(config_path), cwd=tmp_path)
    log = (tmp_path / "logs/runs/long/exp3g/part~0.log").read_text()
    assert "resuming from snapshot" in log, log
    assert f"restored the finished table {target}/{short}" in log, log
    assert (tmp_path / target / short).read_bytes() == written, "the first run was run again"
    assert not list(snapshots.rglob("*.snapshot.npz")), "a finished run left its snapshot"
    assert not list(snapshots.rglob("*.parquet")), "the completed job left its kept tables"

    spec = validate_config(yaml.safe_load(LONG_RUN_CONFIG), REPO / "schemas" / "config.schema.yaml")
    entry = spec["regimes"]["long"]["instances"]["cliques_2x3"]
    instance = bandit_instance.build_instance(
        entry, np.random.default_rng(job_seed_sequence("long", "cliques_2x3", "instance"))
    )
    uninterrupted, _ = run_seeds("long", "cliques_2x3", instance, "exp3g", "paper", 20_000_000, [0])
    resumed = pd.read_parquet(tmp_path / target / "paper/cliques_2x3/T~20000000/seeds~0-0.parquet")
    pd.testing.assert_frame_equal(resumed, uninterrupted, check_exact=True)
