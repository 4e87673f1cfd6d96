"""Snakemake adapter: config entry → bandit instance file (JSON)."""

import numpy as np

from regretlab.bandits.instance import build_instance
from regretlab.io import write_json
from regretlab.logs import job_log
from regretlab.seeding import job_seed_sequence

with job_log(snakemake) as log:
    regime, name = snakemake.wildcards.regime, snakemake.wildcards.instance
    instance = build_instance(
        snakemake.params.spec, np.random.default_rng(job_seed_sequence(regime, name, "instance"))
    )
    write_json(snakemake.output[0], instance.to_dict())
    log.info("instance %s/%s: %s", regime, name, instance.numbers)
