"""The properties that make paper 001's regimes of the default config exercise their theorems' mechanisms.

Each test reads ``config.yaml`` (the regimes and instances a default run draws) and checks what the regime's
description claims of its instances: L_D ≥ 3L* (Theorem 8's bound is in L_D, not L*), Theorem 8's two γ runs
differ, the best arm sits where ``best_in_D`` says, regimes that share draws play the same losses, the tuned
presets of Algorithms 1, 4 and 7 move at the quick horizons while the paper's Algorithm 7 at γ = 1/3 does not,
and no constants preset drawn in a regime repeats another's runs.
"""

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from regretlab.bandits import algorithm1, algorithm4, algorithm7
from regretlab.bandits import simulate as pipeline
from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.instance import BanditInstance, build_instance, write_instance_file
from regretlab.bandits.simulate import TUNING_COLUMNS, oracle_values, realised_totals, simulate
from regretlab.core.run_sets import run_and_write
from regretlab.core.seeding import draws_of, environment_and_learner_rngs, job_seed_sequence
from regretlab.workflow.config import presets_of, regimes_of_kind, validate_config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def config():
    """The default config, validated (defaults filled in)."""
    raw = yaml.safe_load((REPO / "config.yaml").read_text(encoding="utf-8"))
    return validate_config(raw, REPO / "schemas" / "config.schema.yaml")


def quick_horizon(regime: dict) -> int:
    return max(regime["scales"]["quick"]["horizons"])


def instances(config, regime_name):
    """The regime's instances as its instance jobs build them (keyed by the regime whose draws it uses)."""
    regime = config["regimes"][regime_name]
    key = draws_of(regime_name, regime)
    return {
        name: build_instance(spec, np.random.default_rng(job_seed_sequence(key, name, "instance")))
        for name, spec in regime["instances"].items()
    }


def weak_parts_regimes(config):
    return [
        name
        for name in regimes_of_kind(config, "bandit")
        if all(
            spec["losses"]["kind"] == "bernoulli_parts"
            for spec in config["regimes"][name]["instances"].values()
        )
    ]


# ------------------------------------------------------------------------------------------------------------
# Theorem 8: a bound in L_D, and the two γ
# ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("regime_name", ["weak_general_best_in_S", "weak_general_best_in_Sbar"])
def test_L_D_is_at_least_three_times_L_star_in_expectation_and_on_a_run(config, regime_name):
    """Every instance of Theorem 8's regimes has L_D ≥ 3L*, in its means (recorded in the instance file) and
    in the realised totals of seed 0 at the quick horizon (the oracle the run is tuned with)."""
    horizon = quick_horizon(config["regimes"][regime_name])
    for name, instance in instances(config, regime_name).items():
        numbers = instance.numbers
        assert numbers["mean_loss_D"] >= 3 * numbers["mean_loss_best"], name
        env_rng = environment_and_learner_rngs(job_seed_sequence(regime_name, name, 0))[0]
        oracle = oracle_values(instance, realised_totals(instance, horizon, env_rng))
        assert oracle["L_D"] >= 3 * oracle["L_star"], name


@pytest.mark.parametrize("regime_name", ["weak_general_best_in_S", "weak_general_best_in_Sbar"])
def test_the_two_gamma_runs_differ_with_the_paper_constants(config, regime_name):
    """δ = min{1/125, …, L_D^{−γ}} depends on γ only beyond L_D = 125² (γ = 1/2): the regime has instances
    there, on which γ = 1/3 and γ = 1/2 run different δ and produce different runs, and — the mechanism's
    control — the runs coincide where L_D < 125²."""
    horizon = quick_horizon(config["regimes"][regime_name])
    differ = 0
    for name, instance in instances(config, regime_name).items():
        key = job_seed_sequence(regime_name, name, 0)
        oracle = oracle_values(
            instance, realised_totals(instance, horizon, environment_and_learner_rngs(key)[0])
        )
        frames, deltas = [], []
        for algorithm in ("algorithm2_weak", "algorithm2_weak_half"):
            env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence(regime_name, name, 0))
            learner = make_learner(algorithm, instance, horizon, learner_rng, "paper", oracle)
            frames.append(simulate(learner, instance, horizon, env_rng).drop(columns=list(TUNING_COLUMNS)))
            deltas.append(learner.params["delta"])
        beyond = oracle["L_D"] > 125**2
        assert (deltas[0] != deltas[1]) == beyond, name
        assert (not frames[0].equals(frames[1])) == beyond, name
        differ += beyond
    assert differ >= 2


# ------------------------------------------------------------------------------------------------------------
# Where the best arm sits relative to D, and shared draws
# ------------------------------------------------------------------------------------------------------------


def test_best_in_D_is_recorded_and_as_configured_in_every_weakly_observable_instance(config):
    regimes = weak_parts_regimes(config)
    # the eight of Theorems 7, 8, 17, 18, the two sweeps in T and the two witnesses of Theorems 7 and 8
    assert len(regimes) == 12
    for regime_name in regimes:
        for name, instance in instances(config, regime_name).items():
            spec = config["regimes"][regime_name]["instances"][name]["losses"]
            numbers = instance.numbers
            assert numbers["best_in_D"] is spec["best_in_D"], (regime_name, name)
            assert (numbers["best_arm"] in numbers["D"]) is spec["best_in_D"], (regime_name, name)


def test_every_adaptive_regime_shares_the_draws_of_its_oracle_regime(config):
    """The four adaptive regimes against L* name their oracle regime in draws_from and repeat its instances
    (the sweeps in T, ``*_vs_T``, have instances of their own and no oracle regime)."""
    adaptive = [r for r in regimes_of_kind(config, "bandit") if r.startswith("weak_adaptive_")]
    for regime_name in [r for r in adaptive if not r.endswith("_vs_T")]:
        regime = config["regimes"][regime_name]
        source = regime_name.replace("weak_adaptive_", "weak_")
        assert regime["draws_from"] == source
        assert regime["instances"] == config["regimes"][source]["instances"]
        assert regime["scales"] == config["regimes"][source]["scales"]


@pytest.mark.parametrize(
    "regime_name", ["weak_adaptive_general_best_in_S", "weak_adaptive_bipartite_best_in_Sbar"]
)
def test_shared_draws_give_the_same_instance_files_and_losses(config, regime_name, tmp_path):
    """Through the workflow's own functions: the instance files of the two regimes are the same bytes, and a
    run of each regime (same algorithm, seed) plays the same losses — the same per-arm totals and the same
    run table; without draws_from the adaptive regime would draw other best arms or losses."""
    regime = config["regimes"][regime_name]
    source = regime["draws_from"]
    horizon = 2000
    for name, spec in regime["instances"].items():
        paths = [tmp_path / f"{r}-{name}.json" for r in (regime_name, source)]
        for r, path in zip((regime_name, source), paths, strict=True):
            write_instance_file(r, name, spec, str(path), draws=draws_of(r, config["regimes"][r]))
        assert paths[0].read_bytes() == paths[1].read_bytes()
        instance = BanditInstance.from_dict(json.loads(paths[0].read_text()))
        summaries = [
            run_and_write(
                pipeline,
                r,
                name,
                instance,
                "exp3g_weak",
                "paper",
                horizon,
                [0, 1],
                config["regimes"][r],
                None,
            )
            for r in (regime_name, source)
        ]
        totals = [[learner["L_per_arm"] for learner in summary["learners"]] for summary in summaries]
        assert totals[0] == totals[1]
        unshared = {key: value for key, value in regime.items() if key != "draws_from"}
        alone = run_and_write(
            pipeline, regime_name, name, instance, "exp3g_weak", "paper", horizon, [0], unshared, None
        )
        assert alone["learners"][0]["L_per_arm"] != totals[1][0]


def test_draws_from_is_validated(config, schema_path):
    """A regime sharing draws must name another bandit regime that owns its draws and repeat its entries."""
    from regretlab.workflow.config import ConfigError

    def broken(mutate):
        raw = yaml.safe_load(yaml.safe_dump(config))
        mutate(raw["regimes"])
        with pytest.raises(ConfigError) as error:
            validate_config(raw, schema_path)
        return str(error.value)

    def other_entry(regimes):
        entry = regimes["weak_adaptive_general_best_in_S"]["instances"]["stars_S_best_other_hub_0p07"]
        entry["losses"]["best_mean"] = 0.02

    assert "must repeat the entry" in broken(other_entry)
    assert "is not another regime" in broken(
        lambda r: r["weak_adaptive_general_best_in_S"].update(draws_from="weak_general")
    )
    assert "name that one" in broken(
        lambda r: r["weak_adaptive_general_best_in_Sbar"].update(draws_from="weak_adaptive_general_best_in_S")
    )
    assert "bandit regimes only" in broken(lambda r: r["cmdp_theorem6"].update(draws_from="cmdp_theorem5"))


# ------------------------------------------------------------------------------------------------------------
# Frozen and moving learners
# ------------------------------------------------------------------------------------------------------------


def _regimes_drawing_tuned(config, algorithm):
    return [
        r
        for r in regimes_of_kind(config, "bandit")
        if algorithm in config["regimes"][r]["algorithms"]
        and "tuned" in presets_of(config["regimes"][r], algorithm)
    ]


@pytest.mark.parametrize("algorithm", ["algorithm1", "algorithm4"])
def test_tuned_algorithms_1_and_4_move_at_the_quick_horizons_and_paper_does_not(config, algorithm):
    """At the largest quick horizon of every regime that draws them, with the instance's L* = best mean · T:
    tuned Algorithm 1's η is below its cap (η follows L*) and tuned Algorithm 4 reaches its first reset
    (Σ⟨p, ℓ̂⟩ ≥ L* ≥ (κ+1)/η_1²) at every instance but possibly the one of least L* (self_aware_alpha_vs_kappa:
    L* = 90 < (κ+1)β² = 150); with the paper's constants at none (not before T ≈ 10¹⁵)."""
    regimes = _regimes_drawing_tuned(config, algorithm)
    assert len(regimes) >= (3 if algorithm == "algorithm1" else 2)
    for regime_name in regimes:
        regime = config["regimes"][regime_name]
        horizon = quick_horizon(regime)
        moving = {"paper": [], "tuned": []}
        for name, instance in instances(config, regime_name).items():
            numbers = instance.numbers
            k, kappa, beta = numbers["K"], numbers["kappa"], numbers["kappa"] + numbers["s_bar"]
            l_star = regime["instances"][name]["losses"]["best_mean"] * horizon
            for constants in moving:
                if algorithm == "algorithm1":
                    threshold = algorithm1.uncapped_L_star(horizon, k, kappa, beta, constants)
                else:
                    threshold = algorithm4.first_reset_loss(horizon, k, kappa, beta, constants)
                moving[constants].append(l_star > threshold)
        assert not any(moving["paper"]), regime_name
        assert sum(moving["tuned"]) >= max(len(moving["tuned"]) - 1, 1), regime_name


@pytest.mark.parametrize(
    "regime_name", ["weak_adaptive_general_best_in_S", "weak_adaptive_general_best_in_Sbar"]
)
def test_algorithm7_resets_where_the_regime_says(config, regime_name):
    """The first reset's expected horizon (regretlab.bandits.algorithm7.first_reset_horizon, from each
    instance's mean loss on D): within the quick horizon for ``tuned`` at both γ at every instance, beyond it
    for ``paper`` at γ = 1/3 at every instance (the description's claim), and a run confirms both."""
    regime = config["regimes"][regime_name]
    horizon = quick_horizon(regime)
    for name, instance in instances(config, regime_name).items():
        for algorithm, gamma in (("algorithm7", 1 / 3), ("algorithm7_half", 1 / 2)):
            for constants in presets_of(regime, algorithm):
                learner = make_learner(algorithm, instance, horizon, np.random.default_rng(0), constants)
                first = algorithm7.first_reset_horizon(
                    learner.delta_start, gamma, learner.d, instance.numbers["mean_loss_D"]
                )
                if constants == "tuned":
                    assert first <= horizon / 10, (name, algorithm)
                elif gamma == 1 / 3:
                    assert first > 10 * horizon, (name, algorithm)
    name, instance = next(iter(instances(config, regime_name).items()))
    for constants, resets in (("paper", False), ("tuned", True)):
        env_rng, learner_rng = environment_and_learner_rngs(job_seed_sequence(regime_name, name, 0))
        learner = make_learner("algorithm7", instance, 20_000, learner_rng, constants)
        simulate(learner, instance, 20_000, env_rng)
        assert (learner.n_resets > 0) is resets


# ------------------------------------------------------------------------------------------------------------
# No drawn preset repeats another's runs
# ------------------------------------------------------------------------------------------------------------

#: Rounds of each run compared: runs that differ on a prefix differ (a pair identical on it fails the test,
#: which is the safe side).
PREFIX = 3000


def test_no_two_presets_drawn_in_a_bandit_regime_run_identically(config):
    """For every bandit regime of the default config, algorithm drawn with several presets, and instance: the
    presets' runs (seed 0, built for the regime's largest quick horizon, first PREFIX rounds) differ."""
    checked = 0
    for regime_name in regimes_of_kind(config, "bandit"):
        regime = config["regimes"][regime_name]
        horizon = quick_horizon(regime)
        for algorithm in regime["algorithms"]:
            presets = presets_of(regime, algorithm)
            if len(presets) < 2:
                continue
            spec = ALGORITHMS[algorithm]
            keys = spec.oracle
            for name, instance in instances(config, regime_name).items():
                instance = instance.at_horizon(horizon)
                seed_key = job_seed_sequence(draws_of(regime_name, regime), name, 0)
                totals = realised_totals(instance, horizon, environment_and_learner_rngs(seed_key)[0])
                oracle = {key: oracle_values(instance, totals)[key] for key in keys}
                frames = []
                for constants in presets:
                    env_rng, learner_rng = environment_and_learner_rngs(
                        job_seed_sequence(draws_of(regime_name, regime), name, 0)
                    )
                    learner = make_learner(algorithm, instance, horizon, learner_rng, constants, oracle)
                    frame = simulate(learner, instance, PREFIX, env_rng, np.array([PREFIX]))
                    frames.append(frame.drop(columns=list(TUNING_COLUMNS)))
                assert not frames[0].equals(frames[1]), (regime_name, algorithm, name)
                checked += 1
    assert checked >= 40


# ------------------------------------------------------------------------------------------------------------
# Theorem 2's explicit bound where it speaks
# ------------------------------------------------------------------------------------------------------------


def test_theorem2s_explicit_bound_is_below_the_trivial_one_at_the_regimes_largest_quick_horizon(config):
    """theorem2_explicit_bound exists because the proof's bound exceeds T at every other quick horizon: at its
    largest horizon the bound, at the learner's own η and c, is below T (so the check can fail), at its
    smallest it is not (the vacuous side of the transition); on the minimax instance uniform play's regret is
    far below the bound (no power), on the wide gap above it at the largest horizon (power), computed."""
    from regretlab.bandits.nulls import uniform_value
    from regretlab.registry.theory import BOUNDS

    regime = config["regimes"]["theorem2_explicit_bound"]
    horizons = regime["scales"]["quick"]["horizons"]
    built = instances(config, "theorem2_explicit_bound")
    assert [regime["instances"][n]["losses"]["kind"] for n in built] == ["minimax", "bernoulli"]
    for name, instance in built.items():
        ratios = []
        for horizon in horizons:
            rng = np.random.default_rng(0)
            learner = make_learner("theorem2", instance.at_horizon(horizon), horizon, rng)
            assert all(learner.hypotheses.values())
            point = {"T": horizon, **instance.numbers, "params": learner.params}
            ratios.append(BOUNDS["theorem2_bound"].evaluate(point) / horizon)
        assert ratios[-1] < 0.85 and ratios[0] > 1.0
        # Uniform play at the largest horizon, with L* at its expectation T · (best arm's mean).
        T = horizons[-1]
        best = min(instance.at_horizon(T).environment.means)
        null = uniform_value(instance.to_dict(), "pseudo_regret", {"T": T, "t": T, "L_star": best * T}) / T
        assert (null > ratios[-1]) is (name == "figure1_wide_gap"), (name, null, ratios[-1])
    others = [max(r["scales"]["quick"]["horizons"]) for n, r in config["regimes"].items()
              if n != "theorem2_explicit_bound" and "theorem2" in r.get("algorithms", [])]  # fmt: skip
    assert max(others) < horizons[0]
