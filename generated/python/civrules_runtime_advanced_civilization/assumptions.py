"""Facts an engine supplies where the rule data has none, and the view of a package that uses them.

A draft ruleset (``DRAFT``) lacks facts a game needs: the costs of the Expansion Project's
advancements, the length of an A.S.T. track, the ship range of a game whose rulebook does not say.
An engine that plays it anyway states what it assumes in an :class:`Assumptions` and asks the
package for a view, ``package.assuming(Assumptions(...))``: the view has every name of the
package, its tables with the assumed facts filled in, and helpers that use them. An assumption
only ever fills a fact the sources do not give (one the ruleset gives is an error, never
overridden), the view names them (``ASSUMPTIONS``), and ``require_complete()`` still refuses a
draft: assumed facts are not the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from types import MappingProxyType

from civrules_runtime.assumed import AssumedView, given
from civrules_runtime.errors import UnknownFactError, unknown_id
from civrules_runtime.protocol import AnyId
from civrules_runtime.records import data_maker

from . import logic
from .protocol import RulesetPackage
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

TYPE_CHECKING = False


#: The records an engine's assumptions fill in, made without a call's checks: each field is the
#: package's (checked when it was built) or an assumption's (checked when the Assumptions were made).
_made_card = data_maker(Card)
_made_track = data_maker(AstTrack)
_made_hand_limit = data_maker(HandLimit)
_made_taxation = data_maker(Taxation)


def _card(card: Card, cost: int) -> Card:
    if card.cost is not None:
        raise given(f"the cost of {card.id}")
    return _made_card(
        card.id, card.name, card.groups, cost, card.prerequisites, card.credits, card.victory_points,
        card.attributes, card.purchase_effects, card.rules,
    )  # fmt: skip


def _commodity(good: Commodity, value: int | None, count: int | None) -> Commodity:
    if value is not None and good.value is not None:
        raise given(f"the value of {good.id}")
    if count is not None and good.count is not None:
        raise given(f"the count of {good.id}")
    # every other field kept (a Mega Civilization good's block_counts, an inferred value's mark)
    return good.replace(value=good.value if value is None else value, count=good.count if count is None else count)


def _phase(phase: Phase, assumed: Assumptions) -> Phase:
    fields = {}
    for name in ("min_trade_cards", "named_trade_cards", "max_primary_calamities", "unit_points", "ship_moves"):
        value = getattr(assumed, name)
        if value is None or name not in _PHASE_OF or _PHASE_OF[name] != phase.id:
            fields[name] = getattr(phase, name)
        elif getattr(phase, name) is not None:
            raise given(f"the {phase.id} phase's {name}")
        else:
            fields[name] = value
    # every other field kept (its sub-activities, the card whose holders act last, a limit's parts)
    return phase.replace(**fields)


#: The phase whose rule each phase assumption is.
_PHASE_OF = {
    "min_trade_cards": "trade",
    "named_trade_cards": "trade",
    "max_primary_calamities": "resolution_of_calamities",
    "unit_points": "resolution_of_calamities",
    "ship_moves": "movement",
}


class AssumedPackage(AssumedView):
    """A view of a ruleset package with an engine's :class:`Assumptions` filled in: every name of
    the package, its tables changed only where a fact was unknown, its helpers using them.
    Satisfies :class:`RulesetPackage` (checked by the type checker: its members are declared)."""

    ASSUMPTIONS_TYPE = Assumptions
    _overlay_collections = logic.OVERLAY_COLLECTIONS

    @property
    def SETTINGS(self) -> Settings:  # noqa: N802 - the package's constant (the typed records)
        return self._package.SETTINGS

    if TYPE_CHECKING:  # the package's own, forwarded at run time by AssumedView.__getattr__
        GROUPS: Mapping[str, Group]
        CREDIT_MATRIX: Mapping[str, Mapping[str, int]]
        SET_VALUE_FORMULA: str | None
        MINING_EXTRA_CARDS: int
        CALAMITIES: Mapping[str, Calamity]
        CALAMITY_ORDER: tuple[str, ...]
        CALAMITY_EFFECTS: Mapping[str, tuple[CalamityEffect, ...] | None]
        CALAMITY_MODIFIERS: Mapping[str, tuple[CalamityModifier, ...] | None]
        CALAMITY_COMBINATIONS: Mapping[str, Combination]
        CALAMITY_IMMUNITIES: Mapping[str, tuple[CalamityImmunity, ...] | None]
        TRADE_STACKS: tuple[TradeStack, ...]
        STACK_SETUP: tuple[StackSetupStep, ...]
        DECK_COMPOSITIONS: tuple[DeckBand, ...]
        BLOCK_BONUSES: tuple[BlockBonus, ...]
        NATIONS: Mapping[str, Nation]
        AST_LEVELS: tuple[str, ...]
        EPOCHS: Mapping[str, Epoch]
        PHASE_ORDER: tuple[str, ...]
        PLAYER_COUNTS: Mapping[int, PlayerCount]
        AREAS: Mapping[str, AreaRecord]
        BORDERS: tuple[Border, ...]
        ADJACENCY: Mapping[str, Mapping[str, frozenset[str]]]
        FLOOD_PLAINS: Mapping[str, Region]
        VOLCANOES: Mapping[str, Region]
        SCORING: tuple[ScoringItem, ...] | None

    def __init__(self, package: RulesetPackage, assumed: Assumptions) -> None:
        super().__init__(package, assumed)
        self._package: RulesetPackage = package
        self.ASSUMPTIONS: Assumptions = assumed
        cards = dict(package.CARDS)
        for card, cost in assumed.card_costs:
            if card not in cards:
                raise unknown_id(card, package.CARDS, "civilization card")
            cards[card] = _card(cards[card], cost)
        goods = dict(package.COMMODITIES)
        values, counts = dict(assumed.commodity_values), dict(assumed.commodity_counts)
        for good in {*values, *counts}:
            if good not in goods:
                raise unknown_id(good, package.COMMODITIES, "commodity")
            goods[good] = _commodity(goods[good], values.get(good), counts.get(good))
        tracks = {nation: dict(levels) for nation, levels in package.AST_TRACKS.items()}
        for nation, spaces in assumed.track_spaces:
            if nation not in package.NATIONS:
                raise unknown_id(nation, package.NATIONS, "nation")
            by_level = tracks.setdefault(nation, {})
            for level in package.AST_LEVELS:
                track = by_level.get(level)
                if track is not None and track.spaces is not None:
                    raise given(f"the length of the A.S.T. track of {nation}")
                by_level[level] = _made_track(
                    nation, level, spaces, None if track is None else track.epoch_starts,
                    None if track is None else track.space_values,
                )  # fmt: skip
        for name, phase in _PHASE_OF.items():
            if getattr(assumed, name) is not None and phase not in package.PHASES:
                raise UnknownFactError(f"this ruleset has no {phase} phase for the assumed {name}")
        limit, tax = package.HAND_LIMIT, package.TAXATION
        if assumed.hand_limit is not None:
            if limit is not None and (limit.commodity_cards is not None or limit.by_players):
                raise given("the hand limit")
            limit = _made_hand_limit(
                assumed.hand_limit, () if limit is None else limit.card_changes,
                False if limit is None else limit.cumulative, () if limit is None else limit.rules,
            )  # fmt: skip
        if assumed.tokens_per_city is not None:
            if tax is not None and tax.tokens_per_city is not None:
                raise given("the tax rate")
            tax = _made_taxation(
                assumed.tokens_per_city, () if tax is None else tax.rate_changes,
                False if tax is None else tax.cumulative, () if tax is None else tax.revolt_immune_cards,
                () if tax is None else tax.rules,
            )  # fmt: skip
        self.CARDS: Mapping[str, Card] = MappingProxyType(cards)
        self.COMMODITIES: Mapping[str, Commodity] = MappingProxyType(goods)
        self.AST_TRACKS: Mapping[str, Mapping[str, AstTrack]] = MappingProxyType(
            {n: MappingProxyType(levels) for n, levels in tracks.items()}
        )
        self.PHASES: Mapping[str, Phase] = MappingProxyType(
            {p: _phase(record, assumed) for p, record in package.PHASES.items()}
        )
        self.HAND_LIMIT: HandLimit | None = limit
        self.TAXATION: Taxation | None = tax

    # The helpers, over the view's tables (the package's own for what nothing was assumed about).

    def credit_toward(self, owned: Iterable[AnyId], target: AnyId) -> int:
        return self._package.credit_toward(owned, target)

    def decks_for(self, players: int, region: MapRegionName | None = None) -> tuple[Deck, ...]:
        return self._package.decks_for(players, region)

    def calamity_resolution_order(self, calamities: Iterable[AnyId], players: int | None = None) -> tuple[str, ...]:
        return self._package.calamity_resolution_order(calamities, players)

    def neighbours(self, area: AnyId, kind: AdjacencyName = "all") -> frozenset[str]:
        return self._package.neighbours(area, kind)

    def purchase_cost(self, owned: Iterable[str], target: str) -> int:
        return logic.purchase_cost(self.CARDS, self._package.CREDIT_MATRIX, owned, target)

    def set_value(
        self,
        good: str,
        n: int,
        *,
        mining: bool = False,
        players: int | None = None,
        redeemed_in: BlockName | None = None,
        drawn_in: BlockName | None = None,
    ) -> int:
        p = self._package
        return logic.set_value(
            self.COMMODITIES, p.BLOCK_BONUSES, p.SET_VALUE_FORMULA, p.MINING_EXTRA_CARDS, good, n, mining, players,
            redeemed_in, drawn_in, p.PLAYER_COUNTS, p.DECK_COMPOSITIONS,
        )  # fmt: skip

    def calamity_amount(
        self,
        calamity: str,
        effect: str,
        held: Iterable[str],
        role: RoleName,
        commodities: Mapping[str, int] | None = None,
        nation: str | None = None,
    ) -> CalamityAmount:
        p = self._package
        return logic.calamity_amount(
            p.CALAMITY_EFFECTS, p.CALAMITY_MODIFIERS, p.CALAMITY_COMBINATIONS, p.CALAMITY_IMMUNITIES, self.CARDS,
            p.NATIONS, self.COMMODITIES,
            calamity, effect, held, role, commodities, nation, p.UNKNOWN_FACTS,
        )  # fmt: skip

    def effects_held(self, held: Iterable[str], kind: EffectKindName | None = None) -> tuple[Effect, ...]:
        return logic.effects_held(self.CARDS, held, kind)

    def hand_limit(self, held: Iterable[str], players: int | None = None) -> int:
        return logic.hand_limit(self.HAND_LIMIT, self.CARDS, held, players, self._package.PLAYER_COUNTS)

    def tax_rates(self, held: Iterable[str]) -> tuple[int, ...]:
        return logic.tax_rates(self.TAXATION, self.CARDS, held)

    def can_enter_epoch(
        self, epoch: str, cities: int, held: Iterable[str], nation: str | None = None, level: str | None = None
    ) -> bool:
        p = self._package
        return logic.can_enter_epoch(
            p.EPOCHS, self.CARDS, self.AST_TRACKS, p.NATIONS, len(p.GROUPS), p.AST_LEVELS, epoch, cities, held,
            nation, level, p.SETTINGS,
        )  # fmt: skip

    def can_enter_space(
        self, nation: str, space: int, cities: int, held: Iterable[str], level: str | None = None
    ) -> bool:
        p = self._package
        return logic.can_enter_space(
            p.EPOCHS, self.CARDS, self.AST_TRACKS, p.NATIONS, len(p.GROUPS), p.AST_LEVELS, nation, space, cities,
            held, level, p.SETTINGS,
        )  # fmt: skip

    def trade_problems(self, given: Iterable[str], stated_count: int, named: Iterable[str]) -> tuple[str, ...]:
        p = self._package
        return logic.trade_problems(self.PHASES, self.COMMODITIES, p.CALAMITIES, self.CARDS, given, stated_count, named)

    def secondary_losses(
        self,
        calamity: str,
        effect: str,
        allotment: Mapping[str, int],
        held: Mapping[str, Iterable[str]] | None = None,
        *,
        traded_by: str | None = None,
        nations: Mapping[str, str] | None = None,
    ) -> Mapping[str, int]:
        p = self._package
        return logic.secondary_losses(
            p.CALAMITY_EFFECTS, p.CALAMITY_MODIFIERS, p.CALAMITY_COMBINATIONS, p.CALAMITY_IMMUNITIES, self.CARDS,
            p.NATIONS, self.COMMODITIES,
            calamity, effect, allotment, held, traded_by, nations, p.CALAMITIES,
        )  # fmt: skip

    def calamities_suffered(
        self, received: Iterable[str], *, rng: Random | None = None, stoic: bool = False, players: int | None = None
    ) -> tuple[str, ...]:
        p = self._package
        return logic.calamities_suffered(
            self.PHASES, p.CALAMITY_ORDER, received, rng, stoic, p.CALAMITIES, players, p.PLAYER_COUNTS
        )

    def ship_range(self, held: Iterable[str]) -> int:
        return logic.ship_range(self.PHASES, self.CARDS, held)

    def unit_points(self, cities: int = 0, tokens: int = 0) -> int:
        return logic.unit_points(self.PHASES, cities, tokens)

    def reduction_points(self, tokens_left: int) -> int:
        return logic.reduction_points(self.PHASES, tokens_left)

    def finish_space(self, nation: str, level: str | None = None) -> int:
        p = self._package
        return logic.finish_space(p.SETTINGS, self.AST_TRACKS, p.NATIONS, p.AST_LEVELS, nation, level)

    def has_finished(self, nation: str, space: int, level: str | None = None) -> bool:
        p = self._package
        return logic.has_finished(p.SETTINGS, self.AST_TRACKS, p.NATIONS, p.AST_LEVELS, nation, space, level)

    def assuming(self, assumptions: Assumptions) -> RulesetPackage:
        """A view with other assumptions (of the same package: they do not add up)."""
        return self._package.assuming(assumptions)


def assuming(package: RulesetPackage, assumptions: Assumptions) -> RulesetPackage:
    """``package`` as an engine that assumes ``assumptions`` sees it (see :class:`AssumedPackage`)."""
    view: RulesetPackage = AssumedPackage(package, assumptions)
    return view


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(
    (
        "OutOfDomainError",
        "UnknownIdError",
    )
)

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a view's class by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
