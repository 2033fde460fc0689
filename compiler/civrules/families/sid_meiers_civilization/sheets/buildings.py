"""Buildings and terrains: where each building may stand, what it costs, what it upgrades; the
terrain of each map tile where the sources give the tiles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Section, Sheet, listed, name_in
from civrules.model import Unknown

#: The most terrains drawn as a column each (the game has five): beside the building's name, cost,
#: upgrade and technologies, more columns than these do not fit a landscape page legibly, and a
#: mark for every building on every terrain is as large as their product (2,000 of each: 37 MB of
#: sheet, 700 MB to render). More terrains are named in one column, each building's own.
MAX_TERRAIN_COLUMNS = 12


def buildings_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    terrains = list(ruleset.terrains)
    columns = len(terrains) <= MAX_TERRAIN_COLUMNS
    heads = tuple(t.display_name for t in terrains) if columns else ("Stands on",)
    section = Section(
        "Buildings", ("Building", *heads, "Cost", "Upgrade of", "Unlocked by"), numeric=frozenset({len(heads) + 1})
    )
    for building in ruleset.buildings:
        if isinstance(building.terrains, Unknown):
            marks = ["—" + page.notes.mark("terrains", building.terrains.reason)] * len(heads)
        elif columns:
            on = set(building.terrains)
            marks = ["●" if t.id in on else "" for t in terrains]
        else:
            marks = [listed(name_in(ruleset.terrains, t) for t in building.terrains) or "—"]
        name = building.display_name + (" *" if building.limited is True else "")
        if building.city_centre:
            name += " (city centre)"
        try:
            unlocked = listed(name_in(ruleset.technologies, t) for t in rules.unlocked_by(ruleset, building.id)) or "—"
        except rules.CannotJudgeError as why:
            unlocked = "—" + page.notes.mark("unlocked by", str(why))
        section.rows.append(
            page.row(
                building,
                "buildings",
                (
                    name,
                    *marks,
                    page.fact(building.cost, "cost"),
                    name_in(ruleset.buildings, building.upgrade_of)
                    if isinstance(building.upgrade_of, str)
                    else page.fact(building.upgrade_of, "upgrade of", none=""),
                    unlocked,
                ),
            )
        )
    section.empty = "The sources of this ruleset list no building."
    page.sections.append(section)
    tiles = _tiles(page)
    if tiles is not None:
        page.sections.append(tiles)
    water = [t.display_name for t in terrains if t.water]
    lead = (
        "● the building may stand on that terrain; * limited building (one per city)"
        if columns
        else f"{len(terrains)} terrains: each building's own are named; * limited building (one per city)"
    )
    if water:
        lead += f"; water: {listed(water)}"
    return page.context(lead=lead + ".")


def _tiles(page: Sheet) -> Section | None:
    """The map tiles (`tiles`), each with its squares of terrain row by row, north row first, as the
    data holds them; None where the sources give no tile (no section, rather than an empty one)."""
    ruleset = page.source.ruleset
    tiles = list(ruleset.tiles)
    if not tiles:
        return None
    with_civilization = any(tile.civilization is not None for tile in tiles)
    section = Section(
        "Map tiles", ("Tile", *(("Civilization",) if with_civilization else ()), "Squares, north row first")
    )
    for tile in tiles:
        squares = " / ".join(", ".join(name_in(ruleset.terrains, square) for square in row) for row in tile.squares)
        civilization = tile.civilization
        if isinstance(civilization, Unknown):
            shown = page.fact(civilization, "civilization")
        else:
            shown = name_in(ruleset.civilizations, civilization) if civilization is not None else ""
        cells = (tile.display_name, *((shown,) if with_civilization else ()), squares or "—")
        section.rows.append(page.row(tile, "tiles", cells))
    return section


@sheet(
    "buildings.html",
    "Buildings and terrains",
    "Where each building may stand, what it costs, what it upgrades and which technology unlocks it; the map "
    "tiles' terrain where the sources give them.",
    position=20,
    landscape=True,
    sources=("ruleset", "buildings", "technologies", "map"),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return buildings_sheet(source)
