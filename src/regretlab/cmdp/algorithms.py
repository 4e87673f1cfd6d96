"""The registry of constrained-MDP algorithms: config name → everything the workflow needs to run and draw it.

``build`` receives ``(layer_sizes, n_actions, m, T, delta, constants, rho)``: the sizes, the horizon and the
confidence δ a learner may know, its constants preset and the instance's ρ (read by the ``tuned`` dual step
only, :func:`regretlab.cmdp.pdgd_ops.pdgd_constants`); never the transition function P.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from regretlab.cmdp.pdgd_ops import PDGDOPS, PRESETS, UCOGDPSAlone
from regretlab.specs.algorithm_spec import PALETTE, UnitCost
from regretlab.specs.algorithm_spec import AlgorithmSpec as BaseAlgorithmSpec


@dataclass(frozen=True, kw_only=True)
class AlgorithmSpec(BaseAlgorithmSpec):
    """A constrained-MDP algorithm: the fields of :class:`regretlab.specs.algorithm_spec.AlgorithmSpec`, with
    ``build(layer_sizes, n_actions, m, T, delta, constants, rho) -> learner`` (module docstring). Its unit
    cost's size is the instance's support triples (:attr:`regretlab.specs.kind_spec.Kind.cost`)."""


#: The keys of :class:`~regretlab.cmdp.pdgd_ops.PDGDConstants` every CMDP learner reports, with its name.
_CONSTANTS_PARAMS = ("algorithm", "preset", "C", "K", "eta", "delta", "T")

ALGORITHMS: dict[str, AlgorithmSpec] = {
    "pdgd_ops": AlgorithmSpec(
        build=lambda layer_sizes, n_actions, m, T, delta, constants, rho: PDGDOPS(
            layer_sizes, n_actions, m, T, delta, constants, rho=rho
        ),
        description="PDGD-OPS: UC-O-GDPS primal + OGD dual (paper 000 Algorithm 2, Theorems 4–7)",
        label="PDGD-OPS",
        colour=PALETTE["wine"],
        presets=PRESETS,
        params=_CONSTANTS_PARAMS,
        default_bounds=("theorem5_regret", "theorem5_violation"),
        unit_cost=UnitCost(run_us=7000, round_us=1.3, size_us=0.13),
    ),
    "uc_o_gdps": AlgorithmSpec(
        build=lambda layer_sizes, n_actions, m, T, delta, constants, rho: UCOGDPSAlone(
            layer_sizes, n_actions, m, T, delta, constants, rho=rho
        ),
        description="UC-O-GDPS alone at λ = 0, on ℓ_t = −r_t (paper 000 Algorithm 4, Theorem 3, Lemma 2)",
        label="UC-O-GDPS",
        colour=PALETTE["teal"],
        presets=PRESETS,
        params=(*_CONSTANTS_PARAMS, "lam"),
        default_bounds=("theorem3_primal_regret",),
        unit_cost=UnitCost(run_us=7100, round_us=0.79, size_us=0.062),
    ),
}


def make_learner(
    algorithm: str,
    layer_sizes: Sequence[int],
    n_actions: int,
    m: int,
    T: int,
    delta: float,
    constants: str = "paper",
    rho: float | None = None,
) -> UCOGDPSAlone:
    """A fresh learner of the registry (``uc_o_gdps`` at ``λ = 0``, i.e. ``ℓ_t = -r_t``).

    ``rho`` is the instance's feasibility parameter, read by the ``"tuned"`` dual step only.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {algorithm!r}")
    return ALGORITHMS[algorithm].build(layer_sizes, n_actions, m, T, delta, constants, rho)
