"""How the compiled hot loops are built: :func:`kernel`, numba's ``njit`` without reference counting.

A numba function compiled with its runtime (NRT, the default) increments and decrements the reference count of
the arrays it is passed or slices, and numba's pruning pass removes only some of these pairs. Each one is an
atomic instruction; in the per-round loops of the learners (many small calls with several array arguments,
rows of 2-D arrays, arrays read from named tuples) they were the larger part of the time of a round (issue 17:
Algorithm 1 made ~80 such pairs per round). None of these loops allocates, so they need no reference counts:
a :func:`kernel` is compiled without the runtime (numba's ``_nrt=False`` target option). The arrays it works
on are owned by the caller, which keeps them alive for the call. A kernel may call an ``njit`` function that
allocates (it frees what it allocates before returning) but must not allocate or return a new array itself
(numba rejects ``np.empty`` and the like without the runtime at compile time). Floating-point results are the
same either way: only the bookkeeping of array lifetimes differs.
"""

from __future__ import annotations

from numba import njit

#: Options of every kernel, on top of the caller's (``inline``, ``error_model``).
KERNEL_OPTIONS = {"cache": True, "_nrt": False}


def kernel(function=None, **options):
    """``numba.njit(cache=True, _nrt=False, **options)``, as a decorator with or without arguments."""
    if function is None:
        return njit(**KERNEL_OPTIONS, **options)
    return njit(**KERNEL_OPTIONS)(function)
