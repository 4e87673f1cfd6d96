"""A verdict for every point and bound of the aggregate tables, and the table of verdict counts.

* ``rate only``: the bound is an Õ(·) rate drawn with unit constant (``explicit`` False): it can be neither
  met nor broken.
* ``reference``: a line drawn for comparison (``direction`` ``"reference"``).
* ``no bound``: an algorithm drawn without a bound (a baseline without a theorem); such rows are no claim,
  and the verdict table leaves them out.
* ``violated``: for an upper bound, the upper end of the metric's 95% interval over seeds is above the bound
  (for a lower bound, the lower end is below it). This is conservative: the interval is not certified to lie
  on the bound's side, even if the mean does; checked before ``vacuous`` so that no violation is hidden.
* ``vacuous``: the bound is not finite or lies beyond the metric's trivial bound
  (:data:`regretlab.registry.theory.TRIVIAL_BOUNDS`): it says nothing that every learner does not already
  guarantee.
* ``implied``: the bound is at or beyond a ceiling the learner's own construction puts on the metric for that
  run (:data:`regretlab.registry.theory.CEILINGS`, e.g. ‖λ_t‖₁ ≤ min{mT^{1/4}, ηmLt} for PDGD-OPS's dual): it
  cannot fail on a correct implementation, whatever the environment. Checked after ``vacuous`` (a bound past
  the trivial bound is vacuous first).
* ``holds``: otherwise — the whole interval is on the bound's side and the bound is informative.
* ``beyond hypotheses``: what would be ``violated`` at a point where the theorem's hypotheses fail (greyed in
  the figures): the theorem claims nothing there, so this is no counterexample — e.g. the dual clipping where
  Condition 2 fails, which Theorem 4 excludes only under Condition 2.
* ``inconclusive``: only for a bound on a probability tested with a binomial interval over seeds
  (``proportion=True``, e.g. Lemma 5's ``P(E^Δ) >= 1 - δ``): the Clopper–Pearson interval contains the bound,
  so the seeds neither refute it (``violated`` needs the whole interval on the wrong side) nor certify it.
  Certifying ``>= 0.9`` needs at least 36 seeds, all successes; refuting it at 8 seeds needs 4 failures.

Two curve families of a regime whose runs are bit-identical (``identical_to`` in the aggregate table) are
counted once: the verdict table counts the second one's points under ``identical``.

Apart from telling ``violated`` from ``beyond hypotheses``, the verdict does not look at the theorem's
hypotheses (a separate column): a point that holds where they fail is greyed, not counted as evidence
(:mod:`regretlab.analysis.evidence`). :func:`violation_report` lists the violations and counts the rest.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd

from regretlab.analysis.tables import to_markdown
from regretlab.core.io import write_text

#: Every verdict, in the order tables list them.
#: ``identical``: a point of a curve family whose runs are bit-identical to another's, counted once (there).
VERDICTS = ("holds", "violated", "vacuous", "implied", "rate only", "reference", "identical", "inconclusive",
            "beyond hypotheses")  # fmt: skip
#: A bound crossed where the theorem's hypotheses fail: no counterexample (module docstring).
BEYOND_HYPOTHESES = "beyond hypotheses"
#: The verdict of a row drawn without a bound (a baseline without a theorem): no claim, left out of the
#: verdict table.
NO_BOUND = "no bound"
#: One row of the verdict table per value of these columns.
VERDICT_KEYS = [
    "regime",
    "algorithm",
    "constants",
    "metric",
    "bound_name",
    "bound_explicit",
    "direction",
    "hypotheses_hold",
]


def verdict(
    direction: str,
    explicit: bool,
    bound: float,
    trivial: float,
    ci_low: float,
    ci_high: float,
    ceiling: float = float("nan"),
    proportion: bool = False,
    hypotheses_hold: bool = True,
) -> str:
    """The verdict of one bound at one point (module docstring). ``trivial`` is NaN for a metric without a
    trivial bound, ``ceiling`` (a floor for a lower bound) NaN where the learner's construction gives none;
    ``proportion``: the metric is a 0/1 event per seed and the interval a binomial one; ``hypotheses_hold``
    False: a crossed bound is ``beyond hypotheses``, not ``violated``."""
    if direction == "reference":
        return "reference"
    if direction not in ("upper", "lower"):
        raise ValueError(f"direction must be 'upper', 'lower' or 'reference', got {direction!r}")
    if not explicit:
        return "rate only"
    upper = direction == "upper"
    if proportion and ((ci_low <= bound < ci_high) if upper else (ci_low < bound <= ci_high)):
        return "inconclusive"
    if (ci_high > bound) if upper else (ci_low < bound):
        return "violated" if hypotheses_hold else BEYOND_HYPOTHESES
    if math.isnan(bound) or math.isinf(bound):
        return "vacuous"
    if not math.isnan(trivial) and ((bound >= trivial) if upper else (bound <= trivial)):
        return "vacuous"
    if not math.isnan(ceiling) and ((bound >= ceiling) if upper else (bound <= ceiling)):
        return "implied"
    return "holds"


def verdict_table(summaries: list[pd.DataFrame]) -> pd.DataFrame:
    """Counts of each verdict per (regime, algorithm, constants, metric, bound, …, hypotheses), with the
    range of horizons and the number of points."""
    rows = pd.concat(summaries, ignore_index=True)
    rows = rows[rows["verdict"] != NO_BOUND]
    if rows.empty:
        return pd.DataFrame(columns=[*VERDICT_KEYS, "points", "T_min", "T_max", *VERDICTS])
    if "identical_to" in rows:
        rows = rows.assign(
            verdict=rows["verdict"].where(rows["identical_to"].fillna("") == "", "identical"),
            identical_to=rows["identical_to"].fillna(""),
        )
    counts = pd.crosstab([rows[key] for key in VERDICT_KEYS], rows["verdict"]).reindex(
        columns=list(VERDICTS), fill_value=0
    )
    counts.columns.name = None
    extent = rows.groupby(VERDICT_KEYS).agg(
        points=("verdict", "size"), T_min=("T", "min"), T_max=("T", "max")
    )
    if "identical_to" in rows:  # which family a duplicate's points are counted with, before the counts
        extent = extent.join(rows.groupby(VERDICT_KEYS)["identical_to"].first())
    table = extent.join(counts).reset_index()
    return table.sort_values(VERDICT_KEYS, ignore_index=True)


def write_verdict_table(
    summaries: list[pd.DataFrame], csv_path: str | os.PathLike, md_path: str | os.PathLike
) -> None:
    """Write ``figures/verdicts.csv`` and ``figures/verdicts.md`` atomically."""
    table = verdict_table(summaries)
    write_text(csv_path, table.to_csv(index=False))
    header = (
        "Verdict counts per regime, algorithm, constants preset, metric and bound, over the points (horizons "
        "T_min…T_max; checkpoints for trajectory regimes). `holds`: the 95% interval over seeds is on the "
        "bound's side and the bound is inside the metric's trivial bound; `violated`: it is not; `vacuous`: "
        "the bound is at or beyond the trivial bound, what every learner guarantees at checkpoint t (t = T "
        "at a run's end): t for bandit regret, t·OPT for CMDP regret, L·t for CMDP violation, 2L·t for "
        "Σ‖q−q̂‖₁, 2Lℓ̄t for primal and interval regret; under a lower bound, a floor: 0 for the reward "
        "ratio and coverage, Σ_t min_i ℓ_{t,i} − L* under Theorem 5's proof bound (paper 001); `implied`: "
        "the bound is at or beyond a ceiling the learner's own construction puts on the metric (e.g. "
        "‖λ_t‖₁ ≤ min{mT^{1/4}, ηmLt}), so it could not have failed; `rate only`: an Õ(·) rate with unit "
        "constant, which can be neither met nor broken; `reference`: a comparison line. "
        "`identical`: the points of a curve family whose runs are bit-identical to those of `identical_to`, "
        "counted once, there. `inconclusive`: a probability (Lemma 5) whose binomial interval over seeds "
        "contains the bound. `hypotheses_hold` False: the theorem's hypotheses fail at these points (greyed "
        "in the figures); a bound crossed there is counted as `beyond hypotheses`, not `violated`: the "
        "theorem claims nothing there, so it is no counterexample.\n\n"
    )
    write_text(md_path, header + to_markdown(table))


def violations(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of a verdict table with at least one ``violated`` point."""
    return table[table["violated"] > 0]


def violation_report(csv_path: str | os.PathLike, summaries: list[str] | None = None) -> str:
    """What ``snakemake`` prints when it finishes ("" when nothing is crossed, or no such file), from
    ``figures/verdicts.csv``: one line per bound with ``violated`` points (where the theorem's hypotheses
    hold: each a counterexample or a bug), then one line counting the ``beyond hypotheses`` points (greyed,
    where the theorem claims nothing) and naming their bounds. When a regime's summary (among
    ``summaries``, the paths of the config's) is newer than the table — a run of one regime's figure does
    not rebuild it —, one line says that the verdicts are stale instead."""
    if not os.path.exists(csv_path):
        return ""
    newer = [
        Path(path).name.removesuffix(".parquet")
        for path in summaries or []
        if os.path.exists(path) and os.path.getmtime(path) > os.path.getmtime(csv_path)
    ]
    if newer:
        return (
            f"regretlab: {csv_path} is older than the summaries of {', '.join(newer)}: its verdicts are "
            f"stale; `snakemake {csv_path}` updates them"
        )
    table = pd.read_csv(csv_path)
    bad = violations(table)
    beyond = table[table[BEYOND_HYPOTHESES] > 0] if BEYOND_HYPOTHESES in table else table.iloc[:0]
    if bad.empty and beyond.empty:
        return ""
    if bad.empty:
        lines = [f"regretlab: no bound violated where its theorem's hypotheses hold (see {csv_path})"]
    else:
        lines = [f"regretlab: {len(bad)} bound(s) violated where their hypotheses hold (see {csv_path}):"]
    for row in bad.itertuples(index=False):
        lines.append(
            f"  {row.regime} / {row.algorithm} ({row.constants}): {row.metric} vs {row.bound_name}: "
            f"{row.violated} of {row.points} points violated"
        )
    if not beyond.empty:
        names = ", ".join(
            f"{row.regime} / {row.algorithm} ({row.constants}): {row.bound_name} {row[BEYOND_HYPOTHESES]}"
            for _, row in beyond.iterrows()
        )
        lines.append(
            f"  and {int(beyond[BEYOND_HYPOTHESES].sum())} greyed point(s) cross their bound where the "
            f"theorem's hypotheses fail (it claims nothing there: no counterexample): {names}"
        )
    return "\n".join(lines)


def print_violations(csv_path: str | os.PathLike, summaries: list[str] | None = None) -> None:
    """Print :func:`violation_report` when it is not empty (the Snakefile's ``onsuccess`` handler)."""
    report = violation_report(csv_path, summaries)
    if report:
        print(report)
