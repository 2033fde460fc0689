"""The fifth designer trial (round 32): house rules of the Advanced Civilization family that
rename or drop a card, and each fix the diagnostics write, pasted in as written."""

from __future__ import annotations

import re

from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, problems

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


def _ways(hint: str) -> list[str]:
    """Each entry a hint writes in backticks after "in `overlay.X`:", as (collection, text)."""
    return re.findall(r"in `overlay\.(\w+)`: `([^`]*)`", hint)


def _pasted(text: str, entries: list[tuple[str, str]]) -> str:
    """``text`` with each written entry pasted under its `overlay.<collection>` as written."""
    for collection, entry in entries:
        text += f"  {collection}:\n    {entry}\n"
    return text


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
            '{card: star_navigation}}]}, source: "house rule: ..."}]',
        ),
        (
            "settings",
            "non_player_forces: {patch: [{where: {id: conquistadors}, with: {advancements: {patch: "
            '[{where: {card: astronavigation}, with: {card: star_navigation}}]}, source: "house rule: ..."}}]}',
        ),
    ]
    found = problems(analysed(_pasted(STAR_NAVIGATION, retarget)))
    # what is left is the designer's to write: Star Navigation's own attribute easing Tempest
    assert [d.code for d in found] == ["K010"], [(d.code, d.message) for d in found]


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
