"""One SeedSequence per job, keyed by (regime, instance, seed); the same key gives the same numbers."""

import numpy as np
import pytest

from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence


def draws(seq: np.random.SeedSequence) -> np.ndarray:
    return np.random.default_rng(seq).random(5)


def test_same_key_same_stream():
    assert np.array_equal(draws(job_seed_sequence("r", "i", 3)), draws(job_seed_sequence("r", "i", 3)))


@pytest.mark.parametrize("other", [("r2", "i", 3), ("r", "i2", 3), ("r", "i", 4), ("r", "i", "instance")])
def test_any_key_change_changes_the_stream(other):
    assert not np.array_equal(draws(job_seed_sequence("r", "i", 3)), draws(job_seed_sequence(*other)))


def test_label_seeds_differ_from_integer_seeds():
    assert not np.array_equal(draws(job_seed_sequence("r", "i", 0)), draws(job_seed_sequence("r", "i", "0")))


def test_negative_seed_is_rejected():
    with pytest.raises(ValueError, match="seed"):
        job_seed_sequence("r", "i", -1)


def test_environment_and_learner_streams_are_distinct_and_reproducible():
    env1, learner1 = environment_and_learner_rngs(job_seed_sequence("r", "i", 0))
    env2, learner2 = environment_and_learner_rngs(job_seed_sequence("r", "i", 0))
    a, b = env1.random(4), learner1.random(4)
    assert not np.array_equal(a, b)
    assert np.array_equal(a, env2.random(4)) and np.array_equal(b, learner2.random(4))
