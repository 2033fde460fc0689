"""The examples ``civrules new-variant`` writes into a new variant of a ruleset of this family."""

from __future__ import annotations

import json

from civrules.checks.overlays import text_reworded
from civrules.resolve import Resolved

_CHANGES = """\
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


def variant_example(resolved: Resolved | None) -> str:
    """What follows the header of a new variant of ``resolved``, commented out (examples taken from
    its own data, so that they validate for it): a map panel added, a card's cost patched, a
    calamity removed, the hand limit raised (the family's ``variant_example`` hook).

    Raw by nature: the hook runs on a resolved ruleset, before (and without) a model, and its
    examples must validate as YAML as written."""
    cards = resolved.collections.get("civilization_cards", []) if resolved is not None else []
    card = cards[0].raw if cards else {"id": "pottery", "name": "Pottery"}
    cost = card.get("cost")
    calamities = resolved.collections.get("calamities", []) if resolved is not None else []
    hand_limit = resolved.data.get("hand_limit") if resolved is not None else None
    settings = ""
    if isinstance(hand_limit, dict) and isinstance(hand_limit.get("commodity_cards"), int):
        keep = hand_limit["commodity_cards"] + 1
        # the base's text beside the number, reworded (V014: a text left saying the old number)
        text = hand_limit.get("text")
        anew = (
            text_reworded(" ".join(text.split()), hand_limit["commodity_cards"], keep)
            if isinstance(text, str)
            else None
        )
        settings = (
            "#   settings:               # merged key by key: what is not named is kept\n"
            "#     hand_limit:\n"
            f"#       commodity_cards: {keep}\n"
            + (f"#       text: {json.dumps(anew, ensure_ascii=False)}\n" if anew is not None else "")
            + f'#       source: "house rule: a hand of {keep} commodity cards"\n'
        )
    return _CHANGES.format(
        card=str(card.get("id")),
        card_name=str(card.get("name", card.get("id"))),
        cost=str(cost + 10 if isinstance(cost, int) and not isinstance(cost, bool) else 100),
        calamity=str(calamities[0].raw.get("id")) if calamities else "famine",
        settings=settings,
    )
