"""What the aggregate checks before it reads a regime's run tables: exactly the tables its run jobs write,
once each, every one unchanged since it was written and holding the run its name says.

A table's path names its run (``results/runs/{regime}/{algorithm}/part~{part}/{constants}/{instance}/T~{T}/
seeds~{first}-{last}.parquet``, :func:`regretlab.workflow.config.run_file`); its key columns
(:data:`regretlab.core.io.RUN_KEYS`), its ``seed`` column and the ``seeds`` of its metadata say the same, and
its bytes match the digest recorded when it was written (:mod:`regretlab.core.digests`). A stray copy, a
deleted seed batch, a planted or edited table would otherwise change the figure without a word.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from regretlab.core import digests
from regretlab.core.io import RUN_KEYS, read_parquet_metadata

_TABLE = re.compile(r"(?P<instance>[^/]+)/T~(?P<T>\d+)/seeds~(?P<first>\d+)-(?P<last>\d+)\.parquet$")
_PART = re.compile(r"(?:^|/)runs/(?P<regime>[^/]+)/(?P<algorithm>[^/]+)/part~\d+/(?P<constants>[^/]+)/")


class RunTableError(RuntimeError):
    """A regime's run tables are not the ones its run jobs wrote: one line per file, naming it."""


def run_table_problems(found: list[str], expected: list[str]) -> list[str]:
    """One line per problem among the ``found`` tables of a regime's run directories, ``expected`` being
    the tables its run jobs write (both as paths)."""
    found_set, expected_set = set(map(str, found)), set(map(str, expected))
    stray = sorted(found_set - expected_set)
    lines = [f"{path}: not a table of this regime's run jobs (a stray copy?)" for path in stray]
    lines += [f"{path}: missing (a seed batch deleted?)" for path in sorted(expected_set - found_set)]
    for path in sorted(found_set & expected_set):
        problem = digests.check(path) or _identity_problem(path)
        if problem:
            lines.append(f"{path}: {problem}")
    return lines


def check_run_tables(regime: str, found: list[str], expected: list[str]) -> None:
    """Raise :class:`RunTableError` naming every problem :func:`run_table_problems` finds."""
    lines = run_table_problems(found, expected)
    if lines:
        raise RunTableError(
            f"the run tables of regime {regime!r} are not the ones its run jobs wrote (the next snakemake "
            "removes and reruns them):\n" + "\n".join(lines)
        )


def _identity_problem(path: str) -> str | None:
    """None when the table holds the run its path names; else what differs."""
    posix = Path(path).as_posix()
    table, part = _TABLE.search(posix), _PART.search(posix)
    if table is None or part is None:
        return "its path is not a run table's"
    try:
        seeds = read_parquet_metadata(path).get("seeds")
        frame = pd.read_parquet(path, columns=[*RUN_KEYS, "seed"])
    except Exception as error:  # noqa: BLE001 - a truncated or foreign file: name it
        return f"cannot be read ({type(error).__name__})"
    named = {**part.groupdict(), "instance": table["instance"], "T": int(table["T"])}
    for column, value in named.items():
        held = frame[column].unique().tolist()
        if held != [value]:
            return f"holds {column} {held}, its path says {value!r}"
    first, last = int(table["first"]), int(table["last"])
    if not seeds or seeds[0] != first or seeds[-1] != last or sorted(set(frame["seed"])) != sorted(seeds):
        return f"holds seeds {sorted(set(frame['seed']))}, its path says {first}–{last}"
    return None
