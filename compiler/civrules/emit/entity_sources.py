"""Every package's ``ENTITY_FIELD_SOURCES``: for each entity a variant changed, the citation of
each field it changed, as ``civrules export``'s `field_sources` gives them; keyed as the
package's ``ENTITY_SOURCES`` (``"collection.id"``). Each family's ``data.py`` writes it the same way.

``ENTITY_SOURCES`` (and a record's ``rules``) is an entity's whole citation: its definition's, then
that of each variant's patch whose facts it still holds, never the definition's dropped. A field
a variant deleted (`null`, an `{unknown: why}`) holds no fact and is not in the table. Which of them cites
which field is this table's: a house rule's cost cites the house rule, the groups it left the
rulebook's section (not in the table: a field no variant changed is cited by the definition).
"""

from __future__ import annotations

from collections.abc import Callable

from civrules.emit.pyfmt import Code, Node, call, dct, string
from civrules.model import Entity, Ruleset
from civrules.resolve import origin_field_citations

#: The annotation of the constant, and its docstring.
ANNOTATION = "ENTITY_FIELD_SOURCES: Final[Mapping[str, Mapping[str, str | None]]]"
DOC = (
    "For each entity a variant changed (keyed as ENTITY_SOURCES), the citation of each field it\n"
    "changed (civrules export's field_sources): a house rule's value is cited by the house rule, not\n"
    "by the section its base cited for the value it replaced; None where the patch cites nothing.\n"
    "ENTITY_SOURCES lists the whole entity's: its definition's citation first, then each patch's\n"
    "whose facts remain."
)


def entity_field_sources(ruleset: Ruleset, key_of: Callable[[str, Entity], str | None]) -> Node:
    """The ``FrozenMap`` of ``ruleset``'s changed entities' field citations, each entity keyed by
    ``key_of(collection_name, entity)`` (None: the package does not cite it)."""
    items: list[tuple[Node, Node]] = []
    for collection in ruleset.collections():
        for entity in collection:
            cited = origin_field_citations(entity.origin)
            key = key_of(collection.name, entity) if cited else None
            if key is None:
                continue
            fields = [
                (string(name), string(text) if text is not None else Code("None")) for name, text in cited.items()
            ]
            items.append((string(key), call("FrozenMap", dct(fields))))
    return call("FrozenMap", dct(items)) if items else Code("FrozenMap({})")
