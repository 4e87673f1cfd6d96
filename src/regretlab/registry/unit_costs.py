"""The learners' measured unit costs and what a run costs by them. A run (one instance, horizon and seed
batch) plays ``seeds + extra`` runs of ``T`` rounds (bandit) or episodes (CMDP), ``extra`` being Theorem 5's
calibration runs. By the unit costs of its algorithm (:data:`UNIT_COSTS`, microseconds) it takes::

    (seeds + extra) × (run_us + T × (round_us + size_us × size)) × 1e-6 seconds

where ``size`` is the instance's number of arms K (bandit) or of support triples ``(x, a, x')`` of the
occupancy measure, ``Σ_k |X_k| |A| |X_{k+1}|`` (CMDP; the projection and the occupancy are over triples, and
the measured per-episode cost is affine in them where it is not in the number of state–action pairs). A run
job adds :data:`STARTUP_SECONDS` (interpreter, imports, the cached compiled kernels). The same unit costs,
measured on the machine at hand, come from :mod:`regretlab.workflow.calibration` (``regretlab estimate
--calibrate``). The workflow cuts the run sets into jobs by them (:mod:`regretlab.workflow.jobs`); the
evidence table prices each claim's ``T_informative`` with :func:`run_seconds`.
"""

from __future__ import annotations

from collections.abc import Mapping

from regretlab.registry.kinds import KINDS
from regretlab.specs.algorithm_spec import UnitCost
from regretlab.specs.kind_spec import KindCost

#: Unit costs by algorithm: the ``unit_cost`` of each registry entry (:class:`regretlab.specs.algorithm_spec.
#: AlgorithmSpec`), measured with :func:`regretlab.workflow.calibration.calibrate` (what ``regretlab estimate
#: --calibrate`` runs) on the shipped config's quick-scale instances, process CPU time on the 2-core
#: reference machine: the mean of two calibrations of 40 s (25 s CPU of timed runs each) under a load of
#: ~1 (docs/cluster.md, "The estimate"). Bandit sizes are K (µs per arm and
#: round), CMDP sizes the support triples (µs per triple and episode). Where the config has two sizes of an
#: algorithm's instances the two per-round terms are fitted; otherwise (one size: algorithm5, 2_bipartite,
#: 2_weak_half, 6, 7_half, exploration_leader, UC-O-GDPS at 16 triples) the split between them is
#: an earlier fit's scaled to the measured total (CMDP: PDGD-OPS at 16, 45, 168 and 440 triples, T = 5·10⁴,
#: 5.9–92 µs per episode, affine in the triples within 5 %). To refresh after a kernel change, run the
#: calibration and copy what it prints into the entries (or, from benchmarks/bench_bandits.py's rounds/s r_8
#: and r_64 at K = 8 and 64: size_us = (1e6/r_64 − 1e6/r_8)/56, round_us = 1e6/r_8 − 8 size_us). A changed
#: value can change the split of a run set when ``job_minutes`` is set, hence its run jobs (never results).
UNIT_COSTS: dict[str, UnitCost] = {
    name: spec.unit_cost
    for kind in KINDS.values()
    for name, spec in kind.algorithms.items()
    if spec.unit_cost is not None
}
#: For an algorithm without a measured unit cost (give its entry one from a calibration once known): ten times
#: the costliest entry's, so that its jobs are cut small and their requests generous rather than short.
UNMEASURED = UnitCost(
    run_us=10 * max(c.run_us for c in UNIT_COSTS.values()),
    round_us=10 * max(c.round_us for c in UNIT_COSTS.values()),
    size_us=10 * max(c.size_us for c in UNIT_COSTS.values()),
)
#: Fixed cost of one run job, in seconds: interpreter start, imports, loading the cached compiled kernels,
#: reading the instance files (the smallest run jobs of the shipped config measure 1.3–1.7 s wall; the
#: calibration's start-up probe 1.4–1.5 s CPU once osqp and cvxpy are imported on first use only).
STARTUP_SECONDS = 1.5
def unit_cost(algorithm: str, costs: Mapping[str, UnitCost] | None = None) -> UnitCost:
    """The unit cost of ``algorithm`` in ``costs`` (default :data:`UNIT_COSTS`), else :data:`UNMEASURED`."""
    return (UNIT_COSTS if costs is None else costs).get(algorithm, UNMEASURED)


def kind_cost(regime: dict) -> KindCost:
    """The cost model of a regime's kind (:attr:`regretlab.specs.kind_spec.Kind.cost`)."""
    return KINDS[regime["kind"]].cost


def run_rounds(regime: dict, instance: str, T: int, seeds: int = 1) -> int:
    """Rounds (or episodes) that ``seeds`` runs at horizon ``T`` on one instance of ``regime`` (a validated
    config entry) simulate, Theorem 5's calibration runs included."""
    return int(T) * (seeds + kind_cost(regime).extra_runs(regime["instances"][instance]))


def run_seconds(
    regime_name: str,
    regime: dict,
    instance: str,
    algorithm: str,
    T: int,
    seeds: int = 1,
    costs: Mapping[str, UnitCost] | None = None,
) -> float:
    """Predicted simulation seconds of ``seeds`` runs of ``algorithm`` on one instance of a regime at horizon
    ``T`` (``regime`` its validated config entry; no job start-up), at the unit costs ``costs`` (default
    :data:`UNIT_COSTS`; module docstring). Any horizon, not only the config's: the evidence table prices each
    claim's ``T_informative``."""
    runs = run_rounds(regime, instance, T, seeds) // int(T)
    size = kind_cost(regime).size(regime_name, instance, regime["instances"][instance])
    return runs * unit_cost(algorithm, costs).run_seconds(T, size)
