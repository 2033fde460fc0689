"""Commodity cards: the shipped Advanced Civilization deck (8.1, 15.2) and set values with Mining
(28.52-28.53, 32.261), against the rulebook's numbers."""

from __future__ import annotations

import pytest

from civrules.families.advanced_civilization.commodities import SetValueRule, declared_stacks, set_value, set_value_rule
from civrules.families.advanced_civilization.model import Commodity, Ruleset, of_family
from civrules.load.document import Document
from civrules.model import Origin, Unknown
from tests.rulefiles import shipped_analysis


@pytest.fixture(scope="module")
def advciv() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


def good(ruleset: Ruleset, commodity_id: str) -> Commodity:
    found = ruleset.commodities.get(commodity_id)
    assert found is not None
    return found


def test_114_commodity_cards_of_18_goods_in_9_stacks(advciv: Ruleset) -> None:
    counts = [c.count for c in advciv.commodities]
    assert len(counts) == 18
    assert sum(n for n in counts if isinstance(n, int)) == 114
    stacks = declared_stacks(advciv)
    assert [s.number for s in stacks] == list(range(1, 10))
    assert sorted({c.stack for c in advciv.commodities if c.stack is not None}) == list(range(1, 10))


def test_every_stack_but_the_first_holds_calamities_as_9_1_lists_them(advciv: Ruleset) -> None:
    composition = {s.number: s.calamity_cards for s in declared_stacks(advciv) if s.calamities}
    assert sorted(composition) == list(range(2, 10))
    both = {"non_tradable": 1, "tradable": 1, "minor": 0}
    one = {"non_tradable": 0, "tradable": 1, "minor": 0}
    assert composition == {n: both if n <= 5 else one for n in range(2, 10)}


def test_every_stack_with_calamities_can_be_set_up_for_eight_players(advciv: Ruleset) -> None:
    # 15.2: one commodity card per player is set aside from each of stacks 2-9
    for stack in declared_stacks(advciv):
        cards = sum(c.count for c in advciv.commodities if c.stack == stack.number and isinstance(c.count, int))
        assert not stack.calamities or cards >= advciv.players[1]


def test_the_mining_goods_are_iron_bronze_silver_gems_and_gold(advciv: Ruleset) -> None:
    # 32.261
    assert [c.id for c in advciv.commodities if c.mining] == ["iron", "bronze", "silver", "gems", "gold"]


def test_the_file_declares_n_squared_times_value_and_one_card_for_mining(advciv: Ruleset) -> None:
    assert set_value_rule(advciv) == SetValueRule("count_squared_times_value", 1)


@pytest.mark.parametrize(
    ("commodity_id", "cards", "plain", "with_mining"),
    [
        ("iron", 3, 18, 32),  # 32.261: "32 rather than 18"
        ("gems", 2, 32, 72),  # 32.261: "72 rather than 32"
        ("bronze", 3, 54, 96),  # 28.53: "da 54 a 96"
    ],
)
def test_mining_values_a_set_as_one_card_larger(
    advciv: Ruleset, commodity_id: str, cards: int, plain: int, with_mining: int
) -> None:
    commodity = good(advciv, commodity_id)
    rule = set_value_rule(advciv)
    assert set_value(commodity, cards, rule=rule) == plain
    assert set_value(commodity, cards, mining=True, rule=rule) == with_mining


def test_mining_never_goes_beyond_the_goods_count(advciv: Ruleset) -> None:
    # 32.261: "not beyond the limit printed on the commodity card itself"; there are 8 Iron cards
    iron = good(advciv, "iron")
    assert set_value(iron, 8, mining=True) == set_value(iron, 8) == 8 * 8 * 2
    assert set_value(iron, 7, mining=True) == 128


def test_mining_does_nothing_for_other_goods(advciv: Ruleset) -> None:
    ivory = good(advciv, "ivory")
    assert set_value(ivory, 3, mining=True) == set_value(ivory, 3) == 81


def test_no_set_is_larger_than_the_goods_count(advciv: Ruleset) -> None:
    with pytest.raises(ValueError, match="0 to 8"):
        set_value(good(advciv, "iron"), 9)
    with pytest.raises(ValueError, match="0 to 8"):
        set_value(good(advciv, "iron"), -1)
    assert set_value(good(advciv, "iron"), 0, mining=True) == 0


def test_a_single_card_counts_its_face_value(advciv: Ruleset) -> None:
    # 35.1 B
    assert set_value(good(advciv, "hides"), 1) == 1


def test_every_worked_example_of_the_file_follows_the_rule(advciv: Ruleset) -> None:
    examples = advciv.settings["commodities"]["set_value"]["examples"]
    assert len(examples) == 9
    for example in examples:
        assert set_value(good(advciv, example["commodity"]), example["cards"]) == example["set_value"]


def test_an_unknown_value_cannot_be_valued() -> None:
    origin = Origin(Document("synthetic.yaml", {}), ())
    mystery = Commodity("mystery", "Mystery", origin, {}, Unknown("lost"), 5, 3, False)
    with pytest.raises(ValueError, match="unknown"):
        set_value(mystery, 2)


def test_stack_9_cards_cost_18_treasury_tokens_each_as_its_two_sources_say(advciv: Ruleset) -> None:
    """27.5 has only its heading in the source text; an implementation of the game gives its price
    (johnchampaign/advanced-civilization's engine.ts, at the commit the data cites), and the online
    help at the top of the source text agrees: 18 treasury tokens a card, no card needed."""
    (stack_9,) = [s for s in declared_stacks(advciv) if s.number == 9]
    (purchase,) = stack_9.purchases
    assert purchase.price == 18
    assert purchase.requires_card is None
    assert purchase.rules == ("27.5",)
    assert purchase.source is not None
    assert purchase.source.startswith(
        "johnchampaign/advanced-civilization@77949e9e17693a27969b4415671cd716093e91fd:src/engine/engine.ts"
    )
