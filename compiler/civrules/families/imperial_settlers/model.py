"""The typed model of an Imperial Settlers ruleset, and how it is built from a resolved ruleset.

Cards are one entity per card with its copies (the copies mark counts a card, not a printed id);
the decks a game uses are derived here: a faction's printed deck is the cards whose printed ids
carry its code, unless the ruleset uses a custom faction deck for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from civrules.model import Collection, Entity, Origin, Ruleset, Unknown, known, rule_index_of

if TYPE_CHECKING:  # the register imports this room; resolution imports the register
    from civrules.resolve import Entry, Resolved

FAMILY_ID = "imperial-settlers"

#: A list of goods, one per unit, or a fact no source gives.
Goods = tuple[str, ...] | Unknown


@dataclass(frozen=True, slots=True)
class CopyFacts:
    """A copy whose printed cost, spoils or deal differ from its card's."""

    printed_id: str
    index: int
    cost: Goods | None
    spoils: Goods | None
    deal: str | Unknown | None


@dataclass(frozen=True, slots=True)
class Card(Entity):
    """A card of a deck with its copies."""

    kind: str
    colours: tuple[str, ...]
    printed_ids: tuple[str, ...]
    copies: int
    cost: Goods
    spoils: Goods | None
    deal: str | Unknown | None
    production: Goods | None
    effect: str | Unknown | None
    build_bonus: Goods | None
    differing_copies: tuple[CopyFacts, ...]
    #: The deck the card belongs to (its printed ids' code, or its `deck:`), None where neither says.
    deck: str | None
    can_be_razed: bool
    activations_per_round: int
    refers_to: tuple[str, ...]
    #: The name a source in another language gives, and that language (never shown as the name).
    source_name: tuple[str, str] | None

    def copy_facts(self, printed_id: str) -> tuple[Goods, Goods | None, str | Unknown | None]:
        """The cost, spoils and deal of one copy."""
        for differing in self.differing_copies:
            if differing.printed_id == printed_id:
                return (
                    differing.cost if differing.cost is not None else self.cost,
                    differing.spoils if differing.spoils is not None else self.spoils,
                    differing.deal if differing.deal is not None else self.deal,
                )
        return self.cost, self.spoils, self.deal


@dataclass(frozen=True, slots=True)
class SpecialRule:
    id: str
    text: str
    cards: tuple[str, ...]
    index: int


@dataclass(frozen=True, slots=True)
class Faction(Entity):
    deck: str
    production: Goods
    storage: Goods
    special_rules: tuple[SpecialRule, ...]


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """A card of a custom deck and its copies; ``index`` is its place in the deck's `cards`."""

    card: str
    copies: int
    index: int


@dataclass(frozen=True, slots=True)
class FactionDeck(Entity):
    """A faction deck a designer builds, in place of its faction's printed deck."""

    faction: str
    entries: tuple[DeckEntry, ...]


@dataclass(frozen=True, slots=True)
class Deck(Entity):
    prefix: str
    size: int
    faction: str | None


@dataclass(frozen=True, slots=True)
class Good(Entity):
    resource: bool
    token: bool
    stands_for: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Component(Entity):
    count: int | None
    minimum: int | None


@dataclass(frozen=True, slots=True)
class Phase(Entity):
    order: int
    steps: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Action(Entity):
    price: Mapping[str, int]
    allowed: bool


@dataclass(frozen=True, slots=True)
class Fact(Entity):
    """An entity the model keeps by id and name only (a colour, a kind of location, a part of a card)."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """The VP of a location at the end of the game (p7), where the ruleset gives them."""

    common_location_vp: int | None
    faction_location_vp: int | None
    origin: Origin


@dataclass(frozen=True, slots=True)
class SoloLevel:
    """One level of the solo game's achievement table (p14): its id and its threshold."""

    id: str | None
    at_least: int | None
    below: int | None


@dataclass(frozen=True, slots=True)
class SoloTable:
    """The solo game's achievement table, lowest level first, and where the ruleset writes it."""

    levels: tuple[SoloLevel | None, ...]
    origin: Origin


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True, slots=True, kw_only=True)
class ImperialSettlersRuleset(Ruleset):
    """An Imperial Settlers ruleset."""

    cards: Collection[Card]
    factions: Collection[Faction]
    faction_decks: Collection[FactionDeck]
    components: Collection[Component]
    goods: Collection[Good]
    colours: Collection[Fact]
    location_kinds: Collection[Fact]
    card_anatomy: Collection[Fact]
    decks: Collection[Deck]
    phases: Collection[Phase]
    actions: Collection[Action]
    general_rules: Collection[Fact]

    def collections(self) -> tuple[Collection[Entity], ...]:
        return (
            self.cards,
            self.factions,
            self.faction_decks,
            self.components,
            self.goods,
            self.colours,
            self.location_kinds,
            self.card_anatomy,
            self.decks,
            self.phases,
            self.actions,
            self.general_rules,
        )

    def fact(self, name: str) -> Any:
        """A setting's resolved value (None where the ruleset has none)."""
        found = self.setting(name)
        return found[0] if found is not None else None

    def fact_origin(self, name: str) -> Origin | None:
        """Where the ruleset writes a setting (None where it has none)."""
        found = self.setting(name)
        return found[1] if found is not None else None

    def scoring(self) -> Scoring | None:
        """The end-of-game VP of locations (p7), where the ruleset gives them."""
        found = self.setting("scoring")
        if found is None or not isinstance(found[0], Mapping):
            return None
        value, origin = found
        return Scoring(
            _int_or_none(value.get("common_location_vp")), _int_or_none(value.get("faction_location_vp")), origin
        )

    def solo_table(self) -> SoloTable | None:
        """The solo game's achievement table (p14), where the ruleset gives it; a level written as
        something other than a mapping is None in its place."""
        found = self.setting("solo")
        if found is None or not isinstance(found[0], Mapping):
            return None
        solo, origin = found
        achievements = solo.get("achievements")
        written = achievements.get("levels") if isinstance(achievements, Mapping) else None
        levels = tuple(
            SoloLevel(
                level.get("id") if isinstance(level.get("id"), str) else None,
                _int_or_none(level.get("at_least")),
                _int_or_none(level.get("below")),
            )
            if isinstance(level, Mapping)
            else None
            for level in (written if isinstance(written, list) else [])
        )
        return SoloTable(levels, origin)

    def deck_of_prefix(self, prefix: str) -> Deck | None:
        for deck in self.decks:
            if deck.prefix == prefix:
                return deck
        return None

    def custom_deck(self, faction: str) -> FactionDeck | None:
        """The custom deck the ruleset uses for ``faction`` (the first, where it has several)."""
        for deck in self.faction_decks:
            if deck.faction == faction:
                return deck
        return None

    def deck_cards(self, deck: Deck) -> list[tuple[Card, int]]:
        """The cards of a deck as the game uses it, each with its copies: a faction's custom deck
        where the ruleset has one, else the cards printed for the deck."""
        custom = self.custom_deck(deck.faction) if deck.faction is not None else None
        if custom is not None:
            found = [(self.cards.get(e.card), e.copies) for e in custom.entries]
            return [(card, copies) for card, copies in found if card is not None]
        return [(card, card.copies) for card in self.cards if card.deck == deck.id]


def _goods(value: Any) -> Goods | None:
    if value is None:
        return None
    value = known(value)
    if isinstance(value, Unknown):
        return value
    return tuple(str(v) for v in value) if isinstance(value, list) else None


def _text(value: Any) -> str | Unknown | None:
    value = known(value)
    return value if isinstance(value, (str, Unknown)) else None


def _card(entry: Entry, prefixes: Mapping[str, str]) -> Card:
    raw = entry.raw
    printed = tuple(str(p) for p in raw.get("printed_ids") or () if isinstance(p, str))
    deck = raw.get("deck") if isinstance(raw.get("deck"), str) else None
    if deck is None and printed:
        deck = prefixes.get(printed[0][:3])
    differing = []
    for index, item in enumerate(raw.get("differing_copies") or ()):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            differing.append(
                CopyFacts(
                    item["id"], index, _goods(item.get("cost")), _goods(item.get("spoils")), _text(item.get("deal"))
                )
            )
    named = raw.get("source_name")
    cost = _goods(raw.get("cost"))
    return Card(
        id=raw["id"],
        name=known(raw.get("name", raw["id"])),
        origin=entry.origin,
        raw=raw,
        kind=str(raw.get("kind", "")),
        colours=tuple(str(c) for c in raw.get("colours") or ()),
        printed_ids=printed,
        copies=int(raw.get("copies", len(printed)) or 0),
        cost=cost if cost is not None else (),
        spoils=_goods(raw.get("spoils")),
        deal=_text(raw.get("deal")),
        production=_goods(raw.get("production")),
        effect=_text(raw.get("effect")),
        build_bonus=_goods(raw.get("build_bonus")),
        differing_copies=tuple(differing),
        deck=deck,
        can_be_razed=raw.get("can_be_razed", True) is not False,
        activations_per_round=int(raw.get("activations_per_round", 1)),
        refers_to=tuple(str(c) for c in raw.get("refers_to") or ()),
        source_name=(str(named["text"]), str(named["language"])) if isinstance(named, dict) else None,
    )


def _faction(entry: Entry) -> Faction:
    raw = entry.raw
    board = raw.get("board") or {}
    rules = tuple(
        SpecialRule(str(r.get("id")), str(r.get("text", "")), tuple(str(c) for c in r.get("cards") or ()), i)
        for i, r in enumerate(raw.get("special_rules") or ())
        if isinstance(r, dict)
    )
    return Faction(
        id=raw["id"],
        name=known(raw.get("name", raw["id"])),
        origin=entry.origin,
        raw=raw,
        deck=str(raw.get("deck", "")),
        production=_goods(board.get("production")) or (),
        storage=_goods(board.get("storage")) or (),
        special_rules=rules,
    )


def _faction_deck(entry: Entry) -> FactionDeck:
    raw = entry.raw
    entries = tuple(
        DeckEntry(str(item.get("card")), int(item.get("copies", 0)), i)
        for i, item in enumerate(raw.get("cards") or ())
        if isinstance(item, dict) and isinstance(item.get("copies"), int)
    )
    return FactionDeck(
        id=raw["id"],
        name=known(raw.get("name", raw["id"])),
        origin=entry.origin,
        raw=raw,
        faction=str(raw.get("faction", "")),
        entries=entries,
    )


def _base(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.raw["id"],
        "name": known(entry.raw.get("name", entry.raw["id"])),
        "origin": entry.origin,
        "raw": entry.raw,
    }


def build_model(resolved: Resolved) -> ImperialSettlersRuleset:
    """The model of a resolved Imperial Settlers ruleset (the family's ``assemble`` hook)."""
    data = resolved.data
    entries = resolved.collections
    decks = [
        Deck(
            **_base(e),
            prefix=str(e.raw.get("prefix", "")),
            size=int(e.raw.get("size", 0)),
            faction=e.raw.get("faction"),
        )
        for e in entries.get("decks", [])
    ]
    prefixes = {deck.prefix: deck.id for deck in decks}
    players = data.get("players") or {}
    return ImperialSettlersRuleset(
        id=data["id"],
        name=data["name"],
        family=resolved.family.id,
        manifest=Origin(resolved.manifest, ()),
        extends=data.get("extends"),
        players=(players.get("min", 0), players.get("max", 0)),
        rule_index=rule_index_of(resolved.rule_index),
        documents=tuple({id(d): d for d in resolved.documents}.values()),
        settings=resolved.settings,
        removed={name: dict(ids) for name, ids in resolved.removed.items()},
        chain=resolved.chain,
        data=resolved.data,
        setting_origins=dict(resolved.setting_origins),
        layers=dict(resolved.layers),
        cards=Collection.of("cards", [_card(e, prefixes) for e in entries.get("cards", [])]),
        factions=Collection.of("factions", [_faction(e) for e in entries.get("factions", [])]),
        faction_decks=Collection.of("faction_decks", [_faction_deck(e) for e in entries.get("faction_decks", [])]),
        components=Collection.of(
            "components",
            [
                Component(**_base(e), count=e.raw.get("count"), minimum=e.raw.get("minimum"))
                for e in entries.get("components", [])
            ],
        ),
        goods=Collection.of(
            "goods",
            [
                Good(
                    **_base(e),
                    resource=bool(e.raw.get("resource", False)),
                    token=bool(e.raw.get("token", False)),
                    stands_for=tuple(e.raw.get("stands_for") or ()),
                )
                for e in entries.get("goods", [])
            ],
        ),
        colours=Collection.of("colours", [Fact(**_base(e)) for e in entries.get("colours", [])]),
        location_kinds=Collection.of("location_kinds", [Fact(**_base(e)) for e in entries.get("location_kinds", [])]),
        card_anatomy=Collection.of("card_anatomy", [Fact(**_base(e)) for e in entries.get("card_anatomy", [])]),
        decks=Collection.of("decks", decks),
        phases=Collection.of(
            "phases",
            [
                Phase(**_base(e), order=int(e.raw.get("order", 0)), steps=tuple(e.raw.get("steps") or ()))
                for e in entries.get("phases", [])
            ],
        ),
        actions=Collection.of(
            "actions",
            [
                Action(
                    **_base(e), price=dict(e.raw.get("price") or {}), allowed=e.raw.get("allowed", True) is not False
                )
                for e in entries.get("actions", [])
            ],
        ),
        general_rules=Collection.of("general_rules", [Fact(**_base(e)) for e in entries.get("general_rules", [])]),
    )
