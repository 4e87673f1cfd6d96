"""Snakemake adapter: every kind's search over admissible instances for the smallest T_power →
figures/power_search.csv and .md."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.analysis.power_search import write_power_search

    names = snakemake.params.names  # None: every searched bound
    chosen = None if names is None else tuple(names)
    frame = write_power_search(snakemake.output.csv, snakemake.output.md, chosen)
    for row in frame.itertuples(index=False):
        log.info("%s: T_power found %.4g (floor %.4g) on %s after %d CMDPs", row.bound, row.T_search,
                 row.T_floor, row.sizes, row.evaluations)  # fmt: skip
