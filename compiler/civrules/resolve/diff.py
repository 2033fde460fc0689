"""`civrules diff A B`: what a variant changes, entity by entity and field by field.

Both rulesets are resolved (extends and overlays applied) and compared collection by collection:
entities added and removed with every field, and changed with each changed field's old and new
value. Nested mappings are compared key by key (``home.spaces``); lists element by element
(by a naming field such as ``id``, ``card`` or ``number`` when every element has one, else by
value); other values as wholes, never truncated. Ruleset-level settings (players, a game's
limits ...) are compared the same way.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from civrules.diagnostics.escape import printable
from civrules.families import CollectionSpec, Family
from civrules.model import Origin, setting_of
from civrules.resolve import (
    OWN_HEADER,
    Entry,
    Resolved,
    citation_of,
    cited_writers,
    element_citations,
    entity_key,
    field_citation,
    only_unknown,
    setting_field_citation,
)

#: Manifest keys that are not rules (or that hold collections, compared entity by entity).
_NOT_SETTINGS = {"kind", "family", "id", "name", "description", "extends", "overlay", "files", "note"}


@dataclass(frozen=True, slots=True)
class FieldChange:
    path: str
    old: Any
    new: Any
    #: Where the old and the new value come from (their citations), where they differ.
    sources: tuple[str | None, str | None] | None = None
    #: The citation of the nearest element enclosing the value on each side, inside its entity
    #: (a credit line's `rule:`), where one cites; what :attr:`sources` is made of first.
    cited: tuple[str | None, str | None] | None = field(default=None, compare=False)
    #: The outermost part enclosing the change that the old side has not (or has empty) and the
    #: new side has: what holds only what the new side added, shown part by part (a setting a
    #: variant adds, its keys each ``+``); None where the old side has what holds the change.
    fresh: str | None = field(default=None, compare=False)
    #: Whether the new value is derived from the ruleset's data rather than written (a deck's total
    #: that follows from the counts of its items a variant changed): no one wrote it, and it is not one
    #: more change to make.
    derived: bool = field(default=False, compare=False)


@dataclass(slots=True)
class EntityChange:
    key: str
    name: str
    fields: list[FieldChange]
    #: For an entity a variant removes: the reason it gives (`why:`).
    why: str | None = None
    #: The entity as an overlay entry names it, where its key is no text a designer writes (a
    #: pair's ``areas: [a, b]``, a qualified key's ``side: n, level: l``); None: its key, as written.
    named: str | None = None
    #: The fields that name it in an overlay entry, as values, where :attr:`named` is given.
    naming: dict[str, Any] | None = None

    @property
    def shown(self) -> str:
        """The entity as the diff's text names it: by the fields an overlay entry names it by."""
        return self.named if self.named is not None else self.key


@dataclass(slots=True)
class CollectionDiff:
    """The entities added and removed (each with every field) and changed (field by field)."""

    name: str
    added: list[EntityChange] = field(default_factory=list)
    removed: list[EntityChange] = field(default_factory=list)
    changed: list[EntityChange] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


@dataclass(slots=True)
class RulesetDiff:
    old: str
    new: str
    settings: list[FieldChange]
    collections: list[CollectionDiff]

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.old,
            "to": self.new,
            "settings": [_field_json(c) for c in self.settings],
            "collections": {
                c.name: {
                    kind: [
                        {"id": e.key, "name": e.name}
                        | ({"named_by": e.naming} if e.naming is not None else {})
                        | {"fields": [_field_json(f) for f in e.fields]}
                        | ({"why": e.why} if e.why is not None else {})
                        for e in entities
                    ]
                    for kind, entities in (("added", c.added), ("removed", c.removed), ("changed", c.changed))
                }
                for c in self.collections
                if c
            },
        }


def _names_itself(path: str, value: Any) -> bool:
    """An element added or removed whole whose path already ends in its value (``areas[north]``)."""
    return not isinstance(value, (dict, list)) and path.endswith(f"[{value}]")


def _field_json(change: FieldChange) -> dict[str, Any]:
    found = {"field": change.path, "old": change.old, "new": change.new}
    if change.sources is not None:
        found["sources"] = {"old": change.sources[0], "new": change.sources[1]}
    if change.derived:
        found["derived"] = True
    return found


def _settings(resolved: Resolved) -> dict[str, Any]:
    out: dict[str, Any] = {}
    specs = resolved.family.collections.values()
    collection_roots = {spec.path[0] for spec in specs if spec.slot == "ruleset"}
    nested_lists = {spec.path[1] for spec in specs if spec.slot == "ruleset" and len(spec.path) > 1}
    for key, value in resolved.data.items():
        if key in _NOT_SETTINGS:
            continue
        if key in collection_roots:
            nested = {k: v for k, v in value.items() if k not in nested_lists} if isinstance(value, dict) else None
            if nested:
                out[key] = nested
            continue
        out[key] = value
    for slot, values in resolved.settings.items():
        for key, value in values.items():
            out[f"{slot}.{key}"] = value
    return out


#: Keys that say where a fact comes from rather than what it is; left out unless asked for.
CITATION_KEYS = frozenset({"rule", "source", "note", "disagreements"})


class Cited(dict[str, Any]):
    """A mapping without its citation keys that keeps the citation they made (:func:`strip_citations`):
    equal to the same mapping cited otherwise, and still able to say where a change inside it is cited."""

    __slots__ = ("citation",)

    def __init__(self, items: Mapping[str, Any], citation: str | None) -> None:
        super().__init__(items)
        self.citation = citation


def _citation(value: Any) -> str | None:
    """The citation a value carries itself: its `rule:`/`source:`, or those stripped from it."""
    return value.citation if isinstance(value, Cited) else citation_of(value)


class UnknownFact(dict[str, Any]):
    """An unknown fact, ``{unknown: why}``, that keeps its reason to be printed but equals every
    other unknown: a reason is not a fact, so two rulesets whose reasons differ compare equal."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dict) and only_unknown(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None


def _blank(value: Any) -> Any:
    """``value`` with every unknown's reason blanked: what two facts are compared by."""
    if isinstance(value, UnknownFact):
        return {"unknown": ""}
    if isinstance(value, dict):
        return {k: _blank(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_blank(v) for v in value]
    return value


def _canon(value: Any) -> str:
    """A value as text that is the same for equal facts (reasons of unknowns left out)."""
    return json.dumps(_blank(value), sort_keys=True)


def strip_citations(value: Any, made: dict[int, tuple[Any, Any]] | None = None) -> Any:
    """``value`` as facts only: no citation keys, unknowns equal whatever their reasons (which are
    kept, to be printed), unordered where order is not a fact.

    Lists of mappings without ids (credit lines, effects' entries) are sets in the rules: they are
    put in a canonical order so that two transcriptions listing them differently compare equal.

    ``made`` keeps what each mapping and list was made into, by its identity (the object kept
    beside, so that its id is never reused): a list that entities name through one YAML alias is
    one object, stripped and sorted once (705 cards naming one list of 200 credit lines stripped
    and sorted 141,000 lines). What is made is shared then, and read only.
    """
    if not isinstance(value, (dict, list)):
        return value
    if made is not None:
        known = made.get(id(value))
        if known is not None:
            return known[1]
    result: Any
    if isinstance(value, dict):
        if only_unknown(value):
            result = UnknownFact(value)
        else:
            stripped = {k: strip_citations(v, made) for k, v in value.items() if k not in CITATION_KEYS}
            cited = citation_of(value)
            result = Cited(stripped, cited) if cited is not None else stripped
    else:
        items = [strip_citations(v, made) for v in value]
        if items and all(isinstance(v, dict) and "id" not in v for v in items):
            items.sort(key=_canon)
        result = items
    if made is not None:
        made[id(value)] = (value, result)
    return result


def _unchanged(value: Any) -> Any:
    return value


def _collections(old: Resolved, new: Resolved) -> dict[str, CollectionSpec]:
    """The collections the two rulesets' families know (one family's, unless they differ)."""
    return {**old.family.collections, **new.family.collections}


def diff_rulesets(old: Resolved, new: Resolved, *, citations: bool = False) -> RulesetDiff:
    """The changes that turn ``old`` into ``new`` (:func:`_compared`), their lists' elements named
    by the naming keys of their families."""
    with named_by(old.family, new.family):
        return _compared(old, new, citations=citations)


def _compared(old: Resolved, new: Resolved, *, citations: bool = False) -> RulesetDiff:
    """The changes that turn ``old`` into ``new``.

    Without ``citations`` the comparison ignores rule sections, sources, notes and recorded
    disagreements, so that two rulesets from different rulebooks compare by their facts.
    """
    stripped: dict[int, tuple[Any, Any]] = {}
    clean: Callable[[Any], Any] = _unchanged if citations else functools.partial(strip_citations, made=stripped)
    written = _WrittenCitations(clean)
    old_settings, new_settings = clean(_settings(old)), clean(_settings(new))
    if old.chain == new.chain[: len(old.chain)]:
        # A variant of ``old`` never has its base's own header (its `status:`, V011): one it does not
        # write is unsaid, which is no change of the rules (every such variant printed `- status: draft`).
        for unsaid in OWN_HEADER - set(new_settings):
            old_settings.pop(unsaid, None)
    # Setting by setting, as an entity is compared: a setting's own citation (`rule:` beside its
    # fields, a patch's `source:` merged beside it) encloses none of its fields' values, each of
    # which is cited as its writer cited it (:func:`_setting_sourced`).
    slots = {*old.settings, *new.settings}
    settings = [
        _derived(_setting_sourced(change, old, new, written), new, slots)
        for key in sorted(set(old_settings) | set(new_settings))
        for change in diff_values(old_settings.get(key), new_settings.get(key), key)
    ]
    collections = []
    for name, spec in _collections(old, new).items():
        # The last entry of a key, in the order its key first appears (as a dict of them keeps it).
        old_entries = {entity_key(spec, e.raw): e for e in old.collections.get(name, [])}
        new_entries = {entity_key(spec, e.raw): e for e in new.collections.get(name, [])}
        result = CollectionDiff(name)
        for key, entry in new_entries.items():
            if key is not None and key not in old_entries:
                raw = clean(entry.raw)
                fields = [FieldChange(k, None, v) for k, v in raw.items() if k not in _naming(spec, key)]
                result.added.append(_entity(spec, key, raw, fields))
        for key, entry in old_entries.items():
            if key is not None and key not in new_entries:
                raw = clean(entry.raw)
                fields = [FieldChange(k, v, None) for k, v in raw.items() if k not in _naming(spec, key)]
                result.removed.append(_entity(spec, key, raw, fields, _why(new, name, key)))
        for key, entry in new_entries.items():
            previous = old_entries.get(key)
            # An entry a variant leaves alone is its base's own object (the resolver shares it): it
            # has no change, and cleaning both sides of every such entity was most of the diff that
            # each variant's sheets are built with (issue 32, point 6: a long `extends` chain).
            if key is None or previous is None or previous.raw is entry.raw:
                continue
            raw = clean(entry.raw)
            found = diff_values(clean(previous.raw), raw, "")
            changes = [_sourced(change, previous, entry, written) for change in found]
            if changes:
                result.changed.append(_entity(spec, key, raw, changes))
        collections.append(result)
    return RulesetDiff(str(old.data["id"]), str(new.data["id"]), settings, collections)


def _derived(change: FieldChange, new: Resolved, slots: set[str]) -> FieldChange:
    """``change`` marked as derived where the new side's value of its setting is one its family
    derived from the ruleset's data (:meth:`Resolved.is_derived`), not one a ruleset wrote."""
    parts = re.split(r"[.\[]", change.path)
    key = parts[1] if parts[0] in slots and len(parts) > 1 else parts[0]
    return replace(change, derived=True) if new.is_derived(key) else change


def _setting_sourced(change: FieldChange, old: Resolved, new: Resolved, written: _WrittenCitations) -> FieldChange:
    """``change`` of a setting's field with the citations of its value before and after, where they
    differ and a variant's overlay wrote the field on one side, as :func:`_sourced` cites an
    entity's field and `export`'s `setting_sources` a setting's: the settings patch's own citation
    (none: uncited) for a field it wrote, the setting's definition's for one it left. A band a house
    rule changed is cited `source: house rule`, where the base cited its rulebook."""
    parts = re.split(r"[.\[]", change.path)
    slots = {*old.settings, *new.settings}
    at = 1 if parts[0] in slots and len(parts) > 1 else 0
    if len(parts) < at + 2:
        return change  # a setting that is no mapping: a variant writes it whole, citing it itself
    key, name = parts[at], parts[at + 1]
    if change.path.split(".", at)[at][len(key) :].startswith("["):
        name = key  # an element of a list setting: list operations change the setting itself, named by its key
    if key in CITATION_KEYS or name in CITATION_KEYS:
        return change

    def changed(resolved: Resolved) -> bool:
        origin = resolved.setting_origins.get(key)
        return origin is not None and any(at == name for at, _ in origin.changes)

    if not changed(old) and not changed(new):
        return change  # two rulesets' own definitions: each cites its own rulebook throughout
    inner = change.cited or (None, None)

    rest = change.path.split(".", at)[at][len(key if name == key else f"{key}.{name}") :]

    def side(resolved: Resolved, own: str | None, other: str | None) -> str | None:
        origin = resolved.setting_origins.get(key)
        if own is not None and (origin is None or _cited_as_written(written(origin, name), own, other)):
            return own
        if origin is not None:
            value = setting_of(resolved.data, resolved.settings, resolved.setting_origins, key)
            items = value[0] if value is not None and name == key else None
            if items is None and value is not None and isinstance(value[0], Mapping):
                items = value[0].get(name)
            by_element = written.element(origin, name, items, rest)
            if by_element is not None:
                return by_element[0]
        return setting_field_citation(resolved, key, name)

    sources = (side(old, inner[0], inner[1]), side(new, inner[1], inner[0]))
    return replace(change, sources=_present(change, *sources)) if sources[0] != sources[1] else change


def _sourced(change: FieldChange, old: Entry, new: Entry, written: _WrittenCitations) -> FieldChange:
    """``change`` with the citations of its value before and after, where they differ.

    On each side, the nearest element enclosing the value that cites (a credit line's `rule:`,
    not its card's), else the field's citation. An element whose citation is the other side's
    while its value is not was changed by an overlay that did not restate it (an attribute's text
    rewritten by a patch): its citation is the overlay's, not the one the base gave the old text.
    """
    top = re.split(r"[.\[]", change.path, maxsplit=1)[0]
    patched = any(name == top for entry in (old, new) for name, _ in entry.origin.changes)
    if top in CITATION_KEYS or not patched:
        return change  # two rulesets' own definitions: each cites its own rulebook throughout
    inner = change.cited or (None, None)

    rest = change.path[len(top) :]

    def side(entry: Entry, own: str | None, other: str | None) -> str | None:
        if own is not None and _cited_as_written(written(entry.origin, top), own, other):
            return own
        by_element = written.element(entry.origin, top, entry.raw.get(top), rest)
        return by_element[0] if by_element is not None else written.field(entry, top)

    sources = (side(old, inner[0], inner[1]), side(new, inner[1], inner[0]))
    return replace(change, sources=_present(change, *sources)) if sources[0] != sources[1] else change


def _present(change: FieldChange, old: str | None, new: str | None) -> tuple[str | None, str | None]:
    """The citations of the two sides of ``change``, none for a side that has no value: what a
    variant removed is cited by nothing after (a deletion writes no fact), not "uncited"."""
    return (None if change.old is None else old, None if change.new is None else new)


def _cited_lines(change: FieldChange, indent: str) -> list[str]:
    """The line that says how the value of ``change`` is cited on each side (one side only where
    the value comes or goes: the other has nothing to cite)."""
    if change.sources is None:
        return []
    was, now = (source or "uncited" for source in change.sources)
    if change.new is None:
        # what cited the fact that is gone, never the deletion (which writes no fact, so cites none)
        return [f"{indent}was cited: {was}"]
    if change.old is None:
        return [f"{indent}cited: {now}"]
    return [f"{indent}cited: {was} → {now}"]


class _WrittenCitations:
    """What cites the facts each field of a diff's entities still holds, asked once per field:
    a field's every changed value asks it, and each answer reads every entry whose facts the
    field holds (n appended credit lines, each changed, asking for n entries' citations each was
    the square of them)."""

    def __init__(self, clean: Callable[[Any], Any]) -> None:
        # by the origin's identity, the origin kept beside its answer so that its id is never reused
        self._found: dict[tuple[int, str], tuple[Origin, frozenset[str] | None]] = {}
        #: How the diff cleaned what it compares (the names of a list's elements are the cleaned ones').
        self._clean = clean
        # per field (by the origin's identity, kept beside), its elements by their names in the diff,
        # each with the citation of the one overlay entry that wrote it (None: none did alone)
        self._elements: dict[tuple[int, str], tuple[Origin, Any, dict[str, str | None] | None]] = {}
        # per field (by the origin's identity, kept beside), its citation
        self._fields: dict[tuple[int, str], tuple[Origin, str | None]] = {}

    def field(self, entry: Entry, name: str) -> str | None:
        """:func:`civrules.resolve.field_citation` of ``entry``'s field ``name``, worked out once
        per field: each changed element of a list no one entry wrote alone asks it, and it reads
        every entry whose facts the field holds (n entries appending to and patching one nested
        list in turn, each element changed, was the square of n; round 28)."""
        at = (id(entry.origin), name)
        known = self._fields.get(at)
        if known is None:
            known = self._fields[at] = (entry.origin, field_citation(entry, name))
        return known[1]

    def element(self, origin: Origin, name: str, items: Any, rest: str) -> tuple[str | None] | None:
        """The citation of the one overlay entry that wrote the element of the list field ``name``
        (``items``, of what was read from ``origin``) that a change's path names (``rest``: the
        path after the field, ``[NAME]...``), as :func:`civrules.resolve.element_citations` gives
        it (``(None,)`` where it cites nothing); None where no one entry wrote it (the definition's,
        an id two entries wrote, not an element): the field's citation cites it. Worked out once
        per field (n changed elements asking each of n: the square of them)."""
        if not isinstance(items, list) or not rest.startswith("["):
            return None
        at = (id(origin), name)
        known = self._elements.get(at)
        if known is None or known[1] is not items:
            known = self._elements[at] = (origin, items, self._named(origin, name, items))
        named = known[2]
        if named is None:
            return None
        # looked up, not searched for (n changed elements each a pass over the n names was the
        # square of them); a name holding `]` is tried at each `]`
        end = rest.find("]")
        while end != -1:
            if (label := rest[1:end]) in named:
                return (named[label],)
            end = rest.find("]", end + 1)
        return None

    def _named(self, origin: Origin, name: str, items: list[Any]) -> dict[str, str | None] | None:
        by_element = element_citations(origin, name)
        if not by_element:
            return None
        labels = _element_labels(self._clean(items))
        if labels is None:
            return None
        copies = Counter(id(element) for element in items)
        seen: Counter[int] = Counter()
        found: dict[str, str | None] = {}
        for label, element in zip(labels, items, strict=True):
            writers = by_element.get(id(element))
            if writers is None or len(writers) != copies[id(element)]:
                continue  # a copy no record names: the field's citation cites it
            nodes = writers[seen[id(element)]]  # the copies in the list's order, each its writer's
            seen[id(element)] += 1
            if nodes is not None:
                found[label] = "; ".join(dict.fromkeys(str(citation_of(node)) for node in nodes)) or None
        return found

    def __call__(self, origin: Origin, name: str) -> frozenset[str] | None:
        """The citations of what each overlay entry whose facts the field ``name`` (of what was
        read from ``origin``) still holds wrote (:func:`civrules.resolve.cited_writers`); None
        where no overlay entry's facts are left in it."""
        at = (id(origin), name)
        found = self._found.get(at)
        if found is None:
            writers = cited_writers(origin, name)
            texts = None
            if writers:
                texts = frozenset(text for _, nodes in writers for node in nodes if (text := citation_of(node)))
            found = self._found[at] = (origin, texts)
        return found[1]


def _element_labels(items: list[Any]) -> list[str] | None:
    """Each element's name in a list, as :func:`_diff_lists` names them on one side (by a naming
    field, else by the first naming field each has, else by what tells them apart); None where
    its naming depends on the other side's list."""
    for key in _ELEMENT_KEYS.get():
        if _keyed(items, key):
            return [_label(item[key]) for item in items]
    named = _named_each(items)
    if named is not None:
        return list(named)
    return distinguish(items)


def _cited_as_written(written: frozenset[str] | None, own: str, other: str | None) -> bool:
    """Whether the citation ``own`` of the element enclosing a changed value is what wrote the
    value (``written``: the citations of what wrote the field's facts, :class:`_WrittenCitations`):
    where no overlay entry's facts are left in the field, the definition's; else the citation of
    something an entry whose facts the field still holds wrote itself (an appended credit line's
    `source:`), whichever entry that is (:func:`civrules.resolve.cited_writers`, not the field's
    last changer). An element patched in place (a `with:`) is cited by its definition and the
    overlay both, and one an entry did not restate keeps the other side's citation: neither is
    what wrote the value, which the overlay's citation of the field is."""
    if written is None:
        return True
    if own == other:
        return False
    return own in written


def _why(resolved: Resolved, collection: str, key: str) -> str | None:
    """The reason a variant of ``resolved``'s chain gives for removing ``key`` (its `why:`), if any."""
    at = resolved.removed.get(collection, {}).get(key)
    if at is None:
        return None
    node: Any = at.document.data
    for part in at.path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    why = node.get("why") if isinstance(node, dict) else None
    return why if isinstance(why, str) else None


def _naming(spec: CollectionSpec, key: str) -> dict[str, object]:
    """The fields that name an entity of key ``key`` (:meth:`CollectionSpec.fields_of`): the line
    that names an added or removed entity gives them (a track's `level` too), not a field's line."""
    return spec.fields_of(key)


def _entity(
    spec: CollectionSpec, key: str, raw: Mapping[str, Any], fields: list[FieldChange], why: str | None = None
) -> EntityChange:
    """An entity's change, named as a designer names it: a border ``areas: [a, b]`` (its fields
    in JSON, ``named_by``), not by the resolver's ``a|b``; its id stays the key (what
    ``suppress:`` and ``export`` use)."""
    named = spec.naming(key) if spec.composite and spec.fields_of(key) != {spec.key: key} else None
    naming = spec.fields_of(key) if named is not None else None
    name = raw.get("name")
    return EntityChange(key, name if isinstance(name, str) else named or key, fields, why, named, naming)


#: The citations enclosing a value on the old and the new side (see :attr:`FieldChange.cited`).
_Around = tuple[str | None, str | None]


def diff_values(old: Any, new: Any, path: str, around: _Around | None = None) -> Iterator[FieldChange]:
    """Field-level differences: mappings key by key, lists of entities by id, anything else whole.

    ``around``: the citations enclosing ``old`` and ``new`` (None: they are the compared wholes,
    whose own citations enclose nothing asked about)."""
    if old == new:
        return
    if path and _empty(old) and isinstance(new, (dict, list)) and not _empty(new):
        # what holds only what the new side adds: each part's change says so (the outermost such
        # part wins, being the last to say it)
        for change in _diff_values(old, new, path, around):
            yield replace(change, fresh=path)
        return
    yield from _diff_values(old, new, path, around)


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (dict, list)) and not value)


def _diff_values(old: Any, new: Any, path: str, around: _Around | None) -> Iterator[FieldChange]:
    cited = (None, None) if around is None else (_citation(old) or around[0], _citation(new) or around[1])
    if _plain_mapping(old) and _plain_mapping(new):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else key
            yield from diff_values(old.get(key), new.get(key), sub, cited)
        return
    # A list or mapping that appears or goes whole is shown element by element, like one that changes.
    if (isinstance(old, list) and isinstance(new, list)) or (old is None and new) or (new is None and old):
        before = old if old is not None else ([] if isinstance(new, list) else {})
        after = new if new is not None else ([] if isinstance(old, list) else {})
        if isinstance(before, list) and isinstance(after, list):
            yield from _diff_lists(before, after, path, cited)
            return
        if isinstance(before, dict) and isinstance(after, dict) and _plain_mapping(before) and _plain_mapping(after):
            for key in sorted(set(before) | set(after)):
                yield from diff_values(before.get(key), after.get(key), f"{path}.{key}", cited)
            return
    yield _change(path, old, new, cited)


def _change(path: str, old: Any, new: Any, around: _Around) -> FieldChange:
    """A value changed, come or gone whole, with the citations enclosing it (its own included)."""
    cited = (_citation(old) or around[0], _citation(new) or around[1])
    return FieldChange(path, old, new, cited=cited if cited != (None, None) else None)


#: Fields that name an element of a list of mappings, in the order they are tried: the naming keys
#: of the family whose rulesets are compared (:attr:`~civrules.families.Family.naming_keys`), set by
#: :func:`diff_rulesets` for its walk (:func:`named_by`); ``id`` alone outside one.
_ELEMENT_KEYS: ContextVar[tuple[str, ...]] = ContextVar("element_keys", default=("id",))


@contextmanager
def named_by(*families: Family) -> Iterator[None]:
    """Within: the elements of lists are named by the naming keys of ``families`` (the first's
    first), as a diff of their rulesets or a family's sheet names them."""
    keys = tuple(dict.fromkeys(key for family in families for key in family.naming_keys))
    token = _ELEMENT_KEYS.set(keys or ("id",))
    try:
        yield
    finally:
        _ELEMENT_KEYS.reset(token)


def _diff_lists(old: list[Any], new: list[Any], path: str, around: _Around = (None, None)) -> Iterator[FieldChange]:
    """A list element by element: by a naming field when every element has one, else by value."""
    for key in _ELEMENT_KEYS.get():
        if (old or new) and (not old or _keyed(old, key)) and (not new or _keyed(new, key)):
            yield from _diff_named(
                {_label(item[key]): item for item in old}, {_label(item[key]): item for item in new}, path, around
            )
            return
    # Elements named by one field or another (a list whose elements name a `group` or a `card`).
    before_named, after_named = _named_each(old), _named_each(new)
    if (old or new) and before_named is not None and after_named is not None:
        yield from _diff_named(before_named, after_named, path, around)
        return
    # An element is kept when the other side has one more of the same text to match it with:
    # counted, not searched for in the other list (a list of 5,000 ids changed in a variant was
    # the square of the list).
    old_texts, new_texts = [_canon(v) for v in old], [_canon(v) for v in new]
    remaining = Counter(new_texts)
    gone = []
    for i, text in enumerate(old_texts):
        if remaining[text]:
            remaining[text] -= 1
        else:
            gone.append(i)
    kept = Counter(old_texts)
    added = []
    for j, text in enumerate(new_texts):
        if kept[text]:
            kept[text] -= 1
        else:
            added.append(j)
    # Each element is named by what tells it from the others of its list (never `[…]`): an element
    # gone and one come under the same name are one element changed, shown field by field.
    before, after = distinguish(old), distinguish(new)
    if len(gone) == 1 and len(added) == 1 and _plain_mapping(old[gone[0]]) and _plain_mapping(new[added[0]]):
        # One element changed in place (an attribute's text): its fields, not the whole of it twice.
        yield from diff_values(old[gone[0]], new[added[0]], f"{path}[{before[gone[0]]}]", around)
        return
    # An element gone pairs with the element come under its name (``distinguish`` names the
    # elements of a list apart), looked up, not searched for among every element come.
    coming = {after[j]: j for j in added}
    pairs: dict[int, int] = {}
    for i in gone:
        match = coming.get(before[i])
        positional = before[i].startswith("#")  # places in a list in no order of the rules pair nothing
        if match is not None and not positional and _plain_mapping(old[i]) and _plain_mapping(new[match]):
            pairs[i] = match
    paired = set(pairs.values())
    for i in gone:
        if i in pairs:
            yield from diff_values(old[i], new[pairs[i]], f"{path}[{before[i]}]", around)
        else:
            yield _change(f"{path}[{before[i]}]", old[i], None, around)
    for j in added:
        if j not in paired:
            yield _change(f"{path}[{after[j]}]", None, new[j], around)


#: The longest value that names an element (a sentence of rules text does not).
_NAME_LENGTH = 40


def _name_value(value: Any) -> str | None:
    """A field's value as part of an element's name, or None when it cannot name one (a list, a
    sentence, a mapping other than a band of players)."""
    if isinstance(value, bool) or value is None:
        return None if value is None else str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value if len(value) <= _NAME_LENGTH and "\n" not in value else None
    if isinstance(value, dict) and set(value) >= {"min", "max"} and not isinstance(value, UnknownFact):
        return _label(value)
    return None


def distinguish(items: list[Any]) -> list[str]:
    """Each element's name in a list with no naming field: what tells it from the others.

    A value names itself (``north``); a mapping is named by the fewest short fields whose values
    differ between every two elements (``level: expert``; ``players: 9-9, zone: east``),
    fields that usually name an element first, else by the first words of a sentence of its own
    (``text: "Ships may move five…"``); elements nothing tells apart (two equal) by their places, ``#2``.

    >>> distinguish([{"level": "basic", "min_size": 2}, {"level": "expert", "min_size": 3}])
    ['level: basic', 'level: expert']
    >>> distinguish(["north", "south"])
    ['north', 'south']
    >>> distinguish([{"text": "Ships may move five areas instead of four."}])
    ['text: "Ships may move five…"']
    >>> distinguish([{"min_size": 3}, {"min_size": 3}])
    ['#1', '#2']
    """
    if all(not isinstance(v, (dict, list)) for v in items):
        names = [_name_value(v) or json.dumps(v) for v in items]
        return names if len(set(names)) == len(names) else [f"#{i + 1}" for i in range(len(items))]
    seen: dict[str, None] = {}  # every field, in the order first met
    for item in items:
        if isinstance(item, dict):
            seen.update(dict.fromkeys(item))
    fields = list(seen)
    keys = _ELEMENT_KEYS.get()
    fields.sort(key=lambda k: keys.index(k) if k in keys else len(keys))
    usable = [
        k
        for k in fields
        if all(isinstance(v, dict) and (k not in v or _name_value(v[k]) is not None) for v in items)
        and any(isinstance(v, dict) and k in v for v in items)
    ]
    for size in (1, 2, 3):
        for chosen in combinations(usable, size):
            values = [tuple(_name_value(v.get(k)) for k in chosen) for v in items]
            if len(set(values)) == len(values) and all(any(x is not None for x in named) for named in values):
                return [
                    ", ".join(f"{k}: {value}" for k, value in zip(chosen, named, strict=True) if value is not None)
                    for named in values
                ]
    # No short field tells them apart: the first words of a sentence of theirs (an attribute's text).
    for words in (4, 8, 16):
        for key in fields:
            if all(isinstance(v, dict) and isinstance(v.get(key), str) for v in items):
                starts = [_first_words(v[key], words) for v in items]
                if len(set(starts)) == len(starts):
                    return [f'{key}: "{start}"' for start in starts]
    return [f"#{i + 1}" for i in range(len(items))]


def _first_words(text: str, count: int) -> str:
    words = text.split()
    return " ".join(words[:count]) + ("…" if len(words) > count else "")


def _diff_named(
    before: dict[str, Any], after: dict[str, Any], path: str, around: _Around = (None, None)
) -> Iterator[FieldChange]:
    for name, item in after.items():
        if name not in before:
            yield _change(f"{path}[{name}]", None, item, around)
    for name, item in before.items():
        if name not in after:
            yield _change(f"{path}[{name}]", item, None, around)
        else:
            yield from diff_values(item, after[name], f"{path}[{name}]", around)


def _named_each(items: list[Any]) -> dict[str, Any] | None:
    """Each element by the first naming field it has, when every element has one and no two share a name."""
    named: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict):
            return None
        key = next((k for k in _ELEMENT_KEYS.get() if isinstance(item.get(k), (str, int, dict))), None)
        if key is None:
            return None
        label = _label(item[key])
        if label in named:
            return None
        named[label] = item
    return named


def _keyed(items: list[Any], key: str) -> bool:
    if not items or not all(isinstance(v, dict) and isinstance(v.get(key), (str, int, dict)) for v in items):
        return False
    return len({_label(v[key]) for v in items}) == len(items)


def _label(value: Any) -> str:
    """How an element is named in a path: its id, or a band of players as `5-7`."""
    if isinstance(value, dict):
        if set(value) >= {"min", "max"}:
            return f"{value['min']}-{value['max']}"
        return _canon(value)
    return str(value)


def _plain_mapping(value: Any) -> bool:
    return isinstance(value, dict) and not only_unknown(value)


def _entity_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) and isinstance(v.get("id"), str) for v in value)


def show(value: Any) -> str:
    """A readable rendering of a value for the text diff: scalars as they are, the rest as JSON, whole;
    an unknown fact as ``unknown (its reason)``, wherever it sits."""
    if value is None:
        return "(absent)"
    if isinstance(value, dict) and only_unknown(value):
        return _unknown_text(value)
    if isinstance(value, str):
        return value
    return json.dumps(_readable(value), ensure_ascii=False, sort_keys=True)


def _unknown_text(value: dict[str, Any]) -> str:
    why = value.get("unknown")
    return f"unknown ({' '.join(why.split())})" if isinstance(why, str) and why.strip() else "unknown"


def _readable(value: Any) -> Any:
    if isinstance(value, dict):
        if only_unknown(value):
            return _unknown_text(value)
        return {k: _readable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    return value


def render_text(result: RulesetDiff, *, in_words: bool = False) -> str:
    """``civrules diff``'s text. With ``in_words`` (the variant's changes sheet, which players read),
    a mapping or list that comes, goes or changes whole is given line by line in words (its fields
    named without underscores, an element by its name or text) instead of as JSON: an entity a
    variant added with a list of rules was one line of JSON on the sheet."""

    # A list in words, by its identity and indent (the list kept beside): what entities name
    # through one YAML alias is one list, worded once.
    worded: dict[tuple[int, int], tuple[Any, list[str]]] = {}

    def lines_of(change: FieldChange, indent: str) -> list[str]:
        return _change_lines(change, indent, worded) if in_words else [_change_line(change, indent)]

    lines = [f"{result.old} → {result.new}"]
    if result.settings:
        lines.append("settings:")
        for change in result.settings:
            lines.extend(lines_of(change, "  "))
            if change.derived:
                lines.append("      derived: civrules works it out from this ruleset's other facts; no change of yours")
            lines.extend(_cited_lines(change, "      "))
    for collection in result.collections:
        if not collection:
            continue
        counts = []
        for label, items in (
            ("added", collection.added),
            ("removed", collection.removed),
            ("changed", collection.changed),
        ):
            if items:
                counts.append(f"{len(items)} {label}")
        lines.append(f"{collection.name}: {', '.join(counts)}")
        for mark, entities in (("+", collection.added), ("-", collection.removed), ("~", collection.changed)):
            for entity in entities:
                lines.append(f"  {mark} {entity.shown}" + (f"  {entity.name}" if entity.name != entity.shown else ""))
                if entity.why is not None:
                    lines.append(f"      why: {entity.why}")
                for change in entity.fields:
                    lines.extend(lines_of(change, "      "))
                    lines.extend(_cited_lines(change, "          "))
    if len(lines) == 1:
        lines.append("no differences")
    return "\n".join(printable(line) for line in lines) + "\n"  # a field's own line breaks stay escaped


def _change_line(change: FieldChange, indent: str) -> str:
    for mark, value in (("+", change.new), ("-", change.old)):
        if (change.old is None or change.new is None) and value is not None and _names_itself(change.path, value):
            return f"{indent}{mark} {change.path}"
    if change.old is None:
        return f"{indent}+ {change.path}: {show(change.new)}"
    if change.new is None:
        return f"{indent}- {change.path}: {show(change.old)}"
    return f"{indent}~ {change.path}: {show(change.old)} → {show(change.new)}"


def _change_lines(
    change: FieldChange, indent: str, worded: dict[tuple[int, int], tuple[Any, list[str]]] | None = None
) -> list[str]:
    """:func:`_change_line`, with a mapping or list given in words on the lines below it (``worded``:
    see :func:`_in_words`)."""
    if not _whole(change.old) and not _whole(change.new):
        return [_change_line(change, indent)]
    deeper = len(indent) + 4
    if change.old is None or change.new is None:
        mark, value = ("+", change.new) if change.old is None else ("-", change.old)
        if _flat(value):
            return [f"{indent}{mark} {change.path}: {_word(value)}"]
        return [f"{indent}{mark} {change.path}", *_in_words(value, deeper, change.path, worded)]
    if _flat(change.old) and _flat(change.new):
        return [f"{indent}~ {change.path}: {_word(change.old)} → {_word(change.new)}"]
    lines = [f"{indent}~ {change.path}:"]
    for label, value in (("was", change.old), ("now", change.new)):
        if _whole(value):
            lines.extend([f"{' ' * deeper}{label}:", *_in_words(value, deeper + 2, change.path, worded)])
        else:
            lines.append(f"{' ' * deeper}{label}: {_word(value)}")
    return lines


def _whole(value: Any) -> bool:
    """A mapping or list (not an unknown fact): what :func:`show` gives as JSON."""
    return isinstance(value, list) or (isinstance(value, dict) and not only_unknown(value))


def _word(value: Any) -> str:
    """A value on one line: a band of players as ``9–11``, a small mapping of values as ``its
    fields: their values``, a list of values with commas."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and set(value) == {"min", "max"}:
        return f"{_word(value['min'])}–{_word(value['max'])}"
    if isinstance(value, dict) and _whole(value):
        keys = _keys(value)
        return "; ".join(
            _word(value[k]) if i == 0 and k in _FIRST else f"{str(k).replace('_', ' ')}: {_word(value[k])}"
            for i, k in enumerate(keys)
        )
    if isinstance(value, list):
        return ", ".join(_word(v) for v in value)
    return show(value)


def _keys(value: dict[str, Any], path: str = "") -> list[str]:
    """A mapping's fields in the order they are read: its name or text first, then the others as
    written; its `id` left out where its name, its text or the path names it."""
    keys = sorted(value, key=lambda k: _FIRST.index(k) if k in _FIRST else len(_FIRST))
    if any(k in value for k in _FIRST) or (path and path.endswith(f"[{value.get('id')}]")):
        keys = [k for k in keys if k != "id"]
    return keys


def _flat(value: Any) -> bool:
    """A value :func:`_word` gives on one line: no mapping or list within a mapping of at most
    three fields, or within a list."""
    if isinstance(value, dict) and _whole(value):
        return set(value) == {"min", "max"} or (
            len(value) <= 3 and not any(_whole(v) and not _flat(v) for v in value.values())
        )
    if isinstance(value, list):
        return not any(_whole(v) for v in value)
    return True


#: The fields that name an element, given first (an element is read by its name or its rule's text).
_FIRST = ("name", "text")


def _in_words(
    value: Any, indent: int, path: str = "", worded: dict[tuple[int, int], tuple[Any, list[str]]] | None = None
) -> list[str]:
    """``value`` as lines of words at ``indent``: a field as ``its name: its value`` (underscores
    read as spaces), a list of values on one line, a list of mappings an element a line (``·``).

    ``worded`` keeps a list's lines by its identity and the indent (a list's lines do not depend on
    ``path``), the list kept beside so that its id is never reused; the lines are read only."""
    if worded is not None and isinstance(value, list):
        known = worded.get((id(value), indent))
        if known is None:
            known = worded[(id(value), indent)] = (value, _in_words(value, indent))
        return known[1]
    pad = " " * indent
    if isinstance(value, dict) and _whole(value):
        keys = _keys(value, path)
        lines = []
        for key in keys:
            item, label = value[key], str(key).replace("_", " ")
            if _whole(item) and not _flat(item):
                lines.extend([f"{pad}{label}:", *_in_words(item, indent + 2, worded=worded)])
            elif key in _FIRST and keys[0] == key:
                lines.append(f"{pad}{_word(item)}")  # the element's name or text leads
            else:
                lines.append(f"{pad}{label}: {_word(item)}")
        return lines
    if isinstance(value, list):
        if _flat(value):
            return [f"{pad}{_word(value)}"]
        lines = []
        for item in value:
            inner = (
                [f"{pad}  {_word(item)}"] if _flat(item) else _in_words(item, indent + 2, worded=worded) or [f"{pad}  "]
            )
            lines.extend([f"{pad}· {inner[0].strip()}", *inner[1:]])
        return lines
    return [f"{pad}{_word(value)}"]
