# ruff: noqa: N802 - the protocol names the packages' constants, which are upper case
"""The public names every generated package of the Sid Meier's Civilization family has, as a protocol.

A module satisfies a protocol (PEP 544): an engine function typed ``def f(rules: RulesetPackage)``
accepts ``sid_meiers_civilization``, ``sid_meiers_civilization_community`` or any other package of
the family, with full static typing, and runs unchanged on each; where a ruleset lacks a fact it
raises UnknownFactError. It extends the protocol every family's packages share
(``civrules_runtime.protocol.RulesetPackageBase``: identity, completeness, ids, settings, sources).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from civrules_runtime.protocol import AnyId, RulesetPackageBase

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


class RulesetPackage(RulesetPackageBase, Protocol):
    """What an engine may rely on in every generated package of the family (its `__all__`)."""

    @property
    def SETTINGS(self) -> Settings: ...  # the shared protocol\'s Mapping[str, object], typed
    @property
    def TECHNOLOGIES(self) -> Mapping[str, Technology]: ...
    @property
    def TERRAINS(self) -> Mapping[str, Terrain]: ...
    @property
    def BUILDINGS(self) -> Mapping[str, Building]: ...
    @property
    def UNIT_TYPES(self) -> Mapping[str, UnitType]: ...
    @property
    def ERAS(self) -> Mapping[str, Era]: ...
    @property
    def WONDERS(self) -> Mapping[str, Wonder]: ...
    @property
    def SPACE_KINDS(self) -> Mapping[str, SpaceKind]: ...
    @property
    def CULTURE_SPACES(self) -> Mapping[str, CultureSpace]: ...
    @property
    def CULTURE_DECKS(self) -> Mapping[str, CultureDeck]: ...
    @property
    def GREAT_PEOPLE(self) -> Mapping[str, GreatPerson]: ...
    @property
    def TILES(self) -> Mapping[str, Tile]: ...
    @property
    def PHASES(self) -> Mapping[str, Phase]: ...
    @property
    def GOVERNMENTS(self) -> Mapping[str, Government]: ...
    @property
    def VICTORIES(self) -> Mapping[str, Victory]: ...
    @property
    def RESOURCES(self) -> Mapping[str, Resource]: ...
    @property
    def COMBAT_BONUSES(self) -> Mapping[str, CombatBonus]: ...
    @property
    def CITY_ACTIONS(self) -> Mapping[str, CityAction]: ...
    @property
    def CIVILIZATIONS(self) -> Mapping[str, Civilization]: ...
    @property
    def HUTS(self) -> Mapping[str, Marker]: ...
    @property
    def VILLAGES(self) -> Mapping[str, Marker]: ...
    @property
    def RESEARCH(self) -> Research: ...
    @property
    def PYRAMID(self) -> Pyramid: ...
    @property
    def BATTLE_HAND(self) -> BattleHand: ...

    def research_cost(self, level: int, wonders: Iterable[AnyId] = ()) -> int: ...
    def trade_after_research(self, level: int, trade: int, coins: int = 0, wonders: Iterable[AnyId] = ()) -> int: ...
    def may_place_technology(
        self, pyramid: Iterable[AnyId], technology: AnyId, starting: AnyId | None = None
    ) -> bool: ...
    def pyramid_needs(self, pyramid: Iterable[AnyId], starting: AnyId | None = None) -> Mapping[int, int]: ...
    def unit_cost(self, unit: AnyId, rank: int) -> int: ...
    def may_stand_on(self, building: AnyId, terrain: AnyId) -> bool: ...
    def upgrade_of(self, building: AnyId) -> str | None: ...
    def battle_hand_size(
        self,
        figures: int,
        government: AnyId | None = None,
        defending_city: bool = False,
        *,
        technologies: Iterable[AnyId] = (),
    ) -> int: ...
    def combat_bonus(
        self,
        buildings: Mapping[str, int] | None = None,
        generals: int = 0,
        defending: DefenceName | None = None,
        walled: bool = False,
    ) -> int: ...
    def wonder_cost(self, wonder: AnyId, technologies: Iterable[AnyId] = ()) -> int: ...
    def victories_met(
        self,
        technologies: Iterable[AnyId] = (),
        coins: int = 0,
        culture_space: int | None = None,
        captured_capital: bool = False,
    ) -> tuple[str, ...]: ...
    def unlocks_of(self, technology: AnyId) -> Unlocks: ...
    def unlocked_by(self, item: AnyId) -> tuple[str, ...]: ...
    def assuming(self, assumptions: Assumptions) -> RulesetPackage: ...
