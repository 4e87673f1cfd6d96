"""``figures/power_search.csv`` and ``.md``: per bound, the smallest ``T_power`` a search over admissible
instances finds (:func:`regretlab.registry.theory.power_searches`; paper 000:
:mod:`regretlab.cmdp.power_search`) beside the horizon below which no instance can speak (the analytic floor,
docs/findings.md, finding 2). The evidence table names both in its ``T_power`` cell."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pandas as pd

from regretlab.analysis.tables import short_number, to_markdown, write_typed_csv
from regretlab.core.io import write_text
from regretlab.registry.theory import power_searches

#: The columns of ``figures/power_search.csv``, in order.
COLUMNS = [
    "bound", "metric", "T_search", "T_floor", "floor_L", "sizes", "rho", "opt", "uniform_rate", "evaluations",
    "mdp",
]  # fmt: skip


def _horizon(value: float) -> str:
    return "never (up to 1e24)" if math.isinf(value) else short_number(value)


def markdown(frame: pd.DataFrame) -> str:
    """The table as Markdown, each instance's ``mdp`` block below it (a config entry's, ``family:
    explicit``)."""
    shown = pd.DataFrame(
        {
            "bound": frame["bound"],
            "T_power found": [_horizon(v) for v in frame["T_search"]],
            "floor (any instance)": [
                f"{_horizon(v)} (L = {n})" if math.isfinite(v) else _horizon(v)
                for v, n in zip(frame["T_floor"], frame["floor_L"], strict=True)
            ],
            "found / floor": [
                f"{a / b:.3g}" if math.isfinite(a) and math.isfinite(b) else "—"
                for a, b in zip(frame["T_search"], frame["T_floor"], strict=True)
            ],
            "instance found": frame["sizes"],
            "ρ, OPT": [
                f"{r:.3g}, {o:.3g}" if math.isfinite(r) else ""
                for r, o in zip(frame["rho"], frame["opt"], strict=True)
            ],
            "uniform play per episode": [f"{u:.3g}" if math.isfinite(u) else "" for u in frame.uniform_rate],
            "CMDPs built": frame["evaluations"],
        }
    )
    lines = [
        "# The smallest T at which paper 000's bounds have power, over admissible CMDPs",
        "",
        "`T_power found`: the smallest horizon at which the theorem's hypotheses hold and the bound is",
        "below uniform play's expected value of its metric, minimised by differential evolution over small",
        "CMDPs (layers, states per layer, actions, constraints, and the actions' mean rewards and",
        "constraints; fixed sequences, δ = 0.1; `regretlab.cmdp.power_search`). `floor`: below it the bound",
        "exceeds the trivial bound L·T on every admissible CMDP, so no instance, searched or not, speaks",
        "there (docs/findings.md, finding 2). A search result is an upper bound on the best instance's",
        "`T_power`, the floor a lower bound. Each instance found is below as a config entry's `mdp` block",
        "(`family: explicit`).",
        "",
        to_markdown(shown),
        "",
    ]
    found = [row for row in frame.itertuples(index=False) if row.mdp]
    lines += [f"- `{row.bound}`: {_instance_text(row.mdp)}" for row in found]
    return "\n".join([*lines, ""])


def _uniform_moves(block: dict) -> bool:
    """Every transition row of the block is uniform over the next layer (or there are none: a chain)."""
    rows = [row for state in block.get("transitions", []) for row in state]
    return all(np.allclose(row, 1.0 / len(row)) for row in rows)


def _instance_text(mdp: str) -> str:
    """An ``mdp`` block (JSON) in words: its rows once when every state has the same rows and the moves are
    uniform, else the block."""
    block = json.loads(mdp)
    reward, constraint = block["reward"], block["constraint"]
    alike = all(row == reward[0] for row in reward) and all(t == [t[0]] * len(t) for t in constraint)
    if not (alike and _uniform_moves(block)):
        return f"`mdp: {json.dumps(block)}`"
    sizes = block["layer_sizes"]
    shape = f"layer_sizes {sizes}" if max(sizes) > 1 else f"a chain of {len(sizes) - 1} layer(s)"
    moves = ", transitions uniform over the next layer" if max(sizes) > 1 else ""
    tables = ", ".join(str(table[0]) for table in constraint)
    return f"{shape}{moves}; in every non-terminal state rewards {reward[0]}, constraints {tables}"


def write_power_search(
    csv_path: str | os.PathLike, md_path: str | os.PathLike, names: tuple[str, ...] | None = None
) -> pd.DataFrame:
    """Run the kinds' power searches (``names``: those bounds only; None: all); write the table (typed CSV)
    and its Markdown atomically; return it."""
    frame = pd.DataFrame(power_searches(names), columns=COLUMNS)
    write_typed_csv(frame, csv_path, float_format="%.6g")
    write_text(md_path, markdown(frame))
    return frame
