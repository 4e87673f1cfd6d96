# Helpers shared by every rule: config validation and the functions that map wildcards to files.
import sys
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

from regretlab.workflow.config import (
    ConfigError,
    load_schema,
    regime_bounds,
    regimes_of_kind,
    run_config,
    run_file,
    scale_regimes,
    validate_config,
)
from regretlab.workflow.jobs import run_parts, RunPart, runs_of_part
from regretlab.workflow.imports import job_code, job_entries
from regretlab.registry.theory import POWER_SEARCHES
from regretlab.core.seeding import draws_of

# The whole config — schema and cross-field rules (regretlab.workflow.checks) — is checked here, while the Snakefile is
# parsed: a bad config stops Snakemake before the DAG is built, with one line per problem and no traceback.
SCHEMA = Path(workflow.basedir) / "schemas" / "config.schema.yaml"
try:
    validate_config(config, SCHEMA)
except ConfigError as error:
    sys.exit("\n".join(f"regretlab: {line}" for line in str(error).splitlines()))

# The regimes the scale runs: every one, or at scale power those with a power grid (regretlab.workflow.config).
REGIMES = scale_regimes(config)
# Every field a regime entry can have (the schema's): the summary job gets each as a parameter of its own.
REGIME_FIELDS = list(load_schema(SCHEMA)["$defs"]["regime"]["properties"])

# Figures a kind's rules add to the run's targets (rule all), besides the regimes' own.
KIND_FIGURES = []

# Every file pattern of the workflow, named once.
INSTANCE = "results/instances/{regime}/{instance}.json"
# One run job = part {part} of one algorithm's runs in a regime, every constants preset on every instance, horizon
# and seed batch (regretlab.workflow.jobs.RunPart: all of them unless `job_minutes` cuts them); its directory holds
# one table per run: {constants}/{instance}/T~{T}/seeds~{first}-{last}.parquet.
RUN_PART = "results/runs/{regime}/{algorithm}/part~{part}"
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
    part=r"\d+",


def regime_field(field):
    """A params function: one field of the regime's entry, keyed by its config path. Snakemake prints a
    changed parameter whole, so a rerun reason then reads `before: {'regimes.X.theorem': 'old'} now: {…}`
    (scripts/regime_summary.py puts the entry back together)."""

    def value(wildcards):
        return {f"regimes.{wildcards.regime}.{field}": config["regimes"][wildcards.regime].get(field)}

    return value


def regime_run_config(wildcards):
    """What a run job is passed of its regime's entry: kind and instances (regretlab.workflow.config.run_config), so
    that a title, description, bound or another scale's grid reruns no simulation."""
    return run_config(config["regimes"][wildcards.regime])


def job_scope(wildcards, learners, entries):
    """What a job builds and reads (regretlab.workflow.imports.job_code): the learners it builds, "none", "own" (a run
    job's algorithm) or "all", and the registry entries it reads: "none", "own" (a run job's algorithm's),
    "regime" (a summary's: its regime's algorithms and bounds), "searched" (the bounds the config's power
    searches read, config power_searches of regretlab.registry.theory.POWER_SEARCHES) or "all" (every
    registry, whole)."""
    builds = (wildcards.algorithm,) if learners == "own" else {"none": (), "all": None}[learners]
    if entries == "own":
        names = (wildcards.algorithm,)
    elif entries == "regime":
        entry = config["regimes"][wildcards.regime]
        names = tuple(sorted({*entry["algorithms"], *regime_bounds(entry)}))
    elif entries == "searched":
        chosen = config["power_searches"]
        names = tuple(sorted(POWER_SEARCHES if chosen is None else chosen))
    else:
        names = {"none": (), "all": None}[entries]
    return builds, names


def library_code(script, learners="none", entries="all"):
    """An input function: the library files the job's script runs (regretlab.workflow.imports.job_code, from the
    import graph), with the learners it builds and the registry entries it reads (job_scope). As inputs,
    an edit to one of them reruns the job, and Snakemake names the file ("Updated input files: …");
    unchanged contents rerun nothing (checksums). A registry the job reads some entries of is no input:
    registry_entries stands for it."""
    path = Path(workflow.basedir) / "scripts" / script

    def code(wildcards):
        return list(job_code(path, *job_scope(wildcards, learners, entries)))

    return code


def registry_entries(script, learners="none", entries="all"):
    """A params function, beside library_code's input: the digests of the registry entries the job reads
    and of the rest of their modules (regretlab.workflow.imports.job_entries), so that adding or editing another
    entry reruns nothing and editing one it reads reruns it, the reason naming the entry ("Params have
    changed since last execution: … 'exp3g': '…'")."""
    path = Path(workflow.basedir) / "scripts" / script

    def digests(wildcards):
        return job_entries(path, *job_scope(wildcards, learners, entries))

    return digests


def run_part(wildcards):
    """The run job a rule's wildcards name."""
    return RunPart(wildcards.regime, wildcards.algorithm, int(wildcards.part))


def runs_of_run_part(wildcards):
    """The runs one run job simulates, preset after preset: constants preset, instance, horizon, seeds and the
    table's path in its directory."""
    return [
        {
            "constants": job.constants,
            "instance": job.instance,
            "T": job.T,
            "seeds": list(job.seeds),
            "file": run_file(job),
        }
        for job in runs_of_part(config, run_part(wildcards))
    ]


def regime_runs(wildcards):
    """Every run job directory of a regime at the configured scale and job size."""
    return [RUN_PART.format(**asdict(part)) for part in run_parts(config, wildcards.regime)]


def regime_run_tables(wildcards):
    """Every run table the run jobs of a regime write (the aggregate checks that they hold no other)."""
    return [
        f"{RUN_PART.format(**asdict(part))}/{run_file(job)}"
        for part in run_parts(config, wildcards.regime)
        for job in runs_of_part(config, part)
    ]


def all_run_tables():
    """Every run table the config's run jobs write, at its scale."""
    return {table for regime in REGIMES for table in regime_run_tables(SimpleNamespace(regime=regime))}


def instance_files(regime):
    """The instance files of a regime (the file stem is the instance name)."""
    return expand(INSTANCE, regime=regime, instance=config["regimes"][regime]["instances"])


def regime_instances(wildcards):
    """The instance files of the wildcards' regime."""
    return instance_files(wildcards.regime)


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


def targets():
    """What the run produces: at scale power, the archive of the regimes with a power grid; at every other
    scale, every regime's table and figure, the archived regimes' (drawn from the archive), the evidence,
    verdict, crossover, falsification and power-search tables. The aggregate tables are targets too, so that a fresh clone
    (figures committed, results/ not) recomputes everything instead of trusting the committed figures; so
    are the instance files, so that a deleted one is rebuilt (Snakemake leaves a missing intermediate file
    alone while what was made from it is up to date) along with what reads it."""
    if config["scale"] == "power":
        return {"archive": expand(ARCHIVE, regime=REGIMES)}
    return {
        "instances": all_instances(),
        "summaries": expand(SUMMARY, regime=REGIMES),
        "figures": all_figures(),
        # Its figures too: Snakemake reruns a job for a missing output only when that output is wanted.
        "archived": [
            *expand(ARCHIVED_SUMMARY, regime=ARCHIVED),
            *expand(ARCHIVED_FIGURE, regime=ARCHIVED, ext=["png", "pdf"]),
        ],
        "tables": rules.tables.output,
        "evidence": rules.evidence_table.output,
        "crossover": rules.crossover.output,
        "falsification": rules.falsification.output,
        "power_search": rules.power_search.output,
        "kind_figures": KIND_FIGURES,
    }
