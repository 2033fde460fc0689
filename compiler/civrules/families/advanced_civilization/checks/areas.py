"""Areas: what an area declares about itself agrees with its borders and its file (4.2, 23.57).

The schema already keeps land facts (population limit, city site, flood plain, start nation,
coastal) off water-only areas, demands a population limit of every land area, keeps open sea areas
free of land and white city sites on flood plains; these checks compare an area with the rest of
the map.
"""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.advanced_civilization.mapgraph import derived_coastal, map_graph
from civrules.families.advanced_civilization.model import Ruleset


@check("M010", "coastal-mismatch", Severity.ERROR, reads=("areas.coastal", "areas.land", "areas.water", "borders"))
@made_of("areas", "borders")
def check_coastal(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an area's declared `coastal` flag disagrees with its borders. A coastal area contains land
    and sea (4.24), so it is coastal exactly when it has land and a sea or both border.

    Why: the flag is what sheets and generated code read (a Flood with no victim on a flood plain
    takes a coastal city, 30.514), the borders are what movement reads; when they disagree one of
    them is wrong. An area whose only water is a lake is not coastal (4.24) yet may have sea borders
    to its lake's other shores: no source marks lakes yet, so such an area needs a suppression with
    its reason.

    Fix: correct the flag, or add (or re-kind) the missing sea border.

        - {id: jerusalem, land: true, water: true, coastal: false, ...}   # FAIL: sea border to gaza
        - {areas: [gaza, jerusalem], kind: both}
    """
    graph = map_graph(ruleset)
    derived = derived_coastal(ruleset)
    for area in ruleset.areas.by_id.values():
        # An area without water cannot have a sea border; any it has is M002's.
        if not (area.land and area.water) or area.coastal is None or derived[area.id] == area.coastal:
            continue
        if area.coastal:
            yield diagnostic(
                "M010",
                f"`{area.id}` is declared coastal but has no sea or both border (4.24)",
                area.origin.span("coastal"),
                "add its sea borders, or write `coastal: false` (an area whose only water is a lake is not coastal)",
                subjects=(area.id,),
            )
            continue
        neighbour = graph.neighbours(area.id, "sea")[0]
        border = graph.border(area.id, neighbour)
        related = [Related(border.origin.span("kind"), f"{border.kind} border with `{neighbour}`")] if border else []
        yield diagnostic(
            "M010",
            f"`{area.id}` is declared not coastal but has a sea border with `{neighbour}` (4.24)",
            area.origin.span("coastal"),
            "write `coastal: true`, or correct the border's kind",
            related,
            subjects=(area.id, neighbour),
        )


def _listing(ids: list[str], one: str, verb: str, many: str, verbs: str) -> str:
    names = words.listed(ids)
    return f"{one} {names} {verb}" if len(ids) == 1 else f"{many} {names} {verbs}"


@check("M011", "area-panel-undeclared", Severity.ERROR, reads=("areas.panel",))
@made_of("areas", "map_files")
def check_area_panels(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an area is on a panel that its map file does not declare in its `panel`.

    Why: a map file describes one board piece (or several it names); player counts that use only
    some panels (16.6-16.8, 16.11) decide which areas are in play by panel, so an area on an
    undeclared panel is either misfiled or misspelt and would silently drop out of play.

    Fix: correct the area's panel, move the area to the file of its panel, or add the panel to the
    file's list.

        panel: main
        areas:
          - {id: cirta, panel: western, ...}   # FAIL: this file is the main board
    """
    files = {id(f.origin.document): f for f in ruleset.map_files}
    panels = {key: frozenset(f.panels) for key, f in files.items()}  # each file's panels as a set, once
    for area in ruleset.areas:
        map_file = files.get(id(area.origin.document))
        declared = map_file.panels if map_file is not None else ()
        if map_file is None or not declared or area.panel is None or area.panel in panels[id(area.origin.document)]:
            continue
        file_panels = ", ".join(f"`{p}`" for p in declared)
        yield diagnostic(
            "M011",
            f"`{area.id}` is on panel `{area.panel}`, but its map file declares only {file_panels}",
            area.origin.span("panel"),
            "correct the panel, or move the area to the map file of its panel",
            [Related(map_file.origin.span("panel"), "the file's panels")],
            subjects=(area.id, area.panel),
        )


@check("M012", "coast-touches", Severity.ERROR, reads=("areas.coasts", "borders"))
@made_of("areas", "borders")
def check_coast_touches(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a coast of a two-coast area (23.57) names an area that is not across a sea or both border
    from it, or that does not exist, or one that another coast of the same area already names.

    Why: a ship enters a two-coast area from either side and must leave by the side it entered; the
    coasts sort the area's sea borders into the two sides. A coast touching a non-neighbour means
    nothing, and a neighbour on both coasts lets a ship pass straight through, which 23.57 forbids.

    Fix: name only sea neighbours, each on one coast.

        - id: corinth
          coasts:
            - touches: [argos, delphi]
            - touches: [delphi, sparta]   # FAIL: delphi on both coasts
    """
    graph = map_graph(ruleset)
    for area in ruleset.areas.by_id.values():
        if area.coasts is None:
            continue
        sea = set(graph.neighbours(area.id, "sea"))
        seen: dict[str, int] = {}
        for coast in area.coasts:
            c = coast.index
            for t, other in enumerate(coast.touches or ()):
                if other not in ruleset.areas:
                    yield diagnostic(
                        "M012",
                        f"coast of `{area.id}`: area `{other}` does not exist",
                        area.origin.span("coasts", c, "touches", t),
                        "name a sea neighbour",
                        subjects=(area.id, other),
                    )
                elif other not in sea:
                    yield diagnostic(
                        "M012",
                        f"coast of `{area.id}` touches `{other}`, but the two share no sea or both border",
                        area.origin.span("coasts", c, "touches", t),
                        "name only areas across a sea border, or add the border",
                        subjects=(area.id, other),
                    )
                elif other in seen:
                    yield diagnostic(
                        "M012",
                        f"`{other}` is on two coasts of `{area.id}`: a ship could pass from one coast to the other",
                        area.origin.span("coasts", c, "touches", t),
                        "put each sea neighbour on one coast (23.57)",
                        [Related(area.origin.span("coasts", seen[other], "touches"), "the other coast")],
                        subjects=(other, area.id),
                    )
                else:
                    seen[other] = c


@check("M013", "two-coasts-incomplete", Severity.WARNING, reads=("areas.coasts", "borders", setting("two_coast_areas")))
@made_of("areas", "borders", "map_files")
def check_two_coasts_complete(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the two-coast information is incomplete: an area with `coasts` leaves a sea neighbour on no
    coast, or the file's `two_coast_areas` list and the areas carrying `coasts` differ.

    Why: a ship arriving from a neighbour on no coast has no side to leave by (23.57); and the file
    list is what a reader checks first, so it should name exactly the areas with coasts.

    Fix: put every sea neighbour on one coast, and keep `two_coast_areas` in step with `coasts`.

        two_coast_areas: [corinth]
        areas:
          - id: corinth
            coasts:
              - touches: [argos]
              - touches: [sparta]      # FAIL: delphi, a sea neighbour, is on no coast
    """
    graph = map_graph(ruleset)
    for area in ruleset.areas.by_id.values():
        if area.coasts is None:
            continue
        named = {t for coast in area.coasts for t in coast.touches or ()}
        missing = [n for n in graph.neighbours(area.id, "sea") if n not in named]
        if missing:
            which = _listing(missing, "its sea neighbour", "is", "its sea neighbours", "are")
            yield diagnostic(
                "M013",
                f"`{area.id}` has coasts, but {which} on no coast",
                area.origin.key_span("coasts"),
                "add each to the coast its sea border lies on",
                subjects=(area.id,),
            )
    for map_file in ruleset.map_files:
        listed = map_file.two_coast_areas
        if not isinstance(listed, tuple):
            continue
        file_origin = map_file.origin
        with_coasts = {
            area.id: area
            for area in ruleset.areas.by_id.values()
            if area.origin.document is map_file.origin.document and area.coasts is not None
        }
        for i, area_id in enumerate(listed):
            if area_id not in with_coasts:
                yield diagnostic(
                    "M013",
                    f"`two_coast_areas` names `{area_id}`, but no area of this file with that id has `coasts`",
                    file_origin.span("two_coast_areas", i),
                    "add the area's coasts (23.57), or take it off the list",
                    subjects=("two_coast_areas", area_id, "coasts"),
                )
        listed_set = set(listed)
        for area_id, area in with_coasts.items():
            if area_id not in listed_set:
                yield diagnostic(
                    "M013",
                    f"`{area_id}` has coasts but is not in the file's `two_coast_areas`",
                    area.origin.key_span("coasts"),
                    f"add `{area_id}` to `two_coast_areas`",
                    [Related(file_origin.span("two_coast_areas"), "the list")],
                    subjects=(area_id, "two_coast_areas"),
                )
