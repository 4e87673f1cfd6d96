"""numba's cache never serves a kernel compiled from other sources (:mod:`regretlab.core.numba_cache`)."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from numba_seed import seed_numba_cache, unchanged_closures

from regretlab.core.numba_cache import MARKER, use_source_keyed_cache
from regretlab.core.sources import source_digest

REPO = Path(__file__).resolve().parents[1]
#: One short Exp3.G run of the smoke config, printed as JSON.
RUN = ["-m", "regretlab.workflow.cli", "run", "--config", "tests/config/smoke.yaml", "--regime",
       "smoke_exp3g", "--instance", "cliques_2x3", "--algorithm", "exp3g", "-T", "200", "--json"]  # fmt: skip


def _copy(tmp_path: Path) -> Path:
    """The package's sources, the configs and the schema, without any compiled cache."""
    copy = tmp_path / "repo"
    shutil.copytree(REPO / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for folder in ("tests/config", "schemas"):
        shutil.copytree(REPO / folder, copy / folder)
    return copy


def _environment(copy: Path, cache_home: Path, **extra: str) -> dict:
    """This process's environment without numba cache settings, importing ``copy``'s sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", MARKER)}
    return env | {"PYTHONPATH": str(copy / "src"), "XDG_CACHE_HOME": str(cache_home), **extra}


def _regret(copy: Path, env: dict) -> float:
    done = subprocess.run([sys.executable, *RUN], cwd=copy, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)["pseudo_regret_mean"]


def test_an_edit_of_a_callees_file_is_played_not_the_cached_kernel(tmp_path):
    """Exp3.G's round (bandits/exp3g.py) inlines bandits/omd.py's entropy step. After η is halved in omd.py
    alone, the next run plays the new step; numba by itself would load exp3g.py's cached machine code, whose
    file did not change, and print the old regret."""
    copy = _copy(tmp_path)
    env = _environment(copy, tmp_path / "cache")
    before = _regret(copy, env)
    assert _regret(copy, env) == before  # the same sources, loaded from the cache
    omd = copy / "src" / "regretlab" / "bandits" / "omd.py"
    old = "_entropy_solve(p, loss_est, eta, lower, True, out)"
    assert omd.read_text().count(old) == 1
    omd.write_text(omd.read_text().replace(old, "_entropy_solve(p, loss_est, 0.5 * eta, lower, True, out)"))
    assert _regret(copy, env) != before


def _logged_run(copy: Path, env: dict, stem: str) -> tuple[set[str], float]:
    """Run :data:`RUN` in ``copy`` with numba's cache log on: ``loaded`` and/or ``saved`` as the compiled
    code of module file ``stem``.py was read from the cache or compiled and written (numba names its data
    files ``<stem>.<function>-<line>…``), and the run's regret."""
    debug = {**env, "NUMBA_DEBUG_CACHE": "1"}
    done = subprocess.run([sys.executable, *RUN], cwd=copy, env=debug, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    log = [line for line in done.stdout.splitlines() if line.startswith("[cache] ")]
    printed = [line for line in done.stdout.splitlines() if not line.startswith("[cache] ")]
    events = {line.split()[2] for line in log if line.startswith("[cache] data") and f"/{stem}." in line}
    return events, json.loads("\n".join(printed))["pseudo_regret_mean"]


def test_a_seeded_copy_reads_the_unchanged_kernels_and_compiles_what_an_edit_reaches(tmp_path, monkeypatch):
    """tests/numba_seed.py hands a copy of the package this package's compiled kernels: the copy's Exp3.G run
    reads exp3g.py's round from the cache instead of compiling it. After omd.py's step is edited in the copy,
    exp3g.py (unchanged, but it imports omd.py) is not handed over: its round is compiled again and plays the
    edit, as in the test above without seeding."""
    subprocess.run([sys.executable, *RUN], cwd=REPO, capture_output=True, check=True)  # our cache holds it
    copy = _copy(tmp_path)
    package = copy / "src" / "regretlab"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    env = _environment(copy, tmp_path / "cache")
    assert seed_numba_cache(package) > 0
    events, before = _logged_run(copy, env, "exp3g")
    assert events == {"loaded"}

    omd = package / "bandits" / "omd.py"
    old = "_entropy_solve(p, loss_est, eta, lower, True, out)"
    omd.write_text(omd.read_text().replace(old, "_entropy_solve(p, loss_est, 0.5 * eta, lower, True, out)"))
    kept = {path.relative_to(package).as_posix() for path in unchanged_closures(package)}
    assert {"bandits/omd.py", "bandits/exp3g.py"}.isdisjoint(kept) and "cmdp/flow_newton.py" in kept
    seed_numba_cache(package)
    events, after = _logged_run(copy, env, "exp3g")
    assert "saved" in events and after != before


def test_a_child_process_keys_the_cache_by_its_own_sources(tmp_path, monkeypatch):
    """The directory regretlab set is recomputed in a process whose sources differ (a Snakemake job of a
    copy of the repository); one the user set is kept."""
    copy = _copy(tmp_path)
    (copy / "src" / "regretlab" / "added.py").write_text('"""A module only the copy has."""\n')
    ours = str(tmp_path / "cache" / "regretlab" / "numba" / source_digest())
    probe = ["-c", "import os, regretlab; print(os.environ['NUMBA_CACHE_DIR'])"]
    inherited = _environment(copy, tmp_path / "cache", NUMBA_CACHE_DIR=ours, **{MARKER: ours})
    printed = subprocess.run([sys.executable, *probe], env=inherited, capture_output=True, text=True)
    theirs = tmp_path / "cache" / "regretlab" / "numba" / source_digest(copy / "src" / "regretlab")
    assert printed.stdout.strip() == str(theirs) != ours
    users = _environment(copy, tmp_path / "cache", NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    printed = subprocess.run([sys.executable, *probe], env=users, capture_output=True, text=True)
    assert printed.stdout.strip() == str(tmp_path / "mine")


def test_the_digest_follows_every_source_file_and_old_versions_are_pruned(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "b.py").write_text("y = 2\n")
    first = source_digest(package)
    (package / "notes.txt").write_text("not a source\n")
    assert source_digest(package) == first
    (package / "sub" / "b.py").write_text("y = 3\n")
    second = source_digest(package)
    assert second != first
    (package / "sub" / "b.py").rename(package / "b.py")  # the same bytes elsewhere: another version
    assert source_digest(package) not in (first, second)

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv(MARKER, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "cache" / "regretlab" / "numba"
    old, recent = root / "old", root / "recent"
    for folder in (old, recent):
        folder.mkdir(parents=True)
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))
    chosen = use_source_keyed_cache(source_digest(package))
    assert chosen == str(root / source_digest(package)) == os.environ["NUMBA_CACHE_DIR"] == os.environ[MARKER]
    assert not old.exists() and recent.exists()
