"""The constants presets a bandit learner accepts: ``paper`` (its source's constants) and, for the paper's
algorithms, ``tuned`` (large numerical constants replaced by 1; docs/choices-paper001.md)."""

from __future__ import annotations


def require_preset(learner: str, presets: tuple[str, ...], constants: str) -> None:
    """Raise the one-line ValueError of a learner built with a preset it does not have."""
    if constants not in presets:
        raise ValueError(f"constants for {learner} must be one of {list(presets)}, got {constants!r}")


def with_step(learner: str, tuning: dict, step: dict | None, free: tuple[str, ...]) -> dict:
    """``tuning`` with the theorem's free parameters ``step`` set by hand instead of by its tuning rule.

    A theorem's explicit display holds for every admissible value of its step sizes, not only the one its
    tuning picks: the falsification search (:mod:`regretlab.analysis.falsification`) runs a learner at other
    values. ``free`` names the parameters ``learner`` lets it set; another name, or a value that is not a
    positive finite number, raises the one-line ValueError. The learner still checks its theorem's
    hypotheses on the values it ends up with (its ``hypotheses``).
    """
    if not step:
        return dict(tuning)
    unknown = sorted(set(step) - set(free))
    if unknown:
        raise ValueError(f"{learner} takes its step sizes {list(free)} by hand, got {unknown}")
    bad = {name: value for name, value in step.items() if not 0.0 < float(value) < float("inf")}
    if bad:
        raise ValueError(f"{learner}'s step sizes must be positive and finite, got {bad}")
    return {**tuning, **{name: float(value) for name, value in step.items()}}
