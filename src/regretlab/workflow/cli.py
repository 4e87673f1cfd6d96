"""The ``regretlab`` console script: ``list`` what a config can name and what it holds, ``run`` one
(algorithm, instance, T, seeds) outside Snakemake, ``estimate`` the cost of a scale's run jobs before
submitting them.

``run`` builds the instance from the regime's entry in the config file exactly as the workflow builds it (same
SeedSequence), so the rows printed or written here are the rows the workflow stores for those seeds; it prints
a short summary (``--json``: the full machine-readable one). ``estimate`` prints, per regime and in total, the
run jobs, the rounds or episodes they simulate and the CPU-hours predicted by the cost model the workflow's
resource requests use (:mod:`regretlab.workflow.cost`); ``--workers N`` adds the wall time on N workers,
``--calibrate`` measures the unit costs on this machine first (:mod:`regretlab.workflow.calibration`),
``--regime`` narrows it to one regime, ``--total`` prints the total line alone and ``--job-minutes`` cuts the
jobs as
``job_minutes`` does (``regretlab estimate --scale paper --job-minutes 15 --workers 200``: the SLURM
profile's jobs on 200 cores). At the power scale it also shows what the archived runs took at their last
refresh (:func:`regretlab.workflow.archive.archived_run_seconds`). ``list`` prints the
registries (:mod:`regretlab.workflow.listing`).

Every bad argument or config is reported before anything runs or is written, as one line
``regretlab: error: <option or config field>: <what is allowed>`` on stderr (with "did you mean …" for a
misspelt name), with exit status 2. The help texts are plain words (``--help`` prints them as they are).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from regretlab.analysis.export import FORMATS, ExportError, export_points
from regretlab.core.names import did_you_mean, not_one_of
from regretlab.core.run_sets import run_and_write
from regretlab.core.seeding import draws_of, job_seed_sequence
from regretlab.registry.kinds import KINDS
from regretlab.workflow import listing
from regretlab.workflow.archive import archived_run_seconds
from regretlab.workflow.checks import run_problems
from regretlab.workflow.config import (
    POWER,
    SCALES,
    ConfigError,
    load_schema,
    require_scale,
    validate_config,
)
from regretlab.workflow.config_files import config_syntax_problem, safe_load
from regretlab.workflow.cost import estimate, format_estimate
from regretlab.workflow.integrity import verify

DEFAULT_SCHEMA = Path("schemas") / "config.schema.yaml"
#: Exit status of every rejected input (as argparse uses for usage errors).
USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, without the usage block, and whose unknown choices (a
    command, a scale) get "did you mean …"."""

    def error(self, message: str):
        _fail(message)

    def _check_value(self, action, value):
        if action.choices is not None and value not in action.choices:
            raise argparse.ArgumentError(action, not_one_of(value, action.choices))


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


def _positive_float(text: str) -> float:
    """An argparse type: a number > 0, else the one-line error ``must be a positive number, got …``."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


DESCRIPTION = "Run and inspect regretlab's experiments outside Snakemake (from the repository's root)."
EPILOG = """examples:
  regretlab list regimes
  regretlab list algorithms exp3g
  regretlab run --regime exp3g_self_aware --instance fixed_gap_2x8 --algorithm exp3g -T 10000 --seeds 0 1
  regretlab estimate --scale paper
  regretlab estimate --scale paper --job-minutes 15 --workers 200 --calibrate

regretlab COMMAND --help lists the command's options and their choices."""
#: What ``regretlab list`` can list.
LISTS = tuple(listing.LISTS)


def _algorithm_choices() -> str:
    return "; ".join(f"{kind} regimes: {', '.join(k.presets)}" for kind, k in KINDS.items())


def _preset_choices() -> str:
    return ", ".join(dict.fromkeys(p for kind in KINDS.values() for ps in kind.presets.values() for p in ps))


def build_parser() -> argparse.ArgumentParser:
    """The ``regretlab`` command line (the guide's command-line reference is generated from it)."""
    parser = _Parser(
        prog="regretlab",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    listing = commands.add_parser(
        "list",
        help="list what a config can name (algorithms, bounds, graph families, loss kinds, CMDP families) "
        "or the regimes it holds",
        description="List what a config can name, or the regimes a config holds. With names, print those "
        "entries in full (e.g. regretlab list bounds theorem2_bound).",
    )
    listing.add_argument(
        "what",
        nargs="?",
        choices=LISTS,
        metavar="WHAT",
        help=f"what to list: one of {', '.join(LISTS)} (none: say what each shows)",
    )
    listing.add_argument(
        "names", nargs="*", metavar="NAME", help="entries to print in full (default: all, briefly)"
    )
    listing.add_argument(
        "--config",
        default="config.yaml",
        metavar="FILE",
        help="config whose regimes to list (default: config.yaml)",
    )
    listing.add_argument(
        "--schema", default=str(DEFAULT_SCHEMA), metavar="FILE", help="config schema (default: %(default)s)"
    )
    listing.add_argument(
        "--scale",
        help=f"regimes: the scale ({', '.join(SCALES)}) whose horizons and seeds to show (default: the "
        "config's)",
    )
    run = commands.add_parser(
        "run",
        help="run one algorithm on one instance of a configured regime",
        description="Run one algorithm on one instance of a regime of the config, for the given horizon and "
        "seeds, exactly as the workflow runs it (same instance draw, same seeds), and print a short summary.",
    )
    run.add_argument(
        "--config", default="config.yaml", metavar="FILE", help="workflow config file (default: config.yaml)"
    )
    run.add_argument(
        "--schema", default=str(DEFAULT_SCHEMA), metavar="FILE", help="config schema (default: %(default)s)"
    )
    run.add_argument("--regime", required=True, help="a regime of the config (regretlab list regimes)")
    run.add_argument(
        "--instance", required=True, help="an instance of that regime (regretlab list regimes NAME)"
    )
    run.add_argument(
        "--algorithm",
        required=True,
        help=f"the algorithm to run, one of the regime's kind: {_algorithm_choices()}",
    )
    run.add_argument(
        "--constants",
        default="paper",
        help=f"constants preset, one of {_preset_choices()} (paper: the theorem's; default: paper)",
    )
    run.add_argument(
        "-T", "--horizon", type=_positive_int, required=True, help="horizon T, a positive integer"
    )
    run.add_argument(
        "--seeds",
        type=_seed,
        nargs="+",
        default=[0],
        metavar="SEED",
        help="seed indices, distinct non-negative integers (default: 0); seed i is the workflow's i-th run",
    )
    run.add_argument("--output", metavar="FILE", help="also write the run table to this parquet file")
    run.add_argument(
        "--json", action="store_true", help="print the full summary as JSON instead of a few lines"
    )
    cost = commands.add_parser(
        "estimate",
        help="run jobs, rounds and CPU-hours of a scale, per regime",
        description="Print, per regime and in total, the run jobs of a scale, the rounds or episodes they "
        "simulate and the CPU-hours the cost model predicts and the jobs request (the SLURM jobs' requests "
        "come from the same model). At the power scale, the archived runs' own wall times at their last "
        "refresh are shown beside the prediction.",
    )
    cost.add_argument(
        "--config", default="config.yaml", metavar="FILE", help="workflow config file (default: config.yaml)"
    )
    cost.add_argument(
        "--schema", default=str(DEFAULT_SCHEMA), metavar="FILE", help="config schema (default: %(default)s)"
    )
    cost.add_argument("--scale", choices=SCALES, help="scale to estimate (default: the config's)")
    cost.add_argument("--regime", help="estimate this regime only (default: every regime of the config)")
    cost.add_argument(
        "--job-minutes",
        type=_positive_float,
        help="cut the run sets into jobs of about this many predicted minutes, as job_minutes does "
        "(profiles/slurm: 15; default: the config's)",
    )
    cost.add_argument(
        "--workers", type=_positive_int, help="also print the wall time of the run jobs on this many workers"
    )
    cost.add_argument(
        "--total", action="store_true", help="print the total line alone, not one line per regime"
    )
    cost.add_argument(
        "--calibrate",
        action="store_true",
        help="measure the unit costs on this machine first (about 20 s) and predict from them",
    )
    verify = commands.add_parser(
        "verify",
        help="check every file under results/ and figures/ against the digests the workflow recorded",
        description="List every file under results/ and figures/ (run from the repository root) that is "
        "corrupt — changed since the workflow wrote it, unreadable, or a run table or kept table the "
        "workflow did not write —, missing (recorded, then deleted) or unrecorded (whole, but written by no "
        "version that records digests, such as a clone's committed figures). Exits 1 if any file is "
        "corrupt; the next `snakemake` removes and rebuilds those. Whether a file is out of date with the "
        "config or code is Snakemake's to say: `snakemake --dry-run`.",
    )
    verify.add_argument("--all", action="store_true", help="list the files that match their digests too")
    export = commands.add_parser(
        "export",
        help="write the figures' per-point tables as CSV or parquet",
        description="Write one row per point the regimes' figures draw (means and 95%% intervals over seeds, "
        "bounds, trivial bounds, uniform play's value, verdicts, hypotheses) from results/summary/ to "
        "DIR/points.csv (its column types in DIR/points.types.json) and/or DIR/points.parquet. Read a CSV "
        "back with regretlab.analysis.export.read_points: identifiers such as the paper '001' stay text.",
    )
    export.add_argument("--regime", nargs="+", metavar="NAME", help="these regimes only (default: every one)")
    export.add_argument("--format", choices=(*FORMATS, "both"), default="csv", help="default: %(default)s")
    export.add_argument("--out", default="exports", metavar="DIR", help="default: %(default)s")
    falsify = commands.add_parser(
        "falsify",
        help="search each bound's hypotheses for a run that exceeds it (a rate: a steeper slope)",
        description="Attack each bound a kind declares a search for: a seeded differential-"
        "evolution search over the step sizes, graphs and loss sequences its theorem quantifies over for the "
        "largest measured / bound (a rate: the regret's growth per decade — between epoch ends for a learner "
        "that restarts — against its band's), the best "
        "candidates rerun with fresh seeds. Writes "
        "DIR/falsification.csv (with its .types.json), .md, .png and .pdf — what the workflow's "
        "falsification job writes to figures/. "
        "The quick scale takes under a minute.",
    )
    falsify.add_argument("--search", nargs="+", metavar="NAME", help="these searches only (default: all)")
    falsify.add_argument("--scale", choices=("quick", "paper"), default="quick", help="default: %(default)s")
    falsify.add_argument("--out", default="falsification", metavar="DIR", help="default: %(default)s")
    return parser


def load_config(path: str, schema: str) -> dict:
    """The validated config at ``path``; :class:`ConfigError` (one line per problem) if it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"--config: cannot read {path!r}: {error.strerror}") from None
    if problem := config_syntax_problem(path):  # a syntax error's line, a repeated key
        raise ConfigError(f"--config: {problem}")
    config = safe_load(text)
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
        raise ConfigError(
            f"--regime must be one of {sorted(regimes)}, got {args.regime!r}"
            f"{did_you_mean(args.regime, regimes)}"
        )
    regime = regimes[args.regime]
    if args.instance not in regime["instances"]:
        allowed = sorted(regime["instances"])
        raise ConfigError(
            f"--instance must be one of {allowed} for {args.regime}, got {args.instance!r}"
            f"{did_you_mean(args.instance, allowed)}"
        )
    presets = KINDS[regime["kind"]].presets
    if args.algorithm not in presets:
        other = [kind for kind, k in KINDS.items() if args.algorithm in k.presets]
        elsewhere = (
            f" (an algorithm of {other[0]} regimes)" if other else did_you_mean(args.algorithm, presets)
        )
        raise ConfigError(
            f"--algorithm must be one of {sorted(presets)} for a {regime['kind']} regime, "
            f"got {args.algorithm!r}{elsewhere}"
        )
    if args.constants not in presets[args.algorithm]:
        allowed = list(presets[args.algorithm])
        raise ConfigError(
            f"--constants must be one of {allowed} for {args.algorithm}, "
            f"got {args.constants!r}{did_you_mean(args.constants, allowed)}"
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
    draws = draws_of(args.regime, config["regimes"][args.regime])
    rng = np.random.default_rng(job_seed_sequence(draws, args.instance, "instance"))
    pipeline = KINDS[config["regimes"][args.regime]["kind"]].run_pipeline()
    return run_and_write(
        pipeline,
        args.regime,
        args.instance,
        pipeline.build_instance(spec, rng, args.horizon),
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
        require_scale(config, args.scale)
    if args.job_minutes is not None:
        config["job_minutes"] = args.job_minutes
    if args.regime is not None:
        if args.regime not in config["regimes"]:
            raise ConfigError(
                f"--regime must be one of {sorted(config['regimes'])}, got {args.regime!r}"
                f"{did_you_mean(args.regime, config['regimes'])}"
            )
        config["regimes"] = {args.regime: config["regimes"][args.regime]}
    measured = archived_run_seconds(config) if config["scale"] == POWER else {}
    if not args.calibrate:
        estimates = estimate(config)
        return format_estimate(
            estimates,
            config["scale"],
            args.workers,
            job_minutes=config["job_minutes"],
            total_only=args.total,
            measured=measured,
        )
    from regretlab.workflow.calibration import calibrate, format_calibration  # imports every run module

    calibration = calibrate(config)
    estimates = estimate(config, calibration.costs, calibration.startup_seconds)
    predicted = (
        f"predicted: {calibration.startup_seconds:.1f} s per job + each run at the unit costs measured above"
    )
    return format_calibration(calibration, config) + format_estimate(
        estimates, config["scale"], args.workers, predicted, config["job_minutes"], args.total, measured
    )


def format_run(summary: dict, output: str | None) -> str:
    """A few lines about one ``regretlab run``: what ran, the final (t = T) means of its run table's main
    metrics (the ``*_mean`` entries of the summary), the wall time and where the table went."""
    seeds = summary["seeds"]
    means = ", ".join(
        f"{key[: -len('_mean')]} {value:.6g}" for key, value in summary.items() if key.endswith("_mean")
    )
    return "\n".join(
        [
            f"ran {summary['algorithm']} ({summary['constants']} constants) on {summary['regime']}/"
            f"{summary['instance']}, T = {summary['T']}, seed{'s' if len(seeds) > 1 else ''} "
            f"{' '.join(map(str, seeds))}",
            f"at t = T, mean over {len(seeds)} seed{'s' if len(seeds) > 1 else ''}: {means}",
            f"wall time: {summary['wall_time_s']:.2f} s",
            f"run table: written to {output}" if output else "run table: not written (--output FILE.parquet)",
        ]
    )


def _run_summary(args: argparse.Namespace) -> str:
    summary = _run(args)
    return json.dumps(summary, indent=2) if args.json else format_run(summary, args.output)


def _list(args: argparse.Namespace) -> str:
    """``regretlab list [WHAT [NAME ...]]``."""
    if args.what is None:
        return listing.list_lists()
    if args.what == "algorithms":
        return listing.list_algorithms(args.names)
    if args.what == "bounds":
        return listing.list_bounds(args.names)
    if not Path(args.schema).is_file():
        raise ConfigError(f"--schema: no schema file at {args.schema!r} (run from the repository root)")
    if args.what == "families":
        return listing.list_families(load_schema(args.schema), args.names)
    config = load_config(args.config, args.schema)
    scales = load_schema(args.schema)["properties"]["scale"]["enum"]
    if args.scale is not None and args.scale not in scales:
        raise ConfigError(f"--scale: {not_one_of(args.scale, scales)}")
    return listing.list_regimes(config, args.scale or config["scale"], args.names)


#: What each command prints.
def _verify(args: argparse.Namespace) -> tuple[str, int]:
    lines, trustworthy = verify(show_ok=args.all)
    return "\n".join(lines), 0 if trustworthy else 1


def _export(args: argparse.Namespace) -> str:
    formats = FORMATS if args.format == "both" else (args.format,)
    try:
        written = export_points(args.out, args.regime, formats)
    except ExportError as error:
        raise ConfigError(str(error)) from None
    return "\n".join(f"wrote {path}" for path in written)


def _falsify(args: argparse.Namespace) -> str:
    from regretlab.falsification.report import run_searches, write_falsification

    try:
        results = run_searches(args.scale, tuple(args.search) if args.search else None)
    except ValueError as error:
        raise ConfigError(f"--search: {error}") from None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = [out / f"falsification.{suffix}" for suffix in ("csv", "md", "png", "pdf")]
    frame = write_falsification(results, *names)
    lines = [f"{row.bound}: {row.outcome} (worst measured / bound {row.worst_ratio:.3g}, {row.runs} runs)"
             for row in frame.itertuples(index=False)]  # fmt: skip
    return "\n".join([*lines, *(f"wrote {name}" for name in names)])


#: Each command's output, or its output and exit status.
COMMANDS = {"run": _run_summary, "estimate": _estimate, "list": _list, "verify": _verify, "export": _export,
            "falsify": _falsify}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``regretlab`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "list" and not any(arg.startswith("-") for arg in extra):
        args.names += extra  # names after an option: `regretlab list regimes --config FILE NAME`
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        out = COMMANDS[args.command](args)
    except ConfigError as error:
        print("\n".join(f"regretlab: error: {line}" for line in str(error).splitlines()), file=sys.stderr)
        return USAGE_ERROR
    out, status = out if isinstance(out, tuple) else (out, 0)
    try:
        print(out)
    except BrokenPipeError:  # the reader stopped early (`regretlab list bounds | head`): not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 — Python's own advice: never flush into the pipe again
    return status


if __name__ == "__main__":
    sys.exit(main())
