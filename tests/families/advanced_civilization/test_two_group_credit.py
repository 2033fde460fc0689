"""Credits toward a card of two groups under each ruleset's policy.

Mega Civilization (menuan/megacivrules-flutter chapters.json §12): an advance of two colours takes
the discount of the one colour whose credit tokens held are worth most; the two colours are never
combined (`two_group_cards: highest_group`). The additional credits printed for one named advance
come on top. Advanced Civilization (31.55) adds the credits of both groups (`both_groups`); the
Expansion Project does not know (its `two_group_cards` is unknown). A pairwise cell of the credit
matrix is what one held card alone gives; a set of held cards is computed colour by colour.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any

import pytest
import yaml

from civrules.families.advanced_civilization import credits as compiler_credits
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.sheets.credit_table import policy_sentences
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_rulesets import mega_civilization as mc  # noqa: E402
from civrules_runtime import UnknownFactError  # noqa: E402
from civrules_runtime_advanced_civilization import logic  # noqa: E402
from civrules_runtime_advanced_civilization.credits import CreditMatrix  # noqa: E402


def shipped(ruleset_id: str) -> Ruleset:
    model = shipped_analysis(ruleset_id).model
    assert model is not None
    return of_family(model)


@cache
def mega_cards() -> dict[str, dict[str, Any]]:
    """Mega Civilization's advances as the card file writes them (read here, not through civrules;
    by libyaml: this runs as the module is collected, in every worker)."""
    text = (REPO / "rules" / "cards" / "mega-civilization.yaml").read_text(encoding="utf-8")
    return {card["id"]: card for card in yaml.load(text, Loader=yaml.CSafeLoader)["cards"]}


def per_colour_credit(held: Iterable[str], target: str) -> int:
    """§12 computed directly: the credit tokens held of each colour of ``target`` (each held
    advance's group credits, other than the target's own), the highest colour's total, plus the
    additional credits printed toward ``target`` alone."""
    cards = mega_cards()
    owned = [card for card in dict.fromkeys(held) if card != target]
    tokens = dict.fromkeys(cards[target]["groups"], 0)
    extra = 0
    for card in owned:
        for line in cards[card].get("credits", ()):
            if line.get("card") == target and line.get("extra"):
                extra += line["points"]
            elif line.get("group") in tokens:
                tokens[line["group"]] += line["points"]
    return max(tokens.values()) + extra


TWO_GROUP = sorted(card for card, data in mega_cards().items() if len(data["groups"]) == 2)


def test_mega_has_nine_two_group_advances_and_declares_the_highest_colour() -> None:
    assert len(TWO_GROUP) == 9
    policy = shipped("mega-civilization").credit_policy
    assert policy["two_group_cards"] == "highest_group"
    assert "§12" in policy["source"]


def test_the_worked_cases_of_section_12() -> None:
    # Music (arts 10, religion 5) and Deism (crafts 5, religion 10) toward Mysticism (arts and
    # religion, 50): arts 10, religion 15: the highest colour, 15, never 20.
    assert mc.credit_toward(["music", "deism"], "mysticism") == 15
    assert mc.purchase_cost(["music", "deism"], "mysticism") == 35
    # Library (sciences 20) and Trade Empire (crafts 20) toward Engineering (crafts and sciences, 160).
    assert mc.credit_toward(["library", "trade_empire"], "engineering") == 20
    assert mc.purchase_cost(["library", "trade_empire"], "engineering") == 140
    # Example 1: Music alone toward Mysticism gives 10 (arts), and its pairwise cell says so.
    assert mc.purchase_cost(["music"], "mysticism") == 40
    assert mc.CREDIT_MATRIX["music"]["mysticism"] == 10


def _ids(cards: Iterable[str]) -> list[Any]:
    """Card ids read from the rule files, typed as the package's ids (mypy cannot know them)."""
    return list(cards)


def _id(card: str) -> Any:
    return card


def test_every_pair_of_held_advances_toward_each_two_group_advance_is_the_per_colour_credit() -> None:
    cards = sorted(mega_cards())
    wrong = []
    for target in TWO_GROUP:
        for held in itertools.combinations(cards, 2):
            want = per_colour_credit(held, target)
            got = mc.credit_toward(_ids(held), _id(target))
            if got != want:
                wrong.append((held, target, got, want))
            cost = mega_cards()[target]["cost"]
            assert mc.purchase_cost(_ids(held), _id(target)) == max(0, cost - want)
    assert not wrong, wrong[:5]


def test_larger_holdings_and_single_group_targets_follow_the_colours() -> None:
    cards = sorted(mega_cards())
    # Everything held: every colour's tokens; the target itself is never counted.
    for target in cards:
        assert mc.credit_toward(_ids(cards), _id(target)) == per_colour_credit(cards, target), target
    # A single-group target is the sum of the pairwise cells, as before.
    assert mc.credit_toward(["pottery", "masonry"], "agriculture") == 30  # §12 example 2


def test_additional_credits_toward_a_two_group_advance_come_on_top_of_the_highest_colour() -> None:
    # Masonry: crafts 10, sciences 5 and 10 additional toward Engineering; Library: sciences 20 (arts
    # 5): crafts 10, sciences 25, so 25 and the additional 10 on top; the sum of cells would say 40.
    assert mc.CREDIT_MATRIX["masonry"]["engineering"] + mc.CREDIT_MATRIX["library"]["engineering"] == 40
    assert mc.credit_toward(["masonry", "library"], "engineering") == 25 + 10


def test_advanced_civilization_adds_both_groups_and_the_expansion_project_keeps_them_out() -> None:
    # 31.55: Engineering receives credits from craft cards and science cards.
    both = ac.CREDIT_MATRIX["pottery"]["engineering"] + ac.CREDIT_MATRIX["astronomy"]["engineering"]
    assert ac.credit_toward(["pottery", "astronomy"], "engineering") == both > 0
    assert ac.CREDIT_MATRIX["pottery"]["engineering"] > 0 and ac.CREDIT_MATRIX["astronomy"]["engineering"] > 0
    # The Expansion Project: how a two-group card takes group credits is unknown (none is counted).
    assert isinstance(ep.CREDIT_MATRIX, CreditMatrix) and isinstance(ac.CREDIT_MATRIX, CreditMatrix)
    assert ep.CREDIT_MATRIX.two_group_cards == "unknown"
    assert ac.CREDIT_MATRIX.two_group_cards == "both_groups"


def _matrix(two_group_cards: str, same_target: str = "highest") -> CreditMatrix:
    groups = {"music": ("arts",), "deism": ("religion",), "mysticism": ("arts", "religion"), "law": ("civic",)}
    credits: dict[str, tuple[tuple[int, str | None, str | None, bool], ...]] = {
        "music": ((10, "arts", None, False), (5, "religion", None, False)),
        "deism": ((10, "religion", None, False), (5, None, "mysticism", True)),
        "law": ((30, None, "mysticism", False),),
    }
    return CreditMatrix(same_target, True, groups, credits, two_group_cards=two_group_cards)


def test_the_runtime_matrix_computes_a_set_by_its_policy_and_refuses_what_the_rule_leaves_open() -> None:
    highest, both = _matrix("highest_group"), _matrix("both_groups")
    # The cells are one card alone, the same under both policies.
    assert highest["music"]["mysticism"] == both["music"]["mysticism"] == 10
    assert highest["deism"]["mysticism"] == 15
    assert logic.credit_toward(both, ["music", "deism"], "mysticism") == 25
    assert logic.credit_toward(highest, ["music", "deism"], "mysticism") == max(10, 5 + 10) + 5
    # One card alone is its cell, whatever it writes.
    assert logic.credit_toward(highest, ["law"], "mysticism") == 30
    # A plain credit printed for the target itself, beside credit tokens of its colours held from
    # other cards: §12 does not say how the two combine.
    with pytest.raises(UnknownFactError, match="mysticism"):
        logic.credit_toward(highest, ["music", "law"], "mysticism")
    # Under `sum`, one card's two colours are still never combined.
    assert _matrix("highest_group", "sum")["music"]["mysticism"] == 10
    assert _matrix("both_groups", "sum")["music"]["mysticism"] == 15


def test_the_policy_survives_the_export_and_a_pickle() -> None:
    import pickle

    exported = mc.CREDIT_MATRIX
    assert isinstance(exported, CreditMatrix)
    again = pickle.loads(pickle.dumps(exported))
    assert again == exported and again.two_group_cards == "highest_group"
    assert logic.credit_toward(again, ["music", "deism"], "mysticism") == 15

    matrix = compiler_credits.credit_matrix(shipped("mega-civilization"))
    form = matrix.export()
    assert form["policy"]["two_group_cards"] == "highest_group"
    rebuilt = CreditMatrix.from_export(form)
    assert rebuilt.two_group_cards == "highest_group"
    assert logic.credit_toward(rebuilt, ["music", "deism"], "mysticism") == 15
    # An export written before the policy had this key reads as both groups.
    old = {**form, "policy": {k: v for k, v in form["policy"].items() if k != "two_group_cards"}}
    assert CreditMatrix.from_export(old).two_group_cards == "both_groups"


def test_the_compilers_credit_toward_follows_the_policy() -> None:
    mega = compiler_credits.credit_matrix(shipped("mega-civilization"))
    assert compiler_credits.credit_toward(mega, ["music", "deism"], "mysticism") == 15
    base = compiler_credits.credit_matrix(shipped("advanced-civilization"))
    assert compiler_credits.credit_toward(base, ["pottery", "astronomy"], "engineering") == ac.credit_toward(
        ["pottery", "astronomy"], "engineering"
    )


def test_the_credit_sheet_tells_players_the_highest_colour_not_the_sum() -> None:
    mega = policy_sentences(shipped("mega-civilization").credit_policy)
    said = " ".join(mega)
    assert "receives the credits toward either" not in said
    assert "never both" in said
    base = " ".join(policy_sentences(shipped("advanced-civilization").credit_policy))
    assert "A card of two groups receives the credits toward either." in base
    sheet = (REPO / "generated" / "sheets" / "mega-civilization" / "credit-table.html").read_text(encoding="utf-8")
    assert "Add them up: the card costs its price less the total." not in sheet
    assert "never both" in sheet
