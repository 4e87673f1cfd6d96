"""regretlab: runnable, checkable experiments for two online-learning theory papers.

* ``regretlab.bandits`` / ``regretlab.graphs`` — *A Closer Look at Small-loss Bounds for Bandits with
  Graph Feedback* (paper 001).
* ``regretlab.cmdp`` — *A Best-of-Both-Worlds Algorithm for Constrained MDPs with Long-Term
  Constraints* (paper 000).
* ``regretlab.analysis`` — aggregation over seeds, bootstrap intervals, log–log exponent fits, figures.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("regretlab")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
