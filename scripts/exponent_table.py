"""Snakemake adapter: every regime's exponent fits → figures/exponents.csv and .md."""

import pandas as pd

from regretlab.analysis.tables import write_exponent_table
from regretlab.logs import job_log

with job_log(snakemake) as log:
    write_exponent_table(
        [pd.read_parquet(path) for path in snakemake.input], snakemake.output.csv, snakemake.output.md
    )
    log.info("wrote %s", snakemake.output.csv)
