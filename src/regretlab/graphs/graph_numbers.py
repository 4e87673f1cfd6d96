"""Graph numbers of paper 001, §2: independence number α, clique partition number κ, weak domination number d.

All three are NP-hard in general (§2 assumes a clique partition and a weakly dominating set are *given*).
Up to :data:`EXACT_MAX_NODES` nodes they are solved exactly as small 0/1 integer programs with HiGHS
(``scipy.optimize.milp``); above that a deterministic heuristic is used and the result is flagged
``exact=False``. Every heuristic value is an **upper bound** on the true number, which is the safe side for
the paper's uses: its bounds grow with α, κ and d (Theorems 2, 4, 8), and its algorithms run with *any*
clique partition / weakly dominating set, "with κ [or d] replaced by the size of this partition [set]" (§2).

Conventions (§2): ``adjacency[i, j]`` means playing ``i`` reveals ``ℓ_j``; self-loops never matter for α or κ.

* An independent set has no edge in either direction between two distinct members.
* A clique has edges in *both* directions between every two distinct members.
* A weakly dominating set contains an in-neighbour of every weakly observable node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from scipy.sparse import coo_array

#: Largest instance (number of nodes of the problem solved) handled by the exact integer programs.
EXACT_MAX_NODES = 20

_COLORING_STRATEGIES = ("saturation_largest_first", "largest_first", "smallest_last", "independent_set")


@dataclass(frozen=True)
class GraphNumber:
    """A graph number with a witness.

    Attributes:
        value: the number (α, κ or d). Exact when ``exact``; otherwise an upper bound on the true number.
        members: a witness, in 0-based node labels. For κ a tuple of cliques (each a sorted tuple) of size
            ``value``; for d a weakly dominating set of size ``value``; for α an independent set — of size
            ``value`` when exact, otherwise the largest one the heuristic found (it may be smaller than the
            upper bound ``value``, the true α lies between the two).
        exact: whether ``value`` was proven optimal by the exact solver.
    """

    value: int
    members: tuple
    exact: bool


def independence_number(adjacency: np.ndarray, exact_limit: int = EXACT_MAX_NODES) -> GraphNumber:
    """α(G): the size of a largest independent set of G (§2, "Independence sets and cliques").

    Exact (integer program) for ``K <= exact_limit``. Above, ``value`` is the upper bound of
    :func:`_independence_upper_bound` and ``members`` a greedy minimum-degree independent set.
    """
    either = _either_direction(adjacency)
    n = either.shape[0]
    if n <= exact_limit:
        rows = [[i, j] for i, j in zip(*np.nonzero(np.triu(either)), strict=True)]
        chosen = _solve_binary_program(-np.ones(n), _incidence(rows, n), upper=np.ones(len(rows)))
        members = tuple(int(i) for i in np.flatnonzero(chosen))
        return GraphNumber(len(members), members, exact=True)
    return GraphNumber(_independence_upper_bound(either), _greedy_independent_set(either), exact=False)


def clique_partition(
    adjacency: np.ndarray, nodes: np.ndarray, exact_limit: int = EXACT_MAX_NODES
) -> GraphNumber:
    """A smallest clique partition of the subgraph induced by ``nodes`` (κ when ``nodes`` is S, §2).

    Cliques need edges in both directions, so a clique partition of ``G[nodes]`` is a proper colouring of the
    complement of its "mutual edge" graph. Exact (integer program) for ``len(nodes) <= exact_limit``; above,
    the best of several greedy colourings (DSatur, largest-first, smallest-last, independent-set) is returned.
    The cliques are reported in the original node labels, each sorted, ordered by their smallest node.
    """
    nodes = np.asarray(nodes, dtype=int)
    if nodes.size == 0:
        return GraphNumber(0, (), exact=True)
    mutual = _mutual(adjacency)[np.ix_(nodes, nodes)]
    conflicts = ~mutual & ~np.eye(nodes.size, dtype=bool)
    classes = _best_greedy_coloring(conflicts)
    exact = nodes.size <= exact_limit
    if exact:
        classes = _optimal_coloring(conflicts, n_colors=len(classes))
    cliques = sorted(tuple(sorted(int(nodes[v]) for v in cls)) for cls in classes)
    return GraphNumber(len(cliques), tuple(cliques), exact=exact)


def weakly_dominating_set(
    adjacency: np.ndarray, targets: np.ndarray, exact_limit: int = EXACT_MAX_NODES
) -> GraphNumber:
    """A smallest set containing an in-neighbour of every node in ``targets`` (d when ``targets`` are the
    weakly observable nodes, §2 "Weakly dominating sets"; Alon et al., 2015).

    A set cover problem: exact (integer program) for ``K <= exact_limit``; above, the greedy set cover (pick
    the node observing the most still-uncovered targets, lowest label on ties). Raises ``ValueError`` if a
    target has no in-neighbour (it cannot be dominated).
    """
    adj = np.asarray(adjacency, dtype=bool)
    targets = np.asarray(targets, dtype=int)
    n = adj.shape[0]
    if targets.size == 0:
        return GraphNumber(0, (), exact=True)
    unobserved = [int(j) for j in targets if not adj[:, j].any()]
    if unobserved:
        raise ValueError(f"nodes {unobserved} (0-based) have no in-neighbour and cannot be dominated")
    if n <= exact_limit:
        rows = [list(np.flatnonzero(adj[:, j])) for j in targets]
        chosen = _solve_binary_program(np.ones(n), _incidence(rows, n), lower=np.ones(len(rows)))
        members = tuple(int(i) for i in np.flatnonzero(chosen))
        return GraphNumber(len(members), members, exact=True)
    uncovered = np.zeros(n, dtype=bool)
    uncovered[targets] = True
    chosen_nodes = []
    while uncovered.any():
        best = int(np.argmax((adj & uncovered).sum(axis=1)))
        chosen_nodes.append(best)
        uncovered &= ~adj[best]
    members = tuple(sorted(chosen_nodes))
    return GraphNumber(len(members), members, exact=False)


def _either_direction(adjacency: np.ndarray) -> np.ndarray:
    """Symmetric loop-free matrix: ``i ~ j`` iff ``i -> j`` or ``j -> i``."""
    adj = np.asarray(adjacency, dtype=bool)
    return (adj | adj.T) & ~np.eye(adj.shape[0], dtype=bool)


def _mutual(adjacency: np.ndarray) -> np.ndarray:
    """Symmetric loop-free matrix: ``i ~ j`` iff ``i -> j`` and ``j -> i``."""
    adj = np.asarray(adjacency, dtype=bool)
    return adj & adj.T & ~np.eye(adj.shape[0], dtype=bool)


def _incidence(rows: list[list[int]], n_columns: int) -> coo_array:
    """0/1 matrix whose row ``r`` has ones in the columns ``rows[r]``."""
    from scipy.sparse import coo_array  # not at the top: see _solve_binary_program

    row_idx = [r for r, cols in enumerate(rows) for _ in cols]
    col_idx = [c for cols in rows for c in cols]
    return coo_array((np.ones(len(col_idx)), (row_idx, col_idx)), shape=(len(rows), n_columns))


def _solve_binary_program(
    cost: np.ndarray,
    matrix: coo_array,
    lower: np.ndarray | None = None,
    upper: np.ndarray | None = None,
    variable_upper: np.ndarray | None = None,
) -> np.ndarray:
    """Minimise ``cost @ x`` over binary ``x <= variable_upper`` s.t. ``lower <= matrix @ x <= upper``."""
    # SciPy and networkx are imported where they are used: only an instance job computes graph numbers, and
    # every run job (which reads them from the instance file) would pay over a second for these imports.
    from scipy.optimize import Bounds, LinearConstraint, milp

    n_rows = matrix.shape[0]
    constraints = None
    if n_rows:
        lo = np.full(n_rows, -np.inf) if lower is None else lower
        hi = np.full(n_rows, np.inf) if upper is None else upper
        constraints = LinearConstraint(matrix.tocsr(), lo, hi)
    ub = np.ones(cost.size) if variable_upper is None else variable_upper
    result = milp(cost, integrality=np.ones(cost.size), bounds=Bounds(0, ub), constraints=constraints)
    if not result.success:
        raise RuntimeError(f"HiGHS failed on a graph-number integer program: {result.message}")
    return np.round(result.x).astype(bool)


def _optimal_coloring(conflicts: np.ndarray, n_colors: int) -> list[list[int]]:
    """A minimum proper colouring of the symmetric ``conflicts`` graph, knowing ``n_colors`` colours suffice.

    Variables ``x[v, c]`` (node v gets colour c) and ``y[c]`` (colour c is used); node v may only use colours
    ``c <= v`` and ``y`` is non-increasing, which removes most colour-permutation symmetry.
    """
    n = conflicts.shape[0]
    n_x = n * n_colors

    def x(v: int, c: int) -> int:
        return v * n_colors + c

    def y(c: int) -> int:
        return n_x + c

    rows: list[dict[int, float]] = []
    lower: list[float] = []
    upper: list[float] = []
    for v in range(n):  # every node gets exactly one colour
        rows.append({x(v, c): 1.0 for c in range(n_colors)})
        lower.append(1.0)
        upper.append(1.0)
    for c in range(n_colors):
        for v in range(n):  # a colour is used if some node has it
            rows.append({x(v, c): 1.0, y(c): -1.0})
            lower.append(-np.inf)
            upper.append(0.0)
        for u, v in zip(*np.nonzero(np.triu(conflicts)), strict=True):  # conflicting nodes differ
            rows.append({x(int(u), c): 1.0, x(int(v), c): 1.0, y(c): -1.0})
            lower.append(-np.inf)
            upper.append(0.0)
        if c:
            rows.append({y(c): 1.0, y(c - 1): -1.0})
            lower.append(-np.inf)
            upper.append(0.0)
    row_idx = [r for r, row in enumerate(rows) for _ in row]
    col_idx = [col for row in rows for col in row]
    values = [val for row in rows for val in row.values()]
    from scipy.sparse import coo_array  # not at the top: see _solve_binary_program

    matrix = coo_array((values, (row_idx, col_idx)), shape=(len(rows), n_x + n_colors))
    cost = np.concatenate([np.zeros(n_x), np.ones(n_colors)])
    allowed = np.ones(n_x + n_colors)
    for v in range(n):
        allowed[x(v, 0) + v + 1 : x(v, 0) + n_colors] = 0.0
    solution = _solve_binary_program(cost, matrix, np.array(lower), np.array(upper), variable_upper=allowed)
    assignment = solution[:n_x].reshape(n, n_colors)
    classes = [list(np.flatnonzero(assignment[:, c])) for c in range(n_colors)]
    return [cls for cls in classes if cls]


def _best_greedy_coloring(conflicts: np.ndarray) -> list[list[int]]:
    """Colour classes of the greedy colouring with the fewest colours among :data:`_COLORING_STRATEGIES`."""
    import networkx as nx  # not at the top: see _solve_binary_program

    graph = nx.from_numpy_array(conflicts.astype(int))
    best: list[list[int]] | None = None
    for strategy in _COLORING_STRATEGIES:
        colouring = nx.greedy_color(graph, strategy=strategy)
        classes: dict[int, list[int]] = {}
        for node, colour in sorted(colouring.items()):
            classes.setdefault(colour, []).append(int(node))
        if best is None or len(classes) < len(best):
            best = list(classes.values())
    return best


def _independence_upper_bound(either: np.ndarray) -> int:
    """An upper bound on α from greedy clique covers of the undirected graph ``either``.

    An independent set meets every clique of a clique cover at most once, so any clique cover bounds α. A
    sharper bound splits on a member ``v`` of a largest independent set: the other members avoid ``v``'s
    neighbours, so α <= max over v of 1 + (a clique cover of the non-neighbours of v). Both bounds are
    computed (clique covers as greedy colourings of the complement) and the smaller is returned. The split
    makes the bound tight when the complement is triangle-free (non-neighbours of ``v`` then form a clique),
    e.g. α = 2 for :func:`regretlab.graphs.families.mycielski_complement`.
    """
    n = either.shape[0]
    non_adjacent = ~either & ~np.eye(n, dtype=bool)
    whole = len(_best_greedy_coloring(non_adjacent))
    split = 0
    for v in range(n):
        rest = np.flatnonzero(non_adjacent[v])
        cover = len(_best_greedy_coloring(non_adjacent[np.ix_(rest, rest)])) if rest.size else 0
        split = max(split, 1 + cover)
    return min(whole, split)


def _greedy_independent_set(either: np.ndarray) -> tuple[int, ...]:
    """Repeatedly take the remaining node with fewest remaining neighbours and drop its neighbours."""
    remaining = np.ones(either.shape[0], dtype=bool)
    members = []
    while remaining.any():
        degrees = np.where(remaining, (either & remaining).sum(axis=1), np.iinfo(np.int64).max)
        node = int(np.argmin(degrees))
        members.append(node)
        remaining &= ~either[node]
        remaining[node] = False
    return tuple(sorted(members))
