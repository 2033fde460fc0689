"""Governments: which one a civilization starts in, the passage through Anarchy, what each gives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, listed, name_in


def governments_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    section = Section("Governments", ("Government", "Role", "Gives", "Unlocked by"))
    for gov in ruleset.governments:
        role = "starting" if gov.starting else "between two governments" if gov.transitional else ""
        if gov.capital_action is False:
            role = "; ".join(part for part in (role, "the capital takes no action") if part)
        gives = [f"{gov.coins} coin{'s' if gov.coins != 1 else ''}"] if gov.coins else []
        gives += [f"+{gov.battle_hand} battle hand"] if gov.battle_hand else []
        if gov.starting or gov.transitional:
            by = ""
        else:
            try:
                by = listed(name_in(ruleset.technologies, t) for t in rules.unlocked_by(ruleset, gov.id)) or "—"
            except rules.CannotJudgeError as why:
                by = "—" + page.notes.mark("unlocked by", str(why))
        section.rows.append(page.row(gov, "governments", (gov.display_name, role, listed(gives), by)))
    section.empty = "The sources of this ruleset list no government."
    page.sections.append(section)
    civs = Section("Civilizations", ("Civilization", "Starting government", "Starting technology"))
    for civ in ruleset.civilizations:
        start = civ.starting_government
        tech = civ.starting_technology
        civs.rows.append(
            page.row(
                civ,
                "civilizations",
                (
                    civ.display_name,
                    name_in(ruleset.governments, start)
                    if isinstance(start, str)
                    else page.fact(start, "starting government"),
                    name_in(ruleset.technologies, tech)
                    if isinstance(tech, str)
                    else page.fact(tech, "starting technology"),
                ),
            )
        )
    civs.empty = "The sources of this ruleset name no civilization."
    page.sections.append(civs)
    return page.context(lead="")


@sheet(
    "governments.html",
    "Governments",
    "The governments, what each gives and which technology unlocks it; each civilization's start.",
    position=50,
    sources=("ruleset", "technologies"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return governments_sheet(source)
