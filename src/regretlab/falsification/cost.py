"""What the falsification job costs, predicted before it runs (the progress lines of
:mod:`regretlab.workflow.progress`): every declared search's runs at its scale's budget, each at the unit
cost of its learner (:mod:`regretlab.registry.unit_costs`) plus a trial's own overhead. Imports no solver:
the Snakefile's ``onstart`` reads it."""

from __future__ import annotations

from regretlab.registry.kinds import declared_searches
from regretlab.registry.unit_costs import STARTUP_SECONDS, unit_cost

#: One trial's cost besides its rounds, in seconds: the instance built from its entry, the oracle's dry
#: pass over the losses, the run table and the bound (about 30 ms on the reference machine at 2·10⁴ rounds).
TRIAL_SECONDS = 0.03
#: The arms a candidate has, for its per-arm unit cost (the spaces' graphs have 2 to 16 arms).
TYPICAL_ARMS = 8


def predicted_seconds(scale: str, only: list[str] | None = None) -> float:
    """Predicted CPU seconds of the falsification job at ``scale`` (start-up included), running the
    searches named in ``only`` (None: every declared one; the config's ``searches``). A rate's trial is two
    runs, at T and at its window's end (10T, or more for a restarting learner: ``SearchSpec.window``)."""
    total = STARTUP_SECONDS
    for name, (kind, spec) in declared_searches().items():
        if only is None or name in only:
            budget = spec.scales[scale]
            runs, rounds = (1, 1) if kind.bounds[spec.bound].explicit else (2, 1 + spec.window)
            middle = {d.name: round((d.low + d.high) / 2) if d.integer else (d.low + d.high) / 2
                      for d in spec.dimensions}  # fmt: skip
            cost = unit_cost(spec.candidate(middle, budget.horizon).algorithm)
            per_round = (cost.round_us + cost.size_us * TYPICAL_ARMS) * 1e-6
            searched = budget.population * len(spec.dimensions) * (budget.generations + 1)
            confirmed = budget.finalists * budget.confirm_seeds
            total += searched * (runs * TRIAL_SECONDS + rounds * budget.horizon * per_round)
            total += confirmed * (runs * TRIAL_SECONDS + rounds * budget.confirm_horizon * per_round)
    return total
