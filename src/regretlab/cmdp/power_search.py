"""The smallest horizon at which a paper-000 bound has power against uniform play on *some* admissible CMDP,
found by search over small CMDPs (issue 34 item 2), to set beside the analytic floor of
:mod:`regretlab.cmdp.floors` (docs/findings.md, finding 2).

``T_power`` of one CMDP and one bound is the smallest horizon at which the theorem's hypotheses hold and the
bound is below uniform play's expected value of its metric (:mod:`regretlab.cmdp.nulls`): ``T·u`` with
``u = OPT − r̄ᵀq_u`` for the regret and ``u = max_i [Ḡᵀq_u]_i`` for the violation (:func:`uniform_rate`).
The bounds read the CMDP only through its sizes, ``ρ`` and ``OPT`` (App. A–C); uniform play's value reads
its tables too. So the search is over:

* the sizes (:data:`SPACE`): ``L`` layers, the states of each layer past the first, ``|A|`` and ``m``;
* the tables, by the actions' roles: in every non-terminal state action ``a₀`` (*safe*), ``a₁`` (*good*)
  and ``a₂ … a_{|A|−1}`` (*other*) each have one mean reward in ``[0, 1]`` and one mean constraint in
  ``[−1, 1]`` (every constraint ``i`` alike); transitions are uniform over the next layer's states.

Choices (the reasons are in docs/findings.md, finding 2): the rewards and constraints are fixed sequences.
A fixed reward sequence is an admissible adversarial one, whose bounds have no ``E^r_δ`` (the floors' choice);
for Theorem 7 an adversary's sequence changes uniform play's value only through its average (the value is
linear in it), while ``ρ`` of the adversarial setting (§3.5, line 165: a minimum over the episodes) is at
most the average's, and every bound falls with ``ρ``: a constant sequence is the adversary that helps power
most. ``δ`` is the floors' (:data:`~regretlab.cmdp.floors.DELTA`).

The optimiser is :func:`scipy.optimize.differential_evolution` (seeded, integer sizes, no polishing)
minimising ``log10 T_power``; it reads each CMDP it proposes in closed form (:func:`_seen`, equal to the
config's builder's linear programs, a test), and the instance found is rebuilt by the builder
(:func:`~regretlab.cmdp.instance.make_explicit_cmdp`): a config entry (``family: explicit``) anyone can run.
Uniform play's value is no more than the trivial bound ``L·T``, so no search can beat the floor:
``tests/cmdp/test_power_search.py`` checks that, and the hand-made instance of issue 34 (Theorem 5's regret,
``T ≈ 1.25·10⁸``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np
from scipy.optimize import differential_evolution

from regretlab.cmdp.bound_registry import BOUNDS
from regretlab.cmdp.floors import DELTA, FLOOR_BOUNDS, floor, smallest_cmdp
from regretlab.cmdp.instance import CMDP, condition2_holds, make_explicit_cmdp
from regretlab.cmdp.nulls import uniform_occupancy

#: The search space: integer sizes, then the roles' mean reward and constraint (module docstring).
SPACE = (
    ("L", 1, 32, True),
    ("states", 1, 3, True),
    ("actions", 2, 8, True),
    ("m", 1, 2, True),
    ("safe_reward", 0.0, 1.0, False),
    ("safe_constraint", -1.0, 1.0, False),
    ("good_reward", 0.0, 1.0, False),
    ("good_constraint", -1.0, 1.0, False),
    ("other_reward", 0.0, 1.0, False),
    ("other_constraint", -1.0, 1.0, False),
)
#: The differential evolution's seed, population size (per dimension) and generations.
SEED = 20_261_204
POPULATION = 6
GENERATIONS = 20
#: The horizons searched: 4 points per decade from 10 to 10^24, then a bisection.
T_MAX = 10**24
#: The objective's floor for a CMDP on which the bound never has power up to T_MAX (:func:`_objective`).
NEVER = math.log10(T_MAX) + 1.0


def _point(vector: np.ndarray) -> dict[str, float]:
    """The optimiser's vector as :data:`SPACE`'s named coordinates."""
    return {dim[0]: value for dim, value in zip(SPACE, vector, strict=True)}


def _tables(x: dict) -> tuple[list[int], list[float], list[float], int]:
    """A point of :data:`SPACE` as its CMDP's layer sizes ``(1, |X_1|, …, 1)``, the reward and constraint rows
    every non-terminal state has (to 6 decimals, as the config entry writes them) and ``m``."""
    L, states, actions, m = (int(round(x[name])) for name in ("L", "states", "actions", "m"))
    states = states if L > 1 else 1  # L = 1 has no layer past the first
    row = [x["safe_reward"], x["good_reward"]] + [x["other_reward"]] * (actions - 2)
    cost = [x["safe_constraint"], x["good_constraint"]] + [x["other_constraint"]] * (actions - 2)
    return [1] + [states] * (L - 1) + [1], [round(v, 6) for v in row], [round(v, 6) for v in cost], m


def mdp_block(x: dict) -> dict:
    """The ``mdp`` block of a config entry (``family: explicit``) for a point of :data:`SPACE`."""
    sizes, row, cost, m = _tables(x)
    decision = sum(sizes[:-1])
    block = {"reward": [row] * decision, "constraint": [[cost] * decision] * m, "layer_sizes": sizes}
    if max(sizes) > 1:  # uniform over the next layer's states
        block["transitions"] = [
            [[1.0 / nxt] * nxt] * len(row) for here, nxt in pairwise(sizes) for _ in range(here)
        ]
    return block


def uniform_rate(cmdp: CMDP, metric: str) -> float:
    """Uniform play's expected value of ``metric`` per episode on a CMDP with fixed sequences
    (:func:`regretlab.cmdp.nulls.uniform_value` at ``t = 1``): ``OPT − r̄ᵀq_u`` or ``max_i [Ḡᵀq_u]_i``."""
    q = uniform_occupancy(cmdp)
    if metric == "regret":
        return cmdp.opt - float(np.sum(cmdp.r_bar * q))
    if metric == "violation":
        return float(np.einsum("ixa,xa->i", cmdp.G_bar, q).max())
    raise ValueError(f"the power search knows the regret and the violation, not {metric!r}")


def numbers(cmdp: CMDP | Seen, T: int, delta: float = DELTA) -> dict:
    """The point a bound of :data:`~regretlab.cmdp.bound_registry.BOUNDS` is evaluated at, for a CMDP with
    fixed sequences at horizon ``T`` (the floors' :func:`~regretlab.cmdp.floors.smallest_cmdp`, with the
    CMDP's own sizes, ``ρ`` and ``OPT``, and App. C's constants for them: the paper's learner)."""
    return smallest_cmdp(
        cmdp.L, T, delta, n_states=cmdp.n_states, n_actions=cmdp.n_actions, m=cmdp.m, rho=cmdp.rho,
        opt=cmdp.opt, condition2=bool(condition2_holds(cmdp.rho, T, cmdp.L, cmdp.m)),
    )  # fmt: skip


def has_power(name: str, cmdp: CMDP | Seen, T: int, rate: float | None = None) -> bool:
    """At horizon ``T`` the hypotheses of bound ``name`` hold on ``cmdp`` and the bound is below uniform
    play's value ``T·u`` (``rate`` = ``u``, computed when None)."""
    spec = BOUNDS[name]
    rate = uniform_rate(cmdp, spec.metric) if rate is None else rate
    point = numbers(cmdp, T)
    if spec.hypotheses is not None and not spec.hypotheses(point):
        return False
    return rate > 0 and spec.evaluate(point) < rate * T


def t_power(name: str, cmdp: CMDP | Seen, rate: float | None = None) -> int | None:
    """The smallest horizon at which :func:`has_power` holds (None: not up to :data:`T_MAX`): the first point
    of a log grid where it does, refined by bisection to the episode against the grid point before (``rate``:
    uniform play's value per episode, computed from a CMDP when None; a :class:`Seen` carries its own)."""
    rate = uniform_rate(cmdp, BOUNDS[name].metric) if rate is None else rate
    if rate <= 0:
        return None
    grid = sorted({int(round(10 ** (k / 4))) for k in range(4, 4 * round(math.log10(T_MAX)) + 1)})
    first = next((i for i, T in enumerate(grid) if has_power(name, cmdp, T, rate)), None)
    if first is None:
        return None
    if first == 0:
        return grid[0]
    low, high = grid[first - 1], grid[first]
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if has_power(name, cmdp, middle, rate) else (middle, high)
    return high


def _shortfall(name: str, cmdp: CMDP | Seen, rate: float) -> float:
    """How far a CMDP on which the bound never has power is from having it, in ``[0, 2]``: the share of the
    grid's horizons where the hypotheses fail, plus ``1 − 1/(1 + log10 r)`` of the smallest ratio ``r`` of the
    bound to uniform play's value (``rate`` per episode) where they hold (1 with none). It guides the
    optimiser out of the flat region (Theorem 6 needs ``ρ`` small enough that Condition 2 fails)."""
    spec = BOUNDS[name]
    grid = [10**k for k in range(1, round(math.log10(T_MAX)) + 1)]
    points = [numbers(cmdp, T) for T in grid]
    holding = [p for p in points if spec.hypotheses is None or spec.hypotheses(p)]
    ratios = [spec.evaluate(p) / (rate * p["T"]) for p in holding] if rate > 0 else []
    closeness = 1.0 - 1.0 / (1.0 + math.log10(min(ratios))) if ratios else 1.0
    return 1.0 - len(holding) / len(points) + closeness


@dataclass(frozen=True)
class Seen:
    """What the objective reads of a CMDP in place of the CMDP itself: its sizes, ``ρ`` and ``OPT``
    (:func:`numbers`) and uniform play's value per episode of each metric (:func:`uniform_rate`)."""

    L: int
    n_states: int
    n_actions: int
    m: int
    rho: float
    opt: float
    rates: dict[str, float]


def _seen(x: dict) -> Seen | None:
    """:class:`Seen` of the CMDP of a point of :data:`SPACE` (:func:`mdp_block`), None when it is not
    admissible (``ρ < 0``: no occupancy satisfies the constraints), in closed form: every non-terminal state
    has the same reward row ``r`` and constraint row ``g`` (every constraint alike), and any sequence of
    per-layer action distributions ``p_1 … p_L`` is an occupancy's, so with ``p̄`` their average
    ``OPT = L·max {r·p̄ : g·p̄ <= 0, p̄ ∈ Δ(A)}`` (attained at an action or a two-action mix with ``g·p̄ = 0``),
    ``ρ = L·max_a(−g_a)``, and uniform play's values per episode are ``OPT − L·mean(r)`` and ``L·mean(g)``.
    The builder's linear programs (:func:`~regretlab.cmdp.instance.make_explicit_cmdp`) give the same numbers
    to 10⁻⁹ (``tests/cmdp/test_power_search.py``); :func:`search` rebuilds the instance it reports with them.
    The closed form keeps the search's ~10⁴ CMDPs off HiGHS (half of the job's time, issue 33)."""
    sizes, row, cost, m = _tables(x)
    r, g = np.array(row), np.array(cost)
    L = len(sizes) - 1
    if g.min() > 0:
        return None
    best = float(r[g <= 0].max())
    for a, b in ((a, b) for a in np.flatnonzero(g < 0) for b in np.flatnonzero(g > 0)):
        best = max(best, float((r[a] * g[b] - r[b] * g[a]) / (g[b] - g[a])))  # the mix with g·p = 0
    opt = L * best
    rates = {"regret": opt - L * float(r.mean()), "violation": L * float(g.mean())}
    return Seen(L, sum(sizes), len(r), m, -L * float(g.min()), opt, rates)


def _objective(name: str, vector: np.ndarray) -> float:
    """``log10 T_power`` of the CMDP at ``vector``; ``NEVER`` plus :func:`_shortfall` when it has none, and
    ``NEVER + 2`` when it is not admissible."""
    seen = _seen(_point(vector))
    if seen is None:
        return NEVER + 2.0
    rate = seen.rates[BOUNDS[name].metric]
    found = t_power(name, seen, rate)
    return NEVER + _shortfall(name, seen, rate) if found is None else math.log10(found)


def _refine(name: str, vector: np.ndarray, value: float) -> tuple[np.ndarray, float, int]:
    """Coordinate sweeps from the optimiser's best point: each size takes every value of its range and each
    table entry both ends of its range, the others fixed, keeping any move that is no worse, until a sweep
    improves nothing (differential evolution approaches the box's faces and the best sizes without always
    reaching them); returns the point, its objective and the CMDPs built."""
    spent, improved = 0, True
    while improved:
        improved = False
        for k, (_, low, high, integer) in enumerate(SPACE):
            for option in range(int(low), int(high) + 1) if integer else (low, high):
                if vector[k] == option:
                    continue
                trial = vector.copy()
                trial[k] = option
                spent += 1
                score = _objective(name, trial)
                if score <= value:
                    vector, value, improved = trial, score, improved or score < value
    return vector, value, spent


@dataclass(frozen=True)
class PowerSearch:
    """What the search found for one bound.

    Attributes:
        bound: the bound's name.
        T: the smallest ``T_power`` found (None: none up to :data:`T_MAX`).
        mdp: the CMDP that attains it, as a config entry's ``mdp`` block (None with ``T``).
        rho, opt, uniform_rate: its ``ρ``, ``OPT`` and uniform play's value per episode.
        floor: the bound's analytic floor (:func:`regretlab.cmdp.floors.floor`; None: beyond its maximum).
        evaluations: the CMDPs the optimiser built.
    """

    bound: str
    T: int | None
    mdp: dict | None
    rho: float
    opt: float
    uniform_rate: float
    floor: int | None
    evaluations: int

    @property
    def sizes(self) -> str:
        """``L``, ``|X|``, ``|A|``, ``m`` of the instance found, in words."""
        if self.mdp is None:
            return ""
        sizes = self.mdp["layer_sizes"]
        actions, m = len(self.mdp["reward"][0]), len(self.mdp["constraint"])
        return f"L = {len(sizes) - 1}, |X| = {sum(sizes)}, |A| = {actions}, m = {m}"


@cache
def search(name: str) -> PowerSearch:
    """Differential evolution over :data:`SPACE` for the smallest ``T_power`` of bound ``name`` (one of
    :data:`~regretlab.cmdp.floors.FLOOR_BOUNDS`)."""
    if name not in FLOOR_BOUNDS:
        raise ValueError(f"the power search covers {list(FLOOR_BOUNDS)}, not {name!r}")
    result = differential_evolution(
        lambda vector: _objective(name, vector),
        [(low, high) for _, low, high, _ in SPACE],
        integrality=[integer for *_, integer in SPACE],
        seed=SEED, popsize=POPULATION, maxiter=GENERATIONS, polish=False, tol=0.0, updating="immediate",
    )  # fmt: skip
    best, value, spent = _refine(name, np.array(result.x), float(result.fun))
    found = floor(name).T
    if value >= NEVER:
        return PowerSearch(name, None, None, math.nan, math.nan, math.nan, found, int(result.nfev) + spent)
    block = mdp_block(_point(best))
    cmdp = make_explicit_cmdp(block)
    rate = uniform_rate(cmdp, BOUNDS[name].metric)
    spent += int(result.nfev)
    return PowerSearch(name, t_power(name, cmdp), block, cmdp.rho, cmdp.opt, rate, found, spent)


def search_row(name: str) -> dict:
    """The bound's row of ``figures/power_search.csv``: the search's ``T_power``, the floor, and the instance
    found (its sizes, ``ρ``, ``OPT``, uniform play's value per episode and its ``mdp`` block), with the CMDPs
    built (:attr:`regretlab.specs.kind_spec.Kind.power_searches`)."""
    found = search(name)
    return {
        "bound": name, "metric": BOUNDS[name].metric,
        "T_search": math.inf if found.T is None else float(found.T),
        "T_floor": math.inf if found.floor is None else float(found.floor), "floor_L": floor(name).L,
        "sizes": found.sizes, "rho": found.rho, "opt": found.opt, "uniform_rate": found.uniform_rate,
        "evaluations": found.evaluations, "mdp": json.dumps(found.mdp) if found.mdp else "",
    }  # fmt: skip
