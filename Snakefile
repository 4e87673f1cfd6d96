# regretlab: instances → runs → aggregate and figure per regime → exponent and verdict tables, report.
# Everything scientific is in config.yaml; threads and resources live in profiles/.
import sys
from pathlib import Path

from snakemake.utils import min_version

from regretlab.analysis.verdicts import print_violations
from regretlab.workflow.config_files import config_syntax_problem
from regretlab.workflow.integrity import heal
from regretlab.workflow.progress import plan

min_version("9.0")

# Snakemake's message for a YAML syntax error names no line, and it keeps the last of two equal keys without a
# word: check the default config and every --configfile first, one line each.
for configfile_path in ["config.yaml", *workflow.overwrite_configfiles]:
    if problem := config_syntax_problem(configfile_path):
        sys.exit(f"regretlab: {problem}")
# The workflow writes under these two folders (a file of the same name would fail every job, one by one).
for folder in ("results", "figures"):
    if Path(folder).exists() and not Path(folder).is_dir():
        sys.exit(f"regretlab: {folder!r} is a file; the workflow writes its outputs into a folder of that name")


configfile: "config.yaml"


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/resources.smk"
include: "rules/bandits.smk"
include: "rules/cmdp.smk"
include: "rules/power.smk"
include: "rules/analysis.smk"


# A file changed since it was written (a flipped bit, a truncation, a planted table) is removed with what must
# be rebuilt with it, one line each, before the DAG is built: this run rebuilds it (regretlab.workflow.integrity).
# Only the run tables this config's run jobs write count when missing (rules/common.smk, all_run_tables).
if workflow.is_main_process:
    for healed in heal(run_tables=all_run_tables()):
        print(f"regretlab: {healed}", file=sys.stderr)


rule all:
    default_target: True
    input:
        unpack(lambda wildcards: targets()),


onstart:
    # The jobs about to run and the cost model's prediction of each, for the progress lines of the regretlab
    # logger (profiles/default): one line per finished job with the CPU time left.
    plan(workflow, config)


onsuccess:
    # Every bound with a violated point, read from the verdict table (nothing when there is none); or, after a
    # run that rebuilt a summary but not the table (one regime's figure), that the verdicts are stale. The
    # power scale writes only the archive: the default run draws and judges it.
    if config["scale"] != "power":
        print_violations(rules.tables.output.verdicts_csv, expand(SUMMARY, regime=REGIMES))
