"""Does every fact of the rule data reach a generated package? The walker the families' tests share.

It compares ``civrules export`` with the package's tables: every leaf value of every entity of
every collection must be in the package's records for that entity (the tables keyed by its id, or
holding a record with its id; a family may say how else to find them), every leaf of every setting
in SETTINGS, every unknown fact's reason in UNKNOWN_FACTS, and the ruleset's identity: its id, name,
base (BASE_RULESET), family (the runtime its records are of) and the players it seats (PLAYERS:
min, max, best, citation). The export's ``ruleset.chain`` is not a fact a package holds: it is the
ids of the rulesets this one is made from, each a package of its own, reached by following
BASE_RULESET from package to package; the walk holds its last two ids to RULESET_ID and
BASE_RULESET. A field a family leaves out on
purpose is named, with why, in the family's ``not_carried``; any other field missing is a dropped
fact, and the test that calls :func:`dropped_facts` fails naming it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any

#: Fields no package carries, in any collection: a designer's note, and the values a disagreement
#: between sources did not choose (the chosen one is the field itself). The citation of each field
#: a variant changed (`field_sources`) is the package's ENTITY_FIELD_SOURCES (round 21).
NOT_CARRIED_ANYWHERE = {"note", "disagreements"}

Finder = Callable[[Mapping[str, Any], Mapping[str, Any]], list[object]]


def exported(ruleset: str) -> dict[str, Any]:
    """``civrules export RULESET`` as data."""
    from civrules.emit.export import export_ruleset
    from civrules.pipeline import derived_facts
    from tests.rulefiles import shipped_analysis

    analysis = shipped_analysis(ruleset)
    assert analysis.resolved is not None and analysis.model is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def data_module(ruleset: str) -> ModuleType:
    return importlib.import_module(f"civrules_rulesets.{ruleset.replace('-', '_')}.data")


def tables(data: ModuleType) -> dict[str, Any]:
    """The package's public constants."""
    return {name: item for name, item in vars(data).items() if name.isupper() and name != "TYPE_CHECKING"}


def flat(item: object) -> set[object]:
    """Every value in a record, tuple or mapping (enums as their strings, text whitespace-joined)."""
    out: set[object] = set()
    stack = [item]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list, frozenset)):
            stack.extend(node)
        elif isinstance(node, Mapping):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif hasattr(node, "__slots__") and not isinstance(node, str):
            stack.extend(getattr(node, name) for name in node.__slots__)
            stack.append(getattr(node, "kind", None))  # a card effect's kind is its class's
        elif isinstance(node, str):
            out.add(" ".join(node.split()))
        else:
            out.add(_told_apart(node))
    return out


def _told_apart(value: object) -> object:
    """A boolean kept apart from the number it equals: a record's ``False`` carries no leaf 0."""
    return ("bool", value) if isinstance(value, bool) else value


def leaves(item: object, path: str) -> Iterator[tuple[str, object]]:
    if isinstance(item, dict):
        for key, child in item.items():
            yield from leaves(child, f"{path}.{key}")
    elif isinstance(item, list):
        for child in item:
            yield from leaves(child, f"{path}[]")
    else:
        yield path, item


def records_by_id(entity: Mapping[str, Any], found: Mapping[str, Any]) -> list[object]:
    """The records of ``entity`` in the package: each table's entry under its id, and each record
    of a tuple table whose ``id`` is its id."""
    key = entity.get("id")
    out: list[object] = []
    for name, table in found.items():
        if name in ("SETTINGS", "UNKNOWN_FACTS", "ID_ENUMS", "ID_ALIASES"):
            continue
        if isinstance(table, Mapping) and isinstance(key, str) and key in table:
            out.append(table[key])
        elif isinstance(table, tuple):
            out.extend(r for r in table if getattr(r, "id", None) == key)
    return out


def _identity(ruleset: str, content: Mapping[str, Any], found: Mapping[str, Any]) -> list[str]:
    """The facts of the export's ``ruleset`` (but ``players``, walked as the other leaves) that the
    package does not hold: its id and name, its base, its family, and the chain's last two ids."""
    package = importlib.import_module(f"civrules_rulesets.{ruleset.replace('-', '_')}")
    family_runtime = f"civrules_runtime_{str(content.get('family')).replace('-', '_')}"
    held = {
        "ruleset.id": found.get("RULESET_ID"),
        "ruleset.name": found.get("RULESET_NAME"),
        "ruleset.extends": getattr(package, "BASE_RULESET", "absent"),
        "ruleset.family": family_runtime if type(found.get("SETTINGS")).__module__.startswith(family_runtime) else None,
    }
    written = {**{path: content.get(path.partition(".")[2]) for path in held}, "ruleset.family": family_runtime}
    out = [
        f"{path}: {written[path]!r} (the package has {held[path]!r})" for path in held if held[path] != written[path]
    ]
    chain = list(content.get("chain") or ())
    if chain[-2:] != [item for item in (content.get("extends"), content.get("id")) if item is not None]:
        out.append(f"ruleset.chain: {chain!r} does not end in the package's base and id")
    return out


def _normal(value: object) -> object:
    return " ".join(value.split()) if isinstance(value, str) else value


def dropped_facts(
    ruleset: str,
    not_carried: Mapping[str, str],
    *,
    finders: Mapping[str, Finder] | None = None,
    written_as: Mapping[str, Callable[[object], object]] | None = None,
    derived: Mapping[str, str] | None = None,
) -> list[str]:
    """The leaves of ``civrules export RULESET`` that do not reach its package.

    ``not_carried`` names, by path (``collection.field.subfield``), the fields the package leaves
    out on purpose, each with why; ``finders`` say how to find a collection's records where they are
    not keyed by id; ``written_as`` how a value is written where it is not itself; ``derived`` the
    top-level keys of the export that are derived from the collections, each with where the package
    has them. Every other top-level key must be a collection (a list of entities), ``settings``, or
    ``ruleset`` (the package's identity).
    """
    data = exported(ruleset)
    found = tables(data_module(ruleset))
    reasons = {_normal(u.reason) for u in found["UNKNOWN_FACTS"]}
    missing: list[str] = []
    checked = 0

    def check(path: str, leaf: object, values: set[object]) -> None:
        nonlocal checked
        fields = [part.removesuffix("[]") for part in path.split(".")]
        general = ".".join(fields)
        if NOT_CARRIED_ANYWHERE & set(fields) or general in not_carried:
            return
        checked += 1
        if fields[-1] == "unknown":
            ok = _normal(leaf) in reasons
        else:
            written = (written_as or {})[general](leaf) if general in (written_as or {}) else leaf
            ok = _told_apart(_normal(written)) in values
        if not ok:
            missing.append(f"{path}: {leaf!r}")

    for key, content in data.items():
        if key == "ruleset":
            missing.extend(_identity(ruleset, content, found))
            players = found.get("PLAYERS")
            values = flat(players) if players is not None else set()
            for path, leaf in leaves(content.get("players") or {}, "ruleset.players"):
                check(path, leaf, values)
            continue
        if key == "settings":
            settings = flat(found["SETTINGS"])
            for path, leaf in leaves(content, "settings"):
                check(path, leaf, settings)
            continue
        if key in (derived or {}):
            continue
        if key == "setting_sources":
            continue  # which writer cites each field of a setting: provenance, as field_sources is
        assert isinstance(content, list), f"{key}: neither a collection nor named as derived"
        for entity in content:
            assert isinstance(entity, dict), f"{key}: not a collection of entities"
            finder = (finders or {}).get(key, records_by_id)
            cited = f"{key}.{str(entity.get('id')).replace('@', '.')}"  # a track's id is nation@level
            sources = [
                v
                for table in ("ENTITY_SOURCES", "ENTITY_FIELD_SOURCES")
                for k, v in found.get(table, {}).items()
                if k == cited or k.startswith(f"{cited}.")
            ]
            values = flat([finder(entity, found), sources])
            for path, leaf in leaves(entity, key):
                check(path, leaf, values)
    assert checked > 0
    return missing
