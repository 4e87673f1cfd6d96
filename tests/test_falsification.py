"""The falsification search (issue 33, items 1–2): step sizes set by hand, the search finding a planted
violation and not inventing one, its determinism, its outputs, and the witness regimes it produced."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from regretlab.analysis.evidence.table import _search_columns
from regretlab.analysis.tables import read_typed_csv
from regretlab.bandits import bounds as bandit_bounds
from regretlab.bandits import simulate, trials
from regretlab.bandits.algorithms import make_learner
from regretlab.bandits.bound_registry import BOUNDS
from regretlab.bandits.instance import build_instance
from regretlab.bandits.presets import with_step
from regretlab.bandits.searches import SEARCHES
from regretlab.falsification import report
from regretlab.falsification import search as search_module
from regretlab.falsification.cost import predicted_seconds
from regretlab.falsification.report import NOTHING, STEEPER, SURVIVED, WITNESS, markdown, outcome, table
from regretlab.falsification.search import Confirmation, Evaluation, SearchResult, rate_trial, search
from regretlab.registry.claims import CLAIMS_BY_KEY
from regretlab.registry.kinds import KINDS, declared_searches
from regretlab.registry.unit_costs import STARTUP_SECONDS, unit_cost
from regretlab.specs.bound_spec import Point
from regretlab.specs.search_spec import Budget, Candidate, Trial
from regretlab.workflow.config import validate_config

#: The falsification table the default run wrote (committed).
REPO_FALSIFICATION = Path(__file__).resolve().parents[1] / "figures" / "falsification.csv"
#: A budget small enough for a test: 2·3·(1 + 1) search runs of 2000 rounds, one finalist on two seeds.
TINY = Budget(horizon=2000, generations=1, population=3, finalists=1, confirm_seeds=2, confirm_horizon=2000)


def _spec(name: str, bound: str | None = None):
    spec = SEARCHES[name]
    return replace(spec, bound=bound or spec.bound, scales={"quick": TINY})


# ---- step sizes set by hand ----------------------------------------------------------------------------


def test_with_step_rejects_names_and_values_it_does_not_take():
    assert with_step("x", {"eta": 1.0}, None, ("eta",)) == {"eta": 1.0}
    assert with_step("x", {"eta": 1.0, "c": 2.0}, {"eta": 0.5}, ("eta",)) == {"eta": 0.5, "c": 2.0}
    with pytest.raises(ValueError, match=r"takes its step sizes \['eta'\] by hand, got \['c'\]"):
        with_step("x", {"eta": 1.0}, {"c": 1.0}, ("eta",))
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="positive and finite"):
            with_step("x", {"eta": 1.0}, {"eta": bad}, ("eta",))


def _bandit(graph: dict, losses: dict):
    return build_instance({"graph": graph, "losses": losses}, np.random.default_rng(0))


FIGURE1 = ({"family": "figure1"}, {"kind": "bernoulli", "best_mean": 0.1, "gap": 0.3})
BIPARTITE = (
    {"family": "directed_complete_bipartite", "n_self_loop": 2, "n_no_self_loop": 3},
    {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.1, "S_mean": 0.5, "S_bar_mean": 0.5},
)
STARS = (
    {"family": "weakly_observable_stars", "leaf_counts": [2, 2]},
    {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.1, "S_mean": 0.5, "S_bar_mean": 0.5},
)


@pytest.mark.parametrize(
    ("algorithm", "entry", "step", "hypothesis"),
    [
        ("theorem2", FIGURE1, {"eta": 0.3}, None),
        ("theorem3", FIGURE1, {"eta": 1e-3}, ("eta_at_most_1_over_64K", True)),
        ("theorem3", FIGURE1, {"eta": 0.1}, ("eta_at_most_1_over_64K", False)),  # 0.1 > 1/(64·7)
        ("algorithm2_bipartite", BIPARTITE, {"eta": 0.1, "eta_bar": 1e-3}, ("eta_bar_at_most_1_25", True)),
        ("algorithm2_bipartite", BIPARTITE, {"eta": 0.1, "eta_bar": 0.1}, ("eta_bar_at_most_1_25", False)),
        ("algorithm2_weak", STARS, {"delta": 0.004, "eta": 0.04, "eta_bar": 1e-4}, ("delta_in_range", True)),
        ("algorithm2_weak", STARS, {"delta": 0.1, "eta": 0.04, "eta_bar": 1e-4}, ("delta_in_range", False)),
        ("exp3g_weak", STARS, {"gamma": 0.1, "eta": 1e-3}, ("gamma_at_most_half", True)),
    ],
)
def test_a_learner_runs_at_the_step_sizes_set_by_hand_and_checks_its_hypotheses_there(
    algorithm, entry, step, hypothesis
):
    instance = _bandit(*entry)
    oracle = {"L_star": 100.0, "L_best_S": 100.0, "L_D": 300.0}
    learner = make_learner(algorithm, instance, 5000, np.random.default_rng(1), "paper", oracle, step)
    for name, value in step.items():
        assert learner.params[name] == value
    if hypothesis is not None:
        assert learner.hypotheses[hypothesis[0]] is hypothesis[1]
    if algorithm == "algorithm2_bipartite":  # Ω = {Σ_S p ≥ √η̄}: θ follows the η̄ set by hand
        assert learner.params["theta"] == pytest.approx(math.sqrt(step["eta_bar"]))


def test_a_learner_without_free_step_sizes_refuses_them():
    with pytest.raises(ValueError, match="takes no step sizes by hand"):
        make_learner("algorithm1", _bandit(*FIGURE1), 5000, np.random.default_rng(1), "paper",
                     {"L_star": 10.0}, {"eta": 0.1})  # fmt: skip


# ---- the corrected displays, by hand ------------------------------------------------------------------


def test_the_corrected_displays_add_exactly_one_half_over_eta_bar():
    point = Point(10_000, 10_000, {"s": 2, "d": 2}, {}, {"eta": 0.05, "eta_bar": 1e-3, "delta": 0.004,
                                                         "L_best_S": 300.0, "L_D": 900.0})  # fmt: skip
    # Theorem 7, i ∈ S: 2 ln(10⁴)/0.05 + 2·0.05·300 + 4, plus 1/(2·10⁻³) = 500
    stated = 2 * math.log(10_000) / 0.05 + 2 * 0.05 * 300 + 4
    assert bandit_bounds.theorem7_best_s(point) == pytest.approx(stated)
    assert bandit_bounds.theorem7_best_s_corrected(point) == pytest.approx(stated + 500.0)
    # Theorem 8, i ∈ S: 2·2 ln(10⁴)/0.05 + 2·0.05·300 + 2·0.004·2·900 + 4, plus 500
    stated = 4 * math.log(10_000) / 0.05 + 2 * 0.05 * 300 + 2 * 0.004 * 2 * 900 + 4
    assert bandit_bounds.theorem8_best_s_corrected(point) == pytest.approx(stated + 500.0)


# ---- the search ---------------------------------------------------------------------------------------


def test_the_search_finds_a_planted_violation(monkeypatch):
    """A display made 100 times too small must give a witness: the search has power against a wrong bound."""
    real = BOUNDS["theorem3_bound"]
    planted = replace(real, evaluate=lambda point: real.evaluate(point) / 100.0)
    monkeypatch.setitem(trials.BOUNDS, "planted_theorem3", planted)
    monkeypatch.setitem(search_module.BOUNDS, "planted_theorem3", planted)  # the search's: an explicit bound
    result = search("planted", _spec("theorem3_bound", "planted_theorem3"), "quick", trials.trial)
    assert result.worst is not None and result.worst.witness
    assert outcome(result) == WITNESS
    assert all(ratio > 1.0 for ratio in result.worst.seed_ratios)


def test_the_search_does_not_invent_a_violation_and_is_deterministic():
    first = search("theorem3_bound", _spec("theorem3_bound"), "quick", trials.trial)
    second = search("theorem3_bound", _spec("theorem3_bound"), "quick", trials.trial)
    assert outcome(first) == SURVIVED and first.worst.ratio < 1.0
    assert len(first.evaluations) == TINY.population * len(first.spec.dimensions) * (TINY.generations + 1)
    assert first.runs == len(first.evaluations) + TINY.finalists * TINY.confirm_seeds
    pd.testing.assert_frame_equal(table([first]), table([second]))


def test_a_run_outside_the_hypotheses_or_not_buildable_scores_zero():
    candidate = Candidate({}, "theorem3", {"eta": 1.0})
    outside = Trial(measured=10.0, bound=1.0, trivial=100.0, uniform=50.0, hypotheses=False)
    inside = replace(outside, hypotheses=True)
    assert Evaluation({}, candidate, outside).score == 0.0
    assert Evaluation({}, candidate, None).score == 0.0
    assert Evaluation({}, candidate, inside).score == 10.0


def test_every_declared_search_names_a_claim_of_its_bound_and_an_upper_explicit_bound():
    declared = {name: spec for name, (_, spec) in declared_searches().items()}
    assert declared, "no kind declares a falsification search"
    for name, spec in declared.items():
        bound = KINDS["bandit"].bounds[spec.bound]
        # An explicit upper bound, or a rate in T (its search judges the slope over a decade).
        assert bound.direction == "upper" and (bound.explicit or "T" in bound.exponents), name
        assert spec.bound in CLAIMS_BY_KEY[spec.claim].bounds, name
        assert {"quick", "paper"} <= set(spec.scales), name
        for dimension in spec.dimensions:
            assert dimension.low < dimension.high, (name, dimension.name)


def _fixed(low: Trial, high: Trial):
    """A kind's trial that returns ``low`` at T = 1000 and ``high`` at 10⁴."""
    return lambda candidate, bound, horizon, seed: {1000: low, 10_000: high}[horizon]


def test_a_rates_trial_is_its_growth_over_a_decade_against_its_band():
    """exp3g_rate (exponent 1/2 in T, one ln T hidden): over 10³ → 10⁴ the band is 1/2 plus the slope of
    ln ln T, (ln ln 10⁴ − ln ln 10³)/ln 10 = 0.12494; the drawn rate grows by 10^0.4 (below 1/2), so the
    allowed growth is 10^0.62494 = 4.2166; a regret growing 100 → 400 is inside it."""
    low = Trial(measured=100.0, bound=10.0, trivial=1e3, uniform=1000.0, hypotheses=True)
    high = Trial(measured=400.0, bound=10.0 * 10**0.4, trivial=1e4, uniform=10_000.0, hypotheses=True)
    rated = rate_trial(_fixed(low, high))(Candidate({}, "exp3g", {}), "exp3g_rate", 1000, 0)
    slack = (math.log(math.log(1e4)) - math.log(math.log(1e3))) / math.log(10)
    assert slack == pytest.approx(0.12494, abs=1e-5)
    assert rated.bound == pytest.approx(10 ** (0.5 + slack), rel=1e-12)
    assert rated.measured == 4.0 and rated.trivial == 10.0 and rated.uniform == 10.0 and rated.hypotheses
    assert rated.ratio == pytest.approx(4.0 / 4.2166, rel=1e-4)
    # The drawn rate's own slope, when steeper than the exponent, is the band (as the fits accept it).
    steep = rate_trial(_fixed(low, replace(high, bound=10.0 * 10**0.8)))(Candidate({}, "exp3g", {}),
                                                                         "exp3g_rate", 1000, 0)  # fmt: skip
    assert steep.bound == pytest.approx(10 ** (0.8 + slack), rel=1e-12)
    # Not learning at T (regret ≥ half of uniform play's) or a hypothesis failing at 10T: not admissible.
    for lows, highs in ((replace(low, measured=500.0), high), (low, replace(high, hypotheses=False))):
        rated = rate_trial(_fixed(lows, highs))(Candidate({}, "exp3g", {}), "exp3g_rate", 1000, 0)
        assert not rated.hypotheses


def test_a_restarting_learners_trial_is_its_growth_between_epoch_ends_over_its_window():
    """Algorithm 6's corrected rate (exponent 2/3 in T, no hidden log), window 100: from T = 10³ to 10⁵ the
    ends inside are at 2000 (regret 100) and 32000 (600; 128000 is beyond the window): slope ln 6 / ln 16 =
    0.6462, a growth of 10^0.6462 per decade against the band's 10^(2/3) — whatever the regret at the window's
    two horizons (the saw-tooth's teeth). Fewer than two ends inside: not admissible."""
    spec = SEARCHES["theorem17_best_S_corrected"]
    assert spec.window == 100
    ends = [{"t": t, "regret_best_S": r} for t, r in ((2000, 100.0), (32000, 600.0), (128000, 1500.0))]
    low = Trial(measured=50.0, bound=10.0, trivial=1e3, uniform=1000.0, hypotheses=True)
    high = Trial(measured=9e3, bound=10.0 * 10 ** (2 * 0.6), trivial=1e5, uniform=1e5, hypotheses=True,
                 params={"epoch_ends": ends})  # fmt: skip

    def fixed(high):
        return lambda candidate, bound, horizon, seed: {1000: low, 100_000: high}[horizon]

    candidate = Candidate({}, "algorithm6", {})
    rated = rate_trial(fixed(high), spec.window)(candidate, spec.bound, 1000, 0)
    assert rated.measured == pytest.approx(10 ** (math.log(6.0) / math.log(16.0)), rel=1e-12)
    assert rated.bound == pytest.approx(10 ** (2.0 / 3.0), rel=1e-12)  # the drawn 0.6 is below 2/3
    assert rated.uniform == pytest.approx(10.0) and rated.hypotheses  # uniform: ×100 over two decades
    one_end = replace(high, params={"epoch_ends": ends[:1] + ends[2:]})
    assert not rate_trial(fixed(one_end), spec.window)(candidate, spec.bound, 1000, 0).hypotheses


def test_a_rate_steeper_at_every_seed_is_a_rejection_over_its_decade_not_a_violation():
    candidate = Candidate({}, "exp3g", {})
    steeper = Trial(measured=5.0, bound=4.0, trivial=10.0, uniform=10.0, hypotheses=True)
    confirmed = Confirmation(Evaluation({}, candidate, steeper), 20_000, (steeper, steeper))
    result = SearchResult("exp3g_rate", SEARCHES["exp3g_rate"], "quick", TINY, (), (confirmed,))
    assert outcome(result) == STEEPER
    explicit = replace(result, spec=SEARCHES["theorem3_bound"])
    assert outcome(explicit) == WITNESS


def test_the_exp3g_fixed_gap_rate_survives_its_search():
    """Exp3.G never restarts: over strongly observable graphs and fixed gaps, no candidate that learns at
    2·10³ grows faster than its band over the decade (the committed table's row, from the default run)."""
    row = read_typed_csv(REPO_FALSIFICATION).set_index("search").loc["exp3g_rate"]
    assert row["claim"] == "exp3g_fixed_gap" and row["outcome"] == SURVIVED and row["worst_ratio"] < 1.0
    assert row["T_search"] == 2000 and row["T_confirm"] == 20_000 and row["admissible_share"] > 0.5


def test_the_report_says_what_the_search_found():
    found = search("theorem3_bound", _spec("theorem3_bound"), "quick", trials.trial)
    nothing = SearchResult("none", _spec("theorem2_bound"), "quick", TINY, ())
    frame = table([found, nothing])
    assert list(frame["outcome"]) == [SURVIVED, NOTHING]
    assert frame.loc[0, "runs"] == found.runs and frame.loc[0, "claim"] == "theorem3"
    candidate = json.loads(frame.loc[0, "instance"])
    assert candidate["graph"]["family"] == "strongly_observable"  # regenerable from the row
    text = markdown(frame)
    assert "**Of 2 explicit bounds searched, 0 are violated within the hypotheses" in text
    assert f"{found.runs} (2000)" in text


def test_the_figure_keeps_every_claims_name_inside_at_the_saved_resolution():
    """The row labels name each search's claim; at 150 dpi, the saved PNG's, the longest (Theorem 18's
    corrected display) reached the figure's left edge before the names were wrapped."""
    import matplotlib.pyplot as plt

    results = [SearchResult(name, spec, "quick", TINY, ()) for name, (_, spec) in declared_searches().items()]
    fig = report.draw(results)
    try:
        fig.set_dpi(150)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        assert min(label.get_window_extent(renderer).x0 for label in fig.axes[0].get_yticklabels()) >= 1.0
    finally:
        plt.close(fig)
    for name, (_, spec) in declared_searches().items():
        lines = report._wrapped(CLAIMS_BY_KEY[spec.claim].name).split("\n")
        assert all(len(line) <= report.LABEL_WIDTH for line in lines), name
        assert all(line.count("(") == line.count(")") for line in lines), name  # "(finding 1)" kept whole


# ---- the witnesses as regimes -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_config(repo, schema_path):
    return validate_config(yaml.safe_load((repo / "config.yaml").read_text(encoding="utf-8")), schema_path)


@pytest.mark.parametrize(
    ("regime", "display", "corrected"),
    [
        ("theorem7_witness", "theorem7_best_S", "theorem7_best_S_corrected"),
        ("theorem8_witness", "theorem8_best_S_third", "theorem8_best_S_corrected"),
    ],
)
def test_a_witness_regime_violates_the_display_at_every_seed_within_the_hypotheses(
    default_config, regime, display, corrected
):
    """Issue 33: every witness is a regime whose rerun reproduces the violation at every seed."""
    entry = default_config["regimes"][regime]
    (instance_name, instance_entry), = entry["instances"].items()
    (algorithm,) = entry["algorithms"]
    instance = build_instance(instance_entry, np.random.default_rng(0))
    horizon = 20_000
    runs, info = simulate.run_seeds(regime, instance_name, instance, algorithm, "paper", horizon, [0, 1, 2],
                                    step=entry["step"][algorithm])  # fmt: skip
    final = runs[runs["t"] == horizon]
    for (_, row), learner in zip(final.iterrows(), info["learners"], strict=True):
        assert all(learner["hypotheses"].values()), learner["hypotheses"]
        point = Point(horizon, horizon, instance.numbers, learner["params"], row.to_dict())
        assert BOUNDS[display].hypotheses(point)
        assert row["regret_best_S"] > 2.0 * BOUNDS[display].evaluate(point)
        assert row["regret_best_S"] < BOUNDS[corrected].evaluate(point)


def test_step_in_the_config_is_checked_against_the_learners_free_step_sizes(default_config, schema_path):
    config = json.loads(json.dumps(default_config))
    entry = config["regimes"]["theorem7_witness"]
    entry["step"] = {"exp3g": {"eta": 0.1}, "algorithm2_bipartite": {"eta": 0.1, "c": 2.0}}
    with pytest.raises(Exception) as error:
        validate_config(config, schema_path)
    message = str(error.value)
    assert "regimes.theorem7_witness.step: names algorithm 'exp3g', which is not in algorithms" in message
    assert "regimes.theorem7_witness.step.algorithm2_bipartite: ['c'] cannot be set by hand" in message


def test_the_config_chooses_which_searches_run_and_an_empty_choice_runs_none(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(report, "search", lambda name, spec, scale, trial: ran.append(name) or name)
    assert report.run_searches("quick", ("theorem3_bound",)) == ["theorem3_bound"]
    assert report.run_searches("quick", ()) == []
    assert report.run_searches("quick") == list(declared_searches())
    with pytest.raises(ValueError, match="searches must be among .*'theorem9_bound'"):
        report.run_searches("quick", ("theorem9_bound",))
    # No search: a table with every column, read back as the evidence table reads it (no search column).
    paths = [tmp_path / f"f.{suffix}" for suffix in ("csv", "md", "png", "pdf")]
    report.write_falsification([], *paths)
    empty = read_typed_csv(paths[0])
    assert list(empty.columns) == list(report.COLUMNS) and empty.empty
    claim = CLAIMS_BY_KEY[SEARCHES["theorem3_bound"].claim]
    assert _search_columns(claim, empty) == {
        "searches": "", "search_runs": 0, "search_worst_ratio": pytest.approx(math.nan, nan_ok=True),
        "search_outcome": "",
    }  # fmt: skip


def test_the_predicted_cost_counts_the_chosen_searches_only():
    each = {name: predicted_seconds("quick", [name]) - STARTUP_SECONDS for name in declared_searches()}
    assert all(seconds > 0 for seconds in each.values()), each
    assert predicted_seconds("quick", []) == STARTUP_SECONDS
    # A rate's trial is two runs, T and 10T: Exp3.G's search at 2·10³ (and 2·10⁴ confirmed), written out.
    spec, cost = SEARCHES["exp3g_rate"], unit_cost("exp3g")
    budget, per_round = spec.scales["quick"], (cost.round_us + cost.size_us * 8) * 1e-6
    searched = budget.population * len(spec.dimensions) * (budget.generations + 1)
    expected = searched * (2 * 0.03 + 11 * 2000 * per_round)
    expected += budget.finalists * budget.confirm_seeds * (2 * 0.03 + 11 * 20_000 * per_round)
    assert each["exp3g_rate"] == pytest.approx(expected, rel=1e-12)
    assert predicted_seconds("quick") == pytest.approx(STARTUP_SECONDS + sum(each.values()))
