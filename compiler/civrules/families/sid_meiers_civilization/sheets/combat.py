"""The combat reference card: the battle hand, the combat bonuses, who wins a tie."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Row, Section, Sheet, name_in
from civrules.model import rules_of, source_of

SITUATIONS = {
    "defending_city": "defending a city that is not the capital",
    "defending_capital": "defending a capital",
    "defending_walls": "defending a walled city or capital",
}


def combat_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    combat = ruleset.rule("combat")
    hand = rules.battle_hand(ruleset)
    raw = combat.get("battle_hand") if isinstance(combat.get("battle_hand"), Mapping) else {}
    from civrules.emit.sheets.common import citation_text

    # the battle hand's own citation, a house rule's `source:` too (cited as what wrote its facts)
    rule = citation_text(rules_of(raw), source_of(raw)) if isinstance(raw, Mapping) else ""
    cards = Section("Battle hand", ("", "Cards"), numeric=frozenset({1}))
    if hand["base"] is not None:
        cards.rows.append(Row(["to begin with", str(hand["base"])], rule, page.setting_mark("combat.battle_hand.base")))
    if hand["per_extra_figure"] is not None:
        cards.rows.append(
            Row(
                ["each friendly figure in the square beyond the first", f"+{hand['per_extra_figure']}"],
                rule,
                page.setting_mark("combat.battle_hand.per_extra_figure"),
            )
        )
    for gov in ruleset.governments:
        if gov.battle_hand:
            cards.rows.append(page.row(gov, "governments", (f"under {gov.display_name}", f"+{gov.battle_hand}")))
    if hand["defending_city"] is not None:
        cards.rows.append(
            Row(
                ["defending a city or capital", f"+{hand['defending_city']}"],
                rule,
                page.setting_mark("combat.battle_hand.defending_city"),
            )
        )
    cards.empty = "The sources of this ruleset do not give the battle hand."
    page.sections.append(cards)
    bonuses = Section("Combat bonuses", ("", "Bonus"), numeric=frozenset({1}))
    for bonus in ruleset.combat_bonuses:
        if bonus.situation is not None:
            what = SITUATIONS.get(bonus.situation, bonus.display_name)
        elif bonus.per == "building" and bonus.building:
            what = f"each {name_in(ruleset.buildings, bonus.building)} built"
        elif bonus.per == "great_person":
            what = f"each {bonus.display_name} on the map"
        else:
            what = bonus.display_name
        bonuses.rows.append(page.row(bonus, "combat_bonuses", (what, f"+{bonus.amount}")))
    bonuses.empty = "The sources of this ruleset give no combat bonus."
    page.sections.append(bonuses)
    ties = combat.get("ties")
    lead = page.lead(
        ("The side with the larger bonus takes the difference.", ""),
        (f"A tie goes to the {ties}." if ties in ("defender", "attacker") else "", page.setting_mark("combat.ties")),
    )
    return page.context(lead=lead)


@sheet(
    "combat.html",
    "Combat",
    "The battle hand and the combat bonuses of a battle.",
    position=60,
    sources=("ruleset", "buildings"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return combat_sheet(source)
