"""``regretlab run``: one (algorithm, instance, T, seeds) outside Snakemake; ``regretlab estimate``: the cost
of a scale's run jobs before submitting them.

Examples::

    regretlab run --regime exp3g_self_aware --instance cliques_2x8 --algorithm exp3g -T 10000 --seeds 0 1
    regretlab estimate --scale paper

``run`` builds the instance from the regime's entry in the config file exactly as the workflow builds it (same
SeedSequence), so the rows printed or written here are the rows the workflow stores for those seeds.
``estimate`` prints, per regime and in total, the run jobs, the rounds or episodes they simulate and the
CPU-hours predicted by the cost model the workflow's resource requests use (:mod:`regretlab.cost`).

Every bad argument or config is reported before anything runs or is written, as one line
``regretlab: error: <option or config field>: <what is allowed>`` on stderr, with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import yaml

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits import simulate as bandit_simulate
from regretlab.checks import run_problems
from regretlab.cmdp import runs as cmdp_runs
from regretlab.config import ConfigError, validate_config
from regretlab.cost import estimate, format_estimate
from regretlab.kinds import KINDS
from regretlab.seeding import job_seed_sequence

DEFAULT_SCHEMA = Path("schemas") / "config.schema.yaml"
#: Exit status of every rejected input (as argparse uses for usage errors).
USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage block."""

    def error(self, message: str):
        _fail(message)


def _fail(message: str):
    print(f"regretlab: error: {' '.join(str(message).split())}", file=sys.stderr)
    sys.exit(USAGE_ERROR)


def _integer_at_least(minimum: int, what: str):
    """An argparse type: an integer ≥ ``minimum``, else the one-line error ``must be {what}, got …``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        return value

    return parse


_positive_int = _integer_at_least(1, "a positive integer")
_seed = _integer_at_least(0, "non-negative integers")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="regretlab", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = commands.add_parser("run", help="run one algorithm on one instance of a configured regime")
    run.add_argument("--config", default="config.yaml", help="workflow config file (default: config.yaml)")
    run.add_argument("--schema", default=str(DEFAULT_SCHEMA), help="config schema (default: %(default)s)")
    run.add_argument("--regime", required=True, help="a regime name from the config")
    run.add_argument("--instance", required=True, help="an instance name of that regime")
    run.add_argument("--algorithm", required=True, help="an algorithm name (e.g. exp3g)")
    run.add_argument("--constants", default="paper", help="constants preset (default: paper)")
    run.add_argument("-T", "--horizon", type=_positive_int, required=True, help="horizon T (> 0)")
    run.add_argument(
        "--seeds", type=_seed, nargs="+", default=[0], help="distinct non-negative seed indices (default: 0)"
    )
    run.add_argument("--output", help="also write the run table to this parquet file")
    cost = commands.add_parser("estimate", help="run jobs, rounds and CPU-hours of a scale, per regime")
    cost.add_argument("--config", default="config.yaml", help="workflow config file (default: config.yaml)")
    cost.add_argument("--schema", default=str(DEFAULT_SCHEMA), help="config schema (default: %(default)s)")
    cost.add_argument("--scale", choices=["quick", "paper"], help="scale to estimate (default: the config's)")
    return parser


def load_config(path: str, schema: str) -> dict:
    """The validated config at ``path``; :class:`ConfigError` (one line per problem) if it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"--config: cannot read {path!r}: {error.strerror}") from None
    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(f"--config: {path!r} is not valid YAML: {' '.join(str(error).split())}") from None
    if not Path(schema).is_file():
        raise ConfigError(f"--schema: no schema file at {schema!r} (run from the repository root)")
    return validate_config(config, schema)


def _check_output(path: str | None) -> None:
    """The run table can be written at ``path``: not a directory, and its nearest existing ancestor is a
    writable directory (missing directories are created)."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise ConfigError(f"--output: {path!r} is a directory; give a file path such as run.parquet")
    ancestor = target.parent.absolute()
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise ConfigError(f"--output: cannot write {path!r}: {str(ancestor)!r} is not a writable directory")


def _check_run(config: dict, args: argparse.Namespace) -> None:
    """Every argument of ``regretlab run`` against the config, before anything runs."""
    regimes = config["regimes"]
    if args.regime not in regimes:
        raise ConfigError(f"--regime must be one of {sorted(regimes)}, got {args.regime!r}")
    regime = regimes[args.regime]
    if args.instance not in regime["instances"]:
        allowed = sorted(regime["instances"])
        raise ConfigError(f"--instance must be one of {allowed} for {args.regime}, got {args.instance!r}")
    presets = KINDS[regime["kind"]].presets
    if args.algorithm not in presets:
        raise ConfigError(
            f"--algorithm must be one of {sorted(presets)} for a {regime['kind']} regime, "
            f"got {args.algorithm!r}"
        )
    if args.constants not in presets[args.algorithm]:
        raise ConfigError(
            f"--constants must be one of {list(presets[args.algorithm])} for {args.algorithm}, "
            f"got {args.constants!r}"
        )
    duplicates = sorted({seed for seed in args.seeds if args.seeds.count(seed) > 1})
    if duplicates:
        raise ConfigError(f"--seeds must be distinct, got {duplicates} more than once")
    _check_output(args.output)
    problems = run_problems(args.regime, regime, args.instance, args.algorithm, args.horizon)
    if problems:
        raise ConfigError("\n".join(f"{field}: {message}" for field, message in problems))


def _run(args: argparse.Namespace) -> dict:
    config = load_config(args.config, args.schema)
    _check_run(config, args)
    spec = config["regimes"][args.regime]["instances"][args.instance]
    rng = np.random.default_rng(job_seed_sequence(args.regime, args.instance, "instance"))
    if config["regimes"][args.regime]["kind"] == "cmdp":
        instance = cmdp_runs.build_instance(spec, rng, args.horizon)
        run_and_write = cmdp_runs.run_and_write
    else:
        instance, run_and_write = bandit_instance.build_instance(spec, rng), bandit_simulate.run_and_write
    return run_and_write(
        args.regime,
        args.instance,
        instance,
        args.algorithm,
        args.constants,
        args.horizon,
        args.seeds,
        config["regimes"][args.regime],
        args.output,
    )


def _estimate(args: argparse.Namespace) -> str:
    config = load_config(args.config, args.schema)
    if args.scale is not None:
        config["scale"] = args.scale
    return format_estimate(estimate(config), config["scale"])


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``regretlab`` console script."""
    args = _parser().parse_args(argv)
    try:
        out = json.dumps(_run(args), indent=2) if args.command == "run" else _estimate(args)
    except ConfigError as error:
        print("\n".join(f"regretlab: error: {line}" for line in str(error).splitlines()), file=sys.stderr)
        return USAGE_ERROR
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
