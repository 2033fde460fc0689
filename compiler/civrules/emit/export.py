"""`civrules export`: the resolved ruleset as one canonical JSON object.

The shape is a contract other tools rely on (DESIGN.md): ``ruleset`` (id, name, family, extends,
players, chain), then one array per collection, each element with at least ``id`` and ``name`` and
its fields as written, in data order (an entity a variant changed also has `field_sources`: the
citation of each field the variant changed; ``setting_sources`` gives the same for each setting a
variant changed); the facts the ruleset's family derives (its hook ``export``,
which :func:`civrules.pipeline.derived_facts` calls for the caller); and ``settings``: the ruleset-level rules (manifest
sections that are not collections, and data-file settings by file kind). Keys are sorted by the
caller.

This module does not ask the register of families (a family's engine package imports
:func:`fingerprint` from here, and the register imports the family): the caller passes the facts
the family derives.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from civrules.model import Ruleset
from civrules.resolve import Resolved, entity_key, field_citations, setting_field_citations

_HEADER = ("id", "name", "extends", "players")
_NOT_SETTINGS = {"kind", "family", "overlay", "files", *_HEADER}


class Export(dict[str, Any]):
    """The object :func:`export_ruleset` makes: a plain dict that keeps its :func:`fingerprint` once
    computed. A build asks for it twice (the family's package writes it into ``data.py``, the core
    prints it on every sheet and the helper page; 3–5 ms of a build of the largest shipped ruleset each),
    and the package hook's signature (``package(model, exported)``) is the families' interface, so
    the stamp travels with the export. Read-only once made: nothing changes an export after it is
    fingerprinted (a changed copy, ``Export(exported)``, starts without a fingerprint)."""

    __slots__ = ("stamp",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stamp: str | None = None


def export_ruleset(resolved: Resolved, model: Ruleset, derived: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical JSON object of a resolved ruleset; ``derived``: its family's derived facts
    (:func:`civrules.pipeline.derived_facts`)."""
    data = resolved.data
    out = Export(ruleset={key: data.get(key) for key in _HEADER})
    out["ruleset"]["family"] = model.family
    out["ruleset"]["chain"] = list(resolved.chain)
    collections = resolved.family.collections
    for name, spec in collections.items():
        items = []
        for entry in resolved.collections.get(name, []):
            key = entity_key(spec, entry.raw)
            item = dict(entry.raw)
            item.setdefault("id", key)
            item.setdefault("name", key)
            cited = field_citations(entry)
            if cited:
                # per field, the citation of the overlay that changed it: a house rule's value does
                # not borrow the rulebook section the base cited for the value it replaced
                item["field_sources"] = cited
            items.append(item)
        out[name] = items
    out.update(derived)
    settings: dict[str, Any] = {}
    collection_roots = {spec.path[0] for spec in collections.values() if spec.slot == "ruleset"}
    nested_lists = {spec.path[1] for spec in collections.values() if spec.slot == "ruleset" and len(spec.path) > 1}
    for key, value in data.items():
        if key in _NOT_SETTINGS:
            continue
        if key in collection_roots and isinstance(value, dict):
            nested = {k: v for k, v in value.items() if not (isinstance(v, list) and k in nested_lists)}
            settings[key] = nested
        elif key not in collection_roots:
            settings[key] = value
    settings.update({f"{slot}": values for slot, values in resolved.settings.items()})
    out["settings"] = settings
    setting_cited = setting_field_citations(resolved)
    if setting_cited:
        # per setting and field, as an entity's `field_sources`: a band a house rule changed does
        # not borrow the rulebook's section, nor the limit's untouched text the house rule's source
        out["setting_sources"] = setting_cited
    return out


def fingerprint(exported: Mapping[str, Any]) -> str:
    """A hash of the resolved ruleset's canonical JSON: changes whenever any fact changes.

    The ruleset's family is left out: it is not a fact of the ruleset but where its facts are
    read (and the fingerprints printed on sheets before families existed stay what they were); so
    are the entities' `field_sources` and the settings' `setting_sources`, which say which overlay
    wrote a field, already counted in the facts themselves. An :class:`Export` is hashed once (it keeps the result).
    """
    if isinstance(exported, Export) and exported.stamp is not None:
        return exported.stamp
    header = {k: v for k, v in exported.get("ruleset", {}).items() if k != "family"}
    facts = {
        name: [_without_field_sources(item) for item in items] if isinstance(items, list) else items
        for name, items in exported.items()
        if name != "setting_sources"
    }
    canonical = json.dumps({**facts, "ruleset": header}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    stamp = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    if isinstance(exported, Export):
        exported.stamp = stamp
    return stamp


def _without_field_sources(item: Any) -> Any:
    if isinstance(item, dict) and "field_sources" in item:
        return {k: v for k, v in item.items() if k != "field_sources"}
    return item
