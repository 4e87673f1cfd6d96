"""The smoke workflow on a real single-node SLURM cluster that this module starts and stops (issue 5).

What it shows: ``profiles/slurm``, edited exactly as docs/cluster.md says (the partition line,
and the account line deleted as on a cluster without accounts), submits the smoke workflow's run jobs
through snakemake-executor-plugin-slurm, cut as the paper scale is on a cluster (several run jobs per
algorithm), batches them into fewer submissions, and gives aggregate tables
bitwise-identical to a local run of whole run sets; a job that fails is reported as failed, and is retried
under ``--retries``; a run job killed (SIGKILL) mid-run is retried by the profile and resumes from its
snapshot, with the rows of an uninterrupted run.

How the cluster is made. ``munged``, ``slurmctld`` and ``slurmd`` run in the foreground on localhost, as root,
from a munge key and a ``slurm.conf`` generated in a fresh temporary directory, which also holds their state,
spool, sockets and logs; ports are free ones picked at start. Nothing is written to ``/etc``: the clients find
the config through ``SLURM_CONF``, and because the plugin's job step strips every ``SLURM_*`` variable
(``SLURM_CONF`` too) before its nested ``srun``, the submitting environment puts first on ``PATH`` a
``srun`` wrapper that sets ``SLURM_CONF`` again and execs the real one. The cluster has no accounting
database, hence no working ``sacct``: the runs pass ``--slurm-status-command squeue`` (and a short first
status wait), which a real cluster does not need.

Cleanup. Every process the module starts carries a unique marker in its environment, and so do the jobs
(sbatch ``--export=ALL``). Whatever happens, teardown cancels the jobs, stops the daemons by PID, then stops
by PID every process still carrying the marker (SIGTERM, then SIGKILL), checks that none is left and removes
the directory. Every wait is bounded, and the module has a hard deadline.

Needs root and Debian 12's ``slurmctld slurmd slurm-client munge`` (``.ci/run`` installs them). Without them
the module skips, naming what is missing, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from workflow_runs import AGGREGATES, REPO, SMOKE

from regretlab.registry.unit_costs import STARTUP_SECONDS

PROFILE = REPO / "profiles" / "slurm" / "config.yaml"

pytestmark = [pytest.mark.slurm, pytest.mark.workflow]

#: Hard limit for the whole module (cluster start, three workflow runs, teardown): ~4 min on an idle machine,
#: 11 on a slow one in a full suite run (2026-12-05).
MODULE_DEADLINE_S = 1200
#: Name of the test cluster's only partition; it is not the default one, so the profile's line must work.
PARTITION = "regretlab"
#: Environment variable whose value (a fresh UUID) marks every process this module starts.
MARKER = "REGRETLAB_SLURM_TEST_RUN"
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scancel", "scontrol", "sinfo", "srun")
#: Where Debian puts the daemons (root's PATH has it; other users' may not).
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin", "/usr/bin"])
#: Flags for this throwaway cluster only: it has no accounting (so no sacct), and short waits suit it.
CLUSTER_FLAGS = (
    "--slurm-status-command",
    "squeue",
    "--slurm-init-seconds-before-status-checks",
    "2",
    "--seconds-between-status-checks",
    "2",
)

#: The smoke runs' job size here: Snakemake's start-up and 10 ms of predicted simulation (the fixed unit
#: costs, regretlab.registry.unit_costs). A bandit run's seed batches (T = 200 and 800, seeds 0-1 and 2,
#: ≈ 2.3 ms a seed) pack two by two: four bandit run jobs (two per algorithm), two submissions by the group
#: size 2. A CMDP run (≈ 7 ms a seed) is cut seed by seed: four run jobs. Every seed its own run job
#: (``job_minutes=1e-6``, as test_resume.py cuts it) made 16 run jobs and twice the submissions, each paying
#: two Snakemake start-ups (the submitted one and its job step's), for the same mechanism.
SPLIT_MINUTES = (STARTUP_SECONDS + 0.010) / 60

#: Two jobs that fail on purpose, through the same profile: one on its first attempt only, one always.
FAILING_SNAKEFILE = """\
rule all:
    input:
        "fails_once.txt",
        "always_fails.txt",


rule fails_once:
    output:
        "fails_once.txt",
    resources:
        try_number=lambda wildcards, attempt: attempt,
    shell:
        "echo {resources.try_number} >> fails_once.attempts; "
        "test {resources.try_number} -ge 2 && echo done > {output}"


rule always_fails:
    output:
        "always_fails.txt",
    resources:
        try_number=lambda wildcards, attempt: attempt,
    shell:
        "echo {resources.try_number} >> always_fails.attempts; exit 3"
"""


class Deadline:
    """The module's hard time limit; every wait asks it how long it may take."""

    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds

    def left(self, cap: float | None = None) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            pytest.fail(f"the SLURM test exceeded its hard deadline of {MODULE_DEADLINE_S} s")
        return left if cap is None else min(left, cap)


@dataclass
class Cluster:
    root: Path
    env: dict
    deadline: Deadline
    daemons: dict

    def logs(self) -> str:
        """The tail of every daemon log, for failure messages."""
        parts = []
        for log in sorted((self.root / "log").glob("*")):
            parts.append(f"--- {log.name}\n{log.read_text(errors='replace')[-2500:]}")
        return "\n".join(parts)

    def run(self, *args: str, timeout: float = 30, check: bool = True) -> subprocess.CompletedProcess:
        """A SLURM client command against this cluster."""
        done = subprocess.run(
            list(args),
            env=self.env,
            capture_output=True,
            text=True,
            timeout=self.deadline.left(timeout),
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}\n{self.logs()}")
        return done

    def job_states(self, run_id: str) -> dict[str, tuple[str, str]]:
        """SLURM job id → (state, partition) of each job of a Snakemake run (its jobs are named by run id)."""
        out = self.run("squeue", "--states=all", "--noheader", "--format=%i|%T|%P", "--name", run_id).stdout
        rows = (line.split("|") for line in out.split())
        return {job: (state, partition) for job, state, partition in rows}


def _missing() -> list[str]:
    missing = [name for name in DAEMONS + CLIENTS if shutil.which(name, path=SEARCH_PATH) is None]
    if missing:
        packages = "slurmctld slurmd slurm-client munge"
        return [f"SLURM binaries not found: {', '.join(missing)} (Debian packages: {packages})"]
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return ["snakemake-executor-plugin-slurm is not installed (pip install -e '.[test]')"]
    if os.geteuid() != 0:
        return ["needs root: slurmd runs the jobs and must be able to become their user"]
    return []


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _memory_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no MemTotal in /proc/meminfo")


def _slurm_conf(root: Path, ctld_port: int, slurmd_port: int) -> str:
    cpus = len(os.sched_getaffinity(0))
    memory = int(0.8 * _memory_mb())  # slurmd drains a node that claims more than it has
    return f"""\
# Throwaway single-node cluster of tests/test_slurm.py: generated, used and deleted by that test.
ClusterName=regretlabtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={root}/munge/munge.socket
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd.log
# no cgroups in a container: plain process tracking, no task binding, no MPI
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# no slurmdbd, so no sacct: Snakemake must poll squeue, which must still list finished jobs
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
MailProg=/bin/true
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory} State=UNKNOWN
PartitionName={PARTITION} Nodes=localhost Default=NO MaxTime=INFINITE State=UP
"""


def _marked_pids(run_id: str) -> list[int]:
    """PIDs of the processes whose environment carries this module's marker."""
    marker = f"{MARKER}={run_id}".encode()
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if marker in (proc / "environ").read_bytes().split(b"\0"):
                pids.append(int(proc.name))
        except OSError:  # gone, or not ours to read
            continue
    return pids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has stopped; only its parent can reap it


def _stop_pids(pids: list[int], timeout: float = 10) -> None:
    """SIGTERM each PID, wait up to ``timeout`` s, SIGKILL what is left."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5)):
        for pid in pids:
            if _alive(pid):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        end = time.monotonic() + wait
        while any(_alive(pid) for pid in pids) and time.monotonic() < end:
            time.sleep(0.1)


def _start(name: str, args: list[str], cluster: Cluster) -> None:
    out = open(cluster.root / "log" / f"{name}.out", "w")  # closed at teardown
    process = subprocess.Popen(
        [shutil.which(name, path=SEARCH_PATH), *args],
        env=cluster.env,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    cluster.daemons[name] = (process, out)


def _wait_for(what: str, ready, cluster: Cluster, timeout: float) -> None:
    end = time.monotonic() + cluster.deadline.left(timeout)
    while not ready():
        for name, (process, _) in cluster.daemons.items():
            if process.poll() is not None:
                raise AssertionError(f"{name} exited with {process.returncode}\n{cluster.logs()}")
        if time.monotonic() > end:
            raise AssertionError(f"{what} not ready within {timeout} s\n{cluster.logs()}")
        time.sleep(0.2)


def _node_idle(cluster: Cluster) -> bool:
    done = cluster.run("sinfo", "--noheader", "--partition", PARTITION, "--format=%T", check=False)
    return done.returncode == 0 and done.stdout.strip() == "idle"


def _teardown(cluster: Cluster, run_id: str) -> list[str]:
    """Cancel the jobs, stop the daemons and every marked process by PID; return what could not be stopped."""
    if "slurmctld" in cluster.daemons:
        try:
            subprocess.run(
                ["scancel", "--partition", PARTITION], env=cluster.env, capture_output=True, timeout=15
            )
            end = time.monotonic() + 15
            while time.monotonic() < end:
                active = subprocess.run(
                    ["squeue", "--noheader", "--format=%i", "--states=PENDING,RUNNING,COMPLETING"],
                    env=cluster.env,
                    capture_output=True,
                    text=True,
                    timeout=10,
                )
                if active.returncode != 0 or not active.stdout.strip():
                    break
                time.sleep(0.5)
        except (OSError, subprocess.SubprocessError):
            pass  # the daemons are stopped below whatever the scheduler says
    for name in ("slurmd", "slurmctld", "munged"):  # the order a clean shutdown needs
        if name in cluster.daemons:
            process, out = cluster.daemons[name]
            _stop_pids([process.pid])
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            out.close()
    _stop_pids(_marked_pids(run_id))
    left = [pid for pid in _marked_pids(run_id) if _alive(pid)]
    return [f"{pid}: {Path(f'/proc/{pid}/cmdline').read_bytes()!r}" for pid in left]


@pytest.fixture(scope="module")
def cluster():
    """A running single-node SLURM cluster, stopped and deleted after the module whatever happens."""
    missing = _missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the SLURM test, but: {'; '.join(missing)}")
        pytest.skip(f"no local SLURM: {'; '.join(missing)}")
    run_id = uuid.uuid4().hex
    # A short path (Unix sockets take at most 107 bytes); munged wants its socket directory mode 755.
    root = Path(tempfile.mkdtemp(prefix="rl-slurm-"))
    root.chmod(0o755)
    for sub in ("munge", "state", "spool", "log", "bin"):
        (root / sub).mkdir(mode=0o755)
    real_srun = shutil.which("srun", path=SEARCH_PATH)
    conf = root / "slurm.conf"
    # Nothing of an enclosing SLURM job (should the suite run inside one) leaks into this cluster's clients.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_", "SRUN_", "SQUEUE_"))}
    env[MARKER] = run_id
    env["SLURM_CONF"] = str(conf)
    env["PATH"] = os.pathsep.join([str(root / "bin"), SEARCH_PATH])
    cluster = Cluster(root, env, Deadline(MODULE_DEADLINE_S), {})
    try:
        conf.write_text(_slurm_conf(root, *_free_ports(2)))
        srun = root / "bin" / "srun"
        srun.write_text(f'#!/bin/sh\nSLURM_CONF={conf} exec {real_srun} "$@"\n')
        srun.chmod(0o755)
        key = root / "munge" / "munge.key"
        key.write_bytes(os.urandom(128))
        key.chmod(0o600)
        munge_socket = root / "munge" / "munge.socket"
        _start(
            "munged",
            [
                "--foreground",
                f"--socket={munge_socket}",
                f"--key-file={key}",
                f"--pid-file={root / 'munge' / 'munged.pid'}",
                f"--seed-file={root / 'munge' / 'munged.seed'}",
                f"--log-file={root / 'log' / 'munged.log'}",
            ],
            cluster,
        )
        _wait_for("munged", munge_socket.exists, cluster, timeout=20)
        _start("slurmctld", ["-D", "-f", str(conf)], cluster)
        # The node is called localhost whatever the host's name, so slurmd is told its name.
        _start("slurmd", ["-D", "-N", "localhost", "-f", str(conf)], cluster)
        _wait_for("the node", lambda: _node_idle(cluster), cluster, timeout=60)
        yield cluster
    finally:
        left = _teardown(cluster, run_id)
        shutil.rmtree(root, ignore_errors=True)
        assert not left, f"processes of the SLURM test still running: {left}"


def edited_profile(directory: Path) -> Path:
    """profiles/slurm as docs/cluster.md tells a user to edit it: the partition set, the account line deleted
    (a copy of the whole directory: the profile names a file of its own, job_size.yaml)."""
    text = PROFILE.read_text()
    text, n_partition = re.subn(r"slurm_partition='[^']*'", f"slurm_partition='{PARTITION}'", text)
    text, n_account = re.subn(r"(?m)^\s*- slurm_account=.*\n", "", text)
    assert (n_partition, n_account) == (1, 1), "profiles/slurm must have one partition and one account line"
    shutil.copytree(PROFILE.parent, directory)
    (directory / "config.yaml").write_text(text)
    return directory


def snakemake(cluster: Cluster, workdir: Path, *args: str, timeout: float) -> tuple[int, str]:
    """Run Snakemake in ``workdir`` (in its own session, killed with its children on timeout)."""
    log = workdir / "snakemake.out"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "snakemake", *args],
            cwd=workdir,
            env=cluster.env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_default_sigint,
        )
        try:
            process.wait(timeout=cluster.deadline.left(timeout))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise AssertionError(
                f"snakemake {' '.join(args)} did not finish within {timeout} s:\n"
                f"{log.read_text()[-5000:]}\n{cluster.logs()}"
            ) from None
    return process.returncode, log.read_text()


def slurm_run_id(output: str) -> str:
    match = re.search(r"SLURM run ID: (\S+)", output)
    assert match, f"not a SLURM executor run:\n{output[-3000:]}"
    return match.group(1)


def test_smoke_workflow_on_slurm_matches_local_run(cluster, tmp_path, request):
    profile = edited_profile(tmp_path / "profile")
    on_slurm = tmp_path / "slurm"
    on_slurm.mkdir()
    # Only the aggregates (every run job, and the jobs that read them): the searches, crossover and evidence
    # table read no run table, and would only add submissions of jobs the local run tests.
    snakefile = (*AGGREGATES, "--snakefile", str(REPO / "Snakefile"), "--configfile", str(SMOKE))

    # The profile's 15 minutes leave the smoke runs whole; a tiny job size (SPLIT_MINUTES) cuts them as the
    # paper scale is cut.
    split = ("--config", f"job_minutes={SPLIT_MINUTES!r}")
    code, output = snakemake(
        cluster, on_slurm, *snakefile, *split, "--workflow-profile", str(profile), *CLUSTER_FLAGS, timeout=720
    )
    assert code == 0, f"the SLURM run failed:\n{output[-6000:]}\n{cluster.logs()}"
    jobs = cluster.job_states(slurm_run_id(output))
    assert jobs and set(jobs.values()) == {("COMPLETED", PARTITION)}, jobs
    # Several run jobs per algorithm (results/runs/{regime}/{algorithm}/part~{k}), and
    # group-components batches them: ceil(run jobs / group size) submissions, fewer than the run jobs.
    parts = [d for d in (on_slurm / "results" / "runs" / "smoke_exp3g").glob("*/part~*") if d.is_dir()]
    per_algorithm = {len(list(d.parent.glob("part~*"))) for d in parts}
    assert min(per_algorithm) > 1, per_algorithm
    group_size = int(re.search(r"bandit_runs=(\d+)", PROFILE.read_text()).group(1))
    grouped = re.findall(r"submitted with SLURM jobid (\d+) \(log: [^)]*/group_bandit_runs", output)
    assert len(grouped) == math.ceil(len(parts) / group_size) < len(parts), (parts, grouped, output[-4000:])
    assert set(grouped) <= set(jobs)

    # The suite's local run of the smoke config with profiles/default (conftest's smoke_dir, made by then by
    # another worker: asked for only now, so that the cluster's deadline does not wait for it).
    local = request.getfixturevalue("smoke_dir")
    for name in AGGREGATES:
        assert (on_slurm / name).read_bytes() == (local / name).read_bytes(), name


def test_failing_job_is_reported_and_retried(cluster, tmp_path):
    profile = edited_profile(tmp_path / "profile")
    workdir = tmp_path / "work"
    workdir.mkdir()
    (workdir / "Snakefile").write_text(FAILING_SNAKEFILE)

    code, output = snakemake(
        cluster, workdir, "--workflow-profile", str(profile), "--retries", "1", *CLUSTER_FLAGS, timeout=180
    )
    assert code != 0, f"a workflow with an always-failing job succeeded:\n{output[-4000:]}"
    assert "Error in rule always_fails" in output, output[-4000:]
    assert re.search(r"SLURM-job '\d+' failed", output), output[-4000:]
    # --retries 1: each failing job was submitted twice; the one that fails only once then succeeded.
    assert (workdir / "always_fails.attempts").read_text().split() == ["1", "2"]
    assert (workdir / "fails_once.attempts").read_text().split() == ["1", "2"]
    assert (workdir / "fails_once.txt").read_text() == "done\n"
    assert not (workdir / "always_fails.txt").exists()
    states = sorted(state for state, _ in cluster.job_states(slurm_run_id(output)).values())
    assert states == ["COMPLETED", "FAILED", "FAILED", "FAILED"], states


#: A job that would run for ten minutes unless cancelled.
SLOW_SNAKEFILE = """\
rule all:
    output:
        "late.txt",
    shell:
        "sleep 600; touch {output}"
"""


def _default_sigint() -> None:
    """In the child, before exec: Ctrl-C's default disposition, as in a terminal. A SIGINT ignored by the
    test process (some library code run in-process earlier in a full test run can leave it so) would
    otherwise be inherited, and Python installs no KeyboardInterrupt handler over an ignored SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_interrupt_cancels_the_submitted_jobs(cluster, tmp_path):
    """docs/cluster.md: Ctrl-C on Snakemake cancels its SLURM jobs, so that rerunning the command cannot race
    them."""
    profile = edited_profile(tmp_path / "profile")
    workdir = tmp_path / "work"
    workdir.mkdir()
    (workdir / "Snakefile").write_text(SLOW_SNAKEFILE)
    log = workdir / "snakemake.out"

    def states() -> list[str]:
        return [state for state, _ in cluster.job_states(slurm_run_id(log.read_text())).values()]

    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "snakemake", "--workflow-profile", str(profile), *CLUSTER_FLAGS],
            cwd=workdir,
            env=cluster.env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_default_sigint,
        )
        try:
            end = time.monotonic() + cluster.deadline.left(60)
            while "submitted with SLURM jobid" not in log.read_text() or states() != ["RUNNING"]:
                assert process.poll() is None, log.read_text()[-4000:]
                assert time.monotonic() < end, f"the job never ran:\n{log.read_text()[-4000:]}"
                time.sleep(0.5)
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=cluster.deadline.left(60))
            except subprocess.TimeoutExpired:
                tail = log.read_text()[-4000:]
                pytest.fail(f"Snakemake did not stop after Ctrl-C:\n{tail}\n{cluster.logs()}")
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    end = time.monotonic() + cluster.deadline.left(30)
    while states() == ["COMPLETING"] and time.monotonic() < end:
        time.sleep(0.5)
    assert states() == ["CANCELLED"], log.read_text()[-4000:]
    assert not (workdir / "late.txt").exists()


#: One run of a few seconds and one short one, snapshotted every 0.3 s (the workflow kill test's too).
LONG_RUN_CONFIG = (REPO / "tests" / "config" / "long_run.yaml").read_text()


def test_a_run_job_killed_on_its_node_resumes_from_its_snapshot_on_retry(cluster, tmp_path):
    """SIGKILL to the run job's process once its long run has snapshotted: SLURM reports the job failed, the
    profile's retry resubmits it, the job's first run (finished before the kill) is restored from its kept
    table (the same file, not run again), the long run resumes from the snapshot, and its table holds the rows
    of an uninterrupted run."""
    import numpy as np
    import pandas as pd
    import yaml

    from regretlab.bandits import instance as bandit_instance
    from regretlab.bandits.simulate import run_seeds
    from regretlab.core.seeding import job_seed_sequence
    from regretlab.workflow.config import validate_config

    profile = edited_profile(tmp_path / "profile")
    workdir = tmp_path / "work"
    workdir.mkdir()
    config_path = workdir / "long.yaml"
    config_path.write_text(LONG_RUN_CONFIG)
    target = "results/runs/long/exp3g/part~0"
    log = workdir / "snakemake.out"
    args = [
        sys.executable, "-m", "snakemake", target, "--snakefile", str(REPO / "Snakefile"), "--configfile",
        str(config_path), "--workflow-profile", str(profile), *CLUSTER_FLAGS,
    ]  # fmt: skip
    killed, written = [], {}
    short = workdir / target / "paper/cliques_2x3/T~1000/seeds~0-0.parquet"
    with open(log, "w") as out:
        process = subprocess.Popen(
            args, cwd=workdir, env=cluster.env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_default_sigint,
        )  # fmt: skip
        try:
            end = time.monotonic() + cluster.deadline.left(180)
            while not killed:
                assert process.poll() is None, f"finished before it was killed:\n{log.read_text()[-4000:]}"
                assert time.monotonic() < end, f"no snapshot within 180 s:\n{log.read_text()[-4000:]}"
                if list((workdir / "results" / "snapshots").rglob("T~20000000/*.snapshot.npz")):
                    written.setdefault("bytes", short.read_bytes())  # finished and kept before the kill
                    for pid in _marked_pids(cluster.env[MARKER]):
                        try:
                            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                        except OSError:
                            continue
                        if any(arg.endswith(b"run_bandit.py") for arg in argv):  # the job's script
                            os.kill(pid, signal.SIGKILL)
                            killed.append(pid)
                time.sleep(0.05)
            process.wait(timeout=cluster.deadline.left(240))
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    output = log.read_text()
    assert process.returncode == 0, f"the retry did not finish the run:\n{output[-6000:]}\n{cluster.logs()}"
    states = sorted(state for state, _ in cluster.job_states(slurm_run_id(output)).values())
    assert states == ["COMPLETED", "FAILED"], states  # the killed job, then its retry
    job_log = (workdir / "logs/runs/long/exp3g/part~0.log").read_text()
    assert "resuming from snapshot" in job_log, job_log
    assert "restored the finished table" in job_log, job_log
    assert short.read_bytes() == written["bytes"], "the job's first run was run again"
    snapshots_left = list((workdir / "results" / "snapshots").rglob("*.snapshot.npz"))
    assert not snapshots_left, "a finished run left its snapshot"
    assert not list((workdir / "results" / "snapshots").rglob("*.parquet")), "kept tables were left"

    config = validate_config(yaml.safe_load(LONG_RUN_CONFIG), REPO / "schemas" / "config.schema.yaml")
    entry = config["regimes"]["long"]["instances"]["cliques_2x3"]
    instance = bandit_instance.build_instance(
        entry, np.random.default_rng(job_seed_sequence("long", "cliques_2x3", "instance"))
    )
    uninterrupted, _ = run_seeds("long", "cliques_2x3", instance, "exp3g", "paper", 20_000_000, [0])
    resumed = pd.read_parquet(workdir / target / "paper/cliques_2x3/T~20000000/seeds~0-0.parquet")
    pd.testing.assert_frame_equal(resumed, uninterrupted, check_exact=True)
