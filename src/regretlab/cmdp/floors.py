"""The horizon below which a paper-000 bound cannot speak on *any* admissible CMDP, from the bound's form
alone (issue 34 item 2; docs/findings.md, finding 2).

A bound on the regret or the violation can have power against uniform play only where it is below the
metric's trivial bound, which uniform play's value never exceeds: ``R_T <= T·OPT <= L·T`` and
``V_T <= L·T`` (:data:`regretlab.cmdp.bound_registry.TRIVIAL_BOUNDS`). Every explicit bound of Theorems
5–7 and Lemma 16 grows with ``|X|``, ``|A|`` and ``m`` and falls with ``ρ`` (through ``ζ = 20mL²/ρ²`` and
the confidence widths ``E^q_δ``, ``E^r_δ``, ``E^G_δ``, App. A–C), and ``ρ <= L``, ``OPT <= L``, ``|X| >=
L + 1``, ``|A| >= 2``, ``m >= 1`` on every instance (§3.1, §3.5). So at each ``L`` the bound is smallest
relative to ``L·T`` on the smallest CMDP with the largest ``ρ`` and ``OPT``: one state per layer, two
actions, one constraint, ``ρ = OPT = L`` (adversarial rewards: no ``E^r_δ``). :func:`floor` scans ``L``
and returns the smallest horizon from which that CMDP's bound is below ``L·T``: no admissible instance
speaks earlier (``tests/cmdp/test_floors.py`` checks the monotonicity on random larger instances and that
no instance of the config beats it). δ is the config's default (0.1): a larger δ shrinks the logarithms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from regretlab.cmdp.bound_registry import BOUNDS, app_c_constants

#: δ of the floors (the config's default, regretlab.workflow's schema).
DELTA = 0.1
#: The numbers of layers scanned: the violation bounds' floors fall with L up to L ≈ 16–24 (the trivial
#: L·T grows faster than ζ/η ∝ |X|), then rise (E^q_δ ∝ L|X|); the regret bounds' rise from L = 1.
LAYERS = range(1, 65)
#: The largest horizon a floor is searched to (beyond: the bound never speaks before it).
T_MAX = 10**24


@dataclass(frozen=True)
class Floor:
    """The smallest horizon ``T`` from which a bound is below ``L·T`` on the smallest CMDP with ``L``
    layers (module docstring), at the ``L`` that makes it smallest; ``T`` None beyond :data:`T_MAX`."""

    T: int | None
    L: int


def smallest_cmdp(L: int, T: int, delta: float = DELTA, **other) -> dict:
    """The numbers of the smallest admissible CMDP with ``L`` layers at horizon ``T`` (module docstring):
    one state per layer, two actions, one constraint, ``ρ = OPT = L``, adversarial rewards, with ``other``
    numbers in their place (another CMDP's sizes, ``ρ``, ``OPT``); PDGD-OPS with App. C's constants for the
    result (``params``)."""
    numbers = {
        "T": T, "t": T, "delta": delta, "L": L, "n_states": L + 1, "n_actions": 2, "m": 1, "rho": float(L),
        "opt": float(L), "stochastic_rewards": False, "condition2": True,
    } | other  # fmt: skip
    return numbers | {"params": app_c_constants(numbers)}


def speaks(name: str, numbers: dict) -> bool:
    """The bound ``name`` is below the trivial ``L·T`` (``T·OPT`` for the regret) at ``numbers``."""
    spec = BOUNDS[name]
    trivial = numbers["opt"] * numbers["t"] if spec.metric == "regret" else numbers["L"] * numbers["t"]
    return spec.evaluate(numbers) < trivial


def first_speaking(speaks_at, t_max: int = T_MAX) -> int | None:
    """The smallest ``T`` from which ``speaks_at(T)`` holds at every larger point of a log grid (10 per
    decade from 10 to ``t_max``), refined by bisection below the first such grid point; None if it never
    does. The grid is read from the top down, to the first point where it does not speak (the points below
    cannot change the answer)."""
    grid = sorted({int(round(10 ** (k / 10))) for k in range(10, 10 * round(math.log10(t_max)) + 1)})
    if not speaks_at(grid[-1]):
        return None
    first = len(grid) - 1
    while first > 0 and speaks_at(grid[first - 1]):
        first -= 1
    if first == 0:
        return grid[0]
    low, high = grid[first - 1], grid[first]  # speaks at high, not at low
    while high - low > 1 and high > 1.0001 * low:
        middle = (low + high) // 2
        low, high = (low, middle) if speaks_at(middle) else (middle, high)
    return high


@cache
def floor(name: str) -> Floor:
    """The floor of the bound ``name`` (module docstring), at the ``L`` where it is smallest."""
    if name not in FLOOR_BOUNDS:
        raise ValueError(f"floors exist for {list(FLOOR_BOUNDS)}, not {name!r}")
    best = Floor(None, LAYERS[0])
    for L in LAYERS:
        T = first_speaking(lambda T, L=L: speaks(name, smallest_cmdp(L, T)))
        if T is not None and (best.T is None or T < best.T):
            best = Floor(T, L)
    return best


#: The bounds with a floor: the explicit upper bounds of Theorems 5–7 on the regret and the violation, which
#: depend on the instance only through its sizes, ρ and OPT (Lemmas 14 and 16 also read a run's λ and η).
FLOOR_BOUNDS = (
    "theorem5_regret", "theorem5_violation", "theorem6_regret", "theorem6_violation", "theorem7_regret",
    "theorem7_regret_corrected", "theorem7_violation",
)  # fmt: skip


def floors() -> dict[str, Floor]:
    """Every bound of :data:`FLOOR_BOUNDS` with its floor."""
    return {name: floor(name) for name in FLOOR_BOUNDS}


def floor_horizon(name: str) -> float:
    """:func:`floor`'s horizon as a float (``inf`` beyond :data:`T_MAX`; NaN for a bound without one)."""
    if name not in FLOOR_BOUNDS:
        return math.nan
    found = floor(name).T
    return math.inf if found is None else float(found)
