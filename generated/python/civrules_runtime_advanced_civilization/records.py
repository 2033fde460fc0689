# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The records of every package of the Advanced Civilization family: frozen, slotted, compared by their fields.

Ids of a ruleset's own collections (cards, goods, calamities, nations, areas ...) are plain ``str``
here: each package's id enums (``CardId`` ...) are ``StrEnum``s, so their members are those
strings, and one engine function can read any ruleset's records. A field that is None holds a
fact the sources do not give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import ClassVar, Self, TypeAlias, TypeVar

from civrules_runtime.assumed import count, optional, pairs, text
from civrules_runtime.errors import OutOfDomainError, shown, within
from civrules_runtime.mappings import FrozenMap
from civrules_runtime.records import Record, bound, typed_replace
from civrules_runtime.records import UnknownFact as UnknownFact

from .bounds import BOUNDS, WHERE
from .vocab import (
    AbilityAction,
    AbilityPhase,
    Activity,
    AppliesTo,
    Block,
    BorderKind,
    CalamityKind,
    CalamityUnit,
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


_set = object.__setattr__


# --- Card abilities ----------------------------------------------------------------------------


_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(table: Mapping[_K, _V]) -> Mapping[_K, _V]:
    """``table`` as a FrozenMap, as the package's own records hold theirs: a record an engine makes
    from a dict of its own would otherwise change when the dict does, and not hash."""
    return table if isinstance(table, FrozenMap) else FrozenMap(table)


class Immunity(Record):
    """The holder is not affected by tax revolts, by attacks of players without ``unless_holding``,
    or by the ability of the card ``card``."""

    kind: ClassVar[EffectKind] = EffectKind.IMMUNITY
    _schema = "civilization-cards.schema.json#/$defs/effect_immunity"
    __slots__ = ("against", "card", "targets", "unless_holding")
    __match_args__ = ("against", "card", "targets", "unless_holding")

    against: ImmunityAgainst
    card: str | None
    targets: Targets | None
    unless_holding: tuple[str, ...]

    def __init__(
        self,
        against: ImmunityAgainst = ImmunityAgainst.CARD_ABILITY,
        card: str | None = None,
        targets: Targets | None = None,
        unless_holding: tuple[str, ...] = (),
    ) -> None:
        _set(self, "against", against)
        _set(self, "card", card)
        _set(self, "targets", targets)
        _set(self, "unless_holding", unless_holding)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        against: ImmunityAgainst = ...,
        card: str | None = ...,
        targets: Targets | None = ...,
        unless_holding: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Movement(Record):
    """The holder's ships' or tokens' range (absolute or a change), open sea, ship capacity."""

    kind: ClassVar[EffectKind] = EffectKind.MOVEMENT
    _schema = "civilization-cards.schema.json#/$defs/effect_movement"
    __slots__ = ("units", "range", "range_change", "open_sea", "capacity_change")
    __match_args__ = ("units", "range", "range_change", "open_sea", "capacity_change")

    units: MovementUnits
    range: int | None
    range_change: int | None
    open_sea: bool
    capacity_change: int | None

    def __init__(
        self,
        units: MovementUnits = MovementUnits.SHIPS,
        range: int | None = None,
        range_change: int | None = None,
        open_sea: bool = False,
        capacity_change: int | None = None,
    ) -> None:
        _set(self, "units", units)
        _set(self, "range", range)
        _set(self, "range_change", range_change)
        _set(self, "open_sea", open_sea)
        _set(self, "capacity_change", capacity_change)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        units: MovementUnits = ...,
        range: int | None = ...,
        range_change: int | None = ...,
        open_sea: bool = ...,
        capacity_change: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class PopulationLimit(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` population_limit): the population limit of
    areas changes for the holder."""

    kind: ClassVar[EffectKind] = EffectKind.POPULATION_LIMIT
    _schema = "civilization-cards.schema.json#/$defs/effect_population_limit"
    __slots__ = ("change", "where")
    __match_args__ = ("change", "where")

    change: int
    where: PopulationWhere

    def __init__(self, change: int, where: PopulationWhere = PopulationWhere.SOLE_OCCUPANT) -> None:
        _set(self, "change", change)
        _set(self, "where", where)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        change: int = ...,
        where: PopulationWhere = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CityBuild(Record):
    """``per_turn`` None: no limit stated; -1 is never used (``unlimited`` is True instead)."""

    kind: ClassVar[EffectKind] = EffectKind.CITY_BUILD
    _schema = "civilization-cards.schema.json#/$defs/effect_city_build"
    __slots__ = ("cost_change", "from_treasury", "per_turn", "unlimited", "without_city_site", "tokens_from_adjacent")
    __match_args__ = (
        "cost_change",
        "from_treasury",
        "per_turn",
        "unlimited",
        "without_city_site",
        "tokens_from_adjacent",
    )

    cost_change: int | None
    from_treasury: TreasuryShare | None
    per_turn: int | None
    unlimited: bool
    without_city_site: bool
    tokens_from_adjacent: int | None

    def __init__(
        self,
        cost_change: int | None = None,
        from_treasury: TreasuryShare | None = None,
        per_turn: int | None = None,
        unlimited: bool = False,
        without_city_site: bool = False,
        tokens_from_adjacent: int | None = None,
    ) -> None:
        _set(self, "cost_change", cost_change)
        _set(self, "from_treasury", from_treasury)
        _set(self, "per_turn", per_turn)
        _set(self, "unlimited", unlimited)
        _set(self, "without_city_site", without_city_site)
        _set(self, "tokens_from_adjacent", tokens_from_adjacent)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        cost_change: int | None = ...,
        from_treasury: TreasuryShare | None = ...,
        per_turn: int | None = ...,
        unlimited: bool = ...,
        without_city_site: bool = ...,
        tokens_from_adjacent: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CitySupport(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` city_support): the tokens each of the
    holder's cities needs for city support change."""

    kind: ClassVar[EffectKind] = EffectKind.CITY_SUPPORT
    _schema = "civilization-cards.schema.json#/$defs/effect_city_support"
    __slots__ = ("change",)
    __match_args__ = ("change",)

    change: int

    def __init__(self, change: int) -> None:
        _set(self, "change", change)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        change: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Conflict(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` conflict): how conflicts go for the
    holder: the order tokens are removed, where casualties may be taken, the tokens needed to attack a city
    and the tokens a defending city is replaced by."""

    kind: ClassVar[EffectKind] = EffectKind.CONFLICT
    _schema = "civilization-cards.schema.json#/$defs/effect_conflict"
    __slots__ = ("aspect", "before_holders_of", "tokens", "replaced_by", "cancelled_by_both")
    __match_args__ = ("aspect", "before_holders_of", "tokens", "replaced_by", "cancelled_by_both")

    aspect: ConflictAspect
    before_holders_of: tuple[str, ...]
    tokens: int | None
    replaced_by: int | None
    cancelled_by_both: bool

    def __init__(
        self,
        aspect: ConflictAspect = ConflictAspect.REMOVAL_ORDER,
        before_holders_of: tuple[str, ...] = (),
        tokens: int | None = None,
        replaced_by: int | None = None,
        cancelled_by_both: bool = False,
    ) -> None:
        _set(self, "aspect", aspect)
        _set(self, "before_holders_of", before_holders_of)
        _set(self, "tokens", tokens)
        _set(self, "replaced_by", replaced_by)
        _set(self, "cancelled_by_both", cancelled_by_both)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        aspect: ConflictAspect = ...,
        before_holders_of: tuple[str, ...] = ...,
        tokens: int | None = ...,
        replaced_by: int | None = ...,
        cancelled_by_both: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class TurnOrder(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` turn_order): the holder acts later than
    others in some activities of a turn."""

    kind: ClassVar[EffectKind] = EffectKind.TURN_ORDER
    _schema = "civilization-cards.schema.json#/$defs/effect_turn_order"
    __slots__ = ("activities", "position")
    __match_args__ = ("activities", "position")

    activities: tuple[Activity, ...]
    position: TurnPosition

    def __init__(
        self, activities: tuple[Activity, ...], position: TurnPosition = TurnPosition.AFTER_NON_HOLDERS
    ) -> None:
        _set(self, "activities", activities)
        _set(self, "position", position)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        activities: tuple[Activity, ...] = ...,
        position: TurnPosition = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Tax(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` tax): the holder's taxation: the rate he
    may choose, and tax revolts."""

    kind: ClassVar[EffectKind] = EffectKind.TAX
    _schema = "civilization-cards.schema.json#/$defs/effect_tax"
    __slots__ = ("rate_changes", "no_revolt")
    __match_args__ = ("rate_changes", "no_revolt")

    rate_changes: tuple[int, ...]
    no_revolt: bool

    def __init__(self, rate_changes: tuple[int, ...] = (), no_revolt: bool = False) -> None:
        _set(self, "rate_changes", rate_changes)
        _set(self, "no_revolt", no_revolt)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        rate_changes: tuple[int, ...] = ...,
        no_revolt: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Treasury(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` treasury): what the holder's treasury
    tokens are worth when spent."""

    kind: ClassVar[EffectKind] = EffectKind.TREASURY
    _schema = "civilization-cards.schema.json#/$defs/effect_treasury"
    __slots__ = ("token_value", "spent_on")
    __match_args__ = ("token_value", "spent_on")

    token_value: int
    spent_on: str

    def __init__(self, token_value: int = 1, spent_on: str = "civilization_cards") -> None:
        _set(self, "token_value", token_value)
        _set(self, "spent_on", spent_on)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        token_value: int = ...,
        spent_on: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CommodityExchange(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` commodity_exchange): the holder may
    exchange commodity cards for treasury tokens from stock."""

    kind: ClassVar[EffectKind] = EffectKind.COMMODITY_EXCHANGE
    _schema = "civilization-cards.schema.json#/$defs/effect_commodity_exchange"
    __slots__ = ("tokens_per_point", "phase")
    __match_args__ = ("tokens_per_point", "phase")

    tokens_per_point: int
    phase: str

    def __init__(self, tokens_per_point: int = 1, phase: str = "return_of_excess_commodity_cards") -> None:
        _set(self, "tokens_per_point", tokens_per_point)
        _set(self, "phase", phase)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        tokens_per_point: int = ...,
        phase: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class TradeCardPurchase(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` trade_card_purchase): the holder may buy
    trade cards of one stack for treasury tokens."""

    kind: ClassVar[EffectKind] = EffectKind.TRADE_CARD_PURCHASE
    _schema = "civilization-cards.schema.json#/$defs/effect_trade_card_purchase"
    __slots__ = ("stack", "price")
    __match_args__ = ("stack", "price")

    stack: int
    price: int

    def __init__(self, stack: int, price: int) -> None:
        _set(self, "stack", stack)
        _set(self, "price", price)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        stack: int = ...,
        price: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class HandLimitChange(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` hand_limit): the holder's hand limit of
    trade cards changes."""

    kind: ClassVar[EffectKind] = EffectKind.HAND_LIMIT
    _schema = "civilization-cards.schema.json#/$defs/effect_hand_limit"
    __slots__ = ("change",)
    __match_args__ = ("change",)

    change: int

    def __init__(self, change: int) -> None:
        _set(self, "change", change)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        change: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CommodityValue(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` commodity_value): how the holder values
    his sets of commodity cards (Mining)."""

    kind: ClassVar[EffectKind] = EffectKind.COMMODITY_VALUE
    _schema = "civilization-cards.schema.json#/$defs/effect_commodity_value"
    __slots__ = ("set_size_change", "goods", "per_turn")
    __match_args__ = ("set_size_change", "goods", "per_turn")

    set_size_change: int
    goods: Goods
    per_turn: int | None

    def __init__(self, set_size_change: int, goods: Goods = Goods.MINING, per_turn: int | None = None) -> None:
        _set(self, "set_size_change", set_size_change)
        _set(self, "goods", goods)
        _set(self, "per_turn", per_turn)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        set_size_change: int = ...,
        goods: Goods = ...,
        per_turn: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class SpecialAbility(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` special_ability): an action the holder may
    take against neighbours or the board (in the Special Abilities phase of the Expansion Project, at the end
    of the calamity phase for Advanced Civilization's Monotheism)."""

    kind: ClassVar[EffectKind] = EffectKind.SPECIAL_ABILITY
    _schema = "civilization-cards.schema.json#/$defs/effect_special_ability"
    __slots__ = ("action", "phase", "exempt_holders", "max_units", "max_cards")
    __match_args__ = ("action", "phase", "exempt_holders", "max_units", "max_cards")

    action: AbilityAction
    phase: AbilityPhase
    exempt_holders: tuple[str, ...]
    max_units: int | None
    max_cards: int | None

    def __init__(
        self,
        action: AbilityAction = AbilityAction.CONVERT,
        phase: AbilityPhase = AbilityPhase.SPECIAL_ABILITIES,
        exempt_holders: tuple[str, ...] = (),
        max_units: int | None = None,
        max_cards: int | None = None,
    ) -> None:
        _set(self, "action", action)
        _set(self, "phase", phase)
        _set(self, "exempt_holders", exempt_holders)
        _set(self, "max_units", max_units)
        _set(self, "max_cards", max_cards)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        action: AbilityAction = ...,
        phase: AbilityPhase = ...,
        exempt_holders: tuple[str, ...] = ...,
        max_units: int | None = ...,
        max_cards: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CreditTokens(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` credit_tokens): the holder gains credit
    tokens (a lasting ability; a one-time gain on purchase is a ``purchase_effects`` entry)."""

    kind: ClassVar[EffectKind] = EffectKind.CREDIT_TOKENS
    _schema = "civilization-cards.schema.json#/$defs/effect_credit_tokens"
    __slots__ = ("points", "colours")
    __match_args__ = ("points", "colours")

    points: int
    colours: TokenColours | None

    def __init__(self, points: int, colours: TokenColours | None = None) -> None:
        _set(self, "points", points)
        _set(self, "colours", colours)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        points: int = ...,
        colours: TokenColours | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class VictoryPoints(Record):
    """An attribute's effect (civilization-cards.schema.json, ``kind`` victory_points): victory points the holder
    scores from this attribute, beyond the card's own."""

    kind: ClassVar[EffectKind] = EffectKind.VICTORY_POINTS
    _schema = "civilization-cards.schema.json#/$defs/effect_victory_points"
    __slots__ = ("points",)
    __match_args__ = ("points",)

    points: int

    def __init__(self, points: int = 0) -> None:
        _set(self, "points", points)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        points: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


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


class CalamityLink(Record):
    """A card attribute's claim that it changes a calamity (the amounts are in CALAMITY_MODIFIERS)."""

    _schema = "civilization-cards.schema.json#/$defs/calamity_link"
    __slots__ = ("calamity", "effect")
    __match_args__ = ("calamity", "effect")

    calamity: str
    effect: LinkEffect

    def __init__(self, calamity: str, effect: LinkEffect) -> None:
        _set(self, "calamity", calamity)
        _set(self, "effect", effect)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        calamity: str = ...,
        effect: LinkEffect = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Attribute(Record):
    """One ability of a card: its wording, cited sections, effects and calamity links.

    ``effects`` is empty for a text-only attribute (no effect kind fits it): read ``text``.
    """

    _schema = "civilization-cards.schema.json#/$defs/attribute"
    __slots__ = ("text", "rules", "effects", "calamities", "source")
    __match_args__ = ("text", "rules", "effects", "calamities", "source")

    text: str
    rules: tuple[str, ...]
    effects: tuple[Effect, ...]
    calamities: tuple[CalamityLink, ...]
    source: str | None

    def __init__(
        self,
        text: str,
        rules: tuple[str, ...],
        effects: tuple[Effect, ...],
        calamities: tuple[CalamityLink, ...],
        source: str | None = None,
    ) -> None:
        _set(self, "text", text)
        _set(self, "rules", rules)
        _set(self, "effects", effects)
        _set(self, "calamities", calamities)
        _set(self, "source", source)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        text: str = ...,
        rules: tuple[str, ...] = ...,
        effects: tuple[Effect, ...] = ...,
        calamities: tuple[CalamityLink, ...] = ...,
        source: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class PurchaseEffect(Record):
    """A one-time effect on acquiring the card (Expansion Project)."""

    _schema = "civilization-cards.schema.json#/$defs/purchase_effect"
    __slots__ = (
        "kind",
        "text",
        "rules",
        "points",
        "colours",
        "next_turn",
        "max_cards",
        "max_face_value_below",
        "groups",
    )
    __match_args__ = (
        "kind",
        "text",
        "rules",
        "points",
        "colours",
        "next_turn",
        "max_cards",
        "max_face_value_below",
        "groups",
    )

    kind: PurchaseKind | None
    text: str
    rules: tuple[str, ...]
    points: int | None
    colours: TokenColours | None
    next_turn: bool
    max_cards: int | None
    max_face_value_below: int | None
    groups: tuple[GroupId, ...]

    def __init__(
        self,
        kind: PurchaseKind | None,
        text: str,
        rules: tuple[str, ...],
        points: int | None = None,
        colours: TokenColours | None = None,
        next_turn: bool = False,
        max_cards: int | None = None,
        max_face_value_below: int | None = None,
        groups: tuple[GroupId, ...] = (),
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "text", text)
        _set(self, "rules", rules)
        _set(self, "points", points)
        _set(self, "colours", colours)
        _set(self, "next_turn", next_turn)
        _set(self, "max_cards", max_cards)
        _set(self, "max_face_value_below", max_face_value_below)
        _set(self, "groups", groups)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        kind: PurchaseKind | None = ...,
        text: str = ...,
        rules: tuple[str, ...] = ...,
        points: int | None = ...,
        colours: TokenColours | None = ...,
        next_turn: bool = ...,
        max_cards: int | None = ...,
        max_face_value_below: int | None = ...,
        groups: tuple[GroupId, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# --- Cards, goods, calamities ------------------------------------------------------------------


class Group(Record):
    """A group (colour) of civilization cards: its fixed id, its name as the rulebook spells it, the
    colour printed along the top of its cards and its symbol (``shape``)."""

    _schema = "civilization-cards.schema.json#/$defs/group"
    __slots__ = ("id", "name", "colour", "shape")
    __match_args__ = ("id", "name", "colour", "shape")

    id: GroupId
    name: str
    colour: str | None
    shape: str | None

    def __init__(self, id: GroupId, name: str, colour: str | None, shape: str | None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "colour", colour)
        _set(self, "shape", shape)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: GroupId = ...,
        name: str = ...,
        colour: str | None = ...,
        shape: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Credit(Record):
    """A credit as written on the giving card: toward every other card of a group, or one card.

    ``target_name`` is the name the giving rule prints for that card, where the data records one
    (the card's own name unknown: Expansion Project 30.16.1 "10 extra credits to Rhetoric").
    """

    _schema = "civilization-cards.schema.json#/$defs/card_credit"
    __slots__ = ("points", "group", "card", "extra", "target_name")
    __match_args__ = ("points", "group", "card", "extra", "target_name")

    points: int | None
    group: GroupId | None
    card: str | None
    extra: bool
    target_name: str | None

    def __init__(
        self,
        points: int | None,
        group: GroupId | None,
        card: str | None,
        extra: bool = False,
        target_name: str | None = None,
    ) -> None:
        _set(self, "points", points)
        _set(self, "group", group)
        _set(self, "card", card)
        _set(self, "extra", extra)
        _set(self, "target_name", target_name)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        points: int | None = ...,
        group: GroupId | None = ...,
        card: str | None = ...,
        extra: bool = ...,
        target_name: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Card(Record):
    """A civilization card (advancement). ``attributes`` None: its abilities are not in the sources."""

    _schema = "civilization-cards.schema.json#/$defs/card"
    __slots__ = (
        "id",
        "name",
        "groups",
        "cost",
        "prerequisites",
        "credits",
        "victory_points",
        "attributes",
        "purchase_effects",
        "rules",
    )
    __match_args__ = (
        "id",
        "name",
        "groups",
        "cost",
        "prerequisites",
        "credits",
        "victory_points",
        "attributes",
        "purchase_effects",
        "rules",
    )

    id: str
    name: str | None
    groups: tuple[GroupId, ...] | None
    cost: int | None
    prerequisites: tuple[str, ...] | None
    credits: tuple[Credit, ...] | None
    victory_points: int | None
    attributes: tuple[Attribute, ...] | None
    purchase_effects: tuple[PurchaseEffect, ...]
    rules: tuple[str, ...]

    def __init__(
        self,
        id: str,
        name: str | None,
        groups: tuple[GroupId, ...] | None,
        cost: int | None,
        prerequisites: tuple[str, ...] | None,
        credits: tuple[Credit, ...] | None,
        victory_points: int | None,
        attributes: tuple[Attribute, ...] | None = (),
        purchase_effects: tuple[PurchaseEffect, ...] = (),
        rules: tuple[str, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "groups", groups)
        _set(self, "cost", cost)
        _set(self, "prerequisites", prerequisites)
        _set(self, "credits", credits)
        _set(self, "victory_points", victory_points)
        _set(self, "attributes", attributes)
        _set(self, "purchase_effects", purchase_effects)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        groups: tuple[GroupId, ...] | None = ...,
        cost: int | None = ...,
        prerequisites: tuple[str, ...] | None = ...,
        credits: tuple[Credit, ...] | None = ...,
        victory_points: int | None = ...,
        attributes: tuple[Attribute, ...] | None = ...,
        purchase_effects: tuple[PurchaseEffect, ...] = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Commodity(Record):
    """A trade good; ``block`` is its native trade block where the game has blocks, and
    ``block_counts`` how many of its cards each block's deck holds where the data says (Mega
    Civilization: ``((Block.EAST, 0), (Block.WEST, 9))``; None where not written). ``inferred``
    names the fields no source prints, read by the data from the layout of a source's table
    (``("value", "stack")``: the good's row read as both); empty where every field is printed.
    ``name_language`` is the language its source prints ``name`` in where that is not the
    rulebook's (Central America's ``"it"`` for ``"Miele"``); None where it is the rulebook's."""

    _schema = "commodities.schema.json#/$defs/commodity"
    __slots__ = (
        "id",
        "name",
        "value",
        "count",
        "stack",
        "mining",
        "block",
        "block_counts",
        "inferred",
        "name_language",
    )
    __match_args__ = ("id", "name", "value", "count", "stack", "mining", "block", "block_counts")

    id: str
    name: str | None
    value: int | None
    count: int | None
    stack: int | None
    mining: bool
    block: Block | None
    block_counts: tuple[tuple[Block, int], ...] | None
    inferred: tuple[str, ...]
    name_language: str | None

    def __init__(
        self,
        id: str,
        name: str | None,
        value: int | None,
        count: int | None,
        stack: int | None,
        mining: bool,
        block: Block | None,
        block_counts: tuple[tuple[Block, int], ...] | None = None,
        inferred: tuple[str, ...] = (),
        name_language: str | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "value", value)
        _set(self, "count", count)
        _set(self, "stack", stack)
        _set(self, "mining", mining)
        _set(self, "block", block)
        _set(self, "block_counts", block_counts)
        _set(self, "inferred", inferred)
        _set(self, "name_language", name_language)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        value: int | None = ...,
        count: int | None = ...,
        stack: int | None = ...,
        mining: bool = ...,
        block: Block | None = ...,
        block_counts: tuple[tuple[Block, int], ...] | None = ...,
        inferred: tuple[str, ...] = ...,
        name_language: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Deck(Record):
    """One trade deck: its block, its goods with how many of their cards it holds, its calamity sets."""

    _schema = "commodities.schema.json#/$defs/deck_block"
    __slots__ = ("block", "commodities", "calamity_sets", "calamity_severities")
    __match_args__ = ("block", "commodities", "calamity_sets", "calamity_severities")

    block: Block
    commodities: tuple[tuple[str, int | None], ...]
    calamity_sets: int | None
    calamity_severities: tuple[Severity, ...] | None

    def __init__(
        self,
        block: Block,
        commodities: tuple[tuple[str, int | None], ...],
        calamity_sets: int | None,
        calamity_severities: tuple[Severity, ...] | None,
    ) -> None:
        _set(self, "block", block)
        _set(self, "commodities", commodities)
        _set(self, "calamity_sets", calamity_sets)
        _set(self, "calamity_severities", calamity_severities)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        block: Block = ...,
        commodities: tuple[tuple[str, int | None], ...] = ...,
        calamity_sets: int | None = ...,
        calamity_severities: tuple[Severity, ...] | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class DeckBand(Record):
    """The trade decks used for a band of player counts (and a map region where the map is split)."""

    _schema = "commodities.schema.json#/$defs/deck_composition"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "players_min": "players/min",
        "players_max": "players/max",
        "region": "map_region",
    }
    __slots__ = ("players_min", "players_max", "region", "decks")
    __match_args__ = ("players_min", "players_max", "region", "decks")

    players_min: int
    players_max: int
    region: MapRegion | None
    decks: tuple[Deck, ...]

    def __init__(self, players_min: int, players_max: int, region: MapRegion | None, decks: tuple[Deck, ...]) -> None:
        _set(self, "players_min", players_min)
        _set(self, "players_max", players_max)
        _set(self, "region", region)
        _set(self, "decks", decks)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        players_min: int = ...,
        players_max: int = ...,
        region: MapRegion | None = ...,
        decks: tuple[Deck, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class BlockBonus(Record):
    """Player counts in which a set redeemed outside its native block gains its face value per card."""

    _schema = "commodities.schema.json#/$defs/block_bonus"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "players_min": "players/min",
        "players_max": "players/max",
    }
    __slots__ = ("players_min", "players_max", "shared_goods")
    __match_args__ = ("players_min", "players_max", "shared_goods")

    players_min: int
    players_max: int
    shared_goods: bool

    def __init__(self, players_min: int, players_max: int, shared_goods: bool) -> None:
        _set(self, "players_min", players_min)
        _set(self, "players_max", players_max)
        _set(self, "shared_goods", shared_goods)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        players_min: int = ...,
        players_max: int = ...,
        shared_goods: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CopiesBand(Record):
    """The cards of a calamity a game of ``players_min`` to ``players_max`` players (both included)
    holds; ``rules``: the band's own citation, () where the calamity's covers it."""

    _schema = "calamities.schema.json#/$defs/calamity/properties/copies_by_players/items"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "players_min": "players/min",
        "players_max": "players/max",
    }
    __slots__ = ("players_min", "players_max", "copies", "rules")
    __match_args__ = ("players_min", "players_max", "copies", "rules")

    players_min: int
    players_max: int
    copies: int
    rules: tuple[str, ...]

    def __init__(self, players_min: int, players_max: int, copies: int, rules: tuple[str, ...] = ()) -> None:
        _set(self, "players_min", players_min)
        _set(self, "players_max", players_max)
        _set(self, "copies", copies)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        players_min: int = ...,
        players_max: int = ...,
        copies: int = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Calamity(Record):
    """One calamity card: the trade card stack it is shuffled into (9.1), whether it is tradable, its
    severity (major or minor, where the ruleset has minor ones), the most copies any game holds
    (``copies``, and ``copies_by_players``) and how its beneficiary is determined, where it has one."""

    _schema = "calamities.schema.json#/$defs/calamity"
    __slots__ = (
        "id",
        "name",
        "stack",
        "tradable",
        "severity",
        "rules",
        "copies",
        "beneficiary",
        "no_effect_when",
        "beneficiary_overflow",
        "beneficiary_unit_points",
        "beneficiary_eligibility",
        "copies_by_players",
    )
    __match_args__ = (
        "id",
        "name",
        "stack",
        "tradable",
        "severity",
        "rules",
        "copies",
        "beneficiary",
        "no_effect_when",
        "beneficiary_overflow",
        "beneficiary_unit_points",
        "beneficiary_eligibility",
        "copies_by_players",
    )

    id: str
    name: str | None
    stack: int
    tradable: bool | None
    severity: Severity | None
    #: The rule sections (or sources) the calamity cites.
    rules: tuple[str, ...]
    #: The most cards of it any game of the ruleset holds: one unless the rules say more (the
    #: Expansion Project and Mega Civilization: two). None only from a package built before every
    #: calamity carried it.
    copies: int | None
    #: How its beneficiary is chosen (e.g. "most_unit_points_in_stock"), where it has one.
    beneficiary: str | None
    #: Conditions under which it has no effect.
    no_effect_when: tuple[str, ...]
    #: Who takes over what the beneficiary cannot (e.g. "next_most_unit_points_in_stock").
    beneficiary_overflow: str | None
    #: How units in stock are counted to choose the beneficiary: (a city's, a token's) unit points.
    beneficiary_unit_points: tuple[int, int] | None
    #: Which players may be the beneficiary, as the rules say it.
    beneficiary_eligibility: str | None
    #: Where a game of fewer players holds fewer cards of it, the cards per band of player counts
    #: (Expansion Project 8.3.1: the duplicates only with twelve or more players); () where every
    #: game holds ``copies``.
    copies_by_players: tuple[CopiesBand, ...]

    def __init__(
        self,
        id: str,
        name: str | None,
        stack: int,
        tradable: bool | None,
        severity: Severity | None,
        rules: tuple[str, ...] = (),
        copies: int | None = None,
        beneficiary: str | None = None,
        no_effect_when: tuple[str, ...] = (),
        beneficiary_overflow: str | None = None,
        beneficiary_unit_points: tuple[int, int] | None = None,
        beneficiary_eligibility: str | None = None,
        copies_by_players: tuple[CopiesBand, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "stack", stack)
        _set(self, "tradable", tradable)
        _set(self, "severity", severity)
        _set(self, "rules", rules)
        _set(self, "copies", copies)
        _set(self, "beneficiary", beneficiary)
        _set(self, "no_effect_when", no_effect_when)
        _set(self, "beneficiary_overflow", beneficiary_overflow)
        _set(self, "beneficiary_unit_points", beneficiary_unit_points)
        _set(self, "beneficiary_eligibility", beneficiary_eligibility)
        _set(self, "copies_by_players", copies_by_players)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        stack: int = ...,
        tradable: bool | None = ...,
        severity: Severity | None = ...,
        rules: tuple[str, ...] = ...,
        copies: int | None = ...,
        beneficiary: str | None = ...,
        no_effect_when: tuple[str, ...] = ...,
        beneficiary_overflow: str | None = ...,
        beneficiary_unit_points: tuple[int, int] | None = ...,
        beneficiary_eligibility: str | None = ...,
        copies_by_players: tuple[CopiesBand, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CalamityAlternative(Record):
    """A payment the victim may make instead of suffering an effect (Expansion Project City in
    Flames, 29.4.3.2: ten treasury tokens instead of losing the city).

    ``amount`` of ``unit`` (``kind`` says what is given up, e.g. lose_treasury) buys off the whole
    effect, or with ``per_unit`` one unit of the effect's amount (Mega Civilization Banditry: four
    treasury tokens per commodity card kept), the victim suffering the rest. ``required_in_full``:
    he may choose it only if he can pay all of it.
    """

    _schema = "calamities.schema.json#/$defs/effect/properties/alternative"
    __slots__ = ("kind", "amount", "unit", "per_unit", "required_in_full", "text", "rules")
    __match_args__ = ("kind", "amount", "unit", "per_unit", "required_in_full", "text", "rules")

    kind: CalamityKind
    amount: int
    unit: CalamityUnit
    per_unit: bool
    required_in_full: bool
    #: The alternative in concise English.
    text: str | None
    #: The rule sections (or public sources) it comes from.
    rules: tuple[str, ...]

    def __init__(
        self,
        kind: CalamityKind,
        amount: int,
        unit: CalamityUnit,
        per_unit: bool = False,
        required_in_full: bool = False,
        text: str | None = None,
        rules: tuple[str, ...] = (),
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "amount", amount)
        _set(self, "unit", unit)
        _set(self, "per_unit", per_unit)
        _set(self, "required_in_full", required_in_full)
        _set(self, "text", text)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        kind: CalamityKind = ...,
        amount: int = ...,
        unit: CalamityUnit = ...,
        per_unit: bool = ...,
        required_in_full: bool = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def cost(self, units: int) -> int:
        """What buying off ``units`` units of the effect costs (the whole effect when not per unit).

        Raises OutOfDomainError (a ValueError) for ``units`` that is no whole number of 0 or more, as
        :meth:`CalamityAmount.loss` does.
        """
        from civrules_runtime.errors import within

        if within(units, "units") == 0:
            return 0
        return self.amount * units if self.per_unit else self.amount


class CalamityFallback(Record):
    """What happens instead when the player who should gain the units has none (30.221)."""

    _schema = "calamities.schema.json#/$defs/effect/properties/fallback"
    __slots__ = ("kind", "text", "rules")
    __match_args__ = ("kind", "text", "rules")

    kind: CalamityKind
    text: str | None
    rules: tuple[str, ...]

    def __init__(self, kind: CalamityKind, text: str | None = None, rules: tuple[str, ...] = ()) -> None:
        _set(self, "kind", kind)
        _set(self, "text", text)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        kind: CalamityKind = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
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


class CalamityEffect(Record):
    """One effect of a calamity on the primary or the secondary victims.

    ``amount`` is the number written (None if unknown or not a number); ``all_but`` the number
    spared by an "all but N" effect; ``per_city`` the amount per city the victim owns (Tyranny);
    ``max_per_victim`` the most one secondary victim can be made to lose. ``unknown`` is True when
    the amount is not in the sources.
    """

    _schema = "calamities.schema.json#/$defs/effect"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "all_but": "amount/all_but",  # the {all_but: n} form of the amount
        "per_city": "amount/per_city_owned",  # its {per_city_owned: n} form
    }
    __slots__ = (
        "id",
        "side",
        "kind",
        "amount",
        "all_but",
        "max_per_victim",
        "unknown",
        "per_city",
        "unit",
        "where",
        "condition",
        "chosen_by",
        "allocated_by",
        "replaced_by",
        "victim_count",
        "constraints",
        "text",
        "rules",
        "alternative",
        "fallback",
        "chosen_by_if_not_traded",
        "site",
        "site_tie_broken_by",
    )
    __match_args__ = (
        "id",
        "side",
        "kind",
        "amount",
        "all_but",
        "max_per_victim",
        "unknown",
        "per_city",
        "unit",
        "where",
        "condition",
        "chosen_by",
        "allocated_by",
        "replaced_by",
        "victim_count",
        "constraints",
        "text",
        "rules",
        "alternative",
        "fallback",
        "chosen_by_if_not_traded",
        "site",
        "site_tie_broken_by",
    )

    id: str
    side: Role
    kind: CalamityKind | None
    amount: int | None
    all_but: int | None
    max_per_victim: int | None
    unknown: bool
    per_city: int | None
    #: What the amount counts (unit_points, cities, tokens ...).
    unit: CalamityUnit | None
    #: Where it strikes, where the rules restrict it (coastal, flood_plain ...).
    where: str | None
    #: When the effect applies, where it is conditional.
    condition: str | None
    #: Who chooses the units lost (None: not said, or not applicable).
    chosen_by: str | None
    #: Who shares the total out among the secondary victims.
    allocated_by: str | None
    #: Who (or what) replaces the units lost.
    replaced_by: str | None
    #: How many secondary victims, where the rules fix it.
    victim_count: int | None
    #: Further rules of the effect, by name.
    constraints: tuple[str, ...]
    #: The rule in concise English.
    text: str | None
    #: The rule sections (or public sources) it comes from.
    rules: tuple[str, ...]
    #: A payment the victim may make instead of suffering the effect.
    alternative: CalamityAlternative | None
    #: What happens instead when the player who should gain the units has none.
    fallback: CalamityFallback | None
    #: Who chooses instead when the card was drawn, not traded, where the rules name someone else.
    chosen_by_if_not_traded: str | None
    #: How the place of the effect is chosen by damage (e.g. greatest_total_damage).
    site: str | None
    #: Who picks among equally damaging sites, where the rules say.
    site_tie_broken_by: str | None

    def __init__(
        self,
        id: str,
        side: Role,
        kind: CalamityKind | None,
        amount: int | None,
        all_but: int | None,
        max_per_victim: int | None,
        unknown: bool,
        per_city: int | None = None,
        unit: CalamityUnit | None = None,
        where: str | None = None,
        condition: str | None = None,
        chosen_by: str | None = None,
        allocated_by: str | None = None,
        replaced_by: str | None = None,
        victim_count: int | None = None,
        constraints: tuple[str, ...] = (),
        text: str | None = None,
        rules: tuple[str, ...] = (),
        alternative: CalamityAlternative | None = None,
        fallback: CalamityFallback | None = None,
        chosen_by_if_not_traded: str | None = None,
        site: str | None = None,
        site_tie_broken_by: str | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "side", side)
        _set(self, "kind", kind)
        _set(self, "amount", amount)
        _set(self, "all_but", all_but)
        _set(self, "max_per_victim", max_per_victim)
        _set(self, "unknown", unknown)
        _set(self, "per_city", per_city)
        _set(self, "unit", unit)
        _set(self, "where", where)
        _set(self, "condition", condition)
        _set(self, "chosen_by", chosen_by)
        _set(self, "allocated_by", allocated_by)
        _set(self, "replaced_by", replaced_by)
        _set(self, "victim_count", victim_count)
        _set(self, "constraints", constraints)
        _set(self, "text", text)
        _set(self, "rules", rules)
        _set(self, "alternative", alternative)
        _set(self, "fallback", fallback)
        _set(self, "chosen_by_if_not_traded", chosen_by_if_not_traded)
        _set(self, "site", site)
        _set(self, "site_tie_broken_by", site_tie_broken_by)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        side: Role = ...,
        kind: CalamityKind | None = ...,
        amount: int | None = ...,
        all_but: int | None = ...,
        max_per_victim: int | None = ...,
        unknown: bool = ...,
        per_city: int | None = ...,
        unit: CalamityUnit | None = ...,
        where: str | None = ...,
        condition: str | None = ...,
        chosen_by: str | None = ...,
        allocated_by: str | None = ...,
        replaced_by: str | None = ...,
        victim_count: int | None = ...,
        constraints: tuple[str, ...] = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
        alternative: CalamityAlternative | None = ...,
        fallback: CalamityFallback | None = ...,
        chosen_by_if_not_traded: str | None = ...,
        site: str | None = ...,
        site_tie_broken_by: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def _problem(self) -> str | None:
        return _unknown_given(self, "unknown", ("amount", "all_but", "per_city"))


class CalamityModifier(Record):
    """A civilization card's change to calamity effects, as the calamity's rules state it.

    ``stated`` is an amount the modifier sets outright (it wins over ``amount``, the signed
    change); ``per_commodity`` multiplies the change by the holder's cards of that good; ``adds``
    marks a separate loss rather than a change of this one (Military in Civil War, 30.414).
    """

    _schema = "calamities.schema.json#/$defs/modifier"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "stated": "set_to",
        "becomes_kind": "becomes/kind",
        "adds_kind": "adds/kind",
        "adds_unit": "adds/unit",
    }
    __slots__ = (
        "card",
        "applies_to",
        "effect",
        "effects",
        "amount",
        "amount_unknown",
        "stated",
        "cap",
        "per_commodity",
        "adds",
        "becomes_kind",
        "per_any_commodity",
        "per",
        "adds_kind",
        "optional",
        "text",
        "rules",
        "adds_unit",
    )
    __match_args__ = (
        "card",
        "applies_to",
        "effect",
        "effects",
        "amount",
        "amount_unknown",
        "stated",
        "cap",
        "per_commodity",
        "adds",
        "becomes_kind",
        "per_any_commodity",
        "per",
        "adds_kind",
        "optional",
        "text",
        "rules",
        "adds_unit",
    )

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
    becomes_kind: CalamityKind | None
    per_any_commodity: bool
    #: For an addition: what the amount is counted per (e.g. "faction": once for each faction).
    per: str | None
    #: For an addition: the kind of the separate loss (e.g. "lose_unit_points").
    adds_kind: CalamityKind | None
    #: The holder may choose not to use it (Pottery's Grain against Famine).
    optional: bool
    #: The rule in concise English.
    text: str | None
    #: The rule sections it comes from.
    rules: tuple[str, ...]
    #: For an addition: the unit of its amount (e.g. "tokens").
    adds_unit: CalamityUnit | None

    def __init__(
        self,
        card: str,
        applies_to: AppliesTo,
        effect: ModifierEffect,
        effects: tuple[str, ...],
        amount: int | None,
        amount_unknown: bool,
        stated: int | None,
        cap: int | None,
        per_commodity: str | None,
        adds: bool,
        becomes_kind: CalamityKind | None,
        per_any_commodity: bool = False,
        per: str | None = None,
        adds_kind: CalamityKind | None = None,
        optional: bool = False,
        text: str | None = None,
        rules: tuple[str, ...] = (),
        adds_unit: CalamityUnit | None = None,
    ) -> None:
        _set(self, "card", card)
        _set(self, "applies_to", applies_to)
        _set(self, "effect", effect)
        _set(self, "effects", effects)
        _set(self, "amount", amount)
        _set(self, "amount_unknown", amount_unknown)
        _set(self, "stated", stated)
        _set(self, "cap", cap)
        _set(self, "per_commodity", per_commodity)
        _set(self, "adds", adds)
        _set(self, "becomes_kind", becomes_kind)
        _set(self, "per_any_commodity", per_any_commodity)
        _set(self, "per", per)
        _set(self, "adds_kind", adds_kind)
        _set(self, "optional", optional)
        _set(self, "text", text)
        _set(self, "rules", rules)
        _set(self, "adds_unit", adds_unit)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        card: str = ...,
        applies_to: AppliesTo = ...,
        effect: ModifierEffect = ...,
        effects: tuple[str, ...] = ...,
        amount: int | None = ...,
        amount_unknown: bool = ...,
        stated: int | None = ...,
        cap: int | None = ...,
        per_commodity: str | None = ...,
        adds: bool = ...,
        becomes_kind: CalamityKind | None = ...,
        per_any_commodity: bool = ...,
        per: str | None = ...,
        adds_kind: CalamityKind | None = ...,
        optional: bool = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
        adds_unit: CalamityUnit | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def _problem(self) -> str | None:
        return _unknown_given(self, "amount_unknown", ("amount",))


class CalamityImmunity(Record):
    """Who cannot be a victim of a calamity: a nation, a card holder, or the player who traded it.

    ``side`` is the victims' side the immunity is from (None: from every side). A card holder's
    immunity is also the card's `immunity` modifier, which calamity_amount applies.
    """

    _schema = "calamities.schema.json#/$defs/immune_entry"
    __slots__ = ("who", "side", "nation", "card", "text", "effects", "rules")
    __match_args__ = ("who", "side", "nation", "card", "text", "effects", "rules")

    who: str
    side: Role | None
    nation: str | None
    card: str | None
    text: str | None
    #: The effects the immunity is from (empty: every effect of ``side``).
    effects: tuple[str, ...]
    #: The sections the immunity cites (empty where it cites none, or a package built before them).
    rules: tuple[str, ...]

    def __init__(
        self,
        who: str,
        side: Role | None,
        nation: str | None,
        card: str | None,
        text: str | None,
        effects: tuple[str, ...] = (),
        rules: tuple[str, ...] = (),
    ) -> None:
        _set(self, "who", who)
        _set(self, "side", side)
        _set(self, "nation", nation)
        _set(self, "card", card)
        _set(self, "text", text)
        _set(self, "effects", effects)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        who: str = ...,
        side: Role | None = ...,
        nation: str | None = ...,
        card: str | None = ...,
        text: str | None = ...,
        effects: tuple[str, ...] = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Combination(Record):
    """How modifiers of different cards combine: cumulative, or only the highest of ``precedence``."""

    _schema = "calamities.schema.json#/$defs/modifier_combination"
    __slots__ = ("mode", "precedence", "overrides", "mode_unknown")
    __match_args__ = ("mode", "precedence", "overrides", "mode_unknown")

    mode: CombinationMode | None
    precedence: tuple[str, ...]
    overrides: tuple[tuple[str, tuple[str, ...]], ...]
    #: The rules do not say how modifiers of different cards combine: an amount for a holder of two
    #: or more of the cards is unknown.
    mode_unknown: bool

    def __init__(
        self,
        mode: CombinationMode | None,
        precedence: tuple[str, ...],
        overrides: tuple[tuple[str, tuple[str, ...]], ...],
        mode_unknown: bool = False,
    ) -> None:
        _set(self, "mode", mode)
        _set(self, "precedence", precedence)
        _set(self, "overrides", overrides)
        _set(self, "mode_unknown", mode_unknown)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        mode: CombinationMode | None = ...,
        precedence: tuple[str, ...] = ...,
        overrides: tuple[tuple[str, tuple[str, ...]], ...] = ...,
        mode_unknown: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def _problem(self) -> str | None:
        return _unknown_given(self, "mode_unknown", ("mode",))


class Addition(Record):
    """A separate loss a held card adds to a calamity (Military in Civil War: five unit points
    from each faction, 30.414): ``amount`` of ``kind``, counted once per ``per`` where given."""

    _schema = "calamities.schema.json#/$defs/effect_change"
    __slots__ = ("card", "amount", "per", "kind", "unit")
    __match_args__ = ("card", "amount", "per", "kind", "unit")

    card: str
    amount: int | None
    per: str | None
    kind: CalamityKind | None
    unit: CalamityUnit | None

    def __init__(
        self,
        card: str,
        amount: int | None,
        per: str | None,
        kind: CalamityKind | None,
        unit: CalamityUnit | None = None,
    ) -> None:
        _set(self, "card", card)
        _set(self, "amount", amount)
        _set(self, "per", per)
        _set(self, "kind", kind)
        _set(self, "unit", unit)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        card: str = ...,
        amount: int | None = ...,
        per: str | None = ...,
        kind: CalamityKind | None = ...,
        unit: CalamityUnit | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CalamityAmount(Record):
    """What one calamity effect takes from one holder, after his cards' modifiers.

    ``base`` is the amount as written, or for a secondary victim the most one victim can be made
    to lose (``max_per_victim``); ``per_city`` an amount per city owned; ``change`` the signed sum
    of the modifiers; ``set_to`` an amount a modifier states outright; ``cap`` the most he loses;
    ``additions`` separate losses his cards add (Military in Civil War, 30.414). Where ``unknown``,
    ``unknown_field`` is the field of the data whose unknown leaves the amount unknown (the effect's
    amount, how the calamity's modifiers combine, a held card's change) and ``unknown_reason`` the
    data's why, where the package's unknown facts give it (None: the caller could not say).
    """

    __slots__ = (
        "calamity",
        "effect",
        "role",
        "base",
        "all_but",
        "change",
        "set_to",
        "cap",
        "immune",
        "kind",
        "unknown",
        "per_city",
        "limit",
        "additions",
        "alternative",
        "unknown_field",
        "unknown_reason",
    )
    __match_args__ = (
        "calamity",
        "effect",
        "role",
        "base",
        "all_but",
        "change",
        "set_to",
        "cap",
        "immune",
        "kind",
        "unknown",
        "per_city",
        "limit",
        "additions",
        "alternative",
        "unknown_field",
        "unknown_reason",
    )

    calamity: str
    effect: str
    role: Role
    base: int | None
    all_but: int | None
    change: int
    set_to: int | None
    cap: int | None
    immune: bool
    kind: CalamityKind | None
    unknown: bool
    per_city: int | None
    limit: int | None
    additions: tuple[Addition, ...]
    #: A payment the holder may make instead of suffering the effect (see CalamityAlternative):
    #: ``value`` and ``loss`` are what he loses if he does not pay.
    alternative: CalamityAlternative | None
    unknown_field: str | None
    unknown_reason: str | None

    def __init__(
        self,
        calamity: str,
        effect: str,
        role: Role,
        base: int | None,
        all_but: int | None,
        change: int,
        set_to: int | None,
        cap: int | None,
        immune: bool,
        kind: CalamityKind | None,
        unknown: bool,
        per_city: int | None = None,
        limit: int | None = None,
        additions: tuple[Addition, ...] = (),
        alternative: CalamityAlternative | None = None,
        unknown_field: str | None = None,
        unknown_reason: str | None = None,
    ) -> None:
        _set(self, "calamity", calamity)
        _set(self, "effect", effect)
        _set(self, "role", role)
        _set(self, "base", base)
        _set(self, "all_but", all_but)
        _set(self, "change", change)
        _set(self, "set_to", set_to)
        _set(self, "cap", cap)
        _set(self, "immune", immune)
        _set(self, "kind", kind)
        _set(self, "unknown", unknown)
        _set(self, "per_city", per_city)
        _set(self, "limit", limit)
        _set(self, "additions", additions)
        _set(self, "alternative", alternative)
        _set(self, "unknown_field", unknown_field)
        _set(self, "unknown_reason", unknown_reason)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        calamity: str = ...,
        effect: str = ...,
        role: Role = ...,
        base: int | None = ...,
        all_but: int | None = ...,
        change: int = ...,
        set_to: int | None = ...,
        cap: int | None = ...,
        immune: bool = ...,
        kind: CalamityKind | None = ...,
        unknown: bool = ...,
        per_city: int | None = ...,
        limit: int | None = ...,
        additions: tuple[Addition, ...] = ...,
        alternative: CalamityAlternative | None = ...,
        unknown_field: str | None = ...,
        unknown_reason: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    @property
    def value(self) -> int | None:
        """The most this holder loses: ``loss`` of as many units as the rule can take (for a
        secondary victim, a share as large as ``limit``); None when it depends on his units or
        cities, or is unknown. The same computation as :meth:`loss`, so ``loss(n) <= value`` for
        every ``n`` and ``loss(n) == value`` once ``n`` reaches it."""
        return self._amount(None, None)

    def loss(self, units: int, *, cities: int | None = None) -> int:
        """What the holder loses.

        ``units`` is, for an effect on the primary victim, what he has of the effect's unit (his
        cities for Civil Disorder); for a secondary victim, the share of the total the primary
        victim allotted him (29.61), counted only up to ``limit``: the per-victim limit (Famine: 8,
        30.311; Piracy: one city, 30.912) or else the effect's total (Flood: 10, 30.512;
        Iconoclasm and Heresy: 2, 30.818); his own cards then change it. A secondary victim
        allotted nothing loses nothing. ``cities`` is the cities he owns, for an amount per city
        (Expansion Project Tyranny, 29.8.1.3).

        Raises OutOfDomainError (a ValueError) for a negative ``units`` or ``cities``, or when
        ``cities`` is needed and not given; UnknownFactError when the ruleset does not give the
        amount (``reason``: the data's why, where the package's helpers found it recorded unknown).
        """
        from civrules_runtime.errors import OutOfDomainError, not_given, within

        within(units, "units")
        if cities is not None:
            within(cities, "cities")
        elif self.per_city is not None and self.set_to is None and not self.immune and not self.unknown:
            raise OutOfDomainError(f"{self.calamity}.{self.effect} is an amount per city: give cities=")
        field = f"calamities[{self.calamity}].{self.role}[{self.effect}].amount"
        if self.unknown and not self.immune:
            unknown = self.unknown_field or field  # the input left unknown, not the amount it decides
            reasons = {unknown: self.unknown_reason} if self.unknown_reason is not None else {}
            raise not_given(f"the amount of {self.calamity}.{self.effect}", unknown, reasons, _unknown_input(unknown))
        amount = self._amount(units, cities)
        if amount is None:
            raise not_given(f"an amount of {self.calamity}.{self.effect}", field)
        return amount

    def _amount(self, units: int | None, cities: int | None) -> int | None:
        """The one computation of the rule: what he loses with ``units`` of the effect's unit
        (None: unlimited) and ``cities`` owned (None: not known); None when it cannot be said."""
        if self.immune:
            return 0
        if self.unknown:
            return None
        if self.role == Role.SECONDARY:
            if units is None:
                units = self.limit
            elif self.limit is not None:
                units = min(units, self.limit)
            if units == 0:
                return 0  # allotted nothing, he is no secondary victim
        if self.set_to is not None:
            full = self.set_to
        elif self.per_city is not None:
            if cities is None:
                return None
            full = self.per_city * cities + self.change
        elif self.all_but is not None and self.base is None:
            if units is None:
                return None
            full = max(0, units - self.all_but) + self.change
        elif self.role == Role.SECONDARY and (self.limit is not None or self.base is None):
            if units is None:
                return None
            full = units + self.change
        elif self.base is None:
            return None
        else:
            full = self.base + self.change
        amount = self._capped(full)
        return amount if units is None else min(units, amount) if self.role == Role.PRIMARY else amount

    def _capped(self, amount: int) -> int:
        amount = max(0, amount)
        return amount if self.cap is None else min(amount, self.cap)


def _unknown_input(field: str) -> str:
    """What the unknown ``field`` of a calamity's data (CalamityAmount.unknown_field) decides of an
    amount, in words: said beside the amount the sources do not give."""
    if field.endswith(".modifier_combination.mode"):
        return "how the modifiers of the cards held combine"
    if ".modifiers[" in field:
        card = field[field.index(".modifiers[") + len(".modifiers[") : field.rindex("]")]
        return f"the change {card} makes"
    return ""


# --- Nations, A.S.T., turn, map ----------------------------------------------------------------


class Nation(Record):
    """A nation (civilization); ``region`` is its half of a split map (Mega Civilization);
    ``colour`` the colour of its tokens as the sources name it (None: not in the sources; 4.6
    names Crete's only)."""

    _schema = "ruleset.schema.json#/properties/nations/items"
    __slots__ = ("id", "name", "start_areas", "ast_position", "region", "colour")
    __match_args__ = ("id", "name", "start_areas", "ast_position", "region", "colour")

    id: str
    name: str | None
    start_areas: tuple[str, ...] | None
    ast_position: int | None
    region: MapRegion | None
    colour: str | None

    def __init__(
        self,
        id: str,
        name: str | None,
        start_areas: tuple[str, ...] | None,
        ast_position: int | None,
        region: MapRegion | None = None,
        colour: str | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "start_areas", start_areas)
        _set(self, "ast_position", ast_position)
        _set(self, "region", region)
        _set(self, "colour", colour)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        start_areas: tuple[str, ...] | None = ...,
        ast_position: int | None = ...,
        region: MapRegion | None = ...,
        colour: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Requirements(Record):
    """What entering an epoch requires at one A.S.T. level (None: no such requirement).

    ``known`` is False when the sources do not give the epoch's requirements at all.
    ``min_cards_of_value`` holds (count, lowest cost, cost below) triples.
    """

    _schema = (
        "ruleset.schema.json#/properties/epochs/items/properties/requirements_by_level/items/properties/requirements"
    )
    __slots__ = (
        "min_cities",
        "min_card_groups",
        "min_cards",
        "all_card_groups",
        "two_group_cards_count_twice",
        "card_value_per_space",
        "min_victory_points",
        "min_cards_of_value",
        "known",
    )
    __match_args__ = (
        "min_cities",
        "min_card_groups",
        "min_cards",
        "all_card_groups",
        "two_group_cards_count_twice",
        "card_value_per_space",
        "min_victory_points",
        "min_cards_of_value",
        "known",
    )

    min_cities: int | None
    min_card_groups: int | None
    min_cards: int | None
    all_card_groups: bool
    two_group_cards_count_twice: bool
    card_value_per_space: bool
    min_victory_points: int | None
    min_cards_of_value: tuple[tuple[int, int, int | None], ...]
    known: bool

    def __init__(
        self,
        min_cities: int | None,
        min_card_groups: int | None,
        min_cards: int | None,
        all_card_groups: bool,
        two_group_cards_count_twice: bool,
        card_value_per_space: bool,
        min_victory_points: int | None,
        min_cards_of_value: tuple[tuple[int, int, int | None], ...],
        known: bool,
    ) -> None:
        _set(self, "min_cities", min_cities)
        _set(self, "min_card_groups", min_card_groups)
        _set(self, "min_cards", min_cards)
        _set(self, "all_card_groups", all_card_groups)
        _set(self, "two_group_cards_count_twice", two_group_cards_count_twice)
        _set(self, "card_value_per_space", card_value_per_space)
        _set(self, "min_victory_points", min_victory_points)
        _set(self, "min_cards_of_value", min_cards_of_value)
        _set(self, "known", known)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        min_cities: int | None = ...,
        min_card_groups: int | None = ...,
        min_cards: int | None = ...,
        all_card_groups: bool = ...,
        two_group_cards_count_twice: bool = ...,
        card_value_per_space: bool = ...,
        min_victory_points: int | None = ...,
        min_cards_of_value: tuple[tuple[int, int, int | None], ...] = ...,
        known: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Epoch(Record):
    """An epoch of the A.S.T. and its entry requirements by A.S.T. level (see AST_LEVELS)."""

    _schema = "ruleset.schema.json#/properties/epochs/items"
    __slots__ = ("id", "name", "order", "requirements")
    __match_args__ = ("id", "name", "order", "requirements")

    id: str
    name: str | None
    order: int
    requirements: Mapping[str, Requirements]

    def __init__(self, id: str, name: str | None, order: int, requirements: Mapping[str, Requirements]) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "order", order)
        _set(self, "requirements", _frozen(requirements))

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        order: int = ...,
        requirements: Mapping[str, Requirements] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class AstTrack(Record):
    """A nation's A.S.T. track at one level: where each epoch starts, and the values by space."""

    _schema = "ruleset.schema.json#/properties/ast/properties/tracks/items"
    __slots__ = ("nation", "level", "spaces", "epoch_starts", "space_values")
    __match_args__ = ("nation", "level", "spaces", "epoch_starts", "space_values")

    nation: str
    level: str
    spaces: int | None
    epoch_starts: tuple[tuple[str, int], ...] | None
    space_values: tuple[tuple[int, int | None], ...] | None

    def __init__(
        self,
        nation: str,
        level: str,
        spaces: int | None,
        epoch_starts: tuple[tuple[str, int], ...] | None,
        space_values: tuple[tuple[int, int | None], ...] | None,
    ) -> None:
        _set(self, "nation", nation)
        _set(self, "level", level)
        _set(self, "spaces", spaces)
        _set(self, "epoch_starts", epoch_starts)
        _set(self, "space_values", space_values)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        nation: str = ...,
        level: str = ...,
        spaces: int | None = ...,
        epoch_starts: tuple[tuple[str, int], ...] | None = ...,
        space_values: tuple[tuple[int, int | None], ...] | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class SubActivity(Record):
    """A step of a phase: its id, name as written, the rule sections it cites, and the
    civilization card whose holders alone take it (None: every player)."""

    _schema = "ruleset.schema.json#/properties/sequence_of_play/properties/phases/items/properties/sub_activities/items"
    __slots__ = ("id", "name", "rules", "card")
    __match_args__ = ("id", "name", "rules", "card")

    id: str | None
    name: str | None
    rules: tuple[str, ...]
    card: str | None

    def __init__(self, id: str | None, name: str | None, rules: tuple[str, ...] = (), card: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "rules", rules)
        _set(self, "card", card)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str | None = ...,
        name: str | None = ...,
        rules: tuple[str, ...] = ...,
        card: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Phase(Record):
    """A phase of the turn: its number, when it happens (``condition``), in what order the players
    act, and the numbers of its rules: for the trade the fewest cards each side of a trade gives
    and how many of them he names truthfully (28.3: three, two); for the resolution of calamities
    the most one player suffers as primary victim (29.5: two) and what a city and a token count
    for in a loss of unit points (29.62: five and one), and where the limit has parts the most
    major and minor calamities and cards of one calamity a player keeps (Mega Civilization §8: 2,
    3, one); for the movement the most sea areas a ship moves through (23.52: four). None where
    the phase has no such rule or the ruleset does not give it (a limit's part: no limit of its
    own)."""

    _schema = "ruleset.schema.json#/properties/sequence_of_play/properties/phases/items"
    __slots__ = (
        "id",
        "name",
        "number",
        "condition",
        "order",
        "min_trade_cards",
        "rules",
        "max_primary_calamities",
        "unit_points",
        "ship_moves",
        "named_trade_cards",
        "sub_activities",
        "military_last",
        "max_major_calamities",
        "max_minor_calamities",
        "max_of_one_calamity",
    )
    __match_args__ = (
        "id",
        "name",
        "number",
        "condition",
        "order",
        "min_trade_cards",
        "rules",
        "max_primary_calamities",
        "unit_points",
        "ship_moves",
        "named_trade_cards",
        "sub_activities",
        "military_last",
        "max_major_calamities",
        "max_minor_calamities",
        "max_of_one_calamity",
    )

    id: str
    name: str | None
    number: int | None
    condition: str | None
    order: str | None
    #: The fewest trade cards each player in a trade gives (``condition: min_trade_cards``).
    min_trade_cards: int | None
    #: The rule sections the phase cites.
    rules: tuple[str, ...]
    #: The most calamities one player suffers as primary victim in a turn.
    max_primary_calamities: int | None
    #: The unit points of a city (the most it counts for) and of a token, in a calamity's loss.
    unit_points: tuple[int, int] | None
    #: The most sea areas a ship moves through in one movement phase.
    ship_moves: int | None
    #: How many of the cards he gives each player in a trade names truthfully (the first ones).
    named_trade_cards: int | None
    #: The steps of the phase, in order (Mega Civilization's 5a–5c ...).
    sub_activities: tuple[SubActivity, ...]
    #: The civilization card whose holders act last in the phase (Military, in the movement).
    military_last: str | None
    #: Of the calamities a player suffers, the most major ones (None: no limit of their own).
    max_major_calamities: int | None
    #: Of the calamities a player suffers, the most minor ones (None: no limit of their own).
    max_minor_calamities: int | None
    #: The most cards of one calamity a player suffers; he discards the extra ones first (None: no
    #: limit beyond the calamity's copies).
    max_of_one_calamity: int | None

    def __init__(
        self,
        id: str,
        name: str | None,
        number: int | None,
        condition: str | None,
        order: str | None,
        min_trade_cards: int | None = None,
        rules: tuple[str, ...] = (),
        max_primary_calamities: int | None = None,
        unit_points: tuple[int, int] | None = None,
        ship_moves: int | None = None,
        named_trade_cards: int | None = None,
        sub_activities: tuple[SubActivity, ...] = (),
        military_last: str | None = None,
        max_major_calamities: int | None = None,
        max_minor_calamities: int | None = None,
        max_of_one_calamity: int | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "number", number)
        _set(self, "condition", condition)
        _set(self, "order", order)
        _set(self, "min_trade_cards", min_trade_cards)
        _set(self, "rules", rules)
        _set(self, "max_primary_calamities", max_primary_calamities)
        _set(self, "unit_points", unit_points)
        _set(self, "ship_moves", ship_moves)
        _set(self, "named_trade_cards", named_trade_cards)
        _set(self, "sub_activities", sub_activities)
        _set(self, "military_last", military_last)
        _set(self, "max_major_calamities", max_major_calamities)
        _set(self, "max_minor_calamities", max_minor_calamities)
        _set(self, "max_of_one_calamity", max_of_one_calamity)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        number: int | None = ...,
        condition: str | None = ...,
        order: str | None = ...,
        min_trade_cards: int | None = ...,
        rules: tuple[str, ...] = ...,
        max_primary_calamities: int | None = ...,
        unit_points: tuple[int, int] | None = ...,
        ship_moves: int | None = ...,
        named_trade_cards: int | None = ...,
        sub_activities: tuple[SubActivity, ...] = ...,
        military_last: str | None = ...,
        max_major_calamities: int | None = ...,
        max_minor_calamities: int | None = ...,
        max_of_one_calamity: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class TradeDeckSetup(Record):
    """A trade deck a configuration uses: its id, name and make-up as the rules write it."""

    _schema = (
        "ruleset.schema.json#/properties/player_counts/properties/counts/items"
        "/properties/configurations/oneOf/0/items/properties/trade_decks/items"
    )
    __slots__ = ("id", "name", "text")
    __match_args__ = ("id", "name", "text")

    id: str | None
    name: str | None
    text: str | None

    def __init__(self, id: str | None, name: str | None, text: str | None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "text", text)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str | None = ...,
        name: str | None = ...,
        text: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Configuration(Record):
    """One set-up of a player count: the nations offered (None: unknown or not listed), the map's
    panels, boundary, Western Extension and whether open sea on the boundary is usable (each as
    written, None where not), the map in the rules' words, what an island city costs and whether
    city sites on islands are ignored (16.8), and the trade decks in use."""

    _schema = (
        "ruleset.schema.json#/properties/player_counts/properties/counts/items/properties/configurations/oneOf/0/items"
    )
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "panels": "map/panels",
        "boundary": "map/boundary",
        "western_extension": "map/western_extension",
        "open_sea_on_boundary_usable": "map/open_sea_on_boundary_usable",
        "map_text": "map/text",
    }
    __slots__ = (
        "id",
        "name",
        "nations",
        "panels",
        "boundary",
        "western_extension",
        "open_sea_on_boundary_usable",
        "map_text",
        "island_city_cost_tokens",
        "island_city_sites_ignored",
        "trade_decks",
    )
    __match_args__ = (
        "id",
        "name",
        "nations",
        "panels",
        "boundary",
        "western_extension",
        "open_sea_on_boundary_usable",
        "map_text",
        "island_city_cost_tokens",
        "island_city_sites_ignored",
        "trade_decks",
    )

    id: str | None
    name: str | None
    nations: tuple[str, ...] | None
    panels: str | None
    boundary: str | None
    western_extension: str | None
    open_sea_on_boundary_usable: bool | None
    map_text: str | None
    island_city_cost_tokens: int | None
    island_city_sites_ignored: bool | None
    trade_decks: tuple[TradeDeckSetup, ...]

    def __init__(
        self,
        id: str | None,
        name: str | None = None,
        nations: tuple[str, ...] | None = None,
        panels: str | None = None,
        boundary: str | None = None,
        western_extension: str | None = None,
        open_sea_on_boundary_usable: bool | None = None,
        map_text: str | None = None,
        island_city_cost_tokens: int | None = None,
        island_city_sites_ignored: bool | None = None,
        trade_decks: tuple[TradeDeckSetup, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "nations", nations)
        _set(self, "panels", panels)
        _set(self, "boundary", boundary)
        _set(self, "western_extension", western_extension)
        _set(self, "open_sea_on_boundary_usable", open_sea_on_boundary_usable)
        _set(self, "map_text", map_text)
        _set(self, "island_city_cost_tokens", island_city_cost_tokens)
        _set(self, "island_city_sites_ignored", island_city_sites_ignored)
        _set(self, "trade_decks", trade_decks)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str | None = ...,
        name: str | None = ...,
        nations: tuple[str, ...] | None = ...,
        panels: str | None = ...,
        boundary: str | None = ...,
        western_extension: str | None = ...,
        open_sea_on_boundary_usable: bool | None = ...,
        map_text: str | None = ...,
        island_city_cost_tokens: int | None = ...,
        island_city_sites_ignored: bool | None = ...,
        trade_decks: tuple[TradeDeckSetup, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class SpecialRule(Record):
    """A rule a player count adds (16.8's island cities, the Expansion Project's trade blocks)."""

    _schema = "ruleset.schema.json#/$defs/rule_text"
    __slots__ = ("id", "text")
    __match_args__ = ("id", "text")

    id: str | None
    text: str | None

    def __init__(self, id: str | None, text: str | None) -> None:
        _set(self, "id", id)
        _set(self, "text", text)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str | None = ...,
        text: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class PlayerCount(Record):
    """The rules for one number of players: whether the sources give them, the tokens each player
    has, the nation sets of its configurations (``nations``), each configuration in full
    (``configurations``: nations, map, trade decks) and the rules it adds (``special_rules``)."""

    _schema = "ruleset.schema.json#/properties/player_counts/properties/counts/items"
    __slots__ = ("players", "given", "tokens_per_player", "nations", "configurations", "special_rules")
    __match_args__ = ("players", "given", "tokens_per_player", "nations", "configurations", "special_rules")

    players: int
    given: bool
    tokens_per_player: int | None
    nations: tuple[tuple[str, ...], ...]
    configurations: tuple[Configuration, ...]
    special_rules: tuple[SpecialRule, ...]

    def __init__(
        self,
        players: int,
        given: bool,
        tokens_per_player: int | None,
        nations: tuple[tuple[str, ...], ...],
        configurations: tuple[Configuration, ...] = (),
        special_rules: tuple[SpecialRule, ...] = (),
    ) -> None:
        _set(self, "players", players)
        _set(self, "given", given)
        _set(self, "tokens_per_player", tokens_per_player)
        _set(self, "nations", nations)
        _set(self, "configurations", configurations)
        _set(self, "special_rules", special_rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        players: int = ...,
        given: bool = ...,
        tokens_per_player: int | None = ...,
        nations: tuple[tuple[str, ...], ...] = ...,
        configurations: tuple[Configuration, ...] = ...,
        special_rules: tuple[SpecialRule, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Area(Record):
    """One area of the map (4.1: the map is divided into areas for population and movement); an area contains
    land, water or both (4.22)."""

    _schema = "map.schema.json#/$defs/area"
    __slots__ = (
        "id",
        "name",
        "land",
        "water",
        "open_sea",
        "coastal",
        "population_limit",
        "city_site",
        "flood_plain",
        "panel",
    )
    __match_args__ = (
        "id",
        "name",
        "land",
        "water",
        "open_sea",
        "coastal",
        "population_limit",
        "city_site",
        "flood_plain",
        "panel",
    )

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

    def __init__(
        self,
        id: str,
        name: str | None,
        land: bool,
        water: bool,
        open_sea: bool,
        coastal: bool | None,
        population_limit: int | None,
        city_site: str | None,
        flood_plain: str | None,
        panel: str | None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "land", land)
        _set(self, "water", water)
        _set(self, "open_sea", open_sea)
        _set(self, "coastal", coastal)
        _set(self, "population_limit", population_limit)
        _set(self, "city_site", city_site)
        _set(self, "flood_plain", flood_plain)
        _set(self, "panel", panel)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        land: bool = ...,
        water: bool = ...,
        open_sea: bool = ...,
        coastal: bool | None = ...,
        population_limit: int | None = ...,
        city_site: str | None = ...,
        flood_plain: str | None = ...,
        panel: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Border(Record):
    """A border between two areas (4.3), ``a`` and ``b``; each unordered pair appears once."""

    _schema = "map.schema.json#/$defs/border"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "a": "map.schema.json#/$defs/border/properties/areas/items",
        "b": "map.schema.json#/$defs/border/properties/areas/items",
    }
    __slots__ = ("a", "b", "kind")
    __match_args__ = ("a", "b", "kind")

    a: str
    b: str
    kind: BorderKind | None

    def __init__(self, a: str, b: str, kind: BorderKind | None) -> None:
        _set(self, "a", a)
        _set(self, "b", b)
        _set(self, "kind", kind)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        a: str = ...,
        b: str = ...,
        kind: BorderKind | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Region(Record):
    """A named set of areas: a flood plain, or the areas a volcano touches."""

    _schema = "map.schema.json#/$defs/flood_plain"
    __slots__ = ("id", "name", "areas")
    __match_args__ = ("id", "name", "areas")

    id: str
    name: str | None
    areas: tuple[str, ...]

    def __init__(self, id: str, name: str | None, areas: tuple[str, ...]) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "areas", areas)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        areas: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class TradeStack(Record):
    """One numbered trade card stack: its number (the face value of its commodities), whether calamity
    cards are placed in it, and the ways to buy its cards with treasury tokens (``purchases``)."""

    _schema = "commodities.schema.json#/$defs/trade_stack"
    __slots__ = ("number", "commodities", "calamities", "purchases")
    __match_args__ = ("number", "commodities", "calamities", "purchases")

    number: int
    commodities: tuple[str, ...]
    calamities: tuple[str, ...]
    #: Cards of the stack that may be bought: (treasury tokens per card, the card a buyer must hold).
    purchases: tuple[tuple[int, str | None], ...]

    def __init__(
        self,
        number: int,
        commodities: tuple[str, ...],
        calamities: tuple[str, ...],
        purchases: tuple[tuple[int, str | None], ...] = (),
    ) -> None:
        _set(self, "number", number)
        _set(self, "commodities", commodities)
        _set(self, "calamities", calamities)
        _set(self, "purchases", purchases)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        number: int = ...,
        commodities: tuple[str, ...] = ...,
        calamities: tuple[str, ...] = ...,
        purchases: tuple[tuple[int, str | None], ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class StackSetupStep(Record):
    """One step of preparing the trade stacks before play, as the rules list them."""

    _schema = "commodities.schema.json#/$defs/step"
    __slots__ = ("step", "text", "rules")
    __match_args__ = ("step", "text", "rules")

    step: str
    text: str | None
    rules: tuple[str, ...]

    def __init__(self, step: str, text: str | None, rules: tuple[str, ...]) -> None:
        _set(self, "step", step)
        _set(self, "text", text)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        step: str = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# --- Settings ----------------------------------------------------------------------------------


class HandLimitBand(Record):
    """The commodity cards a player may keep in a game of ``players_min`` to ``players_max``
    players (both included); ``rules``: the band's own citation, () where the setting's covers it."""

    _schema = "ruleset.schema.json#/properties/hand_limit/properties/by_players/items"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "players_min": "players/min",
        "players_max": "players/max",
    }
    __slots__ = ("players_min", "players_max", "commodity_cards", "rules")
    __match_args__ = ("players_min", "players_max", "commodity_cards", "rules")

    players_min: int
    players_max: int
    commodity_cards: int
    rules: tuple[str, ...]

    def __init__(self, players_min: int, players_max: int, commodity_cards: int, rules: tuple[str, ...] = ()) -> None:
        _set(self, "players_min", players_min)
        _set(self, "players_max", players_max)
        _set(self, "commodity_cards", commodity_cards)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        players_min: int = ...,
        players_max: int = ...,
        commodity_cards: int = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class HandLimit(Record):
    """The commodity cards a player may keep, and the cards that change it (cumulative or not).
    ``rules``: the sections the setting cites, then its ``source`` (a variant that changes the
    setting as a house rule cites it there: ``("31.71", "31.72", "house rule: nine cards")``).
    ``by_players``: where the limit depends on the player count, one band per range of counts
    (``commodity_cards`` is then None); () where it does not."""

    _schema = "ruleset.schema.json#/properties/hand_limit"
    __slots__ = ("commodity_cards", "card_changes", "cumulative", "rules", "by_players")
    __match_args__ = ("commodity_cards", "card_changes", "cumulative", "rules", "by_players")

    commodity_cards: int | None
    card_changes: tuple[tuple[str, int], ...]
    cumulative: bool
    rules: tuple[str, ...]
    by_players: tuple[HandLimitBand, ...]

    def __init__(
        self,
        commodity_cards: int | None,
        card_changes: tuple[tuple[str, int], ...],
        cumulative: bool,
        rules: tuple[str, ...],
        by_players: tuple[HandLimitBand, ...] = (),
    ) -> None:
        _set(self, "commodity_cards", commodity_cards)
        _set(self, "card_changes", card_changes)
        _set(self, "cumulative", cumulative)
        _set(self, "rules", rules)
        _set(self, "by_players", by_players)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        commodity_cards: int | None = ...,
        card_changes: tuple[tuple[str, int], ...] = ...,
        cumulative: bool = ...,
        rules: tuple[str, ...] = ...,
        by_players: tuple[HandLimitBand, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class RateChange(Record):
    """A card that lets its holder raise or lower the tax rate, in tokens per city."""

    _schema = "ruleset.schema.json#/properties/taxation/properties/rate_changes/items"
    __slots__ = ("card", "raise_by", "lower_by")
    __match_args__ = ("card", "raise_by", "lower_by")

    card: str
    raise_by: int
    lower_by: int

    def __init__(self, card: str, raise_by: int, lower_by: int) -> None:
        _set(self, "card", card)
        _set(self, "raise_by", raise_by)
        _set(self, "lower_by", lower_by)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        card: str = ...,
        raise_by: int = ...,
        lower_by: int = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Taxation(Record):
    """The tax rate in tokens per city, the cards that change it, and those that prevent revolts."""

    _schema = "ruleset.schema.json#/properties/taxation"
    __slots__ = ("tokens_per_city", "rate_changes", "cumulative", "revolt_immune_cards", "rules")
    __match_args__ = ("tokens_per_city", "rate_changes", "cumulative", "revolt_immune_cards", "rules")

    tokens_per_city: int | None
    rate_changes: tuple[RateChange, ...]
    cumulative: bool
    revolt_immune_cards: tuple[str, ...]
    rules: tuple[str, ...]

    def __init__(
        self,
        tokens_per_city: int | None,
        rate_changes: tuple[RateChange, ...],
        cumulative: bool,
        revolt_immune_cards: tuple[str, ...],
        rules: tuple[str, ...],
    ) -> None:
        _set(self, "tokens_per_city", tokens_per_city)
        _set(self, "rate_changes", rate_changes)
        _set(self, "cumulative", cumulative)
        _set(self, "revolt_immune_cards", revolt_immune_cards)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        tokens_per_city: int | None = ...,
        rate_changes: tuple[RateChange, ...] = ...,
        cumulative: bool = ...,
        revolt_immune_cards: tuple[str, ...] = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class ScoringItem(Record):
    """One item of the final score: what it is counted per, and its points (None: as the rules say
    in ``text``, e.g. a card's face value)."""

    _schema = "ruleset.schema.json#/properties/victory/properties/scoring/items"
    __slots__ = ("id", "name", "per", "points", "text", "rules")
    __match_args__ = ("id", "name", "per", "points", "text", "rules")

    id: str
    name: str | None
    per: str | None
    points: int | None
    text: str | None
    rules: tuple[str, ...]

    def __init__(
        self, id: str, name: str | None, per: str | None, points: int | None, text: str | None, rules: tuple[str, ...]
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "per", per)
        _set(self, "points", points)
        _set(self, "text", text)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        per: str | None = ...,
        points: int | None = ...,
        text: str | None = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# --- What an engine assumes where the sources give nothing (see assumptions.py) ---------------


def _unit_points(value: object, name: str) -> tuple[int, int]:
    """A city's and a token's unit points, each at least 1 (the schema's ``unit_points``)."""
    if isinstance(value, str | bytes) or not isinstance(value, tuple | list) or len(value) != 2:
        raise OutOfDomainError(f"{name}={value!r} is not a pair (city, token) of unit points")
    city, token = value
    return (
        within(city, f"{name}[0]", 1, None, "a city's unit points"),
        within(token, f"{name}[1]", 1, None, "a token's"),
    )


#: What each by-id assumption maps (for its message) and the check of each value; the bounds are
#: those of the fact in the schema (civilization-cards, commodities, ruleset: ``ast.tracks``).
_ASSUMED_BY_ID: dict[str, tuple[str, Callable[[object, str], int]]] = {
    "card_costs": ("civilization cards to costs", count(1, 1000, "a card's cost")),
    "commodity_values": ("commodities to face values", count(1, 9, "a commodity's face value")),
    "commodity_counts": ("commodities to card counts", count(1, 100, "the cards of a commodity")),
    "track_spaces": ("nations to track lengths", count(2, 100, "the spaces of an A.S.T. track")),
}
#: The check of each single assumption: the bounds of the phase's, the hand limit's and the tax's
#: fields in the ruleset schema.
_ASSUMED: dict[str, Callable[[object, str], object]] = {
    "min_trade_cards": count(1, None, "the fewest cards a trade needs"),
    "named_trade_cards": count(0, None, "the cards named in a trade"),
    "max_primary_calamities": count(1, None, "the calamities a primary victim suffers"),
    "unit_points": _unit_points,
    "ship_moves": count(1, None, "a ship's moves"),
    "hand_limit": count(0, None, "the commodity cards kept"),
    "tokens_per_city": count(0, None, "the tax of a city"),
}


class Assumptions(Record):
    """The facts an engine assumes where the sources give none, each optional.

    ``card_costs``: a civilization card's cost, by card; ``commodity_values`` and
    ``commodity_counts``: a good's face value and number of cards; ``track_spaces``: the length of
    a nation's A.S.T. track (its finish follows, 34.1); ``min_trade_cards``, ``named_trade_cards``
    (the trade), ``max_primary_calamities``, ``unit_points`` (a city's and a token's, the
    resolution of calamities), ``ship_moves`` (the movement); ``hand_limit`` (commodity cards
    kept) and ``tokens_per_city`` (the tax). ``why`` says where they come from (a house rule, a
    table's agreement), for the record.

    Each value is checked when the record is made, by the bounds the family's schema sets its fact:
    a number of the wrong type or out of them is OutOfDomainError, a value that is no mapping where
    one belongs NotACollectionError; the ids are checked by ``package.assuming()``.
    """

    _checks_own_arguments = True  # the ids are checked by the package that takes them

    __slots__ = (
        "card_costs",
        "commodity_values",
        "commodity_counts",
        "track_spaces",
        "min_trade_cards",
        "named_trade_cards",
        "max_primary_calamities",
        "unit_points",
        "ship_moves",
        "hand_limit",
        "tokens_per_city",
        "why",
    )
    __match_args__ = (
        "card_costs",
        "commodity_values",
        "commodity_counts",
        "track_spaces",
        "min_trade_cards",
        "named_trade_cards",
        "max_primary_calamities",
        "unit_points",
        "ship_moves",
        "hand_limit",
        "tokens_per_city",
        "why",
    )

    card_costs: tuple[tuple[str, int], ...]
    commodity_values: tuple[tuple[str, int], ...]
    commodity_counts: tuple[tuple[str, int], ...]
    track_spaces: tuple[tuple[str, int], ...]
    min_trade_cards: int | None
    named_trade_cards: int | None
    max_primary_calamities: int | None
    unit_points: tuple[int, int] | None
    ship_moves: int | None
    hand_limit: int | None
    tokens_per_city: int | None
    why: str

    def __init__(
        self,
        *,
        card_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        commodity_values: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        commodity_counts: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        track_spaces: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
        min_trade_cards: int | None = None,
        named_trade_cards: int | None = None,
        max_primary_calamities: int | None = None,
        unit_points: tuple[int, int] | None = None,
        ship_moves: int | None = None,
        hand_limit: int | None = None,
        tokens_per_city: int | None = None,
        why: str = "",
    ) -> None:
        by_id = (
            ("card_costs", card_costs),
            ("commodity_values", commodity_values),
            ("commodity_counts", commodity_counts),
            ("track_spaces", track_spaces),
        )
        for name, values in by_id:
            _set(self, name, pairs(values, name, *_ASSUMED_BY_ID[name]))
        single = (
            ("min_trade_cards", min_trade_cards),
            ("named_trade_cards", named_trade_cards),
            ("max_primary_calamities", max_primary_calamities),
            ("unit_points", unit_points),
            ("ship_moves", ship_moves),
            ("hand_limit", hand_limit),
            ("tokens_per_city", tokens_per_city),
        )
        for name, value in single:
            _set(self, name, optional(value, name, _ASSUMED[name]))
        _set(self, "why", text(why, "why"))

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        card_costs: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        commodity_values: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        commodity_counts: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        track_spaces: Mapping[str, int] | Iterable[tuple[str, int]] | None = ...,
        min_trade_cards: int | None = ...,
        named_trade_cards: int | None = ...,
        max_primary_calamities: int | None = ...,
        unit_points: tuple[int, int] | None = ...,
        ship_moves: int | None = ...,
        hand_limit: int | None = ...,
        tokens_per_city: int | None = ...,
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
