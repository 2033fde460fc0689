"""The unit types by rank: names, costs, strengths, who trumps whom, and the technologies that raise a rank."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, listed, name_in
from civrules.model import Unknown


def units_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    ranks = sorted({r.rank for u in ruleset.unit_types for r in u.ranks})
    section = Section(
        "Unit ranks", ("Unit type", "Rank", "Name", "Cost", "Strength", "Unlocked by"), numeric=frozenset({1, 3})
    )
    for unit in ruleset.unit_types:
        for rank in unit.ranks:
            strength = (
                "—" + page.notes.mark("strength", rank.strength.reason)
                if isinstance(rank.strength, Unknown)
                else f"{rank.strength[0]}–{rank.strength[1]}"
            )
            by = [name_in(ruleset.technologies, t) for t in rules.rank_unlocked_by(ruleset, unit.id, rank.rank)]
            if rank.rank == 1 and unit.available_at_start:
                shown = "available from the start"
            elif by:
                shown = listed(by)
            else:
                shown = "—" + page.notes.mark(
                    "unlocked by", "no technology whose unlocks the sources give raises this rank"
                )
            section.rows.append(
                page.row(
                    unit,
                    "unit_types",
                    (
                        unit.display_name,
                        rank.rank,
                        page.fact(rank.name, "rank name"),
                        page.fact(rank.cost, "cost"),
                        strength,
                        shown,
                    ),
                    rule=[] if rank.index else None,
                    fields=() if rank.index else None,  # the unit's first row cites it, ranks and all
                )
            )
    section.empty = "The sources of this ruleset list no unit type."
    page.sections.append(section)
    trumps = Section("Trumps", ("Unit type", "Trumps", "Cards in its deck"))
    for unit in ruleset.unit_types:
        beats = (
            name_in(ruleset.unit_types, unit.trumps)
            if unit.trumps
            else ("never trumped" if unit.never_trumped else "nothing")
        )
        trumps.rows.append(page.row(unit, "unit_types", (unit.display_name, beats, page.fact(unit.deck_size, "deck"))))
    page.sections.append(trumps)
    return page.context(lead=f"Ranks {listed(str(r) for r in ranks)}." if ranks else "")


@sheet(
    "units.html",
    "Unit ranks",
    "Each unit type's ranks with their names, costs and strengths, what each type trumps.",
    position=30,
    sources=("ruleset", "units", "technologies"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return units_sheet(source)
