"""A loaded YAML document: plain Python data plus the source span of every node."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from civrules.diagnostics import Span

#: The path of a node from the document root: mapping keys and list indexes.
NodePath = tuple[str | int, ...]

# A position is kept packed in one integer (start line, start column, end line, end column, 32 bits
# each): a few hundred thousand nodes of a large ruleset keep an int each instead of a Span object
# and its tuple of fields, and the reader builds them in a fraction of the time. Span objects are
# made only when asked for.
_BITS = 32
_MASK = (1 << _BITS) - 1


def pack_position(line: int, column: int, end_line: int, end_column: int) -> int:
    """A position as one integer (1-based lines and columns, the end column exclusive)."""
    return (min(line, _MASK) << 96) | (min(column, _MASK) << 64) | (min(end_line, _MASK) << 32) | min(end_column, _MASK)


def unpack_position(file: str, packed: int) -> Span:
    """The span of a packed position in ``file``."""
    return Span(file, packed >> 96, (packed >> 64) & _MASK, (packed >> 32) & _MASK, packed & _MASK)


@dataclass(slots=True)
class Document:
    """Data read from one file, with positions kept beside it.

    ``data`` holds only dicts, lists, strings, ints, floats, bools and None. Positions are kept in
    two tables keyed by node path: the position of each value and, for mapping entries, of its key
    (packed, see :func:`pack_position`; :meth:`span` and :meth:`key_span` give spans). A path with
    no entry inside an aliased subtree is located in the node the alias repeats (its anchor's,
    where it is written); any other path without one takes the span of its nearest ancestor.
    """

    file: str
    data: Any
    value_spans: dict[NodePath, int] = field(default_factory=dict)
    key_spans: dict[NodePath, int] = field(default_factory=dict)
    #: Values the reader refused and replaced by null (already reported), not to be judged again.
    refused: set[NodePath] = field(default_factory=set)
    #: Whether a float with no fractional part (`1e3`, `45.0`) is in the data: JSON Schema
    #: validators other than civrules' own take it for an integer.
    whole_floats: bool = False
    #: The path of each alias (`*pre`), and the path of the node it repeats (its anchor `&pre`):
    #: a part inside an alias is located where it is written.
    aliases: dict[NodePath, NodePath] = field(default_factory=dict)

    def span(self, path: NodePath) -> Span:
        """The span of the value at ``path`` (or of its nearest recorded ancestor); a part inside an
        alias is located in the node the alias repeats, where it is written."""
        path = self.written(path)
        for end in range(len(path), -1, -1):
            found = self.value_spans.get(path[:end])
            if found is not None:
                return unpack_position(self.file, found)
        return Span.at(self.file)

    def written(self, path: NodePath) -> NodePath:
        """``path``, or, for a part inside an alias, its path in the node the alias repeats."""
        if not self.aliases or path in self.value_spans:
            return path
        for _ in range(len(self.aliases) + 1):  # an alias inside an anchored node: follow again
            for end in range(len(path) - 1, -1, -1):
                repeated = self.aliases.get(path[:end])
                if repeated is not None:
                    path = (*repeated, *path[end:])
                    break
            else:
                return path
            if path in self.value_spans:
                return path
        return path

    def exact_span(self, path: NodePath) -> Span | None:
        """The span of the value at ``path`` itself, or None when it has none of its own."""
        found = self.value_spans.get(path)
        return unpack_position(self.file, found) if found is not None else None

    def key_span(self, path: NodePath) -> Span:
        """The span of the key of the mapping entry at ``path``; its value's span if it has none."""
        found = self.key_spans.get(path)
        if found is None and self.aliases:
            found = self.key_spans.get(self.written(path))
        return unpack_position(self.file, found) if found is not None else self.span(path)
