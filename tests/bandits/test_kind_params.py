"""The bandit kind's learner constants at another horizon (regretlab.bandits.kind.learner_params), which the
evidence table's searches ask for tens of thousands of times: each (instance, learner, T, oracle totals) is
built once per process, and is always what a learner built afresh at T runs with."""

from __future__ import annotations

import json

import numpy as np
import pytest

from regretlab.bandits import kind
from regretlab.bandits.algorithms import make_learner
from regretlab.bandits.instance import build_instance
from regretlab.bandits.nulls import rebuilt_instance

#: An instance file's contents: two cliques of 3 (strongly observable, self-aware), Bernoulli losses.
SPEC = {
    "graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3]},
    "losses": {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2},
}
ROWS = [
    {"algorithm": "exp3g", "constants": "paper"},
    {"algorithm": "theorem3", "constants": "tuned"},
    {"algorithm": "algorithm1", "constants": "paper"},
]


def instance_file() -> dict:
    """What the instance job writes and the evidence table reads back (JSON)."""
    return json.loads(json.dumps(build_instance(SPEC, np.random.default_rng(0)).to_dict()))


def built_afresh(row: dict, instance: dict, T: int, oracle: dict) -> dict:
    bandit = rebuilt_instance(instance).at_horizon(T)
    rng = np.random.default_rng(0)
    return dict(make_learner(row["algorithm"], bandit, T, rng, row["constants"], oracle).params)


@pytest.mark.parametrize("row", ROWS, ids=[row["algorithm"] for row in ROWS])
def test_kept_constants_are_those_of_a_learner_built_afresh_at_each_horizon_and_oracle(row, monkeypatch):
    monkeypatch.setattr(kind, "_PARAMS", {})
    instance = instance_file()
    seen = []
    for T in (1_000, 10**6, 10**9):
        for L_star in (0.3 * T, 0.05 * T):
            oracle = {"L_star": L_star}
            first = kind.learner_params(row, instance, T, oracle)
            # Asked again, through another copy of the same file (the searches read each file once, but a
            # row may come from any curve): the same constants, not a dict the first caller may have changed.
            first["eta"] = -1.0
            again = kind.learner_params(row, instance_file(), T, dict(oracle))
            assert again == built_afresh(row, instance, T, oracle) != first
            seen.append(json.dumps(again, sort_keys=True, default=str))
    # Each key has its own constants: the horizons (and, for the oracle-tuned learners, L*) change them.
    distinct = len(set(seen))
    assert distinct == (6 if row["algorithm"] != "exp3g" else 3), seen


def test_each_learner_is_built_once_per_key(monkeypatch):
    monkeypatch.setattr(kind, "_PARAMS", {})
    built = []

    def counting(*args, **kwargs):
        built.append(args[0])
        return make_learner(*args, **kwargs)

    monkeypatch.setattr(kind, "make_learner", counting)
    instance, row = instance_file(), ROWS[1]
    for _ in range(3):
        kind.learner_params(row, instance, 10_000, {"L_star": 3000.0})
        kind.learner_params(row, instance_file(), 10_000, {"L_star": 3000.0})
    kind.learner_params(row, instance, 20_000, {"L_star": 3000.0})
    kind.learner_params(row, instance, 10_000, {"L_star": 3001.0})
    kind.learner_params({**row, "constants": "paper"}, instance, 10_000, {"L_star": 3000.0})
    other = json.loads(json.dumps(instance))
    other["losses"]["gap"] = 0.1  # another instance, though of the same graph
    kind.learner_params(row, other, 10_000, {"L_star": 3000.0})
    assert len(built) == 5, built


def test_the_kept_constants_start_again_past_their_limit(monkeypatch):
    monkeypatch.setattr(kind, "_PARAMS", {})
    monkeypatch.setattr(kind, "_PARAMS_KEPT", 4)
    instance, row = instance_file(), ROWS[0]
    for T in range(1000, 1010):
        assert kind.learner_params(row, instance, T, {}) == built_afresh(row, instance, T, {})
        assert 1 <= len(kind._PARAMS) <= 4
