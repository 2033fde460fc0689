"""A picture of the map graph and the index of every area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import Page, humanize, known
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.mapgraph import map_graph
from civrules.families.advanced_civilization.model import Ruleset
from civrules.families.advanced_civilization.sheets.svgmap import map_svg

#: Largest map drawn as a picture on the map sheet; larger maps get the index only. Below 500
#: nodes networkx lays a graph out with numpy alone; from 500 it needs scipy, which civrules does
#: not depend on (a map of 500 to 600 areas ended the build in an internal error).
MAX_PICTURE_AREAS = 499


def map_sheet(ruleset: Ruleset, page: Page, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    graph = map_graph(ruleset)
    names = {area.id: area.display_name for area in ruleset.areas.by_id.values()}
    starts: dict[str, list[str]] = {}
    for nation in ruleset.nations.by_id.values():
        if isinstance(nation.start_areas, tuple):
            for area_id in nation.start_areas:
                starts.setdefault(area_id, []).append(nation.display_name)
    volcanoes: dict[str, list[str]] = {}
    for region in ruleset.volcanoes:
        for area_id in region.areas:
            volcanoes.setdefault(area_id, []).append(region.display_name)
    floods = {region.id: region.display_name for region in ruleset.flood_plains}
    kinds = ("land", "sea", "both")
    rows: list[dict[str, Any]] = []
    for area in sorted(ruleset.areas.by_id.values(), key=lambda a: (a.display_name.casefold(), a.id)):
        neighbours: dict[str, list[str]] = {kind: [] for kind in (*kinds, "unknown")}
        for other in graph.neighbours(area.id):
            kind = graph.kind(area.id, other) or "unknown"
            neighbours[kind if kind in kinds else "unknown"].append(names.get(other, other))
        kind_text = "land" if area.land else ("open sea" if area.open_sea else "water")
        rows.append(
            {
                "name": area.display_name,
                "mark": source.changed("areas", area.id) if source is not None else "",
                "kind": kind_text,
                "water": not area.land,
                "population": known(area.population_limit),
                "city": area.city_site or "—",
                "flood": floods.get(area.flood_plain, humanize(area.flood_plain)) if area.flood_plain else "—",
                "coastal": known(area.coastal) if area.land else "—",
                "volcano": ", ".join(sorted(volcanoes.get(area.id, []))),
                "start": ", ".join(sorted(starts.get(area.id, []))),
                "neighbours": {kind: sorted(found, key=str.casefold) for kind, found in neighbours.items()},
            }
        )
    with_unknown = any(row["neighbours"]["unknown"] for row in rows)
    width = page.content_width
    height = page.content_height - 22.0
    # A spring layout costs memory quadratic in the areas and cannot be read beyond a few hundred.
    drawable = 0 < len(ruleset.areas) <= MAX_PICTURE_AREAS
    return {
        "picture": map_svg(ruleset, width, height) if drawable else None,
        "rows": rows,
        "unknown_borders": with_unknown,
        "counts": {
            "areas": len(ruleset.areas),
            "borders": graph.all.number_of_edges(),
        },
    }


@sheet(
    "map.html",
    "Map",
    "A picture of the map graph and an index of every area with its borders.",
    position=70,
    sources=("map",),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return map_sheet(source.ruleset, source.page, source)
