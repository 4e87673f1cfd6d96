"""The import graph of regretlab's own modules, read from their source, and the library files each job of
the workflow runs.

The workflow names these files as inputs of the jobs (``rules/common.smk``), so Snakemake reruns a job when
one of them changes — and says which (``Updated input files: src/regretlab/bandits/algorithm6.py``): a job
whose script imports nothing of the edited module is left alone. Snakemake compares checksums, so saving a
file unchanged (or ``touch``) reruns nothing.

The graph is read with :mod:`ast` (every ``import`` and ``from … import`` of a module, at any depth, and the
packages that importing a module runs the ``__init__`` of), never by importing anything. One refinement
makes it say what a job runs rather than what it loads: a *registry* — the module whose entries build the
learners of a kind of regime (``regretlab.bandits.algorithms``) — imports every learner's module so that it
can name them, yet a run job builds one learner only. The edges from a registry to the modules of the
learners a job does not run are therefore left out; every other edge is kept, including those from one
learner to another's module (Algorithm 6 uses Algorithm 2's ``corrected_loss``).

A second refinement makes it say which *entries* of a registry a job reads. A registry's file is no input of
a job that reads some of its entries only (a run job reads its own algorithm's; a summary, its regime's
bounds'): the job names instead, as a parameter, the digests of those entries' own sources and of the rest of
the module (:mod:`regretlab.workflow.registry_sources`), so that adding or editing one entry reruns the jobs
that read it and no other, and a reason names the entry (``Params have changed since last execution``).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

from regretlab.registry.kinds import KINDS
from regretlab.specs.algorithm_spec import AlgorithmSpec
from regretlab.workflow.registry_sources import registry_source

#: The package's source folder.
PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.name


def module_file(name: str) -> Path | None:
    """The source file of module ``name`` of regretlab (``regretlab.bandits.omd`` → ``…/bandits/omd.py``,
    a package → its ``__init__.py``), or None when regretlab has no such module."""
    parts = name.split(".")
    if parts[0] != ROOT:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _with_packages(name: str) -> list[str]:
    """``name`` and the packages whose ``__init__`` importing it runs (``regretlab``, ``regretlab.bandits``
    for ``regretlab.bandits.omd``)."""
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` and, at any depth, of the statement lists inside its statements (function
    and class bodies, branches, exception handlers, match cases): where an ``import`` can be, without
    walking the expressions (most of a module's nodes, none of them an import)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.stmt):
            yield node
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, ast.stmt | ast.excepthandler | ast.match_case))


def imports_of_source(source: str, module: str | None = None) -> set[str]:
    """The regretlab modules a piece of Python source imports (directly), with their packages.

    ``module`` is the source's own module name, needed to resolve relative imports (``from . import x``);
    ``from package import name`` counts ``package.name`` when that is a module.
    """
    found = set()
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if module is None:
                    continue
                # ``from . import x`` in a package's __init__ is relative to the package itself
                in_init = module_file(module).name == "__init__.py"
                parts = module.split(".") + (["__init__"] if in_init else [])
                base = ".".join(parts[: -node.level] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {
        package for name in found if module_file(name) is not None for package in _with_packages(name)
    } - ({module} if module else set())


@cache
def module_imports(name: str) -> frozenset[str]:
    """The regretlab modules module ``name`` imports directly (see :func:`imports_of_source`)."""
    path = module_file(name)
    if path is None:
        raise ValueError(f"regretlab has no module {name!r}")
    return frozenset(imports_of_source(path.read_text(encoding="utf-8"), name))


def closure(roots: Iterable[str], skip: Mapping[str, set[str]] | None = None) -> set[str]:
    """Every regretlab module reachable from ``roots`` through imports, leaving out the edges
    ``module → skipped`` listed in ``skip`` (module → the modules not to follow from it)."""
    skip = skip or {}
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(module_imports(name) - skip.get(name, set()) - seen)
    return seen


def _named_classes(function: object) -> set[type]:
    """The classes a function (e.g. a registry entry's ``build`` lambda) refers to by global name, or the
    class itself when given one."""
    if isinstance(function, type):
        return {function}
    codes, names = [function.__code__], set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(const for const in code.co_consts if hasattr(const, "co_names"))
    return {value for name in names if isinstance(value := function.__globals__.get(name), type)}


@cache
def _all_modules() -> frozenset[str]:
    """Every module of regretlab, by name."""
    return frozenset(
        ".".join((ROOT, *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        for path in PACKAGE.rglob("*.py")
    )


def learner_modules(entry: AlgorithmSpec) -> set[str]:
    """The regretlab modules holding the learner a registry entry builds: those of the classes its
    ``build`` names (``Exp3G`` for the entry ``exp3g``, whose ``build`` calls ``Exp3G(...)``)."""
    return {cls.__module__ for cls in _named_classes(entry.build)} & _all_modules()


def registering_module(entry: AlgorithmSpec) -> str:
    """The module where a registry entry's ``build`` is written: its kind's registry
    (``regretlab.bandits.algorithms``)."""
    return entry.build.__module__


def job_modules(
    script: str | os.PathLike, registry: Mapping[str, AlgorithmSpec], builds: Iterable[str] | None = ()
) -> set[str]:
    """The regretlab modules a job's ``script`` can run: the closure of what it imports and of the modules of
    the learners it builds, without the edges from the registries to the learners it does not build.

    ``registry``: algorithm name → registry entry, for every kind; ``builds``: the algorithms whose learners
    the job builds — a run job's own, none (``()``) for instances, aggregation, figures and tables, every
    one (None) for a job that may build any (the evidence table prices runs with the learners' constants).
    """
    builds = set(registry) if builds is None else set(builds)
    roots = imports_of_source(Path(script).read_text(encoding="utf-8"))
    own = set().union(*(learner_modules(registry[name]) for name in builds))
    others = set().union(*(learner_modules(e) for name, e in registry.items() if name not in builds)) - own
    registries = {registering_module(entry) for entry in registry.values()}
    return closure(roots | own, {module: others for module in registries})


def source_files(modules: Iterable[str], relative_to: str | os.PathLike | None = None) -> list[str]:
    """The source files of ``modules``, sorted; relative to ``relative_to`` (default: the working
    directory) when they lie under it, else absolute."""
    base = Path(relative_to or os.getcwd()).resolve()
    paths = [module_file(name) for name in modules]
    return sorted(str(p.relative_to(base)) if p.is_relative_to(base) else str(p) for p in paths)


def _assigned_names(module: str) -> frozenset[str]:
    """The names module ``module`` assigns at its top level (not those it imports)."""
    tree = ast.parse(module_file(module).read_text(encoding="utf-8"))
    return frozenset(
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    )


def _defining_module(registry: Mapping) -> tuple[str, str]:
    """``(module, name)`` of the module-level dict a registry is: the regretlab module that assigns it (the
    modules that import it under a name of theirs do not count)."""
    (found,) = {
        (module, name)
        for module in sorted(_all_modules())
        if module in sys.modules
        for name, value in vars(sys.modules[module]).items()
        if value is registry and name in _assigned_names(module)
    }
    return found


@cache
def registries() -> dict[str, tuple[str, frozenset[str]]]:
    """Every registry a job can read entry by entry: its module → the name of its dict literal and its
    entries' names. These are every kind's algorithm registry and bounds' registry
    (:data:`regretlab.registry.kinds.KINDS`, e.g. ``regretlab.bandits.algorithms.ALGORITHMS`` and
    ``regretlab.bandits.bound_registry.BOUNDS``)."""
    found = {}
    for kind in KINDS.values():
        for registry in (kind.algorithms, kind.bounds):
            module, name = _defining_module(registry)
            found[module] = (name, frozenset(registry))
    return found


def _all_learners() -> dict[str, AlgorithmSpec]:
    """Algorithm name → registry entry, for every kind."""
    return {name: entry for kind in KINDS.values() for name, entry in kind.algorithms.items()}


@cache
def _learner_job_modules(script: str, builds: tuple[str, ...] | None) -> frozenset[str]:
    """:func:`job_modules` over every kind's algorithm registry, once per script and builds in a process (the
    workflow asks for each job's: 6 s of a default-config dry run before)."""
    return frozenset(job_modules(script, _all_learners(), builds))


def _scoped(modules: set[str], entries: tuple[str, ...] | None) -> dict[str, tuple[str, frozenset[str]]]:
    """The registries among ``modules`` that a job reading ``entries`` reads entry by entry (none when
    ``entries`` is None: it reads them whole)."""
    return {} if entries is None else {m: v for m, v in registries().items() if m in modules}


@cache
def job_code(
    script: str | os.PathLike, builds: tuple[str, ...] | None = (), entries: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """The library files a workflow job runs (:func:`job_modules` over every kind's algorithm registry,
    :data:`regretlab.registry.kinds.KINDS`), as the workflow names them among the job's inputs.

    ``entries``: the names of the registry entries the job reads (algorithms and bounds alike), when it reads
    some only: then no registry's file is among them, :func:`job_entries` stands for it. None: the job reads
    every registry whole, and their files are among them.
    """
    modules = set(_learner_job_modules(str(script), builds))
    return tuple(source_files(modules - set(_scoped(modules, entries))))


def job_entries(
    script: str | os.PathLike, builds: tuple[str, ...] | None = (), entries: tuple[str, ...] | None = None
) -> dict[str, dict[str, str]]:
    """What a job reads of the registries its script imports, when it reads some of their entries only
    (``entries``, as for :func:`job_code`): registry module → the digests of the rest of the module and of
    each entry read (:meth:`regretlab.workflow.registry_sources.RegistrySource.digests`); empty when
    ``entries`` is None."""
    modules = set(_learner_job_modules(str(script), builds))
    return {
        module: registry_source(module_file(module), name).digests(set(entries) & names)
        for module, (name, names) in sorted(_scoped(modules, entries).items())
    }
