"""A registry's module split into each entry's own source and the rest (regretlab.workflow.registry_sources),
which scopes a job's reruns to the entries it reads (regretlab.workflow.imports.job_entries)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regretlab.workflow.imports import job_code, job_entries, module_file, registries
from regretlab.workflow.registry_sources import (
    _PHYSICAL_LINE,
    ORDER,
    REST,
    _segment,
    registry_source,
    split_registry,
)

REPO = Path(__file__).resolve().parents[1]

TOY = '''"""A toy registry."""

from dataclasses import dataclass

from toy.learners import Alpha, Beta


@dataclass(frozen=True)
class Spec:
    build: object
    rule: object = None


def _shared(x):
    return x + 1


def _alpha_only(x):
    return 2 * x


def lookup(name):
    return REGISTRY[name]


REGISTRY: dict[str, Spec] = {
    "alpha": Spec(build=Alpha, rule=_alpha_only),
    "beta": Spec(build=Beta, rule=_shared),
    "gamma": Spec(build=Beta, rule=_shared),
}
'''


def digests(source: str, names=("alpha", "beta", "gamma")) -> dict[str, str]:
    return split_registry(source, "REGISTRY").digests(names)


def changed(before: str, after: str, names=("alpha", "beta", "gamma")) -> set[str]:
    """The keys whose digest differs between two versions of a module."""
    old, new = digests(before, names), digests(after, names)
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def test_an_entry_owns_its_item_and_the_definitions_only_entries_refer_to():
    source = split_registry(TOY, "REGISTRY")
    assert list(source.entries) == ["alpha", "beta", "gamma"]
    first_lines = {name: [text.splitlines()[0] for text in texts] for name, texts in source.entries.items()}
    assert first_lines["alpha"] == [
        '"alpha": Spec(build=Alpha, rule=_alpha_only)',
        "from toy.learners import Alpha, Beta",
        "def _alpha_only(x):",
    ]
    assert "def _shared(x):" in first_lines["beta"] and "def _shared(x):" in first_lines["gamma"]
    rest = [text.splitlines()[0] for text in source.rest]
    # the registry's annotation names Spec, which is therefore the rest's; lookup is no entry's
    assert rest == [
        "from dataclasses import dataclass",
        "@dataclass(frozen=True)",
        "def lookup(name):",
        "dict[str, Spec]",
    ]


def test_adding_an_entry_with_its_import_and_helper_changes_no_other_digest():
    after = (
        TOY.replace(
            "from toy.learners import Alpha, Beta\n",
            "from toy.learners import Alpha, Beta\nfrom toy.delta import Delta\n",
        ).replace("\n}\n", '\n    "delta": Spec(build=Delta, rule=_delta_rule),\n}\n')
        + "\n\ndef _delta_rule(x):\n    return -x\n"
    )
    assert changed(TOY, after) == set()
    assert changed(TOY, after, ("alpha", "delta")) == {"delta", ORDER}


def test_editing_an_entry_or_its_own_helper_changes_its_digest_only():
    assert changed(TOY, TOY.replace("rule=_alpha_only)", "rule=_alpha_only, )")) == {"alpha"}
    assert changed(TOY, TOY.replace("return 2 * x", "return 3 * x")) == {"alpha"}
    assert changed(TOY, TOY.replace("return x + 1", "return x + 2")) == {"beta", "gamma"}


def test_editing_the_rest_changes_the_rest_only():
    assert changed(TOY, TOY.replace("rule: object = None", "rule: object = 0")) == {REST}
    assert changed(TOY, TOY.replace("return REGISTRY[name]", "return REGISTRY.get(name)")) == {REST}


def test_comments_docstrings_and_blank_lines_between_statements_change_nothing():
    after = TOY.replace('"""A toy registry."""', '"""A toy registry, redocumented."""').replace(
        "\n\ndef _shared(x):", "\n\n# a comment\n\n\ndef _shared(x):"
    )
    after = after.replace("REGISTRY: dict", '#: the registry\nX = 1\n"""X\'s docstring."""\n\nREGISTRY: dict')
    assert changed(TOY, after) == {REST}  # X = 1 is code of the rest; the comments and docstrings are not
    assert changed(TOY, after.replace("X = 1\n", "")) == set()


def test_the_order_of_the_entries_read_is_part_of_the_digests():
    swapped = TOY.replace(
        '    "beta": Spec(build=Beta, rule=_shared),\n    "gamma": Spec(build=Beta, rule=_shared),\n',
        '    "gamma": Spec(build=Beta, rule=_shared),\n    "beta": Spec(build=Beta, rule=_shared),\n',
    )
    assert changed(TOY, swapped) == {ORDER}
    assert changed(TOY, swapped, ("alpha", "beta")) == set()
    assert ORDER not in digests(TOY, ("beta",))


def test_a_module_without_the_registry_literal_is_refused():
    with pytest.raises(ValueError, match="one dict literal to 'OTHER'"):
        split_registry(TOY, "OTHER")
    with pytest.raises(ValueError, match="one dict literal to 'REGISTRY'"):
        split_registry(TOY + "REGISTRY = dict(REGISTRY)\n", "REGISTRY")


def test_the_bandit_registry_gives_each_entry_its_learner_import_and_the_spec_class_to_the_rest():
    source = registry_source(module_file("regretlab.bandits.algorithms"), "ALGORITHMS")
    assert any("\nclass AlgorithmSpec(" in text for text in source.rest)  # with its decorator
    assert not any("import Exp3G" in text or "_exp3g_horizon" in text for text in source.rest)
    assert any("from regretlab.bandits.exp3g import Exp3G" in text for text in source.entries["exp3g"])
    assert any(text.startswith("def _exp3g_horizon(") for text in source.entries["exp3g"])
    assert not any("Exp3G" in text for text in source.entries["theorem2"])


def test_a_run_job_names_its_own_entry_instead_of_the_registry_file():
    script = REPO / "scripts" / "run_bandit.py"
    code = job_code(script, ("exp3g",), ("exp3g",))
    assert not any(path.endswith("bandits/algorithms.py") for path in code)
    assert any(path.endswith("bandits/exp3g.py") for path in code)
    assert set(job_entries(script, ("exp3g",), ("exp3g",))) == {"regretlab.bandits.algorithms"}
    assert set(job_entries(script, ("exp3g",), ("exp3g",))["regretlab.bandits.algorithms"]) == {REST, "exp3g"}
    # read whole (entries None), the registry is a file again and no digest stands for it
    assert any(path.endswith("bandits/algorithms.py") for path in job_code(script, ("exp3g",)))
    assert job_entries(script, ("exp3g",)) == {}


def test_a_summary_names_its_regimes_bounds_and_algorithms_instead_of_theory_and_the_registries():
    script = REPO / "scripts" / "regime_summary.py"
    entries = ("exp3g", "exp3g_rate", "theorem2", "theorem2_bound")
    code = job_code(script, (), entries)
    assert not any(path.endswith(("bound_registry.py", "algorithms.py")) for path in code)
    assert any(path.endswith("analysis/aggregate.py") for path in code)
    read = job_entries(script, (), entries)
    assert read["regretlab.bandits.bound_registry"].keys() == {REST, "exp3g_rate", "theorem2_bound", ORDER}
    assert read["regretlab.cmdp.bound_registry"].keys() == {REST}
    assert read["regretlab.bandits.algorithms"].keys() == {REST, "exp3g", "theorem2", ORDER}
    assert read["regretlab.cmdp.algorithms"].keys() == {REST}


@given(
    st.lists(
        st.tuples(st.sampled_from(["x", "é", "数", "y_1"]), st.sampled_from(["\n", "\r\n", "\r"])),
        min_size=1,
        max_size=6,
    )
)
def test_a_segment_is_asts_own_whatever_the_line_ends_and_characters(parts):
    """The registry split reads each item's text from lines split once (_segment): the same text as
    ast.get_source_segment for every node, over CRLF, CR and LF line ends and multi-byte characters."""
    names = [f"{name}{i}" for i, (name, _) in enumerate(parts)]
    items = (f"'{n}': ({n},{end} 1)," for n, (_, end) in zip(names, parts, strict=True))
    source = "R = {" + "".join(items) + "}\n"
    physical = _PHYSICAL_LINE.findall(source)
    assert "".join(physical) == source
    for node in ast.walk(ast.parse(source)):
        if getattr(node, "end_lineno", None) is not None:
            assert _segment(physical, node) == ast.get_source_segment(source, node)


@pytest.mark.parametrize("module", sorted(registries()))
def test_a_segment_is_asts_own_on_every_node_of_the_shipped_registries(module, monkeypatch):
    # ast.get_source_segment splits the whole module into lines on every call (thousands of nodes here):
    # the same split, kept per source, leaves its answers as they are and the test linear in the nodes.
    monkeypatch.setattr(ast, "_splitlines_no_ff", functools.cache(ast._splitlines_no_ff))
    source = module_file(module).read_text(encoding="utf-8")
    physical = _PHYSICAL_LINE.findall(source)
    for node in ast.walk(ast.parse(source)):
        if getattr(node, "end_lineno", None) is not None:
            assert _segment(physical, node) == ast.get_source_segment(source, node)
