"""UC-O-GDPS, the primal player of PDGD-OPS (paper §5.1: INIT, Algorithm 3 UPDATE; Algorithm 4 as a whole).

Shapes follow :mod:`regretlab.cmdp.occupancy`: ``q̂`` is a triple view ``(|X|, |A|, |X|)``, a loss ``ℓ`` and a
policy are ``(|X|, |A|)``, a trajectory is the ``(L, 3)`` int array of rows ``(x_k, a_k, x_{k+1})``.

Line by line:

* INIT (§5.1, paper lines 243-245 = Algorithm 4 line 2): epoch ``i = 1``, all counters 0, ``𝒫_1`` every
  transition function, and ``q̂_1(x, a, x') = 1 / (|X_k| |A| |X_{k+1}|)`` on ``X_k × A × X_{k+1}``: the
  occupancy of the uniform policy under the uniform transition, so ``π_1 = π^{q̂_1}`` is uniform.
* UPDATE (Algorithm 3, lines 255-279): lines 2-7 are :class:`~regretlab.cmdp.confidence.TransitionConfidence`
  (``observe`` then ``maybe_new_epoch``); when a new epoch starts, the projector onto ``Δ(𝒫_i)`` is pointed
  at the new ``P̄_i``, ``ε_i`` (once per epoch); line 8 is the projected OGD step
  ``q̂_{t+1} = Π_{Δ(𝒫_i)}(q̂_t - η_t ℓ_t)`` with :class:`~regretlab.cmdp.projection.ConfidenceSetProjector`.
* Algorithm 4 lines 12-13: ``η_t = 1 / (ℓ̄_t C √T)``, ``ℓ̄_t = max_{τ<=t} ||ℓ_τ||_∞`` (:class:`AdaptiveRate`,
  shared with Algorithm 2 line 7), then ``π_{t+1} = π^{q̂_{t+1}}`` (eq. (4)).

Readings of the paper (ambiguities):

* Triples versus pairs. ``q̂`` lives on triples (INIT, Lemma 1) but ``ℓ_t = G_t λ_t - r_t`` lives on pairs
  (Algorithm 2 line 6), so ``q̂_t - η_t ℓ_t`` (line 279) mixes two spaces. As in UC-O-REPS (Rosenberg & Mansour
  2019a) the loss is extended to triples by ``ℓ_t(x, a, x') = ℓ_t(x, a)``: then ``ℓ_t^T q = Σ_{x,a} ℓ_t(x, a)
  q(x, a)`` for the triple view and ``ℓ_t`` is its gradient in triple space. (In that space
  ``||ℓ_t||_2^2 = Σ_{x,a} |X_{k(x)+1}| ℓ_t(x, a)^2``, so Lemma 10's ``U_2 = |X||A|`` (line 654) would read as
  the number of support triples; :mod:`regretlab.cmdp.bounds` keeps the paper's constant.)
* Which epoch's set. Line 8 projects after lines 4-7, so an episode that starts epoch ``i + 1`` already
  projects onto ``Δ(𝒫_{i+1})``. The first episode always starts epoch 2 (its pairs have ``N = 1 >=
  max{1, 2·0}``), so the set ``𝒫_1`` of INIT is never projected onto.
* Algorithm 4 line 12 writes ``max{||ℓ_t||_∞}_{t=1}^{t}``: read as Algorithm 2 line 7,
  ``max_{τ=1..t} ||ℓ_τ||_∞``, the current loss included. While every loss so far is 0, ``ℓ̄_t = 0`` and
  ``η_t = 1/0``; the step ``η_t ℓ_t`` is 0 for any ``η_t`` and :class:`AdaptiveRate` returns ``η_t = 0``.
* ``|X|`` counts every state, ``x_0`` and ``x_L`` included (as in ``ln(T|X||A|/δ)`` of eq. (10)); this is the
  ``|X|`` of ``C = 5|X||A|/L`` below.
* Round-off: the projection may return entries like ``-1e-13``; ``q̂`` is kept as returned and
  :func:`~regretlab.cmdp.occupancy.induced_policy` clips them when the policy is read off (where
  ``q̂(x) = 0`` the policy is uniform, eq. (4) leaving it undefined).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from regretlab.cmdp.confidence import TransitionConfidence
from regretlab.cmdp.occupancy import check_layer_sizes, induced_policy, induced_policy_into, layer_slices
from regretlab.cmdp.projection import ConfidenceSetProjector


def paper_C(n_states: int, n_actions: int, L: int) -> float:
    """``C = 5 U_2 / L = 5 |X||A| / L`` (App. C.2, paper line 959; ``U_2 = |X||A|`` of Lemma 10, line 654)."""
    return 5.0 * n_states * n_actions / L


def uniform_occupancy(layer_sizes: Sequence[int], n_actions: int) -> np.ndarray:
    """``q̂_1`` of INIT (paper lines 243-245): ``1 / (|X_k| |A| |X_{k+1}|)`` on every ``X_k × A × X_{k+1}``."""
    sizes = check_layer_sizes(layer_sizes)
    slices = layer_slices(sizes)
    n_states = sum(sizes)
    q = np.zeros((n_states, n_actions, n_states))
    for k, (cur, nxt) in enumerate(zip(slices[:-1], slices[1:], strict=True)):
        q[cur, :, nxt] = 1.0 / (sizes[k] * n_actions * sizes[k + 1])
    return q


class AdaptiveRate:
    """``η_t = 1 / (ℓ̄_t C √T)`` with ``ℓ̄_t = max_{τ<=t} ||ℓ_τ||_∞`` (Algorithm 2 line 7, Algorithm 4 line 12).

    Call it once per episode with ``ℓ_t``; ``ell_bar`` holds ``ℓ̄_t`` afterwards. Returns 0 while every loss
    so far is 0 (then ``η_t ℓ_t = 0`` whatever ``η_t``).
    """

    def __init__(self, C: float, T: int) -> None:
        if C <= 0 or T < 1:
            raise ValueError(f"need C > 0 and T >= 1, got C={C}, T={T}")
        self.C = float(C)
        self._scale = self.C * math.sqrt(T)
        self.ell_bar = 0.0

    @property
    def scale(self) -> float:
        """``C √T``, so that ``η_t = 1 / (ℓ̄_t · scale)``."""
        return self._scale

    def __call__(self, loss: np.ndarray) -> float:
        self.ell_bar = max(self.ell_bar, float(np.abs(loss).max()))
        return 1.0 / (self.ell_bar * self._scale) if self.ell_bar > 0.0 else 0.0

    def get_state(self) -> dict:
        """``ℓ̄_t`` (for a snapshot, :mod:`regretlab.core.snapshots`)."""
        return {"ell_bar": self.ell_bar}

    def set_state(self, state: dict) -> None:
        """Restore ``ℓ̄_t``."""
        self.ell_bar = float(state["ell_bar"])


class UCOGDPS:
    """The state of UC-O-GDPS: counters, confidence set, projector and ``q̂_t`` (INIT + Algorithm 3).

    Parameters
    ----------
    layer_sizes, n_actions : the layered state space and ``|A|`` (the learner knows ``X`` and ``A``, §3.1).
    T, delta : horizon and confidence ``δ`` of eq. (10).

    Attributes
    ----------
    q_hat : ``(|X|, |A|, |X|)``, the occupancy ``q̂_t`` whose policy is played in episode ``t``.
    policy : ``(|X|, |A|)``, ``π_t = π^{q̂_t}`` (eq. (4)).
    confidence : the counters and ``𝒫_i`` (:class:`~regretlab.cmdp.confidence.TransitionConfidence`).
    projector : the :class:`~regretlab.cmdp.projection.ConfidenceSetProjector` onto ``Δ(𝒫_i)``.

    Every array is updated in place (copy ``q_hat`` or ``policy`` to keep an episode's), so that the compiled
    episode loop of :mod:`regretlab.cmdp.simulate` can drive the same state with the same kernels.
    """

    def __init__(self, layer_sizes: Sequence[int], n_actions: int, T: int, delta: float) -> None:
        self.layer_sizes = check_layer_sizes(layer_sizes)
        self.n_actions = int(n_actions)
        self.confidence = TransitionConfidence(self.layer_sizes, self.n_actions, T, delta)
        self.q_hat = uniform_occupancy(self.layer_sizes, self.n_actions)
        self.policy = induced_policy(self.q_hat)
        self.projector = ConfidenceSetProjector(
            self.layer_sizes, self.n_actions, self.confidence.P_bar, self.confidence.epsilon
        )

    @property
    def epochs(self) -> int:
        """The epoch index ``i`` (number of epochs started so far)."""
        return self.confidence.epoch

    @property
    def fallbacks(self) -> int:
        """Projections, over all epochs so far, that needed the projector's robust fallback solver."""
        return self.projector.fallbacks

    def update(self, loss: np.ndarray, eta: float, trajectory: np.ndarray) -> None:
        """Algorithm 3 with inputs ``ℓ_t`` ``(|X|, |A|)``, ``η_t`` and the episode's ``(L, 3)`` trajectory."""
        self.confidence.observe(trajectory)  # lines 2-3
        if self.confidence.maybe_new_epoch():  # lines 4-7
            self.projector.set_confidence_set(self.confidence.P_bar, self.confidence.epsilon)
        # Line 8, with ℓ_t(x, a, x') = ℓ_t(x, a) (module docstring).
        self.q_hat[...] = self.projector.project(self.q_hat - (eta * loss)[:, :, None])
        induced_policy_into(self.q_hat, self.policy)  # Algorithm 4 line 13

    def get_state(self) -> dict:
        """Copies of everything that changes in a run: ``q̂``, the policy, the counters and confidence set,
        the projector's (for a snapshot, :mod:`regretlab.core.snapshots`)."""
        return {
            "q_hat": self.q_hat.copy(),
            "policy": self.policy.copy(),
            "confidence": self.confidence.get_state(),
            "projector": self.projector.get_state(),
        }

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state`'s values, in place."""
        np.copyto(self.q_hat, state["q_hat"])
        np.copyto(self.policy, state["policy"])
        self.confidence.set_state(state["confidence"])
        self.projector.set_state(state["projector"])
