"""How a CMDP instance entry is checked before any job
(:attr:`regretlab.specs.kind_spec.Kind.instance_check`): it is built as its job builds it
(:func:`regretlab.cmdp.instance_builder.build_instance`) at every ρ(T) the regime's horizons ask for (ρ ∈ [0,
L] and attainable by the draw). A CMDP family its builder validates needs no entry here."""

from __future__ import annotations

import numpy as np

from regretlab.cmdp.instance_builder import GENERATOR_FIELDS, build_instance, rho_at
from regretlab.core.seeding import job_seed_sequence
from regretlab.specs.kind_spec import Plan, Problem, at_field, named_field


def _family_fields(where: str, spec: dict) -> list[Problem]:
    """An entry that mixes the two ways of giving a CMDP (by hand in ``mdp``, or drawn by a family from
    :data:`~regretlab.cmdp.instance_builder.GENERATOR_FIELDS`), as one line saying what is allowed."""
    family = spec["family"]
    if family == "explicit":
        extra = [f for f in GENERATOR_FIELDS if f in spec]
        extra += ["rho_exponent"] if spec["rho_exponent"] else []
        if "mdp" not in spec:
            return [(where, "mdp is required with family explicit: the CMDP by hand (reward, constraint, …)")]
        if extra:
            return [(f"{where}.{extra[0]}", f"{extra[0]} is not allowed with family explicit: mdp gives the "
                     f"sizes and ρ is computed from it (remove {', '.join(extra)})")]  # fmt: skip
        return []
    if "mdp" in spec:
        return [(f"{where}.mdp", f"mdp is allowed with family explicit only; family {family} draws the CMDP")]
    missing = [f for f in GENERATOR_FIELDS if f not in spec]
    if missing:
        return [(where, f"{', '.join(missing)} missing: family {family} needs {', '.join(GENERATOR_FIELDS)}")]
    return []


def check_instance(regime_name: str, name: str, spec: dict, plan: Plan) -> list[Problem]:
    """The entry gives its CMDP one way (:func:`_family_fields`), and the instance builds (as its job builds
    it, same draw) at the ρ of every planned horizon: ρ(T) is monotone in T and the ρ a draw attains form an
    interval, so the smallest and largest horizon suffice."""
    mixed = _family_fields(f"regimes.{regime_name}.instances.{name}", spec)
    if mixed:
        return mixed
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
