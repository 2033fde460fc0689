"""The facts ``civrules export`` derives for a ruleset of the Imperial Settlers family."""

from __future__ import annotations

from typing import Any

from civrules.families.imperial_settlers.model import ImperialSettlersRuleset


def expanded_decks(model: ImperialSettlersRuleset) -> dict[str, list[str]]:
    """Each deck as the game uses it, one entry per copy: the printed ids of its cards' copies
    (a faction's custom deck in place of its printed one where the ruleset uses one)."""
    found: dict[str, list[str]] = {}
    for deck in model.decks:
        ids: list[str] = []
        for card, copies in model.deck_cards(deck):
            ids.extend(card.printed_ids[:copies])
        found[deck.id] = ids
    return found


def derived_facts(model: ImperialSettlersRuleset) -> dict[str, Any]:
    """``decks_expanded`` {deck: [printed id per copy]}, ``deck_totals`` {deck: cards}, and which
    custom deck each faction uses (``faction_deck_in_use``; absent: the printed one)."""
    decks = expanded_decks(model)
    return {
        "decks_expanded": decks,
        "deck_totals": {deck: len(ids) for deck, ids in decks.items()},
        "faction_deck_in_use": {
            faction.id: custom.id for faction in model.factions if (custom := model.custom_deck(faction.id)) is not None
        },
    }
