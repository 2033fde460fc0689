"""`civrules diff A B`: what a variant changes, entity by entity and field by field.

Both rulesets are resolved (extends and overlays applied) and compared collection by collection:
entities added, removed, and changed with each changed field's old and new value. Nested mappings
are compared key by key (``start_areas.areas``); lists of entities with ids by id; other values as
wholes. Ruleset-level settings (players, credit policy, hand limit ...) are compared the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from civrules.escape import printable
from civrules.resolve import COLLECTIONS, Resolved, entity_key

#: Manifest keys that are not rules (or that hold collections, compared entity by entity).
_NOT_SETTINGS = {"kind", "id", "name", "description", "extends", "overlay", "files", "note"}


@dataclass(frozen=True, slots=True)
class FieldChange:
    path: str
    old: Any
    new: Any


@dataclass(slots=True)
class EntityChange:
    key: str
    name: str
    fields: list[FieldChange]


@dataclass(slots=True)
class CollectionDiff:
    name: str
    added: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
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
                    "added": [{"id": k, "name": n} for k, n in c.added],
                    "removed": [{"id": k, "name": n} for k, n in c.removed],
                    "changed": [
                        {"id": e.key, "name": e.name, "fields": [_field_json(f) for f in e.fields]} for e in c.changed
                    ],
                }
                for c in self.collections
                if c
            },
        }


def _field_json(change: FieldChange) -> dict[str, Any]:
    return {"field": change.path, "old": change.old, "new": change.new}


def _settings(resolved: Resolved) -> dict[str, Any]:
    out: dict[str, Any] = {}
    collection_roots = {spec.path[0] for spec in COLLECTIONS.values() if spec.slot == "ruleset"}
    for key, value in resolved.data.items():
        if key in _NOT_SETTINGS:
            continue
        if key in collection_roots:
            nested = (
                {k: v for k, v in value.items() if k not in ("tracks", "phases", "counts")}
                if isinstance(value, dict)
                else None
            )
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


def strip_citations(value: Any) -> Any:
    """``value`` as facts only: no citation keys, no reasons on unknowns, unordered where order is not a fact.

    Lists of mappings without ids (credit lines, effects' entries) are sets in the rules: they are
    put in a canonical order so that two transcriptions listing them differently compare equal.
    """
    if isinstance(value, dict):
        if set(value) == {"unknown"}:
            return {"unknown": ""}
        return {k: strip_citations(v) for k, v in value.items() if k not in CITATION_KEYS}
    if isinstance(value, list):
        items = [strip_citations(v) for v in value]
        if items and all(isinstance(v, dict) and "id" not in v for v in items):
            items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return items
    return value


def _unchanged(value: Any) -> Any:
    return value


def diff_rulesets(old: Resolved, new: Resolved, *, citations: bool = False) -> RulesetDiff:
    """The changes that turn ``old`` into ``new``.

    Without ``citations`` the comparison ignores rule sections, sources, notes and recorded
    disagreements, so that two rulesets from different rulebooks compare by their facts.
    """
    clean: Callable[[Any], Any] = _unchanged if citations else strip_citations
    settings = list(diff_values(clean(_settings(old)), clean(_settings(new)), ""))
    collections = []
    for name, spec in COLLECTIONS.items():
        before = {entity_key(spec, e.raw): clean(e.raw) for e in old.collections.get(name, [])}
        after = {entity_key(spec, e.raw): clean(e.raw) for e in new.collections.get(name, [])}
        result = CollectionDiff(name)
        for key, raw in after.items():
            if key is not None and key not in before:
                result.added.append((key, _name(raw, key)))
        for key, raw in before.items():
            if key is not None and key not in after:
                result.removed.append((key, _name(raw, key)))
        for key, raw in after.items():
            if key is None or key not in before:
                continue
            changes = list(diff_values(before[key], raw, ""))
            if changes:
                result.changed.append(EntityChange(key, _name(raw, key), changes))
        collections.append(result)
    return RulesetDiff(str(old.data["id"]), str(new.data["id"]), settings, collections)


def _name(raw: Mapping[str, Any], key: str) -> str:
    name = raw.get("name")
    return name if isinstance(name, str) else key


def diff_values(old: Any, new: Any, path: str) -> Iterator[FieldChange]:
    """Field-level differences: mappings key by key, lists of entities by id, anything else whole."""
    if old == new:
        return
    if _plain_mapping(old) and _plain_mapping(new):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else key
            yield from diff_values(old.get(key), new.get(key), sub)
        return
    if _entity_list(old) and _entity_list(new):
        before = {item["id"]: item for item in old}
        after = {item["id"]: item for item in new}
        for key in after:
            if key not in before:
                yield FieldChange(f"{path}[{key}]", None, after[key])
        for key in before:
            if key not in after:
                yield FieldChange(f"{path}[{key}]", before[key], None)
            else:
                yield from diff_values(before[key], after[key], f"{path}[{key}]")
        return
    yield FieldChange(path, old, new)


def _plain_mapping(value: Any) -> bool:
    return isinstance(value, dict) and set(value) != {"unknown"}


def _entity_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) and isinstance(v.get("id"), str) for v in value)


def show(value: Any) -> str:
    """A short, readable rendering of a value for the text diff."""
    if value is None:
        return "(absent)"
    if isinstance(value, dict) and set(value) == {"unknown"}:
        return "unknown"
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        return f"{value['id']} ({value.get('name', '')})".replace(" ()", "")
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 100 else text[:97] + "..."


def render_text(result: RulesetDiff) -> str:
    lines = [f"{result.old} → {result.new}"]
    if result.settings:
        lines.append("settings:")
        for change in result.settings:
            lines.append(f"  ~ {change.path}: {show(change.old)} → {show(change.new)}")
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
        for key, name in collection.added:
            lines.append(f"  + {key}" + (f"  {name}" if name != key else ""))
        for key, name in collection.removed:
            lines.append(f"  - {key}" + (f"  {name}" if name != key else ""))
        for entity in collection.changed:
            lines.append(f"  ~ {entity.key}" + (f"  {entity.name}" if entity.name != entity.key else ""))
            for change in entity.fields:
                if change.old is None:
                    lines.append(f"      + {change.path}: {show(change.new)}")
                elif change.new is None:
                    lines.append(f"      - {change.path}: {show(change.old)}")
                else:
                    lines.append(f"      ~ {change.path}: {show(change.old)} → {show(change.new)}")
    if len(lines) == 1:
        lines.append("no differences")
    return "\n".join(printable(line) for line in lines) + "\n"  # a field's own line breaks stay escaped
