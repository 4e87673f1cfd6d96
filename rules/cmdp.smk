# Paper 000 (constrained MDPs): instance generation and runs.


rule cmdp_instance:
    """Build one CMDP instance (P, r̄, Ḡ at the requested ρ, OPT, the r_t/G_t sequences) from its config entry."""
    output:
        INSTANCE,
    params:
        library=CMDP_LIBRARY,
        spec=instance_spec,
    log:
        "logs/instances/{regime}/{instance}.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    wildcard_constraints:
        regime=one_of(CMDP_REGIMES),
    script:
        "../scripts/make_cmdp_instance.py"


rule cmdp_run:
    """Run PDGD-OPS (or UC-O-GDPS alone) on one instance at one horizon for a batch of seeds."""
    input:
        instance=INSTANCE,
    output:
        RUN,
    params:
        library=CMDP_LIBRARY,
        seeds=run_seeds_of_batch,
        regime=regime_config,
    log:
        "logs/runs/{regime}/{instance}/{algorithm}/{constants}/T~{T}/seeds~{batch}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{instance}/{algorithm}/{constants}/T~{T}/seeds~{batch}.tsv"
    resources:
        runtime=cmdp_runtime_minutes,
        mem_mb=cmdp_mem_mb,
    group:
        "cmdp_runs"
    conda:
        "../envs/regretlab.yaml"
    wildcard_constraints:
        regime=one_of(CMDP_REGIMES),
    script:
        "../scripts/run_cmdp.py"
