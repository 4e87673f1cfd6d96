"""Snakemake adapter: a regime's run tables → its aggregate table and exponent fits → its figure (PNG and
PDF), drawn from the tables as written (one process per regime: the imports are paid once)."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.analysis.aggregate import aggregate_regime
    from regretlab.analysis.figures import plot_regime

    out, params = snakemake.output, dict(snakemake.params.items())
    n_resamples = params.pop("bootstrap_resamples")
    params.pop("registry_entries")  # a rerun trigger only: what the job reads of the registries
    run_tables = params.pop("run_tables")  # the tables the run jobs write, to check the directories against
    # The other parameters are the regime's fields, one each, as {"regimes.<regime>.<field>": value} (None:
    # not set), so that a rerun reason names the field (rules/common.smk, regime_field).
    entry = {field: value for field, param in params.items() for value in param.values() if value is not None}
    aggregate_regime(
        regime=snakemake.wildcards.regime,
        regime_config=entry,
        instance_paths=snakemake.input.instances,
        run_dirs=snakemake.input.runs,
        n_resamples=n_resamples,
        summary_path=out.summary,
        exponents_path=out.exponents,
        run_tables=run_tables,
    )
    log.info("aggregated the runs of %d run jobs", len(snakemake.input.runs))
    plot_regime(pd.read_parquet(out.summary), pd.read_parquet(out.exponents), out.png, out.pdf)
    log.info("drew %s", out.png)
