"""The falsification search: for each bound a kind lets it attack
(:class:`regretlab.specs.search_spec.SearchSpec`), the largest measured / bound over the theorem's hypotheses
(for a rate, the steepest slope against its band: last paragraph).

Differential evolution (:func:`scipy.optimize.differential_evolution`, seeded, no polishing) maximises one
run's ratio over the space: every candidate runs at the search horizon with the same seed (common random
numbers, so two candidates are compared on the same draws), and a candidate outside the theorem's
hypotheses, or one its learner cannot be built at, scores 0. The best distinct candidates are then confirmed
with fresh seeds at the confirmation horizon. A confirmed candidate that exceeds the bound at every seed,
with every hypothesis holding at every seed, is a *witness* against the display; otherwise the bound
*survived* the budget spent. What the search reports with it says how much the survival means: the share of
runs inside the hypotheses and, of those, the share where the bound was below the metric's trivial bound
(where it could have failed at all).

A rate (a bound drawn with unit constant, :attr:`~regretlab.specs.bound_spec.BoundSpec.explicit` False) has
no value to exceed, only a slope: its search maximises the growth per decade of one run's regret from T to
window·T (:attr:`~regretlab.specs.search_spec.SearchSpec.window`: a decade, or two for a learner that
restarts, judged between its epoch ends there), against the growth the rate allows (:func:`rate_trial`), so
that "measured / bound" is 10^(slope − band), above 1 where the slope is steeper than the band the fits accept
(:func:`regretlab.analysis.exponents.accepted_band`: the exponent or the drawn rate's own local slope, plus
the logs its Õ hides), and a run counts only where the learner learns at T (regret below half of uniform
play's, as the fits' onset). A candidate steeper at every seed is a rejection over that window, not a
counterexample: an Õ rate allows any constant, and a window may be pre-asymptotic.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import differential_evolution

from regretlab.analysis.epoch_ends import growth_between_ends
from regretlab.analysis.exponents import accepted_band, log_slack
from regretlab.registry.theory import BOUNDS
from regretlab.specs.search_spec import DECADE, Budget, Candidate, SearchSpec, Trial

#: The differential evolution's seed (one per search: the searches do not share a stream).
SEARCH_SEED = 20_261_204
#: The seed every search run uses; confirmations use 1 … confirm_seeds.
SEARCH_RUN_SEED = 0

#: ``(candidate, bound, T, seed) → Trial``: a kind's pipeline's ``trial``.
TrialFunction = Callable[[Candidate, str, int, int], Trial]


def is_rate(bound: str) -> bool:
    """The bound is a rate (unit constant): its search judges a slope (:func:`rate_trial`)."""
    return not BOUNDS[bound].explicit


def _per_decade(ratio: float, window: int) -> float:
    """A growth over ``window`` (a ratio of values at window·T and T) as a growth per decade: 10^slope."""
    return ratio ** (1.0 / math.log10(window)) if ratio > 0 else math.nan


def rate_trial(trial: TrialFunction, window: int = DECADE) -> TrialFunction:
    """A kind's ``trial`` turned into a rate's: the candidate run at T and at window·T with the same seed, as
    one :class:`~regretlab.specs.search_spec.Trial` whose ``measured`` is the regret's growth per decade,
    10^slope — from R(T) to R(window·T), or for a learner that restarts from its first to its last epoch end
    in [T, window·T] (:func:`regretlab.analysis.epoch_ends.growth_between_ends`; not admissible without two
    there) — and ``bound`` the growth the rate allows, 10^band (the upper end of
    :func:`~regretlab.analysis.exponents.accepted_band` over the two horizons: the exponent in T or the drawn
    rate's local slope, plus the log powers its Õ hides); ``trivial`` is 10 (linear growth), ``uniform``
    uniform play's growth. Its hypotheses hold where the theorem's hold at both runs and the learner learns at
    T (regret below half of uniform play's); ``params`` are the window·T run's."""

    def run(candidate: Candidate, bound: str, horizon: int, seed: int) -> Trial:
        spec = BOUNDS[bound]
        low, high = trial(candidate, bound, horizon, seed), trial(candidate, bound, window * horizon, seed)
        x = np.array([horizon, window * horizon], dtype=float)
        ratio = high.bound / low.bound if low.bound > 0 else math.nan
        drawn = math.log10(_per_decade(ratio, window)) if ratio > 0 else math.nan
        power = spec.log_powers.get("T", 0.0)
        band = accepted_band(spec.exponents["T"], drawn, "upper", log_slack(x, power), power)
        measured = growth_between_ends(high.params, spec.metric, horizon, window * horizon)
        if measured is None:  # a learner that does not restart: its regret at the two horizons
            measured = _per_decade(high.measured / low.measured, window) if low.measured > 0 else math.nan
        learns = low.measured < 0.5 * low.uniform
        uniform = _per_decade(high.uniform / low.uniform, window) if low.uniform > 0 else math.nan
        hypotheses = low.hypotheses and high.hypotheses and learns and not math.isnan(measured)
        return Trial(measured, float(DECADE**band.high), float(DECADE), uniform, hypotheses, high.params)

    return run


@dataclass(frozen=True)
class Evaluation:
    """One search run: the point of the space, its candidate and its trial (None: not buildable)."""

    x: Mapping[str, float]
    candidate: Candidate
    trial: Trial | None

    @property
    def score(self) -> float:
        """The ratio the optimiser maximises: measured / bound inside the hypotheses, else 0."""
        if self.trial is None or not self.trial.hypotheses or math.isnan(self.trial.ratio):
            return 0.0
        return self.trial.ratio


@dataclass(frozen=True)
class Confirmation:
    """A finalist rerun with fresh seeds at the confirmation horizon."""

    evaluation: Evaluation
    horizon: int
    trials: tuple[Trial, ...]

    @property
    def ratio(self) -> float:
        """Mean measured / mean bound over the seeds: the theorems bound an expectation."""
        bound = float(np.mean([trial.bound for trial in self.trials]))
        return float(np.mean([trial.measured for trial in self.trials])) / bound if bound > 0 else math.nan

    @property
    def seed_ratios(self) -> list[float]:
        """Each seed's measured / bound."""
        return [trial.ratio for trial in self.trials]

    @property
    def hypotheses(self) -> bool:
        """The theorem's hypotheses hold at every seed."""
        return all(trial.hypotheses for trial in self.trials)

    @property
    def witness(self) -> bool:
        """Above the bound at every seed, inside the hypotheses at every seed."""
        return self.hypotheses and all(ratio > 1.0 for ratio in self.seed_ratios)

    def mean(self, name: str) -> float:
        """The mean over seeds of a :class:`~regretlab.specs.search_spec.Trial` field."""
        return float(np.mean([getattr(trial, name) for trial in self.trials]))


@dataclass(frozen=True)
class SearchResult:
    """Everything one search found: its evaluations and the confirmed finalists, worst first."""

    name: str
    spec: SearchSpec
    scale: str
    budget: Budget
    evaluations: tuple[Evaluation, ...]
    confirmations: tuple[Confirmation, ...] = field(default_factory=tuple)

    @property
    def worst(self) -> Confirmation | None:
        """The confirmed finalist with the largest ratio (None: no admissible candidate was found)."""
        return self.confirmations[0] if self.confirmations else None

    @property
    def runs(self) -> int:
        """Runs spent: the search's and the confirmations'."""
        return len(self.evaluations) + sum(len(confirmation.trials) for confirmation in self.confirmations)

    @property
    def admissible(self) -> list[Evaluation]:
        """The search runs inside the theorem's hypotheses."""
        return [e for e in self.evaluations if e.trial is not None and e.trial.hypotheses]

    @property
    def speaking(self) -> list[Evaluation]:
        """The admissible runs where the bound was below the metric's trivial bound (it could have failed)."""
        return [e for e in self.admissible if e.trial.bound < e.trial.trivial]


def candidate_key(candidate: Candidate) -> str:
    """A candidate as one canonical string (finalists are distinct by it)."""
    return json.dumps(
        {"instance": candidate.instance, "algorithm": candidate.algorithm, "step": candidate.step,
         "draw": candidate.draw, "constants": candidate.constants},
        sort_keys=True,
    )  # fmt: skip


def _point(spec: SearchSpec, vector: np.ndarray) -> dict[str, float]:
    """The optimiser's vector as the space's named coordinates (integers rounded)."""
    return {
        dim.name: float(round(value)) if dim.integer else float(value)
        for dim, value in zip(spec.dimensions, vector, strict=True)
    }


def _evaluate(spec: SearchSpec, x: dict, horizon: int, seed: int, trial: TrialFunction) -> Evaluation:
    """One run of the candidate at ``x``; a candidate its builders reject (ValueError) has no trial."""
    candidate = spec.candidate(x, horizon)
    try:
        return Evaluation(x, candidate, trial(candidate, spec.bound, horizon, seed))
    except ValueError:
        return Evaluation(x, candidate, None)


def search(name: str, spec: SearchSpec, scale: str, trial: TrialFunction) -> SearchResult:
    """Run the search ``name`` at ``scale``'s budget, then confirm its best distinct candidates."""
    budget = spec.scales[scale]
    trial = rate_trial(trial, spec.window) if is_rate(spec.bound) else trial
    evaluations: list[Evaluation] = []

    def objective(vector: np.ndarray) -> float:
        evaluation = _evaluate(spec, _point(spec, vector), budget.horizon, SEARCH_RUN_SEED, trial)
        evaluations.append(evaluation)
        return -evaluation.score

    differential_evolution(
        objective,
        bounds=[(dim.low, dim.high) for dim in spec.dimensions],
        integrality=[dim.integer for dim in spec.dimensions],
        maxiter=budget.generations,
        popsize=budget.population,
        rng=np.random.default_rng([SEARCH_SEED, *name.encode()]),
        polish=False,
        tol=0.0,
        updating="immediate",
    )
    finalists: dict[str, Evaluation] = {}
    for evaluation in sorted(evaluations, key=lambda e: -e.score):
        if evaluation.score <= 0.0 or len(finalists) == budget.finalists:
            break
        finalists.setdefault(candidate_key(evaluation.candidate), evaluation)
    horizon = budget.confirm_horizon
    confirmations = [
        Confirmation(
            evaluation,
            horizon,
            tuple(
                trial(spec.candidate(evaluation.x, horizon), spec.bound, horizon, seed)
                for seed in range(1, budget.confirm_seeds + 1)
            ),
        )
        for evaluation in finalists.values()
    ]
    confirmations.sort(key=lambda c: -c.ratio if not math.isnan(c.ratio) else math.inf)
    return SearchResult(name, spec, scale, budget, tuple(evaluations), tuple(confirmations))
