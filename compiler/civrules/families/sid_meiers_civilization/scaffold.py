"""The examples ``civrules new-variant`` writes into a new variant of a ruleset of this family."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.resolve import Resolved

_CHANGES = """\
# Data files this variant adds to its base's (paths relative to rules/), e.g. more technologies:
#   files: {{technologies: [cards/my-technologies.yaml]}}

# Changes to the base: one block per collection (entities named by id) and `settings` for
# everything else.
# overlay:
#   victories:
#     patch:                 # merge fields into an existing entity; what is not named is kept
#       - id: {victory}
#         coins: {coins}
#         source: "house rule: the economic victory at {coins} coins"
#   wonders:
#     patch:
#       - id: {wonder}
#         cost: {wonder_cost}
#         source: "house rule: {wonder_name} costs {wonder_cost}"
#   technologies:
#     add:                   # whole new entities, written as in a data file
#       - id: house_technology
#         name: "House technology"
#         level: {level}
#         unlocks: {{buildings: [{building}]}}
#         source: "house rule: a technology that unlocks {building_name}"
#     # remove: [{{id: ..., why: "house rule: ..."}}]   # `civrules validate` names what still refers to it
#   settings:               # merged key by key: what is not named is kept
#     coins:
#       victory: {coins}
#       source: "house rule: the economic victory at {coins} coins"
"""


def _first(resolved: Resolved | None, collection: str, test: Any = None) -> Mapping[str, Any]:
    for entry in resolved.collections.get(collection, []) if resolved is not None else []:
        if test is None or test(entry.raw):
            raw: Mapping[str, Any] = entry.raw
            return raw
    return {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def variant_example(resolved: Resolved | None) -> str:
    """What follows the header of a new variant of ``resolved``, commented out (examples taken from
    its own data, so that they validate for it): a different coin victory, a cheaper wonder, a new
    technology unlocking one of its buildings (the family's ``variant_example`` hook)."""
    victory = _first(resolved, "victories", lambda raw: _int(raw.get("coins")) is not None)
    wonder = _first(resolved, "wonders", lambda raw: _int(raw.get("cost")) is not None)
    building = _first(resolved, "buildings")
    levels = resolved.data.get("research", {}).get("costs", []) if resolved is not None else []
    level = next((_int(c.get("level")) for c in levels if isinstance(c, Mapping) and _int(c.get("level"))), 1)
    coins = (_int(victory.get("coins")) or 15) + 5
    cost = _int(wonder.get("cost")) or 15
    discount = wonder.get("discount")
    floor = (_int(discount.get("cost")) or 0) + 1 if isinstance(discount, Mapping) else 1  # still dearer than with it
    return _CHANGES.format(
        victory=str(victory.get("id", "economy")),
        coins=coins,
        wonder=str(wonder.get("id", "colossus")),
        wonder_name=str(wonder.get("name", wonder.get("id", "colossus"))),
        wonder_cost=max(floor, cost - 5),
        level=level,
        building=str(building.get("id", "celeiro")),
        building_name=str(building.get("name", building.get("id", "celeiro"))),
    )
