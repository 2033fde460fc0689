"""The public table and record types say what they take when an engine calls them with the wrong
arguments (round 33): `FrozenMap(5)`, `OrderedFrozenSet([["a"]])`, a record given a value too many by
position, a field twice or a field missing. Python's own words (`'int' object is not iterable`,
`Assumptions.__init__() takes 1 positional argument but 2 were given`, which counts `self`) named
neither the class nor what it takes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_runtime.errors import NotACollectionError, OutOfDomainError  # noqa: E402
from civrules_runtime.mappings import FrozenMap, OrderedFrozenSet  # noqa: E402
from civrules_runtime.records import PlayerRange  # noqa: E402
from civrules_runtime_advanced_civilization import Assumptions  # noqa: E402

# What the engines under test call is what mypy refuses: the calls go through untyped names.
Card: Any = type(ac.CARDS["pottery"])
AnyMap: Any = FrozenMap
AnySet: Any = OrderedFrozenSet
AnyRange: Any = PlayerRange
AnyAssumptions: Any = Assumptions


@pytest.mark.parametrize(
    ("make", "error", "said"),
    [
        (
            lambda: AnyMap(5),
            NotACollectionError,
            "FrozenMap takes a mapping, or an iterable of (key, value) pairs, not 5",
        ),
        (
            lambda: AnyMap(None),
            NotACollectionError,
            "FrozenMap takes a mapping, or an iterable of (key, value) pairs, not None",
        ),
        (lambda: AnyMap("ab"), NotACollectionError, "not 'ab' (of type str)"),
        (lambda: AnyMap([1, 2]), NotACollectionError, "its item #0, 1, is no (key, value) pair"),
        (lambda: AnyMap([("a",)]), OutOfDomainError, "its item #0, ('a',), has 1 value, not 2"),
        (lambda: AnyMap([(["a"], 1)]), NotACollectionError, "its item #0's key, ['a'], is a list"),
        (
            lambda: AnySet(5),
            NotACollectionError,
            "OrderedFrozenSet takes an iterable of hashable values (ids), not 5",
        ),
        (lambda: AnySet([["a"]]), NotACollectionError, "its item #0, ['a'], is a list"),
    ],
)
def test_a_table_made_of_what_it_cannot_hold_says_what_it_takes(
    make: Callable[[], object], error: type[Exception], said: str
) -> None:
    with pytest.raises(error) as raised:
        make()
    assert said in str(raised.value)
    # still the kind of error Python's was, so an engine's `except TypeError/ValueError` holds
    assert isinstance(raised.value, TypeError if error is NotACollectionError else ValueError)


def test_a_table_still_takes_a_mapping_pairs_and_an_iterator() -> None:
    assert AnyMap({"a": 1}) == AnyMap([("a", 1)]) == AnyMap(iter([("a", 1)])) == {"a": 1}
    assert list(AnySet(iter("ba"))) == ["b", "a"]
    with pytest.raises(NotACollectionError, match="FrozenMap takes a mapping"):  # a spent iterator: no item blamed
        AnyMap(iter([("a", 1), 5]))


def test_a_mapping_whose_own_lookup_fails_is_not_blamed_on_the_table() -> None:
    class Broken(Mapping[str, int]):
        def __getitem__(self, key: str) -> int:
            raise ValueError("broken on purpose")

        def __iter__(self) -> Iterator[str]:
            return iter(["a"])

        def __len__(self) -> int:
            return 1

    with pytest.raises(ValueError, match="broken on purpose"):
        AnyMap(Broken())


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: AnyRange(), "PlayerRange needs min, max (no default): PlayerRange(min, max, best=..., rule=..."),
        (lambda: AnyRange(2), "PlayerRange needs max (no default)"),
        (
            lambda: AnyRange(2, 4, None, (), None, None, 9),
            "PlayerRange was given 7 values by position; it takes at most 6",
        ),
        (lambda: AnyRange(2, 4, min=3), "PlayerRange was given min twice, by position and by name"),
        (
            lambda: AnyAssumptions({"law": 170}),
            "Assumptions was given 1 value by position; it takes its fields by name only: Assumptions(*, card_costs=",
        ),
        (lambda: Card("x"), "Card needs name, groups, cost, prerequisites, credits, victory_points (no default)"),
    ],
)
def test_a_record_called_with_the_wrong_arguments_names_its_fields(make: Callable[[], object], said: str) -> None:
    with pytest.raises(TypeError) as raised:
        make()
    assert said in str(raised.value)
    assert "__init__()" not in str(raised.value)  # Python's words counted `self` and named the method
