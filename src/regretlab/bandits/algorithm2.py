"""Algorithm 2 of paper 001 (§4, lines 216–230) with the tunings of Theorem 7 and Theorem 8.

Each round (line by line):

* play i_t ~ p_t and observe ℓ_{t,i} for every i with i_t ∈ N_in(i) (line 224);
* ℓ̂_{t,i} = ℓ_{t,i}/W_{t,i} · 1{i_t ∈ N_in(i)}, W_{t,i} = Σ_{j∈N_in(i)} p_{t,j} (eq. (1), line 226);
* a_{t,i} = 2η p_{t,i} ℓ̂²_{t,i} on S, 2η̄ ℓ̂²_{t,i} on S̄ (line 228);
* p_{t+1} = argmin_{p∈Ω} ⟨p, ℓ̂_t + a_t⟩ + D_ψ(p, p_t), ψ = (1/η)Σ_S ln(1/p_i) + (1/η̄)Σ_S̄ p_i ln p_i
  (line 230; ψ: line 220), solved exactly by :func:`regretlab.bandits.omd_weak.weak_hybrid_step`.

Decision sets and tunings (L is the oracle total loss the theorem tunes with, handed in like Theorems 3–4's
L*: ``L_best_S`` = L_{i*_S} for Theorem 7, ``L_D`` = (1/d)Σ_{i∈D} L_i for Theorem 8, of the seed's sequence):

* Theorem 7 (directed complete bipartite, lines 244–252): Ω = {Σ_S p ≥ √η̄}, η = min{√(s/L), 1/5},
  η̄ = min{L^{−2/3}, 1/25}.
* Theorem 8 (weakly observable, lines 258–268): Ω = {p_i ≥ δ ∀i∈D}, D a minimum weakly dominating set,
  γ ∈ {1/3, 1/2}, δ = min{1/125, 1/(4s), 1/(4d), L^{−γ}}, η = min{L^{−1/2}, 1/25},
  η̄ = min{√(δ/L), δ^{4/3}}.

Theorem 8's ``tuned`` preset replaces the numerical constants by 1 where Ω stays non-degenerate: 1/125 → 1,
1/(4s) → 1/s, 1/(4d) → 1/(2d) (with 1/d the bounds on D could take all the mass, leaving Ω no interior),
1/25 → 1; the exponents (L^{−γ}, δ^{4/3}, …) are kept. Theorem 7 has ``paper`` only: its caps 1/5 and 1/25 are
no proof's slack but the conditions of Lemma 6 (W_i ≥ Σ_S p ≥ √η̄ ≥ 5η̄ needs η̄ ≤ 1/25), and they bind only
when L_{i*_S} < 25s (η) or < 125 (η̄) — at every other instance a preset lifting them runs bit-identically
to ``paper``, and where they bind s ln T/η ≥ s ln T/√(s/L) dominates the regret anyway.

Choices where the text is silent (docs/choices-paper001.md):

* p_1 (line 222) is 1/(2s) on S and 1/(2s̄) on S̄; with S = ∅ (possible in Theorem 8: a weakly observable
  graph needs S̄ ≠ ∅ but not S ≠ ∅) it is uniform 1/s̄ on S̄. The paper does not say whether p_1 ∈ Ω; when
  it is not (Theorem 8 with 1/(2s̄) < δ for some S̄ node of D, i.e. s̄ > 1/(2δ)) p_1 is replaced by its
  Bregman projection argmin_{p∈Ω} D_ψ(p, p_1) (the same kernel with g = 0; identity when p_1 ∈ Ω).
* L = 0 makes L^{−a} infinite: the caps apply (the min with +∞).
* Lemma 6 (line 238) needs Σ_{j∈N_in(i)} p_{t,j} ≥ 5η̄ for every i ∈ S̄ at every round; it is checked at
  every round and recorded as the hypothesis ``lemma6_every_round`` (with the smallest ratio
  W_{t,i}/(5η̄) as the parameter ``lemma6_min_ratio``). It holds by construction under the theorems'
  conditions (Theorem 7: W_i ≥ Σ_S p ≥ √η̄ ≥ 5η̄ iff η̄ ≤ 1/25; Theorem 8: W_i ≥ δ ≥ 5η̄ when
  η̄ ≤ δ^{4/3} and δ ≤ 1/125), so ``tuned`` may break it; the check says when.
* Theorem 7's graph: only what the proof uses is required — every S node observes every S̄ node (then
  W_i ≥ Σ_S p for i ∈ S̄), s ≥ 1, and the graph is weakly observable.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from regretlab.bandits.omd_weak import weak_hybrid_step
from regretlab.bandits.presets import require_preset, with_step
from regretlab.bandits.tracking import Tracker, sample_arm, track_round
from regretlab.core.kernels import kernel
from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.observability import Observability

#: Lemma 6's condition is compared with this relative slack: Theorem 7's Ω makes it hold with equality
#: (Σ_S p = √η̄ = 5η̄ at η̄ = 1/25), where rounding must not count as a failure.
_LEMMA6_RTOL = 1e-9


@kernel
def observation_probabilities(p, adjacency, out):
    """``W_i = Σ_{j ∈ N_in(i)} p_j`` for every node i (eq. (1)); writes ``out``."""
    k = p.shape[0]
    for i in range(k):
        w = 0.0
        for j in range(k):
            if adjacency[j, i]:
                w += p[j]
        out[i] = w


@kernel
def corrected_loss(loss_est, p, in_s, eta, eta_bar, out):
    """Line 2's ℓ̂_t + a_t: a_{t,i} = 2η p_{t,i} ℓ̂²_{t,i} on S and 2η̄ ℓ̂²_{t,i} on S̄ (Algorithms 2, 6, 7)."""
    for i in range(loss_est.shape[0]):
        est = loss_est[i]
        if in_s[i]:
            out[i] = est + 2.0 * eta * p[i] * est * est
        else:
            out[i] = est + 2.0 * eta_bar * est * est


class Algorithm2Setup(NamedTuple):
    """The constants of a run (Theorem 7's or Theorem 8's tuning).

    Attributes:
        in_s: ``(K,)`` bool, the arms with a self-loop (S).
        eta: η, the learning rate on S.
        eta_bar: η̄, the learning rate on S̄.
        lower: ``(K,)`` Ω's lower bounds: δ on D (Theorem 8), 0 elsewhere.
        theta: θ, Ω's bound on Σ_{i∈S} p_i (Theorem 7's √η̄; 0 for Theorem 8).
        adjacency: ``(K, K)`` bool, the feedback graph (``adjacency[i, j]``: playing i reveals ℓ_j).
    """

    in_s: np.ndarray
    eta: float
    eta_bar: float
    lower: np.ndarray
    theta: float
    adjacency: np.ndarray


class Algorithm2State(NamedTuple):
    """The learner's state, updated in place by :func:`_play_chunk`.

    Attributes:
        p: ``(K,)`` p_t.
        observe: ``(K,)`` scratch: W_{t,i} for every i (Lemma 6 needs it on all of S̄), then eq. (1)'s ℓ̂_{t,i}.
        g: ``(K,)`` scratch for line 2's ℓ̂_t + a_t.
        lemma6: ``(1,)`` min over the rounds so far and i ∈ S̄ of W_{t,i} (+inf before round 1).
    """

    p: np.ndarray
    observe: np.ndarray
    g: np.ndarray
    lemma6: np.ndarray


@kernel
def _play_chunk(setup, state, losses, uniforms, t0, tracker):
    """Rounds ``t0+1 … t0+n`` of Algorithm 2 (lines 224–230)."""
    in_s, eta, eta_bar, lower, theta, adjacency = setup
    p, observe, g, lemma6 = state
    k = p.shape[0]
    for r in range(losses.shape[0]):
        arm = sample_arm(p, uniforms[r])
        track_round(t0 + r + 1, losses[r], p, arm, tracker)
        observation_probabilities(p, adjacency, observe)
        for i in range(k):
            if not in_s[i]:
                lemma6[0] = min(lemma6[0], observe[i])
            observe[i] = losses[r, i] / observe[i] if adjacency[arm, i] else 0.0
        corrected_loss(observe, p, in_s, eta, eta_bar, g)
        weak_hybrid_step(p, g, in_s, eta, eta_bar, lower, theta, p)


def _power(value: float, exponent: float) -> float:
    """``value ** exponent`` with ``0 ** (negative) = +inf`` (then the caps of the tunings apply)."""
    return math.inf if value <= 0 else value**exponent


def theorem7_tuning(s: int, l_best_s: float) -> dict:
    """Theorem 7's η = min{√(s/L), 1/5}, η̄ = min{L^{−2/3}, 1/25}, θ = √η̄ (lines 248–252)."""
    eta = min(math.sqrt(_power(l_best_s / s, -1.0)), 0.2)
    eta_bar = min(_power(l_best_s, -2.0 / 3.0), 1.0 / 25.0)
    return {"eta": eta, "eta_bar": eta_bar, "delta": 0.0, "theta": math.sqrt(eta_bar)}


def theorem8_tuning(s: int, d: int, l_d: float, gamma: float, constants: str) -> dict:
    """Theorem 8's δ = min{1/125, 1/(4s), 1/(4d), L_D^{−γ}}, η = min{L_D^{−1/2}, 1/25},
    η̄ = min{√(δ/L_D), δ^{4/3}} (``tuned``: 1/125 → 1, 1/(4s) → 1/s, 1/(4d) → 1/(2d), 1/25 → 1)."""
    paper = constants == "paper"
    caps = [1.0 / 125.0 if paper else 1.0, 1.0 / (4 * d) if paper else 1.0 / (2 * d)]
    if s > 0:
        caps.append(1.0 / (4 * s) if paper else 1.0 / s)
    delta = min(*caps, _power(l_d, -gamma))
    eta = min(_power(l_d, -0.5), 1.0 / 25.0 if paper else 1.0)
    eta_bar = min(math.sqrt(_power(l_d / delta, -1.0)), delta ** (4.0 / 3.0))
    return {"eta": eta, "eta_bar": eta_bar, "delta": delta, "theta": 0.0}


def completes_bipartite(graph: FeedbackGraph) -> bool:
    """True when s ≥ 1, s̄ ≥ 1 and every node of S observes every node of S̄ (what Theorem 7's proof uses)."""
    s_nodes, s_bar_nodes = graph.S, graph.S_bar
    return bool(s_nodes.size and s_bar_nodes.size and graph.adjacency[np.ix_(s_nodes, s_bar_nodes)].all())


#: The step sizes each variant's theorem quantifies over, which ``step`` may set by hand (Theorem 7: η ≤ 1/5,
#: η̄ ≤ 1/25, line 248; Theorem 8: 1/T ≤ δ ≤ min{1/125, 1/(4s), 1/(4d)}, η ≤ 1/25, η̄ ≤ δ^{4/3}, line 262).
FREE = {"bipartite": ("eta", "eta_bar"), "weak": ("eta", "eta_bar", "delta")}

#: The constants presets of each variant (the module docstring says why Theorem 7 has no ``tuned``).
PRESETS = {"bipartite": ("paper",), "weak": ("paper", "tuned")}


class Algorithm2:
    """Algorithm 2 for one run. ``variant``: ``"bipartite"`` (Theorem 7) or ``"weak"`` (Theorem 8 with
    ``gamma``); ``oracle_loss``: L_{i*_S} (bipartite) or L_D (weak) of the run's loss sequence.

    Raises ValueError on a graph that is not weakly observable (or, for ``"bipartite"``, whose S nodes do
    not all observe every S̄ node), an unknown variant, or a preset the variant does not have.
    """

    def __init__(
        self,
        graph: FeedbackGraph,
        horizon: int,
        rng: np.random.Generator,
        constants: str,
        variant: str,
        oracle_loss: float,
        gamma: float | None = None,
        step: dict | None = None,
    ) -> None:
        if variant not in PRESETS:
            raise ValueError(f"variant must be 'bipartite' or 'weak', got {variant!r}")
        require_preset(f"Algorithm 2 ({variant})", PRESETS[variant], constants)
        self.presets = PRESETS[variant]  # the learner protocol's presets, per variant
        graph.require_observability(Observability.WEAK, "Algorithm 2", exact=True)
        k = graph.n_arms
        in_s = np.zeros(k, dtype=bool)
        in_s[graph.S] = True
        s, s_bar = graph.s, graph.s_bar
        dominating = graph.weakly_dominating_set
        lower = np.zeros(k)
        if variant == "bipartite":
            if not completes_bipartite(graph):
                raise ValueError("Algorithm 2 (Theorem 7) needs every node of S to observe every node of S̄")
            tuning = theorem7_tuning(s, oracle_loss)
            tuning = with_step("Algorithm 2 (Theorem 7)", tuning, step, FREE[variant])
            tuning["theta"] = math.sqrt(tuning["eta_bar"])
            hypotheses = {
                "eta_at_most_1_5": tuning["eta"] <= 0.2,
                "eta_bar_at_most_1_25": tuning["eta_bar"] <= 0.04,
            }
        else:
            if gamma is None or not 1.0 / 3.0 <= gamma <= 0.5:
                raise ValueError(f"Theorem 8 needs γ ∈ [1/3, 1/2], got {gamma}")
            tuning = theorem8_tuning(s, dominating.value, oracle_loss, gamma, constants)
            tuning = with_step("Algorithm 2 (Theorem 8)", tuning, step, FREE[variant])
            delta = tuning["delta"]
            lower[list(dominating.members)] = delta
            delta_cap = min(1.0 / 125.0, 1.0 / (4 * dominating.value), 1.0 / (4 * s) if s else math.inf)
            hypotheses = {
                "delta_in_range": 1.0 / horizon <= delta <= delta_cap,
                "eta_at_most_1_25": tuning["eta"] <= 0.04,
                "eta_bar_at_most_delta_4_3": tuning["eta_bar"] <= delta ** (4.0 / 3.0),
            }
        eta, eta_bar, theta = tuning["eta"], tuning["eta_bar"], tuning["theta"]
        self.setup = Algorithm2Setup(in_s, eta, eta_bar, lower, theta, np.ascontiguousarray(graph.adjacency))
        p = np.full(k, 1.0 / s_bar) if s == 0 else np.where(in_s, 1.0 / (2 * s), 1.0 / (2 * s_bar))
        weak_hybrid_step(p, np.zeros(k), in_s, eta, eta_bar, lower, theta, p)
        self.state = Algorithm2State(p=p, observe=np.zeros(k), g=np.zeros(k), lemma6=np.array([math.inf]))
        self._rng = rng
        self._hypotheses = hypotheses
        self.params = {
            **tuning,
            "variant": variant,
            "gamma": gamma,
            "oracle_loss": oracle_loss,
            "s": s,
            "s_bar": s_bar,
            "D": list(dominating.members),
            "constants": constants,
        }

    @property
    def p(self) -> np.ndarray:
        """``(K,)`` p_t, the distribution played next."""
        return self.state.p

    @property
    def in_s(self) -> np.ndarray:
        """``(K,)`` bool, S."""
        return self.setup.in_s

    @property
    def lower(self) -> np.ndarray:
        """``(K,)`` Ω's lower bounds."""
        return self.setup.lower

    @property
    def eta(self) -> float:
        """η."""
        return self.setup.eta

    @property
    def eta_bar(self) -> float:
        """η̄."""
        return self.setup.eta_bar

    @property
    def theta(self) -> float:
        """θ."""
        return self.setup.theta

    @property
    def lemma6_min_ratio(self) -> float:
        """min over the rounds so far and i ∈ S̄ of W_{t,i}/(5η̄) (Lemma 6 needs ≥ 1; +inf before round 1)."""
        return float(self.state.lemma6[0] / (5.0 * self.eta_bar))

    @property
    def hypotheses(self) -> dict:
        """The theorem's conditions on this run, with Lemma 6's checked over the rounds played so far."""
        return {**self._hypotheses, "lemma6_every_round": self.lemma6_min_ratio >= 1.0 - _LEMMA6_RTOL}

    def play(self, losses: np.ndarray, t0: int, tracker: Tracker) -> None:
        """Play the rounds whose losses are ``losses (n, K)``, the first being round ``t0 + 1``."""
        uniforms = self._rng.random(losses.shape[0])
        _play_chunk(self.setup, self.state, losses, uniforms, t0, tracker)
        self.params["lemma6_min_ratio"] = self.lemma6_min_ratio
