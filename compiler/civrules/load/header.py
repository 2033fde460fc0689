"""A ruleset manifest's identity, read from the top level of its mapping alone.

Every command learns every manifest's id, family and base (``extends``) to find the ruleset it was
asked for, its family and its chain; reading each manifest in full (positions, values, schema) for
that was a fifth of validating one ruleset. :func:`read_header` walks libyaml's events of a file
once and keeps only the top-level scalars in :data:`IDENTITY`; nested content is parsed (a syntax
error anywhere is still found) but nothing of it is built.

A header is given only where the full read (:mod:`civrules.load.reader`) surely makes a mapping
whose identity keys hold these same strings: anything that could make the full read refuse the
file or read those values otherwise (a byte order mark, invalid UTF-8, a control character, a
syntax error, several documents, a tag, an anchor or an alias at the top level, an anchor on a
collection or an alias of one, a duplicate or non-string top-level key, an identity value that is
not plain text, nesting or a node count near the limits) gives None, and the caller reads the file
in full: its diagnostics are then exactly those of a full read.
"""

from __future__ import annotations

from typing import Any

import yaml

from civrules.load.reader import Limits, event_parser, has_forbidden_character, string_scalar

#: The top-level keys a manifest's identity is made of: what ``Workspace.manifests`` reads.
IDENTITY = frozenset(("kind", "id", "family", "extends"))

#: First bytes the full read decodes otherwise than as plain UTF-8 (a byte order mark, UTF-16/32).
_MARKED = (b"\xef", b"\xfe", b"\xff", b"\x00")


def read_header(raw: bytes, limits: Limits) -> dict[str, str] | None:
    """The identity keys the top-level mapping of ``raw`` holds (of :data:`IDENTITY`), by name; or
    None where the file must be read in full to know (see the module documentation)."""
    if len(raw) > limits.max_bytes or raw[:1] in _MARKED:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if has_forbidden_character(text):
        return None
    try:
        return _walk(event_parser(text), limits)
    except yaml.YAMLError:
        return None


def _text(event: yaml.ScalarEvent) -> str | None:
    """The scalar as the reader resolves it, when that is a string; None otherwise (or unsure:
    a number, a boolean, null, or text the reader judges: read in full)."""
    return string_scalar(event.value, bool(event.implicit[0]))


def _walk(parser: Any, limits: Limits) -> dict[str, str] | None:
    get_event = parser.get_event
    scalar, alias, document = yaml.ScalarEvent, yaml.AliasEvent, yaml.DocumentStartEvent
    mapping, sequence = yaml.MappingStartEvent, yaml.SequenceStartEvent
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    deepest = limits.max_depth - 1
    most = limits.max_nodes - 1
    found: dict[str, str] = {}
    keys: set[str] = set()
    #: Anchors of scalars below the top level: an alias of one is one node, no deeper (what a
    #: shipped manifest repeats: a note, a government's name). Any other anchor is read in full.
    anchors: set[str] = set()
    depth = nodes = documents = 0
    key: str | None = None  # the top-level key whose value comes next (None: a key comes next)
    while True:
        event = get_event()
        if event is None:
            break
        kind = type(event)
        if kind is scalar:
            nodes += 1
            if nodes >= most:
                return None
            if depth > 1:
                if event.anchor is not None:
                    anchors.add(event.anchor)
                continue
            if depth == 0 or event.anchor is not None or event.tag is not None:
                return None  # a scalar document, or an anchor or a tag at the top level
            if key is None:
                name = _text(event)
                if name is None or name in keys:
                    return None
                keys.add(name)
                key = name
            else:
                if key in IDENTITY:
                    value = _text(event)
                    if value is None:
                        return None
                    found[key] = value
                key = None
        elif kind is mapping or kind is sequence:
            nodes += 1
            if nodes >= most:
                return None
            if event.anchor is not None or (depth < 2 and event.tag is not None):
                return None
            if depth == 0 and kind is not mapping:
                return None
            if depth == 1 and (key is None or key in IDENTITY):
                return None  # a collection as a key, or as an identity value
            depth += 1
            if depth >= deepest:
                return None
        elif kind in ends:
            depth -= 1
            if depth == 1:
                key = None  # the value of the top-level key has ended
        elif kind is alias:
            nodes += 1
            if depth < 2 or event.anchor not in anchors or nodes >= most:
                return None
        elif kind is document:
            documents += 1
            if documents > 1:
                return None
    return found if documents == 1 else None
