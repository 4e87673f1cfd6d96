"""Snakemake adapter: every regime's aggregate table → figures/crossover.csv, .md and its figure (where the
small-loss learners beat the minimax learner of their Table 1 column)."""

import pandas as pd

from regretlab.analysis.crossover import write_crossover
from regretlab.logs import job_log

with job_log(snakemake) as log:
    out = snakemake.output
    table = write_crossover(
        [pd.read_parquet(path) for path in snakemake.input.summaries], out.csv, out.md, out.png, out.pdf
    )
    log.info("wrote %s: %d points, %d where the learner beats its reference", out.csv, len(table),
             int((table["outcome"] == "beats").sum()))
