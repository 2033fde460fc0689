"""Every fact of the rule data reaches the generated packages of Sid Meier's Civilization: every
leaf of `civrules export` (every collection, every setting) is in the package (see
tests/engine/facts.py), or NOT_CARRIED says why not."""

from __future__ import annotations

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
