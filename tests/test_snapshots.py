"""Snapshots of long runs (regretlab.core.snapshots): a run killed after any snapshot and rerun resumes from
it and ends with exactly the rows of an uninterrupted run, for every bandit learner and both CMDP learners."""

from __future__ import annotations

import itertools
import json
import logging
import shutil
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits import simulate as bandit_simulate
from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.cmdp import runs as cmdp_runs
from regretlab.core import run_sets
from regretlab.core.io import write_json
from regretlab.core.seeding import job_seed_sequence
from regretlab.core.snapshots import Snapshot, SnapshotPolicy
from regretlab.workflow.config import validate_config

#: One instance per graph class the bandit learners need (paper 001 §3, §4), and Theorem 5's environment 2
#: (whose calibration runs a snapshot keeps), all small: 3 × 8192-round chunks plus the checkpoints.
BANDIT_SPECS = {
    "strongly_observable": {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3]},
        "losses": {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2},
    },
    "directed_complete_bipartite": {
        "graph": {"family": "directed_complete_bipartite", "n_self_loop": 2, "n_no_self_loop": 4},
        "losses": {
            "kind": "bernoulli_parts",
            "best_in": "S",
            "best_mean": 0.1,
            "S_mean": 0.5,
            "S_bar_mean": 0.5,
        },
    },
    "weakly_observable": {
        "graph": {"family": "weakly_observable_stars", "leaf_counts": [2, 2]},
        "losses": {
            "kind": "bernoulli_parts",
            "best_in": "S",
            "best_mean": 0.1,
            "S_mean": 0.2,
            "S_bar_mean": 0.7,
        },
    },
    "theorem5": {
        "graph": {"family": "weakly_observable_stars", "leaf_counts": [2, 2]},
        "losses": {"kind": "theorem5", "b": 0.5, "environment": 2, "calibration_seeds": 2},
    },
}
BANDIT_T = 20_000
#: A small binding CMDP with adversarial rewards (its other fields get the schema's defaults, cmdp_spec).
CMDP_SPEC = {
    "n_layers": 2, "states_per_layer": 2, "n_actions": 2, "m": 1, "rho": 1.2, "constraint_spread": 0.1,
    "rewards": "adversarial", "constraints": "stochastic",
}  # fmt: skip
CMDP_T = 4_500
SEEDS = [0, 1]
REPO = Path(__file__).resolve().parents[1]


class Killed(Exception):
    """What the test raises in place of SIGKILL, right after a snapshot is written."""


def policy(root) -> SnapshotPolicy:
    """A snapshot at every chunk end: the clock advances one second per reading, the interval is one."""
    return SnapshotPolicy(root=root, interval_s=1.0, clock=itertools.count().__next__)


def graph_class(algorithm: str) -> str:
    found = ALGORITHMS[algorithm].graph_class
    return "strongly_observable" if found in ("self_aware", "any_observable") else found


def bandit_run(algorithm: str, spec_name: str, snapshot: Snapshot | None):
    spec = BANDIT_SPECS[spec_name]
    rng = np.random.default_rng(job_seed_sequence("snap", spec_name, "instance"))
    instance = bandit_instance.build_instance(spec, rng)
    runs, info = bandit_simulate.run_seeds(
        "snap", spec_name, instance, algorithm, "paper", BANDIT_T, SEEDS, snapshot=snapshot
    )
    return runs, info["learners"]


@cache
def cmdp_spec() -> dict:
    """:data:`CMDP_SPEC` with the schema's defaults filled in."""
    regime = {
        "kind": "cmdp", "paper": "000", "theorem": "snapshots", "x": "T", "instances": {"c": dict(CMDP_SPEC)},
        "algorithms": ["pdgd_ops"], "bounds": {"pdgd_ops": ["theorem5_regret"]},
        "scales": {scale: {"horizons": [10, CMDP_T], "seeds": 2} for scale in ("quick", "paper")},
    }  # fmt: skip
    config = validate_config({"regimes": {"snap": regime}}, REPO / "schemas" / "config.schema.yaml")
    return config["regimes"]["snap"]["instances"]["c"]


def cmdp_run(algorithm: str, snapshot: Snapshot | None):
    instance = cmdp_runs.build_instance(
        cmdp_spec(), np.random.default_rng(job_seed_sequence("snap", "c", "i"))
    )
    runs, info = cmdp_runs.run_seeds("snap", "c", instance, algorithm, "tuned", CMDP_T, SEEDS, snapshot)
    return runs, [
        {k: v for k, v in run.items() if k not in ("wall_time_s", "us_per_episode")} for run in info["runs"]
    ]


def killed_and_resumed(monkeypatch, tmp_path, run, kill_at: int, identity: tuple):
    """``run(snapshot)`` killed right after its ``kill_at``-th snapshot, then rerun to the end."""
    save = Snapshot.save
    saves = itertools.count(1)

    def save_then_die(self, state):
        save(self, state)
        if next(saves) == kill_at:
            raise Killed

    make = lambda: Snapshot(policy(tmp_path), *identity, {"regime": "config"})  # noqa: E731
    with monkeypatch.context() as patch:
        patch.setattr(Snapshot, "save", save_then_die)
        with pytest.raises(Killed):
            run(make())
    snapshot = make()
    assert snapshot.path.is_file(), "the kill left no snapshot"
    return run(snapshot), snapshot


def assert_same(resumed, uninterrupted):
    (runs, info), (expected_runs, expected_info) = resumed, uninterrupted
    pd.testing.assert_frame_equal(runs, expected_runs, check_exact=True)
    # As JSON, where NaN (a CMDP run's metadata has some) equals NaN.
    assert json.dumps(info, sort_keys=True, default=str) == json.dumps(
        expected_info, sort_keys=True, default=str
    )


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_a_killed_bandit_run_resumes_to_the_same_rows(algorithm, monkeypatch, tmp_path, caplog):
    spec_name = graph_class(algorithm)
    uninterrupted = bandit_run(algorithm, spec_name, None)
    # Killed in the second seed: the first seed's rows come from the snapshot, the second resumes mid-run.
    chunks = len(np.union1d(np.arange(8192, BANDIT_T, 8192), bandit_simulate.log_checkpoints(BANDIT_T)))
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        resumed, snapshot = killed_and_resumed(
            monkeypatch,
            tmp_path,
            lambda s: bandit_run(algorithm, spec_name, s),
            chunks + chunks // 2,
            ("snap", algorithm, "paper", spec_name, BANDIT_T, SEEDS),
        )
    assert "resuming from snapshot" in caplog.text
    assert_same(resumed, uninterrupted)


def test_theorem5_calibration_is_kept_in_the_snapshot(monkeypatch, tmp_path):
    uninterrupted = bandit_run("exp3g_weak", "theorem5", None)
    resumed, _ = killed_and_resumed(
        monkeypatch,
        tmp_path,
        lambda s: bandit_run("exp3g_weak", "theorem5", s),
        2,
        ("snap", "exp3g_weak", "paper", "theorem5", BANDIT_T, SEEDS),
    )
    assert_same(resumed, uninterrupted)


@pytest.mark.parametrize("kill_at", [1, 3, 6])
@pytest.mark.parametrize("algorithm", ["pdgd_ops", "uc_o_gdps"])
def test_a_killed_cmdp_run_resumes_to_the_same_rows(algorithm, kill_at, monkeypatch, tmp_path):
    uninterrupted = cmdp_run(algorithm, None)
    resumed, _ = killed_and_resumed(
        monkeypatch,
        tmp_path,
        lambda s: cmdp_run(algorithm, s),
        kill_at,
        ("snap", algorithm, "tuned", "c", CMDP_T, SEEDS),
    )
    assert_same(resumed, uninterrupted)


def test_a_snapshot_of_another_config_is_never_resumed(tmp_path):
    identity = ("snap", "exp3g", "paper", "i", 100, [0, 1])
    old = Snapshot(policy(tmp_path), *identity, {"horizons": [100]})
    old.save({"done": {}, "extra": None, "current": None})
    new = Snapshot(policy(tmp_path), *identity, {"horizons": [100, 200]})
    assert new.path != old.path and not old.path.exists()
    assert new.load() is None


def test_the_snapshot_is_removed_when_the_table_is_written(monkeypatch, tmp_path):
    spec = BANDIT_SPECS["strongly_observable"]
    instance = bandit_instance.build_instance(spec, np.random.default_rng(0))
    monkeypatch.chdir(tmp_path)
    run_sets.run_and_write(
        bandit_simulate,
        "snap",
        "i",
        instance,
        "exp3g",
        "paper",
        BANDIT_T,
        SEEDS,
        {},
        "run.parquet",
        policy(tmp_path / "snaps"),
    )
    assert (tmp_path / "run.parquet").is_file()
    assert not list((tmp_path / "snaps").rglob("*.snapshot.npz")), "a written table's snapshot was left"
    assert list((tmp_path / "snaps").rglob("T~*")), "no snapshot was ever taken"


# ---- A run job of several runs: its finished tables are kept until the job completes, so a job killed in
# its second run restores the first (the same file) and resumes the second from its snapshot.

#: Two runs of one job: the first finished before the kill, the second killed mid-way (after a snapshot).
JOB_HORIZONS = {"bandit": (3_000, BANDIT_T), "cmdp": (1_500, CMDP_T)}


def job_of_two_runs(kind: str, tmp_path: Path):
    """``play(directory, policy)`` playing the two runs of :data:`JOB_HORIZONS` as a run job does, and the
    module whose ``run_seeds`` plays a run."""
    instances = tmp_path / "instances"
    if kind == "bandit":
        spec = BANDIT_SPECS["strongly_observable"]
        instance = bandit_instance.build_instance(spec, np.random.default_rng(0)).to_dict()
        module, algorithm, constants = bandit_simulate, "exp3g", "paper"
        config = {"kind": "bandit", "instances": {"i": spec}}
    else:
        instance = cmdp_runs.build_instance(cmdp_spec(), np.random.default_rng(0))
        module, algorithm, constants = cmdp_runs, "pdgd_ops", "tuned"
        config = {"kind": "cmdp", "instances": {"i": cmdp_spec()}}
    write_json(instances / "i.json", instance)
    runs = [
        {"instance": "i", "T": T, "seeds": SEEDS, "file": f"i/T~{T}/seeds~0-1.parquet"}
        for T in JOB_HORIZONS[kind]
    ]

    def play(directory: Path, snapshots: SnapshotPolicy) -> None:
        run_sets.run_set_and_write(
            module, "snap", algorithm, constants, {"i": str(instances / "i.json")}, runs, config,
            str(directory), logging.getLogger("test"), snapshots,
        )  # fmt: skip

    return play, module


@pytest.mark.parametrize("kind", ["bandit", "cmdp"])
def test_a_job_killed_in_its_second_run_restores_the_first_and_resumes_the_second(
    kind, monkeypatch, tmp_path, caplog
):
    play, module = job_of_two_runs(kind, tmp_path)
    first, second = (f"i/T~{T}/seeds~0-1.parquet" for T in JOB_HORIZONS[kind])
    play(tmp_path / "uninterrupted", policy(tmp_path / "snapshots_uninterrupted"))

    job, snapshots = tmp_path / "job", tmp_path / "snapshots"
    save = Snapshot.save

    def save_then_die(self, state):  # SIGKILL right after the second run's first snapshot
        save(self, state)
        if f"T~{JOB_HORIZONS[kind][1]}" in str(self.path):
            raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(Snapshot, "save", save_then_die)
        with pytest.raises(Killed):
            play(job, policy(snapshots))
    written = (job / first).read_bytes()
    assert list(snapshots.rglob("*.parquet")) and list(snapshots.rglob("*.snapshot.npz"))
    shutil.rmtree(job)  # what Snakemake does to a killed job's output directory

    played = []
    run_seeds = module.run_seeds

    def counted(*args, **kwargs):
        played.append(args[5])  # the horizon
        return run_seeds(*args, **kwargs)

    monkeypatch.setattr(module, "run_seeds", counted)
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        play(job, policy(snapshots))
    assert played == [JOB_HORIZONS[kind][1]], "the first run was played again instead of restored"
    assert "restored the finished table" in caplog.text and "resuming from snapshot" in caplog.text
    assert (job / first).read_bytes() == written, "the restored table is not the file the killed job wrote"
    for name in (first, second):
        expected = pd.read_parquet(tmp_path / "uninterrupted" / name)
        pd.testing.assert_frame_equal(pd.read_parquet(job / name), expected, check_exact=True)
    assert not [p for p in snapshots.rglob("*") if p.is_file()], "the completed job left kept files"


def test_a_kept_table_of_another_config_is_deleted_not_restored(tmp_path):
    identity = ("snap", "exp3g", "paper", "i", 100, [0, 1])
    table = tmp_path / "table.parquet"
    table.write_bytes(b"a table")
    old = Snapshot(policy(tmp_path), *identity, {"horizons": [100]})
    old.finish(table)
    assert old.kept.read_bytes() == b"a table" and not old.path.exists()
    new = Snapshot(policy(tmp_path), *identity, {"horizons": [100, 200]})
    assert not old.kept.exists()
    assert not new.restore(tmp_path / "restored.parquet") and not (tmp_path / "restored.parquet").exists()
