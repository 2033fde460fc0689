"""The technology pyramid: each level with its research cost and what the technology victory needs
there, each technology with what it unlocks and its abilities."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset, Technology
from civrules.families.sid_meiers_civilization.sheets.tables import ROMAN, Section, Sheet, listed, name_in

#: The abilities of technology cards, in words (the kinds of the technologies schema).
ABILITIES = {
    "city_limit": "more cities",
    "stacking_limit": "a larger stacking limit",
    "travel_speed": "a faster travel speed",
    "culture_hand": "a larger culture hand",
    "cross_water": "figures cross water",
    "end_on_water": "figures end their move on water",
    "build_on_water": "builds on water",
    "coins": "coins",
    "trade": "trade",
    "split_production": "production split between items",
    "resource_ability": "a resource ability",
    "culture_building": "a building that produces culture",
    "unit_upgrade": "a unit upgrade",
    "obsolete_wonder": "makes wonders obsolete",
    "victory": "the technology victory",
}


def _unlocks(ruleset: CivilizationRuleset, tech: Technology, page: Sheet) -> str:
    unlocks = rules.known_unlocks(tech)
    if unlocks is None:
        reason = tech.unlocks.reason if hasattr(tech.unlocks, "reason") else "the sources do not say what it unlocks"
        return "—" + page.notes.mark("unlocks", reason)
    names = [
        *(name_in(ruleset.buildings, b) for b in unlocks.buildings),
        *(f"{name_in(ruleset.unit_types, u.type)} rank {u.rank}" for u in unlocks.units),
        *(name_in(ruleset.governments, g) for g in unlocks.governments),
        *(name_in(ruleset.wonders, w) for w in unlocks.wonders),
    ]
    return listed(names) or "nothing"


def _abilities(tech: Technology) -> str:
    return listed(dict.fromkeys(ABILITIES.get(e.kind, e.kind.replace("_", " ")) for e in tech.effects))


def pyramid_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    costs = rules.research_costs(ruleset)
    shape = rules.pyramid(ruleset)
    columns = ("Technology", "Unlocks", "Abilities")
    levels = sorted({*costs, *shape.minimums, *(t.level for t in ruleset.technologies if isinstance(t.level, int))})
    for level in levels:
        parts = [f"Level {ROMAN.get(level, level)}"]
        if level in costs:
            parts.append(f"{costs[level]} trade")
        if level in shape.minimums:
            parts.append(f"the technology victory needs {shape.minimums[level]}")
        section = Section(
            " · ".join(parts),
            columns,
            mark=page.setting_mark(
                *([f"research.costs[{level}]"] if level in costs else []),
                *([f"pyramid.minimums[{level}]"] if level in shape.minimums else []),
            ),
        )
        for tech in ruleset.technologies:
            if tech.level == level:
                section.rows.append(
                    page.row(tech, "technologies", (tech.display_name, _unlocks(ruleset, tech, page), _abilities(tech)))
                )
        section.empty = f"No technology of level {ROMAN.get(level, level)} is in the sources of this ruleset."
        page.sections.append(section)
    unplaced = [t for t in ruleset.technologies if not isinstance(t.level, int)]
    if unplaced:
        reason = next(t.level.reason for t in unplaced if hasattr(t.level, "reason"))
        section = Section(f"Level not in the sources{page.notes.mark('level', reason)}", columns)
        for tech in unplaced:
            section.rows.append(
                page.row(tech, "technologies", (tech.display_name, _unlocks(ruleset, tech, page), _abilities(tech)))
            )
        page.sections.append(section)
    kept = rules.trade_kept_per_coin(ruleset)
    lead = page.lead(
        (
            f"The technology victory needs {shape.total} technologies in the pyramid."
            if shape.total is not None
            else "",
            page.setting_mark("pyramid.total"),
        ),
        (
            "A technology sits on the row below it, which must hold one more than its own row will"
            + (" (read from the rulebook's figures, not stated)." if shape.inferred else ".")
            if shape.one_more_below is True
            else "",
            page.setting_mark("pyramid.each_level_needs_one_more_below"),
        ),
        (
            "A starting technology goes in the base row whatever its level."
            if shape.starting_technology_in_base_row
            else "",
            page.setting_mark("pyramid.starting_technology_in_base_row"),
        ),
        (
            f"Research spends all trade but {kept} a coin." if kept else "",
            page.setting_mark("research.trade_kept_per_coin"),
        ),
    )
    return page.context(lead=lead)


@sheet(
    "technology-pyramid.html",
    "Technology pyramid",
    "The levels with their trade costs and what the technology victory needs, each technology with what it unlocks.",
    position=10,
    sources=("ruleset", "technologies"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return pyramid_sheet(source)
