"""What to say about a name that is not one of the allowed names: the allowed ones and, when some are close
to it, "did you mean …" (:func:`difflib.get_close_matches`, the matcher Python's own NameError hints use).

Used for every unknown name a user can type — a regime, instance, algorithm, constants preset, bound, graph
family, loss kind, CMDP family or scale — by the config validation (:mod:`regretlab.workflow.config`) and the
command line (:mod:`regretlab.workflow.cli`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: The similarity ratio (difflib's, in [0, 1]) above which an allowed name is offered.
CUTOFF = 0.6


def close_matches(name: object, allowed: Iterable[object]) -> list[str]:
    """The allowed names closest to ``name`` (at most two, best first); a name differing only in case first.
    Empty when ``name`` is not a string or nothing is close."""
    if not isinstance(name, str):
        return []
    names = [str(a) for a in allowed]
    same_but_case = [a for a in names if a.lower() == name.lower() and a != name]
    return same_but_case or difflib.get_close_matches(name, names, n=2, cutoff=CUTOFF)


def did_you_mean(name: object, allowed: Iterable[object]) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) when an allowed name is close to ``name``, else
    ``""``."""
    matches = close_matches(name, allowed)
    return f"; did you mean {' or '.join(repr(m) for m in matches)}?" if matches else ""


def not_one_of(name: object, allowed: Iterable[object], which: str = "") -> str:
    """``"'x' is not one of [...]"``, then ``which`` names (e.g. ``" (a bandit regime's algorithms)"``) and,
    when one is close, ``"; did you mean 'y'?"``."""
    allowed = list(allowed)
    return f"{name!r} is not one of {allowed}{which}{did_you_mean(name, allowed)}"
