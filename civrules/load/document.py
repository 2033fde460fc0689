"""A loaded YAML document: plain Python data plus the source span of every node."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from civrules.diagnostics import Span

#: The path of a node from the document root: mapping keys and list indexes.
NodePath = tuple[str | int, ...]


@dataclass(slots=True)
class Document:
    """Data read from one file, with positions kept beside it.

    ``data`` holds only dicts, lists, strings, ints, floats, bools and None. Positions are kept in
    two tables keyed by node path: the span of each value and, for mapping entries, of its key.
    A path with no entry (inside an aliased subtree) takes the span of its nearest ancestor.
    """

    file: str
    data: Any
    value_spans: dict[NodePath, Span] = field(default_factory=dict)
    key_spans: dict[NodePath, Span] = field(default_factory=dict)
    #: Values the reader refused and replaced by null (already reported), not to be judged again.
    refused: set[NodePath] = field(default_factory=set)
    #: Whether a float with no fractional part (`1e3`, `45.0`) is in the data: JSON Schema
    #: validators other than civrules' own take it for an integer.
    whole_floats: bool = False

    def span(self, path: NodePath) -> Span:
        """The span of the value at ``path`` (or of its nearest recorded ancestor)."""
        for end in range(len(path), -1, -1):
            found = self.value_spans.get(path[:end])
            if found is not None:
                return found
        return Span.at(self.file)

    def key_span(self, path: NodePath) -> Span:
        """The span of the key of the mapping entry at ``path``; its value's span if it has none."""
        found = self.key_spans.get(path)
        return found if found is not None else self.span(path)
