"""A hint that proposes a value proposes one that passes: the value is checked against every bound
the data puts on it (the building that upgrades an upgrade, the level above a research cost, the
single top technology of the pyramid), and following the hint clears the diagnostic."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_text

BUILDINGS = "cards/sid-meiers-civilization-buildings.yaml"
UNITS = "cards/sid-meiers-civilization-units.yaml"
MANIFEST = "rulesets/sid-meiers-civilization.yaml"


def found(code: str, edits: dict[str, list[tuple[str, str]]]) -> list[Diagnostic]:
    texts = {}
    for file, changes in edits.items():
        text = shipped_text(file)
        for old, new in changes:
            assert old in text, old
            text = text.replace(old, new, 1)
        texts[file] = text
    workspace = CachedWorkspace(texts)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["sid-meiers-civilization"]))
    return [d for d in analysis.diagnostics if d.code == code]


def _university_entry() -> str:
    """The University's entry as shipped (its cost and whether it is an upgrade unknown)."""
    text = shipped_text(BUILDINGS)
    start = text.index("{id: universidade,")
    return text[start : text.index("}\n", text.index(" rule: ", start)) + 1]


def upgraded_aqueduct(cost: int = 7) -> tuple[str, str]:
    """The University made an upgrade of the Aqueduct at ``cost`` (7: the Aqueduct must then cost
    more than the Granary's 5 and less than 7); read when a test asks, not at collection."""
    return (
        _university_entry(),
        '{id: universidade, name: "Universidade", terrains: [pradaria], limited: false, upgrade_of: aqueduto,'
        f' cost: {cost}, rule: "p6/edificios-terrenos-validos"}}',
    )


def test_an_upgrade_cost_hint_fits_below_the_building_that_upgrades_it() -> None:
    [t008] = found(
        "T008", {BUILDINGS: [upgraded_aqueduct(), ("upgrade_of: celeiro, cost: 8", "upgrade_of: celeiro, cost: 5")]}
    )
    assert t008.hint == "make it cost 6"
    assert (
        found(
            "T008", {BUILDINGS: [upgraded_aqueduct(), ("upgrade_of: celeiro, cost: 8", "upgrade_of: celeiro, cost: 6")]}
        )
        == []
    )


def test_an_upgrade_cost_hint_says_when_no_cost_fits() -> None:
    squeezed = upgraded_aqueduct(6)
    [t008] = found("T008", {BUILDINGS: [squeezed, ("upgrade_of: celeiro, cost: 8", "upgrade_of: celeiro, cost: 5")]})
    assert t008.hint is not None and t008.hint.startswith("no cost fits between `celeiro` (5)")


def test_a_research_cost_hint_fits_below_the_level_above() -> None:
    edits = [("{level: 2, trade: 11}", "{level: 2, trade: 6}"), ("{level: 3, trade: 16}", "{level: 3, trade: 8}")]
    [t004] = found("T004", {MANIFEST: edits})
    assert t004.hint == "make it 7"
    assert found("T004", {MANIFEST: [edits[1], ("{level: 2, trade: 11}", "{level: 2, trade: 7}")]}) == []


def test_a_research_cost_above_the_dial_is_hinted_above_the_level_below() -> None:
    [t005] = found("T005", {MANIFEST: [("{level: 5, trade: 26}", "{level: 5, trade: 30}")]})
    assert t005.hint == "make it 22 to 27"


def test_a_unit_rank_cost_hint_fits_below_the_rank_above() -> None:
    edits = [
        ("cost: 7, strength: {min: 2, max: 4}", "cost: 5, strength: {min: 2, max: 4}"),
        ("cost: 9, strength: {min: 3, max: 5}", "cost: 7, strength: {min: 3, max: 5}"),
    ]
    [t010] = found("T010", {UNITS: edits})
    assert t010.hint == "make it 6"
    assert found("T010", {UNITS: [edits[1], (edits[0][0], "cost: 6, strength: {min: 2, max: 4}")]}) == []


def test_pyramid_minimums_are_hinted_from_the_top_not_from_a_wrong_row() -> None:
    """Level 2 wrongly needs 5: counted from the row above, level 1 "should need 6", which
    breaks the total and the top; counted from the single top technology, level 2 needs 4."""
    wrong = ("- {level: 2, count: 4}", "- {level: 2, count: 5}")
    hints = {d.hint for d in found("T003", {MANIFEST: [wrong]})}
    expected = "level 1 needs 5; level 2 needs 4; level 3 needs 3; level 4 needs 2; level 5 needs 1"
    assert hints and all(hint is not None and hint.endswith(expected) for hint in hints), hints
    assert found("T003", {}) == []


def test_pyramid_minimums_are_told_in_words_and_the_fix_is_what_to_write() -> None:
    """Round 32: the message read "level 2 needs 1 and level 1 5", and the hint "one more a row
    down ...", a fact after "which writes the fix:". The message names what it counts; the hint
    says what to write."""
    wrong = ("- {level: 2, count: 4}", "- {level: 2, count: 5}")
    (first, *_) = found("T003", {MANIFEST: [wrong]})
    assert first.message.startswith(
        "the pyramid's minimums say level 2 needs 5 technologies and level 1 needs 5: "
        "each row holds one more than the row above it"
    )
    assert (first.hint or "").startswith("write the minimums one more a row down, counted from the top level 5: ")


def test_another_games_collection_in_an_overlay_is_not_told_a_did_you_mean() -> None:
    """`civilization_cards` under a Sid Meier's base: V009 names the game it belongs to; S002's
    "did you mean `civilizations`?" pointed at an unrelated collection."""
    variant = (
        "kind: ruleset\nid: smc-other\nname: other\nextends: sid-meiers-civilization\n"
        'overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 50, source: "house"}\n'
    )
    workspace = CachedWorkspace({"rulesets/smc-other.yaml": variant})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-other"]))
    [s002] = [d for d in analysis.diagnostics if d.code == "S002"]
    assert s002.hint is not None and "did you mean" not in s002.hint and s002.suggestion is None
    assert s002.hint.startswith("`civilization_cards` is a collection of `advanced-civilization`")
    assert [d.code for d in analysis.diagnostics if d.code == "V009"] == ["V009"]
