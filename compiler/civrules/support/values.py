"""Frozen values: ``@frozen_value`` makes a frozen, slotted dataclass whose comparison, hash and repr are
shared functions rather than methods generated for the class.

``dataclasses`` writes each generated method as source text and compiles it when the class is
made (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, and ``__setattr__``/``__delattr__``
of a frozen class), on every run: bytecode caches do not keep them. The models hold dozens of
classes (one family's 56 made a clean ``validate`` compile 336 methods, ≈0.05 s of its
≈0.3 s of CPU). ``@frozen_value`` lets ``dataclasses`` generate what needs the class's own signature
(``__init__``, and the frozen ``__setattr__``/``__delattr__``, which ``dataclasses`` always writes
for a frozen class) and gives the class comparison, hash and repr built from its fields' names,
which compile nothing. They behave as the generated ones: compared and hashed by the fields whose
``compare`` (``hash``) is true, only with an instance of the very same class; shown as
``Name(field=value, ...)`` by the fields whose ``repr`` is true, a recursive reference as ``...``;
ordered (``order=True``) as they are compared.
``dataclasses.fields``, ``replace``, ``asdict``, pickling and ``match`` work as on any dataclass.

To mypy (``dataclass_transform``) a ``@frozen_value`` class is a frozen dataclass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter, ge, gt, le, lt
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of an object's attributes ``names`` (``attrgetter`` gives a bare
    value for one name)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        (name,) = names
        return lambda instance: (getattr(instance, name),)
    return lambda instance: ()


def _methods(cls: type[Any], order: bool) -> None:
    written = cls.__dict__
    # A class that writes its own method keeps it, as with ``dataclasses`` (a body that writes
    # ``__eq__`` alone has ``__hash__`` set to None by Python: that is not a hash of its own).
    own_hash = written.get("__hash__") is not None or ("__eq__" not in written and "__hash__" in written)
    fields = dataclasses.fields(cls)
    compared = _getter(tuple(f.name for f in fields if f.compare))
    hashed = _getter(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
    shown = tuple(f.name for f in fields if f.repr)

    def equal(self: Any, other: object) -> object:
        if other.__class__ is self.__class__:
            return bool(compared(self) == compared(other))
        return NotImplemented

    def hash_of(self: Any) -> int:
        return hash(hashed(self))

    @recursive_repr()
    def shown_as(self: Any) -> str:
        shown_fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({shown_fields})"

    methods = [("__eq__", equal), ("__hash__", hash_of), ("__repr__", shown_as)]
    if order:
        methods += [(f"__{op.__name__}__", _ordering(op, compared)) for op in (lt, le, gt, ge)]
    for name, method in methods:
        if name in written and (name != "__hash__" or own_hash):
            continue
        method.__name__ = name
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)


def _ordering(op: Callable[[Any, Any], bool], compared: Callable[[Any], tuple[Any, ...]]) -> Callable[..., object]:
    def ordered(self: Any, other: object) -> object:
        if other.__class__ is self.__class__:
            return op(compared(self), compared(other))
        return NotImplemented

    return ordered


def _make(cls: type[_T], kw_only: bool, order: bool, weakref: bool = False) -> type[_T]:
    made = dataclasses.dataclass(
        cls, frozen=True, slots=True, eq=False, repr=False, kw_only=kw_only, weakref_slot=weakref
    )
    _methods(made, order)
    return made


@overload
def frozen_value(cls: type[_T], /) -> type[_T]: ...


@overload
def frozen_value(
    *, kw_only: bool = False, order: bool = False, weakref: bool = False
) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen_value(
    cls: type[_T] | None = None, /, *, kw_only: bool = False, order: bool = False, weakref: bool = False
) -> Any:
    """Make ``cls`` a frozen, slotted dataclass compared, hashed and shown by its fields (see the
    module); ``kw_only`` and ``order`` (``<``, ``<=``, ``>``, ``>=`` by the compared fields) as for
    ``dataclasses.dataclass``; ``weakref`` gives its instances a slot for weak references (what is
    made from them may then be kept exactly as long as they live)."""
    if cls is None:
        return lambda cls: _make(cls, kw_only, order, weakref)
    return _make(cls, kw_only, order, weakref)
