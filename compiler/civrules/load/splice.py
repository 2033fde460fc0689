"""Read again only the part of a file an edit changed: the items of one list.

An editor's change to a rule file usually falls inside one entry of a top-level list (an area of
``areas:``, a card of ``cards:``), or of a list in block mappings below the top (a card a
variant's manifest adds, ``overlay: cards: add:``). Reading the whole file again costs one Python
callback per node of it (0.4 s for an 839 KB map); :func:`splice_document` instead finds the lines
the edit changed (the common prefix and suffix of the old and the new text), the list items those
lines fall in, and reads just those items' lines again. Their data replaces the old items', their
positions are moved to where the lines are in the file, and every position after them moves by the
number of lines the edit added or removed.

The items' lines are read in a small text that puts them where they are in the file: a key
(``_:``) in the place of the list's own and of each mapping's above it, each at the indentation of
the key it stands for, the items' lines as written, and the line that follows them in the file (the
next item's first line, the next key of the list's mapping or of one above it, or the end of the
text), so that where libyaml ends each node (at the next token) is where it ends in the whole file. What the
edit did not touch keeps its data and positions; the result is the document a full read gives
(data, positions and their order), which ``tests/core/test_splice.py`` holds for random edits.
The positions are written into a copy of the old reading's table (:meth:`NodeTable.spliced`: the
items' nodes appended, no path made per node); the nodes they replace stay in it, unreachable,
until more of the table is unreachable than reachable, when the whole file is read again.

An edit of nothing but the blank and comment lines at the end of the file (a comment appended, say)
changes no node's data: none is read again. The reading is the old one, the same data objects, but
for the ends of the nodes that end where the text does (the root, its last entry, that entry's
last, and so on: a block collection ends at the next token, here the end of the text), which move
to the new end (:attr:`Spliced.ends`). It is taken only where that is certain: no node written
before the edit reaches into it (the last scalar ends before the edited lines; one that ends at the
end of the text, a block scalar, could take blank or indented `#` lines in), and the lines are
blank or comments, in spaces and printable characters.

A file with anchors and aliases is spliced when the items read again hold no anchored node and
name no anchor: an alias in them repeats a scalar anchored before them (given to the reader by
name, :func:`civrules.load.reader.read_yaml_text`'s ``anchors``), and is recorded where a full
reading records it; what every alias outside them repeats is left as it was.

Whenever that cannot be told for sure, None is returned and the caller reads the whole file: the
edit crosses the list's bounds or changes a top-level key, the old or the new reading has any
diagnostic (the reader's own wording and positions are then kept whole), the items read again
hold an anchored node or name an anchor (what later aliases repeat may change), an alias in the
file repeats a collection (it counts as its nodes toward the node bound), a name is anchored
twice, an item is added or removed before an anchor or an alias (its path moves), the file
holds a carriage return, or does not end with a line break, or the lines read again hold a
document marker (``---``, ``...``) or a directive, or the old reading's positions are given by
path (a document put together by hand) rather than in a table.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import cast

from civrules.load.document import Document, NodePath
from civrules.load.reader import Limits, read_yaml_text

_MASK = (1 << 32) - 1
_HALF = (1 << 64) - 1  # the end of a packed position (line << 32 | column)
#: A line that holds no node: blank, or a comment (tabs and control characters are left to the reader).
_TRIVIA = re.compile(r" *(?:#.*)?")
#: The start of an item's first line: its indentation and its dash (`  - id: ...`).
_DASH = re.compile(r"^( *)- +$")
#: The key standing in for the list's own in the text read again.
_STAND_IN = "_"
#: How many lines :func:`_common` compares at once (a list's equality, in C) before line by line.
_BLOCK = 256


@dataclass(frozen=True, slots=True)
class Spliced:
    """A document made by splicing, and what was read again: items ``first`` to ``first + count - 1``
    of the list at ``path`` (keys from the top; None: no node's data changed), in place of the items
    written on the old lines ``lines[0]`` to ``lines[1]``; every old line after those moved by
    ``lines[2]`` lines. With ``path`` None and ``ends`` set, only blank and comment lines at the end
    changed (the old lines from ``lines[0]`` on): a position that ended at the old text's end
    (line ``ends[0]``, column 1) ends at the new one's (line ``ends[1]``, column 1); every other
    position is as it was."""

    document: Document
    path: tuple[str, ...] | None
    first: int
    count: int
    lines: tuple[int, int, int] = (0, 0, 0)
    ends: tuple[int, int] | None = None

    def moved(self, line: int) -> int | None:
        """Where an old line ``line`` outside the items read again is now (None: inside them)."""
        start, end, delta = self.lines
        if self.path is None or line < start:
            return line
        return line + delta if line > end else None


def splice_document(old_text: str, old: Document, new_text: str, limits: Limits) -> Spliced | None:
    """The document ``new_text`` reads as, made from ``old`` (read from ``old_text``) by reading
    again only the list items the edit touched; None when the whole text must be read.

    ``old`` must be the reading of ``old_text`` that gave no diagnostic (the caller knows).
    """
    if old.anchors is None or old.refused or old.whole_floats or not isinstance(old.data, dict):
        return None
    if any(isinstance(_at_path(old.data, repeated), (dict, list)) for repeated in set(old.aliases.values())):
        return None  # an alias of a collection counts as its nodes toward the bound, not as one
    if not (old_text.endswith("\n") and new_text.endswith("\n")) or "\r" in new_text or "\r" in old_text:
        return None
    old_lines = old_text.split("\n")
    new_lines = new_text.split("\n")
    changed = _changed_lines(old_lines[:-1], new_lines[:-1])  # the lines the final line break ends
    if changed is None:
        return Spliced(old, None, 0, 0)  # the same text
    candidates, delta, prefix = changed
    if _trivia(old_lines, prefix) and _trivia(new_lines, prefix):
        return _trivia_tail(
            old, prefix, len(old_lines), len(new_lines)
        )  # 1-based lines of the old text; delta: lines added (removed < 0)
    if old.table.empty:
        return None  # positions given by path (a document put together by hand): no table to splice into
    found = None
    anchors = old.anchors.values()
    for first, last in candidates:
        found = _items_around(old, old_lines, first, last)
        if found is not None and found[5] + delta < found[4] and found[2] > 0 and first > 1:
            # Every line of the items removed, and no item after them: the item before them ends
            # where they ended (at what follows, a key further out), so it is read again too.
            start = found[4]
            dash = re.match(r" *- ", old_lines[start - 1])
            if dash is None or not new_lines[start - 1].startswith(dash.group()):
                found = _items_around(old, old_lines, first - 1, last)
        if found is not None and any(_inside(anchored, found[0], found[2], found[3]) for anchored in anchors):
            found = None  # an anchored node read again: what its aliases repeat may change
        if found is not None:
            break
    if found is None:
        return None
    path, indents, i1, i2, start, end = found  # the items i1..i2 of the list at `path` take the old lines start..end
    # What the items' aliases may repeat: the scalars anchored before them (a name is anchored once).
    known = {}
    for name, anchored in old.anchors.items():
        value, at = _at_path(old.data, anchored), old.exact_span(anchored)
        if not isinstance(value, (dict, list)) and at is not None and at.line < start:
            known[name] = (value, anchored)
    new_end = end + delta
    if new_end < start - 1:
        return None
    dash = _DASH.match(old_lines[start - 1][: (old.value_spans[(*path, i1)] >> 64 & _MASK) - 1])
    assert dash is not None  # _items_around checked it
    if not new_lines[start - 1].startswith(dash.group()):
        return None  # the list's indentation or the first item's dash changed
    if any(line.startswith(("---", "...", "%")) for line in new_lines[start - 1 : new_end]):
        return None  # a document's start or end, a directive: the whole file's structure changes
    follows = new_lines[new_end] if new_end < len(new_lines) - 1 else None
    depth = len(path)
    stand_ins = [f"{' ' * indent}{_STAND_IN}:" for indent in indents]
    chunk = "\n".join([*stand_ins, *new_lines[start - 1 : new_end], *([follows] if follows is not None else [])])
    read, problems = read_yaml_text(chunk + "\n", old.file, limits, anchors=known)
    if problems or read is None or read.refused or not isinstance(read.data, dict):
        return None
    if read.anchors != {name: anchored for name, (_, anchored) in known.items()}:
        return None  # the lines read again name an anchor: what later aliases repeat may change
    # Down the stand-ins: each mapping holds its stand-in, and one of them (the level of the key
    # that follows the items, if one does) that key besides.
    mappings: list[dict[str, object]] = []
    node: object = read.data
    for _ in range(depth):
        if not isinstance(node, dict) or _STAND_IN not in node:
            return None
        mappings.append(node)
        node = node[_STAND_IN]
    items = [] if node is None else node
    if not isinstance(items, list):
        return None
    listed_path = (_STAND_IN,) * depth
    old_list = _at(old.data, path)
    sentinel = follows is not None and follows.startswith(dash.group(1) + "-")
    wider = [level for level, mapping in enumerate(mappings) if len(mapping) != 1]
    if wider != ([] if sentinel or follows is None else wider[:1]) or any(len(mappings[k]) != 2 for k in wider):
        return None
    if follows is not None:
        # What follows the items must be read where it is written (the next item, or the next key),
        # not inside the last of them (an unclosed bracket or quote would take it in).
        after = new_end - start + 2 + depth  # its line in the chunk
        if sentinel:
            found_at = read.value_spans.get((*listed_path, len(items) - 1)) if items else None
        elif wider:
            level = wider[0]
            other = next(name for name in mappings[level] if name != _STAND_IN)
            found_at = read.key_spans.get((*listed_path[:level], other))
        else:
            found_at = None
        if found_at is None or found_at >> 96 != after:
            return None
        if sentinel:
            items = items[:-1]
    count = i2 - i1 + 1
    if not items and count == len(old_list):
        return None  # the list is emptied: a full reading says what its key then holds
    moving = (*old.anchors.values(), *old.aliases, *old.aliases.values())
    if len(items) != count and any(_inside(one, path, i2 + 1, len(old_list)) for one in moving):
        return None  # an anchor or an alias in an item after them: its path moves
    aliases = {one: repeated for one, repeated in old.aliases.items() if not _inside(one, path, i1, i2)}
    for one, repeated in read.aliases.items():
        if _inside(one, listed_path, 0, len(items) - 1):
            aliases[(*path, i1 + cast(int, one[depth]), *one[depth + 1 :])] = repeated
    if sum(_text_in(_at_path(old.data, repeated)) for repeated in aliases.values()) > limits.max_bytes:
        return None  # past the bound of the text aliases repeat: the full reading reports it
    data = _with(old.data, path, [*old_list[:i1], *items, *old_list[i2 + 1 :]])
    listed = read.table.find(listed_path)
    donated = read.table.children(listed)[: len(items)] if items else range(0)
    # The chunk's line `depth + 1` is the file's line `start`.
    table = old.table.spliced(old.table.find(path), i1, i2, read.table, donated, start - 1 - depth, end, delta)
    nodes, keyed = table.reachable()
    if nodes + keyed > limits.max_nodes:  # what the reader counts (no alias here)
        return None
    if table.unreachable > nodes:
        return None  # more replaced than kept after many edits: a whole reading makes the table anew
    document = Document(old.file, data, None, None, set(), read.whole_floats, aliases, table=table, anchors=old.anchors)
    return Spliced(document, path, i1, len(items), (start, end, delta))


def _inside(one: NodePath, path: tuple[str, ...], first: int, last: int) -> bool:
    """Whether ``one`` is the path of an item ``first`` to ``last`` of the list at ``path``, or of
    a node inside one of them."""
    depth = len(path)
    if len(one) <= depth or one[:depth] != path:
        return False
    at = one[depth]
    return isinstance(at, int) and first <= at <= last


def _at_path(data: object, path: NodePath) -> object:
    """The node at ``path`` of ``data`` (a path the reading recorded)."""
    node = data
    for part in path:
        node = node[part]  # type: ignore[index]
    return node


def _text_in(value: object) -> int:
    """The characters of text an alias of ``value`` (a scalar) repeats, as the reader counts them."""
    return len(value) if isinstance(value, str) else 0


def _at(data: object, path: tuple[str, ...]) -> list[object]:
    """The list at ``path`` of ``data`` (:func:`_items_around` found it there)."""
    node = data
    for part in path:
        assert isinstance(node, dict)
        node = node[part]
    assert isinstance(node, list)
    return node


def _with(data: dict[str, object], path: tuple[str, ...], items: list[object]) -> dict[str, object]:
    """``data`` with the list at ``path`` given way to ``items``: a new mapping at each level of
    the path, every other value the same object (what an edit did not touch stays what it was)."""
    copied = dict(data)
    if len(path) == 1:
        copied[path[0]] = items
    else:
        below = copied[path[0]]
        assert isinstance(below, dict)
        copied[path[0]] = _with(below, path[1:], items)
    return copied


def _changed_lines(old: list[str], new: list[str]) -> tuple[list[tuple[int, int]], int, int] | None:
    """The first and last old line (1-based) an edit changed, how many lines it added, and how many
    lines at the start it left as they were; None when the texts are equal. Lines inserted between
    two old lines belong with the one before, the one after, or both (a field added at the end of
    an entry, an entry added before another, or the first entry of a list): each is a candidate,
    both lines first."""
    if old == new:
        return None
    shortest = min(len(old), len(new))
    prefix = _common(old, new, shortest, backwards=False)
    suffix = _common(old, new, shortest - prefix, backwards=True)
    first, last = prefix + 1, len(old) - suffix  # the old lines that differ (none: last < first)
    delta = len(new) - len(old)
    if first <= last:
        return [(first, last)], delta, prefix
    around = [line for line in (prefix, prefix + 1) if 1 <= line <= len(old)]  # inserted between these
    return [(around[0], around[-1]), *((line, line) for line in around)] if around else [], delta, prefix


def _common(old: list[str], new: list[str], most: int, backwards: bool) -> int:
    """How many lines (at most ``most``) are equal at the start of both lists (``backwards``: at the
    end): blocks of lines compared at once (a list's equality, in C), then line by line."""
    count = 0
    a, b = len(old), len(new)
    while count + _BLOCK <= most:
        if backwards:
            same = old[a - count - _BLOCK : a - count] == new[b - count - _BLOCK : b - count]
        else:
            same = old[count : count + _BLOCK] == new[count : count + _BLOCK]
        if not same:
            break
        count += _BLOCK
    if backwards:
        while count < most and old[a - 1 - count] == new[b - 1 - count]:
            count += 1
    else:
        while count < most and old[count] == new[count]:
            count += 1
    return count


def _trivia(lines: list[str], prefix: int) -> bool:
    """Whether the lines after the first ``prefix`` (the last, empty, one aside: what the final line
    break ends) are blank or comments: spaces, then nothing or a `#` and printable characters."""
    return all(_TRIVIA.fullmatch(line) is not None and line.isprintable() for line in lines[prefix:-1])


def _trivia_tail(old: Document, prefix: int, old_count: int, new_count: int) -> Spliced | None:
    """The reading of a text whose lines after the first ``prefix`` are blank or comments and were
    before (the old and new texts split at their line breaks in ``old_count`` and ``new_count``
    parts: each ends at line ``count``, column 1); None when a node could reach into those lines.

    Down from the root through each last entry: a node that ends at the old end (a block mapping
    or sequence) ends at the new one; the first that ends before it must end before the edited
    lines (so do all nodes before it, in document order); one that ends at the end with nothing in
    it (a scalar, a block scalar above all) may take the lines in, and is read whole.
    """
    end = old_count << 32 | 1  # the end half of a position that ends at the end of the text
    first = (prefix + 1) << 32 | 1  # the start of the first edited line
    values = old.value_spans
    path: NodePath = ()
    value: object = old.data
    ending: list[NodePath] = []
    while True:
        packed = values.get(path)
        if packed is None:
            return None
        if packed & _HALF != end:
            if packed & _HALF > first:
                return None
            break
        if packed >> 64 == end or not value or not isinstance(value, (dict, list)):
            return None  # nothing written in it, or a scalar: lines at the end may be its own
        ending.append(path)
        if isinstance(value, dict):
            last = next(reversed(value))
            if not isinstance(last, str):
                return None
            path, value = (*path, last), value[last]
        else:
            path, value = (*path, len(value) - 1), value[-1]
    document = old.ending_at(ending, new_count, 1) if ending else old
    return Spliced(document, None, 0, 0, (prefix + 1, old_count - 1, new_count - old_count), (old_count, new_count))


def _items_around(
    old: Document, lines: list[str], first: int, last: int
) -> tuple[tuple[str, ...], list[int], int, int, int, int] | None:
    """The list whose items hold the old lines ``first``..``last``: a top-level list, or one in block
    mappings below the top (``overlay: cards: add:``). Its path, the indentation of
    each key of the path, the first and last of those items, and the lines they take (an item runs
    to the line before the next one's, the last one to the line before the next key of its
    mapping or of one above it, or to the end)."""
    table = old.table  # keys and items from their parents' children: no path looked up per node
    node, value, region_end = 0, old.data, len(lines) - 1
    path: list[str] = []
    indents: list[int] = []
    while True:
        if not isinstance(value, dict) or not value:
            return None
        keys: list[tuple[int, str, int]] = []
        for child in table.children(node):
            name, packed = table.keys[child], table.packed_key(child)
            if not isinstance(name, str) or packed is None:
                return None
            line, column = packed >> 96, packed >> 64 & _MASK
            # Keys at the start of their lines (at the first column at the top): a block mapping.
            if (column != 1 if not path else lines[line - 1][: column - 1].strip(" ")) or line <= (
                keys[-1][0] if keys else 0
            ):
                return None
            keys.append((line, name, child))
        if indents and (table.packed_key(keys[0][2]) or 0) >> 64 & _MASK <= indents[-1] + 1:
            return None  # a mapping's keys not further in than its own key
        lines_of_keys = [line for line, _, _ in keys]
        at = bisect.bisect_right(lines_of_keys, first) - 1
        if at < 0 or bisect.bisect_right(lines_of_keys, last) - 1 != at:
            return None
        _, key, node = keys[at]
        path.append(key)
        indents.append(((table.packed_key(node) or 0) >> 64 & _MASK) - 1)
        region_end = lines_of_keys[at + 1] - 1 if at + 1 < len(keys) else region_end
        value = value.get(key)
        if isinstance(value, list):
            break
    if not value or node <= 0:
        return None
    items = [table.packed(child) for child in table.children(node)]
    if len(items) != len(value):
        return None
    starts = [position >> 96 for position in items]
    i1 = bisect.bisect_right(starts, first) - 1
    i2 = bisect.bisect_right(starts, last) - 1
    if i1 < 0 or last > region_end:
        return None
    for i in range(i1, min(i2 + 2, len(value))):
        column = items[i] >> 64 & _MASK
        if (i > 0 and starts[i] <= starts[i - 1]) or not _DASH.match(lines[starts[i] - 1][: column - 1]):
            return None  # an item that does not start on its dash's line (`-` alone, a flow list)
    end = starts[i2 + 1] - 1 if i2 + 1 < len(value) else region_end
    return tuple(path), indents, i1, i2, starts[i1], end
