"""What every registered algorithm carries, whatever its kind: the one entry the workflow reads.

An algorithm is one module (its learner) plus one :class:`AlgorithmSpec` in its kind's registry
(:data:`regretlab.bandits.algorithms.ALGORITHMS`, :data:`regretlab.cmdp.algorithms.ALGORITHMS`). Everything
else derives from the entry: the config schema's algorithm names
(:func:`regretlab.workflow.config.load_schema`), the checks before any job (presets, graph class, horizon, the
learner parameters a bound needs), the figure's label and colour, the row of paper 001's Table 1 its fits are
listed under, and the cost model's unit cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: Colours of the figures' algorithms: Paul Tol's "muted" qualitative scheme, distinct under the common forms
#: of colour blindness, without its two pale members (sand and cyan), which are hard to see on white; every
#: colour here has a contrast ratio of at least 2.8 against white. Grey is kept for the reference learner.
PALETTE = {
    "indigo": "#332288",
    "rose": "#CC6677",
    "green": "#117733",
    "purple": "#AA4499",
    "olive": "#999933",
    "teal": "#44AA99",
    "wine": "#882255",
}


@dataclass(frozen=True)
class UnitCost:
    """What one run of an algorithm costs, in microseconds of one core: ``run_us`` per run (learner and
    environment set-up, offline benchmark, table), and per round or episode ``round_us + size_us × size``,
    ``size`` being its kind's (K for a bandit, the support triples of a CMDP,
    :attr:`regretlab.specs.kind_spec.Kind.cost`). Measured by
    :func:`regretlab.workflow.calibration.calibrate` (``regretlab estimate --calibrate``)."""

    run_us: float
    round_us: float
    size_us: float

    def run_seconds(self, horizon: int, size: int) -> float:
        """Seconds of one run of ``horizon`` rounds on an instance of ``size``."""
        return (self.run_us + horizon * (self.round_us + self.size_us * size)) * 1e-6


@dataclass(frozen=True, kw_only=True)
class AlgorithmSpec:
    """One algorithm as the workflow sees it.

    Attributes:
        build: builds the learner of one run; its arguments depend on the kind (see the kind's registry).
        description: one line for listings (``regretlab list algorithms``).
        label: how figures name it (legend, panel titles).
        colour: its line colour in every figure, preferably from :data:`PALETTE` (a figure whose algorithms
            share a colour gives the later ones unused palette colours,
            :func:`regretlab.analysis.figure_layout.figure_colours`).
        presets: the constants presets it accepts (``paper`` = the source's constants).
        params: the keys of the learner's ``params`` dict (the constants it reports, stored with each run);
            a bound that needs a parameter the learner does not report is rejected before any job
            (:attr:`regretlab.registry.theory.BoundSpec.params`). A test builds each learner and compares.
        default_bounds: the bounds drawn against it when a regime's ``bounds`` does not name it; empty for a
            baseline without a theorem, which is drawn without a bound (verdict ``no bound``).
        table1: the row of paper 001's Table 1 its fits test, a key of
            :data:`regretlab.analysis.tables.TABLE1`; None when it is in no row (a baseline, a CMDP learner).
        reference: rank as the reference learner of a figure, drawn in grey in every other panel: the
            regime's algorithm of highest rank above 0 is the reference; 0 (default) never is.
        unit_cost: its measured :class:`UnitCost` (:mod:`regretlab.registry.unit_costs`); None: not
            measured, the cost model's :data:`regretlab.registry.unit_costs.UNMEASURED` applies.
        free: the step sizes its theorem quantifies over that ``build`` takes by hand (``step={name: value}``,
            the falsification search, :mod:`regretlab.analysis.falsification`); empty: none.
    """

    build: Callable
    description: str
    label: str
    colour: str
    presets: tuple[str, ...]
    params: tuple[str, ...]
    default_bounds: tuple[str, ...] = ()
    table1: str | None = None
    reference: int = 0
    unit_cost: UnitCost | None = None
    free: tuple[str, ...] = ()
