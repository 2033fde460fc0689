"""Read again only the part of a file an edit changed: the items of one top-level list.

An editor's change to a rule file usually falls inside one entry of a top-level list (an area of
``areas:``, a card of ``civilization_cards:``). Reading the whole file again costs one Python
callback per node of it (0.4 s for an 839 KB map); :func:`splice_document` instead finds the lines
the edit changed (the common prefix and suffix of the old and the new text), the list items those
lines fall in, and reads just those items' lines again. Their data replaces the old items', their
positions are moved to where the lines are in the file, and every position after them moves by the
number of lines the edit added or removed.

The items' lines are read in a small text that puts them where they are in the file: a top-level
key (``_:``) in the place of the list's own, the items' lines as written, and the line that follows
them in the file (the next item's first line, the next top-level key, or the end of the text), so
that where libyaml ends each node (at the next token) is where it ends in the whole file. What the
edit did not touch keeps its data and positions; the result is the document a full read gives
(data, positions and their order), which ``tests/core/test_splice.py`` holds for random edits.

Whenever that cannot be told for sure, None is returned and the caller reads the whole file: the
edit crosses the list's bounds or changes a top-level key, the old or the new reading has any
diagnostic (the reader's own wording and positions are then kept whole), the file uses anchors
and aliases, holds a carriage return, or does not end with a line break, or the lines read again
hold a document marker (``---``, ``...``) or a directive.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass

from civrules.load.document import Document, NodePath
from civrules.load.reader import Limits, read_yaml_text

_LINE = 1 << 96  # one line, added to a packed position's start line
_END_LINE = 1 << 32  # one line, added to its end line
_MASK = (1 << 32) - 1
#: The start of an item's first line: its indentation and its dash (`  - id: ...`).
_DASH = re.compile(r"^( *)- +$")
#: The key standing in for the list's own in the text read again.
_STAND_IN = "_"


@dataclass(frozen=True, slots=True)
class Spliced:
    """A document made by splicing, and what was read again: items ``first`` to ``first + count - 1``
    of the top-level list ``key`` (``key`` None: the text did not change), in place of the items
    written on the old lines ``lines[0]`` to ``lines[1]``; every old line after those moved by
    ``lines[2]`` lines."""

    document: Document
    key: str | None
    first: int
    count: int
    lines: tuple[int, int, int] = (0, 0, 0)

    def moved(self, line: int) -> int | None:
        """Where an old line ``line`` outside the items read again is now (None: inside them)."""
        start, end, delta = self.lines
        if self.key is None or line < start:
            return line
        return line + delta if line > end else None


def splice_document(old_text: str, old: Document, new_text: str, limits: Limits) -> Spliced | None:
    """The document ``new_text`` reads as, made from ``old`` (read from ``old_text``) by reading
    again only the list items the edit touched; None when the whole text must be read.

    ``old`` must be the reading of ``old_text`` that gave no diagnostic (the caller knows).
    """
    if old.aliases or old.refused or old.whole_floats or not isinstance(old.data, dict):
        return None
    if not (old_text.endswith("\n") and new_text.endswith("\n")) or "\r" in new_text or "\r" in old_text:
        return None
    old_lines = old_text.split("\n")
    new_lines = new_text.split("\n")
    changed = _changed_lines(old_lines[:-1], new_lines[:-1])  # the lines the final line break ends
    if changed is None:
        return Spliced(old, None, 0, 0)  # the same text
    candidates, delta = changed  # 1-based lines of the old text; delta: lines added (removed < 0)
    found = next((one for first, last in candidates if (one := _items_around(old, old_lines, first, last))), None)
    if found is None:
        return None
    key, i1, i2, start, end = found  # the items i1..i2 of `key` take the old lines start..end
    new_end = end + delta
    if new_end < start - 1:
        return None
    dash = _DASH.match(old_lines[start - 1][: (old.value_spans[(key, i1)] >> 64 & _MASK) - 1])
    assert dash is not None  # _items_around checked it
    if not new_lines[start - 1].startswith(dash.group()):
        return None  # the list's indentation or the first item's dash changed
    if any(line.startswith(("---", "...", "%")) for line in new_lines[start - 1 : new_end]):
        return None  # a document's start or end, a directive: the whole file's structure changes
    follows = new_lines[new_end] if new_end < len(new_lines) - 1 else None
    chunk = "\n".join([f"{_STAND_IN}:", *new_lines[start - 1 : new_end], *([follows] if follows is not None else [])])
    read, problems = read_yaml_text(chunk + "\n", old.file, limits)
    if problems or read is None or read.aliases or read.refused or not isinstance(read.data, dict):
        return None
    items = read.data.get(_STAND_IN)
    items = [] if items is None else items
    if not isinstance(items, list):
        return None
    old_list = old.data[key]
    sentinel = follows is not None and follows.startswith(dash.group(1) + "-")
    if len(read.data) != (1 if sentinel or follows is None else 2):
        return None
    if follows is not None:
        # What follows the items must be read where it is written (the next item, or the next key),
        # not inside the last of them (an unclosed bracket or quote would take it in).
        after = new_end - start + 3  # its line in the chunk
        if sentinel:
            found_at = read.value_spans.get((_STAND_IN, len(items) - 1)) if items else None
        else:
            found_at = next(read.key_spans.get((name,)) for name in read.data if name != _STAND_IN)
        if found_at is None or found_at >> 96 != after:
            return None
        if sentinel:
            items = items[:-1]
    count = i2 - i1 + 1
    if not items and count == len(old_list):
        return None  # the list is emptied: a full reading says what its key then holds
    data = dict(old.data)
    data[key] = [*old_list[:i1], *items, *old_list[i2 + 1 :]]
    moved = (start - 2) * (_LINE + _END_LINE)  # the chunk's line 2 is the file's line `start`
    renumber = len(items) - count
    value_spans = _spliced(old.value_spans, read.value_spans, key, i1, i2, len(items), end, delta, renumber, moved)
    key_spans = _spliced(old.key_spans, read.key_spans, key, i1, i2, len(items), end, delta, renumber, moved)
    if len(value_spans) + len(key_spans) > limits.max_nodes:  # what the reader counts (no alias here)
        return None
    document = Document(old.file, data, value_spans, key_spans, set(), read.whole_floats, {})
    return Spliced(document, key, i1, len(items), (start, end, delta))


def _changed_lines(old: list[str], new: list[str]) -> tuple[list[tuple[int, int]], int] | None:
    """The first and last old line (1-based) an edit changed, and how many lines it added; None
    when the texts are equal. Lines inserted between two old lines belong with the one before, the
    one after, or both (a field added at the end of an entry, an entry added before another, or
    the first entry of a list): each is a candidate, both lines first."""
    if old == new:
        return None
    shortest = min(len(old), len(new))
    prefix = 0
    while prefix < shortest and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    first, last = prefix + 1, len(old) - suffix  # the old lines that differ (none: last < first)
    delta = len(new) - len(old)
    if first <= last:
        return [(first, last)], delta
    around = [line for line in (prefix, prefix + 1) if 1 <= line <= len(old)]  # inserted between these
    return [(around[0], around[-1]), *((line, line) for line in around)] if around else [], delta


def _items_around(old: Document, lines: list[str], first: int, last: int) -> tuple[str, int, int, int, int] | None:
    """The top-level list whose items hold the old lines ``first``..``last``: its key, the first and
    last of those items, and the lines they take (an item runs to the line before the next one's,
    the last one to the line before the next top-level key, or to the end)."""
    # The top-level keys looked up one by one: iterating the positions of a document the reader made
    # walks its whole table (every node of the file) for the few keys at the top.
    key_spans = old.key_spans
    keys = sorted((packed >> 96, name) for name in old.data if (packed := key_spans.get((name,))) is not None)
    if not keys:
        return None
    if any(old.key_spans[(name,)] >> 64 & _MASK != 1 for _, name in keys):
        return None  # the top-level keys are not at the start of their lines
    lines_of_keys = [line for line, _ in keys]
    at = bisect.bisect_right(lines_of_keys, first) - 1
    if at < 0 or bisect.bisect_right(lines_of_keys, last) - 1 != at:
        return None
    key = keys[at][1]
    assert isinstance(key, str)
    value = old.data.get(key)
    if not isinstance(value, list) or not value:
        return None
    region_end = lines_of_keys[at + 1] - 1 if at + 1 < len(keys) else len(lines) - 1
    starts = [old.value_spans[(key, i)] >> 96 for i in range(len(value))]
    i1 = bisect.bisect_right(starts, first) - 1
    i2 = bisect.bisect_right(starts, last) - 1
    if i1 < 0 or last > region_end:
        return None
    for i in range(i1, min(i2 + 2, len(value))):
        column = old.value_spans[(key, i)] >> 64 & _MASK
        if (i > 0 and starts[i] <= starts[i - 1]) or not _DASH.match(lines[starts[i] - 1][: column - 1]):
            return None  # an item that does not start on its dash's line (`-` alone, a flow list)
    end = starts[i2 + 1] - 1 if i2 + 1 < len(value) else region_end
    return key, i1, i2, starts[i1], end


def _spliced(
    old: Mapping[NodePath, int],
    read: Mapping[NodePath, int],
    key: str,
    i1: int,
    i2: int,
    new_count: int,
    end: int,
    delta: int,
    renumber: int,
    moved: int,
) -> dict[NodePath, int]:
    """Positions of the spliced document, in the reader's order (each node after its children).

    The old positions of items i1..i2 give way to the read ones (their items renumbered from i1,
    their lines moved into place); a position after line ``end`` moves by ``delta`` lines, and an
    item after i2 is renumbered by ``renumber``.
    """
    fresh = {
        (key, path[1] + i1, *path[2:]): packed + moved
        for path, packed in read.items()
        if len(path) > 1 and path[0] == _STAND_IN and isinstance(path[1], int) and path[1] < new_count
    }
    spans: dict[NodePath, int] = {}
    placed = False
    after = (end + 1) << 96  # the smallest packed position that starts after the items' lines
    shift, shift_end = delta * _LINE, delta * _END_LINE
    for path, packed in old.items():
        if len(path) > 1 and path[0] == key and isinstance(path[1], int) and path[1] >= i1:
            if path[1] <= i2:
                if not placed:
                    spans.update(fresh)
                    placed = True
                continue
            if renumber:
                path = (key, path[1] + renumber, *path[2:])
        if not placed and (path == (key,) or not path):  # the old items had none: the list's own goes after
            spans.update(fresh)
            placed = True
        if delta:
            if packed >= after:
                packed += shift + shift_end
            elif (packed >> 32 & _MASK) > end:
                packed += shift_end
        spans[path] = packed
    if not placed:
        spans.update(fresh)
    return spans
