"""A run's numbers are the same bits on every x86-64 machine: its Python code calls no numpy function whose
result depends on the CPU (docs/notes/machine-independent-bits.md).

numpy picks each ufunc's loop by the CPU's instruction set, and its AVX-512 (``X86_V4``) loops of ``log``,
``exp``, ``power``, the trigonometric functions and the like are its own approximations, which differ from
the C library's in the last bit for some inputs (numpy issue 23523); on an AVX2 machine numpy calls the C
library. A run table made on one machine would then fail the archive's bit-for-bit rerun on the other (the
theorem2 archive of 2026-12-04 and its refresh of 2026-12-06 differ in one ``lemma9_log_ratio`` entry each of
two seeds, the neighbouring float of the C library's ``log``). The compiled kernels call the C library
(numba), so the rule is for the Python code of the run jobs: scalars by :mod:`math`. The arithmetic and
``sqrt`` are exact (IEEE 754), so every machine gives their bits.
"""

from __future__ import annotations

import ast
from pathlib import Path

from regretlab.registry.kinds import KINDS
from regretlab.workflow.archive import run_job_files

REPO = Path(__file__).resolve().parents[1]
#: numpy functions whose float64 result may depend on the CPU (the inexact ufuncs numpy 2.4 dispatches to
#: AVX-512 loops, numpy.lib.introspect.opt_func_info, and the functions built on them).
CPU_DEPENDENT = {
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "cbrt", "cos", "cosh", "exp",
    "exp2", "expm1", "log", "log10", "log1p", "log2", "power", "float_power", "sin", "sinh", "tan", "tanh",
    "logaddexp", "logaddexp2", "geomspace", "logspace",
}  # fmt: skip
#: Decorators that compile a function (numba calls the C library there).
COMPILING = {"kernel", "allocating", "njit", "jit", "overload", "overload_method", "register_jitable"}


def _decorator_name(node: ast.expr) -> str | None:
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)


def cpu_dependent_calls(source: str) -> list[str]:
    """The ``np.<f>``/``numpy.<f>`` calls of :data:`CPU_DEPENDENT` outside compiled functions, in order."""
    found = []

    def visit(node: ast.AST, compiled: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = compiled
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inside = compiled or any(_decorator_name(d) in COMPILING for d in child.decorator_list)
            function = getattr(child, "func", None)
            if (
                not inside
                and isinstance(child, ast.Call)
                and isinstance(function, ast.Attribute)
                and function.attr in CPU_DEPENDENT
                and getattr(function.value, "id", None) in ("np", "numpy")
            ):
                found.append(function.attr)
            visit(child, inside)

    visit(ast.parse(source), False)
    return found


def all_run_job_files() -> set[str]:
    """Every library file a run job of some algorithm of some kind runs: the files of its code digest, which
    marks an archive stale (:func:`regretlab.workflow.archive.run_job_files`)."""
    return {
        path.relative_to(REPO).as_posix()
        for name, kind in KINDS.items()
        for algorithm in kind.algorithms
        for path in run_job_files(name, algorithm)
    }


def test_the_run_jobs_python_code_calls_no_cpu_dependent_numpy_function():
    files = all_run_job_files()
    assert "src/regretlab/bandits/omd.py" in files and "src/regretlab/cmdp/simulate.py" in files
    calls = {name: cpu_dependent_calls((REPO / name).read_text(encoding="utf-8")) for name in sorted(files)}
    assert {name: found for name, found in calls.items() if found} == {}


def test_the_check_finds_a_call_outside_compiled_code_only():
    source = """
import numpy as np
from regretlab.core.kernels import kernel

@kernel(inline="always")
def compiled(x):
    return np.log(x) + np.exp(x)

def plain(x, k):
    grid = np.geomspace(1, k, 5)
    return np.sqrt(x) + numpy.power(x, 0.5) + np.log(x), grid
"""
    assert cpu_dependent_calls(source) == ["geomspace", "power", "log"]
