"""The records and vocabularies of every ruleset package (frozen, slotted dataclasses; string enums).

Ids of a ruleset's own collections (cards, goods, calamities, nations, areas ...) are plain ``str``
here: each package's id enums (``CardId`` ...) are ``StrEnum``s, so their members are those
strings, and one engine function can read any ruleset's records. A field that is None holds a
fact the sources do not give.
"""

from dataclasses import dataclass
from typing import ClassVar, TypeAlias  # dataclasses imports typing anyway: no extra import time

from .vocab import (
    AbilityAction,
    AbilityPhase,
    Activity,
    AppliesTo,
    Block,
    BorderKind,
    CombinationMode,
    ConflictAspect,
    EffectKind,
    Goods,
    GroupId,
    ImmunityAgainst,
    LinkEffect,
    MapRegion,
    ModifierEffect,
    MovementUnits,
    PopulationWhere,
    PurchaseKind,
    Role,
    Severity,
    Targets,
    TokenColours,
    TreasuryShare,
    TurnPosition,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


# --- Card abilities ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Immunity:
    """The holder is not affected by tax revolts, by attacks of players without ``unless_holding``,
    or by the ability of the card ``card``."""

    kind: ClassVar[EffectKind] = EffectKind.IMMUNITY
    against: ImmunityAgainst = ImmunityAgainst.CARD_ABILITY
    card: str | None = None
    targets: Targets | None = None
    unless_holding: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Movement:
    """The holder's ships' or tokens' range (absolute or a change), open sea, ship capacity."""

    kind: ClassVar[EffectKind] = EffectKind.MOVEMENT
    units: MovementUnits = MovementUnits.SHIPS
    range: int | None = None
    range_change: int | None = None
    open_sea: bool = False
    capacity_change: int | None = None


@dataclass(frozen=True, slots=True)
class PopulationLimit:
    kind: ClassVar[EffectKind] = EffectKind.POPULATION_LIMIT
    change: int = 0
    where: PopulationWhere = PopulationWhere.SOLE_OCCUPANT


@dataclass(frozen=True, slots=True)
class CityBuild:
    """``per_turn`` None: no limit stated; -1 is never used (``unlimited`` is True instead)."""

    kind: ClassVar[EffectKind] = EffectKind.CITY_BUILD
    cost_change: int | None = None
    from_treasury: TreasuryShare | None = None
    per_turn: int | None = None
    unlimited: bool = False
    without_city_site: bool = False
    tokens_from_adjacent: int | None = None


@dataclass(frozen=True, slots=True)
class CitySupport:
    kind: ClassVar[EffectKind] = EffectKind.CITY_SUPPORT
    change: int = 0


@dataclass(frozen=True, slots=True)
class Conflict:
    kind: ClassVar[EffectKind] = EffectKind.CONFLICT
    aspect: ConflictAspect = ConflictAspect.REMOVAL_ORDER
    before_holders_of: tuple[str, ...] = ()
    tokens: int | None = None
    replaced_by: int | None = None
    cancelled_by_both: bool = False


@dataclass(frozen=True, slots=True)
class TurnOrder:
    kind: ClassVar[EffectKind] = EffectKind.TURN_ORDER
    activities: tuple[Activity, ...] = ()
    position: TurnPosition = TurnPosition.AFTER_NON_HOLDERS


@dataclass(frozen=True, slots=True)
class Tax:
    kind: ClassVar[EffectKind] = EffectKind.TAX
    rate_changes: tuple[int, ...] = ()
    no_revolt: bool = False


@dataclass(frozen=True, slots=True)
class Treasury:
    kind: ClassVar[EffectKind] = EffectKind.TREASURY
    token_value: int = 1
    spent_on: str = "civilization_cards"


@dataclass(frozen=True, slots=True)
class CommodityExchange:
    kind: ClassVar[EffectKind] = EffectKind.COMMODITY_EXCHANGE
    tokens_per_point: int = 1
    phase: str = "return_of_excess_commodity_cards"


@dataclass(frozen=True, slots=True)
class TradeCardPurchase:
    kind: ClassVar[EffectKind] = EffectKind.TRADE_CARD_PURCHASE
    stack: int = 0
    price: int = 0


@dataclass(frozen=True, slots=True)
class HandLimitChange:
    kind: ClassVar[EffectKind] = EffectKind.HAND_LIMIT
    change: int = 0


@dataclass(frozen=True, slots=True)
class CommodityValue:
    kind: ClassVar[EffectKind] = EffectKind.COMMODITY_VALUE
    set_size_change: int = 0
    goods: Goods = Goods.MINING
    per_turn: int | None = None


@dataclass(frozen=True, slots=True)
class SpecialAbility:
    kind: ClassVar[EffectKind] = EffectKind.SPECIAL_ABILITY
    action: AbilityAction = AbilityAction.CONVERT
    phase: AbilityPhase = AbilityPhase.SPECIAL_ABILITIES
    exempt_holders: tuple[str, ...] = ()
    max_units: int | None = None
    max_cards: int | None = None


@dataclass(frozen=True, slots=True)
class CreditTokens:
    kind: ClassVar[EffectKind] = EffectKind.CREDIT_TOKENS
    points: int = 0
    colours: TokenColours | None = None


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    kind: ClassVar[EffectKind] = EffectKind.VICTORY_POINTS
    points: int = 0


Effect: TypeAlias = (
    Immunity
    | Movement
    | PopulationLimit
    | CityBuild
    | CitySupport
    | Conflict
    | TurnOrder
    | Tax
    | Treasury
    | CommodityExchange
    | TradeCardPurchase
    | HandLimitChange
    | CommodityValue
    | SpecialAbility
    | CreditTokens
    | VictoryPoints
)


@dataclass(frozen=True, slots=True)
class CalamityLink:
    """A card attribute's claim that it changes a calamity (the amounts are in CALAMITY_MODIFIERS)."""

    calamity: str
    effect: LinkEffect


@dataclass(frozen=True, slots=True)
class Attribute:
    """One ability of a card: its wording, cited sections, effects and calamity links.

    ``effects`` is empty for a text-only attribute (no effect kind fits it): read ``text``.
    """

    text: str
    rules: tuple[str, ...]
    effects: "tuple[Effect, ...]"
    calamities: tuple[CalamityLink, ...]
    source: str | None = None


@dataclass(frozen=True, slots=True)
class PurchaseEffect:
    """A one-time effect on acquiring the card (Expansion Project)."""

    kind: PurchaseKind | None
    text: str
    rules: tuple[str, ...]
    points: int | None = None
    colours: TokenColours | None = None
    next_turn: bool = False
    max_cards: int | None = None
    max_face_value_below: int | None = None
    groups: tuple[GroupId, ...] = ()


# --- Cards, goods, calamities ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Group:
    id: GroupId
    name: str
    colour: str | None
    shape: str | None


@dataclass(frozen=True, slots=True)
class Credit:
    """A credit as written on the giving card: toward every other card of a group, or one card."""

    points: int | None
    group: GroupId | None
    card: str | None
    extra: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    """A civilization card (advancement). ``attributes`` None: its abilities are not in the sources."""

    id: str
    name: str | None
    groups: tuple[GroupId, ...] | None
    cost: int | None
    prerequisites: tuple[str, ...] | None
    credits: tuple[Credit, ...] | None
    victory_points: int | None
    attributes: tuple[Attribute, ...] | None = ()
    purchase_effects: tuple[PurchaseEffect, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Commodity:
    """A trade good; ``block`` is its native trade block where the game has blocks."""

    id: str
    name: str | None
    value: int | None
    count: int | None
    stack: int | None
    mining: bool
    block: Block | None


@dataclass(frozen=True, slots=True)
class Deck:
    """One trade deck: its block, its goods with how many of their cards it holds, its calamity sets."""

    block: Block
    commodities: tuple[tuple[str, int | None], ...]
    calamity_sets: int | None
    calamity_severities: tuple[Severity, ...] | None


@dataclass(frozen=True, slots=True)
class DeckBand:
    """The trade decks used for a band of player counts (and a map region where the map is split)."""

    players_min: int
    players_max: int
    region: MapRegion | None
    decks: tuple[Deck, ...]


@dataclass(frozen=True, slots=True)
class BlockBonus:
    """Player counts in which a set redeemed outside its native block gains its face value per card."""

    players_min: int
    players_max: int
    shared_goods: bool


@dataclass(frozen=True, slots=True)
class Calamity:
    id: str
    name: str | None
    stack: int
    tradable: bool | None
    severity: Severity | None


@dataclass(frozen=True, slots=True)
class CalamityEffect:
    """One effect of a calamity on the primary or the secondary victims.

    ``amount`` is the number written (None if unknown or not a number); ``all_but`` the number
    spared by an "all but N" effect; ``per_city`` the amount per city the victim owns (Tyranny);
    ``max_per_victim`` the most one secondary victim can be made to lose. ``unknown`` is True when
    the amount is not in the sources.
    """

    id: str
    side: Role
    kind: str | None
    amount: int | None
    all_but: int | None
    max_per_victim: int | None
    unknown: bool
    per_city: int | None = None


@dataclass(frozen=True, slots=True)
class CalamityModifier:
    """A civilization card's change to calamity effects, as the calamity's rules state it.

    ``stated`` is an amount the modifier sets outright (it wins over ``amount``, the signed
    change); ``per_commodity`` multiplies the change by the holder's cards of that good; ``adds``
    marks a separate loss rather than a change of this one (Military in Civil War, 30.414).
    """

    card: str
    applies_to: AppliesTo
    effect: ModifierEffect
    effects: tuple[str, ...]
    amount: int | None
    amount_unknown: bool
    stated: int | None
    cap: int | None
    per_commodity: str | None
    adds: bool
    becomes_kind: str | None
    per_any_commodity: bool = False
    #: For an addition: what the amount is counted per (e.g. "faction": once for each faction).
    per: str | None = None
    #: For an addition: the kind of the separate loss (e.g. "lose_unit_points").
    adds_kind: str | None = None


@dataclass(frozen=True, slots=True)
class CalamityImmunity:
    """Who cannot be a victim of a calamity: a nation, a card holder, or the player who traded it.

    ``side`` is the victims' side the immunity is from (None: from every side). A card holder's
    immunity is also the card's `immunity` modifier, which calamity_amount applies.
    """

    who: str
    side: Role | None
    nation: str | None
    card: str | None
    text: str | None
    #: The effects the immunity is from (empty: every effect of ``side``).
    effects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Combination:
    """How modifiers of different cards combine: cumulative, or only the highest of ``precedence``."""

    mode: CombinationMode | None
    precedence: tuple[str, ...]
    overrides: tuple[tuple[str, tuple[str, ...]], ...]
    #: The rules do not say how modifiers of different cards combine: an amount for a holder of two
    #: or more of the cards is unknown.
    mode_unknown: bool = False


@dataclass(frozen=True, slots=True)
class Addition:
    """A separate loss a held card adds to a calamity (Military in Civil War: five unit points
    from each faction, 30.414): ``amount`` of ``kind``, counted once per ``per`` where given."""

    card: str
    amount: int | None
    per: str | None
    kind: str | None


@dataclass(frozen=True, slots=True)
class CalamityAmount:
    """What one calamity effect takes from one holder, after his cards' modifiers.

    ``base`` is the amount as written, or for a secondary victim the most one victim can be made
    to lose (``max_per_victim``); ``per_city`` an amount per city owned; ``change`` the signed sum
    of the modifiers; ``set_to`` an amount a modifier states outright; ``cap`` the most he loses;
    ``additions`` separate losses his cards add (Military in Civil War, 30.414).
    """

    calamity: str
    effect: str
    role: Role
    base: int | None
    all_but: int | None
    change: int
    set_to: int | None
    cap: int | None
    immune: bool
    kind: str | None
    unknown: bool
    per_city: int | None = None
    limit: int | None = None
    additions: tuple[Addition, ...] = ()

    @property
    def value(self) -> int | None:
        """The amount for this holder; None when it depends on his units or cities, or is unknown."""
        if self.immune:
            return 0
        if self.unknown or self.base is None:
            return None if self.set_to is None or self.unknown else self._capped(self.set_to)
        return self._capped(self.set_to if self.set_to is not None else self.base + self.change)

    def loss(self, units: int, *, cities: int | None = None) -> int:
        """What the holder loses.

        ``units`` is, for an effect on the primary victim, what he has of the effect's unit (his
        cities for Civil Disorder); for a secondary victim, the share of the total the primary
        victim allotted him, never more than the per-victim limit (Famine: 8, 30.311; Piracy: one
        city, 30.912), which his own cards then change. ``cities`` is the cities he owns, for an
        amount per city (Expansion Project Tyranny, 29.8.1.3).

        Raises UnknownFactError when the amount is not in the sources, ValueError when ``cities``
        is needed and not given.
        """
        from .errors import UnknownFactError

        if self.immune:
            return 0
        if self.unknown:
            raise UnknownFactError(f"{self.calamity}.{self.effect}: the amount is not in the sources")
        if self.per_city is not None and self.set_to is None:
            if cities is None:
                raise ValueError(f"{self.calamity}.{self.effect} is an amount per city: give cities=")
            return min(units, self._capped(self.per_city * cities + self.change))
        if self.all_but is not None and self.base is None:
            reduced = max(0, units - self.all_but)
            changed = self.set_to if self.set_to is not None else reduced + self.change
            return min(units, self._capped(changed))
        if self.role == Role.SECONDARY:
            share = units if self.limit is None else min(units, self.limit)
            return self._capped(self.set_to if self.set_to is not None else share + self.change)
        value = self.value
        if value is None:
            raise UnknownFactError(f"{self.calamity}.{self.effect}: the sources give no amount")
        return min(units, value)

    def _capped(self, amount: int) -> int:
        amount = max(0, amount)
        return amount if self.cap is None else min(amount, self.cap)


# --- Nations, A.S.T., turn, map ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Nation:
    """A nation (civilization); ``region`` is its half of a split map (Mega Civilization)."""

    id: str
    name: str | None
    start_areas: tuple[str, ...] | None
    ast_position: int | None
    region: MapRegion | None = None


@dataclass(frozen=True, slots=True)
class Requirements:
    """What entering an epoch requires at one A.S.T. level (None: no such requirement).

    ``known`` is False when the sources do not give the epoch's requirements at all.
    ``min_cards_of_value`` holds (count, lowest cost, cost below) triples.
    """

    min_cities: int | None
    min_card_groups: int | None
    min_cards: int | None
    all_card_groups: bool
    two_group_cards_count_twice: bool
    card_value_per_space: bool
    min_victory_points: int | None
    min_cards_of_value: tuple[tuple[int, int, int | None], ...]
    known: bool


@dataclass(frozen=True, slots=True)
class Epoch:
    """An epoch of the A.S.T. and its entry requirements by A.S.T. level (see AST_LEVELS)."""

    id: str
    name: str | None
    order: int
    requirements: "Mapping[str, Requirements]"


@dataclass(frozen=True, slots=True)
class AstTrack:
    """A nation's A.S.T. track at one level: where each epoch starts, and the values by space."""

    nation: str
    level: str
    spaces: int | None
    epoch_starts: tuple[tuple[str, int], ...] | None
    space_values: tuple[tuple[int, int | None], ...] | None


@dataclass(frozen=True, slots=True)
class Phase:
    id: str
    name: str | None
    number: int | None
    condition: str | None
    order: str | None


@dataclass(frozen=True, slots=True)
class PlayerCount:
    players: int
    given: bool
    tokens_per_player: int | None
    nations: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Area:
    id: str
    name: str | None
    land: bool
    water: bool
    open_sea: bool
    coastal: bool | None
    population_limit: int | None
    city_site: str | None
    flood_plain: str | None
    panel: str | None


@dataclass(frozen=True, slots=True)
class Border:
    a: str
    b: str
    kind: BorderKind | None


@dataclass(frozen=True, slots=True)
class Region:
    """A named set of areas: a flood plain, or the areas a volcano touches."""

    id: str
    name: str | None
    areas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TradeStack:
    number: int
    commodities: tuple[str, ...]
    calamities: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StackSetupStep:
    """One step of preparing the trade stacks before play, as the rules list them."""

    step: str
    text: str | None
    rules: tuple[str, ...]


# --- Settings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandLimit:
    """The commodity cards a player may keep, and the cards that change it (cumulative or not)."""

    commodity_cards: int | None
    card_changes: tuple[tuple[str, int], ...]
    cumulative: bool
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RateChange:
    """A card that lets its holder raise or lower the tax rate, in tokens per city."""

    card: str
    raise_by: int
    lower_by: int


@dataclass(frozen=True, slots=True)
class Taxation:
    """The tax rate in tokens per city, the cards that change it, and those that prevent revolts."""

    tokens_per_city: int | None
    rate_changes: tuple[RateChange, ...]
    cumulative: bool
    revolt_immune_cards: tuple[str, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScoringItem:
    """One item of the final score: what it is counted per, and its points (None: as the rules say
    in ``text``, e.g. a card's face value)."""

    id: str
    name: str | None
    per: str | None
    points: int | None
    text: str | None
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnknownFact:
    """A fact the sources do not give: the data file, the field, and why."""

    file: str
    field: str
    reason: str
