"""How the Imperial Settlers sheets print the data: names in the edition's language, goods counted,
an unknown card name as the card's id with one note (never the name a source in another language
gives). Not a sheet: it registers nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from civrules.emit.sheets.common import Notes, humanize
from civrules.emit.sheets.registry import Source, joined_mark
from civrules.families.imperial_settlers.model import Card, Goods, ImperialSettlersRuleset, Step
from civrules.model import Unknown

__all__ = ["joined_mark"]  # one mark for a line several settings feed: the registry's

#: The note of a card no source in the edition's language names (the sheet prints its id instead).
UNNAMED = (
    "no source in the edition's language names this card: its printed id stands in place of its name "
    "(a name a source in another language gives is not the card's name)"
)
#: Words for the values of the data that are not names of entities.
PHRASES = {
    "location": "a location discarded",
    "highest_cost_in_resources": "the highest building cost in resources",
    "more_stone": "then the most stone in that cost",
    "player_choice": "then the player's choice",
    "faction_locations": "faction locations",
    "players_plus_one": "one more than the players",
    "clockwise": "clockwise",
    "anticlockwise": "anticlockwise",
}


def card_label(card: Card, notes: Notes) -> tuple[str, bool]:
    """What a sheet prints for a card's name, and whether that is its id standing in (with the note's mark)."""
    if isinstance(card.name, str):
        return card.name, False
    first = card.printed_ids[0] if card.printed_ids else card.id.upper()
    return first + notes.mark("name", UNNAMED), True


def printed_ids(card: Card) -> str:
    """The printed ids of a card's copies: ``BAR001–003``, ``COM032``."""
    ids = card.printed_ids
    if not ids:
        return card.id.upper()
    if len(ids) == 1:
        return ids[0]
    return f"{ids[0]}–{ids[-1][-3:]}" if ids[0][:3] == ids[-1][:3] else ", ".join(ids)


def name_of(ruleset: ImperialSettlersRuleset, collection: str, item: str) -> str:
    """An entity's name in the edition's language, or a phrase for a value that names none."""
    found = next((c for c in ruleset.collections() if c.name == collection), None)
    entity = found.get(item) if found is not None else None
    if entity is not None and isinstance(entity.name, str):
        return entity.name
    return PHRASES.get(item, humanize(item))


def goods_text(ruleset: ImperialSettlersRuleset, goods: Goods | None, notes: Notes, topic: str, none: str = "—") -> str:
    """Goods as printed: ``2 × Madeira, Pedra + a location discarded``; an unknown list as ``—`` and a note."""
    if goods is None:
        return none
    if isinstance(goods, Unknown):
        return notes.fact(goods, topic)
    if not goods:
        return "nothing"
    counts = Counter(goods)
    parts = [
        (f"{count} × " if count > 1 else "") + name_of(ruleset, "goods", good)
        for good, count in counts.items()
        if good != "location"
    ]
    text = ", ".join(parts)
    if counts["location"]:
        text += (
            (" + " if text else "")
            + PHRASES["location"]
            + (f" × {counts['location']}" if counts["location"] > 1 else "")
        )
    return text


def words(ruleset: ImperialSettlersRuleset, collection: str, items: Iterable[str]) -> str:
    return ", ".join(name_of(ruleset, collection, item) for item in items)


def steps_marked(source: Source[Any], path: str, steps: Iterable[Step]) -> list[tuple[str, str]]:
    """Each step of a procedure a setting holds (``setup``, ``solo.setup``) as printed, with the
    mark of a variant that adds or changes it (its element ``path[step]``, as the diff names it)."""
    return [
        (step.text, source.setting_mark(f"{path}[{step.number}]") if step.number is not None else "") for step in steps
    ]
