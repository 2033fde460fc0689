"""The fast validators shipped in civrules/_validators/ are exactly what the generator makes from
today's schemas; one that no longer matches its schema is not used."""

from __future__ import annotations

import copy
import importlib
import re
from typing import Any

import fastjsonschema
import pytest

from civrules import schema
from civrules.schema import SCHEMA_FILES, load_schema, schema_digest, validator_module
from tools.validators import ANNOTATIONS, TARGET, refs_with_their_siblings, render_validator


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_each_shipped_validator_was_generated_from_todays_schema(kind: str) -> None:
    module = importlib.import_module(f"civrules._generated.validators.{validator_module(kind)}")
    assert schema_digest(load_schema(kind)) == module.SCHEMA_SHA256, "run `python -m tools.validators`"
    assert schema._fast_validator(kind) is module.validate


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_regenerating_a_validator_gives_the_shipped_code(kind: str) -> None:
    shipped = (TARGET / f"{validator_module(kind)}.py").read_text(encoding="utf-8")
    made_by = re.search(r"by fastjsonschema (\S+) ", shipped)
    assert made_by is not None
    if made_by.group(1) != fastjsonschema.VERSION:
        pytest.skip(f"shipped code is from fastjsonschema {made_by.group(1)}, {fastjsonschema.VERSION} is installed")
    assert render_validator(kind) == shipped, "run `python -m tools.validators`"


def test_a_validator_generated_from_another_schema_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema edited without regenerating: jsonschema alone answers, correctly."""
    changed = {**load_schema("map"), "description": "edited"}
    monkeypatch.setattr(schema, "load_schema", lambda kind: changed if kind == "map" else load_schema(kind))
    schema._fast_validator.cache_clear()
    try:
        assert schema._fast_validator("map") is None
        assert schema.is_valid_fast("map", {}) is None
    finally:
        schema._fast_validator.cache_clear()


def _refs_judged_alone(node: Any) -> list[dict[str, Any]]:
    """Each `$ref` in ``node`` with a keyword beside it that judges (fastjsonschema ignores those)."""
    found: list[dict[str, Any]] = []
    if isinstance(node, list):
        for item in node:
            found += _refs_judged_alone(item)
    elif isinstance(node, dict):
        siblings = [k for k in node if k != "$ref" and k not in ANNOTATIONS and not k.startswith("x-")]
        if "$ref" in node and siblings:
            found.append(node)
        for value in node.values():
            found += _refs_judged_alone(value)
    return found


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_what_is_compiled_judges_every_keyword_beside_a_ref(kind: str) -> None:
    assert _refs_judged_alone(refs_with_their_siblings(load_schema(kind))) == []


def test_a_keyword_beside_a_ref_is_judged_by_the_compiled_validator() -> None:
    """fastjsonschema alone lets a text through `items: {type: object, $ref: ...}`; jsonschema refuses it."""
    written = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"removal": {"properties": {"id": {"type": "string"}}}},
        "type": "array",
        "items": {"type": "object", "$ref": "#/$defs/removal"},
    }
    assert fastjsonschema.compile(copy.deepcopy(written))(["jap001"]) == ["jap001"]  # why the rewrite is needed
    with pytest.raises(fastjsonschema.JsonSchemaException):
        fastjsonschema.compile(refs_with_their_siblings(written))(["jap001"])
    assert fastjsonschema.compile(refs_with_their_siblings(written))([{"id": "jap001"}]) == [{"id": "jap001"}]


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_a_shipped_validator_makes_nothing_only_a_message_would_use(kind: str) -> None:
    """Only a validator's verdict is used: no path of a node is made as a string to pass to the
    validator it calls (`data.nations[{x}]`, each call anew), and `uniqueItems` makes no function
    for each list it judges (one `_distinct` counts them, a list of texts as a set)."""
    shipped = (TARGET / f"{validator_module(kind)}.py").read_text(encoding="utf-8")
    assert '(name_prefix or "data") +' not in shipped
    assert shipped.count("def fn(var)") == shipped.count("len(set(fn(") == 1  # those of `_distinct`


@pytest.mark.parametrize(
    "items",
    [[], ["a", "b"], ["a", "a"], [True, 1], [1, 1.0], [False, 0, None], [{"a": [1]}, {"a": [1]}], [["x"], ["x", 1]]],
)
def test_distinct_items_are_counted_as_fastjsonschema_counts_them(items: list[Any]) -> None:
    """`_distinct` answers `uniqueItems` as the code fastjsonschema generates does (`true` is not
    `1`, mappings and lists by value), texts or not."""
    module = importlib.import_module(f"civrules._generated.validators.{validator_module('ruleset')}")
    unique = fastjsonschema.compile({"type": "array", "uniqueItems": True})
    try:
        unique(items)
        verdict = True
    except fastjsonschema.JsonSchemaException:
        verdict = False
    assert (module._distinct(items) == len(items)) is verdict
