"""C007 (a credit covering its target's whole cost) looks only at the cards a giver's lines might
cover (``coverable``: the targets of its specific lines, and the members of its credited groups no
dearer than its lines toward their groups give). On random decks, under every credit policy, it
finds what it finds when it looks at every card the giver credits, which is the check's definition."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.checks.catalogue import all_checks
from civrules.families.advanced_civilization.checks import cards as module
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import of_family
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_text

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
