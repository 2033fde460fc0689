"""The typed model of a resolved ruleset: frozen values built once from validated documents.

Every entity keeps its :class:`Origin` (the document and node path it was read from), so a check
can point at the exact key or value a designer must edit. Facts the sources do not give are
:class:`Unknown` values, never zeros.
"""

from __future__ import annotations

import bisect
import os
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from operator import itemgetter
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar, Generic, TypeVar, overload

from civrules.diagnostics import Span, blanks
from civrules.load.document import Document, NodePath
from civrules.support import memo
from civrules.support.values import frozen_value

#: Every overlay entry that changed a field, the last first, each with those before it (None:
#: no more): added to without copying what is there (n entries changing one field: not n² copies).
Changers = tuple["Origin", "Changers | None"]
#: Where an earlier overlay entry's list operations wrote an element (Origin.earlier_moved), the
#: last recorded first, each with those before it: the element's place (its token in
#: :data:`Slots`, then the path inside it), the entry, and where the entry wrote it; and the
#: link's :class:`Link`, by which what is made from the chain is kept (:func:`linked`).
Moves = tuple[tuple["NodePath", "Origin", "NodePath"], "Moves | None", "Link"]
#: One list's records of where earlier overlay entries wrote its elements (Origin.earlier_moved):
#: the token of each place of the list (None: no record names it), in the list's order (the
#: places after them, appended since, have none), how many tokens were given, the records
#: (:data:`Moves`), each naming its place by its token, and those that entries only appending
#: since made, each naming its place by its index. A token goes with its element from list to list
#: as later list operations change the list around it (civrules.resolve._carried), so that a
#: change does not place every record again.
Slots = tuple[tuple["int | None", ...], int, "Moves | None", "Moves | None"]

#: What writes a field's facts (civrules.resolve.Writer): an overlay entry (None: the definition),
#: the paths of the elements of a list it wrote still there, and those elements.
_Writer = tuple["Origin | None", tuple[NodePath, ...], tuple[Any, ...]]


class WriterLog:
    """What each overlay entry that changed one field did to it, the last first, each with those
    before (:attr:`Origin.writers`): what it writes (``mine``), and how it takes facts from the
    entries before (``cut``: all of them; ``merge``: the keys of a mapping it merged; a list's
    elements each record claims by count, civrules.resolve._writing). Added to without looking at
    what is there, so that n entries changing one field cost n, not n² (a pass over every earlier
    entry's record per change was the square of them); what still writes the field is worked out
    once, when asked (civrules.resolve.field_writers), and kept in ``found``, with what the later
    changes took of the elements the entries wrote in ``lost``. It holds no value of the field:
    the list each of n appends left, kept by each change, was the square of them in memory (the
    origin keeps the field's value as its entity holds it beside the log)."""

    __slots__ = ("_elements", "_mine", "_whole", "before", "cut", "found", "lost", "merge", "patched", "start")

    def __init__(
        self,
        before: WriterLog | None,
        start: tuple[_Writer, ...],
        mine: _Writer | None,
        *,
        cut: bool,
        merge: Any,
        whole: tuple[Origin, list[Any]] | None = None,
    ) -> None:
        #: The log of the field before this change (None: ``start`` is what wrote it before).
        self.before = before
        #: What wrote the field before the first change logged: its definition, or its last changer.
        self.start = start
        #: What this change writes, but a list it wrote whole (:attr:`mine`).
        self._mine = mine
        #: Its elements apart, once :meth:`stand_in` puts a token in place of one (most changes never
        #: have one: :attr:`mine` is read as it was written, not made anew at each read).
        self._elements: list[Any] | None = None
        #: A list field this change wrote whole: the entry, the list and its length then (:attr:`mine`).
        self._whole = None if whole is None else (whole[0], whole[1], len(whole[1]))
        #: No fact written before this change is left (the field written whole, deleted, unknown).
        self.cut = cut
        #: The mapping this change merged into the field key by key (None: it merged none).
        self.merge = merge
        #: What still writes the field after this change, once worked out (civrules.resolve).
        self.found: list[tuple[_Writer, ...]] = []
        #: What the changes up to this one took of the elements of a list the overlay entries wrote
        #: (an element removed, or written whole over; what a `patch:` wrote over in one), each as
        #: the entry and the path in what it wrote for the field, once worked out with ``found``.
        self.lost: list[tuple[Origin, NodePath]] = []
        #: Each element this change's `patch:` list operations merged into: the element it left,
        #: the element as it was, and the operation's `with:` and `where:` (the earlier writer of
        #: the element keeps what the `with:` did not write over).
        self.patched: list[list[Any]] = []

    def stand_in(self, place: tuple[int, int], token: Any) -> None:
        """Hold ``token`` at ``place`` of this change's records, where they held an element a later
        patch merged anew (civrules.resolve._Owned.stand_in): which element of :attr:`patched`
        (``place[0]``), and there the element it left (0) or as it was (1); or which element of
        what it writes (-1, ``place[1]``). The records follow an element by its identity alone."""
        which, at = place
        if which < 0:
            if self._elements is None:
                self._elements = list(self._mine[2]) if self._mine is not None else []
            self._elements[at] = token
        else:
            self.patched[which][at] = token

    @property
    def mine(self) -> _Writer | None:
        """What this change writes (None: it writes no fact: a `null`, a `remove:`, an `{unknown}`).

        A list field it wrote whole is its, every element, each at its index: made when asked
        (:func:`civrules.resolve._writing` asks the last change that wrote the field whole, once),
        not at each change. The list an entry left is its entity's, which the next entries of a
        block may grow in place, but only at its end (civrules.resolve._OWNED): its first elements,
        as many as it had then, are the ones this change left. Made at each change, the record was
        the whole list each time: for `rule:`, every section cited so far, which n entries each
        citing a section of their own as a list copied the square of n times (round 26)."""
        if self._whole is None:
            if self._elements is not None and self._mine is not None:
                return (*self._mine[:2], tuple(self._elements))
            return self._mine
        at, items, length = self._whole
        return (at, tuple((k,) for k in range(length)), tuple(items[:length]))


@frozen_value
class Unknown:
    """A fact the sources do not give; ``reason`` says why."""

    reason: str


@frozen_value(weakref=True)
class Origin:
    """Where an entity was read from: a document and the path of its node.

    A variant that patches fields of an entity records, per top-level field, the overlay entry that
    last changed it (``changes``); spans of those fields point there. ``base`` is the base
    ruleset's definition of an entity a variant replaced (or removed and added again), and
    ``replaced`` every definition it stands in place of, each as it stood (with what patched it):
    none of their facts holds any more.
    """

    document: Document = field(compare=False, repr=False)
    path: NodePath
    changes: Sequence[tuple[str, Origin]] = ()
    base: Origin | None = None
    #: Elements a variant's list operations wrote (`append: [numidia]`): their path in the entity,
    #: and where the overlay entry that changed the field wrote them.
    moved: tuple[tuple[NodePath, NodePath], ...] = field(default=(), compare=False, repr=False)
    #: The definitions this one took the place of, earliest first (a base's entity and a variant's
    #: `replace` of it, before a later variant's `replace`, or a `remove` then an `add` of its key).
    replaced: tuple[Origin, ...] = field(default=(), compare=False, repr=False)
    #: Per field a variant changed, the log of what each overlay entry that changed it wrote
    #: (:class:`WriterLog`) and the field's value as it left it, from which what still writes a
    #: fact in it is worked out (civrules.resolve.field_writers: the overlay entries, None for the
    #: definition, each with the paths of the elements it wrote that are still there and those
    #: elements). ``changes`` keeps only the last changer, which may only have deleted something
    #: (a list's `remove:`). A field with no record is written by its last changer.
    writers: Sequence[tuple[str, WriterLog, Any]] = field(default=(), compare=False, repr=False)
    #: Per field a variant changed, every overlay entry that changed it, earliest first (``changes``
    #: keeps the last): what each wrote over of the definition, or of an earlier entry, no longer
    #: holds (civrules.checks.citations.superseded). A field with no record: its last changer.
    changed_by: Sequence[tuple[str, Changers]] = field(default=(), compare=False, repr=False)
    #: Per field (a list setting: ``""``, its elements), the elements the list operations of an
    #: overlay entry other than the field's last changer wrote: each by its place in the list
    #: (:data:`Slots`: an element no longer there names none), that entry, and where it wrote them
    #: (as ``moved`` records the last changer's), so that each is located where it was written. A
    #: change touches the records of its own fields' places only.
    earlier_moved: tuple[tuple[str, Slots], ...] = field(default=(), compare=False, repr=False)

    @property
    def file(self) -> str:
        return self.document.file

    def _earlier(self, sub: tuple[str | int, ...]) -> Origin | None:
        """Where an element at or above ``sub`` was written by an overlay entry other than its
        field's last changer (:attr:`earlier_moved`): the entity as that entry alone changed the
        field (a list setting: the setting as that variant changed it), which locates ``sub`` as
        it does for the last changer; None where none was."""
        if not self.earlier_moved or not sub:
            return None
        group = sub[0] if isinstance(sub[0], str) else ""
        slots = next((item for item in self.earlier_moved if item[0] == group), None)
        if slots is None:
            return None
        index = _moves_index(self, slots)
        # the deepest part at or above ``sub`` an earlier entry wrote (looked up, not searched for:
        # each of n elements located was a pass over the n records)
        best = next((found for k in range(len(sub), 0, -1) if (found := index.get(sub[:k])) is not None), None)
        if best is None:
            return None
        if any(sub[:k] in _moved_keys(self.moved) for k in range(len(best[0]) + 1, len(sub) + 1)):
            return None  # a field the last changer's `patch:` wrote inside an element an earlier entry wrote
        owner = best[1]
        # the same tuple for every part of the field that entry wrote (its index made once)
        moved = index.of(owner, best[0][:1])
        if isinstance(sub[0], int):
            # a list setting's element an earlier variant's list operations wrote: its setting there
            return Origin(owner.document, owner.path, base=self.base, moved=moved)
        return Origin(self.document, self.path, changes=((str(sub[0]), owner),), base=self.base, moved=moved)

    def _owner(self, sub: tuple[str | int, ...]) -> Origin | None:
        if sub and isinstance(sub[0], str):
            record = record_of(self.changes, sub[0])
            return None if record is None else record[1]
        return None

    def _moved_to(self, sub: tuple[str | int, ...]) -> tuple[NodePath, NodePath]:
        """The deepest part at or above ``sub`` a list operation wrote, and where it wrote it
        (``((), ())`` when none did)."""
        at = _moved_index(self.moved).at
        return next(((sub[:k], at[sub[:k]]) for k in range(len(sub), 0, -1) if sub[:k] in at), ((), ()))

    def _written(self, sub: tuple[str | int, ...]) -> tuple[str | int, ...]:
        """``sub`` as the overlay entry that changed it wrote it (inside its list operations)."""
        key, path = self._moved_to(sub)
        return (*path, *sub[len(key) :])

    def _wrote_whole(self, owner: Origin, sub: tuple[str | int, ...]) -> bool:
        """Whether ``owner`` wrote a whole value above ``sub``: an element its list operations
        replaced, inserted or appended, or, inside a `with:` (or the patch entry), a list, a
        scalar or an `{unknown}`. Such a value is all the variant's, where the base may have a
        value at the same index: what it lacks is missing there, not the base's."""
        key, path = self._moved_to(sub)
        if key and not _merged_field(path):
            return True  # `replace: [{where, with: ELEMENT}]`, `insert: [{..., items: [ELEMENT]}]`, `append: [ELEMENT]`
        node: Any = owner.document.data
        for part in (*owner.path, *path):
            node = _child(node, part)
        for part in sub[len(key) : -1]:
            if isinstance(node, list) or not isinstance(node, dict) or set(node) == {"unknown"}:
                return node is not _MISSING
            node = _child(node, part)  # a mapping is merged key by key (list operations: by index)
        return isinstance(node, list) or (node is not _MISSING and not isinstance(node, dict))

    def locate(self, sub: NodePath) -> tuple[Document, NodePath]:
        """The document that wrote the part ``sub`` of the entity, and the entity's path in it."""
        if (earlier := self._earlier(sub)) is not None:
            return earlier.locate(sub)
        owner = self._owner(sub)
        if owner is not None:
            return owner.locate(sub)
        return self.document, self.path

    def _patched_inside(self, sub: tuple[str | int, ...]) -> bool:
        """True when a variant's list operation patched fields of the part ``sub`` (`patch: [{where:
        ..., with: {...}}]`) and wrote no whole value at or above it: the part is the base's, its
        patched fields the variant's."""
        index = _moved_index(self.moved)
        return sub in index.under and not any(sub[:k] in index.at for k in range(len(sub) + 1))

    def _untouched(self, sub: tuple[str | int, ...]) -> bool:
        """True when the variant changed the field of ``sub`` element by element (list operations)
        and wrote nothing at, above or inside ``sub``: the part is still the base's."""
        if len(sub) < 2:
            return False
        index = _moved_index(self.moved)
        if sub[:1] not in index.at and sub[:1] not in index.under:
            return False  # no element of the field written
        return sub not in index.under and not any(sub[:k] in index.at for k in range(1, len(sub) + 1))

    def _where_written(self, owner: Origin, sub: tuple[str | int, ...]) -> Origin | None:
        """``owner``, unless the variant wrote nothing at ``sub`` itself (a field of a list element
        its `with:` left as the base had it): then None, the base's own place."""
        if not self.moved or not sub:
            return owner
        written = self._written(sub)
        if owner.document.exact_span((*owner.path, *written)) is not None or self._wrote_whole(owner, sub):
            return owner
        if self.document.exact_span((*self.path, *sub)) is not None:
            return None
        return owner

    def place(self, sub: NodePath) -> tuple[Document, NodePath]:
        """The document and the path in it where the part ``sub`` of the entity was written: in the
        overlay entry that changed it (inside its list operations' `with:`, `items:`), else here."""
        if (earlier := self._earlier(sub)) is not None:
            return earlier.place(sub)
        owner = self._owner(sub)
        if owner is not None and self._where_written(owner, sub) is not None:
            return owner.place(self._written(sub))
        return self.document, (*self.path, *(sub if owner is not None else self._written(sub)))

    def child(self, *sub: str | int) -> Origin:
        """The origin of a part of the entity (a list element of a setting, say).

        When a variant changed the part, the child is in the variant, with ``base`` at the base's
        definition of the part; when it patched fields of the part (a list operation's `with:`),
        the child is the base's, each patched field located at the value the variant wrote.
        """
        if (earlier := self._earlier(sub)) is not None:
            return earlier.child(*sub)
        owner = self._owner(sub)
        here = Origin(self.document, (*self.path, *sub), base=self.base.child(*sub) if self.base else None)
        if owner is not None and self._patched_inside(sub):
            fields: dict[str, list[tuple[NodePath, NodePath]]] = {}
            for key, path in _moved_index(self.moved).under.get(sub, ()):
                if isinstance(key[len(sub)], str):
                    fields.setdefault(str(key[len(sub)]), []).append((key[len(sub) :], path))
            changes: list[tuple[str, Origin]] = []
            for name, places in fields.items():
                tops = [path for key, path in places if len(key) == 1]
                if not tops:
                    continue
                top = tops[0]
                inner = tuple((key[1:], path[len(top) :]) for key, path in places if len(key) > 1)
                changes.append((name, Origin(owner.document, (*owner.path, *top[:-1]), moved=inner)))
            return replace(here, changes=tuple(sorted(changes, key=lambda c: c[0])))
        if owner is not None and self._untouched(sub):
            return here
        if owner is not None:
            written = self._written(sub)
            inner = tuple(
                (key[len(sub) :], path[len(written) :])
                for key, path in _moved_index(self.moved).under.get(sub, ())
                if path[: len(written)] == written
            )
            return Origin(owner.document, (*owner.path, *written), base=here, moved=inner)
        return here

    def span(self, *sub: str | int) -> Span:
        """The span of the entity's value at ``sub`` (the entity itself when empty)."""
        if (earlier := self._earlier(sub)) is not None:
            return earlier.span(*sub)
        owner = self._owner(sub)
        if owner is not None and self._where_written(owner, sub) is not None:
            return owner.span(*self._written(sub))
        return self.document.span((*self.path, *(sub if owner is not None else self._written(sub))))

    def key_span(self, *sub: str | int) -> Span:
        """The span of the key ``sub`` of the entity (its value's span where there is no key)."""
        if (earlier := self._earlier(sub)) is not None:
            return earlier.key_span(*sub)
        owner = self._owner(sub)
        if owner is not None and self._where_written(owner, sub) is not None:
            return owner.key_span(*self._written(sub))
        return self.document.key_span((*self.path, *(sub if owner is not None else self._written(sub))))

    def head(self) -> Span:
        """The first line of the entity: its `id` when it has one."""
        document = self.document
        id_path = (*self.path, "id")
        found = document.exact_span(id_path)
        if found is not None:
            return found
        span = self.span()
        return Span(span.file, span.line, span.column, span.line, span.column + 1)

    def defined_at(self, *sub: str | int) -> Span | None:
        """Where the base ruleset defined ``sub``, when a variant changed or replaced it; else None."""
        if self._owner(sub) is not None:
            return self.document.span((*self.path, *sub))
        if self.base is not None:
            return self.base.span(*sub)
        return None


_T = TypeVar("_T")


def unchained(chain: tuple[_T, Any] | tuple[_T, Any, Link] | None) -> list[_T]:
    """The items of a chain (:data:`Changers`, :data:`Moves`), earliest first."""
    found: list[_T] = []
    while chain is not None:
        found.append(chain[0])
        chain = chain[1]
    found.reverse()
    return found


class Link:
    """What stands for one link of a chain of records (:data:`Moves`, a tuple, which cannot be
    referred to weakly), so that what is made from the chain (:data:`_RECORDED`) is kept for
    exactly as long as the chain lives. Kept by the chain's identity, and the chain held beside it
    so that a reused id never matched, the records held every entry's origin, and so its document:
    a long-lived session kept every version of an edited file until 4,096 later chains pushed them
    out (round 30). It holds nothing, and compares as every other (:func:`linked` makes one)."""

    __slots__ = ("__weakref__",)


def linked(record: tuple[NodePath, Origin, NodePath], rest: Moves | None) -> Moves:
    """The chain of records ``rest`` with ``record`` recorded after them."""
    return (record, rest, Link())


class _Recorded:
    """The records of one chain (:data:`Moves`) by path, each path's in the order they were
    recorded, and each owner's (by identity): added to as the chain grows, one record a link, and
    shared by every shorter chain of the same links, which reads only its first ``size`` records.
    A list's records as each of n overlay entries left them, indexed anew for each (each entry's
    V007 located through every earlier entry's record), were the square of them. It holds no
    link of the chains (:data:`_RECORDED` keeps it by them)."""

    __slots__ = ("__weakref__", "at", "of_owner", "size")

    def __init__(self) -> None:
        self.size = 0
        self.at: dict[NodePath, list[tuple[int, Origin, NodePath]]] = {}
        self.of_owner: dict[int, list[tuple[int, NodePath]]] = {}

    def add(self, link: Moves) -> None:
        key, owner, path = link[0]
        self.at.setdefault(key, []).append((self.size, owner, path))
        self.of_owner.setdefault(id(owner), []).append((self.size, key))
        self.size += 1

    def latest(self, key: NodePath, size: int) -> tuple[int, Origin, NodePath] | None:
        """The last record of ``key`` among the first ``size``."""
        found = self.at.get(key)
        if not found:
            return None
        if found[-1][0] < size:
            return found[-1]
        k = bisect.bisect_left(found, size, key=lambda record: record[0])
        return found[k - 1] if k else None


#: The records of each chain indexed (by its head link's :class:`Link`, for as long as the chain
#: lives): its records (:class:`_Recorded`, which may have grown past it since) and how many of them
#: are its own. A chain a longer one grew the records of in place (each entry's chain grows the
#: one before's) refers to them weakly: they name the longer chain's entries (a variant's), which
#: an edit replaces, where the shorter chain (its base's) lives on; held, they kept the edited
#: versions alive through the base. The longest holds them, and it holds every shorter one.
_RECORDED: memo.Attached[Link, tuple[_Recorded | weakref.ref[_Recorded], int]] = memo.Attached()


def _recorded(chain: Moves | None) -> tuple[_Recorded, int]:
    """The records of ``chain`` (:class:`_Recorded`) and how many are its own: those of the
    longest chain it extends that was indexed, added to by its own links, when nothing grew them
    from that chain already (else made anew: another chain grew from the same links)."""
    if chain is None:
        return _Recorded(), 0
    links: list[Moves] = []
    link: Moves | None = chain
    found: tuple[Moves, _Recorded, int] | None = None
    while link is not None:
        hit = _RECORDED.get(link[2])
        if hit is not None:
            records = hit[0] if isinstance(hit[0], _Recorded) else hit[0]()
            if records is not None:
                found = (link, records, hit[1])
                break
        links.append(link)
        link = link[1]
    if found is not None and not links:
        return found[1], found[2]
    if found is not None and found[1].size == found[2]:
        recorded = found[1]  # nothing grew them past that chain: grown in place
        _RECORDED.put(found[0][2], (weakref.ref(recorded), found[2]))
    else:
        recorded = _Recorded()
        while link is not None:
            links.append(link)
            link = link[1]
    for link in reversed(links):
        recorded.add(link)
    _RECORDED.put(chain[2], (recorded, recorded.size))
    return recorded, recorded.size


class _MovesIndex:
    """The records of one field's :attr:`Origin.earlier_moved` by their path in the entity, each
    place's index counted once from the tokens (a record whose element is gone names no place), the
    latest record of a path the one kept; and each entry's (by its identity and the path's first
    part), in order: one tuple for every part of a field an entry wrote, not one made per part
    located (n elements an entry appended, each located, were n tuples of n records). Each path is
    looked up in the records of the chains (:func:`_recorded`), not placed from all of them: the
    records of a list as n entries each left it were n passes over them."""

    __slots__ = ("_index", "_owned", "_pending", "_pending_size", "_prefix", "_records", "_size", "_tokens")

    def __init__(self, field: tuple[str, Slots]) -> None:
        name, (tokens, _, chain, pending) = field
        self._prefix: NodePath = (name,) if name else ()
        self._tokens = tokens
        self._index = {token: i for i, token in enumerate(tokens) if token is not None}
        self._records, self._size = _recorded(chain)
        self._pending, self._pending_size = _recorded(pending)  # by index: recorded after the chain's
        self._owned: dict[tuple[int, NodePath], tuple[tuple[NodePath, NodePath], ...]] = {}

    def get(self, moved_to: NodePath) -> tuple[NodePath, Origin, NodePath] | None:
        """The latest record of the place ``moved_to``: the path, its owner, where it wrote it."""
        width = len(self._prefix)
        if len(moved_to) <= width or moved_to[:width] != self._prefix:
            return None
        at, rest = moved_to[width], moved_to[width + 1 :]
        if not isinstance(at, int):
            return None
        found = self._pending.latest((at, *rest), self._pending_size)
        if found is None and 0 <= at < len(self._tokens) and (token := self._tokens[at]) is not None:
            found = self._records.latest((token, *rest), self._size)
        return None if found is None else (moved_to, found[1], found[2])

    def of(self, owner: Origin, first: NodePath) -> tuple[tuple[NodePath, NodePath], ...]:
        """The places ``owner``'s records still hold whose path begins with ``first``, and where it
        wrote each, in the order the latest record of each was made."""
        kept = self._owned.get((id(owner), first))
        if kept is not None:
            return kept
        found: list[tuple[int, NodePath, NodePath]] = []
        for seq, key in self._records.of_owner.get(id(owner), ()):
            if seq >= self._size:
                break
            at = self._index.get(key[0]) if isinstance(key[0], int) else None
            latest = self._records.latest(key, self._size)
            if at is None or latest is None or latest[0] != seq:
                continue  # its element is gone, or a later record names its place
            if self._pending.latest((at, *key[1:]), self._pending_size) is None:
                found.append((seq, (*self._prefix, at, *key[1:]), latest[2]))
        for seq, key in self._pending.of_owner.get(id(owner), ()):
            if seq >= self._pending_size:
                break
            latest = self._pending.latest(key, self._pending_size)
            if isinstance(key[0], int) and latest is not None and latest[0] == seq:
                found.append((self._size + seq, (*self._prefix, *key), latest[2]))
        found.sort(key=lambda record: record[0])
        kept = tuple((moved_to, path) for _, moved_to, path in found if moved_to[:1] == first)
        self._owned[(id(owner), first)] = kept
        return kept


#: Each origin's index of its fields' records (:attr:`Origin.earlier_moved`), by field, each with
#: the records it was made from: kept for as long as the origin lives. Kept by the identity of the
#: records (a tuple, which cannot be referred to weakly), and the records held beside it so that a
#: reused id never matched, it held every entry's origin, and so its document (round 30).
_MOVES: memo.Attached[Origin, dict[str, tuple[Slots, _MovesIndex]]] = memo.Attached()


def _moves_index(origin: Origin, field: tuple[str, Slots]) -> _MovesIndex:
    """The index of ``field``, one of ``origin``'s :attr:`Origin.earlier_moved`."""
    indexes = _MOVES.get(origin)
    if indexes is None:
        indexes = _MOVES.put(origin, {})
    name, slots = field
    kept = indexes.get(name)
    if kept is None or kept[0] is not slots:
        kept = indexes[name] = (slots, _MovesIndex(field))
    return kept[1]


class _MovedIndex:
    """:attr:`Origin.moved` by path: where the list operations wrote each part (the first record
    of a path), and the records below each path (in order). Locating a part asks its own path and
    the paths above it, not every record: n elements located, each a pass over the n records
    where they were written, were the square of them."""

    __slots__ = ("at", "under")

    def __init__(self, moved: tuple[tuple[NodePath, NodePath], ...]) -> None:
        self.at: dict[NodePath, NodePath] = {}
        self.under: dict[NodePath, list[tuple[NodePath, NodePath]]] = {}
        for key, path in moved:
            self.at.setdefault(key, path)
            for k in range(len(key)):
                self.under.setdefault(key[:k], []).append((key, path))


_R = TypeVar("_R", bound=tuple[Any, ...])
_NAME = itemgetter(0)


class _RecordLog(Generic[_R]):
    """The records :func:`recorded` appended, in order, shared by the :class:`Records` each append
    made (each reads its first ``size``), and where each field's are (its records' indexes, in order)."""

    __slots__ = ("at", "items")

    def __init__(self, items: Iterable[_R]) -> None:
        self.items: list[_R] = []
        self.at: dict[str, list[int]] = {}
        for record in items:
            self.append(record)

    def append(self, record: _R) -> None:
        self.at.setdefault(record[0], []).append(len(self.items))
        self.items.append(record)


class Records(Sequence[_R]):
    """An origin's records of its fields (:attr:`Origin.changes`, :attr:`Origin.writers`,
    :attr:`Origin.changed_by`) once they are many: read as the tuple of one record per field in
    the order of their names that :func:`with_record` keeps, but made by appending each overlay
    entry's records to those before (:func:`recorded`), the tuple sorted once, when it is read
    whole (iterated, compared, hashed). Each of n entries writing a field of its own into one
    entity copied the tuple of every field written before it, three times (`entity-keys`: 1.45
    times linear at 10,000, round 32). A record of a field is looked up (:func:`record_of`) without
    the tuple: in the fields' records, the latest of the first ``size``."""

    __slots__ = ("_log", "_size", "_whole")

    def __init__(self, log: _RecordLog[_R], size: int) -> None:
        self._log = log
        self._size = size
        self._whole: tuple[_R, ...] | None = None

    def whole(self) -> tuple[_R, ...]:
        """The records as :func:`with_record` keeps them: the latest of each field, by name."""
        if self._whole is None:
            items = self._log.items
            latest = {items[k][0]: items[k] for k in range(self._size)}
            self._whole = tuple(sorted(latest.values(), key=_NAME))
        return self._whole

    def latest(self, name: str) -> _R | None:
        """The record of the field ``name``: the last appended among the first ``size``."""
        if self._whole is not None:
            return record_of(self._whole, name)
        places = self._log.at.get(name)
        if not places:
            return None
        if places[-1] < self._size:
            return self._log.items[places[-1]]
        k = bisect.bisect_left(places, self._size)
        return self._log.items[places[k - 1]] if k else None

    def newest(self) -> bool:
        """Whether no record was appended after this one's (:func:`recorded` appends in place)."""
        return self._size == len(self._log.items)

    def __len__(self) -> int:
        return len(self._log.at) if self.newest() else len(self.whole())

    def __bool__(self) -> bool:
        return self._size > 0

    @overload
    def __getitem__(self, index: int) -> _R: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[_R, ...]: ...

    def __getitem__(self, index: int | slice) -> _R | tuple[_R, ...]:
        return self.whole()[index]

    def __iter__(self) -> Iterator[_R]:
        return iter(self.whole())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records):
            return self.whole() == other.whole()
        return isinstance(other, tuple) and self.whole() == other

    def __hash__(self) -> int:
        return hash(self.whole())  # an equal tuple's

    def __repr__(self) -> str:
        return repr(self.whole())


#: The fewest records of an origin's field records that :func:`recorded` appends to (a
#: :class:`Records`) rather than copying (:func:`with_record`): an entity most entries patch a
#: field or two of keeps its few records in a tuple.
_APPENDED_FROM = 16


def recorded(records: Sequence[_R], record: _R) -> Sequence[_R]:
    """``records`` (as :func:`record_of` reads them) with ``record`` in place of its field's: as
    :func:`with_record` makes it while they are few (:data:`_APPENDED_FROM`), then appended to
    them (:class:`Records`), in place where no record was appended after theirs (the records an
    entity's previous entry left, which the next takes over), else to a copy. The records a later
    one of the same field replaced are copied away once they are as many as the fields (each
    entry's, kept, would hold every value an entry left in the field)."""
    if type(records) is Records:  # not isinstance: a Sequence, whose check is an ABC's (slow, per entry)
        if records.newest() and len(records._log.items) < 2 * len(records._log.at) + _APPENDED_FROM:
            log = records._log
        else:
            log = _RecordLog(records.whole())
    elif len(records) < _APPENDED_FROM:
        return with_record(tuple(records), record)
    else:
        log = _RecordLog(records)
    log.append(record)
    return Records(log, len(log.items))


def record_of(records: Sequence[_R], name: str) -> _R | None:
    """The record of the field ``name`` among an origin's records of its fields (:attr:`Origin.changes`,
    :attr:`Origin.writers`, :attr:`Origin.changed_by`, :attr:`Origin.earlier_moved`: one record
    per field, in the order of their names), or None: looked up, not searched for (an entity given
    a field by each of n entries searched every field written before at each, the square of n)."""
    if type(records) is Records:  # not isinstance (see recorded)
        return records.latest(name)
    at = bisect.bisect_left(records, name, key=_NAME)
    return records[at] if at < len(records) and records[at][0] == name else None


def with_record(records: tuple[_R, ...], record: _R) -> tuple[_R, ...]:
    """``records`` (as :func:`record_of` reads them) with ``record`` in place of its field's, or
    added in its name's place: the records in order without sorting them again (each of n entries
    sorting every field written before it was the square of n in comparisons)."""
    at = bisect.bisect_left(records, record[0], key=_NAME)
    after = at + 1 if at < len(records) and records[at][0] == record[0] else at
    return (*records[:at], record, *records[after:])


def without_record(records: tuple[_R, ...], name: str) -> tuple[_R, ...]:
    """``records`` (as :func:`record_of` reads them) without the record of the field ``name``."""
    at = bisect.bisect_left(records, name, key=_NAME)
    return (*records[:at], *records[at + 1 :]) if at < len(records) and records[at][0] == name else records


@memo.by_identity(4096)
def _moved_index(moved: tuple[tuple[NodePath, NodePath], ...]) -> _MovedIndex:
    return _MovedIndex(moved)


@memo.by_identity(4096)
def _moved_keys(moved: tuple[tuple[NodePath, NodePath], ...]) -> frozenset[NodePath]:
    """The paths in the entity of what ``moved`` (an origin's :attr:`Origin.moved`) records."""
    return frozenset(key for key, _ in moved)


_MISSING: Any = object()


def _child(node: Any, part: str | int) -> Any:
    """The value at ``part`` of ``node``, or :data:`_MISSING`."""
    if isinstance(node, dict) and isinstance(part, str):
        return node.get(part, _MISSING)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return _MISSING


def _merged_field(written: NodePath) -> bool:
    """Whether ``written`` (where a list operation wrote a part) is a field of a `patch:` entry's
    `with:`, merged into the element (``(..., "patch", i, "with", FIELD)``), rather than a whole
    element (``(..., "replace", i, "with")``, ``(..., "items", k)``, ``(..., "append", k)``)."""
    return len(written) >= 4 and written[-2] == "with" and isinstance(written[-3], int) and written[-4] == "patch"


def known(value: Any) -> Any:
    """A raw value, or an :class:`Unknown` when the data marks it `{unknown: why}`."""
    if isinstance(value, dict) and set(value) == {"unknown"}:
        return Unknown(str(value["unknown"]))
    return value


def rules_of(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """The rule sections an entity cites (``rule:`` as a string or a list)."""
    rule = raw.get("rule")
    if rule is None:
        return ()
    return (rule,) if isinstance(rule, str) else tuple(rule)


def source_of(raw: Mapping[str, Any]) -> str | None:
    """The secondary source an entry cites (``source:``), None where it writes none."""
    source = raw.get("source")
    return source if isinstance(source, str) else None


@frozen_value
class Entity:
    """Common to every collection element: id, name, citations, and where it was read."""

    id: str
    name: str | Unknown
    origin: Origin
    raw: Mapping[str, Any] = field(compare=False, repr=False)

    #: The field a variant's overlay names the entity by (`patch: [{id: ...}]`).
    KEY_FIELD: ClassVar[str] = "id"

    @property
    def display_name(self) -> str:
        return self.name if isinstance(self.name, str) else self.id

    @property
    def key(self) -> str:
        """What must be unique in the entity's collection: its id (a family's entity may add to it,
        as a game that prints one track per side and level)."""
        return self.id

    @property
    def names_itself(self) -> bool:
        """Whether the source writes the entity's `name` (else ``name`` falls back to its id)."""
        return "name" in self.raw

    @property
    def rules(self) -> tuple[str, ...]:
        return rules_of(self.raw)

    @property
    def source(self) -> str | None:
        """The public secondary source the entity cites (`source:`), where it writes one."""
        return source_of(self.raw)


E = TypeVar("E", bound=Entity, covariant=True)


@frozen_value(weakref=True)
class Collection(Generic[E]):
    """Entities of one kind in data order, with lookup by id (the first of duplicate ids wins).

    Where ids are unique (``unique_ids``), an entity restated (a second of its key and its name, as
    a variant's own file copying one of its base's) is I001's alone: iterating and counting see
    the first, the one references reach, so that a check counting the collection or summing over
    it does not tell the copy again as its own problem. Two entities of one id and other names are two facts, one
    misnamed (I001: rename one), and both are counted. ``items`` keeps every entity written."""

    name: str
    items: tuple[E, ...]
    by_id: Mapping[str, E] = field(compare=False, repr=False)
    #: Whether each entity's id must be unique (False where entities are keyed otherwise, as a
    #: map's borders by their pair of areas, checked by the family).
    unique_ids: bool = True
    #: What iterating and counting see: every entity but one restating an earlier one of its key
    #: (:attr:`Entity.key`, what I001 holds unique) and name; every entity where ids need not be unique.
    distinct: tuple[E, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, name: str, items: Sequence[E], *, unique_ids: bool = True) -> Collection[E]:
        index: dict[str, E] = {}
        first: dict[object, E] = {}
        distinct: list[E] = []
        for item in items:
            index.setdefault(item.id, item)
            earlier = first.setdefault(item.key, item)
            if earlier is item or item.name != earlier.name:
                distinct.append(item)  # two entities given one id are each counted: one is to be renamed
        whole = tuple(items)
        return cls(
            name, whole, index, unique_ids, tuple(distinct) if unique_ids and len(distinct) < len(whole) else whole
        )

    def __iter__(self) -> Iterator[E]:
        # a collection made without `of` (a copy of another's items) has no `distinct`: all are
        return iter(self.distinct or self.items)

    def __len__(self) -> int:
        return len(self.distinct or self.items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self.by_id

    def get(self, item_id: str) -> E | None:
        return self.by_id.get(item_id)

    def ids(self) -> list[str]:
        return list(self.by_id)


def setting_of(
    data: Mapping[str, Any],
    settings: Mapping[str, Mapping[str, Any]],
    origins: Mapping[str, Origin],
    key: str,
) -> tuple[Any, Origin] | None:
    """A setting's resolved value and origin, from the effective manifest ``data`` and the
    data-file ``settings`` (the manifest first); None if absent. A family's assembly reads its
    typed settings through this, as :meth:`Ruleset.setting` does."""
    origin = origins.get(key)
    if origin is None:
        return None
    if key in data:
        return data[key], origin
    for values in settings.values():
        if key in values:
            return values[key], origin
    return None


@frozen_value
class RuleIndex:
    """The sections of the ruleset's rulebook, for checking citations."""

    sections: frozenset[str]
    missing: frozenset[str]
    origin: Origin | None


def rule_index_of(document: Document | None) -> RuleIndex | None:
    """The sections a ruleset may cite: the rulebook's own (`sections`), plus the `missing` ones.

    Entries of an index other than these (a game's online help pages, whose
    paragraphs have a numbering of their own that clashes with the rulebook's) are not citable.

    A family's assembly makes it through :func:`civrules.model.assembly.made_of`
    (``made_of(rule_index_of, resolved.rule_index)``): a variant that reads its base's index file
    holds the base's very :class:`RuleIndex`, so a check whose findings are made of it
    (:func:`civrules.checks.made_of`, K003's hint citing `rule:` or `source:` as the index
    allows) runs once for both. Not kept with the document (:data:`_index_numbers` is): the index
    holds its document, and a value holding its key would keep every reading of the file.
    """
    if document is None or not isinstance(document.data, dict):
        return None
    numbers = _index_numbers.get(document)
    if numbers is None:
        numbers = _index_numbers.put(
            document, (_listed(document.data.get("sections")), _listed(document.data.get("missing")))
        )
    return RuleIndex(*numbers, Origin(document, ()))


def _listed(items: Any) -> frozenset[str]:
    return frozenset(
        item["section"] for item in items or () if isinstance(item, dict) and isinstance(item.get("section"), str)
    )


#: The numbers of :func:`rule_index_of`, kept with the index's document while it lives: every
#: ruleset reading one index (a base and each of its variants) holds the very same sets, so what
#: a check finds in them alone is kept with them (`checks.citations.rule_index`), not made again
#: in each ruleset after an edit of another file.
_index_numbers: memo.Attached[Document, tuple[frozenset[str], frozenset[str]]] = memo.Attached()


def description_of(manifest: Document) -> str | None:
    """A ruleset's own `description` (its manifest's, whitespace folded), for
    :attr:`Ruleset.description`: a variant that writes none has none, not its base's, which
    describes another ruleset. None where it has none."""
    data = manifest.data
    found = data.get("description") if isinstance(data, Mapping) else None
    return " ".join(found.split()) if isinstance(found, str) and found.strip() else None


def player_range(players: Mapping[str, Any]) -> tuple[int, int]:
    """The least and most players of a ruleset's `players` range (as written; 0 where it says
    none), for :attr:`Ruleset.players`. Made through
    :func:`civrules.model.assembly.made_of` (``made_of(player_range, players)``), a variant that
    leaves its base's range alone holds the base's very tuple: a check whose findings are made
    of it (:func:`civrules.checks.made_of`) is then run once for both."""
    return (players.get("min", 0), players.get("max", 0))


def best_players(players: object) -> int | None:
    """The number of players a ruleset's `players` range (as written) says the game is best with
    (`best`), for :attr:`Ruleset.best_players`; None where it names none."""
    best = players.get("best") if isinstance(players, Mapping) else None
    return best if isinstance(best, int) and not isinstance(best, bool) else None


@frozen_value(kw_only=True, weakref=True)
class Ruleset:
    """A resolved ruleset as every family has it: what the core's checks and emitters read.

    A family's model subclasses it with its typed collections (``collections()`` lists them).
    """

    id: str
    name: str
    #: The id of the ruleset's family (:mod:`civrules.families`).
    family: str
    manifest: Origin
    extends: str | None
    players: tuple[int, int]
    rule_index: RuleIndex | None
    documents: tuple[Document, ...] = field(compare=False, repr=False)
    settings: Mapping[str, Mapping[str, Any]] = field(compare=False, repr=False)
    removed: Mapping[str, Mapping[str, Origin]] = field(default_factory=dict, compare=False, repr=False)
    #: Each setting a variant removed: the removal, with what it removed as its ``base`` (resolution's
    #: ``removed_settings``).
    removed_settings: Mapping[str, Origin] = field(default_factory=dict, compare=False, repr=False)

    def collections(self) -> tuple[Collection[Entity], ...]:
        """Every collection of entities, in data-model order (the family's model lists them)."""
        return ()

    #: The effective manifest (a variant's own keys over its base's), for ruleset-level rules
    #: such as `victory` or a game's limits; collections are read from the typed fields above.
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    chain: tuple[str, ...] = ()  # the extends chain, base first, this ruleset last
    #: Where each setting (a top-level fact that is not a collection) was defined and changed.
    setting_origins: Mapping[str, Origin] = field(default_factory=dict, compare=False, repr=False)
    #: The position in ``chain`` of the ruleset that brought each file (by display name).
    layers: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    #: Each file's name in what civrules writes (by display name): resolution's ``names``.
    names: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: The number of players the source says the game is best with (`players.best`, see
    #: :func:`best_players`); None where it names none.
    best_players: int | None = None
    #: What the ruleset is, in a sentence or two (its own manifest's `description`, see
    #: :func:`description_of`); None where it has none.
    description: str | None = None

    def file_name(self, file: str) -> str:
        """How a file of this ruleset (by its name in diagnostics) is named in what civrules writes
        for others to read: a package's unknown facts, a sheet's sources, a message counting files.

        A file of the rules folder by its path in it (`cards/x.yaml`), a file shipped with civrules
        behind `<civrules>/` (`<civrules>/rulesets/my-game.yaml`): the same wherever
        civrules is installed and whatever the working directory
        (:meth:`civrules.load.workspace.Workspace.name_of`). A model built without its names (a
        family that does not pass them) names a file by its path from the manifest's rules folder.
        """
        named = self.names.get(file)
        if named is not None:
            return named
        root = os.path.dirname(os.path.dirname(self.manifest.file))
        try:
            relative = PurePosixPath(Path(os.path.relpath(file, root or ".")).as_posix())
        except ValueError:  # pragma: no cover - another drive on Windows
            return file
        return file if relative.parts[:1] == ("..",) else relative.as_posix()

    def setting(self, key: str) -> tuple[Any, Origin] | None:
        """A setting's resolved value (variants' changes applied) and its origin; None if absent."""
        return setting_of(self.data, self.settings, self.setting_origins, key)

    def changed_after(
        self, declared: Origin, collection: str, entities: Iterable[Entity], fields: tuple[str, ...]
    ) -> bool:
        """True when a later ruleset of the chain changed what a declaration counts.

        A declared total (of the cards of a deck, or of one kind in a stack) is the rulebook's statement
        about the deck of the ruleset that declares it. A variant that adds, removes or changes the
        ``fields`` of the counted entities without restating the total changes the deck on
        purpose: its total is the one derived from its data.
        """
        layer = self.layer(declared)
        if layer >= len(self.chain) - 1:
            return False  # declared by the last ruleset of the chain: none comes after it
        return self.latest_change(collection, entities, fields) > layer

    def latest_change(self, collection: str, entities: Iterable[Entity], fields: tuple[str, ...]) -> int:
        """The position in ``chain`` of the last ruleset that removed one of ``collection``, or
        wrote one of ``entities`` or its ``fields``: :meth:`changed_after` is this against a
        declaration's own position, and a caller with many declarations over the same entities
        (each trade stack's make-up) asks it once, not once per declaration."""
        if len(self.chain) <= 1:
            return 0
        latest = max((self.layers.get(r.file, 0) for r in self.removed.get(collection, {}).values()), default=0)
        for entity in entities:
            for sub in ((), *((f,) for f in fields)):
                latest = max(latest, self.layer(entity.origin, *sub))
        return latest

    def from_base(self, origin: Origin, *sub: str | int) -> bool:
        """True when ``sub`` of an entity or setting was last written by a base of this variant: a
        hint then says how to change it from the variant (its base's files are not the designer's)."""
        return len(self.chain) > 1 and self.layer(origin, *sub) < len(self.chain) - 1

    def citation_blank(self) -> str:
        """How a hint writes a citation only the designer can give, as a blank (L016): `rule:` where
        the rule index has sections to cite, else `source:` (a ruleset whose rulebook text is in no
        source cites transcriptions)."""
        index = self.rule_index
        if index is not None and index.sections:
            return f'rule: "{blanks.SECTION}"'
        return f'source: "{blanks.SOURCE}"'

    def layer(self, origin: Origin, *sub: str | int) -> int:
        """The position in ``chain`` of the ruleset that last wrote ``sub`` of an entity or setting."""
        if not origin.changes and not origin.earlier_moved:
            # changed by no overlay entry: every part of it is written where it is (Origin.place),
            # asked of each of a base's thousands of entities in each variant
            return self.layers.get(origin.document.file, 0)
        document, _ = origin.place(sub)
        return self.layers.get(document.file, 0)
