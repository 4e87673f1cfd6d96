"""Turn a regime's run files into its aggregate table and its exponent fits.

The aggregate table has one row per (instance, algorithm, constants, T) — the runs' final checkpoints
t = T — with the mean and 95% bootstrap interval over seeds of each metric, the bound the theorem states at
that point, and whether the theorem's hypotheses hold there. A figure needs nothing else.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from regretlab.analysis.bootstrap import mean_interval
from regretlab.analysis.exponents import fit_exponent
from regretlab.bandits.bounds import BOUNDS
from regretlab.io import config_hash, read_json, write_parquet
from regretlab.seeding import job_seed_sequence

#: Per-seed metrics summarised in the aggregate table (as ``<metric>_mean``, ``_ci_low``, ``_ci_high``).
METRICS = ("pseudo_regret", "realized_regret", "L_star")
#: The metric the bounds, figures and exponent fits are about.
REGRET_METRIC = "pseudo_regret"
GROUP_KEYS = ["instance", "algorithm", "constants", "T"]


#: Instance numbers shown in figure titles, with their symbols.
LABELLED_NUMBERS = {"K": "K", "alpha": "α", "kappa": "κ"}


def instance_label(numbers: dict) -> str:
    """A short human description of an instance from its graph numbers, e.g. ``K=16, α=4, κ=4``."""
    return ", ".join(f"{symbol}={numbers[key]}" for key, symbol in LABELLED_NUMBERS.items() if key in numbers)


def summarise(
    regime: str, regime_config: dict, instances: dict[str, dict], runs: pd.DataFrame, n_resamples: int
) -> pd.DataFrame:
    """The aggregate table of one regime (see module docstring); rows sorted by the group keys."""
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "bootstrap"))
    final = runs[runs["t"] == runs["T"]]
    rows = []
    for (instance, algorithm, constants, horizon), group in final.groupby(GROUP_KEYS, sort=True):
        group = group.sort_values("seed")
        row = {
            "regime": regime,
            "paper": regime_config["paper"],
            "theorem": regime_config["theorem"],
            "instance": instance,
            "instance_label": instance_label(instances[instance]["numbers"]),
            "algorithm": algorithm,
            "constants": constants,
            "T": int(horizon),
            "n_seeds": len(group),
        }
        for metric in METRICS:
            values = group[metric].to_numpy(dtype=float)
            low, high = mean_interval(values, rng, n_resamples)
            row.update({f"{metric}_mean": values.mean(), f"{metric}_ci_low": low, f"{metric}_ci_high": high})
        bound_name = regime_config["bounds"][algorithm]
        spec = BOUNDS[bound_name]
        point = {"T": int(horizon), "L_star": row["L_star_mean"], **instances[instance]["numbers"]}
        row.update(
            {
                "x_name": regime_config["x"],
                "x": float(point[regime_config["x"]]),
                "bound_name": bound_name,
                "bound_label": spec.label,
                "bound_value": spec.evaluate(point),
                "bound_explicit": spec.explicit,
                "hypotheses_hold": bool(group["hypotheses_hold"].all()),
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


def fit_exponents(
    regime: str, regime_config: dict, runs: pd.DataFrame, summary: pd.DataFrame, n_resamples: int
) -> pd.DataFrame:
    """Log–log slope of the mean regret in the regime's swept variable, per curve of the figure.

    With ``x: T`` a curve is one (instance, algorithm, constants); with ``x: L_star`` it is one (algorithm,
    constants, T) across the instances, whose mean L* are the abscissae.
    """
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "exponents"))
    x_name = regime_config["x"]
    final = runs[runs["t"] == runs["T"]]
    per_seed = {key: group[REGRET_METRIC].to_numpy() for key, group in final.groupby(GROUP_KEYS, sort=True)}
    curve_keys = ["instance", "algorithm", "constants"] if x_name == "T" else ["algorithm", "constants", "T"]
    rows = []
    for key, curve in summary.groupby(curve_keys, sort=True):
        curve = curve.sort_values("x")
        key_of = dict(zip(curve_keys, key, strict=True))
        per_point = [per_seed[key] for key in curve[GROUP_KEYS].itertuples(index=False, name=None)]
        slope, low, high = fit_exponent(curve["x"].to_numpy(), per_point, rng, n_resamples)
        bound = BOUNDS[regime_config["bounds"][key_of["algorithm"]]]
        rows.append(
            {
                "regime": regime,
                "algorithm": key_of["algorithm"],
                "x": x_name,
                "exponent": slope,
                "ci_low": low,
                "ci_high": high,
                "theory_exponent": bound.exponents[x_name],
                "hypotheses_hold": bool(curve["hypotheses_hold"].all()),
                "instance": key_of.get("instance", "all"),
                "constants": key_of["constants"],
                "n_points": len(curve),
            }
        )
    return pd.DataFrame(rows)


def aggregate_regime(
    regime: str,
    regime_config: dict,
    instance_paths: list[str],
    run_paths: list[str],
    n_resamples: int,
    summary_path: str,
    exponents_path: str,
) -> None:
    """Read a regime's instance and run files; write its aggregate table and exponent fits atomically.

    The files' bytes depend only on the inputs and the config (no wall-clock metadata), so two runs of the
    workflow from scratch give bitwise-identical tables.
    """
    instances = {Path(path).stem: read_json(path) for path in instance_paths}
    runs = pd.concat([pd.read_parquet(path) for path in sorted(run_paths)], ignore_index=True)
    summary = summarise(regime, regime_config, instances, runs, n_resamples)
    exponents = fit_exponents(regime, regime_config, runs, summary, n_resamples)
    metadata = {"regime": regime, "config_hash": config_hash(regime_config), "n_resamples": n_resamples}
    write_parquet(summary_path, summary, metadata)
    write_parquet(exponents_path, exponents, metadata)
