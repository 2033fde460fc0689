"""Work reused where everything it read is the same: what a function read through an object, and
whether another object gives the same.

:func:`tracked` gives a stand-in for an object (a sheet's :class:`~civrules.emit.sheets.registry.Source`)
that records every read made through it: an attribute and the value read, a method or property and
its arguments and what it returned (the real object's method runs). An attribute named in ``deep``
gives a stand-in of its own (the source's ruleset), whose reads are recorded under its name.

:func:`same_reads` tells whether another object gives the same for every read: the very object, or
an equal value of a kind that is nothing but its value (text, numbers, None, and tuples, lists,
dicts and dataclasses of those, compared item by item: an entity or a collection in them must be
the very object). A function that reads nothing but through the stand-in then gives the same result
for both: a variant whose base's collections it keeps (:class:`civrules.pipeline.Shared` keeps them
the same objects) reuses what was made from them.

Once the function returns, :meth:`Record.seal` ends the stand-ins: a read made later through one
(the result kept a stand-in, and would read the first object's values for another) raises
:class:`LeakedStandInError` rather than give a wrong answer.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: One read: the path of attributes from the root to the object read, the name read, the
#: arguments of a call (None: an attribute read), and the value it gave.
Read = tuple[tuple[str, ...], str, tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]] | None, Any]

_ABSENT = object()


class LeakedStandInError(RuntimeError):
    """A stand-in was read after the function it was made for returned."""


class Record:
    """The reads made through the stand-ins of one :func:`tracked` object."""

    __slots__ = ("_seen", "open", "reads")

    def __init__(self) -> None:
        self.reads: list[Read] = []
        self.open = True
        #: The reads recorded already (an attribute read in a loop is recorded once).
        self._seen: set[object] = set()

    def add(self, read: Read) -> None:
        """Record ``read``, unless the same read (path, name, arguments) was recorded before."""
        path, name, call, _ = read
        try:
            key = (path, name, call)
            if key in self._seen:
                return
            self._seen.add(key)
        except TypeError:  # arguments that cannot be hashed: recorded each time
            pass
        self.reads.append(read)

    def seal(self) -> None:
        """End the stand-ins: any later read through them raises :class:`LeakedStandInError`."""
        self.open = False


class _Stand:
    """A stand-in for ``_real``: see the module documentation."""

    __slots__ = ("_deep", "_path", "_real", "_record")

    def __init__(self, real: object, record: Record, path: tuple[str, ...], deep: frozenset[str]) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_deep", deep)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance() sees the real object's class
        return type(object.__getattribute__(self, "_real"))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a stand-in of {type(object.__getattribute__(self, '_real')).__name__} is read-only")

    def __getattr__(self, name: str) -> Any:
        real = object.__getattribute__(self, "_real")
        record: Record = object.__getattribute__(self, "_record")
        path: tuple[str, ...] = object.__getattribute__(self, "_path")
        if not record.open:
            raise LeakedStandInError(
                f"`{'.'.join((*path, name))}` read through a stand-in after the work it was made for returned"
            )
        if name in object.__getattribute__(self, "_deep"):
            return _Stand(getattr(real, name), record, (*path, name), frozenset())
        static = inspect.getattr_static(type(real), name, _ABSENT)
        if callable(static) and not isinstance(static, type):  # a method (plain, class or static)
            method = getattr(real, name)

            def call(*args: Any, **kwargs: Any) -> Any:
                result = method(*args, **kwargs)
                if record.open:
                    record.add((path, name, (args, tuple(sorted(kwargs.items()))), result))
                return result

            return call
        value = getattr(real, name)  # a field, a slot or a property (its value recorded)
        record.add((path, name, None, value))
        return value


def tracked(real: object, deep: Sequence[str] = ()) -> tuple[Any, Record]:
    """A stand-in for ``real`` and the record of the reads made through it."""
    record = Record()
    return _Stand(real, record, (), frozenset(deep)), record


def same_reads(reads: Sequence[Read], root: object) -> bool:
    """Whether ``root`` gives the same for every read of ``reads`` (made through a stand-in of
    another object of its kind): then what was made from those reads is what ``root`` would give."""
    for path, name, call, value in reads:
        try:
            target = root
            for step in path:
                target = getattr(target, step)
            found: Any = getattr(target, name, _ABSENT)
            if found is _ABSENT:
                return False
            if call is not None:
                args, kwargs = call
                found = found(*args, **dict(kwargs))
        except Exception:  # noqa: BLE001 - a read that fails on ``root`` is not the same: the work runs again
            return False
        if not same(value, found):
            return False
    return True


#: The kinds that are nothing but their value.
_PLAIN = (str, int, float, bool, bytes, complex, type(None))


def same(a: object, b: object) -> bool:
    """``a`` is ``b``, or both are equal values of a kind that is nothing but its value: text,
    numbers and None; tuples, lists, dicts (in the same order) and sets of such values; a
    dataclass whose fields are each such a value or the very same object (a page box, not an
    entity made anew). Anything else must be the very object: comparing two collections entity
    by entity would cost more than the work it saves."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _PLAIN:
        return a == b
    if kind is tuple or kind is list:
        assert isinstance(a, (tuple, list)) and isinstance(b, (tuple, list))
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if kind is dict:
        assert isinstance(a, dict) and isinstance(b, dict)
        return len(a) == len(b) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if kind is set or kind is frozenset:
        assert isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset))
        return a == b and all(type(x) in _PLAIN for x in a)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        for item in dataclasses.fields(a):
            x, y = getattr(a, item.name), getattr(b, item.name)
            if x is not y and not (type(x) in _PLAIN and type(y) is type(x) and x == y):
                return False
        return True
    return False


def reuse_or_make(
    kept: dict[str, tuple[list[Read], Any]],
    key: str,
    root: object,
    make: Callable[[Any], Any],
    deep: Sequence[str] = (),
) -> Any:
    """``make(root)``, or what it gave last for ``key`` if ``root`` gives the same for every read it
    made then (``kept`` holds one result per key: the last one made)."""
    found = kept.get(key)
    if found is not None and same_reads(found[0], root):
        return found[1]
    stand, record = tracked(root, deep)
    try:
        made = make(stand)
    finally:
        record.seal()
    kept[key] = (record.reads, made)
    return made


#: What a run's work is kept in (:func:`sharing`): none installed, nothing is kept.
_stores: list[dict[str, tuple[list[Read], Any]]] = []


@contextlib.contextmanager
def sharing(store: dict[str, tuple[list[Read], Any]] | None) -> Iterator[None]:
    """Within the block, :func:`shared` answers from ``store`` (None: from nothing, as before)."""
    if store is None:
        yield
        return
    _stores.append(store)
    try:
        yield
    finally:
        _stores.pop()


def shared(key: str, root: object, make: Callable[[Any], Any], deep: Sequence[str] = ()) -> Any:
    """:func:`reuse_or_make` in the store installed by :func:`sharing`, or ``make(root)`` where none is."""
    if not _stores:
        return make(root)
    return reuse_or_make(_stores[-1], key, root, make, deep)
