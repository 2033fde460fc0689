"""The deck-building checklist (p12): the rule as boxes to tick, and how each faction deck the
ruleset uses meets it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers import FAMILY
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.resolve.diff import distinguish, named_by


@sheet(
    "deck-building.html",
    "Deck-building checklist",
    "The rule for building a faction deck as a checklist, and how each faction deck in use meets it.",
    position=50,
    sources=("ruleset", "cards", "faction_deck"),
)
def build(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    rule = ruleset.deck_building()
    decks = []
    for deck in ruleset.decks:
        if deck.faction is None:
            continue
        cards = ruleset.deck_cards(deck)
        by_copies = Counter(copies for _, copies in cards)
        pattern = dict(rule.pattern) if rule is not None else {}
        rows = [
            {"copies": copies, "want": want, "have": by_copies.get(copies, 0)}
            for copies, want in sorted(pattern.items(), reverse=True)
        ]
        extra = sorted(set(by_copies) - set(pattern))
        rows.extend({"copies": c, "want": 0, "have": by_copies[c]} for c in extra)
        incomplete = [
            card.printed_ids[0] if card.printed_ids else card.id
            for card, copies in cards
            if rule is not None and rule.all_copies and copies != card.copies
        ]
        other = [
            card.printed_ids[0] if card.printed_ids else card.id
            for card, _ in cards
            if rule is not None and rule.own_faction_only and card.deck is not None and card.deck != deck.id
        ]
        custom = ruleset.custom_deck(deck.faction)
        total = sum(copies for _, copies in cards)
        decks.append(
            {
                "name": deck.display_name,
                "custom": custom.display_name if custom is not None else None,
                "total": total,
                "size": rule.size if rule is not None else deck.size,
                "rows": rows,
                "incomplete": incomplete,
                "other": other,
                "ok": rule is not None
                and total == rule.size
                and all(r["have"] == r["want"] for r in rows)
                and not incomplete
                and not other,
            }
        )
    parts = sorted(rule.pattern.items(), reverse=True) if rule is not None else []
    # each part of the pattern named as the diff names it (by what tells it from the others)
    with named_by(FAMILY):
        names = distinguish([{"copies": copies, "cards": cards} for copies, cards in parts])
    return {
        "rule": rule,
        "pattern": [
            (copies, cards, source.setting_mark(f"deck_building.pattern[{name}]"))
            for (copies, cards), name in zip(parts, names, strict=True)
        ],
        "size_mark": source.setting_mark("deck_building.deck_size"),
        "all_copies_mark": source.setting_mark("deck_building.all_copies"),
        "own_mark": source.setting_mark("deck_building.own_faction_only"),
        "cited": setting_citation(ruleset.setting_origins, "deck_building"),
        "decks": decks,
    }
