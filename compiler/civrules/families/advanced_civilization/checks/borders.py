"""Borders: each pair once, of a kind its two areas allow, and a map all of one piece (4.3)."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.advanced_civilization.mapgraph import map_graph, pair
from civrules.families.advanced_civilization.model import Area, Border, Ruleset


@check("M001", "duplicate-border", Severity.ERROR, reads=("borders",))
@made_of("borders")
def check_duplicate_borders(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the same two areas have two border entries, in the same order or reversed (`[a, b]` and
    `[b, a]` are one border).

    Why: a border is an unordered pair; the second entry is ignored (the first one's kind counts),
    so if the kinds differ the map silently means something else than the line a designer edits.

    Fix: delete the second entry; if its kind was the right one, move it to the first.

        borders:
          - {areas: [aleppo, syria], kind: land}
          - {areas: [syria, aleppo], kind: both}   # FAIL: aleppo – syria again
    """
    first: dict[tuple[str, str], Border] = {}
    for border in ruleset.borders:
        if border.a == border.b:
            continue
        previous = first.setdefault(pair(border.a, border.b), border)
        if previous is border:
            continue
        how = " (written in reverse)" if (border.a, border.b) != (previous.a, previous.b) else ""
        differs = f"; the first says {previous.kind}, this one {border.kind}" if border.kind != previous.kind else ""
        yield diagnostic(
            "M001",
            f"the border `{border.a}` – `{border.b}` is declared twice{how}{differs}",
            border.origin.span("areas"),
            "delete this entry: each unordered pair of areas has one border (the first entry counts)",
            [Related(previous.origin.span("areas"), "first declared here")],
            subjects=(border.a, border.b),
        )


def allowed_kinds(a: Area, b: Area) -> frozenset[str]:
    """The border kinds two areas can share: land needs land on both sides (4.31), sea needs water on
    both sides (4.32), both needs land and water on both sides (4.33)."""
    kinds = set()
    if a.land and b.land:
        kinds.add("land")
    if a.water and b.water:
        kinds.add("sea")
    if a.land and a.water and b.land and b.water:
        kinds.add("both")
    return frozenset(kinds)


_NEEDS = {"land": ("land", "4.31"), "sea": ("water", "4.32"), "both": ("land and water", "4.33")}

#: Whether a border of each kind needs land, and water, on both of its sides (as :data:`_NEEDS`).
_FLAGS = {"land": (True, False), "sea": (False, True), "both": (True, True)}


def _lacks(area: Area, kind: str) -> str | None:
    """What ``area`` lacks for a border of ``kind`` (``land``, ``water``), or None."""
    if kind in ("land", "both") and not area.land:
        return "land"
    if kind in ("sea", "both") and not area.water:
        return "water"
    return None


@check("M002", "border-kind-mismatch", Severity.ERROR, reads=("areas.land", "areas.water", "borders"))
@made_of("areas", "borders")
def check_border_kinds(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a border's kind does not fit its two areas: a land border where one side has no land
    (4.31), a sea border where one side has no water (4.32), or a both border where one side lacks
    land or water (4.33).

    Why: movement reads the kind: tokens cross land and both borders, ships sea and both borders
    (23.52). A wrong kind lets tokens walk into the sea or ships sail across a desert; often it is
    the area's `land` / `water` flag that is wrong instead.

    Fix: correct the kind (the hint names the kinds that fit), or the flag of the area. A variant
    that takes an area's land or water away is given, in one hint, the `overlay.borders` entries
    that keep what remains of each of its borders (a both border's other half; a land or sea border
    is removed).

        - {id: aleppo, land: true, water: false, ...}
        - {areas: [aleppo, antiochia], kind: sea}   # FAIL: aleppo has no water
    """
    # the areas' index itself, not the collection's `get` (a Python call per border's side)
    area, graph = ruleset.areas.by_id.get, map_graph(ruleset)
    found: list[tuple[Border, frozenset[str], list[tuple[Area, str]]]] = []
    for border in ruleset.borders:
        flags = _FLAGS.get(border.kind)
        a, b = area(border.a), area(border.b)
        if flags is None or a is None or b is None:
            continue
        # A kind that fits (what it needs on both sides: 4.31-4.33) is told from the flags alone,
        # before the graph is asked and the kinds that fit are listed: most borders fit.
        land, water = flags
        if (not land or (a.land and b.land)) and (not water or (a.water and b.water)):
            continue
        # A repeated pair is M001's; only the border that counts is judged.
        if graph.border(border.a, border.b) is not border:
            continue
        allowed = allowed_kinds(a, b)
        lacking = [(area, what) for area in (a, b) if (what := _lacks(area, border.kind)) is not None]
        found.append((border, allowed, lacking))
    # a variant's fix is one for every border of an area an overlay changed, so that the findings
    # of one change are told as one (M002 at the variant's patch of the area, once); an area no
    # overlay changed is a map file's, fixed there (its `changes` are what tells, not the chain:
    # the findings are kept for every ruleset holding these areas and borders)
    by_area: dict[str, list[tuple[Border, frozenset[str]]]] = {}
    for border, allowed, lacking in found:
        if lacking[0][0].origin.changes:
            by_area.setdefault(lacking[0][0].id, []).append((border, allowed))
    fixes = {area: _borders_in_overlay(area, borders) for area, borders in by_area.items()}
    for border, allowed, lacking in found:
        needs, rule = _NEEDS[border.kind]
        sides = " and ".join(f"`{area.id}` has no {what}" for area, what in lacking)
        if allowed:
            hint = "make it " + " or ".join(f"`{k}`" for k in sorted(allowed)) + ", or correct the areas' land/water"
        else:
            hint = (
                "these two areas cannot share a border (a coastline between a land-only area and water is no "
                "border): remove it, or correct the areas' land/water"
            )
        yield diagnostic(
            "M002",
            f"{words.a(str(border.kind))} border needs {needs} on both sides ({rule}), but {sides}",
            border.origin.span("kind"),
            hint,
            [Related(area.origin.span(what), f"`{area.id}` has {what}: false") for area, what in lacking],
            subjects=(border.a, border.b),
            from_variant=fixes.get(lacking[0][0].id),
        )


def _left_of(kind: str, allowed: frozenset[str]) -> str | None:
    """What remains of a border of ``kind`` whose sides allow only ``allowed``: a both border the
    part its sides still have (land, or sea), a land or sea border nothing (it is removed)."""
    if kind != "both":
        return None
    return next((k for k in ("land", "sea") if k in allowed), None)


def _borders_in_overlay(area: str, borders: list[tuple[Border, frozenset[str]]]) -> str:
    """M002's fix as a variant makes it, for every border of ``area`` its change left of a kind
    its sides no longer allow: one `overlay.borders` entry per border, a both border re-kinded to
    what remains of it, a land or sea border removed (each border named as the base writes it;
    the first :data:`words.SHOWN` written out, the rest counted)."""
    patched: list[str] = []
    removed: list[str] = []
    for border, allowed in borders[: words.SHOWN]:
        left = _left_of(str(border.kind), allowed)
        if left is None:
            removed.append(f'{{areas: [{border.a}, {border.b}], why: "house rule: write why here"}}')
        else:
            patched.append(f'{{areas: [{border.a}, {border.b}], kind: {left}, source: "house rule: write why here"}}')
    operations = ([f"patch: [{', '.join(patched)}]"] if patched else []) + (
        [f"remove: [{', '.join(removed)}]"] if removed else []
    )
    more = len(borders) - words.SHOWN
    rest = f" (and {more:,} more borders of `{area}` alike)" if more > 0 else ""
    return (
        f"change the borders of `{area}` this leaves of a kind their sides no longer allow, in "
        f"`overlay.borders`: `{{{', '.join(operations)}}}`{rest} (a both border keeps the half its sides "
        "still allow; a land or sea border is removed)"
    )


@check("M003", "border-pair-order", Severity.WARNING, reads=("borders",))
@made_of("borders")
def check_border_order(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a border's two areas are not written in id order.

    Why: map files keep one line per pair with the ids in order, so that a pair is found (and its
    duplicates seen) by sorting, and diffs stay small; the order has no meaning in the game.

    Fix: swap the two ids.

        - {areas: [syria, aleppo], kind: land}   # FAIL: write [aleppo, syria]
    """
    seen: set[tuple[str, str]] = set()
    for border in ruleset.borders:
        key = pair(border.a, border.b)
        if key in seen:
            continue  # M001
        seen.add(key)
        if border.a > border.b:
            yield diagnostic(
                "M003",
                f"write the border `{border.a}` – `{border.b}` in id order",
                border.origin.span("areas"),
                f"write `[{border.b}, {border.a}]`",
                subjects=(border.a, border.b),
            )


@check("M004", "excluded-border-declared", Severity.ERROR, reads=("areas.id", "borders", setting("excluded_borders")))
@made_of("areas", "borders", "map_files")
def check_excluded_borders(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a pair of areas is both a border and listed under `excluded_borders` (links a source gives
    that this map deliberately does not take as borders).

    Why: the file contradicts itself: the exclusion says why the two areas are not adjacent, while
    the border makes them adjacent. One of the two records is stale.

    Fix: delete the border, or delete the exclusion (and record the choice in the border's note).

        borders:
          - {areas: [midian, ptolemais], kind: sea}   # FAIL: excluded below
        excluded_borders:
          - {areas: [midian, ptolemais], source: ..., why: ...}
    """
    graph = map_graph(ruleset)
    for excluded in (entry for map_file in ruleset.map_files for entry in map_file.excluded_borders):
        linked, origin = excluded.areas, excluded.origin
        if len(linked) != 2:
            continue
        border = graph.border(str(linked[0]), str(linked[1]))
        if border is None:
            continue
        yield diagnostic(
            "M004",
            f"`{border.a}` – `{border.b}` is a border, but `excluded_borders` says it is not one",
            border.origin.span("areas"),
            "delete the border or the exclusion; the exclusion's `why` says what was decided",
            [Related(origin.span("areas"), "excluded here")],
            subjects=(border.a, border.b, "excluded_borders"),
        )


@check("M005", "isolated-area", Severity.ERROR, reads=("areas.id", "borders"))
@made_of("areas", "borders")
def check_isolated_areas(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an area has no border at all.

    Why: nothing can enter or leave it: tokens cannot move there, ships cannot reach it, and it
    cannot be anyone's neighbour for calamities. Usually its borders were forgotten or name it with
    a misspelt id.

    Fix: add its borders.

        areas:
          - {id: atlantis, name: Atlantis, land: true, ...}   # FAIL: no border names atlantis
    """
    graph = map_graph(ruleset)
    for area in ruleset.areas.by_id.values():
        if graph.degree(area.id) == 0:
            yield diagnostic(
                "M005",
                f"area `{area.id}` has no border",
                area.origin.head(),
                "add the borders between this area and its neighbours",
                subjects=(area.id,),
            )


@check("M006", "map-disconnected", Severity.ERROR, reads=("areas.id", "borders"))
@made_of("areas", "borders")
def check_map_connected(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the areas fall apart into groups with no border between them (areas with no border at all
    are M005).

    Why: every area of a board is reachable by land or sea from every other; a group cut off from
    the rest means missing borders, and movement, trade routes and calamities that spread to
    neighbours never cross the gap.

    Fix: add the borders that join the group to the rest of the map.

        borders:
          - {areas: [atlantis, lemuria], kind: land}   # FAIL: neither borders the rest of the map
    """
    graph = map_graph(ruleset)
    if graph.connected([area for area in ruleset.areas.by_id if graph.degree(area) > 0]):
        return
    import networkx as nx  # only for a map that falls apart (see mapgraph)

    order = {area_id: n for n, area_id in enumerate(ruleset.areas.by_id)}
    groups = [sorted(c, key=order.__getitem__) for c in nx.connected_components(graph.all) if len(c) > 1]
    if len(groups) < 2:
        return
    groups.sort(key=lambda g: (-len(g), order[g[0]]))
    main = ruleset.areas.by_id[groups[0][0]]
    for group in groups[1:]:
        first = ruleset.areas.by_id[group[0]]
        shown = words.listed(group, shown=5)
        yield diagnostic(
            "M006",
            f"{words.count(len(group), 'area')} ({shown}) {'has' if len(group) == 1 else 'have'} no chain of "
            f"borders to the rest of the map",
            first.origin.head(),
            "add the borders that join these areas to their neighbours on the rest of the map",
            [Related(main.origin.head(), f"the rest of the map ({words.count(len(groups[0]), 'area')})")],
            subjects=group,
        )
