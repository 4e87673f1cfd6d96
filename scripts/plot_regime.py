"""Snakemake adapter: aggregate table + exponent fits → figure (PNG and PDF)."""

import pandas as pd

from regretlab.analysis.figures import plot_regime
from regretlab.logs import log_to

log = log_to(snakemake.log[0])
plot_regime(
    pd.read_parquet(snakemake.input.summary),
    pd.read_parquet(snakemake.input.exponents),
    snakemake.output.png,
    snakemake.output.pdf,
)
log.info("drew %s", snakemake.output.png)
