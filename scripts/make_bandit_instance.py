"""Snakemake adapter: a regime's config entry → its bandit instance files (JSON), one per instance."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.bandits.instance import write_instance_file

    regime = snakemake.params.regime
    for path in snakemake.output:
        name = Path(path).stem
        spec = snakemake.params.instances[name]
        numbers = write_instance_file(regime, name, spec, path, draws=snakemake.params.draws)
        log.info("instance %s/%s: %s", regime, name, numbers)
