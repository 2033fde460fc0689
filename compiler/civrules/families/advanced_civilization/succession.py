"""The Archaeological Succession Table as pure functions over the model (10.2, 33.1-33.3).

Where each epoch lies on a nation's track, how many card groups a hand covers, and whether a
player's marker may enter an epoch or a space: the checks in ``civrules/checks/ast.py`` and the
generated engine helpers ask the same questions of the same data.

Facts the sources do not give stay :class:`~civrules.model.Unknown`: a function whose answer
depends on one returns it instead of guessing.

Examples
--------
With the Advanced Civilization ruleset, Pottery (Crafts), Astronomy (Sciences) and Mysticism
(Religion and Arts) show four groups, enough for the Late Bronze Age with three cities (33.23)::

    can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=["pottery", "astronomy", "mysticism"])  # True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from civrules.diagnostics import Span
from civrules.families.advanced_civilization.model import AstTrack, Card, Epoch, Ruleset
from civrules.model import Unknown
from civrules.support.memo import by_identity
from civrules.support.values import frozen_value

#: The level of a game whose A.S.T. prints one level: a track's level where none is named.
STANDARD_LEVEL = "standard"


def ast_levels(ruleset: Ruleset) -> tuple[str, ...]:
    """The ruleset's A.S.T. levels in order (Mega Civilization's `basic` and `expert`), or the
    standard level alone for a game without levels."""
    levels = ruleset.ast.levels if ruleset.ast is not None else ()
    return tuple(level for level in levels if isinstance(level, str)) or (STANDARD_LEVEL,)


def tracks_by_level(ruleset: Ruleset) -> dict[str, dict[str, AstTrack]]:
    """Each nation's tracks by level (the standard level for a game without levels)."""
    out: dict[str, dict[str, AstTrack]] = {}
    for track in ruleset.ast_tracks:
        level = track.level
        out.setdefault(track.id, {})[level if isinstance(level, str) else STANDARD_LEVEL] = track
    return out


@frozen_value
class Layout:
    """The A.S.T.'s declared layout (``ast`` in the manifest); ``None`` where the manifest has none."""

    spaces_per_track: int | None
    start_space: int
    finish_space: int | None
    points_per_space: int | None

    def last_space(self, track: AstTrack) -> int | None:
        """The number of the track's last space (its finish box)."""
        spaces = track.spaces if track.spaces is not None else self.spaces_per_track
        return None if spaces is None else self.start_space + spaces - 1


@frozen_value
class EpochSpan:
    """The spaces of one epoch on one track, ``first`` to ``last`` inclusive."""

    epoch: str
    first: int
    last: int

    def __contains__(self, space: object) -> bool:
        return isinstance(space, int) and self.first <= space <= self.last


def ast_span(ruleset: Ruleset, *sub: str | int) -> Span:
    """The span of a value under the ruleset's `ast` (in the manifest that wrote it)."""
    found = ruleset.ast
    return found.origin.span(*sub) if found is not None else ruleset.manifest.document.span(("ast", *sub))


def layout(ruleset: Ruleset) -> Layout:
    """The declared layout of the ruleset's A.S.T."""
    ast = ruleset.ast

    def number(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    if ast is None:
        return Layout(None, 1, None, None)
    start = number(ast.start_space)
    return Layout(
        number(ast.spaces_per_track),
        1 if start is None else start,  # 0 is a start: the arrow where spaces count the steps from it
        number(ast.finish_space),
        number(ast.points_per_space),
    )


def epoch_order(ruleset: Ruleset) -> tuple[Epoch, ...]:
    """The epochs from left to right: by their `order`, then as listed (sorted once per model: it
    is asked for each A.S.T. track)."""
    return _epoch_order(ruleset.epochs)


@by_identity(64)
def _epoch_order(epochs: Any) -> tuple[Epoch, ...]:
    position = {epoch.id: i for i, epoch in enumerate(epochs)}

    def key(epoch: Epoch) -> tuple[int, int]:
        return (epoch.order if epoch.order is not None else len(position) + 1, position[epoch.id])

    return tuple(sorted(epochs.by_id.values(), key=key))


def requirement_sets(epoch: Epoch) -> list[tuple[tuple[str | int, ...], Mapping[str, Any]]]:
    """Every requirements mapping of an epoch with its path under the epoch (one per level, if any)."""
    found: list[tuple[tuple[str | int, ...], Mapping[str, Any]]] = [(("requirements",), epoch.requirements)]
    for entry in epoch.by_level:
        if entry.requirements is not None:
            found.append((("requirements_by_level", entry.index, "requirements"), entry.requirements))
    return found


def requirements_of(epoch: Epoch, level: str | None = None) -> Mapping[str, Any]:
    """The requirements of an epoch, at ``level`` when the epoch prints one set per level."""
    if level is not None:
        for entry in epoch.by_level:
            if entry.level == level:
                return entry.requirements if entry.requirements is not None else {}
    return epoch.requirements


def requirement_numbers(epoch: Epoch, level: str | None = None) -> tuple[dict[str, Any], bool]:
    """An epoch's entry requirements at ``level`` as the numbers and flags they state (a count not
    given is None), and whether they are known: False where the sources lack them, wholly or in
    part (the Expansion Project's 28.2.2). The engine package and the player helper read them so."""
    req = requirements_of(epoch, level)
    criteria = req.get("criteria")
    known = set(req) != {"unknown"} and not (isinstance(criteria, Mapping) and "unknown" in criteria)

    def whole(item: Any) -> int | None:
        return item if isinstance(item, int) and not isinstance(item, bool) else None

    return {
        "min_cities": whole(req.get("min_cities")),
        "min_card_groups": whole(req.get("min_card_groups")),
        "min_cards": whole(req.get("min_cards")),
        "all_card_groups": bool(req.get("all_card_groups", False)),
        "two_group_cards_count_twice": bool(req.get("two_group_cards_count_twice", False)),
        "card_value_per_space": bool(req.get("card_value_per_space", False)),
        "min_victory_points": whole(req.get("min_victory_points")),
        "min_cards_of_value": [
            (entry.get("count", 1), entry.get("min_value", 0), whole(entry.get("max_value_below")))
            for entry in req.get("min_cards_of_value") or ()
            if isinstance(entry, Mapping)
        ],
        "text": req.get("text") if isinstance(req.get("text"), str) else None,
    }, known


def is_value_gated(epoch: Epoch) -> bool:
    """True if each space of the epoch carries a card value to reach (33.25's Late Iron Age)."""
    return any(bool(requirements.get("card_value_per_space")) for _, requirements in requirement_sets(epoch))


def epoch_spans(ruleset: Ruleset, track: AstTrack) -> tuple[EpochSpan, ...] | Unknown | None:
    """Where each epoch lies on a track, from its `epoch_starts`.

    Unknown when the track's starts are unknown; None when they are not a usable layout (an
    epoch missing, twice, out of order, or not starting after the one before: the checks report it).
    """
    if isinstance(track.epoch_starts, Unknown):
        return track.epoch_starts
    last = layout(ruleset).last_space(track)
    order = [epoch.id for epoch in epoch_order(ruleset)]
    starts = track.epoch_starts
    if last is None or [epoch for epoch, _ in starts] != order:
        return None
    spans = []
    for i, (epoch, first) in enumerate(starts):
        end = starts[i + 1][1] - 1 if i + 1 < len(starts) else last
        if end < first:
            return None
        spans.append(EpochSpan(epoch, first, end))
    return tuple(spans)


def track_of(ruleset: Ruleset, nation: str, level: str | None = None) -> AstTrack:
    """The A.S.T. track of a nation (at ``level`` when the game prints several)."""
    for track in ruleset.ast_tracks:
        if track.id == nation and (level is None or track.level == level):
            return track
    raise ValueError(f"no A.S.T. track for nation `{nation}`" + (f" at level `{level}`" if level else ""))


def _cards(ruleset: Ruleset, held: Iterable[str]) -> list[Card]:
    cards = []
    for card_id in dict.fromkeys(held):
        card = ruleset.cards.get(card_id)
        if card is None:
            raise ValueError(f"no civilization card `{card_id}` in ruleset `{ruleset.id}`")
        cards.append(card)
    return cards


def groups_covered(cards: Sequence[Card], *, count_both: bool) -> int:
    """How many different groups the cards show.

    With ``count_both`` a card of two groups counts for both (31.55, 33.23); without it each card
    counts for one group of its choice, so the answer is a maximum matching of cards to groups.
    """
    groups = {group for card in cards for group in card.group_list()}
    if count_both:
        return len(groups)
    # No matching is larger than the groups shown or the cards: a greedy matching of that size is a
    # maximum one, found without networkx for a hand or a deck where every group has a card of its
    # own (issue 32, point 5); cards of one group first, as a card's only group is never a worse pick.
    shown: dict[str, dict[str, None]] = {}
    for card in cards:
        shown.setdefault(card.id, {}).update(dict.fromkeys(card.group_list()))
    taken: set[str] = set()
    for of_card in sorted(shown.values(), key=len):
        free = next((group for group in of_card if group not in taken), None)
        if free is not None:
            taken.add(free)
    if len(taken) == min(len(groups), len(shown)):
        return len(taken)
    import networkx as nx  # only where the greedy matching falls short

    graph = nx.Graph()
    graph.add_nodes_from((("card", card.id) for card in cards), bipartite=0)
    for card in cards:
        graph.add_edges_from((("card", card.id), ("group", group)) for group in card.group_list())
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=[("card", card.id) for card in cards])
    return len(matching) // 2


def card_value(cards: Sequence[Card]) -> int | Unknown:
    """The total face value of civilization cards (33.25, 35.1 A); unknown if a cost is."""
    total = 0
    for card in cards:
        if isinstance(card.cost, Unknown):
            return card.cost
        total += card.cost
    return total


def unmet_requirements(
    ruleset: Ruleset, requirements: Mapping[str, Any], cities: int, held: Iterable[str]
) -> tuple[str, ...] | Unknown:
    """The criteria of an epoch's requirements (33.2x) a player does not meet, by key.

    ``card_value_per_space`` is not judged here: its values are on each track's spaces.
    Raises ValueError for a card id the ruleset does not have.
    """
    cards = _cards(ruleset, held)
    count_both = bool(requirements.get("two_group_cards_count_twice"))
    unmet: list[str] = []
    min_cities = requirements.get("min_cities")
    if isinstance(min_cities, int) and cities < min_cities:
        unmet.append("min_cities")
    min_groups = requirements.get("min_card_groups")
    if isinstance(min_groups, int) and groups_covered(cards, count_both=count_both) < min_groups:
        unmet.append("min_card_groups")
    if requirements.get("all_card_groups") and groups_covered(cards, count_both=count_both) < len(ruleset.groups):
        unmet.append("all_card_groups")
    min_cards = requirements.get("min_cards")
    if isinstance(min_cards, int) and len(cards) < min_cards:
        unmet.append("min_cards")
    for entry in requirements.get("min_cards_of_value") or ():
        if not isinstance(entry, dict):
            continue
        low, below = entry.get("min_value", 0), entry.get("max_value_below")
        if any(isinstance(card.cost, Unknown) for card in cards):
            return next(card.cost for card in cards if isinstance(card.cost, Unknown))
        fitting = [c for c in cards if isinstance(c.cost, int) and c.cost >= low and (below is None or c.cost < below)]
        if len(fitting) < entry.get("count", 1):
            unmet.append("min_cards_of_value")
            break
    min_points = requirements.get("min_victory_points")
    if isinstance(min_points, int):
        points = 0
        for card in cards:
            if isinstance(card.victory_points, Unknown):
                return card.victory_points
            points += card.victory_points or 0
        if points < min_points:
            unmet.append("min_victory_points")
    return tuple(unmet)


def space_value(ruleset: Ruleset, track: AstTrack, space: int) -> int | Unknown | None:
    """The card value needed to enter a space of a value-gated epoch; None if the space has none."""
    if isinstance(track.late_iron_age, Unknown):
        return track.late_iron_age
    for listed, value in track.late_iron_age:
        if listed == space:
            return value
    last = layout(ruleset).last_space(track)
    if space == last:
        finish = ruleset.ast.finish_space_min_card_value if ruleset.ast is not None else None
        return finish if isinstance(finish, (int, Unknown)) else None
    return None


def can_enter_epoch(
    ruleset: Ruleset,
    epoch: str,
    cities: int,
    held: Iterable[str],
    *,
    nation: str | None = None,
    level: str | None = None,
) -> bool | Unknown:
    """May a marker enter ``epoch`` with ``cities`` in play and the civilization cards ``held`` (33.11, 33.2x)?

    For a value-gated epoch (the Late Iron Age, 33.25) give ``nation``: its first space's value on
    that nation's track must be reached too. Unknown when the answer depends on an unknown fact.

    ``can_enter_epoch(ruleset, "early_bronze_age", cities=2, held=[])`` is True (33.22).
    """
    found = ruleset.epochs.get(epoch)
    if found is None:
        raise ValueError(f"no epoch `{epoch}` in ruleset `{ruleset.id}`")
    hand = list(held)
    unmet = unmet_requirements(ruleset, requirements_of(found, level), cities, hand)
    if isinstance(unmet, Unknown):
        return unmet
    if unmet:
        return False
    if nation is None or not is_value_gated(found):
        return True
    track = track_of(ruleset, nation, level)
    spans = epoch_spans(ruleset, track)
    if isinstance(spans, Unknown):
        return spans
    if spans is None:
        raise ValueError(f"the A.S.T. track of `{nation}` has no usable epoch layout")
    first = next(span.first for span in spans if span.epoch == epoch)
    return _reaches(ruleset, track, first, hand)


def can_enter_space(
    ruleset: Ruleset, nation: str, space: int, cities: int, held: Iterable[str], *, level: str | None = None
) -> bool | Unknown:
    """May ``nation``'s marker move onto ``space`` of its track (33.1-33.3, 33.25)?

    The requirements of the epoch the space lies in must be met (cards are never lost, so those met
    on entering the epoch stay met; a player short of cities is frozen, 33.3), and in a value-gated
    epoch the civilization cards' face value must reach the space's value. Unknown when the track's
    layout or the space's value is unknown.
    """
    track = track_of(ruleset, nation, level)
    spans = epoch_spans(ruleset, track)
    if isinstance(spans, Unknown):
        return spans
    if spans is None:
        raise ValueError(f"the A.S.T. track of `{nation}` has no usable epoch layout")
    span = next((s for s in spans if space in s), None)
    if span is None:
        raise ValueError(f"space {space} is not on the A.S.T. track of `{nation}`")
    epoch = ruleset.epochs.by_id[span.epoch]
    hand = list(held)
    unmet = unmet_requirements(ruleset, requirements_of(epoch, level), cities, hand)
    if isinstance(unmet, Unknown):
        return unmet
    if unmet:
        return False
    if not is_value_gated(epoch):
        return True
    return _reaches(ruleset, track, space, hand)


def gate_value(ruleset: Ruleset, track: AstTrack, space: int) -> int | Unknown | None:
    """The card value a space of a value-gated epoch needs to be entered (33.25); None where it
    needs none: a track whose `late_iron_age_spaces` are [] has no space with a card value of its
    own (a fact, not a gap), and a finish carries only `ast.finish_space_min_card_value` (none where
    that is left out). Unknown where a track lists values but not this space's."""
    needed = space_value(ruleset, track, space)
    if needed is not None or isinstance(track.late_iron_age, Unknown) or not track.late_iron_age:
        return needed
    if space == layout(ruleset).last_space(track):
        return None
    return Unknown(f"no card value is given for space {space} of the A.S.T. track of `{track.id}`")


def _reaches(ruleset: Ruleset, track: AstTrack, space: int, held: Sequence[str]) -> bool | Unknown:
    needed = gate_value(ruleset, track, space)
    if needed is None:
        return True
    if isinstance(needed, Unknown):
        return needed
    value = card_value(_cards(ruleset, held))
    return value if isinstance(value, Unknown) else value >= needed
