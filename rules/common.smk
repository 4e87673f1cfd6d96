# Helpers shared by every rule: config validation and the functions that map wildcards to files.
import sys
from dataclasses import asdict
from pathlib import Path

from regretlab.config import (
    ConfigError,
    RunSet,
    batch_seeds,
    jobs_of,
    regimes_of_kind,
    run_file,
    run_sets,
    validate_config,
)
from regretlab.io import source_fingerprint
from regretlab.seeding import draws_of

# The whole config — schema and cross-field rules (regretlab.checks) — is checked here, while the Snakefile is
# parsed: a bad config stops Snakemake before the DAG is built, with one line per problem and no traceback.
try:
    validate_config(config, Path(workflow.basedir) / "schemas" / "config.schema.yaml")
except ConfigError as error:
    sys.exit("\n".join(f"regretlab: {line}" for line in str(error).splitlines()))

REGIMES = list(config["regimes"])
# Fingerprints of the library code each family of rules runs, passed to the rules as a parameter: editing the
# library reruns the jobs that depend on the edited part (and only those).
CORE = ("seeding.py", "io.py", "logs.py", "checkpoints.py", "run_sets.py", "__init__.py")
BANDIT_LIBRARY = source_fingerprint("bandits", "graphs", *CORE)
CMDP_LIBRARY = source_fingerprint("cmdp", *CORE)
LIBRARY = source_fingerprint()
BANDIT_REGIMES = regimes_of_kind(config, "bandit")
CMDP_REGIMES = regimes_of_kind(config, "cmdp")

# Every file pattern of the workflow, named once.
INSTANCE = "results/instances/{regime}/{instance}.json"
# One run job = one algorithm and constants preset on every instance, horizon and seed batch of a regime
# (regretlab.config.RunSet); its directory holds one table per run: {instance}/T~{T}/seeds~{batch}.parquet.
RUN_SET = "results/runs/{regime}/{algorithm}/{constants}"
SUMMARY = "results/summary/{regime}.parquet"
EXPONENTS = "results/summary/{regime}.exponents.parquet"
FIGURE = "figures/{regime}.{ext}"


def one_of(names):
    """A wildcard regex matching exactly the given names (and nothing when there are none)."""
    return "|".join(names) if names else "(?!)"


wildcard_constraints:
    regime=one_of(REGIMES),
    instance=r"[A-Za-z0-9_]+",
    algorithm=r"[a-z0-9_]+",
    constants=r"[a-z]+",


def regime_config(wildcards):
    """The validated config entry of the regime."""
    return config["regimes"][wildcards.regime]


def instance_spec(wildcards):
    """The config entry of one instance of a regime."""
    return config["regimes"][wildcards.regime]["instances"][wildcards.instance]


def instance_draws(wildcards):
    """The regime whose SeedSequences key the regime's instances (itself unless it has draws_from)."""
    return draws_of(wildcards.regime, config["regimes"][wildcards.regime])


def run_set(wildcards):
    """The run job a rule's wildcards name."""
    return RunSet(wildcards.regime, wildcards.algorithm, wildcards.constants)


def runs_of_set(wildcards):
    """The runs one run job simulates: instance, horizon, seeds and the table's path in its directory."""
    return [
        {
            "instance": job.instance,
            "T": job.T,
            "seeds": batch_seeds(config, job.regime, job.batch, job.T),
            "file": run_file(job),
        }
        for job in jobs_of(config, run_set(wildcards))
    ]


def regime_runs(wildcards):
    """Every run job directory of a regime at the configured scale."""
    return [RUN_SET.format(**asdict(job)) for job in run_sets(config, wildcards.regime)]


def regime_instances(wildcards):
    """The instance files of a regime (the file stem is the instance name)."""
    return expand(INSTANCE, regime=wildcards.regime, instance=config["regimes"][wildcards.regime]["instances"])


def all_figures():
    """Every figure the default target produces."""
    return expand(FIGURE, regime=REGIMES, ext=["png", "pdf"])


def all_instances():
    """The instance files of every regime (the evidence table extrapolates each claim's curves from them)."""
    return [
        path
        for regime in REGIMES
        for path in expand(INSTANCE, regime=regime, instance=config["regimes"][regime]["instances"])
    ]
