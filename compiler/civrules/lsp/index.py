"""What the language server knows about positions: where every id is defined and used, what an
entity is, which keys a schema allows at a place, and the fixes diagnostics suggest.

Pure functions over a :class:`civrules.pipeline.incremental.Result`, so they are tested without a client.
Positions here are :class:`civrules.diagnostics.Span` values (1-based lines and columns, the end
column exclusive, columns in code points), as everywhere in civrules; the server converts them to
and from LSP's positions in :mod:`civrules.lsp.positions`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from civrules.checks import entity_word
from civrules.diagnostics import Diagnostic, Span, codes
from civrules.families import CollectionSpec, families
from civrules.load import Document, NodePath
from civrules.pipeline.incremental import Result
from civrules.resolve import entity_key


#: Collections whose entities are defined by an `id` (a border is named by its two areas, an
#: A.S.T. track by its nation, a player count by its number: those are references, not names).
def _all_collections() -> dict[str, CollectionSpec]:
    """Every family's collections by name (the first family's where two share a name)."""
    found: dict[str, CollectionSpec] = {}
    for family in families().values():
        for name, spec in family.collections.items():
            found.setdefault(name, spec)
    return found


_NAMED = {name: spec for name, spec in _all_collections().items() if spec.key == "id"}

#: Keys whose values are prose or citations, never ids.
_PROSE = frozenset(
    {"name", "text", "note", "why", "source", "rule", "kind", "unknown", "description", "title", "reason"}
)

#: The file kind each collection slot is written in.
_SLOT_KIND = {"civilization_cards": "civilization_cards", "commodities": "commodities", "calamities": "calamities"}
_SLOT_KIND |= {"map": "map", "ruleset": "ruleset"}


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


class Index:
    """Every id occurrence of a session result, by file and by id."""

    def __init__(self, result: Result) -> None:
        self.result = result
        self.by_file: dict[str, list[Symbol]] = {}
        self.by_id: dict[str, list[Symbol]] = {}
        workspace = result.workspace
        if workspace is None:
            return
        documents: dict[str, Document] = {}
        for relative in result.files:
            loaded = workspace.load(relative)
            if loaded.document is not None and loaded.kind is not None:
                documents[relative] = loaded.document
        kinds = {relative: workspace.load(relative).kind for relative in documents}
        definitions: list[Symbol] = []
        for relative, document in documents.items():
            definitions.extend(_definitions(relative, document, kinds[relative]))
        known: dict[str, set[str]] = {}
        for symbol in definitions:
            known.setdefault(symbol.id, set()).add(symbol.collection)
        defined_at = {(s.relative, s.path) for s in definitions}
        symbols = list(definitions)
        for relative, document in documents.items():
            symbols.extend(_references(relative, document, known, defined_at))
        for symbol in symbols:
            self.by_file.setdefault(symbol.relative, []).append(symbol)
            self.by_id.setdefault(symbol.id, []).append(symbol)
        for found in self.by_file.values():
            found.sort(key=lambda s: (s.span.line, s.span.column))

    def at(self, relative: str, line: int, column: int) -> Symbol | None:
        """The id occurrence under a 1-based position, if any."""
        for symbol in self.by_file.get(relative, ()):
            span = symbol.span
            if (span.line, span.column) <= (line, column) < (span.end_line, span.end_column) or (
                (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column) and span.line == line
            ):
                return symbol
        return None

    def scope(self, relative: str) -> set[str]:
        """The files the rulesets using ``relative`` read: where its ids are defined."""
        files: set[str] = set()
        for name in self.result.rulesets_using(relative):
            files |= self.result.depends[name]
        return files

    def definitions(self, symbol: Symbol) -> list[Symbol]:
        """Where the id of ``symbol`` is defined, in the rulesets that use its file (else anywhere)."""
        found = [s for s in self.by_id.get(symbol.id, ()) if s.definition and s.collection == symbol.collection]
        if not found:
            found = [s for s in self.by_id.get(symbol.id, ()) if s.definition]
        scope = self.scope(symbol.relative)
        scoped = [s for s in found if s.relative in scope]
        return scoped or found

    def references(self, symbol: Symbol, *, include_definition: bool = True) -> list[Symbol]:
        """Every occurrence of the id of ``symbol`` in its collection."""
        return [
            s
            for s in self.by_id.get(symbol.id, ())
            if s.collection == symbol.collection and (include_definition or not s.definition)
        ]

    def ids(self, relative: str) -> list[tuple[str, str]]:
        """(id, collection) of every entity defined where ``relative``'s rulesets look, sorted."""
        scope = self.scope(relative) or set(self.by_file)
        return sorted({(s.id, s.collection) for f in scope for s in self.by_file.get(f, ()) if s.definition})

    def describe(self, symbol: Symbol) -> str:
        """Markdown for hovering an id: what the entity is, as the rulesets using the file resolve it."""
        collection = symbol.collection
        label = entity_word(collection)
        defined = self.definitions(symbol)
        if collection == "rulesets":
            analysis = self.result.analyses.get(symbol.id)
            data = analysis.loaded.manifest.data if analysis is not None else {}
            lines = [f"**{data.get('name', symbol.id)}** — ruleset `{symbol.id}`"]
            if isinstance(data.get("extends"), str):
                lines.append(f"extends `{data['extends']}`")
            return "\n\n".join(lines)
        raw, rulesets = self._resolved(symbol)
        if raw is None and defined:
            node = _node(defined[0].document.data, defined[0].path[:-1])
            raw = node if isinstance(node, dict) else None
        name = raw.get("name") if raw is not None else None
        lines = [f"**{_plain(name) if isinstance(name, str) else symbol.id}** — {label} `{symbol.id}`"]
        if raw is not None:
            facts = []
            for key in ("cost", "groups", "stack", "value", "count", "order", "type", "population"):
                if key in raw:
                    facts.append(f"{key}: {_show(raw[key])}")
            if facts:
                lines.append("; ".join(facts))
            credits = raw.get("credits")
            if isinstance(credits, list) and credits:
                lines.append("credits: " + ", ".join(_credit(c) for c in credits))
            if "rule" in raw:
                lines.append(f"rule {_show(raw['rule'])}")
        where = ", ".join(f"`{d.span.file}:{d.span.line}`" for d in defined[:3])
        if where:
            lines.append(f"defined at {where}")
        if rulesets:
            lines.append("as resolved in " + ", ".join(f"`{r}`" for r in rulesets))
        return "\n\n".join(lines)

    def _resolved(self, symbol: Symbol) -> tuple[dict[str, Any] | None, list[str]]:
        spec = _all_collections().get(symbol.collection)
        if spec is None:
            return None, []
        chosen: dict[str, Any] | None = None
        using: list[str] = []
        for name in self.result.rulesets_using(symbol.relative):
            resolved = self.result.analyses[name].resolved
            if resolved is None:
                continue
            for entry in resolved.collections.get(symbol.collection, ()):
                if entity_key(spec, entry.raw) == symbol.id:
                    chosen = chosen if chosen is not None else entry.raw
                    using.append(name)
                    break
        return chosen, using


def _definitions(relative: str, document: Document, kind: str | None) -> Iterator[Symbol]:
    data = document.data
    if not isinstance(data, dict):
        return
    if kind == "ruleset" and isinstance(data.get("id"), str):
        yield Symbol("rulesets", data["id"], relative, document.span(("id",)), True, document, ("id",))
    for name, spec in _NAMED.items():
        if _SLOT_KIND.get(spec.slot) != kind:
            continue
        items = _node(data, spec.path)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                path: NodePath = (*spec.path, i, "id")
                yield Symbol(name, item["id"], relative, document.span(path), True, document, path)
    overlay = data.get("overlay") if kind == "ruleset" else None
    if isinstance(overlay, dict):
        for name, operations in overlay.items():
            if name not in _NAMED or not isinstance(operations, dict) or not isinstance(operations.get("add"), list):
                continue
            for i, item in enumerate(operations["add"]):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    at: NodePath = ("overlay", str(name), "add", i, "id")
                    yield Symbol(name, item["id"], relative, document.span(at), True, document, at)


def _references(
    relative: str, document: Document, known: dict[str, set[str]], defined_at: set[tuple[str, NodePath]]
) -> Iterator[Symbol]:
    """Every string of the document that names a defined id (prose and citations aside)."""
    for path, node in _strings(document):
        if node in known and (relative, path) not in defined_at:
            collection = _collection_at(path, known[node])
            if collection is not None:
                yield Symbol(collection, node, relative, document.span(path), False, document, path)


#: The strings of each document, kept with it: after an edit only the edited file is walked again.
#: Bounded; each entry keeps its document alive, so ids stay unique.
_walked: dict[int, tuple[Document, list[tuple[NodePath, str]]]] = {}
_WALKED_KEPT = 256


def _strings(document: Document) -> list[tuple[NodePath, str]]:
    found = _walked.pop(id(document), None)
    if found is None or found[0] is not document:
        strings: list[tuple[NodePath, str]] = []
        stack: list[tuple[NodePath, Any]] = [((), document.data)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, dict):
                stack.extend(((*path, k), v) for k, v in node.items() if k not in _PROSE)
            elif isinstance(node, list):
                stack.extend(((*path, i), v) for i, v in enumerate(node))
            elif isinstance(node, str):
                strings.append((path, node))
        found = (document, strings)
    _walked[id(document)] = found
    while len(_walked) > _WALKED_KEPT:
        del _walked[next(iter(_walked))]
    return found[1]


def _collection_at(path: NodePath, candidates: set[str]) -> str | None:
    """Which collection a reference at ``path`` names, among those defining the id."""
    keys = [p for p in path if isinstance(p, str)]
    if path and path[0] == "overlay" and len(path) >= 2 and path[-1] == "id":
        collection = str(path[1])
        return collection if collection in candidates else None
    if keys and keys[-1] == "id":
        return None  # a nested entry's own name (a configuration, an effect)
    if keys and keys[-1] == "extends":
        return "rulesets" if "rulesets" in candidates else None
    candidates = candidates - {"rulesets"}
    if len(candidates) == 1:
        return next(iter(candidates))
    hints = {
        "card": "civilization_cards",
        "cards": "civilization_cards",
        "prerequisites": "civilization_cards",
        "group": "groups",
        "groups": "groups",
        "calamity": "calamities",
        "calamities": "calamities",
        "commodity": "commodities",
        "commodities": "commodities",
        "areas": "areas",
        "area": "areas",
        "nation": "nations",
        "nations": "nations",
        "epoch": "epochs",
        "epochs": "epochs",
    }
    for key in reversed(keys):
        if hints.get(key) in candidates:
            return hints[key]
    return sorted(candidates)[0] if candidates else None


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
        return ", ".join(f"{k} {_show(v)}" for k, v in value.items() if k not in _PROSE)
    return _plain(str(value))


def _credit(credit: Any) -> str:
    if not isinstance(credit, dict):
        return _show(credit)
    target = credit.get("card") or credit.get("group") or credit.get("groups")
    return f"{_show(credit.get('points'))} to {_show(target)}"


_MARKDOWN = re.compile(r"([\\`*_{}\[\]<>#|])")


def _plain(text: str) -> str:
    """Text shown in Markdown as written (rule data may hold Markdown's characters)."""
    return _MARKDOWN.sub(r"\\\1", text)


# --- diagnostics, codes and fixes -------------------------------------------------------------

_CODE = re.compile(r"\b[A-Z][0-9]{3}\b")


def code_at(line_text: str, column: int) -> str | None:
    """A diagnostic code (``M003``) under a 1-based column of a line, if it names a known code."""
    for match in _CODE.finditer(line_text):
        if match.start() < column <= match.end() + 1 and codes.lookup(match.group()) is not None:
            return match.group()
    return None


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


def yaml_key_path(lines: list[str], line: int, column: int) -> tuple[list[str], bool]:
    """The mapping keys enclosing a 1-based position, by indentation, and whether it is a value.

    Returns the keys from the document root (the key being given a value last) and whether the
    cursor stands after ``key:`` (a value is being written, not a key). A heuristic on the text as
    typed, so that it works on a document that does not parse yet.
    """
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    match = _ITEM.match(current[: column - 1])
    assert match is not None
    limit = len(match.group(1))
    keys: list[str] = []
    own = _KEY.match(match.group(2))
    if own:
        keys.append(own.group(1))
    for number in range(line - 2, -1, -1):
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
    return keys, own is not None


def schema_keys(schema: dict[str, Any], keys: list[str]) -> tuple[dict[str, Any], list[Any]]:
    """The properties (name → schema) and enum values allowed after the path ``keys`` in a schema."""
    nodes = [schema]
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
