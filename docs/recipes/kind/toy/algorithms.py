"""The toy kind's algorithm registry."""

from __future__ import annotations

from regretlab.specs.algorithm_spec import PALETTE, AlgorithmSpec
from regretlab.toy.hedge import Hedge

ALGORITHMS: dict[str, AlgorithmSpec] = {
    "toy_hedge": AlgorithmSpec(
        build=lambda n_arms, horizon: Hedge(n_arms, horizon),
        description="Hedge with η = √(8 ln K / T), full information (Cesa-Bianchi & Lugosi 2006, Thm 2.2)",
        label="Hedge",
        colour=PALETTE["teal"],
        presets=("paper",),
        params=("eta",),
        default_bounds=("toy_hedge_bound",),
    ),
}
