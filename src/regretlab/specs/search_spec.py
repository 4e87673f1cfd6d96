"""What a falsification search of an explicit bound is (:class:`SearchSpec`): the space of the theorem's
hypotheses it searches (:class:`Dimension`), how a point of that space becomes a run (:class:`Candidate`),
what one run at it measured (:class:`Trial`) and how much search a scale buys (:class:`Budget`).

A theorem quantifies over all of its hypotheses — every admissible step size, every instance of its class,
every loss sequence — while the figures evaluate its bound where the config's tuning puts the learner.
A kind declares one :class:`SearchSpec` per bound it lets the search attack (its ``searches`` module, named
by :attr:`regretlab.specs.kind_spec.Kind.searches`), and runs a candidate with its pipeline's
``trial(candidate, bound, T, seed) → Trial``; :mod:`regretlab.analysis.falsification` drives the search.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A rate's search judges its slope over a window of horizons, by default one decade: each of its trials runs
#: at T and at DECADE·T (``regretlab.falsification.search.rate_trial``; :attr:`SearchSpec.window`).
DECADE = 10


@dataclass(frozen=True)
class Dimension:
    """One coordinate of a search space, in the optimiser's units.

    Attributes:
        name: how the candidate function reads it.
        low, high: its range (inclusive).
        integer: the optimiser only tries integers (a size, a categorical choice, an instance draw).
        text: what it is, with the theorem's admissible range it spans (tables print it).
    """

    name: str
    low: float
    high: float
    text: str
    integer: bool = False


@dataclass(frozen=True)
class Candidate:
    """A point of a search space as a run: a config-style instance entry, the learner and its step sizes.

    Attributes:
        instance: the instance entry, as a regime's ``instances`` would give it (a kind's builder reads it).
        algorithm: the learner's registry name.
        step: the step sizes set by hand (:attr:`regretlab.specs.algorithm_spec.AlgorithmSpec.free`).
        draw: keys the instance's generator (a random best arm, a random graph): another draw, another
            instance of the same entry.
        constants: its constants preset (the theorem's: ``paper``).
    """

    instance: dict[str, Any]
    algorithm: str
    step: dict[str, float]
    draw: int = 0
    constants: str = "paper"


@dataclass(frozen=True)
class Trial:
    """One run of a candidate, judged against the bound at its horizon.

    Attributes:
        measured: the run's value of the bound's metric at ``T``.
        bound: the bound's value there (at the run's parameters and totals).
        trivial: the metric's trivial bound there: the bound says something only below it.
        uniform: what uniform play scores there (NaN where the kind has no null learner for the metric).
        hypotheses: every hypothesis of the theorem holds at this run (the learner's and the bound's).
        params: the learner's parameters, as it reports them.
    """

    measured: float
    bound: float
    trivial: float
    uniform: float
    hypotheses: bool
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        """measured / bound: above 1 the run violates the bound (NaN for a bound ≤ 0)."""
        return self.measured / self.bound if self.bound > 0 else math.nan


@dataclass(frozen=True)
class Budget:
    """How much one scale searches a bound.

    Attributes:
        horizon: T of the search's runs (one seed each).
        generations: differential evolution's generations (``maxiter``).
        population: its population per dimension (``popsize``): a generation is population × dimensions runs.
        finalists: the best distinct candidates confirmed.
        confirm_seeds: seeds of each confirmation (fresh ones, not the search's).
        confirm_horizon: T of the confirmations.
    """

    horizon: int
    generations: int
    population: int
    finalists: int
    confirm_seeds: int
    confirm_horizon: int


@dataclass(frozen=True)
class SearchSpec:
    """The falsification search of one bound.

    Attributes:
        claim: the evidence table's claim the bound speaks for (:data:`regretlab.registry.claims.CLAIMS`).
        bound: the bound's registry name: an upper bound with the paper's (or derived) constants, or a rate
            in ``T`` (its search judges the slope over its ``window``: ``regretlab.falsification.search``).
        quantifies: what the theorem quantifies over, in words, with its line (the space searched).
        dimensions: the space, in the optimiser's units.
        candidate: ``(point of the space (name → value), T) → the`` :class:`Candidate` it runs at horizon T
            (a step size's admissible range may depend on T: Theorem 8's δ ≥ 1/T).
        scales: the workflow's scale → its :class:`Budget`.
        left_out: what the theorem quantifies over that the space does not reach, in words ("" if nothing).
        window: a rate's second run is at window·T: :data:`DECADE`, or wider for a learner that restarts,
            whose slope is judged between the first and last epoch ends inside the window (a decade holds one
            or two of them: each epoch is several times the last).
    """

    claim: str
    bound: str
    quantifies: str
    dimensions: tuple[Dimension, ...]
    candidate: Callable[[Mapping[str, float], int], Candidate]
    scales: Mapping[str, Budget]
    left_out: str = ""
    window: int = DECADE
