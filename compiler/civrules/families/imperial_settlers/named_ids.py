"""The ids Imperial Settlers' own rules name: a rename in the data alone would leave them naming
the old id (:attr:`civrules.families.family.Family.named_ids`). ``tests/families/imperial_settlers/
test_named_ids.py`` walks the family's code, templates and schemas for every id literal and holds
this list complete."""

from __future__ import annotations

_COST = "the goods a card's cost lists, a fixed set in the cards schema (F009), and the engine's bounds"

NAMED_IDS = {
    "goods": {
        "wood": _COST,
        "stone": _COST,
        "food": _COST,
        "gold": _COST + ", and the gold a cost may take the place of",
        "worker": _COST + ", the worker a build bonus gives (F020) and the worker exchange's price",
        "raze": _COST + ", and the raze tokens cards give and spend",
        "defence": _COST + ", and the defence setting that raises a location's protection",
        "card": _COST + ", and the card draws of decks",
        "vp": _COST + ", and the VP the engine counts",
    },
    "actions": {
        "spend_workers": "the worker exchange (its price in workers)",
        "raze_card_in_hand": "the engine's raze targets (RazeTarget)",
        "raze_opponent_location": "the engine's raze targets (RazeTarget)",
    },
    "location_kinds": {
        "production": "the engine's location kinds (LocationKind) and the production checks",
        "ability": "the engine's location kinds (LocationKind)",
        "action": "the engine's location kinds (LocationKind)",
    },
    "components": {"attack_cards": "the deck count check, which adds the attack cards to the decks"},
    "decks": {"common": "the engine's deck limits, which tell the common deck from a faction's"},
}
