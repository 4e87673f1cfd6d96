"""Snakemake adapter: the CMDP trajectory regimes' aggregate tables and instance files →
figures/cmdp_dual_catch_up (PNG and PDF): where PDGD-OPS's multiplier catches up with the offline one."""

from pathlib import Path

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    import pandas as pd

    from regretlab.cmdp.catch_up import write_catch_up
    from regretlab.core.io import read_json

    summaries = {Path(path).stem: pd.read_parquet(path) for path in snakemake.input.summaries}
    instances = {
        (Path(path).parent.name, Path(path).stem): read_json(path) for path in snakemake.input.instances
    }
    found = write_catch_up(summaries, instances, snakemake.output.png, snakemake.output.pdf)
    for regime, instance, constants, t, reached in found:
        where = "within the run" if reached else "its ceiling's, beyond the run"
        log.info("%s / %s (%s): ‖λ_t‖₁ reaches ‖λ*‖₁ at t ≈ %.3g (%s)", regime, instance, constants, t, where)
