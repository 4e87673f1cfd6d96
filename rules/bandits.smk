# Paper 001 (graph-feedback bandits): instance generation and runs.


rule bandit_instance:
    """Build one bandit instance (feedback graph, loss environment, graph numbers) from its config entry."""
    output:
        INSTANCE,
    params:
        library=BANDIT_LIBRARY,
        spec=instance_spec,
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
    """Run one algorithm (constants preset) on one instance at one horizon for a batch of seeds."""
    input:
        instance=INSTANCE,
    output:
        RUN,
    params:
        library=BANDIT_LIBRARY,
        seeds=run_seeds_of_batch,
        regime=regime_config,
    log:
        "logs/runs/{regime}/{instance}/{algorithm}/{constants}/T~{T}/seeds~{batch}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{instance}/{algorithm}/{constants}/T~{T}/seeds~{batch}.tsv"
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
