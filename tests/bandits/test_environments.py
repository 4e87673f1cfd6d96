"""Loss environments draw in [0, 1] from the caller's Generator and validate their parameters."""

import numpy as np
import pytest

from regretlab.bandits.environments import StochasticBernoulli, environment_from_dict
from regretlab.bandits.instance import BanditInstance, build_instance


def test_best_arm_construction_and_draws():
    env = StochasticBernoulli.with_best_arm(4, best_arm=2, best_mean=0.1, gap=0.95)
    assert env.means == (1.0, 1.0, 0.1, 1.0)
    draws = env.draw(np.random.default_rng(0), 0, 20000)
    assert draws.shape == (20000, 4) and set(np.unique(draws)) <= {0.0, 1.0}
    np.testing.assert_allclose(draws.mean(axis=0), env.means, atol=0.01)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"best_arm": 4, "best_mean": 0.1, "gap": 0.1}, "best_arm"),
        ({"best_arm": 0, "best_mean": 1.5, "gap": 0.1}, "best_mean"),
        ({"best_arm": 0, "best_mean": 0.1, "gap": -0.1}, "gap"),
    ],
)
def test_bad_parameters_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        StochasticBernoulli.with_best_arm(4, **kwargs)


def test_unknown_environment_kind():
    with pytest.raises(ValueError, match="bernoulli"):
        environment_from_dict({"kind": "gaussian"})


def test_instance_round_trip_and_numbers():
    spec = {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [2, 3]},
        "losses": {"kind": "bernoulli", "best_mean": 0.2, "gap": 0.3},
    }
    instance = build_instance(spec, np.random.default_rng(0))
    assert instance.numbers["alpha"] == 2 and instance.numbers["K"] == 5
    again = BanditInstance.from_dict(instance.to_dict())
    assert np.array_equal(again.graph.adjacency, instance.graph.adjacency)
    assert again.environment == instance.environment and again.numbers == instance.numbers
