"""Snakemake adapter: every regime's aggregate table, exponent fits and instance files → figures/evidence.csv,
.md, .png and .pdf and one page per claim (figures/claims/)."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.analysis.aggregate import ARCHIVED_SUFFIX
    from regretlab.analysis.evidence import headline, write_evidence_table
    from regretlab.analysis.tables import read_typed_csv
    from regretlab.core.io import read_json

    instances = {
        (Path(path).parent.name, Path(path).stem): read_json(path) for path in snakemake.input.instances
    }
    summaries, exponents = list(snakemake.input.summaries), list(snakemake.input.exponents)
    # The power-scale archives (regretlab.workflow.archive): a fresh one's tables count, under <regime>~power.
    archives = {}
    for path in snakemake.input.archived:
        regime = Path(path).name.removesuffix(f"{ARCHIVED_SUFFIX}.status.json")
        archives[regime] = status = read_json(path)
        if status["fresh"]:
            summaries.append(path.replace(".status.json", ".parquet"))
            exponents.append(path.replace(".status.json", ".exponents.parquet"))
            instances |= {(regime + ARCHIVED_SUFFIX, name): value
                          for (owner, name), value in list(instances.items()) if owner == regime}  # fmt: skip
    table = write_evidence_table(
        [pd.read_parquet(path) for path in summaries],
        [pd.read_parquet(path) for path in exponents],
        instances,
        snakemake.config,
        snakemake.output.csv,
        snakemake.output.md,
        snakemake.output.pages,
        snakemake.output.png,
        snakemake.output.pdf,
        read_typed_csv(snakemake.input.falsification),
        archives,
        read_typed_csv(snakemake.input.power_search),
    )
    log.info("wrote %s: %s", snakemake.output.csv, headline(table))
