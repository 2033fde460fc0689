"""The A.S.T. and its epochs: every track laid out as declared, every epoch enterable (10.2, 33)."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

from civrules.checks import cannot_judge, check, diagnostic, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks, words
from civrules.families.advanced_civilization.model import AstTrack, Epoch, Nation, Ruleset
from civrules.families.advanced_civilization.succession import (
    ast_span,
    epoch_order,
    epoch_spans,
    groups_covered,
    is_value_gated,
    layout,
    requirement_sets,
)
from civrules.model import Unknown


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: What a message reads to name a track by its level too (:func:`_named`), not what it judges: a
#: change of it alone moves no finding to it (:attr:`civrules.checks.Check.hint_reads`).
_NAMING_TRACKS = ("ast_tracks.level",)


#: The space an epoch of a track starts at, which only the track's source gives.
_START_BLANK = blanks.blank("the space it starts at")


@check("A001", "epoch-order", Severity.ERROR, reads=("epochs.order",))
@made_of("epochs")
def check_epoch_order(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an epoch's `order` is not its place in the list of epochs: the epochs are not numbered
    1, 2, 3 ... in the order they are listed (a number used twice, skipped, or a swapped pair).

    Why: the A.S.T. runs through the epochs from left to right (10.21); tracks, sheets and the engine
    take that order from `order`, so a wrong number moves an epoch before the one it follows.

    Fix: list the epochs from left to right and number them 1 to N in that order.

        epochs:
          - {id: stone_age, order: 1}
          - {id: early_bronze_age, order: 3}   # FAIL: listed 2nd
          - {id: late_bronze_age, order: 3}
    """
    by_order: dict[int, list[Epoch]] = {}
    for epoch in ruleset.epochs:
        if epoch.order is not None:
            by_order.setdefault(epoch.order, []).append(epoch)
    for place, epoch in enumerate(ruleset.epochs, start=1):
        order = epoch.order
        if order is None or order == place:
            continue
        same = [other for other in by_order[order] if other is not epoch]
        yield diagnostic(
            "A001",
            f"epoch `{epoch.id}` is listed {_ordinal(place)} but has order {order}",
            epoch.origin.span("order"),
            f"number the epochs 1 to {len(ruleset.epochs)} in the order they are listed (left to right on the A.S.T.)",
            [Related(other.origin.span("order"), f"`{other.id}` also has order {order}") for other in same[:1]],
            subjects=(epoch.id,),
        )


@check(
    "A002",
    "track-epoch-sequence",
    Severity.ERROR,
    reads=("ast_tracks.epoch_starts", "epochs.order"),
    hint_reads=_NAMING_TRACKS,
)
@made_of("ast_tracks", "epochs")
def check_track_epoch_sequence(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a nation's A.S.T. track does not list the ruleset's epochs each once, in epoch order: an
    epoch is missing, listed twice, or listed before an earlier one.

    Why: every track crosses all the epochs from left to right (10.21, 33.2); a track without the
    Early Iron Age lets that nation skip its entry requirements, a swapped pair makes them
    unreachable.

    Fix: list one start per epoch, in the order of `epochs`.

        epoch_starts:
          - {epoch: stone_age, space: 1}
          - {epoch: late_bronze_age, space: 5}
          - {epoch: early_bronze_age, space: 8}   # FAIL: before late_bronze_age in epoch order
    """
    ordered = [epoch.id for epoch in epoch_order(ruleset)]
    rank = {epoch: i for i, epoch in enumerate(ordered)}
    for track in ruleset.ast_tracks:
        if isinstance(track.epoch_starts, Unknown):
            continue
        seen: dict[str, int] = {}
        latest = -1
        for i, (epoch, _) in enumerate(track.epoch_starts):
            if epoch not in rank:
                continue  # X001 reports an unknown epoch
            if epoch in seen:
                yield diagnostic(
                    "A002",
                    f"the A.S.T. track of {_named(track)} lists epoch `{epoch}` twice",
                    track.origin.span("epoch_starts", i, "epoch"),
                    "keep one start per epoch",
                    [Related(track.origin.span("epoch_starts", seen[epoch], "epoch"), "first listed here")],
                    subjects=(track.id, epoch),
                )
                continue
            seen[epoch] = i
            if rank[epoch] < latest:
                later = ordered[latest]
                yield diagnostic(
                    "A002",
                    f"the A.S.T. track of {_named(track)} lists epoch `{epoch}` after `{later}`, which comes later",
                    track.origin.span("epoch_starts", i, "epoch"),
                    "list the epoch starts in the order of `epochs`",
                    subjects=(track.id, epoch, later),
                )
            latest = max(latest, rank[epoch])
        missing = [epoch for epoch in rank if epoch not in seen]
        if missing:
            names = ", ".join(f"`{e}`" for e in missing)
            yield diagnostic(
                "A002",
                f"the A.S.T. track of {_named(track)} has no start for epoch{'s' if len(missing) > 1 else ''} {names}",
                track.origin.key_span("epoch_starts"),
                "add "
                + ", ".join(f'`{{epoch: {epoch}, space: "{_START_BLANK}"}}`' for epoch in missing)
                + " to `epoch_starts`, with the space each epoch starts at",
                subjects=(track.id,),
            )


@check(
    "A003",
    "track-epoch-spaces",
    Severity.ERROR,
    reads=("ast_tracks.epoch_starts", "ast_tracks.spaces", setting("ast")),
    hint_reads=_NAMING_TRACKS,
)
@made_of("ast_tracks", "ast")
def check_track_epoch_spaces(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the epoch starts of a track do not divide it into epochs: the first epoch does not begin
    on the start space, an epoch begins on or before the space of the one before it (so it has no
    space), or an epoch begins beyond the track's last space.

    Why: markers start on the start arrow (15.4) and move one space a turn through contiguous
    epochs (33.1); a gap or an overlap makes entry requirements apply on the wrong spaces.

    Fix: start the first epoch on `ast.start_space` and every later one on a later space.

        epoch_starts:
          - {epoch: stone_age, space: 1}
          - {epoch: early_bronze_age, space: 5}
          - {epoch: late_bronze_age, space: 5}   # FAIL: the Early Bronze Age has no space
    """
    declared = layout(ruleset)
    for track in ruleset.ast_tracks:
        if isinstance(track.epoch_starts, Unknown) or not track.epoch_starts:
            continue
        last = declared.last_space(track)
        previous: tuple[str, int] | None = None
        for i, (epoch, space) in enumerate(track.epoch_starts):
            if previous is None and space != declared.start_space:
                yield diagnostic(
                    "A003",
                    f"the A.S.T. track of {_named(track)} begins epoch `{epoch}` on space {space}, "
                    f"not on the start space {declared.start_space}",
                    track.origin.span("epoch_starts", i, "space"),
                    f"markers start on space {declared.start_space} (`ast.start_space`); start the first epoch there",
                    subjects=(track.id, epoch),
                )
            elif previous is not None and space <= previous[1]:
                yield diagnostic(
                    "A003",
                    f"the A.S.T. track of {_named(track)} begins epoch `{epoch}` on space {space}, "
                    f"but `{previous[0]}` begins on space {previous[1]}",
                    track.origin.span("epoch_starts", i, "space"),
                    f"each epoch needs at least one space: start `{epoch}` after space {previous[1]}",
                    subjects=(track.id, epoch, previous[0]),
                )
            elif last is not None and space > last:
                yield diagnostic(
                    "A003",
                    f"the A.S.T. track of {_named(track)} begins epoch `{epoch}` on space {space}, "
                    f"beyond its last space {last}",
                    track.origin.span("epoch_starts", i, "space"),
                    _beyond_the_track(declared.start_space, last, epoch, space, previous, track.spaces is not None),
                    subjects=(track.id, epoch),
                )
            if previous is None or space > previous[1]:
                previous = (epoch, space)


def _named(track: AstTrack) -> str:
    """A track as messages name it: its nation, and its level where the A.S.T. has a track per
    level (Mega Civilization's Basic and Expert tracks of one nation were both "of `minoa`")."""
    return f"`{track.id}`" + (f" at level `{track.level}`" if track.level is not None else "")


def _beyond_the_track(
    start: int, last: int, epoch: str, space: int, previous: tuple[str, int] | None, own: bool
) -> str:
    """A003's fix for an epoch beginning past the track's ``last`` space: begin it within the track
    where the epoch before leaves room, or make the track long enough (its own `spaces`, else the
    A.S.T.'s `spaces_per_track`). Written as a fix, since a variant's hint says "which writes the
    fix: ..." after it."""
    longer = space - start + 1
    field = "spaces" if own else "ast.spaces_per_track"
    ways = [] if previous is not None and previous[1] >= last else [f"start `{epoch}` on space {last} or before"]
    ways.append(f"give the track {longer} spaces (`{field}: {longer}`)")
    return f"{' or '.join(ways)}: its spaces are {start} to {last}"


@check(
    "A004",
    "track-layout-mismatch",
    Severity.ERROR,
    reads=("ast_tracks.points_per_space", "ast_tracks.spaces", setting("ast")),
    hint_reads=_NAMING_TRACKS,
)
@made_of("ast_tracks", "ast")
def check_track_layout(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the A.S.T.'s declared layout disagrees with itself or with a track: a track has another
    number of spaces or points per space than `ast.spaces_per_track` / `ast.points_per_space`, or
    `finish_space` is not the last space counted from `start_space`.

    Why: every track of the A.S.T. has the same sixteen spaces (10.2) and every space scores the
    same (35.1 D); a track of another length finishes the game early or late for one nation.

    Fix: give the track the declared values, or correct the declaration.

        ast:
          spaces_per_track: 16
          tracks:
            - nation: africa
              spaces: 15        # FAIL: the A.S.T. declares 16 spaces per track
    """
    written = ruleset.ast.written if ruleset.ast is not None else frozenset()
    declared = layout(ruleset)
    if declared.spaces_per_track is not None and declared.finish_space is not None:
        last = declared.start_space + declared.spaces_per_track - 1
        if declared.finish_space != last:
            yield diagnostic(
                "A004",
                f"`ast.finish_space` is {declared.finish_space}, but {declared.spaces_per_track} spaces from "
                f"space {declared.start_space} end on space {last}",
                ast_span(ruleset, "finish_space"),
                f"set `finish_space: {last}`, or correct `spaces_per_track` or `start_space`",
                [Related(ast_span(ruleset, "spaces_per_track"), "spaces per track declared here")],
                subjects=("ast.finish_space",),
            )
    for track in ruleset.ast_tracks:
        for field, declared_value, key in (
            ("spaces", declared.spaces_per_track, "spaces_per_track"),
            ("points_per_space", declared.points_per_space, "points_per_space"),
        ):
            value = track.spaces if field == "spaces" else track.points_per_space
            if declared_value is None or not isinstance(value, int) or value == declared_value:
                continue
            yield diagnostic(
                "A004",
                f"the A.S.T. track of {_named(track)} has {value} {field.replace('_', ' ')}, "
                f"but the A.S.T. declares {declared_value}",
                track.origin.span(field),
                f"every track has `ast.{key}` = {declared_value}",
                [Related(ast_span(ruleset, key), "declared here")] if key in written else [],
                subjects=(track.id,),
            )


def _value_epochs(ruleset: Ruleset) -> set[str]:
    return {epoch.id for epoch in ruleset.epochs if is_value_gated(epoch)}


@check("A005", "value-space-misplaced", Severity.ERROR, reads=("ast_tracks", "epochs", setting("ast")))
@made_of("ast_tracks", "epochs", "ast")
def check_value_spaces(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a track's value-gated space (`late_iron_age_spaces`) is not a space of the value-gated
    epoch on that track (the Late Iron Age, 33.25), lies beyond the track, is listed twice, or is
    listed out of space order.

    Why: only the Late Iron Age's spaces carry a card value (10.21, 33.25); a value on a Bronze Age
    space would block a marker the rules let pass, and a space listed twice has two values.

    Fix: list each Late Iron Age space once, in space order, between the epoch's first space and the
    finish.

        epoch_starts: [..., {epoch: late_iron_age, space: 14}]
        late_iron_age_spaces:
          - {space: 13, min_card_value: 1300}   # FAIL: space 13 is in the Early Iron Age
    """
    gated = _value_epochs(ruleset)
    declared = layout(ruleset)
    for track in ruleset.ast_tracks:
        if isinstance(track.late_iron_age, Unknown):
            continue
        spans = epoch_spans(ruleset, track)
        last = declared.last_space(track)
        seen: dict[int, int] = {}
        previous = None
        for i, (space, _) in enumerate(track.late_iron_age):
            if space in seen:
                yield diagnostic(
                    "A005",
                    f"the A.S.T. track of {_named(track)} lists value space {space} twice",
                    track.origin.span("late_iron_age_spaces", i, "space"),
                    "keep one value per space",
                    [Related(track.origin.span("late_iron_age_spaces", seen[space], "space"), "first listed here")],
                    subjects=(track.id,),
                )
                continue
            seen[space] = i
            if previous is not None and space < previous:
                yield diagnostic(
                    "A005",
                    f"the A.S.T. track of {_named(track)} lists value space {space} after space {previous}",
                    track.origin.span("late_iron_age_spaces", i, "space"),
                    "list the value spaces in space order",
                    subjects=(track.id,),
                )
            previous = space if previous is None else max(previous, space)
            if last is not None and not declared.start_space <= space <= last:
                yield diagnostic(
                    "A005",
                    f"the A.S.T. track of {_named(track)} has no space {space} (its spaces are "
                    f"{declared.start_space} to {last})",
                    track.origin.span("late_iron_age_spaces", i, "space"),
                    "give the number of a Late Iron Age space of this track",
                    subjects=(track.id,),
                )
                continue
            if isinstance(spans, tuple):
                inside = next((s for s in spans if space in s), None)
                if inside is not None and inside.epoch not in gated:
                    gated_spans = [s for s in spans if s.epoch in gated]
                    where = (
                        ", ".join(f"`{s.epoch}` is spaces {s.first}-{s.last} on this track" for s in gated_spans)
                        if gated_spans
                        else "no epoch of this ruleset is value-gated (`card_value_per_space`)"
                    )
                    yield diagnostic(
                        "A005",
                        f"value space {space} of the A.S.T. track of {_named(track)} is in epoch `{inside.epoch}`, "
                        "which carries no card values",
                        track.origin.span("late_iron_age_spaces", i, "space"),
                        where,
                        subjects=(track.id, inside.epoch),
                    )


@check("A006", "value-threshold-decreasing", Severity.ERROR, reads=("ast_tracks",))
@made_of("ast_tracks")
def check_value_thresholds_order(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: along a track, a Late Iron Age space needs less card value than a space before it.

    Why: the printed values rise along each track (33.25): a marker must enter every space in turn,
    so a lower value further on never matters, and is almost always a transcription slip (a swapped
    pair or a dropped digit). An error, as a decreasing epoch start (A002) or city requirement
    (A010) is.

    Fix: check the values against the A.S.T.; they do not decrease from left to right.

        late_iron_age_spaces:
          - {space: 14, min_card_value: 1600}
          - {space: 15, min_card_value: 1300}   # FAIL: less than space 14 needs
    """
    for track in ruleset.ast_tracks:
        if isinstance(track.late_iron_age, Unknown):
            continue
        by_space: dict[int, tuple[int, int]] = {}
        for i, (space, value) in enumerate(track.late_iron_age):
            if isinstance(value, int):
                by_space.setdefault(space, (value, i))
        highest: tuple[int, int, int] | None = None
        for space in sorted(by_space):
            value, i = by_space[space]
            if highest is not None and value < highest[0]:
                yield diagnostic(
                    "A006",
                    f"space {space} of the A.S.T. track of {_named(track)} needs card value {value}, "
                    f"less than space {highest[1]} before it ({highest[0]})",
                    track.origin.span("late_iron_age_spaces", i, "min_card_value"),
                    "the values do not decrease along a track; check both against the A.S.T.",
                    [
                        Related(
                            track.origin.span("late_iron_age_spaces", highest[2], "min_card_value"), "the higher value"
                        )
                    ],
                    subjects=(track.id,),
                )
            elif highest is None or value > highest[0]:
                highest = (value, space, i)


@check(
    "A007",
    "value-threshold-unreachable",
    Severity.ERROR,
    reads=("ast_tracks", "civilization_cards.cost", setting("ast")),
)
@made_of("ast_tracks", "cards", "ast")
def check_value_thresholds_reachable(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a Late Iron Age space (or the finish box) needs more card value than all the ruleset's
    civilization cards together are worth.

    Why: nobody can ever enter the space (33.25 counts civilization cards at face value only), so no
    marker reaches the finish and 34.1 A can never end the game.

    Fix: correct the value (a digit too many?) or the card costs.

        late_iron_age_spaces:
          - {space: 15, min_card_value: 16000}   # FAIL: all 24 cards are worth 3190
    """
    total = 0
    for card in ruleset.cards:
        if isinstance(card.cost, Unknown):
            return  # an unknown cost could make up the difference
        total += card.cost
    hint = f"all {len(ruleset.cards)} civilization cards are worth {total} at face value"
    for track in ruleset.ast_tracks:
        if isinstance(track.late_iron_age, Unknown):
            continue
        for i, (space, value) in enumerate(track.late_iron_age):
            if isinstance(value, int) and value > total:
                yield diagnostic(
                    "A007",
                    f"space {space} of the A.S.T. track of {_named(track)} needs card value {value}, "
                    f"more than all civilization cards are worth ({total})",
                    track.origin.span("late_iron_age_spaces", i, "min_card_value"),
                    hint,
                    subjects=(track.id,),
                )
    finish = ruleset.ast.finish_space_min_card_value if ruleset.ast is not None else None
    if isinstance(finish, int) and finish > total:
        yield diagnostic(
            "A007",
            f"the finish box needs card value {finish}, more than all civilization cards are worth ({total})",
            ast_span(ruleset, "finish_space_min_card_value"),
            hint,
            subjects=("finish_space_min_card_value",),
        )


@check(
    "A008",
    "epoch-requirement-unsatisfiable",
    Severity.ERROR,
    reads=(
        "groups.id",
        "civilization_cards.cost",
        "civilization_cards.groups",
        "civilization_cards.victory_points",
        "epochs",
        setting("components"),
    ),
)
@made_of("cards", "epochs", "groups", "components")
def check_epoch_requirements(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an epoch asks for something the ruleset's cards or pieces cannot give: more card groups
    than the groups that have cards, all groups while a group has no card, more civilization cards
    than exist, more cards of a value range than there are, more victory points than all cards
    give, or more cities than a nation has pieces.

    Cards of unknown cost are counted as if each fell in a value range: too few even so is an
    error; a count only they could reach is an info, "cannot be judged", naming them (none where no
    card's cost is known: Q006 names each unknown cost already).

    Why: no marker can ever enter the epoch (33.11), so every nation stops before it.

    Fix: correct the requirement against 33.2x, or add the missing cards.

        requirements:
          min_card_groups: 6   # FAIL: only 5 groups exist
    """
    cards = list(ruleset.cards)
    with_groups = {group for card in cards for group in card.group_list() if group in ruleset.groups}
    components = ruleset.components
    cities = components.cities_per_set if components is not None else None
    coverage: dict[bool, int] = {}
    # What every epoch's requirements are held to, made once (not for each epoch): all cards'
    # victory points, and their costs sorted (a window of values counted by bisection).
    points = [card.victory_points for card in cards]
    points_known = not any(isinstance(p, Unknown) for p in points)
    total = sum(p for p in points if isinstance(p, int))
    sorted_costs = sorted(card.cost for card in cards if isinstance(card.cost, int))
    # A card of unknown cost may fall in any window: what it can add is judged, never guessed.
    unknown_costs = [card.id for card in cards if isinstance(card.cost, Unknown)]
    for epoch in ruleset.epochs:
        for path, requirements in requirement_sets(epoch):
            count_both = bool(requirements.get("two_group_cards_count_twice"))
            if count_both not in coverage:
                coverage[count_both] = groups_covered(cards, count_both=count_both)
            covered = coverage[count_both]
            wanted = requirements.get("min_card_groups")
            if isinstance(wanted, int) and wanted > covered:
                yield diagnostic(
                    "A008",
                    f"epoch `{epoch.id}` needs cards of {words.count(wanted, 'group')}, but the cards cover "
                    f"only {covered}",
                    epoch.origin.span(*path, "min_card_groups"),
                    f"groups with cards: {', '.join(sorted(with_groups)) or 'none'}",
                    subjects=(epoch.id,),
                )
            if requirements.get("all_card_groups") and covered < len(ruleset.groups):
                empty = [g for g in ruleset.groups.ids() if g not in with_groups]
                reason = f"group{'s' if len(empty) > 1 else ''} {', '.join(f'`{g}`' for g in empty)} ha"
                reason += "ve no card" if len(empty) > 1 else "s no card"
                yield diagnostic(
                    "A008",
                    f"epoch `{epoch.id}` needs cards of all {len(ruleset.groups)} groups, but "
                    + (reason if empty else f"the cards can cover only {covered} when each counts for one group"),
                    epoch.origin.span(*path, "all_card_groups"),
                    "give every group at least one card, or drop `all_card_groups`",
                    subjects=(epoch.id,),
                )
            wanted = requirements.get("min_cards")
            if isinstance(wanted, int) and wanted > len(cards):
                yield diagnostic(
                    "A008",
                    f"epoch `{epoch.id}` needs {words.count(wanted, 'civilization card')}, but the ruleset "
                    f"has {len(cards)}",
                    epoch.origin.span(*path, "min_cards"),
                    "correct the number against the rules",
                    subjects=(epoch.id,),
                )
            for i, entry in enumerate(requirements.get("min_cards_of_value") or ()):
                yield from _check_cards_of_value(
                    sorted_costs,
                    unknown_costs,
                    epoch.id,
                    entry,
                    epoch.origin.span(*path, "min_cards_of_value", i, "count"),
                )
            wanted = requirements.get("min_victory_points")
            if isinstance(wanted, int) and points_known and wanted > total:
                yield diagnostic(
                    "A008",
                    f"epoch `{epoch.id}` needs {words.count(wanted, 'victory point')}, but all cards give {total}",
                    epoch.origin.span(*path, "min_victory_points"),
                    "correct the number, or the cards' victory points",
                    subjects=(epoch.id,),
                )
            wanted = requirements.get("min_cities")
            if isinstance(wanted, int) and isinstance(cities, int) and wanted > cities:
                yield diagnostic(
                    "A008",
                    f"epoch `{epoch.id}` needs {words.count(wanted, 'city', 'cities')} in play, but a nation "
                    f"has {words.count(cities, 'city piece')}",
                    epoch.origin.span(*path, "min_cities"),
                    "correct the number, or `components.cities_per_set`",
                    [Related(components.origin.span("cities_per_set"), "city pieces declared here")]
                    if components is not None
                    else [],
                    subjects=(epoch.id,),
                )


def _check_cards_of_value(
    sorted_costs: list[int], unknown_costs: list[str], epoch: str, entry: Any, span: Span
) -> Iterator[Diagnostic]:
    """``sorted_costs``: the cards' known costs in order; ``unknown_costs``: the cards of no known cost.

    Too few cards even if every card of unknown cost fell in the window is an error; enough known
    ones is no finding; between the two only the unknown costs can tell, and the info says so,
    unless no card's cost is known: then the info would only repeat what Q006 says of each cost
    (the Expansion Project's 53), and the designer read the same gap twice.
    """
    if not isinstance(entry, dict):
        return
    low, below, count = entry.get("min_value", 0), entry.get("max_value_below"), entry.get("count", 1)
    start = bisect.bisect_left(sorted_costs, low)
    fitting = (len(sorted_costs) if below is None else bisect.bisect_left(sorted_costs, below)) - start
    fitting = max(fitting, 0)
    if fitting >= count:
        return
    window = f"from {low}" + (f" below {below}" if below is not None else " up")
    unknown = len(unknown_costs)
    if fitting + unknown < count:
        yield diagnostic(
            "A008",
            f"epoch `{epoch}` needs {words.count(count, 'card')} of face value {window}, but the ruleset has {fitting}"
            + (f", and {words.count(unknown, 'card')} of unknown cost cannot make up the rest" if unknown else ""),
            span,
            "correct the count or the value range",
            subjects=(epoch,),
        )
        return
    if not sorted_costs:
        return
    yield cannot_judge(
        "A008",
        f"epoch `{epoch}`'s {words.count(count, 'card')} of face value {window} cannot be judged: "
        f"{fitting} known cost{' falls' if fitting == 1 else 's fall'} in the range, and "
        f"{words.count(unknown, 'card')} {'has' if unknown == 1 else 'have'} no known cost",
        span,
        "the costs of "
        + ", ".join(f"`{card}`" for card in unknown_costs[:5])
        + (f" and {unknown - 5} more" if unknown > 5 else "")
        + " would settle it",
        subjects=unknown_costs,
    )


@check("A010", "epoch-cities-decreasing", Severity.ERROR, reads=("epochs",))
@made_of("epochs")
def check_epoch_cities_order(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an epoch asks for fewer cities in play (`min_cities`) than an epoch before it (at the
    same level, where the rules print one set of requirements per level).

    Why: a marker enters the epochs in turn and is frozen when it has fewer cities than its epoch
    requires (28.3.1, 33.3); the rulebooks' requirements never decrease from left to right, so a
    lower number further on is a transcription slip, or a variant's change that makes the earlier
    epoch the harder one.

    Fix: check both numbers against the rules; they do not decrease from epoch to epoch.

        - id: early_iron_age
          requirements: {min_cities: 4, ...}
        - id: late_iron_age
          requirements: {min_cities: 3, ...}   # FAIL: fewer than the Early Iron Age's 4
    """
    highest: dict[str | None, tuple[int, Epoch, tuple[str | int, ...]]] = {}
    # The epochs below one higher requirement, by that requirement: one epoch raised above all the
    # later ones (a variant's house rule, or a slip) is one mistake, reported once, at it.
    lower: dict[tuple[str | None, str, tuple[str | int, ...]], tuple[_Requirement, list[_Requirement]]] = {}
    for epoch in ruleset.epochs:
        for path, requirements in requirement_sets(epoch):
            level = None if len(path) == 1 else _level(epoch, path)
            wanted = requirements.get("min_cities")
            if not isinstance(wanted, int) or isinstance(wanted, bool):
                continue
            before = highest.get(level)
            if before is not None and wanted < before[0]:
                lower.setdefault((level, before[1].id, before[2]), (before, []))[1].append((wanted, epoch, path))
            elif before is None or wanted > before[0]:
                highest[level] = (wanted, epoch, path)
    for (most, higher, at), found in lower.values():
        if len(found) == 1:
            ((wanted, epoch, path),) = found
            yield diagnostic(
                "A010",
                f"epoch `{epoch.id}` needs {words.count(wanted, 'city', 'cities')} in play, fewer than "
                f"`{higher.id}` before it ({most})",
                epoch.origin.span(*path, "min_cities"),
                "city requirements do not decrease from epoch to epoch; check both against the rules",
                [Related(higher.origin.span(*at, "min_cities"), "the higher requirement")],
                subjects=(epoch.id, higher.id),
            )
            continue
        yield diagnostic(
            "A010",
            f"epoch `{higher.id}` needs {most} cities in play, more than the "
            f"{words.count(len(found), 'epoch')} after it: "
            + ", ".join(f"`{epoch.id}` ({wanted})" for wanted, epoch, _ in found),
            higher.origin.span(*at, "min_cities"),
            "city requirements do not decrease from epoch to epoch: lower this one, or raise the later ones "
            "(check them against the rules)",
            [Related(epoch.origin.span(*path, "min_cities"), f"needs {wanted}") for wanted, epoch, path in found],
            subjects=(higher.id,),
        )


#: An epoch's city requirement: the number, the epoch, and the path of its requirements.
_Requirement = tuple[int, Epoch, tuple[str | int, ...]]


def _level(epoch: Epoch, path: tuple[str | int, ...]) -> str | None:
    index = path[1]
    return next((entry.level for entry in epoch.by_level if entry.index == index), None)


@check("A009", "nation-without-track", Severity.ERROR, reads=("nations.id", "ast_tracks.level", setting("ast")))
def check_nation_tracks(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a nation has no track on the A.S.T. (at every level, when the A.S.T. has levels).

    Why: the A.S.T. has one track per nation (10.2); a nation without one cannot advance, score
    A.S.T. points or take its place in A.S.T. order. (A track naming no existing nation is X001.)

    Fix: add `{nation: <id>, ...}` under `ast.tracks`; if the track is not in the sources, write its
    epoch starts and values as `{unknown: why}`. Where no nation (of two or more) has a track at a
    level, the level in `ast.levels` is what to change: one finding there, naming it, with a note
    at the first nations; in a variant the hint writes the `overlay.ast_tracks` entry to add.

        nations: [{id: italy, ...}]
        ast:
          tracks: []        # FAIL: no track for italy
    """
    ast = ruleset.ast
    if ast is None or not ast.written:
        return  # inherited from the base ruleset
    levels: list[str | None] = list(ast.levels)
    have = {(track.id, track.level) for track in ruleset.ast_tracks}
    nations = list(ruleset.nations)
    for at, level in enumerate(levels or [None]):
        missing = [nation for nation in nations if (nation.id, level) not in have]
        if not missing:
            continue
        suffix = f" at level `{level}`" if level is not None else ""
        added = _tracks_added(missing, level) if len(ruleset.chain) > 1 else None
        # A level no nation has a track at (two or more nations): `ast.levels` is the one line to
        # change, where 18 nations were 18 errors at the nations, none naming the level.
        everyone = level is not None and len(missing) == len(nations) >= 2
        for nation in missing:
            if everyone:
                yield diagnostic(
                    "A009",
                    f"`ast.levels` names `{level}`, but nation `{nation.id}` has no A.S.T. track at it",
                    ast_span(ruleset, "levels", at),
                    f"drop `{level}` from `ast.levels`: no nation has a track at it; or "
                    + (
                        added
                        or "add one for each nation under `ast.tracks` (unknown starts and values as `{unknown: why}`)"
                    ),
                    [Related(nation.origin.head(), f"nation `{nation.id}`")],
                    subjects=(nation.id, level),
                    from_variant=added,
                )
                continue
            yield diagnostic(
                "A009",
                f"nation `{nation.id}` has no A.S.T. track{suffix}",
                nation.origin.head(),
                "add a track for it under `ast.tracks` (unknown starts and values as `{unknown: why}`)",
                [Related(ast_span(ruleset, "tracks"), "the tracks")],
                subjects=(nation.id,),
                from_variant=added,
            )


def _tracks_added(missing: list[Nation], level: str | None) -> str:
    """A009's fix as a variant makes it: the tracks its `overlay.ast_tracks` adds, the first written
    out whole (its facts unknown until the designer writes them), the same words for every nation
    of the level, so that what one change makes is told once."""
    each = "its track" if len(missing) == 1 else f"a track for each of the {len(missing)} nations"
    at = f", level: {level}" if level is not None else ""
    return (
        f"add {each} in `overlay.ast_tracks`, `add: [{{nation: {missing[0].id}{at}, "
        'epoch_starts: {unknown: "write why no source gives it here"}, '
        'late_iron_age_spaces: {unknown: "write why no source gives it here"}, '
        'source: "house rule: write why here"}]`'
    )
