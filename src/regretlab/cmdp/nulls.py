"""The null learner of paper 000's regimes: the uniform policy ``π(a|x) = 1/|A|``, played in every episode.

Its occupancy ``q_u = q^{P,π}`` (eq. (1), under the true ``P``) is fixed, so its totals up to episode t are
linear in the averages of the sequences: ``Σ_{τ≤t} r_τᵀq_u = t · r̄_tᵀq_u`` and ``Σ_{τ≤t} G_τᵀq_u =
t · Ḡ_tᵀq_u``, with ``r̄_t``, ``Ḡ_t`` the expected averages over ``1 … t`` (:meth:`PhaseProcess.average`:
the mean of a stochastic sequence, the closed-form average of an adversarial one). Every value is exact in
expectation, with no simulation: the regret ``t·OPT − t·r̄_tᵀq_u`` (Definition 2, with the run's own OPT),
the violation ``max_i t·[Ḡ_tᵀq_u]_i`` (Definition 3; the maximum of the expectations, which the expectation of
the maximum exceeds by at most the noise's O(√t) where the constraints are noisy), the reward and its ratio
to ``t·OPT``, and UC-O-GDPS's primal regret on the losses ``ℓ_τ = G_τλ − r_τ`` at its fixed λ
(``max_q Σ_τ ℓ_τᵀ(q_u − q)``, Definition 4, by backward induction over the layers). The dual's metrics (λ,
the dual regret, clipping) and the confidence sets' (coverage, ``Σ‖q_τ − q̂_τ‖₁``) are the learner's own
state: no null value (NaN).
"""

from __future__ import annotations

import math

import numpy as np

from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.instance import CMDP
from regretlab.cmdp.occupancy import layer_slices, occupancy_from_policy, pairs_from_triples
from regretlab.specs.bound_spec import Point


def uniform_occupancy(cmdp: CMDP) -> np.ndarray:
    """``q^{P,π}`` of the uniform policy, pair view ``(|X|, |A|)`` (eq. (2))."""
    pi = np.full((cmdp.P.shape[0], cmdp.n_actions), 1.0 / cmdp.n_actions)
    return pairs_from_triples(occupancy_from_policy(cmdp.layer_sizes, cmdp.P, pi))


def best_occupancy_value(cmdp: CMDP, reward: np.ndarray) -> float:
    """``max_q Σ_{x,a} reward(x, a) q(x, a)`` over the occupancies of ``P`` (no constraint): the value of the
    start state under the optimal policy, by backward induction over the layers."""
    value = np.zeros(cmdp.P.shape[0])
    for layer in reversed(layer_slices(cmdp.layer_sizes)[:-1]):
        value[layer] = (reward[layer] + cmdp.P[layer] @ value).max(axis=1)
    return float(value[0])


def uniform_value(instance: dict, metric: str, point: Point, algorithm: str = "") -> float:
    """The uniform policy's expected value of ``metric`` over episodes ``1 … t`` of a horizon-``T`` run
    (``point`` a :class:`~regretlab.specs.bound_spec.Point`: ``t``, and ``opt`` for the regret and the ratio);
    NaN for a metric it has none of. ``algorithm`` tells UC-O-GDPS alone (``uc_o_gdps``, whose primal regret
    is against oblivious losses) from PDGD-OPS (whose primal losses follow its dual: no null primal
    regret)."""
    if "environment" not in instance:  # an instance file with no sequences (a test's numbers only)
        return math.nan
    cmdp = _cmdp(instance)
    environment = _environment(instance)
    t = int(point["t"])
    q = uniform_occupancy(cmdp)
    r_bar = environment.rewards.average(t)
    reward = t * float(np.sum(r_bar * q))
    if metric == "reward":
        return reward
    if metric in ("regret", "reward_ratio"):
        opt = point.get("opt")
        if opt is None or not math.isfinite(opt):
            return math.nan
        return t * opt - reward if metric == "regret" else reward / (t * opt)
    G_bar = environment.constraints.average(t)
    if metric == "violation":
        return t * float(np.einsum("ixa,xa->i", G_bar, q).max())
    if metric == "primal_regret" and algorithm == "uc_o_gdps":
        lam = np.asarray(point.get("params", {}).get("lam", np.zeros(G_bar.shape[0])), dtype=float)
        loss = np.einsum("i,ixa->xa", lam, G_bar) - r_bar
        return t * (float(np.sum(loss * q)) + best_occupancy_value(cmdp, -loss))
    return math.nan


def _cmdp(instance: dict) -> CMDP:
    return CMDP.from_dict(instance["cmdp"])


def _environment(instance: dict) -> CMDPEnvironment:
    return CMDPEnvironment.from_dict(instance["environment"])
