# Paper 000 (constrained MDPs): instance generation and runs.
CMDP_REGIMES = regimes_of_kind(config, "cmdp")

# One instance job per regime, as for the bandit instances (rules/bandits.smk).
for regime in CMDP_REGIMES:

    rule:
        """Build a regime's CMDP instances (P, r̄, Ḡ at the requested ρ, OPT, the r_t, G_t sequences)."""
        name:
            f"cmdp_instances_{regime}"
        input:
            code=library_code("make_cmdp_instance.py", entries="none"),
        output:
            instance_files(regime),
        params:
            regime=regime,
            instances=config["regimes"][regime]["instances"],
            registry_entries=registry_entries("make_cmdp_instance.py", entries="none"),
        log:
            f"logs/instances/{regime}.log",
        conda:
            "../envs/regretlab.yaml"
        localrule: True
        script:
            "../scripts/make_cmdp_instance.py"


rule cmdp_run:
    """Run PDGD-OPS (or UC-O-GDPS alone), each of its constants presets, on its part of a regime's runs."""
    input:
        instances=regime_instances,
        code=library_code("run_cmdp.py", learners="own", entries="own"),
    output:
        directory(RUN_PART),
    params:
        runs=runs_of_run_part,
        regime=regime_run_config,
        registry_entries=registry_entries("run_cmdp.py", learners="own", entries="own"),
    log:
        "logs/runs/{regime}/{algorithm}/part~{part}.log",
    benchmark:
        "results/benchmarks/runs/{regime}/{algorithm}/part~{part}.tsv"
    resources:
        runtime=run_runtime_minutes,
        mem_mb=run_mem_mb,
    group:
        "cmdp_runs"
    conda:
        "../envs/regretlab.yaml"
    wildcard_constraints:
        regime=one_of(CMDP_REGIMES),
    script:
        "../scripts/run_cmdp.py"


# The trajectory regimes (x: t), whose checkpoints trace the dual along a run.
CMDP_TRAJECTORIES = [regime for regime in CMDP_REGIMES if config["regimes"][regime]["x"] == "t"]


rule cmdp_catch_up:
    """Where PDGD-OPS's multiplier first reaches the offline one on each binding instance of the trajectory
    regimes, against Lemma 11's ceiling mηL·t, and the violation per episode before and after."""
    input:
        summaries=expand(SUMMARY, regime=CMDP_TRAJECTORIES),
        instances=[path for regime in CMDP_TRAJECTORIES for path in instance_files(regime)],
        code=library_code("cmdp_catch_up.py"),
    output:
        png=report("figures/cmdp_dual_catch_up.png", caption="../report/cmdp_dual_catch_up.rst", category="Paper 000"),
        pdf="figures/cmdp_dual_catch_up.pdf",
    log:
        "logs/cmdp_dual_catch_up.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/cmdp_catch_up.py"


if CMDP_TRAJECTORIES:
    KIND_FIGURES.extend(rules.cmdp_catch_up.output)
