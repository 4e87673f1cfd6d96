"""Snakemake adapter: every regime's exponent fits and aggregate table → figures/exponents.csv and .md (the
empirical Table 1) and figures/verdicts.csv and .md (verdict counts per bound)."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.analysis.tables import write_exponent_table
    from regretlab.analysis.verdicts import write_verdict_table

    inputs, out = snakemake.input, snakemake.output
    write_exponent_table([pd.read_parquet(p) for p in inputs.exponents], out.exponents_csv, out.exponents_md)
    log.info("wrote %s", out.exponents_csv)
    write_verdict_table([pd.read_parquet(p) for p in inputs.summaries], out.verdicts_csv, out.verdicts_md)
    log.info("wrote %s", out.verdicts_csv)
