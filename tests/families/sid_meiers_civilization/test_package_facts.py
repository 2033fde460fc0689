"""Every fact of the rule data reaches the generated packages of Sid Meier's Civilization: every
leaf of `civrules export` (every collection, every setting) is in the package (see
tests/engine/facts.py), or NOT_CARRIED says why not."""

from __future__ import annotations

import importlib
import sys

import pytest

from tests.conftest import REPO
from tests.engine.facts import dropped_facts

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

RULESETS = ("sid-meiers-civilization", "sid-meiers-civilization-community")

#: What the family's packages leave out of `civrules export`, and why.
NOT_CARRIED: dict[str, str] = {
    "technologies.effects.rule": "a part's citation (the technology's own is in ENTITY_SOURCES)",
    "unit_types.ranks.rule": "a part's citation (the unit type's own is in ENTITY_SOURCES)",
    "technologies.name_language": "the language of the name as written (names are never translated)",
    **{
        f"{collection}.name_language": "the language of the name as written, which the sheets mark (round 29)"
        for collection in (
            "buildings",
            "civilizations",
            "combat_bonuses",
            "decks",
            "eras",
            "governments",
            "great_people",
            "huts",
            "tiles",
            "unit_types.ranks",
            "villages_markers",
            "wonders",
        )
    },
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_fact_of_every_collection_and_setting_reaches_the_package(ruleset: str) -> None:
    missing = dropped_facts(
        ruleset,
        NOT_CARRIED,
        derived={"technologies_by_level": "PYRAMID", "unlocked_by": "TECHNOLOGIES' unlocks"},
    )
    assert not missing, "\n".join(missing)


def test_an_argument_outside_a_rules_domain_is_the_runtimes_error_naming_it() -> None:
    from civrules_rulesets import sid_meiers_civilization
    from civrules_runtime import OutOfDomainError

    with pytest.raises(OutOfDomainError, match=r"figures=-1 .*0 or more"):
        sid_meiers_civilization.battle_hand_size(-1)


def test_none_and_unknown_are_told_apart() -> None:
    """The rulebook's transcription leaves out the map tiles, the huts and villages, the culture
    track and its cards, and the wonders' eras (not_in_sources): those tables are empty and named
    unknown; the community variant gives some of them."""
    from civrules_rulesets import sid_meiers_civilization, sid_meiers_civilization_community

    assert {
        "CULTURE_DECKS", "CULTURE_SPACES", "ERAS", "HUTS", "TILES", "VILLAGES",
    } == sid_meiers_civilization.UNKNOWN_COLLECTIONS  # fmt: skip
    assert not sid_meiers_civilization.TILES
    assert (
        sid_meiers_civilization_community.ERAS and "ERAS" not in sid_meiers_civilization_community.UNKNOWN_COLLECTIONS
    )


def test_the_players_the_ruleset_seats_are_a_typed_constant_of_the_package() -> None:
    """`civrules export`'s ruleset.players (2-4, best with 4, p2; the community variant 2-5) is
    every package's PLAYERS, the shared runtime's PlayerRange (round 20: it reached no package)."""
    from civrules_rulesets import sid_meiers_civilization, sid_meiers_civilization_community
    from civrules_runtime.records import PlayerRange

    assert PlayerRange(2, 4, best=4, rule=("p2",)) == sid_meiers_civilization.PLAYERS
    # the variant writes its range (citing p2 itself): each field it wrote is cited as export's setting_sources
    cited = {"best": "rule p2", "max": "rule p2", "min": "rule p2"}
    assert PlayerRange(2, 5, best=4, rule=("p2",), field_sources=cited) == sid_meiers_civilization_community.PLAYERS
    assert 5 in sid_meiers_civilization_community.PLAYERS and 5 not in sid_meiers_civilization.PLAYERS


def test_the_walk_fails_when_the_package_drops_the_ruleset_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """The export's `ruleset` key is walked as the rest: a package without its player range, with
    another best number (the community variant seats 2-5, best with 4), or naming another base,
    fails the walk naming each fact."""
    import types

    from tests.engine import facts

    ruleset = "sid-meiers-civilization-community"
    real = facts.data_module(ruleset)
    every = [
        "ruleset.players.best: 4",
        "ruleset.players.max: 5",
        "ruleset.players.min: 2",
        "ruleset.players.rule: 'p2'",
    ]
    for players, dropped in ((None, every), (real.PLAYERS.replace(best=3), ["ruleset.players.best: 4"])):
        fake = types.ModuleType(real.__name__)
        fake.__dict__.update({**vars(real), "PLAYERS": players})
        monkeypatch.setattr(facts, "data_module", lambda ruleset, fake=fake: fake)
        missing = dropped_facts(ruleset, NOT_CARRIED, derived={"technologies_by_level": "", "unlocked_by": ""})
        assert sorted(missing) == dropped
    monkeypatch.undo()
    package = importlib.import_module("civrules_rulesets.sid_meiers_civilization_community")
    monkeypatch.setattr(package, "BASE_RULESET", None)
    missing = dropped_facts(ruleset, NOT_CARRIED, derived={"technologies_by_level": "", "unlocked_by": ""})
    assert missing == ["ruleset.extends: 'sid-meiers-civilization' (the package has None)"]
