"""Snakemake adapter: every regime's aggregate table → figures/verdicts.csv and .md."""

import pandas as pd

from regretlab.analysis.verdicts import write_verdict_table
from regretlab.logs import log_to

log = log_to(snakemake.log[0])
write_verdict_table(
    [pd.read_parquet(path) for path in snakemake.input], snakemake.output.csv, snakemake.output.md
)
log.info("wrote %s", snakemake.output.csv)
