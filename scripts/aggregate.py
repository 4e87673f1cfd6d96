"""Snakemake adapter: a regime's run tables → its aggregate table and exponent fits."""

from regretlab.analysis.aggregate import aggregate_regime
from regretlab.logs import job_log

with job_log(snakemake) as log:
    aggregate_regime(
        regime=snakemake.wildcards.regime,
        regime_config=snakemake.params.regime,
        instance_paths=snakemake.input.instances,
        run_dirs=snakemake.input.runs,
        n_resamples=snakemake.params.bootstrap_resamples,
        summary_path=snakemake.output.summary,
        exponents_path=snakemake.output.exponents,
    )
    log.info("aggregated the runs of %d run jobs", len(snakemake.input.runs))
