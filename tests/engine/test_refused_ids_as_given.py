"""A refusal names an id as the engine wrote it, whether it gave a str or a member of a package's id
enum (``CardId.LAW``, the typed way docs/engine.md recommends): each said the member's repr,
``<CardId.LAW: 'law'> is listed twice in owned``, Python's words and not the id (round 35). The
root is ``civrules_runtime.errors.shown``, through which every refusal shows a value; the cases
are one per kind of refusal and family that showed it."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import imperial_settlers as ist  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import OutOfDomainError  # noqa: E402

LAW = ac.CardId.LAW
VOLCANO = ac.CalamityId.VOLCANO_EARTHQUAKE
POTTERY = smc.TechnologyId.POTTERY
FACTION = next(iter(ist.FactionId))
COMMON = next(card for card in ist.CARDS.values() if card.deck == "common" and card.copies and card.copies < 5)

#: (case, the call, the id as the refusal should show it)
CASES: list[tuple[str, Callable[[], object], str]] = [
    (
        "a card held twice (at_most)",
        lambda: ac.purchase_cost([LAW, LAW], ac.CardId.AGRICULTURE),
        "'law' is listed twice",
    ),
    (
        "one id for a collection",
        lambda: ac.calamities_suffered(VOLCANO),  # type: ignore[arg-type]
        "not the string 'volcano_earthquake'",
    ),
    (
        "an id of another table (unknown_id)",
        lambda: ac.purchase_cost([], VOLCANO),  # type: ignore[arg-type]
        "'volcano_earthquake' is not",
    ),
    ("a table's key (FrozenMap)", lambda: ac.CARDS[VOLCANO], "'volcano_earthquake' is not in this table"),
    ("a technology twice", lambda: smc.may_place_technology([POTTERY, POTTERY], POTTERY), "'pottery' is listed twice"),
    (
        "a location more often than its copies",
        lambda: ist.production(FACTION, locations=[ist.CardId(COMMON.id)] * 9),
        f"{COMMON.id!r} is listed ",
    ),
]


@pytest.mark.parametrize(("call", "said"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_refusal_shows_an_id_enums_member_as_its_id(call: Callable[[], object], said: str) -> None:
    with pytest.raises((KeyError, ValueError, TypeError)) as refused:
        call()
    message = str(refused.value)
    assert said in message
    assert "<" not in message.split(":")[0], message  # no enum repr where the id is named


@pytest.mark.parametrize("rng", [5, "seed", None, random.Random(5)], ids=["a seed", "a text", "None", "a Random"])
def test_calamities_suffered_refuses_a_seed_given_for_the_generator_whatever_the_hand(rng: object) -> None:
    one = [VOLCANO]  # under the limit: the generator is not drawn from, and a seed passed unnoticed
    if isinstance(rng, random.Random) or rng is None:
        assert ac.calamities_suffered(one, rng=rng) == (VOLCANO,)
        return
    for received in (one, list(ac.CALAMITIES)[:6]):  # over the limit: an AttributeError from inside
        with pytest.raises(OutOfDomainError, match=r"is no random number generator: give a random\.Random"):
            ac.calamities_suffered(received, rng=rng)  # type: ignore[arg-type]


#: (case, the call, what the refusal says instead of "give its id"): a record of another table
#: given for an id was told to give its id, which is no key of that table either (round 35).
OTHER_ROWS: list[tuple[str, Callable[[], object], str]] = [
    ("a card for an area", lambda: ac.neighbours(ac.CARDS["law"]), "'law' is no area either: one of "),  # type: ignore[arg-type]
    ("a wonder for a technology's key", lambda: smc.TECHNOLOGIES[smc.WONDERS["colossus"]], "its keys are "),  # type: ignore[index]
    ("a card for a deck", lambda: ist.deck(COMMON), "one of barbarians, common"),  # type: ignore[arg-type]
    (
        "a card for its printed id",
        lambda: ist.card_of(COMMON),  # type: ignore[arg-type]
        f"give one of its printed ids, {COMMON.printed_ids[0]!r}",
    ),
]


@pytest.mark.parametrize(("call", "said"), [case[1:] for case in OTHER_ROWS], ids=[case[0] for case in OTHER_ROWS])
def test_a_row_of_another_table_is_not_told_to_give_its_id(call: Callable[[], object], said: str) -> None:
    with pytest.raises(KeyError) as refused:
        call()
    message = str(refused.value)
    assert said in message, message
    assert "(record.id)" not in message, message
