"""The examples ``civrules new-variant`` writes into a new variant of an Imperial Settlers ruleset."""

from __future__ import annotations

from civrules.diagnostics import words
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset, build_model
from civrules.resolve import Resolved

_CHANGES = """\
family: {family}   # a variant belongs to its base's family (V009); this family's manifests name it

# Data files this variant adds to its base's (paths relative to rules/): cards of the house, or a
# faction deck of its own in a file (`kind: faction_deck`, the same entries as below):
#   files: {{cards: [cards/my-cards.yaml], faction_decks: [decks/my-{faction}.yaml]}}

# Changes to the base: one block per collection (entities named by id) and `settings` for
# everything else.
# overlay:
#   actions:
#     patch:                 # merge fields into an existing entity; what is not named is kept
#       - id: {action}
#         price: {{{price}}}
#         source: "house rule: {action_name} costs {price_words}"
#   faction_decks:           # a faction deck built by the deck-building rule{rule}, played in place of
#     add:                   # the faction's printed deck: here the printed deck without {removed},
#       - id: my_{faction}     # for which a card of the same copies goes in (all its copies, or none)
#         name: "{deck_name}"
#         faction: {faction}
#         source: "house rule: {removed} out, {added} in"
#         cards:
{cards}
"""


def variant_example(resolved: Resolved | None) -> str:
    """What follows the header of a new variant of ``resolved``, commented out, with examples taken
    from its own data so that they validate for it: an action's price changed, and a faction deck
    of the variant's own (a card of the printed deck traded for another of as many copies)."""
    if resolved is None:
        return "# overlay:\n"
    ruleset = build_model(resolved)
    return _CHANGES.format(**_examples(ruleset))


def _examples(ruleset: ImperialSettlersRuleset) -> dict[str, str]:
    action = next((a for a in ruleset.actions if a.price), None)
    good, amount = next(iter(sorted(action.price.items()))) if action is not None else ("food", 1)
    deck = next((d for d in ruleset.decks if d.faction is not None), None)
    cards = ruleset.deck_cards(deck) if deck is not None else []
    # Trade the last single card of the deck for the one before it, kept as written: the example
    # validates as it is, and shows where the change goes.
    singles = [card for card, copies in cards if copies == 1]
    removed = singles[-1] if singles else None
    lines = [f"#           - {{card: {card.id}, copies: {copies}}}" for card, copies in cards if card is not removed]
    if removed is not None:
        lines.append(f"#           - {{card: {removed.id}, copies: 1}}   # the card to trade: put another in its place")
    rule = ruleset.deck_building()
    faction = deck.faction if deck is not None and deck.faction is not None else "romans"
    owner = ruleset.factions.get(faction)
    return {
        "family": ruleset.family,
        "action": action.id if action is not None else "deal",
        "action_name": action.display_name if action is not None else "a deal",
        "price": f"{good}: {amount + 1}",
        "price_words": f"{amount + 1} {good}",
        "faction": faction,
        "deck_name": f"{owner.display_name if owner is not None else faction} (house deck)",
        "rule": f" ({words.count(rule.size, 'card')})" if rule is not None else "",
        "removed": removed.printed_ids[0] if removed is not None and removed.printed_ids else "a card",
        "added": "another card",
        "cards": "\n".join(lines),
    }
