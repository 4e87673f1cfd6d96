"""Projection onto Δ(P_i) (Algorithm 3 line 8) against a straightforward cvxpy + Clarabel formulation.

Every projection is checked three independent ways: distance to a cvxpy + Clarabel solve of the same QP
(tight tolerances), a KKT certificate built from the projector's flow multipliers and checked here with
small HiGHS LPs, and the variational-inequality gap of the whole problem (one HiGHS LP).
"""

import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from scipy.optimize import linprog

from regretlab.cmdp import pair_projection, projection
from regretlab.cmdp.occupancy import (
    layer_of_state,
    layer_slices,
    occupancy_from_policy,
    occupancy_violation,
    support_mask,
)
from regretlab.cmdp.projection import ConfidenceSetProjector

TIGHT = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}


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
    """Δ(P_i) written from Lemma 1 and eq. (10) with cp.norm1 over the support triples, solved by Clarabel.

    (With one variable per entry of the dense ``(|X||A|, |X|)`` array, the entries outside the support being
    both ``>= 0`` and ``== 0``, Clarabel stalls at "optimal_inaccurate" with errors of ~1e-4 on some
    instances.) If Clarabel at tight tolerances does not report "optimal", the same cvxpy problem is solved by
    OSQP at tolerance 1e-11 with polishing, and as a last resort by Clarabel at tolerance 1e-10.
    """
    x, a, x_next = np.nonzero(support_mask(layer_sizes, n_actions))
    layer = layer_of_state(layer_sizes)
    q = cp.Variable(x.size, nonneg=True)
    constraints = [cp.sum(q[layer[x] == k]) == 1 for k in range(len(layer_sizes) - 1)]
    constraints += [cp.sum(q[x == s]) == cp.sum(q[x_next == s]) for s in range(1, sum(layer_sizes) - 1)]
    for state, action in sorted(set(zip(x.tolist(), a.tolist(), strict=True))):
        pair = np.flatnonzero((x == state) & (a == action))
        pair_mass = cp.sum(q[pair])
        deviation = q[pair] - P_bar[state, action, x_next[pair]] * pair_mass
        constraints.append(cp.norm1(deviation) <= epsilon[state, action] * pair_mass)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(q - y[x, a, x_next])), constraints)
    attempts = [
        (cp.CLARABEL, TIGHT),
        (cp.OSQP, {"eps_abs": 1e-11, "eps_rel": 1e-11, "max_iter": 200_000, "polish": True}),
        (cp.CLARABEL, {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}),
    ]
    for solver, options in attempts:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Solution may be inaccurate")
            problem.solve(solver=solver, **options)
        if problem.status == cp.OPTIMAL:
            result = np.zeros(y.shape)
            result[x, a, x_next] = q.value
            return result
    raise AssertionError(f"the reference solve failed: {problem.status}")


def set_violation(layer_sizes, P_bar, epsilon, q):
    """Largest violation of Lemma 1 (first two conditions) and of Σ_x' |q - P̄ q(x,a)| <= ε q(x,a)."""
    pair_mass = q.sum(axis=2)
    budget = np.abs(q - P_bar * pair_mass[:, :, None]).sum(axis=2) - epsilon * pair_mass
    return max(occupancy_violation(layer_sizes, q), float(budget[:-1].max()))


def cone_support(w, p_bar, eps):
    """``max w^T v`` over ``v >= 0``, ``Σ v = 1``, ``||v - p̄ Σ v||_1 <= ε Σ v`` by an LP (``-inf``: empty)."""
    d = w.size
    deviation = np.eye(d) - p_bar[:, None] * np.ones((1, d))
    A_ub = np.block(
        [[deviation, -np.eye(d)], [-deviation, -np.eye(d)], [-eps * np.ones((1, d)), np.ones((1, d))]]
    )
    result = linprog(
        -np.concatenate([w, np.zeros(d)]),
        A_ub=A_ub,
        b_ub=np.zeros(2 * d + 1),
        A_eq=np.concatenate([np.ones(d), np.zeros(d)])[None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * d + [(None, None)] * d,
        method="highs",
    )
    return -np.inf if result.status == 2 else -result.fun


def kkt_residual(layer_sizes, n_actions, P_bar, epsilon, y, q, nu):
    """Largest violation of the KKT conditions of the projection of ``y`` at ``q``, flow multipliers ``nu``.

    ``Δ(P_i) = K ∩ {F q = b}`` with ``K`` the product over pairs of the cones ``K_{x,a}`` (q >= 0 and the
    budget), so ``q = Π(y)`` iff ``q ∈ Δ(P_i)`` and ``w - q`` lies in the normal cone of ``K`` at ``q``, with
    ``w = y - F^T ν``: per pair, ``(w - q)^T q = 0`` and ``(w - q)^T v <= 0`` for every ``v ∈ K_{x,a}``.
    The flow rows are ``x_0`` then the interior states in index order, ``(F q)_x`` = outflow - inflow.
    """
    mask = support_mask(layer_sizes, n_actions)
    layer = layer_of_state(layer_sizes)
    interior = np.flatnonzero((layer > 0) & (layer < layer.max()))
    potential = np.zeros(layer.size)
    potential[np.concatenate([[0], interior])] = nu
    w = y - (potential[:, None, None] - potential[None, None, :]) * mask
    worst = set_violation(layer_sizes, P_bar, epsilon, q)
    for x, a in zip(*np.nonzero(mask.any(axis=2)), strict=True):
        support = mask[x, a]
        gap = (w - q)[x, a, support]
        worst = max(
            worst, abs(gap @ q[x, a, support]), cone_support(gap, P_bar[x, a, support], epsilon[x, a])
        )
    return worst


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
        A_ub=A_ub,
        b_ub=np.zeros(A_ub.shape[0]),
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=[(0, None)] * n + [(None, None)] * n,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    assert result.status == 0, result.message
    return -result.fun - direction @ q_hat[x, a, x_next]


def check_projection(projector, setup, target, result):
    """Distance to cvxpy + Clarabel, feasibility, KKT certificate and optimality gap of one projection."""
    layer_sizes, n_actions, P_bar, epsilon = setup
    expected = reference_projection(layer_sizes, n_actions, P_bar, epsilon, target)
    assert np.abs(result - expected).max() <= 1e-6
    assert set_violation(layer_sizes, P_bar, epsilon, result) <= 1e-7
    assert projector.violation(result) <= 1e-7
    if projector.last_path != "clarabel":  # the certified paths: KKT with the returned multipliers
        nu = projector.flow_multipliers
        assert kkt_residual(layer_sizes, n_actions, P_bar, epsilon, target, result, nu) <= 1e-9
    # Independent of Clarabel's accuracy: ||result - Π(target)|| <= sqrt(1e-12) = 1e-6 for |target| <= 1 (the
    # tolerances are relative to the size of the point, and so is the LP's own accuracy).
    scale = max(1.0, float(np.abs(target).max()))
    assert optimality_gap(layer_sizes, n_actions, P_bar, epsilon, target, result) <= 1e-12 * scale**2


cases = st.tuples(
    st.integers(0, 2**32 - 1),
    st.integers(1, 4),
    st.integers(1, 3),
    st.integers(1, 3),
    st.sampled_from([0.01, 0.1, 0.5]),
)


@settings(max_examples=40, deadline=None)
@given(cases, st.sampled_from([1e-4, 1e-2]))
def test_projection_matches_cvxpy_for_small_gradient_steps_and_large_moves(params, step):
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(*params)
    setup = (layer_sizes, n_actions, P_bar, epsilon)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    mask = support_mask(layer_sizes, n_actions)
    q = projector.project(y)  # cold: the first call of the epoch
    check_projection(projector, setup, y, q)
    # Warm: gradient steps y' = q - η ℓ with ℓ(x, a, x') = ℓ(x, a) (no check in between: they chain).
    for _ in range(20):
        loss = rng.uniform(-1, 1, size=mask.shape[:2])[:, :, None] * mask
        target = q - step * loss
        q = projector.project(target)
    check_projection(projector, setup, target, q)
    assert projector.stats["clarabel"] == projector.fallbacks == 0
    # A large move from the current point, then back to a small step.
    target = q + 0.5 * rng.normal(size=y.shape) * mask
    check_projection(projector, setup, target, projector.project(target))
    target = q - step * rng.uniform(-1, 1, size=y.shape) * mask
    check_projection(projector, setup, target, projector.project(target))


def test_points_of_the_set_are_fixed_points_and_projection_is_idempotent():
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
    np.testing.assert_allclose(projector.project(inside), inside, atol=1e-12)
    once = projector.project(y)
    np.testing.assert_allclose(projector.project(once), once, atol=1e-12)
    np.testing.assert_allclose(
        ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon).project(once), once, atol=1e-12
    )  # cold as well
    np.testing.assert_allclose(projector.project(y), once, atol=1e-12)


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
    setup = (layer_sizes, n_actions, P_bar, epsilon)
    monkeypatch.setattr(projection, "MAX_NEWTON_STEPS", 0)  # Newton never converges: Clarabel every time
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    first, second = projector.project(y), projector.project(0.9 * y)
    assert projector.fallbacks == projector.stats["clarabel"] == 2
    assert projector.last_path == "clarabel"
    check_projection(projector, setup, y, first)
    check_projection(projector, setup, 0.9 * y, second)
    # Clarabel's flow multipliers are those of the certified path: the next call is warm and certified.
    monkeypatch.setattr(projection, "MAX_NEWTON_STEPS", 60)
    third = projector.project(0.9 * y)
    assert projector.last_path == "warm" and projector.fallbacks == 2
    np.testing.assert_allclose(third, second, atol=1e-9)


def test_osqp_start_is_used_when_newton_fails_from_the_usual_starts(monkeypatch):
    layer_sizes, n_actions, P_bar, epsilon, y, _ = random_confidence_set(8, 3, 3, 3, 0.2)
    setup = (layer_sizes, n_actions, P_bar, epsilon)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    monkeypatch.setattr(projection, "project_newton", lambda *args: False)  # warm and cold Newton fail
    q = projector.project(y)
    assert projector.last_path == "osqp" and projector.stats["osqp"] == 1 and projector.fallbacks == 0
    check_projection(projector, setup, y, q)


def test_gradient_steps_stay_on_the_warm_path():
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(7, 4, 3, 3, 0.0)
    mask = support_mask(layer_sizes, n_actions)
    projector = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    loss = rng.random(y.shape[:2])[:, :, None] * mask
    q = projector.project(y)
    for _ in range(300):
        q = projector.project(q - 0.01 * (loss + rng.uniform(-0.5, 0.5, size=loss.shape) * mask))
        assert set_violation(layer_sizes, P_bar, epsilon, q) <= 1e-12
    assert projector.fallbacks == 0
    assert projector.stats["warm"] == 300 and projector.stats["newton_steps"] <= 6 * 301


@pytest.mark.parametrize("d", [1, 2, 3, 5, 7])
def test_pair_projection_matches_cvxpy_and_certifies_its_multipliers(d):
    """The active-set projection onto one pair's cone, including P̄ = 0 and sets that are only {0}."""
    rng = np.random.default_rng(d)
    N, u = np.empty((d, d)), np.empty(d + 1)
    work, x = np.empty((2 * d + 4, d)), np.empty(d)
    for trial in range(25):
        p_bar = [rng.dirichlet(np.ones(d)), np.zeros(d), rng.dirichlet(np.ones(d)) * 0.7][trial % 3]
        eps = rng.choice([0.05, 0.3, 1.0, 3.0]) if trial % 3 != 1 else rng.choice([0.5, 1.5])
        z = rng.normal(size=d) * rng.choice([0.01, 1.0, 10.0])
        k = pair_projection._pair_active_set(z, p_bar, eps, x, N, u, work, 1e-14 * max(1.0, np.abs(z).max()))
        assert k >= 0
        v, w = cp.Variable(d, nonneg=True), cp.Variable(d)
        deviation = v - p_bar * cp.sum(v)
        constraints = [w >= deviation, w >= -deviation, cp.sum(w) <= eps * cp.sum(v)]
        problem = cp.Problem(cp.Minimize(cp.sum_squares(v - z)), constraints)
        try:  # Clarabel fails on some degenerate cones (P̄ = 0 with ε >= 1: the budget always holds)
            problem.solve(solver=cp.CLARABEL, **TIGHT)
        except cp.SolverError:
            assert p_bar.sum() == 0 and eps >= 1
        else:
            assert problem.status == cp.OPTIMAL
            assert np.abs(x - v.value).max() <= 1e-6
        # KKT of the cone projection, checked by an LP: z - x in the polar cone, orthogonal to x.
        assert cone_support(z - x, p_bar, eps) <= 1e-12 * max(1.0, np.abs(z).max())
        assert abs((z - x) @ x) <= 1e-12 * max(1.0, np.abs(z).max()) ** 2
        # The multipliers: x = z + N u with u >= 0, every active constraint tight, x feasible.
        normals = N[:, :k]
        assert np.all(u[:k] >= -1e-12)
        np.testing.assert_allclose(x, z + normals @ u[:k], atol=1e-12 * max(1.0, np.abs(z).max()))
        np.testing.assert_allclose(normals.T @ x, 0.0, atol=1e-12 * max(1.0, np.abs(z).max()))
        scale = max(1.0, np.abs(z).max())
        assert x.min() >= -1e-12 and pair_projection.budget_excess(x, p_bar, eps) <= 1e-12 * scale


@pytest.mark.parametrize("d", [1, 3, 5, 20])
def test_zero_piece_check_matches_the_cone_support_lp(d):
    """``Π_K(z) = 0`` iff ``max z^T v <= 0`` over the normalised cone: the greedy against an LP."""
    rng = np.random.default_rng(10 + d)
    for trial in range(60):
        p_bar = [rng.dirichlet(np.ones(d)), np.zeros(d), rng.dirichlet(np.ones(d) * 0.3)][trial % 3]
        if trial % 6 == 5:
            p_bar = np.eye(d)[0]
        eps = rng.choice([0.05, 0.3, 0.9, 1.0, 2.5])
        z = rng.normal(size=d) - rng.choice([0.0, 0.5, 2.0])
        expected = cone_support(z, p_bar, eps) <= 1e-12
        assert pair_projection.zero_is_projection(z, p_bar, eps, 1e-12) == expected
    # P̄ summing to neither 0 nor 1: undecided (the active-set method decides).
    assert not pair_projection.zero_is_projection(np.ones(d), np.full(d, 0.5 / d), 0.3, 1e-12)


@njit
def numba_argsort(z):
    """numba's own ``np.argsort`` (what the zero-piece check followed before it stopped allocating)."""
    return np.argsort(z)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([-1.0, -0.0, 0.0, 0.5, 2.0, np.nan, -np.inf, np.inf]) | st.floats(-3, 3),
        min_size=1,
        max_size=pair_projection._SMALL_SORT,
    )
)
def test_selection_order_is_numbas_argsort_order(values):
    """The zero-piece check visits the triples in exactly ``np.argsort``'s order (ties, signed zeros, NaNs),
    so its sum of ``taken · z_j`` is the same floating-point sum as before."""
    z = np.array(values)
    order, j = [], -1
    for _ in range(z.size):
        j = pair_projection._next_in_order(z, j)
        order.append(j)
    assert order == numba_argsort(z).tolist()


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


def test_a_projector_pointed_at_a_new_set_projects_as_a_fresh_one():
    layer_sizes, n_actions, P_bar, epsilon, y, rng = random_confidence_set(9, 4, 3, 2, 0.2)
    # Another confidence set on the same layers: the centre and radii of a perturbed draw.
    other_P = np.where(P_bar > 0, P_bar + rng.uniform(0, 0.2, size=P_bar.shape), 0.0)
    other_P /= np.maximum(other_P.sum(axis=2, keepdims=True), 1e-300)
    reused = ConfidenceSetProjector(layer_sizes, n_actions, other_P, 0.5 * epsilon)
    reused.project(y)
    reused.project(0.9 * y)
    before = reused.stats
    reused.set_confidence_set(P_bar, epsilon)
    fresh = ConfidenceSetProjector(layer_sizes, n_actions, P_bar, epsilon)
    for point in (y, 0.9 * y, 1.1 * y):
        q = reused.project(point)
        np.testing.assert_array_equal(q, fresh.project(point))
        assert reused.violation(q) == fresh.violation(q) <= 1e-12  # the sparse forms follow the new set
    assert {path: count - before[path] for path, count in reused.stats.items()} == fresh.stats
