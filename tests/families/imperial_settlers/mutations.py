"""Mutation testing of Imperial Settlers' shipped rule data: break one fact, expect the family's
check that owns it to say so, at its file and line (the machinery is Advanced Civilization's
mutations.py: a single-point edit of one file, analysed in a cached workspace).

    python -m tests.families.imperial_settlers.mutations             # every instance, with the table
    python -m tests.families.imperial_settlers.mutations --sample 3  # up to 3 per kind

test_mutations.py beside this module runs a sample and asserts every kind is caught.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

from civrules.load import NodePath
from tests.families.advanced_civilization.mutations import Mutation, data_of, files_of, run, spread, table

BASE = "imperial-settlers"
MANIFEST = f"rulesets/{BASE}.yaml"


def _cards() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for file in files_of(BASE, "cards"):
        for i, card in enumerate(data_of(file).get("cards") or []):
            yield file, i, card


def copies_miscounted() -> Iterator[Mutation]:
    """A card counts one copy more than it has printed ids (F008 at its printed ids)."""
    for file, i, card in _cards():
        if card["copies"] >= 9:
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["cards"][i]["copies"] += 1
            return None, ("cards", i, "printed_ids"), False

        yield Mutation("copies-miscounted", card["id"], BASE, file, "F008", edit)


def copy_of_another_deck() -> Iterator[Mutation]:
    """The last copy of a card is numbered with another deck's code (F007 at that copy)."""
    for file, i, card in _cards():
        printed = card["printed_ids"]
        if len(printed) < 2:
            continue
        other = "COM" if not printed[-1].startswith("COM") else "ROM"

        def edit(
            data: Any, i: int = i, last: int = len(printed) - 1, other: str = other
        ) -> tuple[str | None, NodePath, bool]:
            ids = data["cards"][i]["printed_ids"]
            ids[last] = other + ids[last][3:]
            return None, ("cards", i, "printed_ids", last), False

        yield Mutation("copy-of-another-deck", card["id"], BASE, file, "F007", edit)


def spoils_good_renamed() -> Iterator[Mutation]:
    """A good of a card's spoils is not a good of the ruleset (F009 at it)."""
    for file, i, card in _cards():
        if not isinstance(card.get("spoils"), list) or not card["spoils"]:
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["cards"][i]["spoils"][0] += "_x"
            return None, ("cards", i, "spoils", 0), False

        yield Mutation("spoils-good-renamed", card["id"], BASE, file, "F009", edit)


def colour_renamed() -> Iterator[Mutation]:
    """A card's colour is not a colour of the ruleset (F011 at it)."""
    for file, i, card in _cards():
        if not card.get("colours"):
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["cards"][i]["colours"][0] += "_x"
            return None, ("cards", i, "colours", 0), False

        yield Mutation("colour-renamed", card["id"], BASE, file, "F011", edit)


def deal_on_a_common_card() -> Iterator[Mutation]:
    """A common card gets a deal area, which only faction cards have (F010 at the deal)."""
    for file, i, card in _cards():
        if not card["printed_ids"][0].startswith("COM"):
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["cards"][i]["deal"] = "wood"
            return None, ("cards", i, "deal"), False

        yield Mutation("deal-on-a-common-card", card["id"], BASE, file, "F010", edit)


def common_deck_size_changed() -> Iterator[Mutation]:
    """The common deck declares one card more than its cards' copies (F005 at its size)."""
    for j, deck in enumerate(data_of(MANIFEST).get("decks") or []):
        if deck.get("faction"):
            continue

        def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
            data["decks"][j]["size"] += 1
            return None, ("decks", j, "size"), False

        yield Mutation("common-deck-size-changed", deck["id"], BASE, MANIFEST, "F005", edit)


def faction_deck_short() -> Iterator[Mutation]:
    """The last card of a faction deck is lost from the card list (F001 at the deck's size in the manifest)."""
    decks = data_of(MANIFEST).get("decks") or []
    for file in files_of(BASE, "cards"):
        cards = data_of(file).get("cards") or []
        for j, deck in enumerate(decks):
            if not deck.get("faction"):
                continue
            last = max(
                (i for i, card in enumerate(cards) if card["printed_ids"][0].startswith(deck["prefix"])),
                key=lambda i: cards[i]["printed_ids"][-1],
                default=None,
            )
            if last is None:
                continue

            def edit(data: Any, last: int = last, j: int = j) -> tuple[str | None, NodePath, bool]:
                del data["cards"][last]
                return MANIFEST, ("decks", j, "size"), False

            yield Mutation("faction-deck-short", f"{deck['id']} without {cards[last]['id']}", BASE, file, "F001", edit)


def achievement_threshold_repeated() -> Iterator[Mutation]:
    """A level of the solo achievement table repeats the threshold of the level before (F013 at it)."""
    levels = data_of(MANIFEST)["solo"]["achievements"]["levels"]
    for k in range(2, len(levels)):

        def edit(data: Any, k: int = k) -> tuple[str | None, NodePath, bool]:
            written = data["solo"]["achievements"]["levels"]
            written[k]["at_least"] = written[k - 1]["at_least"]
            return None, ("solo", "achievements", "levels", k, "at_least"), False

        yield Mutation("achievement-threshold-repeated", levels[k]["id"], BASE, MANIFEST, "F013", edit)


def scoring_swapped() -> Iterator[Mutation]:
    """A faction location is worth less than a common one (F012 at the faction VP)."""

    def edit(data: Any) -> tuple[str | None, NodePath, bool]:
        scoring = data["scoring"]
        scoring["common_location_vp"], scoring["faction_location_vp"] = (
            scoring["faction_location_vp"],
            scoring["common_location_vp"],
        )
        return None, ("scoring", "faction_location_vp"), False

    yield Mutation("scoring-swapped", "scoring", BASE, MANIFEST, "F012", edit)


def solo_phase_renamed() -> Iterator[Mutation]:
    """A phase of the solo round is neither a phase of the round nor the attack (F016 at it)."""
    for k, phase in enumerate(data_of(MANIFEST)["solo"]["phases"]):

        def edit(data: Any, k: int = k) -> tuple[str | None, NodePath, bool]:
            data["solo"]["phases"][k] += "_x"
            return None, ("solo", "phases", k), False

        yield Mutation("solo-phase-renamed", phase, BASE, MANIFEST, "F016", edit)


KINDS = {
    "copies-miscounted": copies_miscounted,
    "copy-of-another-deck": copy_of_another_deck,
    "spoils-good-renamed": spoils_good_renamed,
    "colour-renamed": colour_renamed,
    "deal-on-a-common-card": deal_on_a_common_card,
    "common-deck-size-changed": common_deck_size_changed,
    "faction-deck-short": faction_deck_short,
    "achievement-threshold-repeated": achievement_threshold_repeated,
    "scoring-swapped": scoring_swapped,
    "solo-phase-renamed": solo_phase_renamed,
}


def main(argv: list[str]) -> int:
    sample = int(argv[argv.index("--sample") + 1]) if "--sample" in argv else None
    started = time.perf_counter()
    outcomes = [run(m) for generate in KINDS.values() for m in spread(list(generate()), sample)]
    print(table(outcomes))
    for outcome in outcomes:
        if not outcome.caught:
            print(f"missed: {outcome.mutation.kind} {outcome.mutation.instance}: expected {outcome.expected}")
            print(f"   found: {sorted(set(outcome.found))[:12]}")
    print(f"{len(outcomes)} mutations in {time.perf_counter() - started:.1f} s")
    return 0 if all(o.caught for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
