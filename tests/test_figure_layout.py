"""Figures fit for a talk (issue 36, item 4): every figure of the default run, drawn from its aggregate table
(tests/data/figures_quick), has no overlapping text, no legend or text over a panel not its own, tick labels
of at most three significant digits, and rational exponents written as fractions."""

from __future__ import annotations

import functools

import evidence_fixture
import matplotlib.pyplot as plt
import pytest
from figure_checks import overlaps, significant_digits, tick_problems

from regretlab.analysis.figure_layout import exponent_text, tick_text
from regretlab.analysis.figures import draw_figure


@functools.cache
def _inputs():
    return evidence_fixture.figure_inputs()


def _regimes() -> list[str]:
    return sorted(_inputs()[0]["regime"].unique())


def _figure(regime: str):
    summary, exponents = _inputs()
    return draw_figure(
        summary[summary["regime"] == regime].reset_index(drop=True),
        exponents[exponents["regime"] == regime].reset_index(drop=True),
    )


@pytest.mark.parametrize("regime", _regimes())
def test_a_figure_has_no_overlapping_text_and_short_ticks(regime):
    fig = _figure(regime)
    try:
        assert overlaps(fig) == []
        assert tick_problems(fig) == []
    finally:
        plt.close(fig)


def test_the_check_finds_a_legend_over_a_panel_and_long_ticks():
    """The checks can fail: the same figure with its legend moved onto the first panel, and a tick label
    with six digits."""
    fig = _figure("weak_adaptive_general_vs_T")
    try:
        (legend,) = fig.legends
        legend.set_bbox_to_anchor(fig.axes[0].get_position(), transform=fig.transFigure)
        legend.set_loc("center")
        assert any("legend covers panel 0" in problem for problem in overlaps(fig))
        fig.axes[0].set_xticks([30000, 123456], ["30000", "123456"])
        assert tick_problems(fig) == ["panel 0: tick label '123456'"]
    finally:
        plt.close(fig)


def test_every_default_figure_is_rendered_by_the_check():
    """The fixture holds every regime of the shipped config (a regime missing here is never checked), and
    the power-scale archives the default run draws (``<regime>~power``)."""
    shipped = set(evidence_fixture.shipped_config()["regimes"])
    assert {name.removesuffix("~power") for name in _regimes()} == shipped


@pytest.mark.parametrize(
    ("value", "text"),
    [(2 / 3, "2/3"), (0.5, "1/2"), (1.0, "1"), (0.25, "1/4"), (1 / 3, "1/3"), (0.73, "0.73"),
     (0.6667, "0.667")],  # fmt: skip
)
def test_an_exponent_is_a_fraction_where_it_is_one(value, text):
    assert exponent_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(2949, "2950"), (316228, "316000"), (30000, "30000"), (0.0316, "0.0316"), (2.5, "2.5"),
     (1.5e7, "1.5e+07")],  # fmt: skip
)
def test_a_tick_label_has_three_significant_digits_at_most(value, text):
    assert tick_text(value) == text and significant_digits(text) <= 3


@pytest.mark.parametrize(
    ("label", "digits"),
    [("4.02486\\times10^{-1}", 6), ("$\\mathdefault{10^{3}}$", 1), ("30000", 1), ("0.25", 2), ("−0.5", 1)],
)
def test_significant_digits_reads_tick_labels(label, digits):
    assert significant_digits(label) == digits


def test_the_crossover_figure_has_no_overlapping_text_and_short_ticks():
    from regretlab.analysis.crossover import crossover_table, draw

    summary, _ = _inputs()
    fig = draw(crossover_table([summary]))
    try:
        assert overlaps(fig) == [] and tick_problems(fig) == []
    finally:
        plt.close(fig)


def test_the_evidence_figure_keeps_its_longest_claim_names_inside_at_the_saved_resolution():
    """The claims' names are the left panel's tick labels; at 150 dpi, the saved PNG's, font hinting widens
    them past what the layout solved at 100 dpi unless it leaves room (it cut "Theorem 18, i* ∈ S, …")."""
    from pathlib import Path

    from regretlab.analysis.evidence.figure import draw_evidence
    from regretlab.analysis.tables import read_typed_csv

    fig = draw_evidence(read_typed_csv(Path(__file__).resolve().parents[1] / "figures" / "evidence.csv"))
    try:
        fig.set_dpi(150)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        labels = fig.axes[0].get_yticklabels()
        assert min(label.get_window_extent(renderer).x0 for label in labels) >= 0.0
        assert overlaps(fig) == []
    finally:
        plt.close(fig)


def test_a_figure_is_the_same_bytes_whatever_the_string_hash_seed(tmp_path):
    """The constrained layout's last bits depend on Python's string hashing; the figure freezes it rounded, so
    the same table draws the same PNG in every process (README: committed figures rebuild byte for byte)."""
    import os
    import subprocess
    import sys

    summary, exponents = _inputs()
    part = summary[summary["regime"] == "cmdp_primal_alone"]
    part.to_parquet(tmp_path / "s.parquet")
    exponents[exponents["regime"] == "cmdp_primal_alone"].to_parquet(tmp_path / "e.parquet")
    script = (
        "import sys, pandas as pd\n"
        "from regretlab.analysis.figures import plot_regime\n"
        "d = sys.argv[1]\n"
        "plot_regime(pd.read_parquet(d + '/s.parquet'), pd.read_parquet(d + '/e.parquet'),\n"
        "            d + f'/{sys.argv[2]}.png', d + f'/{sys.argv[2]}.pdf')\n"
    )
    for seed in ("0", "1"):  # they drew different bytes before the layout was frozen
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", script, str(tmp_path), seed], check=True, env=env)
    assert (tmp_path / "0.png").read_bytes() == (tmp_path / "1.png").read_bytes()
