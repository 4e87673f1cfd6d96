# Paper 001 (graph-feedback bandits): instance generation and runs.


rule bandit_instance:
    """Build one bandit instance (feedback graph, loss environment, graph numbers) from its config entry."""
    output:
        INSTANCE,
    params:
        library=BANDIT_LIBRARY,
        spec=instance_spec,
        draws=instance_draws,
    log:
        "logs/instances/{regime}/{instance}.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    wildcard_constraints:
        regime=one_of(BANDIT_REGIMES),
    script:
        "../scripts/make_bandit_instance.py"


rule bandit_run:
    """Run one algorithm (constants preset) on every instance, horizon and seed batch of a regime."""
    input:
        instances=regime_instances,
    output:
        directory(RUN_SET),
    params:
        library=BANDIT_LIBRARY,
        runs=runs_of_set,
        regime=regime_config,
    log:
        "logs/runs/{regime}/{algorithm}/{constants}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{algorithm}/{constants}.tsv"
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
