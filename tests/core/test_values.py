"""``@value`` (civrules.support.values): a frozen, slotted dataclass whose comparison, hash and
repr are shared functions behaves as ``@dataclass(frozen=True, slots=True)`` does (the models'
classes are made by it to compile fewer methods at start-up: issue 32, point 5)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from civrules.families.advanced_civilization import model as ac_model
from civrules.families.imperial_settlers import model as is_model
from civrules.families.sid_meiers_civilization import model as smc_model
from civrules.model import Unknown
from civrules.support.values import value


@value
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


@value
class Point3(Point):
    z: int = 0


@value
class One:
    only: int


@value
class Empty:
    pass


@value(kw_only=True)
class Named:
    name: str
    items: list[Any] = field(default_factory=list)


@value
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


@pytest.mark.parametrize("module", [ac_model, smc_model, is_model], ids=lambda m: m.__name__.split(".")[2])
def test_the_models_compare_as_their_dataclass_twins(module: Any) -> None:
    """Every model class is frozen and slotted, and one of its instances (each field a stand-in
    value) compares, hashes and shows as ``dataclasses`` would make it."""
    classes = [
        c
        for c in vars(module).values()
        if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == module.__name__
    ]
    assert len(classes) > 10
    for cls in classes:
        assert vars(cls)["__dataclass_params__"].frozen, cls
        assert "__slots__" in vars(cls), cls
        assert cls.__eq__ is not object.__eq__ and cls.__hash__ is not object.__hash__, cls
        twin_fields = [(f.name, f.compare, f.repr, f.hash) for f in dataclasses.fields(cls)]
        given = {f.name: Unknown(f.name) for f in dataclasses.fields(cls) if f.init}
        one, other = cls(**given), cls(**given)
        assert one == other and hash(one) == hash(other)
        compared = tuple(getattr(one, name) for name, compare, _, _ in twin_fields if compare)
        assert hash(one) == hash(compared)
        shown = ", ".join(f"{name}={getattr(one, name)!r}" for name, _, show, _ in twin_fields if show)
        assert repr(one) == f"{cls.__qualname__}({shown})"
