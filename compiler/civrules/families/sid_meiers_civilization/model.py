"""The typed model of a ruleset of the Sid Meier's Civilization family: frozen values built once
from the resolved ruleset (:func:`build_ruleset`, the family's ``assemble`` hook).

Checks and emitters read this model, never the raw YAML. Facts the sources do not give are
:class:`~civrules.model.Unknown` values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from civrules.families.sid_meiers_civilization import FAMILY_ID as FAMILY_ID
from civrules.model import (
    Collection,
    Entity,
    Origin,
    Ruleset,
    Unknown,
    best_players,
    description_of,
    known,
    player_range,
    rule_index_of,
)
from civrules.model.assembly import assembles, made_of
from civrules.resolve import Resolved
from civrules.support.values import frozen_value


@frozen_value
class UnitRef:
    """A unit type at a rank (what a technology unlocks or upgrades to)."""

    type: str
    rank: int


@frozen_value
class TechEffect:
    """One ability of a technology card, by kind; ``index`` is its place in `effects`."""

    kind: str
    value: int | None
    resource: str | None
    index: int


@frozen_value
class Unlocks:
    buildings: tuple[str, ...] = ()
    units: tuple[UnitRef, ...] = ()
    governments: tuple[str, ...] = ()
    wonders: tuple[str, ...] = ()
    #: False where the technology states no unlocks at all (the data is silent, not empty).
    stated: bool = True


@frozen_value
class Technology(Entity):
    name_language: str | None
    level: int | Unknown
    unlocks: Unlocks | Unknown
    effects: tuple[TechEffect, ...]


@frozen_value
class Terrain(Entity):
    water: bool


@frozen_value
class Building(Entity):
    terrains: tuple[str, ...] | Unknown
    city_centre: bool
    limited: bool | Unknown
    #: The building it upgrades; None where it upgrades none; unknown where the sources leave it open.
    upgrade_of: str | Unknown | None
    cost: int | Unknown
    combat_bonus: int | None


@frozen_value
class Rank:
    rank: int
    name: str | Unknown
    cost: int | Unknown
    strength: tuple[int, int] | Unknown
    index: int


@frozen_value
class UnitType(Entity):
    available_at_start: bool
    trumps: str | None
    never_trumped: bool
    deck_size: int | Unknown | None
    ranks: tuple[Rank, ...]

    def rank(self, number: int) -> Rank | None:
        return next((r for r in self.ranks if r.rank == number), None)


@frozen_value
class Era(Entity):
    pass


@frozen_value
class Discount:
    cost: int
    technology: str


@frozen_value
class Wonder(Entity):
    era: str | Unknown
    cost: int | Unknown
    discount: Discount | None
    research_discount: int | None


@frozen_value
class SpaceKind(Entity):
    pass


@frozen_value
class CultureSpace(Entity):
    position: int
    kind: str
    cost: tuple[int, int] | Unknown
    deck: str | Unknown | None


@frozen_value
class Deck(Entity):
    cards: int | Unknown


@frozen_value
class GreatPerson(Entity):
    category: str | Unknown | None
    combat_bonus: int | None


@frozen_value
class Tile(Entity):
    civilization: str | Unknown | None
    squares: tuple[tuple[str, ...], ...]


@frozen_value
class Phase(Entity):
    order: int
    allows: tuple[str, ...]


@frozen_value
class Government(Entity):
    starting: bool
    transitional: bool
    coins: int | None
    battle_hand: int | None
    #: Whether the capital takes its action while it rules (Anarchy's does not); None where not written.
    capital_action: bool | None = None


@frozen_value
class Victory(Entity):
    kind: str
    technology: str | None
    coins: int | None
    ends: str


@frozen_value
class Resource(Entity):
    pass


@frozen_value
class CombatBonus(Entity):
    amount: int
    per: str | None
    building: str | None
    situation: str | None


@frozen_value
class CityAction(Entity):
    #: Culture tokens the action gives, and per culture icon in the city's outskirts (Arts).
    culture: int | None = None
    per_culture_icon: int | None = None
    #: Resources collected per action.
    per_action: int | None = None


@frozen_value
class Civilization(Entity):
    starting_technology: str | Unknown | None
    starting_government: str | Unknown | None


@frozen_value
class Marker(Entity):
    count: int


@frozen_value(kw_only=True)
class CivilizationRuleset(Ruleset):
    """A ruleset of Sid Meier's Civilization: The Board Game."""

    #: Whether the manifest declares the ruleset a draft (`status: draft`): facts a game needs are missing.
    draft: bool
    technologies: Collection[Technology]
    terrains: Collection[Terrain]
    buildings: Collection[Building]
    unit_types: Collection[UnitType]
    eras: Collection[Era]
    wonders: Collection[Wonder]
    space_kinds: Collection[SpaceKind]
    spaces: Collection[CultureSpace]
    decks: Collection[Deck]
    great_people: Collection[GreatPerson]
    tiles: Collection[Tile]
    phases: Collection[Phase]
    governments: Collection[Government]
    victories: Collection[Victory]
    resources: Collection[Resource]
    combat_bonuses: Collection[CombatBonus]
    city_actions: Collection[CityAction]
    civilizations: Collection[Civilization]
    huts: Collection[Marker]
    villages_markers: Collection[Marker]
    #: Every technology as the file defining it writes it, before any variant's change, those a
    #: variant patched, replaced or removed included: what the data say each unlocks (T007: an item
    #: one of them unlocks and none does now has lost the unlock its source gives). Where no variant
    #: is applied, the ruleset's own technologies. Not one of :meth:`collections`.
    defined_technologies: Collection[Technology]

    def collections(self) -> tuple[Collection[Entity], ...]:
        return (
            self.technologies,
            self.terrains,
            self.buildings,
            self.unit_types,
            self.eras,
            self.wonders,
            self.space_kinds,
            self.spaces,
            self.decks,
            self.great_people,
            self.tiles,
            self.phases,
            self.governments,
            self.victories,
            self.resources,
            self.combat_bonuses,
            self.city_actions,
            self.civilizations,
            self.huts,
            self.villages_markers,
        )

    def rule(self, key: str) -> Mapping[str, Any]:
        """A setting as a mapping (empty where the ruleset has none)."""
        found = self.setting(key)
        return found[0] if found is not None and isinstance(found[0], Mapping) else {}

    def rule_origin(self, key: str) -> Origin | None:
        found = self.setting(key)
        return found[1] if found is not None else None


# --- assembly ----------------------------------------------------------------------------------

T = TypeVar("T", bound=Entity)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _known_int(value: Any) -> int | Unknown:
    value = known(value)
    return value if isinstance(value, (int, Unknown)) and not isinstance(value, bool) else Unknown("not given")


def _ids(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _unlocks(value: Any) -> Unlocks | Unknown:
    value = known(value)
    if isinstance(value, Unknown):
        return value
    if not isinstance(value, Mapping):
        return Unlocks(stated=False)
    units = tuple(
        UnitRef(u["type"], u["rank"])
        for u in value.get("units") or ()
        if isinstance(u, Mapping) and isinstance(u.get("type"), str) and isinstance(u.get("rank"), int)
    )
    return Unlocks(_ids(value.get("buildings")), units, _ids(value.get("governments")), _ids(value.get("wonders")))


def _technology(raw: Mapping[str, Any], base: dict[str, Any]) -> Technology:
    effects = tuple(
        TechEffect(str(e.get("kind")), _int(e.get("value")), _str(e.get("resource")), n)
        for n, e in enumerate(raw.get("effects") or ())
        if isinstance(e, Mapping)
    )
    return Technology(
        **base,
        name_language=_str(raw.get("name_language")),
        level=_known_int(raw.get("level")),
        unlocks=_unlocks(raw.get("unlocks")),
        effects=effects,
    )


def _building(raw: Mapping[str, Any], base: dict[str, Any]) -> Building:
    terrains = known(raw.get("terrains"))
    limited = known(raw.get("limited", False))
    upgrade_of = known(raw.get("upgrade_of"))
    return Building(
        **base,
        terrains=terrains if isinstance(terrains, Unknown) else _ids(terrains),
        city_centre=raw.get("city_centre") is True,
        limited=limited if isinstance(limited, (bool, Unknown)) else False,
        upgrade_of=upgrade_of if isinstance(upgrade_of, (str, Unknown)) else None,
        cost=_known_int(raw.get("cost")),
        combat_bonus=_int(raw.get("combat_bonus")),
    )


def _strength(value: Any) -> tuple[int, int] | Unknown:
    value = known(value)
    if isinstance(value, Unknown):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("min"), int) and isinstance(value.get("max"), int):
        return (value["min"], value["max"])
    return Unknown("not given")


def _unit_type(raw: Mapping[str, Any], base: dict[str, Any]) -> UnitType:
    ranks = tuple(
        Rank(r["rank"], known(r.get("name", "")), _known_int(r.get("cost")), _strength(r.get("strength")), n)
        for n, r in enumerate(raw.get("ranks") or ())
        if isinstance(r, Mapping) and isinstance(r.get("rank"), int)
    )
    deck = known(raw.get("deck_size"))
    return UnitType(
        **base,
        available_at_start=raw.get("available_at_start") is True,
        trumps=_str(raw.get("trumps")),
        never_trumped=raw.get("never_trumped") is True,
        deck_size=deck if isinstance(deck, (int, Unknown)) else None,
        ranks=ranks,
    )


def _wonder(raw: Mapping[str, Any], base: dict[str, Any]) -> Wonder:
    era = known(raw.get("era"))
    d = raw.get("discount")
    discount = (
        Discount(d["cost"], d["technology"])
        if isinstance(d, Mapping) and isinstance(d.get("cost"), int) and isinstance(d.get("technology"), str)
        else None
    )
    return Wonder(
        **base,
        era=era if isinstance(era, (str, Unknown)) else Unknown("not given"),
        cost=_known_int(raw.get("cost")),
        discount=discount,
        research_discount=_int(raw.get("research_discount")),
    )


def _space(raw: Mapping[str, Any], base: dict[str, Any]) -> CultureSpace:
    cost = known(raw.get("cost"))
    deck = known(raw.get("deck"))
    return CultureSpace(
        **base,
        position=_int(raw.get("position")) or 0,
        kind=str(raw.get("kind", "")),
        cost=cost
        if isinstance(cost, Unknown)
        else (int(cost.get("culture", 0)), int(cost.get("trade", 0)))
        if isinstance(cost, Mapping)
        else Unknown("not given"),
        deck=deck if isinstance(deck, (str, Unknown)) else None,
    )


def _tile(raw: Mapping[str, Any], base: dict[str, Any]) -> Tile:
    civ = known(raw.get("civilization"))
    rows = raw.get("squares") or []
    return Tile(
        **base,
        civilization=civ if isinstance(civ, (str, Unknown)) else None,
        squares=tuple(tuple(str(s) for s in row) if isinstance(row, list) else () for row in rows),
    )


def _civilization(raw: Mapping[str, Any], base: dict[str, Any]) -> Civilization:
    tech = known(raw.get("starting_technology"))
    gov = known(raw.get("starting_government"))
    return Civilization(
        **base,
        starting_technology=tech if isinstance(tech, (str, Unknown)) else None,
        starting_government=gov if isinstance(gov, (str, Unknown)) else None,
    )


BUILDERS: Mapping[str, Callable[[Mapping[str, Any], dict[str, Any]], Entity]] = {
    "technologies": _technology,
    "terrains": lambda raw, base: Terrain(**base, water=raw.get("water") is True),
    "buildings": _building,
    "unit_types": _unit_type,
    "eras": lambda raw, base: Era(**base),
    "wonders": _wonder,
    "space_kinds": lambda raw, base: SpaceKind(**base),
    "spaces": _space,
    "decks": lambda raw, base: Deck(**base, cards=_known_int(raw.get("cards"))),
    "great_people": lambda raw, base: GreatPerson(
        **base,
        category=known(raw["category"]) if "category" in raw else None,
        combat_bonus=_int(raw.get("combat_bonus")),
    ),
    "tiles": _tile,
    "phases": lambda raw, base: Phase(**base, order=_int(raw.get("order")) or 0, allows=_ids(raw.get("allows"))),
    "governments": lambda raw, base: Government(
        **base,
        starting=raw.get("starting") is True,
        transitional=raw.get("transitional") is True,
        coins=_int(raw.get("coins")),
        battle_hand=_int(raw.get("battle_hand")),
        capital_action=raw["capital_action"] if isinstance(raw.get("capital_action"), bool) else None,
    ),
    "victories": lambda raw, base: Victory(
        **base,
        kind=str(raw.get("kind", "")),
        technology=_str(raw.get("technology")),
        coins=_int(raw.get("coins")),
        ends=str(raw.get("ends", "")),
    ),
    "resources": lambda raw, base: Resource(**base),
    "combat_bonuses": lambda raw, base: CombatBonus(
        **base,
        amount=_int(raw.get("amount")) or 0,
        per=_str(raw.get("per")),
        building=_str(raw.get("building")),
        situation=_str(raw.get("situation")),
    ),
    "city_actions": lambda raw, base: CityAction(
        **base,
        culture=_int(raw.get("culture")),
        per_culture_icon=_int(raw.get("per_culture_icon")),
        per_action=_int(raw.get("per_action")),
    ),
    "civilizations": _civilization,
    "huts": lambda raw, base: Marker(**base, count=_int(raw.get("count")) or 0),
    "villages_markers": lambda raw, base: Marker(**base, count=_int(raw.get("count")) or 0),
}


def _collection(resolved: Resolved, name: str) -> Collection[Any]:
    items: list[Entity] = []
    for entry in resolved.collections.get(name, []):
        raw = entry.raw
        base = {"id": raw["id"], "name": known(raw.get("name", raw["id"])), "origin": entry.origin, "raw": raw}
        items.append(BUILDERS[name](raw, base))
    return Collection.of(name, items)


def _assembled(name: str) -> Callable[[Resolved], Collection[Any]]:
    """The builder of the collection ``name``, which reads its entries alone: within a session's
    memo (:func:`~civrules.model.assembly.assembles`), a variant keeping its base's entries holds
    the base's very collection, so the checks made of it are run once for both."""

    @assembles(name)
    def build(resolved: Resolved) -> Collection[Any]:
        return _collection(resolved, name)

    return build


#: Each collection's builder (:func:`_assembled`), made once: the memo knows a builder by identity.
_ASSEMBLED = {name: _assembled(name) for name in BUILDERS}


def _defined_technologies(resolved: Resolved, technologies: Collection[Technology]) -> Collection[Technology]:
    """Each technology as the file that first defines it writes it (:attr:`CivilizationRuleset.
    defined_technologies`): the definition an entity's origin names (the earliest of those a
    `replace` took the place of), and that of each technology a variant removed."""
    if len(resolved.chain) < 2:
        return technologies
    origins = [entry.origin for entry in resolved.collections.get("technologies", [])]
    origins += [gone.base for gone in resolved.removed.get("technologies", {}).values() if gone.base is not None]
    defined: dict[str, Technology] = {}
    for origin in origins:
        first = origin.replaced[0] if origin.replaced else origin
        raw: Any = first.document.data
        for part in first.path:
            try:
                raw = raw[part]
            except (KeyError, IndexError, TypeError):
                raw = None
                break
        if isinstance(raw, Mapping) and isinstance(raw.get("id"), str) and raw["id"] not in defined:
            base = {
                "id": raw["id"],
                "name": known(raw.get("name", raw["id"])),
                "origin": Origin(first.document, first.path),
            }
            defined[raw["id"]] = _technology(raw, {**base, "raw": raw})
    return Collection.of("technologies", list(defined.values()))


def build_ruleset(resolved: Resolved) -> CivilizationRuleset:
    """The model of a resolved ruleset of this family (the family's ``assemble`` hook)."""
    data = resolved.data
    players = data.get("players") or {}
    collections: dict[str, Collection[Any]] = {name: _ASSEMBLED[name](resolved) for name in BUILDERS}
    return CivilizationRuleset(
        id=data["id"],
        name=data["name"],
        family=resolved.family.id,
        manifest=Origin(resolved.manifest, ()),
        extends=data.get("extends"),
        players=made_of(player_range, players),
        best_players=best_players(players),
        description=description_of(resolved.manifest),
        rule_index=made_of(rule_index_of, resolved.rule_index),
        draft=data.get("status") == "draft",
        documents=tuple({id(d): d for d in resolved.documents}.values()),
        settings=resolved.settings,
        removed={name: dict(ids) for name, ids in resolved.removed.items()},
        removed_settings=dict(resolved.removed_settings),
        chain=resolved.chain,
        data=resolved.data,
        setting_origins=dict(resolved.setting_origins),
        layers=dict(resolved.layers),
        names=dict(resolved.names),
        defined_technologies=_defined_technologies(resolved, collections["technologies"]),
        **collections,
    )


def levels_of(technologies: Sequence[Technology]) -> tuple[dict[int, int], int]:
    """How many technologies each known level holds, and how many have no known level."""
    counts: dict[int, int] = {}
    unknown = 0
    for tech in technologies:
        if isinstance(tech.level, int):
            counts[tech.level] = counts.get(tech.level, 0) + 1
        else:
            unknown += 1
    return counts, unknown
