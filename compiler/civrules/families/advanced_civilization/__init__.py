"""The Advanced Civilization family: Advanced Civilization and its Western Extension, the Expansion
Project with its Central America map, and Mega Civilization."""

from civrules.families.family import CollectionSpec, Continuation, Family, Hover, HoverList

#: The family's id (a manifest's ``family:``). Here, not only in the model, so that reading the
#: register imports no model (a run on another family's rulesets imports none of this one's).
FAMILY_ID = "advanced-civilization"

_GROUP = "the engine's card groups (Group) and the cards schema's fixed groups"
_ALIAS = "the engine package's ids for a source's other spellings (ID_ALIASES)"

#: The ids the family's own rules name (Family.named_ids), here beside the register entry: reading
#: the register imports nothing else of the room. tests/families/advanced_civilization/test_named_ids.py
#: walks the family's code, templates and schemas for every id literal and holds it complete.
NAMED_IDS = {
    "groups": {"arts": _GROUP, "civics": _GROUP, "crafts": _GROUP, "religion": _GROUP, "sciences": _GROUP},
    "commodities": {"spices": _ALIAS, "gems": _ALIAS},
    "phases": {
        "trade": "the engine's trade rules (the fewest cards a trade needs, the cards named)",
        "movement": "the engine's ship range",
        "resolution_of_calamities": "the engine's calamity rules (how many a player suffers)",
        "acquisition_of_civilization_cards": "the helper page's purchase rules, and " + _ALIAS,
        "acquisition_of_trade_cards": "the quick reference's trade draw",
        "return_of_excess_commodity_cards": "the cards schema's phase of a commodity exchange effect",
        "special_abilities": "the cards schema's phase of a special ability effect",
    },
}

#: The family's register entry (also declared under the `civrules.families` entry points).
FAMILY = Family(
    id=FAMILY_ID,
    name="Advanced Civilization",
    package=__name__,
    code_prefixes=("A", "C", "D", "K", "M", "P"),
    kinds={
        "ruleset": "ruleset.schema.json",
        "civilization_cards": "civilization-cards.schema.json",
        "commodities": "commodities.schema.json",
        "calamities": "calamities.schema.json",
        "map": "map.schema.json",
    },
    slots={
        "civilization_cards": "civilization_cards",
        "commodities": "commodities",
        "calamities": "calamities",
        "map": "map",
    },
    collections={
        "groups": CollectionSpec("civilization_cards", ("groups",), word="card group"),
        "civilization_cards": CollectionSpec(
            "civilization_cards",
            ("cards",),
            word="civilization card",
            hover=Hover(("cost", "groups"), (HoverList("credits", "points", ("card", "group", "groups")),)),
        ),
        "commodities": CollectionSpec(
            "commodities", ("commodities",), word="commodity", hover=Hover(("stack", "value", "count"))
        ),
        "calamities": CollectionSpec("calamities", ("calamities",), word="calamity", hover=Hover(("stack",))),
        "nations": CollectionSpec("ruleset", ("nations",), word="nation"),
        "epochs": CollectionSpec("ruleset", ("epochs",), word="epoch", hover=Hover(("order",))),
        # One A.S.T. track per nation and level (Basic, Expert).
        "ast_tracks": CollectionSpec("ruleset", ("ast", "tracks"), "nation", qualifier="level", word="A.S.T. track"),
        "phases": CollectionSpec("ruleset", ("sequence_of_play", "phases"), word="phase", hover=Hover(("order",))),
        "player_counts": CollectionSpec("ruleset", ("player_counts", "counts"), "players", word="player count"),
        "options": CollectionSpec("ruleset", ("options",), word="option", hover=Hover(("type",))),
        "areas": CollectionSpec("map", ("areas",), word="area"),
        "borders": CollectionSpec("map", ("borders",), "areas", pair=True, word="border"),
        # A map file's flood plain may continue one an earlier map file declares (it crosses panels).
        "flood_plains": CollectionSpec(
            "map",
            ("flood_plains",),
            word="flood plain",
            continuation=Continuation("continues_from", ("areas",)),
        ),
        "volcanoes": CollectionSpec("map", ("volcanoes",), word="volcano"),
    },
    settings={
        "players": "ruleset",
        "credit_policy": "ruleset",
        "components": "ruleset",
        "not_in_sources": "ruleset",
        "ast": "ruleset",
        "player_counts": "ruleset",
        "sequence_of_play": "ruleset",
        "victory": "ruleset",
        "hand_limit": "ruleset",
        "taxation": "ruleset",
        "special_rules": "ruleset",
        "non_player_forces": "ruleset",
        "total_cards": "commodities",
        "set_value": "commodities",
        "mining": "commodities",
        "trade_stacks": "commodities",
        "deck_compositions": "commodities",
        "non_native_block_bonus": "commodities",
        "declared_count": "civilization_cards",
        "two_coast_areas": "map",
        "excluded_borders": "map",
    },
    # What names an element of a list in field paths (Q006) and diffs, in the order tried: a credit,
    # modifier or immunity by its card (or group), a calamity's or commodity's entry by it, a
    # phase or trade stack by its number, a band by its players, a track by its nation (then its
    # level), an A.S.T. start by its epoch (then its space), a step, a missing rule section.
    element_keys=(
        "card",
        "calamity",
        "commodity",
        "number",
        "players",
        "nation",
        "group",
        "epoch",
        "step",
        "section",
        "space",
        "level",
    ),
    checks=(f"{__name__}.checks",),
    sheets=(f"{__name__}.sheets",),
    hooks={
        "assemble": f"{__name__}.assemble:build_ruleset",
        "export": f"{__name__}.export:derived_facts",
        "package": f"{__name__}.package:render_package",
        "runtime": f"{__name__}.package:render_runtime",
        "variant_example": f"{__name__}.scaffold:variant_example",
        "helpers": f"{__name__}.helpers:helper_page",
        "checked": f"{__name__}.mapgraph:forget",
    },
    # a map file's panel, and the panels it needs beside it (the Western Extension's the base map)
    file_keys=frozenset({"panel", "requires"}),
    default=True,
    named_ids=NAMED_IDS,
)
