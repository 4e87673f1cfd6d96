"""The source of each entry of a registry, apart from the rest of its module, digested: what lets a workflow
job depend on the registry entries it reads rather than on the whole registry file
(:mod:`regretlab.workflow.imports`,
``rules/common.smk``).

A registry is a module-level dict literal of config names to entries (``ALGORITHMS`` in
``bandits/algorithms.py`` and ``cmdp/algorithms.py``, ``BOUNDS`` in ``theory.py``). Its module splits, read
with :mod:`ast` and never imported, into

- *an entry's own source*: the text of its ``"name": Spec(...)`` item and of the module's top-level
  statements (functions, classes, constants, imports) that the item refers to by name, directly or through
  one another, and that nothing outside the registry's items refers to (``_exp3g_horizon`` is Exp3.G's own;
  ``from regretlab.bandits.exp3g import Exp3G`` too);
- *the rest of the module*: every other statement, the definitions those refer to (``AlgorithmSpec``, which
  the registry's annotation names, with the imports it needs) and the registry's assignment without its
  items. Docstrings (the module's, an attribute's) and the comments between statements are left out: no job
  runs them.

A definition that both an entry and the rest refer to is part of the rest. Adding an entry therefore changes
its own source and nothing else, its learner's import included; editing a helper that two entries share
changes both. Only references by name are followed: an entry reached by a string (``globals()[...]``) would
be missed, and registries are written without such tricks. An entry that is not an item of the dict literal
(added by a later statement) is part of the rest.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: The key of the rest of the module among a job's digests of a registry.
REST = "(rest of the module)"
#: The key of the order of the entries read among a job's digests of a registry.
ORDER = "(order of these entries)"


@dataclass(frozen=True)
class RegistrySource:
    """One registry's module, split (module docstring).

    Attributes:
        rest: the source texts of the rest of the module, in source order.
        entries: config name → the source texts of the entry's own source (its item first), for every item
            of the dict literal, in its order.
    """

    rest: tuple[str, ...]
    entries: Mapping[str, tuple[str, ...]]

    def digests(self, names: Iterable[str]) -> dict[str, str]:
        """The digests a job reading the entries ``names`` depends on: the rest of the module's (key
        :data:`REST`), those of the named entries that are items of the registry (one that is not lives in
        the rest) and, when there are several, their order in the registry (key :data:`ORDER`: a figure
        lists its algorithms in the registry's order)."""
        read = [name for name in self.entries if name in set(names)]
        order = {ORDER: ", ".join(read)} if len(read) > 1 else {}
        return {REST: _digest(self.rest)} | {name: _digest(self.entries[name]) for name in read} | order


def _digest(texts: Iterable[str]) -> str:
    """A short SHA-256 of some source texts, in order (16 hex digits: a rerun reason stays readable)."""
    sha = hashlib.sha256()
    for text in texts:
        sha.update(text.encode("utf-8") + b"\0")
    return sha.hexdigest()[:16]


def _bound_names(statement: ast.stmt) -> set[str]:
    """The top-level names a statement defines (imports, functions, classes, assignments to names)."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {alias.asname or alias.name.split(".")[0] for alias in statement.names}
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    if isinstance(statement, ast.AnnAssign | ast.AugAssign):
        targets = [statement.target]
    names, todo = set(), list(targets)
    while todo:  # names and tuples of names; ``X[k] = …`` or ``X.a = …`` defines nothing
        target = todo.pop()
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List | ast.Starred):
            todo.extend(target.elts if not isinstance(target, ast.Starred) else [target.value])
    return names


def _used_names(*nodes: ast.AST | None) -> set[str]:
    """Every name the nodes refer to (locals included: a local that shadows a global links to it, which errs
    on the side of a rerun)."""
    return {n.id for node in nodes if node is not None for n in ast.walk(node) if isinstance(n, ast.Name)}


def _statement_text(lines: list[str], statement: ast.stmt) -> str:
    """A top-level statement's lines, its decorators included."""
    first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))])
    return "".join(lines[first - 1 : statement.end_lineno])


#: A physical line with its end, as :func:`ast.get_source_segment` splits a source (at CR LF, CR and LF only).
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _segment(lines: list[str], node: ast.AST) -> str:
    """:func:`ast.get_source_segment` of ``node`` over the source's lines (``_PHYSICAL_LINE``) split once: it
    splits the whole source again on every call, which was 10 s of a default-config dry run."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
    head = lines[first].encode()[node.col_offset :].decode()
    tail = lines[last].encode()[: node.end_col_offset].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def _is_docstring(statement: ast.stmt) -> bool:
    """A statement that is a bare constant (a docstring): it runs nothing."""
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def split_registry(source: str, registry: str) -> RegistrySource:
    """A module's source split into the rest and each entry's own source (module docstring), its registry
    being the top-level dict literal named ``registry``; :class:`ValueError` when the module does not assign
    one dict literal to that name."""
    tree = ast.parse(source)
    lines = _PHYSICAL_LINE.findall(source)  # numbered as ast numbers them
    # A bare string (the module's docstring, an attribute's) is no code: left out, like comments.
    body = [statement for statement in tree.body if not _is_docstring(statement)]
    assignments = [
        s for s in body if isinstance(s, ast.Assign | ast.AnnAssign) and registry in _bound_names(s)
    ]
    if len(assignments) != 1 or not isinstance(assignments[0].value, ast.Dict):
        raise ValueError(f"the module must assign one dict literal to {registry!r}, once")
    (assignment,) = assignments
    items = {
        key.value: (key, value)
        for key, value in zip(assignment.value.keys, assignment.value.values, strict=True)
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }
    definitions: dict[str, list[ast.stmt]] = {}
    for statement in body:
        if statement is not assignment:
            for name in _bound_names(statement):
                definitions.setdefault(name, []).append(statement)

    def reach(names: set[str]) -> list[ast.stmt]:
        """The definitions the names lead to, through the names those refer to, in source order."""
        seen, todo = {}, list(names)
        while todo:
            for statement in definitions.get(todo.pop(), []):
                if id(statement) not in seen:
                    seen[id(statement)] = statement
                    todo.extend(_used_names(statement))
        return sorted(seen.values(), key=lambda s: s.lineno)

    # The rest: what is no definition (a loop, a call), every definition no item refers to, and the
    # registry's annotation and any item that is not a plain "name": value (a ** spread, a computed key).
    by_items = {id(s) for s in reach(_used_names(*(v for _, v in items.values())))}
    others = [s for s in body if s is not assignment and (not _bound_names(s) or id(s) not in by_items)]
    loose = [
        value
        for key, value in zip(assignment.value.keys, assignment.value.values, strict=True)
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str))
    ]
    head = getattr(assignment, "annotation", None)
    rest = {id(s): s for s in others} | {
        id(s): s for s in reach(_used_names(head, *loose, *others) - {registry})
    }
    rest_texts = [_statement_text(lines, s) for s in sorted(rest.values(), key=lambda s: s.lineno)]
    rest_texts += [_segment(lines, node) for node in (head, *loose) if node is not None]
    entries = {}
    for name, (key, value) in items.items():
        own = [_statement_text(lines, s) for s in reach(_used_names(value)) if id(s) not in rest]
        entries[name] = (
            f"{_segment(lines, key)}: {_segment(lines, value)}",
            *own,
        )
    return RegistrySource(rest=tuple(rest_texts), entries=entries)


@cache
def registry_source(path: str | Path, registry: str) -> RegistrySource:
    """:func:`split_registry` of the module at ``path`` (read once per process)."""
    return split_registry(Path(path).read_text(encoding="utf-8"), registry)
