# regretlab: instances → runs → aggregate and figure per regime → exponent and verdict tables, report.
# Everything scientific is in config.yaml; threads and resources live in profiles/.
import sys

from snakemake.utils import min_version

from regretlab.analysis.verdicts import print_violations
from regretlab.workflow.config import config_syntax_problem

min_version("9.0")

# Snakemake's message for a YAML syntax error names no line: say where it is, in one line, before it reads it.
if problem := config_syntax_problem("config.yaml"):
    sys.exit(f"regretlab: {problem}")


configfile: "config.yaml"


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/resources.smk"
include: "rules/bandits.smk"
include: "rules/cmdp.smk"
include: "rules/analysis.smk"


rule all:
    default_target: True
    input:
        # The aggregate tables are targets too, so that a fresh clone (figures committed, results/ not)
        # recomputes everything instead of trusting the committed figures; so are the instance files, so that
        # a deleted one is rebuilt (Snakemake leaves a missing intermediate file alone while what was made from
        # it is up to date) along with what reads it.
        instances=all_instances(),
        summaries=expand(SUMMARY, regime=REGIMES),
        figures=all_figures(),
        tables=rules.tables.output,
        evidence=rules.evidence_table.output,
        crossover=rules.crossover.output,


onsuccess:
    # Every bound with a violated point, read from the verdict table (nothing when there is none).
    print_violations(rules.tables.output.verdicts_csv)
