"""The read-only mapping every generated package's tables are made of.

:class:`FrozenMap` is a Python value like a frozen record: it cannot be changed, compares equal to
any mapping of the same items, hashes by its items, and pickles and copies (``types.MappingProxyType``,
which the tables were before, does none of the last three). A key it does not have raises
UnknownIdError, a KeyError that names the closest key (``ITEMS["alpah"]``: did you mean 'alpha'?).

:class:`OrderedFrozenSet` is a frozenset that iterates in the order it was made with: a frozenset of
strings iterates in an order that changes with ``PYTHONHASHSEED`` (an engine that walks
such a set would not replay the same game in another process).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from itertools import islice
from typing import Any, TypeVar

from .errors import (
    NotACollectionError,
    OutOfDomainError,
    UnknownIdError,
    _count,
    _record_id,
    closest_id,
    give_its_id,
    shown,
)

TYPE_CHECKING = False

_K = TypeVar("_K")
_V = TypeVar("_V", covariant=True)
_T = TypeVar("_T", covariant=True)
_S = TypeVar("_S")
_K2 = TypeVar("_K2")
_V2 = TypeVar("_V2")
_E = TypeVar("_E", bound=BaseException)

_set = object.__setattr__


class FrozenMap(Mapping[_K, _V]):
    """A read-only, hashable, picklable mapping (its items are kept in the order given).

    >>> FrozenMap({"a": 6}) == {"a": 6}
    True
    >>> hash(FrozenMap({"a": 6, "b": 3})) == hash(FrozenMap({"b": 3, "a": 6}))
    True

    It has what ``dict`` and ``types.MappingProxyType`` read: ``|`` gives a new FrozenMap (the
    right-hand mapping's values win, as for dicts; ``table |= other`` rebinds ``table`` to it, as for
    a frozenset, and never changes the table), ``reversed()`` its keys last first, and ``copy()`` is
    itself (nothing in it can change, as ``frozenset.copy()``).

    >>> FrozenMap({"a": 6, "b": 3}) | {"b": 4, "c": 1}
    FrozenMap({'a': 6, 'b': 4, 'c': 1})
    >>> list(reversed(FrozenMap({"a": 6, "b": 3})))
    ['b', 'a']
    """

    __slots__ = ("_items",)

    if TYPE_CHECKING:  # for type checkers only: a public class's hints name no private attribute
        _items: dict[_K, _V]

    def __init__(self, items: Mapping[_K, _V], /) -> None:
        try:
            made = dict(items)
        except (TypeError, ValueError) as error:
            if isinstance(items, Mapping) or type(error) not in (TypeError, ValueError):
                raise  # a mapping's own failure, or one of the runtime's refusals: it says what it is
            raise _marked(_not_pairs(type(self).__name__, items)) from None
        _set(self, "_items", made)

    def __getitem__(self, key: _K) -> _V:
        try:
            return self._items[key]
        except Exception:  # noqa: BLE001 - not there, unhashable (a list of ids), or its own hash or == fails
            raise MissingKeyError(key, self._items) from None

    def __iter__(self) -> Iterator[_K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __reversed__(self) -> Iterator[_K]:
        return reversed(self._items)

    def __or__(self, other: Mapping[_K2, _V2], /) -> FrozenMap[_K | _K2, _V | _V2]:
        if not isinstance(other, Mapping):
            return NotImplemented
        return FrozenMap({**self._items, **other})

    def __ror__(self, other: Mapping[_K2, _V2], /) -> FrozenMap[_K | _K2, _V | _V2]:
        # ``dict | FrozenMap``: dict's own ``|`` takes only dicts; the result stays read-only
        if not isinstance(other, Mapping):
            return NotImplemented
        return FrozenMap({**other, **self._items})

    # No __ior__: ``table |= other`` rebinds ``table`` to ``table | other``, as for a frozenset.

    def copy(self) -> FrozenMap[_K, _V]:
        """The table itself: it cannot change (as ``frozenset.copy()``; ``dict(table)`` is a dict)."""
        return self

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._items
        except Exception:  # noqa: BLE001 - an unhashable key, or one whose own hash or == fails, is in no table
            return False

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


class OrderedFrozenSet(frozenset[_T]):
    """A frozenset that iterates in the order it was made with (the tables give their ids sorted):
    equal to, hashed as, and usable wherever a frozenset of the same items is, so the same on
    every run whatever ``PYTHONHASHSEED`` is. Set algebra keeps an order too: ``a | b``, ``a & b``,
    ``a - b``, ``a ^ b`` (``b`` a set or a frozenset) and ``union``, ``intersection``,
    ``difference``, ``symmetric_difference`` (of any iterables) give an OrderedFrozenSet of ``a``'s
    items in ``a``'s order, then the others' new ones in theirs (a plain frozenset's order, before
    runtime 2.18, changed with ``PYTHONHASHSEED``); ``copy()`` is the set itself.

    >>> OrderedFrozenSet(("c", "a", "b"))
    OrderedFrozenSet(['c', 'a', 'b'])
    >>> OrderedFrozenSet(("b", "a")) == frozenset({"a", "b"})
    True
    """

    __slots__ = ("_order",)

    if TYPE_CHECKING:  # for type checkers only: a public class's hints name no private attribute
        _order: tuple[_T, ...]

    def __new__(cls, items: Iterable[_T] = (), /) -> OrderedFrozenSet[_T]:
        try:
            order = tuple(dict.fromkeys(items))
        except TypeError as error:
            if type(error) is not TypeError:  # one of the runtime's refusals: it says what it is
                raise
            raise _marked(_not_items(cls.__name__, items)) from None
        made = super().__new__(cls, order)
        _set(made, "_order", order)
        return made

    def __iter__(self) -> Iterator[_T]:
        return iter(self._order)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._order)!r})"

    def __reduce__(self) -> tuple[type[OrderedFrozenSet[_T]], tuple[tuple[_T, ...]]]:
        return (type(self), (self._order,))

    def __copy__(self) -> OrderedFrozenSet[_T]:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> OrderedFrozenSet[_T]:
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: cannot assign to {name!r}")

    # Set algebra, in order: a plain frozenset's result would iterate in an order that changes with
    # PYTHONHASHSEED, which this class is for. Another set's items keep that set's own order.
    def copy(self) -> OrderedFrozenSet[_T]:
        return self  # it cannot change, as frozenset.copy() of a frozenset is itself

    def union(self, *others: Iterable[_S]) -> OrderedFrozenSet[_T | _S]:
        return OrderedFrozenSet((*self._order, *(item for other in others for item in other)))

    def intersection(self, *others: Iterable[object]) -> OrderedFrozenSet[_T]:
        kept = frozenset.intersection(self, *others)
        return OrderedFrozenSet(item for item in self._order if item in kept)

    def difference(self, *others: Iterable[object]) -> OrderedFrozenSet[_T]:
        kept = frozenset.difference(self, *others)
        return OrderedFrozenSet(item for item in self._order if item in kept)

    def symmetric_difference(self, other: Iterable[_S], /) -> OrderedFrozenSet[_T | _S]:
        items = tuple(dict.fromkeys(other))
        kept = frozenset.symmetric_difference(self, items)
        return OrderedFrozenSet(item for item in (*self._order, *items) if item in kept)

    def __or__(self, other: AbstractSet[_S], /) -> OrderedFrozenSet[_T | _S]:
        if not isinstance(other, (set, frozenset)):
            return NotImplemented
        return self.union(other)

    def __and__(self, other: AbstractSet[object], /) -> OrderedFrozenSet[_T]:
        if not isinstance(other, (set, frozenset)):
            return NotImplemented
        return self.intersection(other)

    def __sub__(self, other: AbstractSet[object], /) -> OrderedFrozenSet[_T]:
        if not isinstance(other, (set, frozenset)):
            return NotImplemented
        return self.difference(other)

    def __xor__(self, other: AbstractSet[_S], /) -> OrderedFrozenSet[_T | _S]:
        if not isinstance(other, (set, frozenset)):
            return NotImplemented
        return self.symmetric_difference(other)

    if not TYPE_CHECKING:  # a frozenset on the left (``frozenset(...) | ids``): its order first, as above

        def __ror__(self, other):
            if not isinstance(other, (set, frozenset)):
                return NotImplemented
            return OrderedFrozenSet(other).union(self)

        def __rand__(self, other):
            if not isinstance(other, (set, frozenset)):
                return NotImplemented
            return OrderedFrozenSet(other).intersection(self)

        def __rsub__(self, other):
            if not isinstance(other, (set, frozenset)):
                return NotImplemented
            return OrderedFrozenSet(other).difference(self)

        def __rxor__(self, other):
            if not isinstance(other, (set, frozenset)):
                return NotImplemented
            return OrderedFrozenSet(other).symmetric_difference(self)


def _by_a_table(error: BaseException) -> bool:
    """Whether ``error`` is a FrozenMap's or an OrderedFrozenSet's refusal of what it was to be made
    of: a record whose constructor takes a field's value into a table names the field instead."""
    return getattr(error, "_of_a_table", False) is True


def _marked(error: _E) -> _E:
    error._of_a_table = True  # type: ignore[attr-defined]  # an exception's dict: it pickles with it
    return error


def _not_pairs(name: str, items: object) -> NotACollectionError | OutOfDomainError:
    """What a FrozenMap is made of, said where ``items`` (no mapping) is not it: Python's own words
    (``'int' object is not iterable``, ``dictionary update sequence element #0 has length 1``) name
    neither the class nor what it takes. A TypeError or a ValueError as Python's was."""
    takes = f"{name} takes a mapping, or an iterable of (key, value) pairs"
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        return NotACollectionError(f"{takes}, not {shown(items)} (of type {type(items).__name__})")
    for at, item in enumerate(items if isinstance(items, Collection) else ()):  # an iterator is spent
        if isinstance(item, (str, bytes)) or not isinstance(item, Iterable):
            return NotACollectionError(f"{takes}: its item #{at}, {shown(item)}, is no (key, value) pair")
        pair = tuple(item)
        if len(pair) != 2:
            return OutOfDomainError(f"{takes}: its item #{at}, {shown(item)}, has {_count(len(pair), 'value')}, not 2")
        try:
            hash(pair[0])
        except TypeError:
            return NotACollectionError(
                f"{takes}, each key hashable (an id): its item #{at}'s key, {shown(pair[0])}, is a "
                f"{type(pair[0]).__name__}"
            )
    return NotACollectionError(f"{takes}, not {shown(items)}")


def _not_items(name: str, items: object) -> NotACollectionError:
    """What an OrderedFrozenSet is made of, said where ``items`` is not it (Python's own words name
    neither the class nor what it takes)."""
    takes = f"{name} takes an iterable of hashable values (ids)"
    if not isinstance(items, Iterable):
        return NotACollectionError(f"{takes}, not {shown(items)} (of type {type(items).__name__})")
    for at, item in enumerate(items if isinstance(items, Collection) else ()):  # an iterator is spent
        try:
            hash(item)
        except TypeError:
            return NotACollectionError(f"{takes}: its item #{at}, {shown(item)}, is a {type(item).__name__}")
    return NotACollectionError(f"{takes}, not {shown(items)}")


class MissingKeyError(UnknownIdError):
    """A key a FrozenMap does not have: ``args[0]`` is the key, as a dict's KeyError has it; the
    message, made when it is read (``Mapping.get`` and ``in`` on a miss never read it), names the
    closest key of a table of ids, else the table's first keys."""

    def __init__(self, key: object, items: Mapping[Any, object] | None = None, *, field_of: str = "") -> None:
        super().__init__(key)
        self.items = items
        #: The settings record class of which ``key`` is a field the data do not write ("": none).
        self.field_of = field_of

    def __str__(self) -> str:
        key, items = self.args[0], self.items
        said = shown(key)  # a record given for its id is named by it, not printed whole
        if self.field_of:  # a field the data leave out: no other key is what was meant
            return (
                f"{said} is a field of {self.field_of} that this ruleset's data do not write (absent, not "
                f"unknown): .get({said}) gives None, as the field does"
            )
        if give_its_id(key) and (items is None or _record_id(key) in items):  # its row given for its id
            return f"{said} is not in this table, which is keyed by id: {give_its_id(key)}"
        if items is None:
            return f"{said} is not in this table"
        if isinstance(key, str) and all(isinstance(first, str) for first in islice(items, 1)):
            close = closest_id(key, items)
            if close is not None:
                return f"{said} is not in this table: did you mean {close!r}?"
        keys = ", ".join(repr(str(k)) if isinstance(k, str) else repr(k) for k in islice(items, 12))  # an id as its id
        more = ", ..." if len(items) > 12 else ""
        return f"{said} is not in this table: " + (f"its keys are {keys}{more}" if items else "it is empty")


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()

if not TYPE_CHECKING:  # hidden from type checkers: a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a table's class by its module and name: one this version lacks is said so.
        from .errors import absent

        raise absent(__name__, name, _RETIRED)
