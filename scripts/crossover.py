"""Snakemake adapter: every regime's aggregate table → figures/crossover.csv, .md and its figure (where the
small-loss learners beat the minimax learner of their Table 1 column)."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.analysis.crossover import write_crossover

    out = snakemake.output
    table = write_crossover(
        [pd.read_parquet(path) for path in snakemake.input.summaries], out.csv, out.md, out.png, out.pdf
    )
    beating = int((table["outcome"] == "beats").sum())
    log.info("wrote %s: %d points, %d where the learner beats its reference", out.csv, len(table), beating)
