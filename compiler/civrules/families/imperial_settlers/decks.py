"""The deck-building rule (p12) as data the checks, the export and the engine package read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DeckRule:
    """A faction deck of ``size`` cards, with ``pattern`` {copies: how many cards have that many}."""

    size: int
    pattern: Mapping[int, int]
    all_copies: bool
    own_faction_only: bool


def deck_rule(value: Any) -> DeckRule | None:
    """The ruleset's `deck_building` setting as a :class:`DeckRule` (None where it has none)."""
    if not isinstance(value, dict) or not isinstance(value.get("deck_size"), int):
        return None
    pattern = {
        int(part["copies"]): int(part["cards"])
        for part in value.get("pattern") or ()
        if isinstance(part, dict) and isinstance(part.get("copies"), int) and isinstance(part.get("cards"), int)
    }
    own = value.get("own_faction_only")
    return DeckRule(
        size=value["deck_size"],
        pattern=pattern,
        all_copies=value.get("all_copies") is True,
        own_faction_only=isinstance(own, dict) and own.get("value") is True,
    )
