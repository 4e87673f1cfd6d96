# Resource requests of the run jobs, computed from the size of each job so that a cluster gets honest requests
# at every scale (profiles/slurm turns them into sbatch's --time and --mem; locally they only inform
# Snakemake's scheduler). Nothing here changes a result. Defaults for every other rule live in the profiles.
#
# Runtime of one run job, in minutes:
#   attempt * ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * T * n_seeds * K * cost_per_round_per_arm / 60)
# where n_seeds is the number of seeds of the job's batch (config `seeds_per_job`, fewer in the last batch),
# K the instance's number of arms and the cost the algorithm's entry below. `attempt` is 1, then 2 on the
# first retry (profiles/slurm sets `retries: 1`), so a job killed at its time limit is retried with more.
# Memory of one run job, in MB: attempt * (RUN_BASE_MEM_MB + the loss chunk the simulation keeps, CHUNK_COPIES
# copies of CHUNK_ROUNDS × K float64). A run's memory does not grow with T (README, "How it works").
import math
from functools import cache

import numpy as np

from regretlab.bandits.instance import GRAPH_FAMILIES
from regretlab.bandits.simulate import CHUNK_ROUNDS

#: Cost of one simulated round per arm, in microseconds, by algorithm (the others: ~0.1 µs measured at K = 16,
#: benchmarks/bench_bandits.py and the learners' own timings). Exp3.G measured ~2 M rounds/s at
#: K = 16 on the reference laptop (README), i.e. ~0.03 µs per arm and round (4 seeds of T = 10^7 at K = 16
#: in 22 s); 0.1 leaves room for slower cluster cores before the safety factor.
ROUND_COST_US_PER_ARM = {
    "exp3g": 0.1,
    "theorem2": 0.2,
    "theorem3": 0.2,
    "algorithm1": 0.2,
    "algorithm4": 0.2,
    "algorithm5": 0.2,
}
#: For an algorithm not yet measured (add it above from benchmarks/ once known): ten times Exp3.G's.
UNMEASURED_ROUND_COST_US_PER_ARM = 1.0
#: Multiplies the estimated simulation time: shared nodes, slower CPUs, file-system latency.
RUNTIME_SAFETY_FACTOR = 3
#: Fixed cost of every run job: interpreter start, imports, numba compilation, reading and writing files
#: (~5 s measured for a T = 1000 job).
RUN_STARTUP_MINUTES = 1
#: Memory of a run job before its loss chunk, in MB (~300 MB peak measured; headroom for other platforms).
RUN_BASE_MEM_MB = 1024
#: Copies of the per-chunk loss matrix a run may hold at once (the draw, its conversions, the kernel's view).
CHUNK_COPIES = 4


@cache
def instance_arms(regime, instance):
    """K of an instance: its graph built from the config entry (a random family draws from a throwaway
    generator: K does not depend on the draw)."""
    graph = config["regimes"][regime]["instances"][instance]["graph"]
    return GRAPH_FAMILIES[graph["family"]](graph, np.random.default_rng(0)).n_arms


def run_runtime_minutes(wildcards, attempt):
    """Wall-time request of one run job, in minutes (see the top of this file)."""
    cost_us = ROUND_COST_US_PER_ARM.get(wildcards.algorithm, UNMEASURED_ROUND_COST_US_PER_ARM)
    rounds = int(wildcards.T) * len(run_seeds_of_batch(wildcards))
    seconds = rounds * instance_arms(wildcards.regime, wildcards.instance) * cost_us * 1e-6
    return attempt * math.ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60)


def run_mem_mb(wildcards, attempt):
    """Memory request of one run job, in MB (see the top of this file)."""
    chunk_bytes = CHUNK_COPIES * CHUNK_ROUNDS * instance_arms(wildcards.regime, wildcards.instance) * 8
    return attempt * math.ceil(RUN_BASE_MEM_MB + chunk_bytes / 2**20)


#: Cost of one constrained-MDP episode, in microseconds, per (state, action) pair of the instance: the
#: warm-started projection, the true-occupancy recursion and the evaluator's bookkeeping (~1–3 ms per episode
#: measured for the small instances of config.yaml, |X||A| ≈ 30).
EPISODE_COST_US_PER_PAIR = 100.0


def cmdp_runtime_minutes(wildcards, attempt):
    """Wall-time request of one CMDP run job, in minutes: as for the bandit runs, per (x, a) pair."""
    spec = config["regimes"][wildcards.regime]["instances"][wildcards.instance]
    pairs = (2 + (spec["n_layers"] - 1) * spec["states_per_layer"]) * spec["n_actions"]
    episodes = int(wildcards.T) * len(run_seeds_of_batch(wildcards))
    seconds = episodes * pairs * EPISODE_COST_US_PER_PAIR * 1e-6
    return attempt * math.ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60)


def cmdp_mem_mb(wildcards, attempt):
    """Memory request of one CMDP run job, in MB: the interpreter and its libraries dominate."""
    return attempt * RUN_BASE_MEM_MB
