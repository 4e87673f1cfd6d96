"""Regret bounds of paper 001, one function per theorem, evaluated on a run's numbers.

Where the paper gives an explicit constant the bound carries it (``explicit=True``); where it only gives
Õ(·), the function returns the rate with unit constant and ``explicit=False``, and figures label it so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class BoundSpec:
    """A theorem's bound: how to evaluate it, whether its constant is the paper's, its exponents.

    Attributes:
        evaluate: maps the point's numbers (``T``, ``L_star``, ``K``, ``alpha``, …) to the bound's value.
        explicit: True when ``evaluate`` uses the paper's constants, False for a unit-constant rate.
        label: the formula as figures print it (they add whether the constant is the paper's or 1).
        exponents: the theory's log–log slope of the bound in each swept variable (``"T"``, ``"L_star"``).
        source: where the paper states it.
    """

    evaluate: Callable[[dict], float]
    explicit: bool
    label: str
    exponents: dict[str, float]
    source: str


def exp3g_rate(numbers: dict) -> float:
    """√(α T ln K): the Õ(√(αT)) rate of Exp3.G (paper 001, §3.1; Alon et al., 2015), unit constant."""
    return math.sqrt(numbers["alpha"] * numbers["T"] * math.log(numbers["K"]))


BOUNDS: dict[str, BoundSpec] = {
    "exp3g_rate": BoundSpec(
        evaluate=exp3g_rate,
        explicit=False,
        label="√(αT ln K)",
        exponents={"T": 0.5, "L_star": 0.0},
        source="paper 001 §3.1 (Alon et al. 2015): Reg = Õ(1/η + ηαT) = Õ(√(αT)) with η = 1/√(αT)",
    ),
}
