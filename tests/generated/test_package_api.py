"""The public API of the five generated ruleset packages is the one recorded before the runtime was
split by family (tests/data/package-api.json, written by tests/generated/package_api.py at 0f58774): every
public name of each package and of its modules, its type and its value. The names the shared
runtime exported before the split are still importable from it, unchanged."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO
from tests.generated import package_api


def _current() -> dict[str, dict[str, object]]:
    # A fresh interpreter: the packages and runtimes are imported from generated/python alone.
    ran = subprocess.run(
        [sys.executable, "-m", "tests.generated.package_api"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    current: dict[str, dict[str, object]] = json.loads(ran.stdout)
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
