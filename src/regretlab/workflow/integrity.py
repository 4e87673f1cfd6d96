"""Stored files a user can trust: every file under ``results/`` and ``figures/`` checked against the digest
recorded when the workflow wrote it (:mod:`regretlab.core.digests`) and, recorded or not, read far enough to
know it is whole.

:func:`heal` runs when the Snakefile is parsed (in the main Snakemake process only, before the DAG is built):
each corrupt file is named in one line and removed together with what Snakemake would otherwise keep trusting
— a run table's whole run-job directory and its regime's summary (a directory output is rebuilt only whole,
and a missing intermediate is rebuilt only when a target needs it) — so that the same ``snakemake`` rebuilds
it. ``regretlab verify`` (:func:`verify`) lists every file's state without changing anything.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from regretlab.core import digests

#: A run job's directory (rules/common.smk's RUN_PART) and the summary files of its regime.
_RUN_PART = re.compile(r"^results/runs/(?P<regime>[^/]+)/[^/]+/part~\d+")
_SUMMARIES = ("results/summary/{regime}.parquet", "results/summary/{regime}.exponents.parquet")
#: Where Snakemake keeps the lock files of the run that holds the working directory.
_LOCKS = ".snakemake/locks"
#: Where a file without a record is foreign: every file there is written by the workflow.
_WRITTEN_ONLY = ("results/runs/", "results/snapshots/")


@dataclass(frozen=True)
class FileState:
    """One file's verdict: ``corrupt`` (changed, unreadable or foreign), ``missing`` (recorded, then
    deleted), ``unrecorded`` (whole, but written by nothing that recorded it), ``ok``."""

    path: Path
    state: str
    reason: str = ""


def _whole_problem(path: Path) -> str | None:
    """None when the file reads as its kind of file (parquet, JSON, PNG, PDF, npz, text); else why not."""
    suffix = path.suffix
    try:
        if suffix == ".parquet":
            pq.read_metadata(path)
        elif suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
        elif suffix == ".png":
            data = path.read_bytes()
            if not data.startswith(b"\x89PNG\r\n\x1a\n") or not data.endswith(b"IEND\xaeB`\x82"):
                return "not a whole PNG (truncated?)"
        elif suffix == ".pdf":
            data = path.read_bytes()
            if not data.startswith(b"%PDF") or b"%%EOF" not in data[-1024:]:
                return "not a whole PDF (truncated?)"
        elif suffix == ".npz":
            with zipfile.ZipFile(path) as archive:
                if archive.testzip() is not None:
                    return "a damaged archive"
        elif suffix in (".csv", ".md", ".tsv", ".html"):
            path.read_text(encoding="utf-8")
    except Exception as error:  # noqa: BLE001 - any failure to read is the finding
        return f"cannot be read ({type(error).__name__})"
    return None


def _files(roots: tuple[str, ...]) -> Iterator[Path]:
    for root in roots:
        if Path(root).is_dir():
            for path in sorted(Path(root).rglob("*")):
                hidden = any(part.startswith(".") for part in path.parts)
                if path.is_file() and not hidden:
                    yield path


def file_states(roots: tuple[str, ...] = digests.RECORDED) -> list[FileState]:
    """The state of every file under ``roots`` and of every recorded file (relative to the working
    directory, where the workflow runs)."""
    states = []
    present = set(_files(roots))
    for path in sorted(present | {p for p in digests.recorded_files() if p.parts[0] in roots}):
        changed = digests.check(path)
        if changed is not None:
            states.append(FileState(path, "missing" if not path.exists() else "corrupt", changed))
        elif (problem := _whole_problem(path)) is not None:
            states.append(FileState(path, "corrupt", problem))
        elif digests.recorded(path) is None:
            if path.as_posix().startswith(_WRITTEN_ONLY):
                states.append(FileState(path, "corrupt", "not written by the workflow (no digest record)"))
            else:
                states.append(FileState(path, "unrecorded", "no digest record"))
        else:
            states.append(FileState(path, "ok"))
    return states


def _removal(path: Path) -> list[Path]:
    """What to remove so that Snakemake rebuilds ``path``: a run table's run-job directory and its regime's
    summary, else the file itself."""
    match = _RUN_PART.match(path.as_posix())
    if match is None:
        return [path]
    return [Path(match.group(0)), *(Path(p.format(regime=match["regime"])) for p in _SUMMARIES)]


def heal(roots: tuple[str, ...] = digests.RECORDED, run_tables: Collection[str] | None = None) -> list[str]:
    """Remove every corrupt file under ``roots`` (and what must be rebuilt with it); one line each. A
    missing run table counts (a directory output is rebuilt only whole); other missing files are
    Snakemake's to rebuild. The temporary files of writes a hard kill interrupted are removed too.

    ``run_tables``: the tables the config's run jobs write. A missing one that is not among them was written
    by a run job of another config or scale (the power scale's tables share the run-job directories) and
    deleted when Snakemake reran that job: its record is dropped, with a line, and nothing is rebuilt (else
    every run would rebuild the directory). None: every missing run table counts.

    Nothing is touched while another Snakemake holds the directory's lock (its jobs may be writing)."""
    if any(Path(_LOCKS).glob("*.lock")):
        return []
    for root in roots:
        for leftover in Path(root).rglob(".*.tmp") if Path(root).is_dir() else ():
            leftover.unlink(missing_ok=True)
    lines, removed = [], set()
    for found in file_states(roots):
        in_run_dir = _RUN_PART.match(found.path.as_posix()) is not None
        if found.state in ("ok", "unrecorded") or (found.state == "missing" and not in_run_dir):
            continue
        if found.state == "missing" and run_tables is not None and found.path.as_posix() not in run_tables:
            digests.forget(found.path)
            lines.append(f"{found.path}: {found.reason}; no run job of this config writes it: "
                         "its record is dropped")  # fmt: skip
            continue
        targets = _removal(found.path)
        if targets[0] in removed:
            continue
        for target in targets:
            _remove(target)
        removed.update(targets)
        also = "".join(f" {p}," for p in targets if p != found.path)
        lines.append(f"{found.path}: {found.reason}; removed{also} to be rebuilt")
    return lines


def _remove(target: Path) -> None:
    if target.is_dir():
        for inner in target.rglob("*"):
            digests.forget(inner)
        shutil.rmtree(target, ignore_errors=True)
    else:
        digests.forget(target)
        target.unlink(missing_ok=True)


def verify(roots: tuple[str, ...] = digests.RECORDED, show_ok: bool = False) -> tuple[list[str], bool]:
    """``regretlab verify``: one line per file that is not ``ok`` (every file with ``show_ok``) and a count,
    and whether no file is corrupt."""
    states = file_states(roots)
    lines = [
        f"{found.state:<10}  {found.path}" + (f"  ({found.reason})" if found.reason else "")
        for found in states
        if show_ok or found.state != "ok"
    ]
    count = {state: sum(f.state == state for f in states) for state in ("ok", "unrecorded", "missing")}
    corrupt = len(states) - sum(count.values())
    lines.append(
        f"{len(states)} files: {count['ok']} match their digests, {corrupt} corrupt"
        f"{' (the next snakemake rebuilds them)' if corrupt else ''}, {count['missing']} missing, "
        f"{count['unrecorded']} unrecorded (whole, not written through regretlab's writer: Snakemake's "
        "benchmark files, a clone's committed figures, an older version's files)"
    )
    return lines, corrupt == 0
