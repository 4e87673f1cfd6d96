"""Where numba keeps the compiled kernels: one directory per version of the package's sources.

numba keys a cached function by its own source file's modification time and size only: after an edit of a file
whose functions a kernel of another file calls, inlines or reads constants from (``bandits/omd.py``'s steps
are inlined into every OMD learner's round, ``cmdp/flow_newton.py``'s Newton steps into the PDGD-OPS episode),
numba would load the caller's old machine code and the run would silently play the old code
(``tests/test_numba_cache.py`` shows it). So :func:`use_source_keyed_cache`, called by
``regretlab/__init__.py`` before anything imports numba, points numba's cache (``NUMBA_CACHE_DIR``) at
``<cache home>/regretlab/numba/<digest of every .py file of the package>`` (:mod:`regretlab.core.sources`): an
edit of any source file gives a fresh directory, in which every kernel is compiled anew on first use, and a
checkout's kernels are never mixed with another version's. ``<cache home>`` is ``$XDG_CACHE_HOME`` or
``~/.cache``.

A ``NUMBA_CACHE_DIR`` the user sets is respected (keeping it valid is then theirs). The one regretlab sets is
marked by :data:`MARKER` with the same value, so a process started from a regretlab process (a Snakemake
job, a test's copy of the repository) computes its own directory from its own sources instead of inheriting
its parent's. Directories of other versions untouched for :data:`KEEP_DAYS` days are deleted (each is a few
MB); deleting ``~/.cache/regretlab/numba`` while nothing runs is always safe.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from regretlab.core.sources import package_digest

#: Environment variable holding the directory regretlab set (equal to ``NUMBA_CACHE_DIR`` when it set it).
MARKER = "REGRETLAB_NUMBA_CACHE_DIR"
#: Other versions' directories older than this are deleted when a new one is made.
KEEP_DAYS = 1.0


def cache_root() -> Path:
    """``<cache home>/regretlab/numba``: the parent of every version's directory."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home) / "regretlab" / "numba"


def use_source_keyed_cache(digest: str | None = None) -> str | None:
    """Point numba's cache at the directory of the sources' ``digest`` (default: this package's,
    :func:`regretlab.core.sources.package_digest`; see the module docstring) and return it; the user's own
    ``NUMBA_CACHE_DIR`` when they set one; None (numba's default, ``__pycache__`` beside the sources) when the
    cache home cannot be written."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and chosen != os.environ.get(MARKER):
        return chosen
    root = cache_root()
    directory = root / (digest or package_digest())
    try:
        fresh = not directory.exists()
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if fresh:
        _delete_stale(root, keep=directory)
    os.environ["NUMBA_CACHE_DIR"] = os.environ[MARKER] = str(directory)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: its config has read the environment already
        numba_config.CACHE_DIR = str(directory)
    return str(directory)


def _delete_stale(root: Path, keep: Path) -> None:
    """Delete the directories under ``root`` but ``keep`` not modified for :data:`KEEP_DAYS` days."""
    cutoff = time.time() - KEEP_DAYS * 86400
    for other in root.iterdir():
        try:
            if other != keep and other.is_dir() and other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue
