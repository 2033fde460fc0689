"""The ids a family's own code, templates and schemas name, found by walking them: what a
family's :attr:`~civrules.families.family.Family.named_ids` must hold (each family's
``test_named_ids.py`` compares the two).

A literal is any string constant of the family's Python (docstrings are whole texts, never one
id), any quoted word of its templates and helper scripts, and any value of a schema's ``enum``.
It counts where it equals the id of an entity of one of the family's collections in the shipped
rule data; a word that is also another thing's name (a field, a setting's key) is listed by the
family's test, with why it is not the id.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from civrules.families.family import Family
from tests.conftest import REPO
from tests.rulefiles import pristine

_QUOTED = re.compile(r"""["']([a-z][a-z0-9_]*)["']""")


def shipped_ids(family: Family) -> dict[str, set[str]]:
    """The ids of each collection of ``family`` (keyed by one field) its shipped files define."""
    found: dict[str, set[str]] = {}
    for loaded in pristine().values():
        document = loaded.document
        if document is None or not isinstance(document.data, dict):
            continue
        for collection, spec in family.collections.items():
            if spec.composite or loaded.kind != family.slot_kind(spec.slot):
                continue
            listed: Any = document.data
            for step in spec.path:
                listed = listed.get(step) if isinstance(listed, dict) else None
            for element in listed if isinstance(listed, list) else ():
                if isinstance(element, dict) and isinstance(element.get(spec.key), str):
                    found.setdefault(collection, set()).add(element[spec.key])
    return found


def _literals(path: Path) -> Iterator[tuple[str, int]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield node.value, node.lineno
    elif path.suffix == ".json":
        for values in _enums(json.loads(text)):
            yield from ((v, 0) for v in values if isinstance(v, str))
    else:
        for match in _QUOTED.finditer(text):
            yield match.group(1), text.count("\n", 0, match.start()) + 1


def _enums(node: Any) -> Iterator[list[Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


def named_in_code(family: Family) -> dict[tuple[str, str], list[str]]:
    """``(collection, id) → places`` for every shipped id a literal of the family's room (code,
    templates, helper scripts) or of its schemas names."""
    room = REPO / "compiler" / Path(*family.package.split("."))
    files = [p for p in sorted(room.rglob("*")) if p.suffix in (".py", ".j2", ".js")]
    files += sorted({(REPO / "schemas" / schema) for schema in family.kinds.values()})
    ids = shipped_ids(family)
    found: dict[tuple[str, str], list[str]] = {}
    for path in files:
        for literal, line in _literals(path):
            for collection, keys in ids.items():
                if literal in keys:
                    found.setdefault((collection, literal), []).append(f"{path.relative_to(REPO)}:{line}")
    return found
