"""How the compiled hot loops are built: :func:`kernel` (numba's ``njit`` without reference counting) and
:func:`allocating` (an ``njit`` function that allocates, callable from a kernel).

A numba function compiled with its runtime (NRT, the default) increments and decrements the reference count of
the arrays it is passed or slices, and numba's pruning pass removes only some of these pairs. Each one is an
atomic instruction; in the per-round loops of the learners (many small calls with several array arguments,
rows of 2-D arrays, arrays read from named tuples) they were the larger part of the time of a round (issue 17:
Algorithm 1 made ~80 such pairs per round). None of these loops allocates, so they need no reference counts:
a :func:`kernel` is compiled without the runtime (numba's ``_nrt=False`` target option). The arrays it works
on are owned by the caller, which keeps them alive for the call. Floating-point results are the same either
way: only the bookkeeping of array lifetimes differs.

numba compiles the ``njit`` functions a kernel calls with the kernel's flags unless they set their own, so
they too run without the runtime and must not allocate (numba rejects ``np.empty``, ``np.argsort`` and the
like without it at compile time) nor return an array. A callee that must allocate (a rare path, a start or
restart) is declared :func:`allocating`: it is compiled with the runtime wherever it is called from, frees
what it allocates before returning, and returns no array to a kernel.

A call between compiled functions passes every array as its members (data pointer, sizes, shape and strides,
seven or more machine words), so a callee that takes named tuples of arrays costs hundreds of words moved per
call. The kernels a CMDP episode calls with such tuples (the Newton projection's ``newton``, ``_evaluate``
and ``zero_is_projection``, ``project_newton``, the evaluator's ``episode_sums``) are therefore inlined by
numba (``inline="always"``): on the power scale's small CMDPs that took an episode from 2.7–2.8 to 2.2–2.4 µs
(``two_layer_chain``) and from 1.35 to 1.0–1.2 µs (``one_layer``), results the same bits, for ≈ 20 s more
compilation on an empty cache (docs/notes/small-cmdp-episode-cost.md).
"""

from __future__ import annotations

from numba import njit

#: Options of every kernel, on top of the caller's (``inline``, ``error_model``).
KERNEL_OPTIONS = {"cache": True, "_nrt": False}
#: Options of every :func:`allocating` function.
ALLOCATING_OPTIONS = {"cache": True, "_nrt": True}


def kernel(function=None, **options):
    """``numba.njit(cache=True, _nrt=False, **options)``, as a decorator with or without arguments."""
    if function is None:
        return njit(**KERNEL_OPTIONS, **options)
    return njit(**KERNEL_OPTIONS)(function)


def allocating(function=None, **options):
    """``numba.njit(cache=True, _nrt=True, **options)``: the runtime stated explicitly, so that a kernel's
    flags are not inherited; as a decorator with or without arguments."""
    if function is None:
        return njit(**ALLOCATING_OPTIONS, **options)
    return njit(**ALLOCATING_OPTIONS)(function)
