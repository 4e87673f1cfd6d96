"""README and the guide in docs/: short README, links that resolve, a guide that builds with no warning.

The guide is rendered by MkDocs (``mkdocs.yml``); ``mkdocs build --strict`` turns every warning — a page
missing from the nav, a link to a file or an anchor that does not exist — into a failure. Its reference pages
are generated from the code at build time (``docs/hooks/reference.py``): the built site must list every config
key, algorithm, bound, claim, regime and command. The hand-written pages stay short and hold no history.
README is read on the repository's front page, so its links are checked here: every relative target exists,
and an anchor into a page of docs/ is one of that page's headings.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

#: Markdown links ``[text](target)`` and the ``href``/``src`` of README's HTML thumbnails.
LINK = re.compile(r"\]\(([^)\s]+)\)|(?:href|src)=\"([^\"]+)\"")


def _links(text: str) -> list[str]:
    return [a or b for a, b in LINK.findall(text)]


def _anchors(page: Path) -> set[str]:
    """The ids MkDocs gives the headings of a Markdown page (Python-Markdown's toc slugs)."""
    from markdown.extensions.toc import slugify

    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slugify(title.strip(), "-") for title in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def _commands(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", text, flags=re.S)


def test_readme_is_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 150, f"README.md has {lines} lines: move the detail into docs/ (issue 16: at most 150)"


def test_readme_links_resolve():
    """Every relative link of README points at a file of the repository; anchors into docs/ exist."""
    missing = []
    for target in _links(README.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path, _, anchor = target.partition("#")
        file = REPO / path
        if not file.is_file():
            missing.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            missing.append(f"{target} (no heading with that anchor)")
    assert not missing, f"README.md links to what does not exist: {missing}"


def test_readme_shows_every_shipped_figure():
    """The gallery has a thumbnail of every committed figure, and no other image."""
    shown = {target for target in _links(README.read_text(encoding="utf-8")) if target.endswith(".png")}
    shipped = subprocess.run(
        ["git", "ls-files", "figures/*.png"], cwd=REPO, capture_output=True, text=True
    ).stdout.split()
    if not shipped:
        pytest.skip("no git checkout (or no committed figures): the gallery cannot be compared")
    assert shown == set(shipped)


def test_the_two_commands_are_the_same_everywhere():
    """README's two commands, the guide's and the one CI runs (.ci/run's last line) agree."""
    readme = _commands(README.read_text(encoding="utf-8"))
    guide = _commands((REPO / "docs" / "getting-started.md").read_text(encoding="utf-8"))
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert readme[:2] == guide[:2]
    assert readme[1] == ci
    assert readme[0].startswith("python3.11 -m venv .venv && .venv/bin/pip install -e . && ")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The guide built by `mkdocs build --strict`: no warning (every page in the nav, every link and anchor
    resolves), into a temporary directory."""
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("mkdocs is not installed: it comes with the test extra (pip install -e '.[test]')")
    built = tmp_path_factory.mktemp("guide") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(built)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-6000:]
    assert "WARNING" not in done.stderr, done.stderr[-6000:]
    return built


def test_the_guide_builds_strictly(site):
    built = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    assert "add-an-algorithm/index.html" in built
    assert (site / "figures" / "exp3g_self_aware.png").is_file()  # served by docs/hooks/figures.py


#: The hand-written pages of the guide (the reference pages are generated, docs/notes/ is not part of it;
#: docs/findings.md is not guide but results — what the runs found about the papers —, capped on its own).
FINDINGS = REPO / "docs" / "findings.md"
GUIDE = [path for path in sorted((REPO / "docs").glob("*.md")) if path != FINDINGS]
#: The findings page's own cap: each finding in a few paragraphs, not a paper.
FINDINGS_WORDS = 2_500
#: Issue 21: the guide's hand-written prose, counted as `wc -w` counts, stays within this many words.
GUIDE_WORDS = 12_000


def test_the_guide_is_short():
    words = {path.name: len(path.read_text(encoding="utf-8").split()) for path in GUIDE}
    assert sum(words.values()) <= GUIDE_WORDS, (
        f"the guide's hand-written pages have {sum(words.values())} words, more than {GUIDE_WORDS}: say "
        f"less, or let a generated reference page say it ({words})"
    )


def test_the_findings_page_is_short():
    assert len(FINDINGS.read_text(encoding="utf-8").split()) <= FINDINGS_WORDS


def test_the_guide_is_no_lab_notebook():
    """History (issue numbers, commit hashes) belongs in CHANGELOG.md and git, not in the guide."""
    history = re.compile(r"\b[Ii]ssues? \d+|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")
    found = {path.name: history.findall(path.read_text(encoding="utf-8")) for path in [*GUIDE, FINDINGS]}
    assert not any(found.values()), {name: hits for name, hits in found.items() if hits}


def _reference():
    """docs/hooks/reference.py, the generator of the reference pages, with the registries it reads."""
    spec = importlib.util.spec_from_file_location("reference_hook", REPO / "docs" / "hooks" / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _schema_keys(schema) -> set[str]:
    """Every key a config can have: the property names anywhere in the schema (definitions, branches)."""
    if isinstance(schema, list):
        return set().union(*(_schema_keys(item) for item in schema))
    if not isinstance(schema, dict):
        return set()
    own = set(schema["properties"]) if isinstance(schema.get("properties"), dict) else set()
    return own.union(*(_schema_keys(value) for value in schema.values()))


def _page(site: Path, name: str) -> str:
    return (site / "reference" / name / "index.html").read_text(encoding="utf-8")


def test_the_reference_lists_every_key_name_and_command(site):
    """The generated pages exist and list every config key (with a description), every kind, algorithm,
    metric, bound, claim and regime, and every subcommand of the command line with its options."""
    reference = _reference()
    schema = reference.load_schema(REPO / "schemas" / "config.schema.yaml")
    config = _page(site, "config")
    missing = sorted(key for key in _schema_keys(schema) if f"<code>{key}</code>" not in config)
    assert not missing, f"keys missing from the configuration reference: {missing}"
    undescribed = re.findall(r"<tr>\s*<td><code>(\w+)</code></td>(?:\s*<td>.*?</td>){3}\s*<td>—</td>", config)
    assert not undescribed, f"config keys without a description in the schema: {undescribed}"

    kinds = _page(site, "kinds")
    names = {f"kind {n}": n for n in reference.KINDS}
    names |= {f"algorithm {a}": a for kind in reference.KINDS.values() for a in kind.algorithms}
    assert not [what for what, name in names.items() if f'id="{name}"' not in kinds]
    metrics = [
        m for kind in reference.KINDS.values() for m in kind.metrics if f"<code>{m}</code>" not in kinds
    ]
    assert not metrics, f"metrics missing from the kinds reference: {metrics}"

    bounds = _page(site, "bounds")
    assert not [name for name in reference.BOUNDS if f'id="{name}"' not in bounds]
    claims = _page(site, "claims")
    assert not [claim.key for claim in reference.CLAIMS if f'id="{claim.key}"' not in claims]
    assert not [
        claim.key for claim in reference.UNCHECKED_CLAIMS if f"<code>{claim.key}</code>" not in claims
    ]

    regimes = _page(site, "regimes")
    shipped = yaml.safe_load((REPO / "config.yaml").read_text(encoding="utf-8"))["regimes"]
    assert not [name for name in shipped if f'id="{name}"' not in regimes]

    cli = _page(site, "cli")
    parser = reference.build_parser()
    for command, _, sub in reference._subcommands(parser):
        assert f'id="{command}"' in cli, command
        options = [o for action in sub._actions for o in action.option_strings if o not in ("-h", "--help")]
        assert all(f"<code>{option}" in cli for option in options), (command, options)
