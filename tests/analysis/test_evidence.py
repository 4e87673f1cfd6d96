"""The evidence table and what it rests on: the ``implied`` verdict and the ceilings behind it (checked on
real PDGD-OPS runs), ``identical`` curve families (detected on real runs), the claim registry, the mechanism
hook, the search for ``T_informative`` and the extrapolated points it evaluates."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from regretlab.analysis import evidence
from regretlab.analysis.aggregate import fit_exponents, mark_identical, summarise
from regretlab.analysis.evidence.items import curve_items, point_items, slope_outcome
from regretlab.analysis.evidence.markdown import _horizon
from regretlab.analysis.evidence.search import (
    T_MAX,
    T_MIN,
    Search,
    explicit_search,
    mechanism_possible,
    search_horizon,
)
from regretlab.analysis.evidence.table import _count_blocks, _outcome
from regretlab.analysis.tables import table1_comparison
from regretlab.analysis.verdicts import verdict, verdict_table
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.instance import build_instance as build_bandit_instance
from regretlab.bandits.simulate import run_seeds as run_bandit_seeds
from regretlab.cmdp.bounds import dual_regret_paper
from regretlab.cmdp.dual import dual_learning_rate, paper_K
from regretlab.cmdp.runs import build_instance as build_cmdp_instance
from regretlab.cmdp.runs import run_seeds as run_cmdp_seeds
from regretlab.core.seeding import job_seed_sequence
from regretlab.registry.claims import (
    ANY_CONSTANTS,
    CLAIMS,
    KINDS,
    RATE_SENSES,
    UNCHECKED,
    UNCHECKED_CLAIMS,
    Claim,
    Construction,
    Mechanism,
)
from regretlab.registry.theory import BOUNDS, CEILINGS, bounds_for, ceiling
from regretlab.registry.unit_costs import run_seconds
from regretlab.workflow.config import RunJob, validate_config
from regretlab.workflow.jobs import job_cost

REPO = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------------------------------------
# implied
# ------------------------------------------------------------------------------------------------------------


@given(
    bound=st.floats(1.0, 1e6),
    cap=st.floats(1.0, 1e6),
)
def test_verdict_is_implied_exactly_when_the_bound_reaches_the_ceiling(bound, cap):
    trivial = 2e6  # above both: never vacuous
    low, high = 0.0, 0.5  # below both: never violated
    expected = "implied" if bound >= cap else "holds"
    assert verdict("upper", True, bound, trivial, low, high, cap) == expected
    # For a lower bound the ceiling is a floor: implied when the bound is at or below it.
    floor_expected = "implied" if bound <= cap else "holds"
    assert verdict("lower", True, bound, 0.0, 2e6, 3e6, cap) == floor_expected
    assert verdict("upper", True, bound, trivial, low, high) == "holds"  # no ceiling: NaN


def test_a_violation_is_never_hidden_by_a_ceiling_and_vacuity_comes_first():
    assert verdict("upper", True, 10.0, 100.0, 5.0, 20.0, 1.0) == "violated"
    assert verdict("upper", True, 500.0, 100.0, 5.0, 8.0, 1.0) == "vacuous"


def cmdp_spec(m: int = 1, rho: float = 2.9) -> dict:
    return {
        "family": "binding", "n_layers": 3, "states_per_layer": 2, "n_actions": 2, "m": m, "rho": rho,
        "constraint_spread": None, "rewards": "stochastic", "constraints": "stochastic", "noise": 1.0,
        "period": 100, "reward_amplitude": 1.0, "constraint_amplitude": 0.5, "adversary": "switching",
        "risky_constraint": 1.0, "delta": 0.1,
        "rho_exponent": 0.0, "rho_reference_T": 1000,
    }  # fmt: skip


@pytest.fixture(scope="module")
def pdgd_runs():
    """Short PDGD-OPS runs of both presets, m = 1 and m = 2, with each seed's run record (its dual η)."""
    out = []
    for m, rho in ((1, 2.9), (2, 2.0)):
        spec = cmdp_spec(m, rho)
        instance = build_cmdp_instance(
            spec, np.random.default_rng(job_seed_sequence("r", f"m{m}", "instance"))
        )
        for constants in ("paper", "tuned"):
            runs, info = run_cmdp_seeds("r", f"m{m}", instance, "pdgd_ops", constants, 3000, [0, 1, 2])
            out.append((instance, constants, runs, {run["seed"]: run for run in info["runs"]}))
    return out


def test_every_dual_ceiling_holds_at_every_checkpoint_of_real_runs(pdgd_runs):
    """A test that could fail: the ceilings are sharp enough to be reached (λ climbs at ≈ ηmL per episode
    with the paper's η) and below the bound they imply (the dual identity), yet never crossed."""
    reached = []
    for instance, constants, runs, records in pdgd_runs:
        for row in runs.to_dict("records"):
            point = {**instance["numbers"], **row, "params": records[row["seed"]]}
            for metric in CEILINGS:
                cap = ceiling(metric, "pdgd_ops", point)
                assert row[metric] <= cap + 1e-12 * max(1.0, abs(cap)), (constants, metric, row["t"], cap)
            if constants == "paper" and row["t"] == row["T"] and point["m"] == 1:
                reached.append(row["lambda_l1_max"] / ceiling("lambda_l1_max", "pdgd_ops", point))
            bound = point["params"]["eta"] * point["m"] * point["L"] ** 2 * row["t"] / 2
            assert ceiling("dual_regret", "pdgd_ops", point) <= bound + 1e-15
    assert min(reached) > 0.5  # the paper's dual climbs at more than half of its largest possible step
    assert math.isnan(ceiling("lambda_l1", "uc_o_gdps", {"params": {}}))  # no dual, no ceiling


def test_the_paper_dual_regret_bound_is_implied_by_its_ceiling_at_every_horizon():
    for T in (10**3, 10**6, 10**12):
        eta = dual_learning_rate(paper_K(1, 6, 2), T, 0.1)
        for lam in (0.0, 0.3, 30.0):
            point = {"T": T, "t": T, "m": 1, "L": 3, "lambda_l1": lam, "params": {"eta": eta}}
            cap = ceiling("dual_regret", "pdgd_ops", point)
            assert dual_regret_paper(T, 0.1, 1, 3, 6, 2).value >= cap
        assert cap < 0  # a multiplier far from 0 forces R^D_T(0) < 0


# ------------------------------------------------------------------------------------------------------------
# identical
# ------------------------------------------------------------------------------------------------------------


def synthetic_summary(hashes: dict[tuple[str, str], list[str]]) -> pd.DataFrame:
    rows = []
    for (algorithm, constants), values in hashes.items():
        for i, value in enumerate(values):
            rows.append(
                {"instance": f"i{i}", "algorithm": algorithm, "constants": constants, "T": 100, "t": 100,
                 "runs_hash": value, "bound_name": "b", "verdict": "holds"}
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_identical_needs_every_point_and_points_to_the_first_family():
    summary = synthetic_summary(
        {
            ("b_alg", "tuned"): ["x", "y"],
            ("b_alg", "paper"): ["x", "y"],
            ("a_alg", "paper"): ["x", "y"],
            ("a_alg", "tuned"): ["x", "z"],  # one point differs: not identical
        }
    )
    marked = mark_identical(summary, {"algorithms": ["a_alg", "b_alg"], "constants": ["paper", "tuned"]})
    twin = marked.drop_duplicates(["algorithm", "constants"]).set_index(["algorithm", "constants"])
    assert twin.loc[("a_alg", "paper"), "identical_to"] == ""
    assert twin.loc[("a_alg", "tuned"), "identical_to"] == ""
    assert twin.loc[("b_alg", "paper"), "identical_to"] == "a_alg/paper"
    assert twin.loc[("b_alg", "tuned"), "identical_to"] == "a_alg/paper"


def bandit_spec(graph: dict, losses: dict, algorithm: str) -> dict:
    """A validated bandit instance entry (schema defaults filled in)."""
    config = {
        "regimes": {
            "r": {
                "kind": "bandit", "paper": "001", "theorem": "t", "x": "T",
                "instances": {"i": {"graph": graph, "losses": losses}},
                "algorithms": [algorithm], "bounds": {algorithm: ["exp3g_rate"]},
                "scales": {"quick": {"horizons": [100, 200], "seeds": 1},
                           "paper": {"horizons": [100, 200], "seeds": 1}},
            }
        }
    }  # fmt: skip
    return validate_config(config, REPO / "schemas" / "config.schema.yaml")["regimes"]["r"]["instances"]["i"]


def real_bandit_summary(regime_config: dict, spec: dict, horizons=(2000,), seeds=(0, 1)):
    """The aggregate table of real runs of every (algorithm, preset) of ``regime_config`` on one instance."""
    instance_file = build_bandit_instance(
        spec, np.random.default_rng(job_seed_sequence("r", "i", "instance"))
    )
    instance = BanditInstance.from_dict(instance_file.to_dict())
    frames, params = [], {}
    for algorithm in regime_config["algorithms"]:
        for constants in regime_config["constants"]:
            if constants not in ("paper",) and algorithm == "exp3g_weak":
                continue
            for horizon in horizons:
                runs, meta = run_bandit_seeds("r", "i", instance, algorithm, constants, horizon, list(seeds))
                frames.append(runs)
                for learner in meta["learners"]:
                    params[("i", algorithm, constants, horizon, learner["seed"])] = learner["params"]
    runs = pd.concat(frames, ignore_index=True)
    instances = {"i": instance_file.to_dict()}
    summary = summarise("r", regime_config, instances, runs, 100, params)
    return summary, runs, instances


def test_identical_runs_are_detected_exactly_on_real_runs():
    """Theorem 8's γ = 1/3 and 1/2 with the paper's constants coincide while L_D < 125^{1/γ}; their tuned
    presets (δ = L_D^{-γ}) and Exp3.G-weak differ."""
    spec = bandit_spec(
        {"family": "weakly_observable_stars", "leaf_counts": [3, 3]},
        {"kind": "bernoulli_parts", "best_in": "S", "best_mean": 0.01, "S_mean": 0.02, "S_bar_mean": 0.7},
        "algorithm2_weak",
    )
    regime = {
        "kind": "bandit", "paper": "001", "theorem": "t", "x": "T",
        "algorithms": ["exp3g_weak", "algorithm2_weak", "algorithm2_weak_half"],
        "constants": ["paper", "tuned"],
        "bounds": {"exp3g_weak": ["exp3g_weak_bound_best_S"], "algorithm2_weak": ["theorem8_best_S_third"],
                   "algorithm2_weak_half": ["theorem8_best_S_half"]},
    }  # fmt: skip
    summary, runs, _ = real_bandit_summary(regime, spec)
    twins = summary.drop_duplicates(["algorithm", "constants"]).set_index(["algorithm", "constants"])
    assert dict(twins["identical_to"][twins["identical_to"] != ""]) == {
        ("algorithm2_weak_half", "paper"): "algorithm2_weak/paper"
    }
    table = verdict_table([summary])
    half = table[(table["algorithm"] == "algorithm2_weak_half") & (table["constants"] == "paper")].iloc[0]
    assert half["identical"] == half["points"] and half["holds"] == 0  # counted once, with γ = 1/3
    fits = fit_exponents("r", regime, runs, summary, 100)
    assert (fits["identical_to"] == "algorithm2_weak/paper").sum() == 1


def test_algorithm5_presets_coincide_while_stage_2_never_starts():
    spec = bandit_spec(
        {"family": "mycielski_complement", "k": 4},
        {"kind": "bernoulli", "best_mean": 0.05, "gap": 0.3},
        "algorithm5",
    )
    regime = {
        "kind": "bandit", "paper": "001", "theorem": "t", "x": "T", "algorithms": ["algorithm5", "theorem2"],
        "constants": ["paper", "tuned"],
        "bounds": {"algorithm5": ["theorem14_rate"], "theorem2": ["theorem2_bound"]},
    }  # fmt: skip
    summary, _, _ = real_bandit_summary(regime, spec, horizons=(1000, 3000))
    twins = summary.drop_duplicates(["algorithm", "constants"]).set_index(["algorithm", "constants"])
    assert dict(twins["identical_to"][twins["identical_to"] != ""]) == {
        ("algorithm5", "tuned"): "algorithm5/paper"
    }


def test_table1_says_identical_instead_of_a_second_slope():
    fits = pd.DataFrame(
        [
            {"regime": "r", "algorithm": name, "constants": "paper", "instance": "all", "x": "L_D",
             "exponent": 0.33, "ci_low": 0.3, "ci_high": 0.36, "theory_exponent": theory,
             "bound_name": bound, "bound_explicit": True, "bound_slope": 0.48, "bound_regime": "asymptotic",
             "reason": "", "identical_to": twin}
            for name, bound, theory, twin in (
                ("algorithm2_weak", "theorem8_best_S_third", 2 / 3, ""),
                ("algorithm2_weak_half", "theorem8_best_S_half", 0.5, "algorithm2_weak/paper"),
            )
        ]
    )  # fmt: skip
    table = table1_comparison(fits)
    fitted = table[table["regime"] == "r"].set_index("algorithm")["fitted"]
    assert fitted["algorithm2_weak (paper)"].startswith("0.33")
    assert fitted["algorithm2_weak_half (paper)"] == "= algorithm2_weak (paper): identical runs, counted once"


# ------------------------------------------------------------------------------------------------------------
# The claim registry and the mechanism hook
# ------------------------------------------------------------------------------------------------------------


def default_config() -> dict:
    """The shipped config: tests/config/default.yaml, the copy of config.yaml a user's edits leave alone."""
    config = yaml.safe_load((REPO / "tests" / "config" / "default.yaml").read_text(encoding="utf-8"))
    return validate_config(config, REPO / "schemas" / "config.schema.yaml")


def test_every_claim_is_well_formed_and_drawn_by_the_default_config():
    config = default_config()
    drawn = {
        name
        for regime in config["regimes"].values()
        for algorithm in regime["algorithms"]
        for constants in regime.get("constants", ["paper"])
        if algorithm in regime["bounds"]
        for name in bounds_for(regime, algorithm, constants)
    }
    assert len({claim.key for claim in CLAIMS}) == len(CLAIMS)
    for claim in CLAIMS:
        assert claim.kind in KINDS and claim.rate_sense in RATE_SENSES and claim.paper in ("000", "001")
        assert set(claim.bounds) <= set(BOUNDS), claim.key
        assert set(claim.bounds) & drawn, f"{claim.key}: none of its bounds is drawn"
        if claim.regimes is not None:
            assert set(claim.regimes) <= set(config["regimes"])
    claimed = {name for claim in CLAIMS for name in claim.bounds}
    # Every drawn check belongs to a claim, but for reference lines and Theorem 5's premise (a hypothesis).
    unclaimed = {name for name in drawn - claimed if BOUNDS[name].direction != "reference"}
    assert unclaimed == {"theorem5_premise_rate"}
    # The rows without a check: each says why, and no key is taken twice.
    keys = [claim.key for claim in CLAIMS + UNCHECKED_CLAIMS]
    assert len(set(keys)) == len(keys)
    for claim in UNCHECKED_CLAIMS:
        assert claim.kind in UNCHECKED and not claim.bounds and claim.reason and claim.role == "claim", (
            claim.key
        )


def test_a_mechanism_reads_only_its_columns_and_says_when_they_are_missing():
    ratio = Mechanism(
        "L_D / L ≥ 3", ("L_D_mean", "L_best_S_mean"), lambda p: p["L_D_mean"] / p["L_best_S_mean"], 3
    )
    assert ratio.exercised(ratio.measure({"L_D_mean": 300.0, "L_best_S_mean": 100.0})) is True
    assert ratio.exercised(ratio.measure({"L_D_mean": 150.0, "L_best_S_mean": 100.0})) is False
    assert ratio.exercised(ratio.measure({"L_D_mean": 150.0})) is None  # not recorded
    strict = Mechanism("x > 1", ("x",), lambda p: p["x"], 1.0, strict=True, metrics=("regret",))
    assert strict.exercised(1.0) is False and strict.exercised(1.01) is True
    assert strict.concerns("regret") and not strict.concerns("violation")


def test_a_construction_check_says_what_it_would_catch_at_its_weakest_point():
    radius = Construction("a confidence radius {factor}× too small", lambda row: row["factor"])
    assert radius.describe([2.5, math.nan, 1.25, math.inf]) == "a confidence radius 1.25× too small"
    assert radius.describe([1.23456]) == "a confidence radius 1.23× too small"
    assert radius.describe([math.nan]) == "" and radius.describe([]) == ""


def hand_row(verdict_name: str, **extra) -> dict:
    return {
        "regime": "r", "instance": "i", "algorithm": "a", "constants": "paper", "T": 1000, "t": 1000,
        "n_seeds": 2, "metric": "regret_best_S", "bound_name": "theorem8_best_S_third",
        "bound_explicit": True, "direction": "upper", "hypotheses_hold": True, "run_hypotheses_hold": True,
        "verdict": verdict_name, "identical_to": "", "x": 1.0, "bound_value": 500.0, "null_uniform": 900.0,
        "null_reference": 800.0, **extra,
    }  # fmt: skip


THEOREM8 = next(claim for claim in CLAIMS if claim.key == "theorem8_S")


@pytest.mark.parametrize(
    ("rows", "tested", "why"),
    [
        ([hand_row("holds", L_D_mean=400.0, L_best_S_mean=100.0)], True, ""),
        ([hand_row("holds", L_D_mean=150.0, L_best_S_mean=100.0)], False, "mechanism not exercised 1"),
        ([hand_row("holds", L_D_mean=400.0)], False, "mechanism not recorded 1"),
        ([hand_row("vacuous", L_D_mean=400.0, L_best_S_mean=100.0)], False, "vacuous 1"),
        ([hand_row("holds", L_D_mean=400.0, L_best_S_mean=100.0, identical_to="b/paper")], False,
         "identical runs 1"),
        ([hand_row("violated", L_D_mean=400.0, L_best_S_mean=100.0, hypotheses_hold=False)], False,
         "hypotheses fail 1"),
        # Uniform play's value at or below the bound: it would pass too (no power).
        ([hand_row("holds", L_D_mean=400.0, L_best_S_mean=100.0, null_uniform=500.0)], False,
         "uniform play passes too 1"),
        ([hand_row("holds", L_D_mean=400.0, L_best_S_mean=100.0, null_uniform=math.nan)], False,
         "no null value (the metric is the learner's own state) 1"),
    ],
)  # fmt: skip
def test_items_are_testable_only_where_every_check_passes(rows, tested, why):
    items = point_items(THEOREM8, pd.DataFrame(rows), {("r", "i"): {"numbers": {}}})
    assert any(not item.block for item in items) == tested
    assert _count_blocks(items) == why


def test_a_violated_testable_point_is_the_outcome():
    rows = [
        hand_row("violated", L_D_mean=400.0, L_best_S_mean=100.0),
        hand_row("holds", L_D_mean=4e2, L_best_S_mean=1e2),
    ]
    items = point_items(THEOREM8, pd.DataFrame(rows), {("r", "i"): {"numbers": {}}})
    assert _outcome(items) == "violated at 1/2 pts"


@pytest.mark.parametrize(
    ("sense", "low", "high", "word"),
    [("upper", 0.45, 0.55, "consistent"), ("upper", 0.7, 0.8, "rejected over the measured range"),
     ("upper", 0.1, 0.2, "consistent"), ("tight", 0.1, 0.2, "rejected over the measured range"),
     ("lower", 0.1, 0.2, "rejected over the measured range"), ("lower", 0.7, 0.8, "consistent")],
)  # fmt: skip
def test_a_slope_is_judged_by_the_rates_sense(sense, low, high, word):
    fit = {
        "exponent": (low + high) / 2,
        "ci_low": low,
        "ci_high": high,
        "bound_slope": 0.5,
        "theory_exponent": 0.5,
    }
    assert slope_outcome(fit, sense).startswith(word + ":")


def fit_row(constants: str, low: float, high: float, **extra) -> dict:
    """An exponent fit of a rate whose drawn curve has the theory's exponent (0.75), hypotheses holding."""
    return {
        "regime": "r", "instance": "i", "algorithm": "pdgd_ops", "constants": constants, "x": "T",
        "exponent": (low + high) / 2, "ci_low": low, "ci_high": high, "theory_exponent": 0.75,
        "bound_slope": 0.75, "bound_regime": "asymptotic", "hypotheses_hold": True, "identical_to": "",
        "bound_name": "theorem6_violation_rate", "metric": "violation", "null_slope": 1.0,
        "log_power": 0.5, "log_slack": 0.05, **extra,
    }  # fmt: skip


def test_only_the_presets_a_theorem_covers_are_counted_and_the_others_are_shown():
    """Theorem 6 is proved for App. C's constants: a tuned curve that passes every check is shown as 'not
    counted', and the claim is not tested by it; a claim that holds for any constants counts it."""
    theorem6 = next(claim for claim in CLAIMS if claim.key == "theorem6_000")
    assert theorem6.presets == ("paper",)
    fits = pd.DataFrame([fit_row("tuned", 0.94, 0.97), fit_row("tuned", 0.74, 0.76)])
    summary = pd.DataFrame(
        [{"regime": "r", "instance": "i", "algorithm": "pdgd_ops", "constants": "tuned",
          "bound_name": "theorem6_violation_rate", "metric": "violation", "dual_clipped_mean": 0.3}]
    )  # fmt: skip
    no_fits = fits.iloc[:0]
    items = curve_items(theorem6, fits, summary, {("r", "i"): {"numbers": {}}}, no_fits)
    assert [item.block for item in items] == ["preset", "preset"]
    outcome = _outcome(items)
    # The rejected slope comes first: a failure over the measured range is never hidden behind a pass.
    assert outcome.startswith(
        "not counted (tuned constants, not the theorem's): rejected over the measured range: "
        "0.95 [0.94, 0.97] vs 0.75 (ln^0.5 hidden: widened by 0.05), accepts ≤ 0.80; consistent: 0.75"
    )
    assert _count_blocks(items) == "speaks only at constants the theorem does not cover 2"
    # The same curves with the paper's constants are counted, and so are tuned ones for a claim that holds
    # for any constants.
    paper = curve_items(theorem6, fits.assign(constants="paper"), summary.assign(constants="paper"),
                                  {("r", "i"): {"numbers": {}}}, no_fits)  # fmt: skip
    assert [item.block for item in paper] == ["", ""] and not _outcome(paper).startswith("not")
    anyone = Claim("k", "000", "K", "t", "l", "rate", ("theorem6_violation_rate",), presets=ANY_CONSTANTS)
    instances = {("r", "i"): {"numbers": {}}}
    assert [item.block for item in curve_items(anyone, fits, summary, instances, no_fits)] == [
        "",
        "",
    ]


def test_a_mechanism_the_learners_ceiling_rules_out_blocks_the_search_until_it_can_happen():
    """Theorem 6's mechanism (the dual clipped at T^{1/4}) is bounded by App. C's dual ceiling
    max{0, t − ⌊T^{1/4}/(ηL)⌋}/t: impossible while ηLT < T^{1/4}, possible from that T on
    (cmdp.dual.paper_dual_box_horizon: 1.15·10^14 for |X||A| = 12, m = 1)."""
    claim = next(claim for claim in CLAIMS if claim.key == "theorem6_000")
    assert claim.mechanism.bounded_by == "dual_clipped"

    def point(T):
        eta = dual_learning_rate(paper_K(1, 6, 2), T, 0.1)
        return {"T": T, "t": T, "L": 3, "m": 1, "params": {"eta": eta}}

    assert not mechanism_possible(claim, "violation", "pdgd_ops", point(10**13))
    assert mechanism_possible(claim, "violation", "pdgd_ops", point(2 * 10**14))
    assert mechanism_possible(claim, "violation", "uc_o_gdps", point(10**13))  # no ceiling: open
    other = next(claim for claim in CLAIMS if claim.key == "theorem8_S")
    assert mechanism_possible(other, "regret_best_S", "algorithm2_weak", {})


def test_every_claim_declares_presets_and_only_the_any_constants_statements_take_tuned():
    tuned = {claim.key for claim in CLAIMS if "tuned" in claim.presets}
    assert all(claim.presets and "paper" in claim.presets for claim in CLAIMS)
    # Paper 000: Theorem 3 for any C, OGD's inequality for any η, Lemmas 2 and 5 (the confidence sets);
    # paper 001: the explicit bounds proved for a range of constants that each run's hypotheses check (and
    # Theorem 8's corrected display), Lemma 9 for any η at c = 64K (its hypothesis).
    assert tuned == {"lemma2", "lemma5", "theorem3_000", "dual_regret", "theorem2", "theorem3", "theorem8_S",
                     "theorem8_Sbar", "lemma14_000", "theorem8_S_corrected", "lemma9_001"}  # fmt: skip


# ------------------------------------------------------------------------------------------------------------
# T_informative
# ------------------------------------------------------------------------------------------------------------


@given(threshold=st.integers(101, 10**17), ratio=st.floats(0.01, 0.5))
def test_search_finds_the_smallest_informative_horizon(threshold, ratio):
    """The horizon found is the threshold (to the bisection's precision) and the note names what blocks just
    below it (not what blocks further down)."""
    found = search_horizon(
        lambda T: "" if T >= threshold else "vacuous" if T >= ratio * threshold else "hypotheses"
    )
    assert found.T is not None and threshold <= found.T <= threshold * 1.0002 + 1
    assert found.note == "vacuous below"


def test_search_reports_beyond_the_top_bottom_and_transients():
    assert search_horizon(lambda T: "implied") == Search(None, "implied")
    assert search_horizon(lambda T: "").T == T_MIN
    assert T_MAX == 10**18  # every learner can be built up to int64's 9.2·10^18
    transient = search_horizon(lambda T: "" if 1e3 <= T <= 1e4 or T >= 1e8 else "pre-asymptotic")
    assert transient.T == pytest.approx(1e8, rel=2e-4)
    assert transient.note == "rate pre-asymptotic below; passes the checks briefly near T = 1e3, a transient"
    assert _horizon(math.nan, "implied").startswith("never: implied at every T searched")
    assert _horizon(math.nan, "rate pre-asymptotic") == "> 1e18 (rate pre-asymptotic)"


def test_extrapolated_points_reproduce_the_aggregate_bound_where_they_were_measured(pdgd_runs):
    instance, constants, runs, records = pdgd_runs[0]
    summary = summarise(
        "r", {"kind": "cmdp", "paper": "000", "theorem": "t", "x": "T",
              "bounds": {"pdgd_ops": ["theorem5_regret", "theorem4_zeta", "dual_regret_paper"]}},
        {"m1": instance}, runs.assign(instance="m1"),
        100, {("m1", "pdgd_ops", constants, 3000, seed): record for seed, record in records.items()},
    )  # fmt: skip
    for row in summary.to_dict("records"):
        point = evidence.point_at(row, instance, "cmdp", int(row["T"]))
        assert BOUNDS[row["bound_name"]].evaluate(point) == pytest.approx(row["bound_value"], rel=1e-9)
        if math.isfinite(row["ceiling"]):  # the mean point's ceiling is within the seeds' range
            assert ceiling(row["metric"], "pdgd_ops", point) <= row["ceiling"] * (1 + 1e-9)
    # App. C's dual: ηmLT ≤ ζ at this T, ζ < ηmLT only from T ≈ 3·10^9 (issue 15: ‖λ‖₁ ≤ 0.24 ≪ 21.1).
    zeta_row = summary[summary["bound_name"] == "theorem4_zeta"].iloc[0].to_dict()
    assert zeta_row["verdict"] == "implied"
    found = explicit_search(
        next(c for c in CLAIMS if c.key == "theorem4_000"),
        summary[summary["bound_name"] == "theorem4_zeta"],
        {("r", "m1"): instance},
    )
    assert 1e9 < found.search.T < 1e10


def test_bandit_points_are_extrapolated_with_the_learners_own_tuning():
    spec = bandit_spec(
        {"family": "weakly_observable_stars", "leaf_counts": [3, 3]},
        {"kind": "bernoulli_parts", "best_in": "S_bar", "best_mean": 0.01, "S_mean": 0.3, "S_bar_mean": 0.7},
        "algorithm2_weak_half",
    )
    regime = {
        "kind": "bandit", "paper": "001", "theorem": "t", "x": "T", "algorithms": ["algorithm2_weak_half"],
        "constants": ["paper"], "bounds": {"algorithm2_weak_half": ["theorem8_best_Sbar_half"]},
    }  # fmt: skip
    summary, _, instances = real_bandit_summary(regime, spec, horizons=(3000,))
    row = summary.iloc[0].to_dict()
    here = evidence.point_at(row, instances["i"], "bandit", 3000)
    value = BOUNDS["theorem8_best_Sbar_half"].evaluate(here)
    assert value == pytest.approx(row["bound_value"], rel=0.05)  # the mean point against the mean of bounds
    later = evidence.point_at(row, instances["i"], "bandit", 3 * 10**6)
    assert later["L_D"] == pytest.approx(1000 * here["L_D"])
    # L_D ≈ 9·10^5 > 125² at 3·10^6: the paper's δ is L_D^{−1/2} there, not 1/125.
    assert later["delta"] == pytest.approx(later["L_D"] ** -0.5) and here["delta"] == pytest.approx(1 / 125)


def test_run_seconds_is_the_job_cost_of_one_batch():
    config = default_config()
    job = RunJob("cmdp_theorem5", "stochastic_rewards", "pdgd_ops", "paper", 250000, (0, 1, 2, 3))
    regime = config["regimes"]["cmdp_theorem5"]
    assert run_seconds("cmdp_theorem5", regime, "stochastic_rewards", "pdgd_ops", 250000, 4) == pytest.approx(
        job_cost(config, job).simulation_seconds
    )
    cost = {
        T: run_seconds("cmdp_theorem5", regime, "stochastic_rewards", "pdgd_ops", T, 1)
        for T in (10**3, 10**6, 10**9)
    }
    # affine in T: a run's fixed cost plus T times the per-episode cost
    # (regretlab.specs.algorithm_spec.UnitCost)
    slope = (cost[10**6] - cost[10**3]) / (10**6 - 10**3)
    assert slope > 0 and cost[10**9] - cost[10**6] == pytest.approx(slope * (10**9 - 10**6), rel=1e-9)
    assert cost[10**3] - slope * 10**3 > 0  # the fixed cost


def test_markdown_is_compact_and_counts_the_claims_tested_with_power():
    blank = {c: "" for c in evidence.CSV_COLUMNS} | {"T_floor": math.nan, "T_search": math.nan} | {
        "T_power": math.nan,
        "cpu_hours_power_run": math.nan,
        "cpu_hours_power_seeds": math.nan,
        "role": "claim",
    }
    table = pd.DataFrame(
        [
            {**blank, "name": "Theorem 3", "paper": "001", "tested": True, "power": "uniform",
             "check": "explicit bound", "regimes": "a (1), b (2), c (3)", "outcome": "holds at 1/1 pts",
             "T_informative": 6.2e4, "cpu_hours_run": 1e-5, "cpu_hours_seeds": 1e-4, "seeds": 10},
            {**blank, "name": "Theorem 4", "paper": "000", "tested": False,
             "check": "explicit bound", "regimes": "d (8)", "why": "implied 8", "T_informative": math.nan,
             "T_informative_note": "implied", "T_power_note": "implied", "cpu_hours_run": math.nan,
             "cpu_hours_seeds": math.nan, "seeds": 0},
            {**blank, "name": "Exp3.G", "paper": "001", "tested": True, "power": "uniform",
             "role": "reference", "check": "rate", "regimes": "e (2)", "outcome": "consistent: 0.4",
             "T_informative": 1e2, "cpu_hours_run": 1e-7, "cpu_hours_seeds": 1e-6, "seeds": 10},
        ]
    )  # fmt: skip
    text = evidence.markdown(table)
    assert "**Of 2 claims of the two papers, 1 are tested with power against uniform play: " in text
    assert "1 reference rows" in text and "Exp3.G (001)](claims/" in text and ") — *reference*" in text
    assert "a (1), b (2) +1 more" in text and "never: implied at every T searched" in text
    assert "| 6.2e4 |" in text
    assert len(text.splitlines()) < 12


def test_claims_with_no_drawn_bound_get_no_row():
    claim = Claim("k", "001", "K", "text", "line 1", "rate", ("exp3g_rate",))
    empty = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit", "direction"])
    fits = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit"])
    assert evidence.claim_row(claim, empty, fits, {}, {})["points"] == 0


def test_markdown_cells_of_each_horizon_and_cost():
    """Each way a T_informative / T_power cell is written (two significant digits, exponents without +), the
    CPU-hours cell, the dash of an empty power or outcome, and the mechanism's measured value beside an
    untested claim's blocks."""
    blank = {c: "" for c in evidence.CSV_COLUMNS} | {"T_floor": math.nan, "T_search": math.nan} | {
        "role": "claim",
        "check": "explicit bound",
        "paper": "000",
    }
    nan = math.nan
    rows = [
        # name, tested, power, T_informative and note, T_power and note, hours, mechanism
        ("A", False, "", 3.1e11, "vacuous below", 4.3e16, "uniform play passes too below", (2.5, 25.0, 9),
         ""),
        ("B", False, "", nan, "no null value (the metric is the learner's own state)", nan,
         "no null value (the metric is the learner's own state)", (nan, nan, 0), ""),
        ("C", False, "", nan, "", nan, "uniform play passes too", (nan, nan, 0), ""),
        ("D", True, "uniform", 100.0, "already at the smallest horizon searched; passes briefly", nan, "",
         (0.00024, 33.0, 4), ""),
        ("E", False, "", nan, "rate pre-asymptotic", nan, "", (nan, nan, 0), "L_D / L ≥ 3"),
    ]  # fmt: skip
    table = pd.DataFrame(
        [
            {**blank, "name": name, "tested": tested, "power": power, "T_informative": t_inf,
             "T_floor": 8.5e8 if name == "A" else math.nan, "T_search": 1.5e10 if name == "A" else math.nan,
             "T_informative_note": inf_note, "T_power": t_pow, "T_power_note": pow_note,
             "cpu_hours_power_run": hours[0], "cpu_hours_power_seeds": hours[1], "seeds": hours[2],
             "why": "" if tested else "vacuous 2", "mechanism": mechanism,
             "mechanism_values": "1.5–2.25" if mechanism else ""}
            for name, tested, power, t_inf, inf_note, t_pow, pow_note, hours, mechanism in rows
        ]
    )  # fmt: skip
    # The claim cell links to its page: "[A (000)](claims/….md)" is keyed "A (000)".
    lines = {re.sub(r"^\[(.*)\]\(.*\)$", r"\1", line.split(" | ")[0].lstrip("| ")): line
             for line in evidence.markdown(table).splitlines()}  # fmt: skip
    cells = {name: [cell.strip() for cell in line.strip("|").split("|")] for name, line in lines.items()}
    # claim | statement | check | regimes | tested | power | outcome | falsification search | why not |
    # T_informative | T_power | CPU-h
    # an untested claim has no power and no outcome; a claim no search attacks, no search cell
    assert cells["A (000)"][4:8] == ["no", "—", "—", "—"]
    assert cells["A (000)"][8:] == [
        "vacuous 2", "3.1e11 (vacuous below)",
        "4.3e16 (uniform play passes too below); on any admissible instance: not below T ≈ 8.5e8 "
        "(docs/findings.md); instance search: T ≈ 1.5e10 (figures/power_search.md)", "2.5 / 25 (9)",
    ]  # fmt: skip
    assert cells["B (000)"][9:] == [
        "never: no null value (the metric is the learner's own state)",
        "never: no null value (the metric is the learner's own state)",
        "",
    ]
    assert cells["C (000)"][9:11] == ["—", "never: uniform play passes too at every T searched (1e2–1e18)"]
    # Tested against uniform play: no T_power (it has power already); at the bottom of the search.
    assert cells["D (000)"][4:6] == ["**yes**", "uniform"]
    assert cells["D (000)"][9:] == ["≤ 1e2 (passes briefly)", "", "0.00024 / 33 (4)"]
    assert cells["E (000)"][8:10] == [
        "vacuous 2; L_D / L ≥ 3: measured 1.5–2.25",
        "> 1e18 (rate pre-asymptotic)",
    ]
    text = evidence.markdown(table)
    assert "## Claims without a check" not in text and text.endswith(lines["E (000)"] + "\n")


def test_claims_without_a_check_are_listed_apart_with_their_reason():
    blank = {c: "" for c in evidence.CSV_COLUMNS} | {"T_floor": math.nan, "T_search": math.nan}
    blank |= {"role": "claim", "paper": "001", "tested": False}
    table = pd.DataFrame(
        [{**blank, "claim": "lemma9_001", "name": "Lemma 9", "check": "proof-internal",
          "text": "an inequality", "source": "line 9",
          "why": "inside the proof of Theorem 4"},
         {**blank, "name": "Theorem 4", "check": "rate", "T_informative": math.nan, "T_power": math.nan,
          "cpu_hours_power_run": math.nan, "cpu_hours_power_seeds": math.nan, "seeds": 0}]
    )  # fmt: skip
    text = evidence.markdown(table)
    assert "1 claims have no check" in text
    rest = text.split("## Claims without a check\n\n")[1]
    assert (
        "| [Lemma 9 (001)](claims/lemma9_001.md) | an inequality | line 9 | proof-internal | inside the "
        "proof of Theorem 4 |" in rest
    )


def test_a_claims_row_from_a_hand_made_mix_of_points():
    """Theorem 8 (i ∈ S) on four hand-made points of two regimes: one testable (mechanism L_D/L = 4 ≥ 3,
    below the reference learner's value: power ``reference``), one vacuous, one whose mechanism is not
    exercised (1.5), one whose runs copy another family's. Some item testable: the claim is tested. The runs'
    own conditions fail at the largest horizon, so no horizon is searched."""
    common = {"run_hypotheses_hold": False}
    rows = [
        hand_row("holds", regime="a", L_D_mean=400.0, L_best_S_mean=100.0, **common),
        hand_row("vacuous", regime="a", L_D_mean=400.0, L_best_S_mean=100.0, T=100, t=100, **common),
        hand_row("holds", regime="b", L_D_mean=150.0, L_best_S_mean=100.0, **common),
        hand_row("holds", regime="b", algorithm="a2", identical_to="x/paper", L_D_mean=400.0,
                 L_best_S_mean=100.0, **common),
    ]  # fmt: skip
    instances = {("a", "i"): {"numbers": {}}, ("b", "i"): {"numbers": {}}}
    fits = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit"])
    row = evidence.claim_row(THEOREM8, pd.DataFrame(rows), fits, instances, {})
    assert {key: row[key] for key in ("points", "testable_items", "tested", "power", "outcome", "why")} == {
        "points": 4, "testable_items": 1, "tested": True, "power": "reference", "outcome": "holds at 1/1 pts",
        "why": "",
    }  # fmt: skip
    assert row["regimes"] == "a (2), b (2)" and row["mechanism_values"] == "1.5–4"
    assert row["identical"] == "b: a2/paper = x/paper"
    assert row["mechanism"] == THEOREM8.mechanism.description and row["check"] == THEOREM8.kind
    assert math.isnan(row["T_informative"]) and row["T_informative_note"] == "" and row["seeds"] == 0
    # Without the testable point, the blocks are counted in BLOCKS' order.
    rest = evidence.claim_row(THEOREM8, pd.DataFrame(rows[1:]), fits, instances, {})
    assert (rest["tested"], rest["power"], rest["testable_items"]) == (False, "", 0)
    assert rest["why"] == "identical runs 1 · vacuous 1 · mechanism not exercised 1"
    assert rest["outcome"] == ""
