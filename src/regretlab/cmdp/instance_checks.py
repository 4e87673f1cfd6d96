"""How a CMDP instance entry is checked before any job
(:attr:`regretlab.specs.kind_spec.Kind.instance_check`): it is built as its job builds it
(:func:`regretlab.cmdp.instance_builder.build_instance`) at every ρ(T) the regime's horizons ask for (ρ ∈ [0,
L] and attainable by the draw). A CMDP family its builder validates needs no entry here."""

from __future__ import annotations

import numpy as np

from regretlab.cmdp.instance_builder import build_instance, rho_at
from regretlab.core.seeding import job_seed_sequence
from regretlab.specs.kind_spec import Plan, Problem, at_field, named_field


def check_instance(regime_name: str, name: str, spec: dict, plan: Plan) -> list[Problem]:
    """The instance builds (as its job builds it, same draw) at the ρ of every planned horizon: ρ(T) is
    monotone in T and the ρ a draw attains form an interval, so the smallest and largest horizon suffice."""
    horizons = sorted(plan.horizons, key=lambda field_and_T: field_and_T[1])
    at = [("", None)] if spec["rho_exponent"] == 0 else [horizons[0], horizons[-1]]
    for field, horizon in at:
        rng = np.random.default_rng(job_seed_sequence(regime_name, name, "instance"))
        try:
            build_instance(spec, rng, horizon)
        except (ValueError, ArithmeticError) as error:
            where = f"regimes.{regime_name}.instances.{name}"
            if horizon is None or named_field(str(error), spec) not in (None, "rho"):
                return [at_field(where, spec, error)]
            rho = rho_at(spec, horizon)  # ρ(T) from rho, rho_exponent and the horizon
            return [(field, f"instance {name!r} at T = {horizon} (ρ(T) = {rho:.6g}): {error}")]
    return []
