"""C004 (a target credited twice) and C007 (a credit covering its target's whole cost) read a card's
credit lines once per set of lines, not once per card those lines reach (issue 32, points 1 and 6).

Found in round 27: 700 cards each naming one list of 200 credit lines to their own group (YAML
aliases, ``bench/shapes.py`` ``aliased-credits``) took 31.5 s to build, 27 s of it these two checks
combining every card's 200 lines anew for each of the 700 cards of the group (cards x targets x
lines). The targets no line names by card, reached through the same groups, now share one
combination. Below: the round-26 algorithm (each target's lines gathered and judged on their own),
against which the checks must find the same findings in the same order, on random decks under each
credit policy; and the work counted (not timed) as the group grows.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import shapes
from civrules.checks import diagnostic
from civrules.diagnostics import Diagnostic, Related, words
from civrules.families.advanced_civilization.checks import cards as module
from civrules.families.advanced_civilization.checks.cards import (
    _members_by_cost,
    _overlap,
    as_credit,
    cards_of,
    coverable,
    credit_span,
    known_points,
    matrix_of,
    prerequisite_graph,
)
from civrules.families.advanced_civilization.credits import (
    CreditMatrix,
    credit_matrix,
    credit_policy,
    credit_sources,
    derive_credit_matrix,
    group_members,
    line_targets,
)
from civrules.families.advanced_civilization.model import Card, Ruleset, of_family
from civrules.families.advanced_civilization.model import CreditLine as WrittenLine
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import copy_shipped
from tests.families.advanced_civilization.test_credit_cover import GROUPS, IDS, POLICIES, card_text
from tests.rulefiles import CachedWorkspace, shipped_text
from tests.security.test_check_growth import MOST, calls_made

# --- The round-26 algorithm (each target's lines gathered and judged on their own) ------------------


def old_c004(ruleset: Ruleset) -> Iterator[Diagnostic]:
    policy = credit_policy(ruleset)
    members = group_members(credit_sources(ruleset))
    position = {group: {card: at for at, card in enumerate(cards)} for group, cards in members.items()}
    for card in cards_of(ruleset):
        lines = [line for line in card.credit_list() if known_points(line)]
        if len(lines) < 2:
            continue
        routes = _old_overlap_routes(card.id, lines, members, position)
        overlaps: dict[tuple[int, ...], list[str]] = {}
        for target, reaching in routes.items():
            plain = [line for line in reaching if not line.extra]
            extra = [line for line in reaching if line.extra]
            groups = [line.group for line in plain if line.group is not None]
            specific = len(groups) < len(plain)
            if (len(plain) > 1 and (specific or len(set(groups)) < len(groups))) or len(extra) > 1:
                overlaps.setdefault(tuple(line.index for line in reaching), []).append(target)
        for indexes, targets in overlaps.items():
            yield _overlap(card, [(i, card.credit_list()[i]) for i in indexes], targets, policy)


def _old_overlap_routes(
    owner: str,
    lines: Sequence[WrittenLine],
    members: Mapping[str, Sequence[str]],
    position: Mapping[str, Mapping[str, int]],
) -> dict[str, list[WrittenLine]]:
    plain = [line for line in lines if not line.extra]
    extra = [line for line in lines if line.extra]
    groups = [line.group for line in plain if line.card is None and line.group is not None]
    twice = {group for group, times in collections.Counter(groups).items() if times > 1}
    candidates: set[str] = {line.card for line in plain if line.card is not None and line.card != owner}
    for group in twice:
        candidates.update(card for card in members.get(group, ()) if card != owner)
    if len(extra) > 1:
        for line in extra:
            candidates.update(line_targets(owner, as_credit(line), members))
    by_card: dict[str, list[int]] = {}
    by_group: dict[str, list[int]] = {}
    for at, line in enumerate(lines):
        if line.card is not None:
            by_card.setdefault(line.card, []).append(at)
        else:
            by_group.setdefault(line.group or "", []).append(at)

    def reaching(target: str) -> list[int]:
        found = list(by_card.get(target, ()))
        for group, where in by_group.items():
            if target in position.get(group, {}):
                found.extend(where)
        return sorted(found)

    routes = {target: reaching(target) for target in candidates}

    def first_reached(target: str) -> tuple[int, int]:
        at = routes[target][0]
        line = lines[at]
        return (at, 0 if line.card is not None else position[line.group or ""][target])

    ordered = sorted(candidates, key=first_reached)
    return {target: [lines[at] for at in routes[target]] for target in ordered}


def _old_counting_lines(giver: Card, targets: Iterable[str], matrix: CreditMatrix) -> dict[str, Any]:
    by_card: dict[str, list[Any]] = {}
    by_group: dict[str, list[Any]] = {}
    for line in giver.credit_list():
        if known_points(line):
            if line.card is not None:
                by_card.setdefault(line.card, []).append(line)
            else:
                by_group.setdefault(line.group or "", []).append(line)
    found: dict[str, Any] = {}
    for target in targets:
        if target == giver.id:
            continue
        groups = set(matrix.groups_of.get(target, ()))
        reaching = [*by_card.get(target, ()), *(line for group in groups for line in by_group.get(group, ()))]
        for line in sorted(reaching, key=lambda line: line.index):
            if target not in found or line.points > found[target].points:
                found[target] = line
    return found


def old_c007(ruleset: Ruleset) -> Iterator[Diagnostic]:
    graph = prerequisite_graph(ruleset)
    matrix = matrix_of(ruleset)
    by_groups, sets_of = _members_by_cost(ruleset, matrix)
    for giver in cards_of(ruleset):
        if giver.id not in matrix:
            continue
        covered: dict[int, list[tuple[Card, int]]] = {}
        candidates = coverable(matrix.lines(giver.id), by_groups, sets_of, matrix.policy)
        row = matrix[giver.id]
        counting: dict[str, Any] | None = None
        for target_id in sorted(candidates):
            points = row.get(target_id)
            target = ruleset.cards.get(target_id)
            if points is None or target is None or (not isinstance(target.cost, int)) or (points < target.cost):
                continue
            if target_id == giver.id or (
                giver.id in graph and target_id in graph and graph.closure().holds(target_id, giver.id)
            ):
                continue
            counting = _old_counting_lines(giver, candidates, matrix) if counting is None else counting
            covered.setdefault(counting[target_id].index, []).append((target, points))
        for index, targets in covered.items():
            free = ", ".join((f"`{t.id}` ({points} for a cost of {t.cost})" for t, points in targets[: words.SHOWN]))
            if len(targets) > words.SHOWN:
                free += f" and {len(targets) - words.SHOWN:,} more"
            yield diagnostic(
                "C007",
                f"`{giver.id}`'s credit covers the whole cost of {free}: any holder of `{giver.id}` gets "
                f"{'it' if len(targets) == 1 else 'them'} free (31.57)",
                credit_span(giver, index),
                "check the points of this credit and the cost of its target",
                [Related(t.origin.span("cost"), f"`{t.id}` costs {t.cost}") for t, _ in targets],
                subjects=(giver.id,),
            )


# --- Same findings, same order ----------------------------------------------------------------------

#: Lines repeating a group or a card, so that targets share lines, some are named besides, and
#: extras overlap: what the shared combinations must tell apart.
LINES = st.lists(
    st.tuples(
        st.one_of(
            st.sampled_from(GROUPS[:3]).map(lambda g: ("group", g)), st.sampled_from(IDS).map(lambda c: ("card", c))
        ),
        st.sampled_from([5, 10, 20, 45, 60]),
        st.booleans(),
    ),
    max_size=8,
)
CARDS = st.lists(
    st.tuples(
        st.lists(st.sampled_from(GROUPS[:3]), min_size=1, max_size=2, unique=True),
        st.sampled_from([5, 10, 20, 45, 60]),
        LINES,
    ),
    min_size=1,
    max_size=len(IDS),
)


def model_with(cards: list[Any], policy: str) -> Any:
    added = "".join(card_text(at, *card) for at, card in enumerate(cards))
    manifest = shipped_text("rulesets/advanced-civilization.yaml")
    workspace = CachedWorkspace(
        {
            "cards/advanced-civilization.yaml": shipped_text("cards/advanced-civilization.yaml").replace(
                "\ncards:\n", "\ncards:\n" + added, 1
            ),
            "rulesets/advanced-civilization.yaml": manifest.replace(
                POLICIES["highest, both groups"], POLICIES[policy], 1
            ),
        }
    )
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["-"])
    assert analysis.model is not None
    return analysis.model


def assert_found_as_before(cards: list[Any], policy: str) -> None:
    model = model_with(cards, policy)
    assert list(module.check_credit_targets_twice(model)) == list(old_c004(model))
    assert list(module.check_credits_covering_cost(model)) == list(old_c007(model))
    # Every row, written out whole (the helper page's tables): the definition, cell for cell.
    matrix = credit_matrix(of_family(model))
    defined = derive_credit_matrix(credit_sources(model), matrix.policy)
    assert {owned: dict(row.items()) for owned, row in matrix.items()} == defined


@pytest.mark.parametrize("policy", list(POLICIES))
def test_the_shipped_decks_and_a_deck_of_shared_lines_find_what_each_target_judged_alone_finds(policy: str) -> None:
    assert_found_as_before([], policy)
    shared = [(("group", "crafts"), 10, False), (("group", "crafts"), 20, False), (("card", "g1"), 45, False)]
    cards = [
        (["crafts"], 10, shared),
        (["crafts", "sciences"], 20, [*shared, (("group", "sciences"), 30, False), (("card", "g0"), 5, True)]),
        (["crafts"], 45, [(("card", "g0"), 5, True), (("card", "g0"), 10, True), *shared]),
        (["sciences"], 5, shared),
    ]
    assert_found_as_before(cards, policy)
    model = model_with(cards, policy)
    assert list(module.check_credit_targets_twice(model)), "the deck credits targets twice"
    assert list(module.check_credits_covering_cost(model)), "the deck covers some card's cost"


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(CARDS, st.sampled_from(list(POLICIES)))
def test_random_decks_find_what_each_target_judged_alone_finds(cards: list[Any], policy: str) -> None:
    assert_found_as_before(cards, policy)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(CARDS, st.sampled_from(list(POLICIES)))
def test_many_random_decks_find_what_each_target_judged_alone_finds(cards: list[Any], policy: str) -> None:
    assert_found_as_before(cards, policy)


# --- Work linear in the lines written -----------------------------------------------------------------


def shape_model(tmp_path: Path, cards: int, lines: int, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ruleset ``big`` of ``aliased-credits``: ``cards`` Crafts each naming one list of ``lines``
    credits to the Crafts."""
    rules = tmp_path / f"{cards}-{lines}" / "rules"
    copy_shipped(rules)
    with monkeypatch.context() as patch:
        patch.setattr(shapes, "ALIASED_CREDITS", lines)
        shapes.aliased_credits(rules, cards)
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["big"]), select=["-"])
    assert analysis.model is not None
    return analysis.model


@pytest.mark.parametrize("check", [module.check_credit_targets_twice, module.check_credits_covering_cost])
def test_a_credit_line_costs_the_same_whatever_the_size_of_the_group_it_credits(
    tmp_path: Path, check: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work 10 more credit lines on each card add, with a group of 20 cards and of 40: a line
    read once per card it reaches costs twice as much in a group twice as large (the cards doubled
    too: four times the work; 3.3 times on the round-26 code, the shipped Crafts besides), a line
    read once costs the same (twice the work: 2.0 times). C004's message, which lists every line
    reported once per card (linear in them, and most of the count), is left out."""
    monkeypatch.setattr(module, "_overlap", lambda card, reaching, targets, policy: (card.id, reaching, targets))

    def work(cards: int, lines: int) -> int:
        model = shape_model(tmp_path, cards, lines, monkeypatch)
        return calls_made(functools.partial(lambda m: list(check(m)), model))

    added = {cards: work(cards, 20) - work(cards, 10) for cards in (20, 40)}
    assert added[20] > 0
    assert added[40] <= MOST * added[20], f"the work of 10 more lines on each card, with 20 and 40 cards: {added}"


def test_c007_weighs_no_member_its_group_lines_cannot_cover(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """C007's work as the group doubles, its cards each crediting the group by 5 lines of 10: a
    member receives 10 (`highest`), short of its cost of 45, so no member is a candidate. The 50
    points of the lines added up bounded the candidates in round 27: every giver weighed every
    member (four times the work at twice the cards: 3.1 times counted on that code; 2.0 now)."""

    def work(cards: int) -> int:
        model = shape_model(tmp_path, cards, 5, monkeypatch)
        return calls_made(functools.partial(lambda m: list(module.check_credits_covering_cost(m)), model))

    empty = work(0)
    added = {cards: work(cards) - empty for cards in (20, 40)}
    assert added[20] > 0
    assert added[40] <= MOST * added[20], f"C007's work with 20 and 40 cards more: {added}"


def test_c004_looks_at_each_set_of_groups_once_not_at_each_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C004 names every card its twice-credited group reaches (each card's warning lists them): the
    work per card and target it names, counted with 80 cards crediting their group by 2 lines (80 x
    86 targets). Each target built its set of groups reached and was sorted through a function of
    its own in round 27 (33.5 counted per target); the targets of the same groups share one look at
    them, and are sorted by what they were found with (26.8)."""
    monkeypatch.setattr(module, "_overlap", lambda card, reaching, targets, policy: (card.id, reaching, targets))

    def work(cards: int) -> int:
        model = shape_model(tmp_path, cards, 2, monkeypatch)
        return calls_made(functools.partial(lambda m: list(module.check_credit_targets_twice(m)), model))

    # The shipped Crafts (7) are targets too; the shape adds no target to the shipped cards' checks.
    per_target = (work(80) - work(0)) / (80 * (80 + 7 - 1))
    assert per_target <= 30, f"C004's work per card and target it names: {per_target:.1f}"


def test_the_package_makes_the_credit_lines_written_alike_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package writes each card's credit lines twice: in its CARDS record and in CREDIT_MATRIX.
    Cards naming one list through an alias write the same lines, made and flattened once now
    (round 28: 705 cards of 200 lines made 141,000 of each, 1.4 s and 95 MB of the build). Counted:
    the lines made for 30 cards of 20 lines each, less those of the shipped cards (old code: 600
    more of each kind; now the one line all 600 are)."""
    from civrules.emit.export import export_ruleset
    from civrules.emit.pyfmt import record_call
    from civrules.families.advanced_civilization import package
    from civrules.pipeline import derived_facts

    made: collections.Counter[str] = collections.Counter()
    credit_line = package._credit_line

    def counted_line(line: Mapping[str, Any]) -> Any:
        made["matrix"] += 1
        return credit_line(line)

    def counted_record(callee: str, /, *args: Any, **kwargs: Any) -> Any:
        made[callee] += 1
        return record_call(callee, *args, **kwargs)

    def lines_made(cards: int) -> tuple[collections.Counter[str], bytes]:
        rules = tmp_path / f"package-{cards}" / "rules"
        copy_shipped(rules)
        with monkeypatch.context() as patch:
            patch.setattr(shapes, "ALIASED_CREDITS", 20)
            shapes.aliased_credits(rules, cards)
        workspace = Workspace(rules)
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["big"]), select=["-"])
        assert analysis.model is not None and analysis.resolved is not None
        model = of_family(analysis.model)
        exported = export_ruleset(analysis.resolved, model, derived_facts(model))
        made.clear()
        package._WRITTEN.clear()
        with monkeypatch.context() as patch:
            patch.setattr(package, "_credit_line", counted_line)
            patch.setattr(package, "record_call", counted_record)
            source = package.data_module(model, exported).source
        return collections.Counter(made), source

    shipped, shipped_source = lines_made(0)
    count, source = lines_made(30)
    for kind in ("matrix", "Credit"):
        assert count[kind] - shipped[kind] <= 1, f"{kind} lines made for 30 cards of 20 lines: {count - shipped}"
    # Every card's lines are still written out whole: 20 lines of 10 to the Crafts, for each card.
    for row in (b'(10, "crafts", None, False),', b"_Credit(10, GroupId.CRAFTS, None),"):
        assert source.count(row) - shipped_source.count(row) == 30 * 20, row


def test_a_list_named_through_an_alias_is_compared_and_worded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The variant's changes sheet compares each added card without its citations and gives its
    credits in words. Cards naming one list through an alias name one object: stripped, sorted and
    worded once now (round 28: each of 705 cards stripped, sorted and worded the 200 lines anew).
    Counted: the lines sorted and worded for 30 cards of 20 lines each (old code: 600 of each)."""
    from civrules.resolve import diff

    rules = tmp_path / "rules"
    copy_shipped(rules)
    with monkeypatch.context() as patch:
        patch.setattr(shapes, "ALIASED_CREDITS", 20)
        shapes.aliased_credits(rules, 30)
    workspace = Workspace(rules)
    resolved = {}
    for ruleset_id in ("advanced-civilization", "big"):
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]), select=["-"])
        assert analysis.resolved is not None
        resolved[ruleset_id] = analysis.resolved
    made: collections.Counter[str] = collections.Counter()
    canon, word = diff._canon, diff._word

    def counted_canon(value: Any) -> str:
        made["sorted"] += 1
        return canon(value)

    def counted_word(value: Any) -> str:
        made["worded"] += 1
        return word(value)

    monkeypatch.setattr(diff, "_canon", counted_canon)
    monkeypatch.setattr(diff, "_word", counted_word)
    text = diff.render_text(diff.diff_rulesets(resolved["advanced-civilization"], resolved["big"]), in_words=True)
    assert made["sorted"] <= 20 * 5 and made["worded"] <= 20 * 5 + 30 * 10, made
    # Every card's lines are still given in words, one a line.
    assert text.count("· group: crafts; points: 10\n") == 30 * 20
