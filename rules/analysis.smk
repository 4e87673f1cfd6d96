# Shared by every regime: aggregation over seeds and the figure (one job per regime), then the tables.


rule regime_summary:
    """One regime's aggregate table (means and bootstrap CIs over seeds, bounds, verdicts, hypotheses), its
    exponent fits and its figure drawn from them (empirical against the theorem's bound, log–log): one job."""
    input:
        instances=regime_instances,
        runs=regime_runs,
        code=library_code("regime_summary.py", entries="regime"),
    output:
        summary=SUMMARY,
        exponents=EXPONENTS,
        png=report(
            "figures/{regime}.png",
            caption="../report/figure.rst",
            category="Regimes",
            subcategory="{regime}",
        ),
        pdf="figures/{regime}.pdf",
    params:
        bootstrap_resamples=config["bootstrap_resamples"],
        run_tables=regime_run_tables,
        registry_entries=registry_entries("regime_summary.py", entries="regime"),
        **{field: regime_field(field) for field in REGIME_FIELDS},
    log:
        "logs/regimes/{regime}.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/regime_summary.py"


rule tables:
    """Every regime's fitted exponents next to the theory's (the empirical Table 1), and every bound's verdict
    counts (holds, violated, vacuous, rate only, reference) over its points."""
    input:
        summaries=expand(SUMMARY, regime=REGIMES),
        exponents=expand(EXPONENTS, regime=REGIMES),
        code=library_code("tables.py"),
    output:
        exponents_csv=report(
            "figures/exponents.csv", caption="../report/exponents.rst", category="Exponents"
        ),
        exponents_md="figures/exponents.md",
        verdicts_csv=report("figures/verdicts.csv", caption="../report/verdicts.rst", category="Verdicts"),
        verdicts_md="figures/verdicts.md",
    log:
        "logs/tables.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/tables.py"


rule falsification:
    """Each explicit bound attacked over its theorem's hypotheses (step sizes, graphs, losses): the worst
    measured / bound a differential-evolution search finds, confirmed with fresh seeds."""
    input:
        code=library_code("falsify.py", learners="all"),
    output:
        csv=report("figures/falsification.csv", caption="../report/falsification.rst", category="Evidence"),
        types="figures/falsification.types.json",
        md="figures/falsification.md",
        png=report("figures/falsification.png", caption="../report/falsification.rst", category="Evidence"),
        pdf="figures/falsification.pdf",
    params:
        scale=config["scale"],
        searches=config["searches"],
    log:
        "logs/falsification.log",
    conda:
        "../envs/regretlab.yaml"
    script:
        "../scripts/falsify.py"


rule power_search:
    """Per paper-000 bound, the smallest T at which it has power against uniform play on some admissible CMDP
    (a differential-evolution search over small CMDPs), beside the floor below which no CMDP can speak."""
    input:
        code=library_code("power_search.py", entries="searched"),
    output:
        csv=report("figures/power_search.csv", caption="../report/power_search.rst", category="Evidence"),
        types="figures/power_search.types.json",
        md="figures/power_search.md",
    params:
        registry_entries=registry_entries("power_search.py", entries="searched"),
        names=config["power_searches"],
    log:
        "logs/power_search.log",
    conda:
        "../envs/regretlab.yaml"
    script:
        "../scripts/power_search.py"


rule evidence_table:
    """One row per claim of both papers: tested where it speaks, or the horizon and cost at which it would."""
    input:
        summaries=expand(SUMMARY, regime=REGIMES),
        exponents=expand(EXPONENTS, regime=REGIMES),
        instances=all_instances(),
        falsification=rules.falsification.output.csv,
        power_search=rules.power_search.output.csv,
        archived=expand("results/summary/{regime}~power.status.json", regime=ARCHIVED),
        code=library_code("evidence_table.py", learners="all"),
    output:
        csv=report("figures/evidence.csv", caption="../report/evidence.rst", category="Evidence"),
        types="figures/evidence.types.json",
        md="figures/evidence.md",
        pages=directory("figures/claims"),
        png=report("figures/evidence.png", caption="../report/evidence.rst", category="Evidence"),
        pdf="figures/evidence.pdf",
    log:
        "logs/evidence.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/evidence_table.py"


rule crossover:
    """The empirical Table 1: where each small-loss learner beats the minimax learner of its column, measured
    on the same instances and seeds."""
    input:
        summaries=expand(SUMMARY, regime=REGIMES),
        code=library_code("crossover.py"),
    output:
        csv=report("figures/crossover.csv", caption="../report/crossover.rst", category="Evidence"),
        md="figures/crossover.md",
        png=report("figures/crossover.png", caption="../report/crossover.rst", category="Evidence"),
        pdf="figures/crossover.pdf",
    log:
        "logs/crossover.log",
    conda:
        "../envs/regretlab.yaml"
    localrule: True
    script:
        "../scripts/crossover.py"
