"""The Imperial Settlers family: the card game of four factions (Portal Games, 2014), its solo game, the
rulebook's variants, and faction decks a designer builds by the rulebook's deck-building rule."""

from civrules.families.family import CollectionSpec, Family, Hover

#: The family's id (what a manifest writes: `family: imperial-settlers`); the room's model repeats it.
FAMILY_ID = "imperial-settlers"

_COST = "the goods a card's cost lists, a fixed set in the cards schema (F009), and the engine's bounds"

#: The ids the family's own rules name (Family.named_ids), here beside the register entry: reading
#: the register imports nothing else of the room. tests/families/imperial_settlers/test_named_ids.py
#: walks the family's code, templates and schemas for every id literal and holds it complete.
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

#: The family's register entry (also declared under the `civrules.families` entry points).
FAMILY = Family(
    id=FAMILY_ID,
    name="Imperial Settlers",
    package=__name__,
    code_prefixes=("F",),
    kinds={
        "ruleset": "imperial-settlers/ruleset.schema.json",
        "cards": "imperial-settlers/cards.schema.json",
        "factions": "imperial-settlers/factions.schema.json",
        "faction_deck": "imperial-settlers/faction-deck.schema.json",
    },
    slots={"cards": "cards", "factions": "factions", "faction_decks": "faction_deck"},
    collections={
        "cards": CollectionSpec(
            "cards",
            ("cards",),
            word="card",
            hover=Hover(("kind", "colours", "copies", "cost", "spoils", "deal", "production")),
        ),
        "factions": CollectionSpec("factions", ("factions",), word="faction", hover=Hover(("deck",))),
        "faction_decks": CollectionSpec(
            "faction_decks", ("faction_decks",), word="faction deck", hover=Hover(("faction",))
        ),
        "components": CollectionSpec("ruleset", ("components",), word="component", hover=Hover(("count", "minimum"))),
        "goods": CollectionSpec("ruleset", ("goods",), word="good"),
        "colours": CollectionSpec("ruleset", ("colours",), word="colour"),
        "location_kinds": CollectionSpec("ruleset", ("location_kinds",), word="location kind", hover=Hover(("row",))),
        "card_anatomy": CollectionSpec("ruleset", ("card_anatomy",), word="part of a card", hover=Hover(("side",))),
        "decks": CollectionSpec("ruleset", ("decks",), word="deck", hover=Hover(("prefix", "size", "faction"))),
        "phases": CollectionSpec("ruleset", ("phases",), word="phase", hover=Hover(("order",))),
        "actions": CollectionSpec("ruleset", ("actions",), word="action", hover=Hover(("price", "pays", "gives"))),
        "general_rules": CollectionSpec("ruleset", ("general_rules",), word="general rule"),
    },
    settings={
        "players": "ruleset",
        "goods_unlimited": "ruleset",
        "colourless_cards": "ruleset",
        "card_uses": "ruleset",
        "setup": "ruleset",
        "starting_hand": "ruleset",
        "first_game": "ruleset",
        "rounds": "ruleset",
        "defence": "ruleset",
        "foundation": "ruleset",
        "scoring": "ruleset",
        "solo": "ruleset",
        "deck_building": "ruleset",
        "named_cards_not_identified": "ruleset",
    },
    # What names an element of a list in field paths (Q006) and diffs, in the order tried: a
    # colourless card by its card, a step of the setup or the lookout, a missing rule section.
    element_keys=("card", "step", "section"),
    checks=(f"{__name__}.checks",),
    sheets=(f"{__name__}.sheets",),
    hooks={
        "assemble": f"{__name__}.model:build_model",
        "export": f"{__name__}.export:derived_facts",
        "package": f"{__name__}.package:render_package",
        "runtime": f"{__name__}.package:render_runtime",
        "variant_example": f"{__name__}.scaffold:variant_example",
        "helpers": f"{__name__}.helpers:helper_page",
    },
    named_ids=NAMED_IDS,
)
