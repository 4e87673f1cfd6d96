"""Snakemake adapter: every regime's aggregate table, exponent fits and instance files → figures/evidence.csv,
.md, .png and .pdf and one page per claim (figures/claims/)."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.analysis.evidence import headline, write_evidence_table
    from regretlab.analysis.tables import read_typed_csv
    from regretlab.core.io import read_json

    instances = {
        (Path(path).parent.name, Path(path).stem): read_json(path) for path in snakemake.input.instances
    }
    table = write_evidence_table(
        [pd.read_parquet(path) for path in snakemake.input.summaries],
        [pd.read_parquet(path) for path in snakemake.input.exponents],
        instances,
        snakemake.config,
        snakemake.output.csv,
        snakemake.output.md,
        snakemake.output.pages,
        snakemake.output.png,
        snakemake.output.pdf,
        read_typed_csv(snakemake.input.falsification),
    )
    log.info("wrote %s: %s", snakemake.output.csv, headline(table))
