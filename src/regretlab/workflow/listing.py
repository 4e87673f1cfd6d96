"""What ``regretlab list`` prints: the registries a config can name, and a config's regimes, as plain tables.

* :func:`list_algorithms` — every kind's algorithms (:data:`regretlab.registry.kinds.KINDS`) with their
  constants presets, the problems they are valid on (:attr:`~regretlab.specs.kind_spec.Kind.valid_on`: for
  bandits, the feedback graph class) and one line each;
* :func:`list_bounds` — :data:`regretlab.registry.theory.BOUNDS`: the metric each bounds, explicit (the
  paper's constants) or rate (unit constant), upper or lower, and where the paper states it;
* :func:`list_families` — every kind's :attr:`~regretlab.specs.kind_spec.Kind.families` (graph families,
  loss kinds, CMDP families) with their parameters as the config schema states them (type, range, default);
* :func:`list_regimes` — a validated config's regimes: kind, swept x, instances, horizons and seeds at a
  scale, algorithms.

Each takes optional names; with names, it prints those entries in full, and an unknown name is a
:class:`~regretlab.workflow.config.ConfigError` listing the allowed ones and the close ones ("did you mean").
:func:`list_lists` says what these are (``regretlab list`` alone).
"""

from __future__ import annotations

import re

from regretlab.core.names import not_one_of
from regretlab.registry.kinds import KINDS
from regretlab.registry.theory import BOUNDS
from regretlab.specs.kind_spec import FamilySection
from regretlab.workflow.config import ConfigError, presets_of

#: What ``regretlab list WHAT`` can list, each with what it shows.
LISTS = {
    "algorithms": "every kind's algorithms: constants presets, the feedback graphs they are valid on",
    "bounds": "every bound: its metric, explicit or rate, upper or lower, where the paper states it",
    "families": "graph families, loss kinds and CMDP families, with their parameters",
    "regimes": "the regimes a config holds (--config FILE, default config.yaml) at a scale",
}


def _table(header: list[str], rows: list[list[str]], indent: str = "") -> list[str]:
    """Left-aligned columns two spaces apart (the last one not padded)."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    return [
        indent + "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
        for row in [header, *rows]
    ]


def _check_names(names: list[str], allowed: list[str], what: str) -> None:
    unknown = [name for name in names if name not in allowed]
    if unknown:
        raise ConfigError("\n".join(f"{what}: {not_one_of(name, allowed)}" for name in unknown))


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _algorithm(name: str) -> tuple[str, str, str]:
    """(class key, class in words, one-line description) of an algorithm of any kind
    (:attr:`regretlab.specs.kind_spec.Kind.valid_on`)."""
    kind = next(kind for kind in KINDS.values() if name in kind.algorithms)
    return *kind.valid_on(name), kind.algorithms[name].description


def list_lists() -> str:
    """What can be listed, one line each, and how to list it."""
    rows = [[what, description] for what, description in LISTS.items()]
    return "\n".join(
        [
            "regretlab list WHAT [NAME ...] lists one of:",
            *_table(["WHAT", "what it shows"], rows, indent="  "),
            "With names, those entries in full (e.g. regretlab list bounds theorem2_bound).",
        ]
    )


def list_algorithms(names: list[str] | None = None) -> str:
    """Every kind's algorithms, one line each; with ``names``, those in full."""
    every = [name for kind in KINDS.values() for name in kind.presets]
    _check_names(names or [], every, "algorithm")
    lines = []
    for kind_name, kind in KINDS.items():
        chosen = [name for name in kind.presets if not names or name in names]
        if not chosen:
            continue
        if names:
            for name in chosen:
                graph_key, graph_words, description = _algorithm(name)
                lines += [
                    f"{name} ({kind_name} regimes)",
                    f"  {description}",
                    f"  constants presets: {', '.join(kind.presets[name])}",
                    f"  valid on: {graph_words}"
                    + (f" (graph class {graph_key})" if graph_key != "-" else ""),
                ]
            continue
        rows = [
            [name, ",".join(kind.presets[name]), _algorithm(name)[0], _algorithm(name)[2]] for name in chosen
        ]
        lines += [f"{kind_name} regimes:"] + _table(
            ["algorithm", "presets", "graph class", "description"], rows, "  "
        )
        lines.append("")
    return "\n".join(lines).rstrip()


def _bound_type(spec) -> str:
    if spec.direction == "reference":
        return "reference"
    return f"{'explicit' if spec.explicit else 'rate'}, {spec.direction}"


def _source_clause(source: str) -> str:
    """The source's first clause: where the paper states the bound (up to the first ':' or ';' outside
    parentheses)."""
    depth = 0
    for i, char in enumerate(source):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char in ":;":
            return source[:i].strip()
    return source.strip()


def list_bounds(names: list[str] | None = None) -> str:
    """Every bound, one line each (metric, explicit or rate, source); with ``names``, those in full."""
    _check_names(names or [], list(BOUNDS), "bound")
    if names:
        lines = []
        for name in names:
            spec = BOUNDS[name]
            exponents = ", ".join(f"{x}: {slope:g}" for x, slope in spec.exponents.items())
            constants = spec.constants if spec.explicit else "unit constant (an Õ(·) rate)"
            lines += [
                name,
                f"  bounds: {spec.metric} ({spec.direction})",
                f"  formula: {spec.label}",
                f"  constants: {constants}",
                f"  log-log slope in each swept x: {exponents}",
                f"  source: {spec.source}",
                "",
            ]
        return "\n".join(lines).rstrip()
    rows = [
        [name, spec.metric, _bound_type(spec), _shorten(_source_clause(spec.source), 60)]
        for name, spec in BOUNDS.items()
    ]
    note = "explicit: the paper's constants; rate: an Õ(·) rate drawn with unit constant"
    return "\n".join([*_table(["bound", "metric", "type", "source"], rows), "", note])


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def describe_parameter(schema: dict) -> str:
    """A config parameter's schema in words: type, range or allowed values, default."""
    if "enum" in schema:
        text = "one of " + ", ".join(map(str, schema["enum"]))
    else:
        types = schema.get("type", "")
        types = types if isinstance(types, list) else [types]
        text = " or ".join({"array": "list"}.get(t, t) for t in types if t)
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        left = "[" if "minimum" in schema else "("
        right = "]" if "maximum" in schema else ")"
        if low is not None and high is not None:
            text += f" in {left}{_number(low)}, {_number(high)}{right}"
        elif low is not None:
            text += f" {'≥' if left == '[' else '>'} {_number(low)}"
        elif high is not None:
            text += f" {'≤' if right == ']' else '<'} {_number(high)}"
        if "items" in schema and isinstance(schema["items"], dict) and "array" in types:
            items = re.sub(r"^(integer|number|string)", r"\1s", describe_parameter(schema["items"]))
            text += f" of {items}"
        if schema.get("minItems", 0) >= 1 and "array" in types:
            text += " (non-empty)"
    if "default" in schema:
        text += f", default {_number(schema['default'])}"
    return text


def _branch(definition: dict, key: str, value: str) -> dict:
    """The ``then`` schema of the ``allOf`` branch of ``definition`` that ``key: value`` selects ({} if
    none)."""
    for branch in definition.get("allOf", []):
        if branch.get("if", {}).get("properties", {}).get(key, {}).get("const") == value:
            return branch["then"]
    return {}


def _parameters(definition: dict, key: str, value: str) -> tuple[str, list[tuple[str, str]]]:
    """(description, [(parameter, in words)]) of the entry ``key: value`` of ``definition``: the branch's
    own properties, each merged with the definition's common property of that name."""
    branch = _branch(definition, key, value)
    common = definition.get("properties", {})
    required = set(branch.get("required", [])) | set(definition.get("required", []))
    parameters = []
    for name, own in branch.get("properties", {}).items():
        if name == key:
            continue
        merged = {**common.get(name, {}), **(own if isinstance(own, dict) else {})}
        optional = "" if name in required or "default" in merged else " (optional)"
        parameters.append((name, describe_parameter(merged) + optional))
    return " ".join(branch.get("description", "").split()), parameters


def _shared_parameters(definition: dict, selector: str) -> tuple[str, list[tuple[str, str]]]:
    """(description, [(parameter, in words)]) of a definition whose entries all take its own properties."""
    required = definition.get("required", [])
    parameters = [
        (name, describe_parameter(spec) + ("" if name in required or "default" in spec else " (optional)"))
        for name, spec in definition["properties"].items()
        if name != selector
    ]
    text = " ".join(definition["properties"].get(selector, {}).get("description", "").split())
    return text, parameters


def _sections() -> list[FamilySection]:
    """Every kind's :attr:`~regretlab.specs.kind_spec.Kind.families`, in the kinds' order."""
    return [section for kind in KINDS.values() for section in kind.families]


def _family_entries(schema: dict) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """(section, name, description, parameters) of every entry of every kind's family sections."""
    defs = schema["$defs"]
    entries = []
    for section in _sections():
        definition = defs[section.definition]
        shared = _shared_parameters(definition, section.selector) if section.shared else None
        for name in section.names:
            described = shared or _parameters(definition, section.selector, name)
            entries.append((section.name, name, *described))
    return entries


def list_families(schema: dict, names: list[str] | None = None) -> str:
    """The graph families, loss kinds and CMDP families with their parameters; with ``names``, those with
    their descriptions."""
    entries = _family_entries(schema)
    _check_names(names or [], list(dict.fromkeys(name for _, name, _, _ in entries)), "family")
    lines = []
    for section in _sections():
        chosen = [e for e in entries if e[0] == section.name and (not names or e[1] in names)]
        if not chosen:
            continue
        lines.append(section.title + ":")
        if section.shared and not names:
            lines.append("  " + ", ".join(name for _, name, _, _ in chosen))
            lines += [f"    {name}: {words}" for name, words in chosen[0][3]]
            lines.append("")
            continue
        for _, name, description, parameters in chosen:
            lines.append(f"  {name}" + ("" if parameters else " (no parameters)"))
            if names and description:
                lines.append(f"    {description}")
            lines += [f"    {parameter}: {words}" for parameter, words in parameters]
        lines.append("")
    return "\n".join(lines).rstrip()


def _horizon(T: int) -> str:
    """1000 → 1e3, 4642 → 4642: round powers of ten short, the others as they are."""
    digits = str(T).rstrip("0")
    zeros = len(str(T)) - len(digits)
    return f"{digits}e{zeros}" if zeros >= 3 and len(digits) == 1 else str(T)


def list_regimes(config: dict, scale: str, names: list[str] | None = None) -> str:
    """The config's regimes at ``scale``, one line each; with ``names``, those in full."""
    regimes = config["regimes"]
    _check_names(names or [], list(regimes), "regime")
    if names:
        lines = []
        for name in names:
            regime = regimes[name]
            about = f"paper {regime['paper']}, kind {regime['kind']}, x = {regime['x']}"
            lines.append(f"{name}: {regime['theorem']} ({about})")
            if regime.get("description"):
                lines.append(f"  {' '.join(regime['description'].split())}")
            lines.append("  instances:")
            lines += [
                f"    {instance}: {_instance_words(spec)}" for instance, spec in regime["instances"].items()
            ]
            lines.append("  algorithms (constants presets run; bounds drawn):")
            for algorithm in regime["algorithms"]:
                presets = ", ".join(presets_of(regime, algorithm))
                lines.append(f"    {algorithm} ({presets}): {_bounds_words(regime['bounds'].get(algorithm))}")
            for scale_name, grid in regime["scales"].items():
                marker = " (the config's)" if scale_name == config["scale"] else ""
                horizons = " ".join(_horizon(T) for T in grid["horizons"])
                lines.append(f"  scale {scale_name}{marker}: horizons {horizons}; seeds {grid['seeds']}")
            lines.append("")
        return "\n".join(lines).rstrip()
    none = {"horizons": [], "seeds": "-"}  # a regime without a grid at this scale (frontier is optional)
    rows = [
        [
            name,
            regime["kind"],
            regime["x"],
            str(len(regime["instances"])),
            " ".join(_horizon(T) for T in regime["scales"].get(scale, none)["horizons"]) or "-",
            str(regime["scales"].get(scale, none)["seeds"]).replace(" ", ""),
            ", ".join(regime["algorithms"]),
        ]
        for name, regime in regimes.items()
    ]
    header = ["regime", "kind", "x", "instances", "horizons", "seeds", "algorithms"]
    return "\n".join([f"scale: {scale}", *_table(header, rows)])


def _instance_words(spec: dict) -> str:
    if "graph" in spec:
        graph = ", ".join(f"{k} {v}" for k, v in spec["graph"].items() if k != "family")
        losses = ", ".join(f"{k} {v}" for k, v in spec["losses"].items() if k != "kind")
        return (
            f"graph {spec['graph']['family']}"
            + (f" ({graph})" if graph else "")
            + (f"; losses {spec['losses']['kind']} ({losses})")
        )
    keys = ("family", "n_layers", "states_per_layer", "n_actions", "m", "rho", "rewards", "constraints")
    return ", ".join(f"{key} {spec[key]}" for key in keys if key in spec)


def _bounds_words(names) -> str:
    if isinstance(names, dict):
        return "; ".join(f"{preset}: {', '.join(bounds)}" for preset, bounds in names.items())
    return ", ".join(names or [])
