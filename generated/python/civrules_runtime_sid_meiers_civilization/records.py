# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The records of every package of the Sid Meier's Civilization family: frozen, slotted, compared by their fields.

Ids of a ruleset's own collections (technologies, buildings, unit types ...) are plain ``str`` here:
each package's id enums (``TechnologyId`` ...) are ``StrEnum``s, so their members are those strings,
and one engine function can read any ruleset's records. A field that is None holds a fact the
sources do not give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Self, TypeVar

from civrules_runtime.assumed import count, pairs, text
from civrules_runtime.errors import shown
from civrules_runtime.mappings import FrozenMap
from civrules_runtime.records import Record, bound, typed_replace
from civrules_runtime.records import UnknownFact as UnknownFact

from .bounds import BOUNDS, WHERE
from .vocab import Activity, BonusPer, CombatSituation, EffectKind, VictoryEnds, VictoryKind

TYPE_CHECKING = False


_set = object.__setattr__


_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(table: Mapping[_K, _V]) -> Mapping[_K, _V]:
    """``table`` as a FrozenMap, as the package's own records hold theirs: a record an engine makes
    from a dict of its own would otherwise change when the dict does, and not hash."""
    return table if isinstance(table, FrozenMap) else FrozenMap(table)


class UnitRef(Record):
    """A unit type at a rank (what a technology unlocks)."""

    _schema = (
        "sid-meiers-civilization/technologies.schema.json#"
        "/properties/technologies/items/properties/unlocks/oneOf/0/properties/units/items"
    )
    __slots__ = ("type", "rank")
    __match_args__ = ("type", "rank")

    type: str
    rank: int

    def __init__(self, type: str, rank: int) -> None:
        _set(self, "type", type)
        _set(self, "rank", rank)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        type: str = ...,
        rank: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class TechEffect(Record):
    """One ability of a technology card, by kind (its value and resource where the data gives them)."""

    _schema = "sid-meiers-civilization/technologies.schema.json#/properties/technologies/items/properties/effects/items"
    __slots__ = ("kind", "value", "resource")
    __match_args__ = ("kind", "value", "resource")

    kind: EffectKind
    value: int | None
    resource: str | None

    def __init__(self, kind: EffectKind, value: int | None = None, resource: str | None = None) -> None:
        _set(self, "kind", kind)
        _set(self, "value", value)
        _set(self, "resource", resource)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        kind: EffectKind = ...,
        value: int | None = ...,
        resource: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Unlocks(Record):
    """What a technology makes available: buildings, unit ranks, governments, wonders."""

    _schema = (
        "sid-meiers-civilization/technologies.schema.json#/properties/technologies/items/properties/unlocks/oneOf/0"
    )
    __slots__ = ("buildings", "units", "governments", "wonders")
    __match_args__ = ("buildings", "units", "governments", "wonders")

    buildings: tuple[str, ...]
    units: tuple[UnitRef, ...]
    governments: tuple[str, ...]
    wonders: tuple[str, ...]

    def __init__(
        self,
        buildings: tuple[str, ...] = (),
        units: tuple[UnitRef, ...] = (),
        governments: tuple[str, ...] = (),
        wonders: tuple[str, ...] = (),
    ) -> None:
        _set(self, "buildings", buildings)
        _set(self, "units", units)
        _set(self, "governments", governments)
        _set(self, "wonders", wonders)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        buildings: tuple[str, ...] = ...,
        units: tuple[UnitRef, ...] = ...,
        governments: tuple[str, ...] = ...,
        wonders: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Technology(Record):
    """A technology card: its level in the pyramid (None: not in the sources), what it unlocks
    (None: not in the sources) and its abilities."""

    _schema = "sid-meiers-civilization/technologies.schema.json#/properties/technologies/items"
    __slots__ = ("id", "name", "level", "unlocks", "effects")
    __match_args__ = ("id", "name", "level", "unlocks", "effects")

    id: str
    name: str
    level: int | None
    unlocks: Unlocks | None
    effects: tuple[TechEffect, ...]

    def __init__(
        self,
        id: str,
        name: str,
        level: int | None,
        unlocks: Unlocks | None,
        effects: tuple[TechEffect, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "level", level)
        _set(self, "unlocks", unlocks)
        _set(self, "effects", effects)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        level: int | None = ...,
        unlocks: Unlocks | None = ...,
        effects: tuple[TechEffect, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Terrain(Record):
    """A terrain of the map squares."""

    _schema = "sid-meiers-civilization/buildings.schema.json#/properties/terrains/items"
    __slots__ = ("id", "name", "water")
    __match_args__ = ("id", "name", "water")

    id: str
    name: str
    water: bool

    def __init__(self, id: str, name: str, water: bool = False) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "water", water)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        water: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


def _unknown_given(record: Record, flag: str, fields: tuple[str, ...]) -> str | None:
    """What is wrong with ``record`` where its ``flag`` says the sources do not give a fact that one of
    ``fields`` gives (a record changed with ``replace`` given the value, still saying it is unknown,
    which the helpers go on reading as unknown); None: nothing."""
    if getattr(record, flag):
        for name in fields:
            value = getattr(record, name)
            if value is not None:
                return (
                    f"{flag}=True says the sources do not give it, but {name}={shown(value)} gives it:"
                    f" give {flag}=False with the value, or {name}=None while it is unknown"
                )
    return None


class Building(Record):
    """A building: the terrains it may stand on (None: not in the sources), whether it stands in the
    city centre, whether it is limited (one per city), what it upgrades (None: none, or where
    ``upgrade_unknown`` is True, not in the sources: the helper ``upgrade_of`` tells them apart), its
    cost and combat bonus."""

    _schema = "sid-meiers-civilization/buildings.schema.json#/properties/buildings/items"
    __slots__ = (
        "id", "name", "terrains", "city_centre", "limited", "upgrade_of", "cost", "combat_bonus", "upgrade_unknown",
    )  # fmt: skip
    __match_args__ = (
        "id", "name", "terrains", "city_centre", "limited", "upgrade_of", "cost", "combat_bonus", "upgrade_unknown",
    )  # fmt: skip

    id: str
    name: str
    terrains: tuple[str, ...] | None
    city_centre: bool
    limited: bool | None
    upgrade_of: str | None
    cost: int | None
    combat_bonus: int | None
    #: True where the sources leave open whether it upgrades a building, and which (``upgrade_of``
    #: is then None, which does not mean none: Sid Meier's base game, p12).
    upgrade_unknown: bool

    def __init__(
        self,
        id: str,
        name: str,
        terrains: tuple[str, ...] | None,
        city_centre: bool = False,
        limited: bool | None = False,
        upgrade_of: str | None = None,
        cost: int | None = None,
        combat_bonus: int | None = None,
        upgrade_unknown: bool = False,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "terrains", terrains)
        _set(self, "city_centre", city_centre)
        _set(self, "limited", limited)
        _set(self, "upgrade_of", upgrade_of)
        _set(self, "cost", cost)
        _set(self, "combat_bonus", combat_bonus)
        _set(self, "upgrade_unknown", upgrade_unknown)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        terrains: tuple[str, ...] | None = ...,
        city_centre: bool = ...,
        limited: bool | None = ...,
        upgrade_of: str | None = ...,
        cost: int | None = ...,
        combat_bonus: int | None = ...,
        upgrade_unknown: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def _problem(self) -> str | None:
        return _unknown_given(self, "upgrade_unknown", ("upgrade_of",))


class Rank(Record):
    """A rank of a unit type: its name, production cost and strength range (None: not in the sources)."""

    _schema = "sid-meiers-civilization/units.schema.json#/properties/unit_types/items/properties/ranks/items"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "strength_min": "strength/min",
        "strength_max": "strength/max",
    }
    __slots__ = ("rank", "name", "cost", "strength_min", "strength_max")
    __match_args__ = ("rank", "name", "cost", "strength_min", "strength_max")

    rank: int
    name: str | None
    cost: int | None
    strength_min: int | None
    strength_max: int | None

    def __init__(
        self,
        rank: int,
        name: str | None,
        cost: int | None,
        strength_min: int | None,
        strength_max: int | None,
    ) -> None:
        _set(self, "rank", rank)
        _set(self, "name", name)
        _set(self, "cost", cost)
        _set(self, "strength_min", strength_min)
        _set(self, "strength_max", strength_max)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        rank: int = ...,
        name: str | None = ...,
        cost: int | None = ...,
        strength_min: int | None = ...,
        strength_max: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class UnitType(Record):
    """A unit type with its ranks, what it trumps, and its deck size."""

    _schema = "sid-meiers-civilization/units.schema.json#/properties/unit_types/items"
    __slots__ = ("id", "name", "available_at_start", "trumps", "never_trumped", "deck_size", "ranks")
    __match_args__ = ("id", "name", "available_at_start", "trumps", "never_trumped", "deck_size", "ranks")

    id: str
    name: str
    available_at_start: bool
    trumps: str | None
    never_trumped: bool
    deck_size: int | None
    ranks: tuple[Rank, ...]

    def __init__(
        self,
        id: str,
        name: str,
        available_at_start: bool,
        trumps: str | None,
        never_trumped: bool,
        deck_size: int | None,
        ranks: tuple[Rank, ...],
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "available_at_start", available_at_start)
        _set(self, "trumps", trumps)
        _set(self, "never_trumped", never_trumped)
        _set(self, "deck_size", deck_size)
        _set(self, "ranks", ranks)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        available_at_start: bool = ...,
        trumps: str | None = ...,
        never_trumped: bool = ...,
        deck_size: int | None = ...,
        ranks: tuple[Rank, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Era(Record):
    """An era of wonders."""

    _schema = "sid-meiers-civilization/wonders.schema.json#/properties/eras/items"
    __slots__ = ("id", "name")
    __match_args__ = ("id", "name")

    id: str
    name: str

    def __init__(self, id: str, name: str) -> None:
        _set(self, "id", id)
        _set(self, "name", name)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Wonder(Record):
    """A wonder: its era and cost (None: not in the sources), the cheaper cost with a technology,
    and how much less trade its owner needs to research."""

    _schema = "sid-meiers-civilization/wonders.schema.json#/properties/wonders/items"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "discount_cost": "discount/cost",
        "discount_technology": "discount/technology",
    }
    __slots__ = ("id", "name", "era", "cost", "discount_cost", "discount_technology", "research_discount")
    __match_args__ = ("id", "name", "era", "cost", "discount_cost", "discount_technology", "research_discount")

    id: str
    name: str
    era: str | None
    cost: int | None
    discount_cost: int | None
    discount_technology: str | None
    research_discount: int | None

    def __init__(
        self,
        id: str,
        name: str,
        era: str | None,
        cost: int | None,
        discount_cost: int | None = None,
        discount_technology: str | None = None,
        research_discount: int | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "era", era)
        _set(self, "cost", cost)
        _set(self, "discount_cost", discount_cost)
        _set(self, "discount_technology", discount_technology)
        _set(self, "research_discount", research_discount)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        era: str | None = ...,
        cost: int | None = ...,
        discount_cost: int | None = ...,
        discount_technology: str | None = ...,
        research_discount: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class SpaceKind(Record):
    """A kind of culture track space."""

    _schema = "sid-meiers-civilization/culture.schema.json#/properties/space_kinds/items"
    __slots__ = ("id", "name")
    __match_args__ = ("id", "name")

    id: str
    name: str

    def __init__(self, id: str, name: str) -> None:
        _set(self, "id", id)
        _set(self, "name", name)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CultureSpace(Record):
    """A space of the culture track: its position, kind, the culture and trade to enter it (None:
    not in the sources), and the deck it draws from."""

    _schema = "sid-meiers-civilization/culture.schema.json#/properties/spaces/items"
    __slots__ = ("id", "position", "kind", "culture", "trade", "deck")
    __match_args__ = ("id", "position", "kind", "culture", "trade", "deck")

    id: str
    position: int
    kind: str
    culture: int | None
    trade: int | None
    deck: str | None

    def __init__(
        self,
        id: str,
        position: int,
        kind: str,
        culture: int | None,
        trade: int | None,
        deck: str | None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "position", position)
        _set(self, "kind", kind)
        _set(self, "culture", culture)
        _set(self, "trade", trade)
        _set(self, "deck", deck)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        position: int = ...,
        kind: str = ...,
        culture: int | None = ...,
        trade: int | None = ...,
        deck: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CultureDeck(Record):
    """A culture event deck and its number of cards."""

    _schema = "sid-meiers-civilization/culture.schema.json#/properties/decks/items"
    __slots__ = ("id", "name", "cards")
    __match_args__ = ("id", "name", "cards")

    id: str
    name: str
    cards: int | None

    def __init__(self, id: str, name: str, cards: int | None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "cards", cards)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        cards: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class GreatPerson(Record):
    """A great person: its category and combat bonus."""

    _schema = "sid-meiers-civilization/culture.schema.json#/properties/great_people/items"
    __slots__ = ("id", "name", "category", "combat_bonus")
    __match_args__ = ("id", "name", "category", "combat_bonus")

    id: str
    name: str
    category: str | None
    combat_bonus: int | None

    def __init__(self, id: str, name: str, category: str | None, combat_bonus: int | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "category", category)
        _set(self, "combat_bonus", combat_bonus)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        category: str | None = ...,
        combat_bonus: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Tile(Record):
    """A map tile: the civilization whose start tile it is, and its squares' terrains by row."""

    _schema = "sid-meiers-civilization/map.schema.json#/properties/tiles/items"
    __slots__ = ("id", "name", "civilization", "squares")
    __match_args__ = ("id", "name", "civilization", "squares")

    id: str
    name: str
    civilization: str | None
    squares: tuple[tuple[str, ...], ...]

    def __init__(self, id: str, name: str, civilization: str | None, squares: tuple[tuple[str, ...], ...]) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "civilization", civilization)
        _set(self, "squares", squares)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        civilization: str | None = ...,
        squares: tuple[tuple[str, ...], ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Phase(Record):
    """A phase of the turn, its place and what it allows."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/phases/items"
    __slots__ = ("id", "name", "order", "allows")
    __match_args__ = ("id", "name", "order", "allows")

    id: str
    name: str
    order: int
    allows: tuple[Activity, ...]

    def __init__(self, id: str, name: str, order: int, allows: tuple[Activity, ...] = ()) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "order", order)
        _set(self, "allows", allows)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        order: int = ...,
        allows: tuple[Activity, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Government(Record):
    """A government: whether civilizations start in it, whether it is the passage between two, and
    the coins and battle hand it adds."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/governments/items"
    __slots__ = ("id", "name", "starting", "transitional", "coins", "battle_hand")
    __match_args__ = ("id", "name", "starting", "transitional", "coins", "battle_hand")

    id: str
    name: str
    starting: bool
    transitional: bool
    coins: int | None
    battle_hand: int | None

    def __init__(
        self,
        id: str,
        name: str,
        starting: bool = False,
        transitional: bool = False,
        coins: int | None = None,
        battle_hand: int | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "starting", starting)
        _set(self, "transitional", transitional)
        _set(self, "coins", coins)
        _set(self, "battle_hand", battle_hand)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        starting: bool = ...,
        transitional: bool = ...,
        coins: int | None = ...,
        battle_hand: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Victory(Record):
    """A victory: its kind, the technology or the coins it needs, and when it ends the game."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/victories/items"
    __slots__ = ("id", "name", "kind", "technology", "coins", "ends")
    __match_args__ = ("id", "name", "kind", "technology", "coins", "ends")

    id: str
    name: str
    kind: VictoryKind
    technology: str | None
    coins: int | None
    ends: VictoryEnds

    def __init__(
        self,
        id: str,
        name: str,
        kind: VictoryKind,
        technology: str | None = None,
        coins: int | None = None,
        ends: VictoryEnds = VictoryEnds.IMMEDIATELY,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "kind", kind)
        _set(self, "technology", technology)
        _set(self, "coins", coins)
        _set(self, "ends", ends)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        kind: VictoryKind = ...,
        technology: str | None = ...,
        coins: int | None = ...,
        ends: VictoryEnds = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Resource(Record):
    """A resource."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/resources/items"
    __slots__ = ("id", "name")
    __match_args__ = ("id", "name")

    id: str
    name: str

    def __init__(self, id: str, name: str) -> None:
        _set(self, "id", id)
        _set(self, "name", name)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CombatBonus(Record):
    """A combat bonus: its amount, per what it counts, the building it counts, the situation it needs."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/combat_bonuses/items"
    __slots__ = ("id", "name", "amount", "per", "building", "situation")
    __match_args__ = ("id", "name", "amount", "per", "building", "situation")

    id: str
    name: str
    amount: int
    per: BonusPer | None
    building: str | None
    situation: CombatSituation | None

    def __init__(
        self,
        id: str,
        name: str,
        amount: int,
        per: BonusPer | None = None,
        building: str | None = None,
        situation: CombatSituation | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "amount", amount)
        _set(self, "per", per)
        _set(self, "building", building)
        _set(self, "situation", situation)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        amount: int = ...,
        per: BonusPer | None = ...,
        building: str | None = ...,
        situation: CombatSituation | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CityAction(Record):
    """An action a city may take: the culture tokens it gives (a fixed number and one per culture
    icon in the outskirts, Arts) and the resources it collects per action (None: the action gives
    none of them)."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/city_actions/items"
    __slots__ = ("id", "name", "culture", "per_culture_icon", "per_action")
    __match_args__ = ("id", "name", "culture", "per_culture_icon", "per_action")

    id: str
    name: str
    culture: int | None
    per_culture_icon: int | None
    per_action: int | None

    def __init__(
        self,
        id: str,
        name: str,
        culture: int | None = None,
        per_culture_icon: int | None = None,
        per_action: int | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "culture", culture)
        _set(self, "per_culture_icon", per_culture_icon)
        _set(self, "per_action", per_action)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        culture: int | None = ...,
        per_culture_icon: int | None = ...,
        per_action: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Civilization(Record):
    """A civilization: its starting technology and government (None: not in the sources)."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/civilizations/items"
    __slots__ = ("id", "name", "starting_technology", "starting_government")
    __match_args__ = ("id", "name", "starting_technology", "starting_government")

    id: str
    name: str
    starting_technology: str | None
    starting_government: str | None

    def __init__(self, id: str, name: str, starting_technology: str | None, starting_government: str | None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "starting_technology", starting_technology)
        _set(self, "starting_government", starting_government)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        starting_technology: str | None = ...,
        starting_government: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Marker(Record):
    """A hut or village marker and how many there are."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/huts/items"
    __slots__ = ("id", "name", "count")
    __match_args__ = ("id", "name", "count")

    id: str
    name: str
    count: int

    def __init__(self, id: str, name: str, count: int) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "count", count)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str = ...,
        count: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Research(Record):
    """What researching costs: the trade each level needs, the trade a coin keeps, whether research
    spends all the trade."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/research"
    __slots__ = ("costs", "trade_kept_per_coin", "spends_all_trade")
    __match_args__ = ("costs", "trade_kept_per_coin", "spends_all_trade")

    costs: Mapping[int, int]
    trade_kept_per_coin: int | None
    spends_all_trade: bool

    def __init__(self, costs: Mapping[int, int], trade_kept_per_coin: int | None, spends_all_trade: bool) -> None:
        _set(self, "costs", _frozen(costs))
        _set(self, "trade_kept_per_coin", trade_kept_per_coin)
        _set(self, "spends_all_trade", spends_all_trade)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        costs: Mapping[int, int] = ...,
        trade_kept_per_coin: int | None = ...,
        spends_all_trade: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Pyramid(Record):
    """The technology pyramid: its levels, the top level, the technologies each level needs for the
    technology victory, their total, and whether a row must hold more than the row above before a
    technology is placed on it (None: not in the sources; ``inferred``: read from the figures, not
    stated)."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/pyramid"
    __slots__ = (
        "levels",
        "top_level",
        "minimums",
        "total",
        "one_more_below",
        "inferred",
        "starting_technology_in_base_row",
    )
    __match_args__ = (
        "levels",
        "top_level",
        "minimums",
        "total",
        "one_more_below",
        "inferred",
        "starting_technology_in_base_row",
    )

    levels: int | None
    top_level: int | None
    minimums: Mapping[int, int]
    total: int | None
    one_more_below: bool | None
    inferred: bool
    starting_technology_in_base_row: bool

    def __init__(
        self,
        levels: int | None,
        top_level: int | None,
        minimums: Mapping[int, int],
        total: int | None,
        one_more_below: bool | None,
        inferred: bool,
        starting_technology_in_base_row: bool,
    ) -> None:
        _set(self, "levels", levels)
        _set(self, "top_level", top_level)
        _set(self, "minimums", _frozen(minimums))
        _set(self, "total", total)
        _set(self, "one_more_below", one_more_below)
        _set(self, "inferred", inferred)
        _set(self, "starting_technology_in_base_row", starting_technology_in_base_row)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        levels: int | None = ...,
        top_level: int | None = ...,
        minimums: Mapping[int, int] = ...,
        total: int | None = ...,
        one_more_below: bool | None = ...,
        inferred: bool = ...,
        starting_technology_in_base_row: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class BattleHand(Record):
    """The battle hand: its base size, the cards each friendly figure beyond the first adds, and
    the cards defending a city or capital adds."""

    _schema = "sid-meiers-civilization/ruleset.schema.json#/properties/combat/properties/battle_hand"
    __slots__ = ("base", "per_extra_figure", "defending_city")
    __match_args__ = ("base", "per_extra_figure", "defending_city")

    base: int | None
    per_extra_figure: int | None
    defending_city: int | None

    def __init__(self, base: int | None, per_extra_figure: int | None, defending_city: int | None) -> None:
        _set(self, "base", base)
        _set(self, "per_extra_figure", per_extra_figure)
        _set(self, "defending_city", defending_city)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        base: int | None = ...,
        per_extra_figure: int | None = ...,
        defending_city: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# --- What an engine assumes where the sources give nothing (package.assuming) -----------------


def _an_id(value: object, name: str) -> object:
    """An assumed id as given: the package checks it (an id of the wrong type is none of its ids)."""
    return value


#: What each assumption maps (for its message) and the check of each value: a whole number by the
#: bounds of the fact in the schema (technologies, buildings, wonders, units), or an id (a str: the
#: package checks it at ``assuming()``).
_ASSUMED: dict[str, tuple[str, Callable[[object, str], object]]] = {
    "technology_levels": ("technologies to levels", count(1, 5, "a technology's level in the pyramid")),
    "building_costs": ("buildings to costs", count(1, None, "a building's cost")),
    "wonder_costs": ("wonders to costs", count(1, None, "a wonder's cost")),
    "wonder_eras": ("wonders to eras", _an_id),
    "unit_deck_sizes": ("unit types to deck sizes", count(1, None, "the cards of a unit deck")),
    "starting_technologies": ("civilizations to technologies", _an_id),
    "starting_governments": ("civilizations to governments", _an_id),
}


class Assumptions(Record):
    """The facts an engine assumes where the sources give none, each optional, by id.

    ``technology_levels``: a technology's level in the pyramid; ``building_costs``,
    ``wonder_costs``: what a building or a wonder costs; ``wonder_eras``: a wonder's era (an era
    id); ``unit_deck_sizes``: how many cards a unit type's deck has; ``starting_technologies``,
    ``starting_governments``: a civilization's (a technology id, a government id). ``why`` says
    where they come from (a house rule, a table's agreement), for the record.

    Each value is checked when the record is made, by the bounds the family's schema sets its fact:
    a number of the wrong type or out of them is OutOfDomainError, a value that is no mapping where
    one belongs NotACollectionError; the ids are checked by ``package.assuming()``.
    """

    _checks_own_arguments = True  # the ids are checked by the package that takes them

    __slots__ = (
        "technology_levels",
        "building_costs",
        "wonder_costs",
        "wonder_eras",
        "unit_deck_sizes",
        "starting_technologies",
        "starting_governments",
        "why",
    )
    __match_args__ = (
        "technology_levels",
        "building_costs",
        "wonder_costs",
        "wonder_eras",
        "unit_deck_sizes",
        "starting_technologies",
        "starting_governments",
        "why",
    )

    technology_levels: tuple[tuple[str, int], ...]
    building_costs: tuple[tuple[str, int], ...]
    wonder_costs: tuple[tuple[str, int], ...]
    wonder_eras: tuple[tuple[str, str], ...]
    unit_deck_sizes: tuple[tuple[str, int], ...]
    starting_technologies: tuple[tuple[str, str], ...]
    starting_governments: tuple[tuple[str, str], ...]
    why: str

    def __init__(
        self,
        *,
        technology_levels: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        building_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        wonder_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        wonder_eras: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        unit_deck_sizes: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        starting_technologies: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        starting_governments: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        why: str = "",
    ) -> None:
        by_id = (
            ("technology_levels", technology_levels),
            ("building_costs", building_costs),
            ("wonder_costs", wonder_costs),
            ("wonder_eras", wonder_eras),
            ("unit_deck_sizes", unit_deck_sizes),
            ("starting_technologies", starting_technologies),
            ("starting_governments", starting_governments),
        )
        for name, values in by_id:
            _set(self, name, pairs(values, name, *_ASSUMED[name]))
        _set(self, "why", text(why, "why"))

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        technology_levels: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        building_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        wonder_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        wonder_eras: Mapping[str, str] | Iterable[tuple[str, str]] | None = ...,
        unit_deck_sizes: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        starting_technologies: Mapping[str, str] | Iterable[tuple[str, str]] | None = ...,
        starting_governments: Mapping[str, str] | Iterable[tuple[str, str]] | None = ...,
        why: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# The schemas' constraints on the fields (generated: compiler/tools/bounds.py), held where a record is
# made by calling its class, changed or unpickled.
bound(globals(), BOUNDS, WHERE)


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a record's class by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
