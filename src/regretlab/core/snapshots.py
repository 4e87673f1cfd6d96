"""Snapshots of long runs, so that a run killed (SIGKILL, a SLURM time-out, a pre-empted node) resumes where
it was instead of starting over, and ends with the table an uninterrupted run writes, bit for bit.

One run table (:class:`regretlab.workflow.config.RunJob`: an algorithm and preset on one instance, horizon and
seed batch) has at most one snapshot file: every ``interval_s`` seconds of its simulation, at the end of a
chunk of rounds or episodes, the table's whole progress is written atomically
(:func:`regretlab.core.io.atomic_path`) as a ``.npz`` of plain arrays and a JSON tree
(:mod:`regretlab.core.state_codec`; never pickle, so a planted file cannot run code): the finished seeds'
rows, and for the seed in progress everything its loop would need to go on — the learner with its generator,
the environment's generator, the tracker or the evaluator's sums, the rows recorded so far, the chunk position
(:func:`regretlab.bandits.simulate.simulate`, :func:`regretlab.cmdp.simulate.simulate`). A run shorter than
one interval never writes one. The file is removed once the run's table is written.

A run job plays several runs one after the other (:func:`regretlab.core.run_sets.play_run_set`), and after a
kill Snakemake deletes the job's whole output directory, finished tables included. So a finished table is also
*kept* beside its snapshot, with the same key (:meth:`Snapshot.finish`: a hard link to the written file, a
copy where the file system has none), until the job completes (:func:`clear_kept`); a rerun of the job
*restores* each kept table (:meth:`Snapshot.restore`: the same file, byte for byte) instead of playing its
run again, and resumes the run that was killed from its snapshot. A kill thus loses at most one snapshot
interval of one run, however many runs the job had finished.

Where (relative to the working directory)::

    results/snapshots/{regime}/{algorithm}/{constants}/{instance}/T~{T}/seeds~{a}-{b}.{key}.snapshot.npz
    results/snapshots/{regime}/{algorithm}/{constants}/{instance}/T~{T}/seeds~{a}-{b}.{key}.parquet

outside every job's declared outputs (Snakemake deletes those before it reruns a job). ``key`` hashes the
run's identity, its regime's config entry, the package's sources and the versions of Python, numpy and numba,
so a snapshot or kept table of other code or another config is never used: it is deleted when the run starts.
The snapshot also holds that identity and is read only if it matches: a file that cannot be read, or that
belongs to another run (renamed to this run's key), is named in one log line, deleted, and the run starts
over. Files of the earlier pickle format (``*.pickle``) are deleted unread.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import platform
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numba
import numpy as np

from regretlab.core import digests, state_codec
from regretlab.core.io import atomic_path, config_hash
from regretlab.core.sources import package_digest

#: Where the workflow's run jobs keep their snapshots (relative to the working directory).
SNAPSHOT_ROOT = "results/snapshots"
#: A snapshot file's name ends so; its layout (:func:`write_snapshot`) is version :data:`SNAPSHOT_FORMAT`.
SNAPSHOT_SUFFIX = ".snapshot.npz"
SNAPSHOT_FORMAT = 1
#: The ``.npz`` entry holding the JSON document; the arrays are ``a0``, ``a1`` … in the codec's order.
_TREE = "tree"

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SnapshotPolicy:
    """Where the snapshots of a job's runs go and how often they are taken (``snapshot_minutes``).

    ``clock`` is the time source (seconds); tests pass a counter to snapshot at chosen chunk ends."""

    root: str | Path = SNAPSHOT_ROOT
    interval_s: float = 300.0
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)


@cache
def _environment_key() -> str:
    """The versions and the package's sources (every module: any edit makes the snapshots stale)."""
    return json.dumps([sys.version, np.__version__, numba.__version__, platform.machine(), package_digest()])


class Snapshot:
    """The snapshot file of one run table (module docstring)."""

    def __init__(
        self,
        policy: SnapshotPolicy,
        regime: str,
        algorithm: str,
        constants: str,
        instance: str,
        horizon: int,
        seeds: list[int],
        config: dict,
    ) -> None:
        run = [regime, algorithm, constants, instance, int(horizon), [int(s) for s in seeds]]
        #: What the snapshot belongs to: the run, its config entry and the code (checked on load).
        self.identity = [run, config_hash(config), _environment_key()]
        key = hashlib.sha256(json.dumps(self.identity).encode("utf-8")).hexdigest()[:16]
        stem = _stem(seeds)
        directory = _directory(policy.root, regime, algorithm, constants, instance, horizon)
        self.path = directory / f"{stem}.{key}{SNAPSHOT_SUFFIX}"
        #: The run's finished table, kept until its job completes (module docstring).
        self.kept = directory / f"{stem}.{key}.parquet"
        self._interval = policy.interval_s
        self._clock = policy.clock
        self._last = self._clock()
        for stale in directory.glob(f"{stem}.*.pickle"):
            _log.warning("removed a snapshot of the old pickle format, unread: %s", stale)
            _delete(stale)
        for stale in [*directory.glob(f"{stem}.*{SNAPSHOT_SUFFIX}"), *directory.glob(f"{stem}.*.parquet")]:
            if stale not in (self.path, self.kept):
                _log.info("removed a snapshot or kept table of other code or config: %s", stale)
                _delete(stale)

    def load(self) -> dict | None:
        """The saved progress, or None when there is none or it cannot be used (one log line naming the
        file; the file is deleted and the run starts over)."""
        if not self.path.is_file():
            return None
        try:
            identity, state = read_snapshot(self.path)
            if identity != self.identity:
                raise state_codec.CorruptState("it belongs to another run, config or code")
        except Exception as error:  # noqa: BLE001 - any damage or forgery means: start over
            _log.warning("ignored and removed snapshot %s: %s", self.path, _reason(error))
            _delete(self.path)
            return None
        _log.info("resuming from snapshot %s", self.path)
        return state

    def due(self) -> bool:
        """Whether an interval has passed since the last save (or since the run started)."""
        return self._clock() - self._last >= self._interval

    def save(self, state: dict) -> None:
        """Write ``state`` atomically (a kill during the write leaves the previous snapshot)."""
        write_snapshot(self.path, self.identity, state)
        self._last = self._clock()

    def remove(self) -> None:
        """Delete the snapshot (the run's table is written)."""
        _delete(self.path)

    def finish(self, table: str | os.PathLike | None) -> None:
        """The run's table is written at ``table`` (None: not written): keep it until the job completes, then
        delete the snapshot (in this order, so that a kill in between leaves one of them)."""
        if table is not None:
            _link_or_copy(Path(table), self.kept)
        self.remove()

    def restore(self, table: str | os.PathLike) -> bool:
        """Put the run's kept table at ``table`` (the same bytes) if an earlier attempt of its job finished
        it; return whether it did. A kept table that is not that finished table (changed since it was kept,
        or kept by nothing that recorded its digest, :mod:`regretlab.core.digests`) is deleted with one log
        line, and the run is played."""
        if not self.kept.is_file():
            return False
        unrecorded = digests.record_path(self.kept) is not None and digests.recorded(self.kept) is None
        problem = digests.check(self.kept) or ("no digest record: not kept by a run" if unrecorded else None)
        if problem:
            _log.warning("ignored and removed kept table %s: %s", self.kept, problem)
            _delete(self.kept)
            return False
        _link_or_copy(self.kept, Path(table))
        self.remove()  # left by a kill between keeping the table and removing the snapshot
        _log.info("restored the finished table %s from %s (not run again)", table, self.kept)
        return True


def write_snapshot(path: Path, identity: list, state: dict) -> None:
    """Write ``identity`` and ``state`` to ``path`` atomically: a ``.npz`` of ``state``'s arrays and, in its
    entry :data:`_TREE`, the JSON of the identity and the tree (:func:`regretlab.core.state_codec.encode`)."""
    tree, arrays = state_codec.encode(state)
    text = json.dumps({"format": SNAPSHOT_FORMAT, "identity": identity, "state": tree})
    entries = {f"a{i}": array for i, array in enumerate(arrays)}
    with atomic_path(path) as tmp, open(tmp, "wb") as stream:
        np.savez(stream, **entries, **{_TREE: np.frombuffer(text.encode("utf-8"), dtype=np.uint8)})


def read_snapshot(path: Path) -> tuple[list, dict]:
    """``(identity, state)`` of a file :func:`write_snapshot` wrote; arrays are read with
    ``allow_pickle=False``, so no file can make this run code. Raises on anything else."""
    with np.load(path, allow_pickle=False) as stored:
        document = json.loads(bytes(stored[_TREE]).decode("utf-8"))
        if not isinstance(document, dict) or document.get("format") != SNAPSHOT_FORMAT:
            raise state_codec.CorruptState("not a snapshot of this format")
        arrays = [stored[f"a{i}"] for i in range(len(stored.files) - 1)]
    return document["identity"], state_codec.decode(document["state"], arrays)


def _reason(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _delete(path: Path) -> None:
    """Delete a snapshot or kept table and its digest record."""
    path.unlink(missing_ok=True)
    digests.forget(path)


def _stem(seeds) -> str:
    return f"seeds~{seeds[0]}-{seeds[-1]}"


def _directory(root, regime: str, algorithm: str, constants: str, instance: str, horizon: int) -> Path:
    return Path(root) / regime / algorithm / constants / instance / f"T~{horizon}"


def _link_or_copy(source: Path, target: Path) -> None:
    """``target`` becomes ``source``'s file atomically: a hard link (no bytes copied), or a copy where the
    file system cannot link (another device, no hard links)."""
    with atomic_path(target) as tmp:
        tmp.unlink()
        try:
            os.link(source, tmp)
        except OSError:
            shutil.copyfile(source, tmp)


def clear_kept(policy: SnapshotPolicy, regime: str, algorithm: str, constants: str, runs: list[dict]) -> None:
    """Delete the kept tables of a run job's ``runs`` (``{"instance", "T", "seeds"}`` dicts), whatever their
    key: the job has written all its tables, and Snakemake keeps its output from now on."""
    for run in runs:
        directory = _directory(policy.root, regime, algorithm, constants, run["instance"], run["T"])
        for path in directory.glob(f"{_stem(run['seeds'])}.*.parquet"):
            _delete(path)


class TableProgress:
    """What a run table has done so far, resumed from its snapshot if there is one.

    ``done`` maps a finished seed to its result (rows and learner facts); ``extra`` holds what the table
    computed before its seeds (Theorem 5's materialised environment); :meth:`seed` gives the seed in
    progress its :class:`SeedProgress`. A table without a snapshot (``snapshot=None``) never saves."""

    def __init__(self, snapshot: Snapshot | None) -> None:
        self._snapshot = snapshot
        saved = snapshot.load() if snapshot is not None else None
        self.done: dict[int, object] = saved["done"] if saved else {}
        self.extra = saved["extra"] if saved else None
        self._current = saved["current"] if saved else None
        self._since: tuple[int, int, float] | None = None  # (seed, t, time) where this process began the seed

    def seed(self, seed: int) -> SeedProgress:
        """The progress of ``seed``: its saved loop state if the snapshot was taken while it ran."""
        resumed = self._current[1] if self._current is not None and self._current[0] == seed else None
        self._since = (seed, int(resumed["t0"]) if resumed else 0, time.monotonic())
        return SeedProgress(self, seed, resumed)

    def _maybe_save(
        self, seed: int, state: Callable[[], dict], so_far: Callable[[], dict[str, float]] | None = None
    ) -> None:
        if self._snapshot is not None and self._snapshot.due():
            current = state()
            self._snapshot.save({"done": self.done, "extra": self.extra, "current": (seed, current)})
            self._report(seed, int(current["t0"]), so_far() if so_far is not None else {})

    def _report(self, seed: int, t: int, so_far: dict[str, float]) -> None:
        """One line in the job's log at each snapshot: where the run is, the run's own measures so far
        (``so_far``, named as the run's table names them, e.g. the pseudo-regret up to t), its speed since
        this process began the seed (or resumed it), and the time the rest of the seed would take at that
        speed."""
        now = time.monotonic()
        if self._since is None or self._since[0] != seed:  # a caller that bypassed seed()
            self._since = (seed, t, now)
        horizon, seeds = self._snapshot.identity[0][4], self._snapshot.identity[0][5]
        _, start, began = self._since
        rate = (t - start) / (now - began) if now > began and t > start else math.nan
        left = (horizon - t) / rate if rate > 0 else math.nan
        measures = "".join(f", {name} up to t = {value:.6g}" for name, value in so_far.items())
        _log.info(
            "snapshot: seed %d (%d of %d done), t = %d of T = %d (%.1f %%)%s, %.3g per second, about %s left "
            "for this seed",
            seed, len(self.done), len(seeds), t, horizon, 100 * t / horizon, measures, rate,
            "?" if math.isnan(left) else f"{left / 60:.1f} min",
        )  # fmt: skip


@dataclass
class SeedProgress:
    """The hooks a simulation loop calls: ``resumed`` is the loop state to start from (None: from round 1),
    and :meth:`maybe_save` is called at every chunk end with a function returning the loop state."""

    table: TableProgress
    seed: int
    resumed: dict | None

    def maybe_save(
        self, state: Callable[[], dict], so_far: Callable[[], dict[str, float]] | None = None
    ) -> None:
        """Snapshot the table with this seed's loop state ``state()`` if an interval has passed, and log the
        run's measures ``so_far()`` (name → value at the chunk's end) with it."""
        self.table._maybe_save(self.seed, state, so_far)
