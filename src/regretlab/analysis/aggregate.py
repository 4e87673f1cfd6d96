"""Turn a regime's run files into its aggregate table and its exponent fits.

The runs' final checkpoints (t = T) — or, for a trajectory regime (``x: t``), every checkpoint of the longest
runs — are grouped into *points* (instance, algorithm, constants, T, t). The aggregate table has one row per
point and per bound drawn at it: the mean and 95% bootstrap interval over seeds of the bounded metric
(``metric``, ``mean``, ``ci_low``, ``ci_high``), the bound's value at that point (the mean over seeds of its
value on each run, at the constants that run's learner used), whether the theorem's hypotheses hold there, the
metric's trivial bound, the ceiling the learner's construction puts on it (``ceiling``, the largest over
seeds, +∞ where there is none: :data:`regretlab.registry.theory.CEILINGS`), the bound's direction and its
verdict (:mod:`regretlab.analysis.verdicts`), ``run_hypotheses_hold`` (the learner's own conditions, without
the bound's), ``runs_hash`` (a hash of the point's per-seed metrics) and ``identical_to``
(:func:`mark_identical`), and — as
wide columns ``<m>_mean``, ``<m>_ci_low``, ``<m>_ci_high`` — every metric of the regime's kind. A figure needs
nothing else.

An algorithm drawn without a bound (a baseline without a theorem: ``bounds: {name: []}``) gets one row per
point and per metric the regime's bounds draw (its kind's first metric when no algorithm has a bound), with
an empty ``bound_name``, a NaN ``bound_value``, ``direction`` ``"none"`` and the verdict ``no bound``.

A trajectory point keeps ``T``, the horizon of its run, and ``x = t``, its checkpoint. Its hypotheses are
evaluated at ``T``: the theorem is a statement about a run of horizon ``T`` (Condition 2 at ``T``, the
confidence sets and δ of a horizon-``T`` run). So are the bounds on a metric whose bound does not depend on
``t`` (Theorem 4's ``ζ`` on ``max_τ≤t ||λ_τ||_1``, non-decreasing in ``t``, so the bound at ``T`` bounds every
checkpoint). A bound on a running sum over ``[1..t]`` (``BoundSpec.at_checkpoint``: Lemma 2's ``E^q_δ`` on
``Σ_τ≤t ||q_τ − q̂_τ||_1``, OGD's ``η m L² t / 2`` on ``R^D_t(0)``) is evaluated on the point at ``t`` — its
metrics at ``t``, with ``T`` still the run's horizon for the constants that depend on it (η, the confidence
radii's ``ln(T|X||A|/δ)``); in a sweep in ``T`` the two coincide. The trivial bound is the one at ``t``.

A 0/1 event per run (``Metric.proportion``, Lemma 5's "every epoch covered") is summarised by the fraction
of seeds with a Clopper–Pearson interval, and its verdict is a test (:func:`~regretlab.analysis.verdicts.
verdict` with ``proportion=True``).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from regretlab.analysis.bootstrap import mean_interval, proportion_interval
from regretlab.analysis.epoch_ends import epoch_end_points
from regretlab.analysis.exponents import (
    REJECTED,
    bound_regime,
    bound_slope,
    fit_exponent,
    log_slack,
    measured_decades,
    rate_verdict,
    rejection_kind,
)
from regretlab.analysis.run_table_checks import check_run_tables
from regretlab.analysis.verdicts import NO_BOUND, verdict
from regretlab.core.io import config_hash, read_json, read_parquet_metadata, write_parquet
from regretlab.core.seeding import job_seed_sequence
from regretlab.registry.kinds import KINDS
from regretlab.registry.theory import BOUNDS, TRIVIAL_BOUNDS, bounds_for, ceiling, trivial_bound
from regretlab.specs.bound_spec import Point

GROUP_KEYS = ["instance", "algorithm", "constants", "T", "t"]
#: The key of one run's learner parameters: its point's key without ``t``, and the seed.
RUN_KEYS = ["instance", "algorithm", "constants", "T", "seed"]
#: The suffix of a regime's name in the tables aggregated from its power-scale archive
#: (:mod:`regretlab.workflow.archive`): ``<regime>~power``.
ARCHIVED_SUFFIX = "~power"
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
    """The per-seed rows the aggregate summarises.

    For sweeps in T or L*, the final checkpoint t = T of every run. For ``x: t`` (a trajectory within a
    run), every checkpoint of the runs at the regime's largest horizon; ``T`` stays that horizon (see the
    module docstring for why the bounds are evaluated there).
    """
    if x_name != "t":
        return runs[runs["t"] == runs["T"]]
    return runs[runs["T"] == runs["T"].max()]


def with_archives(regimes: tuple[str, ...]) -> list[str]:
    """The regime names whose tables stand for ``regimes``: theirs and their archives' (<regime>~power)."""
    return [*regimes, *(regime + ARCHIVED_SUFFIX for regime in regimes)]


def learner_params(run_paths: list[str]) -> dict[tuple, dict]:
    """``(instance, algorithm, constants, T, seed) -> params`` from the run tables' metadata: the constants
    each bandit learner reports under ``learners`` (η, c …), or a CMDP run's record under ``runs`` (its dual
    step ``eta``, ``C``, ``layer_sizes`` …); runs whose metadata carries neither map to nothing."""
    params = {}
    for path in run_paths:
        metadata = read_parquet_metadata(path)
        keys = pd.read_parquet(path, columns=RUN_KEYS[:-1]).iloc[0]
        for learner in metadata.get("learners", []):
            params[(*keys, learner["seed"])] = learner["params"]
        for run in metadata.get("runs", []):
            params[(*keys, run["seed"])] = run
    return params


def _point_statistics(
    group: pd.DataFrame, metrics: tuple[str, ...], rng, n_resamples: int, proportions: tuple[str, ...] = ()
) -> dict:
    """Mean and bootstrap interval of every metric over the seeds of one point — for a 0/1 event of
    ``proportions``, the fraction of seeds and its Clopper–Pearson interval — (none for a metric that is
    missing or NaN for every seed: e.g. the per-arm metrics of S̄ on a self-aware graph)."""
    stats = {}
    for metric in metrics:
        values = group[metric].to_numpy(dtype=float) if metric in group else np.full(len(group), np.nan)
        if np.isnan(values).all():  # a metric this point's instance or learner does not define: no columns
            continue
        if metric in proportions:
            low, high = proportion_interval(values)
        else:
            low, high = mean_interval(values, rng, n_resamples)
        stats.update({f"{metric}_mean": values.mean(), f"{metric}_ci_low": low, f"{metric}_ci_high": high})
    return stats


def _seed_points(group: pd.DataFrame, numbers: dict, metrics: tuple[str, ...], params: dict) -> list[Point]:
    """One :class:`~regretlab.specs.bound_spec.Point` per seed of a point: horizon, checkpoint, instance
    numbers, that run's metrics and its learner's parameters."""
    points = []
    recorded = [metric for metric in metrics if metric in group.columns]  # e.g. Theorem 5's ε̂ only there
    for row in group.itertuples(index=False):
        key = (row.instance, row.algorithm, row.constants, int(row.T), int(row.seed))
        measured = {metric: getattr(row, metric) for metric in recorded}
        points.append(Point(int(row.T), int(row.t), numbers, params.get(key, {}), measured))
    return points


def _mean_over(points: list[Point], evaluate) -> float:
    return float(np.mean([evaluate(point) for point in points]))


def _ceiling_over(points: list[Point], metric: str, algorithm: str, direction: str) -> float:
    """The construction's ceiling on ``metric`` over the seeds of a point: the largest per-run ceiling (the
    smallest floor for a lower bound), so that a bound at or beyond it is beyond every seed's metric, hence
    beyond the interval over seeds. +∞ (−∞ for a floor) where the learner's construction gives none."""
    values = [ceiling(metric, algorithm, point) for point in points]
    lower = direction == "lower"
    if np.isnan(values).any():
        return -math.inf if lower else math.inf
    return float(min(values) if lower else max(values))


def runs_hash(group: pd.DataFrame, metrics: tuple[str, ...]) -> str:
    """A hash of one point's per-seed metrics (seed order, float64 bytes): equal for two curve families at a
    point exactly when their runs recorded bit-identical metrics there."""
    recorded = [metric for metric in metrics if metric in group.columns]
    values = group.sort_values("seed")[["seed", *recorded]].to_numpy(dtype=float)
    digest = hashlib.sha256(",".join(recorded).encode())
    digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()[:16]


def mark_identical(summary: pd.DataFrame, regime_config: dict) -> pd.DataFrame:
    """Add ``identical_to``: for a curve family (algorithm, constants) whose runs are bit-identical to an
    earlier family's at every point (same points, same ``runs_hash``), that family as ``algorithm/constants``;
    "" otherwise. Earlier: the regime's algorithm order, then its presets' (``paper`` first). Such twins are
    drawn and counted once (figures, verdict, exponent and evidence tables)."""
    if summary.empty:
        return summary.assign(identical_to=pd.Series(dtype=str))
    order = {name: i for i, name in enumerate(regime_config.get("algorithms", []))}
    presets = {name: i for i, name in enumerate(regime_config.get("constants", ["paper", "tuned"]))}
    points = summary.drop_duplicates(GROUP_KEYS).sort_values(["instance", "T", "t"])
    columns = ["instance", "T", "t", "runs_hash"]
    signatures = {
        family: tuple(rows[columns].itertuples(index=False, name=None))
        for family, rows in points.groupby(["algorithm", "constants"])
    }
    first_of, twin = {}, {}
    for family in sorted(
        signatures, key=lambda f: (order.get(f[0], len(order)), f[0], presets.get(f[1], 9), f[1])
    ):
        canonical = first_of.setdefault(signatures[family], family)
        twin[family] = "" if canonical == family else f"{canonical[0]}/{canonical[1]}"
    return summary.assign(
        identical_to=[twin[f] for f in zip(summary["algorithm"], summary["constants"], strict=True)]
    )


def drawn_metrics(regime_config: dict) -> list[str]:
    """The metrics a regime's figure draws: those its bounds bound, else its kind's first metric."""
    named = regime_config["bounds"].values()
    groups = [group for names in named for group in (names.values() if isinstance(names, dict) else [names])]
    names = {BOUNDS[bound].metric for group in groups for bound in group}
    return sorted(names) or [next(iter(KINDS[regime_config["kind"]].metrics))]


def summarise(
    regime: str,
    regime_config: dict,
    instances: dict[str, dict],
    runs: pd.DataFrame,
    n_resamples: int,
    params: dict[tuple, dict] | None = None,
) -> pd.DataFrame:
    """The aggregate table of one regime (see module docstring), in a stable row order.

    ``params`` are the learners' parameters by run (:func:`learner_params`); bounds that need them (the
    explicit bounds of paper 001) read them under the point's ``params``.
    """
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "bootstrap"))
    kind = KINDS[regime_config["kind"]]
    metrics = kind.metrics
    proportions = tuple(name for name, metric in metrics.items() if metric.proportion)
    x_name = regime_config["x"]
    final = points_of(runs, x_name)
    # Each row's run at its horizon, aligned with the rows (the identity but for trajectory points).
    ends = runs[runs["t"] == runs["T"]].set_index(RUN_KEYS)
    at_horizon = ends.loc[pd.MultiIndex.from_frame(final[RUN_KEYS])].reset_index().set_index(final.index)
    unbounded = drawn_metrics(regime_config)
    rows = []
    for (instance, algorithm, constants, horizon, checkpoint), group in final.groupby(GROUP_KEYS, sort=True):
        group = group.sort_values("seed")
        stats = _point_statistics(group, metrics, rng, n_resamples, proportions)
        point_hash = runs_hash(group, metrics)
        numbers = instances[instance]["numbers"]
        seed_points = _seed_points(group, numbers, metrics, params or {})
        # The bound and the hypotheses of a horizon-T run: its metrics at t = T (module docstring).
        horizon_group = group if checkpoint == horizon else at_horizon.loc[group.index]
        horizon_points = _seed_points(horizon_group, numbers, metrics, params or {})
        swept = {"T": horizon, "t": checkpoint}
        x_value = float(swept[x_name]) if x_name in swept else float(stats[f"{x_name}_mean"])
        hypotheses_hold = bool(group["hypotheses_hold"].all())
        names = bounds_for(regime_config, algorithm, constants)
        means = {metric: stats[f"{metric}_mean"] for metric in metrics if f"{metric}_mean" in stats}
        null_point = Point(int(horizon), int(checkpoint), numbers, seed_points[0]["params"], means)

        def null_uniform(metric, instance=instance, algorithm=algorithm, null_point=null_point):
            return kind.uniform_value(instances[instance], metric, null_point, algorithm)

        point = {  # the columns that name the point, first in every row of it
            "regime": regime,
            "paper": regime_config["paper"],
            "theorem": regime_config["theorem"],
            "instance": instance,
            "instance_label": instance_label(numbers),
            "algorithm": algorithm,
            "constants": constants,
            # the step sizes set by hand (config `step`), as JSON; "" where the theorem's tuning set them
            "step": json.dumps(regime_config["step"][algorithm], sort_keys=True)
            if algorithm in regime_config.get("step", {})
            else "",
            "T": int(horizon),
            "t": int(checkpoint),
            "n_seeds": len(group),
            "x_name": x_name,
            "x": x_value,
        }
        # A baseline without a bound: its metrics, with no bound (those its runs have).
        for metric in [] if names else [m for m in unbounded if f"{m}_mean" in stats]:
            trivial = TRIVIAL_BOUNDS.get(metric)
            rows.append(
                {
                    **point,
                    "metric": metric,
                    "mean": stats[f"{metric}_mean"],
                    "ci_low": stats[f"{metric}_ci_low"],
                    "ci_high": stats[f"{metric}_ci_high"],
                    "bound_name": "",
                    "bound_label": "",
                    "bound_value": float("nan"),
                    "bound_explicit": False,
                    "direction": "none",
                    "trivial_bound": _mean_over(seed_points, trivial) if trivial else float("nan"),
                    "ceiling": float("nan"),
                    "verdict": NO_BOUND,
                    "hypotheses_hold": hypotheses_hold,
                    "run_hypotheses_hold": hypotheses_hold,
                    "runs_hash": point_hash,
                    "null_uniform": null_uniform(metric),
                    **stats,
                }
            )
        for bound_name in names:
            spec = BOUNDS[bound_name]
            if spec.applies is not None and not spec.applies(numbers):
                continue
            # A bound on a running sum over [1..t] is evaluated at the checkpoint (BoundSpec.at_checkpoint).
            bound_value = _mean_over(seed_points if spec.at_checkpoint else horizon_points, spec.evaluate)
            trivial_value = _mean_over(seed_points, lambda point, spec=spec: trivial_bound(spec, point))
            ceiling_value = _ceiling_over(seed_points, spec.metric, algorithm, spec.direction)
            ci_low, ci_high = stats[f"{spec.metric}_ci_low"], stats[f"{spec.metric}_ci_high"]
            hypotheses = hypotheses_hold and (
                spec.hypotheses is None or all(spec.hypotheses(p) for p in horizon_points)
            )
            rows.append(
                {
                    **point,
                    "metric": spec.metric,
                    "mean": stats[f"{spec.metric}_mean"],
                    "ci_low": ci_low,
                    "ci_high": ci_high,
                    "bound_name": bound_name,
                    "bound_label": spec.label,
                    "bound_value": bound_value,
                    "bound_explicit": spec.explicit,
                    "direction": spec.direction,
                    "trivial_bound": trivial_value,
                    "ceiling": ceiling_value,
                    "verdict": verdict(
                        spec.direction,
                        spec.explicit,
                        bound_value,
                        trivial_value,
                        ci_low,
                        ci_high,
                        ceiling_value,
                        proportion=spec.metric in proportions,
                        hypotheses_hold=hypotheses,
                    ),
                    "hypotheses_hold": hypotheses,
                    "run_hypotheses_hold": hypotheses_hold,
                    "runs_hash": point_hash,
                    "null_uniform": null_uniform(spec.metric),
                    **stats,
                }
            )
    return mark_identical(with_references(pd.DataFrame(rows)), regime_config)


def with_references(summary: pd.DataFrame) -> pd.DataFrame:
    """Add ``null_reference``: at a row whose bound names a reference learner (``BoundSpec.reference``, the
    minimax learner of its Table 1 column), that learner's measured mean of the row's metric at the same
    point (instance, T, t) of the same regime; NaN where the bound names none or the regime did not run it
    there."""
    if summary.empty:
        return summary.assign(null_reference=pd.Series(dtype=float))
    measured = {
        (row["algorithm"], row["instance"], row["T"], row["t"]): row
        for row in summary.drop_duplicates(["algorithm", "instance", "T", "t"]).to_dict("records")
    }
    values = []
    for row in summary[["bound_name", "metric", "instance", "T", "t"]].to_dict("records"):
        spec = BOUNDS.get(row["bound_name"])
        reference = measured.get((spec.reference, row["instance"], row["T"], row["t"])) if spec else None
        values.append(reference.get(f"{row['metric']}_mean", math.nan) if reference else math.nan)
    return summary.assign(null_reference=values)


#: A learner learns at a point where its mean regret is below this share of uniform play's value there.
LEARNS_BELOW = 0.5


def learning_onset(curve: pd.DataFrame) -> float:
    """The smallest x from which the learner learns at every later point of the curve (its mean below
    :data:`LEARNS_BELOW` × uniform play's value ``null_uniform``): the fit starts there. NaN where uniform
    play has no positive value at some point, or the curve's bound is not an upper one (no onset to find:
    every point is fitted); +inf where the learner does not learn at the curve's last point (no fit)."""
    null = curve["null_uniform"].to_numpy(dtype=float) if "null_uniform" in curve else np.array([np.nan])
    if not (np.all(np.isfinite(null)) and np.all(null > 0)) or (curve["direction"] != "upper").any():
        return float("nan")  # no null value, or a metric the learner raises (a lower bound: reward ratio)
    learns = curve["mean"].to_numpy(dtype=float) < LEARNS_BELOW * null
    if not learns[-1]:
        return float("inf")
    first = len(learns) - int(np.argmin(learns[::-1])) if not learns.all() else 0
    return float(curve["x"].to_numpy(dtype=float)[first])


def fit_exponents(
    regime: str,
    regime_config: dict,
    runs: pd.DataFrame,
    summary: pd.DataFrame,
    n_resamples: int,
    params: dict[tuple, dict] | None = None,
) -> pd.DataFrame:
    """Log–log slope of each bounded metric's mean in the regime's swept variable, per curve of the figure,
    beside the theory's asymptotic exponent and the local slope of the drawn bound over the same points.

    With ``x: T`` or ``x: t`` a curve is one (instance, algorithm, constants, bound); with ``x: L_star`` it is
    one (algorithm, constants, T, bound) across the instances, whose mean L* are the abscissae. ``exponent``
    is NaN where the means cannot carry a rate (``reason`` says why: not positive, ≈ 0, changing sign); see
    :func:`regretlab.analysis.exponents.bound_regime` for ``bound_regime``. ``identical_to`` names the curve
    family whose runs this one's are bit-identical to (:func:`mark_identical`): the same fit, counted there.

    A curve whose theorem's hypotheses hold at some of its points but not all is fitted on the points where
    they hold when there are at least two (``fitted_on``: ``hypotheses hold``), else on all its points
    (``all points``): a slope through points the theorem says nothing about does not test it. Of those, only
    the points from the learner's ``onset`` on are fitted (:func:`learning_onset`: where its regret has
    fallen below half of uniform play's; a slope through the warm-up measures the warm-up); a rejected rate
    is ``persistent`` or ``pre-asymptotic`` (``rejection``, :func:`regretlab.analysis.exponents.
    rejection_kind`). A learner that restarts and resets inside that range is fitted at its epoch ends
    instead (``fitted_at``: ``epoch ends``, :func:`regretlab.analysis.epoch_ends.epoch_end_points`, from the
    runs' learner ``params``), else at the checkpoints (``checkpoints``). A curve whose step sizes the config
    sets by hand (``step``) has no theory exponent: the bounds' exponents are those of the theorem's tuning.
    """
    rng = np.random.default_rng(job_seed_sequence(regime, "aggregate", "exponents"))
    x_name = regime_config["x"]
    final = points_of(runs, x_name)
    per_seed = {key: group for key, group in final.groupby(GROUP_KEYS, sort=True)}
    curve_keys = (
        ["instance", "algorithm", "constants"] if x_name in ("T", "t") else ["algorithm", "constants", "T"]
    )
    rows = []
    # The metric besides the bound: a curve drawn without a bound has one row per metric at each point.
    for key, curve in summary.groupby([*curve_keys, "bound_name", "metric"], sort=True):
        curve = curve.sort_values("x")
        holding = curve[curve["hypotheses_hold"].astype(bool)]
        fitted_on = "hypotheses hold" if 2 <= len(holding) < len(curve) else "all points"
        if fitted_on == "hypotheses hold":
            curve = holding
        onset = learning_onset(curve)
        if math.isfinite(onset):  # a rate is fitted where the learner learns, not over its warm-up
            curve = curve[curve["x"] >= onset]
        key_of = dict(zip([*curve_keys, "bound_name", "metric"], key, strict=True))
        bound = BOUNDS.get(key_of["bound_name"])  # None: a curve drawn without a bound
        metric = key_of["metric"]
        per_point = [
            per_seed[point][metric].to_numpy()
            for point in curve[GROUP_KEYS].itertuples(index=False, name=None)
        ]
        # The scale below which a mean counts as ≈ 0: the metric's trivial bound, else the bound itself.
        scale = curve["trivial_bound"].abs().max()
        if not np.isfinite(scale):
            scale = curve["bound_value"].abs().replace(np.inf, np.nan).max()
        fit_x = curve["x"].to_numpy()
        ends = epoch_end_points(params or {}, curve, x_name, metric) if len(curve) >= 2 else None
        if ends is not None:  # a restarting learner reset inside the range: its epoch ends, not the steps
            fit_x, per_point = ends.x, ends.values
        slope, low, high, reason = fit_exponent(fit_x, per_point, rng, n_resamples, scale)
        if math.isinf(onset):
            slope, low, high = (float("nan"),) * 3
            reason = "the learner does not learn at the last point (regret ≥ half of uniform play's)"
        elif math.isfinite(onset) and len(curve) < 2:
            reason = "the learner learns (regret < half of uniform play's) only at the last point"
        elif ends is not None and (unfit := ends.unfit_reason()):
            slope, low, high = (float("nan"),) * 3
            reason = unfit
        drawn_slope, bound_reason = bound_slope(curve["x"].to_numpy(), curve["bound_value"].to_numpy())
        # Uniform play's slope over the same points (NaN where its values are not all positive).
        null_slope, _ = bound_slope(curve["x"].to_numpy(), curve["null_uniform"].to_numpy(dtype=float))
        if bound is None:
            drawn_slope, bound_reason = float("nan"), ""
        elif x_name == "t" and not bound.at_checkpoint:
            drawn_slope, bound_reason = float("nan"), "bound taken at the run's horizon T: flat in t"
        theory = bound.exponents.get(x_name, float("nan")) if bound else float("nan")
        if bound is not None and "step" in curve and curve["step"].iloc[0]:
            # The exponent is the tuned learner's; at step sizes fixed by hand the theory gives none.
            theory = float("nan")
            hand_set = "step sizes set by hand (config step): no theory exponent"
            reason = "; ".join(r for r in (reason, hand_set) if r)
        # A rate's slope against the band it accepts, on the side of the bound's direction (the evidence
        # table judges a Θ̃ claim on both sides).
        sense = "lower" if bound is not None and bound.direction == "lower" else "upper"
        # The logs the rate's Õ hides beyond the drawn expression widen the band it accepts.
        rate = bound is not None and not bound.explicit
        own_power = bound.log_powers.get(x_name, 0.0) if rate else 0.0
        hidden = None
        if rate and ends is not None and x_name not in ("T", "t"):
            # At epoch ends a curve across instances runs through rounds τ that grow along it: the ln T its
            # Õ hides is ln τ there, and widens the band too (at checkpoints T is one horizon: it does not).
            hidden = (ends.t, bound.log_powers.get("T", 0.0))
        power = own_power + (hidden[1] if hidden else 0.0)
        slack = log_slack(fit_x, own_power) + (log_slack(fit_x, hidden[1], hidden[0]) if hidden else 0.0)
        verdict_of_rate = (
            rate_verdict(slope, low, high, theory, drawn_slope, sense, slack)
            if bound and not bound.explicit
            else ""
        )
        rejection = ""
        if verdict_of_rate == REJECTED:  # persistent, or drifting toward the rate over the last decades
            # Its own generator: the other curves' bootstrap draws stay what they were.
            label = "rejection " + "/".join(map(str, key))
            own = np.random.default_rng(job_seed_sequence(regime, "aggregate", label))
            rejection = rejection_kind(
                fit_x, per_point, own, n_resamples, scale, theory, drawn_slope, sense, own_power, hidden
            )
        rows.append(
            {
                "regime": regime,
                "algorithm": key_of["algorithm"],
                "x": x_name,
                "exponent": slope,
                "ci_low": low,
                "ci_high": high,
                "theory_exponent": theory,
                "bound_slope": drawn_slope,
                "null_slope": null_slope,
                "bound_regime": bound_regime(drawn_slope, theory),
                "log_power": power,
                "log_slack": slack,
                "rate_verdict": verdict_of_rate,
                "rejection": rejection,
                # the decades the persistence was judged over: the last two, or all a shorter curve spans
                "rejection_decades": measured_decades(fit_x) if rejection else float("nan"),
                "onset": onset,
                "reason": "; ".join(r for r in (reason, bound_reason) if r),
                "hypotheses_hold": bool(curve["hypotheses_hold"].all()),
                "instance": key_of.get("instance", "all"),
                "constants": key_of["constants"],
                "metric": metric,
                "bound_name": key_of["bound_name"],
                "bound_explicit": bool(bound and bound.explicit),
                "n_points": len(fit_x),
                "identical_to": curve["identical_to"].iloc[0],
                "fitted_on": fitted_on,
                "fitted_at": "epoch ends" if ends is not None else "checkpoints",
                # the points drawn as the fit's, where it was made at epoch ends
                "epoch_end_points": ends.to_json() if ends is not None else "",
            }
        )
    return pd.DataFrame(rows)


def aggregate_regime(
    regime: str,
    regime_config: dict,
    instance_paths: list[str],
    run_dirs: list[str],
    n_resamples: int,
    summary_path: str,
    exponents_path: str,
    run_tables: list[str] | None = None,
) -> None:
    """Read a regime's instance files and the run tables in its run jobs' directories; write its aggregate
    table and exponent fits atomically.

    ``run_tables`` lists the tables the run jobs write (the workflow passes them): the directories must hold
    exactly these, each unchanged and holding its run (:func:`regretlab.analysis.run_table_checks.
    check_run_tables`); None reads whatever tables the directories hold (a caller outside the workflow).
    The files' bytes depend only on the inputs and the config (no wall-clock metadata), so two runs of the
    workflow from scratch give bitwise-identical tables.
    """
    instances = {Path(path).stem: read_json(path) for path in instance_paths}
    run_paths = sorted(str(path) for directory in run_dirs for path in Path(directory).rglob("*.parquet"))
    if run_tables is not None:
        check_run_tables(regime, run_paths, run_tables)
    runs = pd.concat([pd.read_parquet(path) for path in run_paths], ignore_index=True)
    params = learner_params(run_paths)
    summary = summarise(regime, regime_config, instances, runs, n_resamples, params)
    exponents = fit_exponents(regime, regime_config, runs, summary, n_resamples, params)
    metadata = {"regime": regime, "config_hash": config_hash(regime_config), "n_resamples": n_resamples}
    write_parquet(summary_path, summary, metadata)
    write_parquet(exponents_path, exponents, metadata)
