"""The CMDP generator hits ρ exactly, validates requests, is reproducible and serialises losslessly."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.instance import CMDP, condition2_holds, make_layered_cmdp
from regretlab.cmdp.occupancy import is_valid_occupancy, triples_from_pairs
from regretlab.cmdp.offline_lp import feasibility_parameter, solve_opt


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
