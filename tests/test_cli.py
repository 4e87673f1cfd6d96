"""The console script runs one job through the workflow's own functions."""

import json

import numpy as np
import pandas as pd
import yaml

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import build_instance
from regretlab.bandits.simulate import run_seeds
from regretlab.cli import main
from regretlab.io import read_parquet_metadata
from regretlab.seeding import job_seed_sequence

ARGS = [
    "run",
    "--config",
    "tests/config/smoke.yaml",
    "--regime",
    "smoke_exp3g",
    "--instance",
    "cliques_2x3",
    "--algorithm",
    "exp3g",
    "-T",
    "500",
    "--seeds",
    "0",
    "1",
]


def test_cli_prints_a_summary_and_writes_the_workflow_rows(repo, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    out = tmp_path / "run.parquet"
    assert main([*ARGS, "--output", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["T"] == 500 and summary["seeds"] == [0, 1]
    assert [learner["params"]["eta"] > 0 for learner in summary["learners"]] == [True, True]
    spec = {
        "graph": {"family": "disjoint_cliques", "clique_sizes": [3, 3]},
        "losses": {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2},
    }
    instance = build_instance(
        spec, np.random.default_rng(job_seed_sequence("smoke_exp3g", "cliques_2x3", "instance"))
    )
    expected, _ = run_seeds("smoke_exp3g", "cliques_2x3", instance, "exp3g", "paper", 500, [0, 1])
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected)
    assert "wall_time_s" in read_parquet_metadata(out)


def test_cli_reports_bad_input_with_allowed_values(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    assert main([*ARGS[:4], "nope", *ARGS[5:]]) == 2
    err = capsys.readouterr().err
    assert "--regime must be one of ['smoke_cmdp', 'smoke_exp3g']" in err
    assert main([*ARGS[:8], "ucb", *ARGS[9:]]) == 2
    err = capsys.readouterr().err
    assert f"algorithm must be one of {sorted(ALGORITHMS)}" in err


def test_estimate_prints_every_regime_and_a_total(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    assert main(["estimate", "--config", "tests/config/smoke.yaml", "--scale", "paper"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "scale: paper"
    assert [line.split()[0] for line in lines[2:5]] == ["smoke_exp3g", "smoke_cmdp", "total"]
    config = yaml.safe_load((repo / "tests/config/smoke.yaml").read_text())
    points = [
        (len(spec["algorithms"]) * len(spec.get("constants", ["paper"])), T, spec["scales"]["paper"]["seeds"])
        for spec in config["regimes"].values()
        for T in spec["scales"]["paper"]["horizons"]
    ]  # every algorithm of the smoke config has every preset its regime names
    jobs = sum(  # one run job per algorithm and constants preset of a regime
        len(spec["algorithms"]) * len(spec.get("constants", ["paper"])) for spec in config["regimes"].values()
    )
    total = lines[4].split()
    assert int(total[1]) == jobs and float(total[2]) == sum(runs * T * seeds for runs, T, seeds in points)


def test_readme_quotes_the_current_paper_scale_estimate(repo, capsys, monkeypatch):
    """README's "Know the cost first" block is `regretlab estimate --scale paper` on the shipped config."""
    monkeypatch.chdir(repo)
    assert main(["estimate", "--scale", "paper"]) == 0
    printed = capsys.readouterr().out
    readme = (repo / "README.md").read_text(encoding="utf-8")
    start = readme.index("```\nscale: paper\n") + 4
    assert readme[start : readme.index("```", start)] == printed, "refresh README's estimate block"
