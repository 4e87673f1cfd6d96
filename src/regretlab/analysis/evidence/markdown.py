"""The evidence table as ``figures/evidence.md``: its headline count (README and docs quote it), one short
row per claim, the legend, and the claims without a check."""

from __future__ import annotations

import math

import pandas as pd

from regretlab.analysis.evidence.items import BLOCKS
from regretlab.analysis.evidence.pages import page_link
from regretlab.analysis.evidence.search import T_MAX, T_MIN
from regretlab.analysis.exponents import REJECTED
from regretlab.analysis.tables import duration, short_number, to_markdown
from regretlab.registry.claims import UNCHECKED


def _short_regimes(cell: str) -> str:
    """At most two regimes of a ``regimes`` cell, then how many more."""
    parts = cell.split(", ")
    return cell if len(parts) <= 2 else ", ".join(parts[:2]) + f" +{len(parts) - 2} more"


def _search_cell(outcome: str, runs: int, ratio: float, check: str) -> str:
    """The falsification search's outcome, budget and worst confirmed ratio; for a rate, whose ratio is
    10^(slope − band) per decade (``regretlab.falsification.search.rate_trial``), the slope's margin."""
    if not outcome:
        return "—"
    if check == "rate" and ratio > 0:
        return f"{outcome} ({runs} runs, steepest: slope − band {math.log10(ratio):+.2f})"
    return f"{outcome} ({runs} runs, worst measured / bound {ratio:.2g})"


def _horizon(value: float, note: str, power: bool = False) -> str:
    """A ``T_informative`` (or ``T_power``) cell: the horizon (``≤ 1e2`` at the bottom of the search,
    ``> 1e18`` beyond its top, ``never`` for a bound implied by the learner's construction, or with no null
    value, at every horizon searched) and the note."""
    top = short_number(T_MAX)
    if math.isnan(value) and note.startswith(BLOCKS["implied"]):
        return f"never: implied at every T searched (1e2–{top}; the learner's construction)"
    if math.isnan(value) and note.startswith(BLOCKS["no null"]):
        return f"never: {BLOCKS['no null']}"
    if math.isnan(value) and note.startswith(BLOCKS["powerless"]) and power:
        return f"never: {BLOCKS['powerless']} at every T searched (1e2–{top})"
    if math.isnan(value):
        return f"> {top} ({note})" if note else "—"
    text = short_number(value)
    if note.startswith("already"):
        text, note = f"≤ {short_number(T_MIN)}", note.partition("; ")[2]
    return f"{text} ({note})" if note else text


def _floor_note(floor: float, searched: float) -> str:
    """What the bound's form allows at best (:func:`regretlab.registry.theory.speaking_floor`) and the best
    a search over admissible instances found (``T_search``, figures/power_search.md)."""
    if math.isnan(floor):
        return ""
    where = "never" if math.isinf(floor) else f"not below T ≈ {short_number(floor)}"
    note = f"; on any admissible instance: {where} (docs/findings.md)"
    if math.isnan(searched):
        return note
    found = "none up to 1e24" if math.isinf(searched) else f"T ≈ {short_number(searched)}"
    return f"{note}; instance search: {found} (figures/power_search.md)"


def _linked(row) -> str:
    """A row's claim cell: its name and paper, linked to its page."""
    return f"[{row.name} ({row.paper})]({page_link(row.claim)})"


def _hours(one: float, every: float, seeds: int) -> str:
    if math.isnan(one):
        return ""
    return f"{short_number(one)} / {short_number(every)} ({seeds})"


def counts(table: pd.DataFrame) -> dict[str, int]:
    """The headline's numbers: the papers' claims (``claims``), those tested with power against uniform play
    (``powered``; ``against_reference`` also against the reference learner), the tested ones rejected over the
    measured range (``rejected``), the construction checks that were tested (``construction``), the claims
    without a check (``unchecked``: proof-internal or not recorded) and the reference rows."""
    claims = table[table["role"] == "claim"]
    tested = claims[claims["tested"].astype(bool)]
    powered = tested[tested["power"].isin(["uniform", "reference"])]
    return {
        "claims": len(claims),
        "powered": len(powered),
        "rates": int((powered["check"] == "rate").sum()),
        "violated": int(powered["outcome"].str.contains("violated at", regex=False).sum()),
        "strong": int((powered["grade"] == "strong").sum()),
        "nominal": int((powered["grade"] == "nominal").sum()),
        "against_reference": int((powered["power"] == "reference").sum()),
        "rejected": int(powered["outcome"].str.contains(REJECTED, regex=False).sum()),
        "persistent": int(powered["outcome"].str.contains(f"{REJECTED} (persistent", regex=False).sum()),
        "construction": int((tested["power"] == "construction").sum()),
        "alternative": int((tested["power"] == "alternative").sum()),
        "unchecked": int(claims["check"].isin(UNCHECKED).sum()),
        "references": int((table["role"] == "reference").sum()),
    }


def headline(table: pd.DataFrame) -> str:
    """The evidence table's one-sentence count (README and docs quote it): strong power first, then nominal,
    the rates, the violations and the rejections."""
    n = counts(table)
    return (
        f"Of {n['claims']} claims of the two papers, {n['powered']} are tested with power against uniform "
        f"play: {n['strong']} explicit bounds with strong power (a learner half the paper's, half uniform, "
        f"would fail too), {n['nominal']} with nominal power (only uniform play would) and {n['rates']} "
        f"rates; {n['against_reference']} of them also against the reference learner; {n['violated']} "
        f"violated where the theorem's hypotheses hold, {n['rejected']} rejected over the measured range "
        f"({n['persistent']} persistent over the last two decades measured, or all of a shorter range)"
    )


def archive_section(archives: dict[str, dict]) -> str:
    """One line per power-scale archive (:mod:`regretlab.workflow.archive`): counted (fresh) or not (stale:
    why, and the command that refreshes it), with its provenance."""
    lines = []
    for regime, status in sorted(archives.items()):
        p = status["provenance"]
        grid = ", ".join(f"{short_number(T)}" for T in p["grid"]["horizons"])
        runs = sorted(p["run_seconds"].values())
        machine = p["machine"]
        cores = f"{machine['cpus']} cores" + (
            f", numpy's log on {machine['numpy_log_target']}" if "numpy_log_target" in machine else ""
        )  # recorded since 2026-12-06 (docs/notes/machine-independent-bits.md)
        made = (
            f"T = {grid}, seeds {p['seeds']}, {len(runs)} runs of {duration(runs[0])}–{duration(runs[-1])} "
            f"wall time ({sum(runs) / 3600:.2f} h in all) on {machine.get('cpu') or machine['processor']} "
            f"({cores}), {p['date']}, commit {(p['git_commit'] or '?')[:10]}"
        )
        state = "**counted**" if status["fresh"] else (
            f"**stale, not counted**: {'; '.join(status['reasons'])}; refresh it with `{status['refresh']}`"
        )  # fmt: skip
        lines.append(f"- [{regime}~power]({regime}~power.png): {state} ({made}).")
    return "\n".join(lines)


def markdown(table: pd.DataFrame, archives: dict[str, dict] | None = None) -> str:
    """The compact Markdown of the evidence table (one row per claim, short cells), its legend, and the
    power-scale archives it counts or does not (:func:`archive_section`)."""
    n, title = counts(table), headline(table)
    unchecked = table[table["check"].isin(UNCHECKED)]
    table = table[~table["check"].isin(UNCHECKED)]
    lines = pd.DataFrame(
        {
            "claim": [
                _linked(r) + (" — *reference*" if r.role == "reference" else "") for r in table.itertuples()
            ],
            "statement": table["text"],
            "check": table["check"],
            "regimes (items)": [_short_regimes(cell) for cell in table["regimes"]],
            "tested": ["**yes**" if t else "no" for t in table["tested"]],
            "power": [
                (p or "—") + (f", {g} ({m:.2g})" if g and not math.isnan(m) else "")
                for p, g, m in zip(table["power"], table["grade"], table["margin"], strict=True)
            ],
            "outcome": table["outcome"].replace("", "—"),
            "falsification search": [
                _search_cell(o, n, r, c)
                for o, n, r, c in zip(table["search_outcome"], table["search_runs"],
                                      table["search_worst_ratio"], table["check"], strict=True)  # fmt: skip
            ],
            "why not": table["why"]
            + [f"; {m}: measured {v}" if m and v and not t else "" for m, v, t in
               zip(table["mechanism"], table["mechanism_values"], table["tested"], strict=True)],
            "T_informative": [
                _horizon(t, note)
                for t, note in zip(table["T_informative"], table["T_informative_note"], strict=True)
            ],
            "T_power": [
                "" if p in ("uniform", "reference") else _horizon(t, note, power=True) + _floor_note(lo, s)
                for t, note, p, lo, s in zip(
                    table["T_power"], table["T_power_note"], table["power"], table["T_floor"],
                    table["T_search"], strict=True,
                )
            ],
            "CPU-h at T_power: run / seeds": [
                _hours(a, b, s) for a, b, s in
                zip(table["cpu_hours_power_run"], table["cpu_hours_power_seeds"], table["seeds"], strict=True)
            ],
        }
    )  # fmt: skip
    legend = " ".join(
        [
            f"**{title}.** {n['construction']} construction checks (true for every policy",
            f"sequence: they catch bugs, not learners) and {n['alternative']} lower bound (power against the",
            f"alternative it names) are counted apart; {n['unchecked']} claims have no check",
            "(proof-internal, or about quantities the runs do not record: listed below the table, each",
            "with its reason);",
            f"{n['references']} reference rows (prior work's results, an inequality inside a proof) are",
            "shown and not counted. A claim is *tested* when at ≥ 1 point (or fitted curve) the theorem's",
            "hypotheses hold, the check could have failed (an explicit bound below the trivial bound and",
            "the learner's own ceiling; a rate whose drawn curve already has its exponent), the claim's",
            "mechanism is exercised, the runs are not a copy of another curve's, they use constants the",
            "theorem covers, and a learner that does not learn would have failed it: `power` `uniform`",
            "(uniform play's value on the same instance and horizon is above the bound; for a rate, uniform",
            "play's slope over the same points is outside the band the check accepts), `reference` (the",
            "reference learner of its Table 1 column too), `alternative` (a lower bound: the learner it",
            "names would violate it), `construction`; an explicit upper bound's grade and margin (bound /"
            " uniform play's value at its best point): `strong` when a learner half the paper's and half"
            " uniform would fail it too (the bound below the average of the two), `nominal` when only"
            " uniform play would, `none` when neither. A rate's slope is `consistent` when its interval",
            "reaches the accepted band (the exponent and the drawn rate's local slope, widened by the",
            "local slope of the log powers its Õ hides, on the side the rate allows: `accepts`),",
            f"`{REJECTED}` otherwise: `persistent` when the slope over the last",
            "two decades measured (all of a shorter curve: `over n decades`) is still beyond the band, else",
            "`pre-asymptotic`; a curve is fitted from",
            "the learner's onset on (where its regret falls below half of uniform play's), a restarting",
            "learner's at its epoch ends (`at n epoch ends`) once it resets there. `T_informative`:",
            "the smallest horizon at",
            "which one curve would pass every check but power; `T_power`: at which it would also have power",
            "against uniform play (bound functions and uniform play's value on the extrapolated point; what",
            f"blocks it below; `> {short_number(T_MAX)}` past the search, `never` where no horizon searched",
            "could), with the cost model's CPU-hours of one run there and of its seeds. Each claim links to",
            "its page (the statement, its regimes and figures, every point and why it did or did not count).",
            "`falsification search`: the search of figures/falsification.md over the claim's hypotheses",
            "(its worst candidate confirmed with fresh seeds; docs/findings.md).",
            "How each column is computed: docs/evidence.md; every column: figures/evidence.csv.",
        ]
    ) + "\n\n"
    rest = pd.DataFrame(
        {
            "claim": [_linked(r) for r in unchecked.itertuples()],
            "statement": unchecked["text"],
            "source": unchecked["source"],
            "no check": unchecked["check"],
            "why": unchecked["why"],
        }
    )
    text = "# Evidence: every claim, tested where it speaks\n\n" + legend + to_markdown(lines)
    text += "\n\n## Claims without a check\n\n" + to_markdown(rest) if len(rest) else ""
    if archives:
        text += (
            "\n\n## Power-scale archive\n\nRuns too long for this run, kept in archive/power/ with their "
            "provenance (`provenance.json` names the command that made them; `snakemake --config "
            "scale=power` remakes them); a fresh archive's points are counted above under "
            "`<regime>~power`.\n\n"
            + archive_section(archives) + "\n"
        )
    return text
