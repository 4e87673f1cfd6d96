"""Snakemake adapter: CMDP instance file + seed batch → run table (parquet, a row per seed and checkpoint)."""

from regretlab.cmdp.runs import instance_at_horizon, run_and_write
from regretlab.io import read_json
from regretlab.logs import job_log

with job_log(snakemake) as log:
    w = snakemake.wildcards
    summary = run_and_write(
        regime=w.regime,
        instance_name=w.instance,
        instance=instance_at_horizon(
            read_json(snakemake.input.instance),
            snakemake.params.regime["instances"][w.instance],
            w.regime,
            w.instance,
            int(w.T),
        ),
        algorithm=w.algorithm,
        constants=w.constants,
        horizon=int(w.T),
        seeds=snakemake.params.seeds,
        config=snakemake.params.regime,
        path=snakemake.output[0],
    )
    log.info("%s", summary)
