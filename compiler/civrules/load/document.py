"""A loaded YAML document: plain Python data plus the source span of every node."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from civrules.diagnostics import Span

#: The path of a node from the document root: mapping keys and list indexes.
NodePath = tuple[str | int, ...]

# A position is kept packed in one integer (start line, start column, end line, end column, 32 bits
# each): Span objects are made only when asked for. In a document's table a position is two 64-bit
# halves (line << 32 | column), stored in flat arrays, one entry per node.
_BITS = 32
_MASK = (1 << _BITS) - 1
#: A mapping with more entries than this is looked up through an index made on first use (the
#: entries of a smaller one are searched in place).
_INDEXED = 16


def pack_position(line: int, column: int, end_line: int, end_column: int) -> int:
    """A position as one integer (1-based lines and columns, the end column exclusive)."""
    return (min(line, _MASK) << 96) | (min(column, _MASK) << 64) | (min(end_line, _MASK) << 32) | min(end_column, _MASK)


def unpack_position(file: str, packed: int) -> Span:
    """The span of a packed position in ``file``."""
    return Span(file, packed >> 96, (packed >> 64) & _MASK, (packed >> 32) & _MASK, packed & _MASK)


class NodeTable:
    """The positions of a document's nodes in one flat array, six values per node.

    Node 0 is the root. The children of a mapping or a sequence are consecutive nodes, in the order
    they are written. The six values of node ``n`` (at ``6 * n``) are its start and end, its key's
    start and end (0: none, for a sequence item and the root), its first child (0: none recorded) and
    how many children it has; a position is a pair of halves, ``line << 32 | column``. ``keys[n]`` is
    a mapping entry's key (None otherwise). A path is found by walking down from the root: no tuple
    per node is kept (at 50× the synthetic ruleset's 400,000 nodes took 55 MB in path-keyed
    dictionaries; the table takes 56 bytes a node).
    """

    __slots__ = ("_indexes", "keys", "records", "unreachable", "unreachable_keys")

    def __init__(self) -> None:
        self.records = array("Q", bytes(6 * 8))
        self.keys: list[str | None] = [None]
        self._indexes: dict[int, dict[str, int]] = {}
        #: Nodes in the table that no path reaches any more, and how many of them are mapping
        #: entries (:meth:`spliced` leaves the nodes it replaces where they are: 0 in a reading).
        self.unreachable = 0
        self.unreachable_keys = 0

    def __len__(self) -> int:
        return len(self.keys)

    def reachable(self) -> tuple[int, int]:
        """How many nodes the root reaches (itself included), and how many of them are mapping
        entries: ``len(value_spans)`` and ``len(key_spans)`` of a document read without a
        diagnostic or spliced, without walking the table."""
        keys = self.keys
        return len(keys) - self.unreachable, len(keys) - keys.count(None) - self.unreachable_keys

    def add_block(self, records: array[int], keys: list[str | None]) -> int:
        """Append the children of one container (six values each, as above); returns the node
        number of the first."""
        block = len(self.keys)
        self.records.extend(records)
        self.keys.extend(keys)
        return block

    def set_root(self, start: int, end: int, first: int, count: int) -> None:
        self.records[0:6] = array("Q", (start, end, 0, 0, first, count))

    @property
    def empty(self) -> bool:
        return not self.records[0]

    def child(self, node: int, part: str | int) -> int:
        """The node of entry ``part`` of ``node`` (a key of a mapping, an index of a sequence); 0: none."""
        at = 6 * node
        count = self.records[at + 5]
        if not count:
            return 0
        first = self.records[at + 4]
        if isinstance(part, str):
            if self.keys[first] is None:
                return 0
            if count <= _INDEXED:
                try:
                    return self.keys.index(part, first, first + count)
                except ValueError:
                    return 0
            index = self._indexes.get(node)
            if index is None:
                index = self._indexes[node] = {
                    str(k): first + i for i, k in enumerate(self.keys[first : first + count])
                }
            return index.get(part, 0)
        if isinstance(part, bool) or not 0 <= part < count or self.keys[first] is not None:
            return 0
        return first + part

    def deepest(self, path: NodePath, node: int = 0, start: int = 0) -> tuple[int, int]:
        """The node of the longest recorded prefix of ``path``, and that prefix's length (walking on
        from ``node``, the node of ``path[:start]``, when given)."""
        for depth in range(start, len(path)):
            found = self.child(node, path[depth])
            if not found:
                return node, depth
            node = found
        return node, len(path)

    def find(self, path: NodePath) -> int:
        """The node at ``path``: -1 when it has none of its own (or the table is empty)."""
        if self.empty:
            return -1
        node, depth = self.deepest(path)
        return node if depth == len(path) else -1

    def packed(self, node: int) -> int:
        """The node's position, packed (see :func:`pack_position`)."""
        return self.records[6 * node] << 64 | self.records[6 * node + 1]

    def packed_key(self, node: int) -> int | None:
        """The position of the node's key, packed; None when it has none."""
        start = self.records[6 * node + 2]
        return start << 64 | self.records[6 * node + 3] if start else None

    def key_line(self, node: int) -> int:
        return self.records[6 * node + 2] >> 32

    def children(self, node: int) -> range:
        return range(self.records[6 * node + 4], self.records[6 * node + 4] + self.records[6 * node + 5])

    def ending_at(self, nodes: Iterable[int], end: int) -> NodeTable:
        """A copy of the table in which ``nodes`` end at ``end`` (a half: ``line << 32 | column``);
        the keys (and their lookup indexes) are shared, never changed once read."""
        table = NodeTable()
        table.records = self.records[:]
        table.keys = self.keys
        table._indexes = self._indexes
        table.unreachable, table.unreachable_keys = self.unreachable, self.unreachable_keys
        for node in nodes:
            table.records[6 * node + 1] = end
        return table

    def spliced(
        self, parent: int, first: int, last: int, donor: NodeTable, donated: range, moved: int, end: int, delta: int
    ) -> NodeTable:
        """A copy of the table in which items ``first`` to ``last`` of the sequence ``parent`` give
        way to the nodes ``donated`` of ``donor`` (consecutive children of one of its nodes) and what
        they hold, moved down by ``moved`` lines; every other position that starts after line ``end``
        moves by ``delta`` lines, and one that only ends after it, its end.

        No path is made: ``donor``'s nodes are appended with their child numbers moved, and the
        sequence's items are written over in place (as many as before) or given a new block. The
        nodes replaced stay in the table, unreachable (counted in :attr:`unreachable`); this table
        is left as it is (its keys, lookup indexes and records are copied, never changed).
        """
        table = NodeTable()
        records = self.records[:]
        keys = self.keys[:]
        indexes = dict(self._indexes)
        base = len(keys) - 1  # the donor's node r (r >= 1) is node base + r here
        step = moved << _BITS
        given = donor.records
        copied = array("Q")
        for at in range(6, len(given), 6):
            start, stop, key_start, key_stop, child, count = given[at : at + 6]
            if key_start:
                key_start, key_stop = key_start + step, key_stop + step
            copied.extend((start + step, stop + step, key_start, key_stop, child + base if count else 0, count))
        records.extend(copied)
        keys.extend(donor.keys[1:])
        at = 6 * parent
        block, count = records[at + 4], records[at + 5]
        removed, removed_keys = self._subtrees(range(block + first, block + last + 1))
        added, added_keys = donor._subtrees(donated)
        if len(donated) == last - first + 1:  # written over in place: no other item moves
            for offset, node in enumerate(donated):
                slot = block + first + offset
                records[6 * slot : 6 * slot + 6] = records[6 * (base + node) : 6 * (base + node) + 6]
                indexes.pop(slot, None)
            fresh = range(block + first, block + first + len(donated))
        else:
            items = [
                *range(block, block + first),
                *(base + node for node in donated),
                *range(block + last + 1, block + count),
            ]
            start = len(keys)
            for node in items:
                records.extend(records[6 * node : 6 * node + 6])
            keys.extend([None] * len(items))
            records[at + 4], records[at + 5] = (start if items else 0), len(items)
            fresh = range(start + first, start + first + len(donated))
        if delta:
            _shift(records, fresh, (end + 1) << _BITS, delta << _BITS)
        table.records, table.keys, table._indexes = records, keys, indexes
        nodes, keyed = self.reachable()
        table.unreachable = len(keys) - (nodes - removed + added)
        table.unreachable_keys = len(keys) - keys.count(None) - (keyed - removed_keys + added_keys)
        return table

    def _subtrees(self, nodes: Iterable[int]) -> tuple[int, int]:
        """How many nodes ``nodes`` and what they hold are, and how many of them are mapping entries."""
        records = self.records
        pending = list(nodes)
        count = keyed = 0
        while pending:
            node = pending.pop()
            count += 1
            at = 6 * node
            if records[at + 2]:
                keyed += 1
            if records[at + 5]:
                pending.extend(range(records[at + 4], records[at + 4] + records[at + 5]))
        return count, keyed

    def walk(self, node: int, path: NodePath) -> Iterator[tuple[NodePath, int]]:
        """Every recorded node under ``node``, with its path, in the order the reader finishes them:
        document order, a collection after what it holds (itself last)."""
        pending: list[tuple[NodePath, int, bool]] = [(path, node, False)]
        while pending:
            at, node, opened = pending.pop()
            children = self.children(node)
            if opened or not children:
                yield at, node
                continue
            pending.append((at, node, True))
            for child in reversed(children):
                key = self.keys[child]
                pending.append(((*at, key if key is not None else child - children.start), child, False))


def _shift(records: array[int], fresh: range, limit: int, shift: int) -> None:
    """Move by ``shift`` each position (a value's, a key's) of the nodes reachable in ``records``
    that starts at or after the half ``limit``, and the end of one that only ends there; the nodes
    ``fresh`` (and what they hold) are where they belong already. A node that ends before
    ``limit`` holds none that moves: it is not descended into."""
    pending = [0]
    while pending:
        node = pending.pop()
        at = 6 * node
        descend = records[at + 1] >= limit
        for half in (at, at + 2):
            start = records[half]
            if start >= limit:
                records[half] = start + shift
                records[half + 1] += shift
            elif start and records[half + 1] >= limit:
                records[half + 1] += shift
        if descend and records[at + 5]:
            pending.extend(
                child for child in range(records[at + 4], records[at + 4] + records[at + 5]) if child not in fresh
            )


class _Positions(Mapping[NodePath, int]):
    """A read-only view of a document's positions by path, packed (see :func:`pack_position`):
    of every value, or (``keys``) of the key of every mapping entry."""

    __slots__ = ("_keys", "_table")

    def __init__(self, table: NodeTable, keys: bool) -> None:
        self._table = table
        self._keys = keys

    def __getitem__(self, path: NodePath) -> int:
        node = self._table.find(path)
        if node >= 0:
            found = self._table.packed_key(node) if self._keys else self._table.packed(node)
            if found is not None:
                return found
        raise KeyError(path)

    def __iter__(self) -> Iterator[NodePath]:
        if self._table.empty:
            return
        for path, node in self._table.walk(0, ()):
            if not self._keys or self._table.packed_key(node) is not None:
                yield path

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: A document made with no ``anchors`` given has none (None is a name anchored twice).
_NO_ANCHORS: dict[str, NodePath] = {}


class Document:
    """Data read from one file, with positions kept beside it.

    ``data`` holds only dicts, lists, strings, ints, floats, bools and None. The position of each
    value and, for mapping entries, of its key are kept in a :class:`NodeTable` (:meth:`span` and
    :meth:`key_span` give spans; ``value_spans`` and ``key_spans`` are read-only views by path). A
    document may also be made from two path-keyed dicts of packed positions (``value_spans``,
    ``key_spans``), as it was before the table: those are then its positions. A path with no
    position inside an aliased subtree is located in the node the alias repeats (its anchor's,
    where it is written); any other path without one takes the span of its nearest ancestor.
    """

    # Weakly referable: what is made from a document is kept exactly as long as it lives
    # (civrules.support.memo.Attached), never past it.
    __slots__ = (
        "__weakref__",
        "_anchored",
        "_key_dict",
        "_value_dict",
        "aliases",
        "anchors",
        "data",
        "file",
        "refused",
        "table",
        "whole_floats",
    )

    def __init__(
        self,
        file: str,
        data: Any,
        value_spans: Mapping[NodePath, int] | None = None,
        key_spans: Mapping[NodePath, int] | None = None,
        refused: set[NodePath] | None = None,
        whole_floats: bool = False,
        aliases: dict[NodePath, NodePath] | None = None,
        *,
        table: NodeTable | None = None,
        anchors: dict[str, NodePath] | None = _NO_ANCHORS,
    ) -> None:
        self.file = file
        self.data = data
        self.table = table if table is not None else NodeTable()
        # Positions given by path (a document put together from another's, by hand or spliced).
        self._value_dict = value_spans if table is None and (value_spans or key_spans) else None
        self._key_dict = (key_spans or {}) if self._value_dict is not None else None
        #: Values the reader refused and replaced by null (already reported), not to be judged again.
        self.refused: set[NodePath] = refused if refused is not None else set()
        #: Whether a float with no fractional part (`1e3`, `45.0`) is in the data: JSON Schema
        #: validators other than civrules' own take it for an integer.
        self.whole_floats = whole_floats
        #: The path of each alias (`*pre`), and the path of the node it repeats (its anchor `&pre`):
        #: a part inside an alias is located where it is written.
        self.aliases: dict[NodePath, NodePath] = aliases if aliases is not None else {}
        #: The path of each anchored node (`&pre`) by its name; None when a name is given to two
        #: nodes (an alias then repeats the one written last before it, not one for the whole file).
        self.anchors: dict[str, NodePath] | None = {} if anchors is _NO_ANCHORS else anchors
        #: The node of each anchored path an alias repeats, and how deep it is recorded (made on first
        #: use): a part inside an alias is walked to from its anchor, not from the root again.
        self._anchored: dict[NodePath, tuple[int, int]] = {}

    def forget_positions(self) -> None:
        """Let the positions go, keeping the data (a build, once nothing will be located in this
        document again: at 50× the synthetic ruleset's tables held 17 MB through the rendering).
        Every span is then the file's own, with no line."""
        self.table = NodeTable()
        self._value_dict = None
        self._key_dict = None
        self.aliases = {}
        self.anchors = {}
        self._anchored = {}

    @property
    def value_spans(self) -> Mapping[NodePath, int]:
        """The packed position of every value, by path."""
        return self._value_dict if self._value_dict is not None else _Positions(self.table, keys=False)

    @property
    def key_spans(self) -> Mapping[NodePath, int]:
        """The packed position of the key of every mapping entry, by path."""
        return self._key_dict if self._key_dict is not None else _Positions(self.table, keys=True)

    def ending_at(self, paths: Iterable[NodePath], end_line: int, end_column: int) -> Document:
        """This document with the values at ``paths`` (each with a position) ending at ``end_line``,
        ``end_column``: the same data (the same objects), every other position as it is."""
        end = end_line << _BITS | end_column
        if self._value_dict is not None:
            values = dict(self._value_dict)
            for path in paths:
                values[path] = values[path] >> 64 << 64 | end
            return Document(
                self.file,
                self.data,
                values,
                self._key_dict,
                self.refused,
                self.whole_floats,
                self.aliases,
                anchors=self.anchors,
            )
        table = self.table.ending_at([self.table.find(path) for path in paths], end)
        return Document(
            self.file,
            self.data,
            None,
            None,
            self.refused,
            self.whole_floats,
            self.aliases,
            table=table,
            anchors=self.anchors,
        )

    def positions(self, keys: bool = False) -> Iterator[tuple[NodePath, int]]:
        """Each recorded position with its path, in the reader's order: ``value_spans.items()``
        (``keys``: ``key_spans.items()``) without looking each path up again from the root. A path
        written twice (a duplicate key, which the reader reports) gives each node's own position."""
        if self._value_dict is not None:
            yield from (self._key_dict if keys and self._key_dict is not None else self._value_dict).items()
            return
        table = self.table
        if table.empty:
            return
        for path, node in table.walk(0, ()):
            packed = table.packed_key(node) if keys else table.packed(node)
            if packed is not None:
                yield path, packed

    def _value(self, path: NodePath) -> int | None:
        """The packed position of the value at ``path`` itself."""
        if self._value_dict is not None:
            return self._value_dict.get(path)
        node = self.table.find(path)
        return self.table.packed(node) if node >= 0 else None

    def _key(self, path: NodePath) -> int | None:
        """The packed position of the key of the entry at ``path``."""
        if self._key_dict is not None:
            return self._key_dict.get(path)
        node = self.table.find(path)
        return self.table.packed_key(node) if node >= 0 else None

    def span(self, path: NodePath) -> Span:
        """The span of the value at ``path`` (or of its nearest recorded ancestor); a part inside an
        alias is located in the node the alias repeats, where it is written."""
        if self._value_dict is None:
            if self.table.empty:
                return Span.at(self.file)
            return unpack_position(self.file, self.table.packed(self._follow(path)[1]))
        path = self.written(path)
        for end in range(len(path), -1, -1):
            found = self._value_dict.get(path[:end])
            if found is not None:
                return unpack_position(self.file, found)
        return Span.at(self.file)

    def written(self, path: NodePath) -> NodePath:
        """``path``, or, for a part inside an alias, its path in the node the alias repeats."""
        if self._value_dict is None and not self.table.empty:
            return self._follow(path)[0]
        if not self.aliases or self._value(path) is not None:
            return path
        for _ in range(len(self.aliases) + 1):  # an alias inside an anchored node: follow again
            for end in range(len(path) - 1, -1, -1):
                repeated = self.aliases.get(path[:end])
                if repeated is not None:
                    path = (*repeated, *path[end:])
                    break
            else:
                return path
            if self._value(path) is not None:
                return path
        return path

    def _follow(self, path: NodePath) -> tuple[NodePath, int]:
        """:meth:`written` of ``path`` in the table, with the node of its longest recorded prefix:
        the path is walked once, and after each alias followed only the part below the anchor (a
        span inside an alias looked the path up from the root three times: every note at each of a
        card's credit lines named through an alias, at 700 cards 140,000 of them)."""
        table, aliases = self.table, self.aliases
        node, depth = table.deepest(path)
        if depth == len(path) or not aliases:
            return path, node
        for _ in range(len(aliases) + 1):  # an alias inside an anchored node: follow again
            for end in range(len(path) - 1, -1, -1):
                repeated = aliases.get(path[:end])
                if repeated is not None:
                    break
            else:
                return path, node
            path = (*repeated, *path[end:])
            anchored = self._anchored.get(repeated)
            if anchored is None:
                anchored = self._anchored[repeated] = table.deepest(repeated)
            node, depth = anchored
            if depth == len(repeated):
                node, depth = table.deepest(path, node, depth)
            if depth == len(path):
                return path, node
        return path, node

    def exact_span(self, path: NodePath) -> Span | None:
        """The span of the value at ``path`` itself, or None when it has none of its own."""
        found = self._value(path)
        return unpack_position(self.file, found) if found is not None else None

    def key_span(self, path: NodePath) -> Span:
        """The span of the key of the mapping entry at ``path``; its value's span if it has none."""
        found = self._key(path)
        if found is None and self.aliases:
            found = self._key(self.written(path))
        return unpack_position(self.file, found) if found is not None else self.span(path)

    def has_key(self, path: NodePath) -> bool:
        """Whether ``path`` is a mapping entry written in this document (its key has a position)."""
        return self._key(path) is not None

    def key_lines(self, path: NodePath) -> Iterator[tuple[str, int]]:
        """Each key of the mapping at ``path``, as written, with the line it starts on."""
        if self._key_dict is not None:
            node: Any = self.data
            for part in path:
                try:
                    node = node[part]
                except (KeyError, IndexError, TypeError):
                    return
            for key in node if isinstance(node, dict) else ():
                found = self._key_dict.get((*path, key))
                if found is not None:
                    yield key, found >> 96
            return
        at = self.table.find(path)
        if at < 0:
            return
        for child in self.table.children(at):
            key = self.table.keys[child]
            if key is not None:
                yield key, self.table.key_line(child)

    def paths_under(self, path: NodePath) -> Iterator[NodePath]:
        """The path of every value recorded under ``path`` (itself last), in document order."""
        if self._value_dict is not None:
            yield from (found for found in self._value_dict if found[: len(path)] == path)
            return
        node = self.table.find(path)
        if node >= 0:
            for found, _ in self.table.walk(node, path):
                yield found
