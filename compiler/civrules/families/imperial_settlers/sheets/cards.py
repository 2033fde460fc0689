"""Card references: one page per faction deck as the game uses it, and one for the common deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import Notes, humanize, row_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers.model import Card, Deck, ImperialSettlersRuleset
from civrules.families.imperial_settlers.sheets.words import card_label, goods_text, name_of, printed_ids, words
from civrules.model import Unknown


def effect_text(effect: str) -> str:
    """A card's `effect` as its row prints it: the data's words, whitespace folded (a card without
    an ability says so in them, `No ability: ...`: its `None: ...` read as a value left out)."""
    return " ".join(effect.split())


def card_row(source: Source[ImperialSettlersRuleset], card: Card, copies: int, notes: Notes) -> dict[str, Any]:
    """One card as its reference row prints it: printed ids, name, kind, colours, cost, spoils, deal,
    copies, and what the card does where the sources give it (`effect`: printed by no sheet before,
    round 23); a row whose effect the sources do not give prints none (most cards')."""
    ruleset = source.ruleset
    label, unnamed = card_label(card, notes)
    deal = card.deal
    if isinstance(deal, Unknown):
        deal_text = notes.fact(deal, "deal")
    else:
        deal_text = name_of(ruleset, "goods", deal) if deal is not None else "—"
    differing = []
    for copy in card.differing_copies:
        parts = []
        if copy.cost is not None:
            parts.append("cost " + goods_text(ruleset, copy.cost, notes, "cost"))
        if copy.spoils is not None:
            parts.append("spoils " + goods_text(ruleset, copy.spoils, notes, "spoils"))
        if isinstance(copy.deal, str):
            parts.append("deal " + name_of(ruleset, "goods", copy.deal))
        if parts:
            differing.append(f"{copy.printed_id}: {', '.join(parts)}")
    colours = words(ruleset, "colours", card.colours) if card.colours else "no colour"
    return {
        "ids": printed_ids(card),
        "name": label,
        "unnamed": unnamed,
        "kind": name_of(ruleset, "location_kinds", card.kind),
        "colours": colours,
        "cost": goods_text(ruleset, card.cost, notes, "cost", none="—"),
        "spoils": goods_text(ruleset, card.spoils, notes, "spoils"),
        "deal": deal_text,
        "effect": effect_text(card.effect) if isinstance(card.effect, str) else "",
        "differing": differing,
        "copies": copies,
        "mark": source.changed("cards", card.id),
        "rule": row_citation(card),
    }


def deck_table(source: Source[ImperialSettlersRuleset], deck: Deck, notes: Notes) -> dict[str, Any]:
    ruleset = source.ruleset
    cards = ruleset.deck_cards(deck)
    faction = ruleset.factions.get(deck.faction) if deck.faction is not None else None
    custom = ruleset.custom_deck(deck.faction) if deck.faction is not None else None
    traded: dict[str, list[str]] = {"out": [], "in": []}
    if custom is not None:
        printed = {
            card.id: card.copies
            for card in ruleset.printed_cards(deck.id)
            if source.changed("cards", card.id) != "added"
        }
        used = {card.id: copies for card, copies in cards}
        # The cards of either, in the order of the ruleset's cards (a walk over every card for each
        # custom deck grew as the product of the two).
        for card_id in sorted(printed.keys() | used.keys(), key=ruleset.card_position):
            card = ruleset.cards.get(card_id)
            if card is None:
                continue
            label = card.printed_ids[0] if card.printed_ids else card.id
            if printed.get(card.id, 0) > used.get(card.id, 0):
                traded["out"].append(f"{label} ({printed[card.id] - used.get(card.id, 0)})")
            if used.get(card.id, 0) > printed.get(card.id, 0):
                traded["in"].append(f"{label} ({used[card.id] - printed.get(card.id, 0)})")
    return {
        "name": deck.display_name,
        "traded": traded,
        "faction": faction.display_name if faction is not None else None,
        "custom": custom.display_name if custom is not None else None,
        "custom_mark": source.changed("faction_decks", custom.id) if custom is not None else "",
        "size": deck.size,
        "total": sum(copies for _, copies in cards),
        "rows": [card_row(source, card, copies, notes) for card, copies in cards],
    }


#: The side of a card a part is printed on, and the row of an empire a kind of location goes in,
#: in words (the values the ruleset schema allows).
SIDES = {"left": "Left side", "right": "Right side", "bottom": "Bottom"}
ROWS = {"top": "top row", "middle": "middle row", "bottom": "bottom row"}


def card_anatomy(source: Source[ImperialSettlersRuleset]) -> list[dict[str, Any]]:
    """The parts of a card (`card_anatomy`), by the side each is printed on, in the data's order:
    each part's name, what the data says of it, its citation and mark."""
    sides: dict[str, list[dict[str, str]]] = {}
    for part in source.ruleset.card_anatomy:
        side = SIDES.get(part.side or "", humanize(part.side or "")) or "Elsewhere"
        sides.setdefault(side[:1].upper() + side[1:], []).append(
            {
                "text": part.display_name + (f": {part.note}" if part.note else ""),
                "rule": row_citation(part),
                "mark": source.changed("card_anatomy", part.id),
            }
        )
    return [{"side": side, "parts": parts} for side, parts in sides.items()]


def location_kinds(source: Source[ImperialSettlersRuleset]) -> list[dict[str, str]]:
    """The kinds of location (`location_kinds`): the row of an empire each goes in and what the
    data says of it, cited and marked."""
    found = []
    for kind in source.ruleset.location_kinds:
        row = ROWS.get(kind.row or "", humanize(kind.row or ""))
        text = kind.display_name + (f", {row}" if row else "") + (f": {kind.note}" if kind.note else "")
        found.append({"text": text, "rule": row_citation(kind), "mark": source.changed("location_kinds", kind.id)})
    return found


@sheet(
    "faction-cards.html",
    "Faction cards",
    "Every card of each faction deck as the game uses it, a page per faction: printed ids, name, kind, "
    "colour, cost, spoils, deal and copies.",
    position=20,
    landscape=True,
    sources=("cards", "faction_deck"),
)
def build_faction_cards(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    notes = Notes()
    decks = [deck_table(source, deck, notes) for deck in source.ruleset.decks if deck.faction is not None]
    return {"decks": decks, "notes": notes.listed()}


@sheet(
    "common-cards.html",
    "Common cards",
    "Every card of the common deck: printed ids, name, kind, colour, cost, spoils and copies; the parts of a card "
    "and the kinds of location.",
    position=21,
    landscape=True,
    sources=("cards",),
)
def build_common_cards(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    notes = Notes()
    decks = [deck_table(source, deck, notes) for deck in source.ruleset.decks if deck.faction is None]
    return {
        "decks": decks,
        "anatomy": card_anatomy(source),
        "kinds": location_kinds(source),
        "notes": notes.listed(),
    }
