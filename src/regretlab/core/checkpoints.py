"""The log-spaced checkpoint grid at which every run (bandit rounds, CMDP episodes) records its curves.

Curves are stored at a thinned set of time indices, never one row per round, so a run's memory is
O(number of checkpoints) whatever its horizon. The grid is computed with the C library's ``log10`` and
``pow`` (:mod:`math`), not numpy's, whose float64 loops differ from machine to machine in the last bit
(docs/notes/machine-independent-bits.md): the same horizon gives the same rounds everywhere.
"""

from __future__ import annotations

import math

import numpy as np


def log_checkpoints(horizon: int, per_decade: int = 12) -> np.ndarray:
    """Sorted unique rounds ``1 ≤ t ≤ T``, about ``per_decade`` per factor of ten, always including ``T``.

    The rounds are ``round(T^{k/(n-1)})``, ``k = 0, ..., n - 1``, ``n = max(2, ⌈per_decade · log10 T⌉ + 1)``
    (``numpy.geomspace(1, T, n)`` rounded, computed the same way: ``10^{k·s}`` with ``s = log10 T / (n - 1)``,
    ends exact), rounded half to even and made unique.
    """
    if horizon < 1:
        raise ValueError(f"horizon must be a positive integer, got {horizon}")
    exponent = math.log10(horizon)
    n_points = max(2, math.ceil(per_decade * exponent) + 1)
    step = exponent / (n_points - 1)
    inner = [round(10.0 ** (k * step)) for k in range(1, n_points - 1)]
    return np.unique(np.array([1, *inner, horizon], dtype=np.int64))
