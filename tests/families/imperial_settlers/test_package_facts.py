"""Every fact of the rule data reaches the generated packages of Imperial Settlers: every leaf of
`civrules export` (every collection, every setting) is in the package (see tests/engine/facts.py),
or NOT_CARRIED says why not."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO
from tests.engine.facts import dropped_facts

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

RULESETS = (
    "imperial-settlers",
    "imperial-settlers-advanced-lookout",
    "imperial-settlers-alternative-lookout",
    "imperial-settlers-peaceful",
)
_YET = "not carried yet (#28 follow-up): read it from `civrules export`"

#: What the family's packages leave out of `civrules export`, and why. The collections marked
#: "not carried yet" (the card anatomy, colours, components, general rules, location kinds, a
#: faction's special rules, the steps of a phase, the actions' exchanges) are gaps this round leaves.
NOT_CARRIED: dict[str, str] = {
    "factions.board.rule": "a part's citation (the faction's own is in ENTITY_SOURCES)",
    "factions.board.source": "a part's citation",
    "factions.special_rules.rule": "a part's citation",
    "phases.steps.rule": "a part's citation",
    "cards.refers_to": "prose naming the cards a card's text mentions (the text is carried)",
    **dict.fromkeys(
        (
            "actions.becomes",
            "actions.cards",
            "actions.gives",
            "actions.owner_gains",
            "actions.pays",
            "card_anatomy.id",
            "card_anatomy.name",
            "card_anatomy.side",
            "colours.id",
            "colours.name",
            "components.count",
            "components.id",
            "components.minimum",
            "components.name",
            "factions.special_rules.cards",
            "factions.special_rules.id",
            "factions.special_rules.text",
            "general_rules.id",
            "general_rules.name",
            "general_rules.text",
            "location_kinds.id",
            "location_kinds.name",
            "location_kinds.row",
            "phases.steps.pick",
            "phases.steps.reveal.common",
            "phases.steps.draw.common",
            "phases.steps.source_of_goods",
            "phases.steps.step",
        ),
        _YET,
    ),
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fact_of_every_collection_and_setting_reaches_the_package(ruleset: str) -> None:
    missing = dropped_facts(
        ruleset,
        NOT_CARRIED,
        derived={
            "decks_expanded": "DECK_CARDS",
            "deck_totals": "DECKS",
            "faction_deck_in_use": "FACTIONS and DECKS",
        },
    )
    assert not missing, "\n".join(missing)


def test_an_argument_outside_a_rules_domain_is_the_runtimes_error_naming_it() -> None:
    from civrules_rulesets import imperial_settlers
    from civrules_runtime import OutOfDomainError

    with pytest.raises(OutOfDomainError, match=r"workers=-1 .*0 or more"):
        imperial_settlers.worker_exchange(-1)
    with pytest.raises(OutOfDomainError, match=r"samurai=-2"):
        imperial_settlers.raze_price("raze_opponent_location", samurai=-2)


def test_no_collection_is_unknown() -> None:
    from civrules_rulesets import imperial_settlers

    assert frozenset() == imperial_settlers.UNKNOWN_COLLECTIONS
