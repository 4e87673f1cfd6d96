"""The power scale's archive: runs too long for the default run (hours, at the horizons where a bound beats
uniform play), kept in the repository with their provenance so that the default run draws them and enters
them in the evidence table without rerunning them (issue 34).

``snakemake --config scale=power`` runs the regimes with a ``power`` grid, one job per (instance, T, seed),
and :func:`write_archive` copies their run tables (one seed each: checkpoints, not per-episode traces) to
``archive/power/<regime>/<algorithm>/<constants>/<instance>/T~<T>/seeds~<s>-<s>.parquet`` beside
``provenance.json``: the regime's config entry as it ran, the seeds, the digest of the code each learner ran
(:func:`run_code_digest`: the run job's library files and registry entries, the same import graph that
reruns a run job), the SHA-256 of every table, the date, each run's wall time (``run_seconds``, as the run
recorded it: on a loaded machine more than its CPU time), the machine and the command that refreshes it.

The default run reads it (:func:`summarise_archive`): an archive is **fresh** when its tables are the ones
recorded, its instances are the config's and every learner's code digest is today's; then its runs are
aggregated exactly as a regime's (:func:`regretlab.analysis.aggregate.aggregate_regime`, the bounds evaluated
by today's code), under the regime name ``<regime>~power``, and the evidence table counts them. A **stale**
archive is drawn for the record and counted nowhere; the status file says why and how to refresh it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import shutil
import tempfile
from pathlib import Path

import numba
import numpy as np
import pandas as pd
from numpy.lib.introspect import opt_func_info

from regretlab.analysis.aggregate import ARCHIVED_SUFFIX as SUFFIX
from regretlab.core.digests import file_digest
from regretlab.core.io import git_commit, read_json, read_parquet_metadata, write_json
from regretlab.workflow.config import scale_regimes
from regretlab.workflow.imports import job_code, job_entries

#: The repository (scripts/ holds each kind's run adapter, ``run_<kind>.py``).
REPO = Path(__file__).resolve().parents[3]
#: Where the archive lives, relative to the working directory.
ARCHIVE_ROOT = Path("archive") / "power"
PROVENANCE = "provenance.json"
#: The command that writes (or refreshes) the archive.
REFRESH = "snakemake --config scale=power"


def run_job_files(kind: str, algorithm: str) -> list[Path]:
    """The library files a run job of ``algorithm`` runs (:mod:`regretlab.workflow.imports`), sorted."""
    script = REPO / "scripts" / f"run_{kind}.py"
    return sorted(Path(p).resolve() for p in job_code(script, (algorithm,), (algorithm,)))


def run_code_digest(kind: str, algorithm: str) -> str:
    """SHA-256 (16 hex digits) over what a run job of ``algorithm`` runs: its library files (path and
    bytes, :func:`run_job_files`) and the digests of the registry entries it reads
    (:mod:`regretlab.workflow.imports`)."""
    digest = hashlib.sha256()
    for path in run_job_files(kind, algorithm):
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    script = REPO / "scripts" / f"run_{kind}.py"
    digest.update(json.dumps(job_entries(script, (algorithm,), (algorithm,)), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def _cpu_model() -> str | None:
    """The CPU's model name (Linux's ``/proc/cpuinfo``; None elsewhere)."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text(encoding="utf-8").splitlines() if cpuinfo.is_file() else []
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), None)


def numpy_log_target() -> str:
    """The instruction set numpy's float64 ``log`` runs on here (``X86_V4``: AVX-512, whose ``log`` and
    ``exp`` differ from the C library's in the last bit for some inputs;
    docs/notes/machine-independent-bits.md)."""
    return opt_func_info(func_name="^log$", signature="float64")["log"]["dd"]["current"]


def _machine() -> dict:
    """Where the tables were made. ``numpy_log_target`` (:func:`numpy_log_target`) tells a difference in
    the last bits made by numpy's AVX-512 loops from a changed table; ``numba_svml``: whether numba's
    vectorised loops call Intel's SVML instead of the C library (only where Intel's runtime is installed)."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numpy_log_target": numpy_log_target(),
        "numba_svml": numba.config.USING_SVML,
    }


def _archived_path(table: str | os.PathLike, regime: str) -> Path:
    """``results/runs/<regime>/<algorithm>/part~<k>/<constants>/<instance>/T~<T>/<seeds>.parquet`` without
    its root and its job part (the power scale's cut into jobs is not part of the result)."""
    parts = Path(table).parts
    start = parts.index(regime) + 1
    algorithm, _, constants, *rest = parts[start:]
    return Path(algorithm, constants, *rest)


def write_archive(
    regime: str, entry: dict, run_tables: list[str], directory: str | os.PathLike, command: str = REFRESH
) -> dict:
    """Copy a power-scale regime's run tables into ``directory`` (the module docstring's layout) and write
    its provenance, ``command`` being what made the tables; return the provenance. Written into a temporary
    directory first, then moved into place: an interrupted archive leaves the old one whole."""
    directory = Path(directory)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    tables, seeds, run_seconds = {}, set(), {}
    for table in sorted(run_tables):
        target = staging / _archived_path(table, regime)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(table, target)
        name = target.relative_to(staging).as_posix()
        tables[name] = file_digest(target)
        metadata = read_parquet_metadata(target)
        seeds.update(int(s) for s in metadata.get("seeds", []))
        run_seconds[name] = round(float(metadata["wall_time_s"]), 3)
    algorithms = sorted({Path(name).parts[0] for name in tables})
    provenance = {
        "regime": regime,
        "entry": entry,
        "grid": entry["scales"]["power"],
        "seeds": sorted(seeds),
        "code": {algorithm: run_code_digest(entry["kind"], algorithm) for algorithm in algorithms},
        "tables": tables,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "run_seconds": run_seconds,
        "machine": _machine(),
        "git_commit": git_commit(),
        "command": command,
    }
    write_json(staging / PROVENANCE, provenance)
    if directory.exists():
        shutil.rmtree(directory)
    staging.rename(directory)
    return provenance


def run_seconds(directory: str | os.PathLike) -> dict[str, float]:
    """Each archived table's run wall time at the last refresh (``run_seconds`` of the provenance in
    ``directory``), by its path inside the archive."""
    return read_json(Path(directory) / PROVENANCE)["run_seconds"]


def archived_run_seconds(config: dict, root: str | os.PathLike = ARCHIVE_ROOT) -> dict[str, list[float]]:
    """Per regime of a validated ``config`` at its scale that has an archive under ``root``: its runs' wall
    times at the last refresh (:func:`run_seconds`), which ``regretlab estimate`` shows beside its
    prediction."""
    return {
        regime: list(run_seconds(Path(root) / regime).values())
        for regime in scale_regimes(config)
        if (Path(root) / regime / PROVENANCE).is_file()
    }


def archive_status(directory: str | os.PathLike, entry: dict) -> dict:
    """``{"fresh": bool, "reasons": [...], "provenance": {...}}`` of the archive in ``directory`` against the
    regime's config ``entry`` today (module docstring)."""
    directory = Path(directory)
    provenance = read_json(directory / PROVENANCE)
    reasons = []
    on_disk = {p.relative_to(directory).as_posix() for p in directory.rglob("*.parquet")}
    if on_disk != set(provenance["tables"]):
        odd = sorted(on_disk ^ set(provenance["tables"]))
        reasons.append(f"its tables are not the ones recorded (extra or missing: {odd})")
    for name, recorded in sorted(provenance["tables"].items()):
        if name in on_disk and file_digest(directory / name) != recorded:
            reasons.append(f"{name} changed since it was archived")
    if entry["instances"] != provenance["entry"]["instances"] or entry["kind"] != provenance["entry"]["kind"]:
        reasons.append("the regime's instances in the config differ from those archived")
    for algorithm, digest in sorted(provenance["code"].items()):
        if run_code_digest(entry["kind"], algorithm) != digest:
            reasons.append(f"the code {algorithm} runs has changed since (digest {digest})")
    return {"fresh": not reasons, "reasons": reasons, "refresh": REFRESH, "provenance": provenance}


def summarise_archive(
    regime: str,
    entry: dict,
    directory: str | os.PathLike,
    instance_paths: list[str],
    n_resamples: int,
    outputs: dict[str, str],
) -> dict:
    """The default run's view of an archived regime: its status (``outputs["status"]``), and its runs
    aggregated as a regime's with today's bounds (``entry``'s), under the name ``<regime>~power``
    (``outputs["summary"]``, ``["exponents"]``) and drawn (``["png"]``, ``["pdf"]``). Returns the status."""
    from regretlab.analysis.aggregate import aggregate_regime
    from regretlab.analysis.figures import plot_regime
    from regretlab.core.io import write_parquet

    status = archive_status(directory, entry)
    with tempfile.TemporaryDirectory() as scratch:
        summary_tmp, exponents_tmp = Path(scratch, "summary.parquet"), Path(scratch, "exponents.parquet")
        aggregate_regime(
            regime, entry, instance_paths, [str(directory)], n_resamples, summary_tmp, exponents_tmp
        )
        metadata = {**read_parquet_metadata(summary_tmp), "archive": status}
        frames = []
        for source, target in ((summary_tmp, outputs["summary"]), (exponents_tmp, outputs["exponents"])):
            frame = pd.read_parquet(source)
            frame["regime"] = regime + SUFFIX
            write_parquet(target, frame, metadata)
            frames.append(frame)
    plot_regime(*frames, outputs["png"], outputs["pdf"])
    write_json(outputs["status"], status)
    return status
