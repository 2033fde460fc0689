"""The fourth designer trial (round 28): a variant's change that its base's facts contradict is
answered with the fix written as the variant writes it, in its own file, and the fix validates."""

from __future__ import annotations

import re
from typing import Any

import yaml

from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, only, problems

RAISED = HEAD + 'overlay:\n  settings:\n    players: {max: 9, source: "house rule: a ninth player"}\n'
LOWERED = HEAD + 'overlay:\n  settings:\n    players: {min: 4, source: "house rule: four or more"}\n'


def _written(hint: str, operation: str) -> list[dict[str, Any]]:
    """The entries a hint writes for ``operation`` (`` `add: [...]` ``), read as YAML."""
    found = re.search(rf"`{operation}: (\[.*?\])`", hint)
    assert found is not None, hint
    entries = yaml.safe_load(found.group(1))
    assert isinstance(entries, list) and all(isinstance(e, dict) for e in entries)
    return entries


def test_a_count_a_variant_supports_without_rules_is_added_in_its_overlay_as_the_hint_writes() -> None:
    """P002's hint said "in the base's file itself: add each count to `player_counts.counts`", a
    file the designer does not edit; the entry to write in the variant was for them to find."""
    found = only(analysed(RAISED), RAISED, "players: {max: 9", "P002")
    hint = found.hint or ""
    assert hint.startswith("from this variant (the base has no such problem): add the count in `overlay.player_counts`")
    assert "in the base's file itself" not in hint
    added = _written(hint, "add")
    assert added == [
        {
            "players": 9,
            "status": "given",
            "source": "house rule: write why here",
            "tokens_per_player": {"unknown": "write why no source gives it here"},
            "configurations": {"unknown": "write why no source gives it here"},
        }
    ]
    entries = "".join(f"      - {yaml.safe_dump(entry, default_flow_style=True)}" for entry in added)
    pasted = RAISED + "  player_counts:\n    add:\n" + entries
    assert {d.code for d in problems(analysed(pasted))} == {"L016"}  # the blanks, for the designer to fill
    filled = [
        {
            **entry,
            "source": "house rule: nine",
            "tokens_per_player": {"unknown": "x"},
            "configurations": {"unknown": "x"},
        }
        for entry in added
    ]
    entries = "".join(f"      - {yaml.safe_dump(entry, default_flow_style=True)}" for entry in filled)
    assert problems(analysed(RAISED + "  player_counts:\n    add:\n" + entries)) == []


def test_counts_a_variant_leaves_out_of_its_range_are_one_error_whose_hint_removes_each() -> None:
    found = only(analysed(LOWERED), LOWERED, "players: {min: 4", "P003")
    assert "1 more finding" in found.message
    removed = _written(found.hint or "", "remove")
    assert removed == [{"players": 3, "why": "..."}, {"players": 2, "why": "..."}]
    entries = "".join(f'      - {{players: {e["players"]}, why: "house rule: four or more"}}\n' for e in removed)
    fixed = LOWERED + "  player_counts:\n    remove:\n" + entries
    assert problems(analysed(fixed)) == []


NUBIA = HEAD + (
    "overlay:\n  nations:\n    add:\n"
    '      - {id: nubia, name: Nubia, colour: {unknown: "house rule: ..."}, source: "house rule: a tenth nation",\n'
    '         start_areas: {areas: {unknown: "house rule"}, fixed: false, source: "house rule"},\n'
    '         ast_position: {position: 10, source: "house rule"}}\n'
)


def test_a_nation_a_variant_adds_without_a_track_is_given_the_overlay_entry_that_adds_it() -> None:
    """A009 at a nation the variant's own `overlay:` adds said "add a track for it under
    `ast.tracks`", the base file's form: the variant adds it in `overlay.ast_tracks`
    (round 28's second designer trial)."""
    found = only(analysed(NUBIA), NUBIA, "{id: nubia", "A009")
    hint = found.hint or ""
    assert hint.startswith("add its track in `overlay.ast_tracks`"), hint
    added = _written(hint, "add")
    assert [entry["nation"] for entry in added] == ["nubia"]
    entries = "".join(f"      - {yaml.safe_dump(entry, default_flow_style=True)}" for entry in added)
    pasted = NUBIA + "  ast_tracks:\n    add:\n" + entries
    assert {d.code for d in problems(analysed(pasted))} == {"L016"}  # the blanks, for the designer to fill
    assert problems(analysed(pasted.replace("write why here", "nubia").replace("write why no source", "no"))) == []
