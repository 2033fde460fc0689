"""The faction boards: what each produces in every production phase, what it stores at clean-up,
its deck, and the faction's special rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import Notes, row_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset, SpecialRule
from civrules.families.imperial_settlers.sheets.words import goods_text


@sheet(
    "faction-boards.html",
    "Faction boards",
    "Each faction's board (production and storage), its deck and its special rules.",
    position=30,
    sources=("factions", "faction_deck"),
)
def build(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    notes = Notes()
    factions = []
    for faction in ruleset.factions:
        deck = ruleset.decks.get(faction.deck)
        custom = ruleset.custom_deck(faction.id)
        cards = ruleset.deck_cards(deck) if deck is not None else []
        factions.append(
            {
                "name": faction.display_name,
                "production": goods_text(ruleset, faction.production, notes, "production"),
                "storage": goods_text(ruleset, faction.storage, notes, "storage"),
                "deck": deck.display_name if deck is not None else faction.deck,
                "custom": custom.display_name if custom is not None else None,
                "cards": sum(copies for _, copies in cards),
                "rules": [(_rule_text(rule), "") for rule in faction.special_rules],
                "rule": row_citation(faction),
                "mark": source.changed("factions", faction.id),
            }
        )
    return {"factions": factions, "notes": notes.listed()}


def _rule_text(rule: SpecialRule) -> str:
    """A special rule in the data's words, and the most pieces it lets one location hold where it
    writes that number (the Samurai, p11), so a variant that changes the number changes the sheet."""
    if rule.at_most_per_location is None:
        return rule.text
    return f"{rule.text} At most {rule.at_most_per_location} on each location."
