"""A picture of the map graph and the index of every area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from civrules.emit.sheets.common import Page, humanize, known
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.mapgraph import adjacency
from civrules.families.advanced_civilization.model import Ruleset
from civrules.families.advanced_civilization.sheets.svgmap import TITLE, map_svg

#: Largest map drawn as a picture on the map sheet; larger maps get the index only. Below 500
#: nodes networkx lays a graph out with numpy alone; from 500 it needs scipy, which civrules does
#: not depend on (a map of 500 to 600 areas ended the build in an internal error).
MAX_PICTURE_AREAS = 499


def map_sheet(ruleset: Ruleset, page: Page, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    borders = adjacency(ruleset)  # not the checks' graphs: let go once the ruleset is checked
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
    bordered = _changed_borders(source)
    rows: list[dict[str, Any]] = []
    with_unknown = False
    for area in sorted(ruleset.areas.by_id.values(), key=lambda a: (a.display_name.casefold(), a.id)):
        neighbours: dict[str, list[dict[str, str]]] = {kind: [] for kind in (*kinds, "unknown")}
        across = borders.get(area.id, {})
        for other in sorted(across):
            kind = across[other] or "unknown"
            neighbours[kind if kind in kinds else "unknown"].append(
                {"name": names.get(other, other), "mark": bordered.get(frozenset((area.id, other)), "")}
            )
        mark = source.changed("areas", area.id) if source is not None else ""
        if not mark and any(n["mark"] for found in neighbours.values() for n in found):
            mark = "borders"  # an area of the base that this variant gives a border (or changes one)
        kind_text = "land" if area.land else ("open sea" if area.open_sea else "water")
        rows.append(
            {
                "id": area.id,
                "name": area.display_name,
                "mark": mark,
                "kind": kind_text,
                "water": not area.land,
                "population": known(area.population_limit),
                "city": area.city_site or "—",
                "flood": floods.get(area.flood_plain, humanize(area.flood_plain)) if area.flood_plain else "—",
                "coastal": known(area.coastal) if area.land else "—",
                "volcano": ", ".join(sorted(volcanoes.get(area.id, []))),
                "start": ", ".join(sorted(starts.get(area.id, []))),
                "neighbours": {
                    kind: _listed(sorted(found, key=lambda n: n["name"].casefold()))
                    for kind, found in neighbours.items()
                },
            }
        )
        with_unknown = with_unknown or bool(neighbours["unknown"])
    marks = {row["id"]: "changed" if row["mark"] == "borders" else row["mark"] for row in rows if row["mark"]}
    for row in rows:
        del row["id"]
    why_none = ""
    if not rows:
        why_none = "The data of this ruleset lists no area: there is no map to draw or to index."
    width = page.content_width
    height = page.content_height - 22.0
    # A spring layout costs memory quadratic in the areas and cannot be read beyond a few hundred.
    drawable = 0 < len(ruleset.areas) <= MAX_PICTURE_AREAS
    return {
        # The title (the ruleset's name) is put in by the page: the rest is the same for every
        # ruleset with this map, and a variant that keeps it reuses this context.
        "picture": map_svg(ruleset, width, height, marks=marks, titled=False) if drawable else None,
        "picture_title": TITLE,
        "rows": rows,
        "unknown_borders": with_unknown,
        "why_none": why_none,
        "variant": source is not None and source.variant,
        "counts": {
            "areas": len(ruleset.areas),
            "borders": sum(len(across) for across in borders.values()) // 2,
        },
    }


def _listed(found: list[dict[str, str]]) -> Markup:
    """An area's neighbours of one kind, by name, a border the variant adds or changes marked: made
    here rather than by a template macro called four times for every area of the index."""
    return Markup(
        ", ".join(
            f'{escape(n["name"])}<span class="changed-mark" title="border {escape(n["mark"])} by this variant">'
            f"{'+' if n['mark'] == 'added' else 'Δ'}</span>"
            if n["mark"]
            else escape(n["name"])
            for n in found
        )
    )


def _changed_borders(source: Source[Ruleset] | None) -> dict[frozenset[str], str]:
    """The borders a variant adds or changes, by their pair of areas."""
    found: dict[frozenset[str], str] = {}
    for key, mark in source.changed_keys("borders").items() if source is not None else ():
        pair = key.split("|")
        if len(pair) == 2:
            found[frozenset(pair)] = mark
    return found


@sheet(
    "map.html",
    "Map",
    "A picture of the map graph and an index of every area with its borders.",
    position=70,
    sources=("map",),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return map_sheet(source.ruleset, source.page, source)
