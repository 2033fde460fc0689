"""The rule logic of the Imperial Settlers family's helpers, over a package's tables.

Each package's ``helpers`` module binds these functions to its own data; an engine calls the
package's helpers, not these. Goods are counted as a mapping (good id → how many) or given as an
iterable of good ids, one per unit.

Every helper checks its arguments before it looks up a fact: an id that is none of the ruleset's
(or not of the kind the parameter takes: ``build`` is an action but no raze) is UnknownIdError
whatever facts the other arguments lack, and UnknownFactError is kept for a fact the sources do
not give about an id that is right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from civrules_runtime.errors import (
    OutOfDomainError,
    UnknownFactError,
    UnknownIdError,
    at_most,
    closest_id,
    collection,
    copies,
    give_its_id,
    not_given,
    shown,
    some_ids,
    within,
)
from civrules_runtime.mappings import FrozenMap

from .records import Action, Card, CountedGoods, Faction, FactionRule, Good, Scoring, SoloLevel, UnknownFact
from .vocab import RazeTarget


def known(table: Mapping[str, object], key: str, what: str) -> str:
    """``key`` itself when ``table`` has it; else UnknownIdError proposing the closest id (or, with
    none close, naming the first ids)."""
    try:
        if key in table:
            return key
    except Exception:  # noqa: BLE001 - an unhashable key (a list), or one whose own hash or == fails: no id
        pass
    if not isinstance(key, str):
        given = give_its_id(key)  # a table's row given for its id: its id
        if given and getattr(key, "id", None) not in table:  # its id is no key either: a card for its printed id?
            printed = [one for one in getattr(key, "printed_ids", None) or () if one in table]
            shown_ids = ", ".join(repr(str(one)) for one in printed[:4]) + (", ..." if len(printed) > 4 else "")
            given = f"give one of its printed ids, {shown_ids} (record.printed_ids), not the record" if printed else ""
        hint = f"; {given}" if given else f", {some_ids(table)}"
        raise UnknownIdError(f"no {what} {shown(key)} in this ruleset: an id is a str{hint}")
    close = closest_id(key, table)
    hint = f"did you mean {close!r}?" if close is not None else some_ids(table)
    raise UnknownIdError(f"no {what} {shown(key)} in this ruleset; {hint}")


def counted(
    goods: Mapping[str, int] | Iterable[str], table: Mapping[str, object] | None = None, location: bool = False
) -> dict[str, int]:
    """Goods as counts: a mapping as it is (negative counts refused), an iterable one unit per id.
    With ``table``, each good is one of its ids (or, with ``location``, a location: a cost may take
    one, p3); an id that is no str (None, 5) is never one, nor counted as its text."""
    collection(goods, "goods")
    by_count = isinstance(goods, Mapping)
    units = goods.items() if isinstance(goods, Mapping) else ((good, 1) for good in goods)
    found: dict[str, int] = {}
    for good, amount in units:
        if not isinstance(good, str) or (table is not None and not (location and good == "location")):
            known({} if table is None else table, good, "good")
        if by_count:
            within(amount, good, 0, None, "an amount of goods")
        found[str(good)] = found.get(str(good), 0) + amount
    return found


def shortfall(
    cost: Iterable[str], held: Mapping[str, int] | Iterable[str], goods: Mapping[str, Good]
) -> Mapping[str, int]:
    """What ``held`` lacks to pay ``cost``, good by good, after what it holds of each good that
    stands in for others (gold for any resource, p3) covers what it can; empty: it pays. A
    read-only FrozenMap by good id, hashable like every other answer."""
    collection(cost, "cost")
    collection(held, "goods")
    have = counted(held, goods, location=True)
    need = counted(cost, goods, location=True)  # a cost may take a location (p3): no good
    return _lacking(need, have, goods)


def missing_to_pay(
    cards: Mapping[str, Card], goods: Mapping[str, Good], card: str, held: Mapping[str, int] | Iterable[str]
) -> Mapping[str, int]:
    """What ``held`` lacks to pay the building cost of ``card`` (:func:`shortfall`). The card and
    the goods held are checked before the cost is looked up: a misspelt good is UnknownIdError
    even where the ruleset does not give the card's cost."""
    known(cards, card, "card")
    collection(held, "goods")
    have = counted(held, goods, location=True)
    return _lacking(counted(card_cost(cards, card), goods, location=True), have, goods)


def _lacking(need: dict[str, int], have: dict[str, int], goods: Mapping[str, Good]) -> Mapping[str, int]:
    missing = {good: max(0, amount - have.get(good, 0)) for good, amount in need.items()}
    for record in goods.values():
        if not record.stands_for:
            continue
        spare = have.get(record.id, 0) - need.get(record.id, 0)
        for target in record.stands_for:
            if spare <= 0:
                break
            used = min(spare, missing.get(target, 0))
            if used:
                missing[target] -= used
                spare -= used
    return FrozenMap({good: amount for good, amount in sorted(missing.items()) if amount > 0})


def card_cost(cards: Mapping[str, Card], card: str) -> tuple[str, ...]:
    """The goods ``card`` costs to build (its id checked first); UnknownFactError where the sources do
    not give its cost."""
    record = cards[known(cards, card, "card")]
    if record.cost is None:
        raise not_given(f"the building cost of {shown(card)}", f"cards[{card}].cost")
    return record.cost


#: The actions a raze may be (RazeTarget, what ``raze_price`` takes): the ruleset's other actions
#: (build, deal ...) are no raze, whatever their price.
RAZES: Mapping[str, RazeTarget] = FrozenMap({target.value: target for target in RazeTarget})


#: The id of the special rule that lets a faction guard its locations with Samurai (p11).
SAMURAI = "samurai"


def samurai_rule(faction: Faction) -> FactionRule | None:
    """The faction's special rule of Samurai (:data:`SAMURAI`, the Japanese', p11), None where it
    has none: its Samurai are none."""
    return next((rule for rule in faction.special_rules if rule.id == SAMURAI), None)


def _guard_bound(rules: Iterable[FactionRule]) -> tuple[int | None, str]:
    """The most Samurai one location may hold under ``rules`` (the `samurai` rules of the factions
    a location may be of: 0 where there are none, None where one writes no bound), and which rule
    says so, with its citations."""
    found = list(rules)
    if not found:
        return 0, f"no faction has a `{SAMURAI}` special rule"
    cited = ", ".join(dict.fromkeys(section for rule in found for section in rule.rules))
    said = f"the `{SAMURAI}` special rule{f', {cited}' if cited else ''}"
    if any(rule.at_most_per_location is None for rule in found):
        return None, said
    return max(rule.at_most_per_location or 0 for rule in found), said


def raze_price(
    actions: Mapping[str, Action],
    target: str,
    defence: int = 0,
    samurai: int = 0,
    factions: Mapping[str, Faction] | None = None,
) -> int:
    """The raze tokens a raze of ``target`` costs: the action's price, plus its extra for each
    defence token and each Samurai on the razed location (p9, p7, p11). ``target`` is a raze action
    (:data:`RAZES`): another action of the ruleset is UnknownIdError naming the raze actions, not a
    price the sources leave out. With ``factions``, the Samurai on one location are no more than
    the factions' `samurai` rule lets one hold (``FactionRule.at_most_per_location``, p11), and
    none where no faction has the rule."""
    known(RAZES, target, "raze action")
    within(defence, "defence", 0, None, "defence tokens on the location")
    if factions is None:
        within(samurai, "samurai", 0, None, "Samurai on the location")
    else:
        guards = (rule for faction in factions.values() if (rule := samurai_rule(faction)) is not None)
        most, why = _guard_bound(guards)
        within(samurai, "samurai", 0, most, f"Samurai on the location: at most {most} on each; {why}")
    action = actions.get(target)
    if action is None:
        raise not_given(
            f"the price of the raze action {shown(target)}", f"actions[{target}]",
            hint="it is not among the ruleset's actions",
        )  # fmt: skip
    if "raze" not in action.price:
        raise not_given(f"the price of {shown(target)} in raze tokens", f"actions[{target}].price.raze")
    return action.price["raze"] + defence * action.extra_per_defence + samurai * action.extra_per_samurai


def worker_exchange(actions: Mapping[str, Action], workers: int) -> int:
    """How many goods (resources or cards, one per payment) ``workers`` give when spent (p10)."""
    action = actions.get("spend_workers")
    price = action.price.get("worker") if action is not None else None
    if price is None or price <= 0:
        raise not_given("the price of the worker exchange", "actions[spend_workers].price.worker")
    within(workers, "workers", 0, None, "workers spent")
    return workers // price


def board_score(
    scoring: Scoring | None,
    common_locations: int,
    faction_locations: int,
    vp: int = 0,
    cards: Mapping[str, Card] | None = None,
) -> int:
    """A player's final score: the VP scored during the game plus the VP of each location in the
    empire (p7). With ``cards``, an empire holds no more common locations than the common deck has
    cards, nor more faction locations than the largest faction deck."""
    if scoring is None:
        raise not_given("the end-of-game VP of locations", "scoring")
    if scoring.common_location_vp is None:
        raise not_given("the end-of-game VP of a common location", "scoring.common_location_vp")
    if scoring.faction_location_vp is None:
        raise not_given("the end-of-game VP of a faction location", "scoring.faction_location_vp")
    in_decks: dict[str, int] = {}
    for card in (cards or {}).values():
        if card.deck is not None:
            in_decks[str(card.deck)] = in_decks.get(str(card.deck), 0) + card.copies
    common = in_decks.pop("common", None)
    own = max(in_decks.values(), default=None)
    within(common_locations, "common_locations", 0, common, "locations in the empire")
    within(faction_locations, "faction_locations", 0, own, "locations in the empire")
    within(vp, "vp", 0, None, "the VP scored during the game")
    return vp + common_locations * scoring.common_location_vp + faction_locations * scoring.faction_location_vp


def solo_achievement(levels: tuple[SoloLevel, ...] | None, score: int) -> SoloLevel:
    """The level of the solo achievement table (p14) a score reaches: the highest whose threshold
    it meets, else the lowest level (``below`` the next one's threshold)."""
    if not levels:
        raise not_given("the solo achievement table", "solo.achievements")
    within(score, "score", 0, None, "a final score")
    reached = levels[0]
    for level in levels:
        if level.at_least is not None and score >= level.at_least:
            reached = level
    if reached is levels[0] and reached.below is not None and score >= reached.below:
        raise UnknownFactError(f"no level of the achievement table covers a score of {score}")
    return reached


def _empire(
    factions: Mapping[str, Faction],
    cards: Mapping[str, Card],
    goods: Mapping[str, Good],
    faction: str,
    locations: Iterable[str],
    samurai: int,
    deals: Iterable[str] = (),
    listed: str = "locations",
) -> tuple[Faction, dict[str, int], list[tuple[str, Card]], dict[str, int]]:
    """A player's empire, checked: the faction's record, the goods of its ``deals``, its
    ``locations`` with their cards, and how many of them are of each colour (a card of several
    colours counts once for each, p11). ``locations`` are common cards and the faction's own deck's,
    each listed no more times than it has copies (``listed`` names them in the error); ``samurai``
    none for a faction without the `samurai` special rule, else no more than its faction locations
    hold (the rule's ``at_most_per_location`` on each, p11). Every id is checked before the
    Samurai, and all of it before a caller looks up what anything gives."""
    record = factions[known(factions, faction, "faction")]
    dealt = counted(deals, goods)
    built = [(location, cards[known(cards, location, "card")]) for location in locations]
    at_most(
        [location for location, _ in built],
        listed,
        lambda location: cards[location].copies,
        lambda most: f"the game has {copies(most)} of it (Card.copies)",
    )
    for location, card in built:
        if card.deck is not None and record.deck is not None and str(card.deck) not in ("common", str(record.deck)):
            raise OutOfDomainError(
                f"{shown(location)} is a card of the {card.deck} deck: the {shown(faction)} empire builds only common "
                f"cards and its own deck's ({record.deck})"
            )
    guard = samurai_rule(record)
    if guard is None:
        # Samurai are a faction's special rule (the Japanese, p11): no other empire has any.
        within(samurai, "samurai", 0, 0, f"Samurai: the {shown(faction)} faction has no `{SAMURAI}` special rule (p11)")
    else:
        most, why = _guard_bound((guard,))
        own = sum(1 for _, card in built if card.deck is not None and str(card.deck) == str(record.deck))
        rule = f"Samurai: at most {most} on each of the empire's {own} faction locations; {why}"
        within(samurai, "samurai", 0, None if most is None else own * most, rule)
    of_colour: dict[str, int] = {}
    for _, card in built:
        for colour in set(card.colours):
            of_colour[colour] = of_colour.get(colour, 0) + 1
    return record, dealt, built, of_colour


def _given(gives: tuple[str, ...] | CountedGoods, samurai: int, of_colour: Mapping[str, int]) -> tuple[str, ...]:
    """The goods a production or a build bonus gives in an empire of ``of_colour`` locations of each
    colour (the giving card among them) and ``samurai`` Samurai (p11, p14, p15)."""
    if isinstance(gives, tuple):
        return gives
    return gives.given(samurai if gives.per == "samurai" else of_colour.get(str(gives.colour), 0))


def _add(total: dict[str, int], goods: Iterable[str]) -> None:
    for good in goods:
        total[good] = total.get(good, 0) + 1


def production(
    factions: Mapping[str, Faction],
    cards: Mapping[str, Card],
    goods: Mapping[str, Good],
    faction: str,
    deals: Iterable[str] = (),
    locations: Iterable[str] = (),
    samurai: int = 0,
) -> Mapping[str, int]:
    """The goods a player collects in a production phase (p6): the faction board's, one good per
    deal, and what each production location of the empire gives; a read-only FrozenMap by good id.

    ``locations`` are the locations of the player's empire, of every kind: the production
    locations among them produce, and every one counts for a production that gives goods per
    location of a colour (the producing card itself included, p11 and p15). ``samurai`` are the
    player's Samurai, for a production per Samurai (p14); a Samurai guards a faction location, as
    many on each as the faction's `samurai` rule lets one hold (``at_most_per_location``, p11), so
    the empire's faction locations bound them. The faction, the deals, the locations and the
    Samurai are checked (:func:`_empire`) before what any of them produces is looked up."""
    collection(deals, "deals")
    collection(locations, "locations")
    record, dealt, built, of_colour = _empire(factions, cards, goods, faction, locations, samurai, deals)
    if record.production is None:
        raise not_given(f"what the {shown(faction)} board produces", f"factions[{faction}].production")
    total = counted(record.production)
    for good, amount in dealt.items():
        total[good] = total.get(good, 0) + amount
    for location, card in built:
        if card.kind != "production":
            continue  # it counts for its colour, and produces nothing itself
        if card.production is None:
            raise not_given(f"what {shown(location)} produces", f"cards[{card.id}].production")
        _add(total, _given(card.production, samurai, of_colour))
    return FrozenMap(dict(sorted(total.items())))


def build_gains(
    factions: Mapping[str, Faction],
    cards: Mapping[str, Card],
    goods: Mapping[str, Good],
    faction: str,
    card: str,
    locations: Iterable[str] = (),
    samurai: int = 0,
    unknown: Iterable[UnknownFact] = (),
) -> Mapping[str, int]:
    """The goods a player gains at once when building ``card`` into an empire holding
    ``locations`` (p8, "Construir um local"): a production location's production (Nota 1), the
    card's build bonus, given once (Nota 2), and both where a production location has a build bonus
    (Nota 3); a read-only FrozenMap by good id, empty for a card that gives nothing when built. A
    bonus placed at once as Samurai (the Ninjas, p11) is no gain of goods: :func:`build_samurai`.

    A gain per location of a colour counts the empire's locations of that colour and the card
    built, where its colour matches (p11 "Esclarecimentos gerais", p15 "Lembre-se"); a gain per
    Samurai counts ``samurai``. The empire is checked as :func:`production` checks it, the card
    built in it (the faction's, its copies, the Samurai its faction locations hold), before what
    the card gives is looked up. A card without a build bonus gives none, unless ``unknown`` (the
    package's UNKNOWN_FACTS) records its bonus as unknown: then UnknownFactError, with the data's why."""
    _, record, of_colour, _ = _building(factions, cards, goods, faction, card, locations, samurai)
    total: dict[str, int] = {}
    if record.kind == "production":
        if record.production is None:
            raise not_given(f"what {shown(card)} produces", f"cards[{record.id}].production")
        _add(total, _given(record.production, samurai, of_colour))
    if record.build_bonus is None:
        _no_bonus(card, record, unknown)
    elif record.build_bonus_placed_as is None:  # else placed at once, never the player's (build_samurai)
        _add(total, _given(record.build_bonus, samurai, of_colour))
    return FrozenMap(dict(sorted(total.items())))


def build_samurai(
    factions: Mapping[str, Faction],
    cards: Mapping[str, Card],
    goods: Mapping[str, Good],
    faction: str,
    card: str,
    locations: Iterable[str] = (),
    samurai: int = 0,
    unknown: Iterable[UnknownFact] = (),
) -> int:
    """How many Samurai building ``card`` into an empire holding ``locations`` places at once: a
    build bonus placed as Samurai (``Card.build_bonus_placed_as``; the Ninjas' 2 workers, p11)
    goes one on each faction location of the empire, the card built included, that can still take
    one (the faction's `samurai` rule's ``at_most_per_location`` on each, ``samurai`` already
    placed), and what finds no place is discarded ("o segundo é descartado", p11 "Os Japoneses").
    0 for a card whose bonus is not placed, and for a faction without the `samurai` rule. The
    empire is checked as :func:`build_gains` checks it, before the bonus is looked up."""
    record, placed, of_colour, own = _building(factions, cards, goods, faction, card, locations, samurai)
    if placed.build_bonus is None:
        _no_bonus(card, placed, unknown)
        return 0
    guard = samurai_rule(record)
    if placed.build_bonus_placed_as != SAMURAI or guard is None:
        return 0
    given = len(_given(placed.build_bonus, samurai, of_colour))
    most, _ = _guard_bound((guard,))
    if most is None:
        return given
    return min(given, own * most - samurai)


def _building(
    factions: Mapping[str, Faction],
    cards: Mapping[str, Card],
    goods: Mapping[str, Good],
    faction: str,
    card: str,
    locations: Iterable[str],
    samurai: int,
) -> tuple[Faction, Card, dict[str, int], int]:
    """The empire ``card`` is built into, checked as :func:`_empire` checks one, the card counted
    as built (for its colour, its copies, its deck): the faction's record, the card's, how many of
    the empire's locations are of each colour, and how many are the faction's own."""
    collection(locations, "locations")
    empire = (*locations, card)
    record, _, built, of_colour = _empire(factions, cards, goods, faction, empire, samurai, listed="locations and card")
    own = sum(1 for _, location in built if location.deck is not None and str(location.deck) == str(record.deck))
    return record, built[-1][1], of_colour, own


def _no_bonus(card: str, record: Card, unknown: Iterable[UnknownFact]) -> None:
    """For a card without a build bonus: UnknownFactError, with the data's why, where ``unknown``
    records its bonus as unknown; nothing where the card has none."""
    missing = not_given(f"the build bonus of {shown(card)}", f"cards[{record.id}].build_bonus", unknown)
    if missing.reason is not None:
        raise missing
