"""Snakemake adapter: a regime's toy instance entries → its instance files (JSON)."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    from regretlab.toy.instance import write_instance_file

    for path in snakemake.output:
        name = Path(path).stem
        numbers = write_instance_file(snakemake.params.regime, name, snakemake.params.instances[name], path)
        log.info("wrote %s: %s", path, numbers)
