"""The digest of every file the workflow writes, recorded when it is written, so that a file changed since —
one flipped bit, a truncation, a planted copy — is found before anything reads it.

:func:`regretlab.core.io.atomic_path` calls :func:`record` for every file it moves into place under
``results/`` or ``figures/`` (relative to the working directory, where the workflow runs): the file's SHA-256
goes to ``results/.digests/<its path>.sha256``, one small file per output (parallel jobs never write the same
record), written *before* the output is renamed into place, so that a kill in between leaves a record that
no longer matches the old file: that file is then treated as changed, which it is about to be.
:func:`check` compares a file with its record; :mod:`regretlab.workflow.integrity` heals and lists them.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

#: The folders whose files get a digest record (relative to the working directory), and where records go.
RECORDED = ("results", "figures")
DIGEST_ROOT = Path("results") / ".digests"
_SUFFIX = ".sha256"


def file_digest(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def _relative(path: str | os.PathLike) -> Path | None:
    """``path`` relative to the working directory if it lies in a :data:`RECORDED` folder (not in the
    records' own), else None."""
    try:
        relative = Path(os.path.abspath(path)).relative_to(Path.cwd())
    except ValueError:
        return None
    if not relative.parts or relative.parts[0] not in RECORDED or relative.is_relative_to(DIGEST_ROOT):
        return None
    return relative


def record_path(path: str | os.PathLike) -> Path | None:
    """Where the digest of ``path`` is recorded (None: not a recorded file)."""
    relative = _relative(path)
    return None if relative is None else DIGEST_ROOT / f"{relative}{_SUFFIX}"


def record(path: str | os.PathLike, content: str | os.PathLike) -> None:
    """Record the digest of the file at ``content`` (the temporary file about to become ``path``) as
    ``path``'s; nothing for a path outside :data:`RECORDED`."""
    where = record_path(path)
    if where is None:
        return
    where.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{where.name}.", suffix=".tmp", dir=where.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as stream:
            stream.write(file_digest(content) + "\n")
        os.replace(tmp, where)
    finally:
        Path(tmp).unlink(missing_ok=True)


def recorded(path: str | os.PathLike) -> str | None:
    """The digest recorded for ``path``, or None when there is no record."""
    where = record_path(path)
    if where is None or not where.is_file():
        return None
    return where.read_text(encoding="ascii").strip()


def check(path: str | os.PathLike) -> str | None:
    """None when ``path``'s bytes match its record (or it has none); else why not, in a few words."""
    expected = recorded(path)
    if expected is None:
        return None
    if not Path(path).is_file():
        return "written, then deleted"
    if file_digest(path) != expected:
        return "changed since it was written (its SHA-256 is not the one recorded)"
    return None


def forget(path: str | os.PathLike) -> None:
    """Delete ``path``'s record (the file itself is being deleted)."""
    where = record_path(path)
    if where is not None:
        where.unlink(missing_ok=True)


def recorded_files() -> list[Path]:
    """Every file that has a record (present or not), relative to the working directory."""
    if not DIGEST_ROOT.is_dir():
        return []
    return sorted(
        Path(*where.relative_to(DIGEST_ROOT).parts[:-1], where.name[: -len(_SUFFIX)])
        for where in DIGEST_ROOT.rglob(f"*{_SUFFIX}")
    )
