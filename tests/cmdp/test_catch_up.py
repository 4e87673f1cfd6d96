"""The dual's catch-up figure (paper 000, issue 34 item 6): where ‖λ_t‖₁ first reaches ‖λ*‖₁, the ceiling
mηL·t of Lemma 11 when it does not within the run, and the figure drawn for binding instances only."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from regretlab.cmdp.catch_up import catch_up, trajectories, write_catch_up

NUMBERS = {"m": 1, "L": 3, "lambda_star_l1": 0.4, "unconstrained_violation": 2.0}


def _summary(constants: str, eta: float, lam: list[float]) -> pd.DataFrame:
    t = np.array([1, 10, 100, 1000, 10000], dtype=float)
    return pd.DataFrame(
        {
            "instance": "binding", "constants": constants, "x_name": "t", "metric": "lambda_l1", "t": t,
            "mean": lam, "ci_low": np.array(lam) * 0.9, "ci_high": np.array(lam) * 1.1,
            "violation_mean": 2.0 * t, "dual_eta_mean": eta,
        }
    )  # fmt: skip


def test_the_catch_up_is_the_first_checkpoint_at_lambda_star_else_where_the_ceiling_reaches_it():
    summary = pd.concat([_summary("tuned", 1e-3, [0.0, 0.02, 0.3, 0.41, 0.4]),
                         _summary("paper", 1e-6, [0.0, 3e-5, 3e-4, 3e-3, 0.03])])  # fmt: skip
    curves = trajectories(summary, NUMBERS)
    tuned = curves[curves["constants"] == "tuned"]
    assert tuned["ceiling"].tolist() == pytest.approx([3e-3 * t for t in (1, 10, 100, 1000, 10000)])
    assert catch_up(tuned, 0.4) == (1000.0, True)
    paper = curves[curves["constants"] == "paper"]
    t_star, reached = catch_up(paper, 0.4)
    assert not reached and t_star == pytest.approx(0.4 / (1 * 3 * 1e-6))  # ‖λ*‖₁ / (mηL)


def test_the_figure_is_drawn_for_binding_instances_and_refuses_none(tmp_path):
    summary = pd.concat([_summary("tuned", 1e-3, [0.0, 0.02, 0.3, 0.41, 0.4])])
    found = write_catch_up({"trajectory": summary}, {("trajectory", "binding"): {"numbers": NUMBERS}},
                           tmp_path / "c.png", tmp_path / "c.pdf")  # fmt: skip
    assert found == [("trajectory", "binding", "tuned", 1000.0, True)]
    assert (tmp_path / "c.png").stat().st_size > 0
    vacuous = {("trajectory", "binding"): {"numbers": {**NUMBERS, "lambda_star_l1": 0.0}}}
    with pytest.raises(ValueError, match="binds"):
        write_catch_up({"trajectory": summary}, vacuous, tmp_path / "d.png", tmp_path / "d.pdf")
