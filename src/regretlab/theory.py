"""The registry of every bound a figure can draw, by the name regimes use in ``config.yaml``.

Each bound's value is computed by one function that lives next to its theorem (``bandits/bounds.py``,
``cmdp/bounds.py``); this module only says, for each, which metric it bounds, how a figure labels it, whether
it carries the paper's constants (``explicit``) or is an Õ(·) rate with unit constant, and the theory's
log–log exponent in each swept variable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from regretlab.bandits import bounds as bandit_bounds


@dataclass(frozen=True)
class BoundSpec:
    """A theorem's bound on one metric.

    Attributes:
        evaluate: maps the point's numbers (``T``, ``L_star``, the instance's numbers …) to the bound's value.
        metric: the per-run metric it bounds (a column of the run tables, e.g. ``pseudo_regret``).
        explicit: True when ``evaluate`` uses the paper's constants, False for a unit-constant rate.
        label: the formula as figures print it (they add whether the constant is the paper's or 1).
        exponents: the theory's log–log slope of the bound in each swept variable (``"T"``, ``"L_star"``).
        source: where the paper states it.
    """

    evaluate: Callable[[dict], float]
    metric: str
    explicit: bool
    label: str
    exponents: dict[str, float]
    source: str


BOUNDS: dict[str, BoundSpec] = {
    "exp3g_rate": BoundSpec(
        evaluate=bandit_bounds.exp3g_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√(αT ln K)",
        exponents={"T": 0.5, "L_star": 0.0},
        source="paper 001 §3.1 (Alon et al. 2015): Reg = Õ(1/η + ηαT) = Õ(√(αT)) with η = 1/√(αT)",
    ),
    "theorem2_rate": BoundSpec(
        evaluate=bandit_bounds.theorem2_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√(αT) + K²",
        exponents={"T": 0.5, "L_star": 0.0},
        source="paper 001 §3.1, Theorem 2: Reg ≤ Õ(1/η + ηαT + K²) = Õ(√(αT) + K²) with η = 1/√(αT)",
    ),
    "theorem3_rate": BoundSpec(
        evaluate=bandit_bounds.theorem3_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(s ln T + ln K)/η + ηL* + K² ln T, η = min{√((s+1)/L*), 1/(64K)}",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 §3.2, Theorem 3: Reg = O((s ln T + ln K)/η + ηL* + K² ln T) for η ≤ 1/(64K); "
            "η = min{√((s+1)/L*), 1/(64K)} gives Õ(√((s+1)L*) + K²). The 1/2 is asymptotic: the cap binds "
            "until L* > (s+1)(64K)²."
        ),
    ),
    "theorem14_rate": BoundSpec(
        evaluate=bandit_bounds.theorem14_rate,
        metric="pseudo_regret",
        explicit=False,
        label="min{√(αT), √(κL*)} + K²",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. D, Theorem 14: Algorithm 5 with η_init = 1/(4κ), ε = 1/(2κ) has "
            "Reg = Õ(min{√(αT), √(κL*)} + K²); the 1/2 in L* holds while κL* < αT."
        ),
    ),
    "algorithm1_rate": BoundSpec(
        evaluate=bandit_bounds.algorithm1_rate,
        metric="pseudo_regret",
        explicit=False,
        label="(κ ln T + ln K)/η + ηL* + β² ln T, η = min{η_max, √((κ+1)/L*)}",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 §3.3, Theorem 4 (proof App. C.2): c = 64β, η ≤ η_max = min{1/(64β), 1/(1000 ln T "
            "ln²(KT))}: Reg ≤ Õ((κ ln T + ln K)/η + ηL* + β² ln T); η = min{η_max, √((κ+1)/L*)} gives "
            "Õ(√((κ+1)L*) + β²). The 1/2 is asymptotic: η_max binds until L* ≈ (κ+1)/η_max²."
        ),
    ),
    "algorithm4_rate": BoundSpec(
        evaluate=bandit_bounds.algorithm4_rate,
        metric="pseudo_regret",
        explicit=False,
        label="√((κ+1)L*) + β²",
        exponents={"T": 0.5, "L_star": 0.5},
        source=(
            "paper 001 App. C.3, Theorem 13: Algorithm 4 with c = 64β, "
            "η_1 = 1/(2000 ln T ln²(KT) + 80κ ln T) has Reg = Õ(√((κ+1)L*) + β²)"
        ),
    ),
}
