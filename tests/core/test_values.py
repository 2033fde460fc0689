"""``@frozen_value`` (civrules.support.values): a frozen, slotted dataclass whose comparison, hash and
repr are shared functions behaves as ``@dataclass(frozen=True, slots=True)`` does (the models'
classes are made by it to compile fewer methods at start-up: issue 32, point 5)."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from civrules.model import Unknown
from civrules.support.values import frozen_value


@frozen_value
class Point:
    x: int
    y: int = 0
    note: str = field(default="", compare=False, repr=False)
    tags: tuple[str, ...] = field(default=(), hash=False)


@dataclass(frozen=True, slots=True)
class PointDataclass:
    x: int
    y: int = 0
    note: str = field(default="", compare=False, repr=False)
    tags: tuple[str, ...] = field(default=(), hash=False)


@frozen_value
class Point3(Point):
    z: int = 0


@frozen_value
class One:
    only: int


@frozen_value
class Empty:
    pass


@frozen_value(kw_only=True)
class Named:
    name: str
    items: list[Any] = field(default_factory=list)


@frozen_value
class Own:
    a: int

    def __repr__(self) -> str:
        return "mine"

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


def test_compares_hashes_and_shows_as_a_frozen_dataclass() -> None:
    for made in ((Point(1, 2, "n", ("t",)), PointDataclass(1, 2, "n", ("t",))), (Point(1), PointDataclass(1))):
        ours, theirs = made
        assert repr(ours) == repr(theirs).replace("PointDataclass", "Point")
        assert hash(ours) == hash(theirs)
    # compare=False fields are left out of comparison and hash, hash=False out of the hash only
    assert Point(1, 2, "a") == Point(1, 2, "b")
    assert hash(Point(1, 2, "a")) == hash(Point(1, 2, "b"))
    assert Point(1, 2, tags=("a",)) != Point(1, 2, tags=("b",))
    assert hash(Point(1, 2, tags=("a",))) == hash((1, 2))
    # only an instance of the very same class compares equal
    assert Point(1, 2) != Point3(1, 2)
    other: object = (1, 2)
    assert Point(1, 2) != other
    assert Point.__eq__(Point(1), (1,)) is NotImplemented
    assert Point3(1, 2, z=3) == Point3(1, 2, z=3) != Point3(1, 2, z=4)
    assert repr(Point3(1, 2, z=3)) == "Point3(x=1, y=2, tags=(), z=3)"
    assert One(4) == One(4) and hash(One(4)) == hash((4,)) and repr(One(4)) == "One(only=4)"
    assert Empty() == Empty() and hash(Empty()) == hash(()) and repr(Empty()) == "Empty()"
    assert Point.__eq__.__qualname__ == "Point.__eq__"


def test_frozen_slotted_and_a_dataclass() -> None:
    point = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.x
    assert not hasattr(point, "__dict__")
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "note", "tags"]
    assert dataclasses.replace(point, y=5) == Point(1, 5)
    assert dataclasses.asdict(point) == {"x": 1, "y": 2, "note": "", "tags": ()}
    assert pickle.loads(pickle.dumps(point)) == point
    assert copy.deepcopy(point) == point
    match point:
        case Point(1, y):
            assert y == 2
        case _:
            pytest.fail("no match")
    with pytest.raises(TypeError):
        Named("positional")  # type: ignore[call-arg]
    assert Named(name="a").items == [] and Named(name="a").items is not Named(name="a").items
    with pytest.raises(TypeError, match="unhashable"):
        hash(Named(name="a"))


def test_a_recursive_value_is_shown_with_an_ellipsis() -> None:
    holder = Named(name="a")
    holder.items.append(holder)
    assert repr(holder) == "Named(name='a', items=[...])"


def test_a_class_keeps_the_methods_it_writes() -> None:
    assert repr(Own(1)) == "mine"
    assert Own(1) == Own(2)
    assert vars(Own)["__hash__"] is object.__hash__


#: The modules whose frozen values are made by ``@frozen_value``: the models (every class) and the
#: other modules a validate imports.
MODULES = [
    "civrules.model",
    "civrules.families.advanced_civilization.model",
    "civrules.families.sid_meiers_civilization.model",
    "civrules.families.imperial_settlers.model",
    "civrules.diagnostics",  # Span: ordered
    "civrules.diagnostics.codes",
    "civrules.families.family",
    "civrules.resolve",
    "civrules.pipeline.suppression",
    "civrules.schema.references",
    "civrules.checks",
    "civrules.checks.citations",
    "civrules.support.files",
    "civrules.families.advanced_civilization.calamities",
    "civrules.families.advanced_civilization.commodities",
    "civrules.families.advanced_civilization.credits",
    "civrules.families.advanced_civilization.succession",
]


@pytest.mark.parametrize("name", MODULES)
def test_each_frozen_value_compares_hashes_and_shows_as_dataclasses_would(name: str) -> None:
    """Each ``@frozen_value`` class of the module (every class of a model) is a frozen, slotted
    dataclass, and one of its instances (each field a stand-in value) compares, hashes and shows as
    ``dataclasses`` would make it."""
    module = importlib.import_module(name)
    classes = [
        c
        for c in vars(module).values()
        if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == module.__name__
    ]
    made = [c for c in classes if getattr(vars(c).get("__eq__"), "__module__", None) == "civrules.support.values"]
    assert made
    if name.endswith("model"):
        assert made == classes
    for cls in made:
        assert vars(cls)["__dataclass_params__"].frozen, cls
        assert "__slots__" in vars(cls), cls
        fields = dataclasses.fields(cls)
        given = {f.name: Unknown(f.name) for f in fields if f.init}
        one, other = cls(**given), cls(**given)
        assert one == other and hash(one) == hash(other)
        assert hash(one) == hash(tuple(getattr(one, f.name) for f in fields if f.compare))
        shown = ", ".join(f"{f.name}={getattr(one, f.name)!r}" for f in fields if f.repr)
        assert repr(one) == f"{cls.__qualname__}({shown})"


@frozen_value(order=True)
class Ranked:
    line: int
    column: int
    note: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True, order=True)
class RankedDataclass:
    line: int
    column: int
    note: str = field(default="", compare=False)


def test_ordered_as_dataclasses_orders() -> None:
    pairs = [(1, 2), (1, 3), (2, 0), (1, 2), (0, 9)]
    ours = [Ranked(a, b, str(i)) for i, (a, b) in enumerate(pairs)]
    theirs = [RankedDataclass(a, b, str(i)) for i, (a, b) in enumerate(pairs)]
    assert [(r.line, r.column, r.note) for r in sorted(ours)] == [(r.line, r.column, r.note) for r in sorted(theirs)]
    assert Ranked(1, 2) <= Ranked(1, 2, "other") and Ranked(1, 2) >= Ranked(1, 2) and Ranked(2, 0) > Ranked(1, 9)
    other: object = (1, 2)
    assert Ranked.__lt__(Ranked(1, 2), other) is NotImplemented
    with pytest.raises(TypeError):
        _ = Ranked(1, 2) < RankedDataclass(1, 2)  # type: ignore[operator]
