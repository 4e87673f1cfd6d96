"""Rounds per second of every bandit learner against a naive baseline whose every OMD step is a cvxpy solve.

Prints one JSON object per (algorithm, K): ``{"name", "K", "metric": "rounds_per_s", "value", "unit",
"baseline": "cvxpy_step", "baseline_value", "ratio"}``. Both are measured in the same process on one core, on
disjoint unions of 4-cliques (self-aware) with Bernoulli losses — or, for the Section 4 algorithms, on the
K-arm graph of their class (:func:`instance_for`) — and the compiled kernels are warmed up (compiled)
first. The baseline is the Theorem 2 learner's loop with its eq. (5) step
posed as a fresh cvxpy + Clarabel problem each round — what one would write without an exact solver.

    python benchmarks/bench_bandits.py [--horizon 100000] [--baseline-rounds 100] [--arms 8 16 64]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import cvxpy as cp
import numpy as np

from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.environments import StochasticBernoulli
from regretlab.bandits.exp3g import importance_weighted_estimate
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import oracle_values, realised_totals, simulate
from regretlab.graphs.families import directed_complete_bipartite, disjoint_cliques, weakly_observable_stars
from regretlab.graphs.summary import describe


def bench_instance(n_arms: int) -> BanditInstance:
    """K arms in cliques of four (α = κ = K/4), Bernoulli losses with a 0.1 gap."""
    graph = disjoint_cliques([4] * (n_arms // 4))
    env = StochasticBernoulli.with_best_arm(n_arms, best_arm=0, best_mean=0.3, gap=0.1)
    return BanditInstance(graph, env, describe(graph))


def instance_for(name: str, n_arms: int) -> BanditInstance:
    """The benchmark instance of an algorithm: :func:`bench_instance`, or for a Section 4 algorithm the
    directed complete bipartite graph with s = 4 (``directed_complete_bipartite``) or four stars whose hubs
    form D (``weakly_observable``), with the same losses."""
    graph_class = ALGORITHMS[name].graph_class
    if graph_class == "directed_complete_bipartite":
        graph = directed_complete_bipartite(4, n_arms - 4)
    elif graph_class == "weakly_observable":
        graph = weakly_observable_stars([(n_arms - 4) // 4] * 3 + [n_arms - 4 - 3 * ((n_arms - 4) // 4)])
    else:
        return bench_instance(n_arms)
    env = StochasticBernoulli.with_best_arm(n_arms, best_arm=0, best_mean=0.3, gap=0.1)
    return BanditInstance(graph, env, describe(graph))


def learner_for(name: str, instance: BanditInstance, horizon: int):
    oracle = oracle_values(instance, realised_totals(instance, horizon, np.random.default_rng(1)))
    return make_learner(name, instance, horizon, np.random.default_rng(0), "paper", oracle)


def compiled_rounds_per_s(name: str, instance: BanditInstance, horizon: int) -> float:
    """Rounds/s of the compiled simulation of ``name`` (compilation excluded by a warm-up run)."""
    simulate(learner_for(name, instance, 1000), instance, 1000, np.random.default_rng(1))
    learner = learner_for(name, instance, horizon)
    start = time.perf_counter()
    simulate(learner, instance, horizon, np.random.default_rng(1))
    return horizon / (time.perf_counter() - start)


def cvxpy_rounds_per_s(instance: BanditInstance, horizon: int, n_rounds: int) -> float:
    """Rounds/s of Theorem 2's learner when each eq. (5) step is a fresh cvxpy + Clarabel problem."""
    k = instance.graph.n_arms
    eta, c = 1.0 / np.sqrt(instance.numbers["alpha"] * horizon), 64.0 * k
    lower = np.full(k, 1.0 / horizon)
    p, est = np.full(k, 1.0 / k), np.zeros(k)
    rng = np.random.default_rng(0)
    losses = instance.environment.draw(rng, 0, n_rounds)
    start = time.perf_counter()
    for loss in losses:
        arm = min(int(np.searchsorted(np.cumsum(p), rng.random(), side="right")), k - 1)
        importance_weighted_estimate(p, loss, arm, instance.graph.adjacency, est)
        x = cp.Variable(k)
        psi_gradient = (np.log(p) + 1) / eta - c / p
        psi = -cp.sum(cp.entr(x)) / eta - c * cp.sum(cp.log(x))
        objective = x @ (est - psi_gradient) + psi
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
        baseline = cvxpy_rounds_per_s(instance, args.horizon, args.baseline_rounds)
        for name in ALGORITHMS:
            value = compiled_rounds_per_s(name, instance_for(name, n_arms), args.horizon)
            print(
                json.dumps(
                    {
                        "name": name,
                        "K": n_arms,
                        "metric": "rounds_per_s",
                        "value": round(value, 1),
                        "unit": "rounds/s",
                        "baseline": "cvxpy_step",
                        "baseline_value": round(baseline, 1),
                        "ratio": round(value / baseline, 1),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
