"""A008's cards of a value range where some costs are unknown (round 35): the window was not
judged at all when any card's cost was unknown, the blind spot T001 and T007 had. What the known
costs decide is decided; only what turns on an unknown cost is "cannot be judged"."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, pristine

#: Advanced Civilization's five cards of face value 200 and more: democracy 200, monotheism 220,
#: mathematics 230, philosophy 240, theology 250. The variant asks the Late Iron Age for
#: ``count`` of them and makes ``unknown`` of its cards' costs unknown.
HEAD = (
    'kind: ruleset\nid: ac-dear\nname: "Dear cards"\nextends: advanced-civilization\n'
    "overlay:\n  epochs:\n    patch:\n      - id: late_iron_age\n"
    "        requirements: {{min_cards_of_value: {{append: [{{count: {count}, min_value: 200}}]}}}}\n"
    '        source: "house rule: dear cards"\n'
)


def _a008(count: int, unknown: list[str]) -> list[Diagnostic]:
    text = HEAD.format(count=count)
    if unknown:
        text += "  civilization_cards:\n    patch:\n"
        for card in unknown:
            text += f'      - {{id: {card}, cost: {{unknown: "a test"}}, source: "house rule: lost"}}\n'
    workspace = CachedWorkspace({"rulesets/ac-dear.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-dear"]))
    return [d for d in analysis.diagnostics if d.code == "A008"]


def test_too_many_cards_of_a_value_is_an_error_even_where_every_unknown_cost_could_fall_in_the_range() -> None:
    # 4 known in the range (theology's cost unknown), 1 unknown: 5 at most, 7 asked
    [found] = _a008(7, ["theology"])
    assert found.severity == "error", found
    assert "has 4, and 1 card of unknown cost cannot make up the rest" in found.message, found.message


def test_enough_known_cards_of_a_value_is_no_finding_whatever_the_unknown_costs() -> None:
    assert _a008(3, ["theology", "pottery"]) == []


def test_a_count_only_an_unknown_cost_can_reach_cannot_be_judged() -> None:
    [found] = _a008(5, ["theology"])
    assert found.severity == "info", found
    assert "cannot be judged: 4 known costs fall in the range, and 1 card has no known cost" in found.message
    assert found.hint == "the costs of `theology` would settle it"


def test_all_costs_known_is_judged_as_before() -> None:
    [found] = _a008(6, [])
    assert found.severity == "error"
    assert found.message.endswith("but the ruleset has 5"), found.message


def test_no_known_cost_at_all_leaves_the_unknown_costs_to_q006() -> None:
    """Every card's cost unknown, as in the Expansion Project: the info only repeated Q006's unknown
    costs (round 36); an error the unknown costs cannot escape is still one."""
    every = _costs()
    assert _a008(5, every) == []
    [found] = _a008(30, every)
    assert found.severity == "error", found


def _costs() -> list[str]:
    """Every civilization card of Advanced Civilization, as its card file lists them."""
    cards = pristine()["cards/advanced-civilization.yaml"].document
    assert cards is not None
    return [card["id"] for card in cards.data["cards"]]
