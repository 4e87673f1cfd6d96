"""Every kernel a run uses, compiled once before the suite's workers start (``tests/conftest.py``).

numba keeps compiled kernels per version of the package's sources (:mod:`regretlab.core.numba_cache`), so
on a fresh checkout — CI's every run — the cache starts empty, and in the suite's first minutes every process
that plays a learner (Snakemake jobs of several workers, the library copies of the recipe and rerun tests,
whose seeding, ``tests/numba_seed.py``, copies only what the package's cache holds) compiled the same
kernels again, each for itself (≈ 90 s of one core for all of them). :func:`warm_numba_cache` plays every
learner briefly first, the bandit learners and the CMDP ones in two processes at once; test_kernels.py plays
the same scripts to check that a second process finds every kernel in the cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: Plays every registered bandit learner for 300 rounds (test_kernels.bandit_learners).
PLAY_BANDITS = (
    f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
    + """
import numpy as np
from regretlab.bandits.simulate import simulate
from test_kernels import bandit_learners

for name, instance, learner in bandit_learners():
    simulate(learner, instance, 300, np.random.default_rng(1))
"""
)

#: Plays PDGD-OPS and UC-O-GDPS for 1 000 episodes on a small random CMDP.
PLAY_CMDP = """
import numpy as np
from regretlab.cmdp import algorithms, simulate as cmdp_simulate
from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.instance import make_layered_cmdp

cmdp = make_layered_cmdp(np.random.default_rng(0), 3, 2, 2, 1, 0.5)
for name in ("pdgd_ops", "uc_o_gdps"):
    environment = make_environment(cmdp, np.random.default_rng(0))
    learner = algorithms.make_learner(name, cmdp.layer_sizes, 2, 1, 1000, 0.1, "paper")
    rngs = np.random.default_rng(1), np.random.default_rng(2)
    cmdp_simulate.simulate(learner, cmdp, environment, 1000, *rngs, checkpoints=np.array([10, 200]))
"""


def cache_directory() -> Path:
    """numba's cache directory for this checkout's sources (set by ``import regretlab``)."""
    import regretlab  # noqa: F401  (points NUMBA_CACHE_DIR at the sources' directory)

    return Path(os.environ["NUMBA_CACHE_DIR"])


def is_cold(directory: Path) -> bool:
    """No compiled kernel of this checkout in ``directory`` yet. numba writes an index (``*.nbi``) per cached
    module into a folder per source folder, named for its absolute path; another checkout of the same
    sources shares ``directory`` (:mod:`regretlab.core.numba_cache` keys it by their contents) but not
    those folders, and warms nothing for this one."""
    from numba.core.caching import _CacheLocator

    import regretlab

    package = Path(regretlab.__file__).parent
    folders = {_CacheLocator.get_suitable_cache_subpath(path) for path in package.rglob("*.py")}
    return not any(any((directory / folder).glob("*.nbi")) for folder in folders)


def warm_numba_cache(timeout: float = 900) -> str:
    """Play every learner once (two processes at once) when numba's cache for these sources is empty; what
    happened, in one line. A failed play is only reported: the tests that play the same learner fail on it."""
    directory = cache_directory()
    if not is_cold(directory):
        return f"numba's cache for these sources is warm ({directory})"
    plays = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for script in (PLAY_BANDITS, PLAY_CMDP)
    ]
    failed = []
    for play in plays:
        try:
            _, err = play.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:  # never left running beside the suite
            play.kill()
            _, err = play.communicate()
            err += f"\nstopped after {timeout} s".encode()
        if play.returncode != 0:
            failed.append(err.decode(errors="replace").strip().splitlines()[-1:])
    return f"numba's cache compiled in {directory}" + (f"; a play failed: {failed}" if failed else "")
