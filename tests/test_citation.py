"""The tool is citable and licensed as pyproject.toml says (issue 36, item 5): CITATION.cff is valid CFF
1.2.0 with the package's version and license, and LICENSE is the MIT licence."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def test_citation_file_matches_the_package():
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version", "license", "type"} <= set(citation)
    assert citation["version"] == project["version"] and citation["license"] == project["license"] == "MIT"
    assert all("name" in author or "family-names" in author for author in citation["authors"])


def test_license_is_the_mit_licence():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text


PAPERS = {  # the papers as README, docs/papers.bib and CITATION.cff identify them
    "001": ("A Closer Look at Small-loss Bounds for Bandits with Graph Feedback", "2002.00315"),
    "000": ("A Best-of-Both-Worlds Algorithm for Constrained MDPs with Long-Term Constraints", "2304.14326"),
}


def test_the_papers_are_identified_alike_in_readme_bibtex_and_citation_file():
    """Each paper's title (as its text file's first line states it, where the papers are present) and arXiv
    identifier appear in README, in the BibTeX file and among CITATION.cff's references, with authors."""
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())  # lines wrapped anywhere
    bib = (REPO / "docs" / "papers.bib").read_text(encoding="utf-8")
    references = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))["references"]
    for paper, (title, arxiv) in PAPERS.items():
        text = next((REPO.parent / "shared" / "papers").glob(f"{paper}_*.txt"), None)
        if text is not None:
            assert text.read_text(encoding="utf-8").splitlines()[0].strip() == title
        assert title in readme and f"arXiv:{arxiv}" in readme
        assert f"eprint    = {{{arxiv}}}" in bib and title.replace("MDPs", "{MDPs}") in bib
        (entry,) = [r for r in references if r["title"] == title]
        assert entry["authors"] and f"arXiv:{arxiv}" in [i["value"] for i in entry["identifiers"]]


def test_every_claim_and_bound_cites_a_named_statement():
    """A reader has the paper, not its text file's line numbers: every claim's citation (the evidence table's
    ``source`` column) and every bound's source names a theorem, lemma, equation, table, section or
    appendix; line numbers only beside it."""
    from regretlab.registry.claims import CLAIMS, NAMED, UNCHECKED_CLAIMS
    from regretlab.registry.theory import BOUNDS

    for claim in CLAIMS + UNCHECKED_CLAIMS:
        assert NAMED.match(claim.citation), (claim.key, claim.citation)
    for name, bound in BOUNDS.items():
        assert NAMED.search(bound.source), (name, bound.source)


def test_the_guide_cites_line_numbers_only_beside_a_named_statement():
    """In docs/, a "line N" of a paper's text file comes after the name of what it cites (a theorem, lemma,
    algorithm, equation, section, appendix or proof) in the same phrase: the line is for maintainers."""
    import re

    named = re.compile(
        r"(Theorems?|Lemmas?|Corollary|Table|Algorithms?|Conditions?|Appendix|Section|proof|Proof)\b"
        r"|Alg\.|eq\.|§|App\.|\(\d+\)"
    )
    bare = []
    for page in sorted((REPO / "docs").glob("*.md")):
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for match in re.finditer(r"\blines? \d+", line):
                before = line[max(0, match.start() - 70) : match.start()]
                if not named.search(before) and "YAML" not in before:  # a config file's line, not a paper's
                    bare.append(f"{page.name}:{number}: …{before[-40:]}{match.group()}")
    assert bare == []
