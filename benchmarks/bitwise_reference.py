"""Run tables of a fixed sample of runs, saved or compared bitwise: the check that a kernel change is exact.

For every bandit regime of the config, every algorithm and constants preset on (up to) two of its instances,
at two horizons with two seeds; for every CMDP regime (and a regime of any other kind), every algorithm and
preset on (up to) four instances at two horizons with one seed; each through its kind's pipeline's
``run_seeds`` (:attr:`regretlab.specs.kind_spec.Kind.pipeline`). The instance files are read from
``--instances`` (a results/instances directory of a finished run). ``--save DIR`` writes one parquet per run;
``--compare DIR`` recomputes and compares each with ``pandas.testing.assert_frame_equal(check_exact=True)``
(the wall-time columns excluded), printing one line per run and exiting non-zero on any difference.

    python benchmarks/bitwise_reference.py --save /tmp/ref [--instances ../baseline/results/instances]
    python benchmarks/bitwise_reference.py --compare /tmp/ref [--only bandit|cmdp] [--regime NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from regretlab.core.io import read_json
from regretlab.registry.kinds import KINDS
from regretlab.workflow.config import presets_of, validate_config

#: (horizons, seeds, instances per regime) of the sample, by kind; :data:`OTHER_SAMPLE` for the others.
SAMPLES = {"bandit": ((3000, 100000), [0, 1], 2)}
OTHER_SAMPLE = ((3000, 200000), [0], 4)
#: Columns that hold timings, not results.
TIMING_COLUMNS = ("wall_time_s", "us_per_episode")


def runs(config: dict, kinds: set[str], regimes: list[str] | None):
    """``(kind, regime, instance, algorithm, constants, T, seeds)`` of the sample, in a stable order."""
    for regime, spec in config["regimes"].items():
        if spec["kind"] not in kinds or (regimes and regime not in regimes):
            continue
        horizons, seeds, n_instances = SAMPLES.get(spec["kind"], OTHER_SAMPLE)
        for instance in list(spec["instances"])[:n_instances]:
            for algorithm in spec["algorithms"]:
                for constants in presets_of(spec, algorithm):
                    for horizon in horizons:
                        yield spec["kind"], regime, instance, algorithm, constants, horizon, seeds


def run_one(config: dict, instances: Path, kind, regime, instance, algorithm, constants, horizon, seeds):
    """The run table of one sampled run."""
    path = instances / regime / f"{instance}.json"
    pipeline = KINDS[kind].run_pipeline()
    spec = config["regimes"][regime]["instances"][instance]
    loaded = pipeline.load_instance(read_json(path))
    loaded = pipeline.instance_at_horizon(loaded, spec, regime, instance, horizon)
    frame, _ = pipeline.run_seeds(regime, instance, loaded, algorithm, constants, horizon, seeds)
    return frame.drop(columns=[c for c in TIMING_COLUMNS if c in frame.columns])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", type=Path)
    action.add_argument("--compare", type=Path)
    parser.add_argument("--instances", type=Path, default=Path("../../baseline/results/instances"))
    parser.add_argument("--config", type=Path, default=Path("config.yaml"))
    parser.add_argument("--only", choices=sorted(KINDS))
    parser.add_argument("--regime", nargs="+")
    args = parser.parse_args()
    config = yaml.safe_load(args.config.read_text(encoding="utf-8"))
    validate_config(config, Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml")
    kinds = {args.only} if args.only else set(KINDS)
    failures = 0
    for run in runs(config, kinds, args.regime):
        kind, regime, instance, algorithm, constants, horizon, seeds = run
        name = f"{regime}/{instance}/{algorithm}/{constants}/T~{horizon}.parquet"
        start = time.perf_counter()
        frame = run_one(config, args.instances, *run)
        seconds = time.perf_counter() - start
        if args.save:
            target = args.save / name
            target.parent.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(target)
            print(f"saved    {name} ({seconds:.2f} s)", flush=True)
            continue
        reference = pd.read_parquet(args.compare / name)
        try:
            pd.testing.assert_frame_equal(frame, reference, check_exact=True)
            print(f"same     {name} ({seconds:.2f} s)", flush=True)
        except AssertionError as error:
            failures += 1
            numeric = frame.select_dtypes("number").columns.intersection(reference.columns)
            diff = (frame[numeric] - reference[numeric]).abs().max()
            print(f"DIFFERS  {name}: {str(error).splitlines()[0]}; max |diff| {diff[diff > 0].to_dict()}")
    if failures:
        sys.exit(f"{failures} runs differ")


if __name__ == "__main__":
    main()
