"""The cost model behind `regretlab estimate` and the jobs' requests (regretlab.cost)."""

from pathlib import Path

import yaml

from regretlab.config import validate_config
from regretlab.cost import calibration_runs, estimate

REPO = Path(__file__).resolve().parents[1]


def test_theorem5_jobs_count_their_calibration_runs():
    """A job on Theorem 5's environment 2 first plays `calibration_seeds` runs of length T on environment 1
    (lower_bound.materialise); environment 1 and every other instance play their seeds only."""
    raw = yaml.safe_load((REPO / "tests" / "config" / "default.yaml").read_text(encoding="utf-8"))  # shipped
    config = validate_config(raw, REPO / "schemas" / "config.schema.yaml")
    regime = raw["regimes"]["weak_theorem5_lower_bound"]
    grid = regime["scales"][raw["scale"]]
    env1, env2 = (regime["instances"][name] for name in ("environment_1", "environment_2"))
    assert calibration_runs(env1) == 0 and calibration_runs(env2) == env2["losses"]["calibration_seeds"] > 0
    assert calibration_runs(next(iter(raw["regimes"]["weak_general_best_in_S"]["instances"].values()))) == 0
    (found,) = [e for e in estimate(config) if e.regime == "weak_theorem5_lower_bound"]
    runs_per_horizon = 2 * grid["seeds"] + calibration_runs(env2)  # seeds on both environments, calibration
    per_algorithm = sum(horizon * runs_per_horizon for horizon in grid["horizons"])
    assert found.rounds == len(regime["algorithms"]) * per_algorithm
