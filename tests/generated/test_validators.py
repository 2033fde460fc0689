"""The fast validators shipped in civrules/_validators/ are exactly what the generator makes from
today's schemas; one that no longer matches its schema is not used."""

from __future__ import annotations

import importlib
import re

import fastjsonschema
import pytest

from civrules import schema
from civrules.schema import SCHEMA_FILES, load_schema, schema_digest, validator_module
from tools.validators import TARGET, render_validator


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
