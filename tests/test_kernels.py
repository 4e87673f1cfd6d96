"""The compiled kernels' flags (:mod:`regretlab.kernels`): every numba function a kernel reaches is compiled
the same way whoever calls it first."""

import importlib
import pkgutil
import types

from numba.core.registry import CPUDispatcher

import regretlab


def dispatchers() -> dict[str, CPUDispatcher]:
    """Every numba function defined in the package, by qualified name."""
    found = {}
    for info in pkgutil.walk_packages(regretlab.__path__, "regretlab."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                found[f"{module.__name__}.{value.py_func.__qualname__}"] = value
    return found


def names(code: types.CodeType) -> set[str]:
    """The global names a function's code (with its nested code) refers to."""
    out = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            out |= names(constant)
    return out


def kind(function: CPUDispatcher) -> str:
    """``kernel`` (no runtime), ``allocating`` (runtime stated), ``inline`` (compiled into its caller) or
    ``njit`` (runtime inherited from the first caller)."""
    options = function.targetoptions
    if options.get("_nrt") is False:
        return "kernel"
    if options.get("_nrt") is True:
        return "allocating"
    return "inline" if options.get("inline") == "always" else "njit"


def test_every_function_a_kernel_calls_states_how_it_is_compiled():
    """numba compiles a callee with its first caller's flags unless it sets its own and caches that one
    version: a plain ``njit`` function a kernel calls would be compiled with or without the runtime depending
    on which call came first (order-dependent speed, and a compile error on a cold cache if it allocates)."""
    found = dispatchers()
    kernels = [f for f in found.values() if kind(f) == "kernel"]
    assert len(kernels) >= 20, "the learners' and the CMDP episode's loops are kernels"
    stack, reached = list(kernels), {}
    while stack:
        function = stack.pop()
        for name in names(function.py_func.__code__):
            callee = function.py_func.__globals__.get(name)
            if isinstance(callee, CPUDispatcher) and callee not in reached:
                reached[callee] = f"{callee.py_func.__module__}.{callee.py_func.__qualname__}"
                if kind(callee) != "allocating":
                    stack.append(callee)
    plain = sorted(name for callee, name in reached.items() if kind(callee) == "njit")
    assert not plain, f"called from kernels but neither kernel, allocating nor inline: {plain}"
