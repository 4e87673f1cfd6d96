"""Turn a regime's run files into its aggregate table and its exponent fits.

The runs' final checkpoints (t = T) — or, for a trajectory regime (``x: t``), every checkpoint of the longest
runs — are grouped into *points* (instance, algorithm, constants, T). The
aggregate table has one row per point and per bound drawn at it: the mean and 95% bootstrap interval over
seeds of the bounded metric (``metric``, ``mean``, ``ci_low``, ``ci_high``), the bound's value at that point,
whether the theorem's hypotheses hold there, and — as wide columns ``<m>_mean``, ``<m>_ci_low``,
``<m>_ci_high`` — every metric of the regime's kind. A figure needs nothing else.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from regretlab.analysis.bootstrap import mean_interval
from regretlab.analysis.exponents import fit_exponent
from regretlab.io import config_hash, read_json, write_parquet
from regretlab.kinds import KINDS
from regretlab.seeding import job_seed_sequence
from regretlab.theory import BOUNDS

GROUP_KEYS = ["instance", "algorithm", "constants", "T"]
#: Instance numbers shown in figure titles, with their symbols.
LABELLED_NUMBERS = {"K": "K", "alpha": "α", "kappa": "κ", "L": "L", "m": "m", "rho": "ρ"}


def instance_label(numbers: dict) -> str:
    """A short human description of an instance from its numbers, e.g. ``K=16, α=4, κ=4``."""

    def show(value):
        return f"{value:.3g}" if isinstance(value, float) else str(value)

    return ", ".join(
        f"{symbol}={show(numbers[key])}" for key, symbol in LABELLED_NUMBERS.items() if key in numbers
    )


def points_of(runs: pd.DataFrame, x_name: str) -> pd.DataFrame:
    """The per-seed rows the aggregate summarises, with ``T`` the horizon a point stands for.

    For sweeps in T or L*, the final checkpoint t = T of every run. For ``x: t`` (a trajectory within a
    run), every checkpoint of the runs at the regime's largest horizon, with ``T`` set to the checkpoint t:
    the point "after t rounds", at which the bounds are evaluated with t in place of T (their anytime
    reading).
    """
    if x_name != "t":
        return runs[runs["t"] == runs["T"]]
    longest = runs[runs["T"] == runs["T"].max()].copy()
    longest["T"] = longest["t"]
    return longest


def _point_statistics(group: pd.DataFrame, metrics: tuple[str, ...], rng, n_resamples: int) -> dict:
    """Mean and bootstrap interval of every metric over the seeds of one point (none for a metric that is
    missing or NaN for every seed: e.g. the per-arm metrics of S̄ on a self-aware graph)."""
    stats = {}
    for metric in metrics:
        values = group[metric].to_numpy(dtype=float) if metric in group else np.full(len(group), np.nan)
        if np.isnan(values).all():  # a metric this point's instance or learner does not define: no columns
            continue
        low, high = mean_interval(values, rng, n_resamples)
        stats.update({f"{metric}_mean": values.mean(), f"{metric}_ci_low": low, f"{metric}_ci_high": high})
    return stats


def summarise(
    regime: str, regime_config: dict, instances: dict[str, dict], runs: pd.DataFrame, n_resamples: int
) -> pd.DataFrame:
    """The aggregate table of one regime (see module docstring), in a stable row order."""
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "bootstrap"))
    metrics = KINDS[regime_config["kind"]].metrics
    x_name = regime_config["x"]
    final = points_of(runs, x_name)
    rows = []
    for (instance, algorithm, constants, horizon), group in final.groupby(GROUP_KEYS, sort=True):
        stats = _point_statistics(group.sort_values("seed"), metrics, rng, n_resamples)
        numbers = instances[instance]["numbers"]
        # The bounds see the horizon, the instance's numbers and every metric's mean (L*, ρ, OPT, ℓ̄, C …).
        point = {"T": int(horizon), "t": int(horizon), **numbers}
        point.update({metric: stats[f"{metric}_mean"] for metric in metrics if f"{metric}_mean" in stats})
        for bound_name in regime_config["bounds"][algorithm]:
            spec = BOUNDS[bound_name]
            rows.append(
                {
                    "regime": regime,
                    "paper": regime_config["paper"],
                    "theorem": regime_config["theorem"],
                    "instance": instance,
                    "instance_label": instance_label(numbers),
                    "algorithm": algorithm,
                    "constants": constants,
                    "T": int(horizon),
                    "n_seeds": len(group),
                    "x_name": x_name,
                    "x": float(point[x_name]),
                    "metric": spec.metric,
                    "mean": stats[f"{spec.metric}_mean"],
                    "ci_low": stats[f"{spec.metric}_ci_low"],
                    "ci_high": stats[f"{spec.metric}_ci_high"],
                    "bound_name": bound_name,
                    "bound_label": spec.label,
                    "bound_value": float(spec.evaluate(point)),
                    "bound_explicit": spec.explicit,
                    "hypotheses_hold": bool(group["hypotheses_hold"].all())
                    and (spec.hypotheses is None or spec.hypotheses(point)),
                    **stats,
                }
            )
    return pd.DataFrame(rows)


def fit_exponents(
    regime: str, regime_config: dict, runs: pd.DataFrame, summary: pd.DataFrame, n_resamples: int
) -> pd.DataFrame:
    """Log–log slope of each bounded metric's mean in the regime's swept variable, per curve of the figure.

    With ``x: T`` a curve is one (instance, algorithm, constants, bound); with ``x: L_star`` it is one
    (algorithm, constants, T, bound) across the instances, whose mean L* are the abscissae.
    """
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "exponents"))
    x_name = regime_config["x"]
    final = points_of(runs, x_name)
    per_seed = {key: group for key, group in final.groupby(GROUP_KEYS, sort=True)}
    curve_keys = (
        ["instance", "algorithm", "constants"] if x_name in ("T", "t") else ["algorithm", "constants", "T"]
    )
    rows = []
    for key, curve in summary.groupby([*curve_keys, "bound_name"], sort=True):
        curve = curve.sort_values("x")
        key_of = dict(zip([*curve_keys, "bound_name"], key, strict=True))
        bound = BOUNDS[key_of["bound_name"]]
        per_point = [
            per_seed[point][bound.metric].to_numpy()
            for point in curve[GROUP_KEYS].itertuples(index=False, name=None)
        ]
        slope, low, high = fit_exponent(curve["x"].to_numpy(), per_point, rng, n_resamples)
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
                "metric": bound.metric,
                "bound_name": key_of["bound_name"],
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
