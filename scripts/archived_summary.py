"""Snakemake adapter: archive/power/<regime>/ → its status, aggregate table, exponent fits and figure."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.workflow.archive import ARCHIVE_ROOT, summarise_archive

    regime = snakemake.wildcards.regime
    status = summarise_archive(
        regime,
        snakemake.params.entry,
        Path(ARCHIVE_ROOT, regime),
        snakemake.input.instances,
        snakemake.params.bootstrap_resamples,
        dict(snakemake.output.items()),
    )
    log.info("%s: %s", regime, "fresh" if status["fresh"] else "stale: " + "; ".join(status["reasons"]))
