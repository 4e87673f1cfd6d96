"""Figures from hand-built aggregate tables: layout, fixed styles, bounds by kind and verdict, footer."""

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest
from matplotlib.lines import Line2D

from regretlab.analysis.figure_layout import (
    EXPLICIT_BOUND_COLOUR,
    RATE_COLOUR,
    REFERENCE_GREY,
    VACUOUS_ALPHA,
    axis_label,
    figure_colours,
    panels,
)
from regretlab.analysis.figures import draw_figure, plot_regime
from regretlab.analysis.legend import verdict_counts
from regretlab.registry.kinds import KINDS, algorithm_spec
from regretlab.specs.algorithm_spec import PALETTE


def _close(fig) -> None:
    import matplotlib.pyplot as plt

    plt.close(fig)


def footer_and_legend(summary: pd.DataFrame, exponents: pd.DataFrame | None = None) -> tuple[str, list[str]]:
    """A drawn figure's footer (whitespace normalised: the footer is wrapped) and legend labels."""
    fig = draw_figure(summary, hand_made_exponents() if exponents is None else exponents)
    try:
        footer = " ".join(fig.texts[-1].get_text().split())
        return footer, [text.get_text() for text in fig.legends[0].get_texts()]
    finally:
        _close(fig)


def contrast_on_white(colour: str) -> float:
    """WCAG 2 contrast ratio of ``colour`` against white."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in mcolors.to_rgb(colour))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def point_rows(algorithm, constants, instance, horizons, bound, explicit, verdicts, x_name="T", hyp=True):
    """Aggregate-table rows of one curve: mean ~ √T, the bound 10·√T (or given per verdict)."""
    rows = []
    for horizon, verdict in zip(horizons, verdicts, strict=True):
        mean = np.sqrt(horizon)
        rows.append(
            {
                "regime": "hand_made",
                "paper": "001",
                "theorem": "a theorem",
                "instance": instance,
                "instance_label": "K=4, α=2",
                "algorithm": algorithm,
                "constants": constants,
                "T": horizon if x_name == "T" else 10_000,
                "n_seeds": 10,
                "x_name": x_name,
                "x": float(horizon),
                "metric": "pseudo_regret",
                "mean": mean,
                "ci_low": 0.9 * mean,
                "ci_high": 1.1 * mean,
                "bound_name": bound,
                "bound_label": f"{bound} formula",
                "bound_value": 10 * mean if verdict != "violated" else 0.5 * mean,
                "bound_explicit": explicit,
                "hypotheses_hold": hyp,
                "verdict": verdict,
                "trivial_bound": float(horizon),
                "direction": "upper",
            }
        )
    return rows


HORIZONS = [100, 1000, 10_000]


def hand_made_summary() -> pd.DataFrame:
    rows = []
    for instance in ("fixed_gap", "minimax"):
        rows += point_rows("exp3g", "paper", instance, HORIZONS, "exp3g_rate", False, ["rate only"] * 3)
        for constants in ("paper", "tuned"):
            verdicts = (
                ["vacuous", "holds", "holds"] if constants == "paper" else ["vacuous", "holds", "violated"]
            )
            rows += point_rows(
                "theorem3",
                constants,
                instance,
                HORIZONS,
                "theorem3_bound",
                True,
                verdicts,
                hyp=constants == "paper",
            )
            rows += point_rows(
                "theorem3", constants, instance, HORIZONS, "theorem3_rate", False, ["rate only"] * 3
            )
    return pd.DataFrame(rows)


def hand_made_exponents() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "algorithm": algorithm,
                "constants": constants,
                "metric": "pseudo_regret",
                "instance": instance,
                "exponent": 0.5,
                "ci_low": 0.45,
                "ci_high": 0.55,
                "theory_exponent": 0.5,
                "bound_slope": 0.36 if algorithm == "theorem3" else np.nan,
                "bound_explicit": algorithm == "theorem3",
                "reason": "",
            }
            for algorithm, constants in (("exp3g", "paper"), ("theorem3", "paper"), ("theorem3", "tuned"))
            for instance in ("fixed_gap", "minimax")
        ]
    )


def test_every_registered_colour_is_readable_on_white():
    """Algorithm 2's yellow (contrast 1.4) was hard to see: every registered colour has a contrast ≥ 2.8."""
    assert all(contrast_on_white(colour) >= 2.8 for colour in PALETTE.values())
    for kind in KINDS.values():
        for name, spec in kind.algorithms.items():
            assert contrast_on_white(spec.colour) >= 2.8, name
    assert contrast_on_white("#ece133") < 2.8  # the check can fail: seaborn's colour-blind yellow


def test_the_algorithms_of_a_figure_never_share_a_colour():
    registered = [name for kind in KINDS.values() for name in kind.algorithms]
    colours = figure_colours([*registered, "not_registered"])
    assert len(set(colours.values())) == min(len(colours), len(PALETTE))
    # Exp3.G and Exp3.G-weak share a registry colour; alone, each keeps it in every figure.
    assert algorithm_spec("exp3g").colour == algorithm_spec("exp3g_weak").colour
    assert figure_colours(["exp3g_weak", "algorithm6"])["exp3g_weak"] == algorithm_spec("exp3g_weak").colour
    pair = figure_colours(["exp3g", "exp3g_weak"])
    assert pair["exp3g"] == algorithm_spec("exp3g").colour and pair["exp3g_weak"] != pair["exp3g"]


def test_small_multiples_one_column_per_algorithm_reference_first_rows_per_instance():
    layout = panels(hand_made_summary())
    assert {(p.row, p.col) for p in layout} == {(r, c) for r in range(2) for c in range(2)}
    assert [p.algorithm for p in layout if p.row == 0] == ["exp3g", "theorem3"]
    assert [p.group for p in layout if p.col == 1] == ["fixed_gap", "minimax"]


def test_a_cell_whose_algorithm_does_not_record_the_rows_metric_is_blank():
    """Theorem 2's learner records lemma9_log_ratio, Exp3.G does not: no empty Exp3.G panel for it (the
    figure turns the cell's axes off)."""
    summary = hand_made_summary()
    step = summary[summary["algorithm"] == "theorem3"].assign(metric="lemma9_log_ratio")
    layout = panels(pd.concat([summary, step]))
    cells = {(p.metric, p.algorithm) for p in layout}
    assert ("lemma9_log_ratio", "theorem3") in cells and ("lemma9_log_ratio", "exp3g") not in cells
    assert {(p.row, p.col) for p in layout if p.metric == "lemma9_log_ratio"} == {(0, 1), (1, 1)}
    figure = draw_figure(pd.concat([summary, step]), hand_made_exponents())
    try:
        assert sum(ax.axison for ax in figure.axes) == len(layout) == 6
    finally:
        _close(figure)


def test_single_algorithm_figures_put_instances_in_columns_and_metrics_in_rows():
    summary = hand_made_summary()
    one = summary[summary["algorithm"] == "exp3g"]
    violation = one.assign(metric="violation")
    layout = panels(pd.concat([one, violation]))
    assert {(p.row, p.col, p.metric, p.group) for p in layout} == {
        (0, 0, "pseudo_regret", "fixed_gap"),
        (0, 1, "pseudo_regret", "minimax"),
        (1, 0, "violation", "fixed_gap"),
        (1, 1, "violation", "minimax"),
    }


def test_verdicts_are_counted_in_the_footer():
    summary = hand_made_summary()
    counts = verdict_counts(summary)
    assert counts == {
        "holds": 6,
        "violated": 2,
        "vacuous": 4,
        "implied": 0,
        "rate only": 18,
        "reference": 0,
        "identical": 0,
        "inconclusive": 0,
        "beyond hypotheses": 0,
    }
    footer, _ = footer_and_legend(summary)
    counted = "holds 6 · violated 2 · vacuous 4 · implied 0 · rate only 18 · reference 0 · identical 0"
    assert counted + " · inconclusive 0 · beyond hypotheses 0" in footer
    assert "theorem3_bound formula — explicit, paper's constants, at each run's η, c" in footer
    assert "exp3g_rate formula — rate, unit constant" in footer


def test_explicit_bounds_say_whose_constants_they_have():
    """The paper's constants, or constants derived here (Exp3.G-weak: Alon et al.'s text was unreadable), and
    the tuned dual bound is the paper's inequality at the tuned η, not the paper's constants."""
    derived = pd.DataFrame(
        point_rows("exp3g_weak", "paper", "i", [1000, 10_000], "exp3g_weak_bound", True, ["holds", "holds"])
    )
    paper = pd.DataFrame(
        point_rows("theorem3", "paper", "i", [1000, 10_000], "theorem3_bound", True, ["holds", "holds"])
    )
    footer, labels = footer_and_legend(pd.concat([derived, paper], ignore_index=True))
    assert "exp3g_weak_bound formula — explicit, constants derived here" in footer
    assert "theorem3_bound formula — explicit, paper's constants, at each run's η, c" in footer
    assert "explicit bound, constants: see footer" in labels
    _, labels = footer_and_legend(paper)
    assert "explicit bound, paper's constants" in labels
    tuned = pd.DataFrame(
        point_rows("pdgd_ops", "tuned", "i", [1000, 10_000], "dual_regret_tuned", True, ["holds", "holds"])
    )
    footer, _ = footer_and_legend(tuned.assign(metric="dual_regret"))
    assert "at the tuned preset's η, not the paper's η" in footer and "paper's constants" not in footer


def test_two_explicit_bounds_on_one_algorithm_are_told_apart_in_the_legend():
    """Theorem 7's regret bound and its corrected version, both explicit, on PDGD-OPS in one panel: each
    has its own legend entry (name and formula) and its own line style; a single bound keeps the shared
    entry alone."""
    rows = []
    for name, factor in (("theorem7_regret", 10), ("theorem7_regret_corrected", 20)):
        rows += [
            {**row, "bound_value": factor * row["mean"], "bound_label": f"{name} formula"}
            for row in point_rows("pdgd_ops", "paper", "i", [1000, 10_000], name, True, ["holds", "holds"])
        ]
    summary = pd.DataFrame(rows).assign(metric="regret")
    fig = draw_figure(summary, hand_made_exponents().iloc[:0])
    try:
        handles = fig.legends[0].legend_handles
        labels = [" ".join(text.get_text().split()) for text in fig.legends[0].get_texts()]  # wrapped
        told = [i for i, label in enumerate(labels) if label.startswith("theorem7_regret")]
        assert [labels[i] for i in told] == [
            "theorem7_regret: theorem7_regret formula",
            "theorem7_regret_corrected: theorem7_regret_corrected formula",
        ], labels
        dashes = [(handles[i].get_linestyle(), handles[i]._unscaled_dash_pattern) for i in told]
        assert dashes[0] != dashes[1]
        # Neither is uniform play's dashed line nor the trivial bound's dotted one.
        taken = {(style, Line2D([], [], linestyle=style)._unscaled_dash_pattern) for style in ("--", ":")}
        assert not set(dashes) & taken
        drawn = {(line.get_linestyle(), line._unscaled_dash_pattern) for line in _lines(fig.axes[0])
                 if len(line.get_xdata()) == 2}  # fmt: skip
        assert set(dashes) <= drawn  # the lines drawn are those of the legend
        assert "explicit bound, paper's constants" in labels
    finally:
        _close(fig)
    _, labels = footer_and_legend(summary[summary["bound_name"] == "theorem7_regret"])
    assert not any(label.startswith("theorem7_regret") for label in labels)


def test_a_bound_off_every_axis_gets_no_legend_entry():
    """Theorem 2's vacuous bound was in the legend though only "off the axis" was drawn."""
    summary = pd.DataFrame(
        point_rows("theorem2", "paper", "i", HORIZONS, "theorem2_bound", True, ["vacuous"] * 3)
    ).assign(bound_value=1e6)  # every point above 3 × the largest trivial bound, 3·10⁴
    footer, labels = footer_and_legend(summary, hand_made_exponents().iloc[:0])
    assert not any(label.startswith("explicit bound") for label in labels)
    assert "vacuous bound" not in labels
    assert "trivial bound" in labels  # drawn, as the reference of the note
    assert "off the axis in every panel" in footer
    visible = summary.assign(bound_value=lambda frame: 2 * frame["trivial_bound"])
    footer, labels = footer_and_legend(visible, hand_made_exponents().iloc[:0])
    assert "explicit bound, paper's constants" in labels and "vacuous bound" in labels
    assert "off the axis" not in footer


def test_axis_labels_are_words_with_units():
    summary = hand_made_summary()
    assert axis_label("T", summary) == "horizon T (rounds)"
    assert axis_label("pseudo_regret", summary) == "pseudo-regret Σ⟨p_t, ℓ_t⟩ − L* (cumulative loss)"
    cmdp = summary.assign(metric="violation")
    assert axis_label("T", cmdp) == "horizon T (episodes)"
    assert axis_label("lambda_l1", cmdp) == "dual multiplier ‖λ_t‖₁ (reward per unit of constraint)"
    for kind in KINDS.values():
        for name, metric in kind.metrics.items():
            assert metric.label and metric.unit and metric.label != name, name


def test_a_baseline_without_a_bound_is_drawn_alone():
    baseline = point_rows("exp3_blind", "paper", "fixed_gap", HORIZONS, "", False, ["no bound"] * 3)
    summary = pd.concat(
        [hand_made_summary(), pd.DataFrame(baseline).assign(bound_value=np.nan, direction="none")],
        ignore_index=True,
    )
    fig = draw_figure(summary, hand_made_exponents())
    try:
        column = [p.col for p in panels(summary) if p.algorithm == "exp3_blind"][0]
        ax = fig.axes[column]
        assert "exp3_blind" in ax.get_title()
        colours = {mcolors.to_hex(line.get_color()) for line in _lines(ax)}
        assert EXPLICIT_BOUND_COLOUR not in colours and RATE_COLOUR not in colours  # no bound drawn
        footer = " ".join(fig.texts[-1].get_text().split())
        assert "exp3_blind: drawn without a bound" in footer
        assert verdict_counts(summary)["holds"] == 6  # the baseline's rows are no (point, bound) pair
    finally:
        _close(fig)


def _lines(ax):
    return [line for line in ax.get_lines() if len(line.get_xdata()) > 0]


def test_panels_draw_reference_grey_bounds_by_kind_and_vacuous_faded():
    fig = draw_figure(hand_made_summary(), hand_made_exponents())
    try:
        theorem3_panel = fig.axes[1]  # row 0 (fixed_gap), column 1 (theorem3)
        lines = _lines(theorem3_panel)
        colours = [mcolors.to_hex(line.get_color()) for line in lines]
        assert colours.count(REFERENCE_GREY) == 1  # Exp3.G's curve, in grey
        assert colours.count(mcolors.to_hex(algorithm_spec("theorem3").colour)) == 2  # paper and tuned
        styles = {
            line.get_linestyle()
            for line in lines
            if mcolors.to_hex(line.get_color()) == mcolors.to_hex(algorithm_spec("theorem3").colour)
        }
        assert styles == {"-", "--"}
        explicit = [line for line in lines if mcolors.to_hex(line.get_color()) == EXPLICIT_BOUND_COLOUR]
        # the explicit bound: faded over its whole range (one point is vacuous) and full-strength where not
        assert sorted(line.get_alpha() or 1.0 for line in explicit) == [VACUOUS_ALPHA, 1.0]
        assert any(mcolors.to_hex(line.get_color()) == RATE_COLOUR for line in lines)
        assert any(line.get_linestyle() == ":" for line in lines)  # the trivial bound, since one is vacuous
        assert "tuned: slope 0.50 [0.45, 0.55], bound 0.36, theory 1/2" in theorem3_panel.get_title()
        assert (
            "paper: slope 0.50 [0.45, 0.55], theory 1/2" in fig.axes[0].get_title()
        )  # Exp3.G: no bound slope
        exp3g_panel = fig.axes[0]
        assert REFERENCE_GREY not in [mcolors.to_hex(line.get_color()) for line in _lines(exp3g_panel)]
        legend_texts = [text.get_text() for text in fig.legends[0].get_texts()]
        assert "rate, unit constant" in legend_texts and "violated" in legend_texts
        fig.canvas.draw()  # constrained layout places the panels and the legend when the figure is drawn
        legend_box = fig.legends[0].get_window_extent(fig.canvas.get_renderer())
        for ax in (ax for ax in fig.axes if ax.axison):  # the legend sits outside every panel
            assert not legend_box.overlaps(ax.get_window_extent(fig.canvas.get_renderer()))
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


@pytest.mark.parametrize(
    ("verdicts", "ticked"),
    [(["vacuous", "vacuous", "holds"], [10_000.0]), (["vacuous", "holds", "vacuous"], [1000.0]),
     (["vacuous", "holds", "holds"], []), (["holds"] * 3, [])],
)  # fmt: skip
def test_an_informative_bound_point_between_vacuous_ones_is_ticked(verdicts, ticked):
    """A bound informative at one point only (no full-strength segment to draw) gets a tick there."""
    summary = pd.DataFrame(
        point_rows("theorem3", "paper", "fixed_gap", HORIZONS, "theorem3_bound", True, verdicts)
    )
    exponents = hand_made_exponents()
    fig = draw_figure(summary, exponents[exponents["instance"] == "fixed_gap"])
    try:
        ticks = [line for ax in fig.axes for line in _lines(ax) if line.get_marker() == "_"]
        assert [x for line in ticks for x in line.get_xdata()] == ticked
        assert all(mcolors.to_hex(line.get_color()) == EXPLICIT_BOUND_COLOUR for line in ticks)
    finally:
        _close(fig)


def test_any_recorded_metric_can_be_the_abscissa():
    rows = []
    for mean_loss, instance in ((100, "a"), (1000, "b"), (10_000, "c")):
        rows += point_rows(
            "theorem3",
            "paper",
            instance,
            [mean_loss],
            "theorem3_rate",
            False,
            ["rate only"],
            x_name="L_best_S",
        )
    summary = pd.DataFrame(rows)
    layout = panels(summary)
    assert len(layout) == 1 and layout[0].group == 10_000  # one curve across the instances, at T = 10⁴
    fig = draw_figure(summary, hand_made_exponents().iloc[:0])
    try:
        assert fig.axes[0].get_xlabel() == "L_{i*_S}, total loss of the best arm of S (cumulative loss)"
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_the_same_table_gives_the_same_bytes(tmp_path):
    summary, exponents = hand_made_summary(), hand_made_exponents()
    paths = []
    for name in ("a", "b"):
        png, pdf = tmp_path / f"{name}.png", tmp_path / f"{name}.pdf"
        plot_regime(summary, exponents, png, pdf)
        paths.append((png.read_bytes(), pdf.read_bytes()))
    assert paths[0] == paths[1]


@pytest.mark.parametrize("missing", ["verdict", "direction"])
def test_a_table_without_the_verdict_columns_is_refused(missing):
    with pytest.raises(KeyError, match=missing):
        draw_figure(hand_made_summary().drop(columns=[missing]), hand_made_exponents())


def test_violated_points_of_a_preset_whose_bound_is_not_drawn_are_still_marked():
    fig = draw_figure(hand_made_summary(), hand_made_exponents())
    try:
        crosses = [c for c in fig.axes[1].collections if c.get_offsets().shape[0] and c.get_paths()]
        red = [c for c in crosses if mcolors.to_hex(c.get_facecolor()[0]) == "#ff0000"]
        assert len(red) == 1 and red[0].get_offsets()[0][0] == 10_000  # the tuned preset's last point
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_a_declined_fit_says_why_in_the_title():
    exponents = hand_made_exponents()
    exponents.loc[exponents["algorithm"] == "exp3g", ["exponent", "reason"]] = [
        np.nan,
        "mean ≈ 0 at 2 points",
    ]
    fig = draw_figure(hand_made_summary(), exponents)
    try:
        assert "paper: no slope (mean ≈ 0 at 2 points)" in fig.axes[0].get_title()
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_a_curve_without_a_theory_exponent_says_no_theory_nan():
    """A baseline drawn without a bound has a fitted slope but no theory exponent (NaN): the title gives the
    slope and no "theory nan"."""
    baseline = point_rows("exp3_blind", "paper", "fixed_gap", HORIZONS, "", False, ["no bound"] * 3)
    summary = pd.DataFrame(baseline).assign(bound_value=np.nan, direction="none")
    exponents = (
        hand_made_exponents()
        .iloc[:1]
        .assign(algorithm="exp3_blind", instance="fixed_gap", theory_exponent=np.nan, bound_explicit=False)
    )
    fig = draw_figure(summary, exponents)
    try:
        titles = [ax.get_title() for ax in fig.axes]
        assert any("paper: slope 0.50 [0.45, 0.55]" in title for title in titles), titles
        assert not any("nan" in title for title in titles), titles
    finally:
        _close(fig)


def test_a_bound_far_past_the_trivial_one_is_clipped_off_the_axis_with_a_note():
    summary = hand_made_summary()
    far = summary["bound_name"] == "theorem3_rate"
    summary.loc[far, "bound_value"] = 1e9
    fig = draw_figure(summary, hand_made_exponents())
    try:
        ax = fig.axes[1]
        assert ax.get_ylim()[1] == pytest.approx(3 * 10_000)
        assert any("up to 1.0e+09" in text.get_text() for text in ax.texts)
        assert not any("up to" in text.get_text() for text in fig.axes[0].texts)  # Exp3.G's rate is not
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_a_lower_bound_is_never_clipped_by_its_trivial_floor():
    summary = hand_made_summary()
    summary = summary[summary["algorithm"] == "exp3g"].assign(
        metric="reward_ratio",
        direction="lower",
        trivial_bound=0.0,
        mean=0.9,
        ci_low=0.85,
        ci_high=0.95,
        bound_value=0.7,
    )
    fig = draw_figure(summary, hand_made_exponents().iloc[:0])
    try:
        assert all(not ax.texts for ax in fig.axes)
        assert all(ax.get_ylim()[1] > 0.95 for ax in fig.axes if ax.lines)
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_identical_runs_are_drawn_once_and_said_so():
    summary = hand_made_summary()
    twin = (summary["algorithm"] == "theorem3") & (summary["constants"] == "tuned")
    summary = summary.assign(identical_to=np.where(twin, "theorem3/paper", ""), verdict="holds")
    fig = draw_figure(summary, hand_made_exponents())
    try:
        theorem3_panel = fig.axes[1]
        colours = [mcolors.to_hex(line.get_color()) for line in _lines(theorem3_panel)]
        assert colours.count(mcolors.to_hex(algorithm_spec("theorem3").colour)) == 1  # paper only
        title = " ".join(theorem3_panel.get_title().split())  # wrapped to the panel's width
        assert "(= tuned, identical runs)" in title and "tuned: identical runs to paper, drawn there" in title
        legend = [text.get_text().replace("\n", " ") for text in fig.legends[0].get_texts()]
        assert any("paper = tuned (identical runs)" in text for text in legend)
        assert verdict_counts(summary)["identical"] == int(twin.sum())
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_a_restarting_learners_fit_points_are_drawn_and_named():
    """A fit made at epoch ends draws its points (hollow diamonds at the given x and means), says so in the
    title and the legend; a checkpoint fit draws none."""
    exponents = hand_made_exponents()
    exponents["fitted_at"], exponents["epoch_end_points"], exponents["n_points"] = "checkpoints", "", 3
    first = (exponents["algorithm"] == "exp3g") & (exponents["instance"] == "fixed_gap")
    exponents.loc[first, ["fitted_at", "n_points"]] = ["epoch ends", 2]
    exponents.loc[first, "epoch_end_points"] = '{"x": [1500.0, 40000.0], "mean": [30.0, 200.0], "labels": []}'
    fig = draw_figure(hand_made_summary(), exponents)
    try:
        diamonds = [line for ax in fig.axes for line in ax.get_lines() if line.get_marker() == "D"]
        assert len(diamonds) == 1
        assert diamonds[0].get_xdata().tolist() == [1500.0, 40000.0]
        assert diamonds[0].get_ydata().tolist() == [30.0, 200.0]
        titles = " ".join(ax.get_title() for ax in fig.axes)
        assert titles.count("at 2 epoch ends") == 1
        labels = [text.get_text() for text in fig.legends[0].get_texts()]
        assert any(label.startswith("mean at the epoch ends") for label in labels)
    finally:
        _close(fig)
    _, labels = footer_and_legend(hand_made_summary())
    assert not any(label.startswith("mean at the epoch ends") for label in labels)


def test_the_figure_theme_is_seaborns_and_draws_the_same_bytes(tmp_path, monkeypatch):
    """The regime figures set seaborn's whitegrid/paper theme without importing seaborn (figure_theme): every
    rcParam as ``sns.set_theme`` leaves it but the colormap; a figure drawn either way is the same file."""
    import matplotlib
    import seaborn as sns

    from regretlab.analysis import figures
    from regretlab.analysis.figure_theme import THEME, apply_theme

    codes = dict(mcolors.colorConverter.colors)
    try:
        with matplotlib.rc_context():
            matplotlib.rcdefaults()
            sns.set_theme(style="whitegrid", context="paper")
            seaborns = dict(matplotlib.rcParams)
        with matplotlib.rc_context():
            matplotlib.rcdefaults()
            apply_theme()
            ours = dict(matplotlib.rcParams)
        assert {key for key in ours if ours[key] != seaborns[key]} == {"image.cmap"}
        assert set(THEME) | {"axes.prop_cycle", "image.cmap"} == set(sns.axes_style("whitegrid")) | set(
            sns.plotting_context("paper")
        ) | {"axes.prop_cycle"}
        drawn = {}
        for name, theme in (("ours", apply_theme), ("seaborn", lambda: sns.set_theme("paper", "whitegrid"))):
            monkeypatch.setattr(figures, "apply_theme", theme)
            with matplotlib.rc_context():
                png, pdf = tmp_path / f"{name}.png", tmp_path / f"{name}.pdf"
                plot_regime(hand_made_summary(), hand_made_exponents(), png, pdf)
                drawn[name] = (png.read_bytes(), pdf.read_bytes())
        assert drawn["ours"] == drawn["seaborn"]
    finally:
        mcolors.colorConverter.colors.clear()
        mcolors.colorConverter.colors.update(codes)
