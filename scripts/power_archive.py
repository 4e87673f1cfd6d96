"""Snakemake adapter: a power-scale regime's run tables → archive/power/<regime>/ with its provenance."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.workflow.archive import write_archive

    provenance = write_archive(
        snakemake.wildcards.regime, snakemake.params.entry, snakemake.params.run_tables, snakemake.output[0]
    )
    log.info("archived %d tables (seeds %s, runs of %.0f s wall time in all) in %s",
             len(provenance["tables"]), provenance["seeds"], sum(provenance["run_seconds"].values()),
             snakemake.output[0])  # fmt: skip
