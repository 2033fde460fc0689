"""What the checks do over every entity, counted (never timed: tests/README.md, "Growth counted,
not timed"): their walks cost a few steps a node and find what they found before, and a check
locates in the documents only what it reports."""

from __future__ import annotations

from typing import Any

import pytest

from civrules.checks.catalogue import all_checks
from civrules.checks.disagreements import _owners
from civrules.load.document import Document
from tests.rulefiles import shipped_analysis
from tests.security.test_check_growth import calls_made, nodes_in


def _entity(number: int) -> dict[str, Any]:
    """An entity of the shape of a card: mostly scalars, a few lists and mappings, one owner of
    `disagreements:` inside a list."""
    return {
        "id": f"card_{number}",
        "name": f"Card {number}",
        "cost": 100,
        "note": None,
        "groups": ["crafts", "arts"],
        "prerequisites": [{"card": "pottery", "rule": "1"}],
        "credits": [
            {"group": "arts", "points": 10, "rule": ["32.1", "32.2"]},
            {"card": "mysticism", "points": 5, "disagreements": [{"field": "points", "chosen": 5}]},
        ],
        "disagreements": [{"field": "cost", "chosen": 100, "alternatives": [{"value": 90}]}],
    }


def test_the_owners_of_disagreements_are_found_at_their_paths() -> None:
    entity = _entity(1)
    assert [(path, entries) for path, _, entries in _owners(entity)] == [
        ((), entity["disagreements"]),
        (("credits", 1), entity["credits"][1]["disagreements"]),
    ]
    assert [path for path, _, _ in _owners(entity["credits"], ("credits",))] == [("credits", 1)]
    assert list(_owners("text")) == []


def test_q008_walks_an_entity_in_a_few_steps_a_node() -> None:
    """Q008 walks every entity and setting for `disagreements:`: a generator and a path tuple per
    node, and every scalar asked whether it is a ``Mapping`` (an ABC: a call into Python), cost
    about 7 counted steps a node of a card; now about 4.5."""
    entities = [_entity(number) for number in range(50)]
    work = calls_made(lambda: [list(_owners(entity)) for entity in entities])
    assert work <= 6 * sum(nodes_in(entity) for entity in entities)


@pytest.mark.parametrize("ruleset_id", ["advanced-civilization", "mega-civilization", "imperial-settlers"])
def test_a_check_locates_only_what_it_reports(ruleset_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Locating a node in its document is a walk down its path (a look-up of its parent's keys at
    every level): A002 and A003 located every epoch start of every track, M012 every coast's
    neighbour, M020, M021 and M030-M033 every flood plain member, start area and offered nation, F002
    every card of every faction deck, each before asking whether anything was wrong there (most of
    their work on a ruleset they find nothing in). Each locates now where it reports, so a check
    reporting nothing on a shipped ruleset locates next to nothing."""
    model = shipped_analysis(ruleset_id).model
    assert model is not None
    located = 0
    for name in ("span", "key_span", "exact_span"):
        real = getattr(Document, name)

        def counted(self: Document, path: Any, real: Any = real) -> Any:
            nonlocal located
            located += 1
            return real(self, path)

        monkeypatch.setattr(Document, name, counted)
    eager = {}
    for check in all_checks(model.family):
        if check.family is not None and check.family != model.family:
            continue
        located = 0
        found = list(check.run(model))
        if located > 5 + 3 * len(found):
            eager[check.code.code] = (located, len(found))
    assert eager == {}


@pytest.mark.parametrize("ruleset_id", ["mega-civilization", "imperial-settlers"])
def test_a_package_names_no_unknown_fact_s_field_the_checks_named(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q006 names the field of each unknown fact (a walk down its path from the document's top,
    each element named by its keys), and the family's package named it again for its table of
    unknown facts (the Advanced Civilization family a third time, for the collections left
    unknown): 285 walks for mega-civilization's 95 facts. Each is named once, by the checks."""
    from civrules.checks import unknowns
    from civrules.emit.export import export_ruleset
    from civrules.families import family_named
    from civrules.pipeline import derived_facts

    analysis = shipped_analysis(ruleset_id)  # checked: Q006 has named every fact
    assert analysis.model is not None and analysis.resolved is not None
    assert any(d.code == "Q006" for d in analysis.diagnostics)
    named = 0
    real = unknowns.field_path

    def counted(*args: Any) -> str:
        nonlocal named
        named += 1
        return real(*args)

    monkeypatch.setattr(unknowns, "field_path", counted)
    family = family_named(analysis.model.family)
    assert family is not None
    package = family.hook("package")
    assert package is not None
    files = package(analysis.model, export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))
    assert any(path.endswith("/data.py") and b"UnknownFact(" in content for path, content in files.items())
    assert named == 0


def test_a_build_that_lets_go_of_the_checks_walks_walks_each_document_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`civrules build` lets go of the checks' walks once a ruleset is checked (``let_go``); it let
    go of the ruleset's unknown facts with them, and its package, which lists them, walked every
    document again to find them: 8 walks of mega-civilization's 4 documents. Each is walked once."""
    from civrules.checks import citations
    from civrules.emit.build import render
    from civrules.load.workspace import Workspace
    from tests.conftest import RULES

    walked: list[int] = []
    real = citations._walk

    def counted(document: Document) -> Any:
        walked.append(id(document))
        return real(document)

    monkeypatch.setattr(citations, "_walk", counted)
    workspace = Workspace(RULES)
    result = render(workspace, [workspace.load_ruleset(workspace.manifests()["mega-civilization"])], let_go=True)
    assert not result.failed and any(path.endswith("/data.py") for path in result.tree)
    assert walked and len(walked) == len(set(walked))


def test_an_unknown_facts_field_is_named_without_making_the_familys_keys_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Q006 names the field of each unknown fact by the family's naming keys, which the family
    makes from its every collection at each ask: 190 times in a validate of the largest shipped
    ruleset. They are made once per family now, and name the fields as before."""
    from civrules.checks.unknowns import field_path
    from civrules.families import Family, family_named

    family = family_named("advanced-civilization")
    assert family is not None
    data = {"cards": [{"id": f"card_{n}", "cost": {"unknown": "not printed"}} for n in range(40)]}
    expected = [field_path(data, ("cards", n, "cost"), family) for n in range(40)]
    asked = 0
    real = Family.naming_keys

    def counted(self: Family) -> tuple[str, ...]:
        nonlocal asked
        asked += 1
        return real.fget(self)  # type: ignore[attr-defined, no-any-return]

    monkeypatch.setattr(Family, "naming_keys", property(counted))
    assert [field_path(data, ("cards", n, "cost"), family) for n in range(40)] == expected
    assert expected[0] == "cards[card_0].cost"
    assert asked <= 1
