"""Start areas: where each nation may place its first token, and whether that is on the map in play
(4.6, 15.3, 16.12).

Nations list their start areas in the ruleset (`nations[].start_areas.areas`); map areas may say
whose start area they are (`start_nation`). A nation whose start areas are unknown is skipped (the
Q checks report the unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks
from civrules.families.advanced_civilization.model import Configuration, Nation, PlayerCount, Ruleset
from civrules.model import Unknown
from civrules.support.memo import by_identity


def _listings(ruleset: Ruleset) -> Iterator[tuple[Nation, str, Callable[[], Span]]]:
    """Every start area a nation lists, with what locates where it is listed (nations with known
    lists only): located only where a check reports it (every listing located was most of the work
    of a check that reports nothing)."""
    for nation in ruleset.nations.by_id.values():
        if isinstance(nation.start_areas, tuple):
            for i, area_id in enumerate(nation.start_areas):
                yield nation, area_id, partial(nation.origin.span, "start_areas", "areas", i)


@check("M030", "start-area-not-land", Severity.ERROR, reads=("nations.name", "nations.start_areas", "areas.land"))
@made_of("areas", "nations")
def check_start_areas_are_land(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a nation's start area is a water-only area.

    Why: a nation places its first token in a start area (4.6, 15.3); tokens stand on land, so a
    water-only start area cannot be used, and the nation may have no start at all.

    Fix: correct the area id (usually the land area next to the sea of the same name).

        start_areas:
          areas: [black_sea, kuban]   # FAIL: black_sea holds no land
    """
    for nation, area_id, span in _listings(ruleset):
        area = ruleset.areas.get(area_id)
        if area is not None and not area.land:
            yield diagnostic(
                "M030",
                f"start area `{area_id}` of {nation.display_name} is not a land area (4.6)",
                span(),
                "name a land area",
                [Related(area.origin.span("land"), f"`{area_id}` has land: false")],
                subjects=(area_id,),
            )


@check(
    "M031", "start-area-mismatch", Severity.ERROR, reads=("nations.name", "nations.start_areas", "areas.start_nation")
)
@made_of("areas", "nations")
def check_start_nations(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a map area's `start_nation` and the nations' start area lists disagree: the area names a
    nation whose list lacks it, or a nation lists an area that names another nation. Areas without
    `start_nation` and nations whose start areas are unknown are not compared.

    Why: the map sheet draws start-area borders from the areas, set-up reads the nations' lists
    (4.6, 15.3); if they differ, players are shown one start and allowed another.

    Fix: make both say the same: add the area to the nation's `start_areas`, or correct the area's
    `start_nation`.

        - {id: sudeten, start_nation: illyria, ...}   # FAIL: illyria's start areas lack sudeten
        - id: illyria
          start_areas: {areas: [germania_2]}
    """
    listed_by: dict[str, list[tuple[Nation, Callable[[], Span]]]] = {}
    for nation, area_id, span in _listings(ruleset):
        listed_by.setdefault(area_id, []).append((nation, span))
    listed_of: dict[str, frozenset[str]] = {}  # each nation's start areas as a set, made once
    for area in ruleset.areas.by_id.values():
        owner = ruleset.nations.get(area.start_nation or "")
        if owner is None or not isinstance(owner.start_areas, tuple):
            continue
        if owner.id not in listed_of:
            listed_of[owner.id] = frozenset(owner.start_areas)
        if area.id in listed_of[owner.id]:
            continue
        others = [(n, span) for n, span in listed_by.get(area.id, ()) if n.id != owner.id]
        also = f"; {others[0][0].display_name} lists it" if others else ""
        yield diagnostic(
            "M031",
            f"`{area.id}` is a start area of {owner.display_name} by its `start_nation`, but "
            f"{owner.display_name}'s start areas do not include it{also}",
            area.origin.span("start_nation"),
            f"add `{area.id}` to {owner.display_name}'s start areas, or correct `start_nation`",
            [Related(owner.origin.span("start_areas", "areas"), f"{owner.display_name}'s start areas")]
            + [Related(span(), f"listed by {n.display_name}") for n, span in others],
            subjects=(area.id, "start_nation"),
            # read only where the finding is moved to a variant's line: written always, as the
            # findings of a check made of its collections are shared by the rulesets holding them
            from_variant=f"in `overlay.areas`, `patch: [{{id: {area.id}, start_nation: null, "
            f'source: "{blanks.HOUSE_RULE}"}}]` (or the nation that starts there), or keep `{area.id}` in '
            f"{owner.display_name}'s start areas",
        )
    for nation, area_id, span in _listings(ruleset):
        listed = ruleset.areas.get(area_id)
        if listed is None or listed.start_nation is None or listed.start_nation == nation.id:
            continue
        owner = ruleset.nations.get(listed.start_nation)
        if owner is not None and isinstance(owner.start_areas, tuple) and owner.id not in listed_of:
            listed_of[owner.id] = frozenset(owner.start_areas)
        if owner is None or (isinstance(owner.start_areas, tuple) and area_id not in listed_of[owner.id]):
            continue  # X001, or reported at the area above
        yield diagnostic(
            "M031",
            f"{nation.display_name} lists start area `{area_id}`, but `{area_id}` is a start area of "
            f"{owner.display_name} (its `start_nation`)",
            span(),
            f"take `{area_id}` off {nation.display_name}'s start areas, or correct the area's `start_nation`",
            [Related(listed.origin.span("start_nation"), "start_nation")],
            subjects=(area_id, "start_nation"),
            from_variant=f"take `{area_id}` off {nation.display_name}'s start areas, or in `overlay.areas`, "
            f'`patch: [{{id: {area_id}, start_nation: {nation.id}, source: "{blanks.HOUSE_RULE}"}}]`',
        )


def areas_in_play(ruleset: Ruleset, configuration: Configuration) -> frozenset[str] | None:
    """The areas a player-count configuration plays on, or None where the data does not say.

    A configuration's `map.areas_in_play` lists them; a map with no boundary (`boundary: none`) is
    the whole map of the ruleset. Anything else (a part of the map whose areas are not listed, or
    listed as unknown) is unknown.
    """
    if not configuration.has_map:
        return None
    listed = configuration.areas_in_play
    if isinstance(listed, tuple):
        return frozenset(listed)
    if isinstance(listed, Unknown) or configuration.boundary != "none":
        return None
    return _every_area(ruleset.areas)


@by_identity(64)
def _every_area(areas: Any) -> frozenset[str]:
    """Every area of the map, made once per model (asked for each configuration of the whole map)."""
    return frozenset(areas.by_id)


#: Where a nation is offered, and the places that explain it: located only where a check reports it.
_Offered = Callable[[], tuple[Span, list[Related]]]


def _availability(ruleset: Ruleset) -> Iterator[tuple[Nation, list[str], list[str], _Offered]]:
    """For each nation a configuration makes available on a known map: its start areas that exist,
    those of them out of play, and what locates where the nation is named and the places that
    explain it."""
    for count in ruleset.player_counts:
        for configuration in count.configurations:
            nations = configuration.nations
            if nations is None:
                continue
            in_play = areas_in_play(ruleset, configuration)
            if in_play is None:
                continue
            for i, nation_id in enumerate(nations):
                nation = ruleset.nations.get(nation_id)
                if nation is None or not isinstance(nation.start_areas, tuple):
                    continue
                existing = [a for a in nation.start_areas if a in ruleset.areas]
                if nation.start_areas and not existing:
                    continue  # X001
                outside = [a for a in existing if a not in in_play]
                yield nation, existing, outside, partial(_offered, count, configuration, nation, i)


def _offered(count: PlayerCount, configuration: Configuration, nation: Nation, i: int) -> tuple[Span, list[Related]]:
    """Where ``configuration`` (of the player count ``count``) names ``nation`` (its ``i``-th), and
    the places that explain what it offers."""
    c = configuration.index
    related = [Related(nation.origin.span("start_areas", "areas"), f"{nation.display_name}'s start areas")]
    if isinstance(configuration.areas_in_play, tuple):
        related.append(Related(count.origin.span("configurations", c, "map", "areas_in_play"), "in play"))
    return count.origin.span("configurations", c, "nations", i), related


@check(
    "M032",
    "nation-cannot-start",
    Severity.ERROR,
    reads=("nations.name", "nations.start_areas", "player_counts.configurations", "areas.id"),
)
@made_of("areas", "nations", "player_counts")
def check_nations_can_start(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a player-count configuration offers a nation none of whose start areas is on the part of
    the map in play. Only configurations whose areas are known are checked: those that list
    `map.areas_in_play`, and those with `boundary: none` (the whole map).

    Why: 16.12: nations whose start areas are on a panel not in play may not be chosen; a player
    choosing it could not place a first token (4.6, 15.3).

    Fix: take the nation off the configuration's `nations`, or correct the areas in play.

        - players: 4
          configurations:
            - map: {areas_in_play: [thebes, susa, ...]}
              nations: [egypt, babylon, assyria, asia]   # FAIL: mikop, kuban not in play
    """
    for nation, existing, outside, offered in _availability(ruleset):
        if len(outside) < len(existing):
            continue
        span, related = offered()
        why = f"none of its start areas ({', '.join(f'`{a}`' for a in outside)})" if outside else "no start area"
        yield diagnostic(
            "M032",
            f"{nation.display_name} is offered, but {why} is in play (16.12)",
            span,
            "take the nation off this configuration, or correct the areas in play",
            related,
            subjects=(nation.id, *outside),
        )


@check(
    "M033",
    "start-area-out-of-play",
    Severity.WARNING,
    reads=("nations.name", "nations.start_areas", "player_counts.configurations", "areas.id"),
)
@made_of("areas", "nations", "player_counts")
def check_start_areas_in_play(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a player-count configuration offers a nation some of whose start areas (not all) are off
    the part of the map in play.

    Why: the nation can still start in the others, but 16.12 alters start areas when panels are left
    out; usually the areas in play or the nation's start areas for that map are incomplete.

    Fix: correct the areas in play, or give the nation the start areas of this map.

        - map: {areas_in_play: [mikop, susa, ...]}
          nations: [egypt, babylon, assyria, asia]   # FAIL: asia's kuban not in play
    """
    for nation, existing, outside, offered in _availability(ruleset):
        if not outside or len(outside) == len(existing):
            continue
        span, related = offered()
        yield diagnostic(
            "M033",
            f"{nation.display_name} is offered, but its start area{'s' if len(outside) > 1 else ''} "
            f"{', '.join(f'`{a}`' for a in outside)} {'are' if len(outside) > 1 else 'is'} not in play",
            span,
            "check the areas in play, and the nation's start areas on this part of the map (16.12)",
            related,
            subjects=(nation.id, *outside),
        )
