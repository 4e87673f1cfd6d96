"""Snakemake adapter: config entry → constrained-MDP instance file (JSON)."""

from regretlab.cmdp.runs import write_instance_file
from regretlab.logs import job_log

with job_log(snakemake) as log:
    regime, name = snakemake.wildcards.regime, snakemake.wildcards.instance
    numbers = write_instance_file(regime, name, snakemake.params.spec, snakemake.output[0])
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
