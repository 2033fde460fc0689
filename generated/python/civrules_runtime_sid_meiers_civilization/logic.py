"""The rule logic behind every package's helpers, over a package's tables (passed in).

Each generated package binds these to its own data (``helpers.py``); engines call the package's
helpers, not these. Where an answer depends on a fact the ruleset does not give, UnknownFactError
(``civrules_runtime.errors.not_given``: recorded unknown, with the data's why, or left out):
never a guess.

Every helper checks its arguments (the ids first) before it looks up a fact: an id that is not of
the kind its parameter takes is UnknownIdError whatever facts the other arguments lack.

A collection of game objects is no multiset: a technology or a wonder listed twice (a player has
one card of each technology, the game one of each wonder) is OutOfDomainError, never counted twice.
"""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TypeVar

from civrules_runtime.errors import (
    NotACollectionError,
    OutOfDomainError,
    UnknownFactError,
    UnknownIdError,
    collection,
    flag,
    not_given,
    once_each,
    shown,
    unknown_id,
    within,
)
from civrules_runtime.mappings import FrozenMap
from civrules_runtime.records import UnknownFact

from .records import (
    BattleHand,
    Building,
    CombatBonus,
    CultureSpace,
    Government,
    Pyramid,
    Research,
    Technology,
    UnitType,
    Unlocks,
    Victory,
    Wonder,
)
from .settings import Settings
from .vocab import BonusPer, CombatSituation, EffectKind, VictoryKind

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")


def vocabulary(enum: "type[E]", value: str, what: str) -> "E":
    """``value`` as a member of ``enum``; UnknownIdError (naming the allowed values) otherwise."""
    try:
        return enum(value)
    except Exception:  # noqa: BLE001 - no member, or a value whose own hash or == fails
        allowed = ", ".join(repr(m.value) for m in enum)
        raise UnknownIdError(
            f"{shown(value)} is not {'an' if what[:1] in 'aeiou' else 'a'} {what}: one of {allowed}"
        ) from None


#: Why a technology or a wonder is listed once at most (``once_each``).
ONE_TECHNOLOGY = "a player has one card of each technology"
ONE_WONDER = "the game has 1 copy of it"


def held_once(table: "Mapping[str, T]", ids: "Iterable[str]", parameter: str, what: str, why: str) -> "list[str]":
    """``ids`` (a collection of ``what`` ids of ``table``) as a list: NotACollectionError when it is
    none, UnknownIdError for an id ``table`` does not have, OutOfDomainError for one listed twice."""
    collection(ids, parameter)
    listed = list(ids)
    for item in listed:
        entry(table, item, what)
    return once_each(listed, parameter, why)


def entry(table: "Mapping[str, T]", value: str, what: str) -> "T":
    """The record of ``value`` in ``table``; UnknownIdError (proposing the closest id) otherwise."""
    try:
        found = table.get(value)
    except Exception:  # noqa: BLE001 - an unhashable value (a list), or one whose own hash or == fails: no id
        found = None
    if found is None:
        raise unknown_id(value, table, what)
    return found


#: The situations a side may be defending in (``combat_bonus``'s ``defending``, DefenceName): the
#: walls are no situation of their own but a bonus of the city or capital defended (``walled``).
DEFENCES: "tuple[CombatSituation, ...]" = (CombatSituation.DEFENDING_CITY, CombatSituation.DEFENDING_CAPITAL)


def defence(value: object) -> CombatSituation:
    """``value`` (a defending situation, or its value) as a member of :data:`DEFENCES`;
    UnknownIdError naming those otherwise (``defending_walls`` too: the walls are ``walled``)."""
    for situation in DEFENCES:
        if isinstance(value, str) and str.__eq__(value, situation):  # not the value's own ==, which may fail
            return situation
    allowed = ", ".join(repr(situation.value) for situation in DEFENCES)
    said = repr(str(value)) if isinstance(value, str) else shown(value)  # a member as its value
    raise UnknownIdError(f"{said} is not a defending situation: one of {allowed}")


def counts(
    value: "Mapping[str, int] | None", parameter: str, table: "Mapping[str, object]", what: str, rule: str
) -> "dict[str, int]":
    """``value``, a mapping of ``what`` ids (of ``table``) to counts, as a dict (None: empty);
    NotACollectionError when it is no mapping, UnknownIdError for an id ``table`` does not have,
    OutOfDomainError for a count that is not a whole number, 0 or more."""
    if value is None:
        return {}
    if isinstance(value, str | bytes) or not callable(getattr(value, "items", None)):
        raise NotACollectionError(
            f"{parameter} is a mapping of {what} ids to counts ({{id: count}}), not {shown(value)}"
        )
    found: dict[str, int] = {}
    for key, count in value.items():
        entry(table, key, what)
        found[key] = within(count, f"{parameter}[{shown(key)}]", 0, None, rule)
    return found


def research_cost(research: Research, wonders: "Mapping[str, Wonder]", level: int, held: "Iterable[str]") -> int:
    """The trade a technology of ``level`` needs, less the research discount of the wonders held."""
    held = held_once(wonders, held, "wonders", "wonder", ONE_WONDER)
    discount = sum(wonders[w].research_discount or 0 for w in held)
    within(level, "level", 1, max(research.costs, default=None), "the levels of the research table")
    cost = research.costs.get(level)
    if cost is None:
        raise not_given(f"the research cost of level {level}", "research.costs")
    return max(0, cost - discount)


def trade_after_research(
    research: Research, wonders: "Mapping[str, Wonder]", level: int, trade: int, coins: int, held: "Iterable[str]",
    settings: "Settings | None" = None,
) -> int:  # fmt: skip
    """The trade left on the dial after researching at ``level`` with ``trade`` and ``coins``: all of it
    is spent, except one a coin (never more than the player had). ValueError when ``trade`` is short,
    or more than the dial holds (``settings``: the ruleset's SETTINGS, trade.dial_max; None, a
    package built before it was passed: no bound)."""
    held = held_once(wonders, held, "wonders", "wonder", ONE_WONDER)
    cost = research_cost(research, wonders, level, held)
    dial = settings.trade.dial_max if settings is not None and settings.trade is not None else None
    within(trade, "trade", 0, dial, "the trade on the dial" + ("" if dial is None else " (SETTINGS.trade.dial_max)"))
    within(coins, "coins", 0, None, "coins held")
    if trade < cost:
        raise OutOfDomainError(f"trade={trade!r} is outside the domain of the rule: level {level} needs {cost} or more")
    if not research.spends_all_trade:
        return trade - cost
    if research.trade_kept_per_coin is None:
        raise not_given("the trade a coin keeps after research", "research.trade_kept_per_coin")
    return min(trade, coins * research.trade_kept_per_coin)


def _rows(technologies: "Mapping[str, Technology]", pyramid: "Iterable[str]", starting: str | None) -> dict[int, int]:
    rows: dict[int, int] = {}
    for tech_id in pyramid:
        tech = entry(technologies, tech_id, "technology")
        if tech_id == starting:
            level = 1  # a starting technology always sits in the base row (p12)
        elif tech.level is None:
            raise not_given(
                f"the level of {tech_id}", f"technologies[{tech_id}].level", hint="the pyramid cannot be judged"
            )
        else:
            level = tech.level
        rows[level] = rows.get(level, 0) + 1
    return rows


def may_place_technology(
    technologies: "Mapping[str, Technology]",
    rules: Pyramid,
    pyramid: "Iterable[str]",
    technology: str,
    starting: str | None,
) -> bool:
    """Whether ``technology`` has a legal space in a pyramid holding ``pyramid``."""
    held = held_once(technologies, pyramid, "pyramid", "technology", ONE_TECHNOLOGY)
    tech = entry(technologies, technology, "technology")
    if starting is not None:
        entry(technologies, starting, "technology")
    if technology in held:
        return False
    if tech.level is None:
        raise not_given(
            f"the level of {technology}", f"technologies[{technology}].level", hint="its place cannot be judged"
        )
    rows = _rows(technologies, held, starting)
    if tech.level == 1:
        return True
    if rules.one_more_below is None:
        raise not_given("how many technologies a row needs below a new one", "pyramid.each_level_needs_one_more_below")
    if rules.top_level is not None and tech.level > rules.top_level:
        return False
    below, row = rows.get(tech.level - 1, 0), rows.get(tech.level, 0)
    return below > row + 1 if rules.one_more_below else below > row


def pyramid_needs(
    technologies: "Mapping[str, Technology]", rules: Pyramid, pyramid: "Iterable[str]", starting: str | None
) -> "Mapping[int, int]":
    """The technologies each level still needs for the technology victory (levels that need none
    left out): a read-only FrozenMap by level."""
    held = held_once(technologies, pyramid, "pyramid", "technology", ONE_TECHNOLOGY)
    if starting is not None:
        entry(technologies, starting, "technology")
    rows = _rows(technologies, held, starting)
    return FrozenMap(
        {
            level: need - rows.get(level, 0)
            for level, need in sorted(rules.minimums.items())
            if need > rows.get(level, 0)
        }
    )


def unit_cost(units: "Mapping[str, UnitType]", unit: str, rank: int) -> int:
    """What producing a unit of ``unit`` costs at ``rank``."""
    found = entry(units, unit, "unit type")
    ranks = ", ".join(str(r.rank) for r in found.ranks)
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise OutOfDomainError(f"rank={rank!r} is not a rank: a rank is an int ({unit} has ranks {ranks})")
    for item in found.ranks:
        if item.rank == rank:
            if item.cost is None:
                raise not_given(f"the cost of {unit} at rank {rank}", f"unit_types[{unit}].ranks[{rank}].cost")
            return item.cost
    raise UnknownIdError(f"{unit} has no rank {rank}: ranks {ranks}")


def may_stand_on(
    buildings: "Mapping[str, Building]", terrains: "Mapping[str, object]", building: str, terrain: str
) -> bool:
    """Whether ``building`` may stand on a square of ``terrain`` (a city-centre building stands on none)."""
    found = entry(buildings, building, "building")
    entry(terrains, terrain, "terrain")
    if found.terrains is None:
        raise not_given(f"the terrains of {building}", f"buildings[{building}].terrains")
    return terrain in found.terrains


def upgrade_of(
    buildings: "Mapping[str, Building]", unknown_facts: "Iterable[UnknownFact]", building: str
) -> str | None:
    """The building ``building`` upgrades, None where it upgrades none; UnknownFactError, with the
    data's reason, where the sources leave it open."""
    found = entry(buildings, building, "building")
    if found.upgrade_unknown:
        raise not_given(
            f"whether {building} is the upgrade of another building", f"buildings[{building}].upgrade_of", unknown_facts
        )
    return found.upgrade_of


def battle_hand_size(
    hand: BattleHand,
    governments: "Mapping[str, Government]",
    figures: int,
    government: str | None,
    defending_city: bool,
    settings: "Settings | None" = None,
    technology_table: "Mapping[str, Technology] | None" = None,
    technologies: "Iterable[str]" = (),
) -> int:
    """The battle hand of a side with ``figures`` friendly figures in the square: 0 is a defender
    with none there (a city attacked alone, or the player defending a village: p14, "a figura ou
    cidade" attacked), whose hand gets no figure beyond the first. ``figures`` is at most the
    stacking limit of a player holding ``technologies`` (SETTINGS.movement.stacking_limit, or the
    limit a technology held raises it to; no bound where that limit is not in the sources, or where
    ``settings`` is None: a package built before they were passed)."""
    within(figures, "figures", 0, None, "the figures of a side in battle")
    if settings is not None and technology_table is not None:
        held = held_once(technology_table, technologies, "technologies", "technology", ONE_TECHNOLOGY)
        limit, why = _stacking_limit(settings, technology_table, held)
        if limit is not None:
            within(figures, "figures", 0, limit, f"the figures a square holds, {why}")
    flag(defending_city, "defending_city")
    bonus = 0 if government is None else entry(governments, government, "government").battle_hand or 0
    if hand.base is None or hand.per_extra_figure is None or (defending_city and hand.defending_city is None):
        raise not_given("the battle hand's size", "combat.battle_hand")
    size = hand.base + hand.per_extra_figure * max(figures - 1, 0) + bonus
    return size + (hand.defending_city or 0 if defending_city else 0)


def _stacking_limit(
    settings: "Settings", technology_table: "Mapping[str, Technology]", held: "list[str]"
) -> "tuple[int | None, str]":
    """The figures a square holds for a player holding ``held`` and where that bound is read from:
    SETTINGS.movement.stacking_limit, or the highest limit a technology held raises it to (None
    where a technology held raises it to a limit the sources do not give, or no limit is given)."""
    movement = settings.movement
    if movement is None:
        return None, ""
    limit, why = movement.stacking_limit, "SETTINGS.movement.stacking_limit"
    raising = [t for t in held for e in technology_table[t].effects if e.kind is EffectKind.STACKING_LIMIT]
    for tech in raising:
        raised = max(
            (
                e.value
                for e in technology_table[tech].effects
                if e.kind is EffectKind.STACKING_LIMIT and e.value is not None
            ),
            default=None,
        )
        if raised is None:
            return None, ""
        if raised > limit:
            limit, why = raised, f"raised by {tech}"
    if not raising:
        others = sorted(
            {t.id for t in technology_table.values() for e in t.effects if e.kind is EffectKind.STACKING_LIMIT}
        )
        if others:
            why += f"; give technologies= where the player holds one that raises it: {', '.join(others)}"
    return limit, why


def combat_bonus(
    bonuses: "Mapping[str, CombatBonus]",
    building_table: "Mapping[str, Building]",
    buildings: "Mapping[str, int] | None",
    generals: int,
    defending: CombatSituation | str | None,
    walled: bool,
) -> int:
    """The combat bonus of a side: its buildings and generals, and the city or capital it defends
    (``defending``: one of :data:`DEFENCES`, or None)."""
    buildings = counts(buildings, "buildings", building_table, "building", "the buildings of a side")
    defending = None if defending is None else defence(defending)
    within(generals, "generals", 0, None, "the generals on the map")
    flag(walled, "walled")
    total = 0
    for bonus in bonuses.values():
        if bonus.situation is CombatSituation.DEFENDING_WALLS:
            applies = walled and defending is not None
            total += bonus.amount if applies else 0
        elif bonus.situation is not None:
            total += bonus.amount if bonus.situation is defending else 0
        elif bonus.per is BonusPer.BUILDING and bonus.building is not None:
            total += bonus.amount * buildings.get(bonus.building, 0)
        elif bonus.per is BonusPer.GREAT_PERSON:
            total += bonus.amount * generals
    return total


def wonder_cost(
    wonders: "Mapping[str, Wonder]", technologies: "Mapping[str, Technology]", wonder: str, held: "Iterable[str]"
) -> int:
    """What ``wonder`` costs a holder of the technologies ``held`` (its discount where it applies)."""
    collection(held, "technologies")
    found = entry(wonders, wonder, "wonder")
    held = held_once(technologies, held, "technologies", "technology", ONE_TECHNOLOGY)
    if found.cost is None:
        raise not_given(f"the cost of {wonder}", f"wonders[{wonder}].cost")
    if found.discount_technology is not None and found.discount_technology in set(held):
        return found.discount_cost if found.discount_cost is not None else found.cost
    return found.cost


def victories_met(
    victories: "Mapping[str, Victory]",
    spaces: "Mapping[str, CultureSpace]",
    technology_table: "Mapping[str, Technology]",
    technologies: "Iterable[str]",
    coins: int,
    culture_space: int | None,
    captured_capital: bool,
) -> tuple[str, ...]:
    """The victories a player's state meets, in the ruleset's order."""
    collection(technologies, "technologies")
    within(coins, "coins", 0, None, "coins held")
    if culture_space is not None:
        last = max((s.position for s in spaces.values()), default=None)  # none known: no bound
        within(culture_space, "culture_space", 0, last, "a space of the culture track (CULTURE_SPACES)")
    flag(captured_capital, "captured_capital")
    held = set(held_once(technology_table, technologies, "technologies", "technology", ONE_TECHNOLOGY))
    met = []
    for victory in victories.values():
        if victory.kind is VictoryKind.TECHNOLOGY and victory.technology is not None:
            hit = victory.technology in held
        elif victory.kind is VictoryKind.ECONOMY and victory.coins is not None:
            hit = coins >= victory.coins
        elif victory.kind is VictoryKind.MILITARY:
            hit = captured_capital
        elif victory.kind is VictoryKind.CULTURE:
            if culture_space is None:
                continue
            ends = [s.position for s in spaces.values() if s.kind == "culture_victory"]
            if not ends:
                raise not_given("the culture track's spaces", "spaces")
            hit = culture_space >= min(ends)
        else:
            raise not_given(f"what {victory.id} needs", f"victories[{victory.id}]")
        if hit:
            met.append(victory.id)
    return tuple(met)


def unlocks_of(technologies: "Mapping[str, Technology]", technology: str) -> Unlocks:
    """What ``technology`` unlocks; UnknownFactError where no source gives it."""
    found = entry(technologies, technology, "technology")
    if found.unlocks is None:
        raise not_given(f"what {technology} unlocks", f"technologies[{technology}].unlocks", hint="it cannot be judged")
    return found.unlocks


def unlocked_by(technologies: "Mapping[str, Technology]", item: str, *items: "Mapping[str, object]") -> tuple[str, ...]:
    """The technologies that unlock ``item`` (a building, government or wonder id, or a unit type id).

    ``items``: the tables of the ids an item may be (buildings, unit types, governments, wonders);
    an ``item`` none of them has is an UnknownIdError proposing the closest of all their ids.
    When none known unlocks it and the ruleset does not give some technology's unlocks, the answer
    cannot be judged: UnknownFactError, never an empty answer that may be false.
    """
    if items and not any(_has(table, item) for table in items):
        every: dict[str, object] = {}
        for table in items:
            every.update(dict.fromkeys(table))
        raise unknown_id(item, every, "building, unit type, government or wonder")
    by_item, silent = _unlockers(technologies)
    found = by_item.get(item, ())
    if not found and silent:
        raise UnknownFactError(
            f"no technology known unlocks {item}, and this ruleset does not give what {silent} technologies unlock"
        )
    return found


def _has(table: "Mapping[str, object]", key: object) -> bool:
    try:
        return key in table
    except Exception:  # noqa: BLE001 - unhashable, or its own hash or == fails: no id
        return False


#: The technologies unlocking each item, by the technology table they were read from (kept with
#: the table, so that an id reused by a new table is not mistaken for it): one walk of a table,
#: not one per question (an engine asking of every building walked every technology each time).
#: A package's tables never change once made; at most :data:`_KEPT` tables are remembered.
_UNLOCKERS: "dict[int, tuple[Mapping[str, Technology], dict[str, tuple[str, ...]], int]]" = {}
_KEPT = 16


def _unlockers(technologies: "Mapping[str, Technology]") -> "tuple[dict[str, tuple[str, ...]], int]":
    """Each item's unlocking technologies, in table order, and how many technologies' unlocks the
    sources do not give."""
    kept = _UNLOCKERS.get(id(technologies))
    if kept is not None and kept[0] is technologies:
        return kept[1], kept[2]
    by_item: dict[str, list[str]] = {}
    silent = 0
    for tech in technologies.values():
        unlocks = tech.unlocks
        if unlocks is None:
            silent += 1
            continue
        items = (*unlocks.buildings, *unlocks.governments, *unlocks.wonders, *(unit.type for unit in unlocks.units))
        for unlocked in dict.fromkeys(items):
            by_item.setdefault(unlocked, []).append(tech.id)
    found = {unlocked: tuple(ids) for unlocked, ids in by_item.items()}
    if len(_UNLOCKERS) >= _KEPT:
        _UNLOCKERS.clear()
    _UNLOCKERS[id(technologies)] = (technologies, found, silent)
    return found, silent
