"""The Sid Meier's Civilization family: Sid Meier's Civilization: The Board Game (Fantasy Flight
Games, 2010), its base game from the rulebook, and a community transcription of its cards."""

from civrules.families.family import CollectionSpec, Family, Hover

#: The family's id (a manifest's ``family:``). Here, not in the model, so that reading the register
#: imports no stage of the pipeline (the model imports the resolver, which reads the register).
FAMILY_ID = "sid-meiers-civilization"

_MANIFEST = ("players", "turn_order", "cities", "trade", "production", "research", "pyramid", "movement")
_MORE = ("villages", "culture_hand", "combat", "coins", "tie_break", "not_in_sources")

#: The ids the family's own rules name (Family.named_ids), here beside the register entry: reading
#: the register imports nothing else of the room. tests/families/sid_meiers_civilization/test_named_ids.py
#: walks the family's code, templates and schemas for every id literal and holds it complete.
NAMED_IDS = {
    "space_kinds": {"culture_victory": "the culture track check (T014) and the engine's culture victory"},
}

#: The family's register entry (also declared under the `civrules.families` entry points).
FAMILY = Family(
    id=FAMILY_ID,
    name="Sid Meier's Civilization: The Board Game",
    package=__name__,
    code_prefixes=("T",),
    kinds={
        "ruleset": "sid-meiers-civilization/ruleset.schema.json",
        "technologies": "sid-meiers-civilization/technologies.schema.json",
        "buildings": "sid-meiers-civilization/buildings.schema.json",
        "units": "sid-meiers-civilization/units.schema.json",
        "wonders": "sid-meiers-civilization/wonders.schema.json",
        "culture": "sid-meiers-civilization/culture.schema.json",
        "map": "sid-meiers-civilization/map.schema.json",
    },
    slots={
        "technologies": "technologies",
        "buildings": "buildings",
        "units": "units",
        "wonders": "wonders",
        "culture": "culture",
        "map": "map",
    },
    collections={
        "technologies": CollectionSpec(
            "technologies", ("technologies",), word="technology", hover=Hover(("level", "unlocks"))
        ),
        "terrains": CollectionSpec("buildings", ("terrains",), word="terrain"),
        "buildings": CollectionSpec(
            "buildings", ("buildings",), word="building", hover=Hover(("cost", "terrains", "upgrade_of"))
        ),
        "unit_types": CollectionSpec("units", ("unit_types",), word="unit type", hover=Hover(("trumps", "deck_size"))),
        "eras": CollectionSpec("wonders", ("eras",), word="era"),
        "wonders": CollectionSpec("wonders", ("wonders",), word="wonder", hover=Hover(("era", "cost", "discount"))),
        "space_kinds": CollectionSpec("culture", ("space_kinds",), word="kind of culture space"),
        "spaces": CollectionSpec(
            "culture", ("spaces",), word="culture track space", hover=Hover(("position", "kind", "cost", "deck"))
        ),
        "decks": CollectionSpec("culture", ("decks",), word="culture event deck", hover=Hover(("cards",))),
        "great_people": CollectionSpec(
            "culture", ("great_people",), word="great person", hover=Hover(("category", "combat_bonus"))
        ),
        "tiles": CollectionSpec("map", ("tiles",), word="map tile"),
        "phases": CollectionSpec("ruleset", ("phases",), word="phase", hover=Hover(("order",))),
        "governments": CollectionSpec("ruleset", ("governments",), word="government"),
        "victories": CollectionSpec(
            "ruleset", ("victories",), word="victory", hover=Hover(("kind", "technology", "coins"))
        ),
        "resources": CollectionSpec("ruleset", ("resources",), word="resource"),
        "combat_bonuses": CollectionSpec(
            "ruleset", ("combat_bonuses",), word="combat bonus", hover=Hover(("amount", "per", "building"))
        ),
        "city_actions": CollectionSpec(
            "ruleset", ("city_actions",), word="city action", hover=Hover(("culture", "per_culture_icon", "per_action"))
        ),
        "civilizations": CollectionSpec(
            "ruleset",
            ("civilizations",),
            word="civilization",
            hover=Hover(("starting_technology", "starting_government")),
        ),
        "huts": CollectionSpec("ruleset", ("huts",), word="hut marker", hover=Hover(("count",))),
        "villages_markers": CollectionSpec(
            "ruleset", ("villages_markers",), word="village marker", hover=Hover(("count",))
        ),
    },
    settings={**dict.fromkeys(_MANIFEST + _MORE, "ruleset"), "declared_count": "technologies"},
    # What names an element of a list in field paths (Q006) and diffs: a cost or minimum by its
    # level, a missing rule section by it.
    element_keys=("level", "section"),
    checks=(f"{__name__}.checks",),
    sheets=(f"{__name__}.sheets",),
    hooks={
        "assemble": f"{__name__}.model:build_ruleset",
        "package": f"{__name__}.package:render_package",
        "runtime": f"{__name__}.package:render_runtime",
        "export": f"{__name__}.export:derived_facts",
        "variant_example": f"{__name__}.scaffold:variant_example",
        "helpers": f"{__name__}.helpers:helper_page",
    },
    named_ids=NAMED_IDS,
)
