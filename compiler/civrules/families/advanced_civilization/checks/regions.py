"""Flood plains and volcanoes: named groups of areas that calamities strike (4.41-4.43)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks, words
from civrules.families.advanced_civilization.mapgraph import map_graph
from civrules.families.advanced_civilization.model import Area, Region, Ruleset
from civrules.model import Origin


def member_spans(ruleset: Ruleset) -> dict[str, list[tuple[str, Callable[[], Span]]]]:
    """Each flood plain's members as written, with what locates where each is listed (located only
    where a check reports it: every member located was most of the work of a check reporting nothing).

    The model keeps a flood plain's declaring entry (as a variant left it) and merges the members of
    the entries that continue it; the continuing entries, and any repeated entry the model drops
    (M022), are the model's map files' entries.
    """
    members: dict[str, list[tuple[str, Callable[[], Span]]]] = {}
    declaring: set[tuple[int, tuple[str | int, ...]]] = set()
    for plain in ruleset.flood_plains:
        members[plain.id] = [(a, partial(plain.origin.span, "areas", i)) for i, a in enumerate(plain.listed)]
        for origin in (plain.origin, plain.origin.base):
            if origin is not None:
                declaring.add((id(origin.document), origin.path))
    for entry in (entry for map_file in ruleset.map_files for entry in map_file.flood_plains):
        origin = entry.origin
        if entry.id not in members or (id(origin.document), origin.path) in declaring:
            continue
        for i, area_id in enumerate(entry.areas):
            members[entry.id].append((area_id, partial(origin.span, "areas", i)))
    return members


@check("M020", "flood-plain-disconnected", Severity.ERROR, reads=("areas.land", "borders", "flood_plains"))
@made_of("areas", "borders", "flood_plains", "map_files")
def check_flood_plains_connected(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the land areas of a flood plain do not hang together by land (land or both borders): part
    of it is cut off from the rest.

    Why: a flood plain is a stretch of dark green (4.42), and Flood takes its losses from the units
    on one flood plain (30.511-30.513); members that are not joined by land are usually a misplaced
    member, a wrong border kind, or two flood plains written as one.

    Fix: move the stray member to its own flood plain, or correct the borders between them.

        borders:
          - {areas: [etruria_2, rubicon], kind: sea}
        flood_plains:
          - {id: etruria, areas: [etruria_2, rubicon]}   # FAIL: not joined by land
    """
    graph = map_graph(ruleset)
    areas = ruleset.areas
    members = member_spans(ruleset)
    for plain in ruleset.flood_plains:
        listed = members.get(plain.id, [])
        where: dict[str, Callable[[], Span]] = {}
        for area_id, span in listed:
            area = areas.get(area_id)
            if area is not None and area.land:
                where.setdefault(area_id, span)
        if graph.connected(where, "land"):
            continue
        import networkx as nx  # only for a flood plain that falls apart (see mapgraph)

        order = {area_id: n for n, area_id in enumerate(where)}
        groups = sorted(
            (sorted(c, key=order.__getitem__) for c in nx.connected_components(graph.land.subgraph(where))),
            key=lambda g: order[g[0]],
        )
        anchor = groups[0][0]
        for group in groups[1:]:
            names = words.listed(group)
            verb = "is" if len(group) == 1 else "are"
            yield diagnostic(
                "M020",
                f"flood plain `{plain.id}`: {names} {verb} not joined by land to `{anchor}` (4.42)",
                where[group[0]](),
                "move the stray areas to their own flood plain, or correct the land borders between the members",
                [Related(where[anchor](), f"`{anchor}` is on the flood plain")],
                subjects=(plain.id, anchor),
            )


@check("M021", "flood-plain-membership", Severity.ERROR, reads=("areas.flood_plain", "areas.land", "flood_plains"))
def check_flood_plain_members(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an area's `flood_plain` and the flood plain's `areas` disagree: the area names a flood
    plain that does not list it, or a flood plain lists an area that names no flood plain or another
    one, or that is not a land area. A white city site lies on a flood plain (4.43), so its area must
    be a listed member of the flood plain it names.

    Why: Flood takes units from the areas of one flood plain (30.511-30.513), and white city sites
    are the ones vulnerable to it (4.43); the two records are read by different code and sheets, so
    a disagreement makes Flood strike different areas depending on who asks.

    Fix: make both sides say the same: add the area to the flood plain's `areas`, or correct the
    area's `flood_plain`.

        - {id: ur, flood_plain: mesopotamia, ...}   # FAIL: mesopotamia's areas lack ur
        flood_plains:
          - {id: mesopotamia, areas: [babylon, charax, sumeria]}
    """
    for found, area, plain in _memberships(ruleset):
        put_by_a_variant = (
            area is not None
            and plain is not None
            and ruleset.layer(area.origin, "flood_plain") > ruleset.layer(plain.origin, "areas")
        )
        if put_by_a_variant and area is not None and plain is not None:
            # The base's flood plain is changed from the variant too, cited as the change must be
            # (Q009): the variant's own change, a house rule's until it says otherwise.
            cite = 'source: "house rule: write why here"'
            appended = f"{{id: {plain.id}, areas: {{append: [{area.id}]}}, {cite}}}"
            written = f"overlay: {{flood_plains: {{patch: [{appended}]}}}}"
            found = replace(
                found, hint=f"add `{area.id}` to `{plain.id}` in this variant (`{written}`), or correct `flood_plain`"
            )
        yield found


@made_of("areas", "flood_plains", "map_files")
def _memberships(ruleset: Ruleset) -> Iterator[tuple[Diagnostic, Area | None, Region | None]]:
    """M021's findings as the base's files show them, each with the area and the flood plain
    whose layers say whether a variant put the area there (None where they do not matter): made
    of the areas, the flood plains and the map files alone, and so found once for every ruleset
    holding them (:func:`~civrules.checks.made_of`); the layers, each ruleset's own, are read by
    the check."""
    # Members are read from every entry of a flood plain as written (an entry the model drops is
    # M022's), so that one misordered or repeated entry does not show up here as well.
    areas, plains = ruleset.areas, ruleset.flood_plains
    listed = member_spans(ruleset)
    listing: dict[str, list[tuple[str, Callable[[], Span]]]] = {}
    for plain_id, members in listed.items():
        for area_id, span in members:
            listing.setdefault(area_id, []).append((plain_id, span))
    for area in areas.by_id.values():
        named = plains.get(area.flood_plain) if area.flood_plain is not None else None
        others = listing.get(area.id, [])
        if named is None or any(p == named.id for p, _ in others):
            continue
        also = f"; it is listed by `{others[0][0]}`" if others else ""
        hint = f"add `{area.id}` to the areas of `{named.id}`, or correct `flood_plain`"
        found = diagnostic(
            "M021",
            f"`{area.id}` is on flood plain `{named.id}`, but `{named.id}` does not list it{also}",
            area.origin.span("flood_plain"),
            hint,
            [Related(named.origin.span("areas"), f"the areas of `{named.id}`")]
            + [Related(span(), f"listed by `{p}`") for p, span in others],
            subjects=(area.id, named.id),
        )
        yield found, area, named
    for plain_id, members in listed.items():
        for area_id, span in members:
            member = areas.get(area_id)
            if member is None:
                continue
            if not member.land:
                yield (
                    diagnostic(
                        "M021",
                        f"flood plain `{plain_id}` lists `{area_id}`, which is not a land area (4.42)",
                        span(),
                        "flood plains are land: take the area off the list",
                        [Related(member.origin.span("land"), "no land")],
                        subjects=(plain_id, area_id),
                    ),
                    None,
                    None,
                )
            elif member.flood_plain is None:
                yield (
                    diagnostic(
                        "M021",
                        f"flood plain `{plain_id}` lists `{area_id}`, but `{area_id}` has no `flood_plain`",
                        span(),
                        f"write `flood_plain: {plain_id}` on the area, or take it off the list",
                        [Related(member.origin.head(), f"`{area_id}`")],
                        subjects=(plain_id, area_id, "flood_plain"),
                        # the area a variant's list takes in is most often its base's: changed from
                        # the variant (read only there; written always, the finding being shared)
                        from_variant=f"in `overlay.areas`, `patch: [{{id: {area_id}, flood_plain: {plain_id}, "
                        f'source: "{blanks.HOUSE_RULE}"}}]`',
                    ),
                    None,
                    None,
                )
            elif member.flood_plain != plain_id:
                own = plains.get(member.flood_plain)
                if own is None or all(p != own.id for p, _ in listing[area_id]):
                    continue  # X001, or reported at the area above
                yield (
                    diagnostic(
                        "M021",
                        f"flood plain `{plain_id}` lists `{area_id}`, but `{area_id}` is on `{member.flood_plain}`",
                        span(),
                        "an area is on one flood plain: take it off this list, or move it",
                        [Related(member.origin.span("flood_plain"), "its flood plain")],
                        subjects=(plain_id, area_id, member.flood_plain),
                        from_variant=f"to move `{area_id}` here, in `overlay.areas`, `patch: [{{id: {area_id}, "
                        f'flood_plain: {plain_id}, source: "{blanks.HOUSE_RULE}"}}]`, and in `overlay.flood_plains`, '
                        f"`patch: [{{id: {member.flood_plain}, areas: {{remove: [{area_id}]}}, "
                        f'source: "{blanks.HOUSE_RULE}"}}]`',
                    ),
                    None,
                    None,
                )


@check("M022", "flood-plain-continuation", Severity.ERROR, reads=("flood_plains",))
@made_of("flood_plains", "map_files")
def check_flood_plain_continuations(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a flood plain entry repeats the id of an earlier one without `continues_from`, or an entry
    with `continues_from` continues nothing: the map file it names does not exist, declares no flood
    plain with this id, or is read after this one.

    Why: a flood plain crossing panels is declared once and continued in the other panel's file;
    a repeated id is dropped whole (its members belong to no flood plain), and a continuation of
    nothing becomes a flood plain of its own.

    Fix: rename the repeated flood plain, or add `continues_from: <map file id>`; list the declaring
    map file before the continuing one in the ruleset.

        flood_plains:
          - {id: nile, areas: [alexandria, fayum]}
          - {id: nile, areas: [tanis]}   # FAIL: a second nile
    """
    files = ruleset.map_files
    position = {f.id: n for n, f in enumerate(files)}
    declared: dict[str, Origin] = {}  # located only where a second declaration is reported
    declares = {(f.id, entry.id) for f in files for entry in f.flood_plains if entry.continues_from is None}
    for here, entry in ((n, entry) for n, f in enumerate(files) for entry in f.flood_plains):
        plain_id, source, origin = entry.id, entry.continues_from, entry.origin
        if source is None:
            previous = declared.get(plain_id)
            if previous is None:
                declared[plain_id] = origin
                continue
            yield diagnostic(
                "M022",
                f"flood plain `{plain_id}` is declared twice; this entry is ignored",
                origin.head(),
                "rename it, or write `continues_from` with the map file that declares it",
                [Related(previous.head(), "first declared here")],
                subjects=(plain_id,),
            )
            continue
        if source not in position:
            yield diagnostic(
                "M022",
                f"`continues_from`: no map file of this ruleset has id `{source}`",
                origin.span("continues_from"),
                subjects=("continues_from", source),
            )
            continue
        if (source, plain_id) not in declares:
            yield diagnostic(
                "M022",
                f"`continues_from: {source}`, but `{source}` declares no flood plain `{plain_id}`",
                origin.span("continues_from"),
                "name the map file that declares this flood plain",
                subjects=(source, plain_id),
            )
        elif position[source] > here:
            yield diagnostic(
                "M022",
                f"flood plain `{plain_id}` continues from `{source}`, which the ruleset reads after this file",
                origin.span("continues_from"),
                f"list the map file `{source}` before this one in the ruleset's files",
                subjects=(plain_id, source),
            )


@check("M023", "volcano-not-adjacent", Severity.ERROR, reads=("areas.id", "borders", "volcanoes.areas"))
@made_of("areas", "borders", "volcanoes")
def check_volcanoes(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a volcano touches two areas that share no border. A volcano occupies one area or straddles
    the border of two (4.41).

    Why: an eruption eliminates all units in the areas the volcano touches (30.211); two areas that
    are not neighbours cannot both be under one triangle, so one is misspelt or the border is missing.

    Fix: correct the areas, or add the border between them.

        volcanoes:
          - {id: sicily, areas: [milazzo, neapolis]}   # FAIL: milazzo and neapolis share no border
    """
    graph = map_graph(ruleset)
    for volcano in ruleset.volcanoes:
        if len(volcano.areas) != 2:
            continue
        a, b = volcano.areas
        if a not in ruleset.areas or b not in ruleset.areas or a == b or graph.has_edge(a, b):
            continue
        yield diagnostic(
            "M023",
            f"volcano `{volcano.id}` straddles `{a}` and `{b}`, which share no border (4.41)",
            volcano.origin.span("areas", 1),
            "name two neighbouring areas, or add their border",
            [Related(volcano.origin.span("areas", 0), f"`{a}`")],
            subjects=(volcano.id, a, b),
        )
