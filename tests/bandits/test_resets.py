"""Resets of the adaptive learners (Algorithms 4, 6, 7) as a run metric: recorded at every checkpoint, equal
to the learner's own count, summarised by the aggregate and read by the evidence table's mechanism of Theorems
13, 17 and 18 (``resets ≥ 1``: the run left its first epoch)."""

from __future__ import annotations

import numpy as np
import pytest

from regretlab.analysis.aggregate import summarise
from regretlab.analysis.evidence.items import mechanism_state
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.instance import BanditInstance, build_instance
from regretlab.bandits.simulate import COUNTER_COLUMNS, run_seeds, simulate
from regretlab.bandits.tracking import PER_ARM_COLUMNS
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.registry.claims import CLAIMS_BY_KEY
from regretlab.registry.kinds import KINDS

STARS = {"family": "weakly_observable_stars", "leaf_counts": [3, 3]}
BIPARTITE = {"family": "directed_complete_bipartite", "n_self_loop": 4, "n_no_self_loop": 12}
PARTS = {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.01, "S_mean": 0.5, "S_bar_mean": 0.7}


def instance_of(graph: dict, losses: dict) -> BanditInstance:
    return build_instance({"graph": graph, "losses": losses}, np.random.default_rng(0))


def test_every_counter_column_is_a_metric_and_every_resetting_learner_reports_it():
    assert set(COUNTER_COLUMNS) <= set(KINDS["bandit"].metrics)
    resetting = {name for name, spec in ALGORITHMS.items() if "n_resets" in spec.params}
    assert resetting == {"algorithm4", "algorithm6", "algorithm7", "algorithm7_half"}


@pytest.mark.parametrize(
    ("algorithm", "constants", "graph", "losses"),
    [
        ("algorithm6", "paper", BIPARTITE, PARTS),
        ("algorithm7_half", "tuned", STARS, PARTS),
        ("algorithm4", "tuned", {"family": "figure1"}, {"kind": "bernoulli", "best_mean": 0.1, "gap": 0.3}),
    ],
)
def test_resets_are_the_learners_count_at_every_checkpoint(algorithm, constants, graph, losses):
    """The column at checkpoint t counts the reset rounds ≤ t (non-decreasing, ends at the learner's n_resets,
    ≥ 1 on these runs so that the check is not of zeros)."""
    instance = instance_of(graph, losses)
    env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence("r", "i", 0))
    horizon = 20_000
    learner = make_learner(algorithm, instance, horizon, learner_rng, constants)
    frame = simulate(learner, instance, horizon, env_rng)
    rounds = np.array(learner.params["reset_rounds"])
    assert learner.n_resets >= 1 and len(rounds) == learner.n_resets
    expected = [(rounds <= t).sum() for t in frame["t"]]
    assert frame["resets"].tolist() == expected
    assert frame["resets"].iloc[-1] == learner.n_resets and frame["resets"].is_monotonic_increasing


def test_a_learner_without_resets_has_none_recorded_and_the_aggregate_summarises_resets():
    instance = instance_of(STARS, {**PARTS, "best_in_D": True})
    baseline, _ = run_seeds("r", "i", instance, "exp3g_weak", "paper", 20_000, [0, 1])
    assert baseline["resets"].isna().all()
    runs, meta = run_seeds("r", "i", instance, "algorithm7_half", "tuned", 20_000, [0, 1])
    params = {("i", "algorithm7_half", "tuned", 20_000, m["seed"]): m["params"] for m in meta["learners"]}
    regime = {"kind": "bandit", "paper": "001", "theorem": "t", "x": "T",
              "bounds": {"algorithm7_half": ["theorem18_best_S_half"]}}  # fmt: skip
    summary = summarise("r", regime, {"i": instance.to_dict()}, runs, 50, params)
    final = runs[runs["t"] == runs["T"]]
    assert summary["resets_mean"].iloc[0] == pytest.approx(final["resets"].mean())
    assert final["resets"].min() >= 1
    # The evidence table's mechanism of Theorem 18 reads it: exercised here, not recorded without it.
    claim = CLAIMS_BY_KEY["theorem18"]
    row = summary.iloc[0].to_dict()
    assert mechanism_state(claim, row["metric"], row)[0] == ""
    assert mechanism_state(claim, row["metric"], {**row, "resets_mean": 0.5})[0] == "mechanism"
    missing = {k: v for k, v in row.items() if k != "resets_mean"}
    assert mechanism_state(claim, row["metric"], missing)[0] == "mechanism not recorded"


@pytest.mark.parametrize(
    ("algorithm", "constants", "graph", "losses"),
    [
        ("algorithm6", "paper", BIPARTITE, PARTS),
        ("algorithm7_half", "tuned", STARS, {**PARTS, "best_in_D": True}),
        ("algorithm4", "tuned", {"family": "figure1"}, {"kind": "bernoulli", "best_mean": 0.1, "gap": 0.3}),
    ],
)
def test_epoch_ends_are_the_checkpoint_metrics_at_the_reset_rounds(algorithm, constants, graph, losses):
    """The metrics a learner records at its reset rounds equal those a second run of the same seed records
    at checkpoints placed on those rounds (so the kernel copies the tracker after round t, not before it, and
    every metric column is the checkpoint's own)."""
    instance = instance_of(graph, losses)
    horizon = 20_000

    def run(checkpoints=None):
        env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence("r", "i", 0))
        learner = make_learner(algorithm, instance, horizon, learner_rng, constants)
        return learner, simulate(learner, instance, horizon, env_rng, checkpoints)

    learner, _ = run()
    ends = learner.params["epoch_ends"]
    assert len(ends) == learner.n_resets >= 1
    assert [end["t"] for end in ends] == learner.params["reset_rounds"]
    _, frame = run(np.array([end["t"] for end in ends]))
    for end, row in zip(ends, frame.to_dict("records"), strict=True):
        assert row["t"] == end["t"]
        for metric, value in end.items():
            assert value == pytest.approx(row[metric], rel=1e-12, abs=1e-9), (metric, end["t"])
        defined = {column for column in PER_ARM_COLUMNS if not np.isnan(row[column])}
        assert set(end) == {"t", "pseudo_regret", "L_star", *defined}
