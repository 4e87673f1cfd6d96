"""The contract every bandit learner meets (paper 001's protocol, §2), as a typed protocol.

:func:`regretlab.bandits.simulate.simulate` drives a learner chunk by chunk and checks, at every chunk's end,
that it recorded the rounds it played; a learner that does not is named in the error.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

import numpy as np

from regretlab.bandits.tracking import Tracker
from regretlab.graphs.feedback_graph import FeedbackGraph

#: Learner parameters recorded as run-table columns (NaN when the learner has none): Theorems 7–8's bounds
#: are evaluated at the η, η̄, δ the run used.
TUNING_COLUMNS = ("eta", "eta_bar", "delta")


@runtime_checkable
class BanditLearner(Protocol):
    """A learner for one run: one horizon, one constants preset, its own random generator.

    ``__init__(graph, horizon, rng, constants, ...)``
        ``graph``: the :class:`~regretlab.graphs.feedback_graph.FeedbackGraph` (K nodes; ``adjacency[j, i]``
        True when playing j reveals ℓ_i); ``horizon``: T, the number of rounds, known in advance (every
        theorem tunes for its own T); ``rng``: the learner's ``numpy.random.Generator`` — its only source of
        randomness, spawned by :mod:`regretlab.core.seeding`, never shared with the environment;
        ``constants``: a preset of :attr:`presets` (raise ``ValueError`` naming the learner on another, e.g.
        with
        :func:`regretlab.bandits.presets.require_preset`). Oracle-tuned learners take the realised totals
        they need as further arguments (the registry entry's ``oracle`` and ``build`` pass them); the
        learner never sees the environment otherwise.
    ``presets``
        The constants presets it accepts (class attribute), e.g. ``("paper",)`` or ``("paper", "tuned")``.
    ``params``
        A JSON-ready dict of the constants it runs with (η, c, …), stored in each run table's metadata and
        read by the bounds that need them; its keys are the registry entry's ``params``. Read after the run,
        so it may report what the run did (resets, final η). The values under ``eta``, ``eta_bar`` and
        ``delta`` also become run-table columns (:data:`TUNING_COLUMNS`).
    ``hypotheses``
        A dict of named bools: the theorem's conditions evaluated for this run (e.g. ``eta_at_most_half``);
        a run whose hypotheses fail is greyed in the figures.
    ``play(losses, t0, tracker)``
        Play rounds ``t0 + 1 … t0 + n`` whose losses are ``losses`` (shape ``(n, K)``, in [0, 1]; chunks of
        at most a few thousand rounds, ending at every checkpoint). In each round t: choose a distribution
        ``p`` (shape ``(K,)``, on the simplex), draw the played ``arm`` from it with ``rng``, then call
        :func:`regretlab.bandits.tracking.track_round` ``(t, losses[r], p, arm, tracker)`` —
        once per round, with the round's 1-based t — and only then update on the observed losses
        ``losses[r, i]`` for the i with ``graph.adjacency[arm, i]`` (reading any other loss breaks the
        feedback model). ``track_round`` records the curves at the checkpoints; the simulation stops with an
        error naming the learner if a chunk ends with a checkpoint unrecorded.

    The hot loop of the paper's learners is compiled with numba; a plain-Python learner (e.g.
    ``docs/recipes/exp3_blind.py``) meets the same contract at tens of thousands of rounds per second.
    """

    presets: ClassVar[tuple[str, ...]]
    params: dict
    hypotheses: dict[str, bool]

    def __init__(
        self, graph: FeedbackGraph, horizon: int, rng: np.random.Generator, constants: str, *args, **kwargs
    ) -> None: ...

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None: ...
