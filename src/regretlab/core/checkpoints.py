"""The log-spaced checkpoint grid at which every run (bandit rounds, CMDP episodes) records its curves.

Curves are stored at a thinned set of time indices, never one row per round, so a run's memory is
O(number of checkpoints) whatever its horizon.
"""

from __future__ import annotations

import numpy as np


def log_checkpoints(horizon: int, per_decade: int = 12) -> np.ndarray:
    """Sorted unique rounds ``1 ≤ t ≤ T``, about ``per_decade`` per factor of ten, always including ``T``."""
    if horizon < 1:
        raise ValueError(f"horizon must be a positive integer, got {horizon}")
    n_points = max(2, int(np.ceil(per_decade * np.log10(horizon))) + 1)
    grid = np.unique(np.round(np.geomspace(1, horizon, n_points)).astype(np.int64))
    return np.union1d(grid, [horizon])
