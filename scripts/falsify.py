"""Snakemake adapter: the falsification search of every declared explicit bound at the config's scale →
figures/falsification.csv, .md and its figure."""

from regretlab.core.logs import job_log

with job_log(snakemake) as log:
    # Imported inside job_log: a Ctrl-C while the library loads is one line too (regretlab.core.logs).
    from regretlab.falsification.report import WITNESS, run_searches, write_falsification

    out = snakemake.output
    searches = snakemake.params.searches  # None: every declared search
    results = run_searches(snakemake.params.scale, None if searches is None else tuple(searches))
    frame = write_falsification(results, out.csv, out.md, out.png, out.pdf)
    for row in frame.itertuples(index=False):
        log.info("%s: %s after %d runs (worst measured / bound %.3g)", row.bound, row.outcome, row.runs,
                 row.worst_ratio)  # fmt: skip
    log.info("wrote %s: %d bounds searched, %d violated within the hypotheses", out.csv, len(frame),
             int((frame["outcome"] == WITNESS).sum()))  # fmt: skip
