"""The frontier scale (issue 17, item 5): for every claim of the evidence table whose T_informative is finite,
a horizon at or past it in the regime of the curve that attains it, wherever one run there fits a day on one
core; the scale dry-runs, whole and cut as profiles/slurm cuts it.

T_informative is computed here, from the claim registry, the bound functions and the learners of today's
code, on the quick-scale aggregates of the shipped config kept in tests/data/evidence_quick
(tests/evidence_fixture.py). The search extrapolates from measured points, so it needs a default run's
aggregates. A fixture rather than the committed figures/evidence.csv: a changed bound or claim is checked at
once, without a rerun of the workflow and a regeneration of figures/ (which the integrating session does),
and a regime whose config entry changed makes the fixture stale, which the test says."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import evidence_fixture
import pytest
import yaml

from regretlab.analysis.evidence import claim_row, evidence_table, point_at
from regretlab.registry.claims import CLAIMS
from regretlab.registry.theory import BOUNDS, ceiling, trivial_bound
from regretlab.registry.unit_costs import run_seconds
from regretlab.workflow.cli import main
from regretlab.workflow.config import SCALES, ConfigError, load_schema, run_jobs, validate_config
from regretlab.workflow.cost import estimate

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "schemas" / "config.schema.yaml"
SMOKE = REPO / "tests" / "config" / "smoke.yaml"
SHIPPED = evidence_fixture.SHIPPED
#: One run (one seed at one horizon) must fit this on one core, at regretlab.registry.unit_costs' unit costs.
DAY_SECONDS = 24 * 3600


def test_the_scales_are_the_schemas():
    schema = load_schema(SCHEMA)
    assert schema["properties"]["scale"]["enum"] == list(SCALES)
    assert list(schema["$defs"]["regime"]["properties"]["scales"]["properties"]) == list(SCALES)


def test_a_config_run_at_a_scale_needs_its_grid_in_every_regime(capsys, monkeypatch):
    """The smoke config has no frontier grid: at scale frontier, one line per regime names the field (before
    any job: the Snakefile validates the same way); `regretlab estimate --scale frontier` says the same."""
    config = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    config["scale"] = "frontier"
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA)
    lines = str(error.value).splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"config field regimes.{name}.scales" for name in config["regimes"]
    ]
    assert all("has no 'frontier' grid" in line and "add scales.frontier" in line for line in lines)
    monkeypatch.chdir(REPO)
    assert main(["estimate", "--config", str(SMOKE.relative_to(REPO)), "--scale", "frontier"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("regretlab: error: config field regimes.smoke_exp3g.scales: has no 'frontier'")
    # Listing a scale a regime has no grid for shows "-" there.
    assert main(["list", "regimes", "--config", str(SMOKE.relative_to(REPO)), "--scale", "frontier"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert rows and all(row.split()[4:6] == ["-", "-"] for row in rows), rows


@pytest.fixture(scope="module")
def shipped() -> dict:
    return evidence_fixture.shipped_config()


@pytest.fixture(scope="module")
def evidence(shipped):
    """Today's evidence table on the fixture's quick-scale aggregates, with the aggregate rows."""
    summary, exponents, instances, keys = evidence_fixture.load()
    stale = sorted(
        name
        for name, regime in shipped["regimes"].items()
        if keys.get(name) != evidence_fixture.regime_key(regime)
    )
    if stale:
        pytest.fail(
            f"tests/data/evidence_quick holds no quick-scale aggregates of the shipped config's regimes "
            f"{stale} (new or changed since it was made): refresh it with `{evidence_fixture.REFRESH}`"
        )
    # The frontier extends the regimes' own grids: the power-scale archives' rows (<regime>~power) are not
    # theirs.
    summary = summary[~summary["regime"].str.endswith("~power")]
    exponents = exponents[~exponents["regime"].str.endswith("~power")]
    return evidence_table([summary], [exponents], instances, shipped), summary, exponents, instances


def _one_run_hours(config: dict, curve: str, T: float) -> float:
    regime, instance, algorithm = curve.split("/")[:3]
    return run_seconds(regime, config["regimes"][regime], instance, algorithm, math.ceil(T), 1) / 3600


@dataclass
class Reach:
    """One claim with a finite T_informative: its evidence row, the CPU-hours of one run there, and per
    regime of the claim the T_informative of that regime's curves alone (``(T, curve)``, T NaN when none)."""

    row: dict
    hours: float
    per_regime: dict[str, tuple[float, str]]


@pytest.fixture(scope="module")
def reach(evidence, shipped) -> list[Reach]:
    """The T_informative search of each claim (regretlab.analysis.evidence.claim_row), over all its regimes
    and over each alone: a claim is reached by a regime whose own curves speak at a frontier horizon."""
    table, summary, exponents, instances = evidence
    claims = {claim.key: claim for claim in CLAIMS}
    found = []
    for row in table[table["T_informative"].notna()].to_dict("records"):
        claim = claims[row["claim"]]
        rows = summary[summary["bound_name"].isin(claim.bounds)]
        explicit = rows[rows["bound_explicit"].astype(bool) & (rows["direction"] != "reference")]
        # The claim's search is on its explicit bounds when it has any (else on its rates): so per regime.
        candidates = sorted(set((explicit if not explicit.empty else rows)["regime"]))
        if claim.regimes is not None:
            candidates = [regime for regime in candidates if regime in claim.regimes]
        per_regime = {}
        for regime in candidates:
            alone = claim_row(replace(claim, regimes=(regime,)), summary, exponents, instances, shipped)
            per_regime[regime] = (alone["T_informative"], alone["T_informative_curve"])
        hours = _one_run_hours(shipped, row["T_informative_curve"], row["T_informative"])
        found.append(Reach(row, hours, per_regime))
    return found


def _reached_in(shipped: dict, claim: Reach) -> list[tuple[str, float, str]]:
    """The regimes whose frontier grid reaches their own T_informative of the claim (regime, T, curve)."""
    return [
        (regime, T, curve)
        for regime, (T, curve) in claim.per_regime.items()
        if not math.isnan(T)
        and max(shipped["regimes"][regime]["scales"]["frontier"]["horizons"]) >= T
        and _one_run_hours(shipped, curve, T) <= DAY_SECONDS / 3600
    ]


def test_every_claim_that_speaks_within_a_day_is_reached_by_the_frontier_scale(reach, shipped):
    """Wherever one run at a claim's T_informative fits a day, one of the claim's regimes has a frontier
    horizon at or past that regime's own T_informative for the claim; the others are beyond a day at the cost
    model's prices (docs/cluster.md, "Frontier scale", names them)."""
    assert len(reach) >= 10, [claim.row["claim"] for claim in reach]
    missed, past_paper, beyond_a_day = [], [], []
    for claim in reach:
        key = claim.row["claim"]
        if claim.hours > DAY_SECONDS / 3600:
            beyond_a_day.append((key, f"{claim.row['T_informative']:.3g}", f"{claim.hours:.3g} CPU-h"))
            continue
        reached = _reached_in(shipped, claim)
        if not reached:
            missed.append((key, claim.per_regime))
        elif all(T > max(shipped["regimes"][r]["scales"]["paper"]["horizons"]) for r, T, _ in reached):
            past_paper.append(key)
    assert not missed, f"not reached by the frontier scale (claim, T_informative per regime): {missed}"
    # What the frontier scale adds: claims beyond every paper-scale horizon (so this test can fail).
    assert past_paper, "no claim needs more than the paper scale: the frontier scale would be the paper scale"
    print(f"reached past the paper scale: {past_paper}; beyond a day: {beyond_a_day}")


def test_the_frontier_horizons_keep_the_hypotheses_of_the_claims_they_reach(evidence, reach, shipped):
    """At the smallest frontier horizon ≥ T_informative of a regime that reaches an explicit bound
    (extrapolated from its curve's largest measured point below, as the search does): the theorem's
    hypotheses hold (Condition 2 for the CMDP theorems) and the bound is inside the trivial bound and the
    learner's own ceiling, so the check can fail there."""
    _, summary, _, instances = evidence
    checked = []
    for claim in reach:
        for regime, T_informative, curve in _reached_in(shipped, claim):
            _, instance, algorithm, constants, bound = curve.split("/")
            spec = BOUNDS[bound]
            if not spec.explicit:
                continue
            T = min(
                h for h in shipped["regimes"][regime]["scales"]["frontier"]["horizons"] if h >= T_informative
            )
            measured = summary[
                (summary["regime"] == regime) & (summary["instance"] == instance)
                & (summary["algorithm"] == algorithm) & (summary["constants"] == constants)
                & (summary["bound_name"] == bound) & (summary["T"] <= T)
            ].sort_values("T")  # fmt: skip
            kind = shipped["regimes"][regime]["kind"]
            point = point_at(measured.iloc[-1].to_dict(), instances[(regime, instance)], kind, T)
            assert spec.hypotheses is None or spec.hypotheses(point), (claim.row["claim"], regime, T)
            value, upper = spec.evaluate(point), spec.direction != "lower"
            for limit in (trivial_bound(spec, point), ceiling(spec.metric, algorithm, point)):  # NaN: none
                beyond = (value >= limit) if upper else (value <= limit)
                assert math.isfinite(value) and not beyond, (claim.row["claim"], regime, T, value, limit)
            checked.append(claim.row["claim"])
    assert {"theorem4_000", "theorem5_000", "theorem7_000"} <= set(checked), checked


def test_every_frontier_run_fits_a_day(shipped):
    config = {**shipped, "scale": "frontier"}
    runs = [job for name in config["regimes"] for job in run_jobs(config, name)]
    hours = {
        job: run_seconds(job.regime, config["regimes"][job.regime], job.instance, job.algorithm, job.T, 1)
        / 3600
        for job in runs
    }
    longest = max(hours, key=hours.get)
    assert hours[longest] <= DAY_SECONDS / 3600, (longest, hours[longest])


def _snakemake(*args: str, cwd: Path) -> str:
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--dry-run", *args]
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.mark.workflow
@pytest.mark.parametrize("split", [False, True], ids=["whole run sets", "profiles/slurm job split"])
def test_the_frontier_scale_dry_runs_with_the_jobs_of_its_estimate(split, shipped, tmp_path):
    """`snakemake -n --config scale=frontier` on the shipped config, locally and with profiles/slurm (its
    15-minute jobs: the 2.5·10⁹-episode runs are jobs of their own), plans the run jobs of the estimate."""
    if split:
        profile = REPO / "profiles" / "slurm"
        args = [
            "--workflow-profile",
            str(profile),
            "--configfile",
            str(SHIPPED),
            str(profile / "job_size.yaml"),
        ]
    else:
        args = ["--profile", str(REPO / "profiles" / "default"), "--configfile", str(SHIPPED)]
    out = _snakemake(*args, "--config", "scale=frontier", cwd=tmp_path)
    planned = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+_run)\s+(\d+)\s*$", out, re.MULTILINE)}
    config = {**shipped, "scale": "frontier", "job_minutes": 15 if split else None}
    estimates = estimate(config)
    assert planned and sum(planned.values()) == sum(e.run_jobs for e in estimates), (planned, out[-2000:])
    if split:  # every run longer than 15 minutes is a job of its own
        sets = {
            (job.regime, job.algorithm, job.constants)
            for n in config["regimes"]
            for job in run_jobs(config, n)
        }
        assert sum(planned.values()) > len(sets)
