"""The public API of the five generated ruleset packages is the one recorded before the runtime was
split by family (tests/data/package-api.json, written by tests/generated/package_api.py at 0f58774): every
public name of each package and of its modules, its type and its value. The names the shared
runtime exported before the split are still importable from it, unchanged."""

from __future__ import annotations

import json

from tests.generated import package_api
from tests.variant_packages import packages_of


def _current() -> dict[str, dict[str, object]]:
    # Imported afresh from generated/python alone, in place of the modules this process holds (which
    # another test may have imported from elsewhere or changed): tests/variant_packages.py.
    with packages_of(package_api.GENERATED):
        current: dict[str, dict[str, object]] = json.loads(package_api.render(package_api.snapshot()))
    return current


def test_every_public_name_type_and_value_of_each_package_is_unchanged() -> None:
    recorded = json.loads(package_api.SNAPSHOT.read_text(encoding="utf-8"))
    current = _current()
    assert sorted(current) == sorted(recorded)
    for module, names in recorded.items():
        # The shared runtime may gain names (its record and protocol bases); a package may not.
        compared = names.keys() if module == package_api.RUNTIME else names.keys() | current[module].keys()
        differ = sorted(n for n in compared if names.get(n) != current[module].get(n))
        assert not differ, f"{module}: these public names changed: {differ}"
