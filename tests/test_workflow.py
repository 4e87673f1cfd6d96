"""The workflow end to end: lint, dry run of the default config, and real runs of the smoke config."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from importlib.metadata import requires

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_runs import LONG_RUN_CONFIG, REPO, SMOKE, copy_of_smoke_run, planned_jobs, snakemake

from regretlab.analysis.evidence import CSV_COLUMNS
from regretlab.analysis.tables import EXPONENT_COLUMNS
from regretlab.registry.claims import UNCHECKED, UNCHECKED_CLAIMS
from regretlab.registry.kinds import KINDS
from regretlab.workflow.config import validate_config
from regretlab.workflow.cost import estimate

SUMMARY_COLUMNS = {
    "regime",
    "paper",
    "theorem",
    "instance",
    "instance_label",
    "algorithm",
    "constants",
    "T",
    "n_seeds",
    "x_name",
    "x",
    "metric",
    "mean",
    "ci_low",
    "ci_high",
    "bound_name",
    "bound_label",
    "bound_value",
    "bound_explicit",
    "direction",
    "trivial_bound",
    "verdict",
    "hypotheses_hold",
} | {
    # The metrics every bandit run defines; the per-arm ones (S̄ empty here) and η̄, δ (Exp3.G has none) get
    # no columns where every seed has NaN (regretlab.analysis.aggregate).
    f"{m}_{s}"
    for m in ("pseudo_regret", "realized_regret", "L_star", "regret_best_S", "L_best_S", "eta")
    for s in ("mean", "ci_low", "ci_high")
}

pytestmark = pytest.mark.workflow


def test_lint_has_no_warnings():
    done = snakemake("--lint", cwd=REPO)
    assert "Congratulations, your workflow is in a good condition!" in done.stdout + done.stderr
    assert "Lints for" not in done.stdout + done.stderr


def test_default_config_dry_run_plans_every_figure():
    done = snakemake("--dry-run", cwd=REPO)
    out = done.stdout + done.stderr
    for rule in ("bandit_instances_", "bandit_run", "cmdp_instances_", "cmdp_run", "regime_summary"):
        assert rule in out or "Nothing to be done" in out


def test_smoke_run_produces_every_file(smoke_dir):
    for name in (
        "figures/smoke_exp3g.png",
        "figures/smoke_exp3g.pdf",
        "figures/exponents.csv",
        "figures/exponents.md",
        "figures/verdicts.csv",
        "figures/verdicts.md",
        "figures/evidence.csv",
        "figures/evidence.md",
        "figures/crossover.md",
        "figures/crossover.png",
        "results/summary/smoke_exp3g.parquet",
        "figures/smoke_cmdp.png",
        "figures/smoke_cmdp.pdf",
        "results/summary/smoke_cmdp.parquet",
    ):
        assert (smoke_dir / name).stat().st_size > 0, name
    summary = pd.read_parquet(smoke_dir / "results/summary/smoke_exp3g.parquet")
    assert SUMMARY_COLUMNS <= set(summary.columns)
    # Uniform play's value everywhere; no reference learner in the smoke regimes.
    assert summary["null_reference"].isna().all() and summary["null_uniform"].notna().all()
    # A metric only some learners record (Lemma 9's step ratio: Theorems 2 and 3) is NaN on the others' rows.
    partial = [column for column in summary if column.startswith("lemma9_log_ratio")]
    assert not summary.drop(columns=["null_reference", *partial]).isna().any().any()
    recording = summary["algorithm"].isin(["theorem2", "theorem3"])
    assert recording.any() and summary.loc[recording, partial].notna().all().all()
    assert summary.loc[~recording, partial].isna().all().all()
    assert sorted(set(summary["T"])) == [200, 800]
    assert (summary["n_seeds"] == 3).all()
    cmdp = pd.read_parquet(smoke_dir / "results/summary/smoke_cmdp.parquet")
    assert SUMMARY_COLUMNS - {
        f"{m}_{s}" for m in KINDS["bandit"].metrics for s in ("mean", "ci_low", "ci_high")
    } <= set(cmdp.columns)
    assert not cmdp.drop(columns="null_reference").isna().any().any()
    assert set(cmdp["metric"]) == {"regret", "violation"} and sorted(set(cmdp["T"])) == [60, 120]
    exponents = pd.read_csv(smoke_dir / "figures/exponents.csv")
    assert list(exponents.columns) == EXPONENT_COLUMNS
    assert set(exponents["regime"]) == {"smoke_exp3g", "smoke_cmdp"}
    evidence = pd.read_csv(smoke_dir / "figures/evidence.csv")
    assert list(evidence.columns) == CSV_COLUMNS
    checked = evidence[~evidence["check"].isin(UNCHECKED)]
    assert set(checked["claim"]) == {"exp3g", "exp3g_fixed_gap", "theorem2"}
    assert len(evidence) - len(checked) == len(UNCHECKED_CLAIMS)
    run = smoke_dir / "results/runs/smoke_exp3g/exp3g/part~0/paper/cliques_2x3/T~800/seeds~0-1.parquet"
    meta = pq.read_schema(run).metadata[b"regretlab"]
    for key in (b"regretlab_version", b"git_commit", b"config_hash", b"wall_time_s"):
        assert key in meta


def test_report_builds_from_the_smoke_run(smoke_dir, tmp_path):
    """README command 1 ends with `snakemake --report`: it must work with the runtime dependencies."""
    work = copy_of_smoke_run(smoke_dir, tmp_path / "work")
    snakemake("--configfile", str(SMOKE), "--report", "figures/report.html", cwd=work)
    report = (work / "figures" / "report.html").read_text(encoding="utf-8", errors="replace")
    assert "smoke_exp3g" in report and "smoke_cmdp" in report


@pytest.mark.parametrize("config_path", [REPO / "config.yaml", SMOKE], ids=["default", "smoke"])
def test_every_figure_caption_is_valid_restructuredtext(config_path):
    """The report renders report/figure.rst (Jinja, then reStructuredText) for every regime: a description
    with RST markup by accident (``|I|`` is a substitution reference) must not break it."""
    import docutils.core
    import jinja2

    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    template = jinja2.Template((REPO / "report" / "figure.rst").read_text(encoding="utf-8"))
    for regime in config["regimes"]:
        snakemake_object = type("S", (), {"wildcards": type("W", (), {"regime": regime}), "config": config})
        text = template.render(snakemake=snakemake_object)
        assert regime in text
        docutils.core.publish_doctree(
            text, settings_overrides={"halt_level": 2, "report_level": 5, "input_encoding": "unicode"}
        )


def test_report_needs_nothing_beyond_the_runtime_dependencies():
    """Whatever Snakemake's `reports` extra requires (pygments) is a runtime dependency of regretlab, not
    only of the test extra (which happens to pull pygments in through pytest)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {re.split(r"[=<>!~;\[ ]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]}
    report_extra = {
        re.split(r"[=<>!~;\[ ]", req, maxsplit=1)[0].lower()
        for req in requires("snakemake") or []
        if re.search(r"extra\s*==\s*['\"]reports['\"]", req)
    }
    assert report_extra, "snakemake no longer declares a `reports` extra: check what --report imports"
    assert report_extra <= runtime, f"add {sorted(report_extra - runtime)} to pyproject's dependencies"


def test_no_explicit_bound_is_violated_on_the_smoke_config(smoke_dir):
    verdicts = pd.read_csv(smoke_dir / "figures/verdicts.csv")
    explicit = verdicts[verdicts["bound_explicit"]]
    assert {"theorem2_bound", "theorem5_regret", "theorem5_violation"} <= set(explicit["bound_name"])
    assert (explicit["rate only"] == 0).all() and (verdicts["points"] > 0).all()
    counterexamples = explicit[(explicit["violated"] > 0) & explicit["hypotheses_hold"]]
    assert counterexamples.empty, f"explicit bounds violated where their hypotheses hold:\n{counterexamples}"


def test_second_run_does_nothing(smoke_dir):
    done = snakemake("--configfile", str(SMOKE), "--dry-run", cwd=smoke_dir)
    assert "Nothing to be done" in done.stdout + done.stderr


def test_a_deleted_instance_file_is_rebuilt(smoke_dir, tmp_path):
    """On a copy of the smoke run (modification times kept), a deleted instance file is planned again by the
    next `snakemake`, with what was made from it; without it being a target, Snakemake would leave the
    missing intermediate file alone ("Nothing to be done")."""
    work = copy_of_smoke_run(smoke_dir, tmp_path / "work")
    (work / "results/instances/smoke_exp3g/cliques_2x3.json").unlink()
    done = snakemake("--configfile", str(SMOKE), "--dry-run", cwd=work)
    assert "reason: Missing output files: results/instances/smoke_exp3g/cliques_2x3.json" in done.stdout
    rules = {rule for rule, _ in planned_jobs(done.stdout)}
    assert {"bandit_instances_smoke_exp3g", "bandit_run", "regime_summary"} <= rules, done.stdout
    assert not any("cmdp" in rule for rule in rules), "the other regime's instance or runs were planned"


@pytest.mark.parametrize(
    ("old", "new", "field", "allowed"),
    [
        (
            "algorithms: [exp3g, theorem2]",
            "algorithms: [exp4, theorem2]",
            "regimes.smoke_exp3g.algorithms[0]",
            "'exp3g'",
        ),
        ("rho: 1.2", "rho: 9.0", "regimes.smoke_cmdp.instances.tiny", "rho must lie in (0, L] = (0, 2]"),
        (
            "quick: {horizons: [200, 800], seeds: 3}",
            "quick: {horizons: [800, 200], seeds: 3}",
            "regimes.smoke_exp3g.scales.quick.horizons",
            "horizons must be increasing, got [800, 200]",
        ),
    ],
    ids=["schema", "cross-field", "horizons-order"],
)
def test_bad_config_fails_at_parse_time_in_one_line(tmp_path, old, new, field, allowed):
    """The Snakefile validates the config (regretlab.workflow.config.validate_config) while it is parsed: one
    line, no traceback, no job, no file (Snakemake itself only opens its log under .snakemake/log)."""
    bad = tmp_path / "bad.yaml"
    text = SMOKE.read_text()
    assert old in text
    bad.write_text(text.replace(old, new))
    done = snakemake("--configfile", str(bad), cwd=tmp_path, check=False)
    assert done.returncode != 0
    problems = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    assert len(problems) == 1 and field in problems[0] and allowed in problems[0], done.stderr
    assert "Traceback" not in done.stderr and 'File "' not in done.stderr
    written = {p.relative_to(tmp_path).parts[:2] for p in tmp_path.rglob("*") if p.is_file()}
    assert written <= {("bad.yaml",), (".snakemake", "log")}, written


def test_a_yaml_syntax_error_in_config_yaml_names_its_line(tmp_path):
    """config.yaml (the Snakefile's `configfile:`, read from the working directory) with a YAML syntax
    error: one line naming the file, line and column, before any job; Snakemake alone says only "Config file
    is not valid JSON or YAML"."""
    text = SMOKE.read_text()
    (tmp_path / "config.yaml").write_text(text.replace("regimes:\n", "regimes: [\n", 1))
    done = snakemake("--dry-run", cwd=tmp_path, check=False)
    assert done.returncode != 0
    line_number = text.splitlines().index("regimes:") + 3  # `    kind: bandit`, two lines down: its colon
    problems = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    assert problems == [
        f"regretlab: 'config.yaml' is not valid YAML: line {line_number}, column 9: expected ',' or ']', "
        f"but got ':' (while parsing a flow sequence at line {line_number - 2}, column 10)"
    ], done.stderr
    assert "Traceback" not in done.stderr and "WorkflowError" not in done.stderr
    written = {p.relative_to(tmp_path).parts[:2] for p in tmp_path.rglob("*") if p.is_file()}
    assert written <= {("config.yaml",), (".snakemake", "log")}, written


def test_failed_job_log_holds_its_cause(tmp_path):
    """A run job whose instance file is wrong fails; its log names the job and holds the traceback. (The
    file is whole JSON with a matching digest record, as a bug of the instance job would leave it: a file
    changed after it was written is removed and rebuilt instead, tests/test_integrity.py.)"""
    instance = "results/instances/smoke_exp3g/cliques_2x3.json"
    snakemake(instance, "--configfile", str(SMOKE), cwd=tmp_path)
    (tmp_path / instance).write_text("{}")
    record = tmp_path / "results" / ".digests" / f"{instance}.sha256"
    record.write_text(hashlib.sha256(b"{}").hexdigest() + "\n")
    run = "results/runs/smoke_exp3g/exp3g/part~0"
    done = snakemake(run, "--configfile", str(SMOKE), cwd=tmp_path, check=False)
    assert done.returncode != 0 and not (tmp_path / run).exists()
    log = (tmp_path / "logs/runs/smoke_exp3g/exp3g/part~0.log").read_text()
    identity = "rule=bandit_run regime=smoke_exp3g algorithm=exp3g part=0"
    assert f"job failed: {identity}" in log
    first = log.index("run instance=cliques_2x3 T=200 seeds=[0, 1]")  # the run that failed, before the trace
    assert first < log.index("job failed")
    assert "Traceback (most recent call last)" in log and "KeyError" in log


@pytest.mark.parametrize("job_minutes", [None, 1e-6], ids=["whole run sets", "one run per job"])
def test_estimate_counts_the_run_jobs_of_a_dry_run(tmp_path, job_minutes):
    """`regretlab estimate` plans the jobs Snakemake plans, whole or split, and its rounds are Σ T × seeds."""
    split = () if job_minutes is None else ("--config", f"job_minutes={job_minutes}")
    done = snakemake("--configfile", str(SMOKE), *split, "--dry-run", cwd=tmp_path)
    planned = {
        match.group(1): int(match.group(2))
        for match in re.finditer(r"^(\w+_run)\s+(\d+)\s*$", done.stdout + done.stderr, re.MULTILINE)
    }
    raw = yaml.safe_load(SMOKE.read_text())
    config = validate_config(yaml.safe_load(SMOKE.read_text()), REPO / "schemas" / "config.schema.yaml")
    config["job_minutes"] = job_minutes
    estimates = estimate(config)
    assert planned and sum(e.run_jobs for e in estimates) == sum(planned.values())
    if job_minutes is not None:  # every (instance, T, seed) its own job
        assert sum(planned.values()) == sum(
            len(spec["instances"]) * len(spec["algorithms"]) * len(spec["scales"]["quick"]["horizons"])
            * spec["scales"]["quick"]["seeds"]
            for spec in raw["regimes"].values()
        )  # fmt: skip
    for e in estimates:
        regime = raw["regimes"][e.regime]
        grid = regime["scales"][raw["scale"]]
        runs_per_T = len(regime["instances"]) * len(regime["algorithms"]) * len(regime.get("constants", [0]))
        assert e.rounds == runs_per_T * sum(grid["horizons"]) * grid["seeds"]


def test_ctrl_c_ends_each_interrupted_job_in_one_line(tmp_path):
    """SIGINT to the process group (Ctrl-C in a terminal) mid-way through a run job: the job says, in one line
    on stderr and in its log, which job was interrupted and that its output was not written — no traceback
    (Snakemake prints the failed job's log) — and leaves nothing truncated."""
    config_path = tmp_path / "long.yaml"
    config_path.write_text(LONG_RUN_CONFIG)
    target = "results/runs/long/exp3g/part~0"
    profile = str(REPO / "profiles" / "default")
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--profile", profile,
           "--configfile", str(config_path), "--cores", "1", target]  # fmt: skip
    process = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C as in a terminal
    )
    log_path = tmp_path / "logs/runs/long/exp3g/part~0.log"
    deadline = time.monotonic() + 300
    try:
        while "T=20000000" not in (log_path.read_text() if log_path.exists() else ""):
            assert process.poll() is None, "the run finished before it could be interrupted"
            assert time.monotonic() < deadline, "the long run did not start within 300 s"
            time.sleep(0.05)
        time.sleep(0.5)  # well inside the long run
        os.killpg(process.pid, signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode != 0
    line = "regretlab: job interrupted, output not written: rule=bandit_run regime=long algorithm=exp3g"
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert line in output, output
    log = log_path.read_text()
    assert line in log and "Traceback" not in log, log
    # The interrupted run wrote nothing, not even a temporary file; Snakemake marks the job incomplete.
    assert not (tmp_path / target / "cliques_2x3/T~20000000").exists()
    assert not list(tmp_path.rglob("*.tmp")), "a temporary file was left behind"
    assert list((tmp_path / ".snakemake/incomplete").iterdir())
