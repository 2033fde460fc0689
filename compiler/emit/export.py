"""`civrules export`: the resolved ruleset as one canonical JSON object.

The shape is a contract (see DESIGN.md): ``ruleset`` (id, name, extends, players), then one array
per collection, each element with at least ``id`` and ``name``, in the order the data gives them.
Top-level values of data files that are not collections are exported under ``settings``, keyed by
the file kind.
"""

from __future__ import annotations

from typing import Any

from compiler.workspace import LoadedRuleset

#: Collection names in the export where they differ from the key used in the data files.
RENAMED = {("civilization_cards", "cards"): "civilization_cards"}


def export_ruleset(ruleset: LoadedRuleset) -> dict[str, Any]:
    manifest = ruleset.manifest.data
    out: dict[str, Any] = {
        "ruleset": {key: manifest.get(key) for key in ("id", "name", "extends", "players")},
    }
    settings: dict[str, dict[str, Any]] = {}
    sources = [("ruleset", manifest)]
    for slot, loaded_files in ruleset.files.items():
        for loaded in loaded_files:
            assert loaded.document is not None
            sources.append((slot, loaded.document.data))
    for kind, data in sources:
        for key, value in data.items():
            if key in ("kind", "id", "name", "extends", "players"):
                continue
            if _is_collection(value):
                out.setdefault(RENAMED.get((kind, key), key), []).extend(value)
            else:
                settings.setdefault(kind, {})[key] = value
    out["settings"] = settings
    return out


def _is_collection(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "id" in v for v in value)
