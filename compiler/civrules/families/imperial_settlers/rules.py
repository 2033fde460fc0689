"""The rules of an Imperial Settlers ruleset over its model: what the compiler answers itself (the
sheets print it; the tests hold the engine packages' helpers to it).

Goods are given one id per unit (``["wood", "wood", "gold"]``); ``location`` in a cost is a built
location (or a foundation) discarded (p8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from civrules.diagnostics.words import times
from civrules.families.imperial_settlers.model import Card, Counted, ImperialSettlersRuleset, SoloLevel
from civrules.model import Unknown


def missing_to_pay(ruleset: ImperialSettlersRuleset, card_id: str, goods: Iterable[str]) -> Counter[str]:
    """What ``goods`` lack to pay the building cost of ``card_id`` (empty: they pay it). A good
    that stands in for others (gold, p3 and p10) pays for any of them, never the reverse.

    Raises KeyError for a card the ruleset does not have, LookupError where its cost is unknown.
    """
    card = ruleset.cards.get(card_id)
    if card is None:
        raise KeyError(card_id)
    if isinstance(card.cost, Unknown):
        raise LookupError(f"the cost of {card_id} is unknown")
    have = Counter(goods)
    need = Counter(card.cost)
    missing = Counter({good: amount - have[good] for good, amount in need.items() if amount > have[good]})
    for good in ruleset.goods:
        spare = have[good.id] - need[good.id]
        for target in good.stands_for:
            used = min(max(spare, 0), missing[target])
            missing[target] -= used
            spare -= used
    return +missing


def can_pay(ruleset: ImperialSettlersRuleset, card_id: str, goods: Iterable[str]) -> bool:
    """Whether ``goods`` pay the building cost of ``card_id`` (gold standing in for resources)."""
    return not missing_to_pay(ruleset, card_id, goods)


def raze_price(ruleset: ImperialSettlersRuleset, action_id: str, defence: int = 0, samurai: int = 0) -> int:
    """The raze tokens a raze costs (p9): the action's price, one more per defence token (p7) and
    per Samurai (p11) on the location."""
    action = ruleset.actions.get(action_id)
    if action is None or "raze" not in action.price:
        raise LookupError(f"no price in raze tokens for {action_id}")
    return action.price["raze"] + defence * action.extra_per_defence + samurai * action.extra_per_samurai


def worker_exchange(ruleset: ImperialSettlersRuleset, workers: int) -> int:
    """The goods ``workers`` give spent in pairs (p10: one resource or card per payment)."""
    action = ruleset.actions.get("spend_workers")
    price = action.price.get("worker") if action is not None else None
    if not price:
        raise LookupError("the worker exchange has no price")
    return workers // price


def board_score(ruleset: ImperialSettlersRuleset, common_locations: int, faction_locations: int, vp: int = 0) -> int:
    """The final score (p7): the VP of the game plus each location's."""
    scoring = ruleset.scoring()
    if scoring is None or scoring.common_location_vp is None or scoring.faction_location_vp is None:
        raise LookupError("the end-of-game VP of locations are unknown")
    return vp + common_locations * scoring.common_location_vp + faction_locations * scoring.faction_location_vp


def solo_achievement(ruleset: ImperialSettlersRuleset, score: int) -> SoloLevel:
    """The level of the achievement table (p14) a solo score reaches."""
    table = ruleset.solo_table()
    levels = [level for level in table.levels if level is not None] if table is not None else []
    if not levels:
        raise LookupError("the solo achievement table is unknown")
    reached = levels[0]
    for level in levels:
        if level.at_least is not None and score >= level.at_least:
            reached = level
    return reached


def production(
    ruleset: ImperialSettlersRuleset,
    faction_id: str,
    deals: Iterable[str] = (),
    locations: Iterable[str] = (),
    samurai: int = 0,
) -> Counter[str]:
    """The goods of a production phase (p6): the board's, one per deal, each production location's.
    ``locations`` are the whole empire: a production per location of a colour counts every location
    of that colour in it, itself included (p11, p15); a production per Samurai counts ``samurai`` (p14)."""
    faction = ruleset.factions.get(faction_id)
    if faction is None or isinstance(faction.production, Unknown):
        raise LookupError(f"what {faction_id} produces is unknown")
    empire = []
    locations = list(locations)
    for location, listed in Counter(locations).items():
        card = ruleset.cards.get(location)
        if card is not None and listed > card.copies:
            raise ValueError(f"{location!r} is listed {times(listed)} in locations: the game has {card.copies} of it")
    for location in locations:
        card = ruleset.cards.get(location)
        if card is None:
            raise KeyError(location)
        empire.append(card)
    colours = Counter(colour for card in empire for colour in set(card.colours))
    total = Counter(faction.production) + Counter(deals)
    for card in empire:
        if card.kind != "production":
            continue
        if card.production is None or isinstance(card.production, Unknown):
            raise LookupError(f"what {card.id} produces is unknown")
        total += _given(card.production, colours, samurai)
    return +total


def _given(gives: tuple[str, ...] | Counted, colours: Counter[str], samurai: int) -> Counter[str]:
    """What a production or a build bonus gives in an empire of ``colours`` locations of each
    colour (the giving card counted) and ``samurai`` Samurai."""
    if not isinstance(gives, Counted):
        return Counter(gives)
    counted = samurai if gives.per == "samurai" else colours[gives.colour or ""]
    return Counter({gives.each: min(counted, gives.at_most)}) + Counter(gives.plus)


#: The special rule that lets a faction guard its locations with Samurai (p11).
SAMURAI = "samurai"


def _empire(
    ruleset: ImperialSettlersRuleset, faction_id: str, card_id: str, locations: Iterable[str], samurai: int
) -> tuple[Card, Counter[str], int | None]:
    """The empire ``card_id`` is built into, checked: the card, how many of the empire's locations
    (``locations`` and the card) are of each colour, and how many Samurai its faction locations
    hold (p11: 0 without the faction's `samurai` rule, None where the rule sets no bound).

    Raises KeyError for a faction or card the ruleset does not have, ValueError for more Samurai
    than the faction locations hold."""
    faction = ruleset.factions.get(faction_id)
    if faction is None:
        raise KeyError(faction_id)
    card = ruleset.cards.get(card_id)
    if card is None:
        raise KeyError(card_id)
    empire = [card]
    for location in locations:
        built = ruleset.cards.get(location)
        if built is None:
            raise KeyError(location)
        empire.append(built)
    guard = next((rule for rule in faction.special_rules if rule.id == SAMURAI), None)
    own = sum(1 for built in empire if built.deck == faction.deck)
    if guard is None:
        places: int | None = 0
    else:
        places = None if guard.at_most_per_location is None else own * guard.at_most_per_location
    if places is not None and samurai > places:
        raise ValueError(f"{samurai} Samurai on {own} faction locations: at most {places}")
    return card, Counter(colour for built in empire for colour in set(built.colours)), places


def build_gains(
    ruleset: ImperialSettlersRuleset,
    faction_id: str,
    card_id: str,
    locations: Iterable[str] = (),
    samurai: int = 0,
) -> Counter[str]:
    """What building ``card_id`` gives at once (p8, Notas 1-3): a production location's production,
    the build bonus, or both; a gain per location of a colour counts ``locations`` and the card
    itself (p11, p15), one per Samurai counts ``samurai``.

    Raises KeyError for a faction or card the ruleset does not have, ValueError for more Samurai
    than the empire's faction locations hold, LookupError where what the card gives is unknown."""
    card, colours, _ = _empire(ruleset, faction_id, card_id, locations, samurai)
    total: Counter[str] = Counter()
    if card.kind == "production":
        if card.production is None or isinstance(card.production, Unknown):
            raise LookupError(f"what {card.id} produces is unknown")
        total += _given(card.production, colours, samurai)
    if isinstance(card.build_bonus, Unknown):
        raise LookupError(f"the build bonus of {card.id} is unknown")
    if card.build_bonus is not None and card.build_bonus_placed_as is None:
        total += _given(card.build_bonus, colours, samurai)
    return +total


def build_samurai(
    ruleset: ImperialSettlersRuleset,
    faction_id: str,
    card_id: str,
    locations: Iterable[str] = (),
    samurai: int = 0,
) -> int:
    """The Samurai building ``card_id`` places at once (the Ninjas' bonus, p11): its bonus's goods,
    one on each faction location of the empire (``locations`` and the card) that can still take
    one, ``samurai`` being those already placed; what finds no place is discarded. 0 for a card
    whose bonus is not placed as Samurai, or a faction without the `samurai` rule.

    Raises KeyError for a faction or card the ruleset does not have, ValueError for more Samurai
    than the faction locations hold, LookupError where the bonus is unknown."""
    card, colours, places = _empire(ruleset, faction_id, card_id, locations, samurai)
    if isinstance(card.build_bonus, Unknown):
        raise LookupError(f"the build bonus of {card.id} is unknown")
    if card.build_bonus_placed_as != SAMURAI or card.build_bonus is None:
        return 0
    placed = sum(_given(card.build_bonus, colours, samurai).values())
    return placed if places is None else min(placed, places - samurai)
