"""A layered, loop-free CMDP instance with stochastic rewards and constraints (paper §3.1, §3.3, §3.5).

Array shapes and the flat state indexing are those of :mod:`regretlab.cmdp.occupancy`. The constraint
convention is the paper's: ``G_t ∈ [-1, 1]^{|X×A|×m}`` holds violations, ``G^T q <= 0`` is satisfaction (§3.1,
eq. (5)) and the feasibility parameter is ``ρ = max_{q∈Δ(M)} min_i -[Ḡ^T q]_i ∈ [0, L]`` (§3.5). Rows of the
terminal state ``x_L`` in ``r̄`` and ``Ḡ`` are zero: no action is taken there, so no occupancy charges them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from numbers import Integral
from typing import Any

import numpy as np

from regretlab.cmdp.occupancy import check_layer_sizes, check_transition, layer_slices
from regretlab.cmdp.offline_lp import (
    feasibility_parameter,
    lagrange_multiplier,
    solve_opt,
    solve_unconstrained,
)

_ARRAY_FIELDS = ("P", "r_bar", "G_bar", "q_star", "q_circ")

#: Instance families of :func:`make_cmdp`: ``binding`` (:func:`make_binding_cmdp`, the unconstrained optimum
#: violates), ``vacuous`` (:func:`make_layered_cmdp`, a constant shift of a random ``Ḡ``; with ``ρ`` near
#: ``L`` no occupancy can violate, so the constraint is inert) and ``chain`` (:func:`make_chain_cmdp`, the
#: deterministic chain on which the mixture of Theorem 7's proof violates a phase).
FAMILIES = ("binding", "vacuous", "chain")

#: Default ``constraint_spread`` of each family (the width of the bands near ``±1`` for ``binding``, the
#: half-width of the random draw for ``vacuous``).
DEFAULT_SPREAD = {"binding": 0.02, "vacuous": 0.5}

#: Reward ranges of the binding family: safe actions pay little, risky actions a lot.
SAFE_REWARDS, RISKY_REWARDS = (0.0, 0.2), (0.8, 1.0)

#: Tolerance on ``OPT_unconstrained - OPT`` (and on the unconstrained optimum's violation) below which the
#: constraint is said not to bind; the LPs are solved to ~1e-10.
BIND_TOLERANCE = 1e-7


@dataclass(frozen=True, eq=False)
class CMDP:
    """A loop-free CMDP ``(X, A, P, r̄, Ḡ)`` with its offline solution.

    Attributes
    ----------
    layer_sizes : ``(|X_0|, ..., |X_L|)``, first and last equal to 1.
    n_actions : ``|A|``.
    P : ``(|X|, |A|, |X|)``, ``P[x, a, x'] = P(x'|x, a)``.
    r_bar : ``(|X|, |A|)``, mean reward ``r̄(x, a) ∈ [0, 1]``.
    G_bar : ``(m, |X|, |A|)``, mean constraint violation ``ḡ_i(x, a) ∈ [-1, 1]`` (``G_bar[i]`` is column ``i``
        of the paper's ``Ḡ``).
    opt : ``OPT_{r̄,Ḡ}`` of eq. (5).
    q_star : ``(|X|, |A|)``, the pair-view maximiser ``q*`` of eq. (5).
    rho : ``ρ`` of §3.5 (stochastic definition).
    q_circ : ``(|X|, |A|)``, the pair-view occupancy ``q°`` attaining ``ρ``.

    Arrays are stored read-only; equality is identity (compare fields with numpy when needed).
    """

    layer_sizes: tuple[int, ...]
    n_actions: int
    P: np.ndarray
    r_bar: np.ndarray
    G_bar: np.ndarray
    opt: float
    q_star: np.ndarray
    rho: float
    q_circ: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "layer_sizes", check_layer_sizes(self.layer_sizes))
        object.__setattr__(self, "n_actions", int(self.n_actions))
        object.__setattr__(self, "opt", float(self.opt))
        object.__setattr__(self, "rho", float(self.rho))
        for name in _ARRAY_FIELDS:
            array = np.array(getattr(self, name), dtype=float)
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        pairs = (self.n_states, self.n_actions)
        check_transition(self.layer_sizes, self.P)
        if self.P.shape[1] != self.n_actions:
            raise ValueError(f"P has {self.P.shape[1]} actions, expected n_actions={self.n_actions}")
        for name, shape in (("r_bar", pairs), ("q_star", pairs), ("q_circ", pairs)):
            if getattr(self, name).shape != shape:
                raise ValueError(f"{name} must have shape {shape}, got {getattr(self, name).shape}")
        if self.G_bar.ndim != 3 or self.G_bar.shape[1:] != pairs or self.G_bar.shape[0] < 1:
            raise ValueError(f"G_bar must have shape (m, *{pairs}) with m >= 1, got {self.G_bar.shape}")
        if self.r_bar.min() < 0 or self.r_bar.max() > 1 or np.abs(self.G_bar).max() > 1:
            raise ValueError("r_bar must lie in [0, 1] and G_bar in [-1, 1] (§3.1)")

    @property
    def L(self) -> int:
        """Number of decision steps (layers ``X_0, ..., X_{L-1}`` take actions)."""
        return len(self.layer_sizes) - 1

    @property
    def n_states(self) -> int:
        """``|X|``, terminal state included."""
        return sum(self.layer_sizes)

    @property
    def m(self) -> int:
        """Number of constraints."""
        return self.G_bar.shape[0]

    def to_dict(self) -> dict[str, Any]:
        """Plain ``int``/``float``/nested-``list`` fields, ready for ``json.dump`` or ``np.savez(**d)``."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["layer_sizes"] = list(self.layer_sizes)
        return {key: v.tolist() if isinstance(v, np.ndarray) else v for key, v in data.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CMDP:
        """Inverse of :meth:`to_dict`; also accepts the arrays of a loaded ``.npz`` file."""
        scalars = {
            "layer_sizes": [int(n) for n in np.ravel(data["layer_sizes"])],
            "n_actions": int(np.asarray(data["n_actions"])),
            "opt": float(np.asarray(data["opt"])),
            "rho": float(np.asarray(data["rho"])),
        }
        return cls(**scalars, **{name: np.asarray(data[name], dtype=float) for name in _ARRAY_FIELDS})


def _layer_sizes(n_layers: int, states_per_layer: int | Sequence[int]) -> tuple[int, ...]:
    """``(1, |X_1|, ..., |X_{L-1}|, 1)`` from one interior width or a sequence of ``L - 1`` widths."""
    if isinstance(states_per_layer, Integral):
        interior = [int(states_per_layer)] * (n_layers - 1)
    else:
        interior = list(states_per_layer)
    if len(interior) != n_layers - 1:
        raise ValueError(f"states_per_layer needs L - 1 = {n_layers - 1} sizes, got {len(interior)}")
    return check_layer_sizes([1, *interior, 1])


def _random_transitions(rng: np.random.Generator, layer_sizes: tuple[int, ...], n_actions: int) -> np.ndarray:
    """``P(·|x, a)`` a uniform Dirichlet draw over the next layer, for every ``(x, a)`` (``x ≠ x_L``)."""
    slices = layer_slices(layer_sizes)
    n_states = sum(layer_sizes)
    P = np.zeros((n_states, n_actions, n_states))
    for cur, nxt in zip(slices[:-1], slices[1:], strict=True):
        width = nxt.stop - nxt.start
        P[cur, :, nxt] = rng.dirichlet(np.ones(width), size=(cur.stop - cur.start, n_actions))
    return P


def make_layered_cmdp(
    rng: np.random.Generator,
    n_layers: int,
    states_per_layer: int | Sequence[int],
    n_actions: int,
    m: int,
    rho: float,
    constraint_spread: float = 0.5,
) -> CMDP:
    """A random CMDP whose feasibility parameter is exactly ``rho``.

    ``n_layers`` is ``L``; the interior layers ``X_1, ..., X_{L-1}`` have ``states_per_layer`` states (one int
    for all, or a sequence of ``L - 1`` sizes). Each ``P(·|x, a)`` is a uniform Dirichlet draw over the next
    layer, ``r̄`` is uniform on ``[0, 1]`` and a draw ``G_0`` of ``Ḡ`` is uniform on
    ``[-constraint_spread, constraint_spread]``. Every valid occupancy puts mass 1 on each of the ``L``
    decision layers (Lemma 1), so ``Ḡ = G_0 + c`` has ``[Ḡ^T q]_i = [G_0^T q]_i + cL`` for all ``q ∈ Δ(M)``
    and ``ρ(Ḡ) = ρ(G_0) - cL`` with the same ``q°``; ``c = (ρ(G_0) - rho) / L`` hits ``rho``. Raises
    ``ValueError`` when ``rho`` is outside ``[0, L]`` (§3.5), or when the shift would push an entry of ``Ḡ``
    out of ``[-1, 1]`` (a smaller ``constraint_spread`` widens the reachable range).
    """
    if n_layers < 1 or n_actions < 1 or m < 1:
        raise ValueError(f"need n_layers >= 1, n_actions >= 1, m >= 1; got {n_layers}, {n_actions}, {m}")
    if not 0.0 < constraint_spread <= 1.0:
        raise ValueError(f"constraint_spread must lie in (0, 1], got {constraint_spread}")
    if not 0.0 <= rho <= n_layers:
        raise ValueError(
            f"rho must lie in [0, L] = [0, {n_layers}] (paper §3.5; rho < 0 means infeasible constraints), "
            f"got rho={rho}"
        )
    layer_sizes = _layer_sizes(n_layers, states_per_layer)
    n_states = sum(layer_sizes)
    P = _random_transitions(rng, layer_sizes, n_actions)
    r_bar = np.zeros((n_states, n_actions))
    r_bar[:-1] = rng.uniform(0.0, 1.0, size=(n_states - 1, n_actions))
    G_0 = np.zeros((m, n_states, n_actions))
    G_0[:, :-1] = rng.uniform(-constraint_spread, constraint_spread, size=(m, n_states - 1, n_actions))

    rho_0, q_circ = feasibility_parameter(P, G_0)
    low = rho_0 - n_layers * (1.0 - G_0[:, :-1].max())
    high = rho_0 + n_layers * (1.0 + G_0[:, :-1].min())
    if not low <= rho <= high:
        raise ValueError(
            f"rho={rho} is out of reach for this draw: shifting G_bar keeps its entries in [-1, 1] only for "
            f"rho in [{max(low, 0.0):.6g}, {min(high, n_layers):.6g}]; lower "
            f"constraint_spread={constraint_spread} to widen the range"
        )
    G_bar = G_0.copy()
    G_bar[:, :-1] = np.clip(G_0[:, :-1] + (rho_0 - rho) / n_layers, -1.0, 1.0)
    opt, q_star = solve_opt(P, r_bar, G_bar)
    return CMDP(layer_sizes, n_actions, P, r_bar, G_bar, opt, q_star, rho, q_circ)


def make_binding_cmdp(
    rng: np.random.Generator,
    n_layers: int,
    states_per_layer: int | Sequence[int],
    n_actions: int,
    m: int,
    rho: float,
    constraint_spread: float = DEFAULT_SPREAD["binding"],
    risky_constraint: float = 1.0,
) -> CMDP:
    """A random CMDP whose constraints bind, with feasibility parameter exactly ``rho`` (close to ``L``).

    Every non-terminal state has ``⌊|A|/2⌋`` *risky* actions (a random subset) and the others *safe*. A draw
    ``G_0`` puts safe entries uniformly in ``[-1, -1 + constraint_spread]`` for every constraint; constraint
    ``i`` *charges* the layers ``k ≡ i (mod m)``, where its risky entries are uniform in
    ``[risky_constraint - constraint_spread, risky_constraint]`` (``[1 - s, 1]`` by default; a small
    positive ``risky_constraint`` leaves room for adversarial phases that swing the risky entries by ``>= 1``
    around a mean that still violates, :mod:`regretlab.cmdp.environments`), and is neutral about risky actions
    elsewhere (uniform in ``[-constraint_spread, constraint_spread]``). With ``m = 1`` every layer is charged;
    with ``2 <= m <= L`` the constraints penalise different layers, so they are not parallel and several can
    be active at the optimum. ``r̄`` is uniform on :data:`RISKY_REWARDS` for risky and on :data:`SAFE_REWARDS`
    for safe actions. ``P`` is drawn as in :func:`make_layered_cmdp`.

    ``ρ = max_q min_i -[Ḡ^T q]_i`` is positively homogeneous in ``Ḡ``, so ``Ḡ = (rho / ρ(G_0)) G_0`` hits
    ``rho`` exactly with the same ``q°``; the all-safe policy gives ``ρ(G_0) >= L (1 - constraint_spread)``,
    and every ``rho <= ρ(G_0)`` is reachable (the scale is at most 1, so ``Ḡ`` stays in ``[-1, 1]``).
    With ``L <= 3`` the unconstrained optimum takes the risky action everywhere (a risky step pays at least
    0.6 more now and at most 0.2 less per later step), so it violates constraint ``i`` by about
    ``risky_constraint · rho / ρ(G_0)`` times the number of layers ``i`` charges (about
    ``risky_constraint · rho`` per episode when ``m = 1``); for any
    ``L`` the binding is checked (:func:`constraint_summary`) and a draw that does not bind raises
    ``ValueError``.
    """
    if n_actions < 2 or n_layers < 1 or m < 1:
        raise ValueError(
            f"a binding instance needs n_actions >= 2 (a safe and a risky action), n_layers >= 1 and m >= 1; "
            f"got {n_actions}, {n_layers}, {m}"
        )
    if not 0.0 < constraint_spread < 1.0:
        raise ValueError(f"constraint_spread must lie in (0, 1) when binding, got {constraint_spread}")
    if not constraint_spread < risky_constraint <= 1.0:
        raise ValueError(
            f"risky_constraint must lie in (constraint_spread, 1] = ({constraint_spread}, 1] so that risky "
            f"entries violate (ḡ > 0), got {risky_constraint}"
        )
    if not 0.0 < rho <= n_layers:
        raise ValueError(f"rho must lie in (0, L] = (0, {n_layers}] for a binding instance, got rho={rho}")
    layer_sizes = _layer_sizes(n_layers, states_per_layer)
    P = _random_transitions(rng, layer_sizes, n_actions)
    n_states = sum(layer_sizes)
    risky = np.zeros((n_states, n_actions), dtype=bool)
    for x in range(n_states - 1):
        risky[x] = rng.permutation(n_actions) < n_actions // 2
    r_bar = np.where(risky, rng.uniform(*RISKY_REWARDS, risky.shape), rng.uniform(*SAFE_REWARDS, risky.shape))
    band = rng.uniform(1.0 - constraint_spread, 1.0, size=(m, *risky.shape))
    neutral = rng.uniform(-constraint_spread, constraint_spread, size=(m, *risky.shape))
    layer_of = np.repeat(np.arange(len(layer_sizes)), layer_sizes)
    charged = layer_of[None, :, None] % m == np.arange(m)[:, None, None]  # constraint i charges layers k ≡ i
    G_0 = np.where(risky, np.where(charged, band - (1.0 - risky_constraint), neutral), -band)
    r_bar[-1], G_0[:, -1] = 0.0, 0.0
    rho_0, q_circ = feasibility_parameter(P, G_0)
    if rho > rho_0:
        raise ValueError(
            f"rho={rho} is out of reach for this draw: scaling G_bar reaches rho in (0, {rho_0:.6g}] only; "
            f"lower constraint_spread={constraint_spread} to reach closer to L = {n_layers}"
        )
    G_bar = np.clip(G_0 * (rho / rho_0), -1.0, 1.0)
    opt, q_star = solve_opt(P, r_bar, G_bar)
    cmdp = CMDP(layer_sizes, n_actions, P, r_bar, G_bar, opt, q_star, rho, q_circ)
    summary = constraint_summary(cmdp)
    if not summary.binds:
        raise ValueError(
            f"this draw does not bind (OPT = {summary.opt:.6g} equals the unconstrained optimum "
            f"{summary.opt_unconstrained:.6g}); with L = {n_layers} > 3 the risky actions need not be optimal"
        )
    return cmdp


def make_chain_cmdp(n_layers: int, rho: float) -> CMDP:
    """The deterministic chain of Theorem 7's counterexample (docs/choices-paper000.md; paper line 1248).

    One state per layer (``|X_k| = 1``), two actions, ``P(x_{k+1}|x_k, a) = 1``, one constraint. Action 1
    pays ``r̄ = 1/2`` with ``ḡ = 0``; action 0 pays 0 with ``ḡ = -rho/L``. So ``ρ = rho`` (the all-0 policy,
    which is ``q°``), ``q*`` plays action 1 everywhere with ``OPT = L/2`` and ``Ḡ^T q* = 0`` (the constraint
    is active but costs nothing: ``λ* = 0``). The reward ``1/2`` leaves room for adversarial rewards that pay
    1 in the phase where action 1 violates and 0 in the other. Under the ``risky_swing`` adversary
    (:func:`~regretlab.cmdp.environments.make_environment`) action 1's ``g`` is ``+1`` in one phase and
    ``-1`` in the other, so ``[G_t^T q*]_1 = L`` in every other phase and the paper's mixture
    ``ρ/(1+ρ) q* + 1/(1+ρ) q°`` violates that phase by ``ρ(L - 1)/(1+ρ)``; ``ρ/(L+ρ) q* + L/(L+ρ) q°`` is
    the heaviest safe one. Raises ``ValueError`` unless ``0 < rho <= L``.
    """
    if n_layers < 1 or not 0.0 < rho <= n_layers:
        raise ValueError(f"a chain needs n_layers >= 1 and rho in (0, L] = (0, {n_layers}], got {rho}")
    layer_sizes = (1,) * (n_layers + 1)
    P = np.zeros((n_layers + 1, 2, n_layers + 1))
    for x in range(n_layers):
        P[x, :, x + 1] = 1.0
    r_bar = np.zeros((n_layers + 1, 2))
    r_bar[:n_layers, 1] = 0.5
    G_bar = np.zeros((1, n_layers + 1, 2))
    G_bar[0, :n_layers, 0] = -rho / n_layers
    rho_value, q_circ = feasibility_parameter(P, G_bar)
    opt, q_star = solve_opt(P, r_bar, G_bar)
    return CMDP(layer_sizes, 2, P, r_bar, G_bar, opt, q_star, rho_value, q_circ)


def make_explicit_cmdp(mdp: dict) -> CMDP:
    """The CMDP a config entry gives by hand (``family: explicit``, the ``mdp`` block; issue 34's smallest
    instances), with ``L = 1`` allowed.

    ``mdp["reward"]``: one row of ``|A|`` means ``r̄(x, ·) ∈ [0, 1]`` per non-terminal state, layer by layer;
    ``mdp["constraint"]``: ``m`` such tables of ``ḡ_i(x, ·) ∈ [-1, 1]``; ``mdp["layer_sizes"]``:
    ``(1, |X_1|, ..., |X_(L-1)|, 1)``, by default one state per layer (``L`` = the number of reward rows);
    ``mdp["transitions"]``: per non-terminal state and action, the distribution over the next layer's states
    (needed only when a layer past ``X_0`` has several states; one state per layer is a deterministic
    chain). ``ρ`` (§3.5), ``OPT`` and ``q*`` are computed, not given. Raises ``ValueError`` starting with
    ``mdp.<field>`` on any inconsistency, and when no occupancy satisfies the constraints (``ρ < 0``).
    """
    try:
        reward, constraint = (np.asarray(mdp[key], dtype=float) for key in ("reward", "constraint"))
    except ValueError:
        raise ValueError("mdp.reward and mdp.constraint must be tables with rows of one length |A|") from None
    if reward.ndim != 2 or reward.shape[1] < 2:
        raise ValueError(f"mdp.reward must be rows of one length |A| >= 2, got {mdp['reward']}")
    n_decision, n_actions = reward.shape
    layer_sizes = tuple(mdp.get("layer_sizes") or (1,) * (n_decision + 1))
    try:
        layer_sizes = check_layer_sizes(layer_sizes)
    except ValueError as error:
        raise ValueError(f"mdp.{error}") from None
    n_states = sum(layer_sizes)
    if n_decision != n_states - 1:
        raise ValueError(
            f"mdp.reward has {n_decision} rows, expected one per non-terminal state: |X| - 1 = "
            f"{n_states - 1} for layer_sizes {list(layer_sizes)}"
        )
    if constraint.ndim != 3 or constraint.shape[1:] != reward.shape:
        raise ValueError(
            f"mdp.constraint must be m tables shaped like mdp.reward ({n_decision} rows of {n_actions}), got "
            f"{mdp['constraint']}"
        )
    slices = layer_slices(layer_sizes)
    P = np.zeros((n_states, n_actions, n_states))
    if "transitions" in mdp and len(mdp["transitions"]) != n_states - 1:
        raise ValueError(
            f"mdp.transitions must have one entry per non-terminal state ({n_states - 1}), got "
            f"{len(mdp['transitions'])}"
        )
    if "transitions" in mdp:
        for x, rows in enumerate(mdp["transitions"]):
            nxt = slices[next(k for k, s in enumerate(slices) if s.start <= x < s.stop) + 1]
            for a, row in enumerate(rows):
                if len(row) != nxt.stop - nxt.start or a >= n_actions:
                    raise ValueError(
                        f"mdp.transitions[{x}][{a}] must have one probability per state of the next layer "
                        f"({nxt.stop - nxt.start}), for {n_actions} actions; got {row}"
                    )
                P[x, a, nxt] = row
    elif max(layer_sizes) > 1:
        raise ValueError(
            f"mdp.transitions is needed: layer_sizes {list(layer_sizes)} has a layer of several states"
        )
    else:
        for x in range(n_states - 1):
            P[x, :, x + 1] = 1.0
    try:
        check_transition(layer_sizes, P)
    except ValueError as error:
        raise ValueError(f"mdp.transitions: {error}") from None
    r_bar = np.vstack([reward, np.zeros((1, n_actions))])
    G_bar = np.concatenate([constraint, np.zeros((constraint.shape[0], 1, n_actions))], axis=1)
    rho, q_circ = feasibility_parameter(P, G_bar)
    if rho < 0:
        raise ValueError(f"mdp.constraint: no occupancy satisfies every constraint (ρ = {rho:.6g} < 0, §3.5)")
    opt, q_star = solve_opt(P, r_bar, G_bar)
    return CMDP(layer_sizes, n_actions, P, r_bar, G_bar, opt, q_star, rho, q_circ)


@dataclass(frozen=True)
class ConstraintSummary:
    """How the constraints of a CMDP act on its offline problem (5).

    Attributes
    ----------
    opt : ``OPT_{r̄,Ḡ}``; opt_unconstrained : ``max_{q∈Δ(M)} r̄^T q``.
    unconstrained_violation : ``max_i [Ḡ^T q_u]_i`` of the unconstrained maximiser ``q_u``, the violation per
        episode of playing it (positive when it violates).
    lambda_star : ``(m,)``, the Lagrange multiplier of (5) (from
        :func:`~regretlab.cmdp.offline_lp.lagrange_multiplier`).
    binds : ``opt_unconstrained - opt > BIND_TOLERANCE``: the constraints change the optimum.
    """

    opt: float
    opt_unconstrained: float
    unconstrained_violation: float
    lambda_star: tuple[float, ...]
    binds: bool

    @property
    def lambda_star_l1(self) -> float:
        """``||λ*||_1`` (λ* >= 0)."""
        return float(sum(self.lambda_star))

    def to_dict(self) -> dict[str, Any]:
        """Plain fields plus ``lambda_star_l1``, JSON-ready."""
        return {**asdict(self), "lambda_star": list(self.lambda_star), "lambda_star_l1": self.lambda_star_l1}


def constraint_summary(cmdp: CMDP) -> ConstraintSummary:
    """The :class:`ConstraintSummary` of ``cmdp``'s mean problem ``(P, r̄, Ḡ)``."""
    opt_u, q_u = solve_unconstrained(cmdp.P, cmdp.r_bar)
    violation_u = float(np.max(np.einsum("ixa,xa->i", cmdp.G_bar, q_u)))
    lam = lagrange_multiplier(cmdp.P, cmdp.r_bar, cmdp.G_bar)
    return ConstraintSummary(
        cmdp.opt, opt_u, violation_u, tuple(float(v) for v in lam), bool(opt_u - cmdp.opt > BIND_TOLERANCE)
    )


def make_cmdp(
    rng: np.random.Generator,
    family: str,
    n_layers: int,
    states_per_layer: int | Sequence[int],
    n_actions: int,
    m: int,
    rho: float,
    constraint_spread: float | None = None,
    risky_constraint: float = 1.0,
) -> CMDP:
    """A CMDP of the named family (:data:`FAMILIES`); ``constraint_spread=None``: the family's default.

    ``risky_constraint`` is read by ``binding`` only; ``chain`` draws nothing and needs
    ``states_per_layer = 1``, ``n_actions = 2`` and ``m = 1``.
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if family == "chain":
        if (states_per_layer, n_actions, m) != (1, 2, 1):
            raise ValueError(
                "family chain needs states_per_layer = 1, n_actions = 2 and m = 1 (one state per layer, two "
                f"actions, one constraint), got {states_per_layer}, {n_actions}, {m}"
            )
        return make_chain_cmdp(n_layers, rho)
    spread = DEFAULT_SPREAD[family] if constraint_spread is None else constraint_spread
    if family == "binding":
        return make_binding_cmdp(rng, n_layers, states_per_layer, n_actions, m, rho, spread, risky_constraint)
    return make_layered_cmdp(rng, n_layers, states_per_layer, n_actions, m, rho, spread)


def condition2_holds(rho: float, T: int, L: int, m: int) -> bool:
    """Condition 2 (§3.5): ``ρ >= T^{-1/8} L sqrt(20 m)``.

    Equivalently ``ζ = 20 m L² / ρ² <= T^{1/4}`` with the ``ζ`` of Theorem 4. Since ``ρ <= L``, it can only
    hold once ``T >= (20 m)^4``.
    """
    return rho >= T ** (-1.0 / 8.0) * L * math.sqrt(20.0 * m)
