"""The power scale and its archive (regretlab.workflow.archive, issue 34 items 3 and 5): one job per seed,
only the grid's instances and presets; an archive is fresh only while its tables, instances and code are
today's, and says why not otherwise; the default run aggregates a fresh one as a regime; the shipped archive
is what its kernel computes today (its first 10⁵ episodes rerun bit for bit)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from shipped_config import shipped_config

from regretlab.analysis.evidence.markdown import archive_section
from regretlab.cmdp import runs as cmdp_pipeline
from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.instance import CMDP
from regretlab.cmdp.instance_builder import write_instance_file
from regretlab.cmdp.simulate import RECORD_COLUMNS, simulate
from regretlab.core.io import read_json, read_parquet_metadata
from regretlab.core.run_sets import run_and_write
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.registry.kinds import KINDS
from regretlab.workflow import archive
from regretlab.workflow.config import ConfigError, run_config, validate_config
from regretlab.workflow.cost import estimate, runtime_minutes
from regretlab.workflow.jobs import run_parts, runs_of_part

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "schemas" / "config.schema.yaml"
SHIPPED = shipped_config()
#: A one-layer regime with a power grid of two seeds at T = 3000 (seconds, not hours).
ENTRY = {
    "kind": "cmdp",
    "paper": "000",
    "theorem": "Theorem 5 on a one-layer CMDP",
    "x": "T",
    "instances": {
        "one_layer": {"family": "explicit", "mdp": {"reward": [[1, 0, 0]], "constraint": [[[-1, 1, 1]]]},
                      "rewards": "stochastic", "constraints": "stochastic"},
        "binding": {"family": "explicit", "mdp": {"reward": [[0, 1, 0]], "constraint": [[[-1, 0.25, 1]]]},
                    "rewards": "stochastic", "constraints": "stochastic"},
    },  # fmt: skip
    "algorithms": ["pdgd_ops"],
    "constants": ["paper", "tuned"],
    "bounds": {"pdgd_ops": {"paper": ["theorem5_regret"], "tuned": ["theorem5_regret_rate"]}},
    "scales": {
        "quick": {"horizons": [1000, 2000], "seeds": 2},
        "paper": {"horizons": [1000, 2000], "seeds": 2},
        "power": {"horizons": [3000], "seeds": 2, "instances": ["one_layer"], "constants": ["paper"]},
    },
}


def config(scale: str = "power", **regimes) -> dict:
    return validate_config({"scale": scale, "regimes": {"tiny": copy.deepcopy(ENTRY), **regimes}}, SCHEMA)


def test_the_power_scale_runs_one_job_per_seed_on_the_grids_instances_and_presets_only():
    without = {**ENTRY, "scales": {k: ENTRY["scales"][k] for k in ("quick", "paper")}}
    cfg = config(other=copy.deepcopy(without))
    parts = run_parts(cfg, "tiny")
    assert [(p.algorithm, p.part) for p in parts] == [("pdgd_ops", 0), ("pdgd_ops", 1)]
    runs = [runs_of_part(cfg, p) for p in parts]
    assert [[(r.constants, r.instance, r.T, r.seeds) for r in group] for group in runs] == [
        [("paper", "one_layer", 3000, (0,))], [("paper", "one_layer", 3000, (1,))]
    ]
    # Only the regimes with a power grid run (and are estimated) at the power scale.
    assert [e.regime for e in estimate(cfg)] == ["tiny"]
    (quick,) = run_parts(config("quick"), "tiny")  # quick: one job for both presets and both instances
    assert [r.constants for r in runs_of_part(config("quick"), quick)] == ["paper"] * 4 + ["tuned"] * 4


def test_a_power_grid_names_instances_and_presets_of_its_regime_and_some_regime_has_one():
    entry = copy.deepcopy(ENTRY)
    entry["scales"]["power"]["instances"] = ["one_layr"]
    entry["scales"]["power"]["constants"] = ["tuned", "oracle"]
    with pytest.raises(ConfigError) as error:
        validate_config({"scale": "quick", "regimes": {"tiny": entry}}, SCHEMA)
    lines = str(error.value).splitlines()
    for field, unknown in (("instances", "['one_layr']"), ("constants", "['oracle']")):
        assert any(f"regimes.tiny.scales.power.{field}: {unknown} not among" in line for line in lines), lines
    del entry["scales"]["power"]
    with pytest.raises(ConfigError, match="config field scale: is 'power', and no regime has a power grid"):
        validate_config({"scale": "power", "regimes": {"tiny": entry}}, SCHEMA)


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> tuple[Path, Path]:
    """The tiny regime's power runs, written as the workflow's run jobs write them, then archived."""
    root = tmp_path_factory.mktemp("power")
    cfg = config()
    instances = {}
    for name in ENTRY["instances"]:
        path = root / "results" / "instances" / "tiny" / f"{name}.json"
        write_instance_file("tiny", name, cfg["regimes"]["tiny"]["instances"][name], str(path))
        instances[name] = path
    tables = []
    for part in run_parts(cfg, "tiny"):
        for run in runs_of_part(cfg, part):
            table = root / "results/runs/tiny" / run.algorithm / f"part~{part.part}" / run.constants
            table = table / run.instance / f"T~{run.T}" / f"seeds~{run.seeds[0]}-{run.seeds[-1]}.parquet"
            run_and_write(
                cmdp_pipeline, "tiny", run.instance, read_json(instances[run.instance]), run.algorithm,
                run.constants, run.T, list(run.seeds), run_config(cfg["regimes"]["tiny"]), str(table),
            )  # fmt: skip
            tables.append(str(table))
    directory = root / "archive" / "power" / "tiny"
    directory.parent.mkdir(parents=True)
    archive.write_archive("tiny", cfg["regimes"]["tiny"], tables, directory)
    return root, directory


def test_an_archive_records_its_tables_seeds_code_and_machine_and_is_fresh(archived):
    _, directory = archived
    provenance = read_json(directory / archive.PROVENANCE)
    assert sorted(provenance["tables"]) == [
        f"pdgd_ops/paper/one_layer/T~3000/seeds~{seed}-{seed}.parquet" for seed in (0, 1)
    ]
    assert provenance["seeds"] == [0, 1] and provenance["grid"]["horizons"] == [3000]
    assert provenance["code"] == {"pdgd_ops": archive.run_code_digest("cmdp", "pdgd_ops")}
    walls = {name: read_parquet_metadata(directory / name)["wall_time_s"] for name in provenance["tables"]}
    assert provenance["run_seconds"] == pytest.approx(walls, abs=1e-3)  # each run's own wall time
    machine = provenance["machine"]
    assert machine["cpus"] >= 1 and machine["numpy"] == np.__version__
    assert isinstance(machine["numpy_log_target"], str) and machine["numpy_log_target"]  # e.g. X86_V3 (AVX2)
    assert machine["numba_svml"] is False  # this package's environment has no Intel runtime
    assert provenance["command"] == "snakemake --config scale=power"  # what made the tables (the default)
    status = archive.archive_status(directory, config()["regimes"]["tiny"])
    assert status["fresh"] and status["reasons"] == []
    # What `regretlab estimate --scale power` shows beside its prediction: the regimes with an archive only.
    other = {**copy.deepcopy(ENTRY), "theorem": "not archived"}
    assert archive.archived_run_seconds(config(other=other), directory.parent) == {
        "tiny": list(provenance["run_seconds"].values())
    }


def _stale_reasons(directory: Path, entry: dict | None = None) -> list[str]:
    status = archive.archive_status(directory, entry or config()["regimes"]["tiny"])
    assert not status["fresh"] and status["refresh"] == "snakemake --config scale=power"
    return status["reasons"]


def test_an_archive_is_stale_when_a_table_changes_or_appears(archived, tmp_path):
    _, original = archived
    directory = tmp_path / "tiny"
    subprocess.run(["cp", "-r", str(original), str(directory)], check=True)
    table = directory / "pdgd_ops/paper/one_layer/T~3000/seeds~0-0.parquet"
    data = bytearray(table.read_bytes())
    data[len(data) // 2] ^= 1
    table.write_bytes(bytes(data))
    assert _stale_reasons(directory) == ["pdgd_ops/paper/one_layer/T~3000/seeds~0-0.parquet changed since it "
                                         "was archived"]  # fmt: skip
    (directory / "planted.parquet").write_bytes(b"x")
    assert "its tables are not the ones recorded (extra or missing: ['planted.parquet'])" in _stale_reasons(
        directory
    )


def test_an_archive_is_stale_when_its_instances_or_its_code_change(archived, monkeypatch):
    _, directory = archived
    entry = config()["regimes"]["tiny"]
    entry["instances"]["one_layer"]["mdp"]["reward"] = [[0.9, 0, 0]]
    differ = "the regime's instances in the config differ from those archived"
    assert _stale_reasons(directory, entry) == [differ]
    monkeypatch.setattr(archive, "run_code_digest", lambda kind, algorithm: "0" * 16)
    recorded = read_json(directory / archive.PROVENANCE)["code"]["pdgd_ops"]
    assert _stale_reasons(directory) == [f"the code pdgd_ops runs has changed since (digest {recorded})"]


def test_the_default_run_aggregates_an_archive_as_a_regime_named_with_its_scale(archived, tmp_path):
    root, directory = archived
    outputs = {key: str(tmp_path / name) for key, name in (
        ("summary", "s.parquet"), ("exponents", "e.parquet"), ("status", "st.json"), ("png", "f.png"),
        ("pdf", "f.pdf"))}  # fmt: skip
    paths = sorted(str(p) for p in (root / "results/instances/tiny").glob("*.json"))
    status = archive.summarise_archive("tiny", config()["regimes"]["tiny"], directory, paths, 200, outputs)
    assert status["fresh"] and read_json(outputs["status"]) == json.loads(json.dumps(status))
    summary = pd.read_parquet(outputs["summary"])
    assert set(summary["regime"]) == {"tiny~power"} and set(summary["T"]) == {3000}
    assert set(summary["bound_name"]) == {"theorem5_regret"}
    assert read_parquet_metadata(outputs["summary"])["archive"]["fresh"] is True
    assert Path(outputs["png"]).stat().st_size > 0


def test_the_default_run_wants_an_archives_figures(archived, tmp_path):
    """A drawn archive's figure is a target of the default run: deleted (or removed by the integrity check as
    corrupt) it is redrawn, although the archive's summary, also a target, is up to date."""
    root, _ = archived
    cfg = tmp_path / "quick.yaml"
    cfg.write_text(yaml.safe_dump({"searches": [], "power_searches": [], "regimes": {"tiny": ENTRY}}))
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--snakefile", str(REPO / "Snakefile"), "--configfile",
         str(cfg), "--cores", "1", "all"],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    wanted = re.search(r"^rule all:\n\s+input: (.*)$", out, flags=re.M).group(1).split(", ")
    archived = {"figures/tiny~power.png", "figures/tiny~power.pdf", "results/summary/tiny~power.parquet"}
    assert archived <= set(wanted)


def test_the_evidence_says_which_archives_count_and_how_to_refresh_a_stale_one(archived):
    _, directory = archived
    fresh = archive.archive_status(directory, config()["regimes"]["tiny"])
    stale = {**fresh, "fresh": False, "reasons": ["the code pdgd_ops runs has changed since (digest x)"]}
    text = archive_section({"tiny": fresh, "other": stale}).splitlines()
    assert text[0].startswith("- [other~power](other~power.png): **stale, not counted**: the code pdgd_ops")
    assert "refresh it with `snakemake --config scale=power`" in text[0]
    assert text[1].startswith("- [tiny~power](tiny~power.png): **counted** (T = 3e3, seeds [0, 1], ")
    timed = {**fresh, "provenance": {**fresh["provenance"], "run_seconds": {"b": 7290.0, "a": 90.0}}}
    # The runs' own wall times (not CPU time: a loaded machine stretches them), shortest to longest.
    assert ", 2 runs of 1.5 min–2.02 h wall time (2.05 h in all) on " in archive_section({"tiny": timed})
    # The machine: its CPU and numpy's log loop where recorded (since 2026-12-06), else the processor's name.
    machine = {"processor": "x86_64", "cpu": "Some CPU", "cpus": 2, "numpy_log_target": "X86_V4"}
    recorded = {**fresh, "provenance": {**fresh["provenance"], "machine": machine}}
    assert " on Some CPU (2 cores, numpy's log on X86_V4), " in archive_section({"tiny": recorded})
    older = {**fresh, "provenance": {**fresh["provenance"], "machine": {"processor": "x86_64", "cpus": 2}}}
    assert " on x86_64 (2 cores), " in archive_section({"tiny": older})


def test_the_power_scale_targets_the_archive_only(tmp_path):
    cfg = tmp_path / "power.yaml"
    cfg.write_text(yaml.safe_dump({"scale": "power", "searches": [], "regimes": {"tiny": ENTRY}}))
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--snakefile", str(REPO / "Snakefile"), "--configfile",
         str(cfg), "--cores", "1", "--quiet", "rules"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", out, flags=re.M))
    assert counts == {"all": "1", "cmdp_instances_tiny": "1", "cmdp_run": "2", "power_archive": "1",
                      "total": "5"}, out  # fmt: skip


SHIPPED_ARCHIVE = sorted((REPO / "archive" / "power").glob("*/provenance.json"))
#: The episodes of a CMDP table rerun (its first checkpoints up to here); a bandit table is rerun whole.
PREFIX = 100_000


def _built(regime: str, instance: str):
    spec = SHIPPED["regimes"][regime]
    pipeline = KINDS[spec["kind"]].run_pipeline()
    rng = np.random.default_rng(job_seed_sequence(regime, instance, "instance"))
    built = pipeline.build_instance(spec["instances"][instance], rng)
    return pipeline, built


def _cmdp_prefix(regime, instance, algorithm, constants, T, seed, rows):
    """The first episodes of a CMDP run, played by the same kernel with the same seed, to PREFIX."""
    _, built = _built(regime, instance)
    cmdp, environment = CMDP.from_dict(built["cmdp"]), CMDPEnvironment.from_dict(built["environment"])
    sizes, delta = (cmdp.layer_sizes, cmdp.n_actions, cmdp.m), built["numbers"]["delta"]
    learner = make_learner(algorithm, *sizes, T, delta, constants, rho=cmdp.rho)
    early = rows[rows["t"] <= PREFIX].reset_index(drop=True)
    rngs = environment_and_learner_rngs(job_seed_sequence(regime, instance, seed))
    frame, _ = simulate(learner, cmdp, environment, T, *rngs, checkpoints=early["t"].to_numpy())
    columns = ["t", *RECORD_COLUMNS]
    return frame[columns], early[columns]


def _bandit_whole(regime, instance, algorithm, constants, T, seed, rows):
    """A bandit run rerun whole through the kind's pipeline (its learner tunes on the whole horizon)."""
    pipeline, built = _built(regime, instance)
    table, _ = pipeline.run_seeds(regime, instance, built, algorithm, constants, T, [seed])
    return table, rows


@pytest.mark.parametrize("provenance_path", SHIPPED_ARCHIVE, ids=lambda p: p.parent.name)
def test_the_shipped_archive_is_fresh_and_reruns_bit_for_bit(provenance_path):
    """Every table of a CMDP archive to its PREFIX-th episode; a bandit archive's first seed of each learner
    whole. The archive holds four seeds at least."""
    directory = provenance_path.parent
    regime = directory.name
    entry = SHIPPED["regimes"][regime]
    assert archive.archive_status(directory, entry)["fresh"]
    provenance = read_json(provenance_path)
    assert len(provenance["seeds"]) >= 4
    rerun = _cmdp_prefix if entry["kind"] == "cmdp" else _bandit_whole
    for name in provenance["tables"]:
        algorithm, constants, instance, horizon, _ = Path(name).parts
        rows = pd.read_parquet(directory / name)
        (seed,) = rows["seed"].unique()
        if entry["kind"] != "cmdp" and seed != provenance["seeds"][0]:
            continue
        again, archived_rows = rerun(
            regime, instance, algorithm, constants, int(horizon.removeprefix("T~")), int(seed), rows
        )
        try:
            pd.testing.assert_frame_equal(again, archived_rows, check_exact=True)
        except AssertionError as difference:  # say where a machine's numpy can explain it
            made_on = provenance["machine"].get("numpy_log_target") or "an unrecorded instruction set"
            here = archive.numpy_log_target()
            hint = (
                f"\narchived where numpy's float64 log ran on {made_on}, rerun on {here}: a CPU-dependent "
                "numpy call in the run's code changes bits (test_machine_independent.py should find it)"
            )
            raise AssertionError(f"{name}: {difference}{hint if made_on != here else ''}") from difference


def test_the_power_scales_requests_held_the_last_refreshs_runs():
    """Each shipped archived run took less wall time than the time limit its run job asks for at the first
    attempt: a SLURM refresh at these requests would not have been killed and retried. Every job of the grid
    has its table in the archive."""
    cfg = {**SHIPPED, "scale": "power"}
    for provenance_path in SHIPPED_ARCHIVE:
        regime = provenance_path.parent.name
        measured = read_json(provenance_path)["run_seconds"]
        for part in run_parts(cfg, regime):
            (run,) = runs_of_part(cfg, part)
            (seed,) = run.seeds
            name = f"{part.algorithm}/{run.constants}/{run.instance}/T~{run.T}/seeds~{seed}-{seed}.parquet"
            assert measured[name] < 60 * runtime_minutes(cfg, part), (regime, name)
