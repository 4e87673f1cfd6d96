"""Snakemake adapter: a regime's config entry → its constrained-MDP instance files (JSON), one each."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.cmdp.instance_builder import write_instance_file

    regime = snakemake.params.regime
    for path in snakemake.output:
        name = Path(path).stem
        numbers = write_instance_file(regime, name, snakemake.params.instances[name], path)
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
