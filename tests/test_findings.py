"""docs/findings.md's numbers are the runs': each quoted value is checked against the quick-scale aggregate
fixture (tests/data/figures_quick, tests/data/evidence_quick, refreshed from a default run) or the committed
falsification table, so that a finding that stops being true fails here instead of staying in the prose."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from regretlab.analysis.tables import read_typed_csv

REPO = Path(__file__).resolve().parents[1]
FINDINGS = (REPO / "docs" / "findings.md").read_text(encoding="utf-8")
SUMMARY = pd.read_parquet(REPO / "tests" / "data" / "figures_quick" / "summary.parquet")
EXPONENTS = pd.read_parquet(REPO / "tests" / "data" / "evidence_quick" / "exponents.parquet")
FALSIFICATION = read_typed_csv(REPO / "figures" / "falsification.csv").set_index("search")
POWER_SEARCH = read_typed_csv(REPO / "figures" / "power_search.csv").set_index("bound")


def _point(regime: str, bound: str, horizon: int) -> pd.Series:
    rows = SUMMARY[
        (SUMMARY["regime"] == regime) & (SUMMARY["bound_name"] == bound) & (SUMMARY["T"] == horizon)
    ]
    assert len(rows) == 1, (regime, bound, horizon)
    return rows.iloc[0]


@pytest.mark.parametrize(
    ("quoted", "numbers", "regime", "bound", "values"),
    [
        ("regret 403, 2854 and 5054", (403, 2854, 5054), "theorem7_witness", "theorem7_best_S", "mean"),
        ("a display of 118, 226 and\n1016", (118, 226, 1016), "theorem7_witness", "theorem7_best_S",
         "bound_value"),
        ("864, 7666 and 40 652", (864, 7666, 40652), "theorem8_witness", "theorem8_best_S_third", "mean"),
        ("771, 1069 and 1971", (771, 1069, 1971), "theorem8_witness", "theorem8_best_S_third", "bound_value"),
    ],
)  # fmt: skip
def test_the_witness_regimes_numbers(quoted, numbers, regime, bound, values):
    assert quoted in FINDINGS
    measured = [_point(regime, bound, horizon)[values] for horizon in (2000, 20000, 200000)]
    assert measured == pytest.approx(numbers, abs=0.51)
    for horizon in (2000, 20000, 200000):  # every point a violation within the hypotheses
        row = _point(regime, bound, horizon)
        assert row["verdict"] == "violated" and row["hypotheses_hold"]


def test_the_corrected_displays_hold_where_the_findings_say():
    quoted = "0.55 and 0.84 of the corrected display at 2·10⁴ and\n2·10⁵ for Theorem 7, 0.78 at 2·10⁵"
    assert quoted in FINDINGS
    ratios = [
        _point("theorem7_witness", "theorem7_best_S_corrected", 20000),
        _point("theorem7_witness", "theorem7_best_S_corrected", 200000),
        _point("theorem8_witness", "theorem8_best_S_corrected", 200000),
    ]
    assert [round(r["mean"] / r["bound_value"], 2) for r in ratios] == [0.55, 0.84, 0.78]
    assert all(r["verdict"] == "holds" for r in ratios)
    below = [_point("theorem7_witness", "theorem7_best_S_corrected", 2000),
             _point("theorem8_witness", "theorem8_best_S_corrected", 20000)]  # fmt: skip
    assert all(r["verdict"] == "vacuous" for r in below)


@pytest.mark.parametrize(
    ("search", "quoted", "outcome"),
    [
        ("theorem7_best_S", "16.9", "violated within the hypotheses"),
        ("theorem8_best_S_third", "7.7", "violated within the hypotheses"),
        ("theorem7_best_Sbar", "0.68", "survived"),
        ("theorem8_best_Sbar_third", "0.60", "survived"),
        ("theorem7_best_S_corrected", "0.81", "survived"),
        ("theorem8_best_S_corrected", "0.57", "survived"),
    ],
)
def test_the_searches_numbers(search, quoted, outcome):
    assert quoted in FINDINGS
    row = FALSIFICATION.loc[search]
    assert row["outcome"] == outcome
    digits = len(quoted.split(".")[1])
    assert round(row["worst_ratio"], digits) == pytest.approx(float(quoted))


def test_theorem18s_persistent_rejection_is_the_corrected_rate():
    text = FINDINGS.replace("\n", " ")
    assert "0.79 [0.78, 0.80] (paper) and 0.71 (tuned)" in text and "0.74 [0.73, 0.75]" in text
    fits = EXPONENTS[EXPONENTS["algorithm"] == "algorithm7_half"]
    stated = fits[fits["bound_name"] == "theorem18_best_S_half"]
    corrected = fits[fits["bound_name"] == "theorem18_best_S_half_corrected"]
    assert set(stated["rejection"]) == {"persistent"} and len(stated) == 3
    assert set(stated["fitted_at"]) == {"epoch ends"}  # Algorithm 7 restarts: fitted where epochs end
    # The corrected rate (3/4, no hidden log): consistent in T and tuned in L_D, beyond it by 0.04 (paper).
    assert len(corrected) == 3
    verdicts = {(row["x"], row["constants"]): row["rate_verdict"] for row in corrected.to_dict("records")}
    assert verdicts == {("T", "paper"): "consistent", ("L_D", "tuned"): "consistent",
                        ("L_D", "paper"): "rejected over the measured range"}  # fmt: skip
    beyond = corrected[(corrected["x"] == "L_D") & (corrected["constants"] == "paper")].iloc[0]
    assert round(beyond["exponent"] - 0.75, 2) == 0.04 and "exceeds 3/4 by 0.04" in text
    paper = stated[(stated["regime"] == "weak_adaptive_general_best_in_S") & (stated["constants"] == "paper")]
    assert [round(paper.iloc[0][c], 2) for c in ("exponent", "ci_low", "ci_high")] == [0.79, 0.78, 0.80]
    tuned = stated[(stated["regime"] == "weak_adaptive_general_best_in_S") & (stated["constants"] == "tuned")]
    assert round(tuned.iloc[0]["exponent"], 2) == 0.71
    in_t = stated[stated["regime"] == "weak_adaptive_general_vs_T"].iloc[0]
    assert [round(in_t[c], 2) for c in ("exponent", "ci_low", "ci_high")] == [0.74, 0.73, 0.75]


def test_the_corrected_restarting_rates_are_steeper_over_their_search_windows():
    text = FINDINGS.replace("\n", " ")
    cases = (("theorem17_best_S_corrected", "0.78 against 2/3", 2 / 3),
             ("theorem18_best_S_half_corrected", "0.83 against 3/4", 0.75))  # fmt: skip
    for search, quoted, exponent in cases:
        row = FALSIFICATION.loc[search]
        assert row["outcome"] == "steeper than its band at every seed" and row["seed_ratio_min"] > 1.0
        # measured is the growth per decade, 10^slope; the band (no hidden log) is the exponent
        assert round(math.log10(row["measured"]), 2) == float(quoted.split()[0]) and quoted in text
        assert row["bound_value"] == pytest.approx(10**exponent, rel=1e-5)


def test_theorem17s_sbar_rejection_spans_one_reset_step():
    text = FINDINGS.replace("\n", " ")
    assert "L_{i*_S}^0.75 [0.74, 0.77] on `weak_adaptive_bipartite_best_in_Sbar`" in text
    assert "its four ends span 0.60 decades: the third reset of three instances and the fourth of one" in text
    fits = EXPONENTS[(EXPONENTS["regime"] == "weak_adaptive_bipartite_best_in_Sbar")]
    fit = fits[fits["algorithm"] == "algorithm6"].iloc[0]
    assert [round(fit[c], 2) for c in ("exponent", "ci_low", "ci_high")] == [0.75, 0.74, 0.77]
    assert (fit["fitted_at"], fit["n_points"], fit["rejection"]) == ("epoch ends", 4, "persistent")
    assert fit["theory_exponent"] == pytest.approx(2 / 3) and fit["log_slack"] == 0.0
    points = json.loads(fit["epoch_end_points"])
    assert round(math.log10(max(points["x"]) / min(points["x"])), 2) == 0.60
    assert sorted(label.split()[-1] for label in points["labels"]) == ["k=3", "k=3", "k=3", "k=4"]


def test_theorem17s_epoch_end_slopes_are_beyond_the_stated_rate_and_within_the_corrected():
    text = FINDINGS.replace("\n", " ")
    assert "0.62 [0.60, 0.63] in L* on `weak_adaptive_bipartite_best_in_S` (6 ends)" in text
    assert "0.64 [0.62, 0.67] in T on `weak_adaptive_bipartite_vs_T`" in text
    fits = EXPONENTS[EXPONENTS["algorithm"] == "algorithm6"].set_index(["regime", "bound_name"])
    for regime, x, quoted, ends in (
        ("weak_adaptive_bipartite_best_in_S", "L_star", [0.62, 0.60, 0.63], 6),
        ("weak_adaptive_bipartite_vs_T", "T", [0.64, 0.62, 0.67], 2),
    ):
        stated = fits.loc[(regime, "theorem17_best_S")]
        corrected = fits.loc[(regime, "theorem17_best_S_corrected")]
        assert stated["x"] == x and stated["fitted_at"] == "epoch ends" and stated["n_points"] == ends
        assert stated["rate_verdict"] == "rejected over the measured range"
        assert stated["rejection"] == "persistent"
        assert corrected["rate_verdict"] == "consistent", regime
        # the same slope, its interval bootstrapped for each bound
        assert [round(stated[c], 2) for c in ("exponent", "ci_low", "ci_high")] == quoted, regime
        assert round(corrected["exponent"], 2) == quoted[0], regime


def _sci(value: float) -> str:
    """3.59e7 → '3.6·10⁷', as findings.md writes a horizon."""
    exponent = int(f"{value:.1e}".split("e")[1])
    digits = str(exponent).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"{value / 10**exponent:.1f}·10{digits}"


@pytest.mark.parametrize(
    ("label", "names"),
    [
        ("Theorem 5, regret", ("theorem5_regret",)),
        ("Theorem 7, regret (stated and corrected)", ("theorem7_regret", "theorem7_regret_corrected")),
        ("Theorems 5 and 7, violation (ζ/η + E^q_δ)", ("theorem5_violation", "theorem7_violation")),
        ("Theorem 6, regret", ("theorem6_regret",)),
        ("Theorem 6, violation", ("theorem6_violation",)),
    ],
)
def test_finding_2_quotes_the_floors_and_the_search(label, names):
    """The floors by their function; the search's horizons and instances as figures/power_search.csv has
    them (the run's output, which tests/cmdp/test_power_search.py checks against the search)."""
    from regretlab.cmdp.floors import floor

    found = {floor(name) for name in names}
    assert len(found) == 1, found
    (only,) = found
    searched = POWER_SEARCH.loc[list(names)]
    horizons = ", ".join(dict.fromkeys(_sci(T) for T in searched["T_search"]))
    sizes = "; ".join(dict.fromkeys(
        re.sub(r"L = (\d+), \|X\| = \d+, \|A\| = (\d+), m = 1", r"L = \1, \2 actions", text)
        for text in searched["sizes"]
    ))  # fmt: skip
    assert f"| {label} | {_sci(only.T)} | {only.L} | {horizons} | {sizes} |" in FINDINGS


def test_finding_2_quotes_the_power_scale_margins():
    """Theorem 5 at 6·10⁸ on the one-layer CMDP (uniform play's regret 2/3 per episode) and Theorem 7 at 10⁹
    on the two-layer chain (uniform play earns 2·1/5 of OPT = 2 per episode)."""
    from regretlab.cmdp.bounds import theorem5, theorem7

    assert "Theorem 5 at 6·10⁸ (bound 0.47 of uniform play's regret" in FINDINGS.replace("\n", " ")
    assert "Theorem 7 at 10⁹ (0.96: nominal)" in FINDINGS.replace("\n", " ")
    T5, T7 = 600_000_000, 1_000_000_000
    assert round(theorem5(T5, 0.1, 1, 2, 3, 1, 1.0, True)[0].value / (2 / 3 * T5), 2) == 0.47
    assert round(theorem7(T7, 0.1, 2, 3, 5, 1, 2.0, 2.0, True)[0].value / ((2 - 0.4) * T7), 2) == 0.96
