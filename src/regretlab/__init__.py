"""regretlab: runnable, checkable experiments for two online-learning theory papers.

Layers, each importing only those before it (``tests/test_layers.py``):

* ``regretlab.core`` — seeding, run tables, logs, shared kernels, snapshots, the run-and-write layer.
* ``regretlab.specs`` — the entries a kind fills in: algorithms, bounds (and their points), the kind.
* ``regretlab.bandits`` / ``regretlab.graphs`` — *A Closer Look at Small-loss Bounds for Bandits with
  Graph Feedback* (paper 001).
* ``regretlab.cmdp`` — *A Best-of-Both-Worlds Algorithm for Constrained MDPs with Long-Term
  Constraints* (paper 000).
* ``regretlab.registry`` — the kinds, bounds, claims and unit costs collected from the kinds' packages.
* ``regretlab.analysis`` — aggregation over seeds, bootstrap intervals, log–log exponent fits, figures,
  the evidence table.
* ``regretlab.workflow`` — the config, the DAG's jobs and their cost, the command line.

Importing the package first points numba's cache at a directory keyed by its sources
(:mod:`regretlab.core.numba_cache`), so that no kernel compiled from other sources is ever loaded.
"""

from importlib.metadata import PackageNotFoundError, version

from regretlab.core.numba_cache import use_source_keyed_cache

use_source_keyed_cache()

try:
    __version__ = version("regretlab")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
