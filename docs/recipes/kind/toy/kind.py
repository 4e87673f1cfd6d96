"""The toy kind: everything the workflow knows of it, in one :class:`regretlab.specs.kind_spec.Kind`."""

from __future__ import annotations

from regretlab.specs.kind_spec import Kind, KindCost, Metric, at_field
from regretlab.toy.algorithms import ALGORITHMS
from regretlab.toy.bound_registry import BOUNDS, TRIVIAL_BOUNDS
from regretlab.toy.hedge import learning_rate
from regretlab.toy.instance import build_instance


def check_instance(regime: str, name: str, spec: dict, plan) -> list:
    """The entry builds, as its instance job builds it."""
    try:
        build_instance(spec, None)
    except ValueError as error:
        return [at_field(f"regimes.{regime}.instances.{name}", spec, error)]
    return []


def uniform_value(instance: dict, metric: str, point: dict, algorithm: str = "") -> float:
    """Uniform play's pseudo-regret at t: t (mean of the means − the smallest)."""
    if metric != "toy_pseudo_regret":
        return float("nan")
    means = instance["means"]
    return point["t"] * (sum(means) / len(means) - min(means))


KIND = Kind(
    description="toy: Hedge on full-information Bernoulli losses (docs/add-a-kind.md)",
    algorithms=ALGORITHMS,
    bounds=BOUNDS,
    metrics={
        "toy_pseudo_regret": Metric(
            "pseudo-regret Σ⟨p_t, μ⟩ − t·min μ",
            "cumulative loss",
            "the plays' expected loss minus the best arm's",
        ),
    },
    time_unit="round",
    uniform_value=uniform_value,
    instance_check=check_instance,
    cost=KindCost(unit="rounds", size_name="K", size=lambda regime, instance, spec: len(spec["means"])),
    learner_params=lambda row, instance, T, oracle: {"eta": learning_rate(len(instance["means"]), T)},
    pipeline="regretlab.toy.runs",
    trivial_bounds=TRIVIAL_BOUNDS,
    instance_schema={
        "description": "K arms with i.i.d. Bernoulli losses, observed in full.",
        "type": "object",
        "additionalProperties": False,
        "required": ["means"],
        "properties": {
            "means": {
                "description": "the arms' loss means",
                "type": "array",
                "minItems": 2,
                "items": {"type": "number", "minimum": 0, "maximum": 1},
            },
        },
    },
)
