"""The registry of bandit algorithms: config name → learner factory.

A learner is built from ``(instance, horizon, rng, constants)`` and exposes ``play(losses, t0, tracker)``,
``params`` (its tuned constants, stored with the run) and ``hypotheses`` (the theorem's conditions, each a
bool, evaluated on this run).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from regretlab.bandits.exp3g import Exp3G
from regretlab.bandits.instance import BanditInstance


def _exp3g(instance: BanditInstance, horizon: int, rng: np.random.Generator, constants: str) -> Exp3G:
    return Exp3G(instance.graph, horizon, rng, constants)


#: name → (factory, allowed constants presets)
ALGORITHMS: dict[str, tuple[Callable, tuple[str, ...]]] = {
    "exp3g": (_exp3g, Exp3G.presets),
}


def make_learner(
    name: str, instance: BanditInstance, horizon: int, rng: np.random.Generator, constants: str = "paper"
):
    """Build the learner ``name`` for one run."""
    if name not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {name!r}")
    factory, presets = ALGORITHMS[name]
    if constants not in presets:
        raise ValueError(f"constants for {name} must be one of {list(presets)}, got {constants!r}")
    return factory(instance, horizon, rng, constants)
