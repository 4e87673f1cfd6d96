"""Regret bounds of paper 001, one function per theorem, evaluated on a point's numbers.

Each function takes a dict with the horizon ``T``, the mean ``L_star`` of the point and the instance's graph
numbers (``K``, ``alpha``, ``kappa``, ``s``, …). Where the paper only gives Õ(·) the function returns the rate
with unit constant; :mod:`regretlab.theory` records which is which.
"""

from __future__ import annotations

import math


def exp3g_rate(numbers: dict) -> float:
    """√(α T ln K): the Õ(√(αT)) rate of Exp3.G (paper 001, §3.1; Alon et al., 2015), unit constant."""
    return math.sqrt(numbers["alpha"] * numbers["T"] * math.log(numbers["K"]))


def theorem2_rate(numbers: dict) -> float:
    """√(αT) + K²: Theorem 2's Õ(1/η + ηαT + K²) at η = 1/√(αT) (paper 001, §3.1), unit constants."""
    return math.sqrt(numbers["alpha"] * numbers["T"]) + numbers["K"] ** 2


def theorem3_eta(numbers: dict) -> float:
    """η = min{√((s+1)/L*), 1/(64K)}: Theorem 3's oracle tuning (the cap alone when L* = 0)."""
    cap = 1.0 / (64 * numbers["K"])
    return min(math.sqrt((numbers["s"] + 1) / numbers["L_star"]), cap) if numbers["L_star"] > 0 else cap


def theorem3_rate(numbers: dict) -> float:
    """(s ln T + ln K)/η + ηL* + K² ln T at Theorem 3's η (paper 001, §3.2), unit constants."""
    eta, log_t = theorem3_eta(numbers), math.log(numbers["T"])
    return (
        (numbers["s"] * log_t + math.log(numbers["K"])) / eta
        + eta * numbers["L_star"]
        + numbers["K"] ** 2 * log_t
    )


def theorem14_rate(numbers: dict) -> float:
    """min{√(αT), √(κL*)} + K²: Theorem 14's bound for Algorithm 5 (paper 001, App. D), unit constants."""
    root_alpha_t = math.sqrt(numbers["alpha"] * numbers["T"])
    return min(root_alpha_t, math.sqrt(numbers["kappa"] * numbers["L_star"])) + numbers["K"] ** 2


def algorithm1_rate(numbers: dict) -> float:
    """(κ ln T + ln K)/η + ηL* + β² ln T at Theorem 4's η = min{η_max, √((κ+1)/L*)}, with
    η_max = min{1/(64β), 1/(1000 ln T ln²(KT))} and β = κ + s̄ (paper 001, §3.3, Theorem 4), unit constants."""
    kappa, n_arms, horizon, l_star = numbers["kappa"], numbers["K"], numbers["T"], numbers["L_star"]
    beta = kappa + numbers["s_bar"]
    log_t = math.log(horizon)
    eta_max = min(1.0 / (64 * beta), 1.0 / (1000 * log_t * math.log(n_arms * horizon) ** 2))
    eta = eta_max if l_star == 0 else min(eta_max, math.sqrt((kappa + 1) / l_star))
    return (kappa * log_t + math.log(n_arms)) / eta + eta * l_star + beta**2 * log_t


def algorithm4_rate(numbers: dict) -> float:
    """√((κ+1)L*) + β², β = κ + s̄: the Õ rate of Algorithm 4 (paper 001, App. C.3, Theorem 13), unit
    constants."""
    beta = numbers["kappa"] + numbers["s_bar"]
    return math.sqrt((numbers["kappa"] + 1) * numbers["L_star"]) + beta**2
