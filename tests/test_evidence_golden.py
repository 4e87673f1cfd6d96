"""The evidence table's verdicts pinned: on the shipped fixture (tests/data/evidence_quick) the table built
by today's code says, claim by claim, exactly what tests/data/evidence_golden.csv says — which claims are
tested, with which power and outcome, what blocks the others, their items (regimes, counts, mechanism values,
identical families), and their T_informative and T_power with the curve, note and CPU-hours. A change
that alters any of it fails here with the diff; when the change is intended, regenerate the file (command in
the failure message) and review its diff in the commit."""

from __future__ import annotations

import difflib
import io
import math
import re
from dataclasses import replace

import evidence_fixture
import pandas as pd
import pytest

from regretlab.analysis import evidence
from regretlab.analysis.evidence import table as table_module
from regretlab.analysis.evidence.items import Item
from regretlab.analysis.tables import read_typed_csv
from regretlab.registry.claims import CLAIMS_BY_KEY, UNCHECKED_CLAIMS
from regretlab.workflow.archive import archive_status


def test_the_evidence_table_of_the_fixture_is_the_golden_one(fixture_evidence):
    expected = evidence_fixture.GOLDEN.read_text(encoding="utf-8")
    actual = evidence_fixture.golden_table(fixture_evidence)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True), "golden", "today"
            )
        )
        pytest.fail(f"the evidence table changed; if intended, run {evidence_fixture.REGENERATE}:\n{diff}")


#: A few claims whose rows take about a second or less each, one of each way a row is decided: a rate untested
#: (T_informative from the rate search), a rate tested against the reference learner, an explicit bound
#: untested with a T_power, one tested against uniform play below the smallest horizon searched, a
#: mechanism tested against the reference, a construction check, a lower bound with its alternative, an
#: explicit bound that is never informative (implied), one whose uniform play has no value (no T_power) and
#: one whose mechanism the learner's ceiling rules out below T_informative.
QUICK_CLAIMS = [
    "theorem14", "theorem17", "theorem5_000", "theorem3_000", "theorem8_S", "lemma14_000", "theorem5",
    "dual_regret", "theorem7_S", "theorem4_000", "theorem6_000",
]  # fmt: skip


#: CSV cells as written (strings, empty cells kept empty).
AS_WRITTEN = {"dtype": str, "keep_default_na": False}


@pytest.mark.parametrize("key", QUICK_CLAIMS)
def test_a_claims_row_on_the_fixture_is_its_golden_row(key):
    """The golden row of one claim, computed alone (seconds, not the whole table's half minute): what
    ``benchmarks/mutation.py`` runs for every mutant of the evidence table's code."""
    summary, exponents, instances, config = evidence_fixture.inputs()
    row = evidence.claim_row(CLAIMS_BY_KEY[key], summary, exponents, instances, config)
    actual = pd.read_csv(io.StringIO(evidence_fixture.golden_table(pd.DataFrame([row]))), **AS_WRITTEN)
    assert actual.set_index("claim").loc[key].to_dict() == evidence_fixture.golden_rows().loc[key].to_dict()


def test_the_evidence_files_of_one_claims_rows(tmp_path):
    """The table of Theorem 5's (paper 000) rows of the fixture: a row for each claim those bounds check and
    one for each claim without a check; the CSV keeps six significant digits (T_informative ≈ 5.36·10⁷ on the
    one-layer CMDP, the power-scale archive's margin 0.468, the floor ≈ 3.59·10⁷) and the Markdown is the
    table's."""
    summary, exponents, instances, config = evidence_fixture.inputs()
    bounds = CLAIMS_BY_KEY["theorem5_000"].bounds
    csv, md = tmp_path / "evidence.csv", tmp_path / "evidence.md"
    table = evidence.write_evidence_table(
        [summary[summary["bound_name"].isin(bounds)]],
        [exponents[exponents["bound_name"].isin(bounds)]],
        instances,
        config,
        csv,
        md,
        tmp_path / "claims",
        tmp_path / "evidence.png",
        tmp_path / "evidence.pdf",
    )
    assert list(table["claim"]) == ["theorem5_000", "theorem7_000", *(c.key for c in UNCHECKED_CLAIMS)]
    # A page per row, the figure, and the CSV's column types beside it: the paper reads back as text.
    assert sorted(p.stem for p in (tmp_path / "claims").iterdir()) == sorted(table["claim"])
    assert (tmp_path / "evidence.png").stat().st_size > 0 and (tmp_path / "evidence.pdf").stat().st_size > 0
    assert set(read_typed_csv(csv)["paper"]) == {"000", "001"}
    assert list(table.columns) == evidence.CSV_COLUMNS
    line = next(
        line for line in csv.read_text(encoding="utf-8").splitlines() if line.startswith("theorem5_000,")
    )
    assert re.search(r",strong,0\.468\d*,holds at 1/1 pts,", line)
    assert re.search(r",5\.36\d*e\+07,cmdp_theorem5_small/one_layer/", line)
    assert re.search(r",3\.58\d*e\+07,", line)  # T_floor
    assert md.read_text(encoding="utf-8") == evidence.markdown(table)
    written = pd.read_csv(io.StringIO(evidence_fixture.golden_table(table.iloc[:1])), **AS_WRITTEN)
    assert written.iloc[0].to_dict() == {
        "claim": "theorem5_000",
        **evidence_fixture.golden_rows().loc["theorem5_000"],
    }


@pytest.mark.parametrize(
    ("key", "alternative", "T_informative", "T_power"),
    [
        ("lemma14_000", None, 100.0, 100.0),
        ("theorem5", None, 31623.0, 31623.0),
        ("theorem5", "", 31623.0, math.nan),
    ],
)
def test_where_a_construction_check_or_a_lower_bound_would_have_power(
    key, alternative, T_informative, T_power
):
    """The fixture's rows with every point's hypotheses failing, so that nothing is tested and T_power is
    searched: a construction check (Lemma 14) and a lower bound naming its alternative (Theorem 5, paper
    001) have power wherever they speak (T_power = T_informative: 10², 31 623); a lower bound naming none
    never has power (uniform play passes every lower bound on regret)."""
    summary, exponents, instances, config = evidence_fixture.inputs()
    claim = CLAIMS_BY_KEY[key]
    claim = claim if alternative is None else replace(claim, alternative=alternative)
    row = evidence.claim_row(claim, summary.assign(hypotheses_hold=False), exponents, instances, config)
    assert not row["tested"] and row["why"].startswith("hypotheses fail")
    assert (row["T_informative"], row["T_power"]) == pytest.approx((T_informative, T_power), nan_ok=True)


def test_earlier_checkpoints_and_twin_families_do_not_move_where_a_claim_speaks():
    """T_informative and T_power are searched from each curve's point at its horizon (t = T), over curve
    families that are not a copy of another: Lemma 14's rows of its check on V_t (which speaks from T = 244,
    inside the search) with earlier checkpoints (t = T/2, every mean a hundredth) put first and a
    bit-identical family listed before the original (``a_twin``) give the horizon, curve and note of its rows
    alone."""
    summary, exponents, instances, config = evidence_fixture.inputs()
    claim = replace(CLAIMS_BY_KEY["lemma14_000"], bounds=("lemma14_violation",))
    rows = summary[summary["bound_name"].isin(claim.bounds)]
    means = [column for column in rows.columns if column.endswith("_mean")]
    earlier = rows.assign(t=rows["T"] // 2, **{column: rows[column] * 0.01 for column in means})
    twin = rows.assign(algorithm="a_twin", identical_to=rows["algorithm"] + "/" + rows["constants"])
    row = evidence.claim_row(claim, pd.concat([earlier, rows, twin]), exponents, instances, config)
    alone = evidence.claim_row(claim, rows, exponents, instances, config)
    assert row["T_informative"] == alone["T_informative"] == 244.0
    assert (row["T_informative_curve"], row["T_informative_note"]) == (
        alone["T_informative_curve"],
        alone["T_informative_note"],
    )
    assert row["identical"].startswith("cmdp_theorem5: a_twin/paper = pdgd_ops/paper")


#: The columns of figures/evidence.csv that are numbers (the others are text, empty cells kept empty).
def test_the_shipped_evidence_md_is_the_markdown_of_the_shipped_csv():
    """figures/evidence.md, as committed, is exactly what :func:`evidence.markdown` writes from the committed
    figures/evidence.csv: every cell's wording (horizons, hours, blocks, the legend's counts) is pinned."""
    table = read_typed_csv(evidence_fixture.REPO / "figures" / "evidence.csv")
    shipped = (evidence_fixture.REPO / "figures" / "evidence.md").read_text(encoding="utf-8")
    config = evidence_fixture.shipped_config()
    archives = {
        path.parent.name: archive_status(path.parent, config["regimes"][path.parent.name])
        for path in sorted((evidence_fixture.REPO / "archive" / "power").glob("*/provenance.json"))
    }  # the power-scale archives the default run reads, each with its status today
    assert archives and all(status["fresh"] for status in archives.values())
    assert evidence.markdown(table, archives) == shipped


def _item(block: str, power: str = "") -> Item:
    outcome = "holds" if block in ("", "preset") else ""
    return Item("r", block, {"verdict": "holds", "constants": "tuned"}, outcome=outcome, power=power)


@pytest.mark.parametrize(
    ("blocks", "tested", "power"),
    [
        ([("vacuous", ""), ("", "uniform")], True, "uniform"),  # one testable item suffices
        ([("vacuous", ""), ("powerless", "")], False, ""),  # none: every item blocked
        ([("", "uniform"), ("", "reference")], True, "reference"),  # the strongest power
        ([("", "construction"), ("", "uniform")], True, "uniform"),
        ([("preset", "uniform")], False, ""),  # shown, not counted
    ],
)
def test_a_claim_is_tested_when_some_item_is_testable_with_its_strongest_power(
    monkeypatch, blocks, tested, power
):
    """The row decision itself, on hand-made mixes of blocked and testable items (claim_row reads the items'
    blocks; the searches are stubbed)."""
    items = [_item(block, item_power) for block, item_power in blocks]
    monkeypatch.setattr(table_module, "point_items", lambda *args: items)
    monkeypatch.setattr(table_module, "curve_items", lambda *args: [])
    monkeypatch.setattr(table_module, "explicit_search", lambda *args, **kwargs: None)
    monkeypatch.setattr(table_module, "rate_search", lambda *args, **kwargs: None)
    columns = ["bound_name", "regime", "bound_explicit", "direction", "algorithm", "constants"]
    columns.append("identical_to")
    frame = pd.DataFrame(columns=columns)
    fits = pd.DataFrame(columns=["bound_name", "regime", "bound_explicit"])
    row = evidence.claim_row(CLAIMS_BY_KEY["theorem3"], frame, fits, {}, {"regimes": {}})
    assert (row["tested"], row["power"]) == (tested, power)
    assert row["why"] == ("" if tested else table_module._count_blocks(items))
