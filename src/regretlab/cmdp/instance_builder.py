"""A constrained-MDP instance from its config entry, as the instance job writes it and a run at horizon T
plays it.

The instance file holds the CMDP (P, r̄, Ḡ, OPT, q*, ρ, q°), the environment (the r_t, G_t sequences) and the
numbers the bounds need, among them the instance family and how its constraints act on the offline problem
(``regretlab.cmdp.instance.ConstraintSummary``: λ*, the unconstrained optimum and its violation, ``binds``).
"""

from __future__ import annotations

import numpy as np

from regretlab.cmdp.dual import paper_dual_box_horizon
from regretlab.cmdp.environments import CMDPEnvironment, make_environment
from regretlab.cmdp.instance import CMDP, constraint_summary, make_cmdp, make_explicit_cmdp
from regretlab.core.io import write_json
from regretlab.core.seeding import job_seed_sequence


def rho_at(spec: dict, horizon: int | None) -> float:
    """The feasibility parameter of an instance at horizon T: ``rho · (T / rho_reference_T)^(-rho_exponent)``.

    With ``rho_exponent = 0`` (the default) it is ``rho`` at every horizon; Theorem 6's regime uses
    ``rho_exponent = 1/4`` (ρ shrinking like T^{-1/4}, so that Condition 2 fails ever more). ``horizon=None``
    gives ``rho`` itself (the instance file).
    """
    if horizon is None or spec["rho_exponent"] == 0:
        return spec["rho"]
    return spec["rho"] * (horizon / spec["rho_reference_T"]) ** (-spec["rho_exponent"])


#: The fields a generated family's entry needs and an explicit one (``family: explicit``) must not give: its
#: ``mdp`` block fixes the sizes, and ρ is computed from it.
GENERATOR_FIELDS = ("n_layers", "states_per_layer", "n_actions", "m", "rho")


def make_instance_cmdp(spec: dict, rng: np.random.Generator, horizon: int | None = None) -> CMDP:
    """The CMDP of a validated entry: given by hand (``family: explicit``,
    :func:`~regretlab.cmdp.instance.make_explicit_cmdp`) or drawn by its family's generator at the ρ of
    ``horizon`` (:func:`~regretlab.cmdp.instance.make_cmdp`). Raises ``ValueError`` naming the field."""
    generated = ", ".join(GENERATOR_FIELDS)
    if spec["family"] == "explicit":
        extra = [field for field in GENERATOR_FIELDS if field in spec]
        extra += ["rho_exponent"] if spec.get("rho_exponent", 0) != 0 else []
        if "mdp" not in spec:
            raise ValueError("mdp is required with family explicit: the CMDP by hand (reward, constraint, …)")
        if extra:
            raise ValueError(
                f"{extra[0]} is not read with family explicit: mdp gives the sizes and ρ is computed from it "
                f"(remove {', '.join(extra)})"
            )
        return make_explicit_cmdp(spec["mdp"])
    if "mdp" in spec:
        raise ValueError(f"mdp is read with family explicit only; family {spec['family']} draws the CMDP")
    missing = [field for field in GENERATOR_FIELDS if field not in spec]
    if missing:
        raise ValueError(
            f"{', '.join(missing)} missing: family {spec['family']} draws the CMDP from {generated}"
        )
    return make_cmdp(
        rng,
        spec["family"],
        spec["n_layers"],
        spec["states_per_layer"],
        spec["n_actions"],
        spec["m"],
        rho_at(spec, horizon),
        spec.get("constraint_spread"),
        spec["risky_constraint"],
    )


def build_instance(spec: dict, rng: np.random.Generator, horizon: int | None = None) -> dict:
    """The JSON-ready instance of a validated ``cmdp`` instance config entry, at horizon ``horizon``.

    ``rng`` (the instance's own SeedSequence) draws the CMDP, then the adversarial sign pattern. The draws do
    not depend on the horizon: only the shift of the constraints that sets ρ (:func:`rho_at`) does.
    """
    cmdp = make_instance_cmdp(spec, rng, horizon)
    environment = make_environment(
        cmdp,
        rng,
        rewards=spec["rewards"],
        constraints=spec["constraints"],
        noise=spec["noise"],
        period=spec["period"],
        reward_amplitude=spec["reward_amplitude"],
        constraint_amplitude=spec["constraint_amplitude"],
        adversary=spec["adversary"],
    )
    numbers = {
        "L": cmdp.L,
        "m": cmdp.m,
        "n_states": cmdp.n_states,
        "n_actions": cmdp.n_actions,
        "delta": spec["delta"],
        "stochastic_rewards": spec["rewards"] == "stochastic",
        "family": spec["family"],
        **constraint_summary(cmdp).to_dict(),
        "paper_dual_box_T": paper_dual_box_horizon(
            cmdp.m, cmdp.n_states, cmdp.n_actions, cmdp.L, spec["delta"]
        ),
        **adversary_numbers(cmdp, environment),
    }
    return {"cmdp": cmdp.to_dict(), "environment": environment.to_dict(), "numbers": numbers}


def adversary_numbers(cmdp: CMDP, environment: CMDPEnvironment) -> dict:
    """What makes adversarial constraints adversarial, over one full cycle of phases (empty otherwise).

    ``rho_stochastic`` (from the cycle's average ``Ḡ``) against ``rho_adversarial`` (§3.5, one ``q°`` for
    every phase); ``max_G_q_star = max_t max_i [G_t^T q*]_i`` and ``share_G_q_star_above_1``, the share of
    the cycle's episodes where it exceeds line 1248's 1 (:class:`~regretlab.cmdp.environments.Benchmark`);
    ``constraint_swing_max`` and ``constraint_swing_min`` (over the entries that move) of
    :meth:`~regretlab.cmdp.environments.PhaseProcess.swing`.
    """
    constraints = environment.constraints
    if constraints.kind != "adversarial":
        return {}
    cycle = environment.benchmark(cmdp.P, constraints.period * constraints.phases.shape[0])
    swing = constraints.swing()
    moving = swing[swing > 0]
    return {
        "rho_stochastic": cmdp.rho,
        "rho_adversarial": cycle.rho,
        "max_G_q_star": cycle.max_G_q_star,
        "share_G_q_star_above_1": cycle.share_G_q_star_above_1,
        "constraint_swing_max": float(swing.max()),
        "constraint_swing_min": float(moving.min()) if moving.size else 0.0,
    }


def write_instance_file(regime: str, name: str, spec: dict, path: str) -> dict:
    """Build instance ``name`` of ``regime`` from its config entry, with the instance's own SeedSequence, and
    write it as JSON at ``path`` (the workflow's instance job); returns its numbers."""
    instance = build_instance(spec, np.random.default_rng(job_seed_sequence(regime, name, "instance")))
    write_json(path, instance)
    return instance["numbers"]


def instance_at_horizon(instance: dict, spec: dict, regime: str, instance_name: str, horizon: int) -> dict:
    """``instance`` itself, or — when its ρ depends on T (``rho_exponent > 0``) — the same draw rebuilt with
    the ρ of ``horizon`` from the instance's own SeedSequence."""
    if spec["rho_exponent"] == 0:
        return instance
    rng = np.random.default_rng(job_seed_sequence(regime, instance_name, "instance"))
    return build_instance(spec, rng, horizon)
