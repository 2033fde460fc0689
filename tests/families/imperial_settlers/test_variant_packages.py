"""The packages of small Imperial Settlers variants, each built in this process (rendered from a
CachedWorkspace and imported from a temporary folder, never a fresh interpreter): a rule number a
variant changes changes the package's answers, and a fact a variant makes unknown is refused with
the data's why (round 23)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.pipeline import Analysis
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis
from tests.variant_packages import analysed, built, forgetting, variant

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime import OutOfDomainError, UnknownFactError  # noqa: E402 - the committed runtime

#: The packages of the variants built here.
VARIANTS = ("is_two_samurai", "is_unknown_bonus")


def _analysed(ruleset_id: str, overlay: str) -> Analysis:
    """The analysis of a variant of imperial-settlers with ``overlay``, over the shipped rules."""
    return analysed(ruleset_id, variant(ruleset_id, "imperial-settlers", overlay))


def _built(tmp_path: Path, ruleset_id: str, overlay: str) -> ModuleType:
    """The package of a variant of imperial-settlers with ``overlay``, rendered in this process and
    imported under its own name from ``tmp_path``."""
    assert ruleset_id.replace("-", "_") in VARIANTS
    return built(tmp_path, ruleset_id, variant(ruleset_id, "imperial-settlers", overlay))


@pytest.fixture
def imported() -> Iterator[None]:
    """Forgets the packages of the variants a test built (their modules), once it has run."""
    with forgetting(VARIANTS):
        yield


#: A house rule: two Samurai may guard one Japanese faction location.
TWO_SAMURAI = """\
  factions:
    patch:
      - id: japanese
        special_rules:
          patch:
            - where: {id: samurai}
              with: {at_most_per_location: 2, source: "house rule: two Samurai to a location"}
"""


def test_the_samurai_on_a_location_are_the_data_s_number_and_a_variant_changes_it(
    tmp_path: Path, imported: None
) -> None:
    """p11, "Posicionando Samurais": no Japanese faction location holds more than 1 Samurai. The
    number is the `samurai` rule's (at_most_per_location, cited), not the code's: a variant that
    lets two guard a location lets a raze meet two and an empire of one faction location hold two."""
    from civrules_rulesets import imperial_settlers as base

    rule = next(rule for rule in base.FACTIONS["japanese"].special_rules if rule.id == "samurai")
    assert rule.at_most_per_location == 1 and "p11/posicionando-samurais" in rule.rules
    with pytest.raises(OutOfDomainError, match=r"samurai=2 .*at most 1 on each.*p11/posicionando-samurais.*: 0 to 1$"):
        base.raze_price("raze_opponent_location", samurai=2)
    with pytest.raises(OutOfDomainError, match=r"samurai=2 .*: 0 to 1$"):
        base.production("japanese", locations=["jap009", "com025"], samurai=2)  # 1 faction location

    house = _built(tmp_path, "is-two-samurai", TWO_SAMURAI)
    assert house.raze_price("raze_opponent_location", samurai=2) == 4  # 2, and 1 per Samurai (p11)
    with pytest.raises(OutOfDomainError, match=r"samurai=3 .*at most 2 on each.*: 0 to 2$"):
        house.raze_price("raze_opponent_location", samurai=3)
    empire = ["jap009", "com025"]  # the Castelo do Daimiô (1 VP per Samurai, p14) and a common location
    guarded = Counter(house.production("japanese", locations=empire, samurai=2))
    assert guarded - Counter(house.production("japanese", locations=empire)) == {"vp": 2}
    with pytest.raises(OutOfDomainError, match=r"samurai=3 .*: 0 to 2$"):
        house.production("japanese", locations=["jap009", "com025"], samurai=3)


def test_the_faction_boards_sheet_prints_the_samurai_rule_s_number() -> None:
    """The sheet gives the rule's number from the data, not from its words, so a variant that
    changes it changes what players read."""
    from civrules.emit.sheets.common import PAPERS, page_for
    from civrules.emit.sheets.registry import Source
    from civrules.families.imperial_settlers.sheets.boards import build

    def samurai_rule(overlay: str | None) -> str:
        model = (
            shipped_analysis("imperial-settlers").model
            if overlay is None
            else _analysed("is-two-samurai", overlay).model
        )
        assert isinstance(model, ImperialSettlersRuleset)
        sheet = build(Source(model, page_for(PAPERS["a4"], False)))
        japanese = next(faction for faction in sheet["factions"] if faction["name"] == "Japoneses")
        return str(next(text for text, _ in japanese["rules"] if "as Samurai" in text))

    assert samurai_rule(None).endswith(" At most 1 on each location.")
    assert samurai_rule(TWO_SAMURAI).endswith(" At most 2 on each location.")


def test_a_ruleset_whose_factions_have_no_samurai_rule_prices_no_samurai(tmp_path: Path, imported: None) -> None:
    """Samurai are the `samurai` special rule's (p11): where no faction has it, a raze meets none, and
    the Ninjas' bonus (placed as Samurai, p11) must say where it goes instead (F020): here, to the
    supply."""
    removed = "  factions:\n    patch:\n      - id: japanese\n        special_rules:\n"
    removed += "          remove: [{id: samurai}]\n"
    removed += "  cards:\n    patch:\n"
    removed += '      - {id: jap026, build_bonus_placed_as: null, source: "house rule: no Samurai"}\n'
    house = _built(tmp_path, "is-two-samurai", removed)
    assert house.raze_price("raze_opponent_location", samurai=0) == 2
    with pytest.raises(OutOfDomainError, match=r"samurai=1 .*no faction has a `samurai` special rule.*: 0 to 0$"):
        house.raze_price("raze_opponent_location", samurai=1)
    assert house.build_gains("japanese", "jap026") == {"worker": 2}
    assert house.build_samurai("japanese", "jap026") == 0


#: A house rule that leaves a card's build bonus to be drawn in play: unknown, with its why.
UNKNOWN_BONUS = """\
  cards:
    patch:
      - id: com008
        build_bonus: {unknown: "drawn from a bag at the table"}
        source: "house rule: the bonus of the quarry is drawn"
"""


def test_a_build_bonus_the_data_records_as_unknown_is_refused_with_the_data_s_why(
    tmp_path: Path, imported: None
) -> None:
    """p8, Nota 2: a build bonus gives its goods once when the card is built. A card the data gives
    none gains nothing from it; one whose bonus the data records as unknown is no bonus of none:
    building it is refused with the data's why, and an engine that assumes the bonus gets it."""
    from civrules_runtime_imperial_settlers import Assumptions

    house = _built(tmp_path, "is-unknown-bonus", UNKNOWN_BONUS)
    with pytest.raises(UnknownFactError) as refused:
        house.build_gains("romans", "com008")
    assert str(refused.value) == "the sources do not give the build bonus of 'com008': drawn from a bag at the table"
    assert refused.value.field == "cards[com008].build_bonus"
    assert house.build_gains("romans", "com002") == {}  # no bonus in the data: none
    assumed = house.assuming(Assumptions(card_build_bonuses={"com008": ["gold"]}, why="we drew gold"))
    assert assumed.build_gains("romans", "com008") == {"gold": 1, "stone": 1}  # its production, and the bonus
    with pytest.raises(UnknownFactError, match=r"^the sources do not give the build bonus of 'com008': drawn"):
        house.assuming(Assumptions(why="nothing assumed")).build_gains("romans", "com008")
