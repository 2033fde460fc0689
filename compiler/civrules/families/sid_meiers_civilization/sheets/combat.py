"""The combat reference card: the battle hand, the combat bonuses, who wins a tie, what the winner
loses and what he takes (the loot)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Row, Section, Sheet, name_in
from civrules.model import rules_of, source_of

#: What the winner may take, in words, one and more (the parts of `combat.loot`).
LOOT = {
    "trade": ("trade", "trade"),
    "culture": ("culture", "culture"),
    "resources": ("resource", "resources"),
    "technologies": ("technology", "technologies"),
    "culture_cards": ("culture card", "culture cards"),
}
#: Where the winner takes it from (the parts of `combat.loot`), and what a capital gives.
LOOTED = {"figures": "from figures", "city": "from a city", "capital": "from a capital"}
CAPITAL = {"military_victory": "a military victory"}


def _loot(page: Sheet, combat: Mapping[str, Any]) -> Section:
    """What the winner of a battle takes (`combat.loot`), a row for each kind of loser, cited as
    the combat rules are and marked where a variant changes it."""
    ruleset = page.source.ruleset
    section = Section("Loot", ("Loser", "The winner takes"))
    loot = combat.get("loot")
    cited = setting_citation(ruleset.setting_origins, "combat", ("loot",))
    for part, label in LOOTED.items():
        given = loot.get(part) if isinstance(loot, Mapping) else None
        if isinstance(given, Mapping):
            said = [
                f"{amount} {LOOT.get(kind, (kind, kind))[amount != 1]}"
                for kind, amount in given.items()
                if isinstance(amount, int) and not isinstance(amount, bool)
            ]
            text = "one of: " + ", ".join(said) if said else ""
        elif isinstance(given, str):
            text = CAPITAL.get(given, given.replace("_", " "))
        else:
            text = ""
        if text:
            section.rows.append(Row([label, text], cited, page.setting_mark(f"combat.loot.{part}")))
    section.empty = "The sources of this ruleset do not say what the winner of a battle takes."
    return section


def combat_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    combat = ruleset.rule("combat")
    hand = rules.battle_hand(ruleset)
    raw = combat.get("battle_hand") if isinstance(combat.get("battle_hand"), Mapping) else {}
    from civrules.emit.sheets.common import citation_text

    # the battle hand's own citation, a house rule's `source:` too (cited as what wrote its facts)
    rule = citation_text(rules_of(raw), source_of(raw)) if isinstance(raw, Mapping) else ""
    cards = Section("Battle hand", ("When", "Cards"), numeric=frozenset({1}))
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
    bonuses = Section("Combat bonuses", ("For", "Bonus"), numeric=frozenset({1}))
    for bonus in ruleset.combat_bonuses:
        if bonus.situation is not None:
            what = bonus.display_name
        elif bonus.per == "building" and bonus.building:
            # the bonus by its name, then what earns it, where the building is named otherwise
            building = name_in(ruleset.buildings, bonus.building)
            each = f"each {building} built"
            what = (
                each
                if str(building).casefold() == str(bonus.display_name).casefold()
                else f"{bonus.display_name}: {each}"
            )
        elif bonus.per == "great_person":
            what = f"each {bonus.display_name} on the map"
        else:
            what = bonus.display_name
        bonuses.rows.append(page.row(bonus, "combat_bonuses", (what, f"+{bonus.amount}")))
    bonuses.empty = "The sources of this ruleset give no combat bonus."
    page.sections.append(bonuses)
    page.sections.append(_loot(page, combat))
    ties = combat.get("ties")
    lost = combat.get("figures_lost_per_destroyed_units")
    lead = page.lead(
        ("The side with the larger bonus takes the difference.", ""),
        (f"A tie goes to the {ties}." if ties in ("defender", "attacker") else "", page.setting_mark("combat.ties")),
        (
            f"The winner loses 1 figure for every {lost} units destroyed in the battle."
            if isinstance(lost, int) and not isinstance(lost, bool)
            else "",
            page.setting_mark("combat.figures_lost_per_destroyed_units"),
        ),
    )
    return page.context(lead=lead)


@sheet(
    "combat.html",
    "Combat",
    "The battle hand and the combat bonuses of a battle, what the winner loses and takes.",
    position=60,
    sources=("ruleset", "buildings"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return combat_sheet(source)
