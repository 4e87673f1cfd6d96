"""One function that runs a bandit algorithm on an instance, used by both the CLI and the workflow."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.environments import CHUNK_ROUNDS
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.learner import TUNING_COLUMNS
from regretlab.bandits.lower_bound import Theorem5Construction, materialise
from regretlab.bandits.tracking import PER_ARM_COLUMNS, RECORD_COLUMNS, Tracker, per_arm_record
from regretlab.core.checkpoints import log_checkpoints
from regretlab.core.io import stack_run_frames
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.core.snapshots import SeedProgress, Snapshot, TableProgress

#: Learner counters recorded at every checkpoint, as run-table columns (column → the learner's ``params`` key;
#: NaN when the learner reports none): how often an adaptive learner (Algorithms 4, 6, 7) has reset so far,
#: which says whether a run left its first epoch (the evidence table's mechanism of Theorems 13, 17, 18), and
#: the largest |ln(p_{t+1,i}/p_{t,i})| of Theorems 2 and 3's steps so far (Lemma 9's check).
COUNTER_COLUMNS = {"resets": "n_resets", "lemma9_log_ratio": "lemma9_log_ratio"}


def simulate(
    learner,
    instance: BanditInstance,
    horizon: int,
    env_rng: np.random.Generator,
    checkpoints: np.ndarray | None = None,
    progress: SeedProgress | None = None,
) -> pd.DataFrame:
    """Play ``horizon`` rounds; return one row per checkpoint with the columns of ``RECORD_COLUMNS``,
    ``PER_ARM_COLUMNS``, ``TUNING_COLUMNS`` (the learner's final values) and ``COUNTER_COLUMNS`` (its values
    at each checkpoint).

    Chunks also end at every checkpoint, where the per-arm columns are read off the tracker (the kernels draw
    their randomness round by round, so where chunks end does not change a run). The frame's
    ``attrs["L_per_arm"]`` holds every arm's total loss L_i over the horizon (paper 001, §2).

    With ``progress`` (:mod:`regretlab.core.snapshots`), the loop offers a snapshot at every chunk end: the
    learner (with its generator), ``env_rng``, the tracker, the per-arm and counter rows and the next
    chunk; if ``progress.resumed`` holds one, the run continues from it, and ``learner`` and ``env_rng`` must
    be its (``run_seeds`` takes them from there).
    """
    if horizon < 1:
        raise ValueError(f"horizon must be a positive integer, got {horizon}")
    checkpoints = log_checkpoints(horizon) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)
    tracker = Tracker.start(instance.graph.n_arms, checkpoints)
    graph = instance.graph
    in_s = np.zeros(graph.n_arms, dtype=bool)
    in_s[graph.S] = True
    in_d = np.zeros(graph.n_arms, dtype=bool)
    in_d[list(graph.weakly_dominating_set.members)] = True
    per_arm = []
    reported = getattr(learner, "params", {})
    counters = {column: [] for column, key in COUNTER_COLUMNS.items() if key in reported}
    t0 = 0
    ends = np.union1d(np.arange(CHUNK_ROUNDS, horizon, CHUNK_ROUNDS), checkpoints[checkpoints <= horizon])
    first = 0
    resumed = progress.resumed if progress is not None else None
    if resumed is not None:
        if resumed["learner"] is not learner or resumed["env_rng"] is not env_rng:
            raise ValueError(
                "a resumed run must continue with the snapshot's learner and environment generator"
            )
        tracker, per_arm, t0, first = resumed["tracker"], resumed["per_arm"], resumed["t0"], resumed["next"]
        counters = resumed["counters"]
    for index in range(first, ends.size):
        end = ends[index]
        losses = instance.environment.draw(env_rng, t0, int(end) - t0)
        learner.play(losses, t0, tracker)
        _require_recorded(learner, tracker, t0, int(end))
        t0 = int(end)
        if len(per_arm) < checkpoints.size and checkpoints[len(per_arm)] == end:
            per_arm.append(per_arm_record(tracker.cum_loss, tracker.sums[0], in_s, in_d))
            params = learner.params if counters else {}
            for column in counters:
                counters[column].append(float(params[COUNTER_COLUMNS[column]]))
        if progress is not None:  # encoded only when a snapshot is due
            progress.maybe_save(
                partial(
                    dict,
                    learner=learner,
                    env_rng=env_rng,
                    tracker=tracker,
                    per_arm=per_arm,
                    counters=counters,
                    t0=t0,
                    next=index + 1,
                ),
                # Σ⟨p_s, ℓ_s⟩ − min_i L_{t,i}: the pseudo-regret the figures draw, up to the chunk's end.
                lambda: {"pseudo_regret": float(tracker.sums[0] - tracker.cum_loss.min())},
            )
    if t0 < horizon:
        learner.play(instance.environment.draw(env_rng, t0, horizon - t0), t0, tracker)
        _require_recorded(learner, tracker, t0, horizon)
    if not tracker.complete:
        raise RuntimeError("the run ended before every checkpoint was recorded (checkpoint beyond horizon?)")
    frame = pd.DataFrame(tracker.records, columns=list(RECORD_COLUMNS))
    frame[list(PER_ARM_COLUMNS)] = np.array(per_arm, dtype=float).reshape(-1, len(PER_ARM_COLUMNS))
    for name in TUNING_COLUMNS:
        value = getattr(learner, "params", {}).get(name)
        frame[name] = float(value) if isinstance(value, int | float) else np.nan
    for column in COUNTER_COLUMNS:
        frame[column] = counters[column] if column in counters else np.nan
    frame.attrs["L_per_arm"] = tracker.cum_loss.tolist()
    frame.insert(0, "t", checkpoints)
    frame["best_arm"] = frame["best_arm"].astype(np.int64)
    return frame


def _require_recorded(learner, tracker: Tracker, t0: int, end: int) -> None:
    """Raise the error naming ``learner`` when rounds ``t0+1 … end`` left a checkpoint unrecorded: its
    ``play`` must call ``track_round`` once per round (:class:`regretlab.bandits.learner.BanditLearner`)."""
    expected = int(np.searchsorted(tracker.checkpoints, end, side="right"))
    recorded = int(tracker.position[0])
    if recorded != expected:
        missing = int(tracker.checkpoints[min(recorded, expected)])
        name = f"{type(learner).__module__}.{type(learner).__qualname__}"
        raise RuntimeError(
            f"learner {name} played rounds {t0 + 1}..{end} but the checkpoint t = {missing} was "
            f"{'not recorded' if recorded < expected else 'recorded too early'}: its play() must call "
            "track_round(t, losses[r], p, arm, tracker) once per round, with the round's "
            "1-based t (regretlab.bandits.learner.BanditLearner)"
        )


def realised_totals(instance: BanditInstance, horizon: int, env_rng: np.random.Generator) -> np.ndarray:
    """L_i = Σ_t ℓ_{t,i} for every arm, of the loss sequence ``env_rng`` will produce (a dry pass).

    Used only to hand the true totals to algorithms whose theorem assumes them known (oracle tuning).
    """
    totals = np.zeros(instance.graph.n_arms)
    for t0 in range(0, horizon, CHUNK_ROUNDS):
        totals += instance.environment.draw(env_rng, t0, min(CHUNK_ROUNDS, horizon - t0)).sum(axis=0)
    return totals


def oracle_values(instance: BanditInstance, totals: np.ndarray) -> dict[str, float]:
    """The oracle quantities of paper 001 from the realised totals: L*, L_{i*_S} (§4, line 212) and
    L_D = (1/d) Σ_{i∈D} L_i (line 212) over the graph's minimum weakly dominating set (NaN if S or D is
    empty)."""
    graph = instance.graph
    members = list(graph.weakly_dominating_set.members)
    return {
        "L_star": float(totals.min()),
        "L_best_S": float(totals[graph.S].min()) if graph.s else float("nan"),
        "L_D": float(totals[members].mean()) if members else float("nan"),
    }


def run_seeds(
    regime: str,
    instance_name: str,
    instance: BanditInstance,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    draws: str | None = None,
    snapshot: Snapshot | None = None,
    step: dict | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Run ``algorithm`` for every seed; return the stacked checkpoint rows and, per seed, the learner's
    parameters and hypotheses.

    Each seed's randomness comes from ``job_seed_sequence(draws, instance_name, seed)``, ``draws`` being the
    regime whose draws ``regime`` shares (:func:`regretlab.core.seeding.draws_of`; None: ``regime``). An
    algorithm whose theorem tunes η with L* gets the true L* of the seed's loss sequence (computed by a dry
    pass of the same environment stream) and the run records ``oracle_L_star = True``; likewise the Section 4
    algorithms get L_{i*_S} or L_D (``oracle_L_best_S``, ``oracle_L_D``). The instance is resolved for the
    horizon first (:meth:`BanditInstance.at_horizon`: a minimax instance's gap depends on T). With a
    ``snapshot`` (:mod:`regretlab.core.snapshots`) the runs save their progress as they go and resume from a
    saved one. ``step`` sets the learner's free step sizes by hand (a regime's ``step``; the falsification
    search, :mod:`regretlab.bandits.trials`).
    """
    instance = instance.at_horizon(horizon)
    key = regime if draws is None else draws
    frames, learners = [], []
    spec = ALGORITHMS.get(algorithm)
    oracle_keys = spec.oracle if spec else ()

    def build(instance: BanditInstance, seed: int | str):
        """The learner of ``seed`` and its environment generator."""
        env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence(key, instance_name, seed))
        oracle = {}
        if oracle_keys:
            # A fresh SeedSequence for the dry pass: ``spawn`` is stateful, so spawning again from ``key``
            # would give a different (independent) loss sequence, not this seed's.
            dry_env_rng = environment_and_learner_rngs(job_seed_sequence(key, instance_name, seed))[0]
            totals = realised_totals(instance, horizon, dry_env_rng)
            values = oracle_values(instance, totals)
            oracle = {name: values[name] for name in oracle_keys}
        return make_learner(algorithm, instance, horizon, learner_rng, constants, oracle, step), env_rng

    progress = TableProgress(snapshot)
    theorem5 = None
    if isinstance(instance.environment, Theorem5Construction):
        # Theorem 5 (App. E.1): environment 2 is built from calibration runs of this algorithm on
        # environment 1, with seeds of their own (regretlab.bandits.lower_bound).
        if progress.extra is None:
            progress.extra = materialise(
                instance, horizon, lambda first, j: build(first, f"theorem5-calibration-{j}")[0]
            )
        instance, theorem5 = progress.extra
    for seed in seeds:
        if seed not in progress.done:
            seed_progress = progress.seed(seed)
            if seed_progress.resumed is not None:
                learner, env_rng = seed_progress.resumed["learner"], seed_progress.resumed["env_rng"]
            else:
                learner, env_rng = build(instance, seed)
            frame = simulate(learner, instance, horizon, env_rng, progress=seed_progress)
            frame.insert(0, "seed", seed)
            if theorem5 is not None:
                frame["theorem5_epsilon"] = theorem5.get("epsilon_hat", np.nan)
                frame["theorem5_interval_loss"] = theorem5.get("expected_loss_in_interval", np.nan)
            frame["hypotheses_hold"] = all(learner.hypotheses.values())
            learner_info = {
                "seed": seed,
                "params": learner.params,
                "hypotheses": learner.hypotheses,
                "L_per_arm": frame.attrs["L_per_arm"],
            }
            progress.done[seed] = (frame, learner_info)
        frame, learner_info = progress.done[seed]
        frames.append(frame)
        learners.append(learner_info)
    runs = stack_run_frames(
        frames, regime=regime, instance=instance_name, algorithm=algorithm, constants=constants, T=horizon
    )
    flags = {f"oracle_{name}": name in oracle_keys for name in ("L_star", "L_best_S", "L_D")}
    return runs, {**flags, "learners": learners, **({"theorem5": theorem5} if theorem5 else {})}


# The kind's pipeline (regretlab.specs.kind_spec.Kind.pipeline): what regretlab.core.run_sets, `regretlab run`
# and the calibration call besides run_seeds.

#: The metrics whose final means a run's summary shows (:func:`regretlab.core.run_sets.run_summary`).
SUMMARY_METRICS = ("pseudo_regret", "L_star")


def build_instance(spec: dict, rng: np.random.Generator, horizon: int | None = None) -> BanditInstance:
    """The instance of a config entry (:func:`regretlab.bandits.instance.build_instance`); its draw does not
    depend on the horizon, which :func:`run_seeds` resolves (:meth:`BanditInstance.at_horizon`)."""
    return bandit_instance.build_instance(spec, rng)


def load_instance(contents: dict) -> BanditInstance:
    """The instance of an instance file's contents."""
    return BanditInstance.from_dict(contents)


def instance_at_horizon(
    instance: BanditInstance, spec: dict, regime: str, instance_name: str, horizon: int
) -> BanditInstance:
    """``instance`` itself: :func:`run_seeds` resolves it for the horizon."""
    return instance


def summary_info(info: dict) -> dict:
    """What a run's summary shows of its metadata: all of it (the oracle flags, each seed's learner
    parameters and hypotheses)."""
    return info
