"""Reading a config file as Snakemake reads one (JSON, else YAML), with the two checks Snakemake lacks: a
syntax error named by its line and column, and a key written twice in one mapping (YAML and JSON keep the
last one without a word). The Snakefile runs :func:`config_syntax_problem` on ``config.yaml`` and every
``--configfile`` before Snakemake reads them; ``regretlab estimate`` and ``run`` on their ``--config``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml


def yaml_error_line(error: yaml.YAMLError) -> str:
    """A YAML syntax error in one line: where (line and column, counted from 1, as an editor counts them)
    and what, with where the construct it broke began (``… (while parsing a flow sequence at line 3,
    column 6)``)."""
    if not isinstance(error, yaml.MarkedYAMLError) or error.problem_mark is None:
        return " ".join(str(error).split())
    mark = error.problem_mark
    line = f"line {mark.line + 1}, column {mark.column + 1}: {' '.join(str(error.problem).split())}"
    if error.context and error.context_mark is not None and error.context_mark.line != mark.line:
        where = error.context_mark
        line += f" ({error.context} at line {where.line + 1}, column {where.column + 1})"
    elif error.context:
        line += f" ({error.context})"
    return line


#: YAML's safe loader in C (libyaml, shipped in PyYAML's wheels; pure Python where it is missing): the same
#: values, parsed ~4x faster, which every Snakemake start and every ``regretlab`` command pays on config.yaml.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str):
    """``yaml.safe_load`` with :data:`SAFE_LOADER`: the same values, in C where PyYAML has libyaml."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a safe loader


class _UniqueKeys:
    """A safe loader's mapping constructor, refusing a mapping that repeats a key (YAML keeps the last one,
    silently)."""

    def construct_mapping(self, node, deep=False):
        first: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, list | dict):  # unhashable: construct_mapping raises its own error
                continue
            if key in first:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"key {key!r} appears twice (first at line {first[key] + 1}); YAML would keep only the "
                    "last: remove one",
                    key_node.start_mark,
                )
            first[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


class _UniqueKeyLoader(_UniqueKeys, SAFE_LOADER):
    """The loader that reads a config."""


class _WordingLoader(_UniqueKeys, yaml.SafeLoader):
    """The pure-Python loader, run only on a file the first one refused: its messages are the ones this
    module words (libyaml words the same errors differently)."""


def _unique_pairs(pairs: list) -> dict:
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"key {key!r} appears twice; JSON would keep only the last: remove one")
    return dict(pairs)


def config_syntax_problem(path: str | os.PathLike) -> str | None:
    """None when the config file at ``path`` parses as Snakemake reads one (JSON, else YAML), repeats no key
    and is absent or a file; else one line, e.g. ``'<path>' is not valid YAML: line L, column C: <problem>``.
    Snakemake's own message names no line ("Config file is not valid JSON or YAML") and it keeps the last of
    two equal keys without a word, so the Snakefile calls this first."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"{str(path)!r} cannot be read: {error.strerror}"
    try:
        json.loads(text)
    except ValueError:
        pass
    else:
        try:
            json.loads(text, object_pairs_hook=_unique_pairs)
        except ValueError as error:
            return f"{str(path)!r} is not valid JSON: {error}"
        return None
    try:
        yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as fast_error:
        try:
            yaml.load(text, Loader=_WordingLoader)  # noqa: S506 - a safe loader
        except yaml.YAMLError as error:
            return f"{str(path)!r} is not valid YAML: {yaml_error_line(error)}"
        return f"{str(path)!r} is not valid YAML: {yaml_error_line(fast_error)}"
    return None
