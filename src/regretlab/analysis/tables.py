"""The exponent table: every regime's fitted log–log slopes next to the theory's, and paper 001's Table 1
row by row beside the fits that test it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from regretlab.core.io import read_json, write_json, write_text
from regretlab.registry.kinds import algorithm_spec

#: Column order of ``figures/exponents.csv`` and of the full table in ``.md``.
EXPONENT_COLUMNS = [
    "regime",
    "algorithm",
    "x",
    "exponent",
    "ci_low",
    "ci_high",
    "theory_exponent",
    "bound_slope",
    "bound_regime",
    "reason",
    "hypotheses_hold",
    "instance",
    "constants",
    "metric",
    "bound_name",
    "bound_explicit",
    "n_points",
    "identical_to",
    "fitted_on",
    "fitted_at",
    "onset",
    "rate_verdict",
    "rejection",
]


@dataclass(frozen=True)
class Table1Row:
    """One result of paper 001's Table 1 (lines 24–30).

    Attributes:
        graphs: the row's graph type.
        column: ``minimax (Alon et al. 2015)``, ``Lykouris et al. 2018`` or ``our work``.
        rate: the result as the table states it.

    The fits listed under a row are those of the algorithms whose registry entry names it
    (:attr:`regretlab.specs.algorithm_spec.AlgorithmSpec.table1`).
    """

    graphs: str
    column: str
    rate: str


#: Table 1 of paper 001, row by row and column by column, then the §3 steps that are not in it; keys are the
#: names algorithm entries give as their ``table1``.
TABLE1: dict[str, Table1Row] = {
    "strong_minimax": Table1Row("strongly observable, general", "minimax (Alon et al. 2015)", "Θ̃(√(αT))"),
    "strong_ours": Table1Row("strongly observable, general", "our work", "Õ(√((κ+1)L*))"),
    "self_aware_lykouris": Table1Row(
        "self-aware", "Lykouris et al. 2018", "Õ(α^{1/3}L*^{2/3}), Õ(√(κL*)) (undirected)"
    ),
    "self_aware_ours": Table1Row("self-aware", "our work", "Õ(min{√(κL*), √(αT)})"),
    "weak_minimax": Table1Row(
        "weakly observable, general", "minimax (Alon et al. 2015)", "Θ̃(d^{1/3}T^{2/3})"
    ),
    "weak_ours": Table1Row(
        "weakly observable, general",
        "our work",
        "Õ(L_D^{1−γ}) if i* ∈ S, Õ(L_D^{(1+γ)/2}) else; no o(L*) bound",
    ),
    "bipartite_minimax": Table1Row(
        "directed complete bipartite",
        "minimax (Alon et al. 2015)",
        "Θ̃(T^{2/3}) (the row above with d = 1; Exp3.G-weak's fits are listed there)",
    ),
    "bipartite_ours": Table1Row(
        "directed complete bipartite", "our work", "Õ(√L*) if i* ∈ S, Õ(L_{i_S*}^{2/3}) else"
    ),
    "theorem2": Table1Row("strongly observable (§3.1, Theorem 2; not a row)", "our work", "Õ(√(αT) + K²)"),
    "theorem3": Table1Row(
        "strongly observable (§3.2, Theorem 3; not a row)", "our work", "Õ(√((s+1)L*) + K²)"
    ),
}


def table1_row_of(algorithm: str) -> str | None:
    """The key of the Table 1 row whose fits include ``algorithm``'s, or None (a baseline, a CMDP learner,
    a name no registry has)."""
    spec = algorithm_spec(algorithm)
    return spec.table1 if spec else None


def exponent_table(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate per-regime exponent fits in a stable order."""
    table = pd.concat(frames, ignore_index=True)[EXPONENT_COLUMNS]
    return table.sort_values(
        ["regime", "metric", "instance", "algorithm", "constants", "bound_name"], ignore_index=True
    )


def cell(value: object) -> str:
    """A table cell: numbers to three decimals, NaN as an em dash, ``|`` escaped (e.g. in a reason)."""
    if isinstance(value, float):
        return "—" if value != value else f"{value:.3f}"
    return str(value).replace("|", "\\|")


def short_number(value: float) -> str:
    """Two significant digits, exponents without ``+`` and leading zeros: ``6.2e4``, ``0.00024``, ``33``."""
    text = f"{value:.2g}"
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else text


def duration(seconds: float) -> str:
    """``42 s``, ``12.5 min`` or ``3.07 h``."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.2f} h"


def records(frame: pd.DataFrame) -> list[dict]:
    """``frame.to_dict("records")``: one dict per row, Python scalars as values. pandas builds those by
    indexing each column of the frame, which costs more than the rows on the small slices of a wide summary
    table the evidence searches read thousands of times; one conversion of the whole frame does not."""
    columns = list(frame.columns)
    return [dict(zip(columns, row, strict=True)) for row in frame.to_numpy(dtype=object).tolist()]


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table, numbers to three decimals."""
    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def table1_comparison(table: pd.DataFrame) -> pd.DataFrame:
    """Paper 001's Table 1, row by row, beside the fits of the algorithms that achieve each result (one line
    per fit, or one ``not run`` line); fits of paper-001 regret metrics only."""
    lines = []
    rows_of = [table1_row_of(algorithm) for algorithm in table["algorithm"]]
    for key, row in TABLE1.items():
        fits = table[[of == key for of in rows_of]] if len(table) else table
        head = {"graphs": row.graphs, "column": row.column, "paper's rate": row.rate}
        if fits.empty:
            lines.append({**head, "regime": "not run"})
            continue
        for fit in fits.itertuples(index=False):
            interval = "" if fit.ci_low != fit.ci_low else f" [{fit.ci_low:.2f}, {fit.ci_high:.2f}]"
            fitted = (f"{fit.exponent:.2f}" if fit.exponent == fit.exponent else "—") + interval
            twin = getattr(fit, "identical_to", "")
            if isinstance(twin, str) and twin:  # the same runs as another family's: one fit, listed there
                fitted = "= {} ({}): identical runs, counted once".format(*twin.split("/"))
            lines.append(
                {
                    **head,
                    "regime": fit.regime,
                    "algorithm": f"{fit.algorithm} ({fit.constants})",
                    "instance": fit.instance,
                    "x": fit.x,
                    "fitted": fitted,
                    "theory": cell(float(fit.theory_exponent)),
                    "bound": f"{fit.bound_name} ({'explicit' if fit.bound_explicit else 'rate'})",
                    "bound_slope": cell(float(fit.bound_slope)),
                    "bound_regime": fit.bound_regime,
                    "reason": fit.reason,
                }
            )
    return pd.DataFrame(lines).fillna("")


def write_exponent_table(
    frames: list[pd.DataFrame], csv_path: str | os.PathLike, md_path: str | os.PathLike
) -> None:
    """Write ``figures/exponents.csv`` and ``figures/exponents.md`` atomically."""
    table = exponent_table(frames)
    write_text(csv_path, table.to_csv(index=False, float_format="%.6g"))
    text = (
        "# Exponents\n\n"
        "`exponent`: fitted log–log slope of each bounded metric's mean in the swept variable x, with a 95% "
        "bootstrap interval over seeds (NaN, with `reason`, where the means are ≤ 0, ≈ 0 or change sign). "
        "`theory_exponent`: the theorem's asymptotic exponent (paper 001, Table 1). `bound_slope`: the local "
        "slope of the drawn bound over the same points. `bound_regime`: `asymptotic` when |bound_slope − "
        "theory_exponent| ≤ 0.1, else `pre-asymptotic` — there the bound itself does not yet grow at the "
        "theory's rate, so a fitted slope far from `theory_exponent` does not contradict the theorem. "
        "`identical_to`: this family's runs are bit-identical to that one's (the same fit, counted once).\n\n"
        "## Paper 001, Table 1, row by row\n\n"
        + to_markdown(table1_comparison(table))
        + "\n## Every fit\n\n"
        + to_markdown(table)
    )
    write_text(md_path, text)


def types_path(csv_path: str | os.PathLike) -> Path:
    """Where a CSV's column types are written: ``<name>.types.json`` beside it."""
    return Path(csv_path).with_name(f"{Path(csv_path).stem}.types.json")


def write_typed_csv(table: pd.DataFrame, path: str | os.PathLike, float_format: str | None = None) -> Path:
    """Write ``table`` as CSV with its column types beside it (:func:`types_path`), each atomically; return
    the types file's path. A CSV alone loses types: read it back with :func:`read_typed_csv`."""
    write_text(path, table.to_csv(index=False, float_format=float_format))
    write_json(types_path(path), {column: str(dtype) for column, dtype in table.dtypes.items()})
    return types_path(path)


def read_typed_csv(path: str | os.PathLike) -> pd.DataFrame:
    """A CSV written by :func:`write_typed_csv`, with its types: text stays text (the paper ``"001"`` is not
    the number 1, an empty cell is ""), numbers and booleans are what they were."""
    types = read_json(types_path(path))
    text = [column for column, dtype in types.items() if dtype in ("str", "object", "string")]
    numbers = {column: dtype for column, dtype in types.items() if column not in text}
    frame = pd.read_csv(
        path, dtype={column: str for column in text}, keep_default_na=False,
        na_values={column: [""] for column in numbers},
    )  # fmt: skip
    return frame.astype(numbers)
