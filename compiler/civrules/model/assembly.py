"""Models of collections kept across a long-lived session's analyses, by what they are made of.

A family's assembly turns each resolved collection's entries into model objects. A builder that
declares what it reads (:func:`assembles`: the collections whose entries it turns into models,
and nothing else of the resolved ruleset) is a function of those entries alone, so a session
(:mod:`civrules.pipeline.incremental`) that installs a memo (:func:`assembling`) gets the model
it made before whenever every entry is the same: the same raw data object (an edit spliced into
another file leaves it so: :mod:`civrules.load.splice`; resolution keeps a base's entries as read)
and an origin in the same documents at the same paths. An edit to one file then assembles again
the collections written in it, and every other collection's models are the ones made before. Within a
collection assembled again, a model made of one entry alone (:func:`each`: one entity) is
the one made before where that entry is the same: a variant's collection, whose merged entities
resolution makes anew, assembles those again and takes its base's others.

What one :meth:`Assembled.next_round` did not ask for is let go at the following one: the memo
holds the models of the last two rounds, no more. A command of several rulesets installs one for
the run (:class:`civrules.pipeline.Shared`): a variant takes its base's models of the entries it
keeps. A command of one ruleset installs none: every builder runs.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from civrules.model import Link, Origin, Records, WriterLog

#: An entry's raw data (C: no Python frame per entry).
_RAW = operator.attrgetter("raw")


class _Entry(Protocol):
    @property
    def origin(self) -> Origin: ...

    @property
    def raw(self) -> Any: ...


class _Resolved(Protocol):
    @property
    def collections(self) -> Mapping[str, Sequence[_Entry]]: ...


R = TypeVar("R", bound=_Resolved)
T = TypeVar("T")
E = TypeVar("E")


class Assembled:
    """The models builders made, by the identity of the entries they were made of.

    ``made`` and ``reused`` count the builders run and the models given back (for tests: reuse is
    counted, never timed)."""

    def __init__(self) -> None:
        self._now: dict[tuple[object, ...], tuple[tuple[_Entry, ...], Any]] = {}
        self._before: dict[tuple[object, ...], tuple[tuple[_Entry, ...], Any]] = {}
        self._made: dict[tuple[object, ...], tuple[tuple[Any, ...], Any]] = {}
        self._made_before: dict[tuple[object, ...], tuple[tuple[Any, ...], Any]] = {}
        self.made = 0
        self.reused = 0
        #: Models of one entry made, and given back (see :func:`each`).
        self.entities_made = 0
        self.entities_reused = 0
        #: Of ``entities_reused``, the models given back with the entry's new origin (see :meth:`entity`).
        self.entities_relocated = 0

    def next_round(self) -> None:
        """Start a round: what the round before last asked for and this one did not is let go."""
        self._before, self._now = self._now, {}
        self._made_before, self._made = self._made, {}

    def entity(self, build: Callable[[Origin, Any], E], origin: Origin, raw: Any) -> E:
        """``build(origin, raw)``, or the model it gave for the same entry (:meth:`made_of`).

        An entry of a file read again where the edit did not fall (:mod:`civrules.load.splice`
        keeps its data the very object) has an origin in the new reading, at the same path and
        with the same records: the model made before, given that origin, is what ``build`` would
        make (:func:`each`'s builders keep the origin as the entity's ``origin`` and read nothing
        else of it), and every other entry of a variant's overlay of 5,000 cards is not made again
        after an edit of one."""
        key = (build, None, id(raw))
        found = self._made.get(key) or self._made_before.get(key)
        if found is not None and found[0][1] is raw:
            kept_origin: Origin = found[0][0]
            kept_model = found[1]
            # Not the same origin (that is given back below), but the same place with the same
            # records in another reading of the same file (here, or in the records of its
            # changes): the entry's new origin.
            if (
                (kept_origin.document is not origin.document or not same_origin(kept_origin, origin))
                and getattr(kept_model, "origin", None) is found[0][0]
                and same_origin(kept_origin, origin, read_again=True)
            ):
                relocated: E = _with_origin(kept_model, origin)
                self._made[key] = ((origin, raw), relocated)
                self.entities_reused += 1
                self.entities_relocated += 1
                return relocated
        return self.made_of(build, (origin, raw))

    def made_of(self, build: Callable[..., T], parts: tuple[Any, ...]) -> T:
        """``build(*parts)``, or the model it gave for the same parts (see :func:`made_of`)."""
        key = (build, *(None if isinstance(part, Origin) else id(part) for part in parts))
        found = self._made.get(key) or self._made_before.get(key)
        # The kept entry holds its parts: an id that matches names the same object.
        if found is not None and all(
            same_origin(kept, part) if isinstance(part, Origin) and isinstance(kept, Origin) else kept is part
            for kept, part in zip(found[0], parts, strict=True)
        ):
            self._made[key] = found
            self.entities_reused += 1
            kept_model: T = found[1]
            return kept_model
        made = build(*parts)
        self._made[key] = (parts, made)
        self.entities_made += 1
        return made

    def of(self, build: Callable[[R], T], reads: tuple[str, ...], resolved: R) -> T:
        """``build(resolved)``, or the model it gave for the same entries of ``reads``."""
        collections = resolved.collections
        listed = [collections.get(name, ()) for name in reads]
        # Made without a Python frame per entry (map, attrgetter): a base's collections are asked
        # for by each variant that copies them, thousands of entries each.
        entries = tuple(itertools.chain.from_iterable(listed))
        key = (build, *map(len, listed), *map(id, map(_RAW, entries)))
        found = self._now.get(key) or self._before.get(key)
        # The kept entries hold their raw data: ids that match name the same objects. A variant
        # that keeps its base's entries holds the very entries: told without comparing origins.
        if found is not None and (
            all(map(operator.is_, found[0], entries))
            or all(
                kept.raw is entry.raw and same_origin(kept.origin, entry.origin)
                for kept, entry in zip(found[0], entries, strict=True)
            )
        ):
            # kept with the entries asked for now: each variant that copies them asks next, and
            # finds them the very entries (entries read again compared once, not once per variant)
            self._now[key] = (entries, found[1])
            self.reused += 1
            made: T = found[1]
            return made
        made = build(resolved)
        self._now[key] = (entries, made)
        self.made += 1
        return made


#: The fields an entity's class holds (:func:`_with_origin`), by class; empty where its instances
#: are not copied slot by slot (a class with ``__post_init__`` or instances with a ``__dict__``).
_COPIED: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}

#: A frozen value's field set, as its ``__init__`` sets it.
_SET = object.__setattr__


def _with_origin(model: Any, origin: Origin) -> Any:
    """``model`` (a frozen dataclass with an ``origin`` field) with ``origin`` in place: what
    ``dataclasses.replace`` gives. A slotted frozen value (``@frozen_value``: its ``__init__``
    sets each field as given, nothing else) is copied field by field without a Python frame per
    field, not made again through its ``__init__`` with a mapping of keywords: a splice
    relocates every entity of the file it read again outside the edit (6,343 in a map 13 times
    the shipped one)."""
    cls = type(model)
    copied = _COPIED.get(cls)
    if copied is None:
        fields = tuple(one.name for one in dataclasses.fields(model))
        plain = not hasattr(cls, "__post_init__") and not hasattr(model, "__dict__") and len(fields) >= 2
        copied = _COPIED[cls] = (fields, operator.attrgetter(*fields)) if plain else ((), tuple)
    names, values = copied
    if not names:
        return dataclasses.replace(model, origin=origin)
    made = object.__new__(cls)
    collections.deque(map(_SET, itertools.repeat(made), names, values(model)), maxlen=0)
    _SET(made, "origin", origin)
    return made


#: An origin's records beside its document and path (:func:`same_origin`), and what an origin of
#: no changes, base, moves, replacements or writers holds.
_RECORDS = operator.attrgetter("changes", "base", "moved", "replaced", "writers", "changed_by", "earlier_moved")
_NO_RECORDS: tuple[Any, ...] = ((), None, (), (), (), (), ())


def same_origin(a: Origin, b: Origin, *, read_again: bool = False) -> bool:
    """Whether ``a`` and ``b`` name the same place in the same document objects (equal origins
    compare paths only; a model's spans are read from its origins' documents).

    With ``read_again``, a document may be another reading of the same file (the same place in
    the file as read now: what an entry outside an edit spliced into its file has)."""
    if a is b:
        return True
    if a.document is not b.document and not (read_again and a.document.file == b.document.file):
        return False
    if a.path != b.path:
        return False
    # Most origins (every entity of a base's file) hold no records: told at once, not record by
    # record (a splice compares every entity of the file outside the edit: 6,343 in a large map).
    if _RECORDS(a) == _NO_RECORDS == _RECORDS(b):
        return True
    if a.moved != b.moved or len(a.changes) != len(b.changes):
        return False
    if any(
        name != other or not same_origin(x, y, read_again=read_again)
        for (name, x), (other, y) in zip(a.changes, b.changes, strict=True)
    ):
        return False
    if len(a.replaced) != len(b.replaced) or not all(
        same_origin(x, y, read_again=read_again) for x, y in zip(a.replaced, b.replaced, strict=True)
    ):
        return False
    # what every overlay entry that changed a field wrote, not only its last changer's (a session
    # that took an entity whose earlier changers differ would cite and locate it by the old ones)
    if not (
        _same_records(a.changed_by, b.changed_by, read_again)
        and _same_records(a.writers, b.writers, read_again)
        and _same_records(a.earlier_moved, b.earlier_moved, read_again)
    ):
        return False
    if a.base is None or b.base is None:
        return a.base is b.base
    return same_origin(a.base, b.base, read_again=read_again)


def _same_records(a: Any, b: Any, read_again: bool = False) -> bool:
    """Whether two of an origin's records (tuples and linked pairs of names, paths, origins and the
    elements a list operation wrote, logs of what wrote a field) hold the same: origins as
    :func:`same_origin` says, elements, field values and what a log merged by identity (values
    read are never changed), the rest by equality. Walked with a stack, not by recursion: a chain
    of n entries changing one field is n links deep (a recursion per link overflowed the stack)."""
    if a is b:  # most entities have no records: the same empty tuple
        return True
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if x is y:
            continue
        # an origin's records of many fields, appended to (:class:`Records`): read as their tuple
        x, y = (x.whole() if type(x) is Records else x), (y.whole() if type(y) is Records else y)
        if isinstance(x, Origin) or isinstance(y, Origin):
            if not (isinstance(x, Origin) and isinstance(y, Origin) and same_origin(x, y, read_again=read_again)):
                return False
        elif isinstance(x, Link) and isinstance(y, Link):
            continue  # what stands for a link of a chain of records: no fact of it
        elif isinstance(x, WriterLog) or isinstance(y, WriterLog):
            if not (isinstance(x, WriterLog) and isinstance(y, WriterLog)):
                return False
            if x.cut != y.cut or x.merge is not y.merge:
                return False
            pending += [(x.before, y.before), (x.start, y.start), (x.mine, y.mine)]
            pending.append((tuple(map(tuple, x.patched)), tuple(map(tuple, y.patched))))
        elif isinstance(x, tuple) and isinstance(y, tuple):
            if len(x) != len(y):
                return False
            pending += zip(x, y, strict=True)
        elif not ((isinstance(x, (str, int)) or x is None) and x == y):
            return False  # an element another reading made: not the same
    return True


#: The memo installed by :func:`assembling` (none: every builder runs, as a command of one ruleset does).
_assembled: list[Assembled] = []


@contextlib.contextmanager
def assembling(memo: Assembled) -> Iterator[None]:
    """Within the block, builders declared with :func:`assembles` answer from ``memo``."""
    _assembled.append(memo)
    try:
        yield
    finally:
        _assembled.pop()


def each(build: Callable[[Origin, Any], E], entries: Iterable[tuple[Origin, Any]]) -> list[E]:
    """``build(origin, raw)`` of each entry: a model made of that entry alone, reused (within an
    installed memo) where the entry is the same as when it was made.

    ``build`` keeps ``origin`` as the model's ``origin`` field and reads nothing else of it (the
    place is looked up from the model when a check reports one): an entry read again at the same
    place of its file is given its model made before with its new origin (:meth:`Assembled.entity`)."""
    if not _assembled:
        return [build(origin, raw) for origin, raw in entries]
    memo = _assembled[-1]
    return [memo.entity(build, origin, raw) for origin, raw in entries]


def made_of(build: Callable[..., T], *parts: Any) -> T:
    """``build(*parts)``: a model made of ``parts`` alone (a setting's value and its origin), reused
    (within an installed memo) where each part is the same: the very object, an origin the same
    place in the same documents. A variant that keeps its base's setting keeps its model."""
    if not _assembled:
        return build(*parts)
    return _assembled[-1].made_of(build, parts)


def assembles(*reads: str) -> Callable[[Callable[[R], T]], Callable[[R], T]]:
    """Declare that a builder reads the entries of the collections ``reads`` of the resolved
    ruleset and nothing else of it: its model is reused where they are the same (see above)."""

    def declare(build: Callable[[R], T]) -> Callable[[R], T]:
        @functools.wraps(build)
        def built(resolved: R) -> T:
            if not _assembled:
                return build(resolved)
            return _assembled[-1].of(build, reads, resolved)

        return built

    return declare
