"""Snakemake adapter: config entry → bandit instance file (JSON)."""

from regretlab.bandits.instance import write_instance_file
from regretlab.logs import job_log

with job_log(snakemake) as log:
    regime, name = snakemake.wildcards.regime, snakemake.wildcards.instance
    numbers = write_instance_file(
        regime, name, snakemake.params.spec, snakemake.output[0], draws=snakemake.params.draws
    )
    log.info("instance %s/%s: %s", regime, name, numbers)
