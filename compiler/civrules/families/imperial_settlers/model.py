"""The typed model of an Imperial Settlers ruleset, and how it is built from a resolved ruleset.

Cards are one entity per card with its copies (the copies mark counts a card, not a printed id);
the decks a game uses are derived here: a faction's printed deck is the cards whose printed ids
carry its code, unless the ruleset uses a custom faction deck for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from civrules.families.imperial_settlers.decks import DeckRule, deck_rule
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
    rules_of,
    setting_of,
    source_of,
)
from civrules.model.assembly import assembles, made_of
from civrules.support.values import frozen_value

if TYPE_CHECKING:  # the register imports this room; resolution imports the register
    from civrules.resolve import Entry, Resolved

FAMILY_ID = "imperial-settlers"

#: A list of goods, one per unit, or a fact no source gives.
Goods = tuple[str, ...] | Unknown


@frozen_value
class Counted:
    """Goods that depend on the player's empire (p11/esclarecimentos-gerais, p15): ``each`` once per
    location of ``colour`` (the card itself counted where its colour matches) or, with ``per``
    ``samurai``, per Samurai of the player; at most ``at_most`` counted; and ``plus`` whatever the count."""

    each: str
    #: ``colour`` (the locations of ``colour``) or ``samurai``.
    per: str
    colour: str | None
    at_most: int
    plus: tuple[str, ...]
    rules: tuple[str, ...]
    source: str | None


#: What a card gives (a production, a build bonus): goods, goods counted, or a fact no source gives.
Gives = Goods | Counted


@frozen_value
class CopyFacts:
    """A copy whose printed cost, spoils or deal differ from its card's."""

    printed_id: str
    index: int
    cost: Goods | None
    spoils: Goods | None
    deal: str | Unknown | None


@frozen_value
class Card(Entity):
    """A card of a deck with its copies."""

    kind: str
    colours: tuple[str, ...]
    printed_ids: tuple[str, ...]
    copies: int
    cost: Goods
    spoils: Goods | None
    deal: str | Unknown | None
    production: Gives | None
    effect: str | Unknown | None
    build_bonus: Gives | None
    #: Where the build bonus's goods go where they are not the player's to spend: ``samurai``, placed
    #: at once as Samurai (the Ninjas, p11); None: to the player's supply.
    build_bonus_placed_as: str | None
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


@frozen_value
class SpecialRule:
    id: str
    text: str
    cards: tuple[str, ...]
    index: int
    #: The most pieces one location may hold, for a rule that puts pieces on the faction's
    #: locations (the Japanese `samurai`: 1, p11); None where the rule writes no such bound.
    at_most_per_location: int | None = None
    #: The raze tokens each of those pieces adds to razing its location (a Samurai: 1, p11); None
    #: where the rule writes none.
    raze_added: int | None = None
    #: The rule sections and the secondary source the rule cites.
    rules: tuple[str, ...] = ()
    source: str | None = None


@frozen_value
class Faction(Entity):
    deck: str
    production: Goods
    storage: Goods
    special_rules: tuple[SpecialRule, ...]


@frozen_value
class DeckEntry:
    """A card of a custom deck and its copies; ``index`` is its place in the deck's `cards`."""

    card: str
    copies: int
    index: int


@frozen_value
class FactionDeck(Entity):
    """A faction deck a designer builds, in place of its faction's printed deck."""

    faction: str
    entries: tuple[DeckEntry, ...]


@frozen_value
class Deck(Entity):
    prefix: str
    size: int
    faction: str | None


@frozen_value
class Good(Entity):
    resource: bool
    token: bool
    stands_for: tuple[str, ...]
    note: str | None = None


@frozen_value
class Component(Entity):
    count: int | None
    minimum: int | None
    note: str | None = None


@frozen_value
class Step:
    """One numbered step of a procedure (a phase, the setup, the solo game), in the data's words."""

    number: int | None
    text: str
    rules: tuple[str, ...]
    #: A phase step's cards drawn per deck, common cards revealed, how they are picked, and where
    #: the goods of a production step come from (`draw`, `reveal`, `pick`, `source_of_goods`).
    draw: tuple[tuple[str, int], ...] = ()
    reveal: tuple[tuple[str, int | str], ...] = ()
    pick: str | None = None
    source_of_goods: str | None = None


@frozen_value
class Phase(Entity):
    order: int
    steps: tuple[Mapping[str, Any], ...]
    #: The steps in words, in order.
    phase_steps: tuple[Step, ...] = ()
    note: str | None = None
    skipped_in_last_round: bool = False


@frozen_value
class Action(Entity):
    price: Mapping[str, int]
    allowed: bool
    #: Raze tokens added per defence token, and per Samurai, on the razed location (p7, p11): read
    #: from the `defence` setting and the factions' `samurai` rule for the pieces the action is
    #: `raised_by`, where each is written once; 0 for an action no such piece raises.
    extra_per_defence: int = 0
    extra_per_samurai: int = 0
    #: What one payment of the price gives, at the player's choice (the worker exchange, p10).
    gives_one_of: tuple[str, ...] = ()
    #: What the owner of a razed location gains (p9): the `foundation` setting's `owner_gains` for
    #: an action whose razed location `becomes` a foundation.
    owner_gains: tuple[str, ...] = ()
    note: str | None = None
    #: What the action pays, the cards it takes, what it gives, what a razed location becomes, and
    #: how often a location may be activated a round (`pays`, `cards`, `gives`, `becomes`,
    #: `activations_per_round`), each as written; None where not.
    pays: str | None = None
    cards: str | None = None
    gives: str | None = None
    becomes: str | None = None
    activations_per_round: int | None = None


@frozen_value
class Fact(Entity):
    """An entity the model keeps by id and name (a colour, a kind of location, a part of a card, a
    general rule), with its text where it has one."""

    text: str | None = None
    note: str | None = None
    #: The row of the empire a kind of location is placed in (`row`), the side of a card a part is
    #: printed on (`side`); None where the collection has no such field.
    row: str | None = None
    side: str | None = None


@frozen_value
class TieBreak:
    id: str
    text: str


@frozen_value
class SoloRules:
    """The solo game (p13-p14) as far as the ruleset gives it."""

    setup: tuple[Step, ...]
    lookout: tuple[Step, ...]
    phases: tuple[str, ...]
    attacks_per_round: int | None
    locations_razed_per_attack: int | None
    attack_cards: int | None
    #: The kinds of location the virtual player razes first, in order, then the tie-breaks.
    priority_by_kind: tuple[str, ...]
    priority_then: tuple[str, ...]
    #: Against the Japanese: the deal goods whose faction locations are razed first, in order.
    japanese_target_order: tuple[str, ...]
    defence_protects: bool | None
    samurai_protects: bool | None
    #: What the player's empire is compared with the virtual player's collection by.
    winning_compare: str | None
    rules: tuple[str, ...]


@frozen_value
class Scoring:
    """The VP of a location at the end of the game (p7), where the ruleset gives them."""

    common_location_vp: int | None
    faction_location_vp: int | None
    origin: Origin


@frozen_value
class DefenceRules:
    """The defence tokens (p7), as far as the ruleset gives them (None where not written)."""

    per_production_phase: int | None
    placed_on: str | None
    raze_added: int | None
    movable: bool | None
    discarded_at_clean_up: bool | None


@frozen_value
class Foundation:
    """A razed location turned face down (p9): what its owner gains, what it is good for."""

    owner_gains: tuple[str, ...]
    use: str | None


@frozen_value
class FirstGame:
    """The recommended first game (p5): its factions and players."""

    factions: tuple[str, ...]
    players: int | None


@frozen_value
class SoloLevel:
    """One level of the solo game's achievement table (p14): its id and its threshold."""

    id: str | None
    at_least: int | None
    below: int | None
    name: str | None = None


@frozen_value
class SoloTable:
    """The solo game's achievement table, lowest level first, and where the ruleset writes it."""

    levels: tuple[SoloLevel | None, ...]
    origin: Origin


@frozen_value
class SoloPhases:
    """The phases of a solo round, in order, as written (None where one is not an id), and where
    the ruleset writes them (the `solo` setting)."""

    phases: tuple[str | None, ...]
    origin: Origin


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@frozen_value(kw_only=True)
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

    @property
    def status(self) -> str | None:
        """The manifest's `status` (``draft``, ``official_variant`` ...), where it writes one."""
        found = self.data.get("status")
        return found if isinstance(found, str) else None

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
                level.get("name") if isinstance(level.get("name"), str) else None,
            )
            if isinstance(level, Mapping)
            else None
            for level in (written if isinstance(written, list) else [])
        )
        return SoloTable(levels, origin)

    def solo_phases(self) -> SoloPhases | None:
        """The phases of a solo round (p13), where the ruleset gives them."""
        found = self.setting("solo")
        if found is None or not isinstance(found[0], Mapping) or not isinstance(found[0].get("phases"), list):
            return None
        solo, origin = found
        return SoloPhases(tuple(_str_or_none(phase) for phase in solo["phases"]), origin)

    def rounds(self) -> int | None:
        """How many rounds a game lasts (p6), where the ruleset gives it."""
        found = self.fact("rounds")
        return _int_or_none(found.get("count")) if isinstance(found, Mapping) else None

    def starting_hand(self) -> Mapping[str, int]:
        """The cards each player draws before the first round, by deck kind (p5)."""
        found = self.fact("starting_hand")
        if not isinstance(found, Mapping):
            return {}
        return {key: amount for key in ("common", "faction") if (amount := _int_or_none(found.get(key))) is not None}

    def setup_steps(self) -> tuple[Step, ...]:
        """The setup (p5), step by step."""
        return _steps(self.fact("setup"))

    def tie_breaks(self) -> tuple[TieBreak, ...]:
        """How a tie for the most VP is broken (p7), in order."""
        scoring = self.fact("scoring")
        written = scoring.get("tie_breaks") if isinstance(scoring, Mapping) else None
        return tuple(
            TieBreak(str(item.get("id")), " ".join(str(item.get("text", "")).split()))
            for item in (written if isinstance(written, list) else ())
            if isinstance(item, Mapping)
        )

    def solo_rules(self) -> SoloRules | None:
        """The solo game (p13-p14), where the ruleset gives it."""
        solo = self.fact("solo")
        if not isinstance(solo, Mapping):
            return None
        written = solo.get("attack_priority")
        priority: Mapping[str, Any] = written if isinstance(written, Mapping) else {}
        japanese = solo.get("japanese_target_order")
        attack_cards = solo.get("attack_cards")
        winning = solo.get("winning")
        return SoloRules(
            setup=_steps(solo.get("setup")),
            lookout=_steps(solo.get("lookout_steps")),
            phases=_names(solo.get("phases")),
            attacks_per_round=_int_or_none(solo.get("attacks_per_round")),
            locations_razed_per_attack=_int_or_none(solo.get("locations_razed_per_attack")),
            attack_cards=_int_or_none(attack_cards.get("count")) if isinstance(attack_cards, Mapping) else None,
            priority_by_kind=_names(priority.get("by_kind")),
            priority_then=_names(priority.get("then")),
            japanese_target_order=_names(japanese.get("order")) if isinstance(japanese, Mapping) else (),
            defence_protects=_bool_or_none(solo.get("defence_protects")),
            samurai_protects=_bool_or_none(solo.get("samurai_protects")),
            winning_compare=str(winning["compare"])
            if isinstance(winning, Mapping) and isinstance(winning.get("compare"), str)
            else None,
            rules=rules_of(solo),
        )

    def deck_building(self) -> DeckRule | None:
        """The deck-building rule (p12) as the checks, the sheets and the package read it."""
        return deck_rule(self.fact("deck_building"))

    def deck_building_rules(self) -> tuple[str, ...]:
        """The rule sections the deck-building rule cites."""
        found = self.fact("deck_building")
        return rules_of(found) if isinstance(found, Mapping) else ()

    def colourless_cards(self) -> frozenset[str]:
        """The cards the ruleset says have no colour (p12)."""
        found = self.fact("colourless_cards")
        return frozenset(
            str(item.get("card")) for item in (found if isinstance(found, list) else ()) if isinstance(item, Mapping)
        )

    def raze_spoils_decks(self) -> tuple[str, ...]:
        """The decks whose cards carry spoils (can be razed, p4)."""
        uses = self.fact("card_uses")
        raze = uses.get("raze") if isinstance(uses, Mapping) else None
        return _names(raze.get("spoils_on")) if isinstance(raze, Mapping) else ()

    def card_uses_rules(self) -> tuple[str, ...]:
        """The rule sections the uses of cards (razing, dealing) cite, razing's first."""
        uses = self.fact("card_uses")
        parts = [uses.get(key) for key in ("raze", "deal")] if isinstance(uses, Mapping) else []
        return tuple(dict.fromkeys(rule for part in parts if isinstance(part, Mapping) for rule in rules_of(part)))

    def deal_decks(self) -> tuple[str, ...]:
        """The decks whose cards carry a deal area (p4)."""
        uses = self.fact("card_uses")
        deal = uses.get("deal") if isinstance(uses, Mapping) else None
        return _names(deal.get("deal_on")) if isinstance(deal, Mapping) else ()

    def defence_rules(self) -> DefenceRules | None:
        """The defence tokens (p7), where the ruleset gives them."""
        found = self.fact("defence")
        if not isinstance(found, Mapping):
            return None
        return DefenceRules(
            _int_or_none(found.get("tokens_per_production_phase")),
            _str_or_none(found.get("placed_on")),
            _int_or_none(found.get("raze_added")),
            _bool_or_none(found.get("movable")),
            _bool_or_none(found.get("discarded_at_clean_up")),
        )

    def foundation(self) -> Foundation | None:
        """A foundation (p9), where the ruleset gives it."""
        found = self.fact("foundation")
        if not isinstance(found, Mapping):
            return None
        return Foundation(_names(found.get("owner_gains")), _str_or_none(found.get("use")))

    def goods_unlimited(self) -> bool | None:
        """Whether goods are not limited by the pieces (p3), where the ruleset says."""
        found = self.fact("goods_unlimited")
        return _bool_or_none(found.get("value")) if isinstance(found, Mapping) else None

    def first_game(self) -> FirstGame | None:
        """The recommended first game (p5), where the ruleset gives it."""
        found = self.fact("first_game")
        if not isinstance(found, Mapping):
            return None
        return FirstGame(_names(found.get("factions")), _int_or_none(found.get("players")))

    def defence_raze_added(self) -> int | None:
        """The raze tokens a defence token adds to razing its location (p7)."""
        found = self.fact("defence")
        return _int_or_none(found.get("raze_added")) if isinstance(found, Mapping) else None

    def unknown_fact_list(self) -> tuple[tuple[str, str, str], ...]:
        """Every fact the sources do not give: the data file (as :meth:`file_name` names it), the
        field's path in it as written, and why (as check Q006 names them)."""
        from civrules.checks.unknowns import fact_field, unknown_facts
        from civrules.families.imperial_settlers import FAMILY

        return tuple(
            (self.file_name(document.file), fact_field(document, path, FAMILY), " ".join(reason.split()))
            for document, path, reason in unknown_facts(self)
        )

    def custom_deck(self, faction: str) -> FactionDeck | None:
        """The custom deck the ruleset uses for ``faction`` (the first, where it has several)."""
        return _decks_of(self).custom.get(faction)

    def deck_cards(self, deck: Deck) -> list[tuple[Card, int]]:
        """The cards of a deck as the game uses it, each with its copies: a faction's custom deck
        where the ruleset has one, else the cards printed for the deck."""
        custom = self.custom_deck(deck.faction) if deck.faction is not None else None
        if custom is not None:
            found = [(self.cards.get(e.card), e.copies) for e in custom.entries]
            return [(card, copies) for card, copies in found if card is not None]
        return [(card, card.copies) for card in _decks_of(self).printed.get(deck.id, ())]

    def printed_cards(self, deck: str | None) -> Sequence[Card]:
        """The cards printed for the deck ``deck`` (by its id), in the order of :attr:`cards`."""
        return _decks_of(self).printed.get(deck, ())

    def card_position(self, card: str) -> int:
        """Where the card ``card`` (by its id) stands in :attr:`cards` (-1: it is none of them)."""
        return _decks_of(self).position.get(card, -1)


class _Decks:
    """A ruleset's cards by the deck they are printed for and its custom decks by faction (the
    first of each), made once per model: asked per deck, a walk over every card and custom deck
    grew as the product of decks and cards."""

    __slots__ = ("custom", "position", "printed")

    def __init__(self, ruleset: ImperialSettlersRuleset) -> None:
        self.printed: dict[str | None, list[Card]] = {}
        self.position: dict[str, int] = {}
        for n, card in enumerate(ruleset.cards):
            self.printed.setdefault(card.deck, []).append(card)
            self.position.setdefault(card.id, n)
        self.custom: dict[str, FactionDeck] = {}
        for deck in ruleset.faction_decks:
            self.custom.setdefault(deck.faction, deck)


def _decks_of(ruleset: ImperialSettlersRuleset) -> _Decks:
    cached = _DECKS.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        if len(_DECKS) >= 8:
            _DECKS.clear()
        cached = _DECKS[id(ruleset)] = (ruleset, _Decks(ruleset))
    return cached[1]


#: Each model's decks, by the model's identity (the model is kept in the entry, so that a reused id
#: cannot match).
_DECKS: dict[int, tuple[ImperialSettlersRuleset, _Decks]] = {}


def _bool_or_none(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _steps(value: Any) -> tuple[Step, ...]:
    return tuple(
        Step(
            _int_or_none(item.get("step")),
            " ".join(str(item.get("text", "")).split()),
            rules_of(item),
            _pairs(item.get("draw")),
            _pairs(item.get("reveal")),
            _str_or_none(item.get("pick")),
            _str_or_none(item.get("source_of_goods")),
        )
        for item in (value if isinstance(value, list) else ())
        if isinstance(item, Mapping) and isinstance(item.get("text"), str)
    )


def _pairs(value: Any) -> tuple[tuple[str, Any], ...]:
    """A mapping of deck → number (or word) as (key, value) pairs in the order written."""
    if not isinstance(value, Mapping):
        return ()
    return tuple((str(k), v) for k, v in value.items() if isinstance(v, (int, str)) and not isinstance(v, bool))


def _note(raw: Mapping[str, Any]) -> str | None:
    note = raw.get("note")
    return " ".join(note.split()) if isinstance(note, str) else None


def _goods(value: Any) -> Goods | None:
    if value is None:
        return None
    value = known(value)
    if isinstance(value, Unknown):
        return value
    return tuple(str(v) for v in value) if isinstance(value, list) else None


def _gives(value: Any) -> Gives | None:
    """Goods, or goods counted per location of a colour or per Samurai (a mapping with ``each``)."""
    if isinstance(value, Mapping) and "each" in value and "unknown" not in value:
        per = value.get("per")
        colour = per.get("colour") if isinstance(per, Mapping) else None
        at_most = value.get("at_most")
        return Counted(
            each=str(value["each"]),
            per="colour" if isinstance(per, Mapping) else str(per),
            colour=str(colour) if colour is not None else None,
            at_most=at_most if isinstance(at_most, int) and not isinstance(at_most, bool) else 0,
            plus=tuple(str(g) for g in value.get("plus") or ()),
            rules=rules_of(value),
            source=source_of(value),
        )
    return _goods(value)


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
        production=_gives(raw.get("production")),
        effect=_text(raw.get("effect")),
        build_bonus=_gives(raw.get("build_bonus")),
        build_bonus_placed_as=_str_or_none(raw.get("build_bonus_placed_as")),
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
        SpecialRule(
            str(r.get("id")),
            str(r.get("text", "")),
            tuple(str(c) for c in r.get("cards") or ()),
            i,
            at_most_per_location=_int_or_none(r.get("at_most_per_location")),
            raze_added=_int_or_none(r.get("raze_added")),
            rules=rules_of(r),
            source=source_of(r),
        )
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


def _raze_added(resolved: Resolved, factions: Iterable[Faction]) -> dict[str, int]:
    """The raze tokens a defence token (the `defence` setting, p7) and a Samurai (the factions'
    `samurai` rule, p11) add to razing their location, each read where it is written (0 where it
    is not: the price is then the action's own)."""
    defence = setting_of(resolved.data, resolved.settings, resolved.setting_origins, "defence")
    raw = defence[0] if defence is not None and isinstance(defence[0], Mapping) else {}
    samurai = [rule.raze_added for faction in factions for rule in faction.special_rules if rule.id == "samurai"]
    return {
        "defence": _int_or_none(raw.get("raze_added")) or 0,
        "samurai": max((added for added in samurai if added is not None), default=0),
    }


# Each collection a check's findings are made of (:func:`civrules.checks.made_of`) is built of
# the entries it reads alone (:func:`~civrules.model.assembly.assembles`): within a session's memo,
# a variant keeping its base's entries holds the base's very collection, and those checks are run
# once for both.


def _deck_of(entry: Entry) -> Deck:
    raw = entry.raw
    return Deck(
        **_base(entry), prefix=str(raw.get("prefix", "")), size=int(raw.get("size", 0)), faction=raw.get("faction")
    )


@assembles("decks")
def _decks(resolved: Resolved) -> Collection[Deck]:
    return Collection.of("decks", [_deck_of(e) for e in resolved.collections.get("decks", [])])


@assembles("decks", "cards")
def _cards(resolved: Resolved) -> Collection[Card]:
    """The cards, each with the deck its prefix names (so made of the decks' entries too)."""
    prefixes = {deck.prefix: deck.id for deck in map(_deck_of, resolved.collections.get("decks", []))}
    return Collection.of("cards", [_card(e, prefixes) for e in resolved.collections.get("cards", [])])


@assembles("factions")
def _factions(resolved: Resolved) -> Collection[Faction]:
    return Collection.of("factions", [_faction(e) for e in resolved.collections.get("factions", [])])


@assembles("faction_decks")
def _faction_decks(resolved: Resolved) -> Collection[FactionDeck]:
    return Collection.of("faction_decks", [_faction_deck(e) for e in resolved.collections.get("faction_decks", [])])


@assembles("components")
def _components(resolved: Resolved) -> Collection[Component]:
    return Collection.of(
        "components",
        [
            Component(**_base(e), count=e.raw.get("count"), minimum=e.raw.get("minimum"), note=_note(e.raw))
            for e in resolved.collections.get("components", [])
        ],
    )


@assembles("goods")
def _goods_of(resolved: Resolved) -> Collection[Good]:
    return Collection.of(
        "goods",
        [
            Good(
                **_base(e),
                resource=bool(e.raw.get("resource", False)),
                token=bool(e.raw.get("token", False)),
                stands_for=tuple(e.raw.get("stands_for") or ()),
                note=_note(e.raw),
            )
            for e in resolved.collections.get("goods", [])
        ],
    )


def build_model(resolved: Resolved) -> ImperialSettlersRuleset:
    """The model of a resolved Imperial Settlers ruleset (the family's ``assemble`` hook)."""
    data = resolved.data
    entries = resolved.collections
    players = data.get("players") or {}
    factions = _factions(resolved)
    added = _raze_added(resolved, factions)
    foundation = setting_of(resolved.data, resolved.settings, resolved.setting_origins, "foundation")
    founded = _names(foundation[0].get("owner_gains")) if foundation and isinstance(foundation[0], Mapping) else ()
    return ImperialSettlersRuleset(
        id=data["id"],
        name=data["name"],
        family=resolved.family.id,
        manifest=Origin(resolved.manifest, ()),
        extends=data.get("extends"),
        players=made_of(player_range, players),
        best_players=best_players(players),
        description=description_of(resolved.manifest),
        rule_index=made_of(rule_index_of, resolved.rule_index),
        documents=tuple({id(d): d for d in resolved.documents}.values()),
        settings=resolved.settings,
        removed={name: dict(ids) for name, ids in resolved.removed.items()},
        removed_settings=dict(resolved.removed_settings),
        chain=resolved.chain,
        data=resolved.data,
        setting_origins=dict(resolved.setting_origins),
        layers=dict(resolved.layers),
        names=dict(resolved.names),
        cards=_cards(resolved),
        factions=factions,
        faction_decks=_faction_decks(resolved),
        components=_components(resolved),
        goods=_goods_of(resolved),
        colours=Collection.of("colours", [Fact(**_base(e)) for e in entries.get("colours", [])]),
        location_kinds=Collection.of(
            "location_kinds",
            [
                Fact(**_base(e), row=_str_or_none(e.raw.get("row")), note=_note(e.raw))
                for e in entries.get("location_kinds", [])
            ],
        ),
        card_anatomy=Collection.of(
            "card_anatomy",
            [
                Fact(**_base(e), side=_str_or_none(e.raw.get("side")), note=_note(e.raw))
                for e in entries.get("card_anatomy", [])
            ],
        ),
        decks=_decks(resolved),
        phases=Collection.of(
            "phases",
            [
                Phase(
                    **_base(e),
                    order=int(e.raw.get("order", 0)),
                    steps=tuple(e.raw.get("steps") or ()),
                    phase_steps=_steps(e.raw.get("steps")),
                    note=_note(e.raw),
                    skipped_in_last_round=e.raw.get("skipped_in_last_round") is True,
                )
                for e in entries.get("phases", [])
            ],
        ),
        actions=Collection.of(
            "actions",
            [
                Action(
                    **_base(e),
                    price=dict(e.raw.get("price") or {}),
                    allowed=e.raw.get("allowed", True) is not False,
                    extra_per_defence=added["defence"] if "defence" in _names(e.raw.get("raised_by")) else 0,
                    extra_per_samurai=added["samurai"] if "samurai" in _names(e.raw.get("raised_by")) else 0,
                    gives_one_of=_names(e.raw.get("gives_one_of")),
                    owner_gains=founded if e.raw.get("becomes") == "foundation" else (),
                    note=_note(e.raw),
                    pays=_str_or_none(e.raw.get("pays")),
                    cards=_str_or_none(e.raw.get("cards")),
                    gives=_str_or_none(e.raw.get("gives")),
                    becomes=_str_or_none(e.raw.get("becomes")),
                    activations_per_round=_int_or_none(e.raw.get("activations_per_round")),
                )
                for e in entries.get("actions", [])
            ],
        ),
        general_rules=Collection.of(
            "general_rules",
            [
                Fact(
                    **_base(e),
                    text=" ".join(e.raw["text"].split()) if isinstance(e.raw.get("text"), str) else None,
                    note=_note(e.raw),
                )
                for e in entries.get("general_rules", [])
            ],
        ),
    )
