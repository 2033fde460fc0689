# ruff: noqa: N802 - the protocol names the packages' constants, which are upper case
"""The public names every generated package of the Imperial Settlers family has, as a protocol.

A module satisfies a protocol (PEP 544): an engine function typed ``def f(rules: RulesetPackage)``
accepts ``imperial_settlers``, ``imperial_settlers_peaceful`` or any other package of the family,
with full static typing; where a ruleset lacks a fact it raises UnknownFactError. It extends the
protocol every family's packages share (``civrules_runtime.protocol.RulesetPackageBase``).
"""

from __future__ import annotations

from typing import Protocol

from civrules_runtime.protocol import RulesetPackageBase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from civrules_runtime.protocol import AnyId

    from .records import (
        Action,
        Assumptions,
        Card,
        CardPart,
        Colour,
        Component,
        Deck,
        DeckRule,
        Faction,
        GeneralRule,
        Good,
        LocationRow,
        Phase,
        Scoring,
        SoloLevel,
    )
    from .settings import Settings
    from .vocab import RazeTargetName


class RulesetPackage(RulesetPackageBase, Protocol):
    """What an engine may rely on in every generated package of the family (its `__all__`)."""

    @property
    def SETTINGS(self) -> Settings: ...  # the shared protocol\'s Mapping[str, object], typed
    @property
    def CARDS(self) -> Mapping[str, Card]: ...
    @property
    def FACTIONS(self) -> Mapping[str, Faction]: ...
    @property
    def DECKS(self) -> Mapping[str, Deck]: ...
    @property
    def DECK_CARDS(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def GOODS(self) -> Mapping[str, Good]: ...
    @property
    def ACTIONS(self) -> Mapping[str, Action]: ...
    @property
    def PHASES(self) -> Mapping[str, Phase]: ...
    @property
    def PHASE_ORDER(self) -> tuple[str, ...]: ...
    @property
    def ROUNDS(self) -> int | None: ...
    @property
    def SCORING(self) -> Scoring | None: ...
    @property
    def SOLO_ACHIEVEMENTS(self) -> tuple[SoloLevel, ...] | None: ...
    @property
    def DECK_RULE(self) -> DeckRule | None: ...
    @property
    def COLOURS(self) -> Mapping[str, Colour]: ...
    @property
    def LOCATION_KINDS(self) -> Mapping[str, LocationRow]: ...
    @property
    def CARD_ANATOMY(self) -> Mapping[str, CardPart]: ...
    @property
    def COMPONENTS(self) -> Mapping[str, Component]: ...
    @property
    def GENERAL_RULES(self) -> Mapping[str, GeneralRule]: ...
    @property
    def STARTING_HAND(self) -> Mapping[str, int]: ...

    def deck(self, deck: AnyId) -> tuple[str, ...]: ...
    def card_of(self, printed_id: str) -> Card: ...
    def can_pay(self, card: AnyId, goods: Mapping[str, int] | Iterable[str]) -> bool: ...
    def missing_to_pay(self, card: AnyId, goods: Mapping[str, int] | Iterable[str]) -> Mapping[str, int]: ...
    def raze_price(self, target: RazeTargetName, defence: int = 0, samurai: int = 0) -> int: ...
    def worker_exchange(self, workers: int) -> int: ...
    def production(
        self, faction: AnyId, deals: Iterable[AnyId] = (), locations: Iterable[AnyId] = (), samurai: int = 0
    ) -> Mapping[str, int]: ...
    def build_gains(
        self, faction: AnyId, card: AnyId, locations: Iterable[AnyId] = (), samurai: int = 0
    ) -> Mapping[str, int]: ...
    def build_samurai(self, faction: AnyId, card: AnyId, locations: Iterable[AnyId] = (), samurai: int = 0) -> int: ...
    def board_score(self, common_locations: int, faction_locations: int, vp: int = 0) -> int: ...
    def solo_achievement(self, score: int) -> SoloLevel: ...
    def assuming(self, assumptions: Assumptions) -> RulesetPackage: ...
