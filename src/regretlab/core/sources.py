"""The package's sources as one digest: what depends on the code (numba's compiled cache,
:mod:`regretlab.core.numba_cache`; the snapshots' keys, :mod:`regretlab.core.snapshots`) is keyed by it, so
that an edit of any source file makes it stale."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

#: The package's source tree.
PACKAGE = Path(__file__).resolve().parents[1]


def source_digest(package: Path = PACKAGE) -> str:
    """SHA-256 (first 16 hex digits) over the relative path and bytes of every ``.py`` file under
    ``package``, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


@cache
def package_digest() -> str:
    """:func:`source_digest` of this package, computed once per process (the sources a process imported do
    not change while it runs)."""
    return source_digest(PACKAGE)
