"""Every kind of regime, collected: a regime's ``kind`` in ``config.yaml`` is a key of :data:`KINDS` (the
schema's ``kind`` names are filled from it, :func:`regretlab.workflow.config.load_schema`). Each kind declares
itself in its package's ``kind`` module (:class:`regretlab.specs.kind_spec.Kind`); a new kind is one entry
here (docs/add-a-kind.md).
"""

from __future__ import annotations

from regretlab.bandits.kind import KIND as BANDIT
from regretlab.cmdp.kind import KIND as CMDP
from regretlab.specs.algorithm_spec import AlgorithmSpec
from regretlab.specs.kind_spec import Kind
from regretlab.specs.search_spec import SearchSpec

KINDS: dict[str, Kind] = {
    "bandit": BANDIT,
    "cmdp": CMDP,
}


def algorithm_spec(name: str) -> AlgorithmSpec | None:
    """The registry entry of ``name`` in whichever kind has it (algorithm names are unique across kinds),
    or None."""
    return next((kind.algorithms[name] for kind in KINDS.values() if name in kind.algorithms), None)


def algorithm_kind(name: str) -> str | None:
    """The kind whose registry has algorithm ``name`` (algorithm names are unique across kinds), or None."""
    return next((kind for kind, spec in KINDS.items() if name in spec.algorithms), None)


def metric_kind(metric: str) -> str | None:
    """The kind whose run tables carry ``metric`` (the first, for a name two kinds share), or None."""
    return next((name for name, kind in KINDS.items() if metric in kind.metrics), None)


def declared_searches() -> dict[str, tuple[Kind, SearchSpec]]:
    """Every falsification search a kind declares (:attr:`Kind.searches`), by name, with its kind, in
    registry order."""
    return {name: (kind, spec) for kind in KINDS.values() for name, spec in kind.searches.items()}
