"""The CMDP generators hit ρ exactly, validate requests, are reproducible and serialise losslessly; binding
instances bind, and λ* is the multiplier of the offline LP (against a cvxpy dual)."""

import json
import math
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped_config import shipped_config

from regretlab.cmdp.instance import (
    CMDP,
    FAMILIES,
    condition2_holds,
    constraint_summary,
    make_binding_cmdp,
    make_cmdp,
    make_layered_cmdp,
)
from regretlab.cmdp.occupancy import is_valid_occupancy, triples_from_pairs
from regretlab.cmdp.offline_lp import feasibility_parameter, solve_opt, solve_unconstrained
from regretlab.cmdp.runs import build_instance
from regretlab.core.seeding import job_seed_sequence

REPO = Path(__file__).resolve().parents[2]


def assert_same_instance(a: CMDP, b: CMDP) -> None:
    assert a.layer_sizes == b.layer_sizes and a.n_actions == b.n_actions
    assert a.opt == b.opt and a.rho == b.rho
    for name in ("P", "r_bar", "G_bar", "q_star", "q_circ"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_layers=st.integers(1, 4),
    width=st.integers(1, 3),
    n_actions=st.integers(1, 3),
    m=st.integers(1, 3),
    fraction=st.floats(0.0, 0.6),
)
def test_generated_instance_hits_rho_and_stores_its_offline_solution(
    seed, n_layers, width, n_actions, m, fraction
):
    # With constraint_spread = 0.2 every rho in [0, 0.6 L] is reachable: rho(G_0) lies in [-0.2 L, 0.2 L].
    rho = fraction * n_layers
    rng = np.random.default_rng(seed)
    cmdp = make_layered_cmdp(rng, n_layers, width, n_actions, m, rho, constraint_spread=0.2)
    assert (cmdp.L, cmdp.m, cmdp.n_actions) == (n_layers, m, n_actions)
    assert cmdp.rho == rho
    assert feasibility_parameter(cmdp.P, cmdp.G_bar)[0] == pytest.approx(rho, abs=1e-9)
    assert np.min(-np.einsum("ixa,xa->i", cmdp.G_bar, cmdp.q_circ)) == pytest.approx(rho, abs=1e-9)
    assert np.all(np.abs(cmdp.G_bar) <= 1) and np.all((cmdp.r_bar >= 0) & (cmdp.r_bar <= 1))
    for q in (cmdp.q_star, cmdp.q_circ):
        assert is_valid_occupancy(cmdp.layer_sizes, triples_from_pairs(q, cmdp.P), cmdp.P)[0]
    assert np.all(np.einsum("ixa,xa->i", cmdp.G_bar, cmdp.q_star) <= 1e-9)
    assert float(np.sum(cmdp.r_bar * cmdp.q_star)) == pytest.approx(cmdp.opt, abs=1e-9)
    assert cmdp.opt == pytest.approx(solve_opt(cmdp.P, cmdp.r_bar, cmdp.G_bar)[0], abs=1e-9)
    assert cmdp.opt >= float(np.sum(cmdp.r_bar * cmdp.q_circ)) - 1e-9


def test_rho_zero_is_reachable_and_rho_L_is_out_of_reach_for_a_random_draw():
    cmdp = make_layered_cmdp(np.random.default_rng(4), 3, 2, 2, 2, 0.0)
    assert feasibility_parameter(cmdp.P, cmdp.G_bar)[0] == pytest.approx(0.0, abs=1e-9)
    # rho = L requires Ḡ = -1 on the support of q°: out of reach for a random draw, reported as such.
    with pytest.raises(ValueError, match=r"rho=3\.0 is out of reach.*constraint_spread"):
        make_layered_cmdp(np.random.default_rng(4), 3, 2, 2, 2, 3.0)


@pytest.mark.parametrize("rho", [-0.1, 3.5, math.inf, math.nan])
def test_rho_outside_zero_to_L_is_rejected_with_the_allowed_range(rho):
    with pytest.raises(ValueError, match=r"rho must lie in \[0, L\] = \[0, 3\]"):
        make_layered_cmdp(np.random.default_rng(0), 3, 2, 2, 1, rho)


def test_unreachable_rho_names_the_reachable_range():
    with pytest.raises(ValueError, match=r"rho=2\.9 is out of reach.*only for rho in \[\d"):
        make_layered_cmdp(np.random.default_rng(0), 3, 2, 2, 1, 2.9, constraint_spread=0.9)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"n_layers": 0}, "n_layers"),
        ({"n_actions": 0}, "n_actions"),
        ({"m": 0}, "m >= 1"),
        ({"constraint_spread": 0.0}, "constraint_spread"),
        ({"states_per_layer": (2,)}, "states_per_layer"),
        ({"states_per_layer": 0}, "layer_sizes"),
    ],
)
def test_bad_sizes_are_rejected(kwargs, word):
    arguments = {"n_layers": 3, "states_per_layer": 2, "n_actions": 2, "m": 1, "rho": 0.5} | kwargs
    with pytest.raises(ValueError, match=word):
        make_layered_cmdp(np.random.default_rng(0), **arguments)


def test_a_seeded_generator_gives_identical_instances():
    make = lambda seed: make_layered_cmdp(np.random.default_rng(seed), 4, (2, 3, 2), 3, 2, 0.7)  # noqa: E731
    assert_same_instance(make(11), make(11))
    assert not np.array_equal(make(11).P, make(12).P)
    assert make(11).layer_sizes == (1, 2, 3, 2, 1)


def test_round_trip_through_json_and_npz(tmp_path):
    cmdp = make_layered_cmdp(np.random.default_rng(5), 3, 3, 2, 2, 0.4)
    assert_same_instance(CMDP.from_dict(json.loads(json.dumps(cmdp.to_dict()))), cmdp)
    np.savez(tmp_path / "cmdp.npz", **cmdp.to_dict())
    with np.load(tmp_path / "cmdp.npz") as data:
        assert_same_instance(CMDP.from_dict(dict(data)), cmdp)


def test_instances_are_read_only_and_validated():
    cmdp = make_layered_cmdp(np.random.default_rng(6), 2, 2, 2, 1, 0.3)
    with pytest.raises(ValueError, match="read-only"):
        cmdp.P[0, 0, 1] = 1.0
    data = cmdp.to_dict()
    with pytest.raises(ValueError, match="G_bar"):
        CMDP.from_dict(data | {"G_bar": np.asarray(data["G_bar"])[:, :-1].tolist()})
    with pytest.raises(ValueError, match="sum to 1"):
        CMDP.from_dict(data | {"P": (0.5 * np.asarray(data["P"])).tolist()})
    with pytest.raises(ValueError, match="G_bar in \\[-1, 1\\]"):
        CMDP.from_dict(data | {"G_bar": (3.0 * np.asarray(data["G_bar"])).tolist()})


def test_condition2_is_rho_at_least_T_to_the_minus_one_eighth_L_sqrt_20m():
    T, L, m = 3**8 * 10**8, 2, 5
    threshold = T ** (-1 / 8) * L * math.sqrt(20 * m)  # = 2 * 10 / 30
    assert condition2_holds(threshold, T, L, m)
    assert not condition2_holds(threshold * (1 - 1e-12), T, L, m)
    # Equivalent form used by Theorem 4: zeta = 20 m L^2 / rho^2 <= T^{1/4}.
    assert condition2_holds(0.7, T, L, m) == (20 * m * L**2 / 0.7**2 <= T**0.25)
    # rho <= L, so the condition needs T >= (20 m)^4.
    assert not condition2_holds(L, (20 * m) ** 4 // 2, L, m)
    assert condition2_holds(L, 2 * (20 * m) ** 4, L, m)


def cvxpy_opt_and_multiplier(cmdp: CMDP) -> tuple[float, np.ndarray]:
    """OPT of eq. (5) and the dual values of ``Ḡ^T q <= 0``, from Lemma 1's flow constraints in cvxpy."""
    q = cp.Variable(cmdp.P.shape[:2], nonneg=True)
    flows = [cp.sum(q[0]) == 1, q[-1] == 0]
    for state in range(1, cmdp.n_states - 1):
        flows.append(cp.sum(q[state]) == cp.sum(cp.multiply(cmdp.P[:, :, state], q)))
    budget = [cp.sum(cp.multiply(cmdp.G_bar[i], q)) <= 0 for i in range(cmdp.m)]
    problem = cp.Problem(cp.Maximize(cp.sum(cp.multiply(cmdp.r_bar, q))), flows + budget)
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert problem.status == cp.OPTIMAL
    return problem.value, np.array([float(c.dual_value) for c in budget])


def lagrangian_value(cmdp: CMDP, lam: np.ndarray) -> float:
    """``max_{q∈Δ(M)} r̄^T q - λ^T Ḡ^T q``: the dual function of eq. (5) at ``λ``."""
    return solve_unconstrained(cmdp.P, cmdp.r_bar - np.einsum("i,ixa->xa", lam, cmdp.G_bar))[0]


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_layers=st.integers(1, 3),
    width=st.integers(1, 3),
    n_actions=st.integers(2, 3),
    m=st.integers(1, 2),
    fraction=st.floats(0.05, 0.98),
)
def test_binding_instances_hit_rho_bind_and_report_the_lp_multiplier(
    seed, n_layers, width, n_actions, m, fraction
):
    # With the default bands of width 0.02, every rho <= 0.98 L is reachable (the all-safe policy has margin
    # at least 0.98 L before the scaling).
    rho = fraction * n_layers
    cmdp = make_binding_cmdp(np.random.default_rng(seed), n_layers, width, n_actions, m, rho)
    assert feasibility_parameter(cmdp.P, cmdp.G_bar)[0] == pytest.approx(rho, abs=1e-9)
    assert np.all(np.abs(cmdp.G_bar) <= 1) and np.all((cmdp.r_bar >= 0) & (cmdp.r_bar <= 1))
    summary = constraint_summary(cmdp)
    # Binding: the unconstrained optimum violates, and the constraint costs reward.
    assert summary.binds and summary.unconstrained_violation > 0
    assert summary.opt_unconstrained > cmdp.opt + 1e-7
    opt_u, q_u = solve_unconstrained(cmdp.P, cmdp.r_bar)
    assert summary.opt_unconstrained == pytest.approx(opt_u, abs=1e-9)
    assert summary.unconstrained_violation == pytest.approx(np.max(np.einsum("ixa,xa->i", cmdp.G_bar, q_u)))
    # λ* against an independent cvxpy dual, and the saddle-point identities it must satisfy.
    expected_opt, expected_lam = cvxpy_opt_and_multiplier(cmdp)
    lam = np.asarray(summary.lambda_star)
    assert cmdp.opt == pytest.approx(expected_opt, abs=1e-7)
    assert np.all(lam >= 0) and summary.lambda_star_l1 > 0
    np.testing.assert_allclose(lam, expected_lam, atol=1e-5 * max(1.0, summary.lambda_star_l1))
    assert lagrangian_value(cmdp, lam) == pytest.approx(cmdp.opt, abs=1e-7)  # strong duality at λ*
    slack = np.einsum("ixa,xa->i", cmdp.G_bar, cmdp.q_star)
    assert np.abs(lam * slack).max() <= 1e-7  # complementary slackness
    # Slater's bound ||λ*||_1 <= (OPT - r̄^T q°)/ρ, which the tuned dual step uses (regretlab.cmdp.dual).
    assert summary.lambda_star_l1 <= (cmdp.opt - float(np.sum(cmdp.r_bar * cmdp.q_circ))) / rho + 1e-7


def test_a_vacuous_instance_does_not_bind_and_its_multiplier_is_zero():
    # Issue 9's instance: a constant shift of a spread-0.1 draw to rho = 0.9 L leaves no violating policy.
    cmdp = make_cmdp(np.random.default_rng(0), "vacuous", 3, 2, 2, 1, 2.7, 0.1)
    summary = constraint_summary(cmdp)
    assert not summary.binds and summary.unconstrained_violation < 0
    assert summary.lambda_star == (0.0,) and summary.opt == pytest.approx(summary.opt_unconstrained)
    assert summary.to_dict()["lambda_star_l1"] == 0.0


def test_binding_requests_out_of_reach_are_rejected():
    with pytest.raises(ValueError, match=r"rho=3\.0 is out of reach.*\(0, 2\.9"):
        make_binding_cmdp(np.random.default_rng(0), 3, 2, 2, 1, 3.0)
    with pytest.raises(ValueError, match="n_actions >= 2"):
        make_binding_cmdp(np.random.default_rng(0), 3, 2, 1, 1, 1.0)
    with pytest.raises(ValueError, match=r"rho must lie in \(0, L\]"):
        make_binding_cmdp(np.random.default_rng(0), 3, 2, 2, 1, 0.0)
    with pytest.raises(ValueError, match="family must be one of"):
        make_cmdp(np.random.default_rng(0), "loose", 3, 2, 2, 1, 1.0)


def test_binding_instances_are_reproducible():
    make = lambda seed: make_cmdp(np.random.default_rng(seed), "binding", 3, 2, 2, 2, 2.9)  # noqa: E731
    assert_same_instance(make(3), make(3))
    assert not np.array_equal(make(3).G_bar, make(4).G_bar)


#: The shipped config.yaml (tests/test_shipped_files.py): its instances are the ones meant to bind.
SHIPPED = REPO / "tests" / "config" / "default.yaml"


def config_cmdp_instances():
    config = shipped_config()
    return [
        (regime, name, spec)
        for regime, regime_spec in config["regimes"].items()
        if regime_spec["kind"] == "cmdp"
        for name, spec in regime_spec["instances"].items()
    ]


@pytest.mark.parametrize(("regime", "name", "spec"), config_cmdp_instances(), ids=lambda v: str(v)[:40])
def test_every_config_instance_meant_to_bind_binds(regime, name, spec):
    assert spec["family"] in (*FAMILIES, "explicit")  # drawn by make_cmdp, or given by hand
    horizons = config_horizons(regime)
    for horizon in (None, *horizons) if spec["rho_exponent"] else (None,):
        rng = np.random.default_rng(job_seed_sequence(regime, name, "instance"))
        numbers = build_instance(spec, rng, horizon)["numbers"]
        assert numbers["family"] == spec["family"]
        if spec["family"] == "binding":
            assert numbers["binds"], f"{regime}/{name} at T={horizon} is meant to bind and does not"
            assert numbers["lambda_star_l1"] > 0 and numbers["unconstrained_violation"] > 0


def config_horizons(regime: str) -> list[int]:
    config = yaml.safe_load(SHIPPED.read_text())
    return sorted({T for grid in config["regimes"][regime]["scales"].values() for T in grid["horizons"]})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), risky=st.floats(0.03, 1.0), fraction=st.floats(0.5, 0.98))
def test_risky_constraint_moves_the_band_of_the_risky_entries_and_keeps_the_draw(seed, risky, fraction):
    cmdp = make_binding_cmdp(np.random.default_rng(seed), 3, 2, 2, 1, 3 * fraction, risky_constraint=risky)
    default = make_binding_cmdp(np.random.default_rng(seed), 3, 2, 2, 1, 3 * fraction)
    np.testing.assert_array_equal(cmdp.P, default.P)  # the same draw, only the band moves
    np.testing.assert_array_equal(cmdp.r_bar, default.r_bar)
    risky_mask, G = cmdp.r_bar[:-1] >= 0.8, cmdp.G_bar[0, :-1]  # risky actions pay in [0.8, 1]
    assert np.all(G[risky_mask] > 0) and np.all(G[~risky_mask] < 0)
    # G_0's band [risky - s, risky] scaled by ρ/ρ(G_0) ∈ [fraction, 1] (ρ(G_0) <= L = 3).
    assert G[risky_mask].max() <= risky + 1e-12 and G[risky_mask].min() >= (risky - 0.02) * fraction - 1e-12
    summary = constraint_summary(cmdp)
    assert summary.binds and summary.unconstrained_violation > 0
    with pytest.raises(ValueError, match="risky_constraint must lie in"):
        make_binding_cmdp(np.random.default_rng(seed), 3, 2, 2, 1, 1.0, risky_constraint=0.01)


def test_the_chain_is_theorem_7s_counterexample():
    cmdp = make_cmdp(np.random.default_rng(0), "chain", 3, 1, 2, 1, 2.92)
    assert cmdp.layer_sizes == (1, 1, 1, 1) and cmdp.rho == pytest.approx(2.92, abs=1e-9)
    assert cmdp.opt == pytest.approx(1.5)  # action 1 everywhere, r̄ = 1/2
    np.testing.assert_allclose(cmdp.q_star[:3], [[0, 1]] * 3, atol=1e-9)
    np.testing.assert_allclose(cmdp.q_circ[:3], [[1, 0]] * 3, atol=1e-9)
    summary = constraint_summary(cmdp)
    assert not summary.binds and summary.lambda_star == (0.0,)  # active at q*, but costs nothing
    for bad in ((3, 2, 2, 1), (3, 1, 3, 1), (3, 1, 2, 2)):
        with pytest.raises(ValueError, match="family chain needs states_per_layer = 1"):
            make_cmdp(np.random.default_rng(0), "chain", *bad, 1.0)
    with pytest.raises(ValueError, match=r"rho in \(0, L\]"):
        make_cmdp(np.random.default_rng(0), "chain", 3, 1, 2, 1, 3.5)
