"""Reruns only of what changed: the library files a job runs are its inputs (regretlab.workflow.imports), and
its params hold only what it reads. On a copy of the library (PYTHONPATH), so that it can be edited."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from numba_seed import seed_numba_cache
from workflow_runs import REPO, SMOKE, planned_jobs, snakemake

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def library_copy(tmp_path_factory) -> tuple[Path, dict]:
    """A working directory where the smoke workflow ran on a copy of the library, and the environment that
    makes Snakemake and its jobs import that copy."""
    base = tmp_path_factory.mktemp("library_copy")
    shutil.copytree(REPO / "src", base / "src", ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(base / "src")}
    seed_numba_cache(base / "src" / "regretlab")  # its kernels are this package's (tests/numba_seed.py)
    work = base / "work"
    work.mkdir()
    snakemake("--configfile", str(SMOKE), cwd=work, env=env)
    return work, env


def test_editing_one_learner_reruns_only_its_run_jobs(library_copy):
    """Theorem 2's module is imported by no other smoke learner: editing it reruns its run job and what
    reads that job's tables (and the evidence table, which builds learners), nothing else; the reason names
    the file. Saving it unchanged reruns nothing."""
    work, env = library_copy
    module = Path(env["PYTHONPATH"]) / "regretlab" / "bandits" / "theorem2.py"
    source = module.read_text(encoding="utf-8")
    try:
        module.touch()
        assert "Nothing to be done" in snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env).stdout
        module.write_text(source + "# an edit\n", encoding="utf-8")
        done = snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env)
    finally:
        module.write_text(source, encoding="utf-8")
    assert planned_jobs(done.stdout) == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=theorem2, part=0"),
        ("crossover", ""),  # it reads every summary
        ("evidence_table", ""),  # it builds learners (their constants at other horizons)
        ("falsification", ""),  # it builds every learner and reads every bound
        ("regime_summary", "regime=smoke_exp3g"),
        ("tables", ""),
    ], done.stdout
    assert f"reason: Updated input files: {module}" in done.stdout


#: The jobs that read every registry entry and summary, rerun by any edit of a registry's file.
WHOLE_READERS = [("crossover", ""), ("evidence_table", ""), ("falsification", ""), ("tables", "")]


#: The recipe's entry of a new algorithm (docs/add-an-algorithm.md), for a learner no smoke regime runs.
NEW_ENTRY = """    "exp3_blind": AlgorithmSpec(
        build=lambda instance, horizon, rng, constants, oracle: Exp3Blind(
            instance.graph, horizon, rng, constants
        ),
        description="Exp3 on the played arm's loss alone, ignoring side observations (a template baseline)",
        label="Exp3, no side observations",
        colour=PALETTE["teal"],
        presets=Exp3Blind.presets,
        params=("eta",),
        graph_class="self_aware",
    ),
"""


def dry_run_after(library_copy, edits: dict[Path, str]) -> str:
    """The dry run's output after writing ``edits`` (file → new text) into the library copy; every file is
    put back (or removed, if new) afterwards."""
    work, env = library_copy
    before = {path: path.read_text(encoding="utf-8") if path.exists() else None for path in edits}
    try:
        for path, text in edits.items():
            path.write_text(text, encoding="utf-8")
        return snakemake("--configfile", str(SMOKE), "-n", cwd=work, env=env).stdout
    finally:
        for path, text in before.items():
            if text is None:
                path.unlink()
            else:
                path.write_text(text, encoding="utf-8")


def test_adding_an_algorithm_reruns_no_run_job_and_editing_one_entry_reruns_its_own(library_copy):
    """The registry's file is no input of a run job: a new entry (its learner's import included) reruns no
    run job and no summary of a regime that does not run it, only the tables that read every entry; an edit
    of one entry, or of a helper only it uses, reruns that algorithm's run job (and what reads its tables)."""
    bandits = Path(library_copy[1]["PYTHONPATH"]) / "regretlab" / "bandits"
    registry = bandits / "algorithms.py"
    source = registry.read_text(encoding="utf-8")
    end = "    ),\n}\n\n\ndef make_learner("
    assert source.count(end) == 1
    added = source.replace(end, "    ),\n" + NEW_ENTRY + end.removeprefix("    ),\n")).replace(
        "from regretlab.bandits.exp3g import Exp3G\n",
        "from regretlab.bandits.exp3_blind import Exp3Blind\nfrom regretlab.bandits.exp3g import Exp3G\n",
    )
    learner = (REPO / "docs" / "recipes" / "exp3_blind.py").read_text(encoding="utf-8")
    done = dry_run_after(library_copy, {registry: added, bandits / "exp3_blind.py": learner})
    assert planned_jobs(done) == WHOLE_READERS, done

    assert source.count('label="Exp3.G",') == 1
    done = dry_run_after(
        library_copy, {registry: source.replace('label="Exp3.G",', 'label="Exp3.G, edited",')}
    )
    assert planned_jobs(done) == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=exp3g, part=0"),
        ("crossover", ""),
        ("evidence_table", ""),
        ("falsification", ""),
        ("regime_summary", "regime=smoke_exp3g"),
        ("tables", ""),
    ], done
    assert "reason: Params have changed since last execution" in done and "'exp3g': '" in done

    helper = (
        "    beta = meta_graph(graph).in_s.size\n"  # Algorithms 1 and 4's horizon rule: no smoke regime's
    )
    assert source.count(helper) == 1
    done = dry_run_after(library_copy, {registry: source.replace(helper, helper + "    # an edit\n")})
    assert planned_jobs(done) == WHOLE_READERS, done
    helper = "        clipped_simplex_bounds(graph.n_arms, horizon)\n"  # Theorem 2's (and 3's, Algorithm 5's)
    assert source.count(helper) == 1
    done = dry_run_after(library_copy, {registry: source.replace(helper, helper + "        # an edit\n")})
    assert [job for job in planned_jobs(done) if job[0] == "bandit_run"] == [
        ("bandit_run", "regime=smoke_exp3g, algorithm=theorem2, part=0"),
    ], done


def test_editing_one_bounds_entry_reruns_only_the_summaries_that_draw_it(library_copy):
    """A kind's bound registry is no input of a summary: an edit of one bound's entry reruns the summaries of
    the regimes that draw it (and the tables, which read every bound), no run and no other summary; the
    reason names the bound."""
    package = Path(library_copy[1]["PYTHONPATH"]) / "regretlab"
    bandit, cmdp = package / "bandits" / "bound_registry.py", package / "cmdp" / "bound_registry.py"
    edits = {
        (bandit, 'label="√(αT ln K)",'): ("smoke_exp3g", "exp3g_rate"),  # smoke_exp3g's Exp3.G
        (cmdp, 'label="E^r_δ + ζE^G_δ + ζE^q_δ + R^D_T(0) + R^P_T(q*)",'): ("smoke_cmdp", "theorem5_regret"),
    }
    for (registry, old), (regime, bound) in edits.items():
        source = registry.read_text(encoding="utf-8")
        assert source.count(old) == 1, old
        done = dry_run_after(library_copy, {registry: source.replace(old, old.replace('",', ' (edited)",'))})
        summary = ("regime_summary", f"regime={regime}")
        expected = [("crossover", ""), ("evidence_table", ""), ("falsification", ""), summary, ("tables", "")]
        assert planned_jobs(done) == expected, done
        assert "reason: Params have changed since last execution" in done and f"'{bound}': '" in done
    # A comment reruns no summary (the tables, which read the kinds' registries whole, rerun).
    source = bandit.read_text(encoding="utf-8")
    done = dry_run_after(
        library_copy,
        {bandit: source.replace("\n\n\ndef _checkpoint(", "\n\n\n# a comment\ndef _checkpoint(")},
    )
    whole = ("crossover", "evidence_table", "falsification", "tables")
    assert not [job for job in planned_jobs(done) if job[0] not in whole], done


def test_a_title_or_another_scale_reruns_no_simulation(library_copy, tmp_path):
    """Editing a regime's `theorem:` and its unused `paper:` grid reruns its summary job (the title is in the
    table and the figure) and no instance or run job; the reason names the field."""
    work, env = library_copy
    text = SMOKE.read_text(encoding="utf-8")
    edits = [
        ('theorem: "Theorem 5 (stochastic constraints)"', 'theorem: "Theorem 5, renamed"'),
        ("paper: {horizons: [60, 120], seeds: 2}", "paper: {horizons: [60, 120, 240], seeds: 4}"),
    ]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    edited = tmp_path / "edited.yaml"
    edited.write_text(text, encoding="utf-8")
    done = snakemake("--configfile", str(edited), "-n", cwd=work, env=env)
    summary = ("regime_summary", "regime=smoke_cmdp")
    expected = [("crossover", ""), ("evidence_table", ""), summary, ("tables", "")]
    assert planned_jobs(done.stdout) == expected, done.stdout
    # Snakemake lists the changed parameters before and now, each whole, in no fixed order
    reason = re.search(r"Params have changed since last execution: .* before: (.*) now: (.*)", done.stdout)
    assert reason, done.stdout
    assert "{'regimes.smoke_cmdp.theorem': 'Theorem 5 (stochastic constraints)'}" in reason.group(1)
    assert "{'regimes.smoke_cmdp.theorem': 'Theorem 5, renamed'}" in reason.group(2)
    assert "{'regimes.smoke_cmdp.scales': " in reason.group(2)
