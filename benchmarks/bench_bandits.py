"""Rounds per second of the bandit learners against a naive baseline that solves every OMD step with cvxpy.

Prints one JSON object per (algorithm, K): ``{"name", "K", "metric": "rounds_per_s", "value", "unit",
"baseline": "cvxpy_step", "baseline_value", "ratio"}``.
Both are measured in the same process on one core; the compiled kernels are warmed up (compiled) first.

    python benchmarks/bench_bandits.py [--horizon 100000] [--baseline-rounds 100] [--arms 8 16 64]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import cvxpy as cp
import numpy as np

from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.exp3g import Exp3G, importance_weighted_estimate
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import simulate
from regretlab.graphs.families import disjoint_cliques
from regretlab.graphs.summary import describe


def bench_instance(n_arms: int) -> BanditInstance:
    """K arms in cliques of four (α = K/4), Bernoulli losses with a 0.1 gap."""
    graph = disjoint_cliques([4] * (n_arms // 4))
    env = StochasticBernoulli.with_best_arm(n_arms, best_arm=0, best_mean=0.3, gap=0.1)
    return BanditInstance(graph, env, describe(graph))


def compiled_rounds_per_s(instance: BanditInstance, horizon: int) -> float:
    """Rounds/s of the compiled Exp3.G simulation (compilation excluded by a warm-up run)."""
    simulate(Exp3G(instance.graph, 1000, np.random.default_rng(0)), instance, 1000, np.random.default_rng(1))
    learner = Exp3G(instance.graph, horizon, np.random.default_rng(0))
    start = time.perf_counter()
    simulate(learner, instance, horizon, np.random.default_rng(1))
    return horizon / (time.perf_counter() - start)


def cvxpy_rounds_per_s(instance: BanditInstance, horizon: int, n_rounds: int) -> float:
    """Rounds/s of Exp3.G when each OMD step is a fresh cvxpy + Clarabel problem (the naive baseline)."""
    k = instance.graph.n_arms
    eta = 1.0 / np.sqrt(instance.numbers["alpha"] * horizon)
    lower = np.full(k, 2 * eta / k)
    p, est = np.full(k, 1.0 / k), np.zeros(k)
    rng = np.random.default_rng(0)
    losses = instance.environment.draw(rng, 0, n_rounds)
    start = time.perf_counter()
    for loss in losses:
        arm = min(int(np.searchsorted(np.cumsum(p), rng.random(), side="right")), k - 1)
        importance_weighted_estimate(p, loss, arm, instance.graph.adjacency, est)
        x = cp.Variable(k)
        objective = x @ est - (cp.sum(cp.entr(x)) + x @ np.log(p)) / eta
        cp.Problem(cp.Minimize(objective), [cp.sum(x) == 1, x >= lower]).solve(solver=cp.CLARABEL)
        p = np.maximum(x.value, lower)
        p /= p.sum()
    return n_rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--horizon", type=int, default=100_000)
    parser.add_argument("--baseline-rounds", type=int, default=100)
    parser.add_argument("--arms", type=int, nargs="+", default=[8, 16, 64])
    args = parser.parse_args()
    # The baseline's default tolerances sometimes trigger this warning; only its speed is measured here.
    warnings.filterwarnings("ignore", "Solution may be inaccurate")
    for n_arms in args.arms:
        instance = bench_instance(n_arms)
        value = compiled_rounds_per_s(instance, args.horizon)
        baseline = cvxpy_rounds_per_s(instance, args.horizon, args.baseline_rounds)
        print(json.dumps({"name": "exp3g", "K": n_arms, "metric": "rounds_per_s", "value": round(value, 1),
                          "unit": "rounds/s", "baseline": "cvxpy_step", "baseline_value": round(baseline, 1),
                          "ratio": round(value / baseline, 1)}), flush=True)


if __name__ == "__main__":
    main()
