# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The record base every family's runtime builds its records on, and the records every family shares.

A record is frozen, slotted and compared by its fields, like a frozen dataclass. Each family's
runtime (``civrules_runtime_<family>``) defines its own records on :class:`Record`; the records of
the Advanced Civilization family that lived here before the runtime was split by family are still
importable from this module for now (loaded on first use): they live in
``civrules_runtime_advanced_civilization.records``.
"""

from __future__ import annotations

_set = object.__setattr__


class Record:
    """A frozen, slotted record compared, hashed and shown by its fields, like a frozen dataclass
    (written out rather than made by ``dataclasses``: creating ~50 dataclasses costs an engine
    more import time than all of a ruleset's data)."""

    __slots__ = ()

    def _names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self.__slots__
        return names

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._names())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record) and other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names())
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")


class UnknownFact(Record):
    """A fact the sources do not give: the data file, the field, and why."""

    __slots__ = ("file", "field", "reason")
    __match_args__ = ("file", "field", "reason")

    file: str
    field: str
    reason: str

    def __init__(self, file: str, field: str, reason: str) -> None:
        _set(self, "file", file)
        _set(self, "field", field)
        _set(self, "reason", reason)


TYPE_CHECKING = False
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        return _moved.attribute(__name__, name, "records")
