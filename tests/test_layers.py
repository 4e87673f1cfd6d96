"""The package's shape (issue 21): no module over 600 lines, no import cycles, and layers that import only
the layers below them (:data:`LAYERS`) — the two papers' packages never each other."""

from __future__ import annotations

import networkx as nx
import pytest

from regretlab.registry.kinds import KINDS
from regretlab.workflow.imports import PACKAGE, ROOT, module_imports

#: The most lines a module of regretlab may have.
MAX_LINES = 600
#: regretlab's layers, bottom first: a module imports modules of its own layer or of layers before it.
#: The kinds' packages (``bandits``, ``cmdp`` and any a recipe adds, found through the registry) share a
#: rank and import none of each other.
LAYERS = {
    "core": 0, "specs": 1, "graphs": 2, "registry": 4, "analysis": 5, "falsification": 5.5, "workflow": 6,
    **{kind.pipeline.split(".")[1]: 3 for kind in KINDS.values()},  # regretlab.<package>.<module>
}  # fmt: skip
#: Modules still over the limit, each an expected failure until it is split (strict: it fails once it fits).
BEING_SPLIT: set[str] = set()


def module_name(path) -> str:
    return ".".join((ROOT, *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")


MODULES = sorted(module_name(path) for path in PACKAGE.rglob("*.py"))


def _case(name: str):
    marks = [pytest.mark.xfail(strict=True, reason="issue 21: being split")] if name in BEING_SPLIT else []
    return pytest.param(name, marks=marks, id=name)


def test_the_modules_being_split_exist():
    assert BEING_SPLIT <= set(MODULES)


@pytest.mark.parametrize("module", [_case(name) for name in MODULES])
def test_no_module_exceeds_the_line_limit(module):
    path = PACKAGE.joinpath(*module.split(".")[1:])
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines (limit {MAX_LINES})"


def test_the_import_graph_has_no_cycles():
    """No module imports, directly or not, a module that imports it. A module's edge to its own packages is
    left out: Python runs them before it (``regretlab.graphs`` when ``regretlab.graphs.summary`` is imported),
    so a package's ``__init__`` that re-exports its modules is not a cycle."""
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    graph.add_edges_from(
        (name, imported)
        for name in MODULES
        for imported in module_imports(name)
        if not (name == imported or name.startswith(imported + "."))
    )
    cycles = sorted(" → ".join([*cycle, cycle[0]]) for cycle in nx.simple_cycles(graph))
    assert not cycles, f"import cycles: {cycles[:10]}"


def _layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None  # the package's __init__ belongs to no layer


def test_every_module_is_in_a_layer():
    assert {_layer(name) for name in MODULES} - {None} == set(LAYERS)


def test_no_module_imports_a_layer_above_its_own():
    """Imports go down (or sideways within a layer): ``core`` < ``specs`` < ``graphs`` < the kinds'
    packages < ``registry`` < ``analysis`` < ``workflow``; ``bandits`` and ``cmdp`` import neither each
    other."""
    back = sorted(
        f"{name} → {imported}"
        for name in MODULES
        for imported in module_imports(name)
        if _layer(name) and _layer(imported)
        and _layer(name) != _layer(imported)
        and LAYERS[_layer(imported)] >= LAYERS[_layer(name)]
    )  # fmt: skip
    assert not back, f"imports against the layers: {back}"
