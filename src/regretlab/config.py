"""Validation of the workflow configuration and its expansion into jobs.

``validate_config`` checks ``config.yaml`` against ``schemas/config.schema.yaml`` (filling in the schema's
defaults) and then checks what a schema cannot say (every algorithm has a bound, the bound has a theory
exponent in the regime's x, the constants preset exists for the algorithm). Every problem is reported with
the field's path and the allowed values, before any job runs.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import yaml

from regretlab.kinds import KINDS
from regretlab.theory import BOUNDS


class ConfigError(ValueError):
    """A configuration problem, with the offending field's path in the message."""


def _field(path) -> str:
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else (f".{part}" if parts else str(part)))
    return "".join(parts) or "<top level>"


def _describe(error: jsonschema.ValidationError) -> str:
    """One line naming the field, the problem and, where the schema lists them, the allowed values."""
    message = error.message
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and "properties" in schema:
        message += f"; allowed fields: {sorted(schema['properties'])}"
    elif error.validator == "type":
        message = f"{error.instance!r} has the wrong type; expected {schema.get('type')}"
    return f"config field {_field(error.absolute_path)}: {message}"


def _with_defaults(validator_class):
    """A validator class that also writes each property's ``default`` into the instance being validated."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema and name not in instance:
                    instance[name] = subschema["default"]
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def load_schema(schema_path: str | os.PathLike) -> dict:
    """The config schema as a dict."""
    return yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))


def validate_config(config: dict, schema_path: str | os.PathLike) -> dict:
    """Validate ``config`` in place (filling defaults) and return it; raise :class:`ConfigError` listing
    every problem found."""
    schema = load_schema(schema_path)
    validator = _with_defaults(jsonschema.Draft202012Validator)(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    problems = [_describe(error) for error in errors]
    if not problems:
        for name, regime in config["regimes"].items():
            problems += _regime_problems(name, regime)
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    return config


def _regime_problems(name: str, regime: dict) -> list[str]:
    """What the schema cannot check about one regime."""
    where = f"config field regimes.{name}"
    problems = []
    algorithms, bounds = regime["algorithms"], regime["bounds"]
    missing = [a for a in algorithms if a not in bounds]
    if missing:
        problems.append(
            f"{where}.bounds: no bound named for algorithm(s) {missing}; "
            f"add e.g. '{missing[0]}: <one of {sorted(BOUNDS)}>'"
        )
    unused = sorted(set(bounds) - set(algorithms))
    if unused:
        problems.append(
            f"{where}.bounds: names algorithm(s) {unused} that are not in algorithms {algorithms}"
        )
    kind = KINDS[regime["kind"]]
    for algorithm, names in bounds.items():
        for bound in names:
            spec = BOUNDS[bound]
            if regime["x"] not in spec.exponents:
                problems.append(
                    f"{where}.bounds.{algorithm}: bound {bound!r} has no theory exponent in "
                    f"x = {regime['x']!r}; it has one in {sorted(spec.exponents)}"
                )
            if spec.metric not in kind.metrics:
                problems.append(
                    f"{where}.bounds.{algorithm}: bound {bound!r} is about {spec.metric!r}, which a "
                    f"{regime['kind']} regime does not measure; it measures {list(kind.metrics)}"
                )
    for algorithm in algorithms:
        if algorithm not in kind.presets:
            problems.append(
                f"{where}.algorithms: {algorithm!r} is not an algorithm of a {regime['kind']} regime; "
                f"allowed: {sorted(kind.presets)}"
            )
            continue
        presets = kind.presets[algorithm]
        if not set(regime["constants"]) & set(presets):
            problems.append(
                f"{where}.constants: each of {regime['constants']} is not a preset of {algorithm}; "
                f"allowed: {list(presets)}"
            )
    if regime["x"] == "T":  # a trajectory (x: t) or an L* sweep may use a single horizon
        for scale, grid in regime["scales"].items():
            if len(grid["horizons"]) < 2:
                problems.append(
                    f"{where}.scales.{scale}.horizons: a sweep in T needs at least 2 horizons, "
                    f"got {grid['horizons']}"
                )
    return problems


@dataclass(frozen=True)
class RunJob:
    """One run job: an algorithm with a constants preset on one instance at one horizon, for a seed batch."""

    regime: str
    instance: str
    algorithm: str
    constants: str
    T: int
    batch: int


def seed_batches(n_seeds: int, seeds_per_job: int) -> list[list[int]]:
    """Split seeds ``0 … n_seeds-1`` into consecutive batches of at most ``seeds_per_job``."""
    return [
        list(range(start, min(n_seeds, start + seeds_per_job))) for start in range(0, n_seeds, seeds_per_job)
    ]


def seeds_per_job(config: dict, regime: str) -> int:
    """The regime's ``seeds_per_job`` if it sets one, else the top-level one."""
    return config["regimes"][regime].get("seeds_per_job", config["seeds_per_job"])


def batch_seeds(config: dict, regime: str, batch: int) -> list[int]:
    """The seeds of batch ``batch`` of ``regime`` at the configured scale."""
    n_seeds = config["regimes"][regime]["scales"][config["scale"]]["seeds"]
    batches = seed_batches(n_seeds, seeds_per_job(config, regime))
    if not 0 <= batch < len(batches):
        raise ConfigError(f"seed batch {batch} does not exist for regime {regime}: it has {len(batches)}")
    return batches[batch]


def run_jobs(config: dict, regime: str) -> list[RunJob]:
    """Every run job of ``regime`` at the configured scale, in a stable order.

    Each algorithm runs with the regime's constants presets that it has (e.g. a baseline with only ``paper``
    next to ``paper`` and ``tuned`` of the algorithm under study).
    """
    spec = config["regimes"][regime]
    grid = spec["scales"][config["scale"]]
    n_batches = math.ceil(grid["seeds"] / seeds_per_job(config, regime))
    presets = KINDS[spec["kind"]].presets
    return [
        RunJob(regime, instance, algorithm, constants, int(horizon), batch)
        for instance in spec["instances"]
        for algorithm in spec["algorithms"]
        for constants in spec["constants"]
        if constants in presets[algorithm]
        for horizon in grid["horizons"]
        for batch in range(n_batches)
    ]


def regimes_of_kind(config: dict, kind: str) -> list[str]:
    """Names of the regimes whose ``kind`` is ``kind``."""
    return [name for name, spec in config["regimes"].items() if spec["kind"] == kind]
