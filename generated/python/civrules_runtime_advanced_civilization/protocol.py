# ruff: noqa: N802 - the protocol names the packages' constants, which are upper case
"""The public names every generated package of the Advanced Civilization family has, as a protocol.

A module satisfies a protocol (PEP 544): an engine function typed ``def f(rules: RulesetPackage)``
accepts ``advanced_civilization``, ``expansion_project`` or any other package of the family, with
full static typing, and runs unchanged on each; where a ruleset lacks a fact it raises
UnknownFactError. It extends the protocol every family's packages share
(``civrules_runtime.protocol.RulesetPackageBase``: identity, completeness, ids, settings, sources).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from typing import Protocol

from civrules_runtime.protocol import AnyId, RulesetPackageBase

from .records import Area as AreaRecord
from .records import (
    Assumptions,
    AstTrack,
    BlockBonus,
    Border,
    Calamity,
    CalamityAmount,
    CalamityEffect,
    CalamityImmunity,
    CalamityModifier,
    Card,
    Combination,
    Commodity,
    Deck,
    DeckBand,
    Effect,
    Epoch,
    Group,
    HandLimit,
    Nation,
    Phase,
    PlayerCount,
    Region,
    ScoringItem,
    StackSetupStep,
    Taxation,
    TradeStack,
)
from .settings import Settings
from .vocab import AdjacencyName, BlockName, EffectKindName, MapRegionName, RoleName


class RulesetPackage(RulesetPackageBase, Protocol):
    """What an engine may rely on in every generated package (its `__all__`)."""

    @property
    def SETTINGS(self) -> Settings: ...  # the shared protocol\'s Mapping[str, object], typed
    @property
    def GROUPS(self) -> Mapping[str, Group]: ...
    @property
    def CARDS(self) -> Mapping[str, Card]: ...
    @property
    def CREDIT_MATRIX(self) -> Mapping[str, Mapping[str, int]]: ...
    @property
    def COMMODITIES(self) -> Mapping[str, Commodity]: ...
    @property
    def SET_VALUE_FORMULA(self) -> str | None: ...
    @property
    def MINING_EXTRA_CARDS(self) -> int: ...
    @property
    def CALAMITIES(self) -> Mapping[str, Calamity]: ...
    @property
    def CALAMITY_ORDER(self) -> tuple[str, ...]: ...
    @property
    def CALAMITY_EFFECTS(self) -> Mapping[str, tuple[CalamityEffect, ...] | None]: ...
    @property
    def CALAMITY_MODIFIERS(self) -> Mapping[str, tuple[CalamityModifier, ...] | None]: ...
    @property
    def CALAMITY_COMBINATIONS(self) -> Mapping[str, Combination]: ...
    @property
    def CALAMITY_IMMUNITIES(self) -> Mapping[str, tuple[CalamityImmunity, ...] | None]: ...
    @property
    def TRADE_STACKS(self) -> tuple[TradeStack, ...]: ...
    @property
    def STACK_SETUP(self) -> tuple[StackSetupStep, ...]: ...
    @property
    def DECK_COMPOSITIONS(self) -> tuple[DeckBand, ...]: ...
    @property
    def BLOCK_BONUSES(self) -> tuple[BlockBonus, ...]: ...
    @property
    def NATIONS(self) -> Mapping[str, Nation]: ...
    @property
    def AST_LEVELS(self) -> tuple[str, ...]: ...
    @property
    def EPOCHS(self) -> Mapping[str, Epoch]: ...
    @property
    def AST_TRACKS(self) -> Mapping[str, Mapping[str, AstTrack]]: ...
    @property
    def PHASES(self) -> Mapping[str, Phase]: ...
    @property
    def PHASE_ORDER(self) -> tuple[str, ...]: ...
    @property
    def PLAYER_COUNTS(self) -> Mapping[int, PlayerCount]: ...
    @property
    def AREAS(self) -> Mapping[str, AreaRecord]: ...
    @property
    def BORDERS(self) -> tuple[Border, ...]: ...
    @property
    def ADJACENCY(self) -> Mapping[str, Mapping[str, frozenset[str]]]: ...
    @property
    def FLOOD_PLAINS(self) -> Mapping[str, Region]: ...
    @property
    def VOLCANOES(self) -> Mapping[str, Region]: ...
    @property
    def HAND_LIMIT(self) -> HandLimit | None: ...
    @property
    def TAXATION(self) -> Taxation | None: ...
    @property
    def SCORING(self) -> tuple[ScoringItem, ...] | None: ...
    @property
    def UNKNOWN_COLLECTIONS(self) -> frozenset[str]: ...

    def credit_toward(self, owned: Iterable[AnyId], target: AnyId) -> int: ...
    def purchase_cost(self, owned: Iterable[AnyId], target: AnyId) -> int: ...
    def set_value(
        self,
        good: AnyId,
        n: int,
        *,
        mining: bool = False,
        players: int | None = None,
        redeemed_in: BlockName | None = None,
        drawn_in: BlockName | None = None,
    ) -> int: ...
    def decks_for(self, players: int, region: MapRegionName | None = None) -> tuple[Deck, ...]: ...
    def calamity_resolution_order(self, calamities: Iterable[AnyId], players: int | None = None) -> tuple[str, ...]: ...
    def neighbours(self, area: AnyId, kind: AdjacencyName = "all") -> frozenset[str]: ...
    def calamity_amount(
        self,
        calamity: AnyId,
        effect: AnyId,
        held: Iterable[AnyId],
        role: RoleName,
        commodities: Mapping[str, int] | None = None,
        nation: AnyId | None = None,
    ) -> CalamityAmount: ...
    def effects_held(self, held: Iterable[AnyId], kind: EffectKindName | None = None) -> tuple[Effect, ...]: ...
    def hand_limit(self, held: Iterable[AnyId], players: int | None = None) -> int: ...
    def tax_rates(self, held: Iterable[AnyId]) -> tuple[int, ...]: ...
    def can_enter_epoch(
        self,
        epoch: AnyId,
        cities: int,
        held: Iterable[AnyId],
        nation: AnyId | None = None,
        level: AnyId | None = None,
    ) -> bool: ...
    def can_enter_space(
        self, nation: AnyId, space: int, cities: int, held: Iterable[AnyId], level: AnyId | None = None
    ) -> bool: ...
    def trade_problems(self, given: Iterable[AnyId], stated_count: int, named: Iterable[AnyId]) -> tuple[str, ...]: ...
    def secondary_losses(
        self,
        calamity: AnyId,
        effect: AnyId,
        allotment: Mapping[str, int],
        held: Mapping[str, Iterable[AnyId]] | None = None,
        *,
        traded_by: str | None = None,
        nations: Mapping[str, AnyId] | None = None,
    ) -> Mapping[str, int]: ...
    def calamities_suffered(
        self, received: Iterable[AnyId], *, rng: Random | None = None, stoic: bool = False, players: int | None = None
    ) -> tuple[str, ...]: ...
    def ship_range(self, held: Iterable[AnyId]) -> int: ...
    def unit_points(self, cities: int = 0, tokens: int = 0) -> int: ...
    def reduction_points(self, tokens_left: int) -> int: ...
    def finish_space(self, nation: AnyId, level: AnyId | None = None) -> int: ...
    def has_finished(self, nation: AnyId, space: int, level: AnyId | None = None) -> bool: ...
    def assuming(self, assumptions: Assumptions) -> RulesetPackage: ...
