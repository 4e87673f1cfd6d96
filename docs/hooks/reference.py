"""MkDocs hook: the guide's reference pages, generated from the code at every build, so that they cannot go
stale: every config key (from the schema, with the registries' names filled in), the kinds with their
metrics and algorithms, the bounds, the claims of the evidence table, the configured regimes and the command
line (from its argparse parser). The hand-written pages link here instead of restating any of it.

Each page is a :class:`mkdocs.structure.files.File` made in :func:`on_files` (it exists in the built site
only); ``tests/test_docs.py`` builds the site and checks that every key, name and subcommand is listed.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from mkdocs.structure.files import File

# Everything this reference reads of regretlab: the registries, the config schema and the command line. When
# one of them moves, repoint it here.
from regretlab.registry.claims import CLAIMS, UNCHECKED_CLAIMS
from regretlab.registry.kinds import KINDS
from regretlab.registry.theory import BOUNDS, CEILINGS
from regretlab.workflow.cli import build_parser
from regretlab.workflow.config import load_schema
from regretlab.workflow.imports import learner_modules
from regretlab.workflow.listing import describe_parameter

# ---- Markdown helpers


def _text(text: str | None) -> str:
    """A docstring or description as one line of Markdown: reST roles and double backquotes become code
    spans; outside them, what Markdown would read as markup (``|``, ``*``, ``_``, ``<``) is escaped."""
    text = " ".join((text or "").split())
    text = re.sub(r":[a-z]+:`~?([^`]+)`", lambda m: f"`{m[1].replace(' ', '')}`", text)
    text = text.replace("``", "`")
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        for char, escaped in (("\\", "\\\\"), ("|", "\\|"), ("*", "\\*"), ("_", "\\_"), ("<", "&lt;")):
            parts[i] = parts[i].replace(char, escaped)
    return "".join(parts)


def _code(value) -> str:
    return f"`{value}`"


def _names(values, link: str = "") -> str:
    """Names as code spans, each a link to ``link#name`` when ``link`` is given; "—" for none."""
    values = list(values)
    if not values:
        return "—"
    return ", ".join(f"[`{v}`]({link}#{v})" if link else f"`{v}`" for v in values)


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell or "—" for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _first_sentence(text: str | None) -> str:
    """The first sentence of a docstring's first paragraph: up to the first full stop outside parentheses
    that ends the paragraph or is followed by a blank."""
    text = " ".join(inspect.cleandoc(text or "").split("\n\n")[0].split())
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and text[i + 1 : i + 2] in ("", " "):
            return text[: i + 1]
    return text


def _attributes(cls: type) -> dict[str, str]:
    """Field → its description, from the ``Attributes:`` sections of the docstrings of a dataclass and its
    bases (a subclass's own description first), in the order of the dataclass's fields."""
    described: dict[str, str] = {}
    for klass in cls.__mro__:
        doc = inspect.cleandoc(klass.__dict__.get("__doc__") or "")
        section = re.search(r"^Attributes:\n((?:[ ]{4}.*\n?|\n)+)", doc, flags=re.M)
        if section is None:
            continue
        for name, text in re.findall(r"^[ ]{4}(\w+): (.*(?:\n[ ]{8}.*)*)", section[1], flags=re.M):
            described.setdefault(name, text)
    return {field.name: described.get(field.name, "") for field in dataclasses.fields(cls)}


def _fields_table(cls: type) -> str:
    return _table(["field", "meaning"], [[_code(k), _text(v)] for k, v in _attributes(cls).items()])


def _function(function: Callable | None) -> str:
    """A function as its docstring's first sentence, after ``module.name`` when it is a public one (a
    lambda or a private helper is known by its entry); "" without either."""
    if function is None:
        return ""
    name = getattr(function, "__qualname__", "")
    public = name and "<" not in name and not name.startswith("_")
    doc = _text(_first_sentence(function.__doc__)) if function.__doc__ else ""
    named = f"`{function.__module__}.{name}`" if public else ""
    return ": ".join(part for part in (named, doc) if part)


# ---- The configuration


def _allowed(schema: dict) -> str:
    """The names a key allows: its enum, its items' or its values' items' (a regime's ``bounds``); the bound
    names link to their page instead."""
    values = schema.get("additionalProperties")
    candidates = [schema, schema.get("items"), values.get("items") if isinstance(values, dict) else None]
    enum = next((c["enum"] for c in candidates if isinstance(c, dict) and "enum" in c), None)
    if not enum:
        return ""
    if set(enum) == set(BOUNDS):
        return "a bound name ([Bounds](bounds.md))"
    return ", ".join(_code(value) for value in enum)


def _yaml(value) -> str:
    """A value as YAML writes it in one line (``null``, ``[paper]``)."""
    return yaml.safe_dump(value, default_flow_style=True, width=10_000).replace("\n...", "").strip()


def _type(schema: dict) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.replace('_', '-')})"
    words = describe_parameter({k: v for k, v in schema.items() if k not in ("default", "enum")})
    items = schema.get("items") or {}
    if "array" in str(schema.get("type")) and "enum" in items:
        words = "list of names (non-empty)" if schema.get("minItems") else "list of names"
    if schema.get("type") == "object" and isinstance(schema.get("additionalProperties"), dict):
        words = "mapping"
    return _text(words)


def _key_rows(definition: dict, defs: dict) -> list[list[str]]:
    """One row per key of a schema object; a key referring to a definition (``$ref``) gets its description."""
    required = set(definition.get("required", []))
    rows = []
    for key, schema in definition.get("properties", {}).items():
        if not isinstance(schema, dict):
            continue
        if "default" in schema:
            default = _code(_yaml(schema["default"]))
        else:
            default = "required" if key in required else ""
        referred = defs.get(schema.get("$ref", "").rsplit("/", 1)[-1], {})
        description = schema.get("description") or referred.get("description")
        rows.append([_code(key), _type(schema), default, _allowed(schema), _text(description)])
    return rows


KEY_HEADER = ["key", "type", "default", "allowed values", "description"]


def _branches(definition: dict, key: str) -> list[tuple[str, dict]]:
    """(value, then-schema) of each ``allOf`` branch that ``key: value`` selects."""
    return [
        (branch["if"]["properties"][key]["const"], branch.get("then", {}))
        for branch in definition.get("allOf", [])
        if key in branch.get("if", {}).get("properties", {})
    ]


def _branch_section(title: str, definition: dict, key: str) -> list[str]:
    """One table per value of ``key`` (a graph family, a loss kind): its keys, merged with the common ones."""
    common = definition.get("properties", {})
    out = []
    for value, then in _branches(definition, key):
        merged = {
            "required": then.get("required", []),
            "properties": {
                name: {**common.get(name, {}), **(own if isinstance(own, dict) else {})}
                for name, own in then.get("properties", {}).items()
                if name != key
            },
        }
        out += [
            f"### {title} `{value}` {{#{key}-{value.replace('_', '-')}}}\n",
            _text(then.get("description")) + "\n",
        ]
        rows = _key_rows(merged, {})
        out.append(_table(KEY_HEADER, rows) if rows else "No other key.\n")
    return out


def config_page(root: Path) -> str:
    schema = load_schema(root / "schemas" / "config.schema.yaml")
    defs = schema["$defs"]
    regime = defs["regime"]
    kinds = [
        [_code(kind), _names(then["properties"]["algorithms"]["items"]["enum"], "kinds.md")]
        for kind, then in _branches(regime, "kind")
    ]
    out = [
        "# Configuration keys\n",
        "Every key of `config.yaml`, from `schemas/config.schema.yaml` (checked before any job runs). The "
        "names of kinds, algorithms, presets and bounds come from the registries, as the config check reads "
        "them.\n",
        "## Top level {#top-level}\n",
        _table(KEY_HEADER, _key_rows(schema, defs)),
        "## A regime {#regime}\n",
        "An entry of `regimes`, under its name.\n",
        _table(KEY_HEADER, _key_rows(regime, defs)),
        "The algorithms a regime of each kind can name:\n",
        _table(["kind", "algorithms"], kinds),
        "## A scale's grid {#scale}\n",
        "`scales.quick`, `scales.paper`, `scales.frontier` and `scales.power` of a regime.\n",
        _table(KEY_HEADER, _key_rows(defs["scale"], defs)),
        "## A bandit instance {#bandit-instance}\n",
        "An entry of a `bandit` regime's `instances`.\n",
        _table(KEY_HEADER, _key_rows(defs["bandit_instance"], defs)),
        "## A feedback graph {#graph}\n",
        _text(defs["graph"].get("description")) + "\n",
        _table(KEY_HEADER, _key_rows(defs["graph"], defs)),
        *_branch_section("Family", defs["graph"], "family"),
        "## A loss sequence {#losses}\n",
        _text(defs["losses"].get("description")) + "\n",
        _table(KEY_HEADER, _key_rows(defs["losses"], defs)),
        *_branch_section("Kind", defs["losses"], "kind"),
        "## A CMDP instance {#cmdp-instance}\n",
        "An entry of a `cmdp` regime's `instances`. "
        + _text(defs["cmdp_instance"].get("description"))
        + "\n",
        _table(KEY_HEADER, _key_rows(defs["cmdp_instance"], defs)),
        "### A CMDP given by hand {#cmdp-mdp}\n",
        "The `mdp` of a CMDP instance of `family: explicit`.\n",
        _table(KEY_HEADER, _key_rows(defs["cmdp_instance"]["properties"]["mdp"], defs)),
    ]
    for name in sorted(defs):  # the instance schemas of the other kinds (Kind.instance_schema)
        kind = name.removesuffix("_instance")
        if name.endswith("_instance") and kind not in ("bandit", "cmdp"):
            out += [
                f"## A {kind} instance {{#{kind}-instance}}\n",
                f"An entry of a `{kind}` regime's `instances`, as its kind declares it.\n",
                _table(KEY_HEADER, _key_rows(defs[name], defs)),
            ]
    return "\n".join(out)


# ---- Kinds, metrics and algorithms


def _entry_value(value) -> str:
    """A registry entry's field in a table cell."""
    if dataclasses.is_dataclass(value):
        return ", ".join(f"{f.name} {getattr(value, f.name):g}" for f in dataclasses.fields(value))
    if isinstance(value, tuple):
        return _names(value)
    if callable(value):
        return _function(value) or "yes"
    return _code(value) if isinstance(value, str) else str(value)


def _learner(module: str) -> str:
    """A learner's module and the first sentence of its docstring."""
    doc = sys.modules[module].__doc__
    return f"`{module}`" + (f": {_text(_first_sentence(doc))}" if doc else "")


def kinds_page(root: Path) -> str:
    kind_class = type(next(iter(KINDS.values())))
    out = [
        "# Kinds, metrics and algorithms\n",
        "A regime's `kind` is one of these; each brings its algorithm registry and the metrics its run "
        "tables carry (`.venv/bin/regretlab list algorithms` prints the same).\n",
        "Fields of a kind:\n",
        _fields_table(kind_class),
    ]
    metric_class = type(next(iter(next(iter(KINDS.values())).metrics.values())))
    out += ["Fields of a metric:\n", _fields_table(metric_class)]
    for name, kind in KINDS.items():
        spec_class = type(next(iter(kind.algorithms.values())))
        out += [
            f"## `{name}` {{#{name}}}\n",
            f"{_text(kind.description)}. One step of a run is one {kind.time_unit}.\n",
            "### Metrics\n",
            _table(
                ["metric", "label", "unit", "description"],
                [
                    [
                        _code(m),
                        _text(metric.label),
                        _text(metric.unit),
                        _text(metric.description) + (" (a 0/1 event per run)" if metric.proportion else ""),
                    ]
                    for m, metric in kind.metrics.items()
                ],
            ),
            "### Algorithms\n",
            _table(
                ["algorithm", "label", "presets", "description"],
                [
                    [f"[`{a}`](#{a})", _text(spec.label), _names(spec.presets), _text(spec.description)]
                    for a, spec in kind.algorithms.items()
                ],
            ),
            f"Fields of a `{name}` algorithm's entry:\n",
            _fields_table(spec_class),
        ]
        for algorithm, spec in kind.algorithms.items():
            rows = [["learner", "; ".join(_learner(m) for m in sorted(learner_modules(spec)))]]
            for field in dataclasses.fields(spec):
                value = getattr(spec, field.name)
                if field.name in ("build", "description") or value in (None, "", (), 0):
                    continue
                link = "bounds.md" if field.name == "default_bounds" else ""
                rows.append([_code(field.name), _names(value, link) if link else _entry_value(value)])
            out += [
                f"#### `{algorithm}` {{#{algorithm}}}\n",
                _text(spec.description) + "\n",
                _table(["field", "value"], rows),
            ]
    return "\n".join(out)


# ---- Bounds


def _bound_type(spec) -> str:
    if spec.direction == "reference":
        return "reference"
    return f"{'explicit' if spec.explicit else 'rate'}, {spec.direction}"


def bounds_page(root: Path) -> str:
    spec_class = type(next(iter(BOUNDS.values())))
    out = [
        "# Bounds\n",
        "Every bound a regime can draw, by the name its `bounds` uses. *Explicit*: the paper's constants (or "
        "constants derived here, as `constants` says); *rate*: an Õ(·) rate drawn with unit constant.\n",
        _table(
            ["bound", "metric", "type", "formula"],
            [[f"[`{n}`](#{n})", _code(s.metric), _bound_type(s), _text(s.label)] for n, s in BOUNDS.items()],
        ),
        "Fields of an entry:\n",
        _fields_table(spec_class),
    ]
    for name, spec in BOUNDS.items():
        rows = [
            ["metric", _code(spec.metric)],
            ["type", _bound_type(spec)],
            ["formula", _text(spec.label)],
            ["constants", _text(spec.constants) if spec.explicit else "unit constant"],
            ["exponents", ", ".join(f"`{x}`: {e:g}" for x, e in spec.exponents.items())],
            ["logs its Õ hides", ", ".join(f"`{x}`: (ln {x})^{k:g}" for x, k in spec.log_powers.items())],
            ["where the proof puts them", _text(spec.log_note)],
            ["evaluated by", _function(spec.evaluate)],
            ["hypotheses", _function(spec.hypotheses) or ("yes" if spec.hypotheses else "")],
            [
                "applies to",
                _function(spec.applies) or ("some instances" if spec.applies else "every instance"),
            ],
            ["params", _names(spec.params)],
            ["metrics", _names(spec.metrics)],
            ["at each checkpoint", "yes" if spec.at_checkpoint else "no"],
            ["own trivial bound", _function(spec.trivial) or ("yes" if spec.trivial else "")],
            ["reference learner", _names([spec.reference], "kinds.md") if spec.reference else ""],
            ["source", _text(spec.source)],
        ]
        out += [f"## `{name}` {{#{name}}}\n", _table(["field", "value"], [r for r in rows if r[1]])]
    ceiling = next(c for ceilings in CEILINGS.values() for c in ceilings)
    out += [
        "## Ceilings {#ceilings}\n",
        "A ceiling the learner's own construction puts on a metric: a bound at or above it is `implied`.\n",
        _table(
            ["metric", "algorithms", "ceiling", "source"],
            [
                [_code(metric), _names(c.algorithms, "kinds.md"), _text(c.label), _text(c.source)]
                for metric, ceilings in CEILINGS.items()
                for c in ceilings
            ],
        ),
        "Fields of a ceiling:\n",
        _fields_table(type(ceiling)),
    ]
    return "\n".join(out)


# ---- Claims


def claims_page(root: Path) -> str:
    claim_class = type(CLAIMS[0])
    rows = [
        [
            f"[`{c.key}`](#{c.key})",
            c.paper,
            _text(c.name),
            c.kind,
            _names(c.bounds, "bounds.md"),
            _names(c.presets),
            c.role,
        ]
        for c in CLAIMS
    ]
    out = [
        "# Claims\n",
        "The rows of the evidence table: every claim of both papers the workflow checks, and those it "
        "cannot, with why.\n",
        _table(["claim", "paper", "name", "check", "bounds", "presets", "role"], rows),
        "Fields of a claim:\n",
        _fields_table(claim_class),
    ]
    for c in CLAIMS:
        details = [
            ["claim", _text(c.text)],
            ["source", _text(c.source)],
            ["regimes", _names(c.regimes, "regimes.md") if c.regimes else "every regime drawing its bounds"],
            ["rate sense", c.rate_sense if c.kind in ("rate", "lower bound") else ""],
            ["mechanism", _text(c.mechanism.description) if c.mechanism else ""],
            ["would catch", _text(c.construction.error.format(factor="k")) if c.construction else ""],
            ["power against", _text(c.alternative)],
        ]
        out += [
            f"## `{c.key}`: {_text(c.name)} ({c.paper}) {{#{c.key}}}\n",
            _table(["field", "value"], [r for r in details if r[1]]),
        ]
    out += [
        "## Claims without a check {#unchecked}\n",
        _table(
            ["claim", "paper", "name", "why not", "reason"],
            [[_code(c.key), c.paper, _text(c.name), c.kind, _text(c.reason)] for c in UNCHECKED_CLAIMS],
        ),
    ]
    return "\n".join(out)


# ---- Regimes


def _instance(spec: dict) -> str:
    return _code(yaml.safe_dump(spec, default_flow_style=True, sort_keys=False, width=10_000).strip())


def regimes_page(root: Path) -> str:
    regimes = yaml.safe_load((root / "config.yaml").read_text(encoding="utf-8"))["regimes"]
    out = [
        "# Regimes\n",
        "The regimes of `config.yaml`, as it is in this checkout: one figure each (`figures/<regime>.png`). "
        "`.venv/bin/regretlab list regimes NAME` prints one with its defaults filled in.\n",
        _table(
            ["regime", "kind", "paper", "theorem", "x"],
            [
                [f"[`{n}`](#{n})", r["kind"], r["paper"], _text(r["theorem"]), _code(r["x"])]
                for n, r in regimes.items()
            ],
        ),
    ]
    for name, regime in regimes.items():
        bounds = regime.get("bounds", {})
        algorithm_rows = []
        for algorithm in regime["algorithms"]:
            drawn = bounds.get(algorithm)
            if isinstance(drawn, dict):
                words = "; ".join(f"{preset}: {_names(b, 'bounds.md')}" for preset, b in drawn.items())
            else:
                words = _names(drawn or [], "bounds.md") if drawn is not None else "its default bounds"
            algorithm_rows.append([f"[`{algorithm}`](kinds.md#{algorithm})", words])
        about = [f"paper {regime['paper']}", f"kind `{regime['kind']}`", f"x = `{regime['x']}`"]
        if "draws_from" in regime:
            about.append(f"draws from [`{regime['draws_from']}`](#{regime['draws_from']})")
        out += [
            f"## `{name}` {{#{name}}}\n",
            f"{_text(regime['theorem'])} ({', '.join(about)}).\n",
            _text(regime.get("description")) + "\n",
            _table(["algorithm", "bounds drawn"], algorithm_rows),
            _table(["instance", "entry"], [[_code(i), _instance(s)] for i, s in regime["instances"].items()]),
            _table(
                ["scale", "horizons", "seeds"],
                [[s, _code(g["horizons"]), _code(g["seeds"])] for s, g in regime["scales"].items()],
            ),
        ]
    return "\n".join(out)


# ---- Command line


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand."""
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {action.dest: action.help for action in commands._choices_actions}
    return [(name, helps.get(name) or "", sub) for name, sub in commands.choices.items()]


def _option_rows(parser: argparse.ArgumentParser) -> list[list[str]]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        positional = not action.option_strings
        name = action.metavar or action.dest
        argument = "" if action.nargs == 0 or positional else (action.metavar or action.dest.upper())
        if action.nargs in ("*", "+"):
            argument = f"{argument or name} ..."
        required = action.nargs not in ("?", "*") if positional else action.required
        help_text = (action.help or "") % {**vars(action), "prog": parser.prog}
        rows.append([
            _code(name) if positional else _names(action.option_strings), _code(argument) if argument else "",
            _names(action.choices) if action.choices else "",
            "required" if required else "", _text(help_text),
        ])  # fmt: skip
    return rows


def cli_page(root: Path) -> str:
    parser = build_parser()
    out = [
        "# Command line\n",
        f"`regretlab`: {_text(parser.description)} `regretlab COMMAND --help` prints the same.\n",
        "```\n" + parser.format_usage().strip() + "\n\n" + (parser.epilog or "") + "\n```\n",
    ]
    for command, summary, sub in _subcommands(parser):
        out += [
            f"## `regretlab {command}` {{#{command}}}\n",
            _text(sub.description or summary) + "\n",
            "```\n" + sub.format_usage().strip() + "\n```\n",
            _table(["option", "argument", "choices", "", "what it does"], _option_rows(sub)),
        ]
    return "\n".join(out)


# ---- The hook

#: The generated pages, by their path in the site (the nav of mkdocs.yml names them), each from the checkout's
#: root.
PAGES: dict[str, Callable[[Path], str]] = {
    "reference/config.md": config_page,
    "reference/kinds.md": kinds_page,
    "reference/bounds.md": bounds_page,
    "reference/claims.md": claims_page,
    "reference/regimes.md": regimes_page,
    "reference/cli.md": cli_page,
}
HEADER = (
    "<!-- Generated by docs/hooks/reference.py at every build: edit the code it reads, not this page. -->\n"
)


def on_files(files, config):
    root = Path(config.config_file_path).parent
    for uri, page in PAGES.items():
        files.append(File.generated(config, uri, content=HEADER + page(root)))
    return files
