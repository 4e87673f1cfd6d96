"""Stored state a user can trust (issue 35, items 2 and 3): a flipped bit, a truncation, a planted or stray
table and a deleted seed batch are each found by `regretlab verify` and healed by the next `snakemake` (named
in one line, removed with what must be rebuilt with it, rebuilt equal to a clean run); the aggregate refuses
run tables that are not its run jobs' own, and a kept table nobody kept is never restored."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from workflow_runs import SMOKE, copy_of_smoke_run, snakemake

from regretlab.analysis.run_table_checks import run_table_problems
from regretlab.core import digests
from regretlab.core.io import write_text
from regretlab.core.snapshots import Snapshot, SnapshotPolicy
from regretlab.workflow.integrity import file_states

pytestmark = pytest.mark.workflow

EXP3G = "results/runs/smoke_exp3g/exp3g/part~0/paper"
THEOREM2 = "results/runs/smoke_exp3g/theorem2/part~0/paper"
CMDP = "results/runs/smoke_cmdp/pdgd_ops/part~0/paper"
T200 = f"{THEOREM2}/cliques_2x3/T~200"
KEPT = "results/snapshots/smoke_exp3g/theorem2/paper/cliques_2x3/T~200/seeds~0-1.0123456789abcdef.parquet"


@pytest.fixture(scope="module")
def clean(smoke_dir, tmp_path_factory) -> Path:
    """A clean smoke run of this module's own: a copy of the shared one, so that nothing run here (`verify`)
    can touch the run that other modules compare with."""
    return copy_of_smoke_run(smoke_dir, tmp_path_factory.mktemp("clean") / "run")


def verify(directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "regretlab.workflow.cli", "verify"],
        cwd=directory, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def summaries(directory: Path) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_parquet(p) for p in sorted((directory / "results" / "summary").glob("*.parquet"))}


def flip_a_bit(path: Path) -> None:
    """One bit of ``path`` flipped, its size and modification time kept."""
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def plant(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, target)


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def test_a_clean_run_verifies(clean):
    done = verify(clean)
    assert done.returncode == 0, done.stdout
    assert "0 corrupt" in done.stdout.splitlines()[-1] and "0 missing" in done.stdout.splitlines()[-1]
    assert {state.state for state in _states(clean)} <= {"ok", "unrecorded"}
    unrecorded = {str(s.path) for s in _states(clean) if s.state == "unrecorded"}
    assert all(p.startswith("results/benchmarks/") for p in unrecorded), unrecorded  # Snakemake's own files


def _states(directory: Path):
    cwd = Path.cwd()
    os.chdir(directory)
    try:
        return file_states()
    finally:
        os.chdir(cwd)


#: Each probe: what it does to a copy of the clean run, and the file `verify` and the heal must name.
PROBES = {
    "a flipped bit in a run table": (lambda d: flip_a_bit(d / EXP3G / "cliques_2x3/T~800/seeds~0-1.parquet"),
                                     f"{EXP3G}/cliques_2x3/T~800/seeds~0-1.parquet"),
    "a stray copy of a run table": (lambda d: plant(d / T200 / "seeds~0-1.parquet", d / T200 / "x.parquet"),
                                    f"{T200}/x.parquet"),
    "a truncated run table": (lambda d: truncate(d / EXP3G / "cliques_2x3/T~200/seeds~2-2.parquet"),
                              f"{EXP3G}/cliques_2x3/T~200/seeds~2-2.parquet"),
    "a deleted seed batch": (lambda d: (d / CMDP / "tiny/T~60/seeds~0-1.parquet").unlink(),
                             f"{CMDP}/tiny/T~60/seeds~0-1.parquet"),
    "a truncated instance": (lambda d: truncate(d / "results/instances/smoke_cmdp/tiny.json"),
                             "results/instances/smoke_cmdp/tiny.json"),
    "a truncated summary": (lambda d: truncate(d / "results/summary/smoke_exp3g.exponents.parquet"),
                            "results/summary/smoke_exp3g.exponents.parquet"),
    "a truncated figure": (lambda d: truncate(d / "figures/smoke_cmdp.png"), "figures/smoke_cmdp.png"),
    "a truncated evidence table": (lambda d: truncate(d / "figures/evidence.csv"), "figures/evidence.csv"),
    "a planted kept table": (lambda d: plant(d / T200 / "seeds~0-1.parquet", d / KEPT), KEPT),
}  # fmt: skip


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_verify_names_each_damaged_file(probe, clean, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(clean, copy, symlinks=True)
    damage, named = PROBES[probe]
    damage(copy)
    done = verify(copy)
    flagged = [line for line in done.stdout.splitlines() if line.startswith(("corrupt", "missing"))]
    assert len(flagged) == 1 and flagged[0].split()[1] == named, done.stdout
    assert done.returncode == (0 if flagged[0].startswith("missing") else 1)


def test_the_next_snakemake_heals_every_damage_at_once(clean, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(clean, copy, symlinks=True)
    for damage, _ in PROBES.values():
        damage(copy)
    done = snakemake("--configfile", str(SMOKE), cwd=copy)
    healed = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    for probe, (_, named) in PROBES.items():
        # A file whose run-job directory or summary another damage already removed is rebuilt with it.
        assert any(named in line or _removed_with(named, line) for line in healed), (probe, healed)
    assert verify(copy).returncode == 0
    after, before = summaries(copy), summaries(clean)
    assert list(after) == list(before)
    for name in before:
        pd.testing.assert_frame_equal(after[name], before[name], check_exact=True)
    assert (copy / "figures/evidence.csv").read_bytes() == (clean / "figures/evidence.csv").read_bytes()


def test_a_run_table_of_another_scale_deleted_by_a_rerun_rebuilds_nothing(clean, tmp_path):
    """The power scale's tables share the run-job directories: when Snakemake reruns a job for this config it
    deletes them, and their records (written, then deleted) would have the heal remove the directory at every
    run, forever. A missing table no run job of this config writes only has its record dropped, one line."""
    copy = tmp_path / "run"
    shutil.copytree(clean, copy, symlinks=True)
    other = f"{EXP3G}/cliques_2x3/T~4000000/seeds~0-3.parquet"
    record = copy / "results" / ".digests" / f"{other}.sha256"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(hashlib.sha256(b"a power-scale table").hexdigest() + "\n")
    done = snakemake("--configfile", str(SMOKE), "-n", cwd=copy)
    healed = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    assert healed == [f"regretlab: {other}: written, then deleted; no run job of this config writes it: its "
                      "record is dropped"], done.stderr  # fmt: skip
    assert "Nothing to be done" in done.stdout and (copy / EXP3G).is_dir() and not record.exists()
    assert verify(copy).returncode == 0


def _removed_with(named: str, line: str) -> bool:
    """Whether ``line`` removed the run-job directory or summary file holding ``named``."""
    removed = line.split("; removed", 1)[-1]
    return any(named.startswith(part.strip(" ,")) for part in removed.split(",") if part.strip(" ,"))


def test_the_aggregate_names_tables_that_are_not_its_run_jobs(clean, tmp_path, monkeypatch):
    copy = tmp_path / "run"
    shutil.copytree(clean, copy, symlinks=True)
    monkeypatch.chdir(copy)  # back to the worker's own directory after the test (tests read relative paths)
    tables = sorted(str(p.relative_to(copy)) for p in (copy / EXP3G).rglob("*.parquet"))
    assert run_table_problems(tables, tables) == []
    wrong = f"{EXP3G}/cliques_2x3/T~800/seeds~0-1.parquet"
    right = f"{EXP3G}/cliques_2x3/T~200/seeds~0-1.parquet"
    shutil.copy(right, wrong)  # another run's table under this run's name, its digest recorded anew
    Path(digests.record_path(wrong)).write_text(digests.file_digest(wrong) + "\n")
    assert run_table_problems(tables, tables) == [f"{wrong}: holds T [200], its path says 800"]
    flip_a_bit(Path(right))
    assert run_table_problems(tables[1:], tables)[0].startswith(f"{tables[0]}: missing")
    assert run_table_problems([*tables, "x.parquet"], tables)[0] == (
        "x.parquet: not a table of this regime's run jobs (a stray copy?)"
    )
    assert f"{right}: changed since it was written" in "\n".join(run_table_problems(tables, tables))


def test_a_kept_table_without_its_digest_is_never_restored(tmp_path, monkeypatch, caplog):
    monkeypatch.chdir(tmp_path)
    snapshot = Snapshot(SnapshotPolicy(), "r", "exp3g", "paper", "i", 100, [0, 1], {"c": 1})
    snapshot.kept.parent.mkdir(parents=True)
    snapshot.kept.write_bytes(b"PAR1 planted")  # no digest record: not kept by a run
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        assert snapshot.restore(tmp_path / "out.parquet") is False
    assert not snapshot.kept.exists() and not (tmp_path / "out.parquet").exists()
    assert f"ignored and removed kept table {snapshot.kept}" in caplog.text
    write_text(snapshot.kept, "kept by a run")  # recorded: restored as it is
    assert snapshot.restore(tmp_path / "out.parquet") is True
    flip_a_bit(snapshot.kept)  # changed since: refused
    assert snapshot.restore(tmp_path / "again.parquet") is False


def test_digests_are_recorded_only_for_the_workflows_folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_text("results/a.txt", "a")
    write_text("elsewhere/b.txt", "b")
    assert digests.recorded("results/a.txt") == hashlib.sha256(b"a").hexdigest()
    assert digests.record_path("elsewhere/b.txt") is None and not Path("results/.digests/elsewhere").exists()
    assert digests.recorded_files() == [Path("results/a.txt")]
    assert digests.check("results/a.txt") is None
    Path("results/a.txt").write_text("A")
    assert digests.check("results/a.txt").startswith("changed since it was written")
