"""Snakemake adapter: aggregate table + exponent fits → figure (PNG and PDF)."""

import pandas as pd

from regretlab.analysis.figures import plot_regime
from regretlab.logs import job_log

with job_log(snakemake) as log:
    plot_regime(
        pd.read_parquet(snakemake.input.summary),
        pd.read_parquet(snakemake.input.exponents),
        snakemake.output.png,
        snakemake.output.pdf,
    )
    log.info("drew %s", snakemake.output.png)
