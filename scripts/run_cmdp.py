"""Snakemake adapter: a regime's CMDP instance files → the run tables of one run job (one algorithm and
constants preset on every instance, horizon and seed batch; parquet, a row per seed and checkpoint)."""

from pathlib import Path

from regretlab.cmdp.runs import run_set_and_write
from regretlab.logs import job_log

with job_log(snakemake) as log:
    w = snakemake.wildcards
    run_set_and_write(
        regime=w.regime,
        algorithm=w.algorithm,
        constants=w.constants,
        instance_paths={Path(path).stem: path for path in snakemake.input.instances},
        runs=snakemake.params.runs,
        config=snakemake.params.regime,
        directory=snakemake.output[0],
        log=log,
    )
