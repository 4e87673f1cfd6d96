# The toy kind (docs/add-a-kind.md): instance generation and runs.
TOY_REGIMES = regimes_of_kind(config, "toy")

# One instance job per regime, as for the bandit instances (rules/bandits.smk).
for regime in TOY_REGIMES:

    rule:
        """Build a regime's toy instances (the arms' loss means) from its config entry."""
        name:
            f"toy_instances_{regime}"
        input:
            code=library_code("make_toy_instance.py", entries="none"),
        output:
            instance_files(regime),
        params:
            regime=regime,
            instances=config["regimes"][regime]["instances"],
            registry_entries=registry_entries("make_toy_instance.py", entries="none"),
        log:
            f"logs/instances/{regime}.log",
        conda:
            "../envs/regretlab.yaml"
        localrule: True
        script:
            "../scripts/make_toy_instance.py"


rule toy_run:
    """Run one algorithm (each of its constants presets) on its part of the instances, horizons and seeds of a
    regime."""
    input:
        instances=regime_instances,
        code=library_code("run_toy.py", learners="own", entries="own"),
    output:
        directory(RUN_PART),
    params:
        runs=runs_of_run_part,
        regime=regime_run_config,
        registry_entries=registry_entries("run_toy.py", learners="own", entries="own"),
    log:
        "logs/runs/{regime}/{algorithm}/part~{part}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{algorithm}/part~{part}.tsv"
    resources:
        runtime=run_runtime_minutes,
        mem_mb=run_mem_mb,
    conda:
        "../envs/regretlab.yaml"
    wildcard_constraints:
        regime=one_of(TOY_REGIMES),
    script:
        "../scripts/run_toy.py"
