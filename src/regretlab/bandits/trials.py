"""A falsification trial of a bandit candidate (:mod:`regretlab.falsification`): one run, judged against a
bound. Kept apart from :mod:`regretlab.bandits.simulate`, which the run jobs import: a run job must not depend
on the bound registry (editing a bound reruns no simulation)."""

from __future__ import annotations

import json

import numpy as np

from regretlab.bandits import nulls
from regretlab.bandits.bound_registry import BOUNDS, TRIVIAL_BOUNDS
from regretlab.bandits.simulate import build_instance, run_seeds
from regretlab.core.seeding import job_seed_sequence
from regretlab.specs.bound_spec import Point
from regretlab.specs.search_spec import Candidate, Trial

#: The key of a falsification trial's seed sequences (no regime of the config has this name: hyphenated).
_SEARCH = "falsification-search"


def trial(candidate: Candidate, bound: str, horizon: int, seed: int) -> Trial:
    """One run of a falsification candidate (:mod:`regretlab.analysis.falsification`), judged against
    ``bound`` at ``T = horizon`` exactly as the aggregation judges a seed: the bound at the run's parameters
    and final totals (a :class:`~regretlab.specs.bound_spec.Point`), the metric's trivial bound, uniform
    play's value, and whether the learner's and the bound's hypotheses hold there.

    The instance and run draw from ``job_seed_sequence("falsification", <the candidate's key>, …)``: the same
    candidate and seed give the same trial in every process."""
    key = json.dumps({"instance": candidate.instance, "draw": candidate.draw}, sort_keys=True)
    rng = np.random.default_rng(job_seed_sequence(_SEARCH, key, "instance"))
    instance = build_instance(candidate.instance, rng)
    runs, info = run_seeds(
        _SEARCH, key, instance, candidate.algorithm, candidate.constants, horizon, [seed], step=candidate.step
    )
    spec = BOUNDS[bound]
    params = info["learners"][0]["params"]
    last = runs.iloc[-1].to_dict()
    numbers = instance.numbers  # the same at every horizon (BanditInstance.at_horizon)
    point = Point(horizon, horizon, numbers, params, last)
    trivial = (spec.trivial or TRIVIAL_BOUNDS[spec.metric])(point)
    uniform = nulls.uniform_regret(instance, spec.metric, point)
    hypotheses = all(info["learners"][0]["hypotheses"].values())
    hypotheses = hypotheses and (spec.hypotheses is None or bool(spec.hypotheses(point)))
    hypotheses = hypotheses and (spec.applies is None or bool(spec.applies(numbers)))
    return Trial(float(last[spec.metric]), float(spec.evaluate(point)), float(trivial), float(uniform),
                 hypotheses, params)  # fmt: skip
