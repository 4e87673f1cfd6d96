"""The evidence table's words agree with its rows (issue 36): every count in the legend of
``figures/evidence.md`` is the number of rows of its tables that it names, README points at the claims its
copy leaves out with their number, and every claim links to a page that exists and states the claim.

Checked on the committed ``figures/evidence.md`` and ``figures/claims/`` (what a reader sees) and on the
table and pages the code writes from the fixture (tests/data/evidence_quick)."""

from __future__ import annotations

import re
from pathlib import Path

import evidence_fixture
import pytest

from regretlab.analysis.evidence import counts as counts_of
from regretlab.analysis.evidence import markdown
from regretlab.analysis.evidence.pages import write_claim_pages
from regretlab.analysis.evidence.table import claim_items
from regretlab.registry.claims import CLAIMS

REPO = Path(__file__).resolve().parents[1]
FIGURES = REPO / "figures"


def _tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of ``text``, each as rows of cells (header and rule dropped)."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
        else:
            current = None
    return [rows[2:] for rows in tables]


def _number(pattern: str, text: str) -> int:
    (found,) = re.findall(pattern, text)
    return int(found)


def check_counts(text: str) -> None:
    """Every count the legend states against the rows of the two tables of an evidence.md."""
    main, unchecked = _tables(text)
    claims = [row for row in main if "*reference*" not in row[0]]
    references = [row for row in main if "*reference*" in row[0]]
    tested = [row for row in claims if row[4] == "**yes**"]
    powered = [row for row in tested if row[5].split(",")[0] in ("uniform", "reference")]
    assert _number(r"claims of the two papers, (\d+) are tested with power", text) == len(powered)
    assert _number(r"\*\*Of (\d+) claims", text) == len(claims) + len(unchecked)
    assert _number(r"(\d+) of them also against the reference learner", text) == sum(
        row[5].startswith("reference") for row in powered
    )
    strong = sum(", strong" in row[5] for row in powered)
    assert _number(r"(\d+) explicit bounds with strong power", text) == strong
    assert _number(r"and (\d+) rates", text) == sum(row[2] == "rate" for row in powered)
    assert _number(r"(\d+) violated where", text) == sum("violated at" in row[6] for row in powered)
    assert _number(r"(\d+) with nominal power", text) == sum(", nominal" in row[5] for row in powered)
    assert _number(r"(\d+) construction checks", text) == sum(row[5] == "construction" for row in tested)
    assert _number(r"and (\d+) lower bound", text) == sum(row[5] == "alternative" for row in tested)
    assert _number(r"(\d+) claims have no check", text) == len(unchecked)
    assert _number(r"(\d+) reference rows", text) == len(references)
    assert _number(r"(\d+) rejected over the measured range", text) == sum(
        "rejected over" in row[6] for row in powered
    )
    assert _number(r"\((\d+) persistent over the last two decades", text) == sum(
        "rejected over the measured range (persistent" in row[6] for row in powered
    )


def test_the_committed_legend_counts_its_rows():
    check_counts((FIGURES / "evidence.md").read_text(encoding="utf-8"))


def test_the_legend_written_from_the_fixture_counts_its_rows(fixture_evidence):
    check_counts(markdown(fixture_evidence))


def test_a_legend_that_miscounts_fails_the_check(fixture_evidence):
    """The check can fail: one claim without a check more in the legend than in the table."""
    text = markdown(fixture_evidence)
    n = _number(r"(\d+) claims have no check", text)
    with pytest.raises(AssertionError):
        check_counts(text.replace(f"{n} claims have no check", f"{n - 1} claims have no check"))


def test_readme_names_where_the_claims_it_leaves_out_are():
    """README quotes the table of checked claims; it states how many claims have no check and links the
    table that lists them."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    _, unchecked = _tables((FIGURES / "evidence.md").read_text(encoding="utf-8"))
    assert f"{len(unchecked)} claims without a check" in readme
    assert "(figures/evidence.md#claims-without-a-check)" in readme


def _links(text: str) -> list[str]:
    return re.findall(r"\]\((claims/[^)]+\.md)\)", text)


def test_every_claim_of_the_committed_table_links_to_its_committed_page():
    text = (FIGURES / "evidence.md").read_text(encoding="utf-8")
    main, unchecked = _tables(text)
    links = _links(text)
    assert len(links) == len(main) + len(unchecked)
    for link in links:
        page = FIGURES / link
        assert page.is_file(), f"{link} is linked from figures/evidence.md but not committed"
        assert page.read_text(encoding="utf-8").startswith("# ")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for link in re.findall(r"\]\(figures/(claims/[^)]+\.md)\)", readme):
        assert (FIGURES / link).is_file(), link


def test_the_pages_written_from_the_fixture_state_each_claim_and_count_its_items(tmp_path, fixture_evidence):
    """Each page states its claim and source, lists exactly the items the table's ``regimes`` column
    counts (one line per point or curve, each saying whether it counted and why not), and links a figure
    of every regime it names."""
    table = fixture_evidence
    summary, exponents, instances, config = evidence_fixture.inputs()
    items = {claim.key: claim_items(claim, summary, exponents, instances) for claim in CLAIMS}
    figures = {regime: f"{regime}.png" for regime in set(summary["regime"])}  # the archives' too
    assert set(figures) > set(config["regimes"])
    write_claim_pages(table, items, figures, tmp_path)
    assert sorted(p.stem for p in tmp_path.iterdir()) == sorted(table["claim"])
    for row in table.to_dict("records"):
        page = (tmp_path / f"{row['claim']}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {row['name']} (paper {row['paper']})\n\n> {row['text']}\n")
        assert row["source"] in page
        item_rows = [r for t in _tables(page) for r in t]
        assert len(item_rows) == row["points"] == len(items.get(row["claim"], []))
        counted = sum("**yes**" in r for r in item_rows)
        assert counted == row["testable_items"]
        for regime in {r[0] for r in item_rows}:
            assert f"[{regime}.png](../{regime}.png)" in page


def test_the_evidence_figures_legend_counts_the_tables_rows(fixture_evidence):
    """The evidence figure's legend counts, per standing, the papers' checked claims of the table: strong and
    nominal power as the headline counts them, every checked claim once."""
    from figure_checks import overlaps

    from regretlab.analysis.evidence.figure import STANDINGS, draw_evidence, legend_counts

    table = fixture_evidence
    n = counts_of(table)
    shown = legend_counts(table)
    assert shown["tested, strong power"] == n["strong"] and shown["tested, nominal power"] == n["nominal"]
    checked = table[(table["role"] == "claim") & ~table["check"].isin(["proof-internal", "not recorded"])]
    assert sum(shown.values()) == len(checked)
    assert shown["not tested"] == int((~checked["tested"].astype(bool)).sum())
    fig = draw_evidence(table)
    try:
        (legend,) = fig.legends
        assert [t.get_text() for t in legend.get_texts()] == [f"{k} ({shown[k]})" for k in STANDINGS]
        assert overlaps(fig) == []
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_the_committed_evidence_csv_reads_back_with_its_types():
    """figures/evidence.csv comes with its column types: the paper "001" reads back as text, not 1."""
    from regretlab.analysis.tables import read_typed_csv

    table = read_typed_csv(FIGURES / "evidence.csv")
    assert set(table["paper"]) == {"000", "001"}
    assert table["tested"].dtype == bool and table["T_power"].dtype == float
