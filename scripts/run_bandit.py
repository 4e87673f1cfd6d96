"""Snakemake adapter: instance file + seed batch → run table (parquet, one row per seed and checkpoint)."""

from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.simulate import run_and_write
from regretlab.io import read_json
from regretlab.logs import job_log

with job_log(snakemake) as log:
    w = snakemake.wildcards
    summary = run_and_write(
        regime=w.regime,
        instance_name=w.instance,
        instance=BanditInstance.from_dict(read_json(snakemake.input.instance)),
        algorithm=w.algorithm,
        constants=w.constants,
        horizon=int(w.T),
        seeds=snakemake.params.seeds,
        config=snakemake.params.regime,
        path=snakemake.output[0],
    )
    log.info("%s", summary)
