"""What a bound of a theorem is, as the workflow draws and judges it (:class:`BoundSpec`), what a
learner's own construction guarantees of a metric (:class:`Ceiling`), and where both are evaluated
(:class:`Point`). Each kind's bounds are entries of its ``bound_registry`` module
(``regretlab.bandits.bound_registry``, ``regretlab.cmdp.bound_registry``); :mod:`regretlab.registry.theory`
collects them.

A bound is evaluated on a :class:`Point`: ``T`` the run's horizon, ``t`` the checkpoint (``t = T`` except in
trajectory regimes, ``x: t``), the instance's numbers, one run's metrics at ``t`` and, under ``params``, the
constants that run's learner used (η, c …). The aggregation builds one per seed and averages the bound over
them: the theorems bound an expectation, and the expectation of a data-dependent bound (through L*, ℓ̄, C …)
is the mean of its per-run values. The evidence table builds one per extrapolated horizon
(:func:`regretlab.analysis.evidence.points.point_at`), and the null learners read the same
(:attr:`regretlab.specs.kind_spec.Kind.uniform_value`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False)
class Point(Mapping[str, Any]):
    """Where a bound, a ceiling, a hypothesis or a null learner is evaluated: read by name, as
    ``point["L_star"]`` or ``point["params"]["eta"]``.

    Attributes:
        T: the run's horizon.
        t: the checkpoint (``T`` except in trajectory regimes).
        numbers: the instance's numbers (its file's ``numbers``: K, α, ρ, L …).
        params: the constants the run's learner used (``learner.params``), read as ``point["params"]``.
        metrics: the run's metrics at ``t`` (or, at an aggregate's or extrapolated point, their mean over
            seeds), e.g. ``L_star``, ``opt``; a metric shadows an instance number of the same name.
    """

    T: int
    t: int
    numbers: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    metrics: Mapping[str, Any] = field(default_factory=dict)
    _values: dict[str, Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        values = {"T": self.T, "t": self.t, **self.numbers, "params": self.params, **self.metrics}
        object.__setattr__(self, "_values", values)

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def all_of(*conditions: Callable[[Point], bool]) -> Callable[[Point], bool]:
    """A theorem's hypotheses made of several conditions, true where every one holds.

    Each condition is evaluated (no short cut), so what the hypotheses read is what each condition reads.
    The docstring joins the first paragraphs of theirs, each one sentence (the bounds reference page prints
    it)."""

    def holds(point: Point) -> bool:
        return all([bool(condition(point)) for condition in conditions])

    firsts = [" ".join((c.__doc__ or c.__name__).split("\n\n")[0].split()).rstrip(".") for c in conditions]
    holds.__doc__ = "; ".join(firsts) + "."
    return holds


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
        hypotheses: the theorem's conditions on the point's numbers (e.g. Condition 2 at this T), if any;
            figures grey out the points where they fail.
        direction: ``"upper"`` (the metric is at most the bound), ``"lower"`` (at least the bound, e.g.
            Theorem 7's reward ratio) or ``"reference"`` (a line drawn for comparison, which gets no verdict).
        constants: whose constants an explicit bound has: ``"paper's constants"`` (the proof's), or e.g.
            ``"constants derived here"`` for a bound regretlab proves where the source could not be read.
        applies: the instances it speaks about, a predicate on the instance's numbers (e.g. Theorem 5's lower
            bound: environment 2 only); on the others it is neither drawn, nor judged, nor fitted. None: all.
        params: the learner parameters ``evaluate`` and ``hypotheses`` read (``point["params"][name]``, or
            for the η, η̄, δ that bandit run tables copy into columns, the column of that name). An algorithm
            whose registry entry does not list them all in its ``params`` cannot take the bound: the config
            check says so before any job (a test checks each declaration against what the functions read).
        metrics: the run metrics they read besides ``metric`` (e.g. ``L_star``); every one is a metric of
            the kind whose regimes draw the bound (:data:`regretlab.registry.kinds.KINDS`).
        at_checkpoint: the bound is on a running sum over ``[1..t]`` and grows with ``t`` (Lemma 2's
            ``E^q_δ``, OGD's ``η m L² t / 2``): in a trajectory regime (``x: t``) it is evaluated at each
            checkpoint ``t`` (``evaluate`` reads ``t`` for the length and ``T`` for the horizon's constants).
            False: at the run's horizon ``T`` (e.g. ``ζ``, whose metric is a running maximum). In a sweep in
            ``T`` the two are the same point.
        trivial: the metric's trivial bound on this bound's side, where :data:`TRIVIAL_BOUNDS`' does not
            apply: the floor a lower bound on a regret must exceed to say anything (Theorem 5's proof bound:
            every learner has at least Σ_t min_i ℓ_{t,i} − L*). None: ``TRIVIAL_BOUNDS[metric]``.
        reference: the minimax learner of the bound's Table 1 column (paper 001, lines 24–30) that the
            theorem improves on — ``exp3g`` for §3's small-loss bounds, ``exp3g_weak`` for §4's — whose
            measured value at the same point the aggregate stores beside the bound (``null_reference``); ""
            for a bound that claims no improvement over a baseline.
        log_powers: for a rate (``explicit`` False), per swept variable of ``exponents``, the power ``k`` of
            its logarithm by which the bound as proved exceeds the drawn expression (the logs its Õ hides
            beyond those drawn; 0: none). The slopes a rate check accepts widen by ``k`` times the local
            slope of ``ln x`` over the fitted points (:func:`regretlab.analysis.exponents.accepted_band`).
            ``log_note`` says where the proof puts them (the bounds reference page lists both); a test
            checks that every rate declares each of its variables.
        log_note: the derivation of ``log_powers`` from the paper (its lines).
    """

    evaluate: Callable[[Point], float]
    metric: str
    explicit: bool
    label: str
    exponents: dict[str, float]
    source: str
    hypotheses: Callable[[Point], bool] | None = None
    direction: str = "upper"
    applies: Callable[[dict], bool] | None = None
    constants: str = "paper's constants"
    params: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    at_checkpoint: bool = False
    trivial: Callable[[Point], float] | None = None
    reference: str = ""
    log_powers: dict[str, float] = field(default_factory=dict)
    log_note: str = ""


@dataclass(frozen=True)
class Ceiling:
    """A ceiling the learner's own construction puts on a metric, on every run, whatever the environment.

    A bound at or above it cannot fail on a correct implementation: its verdict is ``implied``, not
    ``holds`` (:mod:`regretlab.analysis.verdicts`). Evaluated on the bounds' :class:`Point`
    (module docstring) at the checkpoint ``t``, with the run's learner parameters under ``params``.

    Attributes:
        evaluate: point → the ceiling on the metric at ``t``.
        algorithms: the learners whose construction gives it (every preset: the presets differ through the
            ``params`` the ceiling reads).
        label: the formula, as tables print it.
        source: where the construction comes from.
    """

    evaluate: Callable[[Point], float]
    algorithms: tuple[str, ...]
    label: str
    source: str
