"""docs/engine.md: sets of ids are ``OrderedFrozenSet``s, which iterate in the same order in every
process whatever ``PYTHONHASHSEED`` is. Their set algebra keeps an order too (round 34): it gave a
plain frozenset, whose order changes with the hash seed, so an engine walking
``neighbours(a) | neighbours(b)`` did not replay the same game in another process. The left
operand's items come first, in its order, then the right's new ones in the right's order; the result
is equal to (and hashes as) the frozenset the operation gives."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_runtime.mappings import OrderedFrozenSet  # noqa: E402

LEFT: OrderedFrozenSet[str] = OrderedFrozenSet(("d", "b", "a", "c"))
RIGHT: OrderedFrozenSet[str] = OrderedFrozenSet(("e", "c", "a", "f"))

#: Each operation, and the order its result iterates in.
ALGEBRA: dict[str, tuple[Callable[[Any, Any], Any], list[str]]] = {
    "a | b": (lambda a, b: a | b, ["d", "b", "a", "c", "e", "f"]),
    "a & b": (lambda a, b: a & b, ["a", "c"]),
    "a - b": (lambda a, b: a - b, ["d", "b"]),
    "a ^ b": (lambda a, b: a ^ b, ["d", "b", "e", "f"]),
    "a.union(b)": (lambda a, b: a.union(b), ["d", "b", "a", "c", "e", "f"]),
    "a.intersection(b)": (lambda a, b: a.intersection(b), ["a", "c"]),
    "a.difference(b)": (lambda a, b: a.difference(b), ["d", "b"]),
    "a.symmetric_difference(b)": (lambda a, b: a.symmetric_difference(b), ["d", "b", "e", "f"]),
    "b | a": (lambda a, b: b | a, ["e", "c", "a", "f", "d", "b"]),
}


@pytest.mark.parametrize("operation", ALGEBRA, ids=list(ALGEBRA))
def test_set_algebra_gives_an_ordered_set_in_its_operands_order(operation: str) -> None:
    apply, order = ALGEBRA[operation]
    made = apply(LEFT, RIGHT)
    assert type(made) is OrderedFrozenSet
    assert list(made) == order
    plain = apply(frozenset(LEFT), frozenset(RIGHT))
    assert made == plain and hash(made) == hash(plain)


def test_a_plain_frozenset_or_several_iterables_keep_their_own_order() -> None:
    assert list(frozenset({"x"}) | LEFT) == ["x", "d", "b", "a", "c"]  # the reflected operators
    assert list(frozenset({"a", "b"}) & LEFT) in (["a", "b"], ["b", "a"])  # the frozenset's order
    assert list(frozenset({"a", "z"}) - LEFT) == ["z"]
    assert list(LEFT.union(["z", "d"], ("y",))) == ["d", "b", "a", "c", "z", "y"]
    assert list(LEFT.intersection(["c", "d"], {"c", "d", "b"})) == ["d", "c"]
    assert list(LEFT.difference(["c"], ("a",))) == ["d", "b"]
    assert LEFT.copy() is LEFT


def test_what_a_frozenset_refuses_stays_refused() -> None:
    left: Any = LEFT  # a list is no set: a type error too
    refused: list[Callable[[], object]] = [
        lambda: left | ["a"],
        lambda: left & ["a"],
        lambda: left - ["a"],
        lambda: left ^ ["a"],
    ]
    for apply in refused:
        with pytest.raises(TypeError, match="unsupported operand"):
            apply()


def test_neighbours_of_two_areas_together_iterate_in_order() -> None:
    first, second = list(ac.AREAS)[5:7]
    one, other = ac.neighbours(ac.AreaId(first)), ac.neighbours(ac.AreaId(second))
    together = one | other
    assert type(together) is OrderedFrozenSet
    assert list(together) == list(dict.fromkeys((*one, *other)))
