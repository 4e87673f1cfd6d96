"""Runs past 2³¹ rounds or episodes (the frontier scale's CMDP runs have T = 2.5·10⁹): every counter the
compiled kernels keep — round and episode indices, checkpoint positions, dyadic levels, reset rounds — must
not wrap as an int32 would, and a run's memory must not grow with T. Played cheaply: each run starts a few
chunks before 2³¹ (or 10¹⁰), resumed as from a snapshot (regretlab.core.snapshots), and plays to its end."""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field

import numpy as np
import pytest

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.simulate import CHUNK_ROUNDS, COUNTER_COLUMNS, simulate
from regretlab.bandits.tracking import Tracker
from regretlab.cmdp import evaluator as cmdp_evaluator
from regretlab.cmdp import runs as cmdp_runs
from regretlab.cmdp import simulate as cmdp_simulate
from regretlab.cmdp.algorithms import make_learner as make_cmdp_learner
from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.instance import CMDP
from regretlab.core.checkpoints import log_checkpoints
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.workflow.config import validate_config

#: 2³¹: the first index an int32 counter cannot hold.
INT32_END = 2**31
#: Checkpoints around 2³¹ (each must be recorded at its own round).
AROUND = np.array([INT32_END - 1, INT32_END, INT32_END + 1], dtype=np.int64)
#: One instance per graph class the bandit learners need (as tests/test_snapshots.py).
BANDIT_SPECS = {
    "strongly_observable": {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3]},
        "losses": {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2},
    },
    "directed_complete_bipartite": {
        "graph": {"family": "directed_complete_bipartite", "n_self_loop": 2, "n_no_self_loop": 4},
        "losses": {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.1, "S_mean": 0.5,
                   "S_bar_mean": 0.5},
    },
    "weakly_observable": {
        "graph": {"family": "weakly_observable_stars", "leaf_counts": [2, 2]},
        "losses": {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.1, "S_mean": 0.2,
                   "S_bar_mean": 0.7},
    },
}  # fmt: skip


class Stop(Exception):
    """Raised by :class:`Resumed` to end a run at its first snapshot."""


@dataclass
class Resumed:
    """A :class:`regretlab.core.snapshots.SeedProgress` stand-in: the loop starts from ``resumed`` and its
    snapshots are kept in ``saved`` (the first one can stop the run: ``stop_at_first``)."""

    resumed: dict | None = None
    stop_at_first: bool = False
    saved: list = field(default_factory=list)

    def maybe_save(self, state, so_far=None) -> None:
        if so_far is not None:  # the run's measures, logged at a real snapshot: finite numbers
            assert all(isinstance(v, float) for v in so_far().values())
        self.saved.append(state())
        if self.stop_at_first:
            raise Stop


def _graph_class(algorithm: str) -> str:
    found = ALGORITHMS[algorithm].graph_class
    return "strongly_observable" if found in ("self_aware", "any_observable") else found


def _bandit_run_near(algorithm: str, horizon: int, start: int):
    """``algorithm`` built for ``horizon``, resumed at round ``start`` with a fresh tracker whose checkpoints
    are :data:`AROUND` and ``horizon``; returns the frame and the learner."""
    spec = BANDIT_SPECS[_graph_class(algorithm)]
    instance = bandit_instance.build_instance(spec, np.random.default_rng(0)).at_horizon(horizon)
    env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence("large", algorithm, 0))
    oracle = {key: 0.1 * horizon for key in ALGORITHMS[algorithm].oracle}
    learner = make_learner(algorithm, instance, horizon, learner_rng, "paper", oracle)
    checkpoints = np.append(AROUND[AROUND < horizon], horizon)
    ends = np.union1d(np.arange(CHUNK_ROUNDS, horizon, CHUNK_ROUNDS), checkpoints)
    state = {
        "learner": learner,
        "env_rng": env_rng,
        "tracker": Tracker.start(instance.graph.n_arms, checkpoints),
        "per_arm": [],
        "counters": {column: [] for column, key in COUNTER_COLUMNS.items() if key in learner.params},
        "t0": start,
        "next": int(np.searchsorted(ends, start, side="right")),
    }
    frame = simulate(learner, instance, horizon, env_rng, checkpoints, Resumed(state))
    return frame, learner


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_a_bandit_run_past_two_to_the_31_records_every_checkpoint(algorithm):
    """From round 2³¹ − 2·8192 to 2³¹ + 3·8192: every checkpoint (one per round around 2³¹) is recorded at
    its round (simulate raises otherwise), the rows are finite and the regret is that of the rounds played."""
    horizon = INT32_END + 3 * CHUNK_ROUNDS
    start = INT32_END - 2 * CHUNK_ROUNDS
    frame, learner = _bandit_run_near(algorithm, horizon, start)
    assert frame["t"].tolist() == [*AROUND.tolist(), horizon]
    columns = ["pseudo_regret", "realized_regret", "L_star"]
    assert np.isfinite(frame[columns].to_numpy()).all(), frame
    if "n_resets" in learner.params:  # the resets so far, read at each checkpoint: a count, never negative
        assert (frame["resets"].to_numpy() >= 0).all(), frame["resets"]
    played = frame["t"].to_numpy() - start
    assert (frame["L_star"].to_numpy() <= played).all() and (np.abs(frame["pseudo_regret"]) <= played).all()
    for name, value in learner.params.items():  # reset rounds, epochs, … as the learner reports them
        values = np.ravel(np.asarray(value, dtype=object))
        integers = [v for v in values if isinstance(v, int | np.integer) and not isinstance(v, bool)]
        assert all(v >= 0 for v in integers), (name, value)


def test_the_dyadic_intervals_close_at_two_to_the_31_and_beyond():
    """Episode t closes the dyadic levels s with 2^s | t: at t = 2³¹ the levels 0…31, at t = 2³³ all 34 of
    a T = 10¹⁰ run (bit_length(10¹⁰) = 34)."""
    n_levels = (10**10).bit_length()
    assert n_levels == 34
    for t, closing in ((INT32_END, 32), (2**33, 34), (INT32_END + 1, 1)):
        S, A = 3, 2
        P = np.zeros((S, A, S))
        P[0, :, 1] = P[0, :, 2] = 0.5
        starts = np.array([0, 1, 3], dtype=np.int64)
        q = np.zeros((S, A, S))
        level_played = np.ones(n_levels)
        sums = np.zeros(9)
        setup = cmdp_evaluator.EvaluatorSetup(P, starts, np.ones(n_levels), 1.0)
        running = cmdp_evaluator.RunningSums(
            sums, np.zeros(1), np.zeros((S, A)), np.zeros((n_levels, S, A)), level_played, np.zeros(n_levels),
            np.zeros(1),
        )
        cmdp_evaluator.track_episode(
            t, np.zeros((S, A)), np.zeros((1, S, A)), np.ones((S, A)), q, np.zeros((S, A)), q, setup, running
        )
        assert (level_played[:closing] == 0).all() and (level_played[closing:] == 1).all(), (t, level_played)


@pytest.fixture(scope="module")
def cmdp_setup(schema_path):
    """A small binding CMDP (schema defaults filled in) and a snapshot of PDGD-OPS after its first chunk."""
    spec = {"n_layers": 2, "states_per_layer": 2, "n_actions": 2, "m": 1, "rho": 1.2,
            "constraint_spread": 0.1, "rewards": "adversarial", "constraints": "adversarial"}  # fmt: skip
    regime = {
        "kind": "cmdp", "paper": "000", "theorem": "large", "x": "T", "instances": {"c": spec},
        "algorithms": ["pdgd_ops"], "bounds": {"pdgd_ops": ["theorem5_regret"]},
        "scales": {scale: {"horizons": [10, 20], "seeds": 1} for scale in ("quick", "paper")},
    }  # fmt: skip
    spec = validate_config({"regimes": {"large": regime}}, schema_path)["regimes"]["large"]
    instance = cmdp_runs.build_instance(spec["instances"]["c"], np.random.default_rng(0))
    return CMDP.from_dict(instance["cmdp"]), CMDPEnvironment.from_dict(instance["environment"])


def _cmdp_run_near(cmdp_setup, horizon: int, start: int, checkpoints: np.ndarray):
    """PDGD-OPS built for ``horizon``: its state after one chunk, moved to episode ``start`` (a chunk start),
    then played from there to ``horizon``."""
    cmdp, environment = cmdp_setup

    def fresh():
        sizes, n_actions, m = cmdp.layer_sizes, cmdp.n_actions, cmdp.m
        learner = make_cmdp_learner("pdgd_ops", sizes, n_actions, m, horizon, 0.1, "tuned")
        return (learner, *environment_and_learner_rngs(job_seed_sequence("large", "c", 0)))

    learner, env_rng, trajectory_rng = fresh()
    first = Resumed(stop_at_first=True)
    with pytest.raises(Stop):
        cmdp_simulate.simulate(
            learner, cmdp, environment, horizon, env_rng, trajectory_rng, checkpoints, first
        )
    state = first.saved[0]
    state["t0"] = start
    state["position"] = int(np.searchsorted(checkpoints, start, side="right"))
    learner, env_rng, trajectory_rng = fresh()
    return cmdp_simulate.simulate(
        learner, cmdp, environment, horizon, env_rng, trajectory_rng, checkpoints, Resumed(state)
    )


def test_a_cmdp_run_past_two_to_the_31_records_every_checkpoint(cmdp_setup):
    horizon = INT32_END + 3 * cmdp_simulate.CHUNK_EPISODES
    checkpoints = np.array([1, *AROUND, horizon], dtype=np.int64)
    start = INT32_END - 2 * cmdp_simulate.CHUNK_EPISODES
    frame, meta = _cmdp_run_near(cmdp_setup, horizon, start, checkpoints)
    rows = frame[frame["t"] > start]
    assert rows["t"].tolist() == [*AROUND.tolist(), horizon]
    columns = ["regret", "violation", "reward", "lambda_l1_max", "interval_regret_max", "epochs"]
    assert np.isfinite(rows[columns].to_numpy(dtype=float)).all(), rows
    assert meta["episodes"] == horizon


def test_a_cmdp_run_at_ten_to_the_10_keeps_its_memory_bounded(cmdp_setup):
    """T = 10¹⁰ (the default grid has 121 checkpoints; 34 dyadic levels), from 2048 episodes before the end:
    the run allocates no more than a few MB (nothing grows with T)."""
    horizon = 10**10
    assert log_checkpoints(horizon).size <= 12 * 10 + 1
    # The first chunk's checkpoints (played before the jump) and the horizon's.
    checkpoints = log_checkpoints(horizon)
    checkpoints = np.append(checkpoints[checkpoints <= cmdp_simulate.CHUNK_EPISODES], horizon)
    tracemalloc.start()
    try:
        start = horizon - 2 * cmdp_simulate.CHUNK_EPISODES
        frame, _ = _cmdp_run_near(cmdp_setup, horizon, start, checkpoints)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert frame["t"].iloc[-1] == horizon and np.isfinite(frame["regret"].iloc[-1])
    assert peak < 20 * 2**20, f"peak traced memory {peak / 2**20:.1f} MB at T = 1e10"
