"""The manifest `civrules new-variant` writes for a variant of an Advanced Civilization ruleset.

Its examples are taken from the base's own data, so that uncommented they validate for it.
"""

from __future__ import annotations

from civrules.resolve import Resolved

_SCAFFOLD = """\
# yaml-language-server: $schema=../../schemas/ruleset.schema.json
# {name}: a variant of {base}. Everything not changed here is inherited from {base};
# `civrules diff {base} {id}` shows what this variant changes. The examples below are valid for
# {base}: uncomment them (delete one `# ` per line) and change what differs. A house rule cites
# `source: "house rule: ..."`; a change taken from a rulebook cites its section with `rule:`.
kind: ruleset
id: {id}
name: "{name}"
extends: {base}

# Data files this variant adds to its base's (paths relative to rules/), e.g. a map panel:
#   files: {{map: [maps/my-panel.yaml]}}

# Changes to the base: one block per collection (entities named by id; players for
# player_counts, nation for ast_tracks, areas for borders) and `settings` for everything else.
# overlay:
#   civilization_cards:
#     patch:                 # merge fields into an existing entity; what is not named is kept
#       - id: {card}
#         cost: {cost}
#         source: "house rule: {card_name} costs {cost}"
#     # add: [...]           # whole new entities, written as in a data file
#     # replace: [...]       # whole entities in place of the base's
#     # A list inside a patch is replaced, or changed element by element:
#     #   attributes: {{remove: [{{rule: "..."}}], append: [...]}}
#   # calamities:
#   #   remove:              # `civrules validate` names whatever still refers to a removed entity
#   #     - {{id: {calamity}, why: "house rule: ..."}}
{settings}"""


def _examples(resolved: Resolved) -> dict[str, str]:
    """Examples for the scaffold taken from the base's own data, so that they validate for it."""
    cards = resolved.collections.get("civilization_cards", [])
    card = cards[0].raw if cards else {"id": "pottery", "name": "Pottery"}
    cost = card.get("cost")
    calamities = resolved.collections.get("calamities", [])
    hand_limit = resolved.data.get("hand_limit")
    settings = ""
    if isinstance(hand_limit, dict) and isinstance(hand_limit.get("commodity_cards"), int):
        keep = hand_limit["commodity_cards"] + 1
        settings = (
            "#   settings:               # merged key by key: what is not named is kept\n"
            "#     hand_limit:\n"
            f"#       commodity_cards: {keep}\n"
            f'#       source: "house rule: a hand of {keep} commodity cards"\n'
        )
    return {
        "card": str(card.get("id")),
        "card_name": str(card.get("name", card.get("id"))),
        "cost": str(cost + 10 if isinstance(cost, int) and not isinstance(cost, bool) else 100),
        "calamity": str(calamities[0].raw.get("id")) if calamities else "famine",
        "settings": settings,
    }


def scaffold(resolved: Resolved, *, id: str, name: str, base: str) -> str:
    """The new variant's manifest (the family's ``scaffold`` hook)."""
    return _SCAFFOLD.format(id=id, name=name, base=base, **_examples(resolved))
