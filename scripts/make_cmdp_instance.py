"""Snakemake adapter: config entry → constrained-MDP instance file (JSON)."""

import numpy as np

from regretlab.cmdp.runs import build_instance
from regretlab.io import write_json
from regretlab.logs import job_log
from regretlab.seeding import job_seed_sequence

with job_log(snakemake) as log:
    regime, name = snakemake.wildcards.regime, snakemake.wildcards.instance
    rng = np.random.default_rng(job_seed_sequence(regime, name, "instance"))
    instance = build_instance(snakemake.params.spec, rng)
    write_json(snakemake.output[0], instance)
    numbers = instance["numbers"]
    log.info("instance %s/%s: %s", regime, name, numbers)
    log.info(
        "%s family: binds=%s, λ*=%s, OPT=%.6g vs unconstrained %.6g (violating by %.4g per episode)",
        numbers["family"],
        numbers["binds"],
        numbers["lambda_star"],
        numbers["opt"],
        numbers["opt_unconstrained"],
        numbers["unconstrained_violation"],
    )
