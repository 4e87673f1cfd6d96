"""Snakemake adapter: a regime's instance files → the run tables of one run job (its part of one algorithm's
runs in the regime, regretlab.workflow.jobs.RunPart; parquet, one row per seed and checkpoint), one constants
preset after the other."""

from itertools import groupby
from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.bandits import simulate as pipeline
    from regretlab.core.run_sets import run_set_and_write
    from regretlab.core.snapshots import SnapshotPolicy

    w = snakemake.wildcards
    # The job's runs come preset after preset (regretlab.workflow.jobs.split_runs): one run set each.
    for constants, runs in groupby(snakemake.params.runs, key=lambda run: run["constants"]):
        run_set_and_write(
            pipeline,
            regime=w.regime,
            algorithm=w.algorithm,
            constants=constants,
            instance_paths={Path(path).stem: path for path in snakemake.input.instances},
            runs=list(runs),
            config=snakemake.params.regime,
            directory=snakemake.output[0],
            log=log,
            # Read from the config, not the rule's params: changing the interval reruns nothing.
            snapshots=SnapshotPolicy(interval_s=60 * snakemake.config["snapshot_minutes"]),
        )
