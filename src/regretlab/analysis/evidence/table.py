"""The evidence table's rows: one per claim, from its items (:mod:`regretlab.analysis.evidence.items`) and
the searches (:mod:`regretlab.analysis.evidence.search`); the CSV and Markdown files written from it."""

from __future__ import annotations

import math
import os

import pandas as pd

from regretlab.analysis.aggregate import ARCHIVED_SUFFIX, with_archives
from regretlab.analysis.evidence.figure import draw_evidence
from regretlab.analysis.evidence.items import BLOCKS, GRADES, POWERS, Item, curve_items, point_items
from regretlab.analysis.evidence.markdown import markdown
from regretlab.analysis.evidence.pages import write_claim_pages
from regretlab.analysis.evidence.search import Found, explicit_search, rate_search
from regretlab.analysis.exponents import REJECTED
from regretlab.analysis.tables import records, write_typed_csv
from regretlab.core.figure_files import save_figure
from regretlab.core.io import write_text
from regretlab.registry.claims import CLAIMS, UNCHECKED, UNCHECKED_CLAIMS, Claim
from regretlab.registry.theory import speaking_floor
from regretlab.registry.unit_costs import run_seconds

#: The columns of ``figures/evidence.csv``, in order (docs/evidence.md explains each).
CSV_COLUMNS = [
    "claim", "paper", "role", "name", "text", "source", "check", "bounds", "regimes", "points",
    "testable_items", "tested", "power", "grade", "margin", "outcome", "why", "mechanism", "mechanism_values",
    "identical",
    "T_informative", "T_informative_curve", "T_informative_note", "cpu_hours_run", "cpu_hours_seeds", "seeds",
    "T_power", "T_power_curve", "T_power_note", "cpu_hours_power_run", "cpu_hours_power_seeds", "T_floor",
    "T_search", "searches", "search_runs", "search_worst_ratio", "search_outcome",
]  # fmt: skip


def _search_columns(claim: Claim, falsification: pd.DataFrame | None) -> dict:
    """The falsification searches of the claim's bounds (``figures/falsification.csv``): their names, the
    runs they spent, the worst measured / bound confirmed and the outcome (the worst search's); empty when
    no search attacks it."""
    rows = pd.DataFrame() if falsification is None else falsification[falsification["claim"] == claim.key]
    if rows.empty:
        return {"searches": "", "search_runs": 0, "search_worst_ratio": math.nan, "search_outcome": ""}
    worst = rows.loc[rows["worst_ratio"].fillna(-math.inf).idxmax()]
    return {
        "searches": ", ".join(rows["search"]),
        "search_runs": int(rows["runs"].sum()),
        "search_worst_ratio": float(worst["worst_ratio"]),
        "search_outcome": worst["outcome"],
    }



def _count_blocks(items: list[Item]) -> str:
    counts = pd.Series([item.block for item in items if item.block]).value_counts()
    order = [block for block in BLOCKS if block in counts.index]
    return " · ".join(f"{BLOCKS[block]} {counts[block]}" for block in order)


def _outcome(items: list[Item]) -> str:
    """The outcome of the testable items; where there are none but items that pass every check at constants
    the theorem does not cover, theirs, marked as not counted."""
    counted = [item for item in items if not item.block]
    if counted:
        return _describe(counted)
    shown = [item for item in items if item.block == "preset"]
    if not shown:
        return ""
    presets = ", ".join(sorted({item.row["constants"] for item in shown}))
    return f"not counted ({presets} constants, not the theorem's): {_describe(shown)}"


def _describe(items: list[Item]) -> str:
    """Verdict counts of the points and slopes of the curves among ``items``."""
    points = [item for item in items if "verdict" in item.row]
    curves = [item for item in items if "verdict" not in item.row]
    parts = []
    if points:
        violated = sum(item.outcome == "violated" for item in points)
        # A probability's binomial test that neither certifies nor refutes it (Lemma 5 at a few seeds).
        inconclusive = sum(item.outcome == "inconclusive" for item in points)
        word = "violated" if violated else "holds"
        count = violated or len(points) - inconclusive
        parts.append(f"{word} at {count}/{len(points)} pts")
        if inconclusive:
            parts[-1] += f", inconclusive at {inconclusive}/{len(points)}"
    if curves:
        by_word: dict[str, list[str]] = {}
        for item in curves:
            word, slope = item.outcome.split(": ", 1)
            by_word.setdefault(word, []).append(slope)
        for word, slopes in sorted(by_word.items(), key=lambda pair: pair[0] != REJECTED):
            more = f" (+{len(slopes) - 3})" if len(slopes) > 3 else ""
            parts.append(f"{word}: {'; '.join(slopes[:3])}{more}")
    return "; ".join(parts)


def _mechanism_values(items: list[Item]) -> str:
    values = [item.mechanism_value for item in items if not math.isnan(item.mechanism_value)]
    if not values:
        return ""
    low, high = min(values), max(values)
    return f"{low:.3g}" if math.isclose(low, high) else f"{low:.3g}–{high:.3g}"


def _regimes_cell(items: list[Item]) -> str:
    counts = pd.Series([item.regime for item in items]).value_counts(sort=False)
    return ", ".join(f"{regime} ({n})" for regime, n in sorted(counts.items()))



def _cost(config: dict, row: dict, T: int) -> tuple[float, float, int]:
    """CPU-hours of one run and of the curve's seeds at ``T`` (the seeds of the row's point)."""
    regime = config["regimes"][row["regime"]]
    seeds = int(row.get("n_seeds", 1))
    one = run_seconds(row["regime"], regime, row["instance"], row["algorithm"], T, 1) / 3600
    every = run_seconds(row["regime"], regime, row["instance"], row["algorithm"], T, seeds) / 3600
    return one, every, seeds


def _strongest(items: list[Item]) -> str:
    """The strongest power among the testable items (:data:`POWERS`), or ""."""
    powers = {item.power for item in items if not item.block}
    return next((power for power in POWERS if power in powers), "")


def _grade(items: list[Item]) -> tuple[str, float]:
    """The claim's grade and margin: the best grade among its testable graded points, with the smallest
    margin of that grade (``none`` with the smallest margin when no testable-but-for-power point has
    power); ``""`` and nan when no point is graded."""
    graded = [item for item in items if item.grade and item.block in ("", "powerless")]
    for grade in GRADES:
        margins = [item.margin for item in graded if item.grade == grade]
        if margins:
            return grade, min(margins)
    return "", math.nan


def _found_columns(found: Found | None, config: dict, prefix: str, suffix: str) -> dict:
    """The ``T_<prefix>`` columns (horizon, curve, note) and the CPU-hours of a run there of a search."""
    columns = {
        f"T_{prefix}": math.nan,
        f"T_{prefix}_curve": "",
        f"T_{prefix}_note": "",
        f"cpu_hours{suffix}_run": math.nan,
        f"cpu_hours{suffix}_seeds": math.nan,
    }
    if found is None:
        return columns
    row = found.row
    notes = [found.search.note]
    if found.mechanism:
        notes.append(f"{BLOCKS[found.mechanism]} where measured (not extrapolated)")
    columns[f"T_{prefix}_note"] = "; ".join(note for note in notes if note)
    columns[f"T_{prefix}_curve"] = "/".join(
        str(row[key]) for key in ("regime", "instance", "algorithm", "constants", "bound_name")
    )
    if found.search.T is not None:
        one, every, seeds = _cost(config, row, found.search.T)
        columns.update({f"T_{prefix}": float(found.search.T), f"cpu_hours{suffix}_run": one,
                        f"cpu_hours{suffix}_seeds": every})  # fmt: skip
        if prefix == "informative":
            columns["seeds"] = seeds
    return columns


def _floor(claim: Claim) -> float:
    """The smallest horizon from which one of the claim's bounds could speak on some admissible instance
    (:func:`regretlab.registry.theory.speaking_floor`; NaN when none of them has a floor)."""
    values = [v for v in map(speaking_floor, claim.bounds) if not math.isnan(v)]
    return min(values) if values else math.nan


def _searched(claim: Claim, power_search: pd.DataFrame | None) -> float:
    """The smallest ``T_power`` the search over admissible instances found for one of the claim's bounds
    (``figures/power_search.csv``, :mod:`regretlab.analysis.power_search`); NaN when none was searched."""
    if power_search is None:
        return math.nan
    values = power_search.loc[power_search["bound"].isin(claim.bounds), "T_search"]
    return float(values.min()) if len(values) else math.nan


def _claim_rows(
    claim: Claim, summary: pd.DataFrame, exponents: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """A claim's aggregate rows, its rate fits and, among the rows, its explicit bounds' points."""
    rows = summary[summary["bound_name"].isin(claim.bounds)]
    fits = exponents[exponents["bound_name"].isin(claim.bounds) & ~exponents["bound_explicit"].astype(bool)]
    if claim.regimes is not None:
        counted = with_archives(claim.regimes)
        rows, fits = rows[rows["regime"].isin(counted)], fits[fits["regime"].isin(counted)]
    explicit = rows[rows["bound_explicit"].astype(bool) & (rows["direction"] != "reference")]
    return rows, fits, explicit


def claim_items(claim: Claim, summary: pd.DataFrame, exponents: pd.DataFrame, instances: dict) -> list[Item]:
    """A claim's items: one per point of its explicit bounds, one per fitted curve of its rates."""
    _, fits, explicit = _claim_rows(claim, summary, exponents)
    return point_items(claim, explicit, instances) + curve_items(claim, fits, summary, instances, exponents)


def claim_row(
    claim: Claim,
    summary: pd.DataFrame,
    exponents: pd.DataFrame,
    instances: dict,
    config: dict,
    items: list[Item] | None = None,
    falsification: pd.DataFrame | None = None,
    power_search: pd.DataFrame | None = None,
) -> dict:
    """One row of the evidence table (module docstring); ``items``: the claim's :func:`claim_items`, when the
    caller has them already; ``falsification``: the falsification table, whose searches of the claim's
    bounds the row names (:func:`_search_columns`); ``power_search``: the power-search table
    (:func:`_searched`)."""
    rows, fits, explicit = _claim_rows(claim, summary, exponents)
    if items is None:
        items = claim_items(claim, summary, exponents, instances)
    tested = any(not item.block for item in items)
    power = _strongest(items)
    twins = rows.drop_duplicates(["regime", "algorithm", "constants"])
    twins = twins[twins["identical_to"].fillna("") != ""] if "identical_to" in twins else twins.iloc[:0]
    if not explicit.empty:  # the explicit bounds say where the claim speaks; rates only for rate claims
        found = explicit_search(claim, explicit, instances)
        found_power = None if power else explicit_search(claim, explicit, instances, power=True)
    else:
        found = rate_search(claim, fits, summary, instances)
        found_power = None if power else rate_search(claim, fits, summary, instances, power=True)
    outcome = _outcome(items)
    if claim.construction is not None and tested:
        caught = claim.construction.describe(
            [claim.construction.factor(item.row) for item in items if not item.block]
        )
        outcome = f"{outcome}; would catch {caught}" if caught else outcome
    result = {
        "claim": claim.key,
        "paper": claim.paper,
        "role": claim.role,
        "name": claim.name,
        "text": claim.text,
        "source": claim.citation,
        "check": claim.kind,
        "bounds": ", ".join(claim.bounds),
        "regimes": _regimes_cell(items),
        "points": len(items),
        "testable_items": sum(not item.block for item in items),
        "tested": tested,
        "power": power,
        **dict(zip(("grade", "margin"), _grade(items), strict=True)),
        "outcome": outcome,
        "why": claim.reason if claim.kind in UNCHECKED else ("" if tested else _count_blocks(items)),
        "mechanism": claim.mechanism.description if claim.mechanism else "",
        "mechanism_values": _mechanism_values(items),
        "identical": "; ".join(
            f"{r['regime']}: {r['algorithm']}/{r['constants']} = {r['identical_to']}"
            for r in records(twins)
        ),
        "seeds": 0,
        **_found_columns(found, config, "informative", ""),
        **_found_columns(found_power, config, "power", "_power"),
        "T_floor": _floor(claim),
        "T_search": _searched(claim, power_search),
        **_search_columns(claim, falsification),
    }
    return result


def evidence_table(
    summaries: list[pd.DataFrame],
    exponents: list[pd.DataFrame],
    instances: dict,
    config: dict,
    falsification: pd.DataFrame | None = None,
    power_search: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The evidence table (module docstring), one row per claim the config draws (a claim none of whose
    bounds any regime draws has no row): ``instances`` maps ``(regime, instance)`` to its instance file's
    contents, ``config`` is the validated config (for the cost model), ``falsification`` the falsification
    table (``figures/falsification.csv``; None: no search columns), ``power_search`` the power-search table
    (``figures/power_search.csv``; None: no ``T_search``)."""
    return _table_and_items(summaries, exponents, instances, config, falsification, power_search)[0]


def _table_and_items(
    summaries: list[pd.DataFrame],
    exponents: list[pd.DataFrame],
    instances: dict,
    config: dict,
    falsification: pd.DataFrame | None = None,
    power_search: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, list[Item]]]:
    """The evidence table and each claim's items (computed once: the table's rows and the claim pages read
    them)."""
    summary = pd.concat(summaries, ignore_index=True)
    fits = pd.concat(exponents, ignore_index=True)
    items = {claim.key: claim_items(claim, summary, fits, instances) for claim in CLAIMS}
    rows = [
        claim_row(
            claim, summary, fits, instances, config, items.get(claim.key, []), falsification, power_search
        )
        for claim in CLAIMS + UNCHECKED_CLAIMS
    ]
    kept = [row for row in rows if row["points"] or row["check"] in UNCHECKED]
    return pd.DataFrame(kept, columns=CSV_COLUMNS), items


def write_evidence_table(
    summaries: list[pd.DataFrame],
    exponents: list[pd.DataFrame],
    instances: dict,
    config: dict,
    csv_path: str | os.PathLike,
    md_path: str | os.PathLike,
    pages: str | os.PathLike,
    png_path: str | os.PathLike,
    pdf_path: str | os.PathLike,
    falsification: pd.DataFrame | None = None,
    archives: dict[str, dict] | None = None,
    power_search: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Write ``figures/evidence.csv``, ``figures/evidence.md``, its figure (:mod:`.figure`) and one page per
    claim into ``pages`` (:mod:`.pages`), each atomically; return the table. ``archives``: the status of
    each power-scale archive (:func:`regretlab.workflow.archive.archive_status`), by regime; the fresh ones'
    tables are among ``summaries`` and ``exponents``; ``power_search``: the power-search table."""
    table, items = _table_and_items(summaries, exponents, instances, config, falsification, power_search)
    write_typed_csv(table, csv_path, float_format="%.6g")
    write_text(md_path, markdown(table, archives or {}))
    save_figure(draw_evidence(table), png_path, pdf_path)
    drawn = [*config["regimes"], *(regime + ARCHIVED_SUFFIX for regime in archives or {})]
    figures = {regime: f"{regime}.png" for regime in drawn}
    write_claim_pages(table, items, figures, pages)
    return table
