"""The shipped configuration and what README quotes of it, kept apart from a user's working config.yaml.

Tests that describe the *shipped* configuration (README's quoted blocks, regimes named by a test) read
``tests/config/default.yaml``, a copy of the shipped ``config.yaml``; tests that check whatever config the
user runs (it validates, its dry run plans, its captions render) read ``config.yaml``. So a user's edit of
``config.yaml`` — a new regime, another horizon — breaks no test, and one check says when the copy is stale:
:func:`test_default_config_fixture_is_the_shipped_config`.

Refreshing after changing the shipped config on purpose::

    cp config.yaml tests/config/default.yaml
    .venv/bin/pytest tests/test_shipped_files.py   # prints any README block to paste
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from regretlab.workflow.archive import archived_run_seconds
from regretlab.workflow.cli import main
from regretlab.workflow.config import validate_config
from regretlab.workflow.cost import estimate, wall_seconds

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
SHIPPED = REPO / "tests" / "config" / "default.yaml"
REFRESH = "cp config.yaml tests/config/default.yaml"
SCHEMA = REPO / "schemas" / "config.schema.yaml"


def _uncommitted(path: Path) -> bool | None:
    """Whether ``path`` has edits git has not committed; None outside a git checkout (or without git)."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return bool(done.stdout.strip()) if done.returncode == 0 else None


def test_default_config_fixture_is_the_shipped_config():
    """tests/config/default.yaml holds what config.yaml holds (comments aside). A difference is a user's edit
    while config.yaml has uncommitted changes (or no git tells): skipped, naming it. Committed, or under
    CI=true, it means the shipped config changed without its copy: a failure saying how to refresh it."""
    working = yaml.safe_load((REPO / "config.yaml").read_text(encoding="utf-8"))
    shipped = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    if working == shipped:
        return
    changed = sorted(
        name
        for name in working.get("regimes", {}).keys() | shipped.get("regimes", {}).keys()
        if working.get("regimes", {}).get(name) != shipped.get("regimes", {}).get(name)
    )
    others = sorted(
        key
        for key in working.keys() | shipped.keys()
        if key != "regimes" and working.get(key) != shipped.get(key)
    )
    what = " and ".join(
        part for part in (changed and f"regimes {changed}", others and f"fields {others}") if part
    )
    uncommitted = _uncommitted(REPO / "config.yaml")
    if os.environ.get("CI") != "true" and uncommitted is not False:
        how = "with edits not committed" if uncommitted else "outside a git checkout"
        pytest.skip(
            f"config.yaml differs from the shipped copy tests/config/default.yaml ({what}), {how}: taken "
            f"for your experiment, which no test reads as the shipped config. To ship it: {REFRESH}, then "
            f"refresh what README quotes (pytest tests/test_shipped_files.py)"
        )
    pytest.fail(
        f"config.yaml differs from tests/config/default.yaml, the shipped copy that README's blocks and the "
        f"tests of the shipped regimes read ({what}). If the change is the new shipped config: {REFRESH}, "
        f"then pytest tests/test_shipped_files.py prints any README block to refresh. If config.yaml is your "
        f"own experiment, nothing is wrong: deselect this check (--deselect "
        f"tests/test_shipped_files.py::test_default_config_fixture_is_the_shipped_config)"
    )


def _quoting_files() -> list[Path]:
    """The Markdown files that may quote `regretlab estimate`: README and the guide (not docs/notes/)."""
    notes = REPO / "docs" / "notes"
    guide = [path for path in sorted((REPO / "docs").glob("**/*.md")) if notes not in path.parents]
    return [REPO / "README.md", *guide]


def _quoted_estimates() -> list[tuple[str, list[str], str]]:
    """(file, arguments, block) of every fenced block README or the guide quote from `regretlab estimate`: a
    block whose first line is ``scale: <name>`` (the output of ``regretlab estimate --scale <name>``) or
    ``$ regretlab estimate <arguments>`` followed by its output. A ``--calibrate`` block is an example of a
    machine's measurement (abridged), not checked."""
    found = []
    pattern = r"```\n(?:\$ regretlab (estimate [^\n]*)\n)?(scale: (\w+)[^\n]*\n.*?)```"
    for path in _quoting_files():
        for match in re.finditer(pattern, path.read_text(encoding="utf-8"), flags=re.S):
            command, block, scale = match.groups()
            arguments = shlex.split(command) if command else ["estimate", "--scale", scale]
            if "--calibrate" not in arguments:
                found.append((str(path.relative_to(REPO)), arguments, block))
    return found


def test_readme_quotes_the_estimate_of_the_shipped_config(capsys, monkeypatch):
    """README's and the guide's `regretlab estimate` blocks are that command's output on the shipped config
    (tests/config/default.yaml, not the working config.yaml, which a user may have edited)."""
    monkeypatch.chdir(REPO)
    quoted = _quoted_estimates()
    assert quoted, "README.md (or docs/) no longer quotes `regretlab estimate`: drop this test with it"
    for path, arguments, block in quoted:
        assert main([*arguments, "--config", str(SHIPPED.relative_to(REPO))]) == 0
        printed = capsys.readouterr().out
        command = " ".join(["regretlab", *arguments])
        assert block == printed, (
            f"{path}'s `{command}` block is stale: replace it with the output of "
            f"`{command} --config tests/config/default.yaml`:\n{printed}"
        )


def test_every_quoted_estimate_block_is_checked():
    """Every fenced block of README or the guide that opens with ``scale: `` or ``$ regretlab estimate``
    (but a ``--calibrate`` one) is checked above: a block the pattern missed would stay stale unnoticed."""
    opened = 0
    for path in _quoting_files():
        text = path.read_text(encoding="utf-8")
        opened += len(re.findall(r"```\n(?:scale: |\$ regretlab estimate (?![^\n]*--calibrate))", text))
    assert opened == len(_quoted_estimates())


def _committed_and_unmodified(path: Path) -> str | None:
    """None when git tracks ``path`` and it has no uncommitted edit; else why not."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "outside a git checkout"
    if done.returncode == 1:  # git: "did not match any file(s) known to git"
        return "not committed"
    if done.returncode != 0:
        return "outside a git checkout"
    return "edited since its last commit" if _uncommitted(path) else None


def _evidence_table(text: str) -> str:
    """The first Markdown table of figures/evidence.md (its header, rule and one row per checked claim), as
    one block, its links to the claim pages as README writes them (the claims without a check follow in a
    table of their own, which README does not quote)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    # The claim pages are linked from figures/ there, from the repository's root in README.
    return "\n".join(lines[start:end]).replace("](claims/", "](figures/claims/")


def test_readme_quotes_the_committed_evidence_table():
    """README opens with the evidence table: its copy is the committed figures/evidence.md's, row for row,
    with the same count of tested claims. While either file is uncommitted or edited (a user who reran the
    workflow has a new figures/evidence.md) the check skips, naming why; under CI=true it fails instead."""
    evidence = REPO / "figures" / "evidence.md"
    why = [f"{path.relative_to(REPO)} is {reason}" for path in (README, evidence)
           if (reason := _committed_and_unmodified(path) if path.exists() else "missing")]  # fmt: skip
    if why:
        message = (
            f"README's evidence table is checked against the committed figures/evidence.md only, and "
            f"{' and '.join(why)}"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI: commit figures/evidence.md with the figures it was built with)")
        pytest.skip(message)
    text = evidence.read_text(encoding="utf-8")
    table = _evidence_table(text)
    readme = README.read_text(encoding="utf-8")
    assert table in readme, (
        "README's evidence table is not figures/evidence.md's: replace README's table by these lines:\n"
        + table
    )
    headline = r"\*\*(Of \d+ claims of the two papers, \d+ are tested with power [^*]*)\.\*\*"
    (count,) = re.findall(headline, text)
    assert f"**{count}.**" in readme, f"README's count of tested claims should read: **{count}.**"
    assert readme.index(table) < readme.index("## The two commands"), "the evidence table comes first"


def test_readme_gives_the_power_scales_predicted_and_last_wall_times():
    """README's hours for the power scale on 2 cores are what `regretlab estimate --scale power --workers 2`
    prints for the shipped config: its prediction, and the last refresh's runs (their own wall times, archive
    provenance) spread on 2 workers the same way."""
    config = validate_config({**yaml.safe_load(SHIPPED.read_text()), "scale": "power"}, SCHEMA)
    predicted = wall_seconds([s for e in estimate(config) for s in e.job_seconds], 2)
    measured = archived_run_seconds(config, REPO / "archive" / "power")
    last = wall_seconds([s for times in measured.values() for s in times], 2)
    hours = f"{predicted / 3600:.1f} h predicted on 2 cores, {last / 3600:.1f} h at the last refresh"
    said = f"power-scale runs ({hours})"
    assert said in README.read_text(encoding="utf-8"), f"README should say: {said}"


#: The tests that read config.yaml, README or the shipped copy, and the CLI's and the dry run's (not the long
#: runs): what a user's edit of config.yaml could break.
EDIT_SENSITIVE = [
    "tests/test_config.py",
    "tests/test_cli.py",
    "tests/test_cost.py",
    "tests/test_shipped_files.py::test_default_config_fixture_is_the_shipped_config",
    "tests/test_shipped_files.py::test_readme_quotes_the_estimate_of_the_shipped_config",
    "tests/bandits/test_algorithm2.py::test_regimes_run_each_algorithm_with_the_presets_it_has",
    "tests/cmdp/test_cmdp_instance.py::test_every_config_instance_meant_to_bind_binds",
    "tests/test_workflow.py::test_default_config_dry_run_plans_every_figure",
    "tests/test_workflow.py::test_every_figure_caption_is_valid_restructuredtext",
]


def _users_edit(config: dict) -> dict:
    """What README tells a user to do: a new regime of an existing kind (a copy of one under another name),
    and another horizon in an existing regime (the last quick horizon of each regime a test names)."""
    regimes = config["regimes"]
    first = next(iter(regimes))
    regimes[f"my_{first}"] = yaml.safe_load(yaml.safe_dump(regimes[first]))
    for regime in regimes.values():
        quick = regime["scales"]["quick"]
        if len(quick["horizons"]) > 1 and isinstance(quick["seeds"], int):
            quick["horizons"][-1] = quick["horizons"][-1] // 2 + quick["horizons"][-2] // 2 + 1
            break
    for name in ("weak_bipartite_best_in_S", "weak_theorem5_lower_bound"):
        if name in regimes:
            regimes[name]["scales"]["quick"]["horizons"][-1] += 1000
    return config


@pytest.mark.workflow
def test_the_suite_survives_a_users_edit_of_the_config(tmp_path):
    """In a copy of the repository whose config.yaml has a new regime and changed horizons, the tests that
    read config.yaml, README or the shipped copy, the CLI's and the dry run's all pass (the copy check skips,
    naming the edit)."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, text=True
    ).stdout.split("\0")
    copy = tmp_path / "repo"
    for name in filter(None, tracked):
        if (REPO / name).is_file() and not name.startswith("figures/"):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, copy / name)
    shutil.copy2(REPO / "config.yaml", copy / "config.yaml")  # the working one, as this test found it
    shutil.copy2(SHIPPED, copy / "tests" / "config" / "default.yaml")
    config = yaml.safe_load((copy / "config.yaml").read_text(encoding="utf-8"))
    (copy / "config.yaml").write_text(yaml.safe_dump(_users_edit(config), sort_keys=False), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *EDIT_SENSITIVE],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "1 skipped" in done.stdout and "failed" not in done.stdout, done.stdout[-3000:]
