"""Occupancy measures of a layered loop-free CMDP (paper §3.2, eqs. (1)-(4) and Lemma 1).

Indexing used throughout ``regretlab.cmdp``
--------------------------------------------
``layer_sizes = (|X_0|, ..., |X_L|)`` with ``|X_0| = |X_L| = 1``; ``L = len(layer_sizes) - 1`` is the
number of decision steps of an episode (Algorithm 1, lines 5-8). States get one flat index, layer after
layer, so ``x_0 = 0`` and ``x_L = |X| - 1``; :func:`layer_slices` gives each layer's index range. The action
set ``A`` is ``range(|A|)`` in every state.

* transition ``P``: shape ``(|X|, |A|, |X|)``, ``P[x, a, x'] = P(x'|x, a)``; zero unless ``x ∈ X_k`` and
  ``x' ∈ X_{k+1}``; the terminal rows ``P[x_L]`` are zero (no decision is taken in ``X_L``).
* policy ``pi``: shape ``(|X|, |A|)``, ``pi[x, a] = π(a|x)``; the row of ``x_L`` is never used.

Occupancies live on triples, as in the paper: the primary object is ``q[x, a, x'] = q(x, a, x')`` of eq. (1),
a dense ``(|X|, |A|, |X|)`` array that vanishes outside the layered support ``X_k × A × X_{k+1}``. This is the
space in which UC-O-GDPS projects (a loss ``ℓ(x, a)`` acts on it as ``ℓ(x, a, x') = ℓ(x, a)``, as in
UC-O-REPS of Rosenberg & Mansour 2019a). The pair view ``q(x, a)`` of eq. (2) has shape ``(|X|, |A|)`` (row
``x_L`` zero) and is the variable of the offline LP (5); :func:`pairs_from_triples` and
:func:`triples_from_pairs` convert between the two views.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from regretlab.core.kernels import kernel


def check_layer_sizes(layer_sizes: Sequence[int]) -> tuple[int, ...]:
    """Validate ``(|X_0|, ..., |X_L|)``: ``L >= 1``, every layer non-empty, first and last a singleton."""
    sizes = tuple(int(n) for n in layer_sizes)
    if len(sizes) < 2 or sizes[0] != 1 or sizes[-1] != 1 or min(sizes) < 1:
        raise ValueError(
            f"layer_sizes must be (1, |X_1|, ..., |X_(L-1)|, 1) with L >= 1 and non-empty layers, got {sizes}"
        )
    return sizes


def layer_slices(layer_sizes: Sequence[int]) -> list[slice]:
    """The flat index range of every layer ``X_0, ..., X_L``."""
    ends = np.cumsum(layer_sizes)
    return [slice(int(end - n), int(end)) for n, end in zip(layer_sizes, ends, strict=True)]


def layer_of_state(layer_sizes: Sequence[int]) -> np.ndarray:
    """``k(x)`` for every state: an int array of shape ``(|X|,)``."""
    return np.repeat(np.arange(len(layer_sizes)), layer_sizes)


def support_mask(layer_sizes: Sequence[int], n_actions: int) -> np.ndarray:
    """Boolean ``(|X|, |A|, |X|)`` mask of the triples ``X_k × A × X_{k+1}`` that an occupancy may charge."""
    k = layer_of_state(layer_sizes)
    return np.broadcast_to((k[None, :] == k[:, None] + 1)[:, None, :], (k.size, n_actions, k.size)).copy()


def check_transition(layer_sizes: Sequence[int], P: np.ndarray, atol: float = 1e-9) -> None:
    """Raise ``ValueError`` unless ``P`` is a loop-free transition on the layers (§3.1, third bullet)."""
    n_states = sum(layer_sizes)
    if P.ndim != 3 or P.shape[0] != n_states or P.shape[2] != n_states:
        raise ValueError(f"P must have shape (|X|, |A|, |X|) with |X| = {n_states}, got {P.shape}")
    mask = support_mask(layer_sizes, P.shape[1])
    if np.any(P < -atol) or np.any(np.abs(P[~mask]) > atol):
        raise ValueError("P must be non-negative and charge only next-layer states X_(k+1) from X_k")
    row_sums = P[:-1].sum(axis=2)
    if np.any(np.abs(row_sums - 1.0) > atol):
        worst = row_sums.flat[np.abs(row_sums - 1.0).argmax()]
        raise ValueError(f"every P(.|x, a) with x outside X_L must sum to 1, one sums to {worst}")


def pairs_from_triples(q: np.ndarray) -> np.ndarray:
    """Eq. (2): ``q(x, a) = Σ_{x'} q(x, a, x')``; shape ``(|X|, |A|, |X|) -> (|X|, |A|)``."""
    return q.sum(axis=2)


def triples_from_pairs(q_pairs: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Inverse of eq. (2) under ``P``: ``q(x, a, x') = q(x, a) P(x'|x, a)`` (Lemma 1, ``P^q = P``)."""
    return q_pairs[:, :, None] * P


def occupancy_from_policy(layer_sizes: Sequence[int], P: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """``q^{P,π}`` of eq. (1) by forward recursion over the layers, starting from ``q(x_0) = 1``.

    ``q(x, a) = q(x) π(a|x)``, ``q(x, a, x') = q(x, a) P(x'|x, a)`` and ``q(x') = Σ_{x, a} q(x, a, x')``.
    Returns the triple view, shape ``(|X|, |A|, |X|)``.
    """
    slices = layer_slices(layer_sizes)
    q = np.zeros_like(P, dtype=float)
    state = np.zeros(P.shape[0])
    state[0] = 1.0
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        pairs = state[cur, None] * pi[cur]
        q[cur, :, nxt] = pairs[:, :, None] * P[cur, :, nxt]
        state[nxt] = q[cur, :, nxt].sum(axis=(0, 1))
    return q


#: A state whose occupancy q(x) is at most this is treated as unreached when a policy is read off (eq. (4) is
#: undefined at q(x) = 0): the projections return round-off of order 1e-13 there, whose ratios would
#: otherwise pick an arbitrary policy that changes with the order of floating-point operations.
POLICY_ZERO_MASS = 1e-12


@kernel
def induced_policy_into(q: np.ndarray, policy: np.ndarray) -> None:
    """:func:`induced_policy` of the triple view ``q`` written into ``policy`` ``(|X|, |A|)`` in place."""
    n_actions = policy.shape[1]
    for x in range(q.shape[0]):
        total = 0.0
        for a in range(n_actions):
            pair = 0.0
            for y in range(q.shape[2]):
                pair += q[x, a, y]
            pair = max(pair, 0.0)
            policy[x, a] = pair
            total += pair
        for a in range(n_actions):
            policy[x, a] = policy[x, a] / total if total > POLICY_ZERO_MASS else 1.0 / n_actions


def induced_policy(q: np.ndarray) -> np.ndarray:
    """``π^q(a|x) = q(x, a) / q(x)`` of eq. (4), from the triple view ``q``; shape ``(|X|, |A|)``.

    Eq. (4) leaves ``π^q(·|x)`` undefined where ``q(x) = 0``; there (and in ``x_L``) the policy is uniform,
    and so it is where ``q(x) ≤`` :data:`POLICY_ZERO_MASS` (round-off). Negative round-off (a projection
    returns entries like ``-1e-13``) is clipped to zero first.
    """
    policy = np.empty(q.shape[:2])
    induced_policy_into(np.ascontiguousarray(q, dtype=float), policy)
    return policy


def induced_transition(layer_sizes: Sequence[int], q: np.ndarray) -> np.ndarray:
    """``P^q(x'|x, a) = q(x, a, x') / q(x, a)`` of eq. (4); shape ``(|X|, |A|, |X|)``.

    Where ``q(x, a) = 0`` eq. (4) is undefined and ``P^q(·|x, a)`` is taken uniform over ``X_{k(x)+1}``;
    terminal rows stay zero. Negative round-off is clipped to zero first.
    """
    mask = support_mask(layer_sizes, q.shape[1])
    q = np.where(mask, np.maximum(q, 0.0), 0.0)
    q_pairs = pairs_from_triples(q)[:, :, None]
    uniform = mask / np.maximum(mask.sum(axis=2, keepdims=True), 1)
    return np.divide(q, q_pairs, out=uniform, where=q_pairs > 0)


def occupancy_violation(layer_sizes: Sequence[int], q: np.ndarray, P: np.ndarray | None = None) -> float:
    """Largest violation of Lemma 1 by the triple view ``q`` (0 for a valid occupancy measure).

    Checks non-negativity, zero mass outside ``X_k × A × X_{k+1}``, every layer summing to 1, flow
    conservation ``Σ_{a, x'} q(x, a, x') = Σ_{x'', a} q(x'', a, x)`` for ``x ∈ X_1, ..., X_{L-1}`` and, when
    ``P`` is given, the third condition ``P^q = P`` in its multiplied-out form
    ``|q(x, a, x') - P(x'|x, a) q(x, a)|``.
    """
    slices = layer_slices(layer_sizes)
    mask = support_mask(layer_sizes, q.shape[1])
    violations = [max(0.0, -float(q.min())), float(np.abs(q[~mask]).max(initial=0.0))]
    violations += [abs(float(q[s].sum()) - 1.0) for s in slices[:-1]]
    interior = slice(slices[1].start, slices[-1].start)
    outflow = q[interior].sum(axis=(1, 2))
    inflow = q[:, :, interior].sum(axis=(0, 1))
    violations.append(float(np.abs(outflow - inflow).max(initial=0.0)))
    if P is not None:
        violations.append(float(np.abs(q - triples_from_pairs(pairs_from_triples(q), P)).max()))
    return max(violations)


def is_valid_occupancy(
    layer_sizes: Sequence[int], q: np.ndarray, P: np.ndarray | None = None, tol: float = 1e-9
) -> tuple[bool, float]:
    """Lemma 1 as a test: ``(violation <= tol, violation)`` with :func:`occupancy_violation`."""
    violation = occupancy_violation(layer_sizes, q, P)
    return violation <= tol, violation


def _draw(rng: np.random.Generator, weights: np.ndarray) -> int:
    """One index drawn with probability proportional to ``weights`` (inverse CDF, one uniform)."""
    cdf = np.cumsum(weights)
    return int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"))


def sample_trajectory(
    rng: np.random.Generator, layer_sizes: Sequence[int], P: np.ndarray, pi: np.ndarray
) -> np.ndarray:
    """One episode of Algorithm 1 (lines 4-8): ``a_k ~ π(·|x_k)``, ``x_{k+1} ~ P(·|x_k, a_k)``.

    Returns an int array of shape ``(L, 3)`` whose row ``k`` is the visited triple ``(x_k, a_k, x_{k+1})``.
    """
    n_steps = len(layer_sizes) - 1
    trajectory = np.empty((n_steps, 3), dtype=np.int64)
    x = 0
    for k in range(n_steps):
        a = _draw(rng, pi[x])
        x_next = _draw(rng, P[x, a])
        trajectory[k] = (x, a, x_next)
        x = x_next
    return trajectory
