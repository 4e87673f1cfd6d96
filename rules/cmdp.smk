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
    """Run PDGD-OPS (or UC-O-GDPS alone) with one constants preset on every instance, horizon and seed batch."""
    input:
        instances=regime_instances,
    output:
        directory(RUN_SET),
    params:
        library=CMDP_LIBRARY,
        runs=runs_of_set,
        regime=regime_config,
    log:
        "logs/runs/{regime}/{algorithm}/{constants}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{algorithm}/{constants}.tsv"
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
