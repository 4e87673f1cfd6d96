# Paper 001 (graph-feedback bandits): instance generation and runs.
BANDIT_REGIMES = regimes_of_kind(config, "bandit")

# One instance job per regime (every instance file of it, in one process: the imports are paid once). A rule's
# output cannot depend on a wildcard's value, so the rule is written once and defined per regime.
for regime in BANDIT_REGIMES:

    rule:
        """Build a regime's bandit instances (feedback graph, losses, graph numbers) from its config entry."""
        name:
            f"bandit_instances_{regime}"
        input:
            code=library_code("make_bandit_instance.py"),
        output:
            instance_files(regime),
        params:
            regime=regime,
            instances=config["regimes"][regime]["instances"],
            draws=draws_of(regime, config["regimes"][regime]),
        log:
            f"logs/instances/{regime}.log",
        conda:
            "../envs/regretlab.yaml"
        localrule: True
        script:
            "../scripts/make_bandit_instance.py"


rule bandit_run:
    """Run one algorithm (each of its constants presets) on its part of the instances, horizons and seeds of a
    regime."""
    input:
        instances=regime_instances,
        code=library_code("run_bandit.py", learners="own", entries="own"),
    output:
        directory(RUN_PART),
    params:
        runs=runs_of_run_part,
        regime=regime_run_config,
        registry_entries=registry_entries("run_bandit.py", learners="own", entries="own"),
    log:
        "logs/runs/{regime}/{algorithm}/part~{part}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{algorithm}/part~{part}.tsv"
    resources:
        runtime=run_runtime_minutes,
        mem_mb=run_mem_mb,
    group:
        "bandit_runs"
    conda:
        "../envs/regretlab.yaml"
    wildcard_constraints:
        regime=one_of(BANDIT_REGIMES),
    script:
        "../scripts/run_bandit.py"
