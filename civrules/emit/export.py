"""`civrules export`: the resolved ruleset as one canonical JSON object.

The shape is a contract other tools rely on (DESIGN.md): ``ruleset`` (id, name, extends, players),
then one array per collection, each element with at least ``id`` and ``name`` and its fields as
written (civilization cards carry ``cost``, ``groups``, ``prerequisites``, ``credits``), in data
order; ``credit_matrix`` {owned: {target: points}} derived by the ruleset's credit policy;
``calamity_resolution_order``; and ``settings``: the ruleset-level rules (manifest sections that
are not collections, and data-file settings by file kind). Keys are sorted by the caller.
"""

from __future__ import annotations

from typing import Any

from civrules.calamities import resolution_order
from civrules.credits import credit_matrix
from civrules.model import Ruleset
from civrules.resolve import COLLECTIONS, Resolved, entity_key

_HEADER = ("id", "name", "extends", "players")
_NOT_SETTINGS = {"kind", "overlay", "files", *_HEADER}


def export_ruleset(resolved: Resolved, model: Ruleset) -> dict[str, Any]:
    data = resolved.data
    out: dict[str, Any] = {"ruleset": {key: data.get(key) for key in _HEADER}}
    out["ruleset"]["chain"] = list(resolved.chain)
    for name, spec in COLLECTIONS.items():
        items = []
        for entry in resolved.collections.get(name, []):
            key = entity_key(spec, entry.raw)
            item = dict(entry.raw)
            item.setdefault("id", key)
            item.setdefault("name", key)
            items.append(item)
        out[name] = items
    out["credit_matrix"] = credit_matrix(model)
    out["calamity_resolution_order"] = [c.id for c in resolution_order(model)]
    settings: dict[str, Any] = {}
    collection_roots = {spec.path[0] for spec in COLLECTIONS.values() if spec.slot == "ruleset"}
    for key, value in data.items():
        if key in _NOT_SETTINGS:
            continue
        if key in collection_roots and isinstance(value, dict):
            nested = {k: v for k, v in value.items() if not (isinstance(v, list) and k in _nested_lists())}
            settings[key] = nested
        elif key not in collection_roots:
            settings[key] = value
    settings.update({f"{slot}": values for slot, values in resolved.settings.items()})
    out["settings"] = settings
    return out


def _nested_lists() -> set[str]:
    return {spec.path[1] for spec in COLLECTIONS.values() if spec.slot == "ruleset" and len(spec.path) > 1}
