"""docs/engine.md ("Import"): an engine tells which family a loaded package is of by its
``SETTINGS``, the settings record of that family's runtime only, never by ``isinstance`` on a
family's protocol, which is not ``@runtime_checkable`` on purpose: a protocol's ``isinstance``
checks only that its names are present, and from Python 3.12 looks them up without calling the
module ``__getattr__`` a package loads its tables through, so it would refuse every package
(round 33: the engine trial's leftover, decided)."""

from __future__ import annotations

import importlib
from typing import Any, TypeGuard

import pytest

from tests.engine.test_type_hints import EVERY_PACKAGE  # puts generated/ on the path

from civrules_rulesets import advanced_civilization  # isort: skip
from civrules_runtime_advanced_civilization import RulesetPackage as CivilizationPackage  # isort: skip
from civrules_runtime_advanced_civilization.settings import Settings as CivilizationSettings  # isort: skip
from civrules_runtime_imperial_settlers import RulesetPackage as SettlersPackage  # isort: skip
from civrules_runtime_imperial_settlers.settings import Settings as SettlersSettings  # isort: skip
from civrules_runtime_sid_meiers_civilization import RulesetPackage as SidPackage  # isort: skip
from civrules_runtime_sid_meiers_civilization.settings import Settings as SidSettings  # isort: skip


def is_settlers(rules: object) -> TypeGuard[SettlersPackage]:  # as docs/engine.md gives it
    return isinstance(getattr(rules, "SETTINGS", None), SettlersSettings)


def is_civilization(rules: object) -> TypeGuard[CivilizationPackage]:
    return isinstance(getattr(rules, "SETTINGS", None), CivilizationSettings)


def is_sid(rules: object) -> TypeGuard[SidPackage]:
    return isinstance(getattr(rules, "SETTINGS", None), SidSettings)


def _family(package: str) -> str:
    if package.startswith("imperial_settlers"):
        return "settlers"
    return "sid" if package.startswith("sid_meiers_civilization") else "civilization"


@pytest.mark.parametrize("package", EVERY_PACKAGE)
def test_a_packages_settings_tell_its_family_and_no_other(package: str) -> None:
    imported: object = importlib.import_module(f"civrules_rulesets.{package}")
    told = {
        name
        for name, test in (("settlers", is_settlers), ("civilization", is_civilization), ("sid", is_sid))
        if test(imported)
    }
    assert told == {_family(package)}
    if is_settlers(imported):  # narrowed: the family's typed SETTINGS, for mypy --strict too
        assert isinstance(imported.SETTINGS, SettlersSettings)
    assert not is_settlers(object()) and not is_settlers(None)


def test_a_view_with_assumptions_is_told_as_its_package() -> None:
    import civrules_runtime_imperial_settlers as runtime
    from civrules_rulesets import imperial_settlers

    view = imperial_settlers.assuming(runtime.Assumptions(why="nothing it lacks"))
    assert is_settlers(view) and not is_civilization(view) and not is_sid(view)


@pytest.mark.parametrize("protocol", [CivilizationPackage, SettlersPackage, SidPackage])
def test_isinstance_on_a_familys_protocol_is_a_type_error_not_a_misleading_answer(protocol: Any) -> None:
    with pytest.raises(TypeError, match="runtime_checkable"):
        isinstance(advanced_civilization, protocol)
