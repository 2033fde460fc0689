"""Every fact of the rule data reaches the generated packages of Imperial Settlers: every leaf of
`civrules export` (every collection, every setting) is in the package (see tests/engine/facts.py),
or NOT_CARRIED says why not."""

from __future__ import annotations

import sys
from collections.abc import Mapping

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
#: What the family's packages leave out of `civrules export`, and why (every collection is carried:
#: COLOURS, LOCATION_KINDS, CARD_ANATOMY, COMPONENTS, GENERAL_RULES, a faction's special_rules, a
#: phase's step_facts, an action's pays/cards/gives/becomes/owner_gains).
NOT_CARRIED: dict[str, str] = {
    "factions.board.rule": "a part's citation (the faction's own is in ENTITY_SOURCES)",
    "factions.board.source": "a part's citation",
    "phases.steps.rule": "a part's citation",
    "cards.refers_to": "prose naming the cards a card's text mentions (the text is carried)",
    "actions.raised_by": "carried as the numbers it reads: Action.extra_per_defence and extra_per_samurai",
}


#: The export's keys derived from the collections, and where the package has them.
DERIVED = {
    "decks_expanded": "DECK_CARDS",
    "deck_totals": "DECKS",
    "faction_deck_in_use": "FACTIONS and DECKS",
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fact_of_every_collection_and_setting_reaches_the_package(ruleset: str) -> None:
    missing = dropped_facts(
        ruleset,
        NOT_CARRIED,
        derived=DERIVED,
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


def test_the_collections_the_first_round_left_out_reach_the_package() -> None:
    """The card anatomy, colours, components, general rules and kinds of location are tables; a
    faction's special rules, a phase's steps in full and an action's exchanges are in its record."""
    from civrules_rulesets import imperial_settlers as imps

    assert imps.LOCATION_KINDS["production"].row == "top"  # p4
    assert imps.CARD_ANATOMY["cost"].side == "left"
    assert imps.COLOURS["black"].name == "Preto"
    assert imps.COMPONENTS["faction_marker"].count == 4  # p2
    assert "draw_from_either_deck" in imps.GENERAL_RULES
    barbarians = imps.FACTIONS["barbarians"].special_rules
    assert any(r.id == "mob_razes_own" and r.cards == ("bar018",) for r in barbarians)
    lookout = imps.PHASES["lookout"].step_facts
    assert [s.step for s in lookout] == [1, 2, 3, 4]
    assert dict(lookout[0].draw) == {"faction": 1} and dict(lookout[1].reveal) == {"common": "players_plus_one"}
    assert (lookout[2].pick, lookout[3].pick) == ("clockwise", "anticlockwise")
    assert imps.ACTIONS["deal"].gives == "deal" and imps.ACTIONS["activate"].activations_per_round == 1


def test_the_walk_fails_when_the_package_drops_a_fact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's ``True`` is no leaf ``1``: the activations of an action were found that way
    before they were carried. The package without them fails the walk, naming the leaf."""
    import types

    from tests.engine import facts

    real = facts.data_module("imperial-settlers")
    actions = dict(real.ACTIONS)
    actions["activate"] = actions["activate"].replace(activations_per_round=None)
    fake = types.ModuleType(real.__name__)
    fake.__dict__.update({**vars(real), "ACTIONS": actions})
    monkeypatch.setattr(facts, "data_module", lambda ruleset: fake)
    missing = dropped_facts("imperial-settlers", NOT_CARRIED, derived=dict.fromkeys(DERIVED, ""))
    assert missing == ["actions.activations_per_round: 1"]


def test_a_setting_an_engine_deals_from_is_typed() -> None:
    """The starting hand (p5: two common and two faction cards) is a typed table, not only SETTINGS."""
    from civrules_rulesets import imperial_settlers as imps

    setting = imps.SETTINGS["starting_hand"]
    assert isinstance(setting, Mapping)
    assert dict(imps.STARTING_HAND) == {"common": 2, "faction": 2}
    assert all(setting[deck] == n for deck, n in imps.STARTING_HAND.items())
