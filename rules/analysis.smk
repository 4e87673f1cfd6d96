# Shared by every regime: aggregation over seeds, figures, the exponent table.


rule aggregate:
    """One table per regime: means and bootstrap CIs over seeds, bounds, hypotheses; and exponent fits."""
    input:
        instances=regime_instances,
        runs=regime_runs,
    output:
        summary=SUMMARY,
        exponents=EXPONENTS,
    params:
        library=LIBRARY,
        regime=regime_config,
        bootstrap_resamples=config["bootstrap_resamples"],
    log:
        "logs/aggregate/{regime}.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/aggregate.py"


rule figure:
    """Empirical regret against the theorem's bound, log–log."""
    input:
        summary=SUMMARY,
        exponents=EXPONENTS,
    output:
        png=report(
            "figures/{regime}.png",
            caption="../report/figure.rst",
            category="Regimes",
            subcategory="{regime}",
        ),
        pdf="figures/{regime}.pdf",
    params:
        library=LIBRARY,
    log:
        "logs/figures/{regime}.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/plot_regime.py"


rule exponent_table:
    """Every regime's fitted exponents next to the theory's (the empirical Table 1)."""
    input:
        expand(EXPONENTS, regime=REGIMES),
    output:
        csv=report("figures/exponents.csv", caption="../report/exponents.rst", category="Exponents"),
        md="figures/exponents.md",
    params:
        library=LIBRARY,
    log:
        "logs/exponents.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/exponent_table.py"


rule verdict_table:
    """Every bound's verdict counts (holds, violated, vacuous, rate only, reference) over its points."""
    input:
        expand(SUMMARY, regime=REGIMES),
    output:
        csv=report("figures/verdicts.csv", caption="../report/verdicts.rst", category="Verdicts"),
        md="figures/verdicts.md",
    params:
        library=LIBRARY,
    log:
        "logs/verdicts.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/verdict_table.py"


rule evidence_table:
    """One row per claim of both papers: tested where it speaks, or the horizon and cost at which it would."""
    input:
        summaries=expand(SUMMARY, regime=REGIMES),
        exponents=expand(EXPONENTS, regime=REGIMES),
        instances=all_instances(),
    output:
        csv=report("figures/evidence.csv", caption="../report/evidence.rst", category="Evidence"),
        md="figures/evidence.md",
    params:
        library=LIBRARY,
    log:
        "logs/evidence.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/evidence_table.py"
