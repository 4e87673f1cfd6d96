"""Snakemake adapter: a regime's toy instance files → the run tables of one run job, preset after preset."""

from itertools import groupby
from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    from regretlab.core.run_sets import run_set_and_write
    from regretlab.core.snapshots import SnapshotPolicy
    from regretlab.toy import runs as pipeline

    w = snakemake.wildcards
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
            snapshots=SnapshotPolicy(interval_s=60 * snakemake.config["snapshot_minutes"]),
        )
