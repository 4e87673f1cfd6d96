"""Offline LP (5) and the feasibility parameter ρ of §3.5 against an independent cvxpy formulation."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.cmdp.occupancy import is_valid_occupancy, layer_slices, triples_from_pairs
from regretlab.cmdp.offline_lp import feasibility_parameter, feasibility_parameter_adversarial, solve_opt


def random_problem(seed, n_layers, width, n_actions, m, n_rounds=1):
    rng = np.random.default_rng(seed)
    layer_sizes = (1, *([width] * (n_layers - 1)), 1)
    slices = layer_slices(layer_sizes)
    n_states = sum(layer_sizes)
    P = np.zeros((n_states, n_actions, n_states))
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        P[cur, :, nxt] = rng.dirichlet(np.ones(nxt.stop - nxt.start), size=(cur.stop - cur.start, n_actions))
    r = np.zeros((n_states, n_actions))
    r[:-1] = rng.random((n_states - 1, n_actions))
    G = np.zeros((n_rounds, m, n_states, n_actions))
    G[:, :, :-1] = rng.uniform(-1.0, 0.6, size=(n_rounds, m, n_states - 1, n_actions))
    return layer_sizes, P, r, G


def cvxpy_occupancies(layer_sizes, P):
    """Δ(M) written from Lemma 1 directly: q(x, a) >= 0, q(x_0) = 1 and q(x') = Σ P(x'|x, a) q(x, a)."""
    q = cp.Variable(P.shape[:2], nonneg=True)
    constraints = [cp.sum(q[0]) == 1, q[-1] == 0]
    for state in range(1, P.shape[0] - 1):
        constraints.append(cp.sum(q[state]) == cp.sum(cp.multiply(P[:, :, state], q)))
    return q, constraints


def solve_cvxpy(problem):
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    return problem.status, problem.value


sizes = st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3),
                  st.integers(1, 3))


@settings(max_examples=15, deadline=None)
@given(sizes)
def test_opt_agrees_with_cvxpy(params):
    layer_sizes, P, r, G = random_problem(*params)
    G = G[0]
    q, constraints = cvxpy_occupancies(layer_sizes, P)
    constraints += [cp.sum(cp.multiply(G[i], q)) <= 0 for i in range(G.shape[0])]
    problem = cp.Problem(cp.Maximize(cp.sum(cp.multiply(r, q))), constraints)
    status, expected = solve_cvxpy(problem)
    if status == cp.INFEASIBLE:
        with pytest.raises(ValueError, match="infeasible"):
            solve_opt(P, r, G)
        return
    assert status == cp.OPTIMAL
    opt, q_star = solve_opt(P, r, G)
    assert opt == pytest.approx(expected, abs=1e-7)
    assert float(np.sum(r * q_star)) == pytest.approx(opt, abs=1e-9)
    assert np.all(np.einsum("ixa,xa->i", G, q_star) <= 1e-9)
    assert is_valid_occupancy(layer_sizes, triples_from_pairs(q_star, P), P)[0]


@settings(max_examples=15, deadline=None)
@given(sizes, st.integers(1, 4))
def test_rho_agrees_with_cvxpy_in_both_settings(params, n_rounds):
    layer_sizes, P, _, G_seq = random_problem(*params, n_rounds=n_rounds)
    q, constraints = cvxpy_occupancies(layer_sizes, P)
    margins = [-cp.sum(cp.multiply(G, q)) for G in G_seq.reshape(-1, *G_seq.shape[2:])]
    status, expected = solve_cvxpy(cp.Problem(cp.Maximize(cp.min(cp.hstack(margins))), constraints))
    assert status == cp.OPTIMAL

    rho, q_circ = feasibility_parameter_adversarial(P, G_seq)
    assert rho == pytest.approx(expected, abs=1e-7)
    assert np.min(-np.einsum("tixa,xa->ti", G_seq, q_circ)) == pytest.approx(rho, abs=1e-9)
    assert is_valid_occupancy(layer_sizes, triples_from_pairs(q_circ, P), P)[0]
    # One episode is the stochastic definition; more episodes can only shrink the margin of the mean.
    assert feasibility_parameter(P, G_seq[0])[0] == pytest.approx(
        feasibility_parameter_adversarial(P, G_seq[:1])[0], abs=1e-12
    )
    assert rho <= feasibility_parameter(P, G_seq.mean(axis=0))[0] + 1e-9


def test_rho_is_L_times_a_uniform_margin():
    layer_sizes, P, _, G = random_problem(3, n_layers=3, width=2, n_actions=2, m=2)
    G = np.zeros_like(G[0])
    G[:, :-1] = -0.25
    rho, _ = feasibility_parameter(P, G)
    assert rho == pytest.approx(0.75, abs=1e-12)
    with pytest.raises(ValueError, match="infeasible"):
        solve_opt(P, np.zeros(P.shape[:2]), -G)
