"""The registry of bandit algorithms: config name → how to build the learner for one run.

A learner is built from ``(instance, horizon, rng, constants, oracle)`` and exposes
``play(losses, t0, tracker)``, ``params`` (its tuned constants, stored with the run) and ``hypotheses`` (the
theorem's conditions, each a bool, evaluated on this run). ``oracle`` carries what a theorem's tuning assumes
known — ``{"L_star": …}``, the realised total loss of the best arm, and for Section 4 ``{"L_best_S": …}``
(L_{i*_S}, the best self-loop arm's) or ``{"L_D": …}`` (the mean over a minimum weakly dominating set D) — and
is filled only for the algorithms whose spec asks for it; adaptive algorithms never receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from regretlab.bandits.algorithm1 import Algorithm1
from regretlab.bandits.algorithm2 import Algorithm2
from regretlab.bandits.algorithm4 import Algorithm4
from regretlab.bandits.algorithm5 import Algorithm5
from regretlab.bandits.algorithm6 import Algorithm6
from regretlab.bandits.algorithm7 import Algorithm7
from regretlab.bandits.exp3g import Exp3G
from regretlab.bandits.exp3g_weak import Exp3GWeak
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.leader import ExplorationLeader
from regretlab.bandits.presets import require_preset
from regretlab.bandits.theorem2 import Theorem2
from regretlab.bandits.theorem3 import Theorem3


@dataclass(frozen=True)
class AlgorithmSpec:
    """How the workflow builds one algorithm.

    Attributes:
        build: ``(instance, horizon, rng, constants, oracle) -> learner``.
        presets: the constants presets it accepts (``paper`` = the theorem's).
        needs_L_star: True when the theorem tunes η with L* (the ``paper`` preset then gets the true L*).
        description: one line for listings and figure legends.
        graph_class: the feedback graphs it is valid on, a key of :data:`regretlab.checks.GRAPH_CLASSES`
            (``"strongly_observable"``, ``"self_aware"``, ``"weakly_observable"``,
            ``"directed_complete_bipartite"`` or ``"any_observable"``); the config check rejects an
            algorithm on an instance whose graph is not of its class before any job runs.
        oracle: the realised totals its tuning takes (both presets), besides L*: ``L_best_S``, ``L_D``.
    """

    build: Callable
    presets: tuple[str, ...]
    needs_L_star: bool
    description: str
    graph_class: str
    oracle: tuple[str, ...] = ()


ALGORITHMS: dict[str, AlgorithmSpec] = {
    "exp3g": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Exp3G(
            instance.graph, horizon, rng, constants
        ),
        presets=Exp3G.presets,
        needs_L_star=False,
        description="Exp3.G (Alon et al. 2015; paper 001 §3.1)",
        graph_class="strongly_observable",
    ),
    "theorem2": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Theorem2(
            instance.graph, horizon, rng, constants
        ),
        presets=Theorem2.presets,
        needs_L_star=False,
        description="OMD with eq. (5), Ω = {p_i ≥ 1/T} (paper 001 Theorem 2)",
        graph_class="strongly_observable",
    ),
    "theorem3": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Theorem3(
            instance.graph, horizon, rng, constants, L_star=oracle["L_star"]
        ),
        presets=Theorem3.presets,
        needs_L_star=True,
        description="OMD with eq. (6), η tuned with the true L* (paper 001 Theorem 3)",
        graph_class="strongly_observable",
    ),
    "algorithm1": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm1(
            instance.graph, horizon, rng, constants, L_star=oracle["L_star"]
        ),
        presets=Algorithm1.presets,
        needs_L_star=True,
        description="Algorithm 1: cliques as meta-nodes, adaptive Hedge inside (paper 001 Theorem 4)",
        graph_class="strongly_observable",
    ),
    "algorithm4": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm4(
            instance.graph, horizon, rng, constants
        ),
        presets=Algorithm4.presets,
        needs_L_star=False,
        description="Algorithm 4: Algorithm 1 with resets, no knowledge of L* (paper 001 Theorem 13)",
        graph_class="strongly_observable",
    ),
    "algorithm5": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm5(
            instance.graph, horizon, rng, constants
        ),
        presets=Algorithm5.presets,
        needs_L_star=False,
        description="Algorithm 5 for self-aware graphs (paper 001 Theorem 14)",
        graph_class="self_aware",
    ),
    "algorithm6": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm6(
            instance.graph, horizon, rng, constants
        ),
        presets=Algorithm6.presets,
        needs_L_star=False,
        description="Algorithm 6: Algorithm 2 with clipping and resets, no oracle (paper 001 Theorem 17)",
        graph_class="directed_complete_bipartite",
    ),
    "algorithm7": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm7(
            instance.graph, horizon, rng, constants, gamma=1.0 / 3.0
        ),
        presets=Algorithm7.presets,
        needs_L_star=False,
        description="Algorithm 7: Algorithm 2 with resets on δ, γ = 1/3, no oracle (paper 001 Theorem 18)",
        graph_class="weakly_observable",
    ),
    "algorithm7_half": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm7(
            instance.graph, horizon, rng, constants, gamma=0.5
        ),
        presets=Algorithm7.presets,
        needs_L_star=False,
        description="Algorithm 7: Algorithm 2 with resets on δ, γ = 1/2, no oracle (paper 001 Theorem 18)",
        graph_class="weakly_observable",
    ),
    "exp3g_weak": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Exp3GWeak(
            instance.graph, horizon, rng, constants
        ),
        presets=Exp3GWeak.presets,
        needs_L_star=False,
        description="Exp3.G with exploration on a weakly dominating set (Alon et al. 2015; paper 001 §4)",
        graph_class="weakly_observable",
    ),
    "algorithm2_bipartite": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm2(
            instance.graph, horizon, rng, constants, "bipartite", oracle["L_best_S"]
        ),
        presets=Algorithm2.presets,
        needs_L_star=False,
        description="Algorithm 2, Ω = {Σ_S p ≥ √η̄}, η, η̄ tuned with the true L_{i*_S} (paper 001 Theorem 7)",
        graph_class="directed_complete_bipartite",
        oracle=("L_best_S",),
    ),
    "algorithm2_weak": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm2(
            instance.graph, horizon, rng, constants, "weak", oracle["L_D"], gamma=1.0 / 3.0
        ),
        presets=Algorithm2.presets,
        needs_L_star=False,
        description="Algorithm 2, Ω = {p ≥ δ on D}, γ = 1/3, tuned with the true L_D (paper 001 Theorem 8)",
        graph_class="weakly_observable",
        oracle=("L_D",),
    ),
    "algorithm2_weak_half": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Algorithm2(
            instance.graph, horizon, rng, constants, "weak", oracle["L_D"], gamma=0.5
        ),
        presets=Algorithm2.presets,
        needs_L_star=False,
        description="Algorithm 2, Ω = {p ≥ δ on D}, γ = 1/2, tuned with the true L_D (paper 001 Theorem 8)",
        graph_class="weakly_observable",
        oracle=("L_D",),
    ),
    "exploration_leader": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: ExplorationLeader(
            instance.graph, horizon, rng, constants
        ),
        presets=ExplorationLeader.presets,
        needs_L_star=False,
        description="Follow the leader, exploration min{1, 1/t} on D: O(ln T) regret at L* = 0 (Theorem 5)",
        graph_class="weakly_observable",
    ),
}


def make_learner(
    name: str,
    instance: BanditInstance,
    horizon: int,
    rng: np.random.Generator,
    constants: str = "paper",
    oracle: dict | None = None,
):
    """Build the learner ``name`` for one run."""
    if name not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {name!r}")
    spec = ALGORITHMS[name]
    require_preset(name, spec.presets, constants)
    if spec.needs_L_star and (oracle is None or "L_star" not in oracle):
        raise ValueError(
            f"{name} is tuned with the true L* (the theorem's oracle tuning): pass oracle['L_star']"
        )
    missing = [key for key in spec.oracle if oracle is None or key not in oracle]
    if missing:
        raise ValueError(
            f"{name} is tuned with the realised {missing} (the theorem's oracle tuning): pass them"
        )
    return spec.build(instance, horizon, rng, constants, oracle or {})
