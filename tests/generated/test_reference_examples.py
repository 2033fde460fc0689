"""The examples of `docs/reference.md` are valid for their field: by the field's schema, and, for a
field that names an entity of another collection, by the shipped rules (an example `start_nation:
pottery` is schema-valid and still wrong: Pottery is a card)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema
import yaml

from civrules.resolve import Resolver, entity_key
from civrules.schema.references import node_at
from tests.budget import heavy
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace

REFERENCE = RULES.parent / "docs" / "reference.md"


@dataclass(frozen=True)
class Example:
    schema: str | None
    path: str
    value: Any
    refers_to: str | None
    line: int


def examples() -> Iterator[Example]:
    schema: str | None = None
    path, refers = "", None
    for number, line in enumerate(REFERENCE.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("Schema: `schemas/"):
            schema = line.split("`")[1]
        elif line.startswith("### `"):
            path, refers = line.split("`")[1], None
        elif line.startswith("Refers to "):
            found = re.match(r"Refers to (?:ids of `([a-z_]+)`|ruleset ids)", line)
            refers = (found.group(1) or "rulesets") if found else None
        elif line.startswith("Example: `") and path and schema:
            written = line[len("Example: `") : -1]
            yield Example(schema, path, yaml.safe_load(written).popitem()[1], refers, number)


@functools.cache
def shipped_ids() -> dict[str, set[str]]:
    """The ids of every collection in every shipped ruleset, and the levels of the A.S.T."""
    workspace = CachedWorkspace()  # the one reading of the shipped files
    resolver = Resolver(workspace)
    found: dict[str, set[str]] = {"rulesets": set(workspace.manifests())}
    for manifest in workspace.manifests().values():
        resolved, _ = resolver.resolve(workspace.load_ruleset(manifest))
        assert resolved is not None
        for name, entries in resolved.collections.items():
            spec = resolved.family.collections[name]
            found.setdefault(name, set()).update(
                str(key) for e in entries if (key := entity_key(spec, e.raw)) is not None
            )
        ast = resolved.data.get("ast")
        levels = ast.get("levels") if isinstance(ast, dict) else None
        found.setdefault("levels", set()).update(level["id"] for level in levels or () if isinstance(level, dict))
    return found


def ids_in(value: Any) -> list[str]:
    return (
        [value]
        if isinstance(value, str)
        else [v for v in value if isinstance(v, str)]
        if isinstance(value, list)
        else []
    )


def test_every_example_naming_an_entity_names_one_the_rules_have() -> None:
    wrong = []
    for example in examples():
        collection = example.refers_to
        if collection is None and example.path.endswith("].level") and "remove[]" not in example.path:
            collection = "levels"
        if collection is None:
            continue
        known = shipped_ids().get(collection, set())
        bad = [i for i in ids_in(example.value) if i != "..." and i not in known]
        if bad:
            wrong.append(f"line {example.line}: `{example.path}: {json.dumps(example.value)}` is no id of {collection}")
    assert not wrong, "\n".join(wrong)


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((RULES.parent / name).read_text(encoding="utf-8"))
    return loaded


def test_every_example_is_valid_for_its_field_schema() -> None:
    wrong = []
    checked = 0
    for example in examples():
        if example.schema is None or "..." in json.dumps(example.value):
            continue  # a placeholder is a shape, not a value
        root = _schema(example.schema)
        parts = tuple(p.removesuffix("[]") for p in example.path.split("."))
        nodes = node_at(root, parts)
        if not nodes:
            continue
        checked += 1
        schemas = [{"$defs": root.get("$defs", {}), **node} if isinstance(node, dict) else node for node in nodes]
        if not any(jsonschema.Draft202012Validator(s).is_valid(example.value) for s in schemas):
            wrong.append(f"line {example.line}: `{example.path}: {json.dumps(example.value)}`")
    assert checked > 500
    assert not wrong, "\n".join(wrong)


@heavy
def test_an_example_of_a_mapping_by_names_shows_a_value_of_its_shape() -> None:
    """A field that maps names to mappings (`overlay.settings.citations`: `{setting: {source:
    ...}}`) is shown with a name and a mapping: its example was the placeholder `{...: "..."}`, a
    name and a text, which the schema refuses and which showed a newcomer the wrong shape."""
    wrong = []
    for example in examples():
        if example.schema is None:
            continue
        root = _schema(example.schema)
        parts = tuple(p.removesuffix("[]") for p in example.path.split("."))
        for node in node_at(root, parts):
            values = node.get("additionalProperties") if isinstance(node, dict) else None
            if "properties" in node or not isinstance(values, dict) or values.get("type") != "object":
                continue
            if not isinstance(example.value, dict) or not all(isinstance(v, dict) for v in example.value.values()):
                wrong.append(f"line {example.line}: `{example.path}: {json.dumps(example.value)}`")
    assert not wrong, "\n".join(wrong)
