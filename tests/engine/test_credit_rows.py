"""A package's credit row read whole (``row.items()``, ``row.values()``, ``dict(row.items())``, a row
compared or hashed) combines each set of lines once, not once per card they reach, and gathers each
credited group's members once, not once per line crediting it (issue 32, points 1 and 6).

Found in round 27 in the compiler's own matrix, fixed there; the runtime every Advanced Civilization
package imports (``civrules_runtime_advanced_civilization.credits``, 2.6.3) still read a row whole as
``row[target]`` for each target, each combining every line that reaches it: a card crediting its
group by 200 lines (YAML aliases, ``bench/shapes.py`` ``aliased-credits``) cost the group's size
times 200. Below: the cells against a lookup per target (what ``items()`` was), the targets against
the round-27 gathering, on random matrices under every policy; and the work counted as the deck grows.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO
from tests.security.test_check_growth import MOST, calls_made

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime_advanced_civilization import credits as runtime  # noqa: E402 - the committed runtime
from civrules_runtime_advanced_civilization.credits import CreditMatrix  # noqa: E402

GROUPS = ("arts", "crafts", "sciences")
CARDS = [f"c{i}" for i in range(8)]
POLICIES = [
    ("highest", True, "both_groups"),
    ("sum", True, "both_groups"),
    ("highest", True, "highest_group"),
    ("sum", True, "highest_group"),
    ("highest", False, "unknown"),
]
LINE = st.tuples(
    st.sampled_from([5, 10, 20, 45]),
    st.one_of(st.sampled_from(GROUPS).map(lambda g: (g, None)), st.sampled_from(CARDS).map(lambda c: (None, c))),
    st.booleans(),
).map(lambda t: (t[0], t[1][0], t[1][1], t[2]))
DECK = st.tuples(
    st.lists(
        st.lists(st.sampled_from(GROUPS), min_size=1, max_size=2, unique=True), min_size=len(CARDS), max_size=len(CARDS)
    ),
    st.lists(st.lists(LINE, max_size=6), min_size=len(CARDS), max_size=len(CARDS)),
    st.sampled_from(POLICIES),
)


def old_targets(matrix: CreditMatrix, owned: str) -> tuple[str, ...]:
    """The cards a row credits as 2.6.3 gathered them (a group's members once per line crediting it)."""
    found: set[str] = set()
    for _, group, card, _ in matrix._lines.get(owned, ()):
        if card is not None:
            found.add(card)
        else:
            found.update(c for c in matrix._members.get(group or "", ()) if c not in matrix._no_group_credits)
    found.discard(owned)
    return tuple(sorted(found))


def matrix_of(groups: list[list[str]], lines: list[list[Any]], policy: tuple[str, bool, str]) -> CreditMatrix:
    same_target, known, two_groups = policy
    return CreditMatrix(
        same_target,
        known,
        {card: tuple(of) for card, of in zip(CARDS, groups, strict=True)},
        {card: tuple(written) for card, written in zip(CARDS, lines, strict=True) if written},
        two_groups,
    )


def assert_rows_read_whole_as_cell_by_cell(matrix: CreditMatrix) -> None:
    for owned in matrix:
        row = matrix[owned]
        assert row._targets() == old_targets(matrix, owned)
        by_lookup = {target: row[target] for target in row}  # what Mapping.items() gave
        assert list(row.items()) == list(by_lookup.items())
        assert list(row.values()) == list(by_lookup.values())
        assert row == by_lookup and hash(row) == hash(frozenset(by_lookup.items()))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(DECK)
def test_a_row_read_whole_gives_what_a_lookup_per_target_gives(deck: Any) -> None:
    assert_rows_read_whole_as_cell_by_cell(matrix_of(*deck))


def test_the_shipped_packages_rows_read_whole_give_what_a_lookup_per_target_gives() -> None:
    from civrules_rulesets import advanced_civilization, expansion_project, mega_civilization

    for package in (advanced_civilization, expansion_project, mega_civilization):
        assert_rows_read_whole_as_cell_by_cell(package.CREDIT_MATRIX)


def test_a_credit_line_costs_a_row_read_whole_the_same_whatever_the_size_of_the_group() -> None:
    """Every row of a deck read whole, each card crediting its own group by ``lines`` lines: the work
    10 more lines on each card add, with 20 cards and with 40. A line combined once per card of its
    group costs twice as much in a group twice as large (the rows doubled too: four times the work;
    3.8 times counted on 2.6.3), a line combined once per row the same (2.0 times)."""

    def work(cards: int, lines: int) -> int:
        ids = [f"c{i}" for i in range(cards)]
        matrix = CreditMatrix(
            "highest", True, dict.fromkeys(ids, ("crafts",)), dict.fromkeys(ids, ((10, "crafts", None, False),) * lines)
        )
        return calls_made(functools.partial(lambda m: [dict(m[c].items()) for c in m], matrix), runtime.__file__)

    added = {cards: work(cards, 20) - work(cards, 10) for cards in (20, 40)}
    assert added[20] > 0
    assert added[40] <= MOST * added[20], f"the work of 10 more lines on each card, with 20 and 40 cards: {added}"
