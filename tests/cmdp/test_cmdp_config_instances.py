"""The CMDP instances of the shipped config exercise what their regime is about (docs/choices-paper000.md).

Theorem 7: the risky_swing adversary moves the risky entries by >= 1 while the average still binds, q* is
violated in half the episodes by about L (line 1248 assumes <= 1), the adversarial ρ meets Condition 2 at
the largest quick horizon, and the two reward-ratio lines are told apart by a run. Theorem 6: λ* is above
the box side T^{1/4} at every quick horizon on the instances meant to clip, and the tuned dual does clip.
Theorems 4/5 and 7: Condition 2 holds exactly at the largest quick horizon.
"""

import math
from pathlib import Path

import numpy as np
import pytest
from shipped_config import shipped_config

from regretlab.cmdp import bounds
from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.instance import CMDP, condition2_holds
from regretlab.cmdp.runs import build_instance, run_seeds
from regretlab.core.seeding import job_seed_sequence

REPO = Path(__file__).resolve().parents[2]
#: The shipped config.yaml (tests/test_shipped_files.py), whose instances these tests describe.
CONFIG = shipped_config()
#: Theorem 6's instances, and whether each is meant to have λ* above the box side at every quick horizon.
CLIPS = {
    "small_rho": False,
    "clipped_rho_adversarial_rewards": True,
    "shrinking_rho": True,
    "two_constraints": False,
}


def regime(name: str) -> dict:
    return CONFIG["regimes"][name]


def quick_horizons(name: str) -> list[int]:
    return sorted(regime(name)["scales"]["quick"]["horizons"])


def instance(regime_name: str, name: str, horizon: int | None = None) -> dict:
    spec = regime(regime_name)["instances"][name]
    rng = np.random.default_rng(job_seed_sequence(regime_name, name, "instance"))
    return build_instance(spec, rng, horizon)


@pytest.mark.parametrize("name", sorted(regime("cmdp_theorem7")["instances"]))
def test_theorem7_instances_swing_by_at_least_one_and_q_star_is_violated_by_about_L(name):
    spec = regime("cmdp_theorem7")["instances"][name]
    built = instance("cmdp_theorem7", name)
    numbers, cmdp = built["numbers"], CMDP.from_dict(built["cmdp"])
    environment = CMDPEnvironment.from_dict(built["environment"])
    assert spec["constraints"] == "adversarial" and spec["adversary"] == "risky_swing"
    phases = np.asarray(environment.constraints.phases)
    moving = phases.max(axis=0) - phases.min(axis=0) > 0
    assert numbers["constraint_swing_min"] >= 1.0  # every moving entry swings by >= 1 ...
    assert np.all(cmdp.G_bar[moving] >= 0) and np.all(
        np.diff(phases, axis=0)[:, ~moving] == 0
    )  # ... only those
    # The time average binds (binding family) or is active at q* (chain), and q* is safe only on average.
    assert float(np.einsum("ixa,xa->i", cmdp.G_bar, cmdp.q_star).max()) == pytest.approx(0, abs=1e-7)
    if spec["family"] == "binding":
        assert numbers["binds"] and numbers["unconstrained_violation"] > 0
    assert numbers["max_G_q_star"] >= 0.9 * cmdp.L and numbers["share_G_q_star_above_1"] == 0.5
    # Safe entries stay put: the adversarial ρ is the stochastic one; Condition 2 at the largest horizon only.
    assert numbers["rho_adversarial"] == pytest.approx(numbers["rho_stochastic"], abs=1e-9)
    horizons = quick_horizons("cmdp_theorem7")
    holds = [condition2_holds(numbers["rho_adversarial"], T, cmdp.L, cmdp.m) for T in horizons]
    assert holds[-1] and not any(holds[:-1])
    # Every quick horizon is a whole number of cycles: each run's benchmark is the cycle's.
    for T in horizons:
        assert T % (2 * spec["period"]) == 0
        benchmark = environment.benchmark(cmdp.P, T)
        assert benchmark.max_G_q_star == pytest.approx(numbers["max_G_q_star"], abs=1e-9)
        assert benchmark.rho == pytest.approx(numbers["rho_adversarial"], abs=1e-9)
    # The stated mixture of line 1248 violates a phase; the corrected one is safe in both.
    rho, q_circ = numbers["rho_adversarial"], environment.benchmark(cmdp.P, horizons[-1]).q_circ

    def worst(weight):
        return np.einsum("kixa,xa->ki", phases, weight * cmdp.q_star + (1 - weight) * q_circ).max()

    assert worst(rho / (1 + rho)) > 0.5 and worst(bounds.theorem7_corrected_ratio(cmdp.L, rho)) <= 1e-7


def test_theorem7_measured_ratio_is_told_apart_from_the_stated_line():
    # On the chain with rewards paid where action 1 violates, tuned PDGD-OPS keeps each phase nearly feasible
    # and earns ≈ ρ/(L+ρ) of T·OPT: far below the stated ρ/(1+ρ), on the corrected line.
    built = instance("cmdp_theorem7", "chain_adversarial_rewards")
    runs, info = run_seeds(
        "cmdp_theorem7", "chain_adversarial_rewards", built, "pdgd_ops", "tuned", 10000, [0]
    )
    ratio, rho = runs["reward_ratio"].iloc[-1], info["runs"][0]["rho"]
    assert ratio < rho / (1 + rho) - 0.2
    assert ratio > bounds.theorem7_corrected_ratio(3, rho) - 0.01


@pytest.mark.parametrize("name", sorted(CLIPS))
def test_theorem6_lambda_star_against_the_box_side_at_every_quick_horizon(name):
    assert set(regime("cmdp_theorem6")["instances"]) == set(CLIPS)
    ratios = []
    for T in quick_horizons("cmdp_theorem6"):
        built = instance("cmdp_theorem6", name, T)
        numbers, cmdp = built["numbers"], CMDP.from_dict(built["cmdp"])
        assert numbers["binds"] and not condition2_holds(cmdp.rho, T, cmdp.L, cmdp.m)
        largest = max(numbers["lambda_star"])
        ratios.append(largest / T**0.25)
        assert (largest > T**0.25) == CLIPS[name], (name, T, largest, T**0.25)
        # App. C's dual cannot reach the box before paper_dual_box_T, far past every horizon.
        assert numbers["paper_dual_box_T"] > 1e12
    if regime("cmdp_theorem6")["instances"][name]["rho_exponent"] == 0.25:  # λ* ∝ 1/ρ(T) ∝ T^{1/4}
        assert max(ratios) / min(ratios) == pytest.approx(1.0, abs=0.01)


def test_theorem6_tuned_dual_clips_where_lambda_star_is_above_the_box_and_the_paper_dual_cannot():
    T = quick_horizons("cmdp_theorem6")[0]
    built = instance("cmdp_theorem6", "shrinking_rho", T)
    tuned, info = run_seeds("cmdp_theorem6", "shrinking_rho", built, "pdgd_ops", "tuned", T, [0])
    assert tuned["dual_clipped"].iloc[-1] > 0.1
    assert tuned["lambda_l1_max"].iloc[-1] == pytest.approx(T**0.25) == info["runs"][0]["dual_box"]
    paper, info = run_seeds("cmdp_theorem6", "shrinking_rho", built, "pdgd_ops", "paper", T, [0])
    assert paper["dual_clipped"].iloc[-1] == 0
    ceiling = info["runs"][0]["eta"] * built["numbers"]["L"] * T  # ‖λ_t‖₁ <= η m L t (Lemma 11, m = 1)
    assert paper["lambda_l1_max"].iloc[-1] <= ceiling < T**0.25


@pytest.mark.parametrize("regime_name", ["cmdp_theorem5", "cmdp_theorem4_trajectory"])
def test_condition2_holds_at_the_largest_quick_horizon_only(regime_name):
    horizons = quick_horizons(regime_name)
    for name in regime(regime_name)["instances"]:
        built = instance(regime_name, name)
        numbers, rho = built["numbers"], CMDP.from_dict(built["cmdp"]).rho
        holds = [condition2_holds(rho, T, numbers["L"], numbers["m"]) for T in horizons]
        assert holds[-1] and not any(holds[:-1])
        assert math.isclose(
            (numbers["L"] * math.sqrt(20 * numbers["m"]) / rho) ** 8, 2.0e5, rel_tol=0.02
        )  # config's T* ≈ 2.0·10^5
