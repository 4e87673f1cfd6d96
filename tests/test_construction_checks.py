"""Construction checks that a wrong learner fails (issue 33, item 5). A construction check holds for every
sequence of policies of the algorithm it is about; it has power only if a learner built wrongly would fail it.

- Lemma 14 (paper 000, line 1017): λ_{t+1,i} ≥ ηV̂_{t,i} while the dual is unclipped. Its check on the recorded
  estimated violation V̂_t fails for a dual held at 0 (the primal played alone, reported with PDGD-OPS's η)
  wherever V̂_t > 0; the check on the true violation V_t (with Lemma 15's step, + Σ‖q − q̂‖₁) fails it only
  where V_t exceeds the occupancy error (on the default run's instances it does not: issue 33).
- Lemma 2 (line 233): Σ‖q − q̂‖₁ ≤ E^q_δ. Its check catches a wrong E^q_δ, not confidence radii too small: a
  learner whose radii are shrunk a millionfold still passes it (its measured error moves with its sets).
  Lemma 5's check is the one that catches such radii (tests/cmdp/test_cmdp_simulate.py).
- Lemma 9 (paper 001, line 280): ½p_t ≼ p_{t+1} ≼ 2p_t for Theorems 2 and 3's OMD steps. Their runs record the
  largest |ln(p_{t+1,i}/p_{t,i})|; it stays below ln 2 at every η the theorems allow with c = 64K (Lemma 10
  needs nothing of η), and a learner whose log-barrier weight is far below 64K moves p by e^5 or more.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from regretlab.bandits.algorithms import make_learner as make_bandit_learner
from regretlab.bandits.instance import build_instance
from regretlab.bandits.simulate import simulate as simulate_bandit
from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.bounds import lemma2_Eq
from regretlab.cmdp.environments import make_environment
from regretlab.cmdp.instance import make_layered_cmdp
from regretlab.cmdp.simulate import simulate
from regretlab.registry.theory import BOUNDS

T, DELTA = 2000, 0.1


@functools.cache
def _instance():
    cmdp = make_layered_cmdp(np.random.default_rng(61), 3, 2, 2, 1, 0.3)
    return cmdp, make_environment(cmdp, np.random.default_rng(62))


def _run(algorithm: str, radius_scale: float = 1.0):
    cmdp, environment = _instance()
    extra = ("tuned",) if algorithm == "pdgd_ops" else ()
    learner = make_learner(algorithm, cmdp.layer_sizes, cmdp.n_actions, cmdp.m, T, DELTA, *extra)
    confidence = learner.primal.confidence
    confidence._eps_numerator = confidence.eps_numerator * radius_scale
    frame, _ = simulate(learner, cmdp, environment, T, np.random.default_rng(63), np.random.default_rng(64))
    return frame, learner


def test_lemma14s_check_holds_for_pdgd_ops_and_fails_for_a_dual_held_at_zero():
    """The recorded shortfall max_i (ηV̂_{t,i} − λ_{t+1,i}) is at most the bound (0 plus rounding) at every
    checkpoint of PDGD-OPS, and equal to it while the dual never touched 0; a dual held at 0 (the same primal,
    reported with PDGD-OPS's η) has the shortfall ηV̂_t, above the bound wherever V̂_t > 0."""
    spec = BOUNDS["lemma14_dual"]
    frame, learner = _run("pdgd_ops")
    eta = learner.constants.eta
    assert (frame["dual_clipped"] == 0).all() and (frame["violation_hat"] > 0).any()
    bounds = [spec.evaluate(point) for point in frame.to_dict("records")]
    assert (frame["dual_shortfall"] <= bounds).all()
    held, _ = _run("uc_o_gdps")  # the same primal learner, its dual never moving from 0
    assert (held["lambda_l1_max"] == 0).all()
    shortfall = eta * held["violation_hat"] - 0.0
    bounds = [spec.evaluate(point) for point in held.to_dict("records")]
    positive = held["violation_hat"] > 0
    assert positive.sum() >= 10 and (shortfall[positive] > np.array(bounds)[positive]).all()


def test_lemma2s_check_catches_a_wrong_bound_not_radii_too_small():
    frame, _ = _run("pdgd_ops")
    cmdp, _ = _instance()
    Eq = lemma2_Eq(T, DELTA, cmdp.L, cmdp.n_states, cmdp.n_actions).value
    error = frame["q_error_l1"].iloc[-1]
    factor = Eq / error  # an E^q_δ smaller by more than this factor would fail the check
    assert error <= Eq and error > Eq / (factor * 1.01)
    shrunk, _ = _run("pdgd_ops", radius_scale=1e-6)
    assert shrunk["q_error_l1"].iloc[-1] <= Eq  # radii a millionfold too small: Lemma 2's check still passes
    assert shrunk["coverage_ratio_max"].iloc[-1] > 1  # ... while Lemma 5's sees the sets miss P


def _largest_step(algorithm: str, eta: float, c: float | None = None) -> float:
    """Lemma 9's recorded max |ln(p_{t+1,i}/p_{t,i})| of one run on the Figure-1 graph (wide gap), at η set by
    hand and, for a deliberately wrong learner, the log-barrier weight ``c`` replaced."""
    entry = {"graph": {"family": "figure1"}, "losses": {"kind": "bernoulli", "best_mean": 0.01, "gap": 0.98}}
    bandit = build_instance(entry, np.random.default_rng(0))
    learner = make_bandit_learner(algorithm, bandit, 5000, np.random.default_rng(1), "paper",
                                  {"L_star": 50.0}, {"eta": eta})  # fmt: skip
    if c is not None:
        learner.setup = learner.setup._replace(c=c)
    frame = simulate_bandit(learner, bandit, 5000, np.random.default_rng(2))
    return float(frame["lemma9_log_ratio"].iloc[-1])


@pytest.mark.parametrize("algorithm", ["theorem2", "theorem3"])
def test_lemma9s_check_holds_at_every_eta_and_fails_without_the_log_barrier(algorithm):
    spec = BOUNDS["lemma9_step_ratio"]
    limit = spec.evaluate({})
    for eta in (1e-4, 1.0 / (64 * 7), 1.0):  # Lemma 9 asks nothing of η: c = 64K is enough (Lemma 10)
        assert 0.0 < _largest_step(algorithm, eta) <= limit
    assert _largest_step(algorithm, 1.0, c=1e-3) > 5.0 * limit
