"""What the language server knows about positions: where every id is defined and used, what an
entity is, which keys a schema allows at a place, and the fixes diagnostics suggest.

Pure functions over a :class:`civrules.pipeline.incremental.Result`, so they are tested without a client.
Positions here are :class:`civrules.diagnostics.Span` values (1-based lines and columns, the end
column exclusive, columns in code points), as everywhere in civrules; the server converts them to
and from LSP's positions in :mod:`civrules.lsp.positions`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import PurePosixPath
from typing import Any

from civrules.checks import entity_word
from civrules.diagnostics import Diagnostic, Span, codes, words
from civrules.diagnostics.markup import markdown_code, markdown_text
from civrules.families import CollectionSpec, Family, HoverList, families
from civrules.load import Document, NodePath
from civrules.load.names import SHIPPED
from civrules.load.workspace import MAX_EXTENDS, Workspace
from civrules.pipeline.incremental import Result
from civrules.resolve import SETTING_OPERATIONS, entity_key
from civrules.schema import validator_for
from civrules.schema.references import (
    LIST_OPERATIONS,
    Ref,
    find_references,
    item_nodes,
    node_at,
    ref_at,
    schema_of,
)
from civrules.support import memo

#: The family of each qualified file kind: each kind is one family's (another family's kinds are
#: qualified by its id), and a file is read with its own family's collections and settings, never
#: with another family's of the same name (every family has `phases`, two have `decks`).
_FAMILY_OF_KIND = {
    family.qualified_kind(kind): family
    for family in families().values()
    for kind in (*family.kinds, *family.slots.values())
}


def _named_by_kind() -> dict[str, tuple[tuple[str, CollectionSpec], ...]]:
    """The collections whose entities are defined by an `id` (a border is named by its two areas,
    a track by its side, a player count by its number: those are references, not names), by the
    qualified kind of the files that hold them, each family's in its own files."""
    found: dict[str, list[tuple[str, CollectionSpec]]] = {}
    for family in families().values():
        for name, spec in family.collections.items():
            if spec.key == "id":
                found.setdefault(family.slot_kind(spec.slot), []).append((name, spec))
    return {kind: tuple(named) for kind, named in found.items()}


_NAMED_BY_KIND = _named_by_kind()


def family_of_kind(kind: str | None) -> Family | None:
    """The family whose files are of the qualified kind ``kind`` (None: no family's)."""
    return _FAMILY_OF_KIND.get(kind) if kind is not None else None


#: Keys whose values are prose or citations, never ids.
_PROSE = frozenset(
    {"name", "text", "note", "why", "source", "rule", "kind", "unknown", "description", "title", "reason"}
)


def _is_manifest(kind: str | None) -> bool:
    """Whether a file of the qualified kind ``kind`` is a ruleset manifest (of any family)."""
    return kind is not None and kind.rpartition("/")[2] == "ruleset"


@dataclass(frozen=True, slots=True)
class Symbol:
    """One occurrence of an id: a definition or a reference, in a file (relative to rules/)."""

    collection: str
    id: str
    relative: str
    span: Span
    definition: bool
    document: Document = field(compare=False, repr=False)
    path: NodePath = ()


def where_defined(symbol: Symbol) -> str:
    """The file of ``symbol`` as the server's texts (a hover, a rename's refusal) name it: a file
    shipped with civrules behind `<civrules>/`, as Q007's and R013's messages and
    `validate --format json` name it, not by where it is installed (or, in civrules' checkout, by
    its path from the working directory, `rules/...`, which read as a file of the rules folder);
    a file of the rules folder as its diagnostics name it.

    >>> installed = Span.at("/opt/civrules/_rules/items/x.yaml")
    >>> where_defined(Symbol("items", "a", "<civrules>/items/x.yaml", installed, True, None))
    '<civrules>/items/x.yaml'
    """
    return symbol.relative if symbol.relative.startswith(SHIPPED) else symbol.span.file


#: The overlay operations that change a base's entities, as an outline shows each entity they name.
_CHANGED = {"patch": "patched", "replace": "replaced", "remove": "removed"}


@dataclass(frozen=True, slots=True)
class Outline:
    """An entry of a file's outline (the editor's outline view and breadcrumbs): a collection, with
    its entities as children, or one entity (a ruleset's own id, an entity a list defines)."""

    name: str
    #: What the editor shows beside the name: an entity's `name`, a collection's entity count.
    detail: str
    #: "ruleset", "collection" or the collection's entity word ("card", "area", ...).
    kind: str
    #: The whole entry: every child's span lies inside it.
    span: Span
    #: What the editor selects and reveals: the id, or the collection's key.
    selection: Span
    children: tuple[Outline, ...] = ()


def _around(*spans: Span) -> Span:
    """The smallest span holding every one of ``spans`` (of one file)."""
    start = min((s.line, s.column) for s in spans)
    end = max((s.end_line, s.end_column) for s in spans)
    return Span(spans[0].file, start[0], start[1], end[0], end[1])


class RenameRefusedError(Exception):
    """A rename that cannot be done; the message says why, in the editor's words."""


def _invalid_id(family: Family | None, collection: str, new: str) -> str | None:
    """Why ``new`` cannot be the id of an entity of ``family``'s ``collection`` (its schema's
    `id`), or None."""
    spec = family.collections.get(collection) if family is not None else None
    schema = schema_of(family.slot_kind(spec.slot)) if family is not None and spec is not None else None
    if spec is None or schema is None:
        return "this collection has no id of its own"
    nodes = node_at(schema, (*spec.path, spec.key))
    from jsonschema.exceptions import best_match

    # civrules' own validator: its patterns are JSON Schema's (`$` is the end of the text), so a
    # new name ending in a line break is refused as `validate` refuses it.
    validator = validator_for({"$defs": schema.get("$defs", {}), "anyOf": list(nodes)})
    error = best_match(validator.iter_errors(new))
    if error is None:
        return None
    shapes = list(_branches(dict(schema), {"anyOf": list(nodes)}))
    pattern = next((n["pattern"] for n in shapes if "pattern" in n), None)
    allowed = next((n["enum"] for n in shapes if "enum" in n), None)
    if allowed is not None:
        return "the schema fixes these ids: " + ", ".join(f"`{a}`" for a in allowed)
    if pattern is not None:
        return f"an id matches `{pattern}` (lower_snake_case: a letter, then letters, digits and `_`)"
    return str(error.message)


@dataclass(frozen=True, slots=True)
class _FileSymbols:
    """One reading of a file's ids: its definitions, and every reference its schema declares
    (kept whether or not the id is defined: that depends on the other files)."""

    document: Document
    kind: str | None
    definitions: tuple[Symbol, ...]
    references: tuple[Symbol, ...]
    #: The definitions and the references together, in the order of their places in the file.
    ordered: tuple[Symbol, ...]

    @classmethod
    def of(cls, relative: str, document: Document, kind: str) -> _FileSymbols:
        definitions = tuple(_definitions(relative, document, kind))
        references = tuple(_references(relative, document, kind))
        ordered = sorted((*definitions, *references), key=lambda s: (s.span.line, s.span.column))
        return cls(document, kind, definitions, references, tuple(ordered))


@dataclass(frozen=True, slots=True)
class Parsed:
    """An editor buffer's last reading that parsed, and the files its rulesets read then."""

    document: Document
    kind: str
    scope: frozenset[str]


class Index:
    """Every id occurrence of a session result, by file and by id.

    Built after every run a request follows, from the ``previous`` index where given: a file read
    the same (the session keeps its reading while its content is unchanged) gives the symbols found
    in it before, so an edit walks only the files it changed for ids. Editing a variant walked every
    card, area and event of its rulesets again: 0.1 s at the largest shipped ruleset, 0.2 s at
    ten times its size, before a hover or a definition after each keystroke.
    """

    def __init__(
        self, result: Result, previous: Index | None = None, parsed: Mapping[str, Parsed] | None = None
    ) -> None:
        self.result = result
        self.by_file: dict[str, list[Symbol]] = {}
        self.by_id: dict[str, list[Symbol]] = {}
        #: The qualified kind of each file the result read (a family's `dice` is `example-dice/dice`).
        self.kinds: dict[str, str | None] = {}
        self._files: dict[str, _FileSymbols] = {}
        #: Per file of ``by_file``, made at its first :meth:`at`: see :func:`_places`.
        self._places: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
        #: Per ruleset and collection, made at the first hover of one of its ids: see :meth:`_keyed`.
        self._entities: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        #: The editor's buffers that do not parse as typed (``- {card: dem``, a mapping not closed
        #: yet), and since round 35 files on disk so broken: the ids of their last reading that
        #: parsed (``parsed``), and the files their rulesets read then. Completion alone uses
        #: them: ids, no places (the text has moved).
        self._last_parsed: dict[str, tuple[_FileSymbols, frozenset[str]]] = {}
        #: The files that do not parse as typed (an editor's buffer, or a file on disk no editor has
        #: open), with the kind they were last read as (None: read it from the text's `kind:` line):
        #: their outline, workspace symbols, hover and definition come from the part before the
        #: error (:meth:`_before_error`). Files on disk were left out until round 35: a cards file
        #: saved broken by another program dropped every card from "go to symbol in workspace".
        self._broken: dict[str, str | None] = {}
        self._partial: dict[str, _FileSymbols | None] = {}
        workspace = result.workspace
        if workspace is None:
            return
        earlier = previous._files if previous is not None else {}
        remembered = previous._last_parsed if previous is not None else {}
        # The shipped files the result read too (a variant in the rules folder extending a shipped
        # ruleset): its base's ids are defined there. Left out, a definition, a hover or a completion
        # of a base id in the variant found nothing, and each reference to one was dropped.
        for relative in (*result.files, *sorted(workspace.shipped_keys().values())):
            loaded = workspace.load(relative)
            if loaded.document is None or loaded.kind is None:
                last = (parsed or {}).get(relative)
                if loaded.document is None and not relative.startswith(SHIPPED):
                    # A buffer opened broken, never parsed this session: the kind its `kind:` line
                    # writes (its text is at hand), so that completion offers its family's ids.
                    # Until round 36 it offered none (a variant's `- {id: tar` typed before the
                    # first run: no area).
                    typed = workspace.overrides.get(relative)
                    written = written_kind(typed, workspace) if last is None and typed is not None else None
                    self._broken[relative] = last.kind if last is not None else written
                if last is not None:
                    # A file on disk too (round 35): its ids stay offered while another program has it broken.
                    entry = earlier.get(relative) or remembered.get(relative, (None,))[0]
                    if entry is None or entry.document is not last.document or entry.kind != last.kind:
                        entry = _FileSymbols.of(relative, last.document, last.kind)
                    self._last_parsed[relative] = (entry, last.scope)
                continue
            entry = earlier.get(relative)
            if entry is None or entry.document is not loaded.document or entry.kind != loaded.kind:
                entry = _FileSymbols.of(relative, loaded.document, loaded.kind)
            self._files[relative] = entry
            self.kinds[relative] = loaded.kind
        definitions = [symbol for entry in self._files.values() for symbol in entry.definitions]
        known: dict[str, set[str]] = {}
        for symbol in definitions:
            known.setdefault(symbol.id, set()).add(symbol.collection)
        defined_at = {(s.relative, s.path) for s in definitions}

        def kept(symbol: Symbol) -> bool:
            """A definition, or a reference to an id defined in its collection (not its own)."""
            if symbol.definition:
                return True
            return symbol.collection in known.get(symbol.id, ()) and (symbol.relative, symbol.path) not in defined_at

        symbols = list(definitions)
        for relative, entry in self._files.items():
            symbols.extend(symbol for symbol in entry.references if kept(symbol))
            # In the order of their places, as the file's symbols were sorted when it was read.
            in_file = [symbol for symbol in entry.ordered if kept(symbol)]
            if in_file:
                self.by_file[relative] = in_file
        for symbol in symbols:
            self.by_id.setdefault(symbol.id, []).append(symbol)

    def at(self, relative: str, line: int, column: int) -> Symbol | None:
        """The id occurrence under a 1-based position, if any: the first of the file's, in their
        order, whose span holds it (a span of one line also holds its end, where a cursor rests
        after an id). Two searches of the file's places, not a walk of its symbols: a hover or a
        definition walked every id of a file before the one under the cursor."""
        symbols = self.by_file.get(relative)
        if not symbols:
            return None
        places = self._places.get(relative)
        if places is None:
            places = self._places[relative] = _places(symbols)
        starts, reaches = places
        first = bisect_right(reaches, (line, column))  # the first span that reaches past the position
        return symbols[first] if first < bisect_right(starts, (line, column)) else None

    def scope(self, relative: str) -> set[str]:
        """The files the rulesets using ``relative`` read: where its ids are defined."""
        files: set[str] = set()
        for name in self.result.rulesets_using(relative):
            files |= self.result.depends[name]
        return files

    def kin(self, relative: str) -> set[str]:
        """The files of ``relative``'s family (by their kinds), where no ruleset reads it: a new file's
        ids are looked for in its own game's files, not in any game's collection of that name
        (every family has `phases`)."""
        family = self.family_of_file(relative)
        return {other for other in self.by_file if self.family_of_file(other) is family}

    def definitions(self, symbol: Symbol) -> list[Symbol]:
        """Where the id of ``symbol`` is defined, in the rulesets that use its file (else in its
        family's files)."""
        found = [s for s in self.by_id.get(symbol.id, ()) if s.definition and s.collection == symbol.collection]
        scope = self.scope(symbol.relative)
        scoped = [s for s in found if s.relative in scope]
        if scoped:
            return scoped
        kin = self.kin(symbol.relative)
        return [s for s in found if s.relative in kin]

    def references(self, symbol: Symbol, *, include_definition: bool = True) -> list[Symbol]:
        """Every occurrence of the id of ``symbol`` in its collection."""
        return [
            s
            for s in self.by_id.get(symbol.id, ())
            if s.collection == symbol.collection and (include_definition or not s.definition)
        ]

    def references_as_typed(self, symbol: Symbol, *, include_definition: bool = True) -> tuple[list[Symbol], list[str]]:
        """:meth:`references`, with those the files that do not parse name in the part before their
        error (:meth:`_before_error`, at their places now); and each such file whose text names the
        id (as a word), named as diagnostics name it at its error's line: what it names after its
        error is not listed. Until round 36 such a file was left out of the list, unsaid."""
        found = self.references(symbol, include_definition=include_definition)
        unread: list[str] = []
        named = re.compile(rf"(?<![\w-]){re.escape(symbol.id)}(?![\w-])")
        for relative in sorted(self._broken):
            text = self._broken_text(relative)
            if text is None or named.search(text) is None:
                continue
            entry = self._before_error(relative)
            found.extend(
                s
                for s in (entry.ordered if entry is not None else ())
                if s.id == symbol.id and s.collection == symbol.collection and (include_definition or not s.definition)
            )
            unread.append(self._shown(relative))
        return found, unread

    def renamable(self, symbol: Symbol) -> list[Symbol]:
        """The definitions of the id of ``symbol`` a rename starts from; :class:`RenameRefusedError`
        says why there is none to rename."""
        if symbol.collection == "rulesets":
            raise RenameRefusedError(
                f"`{symbol.id}` is a ruleset's id, which is its manifest's file name: rename the file "
                f"(rulesets/{symbol.id}.yaml) and its `id:` together, and each `extends: {symbol.id}`"
            )
        defined = self.definitions(symbol)
        if not defined:
            raise RenameRefusedError(
                f"no {self._word(symbol)} `{symbol.id}` is defined where this file is used: nothing to rename"
            )
        family = self.family_of_file(defined[0].relative)
        named = family.named_by(symbol.collection, symbol.id) if family is not None else None
        if family is not None and named is not None:
            # The family's code names the id, not the data: a rename rewrote the data and its checks
            # then reported every use of the new id (until round 35: 95 errors for one good).
            raise RenameRefusedError(
                f"`{symbol.id}` is {words.a(self._word(symbol))} id the {family.name} family's own rules name "
                f"({named}): a rename would rewrite the data and leave them naming `{symbol.id}`, so it cannot be "
                "renamed; to call it otherwise, change its `name:`"
            )
        shipped = next((s for s in defined if s.relative.startswith(SHIPPED)), None)
        if shipped is not None:
            raise RenameRefusedError(
                f"`{symbol.id}` is defined in a ruleset shipped with civrules ({where_defined(shipped)}), which "
                "a rename cannot edit"
            )
        self._refuse_beside_broken(symbol.id)
        return defined

    def _shown(self, relative: str) -> str:
        """A file that does not parse, named as diagnostics name it, at the line of its first error."""
        workspace = self.result.workspace
        errors = workspace.load(relative).diagnostics if workspace is not None else []
        line = min((d.span.line for d in errors if d.span is not None), default=None)
        return self.result.files.get(relative, relative) + (f":{line}" if line is not None else "")

    def _refuse_beside_broken(self, identifier: str) -> None:
        """Refuse a rename of ``identifier`` while a file that does not parse names it: where it
        names it is known only in the part before its error, and a manifest that does not parse
        reads no files at all, so the rename would leave it behind there, unsaid. Until round 35
        a variant whose buffer did not parse kept its `patch: - {id: a}` after a rename of `a`
        (an overlay target missing once it parsed)."""
        named = re.compile(rf"(?<![\w-]){re.escape(identifier)}(?![\w-])")
        for relative in sorted(self._broken):
            text = self._broken_text(relative)
            if text is None or named.search(text) is None:
                continue
            raise RenameRefusedError(
                f"{self._shown(relative)} does not parse, and names `{identifier}`: a rename now would leave it there; "
                "rename once the file parses"
            )

    def rename(self, symbol: Symbol, new: str) -> list[Symbol]:
        """Every occurrence to rewrite to rename the id of ``symbol`` to ``new``: its definitions
        and every reference to them, in every file of the rulesets that read those definitions.

        Raises :class:`RenameRefusedError` where ``new`` is not an id the collection's schema allows,
        or an entity of the collection already has it there.
        """
        defined = self.renamable(symbol)
        family = self.family_of_file(defined[0].relative)
        word = self._word(symbol)
        problem = _invalid_id(family, symbol.collection, new)
        if problem is not None:
            raise RenameRefusedError(f"`{new}` is not a valid {word} id: {problem}")
        scope: set[str] = set()
        for definition in defined:
            scope |= self.scope(definition.relative) or {definition.relative}
        same = [s for s in self.by_id.get(new, ()) if s.definition and s.collection == symbol.collection]
        taken = [s for s in same if s.relative in scope]
        if taken and new != symbol.id:
            where = f"{where_defined(taken[0])}:{taken[0].span.line}"
            raise RenameRefusedError(f"{words.a(word)} `{new}` already exists ({where}): choose another id")
        found = [s for s in self.by_id.get(symbol.id, ()) if s.collection == symbol.collection and s.relative in scope]
        return found + self._suppress_targets(symbol, scope) + self._chosen_restated(symbol, found)

    def _chosen_restated(self, symbol: Symbol, found: list[Symbol]) -> list[Symbol]:
        """The id in the `chosen` value of each `disagreements:` entry that restates a field the
        rename rewrites (`field: kinds`, `chosen: [a, b]`): a rename
        rewrites it too, where it is the field's value now. `chosen` is a copy of a value, so no
        schema declares it a reference, and until round 35 a rename left it behind: Q008 then said
        the entry chose a value the data does not hold."""
        restated: list[Symbol] = []
        seen: set[tuple[str, NodePath]] = set()
        for occurrence in found:
            document, path = occurrence.document, occurrence.path
            family = self.family_of_file(occurrence.relative)
            naming = family.naming_keys if family is not None else ("id",)
            if len(path) >= 3 and isinstance(path[-2], int) and path[-1] in naming:
                # An element of a list named by its id: a `field: "items[a].cost"`
                # selects it by that id (left behind, the entry compared nothing, unsaid).
                owner_path, listed = path[:-3], path[-3]
                for number, span in _selectors(
                    _node(document.data, owner_path), listed, symbol.id, document, owner_path
                ):
                    at = (*owner_path, "disagreements", number, "field")
                    if (occurrence.relative, (*at, span.column)) not in seen:
                        seen.add((occurrence.relative, (*at, span.column)))
                        restated.append(
                            Symbol(symbol.collection, symbol.id, occurrence.relative, span, False, document, at)
                        )
            for cut in range(len(path) - 1, -1, -1):
                for number, chosen in _restating(_node(document.data, path[:cut]), path[cut], naming):
                    for leaf in _leaves_of(chosen, symbol.id):
                        at = (*path[:cut], "disagreements", number, "chosen", *leaf)
                        if (occurrence.relative, at) not in seen:
                            seen.add((occurrence.relative, at))
                            span = document.span(at)
                            restated.append(
                                Symbol(symbol.collection, symbol.id, occurrence.relative, span, False, document, at)
                            )
        return restated

    def _suppress_targets(self, symbol: Symbol, scope: set[str]) -> list[Symbol]:
        """The `suppress:` entries of the manifests in ``scope`` whose `target` is the id of
        ``symbol``: a rename rewrites them too. A target is any subject of a diagnostic (an id, a
        key, a file), so no schema declares it a reference, and until round 35 a rename left it
        behind: the entry then silenced nothing (V008) and the diagnostic it silenced came back.
        Refused where the scope defines the id in another collection too: which one the entry
        means is not written."""
        found: list[Symbol] = []
        for relative in sorted(scope):
            entry = self._files.get(relative)
            data = entry.document.data if entry is not None and _is_manifest(entry.kind) else None
            listed = data.get("suppress") if isinstance(data, dict) else None
            for number, item in enumerate(listed if isinstance(listed, list) else ()):
                if not (isinstance(item, dict) and item.get("target") == symbol.id):
                    continue
                assert entry is not None  # data came from it
                path: NodePath = ("suppress", number, "target")
                span = entry.document.span(path)
                others = {
                    s.collection
                    for s in self.by_id.get(symbol.id, ())
                    if s.definition and s.relative in scope and s.collection != symbol.collection
                }
                if others:
                    raise RenameRefusedError(
                        f"{span.file}:{span.line}: `suppress` entry {number + 1}'s target `{symbol.id}` may mean "
                        f"the {' or the '.join(sorted(o.replace('_', ' ') for o in others))} of that id too, and "
                        "which it means is not written: rename by hand"
                    )
                found.append(Symbol(symbol.collection, symbol.id, relative, span, False, entry.document, path))
        return found

    def _before_error(self, relative: str) -> _FileSymbols | None:
        """The ids of a buffer that does not parse, as the part of its text before the YAML error
        reads (made once per index): each place is one in the text as it is now. The last reading
        that parsed would have given every entity, but at places the text has moved from since (a
        line typed above them), so the outline would select the wrong lines. The part is cut
        before the line where the error was found and read again, cut again while it does not
        parse (an unclosed `{` is found on the line after it, then at the end of the part)."""
        if relative in self._partial:
            return self._partial[relative]
        self._partial[relative] = None
        workspace = self.result.workspace
        text = self._broken_text(relative)
        if workspace is None or text is None:
            return None
        kind = self._broken[relative] or written_kind(text, workspace)
        if kind is None:
            return None
        from civrules.load.reader import read_yaml_text

        lines = text.splitlines(keepends=True)
        diagnostics = workspace.load(relative).diagnostics
        for _ in range(_CUTS):
            # Where the error was found, not where what it was parsing began (libyaml's "while
            # parsing a block mapping" names the mapping's start: the root's, for a typo at its end).
            first = min((d.span.line for d in diagnostics if d.span is not None), default=1)
            cut = min(first - 1, len(lines) - 1)  # the last line, where the error is at the end
            if cut <= 0:
                return None
            lines = lines[:cut]
            document, diagnostics = read_yaml_text("".join(lines), workspace.load(relative).path, workspace.limits)
            if document is not None:
                if not isinstance(document.data, dict):
                    return None
                self._partial[relative] = _FileSymbols.of(relative, document, kind)
                return self._partial[relative]
        return None

    def _broken_text(self, relative: str) -> str | None:
        """The text of a file that does not parse (see :attr:`_broken`): the editor's buffer, else
        the file as it is on disk now, read as civrules reads a file (no link followed, within the
        size bound). None: not such a file, or it cannot be read."""
        workspace = self.result.workspace
        if workspace is None or relative not in self._broken:
            return None
        text = workspace.overrides.get(relative)
        if text is not None:
            return text
        from civrules.load.lines import decode
        from civrules.support.files import RefusedError

        try:
            return decode(workspace.read_bytes(relative))
        except (OSError, RefusedError):
            return None

    def at_as_typed(self, relative: str, line: int, column: int) -> Symbol | None:
        """The id under a position for hover and go to definition: :meth:`at`, and in a file that
        does not parse as typed, the ids of the part before its error (:meth:`_before_error`), at
        their places in the text as it is now; a reference only to an id defined where the file
        looks (:meth:`definitions_as_typed`). Until round 35 both answered nothing in such a file.
        A rename still needs the whole file (one that missed the ids after the error would be
        wrong); references list the part before it, and say so (:meth:`references_as_typed`)."""
        if relative in self.by_file or relative not in self._broken:
            return self.at(relative, line, column)
        entry = self._before_error(relative)
        for symbol in entry.ordered if entry is not None else ():
            if covers(symbol.span, line, column) and (symbol.definition or self.definitions_as_typed(symbol)):
                return symbol
        return None

    def definitions_as_typed(self, symbol: Symbol) -> list[Symbol]:
        """:meth:`definitions`, else where the parts before the errors of the files that do not
        parse define the id (in the files the symbol's file looks in, :meth:`looked_in`, and its
        own), at their places in the text as it is now."""
        found = self.definitions(symbol)
        if found:
            return found
        looked = self.looked_in(symbol.relative) | {symbol.relative}
        for relative in sorted(self._broken.keys() & looked):
            entry = self._before_error(relative)
            found.extend(
                s
                for s in (entry.definitions if entry is not None else ())
                if s.id == symbol.id and s.collection == symbol.collection
            )
        return found

    def outline(self, relative: str) -> list[Outline]:
        """The outline of ``relative``: the ruleset a manifest defines, and each list of entities the
        file defines (a collection, a variant's `overlay.<collection>.add`), its entities by id, in
        the order written. From the symbols the file's reading gave: no walk of the file. A buffer
        that does not parse as typed: the part before its error (:meth:`_before_error`); it was
        empty until round 34."""
        entry = self._files.get(relative) or self._before_error(relative)
        if entry is None:
            return []
        document = entry.document
        found: list[Outline] = []
        lists: dict[NodePath, list[Outline]] = {}
        plurals: dict[NodePath, str] = {}
        for symbol in entry.definitions:
            if symbol.collection == "rulesets":
                found.append(Outline(symbol.id, _name_of(document.data), "ruleset", symbol.span, symbol.span))
                continue
            at = symbol.path[:-1]  # the entity: (*list, index)
            entity = _node(document.data, at)
            span = _around(document.span(at), symbol.span)
            word = self._word(symbol)
            lists.setdefault(at[:-1], []).append(Outline(symbol.id, _name_of(entity), word, span, symbol.span))
            plurals[at[:-1]] = symbol.collection.replace("_", " ")
        for symbol in entry.references:
            # A variant's `overlay.<collection>.patch` (replace, remove): the entities it changes, by
            # id. Until round 36 a variant that only patched its base had an outline of one line.
            at = symbol.path[:-1]
            if len(at) != 4 or at[0] != "overlay" or at[2] not in _CHANGED or symbol.path[-1] != "id":
                continue
            span = _around(document.span(at), symbol.span)
            changed = Outline(symbol.id, _CHANGED[str(at[2])], self._word(symbol), span, symbol.span)
            lists.setdefault(at[:-1], []).append(changed)
            plurals[at[:-1]] = symbol.collection.replace("_", " ")
        for path, entities in lists.items():
            key = document.key_span(path)
            count = words.count(len(entities), entities[0].kind, plurals[path])
            span = _around(key, document.span(path), *(e.span for e in entities))
            found.append(Outline(".".join(map(str, path)), count, "collection", span, key, tuple(entities)))
        return sorted(found, key=lambda o: (o.span.line, o.span.column))

    def symbols(self, query: str) -> list[tuple[Symbol, str]]:
        """Every entity defined in the files the rulesets read whose id or name holds ``query``
        (any case; an empty query: every one), with its name as written (or nothing): the editor's
        "go to symbol in workspace". Ids that start with the query first, then by id and file."""
        wanted = query.casefold().strip()
        found: list[tuple[Symbol, str]] = []
        partial = (self._before_error(relative) for relative in sorted(self._broken))
        for entry in (*self._files.values(), *(p for p in partial if p is not None)):
            for symbol in entry.definitions:
                data = symbol.document.data
                name = _name_of(data if symbol.collection == "rulesets" else _node(data, symbol.path[:-1]))
                if not wanted or wanted in symbol.id.casefold() or wanted in name.casefold():
                    found.append((symbol, name))
        found.sort(key=lambda one: (not one[0].id.casefold().startswith(wanted), one[0].id, one[0].relative))
        return found

    def looked_in(self, relative: str) -> set[str]:
        """The files completion in ``relative`` offers from: its rulesets' (:meth:`scope`), else
        those of its last reading that parsed (a manifest that does not parse has no rulesets),
        else its family's (:meth:`kin`)."""
        last = self._last_parsed.get(relative)
        return self.scope(relative) or (set(last[1]) if last is not None else set()) or self.kin(relative)

    def ids(self, relative: str) -> list[tuple[str, str]]:
        """(id, collection) of every entity defined where ``relative``'s rulesets look, sorted. A
        buffer that does not parse as typed looks where it did when it last parsed, and the ids
        defined in its last reading that parsed count: until round 34 completion offered none of
        them (``- {card: dem`` in the cards file), nor any of a broken manifest's rulesets (a
        variant's ``overlay.civilization_cards.patch: - {id: pot``)."""
        scope = self.looked_in(relative)
        found = {(s.id, s.collection) for f in scope for s in self.by_file.get(f, ()) if s.definition}
        for file in scope & self._last_parsed.keys():
            found.update((s.id, s.collection) for s in self._last_parsed[file][0].definitions)
        return sorted(found)

    def extendable(self, relative: str) -> list[str]:
        """The ids of the rulesets an `extends:` in the manifest ``relative`` may name, sorted: every
        ruleset of its family a name can mean (the rules folder's own, and every shipped one), but
        its own and those whose chain of bases reaches it (a cycle).

        The cycles are judged from each manifest's `extends:` as written (its head), not from what
        the result resolved: a manifest that does not parse as typed is resolved by nothing, so a
        ruleset extending it was offered (round 36). Until round 36 completion offered the ids of
        the rulesets the manifest reads: with its `extends:` being typed, none but its own."""
        workspace = self.result.workspace
        if workspace is None:
            return []
        entry = self._files.get(relative) or self._before_error(relative)
        own = {s.id for s in (entry.definitions if entry is not None else ()) if s.collection == "rulesets"}
        own = own or {PurePosixPath(relative).stem}  # no id read yet: the one its file name gives (R006)
        family = self.family_of_file(relative)
        known = workspace.known_manifests()
        found: set[str] = set()
        for ruleset_id, manifest in known.items():
            if family is not None and manifest.family is not family:
                continue
            # One whose chain reaches this manifest extends it: naming it would close a cycle.
            seen: set[str] = set()
            current: object = ruleset_id
            while isinstance(current, str) and current not in seen and len(seen) <= MAX_EXTENDS:
                seen.add(current)  # a base not known too: this manifest's own id, while it is broken
                base = known.get(current)
                current = base.head.get("extends") if base is not None else None
            if not seen & own:
                found.add(ruleset_id)
        return sorted(found)

    def sources(self, relative: str) -> list[str]:
        """Every `source:` text (one line) of the files ``relative``'s rulesets read, sorted: what
        completion offers in a `source:` value, so a designer cites a source as the ruleset already
        cites it. Each document is walked once for as long as it lives."""
        scope = self.looked_in(relative)
        found: set[str] = set()
        for file in scope:
            entry = self._files.get(file) or (self._last_parsed[file][0] if file in self._last_parsed else None)
            if entry is not None:
                cited = _sources.get(entry.document)
                found.update(cited if cited is not None else _sources.put(entry.document, _sources_of(entry.document)))
        return sorted(found)

    def describe(self, symbol: Symbol) -> str:
        """Markdown for hovering an id: what the entity is, as the rulesets using the file resolve it."""
        collection = symbol.collection
        defined = self.definitions_as_typed(symbol)
        if collection == "rulesets":
            analysis = self.result.analyses.get(symbol.id)
            data = analysis.loaded.manifest.data if analysis is not None else {}
            name = data.get("name")
            shown = name if isinstance(name, str) else symbol.id
            lines = [f"**{markdown_text(shown)}** — ruleset {markdown_code(symbol.id)}"]
            if isinstance(data.get("extends"), str):
                lines.append(f"extends {markdown_code(data['extends'])}")
            return "\n\n".join(lines)
        raw, rulesets = self._resolved(symbol)
        family = self._family(symbol, rulesets)
        label = entity_word(collection, family.id if family is not None else None)
        partly = None
        if raw is None and defined:
            node = _node(defined[0].document.data, defined[0].path[:-1])
            raw = node if isinstance(node, dict) else None
            if defined[0].relative in self._broken:
                partly = defined[0].relative
        name = raw.get("name") if raw is not None else None
        shown = name if isinstance(name, str) else symbol.id
        lines = [f"**{markdown_text(shown)}** — {markdown_text(label)} {markdown_code(symbol.id)}"]
        if partly is not None:
            # Facts read from the part before a YAML error: the entity may go on after it.
            lines.append(f"as the text before the YAML error at {markdown_code(self._shown(partly))} has it")
        if raw is not None:
            lines.extend(entity_facts(family, collection, raw))
            if "rule" in raw:
                lines.append(markdown_text(f"rule {_show(raw['rule'])}"))
        where = ", ".join(markdown_code(f"{where_defined(d)}:{d.span.line}") for d in defined[:3])
        if where:
            lines.append(f"defined at {where}")
        if rulesets:
            more = len(rulesets) - words.SHOWN  # every variant of a base reads its files
            resolved = ", ".join(markdown_code(r) for r in rulesets[: words.SHOWN])
            lines.append(f"as resolved in {resolved}" + (f" and {more:,} more" if more > 0 else ""))
        return "\n\n".join(lines)

    def _family(self, symbol: Symbol, rulesets: list[str]) -> Family | None:
        """The family of the ruleset at hand: the first that resolves the entity, else the family
        whose kinds hold the symbol's file (None: neither is known)."""
        for name in rulesets:
            analysis = self.result.analyses.get(name)
            if analysis is not None:
                return analysis.loaded.family
        return self.family_of_file(symbol.relative)

    def family_of_file(self, relative: str) -> Family | None:
        """The family whose kinds hold the file ``relative`` as the result read it, or as it was
        last read where it does not parse now (None: unknown)."""
        return family_of_kind(self.kinds.get(relative) or self._broken.get(relative))

    def _word(self, symbol: Symbol) -> str:
        """One entity of the symbol's collection in words, as the family of its file words it."""
        family = self.family_of_file(symbol.relative)
        return entity_word(symbol.collection, family.id if family is not None else None)

    def _resolved(self, symbol: Symbol) -> tuple[dict[str, Any] | None, list[str]]:
        chosen: dict[str, Any] | None = None
        using: list[str] = []
        for name in self.result.rulesets_using(symbol.relative):
            spec = self.result.analyses[name].loaded.family.collections.get(symbol.collection)
            if spec is None:
                continue
            raw = self._keyed(name, symbol.collection, spec).get(symbol.id)
            if raw is not None:
                chosen = chosen if chosen is not None else raw
                using.append(name)
        return chosen, using

    def _keyed(self, ruleset: str, collection: str, spec: CollectionSpec) -> dict[str, dict[str, Any]]:
        """The entities of ``collection`` as ``ruleset`` resolves it, by key (a key's first entity),
        made once per index: each hover walked the collection of every ruleset using the file."""
        found = self._entities.get((ruleset, collection))
        if found is None:
            found = self._entities[ruleset, collection] = {}
            resolved = self.result.analyses[ruleset].resolved
            for entry in resolved.collections.get(collection, ()) if resolved is not None else ():
                key = entity_key(spec, entry.raw)
                if key is not None:
                    found.setdefault(key, entry.raw)
        return found


#: The `source:` texts of each document (see :meth:`Index.sources`), for as long as it lives.
_sources: memo.Attached[Document, frozenset[str]] = memo.Attached()


def _sources_of(document: Document) -> frozenset[str]:
    """The one-line `source:` texts of a document (a text or a list of them)."""
    found: set[str] = set()
    stack: list[Any] = [document.data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                cited = value if key == "source" and isinstance(value, list) else [value] if key == "source" else ()
                found.update(text for text in cited if isinstance(text, str) and text and "\n" not in text)
                if isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, (dict, list)))
    return frozenset(found)


#: The keys whose value is a citation, as :mod:`civrules.checks.citations` and hover read them.
CITING = ("rule", "source")


#: How many times a broken buffer's text is cut and read again for its part before the error.
_CUTS = 6

#: A top-level `kind:`, `family:` or `extends:` line and its value (plain or quoted, a comment after).
_WRITTEN_KEY = re.compile(r"""^(kind|family|extends):[ \t]*(['"]?)([A-Za-z0-9_.-]+)\2[ \t]*(?:#.*)?$""", re.MULTILINE)


def written_kind(text: str, workspace: Workspace | None = None) -> str | None:
    """The qualified kind a text that does not parse says it is, as civrules would judge it parsed:
    its `kind:` line's, of the one family that has that kind; else a manifest's family is the one
    its `family:` line names, else its base's (the ruleset its `extends:` line names, as
    ``workspace`` knows it), else the default; a data file's is among the families of the rules
    folder's rulesets (:func:`civrules.schema.family_of_kind`). Until round 36 the family was the
    default's: a manifest of another family opened broken was read as the default family's (its
    completion offered that game's ids), and so was a data file of a kind two families have."""
    from civrules.families import default_family, family_named
    from civrules.schema import family_of_kind, qualify

    written: dict[str, str] = {}
    for key, _, value in _WRITTEN_KEY.findall(text):
        written.setdefault(key, value)  # the first: a repeated key is the reader's to refuse
    if "kind" not in written:
        return None
    found = {k for k in _FAMILY_OF_KIND if k.rpartition("/")[2] == written["kind"]}
    if len(found) == 1:
        return found.pop()
    family: Family | None = None
    if not _is_manifest(written["kind"]):
        family = family_of_kind(written["kind"], workspace.families_here() if workspace is not None else ())
    else:
        family = family_named(written["family"]) if "family" in written else None
        if family is None and "extends" in written and workspace is not None:
            base = workspace.known_manifests().get(written["extends"])
            family = base.family if base is not None else None
    kind = qualify(family or default_family(), written["kind"])
    return kind if kind in found else None


def _places(symbols: list[Symbol]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where each of a file's symbols (sorted by where they start) starts, and the furthest that
    it or one before it reaches. A span holds a position at or after its start and before its
    reach: its end, or just past its end for a span of one line (which holds its end too). Both
    lists are sorted: the symbols that start at or before a position come first, and the first
    whose reach is past it is where the furthest reach first passes it."""
    starts = [(s.span.line, s.span.column) for s in symbols]
    ends = (
        (s.span.end_line, s.span.end_column + 1 if s.span.line == s.span.end_line else s.span.end_column)
        for s in symbols
    )
    return starts, list(accumulate(ends, max))


def _definitions(relative: str, document: Document, kind: str | None) -> Iterator[Symbol]:
    data = document.data
    if not isinstance(data, dict):
        return
    if _is_manifest(kind) and isinstance(data.get("id"), str):
        yield Symbol("rulesets", data["id"], relative, document.span(("id",)), True, document, ("id",))
    for name, spec in _NAMED_BY_KIND.get(kind, ()) if kind is not None else ():
        items = _node(data, spec.path)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                path: NodePath = (*spec.path, i, "id")
                yield Symbol(name, item["id"], relative, document.span(path), True, document, path)
    family = family_of_kind(kind)
    overlay = data.get("overlay") if _is_manifest(kind) and family is not None else None
    if isinstance(overlay, dict) and family is not None:
        for name, operations in overlay.items():
            added = family.collections.get(str(name))
            if added is None or added.key != "id" or not isinstance(operations, dict):
                continue
            if not isinstance(operations.get("add"), list):
                continue
            for i, item in enumerate(operations["add"]):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    at: NodePath = ("overlay", str(name), "add", i, "id")
                    yield Symbol(name, item["id"], relative, document.span(at), True, document, at)


def _references(relative: str, document: Document, kind: str | None) -> Iterator[Symbol]:
    """Every reference the schemas declare in the document (``x-civrules-ref``); in a manifest,
    also what its overlay names and writes. Those to an id no file defines in that collection, and
    a definition's own id, are left out by :class:`Index`."""
    data = document.data
    schema = schema_of(kind) if kind is not None else None
    if schema is None or not isinstance(data, dict):
        return
    found = [(path, target, ref.collection) for path, target, ref in find_references(schema, (schema,), data)]
    family = family_of_kind(kind)
    if _is_manifest(kind) and family is not None and isinstance(data.get("overlay"), dict):
        found.extend(_overlay_references(data["overlay"], family))
    for path, target, collection in found:
        yield Symbol(collection, target, relative, document.span(path), False, document, path)


def _overlay_references(overlay: dict[str, Any], family: Family) -> Iterator[tuple[NodePath, str, str]]:
    """The references of a variant's overlay: the key of each entity it patches, replaces or
    removes, and what the entities and settings it writes refer to (read with the schema of the
    collection or setting of ``family``, the manifest's, they change, list operations included)."""
    for name, operations in overlay.items():
        if not isinstance(operations, dict):
            continue
        if name == "settings":
            for key, value in operations.items():
                written = value.items() if key in SETTING_OPERATIONS and isinstance(value, dict) else ()
                at: NodePath = ("overlay", "settings", key)
                for setting, whole in written:
                    yield from _setting_references(family, (*at, setting), str(setting), whole)
                if key not in SETTING_OPERATIONS:
                    yield from _setting_references(family, at, str(key), value, patches=True)
            continue
        spec = family.collections.get(str(name))
        schema = schema_of(family.slot_kind(spec.slot)) if spec is not None else None
        if spec is None or schema is None:
            continue
        items = node_at(schema, spec.path, item=True)
        for operation, entries in operations.items():
            for i, entry in enumerate(entries if isinstance(entries, list) else ()):
                if not isinstance(entry, dict):
                    continue
                here: NodePath = ("overlay", str(name), str(operation), i)
                if operation != "add" and spec.key == "id" and isinstance(entry.get("id"), str):
                    yield (*here, "id"), entry["id"], str(name)
                if operation != "remove":
                    for path, target, ref in find_references(schema, items, entry, patches=operation == "patch"):
                        yield (*here, *path), target, ref.collection


def _setting_references(
    family: Family, at: NodePath, key: str, value: Any, *, patches: bool = False
) -> Iterator[tuple[NodePath, str, str]]:
    slot = family.settings.get(key)
    schema = schema_of(family.slot_kind(slot)) if slot is not None else None
    if schema is not None:
        for path, target, ref in find_references(schema, node_at(schema, (key,)), value, patches=patches):
            yield (*at, *path), target, ref.collection


def reference_at(kind: str | None, keys: list[str]) -> Ref | None:
    """What the value at the key path ``keys`` of a file of ``kind`` refers to, as its schema
    declares (in a manifest's overlay: the collection or setting the overlay changes)."""
    schema = schema_of(kind) if kind is not None else None
    if schema is None:
        return None
    family = family_of_kind(kind)
    if _is_manifest(kind) and family is not None and keys[:1] == ["overlay"] and len(keys) >= 3:
        # What an overlay writes is read with the schema of what it changes; the list operations
        # and their `where`/`with` are steps of the patch, not fields.
        steps = LIST_OPERATIONS | {"with", "where", "before", "after"}
        if keys[1] == "settings":
            named = keys[3:] if keys[2] in SETTING_OPERATIONS else keys[2:]
            slot = family.settings.get(named[0]) if named else None
            setting = schema_of(family.slot_kind(slot)) if slot is not None else None
            if setting is None:
                return None
            return _ref_within(setting, tuple(k for k in named if k not in steps))
        spec = family.collections.get(keys[1])
        collection = schema_of(family.slot_kind(spec.slot)) if spec is not None else None
        if spec is None or collection is None:
            return None
        rest = tuple(k for k in keys[3:] if k not in steps)
        if rest == ("id",) and spec.key == "id" and keys[2] != "add":
            return Ref(keys[1], "overlay target")
        return _ref_within(collection, (*spec.path, *rest))
    return _ref_within(schema, tuple(keys))


def _ref_within(schema: Mapping[str, Any], path: tuple[str, ...]) -> Ref | None:
    """What the value at the key path ``path`` refers to: declared on the value, or, where the value
    is a list (a flow list `needs: [a]`, or nested, `grid: [[a, b]]`), on its elements. A key path
    names no list index, and a reference declared on a list's `items` rather than on the list was
    offered no ids in completion."""
    nodes = node_at(schema, path)
    while nodes:
        found = ref_at(schema, nodes)
        if found is not None:
            return found
        nodes = item_nodes(schema, nodes)
    return None


def _name_of(entity: Any) -> str:
    """An entity's `name` as written, where it is one string (else nothing)."""
    name = entity.get("name") if isinstance(entity, dict) else None
    return " ".join(name.split()) if isinstance(name, str) else ""


def _restating(owner: Any, key: str | int, naming: tuple[str, ...]) -> Iterator[tuple[int, Any]]:
    """Each `disagreements:` entry of ``owner`` (by its number) whose `field` is under ``key``,
    with its `chosen`, where `chosen` is the field's value now (else Q008 says so already, and
    which of its ids restate the field is not known)."""
    from civrules.checks.disagreements import same, values_of

    listed = owner.get("disagreements") if isinstance(owner, dict) else None
    if not isinstance(listed, list) or not isinstance(key, str):
        return
    for number, item in enumerate(listed):
        field_name = item.get("field") if isinstance(item, dict) else None
        if not isinstance(field_name, str) or "chosen" not in item:
            continue
        if field_name.split(".", 1)[0].split("[", 1)[0] != key:
            continue
        values = values_of(owner, field_name, naming)
        if values and all(same(item["chosen"], value) for value in values):
            yield number, item["chosen"]


def _selectors(
    owner: Any, listed: str | int, identifier: str, document: Document, owner_path: NodePath
) -> Iterator[tuple[int, Span]]:
    """Each `disagreements:` entry of ``owner`` (by its number) whose `field` selects an element of
    its list ``listed`` by ``identifier`` (`items[a].cost`), with the span of that
    id inside the field's text. A field written in words is prose, not read (Q008 does not
    compare it); a field whose text is not written as it reads (an escape) is refused."""
    from civrules.checks.disagreements import FIELD, SELECTOR

    entries = owner.get("disagreements") if isinstance(owner, dict) else None
    if not isinstance(entries, list) or not isinstance(listed, str):
        return
    for number, item in enumerate(entries):
        field_name = item.get("field") if isinstance(item, dict) else None
        if not isinstance(field_name, str) or not FIELD.fullmatch(field_name):
            continue
        first = field_name.split(".", 1)[0]
        if not first.startswith(f"{listed}["):
            continue
        labels = [m for m in SELECTOR.finditer(first) if m.group(1) == identifier]
        if not labels:
            continue
        span = document.span((*owner_path, "disagreements", number, "field"))
        width = span.end_column - span.column
        if span.line != span.end_line or width not in (len(field_name), len(field_name) + 2):
            raise RenameRefusedError(
                f"{span.file}:{span.line}: the `field` `{field_name}` selects by `{identifier}`, and is "
                "written across lines or with escapes: rename by hand"
            )
        start = span.column + (width - len(field_name)) // 2
        for label in labels:
            column = start + label.start(1)
            yield number, Span(span.file, span.line, column, span.line, column + len(identifier))


def _leaves_of(value: Any, text: str) -> Iterator[NodePath]:
    """The paths, inside ``value``, of each string equal to ``text`` (the value itself: ``()``)."""
    if value == text and isinstance(value, str):
        yield ()
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from ((number, *rest) for rest in _leaves_of(item, text))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from ((key, *rest) for rest in _leaves_of(item, text))


def _node(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _show(value: Any) -> str:
    if isinstance(value, dict) and set(value) == {"unknown"}:
        return "unknown"
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_show(v)}" for k, v in value.items() if k not in _PROSE) or "none"
    return str(value)


def entity_facts(family: Family | None, collection: str, raw: Mapping[str, Any]) -> list[str]:
    """The paragraphs (Markdown) a hover shows of an entity of ``collection`` as ``raw`` holds it,
    beyond its name, rule and place: what ``family`` declares of the collection
    (:attr:`CollectionSpec.hover`), nothing where it declares nothing or the family is unknown.

    >>> from civrules.families import Hover
    >>> rows = CollectionSpec("ruleset", ("rows",), hover=Hover(("size",), (HoverList("gifts", "n", ("row",)),)))
    >>> family = Family("x", "X", "x", ("Y",), collections={"rows": rows})
    >>> print(*entity_facts(family, "rows", {"id": "a", "size": 2, "gifts": [{"n": 1, "row": "b"}]}), sep="\\n")
    size\\: 2
    gifts\\: 1 to b
    >>> entity_facts(family, "other", {"size": 2})
    []
    """
    spec = family.collections.get(collection) if family is not None else None
    if spec is None:
        return []
    paragraphs = []
    facts = [f"{key}: {_show(raw[key])}" for key in spec.hover.facts if key in raw]
    if facts:
        paragraphs.append(markdown_text("; ".join(facts)))
    for reading in spec.hover.lists:
        elements = raw.get(reading.field)
        if isinstance(elements, list) and elements:
            read = ", ".join(_element(reading, element) for element in elements)
            paragraphs.append(markdown_text(f"{reading.field}: {read}"))
    return paragraphs


def _element(reading: HoverList, element: Any) -> str:
    """One element of a list a hover reads: its amount, the joiner and its target (the first of
    the reading's target fields it gives)."""
    if not isinstance(element, dict):
        return _show(element)
    target = next((element[name] for name in reading.targets if element.get(name)), None)
    return f"{_show(element.get(reading.amount))} {reading.joiner} {_show(target)}"


# --- diagnostics, codes and fixes -------------------------------------------------------------

_CODE = re.compile(r"\b[A-Z][0-9]{3}\b")


def code_at(line_text: str, column: int) -> str | None:
    """A diagnostic code (``M003``) under a 1-based column of a line, if it names a known code."""
    for match in _CODE.finditer(line_text):
        if match.start() < column <= match.end() + 1 and codes.lookup(match.group()) is not None:
            return match.group()
    return None


#: A `rule:` key (block or flow style) and where its value starts.
_RULE_KEY = re.compile(r"(?:^|[\s{,])rule:[ \t]*")
#: One citation in a `rule:` value: quoted, or bare up to a comma, bracket, brace or space.
_CITED = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'|([^\s,\[\]{}\"'#]+)")


def citation_at(line_text: str, column: int) -> str | None:
    """The rule section a `rule:` value cites under a 1-based column of a line, if any: one of
    `rule: "4.21"`, `rule: [4.21, 4.22]` or `{..., rule: p7/a-heading}`.

    >>> citation_at('    rule: ["4.21", "4.22"]', 21)
    '4.22'
    >>> citation_at("  - {item: x, points: 10, rule: 12.1}", 35)
    '12.1'
    >>> citation_at("  - {rule: p7/a-heading, note: n}", 15)
    'p7/a-heading'
    >>> citation_at('    name: "4.21"', 14) is None
    True
    """
    for key in _RULE_KEY.finditer(line_text):
        for cited in _CITED.finditer(line_text, key.end()):
            text = next(group for group in cited.groups() if group is not None)
            if text.endswith(":"):  # the next key of a flow mapping: the value has ended
                break
            if cited.start() < column <= cited.end() + 1:
                return text
            if line_text[cited.end() : cited.end() + 1] == "}":
                break
    return None


def describe_citation(number: str, indexes: Mapping[str, Any]) -> str:
    """Markdown for hovering a citation: the section's title in the rule index of each rulebook
    the file's rulesets cite (``indexes``: by rulebook title, each a
    :class:`civrules.checks.citations.Index`), where it stands in the rulebook's text; a number
    the index lists as missing, with why; else the section that holds it. Nothing where no index
    knows it (the citation's own diagnostic says so)."""
    parts = []
    for book, index in sorted(indexes.items()):
        data = index.document.data if isinstance(index.document.data, dict) else {}
        sections = {
            item["section"]: item
            for item in data.get("sections") or ()
            if isinstance(item, dict) and isinstance(item.get("section"), str)
        }
        found = sections.get(number)
        if found is not None:
            title, line = found.get("title"), found.get("line")
            said = (
                f"**{markdown_text(number)}** — {markdown_text(str(title))}"
                if title
                else f"**{markdown_text(number)}**"
            )
            where = f", line {line} of its text" if isinstance(line, int) else ""
            parts.append(f"{said}\n\n{markdown_text(book)}{where}")
        elif number in index.missing:
            reason = index.missing[number]
            parts.append(f"**{markdown_text(number)}** — not in the rulebook's text: {markdown_text(reason)}")
        else:
            head = index.enclosing(number)
            title = sections.get(head, {}).get("title") if head is not None else None
            if head is not None:
                within = f"{markdown_text(head)}" + (f" — {markdown_text(str(title))}" if title else "")
                parts.append(f"**{markdown_text(number)}**, in {within}\n\n{markdown_text(book)}")
    return "\n\n".join(parts)


def explain(code: str) -> str:
    """What ``civrules explain CODE`` prints, for a hover."""
    entry = codes.lookup(code)
    return entry.explain() if entry is not None else ""


def suggestion(diagnostic: Diagnostic) -> str | None:
    """The replacement a diagnostic's "did you mean" proposes for the text at its span, if any."""
    return diagnostic.suggestion


def covers(span: Span, line: int, column: int) -> bool:
    """Whether a 1-based position lies within a span (its end included, where a cursor rests)."""
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


# --- completion ---------------------------------------------------------------------------------

_ITEM = re.compile(r"^(\s*(?:-\s+)*)(.*)$")
_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:(?:\s|$)")
_NAME = re.compile(r"[A-Za-z_][\w-]*")
#: The end of a line :func:`_flow_keys` reads (a regular expression searched before it backtracked
#: over the commas before the cursor: a line of 24,000 characters took 1.9 s per completion).
_FLOW_WINDOW = 1_000


def _flow_keys(text: str) -> tuple[list[str], bool]:
    """The keys of the flow mappings still open at the end of ``text``, outermost first (``items:
    {parts: [{kind: `` gives items, parts, kind), and whether the end stands in a value; read left
    to right once. Quoted text is skipped; a bracket closed here that opened before ``text`` began
    is ignored (what it belonged to is not known)."""
    frames: list[list[Any]] = []  # [bracket, the key being given a value (None: a key comes next)]
    start = 0  # where the text since the last delimiter begins
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if char in "\"'":
            i = _quoted_end(text, i)
            start = i
            continue
        if char in "{[":
            frames.append([char, None])
            start = i + 1
        elif char in "}]":
            if frames:
                frames.pop()
            start = i + 1
        elif char == ",":
            if frames and frames[-1][0] == "{":
                frames[-1][1] = None
            start = i + 1
        elif char == ":" and (i + 1 == end or text[i + 1] in " \t,]}"):
            name = text[start:i].strip()
            if frames and frames[-1][0] == "{" and frames[-1][1] is None and _NAME.fullmatch(name):
                frames[-1][1] = name
            start = i + 1
        i += 1
    keys = [key for bracket, key in frames if bracket == "{" and key is not None]
    if not frames:
        return keys, False
    innermost = frames[-1]
    return keys, (innermost[1] is not None) if innermost[0] == "{" else bool(keys)


def _quoted_end(text: str, at: int) -> int:
    """Where the quoted scalar opening at ``at`` ends (after its closing quote; the text's end where it is open)."""
    quote = text[at]
    i = at + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text[i + 1 : i + 2] == "'":
                i += 2  # '' is a quote inside single quotes
                continue
            return i + 1
        i += 1
    return len(text)


def yaml_key_path(lines: list[str], line: int, column: int) -> tuple[list[str], bool]:
    """The mapping keys enclosing a 1-based position, by indentation, and whether it is a value.

    Returns the keys from the document root (the key being given a value last) and whether the
    cursor stands after ``key:`` or on a block sequence's item with no key yet (``  - adr`` under
    ``areas:``): a value is being written, not a key (though an item of a list of mappings may be
    starting its first key: the caller asks the schema). A heuristic on the text as typed, so that
    it works on a document that does not parse yet.
    """
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    match = _ITEM.match(current[: column - 1])
    assert match is not None
    limit = len(match.group(1))
    keys: list[str] = []
    own = _KEY.match(match.group(2))
    if own:
        keys.append(own.group(1))
    # In flow mappings (`- {item: dem`, `needs: [{item: `, `items: {parts: [{kind: `): the
    # keys being given a value, outermost first.
    flow, in_value = _flow_keys(match.group(2)[-_FLOW_WINDOW:])
    keys.extend(flow)
    # A position past the last line (the client's text is ahead of ours) looks up from the last line.
    for number in range(min(line - 2, len(lines) - 1), -1, -1):
        found = _ITEM.match(lines[number].rstrip())
        assert found is not None
        content = found.group(2)
        if not content or content.startswith("#"):
            continue
        key = _KEY.match(content)
        start = len(found.group(1))
        if key is not None and start < limit:
            keys.insert(0, key.group(1))
            limit = start
            if limit == 0:
                break
    return keys, own is not None or in_value or block_item_at(lines, line, column)


def block_item_at(lines: list[str], line: int, column: int) -> bool:
    """Whether a 1-based position ends a block sequence's item that is so far a plain scalar, not a
    key, a flow collection or a comment (``  - adr``)."""
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    match = _ITEM.match(current[: column - 1])
    assert match is not None
    content = match.group(2)
    return (
        "-" in match.group(1)
        and not content.startswith(("{", "[", "#", "&", "*", "!", "|", ">"))
        and (":" not in content)
    )


def schema_keys(schema: dict[str, Any], keys: list[str]) -> tuple[dict[str, Any], list[Any]]:
    """The properties (name → schema) and enum values allowed after the path ``keys`` in a schema."""
    nodes: list[Any] = [schema]
    for key in keys:
        following: list[Any] = []
        for node in nodes:
            for branch in _branches(schema, node):
                if key in branch.get("properties", {}):
                    following.append(branch["properties"][key])
                elif isinstance(branch.get("additionalProperties"), dict):
                    following.append(branch["additionalProperties"])
        nodes = following
    properties: dict[str, Any] = {}
    values: list[Any] = []
    for node in nodes:
        for branch in _branches(schema, node):
            for name, sub in branch.get("properties", {}).items():
                properties.setdefault(name, sub)
            values.extend(branch.get("enum", ()))
            if "const" in branch:
                values.append(branch["const"])
    return properties, values


def _branches(schema: dict[str, Any], node: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """A schema node with its `$ref`s followed, arrays entered and `oneOf`/`anyOf`/`allOf` opened."""
    if not isinstance(node, dict) or depth > 12:
        return
    if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
        yield from _branches(schema, schema.get("$defs", {}).get(node["$ref"][len("#/$defs/") :]), depth + 1)
    if isinstance(node.get("items"), dict):
        yield from _branches(schema, node["items"], depth + 1)
    for keyword in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(keyword, ()):
            yield from _branches(schema, branch, depth + 1)
    yield node


def description(sub: Any) -> str | None:
    """The description of a property's schema, if it has one."""
    if isinstance(sub, dict) and isinstance(sub.get("description"), str):
        text: str = sub["description"]
        return text
    return None
