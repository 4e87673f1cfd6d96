"""The import graph that decides which library files each workflow job runs (regretlab.workflow.imports)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from regretlab.registry.kinds import KINDS
from regretlab.workflow.imports import (
    PACKAGE,
    _statements,
    closure,
    imports_of_source,
    job_code,
    job_modules,
    learner_modules,
    module_imports,
)

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((REPO / "scripts").glob("*.py"))
REGISTRY = {name: entry for kind in KINDS.values() for name, entry in kind.algorithms.items()}
BANDIT = sorted(KINDS["bandit"].algorithms)


def loaded_modules(script: Path) -> set[str]:
    """The regretlab modules Python loads when it runs the imports of ``script``."""
    imports = [line for line in script.read_text().splitlines() if line.startswith(("import ", "from "))]
    code = "\n".join(imports) + "\nimport sys, json\n"
    code += "print(json.dumps([m for m in sys.modules if m.split('.')[0] == 'regretlab']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_the_static_graph_finds_every_module_python_loads(script):
    """Read from the source, the closure of a script's imports holds every module importing them loads (else
    an edit of a missed module would rerun nothing)."""
    static = closure(imports_of_source(script.read_text(encoding="utf-8")))
    assert loaded_modules(script) <= static


def test_relative_imports_resolve_against_the_module_and_the_package():
    source = "from . import omd\nfrom .tracking import Tracker"
    assert imports_of_source(source, "regretlab.bandits.exp3g") == {
        "regretlab",
        "regretlab.bandits",
        "regretlab.bandits.omd",
        "regretlab.bandits.tracking",
    }
    assert "regretlab.graphs.families" in imports_of_source("from . import families", "regretlab.graphs")
    assert imports_of_source("import numpy\nfrom os import path") == set()


#: Imports at every depth a statement list can have: handlers (``except*`` too), ``else``/``finally``, match
#: cases, class and (async) function bodies, loops, ``with`` blocks.
NESTED_IMPORTS = """
try:
    import a
except ImportError:
    import b
else:
    import c
finally:
    import d
match x:
    case 1:
        import e
class K:
    def f(self):
        with q:
            for i in r:
                while s:
                    if t:
                        async def g():
                            async with u:
                                import h
try:
    pass
except* E:
    from i import j
"""


def _import_nodes(nodes) -> set[tuple[int, int]]:
    return {(n.lineno, n.col_offset) for n in nodes if isinstance(n, ast.Import | ast.ImportFrom)}


SOURCES = sorted([*PACKAGE.rglob("*.py"), *SCRIPTS])


@pytest.mark.parametrize(
    "source",
    [NESTED_IMPORTS, *(path.read_text(encoding="utf-8") for path in SOURCES)],
    ids=["nested", *(str(path.relative_to(REPO)) for path in SOURCES)],
)
def test_the_statement_walk_finds_every_import_a_walk_of_the_whole_tree_finds(source):
    """:func:`_statements` visits statements only (imports are statements): on every module of the package,
    every script and a source with imports in every kind of nested block, it finds exactly the imports of
    ``ast.walk``."""
    tree = ast.parse(source)
    assert _import_nodes(_statements(tree.body)) == _import_nodes(ast.walk(tree))
    assert source != NESTED_IMPORTS or len(_import_nodes(ast.walk(tree))) == 7


def test_every_bandit_learner_lives_in_a_module_of_its_own_kind():
    for name in BANDIT:
        (module,) = learner_modules(REGISTRY[name])
        assert module.startswith("regretlab.bandits."), (name, module)
    assert learner_modules(REGISTRY["pdgd_ops"]) == {"regretlab.cmdp.pdgd_ops"}


@pytest.mark.parametrize("algorithm", BANDIT)
def test_a_run_job_runs_its_own_learner_and_what_it_imports_only(algorithm):
    """A bandit run job's code holds its learner's module and that module's imports, and no other learner's
    module unless its own learner imports it (Algorithm 6 uses Algorithm 2's corrected loss)."""
    modules = job_modules(REPO / "scripts" / "run_bandit.py", REGISTRY, [algorithm])
    own = learner_modules(REGISTRY[algorithm])
    assert own | closure(own) <= modules
    learners = set().union(*(learner_modules(REGISTRY[name]) for name in BANDIT))
    assert modules & learners == closure(own) & learners
    assert {"regretlab.bandits.simulate", "regretlab.core.seeding", "regretlab.core.io"} <= modules


def test_learners_that_share_a_module_share_their_run_code_and_others_do_not():
    code = {name: job_code(REPO / "scripts" / "run_bandit.py", (name,)) for name in BANDIT}
    assert code["algorithm7"] == code["algorithm7_half"]
    assert code["exp3g"] != code["theorem2"]
    assert not any("algorithm6" in path for path in code["exp3g"])
    assert any(path.endswith("bandits/algorithm2.py") for path in code["algorithm6"])


def test_summary_and_table_jobs_run_no_learner():
    """The aggregation and figures read learners' results, not their code: no learner module, no kernel."""
    learners = set().union(*(learner_modules(entry) for entry in REGISTRY.values()))
    summary = job_modules(REPO / "scripts" / "regime_summary.py", REGISTRY)
    assert not summary & (learners - {"regretlab.cmdp.pdgd_ops"})  # kinds.py reads the CMDP presets there
    drawn = {"regretlab.analysis.aggregate", "regretlab.analysis.figures", "regretlab.registry.theory"}
    assert drawn <= summary
    assert "regretlab.bandits.omd" not in summary and "regretlab.cmdp.simulate" not in summary
    tables = job_modules(REPO / "scripts" / "tables.py", REGISTRY)
    assert tables < summary


def test_a_job_that_may_build_any_learner_runs_every_learner():
    """The evidence table builds learners (their constants at other horizons): all their modules count."""
    learners = set().union(*(learner_modules(entry) for entry in REGISTRY.values()))
    assert learners <= job_modules(REPO / "scripts" / "evidence_table.py", REGISTRY, None)
    assert not learners <= job_modules(REPO / "scripts" / "evidence_table.py", REGISTRY, ())


def test_job_code_names_files_relative_to_the_working_directory(monkeypatch, tmp_path):
    job_code.cache_clear()
    monkeypatch.chdir(PACKAGE.parents[1])
    relative = job_code(REPO / "scripts" / "tables.py")
    assert "src/regretlab/analysis/tables.py" in relative
    job_code.cache_clear()
    monkeypatch.chdir(tmp_path)
    assert str(PACKAGE / "analysis" / "tables.py") in job_code(REPO / "scripts" / "tables.py")
    job_code.cache_clear()


def test_module_imports_rejects_a_name_that_is_not_a_module():
    with pytest.raises(ValueError, match="no module 'regretlab.nothing'"):
        module_imports("regretlab.nothing")
