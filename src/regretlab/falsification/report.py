"""The falsification search's outputs: ``figures/falsification.csv`` (one row per searched bound: the budget,
how much of it could have failed, the worst candidate confirmed, regenerable from its columns),
``falsification.md`` and one figure (every search run's measured / bound, the confirmed worst with its seeds'
range). :func:`run_searches` runs every search that a kind declares
(:attr:`regretlab.specs.kind_spec.Kind.searches`), in registry order.
"""

from __future__ import annotations

import json
import os
import re
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from regretlab.analysis.tables import to_markdown, write_typed_csv  # noqa: E402
from regretlab.core.figure_files import freeze_layout, save_figure  # noqa: E402
from regretlab.core.io import write_text  # noqa: E402
from regretlab.falsification.search import SearchResult, is_rate, search  # noqa: E402
from regretlab.registry.claims import CLAIMS_BY_KEY  # noqa: E402
from regretlab.registry.kinds import declared_searches  # noqa: E402

#: The outcome of a search whose worst confirmed candidate exceeds the bound at every seed, inside the
#: theorem's hypotheses at every seed (issue 33's wording, as the evidence table says it).
WITNESS = "violated within the hypotheses"
#: … of one whose worst confirmed candidate does not; and of one that found no admissible candidate.
SURVIVED = "survived"
NOTHING = "no admissible candidate"
#: A rate's: its worst confirmed candidate grows faster than the rate's band over its window at every seed,
#: inside the hypotheses (a rejection over that window, not a counterexample: an Õ allows any constant).
STEEPER = "steeper than its band at every seed"
#: Characters per line of a claim's name in the figure's row labels.
LABEL_WIDTH = 36


def run_searches(scale: str, only: tuple[str, ...] | None = None) -> list[SearchResult]:
    """Every declared search at ``scale`` (those named in ``only`` when it is not None; none for an empty
    tuple), each with its kind's ``trial``. Raises ValueError naming an unknown search."""
    declared = declared_searches()
    unknown = sorted(set(only or ()) - set(declared))
    if unknown:
        raise ValueError(f"searches must be among {sorted(declared)}, got {unknown}")
    return [
        search(name, spec, scale, kind.trial_function())
        for name, (kind, spec) in declared.items()
        if only is None or name in only
    ]


#: The table's columns, in order (those of the worst candidate empty where a search found none; all of them
#: present when no search ran, the config's ``searches: []``).
COLUMNS = (
    "search", "claim", "name", "bound", "quantifies", "left_out", "scale", "dimensions", "T_search", "runs",
    "admissible_share", "speaking_share", "outcome", "worst_ratio", "seed_ratio_min", "seed_ratio_max",
    "seeds", "T_confirm", "measured", "bound_value", "trivial", "uniform", "algorithm", "constants", "step",
    "instance", "draw",
)  # fmt: skip


def outcome(result: SearchResult) -> str:
    """:data:`WITNESS` (for a rate :data:`STEEPER`), :data:`SURVIVED` or :data:`NOTHING`."""
    worst = result.worst
    if worst is None:
        return NOTHING
    if worst.witness:
        return STEEPER if is_rate(result.spec.bound) else WITNESS
    return SURVIVED


def table(results: list[SearchResult]) -> pd.DataFrame:
    """One row per search: what it searched, its budget and the worst candidate it confirmed."""
    rows = []
    for result in results:
        spec, worst, budget = result.spec, result.worst, result.budget
        admissible, speaking = result.admissible, result.speaking
        row = {
            "search": result.name,
            "claim": spec.claim,
            "name": CLAIMS_BY_KEY[spec.claim].name,
            "bound": spec.bound,
            "quantifies": spec.quantifies,
            "left_out": spec.left_out,
            "scale": result.scale,
            "dimensions": len(spec.dimensions),
            "T_search": budget.horizon,
            "runs": result.runs,
            "admissible_share": len(admissible) / len(result.evaluations) if result.evaluations else 0.0,
            "speaking_share": len(speaking) / len(admissible) if admissible else 0.0,
            "outcome": outcome(result),
        }
        if worst is not None:
            candidate = worst.evaluation.candidate
            ratios = worst.seed_ratios
            row |= {
                "worst_ratio": worst.ratio,
                "seed_ratio_min": min(ratios),
                "seed_ratio_max": max(ratios),
                "seeds": len(ratios),
                "T_confirm": worst.horizon,
                "measured": worst.mean("measured"),
                "bound_value": worst.mean("bound"),
                "trivial": worst.mean("trivial"),
                "uniform": worst.mean("uniform"),
                "algorithm": candidate.algorithm,
                "constants": candidate.constants,
                "step": json.dumps(candidate.step, sort_keys=True),
                "instance": json.dumps(candidate.instance, sort_keys=True),
                "draw": candidate.draw,
            }
        rows.append(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _candidate_text(row: pd.Series) -> str:
    """The worst candidate in one cell: learner, step sizes, graph and losses."""
    if pd.isna(row.get("instance")):
        return ""
    instance, step = json.loads(row["instance"]), json.loads(row["step"])
    steps = ", ".join(f"{name} = {value:.3g}" for name, value in step.items())
    graph = ", ".join(f"{k}: {v}" for k, v in instance["graph"].items())
    losses = ", ".join(
        f"{k}: {v:.3g}" if isinstance(v, float) else f"{k}: {v}" for k, v in instance["losses"].items()
    )
    return f"{row['algorithm']} ({steps}); {graph}; {losses}; draw {row['draw']}"


def markdown(frame: pd.DataFrame) -> str:
    """The summary line and the table, as Markdown."""
    witnesses = int((frame["outcome"] == WITNESS).sum())
    rates = frame["bound"].map(is_rate).astype(bool) if len(frame) else pd.Series(dtype=bool)
    steeper = int((frame["outcome"] == STEEPER).sum())
    lines = [
        "# Falsification search: each bound attacked over its theorem's hypotheses\n",
        f"**Of {int((~rates).sum())} explicit bounds searched, {witnesses} "
        f"{'is' if witnesses == 1 else 'are'} violated within the hypotheses (a candidate above the bound at "
        f"every seed, every hypothesis holding at every seed); of {int(rates.sum())} "
        f"rate{'' if int(rates.sum()) == 1 else 's'} searched, "
        f"{steeper} {'is' if steeper == 1 else 'are'} steeper than the band its fits accept over its window "
        "at every seed (a rejection over that window, not a counterexample: an Õ allows any constant).**\n",
        "Differential evolution maximises one run's measured / bound (the bound at the run's own step sizes "
        "and totals) over the space each theorem quantifies over; the best distinct candidates are rerun "
        "with fresh seeds. `inside hypotheses`: the share of the search's runs where every hypothesis held "
        "(the others score 0); `bound spoke`: of those, the share where the bound was below the metric's "
        "trivial bound — where it could have failed at all. A rate's run is a pair, T and 10T (100T for a "
        "learner that restarts, its slope taken between its first and last epoch ends there): its "
        "measured / bound is the regret's growth per decade against the growth the rate's band allows, "
        "10^(slope − band), and it counts only where the learner learns at T (regret below half of uniform "
        "play's). How the search works and what each finding "
        "means: docs/findings.md; every column (and the worst candidate, regenerable): "
        "figures/falsification.csv.\n",
    ]
    shown = pd.DataFrame(
        {
            "claim": frame["name"],
            "bound": frame["bound"],
            "searched": frame["quantifies"],
            "runs (T)": [f"{r} ({t:.0f})" for r, t in zip(frame["runs"], frame["T_search"], strict=True)],
            "inside hypotheses": [f"{v:.0%}" for v in frame["admissible_share"]],
            "bound spoke": [f"{v:.0%}" for v in frame["speaking_share"]],
            "worst measured / bound [seeds]": [
                f"{r:.3g} [{lo:.3g}–{hi:.3g}, {n:.0f} seeds]" if np.isfinite(r) else "—"
                for r, lo, hi, n in zip(
                    frame.get("worst_ratio", np.nan),
                    frame.get("seed_ratio_min", np.nan),
                    frame.get("seed_ratio_max", np.nan),
                    frame.get("seeds", np.nan),
                    strict=True,
                )
            ],  # fmt: skip
            "outcome": frame["outcome"],
            "worst candidate": [_candidate_text(row) for _, row in frame.iterrows()],
        }
    )
    return "\n".join([*lines, to_markdown(shown), ""])


def _wrapped(name: str) -> str:
    """A claim's name in lines of at most :data:`LABEL_WIDTH` characters, a parenthesis kept whole."""
    kept = re.sub(r"\([^)]*\)", lambda group: group.group(0).replace(" ", "\u00a0"), name)
    return textwrap.fill(kept, LABEL_WIDTH).replace("\u00a0", " ")


def draw(results: list[SearchResult]):
    """One row per search: every admissible search run's measured / bound (grey), the confirmed worst
    candidate's mean ratio with its seeds' range (red where it is a witness), the bound at 1."""
    fig, ax = plt.subplots(figsize=(8.0, 0.55 * len(results) + 1.6), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.12)  # room for the labels' hinting at the saved resolution
    rng = np.random.default_rng(0)  # vertical jitter of the grey dots only
    for row, result in enumerate(results):
        ratios = np.array([e.score for e in result.admissible if e.score > 0])
        ax.scatter(ratios, row + rng.uniform(-0.18, 0.18, ratios.size), s=5, color="0.7", linewidths=0)
        worst = result.worst
        if worst is not None:
            colour = "#b2182b" if worst.witness else "black"
            seeds = worst.seed_ratios
            ax.plot([min(seeds), max(seeds)], [row, row], color=colour, linewidth=2)
            ax.scatter([worst.ratio], [row], marker="D", s=30, color=colour, zorder=3)
    ax.axvline(1.0, color="#b2182b", linestyle="--", linewidth=0.9)
    ax.set_xscale("log")
    ax.set_yticks(range(len(results)))
    # A claim's name wrapped (the longest, Theorem 18's corrected one, would reach the figure's left edge).
    names = [_wrapped(CLAIMS_BY_KEY[r.spec.claim].name) for r in results]
    labels = [f"{name}\n{r.spec.bound} ({r.runs} runs)" for name, r in zip(names, results, strict=True)]
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlabel("measured / bound (rates: growth per decade / the growth their band allows)\nright of "
                  "the dashed line: the run exceeds it", fontsize=8)  # fmt: skip
    ax.set_title(
        "Falsification search over each theorem's hypotheses\ngrey: one search run each; diamond: the worst "
        "candidate confirmed,\nbar: its seeds' range (red: above the bound at every seed)",
        fontsize=8,
    )
    return freeze_layout(fig)


def write_falsification(
    results: list[SearchResult],
    csv_path: str | os.PathLike,
    md_path: str | os.PathLike,
    png_path: str | os.PathLike,
    pdf_path: str | os.PathLike,
) -> pd.DataFrame:
    """Write the table (typed CSV), its Markdown and the figure (PNG, PDF) atomically; return the table."""
    frame = table(results)
    write_typed_csv(frame, csv_path, float_format="%.6g")
    write_text(md_path, markdown(frame))
    save_figure(draw(results), png_path, pdf_path)
    return frame
