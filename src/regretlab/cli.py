"""``regretlab run``: one (algorithm, instance, T, seeds) outside Snakemake, through the workflow's functions.

Example::

    regretlab run --regime exp3g_self_aware --instance cliques_2x8 --algorithm exp3g -T 10000 --seeds 0 1

The instance is built from the regime's entry in the config file exactly as the workflow builds it (same
SeedSequence), so the rows printed or written here are the rows the workflow stores for those seeds.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import yaml

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits import simulate as bandit_simulate
from regretlab.cmdp import runs as cmdp_runs
from regretlab.config import ConfigError, validate_config
from regretlab.seeding import job_seed_sequence

DEFAULT_SCHEMA = Path("schemas") / "config.schema.yaml"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="regretlab", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run one algorithm on one instance of a configured regime")
    run.add_argument("--config", default="config.yaml", help="workflow config file (default: config.yaml)")
    run.add_argument("--schema", default=str(DEFAULT_SCHEMA), help="config schema (default: %(default)s)")
    run.add_argument("--regime", required=True, help="a regime name from the config")
    run.add_argument("--instance", required=True, help="an instance name of that regime")
    run.add_argument("--algorithm", required=True, help="an algorithm name (e.g. exp3g)")
    run.add_argument("--constants", default="paper", help="constants preset (default: paper)")
    run.add_argument("-T", "--horizon", type=int, required=True, help="horizon T")
    run.add_argument("--seeds", type=int, nargs="+", default=[0], help="seed indices (default: 0)")
    run.add_argument("--output", help="also write the run table to this parquet file")
    return parser


def _instance_spec(config: dict, regime: str, instance: str) -> dict:
    if regime not in config["regimes"]:
        raise ConfigError(f"--regime must be one of {sorted(config['regimes'])}, got {regime!r}")
    instances = config["regimes"][regime]["instances"]
    if instance not in instances:
        raise ConfigError(f"--instance must be one of {sorted(instances)} for {regime}, got {instance!r}")
    return instances[instance]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``regretlab`` console script."""
    args = _parser().parse_args(argv)
    try:
        config = validate_config(yaml.safe_load(Path(args.config).read_text(encoding="utf-8")), args.schema)
        spec = _instance_spec(config, args.regime, args.instance)
        rng = np.random.default_rng(job_seed_sequence(args.regime, args.instance, "instance"))
        if config["regimes"][args.regime]["kind"] == "cmdp":
            instance, run_and_write = (
                cmdp_runs.build_instance(spec, rng, args.horizon),
                cmdp_runs.run_and_write,
            )
        else:
            instance, run_and_write = bandit_instance.build_instance(spec, rng), bandit_simulate.run_and_write
        summary = run_and_write(
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
    except (ConfigError, ValueError, OSError) as error:
        print(f"regretlab: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
