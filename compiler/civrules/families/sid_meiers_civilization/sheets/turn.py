"""The turn summary: the five phases in order with what each allows, and the victories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, listed, name_in

#: What a phase allows, in words (the activities of the ruleset schema).
ACTIVITIES = {
    "build_city": "build cities",
    "change_government": "change government",
    "place_great_person": "place great people",
    "declare_scout_gathering": "declare scouts gathering",
    "collect_trade": "collect trade",
    "negotiate": "negotiate",
    "trade": "trade",
    "city_action": "one action per city",
    "spend_culture": "spend culture",
    "rush_production": "rush production with trade",
    "move_figures": "move figures",
    "explore_tile": "explore tiles",
    "explore_hut_or_village": "explore huts and villages",
    "battle": "battle",
    "research_technology": "research a technology",
}
ENDS = {"immediately": "at once", "end_of_turn": "at the end of the turn"}


def turn_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    phases = Section("Phases", ("", "Phase", "Players may"), numeric=frozenset({0}))
    for phase in sorted(ruleset.phases, key=lambda p: p.order):
        allows = listed(ACTIVITIES.get(a, a.replace("_", " ")) for a in phase.allows)
        phases.rows.append(page.row(phase, "phases", (phase.order, phase.display_name, allows)))
    phases.empty = "The sources of this ruleset give no phase of the turn."
    page.sections.append(phases)
    victories = Section("Victories", ("Victory", "Needs", "Ends the game"))
    for victory in ruleset.victories:
        if victory.technology:
            needs = f"researching {name_in(ruleset.technologies, victory.technology)}"
        elif victory.coins is not None:
            needs = f"{victory.coins} coins"
        elif victory.kind == "culture":
            needs = "reaching the last space of the culture track"
        elif victory.kind == "military":
            needs = "capturing an enemy capital"
        else:
            needs = ""
        victories.rows.append(page.row(victory, "victories", (victory.display_name, needs, ENDS.get(victory.ends, ""))))
    victories.empty = "The sources of this ruleset give no victory."
    page.sections.append(victories)
    direction = ruleset.rule("turn_order").get("direction")
    lead = page.lead(
        (
            f"The turn passes to the {direction}." if direction in ("left", "right") else "",
            page.setting_mark("turn_order.direction"),
        )
    )
    return page.context(lead=lead)


@sheet(
    "turn-summary.html",
    "Turn summary",
    "The phases of a turn in order with what each allows, and the four victories.",
    position=5,
    sources=("ruleset",),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return turn_sheet(source)
