"""The dual's catch-up (paper 000): where PDGD-OPS's multiplier first reaches the offline one, and what the
violation does before and after. Drawn from the trajectory regimes (``x: t``) on binding instances
(λ* ≠ 0), one row of panels per (regime, instance).

OGD on the dual (Algorithm 2, eq. (9)) moves ‖λ‖₁ by at most mηL per episode (Lemma 11, line 719), so from
λ_1 = 0 the multiplier cannot reach ‖λ*‖₁ before t = ‖λ*‖₁/(mηL): the *ceiling* mηL·t. Until it does, the
primal player sees too small a price on the constraints: the violation per episode climbs towards the
unconstrained optimum's, and the "best of both worlds" can only begin after the catch-up. With Appendix C's
η the ceiling is far out (the `paper` runs climb along it); the `tuned` η reaches λ* within the run.
"""

from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from regretlab.core.figure_files import freeze_layout, save_figure  # noqa: E402

#: Each constants preset's line style (the regimes' figures draw `paper` solid, `tuned` dashed).
LINESTYLES = {"paper": "-", "tuned": "--"}


def trajectories(summary: pd.DataFrame, numbers: dict) -> pd.DataFrame:
    """One row per (constants, checkpoint t) of a trajectory regime's instance: ‖λ_t‖₁ (mean and interval),
    the cumulative violation V_t, the dual step η and the ceiling mηL·t."""
    rows = summary[(summary["metric"] == "lambda_l1") & (summary["x_name"] == "t")]
    rows = rows.drop_duplicates(["constants", "t"]).sort_values(["constants", "t"])
    ceiling = numbers["m"] * numbers["L"] * rows["dual_eta_mean"] * rows["t"]
    return pd.DataFrame(
        {
            "constants": rows["constants"].to_numpy(),
            "t": rows["t"].to_numpy(dtype=float),
            "lambda": rows["mean"].to_numpy(dtype=float),
            "lambda_low": rows["ci_low"].to_numpy(dtype=float),
            "lambda_high": rows["ci_high"].to_numpy(dtype=float),
            "violation": rows["violation_mean"].to_numpy(dtype=float),
            "eta": rows["dual_eta_mean"].to_numpy(dtype=float),
            "ceiling": ceiling.to_numpy(dtype=float),
        }
    )


def catch_up(curve: pd.DataFrame, lambda_star: float) -> tuple[float, bool]:
    """The first checkpoint where the mean ‖λ_t‖₁ reaches ‖λ*‖₁, with True; else, where the ceiling mηL·t
    would (the earliest any run with this η could), with False."""
    reached = curve[curve["lambda"] >= lambda_star]
    if len(reached):
        return float(reached["t"].iloc[0]), True
    slope = float(curve["ceiling"].iloc[-1] / curve["t"].iloc[-1])
    return (lambda_star / slope if slope > 0 else math.inf), False


def _catch_up_text(t: float, reached: bool) -> str:
    if reached:
        return f"reaches λ* at t ≈ {t:.3g}"
    if math.isinf(t):
        return "never reaches λ* (η = 0)"
    return f"not within the run: its ceiling reaches λ* at t ≈ {t:.2g}"


def draw(rows: list[tuple[str, str, pd.DataFrame, dict]]):
    """One row of two panels per (regime, instance, trajectories, instance numbers): ‖λ_t‖₁ against t with
    ‖λ*‖₁, each preset's ceiling mηL·t and where it catches up; the violation per episode V_t/t against t."""
    fig, axes = plt.subplots(
        len(rows), 2, figsize=(11.0, 5.0 * len(rows)), squeeze=False, layout="constrained"
    )
    for (regime, instance, curves, numbers), (left, right) in zip(rows, axes, strict=True):
        lambda_star = float(numbers["lambda_star_l1"])
        notes = []
        for constants, curve in curves.groupby("constants", sort=True):
            style = {"linestyle": LINESTYLES.get(constants, ":")}
            shown = curve[curve["lambda"] > 0]
            line, = left.plot(shown["t"], shown["lambda"], linestyle=style["linestyle"], color="#1b7837",
                              label=f"‖λ_t‖₁ ({constants})")  # fmt: skip
            floor = shown["lambda"].min() / 10
            left.fill_between(shown["t"], shown["lambda_low"].clip(lower=floor), shown["lambda_high"],
                              color=line.get_color(), alpha=0.15, linewidth=0)  # fmt: skip
            left.plot(curve["t"], curve["ceiling"], linestyle=style["linestyle"], color="0.55", linewidth=0.9,
                      label=f"ceiling mηL·t ({constants}, η = {curve['eta'].iloc[-1]:.2g})")  # fmt: skip
            t_star, reached = catch_up(curve, lambda_star)
            if reached:
                for ax in (left, right):
                    ax.axvline(t_star, color="#b2182b", linestyle=style["linestyle"], linewidth=0.9)
            notes.append(f"{constants}: {_catch_up_text(t_star, reached)}")
            right.plot(curve["t"], curve["violation"] / curve["t"], linestyle=style["linestyle"],
                       color="#762a83", label=f"V_t / t ({constants})")  # fmt: skip
        left.axhline(lambda_star, color="black", linewidth=1.0, label=f"‖λ*‖₁ = {lambda_star:.3g}")
        left.set_xscale("log")
        left.set_yscale("log")
        left.set_ylim(bottom=max(lambda_star * 1e-4, left.get_ylim()[0]))
        left.set_xlabel("episode t", fontsize=8)
        left.set_ylabel("‖λ_t‖₁ (mean over seeds, 95% CI)", fontsize=8)
        left.set_title(f"{regime} / {instance}: the dual's catch-up\n" + "\n".join(notes), fontsize=8)
        right.axhline(0.0, color="black", linewidth=0.8)
        right.axhline(float(numbers["unconstrained_violation"]), color="0.55", linestyle="--",
                      linewidth=0.9, label="unconstrained optimum's V per episode")  # fmt: skip
        right.set_xscale("log")
        right.set_xlabel("episode t", fontsize=8)
        right.set_ylabel("violation per episode V_t / t (mean over seeds)", fontsize=8)
        right.set_title("climbs towards the unconstrained optimum's (V_t linear) until the dual catches up,\n"
                        "falls after (V_t sublinear); red lines: where ‖λ_t‖₁ first reaches ‖λ*‖₁",
                        fontsize=8)  # fmt: skip
        for ax in (left, right):
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2, frameon=False)
    fig.suptitle(
        "Paper 000: PDGD-OPS's multiplier against the offline one (Lemma 11's ceiling mηL per episode)",
        fontsize=10,
    )
    return freeze_layout(fig)


def write_catch_up(
    summaries: dict[str, pd.DataFrame],
    instances: dict[tuple[str, str], dict],
    png: os.PathLike,
    pdf: os.PathLike,
) -> list[tuple[str, str, str, float, bool]]:
    """Draw the catch-up figure for every binding instance of the trajectory regimes in ``summaries``
    (regime → aggregate table; ``instances`` maps (regime, instance) to its file's contents) and return,
    per (regime, instance, preset), where it catches up and whether within the run."""
    rows, found = [], []
    for regime, summary in summaries.items():
        for instance, part in summary.groupby("instance", sort=True):
            numbers = instances[(regime, instance)]["numbers"]
            if not numbers.get("lambda_star_l1", 0.0) > 0.0:
                continue  # not binding: λ* = 0, nothing to catch up with
            curves = trajectories(part, numbers)
            rows.append((regime, instance, curves, numbers))
            for constants, curve in curves.groupby("constants", sort=True):
                t_star, reached = catch_up(curve, float(numbers["lambda_star_l1"]))
                found.append((regime, instance, constants, t_star, reached))
    if not rows:
        raise ValueError(
            f"no instance of the trajectory regimes {sorted(summaries)} binds (‖λ*‖₁ > 0): the catch-up "
            "has nothing to show; give one of them a binding instance (family: binding)"
        )
    save_figure(draw(rows), png, pdf)
    return found
