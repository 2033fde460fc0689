"""C007 (a credit covering its target's whole cost) looks only at the cards a giver's lines might
cover (``coverable``: the targets of its specific lines, and the members of its credited groups no
dearer than its lines toward their groups give). On random decks, under every credit policy, it
finds what it finds when it looks at every card the giver credits, which is the check's definition."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.checks.catalogue import all_checks
from civrules.families.advanced_civilization.checks import cards as module
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import of_family
from civrules.pipeline import analyse
from civrules.pipeline.incremental import Session, full_run
from civrules.schema.references import Remembered, remembering
from civrules.support import memo
from tests.conftest import copy_rulesets
from tests.rulefiles import CachedWorkspace, shipped_text

BASE = "advanced-civilization"
GROUPS = ["arts", "crafts", "sciences", "civics", "religion"]
IDS = [f"g{i}" for i in range(10)]
POLICIES = {
    "highest, both groups": "  two_group_cards: both_groups\n  same_target: highest\n",
    "sum, both groups": "  two_group_cards: both_groups\n  same_target: sum\n",
    "highest, two groups unknown": "  two_group_cards: {unknown: not in the sources}\n  same_target: highest\n",
}

LINES = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(GROUPS).map(lambda g: ("group", g)), st.sampled_from(IDS).map(lambda c: ("card", c))),
        st.sampled_from([5, 10, 15, 20, 30, 45]),
        st.booleans(),
    ),
    max_size=4,
)
CARDS = st.lists(
    st.tuples(
        st.lists(st.sampled_from(GROUPS), min_size=1, max_size=2, unique=True),
        st.sampled_from([5, 10, 15, 20, 30, 45, 60]),
        LINES,
    ),
    min_size=1,
    max_size=len(IDS),
)


def card_text(at: int, groups: list[str], cost: int, lines: list[tuple[tuple[str, str], int, bool]]) -> str:
    credits = ", ".join(
        f'{{{kind}: {target}, points: {points}, rule: "32.212"{", extra: true" if extra and kind == "card" else ""}}}'
        for (kind, target), points, extra in lines
    )
    return (
        f'  - {{id: {IDS[at]}, name: G{at}, rule: "32.21", groups: [{", ".join(groups)}], cost: {cost}, '
        f"prerequisites: [], attributes: [], credits: [{credits}]}}\n"
    )


def findings(cards: list[Any], policy: str) -> tuple[list[Any], Any]:
    added = "".join(card_text(at, *card) for at, card in enumerate(cards))
    manifest = shipped_text("rulesets/advanced-civilization.yaml")
    shipped_policy = POLICIES["highest, both groups"]
    assert shipped_policy in manifest
    workspace = CachedWorkspace(
        {
            "cards/advanced-civilization.yaml": shipped_text("cards/advanced-civilization.yaml").replace(
                "\ncards:\n", "\ncards:\n" + added, 1
            ),
            "rulesets/advanced-civilization.yaml": manifest.replace(shipped_policy, POLICIES[policy], 1),
        }
    )
    analysis = analyse(
        workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["C003"]
    )
    assert analysis.model is not None
    (check,) = [c for c in all_checks() if c.code.code == "C007"]
    return list(check.run(analysis.model)), analysis.model


def assert_finds_as_looking_at_every_target(cards: list[Any], policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    found, model = findings(cards, policy)
    matrix = credit_matrix(of_family(model))
    with monkeypatch.context() as patch:
        patch.setattr(module, "coverable", lambda lines, *_: every_target(matrix, lines))
        (check,) = [c for c in all_checks() if c.code.code == "C007"]
        defined = list(check.run(model))
    assert found == defined


def every_target(matrix: Any, lines: Any) -> set[str]:
    """Every card the lines name, and every member of every group they credit."""
    return {card for line in lines for card in ([line.card] if line.card is not None else matrix.members[line.group])}


@pytest.mark.parametrize("policy", list(POLICIES))
def test_the_covered_cards_are_those_a_look_at_every_target_finds(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = [
        (["crafts"], 10, [(("group", "crafts"), 10, False), (("card", "g1"), 45, False)]),
        (["crafts", "sciences"], 30, [(("group", "sciences"), 20, False), (("card", "g0"), 10, True)]),
        (["sciences"], 20, [(("group", "crafts"), 15, False), (("group", "crafts"), 20, False)]),
    ]
    assert_finds_as_looking_at_every_target(cards, policy, monkeypatch)
    found, _ = findings(cards, policy)
    assert found, "the example covers some card under every policy"


@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(CARDS, st.sampled_from(list(POLICIES)))
def test_random_decks_find_what_a_look_at_every_target_finds(cards: list[Any], policy: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_finds_as_looking_at_every_target(cards, policy, monkeypatch)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(CARDS, st.sampled_from(list(POLICIES)))
def test_many_random_decks_find_what_a_look_at_every_target_finds(cards: list[Any], policy: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_finds_as_looking_at_every_target(cards, policy, monkeypatch)


def count_looks(monkeypatch: pytest.MonkeyPatch, looked: list[str]) -> None:
    """Each look of C007 at a giver (``coverable``) and of C004 at the cards (``group_members``)
    noted in ``looked``."""
    for name in ("coverable", "group_members"):
        made = getattr(module, name)

        def counted(*args: Any, _made: Any = made, _name: str = name) -> Any:
            looked.append(_name)
            return _made(*args)

        monkeypatch.setattr(module, name, counted)


def test_two_models_holding_one_cards_collection_and_policy_look_through_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A variant's model holding its base's cards collection (its cards left as they are) is given,
    in a session's memo, the findings of the credits' checks made for the base: C007 looks at each
    giver, and C004 at the cards, once for both. Another collection, or another policy, is looked
    through again."""
    cards = [(["crafts"], 10, [(("group", "crafts"), 10, False), (("card", "g1"), 45, False)])]
    _, found_in = findings(cards, "highest, both groups")
    model = of_family(found_in)
    memo.forget()  # what the run above kept: counted from nothing
    variant = dataclasses.replace(model, id="variant")
    assert variant.cards is model.cards
    looked: list[str] = []
    count_looks(monkeypatch, looked)
    checks = [c for c in all_checks() if c.code.code in {"C004", "C007"}]
    kept = Remembered()
    with remembering(kept):
        found = [list(check.run(one)) for one in (model, variant) for check in checks]
    givers = sum(1 for card in model.cards.by_id.values() if card.id in credit_matrix(model))
    assert (looked.count("coverable"), looked.count("group_members")) == (givers, 1)
    assert found[:2] == found[2:] and found[1]
    summing = dataclasses.replace(model, credit_policy={**model.credit_policy, "same_target": "sum"})
    with remembering(kept):
        for check in checks:
            list(check.run(summing))
    assert (looked.count("coverable"), looked.count("group_members")) == (2 * givers, 2)


@pytest.mark.slow
def test_rulesets_holding_one_cards_collection_look_through_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Variants that leave their base's cards as they are hold its cards collection: after a card
    is renamed in the base, the cards' checks of credits (C004, C006, C007) look through it once
    for the three rulesets, not once each (C007 in 13 rulesets was a quarter of the edit in the
    language server), and say in each what a full run says."""
    tree = copy_rulesets(tmp_path / "rules", BASE)
    for name in ("v1", "v2"):
        (tree / "rulesets" / f"{name}.yaml").write_text(
            f"kind: ruleset\nid: {name}\nname: {name}\nextends: {BASE}\n", encoding="utf-8"
        )
    session = Session(tree)
    session.update()
    looked: list[str] = []
    count_looks(monkeypatch, looked)
    relative = "cards/advanced-civilization.yaml"
    text = (tree / relative).read_text(encoding="utf-8")
    assert "- id: pottery\n" in text
    session.set_text(relative, text.replace("- id: pottery\n", "- id: potery\n", 1))
    edited = session.update()
    assert sorted(edited.rechecked) == [BASE, "v1", "v2"]
    models = [of_family(edited.analyses[one].model) for one in (BASE, "v1", "v2")]
    assert models[0].cards is models[1].cards is models[2].cards
    givers = sum(1 for card in models[0].cards.by_id.values() if card.id in credit_matrix(models[0]))
    assert looked.count("coverable") == givers  # once per giver, not three times
    assert looked.count("group_members") == 1
    assert edited.diagnostics == full_run(tree, session.overlays)
