"""Checkpoint grid and per-round bookkeeping against a brute-force recomputation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.checkpoints import log_checkpoints


@given(horizon=st.integers(1, 10**7))
def test_checkpoints_are_sorted_unique_and_end_at_the_horizon(horizon):
    grid = log_checkpoints(horizon)
    assert grid[0] >= 1 and grid[-1] == horizon
    assert np.all(np.diff(grid) > 0)
    assert grid.size <= 12 * 7 + 3  # logarithmic in T, never one per round


def test_checkpoints_are_the_rounded_powers_written_out():
    # T = 1000: n = 12·3 + 1 = 37 points round(10^{k/12}), k = 0..36, by hand (10^{1/12} ≈ 1.2115)
    expected = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 22, 26, 32, 38, 46, 56, 68, 83, 100]
    expected += [121, 147, 178, 215, 261, 316, 383, 464, 562, 681, 825, 1000]
    assert log_checkpoints(1000).tolist() == expected
    assert log_checkpoints(1).tolist() == [1] and log_checkpoints(2).tolist() == [1, 2]
    assert log_checkpoints(10**9, per_decade=1).tolist() == [10**k for k in range(10)]


def test_bad_horizon_is_rejected():
    with pytest.raises(ValueError, match="horizon"):
        log_checkpoints(0)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_track_round_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    k, horizon = int(rng.integers(2, 6)), int(rng.integers(5, 60))
    losses, ps = rng.random((horizon, k)), rng.dirichlet(np.ones(k), size=horizon)
    arms = rng.integers(0, k, size=horizon)
    checkpoints = np.unique(rng.integers(1, horizon + 1, size=4))
    tracker = Tracker.start(k, checkpoints)
    for t in range(horizon):
        track_round(t + 1, losses[t], ps[t], arms[t], tracker)
    assert tracker.complete
    for row, t in zip(tracker.records, checkpoints, strict=True):
        cum = losses[:t].sum(axis=0)
        expected = np.einsum("tk,tk->", ps[:t], losses[:t])
        realised = losses[np.arange(t), arms[:t]].sum()
        assert row[0] == pytest.approx(expected - cum.min())
        assert row[1] == pytest.approx(realised - cum.min())
        assert row[2] == pytest.approx(cum.min())
        assert row[3] == np.argmin(cum)


def test_sample_arm_follows_the_distribution():
    p = np.array([0.2, 0.5, 0.3])
    arms = [sample_arm(p, u) for u in np.linspace(0, 1, 1000, endpoint=False)]
    np.testing.assert_allclose(np.bincount(arms) / 1000, p, atol=2e-3)
