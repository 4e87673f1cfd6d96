"""Snakemake adapter: a power-scale regime's run tables → archive/power/<regime>/ with its provenance."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.workflow.archive import write_archive

    provenance = write_archive(
        snakemake.wildcards.regime, snakemake.params.entry, snakemake.params.run_tables, snakemake.output[0]
    )
    log.info("archived %d tables (seeds %s, %.0f CPU seconds) in %s", len(provenance["tables"]),
             provenance["seeds"], provenance["cpu_seconds"], snakemake.output[0])  # fmt: skip
