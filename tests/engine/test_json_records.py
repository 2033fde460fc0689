"""docs/engine.md: a record's ``asdict()`` is what ``json.dumps`` writes (ids as their strings, tuples as
lists), for every record of every table of every package; the record class called with it is
refused naming the field (its inverse is ``from_dict``: test_from_dict.py), and an engine that
saves ids takes the records from the package again (round 33's engine trial: JSON round-trips of
records)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tests.engine.test_type_hints import EVERY_PACKAGE


def records_of(package: Any) -> Iterator[tuple[str, Any]]:
    """Each record a table of ``package`` holds (a table's rows, and rows of rows), by where it is."""
    from civrules_runtime.records import Record

    for name in package.__all__:
        table = getattr(package, name)
        if not isinstance(table, Mapping) or isinstance(table, Record):
            continue
        for key, row in table.items():
            rows = row.values() if isinstance(row, Mapping) and not isinstance(row, Record) else (row,)
            for each in rows:
                if isinstance(each, Record):
                    yield f"{name}[{key!r}]", each


@pytest.mark.parametrize("package", EVERY_PACKAGE)
def test_every_records_asdict_is_what_json_writes(package: str) -> None:
    imported = importlib.import_module(f"civrules_rulesets.{package}")
    seen = 0
    for where, record in records_of(imported):
        written = json.loads(json.dumps(record.asdict()))  # a set or a record left in it: TypeError
        assert list(written) == list(record._fields), where
        seen += 1
    assert json.dumps(imported.SETTINGS.asdict())
    assert seen > 0


def test_a_record_is_taken_again_by_its_id_not_rebuilt_from_its_dict() -> None:
    from civrules_rulesets import advanced_civilization as ac
    from civrules_runtime.errors import OutOfDomainError

    law = ac.CARDS["law"]
    saved = json.loads(json.dumps({"card": law.id}))
    assert ac.CARDS[saved["card"]] is law
    card: Any = type(law)  # called as an engine would, with what mypy refuses
    with pytest.raises(OutOfDomainError, match=r"^Card\.attributes=.* is not of its type"):
        card(**law.asdict())
