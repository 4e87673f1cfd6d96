"""The console script: `run` runs one job through the workflow's own functions and says what it did in a few
lines (`--json`: the full summary); `list` shows the registries and the config's regimes; help is plain words
with every option's choices; a misspelt name gets "did you mean"."""

import json

import numpy as np
import pandas as pd
import pytest
import yaml

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import GRAPH_FAMILIES, LOSS_KINDS, build_instance
from regretlab.bandits.simulate import run_seeds
from regretlab.cmdp.instance import FAMILIES as CMDP_FAMILIES
from regretlab.core.io import read_parquet_metadata
from regretlab.core.seeding import job_seed_sequence
from regretlab.registry.kinds import KINDS
from regretlab.registry.theory import BOUNDS
from regretlab.workflow.cli import main

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
    assert main([*ARGS, "--output", str(out), "--json"]) == 0
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
    assert "--regime must be one of ['smoke_cmdp', 'smoke_exp3g']" in err and "did you mean" not in err
    assert main([*ARGS[:8], "ucb", *ARGS[9:]]) == 2
    err = capsys.readouterr().err
    assert f"algorithm must be one of {sorted(ALGORITHMS)}" in err


def test_run_prints_a_few_human_lines(repo, tmp_path, capsys, monkeypatch):
    """What ran, the final means, the wall time, where the table went — the same numbers as --json."""
    monkeypatch.chdir(repo)
    out = tmp_path / "run.parquet"
    assert main([*ARGS, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main([*ARGS, "--output", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4, lines
    assert lines[0] == "ran exp3g (paper constants) on smoke_exp3g/cliques_2x3, T = 500, seeds 0 1"
    assert lines[1] == (
        f"at t = T, mean over 2 seeds: pseudo_regret {summary['pseudo_regret_mean']:.6g}, "
        f"L_star {summary['L_star_mean']:.6g}"
    )
    assert lines[2].startswith("wall time: ") and lines[2].endswith(" s")
    assert lines[3] == f"run table: written to {out}" and out.is_file()


MISSPELT = [
    # (argv, option or field named, the close name offered)
    ([*ARGS[:4], "smoke_exp3", *ARGS[5:]], "--regime", "'smoke_exp3g'"),
    ([*ARGS[:6], "cliques_2x", *ARGS[7:]], "--instance", "'cliques_2x3'"),
    ([*ARGS[:8], "exp3gg", *ARGS[9:]], "--algorithm", "'exp3g'"),
    ([*ARGS, "--constants", "papr"], "--constants", "'paper'"),
    (["estimate", "--config", "tests/config/smoke.yaml", "--scale", "papr"], "argument --scale", "'paper'"),
    (["lst", "regimes"], "argument COMMAND", "'list'"),
    (["list", "bound"], "argument WHAT", "'bounds'"),
    (["list", "algorithms", "exp3gg"], "algorithm", "'exp3g'"),
    (["list", "bounds", "theorem2_bnd"], "bound", "'theorem2_bound'"),
    (["list", "families", "disjoint_clique"], "family", "'disjoint_cliques'"),
    (["list", "families", "bindng"], "family", "'binding'"),
    (["list", "regimes", "--config", "tests/config/smoke.yaml", "smoke_cmd"], "regime", "'smoke_cmdp'"),
    (["list", "regimes", "--config", "tests/config/smoke.yaml", "--scale", "quik"], "--scale", "'quick'"),
]


@pytest.mark.parametrize(
    ("argv", "named", "close"), MISSPELT, ids=lambda v: v if isinstance(v, str) else None
)
def test_a_misspelt_name_gets_did_you_mean(argv, named, close, repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(argv))
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert captured.out == "" and line.startswith(f"regretlab: error: {named}"), line
    assert "one of" in line and f"; did you mean {close}" in line and line.endswith("?"), line


@pytest.mark.parametrize(
    "argv",
    [["list", "regimes"], ["estimate"], ["run", "--regime", "smoke_exp3g", "--instance", "cliques_2x3",
     "--algorithm", "exp3g", "-T", "50"]],
    ids=["list", "estimate", "run"],
)  # fmt: skip
def test_a_yaml_syntax_error_names_its_line_and_column(argv, repo, tmp_path, capsys, monkeypatch):
    """Every command that reads the config says where its YAML breaks, in one line, and nothing else."""
    monkeypatch.chdir(repo)
    bad = tmp_path / "bad.yaml"
    text = (repo / "tests/config/smoke.yaml").read_text()
    bad.write_text(text.replace("    x: T\n", "    x: T:\n", 1))
    line_number = text.splitlines().index("    x: T") + 1
    assert main([*argv, "--config", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [
        f"regretlab: error: --config: {str(bad)!r} is not valid YAML: line {line_number}, column 9: "
        "mapping values are not allowed here"
    ]


def test_an_algorithm_of_another_kind_is_named_as_such(repo, capsys, monkeypatch):
    """exp3g for a CMDP regime: the CMDP algorithms are allowed, and exp3g is a bandit one."""
    monkeypatch.chdir(repo)
    argv = ["run", "--config", "tests/config/smoke.yaml", "--regime", "smoke_cmdp", "--instance", "tiny"]
    assert main([*argv, "--algorithm", "exp3g", "-T", "50"]) == 2
    err = capsys.readouterr().err
    assert "must be one of ['pdgd_ops', 'uc_o_gdps'] for a cmdp regime" in err
    assert "(an algorithm of bandit regimes)" in err


def test_help_is_plain_words_with_every_choice(capsys):
    """No reStructuredText markup in any help, and each option's choices are listed."""
    texts = {}
    for argv in (["--help"], ["run", "--help"], ["list", "--help"], ["estimate", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        texts[argv[0]] = capsys.readouterr().out
    for text in texts.values():
        assert "``" not in text and ":func:" not in text and ":class:" not in text
    assert all(command in texts["--help"] for command in ("list", "run", "estimate"))
    for kind in KINDS.values():
        assert all(name in " ".join(texts["run"].split()) for name in kind.presets)
    assert "paper, tuned" in texts["run"]
    assert "algorithms, bounds, families, regimes" in " ".join(texts["list"].split())


def test_list_alone_says_what_it_can_list(capsys):
    """`regretlab list` with no argument: what each WHAT shows, exit 0 (it was a usage error)."""
    from regretlab.workflow.listing import LISTS

    assert main(["list"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert captured.err == "" and lines[0] == "regretlab list WHAT [NAME ...] lists one of:"
    for what, description in LISTS.items():
        assert any(line.split() == [what, *description.split()] for line in lines), what
    assert set(LISTS) == {"algorithms", "bounds", "families", "regimes"}


def test_list_algorithms_shows_every_kind_with_presets_and_graph_class(capsys):
    assert main(["list", "algorithms"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for kind in KINDS.values():
        for name, presets in kind.presets.items():
            (row,) = [line.split() for line in lines if line.split()[:1] == [name]]
            assert row[1] == ",".join(presets)
            if name in ALGORITHMS:
                assert row[2] == ALGORITHMS[name].graph_class
                assert " ".join(row[3:]) == " ".join(ALGORITHMS[name].description.split())


def test_list_bounds_shows_metric_and_whether_explicit(capsys):
    assert main(["list", "bounds"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:] if line}
    for name, spec in BOUNDS.items():
        assert rows[name][1] == spec.metric
        assert rows[name][2].rstrip(",") in (("explicit" if spec.explicit else "rate"), "reference")
    assert main(["list", "bounds", "theorem2_bound"]) == 0
    assert BOUNDS["theorem2_bound"].source in capsys.readouterr().out


def test_list_families_names_every_parameter_with_its_range(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    assert main(["list", "families"]) == 0
    out = capsys.readouterr().out
    for name in [*GRAPH_FAMILIES, *LOSS_KINDS, *CMDP_FAMILIES]:
        assert name in out
    assert "    clique_sizes: list of integers ≥ 1 (non-empty)" in out
    assert "    edge_prob: number in [0, 1]" in out
    assert "    k: integer in [2, 6]" in out
    assert "    gap_constant: number > 0" in out
    assert "    delta: number in (0, 1), default 0.1" in out


def test_list_regimes_shows_the_config_at_its_scale(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    smoke = "tests/config/smoke.yaml"
    config = yaml.safe_load((repo / smoke).read_text())
    for scale in ("quick", "paper"):
        assert main(["list", "regimes", "--config", smoke, "--scale", scale]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == f"scale: {scale}"
        rows = {line.split()[0]: line.split() for line in lines[2:]}
        assert set(rows) == set(config["regimes"])
        for name, regime in config["regimes"].items():
            assert rows[name][1:4] == [regime["kind"], regime["x"], str(len(regime["instances"]))]
            assert " ".join(rows[name]).endswith(" ".join(", ".join(regime["algorithms"]).split()))
    assert main(["list", "regimes", "--config", smoke, "smoke_cmdp"]) == 0
    out = capsys.readouterr().out
    assert "pdgd_ops (paper): theorem5_regret, theorem5_violation" in out and "tiny: family binding" in out


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


def test_estimate_gives_the_wall_time_on_n_workers_and_narrows_to_one_regime(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    smoke = ["estimate", "--config", "tests/config/smoke.yaml"]
    assert main([*smoke, "--workers", "2"]) == 0
    whole = capsys.readouterr().out.splitlines()
    assert whole[-1].startswith("on 2 workers: ") and "one job per algorithm" in whole[-1]
    assert main([*smoke, "--regime", "smoke_cmdp", "--job-minutes", "1e-6", "--workers", "1"]) == 0
    split = capsys.readouterr().out.splitlines()
    assert split[0] == "scale: quick (jobs of about 1e-06 min)"
    assert [line.split()[:2] for line in split[2:4]] == [["smoke_cmdp", "4"], ["total", "4"]]  # 2 T × 2 seeds
    assert main([*smoke, "--regime", "smoke"]) == 2
    assert "--regime must be one of ['smoke_cmdp', 'smoke_exp3g'], got 'smoke'" in capsys.readouterr().err
    for bad in (["--workers", "0"], ["--job-minutes", "-1"]):
        with pytest.raises(SystemExit) as stop:
            main([*smoke, *bad])
        assert stop.value.code == 2 and f"{bad[0]}: must be a positive" in capsys.readouterr().err


def test_estimate_total_prints_the_whole_estimate_without_its_regime_lines(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    smoke = ["estimate", "--config", "tests/config/smoke.yaml", "--scale", "paper", "--workers", "3"]
    assert main(smoke) == 0
    whole = capsys.readouterr().out.splitlines()
    assert main([*smoke, "--total"]) == 0
    total = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in total[2:3]] == ["total"]
    assert total[0] == whole[0] and total[3:] == whole[5:]  # the same total, legend and wall time
    assert total[2].split() == whole[4].split()


def test_estimate_calibrate_prints_the_measured_unit_costs(repo, capsys, monkeypatch):
    import regretlab.workflow.calibration

    monkeypatch.chdir(repo)
    monkeypatch.setattr(regretlab.workflow.calibration, "TARGET_SECONDS", 0.5)
    assert (
        main(["estimate", "--config", "tests/config/smoke.yaml", "--regime", "smoke_cmdp", "--calibrate"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("calibration on this machine: ")
    assert lines[1].split()[:3] == ["algorithm", "measured", "on"] and lines[2].split()[0] == "pdgd_ops"
    assert "smoke_cmdp/tiny (triples=8)" in lines[2]
    assert lines[3].startswith("job start-up")
    assert any(line.startswith("predicted: ") and "measured above" in line for line in lines)
