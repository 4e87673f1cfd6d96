"""Microseconds per episode of the UC-O-GDPS projection (Algorithm 3 line 8) against a cvxpy baseline, of
whole PDGD-OPS episodes against the per-episode Python loop, and the power scale's projected wall time.

Emulates the online algorithm inside one epoch: a random layered CMDP (``make_layered_cmdp``), a confidence
set ``𝒫_i`` (``TransitionConfidence`` after episodes sampled under the uniform policy), then every episode a
gradient step ``y = q̂_t - η_t ℓ_t`` with ``ℓ_t(x, a) = -r_t(x, a) + λ^T g_t(x, a)`` (noisy rewards and
constraint costs around ``r̄``, ``Ḡ``, a fixed dual ``λ``), ``η_t = 1 / (ℓ̄_t C √T)``, ``C = 5|X||A|/L`` and
``T = 10^5``, followed by the projection ``q̂_{t+1} = Π_{Δ(𝒫_i)}(y)``. Only the projection is timed.

Prints one JSON object per instance:
``{"name", "instance", "metric": "us_per_episode", "value", "unit", "baseline": "cvxpy_projection",
"baseline_value", "ratio", ...}`` with medians; extra keys give the fallback count, how the projector solved
its calls (``paths``, with the total of Newton steps), the mean and 99th percentile, the number of tight
budgets at the end, the largest violation seen, the first call of an epoch (projector set-up plus a cold
projection, ``epoch_start_us``) and the baseline with the cvxpy problem rebuilt every episode
(``baseline_rebuilt_value``). The baseline (``baseline_value``) re-solves one parametrised cvxpy problem
(``y`` a ``cp.Parameter``, Clarabel at its default tolerances) per episode, continuing the same trajectory
in the same run: the faster of the two cvxpy variants, so ``ratio`` is the conservative one.

Whole episodes (``"name": "pdgd_ops_episode"``, instances of :data:`EPISODE_INSTANCES`): a run of
:func:`~regretlab.cmdp.simulate.simulate` (PDGD-OPS, ``paper`` constants, stochastic ``r_t``, ``G_t``, a
learner built for ``T = 10^5``, stopped after ``--run-episodes`` episodes at log-spaced checkpoints): the
learner, the environment's draws and every recorded metric, epoch starts included; ``value`` is its wall
time per episode (after a 50-episode run that loads the compiled kernels) and ``cpu_us_per_episode`` the
process CPU time of the whole call (set-up and the offline LPs included) per episode, which a loaded
machine inflates less. The baseline (``"python_episode_loop"``) plays the same episodes one Python call at a
time, as the evaluator did before it was compiled: ``learner.update`` (the reference implementation of
Algorithm 2) and the evaluator's compiled kernels called once per episode; it runs the first
``--baseline-run-episodes`` episodes of the same run (by default all of them: later episodes cost more, as
the projection's Newton needs more steps once the confidence sets are tight).

The power scale (``"name": "cmdp_power_scale"``, issue 34, one row after the instances'): its wall time on
2 cores projected from its CMDP learners' seconds per episode, measured here on the scale's own instances
(``--power-episodes`` of the compiled loop, ``--power-baseline-episodes`` of the Python loop, the baseline),
each run job's episodes as ``regretlab estimate`` counts them, longest job first; the bandit runs and each
job's start-up at the registry's costs. Extra keys: the per-episode costs, the projection by the registry's
unit costs (``unit_costs_h``, what ``regretlab estimate --scale power`` prints) and the archived runs' own
wall times at the last refresh spread the same way (``last_refresh_h``).

    python benchmarks/bench_cmdp.py [--episodes 5000] [--warmup 5000] [--baseline-episodes 50]
        [--run-episodes 20000] [--baseline-run-episodes N] [--power-episodes 200000]
        [--power-baseline-episodes 2000]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cvxpy as cp
import numpy as np

from regretlab.cmdp import bounds, evaluator, simulate
from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.confidence import TransitionConfidence
from regretlab.cmdp.environments import CMDPEnvironment, make_environment
from regretlab.cmdp.instance import CMDP, make_layered_cmdp
from regretlab.cmdp.occupancy import layer_slices, occupancy_from_policy, sample_trajectory, support_mask
from regretlab.cmdp.projection import ConfidenceSetProjector
from regretlab.core.checkpoints import log_checkpoints
from regretlab.core.seeding import draws_of, job_seed_sequence
from regretlab.registry.kinds import KINDS
from regretlab.registry.unit_costs import STARTUP_SECONDS
from regretlab.workflow.archive import ARCHIVE_ROOT, archived_run_seconds
from regretlab.workflow.cli import load_config
from regretlab.workflow.config import require_scale, scale_regimes
from regretlab.workflow.cost import estimate, wall_seconds
from regretlab.workflow.jobs import job_cost, run_parts, runs_of_part

#: name -> (L, states per inner layer, |A|, m, rho, episodes sampled for the confidence set)
INSTANCES = {"small": (4, 3, 3, 1, 0.5, 20000), "medium": (6, 5, 4, 2, 0.5, 20000)}
REPO = Path(__file__).resolve().parents[1]
HORIZON = 100_000
DELTA = 0.1
#: name -> (L, states per inner layer, |A|, m, rho) of the whole-episode row (issue 9: small is L = 3, two
#: states per inner layer, two actions, m = 1).
EPISODE_INSTANCES = {"small": (3, 2, 2, 1, 0.5), "medium": (6, 5, 4, 2, 0.5)}


class Episodes:
    """The gradient steps of UC-O-GDPS on one instance: ``next_point(q)`` returns ``q - η_t ℓ_t``."""

    def __init__(self, spec: tuple, seed: int) -> None:
        n_layers, width, n_actions, m, rho, n_sampled = spec
        rng = self.rng = np.random.default_rng(seed)
        self.cmdp = make_layered_cmdp(rng, n_layers, width, n_actions, m, rho)
        layer_sizes = self.cmdp.layer_sizes
        confidence = TransitionConfidence(layer_sizes, n_actions, HORIZON, DELTA)
        uniform = np.full((self.cmdp.n_states, n_actions), 1.0 / n_actions)
        for _ in range(n_sampled):
            confidence.observe(sample_trajectory(rng, layer_sizes, self.cmdp.P, uniform))
            confidence.maybe_new_epoch()
        self.P_bar, self.epsilon = confidence.P_bar, confidence.epsilon
        self.mask = support_mask(layer_sizes, n_actions)
        self.dual = np.full(m, 1.0)
        self.C = 5 * self.cmdp.n_states * n_actions / n_layers
        self.max_loss = 0.0
        self.start = occupancy_from_policy(layer_sizes, self.cmdp.P, uniform)

    def next_point(self, q: np.ndarray) -> np.ndarray:
        rng, cmdp = self.rng, self.cmdp
        reward = (rng.random(cmdp.r_bar.shape) < cmdp.r_bar).astype(float)
        cost = np.clip(cmdp.G_bar + rng.uniform(-0.5, 0.5, cmdp.G_bar.shape), -1.0, 1.0)
        loss = -reward + np.tensordot(self.dual, cost, axes=1)
        loss[-1] = 0.0
        self.max_loss = max(self.max_loss, float(np.abs(loss).max()))
        eta = 1.0 / (self.max_loss * self.C * np.sqrt(HORIZON))
        return q - eta * loss[:, :, None] * self.mask


def cvxpy_projection(layer_sizes, n_actions, P_bar, epsilon):
    """The generic formulation: ``min ||q - y||²``, Lemma 1 and ``cp.norm1`` budgets; ``y`` is a Parameter."""
    n_states = sum(layer_sizes)
    mask = support_mask(layer_sizes, n_actions).reshape(n_states * n_actions, n_states)
    y = cp.Parameter(mask.shape)
    q = cp.Variable(mask.shape, nonneg=True)
    constraints = [cp.multiply(~mask, q) == 0]
    for k, layer in enumerate(layer_slices(layer_sizes)[:-1]):
        constraints.append(cp.sum(q[layer.start * n_actions : layer.stop * n_actions]) == 1)
        for x in range(layer.start, layer.stop):
            if k > 0:
                constraints.append(cp.sum(q[x * n_actions : (x + 1) * n_actions]) == cp.sum(q[:, x]))
            for a in range(n_actions):
                row = q[x * n_actions + a]
                mass = cp.sum(row)
                constraints.append(cp.norm1(row - P_bar[x, a] * mass) <= epsilon[x, a] * mass)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(cp.multiply(mask, q - y))), constraints)

    def project(point: np.ndarray) -> np.ndarray:
        y.value = point.reshape(mask.shape)
        problem.solve(solver=cp.CLARABEL)
        return q.value.reshape(point.shape)

    return project


def run(name: str, spec: tuple, n_episodes: int, n_warmup: int, n_baseline: int, seed: int) -> dict:
    episodes = Episodes(spec, seed)
    layer_sizes, n_actions = episodes.cmdp.layer_sizes, episodes.cmdp.n_actions
    projector = ConfidenceSetProjector(layer_sizes, n_actions, episodes.P_bar, episodes.epsilon)
    q = projector.project(episodes.start)  # first call of the epoch (cold, OSQP)
    for _ in range(n_warmup):
        q = projector.project(episodes.next_point(q))
    stats_before = dict(projector.stats)
    timings = np.empty(n_episodes)
    worst_violation = 0.0
    for t in range(n_episodes):
        y = episodes.next_point(q)
        start = time.perf_counter()
        q = projector.project(y)
        timings[t] = time.perf_counter() - start
        if t % 100 == 0:
            worst_violation = max(worst_violation, projector.violation(q))
    stats = {key: projector.stats[key] - stats_before[key] for key in projector.stats}
    # First call of an epoch: a new projector (set up once per epoch) and its cold projection.
    epoch_start = []
    for _ in range(20):
        start = time.perf_counter()
        ConfidenceSetProjector(layer_sizes, n_actions, episodes.P_bar, episodes.epsilon).project(q)
        epoch_start.append(time.perf_counter() - start)

    mass = q.sum(axis=2)
    slack = episodes.epsilon * mass - np.abs(q - episodes.P_bar * mass[:, :, None]).sum(axis=2)
    tight = int(np.sum((mass[:-1] > 1e-9) & (slack[:-1] <= 1e-9)))

    baseline = cvxpy_projection(layer_sizes, n_actions, episodes.P_bar, episodes.epsilon)
    baseline(episodes.next_point(q))  # compile the parametrised problem outside the timing
    baseline_times, rebuilt_times = [], []
    q_base = q
    for _ in range(n_baseline):
        y = episodes.next_point(q_base)
        start = time.perf_counter()
        q_base = baseline(y)
        baseline_times.append(time.perf_counter() - start)
    for _ in range(max(1, n_baseline // 5)):
        y = episodes.next_point(q_base)
        start = time.perf_counter()
        q_base = cvxpy_projection(layer_sizes, n_actions, episodes.P_bar, episodes.epsilon)(y)
        rebuilt_times.append(time.perf_counter() - start)

    value = float(np.median(timings)) * 1e6
    baseline_value = float(np.median(baseline_times)) * 1e6
    return {
        "name": "cmdp_projection",
        "instance": name,
        "metric": "us_per_episode",
        "value": round(value, 1),
        "unit": "us",
        "baseline": "cvxpy_projection",
        "baseline_value": round(baseline_value, 1),
        "ratio": round(baseline_value / value, 1),
        "fallbacks": projector.fallbacks,
        "paths": stats,
        "mean_us": round(float(timings.mean()) * 1e6, 1),
        "p99_us": round(float(np.quantile(timings, 0.99)) * 1e6, 1),
        "episodes": n_episodes,
        "triples": int(episodes.mask.sum()),
        "tight_budgets": tight,
        "max_violation": worst_violation,
        "epoch_start_us": round(float(np.median(epoch_start)) * 1e6, 1),
        "baseline_rebuilt_value": round(float(np.median(rebuilt_times)) * 1e6, 1),
    }


def episode_setup(spec: tuple, seed: int):
    """The CMDP, its environment and a fresh PDGD-OPS learner (``paper`` constants, ``T = 10^5``)."""
    n_layers, width, n_actions, m, rho = spec
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, n_layers, width, n_actions, m, rho)
    environment = make_environment(cmdp, rng)
    learner = make_learner("pdgd_ops", cmdp.layer_sizes, n_actions, m, HORIZON, DELTA, "paper")
    return cmdp, environment, learner


def python_episode_loop(spec: tuple, n_episodes: int, seed: int) -> float:
    """Seconds per episode of the per-episode Python loop (the baseline) on a generated instance."""
    return python_loop_seconds(*episode_setup(spec, seed), n_episodes, seed)


def python_loop_seconds(cmdp, environment, learner, n_episodes: int, seed: int) -> float:
    """Seconds per episode of the per-episode Python loop: ``learner.update`` (the reference implementation
    of Algorithm 2, or Algorithm 4 alone) and the evaluator's kernels (true occupancy, trajectory, running
    sums, coverage), one call each per episode."""
    P, L, m = np.array(cmdp.P), cmdp.L, cmdp.m
    T, delta = learner.constants.T, learner.constants.delta
    starts = evaluator.layer_starts(cmdp.layer_sizes)
    env_rng, trajectory_rng = np.random.default_rng(seed + 1), np.random.default_rng(seed + 2)
    n_levels = n_episodes.bit_length()
    root = learner.constants.C * np.sqrt(T)
    Eq = bounds.lemma2_Eq(T, delta, L, cmdp.n_states, cmdp.n_actions).value
    per_ell = Eq + cmdp.n_states * cmdp.n_actions / 2 * 2.0 ** np.arange(n_levels) / root
    pairs = (cmdp.n_states, cmdp.n_actions)
    sums, violation, cum_loss = np.zeros(8), np.zeros(m), np.zeros(pairs)
    level_loss, level_played, level_ell = np.zeros((n_levels, *pairs)), np.zeros(n_levels), np.zeros(n_levels)
    q, q_pairs = np.zeros_like(P), np.zeros(pairs)
    setup = evaluator.EvaluatorSetup(P, starts, per_ell, float(L * root))
    running = evaluator.RunningSums(
        sums, violation, cum_loss, level_loss, level_played, level_ell, np.zeros(m)
    )
    lam_max, covered, dual_regret = 0.0, 0, 0.0
    start = time.perf_counter()
    r_all, G_all = environment.draw(env_rng, 0, n_episodes)
    for t in range(1, n_episodes + 1):
        policy, q_hat, lam = learner.policy, learner.q_hat.copy(), learner.lam.copy()
        evaluator.true_occupancy(P, policy, starts, q, q_pairs)
        trajectory = evaluator.trajectory_from_uniforms(P, policy, trajectory_rng.random(2 * L))
        epoch = learner.primal.epochs
        dual_regret -= lam @ (G_all[t - 1].reshape(m, -1) @ q_hat.sum(axis=2).ravel())
        loss = learner.update(trajectory, r_all[t - 1], G_all[t - 1])
        lam_max = max(lam_max, float(learner.lam.sum()))
        if learner.primal.epochs != epoch:
            confidence = learner.primal.confidence
            covered += evaluator.contains(P, confidence.P_bar, confidence.epsilon)
        evaluator.track_episode(t, r_all[t - 1], G_all[t - 1], loss, q, q_pairs, q_hat, setup, running)
    return (time.perf_counter() - start) / n_episodes


def run_episodes(name: str, spec: tuple, n_episodes: int, n_baseline: int, seed: int) -> dict:
    """The ``pdgd_ops_episode`` row of one instance (after a short run that loads the compiled kernels)."""
    for episodes in (min(50, n_episodes), n_episodes):
        cmdp, environment, learner = episode_setup(spec, seed)
        rngs = np.random.default_rng(seed + 1), np.random.default_rng(seed + 2)
        cpu = time.process_time()
        frame, metadata = simulate.simulate(
            learner, cmdp, environment, HORIZON, *rngs, checkpoints=log_checkpoints(episodes)
        )
        cpu = time.process_time() - cpu
    value = metadata["us_per_episode"]
    python_episode_loop(spec, min(50, n_baseline), seed)
    cpu_baseline = time.process_time()
    baseline_value = 1e6 * python_episode_loop(spec, n_baseline, seed)
    cpu_baseline = time.process_time() - cpu_baseline
    return {
        "name": "pdgd_ops_episode",
        "instance": name,
        "metric": "us_per_episode",
        "value": round(value, 2),
        "unit": "us",
        "baseline": "python_episode_loop",
        "baseline_value": round(baseline_value, 1),
        "ratio": round(baseline_value / value, 1),
        "cpu_us_per_episode": round(1e6 * cpu / n_episodes, 2),
        "baseline_cpu_us_per_episode": round(1e6 * cpu_baseline / n_baseline, 1),
        "episodes": n_episodes,
        "baseline_episodes": n_baseline,
        "layer_sizes": list(cmdp.layer_sizes),
        "n_actions": cmdp.n_actions,
        "m": cmdp.m,
        "epochs": metadata["epochs"],
        "fallbacks": metadata["fallbacks"],
        "checkpoints": len(frame),
    }


def power_episode_seconds(
    config: dict, run, n_episodes: int, n_baseline: int, seed: int
) -> tuple[float, float]:
    """Seconds per episode of one power-scale run's learner on its own instance (built as its run job builds
    it: its draws' seed, its ρ at the horizon; the learner for that horizon): the compiled loop
    (:func:`~regretlab.cmdp.simulate.simulate`, after a 50-episode warm-up) over ``n_episodes`` and the
    Python loop over ``n_baseline`` (after 5 episodes that load its kernels)."""
    regime = config["regimes"][run.regime]
    entry, pipeline = regime["instances"][run.instance], KINDS[regime["kind"]].run_pipeline()
    rng = np.random.default_rng(job_seed_sequence(draws_of(run.regime, regime), run.instance, "instance"))
    built = pipeline.instance_at_horizon(
        pipeline.build_instance(entry, rng), entry, run.regime, run.instance, run.T
    )
    cmdp, environment = CMDP.from_dict(built["cmdp"]), CMDPEnvironment.from_dict(built["environment"])
    sizes = (cmdp.layer_sizes, cmdp.n_actions, cmdp.m, run.T, built["numbers"]["delta"], run.constants)

    def learner():
        return make_learner(run.algorithm, *sizes, rho=cmdp.rho)

    for episodes in (50, n_episodes):
        rngs = np.random.default_rng(seed + 1), np.random.default_rng(seed + 2)
        _, metadata = simulate.simulate(
            learner(), cmdp, environment, run.T, *rngs, checkpoints=log_checkpoints(episodes)
        )
    python_loop_seconds(cmdp, environment, learner(), min(5, n_baseline), seed)  # its kernels' first calls
    return metadata["wall_time_s"] / n_episodes, python_loop_seconds(
        cmdp, environment, learner(), n_baseline, seed
    )


def power_scale(n_episodes: int, n_baseline: int, seed: int, workers: int = 2) -> dict:
    """The ``cmdp_power_scale`` row (issue 34): the power scale's wall time on ``workers`` cores projected
    from its CMDP learners' seconds per episode measured here on the scale's own instances (longest job
    first, :func:`~regretlab.workflow.cost.wall_seconds`; each run job's start-up and its bandit runs at the
    registry's unit costs), against the same projection with the per-episode Python loop (the baseline).
    Extra keys: the projection by the registry's unit costs (what ``regretlab estimate`` prints) and the
    archived runs' own wall times at the last refresh, spread the same way. A short run has fewer dyadic
    levels to keep than a run to 10⁹ episodes, so the measured cost is a little below the long runs'."""
    config = load_config(str(REPO / "config.yaml"), str(REPO / "schemas" / "config.schema.yaml"))
    require_scale(config, "power")
    compiled, python, jobs, baseline_jobs = {}, {}, [], []
    for regime in scale_regimes(config):
        for part in run_parts(config, regime):
            seconds = [STARTUP_SECONDS, STARTUP_SECONDS]
            for run in runs_of_part(config, part):
                cost = job_cost(config, run)
                if config["regimes"][regime]["kind"] != "cmdp":
                    seconds = [s + cost.simulation_seconds for s in seconds]
                    continue
                key = f"{regime}/{run.algorithm}/{run.instance}"
                if key not in compiled:
                    compiled[key], python[key] = power_episode_seconds(
                        config, run, n_episodes, n_baseline, seed
                    )
                seconds = [seconds[0] + cost.rounds * compiled[key], seconds[1] + cost.rounds * python[key]]
            jobs.append(seconds[0])
            baseline_jobs.append(seconds[1])
    value, baseline = wall_seconds(jobs, workers) / 3600, wall_seconds(baseline_jobs, workers) / 3600
    by_unit_costs = [s for e in estimate(config) for s in e.job_seconds]
    archived = [
        s + STARTUP_SECONDS
        for runs in archived_run_seconds(config, REPO / ARCHIVE_ROOT).values()
        for s in runs
    ]
    return {
        "name": "cmdp_power_scale",
        "metric": f"projected_wall_time_on_{workers}_cores",
        "value": round(value, 3),
        "unit": "h",
        "baseline": "python_episode_loop",
        "baseline_value": round(baseline, 1),
        "ratio": round(baseline / value, 1),
        "run_jobs": len(jobs),
        "us_per_episode": {key: round(1e6 * s, 3) for key, s in compiled.items()},
        "baseline_us_per_episode": {key: round(1e6 * s, 1) for key, s in python.items()},
        "episodes": n_episodes,
        "baseline_episodes": n_baseline,
        "unit_costs_h": round(wall_seconds(by_unit_costs, workers) / 3600, 3),
        "last_refresh_h": round(wall_seconds(archived, workers) / 3600, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5000)
    parser.add_argument("--warmup", type=int, default=5000)
    parser.add_argument("--baseline-episodes", type=int, default=50)
    parser.add_argument("--run-episodes", type=int, default=20000)
    parser.add_argument("--baseline-run-episodes", type=int, default=None, help="default: --run-episodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--instances", nargs="+", default=list(INSTANCES), choices=list(INSTANCES))
    parser.add_argument("--power-episodes", type=int, default=200_000, help="cmdp_power_scale's runs")
    parser.add_argument("--power-baseline-episodes", type=int, default=2000, help="and its Python loops")
    args = parser.parse_args()
    for name in args.instances:
        result = run(name, INSTANCES[name], args.episodes, args.warmup, args.baseline_episodes, args.seed)
        print(json.dumps(result), flush=True)
        spec = EPISODE_INSTANCES[name]
        n_baseline = args.baseline_run_episodes or args.run_episodes
        row = run_episodes(name, spec, args.run_episodes, n_baseline, args.seed)
        print(json.dumps(row), flush=True)
    print(json.dumps(power_scale(args.power_episodes, args.power_baseline_episodes, args.seed)), flush=True)


if __name__ == "__main__":
    main()
