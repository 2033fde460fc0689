"""A record an engine makes by calling its class with a dict where a field is a table holds a
FrozenMap, as the package's own records do: before round 33 five record classes (Advanced
Civilization's ``Epoch.requirements``, Imperial Settlers' ``price``, ``draw`` and ``reveal``, Sid
Meier's ``Research.costs`` and ``Pyramid.minimums``) kept the caller's dict, so the frozen record
changed when the dict did and did not hash (found by ``from_dict``'s round trips)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tests.engine.test_record_subclasses import _arguments, _one_of_each  # puts generated/ on the path

from civrules_rulesets import advanced_civilization as ac  # isort: skip - after the import that puts generated/ on the path
from civrules_rulesets import imperial_settlers as imperial  # isort: skip
from civrules_rulesets import sid_meiers_civilization as smc  # isort: skip
from civrules_runtime.mappings import FrozenMap  # isort: skip
from civrules_runtime.records import Record  # isort: skip


@pytest.mark.parametrize(
    "package",
    [ac, imperial, smc],
    ids=lambda package: package.__name__.rpartition(".")[2],
)
def test_a_table_field_given_a_dict_holds_a_frozen_map_not_the_dict(package: Any) -> None:
    tables = 0
    for record in _one_of_each(package):
        for name, value in zip(record._names(), record._values(), strict=True):
            if not isinstance(value, Mapping) or isinstance(value, Record):
                continue
            given = dict(value)
            made = type(record)(**{**_arguments(record), name: given})
            held = getattr(made, name)
            assert isinstance(held, FrozenMap), f"{type(record).__name__}.{name}"
            given["changed by the engine"] = 0
            assert held == value and made == record
            assert hash(made) == hash(record)
            tables += 1
    assert tables >= 2
