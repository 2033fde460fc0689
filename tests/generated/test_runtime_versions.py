"""A generated package imported beside a runtime older than the one it was built with (or of the
next major version) says which it needs, which it found and where, as it is imported (round 29).

Its ``pyproject.toml`` asks the installer for the runtimes it needs, but a consumer of two packages
built by different civrules, whose runtimes were copied beside the engine or installed with
``--no-deps``, imports the runtime that comes first: a package of this round under runtime 2.10
imported, then ended the first table's import in ``ImportError: cannot import name 'data_maker'``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

#: One package of each family, and its family's runtime.
PACKAGES = {
    "advanced_civilization": "civrules_runtime_advanced_civilization",
    "imperial_settlers": "civrules_runtime_imperial_settlers",
    "sid_meiers_civilization": "civrules_runtime_sid_meiers_civilization",
}


def _forget(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """``name`` and its modules imported again by the next import (put back after the test)."""
    for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
        monkeypatch.delitem(sys.modules, module)


@pytest.mark.parametrize("package", sorted(PACKAGES))
@pytest.mark.parametrize("shared", [True, False], ids=["shared-runtime", "family-runtime"])
@pytest.mark.parametrize("found", ["older", "next-major", "none"])
def test_a_package_refuses_a_runtime_it_was_not_built_for(
    monkeypatch: pytest.MonkeyPatch, package: str, shared: bool, found: str
) -> None:
    runtime = importlib.import_module("civrules_runtime" if shared else PACKAGES[package])
    major, minor, _ = str(runtime.__version__).split(".", 2)
    if found == "none":
        monkeypatch.delattr(runtime, "__version__")
    else:
        older = f"{major}.{int(minor) - 1}.9" if int(minor) else f"{int(major) - 1}.99.0"
        monkeypatch.setattr(runtime, "__version__", older if found == "older" else f"{int(major) + 1}.0.0")
    name = f"civrules_rulesets.{package}"
    _forget(monkeypatch, name)
    with pytest.raises(ImportError) as refused:
        importlib.import_module(name)
    said = str(refused.value)
    wanted = f"{runtime.__name__.replace('_', '-')}>={major}.{minor},<{int(major) + 1}"
    assert said.startswith(f"{name} needs {wanted}, but the {runtime.__name__} imported (from "), said
    assert str(Path(str(runtime.__file__))) in said and f"pip install '{wanted}'" in said
    assert ("of no version" in said) == (found == "none")
    assert refused.value.name == runtime.__name__
    assert name not in sys.modules


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_package_takes_a_later_runtime_of_its_major_version(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    runtime = importlib.import_module("civrules_runtime")
    major, minor, _ = str(runtime.__version__).split(".", 2)
    monkeypatch.setattr(runtime, "__version__", f"{major}.{int(minor) + 5}.0")
    name = f"civrules_rulesets.{package}"
    _forget(monkeypatch, name)
    assert importlib.import_module(name).__name__ == name


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_module_of_the_runtime_s_name_that_is_no_runtime_is_named(
    monkeypatch: pytest.MonkeyPatch, package: str
) -> None:
    """A user's `civrules_runtime.py` first on the path: the family runtime's own import of the
    shared one ended in "'civrules_runtime' is not a package", which named neither the file nor
    what to install."""
    import types

    impostor = types.ModuleType("civrules_runtime")
    impostor.__file__ = "/srv/engine/civrules_runtime.py"
    for name in ("civrules_runtime", PACKAGES[package], f"civrules_rulesets.{package}"):
        _forget(monkeypatch, name)
    monkeypatch.setitem(sys.modules, "civrules_runtime", impostor)
    with pytest.raises(ImportError) as refused:
        importlib.import_module(f"civrules_rulesets.{package}")
    said = str(refused.value)
    assert "the civrules_runtime imported (from /srv/engine/civrules_runtime.py) is of no version" in said, said


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_runtime_not_installed_is_named_with_what_installs_it(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    family = PACKAGES[package]
    for name in (family, f"civrules_rulesets.{package}"):
        _forget(monkeypatch, name)
    monkeypatch.setitem(sys.modules, family, None)  # as an import finds no such module
    with pytest.raises(ImportError) as refused:
        importlib.import_module(f"civrules_rulesets.{package}")
    said = str(refused.value)
    assert f"and no {family} is installed: install the runtimes this package names: pip install '" in said, said
    assert refused.value.name == family
