"""Every fact a variant writes is cited (Q009, round 20).

A variant's `patch` wrote facts with no citation and `validate` said nothing: `export` then gave
`field_sources: {cost: null}` and the package kept the base's rule beside the new value. An entity
added without a citation was S004 all along; a patch is the same fact written over its base's.
The shape of a citation is tests/core/test_citation_shapes.py's.
"""

from __future__ import annotations

import pytest

from civrules.diagnostics import Diagnostic
from civrules.emit.export import export_ruleset
from civrules.pipeline import Analysis, analyse, derived_facts
from tests.rulefiles import CachedWorkspace

SMC = "kind: ruleset\nid: cite\nname: Cite\nextends: sid-meiers-civilization\n"
IS = "kind: ruleset\nfamily: imperial-settlers\nid: cite\nname: Cite\nextends: imperial-settlers\n"
HOUSE_RULE = 'source: "house rule: ..."'  # what Q009's and S001's hints write


def analysed(text: str, files: dict[str, str] | None = None, ruleset: str = "cite") -> Analysis:
    workspace = CachedWorkspace({"rulesets/cite.yaml": text, **(files or {})})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def colossus(extra: str = "") -> str:
    return SMC + f"overlay:\n  wonders:\n    patch:\n      - {{id: colossus, cost: 12{extra}}}\n"


def at(text: str, found: Diagnostic) -> str:
    assert found.span is not None
    return text.splitlines()[found.span.line - 1][found.span.column - 1 :]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (colossus(), "cost: 12"),
        (colossus(", source: null"), "cost: 12"),
        (IS + "overlay:\n  settings:\n    rounds: {count: 6}\n", "count: 6"),
        (SMC + "overlay:\n  technologies:\n    patch:\n      - {id: pottery, level: 2}\n", "level: 2"),
        (IS + "overlay:\n  cards:\n    patch:\n      - {id: bar004, deal: wood}\n", "deal: wood"),
    ],
    ids=["entity", "null-source", "setting", "technology", "card"],
)
def test_a_patch_that_writes_a_fact_without_a_citation_is_q009_at_the_field(text: str, field: str) -> None:
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1 and found[0].severity == "error", problems(analysed(text))
    assert at(text, found[0]).startswith(field)
    assert HOUSE_RULE in (found[0].hint or "")


def test_following_q009_s_hint_literally_validates_and_cites_the_field() -> None:
    text = colossus(f", {HOUSE_RULE}")
    analysis = analysed(text)
    assert problems(analysis) == []
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    (written,) = [w for w in exported["wonders"] if w["id"] == "colossus"]
    assert written["field_sources"] == {"cost": "source: house rule: ..."}


def test_fields_of_one_patch_entry_are_one_diagnostic() -> None:
    text = SMC + 'overlay:\n  wonders:\n    patch:\n      - {id: colossus, cost: 12, name: "O Colosso"}\n'
    (found,) = problems(analysed(text))
    assert found.message.startswith("`colossus`: `cost`, `name` are changed with no citation")


def test_a_chain_s_base_answers_for_its_own_patches() -> None:
    """The leaf cites its change; its base (a variant of the designer's too) does not: the base's
    validation reports it, not every variant of it again."""
    base = colossus().replace("id: cite\nname: Cite", "id: mid\nname: Mid")
    leaf = SMC.replace("extends: sid-meiers-civilization", "extends: mid") + (
        'overlay:\n  wonders:\n    patch:\n      - {id: colossus, cost: 14, source: "house rule: dearer"}\n'
    )
    files = {"rulesets/mid.yaml": base}
    assert problems(analysed(leaf, files)) == []
    assert [d.code for d in problems(analysed(leaf, files, "mid"))] == ["Q009"]


@pytest.mark.parametrize(
    "overlay",
    [
        # V006's hint for a removed calamity: deletions inside a `with:`
        '  calamities:\n    remove:\n      - {id: flood, why: "house rule: no Flood"}\n'
        '  civilization_cards:\n    patch:\n      - {id: engineering, attributes: {patch: [{where: {rule: "32.312"}, '
        "with: {calamities: {remove: [{calamity: flood}]}}}]}}\n",
        '  civilization_cards:\n    patch:\n      - {id: law, attributes: {remove: [{rule: "30.23.4"}]}}\n',
        "  settings:\n    total_cards: null\n",
        "  civilization_cards:\n    patch:\n      - {id: pottery, note: a house note}\n",
        '  civilization_cards:\n    patch:\n      - {id: pottery, cost: {unknown: "the house has not decided"}}\n',
        # a whole setting written `{unknown: why}`: the mapping `{unknown}` is no field to cite
        # (Q009's hint added `source:` beside it, S002)
        '  settings:\n    set_value: {unknown: "the house has not decided"}\n',
    ],
    ids=["with-removes", "list-remove", "null", "note", "unknown", "setting-made-unknown"],
)
def test_a_patch_that_writes_no_fact_needs_no_citation(overlay: str) -> None:
    text = "kind: ruleset\nid: cite\nname: Cite\nextends: expansion-project\noverlay:\n" + overlay
    assert "Q009" not in [d.code for d in problems(analysed(text))]


@pytest.mark.parametrize(
    ("extends", "setting"), [("advanced-civilization", "two_coast_areas"), ("expansion-project", "set_value")]
)
def test_a_setting_written_unknown_whole_is_no_field_of_its_sources(extends: str, setting: str) -> None:
    """`{unknown: why}` in place of a whole setting replaces it, as `overlay.settings.replace` does:
    `setting_sources` named its `unknown` as a field the variant changed, uncited."""
    text = (
        f"kind: ruleset\nid: cite\nname: Cite\nextends: {extends}\noverlay:\n"
        f'  settings:\n    {setting}: {{unknown: "the house has not decided"}}\n'
    )
    analysis = analysed(text)
    assert problems(analysis) == []
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    assert setting not in exported.get("setting_sources", {}), exported["setting_sources"]
    origin = analysis.resolved.setting_origins[setting]
    assert origin.changes == () and origin.document.file.endswith("rulesets/cite.yaml")
