"""The read-only mapping every generated package's tables are made of.

:class:`FrozenMap` is a Python value like a frozen record: it cannot be changed, compares equal to
any mapping of the same items, hashes by its items, and pickles and copies (``types.MappingProxyType``,
which the tables were before, does none of the last three).
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TypeVar

    _K = TypeVar("_K")
    _V = TypeVar("_V", covariant=True)
else:
    _K = _V = object  # only subscripted for the base class below; type checkers read the other branch

_set = object.__setattr__


class FrozenMap(Mapping[_K, _V]):
    """A read-only, hashable, picklable mapping (its items are kept in the order given).

    >>> FrozenMap({"iron": 6}) == {"iron": 6}
    True
    >>> hash(FrozenMap({"iron": 6, "salt": 3})) == hash(FrozenMap({"salt": 3, "iron": 6}))
    True
    """

    __slots__ = ("_items",)

    _items: dict[_K, _V]

    def __init__(self, items: Mapping[_K, _V], /) -> None:
        _set(self, "_items", dict(items))

    def __getitem__(self, key: _K) -> _V:
        return self._items[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[_K, _V]], tuple[dict[_K, _V]]]:
        return (type(self), (self._items,))

    def __copy__(self) -> FrozenMap[_K, _V]:
        return self  # it cannot change: a copy is itself, as for a tuple

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: cannot delete {name!r}")
