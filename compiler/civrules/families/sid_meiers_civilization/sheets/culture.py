"""The culture track: its spaces with what entering each costs, the event decks, the great people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, name_in
from civrules.model import Unknown


def culture_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    track = Section("The track", ("Space", "Kind", "Culture", "Trade", "Deck"), numeric=frozenset({0, 2, 3}))
    for space in sorted(ruleset.spaces, key=lambda s: s.position):
        cost = space.cost
        culture = "—" + page.notes.mark("cost", cost.reason) if isinstance(cost, Unknown) else str(cost[0])
        trade = "—" + page.notes.mark("cost", cost.reason) if isinstance(cost, Unknown) else str(cost[1])
        drawn = name_in(ruleset.decks, space.deck) if isinstance(space.deck, str) else page.fact(space.deck, "deck", "")
        track.rows.append(
            page.row(space, "spaces", (space.position, name_in(ruleset.space_kinds, space.kind), culture, trade, drawn))
        )
    track.empty = "The sources of this ruleset give none of the culture track's spaces."
    page.sections.append(track)
    kinds = Section("Kinds of space", ("Kind",))
    for kind in ruleset.space_kinds:
        kinds.rows.append(page.row(kind, "space_kinds", (kind.display_name,)))
    kinds.empty = "The sources of this ruleset give no kind of culture space."
    page.sections.append(kinds)
    decks = Section("Culture event decks", ("Deck", "Cards"), numeric=frozenset({1}))
    for deck in ruleset.decks:
        decks.rows.append(page.row(deck, "decks", (deck.display_name, page.fact(deck.cards, "cards"))))
    decks.empty = "The sources of this ruleset give no culture event deck."
    page.sections.append(decks)
    people = Section("Great people", ("Great person", "Category", "Combat bonus"), numeric=frozenset({2}))
    for person in ruleset.great_people:
        category = page.fact(person.category, "category", "")
        bonus = f"+{person.combat_bonus}" if person.combat_bonus else ""
        people.rows.append(page.row(person, "great_people", (person.display_name, category, bonus)))
    people.empty = "The sources of this ruleset name no great person."
    page.sections.append(people)
    hand = ruleset.rule("culture_hand").get("size")
    lead = page.lead(
        (
            f"A player holds at most {hand} culture event cards." if isinstance(hand, int) else "",
            page.setting_mark("culture_hand.size"),
        )
    )
    return page.context(lead=lead)


@sheet(
    "culture-track.html",
    "Culture track",
    "The culture track's spaces and what entering each costs, the culture event decks, the great people.",
    position=70,
    sources=("ruleset", "culture"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return culture_sheet(source)
