"""Ids at run time: the id enums stay strings, and a string where a collection of ids belongs is
the runtime's NotACollectionError (a TypeError), in every family, instead of being split into
letters. (That another ruleset's ids are refused is mypy's: tests/engine/test_foreign_ids.py.)"""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import mega_civilization as mega  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import NotACollectionError  # noqa: E402
from civrules_runtime_advanced_civilization import Role  # noqa: E402

A_STRING_FOR_A_COLLECTION: dict[str, tuple[str, Callable[[], object]]] = {
    "purchase_cost": ("owned", lambda: ac.purchase_cost("law", "democracy")),  # type: ignore[arg-type]
    "credit_toward": ("owned", lambda: ac.credit_toward("law", "democracy")),  # type: ignore[arg-type]
    "calamity_resolution_order": ("calamities", lambda: ac.calamity_resolution_order("flood")),  # type: ignore[arg-type]
    "calamity_amount": ("held", lambda: ac.calamity_amount("flood", "flood_primary", "pottery", Role.PRIMARY)),  # type: ignore[arg-type]
    "effects_held": ("held", lambda: ac.effects_held("pottery")),  # type: ignore[arg-type]
    "hand_limit": ("held", lambda: ac.hand_limit("pottery")),  # type: ignore[arg-type]
    "tax_rates": ("held", lambda: ac.tax_rates("pottery")),  # type: ignore[arg-type]
    "can_enter_epoch": ("held", lambda: ac.can_enter_epoch("stone_age", 2, "pottery")),  # type: ignore[arg-type]
    "mega.purchase_cost": ("owned", lambda: mega.purchase_cost("law", "democracy")),  # type: ignore[arg-type]
    "research_cost": ("wonders", lambda: smc.research_cost(1, "porto")),  # type: ignore[arg-type]
    "may_place_technology": ("pyramid", lambda: smc.may_place_technology("pottery", "pottery")),  # type: ignore[arg-type]
    "victories_met": ("technologies", lambda: smc.victories_met("pottery")),  # type: ignore[arg-type]
    "can_pay": ("goods", lambda: imperial.can_pay("com003", "wood")),
    "production": ("deals", lambda: imperial.production("romans", deals="wood")),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("helper", sorted(A_STRING_FOR_A_COLLECTION))
def test_a_string_where_a_collection_of_ids_belongs_is_a_type_error(helper: str) -> None:
    parameter, call = A_STRING_FOR_A_COLLECTION[helper]
    with pytest.raises(NotACollectionError, match=rf"^{parameter} is a collection of ids, not the string '\w+'"):
        call()
    assert issubclass(NotACollectionError, TypeError)


def test_the_issue_example_is_refused_by_name_not_by_letter() -> None:
    """`purchase_cost("law", ...)` said "'w' is not a civilization card"."""
    with pytest.raises(TypeError, match=r"write \['law'\] for one id"):
        ac.purchase_cost("law", "democracy")  # type: ignore[arg-type]
    assert ac.purchase_cost(["law"], "democracy") == ac.purchase_cost([ac.CardId.LAW], ac.CardId.DEMOCRACY)


def test_the_id_enums_are_still_the_ids() -> None:
    ids: list[str] = [ac.CardId.POTTERY, smc.TechnologyId.POTTERY, imperial.FactionId.ROMANS]
    assert ids == ["pottery", "pottery", "romans"] and all(type(i) is not str for i in ids)
    assert {ac.CardId(card) for card in ac.CARDS} == set(ac.CardId)
