"""The compiled kernels' flags (:mod:`regretlab.core.kernels`): every numba function a kernel reaches is
compiled the same way whoever calls it first."""

import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
from kernel_warmup import PLAY_BANDITS, PLAY_CMDP, is_cold
from numba import typeof
from numba._dispatcher import compute_fingerprint
from numba.core.registry import CPUDispatcher

import regretlab
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import oracle_values, realised_totals
from regretlab.bandits.tracking import Tracker
from regretlab.graphs.families import directed_complete_bipartite, disjoint_cliques, weakly_observable_stars
from regretlab.graphs.summary import describe


def modules() -> list[types.ModuleType]:
    """Every module of the package, imported."""
    infos = pkgutil.walk_packages(regretlab.__path__, "regretlab.")
    return [importlib.import_module(info.name) for info in infos]


def dispatchers() -> dict[str, CPUDispatcher]:
    """Every numba function defined in the package, by qualified name."""
    found = {}
    for module in modules():
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


def bandit_learners(horizon: int = 300):
    """``(name, instance, learner)`` for every registered bandit learner, built for ``horizon`` with its first
    preset on a small graph of its class."""
    graphs = {
        "directed_complete_bipartite": directed_complete_bipartite(4, 8),
        "weakly_observable": weakly_observable_stars([2, 2, 2, 2]),
    }
    for name, spec in ALGORITHMS.items():
        graph = graphs.get(spec.graph_class, disjoint_cliques([4, 4, 4]))
        env = StochasticBernoulli.with_best_arm(graph.n_arms, best_arm=0, best_mean=0.3, gap=0.1)
        instance = BanditInstance(graph, env, describe(graph))
        oracle = oracle_values(instance, realised_totals(instance, horizon, np.random.default_rng(1)))
        rng = np.random.default_rng(0)
        yield name, instance, make_learner(name, instance, horizon, rng, spec.presets[0], oracle)


#: Plays every bandit learner and both CMDP learners briefly (compiling every kernel a run uses: the suite's
#: warm-up, tests/kernel_warmup.py), then prints the number of compiled functions of the package that were
#: not found in numba's cache.
PLAY_EVERYTHING = (
    PLAY_BANDITS
    + PLAY_CMDP
    + """
import sys
from numba.core.registry import CPUDispatcher

misses = {
    f"{value.py_func.__module__}.{value.py_func.__qualname__}": sum(value.stats.cache_misses.values())
    for module in list(sys.modules.values()) if getattr(module, "__name__", "").startswith("regretlab")
    for value in vars(module).values() if isinstance(value, CPUDispatcher)
}
print({name: n for name, n in misses.items() if n})
"""
)


def test_a_second_process_finds_every_kernel_in_the_cache():
    """First use compiles once: a function numba cannot find in its cache again (an omitted argument whose
    default is nan, never equal to itself, or a function it cannot cache) is compiled in every job's
    process. The first process fills numba's cache (where it is kept normally), the second only reads it."""
    for _ in ("fills", "reads"):
        done = subprocess.run(
            [sys.executable, "-c", PLAY_EVERYTHING], capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "{}", f"compiled again in a second process: {done.stdout}"


def named_tuple_classes() -> dict[str, list[str]]:
    """Every NamedTuple class defined in the package: its name -> the modules that define one so named."""
    found: dict[str, list[str]] = {}
    for module in modules():
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields"):
                if value.__module__ == module.__name__:
                    found.setdefault(value.__name__, []).append(module.__name__)
    return found


def test_every_named_tuple_has_a_name_of_its_own():
    """numba's dispatcher finds an argument's type from a fingerprint that holds a NamedTuple's class name and
    field names, not its module: two learners' ``State`` with the same fields (Theorems 2 and 3) share one
    cached type, and the second one's kernel, handed the first one's type, resolves its signature the slow
    way at every call (0.1 ms; Theorem 3's benchmark row lost 18 % after Theorem 2 played in the same
    process). A name of its own per class rules that out."""
    shared = {name: modules for name, modules in named_tuple_classes().items() if len(modules) > 1}
    assert not shared, f"NamedTuple names defined more than once (prefix them with the learner): {shared}"


def test_every_kernel_argument_fingerprint_names_one_type():
    """The property the names buy: over the typed arguments of every bandit learner (its NamedTuples and the
    tracker), numba's dispatch fingerprint determines the numba type. A compiled learner (its module holds a
    kernel) passes its state as NamedTuples; a plain-Python one (docs/recipes/exp3_blind.py) needs none."""
    types_of: dict[bytes, set] = {}
    for name, instance, learner in bandit_learners():
        arguments = [Tracker.start(instance.graph.n_arms, np.array([300]))]
        arguments += [value for value in vars(learner).values() if hasattr(value, "_fields")]
        module = sys.modules[type(learner).__module__]
        compiled = any(  # a kernel of its own, not one it imports (the template calls track_round)
            isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__
            for value in vars(module).values()
        )
        assert len(arguments) > 1 or not compiled, f"{name}: a compiled learner without NamedTuple attributes"
        for value in arguments:
            types_of.setdefault(compute_fingerprint(value), set()).add(typeof(value))
    shared = [sorted(map(str, found)) for found in types_of.values() if len(found) > 1]
    assert not shared, f"one dispatch fingerprint, several numba types: {shared}"


def test_the_warm_up_counts_only_this_checkouts_kernels_as_warm(tmp_path):
    """The suite's warm-up (tests/kernel_warmup.py) runs when numba's cache holds no kernel of this checkout:
    another checkout's compiled kernels, in the same cache folder, do not count (a second clone of the same
    sources compiled everything in its early test processes)."""
    from numba.core.caching import _CacheLocator

    assert is_cold(tmp_path)
    other_clone = "/another/clone/src/regretlab/bandits/omd.py"
    elsewhere = tmp_path / _CacheLocator.get_suitable_cache_subpath(other_clone)
    elsewhere.mkdir()
    (elsewhere / "omd.kernel-1.py311.nbi").write_bytes(b"")
    assert is_cold(tmp_path)
    here = Path(regretlab.__file__).parent / "bandits" / "omd.py"
    ours = tmp_path / _CacheLocator.get_suitable_cache_subpath(str(here))
    ours.mkdir()
    (ours / "omd.kernel-1.py311.nbi").write_bytes(b"")
    assert not is_cold(tmp_path)
