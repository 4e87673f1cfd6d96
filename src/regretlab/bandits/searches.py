"""Paper 001's explicit bounds under attack: the space of each theorem's hypotheses that the falsification
search (:mod:`regretlab.analysis.falsification`) explores (:class:`regretlab.specs.search_spec.SearchSpec`).

Each display is a statement about every admissible step size, every graph of its class and every
(oblivious) loss sequence; the config's regimes evaluate it only at the tuned step sizes on a few instances.
A space spans the step sizes over their whole admissible range on a log scale (from the theorem's cap down
to where the bound's 1/η terms alone exceed T), graph sizes and the S/S̄ split, the best arm's mean loss and
the gap (so L* from 0 to linear), where the best arm sits (an instance draw), and stochastic or switching
losses. Adaptive adversaries are outside every space: paper 001's regret is against an oblivious sequence
(§2), and the switching adversary is the oblivious sequence that punishes a learner that commits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from regretlab.specs.search_spec import DECADE, Budget, Candidate, Dimension, SearchSpec

#: The two scales' budgets of a bandit search: the quick scale's runs are 2·10⁴ rounds (a few ms each, the
#: whole search of paper 001's bounds well within the default run's minute), the paper scale's 10⁵.
SCALES = {
    "quick": Budget(horizon=20_000, generations=3, population=4, finalists=3, confirm_seeds=4,
                    confirm_horizon=20_000),
    "paper": Budget(horizon=100_000, generations=15, population=8, finalists=5, confirm_seeds=10,
                    confirm_horizon=100_000),
}  # fmt: skip
SCALES["frontier"] = SCALES["paper"]

#: Where the best arm sits: the instance draw keys the instance's generator (and so the best arm).
_DRAW = Dimension("draw", 0, 7, "instance draw (where the best arm sits)", integer=True)
#: The loss sequence: 0 stochastic Bernoulli, 1 the switching adversary (a decoy best for `period` rounds).
_LOSSES = Dimension("switching", 0, 1, "losses: 0 Bernoulli, 1 switching adversary", integer=True)
_BEST = Dimension("best_mean", 0.0, 0.5, "best arm's mean loss (L*/T) in [0, 1/2]")
_GAP = Dimension("gap_share", 0.02, 1.0, "gap as a share of 1 − best mean (0.02 … the widest)")
_PERIOD = Dimension("log10_period", 1.0, 4.0, "switching period, 10 … 10⁴ rounds (log₁₀)")


def _losses(x: Mapping[str, float]) -> dict:
    """The losses entry of a strongly observable candidate: Bernoulli with the best arm's mean and a gap, or
    the switching adversary whose decoy is best for ``period`` rounds at a time."""
    best = float(x["best_mean"])
    gap = float(x["gap_share"]) * (1.0 - best)
    if int(x["switching"]):
        return {"kind": "switching", "best_mean": best, "decoy_mean": 0.0,
                "period": int(round(10 ** x["log10_period"]))}  # fmt: skip
    return {"kind": "bernoulli", "best_mean": best, "gap": gap}


def _strongly_observable(x: Mapping[str, float]) -> dict:
    """A strongly observable graph of the family that Figure 1 belongs to: cliques of one size with
    self-loops, and loopless nodes observed by every other node."""
    cliques, size, loopless = int(x["cliques"]), int(x["clique_size"]), int(x["loopless"])
    if cliques * size + loopless < 2:
        loopless = 2 - cliques * size
    return {"family": "strongly_observable", "clique_sizes": [size] * cliques, "n_no_self_loop": loopless}


def _arms(graph: dict) -> int:
    """K of a strongly observable candidate's graph entry."""
    return int(sum(graph["clique_sizes"])) + int(graph["n_no_self_loop"])


_STRONG_GRAPH = (
    Dimension("cliques", 1, 3, "cliques of S", integer=True),
    Dimension("clique_size", 1, 3, "nodes per clique", integer=True),
    Dimension("loopless", 0, 3, "loopless nodes S̄ (each observed by all others)", integer=True),
)


def _theorem2(x: Mapping[str, float], horizon: int) -> Candidate:
    """Theorem 2's learner at η = 10^{log10_eta} (c = 64K: the paper's constants)."""
    graph = _strongly_observable(x)
    instance = {"graph": graph, "losses": _losses(x)}
    return Candidate(instance, "theorem2", {"eta": 10 ** x["log10_eta"]}, draw=int(x["draw"]))


def _theorem3(x: Mapping[str, float], horizon: int) -> Candidate:
    """Theorem 3's learner at η = 10^{−u}/(64K), u ∈ [0, 3] (its hypothesis η ≤ 1/(64K), line 134)."""
    graph = _strongly_observable(x)
    eta = 10 ** (-x["eta_below_cap"]) / (64 * _arms(graph))
    instance = {"graph": graph, "losses": _losses(x)}
    return Candidate(instance, "theorem3", {"eta": eta}, draw=int(x["draw"]))


def _parts(x: Mapping[str, float], best_in: str) -> dict:
    """A ``bernoulli_parts`` losses entry: the best arm's mean and the other parts' means above it."""
    best = float(x["best_mean"])
    return {"kind": "bernoulli_parts", "best_in": best_in, "best_mean": best,
            "S_mean": best + float(x["S_share"]) * (1.0 - best),
            "S_bar_mean": best + float(x["S_bar_share"]) * (1.0 - best)}  # fmt: skip


_PARTS = (
    _BEST,
    Dimension("S_share", 0.0, 1.0, "the other S arms' mean, as a share of the way from the best's to 1"),
    Dimension("S_bar_share", 0.0, 1.0, "the other S̄ arms' mean, likewise"),
    _DRAW,
)


def _theorem7(best_in: str):
    """Theorem 7's candidates with the best arm in ``best_in``: Algorithm 2 (bipartite) at η ≤ 1/5 and
    η̄ ≤ 1/25 (line 248), each from its cap down four decades."""

    def candidate(x: Mapping[str, float], horizon: int) -> Candidate:
        graph = {"family": "directed_complete_bipartite", "n_self_loop": int(x["s"]),
                 "n_no_self_loop": int(x["s_bar"])}  # fmt: skip
        step = {"eta": 0.2 * 10 ** (-x["eta_below_cap"]), "eta_bar": 0.04 * 10 ** (-x["eta_bar_below_cap"])}
        instance = {"graph": graph, "losses": _parts(x, best_in)}
        return Candidate(instance, "algorithm2_bipartite", step, draw=int(x["draw"]))

    return candidate


_BIPARTITE = (
    Dimension("s", 1, 5, "s, the self-loop nodes", integer=True),
    Dimension("s_bar", 2, 8, "s̄, the loopless nodes", integer=True),
    Dimension("eta_below_cap", 0.0, 4.0, "η = (1/5)·10^{−u}: decades below Theorem 7's cap 1/5"),
    Dimension("eta_bar_below_cap", 0.0, 4.0, "η̄ = (1/25)·10^{−u}: decades below the cap 1/25"),
)


def _stars(x: Mapping[str, float]) -> dict:
    """A graph of stars, one to three, with one to four leaves each: d = the number of stars."""
    return {"family": "weakly_observable_stars", "leaf_counts": [int(x["leaves"])] * int(x["stars"])}


def _theorem8(best_in: str):
    """Theorem 8's candidates: Algorithm 2 (general) at δ ∈ [1/T, min{1/125, 1/(4s), 1/(4d)}], η ≤ 1/25 and
    η̄ ≤ δ^{4/3} (line 262), δ on a log scale over its whole range, η and η̄ four decades below their caps."""

    def candidate(x: Mapping[str, float], horizon: int) -> Candidate:
        graph = _stars(x)
        d = int(x["stars"])  # the hubs: s = d
        cap = min(1.0 / 125.0, 1.0 / (4 * d))
        # δ from the cap down to 1/T at the search's horizon: the share is of the log range [ln(1/T), ln cap]
        floor = 1.0 / horizon
        delta = math.exp(math.log(floor) + float(x["delta_share"]) * (math.log(cap) - math.log(floor)))
        step = {"delta": delta, "eta": 0.04 * 10 ** (-x["eta_below_cap"]),
                "eta_bar": delta ** (4.0 / 3.0) * 10 ** (-x["eta_bar_below_cap"])}  # fmt: skip
        instance = {"graph": graph, "losses": _parts(x, best_in)}
        return Candidate(instance, "algorithm2_weak", step, draw=int(x["draw"]))

    return candidate


_STARS = (
    Dimension("stars", 1, 3, "d, the stars (their hubs are S = D)", integer=True),
    Dimension("leaves", 1, 4, "leaves per star (S̄)", integer=True),
    Dimension("delta_share", 0.0, 1.0, "δ from 1/T (0) to min{1/125, 1/(4d)} (1), log scale"),
    Dimension("eta_below_cap", 0.0, 4.0, "η = (1/25)·10^{−u}: decades below Theorem 8's cap 1/25"),
    Dimension("eta_bar_below_cap", 0.0, 4.0, "η̄ = δ^{4/3}·10^{−u}: decades below its cap δ^{4/3}"),
)


def _theorem7_search(best_in: str, claim: str, bound: str, line: int, left_out: str) -> SearchSpec:
    """Theorem 7's search with the arm compared with in ``best_in``'s part (the statement at ``line``)."""
    part = "S" if best_in == "S" else "S̄"
    return SearchSpec(
        claim=claim,
        bound=bound,
        quantifies="every η ≤ 1/5 and η̄ ≤ 1/25, every directed complete bipartite graph, every oblivious "
        f"loss sequence; i = the best arm of {part} (Theorem 7, line {line})",
        dimensions=(*_BIPARTITE, *_PARTS),
        candidate=_theorem7(best_in),
        scales=SCALES,
        left_out=left_out,
    )


def _theorem8_search(best_in: str, claim: str, bound: str, line: int) -> SearchSpec:
    """Theorem 8's search with the arm compared with in ``best_in``'s part (the statement at ``line``)."""
    part = "S" if best_in == "S" else "S̄"
    return SearchSpec(
        claim=claim,
        bound=bound,
        quantifies="every 1/T ≤ δ ≤ min{1/125, 1/(4s), 1/(4d)}, η ≤ 1/25, η̄ ≤ δ^{4/3}, every weakly "
        f"observable graph, every oblivious loss sequence; i = the best arm of {part} (Theorem 8, "
        f"line {line})",
        dimensions=(*_STARS, *_PARTS),
        candidate=_theorem8(best_in),
        scales=SCALES,
        left_out="weakly observable graphs other than unions of stars",
    )


#: A rate's search runs each candidate at T and 10T (regretlab.falsification.search.rate_trial): the quick
#: scale's decade is 2·10³ → 2·10⁴, confirmed over 2·10⁴ → 2·10⁵; the paper scale's one decade later.
RATE_SCALES = {
    "quick": Budget(horizon=2_000, generations=3, population=4, finalists=3, confirm_seeds=4,
                    confirm_horizon=20_000),
    "paper": Budget(horizon=20_000, generations=10, population=8, finalists=5, confirm_seeds=10,
                    confirm_horizon=200_000),
}  # fmt: skip
RATE_SCALES["frontier"] = RATE_SCALES["paper"]


def _exp3g(x: Mapping[str, float], horizon: int) -> Candidate:
    """Exp3.G at its tuning (η = 1/√(αT)) on Bernoulli losses with a fixed gap: the rate's claim."""
    losses = {"kind": "bernoulli", "best_mean": float(x["best_mean"]),
              "gap": float(x["gap_share"]) * (1.0 - float(x["best_mean"]))}  # fmt: skip
    instance = {"graph": _strongly_observable(x), "losses": losses}
    return Candidate(instance, "exp3g", {}, draw=int(x["draw"]))


def _exp3g_weak(x: Mapping[str, float], horizon: int) -> Candidate:
    """Exp3.G-weak at γ ∈ [10⁻³, 1/2] and η ∈ [10⁻⁵, 1], the range the derived bound claims (γ ≤ 1/2,
    η > 0) down to where its ln K/η alone exceeds T."""
    step = {"gamma": 0.5 * 10 ** (-x["gamma_below_half"]), "eta": 10 ** x["log10_eta"]}
    best_in = "S" if int(x["best_in_S"]) else "S_bar"
    instance = {"graph": _stars(x), "losses": _parts(x, best_in)}
    return Candidate(instance, "exp3g_weak", step, draw=int(x["draw"]))


SEARCHES: dict[str, SearchSpec] = {
    "theorem2_bound": SearchSpec(
        claim="theorem2",
        bound="theorem2_bound",
        quantifies="every η > 0 at c = 64K, every strongly observable graph, every oblivious loss sequence "
        "(Theorem 2, line 120; the proof's display, line 414)",
        dimensions=(
            *_STRONG_GRAPH,
            Dimension("log10_eta", -4.3, 0.0, "η from 1/(2·10⁴) to 1 (log₁₀)"),
            _BEST,
            _GAP,
            _LOSSES,
            _PERIOD,
            _DRAW,
        ),  # fmt: skip
        candidate=_theorem2,
        scales=SCALES,
    ),
    "theorem3_bound": SearchSpec(
        claim="theorem3",
        bound="theorem3_bound",
        quantifies="every η ≤ 1/(64K) at c = 64K, every strongly observable graph, every oblivious loss "
        "sequence (Theorem 3, line 134; the proof's display, line 480)",
        dimensions=(
            *_STRONG_GRAPH,
            Dimension("eta_below_cap", 0.0, 3.0, "η = 10^{−u}/(64K), u decades"),
            _BEST,
            _GAP,
            _LOSSES,
            _PERIOD,
            _DRAW,
        ),  # fmt: skip
        candidate=_theorem3,
        scales=SCALES,
    ),
    "theorem7_best_S": _theorem7_search(
        "S", "theorem7_S", "theorem7_best_S", 248,
        "arms i ∈ S other than the best of S (their Reg_i is smaller by L_i − L_{i*_S}, their bound by less)",
    ),
    "theorem7_best_Sbar": _theorem7_search(
        "S_bar", "theorem7_Sbar", "theorem7_best_Sbar", 250, "arms i ∈ S̄ other than the best of S̄"
    ),
    "theorem8_best_S_third": _theorem8_search("S", "theorem8_S", "theorem8_best_S_third", 262),
    "theorem8_best_Sbar_third": _theorem8_search("S_bar", "theorem8_Sbar", "theorem8_best_Sbar_third", 264),
    "exp3g_weak_bound": SearchSpec(
        claim="exp3g_weak",
        bound="exp3g_weak_bound",
        quantifies="every γ ≤ 1/2 and η > 0, every weakly observable graph with the hypothesis H, every "
        "oblivious loss sequence (the bound derived here, regretlab.bandits.bounds.exp3g_weak_bound)",
        dimensions=(
            Dimension("stars", 1, 3, "d, the stars", integer=True),
            Dimension("leaves", 1, 4, "leaves per star", integer=True),
            Dimension("gamma_below_half", 0.0, 2.7, "γ = (1/2)·10^{−u}, down to 10⁻³"),
            Dimension("log10_eta", -5.0, 0.0, "η from 10⁻⁵ to 1 (log₁₀)"),
            Dimension("best_in_S", 0, 1, "the best arm a hub (1) or a leaf (0)", integer=True),
            *_PARTS,
        ),
        candidate=_exp3g_weak,
        scales=SCALES,
        left_out="weakly observable graphs other than unions of stars",
    ),
}
#: A restarting learner's rate is judged between the first and last epoch ends in [T, 100T] (each epoch is
#: about four times the last: a decade holds one or two ends). Algorithm 6's first reset comes after ≈ 25s/μ
#: rounds on losses of mean μ (s/η₁² with η₁ = 1/5), Algorithm 7's at γ = 1/2 after 125²/(dμ) (δ₁^{−2}).
RESTART_WINDOW = DECADE**2
ALGORITHM6_SCALES = {
    "quick": Budget(horizon=500, generations=2, population=2, finalists=2, confirm_seeds=3,
                    confirm_horizon=1_000),
    "paper": Budget(horizon=2_000, generations=8, population=6, finalists=4, confirm_seeds=8,
                    confirm_horizon=20_000),
}  # fmt: skip
ALGORITHM7_SCALES = {
    "quick": Budget(horizon=5_000, generations=2, population=2, finalists=2, confirm_seeds=3,
                    confirm_horizon=5_000),
    "paper": Budget(horizon=10_000, generations=8, population=6, finalists=4, confirm_seeds=8,
                    confirm_horizon=100_000),
}  # fmt: skip
for _scales in (ALGORITHM6_SCALES, ALGORITHM7_SCALES):
    _scales["frontier"] = _scales["paper"]


def _algorithm6(x: Mapping[str, float], horizon: int) -> Candidate:
    """Algorithm 6 (no free constant: η₁ = min{1/5, 1/s}) on a directed complete bipartite graph, the best
    arm in S (Theorem 17, i* ∈ S)."""
    graph = {"family": "directed_complete_bipartite", "n_self_loop": int(x["s"]),
             "n_no_self_loop": int(x["s_bar"])}  # fmt: skip
    return Candidate({"graph": graph, "losses": _parts(x, "S")}, "algorithm6", {}, draw=int(x["draw"]))


def _algorithm7_half(x: Mapping[str, float], horizon: int) -> Candidate:
    """Algorithm 7 at γ = 1/2 with the paper's δ₁ on a union of stars, the best arm a hub (in S = D; Theorem
    18, i* ∈ S)."""
    instance = {"graph": _stars(x), "losses": _parts(x, "S")}
    return Candidate(instance, "algorithm7_half", {}, draw=int(x["draw"]))


# The rates: the steepest slope per decade, where the learner learns, against the band its fit accepts.
# A restarting learner's regret is a saw-tooth (Algorithms 4, 6 and 7 start over at data-dependent rounds):
# its slope is measured between epoch ends (regretlab.analysis.epoch_ends), over RESTART_WINDOW. Its stated
# rates are rejected by the fits already (docs/findings.md, finding 1): the search attacks the corrected ones.
SEARCHES |= {
    "exp3g_rate": SearchSpec(
        claim="exp3g_fixed_gap",
        bound="exp3g_rate",
        quantifies="every strongly observable graph, every Bernoulli loss sequence with a fixed gap "
        "(Exp3.G's Õ(√(αT)), §3.1, line 98): the slope in T over a decade",
        dimensions=(*_STRONG_GRAPH, _BEST, _GAP, _DRAW),
        candidate=_exp3g,
        scales=RATE_SCALES,
        left_out="switching and other oblivious sequences (the claim is about fixed gaps)",
    ),
    "theorem17_best_S_corrected": SearchSpec(
        claim="theorem17_S_corrected",
        bound="theorem17_best_S_corrected",
        quantifies="every directed complete bipartite graph, every Bernoulli loss sequence with the best arm "
        "in S (Theorem 17, line 1119, corrected: docs/findings.md, finding 1): the slope in T between "
        "epoch ends over two decades",
        dimensions=(*_BIPARTITE[:2], *_PARTS),
        candidate=_algorithm6,
        scales=ALGORITHM6_SCALES,
        left_out="switching and adaptive sequences; Algorithm 6's own η₁ (no free constant)",
        window=RESTART_WINDOW,
    ),
    "theorem18_best_S_half_corrected": SearchSpec(
        claim="theorem18_S_corrected",
        bound="theorem18_best_S_half_corrected",
        quantifies="every union of stars, every Bernoulli loss sequence with the best arm a hub, γ = 1/2 "
        "(Theorem 18, line 1331, corrected: docs/findings.md, finding 1): the slope in T between epoch ends "
        "over two decades",
        dimensions=(*_STARS[:2], *_PARTS),
        candidate=_algorithm7_half,
        scales=ALGORITHM7_SCALES,
        left_out="weakly observable graphs other than unions of stars; switching and adaptive sequences",
        window=RESTART_WINDOW,
    ),
}  # fmt: skip
# The corrected displays of docs/findings.md (finding 1) under the same attack as the stated ones.
_CORRECTED = (
    ("theorem7_best_S", "theorem7_best_S_corrected", "theorem7_S_corrected"),
    ("theorem8_best_S_third", "theorem8_best_S_corrected", "theorem8_S_corrected"),
)
for _stated, _corrected, _claim in _CORRECTED:
    SEARCHES[_corrected] = replace(
        SEARCHES[_stated], claim=_claim, bound=_corrected,
        quantifies=f"the space of {_stated}: the corrected display (docs/findings.md, finding 1) under the "
        "same attack",
    )  # fmt: skip
