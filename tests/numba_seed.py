"""numba's compiled kernels handed to a test's copy of the library, so that it does not compile them anew.

A copy of ``src/`` (tests/test_recipes.py, tests/test_reruns.py) is another package for numba: its files have
other paths, and once edited it has another digest, hence another cache directory
(:mod:`regretlab.core.numba_cache`). Without help every process of the copy compiles every kernel again, about
a minute of CPU per copy, which the tests spend on nothing they check. :func:`seed_numba_cache` copies this
package's cache entries into the directory and sub-paths the copy's processes will look in.

It keeps :mod:`regretlab.core.numba_cache`'s guarantee, that no process plays machine code of other
sources: an entry is copied only for a module whose own file and every regretlab module it imports, at any
depth, are byte for byte those of this package (a kernel inlines only what its module imports); numba then
checks each file's modification time and size, which ``shutil.copy2`` keeps. A module the copy edits or
adds, and every module that imports one, compiles in the copy as it would without seeding.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from numba.core import config as numba_config
from numba.core.caching import _CacheLocator

from regretlab.core.numba_cache import MARKER, cache_root
from regretlab.core.sources import PACKAGE, source_digest
from regretlab.workflow.imports import imports_of_source


def _modules(package: Path) -> dict[str, Path]:
    """Module name -> source file, for every ``.py`` file of ``package`` (a package's name for its
    ``__init__.py``)."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def unchanged_closures(copy_package: Path) -> list[Path]:
    """The copy's module files whose module and every regretlab module it imports, at any depth, are byte
    for byte this package's (an import of a package counts its ``__init__``)."""
    ours, theirs = _modules(PACKAGE), _modules(copy_package)
    same = {
        name: name in ours and ours[name].read_bytes() == path.read_bytes() for name, path in theirs.items()
    }
    # The workflow's own reading of a module's imports (with the packages whose __init__ they run).
    edges = {
        name: {n for n in imports_of_source(path.read_text(encoding="utf-8"), name) if n in theirs}
        for name, path in theirs.items()
    }
    kept = []
    for name, path in theirs.items():
        seen, stack, clean = {name}, [name], True
        while stack and clean:
            module = stack.pop()
            clean = same[module]
            for other in edges[module] - seen:
                seen.add(other)
                stack.append(other)
        if clean:
            kept.append(path)
    return kept


def seed_numba_cache(copy_package: Path) -> int:
    """Copy this package's compiled entries for the copy's unchanged modules (:func:`unchanged_closures`)
    into the cache its processes will use; return the number of files copied (0 when numba's cache is
    beside the sources, where no directory of its own is known)."""
    ours = numba_config.CACHE_DIR
    if not ours:
        return 0
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    user_set = bool(chosen) and chosen != os.environ.get(MARKER)
    target = Path(chosen) if user_set else cache_root() / source_digest(copy_package)
    copied = 0
    for path in unchanged_closures(copy_package):
        original = PACKAGE / path.relative_to(copy_package)
        source = Path(ours) / _CacheLocator.get_suitable_cache_subpath(str(original))
        destination = target / _CacheLocator.get_suitable_cache_subpath(str(path))
        # Indexes first: every data file an index names was written before it, so it is there to copy next.
        for pattern in (f"{path.stem}.*.nbi", f"{path.stem}.*.nbc"):
            for entry in sorted(source.glob(pattern)):
                if not (destination / entry.name).exists():
                    destination.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(entry, destination / entry.name)
                    copied += 1
    return copied
