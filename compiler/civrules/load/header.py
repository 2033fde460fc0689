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

Finding one ruleset's manifest still meant parsing every other manifest of the folder (the shipped
tree's eleven: 253 KB, about 30 ms of CPU, a quarter of validating the largest shipped ruleset in process,
for files the command does not otherwise read). :func:`headers_of` keeps each folder's headers in
the content-hash cache (:mod:`civrules.support.cache`), each by the SHA-256 of the file it was read
from: a file read again is parsed again only where its bytes changed.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from civrules.load import reader
from civrules.load.reader import Limits, event_parser, has_forbidden_character, string_scalar
from civrules.support import cache
from civrules.support.stored import json_document

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
    #: shipped manifest repeats: a note, an entity's name). Any other anchor is read in full.
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


#: What a cached header entry is, besides the code that reads headers (:func:`_code`): raised when
#: the entry's form changes.
_ENTRY_FORMAT = "manifest-headers 1"


@functools.cache
def _code() -> str:
    """A digest of what decides a header: this module, the reader's judgment of a scalar, and the
    YAML parser's version. A changed civrules reads every header again (the entries it wrote
    before stay in the cache folder, which is safe to delete, as its map layouts do)."""
    parts: list[str | bytes] = [yaml.__version__, str(getattr(yaml, "__with_libyaml__", False))]
    for module_file in (__file__, reader.__file__):
        try:
            parts.append(Path(module_file).read_bytes())
        except OSError:  # not readable: such an installation caches nothing it cannot name
            return ""
    return cache.digest(*parts)


def headers_of(
    raws: Mapping[str, bytes],
    limits: Limits,
    folder: str,
    read: Callable[[bytes, Limits], dict[str, str] | None] = read_header,
) -> dict[str, dict[str, str] | None]:
    """:func:`read_header` of each file of ``raws`` (its bytes, by key), taken from the cache where
    the folder ``folder`` (an absolute path: one entry per folder, rewritten when a file of it
    changes) last held a file of the same bytes, under the same limits and code; ``read`` reads
    the others. A cache entry that is not what this function writes is ignored and replaced."""
    code = _code()
    if not code or cache.cache_dir() is None:
        return {key: read(raw, limits) for key, raw in raws.items()}
    name = f"headers-{cache.digest(_ENTRY_FORMAT, code, repr(limits), folder)}.json"
    stored = _stored(cache.read(name))
    found: dict[str, dict[str, str] | None] = {}
    entries: dict[str, list[Any]] = {}
    for key, raw in raws.items():
        content = hashlib.sha256(raw).hexdigest()
        known = stored.get(key)
        head = known[1] if known is not None and known[0] == content else read(raw, limits)
        found[key] = head
        entries[key] = [content, head]
    if entries != stored:
        cache.write(name, json.dumps({"headers": entries}, sort_keys=True).encode("utf-8"))
    return found


def _stored(raw: bytes | None) -> dict[str, list[Any]]:
    """The entries of a cached folder (key: [SHA-256, header or None]); none where the bytes are not
    such a record (missing, corrupt, forged: nothing of it is used)."""
    record = json_document(raw)
    entries = record.get("headers") if isinstance(record, dict) else None
    if not isinstance(entries, dict):
        return {}
    for entry in entries.values():
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and len(entry[0]) == 64):
            return {}
        head = entry[1]
        if head is not None and not (
            isinstance(head, dict) and set(head) <= IDENTITY and all(isinstance(value, str) for value in head.values())
        ):
            return {}
    return entries
