"""Atomic writes and run metadata.

Every file the pipeline produces is written to a temporary sibling and renamed into place, so an interrupted
or failed job never leaves a truncated file under the final name; its digest is recorded on the way
(:mod:`regretlab.core.digests`), so that a later change to it is found.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import regretlab
from regretlab.core import digests

#: Key under which regretlab stores its metadata in a parquet file's schema metadata.
METADATA_KEY = b"regretlab"


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp creates 0600; give the file the usual permissions
        digests.record(target, tmp)  # before the rename: a kill in between leaves a record the old file fails
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path: str | os.PathLike, text: str) -> None:
    """Atomically write a text file."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | os.PathLike, data: object) -> None:
    """Atomically write ``data`` as indented, key-sorted JSON (stable bytes for stable input)."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def read_json(path: str | os.PathLike) -> dict:
    """Read a JSON file written by :func:`write_json`."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_parquet(path: str | os.PathLike, frame: pd.DataFrame, metadata: dict | None = None) -> None:
    """Atomically write ``frame`` as parquet, storing ``metadata`` (JSON) in the schema metadata.

    The bytes depend only on ``frame`` and ``metadata``: pass no wall-clock values in ``metadata`` when the
    file must be bitwise reproducible.
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if metadata is not None:
        extra = {METADATA_KEY: json.dumps(metadata, sort_keys=True).encode("utf-8")}
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def read_parquet_metadata(path: str | os.PathLike) -> dict:
    """The regretlab metadata stored by :func:`write_parquet` (empty dict if there is none)."""
    raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
    return json.loads(raw) if raw else {}


def config_hash(config: object) -> str:
    """A short, stable hash of a JSON-serialisable configuration."""
    blob = json.dumps(config, sort_keys=True, default=str).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:16]


def git_commit(directory: str | os.PathLike | None = None) -> str | None:
    """The current git commit of ``directory`` (default: the package's source tree), or None."""
    where = Path(directory) if directory is not None else Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def run_metadata(config: object, wall_time_s: float) -> dict:
    """Provenance of one run: package version, git commit (if any), config hash and wall time."""
    return {
        "regretlab_version": regretlab.__version__,
        "git_commit": git_commit(),
        "config_hash": config_hash(config),
        "wall_time_s": round(float(wall_time_s), 6),
    }


#: Key columns every run table starts with, in order (after them: ``seed``, ``t`` and the kind's metrics).
RUN_KEYS = ("regime", "instance", "algorithm", "constants", "T")


def stack_run_frames(frames: list[pd.DataFrame], **keys: object) -> pd.DataFrame:
    """Concatenate one seed batch's per-seed frames and prepend the key columns :data:`RUN_KEYS`."""
    runs = pd.concat(frames, ignore_index=True)
    for column in reversed(RUN_KEYS):
        runs.insert(0, column, keys[column])
    return runs


def write_run_table(
    path: str | os.PathLike,
    runs: pd.DataFrame,
    config: object,
    wall_time_s: float,
    info: dict,
    seeds: list[int],
) -> None:
    """Atomically write a run table with its provenance (:func:`run_metadata`), the learners' ``info`` and
    the seeds in the parquet metadata."""
    write_parquet(path, runs, {**run_metadata(config, wall_time_s), **info, "seeds": list(seeds)})
