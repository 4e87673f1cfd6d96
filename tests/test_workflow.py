"""The workflow end to end: lint, dry run of the default config, and real runs of the smoke config."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from importlib.metadata import requires
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml

from regretlab.analysis.evidence import CSV_COLUMNS
from regretlab.analysis.tables import EXPONENT_COLUMNS
from regretlab.claims import UNCHECKED, UNCHECKED_CLAIMS
from regretlab.config import validate_config
from regretlab.cost import estimate
from regretlab.kinds import KINDS

REPO = Path(__file__).resolve().parents[1]
SMOKE = REPO / "tests" / "config" / "smoke.yaml"
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


def smoke_run(directory: Path) -> None:
    snakemake("--configfile", str(SMOKE), cwd=directory)


@pytest.fixture(scope="module")
def smoke_dir(tmp_path_factory) -> Path:
    """A directory where the smoke workflow has run once."""
    directory = tmp_path_factory.mktemp("smoke")
    smoke_run(directory)
    return directory


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
    assert not summary.drop(columns="null_reference").isna().any().any()
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
    run = smoke_dir / "results/runs/smoke_exp3g/exp3g/paper/part~0/cliques_2x3/T~800/seeds~0-1.parquet"
    meta = pq.read_schema(run).metadata[b"regretlab"]
    for key in (b"regretlab_version", b"git_commit", b"config_hash", b"wall_time_s"):
        assert key in meta


def test_report_builds_from_the_smoke_run(smoke_dir):
    """README command 1 ends with `snakemake --report`: it must work with the runtime dependencies."""
    snakemake("--configfile", str(SMOKE), "--report", "figures/report.html", cwd=smoke_dir)
    report = (smoke_dir / "figures" / "report.html").read_text(encoding="utf-8", errors="replace")
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
    work = tmp_path / "work"
    shutil.copytree(smoke_dir, work, symlinks=True)
    (work / "results/instances/smoke_exp3g/cliques_2x3.json").unlink()
    done = snakemake("--configfile", str(SMOKE), "--dry-run", cwd=work)
    assert "reason: Missing output files: results/instances/smoke_exp3g/cliques_2x3.json" in done.stdout
    rules = {rule for rule, _ in planned_jobs(done.stdout)}
    assert {"bandit_instances_smoke_exp3g", "bandit_run", "regime_summary"} <= rules, done.stdout
    assert not any("cmdp" in rule for rule in rules), "the other regime's instance or runs were planned"


def test_two_runs_from_scratch_give_identical_tables(smoke_dir, tmp_path):
    smoke_run(tmp_path)
    for name in (
        "results/summary/smoke_exp3g.parquet",
        "results/summary/smoke_exp3g.exponents.parquet",
        "results/summary/smoke_cmdp.parquet",
        "figures/exponents.csv",
    ):
        assert (tmp_path / name).read_bytes() == (smoke_dir / name).read_bytes(), name


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
    """The Snakefile validates the config (regretlab.config.validate_config) while it is parsed: one line,
    no traceback, no job, no file (Snakemake itself only opens its log under .snakemake/log)."""
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
    """A run job whose instance file is corrupt fails; its log names the job and holds the traceback."""
    instance = "results/instances/smoke_exp3g/cliques_2x3.json"
    snakemake(instance, "--configfile", str(SMOKE), cwd=tmp_path)
    (tmp_path / instance).write_text("{ not json")
    run = "results/runs/smoke_exp3g/exp3g/paper/part~0"
    done = snakemake(run, "--configfile", str(SMOKE), cwd=tmp_path, check=False)
    assert done.returncode != 0 and not (tmp_path / run).exists()
    log = (tmp_path / "logs/runs/smoke_exp3g/exp3g/paper/part~0.log").read_text()
    identity = "rule=bandit_run regime=smoke_exp3g algorithm=exp3g constants=paper"
    assert f"job failed: {identity}" in log
    first = log.index("run instance=cliques_2x3 T=200 seeds=[0, 1]")  # the run that failed, before the trace
    assert first < log.index("job failed")
    assert "Traceback (most recent call last)" in log and "JSONDecodeError" in log


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


def _interrupt_and_resume(directory: Path, sig: signal.Signals) -> None:
    """Start the smoke run, interrupt it once the first run file exists, then finish it."""
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--profile",
        str(REPO / "profiles" / "default"),
        "--configfile",
        str(SMOKE),
        "--cores",
        "1",
    ]
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
        while not list((directory / "results").glob("runs/**/*.parquet")):
            assert process.poll() is None, "the run finished before it could be interrupted"
            assert time.monotonic() < deadline, "no run file appeared within 120 s"
            time.sleep(0.05)
        os.killpg(process.pid, sig)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if sig == signal.SIGKILL:  # docs/getting-started.md: after a hard kill, --unlock once, then rerun
        snakemake("--configfile", str(SMOKE), "--unlock", cwd=directory)
    smoke_run(directory)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_interrupted_run_resumes_with_complete_files(smoke_dir, tmp_path, sig):
    _interrupt_and_resume(tmp_path, sig)
    assert not [p for p in tmp_path.rglob("*.tmp")], "a temporary file was left behind"
    for run in (tmp_path / "results" / "runs").rglob("*.parquet"):
        pq.read_table(run)  # every run file is complete and readable
    for name in ("results/summary/smoke_exp3g.parquet", "figures/exponents.csv"):
        assert (tmp_path / name).read_bytes() == (smoke_dir / name).read_bytes(), name


def test_ctrl_c_ends_each_interrupted_job_in_one_line(tmp_path):
    """SIGINT to the process group (Ctrl-C in a terminal) mid-way through a run job: the job says, in one line
    on stderr and in its log, which job was interrupted and that its output was not written — no traceback
    (Snakemake prints the failed job's log) — and leaves nothing truncated."""
    config_path = tmp_path / "long.yaml"
    config_path.write_text(LONG_RUN_CONFIG)
    target = "results/runs/long/exp3g/paper/part~0"
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
    log_path = tmp_path / "logs/runs/long/exp3g/paper/part~0.log"
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


# ---- Reruns only of what changed: the library files a job runs are its inputs (regretlab.imports), and its
# params hold only what it reads. On a copy of the library (PYTHONPATH), so that it can be edited.


def planned_jobs(output: str) -> list[tuple[str, str]]:
    """(rule, wildcards) of every job a dry run lists, the target rule ``all`` left out."""
    jobs = []
    for line in output.splitlines():
        if match := re.match(r"^\s*(?:local)?rule (\w+):$", line):
            jobs.append([match.group(1), ""])
        elif (match := re.match(r"^\s*wildcards: (.*)$", line)) and jobs:
            jobs[-1][1] = match.group(1)
    return sorted((rule, wildcards) for rule, wildcards in jobs if rule != "all")


@pytest.fixture(scope="module")
def library_copy(tmp_path_factory) -> tuple[Path, dict]:
    """A working directory where the smoke workflow ran on a copy of the library, and the environment that
    makes Snakemake and its jobs import that copy."""
    base = tmp_path_factory.mktemp("library_copy")
    shutil.copytree(REPO / "src", base / "src", ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(base / "src")}
    work = base / "work"
    work.mkdir()
    snakemake("--configfile", str(SMOKE), cwd=work, env=env)
    return work, env


def test_editing_one_learner_reruns_only_its_run_jobs(library_copy):
    """Theorem 2's module is imported by no other smoke learner: editing it reruns its run job and what
    reads that job's tables (and the evidence table, which builds learners), nothing else; the reason names
    the file. Saving it unchanged reruns nothing."""
    work, env = library_copy
    module = Path(env["PYTHONPATH"]) / "regretlab" / "bandits" / "theorem2.py"
    source = module.read_text(encoding="utf-8")
    try:
        module.touch()
        assert "Nothing to be done" in snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env).stdout
        module.write_text(source + "# an edit\n", encoding="utf-8")
        done = snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env)
    finally:
        module.write_text(source, encoding="utf-8")
    assert planned_jobs(done.stdout) == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=theorem2, constants=paper, part=0"),
        ("crossover", ""),  # it reads every summary
        ("evidence_table", ""),  # it builds learners (their constants at other horizons)
        ("regime_summary", "regime=smoke_exp3g"),
        ("tables", ""),
    ], done.stdout
    assert f"reason: Updated input files: {module}" in done.stdout


#: The recipe's entry of a new algorithm (docs/add-an-algorithm.md), for a learner no smoke regime runs.
NEW_ENTRY = """    "exp3_blind": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Exp3Blind(
            instance.graph, horizon, rng, constants
        ),
        description="Exp3 on the played arm's loss alone, ignoring side observations (a template baseline)",
        label="Exp3, no side observations",
        colour=PALETTE["teal"],
        presets=Exp3Blind.presets,
        params=("eta",),
        graph_class="self_aware",
    ),
"""


def dry_run_after(library_copy, edits: dict[Path, str]) -> str:
    """The dry run's output after writing ``edits`` (file → new text) into the library copy; every file is
    put back (or removed, if new) afterwards."""
    work, env = library_copy
    before = {path: path.read_text(encoding="utf-8") if path.exists() else None for path in edits}
    try:
        for path, text in edits.items():
            path.write_text(text, encoding="utf-8")
        return snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env).stdout
    finally:
        for path, text in before.items():
            if text is None:
                path.unlink()
            else:
                path.write_text(text, encoding="utf-8")


def test_adding_an_algorithm_reruns_no_run_job_and_editing_one_entry_reruns_its_own(library_copy):
    """The registry's file is no input of a run job: a new entry (its learner's import included) reruns no
    run job and no summary of a regime that does not run it, only the tables that read every entry; an edit
    of one entry, or of a helper only it uses, reruns that algorithm's run job (and what reads its tables)."""
    bandits = Path(library_copy[1]["PYTHONPATH"]) / "regretlab" / "bandits"
    registry = bandits / "algorithms.py"
    source = registry.read_text(encoding="utf-8")
    end = "    ),\n}\n\n\ndef make_learner("
    assert source.count(end) == 1
    added = source.replace(end, "    ),\n" + NEW_ENTRY + end.removeprefix("    ),\n")).replace(
        "from regretlab.bandits.exp3g import Exp3G\n",
        "from regretlab.bandits.exp3_blind import Exp3Blind\nfrom regretlab.bandits.exp3g import Exp3G\n",
    )
    learner = (REPO / "docs" / "recipes" / "exp3_blind.py").read_text(encoding="utf-8")
    done = dry_run_after(library_copy, {registry: added, bandits / "exp3_blind.py": learner})
    assert planned_jobs(done) == [("crossover", ""), ("evidence_table", ""), ("tables", "")], done

    assert source.count('label="Exp3.G",') == 1
    done = dry_run_after(
        library_copy, {registry: source.replace('label="Exp3.G",', 'label="Exp3.G, edited",')}
    )
    assert planned_jobs(done) == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=exp3g, constants=paper, part=0"),
        ("crossover", ""),
        ("evidence_table", ""),
        ("regime_summary", "regime=smoke_exp3g"),
        ("tables", ""),
    ], done
    assert "reason: Params have changed since last execution" in done and "'exp3g': '" in done

    helper = (
        "    beta = meta_graph(graph).in_s.size\n"  # Algorithms 1 and 4's horizon rule: no smoke regime's
    )
    assert source.count(helper) == 1
    done = dry_run_after(library_copy, {registry: source.replace(helper, helper + "    # an edit\n")})
    assert planned_jobs(done) == [("crossover", ""), ("evidence_table", ""), ("tables", "")], done
    helper = "        clipped_simplex_bounds(graph.n_arms, horizon)\n"  # Theorem 2's (and 3's, Algorithm 5's)
    assert source.count(helper) == 1
    done = dry_run_after(library_copy, {registry: source.replace(helper, helper + "        # an edit\n")})
    assert [job for job in planned_jobs(done) if job[0] == "bandit_run"] == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=theorem2, constants=paper, part=0"),
    ], done


def test_editing_one_bounds_entry_reruns_only_the_summaries_that_draw_it(library_copy):
    """theory.py is no input of a summary: an edit of one bound's entry reruns the summaries of the regimes
    that draw it (and the tables, which read every bound), no run and no other summary; the reason names
    the bound."""
    theory = Path(library_copy[1]["PYTHONPATH"]) / "regretlab" / "theory.py"
    source = theory.read_text(encoding="utf-8")
    edits = {
        'label="√(αT ln K)",': ("smoke_exp3g", "exp3g_rate"),  # smoke_exp3g's Exp3.G
        'label="E^r_δ + ζE^G_δ + ζE^q_δ + R^D_T(0) + R^P_T(q*)",': ("smoke_cmdp", "theorem5_regret"),
    }
    for old, (regime, bound) in edits.items():
        assert source.count(old) == 1, old
        done = dry_run_after(library_copy, {theory: source.replace(old, old.replace('",', ' (edited)",'))})
        summary = ("regime_summary", f"regime={regime}")
        expected = [("crossover", ""), ("evidence_table", ""), summary, ("tables", "")]
        assert planned_jobs(done) == expected, done
        assert "reason: Params have changed since last execution" in done and f"'{bound}': '" in done
    # A comment reruns no summary (the evidence table, which reads theory.py whole, reruns).
    done = dry_run_after(
        library_copy,
        {theory: source.replace("\n\n\ndef _checkpoint(", "\n\n\n# a comment\ndef _checkpoint(")},
    )
    whole = ("crossover", "evidence_table")
    assert not [job for job in planned_jobs(done) if job[0] not in whole], done


def test_a_title_or_another_scale_reruns_no_simulation(library_copy, tmp_path):
    """Editing a regime's `theorem:` and its unused `paper:` grid reruns its summary job (the title is in the
    table and the figure) and no instance or run job; the reason names the field."""
    work, env = library_copy
    text = SMOKE.read_text(encoding="utf-8")
    edits = [
        ('theorem: "Theorem 5 (stochastic constraints)"', 'theorem: "Theorem 5, renamed"'),
        ("paper: {horizons: [60, 120], seeds: 2}", "paper: {horizons: [60, 120, 240], seeds: 4}"),
    ]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    edited = tmp_path / "edited.yaml"
    edited.write_text(text, encoding="utf-8")
    done = snakemake("--configfile", str(edited), "-n", cwd=work, env=env)
    summary = ("regime_summary", "regime=smoke_cmdp")
    expected = [("crossover", ""), ("evidence_table", ""), summary, ("tables", "")]
    assert planned_jobs(done.stdout) == expected, done.stdout
    # Snakemake lists the changed parameters before and now, each whole, in no fixed order
    reason = re.search(r"Params have changed since last execution: .* before: (.*) now: (.*)", done.stdout)
    assert reason, done.stdout
    assert "{'regimes.smoke_cmdp.theorem': 'Theorem 5 (stochastic constraints)'}" in reason.group(1)
    assert "{'regimes.smoke_cmdp.theorem': 'Theorem 5, renamed'}" in reason.group(2)
    assert "{'regimes.smoke_cmdp.scales': " in reason.group(2)


#: Aggregate tables and what is drawn from them: bitwise equal whatever the job split.
AGGREGATES = (
    "results/summary/smoke_exp3g.parquet",
    "results/summary/smoke_exp3g.exponents.parquet",
    "results/summary/smoke_cmdp.parquet",
    "results/summary/smoke_cmdp.exponents.parquet",
    "figures/exponents.csv",
    "figures/verdicts.csv",
)


def test_a_split_into_one_run_per_job_gives_identical_tables(smoke_dir, tmp_path):
    """job_minutes tiny: every (instance, T, seed) is its own run job (16 instead of 3), its own run table
    (seed batches cut to single seeds); the aggregates read them all and are those of the unsplit run."""
    snakemake("--configfile", str(SMOKE), "--config", "job_minutes=1e-6", cwd=tmp_path)
    parts = sorted(
        p.relative_to(tmp_path / "results/runs") for p in (tmp_path / "results/runs").glob("*/*/*/*")
    )
    assert len(parts) == 16 and {p.name for p in parts} >= {"part~0", "part~5"}, parts
    tables = list((tmp_path / "results/runs").rglob("*.parquet"))
    assert len(tables) == 16 and all(re.fullmatch(r"seeds~(\d+)-\1\.parquet", t.name) for t in tables)
    for name in AGGREGATES:
        assert (tmp_path / name).read_bytes() == (smoke_dir / name).read_bytes(), name


#: One long run (a few seconds) and a short one, snapshotted every 0.3 s (also the SLURM kill test's).
LONG_RUN_CONFIG = (REPO / "tests" / "config" / "long_run.yaml").read_text()


def test_a_run_killed_mid_way_resumes_from_its_snapshot(tmp_path):
    """SIGKILL to the run job (and Snakemake) once the long run has snapshotted; after `--unlock`, the rerun
    restores the job's first run (T = 1000, finished before the kill: the same file, not run again), resumes
    the long run from its snapshot and writes the rows of an uninterrupted run; no snapshot or kept table is
    left."""
    from regretlab.bandits import instance as bandit_instance
    from regretlab.bandits.simulate import run_seeds
    from regretlab.seeding import job_seed_sequence

    config_path = tmp_path / "long.yaml"
    config_path.write_text(LONG_RUN_CONFIG)
    target = "results/runs/long/exp3g/paper/part~0"
    profile = str(REPO / "profiles" / "default")
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--profile", profile,
           "--configfile", str(config_path), "--cores", "1", target]  # fmt: skip
    process = subprocess.Popen(
        cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    snapshots = tmp_path / "results" / "snapshots"
    deadline = time.monotonic() + 300
    try:
        while not list(snapshots.rglob("T~20000000/*.pickle")):
            assert process.poll() is None, "the run finished before it was snapshotted"
            assert time.monotonic() < deadline, "no snapshot appeared within 300 s"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert not (tmp_path / target / "cliques_2x3/T~20000000").exists()
    short = "cliques_2x3/T~1000/seeds~0-0.parquet"
    written = (tmp_path / target / short).read_bytes()  # finished before the kill, and kept
    assert list(snapshots.rglob("T~1000/*.parquet")), "the finished run's table was not kept"
    snakemake("--configfile", str(config_path), "--unlock", cwd=tmp_path)
    snakemake(target, "--configfile", str(config_path), cwd=tmp_path)
    log = (tmp_path / "logs/runs/long/exp3g/paper/part~0.log").read_text()
    assert "resuming from snapshot" in log, log
    assert f"restored the finished table {target}/{short}" in log, log
    assert (tmp_path / target / short).read_bytes() == written, "the first run was run again"
    assert not list(snapshots.rglob("*.pickle")), "a finished run left its snapshot"
    assert not list(snapshots.rglob("*.parquet")), "the completed job left its kept tables"

    spec = validate_config(yaml.safe_load(LONG_RUN_CONFIG), REPO / "schemas" / "config.schema.yaml")
    entry = spec["regimes"]["long"]["instances"]["cliques_2x3"]
    instance = bandit_instance.build_instance(
        entry, np.random.default_rng(job_seed_sequence("long", "cliques_2x3", "instance"))
    )
    uninterrupted, _ = run_seeds("long", "cliques_2x3", instance, "exp3g", "paper", 20_000_000, [0])
    resumed = pd.read_parquet(tmp_path / target / "cliques_2x3/T~20000000/seeds~0-0.parquet")
    pd.testing.assert_frame_equal(resumed, uninterrupted, check_exact=True)
