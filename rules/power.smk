# The power scale's archive (regretlab.workflow.archive): written by `snakemake --config scale=power`, read by
# every other scale, which draws the archived runs and enters them in the evidence table (fresh) or says why
# they no longer count (stale).
ARCHIVE = "archive/power/{regime}"
ARCHIVED_SUMMARY = "results/summary/{regime}~power.parquet"
ARCHIVED_FIGURE = "figures/{regime}~power.{ext}"

if config["scale"] == "power":
    ARCHIVED = []

    rule power_archive:
        """A power-scale regime's run tables, one seed each, copied to archive/power/ with their provenance."""
        input:
            instances=regime_instances,
            runs=regime_runs,
            code=library_code("power_archive.py"),
        output:
            directory(ARCHIVE),
        params:
            entry=lambda wildcards: config["regimes"][wildcards.regime],
            run_tables=regime_run_tables,
        log:
            "logs/archive/{regime}.log",
        conda:
            "../envs/regretlab.yaml"
        localrule: True
        script:
            "../scripts/power_archive.py"

else:
    # The config's regimes with an archive: their archived runs are drawn and, when fresh, counted.
    ARCHIVED = [regime for regime in REGIMES if Path(ARCHIVE.format(regime=regime), "provenance.json").exists()]

    rule archived_summary:
        """An archived regime's runs aggregated and drawn as a regime's (today's bounds), with its status:
        fresh (its code, instances and tables are today's) or stale (why, and the command that refreshes it)."""
        input:
            archive=lambda wildcards: sorted(str(p) for p in Path(ARCHIVE.format(**wildcards)).rglob("*") if p.is_file()),
            instances=regime_instances,
            code=library_code("archived_summary.py", entries="regime"),
        output:
            summary=ARCHIVED_SUMMARY,
            exponents="results/summary/{regime}~power.exponents.parquet",
            status="results/summary/{regime}~power.status.json",
            png=report(
                ARCHIVED_FIGURE.replace("{ext}", "png"), caption="../report/figure.rst", category="Power scale"
            ),
            pdf=ARCHIVED_FIGURE.replace("{ext}", "pdf"),
        params:
            bootstrap_resamples=config["bootstrap_resamples"],
            entry=lambda wildcards: config["regimes"][wildcards.regime],
        wildcard_constraints:
            regime=one_of(ARCHIVED),
        log:
            "logs/archive/{regime}.log",
        conda:
            "../envs/regretlab.yaml"
        localrule: True
        script:
            "../scripts/archived_summary.py"
