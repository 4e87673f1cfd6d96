"""Projection onto Δ(P_i) (Algorithm 3 line 8) against a straightforward cvxpy + Clarabel formulation."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from regretlab.cmdp import projection
from regretlab.cmdp.occupancy import (
    layer_of_state,
    layer_slices,
    occupancy_from_policy,
    occupancy_violation,
    support_mask,
)
from regretlab.cmdp.projection import ConfidenceSetProjector


def random_confidence_set(seed, n_layers, width, n_actions, noise):
    """True P, an empirical P̄ from random visit counts, radii ~ 1/sqrt(N) and a noisy target point ``y``."""
    rng = np.random.default_rng(seed)
    layer_sizes = (1, *rng.integers(1, width + 1, size=n_layers - 1), 1)
    slices = layer_slices(layer_sizes)
    n_states = sum(layer_sizes)
    P = np.zeros((n_states, n_actions, n_states))
    P_bar = np.zeros_like(P)
    N = rng.integers(0, 30, size=(n_states, n_actions))
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        P[cur, :, nxt] = rng.dirichlet(np.ones(nxt.stop - nxt.start), size=(cur.stop - cur.start, n_actions))
        for x in range(cur.start, cur.stop):
            for a in range(n_actions):
                P_bar[x, a, nxt] = rng.multinomial(N[x, a], P[x, a, nxt]) / max(1, N[x, a])
    epsilon = rng.uniform(0.3, 2.5, size=N.shape) / np.sqrt(np.maximum(1, N))
    epsilon[N == 0] = np.maximum(epsilon[N == 0], 1.0)  # P̄ = 0 there: eq. (10) gives eps >= 1
    pi = rng.dirichlet(np.ones(n_actions), size=n_states)
    mask = support_mask(layer_sizes, n_actions)
    y = occupancy_from_policy(layer_sizes, P, pi) + noise * rng.normal(size=P.shape) * mask
    return layer_sizes, n_actions, P_bar, epsilon, y, rng


def reference_projection(layer_sizes, n_actions, P_bar, epsilon, y):
    """Δ(P_i) written from Lemma 1 and eq. (10) with cp.norm1, one row of ``q`` per pair (x, a)."""
    n_states = sum(layer_sizes)
    slices = layer_slices(layer_sizes)
    mask = support_mask(layer_sizes, n_actions).reshape(n_states * n_actions, n_states)
    q = cp.Variable(mask.shape, nonneg=True)
    constraints = [cp.multiply(~mask, q) == 0]
    for k, layer in enumerate(slices[:-1]):
        rows = slice(layer.start * n_actions, layer.stop * n_actions)
        constraints.append(cp.sum(q[rows]) == 1)
        if k > 0:
            for x in range(layer.start, layer.stop):
                constraints.append(cp.sum(q[x * n_actions : (x + 1) * n_actions]) == cp.sum(q[:, x]))
        for x in range(layer.start, layer.stop):
            for a in range(n_actions):
                row, pair_mass = q[x * n_actions + a], cp.sum(q[x * n_actions + a])
                deviation = row - P_bar[x, a] * pair_mass
                constraints.append(cp.norm1(deviation) <= epsilon[x, a] * pair_mass)
    target = y.reshape(mask.shape)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(cp.multiply(mask, q - target))), constraints)
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    assert problem.status == cp.OPTIMAL, problem.status
    return q.value.reshape(y.shape)


def set_violation(layer_sizes, P_bar, epsilon, q):
    """Largest violation of Lemma 1 (first two conditions) and of Σ_x' |q - P̄ q(x,a)| <= ε q(x,a)."""
    pair_mass = q.sum(axis=2)
    budget = np.abs(q - P_bar * pair_mass[:, :, None]).sum(axis=2) - epsilon * pair_mass
    return max(occupancy_violation(layer_sizes, q), float(budget[:-1].max()))


def optimality_gap(layer_sizes, n_actions, P_bar, epsilon, y, q_hat):
    """``g = max_{q ∈ Δ(P_i)} <y - q̂, q - q̂>`` by an LP (HiGHS simplex) in ``(q, u)``.

    For a feasible ``q̂`` the variational inequality of the projection ``q* = Π(y)`` gives
    ``||q̂ - q*||² <= <y - q̂, q* - q̂> <= g``: a certificate that does not rely on an interior-point solver.
    """
    mask = support_mask(layer_sizes, n_actions)
    x, a, x_next = np.nonzero(mask)
    n = x.size
    layer = layer_of_state(layer_sizes)
    same_pair = (x * n_actions + a)[:, None] == (x * n_actions + a)[None, :]
    deviation = np.eye(n) - P_bar[x, a, x_next][:, None] * same_pair
    pairs = np.unique(x * n_actions + a)
    pair_rows = (x * n_actions + a)[None, :] == pairs[:, None]
    pair_eps = epsilon.ravel()[pairs][:, None]
    interior = list(range(1, sum(layer_sizes) - 1))
    equalities = [layer[x] == k for k in range(len(layer_sizes) - 1)]
    equalities += [(x == s).astype(float) - (x_next == s) for s in interior]
    A_eq = np.hstack([np.array(equalities, dtype=float), np.zeros((len(equalities), n))])
    b_eq = [1.0] * (len(layer_sizes) - 1) + [0.0] * len(interior)
    A_ub = np.block([[deviation, -np.eye(n)], [-deviation, -np.eye(n)], [-pair_eps * pair_rows, pair_rows]])
    direction = (y - q_hat)[x, a, x_next]
    result = linprog(
        -np.concatenate([direction, np.zeros(n)]),
        A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]), A_eq=A_eq, b_eq=b_eq,
        bounds=[(0, None)] * n + [(None, None)] * n, method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    assert result.status == 0, result.message
    return -result.fun - direction @ q_hat[x, a, x_next]


cases = st.tuples(
    st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3),
    st.sampled_from([0.01, 0.1, 0.5]),
)


@settings(max_examples=15, deadline=None)
@given(cases)
def test_projection_matches_cvxpy_and_is_feasible_also_when_warm_started(params):
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(*params)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    mask = support_mask(layer_sizes, n_actions)
    q = projector.project(y)
    for target in (y, q - 0.01 * rng.normal(size=y.shape) * mask):  # second call: warm start, a small step
        result = projector.project(target)
        expected = reference_projection(layer_sizes, n_actions, P_bar, epsilon, target)
        assert np.abs(result - expected).max() <= 1e-6
        assert set_violation(layer_sizes, P_bar, epsilon, result) <= 1e-7
        assert projector.violation(result) <= 1e-7
        # Independent of Clarabel's accuracy: ||result - Π(target)|| <= sqrt(1e-13) ≈ 3e-7.
        assert optimality_gap(layer_sizes, n_actions, P_bar, epsilon, target, result) <= 1e-13


def test_points_of_the_set_are_fixed_points():
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(3, 3, 3, 2, 0.1)
    # q^{P̂, π} with P̂ = P̄ on visited pairs (any distribution elsewhere, where P̄ = 0 and eps >= 1).
    P_hat = P_bar.copy()
    slices = layer_slices(layer_sizes)
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        unvisited = P_hat[cur, :, nxt].sum(axis=2) == 0
        P_hat[cur, :, nxt][unvisited] = 1.0 / (nxt.stop - nxt.start)
    inside = occupancy_from_policy(layer_sizes, P_hat, rng.dirichlet(np.ones(n_actions), size=P_bar.shape[0]))
    assert set_violation(layer_sizes, P_bar, epsilon, inside) <= 1e-12
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    np.testing.assert_allclose(projector.project(inside), inside, atol=1e-8)
    once = projector.project(y)
    np.testing.assert_allclose(projector.project(once), once, atol=1e-8)


def test_loose_confidence_gives_the_projection_on_the_flow_polytope():
    layer_sizes, n_actions, P_bar, _, y, _ = random_confidence_set(4, 4, 3, 3, 0.3)
    loose = np.full(P_bar.shape[:2], 10.0)  # any transition is within L1 distance 2 of P̄
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, loose)
    q = projector.project(y)
    assert occupancy_violation(layer_sizes, q) <= 1e-9
    expected = reference_projection(layer_sizes, n_actions, P_bar, loose, y)
    assert np.abs(q - expected).max() <= 1e-6


def test_entries_outside_the_layered_support_are_ignored():
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(5, 3, 2, 2, 0.1)
    mask = support_mask(layer_sizes, n_actions)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    q = projector.project(y)
    np.testing.assert_allclose(projector.project(y + rng.normal(size=y.shape) * ~mask), q, atol=1e-9)
    assert np.all(q[~mask] == 0)


def test_fallback_is_counted_and_agrees(monkeypatch):
    layer_sizes, n_actions, P_bar, epsilon, y, _ = random_confidence_set(6, 3, 3, 2, 0.2)
    monkeypatch.setattr(projection, "ACTIVE_TOLS", ())  # no polished point is ever accepted
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    first, second = projector.project(y), projector.project(0.9 * y)
    assert projector.fallbacks == 2
    for target, result in ((y, first), (0.9 * y, second)):
        expected = reference_projection(layer_sizes, n_actions, P_bar, epsilon, target)
        assert np.abs(result - expected).max() <= 1e-6
        assert set_violation(layer_sizes, P_bar, epsilon, result) <= 1e-7


def test_gradient_steps_rarely_need_the_fallback():
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(7, 4, 3, 3, 0.0)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    loss = rng.random(y.shape[:2])[:, :, None] * support_mask(layer_sizes, n_actions)
    q = projector.project(y)
    for _ in range(100):
        q = projector.project(q - 0.01 * loss)
        assert set_violation(layer_sizes, P_bar, epsilon, q) <= 1e-7
    assert projector.fallbacks <= 5


@pytest.mark.parametrize("layer_sizes", [(1, 1), (1, 2, 1)])
def test_tiny_layouts(layer_sizes):
    n_actions = 2
    n_states = sum(layer_sizes)
    mask = support_mask(layer_sizes, n_actions)
    P_bar = mask / np.maximum(1, mask.sum(axis=2, keepdims=True))  # uniform P̄ over the next layer
    epsilon = np.full((n_states, n_actions), 0.1)
    y = np.random.default_rng(0).random(P_bar.shape)
    q = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon).project(y)
    expected = reference_projection(layer_sizes, n_actions, P_bar, epsilon, y)
    assert np.abs(q - expected).max() <= 1e-6
