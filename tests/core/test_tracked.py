"""Work reused where everything it read is the same (civrules.support.tracked)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from civrules.support.tracked import LeakedStandInError, Read, reuse_or_make, same, tracked


@dataclass(frozen=True)
class Box:
    width: float
    height: float


class Thing:
    def __init__(self, name: str, items: list[int], box: Box) -> None:
        self.name = name
        self.items = items
        self.box = box

    def count(self, above: int) -> int:
        return sum(1 for item in self.items if item > above)

    @property
    def first(self) -> int:
        return self.items[0]


class Holder:
    def __init__(self, thing: Thing, label: str) -> None:
        self.thing = thing
        self.label = label


def test_reads_through_a_stand_in_are_recorded_and_it_passes_for_the_real_class() -> None:
    items = [1, 5, 9]
    stand, record = tracked(Holder(Thing("a", items, Box(1.0, 2.0)), "x"), deep=("thing",))
    assert isinstance(stand, Holder) and isinstance(stand.thing, Thing)
    assert stand.thing.count(4) == 2 and stand.thing.first == 1 and stand.thing.items is items
    assert all(stand.thing.count(4) == 2 and stand.thing.items is items for _ in range(3))  # recorded once
    reads = [(path, name, call) for path, name, call, _ in record.reads]
    assert reads == [(("thing",), "count", ((4,), ())), (("thing",), "first", None), (("thing",), "items", None)]
    with pytest.raises(AttributeError):
        stand.label = "y"


def test_the_same_objects_and_equal_values_are_the_same_and_nothing_else_is() -> None:
    entity = object()
    assert same(entity, entity) and not same(object(), object())
    assert same(Box(1.0, 2.0), Box(1.0, 2.0)) and not same(Box(1.0, 2.0), Box(1.0, 3.0))
    assert same({"a": (1, "x")}, {"a": (1, "x")}) and not same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert same((entity, 1), (entity, 1)) and not same((entity, 1), (object(), 1))
    assert not same(1, True) and not same([1], (1,))

    @dataclass(frozen=True)
    class Held:
        name: str
        what: object

    # A dataclass's fields are plain values or the very objects: an entity made anew is not the same.
    assert same(Held("a", entity), Held("a", entity)) and not same(Held("a", entity), Held("b", entity))
    assert not same(Held("a", Box(1.0, 2.0)), Held("a", Box(1.0, 2.0)))


def _count(holder: Holder) -> tuple[int, float]:
    return holder.thing.count(4), holder.thing.box.width


def test_work_is_reused_only_where_every_read_gives_the_same() -> None:
    kept: dict[str, tuple[list[Read], object]] = {}
    items = [1, 5, 9]
    box = Box(1.0, 2.0)
    made = reuse_or_make(kept, "k", Holder(Thing("a", items, box), "x"), _count, deep=("thing",))
    assert made == (2, 1.0)
    # Another name and label, not read: the same result, reused (the very object kept).
    again = reuse_or_make(kept, "k", Holder(Thing("b", items, Box(1.0, 2.0)), "y"), _count, deep=("thing",))
    assert again is made
    # Another count, or another width: made again.
    other = reuse_or_make(kept, "k", Holder(Thing("a", [5, 6, 9], box), "x"), _count, deep=("thing",))
    assert other == (3, 1.0)
    wider = reuse_or_make(kept, "k", Holder(Thing("a", [5, 6, 9], Box(3.0, 2.0)), "x"), _count, deep=("thing",))
    assert wider == (3, 3.0)


def test_a_stand_in_read_after_its_work_returned_raises_rather_than_answer_for_another() -> None:
    kept: dict[str, tuple[list[Read], object]] = {}
    leaked = reuse_or_make(kept, "k", Holder(Thing("a", [1], Box(1.0, 1.0)), "x"), lambda h: h.thing, deep=("thing",))
    with pytest.raises(LeakedStandInError):
        _ = leaked.name


class Counter:
    def __init__(self, count: int) -> None:
        self.count = count

    def more_than(self, other: Counter) -> bool:
        return self.count > other.count


def test_a_read_that_fails_on_another_object_is_a_change_not_an_error() -> None:
    """A call recorded with the stand-in itself as its argument cannot be made again once the
    stand-in is sealed: the work is made again rather than the build failing."""
    kept: dict[str, tuple[list[Read], object]] = {}
    assert reuse_or_make(kept, "k", Counter(3), lambda counter: counter.more_than(counter)) is False
    # The same count read first: the recorded call is then made again, with the sealed stand-in.
    assert reuse_or_make(kept, "k", Counter(3), lambda counter: [counter.count]) == [3]
