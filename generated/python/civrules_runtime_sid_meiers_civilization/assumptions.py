"""Facts an engine supplies where the rule data has none, and the view of a package that uses them.

The base ruleset's sources leave most technologies' levels, many buildings' and wonders' costs, the
unit decks' sizes and some civilizations' starting technology and government unknown. An engine
that plays it anyway states what it assumes in an :class:`Assumptions` and asks the package for a
view, ``package.assuming(Assumptions(...))``: the view has every name of the package, its tables
with the assumed facts filled in, and helpers that use them. An assumption only ever fills a fact
the sources do not give (one the ruleset gives is an OutOfDomainError, never overridden), the view
names them (``ASSUMPTIONS``), and ``require_complete()`` still refuses a draft.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from civrules_runtime.assumed import AssumedView, fill
from civrules_runtime.errors import OutOfDomainError, shown, unknown_id
from civrules_runtime.protocol import AnyId

from . import logic
from .protocol import RulesetPackage
from .records import (
    Assumptions,
    BattleHand,
    Building,
    CityAction,
    Civilization,
    CombatBonus,
    CultureDeck,
    CultureSpace,
    Era,
    Government,
    GreatPerson,
    Marker,
    Phase,
    Pyramid,
    Research,
    Resource,
    SpaceKind,
    Technology,
    Terrain,
    Tile,
    UnitType,
    Unlocks,
    Victory,
    Wonder,
)
from .settings import Settings
from .vocab import DefenceName

TYPE_CHECKING = False


class AssumedPackage(AssumedView):
    """A view of a ruleset package with an engine's :class:`Assumptions` filled in: every name of
    the package, its tables changed only where a fact was unknown, its helpers using them.
    Satisfies :class:`RulesetPackage` (checked by the type checker: its members are declared)."""

    ASSUMPTIONS_TYPE = Assumptions

    @property
    def SETTINGS(self) -> Settings:  # noqa: N802 - the package's constant (the typed records)
        return self._package.SETTINGS

    if TYPE_CHECKING:  # the package's own, forwarded at run time by AssumedView.__getattr__
        TERRAINS: Mapping[str, Terrain]
        ERAS: Mapping[str, Era]
        SPACE_KINDS: Mapping[str, SpaceKind]
        CULTURE_SPACES: Mapping[str, CultureSpace]
        CULTURE_DECKS: Mapping[str, CultureDeck]
        GREAT_PEOPLE: Mapping[str, GreatPerson]
        TILES: Mapping[str, Tile]
        PHASES: Mapping[str, Phase]
        GOVERNMENTS: Mapping[str, Government]
        VICTORIES: Mapping[str, Victory]
        RESOURCES: Mapping[str, Resource]
        COMBAT_BONUSES: Mapping[str, CombatBonus]
        CITY_ACTIONS: Mapping[str, CityAction]
        HUTS: Mapping[str, Marker]
        VILLAGES: Mapping[str, Marker]
        RESEARCH: Research
        PYRAMID: Pyramid
        BATTLE_HAND: BattleHand

    def __init__(self, package: RulesetPackage, assumed: Assumptions) -> None:
        super().__init__(package, assumed)
        self._package: RulesetPackage = package
        self.ASSUMPTIONS: Assumptions = assumed
        for _, technology in assumed.starting_technologies:
            if not _has(package.TECHNOLOGIES, technology):
                raise unknown_id(technology, package.TECHNOLOGIES, "technology")
        for _, government in assumed.starting_governments:
            if not _has(package.GOVERNMENTS, government):
                raise unknown_id(government, package.GOVERNMENTS, "government")
        for _, era in assumed.wonder_eras:
            if not isinstance(era, str) or (era not in package.ERAS and "ERAS" not in package.UNKNOWN_COLLECTIONS):
                raise unknown_id(era, package.ERAS, "era")
        top = package.PYRAMID.levels
        for technology, level in assumed.technology_levels:
            if top is not None and level > top:
                raise OutOfDomainError(
                    f"technology_levels[{shown(technology)}]={level} is outside the pyramid of this ruleset: 1 to {top}"
                )
        self.TECHNOLOGIES: Mapping[str, Technology] = fill(
            package.TECHNOLOGIES, assumed.technology_levels, "level", "technology"
        )
        self.BUILDINGS: Mapping[str, Building] = fill(package.BUILDINGS, assumed.building_costs, "cost", "building")
        wonders = fill(package.WONDERS, assumed.wonder_costs, "cost", "wonder")
        self.WONDERS: Mapping[str, Wonder] = fill(wonders, assumed.wonder_eras, "era", "wonder")
        self.UNIT_TYPES: Mapping[str, UnitType] = fill(
            package.UNIT_TYPES, assumed.unit_deck_sizes, "deck_size", "unit type"
        )
        civilizations = fill(
            package.CIVILIZATIONS, assumed.starting_technologies, "starting_technology", "civilization"
        )
        self.CIVILIZATIONS: Mapping[str, Civilization] = fill(
            civilizations, assumed.starting_governments, "starting_government", "civilization"
        )

    # The helpers, over the view's tables (the package's own for what nothing was assumed about).

    def research_cost(self, level: int, wonders: Iterable[AnyId] = ()) -> int:
        return logic.research_cost(self._package.RESEARCH, self.WONDERS, level, wonders)

    def trade_after_research(self, level: int, trade: int, coins: int = 0, wonders: Iterable[AnyId] = ()) -> int:
        p = self._package
        return logic.trade_after_research(p.RESEARCH, self.WONDERS, level, trade, coins, wonders, p.SETTINGS)

    def may_place_technology(self, pyramid: Iterable[AnyId], technology: AnyId, starting: AnyId | None = None) -> bool:
        return logic.may_place_technology(self.TECHNOLOGIES, self._package.PYRAMID, pyramid, technology, starting)

    def pyramid_needs(self, pyramid: Iterable[AnyId], starting: AnyId | None = None) -> Mapping[int, int]:
        return logic.pyramid_needs(self.TECHNOLOGIES, self._package.PYRAMID, pyramid, starting)

    def unit_cost(self, unit: AnyId, rank: int) -> int:
        return logic.unit_cost(self.UNIT_TYPES, unit, rank)

    def may_stand_on(self, building: AnyId, terrain: AnyId) -> bool:
        return logic.may_stand_on(self.BUILDINGS, self._package.TERRAINS, building, terrain)

    def upgrade_of(self, building: AnyId) -> str | None:
        return logic.upgrade_of(self.BUILDINGS, self._package.UNKNOWN_FACTS, building)

    def battle_hand_size(
        self,
        figures: int,
        government: AnyId | None = None,
        defending_city: bool = False,
        *,
        technologies: Iterable[AnyId] = (),
    ) -> int:
        return self._package.battle_hand_size(figures, government, defending_city, technologies=technologies)

    def combat_bonus(
        self,
        buildings: Mapping[str, int] | None = None,
        generals: int = 0,
        defending: DefenceName | None = None,
        walled: bool = False,
    ) -> int:
        return self._package.combat_bonus(buildings, generals, defending, walled)

    def wonder_cost(self, wonder: AnyId, technologies: Iterable[AnyId] = ()) -> int:
        return logic.wonder_cost(self.WONDERS, self.TECHNOLOGIES, wonder, technologies)

    def victories_met(
        self,
        technologies: Iterable[AnyId] = (),
        coins: int = 0,
        culture_space: int | None = None,
        captured_capital: bool = False,
    ) -> tuple[str, ...]:
        return self._package.victories_met(technologies, coins, culture_space, captured_capital)

    def unlocks_of(self, technology: AnyId) -> Unlocks:
        return logic.unlocks_of(self.TECHNOLOGIES, technology)

    def unlocked_by(self, item: str) -> tuple[str, ...]:
        p = self._package
        return logic.unlocked_by(self.TECHNOLOGIES, item, self.BUILDINGS, self.UNIT_TYPES, p.GOVERNMENTS, self.WONDERS)

    def assuming(self, assumptions: Assumptions) -> RulesetPackage:
        """A view with other assumptions (of the same package: they do not add up)."""
        return self._package.assuming(assumptions)


def _has(table: Mapping[str, object], key: str) -> bool:
    """Does ``table`` have ``key``, an assumed id (an id of the wrong type, unhashable too, is none)?"""
    return isinstance(key, str) and key in table


def assuming(package: RulesetPackage, assumptions: Assumptions) -> RulesetPackage:
    """``package`` as an engine that assumes ``assumptions`` sees it (see :class:`AssumedPackage`)."""
    view: RulesetPackage = AssumedPackage(package, assumptions)
    return view


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a view's class by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
