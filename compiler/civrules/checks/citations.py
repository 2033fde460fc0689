"""Rule citations: every `rule:` names a section of the ruleset's rulebook, and the index is sound.

Raw reads, on purpose: a citation may sit on any node of any document (an entity, a setting, an
attribute's effect, an overlay entry), so these checks walk every document's data whatever its
family, as the unknown-facts walker does, and name no game; and the rule index's own entries (its
`sections`, `missing`, `online_help`, each with the path a diagnostic points at) are read from its
document, the model's :class:`~civrules.model.RuleIndex` keeping only the citable numbers.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from civrules.checks import ALL_COLLECTIONS, SETTINGS, check, diagnostic
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks, words
from civrules.diagnostics.suggest import QUERIES, Vocabulary
from civrules.families import FILE_METADATA, Family, family_named
from civrules.load.document import Document, NodePath
from civrules.model import Collection, Entity, Origin, Ruleset, record_of
from civrules.resolve import (
    CITATION_FIELDS,
    SETTINGS_CITATIONS,
    SETTINGS_PATH,
    change_place,
    changers,
    cited_writers,
    entity_written_whole,
    holds_a_fact,
    overwritten,
    setting_written_whole,
    written_over,
)
from civrules.schema import entity_citation_keys, patterns, setting_citation_keys
from civrules.schema.references import each_remembered, is_remembering, remembered
from civrules.support import memo
from civrules.support.values import frozen_value


@frozen_value
class Index:
    """The numbers a rule index knows: printed sections, missing ones, and gaps of the printed sequence."""

    document: Document
    sections: frozenset[str]
    missing: Mapping[str, str]
    gaps: frozenset[str]
    numbering: str

    def enclosing(self, number: str) -> str | None:
        """The nearest section that contains ``number`` (by the rulebook's numbering): the longest
        of its heads that the index knows. A head is the number cut before one of its dots
        (``dotted_components``) or before any of its characters after the first dot
        (``decimal_digits``: 2.17 is in 2.1), a trailing dot dropped.

        Only heads as long as a section or missing number of the index are looked up: cutting and
        looking up every head of a long number (a `rule:` of 100,000 digits, within the schema's
        pattern) took the square of its length."""
        if self.numbering == "pages_and_headings":
            page, _, heading = number.partition("/")
            return page if heading and (page in self.sections or page in self.missing) else None
        if ".." in number or number.endswith("."):
            return self._enclosing_by_steps(number)  # not a number the schema admits: step by step
        first = number.find(".")
        if first < 0:
            return None
        dotted = self.numbering == "dotted_components"
        for length in self._lengths():
            if length >= len(number) or length < max(first, 1):
                continue
            # A head of `length` characters: cut before a dot, or (decimal) anywhere after the first
            # dot but just after one (that head is the shorter one without its dot).
            if (number[length] != ".") if dotted else (number[length - 1] == "."):
                continue
            head = number[:length]
            if head in self.sections or head in self.missing:
                return head
        return None

    def _lengths(self) -> list[int]:
        return _lengths_of(self)

    def _enclosing_by_steps(self, number: str) -> str | None:
        """:meth:`enclosing` as its definition reads, for a number the schema does not admit."""
        current = number
        while True:
            if self.numbering == "dotted_components" or "." not in current or current.endswith("."):
                head, _, _ = current.rpartition(".")
            else:
                head = current[:-1]
            current = head.rstrip(".")
            if not current:
                return None
            if current in self.sections or current in self.missing:
                return current


@memo.by_identity(8)
def _lengths_of(index: Index) -> list[int]:
    """The lengths of the index's section and missing numbers, longest first (made once per index)."""
    return sorted({len(n) for n in (*index.sections, *index.missing)}, reverse=True)


def rule_index(ruleset: Ruleset) -> Index | None:
    """The ruleset's rule index as sets of numbers (None when it has none).

    It depends on the index's document and its citable sections alone: while a session's memo
    holds the two (the very objects, which a base and its variants share), it is the same
    :class:`Index`, so what the checks find in it alone (Q004, Q005) is kept with it."""
    if ruleset.rule_index is None or ruleset.rule_index.origin is None:
        return None
    document = ruleset.rule_index.origin.document
    sections = ruleset.rule_index.sections
    index: Index = remembered(document, (_index_of, sections), functools.partial(_index_of, document, sections))
    return index


def index_of(document: Document, sections: frozenset[str]) -> Index:
    """The rule index a `rule_index` file's ``document`` writes, with the ``sections`` it lists
    (the language server's hover of a citation reads them from the file, needing no model of the
    ruleset: a ruleset with errors has none)."""
    return _index_of(document, sections)


def _index_of(document: Document, sections: frozenset[str]) -> Index:
    data = document.data if isinstance(document.data, dict) else {}
    missing = {
        item["section"]: str(item.get("reason", ""))
        for item in data.get("missing") or ()
        if isinstance(item, dict) and isinstance(item.get("section"), str)
    }
    gaps = frozenset(g for g in data.get("sequence_gaps") or () if isinstance(g, str))
    book = data.get("rulebook")
    numbering = book.get("numbering") if isinstance(book, dict) else None
    return Index(
        document,
        sections,
        missing,
        gaps,
        numbering if isinstance(numbering, str) else "decimal_digits",
    )


def superseded(ruleset: Ruleset) -> set[tuple[int, NodePath]]:
    """Nodes of the ruleset's documents that a variant replaced: (id of the document, path).

    A later manifest of the `extends` chain replaces a top-level key of an earlier one; so does a
    later data file of the same kind for a top-level setting (not a collection) of an earlier one
    (a variant's data file restating a setting its base's file wrote); an overlay `replace` replaces a
    whole entity and a `patch` the fields it writes; and the same for settings: `overlay.settings`'s
    `remove` (or a setting patched to `null`) and `replace` take the whole setting away, and a
    settings patch the fields and list elements it writes over (its list operations' `with:`).
    """
    found: set[tuple[int, NodePath]] = set()
    later: set[str] = set()
    later_settings: dict[str, set[str]] = {}
    family = family_named(ruleset.family)
    specs = family.collections.values() if family is not None else ()
    collection_keys = {(spec.slot, spec.path[0]) for spec in specs}
    describes_file = family.describes_file if family is not None else FILE_METADATA.__contains__
    for document in reversed(ruleset.documents):
        data = document.data
        if not isinstance(data, dict):
            continue
        kind = data.get("kind")
        if isinstance(kind, str) and kind != "ruleset":  # a data file (the rule index is no document of it)
            settings = {key for key in data if not describes_file(key) and (kind, key) not in collection_keys}
            seen = later_settings.setdefault(str(kind), set())
            found.update((id(document), (key,)) for key in settings if key in seen)
            seen |= settings
            continue
        if kind != "ruleset":
            continue
        found.update((id(document), (key,)) for key in data if key in later)
        later |= {key for key in data if key not in ("kind", "files", "overlay")}
    for removals in ruleset.removed.values():
        for removal in removals.values():
            if removal.base is not None:
                _supersede(removal.base, found)
    for collection in ruleset.collections():
        for entity in _standing_in(collection):
            origin = entity.origin
            if origin.base is not None:
                _supersede(origin.base, found)
            for gone in origin.replaced:
                _supersede(gone, found)
            _written_over(origin, found)
    for removal in ruleset.removed_settings.values():
        if removal.base is not None:
            _supersede(removal.base, found)
    for origin in ruleset.setting_origins.values():
        for gone in origin.replaced:
            _supersede(gone, found)
        _written_over(origin, found)
    return found


def _standing_in(collection: Collection[Entity]) -> tuple[Entity, ...]:
    """The entities of ``collection`` that stand in another definition's place or that an overlay
    entry changed (a ``base``, ``replaced`` or ``changes``): the only ones whose definitions
    :func:`superseded` marks. Kept while the collection is the same object (a session's memo):
    each variant holding its base's collections as they are looks through none of them."""
    found: tuple[Entity, ...] = remembered(
        collection,
        (_standing_in,),
        lambda: tuple(
            entity
            for entity in collection
            if entity.origin.base is not None or entity.origin.replaced or entity.origin.changes
        ),
    )
    return found


def _written_over(origin: Origin, found: set[tuple[int, NodePath]]) -> None:
    """Mark what the patches of an entity or a setting wrote over: in its definition, what each
    overlay entry that changed a field wrote over (every one, not only the field's last changer),
    and what an earlier entry wrote that a later one wrote over.

    A list setting changed by list operations is the overlay entry itself (its ``base``: the
    definition they change), changed under its own key."""
    for name, last in origin.changes:
        definition, path = origin, (*origin.path, name)
        if change_place(last, name) == origin.path and last.document is origin.document:
            listed = _listed_definition(origin.base)
            if listed is None:
                continue
            definition, path = listed, listed.path
        whole = _node(definition.document.data, definition.path)
        base = _node(definition.document.data, path)
        written = changers(origin, name)
        for change in written:
            item = _node(change.document.data, change.path)
            if not isinstance(item, dict) or name not in item:
                continue
            if isinstance(whole, dict) and set(whole) == {"unknown"}:
                found.add((id(definition.document), definition.path))  # a patch merged into it replaced it
            found.update(
                (id(definition.document), p)
                for p in _written_over_once(definition.document, change.document, base, item[name], path)
            )
        found.update((id(change.document), p) for change, p in overwritten(origin, name))


#: The entry's document (weakly) and the paths its node wrote over.
_Written = tuple[Callable[[], Document | None], tuple[NodePath, ...]]

#: What an overlay entry's value wrote over in a definition (:func:`written_over`): each variant
#: of a chain asks it of every entry of the variants below it, the same nodes of the same
#: documents (a chain of ten variants whose 10,000 entries each change one nested list asked it
#: 55,000 times, 40% of `validate`'s CPU, round 29). Kept with the definition's document (an
#: entry goes with it), then by the entry's document, held weakly and checked, and the identity
#: of both nodes: a document's data never changes, so a node's identity is its place for as long
#: as its document lives. Kept strongly, the nodes pinned every version of an edited file that a
#: long-lived session (the language server, ``watch``) had let go (round 29). Only paths are kept.
_WRITTEN: memo.Attached[Document, dict[tuple[int, int, int, NodePath], _Written]] = memo.Attached()
#: The most pairs kept for one definition's document; past it, its map starts again.
_WRITTEN_HELD = 1 << 16


def _written_over_once(
    definition: Document, entry: Document, base: Any, value: Any, path: NodePath
) -> tuple[NodePath, ...]:
    """:func:`written_over` of ``value`` (a node of ``entry``'s data) in ``base`` (a node of
    ``definition``'s) at ``path``, worked out once per pair of nodes while both documents live."""
    kept = _WRITTEN.get(definition)
    if kept is None:
        kept = _WRITTEN.put(definition, {})
    key = (id(entry), id(base), id(value), path)
    held = kept.get(key)
    if held is not None and held[0]() is entry:
        return held[1]
    paths = tuple(written_over(base, value, path))
    if len(kept) >= _WRITTEN_HELD:
        kept.clear()
    kept[key] = (weakref.ref(entry), paths)
    return paths


def _listed_definition(origin: Origin | None) -> Origin | None:
    """The definition of a list setting that list operations change: ``origin``, or, where an
    earlier variant's list operations changed it too, the base they changed."""
    while origin is not None and not isinstance(_node(origin.document.data, origin.path), list):
        origin = origin.base
    return origin


def _supersede(gone: Origin, found: set[tuple[int, NodePath]]) -> None:
    """Mark an entity's or a setting's definition that no longer holds (removed, or replaced) as
    superseded: where it was written, what patched it, and the definitions it had itself taken the
    place of."""
    stack = [gone]
    while stack:
        origin = stack.pop()
        found.add((id(origin.document), origin.path))
        found.update(
            (id(change.document), change_place(change, name))
            for name, _ in origin.changes
            for change in changers(origin, name)
        )
        stack.extend(origin.replaced)
        if origin.base is not None:
            stack.append(origin.base)


def _node(data: Any, path: NodePath) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


@frozen_value
class Walk:
    """What one walk of a document finds: its `rule:` citations and its unknown facts, in order
    (not an unknown inside a `disagreements:` entry, which restates a field's or names another source's),
    and the texts of its keys that name a source or a file (:data:`NAMING_A_FILE`: `source:`, a rule
    index's `source_file:`) that hold a `\\` or a path on one computer's disk
    (:func:`patterns.may_name_a_path`: Q011 and Q012 read them; no other text is looked at).

    Each entry starts with the path of the node the walk met (what a variant may have replaced);
    a citation also has the path of the number (inside a list of numbers) and the number.
    """

    citations: tuple[tuple[NodePath, NodePath, str], ...]
    unknowns: tuple[tuple[NodePath, str], ...]
    pathlike: tuple[tuple[NodePath, str], ...] = ()


#: Walks by document. A document is never changed once read, so its walk holds for as long as the
#: document lives, and lives no longer: a long-lived session (`civrules lsp`) walks again only the
#: documents an edit replaced. (The 512 most recent walks kept their documents alive: every version
#: of an edited file stayed in memory, 3 MB per edit of the synthetic map at scale 10.)
_walks: memo.Attached[Document, Walk] = memo.Attached()


def document_walk(document: Document) -> Walk:
    """The citations and unknown facts of one document (walked once, then remembered)."""
    found = _walks.get(document)
    return found if found is not None else _walks.put(document, _walk(document))


def _walk(document: Document) -> Walk:
    """The walk of a document: each entry of a list reached through mappings from the top (a
    top-level list's, or a variant's `overlay: items: add:`) walked on its own, so that
    a long-lived session (:class:`civrules.schema.references.Remembered`) walks again only the
    entries an edit read again (:mod:`civrules.load.splice` keeps the others the same objects)."""
    data = document.data
    if not isinstance(data, dict) or not is_remembering():
        return _walk_node(data)  # the same walk in one piece, where nothing would keep the pieces
    cited: list[tuple[NodePath, NodePath, str]] = []
    unknowns: list[tuple[NodePath, str]] = []
    pathlike: list[tuple[NodePath, str]] = []
    _walk_mapping(data, (), cited, unknowns, pathlike, document.file)
    return Walk(tuple(cited), tuple(unknowns), tuple(pathlike))


def _walk_mapping(
    node: dict[str, Any],
    at: NodePath,
    cited: list[tuple[NodePath, NodePath, str]],
    unknowns: list[tuple[NodePath, str]],
    pathlike: list[tuple[NodePath, str]],
    file: str,
) -> None:
    """:func:`_walk_node` of the mapping ``node`` at ``at`` (in the document of ``file``), in the
    same order, with each entry of a list below it (through mappings) walked on its own and
    remembered; a list of another reading of the file is looked through again only in the entries
    that are not the same objects at the same places (:func:`each_remembered`: those a splice read
    again), not entry by entry."""
    if len(node) == 1 and "unknown" in node and "disagreements" not in at:
        unknowns.append((at, str(node["unknown"])))
    for key, value in node.items():
        here = (*at, key)
        if isinstance(value, dict) and key != "rule":
            _walk_mapping(value, here, cited, unknowns, pathlike, file)
            continue
        if not isinstance(value, list) or key in _CITING:
            found = _walk_node(value, here)
            cited.extend(found.citations)
            unknowns.extend(found.unknowns)
            pathlike.extend(found.pathlike)
            continue
        found_in = functools.partial(_entry_walk, value, here)
        each = list(filter(None, each_remembered((_walk_mapping, file, here), value, (), found_in, placed=False)))
        cited.extend(itertools.chain.from_iterable(map(_CITED, each)))
        unknowns.extend(itertools.chain.from_iterable(map(_UNKNOWNS, each)))
        pathlike.extend(itertools.chain.from_iterable(map(_PATHLIKE, each)))


#: The keys whose list is a citation's (its numbers, its sources), walked whole rather than entry by entry.
_CITING = frozenset({"rule", "source"})

#: The keys whose text names where a fact can be read: a `source:` (a citation, or words), and a rule
#: index's `source_file:` (the file its sections are read from). Every other key that names a file
#: (a manifest's `files:`, `rulebook.rule_index`, `suppress: file:`) is a path under `rules/` by its
#: schema, which refuses a drive, a share, `~/` and a leading `/`.
NAMING_A_FILE = frozenset({"source", "source_file"})


def _entry_walk(entries: list[Any], here: NodePath, i: int) -> tuple[Any, ...]:
    """The citations and unknowns (at their paths in the document) of the entry ``i`` of the list
    ``entries`` at ``here``, or ``()`` where it has none."""
    entry = entries[i]
    if not isinstance(entry, (dict, list)):
        return ()  # a value in a list that is no `rule:` cites nothing and is no unknown
    found = remembered(entry, (_walk_node,), functools.partial(_walk_node, entry))
    cited = tuple(((*here, i, *path), (*here, i, *number), n) for path, number, n in found.citations)
    # an unknown among a disagreement's alternatives is no fact
    unknown = () if "disagreements" in here else tuple(((*here, i, *path), why) for path, why in found.unknowns)
    pathlike = tuple(((*here, i, *path), text) for path, text in found.pathlike)
    return (cited, unknown, pathlike) if cited or unknown or pathlike else ()


_CITED, _UNKNOWNS, _PATHLIKE = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)


def _walk_node(node: Any, at: NodePath = ()) -> Walk:
    """The citations and unknown facts at and below ``node`` (at the path ``at``)."""
    cited: list[tuple[NodePath, NodePath, str]] = []
    unknowns: list[tuple[NodePath, str]] = []
    pathlike: list[tuple[NodePath, str]] = []
    # One path, grown and cut as the walk goes down and back up: a node's path is made a tuple only
    # where something is found there (a tuple per node, on a stack, was most of the walk's time).
    # Recursive: the reader refuses nesting deeper than its limit (`Limits.max_depth`, 100 levels).
    path: list[Any] = list(at)
    collections = (dict, list)

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            # A disagreement's `chosen` restates its field's value (Q008 holds them equal) and its
            # alternatives are values the data does not hold: an unknown there is no fact of its own.
            if len(node) == 1 and "unknown" in node and "disagreements" not in path:
                unknowns.append((tuple(path), str(node["unknown"])))
            for key, value in node.items():
                if isinstance(value, collections):
                    path.append(key)
                    visit(value)
                    path.pop()
                elif key == "rule" and isinstance(value, str):
                    here = (*path, key)
                    cited.append((here, here, value))
                elif key in NAMING_A_FILE and isinstance(value, str) and patterns.may_name_a_path(value):
                    pathlike.append(((*path, key), value))
        elif isinstance(node, list):
            if path and path[-1] == "rule":
                here = tuple(path)
                cited.extend((here, (*here, i), n) for i, n in enumerate(node) if isinstance(n, str))
            elif path and path[-1] in NAMING_A_FILE:
                pathlike.extend(
                    ((*path, i), n) for i, n in enumerate(node) if isinstance(n, str) and patterns.may_name_a_path(n)
                )
            for i, value in enumerate(node):
                if isinstance(value, collections):
                    path.append(i)
                    visit(value)
                    path.pop()
        elif isinstance(node, str) and path and path[-1] == "rule":
            here = tuple(path)
            cited.append((here, here, node))
        elif isinstance(node, str) and path and path[-1] in NAMING_A_FILE and patterns.may_name_a_path(node):
            pathlike.append((tuple(path), node))

    visit(node)
    return Walk(tuple(cited), tuple(unknowns), tuple(pathlike))


def walked(ruleset: Ruleset) -> Iterator[tuple[Document, Walk, Callable[[NodePath], bool]]]:
    """Each document of the ruleset's manifests and data files, once (not the rule index, which is what
    citations are checked against), its walk, and whether a node path was superseded (replaced by a
    variant: see :func:`superseded`)."""
    index_document = ruleset.rule_index.origin.document if ruleset.rule_index and ruleset.rule_index.origin else None
    for document, walk, paths in walks_of(ruleset, index_document):

        def gone(path: NodePath, paths: set[NodePath] | None = paths) -> bool:
            return replaced_at(path, paths)

        yield document, walk, gone


def walks_with_index(ruleset: Ruleset) -> list[tuple[Document, Walk, set[NodePath] | None]]:
    """:func:`walks_of` and, last, the rule index's own document (none of its nodes replaced): the
    checks of what a path-like text names (Q011, Q012) read the index's `source_file:` too."""
    index_document = ruleset.rule_index.origin.document if ruleset.rule_index and ruleset.rule_index.origin else None
    found = list(walks_of(ruleset, index_document))
    if index_document is not None:
        found.append((index_document, document_walk(index_document), None))
    return found


def replaced_at(path: NodePath, paths: set[NodePath] | None) -> bool:
    """Whether ``path`` is at or below one of ``paths`` (the nodes a variant replaced; None: none)."""
    return paths is not None and any(path[:end] in paths for end in range(len(path) + 1))


def walks_of(
    ruleset: Ruleset, index_document: Document | None
) -> Iterator[tuple[Document, Walk, set[NodePath] | None]]:
    """:func:`walked`, with the node paths of each document a variant replaced (None: none):
    found once per ruleset for the checks that read them (:func:`superseded` reads every document)."""
    found = _replaced.get(ruleset)
    if found is None or (found[0]() if found[0] is not None else None) is not index_document:
        _replaced.clear()  # one ruleset at a time: its checks run one after the other
        index = weakref.ref(index_document) if index_document is not None else None
        found = _replaced.put(ruleset, (index, list(_find_walks(ruleset, index_document))))
    documents = ruleset.documents
    return ((documents[place], walk, paths) for place, walk, paths in found[1])


#: What the checks of one ruleset share, found for the last ruleset they read and kept for as long
#: as it lives (:class:`memo.Attached`), with its documents named by their place in
#: ``ruleset.documents`` (a value holding them would keep them alive after it). Held strongly, the
#: last ruleset checked stayed alive in a long-lived session after the session let it go, with
#: every document it read: a variant an edit broke (S002 in its manifest) is checked no more, and
#: its version before the edit stayed (round 31).
_replaced: memo.Attached[Ruleset, tuple[weakref.ref[Document] | None, list[tuple[int, Walk, set[NodePath] | None]]]] = (
    memo.Attached(held=1)
)


def _find_walks(ruleset: Ruleset, index_document: Document | None) -> Iterator[tuple[int, Walk, set[NodePath] | None]]:
    replaced: dict[int, set[NodePath]] = {}
    for document_id, path in superseded(ruleset):
        replaced.setdefault(document_id, set()).add(path)
    seen: set[int] = set()
    for place, document in enumerate(ruleset.documents):
        if document is index_document or id(document) in seen:
            continue
        seen.add(id(document))
        yield place, document_walk(document), replaced.get(id(document))


#: The citations of :func:`citations`, as :data:`_replaced` keeps its walks.
_cited: memo.Attached[Ruleset, list[tuple[int, NodePath, str]]] = memo.Attached(held=1)


def citations(ruleset: Ruleset) -> Iterator[tuple[Document, NodePath, str]]:
    """Every `rule:` section cited in the ruleset's data: document, path of the number, the number.

    Found once per ruleset for the checks that read them: walking a large map once per check
    would multiply its cost.
    """
    found = _cited.get(ruleset)
    if found is None:
        _cited.clear()
        found = _cited.put(ruleset, list(_find_citations(ruleset)))
    documents = ruleset.documents
    return ((documents[place], path, number) for place, path, number in found)


def forget(documents: Iterable[Document]) -> None:
    """Let go of the walks of ``documents`` and of the last ruleset's citations: a build calls this
    once a ruleset is checked and nothing will check ``documents`` again (at 50× the synthetic
    ruleset's walks held 4 MB, and the memo kept its model alive)."""
    for document in documents:
        _walks.pop(document)
    _cited.clear()
    _replaced.clear()


def unprinted_citations(ruleset: Ruleset, index: Index) -> Iterator[tuple[Document, NodePath, str]]:
    """The citations of :func:`citations` of a number ``index`` prints no section of (what Q001,
    Q002 and Q003 report on: the numbers it does not know, its gaps, its missing sections), in order.

    Where no variant replaced a node of a document, which of its citations these are depends on its
    walk and on the rule index alone (its sections are those its document lists): while a
    session's memo holds the two (the very objects), the document's citations are not looked
    through again, however many rulesets (a base and its variants) read it; an edit looks through
    those of the documents it read again."""
    for document, walk, paths in walks_of(ruleset, index.document):
        if paths is None:
            found: tuple[tuple[NodePath, str], ...] = remembered(
                walk, (_unprinted, index.document), functools.partial(_unprinted, walk, None, index.sections)
            )
        else:
            found = _unprinted(walk, paths, index.sections)
        for path, number in found:
            yield document, path, number


def _unprinted(walk: Walk, paths: set[NodePath] | None, sections: frozenset[str]) -> tuple[tuple[NodePath, str], ...]:
    return tuple(
        (path, number)
        for node, path, number in walk.citations
        if number not in sections and not replaced_at(node, paths)
    )


def _find_citations(ruleset: Ruleset) -> Iterator[tuple[int, NodePath, str]]:
    places = {id(document): place for place, document in enumerate(ruleset.documents)}
    for document, walk, gone in walked(ruleset):
        place = places[id(document)]
        for node, path, number in walk.citations:
            if not gone(node):
                yield place, path, number


class _Closest:
    """The existing section a mistyped number most likely meant, at a bounded cost.

    First a one-slip variant (two neighbouring digits swapped, one digit dropped, changed or
    doubled), then the most similar number of the same chapter. Each distinct number is looked up
    once, at most :data:`~civrules.diagnostics.suggest.QUERIES` of them, and none longer than a section
    number can be (the variants of a number grow with the square of its length).
    """

    LONGEST = 24

    def __init__(self, index: Index) -> None:
        self.index = index
        #: Where sections are pages and headings, a heading is looked up among its page's, by its words.
        self.separator = "/" if index.numbering == "pages_and_headings" else "."
        self.longest = 120 if self.separator == "/" else self.LONGEST
        self.answers: dict[str, str | None] = {}
        # Made at the first number looked up: a ruleset citing only known sections (every ruleset
        # an edit checks again, mostly) never sorts its sections into chapters.
        self._known: frozenset[str] | set[str] | None = None
        self._chapters: dict[str, Vocabulary] | None = None

    @property
    def known(self) -> frozenset[str] | set[str]:
        known = self._known
        if known is None:
            known = self._known = self.index.sections | set(self.index.missing)
        return known

    @property
    def chapters(self) -> dict[str, Vocabulary]:
        if self._chapters is None:
            chapters: dict[str, list[str]] = {}
            for known in sorted(self.known):
                chapters.setdefault(known.split(self.separator, 1)[0], []).append(known)
            # A heading's words are long and share much with the page's other headings: only a near-exact
            # spelling is a slip (`dados-de-oito-faces` is not `dados-de-seis-faces`).
            cutoff = 0.9 if self.separator == "/" else 0.75
            self._chapters = {chapter: Vocabulary(numbers, cutoff=cutoff) for chapter, numbers in chapters.items()}
        return self._chapters

    def __call__(self, number: str) -> str | None:
        if number not in self.answers:
            if len(number) > self.longest or len(self.answers) >= QUERIES:
                return None
            self.answers[number] = self._find(number)
        return self.answers[number]

    def _find(self, number: str) -> str | None:
        if self.separator == "/":
            page = self.chapters.get(number.split("/", 1)[0])
            return page.closest(number) if page is not None else None
        digits = "0123456789"
        variants: list[str] = []
        for i in range(len(number) - 1):
            if number[i] != "." and number[i + 1] != ".":
                variants.append(number[:i] + number[i + 1] + number[i] + number[i + 2 :])
        for i, char in enumerate(number):
            if char == ".":
                continue
            variants.append(number[:i] + number[i + 1 :])
            variants.extend(number[:i] + d + number[i + 1 :] for d in digits if d != char)
            variants.extend(number[:i] + d + number[i:] for d in digits)
        for variant in variants:
            if variant in self.known and variant != number:
                return variant
        vocabulary = self.chapters.get(number.split(".", 1)[0])
        return vocabulary.closest(number) if vocabulary is not None else None


@check("Q001", "unknown-rule-section", Severity.ERROR)
def check_cited_sections(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `rule:` cites a section number that the ruleset's rule index does not know (neither
    printed nor known to be missing).

    Why: every fact must be traceable to its source section; a mistyped number sends a reader to the
    wrong rule, or to none.

    Fix: correct the number (the hint names the closest existing section; for a page or chapter
    past the rulebook's, the range it has and the nearest by their titles), or, if the section
    exists but the index lacks it, add it to the rule index.

        - id: lantern
          rule: "32.12"     # FAIL: no section 32.12; did you mean `32.21`?
    """
    index = rule_index(ruleset)
    if index is None:
        return
    closest = _Closest(index)
    for document, path, number in unprinted_citations(ruleset, index):
        if number in index.sections or number in index.missing or number in index.gaps:
            continue
        close = closest(number)
        enclosing = index.enclosing(number)
        if close is not None:
            hint = f"did you mean `{close}`?"
        elif enclosing is not None:
            hint = f"the nearest enclosing section is `{enclosing}`"
        else:
            hint = _beyond_the_rulebook(index, number)
        yield diagnostic(
            "Q001",
            f"section {number} is not in the rule index",
            document.span(path),
            hint,
            suggestion=close,
            subjects=(number,),
        )


def _beyond_the_rulebook(index: Index, number: str) -> str:
    """What a designer is told of a number no section is near (`p99` of a rulebook of 20 pages):
    the range its pages (or chapters) run over, and the nearest of them by number, with their
    titles, the words the designer finds in the rulebook.

    """
    pages = index.numbering == "pages_and_headings"
    head = re.match(r"(\D*)(\d+)", number.split("/" if pages else ".", 1)[0])
    if head is None:
        return "no section of the rulebook is near this number"
    prefix, wanted = head.group(1), int(head.group(2))
    tops: dict[int, str] = {}
    for known in (*index.sections, *index.missing):
        found = re.fullmatch(rf"{re.escape(prefix)}(\d+)", known)
        if found is not None:
            tops[int(found.group(1))] = known
    if not tops:
        return "no section of the rulebook is near this number"
    titles = (
        {
            item["section"]: item["title"]
            for item in (index.document.data or {}).get("sections") or ()
            if isinstance(item, dict) and isinstance(item.get("section"), str) and isinstance(item.get("title"), str)
        }
        if isinstance(index.document.data, dict)
        else {}
    )
    below = [at for at in tops if at < wanted]
    above = [at for at in tops if at > wanted]
    nearest = [tops[at] for at in (max(below, default=None), min(above, default=None)) if at is not None]
    named = " or ".join(
        f"`{n}` ({json.dumps(titles[n], ensure_ascii=False)})" if n in titles else f"`{n}`" for n in nearest
    )
    what = "pages" if pages else "chapters"
    first, last = tops[min(tops)], tops[max(tops)]
    verb = "is" if len(nearest) == 1 else "are"
    return f"the rulebook's {what} run from `{first}` to `{last}`: the nearest {verb} {named}"


@check("Q002", "rule-in-sequence-gap", Severity.ERROR)
def check_gap_citations(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `rule:` cites a number the rule index lists under `sequence_gaps`: a number skipped in
    the printed text, which probably existed in the original rulebook but whose text nobody has.

    Why: the fact cannot come from that section, since its text is not in the sources; the citation
    is a guess, or a typo for a neighbouring section.

    Fix: cite the section the fact was read from (often the enclosing one).

        rule: "2.3"     # FAIL: 2.2-2.7 are not printed; the text jumps from 2.1 to 2.8
    """
    index = rule_index(ruleset)
    if index is None:
        return
    for document, path, number in unprinted_citations(ruleset, index):
        if number not in index.gaps or number in index.sections or number in index.missing:
            continue
        enclosing = index.enclosing(number)
        hint = f"cite the section the fact was read from, e.g. the enclosing `{enclosing}`" if enclosing else None
        yield diagnostic(
            "Q002",
            f"section {number} is a gap in the printed rulebook (`sequence_gaps`): its text is not in the sources",
            document.span(path),
            hint,
            subjects=("sequence_gaps",),
        )


@check("Q003", "cites-missing-section", Severity.INFO)
def check_missing_citations(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `rule:` cites a section the rule index lists under `missing`: it exists (it is cited or
    known from the rulebook's order of play) but its text is not in the sources.

    Why: the citation is right, but the fact beside it cannot be checked against the text; such facts
    are usually `{unknown: ...}` and worth a second source.

    Fix: nothing, while the section is lost; when a copy of it is found, add it to `sections`.

        - players: 6
          rule: "16.4"     # INFO: 16.4 is missing from the source text
    """
    index = rule_index(ruleset)
    if index is None:
        return
    for document, path, number in unprinted_citations(ruleset, index):
        if number in index.missing and number not in index.sections:
            yield diagnostic(
                "Q003",
                f"section {number} is cited, but its text is missing from the sources",
                document.span(path),
                index.missing[number] or None,
                subjects=(number,),
            )


def _index_entries(data: Mapping[str, Any]) -> Iterator[tuple[str, NodePath, str]]:
    """Every number an index lists: which list, the path of the number, the number."""
    for key in ("sections", "missing"):
        for i, item in enumerate(data.get(key) or ()):
            if isinstance(item, dict) and isinstance(item.get("section"), str):
                yield key, (key, i, "section"), item["section"]
    for i, number in enumerate(data.get("sequence_gaps") or ()):
        if isinstance(number, str):
            yield "sequence_gaps", ("sequence_gaps", i), number


@check("Q004", "duplicate-index-section", Severity.ERROR)
def check_index_unique(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the rule index lists a section number twice: twice in `sections`, or in more than one of
    `sections`, `missing` and `sequence_gaps` (or twice among the `online_help` paragraphs).

    Why: a number is printed, missing or a gap, never two of these; citations are checked against
    the index, so a contradiction there makes every citation of the number doubtful.

    Fix: keep one entry; a second paragraph printed with the same number goes under `duplicates`.

        sections:
          - {section: "4.22", ...}
        missing:
          - {section: "4.22", ...}      # FAIL: 4.22 is printed
    """
    index = rule_index(ruleset)
    if index is not None:
        found: tuple[Diagnostic, ...] = remembered(
            index, (_duplicate_sections,), lambda: tuple(_duplicate_sections(index))
        )
        yield from found


def _duplicate_sections(index: Index) -> Iterator[Diagnostic]:
    """Q004's findings in ``index``: they depend on the index alone (kept with it while a session holds it)."""
    if not isinstance(index.document.data, dict):
        return
    data = index.document.data
    groups: list[list[tuple[str, NodePath, str]]] = [list(_index_entries(data))]
    online = data.get("online_help")
    if isinstance(online, dict):
        groups.append(
            [
                ("online_help.sections", ("online_help", "sections", i, "section"), item["section"])
                for i, item in enumerate(online.get("sections") or ())
                if isinstance(item, dict) and isinstance(item.get("section"), str)
            ]
        )
    for entries in groups:
        first: dict[str, tuple[str, NodePath]] = {}
        wheres: dict[str, list[str]] = {}
        for where, _, number in entries:
            wheres.setdefault(number, []).append(where)
        for where, path, number in entries:
            previous = first.setdefault(number, (where, path))
            if previous == (where, path):
                continue
            if previous[0] == where:
                lists = f"{words.times(wheres[number].count(where))} in `{where}`"
            else:
                lists = f"in `{previous[0]}` and in `{where}`"
            yield diagnostic(
                "Q004",
                f"section {number} is listed {lists}",
                index.document.span(path),
                "keep one entry per number",
                [Related(index.document.span(previous[1]), "first listed here")],
                subjects=(number, previous[0], where),
            )


@check("Q005", "dangling-index-section", Severity.ERROR)
def check_index_references(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an entry of the rule index names a section the index does not have: a `parent`, a
    `cited_by` of a missing section, or the `duplicates_rule` of an online-help paragraph.

    Why: the index is the ground truth citations are checked against; an entry hanging from a
    section that is not there is a typo or a forgotten `missing` entry.

    Fix: correct the number, or add the section (to `missing` if its text is not printed).

        - section: "4.22"
          parent: "4.7"      # FAIL: no section 4.7
    """
    index = rule_index(ruleset)
    if index is not None:
        found: tuple[Diagnostic, ...] = remembered(
            index, (_dangling_sections,), lambda: tuple(_dangling_sections(index))
        )
        yield from found


def _dangling_sections(index: Index) -> Iterator[Diagnostic]:
    """Q005's findings in ``index``: they depend on the index alone (kept with it while a session holds it)."""
    if not isinstance(index.document.data, dict):
        return
    data = index.document.data
    known = index.sections | set(index.missing)
    online = data.get("online_help")
    online_items = online.get("sections") if isinstance(online, dict) else None
    online_known = {
        item["section"]
        for item in online_items or ()
        if isinstance(item, dict) and isinstance(item.get("section"), str)
    }
    found: list[tuple[NodePath, str, str, frozenset[str] | set[str]]] = []
    for key in ("sections", "missing"):
        for i, item in enumerate(data.get(key) or ()):
            if not isinstance(item, dict):
                continue
            if isinstance(item.get("parent"), str):
                found.append(((key, i, "parent"), item["parent"], "parent", known))
            for c, citer in enumerate(item.get("cited_by") or ()):
                if isinstance(citer, str):
                    found.append(((key, i, "cited_by", c), citer, "citing section", known))
    known_or_online = known | online_known  # one set for every online section, not a copy each
    for i, item in enumerate(online_items or ()):
        if not isinstance(item, dict):
            continue
        path: NodePath = ("online_help", "sections", i)
        if isinstance(item.get("parent"), str):
            found.append(((*path, "parent"), item["parent"], "parent", known_or_online))
        if isinstance(item.get("duplicates_rule"), str):
            found.append(((*path, "duplicates_rule"), item["duplicates_rule"], "copied section", index.sections))
    closest = _Closest(index)
    for at, number, what, allowed in found:
        if number in allowed:
            continue
        span: Span = index.document.span(at)
        yield diagnostic(
            "Q005",
            f"{what} {number} is not a section of the rule index",
            span,
            f"did you mean `{close}`?" if (close := closest(number)) else "add the section, or fix the number",
            suggestion=close,
            subjects=(number,),
        )


@check("Q009", "uncited-change", Severity.ERROR, reads=(ALL_COLLECTIONS, SETTINGS))
def check_cited_changes(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a variant's `patch` writes a fact and cites no source: an entity's patch, a change of a
    setting under `overlay.settings` (a list setting's list operations too), or a list
    operation's `with:` (or `append`, `insert` items), with no `rule:` or `source:` on the
    field, on what its list operations write, or on the patch entry. Deleting a fact writes
    none, and needs no citation: `null`, a list's `remove:`; nor does an `{unknown: why}` or a `note`;
    nor a patch that sets every field it names to the value it has (V013 tells that one), nor
    entries of the variant that leave a field as its base has it (a change written over by one
    restoring the base's value: V012 tells it).
    Every patch entry whose facts a field still holds answers for them, not only the last entry
    that changed it: two entries appending to one list each cite what they append, and an entry
    whose every fact a later one wrote over or deleted needs no citation any more. A setting
    written whole (`overlay.settings.replace`, `add`), and an entity a variant adds or replaces,
    whose schema takes `rule:` or `source:` without requiring it (a family's settings, a border)
    must cite there too; a list of ids or a number takes none of its own, and is cited by its name
    in `overlay.settings.citations` (`{some_setting: {source: "house rule: ..."}}`), written
    whole or changed by list operations.

    Why: rule data are facts from sources, each cited; an entity a variant adds without a citation
    is an error (S004), and a patch is the same fact written over its base's. Uncited, the new
    value is shown under nothing (`export`'s `field_sources` and `setting_sources` say null, the
    diff says "uncited") while the package and the sheets keep the base's citation beside it.

    Fix: say where the change comes from in the patch entry: `source: "house rule: write why here"`
    for a house rule (your reason in place of the blank), or `rule:` with the section of the
    rulebook it follows. A variant of a variant
    that puts back the value its base definition writes is offered that definition's citation,
    with a note at the earlier variant's change it writes over.

        overlay:
          items:
            patch:
              - {id: lantern, cost: 12}    # FAIL: `cost` is changed with no citation
              - {id: lantern, cost: 12, source: "house rule: a dearer lantern"}    # PASS
              - {id: lantern, rebate: {cost: 8}}    # FAIL: its rebate of 8 is still there, uncited
              - {id: lantern, rebate: {item: oak}, source: "house rule: ..."}
          settings:
            regions: {append: [fens]}    # FAIL: a list of ids, cited nowhere
            citations: {regions: {source: "house rule: a sixth region"}}    # PASS: cites it
    """
    own = len(ruleset.chain) - 1
    if own < 1:
        return
    written: list[tuple[str, str | None, Origin, str]] = []  # what a message calls it, its setting, id
    family = family_named(ruleset.family)
    for collection in ruleset.collections():
        spec = family.collections.get(collection.name) if family is not None else None
        for entity in _overlaid(collection)[0]:
            # a border is named as the patch names it (`areas: [a, b]`), not by its key `a|b`
            shown = spec.shown(entity.id) if spec is not None else f"`{entity.id}`"
            written.append((shown, None, entity.origin, entity.id))
    for key, origin in sorted(ruleset.setting_origins.items()):
        if origin.changes:
            written.append((f"the setting `{key}`", key, origin, key))
    for what, setting, origin, subject in written:
        # Every overlay entry whose facts a field still holds answers for them (not the field's
        # last changer alone, which may have left them: an append after an append, a `remove:`).
        uncited: dict[tuple[str, NodePath], tuple[Origin, list[str]]] = {}
        for name, _ in origin.changes:
            if name in CITATION_FIELDS or name == "note" or _restored(origin, name, own, ruleset.layers):
                continue
            for writer, nodes in cited_writers(origin, name) or ():
                if ruleset.layers.get(writer.file) == own and not nodes:
                    names = uncited.setdefault((writer.file, writer.path), (writer, []))[1]
                    names.append(name)
        for change, names in uncited.values():
            fields = words.listed(names)
            verb = "is" if len(names) == 1 else "are"
            # A list setting's list operations change the setting itself, not a field of it; they
            # have no entry to cite on but what they write (a `with:`, the items they add).
            listed = setting is not None and names == [setting]
            where = "in each `with:` (and each item added)" if listed else "in the patch"
            hint = (
                f'cite where the change comes from {where}: `source: "house rule: write why here"` for a house rule, '
                "or `rule:` with the rulebook section it follows"
            )
            if listed and setting is not None and not _elements_cite(family, setting):
                hint = _cite_apart(setting, "the elements of `{setting}` take no citation (nor does the setting)")
            related: tuple[Related, ...] = ()
            if setting is None and len(names) == 1:
                restated = _base_citation_restated(origin, names[0], own, ruleset.layers)
                if restated is not None:
                    hint += f"; it puts back the base's own value: cite it as the base does, `{restated}`"
                related = _earlier_change(origin, names[0], own, ruleset.layers)
            yield diagnostic(
                "Q009",
                f"{what if listed else f'{what}: {fields}'} {verb} changed with no citation "
                "(no `rule:` or `source:` in the patch)",
                change.document.key_span((*change.path, names[0])),
                hint,
                related,
                subjects=(subject,) if listed else (subject, *names),
            )
    yield from _uncited_whole_settings(ruleset, family, own)
    yield from _uncited_whole_entities(ruleset, family, own)


def _final_value(origin: Origin, name: str) -> Any:
    """The value the field ``name`` of what was read from ``origin`` holds as its last change left
    it (:data:`_ABSENT`: none recorded): looked up in its records, not searched for (each of n
    uncited fields of one entity searched the records of all n, the square of n)."""
    found = record_of(origin.writers, name)
    return _ABSENT if found is None else found[2]


def _earlier_change(origin: Origin, name: str, own: int, layers: Mapping[str, int]) -> tuple[Related, ...]:
    """The note at the change of the field ``name`` that the variant (layer ``own``) writes over,
    where an earlier variant of its chain made it (the middle one of three): the value it
    changes is that variant's, not the base definition's. None where no earlier variant changed it."""
    earlier = [change for change in changers(origin, name) if layers.get(change.file, own) < own]
    if not earlier:
        return ()
    last = earlier[-1]
    return (
        Related(last.document.key_span((*last.path, name)), "the value it changes, an earlier variant's", at_base=True),
    )


def _base_citation_restated(origin: Origin, name: str, own: int, layers: Mapping[str, int]) -> str | None:
    """The base definition's citation, written as a patch writes it (`rule: "32.21"`), where the
    variant (layer ``own``) sets the field ``name`` back to the value the definition gives it after
    an earlier variant changed it; None otherwise."""
    if origin.replaced or not any(layers.get(change.file, own) < own for change in changers(origin, name)):
        return None
    final = _final_value(origin, name)
    node: Any = origin.document.data
    for part in origin.path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(node, dict) or name not in node or not _same_fact(node[name], final):
        return None
    cited = [(key, node[key]) for key in CITATION_FIELDS if isinstance(node.get(key), (str, int, float))]
    return ", ".join(f"{key}: {json.dumps(str(value), ensure_ascii=False)}" for key, value in cited) or None


def _restored(origin: Origin, name: str, own: int, layers: Mapping[str, int]) -> bool:
    """Whether the entries of the variant (layer ``own``) that changed the field ``name`` of what
    was read from ``origin``, and no earlier layer's, leave it as its definition writes it: a change
    written over by one that restores the base's value (V012 tells it). The field then holds the
    definition's fact, cited there: nothing of the variant's is left to cite."""
    written = changers(origin, name)
    if not written or origin.replaced or any(layers.get(change.file) != own for change in written):
        return False
    final = _final_value(origin, name)
    node: Any = origin.document.data
    for part in (*origin.path, name):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    return _same_fact(node, final)


#: No value recorded (a field whose writers are not logged).
_ABSENT = object()


def _same_fact(one: Any, other: Any) -> bool:
    """Whether two values are the same fact: equal, and of the same type at every level (`1` is
    not `true`)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        return one.keys() == other.keys() and all(_same_fact(one[k], other[k]) for k in one)
    if isinstance(one, list):
        return len(one) == len(other) and all(_same_fact(a, b) for a, b in zip(one, other, strict=True))
    return bool(one == other)


def _elements_cite(family: Family | None, setting: str) -> bool:
    """Whether the elements of the list setting ``setting`` take a citation of their own (where
    the family or the setting is not known, assume they do)."""
    keys = _citation_keys(family, setting)
    return keys is None or bool(keys[1])


def _citation_keys(family: Family | None, setting: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Where the setting takes a citation (:func:`civrules.schema.setting_citation_keys`), read
    from the schema of the kind of file that holds it; None where the family does not know it."""
    slot = family.settings.get(setting) if family is not None else None
    return None if family is None or slot is None else setting_citation_keys(family.slot_kind(slot), setting)


def _uncited_whole_settings(ruleset: Ruleset, family: Family | None, own: int) -> Iterator[Diagnostic]:
    """Q009 for each setting the variant's overlay writes whole, citing nothing, where its schema
    takes a citation beside its fields (a list of ids or a number has no place for one)."""
    if family is None:
        return
    for key, origin in sorted(ruleset.setting_origins.items()):
        whole = setting_written_whole(origin)
        if whole is None or ruleset.layers.get(origin.file) != own:
            continue
        value, citing = whole
        if citing or not holds_a_fact(value):
            continue
        keys = _citation_keys(family, key)
        if keys is None:
            continue  # no setting of the family (the schema reports it)
        beside, elements = keys
        if beside and isinstance(value, dict):
            hint = f"cite where it comes from beside its fields, in `{_entry_path(origin.path)}`: " + ", or ".join(
                _CITE_WAYS[k] for k in reversed(beside)
            )
        elif not beside and not elements:
            # a list of ids, a number: cited by its name in `overlay.settings.citations`
            hint = _cite_apart(key, "`{setting}` takes no citation of its own (a list of ids, a number)")
        else:
            continue  # an `{unknown}` in place of a mapping; a list whose elements cite (S004 asks them)
        yield diagnostic(
            "Q009",
            f"the setting `{key}` is written with no citation (no `rule:` or `source:` in it)",
            origin.document.key_span(origin.path),
            hint,
            subjects=(key,),
        )


def _cite_apart(setting: str, why: str) -> str:
    """Q009's hint for a setting that takes no citation of its own: `overlay.settings.citations`
    cites it (:func:`civrules.resolve.settings_citation`)."""
    return (
        f"{why.format(setting=setting)}: cite where it comes from in `overlay.settings.{SETTINGS_CITATIONS}`, "
        f'`{SETTINGS_CITATIONS}: {{{setting}: {{source: "house rule: write why here"}}}}` for a house rule, '
        f'or `{{{setting}: {{rule: "{blanks.SECTION}"}}}}` with the rulebook section it follows'
    )


@check("Q010", "citation-of-no-change", Severity.WARNING, reads=())
def check_settings_citations_used(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: `overlay.settings.citations` cites a setting this variant's overlay does not write: it
    neither patches it (`overlay.settings.<setting>`) nor puts it whole (`replace:`, `add:`); a
    removal (`remove:`) writes no fact, and needs no citation.

    Why: a citation there is where a change of a setting that takes none of its own (a list of ids,
    a number) comes from; one that names no change cites nothing. Q009, `export`'s
    `setting_sources` and `diff` never read it, so an auditor reading the manifest takes a setting
    for changed and cited where it is neither: most often the change was moved, deleted or
    misspelt, and its citation left behind.

    Fix: write the change beside its citation, or delete the citation.

        overlay:
          settings:
            replace: {some_setting: [a, b]}
            citations:
              some_setting: {source: "house rule: ..."}    # PASS: the setting is written above
              other_setting: {source: "house rule: ..."}   # FAIL: no change of it to cite
    """
    if len(ruleset.chain) < 2:
        return
    document = ruleset.manifest.document
    overlay = document.data.get("overlay") if isinstance(document.data, dict) else None
    settings = overlay.get("settings") if isinstance(overlay, dict) else None
    cited = settings.get(SETTINGS_CITATIONS) if isinstance(settings, dict) else None
    if not isinstance(settings, dict) or not isinstance(cited, dict):
        return
    written = {key for key in settings if key not in _SETTING_OPERATIONS}
    for whole in ("replace", "add"):
        put = settings.get(whole)
        written.update(put if isinstance(put, dict) else ())
    for name in cited:
        if not isinstance(name, str) or name in written:
            continue
        removed = settings.get("remove")
        why = (
            "removes it, and a removal writes no fact"
            if isinstance(removed, list) and name in removed
            else ("does not write it")
        )
        yield diagnostic(
            "Q010",
            f"`overlay.settings.{SETTINGS_CITATIONS}` cites the setting `{name}`, but this variant's overlay {why}: "
            "the citation cites no change",
            document.key_span((*SETTINGS_PATH, SETTINGS_CITATIONS, name)),
            f"write the change of `{name}` under `overlay.settings` (a patch, `replace:` or `add:`), or delete "
            "its citation",
            subjects=(name,),
        )


@check("Q011", "backslashed-citation-path", Severity.WARNING)
def check_cited_paths_use_slashes(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `source:` cites a repository's file at a commit with a path written with `\\`
    (`owner/repo@<commit>:rules\\cards\\x.yaml`), as Windows writes paths.

    Why: git names a file with `/`; a path with `\\` names one file whose name holds backslashes,
    which no one can open on GitHub, and which the provenance guard (`make provenance-check`) and a
    reader checking the citation look for in vain. A `\\` is a character a file's name may hold,
    so the citation is not refused: most likely it was copied from a Windows checkout.

    Fix: write the path with `/` (the hint gives it; an editor offers it as a quick fix).

        source: 'owner/repo@<commit>:rules\\cards\\x.yaml'    # FAIL: `rules\\cards\\x.yaml`
        source: "owner/repo@<commit>:rules/cards/x.yaml"      # PASS
    """
    for document, walk, paths in walks_with_index(ruleset):
        for path, text in walk.pathlike:
            slashed = patterns.slashed_paths(text)
            if slashed is None or replaced_at(path, paths):
                continue
            written = patterns.backslashed_paths(text)
            named = " and ".join(f"`{each}`" for each in written)
            fixed = " and ".join(f"`{patterns.with_slashes(each)}`" for each in written)
            noun, verb = ("paths", "are") if len(written) > 1 else ("path", "is")
            yield diagnostic(
                "Q011",
                f"the cited {noun} {named} {verb} written with `\\`: git writes a repository's paths with `/`, so "
                "this names one file whose name holds backslashes, which a reader will most likely not find",
                document.span(path),
                f"write {'them' if len(written) > 1 else 'it'} with `/`: {fixed}",
                suggestion=slashed,
                subjects=written,
            )


@check("Q012", "local-path-source", Severity.WARNING)
def check_sources_name_no_local_path(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `source:`, or a rule index's `source_file:`, names a file by its path on one computer: a
    Windows drive (`C:\\Users\\me\\notes.txt`, `C:/...`), a network share (`\\\\server\\share\\...`),
    a `file:` URL, a home folder (`~/...`), or an absolute path under `/home/`, `/Users/`, `/tmp/`...

    Why: no one but the computer's user can open that file, so no reader of the rule data can check
    the fact against its source. A `source:` that does not start as a repository citation is taken
    as words, so the schema lets it through.

    Fix: cite the file where a reader can find it: a public repository's file at a commit
    (`owner/repo@<commit>:path`), a transcription of `shared/sources/community/`
    (`community/x.csv`), or, for a rule of your own, `house rule: ...` in words. A `source_file:`
    names its text by its path in the project (`shared/sources/...`).

        source: 'C:\\Users\\me\\civ\\costs.csv'                    # FAIL: a file on one computer
        source: "owner/repo@<commit>:data/costs.csv"            # PASS
        source: "house rule: a dearer item at our table"        # PASS
    """
    for document, walk, paths in walks_with_index(ruleset):
        for path, text in walk.pathlike:
            written = patterns.local_paths(text)
            if not written or replaced_at(path, paths):
                continue
            named = " and ".join(f"`{each}`" for each in written)
            what, it = ("paths", "them") if len(written) > 1 else ("a path", "it")
            key = next((part for part in reversed(path) if isinstance(part, str)), "source")
            if key == "source":
                said, checked = "the source", "the fact"
                hint = (
                    "cite the file where a reader can find it: a repository's file at its commit "
                    "(`owner/repo@<40-hex commit>:path`), a file of `shared/sources/community/` (`community/x.csv`), "
                    "or, for a rule of your own, `house rule: ...` in words"
                )
            else:  # a rule index's `source_file:`, the text its sections are read from
                said, checked = f"`{key}`", "what is read from it"
                hint = (
                    "keep the text where every reader of the rule data has it and name it by its path relative "
                    "to the workspace root, as other rule indexes do (`shared/sources/...`)"
                )
            yield diagnostic(
                "Q012",
                f"{said} names {named}, {what} on one computer's disk: no reader of the rule data can open "
                f"{it} to check {checked}",
                document.span(path),
                hint,
                subjects=written,
            )


#: The keys of `overlay.settings` that are no setting: its operations and its citations.
_SETTING_OPERATIONS = frozenset({"replace", "add", "remove", SETTINGS_CITATIONS})


def _uncited_whole_entities(ruleset: Ruleset, family: Family | None, own: int) -> Iterator[Diagnostic]:
    """Q009 for each entity the variant's overlay adds (or puts in another's place) citing nothing,
    where its schema takes a citation it does not require (a border: a map file cites its borders
    at its top, a variant's manifest has no such place). Where the schema requires one, an
    uncited entity is S004."""
    for collection in ruleset.collections():
        for entity in _overlaid(collection)[1]:
            origin = entity.origin
            whole = entity_written_whole(origin) if ruleset.layers.get(origin.file) == own else None
            if whole is None or whole[1]:
                continue
            keys = _entity_citation_keys(family, whole[0])
            if not keys:
                continue
            yield diagnostic(
                "Q009",
                f"`{entity.id}` is written with no citation (no `rule:` or `source:` in it)",
                origin.span(),
                f"cite where it comes from in `{_entry_path(origin.path)}`: "
                + ", or ".join(_CITE_WAYS[k] for k in reversed(keys)),
                subjects=(entity.id,),
            )


def _overlaid(collection: Collection[Entity]) -> tuple[tuple[Entity, ...], tuple[Entity, ...]]:
    """The entities of ``collection`` an overlay entry changed, and those an overlay wrote (its
    `overlay.<collection>`: whole, by `add` or `replace`, or not): the only ones Q009 looks at.
    Kept while the collection is the same object (a session's memo): each variant holding its
    base's collections, thousands of entities none of which an overlay touched, looks at none."""

    def find() -> tuple[tuple[Entity, ...], tuple[Entity, ...]]:
        changed = tuple(entity for entity in collection if entity.origin.changes)
        overlaid = tuple(entity for entity in collection if entity.origin.path[:1] == ("overlay",))
        return changed, overlaid

    found: tuple[tuple[Entity, ...], tuple[Entity, ...]] = remembered(collection, (_overlaid,), find)
    return found


#: How Q009's hints say to write each citation key.
_CITE_WAYS = {
    "source": '`source: "house rule: write why here"` for a house rule',
    "rule": "`rule:` with the rulebook section it follows",
}


def _entry_path(path: NodePath) -> str:
    """``path`` as Q009's hints write it: `overlay.borders.add[0]`."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" if i else str(p) for i, p in enumerate(path))


def _entity_citation_keys(family: Family | None, collection: str) -> tuple[str, ...]:
    """The citation keys an entity of ``collection`` takes, read from the schema of the kind of
    file that holds it; none where the family does not know the collection."""
    spec = family.collections.get(collection) if family is not None else None
    return () if family is None or spec is None else entity_citation_keys(family.slot_kind(spec.slot), spec.path)
