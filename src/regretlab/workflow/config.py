"""Validation of the workflow configuration and its expansion into jobs.

``validate_config`` checks ``config.yaml`` against ``schemas/config.schema.yaml`` — with the names of kinds,
algorithms, presets and bounds filled in from the registries (:func:`load_schema`) — filling in the schema's
defaults and each algorithm's registry ``default_bounds``, and then checks what a schema cannot say: here,
each bound has a theory exponent in the regime's x, bounds a metric of the regime's kind and is evaluated at
learner parameters its algorithm reports, the constants preset exists for the algorithm; in
:mod:`regretlab.workflow.checks`, the
registries of cross-field rules (instances build, ρ attainable, algorithms valid on the graph, horizons
usable). Every problem is reported on one line with the field's path and the allowed values, before any job
runs (the Snakefile calls :func:`validate_config` when it is parsed, before the DAG is built).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from regretlab.core.names import did_you_mean, not_one_of
from regretlab.registry.kinds import KINDS, declared_searches
from regretlab.registry.theory import BOUNDS, POWER_SEARCHES
from regretlab.workflow.checks import regime_problems
from regretlab.workflow.config_files import safe_load


class ConfigError(ValueError):
    """A configuration problem: one line per problem, each naming the offending field and what is allowed."""


#: The scales, as the schema's ``scale`` enum and a regime's ``scales`` list them (a test checks that they
#: agree): ``quick`` (a laptop), ``paper`` (a cluster), ``frontier`` (each claim's T_informative where one
#: run fits a day on one core; a regime needs a ``frontier`` grid only in a config run at that scale),
#: ``power`` (:data:`POWER`: the regimes with a power grid only, archived).
SCALES = ("quick", "paper", "frontier", "power")


def _field(path) -> str:
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else (f".{part}" if parts else str(part)))
    return "".join(parts) or "<top level>"


def _kind_choices(path: list, config: dict) -> tuple[list[str], str] | None:
    """The names allowed at ``path`` in a regime of a known kind, where they are fewer than the schema's enum
    (which lists every kind's): the kind's algorithms, its constants presets, the bounds on its metrics; with
    what they are."""
    regimes = config.get("regimes") if isinstance(config, dict) else None
    if len(path) < 3 or path[0] != "regimes" or not isinstance(regimes, dict):
        return None
    regime = regimes.get(path[1])
    name = regime.get("kind") if isinstance(regime, dict) else None
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        return None
    if path[2] == "algorithms":
        return list(kind.presets), f" (a {name} regime's algorithms)"
    if path[2] == "constants":
        presets = dict.fromkeys(p for allowed in kind.presets.values() for p in allowed)
        return list(presets), f" (the presets of a {name} regime's algorithms)"
    if path[2] == "bounds" and len(path) > 3:
        bounds = [bound for bound, spec in BOUNDS.items() if spec.metric in kind.metrics]
        return bounds, f" (the bounds on a {name} regime's metrics)"
    return None


def _unknown_name(error: jsonschema.ValidationError, config: dict) -> str:
    """An enum's error: the allowed names (those of the regime's kind, where it has fewer) and the close
    ones."""
    choices = _kind_choices(list(error.absolute_path), config)
    if choices is None or error.instance in choices[0]:
        return not_one_of(error.instance, error.validator_value)
    return not_one_of(error.instance, *choices)


def _unexpected_fields(error: jsonschema.ValidationError, allowed: list[str]) -> str:
    """The fields ``additionalProperties: false`` rejected, each with the allowed field it is close to."""
    unexpected = (
        [key for key in error.instance if key not in allowed] if isinstance(error.instance, dict) else []
    )
    hints = [f"{key!r}{did_you_mean(key, allowed)}" for key in unexpected if did_you_mean(key, allowed)]
    return f"; {', '.join(h.replace('; did', ': did') for h in hints)}" if hints else ""


#: The schema's name patterns in words. A name becomes a path component, a figure's file name and part of a
#: Snakemake wildcard's regex, so it is kept to these characters.
PATTERN_WORDS = {"^[A-Za-z0-9_]+$": "letters, digits and _ only"}
#: What the keys of a mapping field name, for an error about a key.
NAMED_BY_KEY = {"regimes": "regime", "instances": "instance"}


def _describe(error: jsonschema.ValidationError, config: dict) -> str:
    """One line naming the field, the problem and, where the schema lists them, the allowed values (with the
    ones close to a misspelt name)."""
    message = error.message
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "enum":
        message = _unknown_name(error, config)
    elif error.validator == "additionalProperties" and "properties" in schema:
        allowed = sorted(schema["properties"])
        message += f"; allowed fields: {allowed}{_unexpected_fields(error, allowed)}"
    elif error.validator == "type":
        expected = schema.get("type")
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        message = f"{error.instance!r} has the wrong type; expected {expected}"
    elif error.validator in ("minItems", "minProperties"):
        unit = "item" if error.validator == "minItems" else "entry"
        message += f"; expected at least {error.validator_value} {unit}"
    elif error.validator == "pattern" and error.validator_value in PATTERN_WORDS:
        names = "propertyNames" in error.schema_path and error.absolute_path
        what = f"{NAMED_BY_KEY.get(error.absolute_path[-1], 'entry')} name " if names else ""
        message = f"{what}{error.instance!r} must be {PATTERN_WORDS[error.validator_value]}"
    return f"config field {_field(error.absolute_path)}: {message}"


def _one_per_wrong_type(errors: list[jsonschema.ValidationError]) -> list[jsonschema.ValidationError]:
    """Where a value has the wrong type, its other errors are consequences: keep one (the enum's, which lists
    the allowed values, else the type's). Several problems of a value of the right type are all kept."""
    wrong_type = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    kept, seen = [], set()
    for error in sorted(errors, key=lambda e: e.validator != "enum"):
        path = tuple(error.absolute_path)
        if path in wrong_type:
            if path in seen:
                continue
            seen.add(path)
        kept.append(error)
    return sorted(kept, key=lambda e: (list(map(str, e.absolute_path)), e.message))


def _outermost(errors: list[jsonschema.ValidationError]) -> list[jsonschema.ValidationError]:
    """Drop the errors inside a value that is itself in error (e.g. a preset name outside the enum and the
    wrong type of its list): the outer error names the field and what is allowed; the inner ones follow."""
    paths = {tuple(e.absolute_path) for e in errors}

    def nested(error) -> bool:
        path = tuple(error.absolute_path)
        return any(path[:n] in paths for n in range(1, len(path)))

    return [error for error in errors if not nested(error)]


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


def _non_finite_problems(value, path: tuple = ()) -> list[str]:
    """One line per NaN or infinity anywhere in the config (YAML's ``.nan``, ``.inf``): JSON Schema's
    ``number`` admits them, and every numeric field of the config must be finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return [f"config field {_field(path)}: {value!r} is not a finite number; give a finite number"]
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in _non_finite_problems(item, (*path, key))]
    if isinstance(value, list):
        return [line for i, item in enumerate(value) for line in _non_finite_problems(item, (*path, i))]
    return []


def load_schema(schema_path: str | os.PathLike) -> dict:
    """The config schema as a dict, with the registries' names as the enums of ``kind``, ``algorithms`` (per
    kind: the ``allOf`` branch of each kind lists that kind's algorithms, and gives its ``instances`` the
    kind's :attr:`~regretlab.specs.kind_spec.Kind.instance_schema` if it declares one), ``constants``, the
    presets of per-preset ``bounds`` and the bound names. The YAML file lists none of them: a registry entry
    is a valid name as soon as it exists, and an error lists the allowed names."""
    schema = safe_load(Path(schema_path).read_text(encoding="utf-8"))
    schema["properties"]["searches"]["items"]["enum"] = list(declared_searches())
    schema["properties"]["power_searches"]["items"]["enum"] = list(POWER_SEARCHES)
    regime = schema["$defs"]["regime"]
    regime["properties"]["kind"]["enum"] = list(KINDS)
    presets = sorted({p for kind in KINDS.values() for allowed in kind.presets.values() for p in allowed})
    regime["properties"]["constants"]["items"]["enum"] = presets
    bounds = regime["properties"]["bounds"]["additionalProperties"]
    bounds["propertyNames"]["enum"] = presets
    bounds["items"]["enum"] = sorted(BOUNDS)
    branches = {branch["if"]["properties"]["kind"]["const"]: branch for branch in regime.get("allOf", [])}
    for name, kind in KINDS.items():
        if name not in branches:
            branches[name] = {"if": {"required": ["kind"], "properties": {"kind": {"const": name}}}}
            regime.setdefault("allOf", []).append(branches[name])
        then = branches[name].setdefault("then", {}).setdefault("properties", {})
        then["algorithms"] = {"items": {"enum": sorted(kind.algorithms)}}
        if kind.instance_schema is not None:
            schema["$defs"][f"{name}_instance"] = kind.instance_schema
            then["instances"] = {"additionalProperties": {"$ref": f"#/$defs/{name}_instance"}}
    return schema


def validate_config(config: dict, schema_path: str | os.PathLike) -> dict:
    """Validate ``config`` in place (filling defaults) and return it; raise :class:`ConfigError` listing
    every problem found, one per line (the cross-field checks run once the schema holds)."""
    schema = load_schema(schema_path)
    validator = _with_defaults(jsonschema.Draft202012Validator)(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    problems = _non_finite_problems(config)
    problems += [_describe(error, config) for error in _outermost(_one_per_wrong_type(errors))]
    if not problems:
        problems += scale_problems(config)
        problems += _draws_problems(config["regimes"])
        for name, regime in config["regimes"].items():
            defaulted = _fill_default_bounds(regime)
            problems += _regime_problems(name, regime, defaulted)
            by_field: dict[str, list[str]] = {}
            for field, message in regime_problems(name, regime):
                by_field.setdefault(field, []).append(message)
            problems += [f"config field {field}: {'; '.join(notes)}" for field, notes in by_field.items()]
    if problems:
        raise ConfigError("\n".join(problems))
    return config


#: The scale that runs only the regimes declaring a grid for it, one job per (instance, T, seed), into the
#: archive the other scales read (:mod:`regretlab.workflow.archive`).
POWER = "power"


def scale_regimes(config: dict) -> list[str]:
    """The regimes a validated config runs at its scale: every one, except at :data:`POWER`, where only those
    with a power grid run."""
    regimes = config["regimes"]
    return [name for name in regimes if config["scale"] != POWER or POWER in regimes[name]["scales"]]


def scale_problems(config: dict) -> list[str]:
    """One line per regime without a grid for the config's ``scale`` (the schema requires only two); at
    :data:`POWER`, one line when no regime has a power grid."""
    scale = config["scale"]
    if scale == POWER:
        return [] if scale_regimes(config) else [
            "config field scale: is 'power', and no regime has a power grid (regimes.<name>.scales.power)"
        ]  # fmt: skip
    return [
        f"config field regimes.{name}.scales: has no {scale!r} grid, and the scale is {scale!r}; it has "
        f"{list(regime['scales'])}: add scales.{scale} (horizons and seeds) or run another scale"
        for name, regime in config["regimes"].items()
        if scale not in regime["scales"]
    ]


def require_scale(config: dict, scale: str) -> None:
    """Set a validated config's ``scale`` (the CLI's ``--scale``); :class:`ConfigError` if a regime has no
    grid for it."""
    config["scale"] = scale
    problems = scale_problems(config)
    if problems:
        raise ConfigError("\n".join(problems))


def _draws_problems(regimes: dict) -> list[str]:
    """A ``draws_from`` names another bandit regime that shares no draws itself, and every instance entry of
    the sharing regime repeats that regime's entry of the same name exactly — the same SeedSequence on a
    different entry would not be the same instance (:mod:`regretlab.core.seeding`)."""
    problems = []
    for name, regime in regimes.items():
        source = regime.get("draws_from")
        if source is None:
            continue
        where = f"config field regimes.{name}.draws_from"
        others = sorted(set(regimes) - {name})
        if source not in others:
            problems.append(f"{where}: {source!r} is not another regime; allowed: {others}")
            continue
        if "draws_from" in regimes[source]:
            problems.append(
                f"{where}: regime {source!r} shares the draws of {regimes[source]['draws_from']!r}; "
                f"name that one (draws are shared with a regime that owns them)"
            )
        if not (KINDS[regime["kind"]].shared_draws and KINDS[regimes[source]["kind"]].shared_draws):
            sharing = " and ".join(name for name, kind in KINDS.items() if kind.shared_draws)
            problems.append(
                f"{where}: shared draws are implemented for {sharing} regimes only (both must be)"
            )
            continue
        for instance, entry in regime["instances"].items():
            if regimes[source]["instances"].get(instance) != entry:
                problems.append(
                    f"config field regimes.{name}.instances.{instance}: must repeat the entry of the same "
                    f"name in regimes.{source}.instances (draws_from: {source}); that regime has "
                    f"{sorted(regimes[source]['instances'])}"
                )
    return problems


def _fill_default_bounds(regime: dict) -> list[str]:
    """Give every algorithm the regime's ``bounds`` does not name its registry entry's ``default_bounds``
    (none for a baseline without a theorem); return the algorithms so filled."""
    algorithms = KINDS[regime["kind"]].algorithms
    defaulted = [name for name in regime["algorithms"] if name not in regime["bounds"]]
    for name in defaulted:
        regime["bounds"][name] = list(algorithms[name].default_bounds)
    return defaulted


def _takes(bound: str, algorithm: str, regime: dict) -> bool:
    """Whether ``algorithm`` of ``regime`` can be drawn against ``bound``: a metric of its kind, a theory
    exponent in the regime's x, and only learner parameters the algorithm reports."""
    spec, kind = BOUNDS[bound], KINDS[regime["kind"]]
    reported = kind.algorithms[algorithm].params
    return (
        spec.metric in kind.metrics
        and regime["x"] in spec.exponents
        and all(name in reported for name in spec.params)
    )


def _regime_problems(name: str, regime: dict, defaulted: list[str]) -> list[str]:
    """What the schema cannot check about one regime (``defaulted``: the algorithms whose bounds are their
    registry defaults, which the messages say)."""
    where = f"config field regimes.{name}"
    problems = []
    algorithms, bounds = regime["algorithms"], regime["bounds"]
    unused = sorted(set(bounds) - set(algorithms))
    if unused:
        hints = "".join(did_you_mean(name, algorithms) for name in unused)
        problems.append(
            f"{where}.bounds: names algorithm(s) {unused} that are not in algorithms {algorithms}{hints}"
        )
    for scale, grid in regime["scales"].items():
        for field, allowed in (("instances", list(regime["instances"])), ("constants", regime["constants"])):
            unknown = [value for value in grid.get(field, []) if value not in allowed]
            if unknown:
                problems.append(
                    f"{where}.scales.{scale}.{field}: {unknown} not among the regime's {field} {allowed}"
                )
    kind = KINDS[regime["kind"]]
    for algorithm, names in bounds.items():
        if algorithm not in kind.algorithms:
            continue  # not run: reported above
        origin = (
            f" (its registry entry's default_bounds: name its bounds in regimes.{name}.bounds, [] for none)"
            if algorithm in defaulted
            else ""
        )
        if isinstance(names, dict):
            available = [c for c in regime["constants"] if c in kind.algorithms[algorithm].presets]
            extra_presets = sorted(set(names) - set(available))
            if extra_presets:
                problems.append(
                    f"{where}.bounds.{algorithm}: per-preset bounds name the presets it runs, among those of "
                    f"the regime's constants it has {available}; not available: {extra_presets}"
                )
        reported = kind.algorithms[algorithm].params
        allowed = [bound for bound in BOUNDS if _takes(bound, algorithm, regime)]
        for bound in _all_bound_names(names):
            spec = BOUNDS[bound]
            if regime["x"] not in spec.exponents:
                problems.append(
                    f"{where}.bounds.{algorithm}: bound {bound!r} has no theory exponent in "
                    f"x = {regime['x']!r}; it has one in {sorted(spec.exponents)}{origin}"
                )
            if spec.metric not in kind.metrics:
                problems.append(
                    f"{where}.bounds.{algorithm}: bound {bound!r} is about {spec.metric!r}, which a "
                    f"{regime['kind']} regime does not measure; it measures {list(kind.metrics)}{origin}"
                )
            lacking = [param for param in spec.params if param not in reported]
            if lacking:
                problems.append(
                    f"{where}.bounds.{algorithm}: bound {bound!r} is evaluated at the learner parameters "
                    f"{list(spec.params)}, and {algorithm} does not report {lacking}; bounds it can take "
                    f"here: {allowed}{origin}"
                )
    for algorithm, step in regime.get("step", {}).items():
        if algorithm not in algorithms:
            problems.append(
                f"{where}.step: names algorithm {algorithm!r}, which is not in algorithms {algorithms}"
                f"{did_you_mean(algorithm, algorithms)}"
            )
            continue
        free = kind.algorithms[algorithm].free if algorithm in kind.algorithms else ()
        unknown = sorted(set(step) - set(free))
        if unknown:
            problems.append(
                f"{where}.step.{algorithm}: {unknown} cannot be set by hand; {algorithm} takes "
                f"{list(free) if free else 'none'}"
            )
    for algorithm in algorithms:
        presets = kind.presets[algorithm]
        if not any(constants in presets for constants in regime["constants"]):
            problems.append(
                f"{where}.constants: {algorithm} has none of the presets {regime['constants']}; "
                f"allowed: {list(presets)}"
            )
    for scale, grid in regime["scales"].items():
        # Increasing, not a set: per-horizon seeds are given in the order of the horizons, and an order-free
        # grid would make a reordering look like an edit (and rerun the runs).
        if grid["horizons"] != sorted(grid["horizons"]):
            problems.append(
                f"{where}.scales.{scale}.horizons: horizons must be increasing, got {grid['horizons']}; "
                f"write {sorted(grid['horizons'])} (and per-horizon seeds in the same order)"
            )
        if isinstance(grid["seeds"], list) and len(grid["seeds"]) != len(grid["horizons"]):
            problems.append(
                f"{where}.scales.{scale}.seeds: per-horizon seeds need one count per horizon "
                f"({len(grid['horizons'])}), got {len(grid['seeds'])}"
            )
    return problems


def _all_bound_names(names: list[str] | dict[str, list[str]]) -> list[str]:
    """Every bound named for one algorithm, whether one list or one list per constants preset."""
    return [b for group in names.values() for b in group] if isinstance(names, dict) else list(names)


def regime_bounds(regime: dict) -> list[str]:
    """Every bound a validated regime entry draws (its ``bounds``, defaults filled), sorted."""
    return sorted({b for names in regime.get("bounds", {}).values() for b in _all_bound_names(names)})


#: The fields of a regime's entry that no run reads: its title (``theorem``), ``description`` and ``paper``;
#: ``x`` and ``bounds``, read by the aggregation; ``algorithms`` and ``constants``, which say which run jobs
#: exist (their wildcards), not what one computes; ``scales`` and ``seeds_per_job``, which the job's runs
#: (instance, T, seeds at the configured scale) carry as its other parameter.
NOT_READ_BY_RUNS = (
    "theorem",
    "description",
    "paper",
    "x",
    "bounds",
    "algorithms",
    "constants",
    "scales",
    "seeds_per_job",
)


def run_config(regime: dict) -> dict:
    """What a run job is passed of its regime's config entry, hence what reruns it when edited: the entry
    without :data:`NOT_READ_BY_RUNS` — its kind, its instances (a CMDP instance whose ρ depends on T is
    rebuilt per horizon from its entry), whose draws it shares (``draws_from``), and any field added later
    (kept until shown unread: a field a run reads with a default must never be left out).

    Editing a left-out field therefore reruns no simulation.
    """
    return {field: value for field, value in regime.items() if field not in NOT_READ_BY_RUNS}


@dataclass(frozen=True)
class RunJob:
    """One run: an algorithm with a constants preset on one instance at one horizon, for a seed batch (one
    run table; the workflow's run jobs each simulate some of one algorithm's, :mod:`regretlab.workflow.jobs`).

    ``seeds`` are consecutive seed indices: a batch of ``seeds_per_job`` (:func:`run_jobs`), or part of one
    where the cost model splits a long batch (:func:`regretlab.workflow.jobs.split_runs`)."""

    regime: str
    instance: str
    algorithm: str
    constants: str
    T: int
    seeds: tuple[int, ...]


def seed_batches(n_seeds: int, seeds_per_job: int) -> list[list[int]]:
    """Split seeds ``0 … n_seeds-1`` into consecutive batches of at most ``seeds_per_job``."""
    return [
        list(range(start, min(n_seeds, start + seeds_per_job))) for start in range(0, n_seeds, seeds_per_job)
    ]


def seeds_per_job(config: dict, regime: str) -> int:
    """The regime's ``seeds_per_job`` if it sets one, else the top-level one."""
    return config["regimes"][regime].get("seeds_per_job", config["seeds_per_job"])


def seeds_at(grid: dict, horizon: int | None = None) -> int:
    """Number of seeds of one scale's grid at ``horizon``: ``seeds`` itself, or — when ``seeds`` is a list
    aligned with ``horizons`` (fewer seeds for the long runs) — its entry for ``horizon``."""
    seeds = grid["seeds"]
    if isinstance(seeds, int):
        return seeds
    if horizon is None or int(horizon) not in grid["horizons"]:
        raise ConfigError(f"per-horizon seeds {seeds} need a horizon among {grid['horizons']}, got {horizon}")
    return int(seeds[grid["horizons"].index(int(horizon))])


def batch_seeds(config: dict, regime: str, batch: int, horizon: int | None = None) -> list[int]:
    """The seeds of batch ``batch`` of ``regime`` at the configured scale (and at ``horizon``, needed when
    the regime's seeds are per horizon)."""
    n_seeds = seeds_at(config["regimes"][regime]["scales"][config["scale"]], horizon)
    batches = seed_batches(n_seeds, seeds_per_job(config, regime))
    if not 0 <= batch < len(batches):
        raise ConfigError(f"seed batch {batch} does not exist for regime {regime}: it has {len(batches)}")
    return batches[batch]


def presets_of(regime: dict, algorithm: str) -> list[str]:
    """The constants presets ``algorithm`` runs with in ``regime``: those of the regime's ``constants`` it
    has (a learner without a ``tuned`` preset, e.g. Exp3.G, runs once as the reference of a paper-vs-tuned
    regime) — and, when its ``bounds`` entry is a mapping preset → bounds, only the presets it names (so a
    regime can leave out a preset whose runs would repeat another's, e.g. Algorithm 5's ``tuned``, which
    changes only a stage no run of the regime reaches)."""
    presets = KINDS[regime["kind"]].presets[algorithm]
    named = regime["bounds"].get(algorithm)
    return [
        constants
        for constants in regime["constants"]
        if constants in presets and (not isinstance(named, dict) or constants in named)
    ]


def run_jobs(config: dict, regime: str) -> list[RunJob]:
    """Every run job of ``regime`` at the configured scale, in a stable order.

    Each algorithm runs with the regime's constants presets that it has (e.g. a baseline with only ``paper``
    next to ``paper`` and ``tuned`` of the algorithm under study).
    """
    spec = config["regimes"][regime]
    grid = spec["scales"][config["scale"]]
    return [
        RunJob(regime, instance, algorithm, constants, int(horizon), tuple(batch))
        for instance in grid.get("instances", spec["instances"])
        for algorithm in spec["algorithms"]
        for constants in presets_of(spec, algorithm)
        if constants in grid.get("constants", spec["constants"])
        for horizon in grid["horizons"]
        for batch in seed_batches(seeds_at(grid, horizon), seeds_per_job(config, regime))
    ]


@dataclass(frozen=True)
class RunSet:
    """One algorithm with one constants preset on every instance, horizon and seed batch of a regime (its
    :class:`RunJob` s, a curve family). The workflow's run jobs (:class:`regretlab.workflow.jobs.RunPart`)
    play an algorithm's run sets one after the other: all of them in one job by default, which keeps the
    per-job start-up (interpreter, imports, compiled kernels) off the many short runs of a quick scale, or
    pieces of about ``job_minutes`` each."""

    regime: str
    algorithm: str
    constants: str


def run_sets(config: dict, regime: str) -> list[RunSet]:
    """The run sets of ``regime`` at the configured scale, in a stable order."""
    seen = {RunSet(regime, job.algorithm, job.constants): None for job in run_jobs(config, regime)}
    return list(seen)


def jobs_of(config: dict, run_set: RunSet) -> list[RunJob]:
    """The runs (instance, horizon, seed batch) of one run set, in a stable order."""
    return [
        job
        for job in run_jobs(config, run_set.regime)
        if (job.algorithm, job.constants) == (run_set.algorithm, run_set.constants)
    ]


def run_name(job: RunJob) -> str:
    """A run's path below its run set, without suffix: ``{instance}/T~{T}/seeds~{first}-{last}``."""
    return f"{job.instance}/T~{job.T}/seeds~{job.seeds[0]}-{job.seeds[-1]}"


def run_file(job: RunJob) -> str:
    """Where a run's table lies inside its run job's directory (``results/runs/{regime}/{algorithm}/
    part~{part}/``): ``{constants}/{instance}/T~{T}/seeds~{first}-{last}.parquet``."""
    return f"{job.constants}/{run_name(job)}.parquet"


def regimes_of_kind(config: dict, kind: str) -> list[str]:
    """Names of the regimes whose ``kind`` is ``kind``, among those the config's scale runs."""
    return [name for name in scale_regimes(config) if config["regimes"][name]["kind"] == kind]
