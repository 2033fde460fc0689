"""Entering epochs and spaces of the A.S.T. (33.1-33.3, 33.2x) with the shipped Advanced Civilization data."""

from __future__ import annotations

import pytest

from civrules.diagnostics import Severity
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.succession import (
    EpochSpan,
    can_enter_epoch,
    can_enter_space,
    card_value,
    epoch_spans,
    groups_covered,
    layout,
    track_of,
)
from civrules.model import Unknown
from civrules.pipeline import analyse
from tests import shipped
from tests.rulefiles import CachedWorkspace, shipped_analysis

# Civilization cards by group (32.2-32.9); mysticism is Religion and Arts, engineering Crafts and
# Sciences, literacy Arts and Civics, mathematics Sciences and Arts.
CRAFTS_SCIENCES_RELIGION = ["pottery", "astronomy", "deism"]
NINE_OF_ALL_FIVE = [
    "pottery",
    "cloth_making",
    "metalworking",
    "astronomy",
    "coinage",
    "music",
    "drama_and_poetry",
    "law",
    "deism",
]
# 250 + 240 + 230 + 220 + 200 + 180 + 180 = 1500 at face value.
WORTH_1500 = ["theology", "philosophy", "mathematics", "monotheism", "democracy", "mining", "military"]


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


def test_stone_age_has_no_requirement(ruleset: Ruleset) -> None:
    assert can_enter_epoch(ruleset, "stone_age", cities=0, held=[]) is True


def test_early_bronze_age_needs_two_cities(ruleset: Ruleset) -> None:
    assert can_enter_epoch(ruleset, "early_bronze_age", cities=2, held=[]) is True
    assert can_enter_epoch(ruleset, "early_bronze_age", cities=1, held=["pottery"]) is False


def test_late_bronze_age_needs_three_cities_and_three_groups(ruleset: Ruleset) -> None:
    assert can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=CRAFTS_SCIENCES_RELIGION) is True
    assert can_enter_epoch(ruleset, "late_bronze_age", cities=2, held=CRAFTS_SCIENCES_RELIGION) is False
    two_groups = ["pottery", "cloth_making", "agriculture", "astronomy"]
    assert can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=two_groups) is False


def test_a_card_of_two_groups_counts_for_both(ruleset: Ruleset) -> None:
    # 33.23: "Remember that some cards belong to and count as two groups" (31.55).
    assert can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=["pottery", "mysticism"]) is True
    assert can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=["engineering"]) is False


def test_groups_covered_without_counting_twice_is_a_matching(ruleset: Ruleset) -> None:
    cards = [ruleset.cards.by_id[c] for c in ("engineering", "mathematics")]
    assert groups_covered(cards, count_both=True) == 3
    assert groups_covered(cards, count_both=False) == 2


def test_early_iron_age_needs_four_cities_nine_cards_and_all_five_groups(ruleset: Ruleset) -> None:
    assert can_enter_epoch(ruleset, "early_iron_age", cities=4, held=NINE_OF_ALL_FIVE) is True
    assert can_enter_epoch(ruleset, "early_iron_age", cities=3, held=NINE_OF_ALL_FIVE) is False
    assert can_enter_epoch(ruleset, "early_iron_age", cities=4, held=NINE_OF_ALL_FIVE[:-1]) is False
    without_civics = [c for c in NINE_OF_ALL_FIVE if c != "law"] + ["agriculture"]
    assert can_enter_epoch(ruleset, "early_iron_age", cities=4, held=without_civics) is False
    # Literacy (Arts and Civics) brings the missing colour.
    with_literacy = [c for c in NINE_OF_ALL_FIVE if c != "law"] + ["literacy"]
    assert can_enter_epoch(ruleset, "early_iron_age", cities=4, held=with_literacy) is True


def test_late_iron_age_spaces_need_card_value(ruleset: Ruleset) -> None:
    cards = [ruleset.cards.by_id[c] for c in WORTH_1500]
    assert card_value(cards) == 1500
    # Africa's Late Iron Age starts on space 14 (1300) and space 15 needs 1600.
    assert can_enter_epoch(ruleset, "late_iron_age", cities=5, held=WORTH_1500, nation="africa") is True
    assert can_enter_epoch(ruleset, "late_iron_age", cities=4, held=WORTH_1500, nation="africa") is False
    assert can_enter_epoch(ruleset, "late_iron_age", cities=5, held=WORTH_1500[:5], nation="africa") is False
    assert can_enter_space(ruleset, "africa", 15, cities=5, held=WORTH_1500) is False
    assert can_enter_space(ruleset, "africa", 15, cities=5, held=[*WORTH_1500, "music", "pottery"]) is True


def test_commodity_value_does_not_count(ruleset: Ruleset) -> None:
    # 33.25: only civilization cards count; without a nation the space values are not judged.
    assert can_enter_epoch(ruleset, "late_iron_age", cities=5, held=[]) is True
    assert can_enter_epoch(ruleset, "late_iron_age", cities=5, held=[], nation="africa") is False


def test_a_player_short_of_cities_is_frozen(ruleset: Ruleset) -> None:
    # 33.3: Africa's Late Bronze Age is spaces 8-10; with two cities the marker may not advance in it.
    assert can_enter_space(ruleset, "africa", 10, cities=3, held=CRAFTS_SCIENCES_RELIGION) is True
    assert can_enter_space(ruleset, "africa", 10, cities=2, held=CRAFTS_SCIENCES_RELIGION) is False


def test_unknown_facts_give_unknown_answers(ruleset: Ruleset) -> None:
    everything = ruleset.cards.ids()
    # The finish box's value is not settled by the sources (they disagree).
    assert isinstance(can_enter_space(ruleset, "africa", 16, cities=9, held=everything), Unknown)


def test_italy_track_from_the_earlier_commit(ruleset: Ruleset) -> None:
    # Italy's track (johnchampaign/advanced-civilization@765b5cb): Late Iron Age from space 14 (1400), 15 needs 1700.
    assert can_enter_space(ruleset, "italy", 14, cities=5, held=WORTH_1500) is True
    assert can_enter_space(ruleset, "italy", 15, cities=5, held=WORTH_1500) is False
    assert can_enter_space(ruleset, "italy", 15, cities=5, held=ruleset.cards.ids()) is True


def test_ast_order_runs_down_the_nation_list(ruleset: Ruleset) -> None:
    # 17.4 fixes Africa 1, Italy 2 and Egypt last; the six between come from the community author's list.
    positions = [nation.ast_position for nation in ruleset.nations]
    assert positions == list(range(1, 10))


def test_unknown_ids_are_refused(ruleset: Ruleset) -> None:
    with pytest.raises(ValueError, match="enginering"):
        can_enter_epoch(ruleset, "late_bronze_age", cities=3, held=["enginering"])
    with pytest.raises(ValueError, match="bronze_age"):
        can_enter_epoch(ruleset, "bronze_age", cities=3, held=[])
    with pytest.raises(ValueError, match="space 17"):
        can_enter_space(ruleset, "africa", 17, cities=9, held=[])
    with pytest.raises(ValueError, match="space -1"):
        can_enter_space(ruleset, "africa", -1, cities=9, held=[])


def test_epoch_spans_of_africa(ruleset: Ruleset) -> None:
    # Spaces count from the start arrow, space 0 (the source's numbering, 10.2's count recorded as disagreeing).
    assert layout(ruleset).start_space == 0
    assert epoch_spans(ruleset, track_of(ruleset, "africa")) == (
        EpochSpan("stone_age", 0, 4),
        EpochSpan("early_bronze_age", 5, 7),
        EpochSpan("late_bronze_age", 8, 10),
        EpochSpan("early_iron_age", 11, 13),
        EpochSpan("late_iron_age", 14, 16),
    )
    assert layout(ruleset).last_space(track_of(ruleset, "africa")) == 16


#: Every shipped ruleset, by its manifest's file name (its id): nothing is read to collect the tests.
SHIPPED = sorted(shipped.RULESETS)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_rulesets_have_no_ast_player_or_citation_findings(name: str) -> None:
    workspace = CachedWorkspace()  # its own selection of checks, over one reading of the shipped files
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[name]), select=("A", "P", "Q"))
    assert analysis.model is not None
    assert [(d.code, d.message) for d in analysis.diagnostics if d.severity is not Severity.INFO] == []
