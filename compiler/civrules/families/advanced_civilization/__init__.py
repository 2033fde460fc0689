"""The Advanced Civilization family: Advanced Civilization and its Western Extension, the Expansion
Project with its Central America map, and Mega Civilization."""

from civrules.families.advanced_civilization.model import FAMILY_ID
from civrules.families.family import Family

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
        "rule_index": "rule-index.schema.json",
    },
    checks=(f"{__name__}.checks",),
    sheets=(f"{__name__}.sheets",),
    hooks={
        "assemble": f"{__name__}.assemble:build_ruleset",
        "references": f"{__name__}.references:references",
        "export": f"{__name__}.export:derived_facts",
        "package": f"{__name__}.package:render_package",
        "runtime": f"{__name__}.package:render_runtime",
        "variant_example": f"{__name__}.scaffold:variant_example",
    },
    default=True,
)
