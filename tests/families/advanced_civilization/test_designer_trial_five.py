"""The fifth designer trial (round 32): house rules of the Advanced Civilization family that
rename or drop a card, and each fix the diagnostics write, pasted in as written."""

from __future__ import annotations

import re

import pytest

from civrules.lsp.additions import written
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, line_of, problems

CENTRAL = HEAD.replace("extends: advanced-civilization", "extends: central-america")

#: Central America's Conquistadors advance with Astronavigation (a setting of the ruleset), and the
#: Expansion Project's Tempest is eased by it (a calamity): the variant renames it.
STAR_NAVIGATION = CENTRAL + (
    "overlay:\n  civilization_cards:\n    remove:\n"
    '      - {id: astronavigation, why: "house rule: renamed"}\n'
    "    add:\n"
    "      - {id: star_navigation, name: Star Navigation, cost: 80, groups: [sciences], prerequisites: [],\n"
    '         credits: [], attributes: [], source: "house rule: renamed"}\n'
)


def _ways(hint: str) -> list[tuple[str, str]]:
    """Each entry a hint writes in backticks after "in `overlay.X`:", as (collection, text)."""
    return [(found[1], found[2]) for found in re.finditer(r"in `overlay\.(\w+)`: `([^`]*)`", hint)]


def _pasted(text: str, entries: list[tuple[str, str]]) -> str:
    """``text`` with each written entry pasted under its `overlay.<collection>` as written."""
    for collection, entry in entries:
        text += f"  {collection}:\n    {entry}\n"
    return text


@pytest.mark.slow  # two analyses of Central America over the Expansion Project
def test_a_setting_naming_a_renamed_card_is_pointed_at_it_in_the_retarget() -> None:
    """Round 31 left it: the Conquistadors' advancement (`non_player_forces[0].advancements[6]
    .card`) was told only by its path, "change what the setting names", and that way came before
    the retarget, which pointed the calamity alone at Star Navigation. The retarget now writes the
    setting's entry too, cited, and comes first; pasted in as written, nothing names the removed
    card and nothing asks for a citation."""
    (v006,) = [d for d in problems(analysed(STAR_NAVIGATION)) if d.code == "V006"]
    hint = v006.hint or ""
    assert hint.startswith("if `star_navigation`, which this variant adds, is `astronavigation` renamed")
    retarget = _ways(hint.split("; or ")[0])
    assert retarget == [
        (
            "calamities",
            "patch: [{id: tempest, modifiers: {patch: [{where: {card: astronavigation}, with: "
            '{card: star_navigation}}]}, source: "house rule: write why here"}]',
        ),
        (
            "settings",
            "non_player_forces: {patch: [{where: {id: conquistadors}, with: {advancements: {patch: "
            "[{where: {card: astronavigation}, with: {card: star_navigation}}]}, "
            'source: "house rule: write why here"}}]}',
        ),
    ]
    pasted = _pasted(STAR_NAVIGATION, retarget)
    # pasted as written, the citations' blanks are what is left (L016); filled in, what is left is
    # the designer's to write: Star Navigation's own attribute easing Tempest
    assert [d.code for d in problems(analysed(pasted))] == ["L016", "L016"]
    found = problems(analysed(pasted.replace("write why here", "renamed")))
    assert [d.code for d in found] == ["K010"], [(d.code, d.message) for d in found]
    # the editor's quick fix writes the same entries
    assert v006.fix_title == "Point the references at `star_navigation`"
    fixed = written(STAR_NAVIGATION, v006.additions)
    assert fixed is not None and [d.code for d in problems(analysed(fixed))] == ["L016", "L016"]
    assert [d.code for d in problems(analysed(fixed.replace("write why here", "renamed")))] == ["K010"]


CERAMICS = HEAD + (
    "overlay:\n  civilization_cards:\n    remove:\n"
    '      - {id: pottery, why: "house rule: renamed"}\n'
    "    add:\n"
    "      - {id: ceramics, name: Ceramics, cost: 45, groups: [crafts], prerequisites: [], credits: [],\n"
    '         attributes: [], source: "house rule: renamed"}\n'
)


def test_a_renamed_cards_references_are_pointed_at_it_by_the_editors_quick_fix() -> None:
    """Round 31 left it: V006's retarget, written in the overlay away from the removal, had no
    quick fix (a suggestion replaces the text at the diagnostic alone). The diagnostic carries
    the entries to add; written by the editor where the overlay's blocks end, Famine's
    modifier points at Ceramics, and what is left is the designer's to write: the attribute of
    Ceramics that eases Famine (K010)."""
    (v006,) = [d for d in problems(analysed(CERAMICS)) if d.code == "V006"]
    assert v006.fix_title == "Point the references at `ceramics`"
    fixed = written(CERAMICS, v006.additions)
    assert fixed == CERAMICS + (
        "  calamities:\n    patch:\n      - {id: famine, modifiers: {patch: [{where: {card: pottery}, with: "
        '{card: ceramics}}]}, source: "house rule: write why here"}\n'
    )
    assert [d.code for d in problems(analysed(fixed))] == ["L016"]  # the blank of the citation
    assert [d.code for d in problems(analysed(fixed.replace("write why here", "renamed")))] == ["K010"]


def test_no_quick_fix_where_the_retarget_leaves_a_reference() -> None:
    """Where a referrer cannot be patched (its key holds the removed entity, or the variant's
    own entry names it), the hint writes the rest, but an edit that leaves a reference is no fix."""
    own = CERAMICS.replace("credits: [],", 'credits: [{card: pottery, points: 5, source: "house rule: x"}],')
    (v006,) = [d for d in problems(analysed(own)) if d.code == "V006"]
    assert (v006.hint or "").startswith("if `ceramics`, which this variant adds, is `pottery` renamed")
    assert v006.additions == () and v006.fix_title is None


@pytest.mark.slow  # as above
def test_a_setting_naming_a_removed_card_is_told_the_entry_that_drops_it() -> None:
    """The drop of the setting's reference was a path (`non_player_forces[0].advancements[6]
    .card`) to write anew by hand; it is the list operation, and pasted in with the calamity's
    patch, the variant validates."""
    text = STAR_NAVIGATION.split("    add:\n")[0]
    (v006,) = problems(analysed(text))
    assert v006.code == "V006"
    hint = v006.hint or ""
    assert "renamed" not in hint
    assert (
        "in `overlay.settings`: `non_player_forces: {patch: [{where: {id: conquistadors}, with: "
        "{advancements: {remove: [{card: astronavigation}]}}}]}`"
    ) in hint
    dropped = [(collection, entry) for collection, entry in _ways(hint)]
    assert [collection for collection, _ in dropped] == ["settings", "calamities"]
    assert problems(analysed(_pasted(text, dropped))) == []


def test_a_removed_card_a_modifier_combination_names_is_dropped_from_it_too() -> None:
    """Superstition's modifier combination names Deism in its precedence, a reference K004 owns
    (X001 leaves it). V006 counted Deism's modifier alone; its patch dropped the modifier, and
    pasted in, K004 said the precedence names a card with no modifier, a second round of fixes.
    The precedence is counted, noted, and dropped in the same patch entry."""
    text = HEAD + ('overlay:\n  civilization_cards:\n    remove:\n      - {id: deism, why: "house rule: no deism"}\n')
    (v006,) = problems(analysed(text))
    assert v006.code == "V006" and "2 references to it remain" in v006.message
    assert [note.label for note in v006.related] == [
        "modifier card `deism` is still referred to here",
        "card of the precedence `deism` is still referred to here",
    ]
    written = _ways(v006.hint or "")
    assert written == [
        (
            "calamities",
            "patch: [{id: superstition, modifiers: {remove: [{card: deism}]}, "
            "modifier_combination: {precedence: {remove: [deism]}}}]",
        )
    ]
    assert problems(analysed(_pasted(text, written))) == []


# --- Mega Civilization: one nation's two tracks ----------------------------------------------------

MEGA = HEAD.replace("extends: advanced-civilization", "extends: mega-civilization")
ONE_MINOAN_TRACK = MEGA + (
    "overlay:\n  ast_tracks:\n    remove:\n"
    '      - {nation: minoa, level: expert, why: "house rule: Minoa plays one track"}\n'
    "    patch:\n"
    '      - {nation: minoa, level: basic, spaces: 15, source: "house rule: a shorter Minoan track"}\n'
)


def _put_back(text: str, line: int, column: int, end: int, written: str) -> str:
    """``text`` with columns ``column`` to ``end`` (exclusive) of ``line`` replaced, as an editor's
    quick fix writes a suggestion at a diagnostic's span."""
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1][: column - 1] + written + lines[line - 1][end - 1 :]
    return "\n".join(lines)


def test_a_misspelt_level_of_a_track_is_the_place_and_its_quick_fix() -> None:
    """`level: basci`: V005's hint said "did you mean `nation: minoa, level: basic`?", but the
    diagnostic stood at `minoa` with no suggestion, so the editor offered no quick fix. It stands
    at the misspelt level, and the editor's fix puts `basic` there; a misspelt nation likewise."""
    for wrong, right, field in (("basci", "basic", "level"), ("minao", "minoa", "nation")):
        written = f"{{nation: minoa, level: {wrong}" if field == "level" else f"{{nation: {wrong}, level: basic"
        text = ONE_MINOAN_TRACK.replace("{nation: minoa, level: basic", written)
        (v005,) = [d for d in problems(analysed(text)) if d.code == "V005"]
        assert v005.span is not None and v005.suggestion == right
        at = text.split("\n")[v005.span.line - 1]
        assert at[v005.span.column - 1 : v005.span.end_column - 1] == wrong
        fixed = _put_back(text, v005.span.line, v005.span.column, v005.span.end_column, right)
        assert "V005" not in {d.code for d in problems(analysed(fixed))}


def test_a_track_the_variant_removes_is_told_at_the_removal_not_at_the_block() -> None:
    """A009 ("no track at level expert") stood at `ast_tracks:`, the block, because the patch of
    the basic track was counted as a change of its `level`: the field that names the track. The
    patch changes `spaces`; the removal is the one change of what A009 reads, and its place."""
    a009 = [d for d in problems(analysed(ONE_MINOAN_TRACK)) if d.code == "A009"]
    assert [(d.span.line if d.span else None) for d in a009] == [line_of(ONE_MINOAN_TRACK, "level: expert")]
    assert (a009[0].hint or "").endswith("; or undo or amend this change")


def test_a_patch_restating_a_tracks_level_is_not_told_it_changes_the_level() -> None:
    """V013 listed `level: basic` among what a patch "already has": the level names the track."""
    text = MEGA + "overlay:\n  ast_tracks:\n    patch:\n      - {nation: minoa, level: basic, spaces: 16}\n"
    (v013,) = problems(analysed(text))
    assert v013.code == "V013" and v013.message.endswith("it already has `spaces: 16`")


def test_an_epoch_past_a_shortened_track_is_told_the_fix_it_writes() -> None:
    """A003 said "which writes the fix: the track's spaces are 0 to 14", a fact and no fix, and
    named the track `minoa` where Minoa has two. It names the level, and the fix, written in the
    patch, validates."""
    (a003,) = [d for d in problems(analysed(ONE_MINOAN_TRACK)) if d.code == "A003"]
    assert a003.message.startswith("the A.S.T. track of `minoa` at level `basic` begins epoch `late_iron_age`")
    assert "which writes the fix: give the track 16 spaces (`spaces: 16`): its spaces are 0 to 14" in (a003.hint or "")
    fixed = ONE_MINOAN_TRACK.replace("spaces: 15", "spaces: 16")
    assert "A003" not in {d.code for d in problems(analysed(fixed))}


# --- round 32, continued: a setting's field that is the reference ---------------------------------

EXPANSION = HEAD.replace("extends: advanced-civilization", "extends: expansion-project")


@pytest.mark.slow  # two analyses of the Expansion Project (about 2 s)
def test_a_setting_field_naming_a_removed_card_is_deleted_in_the_entry_it_is_told() -> None:
    """The Expansion Project's revolt immunity names Democracy in a field of its own
    (`taxation.revolt.immune_card`): V006 told `taxation: {revolt: {immune_card: ...}}`, a
    placeholder no one can paste. The field may be left out (the schema says so), so the entry
    deletes it (`null`), as an entity's own field is; pasted in as written with the other entries,
    the variant validates."""
    text = EXPANSION + (
        'overlay:\n  civilization_cards:\n    remove:\n      - {id: democracy, why: "house rule: no democracy"}\n'
    )
    (v006,) = problems(analysed(text))
    assert v006.code == "V006"
    written = _ways(v006.hint or "")
    assert ("settings", "taxation: {revolt: {immune_card: null}}") in written
    assert not any("..." in entry for _, entry in written)
    # the card's own patch under the `civilization_cards:` the text ends with, the others after
    text += "".join(f"    {entry}\n" for collection, entry in written if collection == "civilization_cards")
    others = [(collection, entry) for collection, entry in written if collection != "civilization_cards"]
    assert problems(analysed(_pasted(text, others))) == []
