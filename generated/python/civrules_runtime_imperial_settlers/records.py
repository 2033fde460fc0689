# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The records of every package of the Imperial Settlers family: frozen, slotted, compared by their fields.

Ids of a ruleset's own collections (cards, goods, factions, decks) are plain ``str`` here: each
package's id enums (``CardId`` ...) are ``StrEnum``s, so their members are those strings, and one
engine function reads any ruleset's records. A field that is None holds a fact the sources do not
give; a list of goods holds one id per unit (``("wood", "wood", "stone")``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Self, TypeVar

from civrules_runtime.assumed import pairs, text
from civrules_runtime.errors import collection, within
from civrules_runtime.mappings import FrozenMap
from civrules_runtime.records import Record, bound, typed_replace
from civrules_runtime.records import UnknownFact as UnknownFact

from .bounds import BOUNDS, WHERE

TYPE_CHECKING = False

_set = object.__setattr__
#: An empty read-only mapping (a step that draws or reveals nothing).
_NONE: FrozenMap[str, int] = FrozenMap({})


_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(table: Mapping[_K, _V]) -> Mapping[_K, _V]:
    """``table`` as a FrozenMap, as the package's own records hold theirs: a record an engine makes
    from a dict of its own would otherwise change when the dict does, and not hash."""
    return table if isinstance(table, FrozenMap) else FrozenMap(table)


class SourceName(Record):
    """A name a source in another language gives a card, and that language (ISO 639-1): never the
    card's name in the edition's language."""

    _schema = "imperial-settlers/cards.schema.json#/properties/cards/items/properties/source_name"
    __slots__ = ("text", "language")
    __match_args__ = ("text", "language")

    text: str
    language: str

    def __init__(self, text: str, language: str) -> None:
        _set(self, "text", text)
        _set(self, "language", language)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        text: str = ...,
        language: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CopyFacts(Record):
    """A copy of a card whose printed cost, spoils or deal differ from the card's (None: as the card's)."""

    _schema = "imperial-settlers/cards.schema.json#/properties/cards/items/properties/differing_copies/items"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "printed_id": "id",
    }
    __slots__ = ("printed_id", "cost", "spoils", "deal")
    __match_args__ = ("printed_id", "cost", "spoils", "deal")

    printed_id: str
    cost: tuple[str, ...] | None
    spoils: tuple[str, ...] | None
    deal: str | None

    def __init__(
        self,
        printed_id: str,
        cost: tuple[str, ...] | None = None,
        spoils: tuple[str, ...] | None = None,
        deal: str | None = None,
    ) -> None:
        _set(self, "printed_id", printed_id)
        _set(self, "cost", cost)
        _set(self, "spoils", spoils)
        _set(self, "deal", deal)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        printed_id: str = ...,
        cost: tuple[str, ...] | None = ...,
        spoils: tuple[str, ...] | None = ...,
        deal: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CountedGoods(Record):
    """Goods that depend on the player's empire (p11, p15: "1 good per location of a colour"):
    ``each`` once per location of ``colour`` in the empire, the card itself counted where its colour
    matches (``per`` ``"colour"``), or once per Samurai of the player (``per`` ``"samurai"``,
    ``colour`` None); ``at_most`` counted at most; and the goods of ``plus`` whatever the count.
    ``given(count)`` is what a count gives. ``rules`` cite the rule and the source of the fact."""

    _schema = "imperial-settlers/cards.schema.json#/$defs/counted"
    __slots__ = ("each", "per", "colour", "at_most", "plus", "rules")
    __match_args__ = ("each", "per", "colour", "at_most", "plus")

    each: str
    per: str
    colour: str | None
    at_most: int
    plus: tuple[str, ...]
    rules: tuple[str, ...]

    def __init__(
        self,
        each: str,
        per: str,
        colour: str | None,
        at_most: int,
        plus: tuple[str, ...] = (),
        rules: tuple[str, ...] = (),
    ) -> None:
        _set(self, "each", each)
        _set(self, "per", per)
        _set(self, "colour", colour)
        _set(self, "at_most", at_most)
        _set(self, "plus", plus)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        each: str = ...,
        per: str = ...,
        colour: str | None = ...,
        at_most: int = ...,
        plus: tuple[str, ...] = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def given(self, count: int) -> tuple[str, ...]:
        """The goods ``count`` things counted give (locations of the colour, the card itself
        included; or Samurai): ``each`` once per thing, up to ``at_most``, then ``plus``."""
        within(count, "count", 0, None, f"{'Samurai' if self.per == 'samurai' else 'locations of the colour'} counted")
        return (self.each,) * min(count, self.at_most) + self.plus


class Card(Record):
    """A card of a deck with its copies: its kind of location, colours, printed ids, building cost
    (``location``: a built location or a foundation discarded), spoils (what razing it gives), deal
    (the good a deal with it gives), production, build bonus (goods, one id per unit, or
    :class:`CountedGoods` where they depend on the player's empire); None where the sources do not say.
    ``build_bonus_placed_as`` is where the bonus's goods go where they are not the player's to spend:
    ``"samurai"``, placed at once as Samurai (the Ninjas, p11); None: to the player's supply.
    ``name`` is None where no source in the edition's language names the card. ``effect`` is an
    ability or action location's effect in the project's words (None: not in the sources, or a
    production location, which has none)."""

    _schema = "imperial-settlers/cards.schema.json#/properties/cards/items"
    __slots__ = (
        "id",
        "name",
        "kind",
        "colours",
        "deck",
        "printed_ids",
        "copies",
        "cost",
        "spoils",
        "deal",
        "production",
        "build_bonus",
        "differing_copies",
        "can_be_razed",
        "activations_per_round",
        "source_name",
        "rules",
        "effect",
        "build_bonus_placed_as",
    )
    __match_args__ = ("id", "name", "kind", "colours", "deck", "printed_ids", "copies", "cost")

    id: str
    name: str | None
    kind: str
    colours: tuple[str, ...]
    deck: str | None
    printed_ids: tuple[str, ...]
    copies: int
    cost: tuple[str, ...] | None
    spoils: tuple[str, ...] | None
    deal: str | None
    production: tuple[str, ...] | CountedGoods | None
    build_bonus: tuple[str, ...] | CountedGoods | None
    differing_copies: tuple[CopyFacts, ...]
    can_be_razed: bool
    activations_per_round: int
    source_name: SourceName | None
    rules: tuple[str, ...]
    effect: str | None
    build_bonus_placed_as: str | None

    def __init__(
        self,
        id: str,
        name: str | None,
        kind: str,
        colours: tuple[str, ...],
        deck: str | None,
        printed_ids: tuple[str, ...],
        copies: int,
        cost: tuple[str, ...] | None,
        spoils: tuple[str, ...] | None = None,
        deal: str | None = None,
        production: tuple[str, ...] | CountedGoods | None = None,
        build_bonus: tuple[str, ...] | CountedGoods | None = None,
        differing_copies: tuple[CopyFacts, ...] = (),
        can_be_razed: bool = True,
        activations_per_round: int = 1,
        source_name: SourceName | None = None,
        rules: tuple[str, ...] = (),
        effect: str | None = None,
        build_bonus_placed_as: str | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "kind", kind)
        _set(self, "colours", colours)
        _set(self, "deck", deck)
        _set(self, "printed_ids", printed_ids)
        _set(self, "copies", copies)
        _set(self, "cost", cost)
        _set(self, "spoils", spoils)
        _set(self, "deal", deal)
        _set(self, "production", production)
        _set(self, "build_bonus", build_bonus)
        _set(self, "differing_copies", differing_copies)
        _set(self, "can_be_razed", can_be_razed)
        _set(self, "activations_per_round", activations_per_round)
        _set(self, "source_name", source_name)
        _set(self, "rules", rules)
        _set(self, "effect", effect)
        _set(self, "build_bonus_placed_as", build_bonus_placed_as)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        kind: str = ...,
        colours: tuple[str, ...] = ...,
        deck: str | None = ...,
        printed_ids: tuple[str, ...] = ...,
        copies: int = ...,
        cost: tuple[str, ...] | None = ...,
        spoils: tuple[str, ...] | None = ...,
        deal: str | None = ...,
        production: tuple[str, ...] | CountedGoods | None = ...,
        build_bonus: tuple[str, ...] | CountedGoods | None = ...,
        differing_copies: tuple[CopyFacts, ...] = ...,
        can_be_razed: bool = ...,
        activations_per_round: int = ...,
        source_name: SourceName | None = ...,
        rules: tuple[str, ...] = ...,
        effect: str | None = ...,
        build_bonus_placed_as: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Faction(Record):
    """A faction: its deck, what its board produces in every production phase and what it lets a
    player store at clean-up (one good id per unit)."""

    _schema = "imperial-settlers/factions.schema.json#/properties/factions/items"
    __slots__ = ("id", "name", "deck", "production", "storage", "rules", "special_rules")
    __match_args__ = ("id", "name", "deck", "production", "storage")

    id: str
    name: str | None
    deck: str
    production: tuple[str, ...] | None
    storage: tuple[str, ...] | None
    rules: tuple[str, ...]
    #: The faction's own rules (p11), each with the cards it concerns.
    special_rules: tuple[FactionRule, ...]

    def __init__(
        self,
        id: str,
        name: str | None,
        deck: str,
        production: tuple[str, ...] | None,
        storage: tuple[str, ...] | None,
        rules: tuple[str, ...] = (),
        special_rules: tuple[FactionRule, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "deck", deck)
        _set(self, "production", production)
        _set(self, "storage", storage)
        _set(self, "rules", rules)
        _set(self, "special_rules", special_rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        deck: str = ...,
        production: tuple[str, ...] | None = ...,
        storage: tuple[str, ...] | None = ...,
        rules: tuple[str, ...] = ...,
        special_rules: tuple[FactionRule, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Deck(Record):
    """A deck: its printed code, its size, and its faction (None: the common deck)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/decks/items"
    __slots__ = ("id", "name", "prefix", "size", "faction")
    __match_args__ = ("id", "name", "prefix", "size", "faction")

    id: str
    name: str | None
    prefix: str
    size: int
    faction: str | None

    def __init__(self, id: str, name: str | None, prefix: str, size: int, faction: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "prefix", prefix)
        _set(self, "size", size)
        _set(self, "faction", faction)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        prefix: str = ...,
        size: int = ...,
        faction: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Good(Record):
    """A good: a resource, a token, or another; ``stands_for`` the goods it may pay in place of (gold)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/goods/items"
    __slots__ = ("id", "name", "resource", "token", "stands_for")
    __match_args__ = ("id", "name", "resource", "token", "stands_for")

    id: str
    name: str | None
    resource: bool
    token: bool
    stands_for: tuple[str, ...]

    def __init__(
        self, id: str, name: str | None, resource: bool = False, token: bool = False, stands_for: tuple[str, ...] = ()
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "resource", resource)
        _set(self, "token", token)
        _set(self, "stands_for", stands_for)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        resource: bool = ...,
        token: bool = ...,
        stands_for: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Action(Record):
    """An action of the action phase: its price (good → amount), whether the ruleset allows it, the
    raze tokens each defence token and each Samurai add, and what one payment gives (one of); what
    the action pays (``card_cost``, ``card_activation``: where its price is the card's), the cards it
    takes (``faction``, ``spoils``), what it gives (``deal``, ``spoils``), what a razed location
    becomes (``foundation``) and its owner gains, and how often a location may be activated a
    round (None where the action does not say)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/actions/items"
    __slots__ = (
        "id",
        "name",
        "price",
        "allowed",
        "extra_per_defence",
        "extra_per_samurai",
        "gives_one_of",
        "rules",
        "pays",
        "cards",
        "gives",
        "becomes",
        "owner_gains",
        "activations_per_round",
    )
    __match_args__ = ("id", "name", "price", "allowed")

    id: str
    name: str | None
    price: Mapping[str, int]
    allowed: bool
    extra_per_defence: int
    extra_per_samurai: int
    gives_one_of: tuple[str, ...]
    rules: tuple[str, ...]
    pays: str | None
    cards: str | None
    gives: str | None
    becomes: str | None
    owner_gains: tuple[str, ...]
    activations_per_round: int | None

    def __init__(
        self,
        id: str,
        name: str | None,
        price: Mapping[str, int],
        allowed: bool = True,
        extra_per_defence: int = 0,
        extra_per_samurai: int = 0,
        gives_one_of: tuple[str, ...] = (),
        rules: tuple[str, ...] = (),
        pays: str | None = None,
        cards: str | None = None,
        gives: str | None = None,
        becomes: str | None = None,
        owner_gains: tuple[str, ...] = (),
        activations_per_round: int | None = None,
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "price", _frozen(price))
        _set(self, "allowed", allowed)
        _set(self, "extra_per_defence", extra_per_defence)
        _set(self, "extra_per_samurai", extra_per_samurai)
        _set(self, "gives_one_of", gives_one_of)
        _set(self, "rules", rules)
        _set(self, "pays", pays)
        _set(self, "cards", cards)
        _set(self, "gives", gives)
        _set(self, "becomes", becomes)
        _set(self, "owner_gains", owner_gains)
        _set(self, "activations_per_round", activations_per_round)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        price: Mapping[str, int] = ...,
        allowed: bool = ...,
        extra_per_defence: int = ...,
        extra_per_samurai: int = ...,
        gives_one_of: tuple[str, ...] = ...,
        rules: tuple[str, ...] = ...,
        pays: str | None = ...,
        cards: str | None = ...,
        gives: str | None = ...,
        becomes: str | None = ...,
        owner_gains: tuple[str, ...] = ...,
        activations_per_round: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Phase(Record):
    """A phase of a round, in order, with its steps in words (``steps``) and in full
    (``step_facts``: what each step draws, reveals, picks and produces from)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/phases/items"
    __slots__ = ("id", "name", "order", "steps", "skipped_in_last_round", "rules", "step_facts")
    __match_args__ = ("id", "name", "order", "steps")

    id: str
    name: str | None
    order: int
    steps: tuple[str, ...]
    skipped_in_last_round: bool
    rules: tuple[str, ...]
    step_facts: tuple[PhaseStep, ...]

    def __init__(
        self,
        id: str,
        name: str | None,
        order: int,
        steps: tuple[str, ...],
        skipped_in_last_round: bool = False,
        rules: tuple[str, ...] = (),
        step_facts: tuple[PhaseStep, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "order", order)
        _set(self, "steps", steps)
        _set(self, "skipped_in_last_round", skipped_in_last_round)
        _set(self, "rules", rules)
        _set(self, "step_facts", step_facts)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        order: int = ...,
        steps: tuple[str, ...] = ...,
        skipped_in_last_round: bool = ...,
        rules: tuple[str, ...] = ...,
        step_facts: tuple[PhaseStep, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Colour(Record):
    """A colour (type) of location cards (p4)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/colours/items"
    __slots__ = ("id", "name")
    __match_args__ = ("id", "name")

    id: str
    name: str | None

    def __init__(self, id: str, name: str | None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class LocationRow(Record):
    """A kind of location and the row of the empire it is placed in (p4: top, middle, bottom)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/location_kinds/items"
    __slots__ = ("id", "name", "row")
    __match_args__ = ("id", "name", "row")

    id: str
    name: str | None
    row: str | None

    def __init__(self, id: str, name: str | None, row: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "row", row)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        row: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class CardPart(Record):
    """A part of a card and the side of the card it is printed on (p4)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/card_anatomy/items"
    __slots__ = ("id", "name", "side")
    __match_args__ = ("id", "name", "side")

    id: str
    name: str | None
    side: str | None

    def __init__(self, id: str, name: str | None, side: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "side", side)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        side: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Component(Record):
    """A component of the box: how many there are, or the fewest (``minimum``) where the rules give that (p2)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/components/items"
    __slots__ = ("id", "name", "count", "minimum")
    __match_args__ = ("id", "name", "count", "minimum")

    id: str
    name: str | None
    count: int | None
    minimum: int | None

    def __init__(self, id: str, name: str | None, count: int | None = None, minimum: int | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "count", count)
        _set(self, "minimum", minimum)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        count: int | None = ...,
        minimum: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class GeneralRule(Record):
    """A rule that holds throughout the game (p10's general rules ...), in the data's words."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/general_rules/items"
    __slots__ = ("id", "name", "text")
    __match_args__ = ("id", "name", "text")

    id: str
    name: str | None
    text: str | None

    def __init__(self, id: str, name: str | None, text: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "text", text)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        text: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class FactionRule(Record):
    """A special rule of a faction (p11), in the data's words, and the cards it concerns.
    ``at_most_per_location``: for a rule that puts pieces on the faction's locations (the Japanese
    ``samurai``), the most one location may hold (None: the rule writes no bound). ``rules`` cite
    the rule and the source of the fact."""

    _schema = "imperial-settlers/factions.schema.json#/properties/factions/items/properties/special_rules/items"
    __slots__ = ("id", "text", "cards", "at_most_per_location", "rules")
    __match_args__ = ("id", "text", "cards")

    id: str
    text: str
    cards: tuple[str, ...]
    at_most_per_location: int | None
    rules: tuple[str, ...]

    def __init__(
        self,
        id: str,
        text: str,
        cards: tuple[str, ...] = (),
        at_most_per_location: int | None = None,
        rules: tuple[str, ...] = (),
    ) -> None:
        _set(self, "id", id)
        _set(self, "text", text)
        _set(self, "cards", cards)
        _set(self, "at_most_per_location", at_most_per_location)
        _set(self, "rules", rules)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        text: str = ...,
        cards: tuple[str, ...] = ...,
        at_most_per_location: int | None = ...,
        rules: tuple[str, ...] = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class PhaseStep(Record):
    """One step of a phase: its number, its words, the cards each player draws from each deck
    (deck → cards), the common cards revealed (a number or ``players_plus_one``), how the revealed
    cards are picked, and where the goods of a production step come from."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/phases/items/properties/steps/items"
    __slots__ = ("step", "text", "draw", "reveal", "pick", "source_of_goods")
    __match_args__ = ("step", "text", "draw", "reveal", "pick", "source_of_goods")

    step: int | None
    text: str
    draw: Mapping[str, int]
    reveal: Mapping[str, int | str]
    pick: str | None
    source_of_goods: str | None

    def __init__(
        self,
        step: int | None,
        text: str,
        draw: Mapping[str, int] = _NONE,
        reveal: Mapping[str, int | str] = _NONE,
        pick: str | None = None,
        source_of_goods: str | None = None,
    ) -> None:
        _set(self, "step", step)
        _set(self, "text", text)
        _set(self, "draw", _frozen(draw))
        _set(self, "reveal", _frozen(reveal))
        _set(self, "pick", pick)
        _set(self, "source_of_goods", source_of_goods)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        step: int | None = ...,
        text: str = ...,
        draw: Mapping[str, int] = ...,
        reveal: Mapping[str, int | str] = ...,
        pick: str | None = ...,
        source_of_goods: str | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class Scoring(Record):
    """The VP each location in an empire adds at the end of the game (p7)."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/scoring"
    __slots__ = ("common_location_vp", "faction_location_vp")
    __match_args__ = ("common_location_vp", "faction_location_vp")

    common_location_vp: int | None
    faction_location_vp: int | None

    def __init__(self, common_location_vp: int | None, faction_location_vp: int | None) -> None:
        _set(self, "common_location_vp", common_location_vp)
        _set(self, "faction_location_vp", faction_location_vp)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        common_location_vp: int | None = ...,
        faction_location_vp: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class SoloLevel(Record):
    """A level of the solo game's achievement table (p14): a score of at least ``at_least`` (and
    below ``below``, for the lowest) reaches it."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/solo/properties/achievements/properties/levels/items"
    __slots__ = ("id", "name", "at_least", "below")
    __match_args__ = ("id", "name", "at_least", "below")

    id: str
    name: str | None
    at_least: int | None
    below: int | None

    def __init__(self, id: str, name: str | None, at_least: int | None = None, below: int | None = None) -> None:
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "at_least", at_least)
        _set(self, "below", below)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        id: str = ...,
        name: str | None = ...,
        at_least: int | None = ...,
        below: int | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class DeckRule(Record):
    """The deck-building rule (p12): a faction deck of ``size`` cards, ``pattern`` (copies, cards):
    that many cards of that many copies each; every copy of a card in or none."""

    _schema = "imperial-settlers/ruleset.schema.json#/properties/deck_building"
    _properties = {  # noqa: RUF012 - a class setting (see Record); not a field
        "size": "deck_size",
    }
    __slots__ = ("size", "pattern", "all_copies")
    __match_args__ = ("size", "pattern", "all_copies")

    size: int
    pattern: tuple[tuple[int, int], ...]
    all_copies: bool

    def __init__(self, size: int, pattern: tuple[tuple[int, int], ...], all_copies: bool = True) -> None:
        _set(self, "size", size)
        _set(self, "pattern", pattern)
        _set(self, "all_copies", all_copies)

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        size: int = ...,
        pattern: tuple[tuple[int, int], ...] = ...,
        all_copies: bool = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


# --- What an engine assumes where the sources give nothing (package.assuming) -----------------


def _goods(value: object, name: str) -> tuple[str, ...]:
    """Assumed goods, one id per good (checked by the package at ``assuming()``)."""
    collection(value, name)
    return tuple(value)  # type: ignore[arg-type]  # collection() refused what is not iterable; known() checks the ids


def _pairs(
    values: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None, field: str, what: str
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """By id, sorted, each value a tuple: from a mapping, or from the pairs a record holds."""
    return pairs(values, field, f"cards to {what} (the goods, one id per good)", _goods)


class Assumptions(Record):
    """The facts an engine assumes where the sources give none, each optional, by card id (the
    values are good ids, one per good: ``("wood", "wood")`` is two wood).

    ``card_costs``: what building a location costs (``location``: a location discarded);
    ``card_productions``: what a production location produces; ``card_build_bonuses``: what
    building a location gives once. ``why`` says where they come from (a house rule, a table's
    agreement), for the record.
    """

    _checks_own_arguments = True  # the ids are checked by the package that takes them

    __slots__ = ("card_costs", "card_productions", "card_build_bonuses", "why")
    __match_args__ = ("card_costs", "card_productions", "card_build_bonuses", "why")

    card_costs: tuple[tuple[str, tuple[str, ...]], ...]
    card_productions: tuple[tuple[str, tuple[str, ...]], ...]
    card_build_bonuses: tuple[tuple[str, tuple[str, ...]], ...]
    why: str

    def __init__(
        self,
        *,
        card_costs: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = None,
        card_productions: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = None,
        card_build_bonuses: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = None,
        why: str = "",
    ) -> None:
        _set(self, "card_costs", _pairs(card_costs, "card_costs", "costs"))
        _set(self, "card_productions", _pairs(card_productions, "card_productions", "productions"))
        _set(self, "card_build_bonuses", _pairs(card_build_bonuses, "card_build_bonuses", "build bonuses"))
        _set(self, "why", text(why, "why"))

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        card_costs: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = ...,
        card_productions: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = ...,
        card_build_bonuses: Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]] | None = ...,
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
