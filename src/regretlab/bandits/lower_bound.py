"""The construction behind Theorem 5 of paper 001 (lines 206–210; proof in App. E.1, lines 953–957).

Theorem 5: on any weakly observable graph, an algorithm that does not know L* and has Õ(1) regret when L* = 0
suffers Ω(T^{1−ε}) regret on some loss sequence, for any ε ∈ (0, 1/3). The proof builds that sequence from the
algorithm itself, in two phases, which this module reproduces:

1. **The pair (u, v)** (:func:`theorem5_pair`): u is a node without a self-loop that is weakly observable and
   v a node that cannot observe u (v ∉ N_in(u), v ≠ u). One exists on every weakly observable graph; the
   lowest indices are taken. Every other node is a "bad arm"; in particular every in-neighbour of u is bad.
2. **Environment 1** (:class:`Theorem5Losses` without interval): ℓ_{t,u} = 0, ℓ_{t,v} = T^{−b}, ℓ_{t,w} = 1
   for the bad arms w, for every t, with ε < b < 1 − 2ε. L* = 0.
3. **The interval** (:func:`find_interval`): the algorithm under test is run on environment 1 with calibration
   seeds of its own. Since L* = 0 there, its expected regret N = E[Σ_t ⟨p_t, ℓ_t⟩] bounds the expected number
   of bad-arm pulls N_bad (each costs 1), so cutting [T] into m = 2⌈N⌉ + 1 consecutive blocks, the block I
   with the least expected loss has E[bad pulls in I] ≤ N/m < 1/2 (the proof's "interval of length T/(2N_bad +
   1)", with N ≥ N_bad in place of N_bad: the same pigeonhole, slightly shorter blocks). E[·] is the mean of
   the calibration runs' ⟨p_t, ℓ_t⟩ (the learner's own probabilities, not its draws).
4. **Environment 2** (:class:`Theorem5Losses` with interval I): the same, except ℓ_{t,u} = 1 for t ∈ I. u's
   loss is revealed only by pulls of its in-neighbours, all bad, so with probability ≥ 1/2 the algorithm
   cannot tell the environments apart on I and keeps playing u (or v) there; v becomes best with L* = T^{1−b}
   once |I| > T^{1−b}.

Honesty of the two phases: environment 2 depends on the algorithm (and its constants preset and T), as the
theorem's "for any algorithm there exists a sequence" allows, but not on the coins of the runs it is evaluated
on: the calibration seeds are labelled ``theorem5-calibration-j``
(:func:`regretlab.core.seeding.job_seed_sequence`), disjoint from the evaluation seeds, and the losses are
deterministic (oblivious adversary). Building it from the evaluation seed's own run would let the adversary
see the learner's draws.

The theorem's premise (Õ(1) regret at L* = 0) is a property of the algorithm that the algorithms of Section 4
do not have: their Ω forces exploration on a weakly dominating set D, which contains an in-neighbour of u, a
bad arm, so N grows polynomially. The construction is run anyway and records ε̂ with |I| = T^{1−ε̂}, the
exponent of the interval it used (|I| ≈ T/(2⌈N⌉ + 1), the proof's T/(2N_bad + 1)): the proof yields
Ω(T^{1−ε̂}) = Ω(|I|) only when ε̂ < b < 1 − 2ε̂ (:func:`premise_holds`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from regretlab.bandits.tracking import Tracker
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability

#: Rounds per call into a learner's kernel during calibration (memory: this many × K floats).
CALIBRATION_CHUNK = 8192


def theorem5_pair(graph: FeedbackGraph) -> tuple[int, int]:
    """(u, v) of App. E.1: u the lowest-index weakly observable node (it has no self-loop), v the lowest-index
    node other than u that does not observe u. Raises ValueError on a graph with no weakly observable node."""
    weak = graph.nodes_of_class(Observability.WEAK)
    if weak.size == 0:
        raise ValueError("Theorem 5's construction needs a weakly observable graph (paper 001, App. E.1)")
    u = int(weak[0])
    v = next(j for j in range(graph.n_arms) if j != u and not graph.adjacency[j, u])
    return u, v


@dataclass(frozen=True)
class Theorem5Losses:
    """Environment 1 (``start == stop``) or 2 (ℓ_u = 1 on rounds ``start+1 … stop``) of App. E.1, horizon T.

    Deterministic: ``draw`` ignores its generator (the sequence is the same for every seed).
    """

    n_arms: int
    u: int
    v: int
    b: float
    horizon: int
    start: int = 0
    stop: int = 0

    def __post_init__(self) -> None:
        if not (0 <= self.u < self.n_arms and 0 <= self.v < self.n_arms and self.u != self.v):
            raise ValueError(
                f"u and v must be distinct arms in [0, {self.n_arms - 1}], got {self.u}, {self.v}"
            )
        if not 0 < self.b < 1:
            raise ValueError(f"b must be in (0, 1), got {self.b}")
        if not 0 <= self.start <= self.stop <= self.horizon:
            raise ValueError(f"need 0 ≤ start ≤ stop ≤ T, got {self.start}, {self.stop}, T = {self.horizon}")

    @property
    def v_loss(self) -> float:
        """ℓ_{t,v} = T^{−b}."""
        return float(self.horizon) ** (-self.b)

    def at_horizon(self, horizon: int) -> Theorem5Losses:
        """The same sequence: it was built for its own horizon (``self.horizon``)."""
        if horizon != self.horizon:
            raise ValueError(f"this Theorem 5 sequence is for T = {self.horizon}, not T = {horizon}")
        return self

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Losses of rounds ``t0+1 … t0+n_rounds``, shape ``(n_rounds, K)``."""
        losses = np.ones((n_rounds, self.n_arms))
        losses[:, self.v] = self.v_loss
        rounds = t0 + 1 + np.arange(n_rounds)
        losses[:, self.u] = ((rounds > self.start) & (rounds <= self.stop)).astype(np.float64)
        return losses

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {"kind": "theorem5_losses", **{k: getattr(self, k) for k in self.__dataclass_fields__}}


@dataclass(frozen=True)
class Theorem5Construction:
    """What an instance file holds for Theorem 5: the pair, b, which environment, the calibration seeds.

    Not a loss sequence yet: environment 1 needs T, environment 2 also the algorithm under test
    (:func:`materialise`, called by :func:`regretlab.bandits.simulate.run_seeds`).
    """

    n_arms: int
    u: int
    v: int
    b: float
    environment: int
    calibration_seeds: int

    def __post_init__(self) -> None:
        if self.environment not in (1, 2):
            raise ValueError(f"environment must be 1 or 2, got {self.environment}")
        if self.calibration_seeds < 1:
            raise ValueError(f"calibration_seeds must be positive, got {self.calibration_seeds}")

    def at_horizon(self, horizon: int) -> Theorem5Construction:
        """The same construction: :func:`materialise` builds each horizon's sequence (with the algorithm)."""
        return self

    def draw(self, rng: np.random.Generator, t0: int, n_rounds: int) -> np.ndarray:
        """Not drawable: the sequence depends on T and on the algorithm (see :func:`materialise`)."""
        raise TypeError("a Theorem 5 construction must be materialised for a horizon and an algorithm first")

    def to_dict(self) -> dict:
        """JSON-ready representation."""
        return {"kind": "theorem5", **{k: getattr(self, k) for k in self.__dataclass_fields__}}


def expected_loss_curve(learner, losses_env: Theorem5Losses) -> np.ndarray:
    """Σ_{s≤t} ⟨p_s, ℓ_s⟩ for t = 1 … T of one run of ``learner`` on environment 1 (L*_t = 0 there, so this is
    the pseudo-regret at every round)."""
    horizon = losses_env.horizon
    tracker = Tracker.start(losses_env.n_arms, np.arange(1, horizon + 1))
    for t0 in range(0, horizon, CALIBRATION_CHUNK):
        learner.play(losses_env.draw(None, t0, min(CALIBRATION_CHUNK, horizon - t0)), t0, tracker)
    return tracker.records[:, 0] + tracker.records[:, 2]


def find_interval(curve: np.ndarray) -> dict:
    """The block I of App. E.1 from the mean curve t ↦ E[Σ_{s≤t} ⟨p_s, ℓ_s⟩] on environment 1.

    N = curve[T]; [T] is cut into m = min(2⌈N⌉ + 1, T) blocks ⌊(k−1)T/m⌋ < t ≤ ⌊kT/m⌋; I is the first block
    with the least expected loss. Returns ``start``, ``stop`` (I = start+1 … stop), ``N``, ``m`` and the
    expected loss in I (< 1/2 whenever m = 2⌈N⌉ + 1).
    """
    horizon = curve.size
    total = float(curve[-1])
    m = min(2 * math.ceil(total) + 1, horizon)
    edges = (np.arange(m + 1) * horizon) // m
    cumulative = np.concatenate([[0.0], curve])
    block_loss = cumulative[edges[1:]] - cumulative[edges[:-1]]
    k = int(np.argmin(block_loss))
    return {
        "start": int(edges[k]),
        "stop": int(edges[k + 1]),
        "N": total,
        "m": int(m),
        "expected_loss_in_interval": float(block_loss[k]),
    }


def epsilon_hat(interval_length: int, horizon: int) -> float:
    """ε̂ = 1 − ln|I|/ln T, i.e. |I| = T^{1−ε̂}: the exponent of the interval I the construction used (of
    length ⌊kT/m⌋ − ⌊(k−1)T/m⌋ ≈ T/(2⌈N⌉ + 1), :func:`find_interval`), which the proof's Ω(T^{1−ε}) is."""
    return 1.0 - math.log(interval_length) / math.log(horizon)


def premise_holds(epsilon: float, b: float) -> bool:
    """The proof's conditions on the measured ε̂: ε̂ < 1/3 and ε̂ < b < 1 − 2ε̂ (line 953)."""
    return bool(epsilon < 1.0 / 3.0 and epsilon < b < 1.0 - 2.0 * epsilon)


def materialise(instance, horizon: int, build_calibration_learner) -> tuple:
    """The instance of one (algorithm, T) point of a Theorem 5 regime, and what the construction found.

    ``instance.environment`` is a :class:`Theorem5Construction`. Environment 1 is returned as is; for
    environment 2, ``build_calibration_learner(instance_env1, j)`` builds the algorithm under test for
    calibration seed j (its own generator, never an evaluation seed's), each is run on environment 1, and
    :func:`find_interval` on their mean curve gives I. Returns ``(instance, info)``; ``info`` has the pair, b,
    I, N, m, the expected loss in I, ε̂ and whether the proof's premise holds at ε̂ (NaN / False for env. 1).
    """
    spec = instance.environment
    env1 = Theorem5Losses(spec.n_arms, spec.u, spec.v, spec.b, horizon)
    first = replace(instance, environment=env1)
    info = {"u": spec.u, "v": spec.v, "b": spec.b, "environment": spec.environment}
    if spec.environment == 1:
        return first, info
    curves = [
        expected_loss_curve(build_calibration_learner(first, j), env1) for j in range(spec.calibration_seeds)
    ]
    curve = np.mean(curves, axis=0)
    found = find_interval(curve)
    epsilon = epsilon_hat(found["stop"] - found["start"], horizon)
    env2 = Theorem5Losses(spec.n_arms, spec.u, spec.v, spec.b, horizon, found["start"], found["stop"])
    info.update(found, epsilon_hat=epsilon, premise_holds=premise_holds(epsilon, spec.b))
    return replace(instance, environment=env2), info
