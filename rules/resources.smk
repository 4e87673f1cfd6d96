# Resource requests of the run jobs, computed from the size of each job so that a cluster gets honest requests
# at every scale (profiles/slurm turns them into sbatch's --time and --mem; locally they only inform
# Snakemake's scheduler). The model — rounds × size × measured unit cost, a safety factor and a startup
# allowance — lives in regretlab.workflow.cost, which `regretlab estimate` uses too, so the estimate of a scale and
# the requests of its jobs agree. Defaults for every other rule live in the profiles.
from regretlab.workflow import cost


def run_runtime_minutes(wildcards, attempt):
    """Wall-time request of one run job (any kind), in minutes (regretlab.workflow.cost.runtime_minutes)."""
    return cost.runtime_minutes(config, run_part(wildcards), attempt)


def run_mem_mb(wildcards, attempt):
    """Memory request of one run job (any kind), in MB (regretlab.workflow.cost.mem_mb)."""
    return cost.mem_mb(config, run_part(wildcards), attempt)

