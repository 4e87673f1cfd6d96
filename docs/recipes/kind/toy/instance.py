"""A toy instance from its config entry: K arms with Bernoulli losses of means ``means``."""

from __future__ import annotations

import numpy as np

from regretlab.core.io import write_json


def build_instance(spec: dict, rng: np.random.Generator, horizon: int | None = None) -> dict:
    """The JSON-ready instance of a config entry ``{"means": [...]}`` (nothing is drawn)."""
    means = [float(mean) for mean in spec["means"]]
    if len(means) < 2 or not all(0.0 <= mean <= 1.0 for mean in means):
        raise ValueError(f"means must be at least 2 loss means in [0, 1], got {means}")
    best = min(means)
    gap = min(mean for mean in means if mean > best) - best if len(set(means)) > 1 else 0.0
    return {"means": means, "numbers": {"K": len(means), "mean_loss_best": best, "gap": gap}}


def write_instance_file(regime: str, name: str, spec: dict, path: str) -> dict:
    """Build instance ``name`` of ``regime`` and write it as JSON at ``path``; returns its numbers."""
    instance = build_instance(spec, np.random.default_rng(0))
    write_json(path, instance)
    return instance["numbers"]
