"""The project's only source of randomness.

Every job gets one :class:`numpy.random.SeedSequence` derived from ``(regime, instance, seed)``; every random
object it needs (loss draws, the learner's sampling, a bootstrap) is a child spawned from it. Strings enter
the entropy through a stable hash (SHA-256), never Python's salted ``hash``, so the same key gives the same
numbers on every machine and in every process.

A regime may *share the draws* of another (its ``draws_from`` names it, :func:`draws_of`): its instance files
and its runs then use the other regime's name in the key, so for every (instance, seed) both regimes build the
same instance and play the same loss sequence — with the same learner coins, as within one regime, where
algorithms are paired by common random numbers. The key stays one SeedSequence per (regime, instance, seed),
with "regime" the regime whose draws they are; the configuration check makes sharing regimes list identical
instance entries (:func:`regretlab.workflow.config.validate_config`).
"""

from __future__ import annotations

import hashlib

import numpy as np

#: Changing this re-randomises every experiment of the project at once (and only then).
PROJECT_ENTROPY = 20261130


def _words(text: str) -> list[int]:
    """Four 32-bit words of SHA-256(text): a platform-independent integer encoding of a string."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]


def job_seed_sequence(regime: str, instance: str, seed: int | str) -> np.random.SeedSequence:
    """The SeedSequence of one job, keyed by ``(regime, instance, seed)``.

    ``seed`` is the integer seed index of a run, or a label such as ``"instance"`` or ``"bootstrap"`` for
    the non-run consumers of randomness. Algorithm and horizon are deliberately *not* part of the key: all
    algorithms of a regime face the same loss sequence for a given seed (common random numbers), which makes
    their comparison paired.
    """
    if isinstance(seed, int | np.integer):
        if seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed}")
        seed_words = [1, int(seed)]
    else:
        seed_words = [2, *_words(str(seed))]
    return np.random.SeedSequence([PROJECT_ENTROPY, *_words(regime), *_words(instance), *seed_words])


def draws_of(regime: str, regime_config: dict) -> str:
    """The regime name that keys the SeedSequences of ``regime``'s instances and runs: its ``draws_from``
    (the regime whose draws it shares, e.g. an adaptive algorithm's regime on the instances of the oracle
    one), else ``regime`` itself."""
    return regime_config.get("draws_from", regime)


def environment_and_learner_rngs(
    seq: np.random.SeedSequence,
) -> tuple[np.random.Generator, np.random.Generator]:
    """Two independent generators from a job's SeedSequence: the environment's and the learner's.

    The environment's stream depends only on the job key, so the loss sequence of a seed is the same for every
    algorithm; the learner's stream is independent of it.
    """
    env_seq, learner_seq = seq.spawn(2)
    return np.random.default_rng(env_seq), np.random.default_rng(learner_seq)
