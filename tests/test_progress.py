"""Progress a person can watch (issue 36, item 7): the regretlab logger prints one line per finished job
with the cost model's prediction of the CPU time left, and nothing of Snakemake's per-job blocks; a run's
log has one line per snapshot with the run's measures so far."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace

import pytest
import yaml
from snakemake_interface_logger_plugins.common import LogEvent
from workflow_runs import REPO, SMOKE, SMOKE_OUTPUT

from regretlab.registry.unit_costs import STARTUP_SECONDS
from regretlab.workflow import progress
from regretlab.workflow.config import validate_config
from regretlab.workflow.cost import estimate, predicted_seconds
from regretlab.workflow.jobs import run_parts
from regretlab.workflow.progress import Progress, job_label, job_seconds


def _smoke_config() -> dict:
    return validate_config(yaml.safe_load(SMOKE.read_text()), REPO / "schemas" / "config.schema.yaml")


def test_the_lines_count_the_predicted_cpu_time_down_to_zero():
    state = Progress()
    state.plan([(1, "a", 10.0), (2, "b", 20.0), (3, "c", 30.0)], cores=2)
    assert state.summary().startswith("regretlab: 3 jobs to run, predicted 1.0 min of CPU")
    state.start(2, "b")
    line = state.finished(2)
    assert line.startswith("[1/3] b done in ") and " · left: 40 s CPU (≈ 20 s on 2 cores) · " in line
    assert " · left: 30 s CPU" in state.finished(1)
    assert " · left: 0 s CPU" in state.finished(3)
    assert state.done == 3 and not state.planned


def test_a_job_the_plan_did_not_know_is_counted_with_its_label():
    state = Progress()
    state.plan([(1, "a", 5.0)], cores=1)
    state.start(7, "retried")
    assert state.finished(7).startswith("[1/2] retried done in ")


def test_a_run_jobs_prediction_is_the_cost_models_and_they_sum_to_the_estimate():
    config = _smoke_config()
    total = 0.0
    for regime in config["regimes"]:
        for part in run_parts(config, regime):
            wildcards = {"regime": part.regime, "algorithm": part.algorithm, "part": str(part.part)}
            assert job_seconds(config, wildcards) == predicted_seconds(config, part) > STARTUP_SECONDS
            total += job_seconds(config, wildcards)
    assert total == pytest.approx(3600 * sum(e.predicted_cpu_hours for e in estimate(config)))
    assert job_seconds(config, {"regime": "smoke_exp3g"}) == STARTUP_SECONDS  # a summary, a figure


def test_a_job_label_names_its_rule_and_wildcards_in_order():
    label = job_label("bandit_run", {"regime": "r", "algorithm": "a", "part": "0"})
    assert label == "bandit_run · r · a · part 0"
    assert job_label("tables", {}) == "tables"


def _handler(dryrun: bool = False, printshellcmds: bool = False):
    from snakemake_logger_plugin_regretlab import LogHandler

    settings = SimpleNamespace(
        quiet=set(), show_failed_logs=True, debug_dag=False, verbose=False, dryrun=dryrun,
        printshellcmds=printshellcmds, stdout=True,
    )  # fmt: skip
    return LogHandler(settings, None)


def _record(message: str, level: int = logging.INFO, **extra) -> logging.LogRecord:
    record = logging.LogRecord("snakemake", level, __file__, 1, message, None, None)
    record.__dict__.update(extra)
    return record


def test_the_logger_prints_one_line_per_job_and_drops_the_chatter(capsys, monkeypatch):
    monkeypatch.setattr(progress, "PROGRESS", Progress())
    import snakemake_logger_plugin_regretlab as plugin

    monkeypatch.setattr(plugin, "PROGRESS", progress.PROGRESS)
    progress.PROGRESS.plan([(4, "bandit_run · r · a · part 0", 3.0)], cores=2)
    handler = _handler()
    for record in [
        _record("Building DAG of jobs..."),
        _record("Select jobs to execute..."),
        _record("Execute 1 jobs...", event=LogEvent.JOB_STARTED, jobs=[4]),
        _record(" Rule: bandit_run, Jobid: 4", event=LogEvent.JOB_INFO, jobid=4, rule_name="bandit_run",
                wildcards={"regime": "r", "algorithm": "a", "part": "0"},
                input=["x"] * 250),
        _record("Finished jobid: 4 (Rule: bandit_run)", event=LogEvent.JOB_FINISHED, job_id=4),
        _record("", event=LogEvent.PROGRESS, done=1, total=1),
        _record("the workflow says something"),
        _record("careful", level=logging.WARNING),
    ]:  # fmt: skip
        handler.emit(record)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("regretlab: 1 jobs to run")
    assert lines[1].startswith("[1/1] bandit_run · r · a · part 0 done in ")
    assert lines[2:] == ["the workflow says something", "careful"]


@pytest.mark.parametrize("options", [{"dryrun": True}, {"printshellcmds": True}], ids=["-n", "-p"])
def test_a_dry_run_or_p_is_printed_as_snakemake_prints_it(capsys, options):
    handler = _handler(**options)
    handler.emit(_record("Building DAG of jobs..."))
    assert "Building DAG of jobs..." in capsys.readouterr().out


@pytest.mark.workflow
def test_the_smoke_runs_output_is_one_line_per_job(smoke_dir):
    """The whole smoke run prints a few lines beyond one per job (a full default run: about 130 for its 126
    jobs): no input lists, no shell commands."""
    output = (smoke_dir / SMOKE_OUTPUT).read_text(encoding="utf-8")
    lines = output.splitlines()
    jobs = [line for line in lines if re.match(r"^\[\s*\d+/\d+\] ", line)]
    (summary,) = [line for line in lines if line.startswith("regretlab: ") and "jobs to run" in line]
    n = int(re.search(r"(\d+) jobs to run", summary).group(1))
    assert len(jobs) == n and jobs[-1].startswith(f"[{n}/{n}] all done in ")
    assert jobs[-1].split(" · left: ")[1].startswith("0 s CPU")
    assert len(lines) <= n + 15, output  # the plan, Snakemake's profile and log lines, the closing message
    assert "input:" not in output and "Shell command" not in output
