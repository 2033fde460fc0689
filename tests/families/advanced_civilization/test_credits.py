"""The credit matrix: its derivation, the shipped Advanced Civilization cards against the community
transcriptions, and the rulebook's worked examples (2.8, 31.54, 31.55, 31.58)."""

from __future__ import annotations

import csv
import functools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from civrules.families.advanced_civilization.credits import (
    CreditLine,
    CreditPolicy,
    CreditSource,
    SameTarget,
    TwoGroupCards,
    credit_matrix,
    credit_policy,
    credit_sources,
    credit_toward,
    derive_credit_matrix,
)
from civrules.families.advanced_civilization.model import Ruleset, of_family
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis

#: The community transcriptions live beside the repository (``../shared`` in CI).
COMMUNITY = Path(__file__).resolve().parents[4] / "shared" / "sources" / "community"
needs_community = pytest.mark.skipif(
    not (COMMUNITY / "advciv_civ_card_credits.csv").is_file(),
    reason=f"community transcriptions not found at {COMMUNITY} (shared/ is checked out beside the repository in CI)",
)

#: Cells the civbuddy transcription omits: group credits that reach the giver's own prerequisite.
#: 32.254 and 32.264 give 10 to all other Craft cards, Engineering among them; the data records
#: the disagreement on both cards.
CIVBUDDY_OMITS = {("roadbuilding", "engineering"), ("mining", "engineering")}


@pytest.fixture(scope="module")
def advciv() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


@pytest.fixture(scope="module")
def matrix(advciv: Ruleset) -> dict[str, dict[str, int]]:
    return {owned: dict(row) for owned, row in credit_matrix(advciv).items()}


def slug(name: str) -> str:
    """A card name as the transcriptions spell it, reduced so that `Road Building`, `Roadbuilding`
    and `roadbuilding`, or `Drama & Poetry` and `Drama and Poetry`, compare equal."""
    return re.sub(r"[^a-z]", "", name.lower().replace("&", "and"))


def card_ids(ruleset: Ruleset) -> dict[str, str]:
    ids = {slug(card.display_name): card.id for card in ruleset.cards}
    ids.update({slug(card.id): card.id for card in ruleset.cards})
    return ids


def read_csv(name: str) -> list[dict[str, str]]:
    with (COMMUNITY / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def community_matrix(ruleset: Ruleset, column: str) -> dict[str, dict[str, int]]:
    ids = card_ids(ruleset)
    out: dict[str, dict[str, int]] = {}
    for row in read_csv("advciv_civ_card_credits.csv"):
        if row[column].strip():
            out.setdefault(ids[slug(row["from_card"])], {})[ids[slug(row["to_card"])]] = int(row[column])
    return out


def cells(matrix: dict[str, dict[str, int]]) -> dict[tuple[str, str], int]:
    return {(owned, target): points for owned, row in matrix.items() for target, points in row.items()}


# --- The shipped cards against the community transcriptions ------------------------------------


@needs_community
def test_matrix_equals_the_johnchampaign_column_cell_for_cell(
    advciv: Ruleset, matrix: dict[str, dict[str, int]]
) -> None:
    expected = community_matrix(advciv, "johnchampaign_points_expanded")
    assert cells(matrix) == cells(expected)


@needs_community
def test_civbuddy_differs_only_in_the_two_documented_cells(advciv: Ruleset, matrix: dict[str, dict[str, int]]) -> None:
    civbuddy = cells(community_matrix(advciv, "civbuddy_points"))
    ours = cells(matrix)
    assert {cell for cell in ours if civbuddy.get(cell) != ours[cell]} == CIVBUDDY_OMITS
    assert set(civbuddy) - set(ours) == set()
    assert all(ours[cell] == 10 for cell in CIVBUDDY_OMITS)


def test_the_civbuddy_cells_are_recorded_as_disagreements(advciv: Ruleset) -> None:
    recorded = {
        card.id
        for card in advciv.cards
        for disagreement in card.raw.get("disagreements", ())
        if "engineering" in disagreement["field"] and "credit" in disagreement["field"]
    }
    assert recorded == {owned for owned, _ in CIVBUDDY_OMITS}


@needs_community
def test_costs_groups_and_prerequisites_equal_both_transcriptions(advciv: Ruleset) -> None:
    ids = card_ids(advciv)
    rows = read_csv("advciv_civ_cards.csv")
    assert sorted(ids[slug(row["name"])] for row in rows) == sorted(advciv.cards.ids())
    for row in rows:
        card = advciv.cards.by_id[ids[slug(row["name"])]]
        for cost, groups, prerequisites in (
            (row["cost"], row["groups"], row["prerequisite"]),
            (row["jc_cost"], row["jc_groups"], row["jc_prerequisites"]),
        ):
            assert card.cost == int(cost), card.id
            assert set(card.group_list()) == {g.strip().lower() for g in groups.split(";")}, card.id
            listed = {ids[slug(p)] for p in prerequisites.split(";") if p.strip()}
            assert set(card.prerequisite_list()) == listed, card.id


def test_the_two_group_cards_are_the_four_of_31_55(advciv: Ruleset) -> None:
    two_groups = {card.id for card in advciv.cards if len(card.group_list()) == 2}
    assert two_groups == {"engineering", "mathematics", "literacy", "mysticism"}


# --- The rulebook's worked examples ------------------------------------------------------------


def test_drama_and_poetry_architecture_and_literacy_reduce_democracy_by_45(
    advciv: Ruleset, matrix: dict[str, dict[str, int]]
) -> None:
    # 2.8: "il costo della Democracy (200) può essere ridotto di 45 punti con il possesso di Drama and
    # Poetry, Architecture, e Literacy".
    assert advciv.cards.by_id["democracy"].cost == 200
    assert credit_toward(matrix, ["drama_and_poetry", "architecture", "literacy"], "democracy") == 45


def test_the_music_purchase_of_31_58(advciv: Ruleset, matrix: dict[str, dict[str, int]]) -> None:
    # Mysticism gives 5; three Grain, two Papyrus and one Hides are worth 45; ten treasury tokens 10.
    credit = credit_toward(matrix, ["mysticism"], "music")
    assert credit == 5
    hand = {"grain": 3, "papyrus": 2, "hides": 1}
    values = {c.id: c.value for c in advciv.commodities if c.id in hand}
    cards = 0
    for good, count in hand.items():
        value = values[good]
        assert isinstance(value, int)
        cards += count * count * value
    assert cards == 45
    assert credit + cards + 10 == advciv.cards.by_id["music"].cost == 60


def test_the_purchase_rules_of_31_56_to_31_58_are_declared(advciv: Ruleset) -> None:
    # 31.56: a credit that applies must be used; 31.57: a card the credits cover costs nothing;
    # 31.58: no change is given. The helper's purchase planner said "the ruleset's data does not say"
    # for all three while the rulebook says each.
    declared = advciv.credit_policy
    assert declared["credits_must_be_used"] is True
    assert declared["free_when_covered"] is True
    assert declared["excess_lost"] is True
    assert {"31.56", "31.57", "31.58"} <= set(declared["rule"])


def test_astronomy_credits_coinage_and_medicine_once_each(matrix: dict[str, dict[str, int]]) -> None:
    # 31.54: Astronomy's 20 toward all other sciences applies to both Coinage and Medicine bought in
    # one turn, once to each.
    assert credit_toward(matrix, ["astronomy"], "coinage") == 20
    assert credit_toward(matrix, ["astronomy"], "medicine") == 20
    # One Astronomy held twice is no holding of the game (a player holds one of each card): refused,
    # never its credit counted twice or once (round 20).
    with pytest.raises(ValueError, match=r"^'astronomy' is listed twice in owned: a player holds one of each"):
        credit_toward(matrix, ["astronomy", "astronomy"], "coinage")


def test_engineering_receives_craft_and_science_credits(matrix: dict[str, dict[str, int]]) -> None:
    # 31.55: "a player wishing to acquire Engineering receives credits from his orange craft cards and
    # his green science cards", and a holder of Engineering uses both its credits.
    assert credit_toward(matrix, ["pottery", "astronomy"], "engineering") == 30
    assert matrix["engineering"]["pottery"] == 10
    assert matrix["engineering"]["astronomy"] == 20


def test_the_shipped_policy_is_read_from_the_manifest(advciv: Ruleset) -> None:
    assert credit_policy(advciv) == CreditPolicy(SameTarget(advciv.credit_policy["same_target"]))


def test_no_advanced_civilization_cell_depends_on_the_same_target_policy(advciv: Ruleset) -> None:
    # No card's credit lines reach one target twice, so `highest` and `sum` derive the same matrix:
    # the manifest's `same_target` cannot change a purchase in this ruleset.
    sources = credit_sources(advciv)
    assert derive_credit_matrix(sources, CreditPolicy(SameTarget.HIGHEST)) == derive_credit_matrix(
        sources, CreditPolicy(SameTarget.SUM)
    )


# --- The derivation ----------------------------------------------------------------------------

ENGINEERING = CreditSource(
    "engineering",
    ("crafts", "sciences"),
    (CreditLine(10, group="crafts"), CreditLine(20, group="sciences")),
)
SURVEYING = CreditSource("surveying", ("crafts", "sciences"), ())
POTTERY = CreditSource("pottery", ("crafts",), (CreditLine(10, group="crafts"), CreditLine(5, card="surveying")))


def test_a_group_credit_reaches_every_other_card_of_the_group() -> None:
    matrix = derive_credit_matrix([ENGINEERING, SURVEYING, POTTERY], CreditPolicy())
    assert matrix["pottery"] == {"engineering": 10, "surveying": 10}
    assert "engineering" not in matrix["engineering"]


def test_several_lines_to_one_target_follow_the_policy() -> None:
    cards = [ENGINEERING, SURVEYING, POTTERY]
    highest = derive_credit_matrix(cards, CreditPolicy(SameTarget.HIGHEST))
    summed = derive_credit_matrix(cards, CreditPolicy(SameTarget.SUM))
    assert highest["engineering"]["surveying"] == 20
    assert summed["engineering"]["surveying"] == 30
    assert highest["pottery"]["surveying"] == 10
    assert summed["pottery"]["surveying"] == 15


def test_an_extra_credit_adds_on_top_whatever_the_policy() -> None:
    bonus = CreditSource(
        "pottery", ("crafts",), (CreditLine(10, group="crafts"), CreditLine(5, card="surveying", extra=True))
    )
    for policy in SameTarget:
        assert derive_credit_matrix([bonus, SURVEYING], CreditPolicy(policy))["pottery"]["surveying"] == 15


def test_credit_toward_ignores_the_target_itself_and_adds_across_owned_cards() -> None:
    matrix = derive_credit_matrix([ENGINEERING, SURVEYING, POTTERY], CreditPolicy())
    assert credit_toward(matrix, ["engineering", "pottery", "surveying"], "surveying") == 30
    assert credit_toward(matrix, ["surveying"], "surveying") == 0


# --- C004 looks only at the targets it may report (issue 32: linear in the credits written) --------


def _brute_force_routes(owner: str, lines: list[Any], members: dict[str, list[str]]) -> dict[str, list[Any]]:
    """Every target each line reaches, card by card: the definition C004's routes must agree with
    on every target it can report."""
    from civrules.families.advanced_civilization.checks.cards import as_credit
    from civrules.families.advanced_civilization.credits import line_targets

    routes: dict[str, list[Any]] = {}
    for line in lines:
        for target in line_targets(owner, as_credit(line), members):
            routes.setdefault(target, []).append(line)
    return routes


def _reportable(reaching: list[Any]) -> bool:
    plain = [line for line in reaching if not line.extra]
    groups = [line.group for line in plain if line.group is not None]
    return (len(plain) > 1 and (len(groups) < len(plain) or len(set(groups)) < len(groups))) or (
        len(reaching) - len(plain) > 1
    )


@pytest.mark.parametrize(
    "ruleset_id",
    ["advanced-civilization", "advanced-civilization-western", "expansion-project", "mega-civilization"],
)
def test_c004_routes_agree_with_walking_every_target(ruleset_id: str) -> None:
    from civrules.families.advanced_civilization.checks.cards import _overlap_routes, known_points
    from civrules.families.advanced_civilization.credits import credit_sources, group_members
    from civrules.families.advanced_civilization.model import CreditLine as WrittenLine

    analysis = shipped_analysis(ruleset_id)
    assert analysis.model is not None
    ruleset = of_family(analysis.model)
    members = group_members(credit_sources(ruleset))
    position = {group: {card: at for at, card in enumerate(cards)} for group, cards in members.items()}
    listed: dict[str, list[str]] = {}
    for group, cards in members.items():
        for member in cards:
            listed.setdefault(member, []).append(group)
    groups_of = {member: tuple(groups) for member, groups in listed.items()}
    some_group = sorted(members)[0] if members else "crafts"  # the Expansion Project's groups are unknown
    ids = [card.id for card in ruleset.cards]
    checked = 0
    for card in ruleset.cards:
        written = [line for line in card.credit_list() if known_points(line)]
        # The shipped lines, and the same with every shape C004 reports planted on top of them.
        base = len(card.credit_list())
        planted = [
            WrittenLine(index=base, points=5, group=some_group, card=None, extra=False),
            WrittenLine(index=base + 1, points=5, group=some_group, card=None, extra=True),
            WrittenLine(index=base + 2, points=5, group=None, card=ids[-1], extra=True),
            WrittenLine(index=base + 3, points=5, group=None, card=ids[0], extra=False),
        ]
        for lines in (written, written + planted):
            brute = {t: r for t, r in _brute_force_routes(card.id, lines, members).items() if _reportable(r)}
            routes = _overlap_routes(card.id, lines, members, position, groups_of)
            fast = {t: r for t, (_, r) in routes.items() if _reportable(r)}
            assert list(fast) == list(brute), card.id
            assert fast == brute, card.id
            checked += 1
    assert checked >= 2 * len(ruleset.cards)


# --- The credit matrix stored as the credits written (issue 32, point 1) ----------------------------

#: Every shipped ruleset of the family.
FAMILY_RULESETS = [
    "advanced-civilization",
    "advanced-civilization-western",
    "expansion-project",
    "central-america",
    "mega-civilization",
]


@functools.cache
def runtime_credits() -> Any:
    """The family runtime's credit module (standard library only), loaded from its source once."""
    import importlib.util

    from civrules.families.advanced_civilization import package

    generated = str(REPO / "generated" / "python")  # its refusals are the shared runtime's UnknownIdError
    if generated not in sys.path:
        sys.path.insert(0, generated)
    spec = importlib.util.spec_from_file_location("_runtime_credits", package.FAMILY_RUNTIME_SOURCES / "credits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_answers_as_dense(sources: list[CreditSource], policy: CreditPolicy) -> int:
    """The compiler's matrix, the export's linear form read back by the runtime, and the dense
    derivation agree on every owned × target pair, on the keys and on the order of iteration."""
    from civrules.families.advanced_civilization.credits import CreditMatrix

    dense = derive_credit_matrix(sources, policy)
    linear = CreditMatrix(sources, policy)
    exported = json.loads(json.dumps(linear.export()))
    runtime: Any = None
    if _exported_as_written(exported):
        runtime = runtime_credits().CreditMatrix.from_export(exported)
    else:  # a credit toward a card outside the deck: civrules exports none, and the runtime refuses it
        with pytest.raises(ValueError, match=r'\["card"\] should be one of the cards of its groups'):
            runtime_credits().CreditMatrix.from_export(exported)
    ids = [card.id for card in sources] + sorted({line.card for c in sources for line in c.credits if line.card})
    for owned in ids:
        for target in ids:
            expected = dense.get(owned, {}).get(target)
            assert linear.get(owned, {}).get(target) == expected, (owned, target)
            # the runtime answers 0 for a pair of cards without a credit (a row reads like a Counter:
            # it iterates and contains only the cards it credits) and refuses an id that is no card
            if runtime is None:
                continue
            if owned in runtime:
                zero = 0 if target in runtime else None
                assert runtime[owned].get(target) == (zero if expected is None else expected), (owned, target)
                assert (target in runtime[owned]) == (expected is not None), (owned, target)
            else:
                assert expected is None, (owned, target)
    assert list(linear) == list(dense)
    assert {owned: list(row.items()) for owned, row in linear.items()} == {o: list(r.items()) for o, r in dense.items()}
    # a row's cells written out at once (items, values) are its lookups, one target at a time
    assert all(list(row.items()) == [(t, row[t]) for t in row] for row in linear.values())
    assert all(list(row.values()) == [row[t] for t in row] for row in linear.values())
    if runtime is not None:
        assert list(runtime) == [card.id for card in sources]
        assert all(list(runtime[o].items()) == list(dense.get(o, {}).items()) for o in runtime)
    return len(ids) ** 2


def _exported_as_written(exported: dict[str, Any]) -> bool:
    """Whether every credit line of ``exported`` credits a card of the matrix, or a group, as those
    of ``civrules export`` do (a removed card still credited is V006, which stops the export)."""
    return all(
        line.get("card") is None or line["card"] in exported["groups"]
        for lines in exported["credits"].values()
        for line in lines
    )


@pytest.mark.parametrize("ruleset_id", FAMILY_RULESETS)
def test_the_linear_matrix_answers_every_pair_as_the_dense_derivation(ruleset_id: str) -> None:
    analysis = shipped_analysis(ruleset_id)
    assert analysis.model is not None
    ruleset = of_family(analysis.model)
    assert assert_answers_as_dense(credit_sources(ruleset), credit_policy(ruleset)) >= len(ruleset.cards) ** 2


def test_the_linear_matrix_answers_as_the_dense_one_under_every_policy() -> None:
    bonus = CreditSource(
        "bonus",
        ("arts",),
        (CreditLine(10, group="crafts"), CreditLine(5, card="surveying", extra=True), CreditLine(3, card="gone")),
    )
    twice = CreditSource("twice", ("crafts",), (CreditLine(10, group="crafts"), CreditLine(20, group="crafts")))
    cards = [ENGINEERING, SURVEYING, POTTERY, bonus, twice, CreditSource("lonely", ("religion",), ())]
    # the same deck less the credit toward a card outside it, which the runtime refuses: it answers as they do
    exported = [*cards[:3], CreditSource("bonus", ("arts",), bonus.credits[:2]), *cards[4:]]
    for same in SameTarget:
        for known in (True, False):
            assert assert_answers_as_dense(cards, CreditPolicy(same, known))
            assert assert_answers_as_dense(exported, CreditPolicy(same, known))
        assert assert_answers_as_dense(cards, CreditPolicy(same, True, TwoGroupCards.HIGHEST_GROUP))
        assert assert_answers_as_dense(exported, CreditPolicy(same, True, TwoGroupCards.HIGHEST_GROUP))


def test_the_credits_from_among_a_set_of_cards_equal_a_lookup_of_each() -> None:
    """C006's total (``_CreditsToward``: group credits counted per value over sets of bits, specific
    credits looked up one by one) equals looking up each card of the set in the matrix, on random
    decks under every policy; so does a row's look-up through its index of lines (a row of more
    than 16 lines) equal the scan of its lines, and the generated runtime's matrix, whose rows are
    looked up through an index of their lines, equal the dense derivation."""
    import random

    from civrules.families.advanced_civilization.checks.cards import Prerequisites, _CreditsToward
    from civrules.families.advanced_civilization.credits import CreditMatrix

    rng = random.Random(32)
    groups = ["crafts", "sciences", "arts"]
    for round_ in range(150):
        ids = [f"k{i}" for i in range(rng.randint(2, 14))]
        sources = []
        for card in ids:
            lines = [
                CreditLine(rng.choice([1, 5, 10, 20]), group=rng.choice(groups), extra=rng.random() < 0.1)
                if rng.random() < 0.5
                else CreditLine(rng.choice([5, 10, 40]), card=rng.choice(ids), extra=rng.random() < 0.1)
                for _ in range(rng.choice([0, 1, 2, 3, 20]))
            ]
            sources.append(CreditSource(card, tuple(rng.sample(groups, rng.choice([1, 1, 2]))), tuple(lines)))
        policy = CreditPolicy(rng.choice(list(SameTarget)), rng.random() < 0.7)
        matrix = CreditMatrix(sources, policy)
        # the generated runtime's matrix (its rows' lines indexed per card and group) too
        assert assert_answers_as_dense(sources, policy), round_
        graph = Prerequisites({card: [] for card in ids})
        toward = _CreditsToward(matrix, graph.closure())
        for target in ids:
            among = {card for card in ids if card != target and rng.random() < 0.6}
            expected = {g: matrix[g][target] for g in among if matrix.get(g, {}).get(target)}
            givers, total = toward.from_among(target, graph.closure().mask(among))
            assert set(graph.closure().cards(givers)) == set(expected) and total == sum(expected.values()), round_
            for owned in matrix:
                row = matrix[owned]
                reached = () if target in matrix.two_groups else matrix.groups_of[target]
                scanned = [
                    line
                    for line in matrix.lines(owned)
                    if owned != target and (line.card == target if line.card is not None else line.group in reached)
                ]
                assert row.reaching(target) == scanned, (owned, target)


def test_the_runtime_matrix_equals_one_written_alike_without_reading_its_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine comparing a package's CREDIT_MATRIX with another written alike (a copy, an
    unchanged variant's) is answered from the credits written, not by reading the square of the
    deck; written otherwise, the cells decide: the same cells written two ways are equal, and one
    cell changed is not."""
    module = runtime_credits()
    groups = {"pottery": ("crafts",), "mining": ("crafts",), "mysticism": ("religion", "arts")}
    lines = {"pottery": ((10, "crafts", None, False),), "mysticism": ((5, None, "mining", False),)}
    first = module.CreditMatrix("highest", True, groups, lines)
    alike = module.CreditMatrix("highest", True, dict(groups), dict(lines))
    # the same cells, written as a card credit where the first writes a group credit
    other_form = module.CreditMatrix("highest", True, groups, {**lines, "pottery": ((10, None, "mining", False),)})
    changed = module.CreditMatrix("highest", True, groups, {**lines, "pottery": ((20, "crafts", None, False),)})
    assert other_form == first and dict(other_form["pottery"]) == {"mining": 10}
    assert changed != first

    def unread(*_: object) -> None:
        raise AssertionError("a cell was read")

    monkeypatch.setattr(module.CreditRow, "_reaching", unread)
    monkeypatch.setattr(module.CreditRow, "_targets", unread)
    assert first == alike
    assert (first != alike) is False  # __ne__ takes the same path
    assert first["pottery"] == first["pottery"]


def test_a_runtime_row_gathers_the_cards_it_credits_once() -> None:
    """len() and iteration of a CREDIT_MATRIX row gathered every member of the groups it credits at
    each call; the row's targets are made once and kept by the matrix."""
    module = runtime_credits()
    groups = {f"c{i}": ("crafts",) for i in range(50)}
    matrix = module.CreditMatrix("highest", True, groups, {"c0": ((10, "crafts", None, False),)})
    read: list[str] = []
    members = matrix._members

    class Counted(dict[str, list[str]]):
        def get(self, key: str, default: Any = None) -> Any:
            read.append(key)
            return members.get(key, default)

    matrix._members = Counted(members)
    row = matrix["c0"]
    assert [len(row) for _ in range(5)] == [49] * 5 and list(row) == sorted(f"c{i}" for i in range(1, 50))
    assert read == ["crafts"]
