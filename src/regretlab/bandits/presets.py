"""The constants presets a bandit learner accepts: ``paper`` (its source's constants) and, for the paper's
algorithms, ``tuned`` (large numerical constants replaced by 1; docs/choices-paper001.md)."""

from __future__ import annotations


def require_preset(learner: str, presets: tuple[str, ...], constants: str) -> None:
    """Raise the one-line ValueError of a learner built with a preset it does not have."""
    if constants not in presets:
        raise ValueError(f"constants for {learner} must be one of {list(presets)}, got {constants!r}")
