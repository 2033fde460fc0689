"""Wonders by era: cost, the cheaper cost with a technology, research discount."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, name_in
from civrules.model import Unknown


def wonders_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    columns = ("Wonder", "Cost", "With", "Research")
    groups: dict[str, Section] = {
        era.id: Section(era.display_name, columns, numeric=frozenset({1})) for era in ruleset.eras
    }
    unknown: Section | None = None
    for wonder in ruleset.wonders:
        if isinstance(wonder.era, Unknown) or wonder.era not in groups:
            if unknown is None:
                reason = wonder.era.reason if isinstance(wonder.era, Unknown) else "its era is not among the eras"
                unknown = Section(
                    f"Era not in the sources{page.notes.mark('era', reason)}", columns, numeric=frozenset({1})
                )
            section = unknown
        else:
            section = groups[wonder.era]
        discount = (
            f"{wonder.discount.cost} with {name_in(ruleset.technologies, wonder.discount.technology)}"
            if wonder.discount
            else ""
        )
        research = f"{wonder.research_discount} trade less to research" if wonder.research_discount else ""
        section.rows.append(
            page.row(wonder, "wonders", (wonder.display_name, page.fact(wonder.cost, "cost"), discount, research))
        )
    for section in groups.values():
        section.empty = "The sources of this ruleset give no wonder of this era."
    page.sections.extend([*groups.values(), *([unknown] if unknown else [])])
    if not page.sections:
        page.sections.append(Section("Wonders", columns, empty="The sources of this ruleset list no wonder."))
    return page.context(lead="")


@sheet(
    "wonders.html",
    "Wonders",
    "The wonders by era with their costs and the cheaper cost a technology gives.",
    position=40,
    sources=("ruleset", "wonders", "technologies"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return wonders_sheet(source)
