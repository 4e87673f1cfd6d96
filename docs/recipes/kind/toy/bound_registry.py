"""The toy kind's bounds and the trivial bound of its metric."""

from __future__ import annotations

import math
from collections.abc import Callable

from regretlab.specs.bound_spec import BoundSpec


def hedge_bound(n: dict) -> float:
    """√(T ln K / 2), Hedge's regret bound with η = √(8 ln K / T)."""
    return math.sqrt(int(n["T"]) * math.log(n["K"]) / 2)


BOUNDS: dict[str, BoundSpec] = {
    "toy_hedge_bound": BoundSpec(
        evaluate=hedge_bound,
        metric="toy_pseudo_regret",
        explicit=True,
        label="√(T ln K / 2)",
        exponents={"T": 0.5},
        source="Cesa-Bianchi & Lugosi 2006, Theorem 2.2 (Hedge with η = √(8 ln K / T))",
    ),
}

#: Losses are in [0, 1]: the pseudo-regret at t is at most t.
TRIVIAL_BOUNDS: dict[str, Callable[[dict], float]] = {"toy_pseudo_regret": lambda n: float(n["t"])}
