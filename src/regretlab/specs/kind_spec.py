"""What a kind of regime declares about itself (:class:`Kind`), in one object its package exports from its
``kind`` module (``regretlab.bandits.kind.KIND``, ``regretlab.cmdp.kind.KIND``);
:data:`regretlab.registry.kinds.KINDS` collects them, and the workflow, analysis and CLI read a kind only
through it.

Also the contracts a kind's parts meet: a per-run :class:`Metric`, the cost model of a run (:class:`KindCost`)
and what an instance check receives and returns (:class:`Plan`, :data:`Problem`).
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType

from regretlab.specs.algorithm_spec import AlgorithmSpec
from regretlab.specs.bound_spec import BoundSpec, Ceiling, Point
from regretlab.specs.search_spec import SearchSpec

#: A problem found in a config: the dotted path of the offending field and one line saying what is allowed.
Problem = tuple[str, str]


@dataclass(frozen=True)
class Plan:
    """The runs an instance is checked for: algorithms and horizons, each with the field that names it."""

    algorithms: list[str]
    horizons: list[tuple[str, int]]
    algorithms_field: str


def named_field(message: str, entry: dict) -> str | None:
    """The field of ``entry`` a builder's error is about: builders start their messages with the parameter's
    config name (``"clique_sizes must …"``, ``"rho=2.5 is out of reach …"``); None when the first word is not
    a key of ``entry``."""
    first = re.match(r"[A-Za-z_]\w*", message)
    return first.group() if first and first.group() in entry else None


def at_field(where: str, entry: dict, error: Exception, otherwise: str | None = None) -> Problem:
    """A builder's error as a problem of the field it names (:func:`named_field`), else of ``otherwise`` (a
    field of ``entry``), else of ``entry`` itself."""
    message = str(error)
    name = named_field(message, entry) or otherwise
    return (f"{where}.{name}" if name else where, message)


@dataclass(frozen=True)
class Metric:
    """One per-run metric, as figures label it.

    Attributes:
        label: what it is, in words (and the paper's symbol), for axis labels.
        unit: its unit, in words (the axis label adds it in parentheses).
        description: one line for listings: its definition and where the paper defines it.
        proportion: the metric is a 0/1 event per run (e.g. Lemma 5's "every epoch covered"): the aggregate
            summarises it by the fraction of seeds with a Clopper–Pearson interval instead of the bootstrap
            one, and a bound on it is a binomial test (:mod:`regretlab.analysis.aggregate`).
    """

    label: str
    unit: str
    description: str
    proportion: bool = False

    @property
    def axis_label(self) -> str:
        """``label (unit)``, the figures' axis label."""
        return f"{self.label} ({self.unit})"


@dataclass(frozen=True)
class KindCost:
    """The cost model of one kind of regime (:mod:`regretlab.registry.unit_costs`).

    Attributes:
        unit: what a run simulates (``rounds`` or ``episodes``).
        size_name: what the unit costs' size counts (``K``, ``triples``).
        size: (regime, instance, instance entry) → the size the unit cost multiplies.
        data_mb: (regime, instance, instance entry) → memory one run needs beyond a run job's base
            (:data:`regretlab.workflow.cost.RUN_BASE_MEM_MB`), in MB; none by default. It does not grow with
            T.
        extra_runs: instance entry → horizon-T runs a job plays besides its seeds' (Theorem 5's calibration
            runs on environment 1, :func:`regretlab.bandits.lower_bound.materialise`).
    """

    unit: str
    size_name: str
    size: Callable[[str, str, dict], int]
    data_mb: Callable[[str, str, dict], float] = lambda regime, instance, spec: 0
    extra_runs: Callable[[dict], int] = lambda spec: 0


@dataclass(frozen=True)
class FamilySection:
    """A section of ``regretlab list families``: the entries of one config field naming a generator.

    Attributes:
        name: the section's key (``graph``, ``losses``, ``cmdp``).
        title: its heading, with where in an instance entry the name goes.
        definition: the config schema's ``$defs`` entry describing the field (``graph``, ``cmdp_instance``).
        selector: the property naming the entry (``family``, ``kind``).
        names: the entries, in listing order.
        shared: every entry takes the definition's own properties (listed once, after the names); False:
            each entry's ``allOf`` branch has its own.
    """

    name: str
    title: str
    definition: str
    selector: str
    names: tuple[str, ...]
    shared: bool = False


@dataclass(frozen=True)
class Kind:
    """A family of regimes sharing one instance/run pipeline, everything the workflow knows of it.

    Attributes:
        description: one line for listings.
        algorithms: its algorithm registry, name → :class:`regretlab.specs.algorithm_spec.AlgorithmSpec`.
        bounds: its bounds' registry, name → :class:`regretlab.specs.bound_spec.BoundSpec` (names are unique
            across kinds; :data:`regretlab.registry.theory.BOUNDS` collects them).
        metrics: per-run metrics of the run tables, summarised by the aggregation, name → :class:`Metric`;
            the first is the one a regime with no bound at all draws.
        time_unit: what one step of a run is (``round``, ``episode``), for the horizon's axis label.
        uniform_value: the null learner's value, ``(instance file, metric, point, algorithm) → float``: what
            uniform play (bandits: p = 1/K; CMDPs: the uniform policy) scores on ``metric`` at a point of the
            instance (a :class:`~regretlab.specs.bound_spec.Point`), exact in expectation; NaN where it has
            none.
        instance_check: ``(regime name, instance name, entry, plan) → problems``: how an instance entry is
            checked before any job (usually by building it as its job would), fields relative to the regime.
        cost: the cost model of a run (:class:`KindCost`).
        learner_params: ``(aggregate row, instance file, T, oracle) → params``: the constants the row's
            learner would run with at horizon ``T`` (the evidence table's search), ``oracle`` the extrapolated
            :attr:`horizon_scaled` totals; a ValueError when the learner cannot run at ``T``.
        pipeline: the module of the kind's instances and runs, by name, imported only by what runs or builds
            (:meth:`run_pipeline`): ``build_instance(entry, rng, horizon)``, ``load_instance(file contents)``,
            ``instance_at_horizon(instance, entry, regime, name, T)``, ``run_seeds(regime, name, instance,
            algorithm, constants, T, seeds, draws, snapshot) → (table, metadata)`` and ``run_summary(table,
            metadata) → dict`` (:mod:`regretlab.core.run_sets` writes the tables).
        trivial_bounds: metric → its trivial bound at a point
            (:data:`regretlab.registry.theory.TRIVIAL_BOUNDS`).
        ceilings: metric → the ceilings some learners' construction puts on it
            (:data:`regretlab.registry.theory.CEILINGS`).
        horizon_scaled: the metrics that grow in proportion to T on its instances (stationary losses): a point
            extrapolated to another horizon scales them, and they are the learners' oracle totals there.
        param_columns: learner parameters the run tables also carry as columns (η, η̄, δ): a point at another
            horizon takes the learner's value there.
        shared_draws: regimes of this kind can share another's draws (``draws_from``).
        instance_schema: the JSON schema of one instance entry, which the config schema gets as
            ``$defs.<kind>_instance`` for the ``instances`` of the kind's regimes; None: the schema file has
            that definition and its ``allOf`` branch.
        families: what ``regretlab list families`` lists of it (:class:`FamilySection`).
        valid_on: algorithm name → (class key, in words) of the problems it is valid on, for ``regretlab
            list algorithms`` (bandits: the feedback graph class; the key ``-`` when there are no classes).
        searches: the falsification searches of its explicit bounds, name →
            :class:`~regretlab.specs.search_spec.SearchSpec` (:mod:`regretlab.falsification`). Empty: none.
        trials: the module, by name, of its ``trial(candidate, bound, T, seed) → Trial`` (one search run),
            imported only by the search (:meth:`trial_function`); "" for a kind without searches.
        speaking_floor: bound name → the horizon below which the bound is above its metric's trivial bound
            on every admissible instance, from its form alone (``inf``: never below the largest searched;
            NaN: no floor declared). The evidence table names it beside ``T_power``.
        power_searches: bound name → a function that searches admissible instances for the bound's smallest
            ``T_power`` and returns its row (``bound``, ``metric``, ``T_search``, ``T_floor`` and the instance
            found; :mod:`regretlab.cmdp.power_search`); the ``power_search`` job writes the rows to
            ``figures/power_search.csv`` and the evidence table names ``T_search`` beside the floor. Empty:
            no search.
    """

    description: str
    algorithms: Mapping[str, AlgorithmSpec]
    bounds: Mapping[str, BoundSpec]
    metrics: dict[str, Metric]
    time_unit: str
    uniform_value: Callable[[dict, str, Point, str], float]
    instance_check: Callable[[str, str, dict, Plan], list[Problem]]
    cost: KindCost
    learner_params: Callable[[dict, dict, int, dict], dict]
    pipeline: str
    trivial_bounds: Mapping[str, Callable[[Point], float]] = field(default_factory=dict)
    ceilings: Mapping[str, tuple[Ceiling, ...]] = field(default_factory=dict)
    horizon_scaled: tuple[str, ...] = ()
    param_columns: tuple[str, ...] = ()
    shared_draws: bool = False
    instance_schema: dict | None = None
    families: tuple[FamilySection, ...] = ()
    valid_on: Callable[[str], tuple[str, str]] = lambda algorithm: ("-", "every instance of the kind")
    searches: Mapping[str, SearchSpec] = field(default_factory=dict)
    trials: str = ""
    speaking_floor: Callable[[str], float] = lambda name: math.nan
    power_searches: Mapping[str, Callable[[], dict]] = field(default_factory=dict)

    @property
    def presets(self) -> dict[str, tuple[str, ...]]:
        """Algorithm name → the constants presets it accepts."""
        return {name: spec.presets for name, spec in self.algorithms.items()}

    def trial_function(self) -> Callable:
        """The :attr:`trials` module's ``trial``, imported on first use."""
        return importlib.import_module(self.trials).trial

    def run_pipeline(self) -> ModuleType:
        """The :attr:`pipeline` module, imported on first use (summaries and figures never load it)."""
        return importlib.import_module(self.pipeline)
