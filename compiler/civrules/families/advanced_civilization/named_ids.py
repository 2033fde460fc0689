"""The ids Advanced Civilization's own rules name: a rename in the data alone would leave them
naming the old id (:attr:`civrules.families.family.Family.named_ids`).
``tests/families/advanced_civilization/test_named_ids.py`` walks the family's code, templates
and schemas for every id literal and holds this list complete."""

from __future__ import annotations

_GROUP = "the engine's card groups (Group) and the cards schema's fixed groups"
_ALIAS = "the engine package's ids for a source's other spellings (ID_ALIASES)"

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
